//! Puzzles from the class's own games as homework (issue 57): the puzzles
//! the trainer found in the analysed games of the class's pupils
//! (issue 56's "problemas de tus partidas", `puzzles.source = 'game'`),
//! each shown to the teacher with where it came from (pupil, game, move).
//!
//! A puzzle belongs to the pupil whose side solves it (the one who could
//! have won there), as the trainer's queue has it. The teacher of a class
//! picks among its active pupils' puzzles only: an id from another class's
//! game is refused when the homework is set, so a pupil is never served a
//! puzzle from a game of another class. The item keeps the puzzle as it was
//! (position and line), and is judged as a shipped puzzle is
//! ([`super::judge_puzzle`]).

use std::collections::HashSet;

use escaque::{Color, Lang, Notation, Position};
use escaque_analysis::problemas::{Puzzle, Theme};

use super::Item;
use crate::error::ApiError;
use crate::proto::tareas as wire;
use crate::store::classes::PupilRow;
use crate::store::tareas::GamePuzzleRow;
use crate::store::Store;

/// A puzzle of the class's games and the pupil it belongs to.
#[derive(Clone, Debug)]
pub struct Found {
    /// The stored puzzle with its game's owners.
    pub row: GamePuzzleRow,
    /// The pupil whose side solves it.
    pub pupil: PupilRow,
    /// The opponent's move that starts it, `23. Cf3` / `23… exd4`.
    pub moved: String,
    /// The puzzle, read and checked.
    pub puzzle: Puzzle,
}

impl Found {
    /// The homework item it becomes.
    pub fn item(&self) -> Item {
        Item::GamePuzzle {
            id: self.row.id.clone(),
            fen: self.row.fen.clone(),
            moves: self.row.moves.clone(),
            game: self.row.game_id.clone(),
            ply: self.row.game_ply,
            pupil: self.pupil.name.clone(),
            moved: self.moved.clone(),
        }
    }

    /// As the teacher's form lists it.
    pub fn wire(&self) -> wire::GamePuzzle {
        let names = |lang: Lang| {
            self.row
                .themes
                .iter()
                .filter_map(|k| Theme::from_key(k))
                .take(2)
                .map(|t| t.name(lang))
                .collect::<Vec<_>>()
                .join(", ")
        };
        wire::GamePuzzle {
            id: self.row.id.clone(),
            pupil: self.pupil.name.clone(),
            real_name: self.pupil.real_name.clone(),
            game: self.row.game_id.clone(),
            moved: self.moved.clone(),
            ply: self.row.game_ply,
            rating: self.row.rating.round() as i32,
            themes: self.row.themes.clone(),
            es: format!(
                "{} · partida {} · tras {} · {} ({})",
                self.pupil.name,
                self.row.game_id,
                self.moved,
                self.row.rating.round(),
                names(Lang::Es)
            ),
            en: format!(
                "{} · game {} · after {} · {} ({})",
                self.pupil.name,
                self.row.game_id,
                self.moved,
                self.row.rating.round(),
                names(Lang::En)
            ),
        }
    }
}

/// A stored line read as a puzzle (`None`: the stored text is not one).
fn read(id: &str, fen: &str, moves: &[String]) -> Option<Puzzle> {
    let start = Position::from_fen(fen).ok()?;
    let mut pos = start;
    let mut line = Vec::with_capacity(moves.len());
    for m in moves {
        let mv = escaque::read_move(&pos, m, Notation::Uci).ok()?;
        pos.play_unchecked(mv);
        line.push(mv);
    }
    Puzzle::new(id.to_string(), start, line, 1500).ok()
}

/// The puzzle of a `game_puzzle` item, to judge it.
pub fn puzzle_of(item: &Item) -> Option<Puzzle> {
    match item {
        Item::GamePuzzle { id, fen, moves, .. } => read(id, fen, moves),
        _ => None,
    }
}

/// The opponent's move of a puzzle as `23. Cf3` or `23… exd4`.
fn moved(p: &Puzzle) -> String {
    let san = escaque::san::san(&p.start, p.moves[0], Lang::Es);
    let n = p.start.fullmove_number();
    match p.start.turn() {
        Color::White => format!("{n}. {san}"),
        Color::Black => format!("{n}… {san}"),
    }
}

/// The puzzles found in the games of the active pupils of class
/// `class_id`, each with the pupil whose side solves it; newest game first.
pub async fn of_class(store: &Store, class_id: &str) -> Result<Vec<Found>, ApiError> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for pupil in store.class_pupils(class_id, false).await? {
        let key = format!("u:{}", pupil.user_id);
        for row in store.game_puzzles_of(&pupil.user_id).await? {
            let Some(p) = read(&row.id, &row.fen, &row.moves) else {
                continue;
            };
            let owner = match p.solver() {
                Color::White => row.white_owner.as_deref(),
                Color::Black => row.black_owner.as_deref(),
            };
            if owner != Some(key.as_str()) || !seen.insert(row.id.clone()) {
                continue;
            }
            out.push(Found {
                moved: moved(&p),
                row,
                pupil: pupil.clone(),
                puzzle: p,
            });
        }
    }
    out.sort_by(|a, b| {
        b.row
            .game_created_ms
            .cmp(&a.row.game_created_ms)
            .then_with(|| a.row.game_id.cmp(&b.row.game_id))
            .then_with(|| a.row.game_ply.cmp(&b.row.game_ply))
    });
    Ok(out)
}

fn legal_map(pos: &Position) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut out: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for m in pos.legal_moves().iter() {
        let uci = escaque::coord::to_uci_in(pos, *m, false);
        let e = out.entry(uci[0..2].to_string()).or_default();
        let to = uci[2..4].to_string();
        if !e.contains(&to) {
            e.push(to);
        }
    }
    out
}

/// One step of a puzzle played on the pupil's page: the solver's `moves`
/// so far judged as [`super::judge_puzzle`] judges the attempt (the
/// expected move, or any move that mates), the opponent's reply, the legal
/// moves; the hint when asked (the piece of the next move of a solution
/// right so far). Nothing is stored.
pub fn step(p: &Puzzle, body: &wire::StepBody) -> Result<wire::StepAnswer, ApiError> {
    if body.moves.len() > super::MAX_WORK {
        return Err(ApiError::bad(
            "bad_step",
            "demasiadas jugadas",
            "too many moves",
        ));
    }
    let mut pos = p.shown_position();
    let mut state = "continue";
    let mut reply = None;
    for (k, text) in body.moves.iter().enumerate() {
        if state != "continue" {
            return Err(ApiError::bad(
                "bad_step",
                format!("la jugada {} viene después del final del problema", k + 1),
                format!("move {} comes after the puzzle's end", k + 1),
            ));
        }
        let index = 1 + 2 * k;
        let mv = escaque::read_move(&pos, text, Notation::Uci).map_err(|_| {
            ApiError::bad(
                "bad_step",
                format!("la jugada {} no es legal ahí", k + 1),
                format!("move {} is not legal there", k + 1),
            )
        })?;
        pos.play_unchecked(mv);
        if !p.accepts(index, mv) {
            state = "failed";
        } else if pos.is_checkmate() || index + 1 >= p.moves.len() {
            state = "solved";
        } else {
            let r = p.moves[index + 1];
            pos.play_unchecked(r);
            reply = Some(escaque::coord::to_uci(r));
        }
    }
    let (mut hint, mut piece_es, mut piece_en) = (None, None, None);
    if body.hint {
        if state != "continue" {
            return Err(ApiError::bad(
                "bad_step",
                "la pista es para la siguiente jugada de una solución correcta hasta aquí",
                "a hint is for the next move of a solution right so far",
            ));
        }
        let m = p.moves[1 + 2 * body.moves.len()];
        let role = pos.role_at(m.from()).ok_or_else(ApiError::internal)?;
        hint = Some(m.from().to_string());
        piece_es = Some(role.name_es().to_string());
        piece_en = Some(role.name_en().to_string());
    }
    Ok(wire::StepAnswer {
        state,
        fen: p.start.to_fen(),
        first_move: escaque::coord::to_uci(p.moves[0]),
        solver: match p.solver() {
            Color::White => "white",
            Color::Black => "black",
        },
        reply,
        legal: if state == "continue" {
            legal_map(&pos)
        } else {
            Default::default()
        },
        hint,
        piece_es,
        piece_en,
    })
}
