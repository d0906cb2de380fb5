//! Reading and replaying a PGN file of 1,000 games (Stockfish self-play, see
//! `benches/data/README.md`), escaque side by side with pgn-reader + shakmaty in
//! one run: `cargo bench -p escaque --bench pgn`. Each side parses every game
//! and plays every main-line move on a board (variations skipped); criterion
//! reports bytes per second for each.

use std::hint::black_box;
use std::ops::ControlFlow;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pgn_reader::{Reader, SanPlus, Skip, Visitor as PrVisitor};
use shakmaty::{Chess, Position as _};

use escaque::pgn::{PgnReader, Visitor};
use escaque::{Move, Position};

const FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/benches/data/stockfish_1000.pgn"
);

/// escaque: count the moves; the reader has already checked and played each.
#[derive(Default)]
struct Count {
    moves: usize,
}

impl Visitor for Count {
    type Output = ();
    fn mv(&mut self, _before: &Position, _m: Move) {
        self.moves += 1;
    }
    fn end_game(&mut self) {}
}

fn escaque_visit(bytes: &[u8]) -> usize {
    let mut reader = PgnReader::new(bytes);
    let mut v = Count::default();
    while let Some(r) = reader.read_game(&mut v) {
        r.unwrap();
    }
    v.moves
}

fn escaque_tree(bytes: &[u8]) -> usize {
    PgnReader::new(bytes).map(|g| g.unwrap().moves.len()).sum()
}

/// pgn-reader + shakmaty: convert each SAN to a move on the board and play it.
struct Replay {
    moves: usize,
}

impl PrVisitor for Replay {
    type Tags = ();
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), ()> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<(), Chess> {
        ControlFlow::Continue(Chess::default())
    }
    fn san(&mut self, pos: &mut Chess, san_plus: SanPlus) -> ControlFlow<()> {
        let m = san_plus.san.to_move(pos).unwrap();
        pos.play_unchecked(m);
        self.moves += 1;
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, _pos: &mut Chess) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(true))
    }
    fn end_game(&mut self, _pos: Chess) {}
}

fn pgn_reader_shakmaty(bytes: &[u8]) -> usize {
    let mut reader = Reader::new(bytes);
    let mut v = Replay { moves: 0 };
    while reader.read_game(&mut v).unwrap().is_some() {}
    v.moves
}

fn bench(c: &mut Criterion) {
    let bytes = std::fs::read(FILE).unwrap();
    let games = PgnReader::new(bytes.as_slice()).count();
    assert!(games >= 1000, "{games}");
    // All three do the same work: the same number of moves.
    let moves = escaque_visit(&bytes);
    assert_eq!(moves, pgn_reader_shakmaty(&bytes));
    assert_eq!(moves, escaque_tree(&bytes));
    eprintln!(
        "{FILE}: {games} games, {moves} moves, {} bytes",
        bytes.len()
    );

    let mut g = c.benchmark_group(format!("pgn_replay_{games}_games"));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(20);
    g.bench_function("escaque (visitor)", |b| {
        b.iter(|| escaque_visit(black_box(&bytes)))
    });
    g.bench_function("escaque (game tree)", |b| {
        b.iter(|| escaque_tree(black_box(&bytes)))
    });
    g.bench_function("pgn-reader + shakmaty", |b| {
        b.iter(|| pgn_reader_shakmaty(black_box(&bytes)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
