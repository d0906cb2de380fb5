//! escaque's marks against a reference engine's: for the games of a PGN
//! file that a reference file evaluates (one JSON line per game,
//! `{"game": i, "evals": [[cp|null, mate|null, best|null], …]}` for the
//! start and the position after each move, White's point of view, mate 0 =
//! checkmated: what `sf_ref.py` writes from Debian's Stockfish), analyses
//! each game with escaque's engine and compares the marks, move by move.
//! The reference's marks use the same method (`judge::judge_with`) with
//! lichess's constant for Stockfish's centipawns; escaque's use its own.
//!
//! ```text
//! cargo run --release -p escaque-analysis --example reference_compare -- \
//!     GAMES.pgn REFERENCE.jsonl [DEPTH [MAX_GAMES]]
//! ```
//! Prints, for `??`, `?` and `?!` (a mark equal to the reference's counts as
//! agreeing), precision and recall, and the confusion table.

use std::collections::HashMap;
use std::io::BufRead;
use std::sync::atomic::AtomicBool;

use escaque::pgn::PgnReader;
use escaque::Color;
use escaque_analysis::judge::{judge_with, LICHESS_WIN_CHANCE_K};
use escaque_analysis::{analyse_game, EscaqueEvaluator, Eval, Judgement, Settings};

/// A reference evaluation: `Some(None)` checkmated, `None` unreadable.
fn reference_eval(v: &serde_json::Value) -> Option<Option<Eval>> {
    let cp = v.get(0).and_then(|x| x.as_i64());
    let mate = v.get(1).and_then(|x| x.as_i64());
    match (cp, mate) {
        (Some(c), _) => Some(Some(Eval::Cp(c as i32))),
        (None, Some(0)) => Some(None),
        (None, Some(m)) => Some(Some(Eval::Mate(m as i32))),
        _ => None,
    }
}

fn index(j: Option<Judgement>) -> usize {
    match j {
        None => 0,
        Some(Judgement::Inaccuracy) => 1,
        Some(Judgement::Mistake) => 2,
        Some(Judgement::Blunder) => 3,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: reference_compare GAMES.pgn REFERENCE.jsonl [DEPTH [MAX_GAMES]]");
        std::process::exit(2);
    }
    let depth: u32 = args
        .get(3)
        .and_then(|s| s.parse().ok())
        .unwrap_or(Settings::DEFAULT_DEPTH);
    let max_games: usize = args
        .get(4)
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let open = |p: &str| {
        std::fs::File::open(p).unwrap_or_else(|e| {
            eprintln!("{p}: {e}");
            std::process::exit(2)
        })
    };
    let mut reference: HashMap<usize, Vec<serde_json::Value>> = HashMap::new();
    for line in std::io::BufReader::new(open(&args[2]))
        .lines()
        .map_while(Result::ok)
    {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else {
            continue;
        };
        if let (Some(g), Some(e)) = (v["game"].as_u64(), v["evals"].as_array()) {
            reference.insert(g as usize, e.clone());
        }
    }
    let mut reader = PgnReader::new(std::io::BufReader::new(open(&args[1])));
    // table[reference mark][escaque mark]
    let mut table = [[0u32; 4]; 4];
    let (mut games, mut plies) = (0usize, 0usize);
    let settings = Settings {
        depth: Some(depth),
        nodes: None,
    };
    let mut i = 0usize;
    while let Some(game) = reader.next_game() {
        let this = i;
        i += 1;
        if games >= max_games {
            break;
        }
        let (Ok(game), Some(evals)) = (game, reference.get(&this)) else {
            continue;
        };
        let moves: Vec<_> = game.mainline().collect();
        if evals.len() != moves.len() + 1 {
            eprintln!(
                "game {this}: {} evaluations for {} moves, skipped",
                evals.len(),
                moves.len()
            );
            continue;
        }
        let Some(ref_evals) = evals.iter().map(reference_eval).collect::<Option<Vec<_>>>() else {
            eprintln!("game {this}: unreadable evaluation, skipped");
            continue;
        };
        let mut ev = EscaqueEvaluator::new(settings);
        let stop = AtomicBool::new(false);
        let a = match analyse_game(&game.start, &moves, &mut ev, None, &stop, &mut |_| {}) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("game {this}: {e}");
                continue;
            }
        };
        let mut mover = game.start.turn();
        for (j, ply) in a.plies.iter().enumerate() {
            let theirs = ref_evals[j]
                .and_then(|b| judge_with(LICHESS_WIN_CHANCE_K, b, ref_evals[j + 1], mover));
            table[index(theirs)][index(ply.judgement)] += 1;
            if std::env::var_os("SHOW").is_some() && index(theirs) >= 2 {
                let before = if j == 0 {
                    a.start_eval
                } else {
                    a.plies[j - 1].eval
                };
                eprintln!(
                    "game {this} ply {j} {}: reference {:?} → {:?} {:?}; escaque {:?} → {:?} {:?} (best {:?})",
                    ply.san, ref_evals[j], ref_evals[j + 1], theirs, before, ply.eval, ply.judgement, ply.best_san
                );
            }
            mover = if mover == Color::White {
                Color::Black
            } else {
                Color::White
            };
        }
        games += 1;
        plies += a.plies.len();
        eprintln!("game {this}: {} plies", a.plies.len());
    }
    println!("{games} games, {plies} moves; escaque at depth {depth}");
    println!("reference \\ escaque: none ?! ? ??");
    for (r, name) in ["none", "?!", "?", "??"].iter().enumerate() {
        println!("{name:>4}: {:?}", table[r]);
    }
    for (k, name) in [(3, "?? blunder"), (2, "? mistake"), (1, "?! inaccuracy")] {
        let tp = table[k][k] as f64;
        let marked: u32 = (0..4).map(|r| table[r][k]).sum();
        let actual: u32 = table[k].iter().sum();
        let p = if marked > 0 {
            tp / marked as f64
        } else {
            f64::NAN
        };
        let r = if actual > 0 {
            tp / actual as f64
        } else {
            f64::NAN
        };
        println!("{name}: precision {p:.3} ({tp}/{marked}), recall {r:.3} ({tp}/{actual})");
    }
}
