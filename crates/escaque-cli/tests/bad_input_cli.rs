//! Bad input never breaks a tournament or the engine (issue 63), each case
//! as a person meets it: a tournament file refused a value wider than its
//! TRF column and left byte for byte as it was; `escaque uci` ending when
//! its input ends, whatever it is searching; arguments that are not UTF-8.

use std::ffi::OsStr;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;

use crate::common;

/// Runs `escaque ARGS` (Spanish): whether it succeeded, stdout, stderr.
fn escaque(args: &[&str]) -> (bool, String, String) {
    let (out, err, ok) = common::run_raw(args, "");
    (ok, out, err)
}

/// A three-round Swiss of four players, round 1 paired and played.
fn started(tag: &str) -> PathBuf {
    let dir = common::temp_dir(&format!("bad-input-{tag}"));
    let file = dir.join("t.trf");
    let f = file.to_str().unwrap();
    let (ok, _, err) = escaque(&["torneo", "nuevo", f, "--nombre", "Club", "--rondas", "3"]);
    assert!(ok, "{err}");
    for name in ["Ana", "Luis", "Eva", "Pablo"] {
        let (ok, _, err) = escaque(&["torneo", "inscribir", f, name]);
        assert!(ok, "{err}");
    }
    let (ok, _, err) = escaque(&["torneo", "emparejar", f]);
    assert!(ok, "{err}");
    for (board, result) in [("1", "1-0"), ("2", "½-½")] {
        let (ok, _, err) = escaque(&["torneo", "resultado", f, "1", board, result]);
        assert!(ok, "{err}");
    }
    file
}

/// The tournament still reads: its standings, its export and its printouts.
fn still_readable(file: &Path) {
    let f = file.to_str().unwrap();
    let (ok, out, err) = escaque(&["torneo", "clasificacion", f]);
    assert!(ok && out.contains("Ana"), "{out}{err}");
    let export = file.with_extension("export.trf");
    let (ok, _, err) = escaque(&["torneo", "exportar", f, "--trf", export.to_str().unwrap()]);
    assert!(ok, "{err}");
    let pages = file.with_extension("pages");
    let (ok, _, err) = escaque(&["torneo", "imprimir", f, "--salida", pages.to_str().unwrap()]);
    assert!(ok, "{err}");
}

#[test]
fn values_wider_than_their_trf_column_are_refused_and_the_file_is_kept() {
    let file = started("columns");
    let f = file.to_str().unwrap();
    let long_name = "Nombre Larguísimo de Treinta y Cuatro";
    for (args, limit) in [
        (
            vec!["torneo", "prohibir", f, "3", "1", "--desde", "1000"],
            "1000 está fuera de 1–3",
        ),
        (
            vec!["torneo", "prohibir", f, "1", "2", "--hasta", "1000"],
            "1000 está fuera de 2–3",
        ),
        (
            vec!["torneo", "inscribir", f, "Ana María", "--elo", "10000"],
            "10000 está fuera de 0–3500",
        ),
        (
            vec![
                "torneo",
                "inscribir",
                f,
                "Ana María",
                "--fide",
                "123456789012",
            ],
            "como mucho 11 cifras",
        ),
        (vec!["torneo", "inscribir", f, long_name], "como mucho 33"),
        (
            vec!["torneo", "retirar", f, "2", "--desde", "1000"],
            "1000 está fuera de 1–4",
        ),
        (vec!["torneo", "descanso", f, "2", "1000"], "ronda 1000"),
    ] {
        let before = std::fs::read(&file).unwrap();
        let (ok, out, err) = escaque(&args);
        assert!(!ok, "{args:?} was accepted: {out}");
        assert!(err.contains(limit), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            before,
            "{args:?} changed the file"
        );
        still_readable(&file);
    }
    // Within the columns the same commands are accepted, and the file reads.
    for args in [
        vec!["torneo", "prohibir", f, "3", "1", "--desde", "2"],
        vec!["torneo", "prohibir", f, "1", "2", "--hasta", "3"],
        vec![
            "torneo",
            "inscribir",
            f,
            "Ana María",
            "--elo",
            "3500",
            "--fide",
            "99999999999",
        ],
    ] {
        let (ok, _, err) = escaque(&args);
        assert!(ok, "{args:?}: {err}");
        still_readable(&file);
    }
}

/// One `escaque torneo` command with values drawn around the edges.
fn torneo_command() -> impl Strategy<Value = Vec<String>> {
    let round = prop_oneof![
        0u64..6,
        prop::sample::select(vec![999u64, 1000, 4_294_967_295, 4_294_967_296])
    ];
    let player = 0u64..7;
    prop_oneof![
        (
            "[A-Za-zñ ]{1,40}",
            prop::option::of(prop::sample::select(vec![
                0u64, 3500, 3501, 10_000, 65_535, 65_536
            ])),
            prop::option::of(prop::sample::select(vec![
                1u64,
                99_999_999_999,
                100_000_000_000,
                123_456_789_012
            ])),
        )
            .prop_map(|(name, elo, fide)| {
                let mut v = vec!["inscribir".to_string(), name];
                if let Some(e) = elo {
                    v.extend(["--elo".to_string(), e.to_string()]);
                }
                if let Some(x) = fide {
                    v.extend(["--fide".to_string(), x.to_string()]);
                }
                v
            }),
        (
            player.clone(),
            player.clone(),
            prop::option::of(round.clone()),
            prop::option::of(round.clone())
        )
            .prop_map(|(a, b, from, to)| {
                let mut v = vec!["prohibir".to_string(), a.to_string(), b.to_string()];
                if let Some(r) = from {
                    v.extend(["--desde".to_string(), r.to_string()]);
                }
                if let Some(r) = to {
                    v.extend(["--hasta".to_string(), r.to_string()]);
                }
                v
            }),
        (player.clone(), prop::option::of(round.clone())).prop_map(|(p, from)| {
            let mut v = vec!["retirar".to_string(), p.to_string()];
            if let Some(r) = from {
                v.extend(["--desde".to_string(), r.to_string()]);
            }
            v
        }),
        (
            player.clone(),
            round.clone(),
            prop::sample::select(vec!["medio", "completo", "cero"])
        )
            .prop_map(|(p, r, k)| vec![
                "descanso".to_string(),
                p.to_string(),
                r.to_string(),
                "--tipo".to_string(),
                k.to_string()
            ]),
        (
            round,
            0u64..4,
            prop::sample::select(vec!["1-0", "0-1", "½-½", "+/-", "-/+", "-/-", "2-0"])
        )
            .prop_map(|(r, b, res)| vec![
                "resultado".to_string(),
                r.to_string(),
                b.to_string(),
                res.to_string()
            ]),
        Just(vec!["emparejar".to_string()]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Every `torneo` command that changes the file: accepted, the file
    /// still reads and prints; refused, the file is byte for byte as it was.
    #[test]
    fn every_torneo_command_keeps_the_file_readable(commands in prop::collection::vec(torneo_command(), 1..5)) {
        let file = started("prop");
        let f = file.to_str().unwrap().to_string();
        for c in &commands {
            let before = std::fs::read(&file).unwrap();
            let mut args = vec!["torneo".to_string(), c[0].clone(), f.clone()];
            args.extend(c[1..].iter().cloned());
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (ok, _, err) = escaque(&args);
            prop_assert!(!err.contains("panicked"), "{}", err);
            if ok {
                still_readable(&file);
            } else {
                prop_assert_eq!(std::fs::read(&file).unwrap(), before, "{:?}: {}", args, err);
            }
        }
        let _ = std::fs::remove_dir_all(file.parent().unwrap());
    }
}

/// Sends `script` to `escaque uci`, closes its input and waits for it to
/// end; fails (rather than hangs) if it has not ended after 20 seconds.
/// Returns standard output and how long it took from the end of input.
fn uci_script(script: &[u8]) -> (String, Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run escaque uci");
    child.stdin.take().unwrap().write_all(script).unwrap();
    // The input is closed here (the handle is dropped).
    let closed = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if closed.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "escaque uci still running 20 s after its input ended: {:?}\n{}",
                String::from_utf8_lossy(script),
                String::from_utf8_lossy(&out.stdout)
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let took = closed.elapsed();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (String::from_utf8_lossy(&out.stdout).into_owned(), took)
}

#[test]
fn uci_ends_when_its_input_ends_whatever_runs() {
    for script in [
        &b"uci\ngo\n"[..],
        b"uci\ngo infinite\n",
        b"uci\nposition startpos\ngo depth 200\n",
        b"uci\ngo movestogo movetime\n",
        b"uci\ngo nodes 18446744073709551616\n",
        b"uci\ngo depth 99999999999999999999\n",
        b"uci\n\xff\nisready\nquit\n",
        b"uci\ngo\n\xff\nstop\nquit\n",
        b"uci\ngo\n\xff\n",
    ] {
        let (out, took) = uci_script(script);
        let shown = String::from_utf8_lossy(script);
        assert!(out.contains("uciok"), "{shown}: {out}");
        // Every search answered before the program ended.
        let gos = shown.lines().filter(|l| l.starts_with("go")).count();
        assert_eq!(out.matches("bestmove ").count(), gos, "{shown}: {out}");
        eprintln!("{shown:?}: ended {took:?} after its input");
    }
    let (out, _) = uci_script(b"uci\n\xff\nisready\nquit\n");
    assert!(out.contains("info string line 2 is not UTF-8"), "{out}");
    assert!(out.contains("readyok"), "{out}");
    let (out, _) = uci_script(b"uci\ngo movestogo movetime\n");
    assert!(
        out.contains("info string go movestogo expects a number"),
        "{out}"
    );
    assert!(
        out.contains("info string go movetime expects a number"),
        "{out}"
    );
    let (out, _) = uci_script(b"uci\ngo nodes 18446744073709551616\n");
    assert!(
        out.contains("'18446744073709551616' is not a number"),
        "{out}"
    );
}

/// `escaque ARGS` with arguments as raw bytes: exit code and stderr.
fn escaque_bytes(args: &[&[u8]]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .args(args.iter().map(|a| OsStr::from_bytes(a)))
        .env("LANG", "es_ES.UTF-8")
        .stdin(Stdio::null())
        .output()
        .expect("run escaque");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn arguments_that_are_not_utf8_are_an_argument_error_not_a_panic() {
    for args in [
        &[&b"perft"[..], b"3", b"--fen", b"\x80"][..],
        &[b"muerta", b"\xff"],
        &[b"--idioma", b"\xff", b"perft", b"1"],
        &[b"torneo", b"inscribir", b"t.trf", b"Jos\xe9"],
    ] {
        let (code, _, err) = escaque_bytes(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.contains("UTF-8"), "{args:?}: {err}");
    }
    // A file name need not be UTF-8 (a Latin-1 name from an old USB stick):
    // one that does not exist is named in the error, one that does is read.
    let (code, _, err) = escaque_bytes(&[b"pgn", b"revisar", b"\xff"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let dir = common::temp_dir("latin1-name");
    let name = dir.join(OsStr::from_bytes(b"partida-\xe9.pgn"));
    std::fs::write(
        &name,
        "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let (code, out, err) = escaque_bytes(&[b"pgn", b"revisar", name.as_os_str().as_bytes()]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(!out.is_empty(), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
