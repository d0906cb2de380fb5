//! Team tournaments on the server (issue 59, teams; migration 0013): one
//! row per tournament holding its TRF-2026 team text and the server's
//! settings (JSON), written under the row's `version` guard. The match
//! codes are rows of `result_codes` ([`super::resultados`]) with kind
//! `match`.

use super::{Store, StoreError};

/// A team tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamTournamentRow {
    /// Id.
    pub id: String,
    /// Name (as the TRF has it; kept here for lists).
    pub name: String,
    /// The organiser's identity key.
    pub owner: String,
    /// `registration`, `running` or `finished`.
    pub status: String,
    /// The TRF-2026 team text (`escaque_torneo::teams::trf`).
    pub trf: String,
    /// The server's settings (JSON).
    pub settings: String,
    /// Bumped by every write (the optimistic guard).
    pub version: i64,
    /// Created (wall, ms).
    pub created_ms: i64,
    /// Last written (wall, ms).
    pub updated_ms: i64,
}

const COLUMNS: &str = "id, name, owner, status, trf, settings, version, created_ms, updated_ms";

type Tuple = (
    String,
    String,
    String,
    String,
    String,
    String,
    i64,
    i64,
    i64,
);

fn from(t: Tuple) -> TeamTournamentRow {
    TeamTournamentRow {
        id: t.0,
        name: t.1,
        owner: t.2,
        status: t.3,
        trf: t.4,
        settings: t.5,
        version: t.6,
        created_ms: t.7,
        updated_ms: t.8,
    }
}

impl Store {
    /// Stores a new team tournament.
    pub async fn insert_team_tournament(&self, r: &TeamTournamentRow) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO team_tournaments ({COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)"
        ))
        .bind(&r.id)
        .bind(&r.name)
        .bind(&r.owner)
        .bind(&r.status)
        .bind(&r.trf)
        .bind(&r.settings)
        .bind(r.version)
        .bind(r.created_ms)
        .bind(r.updated_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A team tournament by id.
    pub async fn team_tournament(&self, id: &str) -> Result<Option<TeamTournamentRow>, StoreError> {
        let row: Option<Tuple> = sqlx::query_as(&format!(
            "SELECT {COLUMNS} FROM team_tournaments WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(from))
    }

    /// The team tournaments organised by `owner`, newest first (at most
    /// `limit`).
    pub async fn team_tournaments_of(
        &self,
        owner: &str,
        limit: i64,
    ) -> Result<Vec<TeamTournamentRow>, StoreError> {
        let rows: Vec<Tuple> = sqlx::query_as(&format!(
            "SELECT {COLUMNS} FROM team_tournaments WHERE owner = $1 \
             ORDER BY created_ms DESC LIMIT $2"
        ))
        .bind(owner)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(from).collect())
    }

    /// Writes `r` (name, status, TRF, settings, version, updated) if the
    /// stored row is still at `old_version`; false when somebody else
    /// wrote it first (nothing written).
    pub async fn save_team_tournament(
        &self,
        r: &TeamTournamentRow,
        old_version: i64,
    ) -> Result<bool, StoreError> {
        update_team_row(&self.pool, r, old_version).await
    }
}

/// The versioned write of a team tournament's row, on the pool or inside a
/// transaction (`save_team_round` writes the round's games with it): true
/// when the row was still at `old_version` and is now `r`.
pub(super) async fn update_team_row<'e, E>(
    ex: E,
    r: &TeamTournamentRow,
    old_version: i64,
) -> Result<bool, StoreError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let done = sqlx::query(
        "UPDATE team_tournaments SET name = $1, status = $2, trf = $3, settings = $4, \
         version = $5, updated_ms = $6 WHERE id = $7 AND version = $8",
    )
    .bind(&r.name)
    .bind(&r.status)
    .bind(&r.trf)
    .bind(&r.settings)
    .bind(r.version)
    .bind(r.updated_ms)
    .bind(&r.id)
    .bind(old_version)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}
