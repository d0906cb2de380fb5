//! The streaming reader: lines, tokens, tags and movetext, each move
//! replayed as it is read.

use std::io::{BufRead, BufReader, Read};

use crate::read::{read_any, read_plain, MoveError};
use crate::san::SanLang;
use crate::{CastlingMode, Lang, Move, Position};

use super::error::{PgnError, PgnErrorKind, PgnWarning, PgnWarningKind};
use super::lang::scan_language;
use super::lexer::{classify, collapse_whitespace, decode_text, is_delimiter, Sym};
use super::model::{GameBuilder, PgnGame};
use super::visitor::{VariationAction, Visitor};
use super::MAX_VARIATION_DEPTH;

/// Options for [`PgnReader`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ReaderOptions {
    /// The notation of the movetext: Spanish, English, or Auto (detected per
    /// game from the first move whose letters belong to one notation only).
    pub notation: SanLang,
}

impl Default for ReaderOptions {
    fn default() -> ReaderOptions {
        ReaderOptions {
            notation: SanLang::Auto,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Tok {
    Eof,
    /// A `[` (not consumed).
    TagStart,
    /// A comment; its text is in `comment`.
    Comment,
    Open,
    Close,
    Nag(u8),
    /// A symbol: bytes `start..end` of the current line.
    Symbol(usize, usize),
}

#[derive(Copy, Clone)]
struct Frame {
    before: Position,
    current: Position,
    has_move: bool,
}

/// Reads games one after another from any [`Read`].
pub struct PgnReader<R: Read> {
    src: BufReader<R>,
    line: Vec<u8>,
    pos: usize,
    /// Number of the line in `line`, from 1 (0 before the first).
    line_no: usize,
    eof: bool,
    first_line: bool,
    game_no: usize,
    comment: String,
    tag_value: Vec<u8>,
    opts: ReaderOptions,
    game_lang: Option<Lang>,
    /// Variations open when the game failed (for skipping the rest of it).
    open_depth: usize,
    /// Comments read after a game's result that turned out to come before
    /// the next game's first move: they go to that game.
    carried: Vec<String>,
    /// Where the current game's first text that is not UTF-8 was read (a
    /// tag value or a comment, read as Windows-1252), until it is reported.
    legacy_text: Option<(usize, usize)>,
    /// The game whose text was last reported as not UTF-8.
    legacy_warned: usize,
    /// The names of the current game's tags, each followed by a space.
    tag_names: Vec<u8>,
}

/// The result of reading one game: where it was going wrong, if it was.
type Step<T> = Result<T, (usize, usize, PgnErrorKind)>;

impl<R: Read> PgnReader<R> {
    /// A reader with default options (notation detected per game).
    pub fn new(src: R) -> PgnReader<R> {
        PgnReader::with_options(src, ReaderOptions::default())
    }

    /// A reader with `opts`.
    pub fn with_options(src: R, opts: ReaderOptions) -> PgnReader<R> {
        PgnReader {
            src: BufReader::with_capacity(64 * 1024, src),
            line: Vec::with_capacity(256),
            pos: 0,
            line_no: 0,
            eof: false,
            first_line: true,
            game_no: 0,
            comment: String::new(),
            tag_value: Vec::new(),
            legacy_text: None,
            legacy_warned: 0,
            tag_names: Vec::new(),
            opts,
            game_lang: None,
            open_depth: 0,
            carried: Vec::new(),
        }
    }

    /// Reads the next game into a [`PgnGame`]; `None` at the end of the input.
    pub fn next_game(&mut self) -> Option<Result<PgnGame, PgnError>> {
        let mut b = GameBuilder::new();
        self.read_game(&mut b)
    }

    /// Reads the next game into a [`PgnGame`]; on error, also gives what was read
    /// of that game before the error.
    pub fn next_game_partial(&mut self) -> Option<Result<PgnGame, (PgnError, PgnGame)>> {
        let mut b = GameBuilder::new();
        match self.read_game(&mut b)? {
            Ok(g) => Some(Ok(g)),
            Err(e) => Some(Err((e, b.partial()))),
        }
    }

    /// Reads the next game through `visitor`; `None` at the end of the input.
    /// After an error the rest of the failed game is skipped, so the next call
    /// reads the game after it.
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Option<Result<V::Output, PgnError>> {
        match self.skip_blank() {
            Ok(true) => {}
            Ok(false) => return None,
            Err((line, column, kind)) => {
                self.game_no += 1;
                self.eof = true;
                return Some(Err(PgnError {
                    game: self.game_no,
                    line,
                    column,
                    kind,
                }));
            }
        }
        self.game_no += 1;
        self.game_lang = match self.opts.notation {
            SanLang::Es => Some(Lang::Es),
            SanLang::En => Some(Lang::En),
            SanLang::Auto => None,
        };
        visitor.begin_game();
        let mut in_movetext = false;
        self.open_depth = 0;
        match self.read_body(visitor, &mut in_movetext) {
            Ok(()) => Some(Ok(visitor.end_game())),
            Err((line, column, kind)) => {
                self.carried.clear();
                self.skip_rest(in_movetext, self.open_depth);
                Some(Err(PgnError {
                    game: self.game_no,
                    line,
                    column,
                    kind,
                }))
            }
        }
    }

    /// Reads a line into `line`; false at the end of the input.
    fn next_line(&mut self) -> Step<bool> {
        if self.eof {
            return Ok(false);
        }
        self.line.clear();
        self.pos = 0;
        match self.src.read_until(b'\n', &mut self.line) {
            Ok(0) => {
                self.eof = true;
                Ok(false)
            }
            Ok(_) => {
                self.line_no += 1;
                if self.first_line {
                    self.first_line = false;
                    if self.line.starts_with(&[0xEF, 0xBB, 0xBF]) {
                        self.pos = 3;
                    }
                }
                if self.line.get(self.pos) == Some(&b'%') {
                    // Escape line: ignored.
                    self.pos = self.line.len();
                }
                Ok(true)
            }
            Err(e) => {
                self.eof = true;
                Err((self.line_no + 1, 1, PgnErrorKind::Io(e.to_string())))
            }
        }
    }

    fn column(&self, byte: usize) -> usize {
        let b = byte.min(self.line.len());
        String::from_utf8_lossy(&self.line[..b]).chars().count() + 1
    }

    fn here(&self) -> (usize, usize) {
        (self.line_no, self.column(self.pos))
    }

    /// Skips whitespace and empty lines; false at the end of the input.
    fn skip_blank(&mut self) -> Step<bool> {
        loop {
            while let Some(&c) = self.line.get(self.pos) {
                if c.is_ascii_whitespace() {
                    self.pos += 1;
                } else {
                    return Ok(true);
                }
            }
            if !self.next_line()? {
                return Ok(false);
            }
        }
    }

    #[inline]
    fn next_token(&mut self) -> Step<(Tok, usize)> {
        // The common case: a move or a move number further along the line,
        // after spaces, not followed by `(`.
        let mut i = self.pos;
        while self.line.get(i) == Some(&b' ') {
            i += 1;
        }
        if self.line.get(i).is_some_and(u8::is_ascii_alphanumeric) {
            let end = i + self.line[i..]
                .iter()
                .take_while(|&&b| !is_delimiter(b))
                .count();
            if self.line.get(end) != Some(&b'(') {
                self.pos = end;
                return Ok((Tok::Symbol(i, end), i));
            }
        }
        self.next_token_other()
    }

    /// [`Self::next_token`] in general.
    #[inline(never)]
    fn next_token_other(&mut self) -> Step<(Tok, usize)> {
        if !self.skip_blank()? {
            return Ok((Tok::Eof, self.pos));
        }
        let start = self.pos;
        let c = self.line[start];
        let tok = match c {
            b'[' => return Ok((Tok::TagStart, start)),
            b'{' => {
                let (l, col) = self.here();
                self.comment.clear();
                self.pos += 1;
                loop {
                    let rest = &self.line[self.pos..];
                    if let Some(i) = rest.iter().position(|&b| b == b'}') {
                        let (text, legacy) = decode_text(&rest[..i]);
                        self.comment.push_str(&text);
                        if legacy && self.legacy_text.is_none() {
                            self.legacy_text = Some((l, col));
                        }
                        self.pos += i + 1;
                        break;
                    }
                    let (text, legacy) = decode_text(rest);
                    self.comment.push_str(&text);
                    if legacy && self.legacy_text.is_none() {
                        self.legacy_text = Some((l, col));
                    }
                    self.comment.push(' ');
                    self.pos = self.line.len();
                    // A comment runs across lines; escape lines do not apply in it,
                    // but `next_line` only skips them at their first byte, which
                    // is harmless here.
                    if !self.next_line()? {
                        return Err((l, col, PgnErrorKind::UnclosedComment));
                    }
                }
                Tok::Comment
            }
            b';' => {
                self.comment.clear();
                let (text, legacy) = decode_text(&self.line[start + 1..]);
                self.comment.push_str(&text);
                if legacy && self.legacy_text.is_none() {
                    self.legacy_text = Some((self.line_no, self.column(start)));
                }
                self.pos = self.line.len();
                Tok::Comment
            }
            b'(' => {
                self.pos += 1;
                Tok::Open
            }
            b')' => {
                self.pos += 1;
                Tok::Close
            }
            b'$' => {
                let digits = self.line[start + 1..]
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                self.pos = start + 1 + digits;
                let text = core::str::from_utf8(&self.line[start + 1..self.pos]).unwrap_or("");
                match text.parse::<u8>() {
                    Ok(n) => Tok::Nag(n),
                    // `$` without a number, or beyond 255: not a NAG; read as a symbol.
                    Err(_) => Tok::Symbol(start, self.pos),
                }
            }
            _ => {
                let len = self.line[start..]
                    .iter()
                    .take_while(|&&b| !is_delimiter(b))
                    .count()
                    .max(1);
                self.pos = start + len;
                // A promotion written `e8(D)`: one letter in parentheses is never a
                // variation, so it belongs to the move.
                if let [b'(', c, b')', ..] = self.line[self.pos..] {
                    if c.is_ascii_alphabetic() {
                        self.pos += 3;
                    }
                }
                Tok::Symbol(start, self.pos)
            }
        };
        Ok((tok, start))
    }

    /// Reads a tag pair at `pos` (a `[`).
    /// Reads a tag pair at `pos` (a `[`): the name's byte range in the line,
    /// and the value (unescaped) into `tag_value`.
    /// The leniency, if any: unescaped quotes inside the value (read up to the
    /// quote before `]`), or a backslash ending it (read as itself).
    fn read_tag(&mut self) -> Step<(usize, usize, TagLeniency)> {
        let start = self.pos;
        let bad = |r: &Self| (r.line_no, r.column(start), PgnErrorKind::BadTag);
        let line = &self.line;
        let mut i = self.pos + 1;
        let skip_ws = |i: &mut usize| {
            while line.get(*i).is_some_and(|b| b.is_ascii_whitespace()) {
                *i += 1;
            }
        };
        skip_ws(&mut i);
        let name_start = i;
        while line
            .get(i)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            i += 1;
        }
        let name_end = i;
        if name_end == name_start {
            return Err(bad(self));
        }
        skip_ws(&mut i);
        if line.get(i) != Some(&b'"') {
            return Err(bad(self));
        }
        i += 1;
        let value_start = i;
        self.tag_value.clear();
        loop {
            match self.line.get(i) {
                None | Some(b'\n') => {
                    // The line ended inside the value. A value ending in a
                    // backslash (`[Event "Tournament \"]`): read the backslash
                    // as itself, the value ending at the quote before `]`
                    // (the first `\"]` on the line, anything after it but
                    // blanks making it no tag).
                    let rest = &self.line[value_start..];
                    let Some(k) = rest.windows(3).position(|w| w == b"\\\"]") else {
                        return Err(bad(self));
                    };
                    let close = value_start + k + 1;
                    if !self.line[close + 2..]
                        .iter()
                        .all(|b| b.is_ascii_whitespace())
                    {
                        return Err(bad(self));
                    }
                    self.tag_value.clear();
                    self.tag_value
                        .extend_from_slice(&self.line[value_start..close]);
                    self.pos = close + 2;
                    return Ok((name_start, name_end, TagLeniency::TrailingBackslash));
                }
                Some(b'\\') if matches!(self.line.get(i + 1), Some(b'"' | b'\\')) => {
                    self.tag_value.push(self.line[i + 1]);
                    i += 2;
                }
                Some(b'"') => {
                    i += 1;
                    break;
                }
                Some(&b) => {
                    self.tag_value.push(b);
                    i += 1;
                }
            }
        }
        let mut j = i;
        while self.line.get(j).is_some_and(|b| b.is_ascii_whitespace()) {
            j += 1;
        }
        if self.line.get(j) == Some(&b']') {
            self.pos = j + 1;
            return Ok((name_start, name_end, TagLeniency::None));
        }
        // Quotes inside the value that are not escaped (`[White ""Socrates
        // Expert""]`, `[Site "Somewhere " else"]`): the value runs to the next
        // quote that closes the tag, `"]`, on this line.
        let rest = &self.line[i..];
        let Some(k) = rest.windows(2).position(|w| w == b"\"]") else {
            return Err(bad(self));
        };
        let close = i + k;
        self.tag_value.clear();
        self.tag_value
            .extend_from_slice(&self.line[value_start..close]);
        self.pos = close + 2;
        Ok((name_start, name_end, TagLeniency::UnescapedQuotes))
    }

    /// Reports, once per game, text that was not UTF-8 (read as
    /// Windows-1252).
    fn report_legacy_text<V: Visitor>(&mut self, v: &mut V) {
        if let Some((line, column)) = self.legacy_text.take() {
            if self.legacy_warned != self.game_no {
                self.legacy_warned = self.game_no;
                v.warning(&PgnWarning {
                    game: self.game_no,
                    line,
                    column,
                    kind: PgnWarningKind::NotUtf8,
                });
            }
        }
    }

    /// True when the tag starting at byte `start` (a `[`) names a tag this
    /// game already has.
    fn repeats_a_tag(&self, start: usize) -> bool {
        let rest = &self.line[start + 1..];
        let from = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let len = rest[from..]
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
            .count();
        let name = &rest[from..from + len];
        !name.is_empty() && self.tag_names.split(|&b| b == b' ').any(|n| n == name)
    }

    fn read_body<V: Visitor>(&mut self, v: &mut V, in_movetext: &mut bool) -> Step<()> {
        let mut fen: Option<(String, usize, usize)> = None;
        let mut chess960 = false;
        let mut result_tag: Option<String> = None;
        let mut stack: Vec<Frame> = Vec::new();
        // The line of the last tag read, and the names read so far.
        let mut last_tag_line = 0;
        self.tag_names.clear();
        loop {
            let (tok, start) = self.next_token()?;
            self.report_legacy_text(v);
            // The column is worked out only when needed (an error, a FEN tag).
            let line = self.line_no;
            if tok == Tok::TagStart {
                if *in_movetext {
                    // The next game starts without this one having a result.
                    break;
                }
                if last_tag_line > 0 && line > last_tag_line + 1 && self.repeats_a_tag(start) {
                    // A tag section of its own after a blank line, naming a
                    // tag again: the next game (a tags-only export, such as
                    // lichess's without moves: each game is its tags).
                    break;
                }
                let (a, b, lenient) = self.read_tag()?;
                last_tag_line = line;
                self.tag_names.extend_from_slice(&self.line[a..b]);
                self.tag_names.push(b' ');
                // The name is ASCII (letters, digits, `_`, `-`).
                let name = core::str::from_utf8(&self.line[a..b]).unwrap_or("");
                let (value, legacy) = decode_text(&self.tag_value);
                let value = value.into_owned();
                if legacy && self.legacy_text.is_none() {
                    self.legacy_text = Some((line, self.column(start)));
                }
                if name == "FEN" {
                    fen = Some((value.to_string(), line, self.column(start)));
                } else if name == "Variant" {
                    match variant_kind(&value) {
                        VariantKind::Standard => chess960 = false,
                        VariantKind::Chess960 => chess960 = true,
                        VariantKind::Unsupported => {
                            return Err((
                                line,
                                self.column(start),
                                PgnErrorKind::UnsupportedVariant(value.trim().to_string()),
                            ))
                        }
                    }
                } else if name == "Result" {
                    result_tag = Some(value.trim().to_string());
                }
                let kind = match lenient {
                    TagLeniency::None => None,
                    TagLeniency::UnescapedQuotes => Some(PgnWarningKind::UnescapedQuotes {
                        name: name.to_string(),
                    }),
                    TagLeniency::TrailingBackslash => Some(PgnWarningKind::TrailingBackslash {
                        name: name.to_string(),
                    }),
                };
                if let Some(kind) = kind {
                    let w = PgnWarning {
                        game: self.game_no,
                        line,
                        column: self.column(start),
                        kind,
                    };
                    v.warning(&w);
                }
                v.tag(name, &value);
                continue;
            }
            if tok == Tok::Eof {
                break;
            }
            if !*in_movetext {
                *in_movetext = true;
                let start_pos = start_position(&fen, chess960)?;
                v.start(&start_pos);
                stack.push(Frame {
                    before: start_pos,
                    current: start_pos,
                    has_move: false,
                });
                for c in std::mem::take(&mut self.carried) {
                    v.comment(&c);
                }
            }
            let depth = stack.len();
            let Some(top) = stack.last_mut() else {
                break;
            };
            match tok {
                Tok::Eof | Tok::TagStart => break,
                Tok::Comment => {
                    let text = collapse_whitespace(&self.comment);
                    v.comment(&text);
                }
                Tok::Nag(n) => {
                    if top.has_move {
                        v.nag(n);
                    } else {
                        v.nag_before(n);
                    }
                }
                Tok::Open => {
                    if !top.has_move {
                        return Err((line, self.column(start), PgnErrorKind::VariationWithoutMove));
                    }
                    if depth > MAX_VARIATION_DEPTH {
                        return Err((line, self.column(start), PgnErrorKind::TooDeep));
                    }
                    match v.begin_variation() {
                        VariationAction::Enter => {
                            let before = top.before;
                            stack.push(Frame {
                                before,
                                current: before,
                                has_move: false,
                            });
                            self.open_depth = stack.len() - 1;
                        }
                        VariationAction::Skip => self.skip_variation(line, self.column(start))?,
                    }
                }
                Tok::Close => {
                    if depth < 2 {
                        return Err((line, self.column(start), PgnErrorKind::UnmatchedClose));
                    }
                    stack.pop();
                    self.open_depth = stack.len() - 1;
                    v.end_variation();
                }
                Tok::Symbol(s, mut e) => {
                    let mut sym = classify(&self.line[s..e]);
                    while let Sym::Glued(n) = sym {
                        // Only the first `n` bytes are this token (`a5` of
                        // `a5*`): the rest is read as the next one.
                        e = s + n;
                        self.pos = e;
                        sym = classify(&self.line[s..e]);
                    }
                    match sym {
                        Sym::Glued(_) => {}
                        Sym::Result(r) => {
                            if depth > 1 {
                                return Err((
                                    line,
                                    self.column(start),
                                    PgnErrorKind::UnclosedVariation,
                                ));
                            }
                            let tag_result =
                                result_tag.as_deref().and_then(crate::GameResult::from_pgn);
                            if let (None, false, Some(tagged)) = (r, top.has_move, tag_result) {
                                // No moves and only `*`: a round file published
                                // before the games were entered. The tag is what
                                // the writer meant; say so, and let it stand.
                                let w = PgnWarning {
                                    game: self.game_no,
                                    line,
                                    column: self.column(start),
                                    kind: PgnWarningKind::ResultFromTag {
                                        tag: tagged.pgn().to_string(),
                                    },
                                };
                                v.warning(&w);
                                v.result(Some(tagged));
                                self.after_result(v);
                                return Ok(());
                            }
                            if let Some(tag) = &result_tag {
                                let marker = r.map_or("*", crate::GameResult::pgn);
                                let tag_known =
                                    tag == "*" || crate::GameResult::from_pgn(tag).is_some();
                                let same = crate::GameResult::from_pgn(tag) == r
                                    && (tag == "*") == r.is_none();
                                if tag_known && !same {
                                    let w = PgnWarning {
                                        game: self.game_no,
                                        line,
                                        column: self.column(start),
                                        kind: PgnWarningKind::ResultMismatch {
                                            tag: tag.clone(),
                                            movetext: marker.to_string(),
                                        },
                                    };
                                    v.warning(&w);
                                }
                            }
                            v.result(r);
                            self.after_result(v);
                            return Ok(());
                        }
                        Sym::Skip => {}
                        Sym::Nag(n) => {
                            if top.has_move {
                                v.nag(n);
                            } else {
                                v.nag_before(n);
                            }
                        }
                        Sym::Informant(n) => {
                            let w = PgnWarning {
                                game: self.game_no,
                                line,
                                column: self.column(start),
                                kind: PgnWarningKind::InformantSymbol {
                                    text: String::from_utf8_lossy(&self.line[s..e]).into_owned(),
                                    nag: n,
                                },
                            };
                            v.warning(&w);
                            if top.has_move {
                                v.nag(n);
                            } else {
                                v.nag_before(n);
                            }
                        }
                        Sym::NullMove => {
                            // The side to move passes: kept in the tree as
                            // `Move::NULL`, written back as `--`.
                            let Some(next) = top.current.null_move() else {
                                return Err((
                                    line,
                                    self.column(start),
                                    PgnErrorKind::NullMoveInCheck,
                                ));
                            };
                            v.mv(&top.current, Move::NULL);
                            top.before = top.current;
                            top.current = next;
                            top.has_move = true;
                        }
                        Sym::San(a, b, nag) => {
                            let bytes = &self.line[s + a..s + b];
                            // The common case: plain SAN in a known notation (or a
                            // pawn move, which reads the same in both), one legal move.
                            let plain_lang = self.game_lang.or_else(|| {
                                bytes
                                    .first()
                                    .is_some_and(u8::is_ascii_lowercase)
                                    .then_some(Lang::En)
                            });
                            if let Some((m, role)) =
                                plain_lang.and_then(|l| read_plain(&top.current, bytes, l))
                            {
                                v.mv(&top.current, m);
                                top.before = top.current;
                                top.current.play_moving(m, role);
                                top.has_move = true;
                                if let Some(n) = nag {
                                    v.nag(n);
                                }
                                continue;
                            }
                            let text = match core::str::from_utf8(bytes) {
                                Ok(t) => std::borrow::Cow::Borrowed(t),
                                Err(_) => String::from_utf8_lossy(bytes),
                            };
                            let lang = self.game_lang.map_or(SanLang::Auto, SanLang::from);
                            let parsed = match read_any(&top.current, &text, lang) {
                                Err(MoveError::AmbiguousLanguage { .. })
                                    if self.game_lang.is_none() =>
                                {
                                    // Look ahead in this game for a move whose letters
                                    // belong to one notation only, and read with it.
                                    match self.lookahead_language(e) {
                                        Some(l) => {
                                            self.game_lang = Some(l);
                                            read_any(&top.current, &text, l.into())
                                        }
                                        None => read_any(&top.current, &text, lang),
                                    }
                                }
                                other => other,
                            };
                            let (m, shown) = parsed
                                .map_err(|e| (line, self.column(start), PgnErrorKind::San(e)))?;
                            if self.game_lang.is_none() {
                                self.game_lang = shown;
                            }
                            v.mv(&top.current, m);
                            top.before = top.current;
                            top.current.play_unchecked(m);
                            top.has_move = true;
                            if let Some(n) = nag {
                                v.nag(n);
                            }
                        }
                    }
                }
            }
        }
        if stack.len() > 1 {
            let (l, c) = self.here();
            return Err((l, c, PgnErrorKind::UnclosedVariation));
        }
        if !*in_movetext {
            // A game of tags only: its movetext is empty.
            let start_pos = start_position(&fen, chess960)?;
            v.start(&start_pos);
        }
        Ok(())
    }

    /// The notation shown by the first move, after byte `from` of the current
    /// line and in the input already buffered, whose piece or promotion letter
    /// belongs to one notation only; the search stops at the next tag section.
    fn lookahead_language(&self, from: usize) -> Option<Lang> {
        let rest = self.line.get(from..).unwrap_or(&[]);
        scan_language(rest).or_else(|| {
            let buf = self.src.buffer();
            let end = buf
                .windows(2)
                .position(|w| w == b"\n[")
                .map_or(buf.len(), |i| i + 1);
            scan_language(&buf[..end])
        })
    }

    /// Skips to the `)` that closes a variation opened at (`line`, `col`).
    fn skip_variation(&mut self, line: usize, col: usize) -> Step<()> {
        let mut depth = 1usize;
        loop {
            match self.next_token()?.0 {
                Tok::Eof | Tok::TagStart => {
                    return Err((line, col, PgnErrorKind::UnclosedVariation));
                }
                Tok::Open => depth += 1,
                Tok::Close => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
    }

    /// After the result: comments that follow it (`4. Qxf7# 1-0 ; Game Nr. 1`,
    /// Arena's words on how the game ended) belong to this game when the next
    /// thing is a tag section or the end of the input; before a move (a game
    /// without tags) they are carried to the next game. They never make a game
    /// of their own.
    fn after_result<V: Visitor>(&mut self, v: &mut V) {
        let mut trailing = Vec::new();
        loop {
            match self.next_token() {
                Ok((Tok::Comment, _)) => trailing.push(collapse_whitespace(&self.comment)),
                Ok((Tok::Eof | Tok::TagStart, _)) => break,
                Ok((_, start)) => {
                    // A token on this line: read again by the next game.
                    self.pos = start;
                    self.carried = trailing;
                    return;
                }
                Err(_) => {
                    // A comment never closed: what it holds, to the end.
                    trailing.push(collapse_whitespace(&self.comment));
                    break;
                }
            }
        }
        for c in trailing {
            v.comment(&c);
        }
    }

    /// After an error, skips the rest of the game: up to its result outside
    /// any variation (`depth` were open at the error), or to the next tag
    /// section.
    fn skip_rest(&mut self, mut in_movetext: bool, mut depth: usize) {
        loop {
            let Ok((tok, start)) = self.next_token() else {
                return;
            };
            match tok {
                Tok::Eof => return,
                Tok::TagStart => {
                    if in_movetext {
                        return;
                    }
                    self.pos = self.line.len();
                }
                Tok::Symbol(s, e) => {
                    in_movetext = true;
                    let sym = &self.line[s..e];
                    let glued = match classify(sym) {
                        Sym::Glued(n) => classify(&sym[n..]),
                        other => other,
                    };
                    if depth == 0 && matches!(glued, Sym::Result(_)) {
                        return;
                    }
                }
                Tok::Open => {
                    in_movetext = true;
                    depth += 1;
                }
                Tok::Close => {
                    in_movetext = true;
                    depth = depth.saturating_sub(1);
                }
                _ => {
                    let _ = start;
                    in_movetext = true;
                }
            }
        }
    }
}

impl<R: Read> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game()
    }
}

/// The game's starting position: its FEN tag (with the tag's line and column
/// for an error), read with Chess960's castling (X-FEN or Shredder-FEN) when
/// the `Variant` tag says Chess960; or the initial position.
fn start_position(
    fen: &Option<(String, usize, usize)>,
    chess960: bool,
) -> Result<Position, (usize, usize, PgnErrorKind)> {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    match fen {
        Some((text, l, c)) => Position::from_fen_with(text.trim(), mode)
            .map_err(|e| (*l, *c, PgnErrorKind::BadFen(e))),
        None => Ok(Position::new()),
    }
}

/// True for a `Variant` tag value naming Chess960, as the programs that
/// write one spell it (`Chess960`, `chess 960`, `Fischerandom`, `Fischer
/// Random`, `960`), in any case.
pub fn is_chess960_variant(value: &str) -> bool {
    let v: String = value
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-' && *c != '_')
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(
        v.as_str(),
        "chess960" | "960" | "fischerandom" | "fischerrandom" | "fischerrandomchess"
    )
}

/// What a `Variant` tag asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VariantKind {
    /// Standard chess (`Standard`, `From Position`, `Normal`, `Chess`, an
    /// empty value).
    Standard,
    /// Chess960 ([`is_chess960_variant`]).
    Chess960,
    /// A variant escaque does not play (atomic, crazyhouse, antichess,
    /// horde, three-check, …, or a name it does not know): the game is not
    /// read as chess.
    Unsupported,
}

/// The kind of game a `Variant` tag names, as lichess, chess.com, ChessBase,
/// Scid and cutechess write it, in any case.
pub fn variant_kind(value: &str) -> VariantKind {
    if is_chess960_variant(value) {
        return VariantKind::Chess960;
    }
    let v: String = value
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-' && *c != '_')
        .collect::<String>()
        .to_ascii_lowercase();
    match v.as_str() {
        "" | "standard" | "chess" | "normal" | "regular" | "classical" | "fromposition"
        | "orthodox" | "?" => VariantKind::Standard,
        _ => VariantKind::Unsupported,
    }
}

/// How a tag was read where PGN's grammar would have refused it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum TagLeniency {
    /// As the grammar says.
    None,
    /// Unescaped quotes inside the value: read up to the quote before `]`.
    UnescapedQuotes,
    /// A backslash ending the value, before its closing quote: read as
    /// itself.
    TrailingBackslash,
}
