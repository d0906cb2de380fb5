//! Analysis of games (issue 27): requests on a bounded queue, their progress
//! and results, the annotated PGN, and the analysis board's lines.

use std::sync::Arc;

use axum::Router;

use crate::Hub;

/// The analysis routes.
pub fn routes() -> Router<Arc<Hub>> {
    Router::new()
}
