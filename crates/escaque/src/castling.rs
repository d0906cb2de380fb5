//! Castling rights (derechos de enroque).

use crate::{Color, Square};

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

/// The castling rights still held, four bits in Polyglot's order: White short,
/// White long, Black short, Black long.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No rights.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    pub const ALL: CastlingRights = CastlingRights(15);

    #[inline]
    const fn bit(color: Color, side: CastlingSide) -> u8 {
        1 << (color as u8 * 2 + side as u8)
    }

    /// True if `color` may still castle to `side` (the king and that rook have not
    /// moved; whether castling is possible right now is another matter).
    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    /// True if `color` has either right.
    #[inline]
    pub const fn has_color(self, color: Color) -> bool {
        self.0 & (3 << (color as u8 * 2)) != 0
    }

    /// With one right added.
    #[inline]
    pub const fn with(self, color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(self.0 | Self::bit(color, side))
    }

    /// With one right removed.
    #[inline]
    pub const fn without(self, color: Color, side: CastlingSide) -> CastlingRights {
        CastlingRights(self.0 & !Self::bit(color, side))
    }

    /// The four bits (White short = 1, White long = 2, Black short = 4, Black long = 8).
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The rights that survive a move touching `sq` (a king or rook leaving its
    /// home square, or a rook being captured there).
    #[inline]
    pub(crate) const fn after_touching(self, sq: Square) -> CastlingRights {
        let lost = match sq.index() {
            0 => 2,      // a1
            4 => 1 | 2,  // e1
            7 => 1,      // h1
            56 => 8,     // a8
            60 => 4 | 8, // e8
            63 => 4,     // h8
            _ => 0,
        };
        CastlingRights(self.0 & !lost)
    }

    /// FEN text: `KQkq`, a subset of it, or `-`.
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
