//! The sealed move (issue 16, library part): adjourning with a sealed move,
//! the envelope in the PGN, and its opening when play resumes.

use std::sync::Arc;
use std::time::Duration;

use escaque::sealed::{resume_sealed, Opening};
use escaque::{Clock, Color, FakeTime, Game, GameResult, SanLang, Termination, TimeControl};

/// A game from `fen` on a 90-minute clock, started.
fn clocked(fen: &str) -> (Game, FakeTime) {
    let t = FakeTime::new();
    let clock = Clock::new(TimeControl::parse("90").unwrap(), Arc::new(t.clone()));
    let mut g = Game::from_fen(fen).unwrap().with_clock(clock);
    g.start_clock();
    (g, t)
}

/// Seals `text` after `think` seconds, resumes from the PGN and opens.
fn seal_and_open(fen: &str, text: &str) -> (Game, Opening, String) {
    let (mut g, t) = clocked(fen);
    t.advance_secs(40);
    let pgn = g.adjourn_sealed(text).unwrap();
    let adjourned = resume_sealed(&pgn, Arc::new(FakeTime::new())).unwrap();
    let sealed = adjourned.sealed.clone().unwrap();
    assert_eq!(sealed.by(), g.position().turn());
    assert_eq!(sealed.reveal(), text);
    let (game, opening) = adjourned.open();
    (game, opening, pgn)
}

#[test]
fn a_legal_sealed_move_is_played_in_spanish_english_or_coordinates() {
    let fen = "4k3/7p/8/8/8/8/8/1N2K3 w - - 0 1";
    for text in ["Cc3", "Nc3", "b1c3", " Cc3 "] {
        let (game, opening, pgn) = seal_and_open(fen, text);
        match opening {
            Opening::Played { mv, outcome } => {
                assert_eq!(mv.to().to_string(), "c3", "{text}");
                assert_eq!(outcome, None);
            }
            other => panic!("{text}: {other:?}"),
        }
        assert_eq!(game.moves().len(), 1);
        assert_eq!(game.position().turn(), Color::Black);
        // The movetext holds no move; the envelope is a tag, not the text.
        assert!(pgn.contains("[EscaqueSealedBy \"White\"]"), "{pgn}");
        assert!(!pgn.contains(text.trim()), "{pgn}");
        assert!(pgn.trim_end().ends_with('*'), "{pgn}");
    }
}

#[test]
fn an_illegal_or_ambiguous_sealed_move_loses() {
    // Two knights can go to d2: "Cd2" is ambiguous. Black has a rook and
    // could mate: a loss for White, the sealer.
    let fen = "r3k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    for text in ["Cd2", "Nd2", "Dd4", "e2e5", "xyz"] {
        let (game, opening, _) = seal_and_open(fen, text);
        let Opening::Forfeit { outcome, .. } = opening else {
            panic!("{text}: {opening:?}");
        };
        assert_eq!(outcome.result, GameResult::BlackWins, "{text}");
        assert_eq!(
            outcome.termination,
            Termination::IllegalSealedMove { by: Color::White }
        );
        assert_eq!(game.outcome(), Some(outcome));
        assert!(game.moves().is_empty());
    }
    // Nbd2 is not ambiguous.
    let (_, opening, _) = seal_and_open(fen, "Cbd2");
    assert!(matches!(opening, Opening::Played { .. }), "{opening:?}");
}

#[test]
fn an_illegal_sealed_move_against_a_bare_king_draws() {
    // Black seals; White has only its king: it could not mate: a draw.
    let fen = "4k3/8/8/3q4/8/8/8/4K3 b - - 0 1";
    let (_, opening, _) = seal_and_open(fen, "Dd9");
    let Opening::Forfeit { outcome, .. } = opening else {
        panic!("{opening:?}");
    };
    assert_eq!(outcome.result, GameResult::Draw);
    assert_eq!(
        outcome.termination,
        Termination::IllegalSealedMove { by: Color::Black }
    );
    // Against a side that can mate beyond material rules only by search: the
    // dead-position decision decides (White's locked king and pawn: no mate).
    let fen = "8/8/6pk/6pb/6pb/6p1/6P1/7K b - - 0 1";
    let (_, opening, _) = seal_and_open(fen, "Ah1");
    let Opening::Forfeit { outcome, .. } = opening else {
        panic!("{opening:?}");
    };
    assert_eq!(outcome.result, GameResult::Draw);
}

#[test]
fn clocks_before_and_after_and_a_round_trip_through_a_file() {
    let t = FakeTime::new();
    let clock = Clock::new(TimeControl::parse("90+30").unwrap(), Arc::new(t.clone()));
    let mut g = Game::new().with_clock(clock);
    g.start_clock();
    t.advance_secs(60);
    g.play_san("e4", SanLang::Auto).unwrap();
    // Black thinks two minutes and seals: that time is Black's.
    t.advance_secs(120);
    let pgn = g.adjourn_sealed("c5").unwrap();
    assert!(pgn.contains("[WhiteClock \"1:29:30\"]"), "{pgn}");
    assert!(pgn.contains("[BlackClock \"1:28:00\"]"), "{pgn}");
    assert!(pgn.contains("[EscaqueSealedBy \"Black\"]"), "{pgn}");
    // Time passes while adjourned: nobody's clock runs.
    t.advance_secs(3600);
    assert_eq!(
        g.clock().unwrap().peek().black,
        Duration::from_secs(88 * 60)
    );

    // Saved to a file and read back.
    let dir = std::env::temp_dir().join(format!("escaque-sealed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("aplazada.pgn");
    std::fs::write(&path, &pgn).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();

    let t2 = FakeTime::new();
    let adjourned = resume_sealed(&text, Arc::new(t2.clone())).unwrap();
    let before = adjourned.game.clock().unwrap().peek();
    assert_eq!(before.white, Duration::from_secs(89 * 60 + 30));
    assert_eq!(before.black, Duration::from_secs(88 * 60));
    let (game, opening) = adjourned.open();
    assert!(matches!(opening, Opening::Played { .. }));
    assert_eq!(game.moves()[1].san, "c5");
    // Black's move took no further time and earned its increment; White's
    // clock now runs.
    let after = game.clock().unwrap().peek();
    assert_eq!(after.black, Duration::from_secs(88 * 60 + 30));
    t2.advance_secs(10);
    assert_eq!(
        game.clock().unwrap().peek().white,
        Duration::from_secs(89 * 60 + 20)
    );
}

#[test]
fn a_plain_adjournment_has_no_envelope_and_bad_envelopes_are_errors() {
    let (mut g, _) = clocked("4k3/7p/8/8/8/8/8/1N2K3 w - - 0 1");
    let pgn = g.adjourn();
    let a = resume_sealed(&pgn, Arc::new(FakeTime::new())).unwrap();
    assert!(a.sealed.is_none());
    assert_eq!(a.open().1, Opening::NoEnvelope);
    let (mut g, _) = clocked("4k3/7p/8/8/8/8/8/1N2K3 w - - 0 1");
    let pgn = g.adjourn_sealed("Cc3").unwrap();
    for bad in [
        pgn.replace("[EscaqueSealedBy \"White\"]", "[EscaqueSealedBy \"Black\"]"),
        pgn.replace("[EscaqueSealedBy \"White\"]", "[EscaqueSealedBy \"Green\"]"),
        pgn.replace("[EscaqueSealedBy \"White\"]\n", ""),
    ] {
        assert!(
            matches!(
                resume_sealed(&bad, Arc::new(FakeTime::new())),
                Err(escaque::adjourn::ResumeError::BadEnvelope { .. })
            ),
            "{bad}"
        );
    }
    // A finished game cannot be adjourned.
    let mut g = Game::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert!(g.adjourn_sealed("Kh8").is_err());
}

proptest::proptest! {
    /// Any text survives the envelope unchanged, and any value of the
    /// envelope's tag is either read or refused with an error, never a panic.
    #[test]
    fn envelope_round_trip_and_bad_tags(text in "\\PC{0,12}", junk in "\\PC{0,12}") {
        let (mut g, _) = clocked("4k3/7p/8/8/8/8/8/1N2K3 w - - 0 1");
        let pgn = g.adjourn_sealed(&text).unwrap();
        let a = resume_sealed(&pgn, Arc::new(FakeTime::new())).unwrap();
        let sealed = a.sealed.unwrap();
        proptest::prop_assert_eq!(sealed.reveal(), text.as_str());
        let start = pgn.find("[EscaqueSealedMove \"").unwrap();
        let end = start + pgn[start..].find("\"]").unwrap() + 2;
        let junk = junk.replace(['"', '\\', ']'], "");
        let bad = format!("{}[EscaqueSealedMove \"{junk}\"]{}", &pgn[..start], &pgn[end..]);
        let _ = resume_sealed(&bad, Arc::new(FakeTime::new()));
    }
}
