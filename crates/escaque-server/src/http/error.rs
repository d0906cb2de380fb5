//! An HTTP refusal: [`ApiError`] (`crate::error`) as a response — its status
//! and the body every refusal over HTTP has, the shape of the WebSocket's
//! error message: `{"t":"error","code":…,"es":…,"en":…}` (no `id`: an HTTP
//! request has its own answer) — and the web framework's rejections of a
//! body, a path or a query as refusals. Handlers return `Result<_,
//! ApiError>` and use `?`.
//!
//! This is the one place that knows HTTP statuses (issue 53): each
//! [`Kind`] of refusal has its status here ([`status_of`]), and each
//! domain's own refusal enum (classes, analysis, the lobby, ratings) its
//! kind, so a domain module never names a status.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::response::{IntoResponse, Response};
use axum::Json;

use axum::http::StatusCode;

use crate::error::{ApiError, Kind};
use crate::rating::RatedRefusal;
use crate::{analysis, classes, games, lobby, texts};

/// The HTTP status of a kind of refusal.
pub fn status_of(kind: Kind) -> StatusCode {
    match kind {
        Kind::Invalid => StatusCode::BAD_REQUEST,
        Kind::Unauthenticated => StatusCode::UNAUTHORIZED,
        Kind::Forbidden => StatusCode::FORBIDDEN,
        Kind::NotFound => StatusCode::NOT_FOUND,
        Kind::Conflict => StatusCode::CONFLICT,
        Kind::Gone => StatusCode::GONE,
        Kind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        Kind::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        Kind::Unreadable => StatusCode::UNPROCESSABLE_ENTITY,
        Kind::Limited => StatusCode::TOO_MANY_REQUESTS,
        Kind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        Kind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// A status read as a kind of refusal: for the modules that still name a
/// status when they refuse (`ApiError::new(StatusCode::…, …)`; issue 53
/// moves them to a kind or an enum of their own). Every status the server
/// refuses with has its kind; any other is a bad request if it is a
/// client's error, else an internal one.
impl From<StatusCode> for Kind {
    fn from(s: StatusCode) -> Kind {
        match s {
            StatusCode::UNAUTHORIZED => Kind::Unauthenticated,
            StatusCode::FORBIDDEN => Kind::Forbidden,
            StatusCode::NOT_FOUND => Kind::NotFound,
            StatusCode::CONFLICT => Kind::Conflict,
            StatusCode::GONE => Kind::Gone,
            StatusCode::PAYLOAD_TOO_LARGE => Kind::TooLarge,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => Kind::NotJson,
            StatusCode::UNPROCESSABLE_ENTITY => Kind::Unreadable,
            StatusCode::TOO_MANY_REQUESTS => Kind::Limited,
            StatusCode::INTERNAL_SERVER_ERROR => Kind::Internal,
            StatusCode::SERVICE_UNAVAILABLE => Kind::Unavailable,
            s if s.is_client_error() => Kind::Invalid,
            _ => Kind::Internal,
        }
    }
}

impl ApiError {
    /// The HTTP status this refusal is answered with.
    pub fn status(&self) -> StatusCode {
        status_of(self.0)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            status_of(self.0),
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
        let kind = match r {
            RatedRefusal::NeedsAccount | RatedRefusal::OutOfRange => Kind::Forbidden,
            _ => Kind::Invalid,
        };
        let (es, en) = r.text();
        ApiError::new(kind, r.code(), es, en)
    }
}

/// A class's refusal: an outsider is told the class does not exist.
impl From<classes::Refusal> for ApiError {
    fn from(r: classes::Refusal) -> ApiError {
        use classes::Refusal::*;
        let kind = match r {
            ClassNotFound | PupilNotFound | PupilNotInClass(_) | NoSuchAccount | NewsNotFound => {
                Kind::NotFound
            }
            TeachersOnly | KidMode | NotATeacher | ClassOnly => Kind::Forbidden,
            BadClassCode => Kind::Unauthenticated,
            TeacherAlready => Kind::Conflict,
            ClassFull { .. } | NotEnoughPupils => Kind::Invalid,
        };
        let code = r.code();
        let (es, en) = r.text();
        ApiError::new(kind, code, es, en)
    }
}

/// A class's domain failure: its refusal, or storage (logged here once).
impl From<classes::ClassError> for ApiError {
    fn from(e: classes::ClassError) -> ApiError {
        match e {
            classes::ClassError::Refused(r) => r.into(),
            classes::ClassError::Storage(e) => e.into(),
        }
    }
}

/// An analysis' refusal.
impl From<analysis::Refusal> for ApiError {
    fn from(r: analysis::Refusal) -> ApiError {
        use analysis::Refusal::*;
        let kind = match r {
            NoGame | NoAnalysis => Kind::NotFound,
            Busy { .. } => Kind::Limited,
            NotDone | GameNotOver => Kind::Conflict,
            TooLarge { .. } => Kind::TooLarge,
            EngineUnavailable => Kind::Unavailable,
            Unreadable { .. } => Kind::Unreadable,
        };
        let code = r.code();
        let (es, en) = r.text();
        ApiError::new(kind, code, es, en)
    }
}

/// A new game's start or colours that cannot be worked out: a fault of
/// the request.
impl From<games::Refusal> for ApiError {
    fn from(r: games::Refusal) -> ApiError {
        let (es, en) = r.text();
        ApiError::new(Kind::Invalid, r.code(), es, en)
    }
}

/// A seek's, a challenge's or a game's refusal.
impl From<lobby::Refusal> for ApiError {
    fn from(r: lobby::Refusal) -> ApiError {
        use lobby::Refusal::*;
        let kind = match r {
            SeekGone | NotYourSeek => Kind::NotFound,
            SeatTaken | OwnGame => Kind::Conflict,
        };
        let code = r.code();
        let (es, en) = r.text();
        ApiError::new(kind, code, es, en)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        let (status, es, en) = texts::json_rejection(&r);
        ApiError(status.into(), "malformed", es, en)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind's status reads back as that kind, so a module that still
    /// names a status refuses exactly as before.
    #[test]
    fn every_kind_round_trips_through_its_status() {
        use Kind::*;
        for k in [
            Invalid,
            Unauthenticated,
            Forbidden,
            NotFound,
            Conflict,
            Gone,
            TooLarge,
            NotJson,
            Unreadable,
            Limited,
            Internal,
            Unavailable,
        ] {
            assert_eq!(Kind::from(status_of(k)), k, "{k:?}");
        }
        assert_eq!(Kind::from(StatusCode::BAD_REQUEST), Invalid);
        assert_eq!(Kind::from(StatusCode::IM_A_TEAPOT), Invalid);
        assert_eq!(Kind::from(StatusCode::BAD_GATEWAY), Internal);
    }
}
