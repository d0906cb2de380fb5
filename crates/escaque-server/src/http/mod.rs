//! HTTP routes: the small JSON API (games, seeks,
//! accounts, PGN), and the WebSocket endpoints of a game and of the lobby.
//!
//! Cookies: `escaque_invitado` (a guest identity, 128 random bits chosen and
//! signed by the server: [`guest`]) and `escaque_sesion` (an account
//! session), both `HttpOnly; SameSite=Strict`. State-changing requests
//! (`POST`, `DELETE`) and every WebSocket upgrade must be same-origin: an
//! `Origin` header that names another host, or `Sec-Fetch-Site: cross-site`,
//! is refused; bodies must be `application/json` (a cross-site form cannot
//! send that without the browser asking first).
//!
//! One file per resource: `games.rs`, `seeks.rs`, `accounts.rs` (with the
//! names rule in `names.rs`), [`live`] (games in progress), and `ws.rs` for
//! the WebSocket endpoints; `internal.rs` the routes between the processes
//! of one database (`/interno/…`, behind their shared secret). `error.rs` holds [`ApiError`], the one error of
//! every route; `extract.rs` the extractors every route may ask for:
//! [`Identity`] (set by the guard layer from the cookies) and [`Limited`] (a
//! token of the per-address rate limit).

mod accounts;
mod analysis;
mod aprender;
mod class_cards;
mod class_events;
mod classes;
mod equipos;
mod equipos_online;
mod error;
mod extract;
mod fide;
mod games;
pub mod guest;
mod health;
pub(crate) mod internal;
pub mod live;
mod players;
mod problemas;
mod resultados;
mod seeks;
mod simuls;
mod tareas;
mod tournament_online;
mod tournaments;
mod ws;

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::presence::PresenceView;
use crate::{hash_secret, new_secret, Hub};

pub use crate::error::ApiError;
pub use crate::identity::Identity;
/// The names rule (`crate::names`), as the handlers name it.
pub(crate) use crate::names;
pub use accounts::{hash_password, verify_password};
pub use extract::{AppJson, Limited};
pub use ws::small_buffers;

const GUEST_COOKIE: &str = "escaque_invitado";
const SESSION_COOKIE: &str = "escaque_sesion";

/// The routes.
pub fn router(hub: Arc<Hub>) -> Router {
    // The unknown names' hash is made now, not in the first such login.
    tokio::task::spawn_blocking(|| {
        accounts::dummy_hash();
    });
    Router::new()
        .route("/api/games", post(games::create_game))
        .route("/api/games/live", get(live::list))
        .route("/api/games/{id}", get(games::game_state))
        .route("/api/games/{id}/join", post(games::join_game))
        .route("/api/games/{id}/seat", post(games::reclaim_seat))
        .route("/api/games/{id}/pgn", get(games::game_pgn))
        .route("/api/me", get(games::me))
        .route("/api/me/games", get(games::my_games))
        .route(
            "/api/seeks",
            get(seeks::list_seeks).post(seeks::create_seek),
        )
        .route("/api/seeks/{id}/accept", post(seeks::accept_seek))
        .route(
            "/api/seeks/{id}",
            axum::routing::delete(seeks::withdraw_seek),
        )
        .route("/api/signup", post(accounts::signup))
        .route("/api/login", post(accounts::login))
        .route("/api/logout", post(accounts::logout))
        .route(
            "/api/tournaments",
            get(tournaments::list).post(tournaments::create),
        )
        .route("/api/tournaments/import", post(tournaments::import))
        .route("/api/tournaments/{id}", get(tournaments::get_view))
        .route(
            "/api/tournaments/{id}/players",
            post(tournaments::add_player),
        )
        .route(
            "/api/tournaments/{id}/players/import",
            post(tournaments::import_players),
        )
        .route(
            "/api/tournaments/{id}/players/{n}",
            post(tournaments::edit_player),
        )
        .route(
            "/api/tournaments/{id}/players/{n}/withdraw",
            post(tournaments::withdraw),
        )
        .route(
            "/api/tournaments/{id}/players/{n}/bye",
            post(tournaments::bye),
        )
        .route("/api/tournaments/{id}/forbidden", post(tournaments::forbid))
        .route(
            "/api/tournaments/{id}/organisers",
            post(tournaments::add_organiser),
        )
        .route("/api/tournaments/{id}/rounds", post(tournaments::pair))
        .route("/api/tournaments/{id}/fide", get(fide::state))
        .route("/api/tournaments/{id}/fide/leave", post(fide::leave))
        .route("/api/tournaments/{id}/manual-pairing", post(fide::manual))
        .route(
            "/api/tournaments/{id}/rounds/{r}/boards/{b}/result",
            post(tournaments::set_result),
        )
        .route(
            "/api/tournaments/{id}/tiebreak-rules",
            get(tournaments::get_tiebreak_rules).post(tournaments::set_tiebreak_rules),
        )
        .route(
            "/api/tournaments/{id}/players/{n}/tiebreaks",
            get(tournaments::explain_tiebreaks),
        )
        .route("/api/tournaments/{id}/trf", get(tournaments::get_trf))
        .route("/api/tournaments/{id}/pgn", get(tournaments::get_pgn))
        .route(
            "/api/tournaments/{id}/rounds/{r}/print",
            get(tournaments::print_round),
        )
        .route(
            "/api/tournaments/{id}/print/{page}",
            get(tournaments::print_page),
        )
        .route(
            "/api/tournaments/{id}/rounds/{r}/pdf",
            get(tournaments::round_pdf),
        )
        .route(
            "/api/tournaments/{id}/pdf/standings",
            get(tournaments::standings_pdf),
        )
        .route("/ws/tournaments/{id}", get(tournaments::ws))
        .route("/ws/games/{id}", get(ws::ws_game))
        .route("/ws/lobby", get(ws::ws_lobby))
        .route("/api/tournaments/{id}/join", post(tournament_online::join))
        .route(
            "/api/tournaments/{id}/leave",
            post(tournament_online::leave),
        )
        .route(
            "/api/tournaments/{id}/present",
            post(tournament_online::present),
        )
        .route(
            "/api/tournaments/{id}/rounds/{round}/boards/{board}/time",
            post(tournament_online::add_time),
        )
        // A player's page (issue 25).
        .route("/api/players/{name}", get(players::player))
        .route("/api/players/{name}/vs/{other}", get(players::head_to_head))
        // Classes (issue 26): each file's routes.
        .merge(classes::routes())
        .merge(simuls::routes())
        .merge(class_events::routes())
        .merge(class_cards::routes())
        .merge(analysis::routes())
        // Tareas: homework (issue 57).
        .merge(tareas::routes())
        // Results entered by the players from a QR code (issue 59).
        .merge(resultados::routes())
        // Team tournaments (issue 59, teams).
        .merge(equipos::routes())
        // Online team play (issue 59).
        .merge(equipos_online::routes())
        // Problemas: the puzzle trainer (issue 56).
        .merge(problemas::routes())
        // Aprende a jugar (issue 55).
        .merge(aprender::routes())
        .fallback(|| async { ApiError::no_route() })
        .layer(middleware::from_fn_with_state(Arc::clone(&hub), guard))
        // Between processes only (issue 28), outside the guard: no cookies.
        .merge(internal::routes(Arc::clone(&hub)))
        // Outside the guard: a health check sets no cookie, counts nobody.
        .route("/salud", get(health::health))
        .route("/health", get(health::health))
        .with_state(hub)
}

pub(crate) type ApiResult = Result<Response, ApiError>;

// ---------------------------------------------------------------- guard

fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

fn valid_token(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

fn set_cookie(name: &str, value: &str, max_age: Option<u64>) -> HeaderValue {
    let age = max_age
        .map(|a| format!("; Max-Age={a}"))
        .unwrap_or_default();
    HeaderValue::from_str(&format!(
        "{name}={value}; Path=/; HttpOnly; SameSite=Strict{age}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// An `Origin` naming another host, or `Sec-Fetch-Site: cross-site`.
fn cross_site(headers: &HeaderMap) -> bool {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let other_origin = headers.get(header::ORIGIN).is_some_and(|origin| {
        let o = origin.to_str().unwrap_or("");
        o.split_once("://").map(|(_, h)| h).unwrap_or("") != host
    });
    other_origin
        || headers
            .get("sec-fetch-site")
            .is_some_and(|v| v.as_bytes() == b"cross-site")
}

/// A WebSocket upgrade (or a request for a `/ws/` endpoint): a browser
/// opens it from any page, with the cookies, so it is checked like a `POST`.
fn websocket(req: &Request) -> bool {
    req.uri().path().starts_with("/ws/")
        || req
            .headers()
            .get(header::UPGRADE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// Cross-site protection and the guest cookie.
async fn guard(State(hub): State<Arc<Hub>>, mut req: Request, next: Next) -> Response {
    let headers = req.headers();
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if (changes || websocket(&req)) && cross_site(headers) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "cross_site",
            "petición de otro sitio rechazada",
            "cross-site request refused",
        )
        .into_response();
    }
    let mut new_guest = None;
    // Only an id this server signed; anything else gets a fresh one.
    let guest = match cookie(headers, GUEST_COOKIE).and_then(|g| guest::verify(&hub.node.secret, g))
    {
        Some(g) => g.to_string(),
        None => {
            let g = new_secret();
            new_guest = Some(guest::sign(&hub.node.secret, &g));
            g
        }
    };
    let mut identity = Identity {
        key: format!("g:{guest}"),
        name: format!("invitado-{}", &guest[..6]),
        account: false,
        managed: false,
    };
    if let Some(tok) = cookie(headers, SESSION_COOKIE).filter(|t| valid_token(t)) {
        match hub.store.session_user(&hash_secret(tok)).await {
            Ok(Some((id, name, managed))) => {
                identity = Identity {
                    key: format!("u:{id}"),
                    name,
                    account: true,
                    managed,
                }
            }
            Ok(None) => {}
            // Served as a guest; the cause is logged.
            Err(e) => drop(ApiError::from(e)),
        }
    }
    hub.presence.touch(&identity.key);
    req.extensions_mut().insert(identity);
    let mut resp = next.run(req).await;
    if let Some(g) = new_guest {
        resp.headers_mut().append(
            header::SET_COOKIE,
            set_cookie(GUEST_COOKIE, &g, Some(365 * 24 * 3600)),
        );
    }
    resp
}
