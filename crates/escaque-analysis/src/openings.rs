//! Opening names, classified by position: lichess's CC0 chess-openings data
//! (3,807 rows) with a Spanish name for each row, shipped in `data/`.
//!
//! Every row's final position is indexed by [`position_key`], a key that
//! tells positions apart exactly as lichess's EPD does (placement, side to
//! move, castling rights, and the en passant square only when an en passant
//! capture is legal). A game is named by the deepest of its positions found
//! in the index, so transpositions resolve: `1.d4 Nf6 2.c4 e6` and
//! `1.c4 e6 2.d4 Nf6` get the same name.

use std::collections::HashMap;
use std::sync::OnceLock;

use escaque::{Color, Lang, Move, Position, Role};
use serde::{Deserialize, Serialize};

/// How many plies of a game [`classify`] searches, like lichess (scalachess's
/// `OpeningDb.SEARCH_MAX_PLIES`); the longest line of the data has 36.
/// (scalachess also stops at a position with fewer than 20 pieces; every
/// row's position has at least 22, so that changes no answer here.)
pub const SEARCH_MAX_PLIES: usize = 40;

/// A named opening.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// The ECO code (`C60`).
    pub eco: String,
    /// The Spanish name (`Apertura española`).
    pub name_es: String,
    /// The English name (`Ruy Lopez`).
    pub name_en: String,
    /// How many plies of the game the name covers.
    pub ply: usize,
}

impl Opening {
    /// The name in `lang`: Spanish or English.
    pub fn name(&self, lang: Lang) -> &str {
        match lang {
            Lang::Es => &self.name_es,
            Lang::En => &self.name_en,
        }
    }

    fn of(entry: &OpeningEntry, ply: usize) -> Opening {
        Opening {
            eco: entry.eco.to_string(),
            name_es: entry.name_es.to_string(),
            name_en: entry.name_en.to_string(),
            ply,
        }
    }
}

/// The key of a position as lichess's opening data tells positions apart
/// (its EPD): the Polyglot Zobrist hash of [`Position::zobrist`], which hashes
/// the en passant file whenever a pawn of the side to move stands beside the
/// pawn that made the double step, with that file taken out again when no en
/// passant capture is legal (the capturing pawn is pinned, or the king is in
/// a check it would not answer). Move counters are not part of it.
pub fn position_key(pos: &Position) -> u64 {
    let mut key = pos.zobrist();
    if let Some(ep) = pos.ep_square() {
        let hashed = (escaque::attacks::pawn_attacks(pos.turn().other(), ep)
            & pos.pieces(pos.turn(), Role::Pawn))
        .any();
        if hashed && pos.legal_ep_square().is_none() {
            key ^= escaque::zobrist::en_passant_key(ep);
        }
    }
    key
}

/// Every row's final position → the row's index in [`entries`] (the data
/// has no two rows with the same position; were there any, the first wins).
fn index() -> &'static HashMap<u64, usize> {
    static INDEX: OnceLock<HashMap<u64, usize>> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut map = HashMap::with_capacity(entries().len());
        for (i, entry) in entries().iter().enumerate() {
            let mut pos = Position::new();
            for &mv in &entry.moves {
                pos.play_unchecked(mv);
            }
            map.entry(position_key(&pos)).or_insert(i);
        }
        map
    })
}

/// The row whose final position is `pos`, if any.
pub fn entry_at(pos: &Position) -> Option<&'static OpeningEntry> {
    index().get(&position_key(pos)).map(|&i| &entries()[i])
}

/// The opening named exactly at `pos` (one of the data's positions, however
/// it was reached), with `ply` the length of the data's line to it; `None`
/// for any other position.
pub fn lookup(pos: &Position) -> Option<Opening> {
    entry_at(pos).map(|e| Opening::of(e, e.moves.len()))
}

/// The opening of a game: the deepest of its positions (after 0 to
/// [`SEARCH_MAX_PLIES`] moves) that the data names, with `ply` the number of
/// moves played to reach it. `None` when the game starts anywhere but the
/// standard start position (Chess960, set-up positions) or no position is
/// named. An illegal move ends the search there.
pub fn classify(start: &Position, moves: &[Move]) -> Option<Opening> {
    if !is_standard_start(start) {
        return None;
    }
    let index = index();
    let mut pos = *start;
    let mut found = None;
    for (ply, &mv) in moves.iter().take(SEARCH_MAX_PLIES).enumerate() {
        if pos.play(mv).is_err() {
            break;
        }
        if let Some(&i) = index.get(&position_key(&pos)) {
            found = Some((i, ply + 1));
        }
    }
    found.map(|(i, ply)| Opening::of(&entries()[i], ply))
}

/// The standard start position, with standard castling, whatever the move
/// counters say.
fn is_standard_start(pos: &Position) -> bool {
    static START: OnceLock<u64> = OnceLock::new();
    let start = *START.get_or_init(|| Position::new().zobrist());
    pos.zobrist() == start
        && pos.turn() == Color::White
        && pos.castling_rights().is_standard()
        && !pos.has_chess960_castling()
}

/// One row of the opening data: lichess's ECO code, English name and moves,
/// with escaque's Spanish name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningEntry {
    /// The ECO code.
    pub eco: &'static str,
    /// lichess's English name.
    pub name_en: &'static str,
    /// The Spanish name.
    pub name_es: &'static str,
    /// The moves from the standard start position.
    pub moves: Vec<Move>,
}

/// The shipped data: `eco`, `name_en`, `name_es`, `pgn` (tab-separated, a
/// header line first).
const DATA: &str = include_str!("../data/openings.tsv");

/// Every row of the shipped data, in its order (parsed once).
pub fn entries() -> &'static [OpeningEntry] {
    static ENTRIES: OnceLock<Vec<OpeningEntry>> = OnceLock::new();
    ENTRIES.get_or_init(|| parse(DATA).expect("the shipped opening data reads"))
}

/// Reads the data: every row must have four fields and legal moves.
fn parse(data: &'static str) -> Result<Vec<OpeningEntry>, String> {
    let mut out = Vec::new();
    for (n, row) in data.lines().enumerate().skip(1) {
        let fields: Vec<&'static str> = row.split('\t').collect();
        let [eco, name_en, name_es, pgn] = fields[..] else {
            return Err(format!("line {}: {} fields", n + 1, fields.len()));
        };
        let mut pos = Position::new();
        let mut moves = Vec::new();
        for token in pgn.split_whitespace() {
            if token.ends_with('.') {
                continue;
            }
            let mv = escaque::san::parse_san(&pos, token, escaque::SanLang::En)
                .map_err(|e| format!("line {}: {token}: {e:?}", n + 1))?;
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        out.push(OpeningEntry {
            eco,
            name_en,
            name_es,
            moves,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_row_of_the_shipped_data_reads() {
        let e = super::entries();
        assert_eq!(e.len(), 3807);
        assert!(e
            .iter()
            .all(|r| !r.moves.is_empty() && !r.name_es.is_empty()));
    }
}
