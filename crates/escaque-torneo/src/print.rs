//! What every printout shares, the HTML pages ([`crate::html`]) and the
//! PDF ([`crate::pdf`]) alike: the paper they are laid out for and the one
//! way numbers are written on them.
//!
//! Numbers: one style, the decimal comma of Spanish (RAE; ISO 80000-1), as
//! many decimals as the value has and at most two: points `17`, `17,5`,
//! `0,5`; tie-breaks `46,75`, `13,5`, `2204`. A score and a tie-break in
//! the same row are written alike, so `17½` never stands next to `18,75`.
//! The ½ of a single game's result (`½ - ½`, a cross table's `½`) is a
//! result sign, as every Spanish cross table prints it, not a number.

use crate::HalfPoints;

/// The paper a printout is laid out for: A4 unless the organiser asks for
/// US Letter (A4 is the paper of Spain and of most of Spanish-speaking
/// America; Mexico and the United States print on Letter).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Paper {
    #[default]
    A4,
    Letter,
}

impl Paper {
    pub const ALL: [Paper; 2] = [Paper::A4, Paper::Letter];

    /// The stable id: `a4`, `letter`.
    pub fn id(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }

    /// Reads [`Paper::id`] and the Spanish `carta`, in any case.
    pub fn from_id(text: &str) -> Option<Paper> {
        match text.trim().to_ascii_lowercase().as_str() {
            "a4" => Some(Paper::A4),
            "letter" | "carta" => Some(Paper::Letter),
            _ => None,
        }
    }

    /// Width and height in PostScript points (1/72 inch): A4 is
    /// 210 × 297 mm, 595 × 842; Letter 8.5 × 11 in, 612 × 792.
    pub fn size(self) -> (f64, f64) {
        match self {
            Paper::A4 => (595.0, 842.0),
            Paper::Letter => (612.0, 792.0),
        }
    }

    /// The name CSS's `@page { size: … }` gives it.
    pub(crate) fn css(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        }
    }
}

/// A score in half points as the printouts write it: `17`, `17,5`, `0,5`.
pub fn points(hp: HalfPoints) -> String {
    if hp % 2 == 1 {
        format!("{},5", hp / 2)
    } else {
        (hp / 2).to_string()
    }
}

/// A tie-break's value as the printouts write it: rounded to two decimals,
/// the zeros at the end left out, with the decimal comma (`46,75`, `13,5`,
/// `13`).
pub fn number(v: f64) -> String {
    let fixed = format!("{:.2}", v);
    let trimmed = fixed.trim_end_matches('0').trim_end_matches('.');
    let text = if trimmed == "-0" { "0" } else { trimmed };
    text.replace('.', ",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_one_style_with_the_decimal_comma() {
        assert_eq!(points(35), "17,5");
        assert_eq!(points(34), "17");
        assert_eq!(points(1), "0,5");
        assert_eq!(points(0), "0");
        assert_eq!(number(18.75), "18,75");
        assert_eq!(number(13.5), "13,5");
        assert_eq!(number(13.0), "13");
        assert_eq!(number(2204.0), "2204");
        assert_eq!(number(1.0 / 3.0), "0,33");
        assert_eq!(number(-0.001), "0");
    }

    #[test]
    fn paper_ids_read_back() {
        for p in Paper::ALL {
            assert_eq!(Paper::from_id(p.id()), Some(p));
        }
        assert_eq!(Paper::from_id("Carta"), Some(Paper::Letter));
        assert_eq!(Paper::from_id("A3"), None);
        assert_eq!(Paper::default(), Paper::A4);
    }
}
