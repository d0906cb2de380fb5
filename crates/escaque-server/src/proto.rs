//! The JSON protocol: what a client may send, the typed errors the server
//! answers with (Spanish and English text), and the one function that reads a
//! typed move. See `docs/protocol.md` for every message with examples.

use escaque::{Lang, Localized, Move, Notation, Position, SanLang};
use serde::Deserialize;
use serde_json::{json, Value};

/// The largest text frame the server reads as a message; larger frames (up to
/// the transport limit) are answered with [`ErrorCode::TooLarge`].
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// The largest frame the transport accepts at all; beyond it the connection
/// is closed with code 1009 (message too big).
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// A message from a client on a game's WebSocket.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Play a move, in coordinates (`e2e4`, `e7e8d`) or SAN (Spanish or English).
    Move {
        /// The move text.
        #[serde(rename = "move")]
        mv: String,
        /// An optional number echoed in the `ack` or `error`.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Offer a draw (accepts the opponent's pending offer).
    OfferDraw {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Accept the opponent's draw offer.
    AcceptDraw {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Decline the opponent's draw offer.
    DeclineDraw {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Claim a draw (threefold repetition, fifty moves), optionally declaring
    /// the move that brings it about.
    ClaimDraw {
        /// The declared move.
        #[serde(default, rename = "move")]
        mv: Option<String>,
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Resign.
    Resign {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Abort (only before both sides have moved).
    Abort {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Ask the opponent to take back the last move (games without a clock).
    Takeback {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Answer the opponent's takeback request.
    TakebackAnswer {
        /// Yes or no.
        accept: bool,
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Offer (or accept) a rematch after the game.
    Rematch {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// After the opponent's grace period expired while disconnected: end the
    /// game as a win or a draw.
    ClaimAbandoned {
        /// `win` or `draw`.
        result: String,
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Answer to a server `ping` (for lag measurement).
    Pong {
        /// The ping's number.
        n: u64,
    },
    /// Ask for the full state again.
    State {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
}

impl ClientMsg {
    /// The request number to echo.
    pub fn id(&self) -> Option<u64> {
        use ClientMsg::*;
        match self {
            Move { id, .. }
            | OfferDraw { id }
            | AcceptDraw { id }
            | DeclineDraw { id }
            | ClaimDraw { id, .. }
            | Resign { id }
            | Abort { id }
            | Takeback { id }
            | TakebackAnswer { id, .. }
            | Rematch { id }
            | ClaimAbandoned { id, .. }
            | State { id } => *id,
            Pong { .. } => None,
        }
    }
}

/// Every error the server sends, with a stable code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// The frame is not JSON, or not an object with a known `t`: why, in
    /// Spanish and in English.
    Malformed {
        /// Spanish.
        es: String,
        /// English.
        en: String,
    },
    /// `t` names no message.
    UnknownType(String),
    /// The frame is larger than [`MAX_MESSAGE_BYTES`].
    TooLarge(usize),
    /// A binary frame.
    Binary,
    /// Too many messages too fast.
    RateLimited,
    /// The connection holds no seat (a spectator).
    NotAPlayer,
    /// A move by the side not to move.
    NotYourTurn,
    /// The move could not be read or is illegal: the library's text.
    BadMove {
        /// Spanish.
        es: String,
        /// English.
        en: String,
    },
    /// The library refused (game over, no offer, …): its text.
    Refused {
        /// Spanish.
        es: String,
        /// English.
        en: String,
    },
    /// The game has not started (waiting for the second player).
    NotStarted,
    /// The game is over.
    GameOver,
    /// Abort is only possible before both sides have moved.
    TooLateToAbort,
    /// Takebacks are off in games with a clock.
    NoTakebackWithClock,
    /// There is nothing to answer.
    NothingPending,
    /// The opponent is connected, or the grace period has not run out.
    CannotClaimAbandon,
    /// The engine's moves cannot be taken back while it thinks, etc.
    EngineThinking,
    /// Storage failed; the action did not happen.
    Storage,
    /// The game does not exist.
    NoSuchGame,
    /// Wrong seat secret.
    BadSeat,
}

impl ErrorCode {
    /// The stable machine code.
    pub fn code(&self) -> &'static str {
        use ErrorCode::*;
        match self {
            Malformed { .. } => "malformed",
            UnknownType(_) => "unknown_type",
            TooLarge(_) => "too_large",
            Binary => "binary",
            RateLimited => "rate_limited",
            NotAPlayer => "not_a_player",
            NotYourTurn => "not_your_turn",
            BadMove { .. } => "bad_move",
            Refused { .. } => "refused",
            NotStarted => "not_started",
            GameOver => "game_over",
            TooLateToAbort => "too_late_to_abort",
            NoTakebackWithClock => "no_takeback_with_clock",
            NothingPending => "nothing_pending",
            CannotClaimAbandon => "cannot_claim_abandon",
            EngineThinking => "engine_thinking",
            Storage => "storage",
            NoSuchGame => "no_such_game",
            BadSeat => "bad_seat",
        }
    }

    /// The text for a person.
    pub fn text(&self, lang: Lang) -> String {
        use ErrorCode::*;
        let p = |es: &str, en: &str| lang.pick(es, en).to_string();
        match self {
            Malformed { es, en } => lang.pick(
                format!("mensaje mal formado: {es}"),
                format!("malformed message: {en}"),
            ),
            UnknownType(t) => lang.pick(
                format!("tipo de mensaje desconocido: «{t}»"),
                format!("unknown message type: \"{t}\""),
            ),
            TooLarge(n) => lang.pick(
                format!("mensaje demasiado grande: {n} bytes (máximo {MAX_MESSAGE_BYTES})"),
                format!("message too large: {n} bytes (at most {MAX_MESSAGE_BYTES})"),
            ),
            Binary => p(
                "solo se aceptan mensajes de texto JSON",
                "only JSON text messages are accepted",
            ),
            RateLimited => p(
                "demasiados mensajes seguidos; espera un momento",
                "too many messages in a row; wait a moment",
            ),
            NotAPlayer => p(
                "no ocupas ningún puesto en esta partida (solo miras)",
                "you hold no seat in this game (spectating only)",
            ),
            NotYourTurn => p("no es tu turno", "it is not your turn"),
            BadMove { es, en } | Refused { es, en } => lang.pick(es, en).clone(),
            NotStarted => p(
                "la partida aún no empezó: falta el rival",
                "the game has not started: the opponent is missing",
            ),
            GameOver => p("la partida ya terminó", "the game is over"),
            TooLateToAbort => p(
                "solo se puede anular antes de que ambos bandos hayan jugado",
                "a game can be aborted only before both sides have moved",
            ),
            NoTakebackWithClock => p(
                "no se pueden deshacer jugadas en partidas con reloj",
                "moves cannot be taken back in games with a clock",
            ),
            NothingPending => p("no hay nada que responder", "there is nothing to answer"),
            CannotClaimAbandon => p(
                "el rival está conectado o aún no pasó su tiempo de gracia",
                "the opponent is connected or the grace period has not run out",
            ),
            EngineThinking => p("el motor está pensando", "the engine is thinking"),
            Storage => p(
                "no se pudo guardar; no se hizo nada",
                "could not store it; nothing was done",
            ),
            NoSuchGame => p("no existe esa partida", "there is no such game"),
            BadSeat => p(
                "la clave del puesto no es válida",
                "the seat secret is not valid",
            ),
        }
    }

    /// The JSON error message, echoing `id`.
    pub fn to_json(&self, id: Option<u64>) -> Value {
        json!({
            "t": "error",
            "code": self.code(),
            "es": self.text(Lang::Es),
            "en": self.text(Lang::En),
            "id": id,
        })
    }

    /// A malformed frame, with why in both languages.
    pub fn malformed(es: impl Into<String>, en: impl Into<String>) -> ErrorCode {
        ErrorCode::Malformed {
            es: es.into(),
            en: en.into(),
        }
    }

    /// A frame serde could not read: serde's English, and its Spanish.
    pub fn malformed_json(e: &serde_json::Error) -> ErrorCode {
        ErrorCode::malformed(crate::texts::serde_error_es(e), e.to_string())
    }

    /// From a library error (wording from the library's catalogue).
    pub fn refused(e: &impl Localized) -> ErrorCode {
        ErrorCode::Refused {
            es: e.message(Lang::Es),
            en: e.message(Lang::En),
        }
    }
}

/// Parses a text frame into a message, or the error to answer with.
pub fn parse_client(text: &str) -> Result<ClientMsg, ErrorCode> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(ErrorCode::TooLarge(text.len()));
    }
    let v: Value = serde_json::from_str(text).map_err(|e| ErrorCode::malformed_json(&e))?;
    let t = match v.get("t") {
        Some(Value::String(t)) => t.clone(),
        Some(_) => {
            return Err(ErrorCode::malformed(
                "«t» no es texto",
                "\"t\" is not a string",
            ))
        }
        None => return Err(ErrorCode::malformed("falta «t»", "\"t\" is missing")),
    };
    const KNOWN: [&str; 14] = [
        "move",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "claim_draw",
        "resign",
        "abort",
        "takeback",
        "takeback_answer",
        "rematch",
        "claim_abandoned",
        "pong",
        "state",
        "ping",
    ];
    if !KNOWN.contains(&t.as_str()) || t == "ping" {
        let shown: String = t.chars().take(40).collect();
        return Err(ErrorCode::UnknownType(shown));
    }
    serde_json::from_value(v).map_err(|e| ErrorCode::malformed_json(&e))
}

/// Reads a typed move with the library's one reader: coordinates (`e2e4`,
/// `e2-e4`, `e7e8d`) or SAN in either language; a text that reads as two
/// different legal moves in Spanish and in English is refused as ambiguous.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, ErrorCode> {
    if text.len() > 16 {
        return Err(ErrorCode::BadMove {
            es: "el texto de la jugada es demasiado largo".into(),
            en: "the move text is too long".into(),
        });
    }
    escaque::read_move(pos, text, Notation::Any(SanLang::Auto)).map_err(|e| ErrorCode::BadMove {
        es: e.message(Lang::Es),
        en: e.message(Lang::En),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_known_messages() {
        assert_eq!(
            parse_client(r#"{"t":"move","move":"e2e4","id":3}"#),
            Ok(ClientMsg::Move {
                mv: "e2e4".into(),
                id: Some(3)
            })
        );
        assert_eq!(
            parse_client(r#"{"t":"resign"}"#),
            Ok(ClientMsg::Resign { id: None })
        );
    }

    #[test]
    fn refuses_bad_frames() {
        assert_eq!(parse_client("nope").unwrap_err().code(), "malformed");
        assert_eq!(parse_client("[1]").unwrap_err().code(), "malformed");
        assert_eq!(
            parse_client(r#"{"t":"fly"}"#).unwrap_err().code(),
            "unknown_type"
        );
        assert_eq!(
            parse_client(r#"{"t":"move"}"#).unwrap_err().code(),
            "malformed"
        );
        let big = format!(r#"{{"t":"move","move":"{}"}}"#, "x".repeat(5000));
        assert_eq!(parse_client(&big).unwrap_err().code(), "too_large");
    }

    #[test]
    fn reads_moves_in_every_form() {
        let pos = Position::new();
        for t in ["e2e4", "e2-e4", "e4"] {
            assert_eq!(read_move(&pos, t).unwrap().to_string(), "e2e4");
        }
        assert_eq!(read_move(&pos, "Cf3").unwrap().to_string(), "g1f3");
        assert_eq!(read_move(&pos, "Nf3").unwrap().to_string(), "g1f3");
        assert_eq!(read_move(&pos, "e2e5").unwrap_err().code(), "bad_move");
        assert_eq!(read_move(&pos, "Zz9").unwrap_err().code(), "bad_move");
    }

    proptest::proptest! {
        #[test]
        fn parse_never_panics(s in ".{0,300}") {
            let _ = parse_client(&s);
            let _ = read_move(&Position::new(), &s);
        }

        #[test]
        fn parse_never_panics_on_json_like(t in "[a-z_]{0,20}", mv in ".{0,20}", id in proptest::option::of(0u64..u64::MAX)) {
            let frame = json!({"t": t, "move": mv, "id": id}).to_string();
            let _ = parse_client(&frame);
        }
    }
}
