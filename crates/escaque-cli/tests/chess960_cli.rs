//! Chess960 from the command line: `perft --960 N`, `perft` on X-FEN and
//! Shredder-FEN, and `jugar --960 N` in text mode.

use crate::common;

fn escaque(args: &[&str]) -> (bool, String, String) {
    let (out, err, ok) = common::run_raw(args, "");
    (ok, out, err)
}

#[test]
fn perft_from_numbered_starting_positions() {
    // Counts from Stockfish 15.1 (tests/data/perft/chess960_starts.txt of
    // the rules crate).
    for (n, depth, nodes) in [
        ("0", "3", "9006"),
        ("518", "4", "197281"),
        ("959", "3", "9006"),
    ] {
        let (ok, out, err) = escaque(&["perft", depth, "--960", n]);
        assert!(ok, "{err}");
        assert!(out.contains(&format!("nodos: {nodes} ")), "{n}: {out}");
    }
    let (ok, _, err) = escaque(&["perft", "1", "--960", "960"]);
    assert!(!ok);
    assert!(err.contains("número 960: van de 0 a 959"), "{err}");
    let (ok, _, err) = escaque(&[
        "--idioma",
        "en",
        "perft",
        "1",
        "--960",
        "3",
        "--fen",
        "8/8/8/8/8/8/8/8 w - - 0 1",
    ]);
    assert!(!ok);
    assert!(err.contains("choose one"), "{err}");
}

#[test]
fn perft_reads_shredder_and_x_fen() {
    // python-chess's chess960.perft, id 0.
    let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1";
    let (ok, out, err) = escaque(&["perft", "3", "--fen", shredder]);
    assert!(ok, "{err}");
    assert!(out.contains("nodos: 12189 "), "{out}");
    // X-FEN needs --960 (KQkq alone is standard FEN).
    let xfen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 0 1";
    let (ok, out, err) = escaque(&["perft", "3", "--960", "--fen", xfen]);
    assert!(ok, "{err}");
    assert!(out.contains("nodos: 12189 "), "{out}");
    // As standard FEN the rights are dropped, and said.
    let (ok, _, err) = escaque(&["perft", "1", "--fen", xfen]);
    assert!(ok);
    assert!(err.contains("derecho de enroque"), "{err}");
}

#[test]
fn divide_writes_castling_as_king_takes_rook() {
    let (ok, out, err) = escaque(&[
        "perft",
        "1",
        "--divide",
        "--fen",
        "4k3/8/8/8/8/8/3PP3/6KR w H - 0 1",
    ]);
    assert!(ok, "{err}");
    assert!(out.lines().any(|l| l == "g1h1: 1"), "{out}");
    assert!(out.contains("nodos: 16 "), "{out}");
}

#[test]
fn a_chess960_game_in_text_mode() {
    // Position 3 is BQNNRKRB: the king on f1 castles short at once, onto
    // the g1 rook's square, the rook going to f1.
    let out = common::run_with_input(
        &[
            "jugar",
            "--960",
            "3",
            "--blancas",
            "humano",
            "--negras",
            "humano",
            "--texto",
        ],
        "0-0\nO-O\n",
    );
    assert!(out.contains("Ajedrez 960, posición inicial n.º 3"), "{out}");
    assert!(out.contains("1. 0-0\n"), "{out}");
    assert!(out.contains("1... 0-0\n"), "{out}");
    assert!(out.contains("8  a d c c t t r a  8"), "{out}");
    assert!(out.contains("1  A D C C T T R A  1"), "{out}");
    // English, and at random: some number is shown.
    let out = common::run_with_input(
        &[
            "--idioma",
            "en",
            "jugar",
            "--960",
            "--blancas",
            "humano",
            "--negras",
            "humano",
            "--texto",
        ],
        "",
    );
    assert!(out.contains("Chess960, starting position no. "), "{out}");
}

#[test]
fn a_game_from_a_shredder_fen_is_chess960() {
    // BQNNRKRB (position 3) given as Shredder-FEN: its castling is
    // Chess960's, so 0-0 puts the king on g1 and the rook on f1.
    let out = common::run_with_input(
        &[
            "jugar",
            "--fen",
            "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1",
            "--blancas",
            "humano",
            "--negras",
            "humano",
            "--texto",
        ],
        "0-0\n",
    );
    assert!(out.contains("1. 0-0\n"), "{out}");
    assert!(out.contains("1  A D C C T T R A  1"), "{out}");
}
