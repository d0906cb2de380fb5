//! `escaque servir` killed with SIGKILL at random moments during play, 50
//! times, and started again on the same data: every acknowledged move is
//! still there, the games continue, and the clocks resume from the stored
//! values.

use std::net::{SocketAddr, TcpStream};
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common;
use crate::common::Rng;
use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

type Ws = WebSocket<MaybeTlsStream<TcpStream>>;

const KILLS: usize = 50;
const GAMES: usize = 3;

fn start(dir: &std::path::Path) -> (Child, SocketAddr) {
    common::start_servir(&["--datos".as_ref(), dir.as_os_str()])
}

/// A game's two seats and the moves acknowledged so far.
#[derive(Clone)]
struct Tracked {
    id: String,
    secrets: [String; 2],
    acked: Vec<String>,
}

fn new_game(addr: SocketAddr) -> Tracked {
    // Two people: each client a new guest.
    let created = common::Client::new(addr).post(
        "/api/games",
        json!({"opponent": "friend", "color": "white", "time_control": "90+30"}),
    );
    let id = created["game"].as_str().expect("game").to_string();
    let joined = common::Client::new(addr).post(&format!("/api/games/{id}/join"), json!({}));
    Tracked {
        id,
        secrets: [
            created["secret"].as_str().unwrap().into(),
            joined["secret"].as_str().unwrap().into(),
        ],
        acked: Vec::new(),
    }
}

fn connect(addr: SocketAddr, game: &str, secret: &str) -> Option<Ws> {
    let (mut ws, _) =
        tungstenite::connect(format!("ws://{addr}/ws/games/{game}?seat={secret}")).ok()?;
    if let MaybeTlsStream::Plain(s) = ws.get_mut() {
        let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    }
    Some(ws)
}

fn read_until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Option<Value> {
    loop {
        match ws.read().ok()? {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str()).ok()?;
                if pred(&v) {
                    return Some(v);
                }
            }
            Message::Close(_) => return None,
            _ => {}
        }
    }
}

/// Plays random legal moves until the connection dies (the kill).
fn play(addr: SocketAddr, g: Arc<Mutex<Tracked>>, first: [Value; 2], seed: u64) {
    let (id, secrets) = {
        let t = g.lock().unwrap();
        (t.id.clone(), t.secrets.clone())
    };
    let mut rng = Rng(seed | 1);
    let (Some(w), Some(b)) = (
        connect(addr, &id, &secrets[0]),
        connect(addr, &id, &secrets[1]),
    ) else {
        return;
    };
    let mut socks = [w, b];
    for s in socks.iter_mut() {
        if read_until(s, |v| v["t"] == "state").is_none() {
            return;
        }
    }
    let mut state = first[0].clone();
    loop {
        if state["status"] != "playing" {
            return;
        }
        let side = if state["turn"] == "white" { 0 } else { 1 };
        let legal = state["legal_uci"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            return;
        }
        let mv = legal[rng.below(legal.len() as u64) as usize]
            .as_str()
            .unwrap()
            .to_string();
        let ply = state["plies"].as_u64().unwrap_or(0);
        let msg = json!({"t": "move", "move": mv, "id": ply});
        if socks[side]
            .send(Message::Text(msg.to_string().into()))
            .is_err()
        {
            return;
        }
        let Some(ev) = read_until(&mut socks[side], |v| {
            v["t"] == "event" && v["event"] == "move" && v["plies"] == ply + 1
        }) else {
            return;
        };
        let Some(ack) = read_until(&mut socks[side], |v| v["t"] == "ack" || v["t"] == "error")
        else {
            return;
        };
        assert_eq!(ack["t"], "ack", "{ack}");
        g.lock().unwrap().acked.push(mv);
        // The other side sees the move too (and its queue is drained).
        if read_until(&mut socks[1 - side], |v| {
            v["t"] == "event" && v["plies"].as_u64() >= Some(ply + 1)
        })
        .is_none()
        {
            return;
        }
        state = ev;
    }
}

#[test]
fn acknowledged_moves_survive_sigkill() {
    let dir = std::env::temp_dir().join(format!("escaque-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ u64::from(std::process::id()));
    let (mut child, addr) = start(&dir);
    let mut games: Vec<Arc<Mutex<Tracked>>> = (0..GAMES)
        .map(|_| Arc::new(Mutex::new(new_game(addr))))
        .collect();
    let mut total_checked = 0usize;
    let mut addr = addr;
    for round in 0..KILLS {
        if round > 0 {
            let (c, a) = start(&dir);
            child = c;
            addr = a;
        }
        let mut threads = Vec::new();
        for g in games.iter_mut() {
            let t = g.lock().unwrap().clone();
            // What the restarted server has: every acknowledged move, in order,
            // and at most one more (stored, then killed before the ack).
            let mut ws = connect(addr, &t.id, &t.secrets[0]).expect("reconnect");
            let st = read_until(&mut ws, |v| v["t"] == "state").expect("state");
            drop(ws);
            let stored: Vec<String> = st["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["uci"].as_str().unwrap().to_string())
                .collect();
            assert!(
                stored.len() >= t.acked.len() && stored.len() <= t.acked.len() + 1,
                "round {round}: {} stored, {} acknowledged",
                stored.len(),
                t.acked.len()
            );
            assert_eq!(stored[..t.acked.len()], t.acked[..], "round {round}");
            total_checked += t.acked.len();
            // Clocks resume from the stored values: the side not to move shows
            // exactly the time recorded with its last move.
            let moves = st["moves"].as_array().unwrap();
            if moves.len() >= 2 && st["status"] == "playing" {
                let last_of_waiting = &moves[moves.len() - 1];
                let waiting = if st["turn"] == "white" {
                    "black_ms"
                } else {
                    "white_ms"
                };
                assert_eq!(
                    st["clock"][waiting], last_of_waiting["clock_ms"],
                    "round {round}: {}",
                    st["clock"]
                );
            }
            if st["status"] != "playing" {
                // Finished (mate, stalemate…): go on with a fresh game.
                *g = Arc::new(Mutex::new(new_game(addr)));
                continue;
            }
            g.lock().unwrap().acked = stored;
            let g2 = Arc::clone(g);
            let seed = rng.next();
            let first = [st.clone(), st];
            threads.push(std::thread::spawn(move || play(addr, g2, first, seed)));
        }
        std::thread::sleep(Duration::from_millis(20 + rng.below(250)));
        child.kill().expect("SIGKILL");
        child.wait().unwrap();
        for t in threads {
            t.join().expect("player thread");
        }
    }
    eprintln!("{KILLS} kills, {total_checked} acknowledged moves checked after restarts");
    assert!(total_checked > KILLS);
    let _ = std::fs::remove_dir_all(&dir);
}
