//! `escaque problemas` full-screen (issue 56): the puzzles on the game's
//! board widget ([`BoardView`]). Every move is judged by the same
//! [`Attempt`] as `--texto`, and the player's own rating ([`LocalRating`])
//! moves and is saved after each puzzle; this file only draws and reads
//! keys.
//!
//! Keys: the arrows move the cursor; Intro on a square picks a piece and
//! then its destination (a pawn to the last rank asks D/T/A/C); typed text
//! and Intro sends a move in Spanish or English SAN or in coordinates
//! (`Cxf7+`, `Nxf7`, `g5f7`), or a command: `pista` (the piece to move,
//! marked on the board; a solve after it counts ½), `solucion` (the rest of
//! the solution, the puzzle missed), `salir`. After a puzzle Intro opens the
//! next one. Esc lets go of the piece and the typed text; Ctrl-C quits. The
//! mouse touches squares too.

use std::io;
use std::path::PathBuf;

use escaque::{Color, Lang, Localized, Notation, Position, Role, SanLang, Square};
use escaque_analysis::problemas::Puzzle;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use super::board::{BoardView, Geometry};
use super::board_pick::{self, arrow, draw_prompt, pick, promotion_key, Pick, Promote, Screen};
use crate::problemas_trainer::{
    rating_change, shown_rating, side_name, themes_text, Attempt, LocalRating, Step,
};

/// The last thing said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// A good move or the puzzle solved.
    Good(String),
    /// A wrong move, the solution shown.
    Wrong(String),
    /// A hint or a note.
    Note(String),
}

/// The trainer on screen.
pub struct Trainer<'p> {
    puzzles: &'p [Puzzle],
    /// The puzzle shown (index).
    pub current: usize,
    /// The puzzle being played.
    pub attempt: Option<Attempt<'p>>,
    /// Children's mode: stars, no rating.
    pub kids: bool,
    /// The player's own rating.
    pub rating: LocalRating,
    save: Option<PathBuf>,
    /// Solved and missed in this session.
    pub solved: u32,
    /// Missed in this session.
    pub missed: u32,
    /// The keyboard cursor.
    pub cursor: Square,
    /// The piece picked.
    pub selected: Option<Square>,
    /// The hint's square, marked on the board.
    pub hinted: Option<Square>,
    /// A pawn's move to the last rank waiting for its piece.
    pub promotion: Option<(Square, Square)>,
    /// After a miss, the rest of the solution on the board: the position
    /// after each of its moves, stepped through with ← and →.
    pub review: Vec<(Position, escaque::Move)>,
    /// The position of [`Trainer::review`] shown.
    pub review_at: usize,
    /// The text being typed.
    pub input: String,
    /// What was said last (newest last).
    pub said: Vec<Said>,
    /// The language.
    pub lang: Lang,
    /// Letters instead of figurines.
    pub ascii: bool,
    /// Where the board was last drawn (for the mouse).
    pub board_geometry: Option<Geometry>,
    /// Set when the program should end.
    pub quit: bool,
}

impl<'p> Trainer<'p> {
    /// The trainer on `puzzles` (in the order given), the player's rating
    /// written to `save` after each puzzle.
    pub fn new(
        puzzles: &'p [Puzzle],
        kids: bool,
        rating: LocalRating,
        save: Option<PathBuf>,
        lang: Lang,
        ascii: bool,
    ) -> Trainer<'p> {
        let mut t = Trainer {
            puzzles,
            current: 0,
            attempt: None,
            kids,
            rating,
            save,
            solved: 0,
            missed: 0,
            cursor: Square::E2,
            selected: None,
            hinted: None,
            promotion: None,
            review: Vec::new(),
            review_at: 0,
            input: String::new(),
            said: Vec::new(),
            lang,
            ascii,
            board_geometry: None,
            quit: false,
        };
        t.open(0);
        t
    }

    fn open(&mut self, n: usize) {
        self.current = n;
        self.attempt = self.puzzles.get(n).map(Attempt::new);
        self.selected = None;
        self.hinted = None;
        self.promotion = None;
        self.review.clear();
        self.review_at = 0;
        self.input.clear();
        self.said.clear();
        if let Some(a) = &self.attempt {
            self.cursor = match a.puzzle.solver() {
                Color::White => Square::E2,
                Color::Black => Square::E7,
            };
        }
    }

    /// Whether the puzzle shown is over (solved or missed).
    pub fn finished(&self) -> bool {
        self.attempt.as_ref().is_some_and(|a| a.result.is_some())
    }

    fn bottom(&self) -> Color {
        self.attempt
            .as_ref()
            .map_or(Color::White, |a| a.puzzle.solver())
    }

    /// The puzzle is over: count it, move the rating and save it.
    fn conclude(&mut self) {
        let Some(a) = &self.attempt else { return };
        let (score, rating) = (a.score(), a.puzzle.rating);
        if a.result == Some(true) {
            self.solved += 1;
        } else {
            self.missed += 1;
        }
        let before = self.rating;
        self.rating.after(rating, score);
        if !self.kids {
            self.said
                .push(Said::Note(rating_change(&before, &self.rating, self.lang)));
        }
        if let Some(path) = &self.save {
            if let Err(e) = self.rating.save(path) {
                self.said.push(Said::Wrong(format!(
                    "{} {}: {e}",
                    self.lang.pick("No se pudo guardar", "Could not save"),
                    path.display()
                )));
            }
        }
    }

    /// The puzzle was missed: its solution from here goes on the board,
    /// the solver's next move shown first.
    fn start_review(&mut self) {
        self.review.clear();
        self.review_at = 0;
        let Some(a) = &self.attempt else { return };
        let mut pos = a.pos;
        for &m in &a.puzzle.moves[a.index..] {
            pos.play_unchecked(m);
            self.review.push((pos, m));
        }
    }

    /// Plays a move of the solver.
    pub fn play(&mut self, mv: escaque::Move) {
        let lang = self.lang;
        let Some(a) = self.attempt.as_mut() else {
            return;
        };
        self.selected = None;
        self.hinted = None;
        match a.play(mv, lang) {
            Step::Wrong => {
                let s = a.solution(lang);
                let themes = themes_text(a.puzzle, lang);
                self.said.push(Said::Wrong(format!(
                    "✗ {} {}: {s}",
                    lang.pick("Incorrecto.", "Wrong."),
                    lang.pick("La solución", "The solution"),
                )));
                self.said.push(Said::Note(format!(
                    "{}: {themes}",
                    lang.pick("Temas", "Themes")
                )));
                self.start_review();
                self.conclude();
            }
            Step::Good { san, reply } => {
                self.said.push(Said::Good(format!(
                    "✓ {san} — {} {reply}",
                    lang.pick("¡Bien! El rival contesta", "Good! The opponent answers"),
                )));
            }
            Step::Solved { san } => {
                let themes = themes_text(a.puzzle, lang);
                self.said.push(Said::Good(format!(
                    "✓ {san} — {}",
                    lang.pick("¡Correcto! Resuelto.", "Correct! Solved.")
                )));
                self.said.push(Said::Note(format!(
                    "{}: {themes}",
                    lang.pick("Temas", "Themes")
                )));
                self.conclude();
            }
        }
    }

    /// A typed line: a command or a move.
    pub fn submit(&mut self, line: &str) {
        let t = line.trim();
        let lang = self.lang;
        match t {
            "" => {}
            "salir" | "quit" | "exit" => self.quit = true,
            _ if self.finished() => {}
            "pista" | "hint" => {
                if let Some(a) = self.attempt.as_mut() {
                    let h = a.hint(lang);
                    self.hinted = Some(a.puzzle.moves[a.index].from());
                    self.said.push(Said::Note(h));
                }
            }
            "solucion" | "solución" | "solution" => {
                if let Some(a) = self.attempt.as_mut() {
                    let s = a.solution(lang);
                    let themes = themes_text(a.puzzle, lang);
                    self.said.push(Said::Wrong(format!(
                        "{}: {s}",
                        lang.pick("La solución", "The solution")
                    )));
                    self.said.push(Said::Note(format!(
                        "{}: {themes}",
                        lang.pick("Temas", "Themes")
                    )));
                    self.start_review();
                    self.conclude();
                }
            }
            _ => {
                let Some(a) = &self.attempt else { return };
                match escaque::read_move(&a.pos, t, Notation::Any(SanLang::from(lang))) {
                    Ok(m) => self.play(m),
                    Err(e) => self
                        .said
                        .push(Said::Wrong(format!("✗ {}", e.message(lang)))),
                }
            }
        }
    }

    /// Intro (or a click) on `sq`: picks a piece or moves it there.
    pub fn choose(&mut self, sq: Square) {
        let Some(a) = &self.attempt else { return };
        if a.result.is_some() {
            return;
        }
        let pos = a.pos;
        match pick(&pos, &mut self.selected, sq) {
            Pick::Selection => {}
            Pick::NoPiece => self.said.push(Said::Note(
                self.lang
                    .pick(
                        "Elige primero una de tus piezas.",
                        "Pick one of your pieces first.",
                    )
                    .into(),
            )),
            Pick::Promotion(from, to) => self.promotion = Some((from, to)),
            Pick::Move(from, to) => self.move_from_to(from, to, None),
        }
    }

    fn move_from_to(&mut self, from: Square, to: Square, promotion: Option<Role>) {
        let Some(a) = &self.attempt else { return };
        let found = a
            .pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.promotion_role() == promotion);
        match found {
            Some(m) => self.play(m),
            None => {
                self.selected = None;
                self.said.push(Said::Wrong(format!(
                    "✗ {} {from}-{to}.",
                    self.lang
                        .pick("No es una jugada legal:", "Not a legal move:")
                )));
            }
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
                    self.move_from_to(from, to, Some(r));
                }
                Promote::Cancel => {
                    self.promotion = None;
                    self.selected = None;
                }
                Promote::Wait => {}
            }
            return;
        }
        if self.attempt.is_none() {
            if matches!(key.code, KeyCode::Enter | KeyCode::Esc | KeyCode::Char('q')) {
                self.quit = true;
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
                let line = std::mem::take(&mut self.input);
                if !line.trim().is_empty() {
                    self.submit(&line);
                } else if self.finished() {
                    self.open(self.current + 1);
                } else {
                    self.choose(self.cursor);
                }
            }
            KeyCode::Left | KeyCode::Right if self.finished() && !self.review.is_empty() => {
                let last = self.review.len() - 1;
                self.review_at = if key.code == KeyCode::Left {
                    self.review_at.saturating_sub(1)
                } else {
                    (self.review_at + 1).min(last)
                };
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

    /// A left click on the board touches the square under it; after a
    /// puzzle a click opens the next one.
    pub fn on_mouse(&mut self, ev: MouseEvent) {
        if !matches!(ev.kind, MouseEventKind::Down(MouseButton::Left)) {
            return;
        }
        if self.finished() {
            self.open(self.current + 1);
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
        let bold = Style::default().add_modifier(Modifier::BOLD);
        let title = lang.pick(" Problemas ", " Puzzles ");
        let Some(a) = &self.attempt else {
            self.board_geometry = None;
            let lines = vec![
                Line::from(Span::styled(
                    lang.pick("No quedan problemas.", "No puzzles left."),
                    bold,
                )),
                Line::from(lang.pick(
                    format!("Resueltos: {}. Fallados: {}.", self.solved, self.missed),
                    format!("Solved: {}. Missed: {}.", self.solved, self.missed),
                )),
                Line::from(lang.pick("Intro o Esc: salir.", "Enter or Esc: quit.")),
            ];
            frame.render_widget(
                Paragraph::new(lines)
                    .block(Block::default().borders(Borders::ALL).title(title))
                    .wrap(Wrap { trim: true }),
                main,
            );
            return;
        };
        let board_w = Geometry::fit(main).size().0.min(main.width) + 1;
        let [board_area, panel] =
            Layout::horizontal([Constraint::Length(board_w), Constraint::Min(20)]).areas(main);
        let p = a.puzzle;
        let targets: Vec<Square> = self.hinted.into_iter().collect();
        let (shown, last) = match self.review.get(self.review_at) {
            Some((pos, m)) if a.result.is_some() => (pos, *m),
            _ => (&a.pos, a.last),
        };
        let view = BoardView {
            pos: shown,
            bottom: p.solver(),
            ascii: self.ascii,
            lang,
            last: Some((last.from(), last.to())),
            selected: self.selected,
            targets: &targets,
            cursor: (a.result.is_none() && self.promotion.is_none()).then_some(self.cursor),
        };
        self.board_geometry = Some(Geometry::fit(board_area));
        frame.render_widget(view, board_area);

        let mut lines = vec![
            Line::from(Span::styled(
                format!(
                    "{} {}/{} ({}) — {}",
                    lang.pick("Problema", "Puzzle"),
                    self.current + 1,
                    self.puzzles.len(),
                    p.id,
                    shown_rating(p.rating, self.kids)
                ),
                bold,
            )),
            Line::from(lang.pick(
                format!(
                    "El rival jugó {}. Juegan las {}.",
                    a.first_move(lang),
                    side_name(p.solver(), lang)
                ),
                format!(
                    "The opponent played {}. {} to play.",
                    a.first_move(lang),
                    side_name(p.solver(), lang)
                ),
            )),
            Line::from(""),
        ];
        for s in &self.said {
            lines.push(match s {
                Said::Good(t) => Line::from(Span::styled(t.clone(), bold.fg(Tc::Green))),
                Said::Wrong(t) => Line::from(Span::styled(t.clone(), bold.fg(Tc::Red))),
                Said::Note(t) => Line::from(t.clone()),
            });
        }
        if let (Some(sq), None) = (self.selected, self.promotion) {
            let role = a.pos.role_at(sq).unwrap_or(Role::Pawn);
            let name = crate::problemas_trainer::role_name(role, lang);
            lines.push(Line::from(lang.pick(
                format!("Elegida: {name} de {sq}."),
                format!("Picked: {name} on {sq}."),
            )));
            lines.push(Line::from(lang.pick(
                "Ahora su casilla; Esc la suelta.",
                "Now its square; Esc lets go.",
            )));
        }
        if a.result.is_some() && !self.review.is_empty() {
            lines.push(Line::from(lang.pick(
                format!(
                    "En el tablero: la solución, jugada {} de {} (← →).",
                    self.review_at + 1,
                    self.review.len()
                ),
                format!(
                    "On the board: the solution, move {} of {} (← →).",
                    self.review_at + 1,
                    self.review.len()
                ),
            )));
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
        if a.result.is_some() {
            lines.push(Line::from(""));
            lines.push(Line::from(
                lang.pick("Intro: siguiente problema.", "Enter: next puzzle."),
            ));
        }
        lines.push(Line::from(""));
        if self.kids {
            lines.push(Line::from(lang.pick(
                format!("Resueltos: {} ★", self.solved),
                format!("Solved: {} ★", self.solved),
            )));
        } else {
            lines.push(Line::from(lang.pick(
                format!(
                    "Tu puntuación: {:.0} · resueltos {} · fallados {}",
                    self.rating.glicko.rating, self.solved, self.missed
                ),
                format!(
                    "Your rating: {:.0} · solved {} · missed {}",
                    self.rating.glicko.rating, self.solved, self.missed
                ),
            )));
        }
        frame.render_widget(
            Paragraph::new(lines)
                .block(Block::default().borders(Borders::ALL).title(title))
                .wrap(Wrap { trim: true }),
            panel,
        );
        let prompt = lang.pick("Jugada", "Move");
        let hint = lang.pick(
            "Flechas e Intro: pieza y destino · escribe la jugada (Cxf7+ o g5f7) · pista · solucion · salir",
            "Arrows and Enter: piece and destination · type the move (Nxf7+ or g5f7) · pista · solucion · salir",
        );
        draw_prompt(frame, bottom, prompt, &self.input, hint);
    }
}

/// Runs the trainer full-screen until the player leaves.
pub fn run(
    puzzles: &[Puzzle],
    kids: bool,
    rating: LocalRating,
    save: Option<PathBuf>,
    lang: Lang,
    ascii: bool,
) -> io::Result<()> {
    board_pick::run(&mut Trainer::new(puzzles, kids, rating, save, lang, ascii))
}

impl Screen for Trainer<'_> {
    fn done(&self) -> bool {
        self.quit
    }
    fn draw(&mut self, frame: &mut Frame) {
        Trainer::draw(self, frame)
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
    use escaque_analysis::problemas;

    impl OnBoard for Trainer<'_> {
        fn cursor(&self) -> Square {
            self.cursor
        }
        fn bottom_side(&self) -> Color {
            self.bottom()
        }
    }

    /// A shipped puzzle solved on the board with the arrows (its first move)
    /// and typed in Spanish SAN (the rest), the next one missed by a wrong
    /// move: the rating goes up, then down, and is saved after each.
    #[test]
    fn a_puzzle_solved_by_arrows_and_typed_moves_and_one_missed() {
        let set = problemas::shipped();
        let mut two: Vec<Puzzle> = set
            .iter()
            .filter(|p| p.moves.len() >= 4)
            .take(2)
            .cloned()
            .collect();
        assert_eq!(two.len(), 2);
        two[1].themes = vec!["fork".into()];
        let dir = std::env::temp_dir().join(format!("escaque-pz-tui-{}", std::process::id()));
        let save = dir.join("problemas-puntuacion.txt");
        let mut app = Trainer::new(
            &two,
            false,
            LocalRating::default(),
            Some(save.clone()),
            Lang::Es,
            true,
        );
        let s = screen(&mut app);
        assert!(s.contains("Problema 1/2"), "{s}");
        assert!(s.contains("El rival jugó"), "{s}");
        let p = &two[0];
        // The first solver move with the arrows: the piece, then the square.
        let m = p.moves[1];
        arrows_to(&mut app, m.from());
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.selected, Some(m.from()));
        arrows_to(&mut app, m.to());
        key(&mut app, KeyCode::Enter);
        if m.promotion_role().is_some() {
            key(&mut app, KeyCode::Char('D'));
        }
        // The rest typed in Spanish SAN.
        while !app.finished() {
            let a = app.attempt.as_ref().unwrap();
            let san = escaque::san::san_display(&a.pos, p.moves[a.index], Lang::Es);
            typed(&mut app, &san);
        }
        let s = screen(&mut app);
        assert!(s.contains("¡Correcto! Resuelto."), "{s}");
        assert!(s.contains("Tu puntuación: 1500 →"), "{s}");
        assert_eq!(app.solved, 1);
        let up = app.rating.glicko.rating;
        assert!(up > 1500.0);
        assert_eq!(LocalRating::load(Some(&save)), app.rating);
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.current, 1);
        // A hint marks the piece; then a wrong move misses it.
        typed(&mut app, "pista");
        assert_eq!(app.hinted, Some(two[1].moves[1].from()));
        assert!(screen(&mut app).contains("Pista: mueve"));
        let a = app.attempt.as_ref().unwrap();
        let wrong = a
            .pos
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| !two[1].accepts(1, m))
            .unwrap();
        typed(&mut app, &wrong.to_string());
        let s = screen(&mut app);
        assert!(s.contains("Incorrecto"), "{s}");
        assert!(s.contains("La solución"), "{s}");
        assert!(s.contains("Temas: ataque doble"), "{s}");
        assert_eq!(app.missed, 1);
        assert!(app.rating.glicko.rating < up);
        assert_eq!(LocalRating::load(Some(&save)), app.rating);
        key(&mut app, KeyCode::Enter);
        assert!(screen(&mut app).contains("No quedan problemas"));
        key(&mut app, KeyCode::Enter);
        assert!(app.quit);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn children_see_stars_and_an_illegal_typed_move_is_explained_in_english() {
        let mates = problemas::shipped_mates();
        let one: Vec<Puzzle> = mates.into_iter().take(1).collect();
        let mut app = Trainer::new(&one, true, LocalRating::default(), None, Lang::En, false);
        typed(&mut app, "Ke9");
        let s = screen(&mut app);
        assert!(s.contains('★'), "{s}");
        assert!(!s.contains("Your rating"), "{s}");
        assert!(matches!(app.said.last(), Some(Said::Wrong(_))), "{s}");
        typed(&mut app, "solution");
        assert_eq!(app.missed, 1);
        assert!(screen(&mut app).contains("The solution"));
    }

    /// A picked piece is named in the panel; after «solucion» the board
    /// shows the solution move by move (→ and ←), not the position where
    /// the player stopped.
    #[test]
    fn the_solution_is_played_on_the_board_and_stepped_with_the_arrows() {
        let set = problemas::shipped();
        let p = set.iter().find(|p| p.moves.len() >= 4).unwrap().clone();
        let one = vec![p.clone()];
        let mut app = Trainer::new(&one, false, LocalRating::default(), None, Lang::Es, true);
        let from = p.moves[1].from();
        arrows_to(&mut app, from);
        key(&mut app, KeyCode::Enter);
        let s = screen(&mut app);
        assert!(s.contains("Elegida: "), "{s}");
        assert!(s.contains(&format!(" de {from}.")), "{s}");
        assert!(s.contains("Ahora su casilla; Esc la suelta."), "{s}");
        key(&mut app, KeyCode::Esc);
        assert!(!screen(&mut app).contains("Elegida"));
        typed(&mut app, "solucion");
        assert!(app.finished());
        let positions = p.positions();
        assert_eq!(app.review.len(), p.moves.len() - 1);
        assert_eq!(app.review[0].0, positions[2]);
        assert_eq!(app.review[0].1, p.moves[1]);
        let s = screen(&mut app);
        assert!(
            s.contains(&format!("jugada 1 de {}", p.moves.len() - 1)),
            "{s}"
        );
        key(&mut app, KeyCode::Right);
        key(&mut app, KeyCode::Right);
        assert_eq!(app.review_at, 2);
        assert!(screen(&mut app).contains("jugada 3 de"));
        for _ in 0..10 {
            key(&mut app, KeyCode::Right);
        }
        assert_eq!(app.review_at, p.moves.len() - 2);
        key(&mut app, KeyCode::Left);
        assert_eq!(app.review_at, p.moves.len() - 3);
        // Enter still opens the next puzzle (none left here).
        key(&mut app, KeyCode::Enter);
        assert!(screen(&mut app).contains("No quedan problemas"));
    }
}
