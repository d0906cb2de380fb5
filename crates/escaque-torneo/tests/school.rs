//! A whole school tournament: 60 players, 7 Swiss rounds, withdrawals, a
//! late entry, requested byes and forfeits; standings and printouts.

use std::collections::BTreeSet;

use escaque_torneo::model::{ByeKind, Entry, Outcome, Player, System, Tournament};
use escaque_torneo::pairing::pair_next_round;
use escaque_torneo::standings::{by_category, compute, teams};
use escaque_torneo::{html, trf};
use rand::{Rng, SeedableRng};

const SCHOOLS: [&str; 5] = [
    "CEIP Rosalía de Castro",
    "Colegio San José & Santa Ana",
    "IES <Miguel Servet>",
    "Colegio \"El Pilar\"",
    "CEIP Ramón y Cajal",
];

fn check_round(t: &Tournament, r: u32) {
    let round = &t.rounds[r as usize - 1];
    let mut seen = BTreeSet::new();
    for g in &round.games {
        assert!(seen.insert(g.white) && seen.insert(g.black), "round {r}");
        // Never the same opponents twice over the board.
        for k in 1..r {
            if let Entry::Game {
                opponent, result, ..
            } = t.entry(g.white, k)
            {
                assert!(
                    !(opponent == g.black && result.played()),
                    "rematch in round {r}"
                );
            }
        }
        // Nobody gets the same colour three times running (no topscorer exception before the last round).
        if r < t.total_rounds {
            for p in [g.white, g.black] {
                let colours: Vec<_> = (1..=r)
                    .filter_map(|k| match t.entry(p, k) {
                        Entry::Game { colour, result, .. } if result.played() || k == r => {
                            Some(colour)
                        }
                        _ => None,
                    })
                    .collect();
                if colours.len() >= 3 {
                    let l = colours.len();
                    assert!(
                        !(colours[l - 1] == colours[l - 2] && colours[l - 2] == colours[l - 3]),
                        "player {p} same colour three times by round {r}"
                    );
                }
            }
        }
    }
    for &(p, _) in &round.byes {
        assert!(seen.insert(p));
    }
    assert_eq!(
        seen.len(),
        t.players.len(),
        "every player accounted for in round {r}"
    );
    let pab = round
        .byes
        .iter()
        .filter(|b| b.1 == ByeKind::PairingAllocated)
        .count();
    let paired = round.games.len() * 2 + pab;
    assert!(pab <= 1 && paired % 2 == pab, "round {r}");
}

#[test]
fn sixty_players_seven_rounds() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut t = Tournament::new("Campeonato Escolar de Ajedrez", System::Swiss, 7);
    t.city = "Zaragoza".into();
    t.team_size = 4;
    for i in 0..60 {
        let mut p = Player::new(&format!("Alumno{i:02} Apellido{}", 59 - i));
        p.club = SCHOOLS[i % SCHOOLS.len()].into();
        p.category = ["Sub-8", "Sub-10", "Sub-12", "Sub-14"][i % 4].into();
        p.birth_year = Some(2012 + (i % 4) as u16 * 2);
        p.sex = if i % 3 == 0 { "f".into() } else { "m".into() };
        p.rating = if i < 20 {
            Some(1800 - 10 * i as u16)
        } else {
            None
        };
        t.add_player(p).unwrap();
    }
    // Requested half-point byes.
    t.request_half_bye(7, 3).unwrap();
    t.request_half_bye(33, 5).unwrap();
    t.request_half_bye(48, 7).unwrap();
    let mut pab_players = BTreeSet::new();
    for r in 1..=7u32 {
        if r == 2 {
            // A late entry.
            let mut p = Player::new("Tardío, Núñez");
            p.club = SCHOOLS[0].into();
            p.category = "Sub-12".into();
            let id = t.add_player(p).unwrap();
            assert_eq!(id, 61);
            assert_eq!(t.entry(61, 1), Entry::Bye(ByeKind::Zero));
        }
        if r == 4 {
            // Two withdrawals after round 3.
            t.withdraw(12, 4).unwrap();
            t.withdraw(40, 4).unwrap();
        }
        assert_eq!(pair_next_round(&mut t).unwrap(), r);
        check_round(&t, r);
        let round = t.rounds[r as usize - 1].clone();
        for (p, k) in &round.byes {
            if *k == ByeKind::PairingAllocated {
                assert!(
                    pab_players.insert(*p),
                    "second pairing-allocated bye for {p}"
                );
            }
        }
        for (b, g) in round.games.iter().enumerate() {
            let x: f64 = rng.random();
            let outcome = if x < 0.03 {
                Outcome::WhiteForfeitWin
            } else if x < 0.05 {
                Outcome::BlackForfeitWin
            } else if x < 0.06 {
                Outcome::DoubleForfeit
            } else if x < 0.40 {
                Outcome::WhiteWins
            } else if x < 0.75 {
                Outcome::BlackWins
            } else {
                Outcome::Draw
            };
            let _ = g;
            t.set_result_board(r, b as u32 + 1, outcome).unwrap();
        }
    }
    assert!(pair_next_round(&mut t).is_err(), "only 7 rounds");
    // Withdrawn players are not paired after withdrawing; byes were given.
    for r in 4..=7 {
        assert_eq!(t.entry(12, r), Entry::Bye(ByeKind::Zero));
        assert_eq!(t.entry(40, r), Entry::Bye(ByeKind::Zero));
    }
    assert_eq!(t.entry(7, 3), Entry::Bye(ByeKind::Half));
    assert_eq!(t.entry(48, 7), Entry::Bye(ByeKind::Half));

    // Standings: everyone, ordered by points, places 1..
    let s = compute(&t);
    assert_eq!(s.len(), 61);
    assert!(s.windows(2).all(|w| w[0].points >= w[1].points));
    assert_eq!(s[0].rank, 1);
    let total: u32 = s.iter().map(|x| x.points).sum();
    let expected: u32 = t
        .rounds
        .iter()
        .map(|r| {
            r.games
                .iter()
                .map(|g| match g.outcome {
                    Outcome::DoubleForfeit => 0,
                    _ => 2,
                })
                .sum::<u32>()
                + r.byes.iter().map(|b| b.1.points()).sum::<u32>()
        })
        .sum();
    assert_eq!(total, expected);
    let cats = by_category(&t);
    assert_eq!(cats.len(), 4);
    assert_eq!(cats.iter().map(|c| c.1.len()).sum::<usize>(), 61);
    let tm = teams(&t);
    assert_eq!(tm.len(), 5);
    assert!(tm.iter().all(|x| x.counted.len() == 4));

    // Written as TRF and read back identical (the CLI saves it atomically).
    assert!(
        trf::parse(&trf::write(&t)).unwrap() == t,
        "TRF round trip differs"
    );

    // Printouts.
    let pages = [
        html::pairings(&t, 7),
        html::standings_page(&t),
        html::crosstable_page(&t),
        html::categories_page(&t),
        html::teams_page(&t),
    ];
    for p in &pages {
        assert!(p.starts_with("<!DOCTYPE html>") && p.contains("lang=\"es\""));
        assert!(!p.contains("<Miguel Servet>"), "unescaped name");
    }
    assert!(pages[1].contains("IES &lt;Miguel Servet&gt;"));
    assert!(pages[4].contains("Colegio San José &amp; Santa Ana"));
    assert_eq!(
        pages[0].matches("<tr><td class=\"n\">").count(),
        t.rounds[6].games.len()
    );
    for p in &t.players {
        assert!(pages[2].contains(&html::escape(&p.name)));
    }
}
