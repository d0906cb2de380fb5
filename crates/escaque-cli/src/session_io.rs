//! What both game screens (the plain text of `play::texto` and the full
//! screen of `tui`) do with a session besides showing it: a line the player
//! typed goes to the session, and the files the session asks to save or load
//! are written and read here. Both screens use this module; it uses neither.

use escaque_play::{Event, Notice, Session};

use crate::i18n::parse_command;

/// Handles a line the player typed: the answer to "save before leaving?", a
/// command in either language, or a move.
pub fn handle_line(session: &mut Session, line: &str) -> Vec<Event> {
    let line = line.trim();
    if session.confirming_quit() {
        return session.answer_quit(line);
    }
    if session.sealing() {
        return session.seal(line);
    }
    if line.is_empty() {
        return Vec::new();
    }
    match parse_command(line) {
        Some((action, arg)) => session.act(action, arg),
        None => session.play_text(line),
    }
}

/// Does the file I/O the session asks for (saving, loading) and puts what came
/// of it in place of the request.
pub fn with_files(session: &mut Session, events: Vec<Event>) -> Vec<Event> {
    let mut out = Vec::with_capacity(events.len());
    for e in events {
        match e {
            Event::Save { path, pgn } => {
                out.push(Event::Notice(match std::fs::write(&path, pgn) {
                    Ok(()) => Notice::Saved(path),
                    Err(e) => Notice::FileError {
                        path,
                        error: e.to_string(),
                    },
                }))
            }
            Event::Load { path } => match std::fs::read_to_string(&path) {
                Ok(text) => out.extend(session.load_text(&text, &path)),
                Err(e) => out.push(Event::Notice(Notice::FileError {
                    path,
                    error: e.to_string(),
                })),
            },
            other => out.push(other),
        }
    }
    out
}
