//! Class tournaments (issue 26): a teacher starts a Swiss or a round robin
//! from the roster (by default the pupils online now); round 1 is paired at
//! once, each pupil is taken to its game by the lobby socket, the next round
//! is paired after the class's short countdown; only the class joins a
//! class's tournament and a pupil joins no other; every refusal.

use std::net::SocketAddr;

use escaque_server::client::GameSocket;
use escaque_server::store::UserRow;
use escaque_server::tournament;
use escaque_server::Running;
use serde_json::{json, Value};

use crate::common::*;

/// A pupil's lobby socket, where the server takes it to its games.
pub(crate) struct Lobby {
    pub(crate) ws: GameSocket,
    backlog: Vec<Value>,
}

impl Lobby {
    pub(crate) async fn open(addr: SocketAddr, web: &Browser) -> Lobby {
        let cookie = web.cookies.join("; ");
        let ws = lobby_socket(addr, &cookie).await;
        Lobby {
            ws,
            backlog: Vec::new(),
        }
    }

    /// The `your_game` of round `round` of tournament `t`.
    pub(crate) async fn your_game(&mut self, t: &str, round: u64) -> Value {
        let hit = |v: &Value| v["t"] == "your_game" && v["tournament"] == t && v["round"] == round;
        if let Some(i) = self.backlog.iter().position(hit) {
            return self.backlog.remove(i);
        }
        let mut seen = Vec::new();
        let v = self
            .ws
            .until(WAIT, |v| {
                let h = hit(v);
                if !h && v["t"] == "your_game" {
                    seen.push(v.clone());
                }
                h
            })
            .await
            .unwrap_or_else(|e| panic!("no game in round {round}: {e:?}"));
        self.backlog.extend(seen);
        v
    }
}

/// The seat reply a `your_game` message stands for.
fn seat(v: &Value) -> Value {
    json!({"game": v["game"], "secret": v["secret"], "seat": v["color"]})
}

/// Plays every board of a round from the pupils' `your_game` messages:
/// a Fool's mate (`mate`) or a draw agreed after 1.e4 e5.
pub(crate) async fn play_round(addr: SocketAddr, told: &[Value], mate: bool) {
    let mut games: Vec<(Value, Value)> = Vec::new();
    for w in told.iter().filter(|v| v["color"] == "white") {
        let b = told
            .iter()
            .find(|v| v["game"] == w["game"] && v["color"] == "black")
            .expect("both seats told");
        games.push((w.clone(), b.clone()));
    }
    assert_eq!(games.len() * 2, told.len(), "{told:?}");
    let mut tasks = Vec::new();
    for (w, b) in games {
        tasks.push(tokio::spawn(async move {
            let mut w = Player::connect(addr, &seat(&w)).await;
            let mut b = Player::connect(addr, &seat(&b)).await;
            if mate {
                play_line(&mut w, &mut b, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
            } else {
                play_line(&mut w, &mut b, &["e2e4", "e7e5"]).await;
                let a = w.act(json!({"t": "offer_draw", "id": 7})).await;
                assert_eq!(a["t"], "ack", "{a}");
                let a = b.act(json!({"t": "accept_draw", "id": 8})).await;
                assert_eq!(a["t"], "ack", "{a}");
            }
            w.event("end").await;
        }));
    }
    for t in tasks {
        t.await.expect("a board's game");
    }
}

/// The tournament's view as the service computes it.
async fn view_of(s: &Running, id: &str) -> Value {
    serde_json::to_value(tournament::view::view(
        &tournament::load(&s.hub, id).await.expect("loads"),
    ))
    .expect("a view")
}

async fn wait_status(s: &Running, id: &str, round: u64, status: &str) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let v = view_of(s, id).await;
        if v["round"] == round && v["status"] == status {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never round {round} {status}: {v}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A pupil made in the store only: it has never made a request, so it is
/// not online. Its name and password.
pub(crate) async fn offline_pupil(s: &Running, class: &str, real: &str) -> (String, String) {
    use escaque_server::classes::words;
    let mut rng = rand::rng();
    let password = words::password(&mut rng);
    let hash = crate::common::cheap_hash(&password);
    loop {
        let name = words::account_name(&mut rng);
        let user = UserRow {
            id: escaque_server::new_id(),
            name: name.clone(),
            pass_hash: hash.clone(),
        };
        if s.hub
            .store
            .create_pupil(class, &user, &name.to_lowercase(), real)
            .await
            .expect("create pupil")
        {
            return (name, password);
        }
    }
}

async fn class_swiss_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 4).await;
    let mut lobbies = Vec::new();
    for p in &c.pupils {
        lobbies.push(Lobby::open(s.addr, &p.web).await);
    }
    // Nobody named: the pupils online now (all four, just logged in).
    let r = c
        .teacher
        .post(
            &format!("/api/classes/{}/tournaments", c.id),
            json!({"system": "swiss", "rounds": 2, "time_control": "10+5"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let made = r.json();
    let id = made["id"].as_str().expect("id").to_string();
    assert_eq!(made["url"], format!("/torneos/{id}"));
    assert_eq!(
        (made["round"].as_u64(), made["rounds"].as_u64()),
        (Some(1), Some(2))
    );
    let mut entered: Vec<String> = made["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    entered.sort();
    let mut names: Vec<String> = c.pupils.iter().map(|p| p.name.clone()).collect();
    names.sort();
    assert_eq!(entered, names);

    // Stored as a class's online event organised by the teacher, every
    // pupil linked to its account and present, round 1 paired.
    let l = tournament::load(&s.hub, &id).await.expect("loads");
    assert_eq!(l.row.class_id.as_deref(), Some(c.id.as_str()));
    assert_eq!(l.row.owner, c.teacher_key);
    assert_eq!(l.row.mode, "online");
    assert!(l.settings.auto_pair);
    assert_eq!(l.settings.pair_delay_s, 10);
    assert_eq!(l.settings.registration_until, 2);
    assert_eq!(l.settings.time_control.as_deref(), Some("10+5"));
    assert!(!l.settings.rated);
    assert_eq!(l.t.rounds.len(), 1);
    for p in &c.pupils {
        assert!(
            l.players
                .iter()
                .any(|x| x.owner.as_deref() == Some(p.key.as_str()) && x.present),
            "{} linked and present: {:?}",
            p.name,
            l.players
        );
    }

    // Each pupil is taken to its game, which is the class's.
    for (round, mate) in [(1u64, true), (2, false)] {
        let mut told = Vec::new();
        for lobby in &mut lobbies {
            let v = lobby.your_game(&id, round).await;
            assert_eq!(v["class"], c.id.as_str(), "{v}");
            told.push(v);
        }
        for v in &told {
            let g = s
                .hub
                .store
                .game(v["game"].as_str().unwrap())
                .await
                .unwrap()
                .expect("game row");
            assert_eq!(g.class_id.as_deref(), Some(c.id.as_str()));
            assert_eq!(g.time_control.as_deref(), Some("10+5"));
            assert!(!g.rated);
        }
        play_round(s.addr, &told, mate).await;
        // Round 2 is paired by the server after the countdown.
        let status = if round == 1 { "running" } else { "finished" };
        wait_status(&s, &id, round, status).await;
    }
    let v = wait_status(&s, &id, 2, "finished").await;
    assert_eq!(v["status"], "finished");

    // The class's list of tournaments: for the teacher with the roster
    // (real names), for a pupil without.
    let list = c
        .teacher
        .req("GET", &format!("/api/classes/{}/tournaments", c.id), None)
        .await;
    assert_eq!(list.status, 200, "{}", list.body);
    let list = list.json();
    assert_eq!(list["tournaments"][0]["id"], id.as_str(), "{list}");
    assert_eq!(list["tournaments"][0]["status"], "finished");
    assert_eq!(list["tournaments"][0]["players"], 4);
    assert_eq!(list["pupils"].as_array().unwrap().len(), 4);
    assert_eq!(list["pupils"][0]["online"], true);
    assert!(list["pupils"][0]["real_name"]
        .as_str()
        .unwrap()
        .starts_with("Alumno Número"));
    let seen = c.pupils[0]
        .web
        .req("GET", &format!("/api/classes/{}/tournaments", c.id), None)
        .await;
    assert_eq!(seen.status, 200, "{}", seen.body);
    assert!(seen.json()["pupils"].is_null(), "{}", seen.body);
    assert!(!seen.body.contains("Alumno Número"), "{}", seen.body);
    assert_eq!(seen.json()["tournaments"][0]["id"], id.as_str());

    // The progress table counts the event for every pupil.
    let p = c
        .teacher
        .req("GET", &format!("/api/classes/{}/progress", c.id), None)
        .await;
    assert_eq!(p.status, 200, "{}", p.body);
    for line in p.json()["pupils"].as_array().unwrap() {
        assert_eq!(line["games"], 2, "{line}");
        assert_eq!(line["draws"], 1, "{line}");
        assert_eq!(line["tournaments"], 1, "{line}");
    }
}

both_dbs!(class_swiss_is_played_round_by_round, class_swiss_run);

async fn round_robin_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 4).await;
    let chosen: Vec<String> = c.pupils[..3].iter().map(|p| p.name.clone()).collect();
    // Names are matched as account names are (case aside).
    let asked: Vec<String> = chosen.iter().map(|n| n.to_uppercase()).collect();
    let r = c
        .teacher
        .post(
            &format!("/api/classes/{}/tournaments", c.id),
            json!({"system": "round_robin", "pupils": asked, "auto_pair": false,
                   "name": "Liguilla <b>de</b> la clase"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    // Three players: three rounds, one bye each; no late joiner.
    let l = tournament::load(&s.hub, &id).await.unwrap();
    assert_eq!(l.t.total_rounds, 3);
    assert_eq!(l.t.name, "Liguilla <b>de</b> la clase");
    assert_eq!(l.t.players.len(), 3);
    assert!(!l.settings.auto_pair);
    assert_eq!(l.settings.registration_until, 0);
    let mut names: Vec<&str> = l.t.players.iter().map(|p| p.name.as_str()).collect();
    names.sort();
    let mut want: Vec<&str> = chosen.iter().map(String::as_str).collect();
    want.sort();
    assert_eq!(names, want);
    // The fourth pupil cannot come in once the table is drawn.
    let late = c.pupils[3]
        .web
        .post(&format!("/api/tournaments/{id}/join"), json!({}))
        .await;
    assert_eq!(late.status, 409, "{}", late.body);
    assert_eq!(late.json()["code"], "registration_closed");
}

both_dbs!(class_round_robin_of_chosen_pupils, round_robin_run);

async fn online_pupils_by_default_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 0).await;
    let mut made = Vec::new();
    for i in 0..3 {
        made.push(offline_pupil(&s, &c.id, &format!("Ausente {i}")).await);
    }
    let url = format!("/api/classes/{}/tournaments", c.id);
    let r = c.teacher.post(&url, json!({"system": "swiss"})).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["code"], "not_enough_pupils");
    // Two of them come in: they are the tournament.
    for (name, password) in &made[..2] {
        let mut web = Browser::new(s.addr);
        let r = web
            .post("/api/login", json!({"name": name, "password": password}))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        // The page they land on asks who they are: they are here.
        let r = web.req("GET", "/api/me", None).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = c.teacher.post(&url, json!({"system": "swiss"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let mut players: Vec<String> = r.json()["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    players.sort();
    let mut want = vec![made[0].0.clone(), made[1].0.clone()];
    want.sort();
    assert_eq!(players, want);
    // Two players: one round.
    assert_eq!(r.json()["rounds"], 1);
}

both_dbs!(
    class_tournament_takes_the_pupils_online,
    online_pupils_by_default_run
);

async fn refusals_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 3).await;
    let mut other = class_with_pupils(&s, 1).await;
    let (mut outsider, _) = account(s.addr, "Fuera").await;
    let mut guest = Browser::new(s.addr);
    let url = format!("/api/classes/{}/tournaments", c.id);
    let names: Vec<String> = c.pupils.iter().map(|p| p.name.clone()).collect();
    let ok = json!({"system": "swiss", "pupils": names});

    // Who may not: guest, outsider, another class's teacher (the class is
    // not told), a pupil (teachers only); a class that does not exist.
    for (who, web) in [
        ("guest", &mut guest),
        ("outsider", &mut outsider),
        ("other teacher", &mut other.teacher),
    ] {
        for method in ["POST", "GET"] {
            let body = (method == "POST").then(|| ok.clone());
            let r = web.req(method, &url, body).await;
            assert_eq!(r.status, 404, "{who} {method}: {}", r.body);
            assert_eq!(r.json()["code"], "class_not_found", "{who}");
        }
    }
    let r = c.pupils[0].web.post(&url, ok.clone()).await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.json()["code"], "teachers_only");
    let r = c
        .teacher
        .post("/api/classes/NOSUCHCLASS/tournaments", ok.clone())
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "class_not_found");

    // What may not be asked.
    let other_pupil = other.pupils[0].name.clone();
    let cases = [
        (json!({"system": "knockout"}), 400, "bad_system"),
        (json!({"pupils": names}), 400, "malformed"),
        (json!({"system": "swiss", "colour": "x"}), 400, "malformed"),
        (
            json!({"system": "swiss", "pupils": [names[0]]}),
            400,
            "not_enough_pupils",
        ),
        (
            json!({"system": "swiss", "pupils": []}),
            400,
            "not_enough_pupils",
        ),
        (
            json!({"system": "swiss", "pupils": [names[0], names[1], names[0].to_lowercase()]}),
            400,
            "duplicate_pupil",
        ),
        (
            json!({"system": "swiss", "pupils": [names[0], other_pupil]}),
            404,
            "pupil_not_found",
        ),
        (
            json!({"system": "swiss", "pupils": [names[0], c.teacher_name]}),
            404,
            "pupil_not_found",
        ),
        (
            json!({"system": "swiss", "pupils": names, "rounds": 0}),
            400,
            "bad_rounds",
        ),
        // Three pupils: at most two rounds.
        (
            json!({"system": "swiss", "pupils": names, "rounds": 3}),
            400,
            "bad_rounds",
        ),
        (
            json!({"system": "swiss", "pupils": names, "time_control": "rápido"}),
            400,
            "bad_time_control",
        ),
        (
            json!({"system": "swiss", "pupils": names, "name": "x".repeat(121)}),
            400,
            "bad_name",
        ),
        (
            json!({"system": "swiss", "pupils": names, "name": "a\u{7}b"}),
            400,
            "bad_name",
        ),
        (
            json!({"system": "swiss", "pupils": vec!["x"; 101]}),
            400,
            "too_many_pupils",
        ),
    ];
    for (body, status, code) in cases {
        let r = c.teacher.post(&url, body.clone()).await;
        assert_eq!(r.status, status, "{body}: {}", r.body);
        assert_eq!(r.json()["code"], code, "{body}: {}", r.body);
    }
    // Nothing was made.
    assert!(s
        .hub
        .store
        .class_tournaments(&c.id, 10)
        .await
        .unwrap()
        .is_empty());
    // The same request, well formed, passes.
    let r = c.teacher.post(&url, ok).await;
    assert_eq!(r.status, 201, "{}", r.body);
}

both_dbs!(class_tournament_refusals, refusals_run);

async fn join_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 4).await;
    let mut other = class_with_pupils(&s, 1).await;
    let (mut outsider, _) = account(s.addr, "Fuera").await;
    let mut guest = Browser::new(s.addr);
    // Three of the four: the fourth comes late.
    let names: Vec<String> = c.pupils[..3].iter().map(|p| p.name.clone()).collect();
    let r = c
        .teacher
        .post(
            &format!("/api/classes/{}/tournaments", c.id),
            json!({"system": "swiss", "rounds": 2, "pupils": names}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let join = format!("/api/tournaments/{id}/join");
    for (who, web, code) in [
        ("guest", &mut guest, "class_only"),
        ("outsider", &mut outsider, "class_only"),
        ("other class's teacher", &mut other.teacher, "class_only"),
        ("other class's pupil", &mut other.pupils[0].web, "kid_mode"),
    ] {
        let r = web.post(&join, json!({"name": "Colado"})).await;
        assert_eq!(r.status, 403, "{who}: {}", r.body);
        assert_eq!(r.json()["code"], code, "{who}");
    }
    // Only the class's: nobody got in.
    let l = tournament::load(&s.hub, &id).await.unwrap();
    assert_eq!(l.t.players.len(), 3);
    // The late pupil of the class joins (a half-point bye for round 1).
    let r = c.pupils[3].web.post(&join, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["number"], 4);
    let l = tournament::load(&s.hub, &id).await.unwrap();
    assert_eq!(l.t.players[3].name, c.pupils[3].name);
    assert_eq!(l.number_of(&c.pupils[3].key), Some(4));

    // A public online tournament: a pupil may not enter it (kid mode),
    // anybody else may.
    let (mut org, _) = account(s.addr, "Org").await;
    let r = org
        .post(
            "/api/tournaments",
            json!({"name": "Abierto", "system": "swiss", "rounds": 3, "mode": "online"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let open = r.json()["id"].as_str().unwrap().to_string();
    // The public list shows the open tournament, not the class's.
    let listed = guest.req("GET", "/api/tournaments", None).await.json();
    let ids: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["id"].as_str())
        .collect();
    assert!(ids.contains(&open.as_str()), "{listed}");
    assert!(
        !ids.contains(&id.as_str()),
        "a class's tournament listed: {listed}"
    );
    let join = format!("/api/tournaments/{open}/join");
    let r = c.pupils[0].web.post(&join, json!({})).await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.json()["code"], "kid_mode");
    let r = outsider.post(&join, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = c.teacher.post(&join, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

both_dbs!(only_the_class_joins_a_class_tournament, join_run);
