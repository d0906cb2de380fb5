//! "Problemas de tus partidas" (issue 56): when a server's game has been
//! analysed, the puzzle generator (`escaque_analysis::problemas::generate`,
//! lichess-puzzler's criteria) runs on it with the worker's evaluator, and
//! each puzzle found joins the queue of the player whose turn it is in the
//! puzzle (the one who could have won there), linked to the game's move
//! (`crate::problemas`).

use std::sync::atomic::AtomicBool;

use escaque::{Color, Move, Position};
use escaque_analysis::problemas::generate::{complete, find_in_game, Counts, Criteria};
use escaque_analysis::{AnalysisError, Evaluator};

use crate::store::problemas::{PuzzleRow, SOURCE_GAME};
use crate::store::Store;

/// The puzzles of game `game` (`moves` from `start`): each with the side
/// that solves it. `scan` looks at every position, `probe` at the
/// candidates.
pub fn find(
    game: &str,
    start: &Position,
    moves: &[Move],
    scan: &mut dyn Evaluator,
    probe: &mut dyn Evaluator,
    stop: &AtomicBool,
) -> Result<Vec<(Color, PuzzleRow)>, AnalysisError> {
    let criteria = Criteria::default();
    let mut counts = Counts::default();
    let found = find_in_game(start, moves, scan, probe, &criteria, stop, &mut counts)?;
    let mut out = Vec::with_capacity(found.len());
    for f in &found {
        let p = complete(f, "", start, moves, true, None);
        let mut row = crate::problemas::row_of(&p, SOURCE_GAME, false);
        row.game_id = Some(game.to_string());
        row.game_ply = Some(f.ply as i64);
        row.game_url = format!("/partida/{game}#{}", f.ply + 1);
        out.push((p.solver(), row));
    }
    Ok(out)
}

/// Adds the puzzles found in `game` to its players' queues (the solver's
/// side's owner; an engine's side has none). Returns how many joined.
pub async fn queue(
    store: &Store,
    game: &str,
    found: &[(Color, PuzzleRow)],
) -> Result<usize, crate::store::StoreError> {
    let Some(row) = store.game(game).await? else {
        return Ok(0);
    };
    let mut added = 0;
    for (side, owner) in [
        (Color::White, row.white_owner.as_deref()),
        (Color::Black, row.black_owner.as_deref()),
    ] {
        let Some(owner) = owner else { continue };
        let mine: Vec<PuzzleRow> = found
            .iter()
            .filter(|(s, _)| *s == side)
            .map(|(_, p)| p.clone())
            .collect();
        if !mine.is_empty() {
            added += store.queue_found(owner, &mine).await?;
        }
    }
    Ok(added)
}
