//! What a class's teachers change (issue 26): the class itself, its
//! pupils (real name, archive, move, password), the class board, and the
//! games the class page lists. The rows themselves are in
//! [`super::classes`].

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{game_from_row, now_ms, GameRow, Store, StoreError, GAME_COLUMNS};

/// A notice or a piece of homework on the class board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewsRow {
    /// Id.
    pub id: String,
    /// The class.
    pub class_id: String,
    /// The author's account name.
    pub author: String,
    /// When written (wall, ms).
    pub at_ms: i64,
    /// The text as written.
    pub text: String,
    /// Homework rather than a notice.
    pub homework: bool,
}

/// A game of a pupil that is being played now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayingRow {
    /// The game.
    pub game: String,
    /// White's owner identity.
    pub white_owner: Option<String>,
    /// Black's owner identity.
    pub black_owner: Option<String>,
}

impl Store {
    /// Changes a class's name, description and archived flag.
    pub async fn update_class(
        &self,
        id: &str,
        name: &str,
        description: &str,
        archived: bool,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE classes SET name = $1, description = $2, archived = $3 WHERE id = $4")
            .bind(name)
            .bind(description)
            .bind(i64::from(archived))
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The number of active (not archived) pupils of a class.
    pub async fn active_pupil_count(&self, class_id: &str) -> Result<i64, StoreError> {
        let (n,): (i64,) = sqlx::query_as(
            "SELECT COUNT(*) FROM class_pupils WHERE class_id = $1 AND archived = 0",
        )
        .bind(class_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(n)
    }

    /// Changes a pupil's real name and archived flag in a class.
    pub async fn update_pupil(
        &self,
        class_id: &str,
        user_id: &str,
        real_name: &str,
        archived: bool,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE class_pupils SET real_name = $1, archived = $2 \
             WHERE class_id = $3 AND user_id = $4",
        )
        .bind(real_name)
        .bind(i64::from(archived))
        .bind(class_id)
        .bind(user_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Moves a pupil from class `from` to class `to` (active there), with
    /// its real name; a row it had in `to` before (archived) is replaced.
    pub async fn move_pupil(&self, from: &str, to: &str, user_id: &str) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        let (real_name,): (String,) = sqlx::query_as(
            "SELECT real_name FROM class_pupils WHERE class_id = $1 AND user_id = $2",
        )
        .bind(from)
        .bind(user_id)
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM class_pupils WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO class_pupils (class_id, user_id, real_name, added_ms, archived) \
             VALUES ($1,$2,$3,$4,0)",
        )
        .bind(to)
        .bind(user_id)
        .bind(&real_name)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Sets an account's password hash and ends all its sessions (one
    /// transaction).
    pub async fn reset_password(&self, user_id: &str, pass_hash: &str) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE users SET pass_hash = $1 WHERE id = $2")
            .bind(pass_hash)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Ends every session of an account.
    pub async fn end_sessions_of(&self, user_id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores a notice of the class board.
    pub async fn insert_news(&self, n: &NewsRow, author_id: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO class_news (id, class_id, author_id, at_ms, text, homework) \
             VALUES ($1,$2,$3,$4,$5,$6)",
        )
        .bind(&n.id)
        .bind(&n.class_id)
        .bind(author_id)
        .bind(n.at_ms)
        .bind(&n.text)
        .bind(i64::from(n.homework))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The class board, newest first (at most `limit`).
    pub async fn class_news(&self, class_id: &str, limit: i64) -> Result<Vec<NewsRow>, StoreError> {
        let rows: Vec<(String, String, i64, String, i64)> = sqlx::query_as(
            "SELECT n.id, COALESCE(u.name, ''), n.at_ms, n.text, n.homework FROM class_news n \
             LEFT JOIN users u ON u.id = n.author_id WHERE n.class_id = $1 \
             ORDER BY n.at_ms DESC, n.id LIMIT $2",
        )
        .bind(class_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(id, author, at_ms, text, homework)| NewsRow {
                id,
                class_id: class_id.to_string(),
                author,
                at_ms,
                text,
                homework: homework != 0,
            })
            .collect())
    }

    /// Deletes a notice of class `class_id`; false if it has none with that
    /// id.
    pub async fn delete_news(&self, class_id: &str, id: &str) -> Result<bool, StoreError> {
        let r = sqlx::query("DELETE FROM class_news WHERE class_id = $1 AND id = $2")
            .bind(class_id)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() > 0)
    }

    /// The games started in class `class_id`, newest first (at most
    /// `limit`).
    pub async fn class_games(
        &self,
        class_id: &str,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.newest_of_class("games", GAME_COLUMNS, class_id, limit, game_from_row)
            .await
    }

    /// The rows of `table` (its `columns`, read by `from_row`) that belong
    /// to class `class_id`, newest first (at most `limit`): the class's
    /// games and its tournaments.
    pub(super) async fn newest_of_class<T>(
        &self,
        table: &str,
        columns: &str,
        class_id: &str,
        limit: i64,
        from_row: fn(&AnyRow) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {columns} FROM {table} WHERE class_id = $1 \
             ORDER BY created_ms DESC, id LIMIT $2"
        ))
        .bind(class_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(from_row).collect()
    }

    /// The games being played now (status `playing`) by a pupil of class
    /// `class_id` (any game, not only the class's), newest first.
    pub async fn pupils_playing(&self, class_id: &str) -> Result<Vec<PlayingRow>, StoreError> {
        let rows: Vec<(String, Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT g.id, g.white_owner, g.black_owner FROM games g WHERE g.status = 'playing' \
             AND (g.white_owner IN (SELECT 'u:' || p.user_id FROM class_pupils p WHERE p.class_id = $1) \
             OR g.black_owner IN (SELECT 'u:' || q.user_id FROM class_pupils q WHERE q.class_id = $2)) \
             ORDER BY g.created_ms DESC, g.id",
        )
        .bind(class_id)
        .bind(class_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(game, white_owner, black_owner)| PlayingRow {
                game,
                white_owner,
                black_owner,
            })
            .collect())
    }

    /// The finished games of owner identity `owner` (aborted ones too),
    /// last ended first, each with the time it ended (its last change,
    /// wall ms).
    pub async fn ended_games_of(
        &self,
        owner: &str,
        limit: i64,
    ) -> Result<Vec<(GameRow, i64)>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, updated_ms FROM games \
             WHERE (white_owner = $1 OR black_owner = $2) AND status = 'over' \
             ORDER BY updated_ms DESC, created_ms DESC, id LIMIT $3"
        ))
        .bind(owner)
        .bind(owner)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let n = GAME_COLUMNS.split(',').count();
        rows.iter()
            .map(|r| {
                let g = game_from_row(r)?;
                let ended: i64 = r.try_get(n)?;
                Ok((g, ended))
            })
            .collect()
    }
}
