//! The one refusal of the server's domain (issue 53): a [`Kind`] of
//! refusal, a stable code, and Spanish and English text. The domain modules
//! (classes, tournaments, ratings, analysis, the lobby) refuse without
//! knowing HTTP: each says what went wrong with an enum of its own
//! (`classes::Refusal`, `analysis::Refusal`, `lobby::Refusal`,
//! `rating::RatedRefusal`, the protocol's [`ErrorCode`]) or, for a field's
//! text, [`ApiError::bad`]; `crate::http::error` is the one place that
//! knows HTTP statuses: it gives each kind and each domain refusal its
//! status, writes the `{"t":"error","code","es","en"}` body and converts
//! the web framework's own rejections. Storage failures and the rules
//! library's errors convert with `From`; a storage failure's cause is logged
//! once, by [`log_storage`], and the client is told only that storing
//! failed.

use escaque::clock::TimeControlError;
use escaque::{FenError, Lang, Localized};

use crate::proto::ErrorCode;
use crate::store::StoreError;

/// What kind of refusal: what went wrong, in the domain's words.
/// `crate::http::error` alone writes each as an HTTP status.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The request itself is wrong (a field, a value).
    Invalid,
    /// Nobody signed in, or wrong credentials.
    Unauthenticated,
    /// The asker may not do this.
    Forbidden,
    /// No such thing (or the asker may not know it exists).
    NotFound,
    /// The thing is not in a state that allows it (taken, finished, changed).
    Conflict,
    /// It existed and is no more (an expired code).
    Gone,
    /// The text sent is too large.
    TooLarge,
    /// A body that is not JSON (no `Content-Type: application/json`).
    NotJson,
    /// Well formed, but its content cannot be used (an illegal move, a PGN
    /// that does not read).
    Unreadable,
    /// Too many requests lately.
    Limited,
    /// A fault of the server itself.
    Internal,
    /// Storage or an engine did not answer: try again.
    Unavailable,
}

/// A refusal: its kind, stable code, Spanish and English text.
#[derive(Debug)]
pub struct ApiError(
    pub(crate) Kind,
    pub(crate) &'static str,
    pub(crate) String,
    pub(crate) String,
);

impl ApiError {
    /// A refusal of kind `kind` (`crate::http::error` also reads an HTTP
    /// status as a kind, for the code that still names one).
    pub(crate) fn new(
        kind: impl Into<Kind>,
        code: &'static str,
        es: impl Into<String>,
        en: impl Into<String>,
    ) -> ApiError {
        ApiError(kind.into(), code, es.into(), en.into())
    }

    pub(crate) fn bad(
        code: &'static str,
        es: impl Into<String>,
        en: impl Into<String>,
    ) -> ApiError {
        ApiError(Kind::Invalid, code, es.into(), en.into())
    }

    pub(crate) fn storage() -> ApiError {
        ApiError::new(
            Kind::Unavailable,
            "storage",
            "no se pudo guardar; inténtalo de nuevo",
            "could not store it; try again",
        )
    }

    /// A fault of the server itself (logged where it happens).
    pub(crate) fn internal() -> ApiError {
        ApiError::new(
            Kind::Internal,
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

    /// Joining one's own challenge or accepting one's own seek
    /// ([`crate::lobby::Refusal::OwnGame`]).
    pub(crate) fn own_game() -> ApiError {
        crate::lobby::Refusal::OwnGame.into()
    }

    /// A route that does not exist.
    pub(crate) fn no_route() -> ApiError {
        ApiError::new(
            Kind::NotFound,
            "not_found",
            "no existe esa dirección",
            "there is no such address",
        )
    }

    /// The stable code (for tests and logs).
    pub fn code(&self) -> &'static str {
        self.1
    }

    /// The kind of refusal (its HTTP status: `crate::http::error`).
    pub fn kind(&self) -> Kind {
        self.0
    }
}

/// Logs a storage failure's cause: the store's one helper
/// ([`crate::store::log_failure`]), under the name the domains call.
pub use crate::store::log_failure as log_storage;

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        log_storage(&e);
        ApiError::storage()
    }
}

impl From<ErrorCode> for ApiError {
    fn from(e: ErrorCode) -> ApiError {
        let kind = match e {
            ErrorCode::NoSuchGame => Kind::NotFound,
            ErrorCode::BadSeat | ErrorCode::NotAPlayer => Kind::Forbidden,
            ErrorCode::RateLimited => Kind::Limited,
            ErrorCode::Storage | ErrorCode::Retry => Kind::Unavailable,
            _ => Kind::Invalid,
        };
        ApiError(kind, e.code(), e.text(Lang::Es), e.text(Lang::En))
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
