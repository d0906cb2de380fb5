//! `escaque uci` played through a real UCI client: python-chess's
//! `chess.engine` (tests/python/uci960_client.py) plays Chess960 games from
//! random starting positions against it and refuses any illegal move. Needs
//! python3 with python-chess (`scripts/python-chess.sh` installs it; CI runs
//! it from `scripts/test`).

use std::process::Command;

#[test]
fn python_chess_plays_chess960_against_escaque_uci() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/uci960_client.py");
    let out = Command::new(std::env::var("PYTHON").unwrap_or_else(|_| "python3".into()))
        .args([script, env!("CARGO_BIN_EXE_escaque"), "6", "960"])
        .output()
        .expect("python3 runs (install python-chess with scripts/python-chess.sh)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "python-chess client failed (is python-chess installed? scripts/python-chess.sh)\n{stdout}\n{stderr}"
    );
    // {"games": 6, "numbers": [...], "plies": N, "castles": C}
    let plies: u32 = field(&stdout, "plies");
    let games: u32 = field(&stdout, "games");
    assert_eq!(games, 6, "{stdout}");
    assert!(plies >= 6 * 20, "too few plies: {stdout}");
    // With this seed the engine castles in some games (6 times when this
    // test was written): castling went both ways through the client.
    assert!(field(&stdout, "castles") >= 1, "no castling: {stdout}");
}

fn field(json: &str, name: &str) -> u32 {
    let key = format!("\"{name}\": ");
    let at = json
        .find(&key)
        .unwrap_or_else(|| panic!("no {name} in {json}"))
        + key.len();
    json[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap()
}
