//! FIDE mode (Handbook C.04.A and C.02's checklist for pairing programs):
//! the rules an endorsed program keeps while a tournament is in it.
//!
//! Every tournament starts in FIDE mode. Leaving it needs two explicit
//! confirmations (the organiser says yes, then types the tournament's name),
//! is written in the TRF as a `### FIDE mode left @ Round n` comment and
//! cannot be undone: the line stays in the file and escaque never removes
//! it. While in FIDE mode:
//!
//! - pairing numbers are frozen once round 4 is paired (C.04.2 B.3,
//!   VCL.09): a late entry after that keeps the number it was given at the
//!   end of the list ([`numbers_frozen`]);
//! - a manual pairing is a session with an explicit start (the engine's
//!   pairing is shown next to the proposed one) and end (the round is
//!   stored only when the organiser confirms it); every pair that breaks a
//!   rule is warned about ([`Warning`]: a repeat, a prohibited pair, an
//!   ineligible bye, three colours in a row, a colour imbalance beyond 2),
//!   and the comparison with the engine's pairing is written in the TRF as
//!   `### MPA @ Round n: …` ([`apply_manual`]);
//! - a point system where two draws score more than a win and a loss is
//!   refused, and a bye is never worth more than a win
//!   ([`check_point_system`]).
//!
//! The state is the TRF's `###` lines this module writes
//! ([`Tournament::fide_log`]); every printout carries [`mark`].

use escaque::Lang;

use crate::error::TorneoError;
pub use crate::error::{FideError, Warning};
use crate::model::{
    ByeKind, Colour, Entry, Game, GameResult, Outcome, PlayerId, Round, Tournament,
};

/// The start of the line written when a tournament leaves FIDE mode.
pub const LEFT: &str = "### FIDE mode left @ Round ";
/// The start of a manual pairing's comparison with the engine.
pub const MPA: &str = "### MPA @ Round ";

/// Whether a `###` line is one of FIDE mode's (kept in the model and
/// written back); other comments are not.
pub fn is_fide_line(line: &str) -> bool {
    line.starts_with(LEFT) || line.starts_with(MPA)
}

/// Whether the tournament is in FIDE mode (it is unless it was left).
pub fn is_on(t: &Tournament) -> bool {
    !t.fide_log.iter().any(|l| l.starts_with(LEFT))
}

/// The mark every page and printout carries.
pub fn mark(t: &Tournament, lang: Lang) -> String {
    if is_on(t) {
        lang.pick("Modo FIDE", "FIDE mode").to_string()
    } else {
        let round = t
            .fide_log
            .iter()
            .find_map(|l| l.strip_prefix(LEFT))
            .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
            .unwrap_or("?")
            .to_string();
        lang.pick(
            format!("FUERA DEL MODO FIDE (desde la ronda {round})"),
            format!("NOT IN FIDE MODE (since round {round})"),
        )
    }
}

/// Pairing numbers may no longer change: FIDE mode and round 4 paired.
pub fn numbers_frozen(t: &Tournament) -> bool {
    is_on(t) && t.rounds.len() >= 4
}

/// Leaves FIDE mode: `confirmed` is the first confirmation, `typed_name`
/// the second (the tournament's name typed again, spaces and case aside).
/// Writes `### FIDE mode left @ Round n by WHO (confirmed twice)`, `n`
/// the round about to be paired. Cannot be undone.
pub fn leave(
    t: &mut Tournament,
    confirmed: bool,
    typed_name: &str,
    who: &str,
) -> Result<String, TorneoError> {
    if !is_on(t) {
        return Err(FideError::AlreadyLeft.into());
    }
    if !confirmed {
        return Err(FideError::NotConfirmed.into());
    }
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    if norm(typed_name).is_empty() || norm(typed_name) != norm(&t.name) {
        return Err(FideError::NameMismatch {
            typed: typed_name.chars().take(80).collect(),
        }
        .into());
    }
    let who: String = who
        .chars()
        .filter(|c| !c.is_control())
        .take(60)
        .collect::<String>();
    let who = if who.trim().is_empty() {
        "organiser".to_string()
    } else {
        who.trim().to_string()
    };
    let line = format!(
        "{LEFT}{} by {who} (confirmed twice; cannot be undone)",
        t.rounds.len() + 1
    );
    t.fide_log.push(line.clone());
    Ok(line)
}

/// A win, a draw and a loss in the same unit, and what a bye gives: refused
/// unless win > draw ≥ loss, 2 × draw ≤ win + loss and bye ≤ win.
pub fn check_point_system(win: u32, draw: u32, loss: u32, bye: u32) -> Result<(), FideError> {
    if win <= draw || draw < loss || 2 * draw > win + loss {
        return Err(FideError::PointSystem { win, draw, loss });
    }
    if bye > win {
        return Err(FideError::ByeAboveWin { bye, win });
    }
    Ok(())
}

/// The colours of the games a player played over the board before `round`.
fn colours_before(t: &Tournament, id: PlayerId, round: u32) -> Vec<Colour> {
    (1..round)
        .filter_map(|r| match t.entry(id, r) {
            Entry::Game { colour, result, .. } if result.played() => Some(colour),
            _ => None,
        })
        .collect()
}

/// Whether the player already had a pairing-allocated bye or won by
/// forfeit before `round`.
fn had_bye_or_forfeit_win(t: &Tournament, id: PlayerId, round: u32) -> bool {
    (1..round).any(|r| match t.entry(id, r) {
        Entry::Bye(ByeKind::PairingAllocated) => true,
        Entry::Game { result, .. } => result == GameResult::ForfeitWin,
        _ => false,
    })
}

fn met_before(t: &Tournament, a: PlayerId, b: PlayerId, round: u32) -> bool {
    (1..round).any(|r| matches!(t.entry(a, r), Entry::Game { opponent, .. } if opponent == b))
}

/// The pairing a manual round is compared with: games (white, black) and
/// the pairing-allocated bye.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    pub games: Vec<(PlayerId, PlayerId)>,
    pub bye: Option<PlayerId>,
}

impl Pairs {
    /// The games and the pairing-allocated bye of a round.
    pub fn of(round: &Round) -> Pairs {
        Pairs {
            games: round.games.iter().map(|g| (g.white, g.black)).collect(),
            bye: round
                .byes
                .iter()
                .find(|(_, k)| *k == ByeKind::PairingAllocated)
                .map(|b| b.0),
        }
    }

    /// `1-4 2-3 5-bye` (board order).
    pub fn text(&self) -> String {
        let mut parts: Vec<String> = self.games.iter().map(|(w, b)| format!("{w}-{b}")).collect();
        if let Some(p) = self.bye {
            parts.push(format!("{p}-bye"));
        }
        parts.join(" ")
    }

    /// Reads `1-4 2-3 5-0` (or `5-bye`, commas or spaces between pairs):
    /// white first; `0` or `bye` for the pairing-allocated bye.
    pub fn parse(text: &str) -> Result<Pairs, FideError> {
        let bad = |w: &str| FideError::BadPairs {
            word: w.chars().take(40).collect(),
        };
        let mut out = Pairs::default();
        for word in text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
        {
            let (w, b) = word.split_once(['-', '–']).ok_or_else(|| bad(word))?;
            let white: PlayerId = w.trim().parse().map_err(|_| bad(word))?;
            if white == 0 {
                return Err(bad(word));
            }
            let b = b.trim();
            if b == "0" || b.eq_ignore_ascii_case("bye") || b.eq_ignore_ascii_case("descanso") {
                if out.bye.is_some() {
                    return Err(bad(word));
                }
                out.bye = Some(white);
            } else {
                let black: PlayerId = b.parse().map_err(|_| bad(word))?;
                if black == 0 {
                    return Err(bad(word));
                }
                out.games.push((white, black));
            }
        }
        Ok(out)
    }
}

/// The round a manual pairing makes (the byes asked for this round kept)
/// and what it breaks; refused outright when it is not a pairing of this
/// round's players (a player twice, left out, not playing).
pub fn manual_round(t: &Tournament, pairs: &Pairs) -> Result<(Round, Vec<Warning>), TorneoError> {
    let round = t.next_round_number()?;
    let n = t.players.len() as PlayerId;
    let mut seen = vec![false; n as usize + 1];
    let mut take = |p: PlayerId| -> Result<(), TorneoError> {
        if p == 0 || p > n {
            return Err(TorneoError::NoSuchPlayer(p));
        }
        if seen[p as usize] {
            return Err(FideError::PlayerTwice(p).into());
        }
        if !t.players[p as usize - 1].available(round) {
            return Err(FideError::NotAvailable(p).into());
        }
        seen[p as usize] = true;
        Ok(())
    };
    for &(w, b) in &pairs.games {
        if w == b {
            return Err(FideError::SelfPaired(w).into());
        }
        take(w)?;
        take(b)?;
    }
    if let Some(p) = pairs.bye {
        take(p)?;
    }
    let mut byes = Vec::new();
    for (i, p) in t.players.iter().enumerate() {
        let id = i as PlayerId + 1;
        if p.available(round) {
            if !seen[id as usize] {
                return Err(FideError::PlayerLeftOut(id).into());
            }
            continue;
        }
        let kind = if round < p.entry_round || p.withdrawn_from.is_some_and(|w| round >= w) {
            ByeKind::Zero
        } else if p.half_byes.contains(&round) {
            ByeKind::Half
        } else if p.full_byes.contains(&round) {
            ByeKind::Full
        } else {
            ByeKind::Zero
        };
        byes.push((id, kind));
    }
    let mut warnings = Vec::new();
    for &(w, b) in &pairs.games {
        if met_before(t, w, b, round) {
            warnings.push(Warning::Repeat { a: w, b });
        }
        if t.forbidden_pairing(w, b, round) {
            warnings.push(Warning::Prohibited { a: w, b });
        }
        for (p, colour) in [(w, Colour::White), (b, Colour::Black)] {
            let mut history = colours_before(t, p, round);
            let k = history.len();
            if k >= 2 && history[k - 1] == colour && history[k - 2] == colour {
                warnings.push(Warning::ThreeInARow {
                    player: p,
                    white: colour == Colour::White,
                });
            }
            history.push(colour);
            let whites = history.iter().filter(|c| **c == Colour::White).count() as i32;
            let difference = whites - (history.len() as i32 - whites);
            if difference.abs() > 2 {
                warnings.push(Warning::ColourImbalance {
                    player: p,
                    difference,
                });
            }
        }
    }
    if let Some(p) = pairs.bye {
        if had_bye_or_forfeit_win(t, p, round) {
            warnings.push(Warning::IneligibleBye { player: p });
        }
        byes.push((p, ByeKind::PairingAllocated));
    }
    let games = pairs
        .games
        .iter()
        .map(|&(white, black)| Game {
            white,
            black,
            outcome: Outcome::Pending,
            unusual: None,
        })
        .collect();
    let mut r = Round { games, byes };
    r.sort_byes();
    Ok((r, warnings))
}

/// A manual pairing at its start: the engine's pairing beside it and what
/// it breaks (nothing stored).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManualPreview {
    pub round: u32,
    /// The engine's pairing; `None` when the engine finds none.
    pub engine: Option<Pairs>,
    pub warnings: Vec<Warning>,
    /// Boards of the manual pairing that are not the engine's (the same
    /// two players with the same colours).
    pub differing: usize,
}

/// Starts a manual pairing: checks it against the rules and the engine.
pub fn preview_manual(t: &Tournament, pairs: &Pairs) -> Result<ManualPreview, TorneoError> {
    let (_, warnings) = manual_round(t, pairs)?;
    let round = t.next_round_number()?;
    let engine = crate::pairing::next_round(t).ok().map(|r| Pairs::of(&r));
    let differing = match &engine {
        Some(e) => {
            pairs.games.iter().filter(|g| !e.games.contains(g)).count()
                + usize::from(pairs.bye != e.bye)
        }
        None => pairs.games.len() + usize::from(pairs.bye.is_some()),
    };
    Ok(ManualPreview {
        round,
        engine,
        warnings,
        differing,
    })
}

/// Ends a manual pairing: stores the round when it breaks nothing or the
/// organiser accepted the warnings, and writes the comparison with the
/// engine as `### MPA @ Round n: manual … ; engine … ; k boards differ;
/// warnings …`. Out of FIDE mode the round is stored the same way and
/// the line is written too.
pub fn apply_manual(
    t: &mut Tournament,
    pairs: &Pairs,
    accept_warnings: bool,
) -> Result<(ManualPreview, String), TorneoError> {
    let preview = preview_manual(t, pairs)?;
    if !preview.warnings.is_empty() && !accept_warnings {
        return Err(FideError::Warnings(preview.warnings).into());
    }
    let (round, _) = manual_round(t, pairs)?;
    let engine = preview
        .engine
        .as_ref()
        .map(Pairs::text)
        .unwrap_or_else(|| "no pairing".to_string());
    let warned: Vec<String> = preview
        .warnings
        .iter()
        .map(|w| {
            let who: Vec<String> = w.players().iter().map(|p| p.to_string()).collect();
            format!("{} {}", w.kind(), who.join("-"))
        })
        .collect();
    let line = format!(
        "{MPA}{}: manual {}; engine {}; {} differ; warnings {}",
        preview.round,
        pairs.text(),
        engine,
        preview.differing,
        if warned.is_empty() {
            "none".to_string()
        } else {
            warned.join(", ")
        }
    );
    t.record_round(round)?;
    t.fide_log.push(line.clone());
    Ok((preview, line))
}
