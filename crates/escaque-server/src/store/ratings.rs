//! Ratings in storage: every statement on `ratings`, `rating_history` and
//! the rating columns of `games` (the rules are in `crate::rating`).
//!
//! A finished rated game changes both players' ratings in one transaction
//! ([`Store::apply_rating`]) whose first statement claims the game
//! (`rating_applied` from 0 to 1): a game is applied once, however many
//! times it is asked for (the actor at its end, the sweep at start, two
//! processes). Two games of one player ending together are applied one
//! after the other: on SQLite the claim takes the database's write lock
//! before anything is read; on PostgreSQL the ratings rows are locked
//! (`FOR UPDATE`, in the order of the account ids).

use escaque_torneo::glicko::Glicko;
use sqlx::Row;

use super::{now_ms, Backend, GameRow, Store, StoreError, GAME_COLUMNS};

/// One account's rating in one pool, as stored.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// Rating, deviation (as after the last game, not aged) and volatility.
    pub glicko: Glicko,
    /// Rated games played in the pool.
    pub games: i64,
    /// When the last rated game in the pool ended (wall, ms).
    pub updated_ms: i64,
}

/// One point of a rating's history: after `game`, at `at_ms`.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    /// When the game ended (wall, ms).
    pub at_ms: i64,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it.
    pub deviation: f64,
    /// The game.
    pub game: String,
}

/// A finished rated game not yet applied, as the transaction that applies
/// it reads it.
#[derive(Clone, Debug)]
pub struct PendingGame {
    /// The game.
    pub row: GameRow,
    /// How many half-moves were played.
    pub plies: i64,
    /// The account ids of White and Black (`None`: not an account).
    pub users: [Option<String>; 2],
    /// Their ratings in the game's pool (`None`: never rated there).
    pub ratings: [Option<RatingRow>; 2],
    /// Whether each is a managed account (a pupil: a lower start).
    pub managed: [bool; 2],
}

/// What applying a game changes: each side's new rating and the change of
/// its whole-number rating.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatingUpdate {
    /// White's and Black's ratings after the game.
    pub after: [Glicko; 2],
    /// The change of each side's shown rating.
    pub diffs: [i64; 2],
}

/// The account id of an owner identity key (`u:ID`); `None` for a guest.
pub fn account_of(owner: Option<&str>) -> Option<&str> {
    owner.and_then(|o| o.strip_prefix("u:"))
}

fn rating_from_row(r: &sqlx::any::AnyRow) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        glicko: Glicko {
            rating: r.try_get(0)?,
            deviation: r.try_get(1)?,
            volatility: r.try_get(2)?,
        },
        games: r.try_get(3)?,
        updated_ms: r.try_get(4)?,
    })
}

impl Store {
    /// An account's rating in a pool, if it has played there.
    pub async fn rating(&self, user: &str, perf: &str) -> Result<Option<RatingRow>, StoreError> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, games, updated_ms FROM ratings \
             WHERE user_id = $1 AND perf = $2 AND games > 0",
        )
        .bind(user)
        .bind(perf)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(rating_from_row).transpose()?)
    }

    /// Every pool an account has a rating in: (pool, rating).
    pub async fn ratings_of(&self, user: &str) -> Result<Vec<(String, RatingRow)>, StoreError> {
        let rows = sqlx::query(
            "SELECT rating, deviation, volatility, games, updated_ms, perf FROM ratings \
             WHERE user_id = $1 AND games > 0 ORDER BY perf",
        )
        .bind(user)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(5)?, rating_from_row(r)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::Db)
    }

    /// An account's rating history in a pool, oldest first.
    pub async fn rating_history(
        &self,
        user: &str,
        perf: &str,
    ) -> Result<Vec<HistoryPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT at_ms, rating, deviation, game FROM rating_history \
             WHERE user_id = $1 AND perf = $2 ORDER BY at_ms, game",
        )
        .bind(user)
        .bind(perf)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(HistoryPoint {
                    at_ms: r.try_get(0)?,
                    rating: r.try_get(1)?,
                    deviation: r.try_get(2)?,
                    game: r.try_get(3)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::Db)
    }

    /// Whether an account is managed (a pupil of a class).
    pub async fn is_managed(&self, user: &str) -> Result<bool, StoreError> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT managed FROM users WHERE id = $1")
            .bind(user)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some_and(|r| r.0 != 0))
    }

    /// Records a side's rating when the game began (the second player of a
    /// challenge, seated after the game was stored), by the game's task
    /// holding `fence` ([`StoreError::Fenced`] otherwise).
    pub async fn set_game_rating(
        &self,
        fence: &super::Fence,
        game: &str,
        white: bool,
        rating: i64,
    ) -> Result<(), StoreError> {
        let col = if white {
            "white_rating"
        } else {
            "black_rating"
        };
        let done = sqlx::query(&format!(
            "UPDATE games SET {col} = $1 WHERE id = $2 AND owner_node = $3 AND lease_epoch = $4"
        ))
        .bind(rating)
        .bind(game)
        .bind(&*fence.node)
        .bind(fence.epoch)
        .execute(&self.pool)
        .await?;
        if done.rows_affected() != 1 {
            return Err(StoreError::Fenced);
        }
        Ok(())
    }

    /// Finished rated games whose result has not yet been applied (the
    /// sweep at start), oldest first.
    pub async fn unapplied_rated_games(&self) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT id FROM games WHERE status = 'over' AND rated = 1 AND rating_applied = 0 \
             ORDER BY created_ms",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    /// Applies a finished rated game once, in one transaction: claims it,
    /// reads it and both players' ratings (locked), asks `compute` for the
    /// change, stores the new ratings, one history row each and the changes
    /// in the game. `compute` answering `None` (a game that changes no
    /// rating: aborted, no result, too short) marks the game dealt with and
    /// changes nothing else. `Ok(None)` also when the game is not a
    /// finished rated game, or was applied already.
    pub async fn apply_rating<F>(
        &self,
        game: &str,
        compute: F,
    ) -> Result<Option<RatingUpdate>, StoreError>
    where
        F: FnOnce(&PendingGame) -> Option<RatingUpdate>,
    {
        let mut tx = self.pool.begin().await?;
        // The claim first: on SQLite it takes the write lock before any read.
        let claimed = sqlx::query(
            "UPDATE games SET rating_applied = 1 \
             WHERE id = $1 AND status = 'over' AND rated = 1 AND rating_applied = 0",
        )
        .bind(game)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(None);
        }
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(game)
            .fetch_one(&mut *tx)
            .await?;
        let row = super::game_from_row(&row)?;
        let (plies,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM moves WHERE game_id = $1")
            .bind(game)
            .fetch_one(&mut *tx)
            .await?;
        let users = [
            account_of(row.white_owner.as_deref()).map(str::to_string),
            account_of(row.black_owner.as_deref()).map(str::to_string),
        ];
        let mut ratings = [None, None];
        let mut managed = [false, false];
        let lock = if self.backend == Backend::Postgres {
            " FOR UPDATE"
        } else {
            ""
        };
        // In the order of the account ids, so that two transactions never
        // wait for each other's second row.
        let mut order = [0usize, 1];
        if users[1] < users[0] {
            order = [1, 0];
        }
        if let Some(perf) = row.perf.clone() {
            for i in order {
                let Some(user) = &users[i] else { continue };
                let m: Option<(i64,)> = sqlx::query_as("SELECT managed FROM users WHERE id = $1")
                    .bind(user)
                    .fetch_optional(&mut *tx)
                    .await?;
                managed[i] = m.is_some_and(|m| m.0 != 0);
                // A row to lock even before the first game in the pool
                // (`games` 0: never rated); on PostgreSQL a concurrent first
                // game of the same account waits here for this one.
                let start = if managed[i] {
                    Glicko::MANAGED
                } else {
                    Glicko::DEFAULT
                };
                sqlx::query(
                    "INSERT INTO ratings (user_id, perf, rating, deviation, volatility, games, \
                     updated_ms) VALUES ($1, $2, $3, $4, $5, 0, $6) \
                     ON CONFLICT (user_id, perf) DO NOTHING",
                )
                .bind(user)
                .bind(&perf)
                .bind(start.rating)
                .bind(start.deviation)
                .bind(start.volatility)
                .bind(now_ms())
                .execute(&mut *tx)
                .await?;
                let r = sqlx::query(&format!(
                    "SELECT rating, deviation, volatility, games, updated_ms FROM ratings \
                     WHERE user_id = $1 AND perf = $2{lock}"
                ))
                .bind(user)
                .bind(&perf)
                .fetch_one(&mut *tx)
                .await?;
                ratings[i] = Some(rating_from_row(&r)?).filter(|r| r.games > 0);
            }
        }
        let pending = PendingGame {
            row,
            plies,
            users,
            ratings,
            managed,
        };
        let Some(update) = compute(&pending) else {
            tx.commit().await?;
            return Ok(None);
        };
        let (Some(perf), [Some(white), Some(black)]) = (&pending.row.perf, &pending.users) else {
            tx.commit().await?;
            return Ok(None);
        };
        let now = now_ms();
        for (i, user) in [white, black].into_iter().enumerate() {
            let g = update.after[i];
            let games = pending.ratings[i].map_or(0, |r| r.games) + 1;
            sqlx::query(
                "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = $4, \
                 updated_ms = $5 WHERE user_id = $6 AND perf = $7",
            )
            .bind(g.rating)
            .bind(g.deviation)
            .bind(g.volatility)
            .bind(games)
            .bind(now)
            .bind(user)
            .bind(perf)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_history (user_id, perf, game, at_ms, rating, deviation) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(user)
            .bind(perf)
            .bind(game)
            .bind(now)
            .bind(g.rating)
            .bind(g.deviation)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "UPDATE games SET white_rating_diff = $1, black_rating_diff = $2 WHERE id = $3",
        )
        .bind(update.diffs[0])
        .bind(update.diffs[1])
        .bind(game)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(update))
    }
}
