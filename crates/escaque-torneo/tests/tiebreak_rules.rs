//! The tie-break rules of FIDE C.07, one test per rule, each naming the
//! article (issues 62 and 64). Tournaments are written round by round as
//! the cross table gives them: `(white, black, result)` games and
//! `(player, bye)` rows.

use escaque_torneo::model::{ByeKind, Game, Outcome, Round};
use escaque_torneo::standings::{
    compute, compute_after, dropped, explain, Cap, Counted, Dropped, Rules, TieBreak,
};
use escaque_torneo::{Player, System, TorneoError, Tournament};

use ByeKind::{Half, PairingAllocated as Pab, Zero};
use Outcome::{BlackWins, Draw, WhiteForfeitWin, WhiteWins};

type R<'a> = (&'a [(u32, u32, Outcome)], &'a [(u32, ByeKind)]);

fn event(system: System, players: u32, rounds: &[R]) -> Tournament {
    let mut t = Tournament::new("C.07", system, rounds.len() as u32);
    for i in 1..=players {
        let mut p = Player::new(&format!("Jugador {i}"));
        p.rating = Some(1500 + 10 * i as u16);
        t.players.push(p);
    }
    for (games, byes) in rounds {
        t.rounds.push(Round {
            games: games
                .iter()
                .map(|&(white, black, outcome)| Game {
                    white,
                    black,
                    outcome,
                    unusual: None,
                })
                .collect(),
            byes: byes.to_vec(),
        });
    }
    t
}

fn values(t: &Tournament, tbs: &[TieBreak], player: u32) -> Vec<f64> {
    let mut t = t.clone();
    t.tiebreaks = tbs.to_vec();
    compute(&t)
        .into_iter()
        .find(|s| s.player == player)
        .unwrap()
        .tiebreaks
}

/// Issue 62's example: A (1) beat B (2); B had a zero-point bye in round 2,
/// played the other rounds and scored 3.
fn zero_bye_example() -> Tournament {
    event(
        System::Swiss,
        6,
        &[
            (&[(1, 2, WhiteWins), (3, 4, Draw), (5, 6, Draw)], &[]),
            (&[(1, 3, WhiteWins), (4, 5, Draw)], &[(2, Zero), (6, Half)]),
            (&[(2, 3, WhiteWins), (1, 4, Draw), (5, 6, WhiteWins)], &[]),
            (&[(4, 2, BlackWins), (6, 1, BlackWins), (3, 5, Draw)], &[]),
            (&[(2, 5, WhiteWins), (1, 6, Draw), (3, 4, Draw)], &[]),
        ],
    )
}

/// Article 16.3: an opponent's unplayed round counts with the points
/// actually scored in it; a zero-point bye in the middle of the event
/// counts 0, not a draw.
#[test]
fn article_16_3_an_opponents_zero_point_bye_counts_zero() {
    let t = zero_bye_example();
    assert_eq!(t.score(2), 6, "B scored 3");
    let d = explain(&t, 1, 5).unwrap();
    match &d.rounds[0].counted {
        Counted::Opponent {
            opponent,
            actual,
            adjusted,
            as_draws,
        } => {
            assert_eq!((*opponent, *actual, *adjusted), (2, 6, 6));
            assert!(as_draws.is_empty(), "{as_draws:?}");
        }
        other => panic!("{other:?}"),
    }
    // The half-point bye of player 6 counts ½ (6 played on after it).
    match &d.rounds[1].counted {
        Counted::Opponent { adjusted, .. } => assert_eq!(*adjusted, t.score(3)),
        other => panic!("{other:?}"),
    }
    match &d.rounds[3].counted {
        Counted::Opponent {
            opponent, adjusted, ..
        } => assert_eq!((*opponent, *adjusted), (6, t.score(6))),
        other => panic!("{other:?}"),
    }
}

/// Article 16.3: a forfeit win and a pairing-allocated bye count with their
/// point; the opponent's score is not "levelled" to a draw.
#[test]
fn article_16_3_forfeit_wins_and_the_pairing_bye_count_their_point() {
    let t = event(
        System::Swiss,
        5,
        &[
            (&[(1, 2, WhiteWins), (3, 4, WhiteForfeitWin)], &[(5, Pab)]),
            (&[(3, 1, WhiteWins), (2, 5, Draw)], &[(4, Pab)]),
            (&[(1, 4, Draw), (5, 3, BlackWins)], &[(2, Pab)]),
        ],
    );
    // Player 3: forfeit win (1) + win + win = 3, all counted as scored.
    let d = explain(&t, 1, 3).unwrap();
    match &d.rounds[1].counted {
        Counted::Opponent {
            actual, adjusted, ..
        } => assert_eq!((*actual, *adjusted), (6, 6)),
        other => panic!("{other:?}"),
    }
    // Player 4: forfeit loss (0), pairing bye (1), draw: 1½ — the forfeit
    // loss counts 0 because 4 played on after it.
    match &d.rounds[2].counted {
        Counted::Opponent { adjusted, .. } => assert_eq!(*adjusted, 3),
        other => panic!("{other:?}"),
    }
}

/// Article 16.2.5 / 16.3.2: the rounds without an opponent after an
/// opponent's last round that was not voluntarily unplayed (a withdrawal)
/// count as draws; a forfeit loss there (a game was paired) keeps its 0.
#[test]
fn article_16_2_5_rounds_after_a_withdrawal_count_as_draws() {
    let t = event(
        System::Swiss,
        6,
        &[
            (&[(1, 2, WhiteWins), (3, 4, Draw), (5, 6, Draw)], &[]),
            (&[(2, 3, WhiteWins), (4, 5, Draw), (6, 1, Draw)], &[]),
            (&[(1, 3, Draw), (2, 5, WhiteWins)], &[(4, Zero), (6, Zero)]),
            (
                &[(1, 5, WhiteWins), (3, 4, WhiteForfeitWin)],
                &[(2, Zero), (6, Half)],
            ),
            (
                &[(1, 3, WhiteWins)],
                &[(2, Zero), (4, Zero), (5, Pab), (6, Zero)],
            ),
        ],
    );
    // Player 2 withdrew after round 3: 2 points, rounds 4 and 5 as draws.
    let d = explain(&t, 1, 5).unwrap();
    match &d.rounds[0].counted {
        Counted::Opponent {
            opponent,
            actual,
            adjusted,
            as_draws,
        } => {
            assert_eq!(*opponent, 2);
            assert_eq!((*actual, *adjusted), (4, 6));
            assert_eq!(as_draws, &vec![(4, 0), (5, 0)]);
        }
        other => panic!("{other:?}"),
    }
    // Player 6: zero-point bye in round 3, then ½ and 0 byes to the end:
    // rounds 3–5 come after the last round 6 played (round 2), all draws.
    match &d.rounds[1].counted {
        Counted::Opponent {
            adjusted, as_draws, ..
        } => {
            assert_eq!(t.score(6), 3);
            assert_eq!(*adjusted, 2 + 3);
            assert_eq!(as_draws, &vec![(3, 0), (4, 1), (5, 0)]);
        }
        other => panic!("{other:?}"),
    }
    // Player 3's opponent 4 last played in round 2: the zero-point byes of
    // rounds 3 and 5 count as draws, the forfeit loss of round 4 (a game
    // was paired) keeps its 0.
    let d3 = explain(&t, 3, 5).unwrap();
    match &d3.rounds[0].counted {
        Counted::Opponent {
            opponent,
            actual,
            adjusted,
            ..
        } => assert_eq!((*opponent, *actual, *adjusted), (4, 2, 4)),
        other => panic!("{other:?}"),
    }
}

/// A player with 4½ of 5 and a half-point bye in round 5.
fn strong_bye() -> Tournament {
    event(
        System::Swiss,
        6,
        &[
            (&[(1, 2, WhiteWins), (3, 4, Draw), (5, 6, Draw)], &[]),
            (&[(3, 1, BlackWins), (2, 5, Draw), (4, 6, Draw)], &[]),
            (&[(1, 4, WhiteWins), (2, 6, Draw), (5, 3, Draw)], &[]),
            (&[(5, 1, BlackWins), (6, 3, Draw), (2, 4, Draw)], &[]),
            (&[(2, 3, Draw), (4, 5, Draw)], &[(1, Half), (6, Zero)]),
        ],
    )
}

/// Article 16.4 (2024 text): the dummy opponent of a player's own unplayed
/// round has the player's own score.
#[test]
fn article_16_4_2024_the_dummy_has_the_players_score() {
    let mut t = strong_bye();
    t.tiebreak_rules = Some(Rules::V2024);
    assert_eq!(t.score(1), 9);
    let d = explain(&t, 1, 5).unwrap();
    assert_eq!(
        d.rounds[4].counted,
        Counted::Dummy {
            own: 9,
            cap: None,
            value: 9
        }
    );
    assert!(d.rounds[4].voluntary);
}

/// Article 16.4.2 (2026 amendment): a bye's dummy opponent has at most half
/// the rounds' points: min(4½, 2½) = 2½. Buchholz falls by 2.
#[test]
fn article_16_4_2_2026_caps_a_byes_dummy_at_half_the_rounds() {
    let mut t = strong_bye();
    t.tiebreak_rules = Some(Rules::V2024);
    let bh_2024 = values(&t, &[TieBreak::Buchholz], 1)[0];
    t.tiebreak_rules = Some(Rules::V2026);
    let d = explain(&t, 1, 5).unwrap();
    assert_eq!(
        d.rounds[4].counted,
        Counted::Dummy {
            own: 9,
            cap: Some(Cap::HalfTheRounds(5)),
            value: 5
        }
    );
    let bh_2026 = values(&t, &[TieBreak::Buchholz], 1)[0];
    assert_eq!(bh_2024 - bh_2026, 2.0);
    // Sonneborn-Berger: the bye's ½ times 2½ instead of times 4½.
    t.tiebreak_rules = Some(Rules::V2024);
    let sb_2024 = values(&t, &[TieBreak::SonnebornBerger], 1)[0];
    t.tiebreak_rules = Some(Rules::V2026);
    let sb_2026 = values(&t, &[TieBreak::SonnebornBerger], 1)[0];
    assert_eq!(sb_2024 - sb_2026, 1.0);
}

/// Article 16.4.1 (2026 amendment): a forfeit's dummy opponent has at most
/// the real opponent's adjusted score.
#[test]
fn article_16_4_1_2026_caps_a_forfeits_dummy_at_the_opponents_score() {
    let mut t = event(
        System::Swiss,
        4,
        &[
            (&[(1, 2, WhiteWins), (3, 4, WhiteWins)], &[]),
            (&[(3, 1, BlackWins), (4, 2, Draw)], &[]),
            (&[(1, 4, WhiteForfeitWin), (2, 3, Draw)], &[]),
        ],
    );
    t.tiebreak_rules = Some(Rules::V2026);
    let d = explain(&t, 1, 3).unwrap();
    // Player 1 has 3; player 4 has ½ (adjusted ½: 4 paired in every round).
    assert_eq!(
        d.rounds[2].counted,
        Counted::Dummy {
            own: 6,
            cap: Some(Cap::Opponent {
                opponent: 4,
                adjusted: 1
            }),
            value: 1
        }
    );
    assert!(!d.rounds[2].voluntary, "a forfeit win is not voluntary");
    t.tiebreak_rules = Some(Rules::V2024);
    let d = explain(&t, 1, 3).unwrap();
    assert_eq!(
        d.rounds[2].counted,
        Counted::Dummy {
            own: 6,
            cap: None,
            value: 6
        }
    );
}

/// Articles 14 and 16.5: a cut takes a voluntarily unplayed round first,
/// even when it is not the lowest value; the median then cuts the highest.
#[test]
fn articles_14_and_16_5_the_cut_takes_a_voluntarily_unplayed_round_first() {
    let mut t = strong_bye();
    t.tiebreak_rules = Some(Rules::V2024);
    let d = explain(&t, 1, 5).unwrap();
    assert_eq!(d.cut_low, Some(5), "the half-point bye, worth 4½");
    let v = values(
        &t,
        &[
            TieBreak::Buchholz,
            TieBreak::BuchholzCut1,
            TieBreak::MedianBuchholz,
        ],
        1,
    );
    assert_eq!(v[1], v[0] - 4.5);
    let highest = d
        .rounds
        .iter()
        .filter(|r| r.round != 5)
        .map(|r| r.buchholz.unwrap())
        .max()
        .unwrap();
    assert_eq!(v[2], v[1] - highest as f64 / 2.0);
    assert_eq!(
        d.cut_high.map(|r| d.rounds[r as usize - 1].buchholz),
        Some(Some(highest))
    );
}

/// Koya (C.07): the threshold is one figure, half the maximum possible
/// score of the tournament; an opponent's absences do not lower it.
#[test]
fn koya_threshold_is_half_the_maximum_possible_score() {
    let t = event(
        System::Swiss,
        6,
        &[
            (&[(1, 3, WhiteWins), (2, 4, Draw), (5, 6, Draw)], &[]),
            (&[(3, 4, WhiteWins), (1, 2, Draw)], &[(5, Zero), (6, Zero)]),
            (&[(3, 5, Draw), (1, 6, WhiteWins)], &[(2, Zero), (4, Zero)]),
            (
                &[(1, 4, WhiteWins), (2, 5, WhiteWins)],
                &[(3, Zero), (6, Zero)],
            ),
        ],
    );
    assert_eq!(explain(&t, 1, 4).unwrap().koya_threshold, 4, "2 of 4");
    // Player 3 scored 1½ in the 3 rounds 3 played (half of them) but less
    // than 2: does not count. Player 2 has 2: counts.
    assert_eq!((t.score(3), t.score(2)), (3, 4));
    // Player 1: beat 3 (no), drew 2 (½), beat 6 and 4 (½ each: no).
    assert_eq!(values(&t, &[TieBreak::Koya], 1), vec![0.5]);
    let d = explain(&t, 1, 4).unwrap();
    let counted: Vec<bool> = d.rounds.iter().map(|r| r.koya).collect();
    assert_eq!(counted, vec![false, true, false, false]);
}

/// Article 6.1: tied participants who have all met are ranked by the
/// points scored among them.
#[test]
fn article_6_1_all_met_points_among_them() {
    let t = event(
        System::RoundRobin { double: false },
        4,
        &[
            (&[(1, 4, WhiteWins), (2, 3, WhiteWins)], &[]),
            (&[(4, 3, BlackWins), (1, 2, WhiteWins)], &[]),
            (&[(2, 4, Draw), (3, 1, WhiteWins)], &[]),
        ],
    );
    // 1 and 3 on 2 points; 3 beat 1.
    let mut t = t;
    t.tiebreaks = vec![TieBreak::DirectEncounter];
    let s = compute(&t);
    assert_eq!((s[0].player, s[1].player), (3, 1));
    assert_eq!((s[0].tiebreaks[0], s[1].tiebreaks[0]), (1.0, 0.0));
    assert_eq!((s[0].rank, s[1].rank), (1, 2));
}

/// Article 6.2: tied players who have not all met (a Swiss event): one who
/// beat both others, who never met each other, scored more than either of
/// them could have: ranked first; the other two stay tied (6.3: direct
/// encounter again among them separates no one).
#[test]
fn article_6_2_not_all_met_the_winner_of_both_is_first() {
    let mut t = event(
        System::Swiss,
        6,
        &[
            (
                &[(1, 2, WhiteWins), (3, 4, WhiteWins), (5, 6, WhiteWins)],
                &[],
            ),
            (
                &[(3, 1, BlackWins), (2, 5, WhiteWins), (4, 6, BlackWins)],
                &[],
            ),
            (
                &[(4, 1, WhiteWins), (2, 6, WhiteWins), (3, 5, WhiteWins)],
                &[],
            ),
        ],
    );
    t.tiebreaks = vec![TieBreak::DirectEncounter];
    let s = compute(&t);
    assert_eq!((t.score(1), t.score(2), t.score(3)), (4, 4, 4));
    assert!([4, 5, 6].iter().all(|&p| t.score(p) == 2));
    assert_eq!(s[0].player, 1, "{s:?}");
    assert_eq!(s[0].tiebreaks[0], 2.0, "ranked above both");
    assert_eq!(
        (s[0].rank, s[1].rank, s[2].rank),
        (1, 2, 2),
        "2 and 3 stay tied"
    );
    assert_eq!((s[1].tiebreaks[0], s[2].tiebreaks[0]), (0.0, 0.0));
}

/// Article 6.2: no one is separated while a missing game could still
/// change the order: 1 beat 2, 2 beat 3, 1 and 3 never met (1 has 1 point
/// among them, 3 could have had 1 too).
#[test]
fn article_6_2_a_missing_game_that_could_change_the_order_separates_no_one() {
    let mut t = event(
        System::Swiss,
        6,
        &[
            (
                &[(1, 2, WhiteWins), (3, 4, WhiteWins), (5, 6, WhiteWins)],
                &[],
            ),
            (
                &[(2, 3, WhiteWins), (1, 5, WhiteWins), (4, 6, BlackWins)],
                &[],
            ),
            (
                &[(4, 1, WhiteWins), (2, 6, WhiteWins), (3, 5, WhiteWins)],
                &[],
            ),
        ],
    );
    t.tiebreaks = vec![TieBreak::DirectEncounter];
    let s = compute(&t);
    let tied: Vec<_> = s.iter().filter(|x| [1, 2, 3].contains(&x.player)).collect();
    assert!(tied.iter().all(|x| x.points == 4), "{tied:?}");
    assert!([4, 5, 6].iter().all(|&p| t.score(p) == 2));
    assert!(
        tied.iter().all(|x| x.tiebreaks[0] == 0.0 && x.rank == 1),
        "{tied:?}"
    );
}

/// Issue 64 item 2: in a round robin the rest (the bye of an odd number of
/// players) contributes nothing to Sonneborn-Berger: three players, each
/// beating one other, have SB 1, not 1½.
#[test]
fn round_robin_rest_contributes_nothing_to_sonneborn_berger() {
    let t = event(
        System::RoundRobin { double: false },
        3,
        &[
            (&[(2, 3, WhiteWins)], &[(1, Zero)]),
            (&[(3, 1, WhiteWins)], &[(2, Zero)]),
            (&[(1, 2, WhiteWins)], &[(3, Zero)]),
        ],
    );
    for p in 1..=3 {
        assert_eq!(values(&t, &[TieBreak::SonnebornBerger], p), vec![1.0]);
        let d = explain(&t, p, 3).unwrap();
        let rest = d
            .rounds
            .iter()
            .find(|r| r.counted == Counted::Nothing)
            .unwrap();
        assert_eq!((rest.buchholz, rest.sonneborn_berger), (None, None));
    }
}

/// Round robins (pre-determined pairings): a forfeited game counts as
/// played against the scheduled opponent, with the opponent's score.
#[test]
fn round_robin_forfeit_counts_the_scheduled_opponent() {
    let t = event(
        System::RoundRobin { double: false },
        4,
        &[
            (&[(1, 4, WhiteForfeitWin), (2, 3, Draw)], &[]),
            (&[(4, 3, BlackWins), (1, 2, Draw)], &[]),
            (&[(2, 4, WhiteWins), (3, 1, Draw)], &[]),
        ],
    );
    // Player 1: 1 (forfeit win over 4, who has 0) + ½·2 + ½·2 = 2.
    assert_eq!(values(&t, &[TieBreak::SonnebornBerger], 1), vec![2.0]);
    let d = explain(&t, 1, 3).unwrap();
    assert!(matches!(
        d.rounds[0].counted,
        Counted::Opponent { opponent: 4, .. }
    ));
}

/// Issue 64 item 2: the Buchholz family is not offered for a round robin;
/// an organiser who names it gets a clear error.
#[test]
fn buchholz_is_not_offered_for_round_robins() {
    let rr = System::RoundRobin { double: false };
    let offered = TieBreak::offered(rr);
    assert!(!offered.iter().any(|tb| tb.is_buchholz()));
    assert!(offered.contains(&TieBreak::SonnebornBerger));
    assert_eq!(TieBreak::offered(System::Swiss), TieBreak::ALL.to_vec());
    let err =
        TieBreak::check_for(rr, &[TieBreak::SonnebornBerger, TieBreak::BuchholzCut1]).unwrap_err();
    assert_eq!(err, TorneoError::TieBreakNotForRoundRobin("BH-C1".into()));
    let text = escaque::Localized::message(&err, escaque::Lang::Es);
    assert!(
        text.contains("BH-C1") && text.contains("round robin"),
        "{text}"
    );
    assert!(TieBreak::check_for(System::Swiss, &TieBreak::ALL).is_ok());
    assert!(TieBreak::check_for(rr, &TieBreak::default_order(rr)).is_ok());
}

/// C.07, rating-based tie-breaks: with unrated players ARO is dropped
/// unless the organiser sets the rating they count with.
#[test]
fn aro_with_unrated_players_is_dropped_or_uses_the_organisers_rating() {
    let mut t = zero_bye_example();
    t.tiebreaks = vec![TieBreak::AverageRatingOpponents];
    assert!(dropped(&t).is_empty());
    t.players[1].rating = None;
    assert_eq!(
        dropped(&t),
        vec![(TieBreak::AverageRatingOpponents, Dropped::UnratedPlayers)]
    );
    assert!(compute(&t).iter().all(|s| s.tiebreaks == vec![0.0]));
    t.unrated_rating = Some(1000);
    assert!(dropped(&t).is_empty());
    // Player 1 met 2 (unrated: 1000), 3, 4, 6, 6.
    let r = |p: usize| u32::from(t.players[p - 1].rating.unwrap_or(1000));
    let want = (1000 + r(3) + r(4) + r(6) + r(6)) as f64 / 5.0;
    assert_eq!(
        values(&t, &[TieBreak::AverageRatingOpponents], 1),
        vec![want.round()]
    );
}

/// The version of C.07 follows the start date (TRF 042); the 2026
/// amendment applies to events starting on or after 1 March 2026; the
/// organiser may choose.
#[test]
fn the_version_follows_the_start_date_unless_the_organiser_chooses() {
    assert_eq!(Rules::for_date("2026/02/28"), Rules::V2024);
    assert_eq!(Rules::for_date("2026/03/01"), Rules::V2026);
    assert_eq!(Rules::for_date("2025-12-20"), Rules::V2024);
    assert_eq!(Rules::for_date("01.03.2026"), Rules::V2026);
    assert_eq!(Rules::for_date("28/02/2026"), Rules::V2024);
    assert_eq!(Rules::for_date("26/03/07"), Rules::V2026);
    assert_eq!(Rules::for_date(""), Rules::V2026, "no date: today's rules");
    assert_eq!(Rules::for_date("pronto"), Rules::V2026);
    let mut t = strong_bye();
    t.start_date = "2025/10/04".into();
    assert_eq!(Rules::of(&t), Rules::V2024);
    t.tiebreak_rules = Some(Rules::V2026);
    assert_eq!(Rules::of(&t), Rules::V2026);
    assert_eq!(
        Rules::V2026.heading(escaque::Lang::Es),
        "Desempates según FIDE C.07, versión 2026"
    );
    assert_eq!(Rules::from_id("2023"), Some(Rules::V2024));
    assert_eq!(Rules::from_id("2025"), None);
}

/// The explanation agrees with the standings it explains.
#[test]
fn the_explanation_gives_the_standings_values() {
    let mut t = strong_bye();
    t.tiebreaks = vec![
        TieBreak::BuchholzCut1,
        TieBreak::Buchholz,
        TieBreak::SonnebornBerger,
        TieBreak::Koya,
    ];
    for p in 1..=6 {
        let d = explain(&t, p, 5).unwrap();
        let row = compute_after(&t, 5)
            .into_iter()
            .find(|s| s.player == p)
            .unwrap();
        let values: Vec<f64> = d.values.iter().map(|v| v.1).collect();
        assert_eq!(values, row.tiebreaks);
        let bh: u32 = d.rounds.iter().filter_map(|r| r.buchholz).sum();
        assert_eq!(bh as f64 / 2.0, row.tiebreaks[1]);
        let sb: u32 = d.rounds.iter().filter_map(|r| r.sonneborn_berger).sum();
        assert_eq!(sb as f64 / 4.0, row.tiebreaks[2]);
    }
    assert!(matches!(
        explain(&t, 9, 5),
        Err(TorneoError::NoSuchPlayer(9))
    ));
}
