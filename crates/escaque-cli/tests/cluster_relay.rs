//! Any process serves any connection (issue 28, shown right by item 1):
//! three `escaque servir` processes on one PostgreSQL database; a game
//! created on `a` is played with White connected to `a` and Black to `b`,
//! watched from `a`, `b` and `c`: every move reaches every client, in
//! order; the seat on `b` acts through `b`; HTTP on `b` serves `a`'s game.
//! The latency from a move sent to its arrival at the spectator on `b` is
//! printed (`relay latency p50=… p99=…`), beside the spectator on `a`
//! (`direct latency …`). When the owner dies, the connections served
//! through a stand-in stay open: the survivor takes the game over and
//! the game goes on on them (issue 60). And the internal routes: refused without the processes'
//! secret, refused by a process that does not own the game, and random
//! frames never bring the owner down.

use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use crate::common::cluster::{fresh_postgres, Node};
use crate::common::{Client, Rng};

type Ws = WebSocket<MaybeTlsStream<TcpStream>>;

const LEASE_MS: u64 = 1500;
/// Plies played (fewer if the game ends first).
const PLIES: usize = 120;
/// Between two moves (each seat moves every other time: within the
/// per-connection rate limit).
const PACE: Duration = Duration::from_millis(60);

fn connect(addr: SocketAddr, path: &str) -> Ws {
    let (mut ws, _) = tungstenite::connect(format!("ws://{addr}{path}"))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    if let MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.set_nodelay(true).unwrap();
    }
    ws
}

/// The next JSON message (pings answered), `None` on a timeout or close.
fn next(ws: &mut Ws) -> Option<Value> {
    loop {
        match ws.read() {
            Ok(Message::Text(t)) => {
                let v: Value = serde_json::from_str(t.as_str()).expect("JSON");
                if v["t"] == "ping" {
                    let pong = json!({"t": "pong", "n": v["n"]}).to_string();
                    ws.send(Message::Text(pong.into())).ok()?;
                    continue;
                }
                return Some(v);
            }
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

fn until(ws: &mut Ws, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        match next(ws) {
            Some(v) if pred(&v) => return v,
            Some(_) => {}
            None => panic!("socket closed or silent, waiting for {what}"),
        }
    }
}

fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).expect("send");
}

/// Each move event a connection receives, in order: (plies, uci, when).
type Seen = Arc<Mutex<Vec<(u64, String, Instant)>>>;

/// A spectator on its own thread: records every move event as it arrives
/// until `stop`.
fn spectator(
    addr: SocketAddr,
    game: &str,
    stop: Arc<AtomicBool>,
) -> (Seen, std::thread::JoinHandle<()>) {
    let seen: Seen = Arc::default();
    let mut ws = connect(addr, &format!("/ws/games/{game}"));
    let first = until(&mut ws, "state", |v| v["t"] == "state");
    assert_eq!(first["you"], Value::Null, "a spectator holds no seat");
    if let MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
    }
    let out = Arc::clone(&seen);
    let handle = std::thread::spawn(move || loop {
        match ws.read() {
            Ok(Message::Text(t)) => {
                let at = Instant::now();
                let v: Value = serde_json::from_str(t.as_str()).expect("JSON");
                if v["t"] == "ping" {
                    let pong = json!({"t": "pong", "n": v["n"]}).to_string();
                    let _ = ws.send(Message::Text(pong.into()));
                } else if v["t"] == "event" && v["event"] == "move" {
                    let uci = v["last_move"]["uci"].as_str().unwrap_or("").to_string();
                    out.lock()
                        .unwrap()
                        .push((v["plies"].as_u64().unwrap(), uci, at));
                }
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
            }
            Err(e) => panic!("spectator socket: {e}"),
        }
    });
    (seen, handle)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> String {
    format!("{:.2}ms", d.as_secs_f64() * 1000.0)
}

#[test]
fn every_move_reaches_every_client_through_any_process() {
    let Some(db) = fresh_postgres("relay") else {
        return;
    };
    let a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let c = Node::start(&db, "c", LEASE_MS, &[]);

    // A challenge created on a; its free seat taken over HTTP on b.
    let created = Client::new(a.addr).post(
        "/api/games",
        json!({"opponent": "friend", "color": "white", "time_control": "10+5"}),
    );
    let id = created["game"].as_str().expect("game id").to_string();
    let white_secret = created["secret"].as_str().unwrap().to_string();
    let joined = Client::new(b.addr).post(&format!("/api/games/{id}/join"), json!({}));
    let black_secret = joined["secret"]
        .as_str()
        .expect("black's secret")
        .to_string();
    // GET the game on b: the owner's state, with both seats.
    let st = Client::new(b.addr).get(&format!("/api/games/{id}"));
    assert_eq!(st["status"], "playing", "{st}");
    assert_eq!(st["plies"], 0);

    let mut white = connect(a.addr, &format!("/ws/games/{id}?seat={white_secret}"));
    let mut black = connect(b.addr, &format!("/ws/games/{id}?seat={black_secret}"));
    let first = until(&mut white, "state", |v| v["t"] == "state");
    assert_eq!(first["you"], "white");
    let first_black = until(&mut black, "state", |v| v["t"] == "state");
    assert_eq!(first_black["you"], "black", "the seat is held through b");
    let stop = Arc::new(AtomicBool::new(false));
    let (on_a, ta) = spectator(a.addr, &id, Arc::clone(&stop));
    let (on_b, tb) = spectator(b.addr, &id, Arc::clone(&stop));
    let (on_c, tc) = spectator(c.addr, &id, Arc::clone(&stop));

    let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ u64::from(std::process::id()));
    let mut played: Vec<String> = Vec::new();
    let mut sent_at: Vec<Instant> = Vec::new();
    // How long each seat's moves took to be acknowledged: White on a (the
    // owner), Black on b (relayed).
    let mut acked: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut state = first;
    let socks = [&mut white, &mut black];
    while played.len() < PLIES && state["status"] == "playing" {
        let side = if state["turn"] == "white" { 0 } else { 1 };
        let legal = state["legal_uci"].as_array().cloned().unwrap_or_default();
        assert!(!legal.is_empty(), "{state}");
        let mv = legal[rng.pick(legal.len())].as_str().unwrap().to_string();
        let ply = played.len() as u64;
        // Within the per-connection rate limit (10 messages a second).
        if let Some(last) = sent_at.last() {
            let next_at = *last + PACE;
            std::thread::sleep(next_at.saturating_duration_since(Instant::now()));
        }
        sent_at.push(Instant::now());
        send(socks[side], json!({"t": "move", "move": mv, "id": ply}));
        played.push(mv.clone());
        // The mover: the move's event, then the ack (nothing in between
        // skipped: every move event is the next ply).
        let ev = loop {
            let v = next(socks[side]).expect("mover's socket");
            if v["t"] == "error" {
                panic!("move {mv} refused: {v}");
            }
            if v["t"] == "event" && v["event"] == "move" {
                assert_eq!(v["plies"], ply + 1, "{v}");
                assert_eq!(v["last_move"]["uci"], mv.as_str());
                break v;
            }
        };
        until(socks[side], "ack", |v| v["t"] == "ack" && v["id"] == ply);
        acked[side].push(sent_at[ply as usize].elapsed());
        // The opponent sees it too, as the next ply.
        let seen = loop {
            let v = next(socks[1 - side]).expect("opponent's socket");
            if v["t"] == "event" && v["event"] == "move" {
                break v;
            }
        };
        assert_eq!(seen["plies"], ply + 1, "{seen}");
        assert_eq!(seen["last_move"]["uci"], mv.as_str());
        state = ev;
    }
    let n = played.len();
    assert!(n >= 20, "only {n} plies played");

    // Every spectator got every move, in order.
    let deadline = Instant::now() + Duration::from_secs(10);
    for (name, seen) in [("a", &on_a), ("b", &on_b), ("c", &on_c)] {
        while seen.lock().unwrap().len() < n && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let seen = seen.lock().unwrap();
        let got: Vec<(u64, &str)> = seen.iter().map(|(p, u, _)| (*p, u.as_str())).collect();
        let want: Vec<(u64, &str)> = played
            .iter()
            .enumerate()
            .map(|(i, u)| (i as u64 + 1, u.as_str()))
            .collect();
        assert_eq!(got, want, "spectator on {name}");
    }
    stop.store(true, Ordering::SeqCst);
    for t in [ta, tb, tc] {
        t.join().unwrap();
    }

    // The latency of each move to the spectator on b (relayed) and on a
    // (the owner's own).
    let lat = |seen: &Seen| {
        let mut v: Vec<Duration> = seen
            .lock()
            .unwrap()
            .iter()
            .map(|(p, _, at)| at.duration_since(sent_at[*p as usize - 1]))
            .collect();
        v.sort();
        v
    };
    let relay = lat(&on_b);
    let direct = lat(&on_a);
    println!(
        "relay latency p50={} p99={} (n={n}, spectator on b, game owned by a)",
        ms(percentile(&relay, 0.5)),
        ms(percentile(&relay, 0.99))
    );
    println!(
        "direct latency p50={} p99={} (n={n}, spectator on a)",
        ms(percentile(&direct, 0.5)),
        ms(percentile(&direct, 0.99))
    );
    for (seat, name) in [
        (1, "relayed ack (Black on b)"),
        (0, "direct ack (White on a)"),
    ] {
        acked[seat].sort();
        println!(
            "{name} p50={} p99={}",
            ms(percentile(&acked[seat], 0.5)),
            ms(percentile(&acked[seat], 0.99))
        );
    }

    // The seats act from b: a state request answered through b, and a draw
    // offered from b and declined from a.
    send(socks[1], json!({"t": "state", "id": 9001}));
    let again = until(socks[1], "state", |v| v["t"] == "state" && v["id"] == 9001);
    assert_eq!(again["you"], "black");
    assert_eq!(again["plies"], n as u64);
    if again["status"] == "playing" {
        send(socks[1], json!({"t": "offer_draw", "id": 9002}));
        until(socks[1], "ack", |v| v["t"] == "ack" && v["id"] == 9002);
        until(socks[0], "the offer", |v| {
            v["t"] == "event" && v["draw_offer"] == "black"
        });
        send(socks[0], json!({"t": "decline_draw", "id": 9003}));
        until(socks[0], "ack", |v| v["t"] == "ack" && v["id"] == 9003);
        until(socks[1], "the offer declined", |v| {
            v["t"] == "event" && v["draw_offer"].is_null()
        });
    }

    // HTTP on b for a's game: the state and the record.
    let st = Client::new(b.addr).get(&format!("/api/games/{id}"));
    assert_eq!(st["plies"], n as u64, "{st}");
    let ucis: Vec<&str> = st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap())
        .collect();
    assert_eq!(ucis, played.iter().map(String::as_str).collect::<Vec<_>>());
    let (status, pgn) = Client::new(b.addr).req("GET", &format!("/api/games/{id}/pgn"), None);
    assert_eq!(status, 200, "{pgn}");
    let first_san = st["moves"][0]["san"].as_str().unwrap();
    assert!(pgn.contains(&format!("1. {first_san}")), "{pgn}");
    // The game is a's: no other process took it.
    let owner = query_one(
        &db,
        &format!("SELECT owner_node FROM games WHERE id = '{id}'"),
    );
    assert_eq!(owner, "a");
}

/// One text value from the database.
fn query_one(url: &str, sql: &str) -> String {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::PgConnection::connect(url).await.expect("postgres");
        let (v,): (String,) = sqlx::query_as(sql).fetch_one(&mut c).await.expect("query");
        v
    })
}

/// A request to an internal route with headers `extra`: (status, body).
fn internal(addr: SocketAddr, path: &str, body: &Value, extra: &[(&str, &str)]) -> (u16, Value) {
    use std::io::{Read, Write};
    let mut s = TcpStream::connect(addr).unwrap();
    let b = body.to_string();
    let mut req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        b.len()
    );
    for (k, v) in extra {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(&b);
    s.write_all(req.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let (head, body) = out.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// An internal WebSocket to game `id` on `addr`, with `secret`.
fn internal_ws(addr: SocketAddr, id: &str, secret: Option<&str>) -> Result<Ws, tungstenite::Error> {
    internal_ws_as(addr, &format!("/interno/ws/games/{id}"), secret)
}

/// An internal WebSocket to `path` on `addr`, with `secret`.
fn internal_ws_as(
    addr: SocketAddr,
    path: &str,
    secret: Option<&str>,
) -> Result<Ws, tungstenite::Error> {
    let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
    if let Some(s) = secret {
        req.headers_mut()
            .insert("x-escaque-clave", s.parse().unwrap());
    }
    let (mut ws, _) = tungstenite::connect(req)?;
    if let MaybeTlsStream::Plain(s) = ws.get_mut() {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    }
    Ok(ws)
}

#[test]
fn internal_routes_want_the_secret_and_the_owner() {
    let Some(db) = fresh_postgres("relay_secret") else {
        return;
    };
    let a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let created = Client::new(a.addr).post("/api/games", json!({"opponent": "friend"}));
    let id = created["game"].as_str().unwrap().to_string();
    let secret = query_one(&db, "SELECT value FROM meta WHERE key = 'cluster_secret'");
    let path = format!("/interno/games/{id}/cmd");
    let probe = json!({"cmd": "probe"});
    // Without the secret, or with another: an unknown route.
    let (unknown, body) = internal(a.addr, "/interno/nada", &probe, &[]);
    assert_eq!(unknown, 404);
    for extra in [
        &[][..],
        &[("x-escaque-clave", "0123456789abcdef0123456789abcdef")][..],
    ] {
        let (status, refused) = internal(a.addr, &path, &probe, extra);
        assert_eq!((status, &refused), (404, &body), "{extra:?}");
        match internal_ws(a.addr, &id, extra.first().map(|h| h.1)) {
            Err(tungstenite::Error::Http(r)) => assert_eq!(r.status(), 404),
            other => panic!(
                "internal socket without the secret: {:?}",
                other.map(|_| ())
            ),
        }
    }
    // With it: the owner answers; another process says it does not own the
    // game; a bad command is refused.
    let with = [("x-escaque-clave", secret.as_str())];
    assert_eq!(internal(a.addr, &path, &probe, &with).0, 200);
    let (status, body) = internal(b.addr, &path, &probe, &with);
    assert_eq!((status, body["code"].as_str()), (409, Some("not_owner")));
    match internal_ws(b.addr, &id, Some(&secret)) {
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status(), 409),
        other => panic!("internal socket on a non-owner: {:?}", other.map(|_| ())),
    }
    let (status, body) = internal(a.addr, &path, &json!({"cmd": "launch_missiles"}), &with);
    assert_eq!((status, body["code"].as_str()), (400, Some("malformed")));
    let (status, _) = internal(a.addr, "/interno/games/nope/cmd", &probe, &with);
    assert_eq!(status, 404);
}

#[test]
fn random_internal_frames_never_bring_the_owner_down() {
    let Some(db) = fresh_postgres("relay_fuzz") else {
        return;
    };
    let mut a = Node::start(&db, "a", LEASE_MS, &[]);
    let created = Client::new(a.addr).post("/api/games", json!({"opponent": "friend"}));
    let id = created["game"].as_str().unwrap().to_string();
    let secret = query_one(&db, "SELECT value FROM meta WHERE key = 'cluster_secret'");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ u64::from(std::process::id()));
    let pieces = [
        "{",
        "}",
        "\"msg\"",
        ":",
        "{\"t\":\"move\",\"move\":\"e2e4\"}",
        "\"rtt_us\"",
        "18446744073709551615",
        "-1",
        "\"held_us\"",
        ",",
        "null",
        "[",
        "]",
        "\"t\"",
        "\"state\"",
        "1e999",
        "\u{0}",
        "ñ",
        "\"id\"",
    ];
    for round in 0..4 {
        let mut ws = internal_ws(a.addr, &id, Some(&secret)).expect("internal socket");
        until(&mut ws, "state", |v| v["t"] == "state");
        for _ in 0..150 {
            let frame = match rng.pick(3) {
                0 => {
                    let len = rng.pick(200);
                    let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
                    Message::Text(String::from_utf8_lossy(&bytes).into_owned().into())
                }
                1 => {
                    let k = 1 + rng.pick(12);
                    let text: String = (0..k).map(|_| pieces[rng.pick(pieces.len())]).collect();
                    Message::Text(text.into())
                }
                _ => {
                    let len = rng.pick(100);
                    Message::Binary(
                        (0..len)
                            .map(|_| rng.next() as u8)
                            .collect::<Vec<u8>>()
                            .into(),
                    )
                }
            };
            ws.send(frame).expect("the owner still reads");
        }
        // Still served: a well-formed frame is answered.
        let id_n = 70_000 + round;
        ws.send(Message::Text(
            json!({"msg": {"t": "state", "id": id_n}, "rtt_us": 100, "held_us": 10})
                .to_string()
                .into(),
        ))
        .unwrap();
        let st = until(&mut ws, "state", |v| v["t"] == "state" && v["id"] == id_n);
        assert_eq!(st["game"], id.as_str());
    }
    assert!(a.child.try_wait().unwrap().is_none(), "the owner died");
    let st = Client::new(a.addr).get(&format!("/api/games/{id}"));
    assert_eq!(st["status"], "waiting");
    a.kill();
}

#[test]
fn when_the_owner_dies_relayed_clients_stay_and_play_on() {
    let Some(db) = fresh_postgres("relay_owner_dies") else {
        return;
    };
    let mut a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let created = Client::new(a.addr).post(
        "/api/games",
        json!({"opponent": "friend", "color": "white", "time_control": "10+5"}),
    );
    let id = created["game"].as_str().unwrap().to_string();
    let ws_secret = created["secret"].as_str().unwrap().to_string();
    let joined = Client::new(b.addr).post(&format!("/api/games/{id}/join"), json!({}));
    let bs_secret = joined["secret"].as_str().unwrap().to_string();
    let white_path = format!("/ws/games/{id}?seat={ws_secret}");
    let black_path = format!("/ws/games/{id}?seat={bs_secret}");
    let mut white = connect(a.addr, &white_path);
    let mut black = connect(b.addr, &black_path);
    let mut watcher = connect(b.addr, &format!("/ws/games/{id}"));
    for ws in [&mut white, &mut black, &mut watcher] {
        until(ws, "state", |v| v["t"] == "state");
    }
    let line = ["e2e4", "e7e5", "g1f3", "b8c6"];
    for (i, mv) in line.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut white } else { &mut black };
        send(mover, json!({"t": "move", "move": mv, "id": i}));
        until(mover, "ack", |v| v["t"] == "ack" && v["id"] == i);
    }
    until(&mut watcher, "the last move", |v| {
        v["t"] == "event" && v["plies"] == 4
    });

    // The owner dies: the sockets served through b stay open (issue 60):
    // b takes the game over at once (a's database session is gone) and
    // sends each of them the full state again, every move there.
    a.kill();
    for (ws, who) in [(&mut black, "black"), (&mut watcher, "the spectator")] {
        let st = until(ws, "the state again", |v| {
            v["t"] == "state" && v["status"] == "playing"
        });
        assert_eq!(st["plies"], 4, "{who}: {st}");
        assert_eq!(st["last_move"]["uci"], "b8c6", "{who}: {st}");
    }
    // White, whose socket to a is gone, reconnects to b; the game goes on,
    // Black and the spectator on the sockets they had.
    let mut white = connect(b.addr, &white_path);
    let st = until(&mut white, "state", |v| {
        v["t"] == "state" && v["status"] == "playing"
    });
    assert_eq!(st["you"], "white");
    assert_eq!(st["plies"], 4, "{st}");
    send(&mut white, json!({"t": "move", "move": "f1b5", "id": 5}));
    until(&mut white, "ack", |v| v["t"] == "ack" && v["id"] == 5);
    for ws in [&mut black, &mut watcher] {
        until(ws, "the move", |v| {
            v["t"] == "event" && v["plies"] == 5 && v["last_move"]["uci"] == "f1b5"
        });
    }
    send(&mut black, json!({"t": "move", "move": "a7a6", "id": 6}));
    until(&mut black, "ack", |v| v["t"] == "ack" && v["id"] == 6);
    until(&mut watcher, "the move", |v| {
        v["t"] == "event" && v["plies"] == 6
    });
    let owner = query_one(
        &db,
        &format!("SELECT owner_node FROM games WHERE id = '{id}'"),
    );
    assert_eq!(owner, "b");
}

/// The fault of a rolling restart through nginx (issue 53): a move relayed
/// to the owner, which the owner never answered because it went away, got
/// neither `ack` nor `error` on the socket the stand-in kept open. Now
/// every message the owner was sent and did not answer is refused with
/// `retry` (its `id` echoed) before the state that says whether it was
/// done. The owner is paused before the messages are sent (its kernel
/// takes them; nobody reads them), then killed.
#[test]
fn a_relayed_message_the_owner_never_answered_is_answered_retry() {
    let Some(db) = fresh_postgres("relay_retry") else {
        return;
    };
    let mut a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let created = Client::new(a.addr).post(
        "/api/games",
        json!({"opponent": "friend", "color": "white", "time_control": "10+5"}),
    );
    let id = created["game"].as_str().unwrap().to_string();
    let ws_secret = created["secret"].as_str().unwrap().to_string();
    let joined = Client::new(b.addr).post(&format!("/api/games/{id}/join"), json!({}));
    let bs_secret = joined["secret"].as_str().unwrap().to_string();
    let mut white = connect(a.addr, &format!("/ws/games/{id}?seat={ws_secret}"));
    let mut black = connect(b.addr, &format!("/ws/games/{id}?seat={bs_secret}"));
    for ws in [&mut white, &mut black] {
        until(ws, "state", |v| v["t"] == "state");
    }
    send(&mut white, json!({"t": "move", "move": "e2e4", "id": 0}));
    until(&mut white, "ack", |v| v["t"] == "ack" && v["id"] == 0);
    until(&mut black, "the move", |v| {
        v["t"] == "event" && v["plies"] == 1
    });

    a.signal("STOP");
    send(&mut black, json!({"t": "move", "move": "e7e5", "id": 1}));
    send(&mut black, json!({"t": "offer_draw", "id": 2}));
    send(&mut black, json!({"t": "state", "id": 3}));
    std::thread::sleep(Duration::from_millis(300));
    a.kill();

    // The socket stays open; each message is answered `retry` before the
    // game goes on (b took it over: a's session is gone).
    let t0 = Instant::now();
    let mut retried = Vec::new();
    let state = loop {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "no state with the game going on; retried {retried:?}"
        );
        let Some(v) = next(&mut black) else {
            panic!("black's socket closed or silent; retried {retried:?}");
        };
        match v["t"].as_str() {
            Some("error") => {
                assert_eq!(v["code"], "retry", "{v}");
                assert!(
                    v["es"].as_str().unwrap().contains("cambió de proceso"),
                    "{v}"
                );
                retried.push(v["id"].as_u64().expect("the id echoed"));
            }
            Some("ack") => panic!("an ack from a paused owner: {v}"),
            Some("state") if v["status"] == "playing" => break v,
            _ => {}
        }
    };
    assert_eq!(retried, [1, 2, 3], "each message answered, in order");
    // The move was not played (the owner never read it): sent again, it is.
    assert_eq!(state["plies"], 1, "{state}");
    assert_eq!(state["draw_offer"], Value::Null, "{state}");
    send(&mut black, json!({"t": "move", "move": "e7e5", "id": 4}));
    until(&mut black, "ack", |v| v["t"] == "ack" && v["id"] == 4);
}

#[test]
fn a_relayed_move_is_credited_the_round_trip_and_the_wait_it_carries() {
    let Some(db) = fresh_postgres("relay_lag") else {
        return;
    };
    let a = Node::start(&db, "a", LEASE_MS, &[]);
    let created = Client::new(a.addr).post(
        "/api/games",
        json!({"opponent": "friend", "color": "white", "time_control": "1+0"}),
    );
    let id = created["game"].as_str().unwrap().to_string();
    Client::new(a.addr).post(&format!("/api/games/{id}/join"), json!({}));
    let secret = query_one(&db, "SELECT value FROM meta WHERE key = 'cluster_secret'");
    // Both seats as a serving process holds them (their secrets were
    // checked there).
    let path = |seat: &str| format!("/interno/ws/games/{id}?seat={seat}");
    let mut white = internal_ws_as(a.addr, &path("white"), Some(&secret)).unwrap();
    let mut black = internal_ws_as(a.addr, &path("black"), Some(&secret)).unwrap();
    assert_eq!(
        until(&mut white, "state", |v| v["t"] == "state")["you"],
        "white"
    );
    assert_eq!(
        until(&mut black, "state", |v| v["t"] == "state")["you"],
        "black"
    );
    let relayed = |mv: &str, rtt_us: u64, held_us: u64| json!({"msg": {"t": "move", "move": mv}, "rtt_us": rtt_us, "held_us": held_us});
    let moved = |ws: &mut Ws, plies: u64| {
        let ev = until(ws, "the move", |v| v["t"] == "event" && v["plies"] == plies);
        (Instant::now(), ev)
    };
    // The first moves are free; the clocks run from Black's first move.
    send(&mut white, relayed("e2e4", 0, 0));
    moved(&mut white, 1);
    send(&mut black, relayed("e7e5", 0, 0));
    let (since, _) = moved(&mut white, 2);
    moved(&mut black, 2);
    // White thinks 700 ms and is credited a 400 ms round trip.
    std::thread::sleep(Duration::from_millis(700));
    let think = since.elapsed().as_millis() as i64;
    send(&mut white, relayed("g1f3", 400_000, 0));
    let (since, ev) = moved(&mut white, 3);
    let w = ev["last_move"]["clock_ms"].as_i64().unwrap();
    let expected = 60_000 - think + 400;
    assert!(
        (expected - 150..=expected + 5).contains(&w),
        "White {w}, expected about {expected}"
    );
    moved(&mut black, 3);
    // Black thinks 700 ms; its message waited 300 ms in the serving process.
    std::thread::sleep(Duration::from_millis(700));
    let think = since.elapsed().as_millis() as i64;
    send(&mut black, relayed("b8c6", 0, 300_000));
    let (_, ev) = moved(&mut black, 4);
    let b = ev["last_move"]["clock_ms"].as_i64().unwrap();
    let expected = 60_000 - think + 300;
    assert!(
        (expected - 150..=expected + 5).contains(&b),
        "Black {b}, expected about {expected}"
    );
}
