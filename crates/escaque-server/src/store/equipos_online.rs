//! The games of online team tournaments (issue 59, online team play;
//! migration 0015, `team_games`): which game is played on which board of
//! which match of which round. A round's games are stored with the
//! tournament's row and the games themselves in one transaction.
//! `team_online`: the tournaments played online and their games' clock
//! and no-show wait.

use std::time::Duration;

use sqlx::Row;

use super::equipos::TeamTournamentRow;
use super::{GameRow, Store, StoreError, TournamentLink};

/// One board's game of a team round, to store with the round.
#[derive(Clone, Debug)]
pub struct TeamRoundGame {
    /// Round (1-based).
    pub round: u32,
    /// The match's table.
    pub table: u32,
    /// The board.
    pub board: u32,
    /// The game's row.
    pub row: GameRow,
}

/// A stored team board's game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamGameRow {
    /// Round.
    pub round: u32,
    /// The match's table.
    pub table: u32,
    /// The board.
    pub board: u32,
    /// The game's id.
    pub game: String,
}

/// A team tournament played online: its games' settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamOnline {
    /// The games' clock (`10+5`).
    pub time_control: String,
    /// Seconds before a player who has not made the first move loses.
    pub no_show_s: u32,
}

impl Store {
    /// Writes `r` if it is still at `old_version` together with the round's
    /// `games` (each game's row and its board); false, nothing written,
    /// when somebody else wrote the tournament first.
    pub async fn save_team_round(
        &self,
        r: &TeamTournamentRow,
        old_version: i64,
        games: &[TeamRoundGame],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let written = super::equipos::update_team_row(&mut *tx, r, old_version).await?;
        if !written {
            tx.rollback().await?;
            return Ok(false);
        }
        for g in games {
            super::insert_game_in(&mut *tx, &g.row).await?;
            sqlx::query(
                "INSERT INTO team_games (tournament, round, table_no, board, game) \
                 VALUES ($1,$2,$3,$4,$5)",
            )
            .bind(&r.id)
            .bind(i64::from(g.round))
            .bind(i64::from(g.table))
            .bind(i64::from(g.board))
            .bind(&g.row.id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The team board of game `game`, if it is one (`team_table` set).
    pub async fn team_game_link(&self, game: &str) -> Result<Option<TournamentLink>, StoreError> {
        let row = sqlx::query(
            "SELECT tg.tournament, tg.round, tg.table_no, tg.board, o.no_show_s \
             FROM team_games tg JOIN team_online o ON o.tournament = tg.tournament \
             WHERE tg.game = $1",
        )
        .bind(game)
        .fetch_optional(&self.pool)
        .await?;
        let Some(r) = row else { return Ok(None) };
        let round: i64 = r.try_get(1)?;
        let table: i64 = r.try_get(2)?;
        let board: i64 = r.try_get(3)?;
        let no_show: i64 = r.try_get(4)?;
        Ok(Some(TournamentLink {
            tournament: r.try_get(0)?,
            round: round as u32,
            board: board as u32,
            no_show: Duration::from_secs(no_show.max(0) as u64),
            team_table: Some(table as u32),
        }))
    }

    /// Makes team tournament `id` an online one (again: new settings).
    pub async fn set_team_online(&self, id: &str, o: &TeamOnline) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM team_online WHERE tournament = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO team_online (tournament, time_control, no_show_s) VALUES ($1,$2,$3)",
        )
        .bind(id)
        .bind(&o.time_control)
        .bind(i64::from(o.no_show_s))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Team tournament `id`'s online settings; `None`: played over the
    /// board.
    pub async fn team_online(&self, id: &str) -> Result<Option<TeamOnline>, StoreError> {
        let row: Option<(String, i64)> =
            sqlx::query_as("SELECT time_control, no_show_s FROM team_online WHERE tournament = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|(time_control, s)| TeamOnline {
            time_control,
            no_show_s: s.clamp(0, i64::from(u32::MAX)) as u32,
        }))
    }

    /// The games of a team tournament, by round, table and board.
    pub async fn team_games(&self, tournament: &str) -> Result<Vec<TeamGameRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT round, table_no, board, game FROM team_games WHERE tournament = $1 \
             ORDER BY round, table_no, board",
        )
        .bind(tournament)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let round: i64 = r.try_get(0)?;
                let table: i64 = r.try_get(1)?;
                let board: i64 = r.try_get(2)?;
                Ok(TeamGameRow {
                    round: round as u32,
                    table: table as u32,
                    board: board as u32,
                    game: r.try_get(3)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::Db)
    }

    /// The team tournaments with games being played (to resume after a
    /// restart).
    pub async fn running_online_team_tournaments(&self) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT t.id FROM team_tournaments t JOIN team_online o ON o.tournament = t.id \
             WHERE t.status = 'running' ORDER BY t.created_ms",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }
}
