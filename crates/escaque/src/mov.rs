//! Moves: normal, castling, en passant, promotion.

use core::fmt;

use crate::{Role, Square};

/// What kind of move a [`Move`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move of one piece, capture or not, that is none of the others.
    Normal,
    /// Castling (enroque), encoded as the king's move: `e1g1` is 0-0.
    Castle,
    /// En passant capture (captura al paso); `to` is the square the pawn lands on.
    EnPassant,
    /// A pawn reaching the last row and becoming this piece (coronación).
    Promotion(Role),
}

/// A move, packed in 16 bits: origin, destination and kind.
///
/// A `Move` alone does not say which piece moves or whether it captures: ask the
/// [`Position`](crate::Position) it belongs to. Castling is written as the king's
/// move, as the FIDE coordinate notation and the UCI protocol do (`e1g1`).
///
/// **Castling, standard and Chess960.** A castling move is encoded as the
/// king's origin and its destination (g or c file) with the castling kind;
/// the side is the destination's file and the rook comes from the
/// position's castling rights, which remember the rook's file. This keeps
/// standard chess's moves exactly as they were (`e1g1`, same 16 bits in
/// transposition tables and books, no extra work in the generator) and is
/// never ambiguous in Chess960 either: the kind tells castling from a king
/// move to the same square, and a king already on g1 castling short is
/// `castle(g1, g1)`. The king-takes-own-rook form that UCI_Chess960 and
/// shakmaty use (`e1h1`, `g1h1`) is a notation, written by
/// [`coord::to_uci_in`](crate::coord::to_uci_in) and read by every move
/// reader, not the encoding: with it, `to()` would name a square the king
/// never goes to and every caller would need the mode to print a standard
/// move.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_CASTLE: u16 = 1;
const KIND_EP: u16 = 2;
const KIND_PROMO_BASE: u16 = 4; // + role index - 1: knight 4, bishop 5, rook 6, queen 7

impl Move {
    /// The null move: a pass, nothing moves (`--` in PGN, `0000` in UCI). It
    /// is never legal in a [`Position`](crate::Position); a PGN game may
    /// record one (analysis, ChessBase's `Z0`).
    pub const NULL: Move = Move(0);

    /// True for [`Move::NULL`].
    #[inline]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    #[inline]
    const fn pack(from: Square, to: Square, kind: u16) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind << 12)
    }

    /// A normal move (including captures and pawn pushes).
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_NORMAL)
    }

    /// Castling, given as the king's move (`e1g1`, `e1c1`, `e8g8`, `e8c8`;
    /// in Chess960 from the king's square, which may be the destination).
    #[inline]
    pub const fn castle(king_from: Square, king_to: Square) -> Move {
        Move::pack(king_from, king_to, KIND_CASTLE)
    }

    /// An en passant capture.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, KIND_EP)
    }

    /// A promotion to `role`, which should be a knight, bishop, rook or queen.
    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move::pack(from, to, KIND_PROMO_BASE + role.index() as u16 - 1)
    }

    /// Origin square.
    #[inline]
    pub const fn from(self) -> Square {
        Square::new_unchecked((self.0 & 63) as u32)
    }

    /// Destination square (for castling, the king's destination).
    #[inline]
    pub const fn to(self) -> Square {
        Square::new_unchecked(((self.0 >> 6) & 63) as u32)
    }

    /// The kind of move.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_CASTLE => MoveKind::Castle,
            KIND_EP => MoveKind::EnPassant,
            4 => MoveKind::Promotion(Role::Knight),
            5 => MoveKind::Promotion(Role::Bishop),
            6 => MoveKind::Promotion(Role::Rook),
            7 => MoveKind::Promotion(Role::Queen),
            _ => MoveKind::Normal,
        }
    }

    /// The promotion piece, if this is a promotion.
    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }

    /// True for castling.
    #[inline]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == KIND_CASTLE
    }

    /// True for en passant.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == KIND_EP
    }

    /// The 16-bit encoding, for compact storage (transposition tables, books).
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Reads a 16-bit encoding made by [`Move::to_u16`]; `None` if the kind bits
    /// are not a valid kind. (The move still has to be checked against a position.)
    pub const fn from_u16(raw: u16) -> Option<Move> {
        match raw >> 12 {
            KIND_NORMAL | KIND_CASTLE | KIND_EP | 4..=7 => Some(Move(raw)),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    /// UCI coordinate notation: `e2e4`, `e1g1`, `e7e8q`; `0000` for the null
    /// move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(r) = self.promotion_role() {
            write!(f, "{}", r.char_en().to_ascii_lowercase())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            MoveKind::Castle => write!(f, "Castle({self})"),
            MoveKind::EnPassant => write!(f, "EnPassant({self})"),
            _ => write!(f, "Move({self})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_and_unpacks() {
        let m = Move::promotion(Square::E7, Square::D8, Role::Knight);
        assert_eq!(m.from(), Square::E7);
        assert_eq!(m.to(), Square::D8);
        assert_eq!(m.kind(), MoveKind::Promotion(Role::Knight));
        assert_eq!(m.to_string(), "e7d8n");
        assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        assert!(Move::castle(Square::E1, Square::G1).is_castle());
        assert!(Move::en_passant(Square::E5, Square::D6).is_en_passant());
        for role in Role::PROMOTIONS {
            assert_eq!(
                Move::promotion(Square::A7, Square::A8, role).promotion_role(),
                Some(role)
            );
        }
    }
}
