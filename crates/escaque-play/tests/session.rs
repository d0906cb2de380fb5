//! The shared session, driven as a front end drives it, with a fake clock.

use std::sync::Arc;
use std::time::Duration;

use escaque::{
    Color, FakeTime, GameResult, IllegalReason, Lang, MoveError, Position, Role, Square,
    Termination, TimeControl,
};
use escaque_play::{Action, Config, Event, Notice, Player, Refusal, Session, Status};

fn people() -> Config {
    Config {
        players: [Player::Human, Player::Human],
        ..Config::default()
    }
}

fn session(config: Config) -> (FakeTime, Session) {
    let t = FakeTime::new();
    let s = Session::new(config, Lang::Es, Arc::new(t.clone()));
    (t, s)
}

fn notices(events: &[Event]) -> Vec<&Notice> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Notice(n) => Some(n),
            _ => None,
        })
        .collect()
}

#[test]
fn moves_by_text_and_by_squares_are_typed_events() {
    let (_, mut s) = session(people());
    let ev = s.play_text("Nf3");
    assert!(matches!(
        notices(&ev)[..],
        [Notice::Played {
            number: 1,
            color: Color::White,
            ..
        }]
    ));
    assert!(ev.contains(&Event::Board));
    let ev = s.play_squares(Square::E7, Square::E4, None);
    match &notices(&ev)[..] {
        [Notice::Refused(Refusal::Move(MoveError::Illegal { reason, .. }))] => {
            assert_eq!(*reason, IllegalReason::CannotReach(Role::Pawn))
        }
        other => panic!("{other:?}"),
    }
    let ev = s.play_squares(Square::E7, Square::E5, None);
    assert!(matches!(notices(&ev)[..], [Notice::Played { .. }]));
    assert_eq!(s.game().moves().len(), 2);
    assert_eq!(s.status(), vec![Status::ToMove(Color::White)]);
}

#[test]
fn a_promotion_by_squares_needs_the_piece() {
    let fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
    let (_, mut s) = session(Config {
        start: Some(Position::from_fen(fen).unwrap()),
        ..people()
    });
    let ev = s.play_squares(Square::A7, Square::A8, None);
    assert!(matches!(
        notices(&ev)[..],
        [Notice::Refused(Refusal::Move(MoveError::Illegal { .. }))]
    ));
    let ev = s.play_squares(Square::A7, Square::A8, Some(Role::Rook));
    assert!(matches!(notices(&ev)[..], [Notice::Played { .. }]));
    assert_eq!(s.position().role_at(Square::A8), Some(Role::Rook));
}

#[test]
fn threefold_claim_and_resignation_end_the_game() {
    let (_, mut s) = session(people());
    for m in ["Cf3", "Cf6", "Cg1", "Cg8", "Cf3", "Cf6", "Cg1"] {
        s.play_text(m);
    }
    // Claimed with the move that repeats the position a third time.
    let ev = s.act(Action::Claim, "Cg8");
    let n = notices(&ev);
    assert!(matches!(n[0], Notice::Played { .. }), "{n:?}");
    match n[1] {
        Notice::GameOver(o) => {
            assert_eq!(o.result, GameResult::Draw);
            assert_eq!(o.termination, Termination::ThreefoldRepetition);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        notices(&s.act(Action::Resign, ""))[..],
        [&Notice::GameAlreadyOver]
    );
}

#[test]
fn the_flag_falls_without_anybody_moving() {
    let (t, mut s) = session(Config {
        clock: Some(TimeControl::parse("1+0").unwrap()),
        ..people()
    });
    t.advance(Duration::from_secs(61));
    let ev = s.tick();
    match notices(&ev)[..] {
        [Notice::GameOver(o)] => {
            assert_eq!(
                o.termination,
                Termination::Time {
                    flagged: Color::White
                }
            );
            assert_eq!(o.result, GameResult::BlackWins);
        }
        ref other => panic!("{other:?}"),
    }
}

#[test]
fn save_and_load_are_pgn_text_and_a_recorded_result_is_kept() {
    let (_, mut s) = session(people());
    s.play_text("e4");
    s.play_text("e5");
    let ev = s.act(Action::Save, "mi.pgn");
    let pgn = match &ev[..] {
        [Event::Save { path, pgn }] => {
            assert_eq!(path, "mi.pgn");
            pgn.clone()
        }
        other => panic!("{other:?}"),
    };
    assert!(pgn.contains("1. e4 e5"), "{pgn}");
    // Loading asks the front end to read the file; the text comes back.
    assert_eq!(
        s.act(Action::Load, "mi.pgn"),
        vec![Event::Load {
            path: "mi.pgn".into()
        }]
    );
    let (_, mut other) = session(people());
    let resigned = pgn
        .replace("[Result \"*\"]", "[Result \"0-1\"]")
        .replace(" *", " 0-1");
    let ev = other.load_text(&resigned, "mi.pgn");
    assert_eq!(notices(&ev)[..], [&Notice::Loaded("mi.pgn".into())]);
    assert_eq!(other.game().moves().len(), 2);
    let o = other.outcome().expect("the recorded result ends the game");
    assert_eq!(o.result, GameResult::BlackWins);
    assert_eq!(o.termination, Termination::Recorded);
    // A FEN typed in place.
    let ev = other.act(Action::Load, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(notices(&ev)[..], [&Notice::Loaded("FEN".into())]);
    assert!(other.outcome().is_none());
    let ev = other.act(Action::Load, "4k3/8/8 w - - 0 1");
    assert!(matches!(notices(&ev)[..], [Notice::InvalidFen(_)]));
}

#[test]
fn the_engine_answers_through_tick() {
    let level = escaque_play::Level::from_number(1).unwrap();
    let (_, mut s) = session(Config {
        players: [Player::Human, Player::Engine(level)],
        ..Config::default()
    });
    s.play_text("d4");
    let ev = s.wait_for_engine();
    let n = notices(&ev);
    assert!(
        matches!(
            n[..],
            [Notice::Played {
                color: Color::Black,
                ..
            }]
        ),
        "{n:?}"
    );
    assert_eq!(s.game().moves().len(), 2);
    // The engine declines every draw offer.
    let ev = s.act(Action::OfferDraw, "");
    assert_eq!(
        notices(&ev)[..],
        [&Notice::OfferMade(Color::White), &Notice::OfferDeclined]
    );
}

#[test]
fn a_chess960_game_and_a_position_loaded_into_it() {
    let (_, mut s) = session(Config {
        chess960: Some(3),
        ..people()
    });
    assert!(s.game().is_chess960());
    assert_eq!(s.game().chess960_number(), Some(3));
    let ev = s.play_text("0-0");
    assert!(
        matches!(notices(&ev)[..], [Notice::Played { .. }, ..]),
        "{ev:?}"
    );
    assert_eq!(
        s.position().to_fen(),
        "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRRKB b kq - 1 1"
    );
    // A Shredder-FEN typed in: read with Chess960's castling.
    let ev = s.act(
        Action::Load,
        "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1",
    );
    assert!(
        matches!(notices(&ev)[..], [Notice::Loaded(_), ..]),
        "{ev:?}"
    );
    assert!(s.game().is_chess960());
    // A standard FEN after it: a standard game, not the numbered start.
    s.act(
        Action::Load,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert!(!s.game().is_chess960());
    assert_eq!(*s.position(), Position::new());
}
