//! HTTP routes: the small JSON API (games, seeks,
//! accounts, PGN), and the WebSocket endpoints of a game and of the lobby.
//!
//! Cookies: `escaque_invitado` (a guest identity, 128 random bits) and
//! `escaque_sesion` (an account session), both `HttpOnly; SameSite=Strict`.
//! State-changing requests (`POST`, `DELETE`) must be same-origin: an
//! `Origin` header that names another host, or `Sec-Fetch-Site: cross-site`,
//! is refused; bodies must be `application/json` (a cross-site form cannot
//! send that without the browser asking first).

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use escaque::pgn::{self, Node, PgnStyle};
use escaque::{Color, Lang, Odds, Position, TimeControl};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};

use crate::actor::{Cmd, Out};
use crate::lobby::Seek;
use crate::proto::{parse_client, ClientMsg, ErrorCode, MAX_FRAME_BYTES};
use crate::ratelimit::Bucket;
use crate::{hash_secret, new_id, new_secret, Hub, NewGame, Seat};

const GUEST_COOKIE: &str = "escaque_invitado";
const SESSION_COOKIE: &str = "escaque_sesion";

/// Who is asking: an account or a guest.
#[derive(Clone, Debug)]
pub struct Identity {
    /// `u:ID` or `g:ID`.
    pub key: String,
    /// Display name.
    pub name: String,
    /// True for an account.
    pub account: bool,
}

/// The routes.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/join", post(join_game))
        .route("/api/games/{id}/seat", post(reclaim_seat))
        .route("/api/games/{id}/pgn", get(game_pgn))
        .route("/api/me", get(me))
        .route("/api/me/games", get(my_games))
        .route("/api/seeks", get(list_seeks).post(create_seek))
        .route("/api/seeks/{id}/accept", post(accept_seek))
        .route("/api/seeks/{id}", axum::routing::delete(withdraw_seek))
        .route("/api/signup", post(signup))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/ws/games/{id}", get(ws_game))
        .route("/ws/lobby", get(ws_lobby))
        .layer(middleware::from_fn_with_state(Arc::clone(&hub), guard))
        .with_state(hub)
}

// ---------------------------------------------------------------- errors

/// An HTTP error: status and typed JSON.
pub struct ApiError(StatusCode, &'static str, String, String);

impl ApiError {
    fn new(status: StatusCode, code: &'static str, es: &str, en: &str) -> ApiError {
        ApiError(status, code, es.into(), en.into())
    }

    fn bad(code: &'static str, es: impl Into<String>, en: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, code, es.into(), en.into())
    }

    fn storage() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage",
            "no se pudo guardar; inténtalo de nuevo",
            "could not store it; try again",
        )
    }

    fn not_found() -> ApiError {
        let e = ErrorCode::NoSuchGame;
        ApiError(
            StatusCode::NOT_FOUND,
            e.code(),
            e.text(Lang::Es),
            e.text(Lang::En),
        )
    }

    fn limited() -> ApiError {
        let e = ErrorCode::RateLimited;
        ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            e.code(),
            e.text(Lang::Es),
            e.text(Lang::En),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.0,
            Json(json!({"t": "error", "code": self.1, "es": self.2, "en": self.3})),
        )
            .into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError::bad(
            "malformed",
            format!("cuerpo JSON no válido: {}", r.body_text()),
            format!("invalid JSON body: {}", r.body_text()),
        )
    }
}

type ApiResult = Result<Response, ApiError>;

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

/// Cross-site protection and the guest cookie.
async fn guard(State(hub): State<Arc<Hub>>, mut req: Request, next: Next) -> Response {
    let headers = req.headers();
    if !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS) {
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if let Some(origin) = headers.get(header::ORIGIN) {
            let o = origin.to_str().unwrap_or("");
            let o_host = o.split_once("://").map(|(_, h)| h).unwrap_or("");
            if o_host != host {
                return ApiError::new(
                    StatusCode::FORBIDDEN,
                    "cross_site",
                    "petición de otro sitio rechazada",
                    "cross-site request refused",
                )
                .into_response();
            }
        }
        if headers
            .get("sec-fetch-site")
            .is_some_and(|v| v.as_bytes() == b"cross-site")
        {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "cross_site",
                "petición de otro sitio rechazada",
                "cross-site request refused",
            )
            .into_response();
        }
    }
    let mut new_guest = None;
    let guest = match cookie(headers, GUEST_COOKIE).filter(|g| valid_token(g)) {
        Some(g) => g.to_string(),
        None => {
            let g = new_secret();
            new_guest = Some(g.clone());
            g
        }
    };
    let mut identity = Identity {
        key: format!("g:{guest}"),
        name: format!("invitado-{}", &guest[..6]),
        account: false,
    };
    if let Some(tok) = cookie(headers, SESSION_COOKIE).filter(|t| valid_token(t)) {
        if let Ok(Some((id, name))) = hub.store.session_user(&hash_secret(tok)).await {
            identity = Identity {
                key: format!("u:{id}"),
                name,
                account: true,
            };
        }
    }
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

fn limit(hub: &Hub, addr: SocketAddr) -> Result<(), ApiError> {
    if hub.http_limit.take(addr.ip()) {
        Ok(())
    } else {
        Err(ApiError::limited())
    }
}

// ---------------------------------------------------------------- games

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateGame {
    /// `engine` or `friend`.
    opponent: String,
    #[serde(default)]
    level: Option<u32>,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    time_control: Option<String>,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    odds: Option<String>,
    #[serde(default)]
    fen: Option<String>,
}

/// A rule set as a request names it: the library's one reader (its id, an
/// alias or its name; see `RuleSet::ALIASES`), FIDE 2023 when absent.
fn parse_rules(s: Option<&str>) -> Result<escaque::RuleSet, ApiError> {
    match s {
        None => Ok(escaque::RuleSet::fide_2023()),
        Some(text) => text.parse().map_err(|_| {
            ApiError::bad(
                "bad_rules",
                format!("reglas desconocidas: «{text}» (fide2023, london1846, london1846_english)"),
                format!("unknown rules: \"{text}\" (fide2023, london1846, london1846_english)"),
            )
        }),
    }
}

fn parse_tc(s: Option<&str>) -> Result<Option<TimeControl>, ApiError> {
    match s.map(str::trim) {
        None | Some("") | Some("-") => Ok(None),
        Some(t) => TimeControl::parse(t).map(Some).map_err(|e| {
            use escaque::Localized;
            ApiError::bad("bad_time_control", e.message(Lang::Es), e.message(Lang::En))
        }),
    }
}

/// Odds as a request names them: the library's one reader (the id, an alias
/// or the name; see `Odds::ALIASES`).
fn parse_odds(s: Option<&str>) -> Result<Option<Odds>, ApiError> {
    s.map(|o| {
        o.parse::<Odds>().map_err(|_| {
            ApiError::bad(
                "bad_odds",
                format!("ventaja desconocida: «{o}» (pawn_and_move, knight, rook, queen)"),
                format!("unknown odds: \"{o}\" (pawn_and_move, knight, rook, queen)"),
            )
        })
    })
    .transpose()
}

fn parse_color(s: Option<&str>) -> Result<Color, ApiError> {
    match s {
        Some("white") | Some("blancas") => Ok(Color::White),
        Some("black") | Some("negras") => Ok(Color::Black),
        None | Some("random") | Some("azar") => Ok(if rand::random::<bool>() {
            Color::White
        } else {
            Color::Black
        }),
        Some(c) => Err(ApiError::bad(
            "bad_color",
            format!("color desconocido: «{c}» (white, black, random)"),
            format!("unknown colour: \"{c}\" (white, black, random)"),
        )),
    }
}

fn seat_json(game: &str, seat: Color, secret: &str) -> Value {
    json!({
        "game": game,
        "seat": seat.fold("white", "black"),
        "secret": secret,
        "ws": format!("/ws/games/{game}?seat={secret}"),
        "watch": format!("/ws/games/{game}"),
        "challenge": format!("/api/games/{game}/join"),
    })
}

async fn create_game(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    axum::Extension(me): axum::Extension<Identity>,
    body: Result<Json<CreateGame>, JsonRejection>,
) -> ApiResult {
    limit(&hub, addr)?;
    let Json(req) = body?;
    let rules = parse_rules(req.rules.as_deref())?;
    let tc = parse_tc(req.time_control.as_deref())?;
    let odds = parse_odds(req.odds.as_deref())?;
    let mut color = parse_color(req.color.as_deref())?;
    let start = match (&req.fen, odds) {
        (Some(f), _) => Position::from_fen(f).map_err(|e| {
            use escaque::Localized;
            ApiError::bad("bad_fen", e.message(Lang::Es), e.message(Lang::En))
        })?,
        (None, Some(o)) => {
            // The creator gives the odds, from the usual side.
            color = o.usual_giver();
            o.position_for(color)
        }
        (None, None) => Position::new(),
    };
    let other = match req.opponent.as_str() {
        "engine" | "motor" => {
            let level = req.level.unwrap_or(10);
            if !(1..=10).contains(&level) {
                return Err(ApiError::bad(
                    "bad_level",
                    format!("nivel fuera de rango: {level} (1–10)"),
                    format!("level out of range: {level} (1–10)"),
                ));
            }
            Seat::Engine(level)
        }
        "friend" | "amigo" => Seat::Open,
        o => {
            return Err(ApiError::bad(
                "bad_opponent",
                format!("rival desconocido: «{o}» (engine, friend)"),
                format!("unknown opponent: \"{o}\" (engine, friend)"),
            ))
        }
    };
    let mine = Seat::Person {
        owner: me.key.clone(),
        name: me.name.clone(),
    };
    let (white, black) = color.fold((mine.clone(), other.clone()), (other, mine));
    let created = hub
        .create_game(NewGame {
            rules,
            start,
            time_control: tc,
            white,
            black,
        })
        .await
        .map_err(|_| ApiError::storage())?;
    let secret = color
        .fold(&created.white_secret, &created.black_secret)
        .clone()
        .unwrap_or_default();
    Ok((
        StatusCode::CREATED,
        Json(seat_json(&created.game, color, &secret)),
    )
        .into_response())
}

async fn join_game(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    axum::Extension(me): axum::Extension<Identity>,
    Path(id): Path<String>,
) -> ApiResult {
    limit(&hub, addr)?;
    let row = hub
        .store
        .game(&id)
        .await
        .map_err(|_| ApiError::storage())?
        .ok_or_else(ApiError::not_found)?;
    let free = if row.status != "waiting" {
        None
    } else if row.white_secret.is_none() && row.white_kind == "human" {
        Some(Color::White)
    } else if row.black_secret.is_none() && row.black_kind == "human" {
        Some(Color::Black)
    } else {
        None
    };
    let Some(seat) = free else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "seat_taken",
            "ese puesto ya está ocupado",
            "that seat is already taken",
        ));
    };
    let secret = new_secret();
    let took = hub
        .store
        .take_seat(
            &id,
            seat == Color::White,
            &me.key,
            &hash_secret(&secret),
            &me.name,
        )
        .await
        .map_err(|_| ApiError::storage())?;
    if !took {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "seat_taken",
            "ese puesto ya está ocupado",
            "that seat is already taken",
        ));
    }
    if let Some(tx) = hub.game(&id).await {
        let _ = tx
            .send(Cmd::Seated {
                seat,
                name: me.name.clone(),
                owner: me.key.clone(),
            })
            .await;
    }
    Ok(Json(seat_json(&id, seat, &secret)).into_response())
}

/// A player who lost the secret (a reload) gets a new one for the seat
/// their identity holds; the old secret stops working.
async fn reclaim_seat(
    State(hub): State<Arc<Hub>>,
    axum::Extension(me): axum::Extension<Identity>,
    Path(id): Path<String>,
) -> ApiResult {
    let row = hub
        .store
        .game(&id)
        .await
        .map_err(|_| ApiError::storage())?
        .ok_or_else(ApiError::not_found)?;
    let seat = if row.white_owner.as_deref() == Some(me.key.as_str()) {
        Color::White
    } else if row.black_owner.as_deref() == Some(me.key.as_str()) {
        Color::Black
    } else {
        let e = ErrorCode::NotAPlayer;
        return Err(ApiError(
            StatusCode::FORBIDDEN,
            e.code(),
            e.text(Lang::Es),
            e.text(Lang::En),
        ));
    };
    let secret = new_secret();
    hub.store
        .set_secret(&id, seat == Color::White, &hash_secret(&secret))
        .await
        .map_err(|_| ApiError::storage())?;
    Ok(Json(seat_json(&id, seat, &secret)).into_response())
}

async fn game_state(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult {
    let tx = hub.game(&id).await.ok_or_else(ApiError::not_found)?;
    let (rtx, rrx) = oneshot::channel();
    tx.send(Cmd::Snapshot { reply: rtx })
        .await
        .map_err(|_| ApiError::not_found())?;
    let v = rrx.await.map_err(|_| ApiError::not_found())?;
    Ok(Json(v).into_response())
}

#[derive(Deserialize)]
struct LangQuery {
    #[serde(default)]
    lang: Option<String>,
}

/// The game as PGN: English SAN (export format) by default, Spanish with
/// `?lang=es`; `[%clk]` after every move of a game with a clock.
async fn game_pgn(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<LangQuery>,
) -> ApiResult {
    let row = hub
        .store
        .game(&id)
        .await
        .map_err(|_| ApiError::storage())?
        .ok_or_else(ApiError::not_found)?;
    let moves = hub
        .store
        .moves(&id)
        .await
        .map_err(|_| ApiError::storage())?;
    let start = Position::from_fen(&row.start_fen).unwrap_or_default();
    let mut g = pgn::PgnGame {
        start,
        ..pgn::PgnGame::default()
    };
    let date = chrono_date(row.created_ms);
    g.set_tag("Event", "escaque en línea");
    g.set_tag("Site", &format!("escaque servir, partida {}", row.id));
    g.set_tag("Date", &date);
    g.set_tag("Round", "-");
    g.set_tag("White", &row.white_name);
    g.set_tag("Black", &row.black_name);
    let result = row.end.map_or("*", |e| e.result_pgn());
    g.set_tag("Result", result);
    if start != Position::new() {
        g.set_tag("SetUp", "1");
        g.set_tag("FEN", &row.start_fen);
    }
    g.set_tag("Rules", row.rules.name());
    if let Some(tc) = row
        .time_control
        .as_deref()
        .and_then(|t| TimeControl::parse(t).ok())
    {
        g.set_tag("TimeControl", &tc.to_pgn().unwrap_or_else(|_| "?".into()));
        g.set_tag("EscaqueTimeControl", &tc.to_string());
    }
    if let Some(e) = &row.end {
        g.set_tag("Termination", e.termination.id());
    }
    let mut pos = start;
    for m in &moves {
        let Ok(mv) = escaque::read_move(&pos, &m.uci, escaque::Notation::Uci) else {
            break;
        };
        let mut node = Node::new(mv);
        node.clock_ms = m.clock_ms.map(|c| c.max(0) as u64);
        g.moves.push(node);
        pos.play_unchecked(mv);
    }
    g.result = Some(row.end.and_then(|e| e.result));
    let style = match q.lang.as_deref() {
        Some("es") => PgnStyle::spanish(),
        _ => PgnStyle::export(),
    };
    let text = pgn::write_game_string(&g, style);
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/x-chess-pgn; charset=utf-8",
        )],
        text,
    )
        .into_response())
}

/// `YYYY.MM.DD` from Unix milliseconds (civil calendar, UTC).
fn chrono_date(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    // Howard Hinnant's days-to-civil algorithm.
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
    format!("{y:04}.{m:02}.{d:02}")
}

async fn me(axum::Extension(me): axum::Extension<Identity>) -> Json<Value> {
    Json(json!({"name": me.name, "account": me.account}))
}

async fn my_games(
    State(hub): State<Arc<Hub>>,
    axum::Extension(me): axum::Extension<Identity>,
) -> ApiResult {
    let rows = hub
        .store
        .games_of(&me.key, 200)
        .await
        .map_err(|_| ApiError::storage())?;
    let list: Vec<Value> = rows
        .iter()
        .map(|r| {
            json!({
                "game": r.id, "white": r.white_name, "black": r.black_name,
                "status": r.status, "result": r.end.map(|e| e.result_pgn()),
                "termination": r.end.map(|e| e.termination.id()),
                "termination_side": r.end.and_then(|e| e.side_id()),
                "time_control": r.time_control, "rules": r.rules.id(), "created_ms": r.created_ms,
                "you": if r.white_owner.as_deref() == Some(me.key.as_str()) { "white" } else { "black" },
            })
        })
        .collect();
    Ok(Json(json!({"games": list})).into_response())
}

// ---------------------------------------------------------------- seeks

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateSeek {
    #[serde(default)]
    time_control: Option<String>,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    odds: Option<String>,
}

async fn list_seeks(State(hub): State<Arc<Hub>>) -> Json<Value> {
    Json(json!({"seeks": hub.lobby.list()}))
}

async fn create_seek(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    axum::Extension(me): axum::Extension<Identity>,
    body: Result<Json<CreateSeek>, JsonRejection>,
) -> ApiResult {
    limit(&hub, addr)?;
    let Json(req) = body?;
    let rules = parse_rules(req.rules.as_deref())?;
    let tc = parse_tc(req.time_control.as_deref())?;
    let odds = parse_odds(req.odds.as_deref())?;
    let color = match req.color.as_deref() {
        None | Some("random") | Some("azar") => "random",
        Some("white") | Some("blancas") => "white",
        Some("black") | Some("negras") => "black",
        Some(_) => {
            parse_color(req.color.as_deref())?;
            "random"
        }
    };
    let seek = Seek {
        id: new_id(),
        owner: me.key.clone(),
        name: me.name.clone(),
        time_control: tc.map(|t| t.to_string()),
        color: color.into(),
        rules: rules.id().into(),
        odds: odds.map(|o| o.id().to_string()),
    };
    let id = seek.id.clone();
    hub.lobby.add(seek);
    Ok((StatusCode::CREATED, Json(json!({"seek": id}))).into_response())
}

async fn withdraw_seek(
    State(hub): State<Arc<Hub>>,
    axum::Extension(me): axum::Extension<Identity>,
    Path(id): Path<String>,
) -> ApiResult {
    let mine = hub
        .lobby
        .list()
        .iter()
        .any(|s| s.id == id && s.owner == me.key);
    if !mine {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no_such_seek",
            "no tienes ninguna propuesta con ese número",
            "you have no seek with that id",
        ));
    }
    hub.lobby.take(&id);
    Ok(Json(json!({"ok": true})).into_response())
}

async fn accept_seek(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    axum::Extension(me): axum::Extension<Identity>,
    Path(id): Path<String>,
) -> ApiResult {
    limit(&hub, addr)?;
    let own = hub
        .lobby
        .list()
        .iter()
        .any(|s| s.id == id && s.owner == me.key);
    if own {
        return Err(ApiError::bad(
            "own_seek",
            "no puedes aceptar tu propia propuesta",
            "you cannot accept your own seek",
        ));
    }
    let seek = hub.lobby.take(&id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no_such_seek",
            "esa propuesta ya no está",
            "that seek is gone",
        )
    })?;
    let rules = parse_rules(Some(&seek.rules))?;
    let tc = parse_tc(seek.time_control.as_deref())?;
    let odds = parse_odds(seek.odds.as_deref())?;
    let mut poster_color = parse_color(Some(&seek.color))?;
    let start = match odds {
        Some(o) => {
            poster_color = o.usual_giver();
            o.position_for(poster_color)
        }
        None => Position::new(),
    };
    let poster = Seat::Person {
        owner: seek.owner.clone(),
        name: seek.name.clone(),
    };
    let taker = Seat::Person {
        owner: me.key.clone(),
        name: me.name.clone(),
    };
    let (white, black) = poster_color.fold((poster.clone(), taker.clone()), (taker, poster));
    let created = hub
        .create_game(NewGame {
            rules,
            start,
            time_control: tc,
            white,
            black,
        })
        .await
        .map_err(|_| ApiError::storage())?;
    let secret_of = |c: Color| {
        c.fold(&created.white_secret, &created.black_secret)
            .clone()
            .unwrap_or_default()
    };
    let mut to_poster = seat_json(&created.game, poster_color, &secret_of(poster_color));
    to_poster["t"] = json!("seek_accepted");
    to_poster["seek"] = json!(id);
    hub.lobby
        .tell_owner(&seek.owner, Arc::from(to_poster.to_string()));
    let mine = poster_color.other();
    Ok(Json(seat_json(&created.game, mine, &secret_of(mine))).into_response())
}

// ---------------------------------------------------------------- accounts

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

fn check_name(name: &str) -> Result<(), ApiError> {
    let n = name.chars().count();
    if !(3..=20).contains(&n)
        || !name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
    {
        return Err(ApiError::bad(
            "bad_name",
            "el nombre debe tener de 3 a 20 letras, cifras, «_» o «-»",
            "the name must have 3 to 20 letters, digits, '_' or '-'",
        ));
    }
    Ok(())
}

async fn signup(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<Credentials>, JsonRejection>,
) -> ApiResult {
    limit(&hub, addr)?;
    let Json(c) = body?;
    check_name(&c.name)?;
    let plen = c.password.chars().count();
    if !(8..=200).contains(&plen) {
        return Err(ApiError::bad(
            "bad_password",
            "la contraseña debe tener de 8 a 200 caracteres",
            "the password must have 8 to 200 characters",
        ));
    }
    let password = c.password.clone();
    let hash = tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .ok()
        .flatten()
        .ok_or_else(ApiError::storage)?;
    let user = crate::store::UserRow {
        id: new_id(),
        name: c.name.clone(),
        pass_hash: hash,
    };
    let created = hub
        .store
        .create_user(&user)
        .await
        .map_err(|_| ApiError::storage())?;
    if !created {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "name_taken",
            "ese nombre ya está en uso",
            "that name is taken",
        ));
    }
    start_session(&hub, &user.id, &user.name).await
}

async fn login(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<Credentials>, JsonRejection>,
) -> ApiResult {
    limit(&hub, addr)?;
    let Json(c) = body?;
    let user = hub
        .store
        .user_by_name(&c.name)
        .await
        .map_err(|_| ApiError::storage())?;
    let wrong = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "bad_login",
            "nombre o contraseña incorrectos",
            "wrong name or password",
        )
    };
    let Some(user) = user else {
        return Err(wrong());
    };
    let (hash, password) = (user.pass_hash.clone(), c.password.clone());
    let ok = tokio::task::spawn_blocking(move || verify_password(&password, &hash))
        .await
        .unwrap_or(false);
    if !ok {
        return Err(wrong());
    }
    start_session(&hub, &user.id, &user.name).await
}

async fn start_session(hub: &Hub, id: &str, name: &str) -> ApiResult {
    let token = new_secret();
    hub.store
        .insert_session(&hash_secret(&token), id)
        .await
        .map_err(|_| ApiError::storage())?;
    let mut resp = Json(json!({"name": name, "account": true})).into_response();
    resp.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(SESSION_COOKIE, &token, Some(30 * 24 * 3600)),
    );
    Ok(resp)
}

async fn logout(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> ApiResult {
    if let Some(tok) = cookie(&headers, SESSION_COOKIE) {
        let _ = hub.store.delete_session(&hash_secret(tok)).await;
    }
    let mut resp = Json(json!({"ok": true})).into_response();
    resp.headers_mut()
        .append(header::SET_COOKIE, set_cookie(SESSION_COOKIE, "", Some(0)));
    Ok(resp)
}

/// Argon2id with the crate's default (OWASP) parameters, as a PHC string.
pub fn hash_password(password: &str) -> Option<String> {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let mut salt_bytes = [0u8; 16];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut salt_bytes);
    let salt = SaltString::encode_b64(&salt_bytes).ok()?;
    argon2::Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .ok()
        .map(|h| h.to_string())
}

/// Checks a password against a PHC string.
pub fn verify_password(password: &str, phc: &str) -> bool {
    use argon2::password_hash::{PasswordHash, PasswordVerifier};
    PasswordHash::new(phc)
        .map(|h| {
            argon2::Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

// ---------------------------------------------------------------- WebSocket

#[derive(Deserialize)]
struct WsQuery {
    #[serde(default, alias = "asiento")]
    seat: Option<String>,
}

async fn ws_game(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult {
    let row = hub
        .store
        .game(&id)
        .await
        .map_err(|_| ApiError::storage())?
        .ok_or_else(ApiError::not_found)?;
    let seat = match q.seat {
        None => None,
        Some(s) => match Hub::seat_of(&row, &s) {
            Some(c) => Some(c),
            None => {
                let e = ErrorCode::BadSeat;
                return Err(ApiError(
                    StatusCode::FORBIDDEN,
                    e.code(),
                    e.text(Lang::Es),
                    e.text(Lang::En),
                ));
            }
        },
    };
    let ws = match ws {
        Ok(ws) => ws,
        Err(r) => return Ok(r.into_response()),
    };
    Ok(small_buffers(ws)
        .max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| game_connection(hub, id, seat, socket)))
}

fn median(v: &VecDeque<Duration>) -> Duration {
    if v.is_empty() {
        return Duration::ZERO;
    }
    let mut s: Vec<Duration> = v.iter().copied().collect();
    s.sort();
    s[s.len() / 2]
}

async fn game_connection(hub: Arc<Hub>, id: String, seat: Option<Color>, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Out>(512);
    // Join (retry once if the game's task was just ending).
    let mut joined = None;
    for _ in 0..2 {
        let Some(game) = hub.game(&id).await else {
            break;
        };
        let (rtx, rrx) = oneshot::channel();
        if game
            .send(Cmd::Join {
                seat,
                tx: tx.clone(),
                reply: rtx,
            })
            .await
            .is_err()
        {
            continue;
        }
        if let Ok(sub) = rrx.await {
            joined = Some((game, sub));
            break;
        }
    }
    let Some((game, sub)) = joined else {
        let _ = sink
            .send(Message::Text(
                ErrorCode::NoSuchGame.to_json(None).to_string().into(),
            ))
            .await;
        return;
    };
    // Local answers go through a weak handle, so the channel closes when the
    // game drops this connection.
    let local = tx.downgrade();
    drop(tx);
    let mut writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            if sink.send(Message::Text(m.as_ref().into())).await.is_err() {
                return;
            }
        }
        let _ = sink.close().await;
    });
    let say = |v: Value| {
        if let Some(tx) = local.upgrade() {
            let _ = tx.try_send(Arc::from(v.to_string()));
        }
    };
    let cfg = &hub.config;
    let mut bucket = Bucket::new(cfg.msgs_burst, cfg.msgs_per_sec);
    let mut ticker = tokio::time::interval(cfg.ping_every);
    let mut ping_n = 0u64;
    let mut pings: VecDeque<(u64, Instant)> = VecDeque::new();
    let mut rtts: VecDeque<Duration> = VecDeque::new();
    loop {
        tokio::select! {
            _ = &mut writer => break,
            _ = ticker.tick() => {
                ping_n += 1;
                pings.push_back((ping_n, Instant::now()));
                if pings.len() > 32 {
                    pings.pop_front();
                }
                say(json!({"t": "ping", "n": ping_n}));
            }
            frame = stream.next() => {
                let received = Instant::now();
                let text = match frame {
                    None | Some(Err(_)) => break,
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        say(ErrorCode::Binary.to_json(None));
                        continue;
                    }
                    Some(Ok(Message::Close(_))) => break,
                    Some(Ok(_)) => continue,
                };
                if !bucket.take() {
                    say(ErrorCode::RateLimited.to_json(None));
                    continue;
                }
                match parse_client(text.as_str()) {
                    Err(e) => say(e.to_json(None)),
                    Ok(ClientMsg::Pong { n }) => {
                        if let Some(i) = pings.iter().position(|(k, _)| *k == n) {
                            let (_, at) = pings.remove(i).unwrap_or((n, received));
                            rtts.push_back(received.duration_since(at));
                            if rtts.len() > 5 {
                                rtts.pop_front();
                            }
                        }
                    }
                    Ok(msg) => {
                        let cmd = Cmd::Msg { sub, msg, received, rtt: median(&rtts) };
                        if game.send(cmd).await.is_err() {
                            break;
                        }
                    }
                }
            }
        }
    }
    let _ = game.send(Cmd::Leave { sub }).await;
    writer.abort();
}

async fn ws_lobby(
    State(hub): State<Arc<Hub>>,
    axum::Extension(me): axum::Extension<Identity>,
    ws: WebSocketUpgrade,
) -> Response {
    small_buffers(ws)
        .max_message_size(MAX_FRAME_BYTES)
        .on_upgrade(move |socket| lobby_connection(hub, me, socket))
}

/// Messages are small (a state is a few KiB): 8 KiB buffers instead of the
/// default 128 KiB keep a connection's memory small; a client that stops
/// reading is cut off at 1 MiB of unsent data.
pub fn small_buffers(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .max_write_buffer_size(1024 * 1024)
}

async fn lobby_connection(hub: Arc<Hub>, me: Identity, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Out>(256);
    hub.lobby.watch(me.key.clone(), tx);
    let mut writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            if sink.send(Message::Text(m.as_ref().into())).await.is_err() {
                return;
            }
        }
    });
    loop {
        tokio::select! {
            _ = &mut writer => break,
            frame = stream.next() => match frame {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(_)) => {}
            }
        }
    }
    writer.abort();
}
