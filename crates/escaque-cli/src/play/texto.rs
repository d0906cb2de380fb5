//! The plain-text mode (`--texto`): one move or command a line on standard
//! input; the board, each move and the status as lines of text on standard
//! output. No cursor movement and no colour, so it works over pipes and with
//! screen readers.

use std::io::{self, BufRead, Write};

use escaque::{Color, File, Lang, Position, Rank, Square};

use super::session::{Event, Session};
use crate::i18n::{text, Msg};

/// The board as lines of text, `bottom` nearest the reader: pieces by their
/// letters (upper case White, lower case Black; Spanish letters in Spanish),
/// `.` for an empty square, files and ranks around.
pub fn board_text(pos: &Position, bottom: Color, lang: Lang) -> String {
    let files: Vec<File> = match bottom {
        Color::White => File::ALL.to_vec(),
        Color::Black => File::ALL.iter().rev().copied().collect(),
    };
    let ranks: Vec<Rank> = match bottom {
        Color::White => Rank::ALL.iter().rev().copied().collect(),
        Color::Black => Rank::ALL.to_vec(),
    };
    let header: String = files
        .iter()
        .map(|f| format!(" {}", f.char()))
        .collect::<String>();
    let mut out = format!("  {header}\n");
    for r in &ranks {
        out.push_str(&format!("{} ", r.char()));
        for f in &files {
            let sq = Square::from_coords(*f, *r);
            let c = match pos.piece_at(sq) {
                Some(p) => {
                    let l = match lang {
                        Lang::Es => p.role.char_es(),
                        Lang::En => p.role.char_en(),
                    };
                    match p.color {
                        Color::White => l,
                        Color::Black => l.to_ascii_lowercase(),
                    }
                }
                None => '.',
            };
            out.push(' ');
            out.push(c);
        }
        out.push_str(&format!("  {}\n", r.char()));
    }
    out.push_str(&format!("  {header}\n"));
    out
}

fn show<W: Write>(session: &Session, events: Vec<Event>, out: &mut W) -> io::Result<bool> {
    let mut said: Vec<String> = Vec::new();
    let mut board = false;
    let mut quit = false;
    for e in events {
        match e {
            Event::Say(s) => {
                writeln!(out, "{s}")?;
                said.push(s);
            }
            Event::Board => board = true,
            Event::Quit => quit = true,
        }
    }
    if board && !quit {
        writeln!(
            out,
            "{}",
            board_text(session.game.position(), session.orientation, session.lang)
        )?;
        for line in session.status() {
            if !said.contains(&line) {
                writeln!(out, "{line}")?;
            }
        }
    }
    out.flush()?;
    Ok(quit)
}

/// Plays `session` reading lines from `input` until the player leaves or the
/// input ends.
pub fn run<R: BufRead, W: Write>(session: &mut Session, input: R, out: &mut W) -> io::Result<()> {
    let [w, b] = session.config.players;
    let greeting = vec![
        Event::Say(text(session.lang, &Msg::NewGame(w, b))),
        Event::Board,
    ];
    show(session, greeting, out)?;
    let mut lines = input.lines();
    loop {
        let events = session.wait_for_engine();
        if show(session, events, out)? {
            return Ok(());
        }
        let Some(line) = lines.next() else {
            return Ok(());
        };
        let line = line?;
        let events = session.handle_line(&line);
        if show(session, events, out)? {
            return Ok(());
        }
    }
}
