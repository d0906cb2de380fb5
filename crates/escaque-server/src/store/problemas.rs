//! The puzzle trainer in storage (issue 56): every statement on `puzzles`,
//! `puzzle_players`, `puzzle_attempts` and `puzzle_queue` (migration
//! 0010). The rules (what is served, how an answer is judged and rated)
//! are in `crate::problemas`.
//!
//! An answer is stored once ([`Store::finish_puzzle_attempt`]): its transaction's
//! first statement claims the attempt (`answered_ms` from NULL to now), so
//! a second answer of the same attempt changes nothing, however it
//! arrives; on SQLite that claim takes the database's write lock before
//! the ratings are read, on PostgreSQL the player's and the puzzle's rows
//! are read `FOR UPDATE`.

use std::collections::HashSet;

use escaque_torneo::glicko::Glicko;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::{now_ms, Backend, Store, StoreError};

/// Where a stored puzzle comes from.
pub const SOURCE_SHIPPED: &str = "shipped";
/// The children's mates proved by the rules library.
pub const SOURCE_MATES: &str = "mates";
/// Found in a game of this server when it was analysed.
pub const SOURCE_GAME: &str = "game";
/// The `meta` key of the shipped sets' fingerprint last stored.
const META_SHIPPED: &str = "puzzles_shipped";

/// A puzzle as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    /// The identifier (lichess's `PuzzleId`).
    pub id: String,
    /// The position before the opponent's move.
    pub fen: String,
    /// The opponent's move, then the solution, in UCI.
    pub moves: Vec<String>,
    /// The puzzle's rating, deviation and volatility.
    pub glicko: Glicko,
    /// Rated attempts that changed its rating.
    pub plays: i64,
    /// lichess's theme keys.
    pub themes: Vec<String>,
    /// Where the game is (lichess's `GameUrl`).
    pub game_url: String,
    /// lichess's opening keys.
    pub opening_tags: Vec<String>,
    /// [`SOURCE_SHIPPED`], [`SOURCE_MATES`] or [`SOURCE_GAME`].
    pub source: String,
    /// One of the children's puzzles.
    pub kid: bool,
    /// The server's game it was found in.
    pub game_id: Option<String>,
    /// The ply (from 0) of the opponent's move in that game.
    pub game_ply: Option<i64>,
}

const PUZZLE_COLUMNS: &str = "id, fen, moves, rating, deviation, volatility, plays, themes, \
    game_url, opening_tags, source, kid, game_id, game_ply";

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

fn puzzle_from_row(r: &AnyRow) -> Result<PuzzleRow, StoreError> {
    puzzle_at(r, 0)
}

/// A solver's puzzle rating and streak.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SolverRow {
    /// Rating, deviation and volatility.
    pub glicko: Glicko,
    /// Rated attempts.
    pub rated: i64,
    /// Puzzles solved in a row in streak mode, now.
    pub streak: i64,
    /// The longest streak.
    pub best_streak: i64,
}

/// One attempt (a puzzle served).
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptRow {
    /// Its id (in the answer's route).
    pub id: String,
    /// Who it was served to.
    pub owner: String,
    /// The puzzle.
    pub puzzle: String,
    /// `rating`, `streak` or `queue`.
    pub mode: String,
    /// When it was served (wall, ms).
    pub served_ms: i64,
    /// When it was answered; `None` while open.
    pub answered_ms: Option<i64>,
    /// The solver's moves as answered (UCI).
    pub moves: Vec<String>,
    /// The time the player took, as the client measured it.
    pub time_ms: Option<i64>,
    /// Hints asked.
    pub hints: i64,
    /// The solution was shown.
    pub solution_seen: bool,
    /// Solved (once answered).
    pub solved: Option<bool>,
    /// The player's rating before and after, when the attempt was rated.
    pub rating_before: Option<f64>,
    /// As `rating_before`.
    pub rating_after: Option<f64>,
}

const ATTEMPT_COLUMNS: &str = "id, owner, puzzle, mode, served_ms, answered_ms, moves, time_ms, \
    hints, solution_seen, solved, rating_before, rating_after";

fn attempt_from_row(r: &AnyRow) -> Result<AttemptRow, StoreError> {
    let moves: String = r.try_get(6)?;
    let seen: i64 = r.try_get(9)?;
    let solved: Option<i64> = r.try_get(10)?;
    Ok(AttemptRow {
        id: r.try_get(0)?,
        owner: r.try_get(1)?,
        puzzle: r.try_get(2)?,
        mode: r.try_get(3)?,
        served_ms: r.try_get(4)?,
        answered_ms: r.try_get(5)?,
        moves: words(&moves),
        time_ms: r.try_get(7)?,
        hints: r.try_get(8)?,
        solution_seen: seen != 0,
        solved: solved.map(|s| s != 0),
        rating_before: r.try_get(11)?,
        rating_after: r.try_get(12)?,
    })
}

/// One puzzle of a player's queue.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueRow {
    /// The puzzle.
    pub puzzle: PuzzleRow,
    /// When it is due (wall, ms).
    pub due_ms: i64,
    /// −1 new (never tried from the queue), 0–3 the returns after a miss.
    pub step: i64,
    /// When it joined the queue.
    pub added_ms: i64,
}

/// What the rules decided for an answer, written by [`Store::finish_puzzle_attempt`].
#[derive(Clone, Debug)]
pub struct Finish {
    /// The solver's moves.
    pub moves: Vec<String>,
    /// As the client measured it, ms.
    pub time_ms: i64,
    /// Solved.
    pub solved: bool,
    /// The solution was shown (the answer is the "ver la solución").
    pub solution_seen: bool,
}

/// What the rules compute from the ratings read inside the answer's
/// transaction: the player's and the puzzle's new ratings, when rated.
pub type Rate<'a> =
    dyn FnOnce(&AttemptRow, Option<SolverRow>, &PuzzleRow) -> Option<[Glicko; 2]> + Send + 'a;

/// What an answer changed.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The attempt as stored now.
    pub attempt: AttemptRow,
    /// The player as stored now (`None`: a kid's attempt, or a player who
    /// never had a rated attempt nor a streak).
    pub solver: Option<SolverRow>,
    /// The puzzle's rating after the answer.
    pub puzzle_rating: f64,
    /// The puzzle is in the player's queue after the answer, due then.
    pub queued_until: Option<i64>,
}

/// The returns of a missed puzzle, days: after a miss it comes back after
/// the first; each time it is solved from the queue, after the next; solved
/// after the last, it leaves the queue.
pub const QUEUE_DAYS: [i64; 4] = [1, 3, 7, 21];
const DAY_MS: i64 = 86_400_000;

impl Store {
    /// The ids of every stored puzzle.
    pub async fn puzzle_ids(&self) -> Result<HashSet<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as("SELECT id FROM puzzles")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.into_iter().map(|(id,)| id).collect())
    }

    /// The themes of the catalogue a solver is served from ([`Store::puzzles_near`]'s:
    /// never the puzzles of players' games; only the children's when
    /// `kid`): each distinct theme string (space-separated keys) with how
    /// many puzzles have it.
    pub async fn catalogue_theme_sets(&self, kid: bool) -> Result<Vec<(String, i64)>, StoreError> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT themes, COUNT(*) FROM puzzles WHERE source <> 'game' \
             AND (kid = 1 OR $1 = 0) GROUP BY themes",
        )
        .bind(kid as i64)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// The fingerprint of the shipped sets stored last (`meta`
    /// `puzzles_shipped`), if any.
    pub async fn shipped_puzzles_fingerprint(&self) -> Result<Option<String>, StoreError> {
        let row: Option<(String,)> = sqlx::query_as("SELECT value FROM meta WHERE key = $1")
            .bind(META_SHIPPED)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|(v,)| v))
    }

    /// Records that the shipped sets of fingerprint `value` are stored.
    pub async fn set_shipped_puzzles_fingerprint(&self, value: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO meta (key, value) VALUES ($1, $2) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .bind(META_SHIPPED)
        .bind(value)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Stores puzzles in one transaction; one whose id is stored already is
    /// kept as it is. Returns how many were added.
    pub async fn insert_puzzles(&self, rows: &[PuzzleRow]) -> Result<usize, StoreError> {
        let mut tx = self.pool.begin().await?;
        let mut added = 0;
        for p in rows {
            added += sqlx::query(&format!(
                "INSERT INTO puzzles ({PUZZLE_COLUMNS}) \
                 VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) ON CONFLICT DO NOTHING"
            ))
            .bind(&p.id)
            .bind(&p.fen)
            .bind(p.moves.join(" "))
            .bind(p.glicko.rating)
            .bind(p.glicko.deviation)
            .bind(p.glicko.volatility)
            .bind(p.plays)
            .bind(p.themes.join(" "))
            .bind(&p.game_url)
            .bind(p.opening_tags.join(" "))
            .bind(&p.source)
            .bind(p.kid as i64)
            .bind(&p.game_id)
            .bind(p.game_ply)
            .execute(&mut *tx)
            .await?
            .rows_affected() as usize;
        }
        tx.commit().await?;
        Ok(added)
    }

    /// One puzzle.
    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        let r = sqlx::query(&format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        r.as_ref().map(puzzle_from_row).transpose()
    }

    /// The catalogue's puzzles (never those found in players' games) nearest
    /// to `target` in rating, at most `limit`: only the children's when
    /// `kid`; with theme key `theme` when given; rated within `[lo, hi]`;
    /// those `owner` has answered left out when `owner` is given.
    pub async fn puzzles_near(
        &self,
        target: f64,
        kid: bool,
        theme: Option<&str>,
        range: (f64, f64),
        owner: Option<&str>,
        limit: i64,
    ) -> Result<Vec<PuzzleRow>, StoreError> {
        let theme_like = theme.map(|t| format!("% {t} %"));
        let rows = sqlx::query(&format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles p \
             WHERE p.source <> 'game' AND (p.kid = 1 OR $1 = 0) \
             AND ($2 IS NULL OR (' ' || p.themes || ' ') LIKE $3) \
             AND p.rating >= $4 AND p.rating <= $5 \
             AND ($6 IS NULL OR NOT EXISTS (SELECT 1 FROM puzzle_attempts a \
                 WHERE a.owner = $7 AND a.puzzle = p.id AND a.answered_ms IS NOT NULL)) \
             ORDER BY ABS(p.rating - $8), p.id LIMIT $9"
        ))
        .bind(kid as i64)
        .bind(theme)
        .bind(theme_like)
        .bind(range.0)
        .bind(range.1)
        .bind(owner)
        .bind(owner)
        .bind(target)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(puzzle_from_row).collect()
    }

    /// A solver's puzzle rating and streak.
    pub async fn puzzle_solver(&self, owner: &str) -> Result<Option<SolverRow>, StoreError> {
        let r = sqlx::query(
            "SELECT rating, deviation, volatility, rated, streak, best_streak \
             FROM puzzle_players WHERE owner = $1",
        )
        .bind(owner)
        .fetch_optional(&self.pool)
        .await?;
        r.as_ref().map(solver_from_row).transpose()
    }

    /// Serves `puzzle` to `owner` in `mode`: a new open attempt.
    pub async fn insert_puzzle_attempt(
        &self,
        id: &str,
        owner: &str,
        puzzle: &str,
        mode: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO puzzle_attempts (id, owner, puzzle, mode, served_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(owner)
        .bind(puzzle)
        .bind(mode)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// One attempt.
    pub async fn puzzle_attempt(&self, id: &str) -> Result<Option<AttemptRow>, StoreError> {
        let r = sqlx::query(&format!(
            "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        r.as_ref().map(attempt_from_row).transpose()
    }

    /// Counts a hint on an open attempt; false when it is answered.
    pub async fn add_puzzle_hint(&self, id: &str) -> Result<bool, StoreError> {
        let n = sqlx::query(
            "UPDATE puzzle_attempts SET hints = hints + 1 WHERE id = $1 AND answered_ms IS NULL",
        )
        .bind(id)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Whether `owner` has answered `puzzle` before (an attempt other than
    /// `except`).
    pub async fn puzzle_answered_before(
        &self,
        owner: &str,
        puzzle: &str,
        except: &str,
    ) -> Result<bool, StoreError> {
        let r: Option<(i64,)> = sqlx::query_as(
            "SELECT 1 FROM puzzle_attempts WHERE owner = $1 AND puzzle = $2 AND id <> $3 \
             AND answered_ms IS NOT NULL LIMIT 1",
        )
        .bind(owner)
        .bind(puzzle)
        .bind(except)
        .fetch_optional(&self.pool)
        .await?;
        Ok(r.is_some())
    }

    /// Answers attempt `id` once, in one transaction: the attempt claimed
    /// (`None` when it was answered already: nothing changes), the ratings
    /// `rate` computes from the rows as they stand stored (the player's
    /// rated attempts and the puzzle's plays counted), the streak of a
    /// streak attempt, and the player's queue (a miss comes back after a
    /// day; a queued puzzle solved comes back after the next of
    /// [`QUEUE_DAYS`], or leaves after the last, or at once when it was
    /// new).
    pub async fn finish_puzzle_attempt(
        &self,
        id: &str,
        finish: &Finish,
        rate: Box<Rate<'_>>,
    ) -> Result<Option<Finished>, StoreError> {
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        let claimed = sqlx::query(
            "UPDATE puzzle_attempts SET answered_ms = $1, moves = $2, time_ms = $3, solved = $4, \
             solution_seen = CASE WHEN $5 = 1 THEN 1 ELSE solution_seen END \
             WHERE id = $6 AND answered_ms IS NULL",
        )
        .bind(now)
        .bind(finish.moves.join(" "))
        .bind(finish.time_ms)
        .bind(finish.solved as i64)
        .bind(finish.solution_seen as i64)
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if claimed != 1 {
            return Ok(None);
        }
        let lock = if self.backend == Backend::Postgres {
            " FOR UPDATE"
        } else {
            ""
        };
        let r = sqlx::query(&format!(
            "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE id = $1"
        ))
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        let mut attempt = attempt_from_row(&r)?;
        let solver = sqlx::query(&format!(
            "SELECT rating, deviation, volatility, rated, streak, best_streak \
             FROM puzzle_players WHERE owner = $1{lock}"
        ))
        .bind(&attempt.owner)
        .fetch_optional(&mut *tx)
        .await?;
        let mut solver = solver.as_ref().map(solver_from_row).transpose()?;
        let p = sqlx::query(&format!(
            "SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1{lock}"
        ))
        .bind(&attempt.puzzle)
        .fetch_one(&mut *tx)
        .await?;
        let puzzle = puzzle_from_row(&p)?;
        let mut puzzle_rating = puzzle.glicko.rating;
        let rated = rate(&attempt, solver, &puzzle);
        let streak_mode = attempt.mode == "streak";
        if rated.is_some() || streak_mode {
            let mut s = solver.unwrap_or(SolverRow {
                glicko: Glicko::DEFAULT,
                rated: 0,
                streak: 0,
                best_streak: 0,
            });
            if let Some([player, puzzle_after]) = rated {
                attempt.rating_before = Some(s.glicko.rating);
                attempt.rating_after = Some(player.rating);
                s.glicko = player;
                s.rated += 1;
                puzzle_rating = puzzle_after.rating;
                sqlx::query(
                    "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3, \
                     plays = plays + 1 WHERE id = $4",
                )
                .bind(puzzle_after.rating)
                .bind(puzzle_after.deviation)
                .bind(puzzle_after.volatility)
                .bind(&puzzle.id)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "UPDATE puzzle_attempts SET rating_before = $1, rating_after = $2 WHERE id = $3",
                )
                .bind(attempt.rating_before)
                .bind(attempt.rating_after)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            }
            if streak_mode {
                if finish.solved {
                    s.streak += 1;
                    s.best_streak = s.best_streak.max(s.streak);
                } else {
                    s.streak = 0;
                }
            }
            sqlx::query(
                "INSERT INTO puzzle_players \
                 (owner, rating, deviation, volatility, rated, streak, best_streak, updated_ms) \
                 VALUES ($1,$2,$3,$4,$5,$6,$7,$8) \
                 ON CONFLICT (owner) DO UPDATE SET rating = excluded.rating, \
                 deviation = excluded.deviation, volatility = excluded.volatility, \
                 rated = excluded.rated, streak = excluded.streak, \
                 best_streak = excluded.best_streak, updated_ms = excluded.updated_ms",
            )
            .bind(&attempt.owner)
            .bind(s.glicko.rating)
            .bind(s.glicko.deviation)
            .bind(s.glicko.volatility)
            .bind(s.rated)
            .bind(s.streak)
            .bind(s.best_streak)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            solver = Some(s);
        }
        // The queue.
        let queued: Option<(i64,)> =
            sqlx::query_as("SELECT step FROM puzzle_queue WHERE owner = $1 AND puzzle = $2")
                .bind(&attempt.owner)
                .bind(&puzzle.id)
                .fetch_optional(&mut *tx)
                .await?;
        let next = match (finish.solved, queued) {
            (false, _) => Some((0, now + QUEUE_DAYS[0] * DAY_MS)),
            (true, None) => None,
            (true, Some((step,))) if step < 0 => None,
            (true, Some((step,))) if attempt.mode != "queue" => Some((step, -1)),
            (true, Some((step,))) => QUEUE_DAYS
                .get(step as usize + 1)
                .map(|d| (step + 1, now + d * DAY_MS)),
        };
        let queued_until = match next {
            // Solved outside the queue: the queued puzzle keeps its day.
            Some((_, -1)) => None,
            Some((step, due)) => {
                sqlx::query(
                    "INSERT INTO puzzle_queue (owner, puzzle, due_ms, step, added_ms) \
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (owner, puzzle) DO UPDATE \
                     SET due_ms = excluded.due_ms, step = excluded.step",
                )
                .bind(&attempt.owner)
                .bind(&puzzle.id)
                .bind(due)
                .bind(step)
                .bind(now)
                .execute(&mut *tx)
                .await?;
                Some(due)
            }
            None => {
                sqlx::query("DELETE FROM puzzle_queue WHERE owner = $1 AND puzzle = $2")
                    .bind(&attempt.owner)
                    .bind(&puzzle.id)
                    .execute(&mut *tx)
                    .await?;
                None
            }
        };
        let queued_until = match (next, queued_until) {
            (Some((_, -1)), _) => {
                let due: Option<(i64,)> = sqlx::query_as(
                    "SELECT due_ms FROM puzzle_queue WHERE owner = $1 AND puzzle = $2",
                )
                .bind(&attempt.owner)
                .bind(&puzzle.id)
                .fetch_optional(&mut *tx)
                .await?;
                due.map(|(d,)| d)
            }
            (_, q) => q,
        };
        tx.commit().await?;
        Ok(Some(Finished {
            attempt,
            solver,
            puzzle_rating,
            queued_until,
        }))
    }

    /// `owner`'s answered attempts, newest first, at most `limit`, each with
    /// its puzzle.
    pub async fn puzzle_history(
        &self,
        owner: &str,
        limit: i64,
    ) -> Result<Vec<(AttemptRow, PuzzleRow)>, StoreError> {
        let cols: String = ATTEMPT_COLUMNS
            .split(", ")
            .map(|c| format!("a.{c}"))
            .chain(PUZZLE_COLUMNS.split(", ").map(|c| format!("p.{c}")))
            .collect::<Vec<_>>()
            .join(", ");
        let rows = sqlx::query(&format!(
            "SELECT {cols} FROM puzzle_attempts a JOIN puzzles p ON p.id = a.puzzle \
             WHERE a.owner = $1 AND a.answered_ms IS NOT NULL \
             ORDER BY a.answered_ms DESC, a.id LIMIT $2"
        ))
        .bind(owner)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let n = ATTEMPT_COLUMNS.split(", ").count();
        rows.iter()
            .map(|r| Ok((attempt_from_row(r)?, puzzle_at(r, n)?)))
            .collect()
    }

    /// Every answered attempt of `owner`: solved or not, and the puzzle's
    /// themes (for the success per theme).
    pub async fn puzzle_results(&self, owner: &str) -> Result<Vec<(bool, String)>, StoreError> {
        let rows: Vec<(i64, String)> = sqlx::query_as(
            "SELECT a.solved, p.themes FROM puzzle_attempts a JOIN puzzles p ON p.id = a.puzzle \
             WHERE a.owner = $1 AND a.answered_ms IS NOT NULL AND a.solved IS NOT NULL",
        )
        .bind(owner)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|(s, t)| (s != 0, t)).collect())
    }

    /// `owner`'s queue, soonest due first.
    pub async fn puzzle_queue(&self, owner: &str) -> Result<Vec<QueueRow>, StoreError> {
        let cols: String = PUZZLE_COLUMNS
            .split(", ")
            .map(|c| format!("p.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        let rows = sqlx::query(&format!(
            "SELECT {cols}, q.due_ms, q.step, q.added_ms FROM puzzle_queue q \
             JOIN puzzles p ON p.id = q.puzzle WHERE q.owner = $1 ORDER BY q.due_ms, p.id"
        ))
        .bind(owner)
        .fetch_all(&self.pool)
        .await?;
        let n = PUZZLE_COLUMNS.split(", ").count();
        rows.iter()
            .map(|r| {
                Ok(QueueRow {
                    puzzle: puzzle_from_row(r)?,
                    due_ms: r.try_get(n)?,
                    step: r.try_get(n + 1)?,
                    added_ms: r.try_get(n + 2)?,
                })
            })
            .collect()
    }

    /// Adds puzzles found in `owner`'s game to the catalogue (a puzzle
    /// stored already is kept) and to `owner`'s queue, due now and new
    /// (one already queued keeps its place). Returns how many joined the
    /// queue.
    pub async fn queue_found(&self, owner: &str, rows: &[PuzzleRow]) -> Result<usize, StoreError> {
        self.insert_puzzles(rows).await?;
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        let mut added = 0;
        for p in rows {
            added += sqlx::query(
                "INSERT INTO puzzle_queue (owner, puzzle, due_ms, step, added_ms) \
                 VALUES ($1, $2, $3, -1, $4) ON CONFLICT DO NOTHING",
            )
            .bind(owner)
            .bind(&p.id)
            .bind(now)
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected() as usize;
        }
        tx.commit().await?;
        Ok(added)
    }
}

fn solver_from_row(r: &AnyRow) -> Result<SolverRow, StoreError> {
    Ok(SolverRow {
        glicko: Glicko {
            rating: r.try_get(0)?,
            deviation: r.try_get(1)?,
            volatility: r.try_get(2)?,
        },
        rated: r.try_get(3)?,
        streak: r.try_get(4)?,
        best_streak: r.try_get(5)?,
    })
}

/// A puzzle whose columns start at column `at` of a joined row.
fn puzzle_at(r: &AnyRow, at: usize) -> Result<PuzzleRow, StoreError> {
    let moves: String = r.try_get(at + 2)?;
    let themes: String = r.try_get(at + 7)?;
    let tags: String = r.try_get(at + 9)?;
    let kid: i64 = r.try_get(at + 11)?;
    Ok(PuzzleRow {
        id: r.try_get(at)?,
        fen: r.try_get(at + 1)?,
        moves: words(&moves),
        glicko: Glicko {
            rating: r.try_get(at + 3)?,
            deviation: r.try_get(at + 4)?,
            volatility: r.try_get(at + 5)?,
        },
        plays: r.try_get(at + 6)?,
        themes: words(&themes),
        game_url: r.try_get(at + 8)?,
        opening_tags: words(&tags),
        source: r.try_get(at + 10)?,
        kid: kid != 0,
        game_id: r.try_get(at + 12)?,
        game_ply: r.try_get(at + 13)?,
    })
}
