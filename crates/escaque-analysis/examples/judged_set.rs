//! escaque's engine on a judged set (issue 54): every game of a PGN file
//! analysed as `escaque analizar` does (one evaluator and one cache for the
//! whole file), and, one JSON line a game, what the judged-set tools need:
//! the marks of each move, the evaluations they were judged on, and the
//! engine's own evaluation of every position at every depth it reached.
//!
//! ```text
//! cargo run --release -p escaque-analysis --example judged_set -- \
//!     GAMES.pgn OUT.jsonl [DEPTH|nodesN[+DEEPER]] [ANNOTATED.pgn] [VDEPTH:LOW:HIGH]
//! ```
//!
//! Without a third argument, `escaque analizar`'s default settings; `+D`
//! sets the second look's depth (`+0`: none). With a fourth, the annotated
//! games as `escaque analizar` writes them (Spanish), for
//! `scripts/judged-set.py compare`. With a fifth, a third look
//! ([`escaque_analysis::Verdict`]) at depth VDEPTH for the moves whose loss
//! of winning chances after the second look lies in [LOW, HIGH] (`-`: the
//! evaluator's own).
//!
//! Each line: `{"game": i, "cpu": s, "deeper": n, "marks": [null |
//! "blunder" | …], "judged": [[cp, mate, null], …], "evals": [[cp, mate,
//! best], …], "depth": [d, …], "first_depths": [[[depth, cp, mate], …] |
//! null, …], "deeper_depths": [...]}`: evaluations from White's point of
//! view, one row for the start and one after each move (as
//! `scripts/analysis-reference.py evals` writes them): the ones the marks were
//! judged on, the first look's, and the first and the second look's
//! evaluation at every depth (`null`: no such look; the second look only for
//! positions around a move in doubt); `deeper_evals` and `verdict_evals`,
//! the second and the third look's evaluation of each position (`null`: no
//! such look), `verdicts` and `verdict_cpu`, the third looks searched and
//! their CPU seconds. `scripts/judged-set.py remark` reads it.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::AtomicBool;

use escaque::pgn::{write_game, PgnReader, PgnStyle};
use escaque::{Lang, Move, Position};
use escaque_analysis::annotate::annotate;
use escaque_analysis::{
    analyse_game, AnalysisError, Cache, EscaqueEvaluator, Eval, Evaluator, Line, Settings, Verdict,
};

/// CPU seconds this thread has used (Linux `/proc`).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
        return 0.0;
    };
    let Some(at) = stat.rfind(')') else {
        return 0.0;
    };
    let f: Vec<&str> = stat[at + 2..].split_whitespace().collect();
    let t = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    (t(11) + t(12)) / 100.0
}

/// The evaluator, remembering the first line it gave for each position.
struct Recorder {
    inner: EscaqueEvaluator,
    seen: HashMap<u64, Line>,
    deeper: usize,
    /// The evaluation at each depth of the first and of the deeper look.
    first_depths: HashMap<u64, Vec<(u32, Eval)>>,
    deeper_depths: HashMap<u64, Vec<(u32, Eval)>>,
    /// The second and the third look's evaluation of each position.
    deeper_evals: HashMap<u64, Eval>,
    verdict_evals: HashMap<u64, Eval>,
    verdicts: usize,
    verdict_cpu: f64,
}

impl Evaluator for Recorder {
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
        let found = self.inner.evaluate(pos, history, lines, stop)?;
        self.first_depths
            .entry(pos.zobrist())
            .or_insert_with(|| self.inner.depth_evals().to_vec());
        if let Some(l) = found.first() {
            self.seen.entry(pos.zobrist()).or_insert_with(|| l.clone());
        }
        Ok(found)
    }
    fn deeper_settings(&self) -> Option<Settings> {
        self.inner.deeper_settings()
    }
    fn evaluate_deeper(
        &mut self,
        pos: &Position,
        history: &[u64],
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        self.deeper += 1;
        let found = self.inner.evaluate_deeper(pos, history, stop)?;
        self.deeper_depths
            .entry(pos.zobrist())
            .or_insert_with(|| self.inner.depth_evals().to_vec());
        if let Some(l) = found.first() {
            self.deeper_evals.entry(pos.zobrist()).or_insert(l.eval);
        }
        Ok(found)
    }
    fn verdict(&self) -> Option<Verdict> {
        self.inner.verdict()
    }
    fn evaluate_verdict(
        &mut self,
        pos: &Position,
        history: &[u64],
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        self.verdicts += 1;
        let c0 = cpu_seconds();
        let found = self.inner.evaluate_verdict(pos, history, stop)?;
        self.verdict_cpu += cpu_seconds() - c0;
        if let Some(l) = found.first() {
            self.verdict_evals.entry(pos.zobrist()).or_insert(l.eval);
        }
        Ok(found)
    }
}

fn row(e: Option<Eval>, best: Option<Move>) -> serde_json::Value {
    let best = best.map(|m| m.to_string());
    match e {
        Some(Eval::Cp(c)) => serde_json::json!([c, null, best]),
        Some(Eval::Mate(m)) => serde_json::json!([null, m, best]),
        None => serde_json::json!([null, 0, null]),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!(
            "judged_set GAMES.pgn OUT.jsonl [DEPTH|nodesN[+DEEPER]] [ANNOTATED.pgn] [VDEPTH:LOW:HIGH]"
        );
        std::process::exit(2);
    }
    // DEPTH+DEEPER: the second look's depth.
    let (base, deeper) = match args.get(3).map(|s| s.split_once('+')) {
        Some(Some((b, d))) => (Some(b.to_string()), d.parse::<u32>().ok()),
        _ => (args.get(3).cloned(), None),
    };
    let settings = match base.as_ref().filter(|s| !s.is_empty() && s.as_str() != "-") {
        Some(s) if s.starts_with("nodes") => Settings {
            depth: None,
            nodes: s[5..].parse().ok(),
        },
        Some(s) => Settings {
            depth: s.parse().ok(),
            nodes: None,
        },
        None => Settings::default(),
    };
    let file = std::fs::File::open(&args[1]).expect("the games");
    let mut out = std::fs::File::create(&args[2]).expect("the output");
    let mut reader = PgnReader::new(std::io::BufReader::new(file));
    let mut annotated = args
        .get(4)
        .map(|p| std::fs::File::create(p).expect("the annotated output"));
    // VDEPTH:LOW:HIGH: a third look at that depth for the moves whose loss
    // of winning chances lies in [LOW, HIGH] (`-`: the evaluator's own).
    let verdict = args.get(5).filter(|s| s.as_str() != "-").map(|s| {
        let f: Vec<&str> = s.split(':').collect();
        let num = |i: usize| {
            f.get(i)
                .and_then(|x| x.parse::<f64>().ok())
                .expect("VDEPTH:LOW:HIGH")
        };
        Verdict {
            settings: Settings {
                depth: Some(num(0) as u32),
                nodes: None,
            },
            low: num(1),
            high: num(2),
        }
    });
    let inner = match deeper {
        Some(0) => EscaqueEvaluator::new(settings).with_deeper(None),
        Some(d) => EscaqueEvaluator::new(settings).with_deeper(Some(Settings {
            depth: Some(d),
            nodes: None,
        })),
        None => EscaqueEvaluator::new(settings),
    };
    let inner = match verdict {
        Some(v) => inner.with_verdict(Some(v)),
        None => inner,
    };
    let mut ev = Recorder {
        inner,
        deeper_evals: HashMap::new(),
        verdict_evals: HashMap::new(),
        verdicts: 0,
        verdict_cpu: 0.0,
        seen: HashMap::new(),
        deeper: 0,
        first_depths: HashMap::new(),
        deeper_depths: HashMap::new(),
    };
    let cache = Cache::new(200_000);
    let stop = AtomicBool::new(false);
    let mut i = 0;
    let mut total = 0.0;
    while let Some(game) = reader.next_game() {
        let Ok(mut game) = game else { continue };
        let moves: Vec<Move> = game.mainline().take_while(|m| !m.is_null()).collect();
        let c0 = cpu_seconds();
        let d0 = ev.deeper;
        let (v0, vc0) = (ev.verdicts, ev.verdict_cpu);
        let a = analyse_game(
            &game.start,
            &moves,
            &mut ev,
            Some(&cache),
            &stop,
            &mut |_| {},
        )
        .expect("analysis");
        let cpu = cpu_seconds() - c0;
        total += cpu;
        let mut pos = game.start;
        let mut raw = Vec::new();
        let mut depths = Vec::new();
        let by_depth = |d: Option<&Vec<(u32, Eval)>>| -> serde_json::Value {
            d.map(|v| {
                v.iter()
                    .map(|&(d, e)| match e {
                        Eval::Cp(c) => serde_json::json!([d, c, null]),
                        Eval::Mate(m) => serde_json::json!([d, null, m]),
                    })
                    .collect::<Vec<_>>()
            })
            .into()
        };
        let mut first_depths = Vec::new();
        let mut deeper_depths = Vec::new();
        let mut deeper_evals = Vec::new();
        let mut verdict_evals = Vec::new();
        for j in 0..=moves.len() {
            let z = pos.zobrist();
            deeper_evals.push(
                ev.deeper_evals
                    .get(&z)
                    .map_or(serde_json::Value::Null, |&e| row(Some(e), None)),
            );
            verdict_evals.push(
                ev.verdict_evals
                    .get(&z)
                    .map_or(serde_json::Value::Null, |&e| row(Some(e), None)),
            );
            first_depths.push(by_depth(ev.first_depths.get(&pos.zobrist())));
            deeper_depths.push(by_depth(ev.deeper_depths.get(&pos.zobrist())));
            let l = ev.seen.get(&pos.zobrist());
            raw.push(match l {
                Some(l) => row(Some(l.eval), l.moves.first().copied()),
                None => {
                    if pos.has_legal_moves() {
                        row(Some(Eval::Cp(0)), None)
                    } else if pos.is_check() {
                        row(None, None)
                    } else {
                        row(Some(Eval::Cp(0)), None)
                    }
                }
            });
            depths.push(l.map(|l| l.depth).unwrap_or(0));
            if j < moves.len() {
                pos.play_unchecked(moves[j]);
            }
        }
        let mut judged = vec![row(a.start_eval, None)];
        judged.extend(a.plies.iter().map(|p| row(p.eval, None)));
        let marks: Vec<Option<&str>> = a
            .plies
            .iter()
            .map(|p| p.judgement.map(|j| j.id()))
            .collect();
        let line = serde_json::json!({
            "game": i, "cpu": cpu, "deeper": ev.deeper - d0, "marks": marks, "judged": judged, "evals": raw, "depth": depths,
            "first_depths": first_depths, "deeper_depths": deeper_depths,
            "deeper_evals": deeper_evals, "verdict_evals": verdict_evals,
            "verdicts": ev.verdicts - v0, "verdict_cpu": ev.verdict_cpu - vc0,
        });
        writeln!(out, "{line}").expect("write");
        if let Some(pgn) = annotated.as_mut() {
            // What `escaque analizar` writes for the game.
            annotate(&mut game, &a, Lang::Es);
            let mut text = String::new();
            write_game(&mut text, &game, PgnStyle::export());
            pgn.write_all(text.as_bytes()).expect("write");
        }
        eprintln!(
            "game {i}: {} plies, {cpu:.1} s CPU, {} deeper looks, {} third looks ({:.1} s)",
            moves.len(),
            ev.deeper - d0,
            ev.verdicts - v0,
            ev.verdict_cpu - vc0
        );
        i += 1;
    }
    eprintln!("{i} games, {total:.1} s CPU");
}
