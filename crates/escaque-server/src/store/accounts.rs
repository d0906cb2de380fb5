//! Accounts and login sessions.

use super::{now_ms, Store, StoreError};

/// An account.
#[derive(Clone, Debug)]
pub struct UserRow {
    /// Id.
    pub id: String,
    /// Name as typed at sign-up.
    pub name: String,
    /// Argon2id PHC string.
    pub pass_hash: String,
}

impl Store {
    /// An account by name (case-insensitive: the key accounts made before
    /// the names rule were stored under).
    pub async fn user_by_name(&self, name: &str) -> Result<Option<UserRow>, StoreError> {
        self.user_by_name_key(&name.to_lowercase()).await
    }

    /// Stores a login session (the hash of its token).
    pub async fn insert_session(&self, token_hash: &str, user: &str) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO sessions (token_hash, user_id, created_ms) VALUES ($1,$2,$3)")
            .bind(token_hash)
            .bind(user)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The account behind a session token hash: (id, name, managed).
    pub async fn session_user(
        &self,
        token_hash: &str,
    ) -> Result<Option<(String, String, bool)>, StoreError> {
        let row: Option<(String, String, i64)> = sqlx::query_as(
            "SELECT users.id, users.name, users.managed FROM sessions \
             JOIN users ON users.id = sessions.user_id WHERE sessions.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|(id, name, managed)| (id, name, managed != 0)))
    }

    /// Ends a session.
    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

// Accounts keyed by a name's skeleton (crate::http's names rule): the key
// comes from the caller, so the rule lives in one place.
impl Store {
    /// Creates an account whose unique key is `name_key`; false if taken.
    pub async fn create_user_keyed(&self, u: &UserRow, name_key: &str) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "INSERT INTO users (id, name, name_key, pass_hash, created_ms) VALUES ($1,$2,$3,$4,$5)",
        )
        .bind(&u.id)
        .bind(&u.name)
        .bind(name_key)
        .bind(&u.pass_hash)
        .bind(now_ms())
        .execute(&self.pool)
        .await;
        match r {
            Ok(_) => Ok(true),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// An account by its unique key.
    pub async fn user_by_name_key(&self, name_key: &str) -> Result<Option<UserRow>, StoreError> {
        let row: Option<(String, String, String)> =
            sqlx::query_as("SELECT id, name, pass_hash FROM users WHERE name_key = $1")
                .bind(name_key)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(id, name, pass_hash)| UserRow {
            id,
            name,
            pass_hash,
        }))
    }
}
