//! Simultaneous exhibitions (issue 26): a simul and its boards, each board
//! a pupil and the games played on it (`attempt` 1, then one more per
//! restart; the highest is the board's current game).
//!
//! A simul's games are ordinary games (`games`, with `class_id` set): the
//! rows here only say which game is which board. A simul and its first
//! games are stored in one transaction, and so is a restart with its new
//! game, so that a board never points at a game that is not there.

use super::{insert_game_in, Ending, GameRow, Store, StoreError};

/// A simul as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimulRow {
    /// Public id (in links).
    pub id: String,
    /// The class it is given in.
    pub class_id: String,
    /// The host's account id (a teacher of the class).
    pub host_id: String,
    /// The host's account name (read from the account; not stored with
    /// the simul, ignored by [`Store::insert_simul`]).
    pub host_name: String,
    /// The clock of every board, in escaque's text form; `None`: no clock.
    pub time_control: Option<String>,
    /// The host's colour as asked: `white`, `black` or `random` (drawn per
    /// board; a board's colour is its game's).
    pub host_color: String,
    /// Creation time (wall, ms).
    pub created_ms: i64,
}

/// One game of a board, with what the simul's page needs of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimulGameRow {
    /// The board's number, from 1.
    pub board: u32,
    /// 1 for the first game, one more for every restart.
    pub attempt: u32,
    /// The pupil's account id.
    pub pupil_id: String,
    /// The pupil's account name.
    pub pupil_name: String,
    /// The game.
    pub game_id: String,
    /// The game's status (`playing`, `adjourned`, `over`).
    pub status: String,
    /// How it ended, once over.
    pub end: Option<Ending>,
    /// White's owner (`u:ID`): the host's colour on this board is white
    /// when it is the host's.
    pub white_owner: Option<String>,
}

const SIMUL_COLUMNS: &str = "id, class_id, host_id, time_control, host_color, created_ms";

/// The columns read back, with the host's name.
const SIMUL_SELECT: &str = "SELECT s.id, s.class_id, s.host_id, s.time_control, s.host_color, \
    s.created_ms, u.name FROM simuls s JOIN users u ON u.id = s.host_id";

type SimulTuple = (String, String, String, Option<String>, String, i64, String);

fn simul_from(t: SimulTuple) -> SimulRow {
    SimulRow {
        id: t.0,
        class_id: t.1,
        host_id: t.2,
        time_control: t.3,
        host_color: t.4,
        created_ms: t.5,
        host_name: t.6,
    }
}

impl Store {
    /// Stores a new simul with its boards' first games (one transaction):
    /// each `(board, pupil id, game row)`.
    pub async fn insert_simul(
        &self,
        s: &SimulRow,
        boards: &[(u32, String, GameRow)],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(&format!(
            "INSERT INTO simuls ({SIMUL_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6)"
        ))
        .bind(&s.id)
        .bind(&s.class_id)
        .bind(&s.host_id)
        .bind(&s.time_control)
        .bind(&s.host_color)
        .bind(s.created_ms)
        .execute(&mut *tx)
        .await?;
        for (board, pupil, game) in boards {
            insert_game_in(&mut *tx, game).await?;
            sqlx::query(
                "INSERT INTO simul_games (simul_id, board, attempt, pupil_id, game_id) \
                 VALUES ($1,$2,1,$3,$4)",
            )
            .bind(&s.id)
            .bind(i64::from(*board))
            .bind(pupil)
            .bind(&game.id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// A simul by id.
    pub async fn simul(&self, id: &str) -> Result<Option<SimulRow>, StoreError> {
        let row: Option<SimulTuple> = sqlx::query_as(&format!("{SIMUL_SELECT} WHERE s.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(simul_from))
    }

    /// The simuls of a class, newest first (at most `limit`).
    pub async fn class_simuls(
        &self,
        class_id: &str,
        limit: i64,
    ) -> Result<Vec<SimulRow>, StoreError> {
        let rows: Vec<SimulTuple> = sqlx::query_as(&format!(
            "{SIMUL_SELECT} WHERE s.class_id = $1 ORDER BY s.created_ms DESC, s.id LIMIT $2"
        ))
        .bind(class_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(simul_from).collect())
    }

    /// Every game of a simul, by board, then attempt.
    pub async fn simul_games(&self, simul_id: &str) -> Result<Vec<SimulGameRow>, StoreError> {
        type Tuple = (
            i64,
            i64,
            String,
            String,
            String,
            String,
            Option<String>,
            Option<String>,
            Option<String>,
            Option<String>,
        );
        let rows: Vec<Tuple> = sqlx::query_as(
            "SELECT sg.board, sg.attempt, sg.pupil_id, u.name, sg.game_id, g.status, g.result, \
             g.termination, g.termination_side, g.white_owner FROM simul_games sg \
             JOIN games g ON g.id = sg.game_id JOIN users u ON u.id = sg.pupil_id \
             WHERE sg.simul_id = $1 ORDER BY sg.board, sg.attempt",
        )
        .bind(simul_id)
        .fetch_all(&self.pool)
        .await?;
        let number = |what: &'static str, v: i64| {
            u32::try_from(v).map_err(|_| StoreError::Corrupt {
                what,
                value: v.to_string(),
            })
        };
        rows.into_iter()
            .map(|t| {
                let end = match (&t.6, &t.7) {
                    (Some(res), Some(term)) => {
                        Some(Ending::from_columns(res, term, t.8.as_deref())?)
                    }
                    _ => None,
                };
                Ok(SimulGameRow {
                    board: number("simul_games.board", t.0)?,
                    attempt: number("simul_games.attempt", t.1)?,
                    pupil_id: t.2,
                    pupil_name: t.3,
                    game_id: t.4,
                    status: t.5,
                    end,
                    white_owner: t.9,
                })
            })
            .collect()
    }

    /// Stores game `game` as attempt `attempt` of board `board`, pupil
    /// `pupil_id` (one transaction); false if that attempt is there
    /// already (another restart came first): nothing stored.
    pub async fn insert_simul_attempt(
        &self,
        simul_id: &str,
        board: u32,
        attempt: u32,
        pupil_id: &str,
        game: &GameRow,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let taken: Option<(i64,)> = sqlx::query_as(
            "SELECT 1 FROM simul_games WHERE simul_id = $1 AND board = $2 AND attempt = $3",
        )
        .bind(simul_id)
        .bind(i64::from(board))
        .bind(i64::from(attempt))
        .fetch_optional(&mut *tx)
        .await?;
        if taken.is_some() {
            tx.rollback().await?;
            return Ok(false);
        }
        let r = sqlx::query(
            "INSERT INTO simul_games (simul_id, board, attempt, pupil_id, game_id) \
             VALUES ($1,$2,$3,$4,$5)",
        )
        .bind(simul_id)
        .bind(i64::from(board))
        .bind(i64::from(attempt))
        .bind(pupil_id)
        .bind(&game.id)
        .execute(&mut *tx)
        .await;
        match r {
            Ok(_) => {}
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                tx.rollback().await?;
                return Ok(false);
            }
            Err(e) => return Err(e.into()),
        }
        insert_game_in(&mut *tx, game).await?;
        tx.commit().await?;
        Ok(true)
    }
}
