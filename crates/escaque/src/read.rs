//! The one reader of a move written as text. Every front end (the terminal, the
//! text mode, the web server), the PGN reader and the UCI protocol read moves
//! through [`read_move`], so a text means the same thing everywhere.
//!
//! The policy, for [`Notation::Any`]:
//! 1. Coordinates (`g1f3`, `E2-E4`, `e1g1`, `e7e8d`/`e7e8q`) when the text has
//!    their shape and is written in lower case, or all in upper case as the
//!    FIDE appendix allows (`E2E4`): `C8D7` is c8–d7, not a knight from the
//!    eighth rank.
//! 2. SAN (lenient as players are: see [`crate::san`]) in the preferred
//!    language. With [`SanLang::Auto`] there is no preference: the Spanish and
//!    English readings are both tried, and a text is accepted when they agree
//!    or exactly one of them is legal; when both are legal and differ the
//!    error is [`MoveError::AmbiguousLanguage`] (never a guess).
//! 3. With a preferred language, a text that is not a legal move in it is read
//!    in the other language (`Nf3` works in a Spanish interface); a text legal
//!    in the preferred language is always read in it.
//! 4. Coordinates in any case when the text has their shape and is not a legal
//!    SAN move.
//!
//! [`Notation::Uci`] reads UCI's strict form only (`e2e4`, `e1g1`, `e7e8q`).
//!
//! ```
//! use escaque::read::{read_move, Notation, MoveError};
//! use escaque::{Lang, Position, SanLang};
//!
//! let pos = Position::new();
//! let m = read_move(&pos, "Cf3", Notation::Any(SanLang::Es)).unwrap();
//! assert_eq!(read_move(&pos, "Nf3", Notation::Any(SanLang::Es)), Ok(m));
//! assert_eq!(read_move(&pos, "g1f3", Notation::Any(SanLang::En)), Ok(m));
//! assert_eq!(read_move(&pos, "g1f3", Notation::Uci), Ok(m));
//! assert!(matches!(
//!     read_move(&pos, "Cf6", Notation::Any(SanLang::Es)),
//!     Err(MoveError::NoCandidate { .. })
//! ));
//! ```

pub use crate::san::MoveError;
use crate::san::{parse_san_lang, parse_san_plain, SanLang};
use crate::{Lang, Move, Position, Role, Square};

/// How the text may be written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// As a person types it or a file records it: SAN in either language
    /// (with this preference, or none) or coordinates. See the module
    /// documentation for the order.
    Any(SanLang),
    /// The UCI protocol's strict long algebraic notation.
    Uci,
}

/// The legal move from `from` to `to` (with that promotion) in `pos`, or why
/// there is none: what a board does with a piece dragged or clicked from one
/// square to another (castling as the king's move). The typed counterpart of
/// [`read_move`], with the same errors.
pub fn move_between(
    pos: &Position,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, MoveError> {
    crate::coord::find(pos, &format!("{from}{to}"), from, to, promotion)
}

/// Reads `text` as a legal move of `pos`, as `notation` says.
pub fn read_move(pos: &Position, text: &str, notation: Notation) -> Result<Move, MoveError> {
    match notation {
        Notation::Uci => crate::coord::parse_uci(pos, text),
        Notation::Any(lang) => read_any(pos, text, lang).map(|(m, _)| m),
    }
}

/// Like [`read_move`] with [`Notation::Any`], and also says which language the
/// text showed itself to be in (`Some` when its letters belong to one notation
/// only: the PGN reader detects a game's notation with it).
pub(crate) fn read_any(
    pos: &Position,
    text: &str,
    lang: SanLang,
) -> Result<(Move, Option<Lang>), MoveError> {
    let coordinates = looks_like_coordinates(text);
    if coordinates && coordinate_case(text) {
        return crate::coord::parse_coord(pos, text).map(|m| (m, None));
    }
    let first = match parse_san_lang(pos, text, lang) {
        Ok(found) => return Ok(found),
        Err(e) => e,
    };
    let preferred = match lang {
        SanLang::Es => Some(Lang::Es),
        SanLang::En => Some(Lang::En),
        SanLang::Auto => None,
    };
    let mut err = first;
    if let Some(l) = preferred {
        let other = SanLang::from(l.other());
        match parse_san_lang(pos, text, other) {
            Ok(found) => return Ok(found),
            Err(second) => {
                // The preferred language's reason, unless the text is not a
                // move in it at all.
                if matches!(err, MoveError::Unknown { .. }) {
                    err = second;
                }
            }
        }
    }
    if coordinates {
        return crate::coord::parse_coord(pos, text).map(|m| (m, None));
    }
    Err(err)
}

/// Lower case first (`e2e4`), or no lower-case letter at all (`E2E4`).
fn coordinate_case(text: &str) -> bool {
    let t = text.trim();
    t.starts_with(|c: char| c.is_ascii_lowercase()) || !t.chars().any(|c| c.is_ascii_lowercase())
}

/// `e2e4`, `e1-g1`, `e7e8q`, `E2xD3`: two squares, maybe a separator between
/// them and a promotion after.
pub(crate) fn looks_like_coordinates(text: &str) -> bool {
    let t = text.trim().as_bytes();
    let sq = |f: u8, r: u8| {
        (b'a'..=b'h').contains(&f.to_ascii_lowercase()) && (b'1'..=b'8').contains(&r)
    };
    let t: Vec<u8> = match t {
        [a, b, b'-' | b'x' | b'X' | b':', rest @ ..] => [&[*a, *b][..], rest].concat(),
        _ => t.to_vec(),
    };
    (4..=8).contains(&t.len()) && sq(t[0], t[1]) && sq(t[2], t[3])
}

/// The common case of a recorded game, read straight from the bytes: plain
/// SAN in a known notation with exactly one legal move that fits (`None`
/// otherwise, and the caller goes through [`read_any`]). Gives the kind of
/// piece that moves, so the caller can play it without looking it up again.
#[inline]
pub(crate) fn read_plain(pos: &Position, text: &[u8], lang: Lang) -> Option<(Move, Role)> {
    parse_san_plain(pos, text, lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(fen: &str, text: &str, n: Notation) -> Result<String, MoveError> {
        let pos = Position::from_fen(fen).unwrap();
        read_move(&pos, text, n).map(|m| m.to_string())
    }

    const START: &str = crate::STARTING_FEN;
    // White king e1, rook h1: "Rf1" is Kf1 in Spanish and Rf1 in English.
    const KR: &str = "4k3/8/8/8/8/8/8/4K2R w - - 0 1";

    #[test]
    fn a_king_step_onto_the_castling_square_is_the_normal_move_in_chess960() {
        use crate::coord::{parse_coord, parse_uci, to_uci_in};
        use crate::CastlingMode;
        // King on f1, rooks on a1 and h1: g1 is both a step of the king
        // and where it goes castling short.
        let pos = Position::from_fen_with(
            "r4k1r/8/8/8/8/8/8/R4K1R w HAha - 0 1",
            CastlingMode::Chess960,
        )
        .unwrap();
        let step = Move::normal(Square::F1, Square::G1);
        let short = Move::castle(Square::F1, Square::G1);
        assert!(pos.is_legal(step) && pos.is_legal(short));
        for m in [
            parse_uci(&pos, "f1g1"),
            parse_coord(&pos, "f1g1"),
            parse_coord(&pos, "F1-G1"),
            read_move(&pos, "f1g1", Notation::Uci),
            read_move(&pos, "f1g1", Notation::Any(SanLang::Auto)),
            move_between(&pos, Square::F1, Square::G1, None),
        ] {
            assert_eq!(m, Ok(step));
        }
        // Castling is the king onto its rook, in every reader.
        assert_eq!(read_move(&pos, "f1h1", Notation::Uci), Ok(short));
        assert_eq!(move_between(&pos, Square::F1, Square::H1, None), Ok(short));
        assert_eq!(to_uci_in(&pos, short, true), "f1h1");
        // Queen side: the king on b1 steps to c1 or castles onto a1.
        let pos =
            Position::from_fen_with("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", CastlingMode::Chess960)
                .unwrap();
        let step = Move::normal(Square::B1, Square::C1);
        let long = Move::castle(Square::B1, Square::C1);
        assert!(pos.is_legal(step) && pos.is_legal(long));
        assert_eq!(move_between(&pos, Square::B1, Square::C1, None), Ok(step));
        assert_eq!(read_move(&pos, "b1c1", Notation::Uci), Ok(step));
        assert_eq!(move_between(&pos, Square::B1, Square::A1, None), Ok(long));
        // Where no step goes to the castling square, the king's two-square
        // form still castles (king e1 in a Chess960 game).
        let pos = Position::from_fen_with(
            "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",
            CastlingMode::Chess960,
        )
        .unwrap();
        assert_eq!(
            read_move(&pos, "e1g1", Notation::Uci),
            Ok(Move::castle(Square::E1, Square::G1))
        );
    }

    #[test]
    fn the_preferred_language_decides_and_the_other_is_a_fallback() {
        assert_eq!(
            read(KR, "Rf1", Notation::Any(SanLang::Es)),
            Ok("e1f1".into())
        );
        assert_eq!(
            read(KR, "Rf1", Notation::Any(SanLang::En)),
            Ok("h1f1".into())
        );
        assert!(matches!(
            read(KR, "Rf1", Notation::Any(SanLang::Auto)),
            Err(MoveError::AmbiguousLanguage { .. })
        ));
        // Illegal as a Spanish king move, legal as an English rook move.
        assert_eq!(
            read(KR, "Rh5", Notation::Any(SanLang::Es)),
            Ok("h1h5".into())
        );
        assert_eq!(
            read(START, "Nf3", Notation::Any(SanLang::Es)),
            Ok("g1f3".into())
        );
        assert_eq!(
            read(START, "Cf3", Notation::Any(SanLang::En)),
            Ok("g1f3".into())
        );
    }

    #[test]
    fn coordinates_in_lower_or_upper_case() {
        let fen = "r1bqkbnr/pppppppp/2n5/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
        // Black: bishop c8, knight b8 gone (on c6); C8D7 is the bishop's move
        // in coordinates, not a knight from the eighth rank.
        let pos = "rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(
            read(pos, "C8D7", Notation::Any(SanLang::Es)),
            Ok("c8d7".into())
        );
        assert_eq!(
            read(pos, "c8d7", Notation::Any(SanLang::Es)),
            Ok("c8d7".into())
        );
        // Mixed case is SAN first: a knight from the eighth rank.
        assert_eq!(
            read(pos, "C8d7", Notation::Any(SanLang::Es)),
            Ok("b8d7".into())
        );
        assert_eq!(
            read(fen, "e7e5", Notation::Any(SanLang::Auto)),
            Ok("e7e5".into())
        );
        assert!(matches!(
            read(START, "e2e5", Notation::Any(SanLang::Es)),
            Err(MoveError::Illegal { mv: Some(_), .. })
        ));
    }

    #[test]
    fn uci_is_strict() {
        assert_eq!(read(START, "g1f3", Notation::Uci), Ok("g1f3".into()));
        for text in ["Nf3", "G1F3", "g1-f3", "g1f3 ", ""] {
            assert!(read(START, text, Notation::Uci).is_err(), "{text:?}");
        }
        let promo = "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(read(promo, "c7d8n", Notation::Uci), Ok("c7d8n".into()));
        assert!(read(promo, "c7d8c", Notation::Uci).is_err());
        assert_eq!(
            read(promo, "c7d8c", Notation::Any(SanLang::Es)),
            Ok("c7d8n".into())
        );
    }

    #[test]
    fn ambiguity_names_typed_candidates() {
        let fen = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        match read(fen, "Cd2", Notation::Any(SanLang::Es)) {
            Err(MoveError::Ambiguous { candidates, .. }) => {
                let pos = Position::from_fen(fen).unwrap();
                let moves: Vec<String> = candidates
                    .iter()
                    .map(|c| c.to_move(&pos).unwrap().to_string())
                    .collect();
                assert_eq!(moves, ["b1d2", "f1d2"]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            read(START, "   ", Notation::Any(SanLang::Es)),
            Err(MoveError::Empty)
        );
        assert!(matches!(
            read(START, "Xz9", Notation::Any(SanLang::Es)),
            Err(MoveError::Unknown { .. })
        ));
    }
}
