//! Several `escaque servir` processes on one PostgreSQL (issues 28 and
//! 60): the owner of a game killed with SIGKILL mid-game, White connected
//! to it, Black and a spectator to the survivor. White reconnects to the
//! survivor and is answered at once; the survivor takes the game over as
//! soon as the owner's database session is gone, and the sockets it served
//! stay open: every acknowledged move is there, the game goes on, the side
//! to move is charged for its turn only while some process owned the game,
//! the other side not at all. Then the same over several kills
//! (`ESCAQUE_FAILOVER_KILLS`, with the latencies printed), and at random
//! moments over many kills on three processes (`ESCAQUE_KILLS`).

use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use crate::common::cluster::{fresh_postgres, Node};
use crate::common::{Client, Rng};

pub(crate) type Ws = WebSocket<MaybeTlsStream<TcpStream>>;

/// Leases in these tests: renewed every 500 ms, a dead owner's games taken
/// within about two seconds.
pub(crate) const LEASE_MS: u64 = 1500;

/// A game's id and its two seats' secrets (White's, Black's).
#[derive(Clone, Debug)]
pub(crate) struct Seats {
    pub id: String,
    pub secrets: [String; 2],
}

/// A friend game between two new guests, created (and so owned) on `addr`,
/// with time control `tc`.
pub(crate) fn new_game(addr: SocketAddr, tc: &str) -> Seats {
    let created = Client::new(addr).post(
        "/api/games",
        json!({"opponent": "friend", "color": "white", "time_control": tc}),
    );
    let id = created["game"].as_str().expect("game").to_string();
    let joined = Client::new(addr).post(&format!("/api/games/{id}/join"), json!({}));
    Seats {
        id,
        secrets: [
            created["secret"].as_str().expect("secret").into(),
            joined["secret"].as_str().expect("secret").into(),
        ],
    }
}

/// How a socket read ended without a message.
#[derive(Debug)]
pub(crate) enum Gone {
    /// A close frame with this code.
    Closed(u16),
    /// The connection broke, closed without a code, or nothing came in time.
    Broken,
}

/// The next JSON message (pings skipped).
pub(crate) fn next(ws: &mut Ws) -> Result<Value, Gone> {
    loop {
        match ws.read() {
            Ok(Message::Text(t)) => {
                let v: Value = serde_json::from_str(t.as_str()).map_err(|_| Gone::Broken)?;
                if v["t"] != "ping" {
                    return Ok(v);
                }
            }
            Ok(Message::Close(Some(f))) => return Err(Gone::Closed(f.code.into())),
            Ok(Message::Close(None)) => return Err(Gone::Broken),
            Ok(_) => {}
            Err(_) => return Err(Gone::Broken),
        }
    }
}

/// The first message that satisfies `pred`.
pub(crate) fn until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Result<Value, Gone> {
    loop {
        let v = next(ws)?;
        if pred(&v) {
            return Ok(v);
        }
    }
}

/// [`until`], giving up (as [`Gone::Broken`]) after `within`: a socket
/// kept alive by pings alone does not hold a test forever.
pub(crate) fn until_within(
    ws: &mut Ws,
    within: Duration,
    pred: impl Fn(&Value) -> bool,
) -> Result<Value, Gone> {
    // The deadline counts the server's pings too: a socket that carries
    // nothing but pings gives up as well.
    let deadline = Instant::now() + within;
    loop {
        if Instant::now() >= deadline {
            return Err(Gone::Broken);
        }
        let v = match ws.read() {
            Ok(Message::Text(t)) => {
                serde_json::from_str::<Value>(t.as_str()).map_err(|_| Gone::Broken)?
            }
            Ok(Message::Close(Some(f))) => return Err(Gone::Closed(f.code.into())),
            Ok(Message::Close(None)) | Err(_) => return Err(Gone::Broken),
            Ok(_) => continue,
        };
        if v["t"] != "ping" && pred(&v) {
            return Ok(v);
        }
    }
}

/// A socket to game `g` on `addr` (a seat with `secret`, or a spectator)
/// and its first state; `None` if that process does not serve the game.
pub(crate) fn connect(addr: SocketAddr, g: &str, secret: Option<&str>) -> Option<(Ws, Value)> {
    let url = match secret {
        Some(s) => format!("ws://{addr}/ws/games/{g}?seat={s}"),
        None => format!("ws://{addr}/ws/games/{g}"),
    };
    let (mut ws, _) = tungstenite::connect(url).ok()?;
    if let MaybeTlsStream::Plain(s) = ws.get_mut() {
        let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    }
    let first = next(&mut ws).ok()?;
    (first["t"] == "state").then_some((ws, first))
}

/// A socket to game `g` on the first of `addrs` that serves it, trying
/// again for up to `within`; the process's address too.
pub(crate) fn connect_any(
    addrs: &[SocketAddr],
    g: &str,
    secret: Option<&str>,
    within: Duration,
) -> Option<(Ws, Value, SocketAddr)> {
    let deadline = Instant::now() + within;
    loop {
        for a in addrs {
            if let Some((ws, st)) = connect(*a, g, secret) {
                return Some((ws, st, *a));
            }
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Sends move `mv` at ply `ply` from `ws` and waits for its ack: the
/// move's event, then true; false when refused (an `error`).
pub(crate) fn play(ws: &mut Ws, mv: &str, ply: u64) -> Result<bool, Gone> {
    let msg = json!({"t": "move", "move": mv, "id": ply});
    ws.send(Message::Text(msg.to_string().into()))
        .map_err(|_| Gone::Broken)?;
    let a = until(ws, |v| {
        (v["t"] == "ack" || v["t"] == "error") && v["id"] == json!(ply)
    })?;
    Ok(a["t"] == "ack")
}

/// The moves of a state, in coordinates.
pub(crate) fn moves_of(st: &Value) -> Vec<String> {
    st["moves"]
        .as_array()
        .map(|m| {
            m.iter()
                .map(|m| m["uci"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// A number read from PostgreSQL database `url` (a test's look into it).
pub(crate) fn query_i64(url: &str, sql: &str) -> i64 {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::PgConnection::connect(url).await.expect("postgres");
        let (n,): (i64,) = sqlx::query_as(sql).fetch_one(&mut c).await.expect("query");
        n
    })
}

/// White's and Black's clocks in a message, ms.
fn clocks(v: &Value) -> [i64; 2] {
    [
        v["clock"]["white_ms"].as_i64().expect("white_ms"),
        v["clock"]["black_ms"].as_i64().expect("black_ms"),
    ]
}

/// Until a `state` whose status is `playing` (after `resuming`, if the
/// game was being taken over when the socket was answered).
fn until_playing(ws: &mut Ws) -> Result<Value, Gone> {
    until_within(ws, Duration::from_secs(20), |v| {
        v["t"] == "state" && v["status"] == "playing"
    })
}

/// A state answering a reconnection while the owner is gone: the moves as
/// stored, and either the game going on or resuming (no legal moves then).
fn check_answer(st: &Value, acked: &[String]) {
    assert_eq!(moves_of(st), acked, "{st}");
    match st["status"].as_str() {
        Some("playing") => {}
        Some("resuming") => {
            assert_eq!(st["legal_uci"], json!([]), "{st}");
            assert_eq!(st["clock"]["running"], Value::Null, "{st}");
        }
        _ => panic!("status: {st}"),
    }
}

#[test]
fn the_owner_killed_mid_game_the_game_goes_on_elsewhere() {
    let Some(db) = fresh_postgres("ckill") else {
        return;
    };
    let mut a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let g = new_game(a.addr, "5+0");
    // White on the owner; Black and a spectator on b, through its
    // stand-in.
    let (mut w, _) = connect(a.addr, &g.id, Some(&g.secrets[0])).expect("white on a");
    let (mut bl, _) = connect(b.addr, &g.id, Some(&g.secrets[1])).expect("black on b");
    let (mut spec, _) = connect(b.addr, &g.id, None).expect("spectator on b");
    let line = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];
    let mut acked: Vec<String> = Vec::new();
    let mut last = json!(null);
    for (i, mv) in line.iter().enumerate() {
        let p = if i % 2 == 0 { &mut w } else { &mut bl };
        assert!(
            play(p, mv, i as u64).expect("answered"),
            "{mv} acknowledged"
        );
        acked.push(mv.to_string());
        // The spectator sees every move, in order.
        let ev = until(&mut spec, |v| v["t"] == "event" && v["event"] == "move").expect("event");
        assert_eq!(ev["plies"], json!(i + 1), "{ev}");
        assert_eq!(ev["data"]["uci"], *mv, "{ev}");
        last = ev;
    }
    let moved_at = Instant::now();
    // Black's time as stored with its last move; White thinks.
    let stored = clocks(&last);
    std::thread::sleep(Duration::from_millis(1200));
    let killed_at = Instant::now();
    a.kill();
    let owned = killed_at - moved_at;
    // White's socket to a is gone; White reconnects to b, and is answered
    // (the game as stored, going on or resuming).
    assert!(until(&mut w, |_| false).is_err());
    let (mut w, st) = connect(b.addr, &g.id, Some(&g.secrets[0])).expect("white answered on b");
    check_answer(&st, &acked);
    let st = if st["status"] == "playing" {
        st
    } else {
        until_playing(&mut w).expect("white: the game goes on")
    };
    let seen_at = Instant::now();
    // Black's and the spectator's sockets on b were kept: each is sent the
    // game again, every acknowledged move there.
    let st_b = until_playing(&mut bl).expect("black's socket kept");
    let st_s = until_playing(&mut spec).expect("the spectator's socket kept");
    assert_eq!(moves_of(&st), acked);
    assert_eq!(moves_of(&st_b), acked);
    assert_eq!(moves_of(&st_s), acked);
    assert_eq!(st["turn"], "white");
    // Black's clock untouched; White charged for its turn while a owned the
    // game (up to a's last heartbeat, at most a third of a lease before
    // the kill), and since the takeover: never more than the wall time.
    let now = clocks(&st);
    assert_eq!(now[1], stored[1], "Black's clock: {}", st["clock"]);
    let charged = stored[0] - now[0];
    let beat = Duration::from_millis(LEASE_MS / 3);
    let wall = seen_at - moved_at;
    let low = owned.saturating_sub(beat + Duration::from_millis(100));
    let high = wall + Duration::from_millis(300);
    assert!(
        charged >= low.as_millis() as i64 && charged <= high.as_millis() as i64,
        "White charged {charged} ms: owned {owned:?}, wall {wall:?}, expected {low:?}..{high:?}"
    );
    // The game goes on: White on its new socket, Black and the spectator on
    // the ones they had.
    for (i, mv) in ["e1g1", "f8c5", "d2d3"].iter().enumerate() {
        let ply = (line.len() + i) as u64;
        let p = if i % 2 == 0 { &mut w } else { &mut bl };
        assert!(play(p, mv, ply).expect("answered"), "{mv} acknowledged");
        let ev = until(&mut spec, |v| v["t"] == "event" && v["event"] == "move").expect("event");
        assert_eq!(ev["data"]["uci"], *mv, "{ev}");
    }
    let plies = query_i64(
        &db,
        &format!("SELECT COUNT(*) FROM moves WHERE game_id = '{}'", g.id),
    );
    assert_eq!(plies, 9);
    let owner = query_i64(
        &db,
        &format!(
            "SELECT COUNT(*) FROM games WHERE id = '{}' AND owner_node = 'b'",
            g.id
        ),
    );
    assert_eq!(owner, 1, "b took the game over");
}

/// The p-th percentile (0–100) of sorted `v`, nearest rank.
fn percentile(v: &[Duration], p: usize) -> Duration {
    let rank = (p * v.len()).div_ceil(100).max(1);
    v[rank.min(v.len()) - 1]
}

/// The owner of a game killed again and again (a new game each time,
/// White on the owner, Black and a spectator on the survivor): every
/// acknowledged move is kept, the survivor's sockets stay open, the game
/// goes on, with the deployment's 10-s lease. `ESCAQUE_FAILOVER_KILLS`
/// kills (3 unless set); the latencies from the kill to White's
/// reconnection answered and to White's first move acknowledged on the
/// survivor are printed (p50, p95, max): a measurement, not a test of
/// speed.
#[test]
fn failover_over_kills_keeps_the_survivors_sockets() {
    let Some(db) = fresh_postgres("cfailover") else {
        return;
    };
    let kills: usize = std::env::var("ESCAQUE_FAILOVER_KILLS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(3);
    // The deployment's lease (docs/despliegue.md: 10 s by default): a
    // killed owner's games do not wait for it.
    let lease_ms = 10_000;
    let mut a = Node::start(&db, "a", lease_ms, &[]);
    let b = Node::start(&db, "b", lease_ms, &[]);
    let mut answered: Vec<Duration> = Vec::new();
    let mut first_move: Vec<Duration> = Vec::new();
    let mut resuming = 0usize;
    let line = ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"];
    for round in 0..kills {
        if round > 0 {
            a.restart();
        }
        let g = new_game(a.addr, "10+5");
        let (mut w, _) = connect(a.addr, &g.id, Some(&g.secrets[0])).expect("white on a");
        let (mut bl, _) = connect(b.addr, &g.id, Some(&g.secrets[1])).expect("black on b");
        let (mut spec, _) = connect(b.addr, &g.id, None).expect("spectator on b");
        // A few moves, the last one acknowledged just before the kill.
        let plies = 2 + 2 * (round % 2);
        let mut acked: Vec<String> = Vec::new();
        for (i, mv) in line[..plies].iter().enumerate() {
            let p = if i % 2 == 0 { &mut w } else { &mut bl };
            assert!(
                play(p, mv, i as u64).expect("answered"),
                "round {round}: {mv}"
            );
            acked.push(mv.to_string());
        }
        until(&mut spec, |v| {
            v["t"] == "event" && v["plies"] == json!(plies)
        })
        .expect("seen");
        a.kill();
        let killed = Instant::now();
        let (mut w, st) = connect(b.addr, &g.id, Some(&g.secrets[0]))
            .unwrap_or_else(|| panic!("round {round}: white not answered on b"));
        answered.push(killed.elapsed());
        check_answer(&st, &acked);
        if st["status"] == "resuming" {
            resuming += 1;
            until_playing(&mut w).expect("white: the game goes on");
        }
        let mv = line[plies];
        assert!(
            play(&mut w, mv, plies as u64).expect("answered"),
            "round {round}: {mv}"
        );
        first_move.push(killed.elapsed());
        acked.push(mv.to_string());
        // Black's and the spectator's sockets on b were kept: the move
        // reaches them there, and Black answers on its own socket.
        for ws in [&mut bl, &mut spec] {
            let ev = until_within(ws, Duration::from_secs(20), |v| {
                v["t"] == "event" && v["plies"] == json!(plies + 1)
            })
            .unwrap_or_else(|e| panic!("round {round}: a socket on b: {e:?}"));
            assert_eq!(ev["last_move"]["uci"], mv, "{ev}");
        }
        let reply = line[plies + 1];
        assert!(
            play(&mut bl, reply, plies as u64 + 1).expect("answered"),
            "round {round}: {reply}"
        );
        acked.push(reply.to_string());
        let stored = query_i64(
            &db,
            &format!("SELECT COUNT(*) FROM moves WHERE game_id = '{}'", g.id),
        );
        assert_eq!(stored, acked.len() as i64, "round {round}");
    }
    answered.sort();
    first_move.sort();
    let show = |v: &[Duration]| {
        format!(
            "p50 {:?} p95 {:?} max {:?}",
            percentile(v, 50),
            percentile(v, 95),
            percentile(v, 100)
        )
    };
    eprintln!(
        "failover over {kills} kills ({resuming} answered as resuming): reconnection answered {}; first move acknowledged {}",
        show(&answered),
        show(&first_move)
    );
}

/// One game under test: its seats and the moves acknowledged so far.
struct Tracked {
    seats: Seats,
    acked: Vec<String>,
}

/// Plays random legal moves on game `t` (both seats, on whichever of
/// `addrs` serves it) until `stop`, or until its connection dies.
fn player(addrs: Vec<SocketAddr>, t: Arc<Mutex<Tracked>>, stop: Arc<AtomicBool>, seed: u64) {
    let seats = t.lock().unwrap().seats.clone();
    let mut rng = Rng(seed | 1);
    let Some((mut w, mut state, at)) = connect_any(
        &addrs,
        &seats.id,
        Some(&seats.secrets[0]),
        Duration::from_secs(1),
    ) else {
        return;
    };
    if state["status"] == "resuming" {
        let Ok(st) = until_playing(&mut w) else {
            return;
        };
        state = st;
    }
    let Some((b, _)) = connect(at, &seats.id, Some(&seats.secrets[1])) else {
        return;
    };
    let mut socks = [w, b];
    while !stop.load(Ordering::SeqCst) {
        if state["status"] != "playing" {
            return;
        }
        let side = usize::from(state["turn"] != "white");
        let legal = state["legal_uci"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            return;
        }
        let mv = legal[rng.below(legal.len() as u64) as usize]
            .as_str()
            .unwrap_or("")
            .to_string();
        let ply = state["plies"].as_u64().unwrap_or(0);
        let msg = json!({"t": "move", "move": mv, "id": ply});
        if socks[side]
            .send(Message::Text(msg.to_string().into()))
            .is_err()
        {
            return;
        }
        let Ok(ev) = until_within(&mut socks[side], Duration::from_secs(10), |v| {
            v["t"] == "event" && v["event"] == "move" && v["plies"] == json!(ply + 1)
        }) else {
            return;
        };
        let Ok(ack) = until_within(&mut socks[side], Duration::from_secs(10), |v| {
            v["t"] == "ack" || v["t"] == "error"
        }) else {
            return;
        };
        if ack["t"] == "error" && ack["code"] == "retry" && ack["id"] == json!(ply) {
            // The owner was killed after the move's event went out but
            // before its ack (docs/protocol.md, "A message in flight when
            // the game changes hands"): not acknowledged, so not counted;
            // the state that follows on this socket says whether it was
            // played, and the game goes on from there.
            let Ok(st) = until_playing(&mut socks[side]) else {
                return;
            };
            state = st;
            continue;
        }
        assert_eq!(ack["t"], "ack", "{ack}");
        t.lock().unwrap().acked.push(mv);
        // The other seat's queue drained.
        if until(&mut socks[1 - side], |v| {
            v["t"] == "event" && v["plies"].as_u64() >= Some(ply + 1)
        })
        .is_err()
        {
            return;
        }
        state = ev;
        // Within the per-connection limit (10 messages a second): each
        // socket sends a move every other ply. A move over the limit is
        // refused (`rate_limited`) and would stall the player until its
        // wait runs out.
        std::thread::sleep(Duration::from_millis(60));
    }
}

#[test]
fn no_acknowledged_move_lost_over_random_kills() {
    let Some(db) = fresh_postgres("ckills") else {
        return;
    };
    let kills: usize = std::env::var("ESCAQUE_KILLS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(6);
    let started = Instant::now();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d ^ u64::from(std::process::id()));
    let mut nodes: Vec<Node> = ["a", "b", "c"]
        .iter()
        .map(|n| Node::start(&db, n, LEASE_MS, &[]))
        .collect();
    let games: Vec<Arc<Mutex<Tracked>>> = (0..3)
        .map(|i| {
            let addr = nodes[i % nodes.len()].addr;
            Arc::new(Mutex::new(Tracked {
                seats: new_game(addr, "90+30"),
                acked: Vec::new(),
            }))
        })
        .collect();
    let mut checked = 0usize;
    let mut dead: Option<usize> = None;
    for round in 0..=kills {
        let live: Vec<SocketAddr> = nodes
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != dead)
            .map(|(_, n)| n.addr)
            .collect();
        // Every game, wherever it runs now: every acknowledged move, in
        // order, and at most one more (stored, then killed before the ack).
        for t in &games {
            let mut t = t.lock().unwrap();
            let (ws, st, _) = connect_any(
                &live,
                &t.seats.id,
                Some(&t.seats.secrets[0]),
                Duration::from_secs(15),
            )
            .unwrap_or_else(|| panic!("round {round}: game {} served nowhere", t.seats.id));
            // Answered while the game was being taken over: the state once
            // it goes on.
            let st = if st["status"] == "resuming" {
                let mut ws = ws;
                until_within(&mut ws, Duration::from_secs(20), |v| {
                    v["t"] == "state" && v["status"] != "resuming"
                })
                .unwrap_or_else(|e| panic!("round {round}: game {}: {e:?}", t.seats.id))
            } else {
                drop(ws);
                st
            };
            let stored = moves_of(&st);
            assert!(
                stored.len() >= t.acked.len() && stored.len() <= t.acked.len() + 1,
                "round {round}: {} stored, {} acknowledged",
                stored.len(),
                t.acked.len()
            );
            assert_eq!(stored[..t.acked.len()], t.acked[..], "round {round}");
            checked += t.acked.len();
            if st["status"] != "playing" {
                // Finished (mate, stalemate…): a fresh game instead.
                t.seats = new_game(live[0], "90+30");
                t.acked.clear();
            } else {
                t.acked = stored;
            }
        }
        if round == kills {
            break;
        }
        // The process killed last round comes back (same name).
        if let Some(d) = dead.take() {
            nodes[d].restart();
        }
        let live: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
        let stop = Arc::new(AtomicBool::new(false));
        let threads: Vec<_> = games
            .iter()
            .map(|t| {
                let (addrs, t, stop, seed) =
                    (live.clone(), Arc::clone(t), Arc::clone(&stop), rng.next());
                std::thread::spawn(move || player(addrs, t, stop, seed))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(50 + rng.below(400)));
        // Kill a process that owns a game, if one does.
        let owners: Vec<usize> = (0..nodes.len())
            .filter(|&i| {
                let (code, body) = Client::new(nodes[i].addr).req("GET", "/salud", None);
                code == 200 && !body.contains("\"partidas\":0")
            })
            .collect();
        let victim = if owners.is_empty() {
            rng.below(nodes.len() as u64) as usize
        } else {
            owners[rng.below(owners.len() as u64) as usize]
        };
        nodes[victim].kill();
        dead = Some(victim);
        stop.store(true, Ordering::SeqCst);
        for t in threads {
            t.join().expect("player thread");
        }
    }
    eprintln!(
        "{kills} kills, {checked} acknowledged moves checked, 0 lost ({:?})",
        started.elapsed()
    );
    assert!(checked > kills, "{checked} moves checked");
}
