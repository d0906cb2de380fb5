//! The printable login cards of a class, HTML and PDF with QR codes (issue 26). Owner: helper E.

use std::sync::Arc;

use axum::Router;

use crate::Hub;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
}
