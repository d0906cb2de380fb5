//! Progress that can be trusted: a pupil's stars for an exercise are
//! recomputed by replaying what the pupil did through the judge, never taken
//! from the pupil. A front end that stores progress (the server, for accounts
//! and for a guest's progress joining an account at login) sends the tries
//! it saw; [`verify`] refuses a stage or exercise that does not exist, a
//! replay that does not meet the goal, and more tries than any pupil needs.
//!
//! ```
//! use escaque::Square;
//! use escaque_play::aprender::progress::{verify, ProgressError};
//! use escaque_play::aprender::{Course, Input};
//!
//! let course = Course::builtin().unwrap();
//! let solve = [Input::Move { from: Square::A1, to: Square::A5, promotion: None }];
//! assert_eq!(verify(&course, "torre", 0, &solve), Ok(3));
//! // Stars claimed without playing: refused.
//! assert_eq!(verify(&course, "torre", 0, &[]), Err(ProgressError::NotSolved));
//! ```

use escaque::Lang;

use super::{Course, Input, Text, Verdict};

/// The most tries one exercise may carry (far above any real pupil).
pub const MAX_TRIES: usize = 200;

/// Why a claimed result is not recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgressError {
    /// No stage with that id.
    UnknownStage,
    /// The stage has no exercise with that number.
    UnknownExercise,
    /// More tries than [`MAX_TRIES`].
    TooManyTries,
    /// The tries, replayed, do not meet the goal.
    NotSolved,
}

impl ProgressError {
    /// The stable id (for the network and the logs).
    pub fn id(&self) -> &'static str {
        match self {
            ProgressError::UnknownStage => "etapa_desconocida",
            ProgressError::UnknownExercise => "ejercicio_desconocido",
            ProgressError::TooManyTries => "demasiados_intentos",
            ProgressError::NotSolved => "no_resuelto",
        }
    }

    /// What a person reads.
    pub fn text(&self) -> Text {
        match self {
            ProgressError::UnknownStage => Text::new(
                "no hay ninguna etapa con ese nombre",
                "there is no stage with that name",
            ),
            ProgressError::UnknownExercise => Text::new(
                "la etapa no tiene ese ejercicio",
                "the stage has no such exercise",
            ),
            ProgressError::TooManyTries => Text::new(
                format!("demasiados intentos (como mucho {MAX_TRIES})"),
                format!("too many tries (at most {MAX_TRIES})"),
            ),
            ProgressError::NotSolved => Text::new(
                "esas jugadas no cumplen la meta del ejercicio: no hay estrellas que guardar",
                "those moves do not meet the exercise's goal: there are no stars to keep",
            ),
        }
    }
}

impl escaque::Localized for ProgressError {
    fn message(&self, lang: Lang) -> String {
        self.text().get(lang).to_string()
    }
}

/// Replays `tries` (refused ones included, in order) on exercise `exercise`
/// (from 0) of stage `stage`; the stars they earn, or why none are recorded.
/// Tries after the goal is met are ignored.
pub fn verify(
    course: &Course,
    stage: &str,
    exercise: usize,
    tries: &[Input],
) -> Result<u8, ProgressError> {
    let st = course.stage(stage).ok_or(ProgressError::UnknownStage)?;
    let ex = st
        .exercises
        .get(exercise)
        .ok_or(ProgressError::UnknownExercise)?;
    if tries.len() > MAX_TRIES {
        return Err(ProgressError::TooManyTries);
    }
    let mut a = ex.start();
    for t in tries {
        if let Verdict::Solved { stars, .. } = a.try_input(t) {
            return Ok(stars);
        }
    }
    Err(ProgressError::NotSolved)
}
