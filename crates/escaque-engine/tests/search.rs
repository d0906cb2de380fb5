//! The search at fixed depth: mates, tactics, draw rules and legality.

use std::sync::atomic::AtomicBool;

use escaque::read::{read_move, Notation};
use escaque::{Move, Position};
use escaque_engine::{Engine, Level, Limits, Score, SearchResult};

/// A move in UCI notation, read by the rules library.
fn uci_move(pos: &Position, text: &str) -> Result<escaque::Move, escaque::read::MoveError> {
    read_move(pos, text, Notation::Uci)
}

fn search(fen: &str, depth: u32) -> (Position, SearchResult) {
    let pos = Position::from_fen(fen).unwrap();
    let mut engine = Engine::new();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let r = engine.search(&pos, &[], &limits, &stop);
    (pos, r)
}

fn mv(pos: &Position, text: &str) -> Move {
    uci_move(pos, text).unwrap()
}

#[test]
fn mate_in_one() {
    for (fen, best) in [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"),
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "h5f7",
        ),
        ("1k6/ppp5/8/8/8/8/5PPP/R3R1K1 w - - 0 1", "e1e8"),
    ] {
        let (pos, r) = search(fen, 4);
        assert_eq!(r.best_move, Some(mv(&pos, best)), "{fen}");
        assert_eq!(Score::from_internal(r.score), Score::Mate(1), "{fen}");
    }
}

#[test]
fn mate_in_two() {
    for (fen, bests) in [
        ("k7/8/2K5/8/8/8/8/7R w - - 0 1", &["c6b6", "c6c7"][..]),
        (
            "2k5/8/1K6/8/8/8/8/3Q4 w - - 0 1",
            &[
                "d1d4", "d1d3", "d1d5", "d1d6", "d1d7", "d1g4", "d1h5", "b6a7", "b6c6",
            ][..],
        ),
    ] {
        let (pos, r) = search(fen, 6);
        assert_eq!(Score::from_internal(r.score), Score::Mate(2), "{fen}");
        let best = r.best_move.unwrap();
        assert!(pos.is_legal(best));
        assert!(
            bests.iter().any(|b| mv(&pos, b) == best) || {
                // Any move that keeps a mate in two is right; check it by searching on.
                let mut next = pos;
                next.play_unchecked(best);
                let (_, reply) = search(&next.to_fen(), 5);
                Score::from_internal(reply.score) == Score::Mate(-1)
            }
        );
    }
}

#[test]
fn mate_in_three() {
    let (pos, r) = search("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 8);
    assert_eq!(r.best_move, Some(mv(&pos, "f6a6")));
    assert_eq!(Score::from_internal(r.score), Score::Mate(3));
}

#[test]
fn being_mated_is_reported() {
    // Black to move is mated in one whatever it does.
    let (_, r) = search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", 5);
    assert!(matches!(
        Score::from_internal(r.score),
        Score::Cp(_) | Score::Mate(_)
    ));
    let (_, r) = search("k7/8/1K6/8/8/8/8/7R b - - 0 1", 5);
    assert_eq!(Score::from_internal(r.score), Score::Mate(-1));
}

#[test]
fn wins_material() {
    // Knight fork of king and queen.
    let (pos, r) = search("3q3k/6pp/8/4N3/8/8/6PP/6K1 w - - 0 1", 6);
    assert_eq!(r.best_move, Some(mv(&pos, "e5f7")));
    assert!(r.score > 300);
    // A hanging queen: either capture wins it.
    let (pos, r) = search("r3k2r/ppp2ppp/2n5/3q4/8/2N5/PPP2PPP/R2QK2R w KQkq - 0 1", 6);
    let best = r.best_move.unwrap();
    assert!(best == mv(&pos, "d1d5") || best == mv(&pos, "c3d5"));
    assert!(r.score > 500);
}

#[test]
fn no_legal_move_gives_none() {
    let (_, r) = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 5);
    assert_eq!(r.best_move, None);
    let (_, r) = search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 5);
    assert_eq!(r.best_move, None);
}

#[test]
fn fifty_move_rule_inside_search() {
    // A queen up, but every quiet move makes the 100th half-move: a draw.
    let (_, r) = search("7k/8/8/8/8/8/8/KQ6 w - - 99 80", 5);
    assert_eq!(r.score, 0);
    let (_, r) = search("7k/8/8/8/8/8/8/KQ6 w - - 0 80", 5);
    assert!(r.score > 500);
}

#[test]
fn repetition_from_game_history() {
    // White is a queen up; the knights shuffled back. Going to f3 again repeats
    // the position after the first move, so that line scores as a draw.
    let start =
        Position::from_fen("rn2kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    let mut pos = start;
    let mut history = Vec::new();
    for t in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        history.push(pos.zobrist());
        let m = mv(&pos, t);
        pos.play_unchecked(m);
    }
    let limits = Limits {
        depth: Some(3),
        searchmoves: vec![mv(&pos, "g1f3")],
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let with = Engine::new().search(&pos, &history, &limits, &stop);
    assert_eq!(with.score, 0);
    let without = Engine::new().search(&pos, &[], &limits, &stop);
    assert!(without.score > 500);
}

struct Xorshift(u64);
impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn returned_move_is_always_legal() {
    let mut rng = Xorshift(0x5eed_1234_abcd_9876);
    let mut engine = Engine::new();
    let stop = AtomicBool::new(false);
    let mut none_seen = 0;
    for game in 0..2000 {
        let mut pos = Position::new();
        let plies = rng.next() % 120;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            pos.play_unchecked(m);
        }
        if game % 4 == 0 {
            engine.set_level(Level::from_number(1 + (game / 4 % 10) as u32).unwrap());
        }
        let limits = Limits {
            depth: Some(1 + (game % 3) as u32),
            ..Limits::default()
        };
        let r = engine.search(&pos, &[], &limits, &stop);
        match r.best_move {
            Some(m) => assert!(pos.is_legal(m), "{} {m}", pos.to_fen()),
            None => {
                assert!(pos.legal_moves().is_empty(), "{}", pos.to_fen());
                none_seen += 1;
            }
        }
        for m in &r.pv[..r.pv.len().min(1)] {
            assert!(pos.is_legal(*m));
        }
    }
    let _ = none_seen;
}

#[test]
fn threads_agree_on_a_mate() {
    let pos = Position::from_fen("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1").unwrap();
    let mut engine = Engine::new();
    engine.set_threads(2);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    let r = engine.search(&pos, &[], &limits, &stop);
    assert_eq!(r.best_move, Some(mv(&pos, "f6a6")));
}

#[test]
fn weak_levels_play_legal_and_reasonable_moves() {
    // With a queen en prise for free, even the mid levels take it most of the time,
    // and no level plays an illegal move.
    let pos =
        Position::from_fen("r3k2r/ppp2ppp/2n5/3q4/8/2N5/PPP2PPP/R2QK2R w KQkq - 0 1").unwrap();
    let stop = AtomicBool::new(false);
    // Weakened levels bring their own depth and node limits; full strength needs one.
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    for level in Level::ALL {
        let mut engine = Engine::new();
        engine.set_seed(level.number() as u64);
        engine.set_level(level);
        let mut took = 0;
        for _ in 0..10 {
            engine.clear_hash();
            let r = engine.search(&pos, &[], &limits, &stop);
            let m = r.best_move.unwrap();
            assert!(pos.is_legal(m));
            if m.to() == escaque::Square::D5 {
                took += 1;
            }
        }
        if level >= Level::Amateur {
            assert!(took >= 8, "{level:?} took the queen {took}/10 times");
        }
    }
}

#[test]
fn level_names() {
    use escaque::Lang;
    assert_eq!(Level::from_number(1), Some(Level::Beginner));
    assert_eq!(Level::Beginner.name(Lang::Es), "principiante");
    assert_eq!(Level::Beginner.name(Lang::En), "beginner");
    assert_eq!(Level::from_number(10).unwrap().to_string(), "maestro");
    assert_eq!(Level::Master.name(Lang::En), "master");
    assert!(Level::from_number(0).is_none());
    assert!(Level::from_number(11).is_none());
    let elos: Vec<u32> = Level::ALL.iter().map(|l| l.elo()).collect();
    assert!(elos.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_raw_setting_overrides_the_elo() {
    use escaque_engine::Weakening;
    let mut e = Engine::new();
    e.set_limit_strength(true, 2000);
    e.set_strength_setting(Some(200));
    assert_eq!(e.weakening(), Some(Weakening::for_setting(200)));
    e.set_strength_setting(Some(5));
    assert_eq!(e.weakening(), Some(Weakening::for_setting(200)));
    e.set_strength_setting(None);
    assert_eq!(e.weakening(), Weakening::for_elo(2000));
    e.set_limit_strength(false, 2000);
    assert_eq!(e.weakening(), None);
}

/// The levels up to the hand-written schedule's top were calibrated with the
/// hand-written evaluation, so such a weakened engine searches the same tree
/// whether `Use NNUE` is on or off; a full-strength one does not, nor does a
/// setting above that top (the network's search under a node limit).
#[test]
fn levels_keep_the_hand_written_evaluation() {
    let pos = Position::from_fen(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    )
    .unwrap();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let searched = |setup: &dyn Fn(&mut Engine), nnue: bool| {
        let mut engine = Engine::new();
        engine.set_seed(7);
        setup(&mut engine);
        engine.set_nnue(nnue);
        engine.search(&pos, &[], &limits, &stop).nodes
    };
    let nodes = |level: Option<Level>, nnue: bool| {
        searched(
            &|e: &mut Engine| {
                if let Some(l) = level {
                    e.set_level(l);
                }
            },
            nnue,
        )
    };
    assert_eq!(
        nodes(Some(Level::ClubPlayer), true),
        nodes(Some(Level::ClubPlayer), false)
    );
    assert_ne!(nodes(None, true), nodes(None, false));
    let at_setting = |setting: u32, nnue: bool| {
        searched(
            &|e: &mut Engine| e.set_strength_setting(Some(setting)),
            nnue,
        )
    };
    assert_eq!(at_setting(2600, true), at_setting(2600, false));
    assert_ne!(at_setting(2850, true), at_setting(2850, false));
}

/// What a search learns (table, histories, correction history) carries over
/// to the next search of the same engine, and `clear_hash` (`ucinewgame`)
/// forgets all of it: a search after it repeats a fresh engine's exactly.
#[test]
fn learning_carries_over_and_clear_hash_forgets_it() {
    let game =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    let later = {
        let mut p = game;
        for text in ["f1b5", "a7a6", "b5a4", "g8f6"] {
            let m = uci_move(&p, text).unwrap();
            p.play_unchecked(m);
        }
        p
    };
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let fresh = Engine::new().search(&later, &[], &limits, &stop);

    let mut engine = Engine::new();
    engine.search(&game, &[], &limits, &stop);
    let carried = engine.search(&later, &[], &limits, &stop);
    assert!(later.is_legal(carried.best_move.unwrap()));
    assert_ne!(
        carried.nodes, fresh.nodes,
        "the second search read nothing the first had learnt"
    );

    engine.search(&game, &[], &limits, &stop);
    engine.clear_hash();
    let cleared = engine.search(&later, &[], &limits, &stop);
    assert_eq!(
        cleared.nodes, fresh.nodes,
        "clear_hash left something behind"
    );
    assert_eq!(cleared.best_move, fresh.best_move);
    assert_eq!(cleared.score, fresh.score);
}
