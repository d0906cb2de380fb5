//! `escaque aprender --texto`: two stages of the course completed through a
//! pipe and through a pseudo-terminal (`script` gives the program a pty, as
//! a person's terminal does); the same two stages full-screen in tmux; the refusals' reasons, the stage list and the
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

/// The full-screen course (`escaque aprender` on a terminal, no `--texto`)
/// in a tmux pane: stage 1 answered by typing, stage 2 with its first
/// exercise played by the arrows and Enter, the others by typed moves.
/// Between answers the pane is read: when it offers the next exercise,
/// Enter goes on. The stages' ends and their stars are read off the screen.
#[test]
fn two_stages_completed_full_screen_in_tmux() {
    let have_tmux = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(have_tmux, "tmux is needed for the full-screen test");
    let bin = env!("CARGO_BIN_EXE_escaque");
    let sock = format!("escaque-aprender-{}", common::unique_suffix());
    let tmux = |args: &[&str]| {
        Command::new("tmux")
            .args(["-L", &sock])
            .args(args)
            .env("LANG", "C.UTF-8")
            .output()
            .expect("tmux runs")
    };
    let screen =
        || String::from_utf8_lossy(&tmux(&["capture-pane", "-p", "-t", "t"]).stdout).to_string();
    let wait_for = |what: &str| -> String {
        for _ in 0..200 {
            let s = screen();
            if s.contains(what) {
                return s;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("the screen never showed {what:?}:\n{}", screen())
    };
    struct Kill<'a>(&'a dyn Fn(&[&str]) -> std::process::Output);
    impl Drop for Kill<'_> {
        fn drop(&mut self) {
            (self.0)(&["kill-server"]);
        }
    }
    let started = tmux(&[
        "new-session",
        "-d",
        "-s",
        "t",
        "-x",
        "160",
        "-y",
        "40",
        &format!("{bin} aprender 1 --idioma es"),
    ]);
    assert!(started.status.success(), "{started:?}");
    let _kill = Kill(&tmux);
    wait_for("Etapa 1/21: El tablero");
    let keys = |k: &[&str]| {
        let mut a = vec!["send-keys", "-t", "t"];
        a.extend_from_slice(k);
        assert!(tmux(a.as_slice()).status.success());
    };
    // One answer's last key; when the screen offers the next exercise,
    // Enter goes on. Returns the screen with the verdict.
    // The screen once it has changed from `before` and stayed the same for
    // a moment (the program draws after each key).
    let settled = |before: &str| -> String {
        let mut last = String::new();
        for _ in 0..300 {
            std::thread::sleep(std::time::Duration::from_millis(40));
            let s = screen();
            if s != before && s == last {
                return s;
            }
            last = s;
        }
        last
    };
    let answer = |k: &[&str]| -> String {
        let before = screen();
        keys(k);
        let s = settled(&before);
        if s.contains("Intro: siguiente ejercicio") {
            keys(&["Enter"]);
            settled(&s);
        }
        s
    };
    let typed = |t: &str| {
        keys(&["-l", t]);
        wait_for(&format!("Respuesta: {t}▏"));
        answer(&["Enter"])
    };
    // Stage 1: the squares and the board's words, typed.
    for a in ["e4", "a1", "h8", "d1", "1", "1", "2", "1", "3", "2"] {
        let s = typed(a);
        assert!(s.contains("¡Conseguido! ★★★"), "{a}:\n{s}");
    }
    let s = wait_for("terminada: 30 estrellas de 30");
    assert!(s.contains("El tablero"), "{s}");
    keys(&["Enter"]);
    let s = wait_for("Etapa 2/21: La torre");
    assert!(s.contains("Fuente: Semilla 001, art. 3"), "{s}");
    // Stage 2, exercise 1 by the keyboard's cursor: from e2 to a1, Enter,
    // a diagonal step first (refused with its reason), then a1-a5.
    let s = answer(&[
        "Left", "Left", "Left", "Left", "Down", "Enter", "Right", "Up", "Enter",
    ]);
    assert!(
        s.contains("la torre se mueve por filas y columnas"),
        "no reason for a diagonal rook move:\n{s}"
    );
    let s = answer(&["Left", "Down", "Enter", "Up", "Up", "Up", "Up", "Enter"]);
    assert!(s.contains("Ta5. ¡Conseguido! ★★☆"), "{s}");
    for t in [
        "a1a7", "a7e7", "c1c3", "c3f3", "f3f6", "f6c6", "a2a4", "a4a5", "a1a6", "a6e6", "f1f4",
        "f4b4", "b4b7",
    ] {
        let s = typed(t);
        assert!(s.contains('✓'), "{t}:\n{s}");
    }
    let s = wait_for("terminada: 17 estrellas de 18");
    assert!(s.contains("La torre"), "{s}");
    keys(&["-l", "salir"]);
    keys(&["Enter"]);
}
