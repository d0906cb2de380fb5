//! The bus between processes (issue 28, "Fan-out across processes", "Seeks
//! and challenges race-free"): real `escaque servir` processes on one
//! PostgreSQL database.
//!
//! * a seek posted on a is seen by lobby watchers on b and c; accepted on
//!   c, its poster (watching on b) is told, and the game shows in the list
//!   of games in progress of every process;
//! * two processes accept one seek at the same instant, many times: one
//!   game each time, the loser told the seek is gone;
//! * b's listening connection cut (`pg_terminate_backend`) while the seeks
//!   change without a notification: b's watchers converge (b reads again
//!   when it is back);
//! * a tournament watcher on b sees a pairing made on a; the organiser
//!   pairing on a and b at the same instant pairs one round.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use crate::common::cluster::{fresh_postgres, sql, Node};

type Ws = WebSocket<MaybeTlsStream<TcpStream>>;

const LEASE_MS: u64 = 1500;

/// A new guest identity: the cookie `addr` issues to a first request (the
/// server chooses and signs guest ids; the processes of one database share
/// the key, so it is valid on every process).
fn guest(addr: SocketAddr) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET /api/me HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let head = out.split_once("\r\n\r\n").map_or(out.as_str(), |h| h.0);
    head.lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(k, _)| k.trim().eq_ignore_ascii_case("set-cookie"))
        .filter_map(|(_, v)| v.trim().split(';').next())
        .find(|c| c.starts_with("escaque_invitado="))
        .expect("a guest cookie")
        .to_string()
}

/// One HTTP request as `cookie`; the status and the JSON body.
fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).unwrap();
    let b = body.map(|v| v.to_string()).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\nCookie: {cookie}\r\n\r\n{b}",
        b.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let mut text = String::new();
        let mut rest = body;
        while let Some((size, tail)) = rest.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
            if n == 0 || tail.len() < n {
                break;
            }
            text.push_str(&tail[..n]);
            rest = tail[n..].trim_start_matches("\r\n");
        }
        text
    } else {
        body.to_string()
    };
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

fn post(addr: SocketAddr, path: &str, cookie: &str, body: Value) -> Value {
    let (status, v) = http(addr, "POST", path, cookie, Some(body));
    assert!((200..300).contains(&status), "POST {path}: {status} {v}");
    v
}

fn get(addr: SocketAddr, path: &str, cookie: &str) -> Value {
    let (status, v) = http(addr, "GET", path, cookie, None);
    assert_eq!(status, 200, "GET {path}: {v}");
    v
}

/// A WebSocket at `path` of `addr` as `cookie`.
fn socket(addr: SocketAddr, path: &str, cookie: &str) -> Ws {
    let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
    req.headers_mut()
        .insert("Cookie", cookie.parse().expect("cookie header"));
    let (mut ws, _) = tungstenite::connect(req).expect("socket");
    if let MaybeTlsStream::Plain(s) = ws.get_mut() {
        let _ = s.set_read_timeout(Some(Duration::from_millis(200)));
    }
    ws
}

/// Reads until a message matches `pred` (within `within`); panics with
/// `what` and the last message otherwise.
fn read_until(ws: &mut Ws, what: &str, within: Duration, pred: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + within;
    let mut last = Value::Null;
    while Instant::now() < deadline {
        match ws.read() {
            Ok(Message::Text(t)) => {
                let v: Value = serde_json::from_str(t.as_str()).expect("JSON");
                if pred(&v) {
                    return v;
                }
                last = v;
            }
            Ok(Message::Close(_)) => panic!("{what}: socket closed"),
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(e) => panic!("{what}: {e}"),
        }
    }
    panic!("{what}: not within {within:?}; last message {last}");
}

/// The ids of a `seeks` message.
fn seek_ids(v: &Value) -> Vec<String> {
    v["seeks"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s["id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn seeks_are<'a>(ids: &'a [&'a str]) -> impl Fn(&Value) -> bool + 'a {
    move |v| v["t"] == "seeks" && seek_ids(v) == ids
}

const SOON: Duration = Duration::from_secs(10);

#[test]
fn a_seek_posted_on_a_is_seen_on_b_and_c() {
    let Some(db) = fresh_postgres("bus_seen") else {
        return;
    };
    let a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let c = Node::start(&db, "c", LEASE_MS, &[]);
    let (poster, taker, watcher) = (guest(a.addr), guest(a.addr), guest(a.addr));
    let mut on_b = socket(b.addr, "/ws/lobby", &watcher);
    let mut on_c = socket(c.addr, "/ws/lobby", &watcher);
    // The poster watches on b: it is told there when its seek is accepted.
    let mut poster_b = socket(b.addr, "/ws/lobby", &poster);
    read_until(&mut on_b, "b's first list", SOON, seeks_are(&[]));
    read_until(&mut on_c, "c's first list", SOON, seeks_are(&[]));

    let seek = post(
        a.addr,
        "/api/seeks",
        &poster,
        json!({"time_control": "5+3"}),
    );
    let id = seek["seek"].as_str().unwrap().to_string();
    read_until(&mut on_b, "the seek on b", SOON, seeks_are(&[&id]));
    read_until(&mut on_c, "the seek on c", SOON, seeks_are(&[&id]));
    // Every process lists it on request too.
    for n in [&a, &b, &c] {
        let v = get(n.addr, "/api/seeks", &taker);
        assert_eq!(seek_ids(&v), std::slice::from_ref(&id), "{}: {v}", n.name);
    }

    // Accepted on c: the poster's lobby socket on b gets its seat.
    let seat = post(
        c.addr,
        &format!("/api/seeks/{id}/accept"),
        &taker,
        json!({}),
    );
    let game = seat["game"].as_str().unwrap().to_string();
    let told = read_until(&mut poster_b, "seek_accepted on b", SOON, |v| {
        v["t"] == "seek_accepted"
    });
    assert_eq!(told["seek"], id.as_str(), "{told}");
    assert_eq!(told["game"], game.as_str(), "{told}");
    assert!(
        told["secret"].as_str().is_some_and(|s| !s.is_empty()),
        "{told}"
    );
    read_until(&mut on_b, "the seek gone on b", SOON, seeks_are(&[]));
    read_until(&mut on_c, "the seek gone on c", SOON, seeks_are(&[]));

    // The game runs on c; it is in the list of games in progress of every
    // process, pushed to the lobby's watchers of b and answered by a.
    let live = read_until(&mut on_b, "the game in b's live list", SOON, |v| {
        v["t"] == "live"
            && v["games"]
                .as_array()
                .is_some_and(|g| g.iter().any(|x| x["game"] == game.as_str()))
    });
    assert_eq!(live["games"].as_array().unwrap().len(), 1, "{live}");
    let deadline = Instant::now() + SOON;
    loop {
        let v = get(a.addr, "/api/games/live", &watcher);
        let listed: Vec<&Value> = v["games"].as_array().unwrap().iter().collect();
        if listed.iter().any(|g| g["game"] == game.as_str()) {
            assert_eq!(listed.len(), 1, "{v}");
            break;
        }
        assert!(Instant::now() < deadline, "a never lists the game: {v}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn two_processes_accept_one_seek_at_once_one_game() {
    let Some(db) = fresh_postgres("bus_race") else {
        return;
    };
    let a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let c = Node::start(&db, "c", LEASE_MS, &[]);
    let poster = guest(a.addr);
    let takers = [guest(a.addr), guest(a.addr)];
    // Each process takes a burst of 30 limited requests from one address.
    const ROUNDS: usize = 12;
    let mut wins = [0usize; 2];
    for round in 0..ROUNDS {
        let seek = post(a.addr, "/api/seeks", &poster, json!({}));
        let id = seek["seek"].as_str().unwrap().to_string();
        let barrier = Arc::new(Barrier::new(2));
        let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
            let handles: Vec<_> = [(b.addr, &takers[0]), (c.addr, &takers[1])]
                .into_iter()
                .map(|(addr, who)| {
                    let barrier = Arc::clone(&barrier);
                    let path = format!("/api/seeks/{id}/accept");
                    s.spawn(move || {
                        barrier.wait();
                        http(addr, "POST", &path, who, Some(json!({})))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let won: Vec<usize> = (0..2).filter(|&i| answers[i].0 == 200).collect();
        assert_eq!(won.len(), 1, "round {round}: {answers:?}");
        let lost = 1 - won[0];
        wins[won[0]] += 1;
        assert_eq!(answers[lost].0, 404, "round {round}: {answers:?}");
        assert_eq!(answers[lost].1["code"], "no_such_seek", "{answers:?}");
        assert!(answers[won[0]].1["game"].as_str().is_some(), "{answers:?}");
    }
    // One game per seek: the poster has ROUNDS games, the takers as many
    // between them.
    let games = |who: &str| {
        get(a.addr, "/api/me/games", who)["games"]
            .as_array()
            .map_or(0, Vec::len)
    };
    assert_eq!(games(&poster), ROUNDS);
    assert_eq!(games(&takers[0]) + games(&takers[1]), ROUNDS);
    assert_eq!(games(&takers[0]), wins[0]);
    eprintln!("b won {} times, c {}", wins[0], wins[1]);
}

#[test]
fn a_cut_listener_reads_again_when_it_is_back() {
    let Some(db) = fresh_postgres("bus_cut") else {
        return;
    };
    let a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let (p1, p2, watcher) = (guest(a.addr), guest(a.addr), guest(a.addr));
    let mut on_b = socket(b.addr, "/ws/lobby", &watcher);
    read_until(&mut on_b, "b's first list", SOON, seeks_are(&[]));
    let s1 = post(a.addr, "/api/seeks", &p1, json!({}))["seek"]
        .as_str()
        .unwrap()
        .to_string();
    read_until(&mut on_b, "the seek on b", SOON, seeks_are(&[&s1]));

    // The seeks change with no notification at all (as if it had been
    // sent while b was not listening), then b's listening connection is
    // cut: only reading again when it is back shows the change.
    sql(&db, "DELETE FROM seeks");
    sql(
        &db,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE application_name = 'escaque-bus-b' AND datname = current_database()",
    );
    read_until(&mut on_b, "b reads the seeks again", SOON, seeks_are(&[]));
    // And b listens again: a change on a reaches it.
    let s2 = post(a.addr, "/api/seeks", &p2, json!({}))["seek"]
        .as_str()
        .unwrap()
        .to_string();
    read_until(&mut on_b, "a new seek on b", SOON, seeks_are(&[&s2]));
}

#[test]
fn a_tournament_watcher_on_b_sees_a_pairing_made_on_a() {
    let Some(db) = fresh_postgres("bus_torneo") else {
        return;
    };
    let a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let org = guest(a.addr);
    let created = post(
        a.addr,
        "/api/tournaments",
        &org,
        json!({
            "name": "Torneo de dos procesos",
            "system": "dutch",
            "rounds": 2,
            "mode": "online",
            "time_control": "10+0",
            "settings": {"no_show_s": 600},
        }),
    );
    let id = created["id"].as_str().expect("id").to_string();
    let players: Vec<String> = (0..4).map(|_| guest(a.addr)).collect();
    for (i, p) in players.iter().enumerate() {
        let at = if i % 2 == 0 { a.addr } else { b.addr };
        post(
            at,
            &format!("/api/tournaments/{id}/join"),
            p,
            json!({"name": format!("Jugador {}", i + 1)}),
        );
        post(at, &format!("/api/tournaments/{id}/present"), p, json!({}));
    }
    // A spectator and a player watch on b; the player also on the lobby.
    let mut spectator = socket(b.addr, &format!("/ws/tournaments/{id}"), &guest(a.addr));
    let mut player = socket(b.addr, &format!("/ws/tournaments/{id}"), &players[1]);
    let mut lobby = socket(b.addr, "/ws/lobby", &players[1]);
    read_until(&mut spectator, "the first view", SOON, |v| {
        v["t"] == "tournament" && v["view"]["round"] == 0
    });

    // The organiser pairs on a and on b at the same instant: one round.
    let barrier = Arc::new(Barrier::new(2));
    let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
        let handles: Vec<_> = [a.addr, b.addr]
            .into_iter()
            .map(|addr| {
                let barrier = Arc::clone(&barrier);
                let (path, org) = (format!("/api/tournaments/{id}/rounds"), &org);
                s.spawn(move || {
                    barrier.wait();
                    http(addr, "POST", &path, org, Some(json!({})))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let ok = answers.iter().filter(|x| x.0 == 200 || x.0 == 201).count();
    assert_eq!(ok, 1, "{answers:?}");
    let refused = answers
        .iter()
        .find(|x| !(x.0 == 200 || x.0 == 201))
        .unwrap();
    assert_eq!(refused.0, 409, "{answers:?}");
    assert_eq!(refused.1["code"], "round_not_complete", "{answers:?}");

    let seen = read_until(&mut spectator, "round 1 on b", SOON, |v| {
        v["t"] == "tournament" && v["view"]["round"] == 1
    });
    assert_eq!(
        seen["view"]["rounds"][0]["boards"].as_array().map(Vec::len),
        Some(2),
        "{seen}"
    );
    // The player is taken to its game on both of b's sockets.
    for (ws, what) in [(&mut player, "tournament socket"), (&mut lobby, "lobby")] {
        let m = read_until(ws, what, SOON, |v| v["t"] == "your_game");
        assert_eq!(m["tournament"], id.as_str(), "{m}");
        assert_eq!(m["round"], 1, "{m}");
    }
    // One game each: the round was paired once.
    for p in &players {
        let g = get(a.addr, "/api/me/games", p);
        assert_eq!(g["games"].as_array().map(Vec::len), Some(1), "{g}");
    }
}

#[test]
fn the_seeks_of_a_process_killed_go() {
    let Some(db) = fresh_postgres("bus_dead") else {
        return;
    };
    let mut a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let (p1, p2, watcher) = (guest(a.addr), guest(a.addr), guest(a.addr));
    let mut on_b = socket(b.addr, "/ws/lobby", &watcher);
    let s1 = post(a.addr, "/api/seeks", &p1, json!({}))["seek"]
        .as_str()
        .unwrap()
        .to_string();
    let s2 = post(b.addr, "/api/seeks", &p2, json!({}))["seek"]
        .as_str()
        .unwrap()
        .to_string();
    read_until(&mut on_b, "both seeks on b", SOON, seeks_are(&[&s1, &s2]));
    // a dies: b sees its heartbeat stop and removes its seeks (b's stay).
    a.kill();
    read_until(&mut on_b, "a's seek gone", SOON, seeks_are(&[&s2]));
    // a started again has none of its old seeks either.
    a.restart();
    let v = get(a.addr, "/api/seeks", &watcher);
    assert_eq!(seek_ids(&v), [s2], "{v}");
}
