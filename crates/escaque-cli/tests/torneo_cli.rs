//! `escaque torneo`, run as an organiser runs it.

use std::path::PathBuf;

use crate::common;

/// Runs `escaque ARGS` with nothing on standard input: whether it succeeded,
/// standard output and standard error (torneo_equipos_cli.rs uses it too).
pub(crate) fn escaque(args: &[&str]) -> (bool, String, String) {
    let (out, err, ok) = common::run_raw(args, "");
    (ok, out, err)
}

/// A new, empty directory for test `name` (shared with
/// torneo_equipos_cli.rs).
pub(crate) fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("escaque-torneo-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_small_swiss_from_start_to_printouts() {
    let dir = scratch("flow");
    let file = dir.join("t.trf");
    let f = file.to_str().unwrap();
    let (ok, _, err) = escaque(&[
        "torneo",
        "nuevo",
        f,
        "--nombre",
        "Escolar <Otoño>",
        "--rondas",
        "3",
    ]);
    assert!(ok, "{err}");
    for (i, name) in [
        "Ana Pérez",
        "Luis Gómez",
        "Íñigo Núñez",
        "Eva Ruiz",
        "Sara Ortiz",
    ]
    .iter()
    .enumerate()
    {
        let club = if i % 2 == 0 { "Colegio A" } else { "Colegio B" };
        let (ok, out, err) = escaque(&[
            "torneo",
            "enroll",
            f,
            name,
            "--club",
            club,
            "--categoria",
            "Sub-10",
        ]);
        assert!(ok, "{err}");
        assert!(out.contains(&format!("número {}", i + 1)), "{out}");
    }
    // A player entered twice: refused, by name, and the file is unchanged.
    let before = std::fs::read(&file).unwrap();
    let (ok, _, err) = escaque(&["torneo", "inscribir", f, "ana pérez"]);
    assert!(!ok);
    assert!(err.contains("ya está inscrito (número 1)"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), before);

    let (ok, out, err) = escaque(&["torneo", "emparejar", f]);
    assert!(ok, "{err}");
    // The FIDE mode's mark first (issue 58), then: unrated players are
    // numbered by name before round 1 (C.04.2).
    assert!(
        out.starts_with("Modo FIDE\nNúmeros de emparejamiento reasignados")
            && out.contains("\nRonda 1\n"),
        "{out}"
    );
    assert!(
        out.contains("   1 Ana Pérez") && out.contains("   2 Eva Ruiz"),
        "{out}"
    );
    assert!(out.contains("exento"), "{out}");
    // Pairing again before the results are in is refused.
    let (ok, _, err) = escaque(&["torneo", "pair", f]);
    assert!(!ok);
    assert!(err.contains("faltan resultados de la ronda 1"), "{err}");
    // A board that does not exist.
    let (ok, _, err) = escaque(&["torneo", "resultado", f, "1", "7", "1-0"]);
    assert!(!ok && err.contains("no tiene tablero 7"), "{err}");
    let (ok, _, err) = escaque(&["torneo", "resultado", f, "1", "1", "3-1"]);
    assert!(!ok && err.contains("no válido"), "{err}");
    assert!(escaque(&["torneo", "resultado", f, "1", "1", "1-0"]).0);
    assert!(escaque(&["torneo", "result", f, "1", "2", "½-½"]).0);
    // A correction says so.
    let (ok, out, _) = escaque(&["torneo", "resultado", f, "1", "1", "0-1"]);
    assert!(ok && out.contains("Corregido: antes 1-0"), "{out}");
    assert!(escaque(&["torneo", "emparejar", f]).0);

    let (ok, out, _) = escaque(&["torneo", "clasificacion", f]);
    assert!(ok);
    // The FIDE mode's mark, the regulation's version, the columns' heading,
    // then the five players.
    assert_eq!(out.lines().next(), Some("Modo FIDE"), "{out}");
    assert!(
        out.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("Desempates según FIDE C.07, versión 20")),
        "{out}"
    );
    assert_eq!(out.lines().count(), 8, "{out}");
    let html = dir.join("html");
    let (ok, out, err) = escaque(&["torneo", "imprimir", f, "--salida", html.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 5);
    let page = std::fs::read_to_string(html.join("ronda-2.html")).unwrap();
    assert!(page.contains("Escolar &lt;Otoño&gt;") && !page.contains("<Otoño>"));
    assert!(page.contains("<th>Mesa</th>"));
    let exported = dir.join("fide.trf");
    assert!(escaque(&["torneo", "exportar", f, "--trf", exported.to_str().unwrap()]).0);
    let text = std::fs::read_to_string(&exported).unwrap();
    assert!(text.lines().filter(|l| l.starts_with("001")).count() == 5);
    assert!(!text.contains("XZ"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn twelve_players_entered_in_any_order_are_paired_by_rating() {
    let dir = scratch("ranking");
    let file = dir.join("t.trf");
    let f = file.to_str().unwrap();
    assert!(escaque(&["torneo", "nuevo", f, "--nombre", "Club", "--rondas", "5"]).0);
    // Entered in a shuffled order: rank k is rated 2400 - 50 (k - 1).
    for k in [7, 3, 12, 1, 9, 5, 11, 2, 8, 4, 10, 6] {
        let rating = (2400 - 50 * (k - 1)).to_string();
        let name = format!("Rango {k:02}");
        let (ok, _, err) = escaque(&["torneo", "inscribir", f, &name, "--elo", &rating]);
        assert!(ok, "{err}");
    }
    let (ok, out, err) = escaque(&["torneo", "emparejar", f]);
    assert!(ok, "{err}");
    assert!(
        out.contains("Números de emparejamiento reasignados"),
        "{out}"
    );
    let boards: Vec<String> = out
        .lines()
        .filter(|l| l.contains(" – "))
        .map(|l| {
            let names: Vec<&str> = l.split("Rango ").skip(1).map(|s| &s[..2]).collect();
            names.join("-")
        })
        .collect();
    assert_eq!(
        boards,
        ["01-07", "08-02", "03-09", "10-04", "05-11", "12-06"],
        "{out}"
    );
    // The file keeps the new numbers: number 1 is the highest rated.
    let text = std::fs::read_to_string(&file).unwrap();
    let first = text.lines().find(|l| l.starts_with("001    1 ")).unwrap();
    assert!(first.contains("Rango 01"), "{first}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pairs_a_foreign_trf_in_javafo_convention() {
    let dir = scratch("javafo");
    // Two rounds of a 10-player tournament made by bbpPairings' generator.
    let src = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../escaque-torneo/tests/data/dutch/t00002.trf"),
    )
    .unwrap();
    let cut: String = src
        .lines()
        .map(|l| {
            if l.starts_with("001") {
                let c: String = l.chars().take(111).collect();
                format!("{}\n", c.trim_end())
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    let file = dir.join("in.trf");
    std::fs::write(&file, &cut).unwrap();
    let (ok, out, err) = escaque(&["torneo", "emparejar", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    let mut lines = out.lines();
    let n: usize = lines.next().unwrap().parse().unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..n {
        for x in lines.next().unwrap().split_whitespace() {
            let x: u32 = x.parse().unwrap();
            assert!(x == 0 || seen.insert(x));
        }
    }
    assert_eq!(seen.len(), 10);
    // The file is not touched.
    assert_eq!(std::fs::read_to_string(&file).unwrap(), cut);
    // A malformed file names the line.
    std::fs::write(&file, "012 x\n001    1      A  x\n001 zzzz\n").unwrap();
    let (ok, _, err) = escaque(&["torneo", "emparejar", file.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("línea 3, columna 5"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Debian's Chromium, installed by `scripts/chromium.sh` when missing (as the
/// browser tests do): the PDF test is never skipped for want of it.
fn ensure_chromium() {
    let found = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("chromium").is_file()));
    if !found {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let st = std::process::Command::new("bash")
            .arg(root.join("scripts/chromium.sh"))
            .status()
            .expect("could not run scripts/chromium.sh");
        assert!(st.success(), "scripts/chromium.sh failed");
    }
}

#[test]
fn forbidden_pairings_full_point_byes_and_pdf_printouts() {
    let dir = scratch("pdf");
    let file = dir.join("t.trf");
    let f = file.to_str().unwrap();
    assert!(escaque(&["torneo", "nuevo", f, "--nombre", "Club", "--rondas", "3"]).0);
    // Entered in alphabetical order: the initial ranking keeps the numbers.
    for name in ["Ana", "Eva", "Íñigo", "Luis", "Pablo", "Sara"] {
        assert!(escaque(&["torneo", "inscribir", f, name]).0);
    }
    // With player 6 away on a full-point bye (given by the organiser), round 1
    // pairs 1–3, 4–2 and the bye to 5; forbid 1–3 (siblings): 1 meets 4.
    let (ok, _, err) = escaque(&["torneo", "prohibir", f, "1", "3"]);
    assert!(ok, "{err}");
    let (ok, _, err) = escaque(&["torneo", "descanso", f, "6", "1", "--tipo", "completo"]);
    assert!(ok, "{err}");
    let (ok, _, err) = escaque(&["torneo", "prohibir", f, "1"]);
    assert!(!ok, "one player alone is refused: {err}");
    let (ok, _, err) = escaque(&["torneo", "forbid", f, "1", "9"]);
    assert!(!ok && err.contains("número 9"), "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("260   1   3    1    3"), "{text}");
    assert!(text.contains("240 F   1    6"), "{text}");
    let (ok, out, err) = escaque(&["torneo", "emparejar", f]);
    assert!(ok, "{err}");
    assert!(out.contains("descanso concedido (1 punto)"), "{out}");
    assert!(out.contains("exento (1 punto)"), "{out}");
    let t = escaque_torneo::trf::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let r1 = &t.rounds[0];
    assert!(
        r1.byes.contains(&(6, escaque_torneo::ByeKind::Full)),
        "{r1:?}"
    );
    for g in &r1.games {
        assert!(
            !(g.white.min(g.black) == 1 && g.white.max(g.black) == 3),
            "1 and 3 may not meet: {r1:?}"
        );
    }
    assert_eq!((r1.games[0].white, r1.games[0].black), (1, 4));
    assert_eq!(r1.games.len(), 2, "five players: two games and a bye");
    assert_eq!(t.score(6), 2);

    ensure_chromium();
    let html = dir.join("html");
    let (ok, out, err) = escaque(&[
        "torneo",
        "imprimir",
        f,
        "--salida",
        html.to_str().unwrap(),
        "--pdf",
    ]);
    assert!(ok, "{err}");
    let pdfs: Vec<&str> = out.lines().filter(|l| l.ends_with(".pdf")).collect();
    assert_eq!(pdfs.len(), 5, "{out}");
    for p in pdfs {
        let bytes = std::fs::read(p).unwrap();
        assert!(bytes.starts_with(b"%PDF-"), "{p}");
        assert!(bytes.len() > 1000, "{p}: {} bytes", bytes.len());
    }
    // No Chromium where one is named: a clear error, the HTML still written.
    let (_, err, ok) = common::run_raw_env(
        &[
            "torneo",
            "imprimir",
            f,
            "--salida",
            html.to_str().unwrap(),
            "--pdf",
        ],
        "",
        &[("ESCAQUE_CHROMIUM", "/nonexistent/chromium")],
    );
    assert!(!ok && err.contains("ESCAQUE_CHROMIUM"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file of escaque-torneo's test data.
fn torneo_data(path: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../escaque-torneo/tests/data")
            .join(path),
    )
    .unwrap()
}

#[test]
fn a_finished_tournament_is_refused_not_paired_past_its_last_round() {
    let dir = scratch("over");
    // A finished 9-round event from another program.
    let file = dir.join("held.trf");
    std::fs::write(&file, torneo_data("real/gacrux_held_swiss_9.trf")).unwrap();
    let f = file.to_str().unwrap();
    for args in [
        vec!["torneo", "emparejar", f],
        vec!["torneo", "pair", f, "--javafo"],
    ] {
        let (ok, out, err) = escaque(&args);
        assert!(!ok, "{out}");
        assert!(err.contains("el torneo ha terminado"), "{err}");
        assert!(out.is_empty(), "{out}");
    }
    let (_, err, ok) = common::run_raw(&["--idioma", "en", "torneo", "emparejar", f], "");
    assert!(!ok && err.contains("the tournament is over"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_windows_1252_file_is_read_with_a_warning() {
    let dir = scratch("cp1252");
    let file = dir.join("viejo.trf");
    // A round-1 file from an older Swiss-Manager: names in Windows-1252.
    let text = String::from_utf8(torneo_data("made/xxp_forbidden.trf"))
        .unwrap()
        .replace("Abad, Jugador   ", "Ib\u{e1}\u{f1}ez, Jos\u{e9}    ");
    let bytes: Vec<u8> = text
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap())
        .collect();
    assert!(std::str::from_utf8(&bytes).is_err());
    std::fs::write(&file, &bytes).unwrap();
    let (ok, out, err) = escaque(&["torneo", "emparejar", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        err.contains("no está en UTF-8; se lee como Windows-1252"),
        "{err}"
    );
    assert_eq!(out.lines().next(), Some("6"), "{out}");
    let (ok, out, err) = escaque(&["torneo", "clasificacion", file.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("Ibáñez, José"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every result `resultado`'s help lists, typed as a person types it after
/// the board number: `-/+` and `-/-` are values, not options (issue 64).
#[test]
fn every_result_the_help_lists_is_accepted_as_typed() {
    use escaque_torneo::Outcome;
    let (ok, help, err) = escaque(&["torneo", "resultado", "--help"]);
    assert!(ok, "{err}");
    // "… RONDA MESA RESULTADO (1-0, 0-1, ½-½, +/-, -/+, -/-)"
    let listed: Vec<&str> = help
        .split_once("RESULTADO (")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(list, _)| list.split(", ").collect())
        .unwrap_or_else(|| panic!("no list of results in the help: {help}"));
    let expected = [
        ("1-0", Outcome::WhiteWins),
        ("0-1", Outcome::BlackWins),
        ("½-½", Outcome::Draw),
        ("+/-", Outcome::WhiteForfeitWin),
        ("-/+", Outcome::BlackForfeitWin),
        ("-/-", Outcome::DoubleForfeit),
    ];
    // Then the unusual ones (issue 58, VCL.13): each player scores their own.
    let unusual = [
        ("½-0", escaque_torneo::Unusual::HalfZero),
        ("0-½", escaque_torneo::Unusual::ZeroHalf),
        ("0-0", escaque_torneo::Unusual::ZeroZero),
    ];
    assert_eq!(
        listed,
        expected
            .iter()
            .map(|e| e.0)
            .chain(unusual.iter().map(|u| u.0))
            .collect::<Vec<_>>(),
        "the help lists other results than this test types"
    );
    let dir = scratch("typed");
    let file = dir.join("t.trf");
    let f = file.to_str().unwrap();
    assert!(escaque(&["torneo", "nuevo", f, "--nombre", "Club", "--rondas", "2"]).0);
    for i in 0..18 {
        assert!(escaque(&["torneo", "inscribir", f, &format!("Jugador {i:02}")]).0);
    }
    let (ok, _, err) = escaque(&["torneo", "emparejar", f]);
    assert!(ok, "{err}");
    for (k, (text, u)) in unusual.iter().enumerate() {
        let board = (k + 7).to_string();
        let (ok, out, err) = escaque(&["torneo", "resultado", f, "1", &board, text]);
        assert!(ok && out.is_empty() && err.is_empty(), "{text}: {out}{err}");
        let t = escaque_torneo::trf::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let g = &t.rounds[0].games[k + 6];
        assert_eq!(g.unusual, Some(*u), "{text}");
        let (white, black) = u.sides();
        assert_eq!(
            (t.score(g.white), t.score(g.black)),
            (white.points(), black.points())
        );
    }
    for (board, (text, outcome)) in expected.iter().enumerate() {
        let board = (board + 1).to_string();
        let (ok, out, err) = escaque(&["torneo", "resultado", f, "1", &board, text]);
        assert!(ok, "`resultado {f} 1 {board} {text}` refused: {err}");
        assert!(out.is_empty() && err.is_empty(), "{out}{err}");
        let t = escaque_torneo::trf::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(
            t.rounds[0].games[board.parse::<usize>().unwrap() - 1].outcome,
            *outcome,
            "{text}"
        );
    }
    // Typed over (a correction), with an option after it: still the value.
    let (ok, out, err) = escaque(&["torneo", "resultado", f, "1", "1", "-/+", "--idioma", "en"]);
    assert!(ok, "{err}");
    assert!(out.contains("Corrected: was 1-0"), "{out}");
    // An unusual result corrected says what it was, not the ½-½ it is
    // stored with; one typed over a standard result names that one.
    let (ok, out, err) = escaque(&["torneo", "resultado", f, "1", "7", "1-0"]);
    assert!(ok && out.contains("Corregido: antes ½-0"), "{out}{err}");
    let (ok, out, err) = escaque(&["torneo", "resultado", f, "1", "7", "0-0"]);
    assert!(ok && out.contains("Corregido: antes 1-0"), "{out}{err}");
    let (ok, out, err) = escaque(&["torneo", "resultado", f, "1", "7", "0-0"]);
    assert!(ok && out.is_empty(), "the same result again: {out}{err}");
    // Something that is no result is still refused, saying so.
    let (ok, _, err) = escaque(&["torneo", "resultado", f, "1", "2", "-/0"]);
    assert!(!ok && err.contains("no válido"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `pdftoppm` (poppler-utils), installed by `scripts/poppler.sh` when missing.
fn ensure_pdftoppm() {
    let have = std::process::Command::new("pdftoppm")
        .arg("-v")
        .output()
        .is_ok();
    if !have {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let st = std::process::Command::new("bash")
            .arg(root.join("scripts/poppler.sh"))
            .status()
            .expect("could not run scripts/poppler.sh");
        assert!(st.success(), "scripts/poppler.sh failed");
    }
}

/// Every page of `pdf` rendered at 72 dpi (one pixel a point) to PNG
/// beside it: each page's width and height in points.
fn page_sizes(pdf: &std::path::Path) -> Vec<(u32, u32)> {
    let prefix = pdf.with_extension("");
    let st = std::process::Command::new("pdftoppm")
        .args(["-r", "72", "-png"])
        .arg(pdf)
        .arg(&prefix)
        .status()
        .expect("pdftoppm runs");
    assert!(st.success(), "pdftoppm {}", pdf.display());
    let dir = pdf.parent().unwrap();
    let stem = prefix.file_name().unwrap().to_str().unwrap().to_string();
    let mut pngs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_str().unwrap();
            name.starts_with(&format!("{stem}-")) && name.ends_with(".png")
        })
        .collect();
    pngs.sort();
    assert!(!pngs.is_empty(), "no page rendered from {}", pdf.display());
    pngs.iter()
        .map(|p| {
            // The PNG header: the IHDR chunk's width and height, big-endian.
            let b = std::fs::read(p).unwrap();
            assert!(b.starts_with(b"\x89PNG\r\n\x1a\n") && &b[12..16] == b"IHDR");
            let n = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
            (n(16), n(20))
        })
        .collect()
}

/// The printouts of a double round robin as PDF: A4 pages (595 × 842 pt)
/// by default, US Letter with `--papel carta`, checked on the pages
/// rendered to PNG; the cross table gives each cycle its own column, and
/// the numbers have the decimal comma (issue 64).
#[test]
fn printouts_are_a4_pages_unless_letter_is_chosen() {
    let dir = scratch("a4");
    let file = dir.join("t.trf");
    let f = file.to_str().unwrap();
    assert!(
        escaque(&[
            "torneo",
            "nuevo",
            f,
            "--nombre",
            "Doble vuelta",
            "--sistema",
            "drr"
        ])
        .0
    );
    for (name, club) in [
        (
            "Fernández Ortiz, María Guadalupe",
            "Club de Ajedrez Sarmiento",
        ),
        (
            "Gómez Ibáñez, Luis Alberto",
            "Colegio Nacional de Buenos Aires",
        ),
        ("Núñez, Íñigo", "Escuela 25"),
        ("Ruiz, Eva", "Club Tucumán"),
        ("Ortiz, Sara", "Club Tucumán"),
    ] {
        let (ok, _, err) = escaque(&["torneo", "inscribir", f, name, "--club", club]);
        assert!(ok, "{err}");
    }
    // Five players, ten rounds; 1 wins its games of the first cycle and
    // loses those of the second, the others draw.
    for round in 1..=10u32 {
        let (ok, _, err) = escaque(&["torneo", "emparejar", f]);
        assert!(ok, "{err}");
        let t = escaque_torneo::trf::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let games = t.rounds[round as usize - 1].games.clone();
        for (i, g) in games.iter().enumerate() {
            let text = match (g.white == 1, g.black == 1, round <= 5) {
                (true, _, true) | (_, true, false) => "1-0",
                (_, true, true) | (true, _, false) => "0-1",
                _ => "½-½",
            };
            let board = (i + 1).to_string();
            let (ok, _, err) =
                escaque(&["torneo", "resultado", f, &round.to_string(), &board, text]);
            assert!(ok, "{err}");
        }
    }
    ensure_chromium();
    ensure_pdftoppm();
    for (paper, size) in [(None, (595, 842)), (Some("carta"), (612, 792))] {
        let out = dir.join(paper.unwrap_or("a4"));
        let o = out.to_str().unwrap();
        let mut args = vec!["torneo", "imprimir", f, "--salida", o, "--pdf"];
        if let Some(p) = paper {
            args.extend(["--papel", p]);
        }
        let (ok, printed, err) = escaque(&args);
        assert!(ok, "{err}");
        let pdfs: Vec<&str> = printed.lines().filter(|l| l.ends_with(".pdf")).collect();
        assert_eq!(pdfs.len(), 5, "{printed}");
        for p in pdfs {
            for (i, got) in page_sizes(std::path::Path::new(p)).into_iter().enumerate() {
                assert_eq!(got, size, "{p} page {}", i + 1);
            }
        }
        let cross = std::fs::read_to_string(out.join("cruzada.html")).unwrap();
        assert!(cross.contains("<th colspan=\"2\">1</th>"), "{cross}");
        // The page has room: the longest name and club each keep one line.
        let text = std::process::Command::new("pdftotext")
            .args(["-layout"])
            .arg(out.join("clasificacion.pdf"))
            .arg("-")
            .output()
            .expect("pdftotext runs (poppler-utils)");
        let text = String::from_utf8_lossy(&text.stdout);
        for whole in [
            "Fernández Ortiz, María Guadalupe",
            "Gómez Ibáñez, Luis Alberto",
            "Colegio Nacional de Buenos Aires",
        ] {
            assert!(
                text.lines().any(|l| l.contains(whole)),
                "{whole:?} wrapped:\n{text}"
            );
        }
        let standings = std::fs::read_to_string(out.join("clasificacion.html")).unwrap();
        assert!(standings.contains("<td class=\"n\">4</td>"), "{standings}");
        assert!(!standings.contains('½'), "{standings}");
    }
    // Where to look at the pages: ESCAQUE_KEEP_PRINTOUTS keeps them.
    if std::env::var_os("ESCAQUE_KEEP_PRINTOUTS").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        eprintln!("printouts kept in {}", dir.display());
    }
}

/// `clasificacion --detalle N` explains the values the standings print: for
/// every player of a real file with byes, forfeits and absences, under both
/// versions of C.07, the explanation's totals are the standings' own; and the
/// 2026 amendment's cap of the dummy opponent is named where it applies.
#[test]
fn the_detail_of_each_player_adds_up_to_the_standings() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../escaque-torneo/tests/data/real/gacrux_many_unplayed_rounds.trf");
    let f = file.to_str().unwrap();
    for version in ["2024", "2026"] {
        let (ok, table, err) = escaque(&["torneo", "clasificacion", f, "--reglamento", version]);
        assert!(ok, "{err}");
        let mut lines = table.lines();
        assert_eq!(lines.next(), Some("Modo FIDE"));
        assert_eq!(
            lines.next(),
            Some(format!("Desempates según FIDE C.07, versión {version}").as_str())
        );
        let names: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
        let tiebreaks = &names[names.len() - 5..];
        let mut players = 0;
        for row in lines {
            let cells: Vec<&str> = row.split_whitespace().collect();
            let number = cells[1];
            let values = &cells[cells.len() - tiebreaks.len()..];
            let (ok, detail, err) = escaque(&[
                "torneo",
                "clasificacion",
                f,
                "--detalle",
                number,
                "--reglamento",
                version,
            ]);
            assert!(ok, "{err}");
            let total = detail.lines().last().unwrap().trim();
            let want: Vec<String> = tiebreaks
                .iter()
                .zip(values)
                .map(|(t, v)| format!("{t} {v}"))
                .collect();
            assert_eq!(
                total,
                want.join(", "),
                "player {number}, {version}:\n{detail}"
            );
            players += 1;
        }
        assert_eq!(players, 15, "{table}");
    }
    // Player 3 took half-point byes in rounds 5 and 7 and scored 4 in 7
    // rounds: their dummy opponent is 4 by the 2024 rules, capped at half the
    // rounds (3½) by the 2026 amendment.
    let detail = |version: &str| {
        let (ok, out, err) = escaque(&[
            "torneo",
            "clasificacion",
            f,
            "--detalle",
            "3",
            "--reglamento",
            version,
        ]);
        assert!(ok, "{err}");
        out.lines()
            .find(|l| l.trim_start().starts_with("Ronda  5:"))
            .unwrap()
            .to_string()
    };
    let old = detail("2024");
    assert!(
        old.contains("descanso de ½") && old.contains("BH 4,"),
        "{old}"
    );
    let new = detail("2026");
    assert!(new.contains("16.4.2") && new.contains("BH 3,5,"), "{new}");
}

/// The terminal's standings write every number one way, as the printouts
/// do (issue 62): points and tie-breaks with the decimal comma in Spanish
/// (`4,5` beside `13,5`, never `4½` beside `13.5`), with the point in
/// English; tie-break columns headed by C.07's acronyms.
#[test]
fn the_standings_write_numbers_one_way() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../escaque-torneo/tests/data/real/gacrux_many_unplayed_rounds.trf");
    let f = file.to_str().unwrap();
    let (ok, es, err) = escaque(&["torneo", "clasificacion", f]);
    assert!(ok, "{err}");
    let (ok, en, err) = escaque(&["--lang", "en", "torneo", "standings", f]);
    assert!(ok, "{err}");
    let digit_mark_digit = |text: &str, mark: char| {
        let c: Vec<char> = text.chars().collect();
        c.windows(3)
            .any(|w| w[0].is_ascii_digit() && w[1] == mark && w[2].is_ascii_digit())
    };
    // The FIDE mode's mark, the tie-break rules' line, the header: then the rows.
    let body = |text: &str| text.lines().skip(3).collect::<Vec<_>>().join("\n");
    assert!(!es.contains('½') && !en.contains('½'), "{es}\n{en}");
    assert!(
        digit_mark_digit(&body(&es), ',') && !digit_mark_digit(&body(&es), '.'),
        "{es}"
    );
    assert!(
        digit_mark_digit(&body(&en), '.') && !digit_mark_digit(&body(&en), ','),
        "{en}"
    );
    let head = es.lines().nth(2).unwrap();
    assert!(head.contains("BH-C1") || head.contains("SB"), "{head}");
}
