//! What the tests' players against the engine check before each move,
//! shared by the packages whose tests play it (`#[path]` from their
//! `tests/main.rs`): whether a move lets the opponent mate at once. The
//! level-1 engine, choosing at random among weak moves, took such a chance
//! on a CI run (6.Cd2?? Dxg2#) and ended a game the test expected to go on.

use escaque::{read_move, Notation, Position};

/// Whether, after `mv` (UCI, legal in `pos`), the side then to move has a
/// mate in one.
pub fn lets_mate_in_one(pos: &Position, mv: &str) -> bool {
    let mut after = *pos;
    after.play_unchecked(read_move(pos, mv, Notation::Uci).expect("a legal move"));
    after.legal_moves().iter().any(|&reply| {
        let mut p = after;
        p.play_unchecked(reply);
        p.is_checkmate()
    })
}

/// The CI game that ended 6.Cd2?? Dxg2#: the check sees it.
#[test]
fn the_ci_game_lost_by_6_nd2_is_seen() {
    let pos = Position::from_fen("r1b1kbnr/pppp1ppp/2n5/6q1/3P4/4Pp2/PPP1BPPP/RNBQ1RK1 w kq - 2 6")
        .unwrap();
    assert!(lets_mate_in_one(&pos, "b1d2"));
    assert!(lets_mate_in_one(&pos, "c2c3"));
    assert!(!lets_mate_in_one(&pos, "e2f3"));
    assert!(!lets_mate_in_one(&pos, "g2g3"));
}
