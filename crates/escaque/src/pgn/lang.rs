//! Which notation (Spanish or English letters) a game's movetext is in.

use crate::Lang;

use super::lexer::is_delimiter;

/// The notation of the first symbol in `text` whose piece letter (or
/// promotion letter after `=`) belongs to only one notation; comments skipped.
pub(super) fn scan_language(text: &[u8]) -> Option<Lang> {
    let mut in_comment = false;
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if in_comment {
            in_comment = b != b'}';
            i += 1;
            continue;
        }
        if b == b'{' {
            in_comment = true;
            i += 1;
            continue;
        }
        if is_delimiter(b) {
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len() && !is_delimiter(text[i]) {
            i += 1;
        }
        let sym = &text[start..i];
        let digits = sym
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == b'.')
            .count();
        let body = &sym[digits..];
        let letter_lang = |c: u8| match c {
            b'N' | b'B' | b'Q' | b'K' => Some(Lang::En),
            b'C' | b'A' | b'D' | b'T' => Some(Lang::Es),
            _ => None,
        };
        if let Some(l) = body.first().and_then(|&c| letter_lang(c)) {
            return Some(l);
        }
        if let Some(p) = body.iter().position(|&c| c == b'=') {
            if let Some(l) = body.get(p + 1).and_then(|&c| letter_lang(c)) {
                return Some(l);
            }
        }
    }
    None
}
