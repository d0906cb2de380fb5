//! Tareas (issue 57): homework a class's teacher sets, judged by the
//! server from what the pupil did, and the teacher's grid.
//!
//! * A **homework** is a list of [`Item`]s with a due time, for the whole
//!   class or chosen pupils: puzzles of the shipped sets (picked by id, or
//!   drawn by theme and rating range when the homework is set, so every
//!   pupil gets the same ones), stages of the course "Aprende a jugar",
//!   coordinates, a game against the engine with a goal, a position to play
//!   out against the engine.
//! * An **attempt** is judged here, never taken from the pupil's page: a
//!   puzzle's moves by [`Puzzle::accepts`] (the first wrong move fails it,
//!   as on lichess), a stage's tries replayed by
//!   [`escaque_play::aprender::progress::verify`], coordinates replayed by
//!   the trainer with the item's seed, a game read from the store (the
//!   pupil's, against the engine at that level or stronger, finished, begun
//!   after the homework was set, with the goal's result).
//! * A **cell** of the grid (one pupil, one item) is `first_try` (the first
//!   attempt solved it without a mistake or a hint), `after_help` (solved
//!   with a hint, a mistake, or — when the teacher allows it — a later
//!   attempt), `failed`, or `not_done`; overdue when nothing counting came
//!   by the due time. Without a second try only the first attempt counts;
//!   later ones are kept (practice) and shown to the teacher.
//! * Averages score a cell 100 (first try), 50 (after help) or 0.
//!
//! Who may do what is asked of [`crate::classes`] first: somebody outside
//! the class gets `404 class_not_found`, a pupil on a teacher's route
//! `403 teachers_only`, a pupil asking for a homework not set for it
//! `404 homework_not_found`.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::OnceLock;

use escaque::{Lang, Notation, Position, Role, Square};
use escaque_analysis::problemas::{self, Puzzle, Theme};
use escaque_play::aprender::coords::{Mode, Trainer};
use escaque_play::aprender::progress::{verify, ProgressError};
use escaque_play::aprender::{Course, Input};
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use crate::classes::{self, Role as ClassRole};
use crate::error::{ApiError, Kind};
use crate::identity::Identity;
use crate::proto::tareas as wire;
use crate::store::classes::{ClassRow, PupilRow};
use crate::store::tareas::{AttemptRow, HomeworkRow, ItemRow};
use crate::store::{now_ms, Store};
use crate::Hub;

pub mod juego;
pub mod partidas;

/// Most items in one homework.
pub const MAX_ITEMS: usize = 40;
/// Most puzzles drawn by one item.
pub const MAX_DRAW: u32 = 20;
/// Longest title (characters).
pub const MAX_TITLE: usize = 80;
/// Most moves, answers or tries in one attempt (per exercise for tries).
pub const MAX_WORK: usize = 500;
/// Most coordinates asked by one item.
pub const MAX_COORDS: u32 = 50;

/// One item as stored (`homework_items.spec`, JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Item {
    /// A shipped puzzle.
    Puzzle {
        /// Its id.
        id: String,
    },
    /// A puzzle found in the analysed game of one of the class's pupils,
    /// kept as it was when the homework was set.
    GamePuzzle {
        /// Its id.
        id: String,
        /// The position before the opponent's move.
        fen: String,
        /// The opponent's move, then the solution (UCI).
        moves: Vec<String>,
        /// The game it was found in.
        game: String,
        /// The ply (from 0) of the opponent's move in that game.
        ply: i64,
        /// The pupil who played it (account name).
        pupil: String,
        /// Where in the game, Spanish notation (`23. Cf3`).
        moved: String,
    },
    /// A course stage.
    Stage {
        /// Its id.
        stage: String,
    },
    /// Coordinates.
    Coords {
        /// `buscar` or `nombrar`.
        mode: String,
        /// Right answers needed.
        count: u32,
        /// The trainer's seed (the same squares for every pupil).
        seed: u64,
    },
    /// A game against the engine.
    EngineGame {
        /// Level (1–10), or stronger.
        level: u8,
        /// `gana_blancas`, `gana_negras`, `tablas`.
        goal: String,
    },
    /// A position played out against the engine.
    Position {
        /// The FEN.
        fen: String,
        /// Level.
        level: u8,
        /// `gana`, `tablas`.
        goal: String,
    },
}

impl Item {
    /// The kind's id.
    pub fn kind(&self) -> &'static str {
        match self {
            Item::Puzzle { .. } => "puzzle",
            Item::GamePuzzle { .. } => "game_puzzle",
            Item::Stage { .. } => "stage",
            Item::Coords { .. } => "coords",
            Item::EngineGame { .. } => "engine_game",
            Item::Position { .. } => "position",
        }
    }

    /// What is asked, Spanish and English.
    pub fn words(&self) -> (String, String) {
        match self {
            Item::Puzzle { id } => {
                let themes = library()
                    .puzzle(id)
                    .map(|p| {
                        p.themes
                            .iter()
                            .filter_map(|k| Theme::from_key(k))
                            .take(2)
                            .collect::<Vec<_>>()
                    })
                    .unwrap_or_default();
                let es: Vec<&str> = themes.iter().map(|t| t.name(Lang::Es)).collect();
                let en: Vec<&str> = themes.iter().map(|t| t.name(Lang::En)).collect();
                (
                    format!("Problema {id} ({})", es.join(", ")),
                    format!("Puzzle {id} ({})", en.join(", ")),
                )
            }
            Item::GamePuzzle {
                pupil, moved, game, ..
            } => (
                format!("Problema de la partida de {pupil} ({game}, tras {moved})"),
                format!("Puzzle from {pupil}'s game ({game}, after {moved})"),
            ),
            Item::Stage { stage } => {
                let title = library()
                    .course
                    .as_ref()
                    .and_then(|c| c.stage(stage))
                    .map(|s| (s.title.es.clone(), s.title.en.clone()))
                    .unwrap_or_else(|| (stage.clone(), stage.clone()));
                (
                    format!("Etapa «{}»", title.0),
                    format!("Stage “{}”", title.1),
                )
            }
            Item::Coords { mode, count, .. } => {
                if mode == "nombrar" {
                    (
                        format!("Coordenadas: nombra {count} casillas"),
                        format!("Coordinates: name {count} squares"),
                    )
                } else {
                    (
                        format!("Coordenadas: encuentra {count} casillas"),
                        format!("Coordinates: find {count} squares"),
                    )
                }
            }
            Item::EngineGame { level, goal } => {
                let (es, en) = match goal.as_str() {
                    "gana_blancas" => ("gana con blancas", "win with White"),
                    "gana_negras" => ("gana con negras", "win with Black"),
                    _ => ("consigue tablas", "get a draw"),
                };
                (
                    format!("Partida contra el motor (nivel {level}): {es}"),
                    format!("Game against the engine (level {level}): {en}"),
                )
            }
            Item::Position { level, goal, .. } => {
                let (es, en) = if goal == "gana" {
                    ("gánala", "win it")
                } else {
                    ("consigue tablas", "get a draw")
                };
                (
                    format!("Posición contra el motor (nivel {level}): {es}"),
                    format!("Position against the engine (level {level}): {en}"),
                )
            }
        }
    }

    /// A short label for a column of the grid (Spanish).
    pub fn short(&self, idx: usize) -> String {
        let n = idx + 1;
        match self {
            Item::Puzzle { id } => format!("{n}. Problema {id}"),
            Item::GamePuzzle { pupil, .. } => format!("{n}. Problema de {pupil}"),
            Item::Stage { stage } => format!("{n}. Etapa {stage}"),
            Item::Coords { count, .. } => format!("{n}. Coordenadas {count}"),
            Item::EngineGame { level, .. } => format!("{n}. Partida nivel {level}"),
            Item::Position { level, .. } => format!("{n}. Posición nivel {level}"),
        }
    }
}

// ---------------------------------------------------------------- material

/// The material homework draws from: the shipped puzzles and the course.
pub struct Library {
    /// Every shipped puzzle (both sets), in file order.
    pub puzzles: Vec<Puzzle>,
    by_id: HashMap<String, usize>,
    /// The built-in course (`None` only if it failed to load, which the
    /// course's own tests rule out).
    pub course: Option<Course>,
}

impl Library {
    /// The puzzle with that id.
    pub fn puzzle(&self, id: &str) -> Option<&Puzzle> {
        self.by_id.get(id).map(|&i| &self.puzzles[i])
    }
}

/// The material, read once.
pub fn library() -> &'static Library {
    static LIB: OnceLock<Library> = OnceLock::new();
    LIB.get_or_init(|| {
        let mut puzzles = problemas::shipped();
        puzzles.extend(problemas::shipped_mates());
        let mut by_id = HashMap::new();
        let mut kept = Vec::new();
        for p in puzzles {
            if !by_id.contains_key(&p.id) {
                by_id.insert(p.id.clone(), kept.len());
                kept.push(p);
            }
        }
        Library {
            puzzles: kept,
            by_id,
            course: Course::builtin().ok(),
        }
    })
}

fn course() -> Result<&'static Course, ApiError> {
    library().course.as_ref().ok_or_else(ApiError::internal)
}

// ---------------------------------------------------------------- refusals

/// `404 homework_not_found`.
pub fn homework_not_found() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "homework_not_found",
        "no existe esa tarea (o no es para ti)",
        "no such homework (or it is not for you)",
    )
}

/// `404 item_not_found`.
pub fn item_not_found() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "item_not_found",
        "la tarea no tiene ese ejercicio",
        "the homework has no such item",
    )
}

/// `404 attempt_not_found`.
pub fn attempt_not_found() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "attempt_not_found",
        "no existe ese intento",
        "no such attempt",
    )
}

/// `403 pupils_only`: a teacher tried to hand in an attempt.
pub fn pupils_only() -> ApiError {
    ApiError::new(
        Kind::Forbidden,
        "pupils_only",
        "solo los alumnos a los que se puso la tarea la entregan",
        "only the pupils the homework was set for hand it in",
    )
}

fn bad_item(idx: usize, es: &str, en: &str) -> ApiError {
    ApiError::bad(
        "bad_item",
        format!("ejercicio {}: {es}", idx + 1),
        format!("item {}: {en}", idx + 1),
    )
}

fn bad_attempt(es: impl Into<String>, en: impl Into<String>) -> ApiError {
    ApiError::bad("bad_attempt", es, en)
}

// ---------------------------------------------------------------- setting

/// The items of a new homework, checked, with drawn puzzles resolved.
///
/// `found`: the puzzles of the class's games a `game_puzzle` item may name
/// ([`partidas::of_class`]); any other id is refused.
pub fn resolve_items(
    new: &[wire::NewItem],
    found: &[partidas::Found],
) -> Result<Vec<Item>, ApiError> {
    use wire::NewItem as N;
    let lib = library();
    let mut out: Vec<Item> = Vec::new();
    if new.is_empty() {
        return Err(ApiError::bad(
            "bad_items",
            "una tarea tiene al menos un ejercicio",
            "a homework has at least one item",
        ));
    }
    for (i, it) in new.iter().enumerate() {
        match it {
            N::Puzzle { id } => {
                if lib.puzzle(id).is_none() {
                    return Err(bad_item(
                        i,
                        &format!("no hay ningún problema «{}»", clip(id)),
                        &format!("there is no puzzle '{}'", clip(id)),
                    ));
                }
                out.push(Item::Puzzle { id: id.clone() });
            }
            N::GamePuzzle { id } => {
                let Some(f) = found.iter().find(|f| &f.row.id == id) else {
                    return Err(bad_item(
                        i,
                        &format!(
                            "no hay ningún problema «{}» de las partidas de esta clase",
                            clip(id)
                        ),
                        &format!("there is no puzzle '{}' from this class's games", clip(id)),
                    ));
                };
                out.push(f.item());
            }
            N::Puzzles {
                theme,
                min_rating,
                max_rating,
                count,
            } => {
                if *count == 0 || *count > MAX_DRAW {
                    return Err(bad_item(
                        i,
                        &format!("se sacan de 1 a {MAX_DRAW} problemas"),
                        &format!("1 to {MAX_DRAW} puzzles are drawn"),
                    ));
                }
                if let Some(t) = theme {
                    if Theme::from_key(t).is_none() {
                        return Err(bad_item(
                            i,
                            &format!("no hay ningún tema «{}»", clip(t)),
                            &format!("there is no theme '{}'", clip(t)),
                        ));
                    }
                }
                let taken: HashSet<&str> = out
                    .iter()
                    .filter_map(|x| match x {
                        Item::Puzzle { id } => Some(id.as_str()),
                        _ => None,
                    })
                    .collect();
                let mut pool: Vec<&Puzzle> = lib
                    .puzzles
                    .iter()
                    .filter(|p| {
                        theme
                            .as_ref()
                            .is_none_or(|t| p.themes.iter().any(|x| x == t))
                    })
                    .filter(|p| min_rating.is_none_or(|m| p.rating >= m))
                    .filter(|p| max_rating.is_none_or(|m| p.rating <= m))
                    .filter(|p| !taken.contains(p.id.as_str()))
                    .collect();
                if pool.len() < *count as usize {
                    return Err(bad_item(
                        i,
                        &format!(
                            "solo hay {} problemas de ese tema y puntuación (se piden {count})",
                            pool.len()
                        ),
                        &format!(
                            "there are only {} puzzles of that theme and rating ({count} asked)",
                            pool.len()
                        ),
                    ));
                }
                pool.shuffle(&mut rand::rng());
                let ids: Vec<String> = pool
                    .iter()
                    .take(*count as usize)
                    .map(|p| p.id.clone())
                    .collect();
                out.extend(ids.into_iter().map(|id| Item::Puzzle { id }));
            }
            N::Stage { stage } => {
                if course()?.stage(stage).is_none() {
                    return Err(bad_item(
                        i,
                        &format!("no hay ninguna etapa «{}»", clip(stage)),
                        &format!("there is no stage '{}'", clip(stage)),
                    ));
                }
                out.push(Item::Stage {
                    stage: stage.clone(),
                });
            }
            N::Coords { mode, count } => {
                let Some(m) = Mode::from_id(mode) else {
                    return Err(bad_item(
                        i,
                        "el modo de las coordenadas es «buscar» o «nombrar»",
                        "the coordinates' mode is 'buscar' or 'nombrar'",
                    ));
                };
                if *count == 0 || *count > MAX_COORDS {
                    return Err(bad_item(
                        i,
                        &format!("se piden de 1 a {MAX_COORDS} coordenadas"),
                        &format!("1 to {MAX_COORDS} coordinates are asked"),
                    ));
                }
                out.push(Item::Coords {
                    mode: m.id().to_string(),
                    count: *count,
                    seed: u64::from(rand::random::<u32>()),
                });
            }
            N::EngineGame { level, goal } => {
                level_ok(i, *level)?;
                if !["gana_blancas", "gana_negras", "tablas"].contains(&goal.as_str()) {
                    return Err(bad_item(
                        i,
                        "la meta es «gana_blancas», «gana_negras» o «tablas»",
                        "the goal is 'gana_blancas', 'gana_negras' or 'tablas'",
                    ));
                }
                out.push(Item::EngineGame {
                    level: *level,
                    goal: goal.clone(),
                });
            }
            N::Position { fen, level, goal } => {
                level_ok(i, *level)?;
                if goal != "gana" && goal != "tablas" {
                    return Err(bad_item(
                        i,
                        "la meta es «gana» o «tablas»",
                        "the goal is 'gana' or 'tablas'",
                    ));
                }
                let pos = Position::from_fen(fen.trim()).map_err(|e| {
                    bad_item(
                        i,
                        &format!("la posición no vale: {}", e.message(Lang::Es)),
                        &format!("the position is not valid: {}", e.message(Lang::En)),
                    )
                })?;
                if pos.legal_moves().is_empty() {
                    return Err(bad_item(
                        i,
                        "en esa posición no queda ninguna jugada",
                        "there is no move left in that position",
                    ));
                }
                out.push(Item::Position {
                    fen: pos.to_fen(),
                    level: *level,
                    goal: goal.clone(),
                });
            }
        }
        if out.len() > MAX_ITEMS {
            return Err(ApiError::bad(
                "bad_items",
                format!("una tarea tiene como mucho {MAX_ITEMS} ejercicios"),
                format!("a homework has at most {MAX_ITEMS} items"),
            ));
        }
    }
    Ok(out)
}

fn level_ok(i: usize, level: u8) -> Result<(), ApiError> {
    if (1..=10).contains(&level) {
        Ok(())
    } else {
        Err(bad_item(
            i,
            "el nivel del motor va de 1 a 10",
            "the engine's level is 1 to 10",
        ))
    }
}

/// At most 40 characters of a text the asker sent, for a message.
fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

use escaque::Localized as _;

/// The items of a stored homework, read back.
pub fn items_of(rows: &[ItemRow]) -> Result<Vec<Item>, ApiError> {
    rows.iter()
        .map(|r| {
            serde_json::from_str::<Item>(&r.spec).map_err(|_| {
                crate::error::log_storage(&crate::store::StoreError::Corrupt {
                    what: "homework_items.spec",
                    value: r.spec.clone(),
                });
                ApiError::storage()
            })
        })
        .collect()
}

// ---------------------------------------------------------------- judging

/// What an attempt is stored with besides the work: the judge's reading.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Detail {
    /// Where the moves start.
    pub fen: Option<String>,
    /// The moves in UCI.
    pub moves: Vec<String>,
    /// The moves in Spanish notation.
    pub san: Vec<String>,
    /// A stage's exercises.
    pub exercises: Vec<wire::ExerciseResult>,
    /// The judge's words.
    pub es: String,
    /// The judge's words, English.
    pub en: String,
}

/// An attempt judged.
#[derive(Clone, Debug)]
pub struct Judged {
    /// Solved.
    pub solved: bool,
    /// Without a mistake (hints are added by the caller).
    pub clean: bool,
    /// What the judge read.
    pub detail: Detail,
}

fn san_line(start: &Position, moves: &[escaque::Move]) -> (Vec<String>, Vec<String>) {
    let mut pos = *start;
    let mut uci = Vec::new();
    let mut san = Vec::new();
    for &m in moves {
        uci.push(m.to_string());
        san.push(escaque::san::san(&pos, m, Lang::Es));
        pos.play_unchecked(m);
    }
    (uci, san)
}

/// Judges a puzzle attempt: the solver's moves `moves` (UCI).
pub fn judge_puzzle(p: &Puzzle, moves: &[String]) -> Result<Judged, ApiError> {
    if moves.len() > MAX_WORK {
        return Err(bad_attempt("demasiadas jugadas", "too many moves"));
    }
    let mut pos = p.shown_position();
    let mut line = vec![p.moves[0]];
    let mut verdict: Option<bool> = None;
    for (k, text) in moves.iter().enumerate() {
        if verdict.is_some() {
            return Err(bad_attempt(
                format!("la jugada {} viene después del final del problema", k + 1),
                format!("move {} comes after the puzzle's end", k + 1),
            ));
        }
        let index = 1 + 2 * k;
        let mv = escaque::read_move(&pos, text, Notation::Uci).map_err(|_| {
            bad_attempt(
                format!("la jugada {} («{}») no es legal ahí", k + 1, clip(text)),
                format!("move {} ('{}') is not legal there", k + 1, clip(text)),
            )
        })?;
        pos.play_unchecked(mv);
        line.push(mv);
        if !p.accepts(index, mv) {
            verdict = Some(false);
            continue;
        }
        if pos.is_checkmate() || index + 1 >= p.moves.len() {
            verdict = Some(true);
            continue;
        }
        let reply = p.moves[index + 1];
        pos.play_unchecked(reply);
        line.push(reply);
    }
    let (uci, san) = san_line(&p.start, &line);
    let (solved, es, en) = match verdict {
        Some(true) => (true, "resuelto".to_string(), "solved".to_string()),
        Some(false) => (
            false,
            format!(
                "fallado: {} no era la jugada",
                san.last().cloned().unwrap_or_default()
            ),
            format!(
                "failed: {} was not the move",
                san.last().cloned().unwrap_or_default()
            ),
        ),
        None => (
            false,
            "sin terminar (se dejó antes del final)".to_string(),
            "unfinished (left before the end)".to_string(),
        ),
    };
    Ok(Judged {
        solved,
        clean: solved,
        detail: Detail {
            fen: Some(p.start.to_fen()),
            moves: uci,
            san,
            exercises: Vec::new(),
            es,
            en,
        },
    })
}

fn square(text: &str) -> Result<Square, ApiError> {
    Square::parse(text.trim()).ok_or_else(|| {
        bad_attempt(
            format!("«{}» no es una casilla", clip(text)),
            format!("'{}' is not a square", clip(text)),
        )
    })
}

fn input_of(t: &wire::Try) -> Result<Input, ApiError> {
    Ok(match t {
        wire::Try::Move {
            from,
            to,
            promotion,
        } => {
            let promotion = match promotion.as_deref() {
                None => None,
                Some(l) => {
                    let mut cs = l.chars();
                    match (cs.next().and_then(Role::from_char_es), cs.next()) {
                        (Some(r), None) => Some(r),
                        _ => {
                            return Err(bad_attempt(
                                format!("«{}» no es una pieza (D, T, A, C)", clip(l)),
                                format!("'{}' is not a piece (D, T, A, C)", clip(l)),
                            ))
                        }
                    }
                }
            };
            Input::Move {
                from: square(from)?,
                to: square(to)?,
                promotion,
            }
        }
        wire::Try::Square { sq } => Input::Square(square(sq)?),
        wire::Try::Text { text } => Input::Text(clip_long(text)),
        wire::Try::Choice { n } => Input::Choice(*n),
    })
}

fn clip_long(s: &str) -> String {
    s.chars().take(200).collect()
}

/// Judges a stage attempt: the tries of each exercise in order.
pub fn judge_stage(stage: &str, tries: &[Vec<wire::Try>]) -> Result<Judged, ApiError> {
    let course = course()?;
    let st = course
        .stage(stage)
        .ok_or_else(|| bad_attempt("no existe esa etapa", "no such stage"))?;
    if tries.len() > st.exercises.len() {
        return Err(bad_attempt(
            format!("la etapa tiene {} ejercicios", st.exercises.len()),
            format!("the stage has {} exercises", st.exercises.len()),
        ));
    }
    let mut exercises = Vec::new();
    for (e, ts) in tries.iter().enumerate() {
        let inputs = ts.iter().map(input_of).collect::<Result<Vec<_>, _>>()?;
        let stars = match verify(course, stage, e, &inputs) {
            Ok(s) => Some(s),
            Err(ProgressError::NotSolved) => None,
            Err(other) => {
                let t = other.text();
                return Err(bad_attempt(
                    format!("ejercicio {}: {}", e + 1, t.es),
                    format!("exercise {}: {}", e + 1, t.en),
                ));
            }
        };
        exercises.push(wire::ExerciseResult {
            exercise: e,
            stars,
            tries: ts.len(),
        });
    }
    let met = exercises.iter().filter(|x| x.stars.is_some()).count();
    let solved = met == st.exercises.len();
    let clean = solved && exercises.iter().all(|x| x.stars == Some(3));
    let total = st.exercises.len();
    Ok(Judged {
        solved,
        clean,
        detail: Detail {
            exercises,
            es: format!("{met} de {total} ejercicios cumplidos"),
            en: format!("{met} of {total} exercises met"),
            ..Detail::default()
        },
    })
}

/// Judges coordinates: the answers replayed on the trainer of `seed`.
pub fn judge_coords(
    mode: &str,
    count: u32,
    seed: u64,
    answers: &[String],
) -> Result<Judged, ApiError> {
    if answers.len() > MAX_WORK {
        return Err(bad_attempt("demasiadas respuestas", "too many answers"));
    }
    let m = Mode::from_id(mode).unwrap_or(Mode::Find);
    let mut t = Trainer::new(m, escaque::Color::White, seed);
    for a in answers {
        if t.right() >= count {
            break;
        }
        match m {
            Mode::Find => {
                t.answer_square(square(a)?);
            }
            Mode::Name => {
                t.answer_name(&clip_long(a));
            }
        }
    }
    let solved = t.right() >= count;
    Ok(Judged {
        solved,
        clean: solved && t.wrong() == 0,
        detail: Detail {
            es: format!("{} bien, {} mal", t.right(), t.wrong()),
            en: format!("{} right, {} wrong", t.right(), t.wrong()),
            ..Detail::default()
        },
    })
}

/// Judges a game: `game` must be `owner`'s, against the engine at `level`
/// or stronger, finished, begun at or after `since_ms`, from the start
/// position (`fen` `None`) or from `fen`.
pub async fn judge_game(
    store: &Store,
    owner: &str,
    game: &str,
    since_ms: i64,
    level: u8,
    fen: Option<&str>,
    goal: &str,
) -> Result<Judged, ApiError> {
    let not_yours = || {
        bad_attempt(
            "esa partida no es tuya contra el motor",
            "that game is not yours against the engine",
        )
    };
    let g = store.game(game).await?.ok_or_else(not_yours)?;
    let white = if g.white_owner.as_deref() == Some(owner) {
        true
    } else if g.black_owner.as_deref() == Some(owner) {
        false
    } else {
        return Err(not_yours());
    };
    let other = if white { &g.black_kind } else { &g.white_kind };
    let Some(engine_level) = other
        .strip_prefix("engine:")
        .and_then(|n| n.parse::<u8>().ok())
    else {
        return Err(not_yours());
    };
    if engine_level < level {
        return Err(bad_attempt(
            format!("el motor de esa partida tenía nivel {engine_level}; la tarea pide {level} o más"),
            format!("that game's engine had level {engine_level}; the homework asks for {level} or more"),
        ));
    }
    if g.created_ms < since_ms {
        return Err(bad_attempt(
            "esa partida empezó antes de que se pusiera la tarea",
            "that game began before the homework was set",
        ));
    }
    let start = Position::from_fen(&g.start_fen)?;
    match fen {
        None => {
            if g.chess960 || start != Position::new() {
                return Err(bad_attempt(
                    "esa partida no empezó en la posición inicial",
                    "that game did not begin at the starting position",
                ));
            }
        }
        Some(f) => {
            let want = Position::from_fen(f)?;
            if start != want {
                return Err(bad_attempt(
                    "esa partida no empezó en la posición de la tarea",
                    "that game did not begin at the homework's position",
                ));
            }
            if start.turn()
                != if white {
                    escaque::Color::White
                } else {
                    escaque::Color::Black
                }
            {
                return Err(bad_attempt(
                    "en esa partida no llevabas el bando que mueve primero",
                    "in that game you did not have the side to move",
                ));
            }
        }
    }
    let Some(end) = g.end.filter(|_| g.status == "over") else {
        return Err(bad_attempt(
            "esa partida no ha terminado",
            "that game is not over",
        ));
    };
    let result = end.result_pgn();
    let won = (result == "1-0" && white) || (result == "0-1" && !white);
    let drawn = result == "1/2-1/2";
    let solved = match goal {
        "gana_blancas" => white && won,
        "gana_negras" => !white && won,
        "gana" => won,
        _ => won || drawn,
    };
    let mut moves = Vec::new();
    let mut pos = start;
    for m in store.moves(game).await? {
        match escaque::read_move(&pos, &m.uci, Notation::Uci) {
            Ok(mv) => {
                pos.play_unchecked(mv);
                moves.push(mv);
            }
            Err(_) => break,
        }
    }
    let (uci, san) = san_line(&start, &moves);
    Ok(Judged {
        solved,
        clean: solved,
        detail: Detail {
            fen: Some(start.to_fen()),
            moves: uci,
            san,
            exercises: Vec::new(),
            es: format!("partida {game}: {result}"),
            en: format!("game {game}: {result}"),
        },
    })
}

/// Judges `body` as an attempt at `item` by `owner` (identity key).
pub async fn judge(
    store: &Store,
    owner: &str,
    hw: &HomeworkRow,
    item: &Item,
    body: &wire::AttemptBody,
) -> Result<Judged, ApiError> {
    let missing = |field: &str| {
        bad_attempt(
            format!("falta «{field}» para este ejercicio"),
            format!("'{field}' is missing for this item"),
        )
    };
    match item {
        Item::Puzzle { id } => {
            let p = library().puzzle(id).ok_or_else(ApiError::internal)?;
            judge_puzzle(p, body.moves.as_deref().ok_or_else(|| missing("moves"))?)
        }
        Item::GamePuzzle { .. } => {
            let p = partidas::puzzle_of(item).ok_or_else(ApiError::internal)?;
            judge_puzzle(&p, body.moves.as_deref().ok_or_else(|| missing("moves"))?)
        }
        Item::Stage { stage } => {
            let tries = body.tries.as_deref().ok_or_else(|| missing("tries"))?;
            if tries.iter().any(|t| t.len() > MAX_WORK) {
                return Err(bad_attempt("demasiados intentos", "too many tries"));
            }
            judge_stage(stage, tries)
        }
        Item::Coords { mode, count, seed } => judge_coords(
            mode,
            *count,
            *seed,
            body.answers.as_deref().ok_or_else(|| missing("answers"))?,
        ),
        Item::EngineGame { level, goal } => {
            let g = body.game.as_deref().ok_or_else(|| missing("game"))?;
            judge_game(store, owner, g, hw.created_ms, *level, None, goal).await
        }
        Item::Position { fen, level, goal } => {
            let g = body.game.as_deref().ok_or_else(|| missing("game"))?;
            judge_game(store, owner, g, hw.created_ms, *level, Some(fen), goal).await
        }
    }
}

// ---------------------------------------------------------------- cells

/// A cell's state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// Solved by the first attempt, without a mistake or a hint.
    FirstTry,
    /// Solved with a hint, a mistake or a later attempt.
    AfterHelp,
    /// Attempted, not solved.
    Failed,
    /// No attempt.
    NotDone,
}

impl State {
    /// The id on the wire.
    pub fn id(self) -> &'static str {
        match self {
            State::FirstTry => "first_try",
            State::AfterHelp => "after_help",
            State::Failed => "failed",
            State::NotDone => "not_done",
        }
    }

    /// The Spanish word (CSV, PDF).
    pub fn es(self) -> &'static str {
        match self {
            State::FirstTry => "primera",
            State::AfterHelp => "con ayuda",
            State::Failed => "fallada",
            State::NotDone => "sin hacer",
        }
    }

    /// The score for averages.
    pub fn score(self) -> u32 {
        match self {
            State::FirstTry => 100,
            State::AfterHelp => 50,
            _ => 0,
        }
    }
}

/// One pupil's cell for one item: `attempts` that pupil's attempts at the
/// item, oldest first.
pub fn cell(attempts: &[&AttemptRow], retry: bool, due_ms: i64, now: i64) -> (State, wire::Cell) {
    let counting: Option<(usize, &AttemptRow)> = if retry {
        attempts
            .iter()
            .enumerate()
            .find(|(_, a)| a.solved)
            .or_else(|| attempts.iter().enumerate().next_back())
            .map(|(i, a)| (i, *a))
    } else {
        attempts.first().map(|a| (0, *a))
    };
    let state = match counting {
        None => State::NotDone,
        Some((0, a)) if a.solved && a.clean => State::FirstTry,
        Some((_, a)) if a.solved => State::AfterHelp,
        Some(_) => State::Failed,
    };
    let overdue = match counting {
        None => now > due_ms,
        Some((_, a)) => a.at_ms > due_ms,
    };
    (
        state,
        wire::Cell {
            state: state.id(),
            overdue,
            attempt: counting.map(|(_, a)| a.id.clone()),
            attempts: attempts.len(),
        },
    )
}

/// Rounded mean of scores (0 for none).
fn mean(scores: &[u32]) -> u32 {
    if scores.is_empty() {
        return 0;
    }
    let sum: u32 = scores.iter().sum();
    (sum + scores.len() as u32 / 2) / scores.len() as u32
}

// ---------------------------------------------------------------- access

/// The homework `hw_id` of class `class_id` for one of its teachers.
pub async fn teaching(
    hub: &Hub,
    me: &Identity,
    class_id: &str,
    hw_id: &str,
) -> Result<(ClassRow, HomeworkRow), ApiError> {
    let class = classes::teaching(hub, me, class_id).await?;
    let hw = hub
        .store
        .homework(hw_id)
        .await?
        .filter(|h| h.class_id == class.id)
        .ok_or_else(homework_not_found)?;
    Ok((class, hw))
}

/// Whether homework `hw` is set for pupil `user_id`.
pub async fn set_for(store: &Store, hw: &HomeworkRow, user_id: &str) -> Result<bool, ApiError> {
    Ok(hw.whole
        || store
            .homework_pupils(&hw.id)
            .await?
            .iter()
            .any(|u| u == user_id))
}

/// The homework `hw_id` of class `class_id` for a teacher or a pupil it
/// is set for; the role.
pub async fn member(
    hub: &Hub,
    me: &Identity,
    class_id: &str,
    hw_id: &str,
) -> Result<(ClassRow, HomeworkRow, ClassRole), ApiError> {
    let (class, role) = classes::member(hub, me, class_id).await?;
    let hw = hub
        .store
        .homework(hw_id)
        .await?
        .filter(|h| h.class_id == class.id)
        .ok_or_else(homework_not_found)?;
    if role == ClassRole::Pupil {
        let uid = classes::user_id(me).unwrap_or_default();
        if !set_for(&hub.store, &hw, uid).await? {
            return Err(homework_not_found());
        }
    }
    Ok((class, hw, role))
}

/// The pupils a homework is set for (active ones), in the order of their
/// real names as a class list orders them ("Alumno 2" before "Alumno 10").
pub async fn pupils_of(store: &Store, hw: &HomeworkRow) -> Result<Vec<PupilRow>, ApiError> {
    let mut pupils = store.class_pupils(&hw.class_id, false).await?;
    if !hw.whole {
        let chosen: HashSet<String> = store.homework_pupils(&hw.id).await?.into_iter().collect();
        pupils.retain(|p| chosen.contains(&p.user_id));
    }
    pupils.sort_by(|a, b| {
        crate::names::natural_key(&a.real_name)
            .cmp(&crate::names::natural_key(&b.real_name))
            .then_with(|| a.name.cmp(&b.name))
    });
    Ok(pupils)
}

// ---------------------------------------------------------------- grid

/// The grid of a homework: every pupil it is set for × every item.
pub async fn grid(store: &Store, hw: &HomeworkRow) -> Result<wire::Grid, ApiError> {
    let items = items_of(&store.homework_items(&hw.id).await?)?;
    let pupils = pupils_of(store, hw).await?;
    let attempts = store.homework_attempts(&hw.id, None).await?;
    let mut by: HashMap<(&str, i64), Vec<&AttemptRow>> = HashMap::new();
    for a in &attempts {
        by.entry((a.user_id.as_str(), a.idx)).or_default().push(a);
    }
    let now = now_ms();
    let mut columns: Vec<Vec<u32>> = vec![Vec::new(); items.len()];
    let mut rows = Vec::with_capacity(pupils.len());
    for p in &pupils {
        let mut cells = Vec::with_capacity(items.len());
        let mut scores = Vec::with_capacity(items.len());
        for (i, col) in columns.iter_mut().enumerate() {
            let empty = Vec::new();
            let list = by.get(&(p.user_id.as_str(), i as i64)).unwrap_or(&empty);
            let (state, c) = cell(list, hw.retry, hw.due_ms, now);
            scores.push(state.score());
            col.push(state.score());
            cells.push(c);
        }
        rows.push(wire::GridRow {
            name: p.name.clone(),
            real_name: p.real_name.clone(),
            cells,
            average: mean(&scores),
        });
    }
    Ok(wire::Grid {
        homework: hw.id.clone(),
        title: hw.title.clone(),
        due_ms: hw.due_ms,
        overdue: now > hw.due_ms,
        items: items
            .iter()
            .enumerate()
            .map(|(i, it)| wire::GridItem {
                idx: i,
                label: it.short(i),
                average: mean(&columns[i]),
            })
            .collect(),
        pupils: rows,
    })
}

fn state_es(id: &str) -> &'static str {
    match id {
        "first_try" => State::FirstTry.es(),
        "after_help" => State::AfterHelp.es(),
        "failed" => State::Failed.es(),
        _ => State::NotDone.es(),
    }
}

/// A cell as the CSV and the PDF write it: the Spanish word, `(tarde)`
/// when overdue.
pub fn cell_words(c: &wire::Cell) -> String {
    if c.overdue {
        format!("{} (tarde)", state_es(c.state))
    } else {
        state_es(c.state).to_string()
    }
}

fn csv_field(s: &str) -> String {
    // A leading =, +, - or @ would be a formula in a spreadsheet.
    let s = if s.starts_with(['=', '+', '-', '@']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// The grid as CSV (UTF-8, comma-separated): a header line, one line per
/// pupil (account name, real name, one cell per item, average), a last
/// line of the items' averages.
pub fn csv(g: &wire::Grid) -> String {
    let mut out = String::new();
    let mut head = vec!["Alumno".to_string(), "Nombre".to_string()];
    head.extend(g.items.iter().map(|i| i.label.clone()));
    head.push("Media".into());
    let _ = writeln!(
        out,
        "{}",
        head.iter()
            .map(|h| csv_field(h))
            .collect::<Vec<_>>()
            .join(",")
    );
    for r in &g.pupils {
        let mut f = vec![csv_field(&r.name), csv_field(&r.real_name)];
        f.extend(r.cells.iter().map(|c| csv_field(&cell_words(c))));
        f.push(r.average.to_string());
        let _ = writeln!(out, "{}", f.join(","));
    }
    let mut f = vec!["Media".to_string(), String::new()];
    f.extend(g.items.iter().map(|i| i.average.to_string()));
    let all: Vec<u32> = g.pupils.iter().map(|r| r.average).collect();
    f.push(mean(&all).to_string());
    let _ = writeln!(out, "{}", f.join(","));
    out
}

/// A pupil's cells for one homework (its own attempts) and how many
/// items are left (not solved in a counting attempt and, without a second
/// try, not attempted).
pub fn pupil_cells(
    hw: &HomeworkRow,
    items: usize,
    attempts: &[AttemptRow],
) -> (Vec<(State, wire::Cell)>, usize) {
    let now = now_ms();
    let mut cells = Vec::with_capacity(items);
    for i in 0..items {
        let list: Vec<&AttemptRow> = attempts.iter().filter(|a| a.idx == i as i64).collect();
        cells.push(cell(&list, hw.retry, hw.due_ms, now));
    }
    let left = cells
        .iter()
        .filter(|(s, _)| match s {
            State::NotDone => true,
            State::Failed => hw.retry,
            _ => false,
        })
        .count();
    (cells, left)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn att(i: u32, solved: bool, clean: bool, at: i64) -> AttemptRow {
        AttemptRow {
            id: format!("a{i}"),
            homework_id: "h".into(),
            idx: 0,
            user_id: "u".into(),
            at_ms: at,
            work: "{}".into(),
            time_ms: 0,
            hints: 0,
            solved,
            clean,
            detail: "{}".into(),
        }
    }

    #[test]
    fn cells_follow_the_second_try_rule() {
        let fail = att(1, false, false, 10);
        let win = att(2, true, true, 20);
        let both = [&fail, &win];
        assert_eq!(cell(&both, false, 100, 50).0, State::Failed);
        assert_eq!(cell(&both, true, 100, 50).0, State::AfterHelp);
        assert_eq!(cell(&both, true, 100, 50).1.attempt.as_deref(), Some("a2"));
        assert_eq!(cell(&[&win], false, 100, 50).0, State::FirstTry);
        let hinted = att(3, true, false, 10);
        assert_eq!(cell(&[&hinted], false, 100, 50).0, State::AfterHelp);
        let (s, c) = cell(&[], false, 100, 150);
        assert_eq!((s, c.overdue), (State::NotDone, true));
        let (_, c) = cell(&[], false, 100, 50);
        assert!(!c.overdue);
        let late = att(4, true, true, 120);
        assert!(cell(&[&late], false, 100, 150).1.overdue);
    }

    #[test]
    fn a_puzzle_is_judged_by_its_solution() {
        let p = library().puzzles[0].clone();
        let sol: Vec<String> = p.solution().map(|m| m.to_string()).collect();
        let j = judge_puzzle(&p, &sol).unwrap();
        assert!(j.solved && j.clean, "{:?}", j.detail);
        assert_eq!(j.detail.moves.len(), p.moves.len());
        // A legal move that is not the solution fails it.
        let shown = p.shown_position();
        let wrong = shown
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| !p.accepts(1, m))
            .expect("a wrong move");
        let j = judge_puzzle(&p, &[wrong.to_string()]).unwrap();
        assert!(!j.solved);
        // Nothing played: not solved; an illegal move: refused.
        assert!(!judge_puzzle(&p, &[]).unwrap().solved);
        assert!(judge_puzzle(&p, &["a1a1".into()]).is_err());
    }

    #[test]
    fn csv_fields_are_quoted_and_never_formulas() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("=1+1"), "'=1+1");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
