//! Never write what cannot be read back (issue 63): every value entering a
//! tournament is checked against its domain where it enters, and every
//! TRF stored goes through `trf::write_checked`, which reads it back.
//!
//! A property test per entry point of the model (the one every front end
//! calls: the command line, the desk's API, the online Swiss): for any
//! accepted input the state is written, reads back as it was, and every
//! view of it renders; for any refused input nothing changed. Values are
//! drawn around every edge that matters (0, the tournament's rounds, 999
//! and 1000 for three TRF columns, 3500 and 9999 for ratings, eleven and
//! twelve digits for FIDE ids, 33 and 34 characters for names).

use escaque::{Lang, Localized};
use escaque_torneo::domain::{self, Field};
use escaque_torneo::{
    html, pairing, pdf, trf, ByeKind, Outcome, Player, System, TorneoError, Tournament,
};
use proptest::prelude::*;

// The number of cases: the default here, `ESCAQUE_FUZZ_CASES` for a long run.
use crate::fuzz_cases;

/// A Swiss of `rounds` rounds with six players, round 1 paired and played.
fn started(rounds: u32) -> Tournament {
    let mut t = Tournament::new("Dominio", System::Swiss, rounds);
    for (i, name) in ["Ana", "Luis", "Eva", "Pablo", "Sara", "Teo"]
        .iter()
        .enumerate()
    {
        let mut p = Player::new(name);
        p.rating = Some(1400 + 50 * i as u16);
        t.add_player(p).unwrap();
    }
    pairing::pair_next_round(&mut t).unwrap();
    for b in 1..=3 {
        t.set_result_board(1, b, Outcome::WhiteWins).unwrap();
    }
    t
}

/// What a person meets: a three-round event, a forbidden pairing up to
/// round 2000 (the request that once made a tournament unreadable).
#[test]
fn a_forbidden_pairing_past_the_last_round_is_refused_and_nothing_changes() {
    let mut t = started(3);
    let before = trf::write_checked(&t).unwrap();
    let e = t.forbid(&[1, 2], 2, 2000).unwrap_err();
    assert!(
        matches!(&e, TorneoError::Domain(d) if d.field == Field::ToRound),
        "{e:?}"
    );
    // The limit is named, in Spanish and in English.
    assert!(
        e.message(Lang::Es).contains("2000"),
        "{}",
        e.message(Lang::Es)
    );
    assert!(
        e.message(Lang::Es).contains("2–3"),
        "{}",
        e.message(Lang::Es)
    );
    assert!(
        e.message(Lang::En).contains("2–3"),
        "{}",
        e.message(Lang::En)
    );
    let e = t.forbid(&[3, 1], 1000, 1000).unwrap_err();
    assert!(matches!(&e, TorneoError::Domain(d) if d.field == Field::FromRound));
    assert_eq!(trf::write_checked(&t).unwrap(), before);
    // Within the rounds it is accepted and reads back.
    t.forbid(&[1, 2], 2, 3).unwrap();
    let text = trf::write_checked(&t).unwrap();
    assert_eq!(trf::parse(&text).unwrap().forbidden, t.forbidden);
}

#[test]
fn ratings_fide_ids_and_names_outside_their_columns_are_refused_with_the_limit() {
    let mut t = started(5);
    let before = t.clone();
    let mut p = Player::new("Ana María");
    p.rating = Some(10_000);
    let e = t.add_player(p).unwrap_err();
    assert!(
        e.message(Lang::Es).contains("0–3500"),
        "{}",
        e.message(Lang::Es)
    );
    let mut p = Player::new("Ana María");
    p.fide_id = Some(123_456_789_012);
    let e = t.add_player(p).unwrap_err();
    assert!(
        e.message(Lang::En).contains("11 digits"),
        "{}",
        e.message(Lang::En)
    );
    let e = t.add_player(Player::new(&"x".repeat(34))).unwrap_err();
    assert!(
        e.message(Lang::Es).contains("como mucho 33"),
        "{}",
        e.message(Lang::Es)
    );
    let mut p = Player::new("Ana María");
    p.club = "c".repeat(61);
    let e = t.add_player(p).unwrap_err();
    assert!(
        e.message(Lang::En).contains("at most 60"),
        "{}",
        e.message(Lang::En)
    );
    assert_eq!(t, before);
    // At the limits, accepted; the late entry reads back.
    let mut p = Player::new(&"x".repeat(33));
    p.rating = Some(3500);
    p.fide_id = Some(domain::MAX_FIDE_ID);
    t.add_player(p).unwrap();
    let back = trf::parse(&trf::write_checked(&t).unwrap()).unwrap();
    assert_eq!(back.players, t.players);
}

/// A state a hand edit could make (a field set around the model) is never
/// written: the old text stays the caller's.
#[test]
fn a_state_that_would_not_fit_its_columns_is_not_written() {
    let mut t = started(3);
    t.forbidden.push(escaque_torneo::model::ForbiddenPairing {
        first_round: 1,
        last_round: 1000,
        players: vec![1, 2],
    });
    let e = trf::write_checked(&t).unwrap_err();
    assert!(matches!(e, TorneoError::Domain(_)), "{e:?}");
    let mut t = started(3);
    t.players[0].name = "n".repeat(40);
    assert!(trf::write_checked(&t).is_err());
    let mut t = started(3);
    t.total_rounds = 1000;
    assert!(trf::write_checked(&t).is_err());
}

/// One call a front end makes on the model.
#[derive(Clone, Debug)]
enum Op {
    Add {
        name: String,
        club: String,
        rating: Option<u16>,
        fide: Option<u64>,
        born: Option<u16>,
    },
    Edit {
        id: u32,
        name: String,
        rating: Option<u16>,
        fide: Option<u64>,
    },
    Withdraw {
        id: u32,
        from: u32,
    },
    Bye {
        id: u32,
        round: u32,
        kind: u8,
    },
    Forbid {
        players: Vec<u32>,
        first: u32,
        last: u32,
    },
    Result {
        round: u32,
        board: u32,
        outcome: u8,
    },
    Pair,
}

fn edge_u32() -> impl Strategy<Value = u32> {
    prop_oneof![
        0u32..8,
        prop::sample::select(vec![998, 999, 1000, 2000, 9999, 10_000, u32::MAX]),
        any::<u32>(),
    ]
}

fn edge_rating() -> impl Strategy<Value = Option<u16>> {
    prop::option::of(prop_oneof![
        prop::sample::select(vec![0u16, 1, 3500, 3501, 9999, 10_000, u16::MAX]),
        any::<u16>(),
    ])
}

fn edge_fide() -> impl Strategy<Value = Option<u64>> {
    prop::option::of(prop_oneof![
        prop::sample::select(vec![
            0u64,
            1,
            99_999_999_999,
            100_000_000_000,
            123_456_789_012,
            u64::MAX
        ]),
        any::<u64>(),
    ])
}

fn edge_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-zñÁé ,]{0,40}",
        (30usize..40).prop_map(|n| "ñ".repeat(n)),
        Just("Ana\nLuis".to_string()),
        Just("   ".to_string()),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (
            edge_name(),
            prop_oneof!["[a-z ]{0,10}", (55usize..70).prop_map(|n| "c".repeat(n))],
            edge_rating(),
            edge_fide(),
            prop::option::of(prop_oneof![1890u16..2110, any::<u16>()])
        )
            .prop_map(|(name, club, rating, fide, born)| Op::Add {
                name,
                club,
                rating,
                fide,
                born
            }),
        (0u32..9, edge_name(), edge_rating(), edge_fide()).prop_map(|(id, name, rating, fide)| {
            Op::Edit {
                id,
                name,
                rating,
                fide,
            }
        }),
        (0u32..9, edge_u32()).prop_map(|(id, from)| Op::Withdraw { id, from }),
        (0u32..9, edge_u32(), 0u8..4).prop_map(|(id, round, kind)| Op::Bye { id, round, kind }),
        (prop::collection::vec(0u32..9, 0..4), edge_u32(), edge_u32()).prop_map(
            |(players, first, last)| Op::Forbid {
                players,
                first,
                last
            }
        ),
        (0u32..5, 0u32..5, 0u8..7).prop_map(|(round, board, outcome)| Op::Result {
            round,
            board,
            outcome
        }),
        Just(Op::Pair),
    ]
}

fn apply(t: &mut Tournament, op: &Op) -> Result<(), TorneoError> {
    match op {
        Op::Add {
            name,
            club,
            rating,
            fide,
            born,
        } => {
            let mut p = Player::new(name);
            p.club = club.clone();
            p.rating = *rating;
            p.fide_id = *fide;
            p.birth_year = *born;
            t.add_player(p).map(|_| ())
        }
        Op::Edit {
            id,
            name,
            rating,
            fide,
        } => {
            let mut p = t.player(*id)?.clone();
            p.name = name.clone();
            p.rating = *rating;
            p.fide_id = *fide;
            t.replace_player(*id, p)
        }
        Op::Withdraw { id, from } => t.withdraw(*id, *from),
        Op::Bye { id, round, kind } => {
            let kind = [
                ByeKind::Half,
                ByeKind::Full,
                ByeKind::Zero,
                ByeKind::PairingAllocated,
            ][*kind as usize];
            t.request_bye(*id, *round, kind)
        }
        Op::Forbid {
            players,
            first,
            last,
        } => t.forbid(players, *first, *last),
        Op::Result {
            round,
            board,
            outcome,
        } => {
            let o = Outcome::ALL[*outcome as usize];
            t.set_result_board(*round, *board, o).map(|_| ())
        }
        // As the front ends pair: on a copy, kept when the round is made.
        Op::Pair => {
            let mut c = t.clone();
            c.next_round_number()?;
            c.sort_pairing_numbers();
            pairing::pair_next_round(&mut c)?;
            *t = c;
            Ok(())
        }
    }
}

/// Every view of the tournament renders, and its text reads back as it is.
fn readable(t: &Tournament) {
    let text = trf::write_checked(t).unwrap_or_else(|e| panic!("{e}\n{}", trf::write(t)));
    let back = trf::parse(&text).unwrap();
    // Nothing a person entered was lost on the way. (A withdrawal is also
    // written as an absence from the next round, which reads back as one:
    // the same thing said twice, so byes are not compared field by field.)
    let who = |t: &Tournament| -> Vec<_> {
        t.players
            .iter()
            .map(|p| {
                (
                    p.name.clone(),
                    p.club.clone(),
                    p.category.clone(),
                    p.rating,
                    p.fide_id,
                    p.birth_year,
                    p.entry_round,
                    p.withdrawn_from,
                )
            })
            .collect()
    };
    assert_eq!(who(&back), who(t));
    assert_eq!(back.forbidden, t.forbidden);
    assert_eq!(back.total_rounds, t.total_rounds);
    // Read a second time, the text no longer changes.
    let again = trf::write(&back);
    assert_eq!(trf::write(&trf::parse(&again).unwrap()), again);
    assert_eq!(back.rounds.len(), t.rounds.len());
    for page in [
        html::standings_page(t),
        html::crosstable_page(t),
        html::categories_page(t),
        html::teams_page(t),
    ] {
        assert!(page.contains("</html>"));
    }
    for r in 1..=t.rounds.len() as u32 {
        assert!(html::pairings(t, r).contains("</html>"));
        assert!(pdf::pairings(t, r).starts_with(b"%PDF"));
    }
    assert!(pdf::standings(t).starts_with(b"%PDF"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: fuzz_cases::cases(64), ..ProptestConfig::default() })]

    /// Any sequence of calls: each accepted one leaves a tournament that is
    /// written, reads back and renders; each refused one changes nothing.
    #[test]
    fn every_entry_point_keeps_the_tournament_readable(
        rounds in prop_oneof![1u32..6, Just(999u32)],
        ops in prop::collection::vec(op(), 1..24),
    ) {
        let mut t = started(rounds.max(2));
        for op in &ops {
            let before = t.clone();
            let text_before = trf::write_checked(&t).unwrap();
            match apply(&mut t, op) {
                Ok(()) => readable(&t),
                Err(e) => {
                    prop_assert_eq!(&t, &before, "{:?} refused ({}) but changed the state", op, e);
                    prop_assert_eq!(trf::write_checked(&t).unwrap(), text_before);
                    // A refusal says what is wrong in both languages.
                    prop_assert!(!e.message(Lang::Es).is_empty() && !e.message(Lang::En).is_empty());
                }
            }
        }
    }
}
