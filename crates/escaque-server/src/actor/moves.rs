//! A move: read with the library's one reader, the mover credited with its
//! network time, played, stored, then told (model: lila's `Player.scala`).

use std::time::{Duration, Instant};

use escaque::{coord, ClaimResult, Color, GameError, Lang, Localized, Move, TimeSource};

use super::finish::End;
use super::Actor;
use crate::proto::{read_move, side, ErrorCode, GameEvent};
use crate::store::MoveRow;

impl Actor {
    /// A person's move.
    pub(super) async fn move_by(
        &mut self,
        me: Color,
        text: &str,
        received: Instant,
        rtt: Duration,
    ) -> Result<(), ErrorCode> {
        if me != self.game.position().turn() {
            return Err(ErrorCode::NotYourTurn);
        }
        let m = read_move(self.game.position(), text)?;
        self.play_credited(m, None, received, rtt).await
    }

    /// Plays a person's move with the network time credited; a move that
    /// is not made takes the credit back.
    pub(super) async fn play_credited(
        &mut self,
        m: Move,
        claim_by: Option<Color>,
        received: Instant,
        rtt: Duration,
    ) -> Result<(), ErrorCode> {
        let credited = self.credit_lag(received, rtt);
        let played = self.play(m, claim_by).await;
        if played.is_err() {
            self.time.uncredit(credited);
        }
        played
    }

    /// Plays `m` (a declared move with a claim when `claim_by` is set),
    /// stores it, then tells everybody.
    pub(super) async fn play(&mut self, m: Move, claim_by: Option<Color>) -> Result<(), ErrorCode> {
        let before = self.game.clone();
        let ply = self.game.moves().len();
        let res = match claim_by {
            None => self.game.play(m).map(|_| None),
            Some(_) => self.game.claim_draw_with_move(m).map(Some),
        };
        let claim = match res {
            Ok(c) => c,
            Err(GameError::FlagFell(_)) => {
                if let Some(o) = self.game.outcome() {
                    self.finish(End::from_outcome(o)).await;
                }
                return Err(ErrorCode::GameOver);
            }
            Err(e) => return Err(self.lib_err(e)),
        };
        if ply == 0 && self.game.outcome().is_none() {
            // The first move of each side is free: White's clock did not run
            // (the press started it) and Black's waits until Black moves.
            if let Some(c) = self.game.clock_mut() {
                c.pause();
            }
        }
        let rec = &self.game.moves()[ply];
        let clock_ms = rec.clock.map(|d| d.as_millis() as i64);
        // Chess960 castling is stored as the king taking its rook.
        let uci = coord::to_uci_in(before.position(), rec.mv, self.game.is_chess960());
        let end = self.game.outcome().map(End::from_outcome);
        let storing = Instant::now();
        let stored = self
            .hub
            .store
            .append_move(
                Some(&self.fence),
                &self.row.id,
                &MoveRow {
                    ply: ply as i64,
                    uci,
                    clock_ms,
                },
                self.clocks_now(),
                end.as_ref().map(|e| e.ending),
            )
            .await;
        if let Err(e) = self.stored(stored) {
            self.game = before;
            return Err(e);
        }
        // The opponent's clock started with the move, but the opponent is
        // told only once it is stored: the server's own time is nobody's.
        self.time.credit(storing.elapsed());
        self.clk.truncate(ply);
        self.clk.push(clock_ms);
        self.turn_start = self.time.now();
        self.takeback_offer = None;
        self.adjourn_offer_lapses();
        if let Some([w, b]) = self.clocks_now() {
            self.row.clock_white_ms = Some(w);
            self.row.clock_black_ms = Some(b);
        }
        if let (Some(by), Some(ClaimResult::Rejected)) = (claim_by, &claim) {
            self.broadcast(claim_rejected(by));
        }
        let data = GameEvent::Move(self.move_view(ply));
        self.no_show_after_move();
        if let Some(e) = end {
            self.concluded(e).await;
            self.broadcast(data);
            self.broadcast(GameEvent::End {});
        } else if let Some(ClaimResult::Granted(o)) = claim {
            // The declared move made the claim correct.
            self.broadcast(data);
            self.finish(End::from_outcome(o)).await;
        } else {
            self.broadcast(data);
            self.maybe_think();
        }
        Ok(())
    }
}

/// The event of an incorrect claim by `by`, in the library's words.
pub(super) fn claim_rejected(by: Color) -> GameEvent {
    GameEvent::ClaimRejected {
        by: side(by),
        es: ClaimResult::Rejected.message(Lang::Es),
        en: ClaimResult::Rejected.message(Lang::En),
    }
}
