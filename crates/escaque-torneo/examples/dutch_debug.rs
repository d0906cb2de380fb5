use escaque_torneo::dutch::{pair, pairing_players};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let t = escaque_torneo::trf::parse(&std::fs::read_to_string(&a[1]).unwrap()).unwrap();
    let r: u32 = a[2].parse().unwrap();
    println!(
        "players {} rounds {} total {}",
        t.players.len(),
        t.rounds.len(),
        t.total_rounds
    );
    let mut t2 = t.clone();
    t2.rounds.truncate(r as usize - 1);
    let t0 = std::time::Instant::now();
    let pp = pairing_players(&t2, r);
    eprintln!("players {:?}", t0.elapsed());
    for p in &pp {
        println!(
            "{} {} {:?} fl {} {}",
            p.id, p.score, p.colours, p.float_last, p.float_before
        );
    }
    println!(
        "{:?}",
        pair(&pp, r == t.total_rounds, t.total_rounds, t.first_white)
    );
}
