//! `escaque torneo --equipos` (issue 59), run as an organiser runs it: a
//! team Swiss from creation to the printouts, and the refusals.

// The runner and the scratch directories are torneo_cli.rs's.
use crate::torneo_cli::{escaque, scratch};

fn ok(args: &[&str]) -> String {
    let (ok, out, err) = escaque(args);
    assert!(ok, "{args:?}: {err}");
    out
}

/// A team Swiss "Liga" of `rounds` rounds on two boards in `f`, with one
/// team a school (`--centro` where given): "Equipo k", players Ak and Bk
/// rated 1900 and 1850 less 50 a team.
fn team_swiss(f: &str, rounds: &str, schools: &[Option<&str>]) {
    team_swiss_with(f, rounds, schools, &[]);
}

/// [`team_swiss`] with `extra` options given to `nuevo`.
fn team_swiss_with(f: &str, rounds: &str, schools: &[Option<&str>], extra: &[&str]) {
    let mut args = vec![
        "torneo",
        "--equipos",
        "nuevo",
        f,
        "--nombre",
        "Liga",
        "--rondas",
        rounds,
        "--tableros",
        "2",
    ];
    args.extend_from_slice(extra);
    ok(&args);
    for (k, school) in schools.iter().enumerate() {
        let name = format!("Equipo {}", k + 1);
        let p1 = format!("A{k},{}", 1900 - 50 * k);
        let p2 = format!("B{k},{}", 1850 - 50 * k);
        let mut args = vec!["torneo", "--equipos", "equipo", f, "--nombre", &name];
        if let Some(school) = school {
            args.extend(["--centro", school]);
        }
        args.extend(["--jugador", &p1, "--jugador", &p2]);
        ok(&args);
    }
}

#[test]
fn a_team_swiss_from_creation_to_the_printouts() {
    let dir = scratch("equipos-flow");
    let file = dir.join("liga.trf");
    let f = file.to_str().unwrap();
    ok(&[
        "torneo",
        "--equipos",
        "nuevo",
        f,
        "--nombre",
        "Liga escolar",
        "--rondas",
        "3",
        "--tableros",
        "2",
        "--max-equipos-centro",
        "1",
        "--categoria",
        "F:1",
    ]);
    for (k, school) in ["CEIP Sol", "CEIP Luna", "IES Mar", "IES Río"]
        .iter()
        .enumerate()
    {
        let name = format!("Equipo {school}");
        let p1 = format!("Ana {k},{},F", 1700 - 50 * k);
        let p2 = format!("Luis {k},{}", 1750 - 50 * k);
        let p3 = format!("Eva {k},,sub10");
        let out = ok(&[
            "torneo",
            "--equipos",
            "equipo",
            f,
            "--nombre",
            &name,
            "--centro",
            school,
            "--jugador",
            &p1,
            "--jugador",
            &p2,
            "--jugador",
            &p3,
            "--capitan",
            "1",
        ]);
        assert!(out.contains(&format!("número {}", k + 1)), "{out}");
        // Listed by rating: Luis above Ana.
        assert!(
            out.find("Luis").unwrap() < out.find("Ana").unwrap(),
            "{out}"
        );
    }
    // School rules: a second team of a school, a team without a girl.
    let before = std::fs::read_to_string(&file).unwrap();
    let (done, _, err) = escaque(&[
        "torneo",
        "--equipos",
        "equipo",
        f,
        "--nombre",
        "Sol B",
        "--centro",
        "CEIP Sol",
        "--jugador",
        "Zoe,1500,F",
    ]);
    assert!(!done && err.contains("ya tiene 1 equipos"), "{err}");
    let (done, _, err) = escaque(&[
        "torneo",
        "--equipos",
        "equipo",
        f,
        "--nombre",
        "Otro",
        "--jugador",
        "Pepe,1500",
    ]);
    assert!(!done && err.contains("categoría F"), "{err}");
    // A player already in another team.
    let (done, _, err) = escaque(&[
        "torneo",
        "--equipos",
        "equipo",
        f,
        "--nombre",
        "Copia",
        "--jugador",
        "Ana 0,1700,F",
    ]);
    assert!(!done && err.contains("ya juega en el equipo"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);

    for round in 1..=3u32 {
        let r = round.to_string();
        let out = ok(&["torneo", "--equipos", "emparejar", f]);
        assert!(
            out.contains(&format!("Ronda {round}: emparejamientos")),
            "{out}"
        );
        assert!(
            out.contains("Encuentro 2:") && out.contains("Tablero  2:"),
            "{out}"
        );
        if round == 1 {
            // A line-up out of the roster's order: refused, file unchanged.
            let before = std::fs::read_to_string(&file).unwrap();
            let (done, _, err) = escaque(&[
                "torneo",
                "--equipos",
                "alineacion",
                f,
                "--ronda",
                "1",
                "--equipo",
                "1",
                "--jugadores",
                "2,1",
            ]);
            assert!(!done && err.contains("no puede jugar por debajo"), "{err}");
            assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
            ok(&[
                "torneo",
                "--equipos",
                "alineacion",
                f,
                "--ronda",
                "1",
                "--equipo",
                "1",
                "--jugadores",
                "1,3",
            ]);
        }
        for table in ["1", "2"] {
            if round == 2 && table == "2" {
                ok(&[
                    "torneo",
                    "--equipos",
                    "resultado",
                    f,
                    "--ronda",
                    &r,
                    "--encuentro",
                    table,
                    "--incomparecencia",
                    "segundo",
                ]);
                continue;
            }
            ok(&[
                "torneo",
                "--equipos",
                "resultado",
                f,
                "--ronda",
                &r,
                "--encuentro",
                table,
                "--tablero",
                "1",
                "1-0",
            ]);
            ok(&[
                "torneo",
                "--equipos",
                "resultado",
                f,
                "--ronda",
                &r,
                "--encuentro",
                table,
                "--tablero",
                "2",
                "½-½",
            ]);
        }
    }
    let (done, _, err) = escaque(&["torneo", "--equipos", "emparejar", f]);
    assert!(!done && err.contains("las 3 rondas"), "{err}");
    let out = ok(&["torneo", "--equipos", "clasificacion", f, "--centros"]);
    assert!(
        out.contains("Clasificación por equipos") && out.contains("Clasificación por centros"),
        "{out}"
    );
    let out = ok(&["torneo", "--equipos", "cuadro", f]);
    assert!(out.contains("Cuadro cruzado por equipos"), "{out}");
    let out = ok(&["torneo", "--equipos", "tableros", f]);
    assert!(
        out.contains("Resultados por tablero") && out.contains("(C)"),
        "{out}"
    );
    let out = ok(&["torneo", "equipos", "ronda", f, "--ronda", "2"]);
    assert!(out.contains("Resultado: 2 – 0"), "{out}");
    // The file is a TRF-2026 team file.
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("\n310   1 ")
            && text.contains("\n300   1 ")
            && text.contains("\n330 +-   2 "),
        "{text}"
    );
}

/// `prohibir`: the teams of one school kept apart in a team Swiss (read
/// back from the file: every round's pairing), a group by numbers, and
/// the refusals (a round robin, one team), the file unchanged.
#[test]
fn forbidden_pairings_keep_the_teams_of_a_school_apart() {
    let dir = scratch("equipos-prohibir");
    let file = dir.join("liga.trf");
    let f = file.to_str().unwrap();
    // The natural first round pairs 1-3 and 2-4 (top half against bottom
    // half): those are the teams of one school.
    team_swiss(
        f,
        "3",
        &[Some("Sol"), Some("Luna"), Some("Sol"), Some("Luna")],
    );
    let before = std::fs::read_to_string(&file).unwrap();
    let (done, _, err) = escaque(&["torneo", "--equipos", "prohibir", f, "--equipos", "2"]);
    assert!(!done && err.contains("al menos dos equipos"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    let out = ok(&["torneo", "--equipos", "prohibir", f, "--mismo-centro"]);
    assert!(
        out.contains("1. Equipo 1 no juega contra 3. Equipo 3"),
        "{out}"
    );
    assert!(
        out.contains("2. Equipo 2 no juega contra 4. Equipo 4"),
        "{out}"
    );
    for round in 1..=2 {
        ok(&["torneo", "--equipos", "emparejar", f]);
        let t =
            escaque_torneo::teams::trf::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(t.forbidden, vec![(1, 3), (2, 4)]);
        for (k, m) in t.rounds[round - 1].matches.iter().enumerate() {
            assert!(!t.is_forbidden(m.home, m.away), "round {round}: {m:?}");
            for b in 1..=2 {
                ok(&[
                    "torneo",
                    "--equipos",
                    "resultado",
                    f,
                    "--ronda",
                    &round.to_string(),
                    "--encuentro",
                    &(k + 1).to_string(),
                    "--tablero",
                    &b.to_string(),
                    "½-½",
                ]);
            }
        }
    }
    // A round robin: refused with the reason.
    let rr = dir.join("rr.trf");
    let r = rr.to_str().unwrap();
    ok(&[
        "torneo",
        "--equipos",
        "nuevo",
        r,
        "--nombre",
        "RR",
        "--sistema",
        "rr",
        "--tableros",
        "1",
    ]);
    for k in 0..2 {
        ok(&[
            "torneo",
            "--equipos",
            "equipo",
            r,
            "--nombre",
            &format!("E{k}"),
            "--jugador",
            &format!("J{k}"),
        ]);
    }
    let (done, _, err) = escaque(&["torneo", "--equipos", "prohibir", r, "--equipos", "1,2"]);
    assert!(!done && err.contains("solo un suizo"), "{err}");
}

/// `torneo --equipos descanso FILE --ronda ROUND --equipo TEAM` (the
/// default half-point bye): ok, stdout, stderr.
fn ask_bye(file: &str, round: &str, team: &str) -> (bool, String, String) {
    escaque(&[
        "torneo",
        "--equipos",
        "descanso",
        file,
        "--ronda",
        round,
        "--equipo",
        team,
    ])
}

/// `descanso`: a team asks not to be paired in round 1 (a full-point
/// bye): it is left out of that round's pairing, the printout says so,
/// the TRF keeps the request, the standings count it; and the refusals
/// (an unknown team, a round already paired, a round robin) change
/// nothing.
#[test]
fn a_team_asks_for_a_bye() {
    let dir = scratch("equipos-descanso");
    let file = dir.join("liga.trf");
    let f = file.to_str().unwrap();
    team_swiss(f, "2", &[None; 5]);
    let before = std::fs::read_to_string(&file).unwrap();
    let (done, _, err) = ask_bye(f, "1", "9");
    assert!(
        !done && err.contains("ningún equipo con el número 9"),
        "{err}"
    );
    let (done, _, err) = ask_bye(f, "3", "1");
    assert!(!done && err.contains("de la 1 a la 2"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);

    let out = ok(&[
        "torneo",
        "--equipos",
        "descanso",
        f,
        "--ronda",
        "1",
        "--equipo",
        "5",
        "--tipo",
        "completo",
    ]);
    assert!(out.contains("5. Equipo 5 descansa en la ronda 1"), "{out}");
    let out = ok(&["torneo", "--equipos", "emparejar", f]);
    assert!(
        out.contains("Descansa a petición propia: Equipo 5 (2 puntos de encuentro, 2 de partida)"),
        "{out}"
    );
    // Four teams left: two matches, no bye given by the pairing.
    assert!(!out.contains("Exento:"), "{out}");
    let t = escaque_torneo::teams::trf::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(t.rounds[0].matches.len(), 2);
    assert!(t.rounds[0]
        .matches
        .iter()
        .all(|m| m.home != 5 && m.away != 5));
    assert_eq!(
        t.requested_bye(5, 1),
        Some(escaque_torneo::teams::RequestedBye::Full)
    );
    // Round 1 is paired now: no bye can be asked for it any more.
    let before = std::fs::read_to_string(&file).unwrap();
    let (done, _, err) = ask_bye(f, "1", "4");
    assert!(!done && err.contains("de la 2 a la 2"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);

    // A round robin's schedule is fixed: refused with the reason.
    let rr = dir.join("rr.trf");
    let r = rr.to_str().unwrap();
    ok(&[
        "torneo",
        "--equipos",
        "nuevo",
        r,
        "--nombre",
        "Liguilla",
        "--sistema",
        "rr",
        "--tableros",
        "2",
    ]);
    let (done, _, err) = ask_bye(r, "1", "1");
    assert!(!done && err.contains("solo un suizo"), "{err}");
}

/// `nuevo --baku`: the XZB record is written, round 1 pairs the first half
/// of the teams (GA) among themselves, as C.04.7's virtual points make it;
/// and `--baku` is refused where it would accelerate nothing (a round
/// robin, a Swiss paired by game points), with no file written.
#[test]
fn a_team_swiss_with_baku_acceleration() {
    let dir = scratch("equipos-baku");
    let file = dir.join("liga.trf");
    let f = file.to_str().unwrap();
    team_swiss_with(f, "5", &[None; 8], &["--baku"]);
    ok(&["torneo", "--equipos", "emparejar", f]);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.lines().any(|l| l == "XZB"), "{text}");
    let t = escaque_torneo::teams::trf::parse(&text).unwrap();
    assert!(t.baku);
    assert_eq!(t.rounds[0].matches.len(), 4);
    for m in &t.rounds[0].matches {
        // Without the acceleration round 1 is 1-5, 2-6, 3-7, 4-8.
        assert_eq!(m.home <= 4, m.away <= 4, "{:?}", t.rounds[0].matches);
    }

    for extra in [
        &["--sistema", "rr"][..],
        &["--rondas", "5", "--por-puntos-de-partida"][..],
    ] {
        let other = dir.join("otro.trf");
        let o = other.to_str().unwrap();
        let mut args = vec![
            "torneo",
            "--equipos",
            "nuevo",
            o,
            "--nombre",
            "Otra",
            "--baku",
        ];
        args.extend_from_slice(extra);
        let (done, _, err) = escaque(&args);
        assert!(
            !done && err.contains("--baku solo acelera un suizo"),
            "{extra:?}: {err}"
        );
        assert!(!other.exists());
    }
}
