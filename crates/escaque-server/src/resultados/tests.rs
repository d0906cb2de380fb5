//! The decisions of a board's result, without storage.

use super::*;
use proptest::prelude::*;

fn entry() -> EntryRow {
    EntryRow {
        tournament_id: "t".into(),
        round: 1,
        board: 1,
        version: 0,
        ..EntryRow::default()
    }
}

#[test]
fn codes_are_long_random_and_of_their_alphabet() {
    let a = new_code();
    let b = new_code();
    assert_ne!(a, b);
    for c in [&a, &b] {
        assert!(code_shape(c), "{c}");
    }
    assert!(!code_shape("short"));
    assert!(!code_shape(&"0".repeat(CODE_LEN)));
    assert!(!code_shape(&"a".repeat(CODE_LEN + 1)));
    // Every character of the alphabet turns up over many codes.
    let all: String = (0..200).map(|_| new_code()).collect();
    for &ch in CODE_ALPHABET {
        assert!(all.contains(ch as char), "{}", ch as char);
    }
}

#[test]
fn one_side_enters_the_other_confirms() {
    let e = entry();
    let s = player_step(&e, Outcome::Pending, Side::White, Outcome::WhiteWins, 1).unwrap();
    assert_eq!(s.record, None, "one side alone reaches nothing");
    assert_eq!(s.log.as_ref().unwrap().0, "entered");
    assert_eq!(state_of(&s.entry, Outcome::Pending), State::Entered);
    let c = player_step(
        &s.entry,
        Outcome::Pending,
        Side::Black,
        Outcome::WhiteWins,
        2,
    )
    .unwrap();
    assert_eq!(c.record, Some(Outcome::WhiteWins));
    assert_eq!(c.log.as_ref().unwrap().0, "confirmed");
    assert_eq!(c.entry.final_by.as_deref(), Some("players"));
    assert_eq!(state_of(&c.entry, Outcome::WhiteWins), State::Confirmed);
    // The same result again is answered, nothing written; another refused.
    let again = player_step(
        &c.entry,
        Outcome::WhiteWins,
        Side::White,
        Outcome::WhiteWins,
        3,
    )
    .unwrap();
    assert_eq!(again.log, None);
    let e = player_step(&c.entry, Outcome::WhiteWins, Side::White, Outcome::Draw, 3).unwrap_err();
    assert_eq!(e.code(), "already_final");
}

#[test]
fn the_same_side_twice_is_no_confirmation() {
    let s = player_step(&entry(), Outcome::Pending, Side::White, Outcome::Draw, 1).unwrap();
    let t = player_step(&s.entry, Outcome::Pending, Side::White, Outcome::Draw, 2).unwrap();
    assert_eq!(t.log, None, "the same claim again writes nothing");
    let u = player_step(
        &s.entry,
        Outcome::Pending,
        Side::White,
        Outcome::BlackWins,
        2,
    )
    .unwrap();
    assert_eq!(u.record, None);
    assert_eq!(u.log.as_ref().unwrap().0, "entered");
    assert_eq!(u.entry.white_claim.as_deref(), Some("0-1"));
}

#[test]
fn disagreeing_sides_are_a_conflict_the_arbiter_clears() {
    let s = player_step(
        &entry(),
        Outcome::Pending,
        Side::White,
        Outcome::WhiteWins,
        1,
    )
    .unwrap();
    let c = player_step(&s.entry, Outcome::Pending, Side::Black, Outcome::Draw, 2).unwrap();
    assert_eq!(c.record, None);
    assert_eq!(c.log.as_ref().unwrap().0, "conflict");
    assert_eq!(state_of(&c.entry, Outcome::Pending), State::Conflict);
    let a = arbiter_step(&c.entry, Outcome::Pending, Outcome::Draw, 3);
    assert_eq!(a.record, Some(Outcome::Draw));
    let (action, previous) = a.log.clone().unwrap();
    assert_eq!(action, "override", "White's claim said otherwise");
    assert_eq!(previous.as_deref(), Some("blancas 1-0, negras ½-½"));
    assert_eq!(state_of(&a.entry, Outcome::Draw), State::Arbiter);
    // A board nobody entered: the arbiter's result is no override.
    let plain = arbiter_step(&entry(), Outcome::Pending, Outcome::BlackWins, 1);
    assert_eq!(plain.log.unwrap().0, "arbiter");
    // Clearing empties the claims too.
    let cleared = arbiter_step(&a.entry, Outcome::Draw, Outcome::Pending, 4);
    assert_eq!(cleared.record, Some(Outcome::Pending));
    assert_eq!(cleared.log.unwrap().0, "cleared");
    assert_eq!(state_of(&cleared.entry, Outcome::Pending), State::Missing);
}

#[test]
fn a_result_the_desk_entered_otherwise_counts_as_the_arbiters() {
    let mut e = entry();
    assert_eq!(state_of(&e, Outcome::Draw), State::Arbiter);
    e.final_result = Some("1-0".into());
    e.final_by = Some("players".into());
    // The desk corrected it since: the desk's word stands.
    assert_eq!(state_of(&e, Outcome::Draw), State::Arbiter);
    assert_eq!(state_of(&e, Outcome::WhiteWins), State::Confirmed);
}

#[test]
fn players_give_no_double_forfeit_nor_clear() {
    assert_eq!(player_result("--").unwrap_err().code(), "arbiter_only");
    assert_eq!(player_result("*").unwrap_err().code(), "arbiter_only");
    assert_eq!(player_result("1/2-1/2").unwrap(), Outcome::Draw);
    assert_eq!(player_result("+-").unwrap(), Outcome::WhiteForfeitWin);
    assert!(player_result("2-0").is_err());
    assert_eq!(Side::parse("negras").unwrap(), Side::Black);
    assert_eq!(Side::parse("nadie").unwrap_err().code(), "bad_side");
}

fn outcome() -> impl Strategy<Value = Outcome> {
    prop_oneof![
        Just(Outcome::WhiteWins),
        Just(Outcome::BlackWins),
        Just(Outcome::Draw),
        Just(Outcome::WhiteForfeitWin),
        Just(Outcome::BlackForfeitWin),
    ]
}

proptest! {
    /// Whatever the phones send, in any order: a result reaches the
    /// standings only when both sides said the same, and then it is what
    /// they said; a board in conflict never holds one.
    #[test]
    fn only_agreed_results_reach_the_standings(
        steps in proptest::collection::vec((any::<bool>(), outcome()), 1..12)
    ) {
        let mut e = entry();
        let mut recorded = Outcome::Pending;
        for (i, (white, o)) in steps.into_iter().enumerate() {
            let side = if white { Side::White } else { Side::Black };
            match player_step(&e, recorded, side, o, i as i64) {
                Ok(s) => {
                    if let Some(r) = s.record {
                        prop_assert_eq!(s.entry.white_claim.as_deref(), result_id(r));
                        prop_assert_eq!(s.entry.black_claim.as_deref(), result_id(r));
                        recorded = r;
                    }
                    e = s.entry;
                }
                Err(err) => {
                    prop_assert_eq!(err.code(), "already_final");
                    prop_assert!(recorded != Outcome::Pending && recorded != o);
                }
            }
            let st = state_of(&e, recorded);
            prop_assert_eq!(st == State::Confirmed, recorded != Outcome::Pending);
            if st == State::Conflict {
                prop_assert_eq!(recorded, Outcome::Pending);
            }
        }
    }

    /// Any text as a result or a side: a value or a refusal, never a panic.
    #[test]
    fn any_text_is_read_or_refused(s in ".{0,24}") {
        let _ = player_result(&s);
        let _ = Side::parse(&s);
        let _ = code_shape(&s);
    }
}
