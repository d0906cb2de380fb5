//! The one error of every HTTP route: a status and typed JSON.
//!
//! Every refusal over HTTP has the shape of the WebSocket's error message:
//! `{"t":"error","code":…,"es":…,"en":…}` (no `id`: an HTTP request has its
//! own answer). Handlers return `Result<_, ApiError>` and use `?`: storage
//! failures, JSON body rejections, the protocol's [`ErrorCode`] and the rules
//! library's errors convert with `From`. A storage failure's cause is logged
//! once, here; the client is told only that storing failed.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use escaque::clock::TimeControlError;
use escaque::{FenError, Lang, Localized};
use serde_json::json;

use crate::proto::ErrorCode;
use crate::store::StoreError;
use crate::texts;

/// An HTTP error: status, stable code, Spanish and English text.
#[derive(Debug)]
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

    /// A fault of the server itself (logged where it happens).
    pub(crate) fn internal() -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "error interno del servidor; no se hizo nada",
            "internal server error; nothing was done",
        )
    }

    pub(crate) fn not_found() -> ApiError {
        ErrorCode::NoSuchGame.into()
    }

    pub(crate) fn limited() -> ApiError {
        ErrorCode::RateLimited.into()
    }

    /// Joining one's own challenge or accepting one's own seek: one person
    /// may not hold both seats of a game.
    pub(crate) fn own_game() -> ApiError {
        ApiError::new(
            StatusCode::CONFLICT,
            "own_game",
            "no puedes jugar contra ti: la invitación es tuya",
            "you cannot play yourself: the invitation is yours",
        )
    }

    /// A route that does not exist.
    pub(crate) fn no_route() -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "no existe esa dirección",
            "there is no such address",
        )
    }

    /// The stable code (for tests and logs).
    pub fn code(&self) -> &'static str {
        self.1
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        self.0
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

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        eprintln!("escaque-server: almacenamiento / storage: {e}");
        ApiError::storage()
    }
}

impl From<ErrorCode> for ApiError {
    fn from(e: ErrorCode) -> ApiError {
        let status = match e {
            ErrorCode::NoSuchGame => StatusCode::NOT_FOUND,
            ErrorCode::BadSeat | ErrorCode::NotAPlayer => StatusCode::FORBIDDEN,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::Storage => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError(status, e.code(), e.text(Lang::Es), e.text(Lang::En))
    }
}

impl From<FenError> for ApiError {
    fn from(e: FenError) -> ApiError {
        ApiError::bad("bad_fen", e.message(Lang::Es), e.message(Lang::En))
    }
}

impl From<TimeControlError> for ApiError {
    fn from(e: TimeControlError) -> ApiError {
        ApiError::bad("bad_time_control", e.message(Lang::Es), e.message(Lang::En))
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
