//! The long run that builds the shipped puzzle sets: every game of a PGN
//! file (or every `STEP`-th from `FIRST`, to share the games between
//! processes) through the generator with escaque's engine, each puzzle
//! checked again by [`generate::verify`] with escaque's engine at
//! VERIFY_NODES (1,000,000 by default) and [`Criteria::verification`]'s
//! stricter margin, and when it stands tagged and rated and appended to
//! `OUT.csv` as found (the ones it drops are named on standard error,
//! `descartado`, and written untagged to `OUT-descartados.csv` so that the
//! re-check can measure what the verification removed); every position of the
//! games tried for the children's proved mates in one and two, appended to
//! `MATES.csv`. Progress and timing on standard error. A puzzle that is not
//! a mate and reaches a solver position of 7 pieces or fewer is dropped
//! first (`generate::tablebase_ending`: lichess decides those with
//! tablebases). With RIVAL_NODES
//! (0, off, by default) a puzzle kept by `verify` must also pass
//! [`generate::verify_rivals`] (each other solver move searched on its own
//! at RIVAL_NODES, a fresh engine per puzzle).
//!
//! With `ESCAQUE_MOTOR_ANALISIS=/usr/games/stockfish` (any UCI engine) the
//! scan, the probes, the verification and the rivals' search are that
//! engine's at the same node counts (lichess's constant for Stockfish's
//! centipawns, [`Criteria::for_stockfish`]; VERIFY_NODES 0 skips the
//! verification): the cheap scan on every position, the expensive checks
//! only on the candidates. Each verification and rivals' search starts the
//! engine afresh (an empty hash). The rating and the tags stay escaque's.
//!
//! With `PROBLEMAS_PRESCAN=N` (0, off, by default) a first pass at N nodes
//! looks at every position and the scan evaluates only the positions around
//! a move that could be a candidate under looser thresholds
//! ([`generate::Prescan`]: `PROBLEMAS_PRESCAN_CP`, 0 by default,
//! `PROBLEMAS_PRESCAN_JUMP`, 0.3, `PROBLEMAS_PRESCAN_TOO_WINNING`, 500,
//! `PROBLEMAS_PRESCAN_CRUSHING`, 800, as `Prescan::measured`):
//! the candidates and the puzzles are still judged with the scan's
//! evaluations and the same criteria.
//!
//! `PROBLEMAS_VERIFY_MARGIN` and `PROBLEMAS_VERIFY_MATE1_RIVAL` set the
//! verification's margin and mate-in-one rival ([`Criteria::verification`]'s
//! 0.85 and 0.45 by default, left for escaque's engine, which underrates some
//! rivals; lichess's own are 0.7 and 0.6): with Stockfish in the generator
//! the verification is the judge's own engine, and issue 56 measured what
//! lichess's margins there keep (BENCHMARKS.md, the seventh run).
//!
//! ```text
//! cargo run --release -p escaque-analysis --example problemas_lote -- \
//!     PGN OUT.csv MATES.csv [SCAN_NODES [PROBE_NODES [FIRST [STEP [VERIFY_NODES [RIVAL_NODES]]]]]]
//! ```

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::{BufReader, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use escaque::pgn::PgnReader;
use escaque::Move;
use escaque_analysis::problemas::csv::{format_line, HEADER};
use escaque_analysis::problemas::generate::{self, complete, Counts, Criteria, Prescan};
use escaque_analysis::problemas::prove;
use escaque_analysis::uci_engine::evaluator_at_nodes;
use escaque_analysis::Evaluator;

/// An evaluator at `nodes`: escaque's engine, or the UCI engine at `uci`.
fn evaluator(uci: Option<&str>, nodes: u64) -> Box<dyn Evaluator> {
    evaluator_at_nodes(uci.map(std::path::Path::new), nodes).expect("start the UCI engine")
}

fn open_append(path: &str) -> std::fs::File {
    let new = std::fs::metadata(path)
        .map(|m| m.len() == 0)
        .unwrap_or(true);
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .expect("open output");
    if new {
        writeln!(f, "{HEADER}").expect("write");
    }
    f
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 4 {
        eprintln!(
            "uso: problemas_lote PGN OUT.csv MATES.csv [SCAN [PROBE [FIRST [STEP [VERIFY [RIVALS]]]]]]"
        );
        std::process::exit(2);
    }
    let scan_nodes: u64 = a.get(4).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let probe_nodes: u64 = a.get(5).and_then(|s| s.parse().ok()).unwrap_or(150_000);
    let first: usize = a.get(6).and_then(|s| s.parse().ok()).unwrap_or(0);
    let step: usize = a.get(7).and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let verify_nodes: u64 = a.get(8).and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let rival_nodes: u64 = a.get(9).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut out = open_append(&a[2]);
    let mut mates_out = open_append(&a[3]);
    let mut dropped_out = open_append(&format!(
        "{}-descartados.csv",
        a[2].strip_suffix(".csv").unwrap_or(&a[2])
    ));
    let file = std::fs::File::open(&a[1]).expect("open PGN");
    let mut reader = PgnReader::new(BufReader::new(file));
    let uci = std::env::var("ESCAQUE_MOTOR_ANALISIS").ok();
    let uci = uci.as_deref().filter(|s| !s.is_empty());
    let mut scan = evaluator(uci, scan_nodes);
    let mut probe = evaluator(uci, probe_nodes);
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f64>().ok());
    let prescan_nodes = env("PROBLEMAS_PRESCAN").unwrap_or(0.0) as u64;
    let mut prescan = (prescan_nodes > 0).then(|| evaluator(uci, prescan_nodes));
    let loose = (
        env("PROBLEMAS_PRESCAN_CP").unwrap_or(0.0) as i32,
        env("PROBLEMAS_PRESCAN_JUMP").unwrap_or(0.3),
        env("PROBLEMAS_PRESCAN_TOO_WINNING").unwrap_or(500.0) as i32,
        env("PROBLEMAS_PRESCAN_CRUSHING").unwrap_or(800.0) as i32,
    );
    // A fresh engine (empty table) for each puzzle's verification: with a
    // table shared across puzzles its second line came out shallower.
    let verifier = || evaluator(uci, verify_nodes);
    let (criteria, mut strict) = match uci {
        Some(_) => (
            Criteria::for_stockfish(),
            Criteria {
                k: Criteria::for_stockfish().k,
                ..Criteria::verification()
            },
        ),
        None => (Criteria::default(), Criteria::verification()),
    };
    // The verification's margins (0.85 and 0.45 by default; lichess's are
    // 0.7 and 0.6): see the module's documentation.
    strict.margin = env("PROBLEMAS_VERIFY_MARGIN").unwrap_or(strict.margin);
    strict.mate_in_one_rival =
        env("PROBLEMAS_VERIFY_MATE1_RIVAL").unwrap_or(strict.mate_in_one_rival);
    let mut dropped = 0usize;
    let stop = AtomicBool::new(false);
    let mut seen: HashSet<String> = HashSet::new();
    let mut counts = Counts::default();
    let mut mates = 0usize;
    let started = Instant::now();
    let mut index = 0usize;
    while let Some(game) = reader.next_game() {
        let i = index;
        index += 1;
        if i < first || !(i - first).is_multiple_of(step) {
            continue;
        }
        let Ok(game) = game else { continue };
        let moves: Vec<Move> = game.mainline().collect();
        let site = game.tag("Site").unwrap_or("").to_string();
        let found = match generate::find_in_game_prescanned(
            &game.start,
            &moves,
            prescan.as_mut().map(|e| Prescan {
                eval: e.as_mut(),
                min_cp: loose.0,
                jump: loose.1,
                too_winning_cp: loose.2,
                crushing_cp: loose.3,
            }),
            scan.as_mut(),
            probe.as_mut(),
            &criteria,
            &stop,
            &mut counts,
        ) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("partida {i}: {e}");
                continue;
            }
        };
        let mut kept = 0usize;
        for f in &found {
            let mut verdict = match generate::tablebase_ending(&f.puzzle) {
                Some(why) => Ok(Some(why)),
                None if verify_nodes == 0 => Ok(None),
                None => generate::verify(&f.puzzle, verifier().as_mut(), &strict, &stop),
            };
            if rival_nodes > 0 && matches!(verdict, Ok(None)) {
                let mut rivals = evaluator(uci, rival_nodes);
                verdict = generate::verify_rivals(&f.puzzle, rivals.as_mut(), &strict, &stop);
            }
            match verdict {
                Ok(None) => kept += 1,
                Ok(Some(why)) => {
                    dropped += 1;
                    eprintln!("partida {i}: descartado {} ({why})", f.puzzle.id);
                    let mut p = f.puzzle.clone();
                    p.game_url = format!("{site}#{}", f.ply + 1);
                    writeln!(dropped_out, "{}", format_line(&p)).expect("write");
                    dropped_out.flush().expect("flush");
                    continue;
                }
                Err(e) => {
                    eprintln!("partida {i}: {e}");
                    continue;
                }
            }
            let p = complete(
                f,
                &site,
                &game.start,
                &moves,
                true,
                Some((probe.as_mut(), &criteria)),
            );
            if seen.insert(p.id.clone()) {
                writeln!(out, "{}", format_line(&p)).expect("write");
            }
        }
        out.flush().expect("flush");
        // The children's sets: every position, proved.
        let mut pos = game.start;
        for (ply, &m) in moves.iter().enumerate() {
            if let Some((p, _)) = prove::children_puzzle(&pos, m) {
                let f = generate::Found {
                    puzzle: p,
                    ply,
                    cp: None,
                };
                let p = complete(&f, &site, &game.start, &moves, true, None);
                if seen.insert(p.id.clone()) {
                    writeln!(mates_out, "{}", format_line(&p)).expect("write");
                    mates += 1;
                }
            }
            pos.play_unchecked(m);
        }
        mates_out.flush().expect("flush");
        eprintln!(
            "partida {i}: {} plies, {} problemas (total {} de {} hallados, {} descartados, {} candidatos, {} posiciones), {} mates probados, {:.0} s",
            moves.len(),
            kept,
            counts.found - dropped,
            counts.found,
            dropped,
            counts.probed,
            counts.scanned,
            mates,
            started.elapsed().as_secs_f64()
        );
    }
}
