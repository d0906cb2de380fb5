//! Simultaneous exhibitions of a class (issue 26): a teacher (the host)
//! against several pupils at once, each board a casual game of its own
//! (`class_id` set), with the simul's clock or none.
//!
//! * `POST /api/classes/{id}/simuls` (a teacher of the class) starts one:
//!   the simul and its games are stored in one transaction, the games
//!   start, and each pupil is told privately on the lobby socket
//!   (`your_game`, with `simul` and `board`), as a tournament round does.
//! * `GET /api/simuls/{id}` (the class's teachers and pupils) is the grid:
//!   every board's current game as the host's page draws it, and the score.
//! * `POST /api/simuls/{id}/boards/{board}/restart` (a teacher of the
//!   class) gives a finished board a new game (its next `attempt`).
//! * `GET /api/classes/{id}/simuls` (members) lists the class's simuls and
//!   its pupils (name, online) for the page that starts one.
//!
//! Every refusal is in `docs/protocol.md`, "Simuls".

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use escaque::{Color, TimeControl};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::oneshot;

use super::extract::{Member, Teaching};
use super::games::parse_tc;
use super::names::skeleton;
use super::{ApiError, ApiResult, AppJson, Identity};
use crate::actor::Cmd;
use crate::classes::{self, Role};
use crate::error::Kind;
use crate::games::{self, ColorChoice, GameSpec, Settings};
use crate::lobby::Fanout;
use crate::presence::PresenceView;
use crate::proto::lobby::YourGame;
use crate::proto::simuls as wire;
use crate::store::classes::PupilRow;
use crate::store::simuls::{SimulGameRow, SimulRow};
use crate::store::{color_id, now_ms};
use crate::{new_id, Hub, NewGame, Seat};

/// The most boards of one simul.
pub const MAX_BOARDS: usize = 30;

/// How many of a class's simuls its list shows.
const LISTED: i64 = 20;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/classes/{id}/simuls", get(list).post(create))
        .route("/api/simuls/{id}", get(view))
        .route("/api/simuls/{id}/boards/{board}/restart", post(restart))
}

// ---------------------------------------------------------------- refusals

/// `404 simul_not_found`: no such simul, or the asker is not in its class.
fn simul_not_found() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "simul_not_found",
        "no existe esa simultánea (o no eres de su clase)",
        "no such simul (or you are not in its class)",
    )
}

fn board_not_found(board: u32) -> ApiError {
    ApiError(
        Kind::NotFound,
        "board_not_found",
        format!("la simultánea no tiene tablero {board}"),
        format!("the simul has no board {board}"),
    )
}

fn pupil_not_found(name: &str) -> ApiError {
    ApiError(
        Kind::NotFound,
        "pupil_not_found",
        format!("«{name}» no es un alumno de esta clase"),
        format!("\"{name}\" is not a pupil of this class"),
    )
}

fn board_in_play(board: u32) -> ApiError {
    ApiError(
        Kind::Conflict,
        "board_in_play",
        format!("la partida del tablero {board} aún se está jugando"),
        format!("the game on board {board} is still being played"),
    )
}

// ---------------------------------------------------------------- create

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CreateSimul {
    /// The pupils' account names, one board each, in board order.
    pupils: Vec<String>,
    /// The clock of every board (`15+10`); absent or null: no clock.
    #[serde(default)]
    time_control: Option<String>,
    /// `white` (default), `black` or `random` (drawn per board).
    #[serde(default)]
    host_color: Option<String>,
}

/// The pupils named, as the class's active pupils, each once, in the order
/// given.
fn pick_pupils(active: &[PupilRow], names: &[String]) -> Result<Vec<PupilRow>, ApiError> {
    if names.is_empty() || names.len() > MAX_BOARDS {
        return Err(ApiError::bad(
            "bad_simul_size",
            format!(
                "una simultánea se juega contra 1 a {MAX_BOARDS} alumnos (se pidieron {})",
                names.len()
            ),
            format!(
                "a simul is played against 1 to {MAX_BOARDS} pupils ({} asked for)",
                names.len()
            ),
        ));
    }
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        let key = skeleton(name.trim());
        let Some(p) = active.iter().find(|p| skeleton(&p.name) == key) else {
            return Err(pupil_not_found(name));
        };
        if !seen.insert(p.user_id.clone()) {
            return Err(ApiError::bad(
                "duplicate_pupil",
                format!("«{}» está dos veces: un tablero por alumno", p.name),
                format!("\"{}\" is there twice: one board per pupil", p.name),
            ));
        }
        out.push(p.clone());
    }
    Ok(out)
}

/// A board's new game: the host, on the colour asked (`random`: drawn
/// for this board), against the pupil, casual, in the class. Returns the
/// game and the host's colour.
fn board_game(
    class_id: &str,
    host: Seat,
    pupil: &PupilRow,
    host_color: ColorChoice,
    tc: Option<TimeControl>,
) -> Result<(NewGame, Color), ApiError> {
    let pupil = Seat::Person {
        owner: format!("u:{}", pupil.user_id),
        name: pupil.name.clone(),
    };
    let settings = Settings::casual(tc, Some(class_id.to_string()));
    Ok(games::build(
        &GameSpec::standard(host_color),
        host,
        pupil,
        settings,
    )?)
}

/// The host's colour a simul was created with (as stored: `white`,
/// `black` or `random`).
fn stored_host_color(simul: &SimulRow) -> ColorChoice {
    ColorChoice::read(Some(&simul.host_color), ColorChoice::White).unwrap_or(ColorChoice::White)
}

/// Tells the pupil of a board's new game privately, on the lobby socket
/// (every page of the pupil's follows it there).
fn tell_pupil(
    hub: &Hub,
    simul: &SimulRow,
    board: u32,
    pupil_id: &str,
    game: &str,
    color: Color,
    secret: &str,
) {
    let msg = YourGame {
        class: Some(simul.class_id.clone()),
        simul: Some(simul.id.clone()),
        board: Some(board),
        ..YourGame::new(game, color_id(color), secret)
    };
    hub.lobby
        .tell_owner(&format!("u:{pupil_id}"), Arc::from(msg.to_text()));
}

/// `POST /api/classes/{id}/simuls`.
pub(super) async fn create(
    State(hub): State<Arc<Hub>>,
    Teaching { me, class }: Teaching,
    body: AppJson<CreateSimul>,
) -> ApiResult {
    let req = body.read()?;
    let host_color = ColorChoice::read(req.host_color.as_deref(), ColorChoice::White)?;
    let tc = parse_tc(req.time_control.as_deref())?;
    let active = hub.store.class_pupils(&class.id, false).await?;
    let pupils = pick_pupils(&active, &req.pupils)?;
    let host_id = classes::user_id(&me)
        .ok_or_else(ApiError::internal)?
        .to_string();
    let simul = SimulRow {
        id: new_id(),
        class_id: class.id.clone(),
        host_id,
        host_name: me.name.clone(),
        time_control: tc.as_ref().map(|t| t.to_string()),
        host_color: host_color.id().to_string(),
        created_ms: now_ms(),
    };
    let mut rows = Vec::with_capacity(pupils.len());
    let mut boards = Vec::with_capacity(pupils.len());
    for (i, p) in pupils.iter().enumerate() {
        let board = i as u32 + 1;
        let (game, color) = board_game(&class.id, me.seat(), p, host_color, tc.clone())?;
        let (row, created) = Hub::prepare_game(game);
        boards.push((board, p.clone(), color, created));
        rows.push((board, p.user_id.clone(), row));
    }
    hub.store.insert_simul(&simul, &rows).await?;
    for (_, _, row) in rows {
        hub.launch(row).await;
    }
    let mut out = Vec::with_capacity(boards.len());
    for (board, p, color, created) in &boards {
        let host_secret = created.secret(*color).unwrap_or_default();
        let pupil_secret = created.secret(color.other()).unwrap_or_default();
        tell_pupil(
            &hub,
            &simul,
            *board,
            &p.user_id,
            &created.game,
            color.other(),
            pupil_secret,
        );
        out.push(wire::NewBoard {
            board: *board,
            pupil: p.name.clone(),
            game: created.game.clone(),
            color: color_id(*color),
            secret: host_secret.to_string(),
            ws: format!("/ws/games/{}?seat={host_secret}", created.game),
        });
    }
    Ok((
        StatusCode::CREATED,
        Json(wire::SimulCreated {
            url: format!("/simul/{}", simul.id),
            id: simul.id,
            boards: out,
        }),
    )
        .into_response())
}

// ---------------------------------------------------------------- view

/// The simul `id` and the asker's role in its class: `404 simul_not_found`
/// for anybody outside the class.
async fn simul_for(hub: &Hub, me: &Identity, id: &str) -> Result<(SimulRow, Role), ApiError> {
    let simul = hub.store.simul(id).await?.ok_or_else(simul_not_found)?;
    match classes::role(&hub.store, me, &simul.class_id).await? {
        Role::Outsider => Err(simul_not_found()),
        r => Ok((simul, r)),
    }
}

/// The host's colour on a board's game.
fn host_color_of(simul: &SimulRow, g: &SimulGameRow) -> Color {
    if g.white_owner.as_deref() == Some(format!("u:{}", simul.host_id).as_str()) {
        Color::White
    } else {
        Color::Black
    }
}

/// What a finished game scored for the host: 1, ½ or 0; `None` for a game
/// not over or over without a score (aborted).
fn host_points(simul: &SimulRow, g: &SimulGameRow) -> Option<f64> {
    if g.status != "over" {
        return None;
    }
    let result = g.end?.result?;
    Some(match result.winner() {
        None => 0.5,
        Some(c) if c == host_color_of(simul, g) => 1.0,
        Some(_) => 0.0,
    })
}

/// Each board's games, oldest first.
fn by_board(games: Vec<SimulGameRow>) -> BTreeMap<u32, Vec<SimulGameRow>> {
    let mut m: BTreeMap<u32, Vec<SimulGameRow>> = BTreeMap::new();
    for g in games {
        m.entry(g.board).or_default().push(g);
    }
    m
}

/// The state of a game as its actor gives it (`None` if it cannot be
/// loaded).
async fn snapshot(hub: &Arc<Hub>, game: &str) -> Option<Value> {
    let tx = hub.game(game).await?;
    let (rtx, rrx) = oneshot::channel();
    tx.send(Cmd::Snapshot { reply: rtx }).await.ok()?;
    rrx.await.ok()
}

/// `GET /api/simuls/{id}`.
pub(super) async fn view(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let Path(id) = path?;
    let (simul, role) = simul_for(&hub, &me, &id).await?;
    let boards = by_board(hub.store.simul_games(&simul.id).await?);
    // The score: each board's latest game that ended with a score.
    let (mut host, mut pupils) = (0.0, 0.0);
    for games in boards.values() {
        if let Some(p) = games.iter().rev().find_map(|g| host_points(&simul, g)) {
            host += p;
            pupils += 1.0 - p;
        }
    }
    let current: Vec<&SimulGameRow> = boards.values().filter_map(|g| g.last()).collect();
    let states =
        futures_util::future::join_all(current.iter().map(|g| snapshot(&hub, &g.game_id))).await;
    let me_id = classes::user_id(&me).unwrap_or_default();
    let mut your_board = None;
    let mut out = Vec::with_capacity(current.len());
    for (g, st) in current.iter().zip(states) {
        let st = st.unwrap_or(Value::Null);
        let host_color = host_color_of(&simul, g);
        let status = st["status"]
            .as_str()
            .unwrap_or(g.status.as_str())
            .to_string();
        let to_move = (status == "playing").then(|| {
            if st["turn"] == color_id(host_color) {
                "host"
            } else {
                "pupil"
            }
        });
        if role == Role::Pupil && g.pupil_id == me_id {
            your_board = Some(g.board);
        }
        let end = g.end.filter(|_| g.status == "over");
        let text = |v: &Value| v.as_str().map(str::to_string);
        out.push(wire::GridBoard {
            board: g.board,
            pupil: g.pupil_name.clone(),
            game: g.game_id.clone(),
            attempt: g.attempt,
            status,
            result: text(&st["result"]).or(end.map(|e| e.result_pgn().to_string())),
            termination: text(&st["termination"]).or(end.map(|e| e.termination.id().to_string())),
            host_color: color_id(host_color),
            to_move,
            fen: text(&st["fen"]),
            last_move: text(&st["last_move"]["uci"]),
            plies: st["plies"].as_u64(),
            clock: st["clock"].clone(),
        });
    }
    let you = match role {
        Role::Teacher if me_id == simul.host_id => "host",
        Role::Teacher => "teacher",
        _ => "pupil",
    };
    Ok(Json(wire::Grid {
        id: simul.id,
        class: simul.class_id,
        host: simul.host_name,
        time_control: simul.time_control,
        host_color: simul.host_color,
        created_ms: simul.created_ms,
        you,
        your_board,
        boards: out,
        score: wire::Score { host, pupils },
    })
    .into_response())
}

// ---------------------------------------------------------------- restart

/// `POST /api/simuls/{id}/boards/{board}/restart`.
pub(super) async fn restart(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    path: Result<Path<(String, u32)>, PathRejection>,
) -> ApiResult {
    let Path((id, board)) = path?;
    let (simul, role) = simul_for(&hub, &me, &id).await?;
    if role != Role::Teacher {
        return Err(classes::teachers_only());
    }
    let games = hub.store.simul_games(&simul.id).await?;
    let Some(last) = games
        .iter()
        .filter(|g| g.board == board)
        .max_by_key(|g| g.attempt)
    else {
        return Err(board_not_found(board));
    };
    if last.status != "over" {
        return Err(board_in_play(board));
    }
    let active = hub.store.class_pupils(&simul.class_id, false).await?;
    let Some(pupil) = active.iter().find(|p| p.user_id == last.pupil_id) else {
        return Err(ApiError(
            Kind::Conflict,
            "pupil_not_in_class",
            format!("{} ya no es alumno de la clase", last.pupil_name),
            format!("{} is no longer a pupil of the class", last.pupil_name),
        ));
    };
    let tc = match &simul.time_control {
        None => None,
        Some(t) => Some(TimeControl::parse(t).map_err(|_| ApiError::internal())?),
    };
    let host = Seat::Person {
        owner: format!("u:{}", simul.host_id),
        name: simul.host_name.clone(),
    };
    let (game, color) = board_game(&simul.class_id, host, pupil, stored_host_color(&simul), tc)?;
    let (row, created) = Hub::prepare_game(game);
    let attempt = last.attempt + 1;
    if !hub
        .store
        .insert_simul_attempt(&simul.id, board, attempt, &pupil.user_id, &row)
        .await?
    {
        // Another teacher restarted the board first.
        return Err(board_in_play(board));
    }
    hub.launch(row).await;
    tell_pupil(
        &hub,
        &simul,
        board,
        &pupil.user_id,
        &created.game,
        color.other(),
        created.secret(color.other()).unwrap_or_default(),
    );
    // The host's seat secret goes to the host only; a co-teacher who
    // restarts a board sees the game, and the host's page takes its seat
    // back with `POST /api/games/{id}/seat`.
    let is_host = classes::user_id(&me) == Some(simul.host_id.as_str());
    let secret = created.secret(color).filter(|_| is_host);
    Ok((
        StatusCode::CREATED,
        Json(wire::Restarted {
            board,
            ws: secret.map(|s| format!("/ws/games/{}?seat={s}", created.game)),
            secret: secret.map(str::to_string),
            game: created.game.clone(),
            attempt,
            color: color_id(color),
        }),
    )
        .into_response())
}

// ---------------------------------------------------------------- list

/// `GET /api/classes/{id}/simuls`.
pub(super) async fn list(State(hub): State<Arc<Hub>>, Member { class, .. }: Member) -> ApiResult {
    let mut simuls = Vec::new();
    for s in hub.store.class_simuls(&class.id, LISTED).await? {
        let boards = by_board(hub.store.simul_games(&s.id).await?);
        let in_play = boards
            .values()
            .filter(|g| g.last().is_some_and(|g| g.status != "over"))
            .count();
        simuls.push(wire::SimulItem {
            boards: boards.len(),
            id: s.id,
            host: s.host_name,
            time_control: s.time_control,
            host_color: s.host_color,
            created_ms: s.created_ms,
            in_play,
        });
    }
    let pupils: Vec<wire::PupilOnline> = hub
        .store
        .class_pupils(&class.id, false)
        .await?
        .iter()
        .map(|p| wire::PupilOnline {
            name: p.name.clone(),
            online: hub.presence.online(&format!("u:{}", p.user_id)),
        })
        .collect();
    Ok(Json(wire::SimulList { simuls, pupils }).into_response())
}
