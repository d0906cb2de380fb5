//! The wording of every library error, in Spanish and in English, in one place.

use core::fmt;

use crate::{Color, CoordError, FenError, IllegalMove, IllegalReason, Role, SanError};

/// The language of messages for people. Spanish is the default.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// Español.
    #[default]
    Es,
    /// English.
    En,
}

impl Lang {
    /// Picks the language from a locale string such as `LANG` (`en_GB.UTF-8` is
    /// English); Spanish for anything else, or when there is none.
    pub fn from_locale(locale: Option<&str>) -> Lang {
        match locale {
            Some(l) if l.to_ascii_lowercase().starts_with("en") => Lang::En,
            _ => Lang::Es,
        }
    }

    /// Chooses between a Spanish and an English text.
    #[inline]
    pub fn pick<T>(self, es: T, en: T) -> T {
        match self {
            Lang::Es => es,
            Lang::En => en,
        }
    }
}

/// Something that can be told to a person in either language.
pub trait Localized {
    /// The message in `lang`.
    fn message(&self, lang: Lang) -> String;
}

fn color_name(c: Color, lang: Lang) -> &'static str {
    match (c, lang) {
        (Color::White, Lang::Es) => "las blancas",
        (Color::Black, Lang::Es) => "las negras",
        (Color::White, Lang::En) => "White",
        (Color::Black, Lang::En) => "Black",
    }
}

fn role_name(r: Role, lang: Lang) -> &'static str {
    lang.pick(r.name_es(), r.name_en())
}

impl Localized for FenError {
    fn message(&self, lang: Lang) -> String {
        use FenError::*;
        match (self, lang) {
            (Empty, Lang::Es) => "FEN vacío".into(),
            (Empty, Lang::En) => "empty FEN".into(),
            (FieldCount { found }, Lang::Es) => format!(
                "el FEN debe tener 6 campos (o al menos los 4 primeros) separados por espacios; tiene {found}"
            ),
            (FieldCount { found }, Lang::En) => {
                format!("a FEN has 6 space-separated fields (or at least the first 4); this one has {found}")
            }
            (RankCount { found }, Lang::Es) => {
                format!("la colocación debe tener 8 filas separadas por '/'; tiene {found}")
            }
            (RankCount { found }, Lang::En) => {
                format!("the placement must have 8 ranks separated by '/'; it has {found}")
            }
            (BadPieceChar { ch, column }, Lang::Es) => format!(
                "carácter {ch:?} en la columna {column}: no es una pieza (PNBRQK / pnbrqk), un número del 1 al 8 ni '/'"
            ),
            (BadPieceChar { ch, column }, Lang::En) => format!(
                "character {ch:?} at column {column} is not a piece (PNBRQK / pnbrqk), a digit 1-8 or '/'"
            ),
            (RankTooLong { rank, column }, Lang::Es) => {
                format!("la fila {} describe más de 8 casillas (columna {column})", rank.char())
            }
            (RankTooLong { rank, column }, Lang::En) => {
                format!("rank {} describes more than 8 squares (column {column})", rank.char())
            }
            (RankTooShort { rank, squares, column }, Lang::Es) => format!(
                "la fila {} describe solo {squares} casillas de 8 (columna {column})",
                rank.char()
            ),
            (RankTooShort { rank, squares, column }, Lang::En) => format!(
                "rank {} describes only {squares} of 8 squares (column {column})",
                rank.char()
            ),
            (BadTurn { text, column }, Lang::Es) => {
                format!("el turno {text:?} (columna {column}) debe ser 'w' (blancas) o 'b' (negras)")
            }
            (BadTurn { text, column }, Lang::En) => {
                format!("side to move {text:?} (column {column}) must be 'w' or 'b'")
            }
            (BadCastling { text, column }, Lang::Es) => format!(
                "los enroques {text:?} (columna {column}) deben ser '-' o letras de 'KQkq', cada una una vez"
            ),
            (BadCastling { text, column }, Lang::En) => format!(
                "castling rights {text:?} (column {column}) must be '-' or letters from 'KQkq', each once"
            ),
            (BadEnPassantSyntax { text, column }, Lang::Es) => {
                format!("la casilla al paso {text:?} (columna {column}) debe ser '-' o una casilla como e3")
            }
            (BadEnPassantSyntax { text, column }, Lang::En) => {
                format!("en passant square {text:?} (column {column}) must be '-' or a square such as e3")
            }
            (BadHalfmoveClock { text, column }, Lang::Es) => {
                format!("el contador de medias jugadas {text:?} (columna {column}) no es un número")
            }
            (BadHalfmoveClock { text, column }, Lang::En) => {
                format!("half-move clock {text:?} (column {column}) is not a number")
            }
            (BadFullmoveNumber { text, column }, Lang::Es) => {
                format!("el número de jugada {text:?} (columna {column}) no es un número")
            }
            (BadFullmoveNumber { text, column }, Lang::En) => {
                format!("move number {text:?} (column {column}) is not a number")
            }
            (KingCount { color, found }, Lang::Es) => format!(
                "{} tienen {found} reyes; cada bando debe tener exactamente uno",
                color_name(*color, lang)
            ),
            (KingCount { color, found }, Lang::En) => format!(
                "{} has {found} kings; each side must have exactly one",
                color_name(*color, lang)
            ),
            (PawnOnBackRank { square }, Lang::Es) => {
                format!("hay un peón en {square}: no puede haber peones en la primera ni en la última fila")
            }
            (PawnOnBackRank { square }, Lang::En) => {
                format!("pawn on {square}: pawns cannot stand on the first or last rank")
            }
            (TooManyPieces { color }, Lang::Es) => format!(
                "{} tienen demasiadas piezas (más de 16, más de 8 peones o más piezas coronadas que peones que faltan)",
                color_name(*color, lang)
            ),
            (TooManyPieces { color }, Lang::En) => format!(
                "{} has too many pieces (over 16, over 8 pawns, or more promoted pieces than missing pawns)",
                color_name(*color, lang)
            ),
            (OpponentInCheck, Lang::Es) => {
                "el bando que no tiene el turno está en jaque: la jugada anterior fue ilegal".into()
            }
            (OpponentInCheck, Lang::En) => "the side not to move is in check: the last move was illegal".into(),
            (CastlingContradicted { right }, Lang::Es) => format!(
                "el derecho de enroque '{right}' no es posible: el rey o la torre no están en su casilla inicial"
            ),
            (CastlingContradicted { right }, Lang::En) => format!(
                "castling right '{right}' is impossible: the king or the rook is not on its starting square"
            ),
            (ImpossibleEnPassant { square }, Lang::Es) => format!(
                "la casilla al paso {square} es imposible: ningún peón acaba de avanzar dos casillas por ella"
            ),
            (ImpossibleEnPassant { square }, Lang::En) => format!(
                "en passant square {square} is impossible: no pawn has just moved two squares past it"
            ),
            (ImpossibleCheck, Lang::Es) => "el jaque es imposible: ninguna jugada legal podría haberlo dado".into(),
            (ImpossibleCheck, Lang::En) => "impossible check: no legal move could have given it".into(),
        }
    }
}

impl Localized for IllegalReason {
    fn message(&self, lang: Lang) -> String {
        use IllegalReason::*;
        match (self, lang) {
            (NoPiece, Lang::Es) => "no hay ninguna pieza en la casilla de origen".into(),
            (NoPiece, Lang::En) => "there is no piece on the origin square".into(),
            (OpponentPiece, Lang::Es) => "esa pieza es del rival".into(),
            (OpponentPiece, Lang::En) => "that piece belongs to the opponent".into(),
            (OwnPieceOnTarget, Lang::Es) => {
                "la casilla de destino está ocupada por una pieza propia".into()
            }
            (OwnPieceOnTarget, Lang::En) => "the destination holds one of your own pieces".into(),
            (CannotReach(r), Lang::Es) => {
                format!("el {} no puede ir a esa casilla", role_name(*r, lang))
            }
            (CannotReach(r), Lang::En) => {
                format!("the {} cannot go to that square", role_name(*r, lang))
            }
            (PromotionRequired, Lang::Es) => {
                "el peón que llega a la última fila debe coronar: indica D, T, A o C".into()
            }
            (PromotionRequired, Lang::En) => {
                "a pawn reaching the last rank must promote: give Q, R, B or N".into()
            }
            (InvalidPromotion, Lang::Es) => {
                "solo corona un peón que llega a la última fila, y solo a D, T, A o C".into()
            }
            (InvalidPromotion, Lang::En) => {
                "only a pawn reaching the last rank promotes, and only to Q, R, B or N".into()
            }
            (CastlingRightLost, Lang::Es) => {
                "no se puede enrocar: el rey o esa torre ya se han movido".into()
            }
            (CastlingRightLost, Lang::En) => {
                "cannot castle: the king or that rook has already moved".into()
            }
            (CastlingBlocked, Lang::Es) => {
                "no se puede enrocar: hay piezas entre el rey y la torre".into()
            }
            (CastlingBlocked, Lang::En) => {
                "cannot castle: pieces stand between the king and the rook".into()
            }
            (CastlingInCheck, Lang::Es) => "no se puede enrocar estando en jaque".into(),
            (CastlingInCheck, Lang::En) => "cannot castle out of check".into(),
            (CastlingThroughCheck, Lang::Es) => {
                "no se puede enrocar: el rey pasaría por una casilla atacada o quedaría en jaque"
                    .into()
            }
            (CastlingThroughCheck, Lang::En) => {
                "cannot castle: the king would pass through or land on an attacked square".into()
            }
            (EnPassantNotAvailable, Lang::Es) => {
                "la captura al paso solo es posible justo después del avance doble del peón".into()
            }
            (EnPassantNotAvailable, Lang::En) => {
                "en passant is only possible right after the pawn's double step".into()
            }
            (DoesNotAnswerCheck, Lang::Es) => "estás en jaque y esa jugada no lo evita".into(),
            (DoesNotAnswerCheck, Lang::En) => {
                "you are in check and that move does not get out of it".into()
            }
            (LeavesKingInCheck, Lang::Es) => "el rey quedaría en jaque".into(),
            (LeavesKingInCheck, Lang::En) => "the king would be left in check".into(),
        }
    }
}

impl Localized for IllegalMove {
    fn message(&self, lang: Lang) -> String {
        match lang {
            Lang::Es => format!("jugada ilegal {}: {}", self.mv, self.reason.message(lang)),
            Lang::En => format!("illegal move {}: {}", self.mv, self.reason.message(lang)),
        }
    }
}

macro_rules! display_in_spanish {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.message(Lang::Es))
            }
        }
        impl std::error::Error for $t {}
    )*};
}

impl Localized for SanError {
    fn message(&self, lang: Lang) -> String {
        use SanError::*;
        match (self, lang) {
            (Empty, Lang::Es) => "no hay ninguna jugada escrita".into(),
            (Empty, Lang::En) => "no move was written".into(),
            (Unknown { text }, Lang::Es) => format!(
                "{text:?} no es una jugada en notación algebraica (por ejemplo e4, Cf3, exd5, 0-0, e8=D)"
            ),
            (Unknown { text }, Lang::En) => format!(
                "{text:?} is not a move in algebraic notation (for example e4, Nf3, exd5, O-O, e8=Q)"
            ),
            (Illegal { text, mv: Some(m), reason }, Lang::Es) => {
                format!("{text:?} ({m}) es ilegal: {}", reason.message(lang))
            }
            (Illegal { text, mv: Some(m), reason }, Lang::En) => {
                format!("{text:?} ({m}) is illegal: {}", reason.message(lang))
            }
            (Illegal { text, mv: None, reason }, Lang::Es) => {
                format!("{text:?} es ilegal: {}", reason.message(lang))
            }
            (Illegal { text, mv: None, reason }, Lang::En) => {
                format!("{text:?} is illegal: {}", reason.message(lang))
            }
            (NoCandidate { text, role, to }, Lang::Es) => format!(
                "{text:?} es ilegal: ningún {} puede ir a {to}",
                role_name(*role, lang)
            ),
            (NoCandidate { text, role, to }, Lang::En) => format!(
                "{text:?} is illegal: no {} can go to {to}",
                role_name(*role, lang)
            ),
            (Ambiguous { text, candidates }, Lang::Es) => format!(
                "{text:?} es ambigua: puede ser {}; indica la columna o la fila de origen",
                candidates.join(" o ")
            ),
            (Ambiguous { text, candidates }, Lang::En) => format!(
                "{text:?} is ambiguous: it may be {}; give the origin file or rank",
                candidates.join(" or ")
            ),
            (AmbiguousLanguage { text, spanish, english }, Lang::Es) => format!(
                "{text:?} es ambigua: en español (R = rey) es {spanish}, en inglés (R = torre) es {english}; elige el idioma de la notación"
            ),
            (AmbiguousLanguage { text, spanish, english }, Lang::En) => format!(
                "{text:?} is ambiguous: in Spanish (R = king) it is {spanish}, in English (R = rook) it is {english}; choose the notation's language"
            ),
        }
    }
}

impl Localized for CoordError {
    fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (CoordError::Unknown { text }, Lang::Es) => format!(
                "{text:?} no es una jugada en notación de coordenadas (origen y destino, como e2e4, e7e8d)"
            ),
            (CoordError::Unknown { text }, Lang::En) => format!(
                "{text:?} is not a move in coordinate notation (origin and destination, such as e2e4, e7e8q)"
            ),
            (CoordError::Illegal { text, reason, .. }, Lang::Es) => {
                format!("{text:?} es ilegal: {}", reason.message(lang))
            }
            (CoordError::Illegal { text, reason, .. }, Lang::En) => {
                format!("{text:?} is illegal: {}", reason.message(lang))
            }
        }
    }
}

display_in_spanish!(FenError, IllegalMove, SanError, CoordError);

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::Es))
    }
}
