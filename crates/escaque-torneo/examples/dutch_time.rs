//! Times one pairing: `cargo run --release --example dutch_time FILE.trf`
//! pairs the round after the last one in the file and prints the time and
//! the pairs in the JaVaFo convention.
use escaque_torneo::dutch::{pair, pairing_players};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let t = escaque_torneo::trf::parse(&std::fs::read_to_string(&a[1]).unwrap()).unwrap();
    let r = t.rounds.len() as u32 + 1;
    let t0 = std::time::Instant::now();
    let pp = pairing_players(&t, r);
    let pairs = pair(&pp, r == t.total_rounds, t.total_rounds, t.first_white).unwrap();
    eprintln!("{} players, round {r}: {:?}", pp.len(), t0.elapsed());
    println!("{}", pairs.len());
    for (w, b) in pairs {
        println!("{w} {}", b.unwrap_or(0));
    }
}
