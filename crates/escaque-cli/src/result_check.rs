//! The recorded result of a PGN game against the laws' dead-position rules
//! (issue 13), for `escaque pgn revisar`: an arbiter can run it over a
//! tournament's file.
//!
//! Reported (each with its reason in Spanish or English):
//!
//! * `decisive_after_dead_position`: a dead position arose (5.2.2: the game
//!   ended there as a draw) but the result says 1-0 or 0-1;
//! * `continued_after_dead_position`: moves were recorded after it;
//! * `winner_could_not_mate`: 1-0 or 0-1 without a mate on the board (on time
//!   or by resignation) while the winner could not mate by any series of
//!   legal moves: 6.9 and 5.1.2 make it a draw;
//! * `continued_after_fivefold_repetition` (issue 30): a fivefold repetition
//!   arose (9.6.1: the game ended there as a draw) before the last recorded
//!   move, and play went on; with a decisive result, the result is
//!   contradicted too (`decisive_after_fivefold_repetition`).
//!
//! Positions the decision leaves undecided are never reported.

use escaque::dead::{winnability, Winnability};
use escaque::game::{Game as Play, GameResult, Termination};
use escaque::pgn::PgnGame as Game;
use escaque::{Color, Lang};

/// One contradiction between the recorded result and the laws.
pub struct Finding {
    /// A stable code for JSON.
    pub code: &'static str,
    /// The reason, for a person.
    pub reason: String,
}

/// What the laws say against `game`'s recorded result (empty if nothing).
pub fn check(game: &Game, lang: Lang) -> Vec<Finding> {
    let mut found = Vec::new();
    let recorded = game.recorded_result();
    let result = recorded.map(GameResult::pgn);
    let winner = recorded.and_then(GameResult::winner);
    let moves: Vec<_> = game.mainline().collect();
    let mut play = Play::from_position(game.start);
    let mut dead_at = (play.termination() == Some(Termination::DeadPosition)).then_some(0usize);
    let mut played = 0usize;
    for (i, &m) in moves.iter().enumerate() {
        if m.is_null() || play.outcome().is_some() || play.play(m).is_err() {
            break;
        }
        played = i + 1;
        if dead_at.is_none() && play.termination() == Some(Termination::DeadPosition) {
            dead_at = Some(i + 1);
        }
    }
    if let Some(ply) = dead_at {
        let number = ply.div_ceil(2).max(1);
        if winner.is_some() {
            found.push(Finding {
                code: "decisive_after_dead_position",
                reason: lang.pick(
                    format!(
                        "tras la jugada {number} la posición era muerta (ningún bando podía dar mate): la partida terminó en tablas (5.2.2), no {}",
                        result.unwrap_or("?")
                    ),
                    format!(
                        "after move {number} the position was dead (neither side could mate): the game ended drawn (5.2.2), not {}",
                        result.unwrap_or("?")
                    ),
                ),
            });
        }
        if moves.len() > ply {
            found.push(Finding {
                code: "continued_after_dead_position",
                reason: lang.pick(
                    format!(
                        "la partida siguió {} media(s) jugada(s) después de una posición muerta (jugada {number})",
                        moves.len() - ply
                    ),
                    format!(
                        "the game went on for {} half-move(s) after a dead position (move {number})",
                        moves.len() - ply
                    ),
                ),
            });
        }
        return found;
    }
    if play.termination() == Some(Termination::FivefoldRepetition) && played < moves.len() {
        let number = played.div_ceil(2).max(1);
        let more = moves.len() - played;
        found.push(Finding {
            code: "continued_after_fivefold_repetition",
            reason: lang.pick(
                format!(
                    "tras la jugada {number} la misma posición se repitió cinco veces: la partida terminó en tablas (9.6.1), pero siguió {more} media(s) jugada(s)"
                ),
                format!(
                    "after move {number} the same position had occurred five times: the game ended drawn (9.6.1), but it went on for {more} half-move(s)"
                ),
            ),
        });
        if winner.is_some() {
            found.push(Finding {
                code: "decisive_after_fivefold_repetition",
                reason: lang.pick(
                    format!(
                        "la quíntuple repetición tras la jugada {number} dio tablas (9.6.1), no {}",
                        result.unwrap_or("?")
                    ),
                    format!(
                        "the fivefold repetition after move {number} made it a draw (9.6.1), not {}",
                        result.unwrap_or("?")
                    ),
                ),
            });
        }
        return found;
    }
    if played < moves.len() {
        // The moves could not all be replayed; the reader reports that.
        return found;
    }
    let Some(w) = winner else {
        return found;
    };
    let pos = *play.position();
    if pos.is_checkmate() {
        return found;
    }
    if winnability(&pos, w) == Winnability::Unwinnable {
        let how = match game.tag("Termination").map(str::to_ascii_lowercase) {
            Some(t) if t.contains("time") => lang.pick("por tiempo (6.9)", "on time (6.9)"),
            _ => lang.pick(
                "sin mate en el tablero (tiempo 6.9 o abandono 5.1.2)",
                "without a mate on the board (time 6.9 or resignation 5.1.2)",
            ),
        };
        let side = match (w, lang) {
            (Color::White, Lang::Es) => "las blancas",
            (Color::White, Lang::En) => "White",
            (Color::Black, Lang::Es) => "las negras",
            (Color::Black, Lang::En) => "Black",
        };
        found.push(Finding {
            code: "winner_could_not_mate",
            reason: lang.pick(
                format!(
                    "{} {how}, pero {side} no podían dar mate con ninguna serie de jugadas legales: son tablas",
                    result.unwrap_or("?")
                ),
                format!(
                    "{} {how}, but {side} could not mate by any series of legal moves: it is a draw",
                    result.unwrap_or("?")
                ),
            ),
        });
    }
    found
}
