//! Rendering tests with ratatui's TestBackend.

use std::sync::Arc;

use escaque::clock::format_clock;
use escaque::{Color, Lang, MonotonicTime, Position, Square, TimeControl};
use escaque_play::{Config, Level, Player, Session};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::Terminal;

use super::app::{move_rows, App};
use super::board::{capture, palette, BoardView, Geometry};

fn app(lang: Lang, ascii: bool) -> App {
    let config = Config {
        players: [Player::Human, Player::Human],
        ..Config::default()
    };
    let s = Session::new(config, lang, Arc::new(MonotonicTime::new()));
    App::new(s, ascii, false)
}

fn render(app: &mut App, w: u16, h: u16) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    t.backend().buffer().clone()
}

/// The screen cell at the centre of `sq`.
fn cell(app: &App, sq: Square) -> (u16, u16) {
    let g = app.board_geometry.unwrap();
    for row in 0..8 {
        for col in 0..8 {
            if super::board::square_of(app.session.orientation, col, row) == sq {
                return (g.x0 + col * g.cw + g.cw / 2, g.y0 + row * g.ch + g.ch / 2);
            }
        }
    }
    unreachable!()
}

/// The lines of the board alone (coordinates included).
fn board_lines(app: &App, buf: &Buffer) -> Vec<String> {
    let (w, h) = app.board_geometry.unwrap().size();
    capture(buf, Rect::new(0, 0, w, h))
}

fn screen(buf: &Buffer) -> String {
    capture(buf, buf.area).join("\n")
}

#[test]
fn initial_board_has_h1_light_and_coordinates_around() {
    let mut a = app(Lang::Es, false);
    let buf = render(&mut a, 100, 32);
    let g = a.board_geometry.unwrap();
    // h1 is a light square at the bottom right, a1 dark at the bottom left.
    let (x, y) = cell(&a, Square::H1);
    assert_eq!(buf[(x, y)].bg, palette::LIGHT);
    assert!(x > g.x0 + 6 * g.cw && y > g.y0 + 6 * g.ch);
    let (x, y) = cell(&a, Square::A1);
    assert_eq!(buf[(x, y)].bg, palette::DARK);
    assert_eq!(buf[(x, y)].symbol(), "♖");
    assert_eq!(buf[cell(&a, Square::E8)].symbol(), "♚");
    assert_eq!(buf[cell(&a, Square::D1)].symbol(), "♕");
    // Files a..h left to right above and below; ranks 8..1 top to bottom.
    let lines = board_lines(&a, &buf);
    let files: String = lines[0].split_whitespace().collect();
    assert_eq!(files, "abcdefgh");
    let bottom = &lines[(g.y0 + 8 * g.ch) as usize];
    assert_eq!(bottom.split_whitespace().collect::<String>(), "abcdefgh");
    let (_, y8) = cell(&a, Square::A8);
    let (_, y1) = cell(&a, Square::A1);
    assert!(lines[y8 as usize].starts_with('8') && lines[y8 as usize].trim_end().ends_with('8'));
    assert!(lines[y1 as usize].starts_with('1'));
    // The status line and the panel.
    let s = screen(&buf);
    assert!(s.contains("Juegan las blancas"), "{s}");
    assert!(s.contains("Reglas: FIDE 2023"), "{s}");
    assert!(s.contains("Jugadas"), "{s}");
}

#[test]
fn flipped_board_puts_black_at_the_bottom() {
    let mut a = app(Lang::Es, true);
    a.submit("girar");
    let buf = render(&mut a, 100, 32);
    let lines = board_lines(&a, &buf);
    assert_eq!(lines[0].split_whitespace().collect::<String>(), "hgfedcba");
    // Still h1 light, now at the top left.
    let (x, y) = cell(&a, Square::H1);
    assert_eq!(buf[(x, y)].bg, palette::LIGHT);
    assert_eq!(buf[(x, y)].symbol(), "T"); // Spanish letter for the rook
    let (_, y1) = cell(&a, Square::A1);
    assert!(lines[y1 as usize].starts_with('1'));
    assert_eq!(buf[cell(&a, Square::E8)].symbol(), "r"); // black king
}

#[test]
fn check_is_highlighted_and_announced() {
    let mut a = app(Lang::Es, false);
    for m in ["e4", "f6", "Dh5"] {
        a.submit(m);
    }
    let buf = render(&mut a, 100, 32);
    assert_eq!(buf[cell(&a, Square::E8)].bg, palette::CHECK);
    assert_eq!(buf[cell(&a, Square::E1)].bg, palette::DARK);
    // Last move highlighted on its two squares.
    assert_eq!(buf[cell(&a, Square::H5)].bg, palette::LAST_LIGHT);
    assert_eq!(buf[cell(&a, Square::D1)].bg, palette::LAST_LIGHT);
    let s = screen(&buf);
    assert!(s.contains("Juegan las negras · ¡Jaque!"), "{s}");
}

#[test]
fn move_list_is_in_spanish_with_numbers() {
    let mut a = app(Lang::Es, false);
    for m in ["e4", "e5", "Nf3", "Cc6", "Ab5", "a6", "0-0"] {
        a.submit(m);
    }
    let buf = render(&mut a, 100, 32);
    let s = screen(&buf);
    assert!(s.contains("1. e4       e5"), "{s}");
    assert!(s.contains("2. Cf3      Cc6"), "{s}");
    assert!(s.contains("3. Ab5      a6"), "{s}");
    assert!(s.contains("4. 0-0"), "{s}");
    assert!(s.contains("Juegan las negras"), "{s}");
}

#[test]
fn selecting_a_piece_marks_its_destinations_and_the_cursor_moves() {
    let mut a = app(Lang::Es, false);
    a.cursor = Square::G1;
    a.choose(Square::G1);
    let buf = render(&mut a, 100, 32);
    assert_eq!(buf[cell(&a, Square::G1)].bg, palette::CURSOR);
    assert_eq!(buf[cell(&a, Square::F3)].symbol(), "•");
    assert_eq!(buf[cell(&a, Square::H3)].symbol(), "•");
    assert_eq!(buf[cell(&a, Square::G3)].symbol(), " ");
    a.choose(Square::F3);
    assert_eq!(
        a.session.position().piece_at(Square::F3).map(|p| p.color),
        Some(Color::White)
    );
}

#[test]
fn small_terminals_get_small_squares() {
    let g = Geometry::fit(Rect::new(0, 0, 30, 10));
    assert_eq!((g.cw, g.ch), (3, 1));
    assert_eq!(g.size(), (28, 10));
    let mut buf = Buffer::empty(Rect::new(0, 0, 28, 10));
    let pos = escaque::Position::new();
    let view = BoardView {
        pos: &pos,
        bottom: Color::White,
        ascii: true,
        lang: Lang::En,
        last: None,
        selected: None,
        targets: &[],
        cursor: None,
    };
    ratatui::widgets::Widget::render(view, buf.area, &mut buf);
    let lines = capture(&buf, buf.area);
    assert_eq!(lines[1], "8  r  n  b  q  k  b  n  r  8");
    assert_eq!(lines[8], "1  R  N  B  Q  K  B  N  R  1");
    assert_eq!(lines[9], "   a  b  c  d  e  f  g  h");
}

#[test]
fn clocks_show_tenths_under_ten_seconds() {
    use std::time::Duration;
    assert_eq!(format_clock(Duration::from_millis(9_849)), "9.8");
    assert_eq!(format_clock(Duration::from_secs(299)), "4:59");
    assert_eq!(format_clock(Duration::from_secs(3_900)), "1:05:00");
    assert_eq!(
        move_rows(&[
            (7, Color::Black, "Cf6".into()),
            (8, Color::White, "e5".into())
        ]),
        vec![
            "  7...        Cf6".to_string(),
            "  8. e5       ".to_string()
        ]
    );
}

#[test]
fn tiny_terminals_do_not_break_the_drawing() {
    for (w, h) in [(1, 1), (12, 5), (30, 10), (44, 14), (200, 60)] {
        let mut a = app(Lang::En, false);
        render(&mut a, w, h);
        a.overlay = super::app::Overlay::Help;
        render(&mut a, w, h);
        a.overlay = super::app::Overlay::Menu(super::menu::Menu::from_config(&Config::default()));
        render(&mut a, w, h);
        a.overlay = super::app::Overlay::Promotion(Square::A7, Square::A8);
        render(&mut a, w, h);
    }
}

#[test]
fn keys_drive_the_menu_and_the_board() {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let key = |c| KeyEvent::new(c, KeyModifiers::NONE);
    let config = Config {
        players: [Player::Human, Player::Human],
        ..Config::default()
    };
    let s = Session::new(config, Lang::Es, Arc::new(MonotonicTime::new()));
    let mut a = App::new(s, false, true);
    let buf = render(&mut a, 100, 32);
    assert!(screen(&buf).contains("Nueva partida"), "{}", screen(&buf));
    // The opponent row (the first: Down wraps round from "Empezar").
    a.on_key(key(KeyCode::Down));
    a.on_key(key(KeyCode::Right));
    let buf = render(&mut a, 100, 32);
    assert!(screen(&buf).contains("motor, nivel 1"), "{}", screen(&buf));
    a.on_key(key(KeyCode::Left));
    a.on_key(key(KeyCode::Enter));
    assert!(matches!(a.overlay, super::app::Overlay::None));
    assert_eq!(a.session.config.players, [Player::Human, Player::Human]);
    // Select the pawn on e2 (the cursor starts there), move to e4, place it.
    a.on_key(key(KeyCode::Enter)); // selects the pawn on e2
    assert_eq!(a.selected, Some(Square::E2));
    a.on_key(key(KeyCode::Up));
    a.on_key(key(KeyCode::Up));
    a.on_key(key(KeyCode::Enter));
    assert_eq!(a.session.last_move().map(|m| m.to()), Some(Square::E4));
    // Typed text goes to the input line and is played on Enter.
    for c in "Cf6".chars() {
        a.on_key(key(KeyCode::Char(c)));
    }
    a.on_key(key(KeyCode::Enter));
    assert_eq!(a.session.last_move().map(|m| m.to()), Some(Square::F6));
    // A wrong move shows its reason and changes nothing.
    for c in "Dh8".chars() {
        a.on_key(key(KeyCode::Char(c)));
    }
    a.on_key(key(KeyCode::Enter));
    assert_eq!(a.session.game().moves().len(), 2);
    assert!(a
        .message
        .as_deref()
        .unwrap_or("")
        .starts_with("Jugada no válida"));
}

#[test]
fn a_pawn_reaching_the_last_rank_asks_which_piece() {
    let config = Config {
        players: [Player::Human, Player::Human],
        start: Some(Position::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap()),
        ..Config::default()
    };
    let s = Session::new(config, Lang::Es, Arc::new(MonotonicTime::new()));
    let mut a = App::new(s, false, false);
    a.choose(Square::A7);
    a.choose(Square::A8);
    assert!(matches!(a.overlay, super::app::Overlay::Promotion(..)));
    let buf = render(&mut a, 100, 32);
    assert!(screen(&buf).contains("Coronar: D dama"), "{}", screen(&buf));
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    a.on_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::NONE));
    let p = a.session.position().piece_at(Square::A8).unwrap();
    assert_eq!(p.role, escaque::Role::Knight);
}

#[test]
fn the_engine_thinks_in_the_background_and_says_so() {
    let config = Config {
        players: [
            Player::Human,
            Player::Engine(Level::from_number(10).unwrap()),
        ],
        ..Config::default()
    };
    let s = Session::new(config, Lang::Es, Arc::new(MonotonicTime::new()));
    let mut a = App::new(s, true, false);
    a.submit("e4");
    let t = std::time::Instant::now();
    a.tick();
    // The tick hands the position to the engine's thread and returns at once.
    assert!(t.elapsed() < std::time::Duration::from_millis(250));
    let buf = render(&mut a, 100, 32);
    let s = screen(&buf);
    assert!(s.contains("El motor está pensando…"), "{s}");
    assert!(s.contains("motor, nivel 10 (maestro)"), "{s}");
    // Meanwhile the interface still answers the player.
    a.submit("girar");
    assert_eq!(a.session.orientation, Color::Black);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while a.session.game().moves().len() < 2 && std::time::Instant::now() < deadline {
        a.tick();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(a.session.game().moves().len(), 2, "the engine answered");
    assert!(a.message.as_deref().unwrap_or("").starts_with("1... "));
    assert!(!screen(&render(&mut a, 100, 32)).contains("pensando"));
}

#[test]
fn both_clocks_show_in_an_80_column_terminal() {
    let config = Config {
        players: [
            Player::Human,
            Player::Engine(Level::from_number(5).unwrap()),
        ],
        clock: Some(TimeControl::parse("5+3").unwrap()),
        ..Config::default()
    };
    let time = escaque::FakeTime::new();
    let s = Session::new(config, Lang::Es, Arc::new(time.clone()));
    let mut a = App::new(s, false, false);
    time.advance(std::time::Duration::from_millis(290_150));
    let s = screen(&render(&mut a, 80, 24));
    assert!(s.contains("Blancas      9.8  persona"), "{s}");
    assert!(s.contains("Negras      5:00  motor, nivel 5"), "{s}");
    assert!(s.contains("Reloj: 5+3"), "{s}");
}

#[test]
fn clicks_select_and_move() {
    use ratatui::crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let mut a = app(Lang::Es, false);
    render(&mut a, 100, 32);
    let click = |a: &mut App, sq: Square| {
        let (column, row) = cell(a, sq);
        a.on_mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        });
    };
    click(&mut a, Square::E2);
    assert_eq!(a.selected, Some(Square::E2));
    click(&mut a, Square::E5); // not a legal destination: refused with a reason
    assert_eq!(a.session.game().moves().len(), 0);
    assert!(a
        .message
        .as_deref()
        .unwrap_or("")
        .contains("el peón no puede ir"));
    click(&mut a, Square::G1);
    click(&mut a, Square::F3);
    assert_eq!(a.session.last_move().map(|m| m.to()), Some(Square::F3));
    // A click outside the board does nothing.
    a.on_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 99,
        row: 31,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(a.session.game().moves().len(), 1);
}

/// The code of the files of a directory (or one file) of this crate's
/// sources, without comment lines and without blanks.
fn code_of(rel: &str) -> Vec<(std::path::PathBuf, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(rel);
    let files = if path.is_dir() {
        std::fs::read_dir(&path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect()
    } else {
        vec![path]
    };
    files
        .into_iter()
        .map(|f| {
            let code = std::fs::read_to_string(&f)
                .unwrap()
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .flat_map(|l| l.chars().filter(|c| !c.is_whitespace()))
                .collect();
            (f, code)
        })
        .collect()
}

/// One direction only: `play` starts the full screen, the full screen never
/// reaches back into `play`; what both need (a typed line to the session,
/// the files it asks for) is in `session_io`, which uses neither.
#[test]
fn the_full_screen_never_depends_on_play() {
    // Built here so that this file does not hold the names it forbids.
    let [play, tui] = ["play", "tui"].map(|m| format!("crate::{m}"));
    let files = code_of("tui");
    assert!(files.len() >= 4);
    for (file, code) in files {
        assert!(!code.contains(&play), "{} uses {play}", file.display());
    }
    for (file, code) in code_of("session_io.rs") {
        for name in [&play, &tui] {
            assert!(
                !code.contains(name.as_str()),
                "{} uses {name}",
                file.display()
            );
        }
    }
}

/// WCAG's relative luminance of a colour given as RGB.
fn luminance(c: ratatui::style::Color) -> f64 {
    let ratatui::style::Color::Rgb(r, g, b) = c else {
        panic!("not an RGB colour: {c:?}");
    };
    let lin = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// WCAG's contrast ratio between two colours (1 to 21).
fn contrast(a: ratatui::style::Color, b: ratatui::style::Color) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn white_and_black_pieces_differ_and_stand_out_on_every_square() {
    // Both sides were drawn in black once: White's outlined figurines were
    // hard to tell from Black's on the dark squares.
    for ascii in [false, true] {
        let mut a = app(Lang::Es, ascii);
        let buf = render(&mut a, 100, 32);
        // a1 is dark and b1 light with White's pieces; a8 light and b8 dark
        // with Black's.
        let at = |sq| buf[cell(&a, sq)].clone();
        let (white_dark, white_light) = (at(Square::A1), at(Square::B1));
        let (black_light, black_dark) = (at(Square::A8), at(Square::B8));
        assert_eq!(white_dark.bg, palette::DARK);
        assert_eq!(black_dark.bg, palette::DARK);
        assert_eq!(white_light.bg, palette::LIGHT);
        assert_eq!(black_light.bg, palette::LIGHT);
        assert_ne!(white_dark.fg, black_dark.fg, "ascii {ascii}");
        assert_ne!(white_light.fg, black_light.fg, "ascii {ascii}");
        for c in [&white_dark, &white_light, &black_light, &black_dark] {
            let r = contrast(c.fg, c.bg);
            assert!(r >= 3.0, "{} {:?} on {:?}: {r:.2}", c.symbol(), c.fg, c.bg);
        }
        // Every white piece is drawn alike, and every black one.
        assert_eq!(at(Square::E1).fg, white_dark.fg);
        assert_eq!(at(Square::E8).fg, black_dark.fg);
    }
    // And on every highlight a piece can stand on.
    for bg in palette::BACKGROUNDS {
        for fg in [palette::WHITE_PIECE, palette::BLACK_PIECE] {
            let r = contrast(fg, bg);
            assert!(r >= 3.0, "{fg:?} on {bg:?}: {r:.2}");
        }
    }
}
