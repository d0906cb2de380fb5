//! Coordinate notation (origin then destination, as the FIDE Laws' appendix
//! gives it) and UCI move strings.
//!
//! Read leniently: `e2e4`, `E2E4`, `e2-e4`, `e2xd3`, `e2:d3`, castling as the
//! king's move `e1g1`/`E1G1`, promotion with a Spanish (`e7e8d`) or English
//! (`e7e8q`) letter, with or without `=`. UCI strings are read strictly and
//! written exactly as the UCI protocol does (`e7e8q`). Reading goes through
//! [`crate::read::read_move`], the one reader of typed moves.
//!
//! ```
//! use escaque::{Lang, Position, SanLang};
//! use escaque::coord::to_coord;
//! use escaque::read::{read_move, Notation};
//!
//! let pos = Position::new();
//! let m = read_move(&pos, "E2-E4", Notation::Any(SanLang::Auto)).unwrap();
//! assert_eq!(read_move(&pos, "e2e4", Notation::Uci).unwrap(), m);
//! assert_eq!(to_coord(m, Lang::Es), "e2e4");
//! ```

use crate::castling::king_home;
use crate::san::MoveError;
use crate::{Bitboard, CastlingSide, Lang, Move, Position, Role, Square};

/// Writes `m` in coordinate notation: `e2e4`, castling `e1g1`, promotion with
/// the Spanish letter (`e7e8d`) or the English one (`e7e8q`), lower case.
pub fn to_coord(m: Move, lang: Lang) -> String {
    let mut s = format!("{}{}", m.from(), m.to());
    if let Some(r) = m.promotion_role() {
        let c = match lang {
            Lang::Es => r.char_es(),
            Lang::En => r.char_en(),
        };
        s.push(c.to_ascii_lowercase());
    }
    s
}

/// The UCI string of `m` (`e2e4`, `e1g1`, `e7e8q`).
pub fn to_uci(m: Move) -> String {
    m.to_string()
}

/// The UCI string of `m`, legal in `pos`, with castling as the king's move
/// (`e1g1`) or, with `chess960` (the `UCI_Chess960` option), as the king
/// taking its own rook (`e1h1`; `f1h1` for a king on f1), which is never
/// ambiguous.
///
/// ```
/// use escaque::coord::to_uci_in;
/// use escaque::{CastlingMode, Move, Position, Square};
///
/// let pos = Position::from_fen_with("4k3/8/8/8/8/8/8/4K2R w K - 0 1", CastlingMode::Chess960)
///     .unwrap();
/// let castle = Move::castle(Square::E1, Square::G1);
/// assert_eq!(to_uci_in(&pos, castle, false), "e1g1");
/// assert_eq!(to_uci_in(&pos, castle, true), "e1h1");
/// ```
pub fn to_uci_in(pos: &Position, m: Move, chess960: bool) -> String {
    if chess960 && m.is_castle() {
        let side = CastlingSide::from_king_to(m.to());
        if let Some(rook) = pos.castling_rights().rook(pos.turn(), side) {
            return format!("{}{}", m.from(), rook);
        }
    }
    m.to_string()
}

/// Reads coordinate notation leniently (see the module documentation).
pub(crate) fn parse_coord(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let unknown = || MoveError::Unknown { text: text.into() };
    let t = text
        .trim()
        .trim_end_matches(['+', '#', '!', '?'])
        .as_bytes();
    let square = |f: u8, r: u8| -> Option<Square> {
        let f = f.to_ascii_lowercase();
        if (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r) {
            Square::parse(core::str::from_utf8(&[f, r]).ok()?)
        } else {
            None
        }
    };
    if t.len() < 4 {
        return Err(unknown());
    }
    let from = square(t[0], t[1]).ok_or_else(unknown)?;
    let mut rest = &t[2..];
    if let [b'-' | b'x' | b'X' | b':', tail @ ..] = rest {
        rest = tail;
    }
    if rest.len() < 2 {
        return Err(unknown());
    }
    let to = square(rest[0], rest[1]).ok_or_else(unknown)?;
    let promo = match &rest[2..] {
        [] => None,
        [c] | [b'=', c] => Some(promo_letter(*c).ok_or_else(unknown)?),
        [b'(', c, b')'] | [b'=', b'(', c, b')'] => Some(promo_letter(*c).ok_or_else(unknown)?),
        _ => return Err(unknown()),
    };
    find(pos, text, from, to, promo)
}

/// A promotion letter, Spanish (`d t a c`) or English (`q r b n`), either case;
/// the two sets do not overlap.
fn promo_letter(c: u8) -> Option<Role> {
    let c = c as char;
    let r = match Role::from_char_en(c) {
        Some(r @ (Role::Queen | Role::Rook | Role::Bishop | Role::Knight)) => r,
        _ => Role::from_char_es(c)?,
    };
    matches!(r, Role::Queen | Role::Rook | Role::Bishop | Role::Knight).then_some(r)
}

/// Reads a UCI move string strictly: four lower-case coordinates and an
/// optional lower-case `q r b n`; castling as the king's move.
pub(crate) fn parse_uci(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let unknown = || MoveError::Unknown { text: text.into() };
    let b = text.as_bytes();
    if !(b.len() == 4 || b.len() == 5) || !text.is_ascii() || b.iter().any(u8::is_ascii_uppercase) {
        return Err(unknown());
    }
    let from = Square::parse(&text[0..2]).ok_or_else(unknown)?;
    let to = Square::parse(&text[2..4]).ok_or_else(unknown)?;
    let promo = match b.get(4) {
        None => None,
        Some(b'q') => Some(Role::Queen),
        Some(b'r') => Some(Role::Rook),
        Some(b'b') => Some(Role::Bishop),
        Some(b'n') => Some(Role::Knight),
        Some(_) => return Err(unknown()),
    };
    find(pos, text, from, to, promo)
}

/// The legal move from `from` to `to` (with that promotion), or why there is
/// none.
///
/// In Chess960 a king may both step to its castling square and castle onto
/// it (king on f1, rook on h1: `f1g1`). The two squares then name the
/// normal move; castling is written as the king taking its rook (`f1h1`).
pub(crate) fn find(
    pos: &Position,
    text: &str,
    from: Square,
    to: Square,
    promo: Option<Role>,
) -> Result<Move, MoveError> {
    let moves = pos.legal_moves_to(Bitboard::from_square(to));
    let fits = |m: &&Move| m.from() == from && m.promotion_role() == promo;
    let found = moves.iter().filter(fits).min_by_key(|m| m.is_castle());
    if let Some(&m) = found {
        return Ok(m);
    }
    let us = pos.turn();
    let role = pos.role_at(from);
    // The king taking its own castling rook is castling (Chess960's UCI
    // notation; never another move, so it is read in every mode).
    if role == Some(Role::King) && promo.is_none() && pos.color_at(from) == Some(us) {
        let rights = pos.castling_rights();
        if let Some(side) = CastlingSide::ALL
            .into_iter()
            .find(|&side| rights.rook(us, side) == Some(to))
        {
            let m = Move::castle(from, side.king_to(us));
            if pos.is_legal(m) {
                return Ok(m);
            }
            return Err(MoveError::Illegal {
                text: text.into(),
                mv: Some(m),
                reason: pos.illegal_reason(m),
            });
        }
    }
    let mv = match (role, promo) {
        (_, Some(p)) => Move::promotion(from, to, p),
        (Some(Role::King), None)
            if from == king_home(us) && from.rank() == to.rank() && from.distance(to) == 2 =>
        {
            Move::castle(from, to)
        }
        (Some(Role::Pawn), None) if Some(to) == pos.ep_square() && from.file() != to.file() => {
            Move::en_passant(from, to)
        }
        _ => Move::normal(from, to),
    };
    Err(MoveError::Illegal {
        text: text.into(),
        mv: Some(mv),
        reason: pos.illegal_reason(mv),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::IllegalReason;

    fn parse(p: &Position, s: &str) -> String {
        parse_coord(p, s)
            .map(|m| m.to_string())
            .unwrap_or_else(|e| format!("{e:?}"))
    }

    #[test]
    fn reads_lenient_forms() {
        let p = Position::new();
        for s in ["e2e4", "E2E4", "e2-e4", "E2-E4", " e2e4 "] {
            assert_eq!(parse(&p, s), "e2e4", "{s}");
        }
        let p = Position::from_fen("4k3/8/8/8/8/3p4/4P3/4K2R w K - 0 1").unwrap();
        assert_eq!(parse(&p, "e2xd3"), "e2d3");
        assert_eq!(parse(&p, "e2:d3"), "e2d3");
        let m = parse_coord(&p, "E1G1").unwrap();
        assert!(m.is_castle());
        let p = Position::from_fen("3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        for (s, want) in [
            ("c7c8d", "c7c8q"),
            ("c7c8q", "c7c8q"),
            ("c7c8T", "c7c8r"),
            ("c7xd8=C", "c7d8n"),
            ("c7d8(a)", "c7d8b"),
        ] {
            assert_eq!(parse(&p, s), want, "{s}");
        }
    }

    #[test]
    fn writes_and_reads_uci() {
        let p = Position::from_fen("3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let m = parse_uci(&p, "c7d8n").unwrap();
        assert_eq!(to_uci(m), "c7d8n");
        assert_eq!(to_coord(m, Lang::Es), "c7d8c");
        assert_eq!(to_coord(m, Lang::En), "c7d8n");
        assert!(matches!(
            parse_uci(&p, "C7D8N"),
            Err(MoveError::Unknown { .. })
        ));
        assert!(matches!(
            parse_uci(&p, "c7d8d"),
            Err(MoveError::Unknown { .. })
        ));
    }

    #[test]
    fn explains_errors() {
        let p = Position::new();
        assert!(matches!(
            parse_coord(&p, "e2"),
            Err(MoveError::Unknown { .. })
        ));
        assert!(matches!(
            parse_coord(&p, "i2i4"),
            Err(MoveError::Unknown { .. })
        ));
        assert!(matches!(
            parse_coord(&p, "e2e4k"),
            Err(MoveError::Unknown { .. })
        ));
        match parse_coord(&p, "e2e5") {
            Err(MoveError::Illegal { reason, .. }) => {
                assert_eq!(reason, IllegalReason::CannotReach(Role::Pawn))
            }
            other => panic!("{other:?}"),
        }
        match parse_coord(&p, "e1g1") {
            Err(MoveError::Illegal { mv, reason, .. }) => {
                assert!(mv.is_some_and(|m| m.is_castle()));
                assert_eq!(reason, IllegalReason::CastlingBlocked);
            }
            other => panic!("{other:?}"),
        }
        let p = Position::from_fen("7k/4P3/8/8/8/8/8/K7 w - - 0 1").unwrap();
        assert!(matches!(
            parse_coord(&p, "e7e8"),
            Err(MoveError::Illegal {
                reason: IllegalReason::PromotionRequired,
                ..
            })
        ));
    }
}
