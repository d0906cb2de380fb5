//! The network's trainer: its quantised network evaluates as the floating
//! point one does, training lowers the error on positions it did not see,
//! and training lines from outside are read or refused.

use escaque::Position;
use escaque_tune::nnue::{train, Data, FloatNet, Settings};

fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    let mut x = seed | 1;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::new();
        let plies = 4 + rnd() % 80;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[(rnd() % moves.len() as u64) as usize]);
        }
        out.push(pos);
    }
    out
}

/// The engine's integer network (the one it plays with) against the
/// trainer's floating-point one, on random positions and random weights:
/// the rounding of the weights costs at most a few centipawns.
#[test]
fn the_quantised_network_evaluates_as_the_float_one() {
    for seed in [1u64, 2, 3] {
        let net = FloatNet::random(seed, false);
        let q = net.quantise();
        let mut worst = 0f32;
        for pos in random_positions(seed, 200) {
            let f = net.evaluate(&pos);
            let i = q.evaluate(&pos) as f32;
            worst = worst.max((f - i).abs());
        }
        assert!(worst <= 6.0, "seed {seed}: differs by {worst} centipawns");
    }
}

/// A network learns material: trained on positions labelled by a simple
/// count, it predicts positions it did not see better than at the start.
#[test]
fn training_lowers_the_held_out_error() {
    let label = |p: &Position| {
        let v = |c: escaque::Color| {
            let r = |role, w: i32| p.pieces(c, role).count() as i32 * w;
            r(escaque::Role::Pawn, 100)
                + r(escaque::Role::Knight, 300)
                + r(escaque::Role::Bishop, 300)
                + r(escaque::Role::Rook, 500)
                + r(escaque::Role::Queen, 900)
        };
        v(escaque::Color::White) - v(escaque::Color::Black)
    };
    let (mut tr, mut va) = (Data::default(), Data::default());
    for p in random_positions(11, 3000) {
        tr.push(&p, 0.5, label(&p), 1.0);
    }
    for p in random_positions(12, 500) {
        va.push(&p, 0.5, label(&p), 1.0);
    }
    let start = FloatNet::random(5, false).error(&va);
    let settings = Settings {
        epochs: 8,
        batch: 256,
        lr: 0.002,
        weight_decay: 0.0,
        threads: 2,
        seed: 5,
        residual: false,
        init: None,
    };
    let mut logged = 0;
    let (net, epoch) = train(&tr, &va, &settings, |_, _, _| logged += 1);
    assert_eq!(logged, 8);
    assert!(epoch >= 1);
    let end = net.error(&va);
    assert!(end < start * 0.5, "held-out error {start} -> {end}");
    // The same seed gives the same network.
    let (again, _) = train(&tr, &va, &settings, |_, _, _| {});
    assert_eq!(again.quantise().to_bytes(), net.quantise().to_bytes());

    // Trained further from those weights (NNUE_INIT): the first epoch
    // starts where they are, not from random weights, and no epoch is kept
    // that is worse than where it started.
    let further = Settings {
        epochs: 2,
        init: Some(net.clone()),
        ..settings.clone()
    };
    let mut first = None;
    let (net2, _) = train(&tr, &va, &further, |e, _, v| {
        if e == 1 {
            first = Some(v)
        }
    });
    let from_random = Settings {
        epochs: 1,
        ..settings.clone()
    };
    let mut random_first = None;
    train(&tr, &va, &from_random, |_, _, v| random_first = Some(v));
    let (first, random_first) = (first.unwrap(), random_first.unwrap());
    assert!(
        first < random_first * 0.8,
        "first epoch from the weights {first}, from random {random_first}"
    );
    assert!(net2.error(&va) <= end);
    // No epoch at all: the first weights themselves.
    let none = Settings {
        epochs: 0,
        init: Some(net.clone()),
        ..settings
    };
    let (same, kept) = train(&tr, &va, &none, |_, _, _| {});
    assert_eq!(kept, 0);
    assert_eq!(same.quantise().to_bytes(), net.quantise().to_bytes());
}

#[test]
fn a_quantised_network_comes_back_from_its_floats_exactly() {
    // The shipped network, read into floats and quantised again, is the
    // same file: NNUE_INIT starts from exactly what the engine plays.
    let shipped = escaque_engine::nnue::Network::embedded();
    let back = FloatNet::from_network(shipped).quantise();
    assert_eq!(back.to_bytes(), shipped.to_bytes());
}

#[test]
fn training_lines_are_read_or_refused() {
    let mut d = Data::default();
    assert!(d.push_line(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;0.5;-20",
        0.75,
        false
    ));
    for bad in [
        "",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;0.5",
        "no es un fen;1;0",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;2;0",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;1;muchos",
    ] {
        assert!(!d.push_line(bad, 0.75, true), "{bad}");
    }
    assert_eq!(d.len(), 1);
}

#[test]
fn consecutive_self_play_seeds_give_different_games() {
    use escaque_tune::nnue::Rng;
    // Odd seeds keep the state they always had (the shipped data's seeds).
    for seed in [1u64, 27, 101, 303, 505, 1001] {
        assert_eq!(Rng::for_self_play(seed).0, seed);
    }
    // No two of the first 100,000 seeds start the same generator (`seed | 1`
    // gave 2k and 2k + 1 the same one), and no state is 0.
    let mut states: Vec<u64> = (0..100_000u64).map(|s| Rng::for_self_play(s).0).collect();
    assert!(states.iter().all(|&s| s != 0));
    states.sort_unstable();
    states.dedup();
    assert_eq!(states.len(), 100_000);
}
