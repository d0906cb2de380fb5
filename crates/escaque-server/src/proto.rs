//! The JSON protocol: what a client may send, what the server sends (typed
//! messages, [`ServerMsg`]), the typed errors it answers with (Spanish and
//! English text), and the one function that reads a typed move. See `docs/protocol.md` for every message with examples.
//!
//! One file per resource below this one (issue 53): [`classes`], [`lobby`],
//! [`common`]…; every HTTP answer and socket frame is a type here, never a
//! `json!` literal in a handler.

pub mod analysis;
pub mod aprender;
pub mod classes;
pub mod common;
pub mod equipos;
pub mod equipos_online;
pub mod fide;
pub mod games;
pub mod lobby;
pub mod players;
pub mod problemas;
pub mod resultados;
pub mod simuls;
pub mod tareas;
pub mod tournaments;

use escaque::{Color, Lang, Localized, Move, Notation, Position, SanLang};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What goes to a connection: a serialized JSON message (written once,
/// shared by every connection it goes to).
pub type Out = std::sync::Arc<str>;

/// The largest text frame the server reads as a message; larger frames (up to
/// the transport limit) are answered with [`ErrorCode::TooLarge`].
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// The largest frame the server accepts at all; beyond it the connection is
/// closed with code 1009 (message too big) and a reason.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;

/// The transport's own limit: a frame up to this size is read whole, so
/// that a frame over [`MAX_FRAME_BYTES`] gets a clean close (1009) after the
/// client's closing handshake; beyond it the close frame is still sent, but
/// the rest of the frame is never read.
pub const TRANSPORT_FRAME_BYTES: usize = 1024 * 1024;

/// A message from a client on a game's WebSocket. Serialized as it is read
/// (a process serving a client whose game another process owns forwards the
/// message to the owner: `crate::cluster::relay`).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
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
        /// Accepted like every message's `id`; a pong is never answered.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Ask for the full state again.
    State {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    // Adjournment and the sealed move (docs/protocol.md, "Adjournment and
    // the sealed move").
    /// Offer to adjourn the game (accepts the opponent's pending offer).
    OfferAdjourn {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Accept the opponent's offer to adjourn: the side to move then seals.
    AcceptAdjourn {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Decline the opponent's offer to adjourn.
    DeclineAdjourn {
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// The sealed move, as the player writes it (not validated until the
    /// envelope is opened): the game is adjourned.
    Seal {
        /// The text (SAN in Spanish or English, or coordinates).
        #[serde(rename = "move")]
        mv: String,
        /// Echoed.
        #[serde(default)]
        id: Option<u64>,
    },
    /// In an adjourned game: this player is back and ready to go on.
    Resume {
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
            | State { id }
            | Pong { id, .. } => *id,
            OfferAdjourn { id }
            | AcceptAdjourn { id }
            | DeclineAdjourn { id }
            | Seal { id, .. }
            | Resume { id } => *id,
        }
    }
}

/// Every error the server sends, with a stable code. Between the processes
/// of one database (`crate::cluster::wire`) it travels as itself: its code
/// in `code` and, for the codes that carry some, its data in `data`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "code", content = "data", rename_all = "snake_case")]
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
    /// Storage failed; the action did not happen.
    Storage,
    /// The game does not exist.
    NoSuchGame,
    /// Wrong seat secret.
    BadSeat,
    /// The seat's secret was renewed (`POST /api/games/{id}/seat`): this
    /// connection, opened with the old one, now only watches.
    SeatReclaimed,
    /// Not in a tournament game: abort, rematch and takeback (the result
    /// counts in the tournament, and the next game is the next round's).
    TournamentGame,
    /// This game cannot be adjourned: why.
    CannotAdjourn(NoAdjourn),
    /// A move is being sealed: only the sealed move (or resigning) now.
    Sealing,
    /// The game is adjourned: nothing but `resume` until it resumes.
    Adjourned,
    /// `seal` when no adjournment was agreed.
    NotSealing,
    /// `resume` when the game is not adjourned.
    NotAdjourned,
    /// The game changed hands (its process stopped or died) while the
    /// message was on its way: it may or may not have been done. The state
    /// that follows says which; the client sends it again if it still
    /// applies (docs/protocol.md, "Several processes").
    Retry,
}

/// Why a game cannot be adjourned ([`ErrorCode::CannotAdjourn`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoAdjourn {
    /// Against the engine: there is nobody to agree with.
    Engine,
    /// A tournament game: the round is played at one sitting.
    Tournament,
    /// Before both sides have moved (the game may still be aborted).
    Opening,
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
            Storage => "storage",
            NoSuchGame => "no_such_game",
            BadSeat => "bad_seat",
            SeatReclaimed => "seat_reclaimed",
            TournamentGame => "tournament_game",
            CannotAdjourn(_) => "cannot_adjourn",
            Sealing => "sealing",
            Adjourned => "adjourned",
            NotSealing => "not_sealing",
            NotAdjourned => "not_adjourned",
            Retry => "retry",
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
            Storage => p(
                "no se pudo guardar; no se hizo nada",
                "could not store it; nothing was done",
            ),
            NoSuchGame => p("no existe esa partida", "there is no such game"),
            BadSeat => p(
                "la clave del puesto no es válida",
                "the seat secret is not valid",
            ),
            SeatReclaimed => p(
                "tu puesto se reclamó con una clave nueva; esta conexión ahora solo mira",
                "your seat was reclaimed with a new secret; this connection now only watches",
            ),
            TournamentGame => p(
                "no se puede en una partida de torneo (ni anular, ni revancha, ni deshacer)",
                "not in a tournament game (no abort, rematch or takeback)",
            ),
            CannotAdjourn(NoAdjourn::Engine) => p(
                "no se aplaza una partida contra el motor",
                "a game against the engine is not adjourned",
            ),
            CannotAdjourn(NoAdjourn::Tournament) => p(
                "no se aplaza una partida de torneo: la ronda se juega de una vez",
                "a tournament game is not adjourned: the round is played at one sitting",
            ),
            CannotAdjourn(NoAdjourn::Opening) => p(
                "no se aplaza antes de que ambos bandos hayan jugado (se puede anular)",
                "a game is not adjourned before both sides have moved (it may be aborted)",
            ),
            Sealing => p(
                "se está escribiendo la jugada secreta: solo cabe sellarla o abandonar",
                "the sealed move is being written: only sealing it or resigning now",
            ),
            Adjourned => p(
                "la partida está aplazada: se reanuda cuando ambos digan «reanudar»",
                "the game is adjourned: it resumes when both say \"resume\"",
            ),
            NotSealing => p(
                "no hay jugada que sellar: antes se acuerda aplazar",
                "there is no move to seal: adjourning must be agreed first",
            ),
            NotAdjourned => p("la partida no está aplazada", "the game is not adjourned"),
            Retry => p(
                "la partida cambió de proceso mientras llegaba tu mensaje: el estado que sigue \
                 dice si se hizo; si no, vuelve a enviarlo",
                "the game changed process while your message was on its way: the state that \
                 follows says whether it was done; if not, send it again",
            ),
        }
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

/// A frame that is no message: the error to answer with, and the request
/// number to echo when the frame was a JSON object with a numeric `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadFrame {
    /// What is wrong.
    pub error: ErrorCode,
    /// The frame's `id`, when it could be read.
    pub id: Option<u64>,
}

impl BadFrame {
    /// The stable machine code of the error.
    pub fn code(&self) -> &'static str {
        self.error.code()
    }
}

/// The numeric `id` of a text frame that is a JSON object with one (at most
/// [`MAX_MESSAGE_BYTES`] long): what an answer that does not read the rest of
/// the frame (`rate_limited`) echoes.
pub fn frame_id(text: &str) -> Option<u64> {
    #[derive(Deserialize)]
    struct Id {
        id: Option<Value>,
    }
    if text.len() > MAX_MESSAGE_BYTES {
        return None;
    }
    serde_json::from_str::<Id>(text)
        .ok()
        .and_then(|f| f.id)
        .and_then(|v| v.as_u64())
}

/// Parses a text frame into a message, or the error to answer with (echoing
/// the frame's numeric `id` whenever the frame is a JSON object that has one,
/// whatever else is wrong with it).
pub fn parse_client(text: &str) -> Result<ClientMsg, BadFrame> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(BadFrame {
            error: ErrorCode::TooLarge(text.len()),
            id: None,
        });
    }
    let v: Value = serde_json::from_str(text).map_err(|e| BadFrame {
        error: ErrorCode::malformed_json(&e),
        id: None,
    })?;
    let id = v.get("id").and_then(Value::as_u64);
    parse_value(v).map_err(|error| BadFrame { error, id })
}

fn parse_value(v: Value) -> Result<ClientMsg, ErrorCode> {
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
    const KNOWN: [&str; 19] = [
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
        "offer_adjourn",
        "accept_adjourn",
        "decline_adjourn",
        "seal",
        "resume",
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

// ---------------------------------------------------------------- server → client

/// A side as the protocol writes it: `white` or `black`.
pub fn side(c: Color) -> &'static str {
    c.fold("white", "black")
}

/// Every message the server sends on a game's WebSocket (model: lila's
/// `Event.scala`); serialized with the type in `t`. See `docs/protocol.md`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The whole game: the first message on a connection, and the answer to
    /// a `state` request.
    State(StateMsg),
    /// A change, with the state after it (without the move list).
    Event(EventMsg),
    /// The request with this `id` was done (and stored).
    Ack {
        /// The request's `id`.
        id: Option<u64>,
    },
    /// The request was refused.
    Error {
        /// The stable code.
        code: &'static str,
        /// Spanish.
        es: String,
        /// English.
        en: String,
        /// The request's `id`.
        id: Option<u64>,
    },
    /// A rematch's seat and secret, to its player alone.
    RematchSeat {
        /// The new game.
        game: String,
        /// `white` or `black`.
        seat: &'static str,
        /// The seat's secret.
        secret: String,
    },
    /// For lag measurement: answer with a `pong` carrying `n`.
    Ping {
        /// The ping's number.
        n: u64,
    },
}

impl ServerMsg {
    /// The error message for `e`, echoing `id`.
    pub fn error(e: &ErrorCode, id: Option<u64>) -> ServerMsg {
        ServerMsg::Error {
            code: e.code(),
            es: e.text(Lang::Es),
            en: e.text(Lang::En),
            id,
        }
    }

    /// The JSON text that goes on the wire.
    pub fn to_text(&self) -> String {
        // Plain data with string keys: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// `state`: the game, who the connection is, and the request's `id`.
#[derive(Clone, Debug, Serialize)]
pub struct StateMsg {
    /// The seat this connection holds (`null` for a spectator).
    pub you: Option<&'static str>,
    /// The `id` of the `state` request answered (`null` on connecting).
    pub id: Option<u64>,
    /// The game.
    #[serde(flatten)]
    pub state: StateView,
}

/// `event`: what happened, and the state after it.
#[derive(Clone, Debug, Serialize)]
pub struct EventMsg {
    /// What happened (`event` and `data`).
    #[serde(flatten)]
    pub event: GameEvent,
    /// The state after it.
    #[serde(flatten)]
    pub state: StateView,
}

/// What happened in a game: `event` names it, `data` gives its details.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", content = "data", rename_all = "snake_case")]
pub enum GameEvent {
    /// The second player joined.
    Start {},
    /// The game ended (see the state's `result`, `termination`, `end_text`).
    End {},
    /// A move was stored.
    Move(MoveView),
    /// A draw offer was made.
    DrawOffer {
        /// Who offered.
        by: &'static str,
    },
    /// A draw offer was declined.
    DrawDeclined {
        /// Who declined.
        by: &'static str,
    },
    /// An incorrect claim: it stands as a draw offer (9.5.3).
    ClaimRejected {
        /// Who claimed.
        by: &'static str,
        /// Spanish.
        es: String,
        /// English.
        en: String,
    },
    /// A takeback was asked for.
    TakebackOffer {
        /// Who asked.
        by: &'static str,
    },
    /// A takeback was refused.
    TakebackDeclined {
        /// Who refused.
        by: &'static str,
    },
    /// Moves were taken back.
    Takeback {
        /// Who asked.
        by: &'static str,
        /// The new number of plies.
        plies: usize,
    },
    /// A rematch was offered.
    RematchOffer {
        /// Who offered.
        by: &'static str,
    },
    /// The rematch exists.
    Rematch {
        /// Its id.
        game: String,
    },
    /// A player's last connection closed, or a player who had left is back.
    Presence {
        /// Whose.
        seat: &'static str,
        /// Connected now.
        connected: bool,
        /// Spanish.
        es: &'static str,
        /// English.
        en: &'static str,
    },
    /// The tournament's organiser gave a side more time.
    TimeAdded {
        /// Whose clock.
        seat: &'static str,
        /// How much, ms.
        ms: u64,
    },
    // Adjournment and the sealed move.
    /// An offer to adjourn.
    AdjournOffer {
        /// Who offered.
        by: &'static str,
    },
    /// An offer to adjourn was declined.
    AdjournDeclined {
        /// Who declined.
        by: &'static str,
    },
    /// Adjourning was agreed: the side to move writes its sealed move.
    Sealing {
        /// Who seals.
        by: &'static str,
    },
    /// The move was sealed (never shown) and the game adjourned.
    Adjourned {
        /// Who sealed.
        by: &'static str,
    },
    /// A player is back and ready to resume.
    ResumeReady {
        /// Who.
        by: &'static str,
    },
    /// Both were ready: the envelope was opened. A `move` event follows
    /// when the sealed move was played, an `end` event when it was judged.
    EnvelopeOpened {
        /// Who had sealed.
        by: &'static str,
        /// The text as written, shown now that the envelope is open.
        sealed_move: String,
        /// Whether it was played (else the game ended with the verdict).
        played: bool,
        /// Why the text was not a move here (when not played), Spanish.
        es: Option<String>,
        /// The same, English.
        en: Option<String>,
    },
}

/// The state of a game, as every `state` and `event` carries it.
#[derive(Clone, Debug, Serialize)]
pub struct StateView {
    /// The game's id.
    pub game: String,
    /// The rule set.
    pub rules: &'static str,
    /// The start position.
    pub start_fen: String,
    /// The position now.
    pub fen: String,
    /// Moves made.
    pub plies: usize,
    /// White.
    pub white: PlayerView,
    /// Black.
    pub black: PlayerView,
    /// `waiting`, `playing`, `adjourned`, `over`.
    pub status: &'static str,
    /// The side to move.
    pub turn: &'static str,
    /// The full-move number.
    pub move_number: u32,
    /// The side to move is in check.
    pub in_check: bool,
    /// Origin → destinations of the side to move (while playing).
    pub legal: std::collections::BTreeMap<String, Vec<String>>,
    /// The legal moves in coordinates (while playing).
    pub legal_uci: Vec<String>,
    /// The clock, when the game has one.
    pub clock: Option<ClockView>,
    /// Who offers a draw now.
    pub draw_offer: Option<&'static str>,
    /// Who asks for a takeback now.
    pub takeback_offer: Option<&'static str>,
    /// Who offers a rematch now.
    pub rematch_offer: Option<&'static str>,
    /// The rematch's id, once it exists.
    pub rematch_game: Option<String>,
    /// Draws the side to move may claim now.
    pub claimable: Vec<&'static str>,
    /// Moves the side to move may declare with a claim.
    pub claim_moves: Vec<ClaimMoveView>,
    /// Whether the game may still be aborted.
    pub can_abort: bool,
    /// The grace period of a disconnected player.
    pub grace_ms: u64,
    /// Who may claim the game after the opponent's grace ran out.
    pub abandon_claimable_by: Option<&'static str>,
    /// The result once over.
    pub result: Option<&'static str>,
    /// The ending's id once over (the library's `Termination::id`).
    pub termination: Option<&'static str>,
    /// The side the ending names (who resigned, flagged, sealed or left).
    pub termination_side: Option<&'static str>,
    /// The ending in words once over.
    pub end_text: Option<EndText>,
    /// The last move, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_move: Option<MoveView>,
    /// Every move (in `state` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveView>>,
    /// The tournament board this game is, if any (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TournamentBoard>,
    /// A rated game.
    pub rated: bool,
    /// The rating pool of a rated game (`bullet`, `blitz`, `rapid`,
    /// `classical`, `chess960`); null when casual.
    pub perf: Option<&'static str>,
    /// `standard` or `chess960`.
    pub variant: &'static str,
    /// A Chess960 game's starting position number (0–959), when it began
    /// from one of the 960.
    pub chess960_position: Option<u16>,
    /// The opening so far (`{eco, name_es, name_en, ply}`): the deepest
    /// named position of the game's first 40 plies; null for none, Chess960
    /// and set-up positions.
    pub opening: Option<escaque_analysis::Opening>,
    // Adjournment and the sealed move (`status` may also be `adjourned`).
    /// Who offers to adjourn now.
    pub adjourn_offer: Option<&'static str>,
    /// Who is writing the sealed move now (adjourning was agreed).
    pub sealing: Option<&'static str>,
    /// Who sealed the move of an adjourned game (the move itself is never
    /// sent before the envelope is opened).
    pub sealed_by: Option<&'static str>,
    /// In an adjourned game: the players who said they are back.
    pub resume_ready: Vec<&'static str>,
}

/// Where a tournament game is played: its tournament, round and board.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentBoard {
    /// The tournament's id.
    pub id: String,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
}

/// A seat's player.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// The name shown.
    pub name: String,
    /// `human` or `engine`.
    pub kind: &'static str,
    /// The engine's level.
    pub level: Option<u32>,
    /// See `docs/protocol.md`: `false` only for a player who has left.
    pub connected: bool,
    /// The player's rating in the game's pool when it began (rated games
    /// only; truncated as lichess shows it).
    pub rating: Option<i64>,
    /// That rating is provisional (deviation 110 or more: shown "1500?").
    pub provisional: bool,
    /// What the game changed the rating by, once the finished game has
    /// been applied.
    pub rating_diff: Option<i64>,
}

/// One game in progress, as `GET /api/games/live` and the lobby's `live`
/// push list it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LiveGame {
    /// Game id.
    pub game: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The rule set's id.
    pub rules: &'static str,
    /// Half-moves played.
    pub plies: usize,
    /// The clock, or null.
    pub clock: Option<LiveClock>,
    /// Where a spectator's page is.
    pub watch: String,
    /// `standard` or `chess960`.
    pub variant: &'static str,
    /// A Chess960 game's starting position number, if it has one.
    pub chess960_position: Option<u16>,
    /// The opening so far (`{eco, name_es, name_en, ply}`), or null.
    pub opening: Option<escaque_analysis::Opening>,
    /// Who sits in each seat, White first (identity keys; not listed): a
    /// game with a pupil in it is kept off the public list (kid mode).
    #[serde(skip)]
    pub owners: [Option<String>; 2],
    /// The class the game belongs to, if any (not listed; kept off the
    /// public list).
    #[serde(skip)]
    pub class_id: Option<String>,
}

/// A listed game's clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LiveClock {
    /// White's time, ms.
    pub white_ms: u64,
    /// Black's time, ms.
    pub black_ms: u64,
    /// Whose clock runs.
    pub running: Option<&'static str>,
    /// The time control in escaque's form.
    pub control: String,
}

/// The clock.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// White's time, ms.
    pub white_ms: u64,
    /// Black's time, ms.
    pub black_ms: u64,
    /// Whose clock runs.
    pub running: Option<&'static str>,
    /// What is left of a simple delay, ms.
    pub delay_ms: u64,
    /// The time control in escaque's form.
    pub control: String,
}

/// One move of the game.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// Its index from 0.
    pub ply: usize,
    /// Coordinates.
    pub uci: String,
    /// English SAN.
    pub san: String,
    /// Spanish SAN.
    pub san_es: Option<String>,
    /// The mover's time after it, ms.
    pub clock_ms: Option<i64>,
}

/// A move that may be declared with a draw claim.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimMoveView {
    /// Coordinates.
    pub uci: String,
    /// English SAN.
    pub san: String,
    /// Spanish SAN.
    pub san_es: String,
    /// The claim it brings.
    pub claim: &'static str,
}

/// An ending in words.
#[derive(Clone, Debug, Serialize)]
pub struct EndText {
    /// Spanish.
    pub es: String,
    /// English.
    pub en: String,
}

#[cfg(test)]
mod server_msg_tests {
    use serde_json::json;

    use super::*;

    fn wire(m: &ServerMsg) -> Value {
        serde_json::from_str(&m.to_text()).unwrap()
    }

    #[test]
    fn the_same_json_as_before() {
        assert_eq!(
            wire(&ServerMsg::Ack { id: Some(7) }),
            json!({"t": "ack", "id": 7})
        );
        assert_eq!(
            wire(&ServerMsg::error(&ErrorCode::NotYourTurn, None)),
            json!({"t": "error", "code": "not_your_turn", "es": "no es tu turno",
                   "en": "it is not your turn", "id": null})
        );
        assert_eq!(
            wire(&ServerMsg::Ping { n: 12 }),
            json!({"t": "ping", "n": 12})
        );
        assert_eq!(
            wire(&ServerMsg::RematchSeat {
                game: "g".into(),
                seat: side(Color::Black),
                secret: "s".into()
            }),
            json!({"t": "rematch_seat", "game": "g", "seat": "black", "secret": "s"})
        );
        let ev = |e: GameEvent| serde_json::to_value(e).unwrap();
        assert_eq!(
            ev(GameEvent::Start {}),
            json!({"event": "start", "data": {}})
        );
        assert_eq!(
            ev(GameEvent::Takeback {
                by: "white",
                plies: 2
            }),
            json!({"event": "takeback", "data": {"by": "white", "plies": 2}})
        );
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

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
        assert_eq!(
            parse_client(r#"{"t":"pong","n":4,"id":9}"#),
            Ok(ClientMsg::Pong { n: 4, id: Some(9) })
        );
    }

    #[test]
    fn refusals_echo_the_id() {
        for frame in [
            r#"{"t":"castle_now","id":114}"#,
            r#"{"t":"move","id":114}"#,
            r#"{"t":7,"id":114}"#,
            r#"{"id":114}"#,
            r#"{"t":"move","move":"e4","extra":1,"id":114}"#,
        ] {
            assert_eq!(parse_client(frame).unwrap_err().id, Some(114), "{frame}");
        }
        assert_eq!(
            parse_client(r#"{"t":"fly","id":"x"}"#).unwrap_err().id,
            None
        );
        assert_eq!(parse_client("nope").unwrap_err().id, None);
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
