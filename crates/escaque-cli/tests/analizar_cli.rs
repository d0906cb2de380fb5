//! `escaque analizar` run as a user runs it: the annotated PGN read back by
//! escaque's reader, the summaries, the errors; with escaque's own engine,
//! with Debian's Stockfish (`scripts/stockfish.sh`; `ESCAQUE_STOCKFISH` names
//! another path) and with `escaque uci` itself as the UCI engine.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use escaque::pgn::{PgnGame, PgnReader};
use escaque::Position;
use escaque_analysis::uci_engine::{Timeouts, UciEvaluator};
use escaque_analysis::{Eval, Evaluator, Settings};

use crate::common;

/// Two games sharing their opening; in the first, 3... Nf6?? allows mate.
const GAMES: &str = "[White \"Ana\"]\n[Black \"Beto\"]\n[Result \"1-0\"]\n\n\
    1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n\
    [White \"Carla\"]\n[Black \"Dani\"]\n[Result \"*\"]\n\n\
    1. e4 e5 2. Ac4 Cc6 3. Cf3 Cf6 *\n";

fn read_all(text: &str) -> Vec<PgnGame> {
    PgnReader::new(text.as_bytes())
        .map(|g| g.expect("the output reads back"))
        .collect()
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every move that does not checkmate has an evaluation at the start of its
/// first comment.
fn assert_every_move_evaluated(g: &PgnGame) {
    let mut pos = g.start;
    for n in &g.moves {
        pos.play(n.mv).unwrap();
        if pos.is_checkmate() {
            assert!(n.comments.is_empty(), "{:?}", n.comments);
        } else {
            assert!(
                n.comments.first().is_some_and(|c| c.starts_with("[%eval ")),
                "{:?}",
                n.comments
            );
        }
    }
}

fn stockfish() -> String {
    let path = std::env::var("ESCAQUE_STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".into());
    assert!(
        std::path::Path::new(&path).exists(),
        "{path} is missing: install Stockfish with scripts/stockfish.sh"
    );
    path
}

/// A script that runs `escaque uci` (an engine path takes no arguments).
fn escaque_uci_script() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("escaque-analizar-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("escaque-uci.sh");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nexec '{}' uci \"$@\"\n",
            env!("CARGO_BIN_EXE_escaque")
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn analyses_a_file_in_spanish_and_english() {
    let (out, err, ok) = common::run_raw(&["analizar"], GAMES);
    assert!(ok, "{err}");
    let games = read_all(&out);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_every_move_evaluated(g);
        assert_eq!(g.tag("Annotator"), Some("escaque"));
    }
    assert_eq!(games[0].moves[5].nags, [4], "{out}");
    assert!(
        flat(&out)
            .contains("3... Nf6 $4 {[%eval #1] Error grave. El mate ya es inevitable. Era mejor"),
        "{out}"
    );
    assert_eq!(games[0].moves[5].variations.len(), 1);
    // The positions the two games share have the same evaluations (one
    // cache for the file).
    for i in 0..4 {
        assert_eq!(games[0].moves[i].mv, games[1].moves[i].mv);
        assert_eq!(
            games[0].moves[i].comments[0].split(']').next(),
            games[1].moves[i].comments[0].split(']').next()
        );
    }
    // A summary per game, on standard error.
    assert!(
        err.contains("Partida 1 (Ana – Beto, 1-0): 7 medias jugadas."),
        "{err}"
    );
    assert!(err.contains("Negras: precisión"), "{err}");
    assert!(err.contains("1 error grave"), "{err}");
    assert!(err.contains("Partida 2 (Carla – Dani, *)"), "{err}");

    let (out, err, ok) = common::run_raw(&["analyse", "--depth", "5", "--idioma", "en"], GAMES);
    assert!(ok, "{err}");
    assert!(
        flat(&out).contains("3... Nf6 $4 {[%eval #1] Blunder. Checkmate is now unavoidable."),
        "{out}"
    );
    assert!(out.contains("was best."), "{out}");
    assert!(err.contains("Game 1 (Ana – Beto, 1-0): 7 plies."), "{err}");
    assert!(err.contains("1 blunder"), "{err}");
}

/// The first game of `testing/analysis-reference/games.pgn` (a real game
/// between engines, 125 plies, no opening tags): 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6
/// 4. Ba4 Nf6 5. O-O Bc5, the Ruy Lopez's Møller Variation.
fn first_reference_game() -> String {
    let all = include_str!("../../../testing/analysis-reference/games.pgn");
    let second = all[1..].find("\n[Event ").expect("a second game") + 1;
    all[..second].to_string()
}

#[test]
fn the_opening_is_tagged_in_spanish_and_english() {
    let game = first_reference_game();
    assert!(!game.contains("[Opening ") && !game.contains("[ECO "));
    for (idioma, name) in [
        ("es", "Apertura española: defensa Morphy, variante Møller"),
        ("en", "Ruy Lopez: Morphy Defense, Møller Variation"),
    ] {
        let (out, err, ok) = common::run_raw(
            &["analizar", "--profundidad", "2", "--idioma", idioma],
            &game,
        );
        assert!(ok, "{err}");
        let games = read_all(&out);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves.len(), 125);
        assert_eq!(games[0].tag("ECO"), Some("C78"), "{out}");
        assert_eq!(games[0].tag("Opening"), Some(name), "{out}");
    }
}

#[test]
fn writes_the_output_file_and_reads_standard_input() {
    let dir = std::env::temp_dir().join(format!("escaque-analizar-o-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("partidas.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let output = dir.join("anotadas.pgn");
    let (out, err, ok) = common::run_raw(
        &[
            "analizar",
            input.to_str().unwrap(),
            "-o",
            output.to_str().unwrap(),
            "--nodos",
            "3000",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.is_empty());
    let games = read_all(&std::fs::read_to_string(&output).unwrap());
    assert_eq!(games.len(), 2);
    games.iter().for_each(assert_every_move_evaluated);
}

#[test]
fn bad_games_are_reported_with_their_line_and_the_others_analysed() {
    let input = format!("{GAMES}\n[White \"X\"]\n\n1. e4 e5\n2. Ke3 *\n");
    let (out, err, ok) = common::run_raw(&["analizar", "--profundidad", "3"], &input);
    assert!(!ok, "a game has an error, so the exit status says so");
    assert_eq!(read_all(&out).len(), 2, "the good games are written");
    assert!(err.contains("partida 3"), "{err}");
    assert!(err.contains("línea 16"), "{err}");
    assert!(err.contains("1 de 3 partida(s) con errores"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let (_, err, ok) = common::run_raw(
        &["analizar", "--motor-analisis", "/nonexistent/engine"],
        GAMES,
    );
    assert!(!ok);
    assert!(
        err.contains("motor de análisis: no se pudo arrancar el motor /nonexistent/engine"),
        "{err}"
    );
    // It stops before reading its input (here more than a pipe holds).
    let (_, err, ok) = common::run_raw(
        &["analizar", "/nonexistent/partidas.pgn"],
        &GAMES.repeat(2000),
    );
    assert!(!ok);
    assert!(
        err.contains("no se puede abrir /nonexistent/partidas.pgn"),
        "{err}"
    );
}

#[test]
fn stockfish_as_the_analysis_engine() {
    let sf = stockfish();
    let (out, err, ok) = common::run_raw(
        &["analizar", "--motor-analisis", &sf, "--nodos", "50000"],
        GAMES,
    );
    assert!(ok, "{err}");
    let games = read_all(&out);
    assert_eq!(games.len(), 2);
    games.iter().for_each(assert_every_move_evaluated);
    assert!(
        games[0].tag("Annotator").unwrap().starts_with("Stockfish"),
        "{out}"
    );
    assert_eq!(games[0].moves[5].nags, [4], "{out}");
}

#[test]
fn escaque_uci_as_the_analysis_engine() {
    let script = escaque_uci_script();
    // Through the UCI evaluator directly: several lines, mate from White's view.
    let mut ev = UciEvaluator::start(
        &script,
        &[],
        Settings {
            depth: Some(6),
            nodes: None,
        },
        Timeouts::default(),
    )
    .unwrap();
    assert!(ev.name().starts_with("escaque"), "{}", ev.name());
    let stop = AtomicBool::new(false);
    let lines = ev.evaluate(&Position::new(), &[], 3, &stop).unwrap();
    assert_eq!(lines.len(), 3);
    let black_mates = Position::from_fen("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1").unwrap();
    let l = ev.evaluate(&black_mates, &[], 1, &stop).unwrap();
    assert_eq!(l[0].eval, Eval::Mate(-1));
    drop(ev);
    // And as `--motor-analisis`.
    let (out, err, ok) = common::run_raw(
        &[
            "analizar",
            "--motor-analisis",
            script.to_str().unwrap(),
            "--profundidad",
            "5",
        ],
        GAMES,
    );
    assert!(ok, "{err}");
    let games = read_all(&out);
    games.iter().for_each(assert_every_move_evaluated);
    assert_eq!(games[0].moves[5].nags, [4], "{out}");
}
