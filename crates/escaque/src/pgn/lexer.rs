//! Symbols of the movetext: move text, NAG glyphs, results, null moves.

use crate::GameResult;

/// Bytes that end a symbol, as a table (this test runs for every byte of the
/// movetext).
const DELIMITERS: [bool; 256] = {
    let mut t = [false; 256];
    let list = b" \t\n\r\x0c{}();[]$";
    let mut i = 0;
    while i < list.len() {
        t[list[i] as usize] = true;
        i += 1;
    }
    t
};

#[inline]
pub(super) fn is_delimiter(b: u8) -> bool {
    DELIMITERS[b as usize]
}

pub(super) fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

pub(super) enum Sym {
    Result(Option<GameResult>),
    /// A move number, a lone `+`, an `a.p.`: nothing to do.
    Skip,
    Nag(u8),
    NullMove,
    /// SAN at bytes `a..b` of the symbol, with a NAG from its glyph suffix.
    San(usize, usize, Option<u8>),
    /// An Informant symbol standing where a NAG would (`+-`, `=`, `N`, …):
    /// read as that NAG, with a warning.
    Informant(u8),
    /// Two tokens written without the space the grammar does not require
    /// between them (`a5*`, `Qxf7#1-0`): only the first `n` bytes are this
    /// symbol; the rest is read as the next token.
    Glued(usize),
}

/// The NAG an Informant symbol stands for, as the PGN standard's NAG table
/// and ChessBase number them (`+-` $18, `N` $146, `RR` $145, …), and `D`,
/// the diagram Scid writes when it exports NAGs as symbols (Scid's $201).
pub(super) fn informant_nag(sym: &[u8]) -> Option<u8> {
    Some(match sym {
        b"=" => 10,
        b"+=" | b"+/=" => 14,
        b"=+" | b"=/+" => 15,
        b"+/-" => 16,
        b"-/+" => 17,
        b"+-" | b"+--" => 18,
        b"-+" | b"--+" => 19,
        b"N" => 146,
        b"RR" => 145,
        b"D" => 201,
        _ => {
            return match core::str::from_utf8(sym).ok()? {
                "□" => Some(7),
                "∞" => Some(13),
                "⩲" => Some(14),
                "⩱" => Some(15),
                "±" => Some(16),
                "∓" => Some(17),
                "⨀" | "⊙" => Some(22),
                "○" => Some(26),
                "⟳" => Some(32),
                "↑" => Some(36),
                "→" => Some(40),
                "⇆" => Some(132),
                "∆" | "Δ" => Some(140),
                "⌓" => Some(142),
                "=∞" => Some(44),
                _ => None,
            };
        }
    })
}

/// The length of a result written at the end of `body` with something before
/// it (`a5*`, `Qxf7#1-0`), or 0.
fn glued_result_len(body: &[u8]) -> usize {
    for r in [&b"1/2-1/2"[..], b"1-0", b"0-1", "½-½".as_bytes(), b"*"] {
        if body.len() > r.len() && body.ends_with(r) {
            // What comes before must end a move (`e4`, `Qxf7#`, `e8=Q`, `O-O`),
            // not be part of a longer result (`1/2-1-0`).
            let before = &body[..body.len() - r.len()];
            if !matches!(before.last(), Some(b'-' | b'/')) {
                return r.len();
            }
        }
    }
    0
}

/// The NAG of a suffix glyph (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
pub(super) fn glyph_nag(g: &[u8]) -> Option<u8> {
    Some(match g {
        b"!" => 1,
        b"?" => 2,
        b"!!" => 3,
        b"??" => 4,
        b"!?" => 5,
        b"?!" => 6,
        _ => {
            return match core::str::from_utf8(g).ok()? {
                "‼" => Some(3),
                "⁇" => Some(4),
                "⁉" => Some(5),
                "⁈" => Some(6),
                _ => None,
            }
        }
    })
}

pub(super) fn glyph_suffix_len(s: &[u8]) -> usize {
    let ascii = s
        .iter()
        .rev()
        .take_while(|&&b| b == b'!' || b == b'?')
        .count();
    if ascii > 0 {
        return ascii;
    }
    for g in ["‼", "⁇", "⁉", "⁈"] {
        if s.ends_with(g.as_bytes()) {
            return g.len();
        }
    }
    0
}

#[inline]
pub(super) fn classify(sym: &[u8]) -> Sym {
    // The common case first: a move such as `e4`, `Nf3`, `exd5` (not `a.p.+`,
    // which ends in a check mark: marks take the long way).
    if let [first, .., last] = sym {
        // (`Qxf7#0-1` ends in a digit too: a result glued to the move.)
        if matches!(first, b'a'..=b'h' | b'A'..=b'Z')
            && matches!(last, b'1'..=b'8')
            && sym[sym.len() - 2] != b'-'
        {
            return Sym::San(0, sym.len(), None);
        }
        // Next most common: a move number such as `12.` or `12...`.
        if first.is_ascii_digit() && *last == b'.' {
            let digits = sym.iter().take_while(|b| b.is_ascii_digit()).count();
            if sym[digits..].iter().all(|&b| b == b'.') {
                return Sym::Skip;
            }
        }
    }
    classify_other(sym)
}

/// [`classify`] past its common cases, kept out of line.
#[inline(never)]
fn classify_other(sym: &[u8]) -> Sym {
    match sym {
        b"1-0" => return Sym::Result(Some(GameResult::WhiteWins)),
        b"0-1" => return Sym::Result(Some(GameResult::BlackWins)),
        b"1/2-1/2" | [0xC2, 0xBD, b'-', 0xC2, 0xBD] => return Sym::Result(Some(GameResult::Draw)),
        b"*" => return Sym::Result(None),
        // Null moves as python-chess reads them: PGN's `--`, ChessBase's `Z0`,
        // and the coordinate forms `0000` and `@@@@`.
        b"--" | b"Z0" | b"0000" | b"@@@@" => return Sym::NullMove,
        _ => {}
    }
    // Dots apart from their move number (`1. ... Ba5`, `1. … Ba5`).
    if sym.iter().all(|&b| b == b'.') || sym == "\u{2026}".as_bytes() {
        return Sym::Skip;
    }
    let mut a = 0;
    let digits = sym.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == sym.len() {
        return Sym::Skip; // a move number without dots
    }
    if digits > 0 && sym[digits] == b'.' {
        a = digits + sym[digits..].iter().take_while(|&&b| b == b'.').count();
        if a == sym.len() {
            return Sym::Skip;
        }
    }
    let body = &sym[a..];
    // A null move after a move number (`3.--`, `12...Z0`).
    if matches!(body, b"--" | b"Z0" | b"0000" | b"@@@@") {
        return Sym::NullMove;
    }
    let glued = glued_result_len(body);
    if glued > 0 {
        return Sym::Glued(sym.len() - glued);
    }
    if let Some(n) = informant_nag(body) {
        return Sym::Informant(n);
    }
    let g = glyph_suffix_len(body);
    let nag = glyph_nag(&body[body.len() - g..]);
    let core = &body[..body.len() - g];
    let bare: &[u8] = {
        let mut c = core;
        while let [rest @ .., b'+' | b'#'] = c {
            c = rest;
        }
        c
    };
    if bare.is_empty() {
        return match nag {
            Some(n) => Sym::Nag(n),
            None => Sym::Skip,
        };
    }
    // `a.p.` after an en passant capture, with marks in any order after it.
    let tail = body
        .iter()
        .rev()
        .take_while(|b| matches!(b, b'+' | b'#' | b'!' | b'?'))
        .count();
    let ep_core = &body[..body.len() - tail];
    if [&b"a.p."[..], b"e.p.", b"a.p", b"e.p"]
        .iter()
        .any(|s| ep_core.eq_ignore_ascii_case(s))
    {
        let marks: Vec<u8> = body[body.len() - tail..]
            .iter()
            .copied()
            .filter(|b| matches!(b, b'!' | b'?'))
            .collect();
        return match glyph_nag(&marks) {
            Some(n) => Sym::Nag(n),
            None => Sym::Skip,
        };
    }
    Sym::San(a, a + body.len() - g, nag)
}

/// Windows-1252's characters for bytes 0x80..=0x9F (None where it has none);
/// from 0xA0 it is Latin-1, the byte's own code point.
const CP1252_HIGH: [Option<char>; 32] = [
    Some('€'),
    None,
    Some('‚'),
    Some('ƒ'),
    Some('„'),
    Some('…'),
    Some('†'),
    Some('‡'),
    Some('ˆ'),
    Some('‰'),
    Some('Š'),
    Some('‹'),
    Some('Œ'),
    None,
    Some('Ž'),
    None,
    None,
    Some('‘'),
    Some('’'),
    Some('“'),
    Some('”'),
    Some('•'),
    Some('–'),
    Some('—'),
    Some('˜'),
    Some('™'),
    Some('š'),
    Some('›'),
    Some('œ'),
    None,
    Some('ž'),
    Some('Ÿ'),
];

/// Text of a tag value or a comment: UTF-8 as it should be, or else, as
/// ChessBase, Scid and older Windows programs write it, Windows-1252 (Latin-1
/// with a few more letters); the flag says the second was needed.
pub(super) fn decode_text(b: &[u8]) -> (std::borrow::Cow<'_, str>, bool) {
    match core::str::from_utf8(b) {
        Ok(s) => (std::borrow::Cow::Borrowed(s), false),
        Err(_) => {
            let s = b
                .iter()
                .map(|&c| match c {
                    0x80..=0x9F => CP1252_HIGH[usize::from(c - 0x80)].unwrap_or('\u{FFFD}'),
                    _ => char::from(c),
                })
                .collect();
            (std::borrow::Cow::Owned(s), true)
        }
    }
}
