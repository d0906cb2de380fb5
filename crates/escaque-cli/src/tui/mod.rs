//! The full-screen game (ratatui + crossterm).

use std::sync::Arc;

use escaque::Lang;

use crate::play::backend::TimeSource;
use crate::play::session::Config;

/// Runs the full-screen game.
pub fn run(
    _config: Config,
    _lang: Lang,
    _source: Arc<dyn TimeSource>,
    _ascii: bool,
    _menu: bool,
) -> Result<(), String> {
    Ok(())
}
