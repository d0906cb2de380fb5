//! Team tournaments (issue 59): rosters, line-ups, match and game points,
//! forfeits, round robin, Scheveningen, the C.04.6 Swiss, team tie-breaks
//! worked out by hand, school rules, TRF-2026 team records and printouts.

use std::collections::BTreeSet;

use escaque::{Lang, Localized};
use escaque_torneo::model::Outcome;
use escaque_torneo::teams::model::RoundRecord;
use escaque_torneo::teams::schedule::{pair_next_round, round_robin, scheveningen_round};
use escaque_torneo::teams::school::{ranking, SchoolRules};
use escaque_torneo::teams::standings::{compute, TeamTieBreak};
use escaque_torneo::teams::swiss::{preference, ColourType};
use escaque_torneo::teams::{print, trf};
use escaque_torneo::teams::{
    Board, BoardResult, Match, Member, Scoring, Side, Team, TeamError, TeamRound, TeamSystem,
    TeamTournament,
};
use proptest::prelude::*;

use escaque_torneo::model::Colour::{Black as B, White as W};

fn team(name: &str, base: u16, n: usize) -> Team {
    Team::new(
        name,
        (0..n)
            .map(|i| Member::rated(&format!("{name} jugador {}", i + 1), base - 10 * i as u16))
            .collect(),
    )
}

fn tournament(system: TeamSystem, teams: usize, boards: u32, rounds: u32) -> TeamTournament {
    let mut t = TeamTournament::new("Liga escolar", system, boards, rounds);
    for k in 0..teams {
        t.add_team(team(
            &format!("Equipo {}", k + 1),
            2000 - 50 * k as u16,
            boards as usize + 1,
        ))
        .unwrap();
    }
    t
}

/// Every board of a match: home's results given as a string of `1`, `=`,
/// `0` (home's view), board 1 first.
fn play(t: &mut TeamTournament, round: u32, table: u32, home: &str) {
    for (b, c) in home.chars().enumerate() {
        let r = match c {
            '1' => BoardResult::HomeWins,
            '=' => BoardResult::Draw,
            '0' => BoardResult::AwayWins,
            _ => unreachable!(),
        };
        t.set_result(round, table, b as u32 + 1, r).unwrap();
    }
}

// ---------------------------------------------------------------- domain

#[test]
fn the_roster_is_in_rating_order_unless_the_organiser_fixes_it() {
    let mut t = TeamTournament::new("T", TeamSystem::Swiss, 2, 3);
    let mut a = Team::new(
        "A",
        vec![
            Member::rated("Baja", 1500),
            Member::new("Sin elo"),
            Member::rated("Alta", 1900),
        ],
    );
    a.captain = Some(0);
    t.add_team(a).unwrap();
    let names: Vec<&str> = t.teams[0].members.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Alta", "Baja", "Sin elo"]);
    // The captain followed the sort.
    assert_eq!(t.teams[0].captain, Some(1));
    let mut b = Team::new(
        "B",
        vec![Member::rated("Baja B", 1500), Member::rated("Alta B", 1900)],
    );
    b.fixed_order = true;
    t.add_team(b).unwrap();
    assert_eq!(t.teams[1].members[0].name, "Baja B");
}

#[test]
fn a_player_in_two_teams_is_refused_and_nothing_changes() {
    let mut t = TeamTournament::new("T", TeamSystem::Swiss, 2, 3);
    let mut x = Member::rated("Ana Pérez", 1700);
    x.fide_id = Some(123);
    t.add_team(Team::new("Uno", vec![x.clone(), Member::new("Otro")]))
        .unwrap();
    let before = t.clone();
    // Same FIDE id under another spelling.
    let mut y = Member::rated("Pérez, Ana", 1700);
    y.fide_id = Some(123);
    let e = t
        .add_team(Team::new("Dos", vec![Member::new("Luis"), y]))
        .unwrap_err();
    assert_eq!(
        e,
        TeamError::PlayerInTwoTeams {
            player: "Pérez, Ana".into(),
            team: "Uno".into()
        }
    );
    assert!(
        e.message(Lang::Es).contains("ya juega en el equipo «Uno»"),
        "{}",
        e.message(Lang::Es)
    );
    // Same name (spaces, case) and birth year without ids.
    let e = t
        .add_team(Team::new("Tres", vec![Member::new("  otro ")]))
        .unwrap_err();
    assert!(matches!(e, TeamError::PlayerInTwoTeams { .. }), "{e:?}");
    // Twice in one roster, a duplicate team name, an empty roster.
    assert!(matches!(
        t.add_team(Team::new(
            "Cuatro",
            vec![Member::new("Eva"), Member::new("eva")]
        )),
        Err(TeamError::PlayerTwice { .. })
    ));
    assert!(matches!(
        t.add_team(Team::new("uno", vec![Member::new("Zoe")])),
        Err(TeamError::DuplicateTeam(_))
    ));
    assert!(matches!(
        t.add_team(Team::new("Cinco", vec![])),
        Err(TeamError::EmptyRoster(_))
    ));
    assert_eq!(t, before);
}

#[test]
fn a_line_up_must_follow_the_roster_order_and_is_refused_otherwise() {
    let mut t = tournament(TeamSystem::RoundRobin { double: false }, 2, 4, 0);
    pair_next_round(&mut t).unwrap();
    let before = t.clone();
    let home = t.rounds[0].matches[0].home;
    // Roster places 0..4 (5 players); 2 above 1 breaks the order.
    let e = t.set_lineup(1, home, &[0, 2, 1, 3]).unwrap_err();
    assert!(
        matches!(e, TeamError::LineupOrder { board: 3, .. }),
        "{e:?}"
    );
    assert!(
        e.message(Lang::Es).contains("tablero 3"),
        "{}",
        e.message(Lang::Es)
    );
    assert!(matches!(
        t.set_lineup(1, home, &[0, 0, 1, 2]),
        Err(TeamError::PlayerTwice { .. })
    ));
    assert!(matches!(
        t.set_lineup(1, home, &[0, 1, 2, 3, 4]),
        Err(TeamError::LineupSize { .. })
    ));
    assert!(matches!(
        t.set_lineup(1, home, &[0, 1, 2, 9]),
        Err(TeamError::NoSuchMember { index: 10, .. })
    ));
    assert!(matches!(
        t.set_lineup(2, home, &[0]),
        Err(TeamError::NoSuchRound(2))
    ));
    assert_eq!(t, before);
    // Skipping a player keeps the order: allowed.
    t.set_lineup(1, home, &[0, 1, 3, 4]).unwrap();
    assert_eq!(t.rounds[0].matches[0].boards[2].home_player, Some(3));
}

#[test]
fn a_short_line_up_loses_the_empty_boards_by_forfeit_and_locks_once_results_come() {
    let mut t = tournament(TeamSystem::RoundRobin { double: false }, 2, 4, 0);
    pair_next_round(&mut t).unwrap();
    let (home, away) = (t.rounds[0].matches[0].home, t.rounds[0].matches[0].away);
    t.set_lineup(1, away, &[0, 1, 2]).unwrap();
    let m = &t.rounds[0].matches[0];
    assert_eq!(m.boards[3].away_player, None);
    assert_eq!(m.boards[3].result, BoardResult::HomeForfeitWin);
    // The forfeit of an empty board stands.
    assert!(matches!(
        t.set_result(1, 1, 4, BoardResult::Draw),
        Err(TeamError::EmptyBoard { .. })
    ));
    play(&mut t, 1, 1, "=0=");
    assert!(t.rounds[0].matches[0].complete());
    // Home: ½ + 0 + ½ + 1 (forfeit) = 2, away 2: a drawn match.
    assert_eq!(t.rounds[0].matches[0].game_points(), (4, 4));
    assert_eq!(
        t.rounds[0].matches[0].match_points(&t.scoring),
        Some((1, 1))
    );
    // Results entered: the line-up is final.
    assert!(matches!(
        t.set_lineup(1, home, &[1, 2, 3, 4]),
        Err(TeamError::LineupLocked { .. })
    ));
}

#[test]
fn results_by_colour_follow_the_board_colours() {
    let mut t = tournament(TeamSystem::RoundRobin { double: false }, 2, 2, 0);
    pair_next_round(&mut t).unwrap();
    // Board 1: home has White; board 2: home has Black.
    t.set_result_by_colour(1, 1, 1, Outcome::WhiteWins).unwrap();
    t.set_result_by_colour(1, 1, 2, Outcome::WhiteWins).unwrap();
    let m = &t.rounds[0].matches[0];
    assert_eq!(m.boards[0].result, BoardResult::HomeWins);
    assert_eq!(m.boards[1].result, BoardResult::AwayWins);
    assert_eq!(m.game_points(), (2, 2));
}

#[test]
fn match_points_follow_the_scoring_and_a_bad_scoring_is_refused() {
    assert_eq!(Scoring::default().match_points(5, 3), 2);
    assert_eq!(Scoring::default().match_points(4, 4), 1);
    let s = Scoring::new(3, 1, 0).unwrap();
    assert_eq!(
        (
            s.match_points(5, 3),
            s.match_points(4, 4),
            s.match_points(1, 7)
        ),
        (3, 1, 0)
    );
    // C.04.6 1.4: the pairing-allocated bye is a drawn match — a draw's
    // match points, half a point a board — unless the rules say a win.
    assert_eq!(s.bye_match_points, 1);
    assert_eq!(s.bye_game_points_for(4), 4);
    let w = s.bye_as_win(4);
    assert_eq!((w.bye_match_points, w.bye_game_points_for(4)), (3, 8));
    assert!(matches!(
        Scoring::new(1, 1, 0),
        Err(TeamError::BadScoring { .. })
    ));
    assert!(matches!(
        Scoring::new(2, 0, 1),
        Err(TeamError::BadScoring { .. })
    ));
}

#[test]
fn a_whole_match_forfeit_loses_every_board_and_is_no_game_played() {
    let mut t = tournament(TeamSystem::RoundRobin { double: false }, 2, 4, 0);
    pair_next_round(&mut t).unwrap();
    t.forfeit_match(1, 1, Some(Side::Away)).unwrap();
    let m = &t.rounds[0].matches[0];
    assert!(m
        .boards
        .iter()
        .all(|b| b.result == BoardResult::HomeForfeitWin));
    assert_eq!(m.match_points(&t.scoring), Some((2, 0)));
    assert_eq!(m.game_points(), (8, 0));
    assert!(!m.played());
    match t.record(m.away, 1) {
        Some(RoundRecord::Match { played, own, .. }) => assert!(!played && own == 0),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------- systems

#[test]
fn a_team_round_robin_meets_everyone_once_with_berger_colours() {
    for n in 2..=9u32 {
        for double in [false, true] {
            let s = round_robin(n, double);
            let per = if n % 2 == 0 { n - 1 } else { n };
            assert_eq!(s.len() as u32, per * if double { 2 } else { 1 }, "{n}");
            let mut met = std::collections::BTreeMap::new();
            for r in &s {
                let mut seen = BTreeSet::new();
                for &(a, b) in r {
                    assert!(seen.insert(a) && seen.insert(b));
                    *met.entry((a.min(b), a.max(b))).or_insert(0) += 1;
                    // In the double, each pair once with each colour.
                }
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2);
            assert!(met.values().all(|&k| k == if double { 2 } else { 1 }));
        }
    }
    // The Berger table for 4: 1-4 2-3 | 4-3 1-2 | 2-4 3-1.
    assert_eq!(
        round_robin(4, false),
        vec![
            vec![(1, 4), (2, 3)],
            vec![(4, 3), (1, 2)],
            vec![(2, 4), (3, 1)]
        ]
    );
    // A whole tournament: the rounds come from the table; paired rounds
    // cannot be repaired before results.
    let mut t = tournament(TeamSystem::RoundRobin { double: true }, 4, 2, 0);
    pair_next_round(&mut t).unwrap();
    assert_eq!(t.total_rounds, 6);
    assert!(matches!(
        pair_next_round(&mut t),
        Err(TeamError::RoundNotComplete { round: 1, .. })
    ));
    assert!(matches!(
        t.add_team(team("Tarde", 1500, 3)),
        Err(TeamError::Started)
    ));
}

#[test]
fn scheveningen_pairs_every_player_with_every_player_of_the_other_team() {
    for n in 1..=8u32 {
        for double in [false, true] {
            let mut met = std::collections::BTreeMap::new();
            let mut whites = vec![0; n as usize];
            let rounds = n * if double { 2 } else { 1 };
            for r in 1..=rounds {
                let boards = scheveningen_round(n, r, double).unwrap();
                let (mut a, mut b) = (BTreeSet::new(), BTreeSet::new());
                for (i, j, w) in boards {
                    assert!(a.insert(i) && b.insert(j));
                    *met.entry((i, j)).or_insert(0) += 1;
                    whites[i] += w as u32;
                }
            }
            assert!(scheveningen_round(n, rounds + 1, double).is_none());
            assert_eq!(met.len() as u32, n * n);
            assert!(met.values().all(|&k| k == if double { 2 } else { 1 }));
            if n % 2 == 0 || double {
                assert!(
                    whites.iter().all(|&w| w * 2 == rounds),
                    "{n} {double} {whites:?}"
                );
            }
        }
    }
    let mut t = tournament(TeamSystem::Scheveningen { double: false }, 2, 4, 0);
    for r in 1..=4 {
        assert_eq!(pair_next_round(&mut t).unwrap(), r);
        play(&mut t, r, 1, "1=0=");
        assert!(matches!(
            t.set_lineup(r, 1, &[0, 1, 2, 3]),
            Err(TeamError::LineupFixedBySystem)
        ));
    }
    assert!(matches!(
        pair_next_round(&mut t),
        Err(TeamError::TournamentOver(4))
    ));
    let mut three = tournament(TeamSystem::Scheveningen { double: false }, 3, 2, 0);
    assert!(matches!(
        pair_next_round(&mut three),
        Err(TeamError::Scheveningen { teams: 3 })
    ));
}

#[test]
fn colour_preferences_of_c046_type_a_and_b() {
    let p = |c: &[escaque_torneo::model::Colour], k, last| preference(c, k, last);
    // Type A: only the strong cases.
    assert_eq!(p(&[W], ColourType::A, false).colour, None);
    assert_eq!(p(&[B, B], ColourType::A, false).colour, Some(W));
    assert_eq!(p(&[W, B, B], ColourType::A, false).colour, Some(W));
    assert_eq!(p(&[W, W, B, W], ColourType::A, false).colour, Some(B));
    assert_eq!(p(&[W, B], ColourType::A, false).colour, None);
    // Type B: mild ones too.
    let q = p(&[W], ColourType::B, false);
    assert_eq!((q.colour, q.strong), (Some(B), false));
    let q = p(&[W, B], ColourType::B, false);
    assert_eq!((q.colour, q.strong), (Some(W), false));
    // …which vanish in the last round when the difference is 0.
    assert_eq!(p(&[W, B], ColourType::B, true).colour, None);
    let q = p(&[B, B], ColourType::B, true);
    assert_eq!((q.colour, q.strong), (Some(W), true));
    assert_eq!(p(&[B, B], ColourType::None, false).colour, None);
}

/// Plays a whole Swiss with results decided by the teams' numbers (the
/// lower number wins boards 1 and 2, the rest drawn) and checks the rules
/// that must hold every round.
fn swiss_run(teams: usize, rounds: u32, kind: ColourType) -> TeamTournament {
    let mut t = tournament(TeamSystem::Swiss, teams, 4, rounds);
    t.colour_preferences = kind;
    let mut byes = BTreeSet::new();
    for r in 1..=rounds {
        assert_eq!(pair_next_round(&mut t).unwrap(), r);
        let round = t.rounds[r as usize - 1].clone();
        let mut seen = BTreeSet::new();
        for (k, m) in round.matches.iter().enumerate() {
            assert!(seen.insert(m.home) && seen.insert(m.away));
            // C1: never the same teams twice.
            for earlier in 1..r {
                if let Some(RoundRecord::Match {
                    opponent,
                    played: true,
                    ..
                }) = t.record(m.home, earlier)
                {
                    assert_ne!(opponent, m.away, "rematch in round {r}");
                }
            }
            let s = if m.home < m.away { "11==" } else { "00==" };
            play(&mut t, r, k as u32 + 1, s);
        }
        if let Some(b) = round.bye {
            assert!(byes.insert(b), "second bye for {b}");
            assert!(seen.insert(b));
        }
        assert_eq!(seen.len(), teams);
    }
    t
}

#[test]
fn the_team_swiss_pairs_by_match_points_without_rematches() {
    let t = swiss_run(8, 5, ColourType::A);
    // Round 1: top half against bottom half, the first team of table 1
    // (pairing number 1) White, alternating down the tables.
    let r1: Vec<(u32, u32)> = t.rounds[0]
        .matches
        .iter()
        .map(|m| (m.home, m.away))
        .collect();
    assert_eq!(r1, vec![(1, 5), (6, 2), (3, 7), (8, 4)]);
    // Round 2: the winners (1, 2, 3, 4 all won with the lower number…
    // 1, 2, 3, 4 beat 5, 6, 7, 8) meet each other.
    let winners: BTreeSet<u32> = [1, 2, 3, 4].into();
    for m in &t.rounds[1].matches {
        assert_eq!(
            winners.contains(&m.home),
            winners.contains(&m.away),
            "{m:?}"
        );
    }
    // An odd number of teams: the bye goes to a team of the lowest score,
    // never twice (checked in swiss_run), and no team gets it in round 1
    // but the last by pairing number.
    let t = swiss_run(7, 5, ColourType::B);
    assert_eq!(t.rounds[0].bye, Some(7));
}

#[test]
fn a_forfeited_match_is_not_a_meeting_and_its_winner_gets_no_bye() {
    let mut t = tournament(TeamSystem::Swiss, 3, 2, 3);
    pair_next_round(&mut t).unwrap();
    // Round 1: 1 against 2, the bye to 3 (the last pairing number).
    assert_eq!(t.rounds[0].bye, Some(3));
    let m = t.rounds[0].matches[0].clone();
    assert_eq!((m.home, m.away), (1, 2));
    t.forfeit_match(1, 1, Some(Side::Away)).unwrap();
    pair_next_round(&mut t).unwrap();
    // Team 1 won without playing: no bye for it, nor for 3 again.
    assert_eq!(t.rounds[1].bye, Some(2));
    // Two teams whose only match was forfeited may meet again.
    let mut two = tournament(TeamSystem::Swiss, 2, 2, 2);
    pair_next_round(&mut two).unwrap();
    two.forfeit_match(1, 1, None).unwrap();
    // Neither came: both lost the match (no draw's point each).
    assert_eq!(
        two.rounds[0].matches[0].match_points(&two.scoring),
        Some((0, 0))
    );
    assert_eq!(two.scores_after(1, 1), (0, 0));
    pair_next_round(&mut two).unwrap();
    assert_eq!(two.rounds[1].matches.len(), 1);
}

// ---------------------------------------------------------------- tie-breaks

/// Event 1, worked out by hand: 4 teams, 4 boards, a single round robin
/// (Berger: 1-4 2-3 | 4-3 1-2 | 2-4 3-1), results as the first-named
/// team's boards:
/// R1 A–D 1110 (3-1), B–C 10== (2-2); R2 D–C 1=10 (2½-1½), A–B ==== (2-2);
/// R3 B–D 111= (3½-½), C–A 1010 (2-2).
pub fn event_one() -> TeamTournament {
    let mut t = TeamTournament::new("Evento uno", TeamSystem::RoundRobin { double: false }, 4, 0);
    for (i, name) in ["A", "B", "C", "D"].iter().enumerate() {
        t.add_team(team(name, 2000 - 100 * i as u16, 4)).unwrap();
    }
    for (r, tables) in [["1110", "10=="], ["1=10", "===="], ["111=", "1010"]]
        .iter()
        .enumerate()
    {
        pair_next_round(&mut t).unwrap();
        for (k, s) in tables.iter().enumerate() {
            play(&mut t, r as u32 + 1, k as u32 + 1, s);
        }
    }
    t
}

#[test]
fn event_one_tie_breaks_match_the_hand_worked_values() {
    let mut t = event_one();
    t.tiebreaks = vec![
        TeamTieBreak::GamePoints,
        TeamTieBreak::OlympiadSb,
        TeamTieBreak::MatchSb,
        TeamTieBreak::Buchholz,
        TeamTieBreak::BoardCount,
        TeamTieBreak::Wins,
    ];
    let rows = compute(&t);
    let got: Vec<(u32, u32, Vec<i64>)> = rows
        .iter()
        .map(|r| {
            (
                r.team,
                r.match_points,
                r.values.iter().map(|v| v.1).collect(),
            )
        })
        .collect();
    // Game points and the Olympiad SB / board count in half points.
    assert_eq!(
        got,
        vec![
            (2, 4, vec![15, 38, 10, 8, 35, 1]),
            (1, 4, vec![14, 36, 10, 8, 34, 1]),
            (3, 2, vec![11, 38, 8, 10, 29, 0]),
            (4, 2, vec![8, 22, 4, 10, 22, 1]),
        ]
    );
    // Direct encounter first: A and B drew (equal), D beat C.
    t.tiebreaks = vec![TeamTieBreak::DirectEncounter, TeamTieBreak::GamePoints];
    let order: Vec<u32> = compute(&t).iter().map(|r| r.team).collect();
    assert_eq!(order, vec![2, 1, 4, 3]);
    let de: Vec<i64> = compute(&t).iter().map(|r| r.values[0].1).collect();
    assert_eq!(de, vec![1, 1, 2, 0]);
}

/// Event 2, worked out by hand: 5 teams, 2 boards, rounds given by hand
/// (byes and a forfeited match). R1: 1–2 11, 3–4 ==, bye 5. R2: 5–1 =1,
/// 2–3 forfeited by 3, bye 4. A bye: 2 match points, 2 game points (the
/// rules of this event give the bye a win's value, not C.04.6's draw).
pub fn event_two() -> TeamTournament {
    let mut t = TeamTournament::new("Evento dos", TeamSystem::Swiss, 2, 2);
    t.scoring = t.scoring.bye_as_win(2);
    for (i, name) in ["Uno", "Dos", "Tres", "Cuatro", "Cinco"].iter().enumerate() {
        t.add_team(team(name, 1900 - 50 * i as u16, 2)).unwrap();
    }
    let m = |h, a| Match::new(h, a, 2, 2, 2);
    t.record_round(TeamRound {
        matches: vec![m(1, 2), m(3, 4)],
        bye: Some(5),
    })
    .unwrap();
    play(&mut t, 1, 1, "11");
    play(&mut t, 1, 2, "==");
    t.record_round(TeamRound {
        matches: vec![m(5, 1), m(2, 3)],
        bye: Some(4),
    })
    .unwrap();
    play(&mut t, 2, 1, "=1");
    t.forfeit_match(2, 2, Some(Side::Away)).unwrap();
    t
}

/// Event 2 with C.04.6's default pairing-allocated bye (1.4: a drawn
/// match, a draw's match points and ½ a board) in place of the won match
/// the event's rules set: Cinco's round-1 bye and Cuatro's round-2 bye
/// are worth 1 match point and 1 game point each. Its TRF carries `320`
/// with that value, and Gacrux's tie-breaks on it equal escaque's
/// (gacrux_computes_the_same_team_tie_breaks).
pub fn event_two_drawn_bye() -> TeamTournament {
    let mut t = event_two();
    t.name = "Evento dos, descanso como empate".into();
    t.scoring = Scoring::default();
    t
}

/// Worked by hand (C.07 Article 16, 2026 text; 2/1/0, two boards, draw 1
/// match point): round 1 Uno–Dos 2-0, Tres–Cuatro 1-1, Cinco the bye (2 MP,
/// 2 GP); round 2 Cinco–Uno 1½-½, Dos–Tres won by Dos by forfeit (Tres
/// did not come: its round is voluntarily unplayed), Cuatro the bye.
/// Adjusted scores (16.3; no team withdrew): Uno 2, Dos 2, Tres 1, Cuatro
/// 3, Cinco 4. Buchholz: Uno 2 + 4 = 6; Dos 2 (Uno) + min(own 2, Tres 1) =
/// 3 (16.4.1); Tres 3 (Cuatro) + min(1, Dos 2) = 4; Cuatro 1 (Tres) +
/// min(own 3, a draw a round 2) = 3 (16.4.2); Cinco min(4, 2) + 2 = 4.
/// Olympiad SB (× game points, in halves): Uno 2×4 + 4×1 = 12; Dos 2×0 +
/// 1×4 = 4; Tres 3×2 + 1×0 = 6; Cuatro 1×2 + 2×4 = 10; Cinco 2×4 + 2×3 =
/// 14. Gacrux gives the same (gacrux_computes_the_same_team_tie_breaks).
#[test]
fn event_two_tie_breaks_with_byes_and_forfeits_match_the_hand_worked_values() {
    let mut t = event_two();
    t.tiebreaks = vec![
        TeamTieBreak::GamePoints,
        TeamTieBreak::OlympiadSb,
        TeamTieBreak::Buchholz,
        TeamTieBreak::Wins,
        TeamTieBreak::Won,
    ];
    let got: Vec<(u32, u32, Vec<i64>)> = compute(&t)
        .iter()
        .map(|r| {
            (
                r.team,
                r.match_points,
                r.values.iter().map(|v| v.1).collect(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (5, 4, vec![7, 14, 4, 2, 1]),
            (4, 3, vec![6, 10, 3, 1, 0]),
            (1, 2, vec![5, 12, 6, 1, 1]),
            (2, 2, vec![4, 4, 3, 1, 0]),
            (3, 1, vec![2, 6, 4, 0, 0]),
        ]
    );
}

// ---------------------------------------------------------------- school rules

#[test]
fn school_rules_limit_teams_require_categories_and_rank_schools() {
    let mut t = TeamTournament::new("Escolar", TeamSystem::RoundRobin { double: false }, 2, 0);
    t.school = Some(SchoolRules {
        max_teams: Some(2),
        categories: vec![("F".into(), 1)],
        counted: 2,
    });
    let with_girl = |name: &str, school: &str| {
        let mut x = team(name, 1500, 3);
        x.members[2].category = "F".into();
        x.school = school.into();
        x
    };
    t.add_team(with_girl("Sol A", "CEIP Sol")).unwrap();
    t.add_team(with_girl("Sol B", "CEIP Sol")).unwrap();
    let e = t.add_team(with_girl("Sol C", "ceip sol")).unwrap_err();
    assert_eq!(
        e,
        TeamError::SchoolFull {
            school: "ceip sol".into(),
            max: 2
        }
    );
    let mut no_girl = team("Luna A", 1400, 3);
    no_girl.school = "CEIP Luna".into();
    let e = t.add_team(no_girl).unwrap_err();
    assert!(
        matches!(
            e,
            TeamError::CategoryShort {
                needed: 1,
                has: 0,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.message(Lang::Es).contains("categoría F"));
    t.add_team(with_girl("Luna A", "CEIP Luna")).unwrap();
    assert_eq!(t.teams.len(), 3);
    // Round robin of 3: Sol A, Sol B, Luna A; Luna A wins everything.
    for r in 1..=3 {
        pair_next_round(&mut t).unwrap();
        for k in 0..t.rounds[r - 1].matches.len() {
            let m = t.rounds[r - 1].matches[k].clone();
            let s = if m.home == 3 {
                "11"
            } else if m.away == 3 {
                "00"
            } else {
                "=="
            };
            play(&mut t, r as u32, k as u32 + 1, s);
        }
    }
    let rank = ranking(&t);
    // Sol: two teams counted (1 + 1 MP … each drew the other and lost to
    // Luna: 1 MP each) = 2 MP, 2 GP; Luna: one team, 4 MP.
    assert_eq!(rank[0].school, "CEIP Luna");
    assert_eq!((rank[0].match_points, rank[0].game_points), (4, 8));
    assert_eq!(
        (
            rank[1].school.as_str(),
            rank[1].match_points,
            rank[1].game_points
        ),
        ("CEIP Sol", 2, 4)
    );
    assert_eq!(rank[1].teams.len(), 2);
}

// ---------------------------------------------------------------- TRF and printouts

#[test]
fn trf_team_files_read_back_what_was_written() {
    let mut with_rules = event_two();
    with_rules.school = Some(SchoolRules {
        max_teams: Some(2),
        categories: vec![("F".into(), 1), ("sub12".into(), 2)],
        counted: 2,
    });
    for t in [event_one(), with_rules, swiss_run(7, 4, ColourType::B)] {
        let text = trf::write(&t);
        assert!(text.lines().any(|l| l.starts_with("310   1 ")), "{text}");
        let back = trf::parse(&text).unwrap_or_else(|e| panic!("{}\n{text}", e.message(Lang::Es)));
        assert_eq!(back.rounds, t.rounds);
        assert_eq!(back.teams.len(), t.teams.len());
        for (a, b) in back.teams.iter().zip(&t.teams) {
            assert_eq!(a.members, b.members);
            assert_eq!((a.captain, &a.school), (b.captain, &b.school));
        }
        assert_eq!(back.scoring.win, t.scoring.win);
        assert_eq!(back.system, t.system);
        assert_eq!(back.school, t.school);
        assert_eq!(compute(&back), compute(&t));
        assert_eq!(trf::write(&back), text);
    }
}

#[test]
fn a_team_file_that_contradicts_itself_is_refused_with_the_line() {
    let text = trf::write(&event_one());
    // A player listed in two teams.
    let lines: Vec<String> = text.lines().map(String::from).collect();
    let i = lines.iter().position(|l| l.starts_with("310   2")).unwrap();
    let mut bad = lines.clone();
    bad[i] = format!("{}    1", bad[i]);
    let e = trf::parse(&bad.join("\n")).unwrap_err();
    assert_eq!(e.line, i + 1);
    // A board whose two players disagree on the result.
    let j = lines
        .iter()
        .position(|l| l.starts_with("001    1"))
        .unwrap();
    let mut bad = lines.clone();
    bad[j] = bad[j].replacen(" w 1", " w 0", 1);
    assert!(trf::parse(&bad.join("\n")).is_err());
    // A line-up naming a player of another team.
    let k = lines
        .iter()
        .position(|l| l.starts_with("300   1   1"))
        .unwrap();
    let mut bad = lines;
    bad[k] = format!("{}{}", &bad[k][..15], "   16    2    3    4");
    let e = trf::parse(&bad.join("\n")).unwrap_err();
    assert_eq!((e.line, e.column), (k + 1, 17));
}

#[test]
fn printouts_are_in_spanish_with_matches_boards_and_crosstable() {
    let t = event_one();
    let p = print::pairings(&t, 1).unwrap();
    assert!(p.contains("Ronda 1: emparejamientos"), "{p}");
    assert!(
        p.contains("Encuentro 1: A (0 PE, 0 PP) – D (0 PE, 0 PP)"),
        "{p}"
    );
    assert!(p.contains("Tablero  1: A jugador 1 (2000)"), "{p}");
    // Board 2: D's player has White.
    assert!(p.contains("Tablero  2: D jugador 2 (1690)"), "{p}");
    assert!(p.contains("Resultado: 3 – 1"), "{p}");
    let c = print::crosstable(&t);
    assert!(c.contains("Cuadro cruzado por equipos"));
    let b_line = c.lines().find(|l| l.contains(" B ")).unwrap();
    assert!(
        b_line.contains("3b 2") && b_line.contains("1n 2") && b_line.contains("4b 3½"),
        "{b_line}"
    );
    let s = print::standings_text(&t);
    assert!(
        s.contains("Clasificación por equipos") && s.contains("Sonneborn-Berger olímpico"),
        "{s}"
    );
    let r = print::board_results(&t);
    assert!(r.contains("A jugador 1") && r.contains("T1 1"), "{r}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::fuzz_cases::cases(256)))]

    /// Any text: a tournament or an error, never a panic.
    #[test]
    fn the_team_trf_reader_never_panics(text in "(?s).{0,400}") {
        let _ = trf::parse(&text);
    }

    /// A valid file with one character changed: read or refused, never a
    /// panic; what reads writes back and reads again the same.
    #[test]
    fn a_damaged_team_file_is_read_or_refused(pos in 0usize..4000, c in proptest::char::any()) {
        let text = trf::write(&event_two());
        let mut chars: Vec<char> = text.chars().collect();
        let p = pos % chars.len();
        chars[p] = c;
        let damaged: String = chars.into_iter().collect();
        if let Ok(t) = trf::parse(&damaged) {
            let again = trf::write(&t);
            let back = trf::parse(&again).unwrap();
            prop_assert_eq!(back.rounds, t.rounds);
        }
    }

    /// Record types the reader knows, with random fields.
    #[test]
    fn team_records_with_random_fields_never_panic(
        code in prop::sample::select(vec!["001", "310", "300", "320", "330", "352", "362", "142", "202", "XZQ", "XZK"]),
        body in "[ 0-9A-Za-z.+=\\-]{0,120}",
    ) {
        let text = format!("{}\n{code} {body}\n", trf::write(&event_two()));
        let _ = trf::parse(&text);
    }
}

#[test]
fn a_board_of_the_record_has_the_players_the_line_up_set() {
    let b = Board {
        home_player: None,
        away_player: Some(0),
        home_white: true,
        result: BoardResult::Pending,
    };
    assert_eq!(b.forced(), Some(BoardResult::AwayForfeitWin));
}

/// Gacrux (FIDE TEC's tie-break checker, run outside the project:
/// scripts/teams_gacrux.py, tests/data/teams/README.md) on the two events'
/// TRF-2026 files, and on event 2 with the default (drawn) bye: every value of every team agrees, the rounds without a
/// match played too (a bye, a match won or lost entirely by forfeit: C.07
/// Article 16 as Gacrux applies it to teams, with match points).
#[test]
fn gacrux_computes_the_same_team_tie_breaks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/teams");
    let gacrux = std::fs::read_to_string(dir.join("gacrux.txt")).unwrap();
    let mut compared = 0;
    for (name, mut t) in [
        ("evento_uno.trf", event_one()),
        ("evento_dos.trf", event_two()),
        ("evento_dos_descanso_empate.trf", event_two_drawn_bye()),
    ] {
        let path = dir.join(name);
        if std::env::var_os("ESCAQUE_WRITE_TEAM_DATA").is_some() {
            std::fs::write(&path, trf::write(&t)).unwrap();
        }
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            trf::write(&t),
            "{name}"
        );
        t.tiebreaks = vec![
            TeamTieBreak::GamePoints,
            TeamTieBreak::OlympiadSb,
            TeamTieBreak::MatchSb,
            TeamTieBreak::Buchholz,
            TeamTieBreak::BoardCount,
        ];
        let rows = compute(&t);
        let block: Vec<&str> = gacrux
            .split("= ")
            .find(|b| b.starts_with(name))
            .unwrap()
            .lines()
            .skip(1)
            .collect();
        assert_eq!(block.len(), t.teams.len());
        for line in block {
            let f: Vec<f64> = line
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            let team = f[0] as u32;
            let row = rows.iter().find(|r| r.team == team).unwrap();
            assert_eq!(row.match_points as f64, f[2], "{name} {team} MPTS");
            assert_eq!(row.game_points as f64 / 2.0, f[3], "{name} {team} GPTS");
            let v: Vec<i64> = row.values.iter().map(|v| v.1).collect();
            assert_eq!(v[1] as f64 / 2.0, f[4], "{name} {team} EMGSB");
            assert_eq!(v[2] as f64, f[5], "{name} {team} EMMSB");
            assert_eq!(v[3] as f64, f[6], "{name} {team} BH");
            assert_eq!(v[4] as f64 / 2.0, f[7], "{name} {team} BC");
            compared += 1;
        }
    }
    // Every team of the three files, byes (a won match and a drawn one)
    // and forfeits included.
    assert_eq!(compared, 14);
}

// ---------------------------------------------------------------- forbidden pairs

/// Teams of one school declared not to meet: round 1's natural pairing
/// (1-5, 6-2, 3-7, 8-4 for eight teams) puts 1 against 5; with 1 and 5
/// forbidden, and 2 and 6, no round of a five-round Swiss pairs them, every
/// round is still a full pairing without rematches, and the pairs survive
/// the TRF.
#[test]
fn forbidden_teams_never_meet_in_a_team_swiss() {
    let mut t = tournament(TeamSystem::Swiss, 8, 4, 5);
    t.teams[0].school = "Colegio Sol".into();
    t.teams[4].school = "colegio sol ".into();
    t.teams[1].school = "Club Río".into();
    t.teams[5].school = "Club Río".into();
    t.forbid_same_school().unwrap();
    assert_eq!(t.forbidden, vec![(1, 5), (2, 6)]);
    assert!(t.is_forbidden(5, 1) && !t.is_forbidden(1, 2));
    // One school however its teams write it, in the ranking too.
    let schools: Vec<String> = ranking(&t).into_iter().map(|s| s.school).collect();
    assert_eq!(schools, ["Club Río", "Colegio Sol"]);
    // Declared twice: kept once.
    t.forbid(&[5, 1, 1]).unwrap();
    assert_eq!(t.forbidden, vec![(1, 5), (2, 6)]);
    let back = trf::parse(&trf::write(&t)).unwrap();
    assert_eq!(back.forbidden, t.forbidden);
    for r in 1..=5 {
        pair_next_round(&mut t).unwrap();
        let round = t.rounds[r as usize - 1].clone();
        assert_eq!(round.matches.len(), 4);
        for (k, m) in round.matches.iter().enumerate() {
            assert!(!t.is_forbidden(m.home, m.away), "round {r}: {m:?}");
            for earlier in 1..r {
                if let Some(RoundRecord::Match { opponent, .. }) = t.record(m.home, earlier) {
                    assert_ne!(opponent, m.away, "rematch in round {r}");
                }
            }
            let s = if m.home < m.away { "11==" } else { "00==" };
            play(&mut t, r, k as u32 + 1, s);
        }
    }
    // Without the rule the first round has 1 against 5.
    let mut free = tournament(TeamSystem::Swiss, 8, 4, 5);
    pair_next_round(&mut free).unwrap();
    assert!(free.rounds[0]
        .matches
        .iter()
        .any(|m| (m.home.min(m.away), m.home.max(m.away)) == (1, 5)));
}

#[test]
fn forbidden_pairs_are_refused_outside_a_swiss_or_without_two_teams() {
    let mut rr = tournament(TeamSystem::RoundRobin { double: false }, 4, 4, 0);
    assert_eq!(rr.forbid(&[1, 2]), Err(TeamError::ForbiddenNeedsSwiss));
    let mut t = tournament(TeamSystem::Swiss, 4, 4, 3);
    assert_eq!(
        t.forbid(&[2, 2]),
        Err(TeamError::ForbiddenGroup { given: 1 })
    );
    assert_eq!(t.forbid(&[1, 9]), Err(TeamError::NoSuchTeam(9)));
    assert!(t.forbidden.is_empty());
    assert!(TeamError::ForbiddenNeedsSwiss
        .message(Lang::Es)
        .contains("solo un suizo"));
    // A file naming a team that is not in is refused with its line.
    let mut text = trf::write(&t);
    text.push_str("XZF   1   7\n");
    assert!(trf::parse(&text).is_err());
    // Forbidding all but impossible pairs: four teams, 1 may meet nobody.
    t.forbid(&[1, 2]).unwrap();
    t.forbid(&[1, 3]).unwrap();
    t.forbid(&[1, 4]).unwrap();
    assert_eq!(
        pair_next_round(&mut t),
        Err(TeamError::NoPairing { round: 1 })
    );
    assert!(t.rounds.is_empty());
}

// ---------------------------------------------------------------- C.04.6 article 3

use escaque_torneo::teams::c046::{self, Entrant, Field};
use escaque_torneo::teams::RequestedBye;

/// Entrants with pairing numbers and scores, no preferences, no floats,
/// every team free to meet every other.
fn field_of(teams: &[(u32, u32)]) -> Field {
    let n = teams.len();
    Field {
        entrants: teams
            .iter()
            .map(|&(tpn, score)| Entrant {
                tpn,
                score,
                played: 0,
                bye_eligible: true,
                floated: false,
                colour: None,
                strong: false,
            })
            .collect(),
        can_meet: (0..n).map(|i| (0..n).map(|j| i != j).collect()).collect(),
        float_criteria: true,
        type_b: false,
    }
}

/// The pairing as (top member's number, bottom member's number), sorted.
fn numbers(f: &Field, p: &c046::Pairing) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = p
        .pairs
        .iter()
        .map(|&(a, b)| {
            let (x, y) = (f.entrants[a].tpn, f.entrants[b].tpn);
            (x.min(y), x.max(y))
        })
        .collect();
    v.sort_unstable();
    v
}

fn forbid(f: &mut Field, a: usize, b: usize) {
    f.can_meet[a][b] = false;
    f.can_meet[b][a] = false;
}

/// Art. 3.5–3.6: an odd top scoregroup {1, 2, 3} takes one upfloater (the
/// first of the next scoregroup, 16), and the bracket {1, 2, 3, 16} is
/// paired in pairing-number order: top members 1, 2 and bottom members 3,
/// 16 (identifier 1 2 3 16), not 1-16 as a downfloat would give. The same
/// bracket Gacrux's own test pins for Sharly Chess's issue-17 file.
#[test]
fn c046_an_odd_scoregroup_takes_an_upfloater_paired_by_the_smallest_identifier() {
    let f = field_of(&[(1, 4), (2, 4), (3, 4), (16, 2), (17, 2), (18, 0)]);
    let p = c046::pair(&f).unwrap();
    assert_eq!(p.bye, None);
    assert_eq!(numbers(&f, &p), vec![(1, 3), (2, 16), (17, 18)]);
}

/// Art. 3.6 with [C8]: in {1, 2, 3, 4}, 1 and 3 want White and 2 and 4
/// Black: 1-3 and 2-4 (the first identifier) leave two preferences
/// unmet; of the pairings that meet all, 1-4 2-3 (identifier 1 2 4 3)
/// comes before 1-2 3-4 (1 3 2 4).
#[test]
fn c046_colour_preferences_come_before_the_identifier() {
    let mut f = field_of(&[(1, 2), (2, 2), (3, 2), (4, 2)]);
    for (i, c) in [W, B, W, B].into_iter().enumerate() {
        f.entrants[i].colour = Some(c);
        f.entrants[i].strong = true;
    }
    let p = c046::pair(&f).unwrap();
    assert_eq!(numbers(&f, &p), vec![(1, 4), (2, 3)]);
    // Without preferences, the first identifier.
    let f = field_of(&[(1, 2), (2, 2), (3, 2), (4, 2)]);
    assert_eq!(numbers(&f, &c046::pair(&f).unwrap()), vec![(1, 3), (2, 4)]);
}

/// Art. 3.5.5 with [C7]: of the upfloaters 4 and 5 (same score), 4 comes
/// first (3.5.4) but floated in the previous round, so 5 goes up; in the
/// last two rounds [C7] does not apply and 4 goes up.
#[test]
fn c046_an_upfloater_that_floated_last_round_is_avoided_except_in_the_last_two_rounds() {
    let mut f = field_of(&[(1, 2), (2, 2), (3, 2), (4, 1), (5, 1), (6, 0)]);
    f.entrants[3].floated = true;
    let p = c046::pair(&f).unwrap();
    assert_eq!(numbers(&f, &p), vec![(1, 3), (2, 5), (4, 6)]);
    f.float_criteria = false;
    let p = c046::pair(&f).unwrap();
    assert_eq!(numbers(&f, &p), vec![(1, 3), (2, 4), (5, 6)]);
}

/// Art. 3.5.5 with [C6]: taking 4 up would leave {5, 6} of the following
/// scoregroup unable to meet (they already have); 5 goes up instead, and
/// 4-6 are paired in their own scoregroup.
#[test]
fn c046_the_following_scoregroup_must_stay_pairable() {
    let mut f = field_of(&[
        (1, 2),
        (2, 2),
        (3, 2),
        (4, 1),
        (5, 1),
        (6, 1),
        (7, 0),
        (8, 0),
    ]);
    forbid(&mut f, 4, 5);
    let p = c046::pair(&f).unwrap();
    assert_eq!(numbers(&f, &p), vec![(1, 3), (2, 5), (4, 6), (7, 8)]);
}

/// Art. 3.4: the bye first — among the teams [C2] allows, the lowest
/// score, then the most matches played, then the largest number, provided
/// the others can still be paired.
#[test]
fn c046_the_bye_goes_to_the_lowest_score_most_played_largest_number() {
    let mut f = field_of(&[(1, 2), (2, 2), (3, 0), (4, 0), (5, 0)]);
    assert_eq!(f.entrants[c046::pair(&f).unwrap().bye.unwrap()].tpn, 5);
    f.entrants[3].played = 1;
    assert_eq!(f.entrants[c046::pair(&f).unwrap().bye.unwrap()].tpn, 4);
    f.entrants[3].bye_eligible = false;
    assert_eq!(f.entrants[c046::pair(&f).unwrap().bye.unwrap()].tpn, 5);
    // 3.4.1: with 5 out, 3 (who may meet only 5) could not be paired.
    forbid(&mut f, 2, 0);
    forbid(&mut f, 2, 1);
    forbid(&mut f, 2, 3);
    let p = c046::pair(&f).unwrap();
    assert_eq!(f.entrants[p.bye.unwrap()].tpn, 3);
    // No team may have the bye: no pairing (3.3.3).
    for e in &mut f.entrants {
        e.bye_eligible = false;
    }
    assert_eq!(c046::pair(&f), None);
}

// ---------------------------------------------------------------- requested byes

/// A team that asks not to play a round (`240` in TRF-2026): left out of
/// the pairing, it scores what the bye's kind gives (F: a win's match
/// points and a point a board; H: a draw's and half; Z: nothing), the
/// requests survive the TRF, a full-point bye keeps the pairing-allocated
/// bye away (C.04.6 [C2]), and bad requests are refused with nothing
/// changed.
#[test]
fn requested_team_byes_are_held_scored_and_refused_when_wrong() {
    let mut t = tournament(TeamSystem::Swiss, 5, 2, 3);
    t.request_bye(1, 5, RequestedBye::Full).unwrap();
    t.request_bye(2, 2, RequestedBye::Half).unwrap();
    t.request_bye(2, 3, RequestedBye::Zero).unwrap();
    let before = t.clone();
    for (round, team, e) in [
        (
            0,
            1,
            TeamError::ByeRound {
                round: 0,
                paired: 0,
                total: 3,
            },
        ),
        (
            4,
            1,
            TeamError::ByeRound {
                round: 4,
                paired: 0,
                total: 3,
            },
        ),
        (1, 9, TeamError::NoSuchTeam(9)),
    ] {
        assert_eq!(
            t.request_bye(round, team, RequestedBye::Half),
            Err(e.clone())
        );
        assert!(!e.message(Lang::Es).is_empty() && !e.message(Lang::En).is_empty());
    }
    assert_eq!(t, before);
    pair_next_round(&mut t).unwrap();
    // Round 1: four teams, no pairing-allocated bye; 5 is not paired.
    let r1 = &t.rounds[0];
    assert_eq!(r1.bye, None);
    assert!(r1.matches.iter().all(|m| m.home != 5 && m.away != 5));
    assert_eq!(t.scores_after(5, 1), (2, 4));
    assert!(matches!(
        t.record(5, 1),
        Some(RoundRecord::Requested {
            kind: RequestedBye::Full,
            ..
        })
    ));
    // A round already paired takes no request.
    assert_eq!(
        t.request_bye(1, 1, RequestedBye::Half),
        Err(TeamError::ByeRound {
            round: 1,
            paired: 1,
            total: 3
        })
    );
    for k in 1..=2 {
        play(&mut t, 1, k, "1=");
    }
    pair_next_round(&mut t).unwrap();
    let r2 = &t.rounds[1];
    // Round 2: 1, 4, 5 play; 2 (half) and 3 (zero) asked out; of 1, 4, 5,
    // 5 cannot have the bye (its full-point bye), nor can a team with more.
    assert_eq!(r2.matches.len(), 1);
    let bye = r2.bye.unwrap();
    assert_ne!(bye, 5);
    assert!(r2
        .matches
        .iter()
        .all(|m| ![2, 3].contains(&m.home) && ![2, 3].contains(&m.away)));
    let (mp2, gp2) = t.scores_after(2, 2);
    let (mp2_1, gp2_1) = t.scores_after(2, 1);
    assert_eq!((mp2 - mp2_1, gp2 - gp2_1), (1, 2));
    assert_eq!(t.scores_after(3, 2), t.scores_after(3, 1));
    // The TRF keeps the requests (240 F/H/Z) and the bye's value (320).
    let text = trf::write(&t);
    assert!(text.contains("240 F   1    5\n"), "{text}");
    assert!(text.contains("240 H   2    2\n"), "{text}");
    let back = trf::parse(&text).unwrap();
    assert_eq!(back.requested_byes, t.requested_byes);
    let bye = |t: &TeamTournament| (t.scoring.bye_match_points, t.scoring.bye_game_points_for(2));
    assert_eq!(bye(&back), bye(&t));
    assert_eq!(standings_of(&back), standings_of(&t));
    // The printouts name them.
    let p = print::pairings(&t, 2).unwrap();
    assert!(
        p.contains("Descansa a petición propia: Equipo 2 (1 puntos de encuentro, 1 de partida)"),
        "{p}"
    );
    assert!(
        print::crosstable(&t).contains("D 2"),
        "{}",
        print::crosstable(&t)
    );
    // Outside a Swiss, refused.
    let mut rr = tournament(TeamSystem::RoundRobin { double: false }, 4, 2, 3);
    assert_eq!(
        rr.request_bye(1, 1, RequestedBye::Half),
        Err(TeamError::ByeNeedsSwiss)
    );
    // A file whose team both plays and asks out is refused.
    let bad = text.replace(
        "240 H   2    2",
        &format!("240 H   2 {:>4}", t.rounds[1].matches[0].home),
    );
    assert!(trf::parse(&bad).is_err());
}

fn standings_of(t: &TeamTournament) -> Vec<(u32, u32, u32)> {
    compute(t)
        .iter()
        .map(|r| (r.team, r.match_points, r.game_points))
        .collect()
}

/// C.04.6 1.4 (as Gacrux and Sharly Chess apply it): the pairing-allocated
/// bye is a drawn match by default — a draw's match points and half a point
/// a board — and a win's only when the rules say so.
#[test]
fn the_pairing_allocated_bye_is_a_draw_unless_the_rules_say_a_win() {
    let mut t = tournament(TeamSystem::Swiss, 3, 4, 2);
    pair_next_round(&mut t).unwrap();
    assert_eq!(t.rounds[0].bye, Some(3));
    assert_eq!(t.scores_after(3, 1), (1, 4));
    t.scoring = t.scoring.bye_as_win(4);
    assert_eq!(t.scores_after(3, 1), (2, 8));
    let back = trf::parse(&trf::write(&t)).unwrap();
    assert_eq!(back.scores_after(3, 1), (2, 8));
}

/// C.04.6 4.3.6, "alternate the colours to the most recent time in which one
/// team had White and the other Black", read with C.04.2 article 3.4 (which
/// C.04.6's preface applies to teams): only matches played count, so a
/// colour history with a round not played is compared as if that round had
/// not been, the two histories aligned from the end. Team 1 played W, B
/// and had the bye (history W B); team 2 played B, had the bye, then
/// played W (history B W). Both have difference 0 and, Type A, no preference, so 4.3.6
/// decides: the last played matches differ (1 Black, 2 White), so 1 gets
/// White. Taking the latest *round* in which both played with different
/// colours would go back to round 1 (1 White, 2 Black) and give 1 Black.
#[test]
fn c046_colours_alternate_from_the_last_played_matches_aligned_from_the_end() {
    use escaque_torneo::teams::swiss::{allocate, starting_order};
    let mut t = tournament(TeamSystem::Swiss, 5, 2, 4);
    let m = |h, a| Match::new(h, a, 2, 3, 3);
    let rounds = [
        (vec![m(1, 3), m(4, 2)], 5),
        (vec![m(5, 1), m(3, 4)], 2),
        (vec![m(2, 3), m(4, 5)], 1),
    ];
    for (r, (matches, bye)) in rounds.into_iter().enumerate() {
        t.record_round(TeamRound {
            matches,
            bye: Some(bye),
        })
        .unwrap();
        play(&mut t, r as u32 + 1, 1, "==");
        play(&mut t, r as u32 + 1, 2, "==");
    }
    let order = starting_order(&t);
    let n = |team: u32| order.iter().position(|&x| x == team).unwrap() as u32 + 1;
    assert!(allocate(&t, 4, 1, n(1), 2, n(2)));
    assert!(!allocate(&t, 4, 2, n(2), 1, n(1)));
}

/// The Baku acceleration of a team Swiss (C.04.7 read for match points;
/// C.04.7 1.4.4 rules it out with game points as the primary score): 8
/// teams and 5 rounds make GA teams 1-4 (2 × ⌈8/4⌉) and rounds 1-3 the
/// accelerated ones: a won match's 2 match points in rounds 1-2, a drawn
/// match's 1 in round 3. Round 1 then pairs GA among themselves and GB
/// among themselves (without it: 1-5, 6-2, 3-7, 8-4), and the setting
/// survives the TRF.
#[test]
fn baku_acceleration_of_a_team_swiss_pairs_ga_apart_in_round_one() {
    use escaque_torneo::teams::swiss::virtual_points;
    let mut t = tournament(TeamSystem::Swiss, 8, 2, 5);
    assert_eq!(virtual_points(&t, 1, 1), 0);
    t.baku = true;
    let v: Vec<u32> = (1..=5).map(|r| virtual_points(&t, 4, r)).collect();
    assert_eq!(v, [2, 2, 1, 0, 0]);
    assert_eq!(virtual_points(&t, 5, 1), 0);
    pair_next_round(&mut t).unwrap();
    for m in &t.rounds[0].matches {
        assert_eq!(m.home <= 4, m.away <= 4, "{m:?}");
    }
    let text = trf::write(&t);
    assert!(text.lines().any(|l| l == "XZB"), "{text}");
    let back = trf::parse(&text).unwrap();
    assert!(back.baku);
    assert_eq!(back.rounds, t.rounds);
    assert_eq!(trf::write(&back), text);
    // Game points as the primary score: no virtual points.
    t.pair_by_game_points = true;
    assert_eq!(virtual_points(&t, 1, 1), 0);
}
