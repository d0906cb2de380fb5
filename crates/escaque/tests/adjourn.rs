//! Adjournment: save a game in progress to PGN with its clock times and resume
//! it with the same remaining times and side to move.

use std::sync::Arc;
use std::time::Duration;

use escaque::adjourn::ResumeError;
use escaque::rules::RuleSet;
use escaque::{Clock, Color, FakeTime, Game, GameResult, Move, Termination, TimeControl};

fn mv(game: &Game, uci: &str) -> Move {
    game.position()
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() == uci)
        .unwrap_or_else(|| panic!("{uci} is not legal"))
}

fn play(game: &mut Game, t: &FakeTime, moves: &[(&str, u64)]) {
    for (uci, secs) in moves {
        t.advance_secs(*secs);
        let m = mv(game, uci);
        game.play(m).unwrap();
    }
}

#[test]
fn adjourn_and_resume_keeps_times_and_turn() {
    for tc in ["40/90+30, 30+30", "5+3", "10", "5+d3", "5+b2"] {
        let t = FakeTime::new();
        let control = TimeControl::parse(tc).unwrap();
        let clock = Clock::new(control.clone(), Arc::new(t.clone()));
        let mut g = Game::new().with_clock(clock);
        g.start_clock();
        play(
            &mut g,
            &t,
            &[
                ("e2e4", 12),
                ("e7e5", 20),
                ("g1f3", 31),
                ("b8c6", 7),
                ("f1b5", 3),
            ],
        );
        // Black thinks 50 s and the game is adjourned.
        t.advance_secs(50);
        let before = g.clock().unwrap().peek();
        let text = g.adjourn();
        assert!(text.contains("[%clk "), "{text}");
        assert!(text.contains("[Result \"*\"]"), "{text}");
        assert!(text.contains("[WhiteClock "), "{text}");
        if control.to_pgn().is_ok() {
            let tag = format!("[TimeControl \"{}\"]", control.to_pgn().unwrap());
            assert!(text.contains(&tag), "{text}");
        }
        // Time passes while adjourned: nothing is charged.
        t.advance_secs(3600);
        let paused = g.clock().unwrap().peek();
        assert_eq!((paused.white, paused.black), (before.white, before.black));
        assert_eq!(paused.running, None);
        // The same game object can go on: the clock resumes where it stopped.
        let mut same = g.clone();
        same.start_clock();
        t.advance_secs(1);
        assert_eq!(same.clock().unwrap().peek().running, Some(Color::Black));
        assert!(same.clock().unwrap().peek().black < before.black || tc.contains('d'));

        // Resumed the next day on another clock.
        let t2 = FakeTime::new();
        t2.advance_secs(999);
        let mut r = Game::resume_from_pgn(&text, Arc::new(t2.clone())).unwrap();
        assert_eq!(r.position(), g.position());
        assert_eq!(r.position().turn(), Color::Black);
        assert_eq!(r.moves().len(), 5);
        for (a, b) in r.moves().iter().zip(g.moves()) {
            assert_eq!(a.san, b.san);
            assert_eq!(a.clock, b.clock, "{tc}");
        }
        let c = r.clock().unwrap();
        assert_eq!(c.control(), &control);
        let now = c.peek();
        assert_eq!((now.white, now.black), (before.white, before.black), "{tc}");
        assert_eq!(now.running, None, "paused until started");
        assert_eq!(c.moves_made(Color::White), 3);
        assert_eq!(c.moves_made(Color::Black), 2);
        // Play on: Black's clock runs from the saved time.
        r.start_clock();
        t2.advance_secs(4);
        let m = mv(&r, "a7a6");
        r.play(m).unwrap();
        let expect_black = {
            let mut c2 = Clock::restored(
                control.clone(),
                Arc::new(FakeTime::new()),
                [before.white, before.black],
                [3, 2],
                Color::Black,
            );
            c2.start();
            c2.press().unwrap();
            c2.peek().black
        };
        // Same as a fresh clock in that state pressed after 0 s, minus 4 s
        // (or less under a delay).
        assert!(r.clock().unwrap().peek().black <= expect_black, "{tc}");
        assert!(
            r.clock().unwrap().peek().black + Duration::from_secs(4) >= expect_black,
            "{tc}"
        );
    }
}

#[test]
fn adjourned_game_from_a_fen_under_london_rules() {
    let fen = "8/8/4k3/8/8/8/8/2B1KN2 w - - 0 30";
    let t = FakeTime::new();
    let clock = Clock::new(TimeControl::parse("15+10").unwrap(), Arc::new(t.clone()));
    let mut g = Game::from_fen(fen)
        .unwrap()
        .with_rules(RuleSet::londres_1846_inglaterra())
        .with_clock(clock);
    g.start_clock();
    play(&mut g, &t, &[("f1e3", 5), ("e6d6", 6), ("e3f1", 7)]);
    let text = g.adjourn();
    assert!(
        text.contains("[SetUp \"1\"]") && text.contains(fen),
        "{text}"
    );
    let r = Game::resume_from_pgn(&text, Arc::new(FakeTime::new())).unwrap();
    assert_eq!(r.rules(), &RuleSet::londres_1846_inglaterra());
    assert_eq!(r.start_position(), g.start_position());
    assert_eq!(r.position(), g.position());
    assert_eq!(
        r.clock().unwrap().peek().black,
        g.clock().unwrap().peek().black
    );
}

#[test]
fn finished_games_keep_their_result_and_bad_input_is_an_error() {
    let mut g = Game::new();
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let m = mv(&g, m);
        g.play(m).unwrap();
    }
    let text = g.adjourn();
    assert!(text.contains("0-1"));
    let r = Game::resume_from_pgn(&text, Arc::new(FakeTime::new())).unwrap();
    assert_eq!(r.result(), Some(GameResult::BlackWins));
    assert_eq!(r.termination(), Some(Termination::Checkmate));
    assert!(r.clock().is_none());

    let src = Arc::new(FakeTime::new());
    assert_eq!(
        Game::resume_from_pgn("", src.clone()).unwrap_err(),
        ResumeError::NoGame
    );
    assert!(matches!(
        Game::resume_from_pgn("1. e4 e5 2. Ke3 *", src.clone()),
        Err(ResumeError::Pgn(_))
    ));
    assert!(matches!(
        Game::resume_from_pgn("[TimeControl \"5+x\"]\n\n1. e4 *", src.clone()),
        Err(ResumeError::TimeControl(_))
    ));
    assert!(matches!(
        Game::resume_from_pgn(
            "[TimeControl \"300\"]\n[WhiteClock \"soon\"]\n[BlackClock \"0:05:00\"]\n\n1. e4 *",
            src.clone()
        ),
        Err(ResumeError::BadClockTag { .. })
    ));
}
