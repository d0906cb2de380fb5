//! Seeks: the lobby's open invitations.
//!
//! Kid mode (`crate::classes::kid`): a pupil's seek is shown to its class
//! only, a pupil is shown its circle's seeks only, and accepting checks
//! the meeting again against the stored class.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Json;
use escaque::Color;
use serde::Deserialize;
use serde_json::Value;

use super::games::{parse_rules, parse_tc, seat_json};
use super::{ApiError, ApiResult, AppJson, Identity, Limited};
use crate::classes::kid::{self, Meeting};
use crate::classes::{self, kid_mode};
use crate::games::{self, ColorChoice, GameSpec, Settings, Variant};
use crate::lobby::{self, Fanout, Refusal, Seek};
use crate::proto::games as wire;
use crate::rating::{self, RatedRefusal};
use crate::{new_id, Hub, Seat};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CreateSeek {
    #[serde(default)]
    time_control: Option<String>,
    #[serde(default)]
    color: Option<String>,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    odds: Option<String>,
    /// A rated seek.
    #[serde(default)]
    rated: bool,
    /// `[min_offset, max_offset]` around the poster's rating.
    #[serde(default)]
    rating_range: Option<[i64; 2]>,
    /// `standard` (default) or `chess960`.
    #[serde(default)]
    variant: Option<String>,
    /// A Chess960 starting position: 0–959 or `random` (default: drawn
    /// when the seek is accepted).
    #[serde(default)]
    position: Option<Value>,
}

pub(super) async fn list_seeks(State(hub): State<Arc<Hub>>, me: Identity) -> ApiResult {
    let viewer = kid::viewer(&hub.store, &me).await;
    let seeks = lobby::list_for(&hub, &viewer).await?;
    Ok(Json(wire::SeekList { seeks }).into_response())
}

fn no_such_seek() -> ApiError {
    Refusal::SeekGone.into()
}

pub(super) async fn create_seek(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    me: Identity,
    body: AppJson<CreateSeek>,
) -> ApiResult {
    let req = body.read()?;
    // Kid mode: a pupil's seek is its class's only (a pupil in no class
    // has nobody to play but the engine).
    let circle = classes::circle(&hub.store, &me).await?;
    if circle.as_ref().is_some_and(|c| c.class_id.is_empty()) {
        return Err(kid_mode());
    }
    // Juego tras la tarea (issue 57).
    crate::tareas::juego::check_free_play(&hub.store, &me.key).await?;
    let rules = parse_rules(req.rules.as_deref())?;
    let tc = parse_tc(req.time_control.as_deref())?;
    let odds = games::read_odds(req.odds.as_deref())?;
    let variant = Variant::read(req.variant.as_deref(), req.position.as_ref())?;
    // Checked now; the position and a random colour are drawn when the
    // seek is accepted.
    GameSpec {
        variant,
        fen: None,
        odds,
        color: ColorChoice::Random,
    }
    .check()?;
    let color = ColorChoice::read(req.color.as_deref(), ColorChoice::Random)?;
    if req.rated {
        rating::check_rated(rating::Ratable {
            rules,
            time_control: tc.as_ref(),
            chess960: variant.is_chess960(),
            odds: odds.is_some(),
            custom_position: false,
            engine: false,
            accounts: me.account,
        })?;
    }
    let perf = rating::perf_of(variant.is_chess960(), tc.as_ref());
    let mine = match perf {
        Some(p) => rating::current_of(&hub.store, Some(&me.key), p).await?,
        None => None,
    };
    let range = match req.rating_range {
        None => None,
        Some(r) => {
            let [lo, hi] = rating::check_range(r)?;
            if perf.is_none() {
                return Err(RatedRefusal::BadRange.into());
            }
            let Some(g) = mine else {
                return Err(RatedRefusal::NeedsAccount.into());
            };
            Some([g.int_rating() + lo, g.int_rating() + hi])
        }
    };
    let seek = Seek {
        id: new_id(),
        owner: me.key.clone(),
        name: me.name.clone(),
        time_control: tc.map(|t| t.to_string()),
        color: color.id().into(),
        rules: rules.id().into(),
        odds: odds.map(|o| o.id().to_string()),
        rated: req.rated,
        perf,
        rating: mine.map(|g| g.int_rating()),
        provisional: mine.is_some_and(|g| g.provisional()),
        rating_min: range.map(|r| r[0]),
        rating_max: range.map(|r| r[1]),
        variant: variant.id(),
        position: variant.number(),
        class_id: circle.as_ref().map(|c| c.class_id.clone()),
        audience: circle.map(|c| Arc::new(c.members)),
    };
    let id = seek.id.clone();
    lobby::post(&hub, &seek).await?;
    Ok((StatusCode::CREATED, Json(wire::SeekPosted { seek: id })).into_response())
}

pub(super) async fn withdraw_seek(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    Path(id): Path<String>,
) -> ApiResult {
    if !lobby::withdraw(&hub, &id, &me.key).await? {
        return Err(Refusal::NotYourSeek.into());
    }
    Ok(Json(crate::proto::common::DONE).into_response())
}

pub(super) async fn accept_seek(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    me: Identity,
    Path(id): Path<String>,
) -> ApiResult {
    let Some(found) = lobby::list(&hub).await?.into_iter().find(|s| s.id == id) else {
        return Err(no_such_seek());
    };
    if found.owner == me.key {
        return Err(ApiError::own_game());
    }
    // Kid mode. A seek the caller is not shown: a pupil is told why (it is
    // outside its class); anybody else is told nothing more than that there
    // is no such seek (a pupil's seek is not known outside its class). A
    // shown seek is checked again against the stored classes (a circle may
    // have changed since it was posted).
    let viewer = kid::viewer(&hub.store, &me).await;
    if !found.visible_to(&viewer) {
        return Err(if me.managed {
            kid_mode()
        } else {
            no_such_seek()
        });
    }
    let meeting = kid::meeting(&hub.store, &me, &found.owner).await?;
    if meeting == Meeting::Refused {
        return Err(kid_mode());
    }
    // Juego tras la tarea (issue 57): neither the taker's nor the poster's
    // free play is held.
    crate::tareas::juego::check_free_play(&hub.store, &me.key).await?;
    crate::tareas::juego::check_free_play(&hub.store, &found.owner).await?;
    // A rated seek takes accounts only; a range, a rating within it.
    if found.rated && !me.account {
        return Err(RatedRefusal::NeedsAccount.into());
    }
    if found.rating_min.is_some() || found.rating_max.is_some() {
        let theirs = match found.perf {
            Some(p) => rating::current_of(&hub.store, Some(&me.key), p).await?,
            None => None,
        };
        let within = theirs.is_some_and(|g| {
            let r = g.int_rating();
            found.rating_min.is_none_or(|lo| r >= lo) && found.rating_max.is_none_or(|hi| r <= hi)
        });
        if !within {
            return Err(RatedRefusal::OutOfRange.into());
        }
    }
    // Of any number of processes accepting this seek at once, one takes
    // it; the others are told it is gone.
    let seek = lobby::take(&hub, &id).await?.ok_or_else(no_such_seek)?;
    let rules = parse_rules(Some(&seek.rules))?;
    let tc = parse_tc(seek.time_control.as_deref())?;
    let spec = GameSpec {
        odds: games::read_odds(seek.odds.as_deref())?,
        color: ColorChoice::read(Some(&seek.color), ColorChoice::Random)?,
        variant: Variant::stored(seek.variant, seek.position),
        fen: None,
    };
    let poster = Seat::Person {
        owner: seek.owner.clone(),
        name: seek.name.clone(),
    };
    let settings = Settings {
        rules,
        time_control: tc,
        rated: seek.rated,
        // The pupil's class now (the seek's, unless the pupil moved).
        class_id: meeting.class().or(seek.class_id.clone()),
    };
    let (game, poster_color) = games::build(&spec, poster, me.seat(), settings)?;
    let created = hub.create_game(game).await?;
    let secret_of = |c: Color| created.secret(c).unwrap_or_default();
    let to_poster = wire::SeekAccepted {
        t: "seek_accepted",
        seek: id.clone(),
        seat: seat_json(&created.game, poster_color, secret_of(poster_color)),
    };
    hub.lobby.tell_owner(
        &seek.owner,
        Arc::from(serde_json::to_string(&to_poster).unwrap_or_default()),
    );
    let mine = poster_color.other();
    Ok(Json(seat_json(&created.game, mine, secret_of(mine))).into_response())
}
