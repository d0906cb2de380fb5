//! Opening names, classified by position: lichess's CC0 chess-openings data
//! (3,807 rows) with a Spanish name for each row, shipped in `data/`.

use serde::{Deserialize, Serialize};

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
    pub moves: Vec<escaque::Move>,
}

/// The shipped data: `eco`, `name_en`, `name_es`, `pgn` (tab-separated, a
/// header line first).
const DATA: &str = include_str!("../data/openings.tsv");

/// Every row of the shipped data, in its order (parsed once).
pub fn entries() -> &'static [OpeningEntry] {
    static ENTRIES: std::sync::OnceLock<Vec<OpeningEntry>> = std::sync::OnceLock::new();
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
        let mut pos = escaque::Position::new();
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
