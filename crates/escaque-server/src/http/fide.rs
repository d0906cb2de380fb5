//! FIDE mode at the organiser's desk (docs/protocol.md "FIDE mode",
//! issue 58): its state, leaving it (two confirmations, cannot be undone)
//! and the manual pairing with its warnings and `### MPA` line. The rules
//! are `escaque_torneo::fide`'s; each change is one `service::change`.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::response::IntoResponse;
use axum::Json;
use escaque::Lang;
use escaque_torneo::fide::{self, Pairs};
use escaque_torneo::Tournament;

use super::extract::Organising;
use super::{ApiError, ApiResult, AppJson, Identity};
use crate::proto::fide as wire;
use crate::tournament::{self as service, Who};
use crate::Hub;

fn state_of(t: &Tournament) -> wire::FideState {
    wire::FideState {
        on: fide::is_on(t),
        mark_es: fide::mark(t, Lang::Es),
        mark_en: fide::mark(t, Lang::En),
        numbers_frozen: fide::numbers_frozen(t),
        log: t.fide_log.clone(),
    }
}

/// `GET /api/tournaments/{id}/fide`.
pub(super) async fn state(
    State(hub): State<Arc<Hub>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let l = service::load(&hub, &id?.0).await?;
    Ok(Json(state_of(&l.t)).into_response())
}

/// `POST /api/tournaments/{id}/fide/leave` `{confirm, name}`: refused
/// (400 `tournament_refused`, nothing changed) without the first
/// confirmation, with a name that is not the tournament's, or when the
/// tournament already left; 403 for anyone but an organiser.
pub(super) async fn leave(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
    body: AppJson<wire::LeaveFide>,
) -> ApiResult {
    let id = id?.0;
    let req = body.read()?;
    let who = me.name.clone();
    let state = service::change(&hub, &id, &Who::Organiser(me), |l| {
        fide::leave(&mut l.t, req.confirm, &req.name, &who).map_err(service::refused)?;
        Ok(state_of(&l.t))
    })
    .await?;
    Ok(Json(state).into_response())
}

fn pairs_wire(p: &Pairs) -> wire::PairsWire {
    wire::PairsWire {
        games: p.games.iter().map(|&(w, b)| [w, b]).collect(),
        bye: p.bye,
    }
}

/// A start with no boards: the engine's pairing of the next round,
/// previewed as if the organiser had typed it (its warnings, if any, and
/// `differing` 0); `engine` null and nothing else when it finds none.
fn engine_start(t: &Tournament) -> Result<wire::ManualAnswer, ApiError> {
    let round = t.next_round_number().map_err(service::refused)?;
    let Ok(r) = escaque_torneo::pairing::next_round(t) else {
        return Ok(wire::ManualAnswer {
            round,
            engine: None,
            differing: 0,
            warnings: Vec::new(),
            saved: false,
            mpa: None,
        });
    };
    answer(t, &Pairs::of(&r), false, None)
}

/// The answer to a manual pairing `pairs` of `t`'s next round.
fn answer(
    t: &Tournament,
    pairs: &Pairs,
    saved: bool,
    mpa: Option<String>,
) -> Result<wire::ManualAnswer, ApiError> {
    let p = fide::preview_manual(t, pairs).map_err(service::refused)?;
    Ok(wire::ManualAnswer {
        round: p.round,
        engine: p.engine.as_ref().map(pairs_wire),
        differing: p.differing as u32,
        warnings: p
            .warnings
            .iter()
            .map(|w| wire::ManualWarning {
                kind: w.kind().to_string(),
                players: w.players(),
                es: w.message(Lang::Es),
                en: w.message(Lang::En),
            })
            .collect(),
        saved,
        mpa,
    })
}

/// `POST /api/tournaments/{id}/manual-pairing`: starts (`save: false`) or
/// ends (`save: true`) a manual pairing of the next round. Refused: an
/// online event (409 `online_event`: its games are started by the
/// server's pairing), a pairing that is not one of the round's players
/// (400), rules broken without `accept_warnings` (400, the warnings in the
/// message), anyone but an organiser (403, before anything else: the
/// [`Organising`] guard).
pub(super) async fn manual(
    State(hub): State<Arc<Hub>>,
    Organising { me, loaded: l }: Organising,
    body: AppJson<wire::ManualPairing>,
) -> ApiResult {
    let id = l.row.id.clone();
    let req = body.read()?;
    if req.games.len() > 2000 {
        return Err(ApiError::bad(
            "bad_field",
            "«games»: como mucho 2000 partidas",
            "'games': at most 2000 games",
        ));
    }
    let pairs = Pairs {
        games: req.games.iter().map(|g| (g[0], g[1])).collect(),
        bye: req.bye,
    };
    if l.row.mode == "online" {
        return Err(ApiError(
            axum::http::StatusCode::CONFLICT.into(),
            "online_event",
            "un torneo en línea se empareja con el programa: sus partidas empiezan al emparejar"
                .into(),
            "an online event is paired by the engine: its games start when it is paired".into(),
        ));
    }
    if !req.save {
        if pairs.games.is_empty() && pairs.bye.is_none() {
            // The start of the desk's form: no boards yet, the engine's
            // pairing previewed (null when it finds none).
            return Ok(Json(engine_start(&l.t)?).into_response());
        }
        return Ok(Json(answer(&l.t, &pairs, false, None)?).into_response());
    }
    let out = service::change(&hub, &id, &Who::Organiser(me), |l| {
        let before = answer(&l.t, &pairs, true, None)?;
        let (_, line) =
            fide::apply_manual(&mut l.t, &pairs, req.accept_warnings).map_err(service::refused)?;
        Ok(wire::ManualAnswer {
            mpa: Some(line),
            ..before
        })
    })
    .await?;
    Ok(Json(out).into_response())
}
