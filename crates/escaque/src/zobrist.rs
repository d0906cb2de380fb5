//! Zobrist hashing with the Polyglot key layout, so that a position's hash can be
//! looked up in Polyglot opening books.
//!
//! Polyglot hashes the pieces, the castling rights, the side to move, and the en
//! passant file *only when a pawn of the side to move stands ready to capture en
//! passant* (pseudo-legally). [`Position::zobrist`](crate::Position::zobrist)
//! follows that rule and is kept up to date move by move.

use crate::polyglot_keys::POLYGLOT;
use crate::{CastlingRights, Color, Piece, Role, Square};

/// The key of a piece on a square. Polyglot orders kinds black pawn, white pawn,
/// black knight, white knight, … black king, white king.
#[inline]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    let kind = 2 * piece.role.index() + (piece.color == Color::White) as usize;
    POLYGLOT[64 * kind + sq.index()]
}

#[inline]
pub(crate) fn piece_key_parts(color: Color, role: Role, sq: Square) -> u64 {
    piece_key(Piece { color, role }, sq)
}

/// The combined key of a set of castling rights.
#[inline]
pub fn castling_key(rights: CastlingRights) -> u64 {
    let mut key = 0;
    let bits = rights.bits();
    let mut i = 0;
    while i < 4 {
        if bits & (1 << i) != 0 {
            key ^= POLYGLOT[768 + i];
        }
        i += 1;
    }
    key
}

/// The key of an en passant square's file.
#[inline]
pub fn en_passant_key(sq: Square) -> u64 {
    POLYGLOT[772 + sq.file().index()]
}

/// The key xored in when White is to move.
pub const WHITE_TO_MOVE_KEY: u64 = POLYGLOT[780];
