//! `escaque aprender` full-screen (issue 55): the course "Aprende a jugar"
//! in the terminal with the game's board widget ([`BoardView`]). The same
//! stages, exercises, reasons and stars as `--texto`: every answer is
//! judged by the course core (`escaque_play::aprender`, the rules library);
//! this file only draws and reads keys.
//!
//! Keys: the arrows move the cursor; Intro on a square touches it (an
//! exercise that asks for a square) or picks a piece and then its
//! destination; typed text and Intro sends it (a move in notation — Ta5 or
//! a1a5 —, the written move of `escribir`, the number of an option, a
//! square's name); after a solved exercise Intro goes on. Esc lets go of
//! the piece and the typed text; `saltar` skips an exercise; `salir`,
//! Ctrl-C or Esc at the course's end quit. The mouse touches squares too.

use std::io;

use escaque::{Color, Lang, Square};
use escaque_play::aprender::{Attempt, Course, Goal, Input, Stage, Verdict};
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use super::board::{BoardView, Geometry};
use super::board_pick::{self, arrow, draw_prompt, pick, promotion_key, Pick, Promote, Screen};

/// Where the pupil is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Working on the exercise.
    Playing,
    /// The exercise is solved (or skipped): Intro goes on.
    Solved,
    /// The stage is finished: Intro opens the next one.
    StageDone,
    /// The whole course is finished.
    CourseDone,
}

/// The last verdict shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// A good move or the exercise solved.
    Good(String),
    /// A refusal with its reason.
    Wrong(String),
    /// A hint (not a verdict).
    Hint(String),
}

/// The course on screen.
pub struct Learn<'c> {
    course: &'c Course,
    /// The stage shown (index).
    pub stage: usize,
    /// The exercise shown (index).
    pub exercise: usize,
    attempt: Attempt<'c>,
    /// The stars of each exercise of the stage shown (0: not solved).
    pub stars: Vec<u8>,
    /// The stars of every stage finished in this run, by stage index.
    pub finished: Vec<(usize, u32)>,
    /// Where the pupil is.
    pub phase: Phase,
    /// The keyboard cursor.
    pub cursor: Square,
    /// The piece picked.
    pub selected: Option<Square>,
    /// A pawn's move to the last rank waiting for its piece.
    pub promotion: Option<(Square, Square)>,
    /// The text being typed.
    pub input: String,
    /// The last verdict.
    pub said: Option<Said>,
    /// The language.
    pub lang: Lang,
    /// Letters instead of figurines.
    pub ascii: bool,
    /// Where the board was last drawn (for the mouse).
    pub board_geometry: Option<Geometry>,
    /// Set when the program should end.
    pub quit: bool,
}

fn stars_text(n: u8) -> String {
    "★".repeat(n as usize) + &"☆".repeat(3usize.saturating_sub(n as usize))
}

impl<'c> Learn<'c> {
    /// The course from stage `start` (index).
    pub fn new(course: &'c Course, start: usize, lang: Lang, ascii: bool) -> Learn<'c> {
        let stage = start.min(course.stages.len().saturating_sub(1));
        let st = &course.stages[stage];
        let attempt = st.exercises[0].start();
        let mut l = Learn {
            course,
            stage,
            exercise: 0,
            attempt,
            stars: vec![0; st.exercises.len()],
            finished: Vec::new(),
            phase: Phase::Playing,
            cursor: Square::E2,
            selected: None,
            promotion: None,
            input: String::new(),
            said: None,
            lang,
            ascii,
            board_geometry: None,
            quit: false,
        };
        l.open_exercise(0);
        l
    }

    /// The stage shown.
    pub fn current_stage(&self) -> &'c Stage {
        &self.course.stages[self.stage]
    }

    fn open_exercise(&mut self, n: usize) {
        let st = self.current_stage();
        self.exercise = n;
        self.attempt = st.exercises[n].start();
        self.phase = Phase::Playing;
        self.selected = None;
        self.promotion = None;
        self.input.clear();
        self.said = None;
        // The cursor starts in front of the pupil's king side, as the game's.
        self.cursor = match st.exercises[n].side() {
            Color::White => Square::E2,
            Color::Black => Square::E7,
        };
    }

    fn open_stage(&mut self, i: usize) {
        self.stage = i;
        self.stars = vec![0; self.current_stage().exercises.len()];
        self.open_exercise(0);
    }

    /// After a solved or skipped exercise: the next one, the stage's end,
    /// or the course's.
    fn go_on(&mut self) {
        match self.phase {
            Phase::Solved => {
                if self.exercise + 1 < self.current_stage().exercises.len() {
                    self.open_exercise(self.exercise + 1);
                } else {
                    let sum = self.stars.iter().map(|&s| u32::from(s)).sum();
                    self.finished.push((self.stage, sum));
                    self.phase = Phase::StageDone;
                }
            }
            Phase::StageDone => {
                if self.stage + 1 < self.course.stages.len() {
                    self.open_stage(self.stage + 1);
                } else {
                    self.phase = Phase::CourseDone;
                }
            }
            Phase::CourseDone => self.quit = true,
            Phase::Playing => {}
        }
    }

    fn bottom(&self) -> Color {
        self.attempt.exercise().side()
    }

    /// Judges one try and shows its verdict.
    pub fn try_input(&mut self, input: Input) {
        let lang = self.lang;
        match self.attempt.try_input(&input) {
            Verdict::Refused(why) => self.said = Some(Said::Wrong(format!("✗ {}", why.get(lang)))),
            Verdict::Progress { san } => {
                self.said = Some(Said::Good(format!("✓ {}", san.get(lang))))
            }
            Verdict::Solved { san, stars } => {
                self.stars[self.exercise] = self.stars[self.exercise].max(stars);
                let done = lang.pick("¡Conseguido!", "Done!");
                let mut s = match san {
                    Some(m) => format!("✓ {}. {done} {}", m.get(lang), stars_text(stars)),
                    None => format!("✓ {done} {}", stars_text(stars)),
                };
                if let Some(note) = &self.attempt.exercise().note {
                    s.push(' ');
                    s.push_str(note.get(lang));
                }
                self.said = Some(Said::Good(s));
                self.phase = Phase::Solved;
            }
            Verdict::AlreadySolved => {}
        }
        self.selected = None;
    }

    /// A typed line: a command or an answer.
    pub fn submit(&mut self, line: &str) {
        let t = line.trim();
        match t {
            "" => {}
            "salir" | "fin" | "quit" => self.quit = true,
            "saltar" | "skip" if self.phase == Phase::Playing => {
                self.said = Some(Said::Hint(
                    self.lang
                        .pick("Ejercicio saltado.", "Exercise skipped.")
                        .into(),
                ));
                self.phase = Phase::Solved;
                self.go_on();
            }
            _ if self.phase == Phase::Playing => self.try_input(Input::Text(t.to_string())),
            _ => {}
        }
    }

    /// Intro (or a click) on `sq`: touches it, picks a piece, or moves.
    pub fn choose(&mut self, sq: Square) {
        if self.phase != Phase::Playing {
            return;
        }
        let ex = self.attempt.exercise();
        if matches!(ex.goal, Goal::Square(_)) {
            self.try_input(Input::Square(sq));
            return;
        }
        if ex.goal.is_question() || matches!(ex.goal, Goal::Write(_)) {
            self.said = Some(Said::Hint(
                match &ex.goal {
                    Goal::Write(_) => self.lang.pick(
                        "Escribe la jugada en notación española y pulsa Intro.",
                        "Type the move in Spanish notation and press Enter.",
                    ),
                    _ => self.lang.pick(
                        "Escribe el número de tu respuesta y pulsa Intro.",
                        "Type the number of your answer and press Enter.",
                    ),
                }
                .into(),
            ));
            return;
        }
        let Some(pos) = self.attempt.position().copied() else {
            return;
        };
        match pick(&pos, &mut self.selected, sq) {
            Pick::Selection => {}
            Pick::NoPiece => {
                self.said = Some(Said::Hint(
                    self.lang
                        .pick(
                            "Elige primero una de tus piezas.",
                            "Pick one of your pieces first.",
                        )
                        .into(),
                ));
            }
            Pick::Promotion(from, to) => self.promotion = Some((from, to)),
            Pick::Move(from, to) => self.try_input(Input::Move {
                from,
                to,
                promotion: None,
            }),
        }
    }

    /// Handles a key press.
    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            self.quit = true;
            return;
        }
        if let Some((from, to)) = self.promotion {
            match promotion_key(key.code, self.lang) {
                Promote::Piece(r) => {
                    self.promotion = None;
                    self.try_input(Input::Move {
                        from,
                        to,
                        promotion: Some(r),
                    });
                }
                Promote::Cancel => {
                    self.promotion = None;
                    self.selected = None;
                }
                Promote::Wait => {}
            }
            return;
        }
        if self.phase != Phase::Playing {
            match key.code {
                KeyCode::Enter | KeyCode::Char(' ') => self.go_on(),
                KeyCode::Esc if self.phase == Phase::CourseDone => self.quit = true,
                KeyCode::Char('q') if self.phase == Phase::CourseDone => self.quit = true,
                _ => {}
            }
            return;
        }
        match key.code {
            KeyCode::Esc => {
                self.input.clear();
                self.selected = None;
            }
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Enter => {
                if self.input.trim().is_empty() {
                    self.input.clear();
                    self.choose(self.cursor);
                } else {
                    let line = std::mem::take(&mut self.input);
                    self.submit(&line);
                }
            }
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right => {
                if let Some(s) = arrow(self.cursor, self.bottom(), key.code) {
                    self.cursor = s;
                }
            }
            KeyCode::Char(c) => self.input.push(c),
            _ => {}
        }
    }

    /// A left click on the board touches the square under it.
    pub fn on_mouse(&mut self, ev: MouseEvent) {
        if !matches!(ev.kind, MouseEventKind::Down(MouseButton::Left)) {
            return;
        }
        if self.phase != Phase::Playing {
            self.go_on();
            return;
        }
        if let Some(g) = self.board_geometry {
            if let Some(sq) = g.square_at(self.bottom(), ev.column, ev.row) {
                self.cursor = sq;
                self.choose(sq);
            }
        }
    }

    /// Draws the whole screen.
    pub fn draw(&mut self, frame: &mut Frame) {
        let area = frame.area();
        let lang = self.lang;
        let [main, bottom] =
            Layout::vertical([Constraint::Min(10), Constraint::Length(3)]).areas(area);
        let st = self.current_stage();
        let ex = self.attempt.exercise();
        // A square to touch is shown on a board even without a position.
        let touch = matches!(ex.goal, Goal::Square(_));
        let has_board = self.attempt.position().is_some() || touch;
        let board_w = if has_board {
            Geometry::fit(main).size().0.min(main.width) + 1
        } else {
            0
        };
        let [board_area, panel] =
            Layout::horizontal([Constraint::Length(board_w), Constraint::Min(20)]).areas(main);
        self.board_geometry = None;
        if let Some(pos) = self.attempt.position() {
            let marks: Vec<Square> = self.attempt.stars_left().collect();
            let last = self.attempt.played().last().map(|m| (m.from(), m.to()));
            let written = match &ex.goal {
                Goal::Write(m) => Some((m.from(), m.to())),
                _ => None,
            };
            let view = BoardView {
                pos,
                bottom: ex.side(),
                ascii: self.ascii,
                lang,
                last: written.or(last),
                selected: self.selected,
                targets: &marks,
                cursor: (self.phase == Phase::Playing && self.promotion.is_none())
                    .then_some(self.cursor),
            };
            self.board_geometry = Some(Geometry::fit(board_area));
            frame.render_widget(view, board_area);
        } else if touch {
            let cursor = (self.phase == Phase::Playing).then_some(self.cursor);
            self.board_geometry = Some(empty_board(frame, board_area, ex.side(), cursor));
        }

        let bold = Style::default().add_modifier(Modifier::BOLD);
        let mut lines = vec![
            Line::from(Span::styled(
                format!(
                    "{} {}/{}: {}",
                    lang.pick("Etapa", "Stage"),
                    self.stage + 1,
                    self.course.stages.len(),
                    st.title.get(lang)
                ),
                bold,
            )),
            Line::from(Span::styled(
                format!("{}: {}", lang.pick("Fuente", "Source"), st.source.get(lang)),
                Style::default().add_modifier(Modifier::DIM),
            )),
            Line::from(""),
        ];
        match self.phase {
            Phase::StageDone => {
                let sum: u32 = self.stars.iter().map(|&s| u32::from(s)).sum();
                lines.push(Line::from(Span::styled(
                    format!(
                        "{} «{}» {}: {sum} {} {}.",
                        lang.pick("Etapa", "Stage"),
                        st.title.get(lang),
                        lang.pick("terminada", "finished"),
                        lang.pick("estrellas de", "stars out of"),
                        3 * st.exercises.len()
                    ),
                    bold.fg(Tc::Green),
                )));
                for (i, s) in self.stars.iter().enumerate() {
                    lines.push(Line::from(format!(
                        "  {} {}: {}",
                        lang.pick("Ejercicio", "Exercise"),
                        i + 1,
                        stars_text(*s)
                    )));
                }
                lines.push(Line::from(""));
                lines.push(Line::from(if self.stage + 1 < self.course.stages.len() {
                    lang.pick("Intro: siguiente etapa.", "Enter: next stage.")
                } else {
                    lang.pick("Intro: terminar.", "Enter: finish.")
                }));
            }
            Phase::CourseDone => {
                let sum: u32 = self.finished.iter().map(|(_, s)| s).sum();
                lines.push(Line::from(Span::styled(
                    lang.pick("¡Curso terminado!", "Course finished!"),
                    bold.fg(Tc::Green),
                )));
                lines.push(Line::from(format!(
                    "{}: {sum} {}.",
                    lang.pick("En esta sesión", "In this session"),
                    lang.pick("estrellas", "stars")
                )));
                lines.push(Line::from(
                    lang.pick("Intro o Esc: salir.", "Enter or Esc: quit."),
                ));
            }
            Phase::Playing | Phase::Solved => {
                lines.push(Line::from(Span::styled(
                    format!(
                        "{} {}/{}: {}",
                        lang.pick("Ejercicio", "Exercise"),
                        self.exercise + 1,
                        st.exercises.len(),
                        ex.task.get(lang)
                    ),
                    bold,
                )));
                if has_board && !ex.goal.is_question() && !matches!(ex.goal, Goal::Square(_)) {
                    lines.push(Line::from(format!(
                        "{} {}.",
                        lang.pick("Juegas con", "You play"),
                        match (ex.side(), lang) {
                            (Color::White, Lang::Es) => "las blancas",
                            (Color::Black, Lang::Es) => "las negras",
                            (Color::White, Lang::En) => "White",
                            (Color::Black, Lang::En) => "Black",
                        }
                    )));
                }
                if let Goal::Write(m) = &ex.goal {
                    lines.push(Line::from(format!(
                        "{}: {} → {}",
                        lang.pick("Jugada marcada", "Marked move"),
                        m.from(),
                        m.to()
                    )));
                }
                for (i, o) in ex.options().iter().enumerate() {
                    lines.push(Line::from(format!("  {}) {}", i + 1, o.get(lang))));
                }
                lines.push(Line::from(""));
                match &self.said {
                    Some(Said::Good(s)) => {
                        lines.push(Line::from(Span::styled(s.clone(), bold.fg(Tc::Green))))
                    }
                    Some(Said::Wrong(s)) => {
                        lines.push(Line::from(Span::styled(s.clone(), bold.fg(Tc::Red))))
                    }
                    Some(Said::Hint(s)) => lines.push(Line::from(s.clone())),
                    None => {}
                }
                if self.phase == Phase::Solved {
                    lines.push(Line::from(
                        lang.pick("Intro: siguiente ejercicio.", "Enter: next exercise."),
                    ));
                }
                if self.promotion.is_some() {
                    lines.push(Line::from(Span::styled(
                        lang.pick(
                            "Coronar en: D (dama), T (torre), A (alfil), C (caballo).",
                            "Promote to: D (queen), T (rook), A (bishop), C (knight).",
                        ),
                        bold,
                    )));
                }
                let got: u32 = self.stars.iter().map(|&s| u32::from(s)).sum();
                lines.push(Line::from(""));
                lines.push(Line::from(format!(
                    "{}: {}",
                    lang.pick("Estrellas de la etapa", "Stars of the stage"),
                    self.stars
                        .iter()
                        .map(|&s| if s == 0 {
                            "·".to_string()
                        } else {
                            stars_text(s)
                        })
                        .collect::<Vec<_>>()
                        .join(" ")
                )));
                lines.push(Line::from(format!(
                    "{got} {} {}",
                    lang.pick("de", "of"),
                    3 * st.exercises.len()
                )));
            }
        }
        let block = Block::default()
            .borders(Borders::ALL)
            .title(lang.pick(" Aprende a jugar ", " Learn to play "));
        frame.render_widget(
            Paragraph::new(lines).block(block).wrap(Wrap { trim: true }),
            panel,
        );

        let prompt = lang.pick("Respuesta", "Answer");
        let hint = lang.pick(
            "Flechas e Intro: casilla o pieza y destino · escribe jugada, número o casilla · saltar · salir",
            "Arrows and Enter: square or piece and destination · type a move, number or square · saltar · salir",
        );
        draw_prompt(frame, bottom, prompt, &self.input, hint);
    }
}

/// An empty board with its coordinates and the cursor, as [`BoardView`]
/// draws one (for the squares to touch before any piece is shown).
fn empty_board(frame: &mut Frame, area: Rect, bottom: Color, cursor: Option<Square>) -> Geometry {
    use super::board::{palette, square_of};
    let g = Geometry::fit(area);
    let (w, h) = g.size();
    if area.width < w || area.height < h {
        return g;
    }
    let buf = frame.buffer_mut();
    let coord = Style::default().fg(palette::COORD);
    for i in 0..8u16 {
        let sq = square_of(bottom, i, i);
        let fx = g.x0 + i * g.cw + g.cw / 2;
        let fc = sq.file().char().to_string();
        buf.set_string(fx, g.y0 - 1, &fc, coord);
        buf.set_string(fx, g.y0 + 8 * g.ch, &fc, coord);
        let ry = g.y0 + i * g.ch + g.ch / 2;
        let rc = sq.rank().char().to_string();
        buf.set_string(area.x, ry, &rc, coord);
        buf.set_string(g.x0 + 8 * g.cw + 1, ry, &rc, coord);
    }
    for row in 0..8u16 {
        for col in 0..8u16 {
            let sq = square_of(bottom, col, row);
            let bg = if cursor == Some(sq) {
                palette::CURSOR
            } else if sq.is_light() {
                palette::LIGHT
            } else {
                palette::DARK
            };
            let style = Style::default().bg(bg);
            for dy in 0..g.ch {
                buf.set_string(
                    g.x0 + col * g.cw,
                    g.y0 + row * g.ch + dy,
                    " ".repeat(usize::from(g.cw)),
                    style,
                );
            }
        }
    }
    g
}

/// Runs the course full-screen from stage `start` until the pupil leaves.
pub fn run(course: &Course, start: usize, lang: Lang, ascii: bool) -> io::Result<()> {
    board_pick::run(&mut Learn::new(course, start, lang, ascii))
}

impl Screen for Learn<'_> {
    fn done(&self) -> bool {
        self.quit
    }
    fn draw(&mut self, frame: &mut Frame) {
        Learn::draw(self, frame)
    }
    fn key(&mut self, key: KeyEvent) {
        self.on_key(key)
    }
    fn mouse(&mut self, ev: MouseEvent) {
        self.on_mouse(ev)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::board_pick::testing::{arrows_to, key, screen, typed, OnBoard};
    use escaque::Role;

    impl OnBoard for Learn<'_> {
        fn cursor(&self) -> Square {
            self.cursor
        }
        fn bottom_side(&self) -> Color {
            self.bottom()
        }
    }

    #[test]
    fn the_board_stage_by_arrows_and_a_wrong_square_gets_its_reason() {
        let course = Course::builtin().unwrap();
        let mut app = Learn::new(&course, 0, Lang::Es, true);
        let s = screen(&mut app);
        assert!(s.contains("Etapa 1/21"), "{s}");
        assert!(s.contains("Ejercicio 1/"), "{s}");
        let n = app.current_stage().exercises.len();
        let mut wrong_once = false;
        for i in 0..n {
            assert_eq!(app.exercise, i);
            let ex = &app.current_stage().exercises[i];
            match &ex.goal {
                Goal::Square(sq) => {
                    if !wrong_once {
                        let other = if *sq == Square::A1 {
                            Square::H8
                        } else {
                            Square::A1
                        };
                        arrows_to(&mut app, other);
                        key(&mut app, KeyCode::Enter);
                        let s = screen(&mut app);
                        assert!(s.contains('✗'), "{s}");
                        assert!(matches!(app.said, Some(Said::Wrong(ref w)) if w.len() > 10));
                        wrong_once = true;
                    }
                    arrows_to(&mut app, *sq);
                    key(&mut app, KeyCode::Enter);
                }
                _ if ex.goal.is_question() => {
                    let right = ex.right_options()[0];
                    typed(&mut app, &(right + 1).to_string());
                }
                g => panic!("stage 1 has a {g:?}"),
            }
            let s = screen(&mut app);
            assert_eq!(app.phase, Phase::Solved, "{s}");
            assert!(s.contains("¡Conseguido!"), "{s}");
            key(&mut app, KeyCode::Enter);
        }
        assert_eq!(app.phase, Phase::StageDone);
        let s = screen(&mut app);
        assert!(s.contains("terminada"), "{s}");
        let sum: u32 = app.stars.iter().map(|&s| u32::from(s)).sum();
        assert_eq!(sum, 3 * n as u32 - 1, "one wrong square costs one star");
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.stage, 1);
        assert_eq!(app.phase, Phase::Playing);
    }

    #[test]
    fn a_rook_move_by_arrows_and_its_refusal_in_english() {
        let course = Course::builtin().unwrap();
        let i = course.stages.iter().position(|s| s.id == "torre").unwrap();
        let mut app = Learn::new(&course, i, Lang::En, false);
        let pos = *app.attempt.position().unwrap();
        let rook = Square::all()
            .find(|&s| {
                pos.piece_at(s)
                    .is_some_and(|p| p.role == Role::Rook && p.color == pos.turn())
            })
            .unwrap();
        // A diagonal step: the rook cannot, and the reason says so.
        let diag = rook
            .offset(1, 1)
            .or_else(|| rook.offset(-1, -1))
            .or_else(|| rook.offset(1, -1))
            .unwrap();
        arrows_to(&mut app, rook);
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.selected, Some(rook));
        arrows_to(&mut app, diag);
        key(&mut app, KeyCode::Enter);
        let s = screen(&mut app);
        assert!(matches!(app.said, Some(Said::Wrong(_))), "{s}");
        assert!(s.contains("Stage"), "{s}");
        assert_eq!(app.selected, None);
        key(&mut app, KeyCode::Esc);
        typed(&mut app, "saltar");
        assert_eq!(app.exercise, 1);
    }
}
