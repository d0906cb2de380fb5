//! Backups (issue 28): a server with a game in progress and a finished one
//! is backed up while it runs — `escaque respaldo` on SQLite, `pg_dump -Fc`
//! on PostgreSQL — the backup is restored into new storage (the file as a
//! new data directory's `escaque.sqlite3`; `pg_restore` into a new
//! database), and a server there serves both games again: the finished one
//! as it ended, the one in progress with every move made before the backup
//! (none made after), and it goes on.

use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

use crate::common;
use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Ws = WebSocket<MaybeTlsStream<TcpStream>>;

/// A friend game: its id and both seats' secrets (white, black).
struct Game {
    id: String,
    secrets: [String; 2],
}

fn new_game(addr: SocketAddr) -> Game {
    let created = common::Client::new(addr).post(
        "/api/games",
        json!({"opponent": "friend", "color": "white", "time_control": "30+0"}),
    );
    let id = created["game"].as_str().expect("game id").to_string();
    let joined = common::Client::new(addr).post(&format!("/api/games/{id}/join"), json!({}));
    Game {
        id,
        secrets: [
            created["secret"].as_str().expect("secret").into(),
            joined["secret"].as_str().expect("secret").into(),
        ],
    }
}

fn connect(addr: SocketAddr, game: &str, secret: &str) -> Ws {
    let (mut ws, _) = tungstenite::connect(format!("ws://{addr}/ws/games/{game}?seat={secret}"))
        .expect("game socket");
    if let MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    }
    ws
}

fn read_until(ws: &mut Ws, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        match ws.read() {
            Ok(Message::Text(t)) => {
                let v: Value = serde_json::from_str(t.as_str()).expect("JSON");
                if pred(&v) {
                    return v;
                }
            }
            Ok(Message::Close(c)) => panic!("closed while waiting for {what}: {c:?}"),
            Ok(_) => {}
            Err(e) => panic!("waiting for {what}: {e}"),
        }
    }
}

/// The game's `state` as its white seat sees it on connecting.
fn state(addr: SocketAddr, g: &Game) -> Value {
    let mut ws = connect(addr, &g.id, &g.secrets[0]);
    read_until(&mut ws, "state", |v| v["t"] == "state")
}

fn ucis(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["uci"].as_str().unwrap().to_string())
        .collect()
}

/// Plays `moves` alternately from White's and Black's sockets, each one
/// acknowledged before the next.
fn play(addr: SocketAddr, g: &Game, moves: &[&str]) {
    let mut socks = [
        connect(addr, &g.id, &g.secrets[0]),
        connect(addr, &g.id, &g.secrets[1]),
    ];
    let mut plies = 0;
    for s in socks.iter_mut() {
        plies = read_until(s, "state", |v| v["t"] == "state")["plies"]
            .as_u64()
            .unwrap();
    }
    for mv in moves {
        let side = (plies % 2) as usize;
        let msg = json!({"t": "move", "move": mv, "id": plies});
        socks[side]
            .send(Message::Text(msg.to_string().into()))
            .unwrap();
        let ack = read_until(&mut socks[side], "ack", |v| {
            v["t"] == "ack" || v["t"] == "error"
        });
        assert_eq!(ack["t"], "ack", "{mv}: {ack}");
        plies += 1;
        read_until(&mut socks[1 - side], "the move", |v| {
            v["t"] == "event" && v["plies"].as_u64() >= Some(plies)
        });
    }
}

fn resign(addr: SocketAddr, g: &Game) {
    let mut ws = connect(addr, &g.id, &g.secrets[0]);
    read_until(&mut ws, "state", |v| v["t"] == "state");
    ws.send(Message::Text(json!({"t": "resign"}).to_string().into()))
        .unwrap();
    read_until(&mut ws, "the end", |v| v["status"] == "over");
}

/// Kills the server when the test ends, however it ends.
struct Server(Child, SocketAddr);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn servir(storage: &[&str]) -> Server {
    let args: Vec<&std::ffi::OsStr> = storage.iter().map(|s| s.as_ref()).collect();
    let (child, addr) = common::start_servir(&args);
    Server(child, addr)
}

const BEFORE: &[&str] = &["e2e4", "e7e5", "g1f3"];

/// Makes the two games on a running server: one in progress (`BEFORE`
/// played), one over (White resigned after two moves).
fn two_games(addr: SocketAddr) -> (Game, Game) {
    let going = new_game(addr);
    play(addr, &going, BEFORE);
    let over = new_game(addr);
    play(addr, &over, &["d2d4", "d7d5"]);
    resign(addr, &over);
    (going, over)
}

/// On the restored server: the finished game as it ended, the game in
/// progress with exactly the moves made before the backup, and it goes on
/// (Black answers, White's seat sees it).
fn check_restored(addr: SocketAddr, going: &Game, over: &Game) {
    let st = state(addr, over);
    assert_eq!(st["status"], "over", "{st}");
    assert_eq!(st["termination"], "resignation");
    assert_eq!(st["termination_side"], "white");
    assert_eq!(st["result"], "0-1");
    assert_eq!(ucis(&st), ["d2d4", "d7d5"]);

    let st = state(addr, going);
    assert_eq!(st["status"], "playing", "{st}");
    assert_eq!(ucis(&st), BEFORE, "the moves made before the backup, only");
    play(addr, going, &["b8c6", "f1b5"]);
    let st = state(addr, going);
    assert_eq!(ucis(&st), ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]);
}

fn respaldo(data: &Path, file: &Path) -> (String, String, bool) {
    common::run_raw(
        &[
            "respaldo",
            "--datos",
            data.to_str().unwrap(),
            file.to_str().unwrap(),
        ],
        "",
    )
}

#[test]
fn sqlite_backup_while_serving_restores_and_serves_again() {
    let root = common::temp_dir("respaldo");
    let data = root.join("datos");
    let server = servir(&["--datos", data.to_str().unwrap()]);
    let addr = server.1;
    let (going, over) = two_games(addr);

    // The backup, while the server runs (its connections open, its WAL in
    // use); a move made after it is not in it.
    let file = root.join("copia.sqlite3");
    let (out, err, ok) = respaldo(&data, &file);
    assert!(ok, "escaque respaldo failed: {out}{err}");
    assert!(out.contains("copia de seguridad escrita en"), "{out}");
    play(addr, &going, &["b8c6"]);

    // Never over an existing file; nothing made from a directory without a
    // database.
    let (_, err, ok) = respaldo(&data, &file);
    assert!(!ok && err.contains("ya existe"), "{err}");
    let (_, err, ok) = respaldo(&root.join("vacio"), &root.join("otra.sqlite3"));
    assert!(!ok && err.contains("no hay base de datos"), "{err}");
    assert!(!root.join("otra.sqlite3").exists());
    assert!(!root.join("vacio").exists(), "the directory is not created");
    drop(server);

    // Restored: the file as a new data directory's escaque.sqlite3.
    let restored = root.join("restaurado");
    std::fs::create_dir_all(&restored).unwrap();
    std::fs::copy(&file, restored.join("escaque.sqlite3")).unwrap();
    let server = servir(&["--datos", restored.to_str().unwrap()]);
    check_restored(server.1, &going, &over);
    drop(server);
    let _ = std::fs::remove_dir_all(&root);
}

/// The directory of the PostgreSQL programs, found as scripts/postgres.sh
/// finds them (the newest `/usr/lib/postgresql/*/bin`); else whatever
/// `pg_dump` is on PATH.
fn pg_bin(tool: &str) -> PathBuf {
    let newest = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join(tool).is_file().then_some((v, bin))
        })
        .max_by_key(|(v, _)| *v);
    match newest {
        Some((_, bin)) => bin.join(tool),
        None => PathBuf::from(tool),
    }
}

fn run_tool(tool: &str, args: &[&str]) {
    let out = Command::new(pg_bin(tool))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    assert!(
        out.status.success(),
        "{tool} {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn postgres_pg_dump_while_serving_restores_and_serves_again() {
    let Some(db) = common::cluster::fresh_postgres("respaldo") else {
        return;
    };
    let root = common::temp_dir("respaldo-pg");
    let server = servir(&["--db", &db]);
    let addr = server.1;
    let (going, over) = two_games(addr);

    let file = root.join("escaque.dump");
    run_tool("pg_dump", &["-Fc", "-f", file.to_str().unwrap(), &db]);
    play(addr, &going, &["b8c6"]);
    drop(server);

    let restored = common::cluster::fresh_postgres("restaurado").expect("postgres");
    run_tool(
        "pg_restore",
        &[
            "--no-owner",
            "--exit-on-error",
            "-d",
            &restored,
            file.to_str().unwrap(),
        ],
    );
    let server = servir(&["--db", &restored]);
    check_restored(server.1, &going, &over);
    drop(server);
    let _ = std::fs::remove_dir_all(&root);
}
