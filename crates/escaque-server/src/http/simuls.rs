//! Simultaneous exhibitions of a class (issue 26). Owner: helper C.

use std::sync::Arc;

use axum::Router;

use crate::Hub;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
}
