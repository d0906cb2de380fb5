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
