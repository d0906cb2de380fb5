//! The tuner: self-play data and a Texel-style logistic fit of the weights.
//!
//! ```text
//! escaque-tune selfplay GAMES NODES OUT.txt [SEED]
//! escaque-tune fit DATA.txt EPOCHS [OUT.rs [LR [LAMBDA [HELD_OUT.txt]]]]
//! escaque-tune k DATA.txt
//! escaque-tune nnuedata GAMES NODES OUT.txt [SEED]
//! [NNUE_INIT=NET.bin] escaque-tune nnue-train OUT.bin EPOCHS SEED THREADS DATA.txt...
//! ```

#![forbid(unsafe_code)]

use std::io::{BufRead, BufWriter, Write};
use std::sync::atomic::AtomicBool;

use escaque::{Color, Position};
use escaque_engine::{Engine, Limits};
use escaque_tune::{
    error, fit, fit_k, fit_k_scores, handmade, parse_line, parse_scored, score_error,
    weights_source, Sample,
};

use escaque_tune::nnue::Rng;

/// Largest score (centipawns) of an accepted random opening.
const BALANCED: i32 = 150;

/// Plays `games` games of the engine against itself at `nodes` a move and
/// writes `FEN;RESULT` for every quiet position, or `FEN;RESULT;SCORE` with
/// `with_score` (the search's score in centipawns for White: the network's
/// training data).
fn selfplay(
    games: usize,
    nodes: u64,
    out: &str,
    seed: u64,
    with_score: bool,
) -> Result<(), String> {
    let file = std::fs::File::create(out).map_err(|e| e.to_string())?;
    let mut w = BufWriter::new(file);
    let mut engine = Engine::new();
    engine.set_hash(8);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let mut rng = Rng::for_self_play(seed);
    let (mut total, mut wins, mut draws) = (0usize, 0usize, 0usize);
    for g in 0..games {
        engine.clear_hash();
        // Random first plies give varied games; an opening that leaves one side
        // clearly ahead (more than 1.5 pawns at the node budget) is drawn again,
        // so that the games are decided by play rather than by the dice.
        let (mut pos, mut keys) = loop {
            let mut pos = Position::new();
            let mut keys: Vec<u64> = Vec::new();
            let opening = 6 + rng.next_u64() % 5;
            for _ in 0..opening {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                keys.push(pos.zobrist());
                pos.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
            }
            if pos.has_legal_moves()
                && engine.search(&pos, &keys, &limits, &stop).score.abs() <= BALANCED
            {
                break (pos, keys);
            }
        };
        let mut fens: Vec<(String, i32)> = Vec::new();
        let mut decisive = 0i32;
        let result: f64 = loop {
            if !pos.has_legal_moves() {
                break if pos.is_check() {
                    if pos.turn() == Color::White {
                        0.0
                    } else {
                        1.0
                    }
                } else {
                    0.5
                };
            }
            let reps = keys.iter().filter(|&&k| k == pos.zobrist()).count();
            if pos.halfmove_clock() >= 100
                || pos.is_insufficient_material()
                || reps >= 2
                || keys.len() > 400
            {
                break 0.5;
            }
            let r = engine.search(&pos, &keys, &limits, &stop);
            let Some(m) = r.best_move else { break 0.5 };
            let white_score = if pos.turn() == Color::White {
                r.score
            } else {
                -r.score
            };
            // Adjudicate clear wins to save time.
            if white_score.abs() > 1000 {
                decisive += white_score.signum();
                if decisive.abs() >= 6 {
                    break if decisive > 0 { 1.0 } else { 0.0 };
                }
            } else {
                decisive = 0;
            }
            let quiet =
                pos.role_at(m.to()).is_none() && m.promotion_role().is_none() && !m.is_en_passant();
            if quiet && !pos.is_check() && r.score.abs() < 2000 {
                fens.push((pos.to_fen(), white_score));
            }
            keys.push(pos.zobrist());
            pos.play_unchecked(m);
        };
        total += fens.len();
        if result == 0.5 {
            draws += 1;
        } else {
            wins += 1;
        }
        for (f, score) in fens {
            if with_score {
                writeln!(w, "{f};{result};{score}").map_err(|e| e.to_string())?;
            } else {
                writeln!(w, "{f};{result}").map_err(|e| e.to_string())?;
            }
        }
        if (g + 1) % 50 == 0 {
            eprintln!(
                "{} games, {total} positions, {wins} decisive, {draws} drawn",
                g + 1
            );
        }
    }
    w.flush().map_err(|e| e.to_string())
}

fn read_samples(path: &str) -> Result<Vec<Sample>, String> {
    read_parsed(path, parse_line)
}

/// The lines of `path` that `parse` accepts, parsed, in one pass.
fn read_parsed<T>(path: &str, parse: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(std::io::BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| parse(&l))
        .collect())
}

fn fit_cmd(
    data: &str,
    epochs: usize,
    out: &str,
    lr: f64,
    lambda: f64,
    held_out: Option<&str>,
) -> Result<(), String> {
    let all = read_samples(data)?;
    // Held-out positions watch for over-fitting: a file of other games when one
    // is given (positions of one game are alike), else every tenth position.
    let (train, valid) = match held_out {
        Some(path) => (all, read_samples(path)?),
        None => {
            let (mut train, mut valid) = (Vec::new(), Vec::new());
            for (i, s) in all.into_iter().enumerate() {
                if i % 10 == 9 {
                    valid.push(s);
                } else {
                    train.push(s);
                }
            }
            (train, valid)
        }
    };
    eprintln!(
        "{} training positions, {} held out",
        train.len(),
        valid.len()
    );
    // Every fit starts from the hand-written weights (not from the shipped
    // ones), so that the same data gives the same weights again.
    let hand = handmade();
    let start: Vec<[f64; 2]> = hand.iter().map(|p| [p[0] as f64, p[1] as f64]).collect();
    let k = fit_k(&train, &start);
    let (t0, v0) = (error(&train, &start, k), error(&valid, &start, k));
    eprintln!("K = {k:.4}, start: train {t0:.6} held-out {v0:.6}");
    // Early stopping: the weights kept are those of the epoch with the lowest
    // held-out error, not the last ones.
    let mut best = (v0, 0usize, start.clone());
    fit(&train, &hand, k, epochs, lr, lambda, |e, w| {
        let v = error(&valid, w, k);
        eprintln!(
            "epoch {e}: train {:.6} held-out {v:.6}",
            error(&train, w, k)
        );
        if v < best.0 {
            best = (v, e, w.to_vec());
        }
    });
    let (_, best_epoch, w) = best;
    eprintln!("keeping epoch {best_epoch}");
    let (t1, v1) = (error(&train, &w, k), error(&valid, &w, k));
    let note = format!(
        "Fitted on {} positions from {data} ({} held out), K = {k:.4}, epoch {best_epoch} of {epochs}\n(lowest held-out error), lr {lr}, lambda {lambda}: train error {t0:.6} -> {t1:.6},\nheld-out {v0:.6} -> {v1:.6}.",
        train.len(),
        valid.len()
    );
    std::fs::write(out, weights_source(&w, &note)).map_err(|e| e.to_string())?;
    eprintln!("wrote {out}");
    Ok(())
}

/// Weight of the search's score in the network's target (the rest is the
/// game's result).
const NNUE_LAMBDA: f32 = 0.75;
/// Train a correction of the hand-written evaluation rather than a whole
/// evaluation.
const NNUE_RESIDUAL: bool = true;
/// Decoupled weight decay (AdamW).
const NNUE_WD: f32 = 0.0;
/// Train on each position and its mirror image (files a↔h).
const NNUE_MIRROR: bool = true;
/// Positions per Adam step when training the network.
const NNUE_BATCH: usize = 4096;
/// Adam's step size when training the network.
const NNUE_LR: f32 = 0.001;

/// Trains the network on `FEN;RESULT;SCORE` files: every twentieth block of
/// 1,000 lines is held out (whole stretches of games, not positions of
/// games the training saw) and decides which epoch is kept.
fn nnue_train_cmd(
    out: &str,
    epochs: usize,
    seed: u64,
    threads: usize,
    files: &[String],
) -> Result<(), String> {
    let mut train = escaque_tune::nnue::Data::default();
    let mut valid = escaque_tune::nnue::Data::default();
    let mut refused = 0usize;
    let env = |name: &str, default: f32| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let lambda = env("NNUE_LAMBDA", NNUE_LAMBDA);
    for path in files {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for (i, line) in std::io::BufReader::new(file)
            .lines()
            .map_while(Result::ok)
            .enumerate()
        {
            let held_out = (i / 1000) % 20 == 19;
            let data = if held_out { &mut valid } else { &mut train };
            if !data.push_line(&line, lambda, NNUE_MIRROR && !held_out) {
                refused += 1;
            }
        }
    }
    // The hand-written evaluation's error on the same held-out targets: the
    // figure the network has to beat.
    eprintln!(
        "{} training positions, {} held out, {refused} lines refused; the hand-written evaluation's held-out error {:.6}",
        train.len(),
        valid.len(),
        valid.hand_written_error()
    );
    // NNUE_INIT: a network file to train further instead of starting from
    // random weights.
    let init = match std::env::var("NNUE_INIT") {
        Ok(path) => {
            let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
            let net = escaque_engine::nnue::Network::from_bytes(&bytes)
                .map_err(|e| format!("{path}: {e}"))?;
            Some(escaque_tune::nnue::FloatNet::from_network(&net))
        }
        Err(_) => None,
    };
    if let Some(net) = &init {
        eprintln!("starting from NNUE_INIT: held-out {:.6}", net.error(&valid));
    }
    let settings = escaque_tune::nnue::Settings {
        init,
        epochs,
        batch: NNUE_BATCH,
        lr: env("NNUE_LR", NNUE_LR),
        weight_decay: env("NNUE_WD", NNUE_WD),
        residual: env("NNUE_RESIDUAL", NNUE_RESIDUAL as u8 as f32) != 0.0,
        threads,
        seed,
    };
    let started = std::time::Instant::now();
    let (net, epoch) = escaque_tune::nnue::train(&train, &valid, &settings, |e, t, v| {
        eprintln!(
            "epoch {e}: train {t:.6} held-out {v:.6} ({:.0} s)",
            started.elapsed().as_secs_f64()
        );
    });
    eprintln!("keeping epoch {epoch}: held-out {:.6}", net.error(&valid));
    std::fs::write(out, net.quantise().to_bytes()).map_err(|e| format!("{out}: {e}"))?;
    eprintln!("wrote {out}");
    Ok(())
}

/// Prints the K of `sigmoid(K · eval / 400)` that fits the shipped weights
/// (the engine's `WEIGHTS`) best on `data`, and the winning-chance constant
/// per centipawn it gives (K / 400).
fn k_cmd(data: &str) -> Result<(), String> {
    // One pass over the file: each position's terms, and the search's score
    // where the line carries one (the network's data).
    let (samples, scored): (Vec<Sample>, Vec<Option<(f64, f64)>>) =
        read_parsed(data, |l| Some((parse_line(l)?, parse_scored(l))))?
            .into_iter()
            .unzip();
    if samples.is_empty() {
        return Err(format!("{data}: no positions"));
    }
    let shipped: Vec<[f64; 2]> = escaque_engine::WEIGHTS
        .iter()
        .map(|p| [p[0] as f64, p[1] as f64])
        .collect();
    let k = fit_k(&samples, &shipped);
    println!(
        "{} positions from {data}: K = {k:.4} (error {:.6}), per centipawn K/400 = {:.8}",
        samples.len(),
        error(&samples, &shipped, k),
        k / 400.0
    );
    // The network's data also carries the search's score: fit K to it too,
    // clamped as the analysis clamps (the analysis reads search scores).
    let pairs: Vec<(f64, f64)> = scored.into_iter().flatten().collect();
    if !pairs.is_empty() {
        let ceiling = 1000.0;
        let k = fit_k_scores(&pairs, ceiling);
        println!(
            "{} search scores from {data} (clamped to ±{ceiling}): K = {k:.4} (error {:.6}), per centipawn K/400 = {:.8}",
            pairs.len(),
            score_error(&pairs, k, ceiling),
            k / 400.0
        );
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let r = match args.get(1).map(String::as_str) {
        Some("selfplay") if args.len() >= 5 => {
            let games = args[2].parse().unwrap_or(100);
            let nodes = args[3].parse().unwrap_or(5000);
            let seed = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(0x1234_5678);
            selfplay(games, nodes, &args[4], seed, false)
        }
        Some("nnuedata") if args.len() >= 5 => {
            let games = args[2].parse().unwrap_or(100);
            let nodes = args[3].parse().unwrap_or(5000);
            let seed = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(0x1234_5678);
            selfplay(games, nodes, &args[4], seed, true)
        }
        Some("fit") if args.len() >= 4 => {
            let epochs = args[3].parse().unwrap_or(300);
            let out = args.get(4).cloned().unwrap_or_else(|| "crates/escaque-engine/src/weights.rs".to_string());
            let lr = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(0.5);
            let lambda = args.get(6).and_then(|s| s.parse().ok()).unwrap_or(1e-6);
            fit_cmd(&args[2], epochs, &out, lr, lambda, args.get(7).map(String::as_str))
        }
        Some("k") if args.len() >= 3 => k_cmd(&args[2]),
        Some("nnue-train") if args.len() >= 7 => {
            let epochs = args[3].parse().unwrap_or(30);
            let seed = args[4].parse().unwrap_or(1);
            let threads = args[5].parse().unwrap_or(2);
            nnue_train_cmd(&args[2], epochs, seed, threads, &args[6..])
        }
        _ => Err("usage: escaque-tune selfplay GAMES NODES OUT [SEED] | escaque-tune fit DATA EPOCHS [OUT.rs [LR [LAMBDA [HELD_OUT]]]] | escaque-tune k DATA | escaque-tune nnuedata GAMES NODES OUT [SEED] | escaque-tune nnue-train OUT.bin EPOCHS SEED THREADS DATA...".to_string()),
    };
    if let Err(e) = r {
        eprintln!("escaque-tune: {e}");
        std::process::exit(2);
    }
}
