//! What a class's progress table and its tournament list read (issue 26):
//! a pupil's finished games within a period, and the tournaments of a
//! class. Read only: nothing here writes.

use sqlx::Row;

use super::{tournament_from_row, Store, StoreError, TournamentRow, TOURNAMENT_COLUMNS};

/// One finished game of a player, from that player's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The game's id.
    pub game: String,
    /// The player had White.
    pub white: bool,
    /// The PGN result (`1-0`, `0-1`, `1/2-1/2`).
    pub result: String,
    /// When the game was created (wall, ms).
    pub created_ms: i64,
    /// When it ended: the last time the game was written (wall, ms).
    pub ended_ms: i64,
    /// The rating pool of a rated game.
    pub perf: Option<String>,
    /// The player's rating when the game began (rated games).
    pub rating: Option<i64>,
    /// What the game changed the player's rating by, once applied.
    pub rating_diff: Option<i64>,
    /// The tournament the game was played in, if any.
    pub tournament: Option<String>,
}

impl PlayedGame {
    /// The player's score: `Some(true)` won, `Some(false)` lost, `None`
    /// drawn; an unknown result reads as [`StoreError::Corrupt`].
    pub fn won(&self) -> Result<Option<bool>, StoreError> {
        match (self.result.as_str(), self.white) {
            ("1-0", true) | ("0-1", false) => Ok(Some(true)),
            ("1-0", false) | ("0-1", true) => Ok(Some(false)),
            ("1/2-1/2", _) => Ok(None),
            _ => Err(StoreError::Corrupt {
                what: "games.result",
                value: self.result.clone(),
            }),
        }
    }
}

impl Store {
    /// The finished games (with a result: aborted games are left out) of
    /// owner identity `owner` that ended in `[from_ms, to_ms)`, first ended
    /// first.
    pub async fn games_ended_between(
        &self,
        owner: &str,
        from_ms: i64,
        to_ms: i64,
    ) -> Result<Vec<PlayedGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.white_owner, g.result, g.created_ms, g.updated_ms, g.rated, g.perf, \
             g.white_rating, g.black_rating, g.white_rating_diff, g.black_rating_diff, \
             g.rating_applied, tg.tournament \
             FROM games g LEFT JOIN tournament_games tg ON tg.game = g.id \
             WHERE (g.white_owner = $1 OR g.black_owner = $2) AND g.status = 'over' \
             AND g.result IS NOT NULL AND g.result <> '*' \
             AND g.updated_ms >= $3 AND g.updated_ms < $4 \
             ORDER BY g.updated_ms, g.id",
        )
        .bind(owner)
        .bind(owner)
        .bind(from_ms)
        .bind(to_ms)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let white_owner: Option<String> = r.try_get(1)?;
            let white = white_owner.as_deref() == Some(owner);
            let rated: i64 = r.try_get(5)?;
            let applied: i64 = r.try_get(11)?;
            let (rating, diff): (Option<i64>, Option<i64>) = if white {
                (r.try_get(7)?, r.try_get(9)?)
            } else {
                (r.try_get(8)?, r.try_get(10)?)
            };
            let perf: Option<String> = r.try_get(6)?;
            out.push(PlayedGame {
                game: r.try_get(0)?,
                white,
                result: r.try_get(2)?,
                created_ms: r.try_get(3)?,
                ended_ms: r.try_get(4)?,
                perf: perf.filter(|_| rated != 0),
                rating: rating.filter(|_| rated != 0),
                rating_diff: diff.filter(|_| rated != 0 && applied != 0),
                tournament: r.try_get(12)?,
            });
        }
        Ok(out)
    }

    /// The tournaments of class `class_id`, newest first (at most `limit`).
    pub async fn class_tournaments(
        &self,
        class_id: &str,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        self.newest_of_class(
            "tournaments",
            TOURNAMENT_COLUMNS,
            class_id,
            limit,
            tournament_from_row,
        )
        .await
    }
}
