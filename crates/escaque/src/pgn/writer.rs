//! The writer: the PGN export format, or a Spanish rendering.

use crate::san::{write_san, SanStyle};
use crate::{Color, Lang, Position};

use super::model::{Node, PgnGame};

/// How to write a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PgnStyle {
    /// The notation of the moves.
    pub lang: Lang,
    /// Write NAGs 1 to 6 as glyphs after the move (`e4!?`) instead of `$n`.
    pub glyphs: bool,
    /// Add ` a.p.` after en passant captures (Spanish display).
    pub en_passant_suffix: bool,
}

impl PgnStyle {
    /// The PGN export format: English SAN, NAGs as `$n`.
    pub const fn export() -> PgnStyle {
        PgnStyle {
            lang: Lang::En,
            glyphs: false,
            en_passant_suffix: false,
        }
    }

    /// Spanish rendering for display and printing: Spanish letters, `0-0`,
    /// `a.p.`, glyphs `!`, `?`, `!!`, `??`, `!?`, `?!`.
    pub const fn spanish() -> PgnStyle {
        PgnStyle {
            lang: Lang::Es,
            glyphs: true,
            en_passant_suffix: true,
        }
    }
}

/// The tags the export format puts first, in this order (the Seven Tag Roster),
/// with the value used when a game lacks one.
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The longest line the writer produces (the export format asks for fewer than
/// 80 columns), but for a comment holding `}`, which is written whole to the
/// end of its line.
pub const MAX_LINE: usize = 79;

struct Tokens {
    out: String,
    line_len: usize,
    open: usize,
}

impl Tokens {
    fn push(&mut self, tok: &str) {
        let len = tok.chars().count() + self.open;
        if self.line_len > 0 {
            if self.line_len + 1 + len > MAX_LINE {
                self.out.push('\n');
                self.line_len = 0;
            } else {
                self.out.push(' ');
                self.line_len += 1;
            }
        }
        if self.line_len == 0 && self.open == 0 && tok.starts_with('%') {
            // A line starting with `%` is an escape line, which readers skip
            // (PGN 6): a comment's word starting with `%` is indented.
            self.out.push(' ');
            self.line_len = 1;
        }
        for _ in 0..self.open {
            self.out.push('(');
        }
        self.open = 0;
        self.out.push_str(tok);
        self.line_len += len;
    }

    fn close(&mut self) {
        if self.line_len + 1 > MAX_LINE {
            self.out.push('\n');
            self.line_len = 0;
        }
        self.out.push(')');
        self.line_len += 1;
    }

    fn comment(&mut self, text: &str) {
        if text.contains('}') {
            // A brace comment cannot hold `}` (it would end there): written
            // as a comment to the end of the line (PGN 8.2.5), which can, and
            // the line ends after it. Its text is kept whole, even where that
            // makes the line longer than MAX_LINE (Arena's and TCEC's
            // `; GameDuration = …, Finalposition … }` after the result).
            let words: Vec<&str> = text.split_whitespace().collect();
            self.push(&format!(";{}", words.join(" ")));
            self.out.push('\n');
            self.line_len = 0;
            return;
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() {
            self.push("{}");
            return;
        }
        let n = words.len();
        for (i, w) in words.iter().enumerate() {
            let mut tok = String::new();
            if i == 0 {
                tok.push('{');
            }
            tok.push_str(w);
            if i == n - 1 {
                tok.push('}');
            }
            self.push(&tok);
        }
    }
}

/// Writes `game` to `out` in `style`, followed by an empty line.
pub fn write_game(out: &mut String, game: &PgnGame, style: PgnStyle) {
    // The tag and the movetext's marker are written as read, even when they
    // disagree (the reader warned): nothing is rewritten silently.
    let result = game.result_text();
    for (name, default) in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => Some(game.result_tag_text()),
            _ => game.tag(name),
        };
        write_tag(out, name, value.unwrap_or(default));
    }
    for (name, value) in &game.tags {
        if !SEVEN_TAG_ROSTER.iter().any(|(n, _)| n == name) {
            write_tag(out, name, value);
        }
    }
    out.push('\n');
    let mut toks = Tokens {
        out: String::new(),
        line_len: 0,
        open: 0,
    };
    for c in &game.comments {
        toks.comment(c);
    }
    write_line(&mut toks, game.start, &game.moves, style);
    toks.push(result);
    out.push_str(&toks.out);
    out.push_str("\n\n");
}

/// A game written in `style`.
pub fn write_game_string(game: &PgnGame, style: PgnStyle) -> String {
    let mut s = String::new();
    write_game(&mut s, game, style);
    s
}

fn write_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        if c != '\n' && c != '\r' {
            out.push(c);
        }
    }
    out.push_str("\"]\n");
}

fn write_line(toks: &mut Tokens, start: Position, line: &[Node], style: PgnStyle) {
    let mut pos = start;
    let mut need_number = true;
    let san_style = SanStyle {
        lang: style.lang,
        check_marks: true,
        en_passant_suffix: style.en_passant_suffix,
    };
    let mut san = String::with_capacity(16);
    for node in line {
        for c in &node.comments_before {
            toks.comment(c);
            need_number = true;
        }
        for n in &node.nags_before {
            toks.push(&format!("${n}"));
            need_number = true;
        }
        if pos.turn() == Color::White {
            toks.push(&format!("{}.", pos.fullmove_number()));
        } else if need_number {
            toks.push(&format!("{}...", pos.fullmove_number()));
        }
        san.clear();
        write_san(&mut san, &pos, node.mv, san_style);
        let mut nags = node.nags.as_slice();
        if style.glyphs {
            if let Some((&first, rest)) = nags.split_first() {
                if let Some(g) = nag_glyph(first) {
                    san.push_str(g);
                    nags = rest;
                }
            }
        }
        toks.push(&san);
        for n in nags {
            toks.push(&format!("${n}"));
        }
        need_number = false;
        if let Some(ms) = node.clock_ms {
            let mut c = format!(
                "[%clk {}]",
                crate::clock::format_hms(core::time::Duration::from_millis(ms))
            );
            if let Some(first) = node.comments.first() {
                // Back in its place (`[%eval 0.2] [%clk 0:03:00]`), or first.
                match first.get(..node.clock_at).filter(|_| node.clock_at > 0) {
                    Some(before) => {
                        let after = first[node.clock_at..].trim();
                        c = if after.is_empty() {
                            format!("{} {c}", before.trim())
                        } else {
                            format!("{} {c} {after}", before.trim())
                        };
                    }
                    None => {
                        c.push(' ');
                        c.push_str(first);
                    }
                }
            }
            toks.comment(&c);
            for c in node.comments.iter().skip(1) {
                toks.comment(c);
            }
            need_number = true;
        } else {
            for c in &node.comments {
                toks.comment(c);
                need_number = true;
            }
        }
        for var in &node.variations {
            toks.open += 1;
            write_line(toks, pos, var, style);
            toks.close();
            need_number = true;
        }
        pos.play_recorded(node.mv);
    }
}

fn nag_glyph(n: u8) -> Option<&'static str> {
    Some(match n {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        6 => "?!",
        _ => return None,
    })
}
