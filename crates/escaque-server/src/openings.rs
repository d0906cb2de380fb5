//! Opening names on the server: every game's `"opening"` field
//! (`{"eco", "name_es", "name_en", "ply"}` or null, see docs/protocol.md)
//! and its PGN's `ECO` and `Opening` tags, classified by position with
//! [`escaque_analysis::openings`].

use std::collections::HashMap;

use escaque::{CastlingMode, Move, Notation, Position};
use escaque_analysis::openings::{classify, SEARCH_MAX_PLIES};
use escaque_analysis::Opening;
use serde_json::Value;

use crate::store::{GameRow, Store, StoreError};

/// The opening of a game from its start and its moves in UCI (only the
/// first [`SEARCH_MAX_PLIES`] are read): `None` for Chess960 games, games
/// from a set-up position, or when no position of the game is named. A
/// move that does not read ends the game there.
pub fn of_moves<'a>(
    start_fen: &str,
    chess960: bool,
    ucis: impl IntoIterator<Item = &'a str>,
) -> Option<Opening> {
    if chess960 {
        return None;
    }
    let mut pos = Position::from_fen_with(start_fen, CastlingMode::Standard).ok()?;
    let start = pos;
    let mut moves: Vec<Move> = Vec::with_capacity(SEARCH_MAX_PLIES);
    for uci in ucis.into_iter().take(SEARCH_MAX_PLIES) {
        let Ok(mv) = escaque::read_move(&pos, uci, Notation::Uci) else {
            break;
        };
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    classify(&start, &moves)
}

/// The opening of a game being played or replayed (none for Chess960).
pub fn of_game(game: &escaque::Game) -> Option<Opening> {
    if game.is_chess960() {
        return None;
    }
    let moves: Vec<Move> = game
        .moves()
        .iter()
        .take(SEARCH_MAX_PLIES)
        .map(|r| r.mv)
        .collect();
    classify(game.start_position(), &moves)
}

/// The opening of a stored game row with its moves.
pub fn of_row<'a>(row: &GameRow, ucis: impl IntoIterator<Item = &'a str>) -> Option<Opening> {
    of_moves(&row.start_fen, row.chess960, ucis)
}

/// The JSON of an opening: the contract's object, or null.
pub fn json(opening: Option<&Opening>) -> Value {
    serde_json::to_value(opening).unwrap_or(Value::Null)
}

/// The openings of a list of games, read in one query: game id → opening
/// (games with none are absent).
pub async fn of_rows(
    store: &Store,
    rows: &[GameRow],
) -> Result<HashMap<String, Opening>, StoreError> {
    let ids: Vec<&str> = rows
        .iter()
        .filter(|r| !r.chess960)
        .map(|r| r.id.as_str())
        .collect();
    let mut firsts = store.first_moves(&ids, SEARCH_MAX_PLIES).await?;
    let mut out = HashMap::new();
    for row in rows {
        if let Some(moves) = firsts.remove(&row.id) {
            if let Some(o) = of_row(row, moves.iter().map(String::as_str)) {
                out.insert(row.id.clone(), o);
            }
        }
    }
    Ok(out)
}

/// The PGN tags of an opening, in `lang`: `ECO` and `Opening`.
pub fn pgn_tags(opening: Option<&Opening>, lang: escaque::Lang) -> Vec<(String, String)> {
    opening.map_or_else(Vec::new, |o| {
        vec![
            ("ECO".to_string(), o.eco.clone()),
            ("Opening".to_string(), o.name(lang).to_string()),
        ]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn names_a_game_from_its_moves_in_uci() {
        let o = of_moves(START, false, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]).unwrap();
        assert_eq!((o.eco.as_str(), o.ply), ("C60", 5));
        let v = json(Some(&o));
        assert_eq!(v["name_es"], "Apertura española (Ruy López)");
        assert_eq!(v["name_en"], "Ruy Lopez");
        assert_eq!(v["ply"], 5);
        assert_eq!(json(None), Value::Null);
    }

    #[test]
    fn no_name_for_chess960_odd_starts_or_garbage() {
        assert_eq!(of_moves(START, true, ["e2e4"]), None);
        assert_eq!(
            of_moves("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false, ["e2e4"]),
            None
        );
        assert_eq!(of_moves("not a fen", false, ["e2e4"]), None);
        // A move that does not read ends the game: 1.e4 stays named.
        let o = of_moves(START, false, ["e2e4", "zz", "e7e5"]).unwrap();
        assert_eq!(o.ply, 1);
    }

    #[test]
    fn pgn_tags_in_either_language() {
        let o = of_moves(START, false, ["d2d4", "g8f6", "c2c4", "g7g6"]).unwrap();
        let es = pgn_tags(Some(&o), escaque::Lang::Es);
        let en = pgn_tags(Some(&o), escaque::Lang::En);
        assert_eq!(es[0], ("ECO".to_string(), o.eco.clone()));
        assert_eq!(es[1].1, o.name_es);
        assert_eq!(en[1].1, o.name_en);
        assert!(pgn_tags(None, escaque::Lang::Es).is_empty());
    }
}
