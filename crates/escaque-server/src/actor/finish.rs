//! How a game ends outside a move (model: lila's `Finisher.scala`):
//! resignation, abort, a flag, a claim after the opponent's disconnection;
//! how an ending is worded (the library's texts) and told. Its stored form
//! is `store::Ending`, converted to and from columns in `store.rs` only.

use std::sync::atomic::Ordering;

use escaque::{Color, GameResult, Lang, Localized, Outcome, Termination};
use escaque_play::ExternalEnding;

use super::{Actor, Phase};
use crate::proto::{ErrorCode, GameEvent};
use crate::store::Ending;

/// How a game ended, as stored ([`Ending`]) and worded for people.
#[derive(Clone, Debug)]
pub(super) struct End {
    pub(super) ending: Ending,
    pub(super) es: String,
    pub(super) en: String,
}

impl End {
    pub(super) fn new(ending: Ending) -> End {
        // The library's wording: an outcome with its score, or (an aborted
        // game, without one) the ending itself.
        let words = |lang: Lang| match ending.result {
            Some(result) => Outcome {
                result,
                termination: ending.termination,
            }
            .message(lang),
            None => {
                let t = ending.termination.message(lang);
                let mut c = t.chars();
                c.next()
                    .map(|f| f.to_uppercase().chain(c).collect())
                    .unwrap_or(t)
            }
        };
        End {
            es: words(Lang::Es),
            en: words(Lang::En),
            ending,
        }
    }

    pub(super) fn from_outcome(o: Outcome) -> End {
        End::new(Ending {
            result: Some(o.result),
            termination: o.termination,
        })
    }

    pub(super) fn aborted() -> End {
        End::new(Ending {
            result: None,
            termination: Termination::Aborted,
        })
    }

    /// `gone` left; its opponent claimed the win (`winner`) or a draw.
    pub(super) fn abandoned(winner: Option<Color>, gone: Color) -> End {
        End::new(Ending {
            result: Some(winner.map_or(GameResult::Draw, GameResult::win_for)),
            termination: Termination::Abandoned { by: gone },
        })
    }

    /// The ending as the game record writes it.
    pub(super) fn pgn_ending(&self) -> ExternalEnding {
        ExternalEnding {
            result: self.ending.result,
            termination: escaque_play::pgn_termination(self.ending.termination),
        }
    }
}

impl Actor {
    pub(super) async fn check_flag(&mut self) {
        if self.phase != Phase::Playing {
            return;
        }
        if let Some(o) = self.game.poll_clock() {
            self.finish(End::from_outcome(o)).await;
        }
    }

    pub(super) async fn resign(&mut self, me: Color) -> Result<(), ErrorCode> {
        let o = self.game.resign(me).map_err(|e| self.lib_err(e))?;
        self.finish(End::from_outcome(o)).await;
        Ok(())
    }

    pub(super) async fn abort(&mut self) -> Result<(), ErrorCode> {
        if self.game.moves().len() >= 2 {
            return Err(ErrorCode::TooLateToAbort);
        }
        if let Some(c) = self.game.clock_mut() {
            c.pause();
        }
        self.finish(End::aborted()).await;
        Ok(())
    }

    pub(super) async fn claim_abandoned(
        &mut self,
        me: Color,
        result: &str,
    ) -> Result<(), ErrorCode> {
        if self.abandon_claimable_by() != Some(me) {
            return Err(ErrorCode::CannotClaimAbandon);
        }
        let winner = match result {
            "win" => Some(me),
            "draw" => None,
            other => {
                return Err(ErrorCode::malformed(
                    format!("«result» debe ser «win» o «draw», no {other:?}"),
                    format!("\"result\" must be \"win\" or \"draw\", not {other:?}"),
                ))
            }
        };
        if let Some(c) = self.game.clock_mut() {
            c.pause();
        }
        self.finish(End::abandoned(winner, me.other())).await;
        Ok(())
    }

    pub(super) fn set_over(&mut self, end: End) {
        self.phase = Phase::Over;
        self.end = Some(end);
        self.takeback_offer = None;
        if let Some((_, stop)) = self.engine_job.take() {
            stop.store(true, Ordering::SeqCst);
        }
    }

    /// Stores the ending, then tells everybody. If storage fails the game is
    /// still over in memory (an ending cannot be taken back) and the store
    /// is retried on the next change — unless the write was fenced: then
    /// nothing is told and the task stops.
    pub(super) async fn finish(&mut self, end: End) {
        if self.phase == Phase::Over {
            return;
        }
        for _ in 0..3 {
            let r = self
                .hub
                .store
                .update_game(
                    Some(&self.fence),
                    &self.row.id,
                    self.clocks_now(),
                    Some(end.ending),
                )
                .await;
            if self.stored(r).is_ok() {
                break;
            }
            if self.fenced {
                // Another process runs the game now: the ending is not
                // this process's to tell.
                return;
            }
        }
        self.concluded(end).await;
        self.broadcast(GameEvent::End {});
    }

    /// What follows every ending once it is stored (by a move, the
    /// envelope's opening or [`Actor::finish`]): the game is over in memory,
    /// its tournament records the result and a rated game changes its
    /// players' ratings — all before anybody is told.
    pub(super) async fn concluded(&mut self, end: End) {
        self.set_over(end);
        self.tell_tournament().await;
        self.apply_rating().await;
    }
}
