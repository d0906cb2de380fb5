//! Online play of a tournament (issue 24, helper O): the games of a paired
//! round, no-show forfeits, results from finished games, the automatic next
//! round. This is the placeholder the service calls until O's module
//! replaces it: an over-the-board event has no games, so every hook does
//! nothing.

use std::sync::Arc;

use super::Loaded;
use crate::http::ApiError;
use crate::store::GameRow;
use crate::{Created, Hub};

/// One board's game of a round being paired.
#[derive(Clone, Debug)]
pub struct BoardGame {
    /// Board number (1-based).
    pub board: u32,
    /// The game's row, stored with the round.
    pub row: GameRow,
    /// Its seats' secrets.
    pub created: Created,
}

/// The games to create with round `round` (stored in the pairing's
/// transaction). Placeholder: none.
pub async fn games_for_round(
    _hub: &Arc<Hub>,
    _loaded: &Loaded,
    _round: u32,
) -> Result<Vec<BoardGame>, ApiError> {
    Ok(Vec::new())
}

/// Round `round` was stored with its games and they run. Placeholder:
/// nothing to tell.
pub async fn round_started(
    _hub: &Arc<Hub>,
    _loaded: &Loaded,
    _round: u32,
    _boards: Vec<BoardGame>,
) {
}

/// A result of round `round` was stored. Placeholder: nothing to schedule.
pub async fn result_recorded(_hub: &Arc<Hub>, _loaded: &Loaded, _round: u32) {}
