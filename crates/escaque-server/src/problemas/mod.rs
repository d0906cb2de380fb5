//! The puzzle trainer (issue 56; docs/protocol.md "Problemas").
//!
//! * **The catalogue.** The shipped set and the children's mates
//!   (`escaque_analysis::problemas::shipped` and `shipped_mates`, embedded
//!   in the binary) are stored on start ([`load_catalogue`]): a puzzle
//!   already stored keeps its rating and plays, a new one in a bigger set
//!   is added. Puzzles found in a player's analysed game ([`from_game`])
//!   join the catalogue and that player's queue, never the others' draws.
//! * **Serving.** [`next`] opens an attempt: in `rating` mode the puzzle
//!   nearest the solver's rating plus the difficulty's offset (lichess's:
//!   −600, −300, 0, +300, +600), one the solver has not answered, by theme
//!   when asked; in `streak` mode one a little harder at each puzzle of the
//!   streak (from 800, +75 a puzzle); in `queue` mode the solver's own
//!   queue's first puzzle due. A pupil of a class (kid mode) is served the
//!   children's mates, easiest first, and earns stars, not a rating.
//! * **Answering.** [`answer`] judges the solver's moves against the line
//!   ([`judge`]: the expected move, or any move that mates); right so far
//!   answers the opponent's reply, and the attempt stays open. A finished
//!   attempt is stored once ([`Store::finish_puzzle_attempt`]): an answer for an
//!   attempt that is not the asker's, or sent again, moves nothing (404
//!   `no_attempt`, 409 `already_answered`).
//! * **Ratings.** Glicko-2 as lichess rates puzzles: the solver and the
//!   puzzle are two players of a one-game rating period (τ = 0.75, no
//!   first-move advantage; `escaque_torneo::glicko::rate_game`), both
//!   changed, only in `rating` mode and only the first time the solver
//!   answers that puzzle. A solve scores 1, a solve after a hint ½ (lichess
//!   has no hint; escaque's choice), a miss or the solution shown 0.
//! * **The queue.** A miss comes back after 1, 3, 7 and 21 days
//!   ([`crate::store::problemas::QUEUE_DAYS`]): solved when due, it comes
//!   back after the next interval; solved after the last, it leaves.

use std::collections::BTreeMap;

use escaque::coord::{to_uci, to_uci_in};
use escaque::{Color, Move, Notation, Position};
use escaque_analysis::problemas::{Puzzle, Theme};
use escaque_torneo::glicko::{rate_game, ColorAdvantage, Glicko};
use rand::Rng;

use crate::error::{ApiError, Kind};
use crate::identity::Identity;
use crate::proto::problemas::{self as wire, AnswerBody, NextQuery};
use crate::store::problemas::{
    AttemptRow, Finish, PuzzleRow, SolverRow, SOURCE_GAME, SOURCE_MATES, SOURCE_SHIPPED,
};
use crate::store::{now_ms, Store, StoreError};

/// A new solver's rating (lichess's: 1500, RD 500, volatility 0.09).
pub const NEW_SOLVER: Glicko = Glicko::DEFAULT;
/// The first puzzle of a streak is rated about this; each solved adds
/// [`STREAK_STEP`].
pub const STREAK_START: f64 = 800.0;
/// See [`STREAK_START`].
pub const STREAK_STEP: f64 = 75.0;
/// How many of the nearest puzzles a draw picks from at random.
const DRAW_AMONG: i64 = 8;

// ---------------------------------------------------------------- catalogue

/// A puzzle read from lichess's CSV as a row to store.
pub fn row_of(p: &Puzzle, source: &str, kid: bool) -> PuzzleRow {
    PuzzleRow {
        id: p.id.clone(),
        fen: p.start.to_fen(),
        moves: p.moves.iter().map(|m| to_uci(*m)).collect(),
        glicko: Glicko {
            rating: f64::from(p.rating),
            deviation: f64::from(p.rating_deviation.clamp(45, 500)),
            volatility: escaque_torneo::glicko::DEFAULT_VOLATILITY,
        },
        plays: 0,
        themes: p.themes.clone(),
        game_url: p.game_url.clone(),
        opening_tags: p.opening_tags.clone(),
        source: source.to_string(),
        kid,
        game_id: None,
        game_ply: None,
    }
}

/// Stores the shipped set and the children's mates that are not stored
/// yet (on every start: a later, bigger set adds its new puzzles; those
/// stored keep their ratings). Returns how many were added. Cheap when
/// nothing changed: the sets' fingerprint
/// (`escaque_analysis::problemas::shipped_fingerprint`) is kept in `meta`
/// once they are stored, and a start that finds the same one reads
/// neither the CSVs nor the stored ids.
pub async fn load_catalogue(store: &Store) -> Result<usize, StoreError> {
    let fingerprint = escaque_analysis::problemas::shipped_fingerprint();
    if store.shipped_puzzles_fingerprint().await?.as_deref() == Some(fingerprint.as_str()) {
        return Ok(0);
    }
    let added = store_shipped(store).await?;
    store.set_shipped_puzzles_fingerprint(&fingerprint).await?;
    Ok(added)
}

async fn store_shipped(store: &Store) -> Result<usize, StoreError> {
    let have = store.puzzle_ids().await?;
    let mut rows: Vec<PuzzleRow> = Vec::new();
    for p in escaque_analysis::problemas::shipped() {
        if !have.contains(&p.id) {
            rows.push(row_of(&p, SOURCE_SHIPPED, false));
        }
    }
    // The ids taken so far, as a set: the mates are thousands, and looking
    // each one up in `rows` made every start on a new database quadratic
    // (about 15 million string comparisons).
    let mut taken: std::collections::HashSet<String> = rows.iter().map(|r| r.id.clone()).collect();
    for p in escaque_analysis::problemas::shipped_mates() {
        if !have.contains(&p.id) && taken.insert(p.id.clone()) {
            rows.push(row_of(&p, SOURCE_MATES, true));
        }
    }
    if rows.is_empty() {
        return Ok(0);
    }
    store.insert_puzzles(&rows).await
}

/// The catalogue for other features (a teacher's homework, issue 57): up to
/// `limit` puzzles (at most 200) of the shipped sets rated within
/// `[min_rating, max_rating]`, with theme key `theme` when given, nearest
/// the middle of the range first; `kid` only the children's mates.
pub async fn catalogue(
    store: &Store,
    theme: Option<&str>,
    min_rating: i32,
    max_rating: i32,
    kid: bool,
    limit: usize,
) -> Result<Vec<PuzzleRow>, ApiError> {
    if let Some(t) = theme {
        theme_of(t)?;
    }
    let (lo, hi) = (f64::from(min_rating), f64::from(max_rating));
    Ok(store
        .puzzles_near(
            (lo + hi) / 2.0,
            kid,
            theme,
            (lo, hi),
            None,
            limit.min(200) as i64,
        )
        .await?)
}

/// The themes a solver can ask for (`GET /api/puzzles/themes`): every
/// theme of the catalogue `me` is served from (the children's mates in kid
/// mode), with its names and how many puzzles have it, most puzzles first
/// (then by key).
pub async fn themes(store: &Store, me: &Identity) -> Result<wire::ThemesView, ApiError> {
    let kid = me.managed;
    let mut counts: BTreeMap<String, i64> = BTreeMap::new();
    let mut total = 0;
    for (set, n) in store.catalogue_theme_sets(kid).await? {
        total += n;
        for key in set.split_whitespace() {
            *counts.entry(key.to_string()).or_default() += n;
        }
    }
    let mut themes: Vec<wire::ThemeCount> = counts
        .into_iter()
        .map(|(key, puzzles)| wire::ThemeCount {
            theme: theme_view(&key),
            puzzles,
        })
        .collect();
    themes.sort_by(|a, b| {
        b.puzzles
            .cmp(&a.puzzles)
            .then(a.theme.key.cmp(&b.theme.key))
    });
    Ok(wire::ThemesView {
        kid,
        puzzles: total,
        themes,
    })
}

// ---------------------------------------------------------------- refusals

fn no_attempt() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "no_attempt",
        "no se te ha servido ese problema (no existe ese intento o no es tuyo)",
        "that puzzle was not served to you (no such attempt, or not yours)",
    )
}

fn already_answered() -> ApiError {
    ApiError::new(
        Kind::Conflict,
        "already_answered",
        "ese problema ya está respondido; pide el siguiente",
        "that puzzle is answered already; ask for the next",
    )
}

fn no_puzzle() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "no_puzzle",
        "no hay ningún problema con esas condiciones",
        "there is no puzzle with those conditions",
    )
}

fn queue_empty() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "queue_empty",
        "no tienes problemas pendientes en tu cola",
        "you have no puzzles due in your queue",
    )
}

fn theme_of(key: &str) -> Result<&'static Theme, ApiError> {
    Theme::from_key(key).ok_or_else(|| {
        ApiError::bad(
            "bad_theme",
            format!("tema desconocido: «{}»", clip(key)),
            format!("unknown theme: \"{}\"", clip(key)),
        )
    })
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

fn bad_answer(es: String, en: String) -> ApiError {
    ApiError::bad("bad_answer", es, en)
}

// ---------------------------------------------------------------- judging

/// Where an answer stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Right so far; the opponent answers this move.
    Continue(Move),
    /// Solved.
    Solved,
    /// A move that is not the solution (its index among the solver's).
    Failed(usize),
}

/// Why an answer cannot be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerError {
    /// No move.
    Empty,
    /// More moves than the solution has.
    TooMany(usize),
    /// The solver's move at this index (from 0) is not a legal move.
    Illegal(usize, String),
}

/// Judges the solver's `moves` (UCI) against the puzzle `line` (the
/// opponent's move, then the solution) from `start`: each must be the
/// solution's move, or a move that mates (lichess accepts any mate).
pub fn judge(start: &Position, line: &[Move], moves: &[String]) -> Result<Verdict, AnswerError> {
    if moves.is_empty() {
        return Err(AnswerError::Empty);
    }
    let solver_total = line.len() / 2;
    if moves.len() > solver_total {
        return Err(AnswerError::TooMany(solver_total));
    }
    let mut pos = *start;
    pos.play_unchecked(line[0]);
    for (k, text) in moves.iter().enumerate() {
        let m = escaque::read_move(&pos, text, Notation::Uci)
            .map_err(|_| AnswerError::Illegal(k, clip(text)))?;
        let expected = line[1 + 2 * k];
        let mut after = pos;
        after.play_unchecked(m);
        if after.is_checkmate() {
            return Ok(Verdict::Solved);
        }
        if m != expected {
            return Ok(Verdict::Failed(k));
        }
        if k + 1 == solver_total {
            return Ok(Verdict::Solved);
        }
        let reply = line[2 + 2 * k];
        after.play_unchecked(reply);
        pos = after;
        if k + 1 == moves.len() {
            return Ok(Verdict::Continue(reply));
        }
    }
    // Unreachable: the loop returns at its last move.
    Ok(Verdict::Failed(moves.len()))
}

/// The position after the opponent's move and `k` moves of the solver
/// with their replies (the solver to move).
fn after_moves(start: &Position, line: &[Move], k: usize) -> Position {
    let mut pos = *start;
    for m in &line[..(1 + 2 * k).min(line.len())] {
        pos.play_unchecked(*m);
    }
    pos
}

/// The puzzle's start and line, read back from storage.
fn read_puzzle(p: &PuzzleRow) -> Result<(Position, Vec<Move>), ApiError> {
    let start = Position::from_fen(&p.fen).map_err(|e| {
        crate::store::log_unreadable(&format!("puzzle {}", p.id), "puzzles.fen", e);
        ApiError::internal()
    })?;
    let texts: Vec<&str> = p.moves.iter().map(String::as_str).collect();
    let line = escaque_analysis::problemas::read_line(&start, &texts).map_err(|e| {
        crate::store::log_unreadable(
            &format!("puzzle {}", p.id),
            "puzzles.moves",
            format!("{e:?}"),
        );
        ApiError::internal()
    })?;
    if line.len() < 2 {
        return Err(ApiError::internal());
    }
    Ok((start, line))
}

// ---------------------------------------------------------------- views

fn theme_view(key: &str) -> wire::ThemeView {
    match Theme::from_key(key) {
        Some(t) => wire::ThemeView {
            key: t.key.into(),
            es: t.es.into(),
            en: t.en.into(),
        },
        None => wire::ThemeView {
            key: key.into(),
            es: key.into(),
            en: key.into(),
        },
    }
}

fn game_link(p: &PuzzleRow) -> Option<wire::GameLink> {
    let game = p.game_id.clone()?;
    let ply = p.game_ply? + 1;
    Some(wire::GameLink {
        url: format!("/partida/{game}#{ply}"),
        game,
        ply,
    })
}

fn rating_view(g: &Glicko) -> wire::RatingView {
    wire::RatingView {
        rating: g.int_rating(),
        deviation: g.deviation,
        provisional: g.provisional(),
    }
}

/// The legal moves of `pos`: origin → destinations (UCI squares).
fn legal_map(pos: &Position) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in pos.legal_moves().iter() {
        let uci = to_uci_in(pos, *m, false);
        let to = uci[2..4].to_string();
        let e = out.entry(uci[0..2].to_string()).or_default();
        if !e.contains(&to) {
            e.push(to);
        }
    }
    out
}

fn puzzle_view(p: &PuzzleRow, start: &Position, line: &[Move], kid: bool) -> wire::PuzzleView {
    let mut shown = *start;
    shown.play_unchecked(line[0]);
    wire::PuzzleView {
        id: p.id.clone(),
        fen: p.fen.clone(),
        first_move: to_uci(line[0]),
        legal: legal_map(&shown),
        solver: if shown.turn() == Color::White {
            "white"
        } else {
            "black"
        }
        .into(),
        solver_moves: line.len() / 2,
        rating: (!kid).then_some(p.glicko.rating as i64),
        game: game_link(p),
    }
}

// ---------------------------------------------------------------- serving

fn offset(difficulty: Option<&str>) -> Result<f64, ApiError> {
    Ok(match difficulty.unwrap_or("normal") {
        "easiest" => -600.0,
        "easier" => -300.0,
        "normal" => 0.0,
        "harder" => 300.0,
        "hardest" => 600.0,
        other => {
            return Err(ApiError::bad(
                "bad_difficulty",
                format!(
                    "dificultad desconocida: «{}» (easiest, easier, normal, harder, hardest)",
                    clip(other)
                ),
                format!(
                    "unknown difficulty: \"{}\" (easiest, easier, normal, harder, hardest)",
                    clip(other)
                ),
            ))
        }
    })
}

/// Opens an attempt for `me` (see the module documentation).
pub async fn next(store: &Store, me: &Identity, q: &NextQuery) -> Result<wire::Served, ApiError> {
    let mode = q.mode.as_deref().unwrap_or("rating");
    if !matches!(mode, "rating" | "streak" | "queue") {
        return Err(ApiError::bad(
            "bad_mode",
            format!("modo desconocido: «{}» (rating, streak, queue)", clip(mode)),
            format!("unknown mode: \"{}\" (rating, streak, queue)", clip(mode)),
        ));
    }
    if let Some(t) = &q.theme {
        theme_of(t)?;
    }
    let shift = offset(q.difficulty.as_deref())?;
    let kid = me.managed;
    let solver = store.puzzle_solver(&me.key).await?;
    let glicko = solver.map_or(NEW_SOLVER, |s| s.glicko);
    let streak = solver.map_or(0, |s| s.streak);
    let queue = store.puzzle_queue(&me.key).await?;
    let now = now_ms();
    let due: Vec<&PuzzleRow> = queue
        .iter()
        .filter(|q| q.due_ms <= now)
        .map(|q| &q.puzzle)
        .collect();
    let puzzle = if let Some(id) = &q.puzzle {
        if !escaque_analysis::problemas::valid_id(id) {
            return Err(no_puzzle());
        }
        match store.puzzle(id).await? {
            // A puzzle of someone's game is served to its players' queue
            // only (a link to it names a game that may be private).
            Some(p) if p.source != SOURCE_GAME || queue.iter().any(|q| q.puzzle.id == p.id) => p,
            _ => return Err(no_puzzle()),
        }
    } else if mode == "queue" {
        due.first().map(|p| (*p).clone()).ok_or_else(queue_empty)?
    } else {
        let target = if kid {
            0.0
        } else if mode == "streak" {
            STREAK_START + STREAK_STEP * streak as f64
        } else {
            glicko.rating + shift
        };
        let theme = q.theme.as_deref();
        let range = (f64::MIN, f64::MAX);
        let mut near = store
            .puzzles_near(target, kid, theme, range, Some(&me.key), DRAW_AMONG)
            .await?;
        if near.is_empty() {
            // Every one answered: draw among all again.
            near = store
                .puzzles_near(target, kid, theme, range, None, DRAW_AMONG)
                .await?;
        }
        if near.is_empty() {
            return Err(no_puzzle());
        }
        // Kid mode: the easiest first; otherwise one of the nearest.
        let pick = if kid {
            0
        } else {
            rand::rng().random_range(0..near.len())
        };
        near.swap_remove(pick)
    };
    let (start, line) = read_puzzle(&puzzle)?;
    let id = crate::new_id();
    store
        .insert_puzzle_attempt(&id, &me.key, &puzzle.id, mode)
        .await?;
    Ok(wire::Served {
        attempt: id,
        mode: mode.into(),
        puzzle: puzzle_view(&puzzle, &start, &line, kid),
        player: (!kid && solver.is_some_and(|s| s.rated > 0)).then(|| rating_view(&glicko)),
        streak,
        queue_due: due.len(),
        kid,
    })
}

/// The attempt `id` if it is `me`'s and open.
async fn open_attempt(store: &Store, me: &Identity, id: &str) -> Result<AttemptRow, ApiError> {
    if !escaque_analysis::problemas::valid_id(id) {
        return Err(no_attempt());
    }
    let a = store.puzzle_attempt(id).await?.ok_or_else(no_attempt)?;
    if a.owner != me.key {
        return Err(no_attempt());
    }
    if a.answered_ms.is_some() {
        return Err(already_answered());
    }
    Ok(a)
}

/// The score of a finished attempt for its rating.
fn score(solved: bool, hints: i64, solution_seen: bool) -> f64 {
    match (solved && !solution_seen, hints > 0) {
        (false, _) => 0.0,
        (true, false) => 1.0,
        (true, true) => 0.5,
    }
}

/// Kid mode's stars.
fn stars(solved: bool, hints: i64, solution_seen: bool) -> u8 {
    match (solved && !solution_seen, hints > 0) {
        (false, _) => 0,
        (true, false) => 3,
        (true, true) => 2,
    }
}

/// Finishes attempt `a` (see [`Store::finish_puzzle_attempt`]) and says what
/// changed.
async fn finish(
    store: &Store,
    me: &Identity,
    a: &AttemptRow,
    puzzle: &PuzzleRow,
    f: Finish,
) -> Result<wire::Answered, ApiError> {
    let first = !store
        .puzzle_answered_before(&me.key, &a.puzzle, &a.id)
        .await?;
    let kid = me.managed;
    let rated_mode = a.mode == "rating" && first && !kid;
    let rate = Box::new(
        move |att: &AttemptRow, solver: Option<SolverRow>, p: &PuzzleRow| {
            if !rated_mode {
                return None;
            }
            let player = solver.map_or(NEW_SOLVER, |s| s.glicko);
            let sc = score(att.solved == Some(true), att.hints, att.solution_seen);
            rate_game(player, p.glicko, sc, ColorAdvantage::ZERO)
                .map_err(|e| eprintln!("escaque-server: puzzle rating: {e}"))
                .ok()
        },
    );
    let solved = f.solved;
    let done = store
        .finish_puzzle_attempt(&a.id, &f, rate)
        .await?
        .ok_or_else(already_answered)?;
    let rating = match (done.attempt.rating_before, done.attempt.rating_after) {
        (Some(before), Some(after)) => Some(wire::RatingChange {
            before,
            after,
            diff: after as i64 - before as i64,
            deviation: done.solver.map_or(0.0, |s| s.glicko.deviation),
        }),
        _ => None,
    };
    Ok(wire::Answered {
        state: if solved { "solved" } else { "failed" }.into(),
        reply: None,
        legal: BTreeMap::new(),
        rating,
        puzzle_rating: (!kid).then_some(done.puzzle_rating as i64),
        stars: kid.then(|| stars(solved, done.attempt.hints, done.attempt.solution_seen)),
        streak: (a.mode == "streak").then(|| done.solver.map_or(0, |s| s.streak)),
        queued_until: done.queued_until,
        themes: puzzle.themes.iter().map(|t| theme_view(t)).collect(),
        solution: puzzle.moves[1..].to_vec(),
    })
}

/// `me` answers attempt `id` with the solver's moves so far.
pub async fn answer(
    store: &Store,
    me: &Identity,
    id: &str,
    body: &AnswerBody,
) -> Result<wire::Answered, ApiError> {
    check_answer(body)?;
    let a = open_attempt(store, me, id).await?;
    let puzzle = store
        .puzzle(&a.puzzle)
        .await?
        .ok_or_else(ApiError::internal)?;
    let (start, line) = read_puzzle(&puzzle)?;
    let verdict = judge(&start, &line, &body.moves).map_err(|e| match e {
        AnswerError::Empty => bad_answer(
            "la respuesta no trae ninguna jugada".into(),
            "the answer has no move".into(),
        ),
        AnswerError::TooMany(n) => bad_answer(
            format!("la solución tiene {n} jugadas tuyas; la respuesta trae más"),
            format!("the solution has {n} moves of yours; the answer has more"),
        ),
        AnswerError::Illegal(k, t) => bad_answer(
            format!("tu jugada {} («{t}») no es legal aquí", k + 1),
            format!("your move {} (\"{t}\") is not legal here", k + 1),
        ),
    })?;
    let f = |solved| Finish {
        moves: body.moves.clone(),
        time_ms: body.time_ms.min(wire::MAX_TIME_MS) as i64,
        solved,
        solution_seen: false,
    };
    match verdict {
        Verdict::Continue(reply) => Ok(wire::Answered {
            state: "continue".into(),
            reply: Some(to_uci(reply)),
            legal: legal_map(&after_moves(&start, &line, body.moves.len())),
            rating: None,
            puzzle_rating: None,
            stars: None,
            streak: None,
            queued_until: None,
            themes: Vec::new(),
            solution: Vec::new(),
        }),
        Verdict::Solved => finish(store, me, &a, &puzzle, f(true)).await,
        Verdict::Failed(_) => finish(store, me, &a, &puzzle, f(false)).await,
    }
}

/// The answer's own limits (before anything is read).
pub fn check_answer(body: &AnswerBody) -> Result<(), ApiError> {
    if body.moves.len() > wire::MAX_ANSWER_MOVES {
        return Err(bad_answer(
            format!(
                "demasiadas jugadas: {} (como mucho {})",
                body.moves.len(),
                wire::MAX_ANSWER_MOVES
            ),
            format!(
                "too many moves: {} (at most {})",
                body.moves.len(),
                wire::MAX_ANSWER_MOVES
            ),
        ));
    }
    if let Some((k, m)) = body
        .moves
        .iter()
        .enumerate()
        .find(|(_, m)| m.len() > wire::MAX_MOVE_CHARS)
    {
        return Err(bad_answer(
            format!("la jugada {} es demasiado larga: «{}…»", k + 1, clip(m)),
            format!("move {} is too long: \"{}…\"", k + 1, clip(m)),
        ));
    }
    Ok(())
}

/// A hint for attempt `id`: the piece the solver's next move moves (after
/// the moves given in `moves`, the solver's so far, which must be right).
pub async fn hint(
    store: &Store,
    me: &Identity,
    id: &str,
    body: &AnswerBody,
) -> Result<wire::HintView, ApiError> {
    check_answer(body)?;
    let a = open_attempt(store, me, id).await?;
    let puzzle = store
        .puzzle(&a.puzzle)
        .await?
        .ok_or_else(ApiError::internal)?;
    let (start, line) = read_puzzle(&puzzle)?;
    let k = body.moves.len();
    if k > 0 && !matches!(judge(&start, &line, &body.moves), Ok(Verdict::Continue(_))) {
        return Err(bad_answer(
            "la pista es para la siguiente jugada de una solución correcta hasta aquí".into(),
            "a hint is for the next move of a solution right so far".into(),
        ));
    }
    let mut pos = start;
    for m in &line[..1 + 2 * k] {
        pos.play_unchecked(*m);
    }
    let m = line[1 + 2 * k];
    let role = pos.role_at(m.from()).ok_or_else(ApiError::internal)?;
    if !store.add_puzzle_hint(&a.id).await? {
        return Err(already_answered());
    }
    Ok(wire::HintView {
        square: m.from().to_string(),
        piece_es: role.name_es().into(),
        piece_en: role.name_en().into(),
        hints: a.hints + 1,
    })
}

/// "Ver la solución": the open attempt `id` ends as failed (rated as a
/// miss in rating mode) and the whole line is given.
pub async fn solution(store: &Store, me: &Identity, id: &str) -> Result<wire::Answered, ApiError> {
    let a = open_attempt(store, me, id).await?;
    let puzzle = store
        .puzzle(&a.puzzle)
        .await?
        .ok_or_else(ApiError::internal)?;
    let f = Finish {
        moves: Vec::new(),
        time_ms: (now_ms() - a.served_ms).clamp(0, wire::MAX_TIME_MS as i64),
        solved: false,
        solution_seen: true,
    };
    finish(store, me, &a, &puzzle, f).await
}

/// `me`'s profile: rating, streak, history, success per theme, queue.
pub async fn profile(store: &Store, me: &Identity) -> Result<wire::Profile, ApiError> {
    let kid = me.managed;
    let solver = store.puzzle_solver(&me.key).await?;
    let history = store.puzzle_history(&me.key, 50).await?;
    let mut per: BTreeMap<String, (u64, u64)> = BTreeMap::new();
    for (solved, themes) in store.puzzle_results(&me.key).await? {
        for t in themes.split_whitespace() {
            let e = per.entry(t.to_string()).or_default();
            e.0 += 1;
            e.1 += u64::from(solved);
        }
    }
    let mut themes: Vec<wire::ThemeScore> = per
        .into_iter()
        .map(|(k, (tried, solved))| wire::ThemeScore {
            theme: theme_view(&k),
            tried,
            solved,
        })
        .collect();
    themes.sort_by(|a, b| b.tried.cmp(&a.tried).then(a.theme.key.cmp(&b.theme.key)));
    let now = now_ms();
    Ok(wire::Profile {
        rating: solver
            .filter(|s| !kid && s.rated > 0)
            .map(|s| rating_view(&s.glicko)),
        kid,
        rated: solver.map_or(0, |s| s.rated),
        streak: solver.map_or(0, |s| s.streak),
        best_streak: solver.map_or(0, |s| s.best_streak),
        history: history
            .into_iter()
            .map(|(a, _)| wire::HistoryItem {
                rating_diff: match (a.rating_before, a.rating_after) {
                    (Some(b), Some(x)) if !kid => Some(x as i64 - b as i64),
                    _ => None,
                },
                attempt: a.id,
                puzzle: a.puzzle,
                mode: a.mode,
                answered_ms: a.answered_ms.unwrap_or(0),
                solved: a.solved == Some(true),
                moves: a.moves,
                time_ms: a.time_ms,
                hints: a.hints,
                solution_seen: a.solution_seen,
            })
            .collect(),
        themes,
        queue: store
            .puzzle_queue(&me.key)
            .await?
            .into_iter()
            .map(|q| wire::QueueItem {
                game: game_link(&q.puzzle),
                puzzle: q.puzzle.id,
                due_ms: q.due_ms,
                due_now: q.due_ms <= now,
                step: q.step,
            })
            .collect(),
    })
}
