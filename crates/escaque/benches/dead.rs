//! Dead positions (issue 13), escaque side by side with `chasolver` (the
//! reference implementation of the method) in one run:
//! `cargo bench -p escaque --bench dead`.
//!
//! * `cheap`: the sound cheap check for both colours, escaque's
//!   `dead::is_unwinnable_fast` against `chasolver::is_unwinnable_fast`, on
//!   the same 512 positions of the published lichess set;
//! * `full`: the full decision for both colours, `dead::winnability` against
//!   `chasolver::winnability`, on the same 128 positions of that set;
//! * `play`: on 64 middlegame positions (the lichess set's positions with at
//!   least 24 men), `Game::play` of a legal move against `dead::proves_dead`
//!   alone (what `Game::play` runs after each move for 5.2.2): the cheap
//!   check's share of a move.

use std::hint::black_box;
use std::str::FromStr;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use escaque::{Color, Game, Position};

const LICHESS: &str = include_str!("../tests/data/chasolver/lichess.txt");

fn fens(step: usize, n: usize, keep: impl Fn(&Position) -> bool) -> Vec<String> {
    LICHESS
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() > 3)
        .step_by(step)
        .map(|l| l[3..].trim().to_string())
        .filter(|f| {
            Position::from_fen(f).is_ok_and(|p| keep(&p)) && chess::Board::from_str(f).is_ok()
        })
        .take(n)
        .collect()
}

fn bench(c: &mut Criterion) {
    let cheap = fens(128, 512, |_| true);
    let full = fens(512, 128, |_| true);
    let middle = fens(64, 64, |p| p.occupied().count() >= 24);

    let pair = |set: &[String]| -> (Vec<Position>, Vec<chess::Board>) {
        (
            set.iter().map(|f| Position::from_fen(f).unwrap()).collect(),
            set.iter()
                .map(|f| chess::Board::from_str(f).unwrap())
                .collect(),
        )
    };

    let (ours, theirs) = pair(&cheap);
    let mut g = c.benchmark_group("dead/cheap");
    g.throughput(Throughput::Elements(ours.len() as u64));
    g.bench_function("escaque", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &ours {
                n += escaque::dead::is_unwinnable_fast(p, Color::White) as u32;
                n += escaque::dead::is_unwinnable_fast(p, Color::Black) as u32;
            }
            black_box(n)
        })
    });
    g.bench_function("chasolver", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &theirs {
                n += chasolver::is_unwinnable_fast(p, chess::Color::White) as u32;
                n += chasolver::is_unwinnable_fast(p, chess::Color::Black) as u32;
            }
            black_box(n)
        })
    });
    g.finish();

    let (ours, theirs) = pair(&full);
    let mut g = c.benchmark_group("dead/full");
    g.sample_size(10);
    g.throughput(Throughput::Elements(ours.len() as u64));
    g.bench_function("escaque", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &ours {
                n += escaque::dead::winnability(p, Color::White).is_winnable() as u32;
                n += escaque::dead::winnability(p, Color::Black).is_winnable() as u32;
            }
            black_box(n)
        })
    });
    g.bench_function("chasolver", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &theirs {
                n += chasolver::winnability(p, chess::Color::White).is_some() as u32;
                n += chasolver::winnability(p, chess::Color::Black).is_some() as u32;
            }
            black_box(n)
        })
    });
    g.finish();

    let games: Vec<(Game, escaque::Move)> = middle
        .iter()
        .map(|f| {
            let g = Game::from_fen(f).unwrap();
            let m = g.position().legal_moves()[0];
            (g, m)
        })
        .collect();
    let mut g = c.benchmark_group("dead/play");
    g.throughput(Throughput::Elements(games.len() as u64));
    g.bench_function("Game::play", |b| {
        b.iter(|| {
            for (game, m) in &games {
                let mut game = game.clone();
                black_box(game.play(*m).ok());
            }
        })
    });
    g.bench_function("Game::clone", |b| {
        b.iter(|| {
            for (game, _) in &games {
                black_box(game.clone());
            }
        })
    });
    let after: Vec<Position> = games
        .iter()
        .map(|(game, m)| {
            let mut p = *game.position();
            p.play_unchecked(*m);
            p
        })
        .collect();
    g.bench_function("proves_dead", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &after {
                n += escaque::dead::proves_dead(black_box(p)) as u32;
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
