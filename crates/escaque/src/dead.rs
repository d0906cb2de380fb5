//! Dead positions decided by proof: can a side still deliver mate by *any*
//! series of legal moves (FIDE 5.2.2, 6.9, 5.1.2)?
//!
//! For a position and an intended winner, [`winnability`] answers
//!
//! * [`Winnability::Winnable`] with a *helpmate* line as proof: legal moves,
//!   both sides cooperating, ending in mate of the other side by the winner;
//! * [`Winnability::Unwinnable`] only when it has a proof that no such line
//!   exists;
//! * [`Winnability::Undecided`] when its search budget ran out. It never
//!   guesses.
//!
//! The method follows M. Ambrona, *"Chess Unwinnability Analyzer"* (FUN 2022,
//! the analysis behind CHA and the `chasolver` crate), written anew here:
//!
//! 1. **Forced moves.** While the side to move has exactly one legal move it is
//!    played; if the forced sequence repeats a position, the game is locked in a
//!    cycle without mate: unwinnable.
//! 2. **Material.** A side with a bare king, a lone knight against a king with
//!    nothing that could block its own king, or bishops all on one colour with
//!    no pawns or knights on the board can never mate
//!    ([`Position::has_insufficient_material`]); this prunes every search.
//! 3. **Bounded helpmate search** by iterative deepening with a transposition
//!    table. Moves that bring the pieces towards a mating corner (the loser's
//!    king towards the corner of the winner's bishops, the winner's king and
//!    knights towards it), captures and the winner's pawn moves cost no depth;
//!    the loser's captures and pawn moves cost more. An iteration that finishes
//!    without being cut by its depth or node budget has visited every position
//!    reachable from the start (each position met again is one already being
//!    or already explored), so finding no mate there proves unwinnability.
//! 4. **Static analysis** ([`StaticAnalysis`]): a fixpoint that
//!    over-approximates the squares each piece can ever stand on and
//!    under-approximates the pieces that can never move nor be captured
//!    ("steady") and the squares those attack for ever. If no square the
//!    loser's king can reach can be checked by a winner's piece while every
//!    flight square is coverable, no mate can ever happen. This is what proves
//!    locked pawn walls and bishops shut out of them.
//! 5. **Closure**: for positions with few possibilities (kings shuffling behind
//!    a wall), every reachable position is enumerated up to a bound; a closed
//!    set without a mate is a proof.
//!
//! Soundness comes first: each step above either exhibits a line that is
//! replayed by the rules before being returned, or is a proof that covers all
//! legal continuations. What escaque cannot prove within the budget is
//! `Undecided`.
//!
//! The *cheap check* [`is_unwinnable_fast`] / [`is_dead_fast`] (material, the
//! locked-pawn-wall rule of [`crate::game::is_dead_position`] and, on
//! blocked pawn-and-bishop structures only, the static analysis) is meant to
//! run after every move: on ordinary middlegame positions it answers "don't
//! know" after a few bit operations.
//!
//! ```
//! use escaque::dead::{winnability, Winnability};
//! use escaque::{Color, Position};
//!
//! // K+N v K+P: the knight's side can mate (the pawn blocks its own king)…
//! let pos = Position::from_fen("7k/7p/8/8/8/8/8/KN6 w - - 0 1").unwrap();
//! assert!(matches!(winnability(&pos, Color::White), Winnability::Winnable(_)));
//! // …and K+B v K cannot.
//! let pos = Position::from_fen("7k/8/8/8/8/8/8/KB6 w - - 0 1").unwrap();
//! assert_eq!(winnability(&pos, Color::White), Winnability::Unwinnable);
//! ```

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::attacks::{attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks};
use crate::{Bitboard, Color, Move, Position, Rank, Role, Square};

/// Whether a side can still mate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Winnability {
    /// The side can mate: a helpmate line from the position (legal moves of
    /// both sides ending in mate by the side), as proof.
    Winnable(Vec<Move>),
    /// Proved: no series of legal moves ends in mate by the side.
    Unwinnable,
    /// The search budget ran out before a proof either way.
    Undecided,
}

impl Winnability {
    /// True for a proved [`Winnability::Unwinnable`].
    pub fn is_unwinnable(&self) -> bool {
        matches!(self, Winnability::Unwinnable)
    }

    /// True for [`Winnability::Winnable`].
    pub fn is_winnable(&self) -> bool {
        matches!(self, Winnability::Winnable(_))
    }

    /// The word used in JSON output: `winnable`, `unwinnable`, `undecided`.
    pub fn keyword(&self) -> &'static str {
        match self {
            Winnability::Winnable(_) => "winnable",
            Winnability::Unwinnable => "unwinnable",
            Winnability::Undecided => "undecided",
        }
    }
}

/// Whether a position is dead (FIDE 5.2.2: neither side can mate).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Deadness {
    /// Proved dead: neither side can mate.
    Dead,
    /// Proved alive: at least one side has a helpmate.
    Alive,
    /// Not decided within the budget.
    Undecided,
}

/// How much work [`winnability_with`] may do.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Positions the helpmate searches may visit in all.
    pub search_nodes: u64,
    /// Positions the closure may enumerate.
    pub closure_positions: usize,
}

impl Budget {
    /// The budget of [`winnability`]: enough for every position of the
    /// published test sets.
    pub const DEFAULT: Budget = Budget {
        search_nodes: 4_000_000,
        closure_positions: 60_000,
    };

    /// A small budget for checks made during play after a move.
    pub const QUICK: Budget = Budget {
        search_nodes: 4_000,
        closure_positions: 2_000,
    };
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::DEFAULT
    }
}

/// Whether `winner` can still mate in `pos` with the other side cooperating,
/// with the default [`Budget`].
pub fn winnability(pos: &Position, winner: Color) -> Winnability {
    winnability_with(pos, winner, Budget::DEFAULT)
}

/// Whether the position is dead: both sides decided with the default budget.
pub fn deadness(pos: &Position) -> Deadness {
    deadness_with(pos, Budget::DEFAULT)
}

/// [`deadness`] with a budget for each side.
pub fn deadness_with(pos: &Position, budget: Budget) -> Deadness {
    if is_dead_fast(pos) {
        return Deadness::Dead;
    }
    let mut undecided = false;
    for c in [pos.turn(), pos.turn().other()] {
        match winnability_with(pos, c, budget) {
            Winnability::Winnable(_) => return Deadness::Alive,
            Winnability::Undecided => undecided = true,
            Winnability::Unwinnable => {}
        }
    }
    if undecided {
        Deadness::Undecided
    } else {
        Deadness::Dead
    }
}

/// The cheap, sound check: `true` only if `winner` provably cannot mate;
/// `false` means "don't know". Fast enough to run after every move.
pub fn is_unwinnable_fast(pos: &Position, winner: Color) -> bool {
    // A mate on the board first: the material rule speaks of mates to come,
    // and a double check by two bishops of one colour (never the result of a
    // move, but a legal FEN) mates against rooks blocking their own king.
    if !pos.has_legal_moves() {
        return !(pos.is_check() && pos.turn() == winner.other());
    }
    if pos.has_insufficient_material(winner) || crate::game::is_dead_position(pos) {
        return true;
    }
    blocked_structure(pos) && StaticAnalysis::new(pos).proves_unwinnable(winner)
}

/// The cheap, sound check that neither side can mate; `false` means "don't
/// know".
pub fn is_dead_fast(pos: &Position) -> bool {
    if crate::game::is_dead_position(pos) {
        return true;
    }
    if !blocked_structure(pos) {
        return false;
    }
    let sa = StaticAnalysis::new(pos);
    sa.proves_unwinnable(Color::White) && sa.proves_unwinnable(Color::Black)
}

/// A position worth the full decision during play: the cheap gate
/// [`crate::Game`] uses to decide whether to search after a move. True for
/// blocked pawn structures without queens, rooks or knights (most pawns
/// blocked head-on by an enemy pawn), where dead positions beyond material
/// arise in real games; such positions are rare, so the search costs nothing
/// on ordinary moves.
pub fn worth_full_check(pos: &Position) -> bool {
    blocked_structure(pos)
}

/// Only pawns, bishops and kings, with most pawns blocked head-on by an enemy
/// pawn and no pawn free of an opposing pawn on its file.
fn blocked_structure(pos: &Position) -> bool {
    if (pos.by_role(Role::Queen) | pos.by_role(Role::Rook) | pos.by_role(Role::Knight)).any() {
        return false;
    }
    let wp = pos.pieces(Color::White, Role::Pawn);
    let bp = pos.pieces(Color::Black, Role::Pawn);
    if wp.is_empty() || bp.is_empty() {
        return false;
    }
    let blocked = (wp.north() & bp).count();
    let pawns = (wp | bp).count();
    blocked >= (pawns / 2).saturating_sub(2).max(1)
}

/// [`winnability`] with an explicit budget.
pub fn winnability_with(pos: &Position, winner: Color, budget: Budget) -> Winnability {
    let result = decide(pos, winner, budget);
    if let Winnability::Winnable(line) = &result {
        // The proof is checked by the rules before it is handed out.
        if !line_mates(pos, line, winner) {
            debug_assert!(false, "helpmate line does not mate: {}", pos.to_fen());
            return Winnability::Undecided;
        }
    }
    result
}

/// Replays `line` from `pos` by the rules and says whether it ends in mate of
/// `winner`'s opponent.
pub fn line_mates(pos: &Position, line: &[Move], winner: Color) -> bool {
    let mut p = *pos;
    for &m in line {
        if p.play(m).is_err() {
            return false;
        }
    }
    p.turn() == winner.other() && p.is_checkmate()
}

fn decide(start: &Position, winner: Color, budget: Budget) -> Winnability {
    // 1. Forced moves.
    let mut prefix = Vec::new();
    let mut pos = *start;
    let mut seen: Vec<Key> = Vec::new();
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if pos.is_check() && pos.turn() == winner.other() {
                Winnability::Winnable(prefix)
            } else {
                Winnability::Unwinnable
            };
        }
        if pos.has_insufficient_material(winner) {
            return Winnability::Unwinnable;
        }
        if moves.len() != 1 || prefix.len() >= 32 {
            break;
        }
        let key = Key::new(&pos);
        if seen.contains(&key) {
            // A forced cycle: the same positions for ever, none a mate.
            return Winnability::Unwinnable;
        }
        seen.push(key);
        prefix.push(moves[0]);
        pos.play_unchecked(moves[0]);
    }
    let with_prefix = |mut line: Vec<Move>| {
        let mut all = prefix.clone();
        all.append(&mut line);
        Winnability::Winnable(all)
    };

    let mut search = Search::new(&pos, winner);

    // 2. A shallow search catches the easy mates.
    search.global_limit = budget.search_nodes.min(20_000);
    search.per_depth_limit = 2_000;
    match search.deepen(&pos, 1..=3) {
        Some(Winnability::Winnable(l)) => return with_prefix(l),
        Some(Winnability::Unwinnable) => return Winnability::Unwinnable,
        _ => {}
    }

    // 3. Static analysis, early where it usually decides (no queens, rooks
    //    or knights), otherwise after the deeper search.
    let heavy =
        (pos.by_role(Role::Queen) | pos.by_role(Role::Rook) | pos.by_role(Role::Knight)).any();
    if !heavy && StaticAnalysis::new(&pos).proves_unwinnable(winner) {
        return Winnability::Unwinnable;
    }

    // 4. A deeper search with a per-depth budget.
    search.nodes = 0;
    search.global_limit = budget.search_nodes / 4;
    search.per_depth_limit = 8_000;
    match search.deepen(&pos, 4..=60) {
        Some(Winnability::Winnable(l)) => return with_prefix(l),
        Some(Winnability::Unwinnable) => return Winnability::Unwinnable,
        _ => {}
    }

    if heavy && StaticAnalysis::new(&pos).proves_unwinnable(winner) {
        return Winnability::Unwinnable;
    }

    // 5. Closure of the reachable positions.
    match closure(&pos, winner, budget.closure_positions) {
        Some(Winnability::Winnable(l)) => return with_prefix(l),
        Some(Winnability::Unwinnable) => return Winnability::Unwinnable,
        _ => {}
    }

    // 6. The rest of the budget, without a per-depth limit.
    search.nodes = 0;
    search.global_limit = budget.search_nodes - budget.search_nodes / 4;
    search.per_depth_limit = u64::MAX;
    match search.deepen(&pos, 2..=120) {
        Some(Winnability::Winnable(l)) => with_prefix(l),
        Some(Winnability::Unwinnable) => Winnability::Unwinnable,
        _ => Winnability::Undecided,
    }
}

// ---------------------------------------------------------------------------
// Position keys for the tables.
// ---------------------------------------------------------------------------

/// A position without its move counters: equal keys are the same position
/// for the purpose of what can follow.
#[derive(Copy, Clone)]
struct Key(Position);

impl Key {
    fn new(pos: &Position) -> Key {
        let mut p = *pos;
        p.halfmoves = 0;
        p.fullmoves = 1;
        Key(p)
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        let (a, b) = (&self.0, &other.0);
        a.hash == b.hash
            && a.roles == b.roles
            && a.colors == b.colors
            && a.turn == b.turn
            && a.castling == b.castling
            && a.ep_square == b.ep_square
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.0.hash);
    }
}

/// The Zobrist hash is already well mixed: pass it through.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Fast = BuildHasherDefault<PassThrough>;

// ---------------------------------------------------------------------------
// The helpmate search.
// ---------------------------------------------------------------------------

#[derive(Copy, Clone, PartialEq, Eq)]
enum Cost {
    Reward,
    Normal,
    Punish,
}

struct Search {
    winner: Color,
    max_depth: i32,
    nodes: u64,
    global_limit: u64,
    per_depth_limit: u64,
    iteration_nodes: u64,
    interrupted: bool,
    line: Vec<Move>,
    tt: HashMap<Key, i32, Fast>,
    /// The corner the loser's king is driven to.
    corner: Square,
    /// Where the winner's king and knights head.
    winner_king_target: Square,
    winner_knight_target: Square,
    /// Where the loser's knights head (to block their own king).
    loser_knight_target: Square,
    /// The winner has no pawns, rooks or queens.
    minors_only: bool,
}

const MAX_LINE: usize = 160;

impl Search {
    fn new(pos: &Position, winner: Color) -> Search {
        let loser = winner.other();
        let wb = pos.pieces(winner, Role::Bishop);
        let lb = pos.pieces(loser, Role::Bishop);
        // The corner of the colour of the winner's bishops; without them, the
        // colour the loser's bishops do not control.
        let dark = if wb.any() {
            (wb & Bitboard::DARK).any()
        } else {
            lb.is_empty() || (lb & Bitboard::LIGHT).any()
        };
        // The corner on the loser's home rank: for a White winner, h8 is dark
        // and a8 light; for a Black winner, a1 is dark and h1 light.
        let rel = |file: u32, rank: u32| -> Square {
            let (f, r) = match winner {
                Color::White => (file, rank),
                Color::Black => (7 - file, 7 - rank),
            };
            let (f, r) = if dark { (f, r) } else { (7 - f, r) };
            // For Black the flip above maps h8→a1 (dark) and a8→h1 (light).
            Square::new(r * 8 + f).unwrap_or(Square::A1)
        };
        Search {
            winner,
            max_depth: 0,
            nodes: 0,
            global_limit: 0,
            per_depth_limit: u64::MAX,
            iteration_nodes: 0,
            interrupted: false,
            line: Vec::with_capacity(MAX_LINE),
            tt: HashMap::default(),
            corner: rel(7, 7),
            winner_king_target: rel(6, 5),
            winner_knight_target: rel(4, 4),
            loser_knight_target: rel(6, 7),
            minors_only: (pos.by_color(winner)
                & (pos.by_role(Role::Pawn) | pos.by_role(Role::Rook) | pos.by_role(Role::Queen)))
            .is_empty(),
        }
    }

    /// Iterative deepening over `depths`: `Some(Winnable)` with a line,
    /// `Some(Unwinnable)` when an iteration finished without a cut, `None` when
    /// the budget ran out.
    fn deepen(
        &mut self,
        pos: &Position,
        depths: core::ops::RangeInclusive<i32>,
    ) -> Option<Winnability> {
        for depth in depths {
            self.max_depth = depth;
            self.interrupted = false;
            self.iteration_nodes = 0;
            self.tt.clear();
            self.line.clear();
            if self.node(pos, 0, false) {
                return Some(Winnability::Winnable(self.line.clone()));
            }
            if !self.interrupted {
                return Some(Winnability::Unwinnable);
            }
            if self.nodes >= self.global_limit {
                return None;
            }
        }
        None
    }

    fn node(&mut self, pos: &Position, depth: i32, past_progress: bool) -> bool {
        let left = self.max_depth - depth;
        let key = Key::new(pos);
        if let Some(&e) = self.tt.get(&key) {
            if e >= left {
                return false;
            }
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return pos.is_check() && pos.turn() != self.winner;
        }
        if pos.has_insufficient_material(self.winner) {
            return false;
        }
        if depth >= self.max_depth || self.line.len() >= MAX_LINE {
            self.interrupted = true;
            return false;
        }
        self.tt.insert(key, left);
        // Promising moves first.
        let mut order: arrayvec::ArrayVec<(Move, Cost), { crate::MAX_MOVES }> =
            moves.iter().map(|&m| (m, self.classify(pos, m))).collect();
        order.sort_by_key(|&(_, c)| match c {
            Cost::Reward => 0,
            Cost::Normal => 1,
            Cost::Punish => 2,
        });
        for (m, cost) in order {
            self.nodes += 1;
            self.iteration_nodes += 1;
            if self.nodes > self.global_limit
                || self.iteration_nodes > self.per_depth_limit.saturating_mul(self.max_depth as u64)
            {
                self.interrupted = true;
                return false;
            }
            let next_depth = match cost {
                Cost::Reward => depth,
                Cost::Punish => depth + 4,
                Cost::Normal => depth + i32::from(!past_progress),
            };
            let mut child = *pos;
            child.play_unchecked(m);
            self.line.push(m);
            if self.node(&child, next_depth, cost == Cost::Reward) {
                return true;
            }
            self.line.pop();
        }
        false
    }

    fn classify(&self, pos: &Position, m: Move) -> Cost {
        let us = pos.turn();
        let role = pos.role_at(m.from()).unwrap_or(Role::Pawn);
        let capture = pos.occupied().contains(m.to()) && !m.is_castle() || m.is_en_passant();
        if us == self.winner {
            if capture || role == Role::Pawn {
                return Cost::Reward;
            }
            let closer = match role {
                Role::King => closer(m, self.winner_king_target, king_distance),
                Role::Knight => closer(m, self.winner_knight_target, knight_distance),
                _ => false,
            };
            if closer {
                Cost::Reward
            } else {
                Cost::Normal
            }
        } else {
            let closer = match role {
                Role::King => closer(m, self.corner, king_distance),
                Role::Knight => closer(m, self.loser_knight_target, knight_distance),
                // With only minor pieces against it, the loser's pieces go
                // next to their king's corner to block it.
                Role::Pawn => false,
                _ => self.minors_only && closer(m, self.corner, king_distance),
            };
            if closer || (self.minors_only && role == Role::Pawn) {
                // With only minor pieces the winner needs the loser's own
                // pieces around its king: the loser's pawns run to promote.
                Cost::Reward
            } else if capture || role == Role::Pawn {
                Cost::Punish
            } else {
                Cost::Normal
            }
        }
    }
}

fn closer(m: Move, target: Square, dist: fn(Square, Square) -> u32) -> bool {
    dist(m.to(), target) < dist(m.from(), target)
}

fn king_distance(a: Square, b: Square) -> u32 {
    a.distance(b)
}

/// A rough knight distance (a heuristic only: it orders moves).
fn knight_distance(a: Square, b: Square) -> u32 {
    let dx = (a.file().index() as i32 - b.file().index() as i32).unsigned_abs();
    let dy = (a.rank().index() as i32 - b.rank().index() as i32).unsigned_abs();
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    if lo == 0 && hi == 0 {
        return 0;
    }
    if lo == 1 && hi == 2 {
        return 1;
    }
    hi.div_ceil(2).max((lo + hi).div_ceil(3)).max(2)
}

// ---------------------------------------------------------------------------
// Closure: every reachable position, up to a bound.
// ---------------------------------------------------------------------------

fn closure(start: &Position, winner: Color, limit: usize) -> Option<Winnability> {
    // Each entry: the position, the index of its parent and the move from it.
    let mut arena: Vec<(Position, u32, Move)> =
        vec![(*start, u32::MAX, Move::normal(Square::A1, Square::A1))];
    let mut seen: HashSet<Key, Fast> = HashSet::default();
    seen.insert(Key::new(start));
    let mut i = 0;
    while i < arena.len() {
        let pos = arena[i].0;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.is_check() && pos.turn() != winner {
                let mut line = Vec::new();
                let mut j = i;
                while arena[j].1 != u32::MAX {
                    line.push(arena[j].2);
                    j = arena[j].1 as usize;
                }
                line.reverse();
                return Some(Winnability::Winnable(line));
            }
        } else if !pos.has_insufficient_material(winner) {
            for &m in moves.iter() {
                let mut child = pos;
                child.play_unchecked(m);
                if seen.insert(Key::new(&child)) {
                    if arena.len() >= limit {
                        return None;
                    }
                    arena.push((child, i as u32, m));
                }
            }
        }
        i += 1;
    }
    Some(Winnability::Unwinnable)
}

// ---------------------------------------------------------------------------
// Static analysis.
// ---------------------------------------------------------------------------

/// Which squares each piece can ever reach, which pieces can never move nor
/// be captured, and what follows for mates.
///
/// The fixpoint starts from "every piece stays where it is" and grows each
/// piece's set of reachable squares by the moves it could make from any of
/// them, with only steady pieces (those that provably never move nor are
/// captured) standing in the way, pawns capturing only where an enemy piece
/// may stand, and kings never entering a square a steady enemy piece attacks
/// for ever. A piece stops being steady as soon as it could move or an enemy
/// piece could reach its square. At the fixpoint, by induction over any legal
/// continuation, every piece stays within its set and every steady piece stays
/// put: the sets are sound over-approximations.
#[derive(Clone, Debug)]
pub struct StaticAnalysis {
    /// Pieces as they stand: square, colour, kind.
    pieces: Vec<(Square, Color, Role)>,
    /// Reachable squares of the piece that started on each square.
    reach: [Bitboard; 64],
    /// Squares of the pieces that never move nor are captured.
    steady: Bitboard,
    /// Pawns that might promote.
    promotable: Bitboard,
    /// Castling rights or an en passant square make the analysis give up.
    gave_up: bool,
}

impl StaticAnalysis {
    /// Runs the fixpoint on `pos`.
    pub fn new(pos: &Position) -> StaticAnalysis {
        let mut sa = StaticAnalysis {
            pieces: Vec::with_capacity(32),
            reach: [Bitboard::EMPTY; 64],
            steady: pos.occupied(),
            promotable: Bitboard::EMPTY,
            gave_up: pos.castling_rights() != crate::CastlingRights::NONE
                || pos.ep_square().is_some(),
        };
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                sa.pieces.push((sq, p.color, p.role));
                sa.reach[sq.index()] = Bitboard::from_square(sq);
            }
        }
        if !sa.gave_up {
            sa.saturate();
        }
        sa
    }

    /// The squares the piece now on `sq` may ever stand on (an
    /// over-approximation); empty if no piece stands there.
    pub fn reachable(&self, sq: Square) -> Bitboard {
        self.reach[sq.index()]
    }

    /// The pieces that provably never move nor are captured.
    pub fn steady(&self) -> Bitboard {
        self.steady
    }

    fn union_reach(&self, color: Option<Color>, non_king: bool) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for &(sq, c, r) in &self.pieces {
            if color.is_some_and(|want| want != c) || (non_king && r == Role::King) {
                continue;
            }
            b |= self.reach[sq.index()];
        }
        b
    }

    /// Squares always attacked by `color`'s steady pieces, whatever else
    /// stands on the board.
    fn always_attacked(&self, color: Color, ever_occupied: Bitboard) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for &(sq, c, r) in &self.pieces {
            if c == color && self.steady.contains(sq) {
                b |= attacks(r, c, sq, ever_occupied);
            }
        }
        b
    }

    fn saturate(&mut self) {
        loop {
            let ever = self.union_reach(None, false);
            let occupiable = [
                self.union_reach(Some(Color::White), true),
                self.union_reach(Some(Color::Black), true),
            ];
            let always = [
                self.always_attacked(Color::White, ever),
                self.always_attacked(Color::Black, ever),
            ];
            let steady_kings = self.steady & self.king_squares();
            let mut changed = false;
            for i in 0..self.pieces.len() {
                let (orig, color, role) = self.pieces[i];
                let old = self.reach[orig.index()];
                if old == Bitboard::FULL {
                    continue;
                }
                let friends_steady = self.steady & self.color_squares(color);
                let no_pass = if role == Role::Pawn {
                    self.no_pass_zone(i)
                } else {
                    Bitboard::EMPTY
                };
                let mut new = old;
                for s in old {
                    let targets = match role {
                        Role::Pawn => {
                            let mut t = Bitboard::EMPTY;
                            let one = Bitboard::from_square(s).forward(color) & !self.steady;
                            t |= one & !no_pass;
                            if one.any() && s.rank() == Rank::SECOND.relative_to(color) {
                                t |= one.forward(color) & !self.steady & !no_pass;
                            }
                            t | (pawn_attacks(color, s) & occupiable[color.other().index()])
                        }
                        Role::King => king_attacks(s) & !always[color.other().index()],
                        _ => attacks(role, color, s, self.steady),
                    };
                    new |= targets & !friends_steady & !steady_kings;
                }
                if role == Role::Pawn
                    && (new & Bitboard::rank(Rank::EIGHTH.relative_to(color))).any()
                {
                    self.promotable |= Bitboard::from_square(orig);
                    new = Bitboard::FULL;
                }
                if new != old {
                    self.reach[orig.index()] = new;
                    changed = true;
                }
            }
            // Steady: never moves, and no enemy piece can reach its square
            // (kings are never captured).
            let mut steady = Bitboard::EMPTY;
            for &(sq, c, r) in &self.pieces {
                let stays = self.reach[sq.index()] == Bitboard::from_square(sq);
                let safe = r == Role::King || !occupiable_all(self, c.other()).contains(sq);
                if stays && safe {
                    steady |= Bitboard::from_square(sq);
                }
            }
            if steady != self.steady {
                self.steady = steady;
                changed = true;
            }
            if !changed {
                break;
            }
        }

        fn occupiable_all(sa: &StaticAnalysis, color: Color) -> Bitboard {
            sa.union_reach(Some(color), false)
        }
    }

    /// For the pawn `pieces[i]`: squares of its file it can never push to
    /// because an enemy pawn stands ahead on the same file, neither pawn can
    /// ever leave the file (both only push, never capture) and the enemy pawn
    /// can never be captured. Two such pawns never pass each other, so the
    /// pawn stays short of the enemy pawn's present square.
    fn no_pass_zone(&self, i: usize) -> Bitboard {
        let (orig, color, _) = self.pieces[i];
        let file = Bitboard::file(orig.file());
        if (self.reach[orig.index()] & !file).any() {
            return Bitboard::EMPTY;
        }
        let mut zone = Bitboard::EMPTY;
        for (j, &(q, qc, qr)) in self.pieces.iter().enumerate() {
            if j == i || qc == color || qr != Role::Pawn || q.file() != orig.file() {
                continue;
            }
            let ahead = match color {
                Color::White => q.rank().index() > orig.rank().index(),
                Color::Black => q.rank().index() < orig.rank().index(),
            };
            let q_reach = self.reach[q.index()];
            if !ahead || (q_reach & !file).any() {
                continue;
            }
            let capturable = self.pieces.iter().enumerate().any(|(k, &(x, xc, _))| {
                k != i && xc == color && (self.reach[x.index()] & q_reach).any()
            });
            if capturable {
                continue;
            }
            let beyond: Bitboard = file
                .filter(|t| match color {
                    Color::White => t.rank().index() >= q.rank().index(),
                    Color::Black => t.rank().index() <= q.rank().index(),
                })
                .collect();
            zone |= beyond;
        }
        zone
    }

    fn king_squares(&self) -> Bitboard {
        self.pieces
            .iter()
            .filter(|p| p.2 == Role::King)
            .map(|p| p.0)
            .collect()
    }

    fn color_squares(&self, color: Color) -> Bitboard {
        self.pieces
            .iter()
            .filter(|p| p.1 == color)
            .map(|p| p.0)
            .collect()
    }

    /// True if the analysis proves that `winner` can never mate: no square the
    /// loser's king may stand on can be attacked by a winner's piece other than
    /// the king while every square around it could be taken away (by a loser's
    /// piece standing there or a winner's piece attacking it).
    pub fn proves_unwinnable(&self, winner: Color) -> bool {
        if self.gave_up {
            return false;
        }
        let loser = winner.other();
        let Some(&(lk, _, _)) = self
            .pieces
            .iter()
            .find(|p| p.1 == loser && p.2 == Role::King)
        else {
            return false;
        };
        let occ = self.steady.without(lk);
        let mut checks = Bitboard::EMPTY;
        let mut covers = Bitboard::EMPTY;
        for &(sq, c, r) in &self.pieces {
            if c != winner {
                continue;
            }
            let promoted = self.promotable.contains(sq);
            let mut att = Bitboard::EMPTY;
            for s in self.reach[sq.index()] {
                att |= attacks(r, c, s, occ);
                if promoted {
                    att |= queen_attacks(s, occ) | knight_attacks(s);
                }
            }
            covers |= att;
            if r != Role::King {
                checks |= att;
            }
        }
        let blocks = self.union_reach(Some(loser), true);
        for k in self.reach[lk.index()] {
            if !checks.contains(k) {
                continue;
            }
            if (king_attacks(k) & !(covers | blocks)).is_empty() {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn knight_distance_is_exact_for_one_move() {
        assert_eq!(knight_distance(Square::G1, Square::F3), 1);
        assert_eq!(knight_distance(Square::G1, Square::G1), 0);
        assert!(knight_distance(Square::A1, Square::H8) >= 4);
    }

    #[test]
    fn corners_follow_the_winners_bishop() {
        let s = Search::new(&pos("7k/8/8/8/8/8/8/KB6 w - - 0 1"), Color::White);
        assert_eq!(s.corner, Square::A8); // light bishop: light corner
        let s = Search::new(&pos("7k/8/8/8/8/8/8/K1B5 w - - 0 1"), Color::White);
        assert_eq!(s.corner, Square::H8);
        let s = Search::new(&pos("7k/8/8/8/8/8/8/K1b5 b - - 0 1"), Color::Black);
        assert_eq!(s.corner, Square::A1);
        let s = Search::new(&pos("7k/8/8/8/8/8/8/Kb6 b - - 0 1"), Color::Black);
        assert_eq!(s.corner, Square::H1);
    }

    #[test]
    fn static_analysis_proves_a_wall() {
        let p = pos("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1");
        let sa = StaticAnalysis::new(&p);
        assert!(sa.proves_unwinnable(Color::White));
        assert!(sa.proves_unwinnable(Color::Black));
        // The white king never crosses the wall.
        assert!(!sa.reachable(Square::E1).contains(Square::E8));
    }
}
