//! The helpmate search: iterative deepening guided towards a mating corner,
//! with a transposition table; the closure of every reachable position; and
//! the search that follows chains of checks.
//!
//! Every search here either returns a line (replayed by the rules before it
//! leaves the module's caller) or a proof: an iteration that finishes without
//! being cut by its depth or node budget has fully expanded every position
//! it visited, so the visited set is closed under legal moves and holds no
//! mate.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use super::statics::StaticAnalysis;
use super::Winnability;
use crate::attacks::{
    attacks, bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use crate::position::CheckInfo;
use crate::{Bitboard, Color, Move, MoveList, Position, Role, Square};

// ---------------------------------------------------------------------------
// Position keys.
// ---------------------------------------------------------------------------

/// A second 64-bit word that, with the Zobrist hash, tells positions apart
/// in the tables (a wrong merge could prune a position never searched; with
/// 128 bits the chance is nil in practice).
#[inline]
pub(super) fn fingerprint(p: &Position) -> u64 {
    let w = p.by_color(Color::White).0;
    let b = p.by_color(Color::Black).0;
    let pawns = p.by_role(Role::Pawn).0;
    let diag = (p.by_role(Role::Bishop) | p.by_role(Role::Queen)).0;
    let line = (p.by_role(Role::Rook) | p.by_role(Role::Queen)).0;
    let mut h = w.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^= b.rotate_left(17).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^= pawns.rotate_left(31).wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^= diag.rotate_left(43).wrapping_mul(0x27D4_EB2F_1656_67C5);
    h ^= line.rotate_left(53).wrapping_mul(0x85EB_CA77_C2B2_AE63);
    h ^ u64::from(p.turn() == Color::White)
}

/// The Zobrist hash is already well mixed: pass it through.
#[derive(Default)]
pub(super) struct PassThrough(u64);

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

pub(super) type Fast = BuildHasherDefault<PassThrough>;

/// The key of a position for the tables: Zobrist hash and fingerprint (move
/// counters left out: they do not change what can follow).
#[inline]
pub(super) fn key(p: &Position) -> (u64, u64) {
    (p.zobrist(), fingerprint(p))
}

// ---------------------------------------------------------------------------
// The helpmate search.
// ---------------------------------------------------------------------------

#[derive(Copy, Clone, PartialEq, Eq)]
enum Cost {
    Reward,
    Normal,
    Punish,
}

#[derive(Copy, Clone)]
struct Entry {
    check: u64,
    left: i32,
    iteration: u32,
}

/// The longest line the search follows.
const MAX_LINE: usize = 160;

pub(super) struct Search {
    winner: Color,
    max_depth: i32,
    /// Nodes (moves tried) in this call of [`Search::deepen`].
    pub(super) nodes: u64,
    pub(super) global_limit: u64,
    pub(super) per_depth_limit: u64,
    iteration_nodes: u64,
    interrupted: bool,
    line: Vec<Move>,
    pub(super) use_tt: bool,
    tt: HashMap<u64, Entry, Fast>,
    /// Entries of earlier iterations are ignored (unless
    /// [`Search::table_across`]): a prune must rest on a position expanded
    /// in this iteration, or the proof would not hold.
    iteration: u32,
    /// The corner the loser's king is driven to.
    corner: Square,
    /// Where the winner's king and knights head.
    winner_king_target: Square,
    winner_knight_target: Square,
    /// Where the loser's knights head (to block their own king).
    loser_knight_target: Square,
    /// Bishop moves (through squares no steady piece holds) from each square
    /// to the mating corner; `u8::MAX` where no bishop gets there.
    pub(super) bishop_distance: Option<[u8; 64]>,
    /// Moves from the start that lead to a position the static analysis
    /// proves unwinnable: never worth trying early.
    pub(super) punishable: Vec<Move>,
    /// Both sides' moves in a fixed order, whatever their cost: pawns,
    /// knights, bishops, rooks, queens, then the king, each kind from the
    /// square nearest the corner a1 seen from the winner's side (a1…h1,
    /// a2…), destinations likewise, promotions queen, knight, rook, bishop.
    /// The costs still set the depth. Measured on the published sets, a
    /// short search finds long helpmates in locked structures this way that
    /// the cost-first order misses (the winner's quiet piece moves come
    /// early, while the loser's king walks to the corner).
    pub(super) fixed_order: bool,
    /// A mating pattern the pieces are guided to (see [`Pattern`]); when
    /// set, it replaces the corner guidance.
    pub(super) pattern: Option<Box<Pattern>>,
    /// Table entries of earlier iterations prune as well (a position
    /// already searched with as many plies left is not searched again, as
    /// in the reference's search). Each iteration then spends its nodes on
    /// positions the last one did not reach, and long helpmates are found
    /// far sooner; but an iteration that prunes on such an entry proves
    /// nothing (the entry's own iteration was cut), so it counts as cut.
    pub(super) table_across: bool,
}

impl Search {
    pub(super) fn new(pos: &Position, winner: Color) -> Search {
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
            use_tt: true,
            tt: HashMap::default(),
            iteration: 0,
            corner: rel(7, 7),
            winner_king_target: rel(6, 6),
            winner_knight_target: rel(4, 4),
            loser_knight_target: rel(6, 7),
            bishop_distance: None,
            punishable: Vec::new(),
            fixed_order: false,
            pattern: None,
            table_across: false,
        }
    }

    /// The corner the loser's king is driven to.
    #[cfg(test)]
    pub(super) fn corner(&self) -> Square {
        self.corner
    }

    /// Fills [`Search::bishop_distance`]: bishop moves to the corner region
    /// (the corner and its two neighbours on the edges), through squares
    /// that no steady piece of `sa` holds.
    pub(super) fn set_bishop_distances(&mut self, sa: &StaticAnalysis) {
        let steady = sa.steady();
        let c = self.corner;
        let mut region = Bitboard::from_square(c);
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            if let Some(s) = c.offset(df, dr) {
                region |= Bitboard::from_square(s);
            }
        }
        self.bishop_distance = Some(breadth_first(region & !steady, |s| {
            bishop_attacks(s, steady) & !steady
        }));
    }

    /// Empties the table (entries of an earlier search would prune
    /// under [`Search::table_across`]).
    pub(super) fn clear_table(&mut self) {
        self.tt.clear();
    }

    /// Fills [`Search::punishable`] for the start position.
    pub(super) fn set_punishable(&mut self, pos: &Position) {
        self.punishable = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| {
                let mut child = *pos;
                child.play_unchecked(m);
                StaticAnalysis::new(&child).proves_unwinnable(self.winner)
            })
            .collect();
    }

    /// Iterative deepening over `depths`: `Some(Winnable)` with a line,
    /// `Some(Unwinnable)` when an iteration finished without a cut, `None`
    /// when the budget ran out.
    pub(super) fn deepen(
        &mut self,
        pos: &Position,
        depths: core::ops::RangeInclusive<i32>,
    ) -> Option<Winnability> {
        self.nodes = 0;
        if self.use_tt && self.tt.capacity() == 0 {
            self.tt.reserve(4096);
        }
        for depth in depths {
            self.max_depth = depth;
            self.interrupted = false;
            self.iteration_nodes = 0;
            self.iteration = self.iteration.wrapping_add(1);
            if self.tt.len() > 1 << 20 {
                self.tt.clear();
            }
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
        let hash = pos.zobrist();
        if self.use_tt {
            if let Some(e) = self.tt.get(&hash) {
                // The fingerprint only when the hash matches (rarely).
                if (e.iteration == self.iteration || self.table_across)
                    && e.left >= left
                    && e.check == fingerprint(pos)
                {
                    if e.iteration != self.iteration {
                        // Searched as deeply in an earlier iteration, but
                        // that iteration was cut: no proof rests on it.
                        self.interrupted = true;
                    }
                    return false;
                }
            }
        }
        if depth >= self.max_depth || self.line.len() >= MAX_LINE {
            // A leaf: only whether it is a mate matters (most nodes are
            // leaves, so no move list is built here). Out of check it is
            // no mate; a stalemate counted as cut only delays a proof by an
            // iteration.
            if pos.is_check() && !pos.has_legal_moves() {
                return pos.turn() != self.winner;
            }
            if !pos.has_insufficient_material(self.winner) {
                self.interrupted = true;
            }
            return false;
        }
        // Generated in place (a returned list is a kilobyte copied).
        let mut moves = MoveList::new();
        pos.generate(Bitboard::FULL, &mut moves);
        if moves.is_empty() {
            return pos.is_check() && pos.turn() != self.winner;
        }
        if pos.has_insufficient_material(self.winner) {
            return false;
        }
        if self.use_tt {
            self.tt.insert(
                hash,
                Entry {
                    check: fingerprint(pos),
                    left,
                    iteration: self.iteration,
                },
            );
        }
        // The winner's moves by promise: rewarded, normal, punished. The
        // loser's moves as they come, last generated first (its other pieces
        // before its king): measured on the published sets, letting the
        // loser's pieces step aside or be sacrificed early finds the mates
        // far sooner than driving its king first.
        // Where a child may be a leaf, what tells the winner's checking moves.
        let info = (pos.turn() == self.winner && (left <= 4 || self.line.len() + 1 >= MAX_LINE))
            .then(|| pos.check_info());
        if self.fixed_order {
            let keyed = fixed_order(pos, &moves, self.winner);
            self.in_order(
                pos,
                keyed.iter().map(|e| e.1),
                depth,
                past_progress,
                info.as_ref(),
            )
        } else if pos.turn() == self.winner {
            let costs: arrayvec::ArrayVec<Cost, { crate::MAX_MOVES }> =
                moves.iter().map(|&m| self.classify(pos, m)).collect();
            for want in [Cost::Reward, Cost::Normal, Cost::Punish] {
                for (i, &m) in moves.iter().enumerate() {
                    if costs[i] == want
                        && self.child(pos, m, want, depth, past_progress, info.as_ref())
                    {
                        return true;
                    }
                }
                if self.interrupted && self.out_of_nodes() {
                    return false;
                }
            }
            false
        } else {
            self.in_order(pos, moves.iter().rev().copied(), depth, past_progress, None)
        }
    }

    /// Tries `moves` in the order given, each at its own cost: true if a
    /// mate was found below one of them (the line is then in `self.line`).
    fn in_order(
        &mut self,
        pos: &Position,
        moves: impl Iterator<Item = Move>,
        depth: i32,
        past_progress: bool,
        info: Option<&CheckInfo>,
    ) -> bool {
        for m in moves {
            let cost = self.classify(pos, m);
            if self.child(pos, m, cost, depth, past_progress, info) {
                return true;
            }
            if self.interrupted && self.out_of_nodes() {
                return false;
            }
        }
        false
    }

    fn out_of_nodes(&self) -> bool {
        self.nodes > self.global_limit
            || (self.per_depth_limit != u64::MAX
                && self.iteration_nodes
                    > self.per_depth_limit.saturating_mul(self.max_depth as u64))
    }

    /// Tries `m` from `pos`: true if a mate was found below (the line is then
    /// in `self.line`). `info` is the winner's [`CheckInfo`] where the child
    /// may be a leaf.
    #[inline]
    fn child(
        &mut self,
        pos: &Position,
        m: Move,
        cost: Cost,
        depth: i32,
        past_progress: bool,
        info: Option<&CheckInfo>,
    ) -> bool {
        self.nodes += 1;
        self.iteration_nodes += 1;
        if self.out_of_nodes() {
            self.interrupted = true;
            return false;
        }
        let next_depth = match cost {
            Cost::Reward => depth,
            Cost::Punish => depth + 4,
            Cost::Normal => depth + i32::from(!past_progress),
        };
        if self.interrupted && (next_depth >= self.max_depth || self.line.len() + 1 >= MAX_LINE) {
            // A leaf in an iteration already cut: what `node` would do there
            // only matters if the leaf is a mate of the loser (a table hit or
            // another cut changes nothing), so a move of the loser's, or one
            // of the winner's that gives no check, is done with unplayed.
            match info {
                Some(info) if pos.gives_check_with(m, info) => {}
                _ if pos.turn() == self.winner && info.is_none() => {}
                _ => return false,
            }
        }
        let mut child = *pos;
        child.play_unchecked(m);
        self.line.push(m);
        if self.node(&child, next_depth, cost == Cost::Reward) {
            return true;
        }
        self.line.pop();
        false
    }

    fn classify(&self, pos: &Position, m: Move) -> Cost {
        if !self.punishable.is_empty() && self.punishable.contains(&m) {
            return Cost::Punish;
        }
        let (from, to) = (m.from(), m.to());
        let us = pos.turn();
        let is = |role: Role, sq: Square| pos.by_role(role).contains(sq);
        let capture = pos.by_color(us.other()).contains(to) || m.is_en_passant();
        if let Some(pattern) = &self.pattern {
            let Some(role) = pos.role_at(from) else {
                return Cost::Normal;
            };
            let d = &pattern.distance[us.index()][role.index()];
            return if d[to.index()] < d[from.index()] || (us == self.winner && role == Role::Pawn) {
                Cost::Reward
            } else if us != self.winner && capture {
                Cost::Punish
            } else {
                Cost::Normal
            };
        }
        if us == self.winner {
            let progress = if capture || is(Role::Pawn, from) {
                true
            } else if is(Role::King, from) {
                closer(m, self.winner_king_target, king_distance)
            } else if is(Role::Knight, from) {
                closer(m, self.winner_knight_target, knight_distance)
            } else {
                is(Role::Bishop, from) && self.bishop_progress(m)
            };
            if progress {
                Cost::Reward
            } else {
                Cost::Normal
            }
        } else {
            if let Some(bd) = &self.bishop_distance {
                // Opening the position: the loser's pawns traded off make
                // room for the winner's pieces.
                if capture
                    && (is(Role::Pawn, from) || is(Role::Pawn, to))
                    && pos.occupied().count() > 5
                {
                    return Cost::Reward;
                }
                if is(Role::Bishop, from) && bd[to.index()] < bd[from.index()] {
                    return Cost::Reward;
                }
            }
            let closer = if is(Role::King, from) {
                closer(m, self.corner, king_distance)
            } else {
                is(Role::Knight, from) && closer(m, self.loser_knight_target, knight_distance)
            };
            if closer {
                Cost::Reward
            } else if capture {
                // Captures by the loser simplify away from a mate; its pawn
                // pushes cost a normal step (they may block its own king).
                Cost::Punish
            } else {
                Cost::Normal
            }
        }
    }

    /// A winner's bishop move that brings it towards the mating corner from
    /// afar, or steps out of the corner region it would block.
    fn bishop_progress(&self, m: Move) -> bool {
        let Some(bd) = &self.bishop_distance else {
            return false;
        };
        let (from, to) = (bd[m.from().index()], bd[m.to().index()]);
        if from == u8::MAX {
            return false;
        }
        (from > 2 && to < from) || (from <= 1 && to > from)
    }
}

/// The moves of `pos` in the order of [`Search::fixed_order`], each with
/// its sort key.
fn fixed_order(
    pos: &Position,
    moves: &MoveList,
    winner: Color,
) -> arrayvec::ArrayVec<(u32, Move), { crate::MAX_MOVES }> {
    // Squares counted from the winner's first rank.
    let flip = if winner == Color::Black { 56 } else { 0 };
    let mut keyed: arrayvec::ArrayVec<(u32, Move), { crate::MAX_MOVES }> = moves
        .iter()
        .map(|&m| {
            let role = pos.role_at(m.from()).map_or(0, Role::index) as u32;
            let promotion = match m.promotion_role() {
                Some(Role::Knight) => 1,
                Some(Role::Rook) => 2,
                Some(Role::Bishop) => 3,
                _ => 0,
            };
            let from = (m.from().index() ^ flip) as u32;
            let to = (m.to().index() ^ flip) as u32;
            ((role << 16) | (from << 9) | (to << 2) | promotion, m)
        })
        .collect();
    keyed.sort_unstable_by_key(|e| e.0);
    keyed
}

/// A mating picture around one corner that guides a search: the loser's
/// king to the corner, the loser's other pieces next to it (to block their
/// own king's flights), the winner's king two squares away (to cover the
/// rest), its knights to the squares that check the corner and its other
/// pieces to the lines through it. A move that brings a piece nearer its
/// squares is rewarded (costs no depth). It only orders and weights the
/// search; what the search proves does not depend on it.
pub(super) struct Pattern {
    /// Moves on an empty board from each square to the piece's target
    /// squares, by colour and role; `u8::MAX` where it has none or cannot
    /// get there.
    distance: [[[u8; 64]; 6]; 2],
}

impl Pattern {
    pub(super) fn new(winner: Color, corner: Square) -> Pattern {
        let c = Bitboard::from_square(corner);
        let next = king_attacks(corner);
        let ring = (0..64u32)
            .filter_map(Square::new)
            .filter(|s| s.distance(corner) == 2)
            .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s));
        let mut distance = [[[u8::MAX; 64]; 6]; 2];
        let loser = winner.other();
        let mut set = |color: Color, role: Role, targets: Bitboard| {
            distance[color.index()][role.index()] = distances(role, targets);
        };
        set(loser, Role::King, c);
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            set(loser, role, next);
        }
        set(winner, Role::King, ring);
        set(winner, Role::Knight, knight_attacks(corner));
        set(
            winner,
            Role::Bishop,
            bishop_attacks(corner, Bitboard::EMPTY),
        );
        set(winner, Role::Rook, rook_attacks(corner, Bitboard::EMPTY));
        set(winner, Role::Queen, queen_attacks(corner, Bitboard::EMPTY));
        Pattern { distance }
    }

    /// The moves a piece needs from `sq` to its squares.
    #[cfg(test)]
    pub(super) fn distance(&self, color: Color, role: Role, sq: Square) -> u8 {
        self.distance[color.index()][role.index()][sq.index()]
    }
}

/// Moves of a `role` on an empty board from each square to the nearest of
/// `targets` (none for pawns).
fn distances(role: Role, targets: Bitboard) -> [u8; 64] {
    if role == Role::Pawn || targets.is_empty() {
        return [u8::MAX; 64];
    }
    // Breadth first from the targets (every move here can be reversed; the
    // colour only matters for pawns).
    breadth_first(targets, |s| attacks(role, Color::White, s, Bitboard::EMPTY))
}

/// Steps from each square to the nearest of `start` when `step` gives the
/// squares one step away (moves that can be reversed, so the search may run
/// from the targets); `u8::MAX` where none leads there.
fn breadth_first(start: Bitboard, step: impl Fn(Square) -> Bitboard) -> [u8; 64] {
    let mut dist = [u8::MAX; 64];
    let mut seen = start;
    let mut frontier = start;
    let mut d = 0u8;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for s in frontier {
            dist[s.index()] = d;
            next |= step(s);
        }
        frontier = next & !seen;
        seen |= next;
        d += 1;
    }
    dist
}

fn closer(m: Move, target: Square, dist: fn(Square, Square) -> u32) -> bool {
    dist(m.to(), target) < dist(m.from(), target)
}

fn king_distance(a: Square, b: Square) -> u32 {
    a.distance(b)
}

/// Knight moves between two squares on an empty board.
pub(super) fn knight_distance(a: Square, b: Square) -> u32 {
    u32::from(KNIGHT_DISTANCE[a.index()][b.index()])
}

/// Knight distances by breadth-first search, computed at compile time.
const KNIGHT_DISTANCE: [[u8; 64]; 64] = {
    const JUMPS: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut table = [[u8::MAX; 64]; 64];
    let mut from = 0;
    while from < 64 {
        let mut queue = [0usize; 64];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from;
        table[from][from] = 0;
        while head < tail {
            let s = queue[head];
            head += 1;
            let (f, r) = ((s % 8) as i32, (s / 8) as i32);
            let mut j = 0;
            while j < 8 {
                let (nf, nr) = (f + JUMPS[j].0, r + JUMPS[j].1);
                if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                    let t = (nr * 8 + nf) as usize;
                    if table[from][t] == u8::MAX {
                        table[from][t] = table[from][s] + 1;
                        queue[tail] = t;
                        tail += 1;
                    }
                }
                j += 1;
            }
        }
        from += 1;
    }
    table
};

// ---------------------------------------------------------------------------
// Closure: every reachable position, up to a bound.
// ---------------------------------------------------------------------------

/// Enumerates every position reachable from `start` (breadth first, so a
/// mate found comes with a shortest line): `Some(Winnable)`,
/// `Some(Unwinnable)` when the set closed without a mate, `None` past
/// `limit` positions.
pub(super) fn closure(start: &Position, winner: Color, limit: usize) -> Option<Winnability> {
    // Each entry: the position, the index of its parent and the move from it.
    let mut arena: Vec<(Position, u32, Move)> = vec![(*start, u32::MAX, Move::NULL)];
    let mut seen: HashSet<(u64, u64), BuildHasherDefault<PairHasher>> = HashSet::default();
    seen.insert(key(start));
    let mut i = 0;
    while i < arena.len() {
        let pos = arena[i].0;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            if pos.is_check() && pos.turn() != winner {
                return Some(Winnability::Winnable(line_to(&arena, i)));
            }
        } else if !pos.has_insufficient_material(winner) {
            for &m in moves.iter() {
                let mut child = pos;
                child.play_unchecked(m);
                if seen.insert(key(&child)) {
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

fn line_to(arena: &[(Position, u32, Move)], mut j: usize) -> Vec<Move> {
    let mut line = Vec::new();
    while arena[j].1 != u32::MAX {
        line.push(arena[j].2);
        j = arena[j].1 as usize;
    }
    line.reverse();
    line
}

/// Hashes a (Zobrist, fingerprint) pair by its first word.
#[derive(Default)]
pub(super) struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        // The first word written is the Zobrist hash; mixing in the second
        // costs little and keeps the table spread.
        self.0 = self.0.rotate_left(29) ^ n;
    }
}

// ---------------------------------------------------------------------------
// Chains of checks.
// ---------------------------------------------------------------------------

/// Follows every move from the start and then every checking move; a
/// position reached by a move that does not give check must be proved
/// unwinnable by the static analysis. `Some(Unwinnable)` when every branch
/// ends so (the visited positions and the statically dead exits cover every
/// continuation), `Some(Winnable)` when a chain ends in mate, `None`
/// otherwise.
pub(super) fn check_chains(start: &Position, winner: Color, limit: usize) -> Option<Winnability> {
    let mut visited: HashSet<(u64, u64), BuildHasherDefault<PairHasher>> = HashSet::default();
    let mut line = Vec::new();
    let mut budget = limit;
    chain(start, winner, &mut visited, &mut line, &mut budget)
}

fn chain(
    pos: &Position,
    winner: Color,
    visited: &mut HashSet<(u64, u64), BuildHasherDefault<PairHasher>>,
    line: &mut Vec<Move>,
    budget: &mut usize,
) -> Option<Winnability> {
    if line.len() > 16 || *budget == 0 {
        return None;
    }
    *budget -= 1;
    visited.insert(key(pos));
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.is_check() && pos.turn() != winner {
            Some(Winnability::Winnable(line.clone()))
        } else {
            Some(Winnability::Unwinnable)
        };
    }
    if pos.has_insufficient_material(winner) {
        return Some(Winnability::Unwinnable);
    }
    for &m in moves.iter() {
        let mut child = *pos;
        child.play_unchecked(m);
        if visited.contains(&key(&child)) {
            continue;
        }
        if line.is_empty() || child.is_check() {
            line.push(m);
            let r = chain(&child, winner, visited, line, budget);
            line.pop();
            match r {
                Some(Winnability::Unwinnable) => continue,
                other => return other,
            }
        }
        if !child.has_insufficient_material(winner)
            && !StaticAnalysis::new(&child).proves_unwinnable(winner)
        {
            return None;
        }
    }
    Some(Winnability::Unwinnable)
}
