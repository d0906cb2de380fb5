//! The wording of every library error, in Spanish and in English, in one place.

use core::fmt;

use crate::lang::{Lang, Localized};

use crate::adjourn::ResumeError;
use crate::clock::TimeControlError;
use crate::game::{
    ClaimResult, DrawClaim, GameError, GameResult, GameStatus, Outcome, Termination,
};
use crate::pgn::{PgnWarning, PgnWarningKind};
use crate::time_class::TimeClass;
use crate::{Color, FenError, IllegalMove, IllegalReason, MoveError, PgnError, PgnErrorKind, Role};

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

impl Localized for crate::FenWarning {
    fn message(&self, lang: Lang) -> String {
        use crate::FenWarning::*;
        match (self, lang) {
            (ImpossibleCheck, Lang::Es) => {
                "el jaque no puede venir de ninguna jugada; se acepta la posición igualmente".into()
            }
            (ImpossibleCheck, Lang::En) => {
                "no move could have given this check; the position is accepted anyway".into()
            }
            (ImpossibleMaterial { color }, Lang::Es) => format!(
                "{} tienen más peones o piezas coronadas de los que permite una partida; se acepta igualmente",
                color_name_capital(*color, lang)
            ),
            (ImpossibleMaterial { color }, Lang::En) => format!(
                "{} has more pawns or promoted pieces than a game allows; accepted anyway",
                color_name_capital(*color, lang)
            ),
            (CastlingDropped { right }, Lang::Es) => format!(
                "se quita el derecho de enroque {right}: el rey o la torre no están en su casilla"
            ),
            (CastlingDropped { right }, Lang::En) => format!(
                "castling right {right} dropped: the king or the rook is not on its square"
            ),
            (EnPassantDropped { square }, Lang::Es) => format!(
                "se quita la casilla de captura al paso {square}: ningún avance doble pudo dejarla"
            ),
            (EnPassantDropped { square }, Lang::En) => format!(
                "en passant square {square} dropped: no double step could have left it"
            ),
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
                let article = match r {
                    Role::Rook | Role::Queen => "la",
                    _ => "el",
                };
                format!(
                    "{article} {} no puede ir a esa casilla",
                    role_name(*r, lang)
                )
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

fn color_name_capital(c: Color, lang: Lang) -> &'static str {
    match (c, lang) {
        (Color::White, Lang::Es) => "Las blancas",
        (Color::Black, Lang::Es) => "Las negras",
        (Color::White, Lang::En) => "White",
        (Color::Black, Lang::En) => "Black",
    }
}

impl Localized for TimeControlError {
    fn message(&self, lang: Lang) -> String {
        use TimeControlError::*;
        match (self, lang) {
            (Empty, Lang::Es) => "control de tiempo vacío".into(),
            (Empty, Lang::En) => "empty time control".into(),
            (BadNumber { text, column }, Lang::Es) => {
                format!("se esperaba un número en la columna {column} y hay {text:?}")
            }
            (BadNumber { text, column }, Lang::En) => {
                format!("expected a number at column {column}, found {text:?}")
            }
            (BadBonus { text, column }, Lang::Es) => format!(
                "la bonificación {text:?} (columna {column}) debe ser segundos de incremento (3), de demora simple (d3) o Bronstein (b3)"
            ),
            (BadBonus { text, column }, Lang::En) => format!(
                "bonus {text:?} (column {column}) must be seconds of increment (3), simple delay (d3) or Bronstein delay (b3)"
            ),
            (NoTime { column }, Lang::Es) => {
                format!("el periodo de la columna {column} no da tiempo ni bonificación")
            }
            (NoTime { column }, Lang::En) => {
                format!("the period at column {column} gives neither time nor bonus")
            }
            (ZeroMoves { column }, Lang::Es) => {
                format!("el periodo de la columna {column} pide cero jugadas")
            }
            (ZeroMoves { column }, Lang::En) => {
                format!("the period at column {column} asks for zero moves")
            }
            (PeriodAfterRestOfGame { column }, Lang::Es) => format!(
                "hay un periodo en la columna {column} después de uno para el resto de la partida (solo el último puede no tener número de jugadas)"
            ),
            (PeriodAfterRestOfGame { column }, Lang::En) => format!(
                "a period at column {column} follows one for the rest of the game (only the last may lack a move count)"
            ),
            (Sandglass { column }, Lang::Es) => {
                format!("el reloj de arena (*N, columna {column}) no está admitido")
            }
            (Sandglass { column }, Lang::En) => {
                format!("the sandglass form (*N, column {column}) is not supported")
            }
            (DelayNotInPgn, Lang::Es) => {
                "la etiqueta TimeControl de PGN no puede expresar una demora".into()
            }
            (DelayNotInPgn, Lang::En) => "a PGN TimeControl tag cannot express a delay".into(),
        }
    }
}

impl Localized for GameResult {
    fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (GameResult::Draw, Lang::Es) => "tablas".into(),
            (GameResult::Draw, Lang::En) => "draw".into(),
            (r, _) => {
                let w = r.winner().unwrap_or(Color::White);
                match lang {
                    Lang::Es => format!("ganan {}", color_name(w, lang)),
                    Lang::En => format!("{} wins", color_name(w, lang)),
                }
            }
        }
    }
}

impl Localized for Termination {
    fn message(&self, lang: Lang) -> String {
        use Termination::*;
        match (self, lang) {
            (Checkmate, Lang::Es) => "jaque mate".into(),
            (Checkmate, Lang::En) => "checkmate".into(),
            (Resignation { by }, Lang::Es) => format!("abandono de {}", color_name(*by, lang)),
            (Resignation { by }, Lang::En) => format!("{} resigned", color_name(*by, lang)),
            (Stalemate, Lang::Es) => "rey ahogado".into(),
            (Stalemate, Lang::En) => "stalemate".into(),
            (DeadPosition, Lang::Es) => "posición muerta: ningún bando puede dar mate".into(),
            (DeadPosition, Lang::En) => "dead position: neither side can mate".into(),
            (FivefoldRepetition, Lang::Es) => "la misma posición por quinta vez".into(),
            (FivefoldRepetition, Lang::En) => "the same position for the fifth time".into(),
            (SeventyFiveMoves, Lang::Es) => {
                "75 jugadas de cada bando sin captura ni movimiento de peón".into()
            }
            (SeventyFiveMoves, Lang::En) => {
                "75 moves by each side without a capture or pawn move".into()
            }
            (ThreefoldRepetition, Lang::Es) => "triple repetición, reclamada".into(),
            (ThreefoldRepetition, Lang::En) => "threefold repetition, claimed".into(),
            (FiftyMoves, Lang::Es) => {
                "50 jugadas sin captura ni movimiento de peón, reclamadas".into()
            }
            (FiftyMoves, Lang::En) => "fifty moves without a capture or pawn move, claimed".into(),
            (AgreedFiftyMoves, Lang::Es) => {
                "cincuenta jugadas de cada lado sin mate desde el acuerdo".into()
            }
            (AgreedFiftyMoves, Lang::En) => {
                "fifty moves each without mate since the agreement".into()
            }
            (Agreement, Lang::Es) => "mutuo acuerdo".into(),
            (Agreement, Lang::En) => "mutual agreement".into(),
            (Time { flagged }, Lang::Es) => {
                format!("a {} se les acabó el tiempo", color_name(*flagged, lang))
            }
            (Time { flagged }, Lang::En) => {
                format!("{} ran out of time", color_name(*flagged, lang))
            }
            (IllegalSealedMove { by }, Lang::Es) => format!(
                "la jugada secreta de {} era ilegal, ambigua o ilegible",
                color_name(*by, lang)
            ),
            (IllegalSealedMove { by }, Lang::En) => format!(
                "{}'s sealed move was illegal, ambiguous or unreadable",
                color_name(*by, lang)
            ),
            (Recorded, Lang::Es) => "resultado anotado".into(),
            (Recorded, Lang::En) => "result as recorded".into(),
            (Aborted, Lang::Es) => "partida anulada".into(),
            (Aborted, Lang::En) => "game aborted".into(),
            (Abandoned { by }, Lang::Es) => format!(
                "{} abandonaron la partida (desconexión)",
                color_name(*by, lang)
            ),
            (Abandoned { by }, Lang::En) => {
                format!("{} left the game (disconnected)", color_name(*by, lang))
            }
        }
    }
}

impl Localized for Outcome {
    /// The end of a game as the board announces it: `Jaque mate. Ganan las
    /// blancas (1-0)`, `Tablas por ahogado (½-½)`.
    fn message(&self, lang: Lang) -> String {
        use Termination::*;
        let res = self.result.display();
        let win = match (self.result, lang) {
            (GameResult::WhiteWins, Lang::Es) => "Ganan las blancas",
            (GameResult::BlackWins, Lang::Es) => "Ganan las negras",
            (GameResult::Draw, Lang::Es) => "Tablas",
            (GameResult::WhiteWins, Lang::En) => "White wins",
            (GameResult::BlackWins, Lang::En) => "Black wins",
            (GameResult::Draw, Lang::En) => "Draw",
        };
        let drawn = self.result == GameResult::Draw;
        match (self.termination, lang) {
            (Checkmate, Lang::Es) => format!("Jaque mate. {win} ({res})"),
            (Checkmate, Lang::En) => format!("Checkmate. {win} ({res})"),
            (Stalemate, Lang::Es) if drawn => format!("Tablas por ahogado ({res})"),
            (Stalemate, Lang::En) if drawn => format!("Draw by stalemate ({res})"),
            (Stalemate, Lang::Es) => {
                format!("Ahogado: según la regla inglesa gana el ahogado. {win} ({res})")
            }
            (Stalemate, Lang::En) => format!(
                "Stalemate: by the English rule the stalemated side wins. {win} ({res})"
            ),
            (DeadPosition, Lang::Es) => {
                format!("Tablas: ninguno de los dos puede dar mate ({res})")
            }
            (DeadPosition, Lang::En) => format!("Draw: neither side can checkmate ({res})"),
            (Agreement, Lang::Es) => format!("Tablas por acuerdo ({res})"),
            (Agreement, Lang::En) => format!("Draw by agreement ({res})"),
            (ThreefoldRepetition, Lang::Es) => format!("Tablas por triple repetición ({res})"),
            (ThreefoldRepetition, Lang::En) => format!("Draw by threefold repetition ({res})"),
            (FiftyMoves | AgreedFiftyMoves, Lang::Es) => {
                format!("Tablas por la regla de los cincuenta movimientos ({res})")
            }
            (FiftyMoves | AgreedFiftyMoves, Lang::En) => {
                format!("Draw by the fifty-move rule ({res})")
            }
            (FivefoldRepetition, Lang::Es) => format!("Tablas por quíntuple repetición ({res})"),
            (FivefoldRepetition, Lang::En) => format!("Draw by fivefold repetition ({res})"),
            (SeventyFiveMoves, Lang::Es) => {
                format!("Tablas por la regla de los setenta y cinco movimientos ({res})")
            }
            (SeventyFiveMoves, Lang::En) => {
                format!("Draw by the seventy-five-move rule ({res})")
            }
            (Resignation { by }, Lang::Es) if drawn => format!(
                "{} abandonan, pero el rival no puede dar mate: la partida es tablas ({res})",
                color_name_capital(by, lang)
            ),
            (Resignation { by }, Lang::En) if drawn => format!(
                "{} resigns, but the opponent cannot checkmate: the game is drawn ({res})",
                color_name_capital(by, lang)
            ),
            (Resignation { by }, Lang::Es) => {
                format!("{} abandonan. {win} ({res})", color_name_capital(by, lang))
            }
            (Resignation { by }, Lang::En) => {
                format!("{} resigns. {win} ({res})", color_name_capital(by, lang))
            }
            (Time { flagged }, Lang::Es) if drawn => format!(
                "Tablas: el rival no puede dar mate; {} perdieron por tiempo pero la partida es tablas ({res})",
                color_name(flagged, lang)
            ),
            (Time { flagged }, Lang::En) if drawn => format!(
                "Draw: the opponent cannot checkmate; {} lost on time but the game is drawn ({res})",
                color_name_capital(flagged, lang)
            ),
            (Time { flagged }, Lang::Es) => format!(
                "{} pierden por tiempo. {win} ({res})",
                color_name_capital(flagged, lang)
            ),
            (Time { flagged }, Lang::En) => format!(
                "{} lost on time. {win} ({res})",
                color_name_capital(flagged, lang)
            ),
            (IllegalSealedMove { by }, Lang::Es) if drawn => format!(
                "La jugada secreta de {} no vale, pero el rival no puede dar mate: la partida es tablas ({res})",
                color_name(by, lang)
            ),
            (IllegalSealedMove { by }, Lang::En) if drawn => format!(
                "{}'s sealed move is not valid, but the opponent cannot checkmate: the game is drawn ({res})",
                color_name_capital(by, lang)
            ),
            (IllegalSealedMove { by }, Lang::Es) => format!(
                "La jugada secreta de {} es ilegal, ambigua o ilegible: pierden. {win} ({res})",
                color_name(by, lang)
            ),
            (IllegalSealedMove { by }, Lang::En) => format!(
                "{}'s sealed move is illegal, ambiguous or unreadable: they lose. {win} ({res})",
                color_name_capital(by, lang)
            ),
            (Recorded, Lang::Es) => format!("Partida terminada. {win} ({res})"),
            (Recorded, Lang::En) => format!("Game over. {win} ({res})"),
            // An aborted game has no result; a record that gives one anyway
            // is shown with it.
            (Aborted, Lang::Es) => format!("Partida anulada ({res})"),
            (Aborted, Lang::En) => format!("Game aborted ({res})"),
            (Abandoned { by }, Lang::Es) if drawn => format!(
                "Tablas: {} abandonaron la partida (desconexión) ({res})",
                color_name(by, lang)
            ),
            (Abandoned { by }, Lang::En) if drawn => format!(
                "Draw: {} left the game (disconnected) ({res})",
                color_name(by, lang)
            ),
            (Abandoned { by }, Lang::Es) => format!(
                "{win}: {} abandonaron la partida (desconexión) ({res})",
                color_name(by, lang)
            ),
            (Abandoned { by }, Lang::En) => format!(
                "{win}: {} left the game (disconnected) ({res})",
                color_name(by, lang)
            ),
        }
    }
}

impl Localized for DrawClaim {
    fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (DrawClaim::Threefold, Lang::Es) => "triple repetición".into(),
            (DrawClaim::Threefold, Lang::En) => "threefold repetition".into(),
            (DrawClaim::FiftyMoves, Lang::Es) => "regla de las 50 jugadas".into(),
            (DrawClaim::FiftyMoves, Lang::En) => "fifty-move rule".into(),
        }
    }
}

impl Localized for ClaimResult {
    fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (ClaimResult::Granted(o), _) | (ClaimResult::Ended(o), _) => o.message(lang),
            (ClaimResult::Rejected, Lang::Es) => "reclamación incorrecta: la partida sigue, la reclamación queda como oferta de tablas y el rival recibe dos minutos más".into(),
            (ClaimResult::Rejected, Lang::En) => "incorrect claim: the game goes on, the claim stands as a draw offer and the opponent gets two more minutes".into(),
        }
    }
}

impl Localized for GameStatus {
    /// One line for a status bar: whose move, check, offer, claims, clocks.
    fn message(&self, lang: Lang) -> String {
        if let Some(o) = self.outcome {
            return o.message(lang);
        }
        let mut parts = vec![match lang {
            Lang::Es => format!(
                "Juegan {} (jugada {})",
                color_name(self.turn, lang),
                self.move_number
            ),
            Lang::En => format!(
                "{} to move (move {})",
                color_name_capital(self.turn, lang),
                self.move_number
            ),
        }];
        if self.in_check {
            parts.push(lang.pick("jaque", "check").into());
        }
        if let Some(by) = self.draw_offer {
            parts.push(match lang {
                Lang::Es => format!("{} ofrecen tablas", color_name(by, lang)),
                Lang::En => format!("{} offers a draw", color_name_capital(by, lang)),
            });
        }
        if !self.claims.is_empty() {
            let list: Vec<String> = self.claims.iter().map(|c| c.message(lang)).collect();
            parts.push(match lang {
                Lang::Es => format!("puede reclamar tablas por {}", list.join(" y ")),
                Lang::En => format!("may claim a draw by {}", list.join(" and ")),
            });
        } else if !self.claim_moves.is_empty() {
            let n = self.claim_moves.len();
            parts.push(match lang {
                Lang::Es => format!("{n} jugada(s) permiten reclamar tablas al anunciarlas"),
                Lang::En => format!("{n} move(s) allow a draw claim when declared"),
            });
        }
        if let Some(c) = &self.clock {
            parts.push(match lang {
                Lang::Es => format!(
                    "reloj: blancas {}, negras {}",
                    crate::clock::format_clock(c.white),
                    crate::clock::format_clock(c.black)
                ),
                Lang::En => format!(
                    "clock: White {}, Black {}",
                    crate::clock::format_clock(c.white),
                    crate::clock::format_clock(c.black)
                ),
            });
        }
        parts.join("; ")
    }
}

impl Localized for ResumeError {
    fn message(&self, lang: Lang) -> String {
        use ResumeError::*;
        match (self, lang) {
            (NoGame, Lang::Es) => "el texto no contiene ninguna partida PGN".into(),
            (NoGame, Lang::En) => "the text holds no PGN game".into(),
            (Pgn(e), _) => e.message(lang),
            (TimeControl(e), Lang::Es) => format!("control de tiempo: {}", e.message(lang)),
            (TimeControl(e), Lang::En) => format!("time control: {}", e.message(lang)),
            (BadClockTag { tag, value }, Lang::Es) => format!(
                "la etiqueta {tag} vale {value:?}, que no es un tiempo H:MM:SS"
            ),
            (BadClockTag { tag, value }, Lang::En) => {
                format!("tag {tag} is {value:?}, which is not a time H:MM:SS")
            }
            (MissingClock, Lang::Es) => "la partida tiene control de tiempo pero no guarda los tiempos restantes ([%clk] o WhiteClock/BlackClock)".into(),
            (MissingClock, Lang::En) => "the game has a time control but no remaining times ([%clk] or WhiteClock/BlackClock)".into(),
            (Replay(e), Lang::Es) => format!("no se puede reproducir la partida: {}", e.message(lang)),
            (Replay(e), Lang::En) => format!("the game cannot be replayed: {}", e.message(lang)),
            (BadEnvelope { tag, value }, Lang::Es) => {
                format!("el sobre de la jugada secreta está mal: la etiqueta {tag} vale {value:?}")
            }
            (BadEnvelope { tag, value }, Lang::En) => {
                format!("the sealed-move envelope is malformed: tag {tag} is {value:?}")
            }
        }
    }
}

impl Localized for GameError {
    fn message(&self, lang: Lang) -> String {
        use GameError::*;
        match (self, lang) {
            (GameOver(o), Lang::Es) => format!("la partida ya terminó ({})", o.message(lang)),
            (GameOver(o), Lang::En) => format!("the game is over ({})", o.message(lang)),
            (Illegal(e), _) => e.message(lang),
            (San(e), _) => e.message(lang),
            (FlagFell(c), Lang::Es) => format!(
                "a {} se les cayó la bandera antes de completar la jugada",
                color_name(*c, lang)
            ),
            (FlagFell(c), Lang::En) => {
                format!("{}'s flag fell before the move was completed", color_name(*c, lang))
            }
            (NoDrawOffer, Lang::Es) => "no hay ninguna oferta de tablas del rival que responder".into(),
            (NoDrawOffer, Lang::En) => "there is no draw offer from the opponent to answer".into(),
            (NothingToUndo, Lang::Es) => "no hay ninguna jugada que deshacer".into(),
            (NothingToUndo, Lang::En) => "there is no move to take back".into(),
            (NoFiftyMoveAgreement, Lang::Es) => "estas reglas no prevén acordar la cuenta de cincuenta jugadas (solo las de Londres 1846, art. xvii)".into(),
            (NoFiftyMoveAgreement, Lang::En) => "these rules have no agreed fifty-move count (only London 1846, art. xvii)".into(),
        }
    }
}

impl Localized for TimeClass {
    /// The class's name: bala, relámpago, rápidas, clásicas (bullet,
    /// blitz, rapid, classical).
    fn message(&self, lang: Lang) -> String {
        match self {
            TimeClass::Bullet => lang.pick("bala", "bullet"),
            TimeClass::Blitz => lang.pick("relámpago", "blitz"),
            TimeClass::Rapid => lang.pick("rápidas", "rapid"),
            TimeClass::Classical => lang.pick("clásicas", "classical"),
        }
        .into()
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

/// A move with its origin and destination squares, in `lang`'s letters:
/// `Re1-f1`, `Th1-f1` (Spanish), `Ke1-f1`, `Rh1-f1` (English).
fn long_san(san: &crate::San, from: crate::Square, lang: Lang) -> String {
    match san {
        crate::San::Normal { role, to, .. } => {
            let letter = if *role == Role::Pawn {
                String::new()
            } else {
                crate::san::role_letter(*role, lang).to_string()
            };
            format!("{letter}{from}-{to}")
        }
        crate::San::Castle(_) => san.display(lang),
    }
}

fn join_san(list: &[crate::San], lang: Lang, sep: &str) -> String {
    list.iter()
        .map(|s| s.display(lang))
        .collect::<Vec<_>>()
        .join(sep)
}

impl Localized for MoveError {
    fn message(&self, lang: Lang) -> String {
        use MoveError::*;
        match (self, lang) {
            (Empty, Lang::Es) => "no hay ninguna jugada escrita".into(),
            (Empty, Lang::En) => "no move was written".into(),
            (Unknown { text }, Lang::Es) => format!(
                "«{}» no es una jugada: escribe por ejemplo Cf3, exd5, 0-0, e8=D o g1f3",
                text.trim()
            ),
            (Unknown { text }, Lang::En) => format!(
                "\"{}\" is not a move: write for example Nf3, exd5, O-O, e8=Q or g1f3",
                text.trim()
            ),
            // The move meant is shown when the text does not already say it
            // (SAN, not coordinates).
            (Illegal { text, mv: Some(m), reason }, Lang::Es)
                if !text.trim().eq_ignore_ascii_case(&m.to_string()) =>
            {
                format!("{text:?} ({m}) es ilegal: {}", reason.message(lang))
            }
            (Illegal { text, mv: Some(m), reason }, Lang::En)
                if !text.trim().eq_ignore_ascii_case(&m.to_string()) =>
            {
                format!("{text:?} ({m}) is illegal: {}", reason.message(lang))
            }
            (Illegal { text, reason, .. }, Lang::Es) => {
                format!("{text:?} es ilegal: {}", reason.message(lang))
            }
            (Illegal { text, reason, .. }, Lang::En) => {
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
                join_san(candidates, Lang::Es, " o ")
            ),
            (Ambiguous { text, candidates }, Lang::En) => format!(
                "{text:?} is ambiguous: it may be {}; give the origin file or rank",
                join_san(candidates, Lang::En, " or ")
            ),
            (
                AmbiguousLanguage {
                    text,
                    spanish,
                    english,
                    spanish_from,
                    english_from,
                },
                Lang::Es,
            ) => format!(
                "{text:?} es ambigua: puede ser {} (en español, R = rey) o {} (en inglés, R = torre); elige el idioma de la notación",
                long_san(spanish, *spanish_from, Lang::Es),
                long_san(english, *english_from, Lang::Es)
            ),
            (
                AmbiguousLanguage {
                    text,
                    spanish,
                    english,
                    spanish_from,
                    english_from,
                },
                Lang::En,
            ) => format!(
                "{text:?} is ambiguous: it may be {} (in Spanish, R = king) or {} (in English, R = rook); choose the notation's language",
                long_san(spanish, *spanish_from, Lang::En),
                long_san(english, *english_from, Lang::En)
            ),
        }
    }
}

impl Localized for PgnErrorKind {
    fn message(&self, lang: Lang) -> String {
        use PgnErrorKind::*;
        match (self, lang) {
            (Io(e), Lang::Es) => format!("no se pudo leer la entrada: {e}"),
            (Io(e), Lang::En) => format!("could not read the input: {e}"),
            (BadTag, Lang::Es) => "etiqueta mal formada: debe ser [Nombre \"valor\"]".into(),
            (BadTag, Lang::En) => "malformed tag pair: it must be [Name \"value\"]".into(),
            (BadFen(e), Lang::Es) => format!("la etiqueta FEN no es válida: {}", e.message(lang)),
            (BadFen(e), Lang::En) => format!("the FEN tag is not valid: {}", e.message(lang)),
            (San(e), _) => e.message(lang),
            (NullMoveInCheck, Lang::Es) => {
                "jugada nula (--) con el rey en jaque: no se puede pasar estando en jaque".into()
            }
            (NullMoveInCheck, Lang::En) => {
                "null move (--) while in check: a side in check cannot pass".into()
            }
            (UnclosedComment, Lang::Es) => "comentario { sin cerrar".into(),
            (UnclosedComment, Lang::En) => "comment { is never closed".into(),
            (UnclosedVariation, Lang::Es) => "variante ( sin cerrar".into(),
            (UnclosedVariation, Lang::En) => "variation ( is never closed".into(),
            (UnmatchedClose, Lang::Es) => "')' sin variante abierta".into(),
            (UnmatchedClose, Lang::En) => "')' with no open variation".into(),
            (VariationWithoutMove, Lang::Es) => {
                "variante '(' antes de cualquier jugada: una variante es una alternativa a la jugada anterior".into()
            }
            (VariationWithoutMove, Lang::En) => {
                "variation '(' before any move: a variation is an alternative to the previous move".into()
            }
            (TooDeep, Lang::Es) => format!(
                "variantes anidadas a más de {} niveles",
                crate::pgn::MAX_VARIATION_DEPTH
            ),
            (TooDeep, Lang::En) => format!(
                "variations nested deeper than {} levels",
                crate::pgn::MAX_VARIATION_DEPTH
            ),
            (UnsupportedVariant(v), Lang::Es) => format!(
                "la partida es de la variante «{v}» (etiqueta Variant), que escaque no juega: no se lee como ajedrez"
            ),
            (UnsupportedVariant(v), Lang::En) => format!(
                "the game is of the variant \"{v}\" (Variant tag), which escaque does not play: it is not read as chess"
            ),
        }
    }
}

impl Localized for PgnWarningKind {
    fn message(&self, lang: Lang) -> String {
        use PgnWarningKind::*;
        match (self, lang) {
            (InformantSymbol { text, nag }, Lang::Es) => {
                format!("símbolo Informant «{text}» en las jugadas: leído como ${nag}")
            }
            (InformantSymbol { text, nag }, Lang::En) => {
                format!("Informant symbol \"{text}\" in the movetext: read as ${nag}")
            }
            (UnescapedQuotes { name }, Lang::Es) => format!(
                "la etiqueta {name} tiene comillas dentro sin escapar (\\\"): leída hasta la última comilla antes de ]"
            ),
            (UnescapedQuotes { name }, Lang::En) => format!(
                "the {name} tag has unescaped quotes inside (\\\"): read up to the last quote before ]"
            ),
            (TrailingBackslash { name }, Lang::Es) => format!(
                "la etiqueta {name} termina en una barra invertida antes de la comilla (\\\"]): la barra se lee tal cual y la comilla cierra el valor"
            ),
            (TrailingBackslash { name }, Lang::En) => format!(
                "the {name} tag ends in a backslash before its quote (\\\"]): the backslash is read as itself and the quote closes the value"
            ),
            (ResultMismatch { tag, movetext }, Lang::Es) => format!(
                "la etiqueta Result dice {tag} y las jugadas terminan en {movetext}: se conservan los dos"
            ),
            (ResultMismatch { tag, movetext }, Lang::En) => format!(
                "the Result tag says {tag} and the movetext ends in {movetext}: both are kept"
            ),
            (ResultFromTag { tag }, Lang::Es) => format!(
                "la partida no tiene jugadas y termina en *, pero la etiqueta Result dice {tag}: vale el resultado de la etiqueta"
            ),
            (ResultFromTag { tag }, Lang::En) => format!(
                "the game has no moves and ends in *, but the Result tag says {tag}: the tag's result stands"
            ),
            (NotUtf8, Lang::Es) => {
                "texto que no es UTF-8: leído como Windows-1252 (Latin-1)".to_string()
            }
            (NotUtf8, Lang::En) => "text that is not UTF-8: read as Windows-1252 (Latin-1)".to_string(),
        }
    }
}

/// Where in a PGN file something was found, before what: "partida 2, línea
/// 14, columna 3: …" (errors and warnings alike).
fn at_place(
    lang: Lang,
    game: impl fmt::Display,
    line: impl fmt::Display,
    column: impl fmt::Display,
    what: &str,
) -> String {
    match lang {
        Lang::Es => format!("partida {game}, línea {line}, columna {column}: {what}"),
        Lang::En => format!("game {game}, line {line}, column {column}: {what}"),
    }
}

impl Localized for PgnWarning {
    fn message(&self, lang: Lang) -> String {
        at_place(
            lang,
            self.game,
            self.line,
            self.column,
            &self.kind.message(lang),
        )
    }
}

impl Localized for PgnError {
    fn message(&self, lang: Lang) -> String {
        at_place(
            lang,
            self.game,
            self.line,
            self.column,
            &self.kind.message(lang),
        )
    }
}

display_in_spanish!(
    FenError,
    IllegalMove,
    MoveError,
    TimeControlError,
    GameError,
    PgnError,
    ResumeError
);

macro_rules! display_only_in_spanish {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.message(Lang::Es))
            }
        }
    )*};
}

display_only_in_spanish!(GameResult, Termination, Outcome, DrawClaim, ClaimResult);

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::Es))
    }
}
