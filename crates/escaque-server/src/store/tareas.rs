//! Tareas (issue 57): homework, its items, the pupils' attempts and the
//! parents' read-only links (migration 0011). An attempt is written in one
//! statement and committed before its answer is sent: an acknowledged
//! attempt is on disk.

use super::{Store, StoreError};

/// A homework as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HomeworkRow {
    /// Public id.
    pub id: String,
    /// The class it belongs to.
    pub class_id: String,
    /// The title the teacher wrote.
    pub title: String,
    /// When it is due (wall, ms).
    pub due_ms: i64,
    /// Whether a later attempt counts (otherwise only the first does).
    pub retry: bool,
    /// For the whole class (else for the pupils listed with it).
    pub whole: bool,
    /// The teacher who set it.
    pub created_by: String,
    /// When it was set (wall, ms).
    pub created_ms: i64,
}

/// One item of a homework.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemRow {
    /// Its place (from 0).
    pub idx: i64,
    /// The kind (`puzzle`, `stage`, `coords`, `engine_game`, `position`).
    pub kind: String,
    /// The item as JSON.
    pub spec: String,
}

/// One attempt of a pupil at an item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptRow {
    /// Public id.
    pub id: String,
    /// The homework.
    pub homework_id: String,
    /// The item's place.
    pub idx: i64,
    /// The pupil's account id.
    pub user_id: String,
    /// When it came (wall, ms).
    pub at_ms: i64,
    /// What the pupil did, as JSON.
    pub work: String,
    /// Time the pupil's page counted (ms).
    pub time_ms: i64,
    /// Hints the pupil asked for.
    pub hints: i64,
    /// Solved.
    pub solved: bool,
    /// Solved without a mistake or a hint.
    pub clean: bool,
    /// The judge's words (JSON: moves in notation, the reason of a failure).
    pub detail: String,
}

/// A parent's link to a pupil.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParentLinkRow {
    /// The token in the link.
    pub token: String,
    /// The class.
    pub class_id: String,
    /// The pupil's account id.
    pub user_id: String,
    /// When made (wall, ms).
    pub created_ms: i64,
    /// When revoked, if it was.
    pub revoked_ms: Option<i64>,
}

const HW_COLUMNS: &str = "id, class_id, title, due_ms, retry, whole, created_by, created_ms";
type HwTuple = (String, String, String, i64, i64, i64, String, i64);

fn hw_from(t: HwTuple) -> HomeworkRow {
    HomeworkRow {
        id: t.0,
        class_id: t.1,
        title: t.2,
        due_ms: t.3,
        retry: t.4 != 0,
        whole: t.5 != 0,
        created_by: t.6,
        created_ms: t.7,
    }
}

const ATTEMPT_COLUMNS: &str =
    "id, homework_id, idx, user_id, at_ms, work, time_ms, hints, solved, clean, detail";
type AttemptTuple = (
    String,
    String,
    i64,
    String,
    i64,
    String,
    i64,
    i64,
    i64,
    i64,
    String,
);

fn attempt_from(t: AttemptTuple) -> AttemptRow {
    AttemptRow {
        id: t.0,
        homework_id: t.1,
        idx: t.2,
        user_id: t.3,
        at_ms: t.4,
        work: t.5,
        time_ms: t.6,
        hints: t.7,
        solved: t.8 != 0,
        clean: t.9 != 0,
        detail: t.10,
    }
}

impl Store {
    /// Stores a homework with its items and (when not for the whole class)
    /// its pupils, in one transaction.
    pub async fn insert_homework(
        &self,
        h: &HomeworkRow,
        items: &[ItemRow],
        pupils: &[String],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(&format!(
            "INSERT INTO homework ({HW_COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)"
        ))
        .bind(&h.id)
        .bind(&h.class_id)
        .bind(&h.title)
        .bind(h.due_ms)
        .bind(i64::from(h.retry))
        .bind(i64::from(h.whole))
        .bind(&h.created_by)
        .bind(h.created_ms)
        .execute(&mut *tx)
        .await?;
        for it in items {
            sqlx::query(
                "INSERT INTO homework_items (homework_id, idx, kind, spec) VALUES ($1,$2,$3,$4)",
            )
            .bind(&h.id)
            .bind(it.idx)
            .bind(&it.kind)
            .bind(&it.spec)
            .execute(&mut *tx)
            .await?;
        }
        for p in pupils {
            sqlx::query("INSERT INTO homework_pupils (homework_id, user_id) VALUES ($1,$2)")
                .bind(&h.id)
                .bind(p)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// A homework by id.
    pub async fn homework(&self, id: &str) -> Result<Option<HomeworkRow>, StoreError> {
        let row: Option<HwTuple> =
            sqlx::query_as(&format!("SELECT {HW_COLUMNS} FROM homework WHERE id = $1"))
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(hw_from))
    }

    /// The homework of class `class_id`, newest first.
    pub async fn class_homework(&self, class_id: &str) -> Result<Vec<HomeworkRow>, StoreError> {
        let rows: Vec<HwTuple> = sqlx::query_as(&format!(
            "SELECT {HW_COLUMNS} FROM homework WHERE class_id = $1 ORDER BY created_ms DESC, id"
        ))
        .bind(class_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(hw_from).collect())
    }

    /// Deletes a homework with its items, pupils and attempts.
    pub async fn delete_homework(&self, id: &str) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        for table in ["homework_attempts", "homework_items", "homework_pupils"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE homework_id = $1"))
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("DELETE FROM homework WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The items of a homework, in order.
    pub async fn homework_items(&self, id: &str) -> Result<Vec<ItemRow>, StoreError> {
        let rows: Vec<(i64, String, String)> = sqlx::query_as(
            "SELECT idx, kind, spec FROM homework_items WHERE homework_id = $1 ORDER BY idx",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(idx, kind, spec)| ItemRow { idx, kind, spec })
            .collect())
    }

    /// The chosen pupils (account ids) of a homework not for the whole
    /// class.
    pub async fn homework_pupils(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT user_id FROM homework_pupils WHERE homework_id = $1 ORDER BY user_id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    /// Stores an attempt (committed when this returns).
    pub async fn insert_homework_attempt(&self, a: &AttemptRow) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO homework_attempts ({ATTEMPT_COLUMNS}) \
             VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)"
        ))
        .bind(&a.id)
        .bind(&a.homework_id)
        .bind(a.idx)
        .bind(&a.user_id)
        .bind(a.at_ms)
        .bind(&a.work)
        .bind(a.time_ms)
        .bind(a.hints)
        .bind(i64::from(a.solved))
        .bind(i64::from(a.clean))
        .bind(&a.detail)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Every attempt at a homework (of one pupil when `user_id` is given),
    /// oldest first.
    pub async fn homework_attempts(
        &self,
        homework_id: &str,
        user_id: Option<&str>,
    ) -> Result<Vec<AttemptRow>, StoreError> {
        let rows: Vec<AttemptTuple> = match user_id {
            Some(u) => {
                sqlx::query_as(&format!(
                    "SELECT {ATTEMPT_COLUMNS} FROM homework_attempts \
                     WHERE homework_id = $1 AND user_id = $2 ORDER BY at_ms, id"
                ))
                .bind(homework_id)
                .bind(u)
                .fetch_all(&self.pool)
                .await?
            }
            None => {
                sqlx::query_as(&format!(
                    "SELECT {ATTEMPT_COLUMNS} FROM homework_attempts \
                     WHERE homework_id = $1 ORDER BY at_ms, id"
                ))
                .bind(homework_id)
                .fetch_all(&self.pool)
                .await?
            }
        };
        Ok(rows.into_iter().map(attempt_from).collect())
    }

    /// One attempt by id.
    pub async fn homework_attempt(&self, id: &str) -> Result<Option<AttemptRow>, StoreError> {
        let row: Option<AttemptTuple> = sqlx::query_as(&format!(
            "SELECT {ATTEMPT_COLUMNS} FROM homework_attempts WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(attempt_from))
    }

    /// Stores a parent's link.
    pub async fn insert_parent_link(&self, l: &ParentLinkRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO parent_links (token, class_id, user_id, created_ms, revoked_ms) \
             VALUES ($1,$2,$3,$4,NULL)",
        )
        .bind(&l.token)
        .bind(&l.class_id)
        .bind(&l.user_id)
        .bind(l.created_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A parent's link by token (revoked ones included).
    pub async fn parent_link(&self, token: &str) -> Result<Option<ParentLinkRow>, StoreError> {
        let row: Option<(String, String, String, i64, Option<i64>)> = sqlx::query_as(
            "SELECT token, class_id, user_id, created_ms, revoked_ms FROM parent_links \
             WHERE token = $1",
        )
        .bind(token)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|t| ParentLinkRow {
            token: t.0,
            class_id: t.1,
            user_id: t.2,
            created_ms: t.3,
            revoked_ms: t.4,
        }))
    }

    /// Revokes every live link to pupil `user_id` of class `class_id`; how
    /// many were revoked.
    pub async fn revoke_parent_links(
        &self,
        class_id: &str,
        user_id: &str,
        at_ms: i64,
    ) -> Result<u64, StoreError> {
        let r = sqlx::query(
            "UPDATE parent_links SET revoked_ms = $1 \
             WHERE class_id = $2 AND user_id = $3 AND revoked_ms IS NULL",
        )
        .bind(at_ms)
        .bind(class_id)
        .bind(user_id)
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected())
    }
}

impl Store {
    /// Whether class `class_id` has "juego tras la tarea" on (migration
    /// 0014; a class never set has it off).
    pub async fn play_after_homework(&self, class_id: &str) -> Result<bool, StoreError> {
        let row: Option<(i64,)> =
            sqlx::query_as("SELECT play_after FROM class_play_after_homework WHERE class_id = $1")
                .bind(class_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.is_some_and(|r| r.0 != 0))
    }

    /// Turns "juego tras la tarea" on or off for class `class_id`
    /// (teacher `by`'s account id, at `at_ms`).
    pub async fn set_play_after_homework(
        &self,
        class_id: &str,
        on: bool,
        by: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO class_play_after_homework (class_id, play_after, changed_by, changed_ms) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (class_id) DO UPDATE SET \
             play_after = excluded.play_after, changed_by = excluded.changed_by, \
             changed_ms = excluded.changed_ms",
        )
        .bind(class_id)
        .bind(i64::from(on))
        .bind(by)
        .bind(at_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The puzzles found in the analysed games (`puzzles.source = 'game'`)
    /// that pupil `user_id` played, newest game first: each with the game's
    /// owners (`u:ID` keys) to tell whose side solves it.
    pub async fn game_puzzles_of(&self, user_id: &str) -> Result<Vec<GamePuzzleRow>, StoreError> {
        let key = format!("u:{user_id}");
        let rows: Vec<GamePuzzleTuple> = sqlx::query_as(
            "SELECT p.id, p.fen, p.moves, p.rating, p.themes, p.game_id, p.game_ply, \
             g.white_owner, g.black_owner, g.created_ms FROM puzzles p \
             JOIN games g ON g.id = p.game_id \
             WHERE p.source = 'game' AND (g.white_owner = $1 OR g.black_owner = $2) \
             ORDER BY g.created_ms DESC, p.game_ply, p.id",
        )
        .bind(&key)
        .bind(&key)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|t| GamePuzzleRow {
                id: t.0,
                fen: t.1,
                moves: t.2.split_whitespace().map(str::to_string).collect(),
                rating: t.3,
                themes: t.4.split_whitespace().map(str::to_string).collect(),
                game_id: t.5.unwrap_or_default(),
                game_ply: t.6.unwrap_or_default(),
                white_owner: t.7,
                black_owner: t.8,
                game_created_ms: t.9,
            })
            .collect())
    }
}

type GamePuzzleTuple = (
    String,
    String,
    String,
    f64,
    String,
    Option<String>,
    Option<i64>,
    Option<String>,
    Option<String>,
    i64,
);

/// A puzzle found in a server game, with the game's owners (read-only view
/// of issue 56's `puzzles` joined with `games`).
#[derive(Clone, Debug, PartialEq)]
pub struct GamePuzzleRow {
    /// The puzzle's id.
    pub id: String,
    /// The position before the opponent's move.
    pub fen: String,
    /// The opponent's move, then the solution (UCI).
    pub moves: Vec<String>,
    /// Its rating.
    pub rating: f64,
    /// Theme keys.
    pub themes: Vec<String>,
    /// The game it was found in.
    pub game_id: String,
    /// The ply (from 0) of the opponent's move in that game.
    pub game_ply: i64,
    /// The game's White owner (`u:ID`).
    pub white_owner: Option<String>,
    /// The game's Black owner.
    pub black_owner: Option<String>,
    /// When the game began (ms).
    pub game_created_ms: i64,
}
