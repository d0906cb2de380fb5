//! The evaluation weights. Until the tuner has been run this is the hand-written
//! set; `escaque-tune fit` overwrites this file with a table of numbers.

use crate::eval::N_PARAMS;

/// `[middlegame, endgame]` weight of each evaluation term.
pub static WEIGHTS: [[i16; 2]; N_PARAMS] = crate::handmade::handmade();
