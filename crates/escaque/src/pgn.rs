//! PGN: a streaming reader over any [`Read`], a game tree with variations,
//! comments, NAGs and clock times, and a writer (the PGN export format, or a
//! Spanish rendering for display and printing).
//!
//! The reader replays every move as it reads it, so each move reaches the
//! [`Visitor`] already checked. A game that fails (an illegal move, garbage) is
//! reported with its number, line and column, and the reader goes on to the next
//! game.
//!
//! ```
//! use escaque::pgn::{PgnReader, PgnStyle, write_game_string};
//!
//! let text = "[White \"Ruy López\"]\n\n1. e4 e5 2. Cf3 {desarrollo} Cc6 (2... d6) 3. Ab5 *\n";
//! let mut reader = PgnReader::new(text.as_bytes());
//! let game = reader.next_game().unwrap().unwrap();
//! assert_eq!(game.mainline().count(), 5);
//! let out = write_game_string(&game, PgnStyle::export());
//! assert!(out.contains("2. Nf3 {desarrollo} 2... Nc6 (2... d6) 3. Bb5 *"));
//! ```

use std::io::{BufRead, BufReader, Read};

use crate::san::{parse_san_after, parse_san_plain, write_san, SanError, SanLang, SanStyle};
use crate::{Color, FenError, Lang, Move, Position};

/// The deepest nesting of variations the reader accepts.
pub const MAX_VARIATION_DEPTH: usize = 64;

// ------------------------------------------------------------------ errors

/// What went wrong in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// Reading the input failed.
    Io(String),
    /// A tag pair is not `[Name "value"]`.
    BadTag,
    /// The FEN tag is not a valid position.
    BadFen(FenError),
    /// A move could not be read or is not legal.
    San(SanError),
    /// A null move (`--`), which this reader does not accept.
    NullMove,
    /// A `{` comment that is never closed.
    UnclosedComment,
    /// A `(` variation that is never closed.
    UnclosedVariation,
    /// A `)` with no variation open.
    UnmatchedClose,
    /// A `(` variation before any move it could be an alternative to.
    VariationWithoutMove,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`].
    TooDeep,
}

/// A failed game: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The number of the game in the input, from 1.
    pub game: usize,
    /// Line, from 1.
    pub line: usize,
    /// Column (in characters), from 1.
    pub column: usize,
    /// What went wrong.
    pub kind: PgnErrorKind,
}

// ------------------------------------------------------------------ visitor

/// Whether to read a variation or skip over it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VariationAction {
    /// Read its moves (they are checked and reach the visitor).
    Enter,
    /// Skip to its closing parenthesis without reading its moves.
    Skip,
}

/// Receives a game as the reader goes through it. Every method but
/// [`Visitor::end_game`] has a default that does nothing.
pub trait Visitor {
    /// What a finished game gives.
    type Output;
    /// A new game starts.
    fn begin_game(&mut self) {}
    /// A tag pair.
    fn tag(&mut self, _name: &str, _value: &str) {}
    /// The movetext starts from `start` (the initial position, or the FEN tag's).
    fn start(&mut self, _start: &Position) {}
    /// A legal move `m`, played from `before`.
    fn mv(&mut self, _before: &Position, _m: Move) {}
    /// A numeric annotation glyph (`$1`, or `!` read as 1) after the last move.
    fn nag(&mut self, _nag: u8) {}
    /// A comment (whitespace runs collapsed to one space).
    fn comment(&mut self, _text: &str) {}
    /// A variation starts: an alternative to the last move.
    fn begin_variation(&mut self) -> VariationAction {
        VariationAction::Skip
    }
    /// The variation that was entered ends.
    fn end_variation(&mut self) {}
    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`; `½-½` is given
    /// as `1/2-1/2`).
    fn result(&mut self, _result: &str) {}
    /// The game ends without error.
    fn end_game(&mut self) -> Self::Output;
}

// ------------------------------------------------------------------ model

/// One move of a game, with what was said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move.
    pub mv: Move,
    /// Comments before the move (at the start of a game or variation).
    pub comments_before: Vec<String>,
    /// Numeric annotation glyphs.
    pub nags: Vec<u8>,
    /// Comments after the move, without the clock command.
    pub comments: Vec<String>,
    /// The clock after the move (`[%clk 0:03:25]`), in milliseconds.
    pub clock_ms: Option<u64>,
    /// Alternatives to this move, each a line from the position before it.
    pub variations: Vec<Vec<Node>>,
}

impl Node {
    /// A bare move.
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            comments_before: Vec::new(),
            nags: Vec::new(),
            comments: Vec::new(),
            clock_ms: None,
            variations: Vec::new(),
        }
    }
}

/// A game: tags, starting position, moves as a tree, result.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Game {
    /// Tag pairs in the order read.
    pub tags: Vec<(String, String)>,
    /// The starting position.
    pub start: Position,
    /// The main line, with variations hanging from its nodes.
    pub moves: Vec<Node>,
    /// Comments of a game that has no moves.
    pub comments: Vec<String>,
    /// The termination marker, if the movetext had one.
    pub result: Option<String>,
}

impl Game {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (replacing it in place, or adding it at the end).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The moves of the main line.
    pub fn mainline(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves.iter().map(|n| n.mv)
    }

    /// The position after the main line.
    pub fn final_position(&self) -> Position {
        let mut pos = self.start;
        for m in self.mainline() {
            pos.play_unchecked(m);
        }
        pos
    }
}

/// A [`Visitor`] that builds a [`Game`] with its variations.
#[derive(Default)]
pub struct GameBuilder {
    game: Game,
    /// The lines being built: the main line first, then open variations.
    stack: Vec<Vec<Node>>,
    /// Comments waiting for the next move of the innermost line.
    pending: Vec<String>,
}

impl GameBuilder {
    /// A builder with nothing in it.
    pub fn new() -> GameBuilder {
        GameBuilder::default()
    }

    /// What was built so far: after an error, the part of the game read before
    /// it (open variations are closed where they stopped).
    pub fn partial(&self) -> Game {
        let mut b = GameBuilder {
            game: self.game.clone(),
            stack: self.stack.clone(),
            pending: self.pending.clone(),
        };
        while b.stack.len() > 1 {
            b.end_variation();
        }
        b.finish()
    }

    fn finish(&mut self) -> Game {
        let mut game = std::mem::take(&mut self.game);
        game.moves = self.stack.drain(..).next().unwrap_or_default();
        let pending = std::mem::take(&mut self.pending);
        match game.moves.last_mut() {
            Some(last) => last.comments.extend(pending),
            None => game.comments.extend(pending),
        }
        game
    }
}

/// Reads `[%clk 1:02:03.4]` out of a comment: the time in milliseconds and
/// the comment without it.
pub fn extract_clock(comment: &str) -> Option<(u64, String)> {
    let start = comment.find("[%clk")?;
    let end = start + comment[start..].find(']')?;
    let value = comment[start + 5..end].trim();
    let mut parts = value.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let h: u64 = h.parse().ok()?;
    let m: u64 = m.parse().ok()?;
    let (sec, frac) = s.split_once('.').unwrap_or((s, ""));
    let sec: u64 = sec.parse().ok()?;
    if m >= 60 || sec >= 60 || frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let ms_frac: u64 = if frac.is_empty() {
        0
    } else {
        frac.parse::<u64>().ok()? * 10u64.pow(3 - frac.len() as u32)
    };
    let ms = h
        .checked_mul(3_600_000)?
        .checked_add(m * 60_000 + sec * 1000 + ms_frac)?;
    let rest = format!("{} {}", comment[..start].trim(), comment[end + 1..].trim());
    Some((ms, rest.trim().to_string()))
}

/// Writes a clock time as PGN does: `H:MM:SS`, with milliseconds when present.
pub fn format_clock(ms: u64) -> String {
    let (h, rest) = (ms / 3_600_000, ms % 3_600_000);
    let (m, rest) = (rest / 60_000, rest % 60_000);
    let (s, milli) = (rest / 1000, rest % 1000);
    if milli == 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        let frac = format!("{milli:03}");
        format!("{h}:{m:02}:{s:02}.{}", frac.trim_end_matches('0'))
    }
}

impl Visitor for GameBuilder {
    type Output = Game;

    fn begin_game(&mut self) {
        self.game = Game::default();
        self.stack.clear();
        self.stack.push(Vec::new());
        self.pending.clear();
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.game.tags.push((name.to_string(), value.to_string()));
    }

    fn start(&mut self, start: &Position) {
        self.game.start = *start;
    }

    fn mv(&mut self, _before: &Position, m: Move) {
        let mut node = Node::new(m);
        node.comments_before = std::mem::take(&mut self.pending);
        if let Some(line) = self.stack.last_mut() {
            line.push(node);
        }
    }

    fn nag(&mut self, nag: u8) {
        if let Some(node) = self.stack.last_mut().and_then(|l| l.last_mut()) {
            node.nags.push(nag);
        }
    }

    fn comment(&mut self, text: &str) {
        match self.stack.last_mut().and_then(|l| l.last_mut()) {
            Some(node) => match extract_clock(text) {
                Some((ms, rest)) if node.clock_ms.is_none() => {
                    node.clock_ms = Some(ms);
                    if !rest.is_empty() {
                        node.comments.push(rest);
                    }
                }
                _ => node.comments.push(text.to_string()),
            },
            None => self.pending.push(text.to_string()),
        }
    }

    fn begin_variation(&mut self) -> VariationAction {
        self.stack.push(Vec::new());
        VariationAction::Enter
    }

    fn end_variation(&mut self) {
        if self.stack.len() < 2 {
            return;
        }
        let mut line = self.stack.pop().unwrap_or_default();
        // Comments at the end of a variation with no moves are dropped with it.
        if let Some(last) = line.last_mut() {
            last.comments.append(&mut self.pending);
        }
        self.pending.clear();
        if !line.is_empty() {
            if let Some(node) = self.stack.last_mut().and_then(|l| l.last_mut()) {
                node.variations.push(line);
            }
        }
    }

    fn result(&mut self, result: &str) {
        self.game.result = Some(result.to_string());
    }

    fn end_game(&mut self) -> Game {
        self.finish()
    }
}

// ------------------------------------------------------------------ reader

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
            opts,
            game_lang: None,
        }
    }

    /// Reads the next game into a [`Game`]; `None` at the end of the input.
    pub fn next_game(&mut self) -> Option<Result<Game, PgnError>> {
        let mut b = GameBuilder::new();
        self.read_game(&mut b)
    }

    /// Reads the next game into a [`Game`]; on error, also gives what was read
    /// of that game before the error.
    pub fn next_game_partial(&mut self) -> Option<Result<Game, (PgnError, Game)>> {
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
        match self.read_body(visitor, &mut in_movetext) {
            Ok(()) => Some(Ok(visitor.end_game())),
            Err((line, column, kind)) => {
                self.skip_rest(in_movetext);
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
                        self.comment.push_str(&String::from_utf8_lossy(&rest[..i]));
                        self.pos += i + 1;
                        break;
                    }
                    self.comment.push_str(&String::from_utf8_lossy(rest));
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
                self.comment
                    .push_str(&String::from_utf8_lossy(&self.line[start + 1..]));
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
    fn read_tag(&mut self) -> Step<(usize, usize)> {
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
        self.tag_value.clear();
        loop {
            match self.line.get(i) {
                None | Some(b'\n') => return Err(bad(self)),
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
        while self.line.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        if self.line.get(i) != Some(&b']') {
            return Err(bad(self));
        }
        self.pos = i + 1;
        Ok((name_start, name_end))
    }

    fn read_body<V: Visitor>(&mut self, v: &mut V, in_movetext: &mut bool) -> Step<()> {
        let mut fen: Option<(String, usize, usize)> = None;
        let mut stack: Vec<Frame> = Vec::new();
        loop {
            let (tok, start) = self.next_token()?;
            // The column is worked out only when needed (an error, a FEN tag).
            let line = self.line_no;
            if tok == Tok::TagStart {
                if *in_movetext {
                    // The next game starts without this one having a result.
                    break;
                }
                let (a, b) = self.read_tag()?;
                // The name is ASCII (letters, digits, `_`, `-`).
                let name = core::str::from_utf8(&self.line[a..b]).unwrap_or("");
                let value = String::from_utf8_lossy(&self.tag_value);
                if name == "FEN" {
                    fen = Some((value.to_string(), line, self.column(start)));
                }
                v.tag(name, &value);
                continue;
            }
            if tok == Tok::Eof {
                break;
            }
            if !*in_movetext {
                *in_movetext = true;
                let start_pos = start_position(&fen)?;
                v.start(&start_pos);
                stack.push(Frame {
                    before: start_pos,
                    current: start_pos,
                    has_move: false,
                });
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
                        }
                        VariationAction::Skip => self.skip_variation(line, self.column(start))?,
                    }
                }
                Tok::Close => {
                    if depth < 2 {
                        return Err((line, self.column(start), PgnErrorKind::UnmatchedClose));
                    }
                    stack.pop();
                    v.end_variation();
                }
                Tok::Symbol(s, e) => match classify(&self.line[s..e]) {
                    Sym::Result(r) => {
                        if depth > 1 {
                            return Err((
                                line,
                                self.column(start),
                                PgnErrorKind::UnclosedVariation,
                            ));
                        }
                        v.result(r);
                        return Ok(());
                    }
                    Sym::Skip => {}
                    Sym::Nag(n) => {
                        if top.has_move {
                            v.nag(n);
                        }
                    }
                    Sym::NullMove => {
                        return Err((line, self.column(start), PgnErrorKind::NullMove))
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
                            plain_lang.and_then(|l| parse_san_plain(&top.current, bytes, l))
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
                        let mut after = None;
                        let parsed = match parse_san_after(&top.current, &text, lang, &mut after) {
                            Err(SanError::AmbiguousLanguage { .. }) if self.game_lang.is_none() => {
                                // Look ahead in this game for a move whose letters
                                // belong to one notation only, and read with it.
                                match self.lookahead_language(e) {
                                    Some(l) => {
                                        self.game_lang = Some(l);
                                        parse_san_after(&top.current, &text, l.into(), &mut after)
                                    }
                                    None => parse_san_after(&top.current, &text, lang, &mut after),
                                }
                            }
                            // Coordinate moves (`e2e4`, `g1f3`), as some programs write
                            // them, when the text is not SAN.
                            Err(e) if looks_like_coordinates(text.as_bytes()) => {
                                crate::coord::parse_coord(&top.current, &text)
                                    .map(|m| (m, None))
                                    .map_err(|_| e)
                            }
                            other => other,
                        };
                        let (m, shown) =
                            parsed.map_err(|e| (line, self.column(start), PgnErrorKind::San(e)))?;
                        if self.game_lang.is_none() {
                            self.game_lang = shown;
                        }
                        v.mv(&top.current, m);
                        top.before = top.current;
                        match after {
                            Some(p) => top.current = p,
                            None => top.current.play_unchecked(m),
                        }
                        top.has_move = true;
                        if let Some(n) = nag {
                            v.nag(n);
                        }
                    }
                },
            }
        }
        if stack.len() > 1 {
            let (l, c) = self.here();
            return Err((l, c, PgnErrorKind::UnclosedVariation));
        }
        if !*in_movetext {
            // A game of tags only: its movetext is empty.
            let start_pos = start_position(&fen)?;
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

    /// After an error, skips the rest of the game: up to its result, or to the
    /// next tag section.
    fn skip_rest(&mut self, mut in_movetext: bool) {
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
                    if matches!(classify(&self.line[s..e]), Sym::Result(_)) {
                        return;
                    }
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
    type Item = Result<Game, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game()
    }
}

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
fn is_delimiter(b: u8) -> bool {
    DELIMITERS[b as usize]
}

/// The notation of the first symbol in `text` whose piece letter (or
/// promotion letter after `=`) belongs to only one notation; comments skipped.
fn scan_language(text: &[u8]) -> Option<Lang> {
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

/// `e2e4`, `e1-g1`, `e7e8q`: two squares, maybe a separator between them and
/// a promotion after.
fn looks_like_coordinates(t: &[u8]) -> bool {
    let sq = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    let t = match t {
        [a, b, b'-' | b'x' | b':', rest @ ..] => [&[*a, *b][..], rest].concat(),
        _ => t.to_vec(),
    };
    (4..=6).contains(&t.len()) && sq(t[0], t[1]) && sq(t[2], t[3])
}

fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

enum Sym {
    Result(&'static str),
    /// A move number, a lone `+`, an `a.p.`: nothing to do.
    Skip,
    Nag(u8),
    NullMove,
    /// SAN at bytes `a..b` of the symbol, with a NAG from its glyph suffix.
    San(usize, usize, Option<u8>),
}

/// The NAG of a suffix glyph (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6).
fn glyph_nag(g: &[u8]) -> Option<u8> {
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

fn glyph_suffix_len(s: &[u8]) -> usize {
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
fn classify(sym: &[u8]) -> Sym {
    // The common case first: a move such as `e4`, `Nf3`, `exd5` (not `a.p.+`,
    // which ends in a check mark: marks take the long way).
    if let [first, .., last] = sym {
        if matches!(first, b'a'..=b'h' | b'A'..=b'Z') && matches!(last, b'1'..=b'8') {
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
        b"1-0" => return Sym::Result("1-0"),
        b"0-1" => return Sym::Result("0-1"),
        b"1/2-1/2" | [0xC2, 0xBD, b'-', 0xC2, 0xBD] => return Sym::Result("1/2-1/2"),
        b"*" => return Sym::Result("*"),
        b"--" => return Sym::NullMove,
        _ => {}
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

// ------------------------------------------------------------------ writer

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
/// 80 columns).
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
        let text = text.replace('}', ")");
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
pub fn write_game(out: &mut String, game: &Game, style: PgnStyle) {
    let result = game.result.as_deref().or(game.tag("Result")).unwrap_or("*");
    for (name, default) in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => Some(result),
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
pub fn write_game_string(game: &Game, style: PgnStyle) -> String {
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
            let mut c = format!("[%clk {}]", format_clock(ms));
            if let Some(first) = node.comments.first() {
                c.push(' ');
                c.push_str(first);
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
        pos.play_unchecked(node.mv);
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

/// The game's starting position: its FEN tag (with the tag's line and column
/// for an error), or the initial position.
fn start_position(
    fen: &Option<(String, usize, usize)>,
) -> Result<Position, (usize, usize, PgnErrorKind)> {
    match fen {
        Some((text, l, c)) => {
            Position::from_fen(text.trim()).map_err(|e| (*l, *c, PgnErrorKind::BadFen(e)))
        }
        None => Ok(Position::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str) -> Vec<Result<Game, PgnError>> {
        PgnReader::new(text.as_bytes()).collect()
    }

    #[test]
    fn reads_tags_moves_comments_variations_nags_clock() {
        let text = "\u{feff}[Event \"Test \\\"1\\\"\"]\n[White \"A\"]\n\n\
            % escape line\n\
            1.e4 {[%clk 0:03:25] buen} e5 $1 2. Nf3!? (2. f4 exf4 (2... d5) 3. Nf3) 2...Nc6 ; fin\n\
            3.Bb5 a6 1-0\n";
        let games = read_all(text);
        assert_eq!(games.len(), 1);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.tag("Event"), Some("Test \"1\""));
        assert_eq!(g.mainline().count(), 6);
        assert_eq!(g.moves[0].clock_ms, Some(205_000));
        assert_eq!(g.moves[0].comments, vec!["buen".to_string()]);
        assert_eq!(g.moves[1].nags, vec![1]);
        assert_eq!(g.moves[2].nags, vec![5]);
        assert_eq!(g.moves[2].variations.len(), 1);
        assert_eq!(g.moves[2].variations[0].len(), 3);
        assert_eq!(g.moves[2].variations[0][1].variations[0].len(), 1);
        assert_eq!(g.moves[3].comments, vec!["fin".to_string()]);
        assert_eq!(g.result.as_deref(), Some("1-0"));
    }

    #[test]
    fn recovers_after_a_bad_game() {
        let text = "[Event \"1\"]\n\n1. e4 e5 *\n\n[Event \"2\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n\
                    [Event \"3\"]\n\n1. d4 1/2-1/2\n";
        let games = read_all(text);
        assert_eq!(games.len(), 3);
        assert!(games[0].is_ok());
        let e = games[1].as_ref().unwrap_err();
        assert_eq!((e.game, e.line, e.column), (2, 7, 13));
        assert!(matches!(
            e.kind,
            PgnErrorKind::San(SanError::Illegal { .. })
        ));
        assert_eq!(games[2].as_ref().unwrap().tag("Event"), Some("3"));
    }

    #[test]
    fn partial_game_is_kept() {
        let mut r = PgnReader::new("1. e4 e5 2. Qxf7 *".as_bytes());
        let (e, partial) = r.next_game_partial().unwrap().unwrap_err();
        assert_eq!(e.column, 13);
        assert_eq!(partial.mainline().count(), 2);
    }

    #[test]
    fn spanish_movetext_and_half_results() {
        let text = "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. Axc6 dxc6 5. 0-0 f6 ½-½";
        let g = read_all(text).remove(0).unwrap();
        assert_eq!(g.mainline().count(), 10);
        assert_eq!(g.result.as_deref(), Some("1/2-1/2"));
        let out = write_game_string(&g, PgnStyle::export());
        assert!(out.contains("4. Bxc6 dxc6 5. O-O f6 1/2-1/2"), "{out}");
        let es = write_game_string(&g, PgnStyle::spanish());
        assert!(es.contains("4. Axc6 dxc6 5. 0-0 f6"), "{es}");
    }

    #[test]
    fn writes_seven_tag_roster_first_and_short_lines() {
        let mut text = String::from("[ECO \"C60\"]\n[White \"W\"]\n\n");
        for _ in 0..30 {
            text.push_str("{a rather long comment that goes on} ");
        }
        text.push_str("1. e4 *");
        let g = read_all(&text).remove(0).unwrap();
        let out = write_game_string(&g, PgnStyle::export());
        assert!(out.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"));
        assert!(out.contains("[Result \"*\"]\n[ECO \"C60\"]\n"));
        assert!(out.lines().all(|l| l.chars().count() <= MAX_LINE), "{out}");
        let again = read_all(&out).remove(0).unwrap();
        assert_eq!(again.moves, g.moves);
    }

    #[test]
    fn errors_on_structure() {
        let kinds: Vec<PgnErrorKind> = [
            "1. e4 ( 1. d4",
            "( e4 ) 1. e4",
            "1. e4 ) e5",
            "1. e4 { open",
            "[Event \"x]\n1. e4",
            "[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4",
            "1. e4 -- e5",
            "1. e4 zz9",
        ]
        .iter()
        .map(|t| read_all(t).remove(0).unwrap_err().kind)
        .collect();
        assert_eq!(kinds[0], PgnErrorKind::UnclosedVariation);
        assert_eq!(kinds[1], PgnErrorKind::VariationWithoutMove);
        assert_eq!(kinds[2], PgnErrorKind::UnmatchedClose);
        assert_eq!(kinds[3], PgnErrorKind::UnclosedComment);
        assert_eq!(kinds[4], PgnErrorKind::BadTag);
        assert!(matches!(kinds[5], PgnErrorKind::BadFen(_)));
        assert_eq!(kinds[6], PgnErrorKind::NullMove);
        assert!(matches!(
            kinds[7],
            PgnErrorKind::San(SanError::Unknown { .. })
        ));
    }

    #[test]
    fn r_is_resolved_by_the_rest_of_the_game() {
        let fen = "[FEN \"4k3/8/8/8/8/8/8/4K2R w - - 0 1\"]\n\n";
        let en = read_all(&format!("{fen}1. Rf1 Kd7 2. Kd2 *"))
            .remove(0)
            .unwrap();
        assert_eq!(en.moves[0].mv.to_string(), "h1f1");
        let es = read_all(&format!("{fen}1. Rf1 Rd7 2. Th2 *"))
            .remove(0)
            .unwrap();
        assert_eq!(es.moves[0].mv.to_string(), "e1f1");
        // Nothing in the game tells: the error names both readings.
        let e = read_all(&format!("{fen}1. Rf1 *")).remove(0).unwrap_err();
        assert!(matches!(
            e.kind,
            PgnErrorKind::San(SanError::AmbiguousLanguage { .. })
        ));
        // Forced notation: no question.
        let opts = ReaderOptions {
            notation: SanLang::Es,
        };
        let g = PgnReader::with_options(format!("{fen}1. Rf1 *").as_bytes(), opts)
            .next_game()
            .unwrap()
            .unwrap();
        assert_eq!(g.moves[0].mv.to_string(), "e1f1");
    }

    #[test]
    fn en_passant_suffix_with_marks() {
        // `a.p.` is its own token after the capture, with or without marks.
        for text in [
            "2. exd6 a.p.! Rd7",
            "2. exd6 a.p.!+ Rd7",
            "2. exd6 e.p. $1 Rd7",
        ] {
            let text = format!("[FEN \"4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1\"]\n\n1... d5 {text} *");
            let g = read_all(&text).remove(0).unwrap();
            assert_eq!(g.moves.len(), 3, "{text}");
            assert!(g.moves[1].mv.is_en_passant());
            assert_eq!(g.moves[1].nags, vec![1], "{text}");
        }
    }

    #[test]
    fn clock_round_trip() {
        assert_eq!(
            extract_clock("[%clk 1:02:03.5] x"),
            Some((3_723_500, "x".into()))
        );
        assert_eq!(format_clock(3_723_500), "1:02:03.5");
        assert_eq!(format_clock(205_000), "0:03:25");
        assert_eq!(extract_clock("[%clk 0:61:00]"), None);
    }
}
