//! Standard algebraic notation (SAN), in English and in Spanish.
//!
//! Writing gives the shortest correct text (`Nbd2`, `R1e2`, `Qh4e1`, `exd6`,
//! `e8=Q`, `O-O`, `+`, `#`), with English letters (K Q R B N) or Spanish ones
//! (R D T A C, castling `0-0`). Reading is lenient where players are (`o-o`,
//! `:` for captures, `e8D`, `e8(D)`, figurines, long algebraic `Cg1-f3`, marks
//! `!?`, `a.p.`) but never guesses: an ambiguous or illegal text is an error
//! that says why.
//!
//! ```
//! use escaque::{Lang, Position};
//! use escaque::san::{parse_san, san, SanLang};
//!
//! let pos = Position::new();
//! let m = parse_san(&pos, "Cf3", SanLang::Es).unwrap();
//! assert_eq!(san(&pos, m, Lang::En), "Nf3");
//! assert_eq!(san(&pos, m, Lang::Es), "Cf3");
//! // "R" is a rook in English but a king in Spanish: Auto reads both.
//! assert!(parse_san(&pos, "Nf3", SanLang::Auto).is_ok());
//! ```

use crate::castling::king_home;
use crate::{
    Bitboard, CastlingSide, File, IllegalReason, Lang, Move, MoveKind, Position, Rank, Role, Square,
};

/// The language a SAN text is read in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SanLang {
    /// Spanish letters: R rey, D dama, T torre, A alfil, C caballo.
    Es,
    /// English letters: K Q R B N.
    En,
    /// Either: accepted when both readings agree or exactly one is legal.
    Auto,
}

impl From<Lang> for SanLang {
    fn from(l: Lang) -> SanLang {
        match l {
            Lang::Es => SanLang::Es,
            Lang::En => SanLang::En,
        }
    }
}

/// How to write a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SanStyle {
    /// Piece letters and castling style (`O-O` in English, `0-0` in Spanish).
    pub lang: Lang,
    /// Append `+` for check and `#` for checkmate.
    pub check_marks: bool,
    /// Append ` a.p.` (Spanish) or ` e.p.` (English) after an en passant capture.
    pub en_passant_suffix: bool,
}

impl SanStyle {
    /// Plain SAN with check marks, as PGN writes it.
    pub const fn new(lang: Lang) -> SanStyle {
        SanStyle {
            lang,
            check_marks: true,
            en_passant_suffix: false,
        }
    }
}

// ---------------------------------------------------------------- writing

/// The SAN of `m` (which must be legal in `pos`) with `+`/`#`, in `lang`.
pub fn san(pos: &Position, m: Move, lang: Lang) -> String {
    let mut s = String::with_capacity(8);
    write_san(&mut s, pos, m, SanStyle::new(lang));
    s
}

/// The SAN of `m` for display: like [`san`], and in Spanish an en passant
/// capture is followed by ` a.p.` (`exd6 a.p.`).
pub fn san_display(pos: &Position, m: Move, lang: Lang) -> String {
    let mut s = String::with_capacity(12);
    let style = SanStyle {
        lang,
        check_marks: true,
        en_passant_suffix: lang == Lang::Es,
    };
    write_san(&mut s, pos, m, style);
    s
}

pub(crate) fn role_letter(role: Role, lang: Lang) -> char {
    match lang {
        Lang::Es => role.char_es(),
        Lang::En => role.char_en(),
    }
}

/// Appends the SAN of `m` to `out`. `m` should be legal in `pos`; a move that is
/// not (or has no piece on its origin) is written in coordinate notation rather
/// than panicking.
pub fn write_san(out: &mut String, pos: &Position, m: Move, style: SanStyle) {
    if m.is_null() {
        out.push_str("--");
        return;
    }
    if pos.role_at(m.from()).is_none() {
        out.push_str(&m.to_string());
        return;
    }
    San::from_move(pos, m).write(out, style.lang);
    if style.en_passant_suffix && m.is_en_passant() {
        out.push_str(style.lang.pick(" a.p.", " e.p."));
    }
    if style.check_marks {
        let mut after = *pos;
        after.play_unchecked(m);
        if after.is_check() {
            out.push(if after.has_legal_moves() { '+' } else { '#' });
        }
    }
}

fn push_square(out: &mut String, sq: Square) {
    out.push(sq.file().char());
    out.push(sq.rank().char());
}

// ---------------------------------------------------------------- the value

/// A move in SAN as a value: read once from text in a language, or made from
/// a legal move; resolved against a position with [`San::to_move`] and written
/// in either language with [`San::write`] / [`San::display`] (check marks are
/// not part of it: they depend on the position after the move).
///
/// ```
/// use escaque::{Lang, Position};
/// use escaque::san::San;
///
/// let pos = Position::new();
/// let san = San::parse("Cf3", Lang::Es).unwrap();
/// assert_eq!(san.display(Lang::En), "Nf3");
/// let m = san.to_move(&pos).unwrap();
/// assert_eq!(San::from_move(&pos, m), san);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// Castling: `O-O`, `O-O-O` (`0-0`, `0-0-0` in Spanish).
    Castle(CastlingSide),
    /// Any other move.
    Normal {
        /// The kind of piece that moves.
        role: Role,
        /// The origin file, when given (disambiguation, or a pawn's capture).
        file: Option<File>,
        /// The origin rank, when given.
        rank: Option<Rank>,
        /// Whether the text marks a capture.
        capture: bool,
        /// The destination.
        to: Square,
        /// The piece a pawn becomes.
        promotion: Option<Role>,
    },
}

impl San {
    /// The shortest correct SAN of `m`, which must be legal in `pos` (a move
    /// with no piece on its origin is taken for a pawn's).
    pub fn from_move(pos: &Position, m: Move) -> San {
        let (from, to) = (m.from(), m.to());
        let role = pos.role_at(from).unwrap_or(Role::Pawn);
        if m.kind() == MoveKind::Castle {
            return San::Castle(CastlingSide::from_king_to(to));
        }
        let capture = m.is_en_passant() || pos.occupied().contains(to);
        let (mut file, mut rank) = (None, None);
        if role == Role::Pawn {
            if capture {
                file = Some(from.file());
            }
        } else if role != Role::King {
            let others = pos
                .legal_moves_to(Bitboard::from_square(to))
                .into_iter()
                .filter(|o| o.from() != from && pos.role_at(o.from()) == Some(role))
                .fold(Bitboard::EMPTY, |b, o| b.with(o.from()));
            if others.any() {
                let same_file = (others & Bitboard::file(from.file())).any();
                let same_rank = (others & Bitboard::rank(from.rank())).any();
                if !same_file {
                    file = Some(from.file());
                } else if !same_rank {
                    rank = Some(from.rank());
                } else {
                    file = Some(from.file());
                    rank = Some(from.rank());
                }
            }
        }
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: m.promotion_role(),
        }
    }

    /// Reads `text` in the notation of `lang` (leniently, as [`parse_san`]
    /// does), without a position.
    pub fn parse(text: &str, lang: Lang) -> Result<San, MoveError> {
        let lexed = lex(text).ok_or_else(|| unreadable(text))?;
        let reading =
            interpret(lexed, lang).ok_or_else(|| MoveError::Unknown { text: text.into() })?;
        Ok(match reading {
            Reading::Castle(side) => San::Castle(side),
            Reading::Move {
                role,
                from_file,
                from_rank,
                to,
                promo,
            } => San::Normal {
                role,
                file: from_file.and_then(|f| File::new(u32::from(f))),
                rank: from_rank.and_then(|r| Rank::new(u32::from(r))),
                capture: text.contains(['x', 'X', ':']),
                to,
                promotion: promo,
            },
        })
    }

    /// The legal move of `pos` this SAN names, or why there is none.
    pub fn to_move(&self, pos: &Position) -> Result<Move, MoveError> {
        let reading = match *self {
            San::Castle(side) => Reading::Castle(side),
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => Reading::Move {
                role,
                from_file: file.map(|f| f.index() as u8),
                from_rank: rank.map(|r| r.index() as u8),
                to,
                promo: promotion,
            },
        };
        resolve(pos, reading, &self.to_string())
    }

    /// Appends the text in `lang`'s letters (`Cbd2`, `exd5`, `e8=D`, `0-0`).
    pub fn write(&self, out: &mut String, lang: Lang) {
        match *self {
            San::Castle(side) => {
                let zero = lang.pick('0', 'O');
                out.push(zero);
                out.push('-');
                out.push(zero);
                if side == CastlingSide::QueenSide {
                    out.push('-');
                    out.push(zero);
                }
            }
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    out.push(role_letter(role, lang));
                }
                if let Some(f) = file {
                    out.push(f.char());
                }
                if let Some(r) = rank {
                    out.push(r.char());
                }
                if capture {
                    out.push('x');
                }
                push_square(out, to);
                if let Some(p) = promotion {
                    out.push('=');
                    out.push(role_letter(p, lang));
                }
            }
        }
    }

    /// The text in `lang`'s letters.
    pub fn display(&self, lang: Lang) -> String {
        let mut s = String::with_capacity(8);
        self.write(&mut s, lang);
        s
    }
}

impl core::fmt::Display for San {
    /// English letters, as PGN writes them.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.display(Lang::En))
    }
}

fn unreadable(text: &str) -> MoveError {
    if text.trim().is_empty() {
        MoveError::Empty
    } else {
        MoveError::Unknown { text: text.into() }
    }
}

// ---------------------------------------------------------------- reading

/// A piece named in the text, before the language gives it a meaning.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum PieceTok {
    /// A figurine: the same in every language.
    Figurine(Role),
    /// An upper-case letter.
    Letter(u8),
}

/// The text taken apart, independent of the language.
#[derive(Copy, Clone, Debug)]
enum Lexed {
    Castle(CastlingSide),
    Move {
        piece: Option<PieceTok>,
        from_file: Option<u8>,
        from_rank: Option<u8>,
        to: Square,
        promo: Option<PieceTok>,
    },
}

/// Reads `text` as a move of `pos`, in the language `lang`.
///
/// Accepted, besides plain SAN: `0-0`/`O-O`/`o-o`, missing or superfluous
/// disambiguation, missing `x` or `:` for it, missing `=` (`e8D`), `e8(D)`, a
/// lower-case promotion letter, `+`/`#`/`++` present, absent or wrong, trailing
/// `!`/`?` marks, `e.p.`/`a.p.`, figurines (`♘f3`), long algebraic (`Cg1-f3`,
/// `Ng1xf3`).
pub fn parse_san(pos: &Position, text: &str, lang: SanLang) -> Result<Move, MoveError> {
    parse_san_lang(pos, text, lang).map(|(m, _)| m)
}

/// Like [`parse_san`], and also says which language the text shows itself to
/// be in: `Some(lang)` when its letters belong to that notation only (for
/// example `Cf3` is Spanish, `Nf3` English), `None` when the text reads the same
/// in both (`e4`, `O-O`, `♘f3`) or, in Auto, both readings agreed.
pub fn parse_san_lang(
    pos: &Position,
    text: &str,
    lang: SanLang,
) -> Result<(Move, Option<Lang>), MoveError> {
    let lexed = lex(text).ok_or_else(|| unreadable(text))?;
    match lang {
        SanLang::Es | SanLang::En => {
            let l = if lang == SanLang::Es {
                Lang::Es
            } else {
                Lang::En
            };
            let r = interpret(lexed, l).ok_or_else(|| MoveError::Unknown { text: text.into() })?;
            let m = resolve(pos, r, text)?;
            Ok((m, letters_differ(lexed).then_some(l)))
        }
        SanLang::Auto => {
            let (es, en) = (interpret(lexed, Lang::Es), interpret(lexed, Lang::En));
            match (es, en) {
                (None, None) => Err(MoveError::Unknown { text: text.into() }),
                (Some(r), None) => resolve(pos, r, text).map(|m| (m, Some(Lang::Es))),
                (None, Some(r)) => resolve(pos, r, text).map(|m| (m, Some(Lang::En))),
                (Some(re), Some(rn)) if re == rn => resolve(pos, rn, text).map(|m| (m, None)),
                (Some(re), Some(rn)) => match (resolve(pos, re, text), resolve(pos, rn, text)) {
                    (Ok(a), Ok(b)) if a == b => Ok((a, None)),
                    (Ok(a), Ok(b)) => Err(MoveError::AmbiguousLanguage {
                        text: text.into(),
                        spanish: San::from_move(pos, a),
                        english: San::from_move(pos, b),
                        spanish_from: a.from(),
                        english_from: b.from(),
                    }),
                    (Ok(a), Err(_)) => Ok((a, Some(Lang::Es))),
                    (Err(_), Ok(b)) => Ok((b, Some(Lang::En))),
                    (Err(e), Err(_)) => Err(e),
                },
            }
        }
    }
}

/// True when a letter of the text means different things in Spanish and in
/// English (so the text shows its notation).
fn letters_differ(lexed: Lexed) -> bool {
    let differs = |t: Option<PieceTok>| match t {
        Some(PieceTok::Letter(c)) => Role::from_char_es(c as char) != Role::from_char_en(c as char),
        _ => false,
    };
    match lexed {
        Lexed::Castle(_) => false,
        Lexed::Move { piece, promo, .. } => differs(piece) || differs(promo),
    }
}

/// A reading in one language: the piece kind and the promotion kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Reading {
    Castle(CastlingSide),
    Move {
        role: Role,
        from_file: Option<u8>,
        from_rank: Option<u8>,
        to: Square,
        promo: Option<Role>,
    },
}

#[inline]
fn tok_role(t: PieceTok, lang: Lang) -> Option<Role> {
    match t {
        PieceTok::Figurine(r) => Some(r),
        PieceTok::Letter(c) => match lang {
            Lang::Es => Role::from_char_es(c as char),
            Lang::En => Role::from_char_en(c as char),
        },
    }
}

#[inline]
fn interpret(lexed: Lexed, lang: Lang) -> Option<Reading> {
    match lexed {
        Lexed::Castle(side) => Some(Reading::Castle(side)),
        Lexed::Move {
            piece,
            from_file,
            from_rank,
            to,
            promo,
        } => {
            let role = match piece {
                None => Role::Pawn,
                Some(t) => tok_role(t, lang)?,
            };
            let promo = match promo {
                None => None,
                Some(t) => Some(tok_role(t, lang)?),
            };
            Some(Reading::Move {
                role,
                from_file,
                from_rank,
                to,
                promo,
            })
        }
    }
}

fn figurine_role(c: char) -> Option<Role> {
    crate::Piece::from_figurine(c).map(|p| p.role)
}

/// Removes trailing check marks, annotation marks, en passant suffixes and
/// spaces.
#[inline]
fn strip_suffixes(mut s: &str) -> &str {
    // Most moves end in a digit or a promotion letter: nothing to strip.
    if s.as_bytes()
        .last()
        .is_some_and(|&b| b.is_ascii_alphanumeric() && !matches!(b, b'p' | b'P') || b == b')')
    {
        return s;
    }
    loop {
        let before = s.len();
        s = s.trim_end_matches([
            '+', '#', '!', '?', ' ', '\t', '‼', '⁇', '⁉', '⁈', '†', '‡', '□',
        ]);
        let lower_ends = |suffix: &str| {
            s.len() >= suffix.len()
                && s.is_char_boundary(s.len() - suffix.len())
                && s[s.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
        };
        for suffix in ["a.p.", "e.p.", "a.p", "e.p", "ap", "ep"] {
            // Only strip when what precedes is the end of a move (a digit, a
            // space or a closing parenthesis), so `Rep` is not cut.
            if lower_ends(suffix) {
                let rest = &s[..s.len() - suffix.len()];
                if rest.ends_with(|c: char| c.is_ascii_digit() || c == ' ' || c == ')') {
                    s = rest;
                    break;
                }
            }
        }
        if s.len() == before {
            return s;
        }
    }
}

#[inline]
fn lex(text: &str) -> Option<Lexed> {
    let s = strip_suffixes(text.trim());
    if s.is_empty() {
        return None;
    }
    // Castling: two or three of 0/O/o, with or without hyphens.
    {
        let mut n = 0;
        let mut ok = true;
        let mut last_hyphen = true;
        for c in s.bytes() {
            match c {
                b'0' | b'O' | b'o' if n < 3 => {
                    n += 1;
                    last_hyphen = false;
                }
                b'-' if !last_hyphen => last_hyphen = true,
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        if ok && !last_hyphen && n >= 2 {
            return Some(Lexed::Castle(if n == 2 {
                CastlingSide::KingSide
            } else {
                CastlingSide::QueenSide
            }));
        }
    }

    let mut rest = s;
    let mut piece = None;
    let first = rest.chars().next()?;
    if let Some(r) = figurine_role(first) {
        piece = Some(PieceTok::Figurine(r));
        rest = &rest[first.len_utf8()..];
    } else if first.is_ascii_uppercase() {
        piece = Some(PieceTok::Letter(first as u8));
        rest = &rest[1..];
    }

    // Promotion at the end: `=D`, `D`, `(D)`, `=(D)`, lower case too, or a figurine.
    let mut promo = None;
    if let Some(r) = rest.strip_suffix(')') {
        let inner_start = r.rfind('(')?;
        let inner = &r[inner_start + 1..];
        promo = Some(promo_tok(inner)?);
        rest = &r[..inner_start];
    } else if let Some(last) = rest.chars().last() {
        if !last.is_ascii_digit() {
            let cut = rest.len() - last.len_utf8();
            promo = Some(promo_tok(&rest[cut..])?);
            rest = &rest[..cut];
        }
    }
    if promo.is_some() {
        rest = rest.strip_suffix('=').unwrap_or(rest);
    }

    // Destination: the last two characters.
    let b = rest.as_bytes();
    if b.len() < 2 {
        return None;
    }
    let (f, r) = (b[b.len() - 2].to_ascii_lowercase(), b[b.len() - 1]);
    if !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&r) {
        return None;
    }
    let to = Square::from_coords(
        crate::File::new(u32::from(f - b'a'))?,
        crate::Rank::new(u32::from(r - b'1'))?,
    );
    let mut hint = &b[..b.len() - 2];
    // Separators: capture marks and the hyphen of long algebraic.
    while let Some((&last, init)) = hint.split_last() {
        if matches!(last, b'x' | b'X' | b':' | b'-') {
            hint = init;
        } else {
            break;
        }
    }
    let (mut from_file, mut from_rank) = (None, None);
    match hint {
        [] => {}
        [c] if (b'a'..=b'h').contains(c) => from_file = Some(c - b'a'),
        [c] if (b'1'..=b'8').contains(c) => from_rank = Some(c - b'1'),
        [c, d] if (b'a'..=b'h').contains(c) && (b'1'..=b'8').contains(d) => {
            from_file = Some(c - b'a');
            from_rank = Some(d - b'1');
        }
        _ => return None,
    }
    Some(Lexed::Move {
        piece,
        from_file,
        from_rank,
        to,
        promo,
    })
}

fn promo_tok(s: &str) -> Option<PieceTok> {
    let mut chars = s.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    if let Some(r) = figurine_role(c) {
        return Some(PieceTok::Figurine(r));
    }
    c.is_ascii_alphabetic()
        .then(|| PieceTok::Letter(c.to_ascii_uppercase() as u8))
}

fn resolve(pos: &Position, reading: Reading, text: &str) -> Result<Move, MoveError> {
    let us = pos.turn();
    match reading {
        Reading::Castle(side) => {
            let m = Move::castle(pos.king(us), side.king_to(us));
            if pos.is_legal(m) {
                Ok(m)
            } else {
                Err(MoveError::Illegal {
                    text: text.into(),
                    mv: Some(m),
                    reason: pos.illegal_reason(m),
                })
            }
        }
        Reading::Move {
            role,
            from_file,
            from_rank,
            to,
            promo,
        } => {
            if role == Role::Pawn && from_file.is_none() && from_rank.is_none() {
                // A pawn move without origin is a push along the file.
                return resolve_matching(
                    pos,
                    text,
                    role,
                    Some(to.file().index() as u8),
                    None,
                    to,
                    promo,
                );
            }
            resolve_matching(pos, text, role, from_file, from_rank, to, promo)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn resolve_matching(
    pos: &Position,
    text: &str,
    role: Role,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promo: Option<Role>,
) -> Result<Move, MoveError> {
    if let Some(m) = unique_fast(pos, role, origin_hint(from_file, from_rank), to, promo) {
        return Ok(m);
    }
    resolve_slow(pos, text, role, from_file, from_rank, to, promo)
}

/// The squares a move may come from, given the file and rank it names.
#[inline]
fn origin_hint(from_file: Option<u8>, from_rank: Option<u8>) -> Bitboard {
    let mut hint = Bitboard::FULL;
    if let Some(f) = from_file.and_then(|f| crate::File::new(u32::from(f))) {
        hint &= Bitboard::file(f);
    }
    if let Some(r) = from_rank.and_then(|r| crate::Rank::new(u32::from(r))) {
        hint &= Bitboard::rank(r);
    }
    hint
}

/// The common case of a game being replayed, in a notation already known:
/// `text` is plain SAN (`e4`, `Nf3`, `exd5`, `Rad1`, `N5xe4+`, no castling, no
/// promotion, nothing unusual) naming exactly one legal move, which is
/// returned with the kind of piece it moves. `None` otherwise, for [`parse_san_after`] to read it the long way:
/// whenever this gives a move, that one gives the same.
#[inline]
pub(crate) fn parse_san_plain(pos: &Position, text: &[u8], lang: Lang) -> Option<(Move, Role)> {
    let lexed = lex_plain(text)?;
    let Reading::Move {
        role,
        from_file,
        from_rank,
        to,
        promo,
    } = interpret(lexed, lang)?
    else {
        return None;
    };
    let from_file = if role == Role::Pawn && from_file.is_none() && from_rank.is_none() {
        // A pawn move without origin is a push along the file.
        Some(to.file().index() as u8)
    } else {
        from_file
    };
    unique_fast(pos, role, origin_hint(from_file, from_rank), to, promo).map(|m| (m, role))
}

/// [`lex`] for plain SAN only, on bytes: an optional piece letter, an optional
/// origin file and rank, an optional `x`, the destination, optional check
/// marks. Whatever it reads, [`lex`] reads the same way.
#[inline]
fn lex_plain(text: &[u8]) -> Option<Lexed> {
    let mut b = text;
    while let [rest @ .., b'+' | b'#'] = b {
        b = rest;
    }
    let (piece, rest) = match b {
        [c @ b'A'..=b'Z', rest @ ..] => (Some(PieceTok::Letter(*c)), rest),
        _ => (None, b),
    };
    let [hint @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] = rest else {
        return None;
    };
    let to = Square::from_coords(
        crate::File::new(u32::from(f - b'a'))?,
        crate::Rank::new(u32::from(r - b'1'))?,
    );
    let hint = match hint {
        [h @ .., b'x'] => h,
        h => h,
    };
    let (from_file, from_rank) = match hint {
        [] => (None, None),
        [c @ b'a'..=b'h'] => (Some(c - b'a'), None),
        [d @ b'1'..=b'8'] => (None, Some(d - b'1')),
        [c @ b'a'..=b'h', d @ b'1'..=b'8'] => (Some(c - b'a'), Some(d - b'1')),
        _ => return None,
    };
    Some(Lexed::Move {
        piece,
        from_file,
        from_rank,
        to,
        promo: None,
    })
}

/// The general case, through the move generator: castling, several or no
/// candidates, and the errors that explain them. Kept out of line so that the
/// common case above stays small.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn resolve_slow(
    pos: &Position,
    text: &str,
    role: Role,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: Square,
    promo: Option<Role>,
) -> Result<Move, MoveError> {
    let origins = origin_hint(from_file, from_rank);
    let mut found: Option<Move> = None;
    let mut more = false;
    let mut needs_promo = false;
    for m in pos.legal_moves_to(Bitboard::from_square(to)) {
        if pos.role_at(m.from()) != Some(role) || !origins.contains(m.from()) {
            continue;
        }
        if m.is_castle() && (from_file.is_none() || from_rank.is_none()) {
            // `Kg1` alone is not castling; `Ke1g1` (long form) is.
            continue;
        }
        match (m.promotion_role(), promo) {
            (Some(p), Some(q)) if p != q => continue,
            (Some(_), None) => {
                needs_promo = true;
                continue;
            }
            (None, Some(_)) => continue,
            _ => {}
        }
        if found.is_some() {
            more = true;
        }
        found.get_or_insert(m);
        if more {
            break;
        }
    }
    match found {
        Some(m) if !more => Ok(m),
        Some(_) => {
            let candidates = pos
                .legal_moves_to(Bitboard::from_square(to))
                .into_iter()
                .filter(|m| {
                    pos.role_at(m.from()) == Some(role)
                        && origins.contains(m.from())
                        && m.promotion_role() == promo
                        && !m.is_castle()
                })
                .map(|m| San::from_move(pos, m))
                .collect();
            Err(MoveError::Ambiguous {
                text: text.into(),
                candidates,
            })
        }
        None => Err(explain_no_move(
            pos,
            text,
            role,
            origins,
            to,
            promo,
            needs_promo,
        )),
    }
}

/// The one legal move that fits, found without generating every move: the
/// pieces of that kind that reach `to` (by the attack tables, or a pawn's push),
/// each checked, on the board as the move leaves it, for the safety of its
/// king. `None` when there is not exactly one, or for the king (castling) and anything
/// unusual: the caller then asks the move generator, which also explains why.
#[inline]
fn unique_fast(
    pos: &Position,
    role: Role,
    hint: Bitboard,
    to: Square,
    promo: Option<Role>,
) -> Option<Move> {
    use crate::attacks::{
        bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
    };
    let us = pos.turn();
    let them = us.other();
    let occ = pos.occupied();
    if pos.by_color(us).contains(to) {
        return None;
    }
    let ours = pos.pieces(us, role);
    let last_rank = to.rank() == crate::Rank::EIGHTH.relative_to(us);
    let mut en_passant = false;
    let sources = match role {
        // Castling (two squares) is not among these; it takes the slow path.
        Role::King => king_attacks(to) & ours,
        Role::Knight => knight_attacks(to) & ours,
        Role::Bishop => bishop_attacks(to, occ) & ours,
        Role::Rook => rook_attacks(to, occ) & ours,
        Role::Queen => (bishop_attacks(to, occ) | rook_attacks(to, occ)) & ours,
        Role::Pawn => {
            if pos.by_color(them).contains(to) {
                pawn_attacks(them, to) & ours
            } else if pos.ep_square() == Some(to) {
                // Only a capture reaches the square behind a pawn that has just
                // made its double step.
                en_passant = true;
                pawn_attacks(them, to) & ours
            } else {
                let back = if us == crate::Color::White { -1 } else { 1 };
                let one = to.offset(0, back)?;
                if ours.contains(one) {
                    Bitboard::from_square(one)
                } else if !occ.contains(one) && to.rank() == crate::Rank::FOURTH.relative_to(us) {
                    Bitboard::from_square(one.offset(0, back)?) & ours
                } else {
                    Bitboard::EMPTY
                }
            }
        }
    };
    if promo.is_some() != (role == Role::Pawn && last_rank)
        || promo.is_some_and(|p| !Role::PROMOTIONS.contains(&p))
    {
        return None;
    }
    let mut found = None;
    let target = Bitboard::from_square(to);
    let king = pos.king(us);
    for from in sources & hint {
        let m = match promo {
            Some(p) => Move::promotion(from, to, p),
            None if en_passant => Move::en_passant(from, to),
            None => Move::normal(from, to),
        };
        let safe = if en_passant {
            // Two pawns leave their squares: try it on a copy.
            let mut after = *pos;
            after.play_unchecked(m);
            !after.is_attacked(after.king(us), them)
        } else {
            // The board after the move, without playing it: `from` empties,
            // `to` fills, and a piece captured on `to` attacks nothing.
            let occ_after = (occ & !Bitboard::from_square(from)) | target;
            let ksq = if role == Role::King { to } else { king };
            (pos.attackers_to(ksq, them, occ_after) & !target).is_empty()
        };
        if !safe {
            continue;
        }
        if found.is_some() {
            return None;
        }
        found = Some(m);
    }
    found
}

/// Finds out why no legal move fits: from the pieces of that kind that match the
/// origin, the reason given for the move each would make.
fn explain_no_move(
    pos: &Position,
    text: &str,
    role: Role,
    origins: Bitboard,
    to: Square,
    promo: Option<Role>,
    needs_promo: bool,
) -> MoveError {
    let us = pos.turn();
    if needs_promo {
        return MoveError::Illegal {
            text: text.into(),
            mv: None,
            reason: IllegalReason::PromotionRequired,
        };
    }
    if promo.is_some_and(|p| !Role::PROMOTIONS.contains(&p)) {
        // Promotion to a king or a pawn.
        return MoveError::Illegal {
            text: text.into(),
            mv: None,
            reason: IllegalReason::InvalidPromotion,
        };
    }
    let mut reasons: Vec<(Move, IllegalReason)> = Vec::new();
    for from in pos.pieces(us, role) {
        if !origins.contains(from) {
            continue;
        }
        let m = if role == Role::Pawn && Some(to) == pos.ep_square() && from.file() != to.file() {
            Move::en_passant(from, to)
        } else if role == Role::King
            && from == king_home(us)
            && from.distance(to) == 2
            && from.rank() == to.rank()
        {
            Move::castle(from, to)
        } else {
            match promo {
                Some(p) => Move::promotion(from, to, p),
                None => Move::normal(from, to),
            }
        };
        if pos.is_legal(m) {
            // Legal but filtered (`Kg1` for castling): say it cannot reach.
            continue;
        }
        reasons.push((m, pos.illegal_reason(m)));
    }
    // Prefer the reasons of pieces that could reach the square.
    let reaching: Vec<_> = reasons
        .iter()
        .filter(|(_, r)| !matches!(r, IllegalReason::CannotReach(_)))
        .copied()
        .collect();
    let pick = if reaching.len() == 1 {
        Some(reaching[0])
    } else if reasons.len() == 1 {
        Some(reasons[0])
    } else if !reaching.is_empty() && reaching.iter().all(|(_, r)| *r == reaching[0].1) {
        return MoveError::Illegal {
            text: text.into(),
            mv: None,
            reason: reaching[0].1,
        };
    } else {
        None
    };
    match pick {
        Some((m, reason)) => MoveError::Illegal {
            text: text.into(),
            mv: Some(m),
            reason,
        },
        None => MoveError::NoCandidate {
            text: text.into(),
            role,
            to,
        },
    }
}

/// Why a text could not be read as a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Nothing to read.
    Empty,
    /// The text is not a move in any notation the reader knows (for example `Xz9`).
    Unknown {
        /// The text as given.
        text: String,
    },
    /// The text names a move, but it is not legal here.
    Illegal {
        /// The text as given.
        text: String,
        /// The move meant, when one piece could be identified.
        mv: Option<Move>,
        /// Why it is illegal.
        reason: IllegalReason,
    },
    /// No piece of that kind (matching the given origin) can go there.
    NoCandidate {
        /// The text as given.
        text: String,
        /// The kind of piece named.
        role: Role,
        /// The destination.
        to: Square,
    },
    /// More than one legal move fits the text.
    Ambiguous {
        /// The text as given.
        text: String,
        /// The moves that fit, each fully disambiguated.
        candidates: Vec<San>,
    },
    /// In [`SanLang::Auto`], the Spanish and English readings differ and both
    /// are legal.
    AmbiguousLanguage {
        /// The text as given.
        text: String,
        /// The Spanish reading.
        spanish: San,
        /// The English reading.
        english: San,
        /// The origin square of the Spanish reading.
        spanish_from: Square,
        /// The origin square of the English reading.
        english_from: Square,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn plain_reading_agrees_with_the_general_one() {
        // Pseudo-random games; at each position, every legal move written in
        // several ways (and some text that is not a move): whenever the plain
        // reading gives a move, the general reading gives the same one.
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for _ in 0..40 {
            let mut p = Position::new();
            for _ in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    for lang in [Lang::En, Lang::Es] {
                        let written = san(&p, m, lang);
                        let from = m.from().to_string();
                        let to = m.to().to_string();
                        let letter = written.chars().next().unwrap_or('a');
                        let mut texts = vec![
                            written.clone(),
                            written.trim_end_matches(['+', '#']).to_string(),
                            written.replace('x', ""),
                            format!("{written}+"),
                            format!("{from}{to}"),
                            format!("{from}x{to}"),
                            to.clone(),
                            format!("N{to}"),
                            format!("R{to}"),
                            format!("Ex{to}"),
                        ];
                        if letter.is_ascii_uppercase() {
                            texts.push(format!("{letter}{from}{to}"));
                            texts.push(format!("{letter}{}{to}", &from[..1]));
                            texts.push(format!("{letter}{}x{to}", &from[1..]));
                        }
                        for t in texts {
                            if let Some((quick, role)) = parse_san_plain(&p, t.as_bytes(), lang) {
                                assert_eq!(p.role_at(quick.from()), Some(role), "{t}");
                                let full = parse_san(&p, &t, lang.into());
                                assert_eq!(full, Ok(quick), "{t} in {}", p.to_fen());
                                checked += 1;
                            }
                        }
                    }
                }
                let m = moves[(next() % moves.len() as u64) as usize];
                p.play_unchecked(m);
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    fn parse(p: &Position, s: &str, l: SanLang) -> String {
        parse_san(p, s, l)
            .map(|m| m.to_string())
            .unwrap_or_else(|e| format!("{e:?}"))
    }

    #[test]
    fn writes_both_languages() {
        let p = Position::new();
        let m = Move::normal(Square::G1, Square::F3);
        assert_eq!(san(&p, m, Lang::En), "Nf3");
        assert_eq!(san(&p, m, Lang::Es), "Cf3");
        assert_eq!(
            san(&p, Move::normal(Square::E2, Square::E4), Lang::Es),
            "e4"
        );
        let c = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(
            san(&c, Move::castle(Square::E1, Square::G1), Lang::En),
            "O-O"
        );
        assert_eq!(
            san(&c, Move::castle(Square::E1, Square::C1), Lang::Es),
            "0-0-0"
        );
    }

    #[test]
    fn disambiguates_minimally() {
        // Knights on b1 and f3 both reach d2: file.
        let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert_eq!(
            san(&p, Move::normal(Square::B1, Square::D2), Lang::Es),
            "Cbd2"
        );
        // Rooks on a1 and a3 both reach a2: rank.
        let p = pos("4k3/8/8/8/8/R7/8/R3K3 w - - 0 1");
        assert_eq!(
            san(&p, Move::normal(Square::A1, Square::A2), Lang::Es),
            "T1a2"
        );
        // Queens on h4, e4, h1 reach e1: both.
        let p = pos("8/k7/8/8/4Q2Q/8/8/1K5Q w - - 0 1");
        assert_eq!(
            san(&p, Move::normal(Square::H4, Square::E1), Lang::Es),
            "Dh4e1"
        );
        assert_eq!(
            san(&p, Move::normal(Square::H4, Square::E1), Lang::En),
            "Qh4e1"
        );
        // A pinned knight does not count.
        let p = pos("4k3/4r3/8/8/8/5N2/4N3/4K3 w - - 0 1");
        assert_eq!(
            san(&p, Move::normal(Square::F3, Square::D4), Lang::En),
            "Nd4"
        );
    }

    #[test]
    fn writes_promotion_check_mate_and_en_passant() {
        let p = pos("7k/4P3/8/8/8/8/8/K7 w - - 0 1");
        let m = Move::promotion(Square::E7, Square::E8, Role::Queen);
        assert_eq!(san(&p, m, Lang::Es), "e8=D+");
        assert_eq!(san(&p, m, Lang::En), "e8=Q+");
        let p = pos("6k1/5ppp/8/8/8/8/8/K3R3 w - - 0 1");
        assert_eq!(
            san(&p, Move::normal(Square::E1, Square::E8), Lang::Es),
            "Te8#"
        );
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        let m = Move::en_passant(Square::E5, Square::D6);
        assert_eq!(san(&p, m, Lang::En), "exd6");
        assert_eq!(san_display(&p, m, Lang::Es), "exd6 a.p.");
    }

    #[test]
    fn reads_leniently() {
        let p = Position::new();
        for s in [
            "Cf3", "Cg1f3", "Cg1-f3", "♘f3", "Cf3!?", "Cf3+", "Cgf3", "C1f3", "Cg1xf3",
        ] {
            assert_eq!(parse(&p, s, SanLang::Es), "g1f3", "{s}");
        }
        for s in ["Nf3", "Ng1xf3", "Ng1-f3", "Nf3??", "N1f3"] {
            assert_eq!(parse(&p, s, SanLang::En), "g1f3", "{s}");
        }
        assert_eq!(parse(&p, "e4", SanLang::Auto), "e2e4");
        assert_eq!(parse(&p, "e2-e4", SanLang::Auto), "e2e4");
        let c = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for s in ["0-0", "O-O", "o-o", "0-0+", "OO"] {
            assert_eq!(parse(&c, s, SanLang::Es), "e1g1", "{s}");
        }
        assert_eq!(parse(&c, "0-0-0", SanLang::En), "e1c1");
        let p = pos("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
        for s in ["e8=D", "e8D", "e8(D)", "e8d", "e8=D+", "e8=♕"] {
            assert_eq!(parse(&p, s, SanLang::Es), "e7e8q", "{s}");
        }
        for s in ["exd8=C", "e:d8C", "ed8C", "exd8(c)"] {
            assert_eq!(parse(&p, s, SanLang::Es), "e7d8n", "{s}");
        }
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        for s in [
            "exd6",
            "exd6 a.p.",
            "exd6a.p.",
            "exd6 e.p.",
            "exd6ep",
            "e5d6",
            "exd6 a.p.+",
        ] {
            assert_eq!(parse(&p, s, SanLang::Auto), "e5d6", "{s}");
        }
    }

    #[test]
    fn auto_resolves_r_only_when_unambiguous() {
        // White king e1, rook h1: "Rf1" is Kf1 in Spanish and Rf1 in English.
        let p = pos("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        assert_eq!(parse(&p, "Rf1", SanLang::Es), "e1f1");
        assert_eq!(parse(&p, "Rf1", SanLang::En), "h1f1");
        match parse_san(&p, "Rf1", SanLang::Auto) {
            Err(MoveError::AmbiguousLanguage {
                spanish, english, ..
            }) => {
                assert_eq!(spanish.display(Lang::Es), "Rf1");
                assert_eq!(english.display(Lang::En), "Rf1");
                assert_eq!(
                    spanish.to_move(&p).map(|m| m.to_string()),
                    Ok("e1f1".into())
                );
                assert_eq!(
                    english.to_move(&p).map(|m| m.to_string()),
                    Ok("h1f1".into())
                );
            }
            other => panic!("{other:?}"),
        }
        // "Rd2": only the king can go there (the rook cannot): Spanish.
        assert_eq!(parse(&p, "Rd2", SanLang::Auto), "e1d2");
        // "Rh5": only the rook: English.
        assert_eq!(parse(&p, "Rh5", SanLang::Auto), "h1h5");
        // Letters of one language only.
        assert_eq!(parse(&p, "Th5", SanLang::Auto), "h1h5");
        assert_eq!(parse(&p, "Kd1", SanLang::Auto), "e1d1");
    }

    #[test]
    fn explains_errors() {
        let p = Position::new();
        assert_eq!(parse_san(&p, "", SanLang::Es), Err(MoveError::Empty));
        assert!(matches!(
            parse_san(&p, "Xz9", SanLang::Es),
            Err(MoveError::Unknown { .. })
        ));
        assert!(matches!(
            parse_san(&p, "Nf3", SanLang::Es),
            Err(MoveError::Unknown { .. })
        ));
        assert!(matches!(
            parse_san(&p, "Cf4", SanLang::Es),
            Err(MoveError::NoCandidate {
                role: Role::Knight,
                ..
            })
        ));
        assert!(matches!(
            parse_san(&p, "e5", SanLang::Es),
            Err(MoveError::Illegal {
                reason: IllegalReason::CannotReach(Role::Pawn),
                ..
            })
        ));
        // Pinned knight: the king would be left in check.
        let p = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
        match parse_san(&p, "Cc3", SanLang::Es) {
            Err(
                e @ MoveError::Illegal {
                    reason: IllegalReason::LeavesKingInCheck,
                    ..
                },
            ) => {
                assert!(e.to_string().contains("el rey quedaría en jaque"), "{e}");
            }
            other => panic!("{other:?}"),
        }
        // Two knights reach d2.
        let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        match parse_san(&p, "Cd2", SanLang::Es) {
            Err(MoveError::Ambiguous { candidates, .. }) => {
                let shown: Vec<String> = candidates.iter().map(|c| c.display(Lang::Es)).collect();
                assert_eq!(shown, vec!["Cbd2".to_string(), "Cfd2".to_string()]);
            }
            other => panic!("{other:?}"),
        }
        // Promotion without a piece.
        let p = pos("7k/4P3/8/8/8/8/8/K7 w - - 0 1");
        assert!(matches!(
            parse_san(&p, "e8", SanLang::Es),
            Err(MoveError::Illegal {
                reason: IllegalReason::PromotionRequired,
                ..
            })
        ));
        // Promotion to a king (R in Spanish): refused; in Auto, R is a rook.
        assert!(matches!(
            parse_san(&p, "e8=R", SanLang::Es),
            Err(MoveError::Illegal {
                reason: IllegalReason::InvalidPromotion,
                ..
            })
        ));
        assert_eq!(
            parse_san(&p, "e8=R", SanLang::Auto),
            Ok(Move::promotion(Square::E7, Square::E8, Role::Rook))
        );
        // Castling without the right.
        let p = pos("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        assert!(matches!(
            parse_san(&p, "0-0", SanLang::Es),
            Err(MoveError::Illegal {
                reason: IllegalReason::CastlingRightLost,
                ..
            })
        ));
    }
}
