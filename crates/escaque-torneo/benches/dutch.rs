//! Pairing round 9 of a 500-player Swiss (FIDE Dutch system), escaque and,
//! when `BBP_PAIRINGS` names a bbpPairings executable, bbpPairings on the
//! same file in the same run (bbpPairings is timed as a whole process:
//! start, reading the TRF, pairing, writing the answer).
//!
//! The tournament (benches/data/swiss500_r9.trf) is rounds 1–8 of
//! `bbpPairings.exe --dutch -g cfg -o gen.trf -s 500` with PlayersNumber=500,
//! RoundsNumber=9 (see BENCHMARKS.md).

use std::hint::black_box;
use std::path::Path;
use std::process::Command;

use criterion::{criterion_group, criterion_main, Criterion};
use escaque_torneo::dutch::{pair, pairing_players};
use escaque_torneo::trf;

fn data() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/swiss500_r9.trf")
}

fn bench(c: &mut Criterion) {
    let text = std::fs::read_to_string(data()).unwrap();
    let t = trf::parse(&text).unwrap();
    let round = t.rounds.len() as u32 + 1;
    assert_eq!((t.players.len(), round), (500, 9));
    // Before timing: the pairing is bbpPairings' (kept beside the file).
    let players = pairing_players(&t, round);
    let mut ours: Vec<(u32, u32)> = pair(&players, false, t.total_rounds, t.first_white)
        .unwrap()
        .into_iter()
        .map(|(w, b)| (w, b.unwrap_or(0)))
        .collect();
    let theirs_text =
        std::fs::read_to_string(data().with_file_name("swiss500_r9.bbppairings.txt")).unwrap();
    let mut theirs: Vec<(u32, u32)> = theirs_text
        .lines()
        .skip(1)
        .map(|l| {
            let mut it = l.split_whitespace().map(|x| x.parse::<u32>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert_eq!(ours, theirs, "round 9 differs from bbpPairings'");
    println!(
        "round 9: escaque's {} pairs are bbpPairings' (colours included)",
        ours.len()
    );
    let mut g = c.benchmark_group("dutch_500_round9");
    g.sample_size(10);
    g.bench_function("escaque", |b| {
        b.iter(|| {
            let players = pairing_players(black_box(&t), round);
            pair(&players, false, t.total_rounds, t.first_white).unwrap()
        })
    });
    if let Ok(exe) = std::env::var("BBP_PAIRINGS") {
        let out = std::env::temp_dir().join(format!("bbp-bench-{}.txt", std::process::id()));
        g.bench_function("bbpPairings", |b| {
            b.iter(|| {
                let s = Command::new(&exe)
                    .arg("--dutch")
                    .arg(data())
                    .arg("-p")
                    .arg(&out)
                    .status()
                    .unwrap();
                assert!(s.success());
            })
        });
        let _ = std::fs::remove_file(out);
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
