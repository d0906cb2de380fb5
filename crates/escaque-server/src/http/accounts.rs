//! Accounts: sign up, log in, log out.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::Json;

use super::{cookie, names, set_cookie, ApiError, ApiResult, AppJson, Limited, SESSION_COOKIE};
use crate::proto::games::Credentials;
use crate::{hash_secret, new_id, new_secret, Hub};

/// The name rule (see [`super::names`]), as an HTTP refusal.
fn check_name(name: &str) -> Result<names::AccountName, ApiError> {
    names::check(name).map_err(|e| {
        let (es, en) = e.texts();
        ApiError::bad("bad_name", es, en)
    })
}

pub(super) async fn signup(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    body: AppJson<Credentials>,
) -> ApiResult {
    let c = body.read()?;
    let name = check_name(&c.name)?;
    let plen = c.password.chars().count();
    if !(8..=200).contains(&plen) {
        return Err(ApiError::bad(
            "bad_password",
            "la contraseña debe tener de 8 a 200 caracteres",
            "the password must have 8 to 200 characters",
        ));
    }
    let hash = hash_off_thread(c.password.clone()).await?;
    let user = crate::store::UserRow {
        id: new_id(),
        name: name.name,
        pass_hash: hash,
    };
    let created = hub.store.create_user_keyed(&user, &name.skeleton).await?;
    if !created {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "name_taken",
            "ese nombre ya está en uso",
            "that name is taken",
        ));
    }
    start_session(&hub, &user.id, &user.name).await
}

pub(super) async fn login(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    body: AppJson<Credentials>,
) -> ApiResult {
    let c = body.read()?;
    // By skeleton; an account made before the names rule is keyed by its
    // lower-cased name.
    let mut user = hub
        .store
        .user_by_name_key(&names::skeleton(&c.name))
        .await?;
    if user.is_none() {
        user = hub.store.user_by_name(&c.name).await?;
    }
    let wrong = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "bad_login",
            "nombre o contraseña incorrectos",
            "wrong name or password",
        )
    };
    // An unknown name is checked against a hash nobody's password matches,
    // with the same Argon2 parameters: the answer takes as long as for a
    // wrong password, so its time does not tell which names exist.
    let hash = user.as_ref().map(|u| u.pass_hash.clone());
    let password = c.password.clone();
    let ok = tokio::task::spawn_blocking(move || match hash {
        Some(h) => verify_password(&password, &h),
        None => {
            std::hint::black_box(verify_password(&password, dummy_hash()));
            false
        }
    })
    .await
    .unwrap_or(false);
    match user {
        Some(user) if ok => start_session(&hub, &user.id, &user.name).await,
        _ => Err(wrong()),
    }
}

/// The hash an unknown name's password is checked against: of a random
/// password (thrown away), made once per process with [`hash_password`]'s
/// parameters.
pub(super) fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password(&crate::new_secret()).unwrap_or_default())
}

pub(super) async fn start_session(hub: &Hub, id: &str, name: &str) -> ApiResult {
    let token = new_secret();
    hub.store.insert_session(&hash_secret(&token), id).await?;
    let mut resp = Json(crate::proto::games::LoggedIn {
        name: name.to_string(),
        account: true,
    })
    .into_response();
    resp.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(SESSION_COOKIE, &token, Some(30 * 24 * 3600)),
    );
    Ok(resp)
}

pub(super) async fn logout(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> ApiResult {
    if let Some(tok) = cookie(&headers, SESSION_COOKIE) {
        let _ = hub.store.delete_session(&hash_secret(tok)).await;
    }
    let mut resp = Json(crate::proto::common::DONE).into_response();
    resp.headers_mut()
        .append(header::SET_COOKIE, set_cookie(SESSION_COOKIE, "", Some(0)));
    Ok(resp)
}

/// Argon2id with the crate's default (OWASP) parameters, as a PHC string.
pub fn hash_password(password: &str) -> Option<String> {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let mut salt_bytes = [0u8; 16];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut salt_bytes);
    let salt = SaltString::encode_b64(&salt_bytes).ok()?;
    argon2::Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .ok()
        .map(|h| h.to_string())
}

/// [`hash_password`] on a blocking thread (Argon2 is slow on purpose), a
/// failure logged and answered as an internal error.
pub(super) async fn hash_off_thread(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .ok()
        .flatten()
        .ok_or_else(|| {
            eprintln!("escaque-server: hashing a password failed");
            ApiError::internal()
        })
}

/// Checks a password against a PHC string.
pub fn verify_password(password: &str, phc: &str) -> bool {
    use argon2::password_hash::{PasswordHash, PasswordVerifier};
    PasswordHash::new(phc)
        .map(|h| {
            argon2::Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}
