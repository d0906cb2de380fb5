//! The generator: puzzles after the mistakes of a game.
//!
//! The criteria are lichess-puzzler's published ones (its `generator/`),
//! written again here on escaque's [`Evaluator`]s:
//!
//! 1. every position of the game is evaluated (the *scan*); a move of the
//!    opponent is a candidate when, from the solver's point of view, the
//!    evaluation after it is a mate within [`Criteria::mate_soon`] moves, or
//!    at least [`Criteria::min_cp`] with the winning chances up by more than
//!    [`Criteria::jump`] from before the move — but not when the solver was
//!    already winning by more than [`Criteria::too_winning_cp`], nor when the
//!    solver is already up in material, nor, below [`Criteria::clear_cp`],
//!    when the solver is not down in material (not clearly winning);
//! 2. the candidate is *probed* with two lines (multipv 2) at every
//!    position: at each solver move the best move must beat the second by
//!    [`Criteria::margin`] in winning chances (1 for any mate), or be a mate
//!    in one that no non-mating move comes near, or be the only legal move;
//!    the opponent answers with the evaluator's best move;
//! 3. a mate puzzle goes on until the mate; an advantage puzzle until the
//!    solver's move is no longer the only good one, must stay at least
//!    [`Criteria::min_cp`] up all along, and is cut back to end on a solver
//!    move that had a rival (so that the last move too is the only good
//!    one). An advantage puzzle of one solver move is dropped; none is
//!    longer than [`Criteria::max_plies`].
//!
//! Unlike lichess (which keeps the first puzzle of a game), every puzzle of
//! a game is kept: a player's own games are few.
//!
//! lichess probes with Stockfish at 25 M nodes; escaque's engine at the
//! probe's 150,000 nodes rated some rivals lower than Stockfish 15.1 at
//! 10 M does (4 of the first 10 shipped puzzles failed that re-check: a
//! second mate, non-mating rivals at +338 and +486, a last move's rival at
//! +356). So a puzzle found with escaque's engine is looked at again by
//! [`verify`]: deeper (1,000,000 nodes in `escaque problemas buscar` and the
//! long run) and with a stricter margin ([`Criteria::verification`]).

use std::sync::atomic::AtomicBool;

use escaque::{Color, Move, Position, Role};

use super::Puzzle;
use crate::analyse::{AnalysisError, Evaluator, Line};
use crate::judge::{self, Eval};

/// The thresholds of the generator (lichess-puzzler's by default).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Criteria {
    /// Winning chances per centipawn of the evaluator's scale:
    /// [`judge::WIN_CHANCE_K`] for escaque's engine, lichess's 0.00368208
    /// for Stockfish ([`Criteria::for_stockfish`]).
    pub k: f64,
    /// At a solver move, the best move's winning chances must exceed the
    /// second's by more than this (lichess: 0.7).
    pub margin: f64,
    /// A mate in one is still unique when the best non-mating move keeps at
    /// most these winning chances (lichess: 0.6).
    pub mate_in_one_rival: f64,
    /// The opponent's move must raise the solver's winning chances by more
    /// than this (lichess: 0.6).
    pub jump: f64,
    /// The solver must stay at least this many centipawns up (lichess: 200).
    pub min_cp: i32,
    /// Below this, a candidate needs the solver down in material (lichess: 400).
    pub clear_cp: i32,
    /// A solver already this far up before the move gets no advantage
    /// puzzle (lichess: 300).
    pub too_winning_cp: i32,
    /// Mates in at most this many moves make mate puzzles (lichess: 15).
    pub mate_soon: i32,
    /// Longest solution in plies (the opponent's first move not counted).
    pub max_plies: usize,
    /// Whether a mate in one makes a puzzle (lichess keeps them only from
    /// its stronger players' games; escaque keeps them for learners).
    pub mate_in_one: bool,
}

impl Default for Criteria {
    fn default() -> Criteria {
        Criteria {
            k: judge::WIN_CHANCE_K,
            margin: 0.7,
            mate_in_one_rival: 0.6,
            jump: 0.6,
            min_cp: 200,
            clear_cp: 400,
            too_winning_cp: 300,
            mate_soon: 15,
            max_plies: 15,
            mate_in_one: true,
        }
    }
}

impl Criteria {
    /// lichess's constants for Stockfish's centipawns.
    pub fn for_stockfish() -> Criteria {
        Criteria {
            k: 0.003_682_08,
            ..Criteria::default()
        }
    }

    /// The stricter thresholds of [`verify`]: a margin of 0.85 instead of
    /// 0.7, and a mate in one unique only when no other move keeps more than
    /// 0.45 of winning chances (instead of 0.6) — escaque's engine rates
    /// some rivals lower than Stockfish does, so an edge is left for that.
    pub fn verification() -> Criteria {
        Criteria {
            margin: 0.85,
            mate_in_one_rival: 0.45,
            ..Criteria::default()
        }
    }

    /// Winning chances, −1 to 1, of an evaluation from the solver's side.
    pub fn wc(&self, e: Eval) -> f64 {
        match e {
            Eval::Mate(m) => f64::from(m.signum()),
            Eval::Cp(c) => judge::winning_chances_cp_with(self.k, c),
        }
    }
}

/// An evaluation from one side's point of view, ordered as python-chess
/// orders scores: any mate for that side above any centipawns (a shorter
/// mate above a longer one), any mate against it below.
pub fn order_key(e: Eval) -> (i32, i32) {
    match e {
        Eval::Mate(m) if m > 0 => (2, -m),
        Eval::Mate(m) => (0, -m),
        Eval::Cp(c) => (1, c),
    }
}

fn at_least(e: Eval, than: Eval) -> bool {
    order_key(e) >= order_key(than)
}

/// Material of `side` in pawns (1, 3, 3, 5, 9).
pub fn material(pos: &Position, side: Color) -> i32 {
    [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(r, v)| pos.pieces(side, r).count() as i32 * v)
    .sum()
}

/// `side`'s material minus the other side's.
pub fn material_diff(pos: &Position, side: Color) -> i32 {
    material(pos, side) - material(pos, side.other())
}

/// The two best moves of a position, from the solver's point of view.
#[derive(Clone, Debug)]
struct Pair {
    best: (Move, Eval),
    second: Option<(Move, Eval)>,
}

fn pair_of(lines: &[Line], solver: Color) -> Option<Pair> {
    let first = lines.first()?;
    let best = (*first.moves.first()?, first.eval.for_side(solver));
    let second = lines
        .get(1)
        .and_then(|l| Some((*l.moves.first()?, l.eval.for_side(solver))));
    Some(Pair { best, second })
}

/// A puzzle found, with what the tagger needs to know of it.
#[derive(Clone, Debug)]
pub struct Found {
    /// The puzzle (no themes yet, rating 1500: see [`super::rating`]).
    pub puzzle: Puzzle,
    /// Index of the opponent's move in the game (from 0).
    pub ply: usize,
    /// The solver's advantage in centipawns at the end, from the
    /// evaluator; `None` for a mate.
    pub cp: Option<i32>,
}

/// What the generator searched (for reports and benchmarks).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions scanned.
    pub scanned: usize,
    /// Positions looked at by the cheaper first pass ([`Prescan`]).
    pub prescanned: usize,
    /// Candidates probed.
    pub probed: usize,
    /// Puzzles found.
    pub found: usize,
}

struct Prober<'a> {
    eval: &'a mut dyn Evaluator,
    c: &'a Criteria,
    stop: &'a AtomicBool,
    solver: Color,
}

impl Prober<'_> {
    fn pair(&mut self, pos: &Position, history: &[u64]) -> Result<Option<Pair>, AnalysisError> {
        let lines = self.eval.evaluate(pos, history, 2, self.stop)?;
        Ok(pair_of(&lines, self.solver))
    }

    fn is_valid_mate_in_one(
        &mut self,
        pos: &Position,
        history: &[u64],
        pair: &Pair,
    ) -> Result<bool, AnalysisError> {
        if pair.best.1 != Eval::Mate(1) {
            return Ok(false);
        }
        let Some(second) = pair.second else {
            return Ok(true);
        };
        if second.1 != Eval::Mate(1) {
            return Ok(self.c.wc(second.1) <= self.c.mate_in_one_rival);
        }
        // Several mates in one: the best move that does not mate must be
        // bad enough.
        let mates = super::prove::mates_in_one(pos).len();
        let lines = self.eval.evaluate(pos, history, mates + 1, self.stop)?;
        let Some(last) = lines.get(mates) else {
            return Ok(true);
        };
        let e = last.eval.for_side(self.solver);
        Ok(order_key(e) < order_key(Eval::Mate(1)) && self.c.wc(e) <= self.c.mate_in_one_rival)
    }

    /// Whether the best move is the only good one.
    fn is_valid_attack(
        &mut self,
        pos: &Position,
        history: &[u64],
        pair: &Pair,
    ) -> Result<bool, AnalysisError> {
        let Some(second) = pair.second else {
            return Ok(true);
        };
        if self.c.wc(pair.best.1) > self.c.wc(second.1) + self.c.margin {
            return Ok(true);
        }
        self.is_valid_mate_in_one(pos, history, pair)
    }

    /// The mating line from `pos` (solver to move), or `None`.
    fn cook_mate(
        &mut self,
        mut pos: Position,
        mut history: Vec<u64>,
    ) -> Result<Option<Vec<Move>>, AnalysisError> {
        let mut line = Vec::new();
        let mate_soon = Eval::Mate(self.c.mate_soon);
        loop {
            if !pos.has_legal_moves() {
                return Ok((pos.is_checkmate() && pos.turn() != self.solver).then_some(line));
            }
            if line.len() > self.c.max_plies.max(2 * self.c.mate_soon as usize) {
                return Ok(None);
            }
            let mv = if pos.turn() == self.solver {
                let Some(pair) = self.pair(&pos, &history)? else {
                    return Ok(None);
                };
                if !self.is_valid_attack(&pos, &history, &pair)? {
                    return Ok(None);
                }
                if !at_least(pair.best.1, mate_soon) {
                    return Ok(None);
                }
                pair.best.0
            } else {
                let lines = self.eval.evaluate(&pos, &history, 1, self.stop)?;
                match lines.first().and_then(|l| l.moves.first()) {
                    Some(&m) => m,
                    None => return Ok(None),
                }
            };
            history.push(pos.zobrist());
            pos.play_unchecked(mv);
            line.push(mv);
        }
    }

    /// The advantage line from `pos` (solver to move), cut as lichess cuts
    /// it; `None` when it fails. Also the final evaluation.
    fn cook_advantage(
        &mut self,
        mut pos: Position,
        mut history: Vec<u64>,
    ) -> Result<Option<(Vec<Move>, Eval)>, AnalysisError> {
        let mut pairs: Vec<Pair> = Vec::new();
        let min = Eval::Cp(self.c.min_cp);
        loop {
            let key = pos.zobrist();
            if history.contains(&key) {
                return Ok(None);
            }
            if pairs.len() > self.c.max_plies {
                break;
            }
            let Some(pair) = self.pair(&pos, &history)? else {
                break;
            };
            if pos.turn() == self.solver && !self.is_valid_attack(&pos, &history, &pair)? {
                break;
            }
            if !at_least(pair.best.1, min) {
                return Ok(None);
            }
            history.push(key);
            pos.play_unchecked(pair.best.0);
            pairs.push(pair);
        }
        while let Some(last) = pairs.last() {
            if pairs.len().is_multiple_of(2) || last.second.is_none() {
                pairs.pop();
            } else {
                break;
            }
        }
        if pairs.len() <= 1 || pairs.len() > self.c.max_plies {
            return Ok(None);
        }
        let end = pairs[pairs.len() - 1].best.1;
        Ok(Some((pairs.iter().map(|p| p.best.0).collect(), end)))
    }
}

/// A cheaper first pass over a game before the scan (issue 56's long run,
/// where the scan was 78 % of the CPU): `eval` (fewer nodes) looks at every
/// position, and the scan then evaluates only the two positions around a
/// move that this pass finds could be a candidate under looser thresholds
/// ([`Prescan::could_be_candidate`]). The candidates are still chosen, and
/// the puzzles probed, with the scan's evaluations and the same
/// [`Criteria`]: the pass only leaves out positions, so that it can lose a
/// candidate the looser thresholds miss but never add one.
pub struct Prescan<'a> {
    /// The cheaper evaluator.
    pub eval: &'a mut dyn Evaluator,
    /// The solver's least evaluation after the move, in centipawns of the
    /// evaluator's scale (the scan's criterion: [`Criteria::min_cp`]).
    pub min_cp: i32,
    /// The least rise of the solver's winning chances (the scan's:
    /// [`Criteria::jump`]).
    pub jump: f64,
    /// The solver's most evaluation before the move (the scan's:
    /// [`Criteria::too_winning_cp`]).
    pub too_winning_cp: i32,
    /// At least this much after the move keeps it whatever came before: a
    /// mate the scan finds may still look like centipawns to the cheaper
    /// pass (a mate puzzle needs no jump).
    pub crushing_cp: i32,
}

impl Prescan<'_> {
    /// The thresholds measured on 120 of escaque's games with Stockfish
    /// 15.1 (issue 56): a prescan at 2,000 nodes with these kept 73 of the
    /// 74 candidates of the scan at 15,000 nodes and sent 6.7 % of the
    /// positions to it.
    pub fn measured(eval: &mut dyn Evaluator) -> Prescan<'_> {
        Prescan {
            eval,
            min_cp: 0,
            jump: 0.3,
            too_winning_cp: 500,
            crushing_cp: 800,
        }
    }
}

impl Prescan<'_> {
    /// Whether a move from `before` to `after` (evaluations from the
    /// solver's side, the player to move after it) passes the looser
    /// thresholds: any mate for the solver after it, or at least
    /// [`Prescan::crushing_cp`], or at least [`Prescan::min_cp`] with the winning chances up by more than
    /// [`Prescan::jump`], the solver not above [`Prescan::too_winning_cp`]
    /// before.
    pub fn could_be_candidate(&self, c: &Criteria, before: Eval, after: Eval) -> bool {
        if matches!(after, Eval::Mate(m) if m > 0) || at_least(after, Eval::Cp(self.crushing_cp)) {
            return true;
        }
        if order_key(before) > order_key(Eval::Cp(self.too_winning_cp)) {
            return false;
        }
        at_least(after, Eval::Cp(self.min_cp)) && c.wc(after) > c.wc(before) + self.jump
    }
}

/// Finds the puzzles of one game (`moves` from `start`): `scan` evaluates
/// every position (one line), `probe` the candidates (two lines). The
/// puzzles come without themes, rating 1500, identifier from
/// [`Puzzle::id_for`].
pub fn find_in_game(
    start: &Position,
    moves: &[Move],
    scan: &mut dyn Evaluator,
    probe: &mut dyn Evaluator,
    c: &Criteria,
    stop: &AtomicBool,
    counts: &mut Counts,
) -> Result<Vec<Found>, AnalysisError> {
    find_in_game_prescanned(start, moves, None, scan, probe, c, stop, counts)
}

/// Whether the move `i` of a game (from `positions[i]` to
/// `positions[i + 1]`) can make a candidate whatever the evaluations say:
/// the solver has two moves or more, the position is new in the game and
/// the solver is not up in material.
fn may_be_candidate(positions: &[Position], keys: &[u64], i: usize) -> bool {
    let after = &positions[i + 1];
    after.count_legal_moves() >= 2
        && !keys[..=i].contains(&keys[i + 1])
        && material_diff(after, after.turn()) <= 0
}

/// [`find_in_game`] with an optional [`Prescan`] before the scan: with
/// it, the scan evaluates only the positions around the moves the prescan
/// keeps.
#[allow(clippy::too_many_arguments)]
pub fn find_in_game_prescanned(
    start: &Position,
    moves: &[Move],
    prescan: Option<Prescan<'_>>,
    scan: &mut dyn Evaluator,
    probe: &mut dyn Evaluator,
    c: &Criteria,
    stop: &AtomicBool,
    counts: &mut Counts,
) -> Result<Vec<Found>, AnalysisError> {
    // The positions, checked.
    let mut positions = vec![*start];
    let mut pos = *start;
    for (i, &m) in moves.iter().enumerate() {
        if !pos.is_legal(m) {
            return Err(AnalysisError::IllegalMove(i));
        }
        pos.play_unchecked(m);
        positions.push(pos);
    }
    let keys: Vec<u64> = positions.iter().map(Position::zobrist).collect();
    // The positions the scan needs: all, or with a prescan those around a
    // move it keeps.
    let needed: Vec<bool> = match prescan {
        None => vec![true; positions.len()],
        Some(pre) => {
            let mut first: Vec<Option<Eval>> = Vec::with_capacity(positions.len());
            for (i, p) in positions.iter().enumerate() {
                if !p.has_legal_moves() {
                    first.push(None);
                    continue;
                }
                let lines = pre.eval.evaluate(p, &keys[..i], 1, stop)?;
                counts.prescanned += 1;
                first.push(lines.first().map(|l| l.eval));
            }
            let mut needed = vec![false; positions.len()];
            for i in 0..moves.len() {
                let (Some(before), Some(after)) = (first[i], first[i + 1]) else {
                    continue;
                };
                let solver = positions[i + 1].turn();
                if may_be_candidate(&positions, &keys, i)
                    && pre.could_be_candidate(c, before.for_side(solver), after.for_side(solver))
                {
                    needed[i] = true;
                    needed[i + 1] = true;
                }
            }
            needed
        }
    };
    // The scan: White's point of view; None when over or not needed.
    let mut evals: Vec<Option<Eval>> = Vec::with_capacity(positions.len());
    for (i, p) in positions.iter().enumerate() {
        if !needed[i] || !p.has_legal_moves() {
            evals.push(None);
            continue;
        }
        let lines = scan.evaluate(p, &keys[..i], 1, stop)?;
        counts.scanned += 1;
        evals.push(lines.first().map(|l| l.eval));
    }
    let mut found = Vec::new();
    let mut covered_until = 0;
    for i in 0..moves.len() {
        let after = &positions[i + 1];
        let solver = after.turn();
        let (Some(before_eval), Some(after_eval)) = (evals[i], evals[i + 1]) else {
            continue;
        };
        if i + 1 < covered_until {
            continue;
        }
        if after.count_legal_moves() < 2 {
            continue;
        }
        // A position seen before in the game is not a new puzzle.
        if keys[..=i].contains(&keys[i + 1]) {
            continue;
        }
        let score = after_eval.for_side(solver);
        let prev = before_eval.for_side(solver);
        let mate_soon = Eval::Mate(c.mate_soon);
        let is_mate = at_least(score, mate_soon);
        if order_key(prev) > order_key(Eval::Cp(c.too_winning_cp)) && !is_mate {
            continue;
        }
        if material_diff(after, solver) > 0 {
            continue;
        }
        if score == Eval::Mate(1) && !c.mate_in_one {
            continue;
        }
        let mut prober = Prober {
            eval: &mut *probe,
            c,
            stop,
            solver,
        };
        // The puzzle is judged as its solver will see it, from its position
        // alone (as lichess's CSV gives it and the Stockfish re-check reads
        // it): with the game's earlier positions escaque's engine scores a
        // rival that reaches one of them a draw by repetition (issue 56:
        // `9PW5r`, a mate in one kept beside a mate in four through a
        // position of four plies before).
        let history = vec![keys[i]];
        let result = if is_mate {
            counts.probed += 1;
            prober.cook_mate(*after, history)?.map(|line| (line, None))
        } else if at_least(score, Eval::Cp(c.min_cp)) && c.wc(score) > c.wc(prev) + c.jump {
            if !at_least(score, Eval::Cp(c.clear_cp)) && material_diff(after, solver) > -1 {
                continue;
            }
            counts.probed += 1;
            prober
                .cook_advantage(*after, history)?
                .map(|(line, end)| (line, Some(end.cp().unwrap_or(i32::MAX))))
        } else {
            None
        };
        let Some((line, cp)) = result else { continue };
        if line.is_empty() || line.len() > c.max_plies.max(2 * c.mate_soon as usize) {
            continue;
        }
        let mut all = vec![moves[i]];
        all.extend(line.iter().copied());
        let id = Puzzle::id_for(&positions[i], &all);
        let puzzle = match Puzzle::new(id, positions[i], all, 1500) {
            Ok(p) => p,
            Err(_) => continue,
        };
        covered_until = i + 1 + line.len();
        counts.found += 1;
        let cp = match cp {
            Some(i32::MAX) => None,
            other => other,
        };
        found.push(Found { puzzle, ply: i, cp });
    }
    Ok(found)
}

/// A second, independent look at a puzzle found by [`find_in_game`]: the
/// line is played again and at every solver move `eval` (deeper than the
/// probe: issue 56 measured the probe's 150,000 nodes against Stockfish at
/// 10 M and found its rivals too often underrated) is asked for two lines;
/// the puzzle stands only when that evaluator's best move is the solution's
/// move (on the last move, any mate in one is as good), that move is the
/// only good one by `c`'s margin (or a unique mate in one, or the only
/// legal move), and an advantage puzzle still ends at least
/// [`Criteria::min_cp`] up. Pass a `c` stricter than the probe's
/// ([`Criteria::verification`]) so that a rival the deeper search still
/// underrates does not pass on the edge. The puzzle is judged from its own
/// position, without the game's earlier positions: a rival that goes back
/// to one of them is no draw for a solver who sees only the puzzle (with
/// them, escaque's engine scored such a rival mate a draw by repetition and
/// a run kept `9PW5r`, which Stockfish fails). `Ok(None)` when the puzzle
/// stands, else the reason.
pub fn verify(
    puzzle: &Puzzle,
    eval: &mut dyn Evaluator,
    c: &Criteria,
    stop: &AtomicBool,
) -> Result<Option<String>, AnalysisError> {
    let mut pos = puzzle.shown_position();
    let solver = pos.turn();
    let mut history = vec![puzzle.start.zobrist()];
    let mut prober = Prober {
        eval,
        c,
        stop,
        solver,
    };
    let n = puzzle.moves.len();
    let mut last_best = None;
    for i in 1..n {
        let expected = puzzle.moves[i];
        if !pos.is_legal(expected) {
            return Ok(Some(format!("move {i}: {expected} is not legal")));
        }
        if pos.turn() == solver && pos.count_legal_moves() > 1 {
            let Some(pair) = prober.pair(&pos, &history)? else {
                return Ok(Some(format!("move {i}: no line")));
            };
            let last = i + 1 >= n;
            let mut same = pair.best.0 == expected;
            if !same && last {
                // Any mate in one ends a mate puzzle as well.
                let mut a = pos;
                a.play_unchecked(expected);
                let mut b = pos;
                b.play_unchecked(pair.best.0);
                same = a.is_checkmate() && b.is_checkmate();
            }
            if !same {
                return Ok(Some(format!(
                    "move {i}: best {} ({:?}), not the solution",
                    pair.best.0, pair.best.1
                )));
            }
            if !prober.is_valid_attack(&pos, &history, &pair)? {
                return Ok(Some(format!(
                    "move {i}: {:?} not unique, second {:?}",
                    pair.best.1,
                    pair.second.map(|s| s.1)
                )));
            }
            last_best = Some(pair.best.1);
        }
        history.push(pos.zobrist());
        pos.play_unchecked(expected);
    }
    let mated = !pos.has_legal_moves() && pos.is_checkmate() && pos.turn() != solver;
    if !mated {
        if let Some(e) = last_best {
            if !at_least(e, Eval::Cp(c.min_cp)) {
                return Ok(Some(format!("ends at {e:?}, under {}", c.min_cp)));
            }
        }
    }
    Ok(None)
}

/// Pieces (kings and pawns included) up to which lichess settles a
/// position with its 7-piece tablebases instead of the engine.
pub const TABLEBASE_PIECES: usize = 7;

/// Whether a puzzle ends in mate (its last move mates).
pub fn ends_in_mate(puzzle: &Puzzle) -> bool {
    let mut end = puzzle.start;
    for &m in &puzzle.moves {
        end.play_unchecked(m);
    }
    end.is_checkmate()
}

/// The reason to drop a puzzle that is not a mate when one of its solver
/// positions has at most [`TABLEBASE_PIECES`] pieces (see
/// [`verify_rivals`]); `None` otherwise. Cheap: no search.
pub fn tablebase_ending(puzzle: &Puzzle) -> Option<String> {
    if ends_in_mate(puzzle) {
        return None;
    }
    let mut pos = puzzle.start;
    let solver = puzzle.solver();
    for (i, &m) in puzzle.moves.iter().enumerate() {
        if i > 0 && pos.turn() == solver && pos.occupied().count() <= TABLEBASE_PIECES {
            return Some(format!(
                "move {i}: {} pieces, a tablebase position",
                pos.occupied().count()
            ));
        }
        pos.play_unchecked(m);
    }
    None
}

/// A third look at a puzzle that [`verify`] kept, for what multipv 2 misses
/// (issue 56: Stockfish 15.1 at 10 M nodes failed 3 of 30 verified puzzles —
/// two had a second, longer mate that escaque's engine scored below +100 in
/// its second line, one a pawn ending where Stockfish's best move was
/// another win):
///
/// * at every solver move each *other* legal move is searched on its own
///   (`eval`, one line, the position after it), so that the whole search
///   goes to that move: the puzzle falls when a rival mates (lichess's
///   margin can never hold between two mates — only other mates in one
///   beside a mate in one are allowed, as lichess allows them: a mate in
///   one whose rival mates in three, which Stockfish found and escaque's
///   multipv 2 did not, is the case), or, the solution's move not being a
///   mate in one and searched the same way, when a rival comes within
///   `c`'s margin of it;
/// * a puzzle that is not a mate is dropped when a solver position has at
///   most [`TABLEBASE_PIECES`] pieces: lichess decides those with
///   tablebases, which escaque does not have, and its engine's verdicts
///   there (pawn endings above all) are the least sure.
///
/// Judged from the puzzle's own position, as [`verify`] judges it.
/// `Ok(None)` when the puzzle stands.
pub fn verify_rivals(
    puzzle: &Puzzle,
    eval: &mut dyn Evaluator,
    c: &Criteria,
    stop: &AtomicBool,
) -> Result<Option<String>, AnalysisError> {
    if let Some(why) = tablebase_ending(puzzle) {
        return Ok(Some(why));
    }
    let mut pos = puzzle.shown_position();
    let solver = pos.turn();
    let mut history = vec![puzzle.start.zobrist()];
    let n = puzzle.moves.len();
    for i in 1..n {
        let expected = puzzle.moves[i];
        if !pos.is_legal(expected) {
            return Ok(Some(format!("move {i}: {expected} is not legal")));
        }
        if pos.turn() == solver {
            let legal = pos.legal_moves();
            if legal.len() > 1 {
                history.push(pos.zobrist());
                let mut after = pos;
                after.play_unchecked(expected);
                let mates_now = after.is_checkmate();
                let solution = if mates_now {
                    Eval::Mate(1)
                } else {
                    match eval.evaluate(&after, &history, 1, stop)?.first() {
                        // The line after the move: one more solver move
                        // to the mate than the evaluator reports.
                        Some(l) => match l.eval.for_side(solver) {
                            Eval::Mate(m) if m > 0 => Eval::Mate(m + 1),
                            e => e,
                        },
                        None => Eval::Cp(0),
                    }
                };
                for &m in legal.iter() {
                    if m == expected || stop.load(std::sync::atomic::Ordering::Relaxed) {
                        continue;
                    }
                    let mut a = pos;
                    a.play_unchecked(m);
                    if a.is_checkmate() {
                        if mates_now {
                            continue; // another mate in one, as lichess allows
                        }
                        return Ok(Some(format!("move {i}: {m} mates at once")));
                    }
                    if !a.has_legal_moves() {
                        continue; // stalemate: a draw, no rival
                    }
                    let Some(line) = eval.evaluate(&a, &history, 1, stop)?.into_iter().next()
                    else {
                        continue;
                    };
                    let e = line.eval.for_side(solver);
                    let rival_mates = matches!(e, Eval::Mate(k) if k > 0);
                    // Beside a mate in one, a non-mating rival is judged
                    // by `verify`'s lines; here only a rival that mates.
                    let close = !mates_now && c.wc(solution) <= c.wc(e) + c.margin;
                    if rival_mates || close {
                        return Ok(Some(format!(
                            "move {i}: rival {m} ({e:?}) against {expected} ({solution:?})"
                        )));
                    }
                }
                history.pop();
            }
        }
        history.push(pos.zobrist());
        pos.play_unchecked(expected);
    }
    Ok(None)
}

/// lichess's opening keys for a name: the family (before `:`) and the full
/// name, spaces as `_`, apostrophes and other punctuation dropped
/// (`Italian Game: Classical Variation` gives `Italian_Game
/// Italian_Game_Classical_Variation`).
pub fn opening_keys(name_en: &str) -> Vec<String> {
    let key = |s: &str| -> String {
        s.split_whitespace()
            .map(|w| {
                w.chars()
                    .filter(|c| c.is_alphanumeric() || *c == '-')
                    .collect::<String>()
            })
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("_")
    };
    let family = name_en.split(':').next().unwrap_or(name_en);
    let mut out = vec![key(family)];
    let full = key(&name_en.replace([':', ','], " "));
    if full != out[0] {
        out.push(full);
    }
    out.retain(|k| !k.is_empty());
    out
}

/// Makes a found puzzle ready to ship: its themes (lichess's, the phase,
/// and zugzwang when `zugzwang_eval` is given; sorted as lichess sorts
/// them), its first rating from difficulty when `rate`
/// ([`super::rating::by_depth`]),
/// the game's address with `#ply` of the opponent's move, and the opening
/// of the game (`game_moves` from `game_start`) when it has a name.
pub fn complete(
    found: &Found,
    site: &str,
    game_start: &Position,
    game_moves: &[Move],
    rate: bool,
    zugzwang_eval: Option<(&mut dyn Evaluator, &Criteria)>,
) -> Puzzle {
    let mut p = found.puzzle.clone();
    let mut themes: Vec<String> = super::themes::tag(&p, found.cp)
        .into_iter()
        .map(str::to_string)
        .collect();
    themes.push(super::themes::phase(&p.shown_position()).to_string());
    if let Some((eval, c)) = zugzwang_eval {
        if super::themes::zugzwang(&p, eval, c) {
            themes.push("zugzwang".to_string());
        }
    }
    themes.sort();
    themes.dedup();
    p.themes = themes;
    if rate {
        p.rating = super::rating::by_depth(&p);
    }
    p.game_url = if site.is_empty() {
        String::new()
    } else {
        format!("{site}#{}", found.ply + 1)
    };
    let upto = &game_moves[..(found.ply + 1).min(game_moves.len())];
    if let Some(o) = crate::openings::classify(game_start, upto) {
        p.opening_tags = opening_keys(&o.name_en);
    }
    p
}
