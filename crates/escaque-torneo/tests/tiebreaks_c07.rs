//! The rest of C.07's individual tie-breaks (issue 58), worked by hand on
//! two small Swiss events; `tests/gacrux.rs` compares every value with
//! Gacrux on 1,000 generated events.

use escaque_torneo::standings::{compute_after, TieBreak};
use escaque_torneo::{trf, System, Tournament};

const HEAD: &str = "012 Hand\n042 2026/03/10\n092 Swiss\nXXR 3\n";

/// Four players, three rounds, every game played:
/// 1 (2000) beats 4 and 3 (with Black), draws 2: 2.5;
/// 2 (1800) draws 3, loses to 4 (with White), draws 1: 1;
/// 3 (1600) draws 2, loses to 1, beats 4 with Black: 1.5;
/// 4 (1400) loses to 1, beats 2 with Black, loses to 3: 1.
const PLAYED: &str = "\
001    1 m    Player 1                          2000 ESP                         2.5    1     4 w 1     3 b 1     2 w =
001    2 m    Player 2                          1800 ESP                         1.0    2     3 b =     4 w 0     1 b =
001    3 m    Player 3                          1600 ESP                         1.5    3     2 w =     1 w 0     4 b 1
001    4 m    Player 4                          1400 ESP                         1.0    4     1 b 0     2 b 1     3 w 0
";

/// The same, but the last round's game 1–2 is forfeited by 2.
const FORFEIT: &str = "\
001    1 m    Player 1                          2000 ESP                         3.0    1     4 w 1     3 b 1     2 w +
001    2 m    Player 2                          1800 ESP                         0.5    2     3 b =     4 w 0     1 b -
001    3 m    Player 3                          1600 ESP                         1.5    3     2 w =     1 w 0     4 b 1
001    4 m    Player 4                          1400 ESP                         1.0    4     1 b 0     2 b 1     3 w 0
";

fn event(players: &str) -> Tournament {
    trf::parse(&format!("{HEAD}{players}")).unwrap()
}

/// The values of `list` for each player, by start number.
fn values(t: &mut Tournament, list: &[TieBreak]) -> Vec<Vec<f64>> {
    t.tiebreaks = list.to_vec();
    let mut rows = compute_after(t, 3);
    rows.sort_by_key(|s| s.player);
    rows.into_iter().map(|s| s.tiebreaks).collect()
}

fn column(t: &mut Tournament, tb: TieBreak) -> Vec<f64> {
    values(t, &[tb]).into_iter().map(|v| v[0]).collect()
}

#[test]
fn counts_by_hand() {
    let mut t = event(PLAYED);
    // BWG: 1 won with Black in round 2, 3 in round 3, 4 in round 2.
    assert_eq!(column(&mut t, TieBreak::BlackWins), [1.0, 0.0, 1.0, 1.0]);
    assert_eq!(column(&mut t, TieBreak::ElectedToPlay), [3.0; 4]);
    assert_eq!(column(&mut t, TieBreak::Standard), [2.5, 1.0, 1.5, 1.0]);
    assert_eq!(
        column(&mut t, TieBreak::Rating),
        [2000.0, 1800.0, 1600.0, 1400.0]
    );
    assert_eq!(
        column(&mut t, TieBreak::PairingNumber),
        [1.0, 2.0, 3.0, 4.0]
    );
}

#[test]
fn pairing_number_ranks_the_lower_first() {
    let mut t = event(PLAYED);
    t.tiebreaks = vec![TieBreak::PairingNumber];
    let order: Vec<u32> = compute_after(&t, 3).iter().map(|s| s.player).collect();
    // 2 and 4 tied on 1 point: 2 first.
    assert_eq!(order, [1, 3, 2, 4]);
    t.tiebreaks = vec![TieBreak::Rating];
    let order: Vec<u32> = compute_after(&t, 3).iter().map(|s| s.player).collect();
    assert_eq!(order, [1, 3, 2, 4]);
}

#[test]
fn koya_limits_by_hand() {
    let mut t = event(PLAYED);
    // The limit is half the rounds' points, 1.5: 1 (2.5) and 3 (1.5)
    // reach it. Half a point lower (1) every opponent counts; half a point
    // higher (2) only 1 reaches it, and only 2 scored against 1 (a draw).
    assert_eq!(column(&mut t, TieBreak::Koya), [1.0, 1.0, 0.0, 0.0]);
    assert_eq!(column(&mut t, TieBreak::KoyaLower1), [2.5, 1.0, 1.5, 1.0]);
    assert_eq!(column(&mut t, TieBreak::KoyaRaised1), [0.0, 0.5, 0.0, 0.0]);
}

#[test]
fn buchholz_and_sonneborn_berger_cuts_by_hand() {
    let mut t = event(PLAYED);
    // 1's opponents: 4 (1), 3 (1.5), 2 (1). BH 3.5; C2 leaves 3's 1.5; M2
    // with three rounds cuts two low and the one left high: 0.
    assert_eq!(column(&mut t, TieBreak::Buchholz)[0], 3.5);
    assert_eq!(column(&mut t, TieBreak::BuchholzCut2)[0], 1.5);
    assert_eq!(column(&mut t, TieBreak::MedianBuchholz2)[0], 0.0);
    // SB of 1: 4 → 1×1, 3 → 1.5×1, 2 → 1×½: 3. The least significant
    // round is the lowest-scored opponent's: 4 and 2 have 1 each, the
    // lower value (2's ½) goes first, then 4's 1.
    assert_eq!(column(&mut t, TieBreak::SonnebornBerger)[0], 3.0);
    assert_eq!(column(&mut t, TieBreak::SonnebornBergerCut1)[0], 2.5);
    assert_eq!(column(&mut t, TieBreak::SonnebornBergerCut2)[0], 1.5);
}

#[test]
fn fore_buchholz_and_average_of_buchholz_by_hand() {
    let mut t = event(PLAYED);
    // Fore: each last-round game a draw. Scores become 1: 2.5, 2: 1,
    // 3: 1, 4: 1.5. FB of 1 = 1.5 + 1 + 1 = 3.5; of 3 = 1 + 2.5 + 1.5 = 5.
    let fb = column(&mut t, TieBreak::ForeBuchholz);
    assert_eq!((fb[0], fb[2]), (3.5, 5.0));
    // BH: 2 = 5, 3 = 4.5, 4 = 5. AOB of 1 = 14.5 / 3 = 4.83.
    assert_eq!(column(&mut t, TieBreak::AverageOfBuchholz)[0], 4.83);
}

#[test]
fn rating_tiebreaks_by_hand() {
    let mut t = event(PLAYED);
    // ARO of 1: (1400 + 1600 + 1800) / 3 = 1600; cut the lowest: 1700;
    // the lowest and highest: 1600.
    assert_eq!(column(&mut t, TieBreak::AverageRatingOpponents)[0], 1600.0);
    assert_eq!(column(&mut t, TieBreak::AverageRatingCut1)[0], 1700.0);
    assert_eq!(column(&mut t, TieBreak::AverageRatingMedian1)[0], 1600.0);
    // TPR = ARO + dp(p): 1: 2.5/3 = 83 % → +273: 1873; 2: ARO 1667,
    // 33 % → −125: 1542; 3: ARO 1733, 50 %: 1733; 4: ARO 1800, 33 %: 1675.
    assert_eq!(
        column(&mut t, TieBreak::PerformanceRating),
        [1873.0, 1542.0, 1733.0, 1675.0]
    );
    // PTP: the lowest rating expected to score the points (FIDE's table,
    // found by counting up one point at a time).
    assert_eq!(
        column(&mut t, TieBreak::PerfectPerformance),
        [1918.0, 1484.0, 1745.0, 1655.0]
    );
    // APRO of 1: (1675 + 1733 + 1542) / 3 = 1650; APPO (1655 + 1745 +
    // 1484) / 3 = 1628.
    assert_eq!(
        column(&mut t, TieBreak::AveragePerformanceOpponents)[0],
        1650.0
    );
    assert_eq!(
        column(&mut t, TieBreak::AveragePerfectPerformanceOpponents)[0],
        1628.0
    );
}

#[test]
fn unplayed_games_by_article_16() {
    let mut t = event(FORFEIT);
    // The forfeit is no game for ratings: 1's ARO (1400 + 1600) / 2 = 1500,
    // 2 of 2 = 100 % → +800: 2300; PTP 736 above the stronger: 2336.
    assert_eq!(column(&mut t, TieBreak::AverageRatingOpponents)[0], 1500.0);
    assert_eq!(column(&mut t, TieBreak::PerformanceRating)[0], 2300.0);
    assert_eq!(column(&mut t, TieBreak::PerfectPerformance)[0], 2336.0);
    // REP: the forfeit win was elected to play, the forfeit loss was not.
    assert_eq!(
        column(&mut t, TieBreak::ElectedToPlay),
        [3.0, 2.0, 3.0, 3.0]
    );
    // WIN counts the forfeit win, BWG does not.
    assert_eq!(column(&mut t, TieBreak::Wins)[0], 3.0);
    assert_eq!(column(&mut t, TieBreak::BlackWins)[0], 1.0);
    // 2's Buchholz: 3 (1.5), 4 (1), a dummy with 2's own 0.5 for the
    // forfeit; C2 cuts the voluntarily unplayed round first, then 4's 1.
    assert_eq!(column(&mut t, TieBreak::Buchholz)[1], 3.0);
    assert_eq!(column(&mut t, TieBreak::BuchholzCut2)[1], 1.5);
    // FB: the last round's forfeit counts as a game against 2, whose fore
    // score is 0.5 − 0 + 0.5 = 1; 4's is 1.5, 3's 1: 3.5.
    assert_eq!(column(&mut t, TieBreak::ForeBuchholz)[0], 3.5);
}

#[test]
fn unrated_players_drop_the_rating_tiebreaks() {
    let unrated = PLAYED.replace(
        "Player 4                          1400",
        "Player 4                              ",
    );
    let mut t = event(&unrated);
    for tb in [
        TieBreak::AverageRatingCut1,
        TieBreak::PerformanceRating,
        TieBreak::PerfectPerformance,
        TieBreak::AveragePerformanceOpponents,
        TieBreak::Rating,
    ] {
        assert!(tb.rating_based());
        assert_eq!(column(&mut t, tb), [0.0; 4], "{}", tb.id());
        assert_eq!(escaque_torneo::standings::dropped(&t).len(), 1);
    }
    // With a rating set for the unrated, 4 counts as 1400 again.
    t.unrated_rating = Some(1400);
    assert_eq!(column(&mut t, TieBreak::PerformanceRating)[0], 1873.0);
}

#[test]
fn the_buchholz_family_is_refused_for_round_robins() {
    let rr = System::RoundRobin { double: false };
    for tb in TieBreak::ALL {
        let refused = TieBreak::check_for(rr, &[tb]).is_err();
        assert_eq!(refused, tb.is_buchholz(), "{}", tb.id());
        assert!(TieBreak::check_for(System::Swiss, &[tb]).is_ok());
    }
    for id in ["BH-C2", "BH-M2", "FB", "AOB"] {
        assert!(TieBreak::from_id(id).unwrap().is_buchholz(), "{id}");
    }
}

#[test]
fn trf_codes_read_back() {
    for tb in TieBreak::ALL {
        let code = trf::tiebreak_code(tb);
        assert_eq!(trf::tiebreak_from_code(&code), Some(tb), "{code}");
        assert_eq!(TieBreak::from_id(tb.id()), Some(tb));
    }
    assert_eq!(trf::tiebreak_code(TieBreak::KoyaLower1), "KS/L-1");
    assert_eq!(trf::tiebreak_code(TieBreak::KoyaRaised1), "KS/L+1");
    assert_eq!(trf::tiebreak_code(TieBreak::SonnebornBergerCut2), "SB/C2");
    assert_eq!(TieBreak::parse_list("TPR, aro/c1 KS/L-1").unwrap().len(), 3);
}
