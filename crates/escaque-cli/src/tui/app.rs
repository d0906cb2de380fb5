//! The full-screen game's state, its drawing and its handling of keys and
//! mouse clicks. Every move and command goes to the [`Session`].

use escaque::clock::format_clock;
use escaque::{Color, Move, Role, Square};
use escaque_play::{Action, Event, Notice, Session};
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::board::{BoardView, Geometry};
use super::board_pick::arrow;
use super::menu::Menu;
use crate::i18n::{notice_text, parse_command, status_text, text, Msg};
use crate::session_io::{handle_line, with_files};

/// What covers the board, if anything.
#[derive(Clone, Debug)]
pub enum Overlay {
    /// Nothing.
    None,
    /// The help.
    Help,
    /// The new-game menu.
    Menu(Menu),
    /// Which piece a pawn promotes to (origin, destination).
    Promotion(Square, Square),
}

/// The full-screen game.
pub struct App {
    /// The game.
    pub session: Session,
    /// The text being typed.
    pub input: String,
    /// The last message.
    pub message: Option<String>,
    /// The keyboard cursor.
    pub cursor: Square,
    /// The selected piece.
    pub selected: Option<Square>,
    /// What covers the board.
    pub overlay: Overlay,
    /// Letters instead of figurines.
    pub ascii: bool,
    /// Where the board was last drawn (for the mouse).
    pub board_geometry: Option<Geometry>,
    /// Set when the program should end.
    pub quit: bool,
}

impl App {
    /// A game on screen; `menu` opens the new-game menu first.
    pub fn new(session: Session, ascii: bool, menu: bool) -> App {
        let overlay = if menu {
            Overlay::Menu(Menu::from_config(&session.config))
        } else {
            Overlay::None
        };
        let cursor = match session.orientation {
            Color::White => Square::E2,
            Color::Black => Square::E7,
        };
        App {
            session,
            input: String::new(),
            message: None,
            cursor,
            selected: None,
            overlay,
            ascii,
            board_geometry: None,
            quit: false,
        }
    }

    fn absorb(&mut self, events: Vec<Event>) {
        for e in with_files(&mut self.session, events) {
            match e {
                Event::Notice(n) => self.message = Some(notice_text(self.session.lang, &n)),
                Event::Board => self.selected = None,
                Event::Quit => self.quit = true,
                Event::Save { .. } | Event::Load { .. } => {}
            }
        }
    }

    /// Lets time pass: the clock, the engine.
    pub fn tick(&mut self) {
        if matches!(self.overlay, Overlay::Menu(_)) {
            return;
        }
        let ev = self.session.tick();
        self.absorb(ev);
    }

    /// Sends a typed line: a move or a command.
    pub fn submit(&mut self, line: &str) {
        match parse_command(line) {
            Some((Action::New, _)) if !self.session.confirming_quit() => {
                self.overlay = Overlay::Menu(Menu::from_config(&self.session.config));
            }
            Some((Action::Help, _)) if !self.session.confirming_quit() => {
                self.overlay = Overlay::Help
            }
            _ => {
                let ev = handle_line(&mut self.session, line);
                self.absorb(ev);
            }
        }
    }

    fn targets(&self) -> Vec<Square> {
        match self.selected {
            Some(s) => self.session.moves_from(s).iter().map(|m| m.to()).collect(),
            None => Vec::new(),
        }
    }

    /// Selects the piece on `sq`, or moves the selected one there.
    pub fn choose(&mut self, sq: Square) {
        if !self.session.human_to_move() {
            if self.session.outcome().is_none() {
                self.message = Some(notice_text(self.session.lang, &Notice::NotYourTurn));
            }
            return;
        }
        let turn = self.session.position().turn();
        let own = self.session.position().color_at(sq) == Some(turn);
        if own {
            self.selected = if self.selected == Some(sq) {
                None
            } else {
                Some(sq)
            };
            return;
        }
        let Some(from) = self.selected else {
            self.message = Some(text(self.session.lang, &Msg::SelectOwnPiece));
            return;
        };
        let moves: Vec<Move> = self
            .session
            .moves_from(from)
            .into_iter()
            .filter(|m| m.to() == sq)
            .collect();
        match moves.as_slice() {
            [] => {
                // The library says why.
                let ev = self.session.play_squares(from, sq, None);
                self.absorb(ev);
                self.selected = None;
            }
            [m] => {
                let ev = self.session.play_move(*m);
                self.absorb(ev);
            }
            _ => self.overlay = Overlay::Promotion(from, sq),
        }
    }

    fn promote(&mut self, from: Square, to: Square, role: Role) {
        self.overlay = Overlay::None;
        let m = self
            .session
            .moves_from(from)
            .into_iter()
            .find(|m| m.to() == to && m.promotion_role() == Some(role));
        if let Some(m) = m {
            let ev = self.session.play_move(m);
            self.absorb(ev);
        }
    }

    /// Handles a key press.
    pub fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q')) {
            if matches!(self.overlay, Overlay::Menu(_)) || !self.session.in_progress() {
                self.quit = true;
            } else {
                self.overlay = Overlay::None;
                self.submit("salir");
            }
            return;
        }
        if self.session.confirming_quit() {
            let answer = match key.code {
                KeyCode::Char(c) => c.to_string(),
                KeyCode::Enter => self.input.clone(),
                _ => "-".into(),
            };
            self.submit(&answer);
            return;
        }
        match self.overlay.clone() {
            Overlay::Help => {
                self.overlay = Overlay::None;
                return;
            }
            Overlay::Promotion(from, to) => {
                let role = match key.code {
                    KeyCode::Char(c) => Role::from_char_es(c)
                        .filter(|r| *r != Role::King)
                        .or_else(|| match self.session.lang {
                            escaque::Lang::En => Role::from_char_en(c),
                            escaque::Lang::Es => None,
                        })
                        .filter(|r| Role::PROMOTIONS.contains(r)),
                    KeyCode::Enter => Some(Role::Queen),
                    _ => None,
                };
                match (role, key.code) {
                    (Some(r), _) => self.promote(from, to, r),
                    (None, KeyCode::Esc) => {
                        self.overlay = Overlay::None;
                        self.selected = None;
                    }
                    _ => {}
                }
                return;
            }
            Overlay::Menu(mut m) => {
                self.menu_key(&mut m, key);
                return;
            }
            Overlay::None => {}
        }
        match key.code {
            KeyCode::F(1) => self.overlay = Overlay::Help,
            KeyCode::F(2) => self.submit("girar"),
            KeyCode::F(3) => self.submit("deshacer"),
            KeyCode::F(4) => self.submit("tablas"),
            KeyCode::F(5) => self.submit("reclamar"),
            KeyCode::F(6) => self.submit("nueva"),
            KeyCode::Esc => {
                self.input.clear();
                self.selected = None;
            }
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Enter => {
                if self.input.trim().is_empty() {
                    self.choose(self.cursor);
                } else {
                    let line = std::mem::take(&mut self.input);
                    self.submit(&line);
                }
            }
            KeyCode::Up | KeyCode::Down | KeyCode::Left | KeyCode::Right => {
                if let Some(s) = arrow(self.cursor, self.session.orientation, key.code) {
                    self.cursor = s;
                }
            }
            KeyCode::Char(c) => self.input.push(c),
            _ => {}
        }
    }

    fn menu_key(&mut self, m: &mut Menu, key: KeyEvent) {
        match key.code {
            KeyCode::Esc => {
                if self.session.in_progress() || !self.session.game().moves().is_empty() {
                    self.overlay = Overlay::None;
                } else {
                    self.quit = true;
                }
                return;
            }
            KeyCode::Up => m.step_row(false),
            KeyCode::Down | KeyCode::Tab => m.step_row(true),
            KeyCode::Left => m.step_value(false),
            KeyCode::Right => m.step_value(true),
            KeyCode::Backspace => m.backspace(),
            KeyCode::Char(c) => {
                m.type_char(c);
            }
            KeyCode::Enter => match m.to_config(random_bool) {
                Ok(config) => {
                    let ev = self.session.restart(config);
                    self.absorb(ev);
                    self.overlay = Overlay::None;
                    self.cursor = match self.session.orientation {
                        Color::White => Square::E2,
                        Color::Black => Square::E7,
                    };
                    return;
                }
                Err(e) => m.error = Some(escaque::Localized::message(&e, self.session.lang)),
            },
            _ => {}
        }
        self.overlay = Overlay::Menu(m.clone());
    }

    /// Handles the mouse: a left click selects or moves.
    pub fn on_mouse(&mut self, ev: MouseEvent) {
        if !matches!(ev.kind, MouseEventKind::Down(MouseButton::Left)) {
            return;
        }
        if !matches!(self.overlay, Overlay::None) || self.session.confirming_quit() {
            return;
        }
        if let Some(g) = self.board_geometry {
            if let Some(sq) = g.square_at(self.session.orientation, ev.column, ev.row) {
                self.cursor = sq;
                self.choose(sq);
            }
        }
    }

    /// Draws the whole screen.
    pub fn draw(&mut self, frame: &mut Frame) {
        let area = frame.area();
        let lang = self.session.lang;
        let [main, bottom] =
            Layout::vertical([Constraint::Min(10), Constraint::Length(4)]).areas(area);
        let board_w = Geometry::fit(main).size().0.min(main.width);
        let [board_area, panel] =
            Layout::horizontal([Constraint::Length(board_w + 1), Constraint::Min(20)]).areas(main);
        let last = self.session.last_move().map(|m| (m.from(), m.to()));
        let targets = self.targets();
        let view = BoardView {
            pos: self.session.position(),
            bottom: self.session.orientation,
            ascii: self.ascii,
            lang,
            last,
            selected: self.selected,
            targets: &targets,
            cursor: matches!(self.overlay, Overlay::None).then_some(self.cursor),
        };
        self.board_geometry = Some(Geometry::fit(board_area));
        frame.render_widget(view, board_area);
        self.draw_panel(frame, panel);

        let status = self
            .session
            .status()
            .into_iter()
            .map(|s| status_text(lang, s))
            .collect::<Vec<_>>()
            .join(" · ");
        let prompt = text(lang, &Msg::Prompt);
        let lines = vec![
            Line::from(Span::styled(
                status,
                Style::default().add_modifier(Modifier::BOLD),
            )),
            Line::from(self.message.clone().unwrap_or_default()),
            Line::from(if self.session.sealing() {
                // The sealed move is not shown, even to the one who types it.
                format!("{prompt}: {}▏", "•".repeat(self.input.chars().count()))
            } else {
                format!("{prompt}: {}▏", self.input)
            }),
            Line::from(Span::styled(
                text(lang, &Msg::KeyHint),
                Style::default().add_modifier(Modifier::DIM),
            )),
        ];
        frame.render_widget(Paragraph::new(lines), bottom);

        match &self.overlay {
            Overlay::None => {}
            Overlay::Help => {
                let body = text(lang, &Msg::Help);
                popup(frame, area, "?", &body, 82, 22);
            }
            Overlay::Promotion(..) => {
                let body = text(lang, &Msg::PromotionPrompt);
                popup(frame, area, "", &body, 56, 3);
            }
            Overlay::Menu(m) => {
                let mut body = String::new();
                for (i, (label, value)) in m.lines(lang).into_iter().enumerate() {
                    let mark = if i == m.row { "▶ " } else { "  " };
                    body.push_str(&format!("{mark}{label:<10} {value}\n"));
                }
                if let Some(e) = &m.error {
                    body.push_str(&format!("\n{e}\n"));
                }
                body.push_str(&format!("\n{}", text(lang, &Msg::MenuHint)));
                popup(frame, area, &text(lang, &Msg::MenuTitle), &body, 64, 13);
            }
        }
        if self.session.confirming_quit() {
            let body = format!(
                "{}\n\n{}",
                text(lang, &Msg::ConfirmQuit),
                text(lang, &Msg::ConfirmQuitHint)
            );
            popup(frame, area, "", &body, 60, 8);
        }
    }

    fn draw_panel(&mut self, frame: &mut Frame, area: Rect) {
        let lang = self.session.lang;
        let times = self.session.clock_times();
        let turn = self.session.position().turn();
        let mut lines = Vec::new();
        for c in [Color::White, Color::Black] {
            let who = text(lang, &Msg::Player(self.session.player(c)));
            let clock = times
                .map(|t| format_clock(t[c.index()]))
                .unwrap_or_default();
            let style = if c == turn && self.session.outcome().is_none() {
                Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED)
            } else {
                Style::default()
            };
            // The clock before the name, so a narrow panel cuts the name.
            lines.push(Line::from(vec![
                Span::styled(format!("{:<8}", text(lang, &Msg::Side(c))), style),
                Span::styled(
                    if clock.is_empty() {
                        String::new()
                    } else {
                        format!(" {clock:>7} ")
                    },
                    style,
                ),
                Span::raw(format!(" {who}")),
            ]));
        }
        let clock_label = self.session.time_control().map(|t| t.to_string());
        let mut head_line = format!(
            "{} · {}",
            text(lang, &Msg::Rules(self.session.game().rules().name_in(lang))),
            text(lang, &Msg::ClockLabel(clock_label.as_deref()))
        );
        if let Some(n) = self.session.game().chess960_number() {
            head_line.push_str(" · ");
            head_line.push_str(&text(lang, &Msg::Chess960(n)));
        }
        lines.push(Line::from(head_line));
        let [head, list] =
            Layout::vertical([Constraint::Length(4), Constraint::Min(3)]).areas(area);
        frame.render_widget(Paragraph::new(lines), head);

        // The move list, two half-moves a line, the newest kept in view.
        let rows = move_rows(&self.session.move_list(lang));
        let inner = list.height.saturating_sub(2) as usize;
        let skip = rows.len().saturating_sub(inner);
        let text_rows: Vec<Line> = rows.into_iter().skip(skip).map(Line::from).collect();
        let block = Block::default()
            .borders(Borders::ALL)
            .title(text(lang, &Msg::MovesTitle));
        frame.render_widget(Paragraph::new(text_rows).block(block), list);
    }
}

/// The move list as lines: `  1. e4       e5`; a game that starts with Black
/// to move opens with `  1...        e5`.
pub fn move_rows(moves: &[(u32, Color, String)]) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    let mut open: Option<u32> = None;
    for (n, color, san) in moves {
        match color {
            Color::White => {
                rows.push(format!("{:>3}. {san:<9}", n));
                open = Some(*n);
            }
            Color::Black => {
                match (open, rows.last_mut()) {
                    (Some(o), Some(r)) if o == *n => r.push_str(san),
                    _ => rows.push(format!("{:>3}... {:<7}{san}", n, "")),
                }
                open = None;
            }
        }
    }
    rows
}

fn popup(frame: &mut Frame, area: Rect, title: &str, body: &str, w: u16, h: u16) {
    let w = w.min(area.width);
    let h = h.min(area.height);
    let r = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    frame.render_widget(Clear, r);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(title.to_string());
    frame.render_widget(
        Paragraph::new(body.to_string())
            .block(block)
            .wrap(Wrap { trim: false }),
        r,
    );
}

fn random_bool() -> bool {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos() & 1 == 1)
        .unwrap_or(true)
}
