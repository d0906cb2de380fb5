//! The board widget: squares with the light one on each player's right (h1
//! light), coordinates a–h and 1–8 around, figurines or letters, and the
//! highlights (last move, king in check, selected piece and its destinations,
//! keyboard cursor).

use escaque::{Color, File, Lang, Position, Rank, Role, Square};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tc, Modifier, Style};
use ratatui::widgets::Widget;

/// Square colours and highlights: explicit foreground and background, so the
/// board reads the same on dark and light terminals. White's pieces are drawn
/// white and Black's black, so every background is a middle tone: each piece
/// colour has a contrast of at least 3:1 (WCAG's bar for graphics) on every
/// square colour and highlight (test
/// `white_and_black_pieces_differ_and_stand_out_on_every_square`).
pub mod palette {
    use ratatui::style::Color as Tc;
    /// A light square.
    pub const LIGHT: Tc = Tc::Rgb(168, 138, 100);
    /// A dark square.
    pub const DARK: Tc = Tc::Rgb(120, 86, 58);
    /// Last move, on a light square.
    pub const LAST_LIGHT: Tc = Tc::Rgb(150, 150, 60);
    /// Last move, on a dark square.
    pub const LAST_DARK: Tc = Tc::Rgb(118, 114, 36);
    /// The king in check.
    pub const CHECK: Tc = Tc::Rgb(204, 64, 56);
    /// The selected piece.
    pub const SELECTED: Tc = Tc::Rgb(70, 120, 190);
    /// A legal destination of the selected piece (an occupied square).
    pub const TARGET: Tc = Tc::Rgb(96, 150, 84);
    /// The dot on an empty legal destination.
    pub const TARGET_DOT: Tc = Tc::Rgb(150, 255, 150);
    /// The keyboard cursor.
    pub const CURSOR: Tc = Tc::Rgb(40, 150, 160);
    /// Every background a piece can stand on.
    #[cfg(test)]
    pub const BACKGROUNDS: [Tc; 8] = [
        LIGHT, DARK, LAST_LIGHT, LAST_DARK, CHECK, SELECTED, TARGET, CURSOR,
    ];
    /// White's pieces (outlined figurines or capitals).
    pub const WHITE_PIECE: Tc = Tc::Rgb(255, 255, 255);
    /// Black's pieces (solid figurines or small letters).
    pub const BLACK_PIECE: Tc = Tc::Rgb(0, 0, 0);
    /// Coordinates around the board.
    pub const COORD: Tc = Tc::Gray;
}

/// The colour a piece of `color` is drawn in.
pub fn piece_fg(color: Color) -> Tc {
    match color {
        Color::White => palette::WHITE_PIECE,
        Color::Black => palette::BLACK_PIECE,
    }
}

/// Everything the board shows.
pub struct BoardView<'a> {
    /// The position.
    pub pos: &'a Position,
    /// The colour at the bottom.
    pub bottom: Color,
    /// Letters instead of figurines.
    pub ascii: bool,
    /// Language of the piece letters in ASCII mode.
    pub lang: Lang,
    /// Origin and destination of the last move.
    pub last: Option<(Square, Square)>,
    /// The selected piece's square.
    pub selected: Option<Square>,
    /// Where the selected piece may go.
    pub targets: &'a [Square],
    /// The keyboard cursor.
    pub cursor: Option<Square>,
}

/// The figurine of a piece: outlined for White, solid for Black.
pub fn figurine(color: Color, role: Role) -> char {
    let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
    let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
    match color {
        Color::White => white[role.index()],
        Color::Black => black[role.index()],
    }
}

/// The letter of a piece in ASCII mode: capitals for White, small letters for
/// Black, Spanish letters in Spanish (R rey, D dama, T torre, A alfil,
/// C caballo, P peón).
pub fn letter(color: Color, role: Role, lang: Lang) -> char {
    let l = match lang {
        Lang::Es => role.char_es(),
        Lang::En => role.char_en(),
    };
    match color {
        Color::White => l,
        Color::Black => l.to_ascii_lowercase(),
    }
}

/// Size of one square in terminal cells.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Where the top-left square starts.
    pub x0: u16,
    /// Where the top rank starts.
    pub y0: u16,
    /// Cells per square, across.
    pub cw: u16,
    /// Cells per square, down.
    pub ch: u16,
}

impl Geometry {
    /// The largest square size that fits `area` (with room for coordinates).
    pub fn fit(area: Rect) -> Geometry {
        let (cw, ch) = if area.width >= 8 * 7 + 4 && area.height >= 8 * 3 + 2 {
            (7, 3)
        } else if area.width >= 8 * 5 + 4 && area.height >= 8 * 2 + 2 {
            (5, 2)
        } else {
            (3, 1)
        };
        Geometry {
            x0: area.x + 2,
            y0: area.y + 1,
            cw,
            ch,
        }
    }

    /// The width and height the board takes with its coordinates.
    pub fn size(self) -> (u16, u16) {
        (8 * self.cw + 4, 8 * self.ch + 2)
    }

    /// The square under the cell (`x`, `y`), if any.
    pub fn square_at(self, bottom: Color, x: u16, y: u16) -> Option<Square> {
        if x < self.x0 || y < self.y0 {
            return None;
        }
        let col = (x - self.x0) / self.cw;
        let row = (y - self.y0) / self.ch;
        if col >= 8 || row >= 8 {
            return None;
        }
        Some(square_of(bottom, col, row))
    }
}

/// The square shown at column `col` and row `row` (0 top-left) for `bottom`.
pub fn square_of(bottom: Color, col: u16, row: u16) -> Square {
    let (f, r) = match bottom {
        Color::White => (col, 7 - row),
        Color::Black => (7 - col, row),
    };
    let file = File::new(u32::from(f)).unwrap_or(File::A);
    let rank = Rank::new(u32::from(r)).unwrap_or(Rank::FIRST);
    Square::from_coords(file, rank)
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let g = Geometry::fit(area);
        let (w, h) = g.size();
        if area.width < w || area.height < h {
            return;
        }
        let coord = Style::default().fg(palette::COORD);
        let check_sq = if self.pos.is_check() {
            Some(self.pos.king(self.pos.turn()))
        } else {
            None
        };
        for i in 0..8u16 {
            // Files above and below, ranks left and right.
            let sq = square_of(self.bottom, i, i);
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
                let sq = square_of(self.bottom, col, row);
                let light = sq.is_light();
                let mut bg = if light { palette::LIGHT } else { palette::DARK };
                if self.last.is_some_and(|(a, b)| a == sq || b == sq) {
                    bg = if light {
                        palette::LAST_LIGHT
                    } else {
                        palette::LAST_DARK
                    };
                }
                let target = self.targets.contains(&sq);
                if target && self.pos.piece_at(sq).is_some() {
                    bg = palette::TARGET;
                }
                if check_sq == Some(sq) {
                    bg = palette::CHECK;
                }
                if self.selected == Some(sq) {
                    bg = palette::SELECTED;
                }
                if self.cursor == Some(sq) {
                    bg = palette::CURSOR;
                }
                let style = Style::default().bg(bg);
                let x = g.x0 + col * g.cw;
                let y = g.y0 + row * g.ch;
                for dy in 0..g.ch {
                    buf.set_string(x, y + dy, " ".repeat(usize::from(g.cw)), style);
                }
                let glyph = match self.pos.piece_at(sq) {
                    Some(p) if self.ascii => Some(letter(p.color, p.role, self.lang)),
                    Some(p) => Some(figurine(p.color, p.role)),
                    None if target => Some(if self.ascii { '*' } else { '•' }),
                    None => None,
                };
                if let Some(c) = glyph {
                    let st = match self.pos.piece_at(sq) {
                        Some(p) => style.fg(piece_fg(p.color)).add_modifier(Modifier::BOLD),
                        None => style.fg(palette::TARGET_DOT),
                    };
                    buf.set_string(x + g.cw / 2, y + g.ch / 2, c.to_string(), st);
                }
            }
        }
    }
}

/// The cells of `area` as plain lines (for tests and documentation).
#[cfg(test)]
pub fn capture(buf: &Buffer, area: Rect) -> Vec<String> {
    (area.y..area.y + area.height)
        .map(|y| {
            let mut line = String::new();
            for x in area.x..area.x + area.width {
                line.push_str(buf[(x, y)].symbol());
            }
            line.trim_end().to_string()
        })
        .collect()
}
