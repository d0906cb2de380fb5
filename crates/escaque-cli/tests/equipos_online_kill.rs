//! `escaque servir` killed with SIGKILL during an online team round (issue
//! 59, online team play), on SQLite and on PostgreSQL: started again on the
//! same data, the round is there with its games, the board whose game had
//! ended keeps its result, and the game still being played (every
//! acknowledged move kept) goes on to its result, which reaches the match
//! and the standings.

use crate::common::killed::{
    act, connect, on_postgres, on_sqlite, read_until, sigkill, wait_get, Data,
};
use crate::common::{unique_suffix, Client};
use serde_json::{json, Value};

/// The asker's board (`mi-tablero`) and a new secret for its seat.
fn my_seat(who: &mut Client, id: &str) -> (String, String, String) {
    let b = who.get(&format!("/api/equipos/{id}/mi-tablero"));
    let game = b["my_game"]["game"].as_str().unwrap().to_string();
    let s = who.post(&format!("/api/games/{game}/seat"), json!({}));
    (
        game,
        s["secret"].as_str().unwrap().to_string(),
        b["color"].as_str().unwrap().to_string(),
    )
}

fn wait_view(org: &mut Client, id: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    wait_get(org, &format!("/api/equipos/{id}"), what, pred)
}

fn kill_during_team_round(data: Data) {
    let (mut child, addr) = data.start(&[]);
    let mut org = Client::new(addr);
    let created = org.post(
        "/api/equipos",
        json!({"name": "Liga interrumpida", "system": "suizo", "rounds": 1, "boards": 2}),
    );
    let id = created["id"].as_str().expect("id").to_string();
    org.post(
        &format!("/api/equipos/{id}/en-linea"),
        json!({"time_control": "10+0", "no_show_s": 600}),
    );
    // Two teams of two accounts.
    let suffix: String = unique_suffix().replace('_', "").chars().take(10).collect();
    let mut players: Vec<(String, Client)> = Vec::new();
    for (t, team) in ["Norte", "Sur"].iter().enumerate() {
        let mut roster = Vec::new();
        for j in 0..2 {
            let name = format!("{}{j}k{suffix}", &team[..3]);
            let mut c = Client::new(addr);
            c.post(
                "/api/signup",
                json!({"name": name, "password": "contraseña-larga"}),
            );
            roster.push(json!({"account": name, "rating": 2000 - 100 * t - 10 * j}));
            players.push((name, c));
        }
        org.post(
            &format!("/api/equipos/{id}/equipos"),
            json!({"name": team, "members": roster, "fixed_order": true}),
        );
    }
    org.post(&format!("/api/equipos/{id}/emparejar"), json!({}));
    let v = org.get(&format!("/api/equipos/{id}"));
    let m = &v["rounds"][0]["matches"][0];
    let name_of = |b: &Value, white: bool| {
        let home = (b["white"] == "home") == white;
        b[if home { "home_player" } else { "away_player" }]
            .as_str()
            .unwrap()
            .to_string()
    };
    let names: Vec<String> = players.iter().map(|p| p.0.clone()).collect();
    let idx = |name: &str| names.iter().position(|p| p == name).unwrap();
    let boards = m["boards"].as_array().unwrap().clone();

    // Board 1 ends (Black resigns after 1.e4); board 2 is being played.
    let (w1, b1) = (
        idx(&name_of(&boards[0], true)),
        idx(&name_of(&boards[0], false)),
    );
    let (g1, sw1, c) = my_seat(&mut players[w1].1, &id);
    assert_eq!(c, "white");
    let (_, sb1, _) = my_seat(&mut players[b1].1, &id);
    let mut ws_w = connect(addr, &g1, &sw1);
    let mut ws_b = connect(addr, &g1, &sb1);
    assert_eq!(
        act(&mut ws_w, json!({"t": "move", "move": "e2e4", "id": 1}))["t"],
        "ack"
    );
    assert_eq!(act(&mut ws_b, json!({"t": "resign", "id": 2}))["t"], "ack");
    wait_view(&mut org, &id, "board 1's result", |v| {
        v["rounds"][0]["matches"][0]["boards"][0]["result"] == "1-0"
    });
    let (w2, b2) = (
        idx(&name_of(&boards[1], true)),
        idx(&name_of(&boards[1], false)),
    );
    let (g2, sw2, _) = my_seat(&mut players[w2].1, &id);
    let (_, sb2, _) = my_seat(&mut players[b2].1, &id);
    let mut socks = [connect(addr, &g2, &sw2), connect(addr, &g2, &sb2)];
    let line = ["d2d4", "d7d5", "c2c4", "e7e6"];
    for (i, mv) in line.iter().enumerate() {
        let a = act(&mut socks[i % 2], json!({"t": "move", "move": mv, "id": i}));
        assert_eq!(a["t"], "ack", "{a}");
    }
    // Killed in the middle of the round.
    sigkill(&mut child);
    drop(socks);
    drop((ws_w, ws_b));

    let (mut child, addr) = data.start(&[]);
    org.addr = addr;
    for p in players.iter_mut() {
        p.1.addr = addr;
    }
    let v = org.get(&format!("/api/equipos/{id}"));
    let m = &v["rounds"][0]["matches"][0];
    assert_eq!(m["boards"][0]["result"], "1-0", "{v}");
    assert_eq!(m["boards"][0]["state"], "played", "{v}");
    assert_eq!(m["boards"][1]["result"], Value::Null, "{v}");
    let (g, sw2, _) = my_seat(&mut players[w2].1, &id);
    assert_eq!(g, g2);
    let (_, sb2, _) = my_seat(&mut players[b2].1, &id);
    let mut w = connect(addr, &g2, &sw2);
    let st = read_until(&mut w, |v| v["t"] == "state");
    let stored: Vec<&str> = st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap())
        .collect();
    assert_eq!(stored, line);
    assert_eq!(st["status"], "playing", "{st}");
    let mut b = connect(addr, &g2, &sb2);
    read_until(&mut b, |v| v["t"] == "state");
    assert_eq!(
        act(&mut w, json!({"t": "move", "move": "b1c3", "id": 10}))["t"],
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
    // The game's result, after the restart, reaches the match.
    let v = wait_view(&mut org, &id, "board 2's result", |v| {
        v["rounds"][0]["matches"][0]["complete"] == true
    });
    let m = &v["rounds"][0]["matches"][0];
    assert_eq!(m["boards"][1]["result"], "½-½", "{v}");
    assert_eq!(v["status"], "finished", "{v}");
    let top = &v["standings"][0];
    assert_eq!(top["match_points"], 2, "{v}");
    assert_eq!(top["game_points"], "1,5", "{v}");
    sigkill(&mut child);
}

#[test]
fn online_team_round_survives_sigkill_sqlite() {
    on_sqlite("equipos-kill", kill_during_team_round);
}

#[test]
fn online_team_round_survives_sigkill_postgres() {
    on_postgres(kill_during_team_round);
}
