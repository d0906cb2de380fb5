//! Piece kinds (rey, dama, torre, alfil, caballo, peón) and pieces.

use crate::Color;

/// The kind of a piece.
///
/// Spanish letters: R rey, D dama, T torre, A alfil, C caballo; pawns (peones)
/// have no letter in algebraic notation. English letters: K Q R B N.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Peón.
    Pawn = 0,
    /// Caballo.
    Knight = 1,
    /// Alfil.
    Bishop = 2,
    /// Torre.
    Rook = 3,
    /// Dama.
    Queen = 4,
    /// Rey.
    King = 5,
}

impl Role {
    /// All six kinds, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The pieces a pawn may be promoted to (FIDE 3.7.5.1), strongest first.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// 0 (pawn) … 5 (king).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// English upper-case letter (`P N B R Q K`).
    pub const fn char_en(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// Spanish upper-case letter (`P C A T D R`).
    pub const fn char_es(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'C',
            Role::Bishop => 'A',
            Role::Rook => 'T',
            Role::Queen => 'D',
            Role::King => 'R',
        }
    }

    /// Reads an English letter, either case (`n` or `N` is a knight).
    pub const fn from_char_en(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            _ => return None,
        })
    }

    /// Reads a Spanish letter, either case (`c` or `C` is a caballo).
    pub const fn from_char_es(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'C' => Role::Knight,
            'A' => Role::Bishop,
            'T' => Role::Rook,
            'D' => Role::Queen,
            'R' => Role::King,
            _ => return None,
        })
    }

    /// The Spanish name: "peón", "caballo", "alfil", "torre", "dama", "rey".
    pub const fn name_es(self) -> &'static str {
        match self {
            Role::Pawn => "peón",
            Role::Knight => "caballo",
            Role::Bishop => "alfil",
            Role::Rook => "torre",
            Role::Queen => "dama",
            Role::King => "rey",
        }
    }

    /// The English name.
    pub const fn name_en(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }
}

/// A piece: a colour and a kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What kind.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White, lower case for Black (English letters).
    pub const fn fen_char(self) -> char {
        let c = self.role.char_en();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter (`PNBRQK` White, `pnbrqk` Black).
    pub const fn from_fen_char(c: char) -> Option<Piece> {
        let role = match c {
            'P' | 'p' => Role::Pawn,
            'N' | 'n' => Role::Knight,
            'B' | 'b' => Role::Bishop,
            'R' | 'r' => Role::Rook,
            'Q' | 'q' => Role::Queen,
            'K' | 'k' => Role::King,
            _ => return None,
        };
        Some(Piece {
            color: Color::from_white(c.is_ascii_uppercase()),
            role,
        })
    }

    /// Reads a Unicode figurine (♔♕♖♗♘♙ White, ♚♛♜♝♞♟ Black).
    pub fn from_figurine(c: char) -> Option<Piece> {
        Color::ALL
            .into_iter()
            .flat_map(|color| Role::ALL.map(|role| Piece { color, role }))
            .find(|p| p.figurine() == c)
    }

    /// The Unicode figurine (♔♕♖♗♘♙ White, ♚♛♜♝♞♟ Black).
    pub const fn figurine(self) -> char {
        match (self.color, self.role) {
            (Color::White, Role::King) => '♔',
            (Color::White, Role::Queen) => '♕',
            (Color::White, Role::Rook) => '♖',
            (Color::White, Role::Bishop) => '♗',
            (Color::White, Role::Knight) => '♘',
            (Color::White, Role::Pawn) => '♙',
            (Color::Black, Role::King) => '♚',
            (Color::Black, Role::Queen) => '♛',
            (Color::Black, Role::Rook) => '♜',
            (Color::Black, Role::Bishop) => '♝',
            (Color::Black, Role::Knight) => '♞',
            (Color::Black, Role::Pawn) => '♟',
        }
    }
}
