//! The homework routes (issue 57): a class's teachers set homework and read
//! the grid (JSON, CSV, PDF), its pupils hand in attempts, a parent reads
//! one pupil through a revocable link. The judging and the grid are
//! [`crate::tareas`]'s; this file reads requests and writes answers.
//!
//! Refusals: somebody outside the class (a guest, another teacher, a pupil
//! of another class) `404 class_not_found`; a pupil on a teacher's route
//! `403 teachers_only`; a homework of another class or not set for the
//! asking pupil `404 homework_not_found`; a revoked or unknown parent link
//! `404 link_not_found`.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use escaque_torneo::pdf::{grid_sheet, GridSheet};

use super::extract::{Member, Teaching};
use super::{names, ApiError, ApiResult, AppJson, Identity};
use crate::classes::{self, Role};
use crate::error::Kind;
use crate::proto::tareas::{self as wire, AttemptBody, NewHomework};
use crate::store::classes::PupilRow;
use crate::store::now_ms;
use crate::store::tareas::{AttemptRow, HomeworkRow, ItemRow, ParentLinkRow};
use crate::tareas::{self, Detail, Item};
use crate::{new_id, new_secret, Hub};

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/classes/{id}/tareas", get(list).post(create))
        .route("/api/classes/{id}/tareas/{hw}", get(view).delete(remove))
        .route(
            "/api/classes/{id}/tareas/{hw}/items/{n}/intentos",
            post(attempt),
        )
        .route("/api/classes/{id}/tareas/{hw}/grid", get(grid))
        .route("/api/classes/{id}/tareas/{hw}/grid.csv", get(grid_csv))
        .route("/api/classes/{id}/tareas/{hw}/grid.pdf", get(grid_pdf))
        .route(
            "/api/classes/{id}/tareas/{hw}/intentos/{attempt}",
            get(attempt_view),
        )
        .route("/api/classes/{id}/pupils/{name}/familia", post(new_link))
        .route(
            "/api/classes/{id}/pupils/{name}/familia/revocar",
            post(revoke_link),
        )
        .route("/api/classes/{id}/tareas/{hw}/items/{n}/jugada", post(step))
        .route(
            "/api/classes/{id}/juego-tras-tarea",
            get(play_after).post(set_play_after),
        )
        .route("/api/classes/{id}/problemas-partidas", get(game_puzzles))
        .route("/api/me/juego", get(my_play))
        .route("/api/familia/{token}", get(parent_view))
        .route(
            "/api/familia/{token}/intentos/{attempt}",
            get(parent_attempt),
        )
}

fn link_not_found() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "link_not_found",
        "ese enlace no existe o ya no vale",
        "that link does not exist or is no longer valid",
    )
}

fn pupil_not_found() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "pupil_not_found",
        "no hay ningún alumno con ese nombre en esta clase",
        "there is no pupil of that name in this class",
    )
}

/// The active pupil named `name` of class `class_id`.
async fn pupil_named(hub: &Hub, class_id: &str, name: &str) -> Result<PupilRow, ApiError> {
    let key = names::skeleton(name);
    hub.store
        .class_pupils(class_id, false)
        .await?
        .into_iter()
        .find(|p| names::skeleton(&p.name) == key)
        .ok_or_else(pupil_not_found)
}

fn summary(h: &HomeworkRow, items: usize, left: Option<usize>) -> wire::HomeworkSummary {
    wire::HomeworkSummary {
        id: h.id.clone(),
        title: h.title.clone(),
        due_ms: h.due_ms,
        retry: h.retry,
        items,
        left,
        overdue: now_ms() > h.due_ms,
    }
}

/// `GET /api/classes/{id}/tareas`.
async fn list(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Member { class, role }: Member,
) -> ApiResult {
    let mut out = Vec::new();
    let uid = classes::user_id(&me).unwrap_or_default().to_string();
    for h in hub.store.class_homework(&class.id).await? {
        let items = hub.store.homework_items(&h.id).await?.len();
        if role == Role::Pupil {
            if !tareas::set_for(&hub.store, &h, &uid).await? {
                continue;
            }
            let mine = hub.store.homework_attempts(&h.id, Some(&uid)).await?;
            let (_, left) = tareas::pupil_cells(&h, items, &mine);
            out.push(summary(&h, items, Some(left)));
        } else {
            out.push(summary(&h, items, None));
        }
    }
    Ok(Json(wire::HomeworkList {
        role: if role == Role::Pupil {
            "pupil"
        } else {
            "teacher"
        },
        homework: out,
    })
    .into_response())
}

/// `POST /api/classes/{id}/tareas`.
async fn create(
    State(hub): State<Arc<Hub>>,
    Teaching { me, class }: Teaching,
    body: AppJson<NewHomework>,
) -> ApiResult {
    let req = body.read()?;
    let title = req.title.trim();
    let n = title.chars().count();
    if n == 0 || n > tareas::MAX_TITLE {
        return Err(ApiError::bad(
            "bad_title",
            format!(
                "el título debe tener de 1 a {} caracteres",
                tareas::MAX_TITLE
            ),
            format!("the title must have 1 to {} characters", tareas::MAX_TITLE),
        ));
    }
    if req.due_ms <= 0 {
        return Err(ApiError::bad(
            "bad_due",
            "falta la fecha de entrega (ms desde 1970)",
            "the due time is missing (ms since 1970)",
        ));
    }
    let found = if req
        .items
        .iter()
        .any(|i| matches!(i, wire::NewItem::GamePuzzle { .. }))
    {
        tareas::partidas::of_class(&hub.store, &class.id).await?
    } else {
        Vec::new()
    };
    let items = tareas::resolve_items(&req.items, &found)?;
    let mut chosen = Vec::new();
    if let Some(names) = &req.pupils {
        if names.is_empty() || names.len() > super::classes::MAX_PUPILS {
            return Err(ApiError::bad(
                "bad_pupils",
                "elige al menos un alumno (o ninguna lista: toda la clase)",
                "choose at least one pupil (or no list: the whole class)",
            ));
        }
        for n in names {
            let p = pupil_named(&hub, &class.id, n).await?;
            if !chosen.contains(&p.user_id) {
                chosen.push(p.user_id);
            }
        }
    }
    let h = HomeworkRow {
        id: new_id(),
        class_id: class.id.clone(),
        title: title.to_string(),
        due_ms: req.due_ms,
        retry: req.retry,
        whole: req.pupils.is_none(),
        created_by: classes::user_id(&me).unwrap_or_default().to_string(),
        created_ms: now_ms(),
    };
    let rows: Vec<ItemRow> = items
        .iter()
        .enumerate()
        .map(|(i, it)| ItemRow {
            idx: i as i64,
            kind: it.kind().to_string(),
            spec: serde_json::to_string(it).unwrap_or_default(),
        })
        .collect();
    hub.store.insert_homework(&h, &rows, &chosen).await?;
    Ok((
        StatusCode::CREATED,
        Json(wire::HomeworkCreated {
            id: h.id,
            items: rows.len(),
        }),
    )
        .into_response())
}

fn item_view(i: usize, it: &Item, cell: Option<(&'static str, usize)>) -> wire::ItemView {
    let (es, en) = it.words();
    let mut v = wire::ItemView {
        idx: i,
        kind: it.kind(),
        es,
        en,
        reference: None,
        fen: None,
        first: None,
        solver_moves: None,
        count: None,
        seed: None,
        level: None,
        goal: None,
        state: cell.map(|c| c.0),
        attempts: cell.map_or(0, |c| c.1),
    };
    match it {
        Item::Puzzle { id } => {
            v.reference = Some(id.clone());
            if let Some(p) = tareas::library().puzzle(id) {
                v.fen = Some(p.start.to_fen());
                v.first = Some(p.moves[0].to_string());
                v.solver_moves = Some(p.moves.len() / 2);
            }
        }
        Item::GamePuzzle { id, fen, moves, .. } => {
            v.reference = Some(id.clone());
            v.fen = Some(fen.clone());
            v.first = moves.first().cloned();
            v.solver_moves = Some(moves.len() / 2);
        }
        Item::Stage { stage } => v.reference = Some(stage.clone()),
        Item::Coords { mode, count, seed } => {
            v.reference = Some(mode.clone());
            v.count = Some(*count);
            v.seed = Some(*seed);
        }
        Item::EngineGame { level, goal } => {
            v.level = Some(*level);
            v.goal = Some(goal.clone());
        }
        Item::Position { fen, level, goal } => {
            v.fen = Some(fen.clone());
            v.level = Some(*level);
            v.goal = Some(goal.clone());
        }
    }
    v
}

/// `GET /api/classes/{id}/tareas/{hw}`.
async fn view(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, hw_id)): Path<(String, String)>,
) -> ApiResult {
    let (_, hw, role) = tareas::member(&hub, &me, &id, &hw_id).await?;
    let items = tareas::items_of(&hub.store.homework_items(&hw.id).await?)?;
    let (views, left, pupils) = if role == Role::Pupil {
        let uid = classes::user_id(&me).unwrap_or_default();
        let mine = hub.store.homework_attempts(&hw.id, Some(uid)).await?;
        let (cells, left) = tareas::pupil_cells(&hw, items.len(), &mine);
        let views = items
            .iter()
            .enumerate()
            .map(|(i, it)| item_view(i, it, Some((cells[i].1.state, cells[i].1.attempts))))
            .collect();
        (views, Some(left), None)
    } else {
        let views = items
            .iter()
            .enumerate()
            .map(|(i, it)| item_view(i, it, None))
            .collect();
        let pupils = if hw.whole {
            None
        } else {
            Some(
                tareas::pupils_of(&hub.store, &hw)
                    .await?
                    .into_iter()
                    .map(|p| p.name)
                    .collect(),
            )
        };
        (views, None, pupils)
    };
    Ok(Json(wire::HomeworkView {
        id: hw.id.clone(),
        title: hw.title.clone(),
        due_ms: hw.due_ms,
        retry: hw.retry,
        overdue: now_ms() > hw.due_ms,
        pupils,
        items: views,
        left,
    })
    .into_response())
}

/// `DELETE /api/classes/{id}/tareas/{hw}`.
async fn remove(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, hw_id)): Path<(String, String)>,
) -> ApiResult {
    let (_, hw) = tareas::teaching(&hub, &me, &id, &hw_id).await?;
    hub.store.delete_homework(&hw.id).await?;
    Ok(Json(crate::proto::common::DONE).into_response())
}

/// `POST /api/classes/{id}/tareas/{hw}/items/{n}/intentos`.
async fn attempt(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, hw_id, n)): Path<(String, String, String)>,
    body: AppJson<AttemptBody>,
) -> ApiResult {
    let (_, hw, role) = tareas::member(&hub, &me, &id, &hw_id).await?;
    if role != Role::Pupil {
        return Err(tareas::pupils_only());
    }
    let uid = classes::user_id(&me).unwrap_or_default().to_string();
    let items = tareas::items_of(&hub.store.homework_items(&hw.id).await?)?;
    let idx: usize = n.parse().map_err(|_| tareas::item_not_found())?;
    let item = items.get(idx).ok_or_else(tareas::item_not_found)?;
    let req = body.read()?;
    let judged = tareas::judge(&hub.store, &me.key, &hw, item, &req).await?;
    let before = hub.store.homework_attempts(&hw.id, Some(&uid)).await?;
    let first = !before.iter().any(|a| a.idx == idx as i64);
    let clean = judged.clean && req.hints == 0;
    // Attempts are read back oldest first by their time: a pupil's next
    // attempt is always later than the last one, even within the same
    // millisecond (a fail and its retry in one ms were read in the order
    // of their random ids, and the grid showed the retry as a first try).
    let now = now_ms();
    let at_ms = before
        .iter()
        .map(|a| a.at_ms + 1)
        .max()
        .map_or(now, |next| next.max(now));
    let row = AttemptRow {
        id: new_id(),
        homework_id: hw.id.clone(),
        idx: idx as i64,
        user_id: uid.clone(),
        at_ms,
        work: serde_json::to_string(&req).unwrap_or_default(),
        time_ms: i64::try_from(req.time_ms).unwrap_or(i64::MAX),
        hints: i64::from(req.hints),
        solved: judged.solved,
        clean,
        detail: serde_json::to_string(&judged.detail).unwrap_or_default(),
    };
    hub.store.insert_homework_attempt(&row).await?;
    let mut all = before;
    all.push(row.clone());
    let (cells, left) = tareas::pupil_cells(&hw, items.len(), &all);
    Ok((
        StatusCode::CREATED,
        Json(wire::AttemptAck {
            attempt: row.id,
            solved: row.solved,
            clean,
            counts: first || hw.retry,
            state: cells[idx].1.state,
            es: judged.detail.es,
            en: judged.detail.en,
            left,
        }),
    )
        .into_response())
}

/// `GET /api/classes/{id}/tareas/{hw}/grid`.
async fn grid(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, hw_id)): Path<(String, String)>,
) -> ApiResult {
    let (_, hw) = tareas::teaching(&hub, &me, &id, &hw_id).await?;
    Ok(Json(tareas::grid(&hub.store, &hw).await?).into_response())
}

fn file_name(title: &str, ext: &str) -> String {
    let base: String = title
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(40)
        .collect();
    format!("tarea-{base}.{ext}")
}

/// `GET /api/classes/{id}/tareas/{hw}/grid.csv`.
async fn grid_csv(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, hw_id)): Path<(String, String)>,
) -> ApiResult {
    let (_, hw) = tareas::teaching(&hub, &me, &id, &hw_id).await?;
    let g = tareas::grid(&hub.store, &hw).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}\"", file_name(&hw.title, "csv")),
            ),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        tareas::csv(&g),
    )
        .into_response())
}

/// A date as `dd/mm/aaaa hh:mm` (UTC).
fn date(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{d:02}/{m:02}/{y} {:02}:{:02} UTC",
        rem / 3600,
        (rem % 3600) / 60
    )
}

fn mark(c: &wire::Cell) -> String {
    let m = match c.state {
        "first_try" => "P",
        "after_help" => "A",
        "failed" => "F",
        _ => "-",
    };
    if c.overdue {
        format!("{m}*")
    } else {
        m.to_string()
    }
}

/// `GET /api/classes/{id}/tareas/{hw}/grid.pdf`: the grid in Spanish on
/// landscape A4.
async fn grid_pdf(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, hw_id)): Path<(String, String)>,
) -> ApiResult {
    let (class, hw) = tareas::teaching(&hub, &me, &id, &hw_id).await?;
    let g = tareas::grid(&hub.store, &hw).await?;
    let items = tareas::items_of(&hub.store.homework_items(&hw.id).await?)?;
    let mut legend = vec![
        "P: resuelto a la primera · A: resuelto con ayuda o en otro intento · F: fallado · \
         -: sin hacer · *: fuera de plazo. Media: a la primera 100, con ayuda 50."
            .to_string(),
    ];
    legend.extend(
        items
            .iter()
            .enumerate()
            .map(|(i, it)| format!("{}. {}", i + 1, it.words().0)),
    );
    let sheet = GridSheet {
        title: format!("Tarea: {}", hw.title),
        lines: vec![
            format!("Clase: {}", class.name),
            format!("Entrega: {}", date(hw.due_ms)),
        ],
        name_header: "Alumno".into(),
        columns: (1..=g.items.len()).map(|i| i.to_string()).collect(),
        average_header: "Media".into(),
        rows: g
            .pupils
            .iter()
            .map(|r| {
                (
                    format!("{} ({})", r.real_name, r.name),
                    r.cells.iter().map(mark).collect(),
                    r.average.to_string(),
                )
            })
            .collect(),
        footer: (
            "Media".into(),
            g.items.iter().map(|i| i.average.to_string()).collect(),
            String::new(),
        ),
        legend,
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{}\"", file_name(&hw.title, "pdf")),
            ),
            (header::CACHE_CONTROL, "no-store".to_string()),
        ],
        grid_sheet(&sheet),
    )
        .into_response())
}

/// The position after each move of `moves` (UCI) from `fen`; it stops at
/// the first move that does not read (none does: the judge wrote them).
fn fens_after(fen: Option<&str>, moves: &[String]) -> Vec<String> {
    let Some(mut pos) = fen.and_then(|f| escaque::Position::from_fen(f).ok()) else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        let Ok(mv) = escaque::read_move(&pos, m, escaque::Notation::Uci) else {
            break;
        };
        pos.play_unchecked(mv);
        out.push(pos.to_fen());
    }
    out
}

fn attempt_out(
    a: &AttemptRow,
    pupil: String,
    items: &[Item],
) -> Result<wire::AttemptView, ApiError> {
    let d: Detail = serde_json::from_str(&a.detail).unwrap_or_default();
    let w: AttemptBody = serde_json::from_str(&a.work).unwrap_or_default();
    Ok(wire::AttemptView {
        id: a.id.clone(),
        pupil,
        idx: a.idx as usize,
        kind: items.get(a.idx as usize).map_or("", Item::kind),
        at_ms: a.at_ms,
        time_ms: a.time_ms,
        hints: a.hints,
        solved: a.solved,
        clean: a.clean,
        fens: fens_after(d.fen.as_deref(), &d.moves),
        fen: d.fen,
        moves: d.moves,
        san: d.san,
        exercises: d.exercises,
        answers: w.answers.unwrap_or_default(),
        game: w.game,
        es: d.es,
        en: d.en,
    })
}

/// `GET /api/classes/{id}/tareas/{hw}/intentos/{attempt}`: a teacher, or
/// the pupil whose attempt it is.
async fn attempt_view(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, hw_id, att)): Path<(String, String, String)>,
) -> ApiResult {
    let (_, hw, role) = tareas::member(&hub, &me, &id, &hw_id).await?;
    let a = hub
        .store
        .homework_attempt(&att)
        .await?
        .filter(|a| a.homework_id == hw.id)
        .ok_or_else(tareas::attempt_not_found)?;
    if role == Role::Pupil && Some(a.user_id.as_str()) != classes::user_id(&me) {
        return Err(tareas::attempt_not_found());
    }
    let pupil = hub
        .store
        .class_pupils(&hw.class_id, true)
        .await?
        .into_iter()
        .find(|p| p.user_id == a.user_id)
        .map(|p| p.name)
        .unwrap_or_default();
    let items = tareas::items_of(&hub.store.homework_items(&hw.id).await?)?;
    Ok(Json(attempt_out(&a, pupil, &items)?).into_response())
}

/// `POST /api/classes/{id}/pupils/{name}/familia`: a new parent's link.
async fn new_link(
    State(hub): State<Arc<Hub>>,
    Teaching { class, .. }: Teaching,
    Path((_, name)): Path<(String, String)>,
) -> ApiResult {
    let p = pupil_named(&hub, &class.id, &name).await?;
    let token = new_secret();
    hub.store
        .insert_parent_link(&ParentLinkRow {
            token: token.clone(),
            class_id: class.id,
            user_id: p.user_id,
            created_ms: now_ms(),
            revoked_ms: None,
        })
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(wire::ParentLink {
            path: format!("/familia/{token}"),
            token,
        }),
    )
        .into_response())
}

/// `POST /api/classes/{id}/pupils/{name}/familia/revocar`: every link to
/// the pupil stops working at once.
async fn revoke_link(
    State(hub): State<Arc<Hub>>,
    Teaching { class, .. }: Teaching,
    Path((_, name)): Path<(String, String)>,
) -> ApiResult {
    let p = pupil_named(&hub, &class.id, &name).await?;
    let revoked = hub
        .store
        .revoke_parent_links(&class.id, &p.user_id, now_ms())
        .await?;
    Ok(Json(wire::Revoked { revoked }).into_response())
}

/// The live link `token`: its class and its (active) pupil.
async fn live_link(hub: &Hub, token: &str) -> Result<(ParentLinkRow, PupilRow, String), ApiError> {
    let link = hub
        .store
        .parent_link(token)
        .await?
        .filter(|l| l.revoked_ms.is_none())
        .ok_or_else(link_not_found)?;
    let class = hub
        .store
        .class(&link.class_id)
        .await?
        .ok_or_else(link_not_found)?;
    let pupil = hub
        .store
        .class_pupils(&link.class_id, false)
        .await?
        .into_iter()
        .find(|p| p.user_id == link.user_id)
        .ok_or_else(link_not_found)?;
    Ok((link, pupil, class.name))
}

/// Days of games a parent sees.
const PARENT_DAYS: i64 = 30;

/// `GET /api/familia/{token}`: one pupil, read only.
async fn parent_view(State(hub): State<Arc<Hub>>, Path(token): Path<String>) -> ApiResult {
    let (link, pupil, class_name) = live_link(&hub, &token).await?;
    let mut homework = Vec::new();
    let mut stages_done = Vec::new();
    for h in hub.store.class_homework(&link.class_id).await? {
        if !tareas::set_for(&hub.store, &h, &link.user_id).await? {
            continue;
        }
        let items = tareas::items_of(&hub.store.homework_items(&h.id).await?)?;
        let mine = hub
            .store
            .homework_attempts(&h.id, Some(&link.user_id))
            .await?;
        let (cells, _) = tareas::pupil_cells(&h, items.len(), &mine);
        for (it, (s, _)) in items.iter().zip(&cells) {
            if let Item::Stage { stage } = it {
                if matches!(s, tareas::State::FirstTry | tareas::State::AfterHelp)
                    && !stages_done.contains(stage)
                {
                    stages_done.push(stage.clone());
                }
            }
        }
        homework.push(wire::ParentHomework {
            id: h.id.clone(),
            title: h.title.clone(),
            due_ms: h.due_ms,
            labels: items.iter().map(|it| it.words().0).collect(),
            cells: cells.into_iter().map(|c| c.1).collect(),
        });
    }
    let now = now_ms();
    let mut games: Vec<wire::ParentGame> = hub
        .store
        .games_ended_between(
            &format!("u:{}", link.user_id),
            now - PARENT_DAYS * 86_400_000,
            now + 1,
        )
        .await?
        .into_iter()
        .map(|g| wire::ParentGame {
            game: g.game,
            white: g.white,
            result: g.result,
            ended_ms: g.ended_ms,
        })
        .collect();
    games.reverse();
    Ok(Json(wire::ParentView {
        pupil: pupil.name,
        class_name,
        homework,
        stages_done,
        games,
    })
    .into_response())
}

/// `GET /api/familia/{token}/intentos/{attempt}`: an attempt of the link's
/// pupil only.
async fn parent_attempt(
    State(hub): State<Arc<Hub>>,
    Path((token, att)): Path<(String, String)>,
) -> ApiResult {
    let (link, pupil, _) = live_link(&hub, &token).await?;
    let a = hub
        .store
        .homework_attempt(&att)
        .await?
        .filter(|a| a.user_id == link.user_id)
        .ok_or_else(tareas::attempt_not_found)?;
    let hw = hub
        .store
        .homework(&a.homework_id)
        .await?
        .filter(|h| h.class_id == link.class_id)
        .ok_or_else(tareas::attempt_not_found)?;
    let items = tareas::items_of(&hub.store.homework_items(&hw.id).await?)?;
    Ok(Json(attempt_out(&a, pupil.name, &items)?).into_response())
}

/// `POST /api/classes/{id}/tareas/{hw}/items/{n}/jugada`: a puzzle from the
/// class's games played on the pupil's page, one step (nothing stored).
async fn step(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, hw_id, n)): Path<(String, String, String)>,
    body: AppJson<wire::StepBody>,
) -> ApiResult {
    let (_, hw, role) = tareas::member(&hub, &me, &id, &hw_id).await?;
    if role != Role::Pupil {
        return Err(tareas::pupils_only());
    }
    let items = tareas::items_of(&hub.store.homework_items(&hw.id).await?)?;
    let idx: usize = n.parse().map_err(|_| tareas::item_not_found())?;
    let item = items.get(idx).ok_or_else(tareas::item_not_found)?;
    let req = body.read()?;
    let Some(p) = tareas::partidas::puzzle_of(item) else {
        return Err(ApiError::bad(
            "bad_step",
            "ese ejercicio no es un problema de las partidas de la clase",
            "that item is not a puzzle from the class's games",
        ));
    };
    Ok(Json(tareas::partidas::step(&p, &req)?).into_response())
}

/// `GET /api/classes/{id}/juego-tras-tarea`: the option (teachers and
/// pupils of the class).
async fn play_after(State(hub): State<Arc<Hub>>, Member { class, .. }: Member) -> ApiResult {
    Ok(Json(wire::PlayAfterView {
        on: hub.store.play_after_homework(&class.id).await?,
    })
    .into_response())
}

/// `POST /api/classes/{id}/juego-tras-tarea`: a teacher turns it on or off.
async fn set_play_after(
    State(hub): State<Arc<Hub>>,
    Teaching { me, class }: Teaching,
    body: AppJson<wire::PlayAfterBody>,
) -> ApiResult {
    let req = body.read()?;
    let by = classes::user_id(&me).unwrap_or_default();
    hub.store
        .set_play_after_homework(&class.id, req.on, by, now_ms())
        .await?;
    Ok(Json(wire::PlayAfterView { on: req.on }).into_response())
}

/// `GET /api/classes/{id}/problemas-partidas`: the puzzles found in the
/// class's pupils' games (teachers only).
async fn game_puzzles(State(hub): State<Arc<Hub>>, Teaching { class, .. }: Teaching) -> ApiResult {
    let found = tareas::partidas::of_class(&hub.store, &class.id).await?;
    Ok(Json(wire::GamePuzzles {
        puzzles: found.iter().map(|f| f.wire()).collect(),
    })
    .into_response())
}

/// `GET /api/me/juego`: whether the asker may start a free game now.
async fn my_play(State(hub): State<Arc<Hub>>, me: Identity) -> ApiResult {
    Ok(Json(tareas::juego::state(&hub.store, &me).await?).into_response())
}
