//! Move ordering: the order in which the search tries moves, and the
//! statistics it learns that order from.
//!
//! In the main search: the hash move, good captures and queen promotions
//! (SEE ≥ 0, then MVV-LVA), the two killers of the ply, the countermove of the
//! previous move, quiet moves by history (with gravity), and losing captures
//! and under-promotions last. In the quiescence search: captures by the same
//! score. At the root: the order the root moves were left in by the previous
//! iteration.

use escaque::{Color, Move, MoveList, Position, Role, MAX_MOVES};

use crate::search::MAX_PLY;
use crate::see::{see_ge, SEE_VALUE};

/// Ordering value of a captured piece, by role index (pawn … king).
const VICTIM: [i32; 6] = [1, 3, 3, 5, 9, 0];

/// Score of the hash move.
const HASH_MOVE: i32 = 1 << 28;
/// Base score of a winning or equal capture, and of a queen promotion.
const GOOD_NOISY: i32 = 1 << 24;
/// Base score of a losing capture (below every quiet move's history).
const BAD_CAPTURE: i32 = -(1 << 22);
/// Score of the first killer (the second gets one less).
const KILLER: i32 = 1 << 21;
/// Score of the countermove; quiet moves scored at least this are the
/// "special" quiets the search reduces less.
pub(crate) const COUNTER: i32 = 1 << 20;

/// Whether `m` is a capture (en passant included) or a promotion.
#[inline]
pub(crate) fn is_noisy(pos: &Position, m: Move) -> bool {
    m.is_en_passant()
        || m.promotion_role().is_some()
        || (!m.is_castle() && pos.role_at(m.to()).is_some())
}

/// Ordering score of a capture or promotion: good ones above killers, losing
/// captures below the quiet moves.
#[inline]
fn noisy_score(pos: &Position, m: Move) -> i32 {
    if let Some(p) = m.promotion_role() {
        return if p == Role::Queen {
            GOOD_NOISY + 900
        } else {
            -GOOD_NOISY
        };
    }
    let victim = if m.is_en_passant() {
        0
    } else {
        pos.role_at(m.to()).map_or(0, |r| r.index())
    };
    let attacker = pos.role_at(m.from()).map_or(0, |r| r.index());
    let mvv = VICTIM[victim] * 64 - SEE_VALUE[attacker] / 100;
    if see_ge(pos, m, 0) {
        GOOD_NOISY + mvv
    } else {
        BAD_CAPTURE + mvv
    }
}

/// What one search thread learns about quiet moves: killers per ply,
/// butterfly history per side (from, to), and countermoves per previous
/// piece and destination.
pub(crate) struct Histories {
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    history: Box<[[[i32; 64]; 64]; 2]>,
    counters: Box<[[Option<Move>; 64]; 12]>,
}

impl Histories {
    /// Empty tables.
    pub fn new() -> Histories {
        Histories {
            killers: [[None; 2]; MAX_PLY + 2],
            history: Box::new([[[0; 64]; 64]; 2]),
            counters: Box::new([[None; 64]; 12]),
        }
    }

    /// The history score of quiet move `m` for side `us`.
    #[inline]
    pub fn quiet(&self, us: Color, m: Move) -> i32 {
        self.history[us.index()][m.from().index()][m.to().index()]
    }

    /// Rewards the quiet move `m` that caused a beta cut-off at `ply` (and
    /// penalises the quiet moves `tried` before it): history with gravity,
    /// killers and the countermove of `prev`, the previous move and the piece
    /// (colour × 6 + role) that made it.
    pub fn reward_quiet(
        &mut self,
        us: Color,
        ply: usize,
        m: Move,
        depth: i32,
        tried: &[Option<Move>],
        prev: Option<(Move, usize)>,
    ) {
        let us = us.index();
        let bonus = (depth * depth * 16).min(1600);
        let update = |h: &mut i32, b: i32| {
            *h += b - *h * b.abs() / 16384;
        };
        update(
            &mut self.history[us][m.from().index()][m.to().index()],
            bonus,
        );
        for q in tried.iter().flatten() {
            if *q != m {
                update(
                    &mut self.history[us][q.from().index()][q.to().index()],
                    -bonus,
                );
            }
        }
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        if let Some((pm, p)) = prev {
            self.counters[p][pm.to().index()] = Some(m);
        }
    }
}

/// Hands out a node's moves best first: every move is scored once, then each
/// call to [`MovePicker::next`] does one step of a selection sort (cheaper
/// than a full sort, since cut-offs come early). The moves and their scores
/// live in the caller's stack frame (no copy of the move list per node).
pub(crate) struct MovePicker<'a> {
    moves: &'a mut MoveList,
    scores: &'a mut [i32; MAX_MOVES],
    next: usize,
}

impl<'a> MovePicker<'a> {
    /// Root moves in the order given (the previous iteration's order).
    #[inline]
    pub fn root(moves: &'a mut MoveList, scores: &'a mut [i32; MAX_MOVES]) -> MovePicker<'a> {
        for (i, s) in scores[..moves.len()].iter_mut().enumerate() {
            *s = 1_000_000 - i as i32;
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The moves of an inner node of the main search, ordered by the hash
    /// move, captures, killers, countermove and history.
    #[inline]
    pub fn main(
        pos: &Position,
        moves: &'a mut MoveList,
        scores: &'a mut [i32; MAX_MOVES],
        tt_move: Option<Move>,
        histories: &Histories,
        ply: usize,
        prev: Option<(Move, usize)>,
    ) -> MovePicker<'a> {
        let us = pos.turn();
        let counter = prev.and_then(|(m, p)| histories.counters[p][m.to().index()]);
        let killers = histories.killers[ply];
        for (&m, s) in moves.iter().zip(scores.iter_mut()) {
            *s = if Some(m) == tt_move {
                HASH_MOVE
            } else if is_noisy(pos, m) {
                noisy_score(pos, m)
            } else if Some(m) == killers[0] {
                KILLER
            } else if Some(m) == killers[1] {
                KILLER - 1
            } else if Some(m) == counter {
                COUNTER
            } else {
                histories.quiet(us, m)
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The moves of a quiescence node: captures and promotions by their
    /// score, anything else (evasions) after them.
    #[inline]
    pub fn quiescence(
        pos: &Position,
        moves: &'a mut MoveList,
        scores: &'a mut [i32; MAX_MOVES],
    ) -> MovePicker<'a> {
        for (&m, s) in moves.iter().zip(scores.iter_mut()) {
            *s = if is_noisy(pos, m) {
                noisy_score(pos, m)
            } else {
                0
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The best-scored move not handed out yet (the first of equals), with
    /// its ordering score.
    #[inline]
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let i = self.next;
        let n = self.moves.len();
        if i >= n {
            return None;
        }
        let scores = &mut self.scores[..n];
        let mut best = i;
        let mut best_score = scores[i];
        for (j, &s) in scores.iter().enumerate().skip(i + 1) {
            if s > best_score {
                best = j;
                best_score = s;
            }
        }
        scores.swap(i, best);
        self.moves.swap(i, best);
        self.next = i + 1;
        Some((self.moves[i], best_score))
    }
}
