//! Times the checker (`escaque torneo comprobar`'s library part) file by
//! file: `cargo run --profile test -p escaque-torneo --example
//! comprobar_tiempo -- FILE.trf...` prints each file's players, rounds,
//! time and verdict (the JSON report), then the total. Used to measure the
//! checker's speed without the command line (issue 58).
fn main() {
    let mut total = std::time::Duration::ZERO;
    let files: Vec<String> = std::env::args().skip(1).collect();
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{f}: {e}");
                continue;
            }
        };
        let t0 = std::time::Instant::now();
        let Ok(t) = escaque_torneo::trf::parse(&text) else {
            eprintln!("{f}: unreadable");
            continue;
        };
        let report = escaque_torneo::check::check(&t, &text);
        let dt = t0.elapsed();
        total += dt;
        println!(
            "{f}\t{}\t{}\t{:.3}\t{}",
            t.players.len(),
            t.rounds.len(),
            dt.as_secs_f64(),
            report.json()
        );
    }
    eprintln!("{} files, {:.2} s", files.len(), total.as_secs_f64());
}
