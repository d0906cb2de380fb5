//! Online team play (issue 59): the routes over [`crate::equipos::online`].
//! Every refusal is in docs/protocol.md, "Team tournaments", "Online team
//! play".
//!
//! * `POST /api/equipos/{id}/en-linea` (organiser, before round 1): the
//!   tournament is played online, with this clock.
//! * `GET /api/equipos/{id}/partidas`: every board's game.
//! * `GET /api/equipos/{id}/mi-tablero`: the asking account's board.
//! * `GET /equipos/{id}/partidas`: the round's boards as a page, each a link
//!   to its game, the asker's own marked, each game being played drawn as
//!   its position now with the move count and the clocks (its task's
//!   snapshot); it reloads itself while games are played.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use escaque_torneo::html::escape;
use serde_json::Value;
use tokio::sync::oneshot;

use super::{ApiError, ApiResult, AppJson, Identity};
use crate::actor::Cmd;
use crate::equipos::online as domain;
use crate::proto::equipos_online as wire;
use crate::Hub;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/equipos/{id}/en-linea", post(set_online))
        .route("/api/equipos/{id}/partidas", get(games))
        .route("/api/equipos/{id}/mi-tablero", get(my_board))
        .route("/equipos/{id}/partidas", get(games_page))
}

async fn set_online(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    p: Result<Path<String>, PathRejection>,
    body: AppJson<wire::OnlineOptions>,
) -> ApiResult {
    let Path(id) = p?;
    let req = body.read()?;
    Ok(Json(domain::set_online(&hub, &id, &me, &req).await?).into_response())
}

async fn games(State(hub): State<Arc<Hub>>, p: Result<Path<String>, PathRejection>) -> ApiResult {
    let Path(id) = p?;
    Ok(Json(domain::games(&hub, &id).await?.1).into_response())
}

async fn my_board(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    p: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let Path(id) = p?;
    Ok(Json(domain::my_board(&hub, &id, &me).await?).into_response())
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:0;padding:1rem;color:#222}\
table{border-collapse:collapse;width:100%;max-width:48rem}\
td,th{border-bottom:1px solid #ccc;padding:.4rem;text-align:left}\
tr.mine{background:#fff3c4;font-weight:600}.vivo{color:#0a6}\
table.tablero{width:auto;border:1px solid #888;font-size:1.1rem;line-height:1}\
table.tablero td{border:0;padding:0;width:1.3rem;height:1.3rem;text-align:center}\
table.tablero td.o{background:#b58863}table.tablero td.c{background:#f0d9b5}";

/// How long a game's task is given to answer for the page.
const ANSWER_WITHIN: Duration = Duration::from_millis(500);

/// The state of game `game` as its task has it now (`None`: no answer).
async fn snapshot(hub: &Arc<Hub>, game: &str) -> Option<Value> {
    let tx = hub.game(game).await?;
    let (reply, answer) = oneshot::channel();
    tx.send(Cmd::Snapshot { reply }).await.ok()?;
    tokio::time::timeout(ANSWER_WITHIN, answer).await.ok()?.ok()
}

/// The placement of a FEN as a small board, White at the bottom
/// (`table.tablero[data-fen]`).
fn board_html(fen: &str) -> String {
    let mut out = format!("<table class=\"tablero\" data-fen=\"{}\">", escape(fen));
    let placement = fen.split(' ').next().unwrap_or("");
    for (r, rank) in placement.split('/').take(8).enumerate() {
        out.push_str("<tr>");
        let mut file = 0;
        for c in rank.chars() {
            let (n, glyph) = match c {
                '1'..='8' => (c as usize - '0' as usize, None),
                _ => (1, Some(c)),
            };
            for _ in 0..n {
                if file >= 8 {
                    break;
                }
                let dark = (r + file) % 2 == 1;
                let g = glyph.map(piece).unwrap_or("");
                let _ = write!(
                    out,
                    "<td class=\"{}\">{g}</td>",
                    if dark { "o" } else { "c" }
                );
                file += 1;
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

fn piece(c: char) -> &'static str {
    match c {
        'K' => "♔",
        'Q' => "♕",
        'R' => "♖",
        'B' => "♗",
        'N' => "♘",
        'P' => "♙",
        'k' => "♚",
        'q' => "♛",
        'r' => "♜",
        'b' => "♝",
        'n' => "♞",
        'p' => "♟",
        _ => "",
    }
}

/// `m:ss` of a clock in milliseconds.
fn clock_text(ms: u64) -> String {
    let s = ms / 1000;
    format!("{}:{:02}", s / 60, s % 60)
}

fn page(status: StatusCode, title: &str, body: &str, reload: bool) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"es\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">{}\
         <title>{}</title><style>{STYLE}</style></head><body>{body}</body></html>\n",
        if reload {
            "<meta http-equiv=\"refresh\" content=\"10\">"
        } else {
            ""
        },
        escape(title),
    );
    (
        status,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
            ),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        html,
    )
        .into_response()
}

fn page_error(e: &ApiError) -> Response {
    page(
        e.status(),
        "Error",
        &format!(
            "<main><h1>Error</h1><p id=\"error\" data-code=\"{}\">{}</p></main>",
            e.code(),
            escape(&e.2)
        ),
        false,
    )
}

/// `GET /equipos/{id}/partidas`: the round being played, one row a board
/// (`tr[data-table][data-board][data-game]`, `.mine` the asker's), each a
/// link to its game; reloads every 10 s while a game is played.
async fn games_page(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    p: Result<Path<String>, PathRejection>,
) -> Response {
    let Ok(Path(id)) = p else {
        return page_error(&ApiError::no_route());
    };
    let (l, all) = match domain::games(&hub, &id).await {
        Ok(x) => x,
        Err(e) => return page_error(&e),
    };
    let round = l.t.rounds.len() as u32;
    let mut rows = String::new();
    let mut live = false;
    for g in all.games.iter().filter(|g| g.round == round) {
        let mine = match hub.store.game(&g.game).await {
            Ok(Some(r)) => [r.white_owner, r.black_owner]
                .iter()
                .any(|o| o.as_deref() == Some(me.key.as_str())),
            _ => false,
        };
        live |= g.playing;
        let now = if g.playing {
            snapshot(&hub, &g.game).await
        } else {
            None
        };
        let state = match (&g.result, g.playing, &now) {
            (Some(r), _, _) => escape(r),
            (None, true, Some(st)) => {
                let clocks = match (
                    st["clock"]["white_ms"].as_u64(),
                    st["clock"]["black_ms"].as_u64(),
                ) {
                    (Some(w), Some(b)) => format!(" · {} – {}", clock_text(w), clock_text(b)),
                    _ => String::new(),
                };
                format!(
                    "<span class=\"vivo\">en juego</span> · {} jugadas{clocks}{}",
                    st["plies"].as_u64().unwrap_or(0),
                    board_html(st["fen"].as_str().unwrap_or(""))
                )
            }
            (None, true, None) => "<span class=\"vivo\">en juego</span>".to_string(),
            (None, false, _) => "—".to_string(),
        };
        let _ = write!(
            rows,
            "<tr data-table=\"{t}\" data-board=\"{b}\" data-game=\"{gid}\"{cls}>\
             <td>{t}.{b}</td><td>{w} <small>({wt})</small></td><td>{bl} <small>({bt})</small></td>\
             <td>{state}</td><td><a href=\"/partida/{gid}\">{link}</a></td></tr>",
            t = g.table,
            b = g.board,
            gid = escape(&g.game),
            cls = if mine { " class=\"mine\"" } else { "" },
            w = escape(&g.white),
            wt = escape(&g.white_team),
            bl = escape(&g.black),
            bt = escape(&g.black_team),
            link = if mine { "Jugar mi partida" } else { "Ver" },
        );
    }
    let body = format!(
        "<main id=\"partidas\" data-tournament=\"{id}\" data-round=\"{round}\">\
         <h1>{name}</h1><p>Ronda {round} · ritmo {tc}</p>\
         <table><thead><tr><th>Encuentro.tablero</th><th>Blancas</th><th>Negras</th>\
         <th>Resultado</th><th></th></tr></thead><tbody>{rows}</tbody></table></main>",
        id = escape(&id),
        name = escape(&l.t.name),
        tc = escape(&all.time_control),
    );
    page(StatusCode::OK, &l.t.name, &body, live)
}
