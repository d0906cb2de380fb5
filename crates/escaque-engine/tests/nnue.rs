//! The network evaluation: the incremental accumulators equal the ones
//! computed from nothing after every kind of move, the embedded network is
//! read, and a network file from outside never makes the reader panic.

use escaque::{CastlingMode, Color, Position};
use escaque_engine::nnue::{Accumulator, Network, Stack, FILE_LEN, HIDDEN, MAGIC};
use proptest::prelude::*;

/// A network with every weight drawn from `seed` (the shipped one may have
/// many small weights; random ones make every column count).
fn random_network(seed: u64) -> Network {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ((x >> 40) % 241) as i16 - 120
    };
    let mut bytes = Vec::with_capacity(FILE_LEN);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    for _ in 0..(768 * HIDDEN + 3 * HIDDEN) {
        bytes.extend_from_slice(&next().to_le_bytes());
    }
    bytes.extend_from_slice(&12345i32.to_le_bytes());
    Network::from_bytes(&bytes).unwrap()
}

/// Plays random legal moves from `fen`; null moves are mixed in (the search
/// plays them) when `nulls` is set.
fn random_game(fen: &str, seed: u64, plies: usize, nulls: bool) -> Vec<Position> {
    let mut x = seed | 1;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut pos = Position::from_fen(fen)
        .or_else(|_| Position::from_fen_with(fen, CastlingMode::Chess960))
        .unwrap();
    let mut out = vec![pos];
    for _ in 0..plies {
        if nulls && rnd() % 7 == 0 {
            if let Some(p) = pos.null_move() {
                pos = p;
                out.push(pos);
                continue;
            }
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[(rnd() % moves.len() as u64) as usize]);
        out.push(pos);
    }
    out
}

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Castling both ways, en passant and promotions come early here.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2P1k3/8/3pP3/8/8/1p2K3/8 w - d6 0 1",
    // Chess960.
    "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Stepping the accumulator move by move gives the accumulator computed
    /// from nothing, in every position of a random game.
    #[test]
    fn incremental_equals_from_scratch(seed in any::<u64>(), start in 0usize..STARTS.len()) {
        let net = random_network(seed ^ 0xABCD);
        let game = random_game(STARTS[start], seed, 120, true);
        let mut acc = Accumulator::new(&net, &game[0]);
        for pos in &game[1..] {
            acc.update(&net, pos);
            let fresh = Accumulator::new(&net, pos);
            prop_assert_eq!(acc.v, fresh.v);
            prop_assert_eq!(net.output(&acc, pos.turn()), net.evaluate(pos));
        }
    }

    /// The search's stack (lazy, from the nearest ply above that was
    /// evaluated) gives the evaluation from nothing, whichever plies are
    /// skipped.
    #[test]
    fn the_stack_equals_from_scratch(seed in any::<u64>(), start in 0usize..STARTS.len(), skip in any::<u64>()) {
        let net: &'static Network = Box::leak(Box::new(random_network(seed)));
        let game = random_game(STARTS[start], seed.rotate_left(17), 60, true);
        let mut stack = Stack::new(net, game.len() + 32);
        for (ply, pos) in game.iter().enumerate() {
            stack.enter(ply);
            if ply == 0 || skip >> (ply % 64) & 1 == 1 {
                prop_assert_eq!(stack.evaluate(pos, ply), net.evaluate(pos));
            }
        }
        // Back up to a shallower ply, as the search does, and go down a
        // different way.
        let branch = random_game(&game[10.min(game.len() - 1)].to_fen(), seed ^ 99, 20, false);
        for (i, pos) in branch.iter().enumerate().skip(1) {
            let ply = 10.min(game.len() - 1) + i;
            stack.enter(ply);
            prop_assert_eq!(stack.evaluate(pos, ply), net.evaluate(pos));
        }
    }

    /// Any bytes: a network or a clear refusal, never a panic.
    #[test]
    fn any_bytes_are_read_or_refused(bytes in proptest::collection::vec(any::<u8>(), 0..64), keep_magic in any::<bool>()) {
        let mut b = bytes.clone();
        if keep_magic {
            let mut m = MAGIC.to_vec();
            m.extend_from_slice(&bytes);
            b = m;
        }
        let r = Network::from_bytes(&b);
        prop_assert!(r.is_err());
        prop_assert!(!r.err().unwrap().to_string().is_empty());
    }
}

#[test]
fn a_network_file_round_trips_and_bad_ones_are_refused() {
    let net = random_network(7);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), FILE_LEN);
    let back = Network::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    let mut short = bytes.clone();
    short.pop();
    assert!(Network::from_bytes(&short)
        .err()
        .unwrap()
        .to_string()
        .contains("bytes"));
    let mut other_size = bytes.clone();
    other_size[8] = 64;
    assert!(Network::from_bytes(&other_size)
        .err()
        .unwrap()
        .to_string()
        .contains("capa oculta"));
    let mut heavy = bytes.clone();
    let w2 = FILE_LEN - 4 - 2 * 2 * HIDDEN;
    heavy[w2..w2 + 2].copy_from_slice(&200i16.to_le_bytes());
    assert!(Network::from_bytes(&heavy)
        .err()
        .unwrap()
        .to_string()
        .contains("peso de salida"));
    let mut kind = bytes.clone();
    kind[12] = 2;
    assert!(Network::from_bytes(&kind)
        .err()
        .unwrap()
        .to_string()
        .contains("tipo"));
    let mut magic = bytes;
    magic[0] = b'X';
    assert!(Network::from_bytes(&magic).is_err());
}

#[test]
fn the_embedded_network_is_read_and_sees_both_sides_alike() {
    let net = Network::embedded();
    // The same position with the colours swapped (mirrored ranks, the other
    // side to move) gets the same evaluation: the inputs are relative.
    for (fen, mirror) in [
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
        ),
        (
            "8/8/4k3/8/3PK3/8/8/8 w - - 0 1",
            "8/8/8/3pk3/8/4K3/8/8 b - - 0 1",
        ),
    ] {
        let a = Position::from_fen(fen).unwrap();
        let b = Position::from_fen(mirror).unwrap();
        assert_eq!(net.evaluate(&a), net.evaluate(&b), "{fen}");
    }
    let start = Position::new();
    assert_eq!(start.turn(), Color::White);
    // The start is close to level (a network that learned anything).
    assert!(net.evaluate(&start).abs() < 100, "{}", net.evaluate(&start));
}
