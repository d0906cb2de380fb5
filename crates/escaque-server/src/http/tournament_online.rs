//! The online tournament routes (issue 24; `docs/protocol.md`,
//! "Tournaments", "Online"): a player's own entry (join, leave, roll call)
//! and the organiser's added time on a board.

use std::sync::Arc;
use std::time::Duration;

use crate::proto::tournaments::{self as wire, JoinBody};
use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Json;
use escaque::Color;
use escaque_torneo::Player;
use serde::Deserialize;
use tokio::sync::oneshot;

use super::extract::Organising;
use super::{ApiError, ApiResult, AppJson, Identity};
use crate::actor::Cmd;
use crate::store::PlayerLink;
use crate::tournament::{self, online, Loaded, Who};
use crate::Hub;

/// The longest guest name a player may join with, in characters: a
/// player's name in the tournament's TRF (columns 15–47).
const MAX_NAME: usize = escaque_torneo::domain::NAME_CHARS;
/// The most time the organiser may add at once, seconds.
const MAX_ADDED_S: u32 = 3600;

fn not_online() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "not_online",
        "este torneo se juega sobre el tablero, no en línea",
        "this tournament is played over the board, not online",
    )
}

fn registration_closed() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "registration_closed",
        "la inscripción de este torneo está cerrada",
        "registration for this tournament is closed",
    )
}

fn not_entered() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "not_entered",
        "no estás inscrito en este torneo",
        "you are not entered in this tournament",
    )
}

fn roll_call_over() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "roll_call_over",
        "el pase de lista terminó: la primera ronda ya está emparejada",
        "the roll call is over: round 1 is already paired",
    )
}

fn no_game() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no_such_board",
        "no hay partida en ese tablero",
        "there is no game on that board",
    )
}

fn online_only(l: &Loaded) -> Result<(), ApiError> {
    if l.row.mode == "online" {
        Ok(())
    } else {
        Err(not_online())
    }
}

/// The name a player joins with: an account's own, or the guest's choice
/// (trimmed, 1 to 40 characters, no control characters), or the guest's
/// current name.
fn join_name(me: &Identity, asked: Option<&str>) -> Result<String, ApiError> {
    if me.account {
        return Ok(me.name.clone());
    }
    let name = asked.map(str::trim).unwrap_or(me.name.as_str()).to_string();
    let n = name.chars().count();
    if n == 0 || n > MAX_NAME || name.chars().any(char::is_control) {
        return Err(ApiError::bad(
            "bad_name",
            format!("el nombre debe tener de 1 a {MAX_NAME} caracteres, sin caracteres de control"),
            format!("the name must have 1 to {MAX_NAME} characters, no control characters"),
        ));
    }
    Ok(name)
}

/// `POST /api/tournaments/{id}/join` `{name?}` → `{number}`: the asking
/// identity enters the tournament (again: its number). Before round 1 the
/// new player is not paired in round 1 until they answer the roll call
/// (`present`); a late joiner gets the half-point bye (or zero, by
/// `late_bye`) for every round already paired.
pub(super) async fn join(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
    body: Result<Json<JoinBody>, JsonRejection>,
) -> ApiResult {
    let Path(id) = id?;
    // No body (or not JSON at all): the guest's own name.
    let body = match body {
        Ok(Json(b)) => b,
        Err(JsonRejection::MissingJsonContentType(_)) => JoinBody::default(),
        Err(e) => return Err(e.into()),
    };
    let name = join_name(&me, body.name.as_deref())?;
    // A class's tournament is its class's; a pupil plays only its own.
    let row = hub
        .store
        .tournament(&id)
        .await?
        .ok_or_else(tournament::not_found)?;
    super::class_events::may_join(&hub, &me, &row).await?;
    let number = tournament::change(&hub, &id, &Who::Server, |l| {
        online_only(l)?;
        if let Some(n) = l.number_of(&me.key) {
            return Ok(n);
        }
        if !online::registration_open(l) {
            return Err(registration_closed());
        }
        let before_round_1 = l.t.rounds.is_empty();
        let n =
            l.t.add_player(Player::new(&name))
                .map_err(tournament::refused)?;
        if before_round_1 {
            // The roll call: not paired in round 1 until present.
            if let Some(p) = l.t.players.get_mut(n as usize - 1) {
                p.absences.insert(1);
            }
        }
        online::late_byes(l, n);
        l.players.retain(|p| p.number != n);
        l.players.push(PlayerLink {
            number: n,
            owner: Some(me.key.clone()),
            present: false,
        });
        l.players.sort_by_key(|p| p.number);
        Ok(n)
    })
    .await?;
    Ok(Json(wire::Number { number }).into_response())
}

/// A change the asking player makes to their own entry of an online
/// tournament (refused unless the event is online and they entered it):
/// `f` gets their start number, which is returned.
async fn own_entry(
    hub: &Arc<Hub>,
    id: &str,
    me: &Identity,
    mut f: impl FnMut(&mut Loaded, u32) -> Result<(), ApiError>,
) -> Result<u32, ApiError> {
    tournament::change(hub, id, &Who::Server, |l| {
        online_only(l)?;
        let n = l.number_of(&me.key).ok_or_else(not_entered)?;
        f(l, n)?;
        Ok(n)
    })
    .await
}

/// `POST /api/tournaments/{id}/leave`: the asking player is withdrawn from
/// the next round on (a game being played goes on; it may be resigned).
pub(super) async fn leave(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let Path(id) = id?;
    let number = own_entry(&hub, &id, &me, |l, n| {
        let next = l.t.rounds.len() as u32 + 1;
        l.t.withdraw(n, next).map_err(tournament::refused)
    })
    .await?;
    Ok(Json(wire::Number { number }).into_response())
}

/// `POST /api/tournaments/{id}/present`: the roll call before round 1 — the
/// asking player will be paired in round 1.
pub(super) async fn present(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let Path(id) = id?;
    let number = own_entry(&hub, &id, &me, |l, n| {
        if !l.t.rounds.is_empty() {
            return Err(roll_call_over());
        }
        if let Some(p) = l.t.players.get_mut(n as usize - 1) {
            p.absences.remove(&1);
        }
        if let Some(p) = l.players.iter_mut().find(|p| p.number == n) {
            p.present = true;
        }
        Ok(())
    })
    .await?;
    Ok(Json(wire::Present {
        number,
        present: true,
    })
    .into_response())
}

/// The body of `time`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TimeBody {
    seconds: u32,
    color: String,
}

/// The game on `board` of `round` of `l`, an online tournament (the
/// asker's right is the route's [`Organising`] guard).
async fn board_game(
    hub: &Arc<Hub>,
    l: &Loaded,
    round: u32,
    board: u32,
) -> Result<String, ApiError> {
    online_only(l)?;
    let games = hub.store.tournament_games(&l.row.id).await?;
    games
        .into_iter()
        .find(|g| g.round == round && g.board == board)
        .map(|g| g.game)
        .ok_or_else(no_game)
}

/// `POST /api/tournaments/{id}/rounds/{r}/boards/{b}/time` `{seconds,
/// color}`: the organiser gives a side of a game being played more time
/// (anybody else: `403 not_organiser` before anything else).
pub(super) async fn add_time(
    State(hub): State<Arc<Hub>>,
    Organising { loaded, .. }: Organising,
    path: Result<Path<(String, u32, u32)>, PathRejection>,
    body: AppJson<TimeBody>,
) -> ApiResult {
    let Path((_, round, board)) = path?;
    let body = body.read()?;
    let color = match body.color.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        other => {
            return Err(ApiError::bad(
                "bad_color",
                format!("«color» debe ser «white» o «black», no {other:?}"),
                format!("\"color\" must be \"white\" or \"black\", not {other:?}"),
            ))
        }
    };
    if body.seconds == 0 || body.seconds > MAX_ADDED_S {
        return Err(ApiError::bad(
            "bad_seconds",
            format!("«seconds» debe ir de 1 a {MAX_ADDED_S}"),
            format!("\"seconds\" must be 1 to {MAX_ADDED_S}"),
        ));
    }
    let game = board_game(&hub, &loaded, round, board).await?;
    let tx = hub.game(&game).await.ok_or_else(no_game)?;
    let (reply, answer) = oneshot::channel();
    tx.send(Cmd::AddTime {
        color,
        time: Duration::from_secs(body.seconds.into()),
        reply,
    })
    .await
    .map_err(|_| no_game())?;
    answer.await.map_err(|_| no_game())??;
    Ok(Json(wire::TimeAdded {
        game,
        color: body.color,
        seconds: body.seconds,
    })
    .into_response())
}
