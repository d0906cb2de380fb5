//! Tournaments: the row (its TRF and the server's settings), the player
//! links and co-organisers, and a round's games saved with it in one
//! transaction under the optimistic version guard.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{insert_game_in, GameRow, Store, StoreError};

/// A tournament as stored: its TRF text and the server's settings.
#[derive(Clone, Debug)]
pub struct TournamentRow {
    /// Public id (in links).
    pub id: String,
    /// Name (also in the TRF; kept here for the list).
    pub name: String,
    /// Identity key of the creator.
    pub owner: String,
    /// `otb` or `online`.
    pub mode: String,
    /// `registration`, `running` or `finished`.
    pub status: String,
    /// The tournament as TRF-2026 text.
    pub trf: String,
    /// The server's settings as JSON (`tournament::Settings`).
    pub settings: String,
    /// Bumped by every change (the optimistic guard).
    pub version: i64,
    /// Creation time (wall, ms).
    pub created_ms: i64,
    /// Last change (wall, ms).
    pub updated_ms: i64,
    /// The class the tournament belongs to (only its members may enter);
    /// `None` for any other tournament.
    pub class_id: Option<String>,
}

/// The server's side of one TRF start number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerLink {
    /// TRF start number (1-based).
    pub number: u32,
    /// Identity key of an online player (none: entered by the organiser).
    pub owner: Option<String>,
    /// Answered the roll call.
    pub present: bool,
}

/// A game created with a tournament round, stored in the same transaction.
#[derive(Clone, Debug)]
pub struct RoundGame {
    /// Round number.
    pub round: u32,
    /// Board number.
    pub board: u32,
    /// The game.
    pub row: GameRow,
}

pub(super) const TOURNAMENT_COLUMNS: &str =
    "id, name, owner, mode, status, trf, settings, version, created_ms, updated_ms, class_id";

pub(super) fn tournament_from_row(r: &AnyRow) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        owner: r.try_get(2)?,
        mode: r.try_get(3)?,
        status: r.try_get(4)?,
        trf: r.try_get(5)?,
        settings: r.try_get(6)?,
        version: r.try_get(7)?,
        created_ms: r.try_get(8)?,
        updated_ms: r.try_get(9)?,
        class_id: r.try_get(10)?,
    })
}

impl Store {
    /// Stores a new tournament (its players, if any, and no co-organisers).
    pub async fn insert_tournament(
        &self,
        t: &TournamentRow,
        players: &[PlayerLink],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(&format!(
            "INSERT INTO tournaments ({TOURNAMENT_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)"
        ))
        .bind(&t.id)
        .bind(&t.name)
        .bind(&t.owner)
        .bind(&t.mode)
        .bind(&t.status)
        .bind(&t.trf)
        .bind(&t.settings)
        .bind(t.version)
        .bind(t.created_ms)
        .bind(t.updated_ms)
        .bind(&t.class_id)
        .execute(&mut *tx)
        .await?;
        write_players(&mut tx, &t.id, players).await?;
        tx.commit().await?;
        Ok(())
    }

    /// A tournament by id.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(tournament_from_row).transpose()
    }

    /// Every tournament, newest first (at most `limit`).
    pub async fn tournaments(&self, limit: i64) -> Result<Vec<TournamentRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments ORDER BY created_ms DESC LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(tournament_from_row).collect()
    }

    /// The player links of a tournament, by number.
    pub async fn tournament_players(&self, id: &str) -> Result<Vec<PlayerLink>, StoreError> {
        let rows: Vec<(i64, Option<String>, i64)> = sqlx::query_as(
            "SELECT number, owner, present FROM tournament_players WHERE tournament = $1 \
             ORDER BY number",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(number, owner, present)| {
                Ok(PlayerLink {
                    number: u32::try_from(number).map_err(|_| StoreError::Corrupt {
                        what: "tournament_players.number",
                        value: number.to_string(),
                    })?,
                    owner,
                    present: present != 0,
                })
            })
            .collect()
    }

    /// The co-organisers of a tournament (identity keys).
    pub async fn tournament_organisers(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT identity FROM tournament_organisers WHERE tournament = $1 ORDER BY identity",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    /// Stores a changed tournament if nobody changed it since `old_version`
    /// was read: the row (its `version` is the new one), its player links
    /// and co-organisers (replaced when given: `None` leaves them as they
    /// are, the common case of a result typed), and the games of a round just paired
    /// (inserted, with their `tournament_games` rows), all in one
    /// transaction. False: somebody else changed it first; nothing stored.
    pub async fn save_tournament(
        &self,
        t: &TournamentRow,
        old_version: i64,
        players: Option<&[PlayerLink]>,
        organisers: Option<&[String]>,
        games: &[RoundGame],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE tournaments SET name = $1, status = $2, trf = $3, settings = $4, \
             version = $5, updated_ms = $6 WHERE id = $7 AND version = $8",
        )
        .bind(&t.name)
        .bind(&t.status)
        .bind(&t.trf)
        .bind(&t.settings)
        .bind(t.version)
        .bind(t.updated_ms)
        .bind(&t.id)
        .bind(old_version)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        if let Some(players) = players {
            sqlx::query("DELETE FROM tournament_players WHERE tournament = $1")
                .bind(&t.id)
                .execute(&mut *tx)
                .await?;
            write_players(&mut tx, &t.id, players).await?;
        }
        if let Some(organisers) = organisers {
            sqlx::query("DELETE FROM tournament_organisers WHERE tournament = $1")
                .bind(&t.id)
                .execute(&mut *tx)
                .await?;
            for o in organisers {
                sqlx::query(
                    "INSERT INTO tournament_organisers (tournament, identity) VALUES ($1, $2)",
                )
                .bind(&t.id)
                .bind(o)
                .execute(&mut *tx)
                .await?;
            }
        }
        for g in games {
            insert_game_in(&mut *tx, &g.row).await?;
            sqlx::query(
                "INSERT INTO tournament_games (tournament, round, board, game) VALUES ($1,$2,$3,$4)",
            )
            .bind(&t.id)
            .bind(i64::from(g.round))
            .bind(i64::from(g.board))
            .bind(&g.row.id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}

async fn write_players(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    tournament: &str,
    players: &[PlayerLink],
) -> Result<(), StoreError> {
    for p in players {
        sqlx::query(
            "INSERT INTO tournament_players (tournament, number, owner, present) \
             VALUES ($1,$2,$3,$4)",
        )
        .bind(tournament)
        .bind(i64::from(p.number))
        .bind(&p.owner)
        .bind(i64::from(p.present))
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}
