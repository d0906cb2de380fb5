//! Legal move generation, directly (not generate-then-test): check evasions,
//! pins and the en passant discovered-check case are handled while generating.
//!
//! Moves are produced in bulk — one origin with a set of destinations, or a whole
//! shifted set of pawns — to a [`MoveVisitor`], so a caller that only counts (perft
//! leaves) never builds a list, and callers can mask destinations (captures only,
//! quiet moves only) with [`Position::legal_moves_to`].

use arrayvec::ArrayVec;

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::castling::king_home;
use crate::{Bitboard, CastlingSide, Color, File, Move, Position, Rank, Role, Square};

/// The most legal moves any chess position has is 218; this leaves room.
pub const MAX_MOVES: usize = 256;

/// A list of moves with no heap allocation.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Receives moves from the generator in bulk.
pub trait MoveVisitor {
    /// Normal moves of the piece on `from` to each square of `to` (never a
    /// pawn reaching the last row).
    fn normal(&mut self, from: Square, to: Bitboard);
    /// A pawn on `from` reaching the last row on each square of `to`: four moves
    /// each (queen, rook, bishop, knight).
    fn promotions(&mut self, from: Square, to: Bitboard);
    /// Pawn moves that are not promotions: for each square `t` of `to`, the pawn
    /// comes from `t - delta` (square indices).
    fn pawn_shift(&mut self, to: Bitboard, delta: i32);
    /// Pawn promotions in bulk: for each square `t` of `to`, from `t - delta`.
    fn promotion_shift(&mut self, to: Bitboard, delta: i32);
    /// A castling or an en passant capture.
    fn special(&mut self, m: Move);
    /// True once the visitor needs no more moves: the generator then stops
    /// between groups of moves. A visitor that wants them all leaves the
    /// default, which costs nothing.
    #[inline]
    fn done(&self) -> bool {
        false
    }
}

impl MoveVisitor for MoveList {
    #[inline]
    fn normal(&mut self, from: Square, to: Bitboard) {
        for t in to {
            self.push(Move::normal(from, t));
        }
    }

    #[inline]
    fn promotions(&mut self, from: Square, to: Bitboard) {
        for t in to {
            for role in Role::PROMOTIONS {
                self.push(Move::promotion(from, t, role));
            }
        }
    }

    #[inline]
    fn pawn_shift(&mut self, to: Bitboard, delta: i32) {
        for t in to {
            let from = Square::new_unchecked((t.index() as i32 - delta) as u32);
            self.push(Move::normal(from, t));
        }
    }

    #[inline]
    fn promotion_shift(&mut self, to: Bitboard, delta: i32) {
        for t in to {
            let from = Square::new_unchecked((t.index() as i32 - delta) as u32);
            for role in Role::PROMOTIONS {
                self.push(Move::promotion(from, t, role));
            }
        }
    }

    #[inline]
    fn special(&mut self, m: Move) {
        self.push(m);
    }
}

/// Notes whether there is any move, and stops the generator at the first.
struct Any(bool);

impl MoveVisitor for Any {
    #[inline]
    fn normal(&mut self, _: Square, to: Bitboard) {
        self.0 |= to.any();
    }
    #[inline]
    fn promotions(&mut self, _: Square, to: Bitboard) {
        self.0 |= to.any();
    }
    #[inline]
    fn pawn_shift(&mut self, to: Bitboard, _: i32) {
        self.0 |= to.any();
    }
    #[inline]
    fn promotion_shift(&mut self, to: Bitboard, _: i32) {
        self.0 |= to.any();
    }
    #[inline]
    fn special(&mut self, _: Move) {
        self.0 = true;
    }
    #[inline]
    fn done(&self) -> bool {
        self.0
    }
}

/// Counts moves without listing them.
struct Counter(usize);

impl MoveVisitor for Counter {
    #[inline]
    fn normal(&mut self, _: Square, to: Bitboard) {
        self.0 += to.count();
    }
    #[inline]
    fn promotions(&mut self, _: Square, to: Bitboard) {
        self.0 += 4 * to.count();
    }
    #[inline]
    fn pawn_shift(&mut self, to: Bitboard, _: i32) {
        self.0 += to.count();
    }
    #[inline]
    fn promotion_shift(&mut self, to: Bitboard, _: i32) {
        self.0 += 4 * to.count();
    }
    #[inline]
    fn special(&mut self, _: Move) {
        self.0 += 1;
    }
}

const NOT_FILE_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_FILE_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

impl Position {
    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(Bitboard::FULL, &mut list);
        list
    }

    /// The legal moves whose destination is in `targets` (for example the
    /// opponent's pieces, for captures). Castling counts by the king's
    /// destination, en passant by the square the pawn lands on.
    pub fn legal_moves_to(&self, targets: Bitboard) -> MoveList {
        let mut list = MoveList::new();
        self.generate(targets, &mut list);
        list
    }

    /// The number of legal moves, without listing them.
    pub fn count_legal_moves(&self) -> usize {
        let mut c = Counter(0);
        self.generate(Bitboard::FULL, &mut c);
        c.0
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        let mut any = Any(false);
        self.generate(Bitboard::FULL, &mut any);
        any.0
    }

    /// True if `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves_to(Bitboard::from_square(m.to()))
            .contains(&m)
    }

    /// Generates every legal move whose destination is in `mask` into `v`.
    pub fn generate<V: MoveVisitor>(&self, mask: Bitboard, v: &mut V) {
        let us = self.turn;
        let them = us.other();
        let ours = self.by_color(us);
        let theirs = self.by_color(them);
        let occ = ours | theirs;
        let king = self.king(us);
        let checkers = self.attackers_to(king, them, occ);

        // King moves: to squares the opponent does not attack once the king has
        // left its square (so a slider's ray through the king counts).
        let danger = self.attacked_squares(them, occ.without(king));
        v.normal(king, king_attacks(king) & !ours & !danger & mask);

        if checkers.more_than_one() || v.done() {
            return; // double check: only the king may move
        }
        let check_mask = match checkers.single() {
            Some(c) => between(king, c).with(c),
            None => Bitboard::FULL,
        };
        let target = !ours & check_mask & mask;
        let pinned = self.pinned(us, king);

        // Knights: a pinned knight can never move.
        for from in self.pieces(us, Role::Knight) & !pinned {
            v.normal(from, knight_attacks(from) & target);
        }
        let diag = self.pieces(us, Role::Bishop) | self.pieces(us, Role::Queen);
        let orth = self.pieces(us, Role::Rook) | self.pieces(us, Role::Queen);
        for from in diag & !pinned {
            v.normal(from, bishop_attacks(from, occ) & target);
        }
        for from in orth & !pinned {
            v.normal(from, rook_attacks(from, occ) & target);
        }
        if v.done() {
            return;
        }
        if checkers.is_empty() {
            // A pinned piece may move along the pin line (never when in check).
            for from in diag & pinned {
                v.normal(from, bishop_attacks(from, occ) & target & line(king, from));
            }
            for from in orth & pinned {
                v.normal(from, rook_attacks(from, occ) & target & line(king, from));
            }
        }

        self.gen_pawns(v, us, king, pinned, target, checkers.is_empty());

        if let Some(ep) = self.ep_square {
            if mask.contains(ep) {
                self.gen_en_passant(v, us, king, ep);
            }
        }
        if checkers.is_empty() && self.castling.has_color(us) {
            if self.castling.has_standard_rooks() && king == king_home(us) {
                // Standard chess's castling (the common case, kept as short
                // as it was before Chess960): the king on e1/e8, the rooks in
                // the corners, so the rook's path lies within the king's and
                // no rook can shield the king's destination.
                for side in CastlingSide::ALL {
                    let to = side.king_to(us);
                    if !self.castling.has(us, side) || !mask.contains(to) {
                        continue;
                    }
                    let rook = side.rook_from(us);
                    let king_path = between(king, to).with(to);
                    if (between(king, rook) & occ).is_empty() && (king_path & danger).is_empty() {
                        v.special(Move::castle(king, to));
                    }
                }
            } else {
                self.gen_castling(v, us, king, occ, danger, mask);
            }
        }
    }

    /// Castling by the rules of Chess960 (FIDE Laws, Guidelines III), which
    /// are standard chess's rules when the king is on e1/e8 and the rooks on
    /// the a and h files: every square between the king and its destination
    /// (g or c) and between the rook and its destination (f or d), and those
    /// destinations, empty except for the king and that rook; the king not in
    /// check (the caller's test) and no square it passes or reaches attacked.
    #[inline(never)]
    fn gen_castling<V: MoveVisitor>(
        &self,
        v: &mut V,
        us: Color,
        king: Square,
        occ: Bitboard,
        danger: Bitboard,
        mask: Bitboard,
    ) {
        for side in CastlingSide::ALL {
            let Some(rook) = self.castling.rook(us, side) else {
                continue;
            };
            let to = side.king_to(us);
            if !mask.contains(to) {
                continue;
            }
            let rook_to = side.rook_to(us);
            let king_path = between(king, to).with(to);
            let rook_path = between(rook, rook_to).with(rook_to);
            let others = occ.without(king).without(rook);
            if ((king_path | rook_path) & others).any() || (king_path & danger).any() {
                continue;
            }
            // `danger` counts the rook as a blocker. A rook that is not in a
            // corner may be shielding the king's destination from a rook or
            // queen further along the first row: look again without it.
            let corner = matches!(rook.file(), File::A | File::H);
            if !corner {
                let after = others.with(rook_to);
                let sliders = self.by_color(us.other())
                    & (self.roles[Role::Rook.index()] | self.roles[Role::Queen.index()]);
                if (rook_attacks(to, after) & sliders).any() {
                    continue;
                }
            }
            v.special(Move::castle(king, to));
        }
    }

    #[inline]
    fn gen_pawns<V: MoveVisitor>(
        &self,
        v: &mut V,
        us: Color,
        king: Square,
        pinned: Bitboard,
        target: Bitboard,
        not_in_check: bool,
    ) {
        let pawns = self.pieces(us, Role::Pawn);
        let theirs = self.by_color(us.other());
        let empty = !self.occupied();
        let last = Bitboard::rank(Rank::EIGHTH.relative_to(us));
        let third = Bitboard::rank(Rank::THIRD.relative_to(us));
        let free = pawns & !pinned;
        let (up, left, right): (i32, i32, i32) = match us {
            Color::White => (8, 7, 9),
            Color::Black => (-8, -9, -7),
        };
        let shift = |b: Bitboard, d: i32| -> Bitboard {
            if d > 0 {
                Bitboard(b.0 << d)
            } else {
                Bitboard(b.0 >> -d)
            }
        };

        let single = shift(free, up) & empty;
        let double = shift(single & third, up) & empty & target;
        let single = single & target;
        // "left" captures toward file a, "right" toward file h.
        let cap_l = shift(Bitboard(free.0 & NOT_FILE_A), left) & theirs & target;
        let cap_r = shift(Bitboard(free.0 & NOT_FILE_H), right) & theirs & target;

        v.pawn_shift(single & !last, up);
        v.pawn_shift(double, 2 * up);
        v.pawn_shift(cap_l & !last, left);
        v.pawn_shift(cap_r & !last, right);
        v.promotion_shift(single & last, up);
        v.promotion_shift(cap_l & last, left);
        v.promotion_shift(cap_r & last, right);

        if not_in_check {
            for from in pawns & pinned {
                let pin_line = line(king, from);
                let b = Bitboard::from_square(from);
                let one = shift(b, up) & empty;
                let two = shift(one & third, up) & empty;
                let caps = pawn_attacks(us, from) & theirs;
                let to = (one | two | caps) & target & pin_line;
                v.normal(from, to & !last);
                v.promotions(from, to & last);
            }
        }
    }

    #[inline]
    fn gen_en_passant<V: MoveVisitor>(&self, v: &mut V, us: Color, king: Square, ep: Square) {
        let them = us.other();
        // The captured pawn stands just behind the en passant square, seen from us.
        let Some(victim) = ep.offset(0, us.fold(-1, 1)) else {
            return;
        };
        for from in pawn_attacks(them, ep) & self.pieces(us, Role::Pawn) {
            // Play it on the occupancy and look for any attack on the king: this
            // covers pins, the rank-wise discovered check through both pawns, and
            // checks that the capture does not answer.
            let occ = (self.occupied().without(from).without(victim)).with(ep);
            let theirs = self.by_color(them).without(victim);
            let rq = self.roles[Role::Rook.index()] | self.roles[Role::Queen.index()];
            let bq = self.roles[Role::Bishop.index()] | self.roles[Role::Queen.index()];
            let attacked = theirs
                & ((rook_attacks(king, occ) & rq)
                    | (bishop_attacks(king, occ) & bq)
                    | (knight_attacks(king) & self.roles[Role::Knight.index()])
                    | (pawn_attacks(us, king) & self.roles[Role::Pawn.index()]));
            if attacked.is_empty() {
                v.special(Move::en_passant(from, ep));
            }
        }
    }
}
