//! The decisions of a board's result, without storage.

use super::*;
use proptest::prelude::*;

/// A standard result as the board holds it.
fn st(o: Outcome) -> Entered {
    Entered::Standard(o)
}

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
    let s = player_step(&e, NO_RESULT, Side::White, Outcome::WhiteWins, 1).unwrap();
    assert_eq!(s.record, None, "one side alone reaches nothing");
    assert_eq!(s.log.as_ref().unwrap().0, "entered");
    assert_eq!(state_of(&s.entry, NO_RESULT), State::Entered);
    let c = player_step(&s.entry, NO_RESULT, Side::Black, Outcome::WhiteWins, 2).unwrap();
    assert_eq!(c.record, Some(st(Outcome::WhiteWins)));
    assert_eq!(c.log.as_ref().unwrap().0, "confirmed");
    assert_eq!(c.entry.final_by.as_deref(), Some("players"));
    assert_eq!(state_of(&c.entry, st(Outcome::WhiteWins)), State::Confirmed);
    // The same result again is answered, nothing written; another refused.
    let again = player_step(
        &c.entry,
        st(Outcome::WhiteWins),
        Side::White,
        Outcome::WhiteWins,
        3,
    )
    .unwrap();
    assert_eq!(again.log, None);
    let e = player_step(
        &c.entry,
        st(Outcome::WhiteWins),
        Side::White,
        Outcome::Draw,
        3,
    )
    .unwrap_err();
    assert_eq!(e.code(), "already_final");
}

#[test]
fn the_same_side_twice_is_no_confirmation() {
    let s = player_step(&entry(), NO_RESULT, Side::White, Outcome::Draw, 1).unwrap();
    let t = player_step(&s.entry, NO_RESULT, Side::White, Outcome::Draw, 2).unwrap();
    assert_eq!(t.log, None, "the same claim again writes nothing");
    let u = player_step(&s.entry, NO_RESULT, Side::White, Outcome::BlackWins, 2).unwrap();
    assert_eq!(u.record, None);
    assert_eq!(u.log.as_ref().unwrap().0, "entered");
    assert_eq!(u.entry.white_claim.as_deref(), Some("0-1"));
}

#[test]
fn disagreeing_sides_are_a_conflict_the_arbiter_clears() {
    let s = player_step(&entry(), NO_RESULT, Side::White, Outcome::WhiteWins, 1).unwrap();
    let c = player_step(&s.entry, NO_RESULT, Side::Black, Outcome::Draw, 2).unwrap();
    assert_eq!(c.record, None);
    assert_eq!(c.log.as_ref().unwrap().0, "conflict");
    assert_eq!(state_of(&c.entry, NO_RESULT), State::Conflict);
    let a = arbiter_step(&c.entry, NO_RESULT, st(Outcome::Draw), 3);
    assert_eq!(a.record, Some(st(Outcome::Draw)));
    let (action, previous) = a.log.clone().unwrap();
    assert_eq!(action, "override", "White's claim said otherwise");
    assert_eq!(previous.as_deref(), Some("blancas 1-0, negras ½-½"));
    assert_eq!(state_of(&a.entry, st(Outcome::Draw)), State::Arbiter);
    // A board nobody entered: the arbiter's result is no override.
    let plain = arbiter_step(&entry(), NO_RESULT, st(Outcome::BlackWins), 1);
    assert_eq!(plain.log.unwrap().0, "arbiter");
    // Clearing empties the claims too.
    let cleared = arbiter_step(&a.entry, st(Outcome::Draw), NO_RESULT, 4);
    assert_eq!(cleared.record, Some(NO_RESULT));
    assert_eq!(cleared.log.unwrap().0, "cleared");
    assert_eq!(state_of(&cleared.entry, NO_RESULT), State::Missing);
}

#[test]
fn a_result_the_desk_entered_otherwise_counts_as_the_arbiters() {
    let mut e = entry();
    assert_eq!(state_of(&e, st(Outcome::Draw)), State::Arbiter);
    e.final_result = Some("1-0".into());
    e.final_by = Some("players".into());
    // The desk corrected it since: the desk's word stands.
    assert_eq!(state_of(&e, st(Outcome::Draw)), State::Arbiter);
    assert_eq!(state_of(&e, st(Outcome::WhiteWins)), State::Confirmed);
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

/// The unusual results are the arbiter's: a phone that sends one is
/// refused with the reason, in every spelling the desk reads.
#[test]
fn an_unusual_result_is_the_arbiters_not_the_players() {
    for text in ["½-0", "1/2-0", "0-½", "0 - 0.5", "0-0"] {
        let e = player_result(text).unwrap_err();
        assert_eq!(e.code(), "arbiter_only", "{text}");
        assert!(e.2.contains("árbitro") && e.3.contains("arbiter"), "{text}");
    }
    for (text, u) in [
        ("½-0", Unusual::HalfZero),
        ("0-1/2", Unusual::ZeroHalf),
        ("0-0", Unusual::ZeroZero),
    ] {
        assert_eq!(arbiter_result(text).unwrap(), Entered::Unusual(u), "{text}");
    }
    assert_eq!(arbiter_result("*").unwrap(), NO_RESULT);
    assert_eq!(arbiter_result("½-1").unwrap_err().code(), "bad_result");
}

/// A board holding ½-0 shows ½-0 (not the ½-½ it is stored with): in its
/// state, the log's "before" and a phone's refusal; ½-½ over it is an
/// override, and a phone saying ½-½ is told the board's own result.
#[test]
fn a_board_holding_an_unusual_result_shows_its_own() {
    let half_zero = Entered::Unusual(Unusual::HalfZero);
    let a = arbiter_step(&entry(), NO_RESULT, half_zero, 1);
    assert_eq!(a.record, Some(half_zero));
    assert_eq!(a.said.as_deref(), Some("½-0"));
    assert_eq!(a.entry.final_result.as_deref(), Some("½-0"));
    assert_eq!(a.log.clone().unwrap(), ("arbiter".to_string(), None));
    assert_eq!(state_of(&a.entry, half_zero), State::Arbiter);
    // The same again is no override; ½-½ over it is, saying what it held.
    let same = arbiter_step(&a.entry, half_zero, half_zero, 2);
    assert_eq!(same.log.unwrap().0, "arbiter");
    let draw = arbiter_step(&a.entry, half_zero, st(Outcome::Draw), 3);
    assert_eq!(draw.record, Some(st(Outcome::Draw)));
    assert_eq!(
        draw.log.unwrap(),
        (
            "override".to_string(),
            Some("clasificación ½-0".to_string())
        )
    );
    // A phone: ½-½ is not the board's result; the refusal names ½-0.
    let e = player_step(&a.entry, half_zero, Side::White, Outcome::Draw, 4).unwrap_err();
    assert_eq!(e.code(), "already_final");
    assert!(e.2.contains("(½-0)") && e.3.contains("(½-0)"), "{}", e.3);
    // Players who confirmed ½-½ and a desk that made it 0-½ since: the
    // arbiter's, showing 0-½.
    let mut confirmed = entry();
    confirmed.final_result = Some("½-½".into());
    confirmed.final_by = Some("players".into());
    assert_eq!(state_of(&confirmed, st(Outcome::Draw)), State::Confirmed);
    assert_eq!(
        state_of(&confirmed, Entered::Unusual(Unusual::ZeroHalf)),
        State::Arbiter
    );
    // Clearing an unusual result says what it held.
    let cleared = arbiter_step(&a.entry, half_zero, NO_RESULT, 5);
    assert_eq!(cleared.record, Some(NO_RESULT));
    assert_eq!(
        cleared.log.unwrap(),
        ("cleared".to_string(), Some("clasificación ½-0".to_string()))
    );
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
        let mut recorded = NO_RESULT;
        for (i, (white, o)) in steps.into_iter().enumerate() {
            let side = if white { Side::White } else { Side::Black };
            match player_step(&e, recorded, side, o, i as i64) {
                Ok(s) => {
                    if let Some(r) = s.record {
                        prop_assert_eq!(s.entry.white_claim.as_deref(), r.id());
                        prop_assert_eq!(s.entry.black_claim.as_deref(), r.id());
                        recorded = r;
                    }
                    e = s.entry;
                }
                Err(err) => {
                    prop_assert_eq!(err.code(), "already_final");
                    prop_assert!(recorded != NO_RESULT && recorded != st(o));
                }
            }
            let state = state_of(&e, recorded);
            prop_assert_eq!(state == State::Confirmed, recorded != NO_RESULT);
            if state == State::Conflict {
                prop_assert_eq!(recorded, NO_RESULT);
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
