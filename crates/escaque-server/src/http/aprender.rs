//! Aprende a jugar's routes (issue 55; docs/protocol.md "Aprende a jugar"):
//! the course, one stage, a try judged, an exercise's tries kept, the
//! caller's progress, a guest's progress joined. The work is
//! `crate::aprender`'s.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};

use super::{ApiResult, AppJson};
use crate::aprender;
use crate::identity::SignedIn;
use crate::proto::aprender as wire;
use crate::Hub;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/aprender", get(list))
        .route("/api/aprender/jugar", post(play))
        .route("/api/aprender/progreso", get(progress).post(save))
        .route("/api/aprender/unir", post(join))
        .route("/api/aprender/etapas/{stage}", get(stage))
}

async fn list() -> ApiResult {
    Ok(Json(aprender::list()?).into_response())
}

async fn stage(id: Result<Path<String>, PathRejection>) -> ApiResult {
    let Path(id) = id?;
    Ok(Json(aprender::stage(&id)?).into_response())
}

async fn play(body: AppJson<wire::PlayTry>) -> ApiResult {
    let req = body.read()?;
    Ok(Json(aprender::judge(&req)?).into_response())
}

async fn save(
    State(hub): State<Arc<Hub>>,
    me: SignedIn,
    body: AppJson<wire::SaveTries>,
) -> ApiResult {
    let req = body.read()?;
    Ok(Json(aprender::save(&hub.store, &me, &req).await?).into_response())
}

async fn join(
    State(hub): State<Arc<Hub>>,
    me: SignedIn,
    body: AppJson<wire::JoinProgress>,
) -> ApiResult {
    let req = body.read()?;
    Ok(Json(aprender::join(&hub.store, &me, &req).await?).into_response())
}

async fn progress(State(hub): State<Arc<Hub>>, me: SignedIn) -> ApiResult {
    Ok(Json(aprender::progress(&hub.store, &me).await?).into_response())
}
