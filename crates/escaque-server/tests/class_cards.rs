//! The login cards of a class (issue 26): the PDF has one card per active
//! pupil, and every QR code on it, printed and scanned back (`pdftoppm`,
//! then `rqrr`), is exactly that pupil's login link; the HTML page has the
//! same cards with SVG QR codes that decode the same way; only the class's
//! teachers get them. A browser test takes the page's screenshots (desktop
//! and phone) for the teacher's guide.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;

use fantoccini::wd::{PrintConfiguration, PrintMargins, PrintSize};
use fantoccini::Client;

use crate::browser::{browser, js, log_in, runtime, shot, shots_dir, start_driver, until, R};
use crate::common::*;

/// An answer read as bytes (a PDF is not text).
type Raw = escaque_server::client::RawReply;

/// `GET path` with `cookies`, the answer as bytes.
async fn get_raw(addr: SocketAddr, path: &str, cookies: &[String]) -> Raw {
    get_as(addr, &addr.to_string(), path, cookies).await
}

/// `GET path` sent with the `Host` header `host`.
async fn get_as(addr: SocketAddr, host: &str, path: &str, cookies: &[String]) -> Raw {
    let cookie = cookies.join("; ");
    let extra: &[(&str, &str)] = if cookies.is_empty() {
        &[]
    } else {
        &[("Cookie", &cookie)]
    };
    escaque_server::client::http_raw(addr, host, "GET", path, None, extra)
        .await
        .expect("http")
}

/// The class's cards as PDF, asked for by its teacher with the query
/// `query` ("" or "?…").
async fn cards_pdf(addr: SocketAddr, c: &ClassFixture, query: &str) -> Raw {
    get_raw(
        addr,
        &format!("/api/classes/{}/cards.pdf{query}", c.id),
        &c.teacher.cookies,
    )
    .await
}

/// The login link the card of `name` must hold.
pub(crate) fn link(addr: SocketAddr, class: &str, name: &str) -> String {
    format!("http://{addr}/clase/{class}/entrar?alumno={name}")
}

/// The pupils' names in the cards' order: by real name as a class list
/// reads ("Alumno Número 2" before "Alumno Número 10"), which is the
/// fixture's order.
fn card_order(c: &ClassFixture) -> Vec<String> {
    c.pupils.iter().map(|p| p.name.clone()).collect()
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

/// A binary PGM (`P5`, as `pdftoppm -gray` writes): width, height, pixels.
pub(crate) fn read_pgm(path: &Path) -> (usize, usize, Vec<u8>) {
    let data = std::fs::read(path).expect("pgm");
    let mut fields = Vec::new();
    let mut at = 0;
    while fields.len() < 4 {
        while data[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while !data[at].is_ascii_whitespace() {
            at += 1;
        }
        fields.push(String::from_utf8_lossy(&data[start..at]).to_string());
    }
    assert_eq!(fields[0], "P5", "a binary grey map");
    let w: usize = fields[1].parse().expect("width");
    let h: usize = fields[2].parse().expect("height");
    assert_eq!(fields[3], "255");
    let pixels = data[at + 1..].to_vec();
    assert_eq!(pixels.len(), w * h);
    (w, h, pixels)
}

/// Every QR code found in a crop of a grey page, decoded.
pub(crate) fn decode_crop(
    w: usize,
    pixels: &[u8],
    (x0, y0, cw, ch): (usize, usize, usize, usize),
) -> Vec<String> {
    let mut img =
        rqrr::PreparedImage::prepare_from_greyscale(cw, ch, |x, y| pixels[(y0 + y) * w + x0 + x]);
    img.detect_grids()
        .into_iter()
        .map(|g| {
            g.decode()
                .map(|(_, text)| text)
                .unwrap_or_else(|e| format!("unreadable: {e:?}"))
        })
        .collect()
}

/// `pdf` printed at [`DPI`] in grey (`pdftoppm`; scripts/poppler.sh
/// installs it where it is missing) into the new folder `dir`: the pages'
/// PGM files, in order.
/// The resolution pages are printed at for scanning: as a laser printer
/// prints. (At 150 dpi rqrr's finder now and then misses a code that reads
/// at 200 and 300 dpi: its detector, not the card — the same PDF's code
/// decodes at both.)
const DPI: f64 = 300.0;

pub(crate) fn print_pages(pdf: &[u8], dir: &Path) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).expect("dir");
    let file = dir.join("doc.pdf");
    std::fs::write(&file, pdf).expect("write pdf");
    let have = Command::new("pdftoppm")
        .arg("-v")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let st = Command::new("bash")
            .arg(root.join("scripts/poppler.sh"))
            .status()
            .expect("could not run scripts/poppler.sh");
        assert!(st.success(), "scripts/poppler.sh failed: {st}");
    }
    let st = Command::new("pdftoppm")
        .args(["-r", &DPI.to_string(), "-gray"])
        .arg(&file)
        .arg(dir.join("page"))
        .status()
        .expect("pdftoppm runs (poppler-utils: scripts/test installs it)");
    assert!(st.success(), "pdftoppm failed: {st}");
    let mut pages: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgm"))
        .collect();
    pages.sort();
    pages
}

/// The cards' PDF printed at [`DPI`] in grey: the QR code of each card's
/// cell, page by page, in order (`cards` cards: exactly one readable code
/// in each of their cells, none in the empty cells).
pub(crate) fn scan_pdf(pdf: &[u8], cards: usize) -> Vec<String> {
    let dir = temp_dir("cards");
    let pages = print_pages(pdf, &dir);
    assert_eq!(pages.len(), cards.div_ceil(8), "pages: {pages:?}");
    let scale = DPI / 72.0;
    let mut found = Vec::new();
    for (p, page) in pages.iter().enumerate() {
        let (w, h, pixels) = read_pgm(page);
        let on_page = (cards - p * 8).min(8);
        for i in 0..on_page {
            let (x, y, cw, ch) = escaque_torneo::pdf::card_cell(i);
            let crop = (
                (x * scale) as usize + 2,
                (y * scale) as usize + 2,
                ((cw * scale) as usize - 4).min(w),
                ((ch * scale) as usize - 4).min(h),
            );
            let codes = decode_crop(w, &pixels, crop);
            assert_eq!(codes.len(), 1, "page {} card {i}: {codes:?}", p + 1);
            found.push(codes[0].clone());
        }
        // Nothing beyond the cards: the empty cells hold no code.
        if on_page < 8 {
            let (_, y, _, _) = escaque_torneo::pdf::card_cell(on_page.div_ceil(2) * 2);
            let top = (y * scale) as usize + 2;
            if top < h {
                assert!(decode_crop(w, &pixels, (0, top, w, h - top)).is_empty());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    found
}

async fn the_pdf_holds_one_scannable_card_per_pupil_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 12).await;
    let r = cards_pdf(s.addr, &c, "").await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("content-type"), Some("application/pdf"));
    assert!(r.body.starts_with(b"%PDF-1.4"));
    if db == Db::Sqlite {
        let _ = std::fs::write(shots_dir().join("tarjetas.pdf"), &r.body);
    }
    // Twelve cards on two pages, each with its name, its real name (the
    // teacher's printout) and the class code.
    assert_eq!(count(&r.body, b"/Count 2 >>"), 1);
    for p in &c.pupils {
        assert_eq!(
            count(&r.body, format!("({}) Tj", p.name).as_bytes()),
            1,
            "{}",
            p.name
        );
        // WinAnsi: ú (U+00FA) is the byte 0xFA.
        let mut needle = b"(".to_vec();
        needle.extend(p.real_name.chars().map(|ch| ch as u32 as u8));
        needle.extend(b") Tj");
        assert_eq!(count(&r.body, &needle), 1, "{}", p.real_name);
    }
    assert_eq!(count(&r.body, format!("({}) Tj", c.code).as_bytes()), 12);
    // Printed and scanned: every QR code is its pupil's login link, in the
    // order of the real names.
    let scanned = scan_pdf(&r.body, 12);
    let expected: Vec<String> = card_order(&c)
        .iter()
        .map(|n| link(s.addr, &c.id, n))
        .collect();
    assert_eq!(scanned, expected);
    // In English too.
    let en = cards_pdf(s.addr, &c, "?lang=en").await;
    assert_eq!(en.status, 200);
    assert_eq!(count(&en.body, b"(Your username) Tj"), 12);
    assert_eq!(count(&r.body, b"(Tu usuario) Tj"), 12);
    // The link opens the pupil's login page.
    let page = c
        .teacher
        .req(
            "GET",
            &format!("/clase/{}/entrar?alumno={}", c.id, c.pupils[0].name),
            None,
        )
        .await;
    assert_eq!(page.status, 200);
}

both_dbs!(
    the_pdf_holds_one_scannable_card_per_pupil,
    the_pdf_holds_one_scannable_card_per_pupil_run
);

/// The QR codes of the page's SVGs as modules, scaled, decoded.
fn decode_svg(svg: &str) -> String {
    let view = svg
        .split("viewBox=\"0 0 ")
        .nth(1)
        .and_then(|v| v.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .expect("a square viewBox");
    let d = svg
        .split(" d=\"")
        .nth(1)
        .and_then(|v| v.split('"').next())
        .expect("a path");
    let mut dark = vec![false; view * view];
    // Each piece is `M{x} {y}h{w}v1h-{w}z`.
    for piece in d.split('z').filter(|p| !p.is_empty()) {
        let p = piece.strip_prefix('M').expect("M");
        let (xy, rest) = p.split_once('h').expect("h");
        let (x, y) = xy.split_once(' ').expect("x y");
        let (x, y): (usize, usize) = (x.parse().expect("x"), y.parse().expect("y"));
        let w: usize = rest
            .split('v')
            .next()
            .and_then(|w| w.parse().ok())
            .expect("w");
        assert!(rest.ends_with(&format!("v1h-{w}")), "{piece}");
        for k in x..x + w {
            dark[y * view + k] = true;
        }
    }
    let scale = 4;
    let side = view * scale;
    let mut img = rqrr::PreparedImage::prepare_from_bitmap(side, side, |x, y| {
        dark[(y / scale) * view + x / scale]
    });
    let grids = img.detect_grids();
    assert_eq!(grids.len(), 1, "one code in an SVG");
    grids[0].decode().expect("decodes").1
}

async fn the_page_has_the_same_cards_with_svg_codes_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 5).await;
    let r = c
        .teacher
        .req("GET", &format!("/clases/{}/tarjetas", c.id), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r
        .headers
        .iter()
        .any(|(k, v)| k == "content-type" && v.starts_with("text/html")));
    assert!(r
        .headers
        .iter()
        .any(|(k, v)| k == "content-security-policy" && v.starts_with("default-src 'none'")));
    let html = &r.body;
    assert!(html.contains("<html lang=\"es\">"));
    let sections: Vec<&str> = html.split("<section class=\"card\"").skip(1).collect();
    assert_eq!(sections.len(), 5);
    let mut names = Vec::new();
    for sec in &sections {
        let name = sec
            .split("data-pupil=\"")
            .nth(1)
            .and_then(|v| v.split('"').next())
            .expect("data-pupil");
        let svg = sec
            .split("<svg")
            .nth(1)
            .and_then(|v| v.split("</svg>").next())
            .expect("an svg");
        assert_eq!(decode_svg(svg), link(s.addr, &c.id, name), "{name}");
        assert!(sec.contains(&format!("<p class=\"code\">{}</p>", c.code)));
        names.push(name.to_string());
    }
    assert_eq!(names, card_order(&c));
    for p in &c.pupils {
        assert!(html.contains(&format!("<p class=\"note\">{}</p>", p.real_name)));
    }
    assert!(html.contains(&format!("href=\"/api/classes/{}/cards.pdf\"", c.id)));
    let en = c
        .teacher
        .req("GET", &format!("/clases/{}/tarjetas?lang=en", c.id), None)
        .await;
    assert!(en.body.contains("<html lang=\"en\">"));
    assert_eq!(en.body.matches("Your username").count(), 5);
}

both_dbs!(
    the_page_has_the_same_cards_with_svg_codes,
    the_page_has_the_same_cards_with_svg_codes_run
);

async fn only_the_class_teachers_get_the_cards_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 2).await;
    let mut other = class_with_pupils(&s, 1).await;
    let (mut outsider, _) = account(s.addr, "Fuera").await;
    let mut guest = Browser::new(s.addr);
    let real_names: Vec<String> = c.pupils.iter().map(|p| p.real_name.clone()).collect();
    for path in [
        format!("/api/classes/{}/cards.pdf", c.id),
        format!("/clases/{}/tarjetas", c.id),
    ] {
        for (who, web, status, code) in [
            ("guest", &mut guest, 404, "class_not_found"),
            ("outsider", &mut outsider, 404, "class_not_found"),
            ("other teacher", &mut other.teacher, 404, "class_not_found"),
            (
                "other pupil",
                &mut other.pupils[0].web,
                404,
                "class_not_found",
            ),
            ("pupil", &mut c.pupils[0].web, 403, "teachers_only"),
        ] {
            let r = web.req("GET", &path, None).await;
            assert_eq!(r.status, status, "{who} {path}: {}", r.body);
            assert_eq!(r.json()["code"], code, "{who} {path}");
            for real in &real_names {
                assert!(!r.body.contains(real), "{who} saw a real name");
            }
        }
        // A class that does not exist is told the same way.
        let missing = path.replace(&c.id, "NoExisteEsta");
        let r = c.teacher.req("GET", &missing, None).await;
        assert_eq!(r.status, 404);
        assert_eq!(r.json()["code"], "class_not_found");
    }
    // A co-teacher may print them too.
    let (mut co, co_name) = account(s.addr, "Cotutor").await;
    let co_row = s
        .hub
        .store
        .user_by_name(&co_name)
        .await
        .expect("store")
        .expect("account");
    assert!(s
        .hub
        .store
        .add_class_teacher(&c.id, &co_row.id)
        .await
        .expect("store"));
    let r = co
        .req("GET", &format!("/clases/{}/tarjetas", c.id), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body.matches("<section class=\"card\"").count(), 2);
}

both_dbs!(
    only_the_class_teachers_get_the_cards,
    only_the_class_teachers_get_the_cards_run
);

async fn a_class_without_pupils_prints_a_page_that_says_so_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 0).await;
    let r = cards_pdf(s.addr, &c, "").await;
    assert_eq!(r.status, 200);
    assert_eq!(
        count(&r.body, b"(Esta clase no tiene alumnos activos.) Tj"),
        1
    );
    assert_eq!(count(&r.body, b" re\n"), 0, "no QR code");
    let page = c
        .teacher
        .req("GET", &format!("/clases/{}/tarjetas", c.id), None)
        .await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<p class=\"empty\">"));
    assert!(!page.body.contains("<section"));
}

both_dbs!(
    a_class_without_pupils_prints_a_page_that_says_so,
    a_class_without_pupils_prints_a_page_that_says_so_run
);

async fn the_link_names_the_host_the_teacher_reached_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let c = class_with_pupils(&s, 1).await;
    let name = &c.pupils[0].name;
    let path = format!("/clases/{}/tarjetas", c.id);
    // The school's server as the tablets reach it.
    let r = get_as(s.addr, "escuela.local:8080", &path, &c.teacher.cookies).await;
    assert_eq!(r.status, 200);
    let html = String::from_utf8_lossy(&r.body);
    let want = format!(
        "http://escuela.local:8080/clase/{}/entrar?alumno={name}",
        c.id
    );
    assert!(html.contains(&format!("href=\"{want}\"")), "{html}");
    // A Host header that is not a plain host name is refused, never
    // printed.
    for host in ["evil\"><script>", "a b", "x/y"] {
        for p in [path.clone(), format!("/api/classes/{}/cards.pdf", c.id)] {
            let r = get_as(s.addr, host, &p, &c.teacher.cookies).await;
            assert_eq!(r.status, 400, "{host} {p}");
            let v: serde_json::Value = serde_json::from_slice(&r.body).expect("json");
            assert_eq!(v["code"], "bad_host");
        }
    }
}

both_dbs!(
    the_link_names_the_host_the_teacher_reached,
    the_link_names_the_host_the_teacher_reached_run
);

/// The pages the browser printed (A4, margins of 8 mm), at [`DPI`] in
/// grey, cut as the print style lays the cards out (two columns, rows of
/// 69 mm): on each page, the QR code of each cell that holds one.
fn scan_printed(pdf: &[u8]) -> Vec<Vec<String>> {
    let dir = temp_dir("printed");
    let pages = print_pages(pdf, &dir);
    let px = |mm: f64| (mm / 25.4 * DPI) as usize;
    let found = pages
        .iter()
        .map(|page| {
            let (w, h, pixels) = read_pgm(page);
            let mut codes = Vec::new();
            for row in 0..4 {
                for col in 0..2 {
                    let y = px(8.0 + 69.0 * row as f64);
                    let ch = px(69.0).min(h.saturating_sub(y));
                    let cell = (col * w / 2, y, w / 2, ch);
                    let mut got = decode_crop(w, &pixels, cell);
                    assert!(got.len() <= 1, "one code a card: {got:?}");
                    codes.append(&mut got);
                }
            }
            codes
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    found
}

/// The class's cards as PDF, fetched by the browser `c` (logged in as a
/// teacher of the class) from the class's page (the card page itself lets
/// no script fetch anything).
pub(crate) async fn cards_pdf_from(c: &Client, base: &str, class_id: &str) -> R<Vec<u8>> {
    c.goto(&format!("{base}/clases/{class_id}"))
        .await
        .map_err(|e| format!("goto: {e}"))?;
    let v = c
        .execute_async(
            "const [id, done] = arguments;
             fetch('/api/classes/' + id + '/cards.pdf')
               .then(r => r.ok ? r.arrayBuffer() : Promise.reject(r.status))
               .then(b => done(Array.from(new Uint8Array(b))))
               .catch(e => done(String(e)));",
            vec![class_id.into()],
        )
        .await
        .map_err(|e| e.to_string())?;
    let bytes = v
        .as_array()
        .ok_or_else(|| format!("cards.pdf: {v}"))?
        .iter()
        .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
        .collect::<Option<Vec<u8>>>()
        .ok_or("cards.pdf: not bytes")?;
    Ok(bytes)
}

/// The teacher's card page: one card per pupil in `pupils` with its QR
/// code drawn, nothing wider than a phone's screen, screenshots on the
/// desktop and on a phone (`tarjetas.png`, `tarjetas-movil.png` under
/// `target/screenshots/`, the first also `docs/img/clases/tarjetas.png` for
/// the teacher's guide); printed on A4 by the browser itself, eight cards
/// a sheet whose QR codes are the pupils' login links. Returns the printed
/// PDF.
pub(crate) async fn print_cards(
    c: &Client,
    base: &str,
    class_id: &str,
    links: &[String],
) -> R<Vec<u8>> {
    let n = links.len();
    c.set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;
    c.goto(&format!("{base}/clases/{class_id}/tarjetas"))
        .await
        .map_err(|e| format!("goto cards: {e}"))?;
    until(
        c,
        "the cards",
        &format!("document.querySelectorAll('#cards section.card').length === {n}"),
    )
    .await?;
    let drawn = js(
        c,
        "return [...document.querySelectorAll('#cards section.card svg.qr')]
           .filter(s => s.getBoundingClientRect().width >= 100).length",
    )
    .await?;
    if drawn != n {
        return Err(format!("{drawn} QR codes drawn, {n} cards"));
    }
    let shown: Vec<String> = js(
        c,
        "return [...document.querySelectorAll('#cards .link a')].map(a => a.textContent)",
    )
    .await?
    .as_array()
    .map(|a| {
        a.iter()
            .filter_map(|v| v.as_str().map(String::from))
            .collect()
    })
    .unwrap_or_default();
    if shown != links {
        return Err(format!("links shown {shown:?}, expected {links:?}"));
    }
    crate::browser::guide_shot(c, "tarjetas.png").await?;
    c.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    let fits = js(
        c,
        "return document.documentElement.scrollWidth <= window.innerWidth",
    )
    .await?;
    shot(c, "tarjetas-movil.png").await?;
    c.set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;
    if fits != true {
        return Err("the card page is wider than a phone".into());
    }
    let config = PrintConfiguration::builder()
        .size(PrintSize::A4)
        .margins(PrintMargins {
            top: 0.8,
            bottom: 0.8,
            left: 0.8,
            right: 0.8,
        })
        .build()
        .map_err(|e| format!("{e:?}"))?;
    c.print(config).await.map_err(|e| format!("print: {e}"))
}

#[test]
fn cards_in_a_browser() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = crate::browser::start_server("escaque-cards-web", 1000.0).await;
        let base = format!("http://{}", server.addr);
        let class = class_with_pupils(&server, 12).await;
        let teacher = browser(port, "es", &dir.join("downloads")).await;
        let result = async {
            log_in(&teacher, &base, &class.teacher_name, "contraseña-larga").await?;
            let links: Vec<String> = card_order(&class)
                .iter()
                .map(|n| link(server.addr, &class.id, n))
                .collect();
            let printed = print_cards(&teacher, &base, &class.id, &links).await?;
            let _ = std::fs::write(shots_dir().join("tarjetas-impresas.pdf"), &printed);
            // The PDF as the teacher's browser downloads it: twelve cards,
            // each QR code its pupil's link.
            let pdf = cards_pdf_from(&teacher, &base, &class.id).await?;
            if scan_pdf(&pdf, links.len()) != links {
                return Err("the PDF's codes are not the pupils' links".into());
            }
            // Printed by the browser on A4: eight cards on the first sheet,
            // four on the second, every QR code a pupil's login link.
            let pages = scan_printed(&printed);
            let per_page: Vec<usize> = pages.iter().map(Vec::len).collect();
            if per_page != [8, 4] {
                return Err(format!("codes per printed page: {per_page:?} ({pages:?})"));
            }
            let mut got: Vec<String> = pages.concat();
            got.sort();
            let mut want = links.clone();
            want.sort();
            if got != want {
                return Err(format!("printed codes {got:?}, expected {want:?}"));
            }
            Ok::<(), String>(())
        }
        .await;
        if result.is_err() {
            let _ = shot(&teacher, "failed-tarjetas.png").await;
        }
        let _ = teacher.close().await;
        if let Err(e) = result {
            panic!("cards in a browser: {e}");
        }
    });
}
