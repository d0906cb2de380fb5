//! The game tree: moves with comments, NAGs and clock times, variations,
//! tags and result; and the visitor that builds it.

use crate::{GameResult, Move, Position};

use super::clk::extract_clock_at;
use super::error::PgnWarning;
use super::visitor::{VariationAction, Visitor};

/// One move of a game, with what was said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move.
    pub mv: Move,
    /// Comments before the move (at the start of a game or variation).
    pub comments_before: Vec<String>,
    /// Numeric annotation glyphs before the move (at the start of a game or
    /// variation: `($142 38... b5)`).
    pub nags_before: Vec<u8>,
    /// Numeric annotation glyphs.
    pub nags: Vec<u8>,
    /// Comments after the move, without the clock command.
    pub comments: Vec<String>,
    /// The clock after the move (`[%clk 0:03:25]`), in milliseconds.
    pub clock_ms: Option<u64>,
    /// Where the clock command stood in the first comment: a byte offset
    /// into `comments[0]` (0: before it), so it is written back in place.
    pub clock_at: usize,
    /// Alternatives to this move, each a line from the position before it.
    pub variations: Vec<Vec<Node>>,
}

impl Node {
    /// A bare move.
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            comments_before: Vec::new(),
            nags_before: Vec::new(),
            nags: Vec::new(),
            comments: Vec::new(),
            clock_ms: None,
            clock_at: 0,
            variations: Vec::new(),
        }
    }
}

/// A game: tags, starting position, moves as a tree, result.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PgnGame {
    /// Tag pairs in the order read.
    pub tags: Vec<(String, String)>,
    /// The starting position.
    pub start: Position,
    /// The main line, with variations hanging from its nodes.
    pub moves: Vec<Node>,
    /// Comments of a game that has no moves.
    pub comments: Vec<String>,
    /// The termination marker, if the movetext had one: `Some(Some(r))` for a
    /// result, `Some(None)` for `*`.
    pub result: Option<Option<GameResult>>,
    /// What the reader read leniently in this game (it was kept).
    pub warnings: Vec<PgnWarning>,
}

impl PgnGame {
    /// The result the game records: its termination marker, or else its
    /// `Result` tag (`None` for `*`, an unknown text, or neither).
    pub fn recorded_result(&self) -> Option<GameResult> {
        match self.result {
            Some(r) => r,
            None => self.tag("Result").and_then(GameResult::from_pgn),
        }
    }

    /// The result as PGN writes it (`1-0`, `0-1`, `1/2-1/2`, `*`): the
    /// termination marker, or else the `Result` tag as written, or `*`.
    pub fn result_text(&self) -> &str {
        match self.result {
            Some(r) => r.map_or("*", GameResult::pgn),
            None => self.tag("Result").unwrap_or("*"),
        }
    }

    /// The `Result` tag as written, if the game has one: what the export
    /// format's tag section says, which may disagree with the movetext's
    /// termination marker (both are kept; the reader warns).
    pub fn result_tag_text(&self) -> &str {
        match self.tag("Result") {
            Some(t) => t,
            None => self.result_text(),
        }
    }

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
            if !pos.play_recorded(m) {
                break;
            }
        }
        pos
    }
}

/// A [`Visitor`] that builds a [`PgnGame`] with its variations.
#[derive(Default)]
pub struct GameBuilder {
    game: PgnGame,
    /// The lines being built: the main line first, then open variations.
    stack: Vec<Vec<Node>>,
    /// Comments waiting for the next move of the innermost line.
    pending: Vec<String>,
    /// NAGs waiting for the next move of the innermost line.
    pending_nags: Vec<u8>,
}

impl GameBuilder {
    /// A builder with nothing in it.
    pub fn new() -> GameBuilder {
        GameBuilder::default()
    }

    /// What was built so far: after an error, the part of the game read before
    /// it (open variations are closed where they stopped).
    pub fn partial(&self) -> PgnGame {
        let mut b = GameBuilder {
            game: self.game.clone(),
            stack: self.stack.clone(),
            pending: self.pending.clone(),
            pending_nags: self.pending_nags.clone(),
        };
        while b.stack.len() > 1 {
            b.end_variation();
        }
        b.finish()
    }

    fn finish(&mut self) -> PgnGame {
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

impl Visitor for GameBuilder {
    type Output = PgnGame;

    fn begin_game(&mut self) {
        self.game = PgnGame::default();
        self.stack.clear();
        self.stack.push(Vec::new());
        self.pending.clear();
        self.pending_nags.clear();
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
        node.nags_before = std::mem::take(&mut self.pending_nags);
        if let Some(line) = self.stack.last_mut() {
            line.push(node);
        }
    }

    fn nag(&mut self, nag: u8) {
        if let Some(node) = self.stack.last_mut().and_then(|l| l.last_mut()) {
            node.nags.push(nag);
        }
    }

    fn nag_before(&mut self, nag: u8) {
        self.pending_nags.push(nag);
    }

    fn warning(&mut self, warning: &PgnWarning) {
        self.game.warnings.push(warning.clone());
    }

    fn comment(&mut self, text: &str) {
        match self.stack.last_mut().and_then(|l| l.last_mut()) {
            Some(node) => match extract_clock_at(text) {
                Some((ms, rest, at)) if node.clock_ms.is_none() => {
                    node.clock_ms = Some(ms);
                    if !rest.is_empty() {
                        // Its place is kept when it was in the first comment.
                        if node.comments.is_empty() {
                            node.clock_at = at;
                        }
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
        self.pending_nags.clear();
        if !line.is_empty() {
            if let Some(node) = self.stack.last_mut().and_then(|l| l.last_mut()) {
                node.variations.push(line);
            }
        }
    }

    fn result(&mut self, result: Option<GameResult>) {
        self.game.result = Some(result);
    }

    fn end_game(&mut self) -> PgnGame {
        self.finish()
    }
}
