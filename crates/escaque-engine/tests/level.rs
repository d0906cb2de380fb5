//! Reading a level from what a person types: a number or a name in either
//! language.

use escaque::{Lang, Localized};
use escaque_engine::level::ParseLevelError;
use escaque_engine::Level;
use proptest::prelude::*;

#[test]
fn numbers_and_names_in_both_languages() {
    for level in Level::ALL {
        assert_eq!(level.number().to_string().parse(), Ok(level));
        assert_eq!(level.name(Lang::Es).parse(), Ok(level));
        assert_eq!(level.name(Lang::En).parse(), Ok(level));
        assert_eq!(level.to_string().parse(), Ok(level), "Display reads back");
        assert_eq!(
            Level::from_number(level.number()),
            Some(level),
            "from_number and number agree"
        );
    }
    assert_eq!("Jugador de Club".parse(), Ok(Level::ClubPlayer));
    assert_eq!("  club-player ".parse(), Ok(Level::ClubPlayer));
    assert_eq!("MUY_FUERTE".parse(), Ok(Level::VeryStrong));
    assert_eq!("muy   fuerte".parse(), Ok(Level::VeryStrong));
    assert_eq!("05".parse(), Ok(Level::ClubPlayer));
    assert_eq!(Level::Advanced.to_string(), "avanzado");
    assert_eq!(Level::Advanced.message(Lang::En), "advanced");
}

#[test]
fn what_names_no_level_is_a_typed_error() {
    for text in [
        "",
        "0",
        "11",
        "-3",
        "+5",
        "5.0",
        "99999999999999999999",
        "gran maestro",
        "club",
        "clubplayer",
    ] {
        assert_eq!(
            text.parse::<Level>(),
            Err(ParseLevelError { text: text.into() }),
            "{text:?}"
        );
    }
    let e = "diez".parse::<Level>().unwrap_err();
    assert!(e.message(Lang::Es).contains("\"diez\" no es un nivel"));
    assert!(e.message(Lang::Es).contains("jugador de club"));
    assert!(e.message(Lang::En).contains("\"diez\" is not a level"));
    assert!(e.message(Lang::En).contains("club player"));
    assert_eq!(e.to_string(), e.message(Lang::Es));
}

proptest! {
    #[test]
    fn any_text_reads_as_a_level_or_a_typed_error(text in "\\PC{0,30}") {
        match text.parse::<Level>() {
            Ok(level) => {
                // Only a number 1–10 or one of the twenty names is accepted.
                let t = text.trim().to_lowercase();
                let number = t.parse::<u32>().ok().and_then(Level::from_number);
                let normalised: Vec<&str> = t
                    .split(|c: char| c.is_whitespace() || c == '-' || c == '_')
                    .filter(|w| !w.is_empty())
                    .collect();
                let named = normalised.join(" ");
                prop_assert!(
                    number == Some(level)
                        || named == level.name(Lang::Es)
                        || named == level.name(Lang::En),
                    "{text:?} read as {level:?}"
                );
            }
            Err(e) => prop_assert_eq!(e.text, text),
        }
    }

    #[test]
    fn numbers_read_as_levels_exactly_in_range(n in 0u32..1000) {
        let read = n.to_string().parse::<Level>().ok();
        prop_assert_eq!(read, Level::from_number(n));
        prop_assert_eq!(read.is_some(), (1..=10).contains(&n));
    }
}
