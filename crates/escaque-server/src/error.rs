//! The one refusal of the server's domain (issue 53): a kind (as an HTTP
//! status), a stable code, and Spanish and English text. The domain
//! modules (classes, tournaments, ratings, analysis) return it without
//! knowing HTTP; `crate::http::error` turns it into a response (the
//! `{"t":"error","code","es","en"}` body) and converts the web framework's
//! own rejections into it. Storage failures, the protocol's [`ErrorCode`]
//! and the rules library's errors convert with `From`; a storage failure's
//! cause is logged once, by [`log_storage`], and the client is told only
//! that storing failed.

use axum::http::StatusCode;
use escaque::clock::TimeControlError;
use escaque::{FenError, Lang, Localized};

use crate::proto::ErrorCode;
use crate::store::StoreError;

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

/// Logs a storage failure's cause (the one place it is written): every
/// refusal built from a [`StoreError`], and the background tasks that have
/// nobody to answer.
pub fn log_storage(e: &StoreError) {
    eprintln!("escaque-server: almacenamiento / storage: {e}");
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        log_storage(&e);
        ApiError::storage()
    }
}

impl From<ErrorCode> for ApiError {
    fn from(e: ErrorCode) -> ApiError {
        let status = match e {
            ErrorCode::NoSuchGame => StatusCode::NOT_FOUND,
            ErrorCode::BadSeat | ErrorCode::NotAPlayer => StatusCode::FORBIDDEN,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::Storage | ErrorCode::Retry => StatusCode::SERVICE_UNAVAILABLE,
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
