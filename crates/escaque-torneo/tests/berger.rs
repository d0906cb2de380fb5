//! Berger tables against the tables FIDE publishes (C.05 Annex 1).

use std::collections::BTreeSet;

use escaque_torneo::berger::{schedule, table_round};

type Table = Vec<Vec<(u32, u32)>>;

fn published() -> Vec<(u32, Table)> {
    let text = include_str!("data/berger_published.txt");
    let mut out: Vec<(u32, Table)> = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(n) = line.strip_prefix("players ") {
            out.push((n.parse().unwrap(), Vec::new()));
            continue;
        }
        let (_, pairs) = line.split_once(':').unwrap();
        let round = pairs
            .split_whitespace()
            .map(|p| {
                let (w, b) = p.split_once('-').unwrap();
                (w.parse().unwrap(), b.parse().unwrap())
            })
            .collect();
        out.last_mut().unwrap().1.push(round);
    }
    out
}

#[test]
fn even_numbers_match_the_published_tables() {
    let tables = published();
    assert_eq!(tables.len(), 6);
    for (n, rounds) in tables {
        assert_eq!(rounds.len() as u32, n - 1);
        for (r, want) in rounds.iter().enumerate() {
            assert_eq!(
                &table_round(n, r as u32 + 1),
                want,
                "{n} players, round {}",
                r + 1
            );
        }
    }
}

#[test]
fn odd_numbers_use_the_next_table_with_the_last_number_resting() {
    for (n, rounds) in published() {
        let odd = n - 1;
        let sched = schedule(odd, false);
        assert_eq!(sched.len(), rounds.len());
        for (got, want) in sched.iter().zip(&rounds) {
            for (&(w, b), &(pw, pb)) in got.iter().zip(want) {
                match b {
                    Some(b) => assert_eq!((w, b), (pw, pb)),
                    None => assert!(pw == n || pb == n),
                }
            }
        }
    }
}

#[test]
fn every_pair_meets_once_with_balanced_colours_up_to_sixteen() {
    for players in 3..=16u32 {
        for double in [false, true] {
            let sched = schedule(players, double);
            let cycles = if double { 2 } else { 1 };
            let mut met = std::collections::BTreeMap::new();
            let mut whites = vec![0u32; players as usize + 1];
            for round in &sched {
                let mut seen = BTreeSet::new();
                for &(w, b) in round {
                    assert!(seen.insert(w));
                    if let Some(b) = b {
                        assert!(seen.insert(b));
                        *met.entry((w.min(b), w.max(b))).or_insert(0) += 1;
                        whites[w as usize] += 1;
                    }
                }
                assert_eq!(seen.len() as u32, players);
            }
            assert_eq!(met.len() as u32, players * (players - 1) / 2);
            assert!(met.values().all(|&c| c == cycles));
            let games = (players - 1 + players % 2) * cycles;
            for p in 1..=players {
                let g = if players % 2 == 1 {
                    games - cycles
                } else {
                    games
                };
                let w = whites[p as usize];
                assert!(
                    2 * w + cycles >= g && 2 * w <= g + cycles,
                    "{players} {p} {w}/{g}"
                );
            }
            if double {
                // Second cycle: same pairs, colours reversed.
                let half = sched.len() / 2;
                for k in 0..half {
                    for (&(w, b), &(w2, b2)) in sched[k].iter().zip(&sched[k + half]) {
                        if let (Some(b), Some(b2)) = (b, b2) {
                            assert_eq!((w, b), (b2, w2));
                        }
                    }
                }
            }
        }
    }
}
