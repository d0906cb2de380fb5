//! What every route may ask for: who is asking ([`Identity`], set by the
//! guard layer from the cookies), a token from the per-address rate limit
//! ([`Limited`]), its JSON body ([`AppJson`], whose refusal the handler
//! takes when it reads it), and the guards (issue 53) instead of the same
//! check at the top of each handler: a class's routes ([`Teaching`],
//! [`Member`]), the routes a pupil in kid mode may not use ([`Unmanaged`]),
//! a tournament's organiser ([`Organising`]), and the routes for accounts
//! only ([`SignedIn`]).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use std::collections::HashMap;

use axum::extract::{ConnectInfo, FromRequestParts, Path};
use axum::http::request::Parts;

use super::{ApiError, Identity};
use crate::classes::{self, Role};
use crate::identity::SignedIn;
use crate::store::classes::ClassRow;
use crate::tournament::{self, Loaded};
use crate::Hub;

impl<S: Send + Sync> FromRequestParts<S> for Identity {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Identity, ApiError> {
        // The guard layer sets it on every route of the router; a route
        // outside it is a programming error, answered as a server fault.
        parts.extensions.get::<Identity>().cloned().ok_or_else(|| {
            eprintln!("escaque-server: a route without the identity layer");
            ApiError::internal()
        })
    }
}

/// A route that creates something or checks a password: one token from the
/// asking address's bucket (`http_burst`, refilled at `http_per_sec`), or
/// `429 rate_limited`.
pub struct Limited;

impl FromRequestParts<Arc<Hub>> for Limited {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> Result<Limited, ApiError> {
        let ip = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(a)| a.ip())
            .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
        if hub.http_limit.take(ip) {
            Ok(Limited)
        } else {
            Err(ApiError::limited())
        }
    }
}

/// A route's JSON body (issue 53: one extractor instead of each handler's
/// `Result<Json<T>, JsonRejection>`): read when the request arrives, its
/// refusal (`malformed`, `unsupported_media_type`… as
/// `crate::texts::json_rejection` words them) handed over when the handler
/// asks with [`AppJson::read`], so that the handler's own refusals that
/// come first (who may ask) still come first.
pub struct AppJson<T>(Result<T, ApiError>);

impl<T> AppJson<T> {
    /// The body, or why it was refused.
    pub fn read(self) -> Result<T, ApiError> {
        self.0
    }
}

impl<T, S> axum::extract::FromRequest<S> for AppJson<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = std::convert::Infallible;

    async fn from_request(
        req: axum::extract::Request,
        state: &S,
    ) -> Result<AppJson<T>, std::convert::Infallible> {
        let read = axum::Json::<T>::from_request(req, state).await;
        Ok(AppJson(read.map(|axum::Json(t)| t).map_err(ApiError::from)))
    }
}

/// The class of the route's `{id}`, asked for by one of its teachers: the
/// guard of a teacher's class route. Refused as [`classes::teaching`]
/// refuses (`404 class_not_found` for an outsider, `403 teachers_only` for
/// a pupil), before the handler reads its body; an unreadable `{id}` is
/// `400 malformed`.
pub struct Teaching {
    /// Who asks.
    pub me: Identity,
    /// The class.
    pub class: ClassRow,
}

impl FromRequestParts<Arc<Hub>> for Teaching {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> Result<Teaching, ApiError> {
        let me = Identity::from_request_parts(parts, hub).await?;
        let id = class_id(parts, hub).await?;
        let class = classes::teaching(hub, &me, &id).await?;
        Ok(Teaching { me, class })
    }
}

/// The class of the route's `{id}`, asked for by one of its teachers or
/// pupils, and which of the two: the guard of a class route both may use.
/// Refused as [`classes::member`] refuses (`404 class_not_found`).
pub struct Member {
    /// The class.
    pub class: ClassRow,
    /// Teacher or pupil.
    pub role: Role,
}

impl FromRequestParts<Arc<Hub>> for Member {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> Result<Member, ApiError> {
        let me = Identity::from_request_parts(parts, hub).await?;
        let id = class_id(parts, hub).await?;
        let (class, role) = classes::member(hub, &me, &id).await?;
        Ok(Member { class, role })
    }
}

/// Who asks, when it is an account (a pupil's too): the guard of the
/// routes for accounts only. A guest is refused `401 account_only`
/// ([`crate::identity::account_only`]), before the body is read.
impl<S: Send + Sync> FromRequestParts<S> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<SignedIn, ApiError> {
        SignedIn::of(Identity::from_request_parts(parts, state).await?)
    }
}

/// Who asks, when it is not a pupil's managed account: the guard of the
/// routes that make something a pupil may not make (kid mode: a pupil
/// plays its class's events, it does not make any). Refused `403
/// kid_mode` ([`classes::kid_mode`]), before the body is read.
pub struct Unmanaged(pub Identity);

impl<S: Send + Sync> FromRequestParts<S> for Unmanaged {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Unmanaged, ApiError> {
        let me = Identity::from_request_parts(parts, state).await?;
        if me.managed {
            return Err(classes::kid_mode());
        }
        Ok(Unmanaged(me))
    }
}

/// The tournament of the route's `{id}`, asked for by its owner or one of
/// its organisers: the guard of an organiser's route that checks the
/// right before anything else (a stranger learns nothing more). Refused
/// `404 no_such_tournament`, `403 not_organiser`; an unreadable `{id}` is
/// `400 malformed`. (A change made through `tournament::change` checks the
/// right again on the tournament it changes.)
pub struct Organising {
    /// Who asks.
    pub me: Identity,
    /// The tournament, as loaded for the check.
    pub loaded: Loaded,
}

impl FromRequestParts<Arc<Hub>> for Organising {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, hub: &Arc<Hub>) -> Result<Organising, ApiError> {
        let me = Identity::from_request_parts(parts, hub).await?;
        let id = route_id(parts, hub, "an organiser's guard").await?;
        let loaded = tournament::load(hub, &id).await?;
        tournament::organised_by(&loaded, &me)?;
        Ok(Organising { me, loaded })
    }
}

/// The route's `{id}` parameter of a class route.
async fn class_id(parts: &mut Parts, hub: &Arc<Hub>) -> Result<String, ApiError> {
    route_id(parts, hub, "a class guard").await
}

/// The route's `{id}` parameter (`guard` names the guard asking, for the
/// log of a route without one: a programming error).
async fn route_id(parts: &mut Parts, hub: &Arc<Hub>, guard: &str) -> Result<String, ApiError> {
    let Path(mut params) = Path::<HashMap<String, String>>::from_request_parts(parts, hub).await?;
    params.remove("id").ok_or_else(|| {
        eprintln!("escaque-server: {guard} on a route without {{id}}");
        ApiError::internal()
    })
}
