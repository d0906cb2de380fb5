//! `GET /salud` (alias `/health`): whether this process serves, for a proxy
//! or a supervisor in front of several processes (see `docs/protocol.md`,
//! "Health").

use std::sync::Arc;

use crate::proto::games::Health;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::Hub;

/// 200 `{"nodo", "estado": "up", "partidas"}` while this process serves;
/// 503 with `"estado": "stopping"` while it hands its games over.
pub(crate) async fn health(State(hub): State<Arc<Hub>>) -> Response {
    let stopping = hub.local.is_stopping();
    let body = Health {
        nodo: hub.node.name.to_string(),
        estado: if stopping { "stopping" } else { "up" },
        partidas: hub.local.count(),
    };
    let status = if stopping {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::OK
    };
    (status, Json(body)).into_response()
}
