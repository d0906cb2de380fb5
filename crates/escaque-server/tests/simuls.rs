//! Simultaneous exhibitions (issue 26) through the API and real sockets: a
//! teacher starts a simul against pupils of a class (each pupil taken to
//! its board by `your_game` on its lobby socket), plays on several boards
//! at once, the score counts each board's latest finished game, a finished
//! board is restarted; and every refusal (who may start, see and restart a
//! simul, and what a request may ask for).

use std::net::SocketAddr;

use escaque_server::client::GameSocket;
use escaque_server::Running;
use serde_json::{json, Value};

use crate::common::*;

/// A pupil's lobby socket, open (its first list received, so the server
/// has it among the lobby's watchers).
async fn lobby(addr: SocketAddr, web: &Browser) -> GameSocket {
    lobby_socket(addr, &web.cookies.join("; ")).await
}

/// The next `your_game` on a lobby socket.
async fn your_game(ws: &mut GameSocket) -> Value {
    ws.until(WAIT, |v| v["t"] == "your_game")
        .await
        .expect("your_game")
}

/// A seat's socket from a reply naming `game`, `secret` and the colour
/// (`color`, as simul answers name it).
async fn sit(addr: SocketAddr, reply: &Value) -> Player {
    let seat = json!({"game": reply["game"], "secret": reply["secret"], "seat": reply["color"]});
    Player::connect(addr, &seat).await
}

async fn get(web: &mut Browser, path: &str) -> (u16, Value) {
    let r = web.req("GET", path, None).await;
    (r.status, r.json())
}

async fn post(web: &mut Browser, path: &str, body: Value) -> (u16, Value) {
    let r = web.post(path, body).await;
    (r.status, r.json())
}

/// A class of `n` pupils and a second class (another teacher), for the
/// refusals.
async fn two_classes(s: &Running, n: usize) -> (ClassFixture, ClassFixture) {
    (class_with_pupils(s, n).await, class_with_pupils(s, 1).await)
}

async fn creation_and_refusals_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut c, mut other) = two_classes(&s, 4).await;
    let mut lobbies = Vec::new();
    for p in &c.pupils[..3] {
        lobbies.push(lobby(s.addr, &p.web).await);
    }
    let url = format!("/api/classes/{}/simuls", c.id);
    let names: Vec<String> = c.pupils[..3].iter().map(|p| p.name.clone()).collect();

    // Who may start one: the class's teachers only.
    let body = json!({"pupils": names});
    let mut guest = Browser::new(s.addr);
    let (mut outsider, _) = account(s.addr, "Fuera").await;
    for (who, web, status, code) in [
        ("guest", &mut guest, 404, "class_not_found"),
        ("outsider", &mut outsider, 404, "class_not_found"),
        ("other teacher", &mut other.teacher, 404, "class_not_found"),
        ("pupil", &mut c.pupils[0].web, 403, "teachers_only"),
        (
            "other class's pupil",
            &mut other.pupils[0].web,
            404,
            "class_not_found",
        ),
    ] {
        let (st, v) = post(web, &url, body.clone()).await;
        assert_eq!((st, v["code"].as_str()), (status, Some(code)), "{who}: {v}");
    }
    let (st, v) = post(&mut c.teacher, "/api/classes/nohay/simuls", body.clone()).await;
    assert_eq!(
        (st, v["code"].as_str()),
        (404, Some("class_not_found")),
        "{v}"
    );

    // What a request may ask for.
    let lower = c.pupils[1].name.to_lowercase();
    let thirty_one: Vec<String> = (0..31).map(|_| c.pupils[0].name.clone()).collect();
    for (body, status, code) in [
        (json!({"pupils": []}), 400, "bad_simul_size"),
        (json!({"pupils": thirty_one}), 400, "bad_simul_size"),
        (json!({"pupils": ["NadieNadie99"]}), 404, "pupil_not_found"),
        (
            json!({"pupils": [other.pupils[0].name]}),
            404,
            "pupil_not_found",
        ),
        (
            json!({"pupils": [c.pupils[1].name, lower]}),
            400,
            "duplicate_pupil",
        ),
        (
            json!({"pupils": [c.pupils[0].name], "host_color": "verde"}),
            400,
            "bad_color",
        ),
        (
            json!({"pupils": [c.pupils[0].name], "time_control": "diez"}),
            400,
            "bad_time_control",
        ),
        (
            json!({"pupils": [c.pupils[0].name], "rated": true}),
            400,
            "malformed",
        ),
        (json!({"alumnos": [c.pupils[0].name]}), 400, "malformed"),
    ] {
        let (st, v) = post(&mut c.teacher, &url, body.clone()).await;
        assert_eq!(
            (st, v["code"].as_str()),
            (status, Some(code)),
            "{body}: {v}"
        );
        assert!(v["es"].is_string() && v["en"].is_string(), "{v}");
    }
    // Nothing was started by a refused request.
    let (_, listed) = get(&mut c.teacher, &url).await;
    assert_eq!(listed["simuls"], json!([]), "{listed}");

    // Started: three boards, the host White on each, with a clock.
    let (st, v) = post(
        &mut c.teacher,
        &url,
        json!({"pupils": names, "time_control": "15+10"}),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().expect("simul id").to_string();
    assert_eq!(v["url"], format!("/simul/{id}"));
    let boards = v["boards"].as_array().expect("boards").clone();
    assert_eq!(boards.len(), 3);
    for (i, b) in boards.iter().enumerate() {
        assert_eq!(b["board"], i + 1);
        assert_eq!(b["pupil"], names[i].as_str());
        assert_eq!(b["color"], "white");
        let game = b["game"].as_str().unwrap();
        assert_eq!(
            b["ws"],
            format!("/ws/games/{game}?seat={}", b["secret"].as_str().unwrap())
        );
        // Each game is the class's, casual, with the simul's clock.
        let row = s.hub.store.game(game).await.unwrap().expect("stored");
        assert_eq!(row.class_id.as_deref(), Some(c.id.as_str()));
        assert!(!row.rated);
        assert_eq!(row.time_control.as_deref(), Some("15+10"));
        assert_eq!(row.white_owner.as_deref(), Some(c.teacher_key.as_str()));
        assert_eq!(row.black_owner.as_deref(), Some(c.pupils[i].key.as_str()));
        assert_eq!(row.status, "playing");
        // The pupil is told, privately, with its own seat.
        let m = your_game(&mut lobbies[i]).await;
        assert_eq!(m["game"], game, "{m}");
        assert_eq!(m["color"], "black");
        assert_eq!(m["simul"], id.as_str());
        assert_eq!(m["board"], i + 1);
        assert_eq!(m["class"], c.id.as_str());
        assert_eq!(m["watch"], format!("/partida/{game}"));
        let pupil = Player::connect(
            s.addr,
            &json!({"game": game, "secret": m["secret"], "seat": "black"}),
        )
        .await;
        assert_eq!(pupil.seat, "black");
    }

    // Who may see it: the class's teachers and pupils, nobody else.
    let path = format!("/api/simuls/{id}");
    let (st, host_view) = get(&mut c.teacher, &path).await;
    assert_eq!(st, 200, "{host_view}");
    assert_eq!(host_view["you"], "host");
    assert_eq!(host_view["host"], c.teacher_name.as_str());
    assert_eq!(host_view["class"], c.id.as_str());
    assert_eq!(host_view["time_control"], "15+10");
    assert_eq!(host_view["score"], json!({"host": 0.0, "pupils": 0.0}));
    for (i, b) in host_view["boards"].as_array().unwrap().iter().enumerate() {
        assert_eq!(b["board"], i + 1);
        assert_eq!(b["attempt"], 1);
        assert_eq!(b["status"], "playing");
        assert_eq!(b["host_color"], "white");
        assert_eq!(b["to_move"], "host");
        assert_eq!(b["fen"], escaque::STARTING_FEN);
        assert!(b["last_move"].is_null());
        assert!(b["result"].is_null());
        // No seat secrets in the view.
        assert!(b.get("secret").is_none());
    }
    let (st, pupil_view) = get(&mut c.pupils[1].web, &path).await;
    assert_eq!(st, 200, "{pupil_view}");
    assert_eq!(pupil_view["you"], "pupil");
    assert_eq!(pupil_view["your_board"], 2);
    // The fourth pupil plays no board but is of the class.
    let (st, v) = get(&mut c.pupils[3].web, &path).await;
    assert_eq!((st, v["your_board"].clone()), (200, Value::Null), "{v}");
    for (who, web) in [
        ("guest", &mut guest),
        ("outsider", &mut outsider),
        ("other teacher", &mut other.teacher),
        ("other class's pupil", &mut other.pupils[0].web),
    ] {
        let (st, v) = get(web, &path).await;
        assert_eq!(
            (st, v["code"].as_str()),
            (404, Some("simul_not_found")),
            "{who}: {v}"
        );
    }
    let (st, v) = get(&mut c.teacher, "/api/simuls/nohay").await;
    assert_eq!(
        (st, v["code"].as_str()),
        (404, Some("simul_not_found")),
        "{v}"
    );

    // The class's list: the simul, and the pupils (no real names).
    let (st, listed) = get(&mut c.pupils[0].web, &url).await;
    assert_eq!(st, 200, "{listed}");
    assert_eq!(listed["simuls"][0]["id"], id.as_str());
    assert_eq!(listed["simuls"][0]["boards"], 3);
    assert_eq!(listed["simuls"][0]["in_play"], 3);
    let roster = listed["pupils"].as_array().unwrap();
    assert_eq!(roster.len(), 4);
    // Every pupil made a request a moment ago (three hold a socket too).
    assert!(roster.iter().all(|p| p["online"] == true), "{listed}");
    for (who, web) in [("guest", &mut guest), ("other teacher", &mut other.teacher)] {
        let (st, v) = get(web, &url).await;
        assert_eq!(
            (st, v["code"].as_str()),
            (404, Some("class_not_found")),
            "{who}: {v}"
        );
    }
    // Real names are the teachers' only: no simul answer carries them.
    for body in [&host_view, &pupil_view, &listed, &v] {
        assert!(!body.to_string().contains("Alumno Número"), "{body}");
    }
}

both_dbs!(creation_and_refusals, creation_and_refusals_run);

/// The host plays on three boards: a win, a loss, a draw; the score; then
/// restarts, by the host and by a co-teacher, and their refusals.
async fn host_plays_score_and_restart_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut c, mut other) = two_classes(&s, 3).await;
    let mut lobbies = Vec::new();
    for p in &c.pupils {
        lobbies.push(lobby(s.addr, &p.web).await);
    }
    let names: Vec<String> = c.pupils.iter().map(|p| p.name.clone()).collect();
    let (st, v) = post(
        &mut c.teacher,
        &format!("/api/classes/{}/simuls", c.id),
        json!({"pupils": names, "host_color": "white"}),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let path = format!("/api/simuls/{id}");
    let mut hosts = Vec::new();
    let mut pupils = Vec::new();
    for (i, b) in v["boards"].as_array().unwrap().iter().enumerate() {
        hosts.push(sit(s.addr, b).await);
        let m = your_game(&mut lobbies[i]).await;
        pupils.push(sit(s.addr, &m).await);
    }

    // From board to board: the host moves on each, then the pupils answer.
    for h in hosts.iter_mut() {
        assert_eq!(h.play("e2e4").await["t"], "ack");
    }
    let (_, view) = get(&mut c.teacher, &path).await;
    for b in view["boards"].as_array().unwrap() {
        assert_eq!(b["to_move"], "pupil", "{b}");
        assert_eq!(b["last_move"], "e2e4", "{b}");
        assert_eq!(b["plies"], 1);
    }
    // Board 1: the host mates (1.e4 e5 2.Ac4 Cc6 3.Dh5 Cf6 4.Dxf7#).
    let (h, p) = (&mut hosts[0], &mut pupils[0]);
    for (who, mv) in [
        (1, "e7e5"),
        (0, "f1c4"),
        (1, "b8c6"),
        (0, "d1h5"),
        (1, "g8f6"),
        (0, "h5f7"),
    ] {
        let a = if who == 0 {
            h.play(mv).await
        } else {
            p.play(mv).await
        };
        assert_eq!(a["t"], "ack", "{mv}: {a}");
    }
    // Board 2 is still going: it cannot be restarted.
    let (st, v) = post(
        &mut c.teacher,
        &format!("{path}/boards/2/restart"),
        json!({}),
    )
    .await;
    assert_eq!(
        (st, v["code"].as_str()),
        (409, Some("board_in_play")),
        "{v}"
    );
    // Board 2: the pupil resigns after one move; board 3: a draw agreed.
    assert_eq!(pupils[1].play("e7e5").await["t"], "ack");
    assert_eq!(pupils[1].act(json!({"t": "resign"})).await["t"], "ack");
    assert_eq!(pupils[2].play("c7c5").await["t"], "ack");
    assert_eq!(hosts[2].act(json!({"t": "offer_draw"})).await["t"], "ack");
    assert_eq!(pupils[2].act(json!({"t": "accept_draw"})).await["t"], "ack");

    let (_, view) = get(&mut c.pupils[0].web, &path).await;
    let boards = view["boards"].as_array().unwrap();
    assert_eq!(boards[0]["status"], "over", "{view}");
    assert_eq!(boards[0]["result"], "1-0");
    assert_eq!(boards[0]["termination"], "checkmate");
    assert!(boards[0]["to_move"].is_null());
    assert_eq!(boards[1]["result"], "1-0");
    assert_eq!(boards[1]["termination"], "resignation");
    assert_eq!(boards[2]["result"], "1/2-1/2");
    assert_eq!(view["score"], json!({"host": 2.5, "pupils": 0.5}), "{view}");

    // Restarting: the class's teachers only, a board that exists, once.
    let restart1 = format!("{path}/boards/1/restart");
    let mut guest = Browser::new(s.addr);
    for (who, web, status, code) in [
        ("guest", &mut guest, 404, "simul_not_found"),
        ("other teacher", &mut other.teacher, 404, "simul_not_found"),
        (
            "other class's pupil",
            &mut other.pupils[0].web,
            404,
            "simul_not_found",
        ),
        (
            "the board's pupil",
            &mut c.pupils[0].web,
            403,
            "teachers_only",
        ),
    ] {
        let (st, v) = post(web, &restart1, json!({})).await;
        assert_eq!((st, v["code"].as_str()), (status, Some(code)), "{who}: {v}");
    }
    let (st, v) = post(
        &mut c.teacher,
        &format!("{path}/boards/9/restart"),
        json!({}),
    )
    .await;
    assert_eq!(
        (st, v["code"].as_str()),
        (404, Some("board_not_found")),
        "{v}"
    );
    let (st, v) = post(
        &mut c.teacher,
        &format!("{path}/boards/uno/restart"),
        json!({}),
    )
    .await;
    assert_eq!((st, v["code"].as_str()), (400, Some("malformed")), "{v}");
    let (st, v) = post(
        &mut c.teacher,
        "/api/simuls/nohay/boards/1/restart",
        json!({}),
    )
    .await;
    assert_eq!(
        (st, v["code"].as_str()),
        (404, Some("simul_not_found")),
        "{v}"
    );

    let (st, again) = post(&mut c.teacher, &restart1, json!({})).await;
    assert_eq!(st, 201, "{again}");
    assert_eq!(again["board"], 1);
    assert_eq!(again["attempt"], 2);
    assert_eq!(again["color"], "white");
    let new_game = again["game"].as_str().unwrap().to_string();
    assert_ne!(new_game, hosts[0].game);
    let row = s.hub.store.game(&new_game).await.unwrap().expect("stored");
    assert_eq!(row.class_id.as_deref(), Some(c.id.as_str()));
    assert_eq!(row.black_owner.as_deref(), Some(c.pupils[0].key.as_str()));
    let m = your_game(&mut lobbies[0]).await;
    assert_eq!(
        (m["game"].as_str(), m["board"].clone()),
        (Some(new_game.as_str()), json!(1))
    );
    assert_eq!(m["simul"], id.as_str());
    // The board is in play again: a second restart is refused.
    let (st, v) = post(&mut c.teacher, &restart1, json!({})).await;
    assert_eq!(
        (st, v["code"].as_str()),
        (409, Some("board_in_play")),
        "{v}"
    );
    // While the new game is played, the board's score is its last
    // finished game's.
    let (_, view) = get(&mut c.teacher, &path).await;
    assert_eq!(view["boards"][0]["attempt"], 2);
    assert_eq!(view["boards"][0]["game"], new_game.as_str());
    assert_eq!(view["boards"][0]["status"], "playing");
    assert_eq!(view["boards"][0]["to_move"], "host");
    assert_eq!(view["score"], json!({"host": 2.5, "pupils": 0.5}), "{view}");
    // The new game: the pupil wins (the host resigns); the board now
    // scores that.
    let mut h1 = sit(s.addr, &again).await;
    let mut p1 = sit(s.addr, &m).await;
    assert_eq!(h1.play("d2d4").await["t"], "ack");
    assert_eq!(p1.play("d7d5").await["t"], "ack");
    assert_eq!(h1.act(json!({"t": "resign"})).await["t"], "ack");
    let (_, view) = get(&mut c.teacher, &path).await;
    assert_eq!(view["boards"][0]["result"], "0-1");
    assert_eq!(view["score"], json!({"host": 1.5, "pupils": 1.5}), "{view}");

    // A co-teacher may restart a board; the host's seat secret is the
    // host's alone, who takes the seat back.
    let (mut co, co_name) = account(s.addr, "Codocente").await;
    let co_row = s.hub.store.user_by_name(&co_name).await.unwrap().unwrap();
    assert!(s
        .hub
        .store
        .add_class_teacher(&c.id, &co_row.id)
        .await
        .unwrap());
    let (st, v) = get(&mut co, &path).await;
    assert_eq!((st, v["you"].as_str()), (200, Some("teacher")), "{v}");
    let (st, by_co) = post(&mut co, &format!("{path}/boards/3/restart"), json!({})).await;
    assert_eq!(st, 201, "{by_co}");
    assert!(by_co["secret"].is_null(), "{by_co}");
    let game3 = by_co["game"].as_str().unwrap();
    let row = s.hub.store.game(game3).await.unwrap().expect("stored");
    assert_eq!(row.white_owner.as_deref(), Some(c.teacher_key.as_str()));
    let (st, seat) = post(
        &mut c.teacher,
        &format!("/api/games/{game3}/seat"),
        json!({}),
    )
    .await;
    assert_eq!(st, 200, "{seat}");
    assert_eq!(seat["seat"], "white");
    let m = your_game(&mut lobbies[2]).await;
    assert_eq!(
        (m["game"].as_str(), m["board"].clone()),
        (Some(game3), json!(3))
    );
    let mut h3 = Player::connect(s.addr, &seat).await;
    assert_eq!(h3.play("e2e4").await["t"], "ack");
}

both_dbs!(
    host_plays_score_and_restart,
    host_plays_score_and_restart_run
);

/// `random` draws the host's colour per board; `black` gives the host
/// Black everywhere; a restart keeps the simul's colour rule.
async fn host_colours_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 8).await;
    let names: Vec<String> = c.pupils.iter().map(|p| p.name.clone()).collect();
    let url = format!("/api/classes/{}/simuls", c.id);
    let (st, v) = post(
        &mut c.teacher,
        &url,
        json!({"pupils": &names[..2], "host_color": "black"}),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    for b in v["boards"].as_array().unwrap() {
        assert_eq!(b["color"], "black");
        let row = s
            .hub
            .store
            .game(b["game"].as_str().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.black_owner.as_deref(), Some(c.teacher_key.as_str()));
    }
    let (_, view) = get(
        &mut c.teacher,
        &format!("/api/simuls/{}", v["id"].as_str().unwrap()),
    )
    .await;
    for b in view["boards"].as_array().unwrap() {
        assert_eq!(b["host_color"], "black");
        // White (the pupil) moves first.
        assert_eq!(b["to_move"], "pupil");
    }
    // Random: over a few simuls of eight boards, both colours come up
    // (the chance of one colour on 24 boards is 2 in 2^24).
    let mut seen = std::collections::HashSet::new();
    for _ in 0..3 {
        let (st, v) = post(
            &mut c.teacher,
            &url,
            json!({"pupils": names, "host_color": "random"}),
        )
        .await;
        assert_eq!(st, 201, "{v}");
        for b in v["boards"].as_array().unwrap() {
            seen.insert(b["color"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(seen.len(), 2, "{seen:?}");
}

both_dbs!(host_colours, host_colours_run);

/// The most boards: a class of 30 against its teacher, every pupil told;
/// the time to start it and to read the grid (printed, not asserted).
async fn thirty_boards_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 30).await;
    let mut lobbies = Vec::new();
    for p in &c.pupils {
        lobbies.push(lobby(s.addr, &p.web).await);
    }
    let names: Vec<String> = c.pupils.iter().map(|p| p.name.clone()).collect();
    let t0 = std::time::Instant::now();
    let (st, v) = post(
        &mut c.teacher,
        &format!("/api/classes/{}/simuls", c.id),
        json!({"pupils": names, "time_control": "15+10"}),
    )
    .await;
    let started = t0.elapsed();
    assert_eq!(st, 201, "{v}");
    assert_eq!(v["boards"].as_array().unwrap().len(), 30);
    for (i, ws) in lobbies.iter_mut().enumerate() {
        let m = your_game(ws).await;
        assert_eq!(m["board"], i + 1, "{m}");
    }
    let t1 = std::time::Instant::now();
    let (st, view) = get(
        &mut c.teacher,
        &format!("/api/simuls/{}", v["id"].as_str().unwrap()),
    )
    .await;
    let read = t1.elapsed();
    assert_eq!(st, 200, "{view}");
    assert_eq!(view["boards"].as_array().unwrap().len(), 30);
    assert!(view["boards"]
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["to_move"] == "host"));
    eprintln!(
        "simul of 30 boards ({db:?}): started in {} ms, grid read in {} ms",
        started.as_millis(),
        read.as_millis()
    );
}

both_dbs!(thirty_boards, thirty_boards_run);

/// Archives a pupil straight in the database (the class routes that do it
/// are another file's): a second connection to the server's database.
async fn archive_pupil(s: &Running, class: &str, key: &str) {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let url = match &s.hub.config.database {
        escaque_server::Database::Dir(d) => {
            format!("sqlite://{}?mode=rw", d.join("escaque.sqlite3").display())
        }
        escaque_server::Database::Url(u) => u.clone(),
    };
    let mut conn = sqlx::AnyConnection::connect(&url).await.expect("database");
    let user = key.strip_prefix("u:").expect("an account key");
    let done =
        sqlx::query("UPDATE class_pupils SET archived = 1 WHERE class_id = $1 AND user_id = $2")
            .bind(class)
            .bind(user)
            .execute(&mut conn)
            .await
            .expect("archive");
    assert_eq!(done.rows_affected(), 1);
}

/// An archived pupil gets no new board: not in a new simul, not by a
/// restart of its finished board.
async fn archived_pupil_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 2).await;
    let mut ws = lobby(s.addr, &c.pupils[1].web).await;
    let url = format!("/api/classes/{}/simuls", c.id);
    let (st, v) = post(&mut c.teacher, &url, json!({"pupils": [c.pupils[1].name]})).await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let m = your_game(&mut ws).await;
    let mut pupil = sit(s.addr, &m).await;
    assert_eq!(pupil.act(json!({"t": "resign"})).await["t"], "ack");
    archive_pupil(&s, &c.id, &c.pupils[1].key).await;
    let (st, v) = post(
        &mut c.teacher,
        &format!("/api/simuls/{id}/boards/1/restart"),
        json!({}),
    )
    .await;
    assert_eq!(
        (st, v["code"].as_str()),
        (409, Some("pupil_not_in_class")),
        "{v}"
    );
    let (st, v) = post(
        &mut c.teacher,
        &url,
        json!({"pupils": [c.pupils[0].name, c.pupils[1].name]}),
    )
    .await;
    assert_eq!(
        (st, v["code"].as_str()),
        (404, Some("pupil_not_found")),
        "{v}"
    );
    // The grid still shows the board, its pupil by account name.
    let (st, v) = get(&mut c.teacher, &format!("/api/simuls/{id}")).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["boards"][0]["pupil"], c.pupils[1].name.as_str());
    assert_eq!(v["score"], json!({"host": 1.0, "pupils": 0.0}));
}

both_dbs!(archived_pupil, archived_pupil_run);

/// A simul's boards start with both seats taken: the host's connections
/// are told of no pupil "connected" when a pupil first arrives, nor shown a
/// pupil who never came as gone (docs/protocol.md, `connected`, issue 60);
/// a pupil who leaves is told as gone, and its return as back.
async fn first_arrivals_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 2).await;
    let mut lobbies = Vec::new();
    for p in &c.pupils {
        lobbies.push(lobby(s.addr, &p.web).await);
    }
    let names: Vec<String> = c.pupils.iter().map(|p| p.name.clone()).collect();
    let (st, v) = post(
        &mut c.teacher,
        &format!("/api/classes/{}/simuls", c.id),
        json!({"pupils": names, "host_color": "white"}),
    )
    .await;
    assert_eq!(st, 201, "{v}");
    let boards = v["boards"].as_array().unwrap().clone();
    for (i, b) in boards.iter().enumerate() {
        let mut host = sit(s.addr, b).await;
        // Before its pupil has come: not shown as gone.
        let st = host.state().await;
        assert_eq!(st["black"]["connected"], true, "{st}");
        let m = your_game(&mut lobbies[i]).await;
        let mut pupil = sit(s.addr, &m).await;
        assert_eq!(host.play("e2e4").await["t"], "ack");
        assert_eq!(pupil.play("e7e5").await["t"], "ack");
        host.wait_for(|v| v["event"] == "move" && v["plies"] == 2)
            .await;
        for v in host.backlog.drain(..) {
            assert_ne!(v["event"], "presence", "board {i}: {v}");
            if v["t"] == "event" || v["t"] == "state" {
                assert_eq!(v["black"]["connected"], true, "board {i}: {v}");
            }
        }
        // A real departure is told, and the return.
        let back = json!({"game": pupil.game, "secret": pupil.secret, "seat": "black"});
        drop(pupil);
        let ev = host
            .wait_for(|v| v["event"] == "presence" && v["data"]["connected"] == false)
            .await;
        assert_eq!(ev["black"]["connected"], false, "{ev}");
        let _again = Player::connect(s.addr, &back).await;
        let ev = host
            .wait_for(|v| v["event"] == "presence" && v["data"]["connected"] == true)
            .await;
        assert_eq!(ev["black"]["connected"], true, "{ev}");
    }
}
both_dbs!(first_arrivals, first_arrivals_run);
