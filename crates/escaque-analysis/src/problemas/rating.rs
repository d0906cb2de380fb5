//! A first rating for a new puzzle, from its difficulty.
//!
//! lichess starts every puzzle at 1500 and lets the players' results move
//! it. escaque starts nearer the truth: a puzzle's rating is the strength at
//! which a player solves it half the time (the Glicko expectation for equal
//! ratings), and escaque's engine has strengths calibrated against
//! Stockfish's `UCI_Elo` (`escaque_engine::level::CALIBRATION`). So each
//! strength of [`GRID`], weakest first, tries the puzzle [`TRIES`] times
//! (each try a different seed of the weakened engine's random choice; a try
//! succeeds when every solver move is the solution's, or mates where the
//! solution mates, as [`Puzzle::accepts`] says); the rating is where the
//! share of successes crosses one half, interpolated between the two
//! strengths around it. When the weakest strength already solves it more
//! than half the time, the rating goes below 800 in proportion (down to
//! 600 when it always does); when even full strength at [`FULL_NODES`]
//! nodes fails it, it is 2400.

use std::sync::atomic::AtomicBool;

use escaque_engine::{Engine, Limits};

use super::Puzzle;

/// The strengths tried (`UCI_Elo`), weakest first.
pub const GRID: [u32; 9] = [800, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2380];
/// Tries at each weakened strength.
pub const TRIES: u32 = 6;
/// Nodes of the full-strength try.
pub const FULL_NODES: u64 = 200_000;

/// The share of `tries` tries that the engine at `elo` solves `p`.
pub fn solve_rate(p: &Puzzle, elo: u32, tries: u32, seed: u64) -> f64 {
    let stop = AtomicBool::new(false);
    let full = elo >= escaque_engine::level::MAX_ELO;
    let tries = if full { 1 } else { tries.max(1) };
    let mut solved = 0;
    for t in 0..tries {
        let mut engine = Engine::new();
        if !full {
            engine.set_limit_strength(true, elo);
        }
        engine.set_seed(seed.wrapping_mul(31).wrapping_add(u64::from(t)));
        let limits = Limits {
            nodes: Some(FULL_NODES),
            ..Limits::default()
        };
        let positions = p.positions();
        let history: Vec<u64> = positions.iter().map(|x| x.zobrist()).collect();
        let mut ok = true;
        for i in (1..p.moves.len()).step_by(2) {
            let r = engine.search(&positions[i], &history[..i], &limits, &stop);
            match r.best_move {
                Some(m) if p.accepts(i, m) => {
                    // A mate that is not the solution's ends the puzzle won.
                    if m != p.moves[i] {
                        break;
                    }
                }
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            solved += 1;
        }
    }
    f64::from(solved) / f64::from(tries)
}

/// The rating of `p` from its difficulty (see the module's documentation).
pub fn estimate(p: &Puzzle, seed: u64) -> i32 {
    let mut prev: Option<(u32, f64)> = None;
    for &elo in &GRID {
        let rate = solve_rate(p, elo, TRIES, seed);
        if rate >= 0.5 {
            return match prev {
                None => (800.0 - 200.0 * (rate - 0.5) / 0.5).round() as i32,
                Some((pe, pr)) => {
                    // Linear between (pe, pr) and (elo, rate) at 0.5.
                    let f = if rate > pr {
                        (0.5 - pr) / (rate - pr)
                    } else {
                        1.0
                    };
                    (f64::from(pe) + f * f64::from(elo - pe)).round() as i32
                }
            };
        }
        prev = Some((elo, rate));
    }
    2400
}
