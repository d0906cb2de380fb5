//! Coordenadas: the coordinates trainer. Find the square named, or name the
//! square shown, seen from White's side or from Black's; the front end keeps
//! the time (none in kid mode) and the score history.
//!
//! ```
//! use escaque::Color;
//! use escaque_play::aprender::coords::{Mode, Trainer};
//!
//! let mut t = Trainer::new(Mode::Find, Color::White, 7);
//! let asked = t.current();
//! assert!(t.answer_square(asked));
//! assert_eq!(t.right(), 1);
//! assert_ne!(t.current(), asked); // the next square is another one
//! ```

use escaque::{Color, Lang, Square};

/// What the pupil does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The square is named; the pupil touches it.
    Find,
    /// The square is shown; the pupil names it.
    Name,
}

impl Mode {
    /// The stable id (`buscar`, `nombrar`).
    pub fn id(self) -> &'static str {
        match self {
            Mode::Find => "buscar",
            Mode::Name => "nombrar",
        }
    }

    /// The mode with that id.
    pub fn from_id(id: &str) -> Option<Mode> {
        match id {
            "buscar" | "find" => Some(Mode::Find),
            "nombrar" | "name" => Some(Mode::Name),
            _ => None,
        }
    }
}

/// The name of a square spoken out: "e4: columna e, fila 4" / "e4: the e-file, rank 4".
pub fn square_words(sq: Square, lang: Lang) -> String {
    let (f, r) = (sq.file().char(), sq.rank().char());
    match lang {
        Lang::Es => format!("{sq}: columna {f}, fila {r}"),
        Lang::En => format!("{sq}: the {f}-file, rank {r}"),
    }
}

/// One round of the trainer.
#[derive(Clone, Debug)]
pub struct Trainer {
    mode: Mode,
    orientation: Color,
    state: u64,
    current: Square,
    right: u32,
    wrong: u32,
}

impl Trainer {
    /// A new round; `seed` chooses the squares (the same seed, the same squares).
    pub fn new(mode: Mode, orientation: Color, seed: u64) -> Trainer {
        let mut t = Trainer {
            mode,
            orientation,
            state: seed ^ 0x9E37_79B9_7F4A_7C15,
            current: Square::A1,
            right: 0,
            wrong: 0,
        };
        t.current = t.draw(None);
        t
    }

    fn draw(&mut self, not: Option<Square>) -> Square {
        loop {
            // xorshift64*
            self.state ^= self.state >> 12;
            self.state ^= self.state << 25;
            self.state ^= self.state >> 27;
            let n = self.state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 58;
            let sq = Square::new(n as u32).unwrap_or(Square::E4);
            if Some(sq) != not {
                return sq;
            }
        }
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The side the board is seen from.
    pub fn orientation(&self) -> Color {
        self.orientation
    }

    /// The square asked now.
    pub fn current(&self) -> Square {
        self.current
    }

    /// Right answers so far.
    pub fn right(&self) -> u32 {
        self.right
    }

    /// Wrong answers so far.
    pub fn wrong(&self) -> u32 {
        self.wrong
    }

    fn next(&mut self, ok: bool) -> bool {
        if ok {
            self.right += 1;
            self.current = self.draw(Some(self.current));
        } else {
            self.wrong += 1;
        }
        ok
    }

    /// The pupil touched `sq` (Find mode): right or not; a right answer moves
    /// on to another square.
    pub fn answer_square(&mut self, sq: Square) -> bool {
        let ok = sq == self.current;
        self.next(ok)
    }

    /// The pupil named a square (Name mode): `e4`, `E4`, ` e4 `.
    pub fn answer_name(&mut self, text: &str) -> bool {
        let ok = Square::parse(&text.trim().to_ascii_lowercase()) == Some(self.current);
        self.next(ok)
    }
}
