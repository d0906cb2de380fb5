//! A rated game's ratings in the actor: each side's rating when the game
//! began (and whether it is provisional), read when the actor starts and
//! when the second player sits down; and, when the game ends, the result
//! applied to both players' ratings (`crate::rating::apply`, once) before
//! the `end` event, whose state then carries each side's change.

use escaque::Color;

use super::{Actor, Phase};
use crate::rating;
use crate::store;

impl Actor {
    /// Reads each seated account's rating in the game's pool (when the
    /// actor starts): whether it is provisional, and the rating itself for
    /// a side that has none yet.
    pub(super) async fn load_ratings(&mut self) {
        let owners = [self.row.white_owner.clone(), self.row.black_owner.clone()];
        for (c, owner) in [Color::White, Color::Black].into_iter().zip(owners) {
            if let Some(owner) = owner {
                self.seat_rating(c, &owner).await;
            }
        }
    }

    /// `owner` sits (or sat) in `seat` of a rated game: whether its rating
    /// is provisional, and the rating itself if the game has none for the
    /// seat yet (the second player of a challenge: stored in the game
    /// too, before the game starts).
    pub(super) async fn seat_rating(&mut self, seat: Color, owner: &str) {
        if !self.row.rated {
            return;
        }
        let Some(perf) = self.row.perf.clone() else {
            return;
        };
        let Ok(Some(g)) = rating::current_of(&self.hub.store, Some(owner), &perf).await else {
            return;
        };
        let i = seat.index();
        self.provisional[i] = g.provisional();
        if self.row.ratings[i].is_none() && self.phase != Phase::Over {
            self.row.ratings[i] = Some(g.int_rating());
            let stored = self
                .hub
                .store
                .set_game_rating(
                    &self.fence,
                    &self.row.id,
                    seat == Color::White,
                    g.int_rating(),
                )
                .await;
            let _ = self.stored(stored);
        }
    }

    /// The game has ended (and its ending is stored): a rated game changes
    /// its players' ratings now. A failure is logged; the next start's
    /// sweep applies the game then.
    pub(super) async fn apply_rating(&mut self) {
        if !self.row.rated || self.row.rating_applied {
            return;
        }
        match rating::apply(&self.hub.store, &self.row.id).await {
            Ok(Some(u)) => {
                self.row.rating_diffs = u.diffs.map(Some);
                self.row.rating_applied = true;
            }
            Ok(None) => {}
            Err(e) => {
                store::log_failure_in(&format!("partida {}: puntuación / rating", self.row.id), &e)
            }
        }
    }
}
