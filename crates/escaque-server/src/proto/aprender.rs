//! The rules course's messages (issue 55; docs/protocol.md "Aprende a
//! jugar"): the stages and exercises the page shows, a try judged by the
//! server, an exercise's tries sent to be kept, the progress of an account,
//! a guest's progress joined at login.

use serde::{Deserialize, Serialize};

/// A text in both languages.
#[derive(Clone, Debug, Serialize)]
pub struct Words {
    /// Spanish.
    pub es: String,
    /// English.
    pub en: String,
}

/// A stage in the course's list.
#[derive(Debug, Serialize)]
pub struct StageSummary {
    /// The stage's id (`torre`).
    pub id: String,
    /// Its number, from 1.
    pub number: u32,
    /// The title.
    pub title: Words,
    /// The article of the seed it teaches.
    pub source: Words,
    /// How many exercises.
    pub exercises: u32,
    /// The goal kinds of its exercises, each once, in order.
    pub kinds: Vec<&'static str>,
}

/// `GET /api/aprender`: the course.
#[derive(Debug, Serialize)]
pub struct CourseList {
    /// The stages in order.
    pub stages: Vec<StageSummary>,
    /// Exercises in the whole course.
    pub exercises: u32,
}

/// One exercise as the page shows it.
#[derive(Debug, Serialize)]
pub struct ExerciseView {
    /// Its number in the stage, from 0.
    pub n: u32,
    /// What the pupil is asked.
    pub task: Words,
    /// The goal's kind (`casilla`, `estrellas`, `mate`, `pregunta`…).
    pub kind: &'static str,
    /// The position shown (FEN); none for a question about words only.
    pub fen: Option<String>,
    /// The side the pupil plays: `white` or `black`.
    pub side: &'static str,
    /// The stars to collect (squares).
    pub stars: Vec<String>,
    /// The options of a question, in order.
    pub options: Vec<Words>,
    /// The pupil answers by choosing an option.
    pub question: bool,
    /// The pupil answers by writing (a move in notation).
    pub write: bool,
    /// The pupil answers by touching a square.
    pub touch: bool,
    /// The fewest moves or answers that meet the goal.
    pub min_moves: u32,
}

/// `GET /api/aprender/{stage}`: one stage.
#[derive(Debug, Serialize)]
pub struct StageView {
    /// The stage's id.
    pub id: String,
    /// Its number, from 1.
    pub number: u32,
    /// The title.
    pub title: Words,
    /// The article of the seed it teaches.
    pub source: Words,
    /// The seed's words, as quoted.
    pub quote: String,
    /// The introduction.
    pub intro: Words,
    /// The exercises in order.
    pub exercises: Vec<ExerciseView>,
    /// The next stage's id, if any.
    pub next: Option<String>,
}

/// One try of a pupil: exactly one of its fields.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum Try {
    /// A move as coordinates (`e2e4`, `e7e8q` with the promotion's English
    /// letter).
    Move(String),
    /// A square touched (`e4`).
    Square(String),
    /// Written text (a move in Spanish notation, a square's name).
    Text(String),
    /// An option chosen, from 0.
    Choice(u32),
}

/// `POST /api/aprender/jugar`: an exercise's tries; the last one is judged
/// (the ones before replayed to reach its position).
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlayTry {
    /// The stage's id.
    pub stage: String,
    /// The exercise, from 0.
    pub exercise: u32,
    /// Every try so far, the one to judge last.
    pub tries: Vec<Try>,
}

/// The answer to [`PlayTry`].
#[derive(Debug, Serialize)]
pub struct TryVerdict {
    /// `progress` (good, go on), `solved`, `refused`, or `already` (the
    /// exercise was solved by an earlier try).
    pub verdict: &'static str,
    /// Why a try was refused (from the rules).
    pub reason: Option<Words>,
    /// The move played, in Spanish and English notation.
    pub san: Option<Words>,
    /// The move played as coordinates (`e2e4`).
    pub uci: Option<String>,
    /// The stars earned, once solved.
    pub stars: Option<u8>,
    /// The position now (after the move).
    pub fen: Option<String>,
    /// The stars still to collect.
    pub stars_left: Vec<String>,
    /// Told once solved.
    pub note: Option<Words>,
    /// The side to move is in check (the position now).
    pub check: bool,
}

/// `POST /api/aprender/progreso`: an exercise's tries, to keep its stars.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SaveTries {
    /// The stage's id.
    pub stage: String,
    /// The exercise, from 0.
    pub exercise: u32,
    /// Every try, in order.
    pub tries: Vec<Try>,
    /// The account the stars are for; when given it must be the caller's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
}

/// The answer to [`SaveTries`].
#[derive(Debug, Serialize)]
pub struct Saved {
    /// The stage.
    pub stage: String,
    /// The exercise.
    pub exercise: u32,
    /// The stars these tries earned (recomputed by the server).
    pub stars: u8,
    /// The best kept for the exercise.
    pub best: u8,
}

/// `POST /api/aprender/unir`: a guest's progress, kept by the browser,
/// joined to the account now logged in.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct JoinProgress {
    /// Each exercise's tries (at most 300 exercises).
    pub items: Vec<JoinItem>,
}

/// One exercise of [`JoinProgress`].
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct JoinItem {
    /// The stage's id.
    pub stage: String,
    /// The exercise, from 0.
    pub exercise: u32,
    /// Every try, in order.
    pub tries: Vec<Try>,
}

/// A stage's stars in [`CourseProgress`].
#[derive(Debug, Serialize)]
pub struct StageStars {
    /// The stage's id.
    pub stage: String,
    /// The stars of each exercise (0: not solved yet).
    pub stars: Vec<u8>,
    /// Their sum.
    pub total: u32,
}

/// `GET /api/aprender/progreso` (and the answer to [`JoinProgress`]): the
/// caller's stars.
#[derive(Debug, Serialize)]
pub struct CourseProgress {
    /// The account.
    pub account: String,
    /// Every stage, in order.
    pub stages: Vec<StageStars>,
    /// Stars earned in the whole course.
    pub total: u32,
    /// The most there are (3 an exercise).
    pub max: u32,
    /// Exercises solved.
    pub solved: u32,
}
