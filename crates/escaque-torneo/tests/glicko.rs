//! Glicko-2 against the published numbers: Glickman's worked example and
//! lichess's calculator tests (scalachess
//! `test-kit/src/test/scala/rating/glicko/GlickoCalculatorTest.scala`,
//! `GlickoCalculatorWithColorAdvantageTest.scala` and
//! `impl/RatingCalculatorTest.scala`, the last also lila's
//! `modules/rating/src/test/RatingCalculatorTest.scala`), each checked to
//! the tolerance its source uses; and the property that a game moves two
//! players with equal deviations by equal and opposite amounts.

use escaque_torneo::glicko::{
    rate, rate_game, ColorAdvantage, Glicko, GlickoError, Opponent, MAX_DEVIATION, MIN_DEVIATION,
};
use proptest::prelude::*;

fn close(what: &str, got: f64, want: f64, tolerance: f64) {
    assert!(
        (got - want).abs() <= tolerance,
        "{what}: {got} is not within {tolerance} of {want}"
    );
}

fn g(rating: f64, deviation: f64, volatility: f64) -> Glicko {
    Glicko {
        rating,
        deviation,
        volatility,
    }
}

#[test]
fn glickmans_example() {
    // "Example of the Glicko-2 system", section on the example: a 1500
    // player (RD 200, σ 0.06) beats a 1400 (RD 30) and loses to a 1550
    // (RD 100) and a 1700 (RD 300), τ = 0.5, one rating period.
    let opp = |rating, deviation, score| Opponent {
        glicko: g(rating, deviation, 0.06),
        score,
        advantage: 0.0,
    };
    let games = [
        opp(1400.0, 30.0, 1.0),
        opp(1550.0, 100.0, 0.0),
        opp(1700.0, 300.0, 0.0),
    ];
    let r = rate(g(1500.0, 200.0, 0.06), &games, 1.0, 0.5).unwrap();
    // The paper rounds every intermediate value (μ' = -0.2069): computed
    // exactly the rating is 1464.0507, within 0.01 of its 1464.06.
    close("rating", r.rating, 1464.06, 0.01);
    close("deviation", r.deviation, 151.52, 0.005);
    // σ' = 0.059996, which the paper writes 0.05999.
    close("volatility", r.volatility, 0.05999, 0.00001);
}

#[test]
fn a_player_without_games_only_widens() {
    let r = rate(g(1500.0, 200.0, 0.06), &[], 1.0, 0.5).unwrap();
    assert_eq!(r.rating, 1500.0);
    assert!(r.deviation > 200.0);
}

/// One game as lichess computes it: (white, black) after.
fn game(white: Glicko, black: Glicko, white_score: f64, adv: ColorAdvantage) -> (Glicko, Glicko) {
    let [w, b] = rate_game(white, black, white_score, adv).unwrap();
    (w, b)
}

#[test]
fn lichess_rating_calculator_test() {
    // scalachess impl/RatingCalculatorTest.scala (and lila's former
    // RatingCalculatorTest.scala): no colour advantage.
    let z = ColorAdvantage::ZERO;
    let d = Glicko::DEFAULT;
    let (w, b) = game(d, d, 1.0, z);
    close("w", w.rating, 1741.0, 1.0);
    close("b", b.rating, 1258.0, 1.0);
    close("w rd", w.deviation, 396.0, 1.0);
    close("b rd", b.deviation, 396.0, 1.0);
    close("w vol", w.volatility, 0.0899983, 0.00000001);
    close("b vol", b.volatility, 0.0899983, 0.0000001);
    let (w, b) = game(d, d, 0.0, z);
    close("w", w.rating, 1258.0, 1.0);
    close("b", b.rating, 1741.0, 1.0);
    let (w, b) = game(d, d, 0.5, z);
    close("w", w.rating, 1500.0, 1.0);
    close("b", b.rating, 1500.0, 1.0);
    close("w rd", w.deviation, 396.0, 1.0);
    close("w vol", w.volatility, 0.0899954, 0.0000001);
    close("b vol", b.volatility, 0.0899954, 0.0000001);

    let old = g(1500.0, 80.0, 0.06);
    let (w, b) = game(old, old, 1.0, z);
    close("w", w.rating, 1517.0, 1.0);
    close("b", b.rating, 1482.0, 1.0);
    close("w rd", w.deviation, 78.0, 1.0);
    close("w vol", w.volatility, 0.06, 0.00001);
    let (w, b) = game(old, old, 0.5, z);
    close("w", w.rating, 1500.0, 1.0);
    close("b", b.rating, 1500.0, 1.0);

    let (wp, bp) = (g(1400.0, 79.0, 0.06), g(1550.0, 110.0, 0.065));
    let (w, b) = game(wp, bp, 1.0, z);
    close("w", w.rating, 1422.0, 1.0);
    close("b", b.rating, 1506.0, 1.0);
    close("w rd", w.deviation, 77.0, 1.0);
    close("b rd", b.deviation, 105.0, 1.0);
    let (w, b) = game(wp, bp, 0.0, z);
    close("w", w.rating, 1389.0, 1.0);
    close("b", b.rating, 1568.0, 1.0);
    let (w, b) = game(wp, bp, 0.5, z);
    close("w", w.rating, 1406.0, 1.0);
    close("b", b.rating, 1537.0, 1.0);
    close("b rd", b.deviation, 105.87, 0.01);

    let (wp, bp) = (g(1200.0, 60.0, 0.053), g(1850.0, 200.0, 0.062));
    let (w, b) = game(wp, bp, 1.0, z);
    close("w", w.rating, 1216.7, 0.1);
    close("b", b.rating, 1636.0, 0.1);
    close("w rd", w.deviation, 59.9, 0.1);
    close("b rd", b.deviation, 196.9, 0.1);
    close("w vol", w.volatility, 0.053013, 0.000001);
    close("b vol", b.volatility, 0.062028, 0.000001);
    let (w, b) = game(wp, bp, 0.0, z);
    close("w", w.rating, 1199.3, 0.1);
    close("b", b.rating, 1855.4, 0.1);
    close("w vol", w.volatility, 0.052999, 0.000001);
    close("b vol", b.volatility, 0.061999, 0.000001);
    let (w, b) = game(wp, bp, 0.5, z);
    close("w", w.rating, 1208.0, 0.1);
    close("b", b.rating, 1745.7, 0.1);
    close("w vol", w.volatility, 0.053002, 0.000001);
    close("b vol", b.volatility, 0.062006, 0.000001);
}

#[test]
fn lichess_glicko_calculator_test() {
    // scalachess GlickoCalculatorTest.scala: the tighter tolerances.
    let z = ColorAdvantage::ZERO;
    let p = g(1500.0, 350.0, 0.06);
    for (score, wr, br, vol) in [
        (1.0, 1662.21, 1337.79, 0.0599993),
        (0.0, 1337.79, 1662.21, 0.0599993),
        (0.5, 1500.0, 1500.0, 0.0599977),
    ] {
        let (w, b) = game(p, p, score, z);
        close("w", w.rating, wr, 0.005);
        close("b", b.rating, br, 0.005);
        assert_eq!(w.deviation, b.deviation);
        close("rd", w.deviation, 290.2305, 0.00005);
        assert_eq!(w.volatility, b.volatility);
        close("vol", w.volatility, vol, 0.0000001);
    }
    let (wp, bp) = (g(1400.0, 79.0, 0.06), g(1550.0, 110.0, 0.065));
    for (score, wr, br) in [
        (1.0, 1422.63, 1506.32),
        (0.0, 1389.99, 1568.90),
        (0.5, 1406.31, 1537.61),
    ] {
        let (w, b) = game(wp, bp, score, z);
        close("w", w.rating, wr, 0.005);
        close("b", b.rating, br, 0.005);
        close("w rd", w.deviation, 77.4956, 0.00005);
        close("b rd", b.deviation, 105.8706, 0.00005);
        close("w vol", w.volatility, 0.06, 0.00001);
        close("b vol", b.volatility, 0.065, 0.00001);
    }
    let (wp, bp) = (g(1200.0, 60.0, 0.053), g(1850.0, 200.0, 0.062));
    for (score, wr, br, wv, bv) in [
        (1.0, 1216.73, 1635.99, 0.053013, 0.062028),
        (0.0, 1199.29, 1855.42, 0.052999, 0.061999),
        (0.5, 1208.01, 1745.71, 0.053002, 0.062006),
    ] {
        let (w, b) = game(wp, bp, score, z);
        close("w", w.rating, wr, 0.005);
        close("b", b.rating, br, 0.005);
        close("w rd", w.deviation, 59.9006, 0.00005);
        close("b rd", b.deviation, 196.9873, 0.00005);
        close("w vol", w.volatility, wv, 0.000001);
        close("b vol", b.volatility, bv, 0.000001);
    }
}

#[test]
fn lichess_colour_advantage_test() {
    // scalachess GlickoCalculatorWithColorAdvantageTest.scala, the
    // standard advantage (the one escaque applies to standard chess).
    let s = ColorAdvantage::STANDARD;
    let p = g(1500.0, 350.0, 0.06);
    for (score, wr, br, vol) in [
        (1.0, 1658.56, 1341.44, 0.0599992),
        (0.0, 1334.08, 1665.92, 0.0599993),
        (0.5, 1496.32, 1503.68, 0.0599977),
    ] {
        let (w, b) = game(p, p, score, s);
        close("w", w.rating, wr, 0.005);
        close("b", b.rating, br, 0.005);
        assert_eq!(w.deviation, b.deviation);
        close("rd", w.deviation, 290.2538, 0.00005);
        close("vol", w.volatility, vol, 0.0000001);
    }
    let (wp, bp) = (g(1400.0, 79.0, 0.06), g(1550.0, 110.0, 0.065));
    for (score, wr, br) in [
        (1.0, 1422.16, 1507.28),
        (0.0, 1389.55, 1569.75),
        (0.5, 1405.85, 1538.51),
    ] {
        let (w, b) = game(wp, bp, score, s);
        close("w", w.rating, wr, 0.005);
        close("b", b.rating, br, 0.005);
        close("w rd", w.deviation, 77.4603, 0.00005);
        close("b rd", b.deviation, 105.7716, 0.00005);
    }
    let (wp, bp) = (g(1200.0, 60.0, 0.053), g(1850.0, 200.0, 0.062));
    for (score, wr, br, wv, bv) in [
        (1.0, 1216.68, 1636.77, 0.053013, 0.062028),
        (0.0, 1199.25, 1855.77, 0.052999, 0.061999),
    ] {
        let (w, b) = game(wp, bp, score, s);
        close("w", w.rating, wr, 0.005);
        close("b", b.rating, br, 0.005);
        close("w rd", w.deviation, 59.8952, 0.00005);
        close("b rd", b.deviation, 196.7954, 0.00005);
        close("w vol", w.volatility, wv, 0.000001);
        close("b vol", b.volatility, bv, 0.000001);
    }
}

#[test]
fn the_deviation_grows_with_time_away_and_is_capped() {
    let day = 86_400_000;
    // lila: 0.21436 periods a day, "chosen so a typical player's RD goes
    // from 60 to 110 in one year" (σ 0.06).
    let typical = g(1500.0, 60.0, 0.06);
    assert!(!typical.provisional());
    close("a year", typical.aged(365 * day).deviation, 110.0, 0.1);
    assert!(typical.aged(366 * day).provisional());
    assert!(!typical.aged(300 * day).provisional());
    // From the floor: sqrt(45² + 365 × 0.21436 × (0.06 × 173.7178)²).
    let settled = g(1500.0, MIN_DEVIATION, 0.06);
    close("from 45", settled.aged(365 * day).deviation, 102.59, 0.01);
    assert_eq!(
        g(1500.0, 490.0, 0.09).aged(3650 * day).deviation,
        MAX_DEVIATION
    );
    assert_eq!(settled.aged(-day), settled);
    assert_eq!(settled.aged(0), settled);
}

#[test]
fn capped_after_a_game_and_shown_as_lichess_shows_it() {
    let low = g(420.0, 46.0, 0.09);
    let (w, _) = game(low, g(2400.0, 46.0, 0.09), 0.0, ColorAdvantage::ZERO);
    assert!(w.rating >= 400.0);
    assert!(w.deviation >= MIN_DEVIATION);
    assert_eq!(Glicko::DEFAULT.display(), "1500?");
    assert_eq!(g(1623.9, 80.0, 0.06).display(), "1623");
    assert_eq!(g(1623.9, 110.0, 0.06).display(), "1623?");
    assert_eq!(Glicko::MANAGED.display(), "800?");
}

#[test]
fn unusable_numbers_are_refused() {
    let d = Glicko::DEFAULT;
    let nan = g(f64::NAN, 100.0, 0.06);
    assert_eq!(
        rate_game(nan, d, 1.0, ColorAdvantage::ZERO),
        Err(GlickoError::BadInput)
    );
    assert_eq!(
        rate_game(d, g(1500.0, 0.0, 0.06), 1.0, ColorAdvantage::ZERO),
        Err(GlickoError::BadInput)
    );
    assert_eq!(
        rate_game(d, d, 1.5, ColorAdvantage::ZERO),
        Err(GlickoError::BadInput)
    );
}

proptest! {
    /// Equal deviations: what one player gains the other loses (to within
    /// rounding), whatever the ratings, volatilities, result and advantage.
    #[test]
    fn equal_deviations_move_by_opposite_amounts(
        wr in 600.0f64..2800.0,
        br in 600.0f64..2800.0,
        rd in 45.0f64..500.0,
        wv in 0.04f64..0.1,
        bv in 0.04f64..0.1,
        score in prop::sample::select(vec![0.0, 0.5, 1.0]),
        adv in prop::sample::select(vec![0.0, 11.782457]),
    ) {
        let white = g(wr, rd, wv);
        let black = g(br, rd, bv);
        let [w, b] = rate_game(white, black, score, ColorAdvantage(adv)).unwrap();
        // Unless the rating floor (400) cut a loss short.
        prop_assume!(w.rating > 400.0 && b.rating > 400.0);
        let sum = (w.rating - wr) + (b.rating - br);
        prop_assert!(sum.abs() < 1e-6, "sum of changes {sum}");
    }
}
