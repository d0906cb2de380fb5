//! `escaque problemas` (alias `puzzles`), run as a user runs it: `buscar`
//! on a game, `importar` with bad lines, and the text mode through a pipe.

use crate::common;

use common::{run_raw, run_raw_env, run_with_input, temp_dir};

/// `escaque ARGS` with `input` on its standard input and the player's data
/// (the local puzzle rating) in `data`, not in the user's home.
fn run_in(data: &std::path::Path, args: &[&str], input: &str) -> String {
    let (out, err, ok) = run_raw_env(args, input, &[("ESCAQUE_DATOS", data.to_str().unwrap())]);
    assert!(ok, "escaque {args:?} failed\n{out}\n{err}");
    out
}

/// A mate in one escaque's generator found in one of its own games
/// (`escaque autopartidas 56/153`): after 11... bxc4, 12. Qxf7#.
const MATE_LINE: &str = "3CKh3,r1bqkb1r/2p2pp1/p1n1p3/1p2P1Np/2BP2n1/2N2Q1P/PP3PP1/R1B1K2R b KQkq - 1 11,b5c4 f3f7,600,300,0,0,attackingF2F7 mate mateIn1 oneMove opening,escaque autopartidas 56/153#22,Indian_Defense Indian_Defense_Normal_Variation";

const HEADER: &str =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";

fn puzzle_file(tag: &str, lines: &[&str]) -> std::path::PathBuf {
    let dir = temp_dir(tag);
    let path = dir.join("problemas.csv");
    let mut text = format!("{HEADER}\n");
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_text_mode_solves_a_mate_in_one_through_a_pipe() {
    let file = puzzle_file("problemas-texto", &[MATE_LINE]);
    let out = run_in(
        file.parent().unwrap(),
        &["problemas", "--texto", "--archivo", file.to_str().unwrap()],
        "pista\nDxf7\n",
    );
    assert!(
        out.contains("El rival jugó bxc4. Juegan las blancas."),
        "{out}"
    );
    assert!(out.contains("Pista: mueve la dama de f3."), "{out}");
    assert!(out.contains("¡Correcto! Resuelto."), "{out}");
    assert!(
        out.contains("ataque a f2/f7"),
        "the themes in Spanish: {out}"
    );
    assert!(out.contains("Resueltos: 1. Fallados: 0."), "{out}");
}

#[test]
fn a_wrong_move_shows_the_solution_in_english() {
    let file = puzzle_file("problemas-mal", &[MATE_LINE]);
    let out = run_in(
        file.parent().unwrap(),
        &[
            "--idioma",
            "en",
            "problemas",
            "--texto",
            "--archivo",
            file.to_str().unwrap(),
        ],
        "e4e5\na3\n",
    );
    // e4e5 is no legal move here: said, and asked again.
    assert!(out.contains("Wrong."), "{out}");
    assert!(out.contains("The solution: Qxf7#"), "{out}");
    assert!(out.contains("Solved: 0. Missed: 1."), "{out}");
}

/// The player's own rating: a solve after a hint scores ½ against the
/// puzzle's 600, a clean solve 1, a miss 0; each run starts from the rating
/// the last one saved, and the puzzles nearest it come first.
#[test]
fn the_local_rating_moves_with_each_puzzle_and_is_kept_between_runs() {
    const SECOND: &str = "zzzzz,r1bqkb1r/2p2pp1/p1n1p3/1p2P1Np/2BP2n1/2N2Q1P/PP3PP1/R1B1K2R b KQkq - 1 11,b5c4 f3f7,2000,300,0,0,mate mateIn1 oneMove opening,,";
    let file = puzzle_file("problemas-puntuacion", &[MATE_LINE, SECOND]);
    let data = file.parent().unwrap().join("datos");
    let args = ["problemas", "--texto", "--archivo", file.to_str().unwrap()];
    // New player: 1500; the 2000 puzzle is nearer, so it comes first.
    let out = run_in(&data, &args, "Dxf7\nsalir\n");
    assert!(out.contains("Problema 1 (zzzzz)"), "{out}");
    assert!(out.contains("Tu puntuación: 1500 →"), "{out}");
    let saved = std::fs::read_to_string(data.join("problemas-puntuacion.txt")).unwrap();
    let first: f64 = saved.split_whitespace().next().unwrap().parse().unwrap();
    assert!(first > 1500.0, "{saved}");
    assert!(saved.trim_end().ends_with(" 1 0"), "{saved}");
    // The next run starts there; a wrong move brings it down.
    let out = run_in(&data, &args, "Dxf7\na3\n");
    let shown = format!("Tu puntuación: {} →", first.round());
    assert!(out.contains(&shown), "{shown} in {out}");
    let saved = std::fs::read_to_string(data.join("problemas-puntuacion.txt")).unwrap();
    assert!(saved.trim_end().ends_with(" 2 1"), "{saved}");
    // --ninos: stars, never a rating.
    let out = run_in(
        &data,
        &["problemas", "--texto", "--ninos", "--nivel", "600"],
        "salir\n",
    );
    assert!(out.contains('★'), "{out}");
    assert!(!out.contains("Tu puntuación"), "{out}");
}

#[test]
fn import_reports_bad_lines_by_number_and_keeps_the_rest() {
    let file = puzzle_file(
        "problemas-importar",
        &[
            MATE_LINE,
            "malFEN,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1,e2e4 e7e5,1500,80,0,0,,,",
            "malaJugada,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,e2e4 e7e4,1500,80,0,0,,,",
            "bien,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,e2e4 e7e5,1500,80,0,0,opening,,",
        ],
    );
    let dir = temp_dir("problemas-coleccion");
    let coll = dir.join("sub").join("coleccion.csv");
    let (out, err, ok) = run_raw(
        &[
            "problemas",
            "importar",
            file.to_str().unwrap(),
            "--coleccion",
            coll.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{out}\n{err}");
    assert!(err.contains("línea 3: FEN no válido"), "{err}");
    assert!(
        err.contains("línea 4: la jugada 2 («e7e4») no es legal"),
        "{err}"
    );
    assert!(out.contains("2 problemas importados"), "{out}");
    assert!(out.contains("2 líneas con errores"), "{out}");
    let saved = std::fs::read_to_string(&coll).unwrap();
    assert_eq!(saved.lines().count(), 3, "{saved}");
    assert!(saved.starts_with(HEADER));
    assert!(saved.contains(MATE_LINE), "written back as read: {saved}");
    // Importing again adds nothing twice.
    let out = run_with_input(
        &[
            "problemas",
            "importar",
            file.to_str().unwrap(),
            "--coleccion",
            coll.to_str().unwrap(),
        ],
        "",
    );
    assert!(out.contains("0 problemas importados"), "{out}");
    assert_eq!(std::fs::read_to_string(&coll).unwrap().lines().count(), 3);
}

#[test]
fn buscar_finds_the_mate_after_the_blunder_of_a_game() {
    let dir = temp_dir("problemas-buscar");
    let pgn = dir.join("partida.pgn");
    std::fs::write(
        &pgn,
        "[Event \"prueba\"]\n[Site \"https://example.invalid/partida\"]\n[SetUp \"1\"]\n\
         [FEN \"r1bqkb1r/2p2pp1/p1n1p3/1p2P1Np/2BP2n1/2N2Q1P/PP3PP1/R1B1K2R b KQkq - 1 11\"]\n\
         [Result \"1-0\"]\n\n11... bxc4 12. Qxf7# 1-0\n",
    )
    .unwrap();
    let csv = dir.join("problemas.csv");
    let (out, err, ok) = run_raw(
        &[
            "problemas",
            "buscar",
            pgn.to_str().unwrap(),
            "-o",
            csv.to_str().unwrap(),
        ],
        "",
    );
    assert!(ok, "{out}\n{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], HEADER);
    assert_eq!(lines.len(), 2, "{text}");
    let f: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(
        f[1],
        "r1bqkb1r/2p2pp1/p1n1p3/1p2P1Np/2BP2n1/2N2Q1P/PP3PP1/R1B1K2R b KQkq - 1 11"
    );
    assert_eq!(f[2], "b5c4 f3f7");
    assert!(f[7].split(' ').any(|t| t == "mateIn1"), "{}", f[7]);
    assert_eq!(f[8], "https://example.invalid/partida#1");
}
