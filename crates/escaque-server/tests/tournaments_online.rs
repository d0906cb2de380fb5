//! Online tournaments (issue 24) through the API and real sockets: a
//! three-round Swiss of six players played to the end — a no-show forfeit,
//! a late joiner, a withdrawal, automatic pairing after a countdown — whose
//! final standings equal the library's on the exported TRF; and the
//! organiser's added time and set result on a game being played.

use std::collections::HashMap;
use std::net::SocketAddr;

use escaque_server::client::GameSocket;
use serde_json::{json, Value};

use crate::common::{Browser, Db, Player, WAIT};

/// One entrant: an identity (cookies) and its tournament socket.
struct Entrant {
    web: Browser,
    ws: GameSocket,
    number: u64,
    backlog: Vec<Value>,
}

impl Entrant {
    async fn new(addr: SocketAddr, id: &str, name: &str) -> Entrant {
        let mut web = Browser::new(addr);
        // A first request gives the guest its identity cookie.
        let me = web.req("GET", "/api/me", None).await;
        assert_eq!(me.status, 200, "{}", me.body);
        let cookie = web.cookies.join("; ");
        let mut ws =
            GameSocket::connect_with_cookie(addr, &format!("/ws/tournaments/{id}"), &cookie)
                .await
                .expect("tournament socket");
        let first = ws.until(WAIT, |v| v["t"] == "tournament").await;
        assert!(first.is_ok(), "{first:?}");
        let _ = name;
        Entrant {
            web,
            ws,
            number: 0,
            backlog: Vec::new(),
        }
    }

    async fn join(&mut self, id: &str, name: &str) -> u64 {
        let r = self
            .web
            .post(
                &format!("/api/tournaments/{id}/join"),
                json!({"name": name}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        self.number = r.json()["number"].as_u64().expect("number");
        self.number
    }

    /// The `your_game` of round `round`.
    async fn your_game(&mut self, round: u64) -> Value {
        if let Some(i) = self
            .backlog
            .iter()
            .position(|v| v["t"] == "your_game" && v["round"] == round)
        {
            return self.backlog.remove(i);
        }
        let mut seen = Vec::new();
        let v = self
            .ws
            .until(WAIT, |v| {
                let hit = v["t"] == "your_game" && v["round"] == round;
                if !hit && v["t"] == "your_game" {
                    seen.push(v.clone());
                }
                hit
            })
            .await
            .unwrap_or_else(|e| panic!("player {}: no game in round {round}: {e:?}", self.number));
        self.backlog.extend(seen);
        v
    }
}

async fn create(org: &mut Browser, settings: Value) -> String {
    let r = org
        .post(
            "/api/tournaments",
            json!({
                "name": "Torneo escolar <b>en línea</b>",
                "system": "dutch",
                "rounds": 3,
                "mode": "online",
                "time_control": "5+0",
                "settings": settings,
            }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().expect("id").to_string()
}

async fn view(web: &mut Browser, id: &str) -> Value {
    let r = web
        .req("GET", &format!("/api/tournaments/{id}"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// How a board's game goes.
#[derive(Copy, Clone, Debug)]
enum Script {
    /// White never comes: Black wins by forfeit after `no_show_s`.
    WhiteNoShow,
    /// Black resigns after 1.e4.
    BlackResigns,
    /// A draw agreed after 1.e4 e5.
    Draw,
    /// Fool's mate: Black wins.
    FoolsMate,
}

/// Plays one board's game to its end by `script`.
async fn play(addr: SocketAddr, white: &Value, black: &Value, script: Script) {
    let seat = |v: &Value| json!({"game": v["game"], "secret": v["secret"], "seat": v["color"]});
    let mut b = Player::connect(addr, &seat(black)).await;
    if let Script::WhiteNoShow = script {
        let end = b.event("end").await;
        assert_eq!(end["result"], "0-1", "{end}");
        assert_eq!(end["termination"], "abandoned", "{end}");
        return;
    }
    let mut w = Player::connect(addr, &seat(white)).await;
    match script {
        Script::WhiteNoShow => {}
        Script::BlackResigns => {
            crate::common::play_line(&mut w, &mut b, &["e2e4"]).await;
            let a = b.act(json!({"t": "resign", "id": 7})).await;
            assert_eq!(a["t"], "ack", "{a}");
        }
        Script::Draw => {
            crate::common::play_line(&mut w, &mut b, &["e2e4", "e7e5"]).await;
            let a = w.act(json!({"t": "offer_draw", "id": 7})).await;
            assert_eq!(a["t"], "ack", "{a}");
            let a = b.act(json!({"t": "accept_draw", "id": 8})).await;
            assert_eq!(a["t"], "ack", "{a}");
        }
        Script::FoolsMate => {
            crate::common::play_line(&mut w, &mut b, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
        }
    }
    w.event("end").await;
}

/// Plays every game of round `round`: the scripts in board order.
async fn play_round(
    addr: SocketAddr,
    players: &mut [Entrant],
    in_round: &[usize],
    round: u64,
    scripts: &[Script],
) -> Vec<(u64, u64, u64)> {
    // Each entrant paired this round is told its game.
    let mut games: HashMap<String, [Option<Value>; 2]> = HashMap::new();
    for &i in in_round {
        let g = players[i].your_game(round).await;
        let slot = games
            .entry(g["game"].as_str().unwrap().to_string())
            .or_default();
        let c = if g["color"] == "white" { 0 } else { 1 };
        slot[c] = Some(g);
    }
    let mut boards: Vec<(u64, Value, Value)> = games
        .into_values()
        .map(|[w, b]| {
            let w = w.expect("white told");
            let b = b.expect("black told");
            (w["board"].as_u64().unwrap(), w, b)
        })
        .collect();
    boards.sort_by_key(|b| b.0);
    assert_eq!(boards.len(), scripts.len(), "round {round}: boards");
    let mut tasks = Vec::new();
    for ((_, w, b), s) in boards.iter().cloned().zip(scripts.iter().copied()) {
        tasks.push(tokio::spawn(async move { play(addr, &w, &b, s).await }));
    }
    for t in tasks {
        t.await.expect("a board's game");
    }
    boards
        .iter()
        .map(|(n, w, _)| (round, *n, w["board"].as_u64().unwrap()))
        .collect()
}

async fn wait_round_complete(org: &mut Browser, id: &str, round: u64) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let v = view(org, id).await;
        if v["round"] == round && v["round_complete"] == true {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "round {round} never complete: {v}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

async fn online_swiss_of_six(db: Db) {
    let Some(server) = crate::common::start(db).await else {
        return;
    };
    let addr = server.addr;
    let mut org = Browser::new(addr);
    let id = create(
        &mut org,
        json!({
            "auto_pair": true,
            "pair_delay_s": 3,
            "no_show_s": 3,
            "registration_until": 2,
            "late_bye": "half",
        }),
    )
    .await;
    // Five players join and answer the roll call; one more joins and does
    // not: it is not paired in round 1.
    let mut players = Vec::new();
    for i in 0..6 {
        let name = format!("Jugador {}", i + 1);
        let mut e = Entrant::new(addr, &id, &name).await;
        e.join(&id, &name).await;
        players.push(e);
    }
    for e in players.iter_mut().take(4) {
        let r = e
            .web
            .post(&format!("/api/tournaments/{id}/present"), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // A stranger cannot pair; the organiser pairs round 1.
    let r = players[0]
        .web
        .post(&format!("/api/tournaments/{id}/rounds"), json!({}))
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    let r = org
        .post(&format!("/api/tournaments/{id}/rounds"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Too late for the roll call now.
    let r = players[5]
        .web
        .post(&format!("/api/tournaments/{id}/present"), json!({}))
        .await;
    assert_eq!(r.status, 409, "{}", r.body);
    // A late joiner, after round 1 is paired.
    let mut late = Entrant::new(addr, &id, "Tardón").await;
    let late_number = late.join(&id, "Tardón").await;
    players.push(late);

    // Round 1: four present players, two boards; board 1's White never comes.
    play_round(
        addr,
        &mut players,
        &[0, 1, 2, 3],
        1,
        &[Script::WhiteNoShow, Script::BlackResigns],
    )
    .await;
    let v = wait_round_complete(&mut org, &id, 1).await;
    let r1 = &v["rounds"][0];
    assert_eq!(r1["boards"][0]["result"], "-+", "{r1}");
    assert_eq!(r1["boards"][1]["result"], "1-0", "{r1}");
    // The roll call's absentees (players 5 and 6) got no game and no point; the
    // late joiner the half point.
    let byes = r1["byes"].as_array().unwrap();
    let kind_of = |n: u64| {
        byes.iter()
            .find(|b| b["player"] == n)
            .map(|b| b["kind"].clone())
            .unwrap_or(Value::Null)
    };
    assert_eq!(kind_of(players[4].number), "zero", "{r1}");
    assert_eq!(kind_of(late_number), "half", "{r1}");

    // Round 2 is paired automatically after the countdown: seven players,
    // three boards and the pairing bye.
    let boards = play_round(
        addr,
        &mut players,
        &[0, 1, 2, 3, 4, 5, 6],
        2,
        &[Script::Draw, Script::FoolsMate, Script::BlackResigns],
    )
    .await;
    let _ = boards;
    // A player leaves during round 2 (after the round's games): withdrawn,
    // not paired in round 3. Leaving races the countdown, so the countdown is
    // long enough (1 s) for the request.
    let v = wait_round_complete(&mut org, &id, 2).await;
    let leaver = &mut players[0];
    let r = leaver
        .web
        .post(&format!("/api/tournaments/{id}/leave"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let _ = v;
    play_round(
        addr,
        &mut players,
        &[1, 2, 3, 4, 5, 6],
        3,
        &[Script::BlackResigns, Script::Draw, Script::FoolsMate],
    )
    .await;
    let v = wait_round_complete(&mut org, &id, 3).await;
    assert_eq!(v["status"], "finished", "{v}");
    // The withdrawn player had no game in round 3.
    let leaver = players[0].number;
    for b in v["rounds"][2]["boards"].as_array().unwrap() {
        assert!(b["white"] != leaver && b["black"] != leaver, "{b}");
    }

    // The final standings are the library's on the exported TRF.
    let r = org
        .req("GET", &format!("/api/tournaments/{id}/trf"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let t = escaque_torneo::trf::parse(&r.body).expect("the exported TRF reads");
    let lib = escaque_torneo::standings::compute(&t);
    let rows = v["standings"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), lib.len(), "{}", v["standings"]);
    for (row, s) in rows.iter().zip(&lib) {
        assert_eq!(row["number"], s.player, "{}", v["standings"]);
        assert_eq!(row["rank"], s.rank, "{}", v["standings"]);
        assert_eq!(
            row["points"].as_f64().unwrap(),
            f64::from(s.points) / 2.0,
            "{}",
            v["standings"]
        );
    }
    // The forfeit is a forfeit in the file, the late joiner's round 1 a half-point bye.
    let g = &t.rounds[0].games[0];
    assert_eq!(g.outcome, escaque_torneo::Outcome::BlackForfeitWin);
    assert!(t.rounds[0]
        .byes
        .contains(&(late_number as u32, escaque_torneo::ByeKind::Half)));
    assert_eq!(t.players[leaver as usize - 1].withdrawn_from, Some(3));
}

both_dbs!(online_swiss_played_to_the_end, online_swiss_of_six);

/// The organiser adds time to a side and sets a forfeit on a game being
/// played: the game ends, the board says `+-`; a player can do neither.
async fn organiser_time_and_result(db: Db) {
    let Some(server) = crate::common::start(db).await else {
        return;
    };
    let addr = server.addr;
    let mut org = Browser::new(addr);
    let id = create(&mut org, json!({"no_show_s": 600})).await;
    let mut players = Vec::new();
    for i in 0..2 {
        let name = format!("Jugadora {}", i + 1);
        let mut e = Entrant::new(addr, &id, &name).await;
        e.join(&id, &name).await;
        let r = e
            .web
            .post(&format!("/api/tournaments/{id}/present"), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        players.push(e);
    }
    let r = org
        .post(&format!("/api/tournaments/{id}/rounds"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let g = players[0].your_game(1).await;
    let seat = json!({"game": g["game"], "secret": g["secret"], "seat": g["color"]});
    let mut p = Player::connect(addr, &seat).await;
    let before = p.state().await;
    let path = format!("/api/tournaments/{id}/rounds/1/boards/1/time");
    let r = players[0]
        .web
        .post(&path, json!({"seconds": 60, "color": "white"}))
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    let r = org
        .post(&path, json!({"seconds": 60, "color": "white"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let ev = p.event("time_added").await;
    assert_eq!(
        ev["clock"]["white_ms"].as_u64().unwrap(),
        before["clock"]["white_ms"].as_u64().unwrap() + 60_000,
        "{ev}"
    );
    let r = org
        .post(
            &format!("/api/tournaments/{id}/rounds/1/boards/1/time"),
            json!({"seconds": 0, "color": "white"}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    // A player cannot abort a tournament game.
    let a = p.act(json!({"t": "abort", "id": 3})).await;
    assert_eq!(a["code"], "tournament_game", "{a}");
    // The organiser's forfeit ends the game; the board says so.
    let r = org
        .post(
            &format!("/api/tournaments/{id}/rounds/1/boards/1/result"),
            json!({"result": "+-"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let end = p.event("end").await;
    assert_eq!(end["result"], "1-0", "{end}");
    let v = view(&mut org, &id).await;
    assert_eq!(v["rounds"][0]["boards"][0]["result"], "+-", "{v}");
}

both_dbs!(
    organiser_adds_time_and_sets_a_forfeit,
    organiser_time_and_result
);
