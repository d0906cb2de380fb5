//! Chess960 (Fischer random chess, FIDE Laws, Guidelines III): the 960
//! starting positions by number, in the standard numbering (Reinhard
//! Scharnagl's, used by FIDE, lichess, python-chess and shakmaty), where
//! number 518 is the standard initial position.
//!
//! ```
//! use escaque::{CastlingStyle, Position};
//!
//! let pos = Position::chess960(518).unwrap();
//! assert_eq!(pos, Position::new());
//! let pos = Position::chess960(0).unwrap();
//! assert_eq!(
//!     pos.to_fen_with(CastlingStyle::Shredder),
//!     "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
//! );
//! assert_eq!(pos.chess960_number(), Some(0));
//! assert!(Position::chess960(960).is_none());
//! ```

use crate::{CastlingRights, CastlingSide, Color, File, Position, Rank, Role, Square};

/// How many Chess960 starting positions there are.
pub const CHESS960_POSITIONS: u16 = 960;

/// The two knights' places among the five squares left after the bishops
/// and the queen, by the remaining part of the number (0–9).
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The first row of Chess960 starting position `n` (0–959), files a to h.
pub fn chess960_back_rank(n: u16) -> Option<[Role; 8]> {
    if n >= CHESS960_POSITIONS {
        return None;
    }
    let mut n = n as usize;
    let mut row: [Option<Role>; 8] = [None; 8];
    // The light-squared bishop on b, d, f or h; the dark-squared one on a, c,
    // e or g.
    row[2 * (n % 4) + 1] = Some(Role::Bishop);
    n /= 4;
    row[2 * (n % 4)] = Some(Role::Bishop);
    n /= 4;
    let place = |row: &mut [Option<Role>; 8], k: usize, role: Role| {
        if let Some(i) = (0..8).filter(|&i| row[i].is_none()).nth(k) {
            row[i] = Some(role);
        }
    };
    place(&mut row, n % 6, Role::Queen);
    n /= 6;
    let (a, b) = KNIGHTS[n];
    // The second knight first: placing the first would shift its index.
    place(&mut row, b, Role::Knight);
    place(&mut row, a, Role::Knight);
    // The three squares left: rook, king, rook.
    place(&mut row, 0, Role::Rook);
    place(&mut row, 0, Role::King);
    place(&mut row, 0, Role::Rook);
    let mut out = [Role::Pawn; 8];
    for (o, r) in out.iter_mut().zip(row) {
        *o = r?;
    }
    Some(out)
}

impl Position {
    /// Chess960 starting position number `n` (0–959, Scharnagl's numbering;
    /// 518 is the standard initial position), with White to move and all four
    /// castling rights; `None` for a number out of range.
    pub fn chess960(n: u16) -> Option<Position> {
        let row = chess960_back_rank(n)?;
        let mut pos = Position::with_back_rank(row);
        let rooks: Vec<File> = File::ALL
            .into_iter()
            .zip(row)
            .filter(|&(_, role)| role == Role::Rook)
            .map(|(file, _)| file)
            .collect();
        let (long, short) = (rooks[0], rooks[1]);
        let mut rights = CastlingRights::NONE;
        for color in Color::ALL {
            rights = rights
                .with_rook(color, CastlingSide::KingSide, short)
                .with_rook(color, CastlingSide::QueenSide, long);
        }
        pos.castling = rights;
        pos.hash = pos.compute_hash();
        Some(pos)
    }

    /// True if some castling right held is one standard chess cannot have:
    /// the king not on e1/e8 or the rook not on the a or h file. A game from
    /// such a position can only be Chess960.
    pub fn has_chess960_castling(&self) -> bool {
        let rights = self.castling;
        !rights.is_standard()
            || Color::ALL
                .into_iter()
                .any(|c| rights.has_color(c) && self.king(c) != crate::castling::king_home(c))
    }

    /// The number (0–959) of the Chess960 starting position this is, if it is
    /// one: the placement, White to move, all four rights, no en passant
    /// square, move 1.
    pub fn chess960_number(&self) -> Option<u16> {
        // The bishops, queen and knights fix the number; rebuild and compare.
        let row: Vec<Role> = File::ALL
            .into_iter()
            .map(|f| self.role_at(Square::from_coords(f, Rank::FIRST)))
            .collect::<Option<Vec<Role>>>()?;
        let light = (0..4).find(|&i| row[2 * i + 1] == Role::Bishop)?;
        let dark = (0..4).find(|&i| row[2 * i] == Role::Bishop)?;
        let no_bishops: Vec<usize> = (0..8)
            .filter(|&i| i != 2 * light + 1 && i != 2 * dark)
            .collect();
        let queen = no_bishops.iter().position(|&i| row[i] == Role::Queen)?;
        let rest: Vec<usize> = no_bishops
            .into_iter()
            .filter(|&i| row[i] != Role::Queen)
            .collect();
        let mut knights = (0..rest.len()).filter(|&k| row[rest[k]] == Role::Knight);
        let (a, b) = (knights.next()?, knights.next()?);
        let kn = KNIGHTS.iter().position(|&p| p == (a, b))?;
        let n = (light + 4 * dark + 16 * queen + 96 * kn) as u16;
        let start = Position::chess960(n)?;
        let same = start.roles == self.roles
            && start.colors == self.colors
            && start.turn == self.turn
            && start.castling == self.castling
            && self.ep_square.is_none()
            && self.fullmoves == 1
            && self.halfmoves == 0;
        same.then_some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Piece;

    fn row_text(n: u16) -> String {
        chess960_back_rank(n)
            .unwrap()
            .iter()
            .map(|&role| {
                Piece {
                    color: Color::White,
                    role,
                }
                .fen_char()
            })
            .collect()
    }

    #[test]
    fn known_numbers() {
        // From the published table (chessprogramming wiki, lichess).
        assert_eq!(row_text(0), "BBQNNRKR");
        assert_eq!(row_text(1), "BQNBNRKR");
        assert_eq!(row_text(518), "RNBQKBNR");
        assert_eq!(row_text(959), "RKRNNQBB");
        assert_eq!(Position::chess960(518), Some(Position::new()));
    }

    #[test]
    fn all_960_are_distinct_legal_and_numbered_back() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..CHESS960_POSITIONS {
            let pos = Position::chess960(n).unwrap();
            assert!(seen.insert(row_text(n)), "{n} repeated");
            assert_eq!(pos.chess960_number(), Some(n));
            let row = chess960_back_rank(n).unwrap();
            let king = row.iter().position(|&r| r == Role::King).unwrap();
            let rooks: Vec<usize> = (0..8).filter(|&i| row[i] == Role::Rook).collect();
            assert!(rooks[0] < king && king < rooks[1], "{n}");
            let bishops: Vec<usize> = (0..8).filter(|&i| row[i] == Role::Bishop).collect();
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}");
            let fen = pos.to_fen();
            let again = Position::from_fen_with(&fen, crate::CastlingMode::Chess960).unwrap();
            assert_eq!(again, pos, "{fen}");
        }
        assert!(Position::chess960(960).is_none());
        assert_eq!(Position::new().chess960_number(), Some(518));
    }
}
