//! Tie-breaks on a hand-worked example and, on the generated tournaments,
//! against a second implementation written here straight from the TRF
//! columns (the rules as documented in `standings.rs`).

use escaque_torneo::model::{Outcome, Player, System, Tournament};
use escaque_torneo::pairing::pair_next_round;
use escaque_torneo::standings::{compute, teams, TieBreak};
use escaque_torneo::trf;

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

/// One player's cells straight from the TRF text: (opponent, colour, result).
fn cells(line: &str) -> Vec<(u32, char, char)> {
    let b: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut c = 91;
    while c < b.len() {
        let opp: String = b[c..(c + 4).min(b.len())].iter().collect();
        let colour = *b.get(c + 5).unwrap_or(&' ');
        let res = *b.get(c + 7).unwrap_or(&' ');
        out.push((opp.trim().parse().unwrap_or(0), colour, res));
        c += 10;
    }
    out
}

fn pts(res: char) -> f64 {
    match res {
        '1' | '+' | 'W' | 'U' | 'F' => 1.0,
        '=' | 'D' | 'H' => 0.5,
        _ => 0.0,
    }
}

fn played(opp: u32, res: char) -> bool {
    opp != 0 && matches!(res, '1' | '0' | '=' | 'W' | 'D' | 'L')
}

#[test]
fn random_tournaments_agree_with_a_second_implementation() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dutch");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    let mut checked = 0;
    for f in files.iter().take(60) {
        let text = std::fs::read_to_string(f).unwrap();
        let mut t = trf::parse(&text).unwrap();
        t.tiebreaks = vec![
            TieBreak::Buchholz,
            TieBreak::BuchholzCut1,
            TieBreak::MedianBuchholz,
            TieBreak::SonnebornBerger,
            TieBreak::Progressive,
            TieBreak::Wins,
            TieBreak::GamesWon,
            TieBreak::BlackGames,
            TieBreak::AverageRatingOpponents,
            TieBreak::Koya,
        ];
        let rows: Vec<Vec<(u32, char, char)>> = text
            .lines()
            .filter(|l| l.starts_with("001"))
            .map(cells)
            .collect();
        let ratings: Vec<f64> = text
            .lines()
            .filter(|l| l.starts_with("001"))
            .map(|l| l[48..52].trim().parse().unwrap_or(0.0))
            .collect();
        let rounds = t.rounds.len();
        let cell = |p: usize, r: usize| rows[p].get(r).copied().unwrap_or((0, '-', 'Z'));
        let score: Vec<f64> = (0..rows.len())
            .map(|p| (0..rounds).map(|r| pts(cell(p, r).2)).sum())
            .collect();
        let adjusted: Vec<f64> = (0..rows.len())
            .map(|p| {
                (0..rounds)
                    .map(|r| {
                        let (o, _, res) = cell(p, r);
                        if played(o, res) {
                            pts(res)
                        } else {
                            0.5
                        }
                    })
                    .sum()
            })
            .collect();
        let s = compute(&t);
        for row in &s {
            let p = row.player as usize - 1;
            let mut contrib: Vec<(bool, f64)> = Vec::new();
            let (mut sb, mut ps, mut run, mut win, mut won, mut black) =
                (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
            let (mut rsum, mut rn, mut koya) = (0.0, 0.0, 0.0);
            for r in 0..rounds {
                let (o, colour, res) = cell(p, r);
                let x = pts(res);
                run += x;
                ps += run;
                if x == 1.0 {
                    win += 1.0;
                }
                if played(o, res) {
                    let opp = o as usize - 1;
                    contrib.push((false, adjusted[opp]));
                    sb += adjusted[opp] * x;
                    if x == 1.0 {
                        won += 1.0;
                    }
                    if colour == 'b' {
                        black += 1.0;
                    }
                    if ratings[opp] > 0.0 {
                        rsum += ratings[opp];
                        rn += 1.0;
                    }
                } else {
                    let voluntary = !matches!(res, '+' | 'U' | 'F');
                    contrib.push((voluntary, score[p]));
                    sb += score[p] * x;
                }
                if o != 0 {
                    let q = o as usize - 1;
                    let possible = (0..rounds)
                        .filter(|&k| {
                            let (oo, _, rr) = cell(q, k);
                            !(oo == 0 && matches!(rr, 'Z' | '-' | ' ' | '0'))
                        })
                        .count() as f64;
                    if score[q] * 2.0 >= possible {
                        koya += x;
                    }
                }
            }
            let bh: f64 = contrib.iter().map(|c| c.1).sum();
            // Cut: voluntary unplayed first, else the lowest.
            let mut v = contrib.clone();
            v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.partial_cmp(&b.1).unwrap()));
            let c1: f64 = v.iter().skip(1).map(|c| c.1).sum();
            let max_rest = v.iter().skip(1).map(|c| c.1).fold(f64::MIN, f64::max);
            let m1 = if v.len() >= 2 { c1 - max_rest } else { 0.0 };
            let aro = if rn > 0.0 { (rsum / rn).round() } else { 0.0 };
            let want = [bh, c1, m1, sb, ps, win, won, black, aro, koya];
            assert_eq!(row.tiebreaks, want, "{} player {}", f.display(), row.player);
            assert_eq!(row.points as f64 / 2.0, score[p]);
            checked += 1;
        }
    }
    assert!(checked > 500, "checked {checked}");
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
