//! The puzzle trainer's routes (issue 56; docs/protocol.md "Problemas"):
//! the next puzzle, an answer, a hint, the solution, the solver's profile.
//! The rules are `crate::problemas`.

use std::sync::Arc;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};

use super::{ApiError, AppJson, Identity};
use crate::problemas;
use crate::proto::problemas::{self as wire, AnswerBody, NextQuery};
use crate::Hub;

/// The trainer's routes.
pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route("/api/puzzles/next", get(next))
        .route("/api/puzzles/me", get(me))
        .route("/api/puzzles/themes", get(themes))
        .route("/api/puzzles/attempts/{id}/answer", post(answer))
        .route("/api/puzzles/attempts/{id}/hint", post(hint))
        .route("/api/puzzles/attempts/{id}/solution", post(solution))
}

fn path_id(p: Result<Path<String>, PathRejection>) -> Result<String, ApiError> {
    let Path(id) = p?;
    Ok(id)
}

/// `GET /api/puzzles/next?mode=&theme=&difficulty=`.
async fn next(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    q: Result<Query<NextQuery>, QueryRejection>,
) -> Result<Json<wire::Served>, ApiError> {
    let Query(q) = q?;
    Ok(Json(problemas::next(&hub.store, &me, &q).await?))
}

/// `POST /api/puzzles/attempts/{id}/answer`.
async fn answer(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
    body: AppJson<AnswerBody>,
) -> Result<Json<wire::Answered>, ApiError> {
    let id = path_id(id)?;
    let body = body.read()?;
    Ok(Json(problemas::answer(&hub.store, &me, &id, &body).await?))
}

/// `POST /api/puzzles/attempts/{id}/hint` (body: the solver's moves so far).
async fn hint(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
    body: AppJson<AnswerBody>,
) -> Result<Json<wire::HintView>, ApiError> {
    let id = path_id(id)?;
    let body = body.read()?;
    Ok(Json(problemas::hint(&hub.store, &me, &id, &body).await?))
}

/// `POST /api/puzzles/attempts/{id}/solution`.
async fn solution(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
) -> Result<Json<wire::Answered>, ApiError> {
    let id = path_id(id)?;
    Ok(Json(problemas::solution(&hub.store, &me, &id).await?))
}

/// `GET /api/puzzles/themes`.
async fn themes(
    State(hub): State<Arc<Hub>>,
    me: Identity,
) -> Result<Json<wire::ThemesView>, ApiError> {
    Ok(Json(problemas::themes(&hub.store, &me).await?))
}

/// `GET /api/puzzles/me`.
async fn me(State(hub): State<Arc<Hub>>, me: Identity) -> Result<Json<wire::Profile>, ApiError> {
    Ok(Json(problemas::profile(&hub.store, &me).await?))
}
