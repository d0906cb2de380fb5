//! Mates in one and two proved by the rules library alone: no engine, every
//! move generated and every defence refuted. The children's sets are made
//! and checked with it.

use escaque::{Move, Position};

use super::Puzzle;

/// The moves of the side to move that checkmate at once.
pub fn mates_in_one(pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    for &m in pos.legal_moves().iter() {
        let mut p = *pos;
        p.play_unchecked(m);
        if p.is_checkmate() {
            out.push(m);
        }
    }
    out
}

/// Whether `pos` (side to move has just been given the move after `key`)
/// is lost by force in one: every legal reply has a mate in one after it,
/// and there is at least one reply (a stalemate is no mate).
fn every_defence_mated(pos: &Position) -> bool {
    let defences = pos.legal_moves();
    if defences.is_empty() {
        return false;
    }
    defences.iter().all(|&d| {
        let mut p = *pos;
        p.play_unchecked(d);
        !mates_in_one(&p).is_empty()
    })
}

/// The first moves that force mate in exactly two (not one) from `pos`:
/// after each, every defence is answered by a mate.
pub fn keys_of_mate_in_two(pos: &Position) -> Vec<Move> {
    let mut out = Vec::new();
    for &m in pos.legal_moves().iter() {
        let mut p = *pos;
        p.play_unchecked(m);
        if p.is_checkmate() {
            continue;
        }
        if every_defence_mated(&p) {
            out.push(m);
        }
    }
    out
}

/// A proof that a puzzle is a mate in one or two with a unique answer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The solver's only move mates.
    MateInOne,
    /// No mate in one; the solver's first move is the only one that forces
    /// mate in two, every defence is refuted, and the line's last move mates.
    MateInTwo {
        /// How many defences were refuted.
        defences: usize,
    },
}

/// Proves `p` a mate in one (two moves in the CSV) or in two (four),
/// with a unique first solver move; `None` when it is not.
pub fn prove(p: &Puzzle) -> Option<Proof> {
    let shown = p.shown_position();
    match p.moves.len() {
        2 => {
            let mates = mates_in_one(&shown);
            (mates == [p.moves[1]]).then_some(Proof::MateInOne)
        }
        4 => {
            if !mates_in_one(&shown).is_empty() {
                return None;
            }
            let keys = keys_of_mate_in_two(&shown);
            if keys != [p.moves[1]] {
                return None;
            }
            let mut after_key = shown;
            after_key.play_unchecked(p.moves[1]);
            let defences = after_key.legal_moves().len();
            let mut end = after_key;
            end.play_unchecked(p.moves[2]);
            end.play_unchecked(p.moves[3]);
            end.is_checkmate().then_some(Proof::MateInTwo { defences })
        }
        _ => None,
    }
}

/// A children's puzzle from the position `before` a move `last` of a game:
/// when the side that answers has a unique mate in one, or (with no mate in
/// one) a unique first move forcing mate in two, the puzzle, with the
/// defence that leaves the fewest mates (the hardest to find) and a mate
/// after it.
pub fn children_puzzle(before: &Position, last: Move) -> Option<(Puzzle, Proof)> {
    if !before.is_legal(last) {
        return None;
    }
    let mut shown = *before;
    shown.play_unchecked(last);
    let mates = mates_in_one(&shown);
    let moves = if mates.len() == 1 {
        vec![last, mates[0]]
    } else if mates.is_empty() {
        let keys = keys_of_mate_in_two(&shown);
        if keys.len() != 1 {
            return None;
        }
        let mut after_key = shown;
        after_key.play_unchecked(keys[0]);
        let mut best: Option<(usize, Move, Move)> = None;
        for &d in after_key.legal_moves().iter() {
            let mut p = after_key;
            p.play_unchecked(d);
            let replies = mates_in_one(&p);
            let n = replies.len();
            if n == 0 {
                return None;
            }
            if best.is_none_or(|(bn, _, _)| n < bn) {
                best = Some((n, d, replies[0]));
            }
        }
        let (_, d, mate) = best?;
        vec![last, keys[0], d, mate]
    } else {
        return None;
    };
    let id = Puzzle::id_for(before, &moves);
    let puzzle = Puzzle::new(id, *before, moves, 1000).ok()?;
    let proof = prove(&puzzle)?;
    Some((puzzle, proof))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problemas::read_line;

    #[test]
    fn a_back_rank_mate_in_one_is_proved_and_a_second_mate_breaks_uniqueness() {
        let start = Position::from_fen("6k1/5ppp/8/8/8/8/r7/1R4K1 b - - 0 1").unwrap();
        let moves = read_line(&start, &["a2a3", "b1b8"]).unwrap();
        let p = Puzzle::new("a".into(), start, moves, 800).unwrap();
        assert_eq!(prove(&p), Some(Proof::MateInOne));
        let start = Position::from_fen("6k1/5ppp/8/8/8/8/r7/1RR3K1 b - - 0 1").unwrap();
        let moves = read_line(&start, &["a2a3", "b1b8"]).unwrap();
        let p = Puzzle::new("b".into(), start, moves, 800).unwrap();
        assert_eq!(prove(&p), None);
    }

    #[test]
    fn a_mate_in_two_is_proved_with_every_defence() {
        // Doubled rooks against a back rank: after ...Rc8, 1. Re8+ Rxe8
        // 2. Rxe8#, and no other first move forces mate in two.
        let before = Position::from_fen("5rk1/5ppp/8/8/8/8/4RPPP/4R1K1 b - - 0 1").unwrap();
        let last = escaque::read_move(&before, "f8c8", escaque::Notation::Uci).unwrap();
        let found = children_puzzle(&before, last);
        let (p, proof) = found.expect("a mate in two");
        assert!(matches!(proof, Proof::MateInTwo { .. }));
        assert_eq!(p.moves.len(), 4);
        assert_eq!(p.moves[1].to_string(), "e2e8");
        assert_eq!(p.moves[3].to_string(), "e1e8");
    }
}
