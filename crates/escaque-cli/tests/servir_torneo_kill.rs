//! `escaque servir` killed with SIGKILL during an online tournament's round
//! (issue 24), on SQLite and on PostgreSQL: started again on the same data,
//! the round is there, with its games (every acknowledged move), the result
//! of the game that had ended, and the game still being played goes on to
//! its result, which reaches the tournament.

use crate::common::killed::{
    act, connect, on_postgres, on_sqlite, read_until, sigkill, wait_get, Data,
};
use crate::common::Client;
use serde_json::{json, Value};

/// The seat of `who` in `game` (a new secret for the identity's seat).
fn seat(who: &mut Client, game: &str) -> (String, String) {
    let s = who.post(&format!("/api/games/{game}/seat"), json!({}));
    (
        s["secret"].as_str().unwrap().to_string(),
        s["seat"].as_str().unwrap().to_string(),
    )
}

fn wait_view(org: &mut Client, id: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    wait_get(org, &format!("/api/tournaments/{id}"), what, pred)
}

fn kill_during_round(data: Data) {
    let (mut child, addr) = data.start(&[]);
    let mut org = Client::new(addr);
    let created = org.post(
        "/api/tournaments",
        json!({
            "name": "Torneo interrumpido",
            "system": "dutch",
            "rounds": 2,
            "mode": "online",
            "time_control": "10+0",
            "settings": {"no_show_s": 600},
        }),
    );
    let id = created["id"].as_str().expect("id").to_string();
    let mut players: Vec<Client> = (0..4).map(|_| Client::new(addr)).collect();
    let mut by_number = std::collections::HashMap::new();
    for (i, p) in players.iter_mut().enumerate() {
        let j = p.post(
            &format!("/api/tournaments/{id}/join"),
            json!({"name": format!("Jugador {}", i + 1)}),
        );
        by_number.insert(j["number"].as_u64().unwrap(), i);
        p.post(&format!("/api/tournaments/{id}/present"), json!({}));
    }
    org.post(&format!("/api/tournaments/{id}/rounds"), json!({}));
    let v = org.get(&format!("/api/tournaments/{id}"));
    let boards = v["rounds"][0]["boards"].as_array().unwrap().clone();
    assert_eq!(boards.len(), 2, "{v}");
    let player = |b: &Value, side: &str| by_number[&b[side].as_u64().unwrap()];
    // Each board's game, as its White finds it among their games.
    let games: Vec<String> = boards
        .iter()
        .map(|b| {
            let mine = players[player(b, "white")].get("/api/me/games");
            mine["games"][0]["game"].as_str().unwrap().to_string()
        })
        .collect();
    let game = |b: &Value| games[b["board"].as_u64().unwrap() as usize - 1].clone();

    // Board 1 ends (Black resigns after 1.e4); board 2 is being played.
    let g1 = game(&boards[0]);
    let (w1, _) = seat(&mut players[player(&boards[0], "white")], &g1);
    let (b1, _) = seat(&mut players[player(&boards[0], "black")], &g1);
    let mut ws_w = connect(addr, &g1, &w1);
    let mut ws_b = connect(addr, &g1, &b1);
    assert_eq!(
        act(&mut ws_w, json!({"t": "move", "move": "e2e4", "id": 1}))["t"],
        "ack"
    );
    assert_eq!(act(&mut ws_b, json!({"t": "resign", "id": 2}))["t"], "ack");
    wait_view(&mut org, &id, "board 1's result", |v| {
        v["rounds"][0]["boards"][0]["result"] == "1-0"
    });
    let g2 = game(&boards[1]);
    let (w2, _) = seat(&mut players[player(&boards[1], "white")], &g2);
    let (b2, _) = seat(&mut players[player(&boards[1], "black")], &g2);
    let mut socks = [connect(addr, &g2, &w2), connect(addr, &g2, &b2)];
    let line = ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"];
    let mut acked = Vec::new();
    for (i, mv) in line.iter().enumerate() {
        let a = act(&mut socks[i % 2], json!({"t": "move", "move": mv, "id": i}));
        assert_eq!(a["t"], "ack", "{a}");
        acked.push(mv.to_string());
    }
    // Killed in the middle of the round.
    sigkill(&mut child);
    drop(socks);
    drop((ws_w, ws_b));

    let (mut child, addr) = data.start(&[]);
    org.addr = addr;
    for p in players.iter_mut() {
        p.addr = addr;
    }
    let v = org.get(&format!("/api/tournaments/{id}"));
    assert_eq!(v["round"], 1, "{v}");
    assert_eq!(v["rounds"][0]["boards"][0]["result"], "1-0", "{v}");
    assert_eq!(v["rounds"][0]["boards"][1]["result"], Value::Null, "{v}");
    // Every acknowledged move of the game being played is there, and it goes on.
    let (w2, _) = seat(&mut players[player(&boards[1], "white")], &g2);
    let (b2, _) = seat(&mut players[player(&boards[1], "black")], &g2);
    let mut w = connect(addr, &g2, &w2);
    let st = read_until(&mut w, |v| v["t"] == "state");
    let stored: Vec<String> = st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(stored, acked);
    assert_eq!(st["status"], "playing", "{st}");
    let mut b = connect(addr, &g2, &b2);
    read_until(&mut b, |v| v["t"] == "state");
    assert_eq!(
        act(&mut w, json!({"t": "move", "move": "c1g5", "id": 10}))["t"],
        "ack"
    );
    assert_eq!(
        act(&mut w, json!({"t": "offer_draw", "id": 11}))["t"],
        "ack"
    );
    assert_eq!(
        act(&mut b, json!({"t": "accept_draw", "id": 12}))["t"],
        "ack"
    );
    // The game's result, after the restart, reaches the tournament.
    let v = wait_view(&mut org, &id, "board 2's result", |v| {
        v["rounds"][0]["boards"][1]["result"] == "½-½"
    });
    assert_eq!(v["round_complete"], true, "{v}");
    sigkill(&mut child);
}

#[test]
fn online_round_survives_sigkill_sqlite() {
    on_sqlite("torneo-kill", kill_during_round);
}

#[test]
fn online_round_survives_sigkill_postgres() {
    on_postgres(kill_during_round);
}
