//! Results entered by the players from a QR code (issue 59): the boards'
//! secret codes, what each side said about a board, and the log the
//! arbiter reads (migration 0012). A result that becomes final is written
//! here and into the tournament's TRF in one transaction
//! ([`Store::write_result_entry`]), so a process killed at any moment
//! leaves both or neither.

use super::{Store, StoreError, TournamentRow};

/// A board's (later a team match's) secret code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeRow {
    /// The code itself (in the QR code's link).
    pub code: String,
    /// The tournament.
    pub tournament_id: String,
    /// The round, from 1.
    pub round: u32,
    /// `board` (a team match: `match`, not built yet).
    pub kind: String,
    /// The board's (or match's) number, from 1.
    pub number: u32,
}

/// What the players said about one board, and its final result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryRow {
    /// The tournament.
    pub tournament_id: String,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// White's claim, a result id (`1-0`, `0-1`, `½-½`, `+-`, `-+`).
    pub white_claim: Option<String>,
    /// When White's phone said it (wall, ms).
    pub white_ms: Option<i64>,
    /// Black's claim.
    pub black_claim: Option<String>,
    /// When Black's phone said it.
    pub black_ms: Option<i64>,
    /// The result that reached the standings from here.
    pub final_result: Option<String>,
    /// `players` (both agreed) or `arbiter`.
    pub final_by: Option<String>,
    /// When it became final.
    pub final_ms: Option<i64>,
    /// Bumped by every write (the optimistic guard; 0: not stored yet).
    pub version: i64,
}

/// One step on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogRow {
    /// The tournament.
    pub tournament_id: String,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// When (wall, ms).
    pub at_ms: i64,
    /// `white`, `black` (a phone with the code) or an organiser's
    /// identity key.
    pub who: String,
    /// `entered`, `confirmed`, `conflict`, `arbiter`, `override`,
    /// `cleared`.
    pub action: String,
    /// The result given, if any.
    pub result: Option<String>,
    /// What the board held before, in words (`blancas 1-0, negras 0-1`).
    pub previous: Option<String>,
}

const ENTRY_COLUMNS: &str = "tournament_id, round, board, white_claim, white_ms, black_claim, \
    black_ms, final_result, final_by, final_ms, version";

type EntryTuple = (
    String,
    i64,
    i64,
    Option<String>,
    Option<i64>,
    Option<String>,
    Option<i64>,
    Option<String>,
    Option<String>,
    Option<i64>,
    i64,
);

fn entry_from(t: EntryTuple) -> EntryRow {
    EntryRow {
        tournament_id: t.0,
        round: t.1 as u32,
        board: t.2 as u32,
        white_claim: t.3,
        white_ms: t.4,
        black_claim: t.5,
        black_ms: t.6,
        final_result: t.7,
        final_by: t.8,
        final_ms: t.9,
        version: t.10,
    }
}

impl Store {
    /// The codes of `kind` of round `round` of a tournament, by number.
    pub async fn result_codes(
        &self,
        tournament: &str,
        round: u32,
        kind: &str,
    ) -> Result<Vec<(u32, String)>, StoreError> {
        let rows: Vec<(i64, String)> = sqlx::query_as(
            "SELECT number, code FROM result_codes \
             WHERE tournament_id = $1 AND round = $2 AND kind = $3 ORDER BY number",
        )
        .bind(tournament)
        .bind(i64::from(round))
        .bind(kind)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|(n, c)| (n as u32, c)).collect())
    }

    /// Stores new codes (`(number, code)`); a number that already has one
    /// keeps it (two printouts at once agree on the codes).
    pub async fn insert_result_codes(
        &self,
        tournament: &str,
        round: u32,
        kind: &str,
        codes: &[(u32, String)],
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for (number, code) in codes {
            sqlx::query(
                "INSERT INTO result_codes (code, tournament_id, round, kind, number, created_ms) \
                 VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT DO NOTHING",
            )
            .bind(code)
            .bind(tournament)
            .bind(i64::from(round))
            .bind(kind)
            .bind(i64::from(*number))
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The board a code opens, if it is one.
    pub async fn result_code(&self, code: &str) -> Result<Option<CodeRow>, StoreError> {
        let row: Option<(String, String, i64, String, i64)> = sqlx::query_as(
            "SELECT code, tournament_id, round, kind, number FROM result_codes WHERE code = $1",
        )
        .bind(code)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| CodeRow {
            code: r.0,
            tournament_id: r.1,
            round: r.2 as u32,
            kind: r.3,
            number: r.4 as u32,
        }))
    }

    /// The entries of a round, by board.
    pub async fn result_entries(
        &self,
        tournament: &str,
        round: u32,
    ) -> Result<Vec<EntryRow>, StoreError> {
        let rows: Vec<EntryTuple> = sqlx::query_as(&format!(
            "SELECT {ENTRY_COLUMNS} FROM result_entries \
             WHERE tournament_id = $1 AND round = $2 ORDER BY board"
        ))
        .bind(tournament)
        .bind(i64::from(round))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(entry_from).collect())
    }

    /// One board's entry (`None`: nobody said anything yet).
    pub async fn result_entry(
        &self,
        tournament: &str,
        round: u32,
        board: u32,
    ) -> Result<Option<EntryRow>, StoreError> {
        let row: Option<EntryTuple> = sqlx::query_as(&format!(
            "SELECT {ENTRY_COLUMNS} FROM result_entries \
             WHERE tournament_id = $1 AND round = $2 AND board = $3"
        ))
        .bind(tournament)
        .bind(i64::from(round))
        .bind(i64::from(board))
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(entry_from))
    }

    /// Writes `entry` (read at `old_version`, 0 when it was not stored)
    /// with its `log` lines and, when a result becomes final, the
    /// tournament's row `t` (read at `t_old_version`), in one transaction;
    /// false, nothing written, when either changed since it was read.
    pub async fn write_result_entry(
        &self,
        entry: &EntryRow,
        old_version: i64,
        t: Option<(&TournamentRow, i64)>,
        log: &[LogRow],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        if let Some((t, old)) = t {
            let done = sqlx::query(
                "UPDATE tournaments SET status = $1, trf = $2, version = $3, updated_ms = $4 \
                 WHERE id = $5 AND version = $6",
            )
            .bind(&t.status)
            .bind(&t.trf)
            .bind(t.version)
            .bind(t.updated_ms)
            .bind(&t.id)
            .bind(old)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
        }
        let done = if old_version == 0 {
            sqlx::query(&format!(
                "INSERT INTO result_entries ({ENTRY_COLUMNS}) \
                 VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) ON CONFLICT DO NOTHING"
            ))
            .bind(&entry.tournament_id)
            .bind(i64::from(entry.round))
            .bind(i64::from(entry.board))
            .bind(&entry.white_claim)
            .bind(entry.white_ms)
            .bind(&entry.black_claim)
            .bind(entry.black_ms)
            .bind(&entry.final_result)
            .bind(&entry.final_by)
            .bind(entry.final_ms)
            .bind(entry.version)
            .execute(&mut *tx)
            .await?
        } else {
            sqlx::query(
                "UPDATE result_entries SET white_claim = $1, white_ms = $2, black_claim = $3, \
                 black_ms = $4, final_result = $5, final_by = $6, final_ms = $7, version = $8 \
                 WHERE tournament_id = $9 AND round = $10 AND board = $11 AND version = $12",
            )
            .bind(&entry.white_claim)
            .bind(entry.white_ms)
            .bind(&entry.black_claim)
            .bind(entry.black_ms)
            .bind(&entry.final_result)
            .bind(&entry.final_by)
            .bind(entry.final_ms)
            .bind(entry.version)
            .bind(&entry.tournament_id)
            .bind(i64::from(entry.round))
            .bind(i64::from(entry.board))
            .bind(old_version)
            .execute(&mut *tx)
            .await?
        };
        if done.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        for l in log {
            sqlx::query(
                "INSERT INTO result_log (id, tournament_id, round, board, at_ms, who, action, \
                 result, previous) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)",
            )
            .bind(crate::new_secret())
            .bind(&l.tournament_id)
            .bind(i64::from(l.round))
            .bind(i64::from(l.board))
            .bind(l.at_ms)
            .bind(&l.who)
            .bind(&l.action)
            .bind(&l.result)
            .bind(&l.previous)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// A tournament's log, oldest first.
    pub async fn result_log(&self, tournament: &str) -> Result<Vec<LogRow>, StoreError> {
        type LogTuple = (
            String,
            i64,
            i64,
            i64,
            String,
            String,
            Option<String>,
            Option<String>,
        );
        let rows: Vec<LogTuple> = sqlx::query_as(
            "SELECT tournament_id, round, board, at_ms, who, action, result, previous \
             FROM result_log WHERE tournament_id = $1 ORDER BY at_ms, round, board",
        )
        .bind(tournament)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| LogRow {
                tournament_id: r.0,
                round: r.1 as u32,
                board: r.2 as u32,
                at_ms: r.3,
                who: r.4,
                action: r.5,
                result: r.6,
                previous: r.7,
            })
            .collect())
    }
}
