//! Pairing as a service over the model: this module asks the system the
//! tournament uses (the FIDE Dutch system for a Swiss, the Berger tables for
//! a round robin) for the next round and records it in the
//! [`Tournament`]. The model never calls a pairing algorithm; the
//! algorithms read the model and return a [`Round`].

use crate::error::TorneoError;
use crate::model::{Round, System, Tournament};

/// The next round as the tournament's system pairs it, without recording it.
/// Refused when the tournament is over or the last round still has games
/// without a result ([`Tournament::next_round_number`]), or when no pairing
/// exists.
pub fn next_round(t: &Tournament) -> Result<Round, TorneoError> {
    let next = t.next_round_number()?;
    match t.system {
        System::Swiss => crate::dutch::pair_round(t),
        System::RoundRobin { double } => crate::berger::tournament_round(t, next, double),
    }
}

/// Pairs the next round ([`next_round`]), records it in the tournament and
/// returns its number.
pub fn pair_next_round(t: &mut Tournament) -> Result<u32, TorneoError> {
    let round = next_round(t)?;
    t.record_round(round)
}

#[cfg(test)]
mod tests {
    /// The code of a source file of this crate, without comment lines and
    /// without blanks.
    fn code_of(file: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("src")
            .join(file);
        std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .flat_map(|l| l.chars().filter(|c| !c.is_whitespace()))
            .collect()
    }

    /// Pairing is a service over the model: the model never names a pairing
    /// algorithm or this module, so none of them can form a circle with it.
    #[test]
    fn the_model_never_calls_the_pairing() {
        let code = code_of("model.rs");
        for above in ["dutch", "berger", "matching", "pairing", "html", "trf"] {
            assert!(
                !code.contains(&format!("crate::{above}")),
                "model.rs uses crate::{above}"
            );
            assert!(
                !code.contains(&format!("super::{above}")),
                "model.rs uses super::{above}"
            );
        }
    }
}
