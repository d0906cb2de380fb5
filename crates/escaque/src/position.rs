//! A legal chess position: where the pieces stand, whose move it is, the castling
//! rights, the en passant square and the move counters.

use crate::attacks::{
    self, between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::zobrist::{self, piece_key_parts};
use crate::{
    Bitboard, CastlingRights, CastlingSide, Color, Move, MoveKind, Piece, Rank, Role, Square,
};

/// A position that obeys the rules: exactly one king per side, no pawn on the
/// first or last row, the side not to move not in check, castling rights that
/// match the placement, a possible en passant square, at most two checkers.
///
/// `Position` is small and `Copy`: to try a move, copy it and play the move on the
/// copy. The initial position is [`Position::new`] (or `Default`).
///
/// ```
/// use escaque::{Position, Square, Move};
///
/// let mut pos = Position::new();
/// assert_eq!(pos.legal_moves().len(), 20);
/// pos.play(Move::normal(Square::E2, Square::E4)).unwrap();
/// assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) roles: [Bitboard; 6],
    pub(crate) colors: [Bitboard; 2],
    pub(crate) turn: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The initial position (posición inicial).
    pub fn new() -> Position {
        let mut pos = Position::with_back_rank([
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ]);
        pos.castling = CastlingRights::ALL;
        pos.hash = pos.compute_hash();
        pos
    }

    /// A starting array: `back` on the first and eighth ranks (file a first),
    /// pawns on the second and seventh, White to move, no castling rights and
    /// the hash left for the caller to compute once the rights are set.
    pub(crate) fn with_back_rank(back: [Role; 8]) -> Position {
        let mut pos = Position::empty();
        for (file, role) in crate::File::ALL.into_iter().zip(back) {
            pos.put(Color::White, role, Square::from_coords(file, Rank::FIRST));
            pos.put(Color::Black, role, Square::from_coords(file, Rank::EIGHTH));
            pos.put(
                Color::White,
                Role::Pawn,
                Square::from_coords(file, Rank::SECOND),
            );
            pos.put(
                Color::Black,
                Role::Pawn,
                Square::from_coords(file, Rank::SEVENTH),
            );
        }
        pos
    }

    /// An empty board with White to move; only for building positions that are
    /// then checked (see `fen`).
    pub(crate) fn empty() -> Position {
        Position {
            roles: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            turn: Color::White,
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            hash: 0,
        }
    }

    #[inline]
    pub(crate) fn put(&mut self, color: Color, role: Role, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.roles[role.index()] |= b;
        self.colors[color.index()] |= b;
    }

    // ---- the board ----

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights still held.
    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en passant target square: the square a pawn skipped over with a double
    /// step on the last move, as FEN records it (whether or not a capture there is
    /// possible). See [`Position::legal_ep_square`].
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The en passant square only if an en passant capture is legal right now:
    /// the "possibility" that FIDE 9.2.3 compares for repetitions.
    pub fn legal_ep_square(&self) -> Option<Square> {
        let ep = self.ep_square?;
        let mut found = false;
        for from in pawn_attacks(self.turn.other(), ep) & self.pieces(self.turn, Role::Pawn) {
            if self.is_legal(Move::en_passant(from, ep)) {
                found = true;
            }
        }
        found.then_some(ep)
    }

    /// Half-moves since the last capture or pawn move (for the fifty- and
    /// seventy-five-move rules).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmoves
    }

    /// The number of the full move, starting at 1 and increased after Black moves.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmoves
    }

    /// The Polyglot Zobrist hash of the position (see [`crate::zobrist`]).
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// All squares with a piece of `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// All squares with a piece of kind `role`, either colour.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.roles[role.index()]
    }

    /// The squares of `color`'s pieces of kind `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.roles[role.index()] & self.colors[color.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king(&self, color: Color) -> Square {
        // Every Position has exactly one king per side.
        self.pieces(color, Role::King).first().unwrap_or(Square::A1)
    }

    /// The kind of piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.roles[r.index()].contains(sq))
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.colors[0].contains(sq) {
            Some(Color::White)
        } else if self.colors[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece {
            color: self.color_at(sq)?,
            role: self.role_at(sq)?,
        })
    }

    // ---- attacks and checks ----

    /// Pieces of `attacker` that attack `sq`, with the board occupied as `occupied`.
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color(attacker);
        let rq = self.roles[Role::Rook.index()] | self.roles[Role::Queen.index()];
        let bq = self.roles[Role::Bishop.index()] | self.roles[Role::Queen.index()];
        them & ((rook_attacks(sq, occupied) & rq)
            | (bishop_attacks(sq, occupied) & bq)
            | (knight_attacks(sq) & self.roles[Role::Knight.index()])
            | (king_attacks(sq) & self.roles[Role::King.index()])
            | (pawn_attacks(attacker.other(), sq) & self.roles[Role::Pawn.index()]))
    }

    /// True if `sq` is attacked by a piece of `attacker`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, attacker: Color) -> bool {
        self.attackers_to(sq, attacker, self.occupied()).any()
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers_to(self.king(self.turn), self.turn.other(), self.occupied())
    }

    /// True if the side to move is in check (jaque).
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// True if playing `m` (one of [`Position::legal_moves`]) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        self.gives_check_with(m, &self.check_info())
    }

    /// What [`Position::gives_check_with`] needs, computed once for every
    /// move of the position.
    #[inline]
    pub(crate) fn check_info(&self) -> CheckInfo {
        let us = self.turn;
        let king = self.king(us.other());
        let occ = self.occupied();
        let ours = self.by_color(us);
        let rq = self.roles[Role::Rook.index()] | self.roles[Role::Queen.index()];
        let bq = self.roles[Role::Bishop.index()] | self.roles[Role::Queen.index()];
        // Our pieces alone between the king and one of our sliders: moving
        // one off that line uncovers a check.
        let snipers = ours
            & ((rook_attacks(king, Bitboard::EMPTY) & rq)
                | (bishop_attacks(king, Bitboard::EMPTY) & bq));
        let discoverers = self.sole_blockers(king, snipers) & ours;
        CheckInfo {
            king,
            pawn: pawn_attacks(us.other(), king),
            knight: knight_attacks(king),
            bishop: bishop_attacks(king, occ),
            rook: rook_attacks(king, occ),
            discoverers,
        }
    }

    /// [`Position::gives_check`] with the position's [`CheckInfo`] and the
    /// kind of piece that moves.
    #[inline]
    pub(crate) fn gives_check_with(&self, m: Move, info: &CheckInfo) -> bool {
        let (from, to) = (m.from(), m.to());
        let discovered = info.discoverers.contains(from) && !line(from, info.king).contains(to);
        match m.kind() {
            MoveKind::Normal => {
                // A slider's ray from the king with today's occupancy: the
                // square the piece leaves can only lie beyond `to` on that
                // ray if the piece gave check already, which no legal
                // position allows.
                let direct = match self.role_at(from) {
                    Some(Role::Pawn) => info.pawn,
                    Some(Role::Knight) => info.knight,
                    Some(Role::Bishop) => info.bishop,
                    Some(Role::Rook) => info.rook,
                    Some(Role::Queen) => info.bishop | info.rook,
                    _ => Bitboard::EMPTY,
                };
                discovered || direct.contains(to)
            }
            MoveKind::Promotion(role) => {
                let occ = self.occupied().without(from).with(to);
                discovered || attacks::attacks(role, self.turn, to, occ).contains(info.king)
            }
            MoveKind::EnPassant | MoveKind::Castle => {
                let mut next = *self;
                next.play_unchecked(m);
                next.is_check()
            }
        }
    }

    /// True if the side to move is checkmated (jaque mate).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// True if the side to move is stalemated (ahogado): not in check and without
    /// a legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// True if neither side can checkmate by any series of legal moves because of
    /// the material left (FIDE 5.2.2, the cases the rule books list): K v K,
    /// K+A v K, K+C v K, and kings with any number of bishops all standing on
    /// squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        if (self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen)).any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        if knights.any() {
            // A lone knight against a bare king; anything more can mate (with help).
            return knights.count() == 1 && bishops.is_empty();
        }
        (bishops & Bitboard::LIGHT).is_empty() || (bishops & Bitboard::DARK).is_empty()
    }

    /// True if `color` could not checkmate by any series of legal moves whatever
    /// the opponent does, judged by material (the test used when `color`'s
    /// opponent runs out of time, FIDE 6.9, and for resignation, 5.1.2):
    /// a bare king; a king and one knight, unless the opponent has pieces other
    /// than queens that could block its own king; a king and bishops all on one
    /// colour, unless the opponent has pawns or knights (or bishops of the other
    /// colour) that could block.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.by_color(color);
        let theirs = self.by_color(color.other());
        if (ours
            & (self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen)))
        .any()
        {
            return false;
        }
        let our_knights = ours & self.by_role(Role::Knight);
        let our_bishops = ours & self.by_role(Role::Bishop);
        if our_knights.any() {
            // K+N can only mate if the opponent has a piece (other than a queen)
            // that can stand in its own king's way.
            return our_knights.count() == 1
                && our_bishops.is_empty()
                && (theirs & !self.by_role(Role::King) & !self.by_role(Role::Queen)).is_empty();
        }
        if our_bishops.any() {
            let bishops = self.by_role(Role::Bishop);
            let same_colour =
                (bishops & Bitboard::LIGHT).is_empty() || (bishops & Bitboard::DARK).is_empty();
            return same_colour
                && self.by_role(Role::Pawn).is_empty()
                && self.by_role(Role::Knight).is_empty();
        }
        true
    }

    // ---- making moves ----

    /// Plays `m` without checking it. `m` must be one of [`Position::legal_moves`];
    /// anything else leaves a position that breaks the invariants (no panic, but
    /// meaningless results). Meant for search, where moves come from the generator.
    pub fn play_unchecked(&mut self, m: Move) {
        let moved = self.role_at(m.from()).unwrap_or(Role::Pawn);
        self.play_moving(m, moved);
    }

    /// [`Position::play_unchecked`] when the caller already knows `moved`, the
    /// kind of piece on the origin square.
    #[inline]
    pub(crate) fn play_moving(&mut self, m: Move, moved: Role) {
        let us = self.turn;
        let them = us.other();
        let from = m.from();
        let to = m.to();
        let mut hash = self.hash;
        if let Some(ep) = self.ep_square.take() {
            if self.ep_counts_in_hash(ep) {
                hash ^= zobrist::en_passant_key(ep);
            }
        }
        let mut reset_clock = moved == Role::Pawn;

        match m.kind() {
            MoveKind::Normal | MoveKind::Promotion(_) => {
                if let Some(captured) = self.role_at(to) {
                    self.toggle(them, captured, to);
                    hash ^= piece_key_parts(them, captured, to);
                    reset_clock = true;
                }
                self.toggle(us, moved, from);
                hash ^= piece_key_parts(us, moved, from);
                let placed = m.promotion_role().unwrap_or(moved);
                self.toggle(us, placed, to);
                hash ^= piece_key_parts(us, placed, to);
                if moved == Role::Pawn && from.index().abs_diff(to.index()) == 16 {
                    let ep = Square::new_unchecked(((from.index() + to.index()) / 2) as u32);
                    self.ep_square = Some(ep);
                }
            }
            MoveKind::EnPassant => {
                let victim = Square::from_coords(to.file(), from.rank());
                self.toggle(them, Role::Pawn, victim);
                self.toggle(us, Role::Pawn, from);
                self.toggle(us, Role::Pawn, to);
                hash ^= piece_key_parts(them, Role::Pawn, victim)
                    ^ piece_key_parts(us, Role::Pawn, from)
                    ^ piece_key_parts(us, Role::Pawn, to);
            }
            MoveKind::Castle => {
                // The king's move, from its square to g or c (which may be the
                // square it stands on, or the rook's): the rook comes from the
                // castling right. Xor makes overlapping squares come out right.
                let side = CastlingSide::from_king_to(to);
                let rf = self.castling.rook_unchecked(us, side);
                let rt = side.rook_to(us);
                self.toggle(us, Role::King, from);
                self.toggle(us, Role::King, to);
                self.toggle(us, Role::Rook, rf);
                self.toggle(us, Role::Rook, rt);
                hash ^= piece_key_parts(us, Role::King, from)
                    ^ piece_key_parts(us, Role::King, to)
                    ^ piece_key_parts(us, Role::Rook, rf)
                    ^ piece_key_parts(us, Role::Rook, rt);
            }
        }

        if self.castling.any() {
            let after = self.castling.after_move(us, moved == Role::King, from, to);
            if after != self.castling {
                hash ^= zobrist::castling_key(self.castling) ^ zobrist::castling_key(after);
                self.castling = after;
            }
        }
        // Counters saturate: a FEN may start them anywhere up to `u32::MAX`.
        self.halfmoves = if reset_clock {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
        hash ^= zobrist::WHITE_TO_MOVE_KEY;
        if let Some(ep) = self.ep_square {
            if self.ep_counts_in_hash(ep) {
                hash ^= zobrist::en_passant_key(ep);
            }
        }
        self.hash = hash;
    }

    /// Plays a move recorded in a game, which may be [`Move::NULL`] (then the
    /// turn passes as [`Position::null_move`] does); `false`, with the
    /// position unchanged, for a null move while in check. `m` must otherwise
    /// be legal, as for [`Position::play_unchecked`].
    pub fn play_recorded(&mut self, m: Move) -> bool {
        if m.is_null() {
            match self.null_move() {
                Some(next) => *self = next,
                None => return false,
            }
        } else {
            self.play_unchecked(m);
        }
        true
    }

    /// Passes the move to the opponent without moving a piece (a "null move", for
    /// search). `None` when the side to move is in check, where that would be
    /// meaningless.
    pub fn null_move(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut next = *self;
        if let Some(ep) = next.ep_square.take() {
            if self.ep_counts_in_hash(ep) {
                next.hash ^= zobrist::en_passant_key(ep);
            }
        }
        next.turn = self.turn.other();
        next.hash ^= zobrist::WHITE_TO_MOVE_KEY;
        next.halfmoves = next.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            next.fullmoves = next.fullmoves.saturating_add(1);
        }
        Some(next)
    }

    #[inline]
    fn toggle(&mut self, color: Color, role: Role, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.roles[role.index()] ^= b;
        self.colors[color.index()] ^= b;
    }

    /// Polyglot's rule: the en passant file is hashed only if a pawn of the side
    /// to move stands beside the pawn that just made its double step.
    #[inline]
    fn ep_counts_in_hash(&self, ep: Square) -> bool {
        (pawn_attacks(self.turn.other(), ep) & self.pieces(self.turn, Role::Pawn)).any()
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in self.pieces(color, role) {
                    h ^= piece_key_parts(color, role, sq);
                }
            }
        }
        h ^= zobrist::castling_key(self.castling);
        if let Some(ep) = self.ep_square {
            if self.ep_counts_in_hash(ep) {
                h ^= zobrist::en_passant_key(ep);
            }
        }
        if self.turn == Color::White {
            h ^= zobrist::WHITE_TO_MOVE_KEY;
        }
        h
    }

    // ---- helpers for move generation ----

    /// Our pieces pinned to our king, and the enemy sliders that pin them.
    #[inline]
    pub(crate) fn pinned(&self, us: Color, king: Square) -> Bitboard {
        let them = self.by_color(us.other());
        let rq = self.roles[Role::Rook.index()] | self.roles[Role::Queen.index()];
        let bq = self.roles[Role::Bishop.index()] | self.roles[Role::Queen.index()];
        let snipers = them & ((rook_attacks(king, them) & rq) | (bishop_attacks(king, them) & bq));
        self.sole_blockers(king, snipers) & self.by_color(us)
    }

    /// The pieces, of either colour, that stand alone between `king` and
    /// one of `snipers`: moving one off that line opens it (a pin for the
    /// king's side, a discovered check for the sniper's).
    #[inline]
    fn sole_blockers(&self, king: Square, snipers: Bitboard) -> Bitboard {
        let occ = self.occupied();
        let mut sole = Bitboard::EMPTY;
        for s in snipers {
            let blockers = between(king, s) & occ;
            if !blockers.more_than_one() {
                sole |= blockers;
            }
        }
        sole
    }

    /// Every square attacked by `attacker`, as if `occupied` were the occupancy
    /// (the defending king is left out of it so that sliders x-ray through it).
    pub(crate) fn attacked_squares(&self, attacker: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color(attacker);
        let pawns = self.pieces(attacker, Role::Pawn);
        let mut danger = match attacker {
            Color::White => Bitboard(
                ((pawns.0 << 7) & !0x8080_8080_8080_8080)
                    | ((pawns.0 << 9) & !0x0101_0101_0101_0101),
            ),
            Color::Black => Bitboard(
                ((pawns.0 >> 9) & !0x8080_8080_8080_8080)
                    | ((pawns.0 >> 7) & !0x0101_0101_0101_0101),
            ),
        };
        for sq in them & self.roles[Role::Knight.index()] {
            danger |= knight_attacks(sq);
        }
        for sq in them & (self.roles[Role::Bishop.index()] | self.roles[Role::Queen.index()]) {
            danger |= bishop_attacks(sq, occupied);
        }
        for sq in them & (self.roles[Role::Rook.index()] | self.roles[Role::Queen.index()]) {
            danger |= rook_attacks(sq, occupied);
        }
        danger |= king_attacks(self.king(attacker));
        danger
    }

    /// True if a move of `role` from `from` to `to` follows that piece's way of
    /// moving on this board (ignoring checks, pins, castling and en passant).
    pub(crate) fn reaches(&self, role: Role, color: Color, from: Square, to: Square) -> bool {
        let occ = self.occupied();
        match role {
            Role::Pawn => {
                let captures = pawn_attacks(color, from) & self.by_color(color.other());
                let one = Bitboard::from_square(from).forward(color) & !occ;
                let two =
                    (one & Bitboard::rank(Rank::THIRD.relative_to(color))).forward(color) & !occ;
                (captures | one | two).contains(to)
            }
            _ => attacks::attacks(role, color, from, occ).contains(to),
        }
    }
}

/// The squares from which each kind of piece of the side to move would check
/// the other king, and the pieces whose move uncovers a check: see
/// [`Position::check_info`].
#[derive(Copy, Clone, Debug)]
pub(crate) struct CheckInfo {
    king: Square,
    pawn: Bitboard,
    knight: Bitboard,
    bishop: Bitboard,
    rook: Bitboard,
    discoverers: Bitboard,
}

impl core::fmt::Debug for Position {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn check_every_move(p: &Position) {
        for &m in p.legal_moves().iter() {
            let mut next = *p;
            next.play_unchecked(m);
            assert_eq!(p.gives_check(m), next.is_check(), "{} {m:?}", p.to_fen());
        }
    }

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            // Discovered checks: by castling's rook, en passant through two
            // pawns, a promotion off a line, a king stepping aside.
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
            "8/8/8/RPp4k/8/8/8/K7 w - c6 0 1",
            "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
            "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1",
            "7k/8/8/4N3/3B4/8/1K6/8 w - - 0 1",
            "4k3/8/8/8/4K3/8/8/4R3 w - - 0 1",
        ] {
            check_every_move(&Position::from_fen(fen).unwrap());
        }
        // Positions of random games.
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..300 {
            let mut p = Position::new();
            for _ in 0..200 {
                check_every_move(&p);
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
}
