//! An HTTP refusal: [`ApiError`] (`crate::error`) as a response — its status
//! and the body every refusal over HTTP has, the shape of the WebSocket's
//! error message: `{"t":"error","code":…,"es":…,"en":…}` (no `id`: an HTTP
//! request has its own answer) — and the web framework's rejections of a
//! body, a path or a query as refusals. Handlers return `Result<_,
//! ApiError>` and use `?`.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::response::{IntoResponse, Response};
use axum::Json;

use axum::http::StatusCode;

use crate::error::ApiError;
use crate::rating::RatedRefusal;
use crate::texts;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.0,
            Json(crate::proto::common::ErrorBody {
                t: "error",
                code: self.1,
                es: &self.2,
                en: &self.3,
            }),
        )
            .into_response()
    }
}

/// The ratings' refusal: a guest, or a rating outside a seek's range, is
/// forbidden; the rest is a bad request.
impl From<RatedRefusal> for ApiError {
    fn from(r: RatedRefusal) -> ApiError {
        let status = match r {
            RatedRefusal::NeedsAccount | RatedRefusal::OutOfRange => StatusCode::FORBIDDEN,
            _ => StatusCode::BAD_REQUEST,
        };
        let (es, en) = r.text();
        ApiError::new(status, r.code(), es, en)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        let (status, es, en) = texts::json_rejection(&r);
        ApiError(status, "malformed", es, en)
    }
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> ApiError {
        ApiError::bad(
            "malformed",
            "la dirección no es válida",
            format!("invalid address: {}", r.body_text()),
        )
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        ApiError::bad(
            "malformed",
            "los parámetros de la dirección no son válidos",
            format!("invalid query parameters: {}", r.body_text()),
        )
    }
}
