//! `escaque muerta` (alias `dead`), run as a user runs it.

use crate::common;

use common::{run_raw, run_with_input};

#[test]
fn bare_kings_are_dead_and_a_rook_can_mate_in_spanish() {
    let out = run_with_input(
        &[
            "muerta",
            "8/8/4k3/8/8/8/4K3/8 w - - 0 1",
            "8/8/4k3/8/8/8/4K3/R7 w - - 0 1",
        ],
        "",
    );
    let blocks: Vec<&str> = out.split("\n8/").collect();
    assert_eq!(blocks.len(), 2, "{out}");
    assert!(blocks[0].contains("Blancas: no pueden dar mate"), "{out}");
    assert!(blocks[0].contains("posición muerta"), "{out}");
    // The rook's side: a helpmate line in Spanish SAN ending in mate.
    let white = blocks[1].lines().find(|l| l.contains("Blancas:")).unwrap();
    assert!(white.contains("pueden dar mate: 1."), "{white}");
    assert!(white.trim_end().ends_with('#'), "{white}");
    assert!(white.contains('T'), "Spanish SAN names the rook T: {white}");
    assert!(blocks[1].contains("Negras: no pueden dar mate"), "{out}");
}

#[test]
fn json_lines_from_standard_input_in_english() {
    let input = "# a comment\n\n8/8/4k3/8/3p4/8/4KN2/8 w - - 0 1\n4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1\n";
    let out = run_with_input(&["--idioma", "en", "dead", "--json"], input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    // K+N v K+P: both sides can mate; the lines are English SAN.
    assert!(lines[0].starts_with("{\"fen\":\"8/8/4k3/8/3p4/8/4KN2/8 w - - 0 1\""));
    assert!(lines[0].contains("\"white\":\"winnable\""), "{}", lines[0]);
    assert!(lines[0].contains("\"black\":\"winnable\""), "{}", lines[0]);
    assert!(lines[0].contains("N"), "{}", lines[0]);
    assert!(lines[0].contains("\"position\":\"alive\""), "{}", lines[0]);
    // The wall with a bishop that cannot break it: dead.
    assert!(
        lines[1].contains("\"white\":\"unwinnable\""),
        "{}",
        lines[1]
    );
    assert!(
        lines[1].contains("\"black\":\"unwinnable\""),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains("\"white_line\":null"), "{}", lines[1]);
    assert!(lines[1].contains("\"position\":\"dead\""), "{}", lines[1]);
}

#[test]
fn a_bad_fen_is_reported_and_the_rest_goes_on() {
    let (out, err, ok) = run_raw(
        &["muerta", "--json"],
        "not a fen\n8/8/4k3/8/8/8/4K3/8 w - - 0 1\n",
    );
    assert!(!ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].contains("\"error\":"), "{out}");
    assert!(lines[1].contains("\"white\":\"unwinnable\""), "{out}");
    assert!(err.contains("1 de 2 FEN no válidos"), "{err}");
}
