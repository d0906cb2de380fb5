//! The domain of every value a tournament holds, in one place: the
//! command line (`escaque torneo`), the desk and its API, and the online
//! Swiss all enter players, rounds and forbidden pairings through the
//! model ([`crate::Tournament`]), which checks each value here where it
//! enters; and every TRF written goes through [`crate::trf::write_checked`],
//! which checks that the whole state fits the file's columns
//! ([`crate::Tournament::check_fits_trf`]) and reads the text back before
//! anyone stores it.
//!
//! The limits and the checks of single values are here; the checks of a
//! whole player and a whole tournament are the model's methods
//! ([`crate::Player::normalize`], [`crate::Player::check`],
//! [`crate::Tournament::check_fits_trf`]), so that this module imports
//! nothing of the model (issue 53: imports run one way).
//!
//! Two levels, on purpose:
//! - what a person may enter ([`crate::Player::check`], [`check_rounds`]): ratings
//!   0–3500, FIDE ids as TRF-2026 holds them (at most 11 digits, columns
//!   58–68), names within the 33 characters of columns 15–47, clubs and
//!   categories of at most 60 characters, rounds within the tournament's;
//! - what a TRF can hold at all ([`crate::Tournament::check_fits_trf`]): a file written by
//!   another program (a rating of 3600 in 1990) is kept as it was read, but
//!   nothing wider than its column is ever written, since a wider number
//!   moves every column after it and the file no longer reads.

use std::fmt;

use escaque::{Lang, Localized};

/// A player's name: TRF-2026 record `001`, columns 15–47.
pub const NAME_CHARS: usize = 33;
/// A club, school or category (escaque's `XZC`/`XZK` lines), as entered.
pub const TEXT_CHARS: usize = 60;
/// The longest text a header record (`012`, `022`, …) or `XZ?` line holds.
pub const HEADER_CHARS: usize = 200;
/// The highest rating accepted (FIDE's list has never reached 2900).
pub const MAX_RATING: u16 = 3500;
/// A FIDE id: TRF-2026 record `001`, columns 58–68 (eleven digits).
pub const MAX_FIDE_ID: u64 = 99_999_999_999;
/// Birth years a person may enter.
pub const BIRTH_YEARS: std::ops::RangeInclusive<u16> = 1900..=2100;
/// The most rounds: round numbers of records `240`, `250` and `260` have
/// three columns.
pub const MAX_ROUNDS: u32 = 999;
/// The most players: start numbers have four columns.
pub const MAX_PLAYERS: usize = 9999;

/// The value a [`DomainError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Name,
    Club,
    Category,
    Sex,
    Title,
    Federation,
    BirthYear,
    Rating,
    FideId,
    /// A bye's or a withdrawal's round.
    Round,
    /// The first round of a forbidden pairing.
    FromRound,
    /// The last round of a forbidden pairing.
    ToRound,
    /// The number of rounds of the tournament.
    Rounds,
    /// The number of players.
    Players,
    /// A header: the tournament's name, place, dates, arbiter, time control.
    Header,
}

impl Field {
    /// The field's name as the API and the command line call it.
    pub fn id(self) -> &'static str {
        match self {
            Field::Name => "name",
            Field::Club => "club",
            Field::Category => "category",
            Field::Sex => "sex",
            Field::Title => "title",
            Field::Federation => "federation",
            Field::BirthYear => "birth_year",
            Field::Rating => "rating",
            Field::FideId => "fide_id",
            Field::Round => "round",
            Field::FromRound => "from_round",
            Field::ToRound => "to_round",
            Field::Rounds => "rounds",
            Field::Players => "players",
            Field::Header => "header",
        }
    }

    fn words(self, lang: Lang) -> &'static str {
        match self {
            Field::Name => lang.pick("el nombre", "the name"),
            Field::Club => lang.pick("el club", "the club"),
            Field::Category => lang.pick("la categoría", "the category"),
            Field::Sex => lang.pick("el sexo", "the sex"),
            Field::Title => lang.pick("el título", "the title"),
            Field::Federation => lang.pick("la federación", "the federation"),
            Field::BirthYear => lang.pick("el año de nacimiento", "the birth year"),
            Field::Rating => lang.pick("el Elo", "the rating"),
            Field::FideId => lang.pick("el identificador FIDE", "the FIDE id"),
            Field::Round => lang.pick("la ronda", "the round"),
            Field::FromRound => lang.pick("la primera ronda", "the first round"),
            Field::ToRound => lang.pick("la última ronda", "the last round"),
            Field::Rounds => lang.pick("el número de rondas", "the number of rounds"),
            Field::Players => lang.pick("el número de jugadores", "the number of players"),
            Field::Header => lang.pick("un dato del torneo", "a tournament's detail"),
        }
    }
}

/// The rule a value broke.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Empty where a value is needed.
    Empty,
    /// Longer than `max` characters.
    TooLong { max: usize },
    /// Holds a control character (a line break would end the TRF line).
    Control,
    /// A number outside `min..=max`.
    Range { min: u64, max: u64 },
    /// Not one of the values listed.
    OneOf(&'static str),
}

/// A value outside its domain: which field, the value as given, the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomainError {
    pub field: Field,
    pub value: String,
    pub rule: Rule,
}

impl fmt::Display for DomainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for DomainError {}

impl Localized for DomainError {
    fn message(&self, lang: Lang) -> String {
        let what = self.field.words(lang);
        let shown: String = self.value.chars().take(40).collect();
        let shown = if shown.len() < self.value.len() {
            format!("{shown}…")
        } else {
            shown
        };
        let column = |es: &str, en: &str| lang.pick(es, en).to_string();
        let where_ = match self.field {
            Field::Name => column(" (columnas 15–47 del TRF)", " (TRF columns 15–47)"),
            Field::FideId => column(
                " (TRF-2026, columnas 58–68: como mucho 11 cifras)",
                " (TRF-2026, columns 58–68: at most 11 digits)",
            ),
            Field::FromRound | Field::ToRound | Field::Round | Field::Rounds => {
                column(" (las rondas del torneo)", " (the tournament's rounds)")
            }
            _ => String::new(),
        };
        match &self.rule {
            Rule::Empty => lang.pick(
                format!("{what} no puede estar vacío"),
                format!("{what} may not be empty"),
            ),
            Rule::TooLong { max } => lang.pick(
                format!(
                    "{what} «{shown}» tiene {} caracteres; como mucho {max}{where_}",
                    self.value.chars().count()
                ),
                format!(
                    "{what} '{shown}' has {} characters; at most {max}{where_}",
                    self.value.chars().count()
                ),
            ),
            Rule::Control => lang.pick(
                format!(
                    "{what} «{}» tiene caracteres de control",
                    shown.escape_debug()
                ),
                format!("{what} '{}' holds control characters", shown.escape_debug()),
            ),
            Rule::Range { min, max } => lang.pick(
                format!("{what} {shown} está fuera de {min}–{max}{where_}"),
                format!("{what} {shown} is outside {min}–{max}{where_}"),
            ),
            Rule::OneOf(list) => lang.pick(
                format!("{what} «{shown}» no es válido ({list})"),
                format!("{what} '{shown}' is not valid ({list})"),
            ),
        }
    }
}

pub(crate) fn refuse(field: Field, value: impl ToString, rule: Rule) -> DomainError {
    DomainError {
        field,
        value: value.to_string(),
        rule,
    }
}

/// A text of at most `max` characters without control characters.
pub fn check_text(field: Field, v: &str, max: usize) -> Result<(), DomainError> {
    if v.chars().count() > max {
        return Err(refuse(field, v, Rule::TooLong { max }));
    }
    if v.chars().any(char::is_control) {
        return Err(refuse(field, v, Rule::Control));
    }
    Ok(())
}

/// A number within `min..=max`.
pub fn check_number(field: Field, v: u64, min: u64, max: u64) -> Result<(), DomainError> {
    if (min..=max).contains(&v) {
        Ok(())
    } else {
        Err(refuse(field, v, Rule::Range { min, max }))
    }
}

/// Rounds `first..=last` within a tournament of `total` rounds (at least
/// round 1, at most [`MAX_ROUNDS`]).
pub fn check_rounds(first: u32, last: u32, total: u32) -> Result<(), DomainError> {
    let total = total.clamp(1, MAX_ROUNDS);
    check_number(Field::FromRound, first.into(), 1, total.into())?;
    check_number(Field::ToRound, last.into(), first.into(), total.into())
}

/// At most `max` characters as the writer writes them: control characters
/// are left out (a file from elsewhere may hold them; nothing entered does).
pub(crate) fn fits(field: Field, v: &str, max: usize) -> Result<(), DomainError> {
    if v.chars().filter(|c| !c.is_control()).count() > max {
        return Err(refuse(field, v, Rule::TooLong { max }));
    }
    Ok(())
}
