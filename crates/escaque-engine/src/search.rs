//! The search: iterative deepening, aspiration windows, principal variation
//! search with a shared transposition table, quiescence search, and Lazy SMP
//! (several threads searching the same tree, sharing only the table).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use escaque::{Bitboard, Color, Move, MoveList, Position, Rank, Role, MAX_MOVES};

use crate::correction::Correction;
use crate::eval::{evaluate, non_pawn_material, scale_drawish};
use crate::movepick::{
    captured_index, is_noisy, piece_index, Histories, MovePicker, Played, COUNTER,
};
use crate::nnue;
use crate::see::{captured_value, see_ge};
use crate::timeman::{Progress, TimeManager};
use crate::tt::{Bound, TranspositionTable};

pub use crate::limits::{Limits, MAX_PLY};
/// Score of a checkmate at the root (mate in 0).
pub const MATE: i32 = 32000;
/// Scores at or above this are mates.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
/// Larger than any score.
pub const INF: i32 = 32500;
/// Bound on the network's static evaluation (far from mate scores).
const EVAL_LIMIT: i32 = 10_000;

/// A score as the UCI protocol shows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Info {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Line number (1 = best).
    pub multipv: u32,
    /// Internal score.
    pub score: i32,
    /// `Some(Bound::Lower)` or `Some(Bound::Upper)` when the score is only a bound.
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Table fill, per mille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// Progress reports sent while searching.
pub enum Report<'a> {
    /// A finished iteration (or an aspiration fail) for one line.
    Line(&'a Info),
    /// The root move being searched now.
    CurrMove {
        /// Depth of the iteration.
        depth: u32,
        /// The move.
        mv: Move,
        /// Its number in the root move order, from 1.
        number: u32,
    },
}

/// A root move with the score of the last search of it.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score from the latest (possibly unfinished) iteration.
    pub score: i32,
    /// Score from the last completed iteration.
    pub prev_score: i32,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
}

/// What one search thread carries from one search to the next, as the
/// transposition table does (and cleared with it): its move histories and
/// its correction history.
pub(crate) struct Memory {
    histories: Histories,
    correction: Correction,
}

impl Memory {
    pub fn new() -> Memory {
        Memory {
            histories: Histories::new(),
            correction: Correction::new(),
        }
    }
}

/// State shared by all threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub stop: &'a AtomicBool,
    pub abort: AtomicBool,
    pub nodes: Vec<AtomicU64>,
    pub time: TimeManager<'a>,
    pub node_limit: Option<u64>,
    pub multipv: usize,
    /// Evaluate with the network (else the hand-written evaluation).
    pub nnue: bool,
    /// Add the correction history to the static evaluation.
    pub correct: bool,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

#[derive(Copy, Clone, Default)]
struct Frame {
    eval: i32,
    /// The move that led to this ply and the piece (colour × 6 + role) that made it.
    prev: Option<Played>,
    null: bool,
}

/// One search thread.
pub(crate) struct Worker<'a, 'r> {
    id: usize,
    shared: &'a Shared<'a>,
    report: &'r mut dyn FnMut(Report),
    pub nodes: u64,
    seldepth: usize,
    stopped: bool,
    keys: Vec<u64>,
    stack: Vec<Frame>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    histories: Histories,
    correction: Correction,
    lmr: Box<[[u8; 64]; 64]>,
    pub root_moves: Vec<RootMove>,
    pv_idx: usize,
    pub completed_depth: u32,
    /// The network's accumulators, one per ply (`None`: the hand-written
    /// evaluation).
    nnue: Option<nnue::Stack>,
}

impl<'a, 'r> Worker<'a, 'r> {
    pub fn new(
        id: usize,
        shared: &'a Shared<'a>,
        history: &[u64],
        root_moves: &[Move],
        memory: Memory,
        report: &'r mut dyn FnMut(Report),
    ) -> Self {
        let Memory {
            mut histories,
            correction,
        } = memory;
        histories.new_search();
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 8);
        keys.extend_from_slice(history);
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        Worker {
            id,
            shared,
            report,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            keys,
            stack: vec![Frame::default(); MAX_PLY + 4],
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            histories,
            correction,
            lmr,
            root_moves: root_moves
                .iter()
                .map(|&mv| RootMove {
                    mv,
                    score: -INF,
                    prev_score: -INF,
                    pv: vec![mv],
                })
                .collect(),
            pv_idx: 0,
            completed_depth: 0,
            nnue: shared
                .nnue
                .then(|| nnue::Stack::new(nnue::Network::embedded(), MAX_PLY + 4)),
        }
    }

    /// The static evaluation of `pos`, the position at `ply`, from the side
    /// to move's point of view.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        match &mut self.nnue {
            Some(stack) => {
                let net = stack.evaluate(pos, ply);
                if stack.residual() {
                    // The hand-written evaluation (already scaled) and the
                    // network's correction of it.
                    (evaluate(pos) + net).clamp(-EVAL_LIMIT, EVAL_LIMIT)
                } else {
                    scale_drawish(pos, net.clamp(-EVAL_LIMIT, EVAL_LIMIT))
                }
            }
            None => evaluate(pos),
        }
    }

    /// What this thread learnt, to be lent to the next search.
    pub fn into_memory(self) -> Memory {
        Memory {
            histories: self.histories,
            correction: self.correction,
        }
    }

    /// `raw`, the static evaluation of `pos`, with the correction history's
    /// term added (kept clear of mate scores).
    #[inline]
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        if !self.shared.correct {
            return raw;
        }
        (raw + self.correction.get(pos)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    #[inline]
    fn poll(&mut self) {
        if self.nodes & 1023 != 0 {
            return;
        }
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if self.shared.stop.load(Ordering::Relaxed) || self.shared.abort.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id == 0 {
            if let Some(limit) = self.shared.node_limit {
                if self.shared.total_nodes() >= limit {
                    self.stopped = true;
                }
            }
            if self.shared.time.past_hard_limit() {
                self.stopped = true;
            }
        }
    }

    /// Iterative deepening. Returns when the limits are reached or on stop.
    pub fn iterate(&mut self, root: &Position, max_depth: u32, mate: Option<u32>) {
        let multipv = self.shared.multipv.min(self.root_moves.len()).max(1);
        let mut progress = Progress::default();
        let start_depth = 1 + (self.id % 2) as u32;
        for depth in start_depth..=max_depth.min(MAX_PLY as u32 - 1) {
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = 18;
                let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
                    ((prev - delta).max(-INF), (prev + delta).min(INF))
                } else {
                    (-INF, INF)
                };
                loop {
                    let score = self.negamax(root, alpha, beta, depth as i32, 0, false);
                    self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if self.stopped {
                        break;
                    }
                    let bound = if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                        Some(Bound::Upper)
                    } else if score >= beta {
                        beta = (score + delta).min(INF);
                        Some(Bound::Lower)
                    } else {
                        None
                    };
                    if self.id == 0 && (bound.is_none() || self.shared.time.elapsed_ms() > 2000) {
                        let info = self.info(depth, pv_idx, bound);
                        (self.report)(Report::Line(&info));
                    }
                    if bound.is_none() {
                        break;
                    }
                    delta += delta / 2 + 5;
                }
                if self.stopped {
                    break;
                }
                // Keep the finished lines in order ahead of the next one.
                self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if self.id != 0 {
                continue;
            }
            let best = self.root_moves[0].mv;
            let score = self.root_moves[0].score;
            progress.record(best, score);
            if let Some(n) = mate {
                if score >= MATE - 2 * n as i32 {
                    break;
                }
            }
            let only_move = self.root_moves.len() == 1;
            if self.shared.time.stop_after_iteration(&progress, only_move) {
                break;
            }
        }
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    fn info(&self, depth: u32, pv_idx: usize, bound: Option<Bound>) -> Info {
        let rm = &self.root_moves[pv_idx];
        Info {
            depth,
            seldepth: self.seldepth.max(depth as usize) as u32,
            multipv: pv_idx as u32 + 1,
            score: rm.score,
            bound,
            nodes: self.shared.total_nodes().max(self.nodes),
            time_ms: self.shared.time.elapsed_ms(),
            hashfull: self.shared.tt.hashfull(),
            pv: rm.pv.clone(),
        }
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        let key = pos.zobrist();
        let n = self.keys.len();
        let limit = (pos.halfmove_clock() as usize).min(n);
        let mut i = 2;
        while i <= limit {
            if self.keys[n - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][0] = Some(m);
        let child_len = self.pv_len[ply + 1];
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        if let Some(stack) = &mut self.nnue {
            stack.enter(ply);
        }
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let in_check = pos.is_check();
        if !root {
            if pos.halfmove_clock() >= 100 && (!in_check || pos.has_legal_moves()) {
                return 0;
            }
            if self.is_repetition(pos) || pos.is_insufficient_material() {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate(pos, ply) };
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let key = pos.zobrist();
        let tte = self.shared.tt.probe(key);
        let tt_move = tte.and_then(|e| e.mv);
        if let Some(e) = tte {
            if !pv_node && e.depth >= depth {
                let s = score_from_tt(e.score, ply);
                if e.bound.cuts(s, alpha, beta) {
                    return s;
                }
            }
        }

        // The evaluation as computed (what the table keeps) and as corrected
        // by what the search lately found in positions like this one.
        let raw_eval = if in_check {
            -INF
        } else if let Some(e) = tte {
            e.eval
        } else {
            self.evaluate(pos, ply)
        };
        let static_eval = if in_check {
            -INF
        } else {
            self.corrected(pos, raw_eval)
        };
        self.stack[ply].eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].eval;
        let us = pos.turn();
        // The evaluation the pruning reads: the table's score where its bound
        // says it is nearer the truth than the static evaluation (a lower
        // bound above it, an upper bound below it, an exact score).
        let eval = match tte {
            Some(e) if !in_check => {
                let s = score_from_tt(e.score, ply);
                let nearer = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > static_eval,
                    Bound::Upper => s < static_eval,
                };
                if nearer && s.abs() < MATE_BOUND {
                    s
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };

        if !pv_node && !in_check {
            // Reverse futility pruning; never against a mate bound, where "the
            // static evaluation beats beta" proves nothing about the mate.
            if depth <= 7
                && eval - (75 * depth - if improving { 50 } else { 0 }) >= beta
                && eval.abs() < MATE_BOUND
                && beta.abs() < MATE_BOUND
            {
                return eval;
            }
            // Null move pruning.
            if depth >= 3
                && eval >= beta
                && !self.stack[ply].null
                && non_pawn_material(pos, us) > 0
                && beta.abs() < MATE_BOUND
            {
                if let Some(child) = pos.null_move() {
                    let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                    self.stack[ply + 1].null = true;
                    self.stack[ply + 1].prev = None;
                    self.keys.push(key);
                    let s = -self.negamax(&child, -beta, -beta + 1, depth - 1 - r, ply + 1, !cut);
                    self.keys.pop();
                    self.stack[ply + 1].null = false;
                    if self.stopped {
                        return 0;
                    }
                    if s >= beta {
                        return if s >= MATE_BOUND { beta } else { s };
                    }
                }
            }
            // ProbCut: a capture that, searched shallower, beats beta by a
            // margin would almost surely beat beta at full depth.
            let pc_beta = beta + 200 - if improving { 50 } else { 0 };
            if depth >= 5
                && beta.abs() < MATE_BOUND
                && !tte
                    .is_some_and(|e| e.depth >= depth - 3 && score_from_tt(e.score, ply) < pc_beta)
            {
                let them = us.other();
                let mut captures = pos.legal_moves_to(pos.by_color(them));
                let mut scores = [0i32; MAX_MOVES];
                let mut picker = MovePicker::quiescence(pos, &mut captures, &mut scores);
                while let Some((m, _)) = picker.next() {
                    if !see_ge(pos, m, pc_beta - static_eval) {
                        continue;
                    }
                    let mut child = *pos;
                    child.play_unchecked(m);
                    self.stack[ply + 1].prev = Some((m, piece_index(pos, m)));
                    self.keys.push(key);
                    let mut s = -self.qsearch(&child, -pc_beta, -pc_beta + 1, ply + 1);
                    if s >= pc_beta {
                        s = -self.negamax(&child, -pc_beta, -pc_beta + 1, depth - 4, ply + 1, !cut);
                    }
                    self.keys.pop();
                    if self.stopped {
                        return 0;
                    }
                    if s >= pc_beta {
                        self.shared.tt.store(
                            key,
                            Some(m),
                            score_to_tt(s, ply),
                            raw_eval,
                            depth - 3,
                            Bound::Lower,
                        );
                        return s;
                    }
                }
            }
        }
        self.stack[ply + 1].null = false;

        // Internal iterative reduction: without a hash move, search less.
        if tt_move.is_none() && depth >= 4 && !root {
            depth -= 1;
        }

        let mut moves: MoveList = if root {
            self.root_moves[self.pv_idx..]
                .iter()
                .map(|r| r.mv)
                .collect()
        } else {
            pos.legal_moves()
        };
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let prev = self.stack[ply].prev;
        let prev2 = if ply >= 1 {
            self.stack[ply - 1].prev
        } else {
            None
        };
        let mut scores = [0i32; MAX_MOVES];
        let mut picker = if root {
            MovePicker::root(&mut moves, &mut scores)
        } else {
            MovePicker::main(
                pos,
                &mut moves,
                &mut scores,
                tt_move,
                &self.histories,
                ply,
                prev,
                prev2,
            )
        };
        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        let mut searched = 0usize;
        let mut quiets_tried: [Played; 64] = [(Move::NULL, 0); 64];
        let mut n_quiets = 0usize;
        let mut noisies_tried: [(Move, usize, usize); 32] = [(Move::NULL, 0, 0); 32];
        let mut n_noisies = 0usize;
        let orig_alpha = alpha;
        while let Some((m, order)) = picker.next() {
            let noisy = is_noisy(pos, m);

            let piece = piece_index(pos, m);
            let mut child = *pos;
            child.play_unchecked(m);
            let gives_check = child.is_check();

            if !root && best > -MATE_BOUND && non_pawn_material(pos, us) > 0 {
                if !noisy && !gives_check {
                    // Late move pruning and futility pruning of quiet moves.
                    if !pv_node
                        && !in_check
                        && depth <= 7
                        && n_quiets >= (3 + depth * depth) as usize / if improving { 1 } else { 2 }
                    {
                        continue;
                    }
                    if !in_check && depth <= 6 && eval + 90 + 90 * depth <= alpha {
                        continue;
                    }
                    if depth <= 6 && !see_ge(pos, m, -25 * depth * depth) {
                        continue;
                    }
                } else if noisy && depth <= 6 && order < 0 && !see_ge(pos, m, -90 * depth) {
                    continue;
                }
            }

            searched += 1;
            if root && self.id == 0 && self.pv_idx == 0 && self.shared.time.elapsed_ms() > 3000 {
                (self.report)(Report::CurrMove {
                    depth: depth as u32,
                    mv: m,
                    number: searched as u32,
                });
            }
            if !noisy && n_quiets < 64 {
                quiets_tried[n_quiets] = (m, piece);
                n_quiets += 1;
            } else if noisy && n_noisies < 32 {
                noisies_tried[n_noisies] = (m, piece, captured_index(pos, m));
                n_noisies += 1;
            }
            let ext = if gives_check && (depth <= 8 || see_ge(pos, m, 0)) {
                1
            } else {
                0
            };
            let new_depth = depth - 1 + ext;
            self.stack[ply + 1].prev = Some((m, piece));
            self.keys.push(key);
            let mut score;
            if searched == 1 {
                score = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, false);
            } else {
                let mut r = 0;
                if depth >= 3 && searched > 1 + usize::from(pv_node) && !noisy {
                    r = self.lmr[depth.min(63) as usize][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if cut {
                        r += 1;
                    }
                    if gives_check || in_check {
                        r -= 1;
                    }
                    if order >= COUNTER {
                        r -= 1;
                    }
                    r -= self.histories.quiet_score(us, m, piece, prev, prev2) / 10000;
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.negamax(&child, -alpha - 1, -alpha, new_depth, ply + 1, !cut);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if root {
                let rm_i = self.root_moves.iter().position(|r| r.mv == m).unwrap_or(0);
                if searched == 1 || score > alpha {
                    self.root_moves[rm_i].score = score;
                    let mut pv = Vec::with_capacity(self.pv_len[1] + 1);
                    pv.push(m);
                    pv.extend(self.pv[1][..self.pv_len[1]].iter().flatten());
                    self.root_moves[rm_i].pv = pv;
                } else {
                    self.root_moves[rm_i].score = -INF;
                }
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if score >= beta {
                        if !noisy {
                            self.histories.reward_quiet(
                                us,
                                ply,
                                m,
                                piece,
                                depth,
                                &quiets_tried[..n_quiets],
                                prev,
                                prev2,
                            );
                            self.histories
                                .punish_captures(depth, &noisies_tried[..n_noisies]);
                        } else {
                            self.histories.reward_capture(
                                m,
                                piece,
                                captured_index(pos, m),
                                depth,
                                &noisies_tried[..n_noisies],
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if searched == 0 {
            // Everything was pruned: fall back on the static evaluation.
            return alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !(root && self.pv_idx > 0) {
            self.shared.tt.store(
                key,
                best_move,
                score_to_tt(best, ply),
                raw_eval,
                depth,
                bound,
            );
        }
        // What the search found beyond the evaluation, where the bound says
        // it (a lower bound above the evaluation, an upper one below it).
        if !in_check
            && best_move.is_none_or(|m| !is_noisy(pos, m))
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
            && self.shared.correct
            && !self.stopped
        {
            self.correction.update(pos, depth, best - static_eval);
        }
        best
    }

    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(stack) = &mut self.nnue {
            stack.enter(ply);
        }
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        let key = pos.zobrist();
        let tte = self.shared.tt.probe(key);
        if let Some(e) = tte {
            let s = score_from_tt(e.score, ply);
            if e.bound.cuts(s, alpha, beta) {
                return s;
            }
        }
        let us = pos.turn();
        let them = us.other();
        let stand_pat;
        let mut raw_eval = -INF;
        let mut moves: MoveList;
        if in_check {
            stand_pat = -INF;
            moves = pos.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
        } else {
            raw_eval = match tte {
                Some(e) => e.eval,
                None => self.evaluate(pos, ply),
            };
            stand_pat = self.corrected(pos, raw_eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            moves = pos.legal_moves_to(pos.by_color(them));
            let last = Bitboard::rank(if us == Color::White {
                Rank::EIGHTH
            } else {
                Rank::FIRST
            });
            let pawns = pos.pieces(us, Role::Pawn);
            let pushers = if us == Color::White {
                pawns.north()
            } else {
                pawns.south()
            };
            let targets = pushers & last & !pos.occupied();
            if targets.any() {
                for m in pos.legal_moves_to(targets) {
                    if m.promotion_role() == Some(Role::Queen) {
                        moves.push(m);
                    }
                }
            }
            if let Some(ep) = pos.legal_ep_square() {
                for m in pos.legal_moves_to(Bitboard::from_square(ep)) {
                    if m.is_en_passant() {
                        moves.push(m);
                    }
                }
            }
        }
        let mut scores = [0i32; MAX_MOVES];
        let mut picker = MovePicker::quiescence(pos, &mut moves, &mut scores);
        let mut best = stand_pat;
        let mut best_move = None;
        while let Some((m, _)) = picker.next() {
            if !in_check {
                if stand_pat + captured_value(pos, m) + 200 <= alpha && m.promotion_role().is_none()
                {
                    continue;
                }
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(m);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, score_to_tt(best, ply), raw_eval, 0, bound);
        best
    }
}

#[inline]
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}
