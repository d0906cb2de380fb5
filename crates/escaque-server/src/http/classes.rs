//! The class routes (issue 26): classes, teachers, pupils, class-code login, the class board, games a teacher starts. Owner: helper A.

use std::sync::Arc;

use axum::Router;

use crate::Hub;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
}
