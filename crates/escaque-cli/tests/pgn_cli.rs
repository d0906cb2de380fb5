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

// ---------------------------------------------------------------- issue 30

#[test]
fn convert_keeps_a_result_tag_the_movetext_disagrees_with_and_says_so() {
    let input = "[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 *\n";
    let (out, err, ok) = escaque(&["pgn", "convertir", "--notacion", "en"], input);
    assert!(ok, "{err}");
    assert!(out.contains("[Result \"1-0\"]"), "{out}");
    assert!(out.contains("2. Qh5 Nc6 *"), "{out}");
    assert!(
        err.contains("aviso: partida 1, línea 4, columna 21: la etiqueta Result dice 1-0 y las jugadas terminan en *"),
        "{err}"
    );
    let (out, _, ok) = escaque(&["pgn", "revisar"], input);
    assert!(ok);
    assert!(out.contains("AVISO: partida 1, línea 4"), "{out}");
    let (out, _, _) = escaque(&["--idioma", "en", "pgn", "check", "--json"], input);
    assert!(
        out.contains("\"warnings\":[{\"code\":\"result_mismatch\",\"line\":4,\"column\":21,\"reason\":\"the Result tag says 1-0 and the movetext ends in *: both are kept\"}]"),
        "{out}"
    );
}

#[test]
fn a_round_file_without_moves_keeps_the_result_tag_in_check_and_convert() {
    // Pairing programs publish a round's games before they are entered: tags,
    // no moves, `*`, and the result in the tag once it is known.
    let input = "[Event \"Open\"]\n[Round \"3.1\"]\n[White \"Ana\"]\n[Black \"Luis\"]\n\
                 [Result \"1-0\"]\n\n*\n\n\
                 [Event \"Open\"]\n[Round \"3.2\"]\n[White \"Eva\"]\n[Black \"Pau\"]\n\
                 [Result \"1/2-1/2\"]\n\n*\n";
    let (out, err, ok) = escaque(&["--idioma", "en", "pgn", "check", "--json"], input);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].contains("\"result\":\"1-0\""), "{}", lines[0]);
    assert!(lines[1].contains("\"result\":\"1/2-1/2\""), "{}", lines[1]);
    assert!(
        lines[0].contains("\"code\":\"result_from_tag\",\"line\":7,\"column\":1"),
        "{}",
        lines[0]
    );
    let (out, err, ok) = escaque(&["pgn", "convertir", "--notacion", "en"], input);
    assert!(ok, "{err}");
    assert!(out.contains("[Result \"1-0\"]\n\n1-0\n"), "{out}");
    assert!(out.contains("[Result \"1/2-1/2\"]\n\n1/2-1/2\n"), "{out}");
    assert!(
        err.contains("aviso: partida 1, línea 7, columna 1: la partida no tiene jugadas y termina en *, pero la etiqueta Result dice 1-0"),
        "{err}"
    );
}

#[test]
fn comments_after_the_result_make_no_game_when_converting() {
    let input =
        "[Event \"Arena\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\
                 ; { Game Nr. 1 : A wins by mate\n";
    let (out, err, ok) = escaque(&["pgn", "convertir", "--notacion", "en"], input);
    assert!(ok, "{err}");
    assert_eq!(out.matches("[Event ").count(), 1, "{out}");
    assert!(
        out.contains("4. Qxf7# {{ Game Nr. 1 : A wins by mate} 1-0"),
        "{out}"
    );
}

#[test]
fn a_variant_escaque_does_not_play_is_refused_by_its_tag() {
    let input = "[Event \"Crazyhouse Bullet Arena\"]\n[Variant \"Crazyhouse\"]\n\n\
                 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@b4 *\n";
    let (out, _, ok) = escaque(&["pgn", "revisar"], input);
    assert!(!ok);
    assert!(
        out.contains("ERROR: partida 1, línea 2, columna 1: la partida es de la variante «Crazyhouse» (etiqueta Variant), que escaque no juega"),
        "{out}"
    );
    assert!(!out.contains("P@b4"), "{out}");
}

#[test]
fn piping_into_a_reader_that_stops_is_quiet() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let game =
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n\n";
    let input = game.repeat(3000);
    for args in [
        &["pgn", "convertir", "--notacion", "es"][..],
        &["pgn", "revisar"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_escaque"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let text = input.clone();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
        // `| head -n 1`: one line read, then the pipe is closed.
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(!first.is_empty());
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.is_empty(), "{args:?}: {err}");
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
    }
}

#[test]
fn the_language_ambiguity_names_the_squares() {
    let input = "[FEN \"4k3/8/8/8/8/8/8/4K2R w - - 0 1\"]\n\n1. Rf1 *\n";
    let (out, _, ok) = escaque(&["pgn", "revisar"], input);
    assert!(!ok);
    assert!(
        out.contains("\"Rf1\" es ambigua: puede ser Re1-f1 (en español, R = rey) o Th1-f1 (en inglés, R = torre)"),
        "{out}"
    );
}
