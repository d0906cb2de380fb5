//! A rolling restart (issue 28): the owner of a game gets SIGTERM mid-game.
//! It says so on `/salud` (503, "stopping"), hands the game over (the
//! clocks stored as they stand, the lease given up, its clients' sockets
//! closed with 1012) and exits; another process serves the game at once,
//! well within a lease, and the side to move has lost only the time that
//! passed.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::cluster_kill::{
    connect, connect_any, moves_of, new_game, play, until, until_within, Gone,
};
use crate::common::cluster::{fresh_postgres, Node};
use crate::common::Client;

/// A longer lease here: the takeover must come well before it runs out.
const LEASE_MS: u64 = 4000;

#[test]
fn a_stopping_owner_hands_its_game_over() {
    let Some(db) = fresh_postgres("chand") else {
        return;
    };
    let mut a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let health = Client::new(a.addr).get("/salud");
    assert_eq!(health["nodo"], "a");
    assert_eq!(health["estado"], "up");
    let g = new_game(a.addr, "5+0");
    let (mut w, _) = connect(a.addr, &g.id, Some(&g.secrets[0])).expect("white on a");
    let (mut bl, _) = connect(a.addr, &g.id, Some(&g.secrets[1])).expect("black on a");
    let line = ["e2e4", "c7c5", "g1f3", "d7d6"];
    let mut last = Value::Null;
    for (i, mv) in line.iter().enumerate() {
        let (p, other) = if i % 2 == 0 {
            (&mut w, &mut bl)
        } else {
            (&mut bl, &mut w)
        };
        assert!(play(p, mv, i as u64).expect("answered"), "{mv}");
        last = until(other, |v| v["t"] == "event" && v["event"] == "move").expect("event");
    }
    assert_eq!(Client::new(a.addr).get("/health")["partidas"], 1);
    let moved_at = Instant::now();
    let stored_black = last["clock"]["black_ms"].as_i64().unwrap();
    let white_then = last["clock"]["white_ms"].as_i64().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let term_at = Instant::now();
    a.signal("TERM");
    // While it hands over: 503, "stopping".
    let mut saw_stopping = false;
    while term_at.elapsed() < Duration::from_secs(5) {
        let Some((code, body)) = get(a.addr, "/salud") else {
            break;
        };
        if code == 503 {
            let v: Value = serde_json::from_str(&body).expect("JSON");
            assert_eq!(v["estado"], "stopping", "{v}");
            assert_eq!(v["nodo"], "a");
            saw_stopping = true;
            break;
        }
        assert_eq!(code, 200, "{body}");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(saw_stopping, "/salud never said stopping");
    // Its clients' sockets close with 1012 (service restart).
    let end = until_within(&mut w, Duration::from_secs(10), |v| v["t"] == "ack");
    assert!(matches!(end, Err(Gone::Closed(1012))), "{end:?}");
    let end = until_within(&mut bl, Duration::from_secs(10), |v| v["t"] == "ack");
    assert!(matches!(end, Err(Gone::Closed(1012))), "{end:?}");
    // The game is served by b at once: the lease was given up.
    let (mut w, st, _) = connect_any(
        &[b.addr],
        &g.id,
        Some(&g.secrets[0]),
        Duration::from_secs(10),
    )
    .expect("white on b");
    let taken = term_at.elapsed();
    assert!(
        taken < Duration::from_millis(LEASE_MS / 2),
        "b served the game {taken:?} after SIGTERM (lease {LEASE_MS} ms)"
    );
    assert_eq!(moves_of(&st), line);
    // Black untouched; White charged for the time that passed, no more.
    assert_eq!(st["clock"]["black_ms"].as_i64().unwrap(), stored_black);
    let charged = white_then - st["clock"]["white_ms"].as_i64().unwrap();
    let wall = moved_at.elapsed().as_millis() as i64;
    assert!(
        charged <= wall + 50 && charged >= wall - 400,
        "White charged {charged} ms in {wall} ms"
    );
    // a exits by itself.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = a.child.try_wait().expect("wait") {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(Instant::now() < deadline, "a did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The game goes on on b.
    let (mut bl, _) = connect(b.addr, &g.id, Some(&g.secrets[1])).expect("black on b");
    assert!(play(&mut w, "d2d4", 4).expect("answered"));
    assert!(play(&mut bl, "c5d4", 5).expect("answered"));
}

/// `GET path` on `addr`: the status and the body; `None` when the process
/// is gone.
fn get(addr: std::net::SocketAddr, path: &str) -> Option<(u16, String)> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    let (head, body) = out.split_once("\r\n\r\n")?;
    let code = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((code, body.to_string()))
}
