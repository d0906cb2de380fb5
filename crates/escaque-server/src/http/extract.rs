//! What every route may ask for before its body: who is asking
//! ([`Identity`], set by the guard layer from the cookies) and a token from
//! the per-address rate limit ([`Limited`]).

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
