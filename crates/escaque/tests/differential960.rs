//! Chess960 differential test against shakmaty in `CastlingMode::Chess960`
//! (a dev-dependency oracle): random games from random starting positions,
//! comparing at every ply the legal moves (UCI in both castling notations),
//! SAN, FEN with both castling styles (X-FEN, Shredder-FEN), check and mate,
//! and reading each notation back.

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode as SCastlingMode, Chess, EnPassantMode, Position as _};

use escaque::coord::to_uci_in;
use escaque::read::{read_move, Notation};
use escaque::san::{parse_san, san};
use escaque::{CastlingMode, CastlingStyle, Lang, Move, Position, SanLang};

fn their_shredder_field(theirs: &Chess) -> String {
    let rights = theirs.castles().castling_rights();
    let mut s = String::new();
    for (rank, upper) in [
        (shakmaty::Rank::First, true),
        (shakmaty::Rank::Eighth, false),
    ] {
        // Short (higher file) first, as escaque and python-chess write it.
        for sq in (rights & shakmaty::Bitboard::from_rank(rank))
            .into_iter()
            .rev()
        {
            let c = sq.file().char();
            s.push(if upper { c.to_ascii_uppercase() } else { c });
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

fn compare(ours: &Position, theirs: &Chess, context: &str) {
    let fen = ours.to_fen();
    assert_eq!(
        fen,
        Fen::from_position(theirs, EnPassantMode::Always).to_string(),
        "X-FEN, {context}"
    );
    let shredder = ours.to_fen_with(CastlingStyle::Shredder);
    assert_eq!(
        ours.castling_fen(CastlingStyle::Shredder),
        their_shredder_field(theirs),
        "Shredder-FEN, {context} {fen}"
    );
    for text in [&fen, &shredder] {
        assert_eq!(
            Position::from_fen_with(text, CastlingMode::Chess960).as_ref(),
            Ok(ours),
            "{text}"
        );
        let back: Chess = Fen::from_ascii(text.as_bytes())
            .unwrap()
            .into_position(SCastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("shakmaty refuses {text}: {e:?}"));
        assert_eq!(back.legal_moves().len(), theirs.legal_moves().len());
    }
    assert_eq!(ours.zobrist(), ours.compute_hash(), "{fen}");

    for (chess960, mode) in [
        (true, SCastlingMode::Chess960),
        (false, SCastlingMode::Standard),
    ] {
        let mine: BTreeSet<String> = ours
            .legal_moves()
            .iter()
            .map(|&m| to_uci_in(ours, m, chess960))
            .collect();
        let their: BTreeSet<String> = theirs
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(mode).to_string())
            .collect();
        assert_eq!(mine, their, "UCI (960: {chess960}) {context} {fen}");
    }
    assert_eq!(ours.count_legal_moves(), theirs.legal_moves().len());
    assert_eq!(ours.is_check(), theirs.is_check(), "{fen}");
    assert_eq!(ours.is_checkmate(), theirs.is_checkmate(), "{fen}");
    assert_eq!(ours.is_stalemate(), theirs.is_stalemate(), "{fen}");

    for &m in ours.legal_moves().iter() {
        let uci960 = to_uci_in(ours, m, true);
        let sm = UciMove::from_ascii(uci960.as_bytes())
            .unwrap()
            .to_move(theirs)
            .unwrap_or_else(|e| panic!("shakmaty refuses {uci960} in {fen}: {e:?}"));
        let their_san = SanPlus::from_move(theirs.clone(), sm).to_string();
        let en = san(ours, m, Lang::En);
        assert_eq!(en, their_san, "SAN in {fen}");
        assert_eq!(parse_san(ours, &en, SanLang::En), Ok(m), "{en} in {fen}");
        let es = san(ours, m, Lang::Es);
        assert_eq!(parse_san(ours, &es, SanLang::Es), Ok(m), "{es} in {fen}");
        if m.is_castle() {
            assert!(es.starts_with("0-0"), "{es}");
            assert!(en.starts_with("O-O"), "{en}");
        }
        // King-takes-rook is read in every mode; the king's destination is
        // read when no plain king move there is legal.
        assert_eq!(read_move(ours, &uci960, Notation::Uci), Ok(m), "{uci960}");
        let plain = to_uci_in(ours, m, false);
        if let Ok(read) = read_move(ours, &plain, Notation::Uci) {
            assert!(read == m || !read.is_castle(), "{plain} in {fen}");
        }
    }
}

/// Random games from random Chess960 starting positions; castling is played
/// whenever the dice say so, so that it happens in most games.
fn random_games(seed: u64, games: usize, plies: usize) -> (usize, usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut checked, mut castles) = (0, 0);
    for g in 0..games {
        let n: u16 = rng.random_range(0..960);
        let mut ours = Position::chess960(n).unwrap();
        let mut theirs: Chess = Fen::from_ascii(ours.to_fen().as_bytes())
            .unwrap()
            .into_position(SCastlingMode::Chess960)
            .unwrap();
        for ply in 0..plies {
            compare(&ours, &theirs, &format!("game {g} (start {n}) ply {ply}"));
            checked += 1;
            let moves = ours.legal_moves();
            if moves.is_empty() {
                break;
            }
            let special: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.is_castle() || ours.occupied().contains(m.to()))
                .collect();
            let m = if !special.is_empty() && rng.random_bool(0.5) {
                special[rng.random_range(0..special.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            castles += usize::from(m.is_castle());
            let uci = to_uci_in(&ours, m, true);
            let sm = UciMove::from_ascii(uci.as_bytes())
                .unwrap()
                .to_move(&theirs)
                .expect("shakmaty accepts our legal move");
            ours.play(m).expect("our own legal move plays");
            theirs.play_unchecked(sm);
        }
    }
    (checked, castles)
}

#[test]
fn random_chess960_games_agree_with_shakmaty() {
    let (positions, castles) = random_games(960_2026, 150, 120);
    assert!(positions > 10_000, "only {positions} positions");
    assert!(castles > 100, "only {castles} castlings");
}

#[test]
fn castling_corner_cases_agree_with_shakmaty() {
    // King and rook on their destination squares already; the rook shielding
    // the king's destination from a queen on the first row; king on b1 and
    // rook on a1; inner rooks named by file in X-FEN.
    let fens = [
        "rk4r1/8/8/8/8/8/8/5RK1 w Fga - 0 1",
        "1r4k1/8/8/8/8/8/8/qRK4R w HB - 0 1",
        "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        "1r2k1r1/8/8/8/8/8/8/RR2K1RR w GBgb - 0 1",
        "4k3/8/8/8/8/8/8/2RK1R2 w CF - 0 1",
        "2r1kr2/8/8/8/8/8/8/R2K3R w AHcf - 0 1",
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for fen in fens {
        let start = Position::from_fen_with(fen, CastlingMode::Chess960).unwrap();
        let their_start: Chess = Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(SCastlingMode::Chess960)
            .unwrap();
        compare(&start, &their_start, fen);
        for _ in 0..50 {
            let (mut ours, mut theirs) = (start, their_start.clone());
            for _ in 0..20 {
                let moves = ours.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                let uci = to_uci_in(&ours, m, true);
                let sm = UciMove::from_ascii(uci.as_bytes())
                    .unwrap()
                    .to_move(&theirs)
                    .unwrap();
                ours.play(m).unwrap();
                theirs.play_unchecked(sm);
                compare(&ours, &theirs, fen);
            }
        }
    }
}
