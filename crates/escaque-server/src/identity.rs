//! Who is asking: an account or a guest (issue 53: below `crate::http`,
//! which finds it from the cookies, so that the domain modules take it
//! without knowing HTTP). The names rule is `crate::names`.

use crate::Seat;

/// Who is asking: an account or a guest.
#[derive(Clone, Debug)]
pub struct Identity {
    /// `u:ID` or `g:ID`.
    pub key: String,
    /// Display name.
    pub name: String,
    /// True for an account.
    pub account: bool,
    /// True for a managed account (a pupil of a class, in kid mode: see
    /// `crate::classes`).
    pub managed: bool,
}

impl Identity {
    /// This identity seated in a new game.
    pub fn seat(&self) -> Seat {
        Seat::Person {
            owner: self.key.clone(),
            name: self.name.clone(),
        }
    }
}
