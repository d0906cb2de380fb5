//! The tuner's logistic fit moves weights the way the results say.

use escaque::Position;
use escaque_engine::eval::{MATERIAL, N_PARAMS};
use escaque_engine::WEIGHTS;
use escaque_tune::{error, fit, handmade, parse_line, Sample};

#[test]
fn parses_training_lines() {
    let s = parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1").unwrap();
    assert_eq!(s.result, 1.0);
    assert!(s
        .features
        .iter()
        .any(|&(i, c)| i as usize == MATERIAL + 4 && c == 1));
    assert!(parse_line("not a fen;1").is_none());
    assert!(parse_line("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").is_none());
}

#[test]
fn a_winning_queen_gains_value() {
    let mut samples = Vec::new();
    for (fen, r) in [
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 1.0),
        ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", 0.0),
        ("4k3/8/8/8/8/8/8/Q3K3 b - - 0 1", 1.0),
        ("q3k3/8/8/8/8/8/8/4K3 b - - 0 1", 0.0),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0.5),
    ] {
        samples.push(Sample::new(&Position::from_fen(fen).unwrap(), r));
    }
    let mut start = handmade();
    start[MATERIAL + 4] = [0, 0];
    let before: Vec<[f64; 2]> = start.iter().map(|p| [p[0] as f64, p[1] as f64]).collect();
    let e0 = error(&samples, &before, 1.0);
    let w = fit(&samples, &start, 1.0, 200, 2.0, 0.0, |_, _| {});
    assert!(w[MATERIAL + 4][1] > 100.0, "{:?}", w[MATERIAL + 4]);
    assert!(error(&samples, &w, 1.0) < e0);
    assert_eq!(w.len(), N_PARAMS);
}

#[test]
fn shipped_weights_are_complete() {
    assert_eq!(WEIGHTS.len(), N_PARAMS);
    // In both phases material is ordered pawn < minor pieces < rook < queen,
    // with knight and bishop within half a pawn of each other.
    for phase in [0usize, 1] {
        let m: Vec<i16> = WEIGHTS[MATERIAL..MATERIAL + 5]
            .iter()
            .map(|w| w[phase])
            .collect();
        assert!(m[0] < m[1].min(m[2]), "{m:?}");
        assert!((m[1] - m[2]).abs() <= 50, "{m:?}");
        assert!(m[1].max(m[2]) < m[3] && m[3] < m[4], "{m:?}");
    }
}

#[test]
fn the_search_scores_constant_is_recovered_from_its_own_results() {
    use escaque_tune::{fit_k_scores, parse_scored, score_error};
    assert_eq!(
        parse_scored("4k3/8/8/8/8/8/8/3QK3 w - - 0 1;0.5;-37"),
        Some((-37.0, 0.5))
    );
    assert_eq!(parse_scored("4k3/8/8/8/8/8/8/3QK3 w - - 0 1;1"), None);
    // Results that are exactly the expected score of a known K: the fit
    // finds that K, and any other K predicts them worse.
    let k = 1.4;
    let pairs: Vec<(f64, f64)> = (-60..=60)
        .map(|i| {
            let cp = i as f64 * 20.0;
            (cp, 1.0 / (1.0 + (-k * cp / 400.0).exp()))
        })
        .collect();
    let fitted = fit_k_scores(&pairs, 2000.0);
    assert!((fitted - k).abs() < 1e-3, "{fitted}");
    assert!(score_error(&pairs, fitted, 2000.0) < score_error(&pairs, 1.6, 2000.0));
    // Clamping: beyond the ceiling every score counts as the ceiling.
    assert_eq!(
        score_error(&[(5000.0, 1.0)], 1.0, 1000.0),
        score_error(&[(1000.0, 1.0)], 1.0, 1000.0)
    );
}
