//! TRF reading and writing: round trips, errors with line and column, and
//! arbitrary text never panics.

use escaque::{Lang, Localized};
use escaque_torneo::model::{Outcome, Player, System, Tournament};
use escaque_torneo::pairing::pair_next_round;
use escaque_torneo::{trf, TrfErrorKind};
use proptest::prelude::*;

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
    #![proptest_config(ProptestConfig::with_cases(2000))]
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
            // Whatever reads must write and read again.
            let _ = trf::parse(&trf::write(&t)).unwrap();
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
