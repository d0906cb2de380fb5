//! A game on a tournament's board: the no-show forfeit (a side that has not
//! made its first move in time loses), the organiser's added time and set
//! result, and the result handed to the tournament when the game ends.

use std::time::{Duration, Instant};

use escaque::{Color, GameResult, Termination};
use escaque_torneo::Outcome;

use super::finish::End;
use super::{Actor, Phase};
use crate::proto::{ErrorCode, GameEvent};
use crate::store::{self, Ending};
pub use crate::tournament::online::tournament_outcome;

/// How a game ends when the organiser sets `outcome` on its board: the
/// score it gives (`None` for a double forfeit, which no game score is).
fn ending_for(outcome: Outcome) -> Option<Ending> {
    let result = match outcome {
        Outcome::WhiteWins | Outcome::WhiteForfeitWin => Some(GameResult::WhiteWins),
        Outcome::BlackWins | Outcome::BlackForfeitWin => Some(GameResult::BlackWins),
        Outcome::Draw => Some(GameResult::Draw),
        Outcome::DoubleForfeit => None,
        Outcome::Pending => return None,
    };
    Some(Ending {
        result,
        termination: if result.is_some() {
            Termination::Recorded
        } else {
            Termination::Aborted
        },
    })
}

impl Actor {
    /// Reads which tournament board this game is (once, when the task
    /// starts) and starts the no-show wait of a game not yet under way.
    pub(super) async fn load_link(&mut self) {
        let link = match self.hub.store.tournament_link(&self.row.id).await {
            Ok(link) => link,
            Err(e) => {
                store::log_failure_in(&format!("partida {}", self.row.id), &e);
                None
            }
        };
        let Some(link) = link else { return };
        if self.phase == Phase::Playing {
            self.no_show_since = match self.game.moves().len() {
                // White's wait began when the game was created (wall time:
                // a restart does not give White a new wait)…
                0 => {
                    let waited = crate::store::now_ms().saturating_sub(self.row.created_ms);
                    let waited = Duration::from_millis(waited.max(0) as u64);
                    Some(
                        Instant::now()
                            .checked_sub(waited)
                            .unwrap_or_else(Instant::now),
                    )
                }
                // …Black's when White moved; after a restart, now.
                1 => Some(Instant::now()),
                _ => None,
            };
        }
        self.link = Some(link);
    }

    /// When the side to move loses for not having come, if it still can.
    pub(super) fn no_show_deadline(&self) -> Option<tokio::time::Instant> {
        if self.phase != Phase::Playing || self.game.moves().len() >= 2 {
            return None;
        }
        let link = self.link.as_ref()?;
        let since = self.no_show_since?;
        Some(tokio::time::Instant::from_std(since + link.no_show))
    }

    /// After a move: Black's wait starts with White's first move.
    pub(super) fn no_show_after_move(&mut self) {
        self.no_show_since = (self.game.moves().len() < 2).then(Instant::now);
    }

    /// The side to move has not made its first move in time: it loses by
    /// forfeit (stored as an abandonment before that side's first move).
    pub(super) async fn check_no_show(&mut self) {
        let Some(deadline) = self.no_show_deadline() else {
            return;
        };
        if tokio::time::Instant::now() < deadline {
            return;
        }
        let absent = self.game.position().turn();
        if let Some(c) = self.game.clock_mut() {
            c.pause();
        }
        self.finish(End::abandoned(Some(absent.other()), absent))
            .await;
    }

    /// The organiser gives `color` more time.
    pub(super) async fn add_time(&mut self, color: Color, d: Duration) -> Result<(), ErrorCode> {
        self.playing().await?;
        let before = self.game.clone();
        let Some(clock) = self.game.clock_mut() else {
            return Err(ErrorCode::refused(&NoClock));
        };
        clock.add_time(color, d);
        let clocks = self.clocks_now();
        let r = self
            .hub
            .store
            .update_game(Some(&self.fence), &self.row.id, clocks, None)
            .await;
        if let Err(e) = self.stored(r) {
            self.game = before;
            return Err(e);
        }
        if let Some([w, b]) = clocks {
            self.row.clock_white_ms = Some(w);
            self.row.clock_black_ms = Some(b);
        }
        self.broadcast(GameEvent::TimeAdded {
            seat: crate::proto::side(color),
            ms: d.as_millis() as u64,
        });
        Ok(())
    }

    /// The organiser sets the board's result: the game ends with it, and the
    /// tournament records exactly `outcome` (a forfeit stays a forfeit).
    pub(super) async fn set_result(&mut self, outcome: Outcome) -> Result<(), ErrorCode> {
        self.playing().await?;
        let ending = ending_for(outcome).ok_or_else(|| {
            ErrorCode::malformed("«result» no puede ser «*»", "\"result\" cannot be \"*\"")
        })?;
        if let Some(c) = self.game.clock_mut() {
            c.pause();
        }
        self.organiser_outcome = Some(outcome);
        self.finish(End::new(ending)).await;
        Ok(())
    }

    /// The game ended and its ending is stored: a tournament game's result
    /// goes to the tournament before anybody is told.
    pub(super) async fn tell_tournament(&mut self) {
        let Some(link) = self.link.clone() else {
            return;
        };
        let Some(end) = &self.end else { return };
        let outcome = self
            .organiser_outcome
            .or_else(|| tournament_outcome(&end.ending, self.game.moves().len()));
        match (outcome, link.team_table) {
            (None, _) => {}
            (Some(outcome), None) => {
                crate::tournament::online::game_ended(&self.hub, &link, outcome).await
            }
            // A team tournament's board (issue 59, online team play).
            (Some(outcome), Some(_)) => {
                crate::equipos::online::game_ended(&self.hub, &link, outcome).await
            }
        }
    }
}

/// Adding time to a game without a clock.
#[derive(Debug)]
struct NoClock;

impl escaque::Localized for NoClock {
    fn message(&self, lang: escaque::Lang) -> String {
        lang.pick("esta partida no tiene reloj", "this game has no clock")
            .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ending(result: Option<GameResult>, termination: Termination) -> Ending {
        Ending {
            result,
            termination,
        }
    }

    #[test]
    fn a_side_that_never_moved_loses_by_forfeit() {
        let white_absent = ending(
            Some(GameResult::BlackWins),
            Termination::Abandoned { by: Color::White },
        );
        assert_eq!(
            tournament_outcome(&white_absent, 0),
            Some(Outcome::BlackForfeitWin)
        );
        let black_absent = ending(
            Some(GameResult::WhiteWins),
            Termination::Abandoned { by: Color::Black },
        );
        assert_eq!(
            tournament_outcome(&black_absent, 1),
            Some(Outcome::WhiteForfeitWin)
        );
        // Gone after moving: an abandonment, a game lost, not a forfeit.
        assert_eq!(
            tournament_outcome(&black_absent, 4),
            Some(Outcome::WhiteWins)
        );
        // A draw claimed after the opponent left is a draw.
        let drawn = ending(
            Some(GameResult::Draw),
            Termination::Abandoned { by: Color::Black },
        );
        assert_eq!(tournament_outcome(&drawn, 1), Some(Outcome::Draw));
    }

    #[test]
    fn a_played_game_gives_its_score_and_an_aborted_one_none() {
        let mate = ending(Some(GameResult::BlackWins), Termination::Checkmate);
        assert_eq!(tournament_outcome(&mate, 4), Some(Outcome::BlackWins));
        let agreed = ending(Some(GameResult::Draw), Termination::Agreement);
        assert_eq!(tournament_outcome(&agreed, 30), Some(Outcome::Draw));
        let aborted = ending(None, Termination::Aborted);
        assert_eq!(tournament_outcome(&aborted, 0), None);
    }

    #[test]
    fn the_organisers_result_ends_the_game_with_its_score() {
        let e = ending_for(Outcome::WhiteForfeitWin).unwrap();
        assert_eq!(e.result, Some(GameResult::WhiteWins));
        assert_eq!(e.termination, Termination::Recorded);
        let e = ending_for(Outcome::Draw).unwrap();
        assert_eq!(e.result, Some(GameResult::Draw));
        let e = ending_for(Outcome::DoubleForfeit).unwrap();
        assert_eq!((e.result, e.termination), (None, Termination::Aborted));
        assert!(ending_for(Outcome::Pending).is_none());
    }
}
