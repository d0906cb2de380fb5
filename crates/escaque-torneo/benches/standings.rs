//! The standings of a 500-player, 11-round Swiss event with every tie-break
//! escaque computes (FIDE C.07, 2026 version), as the desk recomputes them
//! after each result (issue 62). The event is made here, the same every run:
//! players ordered by score each round and paired down the list without
//! rematches, results from a fixed seed, with half-point byes, zero-point
//! byes, forfeits, the pairing-allocated bye and withdrawals.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use escaque_torneo::model::{ByeKind, Game, Outcome, Round};
use escaque_torneo::standings::{compute, explain, Rules, TieBreak};
use escaque_torneo::{Player, System, Tournament};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A 500-player, 11-round Swiss with every kind of unplayed round.
pub fn event() -> Tournament {
    let (n, rounds) = (500u32, 11u32);
    let mut rng = ChaCha8Rng::seed_from_u64(62);
    let mut t = Tournament::new("Open 500", System::Swiss, rounds);
    t.tiebreak_rules = Some(Rules::V2026);
    t.tiebreaks = TieBreak::ALL.to_vec();
    for i in 1..=n {
        let mut p = Player::new(&format!("Jugador {i}"));
        p.rating = Some(2600 - (i as u16) * 2);
        t.players.push(p);
    }
    let mut score = vec![0u32; n as usize + 1];
    let mut met = std::collections::HashSet::new();
    let withdrawn: Vec<(u32, u32)> = (0..10)
        .map(|_| (rng.random_range(1..=n), rng.random_range(4..=rounds)))
        .collect();
    for r in 1..=rounds {
        let mut round = Round::default();
        let mut avail: Vec<u32> = Vec::new();
        for p in 1..=n {
            if withdrawn.iter().any(|&(q, w)| q == p && r >= w) {
                round.byes.push((p, ByeKind::Zero));
            } else if rng.random_bool(0.02) {
                round.byes.push((p, ByeKind::Half));
            } else if rng.random_bool(0.005) {
                round.byes.push((p, ByeKind::Zero));
            } else {
                avail.push(p);
            }
        }
        avail.sort_by_key(|&p| (std::cmp::Reverse(score[p as usize]), p));
        if avail.len() % 2 == 1 {
            let p = avail.pop().expect("odd");
            round.byes.push((p, ByeKind::PairingAllocated));
        }
        while let Some(a) = (!avail.is_empty()).then(|| avail.remove(0)) {
            let k = avail
                .iter()
                .position(|&b| !met.contains(&(a, b)))
                .unwrap_or(0);
            let b = avail.remove(k);
            met.insert((a, b));
            met.insert((b, a));
            let x: f64 = rng.random();
            let outcome = if x < 0.01 {
                Outcome::WhiteForfeitWin
            } else if x < 0.40 {
                Outcome::WhiteWins
            } else if x < 0.70 {
                Outcome::Draw
            } else {
                Outcome::BlackWins
            };
            round.games.push(Game::new(a, b, outcome));
        }
        t.rounds.push(round);
        for p in 1..=n {
            score[p as usize] = t.score_after(p, r);
        }
    }
    t
}

fn bench(c: &mut Criterion) {
    let t = event();
    assert_eq!((t.players.len(), t.complete_rounds()), (500, 11));
    let mut g = c.benchmark_group("standings_500_11");
    g.sample_size(20);
    g.bench_function("compute_all_tiebreaks", |b| {
        b.iter(|| compute(black_box(&t)))
    });
    g.bench_function("explain_one_player", |b| {
        b.iter(|| explain(black_box(&t), 250, 11).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
