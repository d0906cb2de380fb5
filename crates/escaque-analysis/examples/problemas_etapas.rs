//! Where the long run's CPU goes (issue 56): the games of a PGN file through
//! the same pipeline as `problemas_lote` (scan, probe, the tablebase rule and
//! the verification, tags and rating, the children's proved mates), with
//! the CPU seconds of each stage. The CPU is the whole process tree's: this
//! process, its finished children (a verifier's engine) and its live
//! children (the scan's and the probe's UCI engine), read from `/proc`, so
//! that Stockfish's own search counts. Prints one line per stage and the
//! identifiers of the puzzles kept, so that two builds can be compared on
//! the same games. `PROBLEMAS_PRESCAN` and its thresholds as in
//! `problemas_lote` (a first, cheaper pass before the scan; its CPU is
//! counted apart).
//!
//! ```text
//! ESCAQUE_MOTOR_ANALISIS=/usr/games/stockfish \
//! cargo run --profile test -p escaque-analysis --example problemas_etapas -- \
//!     PGN [SCAN [PROBE [VERIFY [GAMES]]]]
//! ```

use std::io::BufReader;
use std::sync::atomic::AtomicBool;

use escaque::pgn::PgnReader;
use escaque::{Move, Position};
use escaque_analysis::analyse::{AnalysisError, Line};
use escaque_analysis::problemas::generate::{self, complete, Counts, Criteria, Prescan};
use escaque_analysis::problemas::{prove, rating};
use escaque_analysis::uci_engine::evaluator_at_nodes;
use escaque_analysis::{Evaluator, Settings};

/// utime + stime (fields 14, 15) and, with `children`, cutime + cstime
/// (16, 17) of `/proc/PID/stat`, in seconds.
fn stat_cpu(pid: &str, children: bool) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0.0;
    };
    let Some(close) = stat.rfind(')') else {
        return 0.0;
    };
    let f: Vec<f64> = stat[close + 2..]
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    let n = if children { 4 } else { 2 };
    f.get(11..11 + n)
        .map(|v| v.iter().sum::<f64>())
        .unwrap_or(0.0)
        / 100.0
}

/// CPU seconds of this process, its waited-for children and its live ones.
fn tree_cpu() -> f64 {
    let mut cpu = stat_cpu("self", true);
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for t in tasks.flatten() {
            let kids = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
            for pid in kids.split_whitespace() {
                cpu += stat_cpu(pid, true);
            }
        }
    }
    cpu
}

/// An evaluator whose calls add their CPU to `spent`.
struct Timed {
    inner: Box<dyn Evaluator>,
    spent: f64,
    calls: usize,
}

impl Evaluator for Timed {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn settings(&self) -> Settings {
        self.inner.settings()
    }
    fn evaluate(
        &mut self,
        pos: &Position,
        history: &[u64],
        lines: usize,
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        let t = tree_cpu();
        let r = self.inner.evaluate(pos, history, lines, stop);
        self.spent += tree_cpu() - t;
        self.calls += 1;
        r
    }
}

fn evaluator(uci: Option<&str>, nodes: u64) -> Box<dyn Evaluator> {
    evaluator_at_nodes(uci.map(std::path::Path::new), nodes).expect("start the UCI engine")
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let Some(path) = a.get(1) else {
        eprintln!("uso: problemas_etapas PGN [SCAN [PROBE [VERIFY [GAMES]]]]");
        std::process::exit(2);
    };
    let scan_nodes: u64 = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(15_000);
    let probe_nodes: u64 = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(250_000);
    let verify_nodes: u64 = a.get(4).and_then(|s| s.parse().ok()).unwrap_or(4_000_000);
    let games: usize = a.get(5).and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    let uci = std::env::var("ESCAQUE_MOTOR_ANALISIS").ok();
    let uci = uci.as_deref().filter(|s| !s.is_empty());
    let (criteria, strict) = match uci {
        Some(_) => (
            Criteria::for_stockfish(),
            Criteria {
                k: Criteria::for_stockfish().k,
                ..Criteria::verification()
            },
        ),
        None => (Criteria::default(), Criteria::verification()),
    };
    let stop = AtomicBool::new(false);
    let t0 = tree_cpu();
    let mut scan = Timed {
        inner: evaluator(uci, scan_nodes),
        spent: 0.0,
        calls: 0,
    };
    let mut probe = evaluator(uci, probe_nodes);
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f64>().ok());
    let prescan_nodes = env("PROBLEMAS_PRESCAN").unwrap_or(0.0) as u64;
    let mut prescan = (prescan_nodes > 0).then(|| Timed {
        inner: evaluator(uci, prescan_nodes),
        spent: 0.0,
        calls: 0,
    });
    let loose = (
        env("PROBLEMAS_PRESCAN_CP").unwrap_or(0.0) as i32,
        env("PROBLEMAS_PRESCAN_JUMP").unwrap_or(0.3),
        env("PROBLEMAS_PRESCAN_TOO_WINNING").unwrap_or(500.0) as i32,
        env("PROBLEMAS_PRESCAN_CRUSHING").unwrap_or(800.0) as i32,
    );
    let start_cpu = tree_cpu() - t0;
    let file = std::fs::File::open(path).expect("open PGN");
    let mut reader = PgnReader::new(BufReader::new(file));
    let mut counts = Counts::default();
    let (mut find, mut verify, mut tags, mut rate, mut mates) = (0.0, 0.0, 0.0, 0.0, 0.0);
    let (mut n_games, mut plies, mut kept, mut n_mates) = (0usize, 0usize, Vec::new(), 0usize);
    let mut candidates: Vec<String> = Vec::new();
    while let Some(game) = reader.next_game() {
        if n_games == games {
            break;
        }
        let Ok(game) = game else { continue };
        n_games += 1;
        let moves: Vec<Move> = game.mainline().collect();
        plies += moves.len();
        let t = tree_cpu();
        let found = generate::find_in_game_prescanned(
            &game.start,
            &moves,
            prescan.as_mut().map(|e| Prescan {
                eval: e as &mut dyn Evaluator,
                min_cp: loose.0,
                jump: loose.1,
                too_winning_cp: loose.2,
                crushing_cp: loose.3,
            }),
            &mut scan,
            probe.as_mut(),
            &criteria,
            &stop,
            &mut counts,
        )
        .expect("generator");
        find += tree_cpu() - t;
        for f in &found {
            candidates.push(format!("{} {}", f.puzzle.id, f.ply));
        }
        for f in &found {
            let t = tree_cpu();
            let verdict = match generate::tablebase_ending(&f.puzzle) {
                Some(why) => Ok(Some(why)),
                None => generate::verify(
                    &f.puzzle,
                    evaluator(uci, verify_nodes).as_mut(),
                    &strict,
                    &stop,
                ),
            };
            verify += tree_cpu() - t;
            if !matches!(verdict, Ok(None)) {
                continue;
            }
            let t = tree_cpu();
            let p = complete(
                f,
                "",
                &game.start,
                &moves,
                false,
                Some((probe.as_mut(), &criteria)),
            );
            tags += tree_cpu() - t;
            let t = tree_cpu();
            let r = rating::by_depth(&p);
            rate += tree_cpu() - t;
            kept.push(format!("{} {r} {}", p.id, p.themes.join(" ")));
        }
        let t = tree_cpu();
        let mut pos = game.start;
        for &m in &moves {
            if prove::children_puzzle(&pos, m).is_some() {
                n_mates += 1;
            }
            pos.play_unchecked(m);
        }
        mates += tree_cpu() - t;
    }
    let total = tree_cpu() - t0;
    println!(
        "{n_games} games, {plies} plies, {} prescanned, {} scanned, {} probed, {} found, {} kept, {n_mates} mates",
        counts.prescanned,
        counts.scanned,
        counts.probed,
        counts.found,
        kept.len()
    );
    let pre = prescan.as_ref().map_or(0.0, |p| p.spent);
    let probe_cpu = find - scan.spent - pre;
    for (stage, s) in [
        ("engines' start", start_cpu),
        ("prescan", pre),
        ("scan", scan.spent),
        ("probe", probe_cpu),
        ("verify", verify),
        ("themes+zugzwang", tags),
        ("rating", rate),
        ("proved mates", mates),
        ("total", total),
    ] {
        println!(
            "{stage:>16}: {s:8.1} s CPU ({:5.1} %)",
            100.0 * s / total.max(1e-9)
        );
    }
    println!(
        "scan: {} calls, {:.2} ms CPU a call",
        scan.calls,
        1000.0 * scan.spent / scan.calls.max(1) as f64
    );
    for k in &kept {
        println!("kept {k}");
    }
    for c in &candidates {
        println!("found {c}");
    }
}
