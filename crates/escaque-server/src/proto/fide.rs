//! FIDE mode at the organiser's desk (`/api/tournaments/{id}/fide…`,
//! `/api/tournaments/{id}/manual-pairing`; docs/protocol.md "FIDE mode",
//! issue 58). The rules are `escaque_torneo::fide`'s.

use serde::{Deserialize, Serialize};

/// `GET /api/tournaments/{id}/fide`: whether the tournament is in FIDE
/// mode, the mark every page shows, and FIDE mode's lines of the TRF.
#[derive(Debug, Deserialize, Serialize)]
pub struct FideState {
    /// In FIDE mode (every tournament starts in it).
    pub on: bool,
    /// The mark in Spanish (`Modo FIDE`, `FUERA DEL MODO FIDE (desde la ronda n)`).
    pub mark_es: String,
    /// The mark in English.
    pub mark_en: String,
    /// Pairing numbers frozen: FIDE mode and round 4 paired.
    pub numbers_frozen: bool,
    /// The TRF's FIDE mode lines (`### FIDE mode left @ Round n …`,
    /// `### MPA @ Round n: …`), in order.
    pub log: Vec<String>,
}

/// `POST /api/tournaments/{id}/fide/leave`: both confirmations.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LeaveFide {
    /// The first confirmation: the organiser knows it cannot be undone.
    pub confirm: bool,
    /// The second: the tournament's name typed again.
    pub name: String,
}

/// `POST /api/tournaments/{id}/manual-pairing`: a manual pairing of the
/// next round; `save: false` starts it (shows the engine's pairing and
/// the warnings, stores nothing), `save: true` ends it.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ManualPairing {
    /// Games by board, `[white, black]` start numbers.
    pub games: Vec<[u32; 2]>,
    /// The player given the pairing-allocated bye, if any.
    #[serde(default)]
    pub bye: Option<u32>,
    /// End the manual pairing: store the round.
    #[serde(default)]
    pub save: bool,
    /// Store it even though it breaks rules.
    #[serde(default)]
    pub accept_warnings: bool,
}

/// A pairing: games `[white, black]` by board and the bye.
#[derive(Debug, Deserialize, Serialize)]
pub struct PairsWire {
    /// Games by board.
    pub games: Vec<[u32; 2]>,
    /// The pairing-allocated bye.
    pub bye: Option<u32>,
}

/// A rule the manual pairing breaks.
#[derive(Debug, Deserialize, Serialize)]
pub struct ManualWarning {
    /// `repeat`, `prohibited`, `ineligible_bye`, `three_in_a_row`, `colour_imbalance`.
    pub kind: String,
    /// The players it is about.
    pub players: Vec<u32>,
    /// In Spanish.
    pub es: String,
    /// In English.
    pub en: String,
}

/// The answer to a manual pairing.
#[derive(Debug, Deserialize, Serialize)]
pub struct ManualAnswer {
    /// The round it pairs.
    pub round: u32,
    /// The engine's pairing of that round (null when it finds none).
    pub engine: Option<PairsWire>,
    /// Boards (and the bye) that are not the engine's.
    pub differing: u32,
    /// What it breaks.
    pub warnings: Vec<ManualWarning>,
    /// Whether the round was stored.
    pub saved: bool,
    /// The `### MPA @ Round n: …` line written in the TRF when stored.
    pub mpa: Option<String>,
}
