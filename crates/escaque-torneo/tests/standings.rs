//! Tie-breaks on hand-worked examples (the differential test against
//! Gacrux is `gacrux.rs`; the rules article by article `tiebreak_rules.rs`).

use escaque_torneo::model::{Outcome, Player, System, Tournament};
use escaque_torneo::pairing::pair_next_round;
use escaque_torneo::standings::{compute, teams, TieBreak};

fn four_player_round_robin() -> Tournament {
    let mut t = Tournament::new("Ejemplo", System::RoundRobin { double: false }, 3);
    for (name, club) in [("Ana", "A"), ("Berta", "B"), ("Carla", "A"), ("Dora", "B")] {
        let mut p = Player::new(name);
        p.club = club.into();
        p.rating = Some(1000 + 100 * name.len() as u16);
        t.add_player(p).unwrap();
    }
    let results = [
        [(1, 4, Outcome::WhiteWins), (2, 3, Outcome::Draw)],
        [(4, 3, Outcome::BlackWins), (1, 2, Outcome::Draw)],
        [(2, 4, Outcome::WhiteWins), (3, 1, Outcome::BlackWins)],
    ];
    for (r, games) in results.iter().enumerate() {
        pair_next_round(&mut t).unwrap();
        for &(w, b, o) in games {
            let g = &t.rounds[r].games;
            assert!(
                g.iter().any(|g| g.white == w && g.black == b),
                "table order"
            );
            t.set_result(r as u32 + 1, w, b, o).unwrap();
        }
    }
    t
}

#[test]
fn hand_worked_round_robin() {
    let mut t = four_player_round_robin();
    t.tiebreaks = vec![
        TieBreak::Buchholz,
        TieBreak::SonnebornBerger,
        TieBreak::Koya,
        TieBreak::Progressive,
        TieBreak::Wins,
        TieBreak::BlackGames,
    ];
    let s = compute(&t);
    let order: Vec<u32> = s.iter().map(|x| x.player).collect();
    assert_eq!(order, vec![1, 2, 3, 4]);
    // Scores 2½, 2, 1½, 0 (worked by hand).
    assert_eq!(
        s.iter().map(|x| x.points).collect::<Vec<_>>(),
        vec![5, 4, 3, 0]
    );
    // Ana: BH 0 + 2 + 1½ = 3½; SB 1·0 + ½·2 + 1·1½ = 2½; Koya ½ + 1 = 1½;
    // progressive 1 + 1½ + 2½ = 5; 2 wins; 1 game with Black.
    assert_eq!(s[0].tiebreaks, vec![3.5, 2.5, 1.5, 5.0, 2.0, 1.0]);
    // Berta: BH 1½ + 2½ + 0 = 4; SB ½·1½ + ½·2½ + 1·0 = 2; Koya ½ + ½ = 1.
    assert_eq!(s[1].tiebreaks[..3], [4.0, 2.0, 1.0]);
    // Carla: BH 2 + 0 + 2½ = 4½; SB ½·2 + 1·0 = 1.
    assert_eq!(s[2].tiebreaks[..2], [4.5, 1.0]);
    // Team ranking, best 2: A = 2½ + 1½ = 4, B = 2 + 0 = 2.
    t.team_size = 2;
    let tm = teams(&t);
    assert_eq!((tm[0].club.as_str(), tm[0].points), ("A", 8));
    assert_eq!((tm[1].club.as_str(), tm[1].points), ("B", 4));
}

#[test]
fn correction_recomputes_standings() {
    let mut t = four_player_round_robin();
    assert_eq!(compute(&t)[0].player, 1);
    // Round 1 was really 0-1: Dora beat Ana.
    let c = t.set_result(1, 1, 4, Outcome::BlackWins).unwrap();
    assert_eq!(c.previous, Outcome::WhiteWins);
    assert_eq!(c.later_rounds_paired, vec![2, 3]);
    let s = compute(&t);
    assert_eq!(s[0].player, 2);
    assert_eq!(t.score(1), 3);
    assert_eq!(t.score(4), 2);
    assert!(t.set_result(1, 1, 3, Outcome::Draw).is_err());
}

#[test]
fn direct_encounter_separates_players_who_met() {
    let mut t = four_player_round_robin();
    // Berta and Carla on 1½ each, and Carla beat Berta.
    t.set_result(1, 2, 3, Outcome::BlackWins).unwrap();
    t.set_result(2, 4, 3, Outcome::Draw).unwrap();
    t.tiebreaks = vec![TieBreak::DirectEncounter];
    let s = compute(&t);
    let pos = |p: u32| s.iter().position(|x| x.player == p).unwrap();
    assert_eq!(t.score(2), t.score(3));
    assert!(pos(3) < pos(2), "Carla beat Berta");
}

#[test]
fn koya_in_an_odd_round_robin_counts_games_not_rounds() {
    // Five players, every game won by White: everyone 2 of 4 games (50 %),
    // so every opponent counts and Koya equals the player's own points.
    let mut t = Tournament::new("Club", System::RoundRobin { double: false }, 5);
    for n in ["A", "B", "C", "D", "E"] {
        t.add_player(Player::new(n)).unwrap();
    }
    for r in 1..=5 {
        pair_next_round(&mut t).unwrap();
        for b in 1..=2 {
            t.set_result_board(r, b, Outcome::WhiteWins).unwrap();
        }
    }
    t.tiebreaks = vec![TieBreak::Koya];
    for s in compute(&t) {
        assert_eq!(s.points, 4);
        assert_eq!(s.tiebreaks, vec![2.0]);
    }
}

/// Issue 24: once round 2 is paired, its games (still without result) are
/// not unplayed rounds. After round 1 of four players Ana (who beat Carla)
/// has Buchholz 0 and Sonneborn-Berger 0, and still has them, heading
/// "tras la ronda 1", while round 2 is being played.
#[test]
fn a_paired_round_without_results_is_not_counted() {
    let mut t = Tournament::new("Club", System::Swiss, 4);
    for (name, rating) in [
        ("Ana", 1900),
        ("Berta", 1800),
        ("Carla", 1700),
        ("Dora", 1600),
    ] {
        let mut p = Player::new(name);
        p.rating = Some(rating);
        t.add_player(p).unwrap();
    }
    t.tiebreaks = vec![TieBreak::Buchholz, TieBreak::SonnebornBerger];
    t.sort_pairing_numbers();
    pair_next_round(&mut t).unwrap();
    // Round 1: Ana (1) - Carla (3), Dora (4) - Berta (2).
    t.set_result(1, 1, 3, Outcome::WhiteWins).unwrap();
    t.set_result(1, 4, 2, Outcome::Draw).unwrap();
    let after_1 = escaque_torneo::standings::table(&t);
    assert_eq!((after_1.after_round, after_1.in_progress), (1, None));
    let ana =
        |rows: &[escaque_torneo::Standing]| rows.iter().find(|s| s.player == 1).unwrap().clone();
    assert_eq!(ana(&after_1.rows).tiebreaks, vec![0.0, 0.0]);

    pair_next_round(&mut t).unwrap();
    let live = escaque_torneo::standings::table(&t);
    assert_eq!((live.after_round, live.in_progress), (1, Some(2)));
    assert_eq!(live.rows, after_1.rows);
    assert_eq!(compute(&t), after_1.rows);
    let page = escaque_torneo::html::standings_page(&t);
    assert!(page.contains("Clasificación tras la ronda 1"), "{page}");
    assert!(page.contains("Ronda 2 en juego"), "{page}");
    let cross = escaque_torneo::html::crosstable_page(&t);
    assert!(cross.contains("tras la ronda 1") && !cross.contains("<th>R2</th>"));

    // One result of two in: still in progress, still after round 1.
    let g = t.rounds[1].games[0].clone();
    t.set_result(2, g.white, g.black, Outcome::Draw).unwrap();
    assert_eq!(escaque_torneo::standings::table(&t).after_round, 1);
    let g = t.rounds[1].games[1].clone();
    t.set_result(2, g.white, g.black, Outcome::Draw).unwrap();
    let done = escaque_torneo::standings::table(&t);
    assert_eq!((done.after_round, done.in_progress), (2, None));
    assert!(escaque_torneo::html::standings_page(&t).contains("Clasificación tras la ronda 2"));
}
