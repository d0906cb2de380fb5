//! What the processes of one database say to each other over the internal
//! routes (issue 28; docs/protocol.md, "Several processes"): the frames a
//! serving process forwards to a game's owner, the commands it sends and
//! the answers it gets, and the secret's header. The routes that answer
//! them are `crate::http::internal`; the client side is [`super::relay`].

use std::time::Duration;

use escaque::Color;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::proto::{ClientMsg, ErrorCode, LiveClock, LiveGame, MAX_FRAME_BYTES};

/// The header that carries the processes' shared secret.
pub const SECRET_HEADER: &str = "x-escaque-clave";

/// The longest wait in the serving process a [`Frame`] may declare (a
/// larger `held_us` counts as this much).
pub const MAX_HELD: Duration = Duration::from_secs(5);

/// A client message forwarded to the owner (serving process → owner, one
/// text frame). The owner hands it to the game's task as if the client
/// were connected to it: `rtt_us` is the round trip it credits (the
/// client's, measured by the serving process with the protocol's `ping`,
/// plus the hop between the processes, measured with WebSocket pings), and
/// the message counts as received `held_us` before it arrived.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frame {
    /// The client's message.
    pub msg: ClientMsg,
    /// The round trip to credit, µs.
    #[serde(default)]
    pub rtt_us: u64,
    /// How long the message waited in the serving process, µs.
    #[serde(default)]
    pub held_us: u64,
}

impl Frame {
    /// Reads a frame; anything else is an error (never a panic).
    pub fn read(text: &str) -> Result<Frame, ErrorCode> {
        if text.len() > MAX_FRAME_BYTES {
            return Err(ErrorCode::TooLarge(text.len()));
        }
        serde_json::from_str(text).map_err(|e| ErrorCode::malformed_json(&e))
    }
}

/// A side on the internal routes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        c.fold(Side::White, Side::Black)
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// A command for the owner's task of a game (`POST /interno/games/{id}/cmd`):
/// `crate::actor::Cmd` without its reply channel, tagged with `cmd`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Does this process run the game? (A stand-in asks before it starts.)
    Probe,
    /// `Cmd::Seated`.
    Seated {
        /// Which seat.
        seat: Side,
        /// The player's name.
        name: String,
        /// The player's identity.
        owner: String,
    },
    /// `Cmd::SeatReclaimed`.
    SeatReclaimed {
        /// Which seat.
        seat: Side,
    },
    /// `Cmd::Snapshot`.
    Snapshot,
    /// `Cmd::Live`.
    Live,
    /// `Cmd::AddTime`.
    AddTime {
        /// Whose clock.
        color: Side,
        /// How much, ms.
        ms: u64,
    },
    /// `Cmd::SetResult`.
    SetResult {
        /// The result as the tournament writes it (`1-0`, `½-½`, `+/-`, …).
        outcome: String,
    },
}

/// The owner's answer to a [`Command`] (200): the fields its command
/// answers with, the others absent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// `snapshot`: the state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Value>,
    /// `live`: the game as the list of games in progress shows it (absent
    /// when it is not being played).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<LiveWire>,
    /// `add_time`, `set_result`: why not, when refused (the protocol's own
    /// error: its code, and its data when it has some).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<ErrorCode>,
}

/// [`LiveGame`] on the wire, with the fields the public list hides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveWire {
    /// Game id.
    pub game: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The rule set's id.
    pub rules: String,
    /// Half-moves played.
    pub plies: usize,
    /// The clock.
    pub clock: Option<LiveClockWire>,
    /// The spectator's page.
    pub watch: String,
    /// `standard` or `chess960`.
    pub variant: String,
    /// A Chess960 game's position number.
    pub chess960_position: Option<u16>,
    /// The opening so far.
    pub opening: Option<escaque_analysis::Opening>,
    /// The seats' identities.
    pub owners: [Option<String>; 2],
    /// The class, if any.
    pub class_id: Option<String>,
}

/// [`LiveClock`] on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveClockWire {
    /// White's time, ms.
    pub white_ms: u64,
    /// Black's time, ms.
    pub black_ms: u64,
    /// Whose clock runs.
    pub running: Option<Side>,
    /// The time control.
    pub control: String,
}

impl From<&LiveGame> for LiveWire {
    fn from(g: &LiveGame) -> LiveWire {
        LiveWire {
            game: g.game.clone(),
            white: g.white.clone(),
            black: g.black.clone(),
            rules: g.rules.to_string(),
            plies: g.plies,
            clock: g.clock.as_ref().map(|c| LiveClockWire {
                white_ms: c.white_ms,
                black_ms: c.black_ms,
                running: match c.running {
                    Some("white") => Some(Side::White),
                    Some("black") => Some(Side::Black),
                    _ => None,
                },
                control: c.control.clone(),
            }),
            watch: g.watch.clone(),
            variant: g.variant.to_string(),
            chess960_position: g.chess960_position,
            opening: g.opening.clone(),
            owners: g.owners.clone(),
            class_id: g.class_id.clone(),
        }
    }
}

impl LiveWire {
    /// The game as the list shows it (an unknown rule set: the default's id).
    pub fn to_live(&self) -> LiveGame {
        LiveGame {
            game: self.game.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            rules: escaque::RuleSet::from_id(&self.rules)
                .unwrap_or_default()
                .id(),
            plies: self.plies,
            clock: self.clock.as_ref().map(|c| LiveClock {
                white_ms: c.white_ms,
                black_ms: c.black_ms,
                running: c.running.map(|s| crate::proto::side(s.into())),
                control: c.control.clone(),
            }),
            watch: self.watch.clone(),
            variant: if self.variant == "chess960" {
                "chess960"
            } else {
                "standard"
            },
            chess960_position: self.chess960_position,
            opening: self.opening.clone(),
            owners: self.owners.clone(),
            class_id: self.class_id.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of every error (the `match` below fails to compile when a
    /// variant is added, so that it is added here too).
    fn every_error() -> Vec<ErrorCode> {
        use crate::proto::NoAdjourn;
        use ErrorCode::*;
        let all = vec![
            Malformed {
                es: "x".into(),
                en: "y".into(),
            },
            UnknownType("castle_now".into()),
            TooLarge(70_000),
            Binary,
            RateLimited,
            NotAPlayer,
            NotYourTurn,
            BadMove {
                es: "x".into(),
                en: "y".into(),
            },
            Refused {
                es: "x".into(),
                en: "y".into(),
            },
            NotStarted,
            GameOver,
            TooLateToAbort,
            NoTakebackWithClock,
            NothingPending,
            CannotClaimAbandon,
            Storage,
            NoSuchGame,
            BadSeat,
            SeatReclaimed,
            TournamentGame,
            CannotAdjourn(NoAdjourn::Engine),
            CannotAdjourn(NoAdjourn::Tournament),
            CannotAdjourn(NoAdjourn::Opening),
            Sealing,
            Adjourned,
            NotSealing,
            NotAdjourned,
            Retry,
        ];
        for e in &all {
            match e {
                Malformed { .. }
                | UnknownType(_)
                | TooLarge(_)
                | Binary
                | RateLimited
                | NotAPlayer
                | NotYourTurn
                | BadMove { .. }
                | Refused { .. }
                | NotStarted
                | GameOver
                | TooLateToAbort
                | NoTakebackWithClock
                | NothingPending
                | CannotClaimAbandon
                | Storage
                | NoSuchGame
                | BadSeat
                | SeatReclaimed
                | TournamentGame
                | CannotAdjourn(_)
                | Sealing
                | Adjourned
                | NotSealing
                | NotAdjourned
                | Retry => {}
            }
        }
        all
    }

    #[test]
    fn every_error_crosses_as_itself_under_its_own_code() {
        for e in every_error() {
            let answer = Answer {
                refused: Some(e.clone()),
                ..Answer::default()
            };
            let text = serde_json::to_string(&answer).expect("serialize");
            let v: Value = serde_json::from_str(&text).expect("JSON");
            assert_eq!(v["refused"]["code"], e.code(), "{text}");
            let back: Answer = serde_json::from_str(&text).expect("read back");
            assert_eq!(back.refused, Some(e), "{text}");
        }
    }

    proptest::proptest! {
        /// Any text as a refused answer: an answer or an error, never a
        /// panic.
        #[test]
        fn random_refusals_never_panic(code in "[a-z_]{0,20}", data in ".{0,20}") {
            let text = format!(r#"{{"refused":{{"code":{code:?},"data":{data:?}}}}}"#);
            let _ = serde_json::from_str::<Answer>(&text);
        }
    }

    #[test]
    fn commands_read_back() {
        let all = [
            Command::Probe,
            Command::Seated {
                seat: Side::Black,
                name: "Ana".into(),
                owner: "u:1".into(),
            },
            Command::SeatReclaimed { seat: Side::White },
            Command::Snapshot,
            Command::Live,
            Command::AddTime {
                color: Side::White,
                ms: 60_000,
            },
            Command::SetResult {
                outcome: escaque_torneo::Outcome::Draw.text().into(),
            },
        ];
        for c in all {
            let text = serde_json::to_string(&c).unwrap();
            assert_eq!(serde_json::from_str::<Command>(&text).unwrap(), c, "{text}");
        }
    }

    proptest::proptest! {
        /// Any bytes as an internal frame: an error or a frame, never a panic.
        #[test]
        fn random_frames_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
            let text = String::from_utf8_lossy(&bytes);
            let _ = Frame::read(&text);
        }

        /// Frames shaped almost right: never a panic, and a frame read is one
        /// that was sent.
        #[test]
        fn near_frames_never_panic(
            t in "[a-z_]{0,16}",
            mv in ".{0,12}",
            rtt in proptest::num::u64::ANY,
            held in proptest::num::u64::ANY,
            extra in proptest::bool::ANY,
        ) {
            let mut v = serde_json::json!({"msg": {"t": t, "move": mv}, "rtt_us": rtt, "held_us": held});
            if extra {
                v["other"] = Value::Bool(true);
            }
            if let Ok(f) = Frame::read(&v.to_string()) {
                proptest::prop_assert!(!extra);
                proptest::prop_assert_eq!(f.rtt_us, rtt);
            }
        }

        /// A client message goes to the owner and comes back the same.
        #[test]
        fn client_messages_cross_unchanged(
            which in 0usize..19,
            text in ".{0,16}",
            id in proptest::option::of(proptest::num::u64::ANY),
            flag in proptest::bool::ANY,
        ) {
            let msg = sample(which, text, id, flag);
            let f = Frame { msg: msg.clone(), rtt_us: 1, held_us: 2 };
            let read = Frame::read(&serde_json::to_string(&f).unwrap()).unwrap();
            proptest::prop_assert_eq!(&read.msg, &msg);
            // And as a client's own frame, through the protocol's reader.
            let alone = serde_json::to_string(&msg).unwrap();
            proptest::prop_assert_eq!(crate::proto::parse_client(&alone).unwrap(), msg);
        }
    }

    /// One of every client message.
    fn sample(which: usize, text: String, id: Option<u64>, flag: bool) -> ClientMsg {
        use ClientMsg::*;
        match which {
            0 => Move { mv: text, id },
            1 => OfferDraw { id },
            2 => AcceptDraw { id },
            3 => DeclineDraw { id },
            4 => ClaimDraw {
                mv: flag.then_some(text),
                id,
            },
            5 => Resign { id },
            6 => Abort { id },
            7 => Takeback { id },
            8 => TakebackAnswer { accept: flag, id },
            9 => Rematch { id },
            10 => ClaimAbandoned { result: text, id },
            11 => Pong { n: 7, id },
            12 => State { id },
            13 => OfferAdjourn { id },
            14 => AcceptAdjourn { id },
            15 => DeclineAdjourn { id },
            16 => Seal { mv: text, id },
            _ => Resume { id },
        }
    }
}
