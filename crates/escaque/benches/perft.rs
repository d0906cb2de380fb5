//! Perft speed of escaque side by side with shakmaty and cozy-chess, in one run:
//! `cargo bench -p escaque --bench perft`. Each library counts the same tree its
//! own fastest way (legal generation, bulk counting at the last ply); criterion
//! reports nodes per second ("elem/s") for each.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use shakmaty::{fen::Fen, CastlingMode, Chess};

const POSITIONS: [(&str, &str, u32, u64); 2] = [
    (
        "initial",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        4_865_609,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4_085_603,
    ),
];

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

fn bench_perft(c: &mut Criterion) {
    for (name, fen, depth, nodes) in POSITIONS {
        let ours = escaque::Position::from_fen(fen).unwrap();
        let theirs: Chess = Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let cozy: cozy_chess::Board = fen.parse().unwrap();
        // The three must agree before they are timed.
        assert_eq!(escaque::perft(&ours, depth), nodes);
        assert_eq!(shakmaty::perft(&theirs, depth), nodes);
        assert_eq!(cozy_perft(&cozy, depth), nodes);

        let mut group = c.benchmark_group(format!("perft/{name}/depth{depth}"));
        group.throughput(Throughput::Elements(nodes));
        group.sample_size(20);
        group.bench_function(BenchmarkId::from_parameter("escaque"), |b| {
            b.iter(|| escaque::perft(black_box(&ours), depth))
        });
        group.bench_function(BenchmarkId::from_parameter("shakmaty"), |b| {
            b.iter(|| shakmaty::perft(black_box(&theirs), depth))
        });
        group.bench_function(BenchmarkId::from_parameter("cozy-chess"), |b| {
            b.iter(|| cozy_perft(black_box(&cozy), depth))
        });
        group.finish();
    }
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
