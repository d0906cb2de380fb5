//! The initial ranking (FIDE C.04.2 A.2): pairing numbers by rating, then
//! title, then name, whatever the order of entry; late entries take their
//! place by the same rule.

use escaque_torneo::model::{ByeKind, Outcome, Player, System, Tournament};
use escaque_torneo::pairing::pair_next_round;
use rand::seq::SliceRandom;
use rand::SeedableRng;

fn rated(name: &str, rating: u16) -> Player {
    let mut p = Player::new(name);
    p.rating = Some(rating);
    p
}

/// Twelve players, highest rating first.
/// Round `r`'s boards as (White's name, Black's name).
fn boards_by_name(t: &Tournament, r: usize) -> Vec<(String, String)> {
    t.rounds[r - 1]
        .games
        .iter()
        .map(|g| {
            (
                t.players[g.white as usize - 1].name.clone(),
                t.players[g.black as usize - 1].name.clone(),
            )
        })
        .collect()
}

fn twelve() -> Vec<Player> {
    (0..12)
        .map(|i| rated(&format!("Jugador {:02}", i + 1), 2400 - 50 * i as u16))
        .collect()
}

#[test]
fn twelve_players_entered_in_any_order_pair_by_rating() {
    for seed in 0..20u64 {
        let mut players = twelve();
        players.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        let mut t = Tournament::new("Club", System::Swiss, 5);
        for p in players.clone() {
            t.add_player(p).unwrap();
        }
        let map = t.sort_pairing_numbers();
        // The returned map sends each old number to the player's new one.
        for (old, p) in players.iter().enumerate() {
            assert_eq!(t.players[map[old] as usize - 1].name, p.name);
        }
        let ratings: Vec<u16> = t.players.iter().map(|p| p.rating.unwrap()).collect();
        assert!(ratings.windows(2).all(|w| w[0] > w[1]), "{ratings:?}");
        pair_next_round(&mut t).unwrap();
        // Top half against bottom half: 1-7, 8-2, 3-9, 10-4, 5-11, 12-6.
        let boards: Vec<(String, String)> = boards_by_name(&t, 1);
        let n = |i: u32| format!("Jugador {i:02}");
        assert_eq!(
            boards,
            vec![
                (n(1), n(7)),
                (n(8), n(2)),
                (n(3), n(9)),
                (n(10), n(4)),
                (n(5), n(11)),
                (n(12), n(6)),
            ],
            "seed {seed}"
        );
    }
}

#[test]
fn equal_ratings_go_by_title_then_name_and_unrated_players_come_last() {
    let mut t = Tournament::new("Club", System::Swiss, 5);
    let mut entries = vec![
        Player::new("Zapata, Ana"),
        rated("Núñez, Íñigo", 2000),
        rated("Álvarez, Eva", 2000),
        rated("Blanco, Luis", 2000),
        rated("Castro, Sara", 2000),
        rated("Díaz, Pedro", 2100),
        Player::new("Abad, Juan"),
    ];
    entries[3].title = "f".into(); // FM
    entries[4].title = "wi".into(); // WIM: below FM
    for p in entries {
        t.add_player(p).unwrap();
    }
    let map = t.sort_pairing_numbers();
    let names: Vec<&str> = t.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        vec![
            "Díaz, Pedro",
            "Blanco, Luis",
            "Castro, Sara",
            "Álvarez, Eva",
            "Núñez, Íñigo",
            "Abad, Juan",
            "Zapata, Ana",
        ]
    );
    assert_eq!(map, vec![7, 5, 4, 2, 3, 1, 6]);
    // Sorted already: nothing moves again.
    assert_eq!(t.sort_pairing_numbers(), (1..=7).collect::<Vec<_>>());
}

#[test]
fn a_late_entry_takes_its_place_and_every_reference_follows() {
    let mut t = Tournament::new("Club", System::Swiss, 5);
    for p in twelve() {
        t.add_player(p).unwrap();
    }
    t.forbid(&[3, 10], 1, 5).unwrap();
    t.accelerations.push(escaque_torneo::model::Acceleration {
        points: 2,
        first_round: 1,
        last_round: 2,
        first_player: 1,
        last_player: 6,
    });
    t.sort_pairing_numbers();
    pair_next_round(&mut t).unwrap();
    for b in 1..=6 {
        t.set_result_board(1, b, Outcome::WhiteWins).unwrap();
    }
    let before: Vec<(String, String)> = boards_by_name(&t, 1);
    let scores: Vec<(String, u32)> = (1..=12)
        .map(|id| (t.players[id as usize - 1].name.clone(), t.score(id)))
        .collect();
    // A late entry rated between numbers 4 (2250) and 5 (2200).
    let late = t.add_player(rated("Tardío", 2210)).unwrap();
    assert_eq!(late, 13);
    let map = t.sort_pairing_numbers();
    assert_eq!(map, vec![1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 5]);
    assert_eq!(t.players[4].name, "Tardío");
    // Round 1 as it was, by name; the late entry's zero bye moved with it.
    let after: Vec<(String, String)> = boards_by_name(&t, 1);
    assert_eq!(after, before);
    assert_eq!(t.rounds[0].byes, vec![(5, ByeKind::Zero)]);
    for (name, score) in scores {
        let id = t.players.iter().position(|p| p.name == name).unwrap() as u32 + 1;
        assert_eq!(t.score(id), score, "{name}");
    }
    // The forbidden pair follows its players (3 and old 10, now 11).
    assert_eq!(t.forbidden[0].players, vec![3, 11]);
    // The acceleration of old 1-6 now covers 1-4 and 6-7, not the late entry.
    let ranges: Vec<(u32, u32)> = t
        .accelerations
        .iter()
        .map(|a| (a.first_player, a.last_player))
        .collect();
    assert_eq!(ranges, vec![(1, 4), (6, 7)]);
    // The players of round 1 keep their order: 1-4 and 6-13 as before.
    let ratings: Vec<u16> = t.players.iter().map(|p| p.rating.unwrap()).collect();
    assert!(ratings.windows(2).all(|w| w[0] > w[1]), "{ratings:?}");
    pair_next_round(&mut t).unwrap();
}

#[test]
fn a_round_robin_keeps_the_drawn_numbers() {
    let mut t = Tournament::new("Liga", System::RoundRobin { double: false }, 3);
    for p in [rated("B", 1500), rated("A", 2000), rated("C", 1800)] {
        t.add_player(p).unwrap();
    }
    assert_eq!(t.sort_pairing_numbers(), vec![1, 2, 3]);
    assert_eq!(t.players[0].name, "B");
}
