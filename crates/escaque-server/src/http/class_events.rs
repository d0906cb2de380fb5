//! A class's tournaments and its pupils' progress (issue 26). Owner: helper D.

use std::sync::Arc;

use axum::Router;

use crate::Hub;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
}
