//! Static exchange evaluation: does a capture sequence on one square gain at
//! least a threshold, with both sides taking with their cheapest piece first?

use escaque::attacks::{bishop_attacks, rook_attacks};
use escaque::{Bitboard, Move, Position, Role};

/// Exchange values of the roles, pawn … king.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20000];

/// The value of what `m` captures (0 for a quiet move; a pawn for en passant).
#[inline]
pub fn captured_value(pos: &Position, m: Move) -> i32 {
    if m.is_en_passant() {
        return SEE_VALUE[0];
    }
    match pos.role_at(m.to()) {
        Some(r) if !m.is_castle() => SEE_VALUE[r.index()],
        _ => 0,
    }
}

/// True if playing `m` wins at least `threshold` centipawns once every
/// profitable recapture on its destination has been made. Pins are ignored.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_castle() || m.promotion_role().is_some() {
        return 0 >= threshold;
    }
    let from = m.from();
    let to = m.to();
    let mut swap = captured_value(pos, m) - threshold;
    if swap < 0 {
        return false;
    }
    let mover = pos.role_at(from).unwrap_or(Role::Pawn);
    swap = SEE_VALUE[mover.index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied() & !Bitboard::from_square(from) & !Bitboard::from_square(to);
    if m.is_en_passant() {
        let victim = escaque::Square::from_coords(to.file(), from.rank());
        occ &= !Bitboard::from_square(victim);
    }
    let bq = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let rq = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let mut attackers = (pos.attackers_to(to, escaque::Color::White, occ)
        | pos.attackers_to(to, escaque::Color::Black, occ))
        & occ;
    let mut stm = pos.turn();
    let mut res = 1;
    loop {
        stm = stm.other();
        attackers &= occ;
        let mine = attackers & pos.by_color(stm);
        if mine.is_empty() {
            break;
        }
        res ^= 1;
        let mut found = None;
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            let bb = mine & pos.by_role(role);
            if let Some(sq) = bb.first() {
                found = Some((role, sq));
                break;
            }
        }
        match found {
            Some((role, sq)) => {
                swap = SEE_VALUE[role.index()] - swap;
                if swap < res {
                    break;
                }
                occ &= !Bitboard::from_square(sq);
                if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
                    attackers |= bishop_attacks(to, occ) & bq;
                }
                if matches!(role, Role::Rook | Role::Queen) {
                    attackers |= rook_attacks(to, occ) & rq;
                }
            }
            None => {
                // Only the king is left: it may take only if nothing defends.
                let theirs = attackers & pos.by_color(stm.other());
                return if theirs.any() { res ^ 1 == 1 } else { res == 1 };
            }
        }
    }
    res == 1
}
