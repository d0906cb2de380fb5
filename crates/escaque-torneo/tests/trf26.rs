//! TRF-2026 (the edition in force since 1 September 2025): its tournament
//! records read and written, its bye, acceleration and forbidden-pairing
//! records honoured, and the records escaque cannot honour refused by line.

use escaque::{Lang, Localized};
use escaque_torneo::dutch::{pair, pairing_players};
use escaque_torneo::model::{Acceleration, ByeKind, ForbiddenPairing, Player, System, Tournament};
use escaque_torneo::pairing::pair_next_round;
use escaque_torneo::{trf, TieBreak, TrfErrorKind};

/// A TRF-2026 file in the layout of FIDE's description, with every
/// tournament record escaque reads and some it skips.
const SAMPLE: &str = "\
012 Open Escolar de Primavera
022 Logroño
032 ESP
042 2026/03/07
052 2026/03/08
062 6
072 4
092 Individual: Swiss-System
102 Pérez, Ana
122 60 min + 30 s
132                                                                                        26/03/07  26/03/07  26/03/08
142 5
152 B
162  W 1.0     D 0.5     L 0.0     A 0.0
182 SomeProgram 1.0
192 FIDE_DUTCH_2025
202 BH/C1,BH,SB,DE
212 PTS,BH/C1,BH,SB,DE
222 3600+30
### comments are allowed anywhere
001    1 m    Núñez, Íñigo                      1850 ESP    22223333 2012/04/01  1.0    1     4 w 1
001    2 w    Gómez, Lucía                      1790 ESP    22224444 2013/01/15  1.0    2     5 b 1
001    3 m    Ruiz, Pablo                       1702 ESP             2012        0.5    3     6 w =
001    4 w    López, Marta                      0000 ESP             2014        0.0    4     1 b 0
001    5 m    Sanz, Hugo                             ESP                         0.0    5     2 w 0
001    6 w    Díaz, Sara                             ESP                         0.5    6     3 b =
ESP    1 m    Núñez, Íñigo                      1900 RIO
240 H   2    3
240 F   3    5
240 Z   4    6    2
250       1.0   2   3    1    3
260   2   5    1    2
";

#[test]
fn reads_the_tournament_records() {
    let t = trf::parse(SAMPLE).unwrap();
    assert_eq!(t.name, "Open Escolar de Primavera");
    assert_eq!(t.city, "Logroño");
    assert_eq!(t.total_rounds, 5);
    assert!(!t.first_white, "152 B");
    assert_eq!(t.round_dates, ["26/03/07", "26/03/07", "26/03/08"]);
    assert_eq!(
        t.tiebreaks,
        [
            TieBreak::BuchholzCut1,
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
            TieBreak::DirectEncounter
        ]
    );
    assert_eq!(t.time_control_code, "3600+30");
    assert_eq!(t.players.len(), 6);
    assert_eq!(t.players[0].birth_year, Some(2012));
    assert_eq!(
        t.players[0].rating,
        Some(1850),
        "the 001 rating, not the national one"
    );
    assert!(t.players[2].half_byes.contains(&2));
    assert!(t.players[4].full_byes.contains(&3));
    assert!(t.players[5].absences.contains(&4) && t.players[1].absences.contains(&4));
    assert_eq!(
        t.accelerations,
        [Acceleration {
            points: 2,
            first_round: 2,
            last_round: 3,
            first_player: 1,
            last_player: 3
        }]
    );
    assert_eq!(
        t.forbidden,
        [ForbiddenPairing {
            first_round: 2,
            last_round: 5,
            players: vec![1, 2]
        }]
    );
    assert_eq!(t.rounds.len(), 1);
    assert_eq!(t.score(1), 2);
    // Round 2: player 3 has the half-point bye; 1 and 2 may not meet and carry
    // one fictitious point each, as player 3 would.
    assert!(t.forbidden_pairing(2, 1, 2) && !t.forbidden_pairing(1, 2, 6));
    assert_eq!(t.acceleration(1, 2), 2);
    assert_eq!(t.acceleration(4, 2), 0);
    let players = pairing_players(&t, 2);
    assert_eq!(players.len(), 5, "player 3 is on a bye");
    let p1 = players.iter().find(|p| p.id == 1).unwrap();
    assert_eq!(p1.score, 4, "one point won plus one fictitious");
    let pairs = pair(&players, false, t.total_rounds, t.first_white).unwrap();
    for (w, b) in &pairs {
        assert!(
            !matches!((w, b), (1, Some(2)) | (2, Some(1))),
            "1 and 2 are forbidden to meet: {pairs:?}"
        );
    }
}

/// TRF-2026 writes `042`/`052` as `YYYY/MM/DD` and the tie-breaks of
/// `202` with C.07's slash (`BH/C1`, as Gacrux reads them); the forms
/// escaque wrote before (`2025-12-20`, `BH-C1`) and the usual ways of
/// writing a date are read too, and written back the TRF way (issue 64).
#[test]
fn dates_and_tie_breaks_are_written_as_trf_2026_and_read_in_both_forms() {
    for (written, read) in [
        ("2025/12/20", "2025/12/20"),
        ("2025-12-20", "2025/12/20"),
        ("2025.12.20", "2025/12/20"),
        ("20/12/2025", "2025/12/20"),
        ("20.12.2025", "2025/12/20"),
        ("2025/1/5", "2025/01/05"),
        ("25/12/20", "2025/12/20"),
        // Not a date: kept as written, never guessed.
        ("diciembre de 2025", "diciembre de 2025"),
        ("2025/13/20", "2025/13/20"),
    ] {
        assert_eq!(trf::date(written), read, "{written}");
    }
    for (spelling, line) in [
        ("BH/C1,BH/M1,SB", "202 BH/C1,BH/M1,SB"),
        ("BH-C1,BH-M1,SB", "202 BH/C1,BH/M1,SB"),
        ("bh/c1,bh-m1,sb", "202 BH/C1,BH/M1,SB"),
    ] {
        let text = SAMPLE
            .replace("202 BH/C1,BH,SB,DE", &format!("202 {spelling}"))
            .replace("212 PTS,BH/C1,BH,SB,DE\n", "")
            .replace("042 2026/03/07", "042 2026-03-07");
        let t = trf::parse(&text).unwrap();
        assert_eq!(
            t.tiebreaks,
            [
                TieBreak::BuchholzCut1,
                TieBreak::MedianBuchholz,
                TieBreak::SonnebornBerger
            ],
            "{spelling}"
        );
        assert_eq!(t.start_date, "2026/03/07");
        let out = trf::write(&t);
        assert!(out.lines().any(|l| l == line), "{line:?} missing in\n{out}");
        assert!(out.lines().any(|l| l == "042 2026/03/07"), "{out}");
        assert!(!out.contains("BH-"), "{out}");
        // escaque's own writing reads back to the same list.
        assert_eq!(trf::parse(&out).unwrap().tiebreaks, t.tiebreaks);
    }
    // A tournament entered with a dashed date is written the TRF way.
    let mut t = Tournament::new("Fechas", System::Swiss, 5);
    t.start_date = "2025-12-20".into();
    t.end_date = "21/12/2025".into();
    let out = trf::write(&t);
    assert!(out.contains("042 2025/12/20\n052 2025/12/21\n"), "{out}");
}

#[test]
fn the_new_records_survive_a_round_trip() {
    let t = trf::parse(SAMPLE).unwrap();
    let text = trf::write(&t);
    for code in [
        "132 ",
        "142 5",
        "152 B",
        "042 2026/03/07",
        "052 2026/03/08",
        "202 BH/C1,BH,SB,DE",
        "212 PTS,BH/C1",
        "222 3600+30",
        "240 H   2    3",
        "240 F   3    5",
        "240 Z   4    2    6",
        "250 ",
        "260   2   5    1    2",
        "XXR 5",
        "XXC black1",
    ] {
        assert!(text.contains(code), "{code:?} missing in\n{text}");
    }
    let again = trf::parse(&text).unwrap();
    assert_eq!(again.players, t.players);
    assert_eq!(again.rounds, t.rounds);
    assert_eq!(again.round_dates, t.round_dates);
    assert_eq!(again.tiebreaks, t.tiebreaks);
    assert_eq!(again.accelerations, t.accelerations);
    assert_eq!(again.forbidden, t.forbidden);
    assert_eq!(again.time_control_code, t.time_control_code);
    assert_eq!((again.total_rounds, again.first_white), (5, false));
    // The round dates stand in the columns of their rounds.
    let dates = text.lines().find(|l| l.starts_with("132")).unwrap();
    let chars: Vec<char> = dates.chars().collect();
    assert_eq!(chars[91..99].iter().collect::<String>(), "26/03/07");
    assert_eq!(chars[111..119].iter().collect::<String>(), "26/03/08");
}

#[test]
fn a_full_point_bye_scores_one_point() {
    let mut t = Tournament::new("Club", System::Swiss, 3);
    for name in ["A, A", "B, B", "C, C", "D, D", "E, E"] {
        t.add_player(Player::new(name)).unwrap();
    }
    t.players[4].full_byes.insert(1);
    pair_next_round(&mut t).unwrap();
    assert!(t.rounds[0].byes.contains(&(5, ByeKind::Full)));
    assert_eq!(t.score(5), 2);
    assert_eq!(t.rounds[0].games.len(), 2);
    let again = trf::parse(&trf::write(&t)).unwrap();
    assert_eq!(again.rounds, t.rounds);
    assert_eq!(again.score(5), 2);
}

#[test]
fn records_escaque_cannot_honour_are_refused_by_line() {
    let cases = [
        ("162  W 1.0     D 0.5     L 0.0     P 0.5", 13, "162"),
        ("299 W    1.0    3    1", 13, "299"),
        (
            "310   1 India                            IND     2486   15.0   28.0  11     1    5",
            13,
            "310",
        ),
        ("013 Team A                          1    2", 13, "013"),
    ];
    for (record, _, code) in cases {
        let text = SAMPLE.replace("162  W 1.0     D 0.5     L 0.0     A 0.0", record);
        let e = trf::parse(&text).unwrap_err();
        assert_eq!(e.line, 14, "{code}");
        assert!(
            matches!(e.kind, TrfErrorKind::Unsupported(_)),
            "{code}: {e:?}"
        );
        assert!(
            e.message(Lang::Es).contains("línea 14"),
            "{}",
            e.message(Lang::Es)
        );
        assert!(!e.message(Lang::En).is_empty());
    }
    let bad = [
        ("202 BH-C1,XYZ", TrfErrorKind::UnknownTieBreak("XYZ".into())),
        ("240 H   2    9", TrfErrorKind::UnknownPlayer(9)),
        (
            "260   5   2    1    2",
            TrfErrorKind::BadRange { first: 5, last: 2 },
        ),
        ("152 X", TrfErrorKind::BadColour('X')),
    ];
    for (record, kind) in bad {
        let text = format!("{SAMPLE}{record}\n");
        let e = trf::parse(&text).unwrap_err();
        assert_eq!(e.kind, kind, "{record}");
        assert_eq!(e.line, SAMPLE.lines().count() + 1, "{record}");
    }
}

/// bbpPairings' answer: the pairs (white, black), black 0 for the bye.
fn expected(text: &str) -> Vec<(u32, u32)> {
    let mut lines = text.lines();
    let n: usize = lines.next().unwrap().trim().parse().unwrap();
    let pairs: Vec<(u32, u32)> = lines
        .take(n)
        .map(|l| {
            let mut it = l.split_whitespace().map(|w| w.parse().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    assert_eq!(pairs.len(), n);
    pairs
}

/// Pairs `file`'s next round with escaque, checking legality and the
/// forbidden pairings; returns whether it equals bbpPairings'.
fn agrees(file: &std::path::Path) -> bool {
    let t = trf::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    let round = t.rounds.len() as u32 + 1;
    let players = pairing_players(&t, round);
    let ours = pair(
        &players,
        round == t.total_rounds,
        t.total_rounds,
        t.first_white,
    )
    .unwrap_or_else(|| panic!("{}: no pairing", file.display()));
    for &(w, b) in &ours {
        if let Some(b) = b {
            assert!(
                !t.forbidden_pairing(w, b, round),
                "{}: {w}–{b}",
                file.display()
            );
        }
    }
    let ours: Vec<(u32, u32)> = ours.into_iter().map(|(w, b)| (w, b.unwrap_or(0))).collect();
    ours == expected(&std::fs::read_to_string(file.with_extension("expected")).unwrap())
}

#[test]
fn forbidden_pairings_and_accelerations_against_bbppairings() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/trf26");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    let mut by_kind: std::collections::BTreeMap<String, (u32, u32)> = Default::default();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let kind = name[..name.find("-t").unwrap()].to_string();
        let e = by_kind.entry(kind).or_default();
        e.0 += 1;
        e.1 += agrees(f) as u32;
    }
    for (kind, (n, same)) in &by_kind {
        println!("{kind}: {same} of {n} rounds identical to bbpPairings");
    }
    // The Dutch pairing is bbpPairings' (boards included) in every round,
    // with forbidden pairings and with accelerations.
    for kind in [
        "forbid-r1",
        "forbid-r2",
        "forbid-r3",
        "accel-r1",
        "accel-r2",
        "accel-r3",
    ] {
        let (n, same) = by_kind[kind];
        assert!(n >= 30, "{kind}: {n} files");
        assert_eq!(same, n, "{kind}");
    }
}
