//! A process's session lock (issue 60): on PostgreSQL every `escaque
//! servir` holds, on a connection of its own, a session-level advisory lock
//! named after it (`crate::store::cluster::session_lock_key`). PostgreSQL
//! releases that lock the moment the process's connection drops — the
//! process died, or lost its database — so another process knows at once
//! that the owner of a game is gone, instead of waiting for its lease to
//! run out ([`crate::store::Store::node_session_alive`], used by
//! `super::lease::take`).
//!
//! The lock says nothing about who may write a game: that is the lease's
//! epoch, checked by every game write (fencing). A process that lost only
//! its lock's connection may see its games taken; its writes are refused
//! from then on, and its renewal stops its tasks. A process that is
//! paused keeps its connection, and its lock: its games are taken when its
//! leases run out, as before.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{ConnectOptions, Connection};

use crate::store::cluster::session_lock_key;
use crate::store::StoreError;

/// Between two tries to take the lock while another session holds it.
const TRY_EVERY: Duration = Duration::from_millis(100);
/// How often the connection is checked.
const CHECK_EVERY: Duration = Duration::from_secs(1);
/// The longest wait between two tries to connect again.
const BACKOFF_MAX: Duration = Duration::from_secs(5);

/// The held lock: released when dropped (the connection closes).
pub struct SessionLock {
    task: tokio::task::JoinHandle<()>,
}

impl Drop for SessionLock {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn connect(opts: &PgConnectOptions) -> Result<PgConnection, sqlx::Error> {
    opts.connect().await
}

async fn try_lock(c: &mut PgConnection, key: (i32, i32)) -> Result<bool, sqlx::Error> {
    let (got,): (bool,) = sqlx::query_as("SELECT pg_try_advisory_lock($1, $2)")
        .bind(key.0)
        .bind(key.1)
        .fetch_one(&mut *c)
        .await?;
    Ok(got)
}

/// Takes process `name`'s session lock on PostgreSQL database `url` and
/// keeps it for as long as the returned [`SessionLock`] lives: the
/// connection is checked every second and, when it is lost, opened again
/// and the lock taken again. While another session holds the lock (a
/// process of the same name killed a moment ago whose session is still
/// ending, or one still running), it is tried again every 100 ms; until
/// then this process's games are judged by their leases alone, as before.
pub async fn hold(url: &str, name: &str) -> Result<SessionLock, StoreError> {
    let opts = PgConnectOptions::from_str(url)?.application_name(&format!("escaque-owner-{name}"));
    let key = session_lock_key(name);
    let mut conn = connect(&opts).await?;
    let held = try_lock(&mut conn, key).await?;
    let name = name.to_string();
    let task = tokio::spawn(keep(opts, key, name, conn, held));
    Ok(SessionLock { task })
}

/// Keeps the lock's connection alive, and takes the lock again on a new
/// connection when it was lost.
async fn keep(
    opts: PgConnectOptions,
    key: (i32, i32),
    name: String,
    conn: PgConnection,
    held: bool,
) {
    let mut conn = Some(conn);
    let mut held = held;
    let mut backoff = TRY_EVERY;
    let mut told = false;
    loop {
        match conn.as_mut() {
            Some(c) if !held => {
                tokio::time::sleep(TRY_EVERY).await;
                match try_lock(c, key).await {
                    Ok(true) => held = true,
                    Ok(false) => {
                        if !told {
                            told = true;
                            eprintln!(
                                "escaque-server: otra sesión tiene el cerrojo de {name}; se reintenta / \
                                 another session holds the lock of {name}; trying again"
                            );
                        }
                    }
                    Err(_) => conn = None,
                }
            }
            Some(c) => {
                tokio::time::sleep(CHECK_EVERY).await;
                if let Err(e) = c.ping().await {
                    eprintln!(
                        "escaque-server: el cerrojo de sesión de {name} se perdió / \
                         the session lock of {name} was lost: {e}"
                    );
                    conn = None;
                    held = false;
                }
            }
            None => {
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(BACKOFF_MAX);
                let Ok(mut c) = connect(&opts).await else {
                    continue;
                };
                match try_lock(&mut c, key).await {
                    Ok(got) => {
                        backoff = TRY_EVERY;
                        held = got;
                        conn = Some(c);
                    }
                    Err(e) => eprintln!("escaque-server: cerrojo de sesión / session lock: {e}"),
                }
            }
        }
    }
}
