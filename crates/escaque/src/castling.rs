//! Castling rights (derechos de enroque).

use crate::{Color, File, Square};

/// One of the four castlings.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// 0-0, short castling, with the h-rook.
    KingSide,
    /// 0-0-0, long castling, with the a-rook.
    QueenSide,
}

impl CastlingSide {
    /// Both sides, short first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// The king's destination square for `color`.
    pub const fn king_to(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::G1,
            (CastlingSide::QueenSide, Color::White) => Square::C1,
            (CastlingSide::KingSide, Color::Black) => Square::G8,
            (CastlingSide::QueenSide, Color::Black) => Square::C8,
        }
    }

    /// The rook's starting square for `color`.
    pub const fn rook_from(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::H1,
            (CastlingSide::QueenSide, Color::White) => Square::A1,
            (CastlingSide::KingSide, Color::Black) => Square::H8,
            (CastlingSide::QueenSide, Color::Black) => Square::A8,
        }
    }

    /// The rook's destination square for `color`.
    pub const fn rook_to(self, color: Color) -> Square {
        match (self, color) {
            (CastlingSide::KingSide, Color::White) => Square::F1,
            (CastlingSide::QueenSide, Color::White) => Square::D1,
            (CastlingSide::KingSide, Color::Black) => Square::F8,
            (CastlingSide::QueenSide, Color::Black) => Square::D8,
        }
    }

    /// The side a king move `king_to` castles to (by its column).
    pub const fn from_king_to(king_to: Square) -> CastlingSide {
        if king_to.file().index() >= 4 {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }
}

/// The king's starting square for `color` (e1 or e8).
pub const fn king_home(color: Color) -> Square {
    match color {
        Color::White => Square::E1,
        Color::Black => Square::E8,
    }
}

/// The castling rights still held: four bits in Polyglot's order (White
/// short, White long, Black short, Black long) and, for each right, the file
/// of the rook it castles with.
///
/// In standard chess the rooks are on the a and h files; in Chess960 (FIDE
/// Laws, Guidelines III) each right remembers its rook's file, because the
/// king and the rooks may start on other squares. The short right's rook
/// stands beside the king towards the h file, the long right's towards the a
/// file. A right not held keeps the standard file, so two equal sets of
/// rights compare equal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CastlingRights {
    bits: u8,
    /// Rook files, indexed like the bits.
    files: [u8; 4],
}

impl Default for CastlingRights {
    fn default() -> CastlingRights {
        CastlingRights::NONE
    }
}

/// The standard rook file of each right: h, a, h, a.
const STANDARD_FILES: [u8; 4] = [7, 0, 7, 0];

/// The right whose standard rook stands on each square (a1, h1, a8, h8).
const CORNER_RIGHTS: [u8; 64] = {
    let mut t = [0u8; 64];
    t[0] = 2; // a1: White long
    t[7] = 1; // h1: White short
    t[56] = 8; // a8: Black long
    t[63] = 4; // h8: Black short
    t
};

impl CastlingRights {
    /// No rights.
    pub const NONE: CastlingRights = CastlingRights {
        bits: 0,
        files: STANDARD_FILES,
    };
    /// All four rights, with the rooks on the a and h files.
    pub const ALL: CastlingRights = CastlingRights {
        bits: 15,
        files: STANDARD_FILES,
    };

    #[inline]
    const fn index(color: Color, side: CastlingSide) -> usize {
        color as usize * 2 + side as usize
    }

    #[inline]
    const fn bit(color: Color, side: CastlingSide) -> u8 {
        1 << Self::index(color, side)
    }

    /// True if `color` may still castle to `side` (the king and that rook have not
    /// moved; whether castling is possible right now is another matter).
    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.bits & Self::bit(color, side) != 0
    }

    /// True if `color` has either right.
    #[inline]
    pub const fn has_color(self, color: Color) -> bool {
        self.bits & (3 << (color as u8 * 2)) != 0
    }

    /// True if any right is held.
    #[inline]
    pub const fn any(self) -> bool {
        self.bits != 0
    }

    /// With one right added, its rook on the standard file (h or a).
    #[inline]
    pub const fn with(self, color: Color, side: CastlingSide) -> CastlingRights {
        let mut r = self;
        r.bits |= Self::bit(color, side);
        r.files[Self::index(color, side)] = STANDARD_FILES[Self::index(color, side)];
        r
    }

    /// With one right added, its rook on `file` (Chess960).
    #[inline]
    pub const fn with_rook(self, color: Color, side: CastlingSide, file: File) -> CastlingRights {
        let mut r = self;
        r.bits |= Self::bit(color, side);
        r.files[Self::index(color, side)] = file.index() as u8;
        r
    }

    /// With one right removed.
    #[inline]
    pub const fn without(self, color: Color, side: CastlingSide) -> CastlingRights {
        let mut r = self;
        r.bits &= !Self::bit(color, side);
        r.files[Self::index(color, side)] = STANDARD_FILES[Self::index(color, side)];
        r
    }

    /// The four bits (White short = 1, White long = 2, Black short = 4, Black long = 8).
    #[inline]
    pub const fn bits(self) -> u8 {
        self.bits
    }

    /// The square of the rook `color` castles to `side` with, if that right is
    /// held.
    #[inline]
    pub const fn rook(self, color: Color, side: CastlingSide) -> Option<Square> {
        if self.has(color, side) {
            Some(self.rook_unchecked(color, side))
        } else {
            None
        }
    }

    /// The rook square of a right (meaningful when it is held).
    #[inline]
    pub(crate) const fn rook_unchecked(self, color: Color, side: CastlingSide) -> Square {
        let rank = match color {
            Color::White => 0,
            Color::Black => 56,
        };
        Square::new_unchecked(rank + self.files[Self::index(color, side)] as u32)
    }

    /// [`CastlingRights::is_standard`] in one comparison (the files of
    /// rights not held are kept standard).
    #[inline]
    pub(crate) fn has_standard_rooks(self) -> bool {
        u32::from_le_bytes(self.files) == u32::from_le_bytes(STANDARD_FILES)
    }

    /// True if every right held castles with a rook on its standard file (a
    /// or h): the rights standard chess can have.
    #[inline]
    pub const fn is_standard(self) -> bool {
        let mut i = 0;
        while i < 4 {
            if self.bits & (1 << i) != 0 && self.files[i] != STANDARD_FILES[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The rights that survive a move from `from` to `to` by `us` (all of
    /// `us`'s if the king moved, and the right of any castling rook that
    /// leaves its square or is captured there). Callers skip it when no right
    /// is held.
    #[inline]
    pub(crate) fn after_move(
        self,
        us: Color,
        king_moved: bool,
        from: Square,
        to: Square,
    ) -> CastlingRights {
        let mut lost = if king_moved { 3 << (us as u8 * 2) } else { 0 };
        if self.has_standard_rooks() {
            // The rooks in the corners: one table look-up per square.
            lost |= CORNER_RIGHTS[from.index()] | CORNER_RIGHTS[to.index()];
        } else {
            let (f, t) = (from.index() as u8, to.index() as u8);
            for i in 0..4 {
                let sq = self.files[i] + if i >= 2 { 56 } else { 0 };
                if sq == f || sq == t {
                    lost |= 1 << i;
                }
            }
        }
        lost &= self.bits;
        if lost == 0 {
            return self;
        }
        let mut r = self;
        r.bits &= !lost;
        for (i, file) in r.files.iter_mut().enumerate() {
            if lost & (1 << i) != 0 {
                *file = STANDARD_FILES[i];
            }
        }
        r
    }

    /// FEN text in the standard letters: `KQkq`, a subset of it, or `-` (for
    /// the X-FEN or Shredder-FEN of a Chess960 position, see
    /// [`Position::to_fen_with`](crate::Position::to_fen_with)).
    pub fn to_fen(self) -> String {
        let mut s = String::new();
        for (color, side, c) in [
            (Color::White, CastlingSide::KingSide, 'K'),
            (Color::White, CastlingSide::QueenSide, 'Q'),
            (Color::Black, CastlingSide::KingSide, 'k'),
            (Color::Black, CastlingSide::QueenSide, 'q'),
        ] {
            if self.has(color, side) {
                s.push(c);
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

/// Which castling rules a FEN is read with.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingMode {
    /// Standard chess: the king on e1/e8, the rooks on the a and h files, the
    /// castling field in `KQkq` letters.
    #[default]
    Standard,
    /// Chess960 (FIDE Laws, Guidelines III): the king and the rooks anywhere
    /// on the first row, the castling field in X-FEN (`KQkq`, with a rook's
    /// file letter where `K`/`Q` would be ambiguous) or Shredder-FEN (`HAha`).
    Chess960,
}

/// How a FEN's castling field is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum CastlingStyle {
    /// `KQkq`, with the rook's file letter only where `K`/`Q` (the outermost
    /// rook on that side) would name another rook (X-FEN). A standard
    /// position is written exactly as standard FEN.
    #[default]
    XFen,
    /// The rooks' file letters: `HAha` (Shredder-FEN).
    Shredder,
}
