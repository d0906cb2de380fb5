//! The one error of every HTTP route: a status and typed JSON.

use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use escaque::Lang;
use serde_json::json;

use crate::proto::ErrorCode;

/// An HTTP error: status and typed JSON.
pub struct ApiError(
    pub(crate) StatusCode,
    pub(crate) &'static str,
    pub(crate) String,
    pub(crate) String,
);

impl ApiError {
    pub(crate) fn new(status: StatusCode, code: &'static str, es: &str, en: &str) -> ApiError {
        ApiError(status, code, es.into(), en.into())
    }

    pub(crate) fn bad(
        code: &'static str,
        es: impl Into<String>,
        en: impl Into<String>,
    ) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, code, es.into(), en.into())
    }

    pub(crate) fn storage() -> ApiError {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage",
            "no se pudo guardar; inténtalo de nuevo",
            "could not store it; try again",
        )
    }

    pub(crate) fn not_found() -> ApiError {
        let e = ErrorCode::NoSuchGame;
        ApiError(
            StatusCode::NOT_FOUND,
            e.code(),
            e.text(Lang::Es),
            e.text(Lang::En),
        )
    }

    pub(crate) fn limited() -> ApiError {
        let e = ErrorCode::RateLimited;
        ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            e.code(),
            e.text(Lang::Es),
            e.text(Lang::En),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.0,
            Json(json!({"t": "error", "code": self.1, "es": self.2, "en": self.3})),
        )
            .into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError::bad(
            "malformed",
            format!("cuerpo JSON no válido: {}", r.body_text()),
            format!("invalid JSON body: {}", r.body_text()),
        )
    }
}
