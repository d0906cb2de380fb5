//! Differential test against shakmaty (an established Rust chess library, used
//! here only as a dev-dependency oracle): thousands of positions reached by
//! seeded random play, comparing legal move sets, check/mate/stalemate flags,
//! insufficient material, FEN and the Polyglot Zobrist hash.

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

use escaque::{Color, Position};

fn our_moves(pos: &Position) -> BTreeSet<String> {
    pos.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn their_moves(pos: &Chess) -> BTreeSet<String> {
    pos.legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect()
}

fn compare(ours: &Position, theirs: &Chess, context: &str) {
    let fen = ours.to_fen();
    assert_eq!(
        fen,
        Fen::from_position(theirs, EnPassantMode::Always).to_string(),
        "{context}"
    );
    assert_eq!(our_moves(ours), their_moves(theirs), "{context} {fen}");
    assert_eq!(
        ours.count_legal_moves(),
        theirs.legal_moves().len(),
        "{fen}"
    );
    assert_eq!(ours.is_check(), theirs.is_check(), "{fen}");
    assert_eq!(ours.checkers().count(), theirs.checkers().count(), "{fen}");
    assert_eq!(ours.is_checkmate(), theirs.is_checkmate(), "{fen}");
    assert_eq!(ours.is_stalemate(), theirs.is_stalemate(), "{fen}");
    assert_eq!(
        ours.is_insufficient_material(),
        theirs.is_insufficient_material(),
        "{fen}"
    );
    for (c, sc) in [
        (Color::White, shakmaty::Color::White),
        (Color::Black, shakmaty::Color::Black),
    ] {
        assert_eq!(
            ours.has_insufficient_material(c),
            theirs.has_insufficient_material(sc),
            "{fen} {c:?}"
        );
    }
    let h: Zobrist64 = theirs.zobrist_hash(EnPassantMode::PseudoLegal);
    assert_eq!(ours.zobrist(), h.0, "{fen}");
    assert_eq!(ours.zobrist(), ours.compute_hash(), "{fen}");
    // FEN round trip through both libraries.
    assert_eq!(Position::from_fen(&fen).as_ref(), Ok(ours), "{fen}");
    let legal_ep: Option<String> = ours.legal_ep_square().map(|s| s.to_string());
    let theirs_ep = theirs
        .ep_square(EnPassantMode::Legal)
        .map(|s| s.to_string());
    assert_eq!(legal_ep, theirs_ep, "{fen}");
}

/// Plays `games` random games of up to `plies` plies each, checking every
/// position. Random play is biased toward captures and promotions now and then
/// so that endgames (and their material rules) are reached often.
fn random_games(seed: u64, games: usize, plies: usize) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut checked = 0;
    for g in 0..games {
        let mut ours = Position::new();
        let mut theirs = Chess::default();
        for ply in 0..plies {
            compare(&ours, &theirs, &format!("game {g} ply {ply}"));
            checked += 1;
            let moves = ours.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| ours.by_color(ours.turn().other()).contains(m.to()))
                .collect();
            let m = if !captures.is_empty() && rng.random_bool(0.6) {
                captures[rng.random_range(0..captures.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            let um = UciMove::from_ascii(m.to_string().as_bytes()).expect("uci text");
            let sm = um
                .to_move(&theirs)
                .expect("shakmaty accepts our legal move");
            ours.play(m).expect("our own legal move plays");
            theirs.play_unchecked(sm);
        }
    }
    checked
}

#[test]
fn random_play_agrees_with_shakmaty() {
    let n = random_games(20_261_122, 400, 300);
    assert!(n > 50_000, "only {n} positions checked");
}

#[test]
fn random_play_from_tricky_positions() {
    // Start from positions rich in castling, en passant and promotions.
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut checked = 0;
    for fen in fens {
        for _ in 0..100 {
            let mut ours = Position::from_fen(fen).unwrap();
            let mut theirs: Chess = Fen::from_ascii(fen.as_bytes())
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            for _ in 0..120 {
                compare(&ours, &theirs, fen);
                checked += 1;
                let moves = ours.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                let sm = UciMove::from_ascii(m.to_string().as_bytes())
                    .unwrap()
                    .to_move(&theirs)
                    .unwrap();
                ours.play_unchecked(m);
                theirs.play_unchecked(sm);
            }
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn polyglot_published_key_vectors() {
    // The test vectors from the Polyglot book format description.
    let expect = [
        ("", 0x463b96181691fc9c_u64),
        ("e2e4", 0x823c9b50fd114196),
        ("e2e4 d7d5", 0x0756b94461c50fb0),
        ("e2e4 d7d5 e4e5", 0x662fafb965db29d4),
        ("e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78),
        ("e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1),
        ("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9),
        ("a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637),
        ("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560),
    ];
    for (line, key) in expect {
        let mut pos = Position::new();
        for uci in line.split_whitespace() {
            let m = pos
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.to_string() == uci)
                .expect(uci);
            pos.play(m).unwrap();
        }
        assert_eq!(pos.zobrist(), key, "after {line:?}");
        assert_eq!(pos.compute_hash(), key, "after {line:?}");
    }
}
