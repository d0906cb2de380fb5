//! The plain-text mode (`--texto`): one move or command a line on standard
//! input; the board, each move and the status as lines of text on standard
//! output. No cursor movement and no colour, so it works over pipes and with
//! screen readers.

use std::io::{self, BufRead, Write};

use escaque::clock::format_clock;
use escaque::sealed::Opening;
use escaque::{Bitboard, Color, File, Lang, Position, Rank, Square};
use escaque_play::{Event, Notice, Session, Status};

use crate::i18n::{notice_text, status_text, text, Msg};
use crate::session_io::{handle_line, with_files};

/// The board as lines of text, `bottom` nearest the reader: pieces by their
/// letters (upper case White, lower case Black; Spanish letters in Spanish),
/// `.` for an empty square, files and ranks around.
pub fn board_text(pos: &Position, bottom: Color, lang: Lang) -> String {
    board_text_marked(pos, bottom, Bitboard::EMPTY, lang)
}

/// [`board_text`] with `marks` (the stars of a course exercise, `escaque
/// aprender`) shown as `*` on their empty squares: the one board writer of
/// the text modes.
pub fn board_text_marked(pos: &Position, bottom: Color, marks: Bitboard, lang: Lang) -> String {
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
                None if marks.contains(sq) => '*',
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

fn show<W: Write>(session: &mut Session, events: Vec<Event>, out: &mut W) -> io::Result<bool> {
    let lang = session.lang;
    let mut announced = None;
    let mut board = false;
    let mut quit = false;
    for e in with_files(session, events) {
        match e {
            Event::Notice(n) => {
                match &n {
                    Notice::GameOver(o)
                    | Notice::EnvelopeOpened {
                        opening:
                            Opening::Forfeit { outcome: o, .. }
                            | Opening::Played {
                                outcome: Some(o), ..
                            },
                        ..
                    } => announced = Some(*o),
                    _ => {}
                }
                writeln!(out, "{}", notice_text(lang, &n))?;
            }
            Event::Board => board = true,
            Event::Quit => quit = true,
            Event::Save { .. } | Event::Load { .. } => {}
        }
    }
    if board && !quit {
        writeln!(
            out,
            "{}",
            board_text(session.position(), session.orientation, lang)
        )?;
        if let Some(t) = session.clock_times() {
            writeln!(
                out,
                "{} {} · {} {}",
                text(lang, &Msg::Side(Color::White)),
                format_clock(t[0]),
                text(lang, &Msg::Side(Color::Black)),
                format_clock(t[1])
            )?;
        }
        for s in session.status() {
            // The end was just announced: not again as the status.
            if announced.is_some_and(|o| s == Status::Over(o)) {
                continue;
            }
            writeln!(out, "{}", status_text(lang, s))?;
        }
    }
    out.flush()?;
    Ok(quit)
}

/// Plays `session` reading lines from `input` until the player leaves or the
/// input ends.
pub fn run<R: BufRead, W: Write>(session: &mut Session, input: R, out: &mut W) -> io::Result<()> {
    run_lines(session, input.lines(), out)
}

/// [`run`] over lines from any source (tests let time pass between lines).
pub fn run_lines<I, W>(session: &mut Session, mut lines: I, out: &mut W) -> io::Result<()>
where
    I: Iterator<Item = io::Result<String>>,
    W: Write,
{
    let mut greeting = vec![Event::Notice(Notice::NewGame(session.config.players))];
    if let Some(n) = session.game().chess960_number() {
        greeting.push(Event::Notice(Notice::Chess960(n)));
    }
    greeting.push(Event::Board);
    show(session, greeting, out)?;
    loop {
        let events = session.wait_for_engine();
        if show(session, events, out)? {
            return Ok(());
        }
        let Some(line) = lines.next() else {
            return Ok(());
        };
        let line = line?;
        let events = handle_line(session, &line);
        if show(session, events, out)? {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use escaque::{FakeTime, Lang};

    use super::*;
    use escaque::{GameResult, Outcome, Termination, TimeControl};
    use escaque_play::{Config, Player};

    /// Plays `lines` in the plain-text mode with a fake clock; each line
    /// comes with the seconds that pass before it is typed.
    fn play_timed(config: Config, lines: &[(u64, &str)]) -> String {
        let (time, mut s) = fake_clock_session(config);
        let input = lines.iter().map(move |(secs, l)| {
            time.advance(Duration::from_secs(*secs));
            Ok(l.to_string())
        });
        let mut out = Vec::new();
        run_lines(&mut s, input, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// A Spanish session on a fake clock, and the clock to move it on.
    fn fake_clock_session(config: Config) -> (FakeTime, Session) {
        let time = FakeTime::new();
        let s = Session::new(config, Lang::Es, Arc::new(time.clone()));
        (time, s)
    }

    fn people_with_clock(clock: &str, fen: Option<&str>) -> Config {
        Config {
            players: [Player::Human, Player::Human],
            clock: Some(TimeControl::parse(clock).unwrap()),
            start: fen.map(|f| Position::from_fen(f).unwrap()),
            odds: None,
            ..Config::default()
        }
    }

    #[test]
    fn the_flag_falls_under_a_short_clock() {
        // 1+0: White moves after 20 s; Black thinks 61 s and is out of time
        // before the move is completed.
        let (time, mut s) = fake_clock_session(people_with_clock("1+0", None));
        time.advance(Duration::from_secs(20));
        handle_line(&mut s, "e4");
        assert_eq!(s.clock_times().unwrap()[0], Duration::from_secs(40));
        time.advance(Duration::from_millis(59_500));
        assert_eq!(s.clock_times().unwrap()[1], Duration::from_millis(500));
        time.advance(Duration::from_secs(1));
        let ev = handle_line(&mut s, "e5");
        let flagged = |c: Color| Outcome {
            result: GameResult::win_for(!c),
            termination: Termination::Time { flagged: c },
        };
        assert!(
            ev.contains(&Event::Notice(Notice::GameOver(flagged(Color::Black)))),
            "{ev:?}"
        );
        assert_eq!(
            notice_text(Lang::Es, &Notice::GameOver(flagged(Color::Black))),
            "Las negras pierden por tiempo. Ganan las blancas (1-0)"
        );
        assert_eq!(s.game().moves().len(), 1);
        // Detected without a move too: the next tick reports it.
        let (time, mut s) = fake_clock_session(people_with_clock("1+0", None));
        time.advance(Duration::from_secs(61));
        let ev = s.tick();
        assert!(
            ev.contains(&Event::Notice(Notice::GameOver(flagged(Color::White)))),
            "{ev:?}"
        );
        assert_eq!(
            notice_text(Lang::Es, &Notice::GameOver(flagged(Color::White))),
            "Las blancas pierden por tiempo. Ganan las negras (0-1)"
        );
    }

    #[test]
    fn a_flag_against_a_bare_king_is_a_draw() {
        let out = play_timed(
            people_with_clock("1+0", Some("k7/8/8/8/8/8/8/KQ6 w - - 0 1")),
            &[(61, "Db2")],
        );
        assert!(
            out.contains(
                "Tablas: el rival no puede dar mate; las blancas perdieron por tiempo pero la partida es tablas (½-½)"
            ),
            "{out}"
        );
    }

    #[test]
    fn clocks_count_down_in_the_text_mode_too() {
        // 3+2: five seconds for e4 leaves 2:57, plus 2 s increment.
        let out = play_timed(
            people_with_clock("3+2", None),
            &[(5, "e4"), (7, "e5"), (0, "tablero")],
        );
        assert!(out.contains("1... e5"), "{out}");
        assert!(out.contains("Blancas 2:57 · Negras 3:00"), "{out}");
        assert!(
            out.trim_end()
                .ends_with("Blancas 2:57 · Negras 2:55\nJuegan las blancas"),
            "{out}"
        );
        let s = Session::new(
            people_with_clock("3+2", None),
            Lang::Es,
            Arc::new(FakeTime::new()),
        );
        assert_eq!(
            s.time_control().map(|t| t.to_string()).as_deref(),
            Some("3+2")
        );
    }
}
