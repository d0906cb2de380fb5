//! The games of online tournaments (`tournament_games`, migration 0004):
//! which game is played on which board of which round.

use std::time::Duration;

use sqlx::Row;

use super::{Store, StoreError};

/// The tournament board a game is played on, as its task needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentLink {
    /// The tournament's id.
    pub tournament: String,
    /// The round (1-based).
    pub round: u32,
    /// The board (1-based).
    pub board: u32,
    /// How long a side may take to make its first move before it loses by
    /// forfeit (the tournament's `no_show_s`).
    pub no_show: Duration,
    /// A team tournament's board (issue 59, online team play): the match's
    /// table; `None` for an individual event's.
    pub team_table: Option<u32>,
}

/// `no_show_s` when the settings do not say (the contract's default).
const DEFAULT_NO_SHOW_S: u64 = 120;

/// The `no_show_s` of a tournament's settings (JSON), or the default.
fn no_show_of(settings: Option<&str>) -> Duration {
    let secs = settings
        .and_then(|s| serde_json::from_str::<serde_json::Value>(s).ok())
        .and_then(|v| v.get("no_show_s").and_then(|n| n.as_u64()))
        .unwrap_or(DEFAULT_NO_SHOW_S);
    Duration::from_secs(secs)
}

/// One board of a round: its number and its game's id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardRow {
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// The game's id.
    pub game: String,
}

impl Store {
    /// The tournament board of game `game`, if it is one (an individual
    /// event's, or a team tournament's: [`Store::team_game_link`]).
    pub async fn tournament_link(&self, game: &str) -> Result<Option<TournamentLink>, StoreError> {
        let row = sqlx::query(
            "SELECT tg.tournament, tg.round, tg.board, t.settings \
             FROM tournament_games tg JOIN tournaments t ON t.id = tg.tournament \
             WHERE tg.game = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else {
            return self.team_game_link(game).await;
        };
        let round: i64 = r.try_get(1)?;
        let board: i64 = r.try_get(2)?;
        let settings: Option<String> = r.try_get(3)?;
        Ok(Some(TournamentLink {
            tournament: r.try_get(0)?,
            round: round as u32,
            board: board as u32,
            no_show: no_show_of(settings.as_deref()),
            team_table: None,
        }))
    }

    /// The online tournaments being played (to resume after a restart).
    pub async fn running_online_tournaments(&self) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT id FROM tournaments WHERE mode = 'online' AND status = 'running' \
             ORDER BY created_ms",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    /// The games of a tournament, by round and board.
    pub async fn tournament_games(&self, tournament: &str) -> Result<Vec<BoardRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT round, board, game FROM tournament_games WHERE tournament = $1 \
             ORDER BY round, board",
        )
        .bind(tournament)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let round: i64 = r.try_get(0)?;
                let board: i64 = r.try_get(1)?;
                Ok(BoardRow {
                    round: round as u32,
                    board: board as u32,
                    game: r.try_get(2)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::Db)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_show_from_the_settings_or_the_default() {
        assert_eq!(
            no_show_of(Some(r#"{"no_show_s": 30}"#)),
            Duration::from_secs(30)
        );
        assert_eq!(no_show_of(Some("{}")), Duration::from_secs(120));
        assert_eq!(no_show_of(Some("not json")), Duration::from_secs(120));
        assert_eq!(no_show_of(None), Duration::from_secs(120));
    }
}
