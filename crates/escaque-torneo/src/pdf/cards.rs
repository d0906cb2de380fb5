//! Login cards for a class (issue 26): eight cards on each A4 page, two
//! columns by four rows, with dashed cut lines between them. Each card holds
//! the class's name, a small note for the teacher who hands it out (the
//! pupil's real name), the account name, the class code, a short hint, the
//! login link written out, and the link's QR code drawn as filled squares.
//!
//! The QR code comes as its modules ([`QrModules`]); encoding the link is
//! the caller's business (the server uses the `qrcode` crate), so this crate
//! stays free of it.

use super::{fit, text_width, Doc, PAGE_H, PAGE_W};

/// Around the grid of cards.
const PAGE_MARGIN: f64 = 24.0;
const COLS: usize = 2;
const ROWS: usize = 4;
/// Cards on a page.
const PER_PAGE: usize = COLS * ROWS;
/// Inside a card.
const PAD: f64 = 12.0;
/// The QR code's side with its quiet zone, in points.
const QR_SIDE: f64 = 126.0;
/// The quiet zone around a QR code, in modules (the standard asks for 4).
const QUIET: usize = 4;

/// A QR code's modules: `size` × `size`, row by row from the top, `true`
/// for a dark module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QrModules {
    /// Modules on a side.
    pub size: usize,
    /// Row-major, `size * size` long (a shorter one is read as light).
    pub dark: Vec<bool>,
}

impl QrModules {
    fn is_dark(&self, row: usize, col: usize) -> bool {
        row < self.size && col < self.size && self.dark.get(row * self.size + col) == Some(&true)
    }
}

/// One pupil's card.
#[derive(Clone, Debug)]
pub struct Card {
    /// The class's name (the card's heading).
    pub title: String,
    /// A small line for whoever hands the cards out (the real name); may be
    /// empty.
    pub note: String,
    /// The account name the pupil picks.
    pub name: String,
    /// The class code the pupil types.
    pub code: String,
    /// The login link, written out.
    pub link: String,
    /// The login link as a QR code.
    pub qr: QrModules,
}

/// The words on every card, in the reader's language.
#[derive(Clone, Debug)]
pub struct CardTexts {
    /// Label of the account name ("Tu usuario").
    pub user: String,
    /// Label of the class code ("Código de la clase").
    pub code: String,
    /// What to do ("Escanea el código o abre el enlace, elige tu nombre y
    /// escribe el código").
    pub hint: String,
    /// Label of the written-out link ("Enlace").
    pub link: String,
    /// The text of a document without cards.
    pub empty: String,
}

/// `s` in lines no wider than `max` points: at spaces, or anywhere when
/// `anywhere` (a link); at most `limit` lines, the last cut with `…`.
fn wrap(s: &str, max: f64, size: f64, bold: bool, anywhere: bool, limit: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let pieces: Vec<String> = if anywhere {
        s.chars().map(String::from).collect()
    } else {
        s.split_whitespace().map(String::from).collect()
    };
    for piece in pieces {
        let candidate = if line.is_empty() || anywhere {
            format!("{line}{piece}")
        } else {
            format!("{line} {piece}")
        };
        if text_width(&candidate, size, bold) <= max || line.is_empty() {
            line = candidate;
        } else {
            lines.push(std::mem::take(&mut line));
            line = piece;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    if lines.len() > limit {
        let rest = lines
            .split_off(limit - 1)
            .join(if anywhere { "" } else { " " });
        lines.push(fit(&rest, max, size, bold));
    }
    lines
        .into_iter()
        .map(|l| fit(&l, max, size, bold))
        .collect()
}

/// Writes in grey.
fn grey(doc: &mut Doc, on: bool) {
    let g: &[u8] = if on { b"0.35 g\n" } else { b"0 g\n" };
    doc.page().extend_from_slice(g);
}

/// The dashed cut lines of a page holding `n` cards.
fn cut_lines(doc: &mut Doc, n: usize, cell_w: f64, cell_h: f64) {
    let rows = n.div_ceil(COLS).min(ROWS);
    let left = PAGE_MARGIN;
    let right = PAGE_W - PAGE_MARGIN;
    let top = PAGE_H - PAGE_MARGIN;
    let bottom = top - rows as f64 * cell_h;
    let mut s = String::from("q 0.6 G 0.5 w [4 3] 0 d\n");
    for r in 0..=rows {
        let y = top - r as f64 * cell_h;
        s.push_str(&format!("{left:.2} {y:.2} m {right:.2} {y:.2} l S\n"));
    }
    for c in 0..=COLS {
        let x = left + c as f64 * cell_w;
        s.push_str(&format!("{x:.2} {top:.2} m {x:.2} {bottom:.2} l S\n"));
    }
    s.push_str("Q\n");
    doc.page().extend_from_slice(s.as_bytes());
}

/// The QR code with its quiet zone in a square of side `side` whose
/// top-left corner is (`x`, `top`): one filled rectangle per run of dark
/// modules in a row.
/// A QR code with its quiet zone, `side` points wide, its top-left corner
/// at (`x`, `top`) (the team pairing sheet draws them too).
pub(super) fn draw_qr(doc: &mut Doc, qr: &QrModules, x: f64, top: f64, side: f64) {
    let m = side / (qr.size + 2 * QUIET) as f64;
    // The code's square, quiet zone included, painted white first: a rule
    // or text drawn there before (the team pairing sheet's table rule ran
    // under its match's code) would otherwise cross the modules, and a
    // scanner then misses the code now and then.
    let mut s = format!(
        "q 1 g {x:.3} {:.3} {side:.3} {side:.3} re f\n0 g\n",
        top - side
    );
    for row in 0..qr.size {
        let mut col = 0;
        while col < qr.size {
            if !qr.is_dark(row, col) {
                col += 1;
                continue;
            }
            let start = col;
            while col < qr.size && qr.is_dark(row, col) {
                col += 1;
            }
            let rx = x + (QUIET + start) as f64 * m;
            let ry = top - (QUIET + row + 1) as f64 * m;
            let w = (col - start) as f64 * m;
            s.push_str(&format!("{rx:.3} {ry:.3} {w:.3} {m:.3} re\n"));
        }
    }
    s.push_str("f Q\n");
    doc.page().extend_from_slice(s.as_bytes());
}

/// One card in the cell whose top-left corner is (`x0`, `top`).
fn draw_card(doc: &mut Doc, card: &Card, texts: &CardTexts, x0: f64, top: f64, cell_w: f64) {
    let qr_x = x0 + cell_w - PAD - QR_SIDE;
    draw_qr(doc, &card.qr, qr_x, top - PAD, QR_SIDE);
    let lx = x0 + PAD;
    let lw = cell_w - 3.0 * PAD - QR_SIDE;
    let mut y = top - PAD - 9.0;
    doc.text_xy(lx, y, &fit(&card.title, lw, 10.0, true), 10.0, true);
    if !card.note.is_empty() {
        y -= 11.0;
        grey(doc, true);
        doc.text_xy(lx, y, &fit(&card.note, lw, 7.5, false), 7.5, false);
        grey(doc, false);
    }
    y -= 17.0;
    doc.text_xy(lx, y, &fit(&texts.user, lw, 7.5, false), 7.5, false);
    y -= 14.0;
    doc.text_xy(lx, y, &fit(&card.name, lw, 11.0, true), 11.0, true);
    y -= 16.0;
    doc.text_xy(lx, y, &fit(&texts.code, lw, 7.5, false), 7.5, false);
    y -= 19.0;
    doc.text_xy(lx, y, &fit(&card.code, lw, 18.0, true), 18.0, true);
    y -= 4.0;
    grey(doc, true);
    for line in wrap(&texts.hint, lw, 7.0, false, false, 4) {
        y -= 8.5;
        doc.text_xy(lx, y, &line, 7.0, false);
    }
    grey(doc, false);
    // Under the QR code, across the card: the link written out.
    let wide = cell_w - 2.0 * PAD;
    let mut y = top - PAD - QR_SIDE - 9.0;
    doc.text_xy(lx, y, &fit(&texts.link, wide, 7.5, false), 7.5, false);
    for line in wrap(&card.link, wide, 8.0, false, true, 3) {
        y -= 10.0;
        doc.text_xy(lx, y, &line, 8.0, false);
    }
}

/// The login cards, eight to an A4 page in the order given, with dashed
/// cut lines; no cards gives one page with `texts.empty`.
pub fn login_cards(cards: &[Card], texts: &CardTexts) -> Vec<u8> {
    let mut doc = Doc::new();
    if cards.is_empty() {
        doc.line(&texts.empty, 11.0, false);
        return doc.finish();
    }
    let cell_w = (PAGE_W - 2.0 * PAGE_MARGIN) / COLS as f64;
    let cell_h = (PAGE_H - 2.0 * PAGE_MARGIN) / ROWS as f64;
    for (p, page) in cards.chunks(PER_PAGE).enumerate() {
        if p > 0 {
            doc.pages.push(Vec::new());
        }
        cut_lines(&mut doc, page.len(), cell_w, cell_h);
        for (i, card) in page.iter().enumerate() {
            let x0 = PAGE_MARGIN + (i % COLS) as f64 * cell_w;
            let top = PAGE_H - PAGE_MARGIN - (i / COLS) as f64 * cell_h;
            draw_card(&mut doc, card, texts, x0, top, cell_w);
        }
    }
    doc.finish()
}

/// Where card `i` of a page lies, in points from the page's top-left
/// corner: (left, top, width, height). For a reader that cuts the page.
pub fn card_cell(i: usize) -> (f64, f64, f64, f64) {
    let cell_w = (PAGE_W - 2.0 * PAGE_MARGIN) / COLS as f64;
    let cell_h = (PAGE_H - 2.0 * PAGE_MARGIN) / ROWS as f64;
    let i = i % PER_PAGE;
    (
        PAGE_MARGIN + (i % COLS) as f64 * cell_w,
        PAGE_MARGIN + (i / COLS) as f64 * cell_h,
        cell_w,
        cell_h,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts() -> CardTexts {
        CardTexts {
            user: "Tu usuario".into(),
            code: "Código de la clase".into(),
            hint: "Escanea el código o abre el enlace, elige tu nombre y escribe el código.".into(),
            link: "Enlace".into(),
            empty: "Esta clase no tiene alumnos.".into(),
        }
    }

    fn card(i: usize) -> Card {
        Card {
            title: "3.º B (Ñandú)".into(),
            note: format!("Niña Número {i}"),
            name: format!("TortugaValiente{i}"),
            code: "K7PXM4".into(),
            link: format!(
                "http://127.0.0.1:8080/clase/ABCDEFGHIJKLMNOP/entrar?alumno=TortugaValiente{i}"
            ),
            qr: QrModules {
                size: 21,
                dark: (0..441).map(|k| k % 3 == 0).collect(),
            },
        }
    }

    fn count(pdf: &[u8], needle: &[u8]) -> usize {
        pdf.windows(needle.len()).filter(|w| *w == needle).count()
    }

    #[test]
    fn eight_cards_a_page_each_with_its_texts() {
        let cards: Vec<Card> = (0..12).map(card).collect();
        let pdf = login_cards(&cards, &texts());
        super::super::tests::check_structure(&pdf);
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("/Count 2 >>"), "12 cards on two pages");
        for i in 0..12 {
            let name = format!("(TortugaValiente{i}) Tj");
            assert_eq!(count(&pdf, name.as_bytes()), 1, "card {i}");
        }
        assert_eq!(count(&pdf, b"(K7PXM4) Tj"), 12);
        // WinAnsi: Ñ is 0xD1, ú 0xFA, ó 0xF3.
        assert_eq!(count(&pdf, b"(3.\xba B \\(\xd1and\xfa\\)) Tj"), 12);
        assert_eq!(count(&pdf, b"(C\xf3digo de la clase) Tj"), 12);
        // Dashed cut lines on both pages.
        assert_eq!(count(&pdf, b"[4 3] 0 d"), 2);
    }

    #[test]
    fn the_qr_code_is_drawn_one_rectangle_per_run() {
        let mut c = card(1);
        // Row 0 dark from column 2 to 4 (one run), everything else light.
        c.qr.dark = vec![false; 441];
        for k in 2..5 {
            c.qr.dark[k] = true;
        }
        let pdf = login_cards(&[c], &texts());
        let text = String::from_utf8_lossy(&pdf);
        assert_eq!(text.matches(" re\n").count(), 1, "one run, one rectangle");
    }

    #[test]
    fn a_long_link_is_wrapped_never_cut_short() {
        let link = format!(
            "http://escuela.example:8080/clase/{}/entrar",
            "X".repeat(90)
        );
        let lines = wrap(&link, 249.0, 8.0, false, true, 3);
        assert!(lines.len() > 1);
        assert_eq!(lines.concat(), link);
        for l in &lines {
            assert!(text_width(l, 8.0, false) <= 249.0);
        }
        let words = wrap("uno dos tres cuatro", 30.0, 7.0, false, false, 2);
        assert_eq!(words.len(), 2);
        assert!(words[1].ends_with('…'));
    }

    #[test]
    fn no_cards_is_one_page_that_says_so() {
        let pdf = login_cards(&[], &texts());
        super::super::tests::check_structure(&pdf);
        assert_eq!(count(&pdf, b"(Esta clase no tiene alumnos.) Tj"), 1);
    }

    #[test]
    fn cells_tile_the_page() {
        let (x, y, w, h) = card_cell(3);
        assert_eq!((x, y), (PAGE_MARGIN + w, PAGE_MARGIN + h));
        assert_eq!(card_cell(8), card_cell(0));
    }
}
