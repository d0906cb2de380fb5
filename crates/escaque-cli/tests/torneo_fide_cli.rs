//! FIDE mode on the command line (issue 58): `escaque torneo modo-fide`,
//! `salir-modo-fide` (both confirmations or nothing, written in the file,
//! not undone), `emparejar-manual` (start shows the engine's pairing and
//! the warnings and saves nothing; `--guardar` ends it, refused with
//! warnings unless `--aceptar-avisos`, the `### MPA @ Round n` line in the
//! file), pairing numbers frozen once round 4 is paired, the mark on the
//! standings and the printouts, and team point systems refused.

use std::path::PathBuf;

use crate::common;

fn escaque(args: &[&str]) -> (bool, String, String) {
    let (out, err, ok) = common::run_raw(args, "");
    (ok, out, err)
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("escaque-fide-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn ok(args: &[&str]) -> String {
    let (ok, out, err) = escaque(args);
    assert!(ok, "{args:?}: {err}{out}");
    out
}

fn tournament(f: &str, players: usize, rounds: &str) {
    ok(&[
        "torneo",
        "nuevo",
        f,
        "--nombre",
        "Abierto FIDE",
        "--rondas",
        rounds,
    ]);
    for i in 0..players {
        let elo = (2000 - 50 * i).to_string();
        ok(&[
            "torneo",
            "inscribir",
            f,
            &format!("Jugador {i}"),
            "--elo",
            &elo,
        ]);
    }
}

/// Pairs the next round with the engine and has White win every board.
fn engine_round(f: &str) {
    ok(&["torneo", "emparejar", f]);
    white_wins(f);
}

fn white_wins(f: &str) {
    let t = escaque_torneo::trf::parse(&std::fs::read_to_string(f).unwrap()).unwrap();
    let r = t.rounds.len();
    for b in 1..=t.rounds[r - 1].games.len() {
        ok(&[
            "torneo",
            "resultado",
            f,
            &r.to_string(),
            &b.to_string(),
            "1-0",
        ]);
    }
}

fn load(f: &str) -> escaque_torneo::Tournament {
    escaque_torneo::trf::parse(&std::fs::read_to_string(f).unwrap()).unwrap()
}

#[test]
fn fide_mode_is_on_and_leaving_needs_both_confirmations() {
    let dir = scratch("salir");
    let file = dir.join("t.trf");
    let f = file.to_str().unwrap();
    tournament(f, 6, "5");
    assert!(ok(&["torneo", "modo-fide", f]).starts_with("Modo FIDE"));
    assert!(ok(&["--idioma", "en", "torneo", "modo-fide", f]).starts_with("FIDE mode"));
    let before = std::fs::read(&file).unwrap();
    // Without the first confirmation, with a wrong name, without a name.
    for args in [
        vec!["torneo", "salir-modo-fide", f, "--nombre", "Abierto FIDE"],
        vec![
            "torneo",
            "salir-modo-fide",
            f,
            "--confirmo",
            "--nombre",
            "Otro",
        ],
        vec!["torneo", "salir-modo-fide", f, "--confirmo"],
    ] {
        let (good, out, err) = escaque(&args);
        assert!(!good, "{args:?}: {out}");
        assert!(
            err.contains("confirmación") || err.contains("no es el nombre"),
            "{err}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), before, "nothing changed");
    }
    let out = ok(&[
        "torneo",
        "salir-modo-fide",
        f,
        "--confirmo",
        "--nombre",
        "abierto fide",
        "--arbitro",
        "Ana Árbitra",
    ]);
    assert!(out.contains("no se puede deshacer"), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.lines().any(|l| l
            == "### FIDE mode left @ Round 1 by Ana Árbitra (confirmed twice; cannot be undone)"),
        "{text}"
    );
    assert!(ok(&["torneo", "modo-fide", f]).starts_with("FUERA DEL MODO FIDE"));
    // Cannot be undone: not twice, and every later save keeps the line.
    let (good, _, err) = escaque(&[
        "torneo",
        "salir-modo-fide",
        f,
        "--confirmo",
        "--nombre",
        "Abierto FIDE",
    ]);
    assert!(!good);
    assert!(err.contains("no se puede volver a entrar"), "{err}");
    engine_round(f);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("### FIDE mode left @ Round 1"), "{text}");
    // The mark on the standings and the printouts.
    assert!(ok(&["torneo", "clasificacion", f]).starts_with("FUERA DEL MODO FIDE"));
    let out_dir = dir.join("imp");
    ok(&[
        "torneo",
        "imprimir",
        f,
        "--salida",
        out_dir.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(out_dir.join("clasificacion.html")).unwrap();
    assert!(
        page.contains("FUERA DEL MODO FIDE (desde la ronda 1)"),
        "{page}"
    );
}

#[test]
fn a_manual_pairing_starts_warns_and_ends_with_its_mpa_line() {
    let dir = scratch("manual");
    let file = dir.join("t.trf");
    let f = file.to_str().unwrap();
    tournament(f, 7, "6");
    engine_round(f);
    let t = load(f);
    let g = &t.rounds[0].games[0];
    let bye1 = t.rounds[0].byes[0].0;
    let rest: Vec<u32> = (1..=7)
        .filter(|p| *p != g.white && *p != g.black && *p != bye1)
        .collect();
    let pairs = [
        format!("{}-{}", g.white, g.black),
        format!("{}-{}", rest[0], rest[1]),
        format!("{}-{}", rest[2], rest[3]),
        format!("{bye1}-0"),
    ];
    let mut args = vec!["torneo", "emparejar-manual", f];
    args.extend(pairs.iter().map(String::as_str));
    // Start: the engine's pairing and the warnings; nothing saved.
    let before = std::fs::read(&file).unwrap();
    let out = ok(&args);
    assert!(out.contains("Emparejamiento del programa:"), "{out}");
    assert!(out.contains("ya jugaron entre sí"), "{out}");
    assert!(out.contains("descanso por emparejamiento"), "{out}");
    assert!(out.contains("No se ha guardado nada"), "{out}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // End without accepting: refused, nothing saved.
    let mut save = args.clone();
    save.push("--guardar");
    let (good, _, err) = escaque(&save);
    assert!(!good);
    assert!(err.contains("acéptelo explícitamente"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), before);
    // Accepted: saved with the comparison.
    save.push("--aceptar-avisos");
    let out = ok(&save);
    assert!(out.contains("### MPA @ Round 2: manual "), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("### MPA @ Round 2"))
        .unwrap();
    assert!(
        line.contains(&format!("repeat {}-{}", g.white, g.black)),
        "{line}"
    );
    assert_eq!(load(f).rounds.len(), 2);
    // Still in FIDE mode.
    assert!(ok(&["torneo", "modo-fide", f]).starts_with("Modo FIDE"));
    // A pairing that is not one of the round's players: refused.
    white_wins(f);
    let (good, _, err) = escaque(&["torneo", "emparejar-manual", f, "1-2", "--guardar"]);
    assert!(!good);
    assert!(err.contains("falta el jugador"), "{err}");
    let (good, _, err) = escaque(&["torneo", "emparejar-manual", f, "1-x"]);
    assert!(!good);
    assert!(err.contains("pareja no válida"), "{err}");
}

#[test]
fn pairing_numbers_are_frozen_after_round_4_in_fide_mode() {
    let dir = scratch("congelados");
    for leave in [false, true] {
        let file = dir.join(format!("t{leave}.trf"));
        let f = file.to_str().unwrap();
        // Ten players, every game drawn: one score group, always pairable.
        tournament(f, 10, "6");
        for _ in 0..4 {
            ok(&["torneo", "emparejar", f]);
            let r = load(f).rounds.len().to_string();
            for b in 1..=5 {
                ok(&["torneo", "resultado", f, &r, &b.to_string(), "½-½"]);
            }
        }
        if leave {
            ok(&[
                "torneo",
                "salir-modo-fide",
                f,
                "--confirmo",
                "--nombre",
                "Abierto FIDE",
            ]);
        }
        ok(&["torneo", "inscribir", f, "Tardía Fuerte", "--elo", "2700"]);
        let out = ok(&["torneo", "emparejar", f]);
        let t = load(f);
        if leave {
            // Out of FIDE mode the late entry takes its place by rating.
            assert_eq!(t.players[0].name, "Tardía Fuerte", "{out}");
        } else {
            assert_eq!(t.players[10].name, "Tardía Fuerte", "number 11 kept");
            assert!(
                out.contains("Números de emparejamiento congelados"),
                "{out}"
            );
        }
    }
}

#[test]
fn team_point_systems_where_two_draws_beat_a_win_and_a_loss_are_refused() {
    let dir = scratch("puntos");
    let f = dir.join("e.trf");
    let f = f.to_str().unwrap();
    let (good, _, err) = escaque(&[
        "torneo",
        "equipos",
        "nuevo",
        f,
        "--nombre",
        "Liga",
        "--rondas",
        "5",
        "--tableros",
        "4",
        "--puntuacion",
        "3/2/0",
    ]);
    assert!(!good);
    assert!(err.contains("dos tablas"), "{err}");
    assert!(!std::path::Path::new(f).exists());
    let (good, out, err) = escaque(&[
        "torneo",
        "equipos",
        "nuevo",
        f,
        "--nombre",
        "Liga",
        "--rondas",
        "5",
        "--tableros",
        "4",
        "--puntuacion",
        "3/1/0",
    ]);
    assert!(good, "{out}{err}");
}
