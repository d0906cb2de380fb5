//! The fewest moves that collect the stars or take the pieces, when the
//! opponent does not move: a breadth-first search over the rules library's
//! legal moves (the turn handed back with a null move after each).

use std::collections::{HashSet, VecDeque};

use escaque::{Bitboard, Move, Position, Role};

/// The most moves an exercise may need (a stage file asking for more is
/// refused as unreachable).
pub const MAX_MOVES: u32 = 16;
/// The most positions one search looks at.
const MAX_NODES: usize = 200_000;

/// What is left to do in a multi-move exercise.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Left {
    /// These stars are still to collect.
    Stars(Bitboard),
    /// Every opponent piece but the king is to be taken.
    Pieces,
}

impl Left {
    /// Whether nothing is left, in `pos` (the pupil to move).
    pub fn done(self, pos: &Position) -> bool {
        match self {
            Left::Stars(s) => s.is_empty(),
            Left::Pieces => {
                let them = pos.turn().other();
                (pos.by_color(them) & !pos.pieces(them, Role::King)).is_empty()
            }
        }
    }

    /// After the pupil's move, in `after` (the pupil's pieces placed).
    pub fn after(self, after: &Position, us: escaque::Color) -> Left {
        match self {
            Left::Stars(s) => Left::Stars(s & !after.by_color(us)),
            Left::Pieces => Left::Pieces,
        }
    }
}

/// Whether `m` moves the king while the pupil has other pieces: in a stars
/// or captures exercise the king only watches too, unless it is the only
/// piece (the king's own stage), so a star is never collected by a walk of
/// the king.
pub fn king_watches(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    pos.role_at(m.from()) == Some(Role::King) && pos.by_color(us).count() > 1
}

/// Plays `m` for the pupil and hands the turn back (the opponent passes).
/// `None` when the move gives check: the opponent's king only watches, it
/// cannot pass while attacked.
pub fn step(pos: &Position, m: Move) -> Option<Position> {
    let mut next = *pos;
    next.play_unchecked(m);
    next.null_move()
}

/// The fewest pupil moves from `pos` (pupil to move) that leave nothing,
/// or `None` if it cannot be done within [`MAX_MOVES`].
pub fn fewest(pos: &Position, left: Left) -> Option<u32> {
    if left.done(pos) {
        return Some(0);
    }
    let us = pos.turn();
    let mut seen: HashSet<(u64, Left)> = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert((pos.zobrist(), left));
    queue.push_back((*pos, left, 0u32));
    while let Some((p, l, d)) = queue.pop_front() {
        if d >= MAX_MOVES || seen.len() > MAX_NODES {
            continue;
        }
        for &m in p.legal_moves().iter() {
            if king_watches(&p, m) {
                continue;
            }
            let Some(next) = step(&p, m) else { continue };
            let nl = l.after(&next, us);
            if nl.done(&next) {
                return Some(d + 1);
            }
            if seen.insert((next.zobrist(), nl)) {
                queue.push_back((next, nl, d + 1));
            }
        }
    }
    None
}
