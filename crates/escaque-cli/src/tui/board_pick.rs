//! What the full-screen course (`aprender`) and puzzle trainer
//! (`problemas`) share on the board: the cursor moved by the arrows as the
//! board is turned, a square chosen with Intro or a click (one of the
//! mover's pieces, then its destination; a pawn reaching the last rank
//! waits for its piece), the promotion piece read from a key, the typing
//! line under the board and the full-screen loop. The game's screen
//! (`app`) moves its cursor with [`arrow`] too.

use std::io;
use std::time::Duration;

use escaque::{Color, Lang, Position, Role, Square};
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, MouseEvent,
};
use ratatui::crossterm::execute;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

/// The cursor after an arrow key on a board with `bottom` at the bottom:
/// up is towards the top of the screen, whichever side that is. `None`
/// for a key that is not an arrow; the cursor stays at the board's edge.
pub fn arrow(cursor: Square, bottom: Color, code: KeyCode) -> Option<Square> {
    let up = match bottom {
        Color::White => 1,
        Color::Black => -1,
    };
    let (df, dr) = match code {
        KeyCode::Up => (0, up),
        KeyCode::Down => (0, -up),
        KeyCode::Left => (-up, 0),
        KeyCode::Right => (up, 0),
        _ => return None,
    };
    Some(cursor.offset(df, dr).unwrap_or(cursor))
}

/// What choosing a square does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// One of the mover's pieces: picked, or let go if it was picked
    /// (already done to the selection).
    Selection,
    /// Another square with no piece picked: the player is told to pick one.
    NoPiece,
    /// A pawn to the last rank: the piece is asked for.
    Promotion(Square, Square),
    /// A move from the picked piece to the square, to be judged.
    Move(Square, Square),
}

/// Chooses `sq` on `pos` with `selected` the piece picked (changed when a
/// piece of the side to move is chosen).
pub fn pick(pos: &Position, selected: &mut Option<Square>, sq: Square) -> Pick {
    let side = pos.turn();
    if pos.color_at(sq) == Some(side) {
        *selected = if *selected == Some(sq) {
            None
        } else {
            Some(sq)
        };
        return Pick::Selection;
    }
    let Some(from) = *selected else {
        return Pick::NoPiece;
    };
    let pawn = pos.piece_at(from).is_some_and(|p| p.role == Role::Pawn);
    let last = match side {
        Color::White => escaque::Rank::EIGHTH,
        Color::Black => escaque::Rank::FIRST,
    };
    if pawn && sq.rank() == last {
        Pick::Promotion(from, sq)
    } else {
        Pick::Move(from, sq)
    }
}

/// A key while a promotion waits for its piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promote {
    /// The piece: D/T/A/C (and Q/R/B/N in English), Intro for the queen.
    Piece(Role),
    /// Esc: no promotion, the piece let go.
    Cancel,
    /// Any other key: still waiting.
    Wait,
}

/// Reads the promotion piece from a key, in either case.
pub fn promotion_key(code: KeyCode, lang: Lang) -> Promote {
    let role = match code {
        KeyCode::Char(c) => Role::from_char_es(c.to_ascii_uppercase())
            .or_else(|| match lang {
                Lang::En => Role::from_char_en(c.to_ascii_uppercase()),
                Lang::Es => None,
            })
            .filter(|r| Role::PROMOTIONS.contains(r)),
        KeyCode::Enter => Some(Role::Queen),
        _ => None,
    };
    match (role, code) {
        (Some(r), _) => Promote::Piece(r),
        (None, KeyCode::Esc) => Promote::Cancel,
        _ => Promote::Wait,
    }
}

/// The line being typed after its prompt, with the keys' reminder dimmed
/// under it.
pub fn draw_prompt(frame: &mut Frame, area: Rect, prompt: &str, input: &str, hint: &str) {
    frame.render_widget(
        Paragraph::new(vec![
            Line::from(format!("{prompt}: {input}▏")),
            Line::from(Span::styled(
                hint,
                Style::default().add_modifier(Modifier::DIM),
            )),
        ])
        .wrap(Wrap { trim: true }),
        area,
    );
}

/// A full-screen view driven by [`run`].
pub trait Screen {
    /// The program should end.
    fn done(&self) -> bool;
    /// Draws the whole screen.
    fn draw(&mut self, frame: &mut Frame);
    /// Handles a key press.
    fn key(&mut self, key: KeyEvent);
    /// Handles the mouse.
    fn mouse(&mut self, ev: MouseEvent);
}

/// Runs `app` full-screen (the mouse captured) until it is done; the
/// terminal is given back as it was, also after an error.
pub fn run(app: &mut impl Screen) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let _ = execute!(io::stdout(), EnableMouseCapture);
    let result = (|| -> io::Result<()> {
        while !app.done() {
            terminal.draw(|f| app.draw(f))?;
            if event::poll(Duration::from_millis(200))? {
                match event::read()? {
                    Event::Key(k) => app.key(k),
                    Event::Mouse(m) => app.mouse(m),
                    _ => {}
                }
            }
        }
        Ok(())
    })();
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

/// What the screens' tests share: keys, typed lines, the screen as text,
/// the cursor walked to a square with the arrows.
#[cfg(test)]
pub mod testing {
    use escaque::{Color, Square};
    use ratatui::backend::TestBackend;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use ratatui::Terminal;

    use super::Screen;
    use crate::tui::board::capture;

    /// A screen with a keyboard cursor on a board.
    pub trait OnBoard: Screen {
        /// The cursor.
        fn cursor(&self) -> Square;
        /// The side at the bottom of the board.
        fn bottom_side(&self) -> Color;
    }

    /// One key press.
    pub fn key(app: &mut impl Screen, code: KeyCode) {
        app.key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    /// A line typed and sent with Intro.
    pub fn typed(app: &mut impl Screen, s: &str) {
        for c in s.chars() {
            key(app, KeyCode::Char(c));
        }
        key(app, KeyCode::Enter);
    }

    /// The screen drawn on a 110 × 34 terminal, as text.
    pub fn screen(app: &mut impl Screen) -> String {
        let mut t = Terminal::new(TestBackend::new(110, 34)).unwrap();
        t.draw(|f| app.draw(f)).unwrap();
        let buf = t.backend().buffer().clone();
        capture(&buf, buf.area).join("\n")
    }

    /// Moves the cursor with the arrows to `sq`.
    pub fn arrows_to(app: &mut impl OnBoard, sq: Square) {
        let white = app.bottom_side() == Color::White;
        let df = sq.file().index() as i32 - app.cursor().file().index() as i32;
        let dr = sq.rank().index() as i32 - app.cursor().rank().index() as i32;
        let (df, dr) = if white { (df, dr) } else { (-df, -dr) };
        for _ in 0..df.abs() {
            key(
                app,
                if df > 0 {
                    KeyCode::Right
                } else {
                    KeyCode::Left
                },
            );
        }
        for _ in 0..dr.abs() {
            key(app, if dr > 0 { KeyCode::Up } else { KeyCode::Down });
        }
        assert_eq!(app.cursor(), sq);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arrows_follow_the_board_as_it_is_turned_and_stop_at_its_edge() {
        let e4 = Square::E4;
        assert_eq!(arrow(e4, Color::White, KeyCode::Up), Some(Square::E5));
        assert_eq!(arrow(e4, Color::Black, KeyCode::Up), Some(Square::E3));
        assert_eq!(arrow(e4, Color::White, KeyCode::Left), Some(Square::D4));
        assert_eq!(arrow(e4, Color::Black, KeyCode::Left), Some(Square::F4));
        assert_eq!(
            arrow(Square::H8, Color::White, KeyCode::Up),
            Some(Square::H8)
        );
        assert_eq!(arrow(e4, Color::White, KeyCode::Enter), None);
    }

    #[test]
    fn a_piece_then_its_square_and_a_pawn_on_the_last_rank_asks_for_its_piece() {
        let pos = Position::from_fen("4k3/1P6/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        let mut sel = None;
        assert_eq!(pick(&pos, &mut sel, Square::E2), Pick::NoPiece);
        assert_eq!(pick(&pos, &mut sel, Square::H1), Pick::Selection);
        assert_eq!(sel, Some(Square::H1));
        assert_eq!(pick(&pos, &mut sel, Square::H1), Pick::Selection);
        assert_eq!(sel, None);
        pick(&pos, &mut sel, Square::H1);
        assert_eq!(
            pick(&pos, &mut sel, Square::H8),
            Pick::Move(Square::H1, Square::H8)
        );
        pick(&pos, &mut sel, Square::B7);
        assert_eq!(sel, Some(Square::B7));
        assert_eq!(
            pick(&pos, &mut sel, Square::B8),
            Pick::Promotion(Square::B7, Square::B8)
        );
        // Legality is judged afterwards: any last-rank square asks for
        // the piece, any other square is a move.
        assert_eq!(
            pick(&pos, &mut sel, Square::E8),
            Pick::Promotion(Square::B7, Square::E8)
        );
        assert_eq!(
            pick(&pos, &mut sel, Square::A6),
            Pick::Move(Square::B7, Square::A6)
        );
    }

    #[test]
    fn the_promotion_piece_in_spanish_and_english_letters() {
        assert_eq!(
            promotion_key(KeyCode::Char('d'), Lang::Es),
            Promote::Piece(Role::Queen)
        );
        assert_eq!(
            promotion_key(KeyCode::Char('C'), Lang::Es),
            Promote::Piece(Role::Knight)
        );
        assert_eq!(promotion_key(KeyCode::Char('n'), Lang::Es), Promote::Wait);
        assert_eq!(
            promotion_key(KeyCode::Char('n'), Lang::En),
            Promote::Piece(Role::Knight)
        );
        assert_eq!(promotion_key(KeyCode::Char('r'), Lang::Es), Promote::Wait);
        assert_eq!(
            promotion_key(KeyCode::Enter, Lang::Es),
            Promote::Piece(Role::Queen)
        );
        assert_eq!(promotion_key(KeyCode::Esc, Lang::En), Promote::Cancel);
        assert_eq!(promotion_key(KeyCode::Up, Lang::En), Promote::Wait);
    }
}
