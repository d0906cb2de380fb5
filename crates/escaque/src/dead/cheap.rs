//! The proofs cheap enough to run after every move: material and the locked
//! pawn wall. They use nothing but the position and the attack tables.

use crate::attacks::{king_attacks, pawn_attacks};
use crate::{Bitboard, Color, Position, Role};

/// True if `color` could not checkmate by any series of legal moves: by
/// material ([`Position::has_insufficient_material`]) or because the whole
/// position is dead ([`is_dead_position`]). The first, cheapest step of
/// [`super::could_not_mate`].
pub fn cannot_mate(pos: &Position, color: Color) -> bool {
    pos.has_insufficient_material(color) || is_dead_position(pos)
}

/// True if neither side can checkmate by any series of legal moves (5.2.2),
/// as far as can be proved cheaply:
///
/// * by material ([`Position::is_insufficient_material`]): K v K, K+A v K,
///   K+C v K, and any number of bishops all on squares of one colour;
/// * a locked pawn wall: only kings and pawns, every pawn stands in front of
///   another pawn, no pawn can capture and no en passant capture is legal, and
///   neither king can ever reach a square next to an enemy pawn (walking only
///   over empty squares that no enemy pawn attacks). Nothing can then change but
///   the kings' places, and kings alone never give check.
pub fn is_dead_position(pos: &Position) -> bool {
    pos.is_insufficient_material() || is_locked_pawn_wall(pos)
}

fn is_locked_pawn_wall(pos: &Position) -> bool {
    let pawns = pos.by_role(Role::Pawn);
    let kings = pos.by_role(Role::King);
    if pawns.is_empty() || (pos.occupied() & !(pawns | kings)).any() {
        return false;
    }
    if pos.legal_ep_square().is_some() {
        return false;
    }
    let mut attacked_by = [Bitboard::EMPTY; 2];
    for c in Color::ALL {
        for sq in pos.pieces(c, Role::Pawn) {
            let ahead = Bitboard::from_square(sq).forward(c);
            if (ahead & pawns).is_empty() {
                return false;
            }
            let att = pawn_attacks(c, sq);
            if (att & pos.pieces(c.other(), Role::Pawn)).any() {
                return false;
            }
            attacked_by[c.index()] |= att;
        }
    }
    for c in Color::ALL {
        let enemy_pawns = pos.pieces(c.other(), Role::Pawn);
        let walkable = !pawns & !attacked_by[c.other().index()];
        let mut region = Bitboard::from_square(pos.king(c));
        loop {
            let mut grown = region;
            for sq in region {
                grown |= king_attacks(sq) & walkable;
            }
            if grown == region {
                break;
            }
            region = grown;
        }
        let mut reach = Bitboard::EMPTY;
        for sq in region {
            reach |= king_attacks(sq);
        }
        if (reach & enemy_pawns).any() {
            return false;
        }
    }
    true
}
