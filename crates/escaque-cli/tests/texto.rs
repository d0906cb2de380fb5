//! The plain-text mode driven as a script or a screen reader drives it: lines
//! on standard input through a pipe, text read back from standard output.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common;

/// Runs `escaque jugar ARGS --texto`, feeds it `input`, returns its output.
fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["jugar"];
    all.extend_from_slice(args);
    all.push("--texto");
    common::run_with_input(&all, input)
}

const PEOPLE: [&str; 4] = ["--blancas", "humano", "--negras", "humano"];

/// The last board printed, as its eight rank lines.
fn last_board(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    let end = lines
        .iter()
        .rposition(|l| l.starts_with("1 ") || l.starts_with("8 "))
        .expect("a board");
    lines[end - 7..=end].iter().map(|l| l.to_string()).collect()
}

#[test]
fn a_full_game_to_mate_in_spanish() {
    let out = play(&PEOPLE, "f3\ne5\ng4\nDh4\n");
    assert!(
        out.contains("Nueva partida: blancas, persona; negras, persona"),
        "{out}"
    );
    assert!(out.contains("1. f3\n"), "{out}");
    assert!(out.contains("1... e5\n"), "{out}");
    assert!(out.contains("2. g4\n"), "{out}");
    assert!(out.contains("2... Dh4#\n"), "{out}");
    assert!(out.contains("Jaque mate. Ganan las negras (0-1)"), "{out}");
    let board = last_board(&out);
    assert_eq!(board[0], "8  t c a . r a c t  8");
    assert_eq!(board[4], "4  . . . . . . P d  4");
    assert_eq!(board[7], "1  T C A D R A C T  1");
    // After the mate, moves are refused.
    let out = play(&PEOPLE, "f3\ne5\ng4\nDh4\na3\n");
    assert!(out.contains("La partida ha terminado"), "{out}");
}

#[test]
fn stalemate_ends_the_game_drawn() {
    let out = play(
        &[&PEOPLE[..], &["--fen", "k7/8/1Q6/8/8/8/8/7K w - - 0 1"]].concat(),
        "Rg2\n",
    );
    assert!(out.contains("1. Rg2\n"), "{out}");
    assert!(out.contains("Tablas por ahogado (½-½)"), "{out}");
}

#[test]
fn illegal_and_unknown_moves_are_refused_with_their_reason() {
    let out = play(&PEOPLE, "e2e5\nCc4\nzz9\nCf3\n");
    assert!(
        out.contains("Jugada no válida: \"e2e5\" es ilegal: el peón no puede ir a esa casilla"),
        "{out}"
    );
    assert!(
        out.contains("Jugada no válida: ") && out.contains("Cc4"),
        "{out}"
    );
    assert!(out.contains("«zz9» no es una jugada"), "{out}");
    // Nothing changed until the legal move, which is the first one played.
    assert!(out.contains("1. Cf3\n"), "{out}");
    assert!(!out.contains("1. e5") && !out.contains("1. Cc4"), "{out}");
    assert_eq!(last_board(&out)[5], "3  . . . . . C . .  3");
    // An ambiguous move names the candidates and changes nothing.
    let args = [&PEOPLE[..], &["--fen", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"]].concat();
    let out = play(&args, "Cd2\nCbd2\n");
    assert!(
        out.contains("\"Cd2\" es ambigua: puede ser Cbd2 o Cfd2"),
        "{out}"
    );
    assert!(
        out.contains("1. Cbd2\n") && !out.contains("1. Cd2"),
        "{out}"
    );
}

#[test]
fn english_san_and_coordinates_are_read_too() {
    let out = play(&PEOPLE, "Nf3\ng8f6\ne2-e4\n");
    assert!(out.contains("1. Cf3\n"), "{out}");
    assert!(out.contains("1... Cf6\n"), "{out}");
    assert!(out.contains("2. e4\n"), "{out}");
}

#[test]
fn english_interface() {
    let out = play(&[&PEOPLE[..], &["--idioma", "en"]].concat(), "Nf3\nfoo\n");
    assert!(out.contains("1. Nf3\n"), "{out}");
    assert!(out.contains("Black to move"), "{out}");
    assert!(out.contains("\"foo\" is not a move"), "{out}");
    // English letters on the board.
    assert_eq!(last_board(&out)[0], "8  r n b q k b n r  8");
}

#[test]
fn resignation_against_the_engine() {
    let out = play(&["--negras", "motor:1"], "e4\nabandonar\n");
    assert!(
        out.contains("Nueva partida: blancas, persona; negras, motor, nivel 1"),
        "{out}"
    );
    assert!(out.contains("1. e4\n"), "{out}");
    assert!(out.contains("1... "), "the engine answered: {out}");
    assert!(
        out.contains("Las blancas abandonan. Ganan las negras (0-1)"),
        "{out}"
    );
}

#[test]
fn the_engine_can_open_as_white_and_the_board_turns() {
    let out = play(&["--blancas", "motor:1"], "tablero\n");
    assert!(out.contains("1. "), "{out}");
    assert!(out.contains("Juegan las negras"), "{out}");
    // Black at the bottom: rank 1 on top, files h to a.
    assert!(out.contains("   h g f e d c b a"), "{out}");
    assert!(last_board(&out)[0].starts_with("1  "), "{out}");
}

#[test]
fn leaving_a_game_in_progress_asks_first() {
    let out = play(&PEOPLE, "e4\nsalir\nno\n");
    assert!(out.contains("¿Guardarla antes de salir?"), "{out}");
    assert!(out.trim_end().ends_with("¡Hasta la próxima!"), "{out}");
    // Anything else keeps playing.
    let out = play(&PEOPLE, "e4\nsalir\nseguir\ne5\n");
    assert!(out.contains("1... e5"), "{out}");
}

#[test]
fn undo_and_help() {
    let out = play(&PEOPLE, "e4\ndeshacer\nd4\nayuda\n");
    assert!(out.contains("Se deshizo una jugada"), "{out}");
    assert!(out.contains("1. d4\n"), "{out}");
    assert!(out.contains("reclamar"), "{out}");
}

#[test]
fn bad_options_are_errors_that_say_why() {
    let out = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .args(["jugar", "--texto", "--blancas", "motor:12"])
        .env("LANG", "es_ES.UTF-8")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("el nivel del motor va de 1 a 10"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .args(["play", "--text", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"])
        .env("LANG", "en_GB.UTF-8")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid FEN"), "{err}");
}

#[test]
fn threefold_repetition_can_be_claimed() {
    let shuffle = "Cf3\nCf6\nCg1\nCg8\nCf3\nCf6\nCg1\nCg8\n";
    let out = play(&PEOPLE, &format!("{shuffle}reclamar\n"));
    // The start position has appeared for the third time, White to move.
    assert!(
        out.contains("Puedes reclamar tablas por triple repetición"),
        "{out}"
    );
    assert!(out.contains("Tablas por triple repetición (½-½)"), "{out}");
    // Not before: a claim after two appearances is refused, nothing changes.
    let out = play(&PEOPLE, "Cf3\nCf6\nCg1\nCg8\nreclamar\n");
    assert!(out.contains("No hay tablas que reclamar ahora"), "{out}");
    assert!(!out.contains("Tablas por triple"), "{out}");
    // With the move that produces the repetition (FIDE 9.2.1 a).
    let out = play(&PEOPLE, "Cf3\nCf6\nCg1\nCg8\nCf3\nCf6\nCg1\nreclamar Cg8\n");
    assert!(out.contains("4... Cg8\n"), "{out}");
    assert!(out.contains("Tablas por triple repetición (½-½)"), "{out}");
}

#[test]
fn a_game_is_saved_as_pgn_and_loaded_again() {
    let dir = std::env::temp_dir().join(format!("escaque-texto-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("partida.pgn");
    let path = file.to_str().unwrap();
    let out = play(&PEOPLE, &format!("e4\ne5\nCf3\nCc6\nAb5\nguardar {path}\n"));
    assert!(
        out.contains(&format!("Partida guardada en {path}")),
        "{out}"
    );
    let pgn = std::fs::read_to_string(&file).unwrap();
    // Export format: English SAN.
    assert!(pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 *"), "{pgn}");
    assert!(pgn.contains("[White \"persona\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    // Reloaded, the game goes on from where it was.
    let out = play(&PEOPLE, &format!("cargar {path}\na6\nAxc6\n"));
    assert!(out.contains(&format!("Cargada: {path}")), "{out}");
    assert!(out.contains("3... a6\n"), "{out}");
    assert!(out.contains("4. Axc6\n"), "{out}");
    // A FEN typed in place, and a missing file.
    let out = play(
        &PEOPLE,
        "cargar 4k3/8/8/8/8/8/8/4K2R w K - 0 1\n0-0\nsalir\n",
    );
    assert!(out.contains("1. 0-0\n"), "{out}");
    let out = play(
        &PEOPLE,
        &format!("cargar {}\n", dir.join("no-existe.pgn").display()),
    );
    assert!(out.contains("No se pudo usar"), "{out}");
    // A finished game keeps its result.
    let out = play(&PEOPLE, &format!("f3\ne5\ng4\nDh4\nguardar {path}\n"));
    assert!(out.contains("Jaque mate"), "{out}");
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(pgn.contains("2. g4 Qh4# 0-1"), "{pgn}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_clocked_game_is_saved_with_its_times() {
    let dir = std::env::temp_dir().join(format!("escaque-reloj-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("reloj.pgn");
    let path = file.to_str().unwrap();
    let args = [&PEOPLE[..], &["--reloj", "5+3"]].concat();
    let out = play(&args, &format!("d4\nd5\nguardar {path}\n"));
    assert!(out.contains("Blancas 5:0"), "{out}");
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(pgn.contains("[TimeControl \"300+3\"]"), "{pgn}");
    assert!(pgn.contains("[%clk 0:05:0"), "{pgn}");
    assert!(pgn.contains("[Rules \"FIDE 2023\"]"), "{pgn}");
    assert!(pgn.contains("[WhiteClock \"0:05:0"), "{pgn}");
    // Loaded again, the game goes on with the clock it had.
    let out = play(&PEOPLE, &format!("cargar {path}\nCf3\n"));
    assert!(out.contains("2. Cf3\n"), "{out}");
    assert!(out.contains("Blancas 5:0"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn odds_games_and_the_london_rules() {
    // Knight odds against the engine: the engine (Black) gives its b8
    // knight and, giving a piece, moves first (London 1846, art. ii).
    let out = play(
        &["--negras", "motor:1", "--ventaja", "caballo"],
        "tablero\n",
    );
    assert!(out.contains("8  t . a d r a c t  8"), "{out}");
    assert!(out.contains("1... "), "the engine moved first: {out}");
    // The English custom of art. xvi: the stalemated player wins.
    let args = [
        &PEOPLE[..],
        &[
            "--reglas",
            "londres1846-inglaterra",
            "--fen",
            "k7/8/1Q6/8/8/8/8/7K w - - 0 1",
        ],
    ]
    .concat();
    let out = play(&args, "Rg2\n");
    assert!(
        out.contains("Ahogado: según la regla inglesa gana el ahogado. Ganan las negras (0-1)"),
        "{out}"
    );
}

#[test]
fn plain_escaque_opens_a_game_against_the_engine() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .env("LANG", "es_ES.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"e4\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    // Without a terminal it falls back to the plain-text mode.
    assert!(
        out.starts_with("Nueva partida: blancas, persona; negras, motor, nivel 5"),
        "{out}"
    );
    assert!(out.contains("1. e4\n") && out.contains("1... "), "{out}");
    // The game's options work without the subcommand too.
    let mut child = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .args([
            "--text", "--white", "human", "--black", "human", "--lang", "en",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"Nf3\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.starts_with("New game: White, person; Black, person"),
        "{out}"
    );
    assert!(out.contains("1. Nf3\n"), "{out}");
}

#[test]
fn the_engine_plays_within_the_clock() {
    let out = play(&["--negras", "motor:3", "--reloj", "1+0"], "e4\nd4\n");
    assert!(out.contains("negras, motor, nivel 3 (aprendiz)"), "{out}");
    assert!(out.contains("2... "), "the engine answered twice: {out}");
    // Both clocks ran: a minute each, less what each side used.
    let last_clock = out.lines().rfind(|l| l.starts_with("Blancas ")).unwrap();
    assert!(last_clock.starts_with("Blancas 0:5"), "{last_clock}");
    assert!(last_clock.contains(" · Negras 0:5"), "{last_clock}");
}

#[test]
fn draw_offers_are_made_answered_and_lapse() {
    let out = play(&PEOPLE, "e4\ntablas\naceptar\n");
    assert!(out.contains("Las negras ofrecen tablas"), "{out}");
    assert!(out.contains("Tablas por acuerdo (½-½)"), "{out}");
    let out = play(&PEOPLE, "e4\nofrecer tablas\nrechazar\ne5\naceptar\n");
    assert!(out.contains("Oferta de tablas rechazada"), "{out}");
    assert!(
        out.contains("No hay ninguna oferta de tablas pendiente"),
        "{out}"
    );
    assert!(!out.contains("Tablas por acuerdo"), "{out}");
    // The engine plays on.
    let out = play(&["--negras", "motor:1"], "tablas\n");
    assert!(
        out.contains("Las blancas ofrecen tablas\nOferta de tablas rechazada"),
        "{out}"
    );
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("escaque-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn adjourning_with_a_sealed_move_over_a_pipe() {
    let dir = scratch("aplazada");
    let file = dir.join("aplazada.pgn");
    let path = file.to_str().unwrap();
    // Black seals Cf6: the text is not shown, the game is saved and the
    // program ends (the lines after it are not read).
    let out = play(&PEOPLE, &format!("e4\naplazar {path}\nCf6\nd5\n"));
    assert!(
        out.contains("las negras escriben su jugada secreta"),
        "{out}"
    );
    assert!(
        out.contains("Partida aplazada: la jugada secreta de las negras queda en sobre cerrado"),
        "{out}"
    );
    assert!(
        out.contains(&format!("Partida guardada en {path}")),
        "{out}"
    );
    assert!(!out.contains("Cf6") && !out.contains("1... "), "{out}");
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(
        pgn.contains("1. e4 *"),
        "the sealed move is not in the moves: {pgn}"
    );
    assert!(!pgn.contains("Cf6") && !pgn.contains("Nf6"), "{pgn}");
    // Loaded again, the envelope is opened and the move played.
    let out = play(&PEOPLE, &format!("cargar {path}\nCc3\n"));
    assert!(
        out.contains("Sobre cerrado de las negras: se abre: 1... Cf6"),
        "{out}"
    );
    assert!(out.contains("2. Cc3\n"), "{out}");
}

#[test]
fn an_illegal_or_ambiguous_sealed_move_loses_and_against_a_bare_king_draws() {
    let dir = scratch("sobre");
    // Ambiguous: two white knights can go to d2.
    let file = dir.join("ambigua.pgn");
    let path = file.to_str().unwrap();
    let knights = ["--fen", "r3k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"];
    let args = [&PEOPLE[..], &knights[..]].concat();
    play(&args, &format!("aplazar {path}\nCd2\n"));
    let out = play(&PEOPLE, &format!("cargar {path}\n"));
    assert!(
        out.contains("Sobre cerrado de las blancas: se abre"),
        "{out}"
    );
    assert!(out.contains("es ambigua"), "{out}");
    assert!(out.contains("Ganan las negras (0-1)"), "{out}");
    // Illegal, against a bare king that cannot mate: a draw.
    let file = dir.join("rey.pgn");
    let path = file.to_str().unwrap();
    let bare = ["--fen", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"];
    let args = [&PEOPLE[..], &bare[..]].concat();
    play(&args, &format!("aplazar {path}\nTa9\n"));
    let out = play(&PEOPLE, &format!("cargar {path}\n"));
    assert!(out.contains("la partida es tablas (½-½)"), "{out}");
}

#[test]
fn adjourning_in_english_with_english_notation() {
    let dir = scratch("adjourned");
    let file = dir.join("adjourned.pgn");
    let path = file.to_str().unwrap();
    let out = common::run_with_input(
        &[
            "--idioma", "en", "jugar", "--white", "human", "--black", "human", "--text",
        ],
        &format!("d4\nadjourn {path}\nNf6\n"),
    );
    assert!(out.contains("Black writes the sealed move"), "{out}");
    let out = common::run_with_input(
        &[
            "--idioma", "en", "jugar", "--white", "human", "--black", "human", "--text",
        ],
        &format!("load {path}\n"),
    );
    assert!(
        out.contains("Black's sealed envelope is opened: 1... Nf6"),
        "{out}"
    );
}

#[test]
fn pgn_revisar_shows_an_adjourned_game_without_its_sealed_move() {
    let dir = scratch("revisar-sobre");
    let file = dir.join("aplazada.pgn");
    let path = file.to_str().unwrap();
    play(&PEOPLE, &format!("e4\naplazar {path}\nCf6\n"));
    let out = common::run_with_input(&["pgn", "revisar", path], "");
    assert!(
        out.contains("aplazada: jugada secreta de las negras en sobre cerrado"),
        "{out}"
    );
    assert!(!out.contains("Cf6") && !out.contains("Nf6"), "{out}");
    let out = common::run_with_input(&["pgn", "revisar", "--json", path], "");
    assert!(out.contains("\"sealed_by\":\"Black\""), "{out}");
    assert!(!out.contains("Nf6"), "{out}");
}
