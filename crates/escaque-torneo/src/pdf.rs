//! Printable PDF pages written here, as bytes: the pairings of a round and
//! the standings, on A4 or US Letter ([`Paper`]; numbers as
//! [`crate::print`] writes them), in the PDF's standard Helvetica (no font file is
//! embedded; every PDF reader has it). Pure, like the rest of the crate: the
//! front end (the server) sends or saves the bytes.
//!
//! Text is written in WinAnsiEncoding, which holds the Spanish letters
//! (á é í ó ú ü ñ ¿ ¡) and ½; a character it lacks is written `?`. Column
//! widths are measured with Helvetica's widths for the characters in use
//! (an average for the rest), and a text too wide for its column is cut
//! with `…`.
//!
//! The login cards of a class (issue 26) are in [`login_cards`], eight to a
//! page with their QR codes.

mod cards;
mod grid;
mod teams;

use std::fmt::Write as _;

use crate::html::{bye_text, result_text};
use crate::model::Tournament;
pub use crate::print::Paper;
use crate::print::{number, points};
use crate::standings::{self, TieBreak};

pub use cards::{card_cell, login_cards, Card, CardTexts, QrModules};
pub use grid::{grid_sheet, GridSheet};
pub use teams::{team_boards, team_pairings, team_standings, MatchQr};

const PAGE_W: f64 = 595.0;
const PAGE_H: f64 = 842.0;
const MARGIN: f64 = 40.0;
const SIZE: f64 = 9.5;
const LINE: f64 = 13.0;

/// One byte of WinAnsiEncoding for `c`, `?` when it has none.
fn win_ansi(c: char) -> u8 {
    match c {
        ' '..='~' => c as u8,
        '\u{a0}'..='\u{ff}' => c as u32 as u8,
        '€' => 0x80,
        '…' => 0x85,
        '‘' => 0x91,
        '’' => 0x92,
        '“' => 0x93,
        '”' => 0x94,
        '•' => 0x95,
        '–' => 0x96,
        '—' => 0x97,
        '−' => b'-',
        _ => b'?',
    }
}

/// Helvetica's advance width of a WinAnsi byte, in thousandths of the size.
fn width(b: u8, bold: bool) -> f64 {
    let w = match b {
        b' ' | b'!' | b'I' | b'[' | b']' | b'/' | b'\\' | b'f' | b't' | b'.' | b',' | b':'
        | b';' => 278,
        b'i' | b'j' | b'l' | b'\'' => 222,
        b'(' | b')' | b'-' | b'r' => 333,
        b'0'..=b'9'
        | b'a'..=b'e'
        | b'g'
        | b'h'
        | b'n'..=b'q'
        | b's'
        | b'u'
        | b'v'
        | b'x'
        | b'y'
        | b'z'
        | b'?'
        | b'_'
        | b'#'
        | b'$' => 556,
        b'k' | b'J' => 500,
        b'm' | b'M' => 833,
        b'w' | b'C' | b'D' | b'G' | b'H' | b'N' | b'O' | b'Q' | b'R' | b'U' => 722,
        b'W' => 944,
        b'A' | b'B' | b'E' | b'K' | b'P' | b'S' | b'V' | b'X' | b'Y' | b'&' => 667,
        b'F' | b'T' | b'Z' => 611,
        b'L' | b'+' | b'<' | b'=' | b'>' => 584,
        0xBD => 834,
        _ => 556,
    };
    // Helvetica-Bold is about 5 % wider.
    f64::from(w) * if bold { 1.05 } else { 1.0 }
}

/// The width of `s` in points at size `size`.
fn text_width(s: &str, size: f64, bold: bool) -> f64 {
    s.chars().map(|c| width(win_ansi(c), bold)).sum::<f64>() * size / 1000.0
}

/// `s` cut with `…` to fit `max` points.
fn fit(s: &str, max: f64, size: f64, bold: bool) -> String {
    if text_width(s, size, bold) <= max {
        return s.to_string();
    }
    let mut out = String::new();
    for c in s.chars() {
        let next = format!("{out}{c}…");
        if text_width(&next, size, bold) > max {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// A PDF string literal: WinAnsi bytes, `(`, `)` and `\` escaped.
fn literal(s: &str) -> Vec<u8> {
    let mut out = vec![b'('];
    for c in s.chars() {
        let b = win_ansi(c);
        if matches!(b, b'(' | b')' | b'\\') {
            out.push(b'\\');
        }
        out.push(b);
    }
    out.push(b')');
    out
}

/// Where a column's text sits.
#[derive(Clone, Copy)]
enum Align {
    Left,
    Right,
    Centre,
}

/// A table column: its width in points and alignment.
struct Column {
    width: f64,
    align: Align,
}

/// Pages being written: content streams, one per page, on paper `w` × `h`
/// points.
struct Doc {
    pages: Vec<Vec<u8>>,
    y: f64,
    w: f64,
    h: f64,
}

impl Doc {
    /// A4 (the login cards are laid out for it).
    fn new() -> Doc {
        Doc::on(Paper::A4)
    }

    fn on(paper: Paper) -> Doc {
        let (w, h) = paper.size();
        Doc {
            pages: vec![Vec::new()],
            y: h - MARGIN,
            w,
            h,
        }
    }

    fn page(&mut self) -> &mut Vec<u8> {
        self.pages.last_mut().expect("a page")
    }

    /// Room for `h` more points, or a new page.
    fn need(&mut self, h: f64) {
        if self.y - h < MARGIN {
            self.pages.push(Vec::new());
            self.y = self.h - MARGIN;
        }
    }

    fn text_at(&mut self, x: f64, s: &str, size: f64, bold: bool) {
        let y = self.y;
        self.text_xy(x, y, s, size, bold);
    }

    /// Text with its baseline's start at (`x`, `y`).
    fn text_xy(&mut self, x: f64, y: f64, s: &str, size: f64, bold: bool) {
        let font = if bold { "F2" } else { "F1" };
        let p = self.page();
        p.extend_from_slice(format!("BT /{font} {size:.1} Tf {x:.2} {y:.2} Td ").as_bytes());
        p.extend(literal(s));
        p.extend_from_slice(b" Tj ET\n");
    }

    fn line(&mut self, s: &str, size: f64, bold: bool) {
        self.need(size * 1.5);
        self.y -= size * 1.2;
        self.text_at(
            MARGIN,
            &fit(s, self.w - 2.0 * MARGIN, size, bold),
            size,
            bold,
        );
        self.y -= size * 0.3;
    }

    fn rule(&mut self) {
        let y = self.y - 3.0;
        let stroke = format!(
            "0.5 w {MARGIN:.2} {y:.2} m {:.2} {y:.2} l S\n",
            self.w - MARGIN
        );
        self.page().extend_from_slice(stroke.as_bytes());
    }

    fn row(&mut self, cols: &[Column], cells: &[String], bold: bool) {
        self.need(LINE);
        self.y -= LINE;
        let mut x = MARGIN;
        for (c, text) in cols.iter().zip(cells) {
            let t = fit(text, c.width - 4.0, SIZE, bold);
            let w = text_width(&t, SIZE, bold);
            let at = match c.align {
                Align::Left => x + 2.0,
                Align::Right => x + c.width - 2.0 - w,
                Align::Centre => x + (c.width - w) / 2.0,
            };
            self.text_at(at, &t, SIZE, bold);
            x += c.width;
        }
        if bold {
            self.rule();
            self.y -= 3.0;
        }
    }

    /// The document: catalogue, page tree, two fonts, then each page and
    /// its content; the cross-reference table gives every object's offset.
    fn finish(self) -> Vec<u8> {
        let n = self.pages.len();
        let (page_w, page_h) = (self.w, self.h);
        let mut out: Vec<u8> = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
        let mut offsets = Vec::new();
        let mut object = |out: &mut Vec<u8>, body: &[u8]| {
            offsets.push(out.len());
            let id = offsets.len();
            out.extend(format!("{id} 0 obj\n").as_bytes());
            out.extend(body);
            out.extend(b"\nendobj\n");
        };
        object(&mut out, b"<< /Type /Catalog /Pages 2 0 R >>");
        let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 5 + 2 * i)).collect();
        object(
            &mut out,
            format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")).as_bytes(),
        );
        for font in ["Helvetica", "Helvetica-Bold"] {
            object(
                &mut out,
                format!(
                    "<< /Type /Font /Subtype /Type1 /BaseFont /{font} /Encoding /WinAnsiEncoding >>"
                )
                .as_bytes(),
            );
        }
        for (i, content) in self.pages.iter().enumerate() {
            object(
                &mut out,
                format!(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page_w} {page_h}] \
                     /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {} 0 R >>",
                    6 + 2 * i
                )
                .as_bytes(),
            );
            let mut body = format!("<< /Length {} >>\nstream\n", content.len()).into_bytes();
            body.extend(content);
            body.extend(b"endstream");
            object(&mut out, &body);
        }
        let xref = out.len();
        let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1);
        for o in &offsets {
            let _ = writeln!(table, "{o:010} 00000 n ");
        }
        let _ = write!(
            table,
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            offsets.len() + 1
        );
        out.extend(table.as_bytes());
        out
    }
}

fn heading(doc: &mut Doc, t: &Tournament, title: &str) {
    doc.line(&t.name, 15.0, true);
    let place: Vec<&str> = [t.city.as_str(), t.start_date.as_str()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    if !place.is_empty() {
        doc.line(&place.join(", "), 10.0, false);
    }
    // FIDE mode's mark, on every printout (crate::fide).
    doc.line(&crate::fide::mark(t, escaque::Lang::Es), 9.0, false);
    doc.line(title, 12.0, true);
    doc.y -= 4.0;
}

fn name_of(t: &Tournament, id: u32) -> String {
    t.player(id)
        .map(|p| format!("{} ({id})", p.name))
        .unwrap_or_else(|_| id.to_string())
}

/// The pairings of `round` by board, each player's score before it, and
/// the players without a game (as `html::pairings`). A round not paired
/// gives a page that says so. On A4 ([`pairings_on`] for another paper).
pub fn pairings(t: &Tournament, round: u32) -> Vec<u8> {
    pairings_on(t, round, Paper::A4)
}

/// The pairings of `round` on `paper`.
pub fn pairings_on(t: &Tournament, round: u32, paper: Paper) -> Vec<u8> {
    let mut doc = Doc::on(paper);
    heading(&mut doc, t, &format!("Ronda {round}"));
    let Some(r) = round.checked_sub(1).and_then(|i| t.rounds.get(i as usize)) else {
        doc.line("Ronda sin emparejar.", SIZE, false);
        return doc.finish();
    };
    let cols = [
        Column {
            width: 36.0,
            align: Align::Right,
        },
        Column {
            width: 34.0,
            align: Align::Right,
        },
        Column {
            width: 175.0,
            align: Align::Left,
        },
        Column {
            width: 56.0,
            align: Align::Centre,
        },
        Column {
            width: 180.0,
            align: Align::Left,
        },
        Column {
            width: 34.0,
            align: Align::Right,
        },
    ];
    let head = ["Mesa", "Pts", "Blancas", "Resultado", "Negras", "Pts"].map(String::from);
    doc.row(&cols, &head, true);
    for (i, g) in r.games.iter().enumerate() {
        doc.row(
            &cols,
            &[
                (i + 1).to_string(),
                points(t.score_after(g.white, round - 1)),
                name_of(t, g.white),
                result_text(g).to_string(),
                name_of(t, g.black),
                points(t.score_after(g.black, round - 1)),
            ],
            false,
        );
    }
    if !r.byes.is_empty() {
        doc.y -= 8.0;
        let cols = [
            Column {
                width: 245.0,
                align: Align::Left,
            },
            Column {
                width: 270.0,
                align: Align::Left,
            },
        ];
        doc.row(&cols, &["Sin rival".to_string(), String::new()], true);
        for &(p, k) in &r.byes {
            doc.row(&cols, &[name_of(t, p), bye_text(k).to_string()], false);
        }
    }
    doc.finish()
}

/// The standings of the last round with every result in (as
/// `html::standings_page` heads them), with the organiser's tie-breaks.
/// On A4 ([`standings_on`] for another paper).
pub fn standings(t: &Tournament) -> Vec<u8> {
    standings_on(t, Paper::A4)
}

/// The standings on `paper`.
pub fn standings_on(t: &Tournament, paper: Paper) -> Vec<u8> {
    let table = standings::table(t);
    let mut title = if table.after_round == 0 {
        "Clasificación inicial".to_string()
    } else {
        format!("Clasificación tras la ronda {}", table.after_round)
    };
    if let Some(r) = table.in_progress {
        title.push_str(&format!(" (ronda {r} en juego)"));
    }
    let mut doc = Doc::on(paper);
    heading(&mut doc, t, &title);
    // The version of C.07, as the terminal and the HTML page head it, and
    // the tie-breaks the regulations drop (written as a dash, never 0).
    doc.line(
        &format!("{}.", standings::Rules::of(t).heading(escaque::Lang::Es)),
        10.0,
        false,
    );
    let dropped: Vec<TieBreak> = standings::dropped(t).into_iter().map(|d| d.0).collect();
    for tb in &dropped {
        doc.line(
            &format!(
                "{} no cuenta: hay jugadores sin Elo y las bases no fijan con qué Elo cuentan.",
                tb.acronym()
            ),
            10.0,
            false,
        );
    }
    doc.y -= 4.0;
    let shown = |v: f64, tb: &TieBreak| {
        if dropped.contains(tb) {
            "—".to_string()
        } else {
            number(v)
        }
    };
    // Columns as wide as their widest text (tie-breaks at least 30 points),
    // so that names and clubs are cut with `…` only when the page has no
    // room left; the room they do not need goes to the space between them.
    let rows: Vec<(String, String)> = table
        .rows
        .iter()
        .filter_map(|s| t.player(s.player).ok())
        .map(|p| (p.name.clone(), p.club.clone()))
        .collect();
    let widest = |texts: &mut dyn Iterator<Item = String>, bold_head: &str| {
        texts
            .map(|s| text_width(&s, SIZE, false))
            .fold(text_width(bold_head, SIZE, true), f64::max)
            + 8.0
    };
    let tb_widths: Vec<f64> = t
        .tiebreaks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            widest(
                &mut table
                    .rows
                    .iter()
                    .filter_map(|s| s.tiebreaks.get(i))
                    .map(|&v| shown(v, b)),
                b.acronym(),
            )
            .max(30.0)
        })
        .collect();
    let fixed = 32.0 + 32.0 + 40.0 + tb_widths.iter().sum::<f64>();
    let free = (doc.w - 2.0 * MARGIN - fixed).max(120.0);
    let name_w = widest(&mut rows.iter().map(|r| r.0.clone()), "Nombre");
    let club_w = widest(&mut rows.iter().map(|r| r.1.clone()), "Club");
    let (name_w, club_w) = if name_w + club_w <= free {
        let spare = free - name_w - club_w;
        (name_w + spare / 2.0, club_w + spare / 2.0)
    } else {
        // Not enough room: each keeps its share of what there is.
        let share = name_w / (name_w + club_w);
        (free * share, free * (1.0 - share))
    };
    let mut cols = vec![
        Column {
            width: 32.0,
            align: Align::Right,
        },
        Column {
            width: 32.0,
            align: Align::Right,
        },
        Column {
            width: name_w,
            align: Align::Left,
        },
        Column {
            width: club_w,
            align: Align::Left,
        },
        Column {
            width: 40.0,
            align: Align::Right,
        },
    ];
    let mut head: Vec<String> = ["Pto", "Nº", "Nombre", "Club", "Puntos"]
        .map(String::from)
        .to_vec();
    for (b, &width) in t.tiebreaks.iter().zip(&tb_widths) {
        cols.push(Column {
            width,
            align: Align::Right,
        });
        head.push(b.acronym().to_string());
    }
    doc.row(&cols, &head, true);
    for s in &table.rows {
        let Ok(p) = t.player(s.player) else {
            continue;
        };
        let mut cells = vec![
            s.rank.to_string(),
            s.player.to_string(),
            p.name.clone(),
            p.club.clone(),
            points(s.points),
        ];
        cells.extend(
            s.tiebreaks
                .iter()
                .zip(&t.tiebreaks)
                .map(|(&v, tb)| shown(v, tb)),
        );
        doc.row(&cols, &cells, false);
    }
    doc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Player, System};
    use crate::pairing::pair_next_round;

    /// The byte offsets in the cross-reference table point at their objects,
    /// and `startxref` at the table.
    pub(super) fn check_structure(pdf: &[u8]) {
        let text = String::from_utf8_lossy(pdf);
        assert!(pdf.starts_with(b"%PDF-1.4\n"));
        assert!(text.ends_with("%%EOF\n"));
        let start: usize = text
            .rsplit("startxref\n")
            .next()
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(pdf[start..].starts_with(b"xref\n"));
        let table = String::from_utf8_lossy(&pdf[start..]);
        for (i, line) in table.lines().skip(3).enumerate() {
            if line.starts_with("trailer") {
                break;
            }
            let off: usize = line[..10].parse().unwrap();
            let head = format!("{} 0 obj", i + 1);
            assert!(pdf[off..].starts_with(head.as_bytes()), "object {}", i + 1);
        }
    }

    fn event() -> Tournament {
        let mut t = Tournament::new("Abierto (escolar) \\ Tucumán", System::Swiss, 3);
        t.city = "San Miguel".into();
        for i in 0..41 {
            let mut p = Player::new(&format!("Niño Ñandú {i} <b>"));
            p.club = "Colegio «Sarmiento»".into();
            t.add_player(p).unwrap();
        }
        pair_next_round(&mut t).unwrap();
        t
    }

    #[test]
    fn pairings_are_a_well_formed_pdf_with_spanish_text() {
        let t = event();
        let pdf = pairings(&t, 1);
        check_structure(&pdf);
        // WinAnsi: ñ is 0xF1, Ñ 0xD1, ú 0xFA, « 0xAB; parentheses and the
        // backslash escaped.
        let needle = b"(Ni\xf1o \xd1and\xfa 0 <b> \\(1\\)) Tj";
        assert!(pdf.windows(needle.len()).any(|w| w == needle));
        let title = b"(Abierto \\(escolar\\) \\\\ Tucum\xe1n) Tj";
        assert!(pdf.windows(title.len()).any(|w| w == title));
        assert!(String::from_utf8_lossy(&pdf).contains("/Count 1 >>"));
        // 60 boards do not fit one page: the table goes on on the next.
        let mut big = Tournament::new("Grande", System::Swiss, 1);
        for i in 0..120 {
            big.add_player(Player::new(&format!("P{i}"))).unwrap();
        }
        pair_next_round(&mut big).unwrap();
        let pdf = pairings(&big, 1);
        check_structure(&pdf);
        assert!(String::from_utf8_lossy(&pdf).contains("/Count 2 >>"));
        // A round not paired says so.
        let none = pairings(&t, 7);
        check_structure(&none);
        let msg = b"(Ronda sin emparejar.)";
        assert!(none.windows(msg.len()).any(|w| w == msg));
        check_structure(&pairings(&t, 0));
    }

    #[test]
    fn standings_are_headed_with_the_last_complete_round() {
        let t = event();
        let pdf = standings(&t);
        check_structure(&pdf);
        let head = b"(Clasificaci\xf3n inicial \\(ronda 1 en juego\\)) Tj";
        assert!(pdf.windows(head.len()).any(|w| w == head));
        // Long names are cut to their column, never written past it.
        let mut long = t.clone();
        long.players[0].name = "W".repeat(33);
        let pdf = standings(&long);
        check_structure(&pdf);
        assert!(pdf.windows(3).any(|w| w == b"W\x85)"));
    }

    /// A4 unless Letter is asked for; the page box says which.
    #[test]
    fn the_paper_is_a4_or_letter_as_asked() {
        let t = event();
        for (paper, media) in [
            (Paper::A4, "/MediaBox [0 0 595 842]"),
            (Paper::Letter, "/MediaBox [0 0 612 792]"),
        ] {
            for pdf in [pairings_on(&t, 1, paper), standings_on(&t, paper)] {
                check_structure(&pdf);
                let text = String::from_utf8_lossy(&pdf);
                assert!(text.contains(media), "{paper:?}");
            }
        }
    }

    /// Points and tie-breaks in one style, with the decimal comma.
    #[test]
    fn numbers_are_written_with_the_decimal_comma() {
        let mut t = Tournament::new("Coma", System::RoundRobin { double: false }, 3);
        for name in ["Ana", "Eva", "Luz", "Sol"] {
            t.add_player(Player::new(name)).unwrap();
        }
        for _ in 0..3 {
            pair_next_round(&mut t).unwrap();
            let boards = t.rounds.last().unwrap().games.len() as u32;
            let round = t.rounds.len() as u32;
            for b in 1..=boards {
                t.set_result_board(round, b, crate::model::Outcome::Draw)
                    .unwrap();
            }
        }
        let pdf = standings(&t);
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("(1,5) Tj"), "{text}");
        assert!(
            !text.contains(".5) Tj") && !text.contains(".25) Tj"),
            "{text}"
        );
    }

    #[test]
    fn characters_outside_win_ansi_become_question_marks() {
        assert_eq!(literal("ab"), b"(ab)".to_vec());
        assert_eq!(literal("☃½€"), b"(?\xbd\x80)".to_vec());
        assert_eq!(literal("−"), b"(-)".to_vec());
    }
}
