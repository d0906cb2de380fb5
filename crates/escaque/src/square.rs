//! Columns (a–h), rows (filas 1–8) and squares (escaques, casillas).

use core::fmt;

use crate::Color;

/// A column of the board, `a` (White's left) to `h`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A row of the board (fila), 1 (White's side) to 8.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl File {
    /// Column a.
    pub const A: File = File(0);
    /// Column b.
    pub const B: File = File(1);
    /// Column c.
    pub const C: File = File(2);
    /// Column d.
    pub const D: File = File(3);
    /// Column e.
    pub const E: File = File(4);
    /// Column f.
    pub const F: File = File(5);
    /// Column g.
    pub const G: File = File(6);
    /// Column h.
    pub const H: File = File(7);
    /// All eight, a to h.
    pub const ALL: [File; 8] = [
        File(0),
        File(1),
        File(2),
        File(3),
        File(4),
        File(5),
        File(6),
        File(7),
    ];

    /// The file with index 0 (a) to 7 (h).
    #[inline]
    pub const fn new(index: u32) -> Option<File> {
        if index < 8 {
            Some(File(index as u8))
        } else {
            None
        }
    }

    /// Reads `a`–`h`, either case.
    pub const fn from_char(c: char) -> Option<File> {
        let c = c.to_ascii_lowercase();
        if c >= 'a' && c <= 'h' {
            Some(File(c as u8 - b'a'))
        } else {
            None
        }
    }

    /// 0 (a) … 7 (h).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The lower-case letter.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The neighbour `delta` files away, if on the board.
    pub const fn offset(self, delta: i32) -> Option<File> {
        let i = self.0 as i32 + delta;
        if i >= 0 && i < 8 {
            Some(File(i as u8))
        } else {
            None
        }
    }
}

impl Rank {
    /// Fila 1.
    pub const FIRST: Rank = Rank(0);
    /// Fila 2.
    pub const SECOND: Rank = Rank(1);
    /// Fila 3.
    pub const THIRD: Rank = Rank(2);
    /// Fila 4.
    pub const FOURTH: Rank = Rank(3);
    /// Fila 5.
    pub const FIFTH: Rank = Rank(4);
    /// Fila 6.
    pub const SIXTH: Rank = Rank(5);
    /// Fila 7.
    pub const SEVENTH: Rank = Rank(6);
    /// Fila 8.
    pub const EIGHTH: Rank = Rank(7);
    /// All eight, 1 to 8.
    pub const ALL: [Rank; 8] = [
        Rank(0),
        Rank(1),
        Rank(2),
        Rank(3),
        Rank(4),
        Rank(5),
        Rank(6),
        Rank(7),
    ];

    /// The rank with index 0 (fila 1) to 7 (fila 8).
    #[inline]
    pub const fn new(index: u32) -> Option<Rank> {
        if index < 8 {
            Some(Rank(index as u8))
        } else {
            None
        }
    }

    /// Reads `1`–`8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        if c >= '1' && c <= '8' {
            Some(Rank(c as u8 - b'1'))
        } else {
            None
        }
    }

    /// 0 (fila 1) … 7 (fila 8).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The digit.
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }

    /// The same row seen from `color`'s side: fila 1 for White is fila 8 for Black.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
}

/// A square (escaque), `a1` = 0 … `h8` = 63, rank-major.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $idx:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($idx);
            )*
        }
    };
}

square_consts! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with index 0 (a1) … 63 (h8).
    #[inline]
    pub const fn new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Only for indices already known to be below 64.
    #[inline]
    pub(crate) const fn new_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square((index & 63) as u8)
    }

    /// The square at a column and a row.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// Reads `e4` (either case of the letter); `None` for anything else.
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let file = File::from_char(chars.next()?)?;
        let rank = Rank::from_char(chars.next()?)?;
        if chars.next().is_some() {
            return None;
        }
        Some(Square::from_coords(file, rank))
    }

    /// 0 … 63.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Its column.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// Its row.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The square shifted by whole files and ranks, if still on the board.
    pub const fn offset(self, files: i32, ranks: i32) -> Option<Square> {
        let f = (self.0 & 7) as i32 + files;
        let r = (self.0 >> 3) as i32 + ranks;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square((r * 8 + f) as u8))
        } else {
            None
        }
    }

    /// The square mirrored top to bottom (a1 ↔ a8).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// True for the light squares (escaques blancos), such as h1 and a8.
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.0 & 7) % 2 != (self.0 >> 3) % 2
    }

    /// Chebyshev (king-move) distance.
    pub const fn distance(self, other: Square) -> u32 {
        let df = ((self.0 & 7) as i32 - (other.0 & 7) as i32).unsigned_abs();
        let dr = ((self.0 >> 3) as i32 - (other.0 >> 3) as i32).unsigned_abs();
        if df > dr {
            df
        } else {
            dr
        }
    }

    /// All 64, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h1_and_a8_are_light_a1_dark() {
        assert!(Square::H1.is_light());
        assert!(Square::A8.is_light());
        assert!(!Square::A1.is_light());
        assert!(!Square::H8.is_light());
        assert!(Square::D1.is_light() != Square::E1.is_light());
    }

    #[test]
    fn parse_and_display() {
        assert_eq!(Square::parse("e4"), Some(Square::E4));
        assert_eq!(Square::parse("E4"), Some(Square::E4));
        assert_eq!(Square::parse("i4"), None);
        assert_eq!(Square::parse("e9"), None);
        assert_eq!(Square::parse("e44"), None);
        assert_eq!(Square::parse(""), None);
        assert_eq!(Square::H8.to_string(), "h8");
    }
}
