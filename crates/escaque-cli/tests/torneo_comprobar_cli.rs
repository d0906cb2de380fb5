//! `escaque torneo generar` and `escaque torneo comprobar` as a user runs
//! them: the same seed writes the same bytes; a generated file checks
//! clean (exit 0); a file with two boards' opponents exchanged is reported
//! (exit 1) in Spanish, in English and as JSON; a file that cannot be read
//! exits 2 and says its line and column. Many files at once (`-j 2`, a
//! directory): one line each in the order given, the totals, the same exit
//! codes, the same verdicts as one at a time.

use std::path::PathBuf;
use std::process::Command;

/// Runs `escaque ARGS` with `LANG`: exit code, standard output, standard error.
fn escaque(args: &[&str], lang: &str) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .args(args)
        .env("LANG", lang)
        .output()
        .expect("run escaque");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("escaque-comprobar-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const ES: &str = "es_ES.UTF-8";
const EN: &str = "en_GB.UTF-8";

#[test]
fn generar_writes_the_same_bytes_for_the_same_seed() {
    let d = scratch("semilla");
    let config = d.join("config.txt");
    std::fs::write(
        &config,
        "tablas = 40%\nmedio_punto = 1/ronda\n# comentario\nbaku = si\n",
    )
    .unwrap();
    let args = |out: &str| -> Vec<String> {
        [
            "torneo",
            "generar",
            "--jugadores",
            "20",
            "--rondas",
            "6",
            "--semilla",
            "7",
            "--config",
            config.to_str().unwrap(),
            "-o",
            d.join(out).to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec()
    };
    for out in ["a.trf", "b.trf"] {
        let a = args(out);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let (code, _, err) = escaque(&a, ES);
        assert_eq!(code, 0, "{err}");
    }
    let a = std::fs::read(d.join("a.trf")).unwrap();
    assert_eq!(a, std::fs::read(d.join("b.trf")).unwrap());
    let text = String::from_utf8(a).unwrap();
    assert!(text.starts_with("### escaque torneo generar: semilla 7\n"));
    assert!(text.contains("\n192 FIDE_DUTCH_2025_BAKU\n"));
    // Standard output when no file is named: the same text.
    let (code, out, _) = escaque(
        &[
            "torneo",
            "generar",
            "--jugadores",
            "20",
            "--rondas",
            "6",
            "--semilla",
            "7",
            "--config",
            config.to_str().unwrap(),
        ],
        ES,
    );
    assert_eq!(code, 0);
    assert_eq!(out, text);
    // A configuration error names its line.
    std::fs::write(&config, "rondas = 5\ntablas = 3\n").unwrap();
    let (code, _, err) = escaque(
        &["torneo", "generar", "--config", config.to_str().unwrap()],
        ES,
    );
    assert_eq!(code, 2);
    assert!(err.contains("línea 2"), "{err}");
}

#[test]
fn comprobar_passes_a_generated_file_and_reports_a_changed_one() {
    let d = scratch("cambio");
    let file = d.join("t.trf");
    let (code, _, err) = escaque(
        &[
            "torneo",
            "generar",
            "--jugadores",
            "16",
            "--rondas",
            "5",
            "--semilla",
            "3",
            "-o",
            file.to_str().unwrap(),
        ],
        ES,
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = escaque(&["torneo", "comprobar", file.to_str().unwrap()], ES);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Todo correcto"), "{out}");

    // Round 3: the black players of boards 1 and 2 exchanged.
    let text = std::fs::read_to_string(&file).unwrap();
    let mut t = escaque_torneo::trf::parse(&text).unwrap();
    let games = &mut t.rounds[2].games;
    let b = games[0].black;
    games[0].black = games[1].black;
    games[1].black = b;
    let bad = d.join("mal.trf");
    std::fs::write(&bad, escaque_torneo::trf::write(&t)).unwrap();
    let (code, out, _) = escaque(&["torneo", "comprobar", bad.to_str().unwrap()], ES);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("ronda 3: el emparejamiento no es el del sistema holandés"),
        "{out}"
    );
    let (code, out, _) = escaque(&["torneo", "comprobar", bad.to_str().unwrap()], EN);
    assert_eq!(code, 1);
    assert!(
        out.contains("round 3: the pairing is not the Dutch system's"),
        "{out}"
    );
    let (code, out, _) = escaque(
        &[
            "torneo",
            "comprobar",
            "--json",
            file.to_str().unwrap(),
            bad.to_str().unwrap(),
        ],
        ES,
    );
    assert_eq!(code, 1);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[1]["ok"], false);
    let kinds: Vec<&str> = lines[1]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"pairing_differs"), "{kinds:?}");
    assert_eq!(lines[1]["problems"][0]["round"].as_u64(), Some(3), "{out}");
}

#[test]
fn comprobar_exits_2_on_a_file_it_cannot_read() {
    let d = scratch("ilegible");
    let file = d.join("x.trf");
    std::fs::write(
        &file,
        "012 Torneo\n001    1      Uno                               19x0\n",
    )
    .unwrap();
    let (code, _, err) = escaque(&["torneo", "comprobar", file.to_str().unwrap()], ES);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("línea 2"), "{err}");
    assert!(err.contains("columna"), "{err}");
    let (code, _, err) = escaque(
        &["torneo", "comprobar", d.join("no.trf").to_str().unwrap()],
        EN,
    );
    assert_eq!(code, 2, "{err}");
}

#[test]
fn comprobar_checks_a_directory_with_two_jobs_one_line_a_file() {
    let d = scratch("varios");
    let dir = d.join("torneos");
    std::fs::create_dir_all(&dir).unwrap();
    for (seed, name) in [("3", "a.trf"), ("4", "b.trf"), ("5", "d.trf")] {
        let out = dir.join(name);
        let (code, _, err) = escaque(
            &[
                "torneo",
                "generar",
                "--jugadores",
                "15",
                "--rondas",
                "5",
                "--semilla",
                seed,
                "-o",
                out.to_str().unwrap(),
            ],
            ES,
        );
        assert_eq!(code, 0, "{err}");
    }
    // c.trf: b.trf with round 2's first two boards' black players exchanged.
    let mut t =
        escaque_torneo::trf::parse(&std::fs::read_to_string(dir.join("b.trf")).unwrap()).unwrap();
    let games = &mut t.rounds[1].games;
    let b = games[0].black;
    games[0].black = games[1].black;
    games[1].black = b;
    std::fs::write(dir.join("c.trf"), escaque_torneo::trf::write(&t)).unwrap();
    std::fs::write(dir.join("notas.txt"), "no es un torneo").unwrap();
    let d_str = dir.to_str().unwrap();

    let (code, out, err) = escaque(&["torneo", "comprobar", d_str, "-j", "2"], ES);
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    for (line, name) in lines.iter().zip(["a.trf", "b.trf", "c.trf", "d.trf"]) {
        assert!(line.starts_with(dir.join(name).to_str().unwrap()), "{out}");
    }
    assert!(lines[0].ends_with(": todo correcto (5 rondas)"), "{out}");
    assert!(
        lines[2].contains(
            "problemas; el primero: ronda 2: el emparejamiento no es el del sistema holandés"
        ),
        "{out}"
    );
    assert_eq!(
        lines[4], "4 archivos: 3 correctos, 1 con problemas, 0 ilegibles",
        "{out}"
    );

    // JSON, two jobs: the same verdicts as one at a time, in the same order.
    let (code2, two, _) = escaque(&["torneo", "comprobar", "--json", "-j", "2", d_str], EN);
    let (code1, one, _) = escaque(&["torneo", "comprobar", "--json", d_str], EN);
    assert_eq!((code1, code2), (1, 1));
    assert_eq!(one, two);
    assert_eq!(one.lines().count(), 4, "{one}");

    // An unreadable file among them: exit 2, its line says why, the rest
    // still checked.
    std::fs::write(
        dir.join("e.trf"),
        "012 Torneo\n001    1      Uno                               19x0\n",
    )
    .unwrap();
    let (code, out, _) = escaque(&["torneo", "comprobar", "--trabajos", "0", d_str], EN);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("e.trf: cannot be read:"), "{out}");
    assert!(out.contains("line 2"), "{out}");
    assert!(
        out.ends_with("5 files: 3 right, 1 with problems, 1 unreadable\n"),
        "{out}"
    );
}
