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
use crate::tt::{Bound, Entry, TranspositionTable};

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

    /// The main search of one node. Its phases, in order, are functions of
    /// their own: the node's early ends ([`Self::node_ends`]), the table's
    /// cut ([`table_cut`]), the evaluations ([`Self::evaluations`]),
    /// pruning before any move ([`Self::prune_node`], [`Self::probcut`]),
    /// then the moves ([`Self::search_moves`]: each one's pruning
    /// [`skip_move`], reduction [`Self::reduction`] and search
    /// [`Self::search_late`]), and last what is kept ([`Self::keep`]).
    fn negamax(
        &mut self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        depth: i32,
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
        let pv_node = beta - alpha > 1;
        let in_check = pos.is_check();
        let (alpha, beta) = match self.node_ends(pos, alpha, beta, ply, in_check) {
            Ok(window) => window,
            Err(score) => return score,
        };
        let key = pos.zobrist();
        let tte = self.shared.tt.probe(key);
        if let Some(s) = table_cut(tte, pv_node, alpha, beta, depth, ply) {
            return s;
        }
        let mut node = self.evaluations(pos, key, tte, in_check, pv_node, ply);
        node.depth = depth;
        if !pv_node && !in_check {
            if let Some(s) = self.prune_node(pos, &node, beta, ply, cut) {
                return s;
            }
        }
        self.stack[ply + 1].null = false;
        // Internal iterative reduction: without a hash move, search less.
        if node.tt_move.is_none() && depth >= 4 && ply != 0 {
            node.depth -= 1;
        }
        self.search_moves(pos, &node, alpha, beta, ply, cut)
    }

    /// The node's ends before the table (not at the root): the fifty-move
    /// rule, a repetition, too little material, the deepest ply; then the
    /// window narrowed to the mates still possible. `Err`: the node's score.
    fn node_ends(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        in_check: bool,
    ) -> Result<(i32, i32), i32> {
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if ply == 0 {
            return Ok((alpha, beta));
        }
        if pos.halfmove_clock() >= 100 && (!in_check || pos.has_legal_moves()) {
            return Err(0);
        }
        if self.is_repetition(pos) || pos.is_insufficient_material() {
            return Err(0);
        }
        if ply >= MAX_PLY - 1 {
            return Err(if in_check { 0 } else { self.evaluate(pos, ply) });
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Err(alpha);
        }
        Ok((alpha, beta))
    }

    /// The evaluation as computed (what the table keeps), as corrected by
    /// what the search lately found in positions like this one, and as the
    /// pruning reads it: the table's score where its bound says it is
    /// nearer the truth than the static evaluation (a lower bound above it,
    /// an upper bound below it, an exact score).
    fn evaluations(
        &mut self,
        pos: &Position,
        key: u64,
        tte: Option<Entry>,
        in_check: bool,
        pv_node: bool,
        ply: usize,
    ) -> Node {
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
        Node {
            key,
            tte,
            tt_move: tte.and_then(|e| e.mv),
            in_check,
            pv_node,
            raw_eval,
            static_eval,
            eval,
            improving,
            depth: 0,
        }
    }

    /// Pruning before any move, at a node neither on the principal
    /// variation nor in check: reverse futility, the null move, then
    /// ProbCut. `Some`: the node's score.
    fn prune_node(
        &mut self,
        pos: &Position,
        node: &Node,
        beta: i32,
        ply: usize,
        cut: bool,
    ) -> Option<i32> {
        let (eval, depth) = (node.eval, node.depth);
        // Reverse futility pruning; never against a mate bound, where "the
        // static evaluation beats beta" proves nothing about the mate.
        if depth <= 7
            && eval - (75 * depth - if node.improving { 50 } else { 0 }) >= beta
            && eval.abs() < MATE_BOUND
            && beta.abs() < MATE_BOUND
        {
            return Some(eval);
        }
        // Null move pruning.
        if depth >= 3
            && eval >= beta
            && !self.stack[ply].null
            && non_pawn_material(pos, pos.turn()) > 0
            && beta.abs() < MATE_BOUND
        {
            if let Some(child) = pos.null_move() {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.stack[ply + 1].null = true;
                self.stack[ply + 1].prev = None;
                self.keys.push(node.key);
                let s = -self.negamax(&child, -beta, -beta + 1, depth - 1 - r, ply + 1, !cut);
                self.keys.pop();
                self.stack[ply + 1].null = false;
                if self.stopped {
                    return Some(0);
                }
                if s >= beta {
                    return Some(if s >= MATE_BOUND { beta } else { s });
                }
            }
        }
        self.probcut(pos, node, beta, ply, cut)
    }

    /// ProbCut: a capture that, searched shallower, beats beta by a margin
    /// would almost surely beat beta at full depth. `Some`: the node's score.
    fn probcut(
        &mut self,
        pos: &Position,
        node: &Node,
        beta: i32,
        ply: usize,
        cut: bool,
    ) -> Option<i32> {
        let depth = node.depth;
        let pc_beta = beta + 200 - if node.improving { 50 } else { 0 };
        if depth < 5
            || beta.abs() >= MATE_BOUND
            || node
                .tte
                .is_some_and(|e| e.depth >= depth - 3 && score_from_tt(e.score, ply) < pc_beta)
        {
            return None;
        }
        let them = pos.turn().other();
        let mut captures = pos.legal_moves_to(pos.by_color(them));
        let mut scores = [0i32; MAX_MOVES];
        let mut picker = MovePicker::quiescence(pos, &mut captures, &mut scores);
        while let Some((m, _)) = picker.next() {
            if !see_ge(pos, m, pc_beta - node.static_eval) {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(m);
            self.stack[ply + 1].prev = Some((m, piece_index(pos, m)));
            self.keys.push(node.key);
            let mut s = -self.qsearch(&child, -pc_beta, -pc_beta + 1, ply + 1);
            if s >= pc_beta {
                s = -self.negamax(&child, -pc_beta, -pc_beta + 1, depth - 4, ply + 1, !cut);
            }
            self.keys.pop();
            if self.stopped {
                return Some(0);
            }
            if s >= pc_beta {
                self.shared.tt.store(
                    node.key,
                    Some(m),
                    score_to_tt(s, ply),
                    node.raw_eval,
                    depth - 3,
                    Bound::Lower,
                );
                return Some(s);
            }
        }
        None
    }

    /// The node's moves, best first: each pruned or searched; a move that
    /// beats beta ends the node. Then what is kept ([`Self::keep`]).
    fn search_moves(
        &mut self,
        pos: &Position,
        node: &Node,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        let root = ply == 0;
        let mut moves: MoveList = if root {
            self.root_moves[self.pv_idx..]
                .iter()
                .map(|r| r.mv)
                .collect()
        } else {
            pos.legal_moves()
        };
        if moves.is_empty() {
            return if node.in_check { -MATE + ply as i32 } else { 0 };
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
                node.tt_move,
                &self.histories,
                ply,
                prev,
                prev2,
            )
        };
        let depth = node.depth;
        let us = pos.turn();
        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        let mut tried = Tried::new();
        let orig_alpha = alpha;
        while let Some((m, order)) = picker.next() {
            let noisy = is_noisy(pos, m);
            let piece = piece_index(pos, m);
            let mut child = *pos;
            child.play_unchecked(m);
            let gives_check = child.is_check();
            if !root
                && best > -MATE_BOUND
                && non_pawn_material(pos, us) > 0
                && skip_move(
                    pos,
                    node,
                    alpha,
                    m,
                    order,
                    noisy,
                    gives_check,
                    tried.n_quiets,
                )
            {
                continue;
            }
            tried.searched += 1;
            if root && self.id == 0 && self.pv_idx == 0 && self.shared.time.elapsed_ms() > 3000 {
                (self.report)(Report::CurrMove {
                    depth: depth as u32,
                    mv: m,
                    number: tried.searched as u32,
                });
            }
            tried.push(pos, m, piece, noisy);
            let ext = if gives_check && (depth <= 8 || see_ge(pos, m, 0)) {
                1
            } else {
                0
            };
            let new_depth = depth - 1 + ext;
            self.stack[ply + 1].prev = Some((m, piece));
            self.keys.push(node.key);
            let score = if tried.searched == 1 {
                -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, false)
            } else {
                let late = Late {
                    m,
                    piece,
                    order,
                    noisy,
                    gives_check,
                    searched: tried.searched,
                    new_depth,
                };
                let r = self.reduction(node, &late, cut, prev, prev2, us);
                self.search_late(&child, alpha, beta, new_depth, r, ply, cut)
            };
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if root {
                self.score_root_move(m, score, alpha, tried.searched);
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if score >= beta {
                        self.reward_cutoff(pos, m, piece, noisy, depth, ply, &tried, prev, prev2);
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if tried.searched == 0 {
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
        self.keep(pos, node, best, best_move, bound, ply);
        best
    }

    /// The reduction of a move after the first (late move reductions): none
    /// for noisy moves and shallow depths; less on the principal variation,
    /// for checks and for the counter move, more at a node not improving,
    /// at an expected cut node and for a move with a poor history.
    fn reduction(
        &self,
        node: &Node,
        late: &Late,
        cut: bool,
        prev: Option<Played>,
        prev2: Option<Played>,
        us: Color,
    ) -> i32 {
        let depth = node.depth;
        if depth < 3 || late.searched <= 1 + usize::from(node.pv_node) || late.noisy {
            return 0;
        }
        let mut r = self.lmr[depth.min(63) as usize][late.searched.min(63)] as i32;
        if node.pv_node {
            r -= 1;
        }
        if !node.improving {
            r += 1;
        }
        if cut {
            r += 1;
        }
        if late.gives_check || node.in_check {
            r -= 1;
        }
        if late.order >= COUNTER {
            r -= 1;
        }
        r -= self
            .histories
            .quiet_score(us, late.m, late.piece, prev, prev2)
            / 10000;
        r.clamp(0, late.new_depth - 1)
    }

    /// A move after the first, searched with a null window (reduced by `r`,
    /// then at full depth if it beat alpha), then with the whole window if
    /// it falls inside it (principal variation search).
    #[allow(clippy::too_many_arguments)]
    fn search_late(
        &mut self,
        child: &Position,
        alpha: i32,
        beta: i32,
        new_depth: i32,
        r: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        let mut score = -self.negamax(child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
        if score > alpha && r > 0 {
            score = -self.negamax(child, -alpha - 1, -alpha, new_depth, ply + 1, !cut);
        }
        if score > alpha && score < beta {
            score = -self.negamax(child, -beta, -alpha, new_depth, ply + 1, false);
        }
        score
    }

    /// A root move's score and line: the first, or one that beat alpha, is
    /// kept with its line; any other is known only to be worse.
    fn score_root_move(&mut self, m: Move, score: i32, alpha: i32, searched: usize) {
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

    /// A move beat beta: its history rewarded, the moves tried before it
    /// punished.
    #[allow(clippy::too_many_arguments)]
    fn reward_cutoff(
        &mut self,
        pos: &Position,
        m: Move,
        piece: usize,
        noisy: bool,
        depth: i32,
        ply: usize,
        tried: &Tried,
        prev: Option<Played>,
        prev2: Option<Played>,
    ) {
        if !noisy {
            self.histories.reward_quiet(
                pos.turn(),
                ply,
                m,
                piece,
                depth,
                tried.quiets(),
                prev,
                prev2,
            );
            self.histories.punish_captures(depth, tried.noisies());
        } else {
            self.histories
                .reward_capture(m, piece, captured_index(pos, m), depth, tried.noisies());
        }
    }

    /// What the node keeps: its result in the table (not for a root line
    /// after the first), and what the search found beyond the evaluation in
    /// the correction history, where the bound says it (a lower bound above
    /// the evaluation, an upper one below it).
    fn keep(
        &mut self,
        pos: &Position,
        node: &Node,
        best: i32,
        best_move: Option<Move>,
        bound: Bound,
        ply: usize,
    ) {
        if !(ply == 0 && self.pv_idx > 0) {
            self.shared.tt.store(
                node.key,
                best_move,
                score_to_tt(best, ply),
                node.raw_eval,
                node.depth,
                bound,
            );
        }
        if !node.in_check
            && best_move.is_none_or(|m| !is_noisy(pos, m))
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= node.static_eval)
            && !(bound == Bound::Upper && best >= node.static_eval)
            && self.shared.correct
            && !self.stopped
        {
            self.correction
                .update(pos, node.depth, best - node.static_eval);
        }
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

/// What one node of the main search knows before it tries its moves.
struct Node {
    /// The position's key.
    key: u64,
    /// The table's entry.
    tte: Option<Entry>,
    /// The table's move.
    tt_move: Option<Move>,
    /// The side to move is in check.
    in_check: bool,
    /// On the principal variation (a window wider than one).
    pv_node: bool,
    /// The evaluation as computed.
    raw_eval: i32,
    /// The evaluation as corrected.
    static_eval: i32,
    /// The evaluation the pruning reads.
    eval: i32,
    /// The static evaluation is better than two plies ago.
    improving: bool,
    /// The depth the moves are searched to (after internal iterative
    /// reduction).
    depth: i32,
}

/// A move after the first, as its reduction reads it.
struct Late {
    m: Move,
    piece: usize,
    order: i32,
    noisy: bool,
    gives_check: bool,
    /// Moves searched at the node, this one included.
    searched: usize,
    /// The depth it is searched to before any reduction.
    new_depth: i32,
}

/// The moves a node searched so far: how many, and the first quiet and
/// noisy ones (their histories are punished when a later move cuts).
struct Tried {
    searched: usize,
    quiets: [Played; 64],
    n_quiets: usize,
    noisies: [(Move, usize, usize); 32],
    n_noisies: usize,
}

impl Tried {
    fn new() -> Tried {
        Tried {
            searched: 0,
            quiets: [(Move::NULL, 0); 64],
            n_quiets: 0,
            noisies: [(Move::NULL, 0, 0); 32],
            n_noisies: 0,
        }
    }

    /// Counts move `m` (of piece `piece`) as tried.
    fn push(&mut self, pos: &Position, m: Move, piece: usize, noisy: bool) {
        if !noisy && self.n_quiets < 64 {
            self.quiets[self.n_quiets] = (m, piece);
            self.n_quiets += 1;
        } else if noisy && self.n_noisies < 32 {
            self.noisies[self.n_noisies] = (m, piece, captured_index(pos, m));
            self.n_noisies += 1;
        }
    }

    fn quiets(&self) -> &[Played] {
        &self.quiets[..self.n_quiets]
    }

    fn noisies(&self) -> &[(Move, usize, usize)] {
        &self.noisies[..self.n_noisies]
    }
}

/// The table's cut: outside the principal variation, an entry at least as
/// deep whose bound decides the window gives the node's score.
fn table_cut(
    tte: Option<Entry>,
    pv_node: bool,
    alpha: i32,
    beta: i32,
    depth: i32,
    ply: usize,
) -> Option<i32> {
    let e = tte?;
    if pv_node || e.depth < depth {
        return None;
    }
    let s = score_from_tt(e.score, ply);
    e.bound.cuts(s, alpha, beta).then_some(s)
}

/// Whether a move of a node (not the root, something better than being
/// mated found, pieces besides pawns) is pruned before it is searched:
/// quiet moves by late move pruning, futility and exchange loss; noisy
/// ones ordered after the good captures by exchange loss.
#[allow(clippy::too_many_arguments)]
fn skip_move(
    pos: &Position,
    node: &Node,
    alpha: i32,
    m: Move,
    order: i32,
    noisy: bool,
    gives_check: bool,
    n_quiets: usize,
) -> bool {
    let depth = node.depth;
    if !noisy && !gives_check {
        // Late move pruning and futility pruning of quiet moves.
        if !node.pv_node
            && !node.in_check
            && depth <= 7
            && n_quiets >= (3 + depth * depth) as usize / if node.improving { 1 } else { 2 }
        {
            return true;
        }
        if !node.in_check && depth <= 6 && node.eval + 90 + 90 * depth <= alpha {
            return true;
        }
        depth <= 6 && !see_ge(pos, m, -25 * depth * depth)
    } else {
        noisy && depth <= 6 && order < 0 && !see_ge(pos, m, -90 * depth)
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
