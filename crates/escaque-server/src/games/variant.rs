//! Chess960 in a request: the `variant` and `position` fields of
//! `POST /api/games` and `POST /api/seeks`, read into the start position
//! (the rules crate's numbering; see `escaque::chess960`).

use escaque::chess960::CHESS960_POSITIONS;
use escaque::{CastlingMode, FenError, Position};
use serde_json::Value;

use super::Refusal;

/// The variant a request asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Standard chess.
    Standard,
    /// Chess960 from this starting position (0–959), or one drawn at random
    /// when the game is created (`None`).
    Chess960(Option<u16>),
}

impl Variant {
    /// Reads `variant` (`standard`, the default, or `chess960`; aliases
    /// `960`, `fischerandom`, `ajedrez960`) and `position` (0–959 or
    /// `"random"`/`"azar"`, only with `chess960`).
    pub fn read(variant: Option<&str>, position: Option<&Value>) -> Result<Variant, Refusal> {
        let chess960 = match variant.map(|v| v.trim().to_lowercase()) {
            None => false,
            Some(v) => match v.as_str() {
                "standard" | "estandar" | "estándar" => false,
                "chess960" | "960" | "fischerandom" | "ajedrez960" => true,
                _ => return Err(Refusal::UnknownVariant(v)),
            },
        };
        let number = match position {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) if matches!(s.as_str(), "random" | "azar") => None,
            Some(Value::Number(n)) => match n.as_u64() {
                Some(n) if n < u64::from(CHESS960_POSITIONS) => Some(n as u16),
                _ => return Err(Refusal::PositionOutOfRange(n.to_string())),
            },
            Some(other) => return Err(Refusal::PositionOutOfRange(other.to_string())),
        };
        match (chess960, position) {
            (true, _) => Ok(Variant::Chess960(number)),
            (false, None | Some(Value::Null)) => Ok(Variant::Standard),
            (false, Some(_)) => Err(Refusal::PositionWithoutChess960),
        }
    }

    /// The variant of a stored seek: its id (`standard`, `chess960`) and
    /// its position number.
    pub fn stored(id: &str, position: Option<u16>) -> Variant {
        match id {
            "chess960" => Variant::Chess960(position),
            _ => Variant::Standard,
        }
    }

    /// `standard` or `chess960`, as the protocol writes it.
    pub fn id(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960(_) => "chess960",
        }
    }

    /// A Chess960 game.
    pub fn is_chess960(self) -> bool {
        matches!(self, Variant::Chess960(_))
    }

    /// The Chess960 position number asked for (`None`: standard chess, or
    /// drawn when the game starts).
    pub fn number(self) -> Option<u16> {
        match self {
            Variant::Chess960(n) => n,
            Variant::Standard => None,
        }
    }

    /// The start position of a new Chess960 game: the number asked for or
    /// one drawn now. `None` for standard chess.
    pub fn start(self) -> Option<Position> {
        match self {
            Variant::Standard => None,
            Variant::Chess960(n) => {
                let n = n.unwrap_or_else(|| rand::random_range(0..CHESS960_POSITIONS));
                Position::chess960(n)
            }
        }
    }

    /// A start position given as a FEN, read with this variant's castling
    /// (Chess960: Shredder-FEN or X-FEN).
    pub fn read_fen(self, fen: &str) -> Result<Position, FenError> {
        match self {
            Variant::Standard => Position::from_fen(fen),
            Variant::Chess960(_) => Position::from_fen_with(fen, CastlingMode::Chess960),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_variant_and_position() {
        assert_eq!(Variant::read(None, None).unwrap(), Variant::Standard);
        assert_eq!(
            Variant::read(Some("chess960"), Some(&json!(518))).unwrap(),
            Variant::Chess960(Some(518))
        );
        assert_eq!(
            Variant::read(Some("960"), Some(&json!("random"))).unwrap(),
            Variant::Chess960(None)
        );
        assert_eq!(
            Variant::read(Some("chess960"), None).unwrap(),
            Variant::Chess960(None)
        );
        for (v, p) in [
            (Some("crazyhouse"), None),
            (Some("chess960"), Some(json!(960))),
            (Some("chess960"), Some(json!(-1))),
            (Some("chess960"), Some(json!(3.5))),
            (Some("chess960"), Some(json!("seven"))),
            (None, Some(json!(5))),
        ] {
            assert!(Variant::read(v, p.as_ref()).is_err(), "{v:?} {p:?}");
        }
        let pos = Variant::Chess960(Some(0)).start().unwrap();
        assert_eq!(pos.chess960_number(), Some(0));
        let drawn = Variant::Chess960(None).start().unwrap();
        assert!(drawn.chess960_number().is_some());
    }
}
