//! Who is asking: an account or a guest (issue 53: below `crate::http`,
//! which finds it from the cookies, so that the domain modules take it
//! without knowing HTTP). The names rule is `crate::names`. The routes for
//! accounts only take a [`SignedIn`] (a guest refused once, `401
//! account_only`).

use crate::error::{ApiError, Kind};
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

/// An account asking (a pupil's managed account too), never a guest: what
/// a route for accounts only works with (issue 53: the HTTP layer's guard
/// makes it before the handler reads its body).
#[derive(Clone, Debug)]
pub struct SignedIn {
    /// The account's id (its key without `u:`).
    pub id: String,
    /// Who asks.
    pub me: Identity,
}

impl SignedIn {
    /// `me` when it is an account; a guest is refused [`account_only`].
    pub fn of(me: Identity) -> Result<SignedIn, ApiError> {
        let id = me
            .key
            .strip_prefix("u:")
            .filter(|_| me.account)
            .ok_or_else(account_only)?
            .to_string();
        Ok(SignedIn { id, me })
    }
}

/// The one refusal of a guest on a route for accounts only: `401
/// account_only` (docs/protocol.md; the course's progress is the route
/// that has it, so the text speaks of progress).
pub fn account_only() -> ApiError {
    ApiError::new(
        Kind::Unauthenticated,
        "account_only",
        "el progreso se guarda en una cuenta: entra o crea una (como invitado se guarda en este navegador)",
        "progress is kept in an account: log in or sign up (as a guest it is kept in this browser)",
    )
}
