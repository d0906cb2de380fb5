//! FEN (Forsyth–Edwards Notation) in and out, with precise validation.
//!
//! Reading accepts the six standard fields, or only the first four (the move
//! counters then default to `0 1`). The en passant field is kept as written when
//! it is possible (a pawn has just made its double step there), as the PGN
//! standard (16.1.3.4) records it; writing gives it back the same way.

use crate::attacks::{between, line};
use crate::castling::king_home;
use crate::{
    Bitboard, CastlingMode, CastlingSide, CastlingStyle, Color, File, Piece, Position, Rank, Role,
    Square,
};

/// Everything that can be wrong with a FEN string or the position it describes.
/// `column` is the 1-based character position in the FEN text where the problem
/// was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// Not 4 to 6 space-separated fields.
    FieldCount {
        /// How many were found.
        found: usize,
    },
    /// The placement does not have 8 rows separated by `/`.
    RankCount {
        /// How many were found.
        found: usize,
    },
    /// A character that is not a piece letter, a digit 1–8 or `/`.
    BadPieceChar {
        /// The character.
        ch: char,
        /// Where.
        column: usize,
    },
    /// A row describes more than 8 squares.
    RankTooLong {
        /// Which row (fila), as on the board.
        rank: Rank,
        /// Where.
        column: usize,
    },
    /// A row describes fewer than 8 squares.
    RankTooShort {
        /// Which row.
        rank: Rank,
        /// How many squares it describes.
        squares: usize,
        /// Where.
        column: usize,
    },
    /// The side to move is not `w` or `b`.
    BadTurn {
        /// What was written.
        text: String,
        /// Where.
        column: usize,
    },
    /// The castling field is not `-` or letters from `KQkq` (in Chess960 also
    /// the rooks' files, `A`–`H` and `a`–`h`), each once.
    BadCastling {
        /// What was written.
        text: String,
        /// Where.
        column: usize,
    },
    /// The en passant field is not `-` or a square.
    BadEnPassantSyntax {
        /// What was written.
        text: String,
        /// Where.
        column: usize,
    },
    /// The half-move clock is not a number.
    BadHalfmoveClock {
        /// What was written.
        text: String,
        /// Where.
        column: usize,
    },
    /// The move number is not a number.
    BadFullmoveNumber {
        /// What was written.
        text: String,
        /// Where.
        column: usize,
    },
    /// A side has no king, or more than one.
    KingCount {
        /// Which side.
        color: Color,
        /// How many kings it has.
        found: usize,
    },
    /// A pawn on the first or last row.
    PawnOnBackRank {
        /// Where.
        square: Square,
    },
    /// A side has more than 16 pieces, more than 8 pawns, or more promoted
    /// pieces than missing pawns.
    TooManyPieces {
        /// Which side.
        color: Color,
    },
    /// The side that is not to move is in check: the previous move was illegal.
    OpponentInCheck,
    /// A castling right that the placement contradicts (king or rook not on its
    /// starting square).
    CastlingContradicted {
        /// The right, as its FEN letter (`K`, `Q`, `k` or `q`).
        right: char,
    },
    /// An en passant square that no double step could have produced.
    ImpossibleEnPassant {
        /// The square.
        square: Square,
    },
    /// A check that no legal move could have given (three checkers, two
    /// pawns/knights at once, two checkers on one line, …).
    ImpossibleCheck,
}

impl Position {
    /// The fields of a FEN read into a position, before any rule is checked,
    /// with the castling letters that name no right the placement allows (in
    /// the order written).
    fn parse_fen(fen: &str, mode: CastlingMode) -> Result<(Position, Vec<char>), FenError> {
        let text = fen.trim();
        if text.is_empty() {
            return Err(FenError::Empty);
        }
        let lead = fen.len() - fen.trim_start().len();
        let fields = split_fields(text, lead);
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount {
                found: fields.len(),
            });
        }
        let mut pos = Position::empty();
        parse_placement(&mut pos, fields[0].0, fields[0].1)?;

        let (turn, col) = fields[1];
        pos.turn = match turn {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            _ => {
                return Err(FenError::BadTurn {
                    text: turn.into(),
                    column: col,
                })
            }
        };

        let (castling, col) = fields[2];
        let letters = parse_castling(castling, mode).ok_or(FenError::BadCastling {
            text: castling.into(),
            column: col,
        })?;
        let unresolved = pos.resolve_castling(&letters, mode);

        let (ep, col) = fields[3];
        pos.ep_square = match ep {
            "-" => None,
            _ => Some(Square::parse(ep).ok_or(FenError::BadEnPassantSyntax {
                text: ep.into(),
                column: col,
            })?),
        };

        if let Some(&(half, col)) = fields.get(4) {
            pos.halfmoves = half.parse().map_err(|_| FenError::BadHalfmoveClock {
                text: half.into(),
                column: col,
            })?;
        }
        if let Some(&(full, col)) = fields.get(5) {
            let n: u32 = full.parse().map_err(|_| FenError::BadFullmoveNumber {
                text: full.into(),
                column: col,
            })?;
            // Some programs write 0; the count starts at 1.
            pos.fullmoves = n.max(1);
        }

        Ok((pos, unresolved))
    }

    /// Sets the castling rights the letters name (see [`parse_castling`]);
    /// returns the letters that name none (the king or the rook is not where
    /// the right needs it, or a side is named twice).
    fn resolve_castling(&mut self, letters: &[char], mode: CastlingMode) -> Vec<char> {
        let mut unresolved = Vec::new();
        for &c in letters {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let back = Rank::FIRST.relative_to(color);
            let kings = self.pieces(color, Role::King);
            let rooks = self.pieces(color, Role::Rook) & Bitboard::rank(back);
            let right = match (kings.single(), mode) {
                (Some(king), _) if king.rank() != back => None,
                (None, _) => None,
                (Some(king), CastlingMode::Standard) => {
                    let side = match c.to_ascii_uppercase() {
                        'K' => CastlingSide::KingSide,
                        _ => CastlingSide::QueenSide,
                    };
                    (king == king_home(color) && rooks.contains(side.rook_from(color)))
                        .then_some((side, side.rook_from(color).file()))
                }
                (Some(king), CastlingMode::Chess960) => {
                    let kf = king.file().index();
                    let on = |side: CastlingSide, f: usize| match side {
                        CastlingSide::KingSide => f > kf,
                        CastlingSide::QueenSide => f < kf,
                    };
                    match c.to_ascii_uppercase() {
                        'K' => rooks
                            .filter(|r| on(CastlingSide::KingSide, r.file().index()))
                            .last()
                            .map(|r| (CastlingSide::KingSide, r.file())),
                        'Q' => { rooks }
                            .find(|r| on(CastlingSide::QueenSide, r.file().index()))
                            .map(|r| (CastlingSide::QueenSide, r.file())),
                        letter => {
                            let file = File::ALL[(letter as u8 - b'A') as usize];
                            let side = if file.index() > kf {
                                CastlingSide::KingSide
                            } else {
                                CastlingSide::QueenSide
                            };
                            (file.index() != kf && rooks.contains(Square::from_coords(file, back)))
                                .then_some((side, file))
                        }
                    }
                }
            };
            match right {
                Some((side, file)) => match self.castling.rook(color, side) {
                    None => self.castling = self.castling.with_rook(color, side, file),
                    // Two names for one right (`Kh`): as shakmaty and
                    // python-chess read it, the right once.
                    Some(rook) if rook.file() == file => {}
                    // Two rooks for one side: the outermost keeps the right
                    // (as python-chess keeps it), the other letter names none.
                    Some(rook) => {
                        let outer = match side {
                            CastlingSide::KingSide => file > rook.file(),
                            CastlingSide::QueenSide => file < rook.file(),
                        };
                        if outer {
                            self.castling = self.castling.with_rook(color, side, file);
                            // The dropped right is the inner rook's.
                            let f = rook.file().char();
                            unresolved.push(match color {
                                Color::White => f.to_ascii_uppercase(),
                                Color::Black => f,
                            });
                        } else {
                            unresolved.push(c);
                        }
                    }
                },
                None => unresolved.push(c),
            }
        }
        unresolved
    }

    /// Reads a position from FEN, checking that it obeys the rules.
    ///
    /// ```
    /// use escaque::{FenError, Position};
    /// let pos = Position::from_fen("8/8/8/8/8/8/8/K6k w - - 0 1").unwrap();
    /// assert_eq!(pos.legal_moves().len(), 3);
    /// assert_eq!(
    ///     Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"),
    ///     Err(FenError::KingCount { color: escaque::Color::White, found: 0 })
    /// );
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, CastlingMode::Standard)
    }

    /// Reads a position from FEN with the castling rules of `mode`: in
    /// [`CastlingMode::Chess960`] the castling field may be X-FEN (`KQkq`,
    /// `K` and `Q` naming the outermost rook on that side of the king, or a
    /// rook's file letter) or Shredder-FEN (`HAha`), and the king and rooks
    /// may stand anywhere on the first row.
    ///
    /// ```
    /// use escaque::{CastlingMode, CastlingStyle, Position};
    ///
    /// // Chess960 position 0 (Scharnagl's numbering).
    /// let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    /// let pos = Position::from_fen_with(fen, CastlingMode::Chess960).unwrap();
    /// assert_eq!(pos.to_fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    /// assert_eq!(pos.to_fen_with(CastlingStyle::Shredder), fen);
    /// assert!(Position::from_fen(fen).is_err());
    /// ```
    pub fn from_fen_with(fen: &str, mode: CastlingMode) -> Result<Position, FenError> {
        let (mut pos, unresolved) = Position::parse_fen(fen, mode)?;
        pos.validate_with(&unresolved)?;
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Reads a FEN that other programs may send: any position that can be
    /// played from, reachable or not. What cannot be played is still an error
    /// (no king or two kings of a colour, the side not to move in check, pawns
    /// on the first or last rank, more than 16 pieces of a colour); an
    /// impossible check or impossible material is accepted, and castling
    /// rights the position cannot have and an en passant square no double
    /// step could have left are dropped. Each of those comes back as a
    /// [`FenWarning`].
    ///
    /// ```
    /// use escaque::{FenWarning, Position};
    ///
    /// // Published perft positions that no game can reach.
    /// let (pos, warnings) =
    ///     Position::from_fen_playable("3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1").unwrap();
    /// assert_eq!(warnings, vec![FenWarning::ImpossibleCheck]);
    /// assert!(Position::from_fen("3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1").is_err());
    /// let (pos, warnings) =
    ///     Position::from_fen_playable("r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1").unwrap();
    /// assert_eq!(warnings, vec![FenWarning::CastlingDropped { right: 'q' }]);
    /// assert_eq!(pos.to_fen(), "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQ - 0 1");
    /// ```
    pub fn from_fen_playable(fen: &str) -> Result<(Position, Vec<FenWarning>), FenError> {
        Position::from_fen_playable_with(fen, CastlingMode::Standard)
    }

    /// [`Position::from_fen_playable`] with the castling rules of `mode`
    /// (see [`Position::from_fen_with`]).
    pub fn from_fen_playable_with(
        fen: &str,
        mode: CastlingMode,
    ) -> Result<(Position, Vec<FenWarning>), FenError> {
        let (mut pos, unresolved) = Position::parse_fen(fen, mode)?;
        let warnings = pos.validate_playable(&unresolved)?;
        pos.hash = pos.compute_hash();
        Ok((pos, warnings))
    }

    /// Writes the position as FEN. The castling field is standard FEN's for
    /// a standard position, X-FEN's for a Chess960 one (see
    /// [`CastlingStyle::XFen`]).
    pub fn to_fen(&self) -> String {
        self.to_fen_with(CastlingStyle::XFen)
    }

    /// The castling field of the FEN in `style`.
    pub fn castling_fen(&self, style: CastlingStyle) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            let back = Bitboard::rank(Rank::FIRST.relative_to(color));
            let rooks = self.pieces(color, Role::Rook) & back;
            let kf = self.king(color).file().index();
            for side in CastlingSide::ALL {
                let Some(rook) = self.castling.rook(color, side) else {
                    continue;
                };
                let outermost = match side {
                    CastlingSide::KingSide => rooks.filter(|r| r.file().index() > kf).last(),
                    CastlingSide::QueenSide => { rooks }.find(|r| r.file().index() < kf),
                };
                let upper = match (style, outermost == Some(rook), side) {
                    (CastlingStyle::XFen, true, CastlingSide::KingSide) => 'K',
                    (CastlingStyle::XFen, true, CastlingSide::QueenSide) => 'Q',
                    _ => rook.file().char().to_ascii_uppercase(),
                };
                s.push(match color {
                    Color::White => upper,
                    Color::Black => upper.to_ascii_lowercase(),
                });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// Writes the position as FEN with the castling field in `style`.
    pub fn to_fen_with(&self, style: CastlingStyle) -> String {
        let mut s = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if *rank != Rank::FIRST {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.turn.fen_char());
        s.push(' ');
        s.push_str(&self.castling_fen(style));
        s.push(' ');
        match self.ep_square {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmoves, self.fullmoves));
        s
    }

    /// Checks the rules a position must obey (see [`FenError`] for the list),
    /// given the castling letters of the FEN that named no right.
    fn validate_with(&self, unresolved: &[char]) -> Result<(), FenError> {
        self.validate_playable_core()?;
        for color in Color::ALL {
            if self.impossible_material(color) {
                return Err(FenError::TooManyPieces { color });
            }
        }
        if let Some(&right) = unresolved.first() {
            return Err(FenError::CastlingContradicted { right });
        }
        for (color, side, ch) in CASTLING_CHARS {
            if self.castling.has(color, side) && !self.can_castle_from_home(color, side) {
                return Err(FenError::CastlingContradicted { right: ch });
            }
        }
        if let Some(ep) = self.ep_square {
            self.validate_ep(ep)?;
        }
        self.validate_checkers()
    }

    /// [`Position::validate`] for a position to be played from: the checks
    /// that cannot be relaxed are errors; the others relax the position and
    /// say so.
    fn validate_playable(&mut self, unresolved: &[char]) -> Result<Vec<FenWarning>, FenError> {
        self.validate_playable_core()?;
        let mut warnings = Vec::new();
        for color in Color::ALL {
            if self.impossible_material(color) {
                warnings.push(FenWarning::ImpossibleMaterial { color });
            }
        }
        for &right in unresolved {
            warnings.push(FenWarning::CastlingDropped { right });
        }
        let mut impossible_check = false;
        for (color, side, ch) in CASTLING_CHARS {
            if self.castling.has(color, side) && !self.can_castle_from_home(color, side) {
                self.castling = self.castling.without(color, side);
                warnings.push(FenWarning::CastlingDropped { right: ch });
            }
        }
        if let Some(ep) = self.ep_square {
            match self.validate_ep(ep) {
                Ok(()) => {}
                // The square is right but the check is not one the double
                // step gave: the check is what is impossible; the capture
                // stays (python-chess and shakmaty play it too).
                Err(FenError::ImpossibleCheck) => impossible_check = true,
                Err(_) => {
                    self.ep_square = None;
                    warnings.push(FenWarning::EnPassantDropped { square: ep });
                }
            }
        }
        if impossible_check || self.validate_checkers().is_err() {
            warnings.push(FenWarning::ImpossibleCheck);
        }
        Ok(warnings)
    }

    /// True if the right's king and rook stand where the right needs them:
    /// both on `color`'s first row, the rook on the right's side of the king.
    fn can_castle_from_home(&self, color: Color, side: CastlingSide) -> bool {
        let Some(rook) = self.castling.rook(color, side) else {
            return true;
        };
        let king = self.king(color);
        let on_side = match side {
            CastlingSide::KingSide => rook.file() > king.file(),
            CastlingSide::QueenSide => rook.file() < king.file(),
        };
        king.rank() == Rank::FIRST.relative_to(color)
            && self.pieces(color, Role::Rook).contains(rook)
            && on_side
    }

    /// More pawns, or more promoted pieces, than a game can give `color`.
    fn impossible_material(&self, color: Color) -> bool {
        let count = |r| self.pieces(color, r).count();
        let pawns = count(Role::Pawn);
        let promoted = count(Role::Queen).saturating_sub(1)
            + count(Role::Rook).saturating_sub(2)
            + count(Role::Bishop).saturating_sub(2)
            + count(Role::Knight).saturating_sub(2);
        pawns > 8 || pawns + promoted > 8
    }

    /// What no position can have and still be played from.
    fn validate_playable_core(&self) -> Result<(), FenError> {
        for color in Color::ALL {
            let kings = self.pieces(color, Role::King).count();
            if kings != 1 {
                return Err(FenError::KingCount {
                    color,
                    found: kings,
                });
            }
        }
        let back = Bitboard::rank(Rank::FIRST) | Bitboard::rank(Rank::EIGHTH);
        if let Some(square) = (self.by_role(Role::Pawn) & back).first() {
            return Err(FenError::PawnOnBackRank { square });
        }
        for color in Color::ALL {
            if self.by_color(color).count() > 16 {
                return Err(FenError::TooManyPieces { color });
            }
        }
        let them = self.turn.other();
        if self
            .attackers_to(self.king(them), self.turn, self.occupied())
            .any()
        {
            return Err(FenError::OpponentInCheck);
        }
        Ok(())
    }

    fn validate_ep(&self, ep: Square) -> Result<(), FenError> {
        let us = self.turn;
        let them = us.other();
        let bad = Err(FenError::ImpossibleEnPassant { square: ep });
        if ep.rank() != Rank::SIXTH.relative_to(us) {
            return bad;
        }
        let (Some(pushed), Some(origin)) =
            (ep.offset(0, us.fold(-1, 1)), ep.offset(0, us.fold(1, -1)))
        else {
            return bad;
        };
        if !self.pieces(them, Role::Pawn).contains(pushed)
            || self.occupied().contains(ep)
            || self.occupied().contains(origin)
        {
            return bad;
        }
        // If the side to move is in check, the double step must have given it:
        // the pushed pawn checks, or it uncovered the checking line.
        let king = self.king(us);
        for checker in self.checkers() {
            if checker != pushed && !between(king, checker).contains(origin) {
                return Err(FenError::ImpossibleCheck);
            }
        }
        Ok(())
    }

    fn validate_checkers(&self) -> Result<(), FenError> {
        let checkers = self.checkers();
        if checkers.count() > 2 {
            return Err(FenError::ImpossibleCheck);
        }
        if checkers.count() == 2 {
            let king = self.king(self.turn);
            let steppers = self.by_role(Role::Pawn) | self.by_role(Role::Knight);
            let mut it = checkers;
            let (a, b) = (it.next(), it.next());
            if let (Some(a), Some(b)) = (a, b) {
                if (checkers & steppers).count() == 2 || line(king, a).contains(b) {
                    return Err(FenError::ImpossibleCheck);
                }
            }
        }
        Ok(())
    }
}

const CASTLING_CHARS: [(Color, CastlingSide, char); 4] = [
    (Color::White, CastlingSide::KingSide, 'K'),
    (Color::White, CastlingSide::QueenSide, 'Q'),
    (Color::Black, CastlingSide::KingSide, 'k'),
    (Color::Black, CastlingSide::QueenSide, 'q'),
];

/// What [`Position::from_fen_playable`] relaxed in a position no game can
/// reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenWarning {
    /// The side to move is in a check that no last move could have given
    /// (accepted: the move generator plays it).
    ImpossibleCheck,
    /// More pawns or promoted pieces of `color` than a game can give
    /// (accepted).
    ImpossibleMaterial {
        /// The colour.
        color: Color,
    },
    /// This castling right (`K`, `Q`, `k`, `q`) was dropped: the king or the
    /// rook is not on its square.
    CastlingDropped {
        /// The right as FEN writes it.
        right: char,
    },
    /// The en passant square was dropped: no double step can have left it.
    EnPassantDropped {
        /// The square.
        square: Square,
    },
}

/// Splits on ASCII whitespace, keeping each field's 1-based column.
fn split_fields(text: &str, lead: usize) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((&text[s..i], lead + text[..s].chars().count() + 1));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((&text[s..], lead + text[..s].chars().count() + 1));
    }
    out
}

fn parse_placement(pos: &mut Position, placement: &str, column: usize) -> Result<(), FenError> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != 8 {
        return Err(FenError::RankCount { found: rows.len() });
    }
    let mut col = column;
    for (i, row) in rows.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let mut file = 0usize;
        for ch in row.chars() {
            if file >= 8 {
                return Err(FenError::RankTooLong { rank, column: col });
            }
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
                if file > 8 {
                    return Err(FenError::RankTooLong { rank, column: col });
                }
            } else if let Some(Piece { color, role }) = Piece::from_fen_char(ch) {
                pos.put(color, role, Square::from_coords(File::ALL[file], rank));
                file += 1;
            } else {
                return Err(FenError::BadPieceChar { ch, column: col });
            }
            col += 1;
        }
        if file < 8 {
            return Err(FenError::RankTooShort {
                rank,
                squares: file,
                column: col,
            });
        }
        col += 1; // the '/'
    }
    Ok(())
}

/// The castling field's letters: `-`, or letters each at most once from
/// `KQkq` and, in Chess960, the rooks' files `A`–`H` / `a`–`h` (X-FEN and
/// Shredder-FEN); `None` for anything else.
fn parse_castling(text: &str, mode: CastlingMode) -> Option<Vec<char>> {
    if text == "-" {
        return Some(Vec::new());
    }
    let mut letters = Vec::new();
    for c in text.chars() {
        let ok = match c {
            'K' | 'Q' | 'k' | 'q' => true,
            'A'..='H' | 'a'..='h' => mode == CastlingMode::Chess960,
            _ => false,
        };
        if !ok || letters.contains(&c) || letters.len() >= 4 {
            return None;
        }
        letters.push(c);
    }
    Some(letters)
}
