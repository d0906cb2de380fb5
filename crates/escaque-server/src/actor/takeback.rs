//! Takebacks (model: lila's `Takebacker.scala`): only without a clock; the
//! rule of how many plies go is `escaque_play::takeback_plies`, the same as
//! the terminal's; the engine always agrees, a person is asked.

use std::sync::atomic::Ordering;

use escaque::{Color, GameError, TimeSource};

use super::Actor;
use crate::proto::{side, ErrorCode, GameEvent};

impl Actor {
    /// `me` asks to take back their last move.
    pub(super) async fn ask_takeback(&mut self, me: Color) -> Result<(), ErrorCode> {
        if !escaque_play::takeback_allowed(&self.game) {
            return Err(ErrorCode::NoTakebackWithClock);
        }
        if escaque_play::takeback_plies(&self.game, me) == 0 {
            return Err(ErrorCode::refused(&GameError::NothingToUndo));
        }
        if self.kinds[me.other().index()].is_engine() {
            // The engine always agrees.
            self.take_back(me).await
        } else {
            self.takeback_offer = Some(me);
            self.broadcast(GameEvent::TakebackOffer { by: side(me) });
            Ok(())
        }
    }

    /// `me` answers the opponent's request.
    pub(super) async fn answer_takeback(
        &mut self,
        me: Color,
        accept: bool,
    ) -> Result<(), ErrorCode> {
        let by = self
            .takeback_offer
            .filter(|&c| c != me)
            .ok_or(ErrorCode::NothingPending)?;
        self.takeback_offer = None;
        if accept {
            self.take_back(by).await
        } else {
            self.broadcast(GameEvent::TakebackDeclined { by: side(me) });
            Ok(())
        }
    }

    /// Takes back the plies `by` asked for, stored before told.
    async fn take_back(&mut self, by: Color) -> Result<(), ErrorCode> {
        let n = escaque_play::takeback_plies(&self.game, by);
        if n == 0 {
            return Err(ErrorCode::refused(&GameError::NothingToUndo));
        }
        if let Some((_, stop)) = self.engine_job.take() {
            stop.store(true, Ordering::SeqCst);
        }
        let before = self.game.clone();
        for _ in 0..n {
            self.game.undo().map_err(|e| ErrorCode::refused(&e))?;
        }
        let from = self.game.moves().len();
        let r = self
            .hub
            .store
            .take_back(
                Some(&self.fence),
                &self.row.id,
                from as i64,
                self.clocks_now(),
            )
            .await;
        if let Err(e) = self.stored(r) {
            self.game = before;
            return Err(e);
        }
        self.clk.truncate(from);
        self.turn_start = self.time.now();
        self.broadcast(GameEvent::Takeback {
            by: side(by),
            plies: from,
        });
        self.maybe_think();
        Ok(())
    }
}
