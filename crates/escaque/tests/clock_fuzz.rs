//! Time-control text, `[%clk]` times and adjourned-game text from outside
//! never panic: they parse or give an error.

use std::sync::Arc;

use escaque::clock::parse_hms;
use escaque::{FakeTime, Game, Lang, Localized, TimeControl};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn time_control_text_never_panics(text in "[0-9/+:,. sdbSDB*?½-]{0,24}") {
        match TimeControl::parse(&text) {
            Ok(tc) => {
                // What parses writes back to the same control.
                prop_assert_eq!(TimeControl::parse(&tc.to_string()).unwrap(), tc);
            }
            Err(e) => prop_assert!(!e.message(Lang::Es).is_empty()),
        }
        match TimeControl::from_pgn(&text) {
            Ok(Some(tc)) => {
                if let Ok(pgn) = tc.to_pgn() {
                    prop_assert_eq!(TimeControl::from_pgn(&pgn).unwrap(), Some(tc));
                }
            }
            Ok(None) => {}
            Err(e) => prop_assert!(!e.message(Lang::En).is_empty()),
        }
        let _ = parse_hms(&text);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,60}") {
        let _ = TimeControl::parse(&text);
        let _ = TimeControl::from_pgn(&text);
        let _ = parse_hms(&text);
        if let Err(e) = Game::resume_from_pgn(&text, Arc::new(FakeTime::new())) {
            prop_assert!(!e.to_string().is_empty());
        }
    }
}
