//! Draws by agreement and by claim (model: lila's `Drawer.scala`): the
//! library decides; an offer stands until answered or until the opponent
//! moves, an incorrect claim counts as an offer and gives the opponent two
//! minutes (FIDE 9.5.3).

use std::time::{Duration, Instant};

use escaque::{ClaimResult, Color};

use super::finish::End;
use super::moves::claim_rejected;
use super::Actor;
use crate::proto::{read_move, side, ErrorCode, GameEvent};

impl Actor {
    /// Offers a draw, or accepts the opponent's pending offer.
    pub(super) async fn offer_draw(&mut self, me: Color) -> Result<(), ErrorCode> {
        let before = self.game.draw_offer();
        let r = self
            .game
            .offer_draw(me)
            .map_err(|e| ErrorCode::refused(&e))?;
        match r {
            Some(o) => self.finish(End::from_outcome(o)).await,
            None => {
                if before != self.game.draw_offer() {
                    self.broadcast(GameEvent::DrawOffer { by: side(me) });
                }
            }
        }
        Ok(())
    }

    pub(super) async fn accept_draw(&mut self, me: Color) -> Result<(), ErrorCode> {
        let o = self.game.accept_draw(me).map_err(|e| self.lib_err(e))?;
        self.finish(End::from_outcome(o)).await;
        Ok(())
    }

    pub(super) async fn decline_draw(&mut self, me: Color) -> Result<(), ErrorCode> {
        self.game
            .decline_draw(me)
            .map_err(|e| ErrorCode::refused(&e))?;
        self.broadcast(GameEvent::DrawDeclined { by: side(me) });
        Ok(())
    }

    /// Claims a draw on the board, or with a declared move (played either
    /// way).
    pub(super) async fn claim_draw(
        &mut self,
        me: Color,
        declared: Option<String>,
        received: Instant,
        rtt: Duration,
    ) -> Result<(), ErrorCode> {
        if me != self.game.position().turn() {
            return Err(ErrorCode::NotYourTurn);
        }
        match declared {
            Some(t) => {
                let m = read_move(self.game.position(), &t)?;
                self.play_credited(m, Some(me), received, rtt).await
            }
            None => self.claim_without_move(me).await,
        }
    }

    async fn claim_without_move(&mut self, me: Color) -> Result<(), ErrorCode> {
        let before = self.game.clone();
        let r = self.game.claim_draw().map_err(|e| self.lib_err(e))?;
        match r {
            ClaimResult::Granted(o) | ClaimResult::Ended(o) => {
                self.finish(End::from_outcome(o)).await;
            }
            ClaimResult::Rejected => {
                // Two minutes for the opponent (9.5.3): stored before told.
                let r = self
                    .hub
                    .store
                    .update_game(Some(&self.fence), &self.row.id, self.clocks_now(), None)
                    .await;
                if let Err(e) = self.stored(r) {
                    self.game = before;
                    return Err(e);
                }
                self.broadcast(claim_rejected(me));
            }
        }
        Ok(())
    }
}
