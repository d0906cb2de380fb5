//! escaque-torneo: chess tournaments for schools and clubs.
//!
//! Players, rounds, results, standings with the FIDE tie-breaks (C.07), round
//! robins with the Berger tables (C.05 Annex 1), the FIDE Dutch Swiss system
//! (C.04.3), TRF read and written, and printable HTML pages in Spanish;
//! FIDE rating changes ([`rating`]) and Glicko-2 as lichess runs it
//! ([`glicko`], the online server's ratings).
//!
//! The crate is pure, like the rules crate: text goes in and out as strings
//! (TRF, HTML) and no file is read or written here; the front ends (the
//! `escaque torneo` command) save and load the files. Pairing is a service
//! over the model ([`pairing`]): the model records rounds and never calls a
//! pairing algorithm.

#![forbid(unsafe_code)]

pub mod baku;
pub mod berger;
pub mod check;
pub mod domain;
pub mod dutch;
pub mod error;
pub mod fide;
pub mod generate;
pub mod glicko;
pub mod html;
pub mod matching;
pub mod model;
pub mod pairing;
pub mod pdf;
pub mod print;
pub mod rating;
pub mod standings;
pub mod teams;
pub mod trf;

pub use error::{TorneoError, TrfError, TrfErrorKind};
pub use model::{
    ByeKind, Colour, Entry, Game, Outcome, Player, PlayerId, Round, System, Tournament, Unusual,
};
pub use standings::{Standing, TieBreak};

/// Scores are kept in half points: 1 = ½, 2 = 1.
pub type HalfPoints = u32;

/// Writes a score in half points the Spanish way: `3½`, `½`, `4`.
pub fn format_points(hp: HalfPoints) -> String {
    match (hp / 2, hp % 2) {
        (0, 1) => "½".to_string(),
        (n, 1) => format!("{n}½"),
        (n, _) => format!("{n}"),
    }
}

/// Writes a score in half points as TRF does: `3.5`, `0.5`, `4.0`.
pub fn format_points_dot(hp: HalfPoints) -> String {
    format!("{}.{}", hp / 2, if hp % 2 == 1 { 5 } else { 0 })
}
