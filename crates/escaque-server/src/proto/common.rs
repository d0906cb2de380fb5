//! Answers shared by several routes.

use serde::Serialize;

/// `{"ok":true}`: done, nothing more to say.
#[derive(Debug, Serialize)]
pub struct Done {
    /// Always true.
    pub ok: bool,
}

/// [`Done`].
pub const DONE: Done = Done { ok: true };

/// Every HTTP refusal's body: `{"t":"error","code","es","en"}` (the
/// status says the kind; `code` which refusal; the texts why).
#[derive(Debug, Serialize)]
pub struct ErrorBody<'a> {
    /// Always `error`.
    pub t: &'static str,
    /// The refusal's code.
    pub code: &'a str,
    /// Why, in Spanish.
    pub es: &'a str,
    /// Why, in English.
    pub en: &'a str,
}

/// `{}`: a body with nothing in it.
#[derive(Debug, Default, Serialize)]
pub struct Empty {}
