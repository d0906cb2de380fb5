//! The judgement: winning chances, lichess's marks at every threshold for
//! both colours, every mate rule (with lila issues #18262 and #15616),
//! move and game accuracy against lichess's own test figures, ACPL.

use escaque::Color;
use escaque_analysis::judge::{
    self, average_centipawn_loss, centipawn_loss, game_accuracy, judge, mate_sequence,
    move_accuracy, win_percent, winning_chances, MateSequence, WIN_CHANCE_K,
};
use escaque_analysis::{Eval, Judgement};
use proptest::prelude::*;

use Eval::{Cp, Mate};
use Judgement::{Blunder, Inaccuracy, Mistake};

/// The centipawns (White's view) whose winning chances are `wc`.
fn cp_for_wc(wc: f64) -> f64 {
    ((1.0 + wc) / (1.0 - wc)).ln() / WIN_CHANCE_K
}

#[test]
fn winning_chances_follow_the_fitted_logistic() {
    assert_eq!(winning_chances(Cp(0)), 0.0);
    let wc = winning_chances(Cp(100));
    let expected = 2.0 / (1.0 + (-WIN_CHANCE_K * 100.0).exp()) - 1.0;
    assert!((wc - expected).abs() < 1e-12);
    assert!((winning_chances(Cp(-100)) + wc).abs() < 1e-12);
    // Clamped at ±1000, and a mate counts as the ceiling.
    assert_eq!(winning_chances(Cp(5000)), winning_chances(Cp(1000)));
    assert_eq!(winning_chances(Mate(3)), winning_chances(Cp(1000)));
    assert_eq!(winning_chances(Mate(-1)), winning_chances(Cp(-1000)));
    assert_eq!(win_percent(Cp(0)), 50.0);
    assert!(win_percent(Mate(2)) > 95.0);
    assert!(win_percent(Mate(-2)) < 5.0);
}

/// The mark for White's move from `before` to the position whose winning
/// chances are those of `before` minus `loss` (± `nudge` centipawns).
fn white_mark(before: i32, loss: f64, nudge: f64) -> Option<Judgement> {
    let target = winning_chances(Cp(before)) - loss;
    let after = (cp_for_wc(target) + nudge).round() as i32;
    judge(Cp(before), Some(Cp(after)), Color::White)
}

fn black_mark(before: i32, loss: f64, nudge: f64) -> Option<Judgement> {
    // Black loses when White's chances rise.
    let target = winning_chances(Cp(before)) + loss;
    let after = (cp_for_wc(target) - nudge).round() as i32;
    judge(Cp(before), Some(Cp(after)), Color::Black)
}

#[test]
fn every_threshold_for_white() {
    for before in [0, 150, -200, 400] {
        // 2 cp past the threshold is marked; 2 cp short of it is the mark below.
        assert_eq!(white_mark(before, 0.1, -2.0), Some(Inaccuracy), "{before}");
        assert_eq!(white_mark(before, 0.1, 2.0), None, "{before}");
        assert_eq!(white_mark(before, 0.2, -2.0), Some(Mistake), "{before}");
        assert_eq!(white_mark(before, 0.2, 2.0), Some(Inaccuracy), "{before}");
        assert_eq!(white_mark(before, 0.3, -2.0), Some(Blunder), "{before}");
        assert_eq!(white_mark(before, 0.3, 2.0), Some(Mistake), "{before}");
    }
}

#[test]
fn every_threshold_for_black() {
    for before in [0, -150, 200, -400] {
        assert_eq!(black_mark(before, 0.1, -2.0), Some(Inaccuracy), "{before}");
        assert_eq!(black_mark(before, 0.1, 2.0), None, "{before}");
        assert_eq!(black_mark(before, 0.2, -2.0), Some(Mistake), "{before}");
        assert_eq!(black_mark(before, 0.2, 2.0), Some(Inaccuracy), "{before}");
        assert_eq!(black_mark(before, 0.3, -2.0), Some(Blunder), "{before}");
        assert_eq!(black_mark(before, 0.3, 2.0), Some(Mistake), "{before}");
    }
}

#[test]
fn gaining_or_a_lost_position_is_never_marked() {
    assert_eq!(judge(Cp(0), Some(Cp(300)), Color::White), None);
    assert_eq!(judge(Cp(0), Some(Cp(-300)), Color::Black), None);
    // Beyond the ±1000 ceiling nothing more is lost.
    assert_eq!(judge(Cp(-1200), Some(Cp(-3000)), Color::White), None);
    assert_eq!(judge(Cp(2500), Some(Cp(1100)), Color::White), None);
}

#[test]
fn a_move_that_mates_is_never_marked() {
    assert_eq!(judge(Cp(0), None, Color::White), None);
    assert_eq!(judge(Mate(3), None, Color::White), None);
    assert_eq!(judge(Cp(-900), None, Color::Black), None);
}

#[test]
fn walking_into_a_forced_mate() {
    // White, from a level position: a blunder.
    assert_eq!(judge(Cp(0), Some(Mate(-3)), Color::White), Some(Blunder));
    assert_eq!(judge(Cp(650), Some(Mate(-1)), Color::White), Some(Blunder));
    // Already below −7 pawns: a mistake; below −9.99: an inaccuracy.
    assert_eq!(judge(Cp(-750), Some(Mate(-3)), Color::White), Some(Mistake));
    assert_eq!(judge(Cp(-700), Some(Mate(-3)), Color::White), Some(Blunder));
    assert_eq!(
        judge(Cp(-1000), Some(Mate(-3)), Color::White),
        Some(Inaccuracy)
    );
    // Black, mirrored.
    assert_eq!(judge(Cp(0), Some(Mate(2)), Color::Black), Some(Blunder));
    assert_eq!(judge(Cp(750), Some(Mate(2)), Color::Black), Some(Mistake));
    assert_eq!(
        judge(Cp(1500), Some(Mate(2)), Color::Black),
        Some(Inaccuracy)
    );
    assert_eq!(
        mate_sequence(Cp(0), Some(Mate(2)), Color::Black),
        Some(MateSequence::Created)
    );
}

#[test]
fn losing_a_forced_mate() {
    assert_eq!(judge(Mate(4), Some(Cp(300)), Color::White), Some(Blunder));
    assert_eq!(judge(Mate(4), Some(Cp(800)), Color::White), Some(Mistake));
    assert_eq!(
        judge(Mate(4), Some(Cp(1200)), Color::White),
        Some(Inaccuracy)
    );
    // Letting the opponent mate instead.
    assert_eq!(judge(Mate(1), Some(Mate(-1)), Color::White), Some(Blunder));
    // Black, mirrored.
    assert_eq!(judge(Mate(-4), Some(Cp(-300)), Color::Black), Some(Blunder));
    assert_eq!(judge(Mate(-4), Some(Cp(-800)), Color::Black), Some(Mistake));
    assert_eq!(
        judge(Mate(-4), Some(Cp(-1200)), Color::Black),
        Some(Inaccuracy)
    );
    assert_eq!(judge(Mate(-2), Some(Mate(5)), Color::Black), Some(Blunder));
    assert_eq!(
        mate_sequence(Mate(-4), Some(Cp(0)), Color::Black),
        Some(MateSequence::Lost)
    );
}

#[test]
fn a_slower_mate_is_never_marked() {
    for (n, m) in [(1, 2), (3, 4), (6, 7), (2, 12)] {
        assert_eq!(judge(Mate(n), Some(Mate(m)), Color::White), None);
        assert_eq!(judge(Mate(-n), Some(Mate(-m)), Color::Black), None);
        assert_eq!(mate_sequence(Mate(n), Some(Mate(m)), Color::White), None);
    }
    // Finding a mate, or being mated sooner when already being mated.
    assert_eq!(judge(Cp(200), Some(Mate(5)), Color::White), None);
    assert_eq!(judge(Mate(-5), Some(Mate(-2)), Color::White), None);
    assert_eq!(judge(Mate(5), Some(Mate(-2)), Color::Black), None);
    // Escaping a mate.
    assert_eq!(judge(Mate(-3), Some(Cp(-100)), Color::White), None);
}

/// lila issue #18262: 27.Bxg6 turned White's mate in 6 into a mate in 7,
/// and lichess called it "Lost forced checkmate sequence" `??`. A slower
/// mate is no mark (and analyse_game's second look keeps a horizon from
/// making one: tests/analyse.rs).
#[test]
fn lila_18262_mate_in_6_to_mate_in_7_is_no_mark() {
    assert_eq!(judge(Mate(6), Some(Mate(7)), Color::White), None);
    assert_eq!(mate_sequence(Mate(6), Some(Mate(7)), Color::White), None);
}

/// lila issue #15616: 33...e4 in a position where White already mated in
/// two was called "Checkmate is now unavoidable" `??`. Still mate in two:
/// no mark.
#[test]
fn lila_15616_already_mated_is_no_mark() {
    assert_eq!(judge(Mate(2), Some(Mate(2)), Color::Black), None);
    assert_eq!(judge(Mate(3), Some(Mate(2)), Color::Black), None);
    assert_eq!(mate_sequence(Mate(2), Some(Mate(2)), Color::Black), None);
}

// ------------------------------------------------------------ accuracy

#[test]
fn move_accuracy_as_lichess() {
    assert_eq!(move_accuracy(50.0, 50.0), 100.0);
    assert_eq!(move_accuracy(40.0, 60.0), 100.0);
    // 103.1668 · e^(−0.0435442 · 20) − 3.1669 + 1
    let a = move_accuracy(60.0, 40.0);
    let expected = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51f64 * 20.0).exp()
        - 3.166_924_740_191_411
        + 1.0;
    assert!((a - expected).abs() < 1e-9, "{a}");
    assert!((a - 41.0).abs() < 0.5, "{a}");
    assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    assert!(move_accuracy(50.0, 49.0) <= 100.0);
}

/// lichess's win percentage with its own constant, for its test figures.
fn lichess_wp(cp: i32) -> f64 {
    let cp = cp.clamp(-1000, 1000) as f64;
    50.0 + 50.0 * (2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0)
}

/// lila's `gameAccuracy(startColor, cps)`: the start counts as +15 cp.
fn lichess_game(first: Color, cps: &[i32]) -> (Option<f64>, Option<f64>) {
    let wps: Vec<f64> = std::iter::once(15)
        .chain(cps.iter().copied())
        .map(lichess_wp)
        .collect();
    game_accuracy(&wps, first)
}

fn close(v: Option<f64>, target: f64, tol: f64) {
    let v = v.expect("an accuracy");
    assert!(
        (v - target).abs() <= tol,
        "{v} not within {tol} of {target}"
    );
}

/// lila's `AccuracyPercentTest` figures, case by case.
#[test]
fn game_accuracy_matches_lichess_test_figures() {
    use Color::{Black, White};
    assert_eq!(lichess_game(White, &[]), (None, None));
    let (w, b) = lichess_game(White, &[15]);
    assert!(w.is_some() && b.is_none());
    let (w, b) = lichess_game(White, &[15, 15]);
    close(w, 100.0, 1.0);
    close(b, 100.0, 1.0);
    let (w, b) = lichess_game(White, &[-900, -900]);
    close(w, 10.0, 5.0);
    close(b, 100.0, 1.0);
    let (w, b) = lichess_game(White, &[15, 900]);
    close(w, 100.0, 1.0);
    close(b, 10.0, 5.0);
    let (w, b) = lichess_game(White, &[-900, 0]);
    close(w, 10.0, 5.0);
    close(b, 10.0, 5.0);
    let (w, b) = lichess_game(White, &[15; 20]);
    close(w, 100.0, 1.0);
    close(b, 100.0, 1.0);
    let mut cps = vec![15; 20];
    cps.push(-900);
    let (w, b) = lichess_game(White, &cps);
    close(w, 50.0, 5.0);
    close(b, 100.0, 1.0);
    let mut cps = vec![15; 21];
    cps.push(900);
    let (w, b) = lichess_game(White, &cps);
    close(w, 100.0, 1.0);
    close(b, 50.0, 5.0);
    for (n, bad, target) in [
        (5, -50, 76.0),
        (50, -50, 76.0),
        (50, -135, 54.0),
        (50, -435, 20.0),
    ] {
        let cps: Vec<i32> = (0..n).flat_map(|_| [bad, 15]).collect();
        let (w, b) = lichess_game(White, &cps);
        close(w, target, 8.0);
        close(b, target, 8.0);
    }
    // Black moves first.
    let (w, b) = lichess_game(Black, &[15, 15]);
    close(b, 100.0, 1.0);
    close(w, 100.0, 1.0);
    let (w, b) = lichess_game(Black, &[900, 900]);
    close(b, 10.0, 5.0);
    close(w, 100.0, 1.0);
    let (w, b) = lichess_game(Black, &[15, -900]);
    close(b, 100.0, 1.0);
    close(w, 10.0, 5.0);
    let (w, b) = lichess_game(Black, &[900, 0]);
    close(b, 10.0, 5.0);
    close(w, 10.0, 5.0);
}

#[test]
fn centipawn_loss_as_lichess() {
    assert_eq!(centipawn_loss(Cp(50), Some(Cp(-30)), Color::White), 80);
    assert_eq!(centipawn_loss(Cp(50), Some(Cp(90)), Color::White), 0);
    assert_eq!(centipawn_loss(Cp(-20), Some(Cp(100)), Color::Black), 120);
    // Clamped at ±1000; a mate is the ceiling.
    assert_eq!(centipawn_loss(Cp(3000), Some(Cp(0)), Color::White), 1000);
    assert_eq!(centipawn_loss(Cp(0), Some(Mate(-2)), Color::White), 1000);
    assert_eq!(centipawn_loss(Mate(3), Some(Mate(-3)), Color::White), 2000);
    assert_eq!(centipawn_loss(Cp(0), None, Color::Black), 0);
    assert_eq!(average_centipawn_loss(&[10, 20, 31]), 20);
    assert_eq!(average_centipawn_loss(&[]), 0);
}

// ------------------------------------------------------------ properties

fn any_eval() -> impl Strategy<Value = Eval> {
    prop_oneof![
        any::<i32>().prop_map(Cp),
        (-3000i32..3000).prop_map(Cp),
        any::<i32>().prop_map(Mate),
        (-30i32..30).prop_map(Mate),
    ]
}

fn rank(j: Option<Judgement>) -> u8 {
    match j {
        None => 0,
        Some(Inaccuracy) => 1,
        Some(Mistake) => 2,
        Some(Blunder) => 3,
    }
}

proptest! {
    #[test]
    fn judging_never_panics(b in any_eval(), a in proptest::option::of(any_eval()), white in any::<bool>()) {
        let mover = if white { Color::White } else { Color::Black };
        let _ = judge(b, a, mover);
        let _ = centipawn_loss(b, a, mover);
        let wc = winning_chances(b);
        prop_assert!((-1.0..=1.0).contains(&wc));
        let acc = move_accuracy(win_percent(b), a.map_or(50.0, win_percent));
        prop_assert!((0.0..=100.0).contains(&acc));
    }

    #[test]
    fn marks_grow_with_the_loss(b in -1500i32..1500, a1 in -1500i32..1500, a2 in -1500i32..1500, white in any::<bool>()) {
        let mover = if white { Color::White } else { Color::Black };
        // a_worse is worse for the mover than a_better.
        let (lo, hi) = (a1.min(a2), a1.max(a2));
        let (worse, better) = if white { (lo, hi) } else { (hi, lo) };
        prop_assert!(rank(judge(Cp(b), Some(Cp(worse)), mover)) >= rank(judge(Cp(b), Some(Cp(better)), mover)));
        prop_assert!(judge::judgement_for_loss(f64::NAN).is_none());
    }

    #[test]
    fn game_accuracy_stays_in_range(wps in proptest::collection::vec(0.0f64..=100.0, 0..120), white in any::<bool>()) {
        let first = if white { Color::White } else { Color::Black };
        let (w, b) = game_accuracy(&wps, first);
        for v in [w, b].into_iter().flatten() {
            prop_assert!((0.0..=100.0 + 1e-9).contains(&v), "{}", v);
        }
    }
}

#[test]
fn judging_on_another_scale() {
    use escaque_analysis::judge::{judge_with, LICHESS_WIN_CHANCE_K};
    // A loss of 0.1 in lichess's winning chances from level: about 54 cp.
    let edge = (1.1f64 / 0.9).ln() / LICHESS_WIN_CHANCE_K;
    let just_over = -(edge.ceil() as i32) - 1;
    let just_under = -(edge.floor() as i32) + 1;
    assert_eq!(
        judge_with(
            LICHESS_WIN_CHANCE_K,
            Cp(0),
            Some(Cp(just_over)),
            Color::White
        ),
        Some(Inaccuracy)
    );
    assert_eq!(
        judge_with(
            LICHESS_WIN_CHANCE_K,
            Cp(0),
            Some(Cp(just_under)),
            Color::White
        ),
        None
    );
    // escaque's constant is larger: the same loss is marked from fewer centipawns.
    const { assert!(WIN_CHANCE_K > LICHESS_WIN_CHANCE_K) };
    assert_eq!(
        judge(Cp(0), Some(Cp(just_under)), Color::White),
        Some(Inaccuracy)
    );
    // Mates do not depend on the constant.
    assert_eq!(
        judge_with(LICHESS_WIN_CHANCE_K, Cp(0), Some(Mate(-2)), Color::White),
        Some(Blunder)
    );
}
