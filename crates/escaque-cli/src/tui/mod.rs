//! The full-screen game (ratatui + crossterm).

pub mod app;
pub mod aprender;
pub mod board;
pub mod board_pick;
pub mod menu;
pub mod problemas;

use std::io;
use std::sync::Arc;
use std::time::Duration;

use escaque::{Lang, TimeSource};
use escaque_play::{Config, Session};
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use ratatui::crossterm::execute;

use crate::error::CliError;
use app::App;

/// Runs the full-screen game until the player leaves.
pub fn run(
    config: Config,
    lang: Lang,
    source: Arc<dyn TimeSource>,
    ascii: bool,
    menu: bool,
) -> Result<(), CliError> {
    let session = Session::new(config, lang, source);
    let mut app = App::new(session, ascii, menu);
    let mut terminal = ratatui::try_init().map_err(CliError::Write)?;
    let _ = execute!(io::stdout(), EnableMouseCapture);
    let result = event_loop(&mut terminal, &mut app);
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result.map_err(CliError::Write)
}

fn event_loop(terminal: &mut ratatui::DefaultTerminal, app: &mut App) -> io::Result<()> {
    while !app.quit {
        app.tick();
        terminal.draw(|f| app.draw(f))?;
        // Short waits keep the clocks ticking in tenths and the engine's
        // answer prompt.
        if event::poll(Duration::from_millis(50))? {
            match event::read()? {
                Event::Key(k) => app.on_key(k),
                Event::Mouse(m) => app.on_mouse(m),
                _ => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
