//! The class routes (issue 26): classes, teachers, pupils, class-code
//! login, the class board, games a teacher starts.
//!
//! Every route under `/api/classes/{id}` asks for the asker's role first
//! ([`classes::teaching`] for a teacher's route, [`classes::member`] for a
//! member's): somebody outside the class gets `404 class_not_found`, a
//! pupil on a teacher's route `403 teachers_only`. A pupil's real name is
//! written only into answers to the class's teachers. The class-code login
//! draws from the class's own buckets ([`crate::classes::LoginLimits`]),
//! never from the address's.

use std::collections::HashMap;
use std::sync::Arc;

use crate::proto::classes::{self as wire, AddPupils, CodeLogin, NewClass};
use crate::proto::lobby::YourGame;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use escaque::Color;
use serde::Deserialize;

use super::accounts::hash_off_thread;
use super::extract::{Member, Teaching};
use super::games::parse_tc;
use super::{names, ApiError, ApiResult, AppJson, Identity, Limited};
use crate::classes::{self, words, Refusal, Role};
use crate::games::{self, ColorChoice, GameSpec, Settings};
use crate::lobby::Fanout;
use crate::presence::PresenceView;
use crate::store::class_admin::NewsRow;
use crate::store::classes::{ClassRow, PupilRow};
use crate::store::{now_ms, GameRow, UserRow};
use crate::{new_id, Hub, Seat};

/// At most this many active pupils in a class (as lichess).
pub const MAX_PUPILS: usize = 100;
/// Longest class name, real name (characters, after trimming).
const MAX_NAME: usize = 80;
/// Longest description or notice (characters).
const MAX_TEXT: usize = 2000;
/// Games of a class listed on its page.
const CLASS_GAMES: i64 = 30;
/// Finished games of a pupil listed for its teacher.
const PUPIL_GAMES: i64 = 50;
/// Notices on the class page (the board route gives more).
const PAGE_NEWS: i64 = 20;
/// Notices the board route gives.
const BOARD_NEWS: i64 = 100;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/classes", get(list).post(create))
        .route("/api/classes/{id}", get(view).post(edit))
        .route("/api/classes/{id}/teachers", post(add_teacher))
        .route("/api/classes/{id}/pupils", post(add_pupils))
        .route("/api/classes/{id}/pupils/{name}", post(edit_pupil))
        .route(
            "/api/classes/{id}/pupils/{name}/password",
            post(reset_password),
        )
        .route("/api/classes/{id}/pupils/{name}/move", post(move_pupil))
        .route("/api/classes/{id}/pupils/{name}/games", get(pupil_games))
        .route("/api/classes/{id}/code", post(new_code))
        .route("/api/classes/{id}/login", get(login_page).post(login))
        .route("/api/classes/{id}/news", get(news).post(post_news))
        .route("/api/classes/{id}/news/{news}", delete(delete_news))
        .route("/api/classes/{id}/games", post(start_game))
}

// ---------------------------------------------------------------- refusals

fn not_a_teacher() -> ApiError {
    Refusal::NotATeacher.into()
}

fn pupil_not_found() -> ApiError {
    Refusal::PupilNotFound.into()
}

fn class_full() -> ApiError {
    Refusal::ClassFull { max: MAX_PUPILS }.into()
}

fn bad_class_code() -> ApiError {
    Refusal::BadClassCode.into()
}

/// A text of 1 to `max` characters after trimming, or `code`.
fn text_field(
    raw: &str,
    max: usize,
    code: &'static str,
    what: (&str, &str),
) -> Result<String, ApiError> {
    let t = raw.trim();
    let n = t.chars().count();
    if n == 0 || n > max {
        return Err(ApiError::bad(
            code,
            format!("{} debe tener de 1 a {max} caracteres", what.0),
            format!("{} must have 1 to {max} characters", what.1),
        ));
    }
    Ok(t.to_string())
}

fn description_field(raw: &str) -> Result<String, ApiError> {
    let t = raw.trim();
    if t.chars().count() > MAX_TEXT {
        return Err(ApiError::bad(
            "bad_description",
            format!("la descripción tiene como mucho {MAX_TEXT} caracteres"),
            format!("the description has at most {MAX_TEXT} characters"),
        ));
    }
    Ok(t.to_string())
}

fn real_name_field(raw: &str) -> Result<String, ApiError> {
    text_field(
        raw,
        MAX_NAME,
        "bad_real_name",
        ("el nombre real", "the real name"),
    )
}

// ---------------------------------------------------------------- helpers

/// The pupil named `name` (any spelling the names rule calls the same) of
/// class `class_id`, archived ones included when `archived`.
async fn find_pupil(
    hub: &Hub,
    class_id: &str,
    name: &str,
    archived: bool,
) -> Result<PupilRow, ApiError> {
    let key = names::skeleton(name);
    hub.store
        .class_pupils(class_id, archived)
        .await?
        .into_iter()
        .find(|p| names::skeleton(&p.name) == key)
        .ok_or_else(pupil_not_found)
}

/// The pupil named `name` (archived ones included) of class `id`, for one
/// of its teachers (refusals as [`classes::teaching`]'s, then
/// `404 pupil_not_found`).
async fn taught_pupil(
    hub: &Hub,
    me: &Identity,
    id: &str,
    name: &str,
) -> Result<PupilRow, ApiError> {
    classes::teaching(hub, me, id).await?;
    find_pupil(hub, id, name, true).await
}

/// Whether class `class_id` has room for `more` active pupils, else
/// [`class_full`].
async fn room_for(hub: &Hub, class_id: &str, more: usize) -> Result<(), ApiError> {
    let active = hub.store.active_pupil_count(class_id).await? as usize;
    if active + more > MAX_PUPILS {
        return Err(class_full());
    }
    Ok(())
}

fn game_item(g: &GameRow) -> wire::ClassGame {
    wire::ClassGame {
        game: g.id.clone(),
        white: g.white_name.clone(),
        black: g.black_name.clone(),
        status: g.status.clone(),
        result: g.end.map(|e| e.result_pgn()),
    }
}

// ---------------------------------------------------------------- classes

pub(super) async fn list(State(hub): State<Arc<Hub>>, me: Identity) -> ApiResult {
    let may_teach = classes::may_teach(&hub, &me).await?;
    let mut out = Vec::new();
    if let Some(uid) = classes::user_id(&me) {
        let (rows, role) = if me.managed {
            let mine = match hub.store.pupil_class(uid).await? {
                Some(c) => hub.store.class(&c).await?.into_iter().collect(),
                None => Vec::new(),
            };
            (mine, "pupil")
        } else {
            (hub.store.classes_taught(uid).await?, "teacher")
        };
        for c in rows {
            let n = hub.store.active_pupil_count(&c.id).await?;
            out.push(wire::ClassItem {
                id: c.id,
                name: c.name,
                description: c.description,
                pupils: n,
                archived: c.archived,
                role,
            });
        }
    }
    Ok(Json(wire::ClassList {
        may_teach,
        classes: out,
    })
    .into_response())
}

pub(super) async fn create(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    body: AppJson<NewClass>,
) -> ApiResult {
    if !classes::may_teach(&hub, &me).await? {
        return Err(not_a_teacher());
    }
    let req = body.read()?;
    let name = text_field(
        &req.name,
        MAX_NAME,
        "bad_class_name",
        ("el nombre de la clase", "the class's name"),
    )?;
    let description = description_field(req.description.as_deref().unwrap_or(""))?;
    let uid = classes::user_id(&me).ok_or_else(not_a_teacher)?;
    let class = ClassRow {
        id: new_id(),
        name,
        description,
        login_code: words::class_code(&mut rand::rng()),
        created_by: uid.to_string(),
        created_ms: now_ms(),
        archived: false,
    };
    hub.store.insert_class(&class).await?;
    Ok((
        StatusCode::CREATED,
        Json(wire::ClassCreated {
            id: class.id,
            name: class.name,
            description: class.description,
            code: class.login_code,
        }),
    )
        .into_response())
}

pub(super) async fn view(
    State(hub): State<Arc<Hub>>,
    Member { class, role, .. }: Member,
) -> ApiResult {
    let id = class.id.clone();
    let teacher = role == Role::Teacher;
    let teachers: Vec<wire::TeacherItem> = hub
        .store
        .class_teachers(&id)
        .await?
        .into_iter()
        .map(|t| wire::TeacherItem { name: t.name })
        .collect();
    let mut playing: HashMap<String, String> = HashMap::new();
    for g in hub.store.pupils_playing(&id).await? {
        for owner in [g.white_owner, g.black_owner].into_iter().flatten() {
            playing.entry(owner).or_insert_with(|| g.game.clone());
        }
    }
    let pupils: Vec<wire::PupilItem> = hub
        .store
        .class_pupils(&id, teacher)
        .await?
        .into_iter()
        .map(|p| {
            let key = format!("u:{}", p.user_id);
            wire::PupilItem {
                online: !p.archived && hub.presence.online(&key),
                seen_ms_ago: hub.presence.seen_ms_ago(&key),
                archived: p.archived,
                playing: playing.get(&key).cloned(),
                real_name: teacher.then_some(p.real_name),
                name: p.name,
            }
        })
        .collect();
    let news: Vec<wire::NewsItem> = hub
        .store
        .class_news(&id, PAGE_NEWS)
        .await?
        .iter()
        .map(news_item)
        .collect();
    let games: Vec<wire::ClassGame> = hub
        .store
        .class_games(&id, CLASS_GAMES)
        .await?
        .iter()
        .map(game_item)
        .collect();
    Ok(Json(wire::ClassView {
        id: class.id,
        name: class.name,
        description: class.description,
        role: if teacher { "teacher" } else { "pupil" },
        archived: class.archived,
        teachers,
        pupils,
        news,
        games,
        code: teacher.then_some(class.login_code),
    })
    .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EditClass {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    archived: Option<bool>,
}

pub(super) async fn edit(
    State(hub): State<Arc<Hub>>,
    Teaching { class, .. }: Teaching,
    body: AppJson<EditClass>,
) -> ApiResult {
    let id = class.id.clone();
    let req = body.read()?;
    let name = match &req.name {
        Some(n) => text_field(
            n,
            MAX_NAME,
            "bad_class_name",
            ("el nombre de la clase", "the class's name"),
        )?,
        None => class.name,
    };
    let description = match &req.description {
        Some(d) => description_field(d)?,
        None => class.description,
    };
    let archived = req.archived.unwrap_or(class.archived);
    hub.store
        .update_class(&id, &name, &description, archived)
        .await?;
    Ok(Json(wire::ClassEdited {
        id,
        name,
        description,
        archived,
    })
    .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NewTeacher {
    name: String,
}

pub(super) async fn add_teacher(
    State(hub): State<Arc<Hub>>,
    Teaching { class, .. }: Teaching,
    body: AppJson<NewTeacher>,
) -> ApiResult {
    let id = class.id;
    let req = body.read()?;
    let no_such = || ApiError::from(Refusal::NoSuchAccount);
    let mut user = hub
        .store
        .user_by_name_key(&names::skeleton(&req.name))
        .await?;
    if user.is_none() {
        user = hub.store.user_by_name(&req.name).await?;
    }
    let user = user.ok_or_else(no_such)?;
    let (_, managed) = hub.store.user_flags(&user.id).await?.ok_or_else(no_such)?;
    if managed {
        return Err(no_such());
    }
    if !hub.store.add_class_teacher(&id, &user.id).await? {
        return Err(Refusal::TeacherAlready.into());
    }
    let teachers: Vec<wire::TeacherItem> = hub
        .store
        .class_teachers(&id)
        .await?
        .into_iter()
        .map(|t| wire::TeacherItem { name: t.name })
        .collect();
    Ok((StatusCode::CREATED, Json(wire::Teachers { teachers })).into_response())
}

pub(super) async fn new_code(
    State(hub): State<Arc<Hub>>,
    Teaching { class, .. }: Teaching,
) -> ApiResult {
    let id = class.id.clone();
    let mut code = words::class_code(&mut rand::rng());
    while code == class.login_code {
        code = words::class_code(&mut rand::rng());
    }
    hub.store.set_class_login_code(&id, &code).await?;
    Ok(Json(wire::ClassCode { code }).into_response())
}

// ---------------------------------------------------------------- pupils

pub(super) async fn add_pupils(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    Teaching { class, .. }: Teaching,
    body: AppJson<AddPupils>,
) -> ApiResult {
    let id = class.id;
    let req = body.read()?;
    let raw: Vec<String> = match (req.real_names, req.text) {
        (Some(list), None) => list,
        (None, Some(text)) => text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
        _ => {
            return Err(ApiError::bad(
                "bad_pupil_list",
                "envía «real_names» (una lista) o «text» (un nombre por línea), uno de los dos",
                "send either \"real_names\" (a list) or \"text\" (one name a line)",
            ))
        }
    };
    if raw.is_empty() || raw.len() > MAX_PUPILS {
        return Err(ApiError::bad(
            "bad_pupil_list",
            format!("añade de 1 a {MAX_PUPILS} alumnos de una vez"),
            format!("add 1 to {MAX_PUPILS} pupils at a time"),
        ));
    }
    let real_names = raw
        .iter()
        .map(|n| real_name_field(n))
        .collect::<Result<Vec<_>, _>>()?;
    room_for(&hub, &id, real_names.len()).await?;
    // Hash every password at once (Argon2 on the blocking pool), then store.
    let passwords: Vec<String> = {
        let mut rng = rand::rng();
        real_names
            .iter()
            .map(|_| words::password(&mut rng))
            .collect()
    };
    let tasks: Vec<_> = passwords
        .iter()
        .map(|p| tokio::spawn(hash_off_thread(p.clone())))
        .collect();
    let mut hashes = Vec::with_capacity(tasks.len());
    for t in tasks {
        hashes.push(t.await.map_err(|_| ApiError::internal())??);
    }
    let mut out = Vec::with_capacity(real_names.len());
    for ((real_name, password), pass_hash) in real_names.iter().zip(passwords).zip(hashes) {
        let mut tries = 0;
        let name = loop {
            tries += 1;
            if tries > 200 {
                eprintln!("escaque-server: no free generated name after 200 tries");
                return Err(ApiError::internal());
            }
            let generated = words::account_name(&mut rand::rng());
            let Ok(checked) = names::check(&generated) else {
                continue;
            };
            let user = UserRow {
                id: new_id(),
                name: checked.name.clone(),
                pass_hash: pass_hash.clone(),
            };
            if hub
                .store
                .create_pupil(&id, &user, &checked.skeleton, real_name)
                .await?
            {
                break checked.name;
            }
        };
        out.push(wire::NewPupil {
            name,
            real_name: real_name.clone(),
            password,
        });
    }
    Ok((StatusCode::CREATED, Json(wire::NewPupils { pupils: out })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EditPupil {
    #[serde(default)]
    real_name: Option<String>,
    #[serde(default)]
    archived: Option<bool>,
}

pub(super) async fn edit_pupil(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, name)): Path<(String, String)>,
    body: AppJson<EditPupil>,
) -> ApiResult {
    let pupil = taught_pupil(&hub, &me, &id, &name).await?;
    let req = body.read()?;
    let real_name = match &req.real_name {
        Some(r) => real_name_field(r)?,
        None => pupil.real_name.clone(),
    };
    let archived = req.archived.unwrap_or(pupil.archived);
    if pupil.archived && !archived {
        room_for(&hub, &id, 1).await?;
    }
    hub.store
        .update_pupil(&id, &pupil.user_id, &real_name, archived)
        .await?;
    if archived && !pupil.archived {
        // An archived pupil is out of the class: its sessions end.
        hub.store.end_sessions_of(&pupil.user_id).await?;
    }
    Ok(Json(wire::PupilEdited {
        name: pupil.name,
        real_name,
        archived,
    })
    .into_response())
}

pub(super) async fn reset_password(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, name)): Path<(String, String)>,
) -> ApiResult {
    let pupil = taught_pupil(&hub, &me, &id, &name).await?;
    let password = words::password(&mut rand::rng());
    let pass_hash = hash_off_thread(password.clone()).await?;
    hub.store.reset_password(&pupil.user_id, &pass_hash).await?;
    Ok(Json(wire::PupilPassword {
        name: pupil.name,
        password,
    })
    .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MovePupil {
    to: String,
}

pub(super) async fn move_pupil(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, name)): Path<(String, String)>,
    body: AppJson<MovePupil>,
) -> ApiResult {
    let pupil = taught_pupil(&hub, &me, &id, &name).await?;
    let req = body.read()?;
    // The asker must teach the other class too; a pupil never gets here.
    let to = match classes::teaching(&hub, &me, &req.to).await {
        Ok(c) => c,
        Err(_) => return Err(classes::class_not_found()),
    };
    if to.id != id {
        room_for(&hub, &to.id, 1).await?;
        hub.store.move_pupil(&id, &to.id, &pupil.user_id).await?;
    }
    Ok(Json(wire::PupilMoved {
        name: pupil.name,
        class: to.id,
    })
    .into_response())
}

pub(super) async fn pupil_games(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path((id, name)): Path<(String, String)>,
) -> ApiResult {
    let pupil = taught_pupil(&hub, &me, &id, &name).await?;
    let games: Vec<wire::PupilGame> = hub
        .store
        .ended_games_of(&format!("u:{}", pupil.user_id), PUPIL_GAMES)
        .await?
        .iter()
        .map(|(g, ended_ms)| wire::PupilGame {
            game: g.id.clone(),
            white: g.white_name.clone(),
            black: g.black_name.clone(),
            result: g.end.map(|e| e.result_pgn()),
            termination: g.end.map(|e| e.termination.id()),
            ended_ms: *ended_ms,
            pgn: format!("/api/games/{}/pgn", g.id),
        })
        .collect();
    Ok(Json(wire::PupilGames { games }).into_response())
}

// ---------------------------------------------------------------- login

/// An active class (not archived), else `404 class_not_found`.
async fn open_class(hub: &Hub, id: &str) -> Result<ClassRow, ApiError> {
    hub.store
        .class(id)
        .await?
        .filter(|c| !c.archived)
        .ok_or_else(classes::class_not_found)
}

pub(super) async fn login_page(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult {
    let class = open_class(&hub, &id).await?;
    let pupils: Vec<String> = hub
        .store
        .class_pupils(&id, false)
        .await?
        .into_iter()
        .map(|p| p.name)
        .collect();
    Ok(Json(wire::LoginPage {
        id: class.id,
        name: class.name,
        pupils,
    })
    .into_response())
}

pub(super) async fn login(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    body: AppJson<CodeLogin>,
) -> ApiResult {
    let class = open_class(&hub, &id).await?;
    let req = body.read()?;
    // The class's buckets, never the address's: a room of tablets shares
    // one address. While the wrong-code bucket is empty no code is even
    // checked, so that guessing is as slow as the bucket.
    if !hub.class_logins.take(&id) || !hub.class_logins.wrong_left(&id) {
        return Err(ApiError::limited());
    }
    let good_code = words::normalise_code(&req.code) == class.login_code;
    let pupil = if good_code {
        find_pupil(&hub, &id, &req.name, false).await.ok()
    } else {
        None
    };
    let Some(pupil) = pupil else {
        // One answer for a wrong code and a name that is not an active
        // pupil's; both cost a wrong-code token.
        hub.class_logins.take_wrong(&id);
        return Err(bad_class_code());
    };
    super::accounts::start_session(&hub, &pupil.user_id, &pupil.name).await
}

// ---------------------------------------------------------------- board

fn news_item(n: &NewsRow) -> wire::NewsItem {
    wire::NewsItem {
        id: n.id.clone(),
        author: n.author.clone(),
        text: n.text.clone(),
        homework: n.homework,
        at_ms: n.at_ms,
    }
}

pub(super) async fn news(State(hub): State<Arc<Hub>>, Member { class, .. }: Member) -> ApiResult {
    let id = class.id;
    let news: Vec<wire::NewsItem> = hub
        .store
        .class_news(&id, BOARD_NEWS)
        .await?
        .iter()
        .map(news_item)
        .collect();
    Ok(Json(wire::NewsList { news }).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NewNews {
    text: String,
    #[serde(default)]
    homework: bool,
}

pub(super) async fn post_news(
    State(hub): State<Arc<Hub>>,
    Teaching { me, class }: Teaching,
    body: AppJson<NewNews>,
) -> ApiResult {
    let id = class.id;
    let req = body.read()?;
    let text = text_field(&req.text, MAX_TEXT, "bad_news", ("el aviso", "the notice"))?;
    let uid = classes::user_id(&me).unwrap_or_default();
    let row = NewsRow {
        id: new_id(),
        class_id: id.clone(),
        author: me.name.clone(),
        at_ms: now_ms(),
        text,
        homework: req.homework,
    };
    hub.store.insert_news(&row, uid).await?;
    Ok((StatusCode::CREATED, Json(news_item(&row))).into_response())
}

pub(super) async fn delete_news(
    State(hub): State<Arc<Hub>>,
    Teaching { class, .. }: Teaching,
    Path((_, news)): Path<(String, String)>,
) -> ApiResult {
    let id = class.id;
    if !hub.store.delete_news(&id, &news).await? {
        return Err(Refusal::NewsNotFound.into());
    }
    Ok(Json(crate::proto::common::DONE).into_response())
}

// ---------------------------------------------------------------- games

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NewClassGame {
    white: String,
    black: String,
    #[serde(default)]
    time_control: Option<String>,
}

pub(super) async fn start_game(
    State(hub): State<Arc<Hub>>,
    Teaching { class, .. }: Teaching,
    body: AppJson<NewClassGame>,
) -> ApiResult {
    let id = class.id;
    let req = body.read()?;
    let tc = parse_tc(req.time_control.as_deref())?;
    let white = find_pupil(&hub, &id, &req.white, false).await?;
    let black = find_pupil(&hub, &id, &req.black, false).await?;
    if white.user_id == black.user_id {
        return Err(ApiError::bad(
            "same_pupil",
            "una partida necesita dos alumnos distintos",
            "a game needs two different pupils",
        ));
    }
    let seat = |p: &PupilRow| Seat::Person {
        owner: format!("u:{}", p.user_id),
        name: p.name.clone(),
    };
    let (game, _) = games::build(
        &GameSpec::standard(ColorChoice::White),
        seat(&white),
        seat(&black),
        Settings::casual(tc, Some(id.clone())),
    )?;
    let created = hub.create_game(game).await?;
    let game = &created.game;
    for (color, p) in [(Color::White, &white), (Color::Black, &black)] {
        let Some(secret) = created.secret(color) else {
            continue;
        };
        let msg = YourGame {
            class: Some(id.clone()),
            ..YourGame::new(game, color.fold("white", "black"), secret)
        };
        hub.lobby
            .tell_owner(&format!("u:{}", p.user_id), Arc::from(msg.to_text()));
    }
    Ok((
        StatusCode::CREATED,
        Json(wire::GameStarted {
            game: game.clone(),
            watch: format!("/partida/{game}"),
        }),
    )
        .into_response())
}
