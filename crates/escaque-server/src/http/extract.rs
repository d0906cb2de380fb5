//! What every route may ask for: who is asking ([`Identity`], set by the
//! guard layer from the cookies), a token from the per-address rate limit
//! ([`Limited`]), and its JSON body ([`AppJson`], whose refusal the handler
//! takes when it reads it).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use super::{ApiError, Identity};
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
