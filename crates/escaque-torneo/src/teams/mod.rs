//! Team tournaments: teams with an ordered roster and a captain, a line-up
//! per round, matches of several boards, match points and game points.
//!
//! - [`model`]: the domain — teams, line-ups within the roster's order,
//!   board and match results, board forfeits and whole-match forfeits, the
//!   scoring (2/1/0 match points by default, any other the organiser sets).
//! - [`schedule`]: round robin of teams with the Berger tables (single or
//!   double, FIDE C.05 Annex 1) and the Scheveningen system (every player of
//!   one team against every player of the other).
//! - [`swiss`]: the FIDE Swiss Team Pairing System (C.04.6, in force from
//!   1 February 2026) — what is implemented is listed there, article by
//!   article; [`c046`]: its own pairing procedure (article 3).
//! - [`standings`]: the team tie-breaks of FIDE C.07 (match points, game
//!   points, Olympiad Sonneborn-Berger, Buchholz, board count, direct
//!   encounter, …) and the crosstable.
//! - [`school`]: school rules — at most N teams per school, K players of each
//!   category, the school ranking.
//! - [`trf`]: TRF-2026 team records (`310`, `300`, `362`) read and written.
//! - [`print`]: the Spanish printouts (pairings by match and board, the
//!   crosstable by teams, the board-by-board results).
//!
//! Like the rest of the crate this is pure: text in, text out.

pub mod c046;
pub mod model;
pub mod print;
pub mod schedule;
pub mod school;
pub mod standings;
pub mod swiss;
pub mod trf;

pub use model::{
    Board, BoardResult, Match, Member, RequestedBye, Scoring, Side, Team, TeamError, TeamId,
    TeamRound, TeamSystem, TeamTournament,
};
