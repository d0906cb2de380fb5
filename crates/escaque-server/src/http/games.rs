//! Games: create, join (a challenge), reclaim a seat, state, PGN, my games.

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use escaque::pgn::PgnStyle;
use escaque::{Color, Lang, TimeControl};
use serde::Deserialize;
use tokio::sync::oneshot;

use super::{ApiError, ApiResult, AppJson, Identity, Limited};
use crate::actor::Cmd;
use crate::classes::kid::{self, Meeting};
use crate::classes::{self, kid_mode};
use crate::games::{self, ColorChoice, GameSpec, Settings, Variant};
use crate::lobby::Refusal;
use crate::proto::games as wire;
use crate::proto::games::CreateGame;
use crate::proto::ErrorCode;
use crate::{hash_secret, new_secret, Hub, Seat};

/// A rule set as a request names it: the library's one reader (its id, an
/// alias or its name; see `RuleSet::ALIASES`), FIDE 2023 when absent.
pub(super) fn parse_rules(s: Option<&str>) -> Result<escaque::RuleSet, ApiError> {
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

pub(super) fn parse_tc(s: Option<&str>) -> Result<Option<TimeControl>, ApiError> {
    match s.map(str::trim) {
        None | Some("") | Some("-") => Ok(None),
        Some(t) => Ok(Some(TimeControl::parse(t)?)),
    }
}

pub(super) fn seat_json(game: &str, seat: Color, secret: &str) -> wire::Seat {
    wire::Seat::new(game, seat.fold("white", "black"), secret)
}

pub(super) async fn create_game(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    me: Identity,
    body: AppJson<CreateGame>,
) -> ApiResult {
    let req = body.read()?;
    let rules = parse_rules(req.rules.as_deref())?;
    let tc = parse_tc(req.time_control.as_deref())?;
    let spec = GameSpec {
        odds: games::read_odds(req.odds.as_deref())?,
        color: ColorChoice::read(req.color.as_deref(), ColorChoice::Random)?,
        variant: Variant::read(req.variant.as_deref(), req.position.as_ref())?,
        fen: req.fen.clone(),
    };
    let start = spec.start()?;
    let (odds, variant, color) = (spec.odds, spec.variant, start.first);
    let other = match req.opponent.as_str() {
        "engine" | "motor" => {
            let level = req.level.unwrap_or(10);
            let Some(level) = escaque_play::Level::from_number(level) else {
                return Err(ApiError::bad(
                    "bad_level",
                    format!("nivel fuera de rango: {level} (1–10)"),
                    format!("level out of range: {level} (1–10)"),
                ));
            };
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
    if req.rated {
        crate::rating::check_rated(crate::rating::Ratable {
            rules,
            time_control: tc.as_ref(),
            chess960: variant.is_chess960(),
            odds: odds.is_some(),
            custom_position: req.fen.is_some(),
            engine: matches!(other, Seat::Engine(_)),
            accounts: me.account,
        })?;
    }
    // Kid mode: a pupil's challenge is its class's (only its circle may
    // take the seat); a pupil in no class plays the engine only.
    let class_id = match (&other, classes::circle(&hub.store, &me).await?) {
        (Seat::Open, Some(c)) if c.class_id.is_empty() => return Err(kid_mode()),
        (Seat::Open, Some(c)) => Some(c.class_id),
        _ => None,
    };
    // Juego tras la tarea (issue 57): a pupil's free game waits for its
    // open homework; a homework item's game is checked against the item.
    let engine_level = match other {
        Seat::Engine(_) => Some(req.level.unwrap_or(10) as u8),
        _ => None,
    };
    match &req.homework {
        Some(r) => {
            crate::tareas::juego::check_homework_game(
                &hub.store,
                &me,
                r,
                engine_level,
                &start.position,
                variant.is_chess960(),
                color,
            )
            .await?
        }
        None => crate::tareas::juego::check_free_play(&hub.store, &me.key).await?,
    }
    let settings = Settings {
        rules,
        time_control: tc,
        rated: req.rated,
        class_id,
    };
    let created = hub
        .create_game(start.game(me.seat(), other, settings))
        .await?;
    let secret = created.secret(color).unwrap_or_default();
    Ok((
        StatusCode::CREATED,
        Json(seat_json(&created.game, color, secret)),
    )
        .into_response())
}

pub(super) async fn join_game(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    me: Identity,
    Path(id): Path<String>,
) -> ApiResult {
    let row = hub.store.game(&id).await?.ok_or_else(ApiError::not_found)?;
    let free = if row.status != "waiting" {
        None
    } else if row.white_secret.is_none() && row.white_kind == "human" {
        Some(Color::White)
    } else if row.black_secret.is_none() && row.black_kind == "human" {
        Some(Color::Black)
    } else {
        None
    };
    let mine = |owner: &Option<String>| owner.as_deref() == Some(me.key.as_str());
    if free.is_some() && (mine(&row.white_owner) || mine(&row.black_owner)) {
        return Err(ApiError::own_game());
    }
    let Some(seat) = free else {
        return Err(Refusal::SeatTaken.into());
    };
    // Kid mode: a pupil takes the seat of its circle's challenges only, and
    // nobody outside a pupil's circle takes the seat of its challenge.
    let creator = seat.fold(&row.black_owner, &row.white_owner);
    let meeting = kid::meeting(&hub.store, &me, creator.as_deref().unwrap_or("")).await?;
    if meeting == Meeting::Refused {
        return Err(kid_mode());
    }
    // Juego tras la tarea (issue 57): neither player's free play is held.
    crate::tareas::juego::check_free_play(&hub.store, &me.key).await?;
    if let Some(c) = creator.as_deref() {
        crate::tareas::juego::check_free_play(&hub.store, c).await?;
    }
    if row.rated && !me.account {
        return Err(crate::rating::RatedRefusal::NeedsAccount.into());
    }
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
        .await?;
    if !took {
        return Err(Refusal::SeatTaken.into());
    }
    if let (Some(class_id), None) = (meeting.class(), &row.class_id) {
        hub.store.set_game_class(&id, &class_id).await?;
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
pub(super) async fn reclaim_seat(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path(id): Path<String>,
) -> ApiResult {
    let row = hub.store.game(&id).await?.ok_or_else(ApiError::not_found)?;
    let seat = if row.white_owner.as_deref() == Some(me.key.as_str()) {
        Color::White
    } else if row.black_owner.as_deref() == Some(me.key.as_str()) {
        Color::Black
    } else {
        return Err(ErrorCode::NotAPlayer.into());
    };
    // Sockets opened with the old secret lose the seat before the new one
    // is handed out.
    if let Some(tx) = hub.game(&id).await {
        let _ = tx.send(Cmd::SeatReclaimed { seat }).await;
    }
    let secret = new_secret();
    hub.store
        .set_secret(&id, seat == Color::White, &hash_secret(&secret))
        .await?;
    Ok(Json(seat_json(&id, seat, &secret)).into_response())
}

pub(super) async fn game_state(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> ApiResult {
    let tx = hub.game(&id).await.ok_or_else(ApiError::not_found)?;
    let (rtx, rrx) = oneshot::channel();
    tx.send(Cmd::Snapshot { reply: rtx })
        .await
        .map_err(|_| ApiError::not_found())?;
    let v = rrx.await.map_err(|_| ApiError::not_found())?;
    Ok(Json(v).into_response())
}

#[derive(Deserialize)]
pub(super) struct LangQuery {
    #[serde(default)]
    lang: Option<String>,
}

impl LangQuery {
    /// `?lang=es`: Spanish piece letters; otherwise the export format.
    pub(super) fn style(&self) -> PgnStyle {
        match self.lang.as_deref() {
            Some("es") => PgnStyle::spanish(),
            _ => PgnStyle::export(),
        }
    }

    /// `?lang=en`: English; otherwise Spanish.
    pub(super) fn lang(&self) -> Lang {
        match self.lang.as_deref() {
            Some("en") => Lang::En,
            _ => Lang::Es,
        }
    }
}

/// The game as PGN: English SAN (export format) by default, Spanish with
/// `?lang=es`; `[%clk]` after every move of a game with a clock.
pub(super) async fn game_pgn(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(q): Query<LangQuery>,
) -> ApiResult {
    let row = hub.store.game(&id).await?.ok_or_else(ApiError::not_found)?;
    let moves = hub.store.moves(&id).await?;
    let text = crate::actor::stored_pgn(&row, &moves, &chrono_date(row.created_ms), q.style())
        .map_err(|_| ApiError::storage())?;
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
pub(super) fn chrono_date(ms: i64) -> String {
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

pub(super) async fn me(State(hub): State<Arc<Hub>>, me: Identity) -> ApiResult {
    // Classes (issue 26): whether the asker may create classes, and a
    // pupil's class.
    let may_teach = crate::classes::may_teach(&hub, &me).await?;
    let class = match crate::classes::user_id(&me).filter(|_| me.managed) {
        Some(uid) => hub.store.pupil_class(uid).await?,
        None => None,
    };
    Ok(Json(wire::Me {
        name: me.name.clone(),
        account: me.account,
        managed: me.managed,
        may_teach,
        class,
    })
    .into_response())
}

pub(super) async fn my_games(State(hub): State<Arc<Hub>>, me: Identity) -> ApiResult {
    let rows = hub.store.games_of(&me.key, 200).await?;
    let openings = crate::openings::of_rows(&hub.store, &rows).await?;
    let games: Vec<wire::MyGame> = rows
        .iter()
        .map(|r| wire::MyGame {
            game: r.id.clone(),
            white: r.white_name.clone(),
            black: r.black_name.clone(),
            status: r.status.clone(),
            result: r.end.map(|e| e.result_pgn()),
            termination: r.end.map(|e| e.termination.id()),
            termination_side: r.end.and_then(|e| e.side_id()),
            time_control: r.time_control.clone(),
            rules: r.rules.id(),
            created_ms: r.created_ms,
            variant: if r.chess960 { "chess960" } else { "standard" },
            you: if r.white_owner.as_deref() == Some(me.key.as_str()) {
                "white"
            } else {
                "black"
            },
            opening: openings.get(&r.id).cloned(),
        })
        .collect();
    Ok(Json(wire::MyGames { games }).into_response())
}
