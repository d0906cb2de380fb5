//! What a player's page reads besides its ratings (which `ratings.rs`
//! reads): the account, and its finished games (alone or against one
//! opponent) with the score. Read only: nothing here writes.

use sqlx::Row;

use super::{game_from_row, GameRow, Store, StoreError, GAME_COLUMNS};

/// An account as its page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// Id (owner identity `u:ID`).
    pub id: String,
    /// Name as typed at sign-up.
    pub name: String,
    /// A managed account (a pupil of a class): its page is private.
    pub managed: bool,
    /// Sign-up time (wall, ms).
    pub created_ms: i64,
}

/// Finished games counted by result, from one player's side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
}

/// Finished games with a result (aborted games have none and are left out).
const FINISHED: &str = "status = 'over' AND result IS NOT NULL AND result <> '*'";

impl Store {
    /// An account by its name key (the skeleton of a name; accounts made
    /// before the names rule are keyed by the lower-cased name).
    pub async fn player_by_key(&self, name_key: &str) -> Result<Option<PlayerRow>, StoreError> {
        let row: Option<(String, String, i64, i64)> =
            sqlx::query_as("SELECT id, name, managed, created_ms FROM users WHERE name_key = $1")
                .bind(name_key)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(id, name, managed, created_ms)| PlayerRow {
            id,
            name,
            managed: managed != 0,
            created_ms,
        }))
    }

    /// The finished games of owner identity `owner`, last ended first (at
    /// most `limit`).
    pub async fn finished_games_of(
        &self,
        owner: &str,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE (white_owner = $1 OR black_owner = $2) \
             AND {FINISHED} ORDER BY updated_ms DESC, created_ms DESC, id LIMIT $3"
        ))
        .bind(owner)
        .bind(owner)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(game_from_row).collect()
    }

    /// The finished games between owner identities `a` and `b`, last
    /// ended first (at most `limit`).
    pub async fn finished_games_between(
        &self,
        a: &str,
        b: &str,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE ((white_owner = $1 AND black_owner = $2) \
             OR (white_owner = $3 AND black_owner = $4)) AND {FINISHED} \
             ORDER BY updated_ms DESC, created_ms DESC, id LIMIT $5"
        ))
        .bind(a)
        .bind(b)
        .bind(b)
        .bind(a)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(game_from_row).collect()
    }

    /// `owner`'s score in every finished game, or only in those against
    /// `against` (both owner identities).
    pub async fn score_of(&self, owner: &str, against: Option<&str>) -> Result<Score, StoreError> {
        // Grouped by the side `owner` played and the result: at most six
        // rows, whatever the number of games.
        let sql = format!(
            "SELECT CASE WHEN white_owner = $1 THEN 'white' ELSE 'black' END AS side, result, \
             COUNT(*) FROM games WHERE (white_owner = $2 OR black_owner = $3) AND {FINISHED} \
             AND (white_owner = $4 OR black_owner = $5 OR $6 = '') \
             GROUP BY side, result"
        );
        let other = against.unwrap_or("");
        let rows = sqlx::query(&sql)
            .bind(owner)
            .bind(owner)
            .bind(owner)
            .bind(other)
            .bind(other)
            .bind(other)
            .fetch_all(&self.pool)
            .await?;
        let mut score = Score::default();
        for r in &rows {
            let side: String = r.try_get(0)?;
            let result: String = r.try_get(1)?;
            let n: i64 = r.try_get(2)?;
            match (side.as_str(), result.as_str()) {
                ("white", "1-0") | ("black", "0-1") => score.wins += n,
                ("white", "0-1") | ("black", "1-0") => score.losses += n,
                (_, "1/2-1/2") => score.draws += n,
                _ => {
                    return Err(StoreError::Corrupt {
                        what: "games.result",
                        value: result,
                    })
                }
            }
        }
        Ok(score)
    }
}
