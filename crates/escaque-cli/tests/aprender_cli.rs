//! `escaque aprender --texto`: two stages of the course completed through a
//! pipe and through a pseudo-terminal (`script` gives the program a pty, as
//! a person's terminal does), the refusals' reasons, the stage list and the
//! coordinates trainer.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common;

/// The answers to stage 1 (el tablero) and stage 2 (la torre), with two
/// mistakes in the rook stage: a diagonal rook move and an answer out of range.
const TWO_STAGES: &str = "\
e4\na1\nh8\nd1\n1\n1\n2\n1\n3\n2\n\
a1b2\na1a5\n\
a1a7\na7e7\n\
c1c3\nc3f3\nf3f6\nf6c6\n\
a2a4\na4a5\n\
a1a6\na6e6\n\
f1f4\nf4b4\nb4b7\n\
salir\n";

fn check_two_stages(out: &str) {
    assert!(out.contains("== Etapa 1/21: El tablero =="), "{out}");
    assert!(
        out.contains("Etapa «El tablero» terminada: 30 estrellas de 30."),
        "{out}"
    );
    assert!(out.contains("== Etapa 2/21: La torre =="), "{out}");
    assert!(
        out.contains("✗ la torre se mueve por filas y columnas, en línea recta"),
        "{out}"
    );
    assert!(out.contains("✓ Ta5. ¡Conseguido! ★★☆"), "{out}");
    assert!(out.contains("✓ Txb7. ¡Conseguido! ★★★"), "{out}");
    // One refused try cost one star in the rook stage: 17 of 18.
    assert!(
        out.contains("Etapa «La torre» terminada: 17 estrellas de 18."),
        "{out}"
    );
    // The seed is cited and the stars are drawn on the board.
    assert!(out.contains("Fuente: Semilla 001, art. 3"), "{out}");
    assert!(out.contains("5  * . . . . . . .  5"), "{out}");
    assert!(out.contains("Hasta pronto."), "{out}");
}

#[test]
fn two_stages_completed_through_a_pipe() {
    let out = common::run_with_input(
        &["aprender", "tablero", "--texto", "--idioma", "es"],
        TWO_STAGES,
    );
    check_two_stages(&out);
}

#[test]
fn two_stages_completed_in_a_pseudo_terminal() {
    // `script` runs the command on a new pty and copies our pipe to it.
    let bin = env!("CARGO_BIN_EXE_escaque");
    let Ok(mut child) = Command::new("script")
        .args([
            "-q",
            "-e",
            "-c",
            &format!("{bin} aprender 1 --texto --idioma es"),
            "/dev/null",
        ])
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        panic!("util-linux's script is needed for the pty test");
    };
    {
        let mut stdin = child.stdin.take().unwrap();
        // Line by line, as typed (the pty echoes each one).
        for line in TWO_STAGES.lines() {
            stdin.write_all(line.as_bytes()).unwrap();
            stdin.write_all(b"\n").unwrap();
            stdin.flush().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
    let output = child.wait_with_output().unwrap();
    let out = String::from_utf8_lossy(&output.stdout).replace("\r\n", "\n");
    assert!(output.status.success(), "{out}");
    check_two_stages(&out);
}

#[test]
fn reasons_in_english_and_the_stage_list() {
    let out = common::run_with_input(
        &["aprender", "caballo", "--texto", "--idioma", "en"],
        "b1b3\nb1c3\nsalir\n",
    );
    assert!(out.contains("== Stage 6/21: The knight =="), "{out}");
    assert!(out.contains("✗ the knight jumps in an L"), "{out}");
    assert!(out.contains("✓ Nc3. Done! ★★☆"), "{out}");
    let out = common::run_with_input(&["aprender", "--lista"], "");
    assert_eq!(out.lines().count(), 21, "{out}");
    assert!(out.contains("12. enroque"), "{out}");
    // An unknown stage: an error, not a panic.
    let (_, err, ok) = common::run_raw(&["aprender", "volar", "--texto"], "");
    assert!(!ok);
    assert!(err.contains("no hay ninguna etapa «volar»"), "{err}");
}

#[test]
fn the_castling_stage_says_why_castling_is_refused() {
    let out = common::run_with_input(
        &["aprender", "enroque", "--texto", "--idioma", "es"],
        "saltar\nsaltar\nsaltar\ne1g1\n0-0-0\nsalir\n",
    );
    assert!(
        out.contains("✗ no puedes enrocar: el rey pasaría por f1, atacada por el alfil de c4"),
        "{out}"
    );
    assert!(out.contains("✓ 0-0-0. ¡Conseguido! ★★☆"), "{out}");
}

#[test]
fn the_coordinates_trainer_counts_right_and_wrong() {
    // Every square named in turn: the one asked is right once per round.
    let mut input = String::new();
    for _ in 0..3 {
        for f in "abcdefgh".chars() {
            for r in 1..=8 {
                input.push_str(&format!("{f}{r}\n"));
            }
        }
    }
    let out = common::run_with_input(
        &["aprender", "--coordenadas", "--rondas", "3", "--negras"],
        &input,
    );
    assert!(out.contains("Coordenadas (las negras)"), "{out}");
    assert!(out.contains("Resultado: 3 aciertos"), "{out}");
}
