//! Games and their moves: the row, its ending and colours as columns, a
//! game's reads, and the seat and secret writes. A game's fenced writes
//! (moves, clocks, endings, takebacks) go through the group-commit writer
//! (`writer.rs`).

use escaque::{Color, GameResult, RuleSet, Termination};
use sqlx::any::AnyRow;
use sqlx::Row;

use super::writer::{check_fence, Job};
use super::{now_ms, Fence, Store, StoreError};

/// A game as stored.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// Public id (in links).
    pub id: String,
    /// The rule set (stored as [`RuleSet::id`]).
    pub rules: RuleSet,
    /// FEN of the start position.
    pub start_fen: String,
    /// Time control in escaque's text form, if any.
    pub time_control: Option<String>,
    /// `human` or `engine:N` (N = level 1–10).
    pub white_kind: String,
    /// As `white_kind`.
    pub black_kind: String,
    /// Owner identity (`u:ID` for an account, `g:ID` for a guest).
    pub white_owner: Option<String>,
    /// As `white_owner`.
    pub black_owner: Option<String>,
    /// SHA-256 of the seat secret (hex).
    pub white_secret: Option<String>,
    /// As `white_secret`.
    pub black_secret: Option<String>,
    /// Display name.
    pub white_name: String,
    /// Display name.
    pub black_name: String,
    /// `waiting`, `playing`, `adjourned`, `over`.
    pub status: String,
    /// How the game ended, when over.
    pub end: Option<Ending>,
    /// White's remaining time after the last stored event, ms.
    pub clock_white_ms: Option<i64>,
    /// Black's remaining time after the last stored event, ms.
    pub clock_black_ms: Option<i64>,
    /// Creation time (wall, ms).
    pub created_ms: i64,
    /// A Chess960 game (column `variant`: `chess960`; `standard` otherwise).
    pub chess960: bool,
    /// A rated game.
    pub rated: bool,
    /// The rating pool a rated game counts in: a time class id (`bullet`,
    /// `blitz`, `rapid`, `classical`) or `chess960`; `None` when casual.
    pub perf: Option<String>,
    /// White's and Black's ratings when the game began (rounded), rated
    /// games only.
    pub ratings: [Option<i64>; 2],
    /// What the game changed White's and Black's ratings by, once applied.
    pub rating_diffs: [Option<i64>; 2],
    /// The game's result has changed its players' ratings.
    pub rating_applied: bool,
    /// The sealed move of an adjourned game (status `adjourned`).
    pub sealed: Option<Sealed>,
    /// The class the game was started in (by a teacher, a simul or a class
    /// tournament); `None` for any other game.
    pub class_id: Option<String>,
}

/// A sealed move as stored: who sealed and the text as written (hidden
/// from everybody until the envelope is opened).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sealed {
    /// Who sealed.
    pub by: Color,
    /// The text as the player wrote it.
    pub text: String,
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// Half-move index from 0.
    pub ply: i64,
    /// The move in UCI.
    pub uci: String,
    /// The mover's remaining time after the move, ms.
    pub clock_ms: Option<i64>,
}

/// How a game ended, as stored: the score (none for an aborted game) and the
/// library's ending.
///
/// Columns: `result` (the PGN result, `*` without one), `termination`
/// ([`Termination::id`]) and `termination_side` (`white`/`black`, the player
/// a sided ending names: [`Termination::side`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The score; `None` for an aborted game.
    pub result: Option<GameResult>,
    /// Why the game ended.
    pub termination: Termination,
}

impl Ending {
    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`, or `*` without one.
    pub fn result_pgn(&self) -> &'static str {
        self.result.map_or("*", GameResult::pgn)
    }

    /// The stored side of the ending (`white`, `black`), if it names one.
    pub fn side_id(&self) -> Option<&'static str> {
        self.termination.side().map(color_id)
    }

    /// Reads the three columns back.
    pub(super) fn from_columns(
        result: &str,
        termination: &str,
        side: Option<&str>,
    ) -> Result<Ending, StoreError> {
        let side = match side {
            None => None,
            Some(s) => Some(color_from_id(s).ok_or_else(|| StoreError::Corrupt {
                what: "games.termination_side",
                value: s.into(),
            })?),
        };
        let termination =
            Termination::from_id(termination, side).ok_or_else(|| StoreError::Corrupt {
                what: "games.termination",
                value: termination.into(),
            })?;
        let result = match result {
            "*" => None,
            r => Some(GameResult::from_pgn(r).ok_or_else(|| StoreError::Corrupt {
                what: "games.result",
                value: r.into(),
            })?),
        };
        Ok(Ending {
            result,
            termination,
        })
    }
}

/// A colour as stored and sent: `white`, `black`.
pub fn color_id(c: Color) -> &'static str {
    c.fold("white", "black")
}

/// A colour from `white` / `black`.
pub fn color_from_id(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

pub(super) const GAME_COLUMNS: &str =
    "id, rules, start_fen, time_control, white_kind, black_kind, \
    white_owner, black_owner, white_secret, black_secret, white_name, black_name, status, \
    result, termination, termination_side, clock_white_ms, clock_black_ms, created_ms, \
    variant, rated, perf, white_rating, black_rating, white_rating_diff, black_rating_diff, \
    rating_applied, sealed_by, sealed_move, class_id";

pub(super) fn game_from_row(r: &AnyRow) -> Result<GameRow, StoreError> {
    let rules: String = r.try_get(1)?;
    let result: Option<String> = r.try_get(13)?;
    let termination: Option<String> = r.try_get(14)?;
    let side: Option<String> = r.try_get(15)?;
    let end = match (result, termination) {
        (Some(res), Some(t)) => Some(Ending::from_columns(&res, &t, side.as_deref())?),
        _ => None,
    };
    Ok(GameRow {
        id: r.try_get(0)?,
        rules: RuleSet::from_id(&rules).ok_or(StoreError::Corrupt {
            what: "games.rules",
            value: rules,
        })?,
        start_fen: r.try_get(2)?,
        time_control: r.try_get(3)?,
        white_kind: r.try_get(4)?,
        black_kind: r.try_get(5)?,
        white_owner: r.try_get(6)?,
        black_owner: r.try_get(7)?,
        white_secret: r.try_get(8)?,
        black_secret: r.try_get(9)?,
        white_name: r.try_get(10)?,
        black_name: r.try_get(11)?,
        status: r.try_get(12)?,
        end,
        clock_white_ms: r.try_get(16)?,
        clock_black_ms: r.try_get(17)?,
        created_ms: r.try_get(18)?,
        chess960: match r.try_get::<String, _>(19)?.as_str() {
            "standard" => false,
            "chess960" => true,
            other => {
                return Err(StoreError::Corrupt {
                    what: "games.variant",
                    value: other.to_string(),
                })
            }
        },
        rated: r.try_get::<i64, _>(20)? != 0,
        perf: r.try_get(21)?,
        ratings: [r.try_get(22)?, r.try_get(23)?],
        rating_diffs: [r.try_get(24)?, r.try_get(25)?],
        rating_applied: r.try_get::<i64, _>(26)? != 0,
        sealed: match (
            r.try_get::<Option<String>, _>(27)?,
            r.try_get::<Option<String>, _>(28)?,
        ) {
            (Some(by), Some(text)) => Some(Sealed {
                by: match by.as_str() {
                    "white" => Color::White,
                    "black" => Color::Black,
                    _ => {
                        return Err(StoreError::Corrupt {
                            what: "games.sealed_by",
                            value: by,
                        })
                    }
                },
                text,
            }),
            _ => None,
        },
        class_id: r.try_get(29)?,
    })
}

impl Store {
    /// Stores a new game.
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        insert_game_in(&self.pool, g).await
    }

    /// A game by id.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(game_from_row).transpose()
    }

    /// The moves of a game, in order.
    pub async fn moves(&self, id: &str) -> Result<Vec<MoveRow>, StoreError> {
        let rows =
            sqlx::query("SELECT ply, uci, clock_ms FROM moves WHERE game_id = $1 ORDER BY ply")
                .bind(id)
                .fetch_all(&self.pool)
                .await?;
        rows.iter()
            .map(|r| {
                Ok(MoveRow {
                    ply: r.try_get(0)?,
                    uci: r.try_get(1)?,
                    clock_ms: r.try_get(2)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::Db)
    }

    /// Stores one move and the clocks after it, in one transaction. When this
    /// returns `Ok`, the move is durable. With a `fence` (every write of a
    /// game's task) the write is refused with [`StoreError::Fenced`] unless
    /// the fence's process still holds the game's lease at its epoch.
    pub async fn append_move(
        &self,
        fence: Option<&Fence>,
        game: &str,
        mv: &MoveRow,
        clocks: Option<[i64; 2]>,
        end: Option<Ending>,
    ) -> Result<(), StoreError> {
        self.write(Job::new(game, fence, Some(mv.clone()), None, clocks, end))
            .await
    }

    /// Updates clocks and/or the ending without a move (a claim, a flag, a
    /// resignation…); fenced as [`Store::append_move`].
    pub async fn update_game(
        &self,
        fence: Option<&Fence>,
        game: &str,
        clocks: Option<[i64; 2]>,
        end: Option<Ending>,
    ) -> Result<(), StoreError> {
        self.write(Job::new(game, fence, None, None, clocks, end))
            .await
    }

    /// Removes the moves from `from_ply` on (an accepted takeback) and sets
    /// the clocks; fenced as [`Store::append_move`].
    pub async fn take_back(
        &self,
        fence: Option<&Fence>,
        game: &str,
        from_ply: i64,
        clocks: Option<[i64; 2]>,
    ) -> Result<(), StoreError> {
        self.write(Job::new(game, fence, None, Some(from_ply), clocks, None))
            .await
    }
    /// Stores a new game (a rematch) only if `fence` still holds game
    /// `old`'s lease, in one transaction: a process that lost the old game
    /// creates no rematch.
    pub async fn insert_game_fenced(
        &self,
        g: &GameRow,
        old: &str,
        fence: &Fence,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        check_fence(&mut tx, old, fence, None).await?;
        insert_game_in(&mut *tx, g).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Seats the second player of a waiting game; false if the seat was taken
    /// meanwhile (by another process or request).
    pub async fn take_seat(
        &self,
        game: &str,
        white: bool,
        owner: &str,
        secret_hash: &str,
        name: &str,
    ) -> Result<bool, StoreError> {
        let (o, s, n) = if white {
            ("white_owner", "white_secret", "white_name")
        } else {
            ("black_owner", "black_secret", "black_name")
        };
        let done = sqlx::query(&format!(
            "UPDATE games SET {o} = $1, {s} = $2, {n} = $3, status = 'playing', updated_ms = $4 \
             WHERE id = $5 AND status = 'waiting' AND {s} IS NULL"
        ))
        .bind(owner)
        .bind(secret_hash)
        .bind(name)
        .bind(now_ms())
        .bind(game)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Replaces the secret of a seat (a player who lost it).
    pub async fn set_secret(
        &self,
        game: &str,
        white: bool,
        secret_hash: &str,
    ) -> Result<(), StoreError> {
        let col = if white {
            "white_secret"
        } else {
            "black_secret"
        };
        sqlx::query(&format!("UPDATE games SET {col} = $1 WHERE id = $2"))
            .bind(secret_hash)
            .bind(game)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Games with status `playing` or `adjourned` (to restart their actors
    /// after a restart).
    pub async fn unfinished_games(&self) -> Result<Vec<String>, StoreError> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT id FROM games WHERE status IN ('playing', 'adjourned') ORDER BY created_ms",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    /// The games of an owner identity, newest first.
    pub async fn games_of(&self, owner: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE white_owner = $1 OR black_owner = $2 \
             ORDER BY created_ms DESC LIMIT $3"
        ))
        .bind(owner)
        .bind(owner)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(game_from_row).collect()
    }
}

/// Inserts a game row inside a transaction.
pub(super) async fn insert_game_in<'e, E>(ex: E, g: &GameRow) -> Result<(), StoreError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let now = now_ms();
    sqlx::query(&format!(
        "INSERT INTO games ({GAME_COLUMNS}, updated_ms) VALUES \
             ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,\
              $20,$21,$22,$23,$24,$25,$26,$27,$28,$29,$30,$31)"
    ))
    .bind(&g.id)
    .bind(g.rules.id())
    .bind(&g.start_fen)
    .bind(&g.time_control)
    .bind(&g.white_kind)
    .bind(&g.black_kind)
    .bind(&g.white_owner)
    .bind(&g.black_owner)
    .bind(&g.white_secret)
    .bind(&g.black_secret)
    .bind(&g.white_name)
    .bind(&g.black_name)
    .bind(&g.status)
    .bind(g.end.map(|e| e.result_pgn()))
    .bind(g.end.map(|e| e.termination.id()))
    .bind(g.end.and_then(|e| e.side_id()))
    .bind(g.clock_white_ms)
    .bind(g.clock_black_ms)
    .bind(g.created_ms)
    .bind(if g.chess960 { "chess960" } else { "standard" })
    .bind(i64::from(g.rated))
    .bind(&g.perf)
    .bind(g.ratings[0])
    .bind(g.ratings[1])
    .bind(g.rating_diffs[0])
    .bind(g.rating_diffs[1])
    .bind(i64::from(g.rating_applied))
    .bind(g.sealed.as_ref().map(|s| s.by.fold("white", "black")))
    .bind(g.sealed.as_ref().map(|s| s.text.clone()))
    .bind(&g.class_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_reads_back_from_its_columns() {
        for t in Termination::ALL {
            for side in [Color::White, Color::Black] {
                let termination = Termination::from_id(t.id(), Some(side)).unwrap();
                for result in [
                    None,
                    Some(GameResult::WhiteWins),
                    Some(GameResult::BlackWins),
                    Some(GameResult::Draw),
                ] {
                    let e = Ending {
                        result,
                        termination,
                    };
                    let back =
                        Ending::from_columns(e.result_pgn(), e.termination.id(), e.side_id())
                            .unwrap();
                    assert_eq!(back, e);
                }
            }
        }
        // The first release's glued names are not read (migration 2
        // rewrites them).
        assert!(Ending::from_columns("0-1", "time:white", None).is_err());
        assert!(Ending::from_columns("0-1", "time_forfeit", None).is_err());
        assert!(Ending::from_columns("0-1", "time_forfeit", Some("blanco")).is_err());
        assert!(Ending::from_columns("2-0", "checkmate", None).is_err());
    }
}
