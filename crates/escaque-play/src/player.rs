//! Who plays a side.

use core::str::FromStr;

use escaque::{Lang, Localized};
use escaque_engine::Level;

/// The number of the engine's level when none is named: the middle of 1–10
/// (jugador de club).
pub const DEFAULT_LEVEL: u32 = 5;

/// The engine's level when none is named ([`DEFAULT_LEVEL`]).
pub fn default_level() -> Level {
    Level::from_number(DEFAULT_LEVEL).expect("level 5 is one of the ten levels")
}

/// Who plays one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// A person.
    Human,
    /// The engine at this level.
    Engine(Level),
}

impl Player {
    /// The stable id: `human`, or `engine:N` (N the level, 1–10).
    pub fn id(&self) -> String {
        match self {
            Player::Human => "human".into(),
            Player::Engine(level) => format!("engine:{}", level.number()),
        }
    }

    /// Reads a stable id ([`Player::id`]); `None` for anything else.
    pub fn from_id(id: &str) -> Option<Player> {
        match id.split_once(':') {
            None if id == "human" => Some(Player::Human),
            Some(("engine", n)) => Level::from_number(n.parse().ok()?).map(Player::Engine),
            _ => None,
        }
    }

    /// True for the engine.
    pub fn is_engine(&self) -> bool {
        matches!(self, Player::Engine(_))
    }
}

/// A text that names no player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePlayerError {
    /// Not `humano`, `motor` or `motor:NIVEL` (nor the English words).
    Unknown {
        /// The text as given.
        text: String,
    },
    /// The level is not a number from 1 to 10.
    Level {
        /// The level as given.
        level: String,
    },
}

impl FromStr for Player {
    type Err = ParsePlayerError;

    /// Reads `humano`, `persona`, `motor`, `motor:3`, `motor:principiante`
    /// (and English `human`, `person`, `engine`, `engine:3`,
    /// `engine:beginner`); case does not matter.
    fn from_str(text: &str) -> Result<Player, ParsePlayerError> {
        let t = text.trim().to_lowercase();
        let (kind, level) = match t.split_once(':') {
            Some((k, l)) => (k, Some(l)),
            None => (t.as_str(), None),
        };
        let unknown = || ParsePlayerError::Unknown { text: text.into() };
        match kind {
            "humano" | "human" | "persona" | "person" => match level {
                None => Ok(Player::Human),
                Some(_) => Err(unknown()),
            },
            "motor" | "engine" | "escaque" => match level {
                None => Ok(Player::Engine(default_level())),
                // A number 1–10 or the level's name (`motor:principiante`).
                Some(l) => l
                    .trim()
                    .parse::<Level>()
                    .ok()
                    .map(Player::Engine)
                    .ok_or_else(|| ParsePlayerError::Level {
                        level: l.to_string(),
                    }),
            },
            _ => Err(unknown()),
        }
    }
}

impl Localized for ParsePlayerError {
    fn message(&self, lang: Lang) -> String {
        match (self, lang) {
            (ParsePlayerError::Unknown { text }, Lang::Es) => {
                format!("jugador {text:?}: escribe humano, motor o motor:NIVEL (1–10)")
            }
            (ParsePlayerError::Unknown { text }, Lang::En) => {
                format!("player {text:?}: write human, engine or engine:LEVEL (1-10)")
            }
            (ParsePlayerError::Level { level }, Lang::Es) => {
                format!("nivel {level:?}: el nivel del motor va de 1 a 10")
            }
            (ParsePlayerError::Level { level }, Lang::En) => {
                format!("level {level:?}: engine levels go from 1 to 10")
            }
        }
    }
}

impl core::fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message(Lang::Es))
    }
}

impl std::error::Error for ParsePlayerError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_in_both_languages() {
        assert_eq!("humano".parse(), Ok(Player::Human));
        assert_eq!("Person".parse(), Ok(Player::Human));
        assert_eq!(
            "engine:3".parse(),
            Ok(Player::Engine(Level::from_number(3).unwrap()))
        );
        assert_eq!("motor".parse(), Ok(Player::Engine(default_level())));
        assert_eq!(
            "motor:principiante".parse(),
            Ok(Player::Engine(Level::from_number(1).unwrap()))
        );
        let e = "motor:11".parse::<Player>().unwrap_err();
        assert!(e.message(Lang::Es).contains("1 a 10"), "{e}");
        assert!(matches!(
            "humano:2".parse::<Player>(),
            Err(ParsePlayerError::Unknown { .. })
        ));
        assert!("gato".parse::<Player>().is_err());
    }

    #[test]
    fn ids_round_trip() {
        let mut all = vec![Player::Human];
        all.extend((1..=10).map(|n| Player::Engine(Level::from_number(n).unwrap())));
        for p in all {
            assert_eq!(Player::from_id(&p.id()), Some(p), "{}", p.id());
        }
        assert_eq!(Player::from_id("engine:11"), None);
        assert_eq!(Player::from_id("motor"), None);
        assert_eq!(Player::from_id("human:1"), None);
    }
}
