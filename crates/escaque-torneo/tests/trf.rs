//! TRF reading and writing: round trips, errors with line and column, and
//! arbitrary text never panics.

use escaque::{Lang, Localized};
use escaque_torneo::model::{Outcome, Player, System, Tournament};
use escaque_torneo::pairing::pair_next_round;
use escaque_torneo::{trf, TrfErrorKind};
use proptest::prelude::*;

// The number of cases: the default here, `ESCAQUE_FUZZ_CASES` for a long run.
use crate::fuzz_cases;

fn data(name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/dutch")
            .join(name),
    )
    .unwrap()
}

fn sample_files() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    v.sort();
    v.truncate(20);
    v.into_iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

#[test]
fn generated_files_round_trip() {
    for text in sample_files() {
        let t = trf::parse(&text).unwrap();
        assert!(!t.rounds.is_empty());
        let again = trf::parse(&trf::write(&t)).unwrap();
        assert_eq!(again.players, t.players);
        assert_eq!(again.rounds, t.rounds);
        assert_eq!(again.total_rounds, t.total_rounds);
        // Points written are the points read from the other program.
        for line in text.lines().filter(|l| l.starts_with("001")) {
            let id: u32 = line[4..8].trim().parse().unwrap();
            let pts: f64 = line[80..84].trim().parse().unwrap();
            assert_eq!(t.score(id) as f64 / 2.0, pts, "player {id}");
        }
    }
}

#[test]
fn escaque_fields_round_trip() {
    let mut t = Tournament::new("Escolar de Otoño", System::Swiss, 7);
    t.city = "Logroño".into();
    for (i, name) in ["Núñez, Íñigo", "Pérez, Ana", "O'Brien, Seán"]
        .iter()
        .enumerate()
    {
        let mut p = Player::new(name);
        p.club = format!("Colegio {}", i + 1);
        p.category = "Sub-12".into();
        p.birth_year = Some(2014 + i as u16);
        p.rating = if i == 0 { Some(1500) } else { None };
        p.fide_id = if i == 1 { Some(24123456) } else { None };
        p.sex = if i == 1 { "f".into() } else { "m".into() };
        t.add_player(p).unwrap();
    }
    t.request_half_bye(3, 1).unwrap();
    t.request_half_bye(2, 4).unwrap();
    pair_next_round(&mut t).unwrap();
    let g = t.rounds[0].games[0].clone();
    t.set_result(1, g.white, g.black, Outcome::Draw).unwrap();
    t.withdraw(1, 3).unwrap();
    let text = trf::write(&t);
    let back = trf::parse(&text).unwrap();
    assert_eq!(back, t, "{text}");
}

#[test]
fn errors_name_line_and_column() {
    let text = data("t00001.trf");
    // Break player 3's round-2 result.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let i = lines
        .iter()
        .position(|l| l.starts_with("001    3"))
        .unwrap();
    let mut chars: Vec<char> = lines[i].chars().collect();
    chars[108] = 'x'; // round 2 result column (1-based 109)
    lines[i] = chars.into_iter().collect();
    let e = trf::parse(&lines.join("\n")).unwrap_err();
    assert_eq!((e.line, e.column), (i + 1, 109));
    assert_eq!(e.kind, TrfErrorKind::BadResult('x'));
    assert!(e.message(Lang::Es).contains(&format!("línea {}", i + 1)));

    let e = trf::parse("001  abc      Foo\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 5));
    let e = trf::parse("012 x\n001    1      A\n001    1      B\n").unwrap_err();
    assert_eq!(e.kind, TrfErrorKind::DuplicateStartNumber(1));
    assert_eq!(e.line, 3);
    // A game whose two sides disagree.
    let bad = format!(
        "{:<89}     2 w 1\n{:<89}     1 b 1\n",
        "001    1      A", "001    2      B"
    );
    let e = trf::parse(&bad).unwrap_err();
    assert!(matches!(e.kind, TrfErrorKind::Inconsistent { .. }), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(fuzz_cases::cases(2000)))]
    #[test]
    fn arbitrary_text_never_panics(s in "\\PC*") {
        let _ = trf::parse(&s);
    }

    #[test]
    fn mutated_files_never_panic(pos in 0usize..3000, c in proptest::char::any(), cut in 0usize..4000) {
        let text = data("t00002.trf");
        let mut chars: Vec<char> = text.chars().collect();
        if pos < chars.len() {
            chars[pos] = c;
        }
        chars.truncate(cut.max(1));
        let s: String = chars.into_iter().collect();
        if let Ok(t) = trf::parse(&s) {
            // Whatever reads may be stored: it is written and read again
            // (`write_checked`, as the command line and the server store it).
            let text = trf::write_checked(&t).map_err(|e| e.to_string()).unwrap();
            let _ = trf::parse(&text).unwrap();
        }
    }

    #[test]
    fn player_lines_of_random_fields_never_panic(
        fields in proptest::collection::vec("[0-9 wb=+\\-10HUZF]{0,12}", 0..20)
    ) {
        let mut line = String::from("001    1      Someone                           1500 ESP    12345678 2010/01/01  0.0    1");
        for f in fields { line.push_str("  "); line.push_str(&f); }
        let _ = trf::parse(&line);
    }
}

/// A made file of tests/data/made.
fn made(name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/made")
            .join(name),
    )
    .unwrap()
}

#[test]
fn javafo_xxa_lines_become_accelerations_and_are_written_as_250() {
    let t = trf::parse(&made("xxa_acceleration.trf")).unwrap();
    assert_eq!(t.accelerations.len(), 6);
    for (i, a) in t.accelerations.iter().enumerate() {
        assert_eq!(
            (
                a.points,
                a.first_round,
                a.last_round,
                a.first_player,
                a.last_player
            ),
            (2, 1, 2, i as u32 + 1, i as u32 + 1)
        );
    }
    for id in 1..=12 {
        assert_eq!(t.acceleration(id, 1), if id <= 6 { 2 } else { 0 });
        assert_eq!(t.acceleration(id, 3), 0);
    }
    let back = trf::parse(&trf::write(&t)).unwrap();
    assert_eq!(back.accelerations, t.accelerations);
    // A value that is not a number of half points names its line and column.
    let bad = made("xxa_acceleration.trf").replace("XXA    6  1.0  1.0", "XXA    6  1.0  x.5");
    let e = trf::parse(&bad).unwrap_err();
    assert_eq!((e.line, e.column), (21, 15), "{e}");
}

#[test]
fn javafo_xxp_lines_forbid_pairs_in_every_round() {
    let t = trf::parse(&made("xxp_forbidden.trf")).unwrap();
    for r in 1..=5 {
        assert!(t.forbidden_pairing(1, 7, r) && t.forbidden_pairing(8, 2, r));
        assert!(!t.forbidden_pairing(1, 8, r));
    }
    let bad = made("xxp_forbidden.trf").replace("XXP 2 8", "XXP 2 80");
    let e = trf::parse(&bad).unwrap_err();
    assert_eq!(e.kind, TrfErrorKind::UnknownPlayer(80));
    assert_eq!(e.line, 17);
}

#[test]
fn record_192_is_read_and_a_system_escaque_does_not_pair_is_refused_with_its_line() {
    let base = made("xxp_forbidden.trf");
    for ok in [
        "FIDE_DUTCH_2025",
        "FIDE_DUTCH",
        "fide_dutch_2025",
        "FIDE_DUTCH_2025_BAKU",
        "FIDE_DUTCH_BAKU",
    ] {
        let t = trf::parse(&base.replace("XXR 5", &format!("XXR 5\n192 {ok}"))).unwrap();
        // Baku (C.04.5.1) gives group A its virtual points, as 250 records.
        assert_eq!(
            t.accelerations == escaque_torneo::baku::acceleration(&t),
            ok.ends_with("BAKU"),
            "{ok}"
        );
        assert_eq!(t.accelerations.is_empty(), !ok.ends_with("BAKU"), "{ok}");
    }
    for refused in ["FIDE_BURSTEIN_BAKU", "FIDE_BURSTEIN", "FIDE_DUBOV", "LIM"] {
        let e = trf::parse(&base.replace("XXR 5", &format!("XXR 5\n192 {refused}"))).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert_eq!(e.kind, TrfErrorKind::UnsupportedSystem(refused.into()));
        assert!(e
            .message(Lang::Es)
            .contains(&format!("«{refused}» (registro 192)")));
        assert!(e.message(Lang::En).contains("line 3"));
    }
}

#[test]
fn the_initial_colour_comes_from_round_1_when_the_file_does_not_say_it() {
    // Player 1 had Black in round 1: the first colour was Black.
    let t = trf::parse(&made("no_initial_colour.trf")).unwrap();
    assert!(!t.first_white);
    // White on the first board.
    let t = trf::parse(&made("e5_absent_player.trf").replace("XXC white1\n", "")).unwrap();
    assert!(t.first_white);
    // Player 1 absent in round 1 and player 2 with Black: number 1 among
    // those paired, so Black was the first colour.
    let line = |id: u32, cell: &str| {
        let name = format!("P{id}");
        format!(
            "001 {id:>4} m    {name:<33} {:>4} ESP {:>27}       {cell}\n",
            2000 - id,
            "0.0"
        )
    };
    let text = format!(
        "012 x\nXXR 3\n{}{}{}",
        line(1, "0000 - Z"),
        line(2, "   3 b 1"),
        line(3, "   2 w 0"),
    );
    assert!(!trf::parse(&text).unwrap().first_white, "{text}");
    // Said in the file: the file wins.
    let said = made("no_initial_colour.trf").replace("XXR 5", "XXR 5\nXXC white1");
    assert!(trf::parse(&said).unwrap().first_white);
}

#[test]
fn windows_1252_bytes_are_read_and_said() {
    // "Muñoz, José" and "Öztürk – €" as Windows-1252.
    let mut bytes = b"012 Torneo de Nu\xf1oa\n".to_vec();
    bytes.extend_from_slice(b"001    1 m    Mu\xf1oz, Jos\xe9                       2000\n");
    bytes.extend_from_slice(b"001    2 m    \xd6zt\xfcrk \x96 \x80                        1900\n");
    let (text, cp1252) = trf::decode(&bytes);
    assert!(cp1252);
    let t = trf::parse(&text).unwrap();
    assert_eq!(t.name, "Torneo de Nuñoa");
    assert_eq!(t.players[0].name, "Muñoz, José");
    assert_eq!(t.players[1].name, "Öztürk – €");
    // UTF-8 (with or without a byte-order mark) is read as it is.
    let utf8 = "012 Ñandú\n".as_bytes();
    assert_eq!(trf::decode(utf8), ("012 Ñandú\n".to_string(), false));
    let mut bom = vec![0xef, 0xbb, 0xbf];
    bom.extend_from_slice(utf8);
    assert_eq!(trf::decode(&bom), ("012 Ñandú\n".to_string(), false));
}
