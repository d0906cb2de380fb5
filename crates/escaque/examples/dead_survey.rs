//! A development tool for `escaque::dead`: judges a set of positions for both
//! colours with escaque and with the `chasolver` oracle (dev-dependency),
//! in parallel, and prints undecided cases, disagreements and timings.
//!
//! ```text
//! cargo run --release -p escaque --example dead_survey -- FILE [STEP] [THREADS]
//! cargo run --release -p escaque --example dead_survey -- sweep N [THREADS]
//! ```
//!
//! `FILE` has lines `XY FEN` (the published sets' format) or plain FENs;
//! `sweep N` judges the first `N` positions of the differential sweep of
//! `tests/dead.rs` (same seed, same games).

use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use escaque::dead::{line_mates, winnability, Winnability};
use escaque::{Color, Move, Position, Role};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn pick(p: &Position, rng: &mut ChaCha8Rng, bias: u8) -> Option<Move> {
    let moves = p.legal_moves();
    if moves.is_empty() {
        return None;
    }
    if bias == 1 && rng.random_bool(0.7) {
        let preferred: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| {
                let role = p.role_at(m.from());
                let victim = p.role_at(m.to());
                (role == Some(Role::Pawn) && victim.is_none())
                    || victim.is_some_and(|v| v != Role::Pawn)
            })
            .collect();
        if !preferred.is_empty() {
            return Some(preferred[rng.random_range(0..preferred.len())]);
        }
    }
    Some(moves[rng.random_range(0..moves.len())])
}

/// The sweep's positions, generated exactly as `tests/dead.rs` does.
fn sweep(want: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    while out.len() < want {
        let bias = rng.random_range(0..2u8);
        let mut p = Position::new();
        for ply in 0..400 {
            let Some(m) = pick(&p, &mut rng, bias) else {
                break;
            };
            p.play(m).unwrap();
            if ply < 20 || !rng.random_bool(0.15) {
                continue;
            }
            out.push(("??".to_string(), p.to_fen()));
            if out.len() >= want || p.by_role(Role::King).count() == p.occupied().count() {
                break;
            }
        }
    }
    out
}

fn oracle(fen: &str, c: Color) -> Option<bool> {
    let board = chess::Board::from_str(fen).ok()?;
    let color = match c {
        Color::White => chess::Color::White,
        Color::Black => chess::Color::Black,
    };
    let r = chasolver::winnability(&board, color)?;
    if std::env::var_os("ORACLE_LINE").is_some() {
        if let chasolver::Winnability::Winnable { helpmate } = &r {
            let l: Vec<String> = helpmate.iter().map(|m| m.to_string()).collect();
            println!("ORACLE {c:?} {}", l.join(" "));
        }
    }
    match r {
        chasolver::Winnability::Winnable { .. } => Some(true),
        chasolver::Winnability::Unwinnable => Some(false),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("static") {
        // Lines `UNDECIDED White|Black FEN`: how many the static analysis
        // proves unwinnable for that colour.
        let text = std::fs::read_to_string(&args[2]).expect("read file");
        let (mut n, mut proved) = (0, 0);
        for l in text.lines() {
            let mut it = l.splitn(3, ' ');
            let (_, c, fen) = (it.next(), it.next(), it.next().unwrap_or(""));
            let c = if c == Some("White") {
                Color::White
            } else {
                Color::Black
            };
            let Ok(p) = Position::from_fen(fen.trim()) else {
                continue;
            };
            n += 1;
            if escaque::dead::StaticAnalysis::proves_unwinnable_split(&p, c) {
                proved += 1;
            } else if std::env::var_os("SHOW").is_some() {
                println!("not proved {c:?} {fen}");
            }
        }
        println!("static: {proved} of {n} proved");
        return;
    }
    let (items, threads) = if args.get(1).map(String::as_str) == Some("sweep") {
        let n = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2000);
        (
            sweep(n),
            args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2),
        )
    } else {
        let text = std::fs::read_to_string(&args[1]).expect("read file");
        let step: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
        let items: Vec<(String, String)> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .step_by(step)
            .map(|l| {
                let b = l.as_bytes();
                if b.len() > 3 && matches!(b[0], b'W' | b'-') && b[2] == b' ' {
                    (l[..2].to_string(), l[3..].trim().to_string())
                } else {
                    ("??".to_string(), l.trim().to_string())
                }
            })
            .collect();
        (items, args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2))
    };
    let use_oracle = std::env::var_os("NO_ORACLE").is_none();
    let repeat: usize = std::env::var("REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let items: Vec<(String, String)> = (0..repeat).flat_map(|_| items.iter().cloned()).collect();
    let slow_limit = Duration::from_micros(
        std::env::var("SLOW_US")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(200_000),
    );
    let show: usize = std::env::var("SHOW_SLOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    let next = AtomicUsize::new(0);
    let report = Mutex::new((0usize, 0usize, 0usize, 0usize, 0usize, 0usize));
    let times = Mutex::new((Duration::ZERO, Duration::ZERO));
    let slow = Mutex::new(Vec::<(Duration, String)>::new());
    // TIMES=FILE: one line per verdict, `escaque_us chasolver_us colour FEN`.
    let per_verdict = Mutex::new(Vec::<String>::new());
    let keep_times = std::env::var_os("TIMES");
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() {
                    break;
                }
                let (want, fen) = &items[i];
                // The strict reader first, then the playable one (impossible
                // material, castling rights without their rook, …).
                let read = Position::from_fen(fen)
                    .ok()
                    .or_else(|| Position::from_fen_playable(fen).ok().map(|(p, _)| p));
                let Some(p) = read else {
                    report.lock().unwrap().5 += 1;
                    continue;
                };
                for (k, c) in [Color::White, Color::Black].into_iter().enumerate() {
                    let t0 = Instant::now();
                    let w = match std::env::var("NODES").ok().and_then(|s| s.parse().ok()) {
                        Some(n) => escaque::dead::winnability_with(
                            &p,
                            c,
                            escaque::dead::Budget {
                                search_nodes: n,
                                ..escaque::dead::Budget::DEFAULT
                            },
                        ),
                        None => winnability(&p, c),
                    };
                    let te = t0.elapsed();
                    let t1 = Instant::now();
                    let o = if use_oracle { oracle(fen, c) } else { None };
                    let to = t1.elapsed();
                    {
                        let mut t = times.lock().unwrap();
                        t.0 += te;
                        t.1 += to;
                    }
                    if keep_times.is_some() {
                        let line: Vec<String> = match &w {
                            Winnability::Winnable(l) => l.iter().map(|m| m.to_string()).collect(),
                            _ => Vec::new(),
                        };
                        per_verdict.lock().unwrap().push(format!(
                            "{} {} {c:?} {fen} | {} {}",
                            te.as_micros(),
                            to.as_micros(),
                            w.id(),
                            line.join(" ")
                        ));
                    }
                    if te > slow_limit {
                        slow.lock().unwrap().push((
                            te,
                            format!("{c:?} {fen} (chasolver {:.1} ms)", to.as_secs_f64() * 1e3),
                        ));
                    }
                    let expect = match want.as_bytes()[k] {
                        b'W' | b'B' => Some(true),
                        b'-' => Some(false),
                        _ => o,
                    };
                    let mut r = report.lock().unwrap();
                    match &w {
                        Winnability::Undecided => {
                            r.1 += 1;
                            println!("UNDECIDED {c:?} {fen} (expected {expect:?})");
                        }
                        Winnability::Winnable(line) => {
                            assert!(line_mates(&p, line, c), "bad line {c:?} {fen}");
                            if expect == Some(false) || o == Some(false) {
                                r.2 += 1;
                                println!("WRONG winnable {c:?} {fen}");
                            } else {
                                r.0 += 1;
                            }
                        }
                        Winnability::Unwinnable => {
                            if expect == Some(true) || o == Some(true) {
                                r.2 += 1;
                                println!("WRONG unwinnable {c:?} {fen}");
                            } else {
                                r.0 += 1;
                            }
                        }
                    }
                    if use_oracle && o.is_none() {
                        r.3 += 1;
                    }
                    r.4 += 1;
                }
            });
        }
    });
    if let Some(path) = &keep_times {
        let lines = per_verdict.lock().unwrap();
        std::fs::write(path, lines.join("\n") + "\n").expect("write TIMES file");
    }
    let r = report.lock().unwrap();
    let t = times.lock().unwrap();
    let mut slow = slow.lock().unwrap();
    slow.sort();
    for (d, f) in slow.iter().rev().take(show) {
        println!("slow {:>8.1} ms {f}", d.as_secs_f64() * 1e3);
    }
    println!(
        "verdicts {}: ok {}, undecided {}, WRONG {}, oracle undecided {}, FENs refused {}; \
         time escaque {:.3} s, chasolver {:.3} s",
        r.4,
        r.0,
        r.1,
        r.2,
        r.3,
        r.5,
        t.0.as_secs_f64(),
        t.1.as_secs_f64()
    );
}
