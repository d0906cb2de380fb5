//! Move ordering: the order in which the search tries moves, and the
//! statistics it learns that order from.
//!
//! In the main search: the hash move, good captures and queen promotions
//! (SEE ≥ 0, then MVV-LVA, then capture history), the two killers of the ply, the countermove of
//! the previous move, quiet moves by history (with gravity: the butterfly
//! table and continuation history one and two plies back), and losing
//! captures and under-promotions last. In the quiescence search: captures by the same
//! score. At the root: the order the root moves were left in by the previous
//! iteration.

use escaque::{Color, Move, MoveList, Position, Role, MAX_MOVES};

use crate::limits::MAX_PLY;
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
/// captures below the quiet moves; `history` (the capture history of the
/// move) orders captures of the same victim.
#[inline]
fn noisy_score(pos: &Position, m: Move, history: i32) -> i32 {
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
    let mvv = VICTIM[victim] * 64 - SEE_VALUE[attacker] / 100 + history / 512;
    if see_ge(pos, m, 0) {
        GOOD_NOISY + mvv
    } else {
        BAD_CAPTURE + mvv
    }
}

/// The piece (colour × 6 + role) and destination of a move already played:
/// the context continuation history is indexed by.
pub(crate) type Played = (Move, usize);

/// Continuation history: for a move already played (its piece and
/// destination), how good each quiet move (piece and destination) has been
/// as an answer.
type ContinuationTable = [[[[i32; 64]; 12]; 64]; 12];

/// What one search thread learns about its moves: killers per ply,
/// butterfly history per side (from, to), countermoves per previous piece
/// and destination, continuation history one and two plies back (the
/// opponent's last move and our own before it, one table for both), and
/// capture history.
pub(crate) struct Histories {
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    history: Box<[[[i32; 64]; 64]; 2]>,
    counters: Box<[[Option<Move>; 64]; 12]>,
    continuation: Box<ContinuationTable>,
    /// Capture history: per moving piece, destination and captured role
    /// (a promotion without capture as a seventh).
    capture: Box<[[[i32; 7]; 64]; 12]>,
}

/// The index of what `m` captures, for capture history (6: nothing, a
/// promotion).
#[inline]
pub(crate) fn captured_index(pos: &Position, m: Move) -> usize {
    if m.is_en_passant() {
        0
    } else if m.is_castle() {
        6
    } else {
        pos.role_at(m.to()).map_or(6, |r| r.index())
    }
}

/// The piece (colour × 6 + role) that makes move `m` in `pos`: what the
/// history tables are indexed by.
#[inline]
pub(crate) fn piece_index(pos: &Position, m: Move) -> usize {
    pos.turn().index() * 6 + pos.role_at(m.from()).map_or(0, |r| r.index())
}

/// What a cut-off at `depth` adds to (or takes from) a history entry.
#[inline]
fn history_bonus(depth: i32) -> i32 {
    (depth * depth * 16).min(1600)
}

/// History with gravity: the entry moves towards ±16384 by `bonus`, slower
/// the nearer it is.
#[inline]
fn gravity(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / 16384;
}

impl Histories {
    /// Forgets the killers (they belong to the plies of one search) and
    /// keeps the tables.
    pub fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
    }

    /// Empty tables.
    pub fn new() -> Histories {
        let continuation: Box<ContinuationTable> = vec![[[[0i32; 64]; 12]; 64]; 12]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("twelve rows"));
        Histories {
            killers: [[None; 2]; MAX_PLY + 2],
            history: Box::new([[[0; 64]; 64]; 2]),
            counters: Box::new([[None; 64]; 12]),
            continuation,
            capture: Box::new([[[0; 7]; 64]; 12]),
        }
    }

    /// The butterfly history score of quiet move `m` for side `us`.
    #[inline]
    pub fn quiet(&self, us: Color, m: Move) -> i32 {
        self.history[us.index()][m.from().index()][m.to().index()]
    }

    /// The capture history of noisy move `m` made by `piece`.
    #[inline]
    pub fn capture(&self, pos: &Position, m: Move, piece: usize) -> i32 {
        self.capture[piece][m.to().index()][captured_index(pos, m)]
    }

    /// Rewards the noisy move `m` (by `piece`, capturing `captured`) that
    /// caused a cut-off, penalises the noisy moves `tried` before it.
    pub fn reward_capture(
        &mut self,
        m: Move,
        piece: usize,
        captured: usize,
        depth: i32,
        tried: &[(Move, usize, usize)],
    ) {
        let bonus = history_bonus(depth);
        gravity(&mut self.capture[piece][m.to().index()][captured], bonus);
        for &(q, qp, qc) in tried {
            if q != m {
                gravity(&mut self.capture[qp][q.to().index()][qc], -bonus);
            }
        }
    }

    /// Penalises the noisy moves `tried` at a node a quiet move cut.
    pub fn punish_captures(&mut self, depth: i32, tried: &[(Move, usize, usize)]) {
        let bonus = history_bonus(depth);
        for &(q, qp, qc) in tried {
            gravity(&mut self.capture[qp][q.to().index()][qc], -bonus);
        }
    }

    /// The continuation score of quiet move `m` made by `piece` after the
    /// played move `prev`.
    #[inline]
    fn cont(&self, prev: Option<Played>, m: Move, piece: usize) -> i32 {
        prev.map_or(0, |(pm, pp)| {
            self.continuation[pp][pm.to().index()][piece][m.to().index()]
        })
    }

    /// Everything history knows about quiet move `m` (made by `piece`) for
    /// side `us`, after the moves one and two plies back: the ordering
    /// score of a quiet move, and what the reductions read.
    #[inline]
    pub fn quiet_score(
        &self,
        us: Color,
        m: Move,
        piece: usize,
        prev1: Option<Played>,
        prev2: Option<Played>,
    ) -> i32 {
        self.quiet(us, m) + self.cont(prev1, m, piece) + self.cont(prev2, m, piece)
    }

    fn update_quiet(
        &mut self,
        us: usize,
        m: Move,
        piece: usize,
        prev1: Option<Played>,
        prev2: Option<Played>,
        bonus: i32,
    ) {
        gravity(
            &mut self.history[us][m.from().index()][m.to().index()],
            bonus,
        );
        for (pm, pp) in [prev1, prev2].into_iter().flatten() {
            gravity(
                &mut self.continuation[pp][pm.to().index()][piece][m.to().index()],
                bonus,
            );
        }
    }

    /// Rewards the quiet move `m` (made by `piece`) that caused a beta
    /// cut-off at `ply`, and penalises the quiet moves `tried` before it
    /// (each with its piece): butterfly and continuation history with
    /// gravity, killers, and the countermove of `prev1`, the previous move
    /// (`prev2`: the one before it).
    #[allow(clippy::too_many_arguments)]
    pub fn reward_quiet(
        &mut self,
        us: Color,
        ply: usize,
        m: Move,
        piece: usize,
        depth: i32,
        tried: &[Played],
        prev1: Option<Played>,
        prev2: Option<Played>,
    ) {
        let us = us.index();
        let bonus = history_bonus(depth);
        self.update_quiet(us, m, piece, prev1, prev2, bonus);
        for &(q, qp) in tried {
            if q != m {
                self.update_quiet(us, q, qp, prev1, prev2, -bonus);
            }
        }
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        if let Some((pm, p)) = prev1 {
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
    #[allow(clippy::too_many_arguments)]
    pub fn main(
        pos: &Position,
        moves: &'a mut MoveList,
        scores: &'a mut [i32; MAX_MOVES],
        tt_move: Option<Move>,
        histories: &Histories,
        ply: usize,
        prev: Option<Played>,
        prev2: Option<Played>,
    ) -> MovePicker<'a> {
        let us = pos.turn();
        let counter = prev.and_then(|(m, p)| histories.counters[p][m.to().index()]);
        let killers = histories.killers[ply];
        for (&m, s) in moves.iter().zip(scores.iter_mut()) {
            *s = if Some(m) == tt_move {
                HASH_MOVE
            } else if is_noisy(pos, m) {
                noisy_score(pos, m, histories.capture(pos, m, piece_index(pos, m)))
            } else if Some(m) == killers[0] {
                KILLER
            } else if Some(m) == killers[1] {
                KILLER - 1
            } else if Some(m) == counter {
                COUNTER
            } else {
                histories.quiet_score(us, m, piece_index(pos, m), prev, prev2)
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
                noisy_score(pos, m, 0)
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
