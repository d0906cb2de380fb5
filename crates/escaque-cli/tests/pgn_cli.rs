//! `escaque pgn convertir` and `escaque pgn revisar` run as a user runs them.

use crate::common;

fn escaque(args: &[&str], stdin: &str) -> (String, String, bool) {
    common::run_raw(args, stdin)
}

const SPANISH: &str = "[White \"Morphy\"]\n[Black \"Aficionados\"]\n[Result \"1-0\"]\n\n\
    1.e4 e5 2.Cf3 d6 3.d4 Ag4 4.dxe5 Axf3 5.Dxf3 dxe5 6.Ac4 Cf6 7.Db3 De7 8.Cc3 c6 \
    9.Ag5 b5 10.Cxb5 cxb5 11.Axb5+ Cbd7 12.0-0-0 Td8 13.Txd7 Txd7 14.Td1 De6 \
    15.Axd7+ Cxd7 16.Db8+ Cxb8 17.Td8# 1-0\n";

#[test]
fn converts_spanish_to_english_and_back() {
    let (en, err, ok) = escaque(&["pgn", "convertir", "--notacion", "en"], SPANISH);
    assert!(ok, "{err}");
    assert!(en.starts_with("[Event \"?\"]\n"));
    assert!(en.contains("12. O-O-O Rd8 13. Rxd7 Rxd7"), "{en}");
    assert!(en.contains("17. Rd8# 1-0"), "{en}");
    // English alias, and back to Spanish.
    let (es, err, ok) = escaque(&["pgn", "convert", "--notation", "es"], &en);
    assert!(ok, "{err}");
    assert!(es.contains("12. 0-0-0 Td8 13. Txd7 Txd7"), "{es}");
}

#[test]
fn checks_games_as_json_lines() {
    let input = format!("{SPANISH}\n1. e4 e5 2. Ke3 *\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
    let (out, err, ok) = escaque(&["pgn", "check", "--json"], &input);
    assert!(!ok, "a game has an error, so the exit status says so");
    assert!(err.contains("1 de 3"), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("{\"game\":1,"));
    assert!(lines[0].contains("\"moves\":33"));
    assert!(lines[0].contains("\"termination\":\"checkmate\""));
    assert!(lines[0].contains("\"error\":null"));
    assert!(lines[1].contains("\"game\":2"));
    assert!(lines[1].contains("línea 7, columna 13"), "{}", lines[1]);
    assert!(lines[2].contains(
        "\"final_fen\":\"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\""
    ));
    for field in ["result", "claimable", "termination", "final_fen"] {
        assert!(lines.iter().all(|l| l.contains(&format!("\"{field}\":"))));
    }
}

#[test]
fn reports_claims_in_english() {
    let input = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n";
    let (out, _, ok) = escaque(&["--idioma", "en", "pgn", "revisar"], input);
    assert!(ok);
    assert!(
        out.contains("can be claimed: threefold repetition"),
        "{out}"
    );
}

#[test]
fn a_null_move_is_read_and_reported_not_called_broken() {
    // Black passes at move 3 in a position that then repeats: the game is read
    // to the end, but it is no played game, so no claim or ending is made up.
    let input = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 -- 4. Ng1 Nf6 *\n";
    let (out, err, ok) = escaque(&["pgn", "revisar", "--json"], input);
    assert!(ok, "{err}");
    assert!(out.contains("\"moves\":8"), "{out}");
    assert!(out.contains("\"null_move\":6"), "{out}");
    assert!(out.contains("\"error\":null"), "{out}");
    let (out, _, ok) = escaque(&["pgn", "revisar"], input);
    assert!(ok);
    assert!(
        out.contains("jugada nula (--) en la media jugada 6"),
        "{out}"
    );
    // Written back, the pass is `--`.
    let (out, _, ok) = escaque(&["pgn", "convertir", "--notacion", "en"], input);
    assert!(ok);
    assert!(out.contains("3. Nf3 -- 4. Ng1 Nf6 *"), "{out}");
}
