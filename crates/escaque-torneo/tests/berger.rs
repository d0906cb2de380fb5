//! Berger tables against the tables FIDE publishes (C.05 Annex 1): single
//! and double round robins of 3 to 16 players, pairings, colours, board
//! order and round order equal to the annex's tables, held as data in
//! `data/berger_published.txt`.

use std::collections::BTreeSet;

use escaque_torneo::berger::{schedule, table_round};

type Table = Vec<Vec<(u32, u32)>>;

/// The tables in the data file: `players N` (single, even N) and `double N`
/// (a double round robin written out), each with its rounds.
fn published() -> Vec<(String, u32, Table)> {
    let text = include_str!("data/berger_published.txt");
    let mut out: Vec<(String, u32, Table)> = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some((kind, n)) = line
            .strip_prefix("players ")
            .map(|n| ("players", n))
            .or_else(|| line.strip_prefix("double ").map(|n| ("double", n)))
        {
            out.push((kind.to_string(), n.parse().unwrap(), Vec::new()));
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
        out.last_mut().unwrap().2.push(round);
    }
    out
}

/// The single tables, by even number of players.
fn singles() -> Vec<(u32, Table)> {
    published()
        .into_iter()
        .filter(|t| t.0 == "players")
        .map(|t| (t.1, t.2))
        .collect()
}

/// A schedule for an even number of players, every game played.
fn full(sched: &[Vec<(u32, Option<u32>)>]) -> Table {
    sched
        .iter()
        .map(|r| r.iter().map(|&(w, b)| (w, b.unwrap())).collect())
        .collect()
}

/// A schedule for `odd` players against the table of `odd + 1`: the same
/// games in the same order, and whoever the table pairs with `odd + 1` rests.
fn assert_odd_matches(odd: u32, got: &[Vec<(u32, Option<u32>)>], want: &Table, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (r, (got, want)) in got.iter().zip(want).enumerate() {
        assert_eq!(got.len(), want.len(), "{what} round {}", r + 1);
        for (&(w, b), &(pw, pb)) in got.iter().zip(want) {
            match b {
                Some(b) => assert_eq!((w, b), (pw, pb), "{what} round {}", r + 1),
                None => assert!(
                    (pw == odd + 1 && pb == w) || (pb == odd + 1 && pw == w),
                    "{what} round {}: {w} rests, the table has {pw}-{pb}",
                    r + 1
                ),
            }
        }
    }
}

/// A double round robin as C.05 Annex 1 orders it, from the single table:
/// the first cycle with its last two rounds swapped, then the table in its
/// own order with colours reversed.
fn annex_double(table: &Table) -> Table {
    let l = table.len();
    let mut first = table.clone();
    first.swap(l - 1, l - 2);
    let second = table
        .iter()
        .map(|r| r.iter().map(|&(w, b)| (b, w)).collect());
    first.into_iter().chain(second).collect()
}

#[test]
fn the_data_holds_every_table_from_four_to_sixteen() {
    let sizes: Vec<u32> = singles().iter().map(|t| t.0).collect();
    assert_eq!(sizes, vec![4, 6, 8, 10, 12, 14, 16]);
    let doubles: Vec<u32> = published()
        .iter()
        .filter(|t| t.0 == "double")
        .map(|t| t.1)
        .collect();
    assert_eq!(doubles, vec![4, 6]);
}

#[test]
fn even_numbers_match_the_published_tables() {
    for (n, rounds) in singles() {
        assert_eq!(rounds.len() as u32, n - 1);
        for (r, want) in rounds.iter().enumerate() {
            assert_eq!(
                &table_round(n, r as u32 + 1),
                want,
                "{n} players, round {}",
                r + 1
            );
        }
        assert_eq!(full(&schedule(n, false)), rounds, "{n} players");
    }
}

#[test]
fn odd_numbers_use_the_next_table_with_the_last_number_resting() {
    for (n, rounds) in singles() {
        let odd = n - 1;
        assert_odd_matches(
            odd,
            &schedule(odd, false),
            &rounds,
            &format!("{odd} players"),
        );
    }
}

/// Double round robins of 3 to 16 players: the round order of C.05 Annex 1
/// (the last two rounds swapped in the first cycle only), pairings, colours
/// and boards as the table gives them.
#[test]
fn double_round_robins_follow_the_annex_round_order() {
    for (n, rounds) in singles() {
        let want = annex_double(&rounds);
        assert_eq!(full(&schedule(n, true)), want, "double, {n} players");
        let odd = n - 1;
        assert_odd_matches(
            odd,
            &schedule(odd, true),
            &want,
            &format!("double, {odd} players"),
        );
    }
    // The double tables written out in the data, as a person reads them.
    for (kind, n, want) in published() {
        if kind == "double" {
            assert_eq!(full(&schedule(n, true)), want, "double {n} as written");
        }
    }
    // The case an organiser compared (issue 64): with 4 players, rounds 5
    // and 6 are 3-4 2-1, then 4-2 1-3.
    let four = full(&schedule(4, true));
    assert_eq!(four[4], vec![(3, 4), (2, 1)]);
    assert_eq!(four[5], vec![(4, 2), (1, 3)]);
}

/// No one has the same colour three rounds running in a double round robin
/// of an even number of players (what the annex's swap is for), except
/// where the single table itself already gives it.
#[test]
fn the_swap_avoids_three_same_colours_across_the_cycles() {
    for (n, _) in singles() {
        let sched = full(&schedule(n, true));
        let half = sched.len() / 2;
        for p in 1..=n {
            let colours: Vec<bool> = sched
                .iter()
                .map(|r| r.iter().any(|&(w, _)| w == p))
                .collect();
            // Around the change of cycle: rounds half-1, half, half+1, half+2.
            for start in half.saturating_sub(2)..half.min(colours.len() - 2) {
                let three = &colours[start..start + 3];
                assert!(
                    !(three.iter().all(|&c| c) || three.iter().all(|&c| !c)),
                    "{n} players, player {p}: same colour in rounds {}..{}",
                    start + 1,
                    start + 3
                );
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
                // Second cycle: same pairs, colours reversed, in the table's
                // order (the first cycle has its last two rounds swapped).
                let half = sched.len() / 2;
                for k in 0..half {
                    let first = match k {
                        k if half >= 2 && k == half - 1 => half - 2,
                        k if half >= 2 && k == half - 2 => half - 1,
                        k => k,
                    };
                    for (&(w, b), &(w2, b2)) in sched[first].iter().zip(&sched[k + half]) {
                        if let (Some(b), Some(b2)) = (b, b2) {
                            assert_eq!((w, b), (b2, w2));
                        }
                    }
                }
            }
        }
    }
}
