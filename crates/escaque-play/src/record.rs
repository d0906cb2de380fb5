//! A game's record, the same for every front end: the names of the players
//! (one engine name), the PGN export with one set of tags, the takeback
//! rule, and the replay of stored moves into a [`Game`].

use std::sync::Arc;
use std::time::Duration;

use escaque::pgn::PgnStyle;
use escaque::{
    CastlingMode, Clock, Color, Game, GameResult, Lang, Localized, Notation, Position, RuleSet,
    Termination, TimeControl, TimeSource,
};

use crate::Player;

/// The engine's name in a game record: `escaque N` (N its level, 1–10).
pub fn engine_name(level: escaque_engine::Level) -> String {
    format!("escaque {}", level.number())
}

/// The name of `player` in a game record: the engine's name, or `person`.
pub fn player_name(player: Player, person: &str) -> String {
    match player {
        Player::Human => person.to_string(),
        Player::Engine(level) => engine_name(level),
    }
}

/// The PGN `Termination` tag (PGN standard §9.8.1) of a library ending:
/// `time forfeit` for a flag, `abandoned` for a player who left,
/// `unterminated` for an aborted game, `normal` otherwise.
pub fn pgn_termination(t: Termination) -> &'static str {
    match t {
        Termination::Time { .. } => "time forfeit",
        Termination::Abandoned { .. } => "abandoned",
        Termination::Aborted => "unterminated",
        _ => "normal",
    }
}

/// The tags of a game record that the game itself does not know: where and
/// when it was played, and by whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnHeader {
    /// `Event`: `escaque` unless told.
    pub event: String,
    /// `Site`: `?` unless told.
    pub site: String,
    /// `Date`, `YYYY.MM.DD`: `????.??.??` unless told.
    pub date: String,
    /// `Round`: `-` unless told.
    pub round: String,
    /// `White` and `Black`.
    pub names: [String; 2],
}

impl PgnHeader {
    /// The header with these players' names and the defaults.
    pub fn new(white: impl Into<String>, black: impl Into<String>) -> PgnHeader {
        PgnHeader {
            event: "escaque".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "-".into(),
            names: [white.into(), black.into()],
        }
    }
}

/// How a game ended when the game itself does not say (an ending decided
/// outside the rules library: aborted, abandoned by disconnection).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalEnding {
    /// The result; `None` for `*`.
    pub result: Option<GameResult>,
    /// The PGN `Termination` tag: `abandoned`, `unterminated`, ….
    pub termination: &'static str,
}

/// The game as PGN: the seven-tag roster from `header`, then what the game
/// records (set-up, rules, time control and clocks, as the library writes
/// them so that a game in progress can be resumed), the `Termination` tag,
/// and the moves with `[%clk]` comments where the moves have clock times.
/// `ending` overrides the game's own outcome (for an ending decided outside
/// the library). `clocks`, when given, are the movers' remaining times after
/// each move (ms), replacing those the game recorded.
pub fn export_pgn(
    game: &Game,
    header: &PgnHeader,
    ending: Option<&ExternalEnding>,
    clocks: Option<&[Option<u64>]>,
    style: PgnStyle,
) -> String {
    export_pgn_tagged(game, header, ending, clocks, style, Vec::new())
}

/// [`export_pgn`] with `extra` tags written after the others (the server's
/// `ECO` and `Opening`).
pub fn export_pgn_tagged(
    game: &Game,
    header: &PgnHeader,
    ending: Option<&ExternalEnding>,
    clocks: Option<&[Option<u64>]>,
    style: PgnStyle,
    extra: Vec<(String, String)>,
) -> String {
    let mut g = game.to_pgn_game();
    let mut tags = vec![
        ("Event".to_string(), header.event.clone()),
        ("Site".to_string(), header.site.clone()),
        ("Date".to_string(), header.date.clone()),
        ("Round".to_string(), header.round.clone()),
        ("White".to_string(), header.names[0].clone()),
        ("Black".to_string(), header.names[1].clone()),
    ];
    let (result, termination) = match (ending, game.outcome()) {
        (Some(e), _) => (e.result, Some(e.termination)),
        (None, Some(o)) => (Some(o.result), Some(pgn_termination(o.termination))),
        (None, None) => (None, None),
    };
    tags.push((
        "Result".to_string(),
        result.map_or("*", |r| r.pgn()).to_string(),
    ));
    tags.extend(
        g.tags
            .drain(..)
            .filter(|(k, _)| !matches!(k.as_str(), "Result" | "Termination")),
    );
    if let Some(t) = termination {
        tags.push(("Termination".to_string(), t.to_string()));
    } else {
        tags.push(("Termination".to_string(), "unterminated".to_string()));
    }
    tags.extend(extra);
    g.tags = tags;
    g.result = Some(result);
    if let Some(clocks) = clocks {
        for (node, c) in g.moves.iter_mut().zip(clocks) {
            node.clock_ms = *c;
        }
    }
    escaque::pgn::write_game_string(&g, style)
}

/// How many plies a takeback asked for by `by` removes: back to `by`'s turn
/// with one of `by`'s own moves gone — 1 when `by` has just moved, 2 when
/// the opponent has replied; 0 when the game has not that many moves. Games
/// with a clock have no takebacks ([`takeback_allowed`]).
pub fn takeback_plies(game: &Game, by: Color) -> usize {
    let want = if game.position().turn() == by { 2 } else { 1 };
    if game.moves().len() >= want {
        want
    } else {
        0
    }
}

/// Whether moves may be taken back at all: only in games without a clock.
pub fn takeback_allowed(game: &Game) -> bool {
    game.clock().is_none()
}

/// A stored game that does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The start position is not a valid FEN.
    Fen {
        /// The library's reason (English).
        why: String,
    },
    /// The time control does not read.
    TimeControl {
        /// The library's reason (English).
        why: String,
    },
    /// A move does not read, or is illegal, at this ply.
    Move {
        /// The ply (0 the first move).
        ply: usize,
        /// The move as stored.
        text: String,
        /// The library's reason (English).
        why: String,
    },
}

impl core::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ReplayError::Fen { why } => write!(f, "FEN: {why}"),
            ReplayError::TimeControl { why } => write!(f, "time control: {why}"),
            ReplayError::Move { ply, text, why } => write!(f, "ply {ply} {text}: {why}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// A stored game: where it started, under which rules and clock, and its
/// moves in coordinate notation.
#[derive(Clone, Debug)]
pub struct StoredGame<'a> {
    /// The start position (FEN).
    pub start_fen: &'a str,
    /// The rule set.
    pub rules: RuleSet,
    /// The time control, in escaque's text form, if the game has a clock.
    pub time_control: Option<&'a str>,
    /// White's and Black's remaining times (ms) as last stored; `None`: the
    /// initial time.
    pub clock_ms: [Option<i64>; 2],
    /// The moves, in coordinate notation (`e2e4`, `e7e8q`).
    pub moves: &'a [String],
    /// A Chess960 game: the FEN's castling field is read as Chess960's
    /// (Shredder-FEN or X-FEN) and castling moves are the king taking its
    /// rook, as `UCI_Chess960` writes them.
    pub chess960: bool,
}

/// Rebuilds a stored game: the moves replayed with the library, then the
/// clock restored with the stored remaining times and move counts (not
/// started: the front end starts it when play resumes).
pub fn replay(stored: &StoredGame<'_>, time: Arc<dyn TimeSource>) -> Result<Game, ReplayError> {
    let mode = if stored.chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let start = Position::from_fen_with(stored.start_fen, mode).map_err(|e| ReplayError::Fen {
        why: e.message(Lang::En),
    })?;
    let mut game = Game::from_position(start)
        .with_chess960(stored.chess960)
        .with_rules(stored.rules);
    let start_turn = game.position().turn();
    for (ply, text) in stored.moves.iter().enumerate() {
        let bad = |why: String| ReplayError::Move {
            ply,
            text: text.clone(),
            why,
        };
        let mv = escaque::read_move(game.position(), text, Notation::Uci)
            .map_err(|e| bad(e.message(Lang::En)))?;
        game.play(mv).map_err(|e| bad(e.message(Lang::En)))?;
    }
    if let Some(tc) = stored.time_control {
        let control = TimeControl::parse(tc).map_err(|e| ReplayError::TimeControl {
            why: e.message(Lang::En),
        })?;
        let init = control.initial_time().as_millis() as i64;
        let ms = |v: Option<i64>| Duration::from_millis(v.unwrap_or(init).max(0) as u64);
        let mut counts = [0u32; 2];
        let mut mover = start_turn;
        for _ in stored.moves {
            counts[mover.index()] += 1;
            mover = mover.other();
        }
        let clock = Clock::restored(
            control,
            time,
            [ms(stored.clock_ms[0]), ms(stored.clock_ms[1])],
            counts,
            game.position().turn(),
        );
        game = game.with_clock(clock);
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use escaque::FakeTime;

    use super::*;

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn takeback_goes_back_to_the_askers_turn() {
        let stored = moves(&["e2e4", "e7e5"]);
        let g = replay(
            &StoredGame {
                start_fen: escaque::STARTING_FEN,
                rules: RuleSet::default(),
                time_control: None,
                clock_ms: [None, None],
                moves: &stored,
                chess960: false,
            },
            Arc::new(FakeTime::new()),
        )
        .unwrap();
        assert_eq!(takeback_plies(&g, Color::White), 2);
        assert_eq!(takeback_plies(&g, Color::Black), 1);
        assert!(takeback_allowed(&g));
        assert_eq!(takeback_plies(&Game::new(), Color::White), 0);
        assert_eq!(takeback_plies(&Game::new(), Color::Black), 0);
    }

    #[test]
    fn replay_refuses_what_does_not_read() {
        let stored = moves(&["e2e4", "e2e4"]);
        let err = replay(
            &StoredGame {
                start_fen: escaque::STARTING_FEN,
                rules: RuleSet::default(),
                time_control: Some("5+3"),
                clock_ms: [None, None],
                moves: &stored,
                chess960: false,
            },
            Arc::new(FakeTime::new()),
        )
        .unwrap_err();
        assert!(matches!(err, ReplayError::Move { ply: 1, .. }), "{err}");
        let err = replay(
            &StoredGame {
                start_fen: "nope",
                rules: RuleSet::default(),
                time_control: None,
                clock_ms: [None, None],
                moves: &[],
                chess960: false,
            },
            Arc::new(FakeTime::new()),
        )
        .unwrap_err();
        assert!(matches!(err, ReplayError::Fen { .. }));
    }

    #[test]
    fn replay_restores_the_clock() {
        let stored = moves(&["e2e4", "e7e5", "g1f3"]);
        let g = replay(
            &StoredGame {
                start_fen: escaque::STARTING_FEN,
                rules: RuleSet::default(),
                time_control: Some("5+3"),
                clock_ms: [Some(290_000), Some(280_000)],
                moves: &stored,
                chess960: false,
            },
            Arc::new(FakeTime::new()),
        )
        .unwrap();
        let c = g.clock().unwrap();
        assert_eq!(c.peek().white, Duration::from_millis(290_000));
        assert_eq!(c.peek().black, Duration::from_millis(280_000));
        assert_eq!(c.moves_made(Color::White), 2);
        assert_eq!(g.moves().len(), 3);
    }
}
