//! Perft against the published tables (chessprogramming wiki, "Perft Results":
//! the initial position, "Kiwipete" and positions 3 to 6).
//!
//! A normal run (`cargo test`) checks every depth whose published count is at
//! most [`NORMAL_MAX_NODES`] (about 6 × 10^7 nodes in all: seconds in the test
//! profile). `ESCAQUE_PERFT_FULL=1` checks every depth of the tables (the deep
//! runs visit 1.45 × 10^9 leaf nodes; run them in release), and
//! `ESCAQUE_PERFT_MAX_NODES=N` with it stops at counts of N nodes. The same
//! switches serve `perft960.rs`.

use escaque::{perft, Position};

struct Case {
    name: &'static str,
    fen: &'static str,
    /// Published counts for depth 1, 2, 3, …
    counts: &'static [u64],
}

const CASES: [Case; 6] = [
    Case {
        name: "initial",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        counts: &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324],
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        counts: &[48, 2_039, 97_862, 4_085_603, 193_690_690],
    },
    Case {
        name: "position 3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        counts: &[14, 191, 2_812, 43_238, 674_624, 11_030_083, 178_633_661],
    },
    Case {
        name: "position 4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        counts: &[6, 264, 9_467, 422_333, 15_833_292, 706_045_033],
    },
    Case {
        name: "position 5",
        fen: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        counts: &[44, 1_486, 62_379, 2_103_487, 89_941_194],
    },
    Case {
        name: "position 6",
        fen: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        counts: &[46, 2_079, 89_890, 3_894_594, 164_075_551],
    },
];

/// The largest count checked in a normal run.
const NORMAL_MAX_NODES: u64 = 20_000_000;

/// The largest count checked: [`NORMAL_MAX_NODES`], or with
/// `ESCAQUE_PERFT_FULL=1` every count up to `ESCAQUE_PERFT_MAX_NODES` (all
/// when that is not set).
fn max_nodes() -> u64 {
    if std::env::var("ESCAQUE_PERFT_FULL").is_ok_and(|v| v == "1") {
        std::env::var("ESCAQUE_PERFT_MAX_NODES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(u64::MAX)
    } else {
        NORMAL_MAX_NODES
    }
}

/// Checks depths 1 to `max_depth` whose counts are within [`max_nodes`];
/// returns the deepest count checked.
fn check(case: &Case, max_depth: usize) -> u64 {
    let pos = Position::from_fen(case.fen).expect(case.name);
    let bound = max_nodes();
    let mut deepest = 0;
    for (i, &expected) in case.counts.iter().enumerate().take(max_depth) {
        if expected > bound {
            break;
        }
        let depth = i as u32 + 1;
        assert_eq!(perft(&pos, depth), expected, "{} depth {depth}", case.name);
        deepest = expected;
    }
    deepest
}

#[test]
fn shallow_depths_of_all_six() {
    for case in &CASES {
        check(case, 3);
    }
}

#[test]
fn a_normal_run_reaches_depth_4_or_more_everywhere() {
    for case in &CASES {
        let depth = case
            .counts
            .iter()
            .take_while(|&&n| n <= NORMAL_MAX_NODES)
            .count();
        assert!(depth >= 4, "{}: depth {depth}", case.name);
    }
}

// One test per position so that the test harness runs them on both cores.
#[test]
fn deep_initial() {
    check(&CASES[0], 6);
}

#[test]
fn deep_kiwipete() {
    check(&CASES[1], 5);
}

#[test]
fn deep_position_3() {
    check(&CASES[2], 7);
}

#[test]
fn deep_position_4() {
    check(&CASES[3], 6);
}

#[test]
fn deep_position_4_mirrored() {
    // The same position with colours swapped (published alongside it).
    let case = Case {
        name: "position 4 mirrored",
        fen: "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        counts: &[6, 264, 9_467, 422_333, 15_833_292],
    };
    check(&case, 5);
}

#[test]
fn deep_position_5() {
    check(&CASES[4], 5);
}

#[test]
fn deep_position_6() {
    check(&CASES[5], 5);
}

/// The tables' deepest counts, which `ESCAQUE_PERFT_FULL=1` checks (no perft
/// is run here).
#[test]
fn deep_runs_total_over_a_billion_nodes() {
    let deepest: u64 = [6usize, 5, 7, 6, 5, 5]
        .iter()
        .zip(&CASES)
        .map(|(&d, c)| c.counts[d - 1])
        .sum();
    assert!(deepest >= 1_000_000_000, "{deepest}");
}
