//! The record of a stored game, as PGN: the server's use of the one
//! export every front end shares (`escaque_play::export_pgn`).

use std::sync::Arc;

use escaque::pgn::PgnStyle;
use escaque::{FakeTime, Game, TimeSource};
use escaque_play::{PgnHeader, Player};

use super::finish::End;
use super::LoadError;
use crate::store::{GameRow, MoveRow};

/// The stored game replayed with the library's rules (escaque-play's one
/// replay), its clock restored on `time`; a row that does not replay is
/// corrupt.
pub(super) fn replay_row(
    row: &GameRow,
    moves: &[MoveRow],
    time: Arc<dyn TimeSource>,
) -> Result<Game, LoadError> {
    let ucis: Vec<String> = moves.iter().map(|m| m.uci.clone()).collect();
    let stored = escaque_play::StoredGame {
        start_fen: &row.start_fen,
        rules: row.rules,
        time_control: row.time_control.as_deref(),
        clock_ms: [row.clock_white_ms, row.clock_black_ms],
        moves: &ucis,
        chess960: row.chess960,
    };
    escaque_play::replay(&stored, time).map_err(|e| LoadError::Corrupt {
        id: row.id.clone(),
        what: e.to_string(),
    })
}

/// The record of a stored game as PGN, as every front end writes it
/// ([`escaque_play::export_pgn`]): the moves replayed, the clock times
/// stored with each move as `[%clk]`, the ending as stored; `date` is the
/// `Date` tag (`YYYY.MM.DD`).
pub fn stored_pgn(
    row: &GameRow,
    moves: &[MoveRow],
    date: &str,
    style: PgnStyle,
) -> Result<String, LoadError> {
    stored_pgn_of_event(row, moves, date, None, style)
}

/// Where a game was played, for its `Event` and `Round` tags: a tournament's
/// name and `round.board` (`3.1`: round 3, board 1).
#[derive(Clone, Debug)]
pub struct EventTags {
    /// The `Event` tag.
    pub event: String,
    /// The `Round` tag.
    pub round: String,
}

/// [`stored_pgn`], with the `Event` and `Round` tags of a tournament game
/// (`None`: `escaque` and `-`, as a casual game's).
pub fn stored_pgn_of_event(
    row: &GameRow,
    moves: &[MoveRow],
    date: &str,
    event: Option<&EventTags>,
    style: PgnStyle,
) -> Result<String, LoadError> {
    let corrupt = |what: String| LoadError::Corrupt {
        id: row.id.clone(),
        what,
    };
    let game = replay_row(row, moves, Arc::new(FakeTime::new()))?;
    let name = |kind: &str, name: &str| {
        let player = Player::from_id(kind).ok_or_else(|| corrupt(kind.to_string()))?;
        Ok::<_, LoadError>(escaque_play::player_name(player, name))
    };
    let header = PgnHeader {
        event: event.map_or_else(|| "escaque".into(), |e| e.event.clone()),
        site: format!("escaque servir, partida {}", row.id),
        date: date.into(),
        round: event.map_or_else(|| "-".into(), |e| e.round.clone()),
        names: [
            name(&row.white_kind, &row.white_name)?,
            name(&row.black_kind, &row.black_name)?,
        ],
    };
    let ending = row
        .end
        .filter(|_| row.status == "over")
        .map(|e| End::new(e).pgn_ending());
    let clocks: Vec<Option<u64>> = moves
        .iter()
        .map(|m| m.clock_ms.map(|c| c.max(0) as u64))
        .collect();
    let opening = crate::openings::of_game(&game);
    Ok(escaque_play::export_pgn_tagged(
        &game,
        &header,
        ending.as_ref(),
        Some(&clocks),
        style,
        crate::openings::pgn_tags(opening.as_ref(), style.lang),
    ))
}
