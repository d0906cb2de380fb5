//! How a game ends outside a move (model: lila's `Finisher.scala`):
//! resignation, abort, a flag, a claim after the opponent's disconnection;
//! how an ending is stored (its code, the ONE place that converts endings
//! to and from their stored form), and told.

use std::sync::atomic::Ordering;

use escaque::{Color, GameResult, Lang, Localized, Outcome, Termination};
use escaque_play::ExternalEnding;

use super::{Actor, Phase};
use crate::proto::{side, ErrorCode, GameEvent};

/// How a game ended, as stored and shown.
#[derive(Clone, Debug)]
pub(super) struct End {
    pub(super) result: &'static str,
    pub(super) code: String,
    pub(super) es: String,
    pub(super) en: String,
    /// The PGN `Termination` tag.
    pub(super) pgn: &'static str,
}

/// The stored code of a termination: the library's identifier, with the
/// colour for a resignation or a flag (`resignation:white`, `time:black`).
pub(super) fn termination_code(t: Termination) -> String {
    match t {
        Termination::Resignation { by } => format!("resignation:{}", side(by)),
        Termination::Time { flagged } => format!("time:{}", side(flagged)),
        t => t.id().into(),
    }
}

fn termination_from_code(code: &str) -> Option<Termination> {
    use Termination::*;
    let color = |s: &str| match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    };
    match code.split_once(':') {
        Some(("resignation", c)) => Some(Resignation { by: color(c)? }),
        Some(("time", c)) => Some(Time { flagged: color(c)? }),
        _ => [
            Checkmate,
            Stalemate,
            DeadPosition,
            FivefoldRepetition,
            SeventyFiveMoves,
            ThreefoldRepetition,
            FiftyMoves,
            AgreedFiftyMoves,
            Agreement,
            Recorded,
        ]
        .into_iter()
        .find(|t| t.id() == code),
    }
}

fn result_from_pgn(s: &str) -> Option<GameResult> {
    GameResult::from_pgn(s)
}

impl End {
    pub(super) fn from_outcome(o: Outcome) -> End {
        End {
            result: o.result.pgn(),
            code: termination_code(o.termination),
            es: o.message(Lang::Es),
            en: o.message(Lang::En),
            pgn: escaque_play::pgn_termination(o.termination),
        }
    }

    pub(super) fn aborted() -> End {
        End {
            result: "*",
            code: "aborted".into(),
            es: "Partida anulada".into(),
            en: "Game aborted".into(),
            pgn: "unterminated",
        }
    }

    pub(super) fn abandoned(winner: Option<Color>, gone: Color) -> End {
        let (who_es, who_en) = gone.fold(("las blancas", "White"), ("las negras", "Black"));
        match winner {
            Some(w) => End {
                result: GameResult::win_for(w).pgn(),
                code: format!("abandoned:{}", side(gone)),
                es: format!(
                    "{} ganan: {who_es} abandonaron la partida (desconexión)",
                    w.fold("Las blancas", "Las negras")
                ),
                en: format!(
                    "{} wins: {who_en} left the game (disconnected)",
                    w.fold("White", "Black")
                ),
                pgn: "abandoned",
            },
            None => End {
                result: GameResult::Draw.pgn(),
                code: format!("abandoned_draw:{}", side(gone)),
                es: format!("Tablas: {who_es} abandonaron la partida (desconexión)"),
                en: format!("Draw: {who_en} left the game (disconnected)"),
                pgn: "abandoned",
            },
        }
    }

    /// The ending as the game record writes it.
    pub(super) fn pgn_ending(&self) -> ExternalEnding {
        ExternalEnding {
            result: result_from_pgn(self.result),
            termination: self.pgn,
        }
    }

    pub(super) fn from_row(result: &str, code: &str) -> End {
        let lib = termination_from_code(code).zip(result_from_pgn(result));
        match lib {
            Some((termination, result)) => End::from_outcome(Outcome {
                result,
                termination,
            }),
            None if code == "aborted" => End::aborted(),
            None => {
                let gone = if code.ends_with(":white") {
                    Color::White
                } else {
                    Color::Black
                };
                End::abandoned(result_from_pgn(result).and_then(|r| r.winner()), gone)
            }
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
    /// is retried on the next change.
    pub(super) async fn finish(&mut self, end: End) {
        if self.phase == Phase::Over {
            return;
        }
        for _ in 0..3 {
            if self
                .hub
                .store
                .update_game(
                    &self.row.id,
                    self.clocks_now(),
                    Some((end.result, &end.code)),
                )
                .await
                .is_ok()
            {
                break;
            }
        }
        self.set_over(end);
        self.broadcast(GameEvent::End {});
    }
}
