//! Online team play (issue 59) through the API and real sockets, on SQLite
//! and PostgreSQL: a team Swiss of four teams × four boards made online;
//! round 1 paired, each board a server game between the two boards'
//! accounts (White alternating down each match, as C.04.6 gives), each
//! player taken to theirs on the lobby's socket; eight games played to
//! mate, resignation, agreed draw, a no-show forfeit and a result the
//! arbiter sets while the game is played; every board's result, the match
//! points and the standings equal what was played. Refused: a reserve not
//! in the line-up taking a seat or asking for their board, a player taking
//! a seat of another match or opening it with their own secret, a
//! stranger making the tournament online, bad clocks, going online once
//! paired. The round's page marks the asker's board and draws each board
//! being played as it is now. Any body on the new route is answered, never
//! with a 5xx (proptest). (The SIGKILL test is escaque-cli's
//! equipos_online_kill.)

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::OnceLock;

use crate::common::*;
use crate::equipos::{get, ok};
use escaque_server::client::{GameSocket, HttpReply};
use proptest::prelude::*;
use serde_json::{json, Value};

const BASE: &str = "/api/equipos";

/// A refusal: its status and code, both texts present.
fn refused_reply(r: &HttpReply, what: &str, status: u16, code: &str) {
    assert_eq!(r.status, status, "{what}: {}", r.body);
    let v = r.json();
    assert_eq!(v["code"], code, "{what}: {v}");
    assert!(!v["es"].as_str().unwrap_or("").is_empty(), "{v}");
    assert!(!v["en"].as_str().unwrap_or("").is_empty(), "{v}");
}

/// A roster member: an account, logged in, with its lobby socket.
struct Member {
    web: Browser,
    name: String,
    lobby: GameSocket,
    backlog: Vec<Value>,
}

impl Member {
    async fn new(addr: SocketAddr, prefix: &str) -> Member {
        let (web, name) = account(addr, prefix).await;
        let lobby = lobby_socket(addr, &web.cookies.join("; ")).await;
        Member {
            web,
            name,
            lobby,
            backlog: Vec::new(),
        }
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
            .lobby
            .until(WAIT, |v| {
                let hit = v["t"] == "your_game" && v["round"] == round;
                if !hit && v["t"] == "your_game" {
                    seen.push(v.clone());
                }
                hit
            })
            .await
            .unwrap_or_else(|e| panic!("{}: no game in round {round}: {e:?}", self.name));
        self.backlog.extend(seen);
        v
    }
}

/// How a board's game goes.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Script {
    /// White never comes: Black wins by forfeit after `no_show_s`.
    WhiteNoShow,
    /// Black resigns after 1.e4.
    BlackResigns,
    /// A draw agreed after 1.e4 e5.
    Draw,
    /// Fool's mate: Black wins.
    FoolsMate,
    /// 1.e4 e5, then the arbiter enters 1-0 on the board.
    Arbiter,
}

impl Script {
    /// The board's result White–Black as the view writes it.
    fn result(self) -> &'static str {
        match self {
            Script::WhiteNoShow => "-/+",
            Script::BlackResigns | Script::Arbiter => "1-0",
            Script::Draw => "½-½",
            Script::FoolsMate => "0-1",
        }
    }
}

fn seat(v: &Value) -> Value {
    json!({"game": v["game"], "secret": v["secret"], "seat": v["color"]})
}

/// Plays one board's game to its end by `script` (not `Arbiter`).
async fn play(addr: SocketAddr, white: Value, black: Value, script: Script) {
    let mut b = Player::connect(addr, &seat(&black)).await;
    if script == Script::WhiteNoShow {
        let end = b.event("end").await;
        assert_eq!(end["result"], "0-1", "{end}");
        assert_eq!(end["termination"], "abandoned", "{end}");
        return;
    }
    let mut w = Player::connect(addr, &seat(&white)).await;
    match script {
        Script::BlackResigns => {
            play_line(&mut w, &mut b, &["e2e4"]).await;
            let a = b.act(json!({"t": "resign", "id": 7})).await;
            assert_eq!(a["t"], "ack", "{a}");
        }
        Script::Draw => {
            play_line(&mut w, &mut b, &["e2e4", "e7e5"]).await;
            let a = w.act(json!({"t": "offer_draw", "id": 7})).await;
            assert_eq!(a["t"], "ack", "{a}");
            let a = b.act(json!({"t": "accept_draw", "id": 8})).await;
            assert_eq!(a["t"], "ack", "{a}");
        }
        Script::FoolsMate => {
            play_line(&mut w, &mut b, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
        }
        Script::WhiteNoShow | Script::Arbiter => unreachable!(),
    }
    let end = w.event("end").await;
    let want = match script.result() {
        "½-½" => "1/2-1/2",
        r => r,
    };
    assert_eq!(end["result"], want, "{script:?}: {end}");
}

/// Halves of a White–Black result: (White, Black).
fn halves(r: &str) -> (u32, u32) {
    match r {
        "1-0" | "+/-" => (2, 0),
        "0-1" | "-/+" => (0, 2),
        "½-½" => (1, 1),
        _ => panic!("{r}"),
    }
}

fn points(h: u32) -> String {
    if h % 2 == 1 {
        format!("{},5", h / 2)
    } else {
        (h / 2).to_string()
    }
}

/// Waits until every board of `round` has a result; the view.
async fn round_complete(org: &mut Browser, id: &str, round: usize) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let v = get(org, &format!("{BASE}/{id}")).await;
        let done = v["rounds"][round - 1]["matches"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["complete"] == true);
        if done {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "round {round} never complete: {v}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// An online team Swiss of four teams × four boards (Alfa with a fifth
/// member, a reserve who is not lined up); its id, the organiser, the
/// members by name, the reserve's name.
async fn online_swiss(
    addr: SocketAddr,
    no_show_s: u32,
) -> (String, Browser, HashMap<String, Member>, String) {
    let (mut org, _) = account(addr, "Org").await;
    let v = ok(
        &mut org,
        BASE,
        json!({"name": "Liga en línea", "system": "suizo", "rounds": 2, "boards": 4}),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_string();
    let set = ok(
        &mut org,
        &format!("{BASE}/{id}/en-linea"),
        json!({"time_control": "5+0", "no_show_s": no_show_s}),
    )
    .await;
    assert_eq!(set["no_show_s"], no_show_s);
    let mut members = HashMap::new();
    let mut reserve = String::new();
    for (t, team) in ["Alfa", "Beta", "Gamma", "Delta"].iter().enumerate() {
        let n = if t == 0 { 5 } else { 4 };
        let mut roster = Vec::new();
        for j in 0..n {
            let m = Member::new(addr, &team[..3]).await;
            roster
                .push(json!({"account": m.name, "rating": 2000 - 100 * t as u16 - 10 * j as u16}));
            if t == 0 && j == 4 {
                reserve = m.name.clone();
            }
            members.insert(m.name.clone(), m);
        }
        ok(
            &mut org,
            &format!("{BASE}/{id}/equipos"),
            json!({"name": team, "members": roster, "fixed_order": true}),
        )
        .await;
    }
    (id, org, members, reserve)
}

/// One board of the view: (table, board, white name, black name).
fn boards_of(view: &Value, round: usize) -> Vec<(u64, u64, String, String)> {
    let mut out = Vec::new();
    for m in view["rounds"][round - 1]["matches"].as_array().unwrap() {
        for b in m["boards"].as_array().unwrap() {
            let (h, a) = (
                b["home_player"].as_str().unwrap().to_string(),
                b["away_player"].as_str().unwrap().to_string(),
            );
            let (w, bl) = if b["white"] == "home" { (h, a) } else { (a, h) };
            out.push((
                m["table"].as_u64().unwrap(),
                b["board"].as_u64().unwrap(),
                w,
                bl,
            ));
        }
    }
    out
}

async fn team_round_played_online_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let addr = s.addr;
    let (id, mut org, mut members, reserve) = online_swiss(addr, 8).await;

    // Refused before pairing: a stranger, bad clocks.
    let (mut stranger, _) = account(addr, "Extra").await;
    let path = format!("{BASE}/{id}/en-linea");
    let r = stranger.post(&path, json!({"time_control": "5+0"})).await;
    refused_reply(&r, "stranger", 403, "not_organiser");
    let r = org.post(&path, json!({"time_control": "rápido"})).await;
    refused_reply(&r, "bad clock", 400, "bad_time_control");
    let r = org
        .post(&path, json!({"time_control": "5+0", "no_show_s": 0}))
        .await;
    refused_reply(&r, "no-show 0", 400, "bad_no_show");
    let r = org
        .post(&path, json!({"time_control": "5+0", "speed": 1}))
        .await;
    refused_reply(&r, "unknown field", 400, "malformed");

    let paired = ok(&mut org, &format!("{BASE}/{id}/emparejar"), json!({})).await;
    assert_eq!(paired["round"], 1);
    let r = org.post(&path, json!({"time_control": "3+2"})).await;
    refused_reply(&r, "after pairing", 409, "started");

    let view = get(&mut org, &format!("{BASE}/{id}")).await;
    // C.04.6: White alternates down each match, the first-named team White
    // on board 1.
    for m in view["rounds"][0]["matches"].as_array().unwrap() {
        let whites: Vec<&str> = m["boards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["white"].as_str().unwrap())
            .collect();
        assert_eq!(whites, ["home", "away", "home", "away"], "{m}");
    }
    let boards = boards_of(&view, 1);
    assert_eq!(boards.len(), 8);
    let games = get(&mut org, &format!("{BASE}/{id}/partidas")).await;
    assert_eq!(games["time_control"], "5+0");
    let list = games["games"].as_array().unwrap().clone();
    assert_eq!(list.len(), 8, "{games}");
    // Every board's game between that board's two accounts, each told its
    // seat on the lobby's socket.
    let mut seats: HashMap<(u64, u64), (Value, Value)> = HashMap::new();
    for (table, board, w, b) in &boards {
        let g = list
            .iter()
            .find(|g| g["table"] == *table && g["board"] == *board)
            .unwrap_or_else(|| panic!("no game on {table}.{board}: {games}"));
        assert_eq!(g["white"], w.as_str(), "{g}");
        assert_eq!(g["black"], b.as_str(), "{g}");
        assert_eq!(g["playing"], true, "{g}");
        assert_eq!(g["result"], Value::Null, "{g}");
        let yw = members.get_mut(w).unwrap().your_game(1).await;
        let yb = members.get_mut(b).unwrap().your_game(1).await;
        for (y, color) in [(&yw, "white"), (&yb, "black")] {
            assert_eq!(y["game"], g["game"], "{y}");
            assert_eq!(y["color"], color, "{y}");
            assert_eq!(y["tournament"], id.as_str(), "{y}");
            assert_eq!(y["board"], *board, "{y}");
        }
        seats.insert((*table, *board), (yw, yb));
    }
    let game_ids: HashMap<(u64, u64), String> = seats
        .iter()
        .map(|(k, v)| (*k, v.0["game"].as_str().unwrap().to_string()))
        .collect();
    let game_of = |t: u64, b: u64| game_ids[&(t, b)].clone();

    // A player who lost the secret finds the board and takes the seat again.
    let (_, _, _, b12) = boards
        .iter()
        .find(|x| x.0 == 1 && x.1 == 2)
        .unwrap()
        .clone();
    let me = members.get_mut(&b12).unwrap();
    let mine = get(&mut me.web, &format!("{BASE}/{id}/mi-tablero")).await;
    assert_eq!(mine["color"], "black", "{mine}");
    assert_eq!(mine["my_game"]["game"], game_of(1, 2).as_str(), "{mine}");
    let again = ok(
        &mut me.web,
        &format!("/api/games/{}/seat", game_of(1, 2)),
        json!({}),
    )
    .await;
    let e = seats.get_mut(&(1, 2)).unwrap();
    e.1["secret"] = again["secret"].clone();
    // The games, played at once (White must move within `no_show_s`
    // of the pairing: the refusals come while they are played).
    let scripts = [
        [
            Script::FoolsMate,
            Script::BlackResigns,
            Script::Draw,
            Script::WhiteNoShow,
        ],
        [
            Script::Draw,
            Script::Arbiter,
            Script::BlackResigns,
            Script::FoolsMate,
        ],
    ];
    let mut tasks = Vec::new();
    for t in 1..=2u64 {
        for b in 1..=4u64 {
            let s = scripts[t as usize - 1][b as usize - 1];
            if s == Script::Arbiter {
                continue;
            }
            let (w, bl) = seats[&(t, b)].clone();
            tasks.push(tokio::spawn(async move { play(addr, w, bl, s).await }));
        }
    }
    // The arbiter's board: 1.e4 e5, then 1-0 entered at the desk ends it.
    let (w, bl) = seats[&(2, 2)].clone();
    let mut pw = Player::connect(addr, &seat(&w)).await;
    let mut pb = Player::connect(addr, &seat(&bl)).await;
    play_line(&mut pw, &mut pb, &["e2e4", "e7e5"]).await;

    // Refused: the reserve (not lined up) and a player of another match.
    let res = members.get_mut(&reserve).unwrap();
    let r = res
        .web
        .req("GET", &format!("{BASE}/{id}/mi-tablero"), None)
        .await;
    refused_reply(&r, "reserve's board", 404, "no_board");
    for (t, b) in [(1, 1), (2, 3)] {
        let r = res
            .web
            .post(&format!("/api/games/{}/seat", game_of(t, b)), json!({}))
            .await;
        refused_reply(&r, "reserve takes a seat", 403, "not_a_player");
    }
    let (_, _, w11, _) = boards
        .iter()
        .find(|x| x.0 == 1 && x.1 == 1)
        .unwrap()
        .clone();
    let r = members
        .get_mut(&w11)
        .unwrap()
        .web
        .post(&format!("/api/games/{}/seat", game_of(2, 1)), json!({}))
        .await;
    refused_reply(&r, "a seat of another match", 403, "not_a_player");
    let own_secret = seats[&(1, 1)].0["secret"].as_str().unwrap().to_string();
    let other = GameSocket::connect(
        addr,
        &format!("/ws/games/{}?seat={own_secret}", game_of(2, 1)),
    )
    .await;
    assert!(other.is_err(), "another match's game opened with my secret");

    // The round's page marks the asker's board and links every game.
    let page = members
        .get_mut(&b12)
        .unwrap()
        .web
        .req("GET", &format!("/equipos/{id}/partidas"), None)
        .await;
    assert_eq!(page.status, 200);
    assert_eq!(
        page.body.matches("<tr data-table").count(),
        8,
        "{}",
        page.body
    );
    assert_eq!(page.body.matches("class=\"mine\"").count(), 1);
    // The boards being played are drawn as they are now: the arbiter's
    // board after 1.e4 e5.
    let row = page
        .body
        .split("<tr data-table")
        .find(|r| r.contains(&format!("data-game=\"{}\"", game_of(2, 2))))
        .expect("the arbiter's board's row");
    assert!(
        row.contains("data-fen=\"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"),
        "{row}"
    );
    assert!(row.contains("2 jugadas"), "{row}");
    assert!(page
        .body
        .contains(&format!("data-game=\"{}\" class=\"mine\"", game_of(1, 2))));

    ok(
        &mut org,
        &format!("{BASE}/{id}/resultado"),
        json!({"round": 1, "table": 2, "board": 2, "result": "1-0"}),
    )
    .await;
    let end = pb.event("end").await;
    assert_eq!(end["result"], "1-0", "{end}");
    for t in tasks {
        t.await.expect("a board's game");
    }

    // Every board's result is what was played; the matches and the
    // standings follow.
    let view = round_complete(&mut org, &id, 1).await;
    let mut totals: HashMap<u64, (u64, u32)> = HashMap::new();
    for m in view["rounds"][0]["matches"].as_array().unwrap() {
        let t = m["table"].as_u64().unwrap();
        let (mut h, mut a) = (0, 0);
        for b in m["boards"].as_array().unwrap() {
            let n = b["board"].as_u64().unwrap();
            let s = scripts[t as usize - 1][n as usize - 1];
            assert_eq!(b["result"], s.result(), "{t}.{n} {s:?}: {b}");
            let want = if s == Script::Arbiter {
                "arbiter"
            } else {
                "played"
            };
            assert_eq!(b["state"], want, "{b}");
            let (wp, bp) = halves(s.result());
            if b["white"] == "home" {
                (h, a) = (h + wp, a + bp);
            } else {
                (h, a) = (h + bp, a + wp);
            }
        }
        assert_eq!(m["home_points"], points(h), "{m}");
        assert_eq!(m["away_points"], points(a), "{m}");
        let (mh, ma) = match h.cmp(&a) {
            std::cmp::Ordering::Greater => (2, 0),
            std::cmp::Ordering::Less => (0, 2),
            std::cmp::Ordering::Equal => (1, 1),
        };
        assert_eq!(m["home_match_points"], mh, "{m}");
        assert_eq!(m["away_match_points"], ma, "{m}");
        totals.insert(m["home"].as_u64().unwrap(), (mh, h));
        totals.insert(m["away"].as_u64().unwrap(), (ma, a));
    }
    for row in view["standings"].as_array().unwrap() {
        let (mp, gp) = totals[&row["team"].as_u64().unwrap()];
        assert_eq!(row["match_points"], mp, "{row}");
        assert_eq!(row["game_points"], points(gp), "{row}");
    }
    // The log: seven games' results written by the server, the arbiter's.
    let log = get(&mut org, &format!("{BASE}/{id}/registro")).await;
    let entries = log["entries"].as_array().unwrap();
    assert_eq!(
        entries
            .iter()
            .filter(|e| e["who"] == "server" && e["action"] == "game")
            .count(),
        7,
        "{log}"
    );
    assert!(entries
        .iter()
        .any(|e| e["who"] == "arbiter" && e["table"] == 2 && e["board"] == 2));
    let games = get(&mut org, &format!("{BASE}/{id}/partidas")).await;
    for g in games["games"].as_array().unwrap() {
        assert_eq!(g["playing"], false, "{g}");
        assert!(g["result"].is_string(), "{g}");
    }

    // Round 2: new games, each player told again.
    ok(&mut org, &format!("{BASE}/{id}/emparejar"), json!({})).await;
    let view = get(&mut org, &format!("{BASE}/{id}")).await;
    for (_, board, w, _) in boards_of(&view, 2) {
        let y = members.get_mut(&w).unwrap().your_game(2).await;
        assert_eq!(y["color"], "white", "{y}");
        assert_eq!(y["board"], board, "{y}");
    }
    let games = get(&mut org, &format!("{BASE}/{id}/partidas")).await;
    assert_eq!(games["games"].as_array().unwrap().len(), 16);

    // Over the board: no games to list.
    let v = ok(
        &mut org,
        BASE,
        json!({"name": "Liga de club", "system": "suizo", "rounds": 3, "boards": 2}),
    )
    .await;
    let r = org
        .req(
            "GET",
            &format!("{BASE}/{}/partidas", v["id"].as_str().unwrap()),
            None,
        )
        .await;
    refused_reply(&r, "over the board", 409, "not_online");
}

both_dbs!(team_round_played_online, team_round_played_online_run);

// ---------------------------------------------------------------- proptest

struct Fixture {
    rt: tokio::runtime::Runtime,
    org: Browser,
    id: String,
}

fn fixture() -> &'static std::sync::Mutex<Fixture> {
    static F: OnceLock<std::sync::Mutex<Fixture>> = OnceLock::new();
    F.get_or_init(|| {
        let rt = runtime();
        let (org, id) = rt.block_on(async {
            let s = start(Db::Sqlite).await.unwrap();
            let addr = s.addr;
            Box::leak(Box::new(s));
            let mut org = Browser::new(addr);
            let v = ok(
                &mut org,
                BASE,
                json!({"name": "Prueba", "system": "suizo", "rounds": 2, "boards": 2}),
            )
            .await;
            (org, v["id"].as_str().unwrap().to_string())
        });
        std::sync::Mutex::new(Fixture { rt, org, id })
    })
}

fn field() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..5000).prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        prop::sample::select(vec!["5+0", "90+30", "40/5400+30:1800+30", "0+0", "5+", ""])
            .prop_map(Value::from),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any body to `en-linea`: an answer (the settings, or a refusal with
    /// its code and both texts), never a server error; the games' list
    /// always reads.
    #[test]
    fn any_online_body_is_answered(
        keys in prop::collection::vec(prop::sample::select(vec![
            "time_control", "no_show_s", "extra",
        ]), 0..4),
        values in prop::collection::vec(field(), 4),
    ) {
        let f = fixture();
        let mut f = f.lock().unwrap();
        let id = f.id.clone();
        let Fixture { rt, org, .. } = &mut *f;
        rt.block_on(async {
            let mut body = json!({});
            for (k, v) in keys.iter().zip(values) {
                body[*k] = v;
            }
            let path = format!("{BASE}/{id}/en-linea");
            let r = org.post(&path, body.clone()).await;
            assert!(r.status < 500, "{body}: {} {}", r.status, r.body);
            let v: Value = serde_json::from_str(&r.body).unwrap();
            if r.status >= 400 {
                assert_eq!(v["t"], "error", "{v}");
                assert!(!v["es"].as_str().unwrap().is_empty());
            } else {
                assert!(v["time_control"].is_string(), "{v}");
                let n = v["no_show_s"].as_u64().unwrap();
                assert!((1..=3600).contains(&n), "{v}");
            }
            let r = org.req("GET", &format!("{BASE}/{id}/partidas"), None).await;
            assert!(r.status == 200 || r.status == 409, "{} {}", r.status, r.body);
        });
    }
}
