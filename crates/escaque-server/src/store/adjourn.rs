//! Adjourned games (status `adjourned`, migration 0005's `sealed_by` and
//! `sealed_move`): the game adjourned with its envelope, and the envelope
//! opened, each in one transaction.

use super::{check_fence, now_ms, Ending, Fence, Job, MoveRow, Sealed, Store, StoreError};

impl Store {
    /// Adjourns a game in progress: the envelope and both clocks stored,
    /// status `adjourned`. False if the game was not in progress;
    /// [`StoreError::Fenced`] when `fence` no longer holds the game.
    pub async fn adjourn_game(
        &self,
        fence: &Fence,
        game: &str,
        clocks: Option<[i64; 2]>,
        sealed: &Sealed,
    ) -> Result<bool, StoreError> {
        let [w, b] = match clocks {
            Some([w, b]) => [Some(w), Some(b)],
            None => [None, None],
        };
        let mut tx = self.pool.begin().await?;
        check_fence(&mut tx, game, fence, Some(now_ms())).await?;
        let done = sqlx::query(
            "UPDATE games SET status = 'adjourned', sealed_by = $1, sealed_move = $2, \
             clock_white_ms = COALESCE($3, clock_white_ms), \
             clock_black_ms = COALESCE($4, clock_black_ms), updated_ms = $5 \
             WHERE id = $6 AND status = 'playing'",
        )
        .bind(sealed.by.fold("white", "black"))
        .bind(&sealed.text)
        .bind(w)
        .bind(b)
        .bind(now_ms())
        .bind(game)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// Opens an adjourned game's envelope: the envelope removed and the game
    /// in progress again, with the sealed move played (`mv`) or the verdict
    /// (`end`), and the clocks after it, in one transaction; fenced as a
    /// move ([`Store::append_move`]).
    pub async fn open_envelope(
        &self,
        fence: &Fence,
        game: &str,
        mv: Option<&MoveRow>,
        clocks: Option<[i64; 2]>,
        end: Option<Ending>,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "UPDATE games SET status = 'playing', sealed_by = NULL, sealed_move = NULL, \
             updated_ms = $1 WHERE id = $2 AND status = 'adjourned'",
        )
        .bind(now_ms())
        .bind(game)
        .execute(&mut *tx)
        .await?;
        Job::new(game, Some(fence), mv.cloned(), None, clocks, end)
            .run(&mut tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}
