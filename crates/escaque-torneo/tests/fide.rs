//! FIDE mode (escaque_torneo::fide): on by default, left only with two
//! confirmations and written in the TRF as a `###` line that reads back,
//! pairing numbers frozen once round 4 is paired, every warning of a manual
//! pairing and its `### MPA @ Round n` comparison with the engine, point
//! systems, and `trf::write_with`'s XXA option.

use escaque::{Lang, Localized};
use escaque_torneo::fide::{self, FideError, Pairs, Warning};
use escaque_torneo::model::{ByeKind, Entry, Outcome, Player, System, Tournament};
use escaque_torneo::{pairing, trf, TorneoError};
use proptest::prelude::*;

fn swiss(n: u32, rounds: u32) -> Tournament {
    let mut t = Tournament::new("Abierto de Prueba", System::Swiss, rounds);
    for i in 0..n {
        let mut p = Player::new(&format!("Jugador {i:02}"));
        p.rating = Some(2400 - 10 * i as u16);
        t.add_player(p).unwrap();
    }
    t.sort_pairing_numbers();
    t
}

/// White wins every game of the last round.
fn white_wins(t: &mut Tournament) {
    let r = t.rounds.len() as u32;
    for b in 1..=t.rounds[r as usize - 1].games.len() as u32 {
        t.set_result_board(r, b, Outcome::WhiteWins).unwrap();
    }
}

fn manual(t: &mut Tournament, text: &str) -> Vec<Warning> {
    let (preview, _) = fide::apply_manual(t, &Pairs::parse(text).unwrap(), true).unwrap();
    white_wins(t);
    preview.warnings
}

#[test]
fn a_new_tournament_is_in_fide_mode_and_every_printout_says_so() {
    let t = swiss(6, 5);
    assert!(fide::is_on(&t));
    assert_eq!(fide::mark(&t, Lang::Es), "Modo FIDE");
    assert_eq!(fide::mark(&t, Lang::En), "FIDE mode");
    let back = trf::parse(&trf::write(&t)).unwrap();
    assert!(fide::is_on(&back));
}

#[test]
fn leaving_needs_both_confirmations_is_written_and_cannot_be_undone() {
    let mut t = swiss(6, 5);
    let e = fide::leave(&mut t, false, "Abierto de Prueba", "Ana").unwrap_err();
    assert_eq!(e, TorneoError::Fide(FideError::NotConfirmed));
    let e = fide::leave(&mut t, true, "Abierto", "Ana").unwrap_err();
    assert!(
        matches!(e, TorneoError::Fide(FideError::NameMismatch { .. })),
        "{e:?}"
    );
    let e = fide::leave(&mut t, true, "", "Ana").unwrap_err();
    assert!(
        matches!(e, TorneoError::Fide(FideError::NameMismatch { .. })),
        "{e:?}"
    );
    assert!(fide::is_on(&t), "a refused leave changes nothing");
    assert!(t.fide_log.is_empty());

    pairing::pair_next_round(&mut t).unwrap();
    white_wins(&mut t);
    // Spaces and case aside, the name typed again.
    let line = fide::leave(&mut t, true, "  abierto de  PRUEBA ", "Ana").unwrap();
    assert_eq!(
        line,
        "### FIDE mode left @ Round 2 by Ana (confirmed twice; cannot be undone)"
    );
    assert!(!fide::is_on(&t));
    assert_eq!(
        fide::mark(&t, Lang::Es),
        "FUERA DEL MODO FIDE (desde la ronda 2)"
    );
    let text = trf::write(&t);
    assert!(text.lines().any(|l| l == line), "{text}");
    let mut back = trf::parse(&text).unwrap();
    assert!(
        !fide::is_on(&back),
        "read back, the tournament is still out"
    );
    assert_eq!(
        fide::leave(&mut back, true, "Abierto de Prueba", "Ana").unwrap_err(),
        TorneoError::Fide(FideError::AlreadyLeft)
    );
    // Other `###` comments are not FIDE mode's and do not take it out.
    let other = trf::parse(&format!(
        "### FIDE mode is fine\n{}",
        trf::write(&swiss(4, 3))
    ))
    .unwrap();
    assert!(fide::is_on(&other));
    assert!(other.fide_log.is_empty());
}

#[test]
fn pairing_numbers_are_frozen_once_round_4_is_paired() {
    let mut t = swiss(8, 7);
    for _ in 0..3 {
        pairing::pair_next_round(&mut t).unwrap();
        white_wins(&mut t);
    }
    assert!(!fide::numbers_frozen(&t), "three rounds paired");
    pairing::pair_next_round(&mut t).unwrap();
    assert!(fide::numbers_frozen(&t), "round 4 paired");
    white_wins(&mut t);
    let mut out = t.clone();
    fide::leave(&mut out, true, &t.name, "Ana").unwrap();
    assert!(!fide::numbers_frozen(&out), "out of FIDE mode");
}

#[test]
fn a_manual_pairing_warns_of_each_rule_and_logs_the_comparison() {
    let mut t = swiss(7, 7);
    // Round 1 as the engine pairs it, entered by hand: no warning, the
    // engine's pairing, 0 boards differ.
    let engine = fide::preview_manual(&t, &Pairs::parse("1-5 6-2 3-7 4-0").unwrap()).unwrap();
    let e = engine.engine.clone().unwrap();
    let w = manual(&mut t, &e.text());
    assert!(w.is_empty(), "{w:?}");
    assert!(
        t.fide_log[0].starts_with(&format!(
            "### MPA @ Round 1: manual {}; engine {}; 0 differ; warnings none",
            e.text(),
            e.text()
        )),
        "{:?}",
        t.fide_log
    );
    let bye1 = e.bye.unwrap();
    let first = e.games[0];

    // Round 2: the same two players again, the bye to the same player.
    let others: Vec<u32> = (1..=7)
        .filter(|p| *p != first.0 && *p != first.1 && *p != bye1)
        .collect();
    let text = format!(
        "{}-{} {}-{} {}-{} {}-0",
        first.0, first.1, others[0], others[1], others[2], others[3], bye1
    );
    let p = Pairs::parse(&text).unwrap();
    let e = fide::apply_manual(&mut t, &p, false).unwrap_err();
    let TorneoError::Fide(FideError::Warnings(w)) = &e else {
        panic!("{e:?}")
    };
    assert!(
        w.contains(&Warning::Repeat {
            a: first.0,
            b: first.1
        }),
        "{w:?}"
    );
    assert!(
        w.contains(&Warning::IneligibleBye { player: bye1 }),
        "{w:?}"
    );
    assert!(
        e.message(Lang::Es).contains("ya jugaron entre sí"),
        "{}",
        e.message(Lang::Es)
    );
    assert_eq!(t.rounds.len(), 1, "refused: nothing stored");
    // Accepted explicitly: stored, and the line says what it broke.
    let w = manual(&mut t, &text);
    assert!(w.contains(&Warning::Repeat {
        a: first.0,
        b: first.1
    }));
    let line = t.fide_log.last().unwrap();
    assert!(line.starts_with("### MPA @ Round 2: manual "), "{line}");
    assert!(
        line.contains(&format!("repeat {}-{}", first.0, first.1)),
        "{line}"
    );
    assert!(line.contains(&format!("ineligible_bye {bye1}")), "{line}");
    assert!(trf::write(&t).contains(line.as_str()));

    // Round 3: first.0 had White twice: a third White is warned.
    let rest: Vec<u32> = (1..=7).filter(|p| *p != first.0).collect();
    let text = format!(
        "{}-{} {}-{} {}-{} {}-0",
        first.0, rest[0], rest[1], rest[2], rest[3], rest[4], rest[5]
    );
    let p = Pairs::parse(&text).unwrap();
    let pv = fide::preview_manual(&t, &p).unwrap();
    assert!(
        pv.warnings.contains(&Warning::ThreeInARow {
            player: first.0,
            white: true
        }),
        "{:?}",
        pv.warnings
    );
    assert!(
        pv.warnings.contains(&Warning::ColourImbalance {
            player: first.0,
            difference: 3
        }),
        "{:?}",
        pv.warnings
    );

    // A prohibited pair.
    let mut f = swiss(4, 3);
    f.forbid(&[1, 2], 1, 3).unwrap();
    let pv = fide::preview_manual(&f, &Pairs::parse("1-2 3-4").unwrap()).unwrap();
    assert_eq!(pv.warnings, vec![Warning::Prohibited { a: 1, b: 2 }]);
    assert!(pv.differing >= 1);
}

#[test]
fn a_manual_pairing_must_be_a_pairing_of_the_rounds_players() {
    let mut t = swiss(6, 5);
    t.request_bye(6, 1, ByeKind::Half).unwrap();
    let err = |text: &str| fide::preview_manual(&t, &Pairs::parse(text).unwrap()).unwrap_err();
    assert_eq!(
        err("1-2 3-4 1-5"),
        TorneoError::Fide(FideError::PlayerTwice(1))
    );
    assert_eq!(
        err("1-2 3-4"),
        TorneoError::Fide(FideError::PlayerLeftOut(5))
    );
    assert_eq!(
        err("1-2 3-4 5-6"),
        TorneoError::Fide(FideError::NotAvailable(6))
    );
    assert_eq!(
        err("1-1 3-4 5-0"),
        TorneoError::Fide(FideError::SelfPaired(1))
    );
    assert_eq!(err("1-2 3-4 5-9"), TorneoError::NoSuchPlayer(9));
    // The half-point bye asked for stays as it was.
    fide::apply_manual(&mut t, &Pairs::parse("1-2 3-4 5-0").unwrap(), false).unwrap();
    assert_eq!(t.entry(6, 1), Entry::Bye(ByeKind::Half));
    assert_eq!(t.entry(5, 1), Entry::Bye(ByeKind::PairingAllocated));
    assert!(Pairs::parse("1-0 2-0").is_err(), "two byes");
    assert!(Pairs::parse("1-x").is_err());
    assert!(Pairs::parse("0-1").is_err());
}

#[test]
fn point_systems_where_two_draws_beat_a_win_and_a_loss_are_refused() {
    assert_eq!(fide::check_point_system(2, 1, 0, 2), Ok(()));
    assert_eq!(fide::check_point_system(3, 1, 0, 3), Ok(()));
    assert_eq!(
        fide::check_point_system(3, 2, 0, 3),
        Err(FideError::PointSystem {
            win: 3,
            draw: 2,
            loss: 0
        })
    );
    assert!(
        fide::check_point_system(1, 1, 0, 1).is_err(),
        "a draw as good as a win"
    );
    assert!(
        fide::check_point_system(2, 0, 1, 2).is_err(),
        "a loss above a draw"
    );
    assert_eq!(
        fide::check_point_system(2, 1, 0, 3),
        Err(FideError::ByeAboveWin { bye: 3, win: 2 })
    );
    let m = FideError::PointSystem {
        win: 3,
        draw: 2,
        loss: 0,
    }
    .message(Lang::Es);
    assert!(m.contains("dos tablas"), "{m}");
}

#[test]
fn trf_write_with_xxa_writes_the_accelerations_as_xxa_lines() {
    let mut t = swiss(10, 5);
    t.accelerations = escaque_torneo::baku::acceleration(&t);
    let with = trf::write_with(&t, trf::WriteOptions { xxa: true });
    assert!(!with.lines().any(|l| l.starts_with("250")), "{with}");
    assert_eq!(
        with.lines().filter(|l| l.starts_with("XXA")).count(),
        6,
        "{with}"
    );
    let back = trf::parse(&with).unwrap();
    for id in 1..=10 {
        for r in 1..=5 {
            assert_eq!(
                back.acceleration(id, r),
                t.acceleration(id, r),
                "player {id} round {r}"
            );
        }
    }
    assert!(trf::write(&t).lines().any(|l| l.starts_with("250")));
}

proptest! {
    /// Any text: a pairing or a refusal, never a panic; a pairing's text
    /// reads back as itself.
    #[test]
    fn pairs_parse_never_panics(text in "[0-9 ,\\-a-z–]{0,40}") {
        if let Ok(p) = Pairs::parse(&text) {
            prop_assert_eq!(Pairs::parse(&p.text()).unwrap(), p);
        }
    }

    /// A manual pairing of random pairs of a 9-player event: a round or a
    /// refusal, never a panic.
    #[test]
    fn manual_pairings_never_panic(pairs in proptest::collection::vec((0u32..12, 0u32..12), 0..8)) {
        let mut t = swiss(9, 5);
        let p = Pairs {
            games: pairs.iter().filter(|(_, b)| *b != 0).copied().collect(),
            bye: pairs.iter().find(|(_, b)| *b == 0).map(|(a, _)| *a),
        };
        let _ = fide::preview_manual(&t, &p);
        let _ = fide::apply_manual(&mut t, &p, true);
    }
}
