//! # escaque-play — what every front end shares
//!
//! The terminal game, its text mode and the web server all seat players at a
//! board. This crate holds what they have in common, on top of the rules
//! library:
//!
//! * [`Player`]: who plays a side — a person, or the engine at a [`Level`];
//! * [`EnginePlayer`]: the engine thinking on its own thread within a clock
//!   budget, cancellable, answers tagged so a stale one is dropped;
//! * the engine request for a game ([`Budget::for_game`], [`history_keys`],
//!   [`increment`]) and its search ([`search`]), the takeback rule
//!   ([`takeback_plies`]), the game record ([`export_pgn`]) and the replay of
//!   stored moves ([`replay`]): what the terminal and the server share;
//! * [`Session`]: one sitting at the board — the [`escaque::Game`] with its
//!   clock, who plays each side, the engine, typed moves and commands — a
//!   state machine that answers every action with typed [`Event`]s. Saving and
//!   loading are PGN text: the front end does the file I/O.
//!
//! Nothing here prints or reads a terminal: the front end renders the events
//! (the terminal in Spanish or English, the server as JSON).
//!
//! ```
//! use std::sync::Arc;
//! use escaque::{FakeTime, Lang};
//! use escaque_play::{Action, Config, Event, Notice, Player, Session};
//!
//! let config = Config { players: [Player::Human, Player::Human], ..Config::default() };
//! let mut s = Session::new(config, Lang::Es, Arc::new(FakeTime::new()));
//! let events = s.play_text("Cf3");
//! assert!(matches!(events[0], Event::Notice(Notice::Played { .. })));
//! let events = s.act(Action::Resign, "");
//! assert!(matches!(events[0], Event::Notice(Notice::GameOver(_))));
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod aprender;
mod engine;
mod player;
mod record;
mod session;

pub use engine::{history_keys, increment, player_engine, search, Budget, EnginePlayer};
pub use escaque_engine::Level;
pub use player::{default_level, ParsePlayerError, Player, DEFAULT_LEVEL};
pub use record::{
    engine_name, export_pgn, export_pgn_tagged, pgn_termination, player_name, replay,
    takeback_allowed, takeback_plies, ExternalEnding, PgnHeader, ReplayError, StoredGame,
};
pub use session::{Action, Config, Event, Notice, Refusal, Session, Status};
