//! Aprende a jugar on the server (issue 55): the rules course of
//! `escaque_play::aprender` for the browser page, and the progress of an
//! account (pupils included).
//!
//! * The page holds no rules: it sends every try of an exercise to
//!   [`judge`], which replays the tries before the last through the
//!   course's judge (the rules library) and answers the last one's verdict,
//!   its reason when refused, and the position after it. Replaying instead
//!   of keeping a session makes the server stateless for the course (any
//!   process of a cluster answers) at a cost of microseconds.
//! * Stars are never taken from the client: [`save`] and [`join`] replay
//!   the tries with `progress::verify`, which recomputes the stars and
//!   refuses a stage or exercise that does not exist, tries that do not
//!   meet the goal and more than 200 tries; only then the best is kept
//!   (store/aprender.rs). An account names only itself: stars for another
//!   account are refused with `403 not_your_account`. A guest's progress
//!   lives in its browser (its tries, not its stars) and is joined at
//!   login through [`join`]: every item verified before anything is
//!   written, one refused item refuses the whole join.

use std::sync::OnceLock;

use escaque::{Color, Lang, Localized, Role, Square};
use escaque_play::aprender::progress::{verify, ProgressError, MAX_TRIES};
use escaque_play::aprender::{Course, Input, Text, Verdict};

use crate::error::{ApiError, Kind};
use crate::identity::SignedIn;
use crate::proto::aprender as wire;
use crate::store::{self, Store};

/// The most exercises one join may carry (the course has 133).
pub const MAX_JOIN: usize = 300;
/// The longest written try.
const MAX_TEXT: usize = 40;

/// The course shipped in the binary, read once.
pub fn course() -> Result<&'static Course, ApiError> {
    static COURSE: OnceLock<Result<Course, String>> = OnceLock::new();
    match COURSE.get_or_init(|| Course::builtin().map_err(|e| e.message(Lang::En))) {
        Ok(c) => Ok(c),
        Err(e) => {
            eprintln!("escaque-server: el curso no carga / the course does not load: {e}");
            Err(ApiError::internal())
        }
    }
}

fn words(t: &Text) -> wire::Words {
    wire::Words {
        es: t.es.clone(),
        en: t.en.clone(),
    }
}

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn progress_error(e: ProgressError) -> ApiError {
    let t = e.text();
    let kind = match e {
        ProgressError::UnknownStage | ProgressError::UnknownExercise => Kind::NotFound,
        ProgressError::TooManyTries => Kind::Invalid,
        ProgressError::NotSolved => Kind::Unreadable,
    };
    ApiError(kind, e.id(), t.es, t.en)
}

/// `GET /api/aprender`: the stages.
pub fn list() -> Result<wire::CourseList, ApiError> {
    let c = course()?;
    let stages = c
        .stages
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut kinds: Vec<&'static str> = Vec::new();
            for e in &s.exercises {
                if !kinds.contains(&e.goal.kind()) {
                    kinds.push(e.goal.kind());
                }
            }
            wire::StageSummary {
                id: s.id.clone(),
                number: i as u32 + 1,
                title: words(&s.title),
                source: words(&s.source),
                exercises: s.exercises.len() as u32,
                kinds,
            }
        })
        .collect();
    Ok(wire::CourseList {
        stages,
        exercises: c.exercise_count() as u32,
    })
}

/// `GET /api/aprender/{stage}`: one stage and its exercises.
pub fn stage(id: &str) -> Result<wire::StageView, ApiError> {
    let c = course()?;
    let i = c
        .stages
        .iter()
        .position(|s| s.id == id)
        .ok_or_else(|| progress_error(ProgressError::UnknownStage))?;
    let s = &c.stages[i];
    let exercises = s
        .exercises
        .iter()
        .enumerate()
        .map(|(n, e)| {
            let kind = e.goal.kind();
            wire::ExerciseView {
                n: n as u32,
                task: words(&e.task),
                kind,
                fen: e.position.map(|p| p.to_fen()),
                side: side(e.side()),
                stars: e.star_squares().map(|sq| sq.to_string()).collect(),
                options: e.options().iter().map(words).collect(),
                question: e.goal.is_question(),
                write: kind == "escribir",
                touch: kind == "casilla",
                min_moves: e.min_moves,
            }
        })
        .collect();
    Ok(wire::StageView {
        id: s.id.clone(),
        number: i as u32 + 1,
        title: words(&s.title),
        source: words(&s.source),
        quote: s.quote.clone(),
        intro: words(&s.intro),
        exercises,
        next: c.stages.get(i + 1).map(|n| n.id.clone()),
    })
}

fn bad_try(n: usize, what: &str) -> ApiError {
    ApiError::bad(
        "bad_try",
        format!(
            "intento {}: «{what}» no se entiende (una jugada como e2e4, una casilla como e4)",
            n + 1
        ),
        format!(
            "try {}: '{what}' is not understood (a move like e2e4, a square like e4)",
            n + 1
        ),
    )
}

/// The course's input for a try of the wire (`n`: its place, for the message).
pub fn input(n: usize, t: &wire::Try) -> Result<Input, ApiError> {
    Ok(match t {
        wire::Try::Move(m) => {
            let s = m.trim();
            let sq = |r: std::ops::Range<usize>| s.get(r).and_then(Square::parse);
            let (Some(from), Some(to)) = (sq(0..2), sq(2..4)) else {
                return Err(bad_try(n, short(m)));
            };
            let promotion = match s.get(4..) {
                None | Some("") => None,
                Some(p) => {
                    let mut cs = p.chars();
                    match (
                        cs.next()
                            .and_then(|c| Role::from_char_en(c.to_ascii_uppercase())),
                        cs.next(),
                    ) {
                        (Some(r), None) => Some(r),
                        _ => return Err(bad_try(n, short(m))),
                    }
                }
            };
            Input::Move {
                from,
                to,
                promotion,
            }
        }
        wire::Try::Square(q) => {
            Input::Square(Square::parse(q.trim()).ok_or_else(|| bad_try(n, short(q)))?)
        }
        wire::Try::Text(t) => {
            if t.chars().count() > MAX_TEXT {
                return Err(bad_try(n, short(t)));
            }
            Input::Text(t.clone())
        }
        wire::Try::Choice(c) => Input::Choice(*c as usize),
    })
}

fn short(s: &str) -> &str {
    match s.char_indices().nth(MAX_TEXT) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn inputs(tries: &[wire::Try]) -> Result<Vec<Input>, ApiError> {
    if tries.len() > MAX_TRIES {
        return Err(progress_error(ProgressError::TooManyTries));
    }
    tries.iter().enumerate().map(|(n, t)| input(n, t)).collect()
}

/// `POST /api/aprender/jugar`: the verdict on the last try of `req`.
pub fn judge(req: &wire::PlayTry) -> Result<wire::TryVerdict, ApiError> {
    let c = course()?;
    let st = c
        .stage(&req.stage)
        .ok_or_else(|| progress_error(ProgressError::UnknownStage))?;
    let ex = st
        .exercises
        .get(req.exercise as usize)
        .ok_or_else(|| progress_error(ProgressError::UnknownExercise))?;
    let all = inputs(&req.tries)?;
    let Some((last, before)) = all.split_last() else {
        return Err(ApiError::bad(
            "no_tries",
            "no hay ningún intento que juzgar",
            "there is no try to judge",
        ));
    };
    let mut a = ex.start();
    for i in before {
        a.try_input(i);
    }
    let played = a.played().len();
    let v = a.try_input(last);
    let mv = (a.played().len() > played)
        .then(|| a.played().last().copied())
        .flatten();
    let pos = a.position();
    let mut out = wire::TryVerdict {
        verdict: "refused",
        reason: None,
        san: None,
        uci: mv.map(escaque::coord::to_uci),
        stars: None,
        fen: pos.map(|p| p.to_fen()),
        stars_left: a.stars_left().map(|s| s.to_string()).collect(),
        note: None,
        check: pos.is_some_and(|p| p.is_check()),
    };
    match v {
        Verdict::Progress { san } => {
            out.verdict = "progress";
            out.san = Some(words(&san));
        }
        Verdict::Solved { san, stars } => {
            out.verdict = "solved";
            out.san = san.as_ref().map(words);
            out.stars = Some(stars);
            out.note = ex.note.as_ref().map(words);
        }
        Verdict::Refused(r) => out.reason = Some(words(&r)),
        Verdict::AlreadySolved => out.verdict = "already",
    }
    Ok(out)
}

/// `POST /api/aprender/progreso`: verifies an exercise's tries and keeps
/// its stars if they beat the account's best.
pub async fn save(
    store: &Store,
    who: &SignedIn,
    req: &wire::SaveTries,
) -> Result<wire::Saved, ApiError> {
    let (uid, me) = (who.id.as_str(), &who.me);
    if let Some(other) = &req.account {
        if other != &me.name {
            return Err(ApiError::new(
                Kind::Forbidden,
                "not_your_account",
                "solo puedes guardar tu propio progreso",
                "you may keep only your own progress",
            ));
        }
    }
    let tries = inputs(&req.tries)?;
    let stars =
        verify(course()?, &req.stage, req.exercise as usize, &tries).map_err(progress_error)?;
    store
        .raise_course_stars(
            uid,
            &[(req.stage.clone(), req.exercise, stars)],
            store::now_ms(),
        )
        .await?;
    let best = store
        .course_stars(uid)
        .await?
        .into_iter()
        .find(|s| s.stage == req.stage && s.exercise == req.exercise)
        .map_or(stars, |s| s.stars);
    Ok(wire::Saved {
        stage: req.stage.clone(),
        exercise: req.exercise,
        stars,
        best,
    })
}

/// `POST /api/aprender/unir`: a guest's progress joined to the account;
/// every item verified first, nothing written if one is refused.
pub async fn join(
    store: &Store,
    who: &SignedIn,
    req: &wire::JoinProgress,
) -> Result<wire::CourseProgress, ApiError> {
    let (uid, me) = (who.id.as_str(), &who.me);
    if req.items.len() > MAX_JOIN {
        return Err(ApiError::bad(
            "too_many_items",
            format!("demasiados ejercicios (como mucho {MAX_JOIN})"),
            format!("too many exercises (at most {MAX_JOIN})"),
        ));
    }
    let c = course()?;
    let mut results = Vec::with_capacity(req.items.len());
    for (i, item) in req.items.iter().enumerate() {
        let tries = inputs(&item.tries).map_err(|e| at_item(i, e))?;
        let stars = verify(c, &item.stage, item.exercise as usize, &tries)
            .map_err(|e| at_item(i, progress_error(e)))?;
        results.push((item.stage.clone(), item.exercise, stars));
    }
    store
        .raise_course_stars(uid, &results, store::now_ms())
        .await?;
    progress_of(store, uid, &me.name).await
}

fn at_item(i: usize, e: ApiError) -> ApiError {
    ApiError(
        e.0,
        e.1,
        format!("ejercicio {} de la lista: {}", i + 1, e.2),
        format!("item {} of the list: {}", i + 1, e.3),
    )
}

/// `GET /api/aprender/progreso`: the caller's stars.
pub async fn progress(store: &Store, who: &SignedIn) -> Result<wire::CourseProgress, ApiError> {
    progress_of(store, &who.id, &who.me.name).await
}

/// The stars of account `uid` (named `name`), stage by stage.
pub async fn progress_of(
    store: &Store,
    uid: &str,
    name: &str,
) -> Result<wire::CourseProgress, ApiError> {
    let c = course()?;
    let kept = store.course_stars(uid).await?;
    let mut out = wire::CourseProgress {
        account: name.to_string(),
        stages: Vec::with_capacity(c.stages.len()),
        total: 0,
        max: 3 * c.exercise_count() as u32,
        solved: 0,
    };
    for s in &c.stages {
        let mut stars = vec![0u8; s.exercises.len()];
        for k in kept.iter().filter(|k| k.stage == s.id) {
            if let Some(slot) = stars.get_mut(k.exercise as usize) {
                *slot = k.stars;
            }
        }
        let total = stars.iter().map(|&s| u32::from(s)).sum();
        out.solved += stars.iter().filter(|&&s| s > 0).count() as u32;
        out.total += total;
        out.stages.push(wire::StageStars {
            stage: s.id.clone(),
            stars,
            total,
        });
    }
    Ok(out)
}

/// The course stars of account `uid` and the exercises it solved (the
/// class progress table's column).
pub async fn summary(store: &Store, uid: &str) -> Result<(u32, u32), ApiError> {
    let c = course()?;
    let kept = store.course_stars(uid).await?;
    let known = |k: &&store::aprender::CourseStars| {
        c.stage(&k.stage)
            .is_some_and(|s| (k.exercise as usize) < s.exercises.len())
    };
    let ks: Vec<_> = kept.iter().filter(known).collect();
    Ok((ks.iter().map(|k| u32::from(k.stars)).sum(), ks.len() as u32))
}
