//! Online tournaments (issue 24) through the API and real sockets: a
//! three-round Swiss of six players played to the end — a no-show forfeit,
//! a late joiner, a withdrawal, automatic pairing after a countdown — whose
//! final standings equal the library's on the exported TRF; and the
//! organiser's added time and set result on a game being played.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use escaque_server::client::GameSocket;
use escaque_server::http::Identity;
use escaque_server::tournament::{self, view, Settings, Who};
use escaque_server::Hub;
use escaque_torneo::{Outcome, System, Tournament};
use serde_json::{json, Value};

use crate::common::{lobby_socket, Browser, Db, Player, WAIT};

/// One entrant: an identity (cookies) and its lobby socket, where the
/// server takes the player to each game (`your_game`).
struct Entrant {
    web: Browser,
    ws: GameSocket,
    number: u64,
    backlog: Vec<Value>,
}

/// The identity key of a browser's guest cookie.
fn key_of(web: &Browser) -> String {
    let c = web
        .cookies
        .iter()
        .find_map(|c| c.strip_prefix("escaque_invitado="))
        .expect("a guest cookie");
    // `ID.MAC`: the identity is the id.
    format!("g:{}", c.split('.').next().unwrap_or(c))
}

/// A browser with its guest identity.
async fn guest(addr: SocketAddr) -> Browser {
    let mut web = Browser::new(addr);
    let me = web.req("GET", "/api/me", None).await;
    assert_eq!(me.status, 200, "{}", me.body);
    web
}

impl Entrant {
    async fn new(addr: SocketAddr) -> Entrant {
        let web = guest(addr).await;
        let cookie = web.cookies.join("; ");
        let ws = lobby_socket(addr, &cookie).await;
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

/// An online Swiss of three rounds organised by `org`'s identity.
async fn create(hub: &Arc<Hub>, org: &Browser, settings: Settings) -> (String, Identity) {
    let owner = Identity {
        key: key_of(org),
        name: "Organizadora".into(),
        account: false,
        managed: false,
    };
    let t = Tournament::new("Torneo escolar <b>en línea</b>", System::Swiss, 3);
    let id = tournament::create(hub, &owner, "online", t, settings)
        .await
        .expect("created");
    (id, owner)
}

async fn view_of(hub: &Arc<Hub>, id: &str) -> Value {
    serde_json::to_value(view::view(&tournament::load(hub, id).await.expect("loads")))
        .expect("a view")
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

/// Plays every game of round `round` (once paired): the scripts in board
/// order.
async fn play_round(
    hub: &Arc<Hub>,
    id: &str,
    addr: SocketAddr,
    players: &mut [Entrant],
    round: u64,
    scripts: &[Script],
) {
    let deadline = tokio::time::Instant::now() + WAIT;
    let v = loop {
        let v = view_of(hub, id).await;
        if v["round"].as_u64() >= Some(round) {
            break v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "round {round} never paired: {v}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    let paired: Vec<u64> = v["rounds"][round as usize - 1]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| [b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap()])
        .collect();
    let in_round: Vec<usize> = (0..players.len())
        .filter(|&i| paired.contains(&players[i].number))
        .collect();
    assert_eq!(in_round.len(), paired.len(), "round {round}: {v}");
    // Each entrant paired this round is told its game.
    let mut games: HashMap<String, [Option<Value>; 2]> = HashMap::new();
    for i in in_round {
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
}

async fn wait_round_complete(hub: &Arc<Hub>, id: &str, round: u64) -> Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let v = view_of(hub, id).await;
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
    let hub = Arc::clone(&server.hub);
    let org = guest(addr).await;
    let (id, owner) = create(
        &hub,
        &org,
        Settings {
            time_control: Some("5+0".into()),
            auto_pair: true,
            pair_delay_s: 3,
            no_show_s: 3,
            registration_until: 2,
            late_bye: "half".into(),
            ..Settings::default()
        },
    )
    .await;
    // Six players join; four answer the roll call: the other two are not
    // paired in round 1.
    let mut players = Vec::new();
    for i in 0..6 {
        let mut e = Entrant::new(addr).await;
        e.join(&id, &format!("Jugador {}", i + 1)).await;
        players.push(e);
    }
    // Joining twice gives the same number.
    let again = players[0].join(&id, "Jugador 1").await;
    assert_eq!(again, 1);
    for e in players.iter_mut().take(4) {
        let r = e
            .web
            .post(&format!("/api/tournaments/{id}/present"), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // A player cannot pair; the organiser pairs round 1.
    let player = Identity {
        key: key_of(&players[0].web),
        name: "Jugador 1".into(),
        account: false,
        managed: false,
    };
    let refused = tournament::pair_next(&hub, &id, &Who::Organiser(player)).await;
    assert!(
        format!("{refused:?}").contains("not_organiser"),
        "{refused:?}"
    );
    let round = tournament::pair_next(&hub, &id, &Who::Organiser(owner.clone()))
        .await
        .expect("round 1 paired");
    assert_eq!(round, 1);
    // Too late for the roll call now.
    let r = players[5]
        .web
        .post(&format!("/api/tournaments/{id}/present"), json!({}))
        .await;
    assert_eq!(r.status, 409, "{}", r.body);
    // A late joiner, after round 1 is paired.
    let mut late = Entrant::new(addr).await;
    let late_number = late.join(&id, "Tardón").await;
    players.push(late);

    // Player 2 also watches the tournament's page (its socket).
    let cookie = players[1].web.cookies.join("; ");
    let mut page = GameSocket::connect_with_cookie(addr, &format!("/ws/tournaments/{id}"), &cookie)
        .await
        .expect("tournament socket");
    // Round 1: four present players, two boards; board 1's White never comes.
    play_round(
        &hub,
        &id,
        addr,
        &mut players,
        1,
        &[Script::WhiteNoShow, Script::BlackResigns],
    )
    .await;
    let v = wait_round_complete(&hub, &id, 1).await;
    let r1 = &v["rounds"][0];
    assert_eq!(r1["boards"][0]["result"], "-+", "{r1}");
    assert_eq!(r1["boards"][1]["result"], "1-0", "{r1}");
    // The roll call's absentees got no game and no point; the late joiner
    // the half point.
    let byes = r1["byes"].as_array().unwrap();
    let kind_of = |n: u64| {
        byes.iter()
            .find(|b| b["player"] == n)
            .map(|b| b["kind"].clone())
            .unwrap_or(Value::Null)
    };
    assert_eq!(kind_of(players[4].number), "zero", "{r1}");
    assert_eq!(kind_of(players[5].number), "zero", "{r1}");
    assert_eq!(kind_of(late_number), "half", "{r1}");
    // The page is told the countdown to round 2.
    let c = page
        .until(WAIT, |v| v["t"] == "countdown")
        .await
        .expect("countdown");
    assert_eq!(c["round"], 2, "{c}");
    assert_eq!(c["ms"], 3000, "{c}");
    page.close().await;

    // Round 2 is paired automatically after the countdown: seven players,
    // three boards and the pairing bye.
    play_round(
        &hub,
        &id,
        addr,
        &mut players,
        2,
        &[Script::Draw, Script::FoolsMate, Script::BlackResigns],
    )
    .await;
    // A player leaves while the countdown to round 3 runs: withdrawn, not
    // paired in round 3.
    wait_round_complete(&hub, &id, 2).await;
    let r = players[0]
        .web
        .post(&format!("/api/tournaments/{id}/leave"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    play_round(
        &hub,
        &id,
        addr,
        &mut players,
        3,
        &[Script::BlackResigns, Script::Draw, Script::FoolsMate],
    )
    .await;
    let v = wait_round_complete(&hub, &id, 3).await;
    assert_eq!(v["status"], "finished", "{v}");
    let leaver = players[0].number;
    for b in v["rounds"][2]["boards"].as_array().unwrap() {
        assert!(b["white"] != leaver && b["black"] != leaver, "{b}");
    }
    // Too late to join.
    let mut after = Entrant::new(addr).await;
    let r = after
        .web
        .post(
            &format!("/api/tournaments/{id}/join"),
            json!({"name": "Otra"}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.body);

    // The final standings are the library's on the exported TRF.
    let l = tournament::load(&hub, &id).await.expect("loads");
    let t = escaque_torneo::trf::parse(&l.row.trf).expect("the stored TRF reads");
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
    // The forfeit is a forfeit in the file, the late joiner's round 1 a
    // half-point bye, the leaver withdrawn from round 3.
    assert_eq!(t.rounds[0].games[0].outcome, Outcome::BlackForfeitWin);
    assert!(t.rounds[0]
        .byes
        .contains(&(late_number as u32, escaque_torneo::ByeKind::Half)));
    assert_eq!(t.players[leaver as usize - 1].withdrawn_from, Some(3));

    // Every game of the event as one PGN file: a game per board with a game,
    // Event the tournament's name, Round `round.board`, the board's result
    // (a no-show: the game's own ending, 1-0 / 0-1).
    let pgn = after
        .web
        .req("GET", &format!("/api/tournaments/{id}/pgn"), None)
        .await;
    assert_eq!(pgn.status, 200, "{}", pgn.body);
    let mut reader = escaque::pgn::PgnReader::new(pgn.body.as_bytes());
    let mut read = Vec::new();
    while let Some(g) = reader.next_game() {
        read.push(g.expect("the tournament's PGN reads"));
    }
    let mut boards = Vec::new();
    for (r, round) in v["rounds"].as_array().unwrap().iter().enumerate() {
        for b in round["boards"].as_array().unwrap() {
            if b["game"].is_string() {
                boards.push((r + 1, b["board"].as_u64().unwrap(), b["result"].clone()));
            }
        }
    }
    assert_eq!(read.len(), boards.len(), "{}", pgn.body);
    for (g, (round, board, result)) in read.iter().zip(&boards) {
        assert_eq!(g.tag("Event"), l.row.name.as_str().into(), "{}", pgn.body);
        assert_eq!(g.tag("Round"), Some(format!("{round}.{board}").as_str()));
        let want = match result.as_str().unwrap() {
            "+-" => "1-0",
            "-+" => "0-1",
            "½-½" => "1/2-1/2",
            other => other,
        };
        assert_eq!(g.result_tag_text(), want, "{}", pgn.body);
    }
}

both_dbs!(online_swiss_played_to_the_end, online_swiss_of_six);

/// The organiser adds time to a side and sets a forfeit on a game being
/// played: the game ends, the board says `+-`; a player can do neither.
async fn organiser_time_and_result(db: Db) {
    let Some(server) = crate::common::start(db).await else {
        return;
    };
    let addr = server.addr;
    let hub = Arc::clone(&server.hub);
    let mut org = guest(addr).await;
    let (id, owner) = create(
        &hub,
        &org,
        Settings {
            time_control: Some("5+0".into()),
            no_show_s: 600,
            ..Settings::default()
        },
    )
    .await;
    let mut players = Vec::new();
    for i in 0..2 {
        let mut e = Entrant::new(addr).await;
        e.join(&id, &format!("Jugadora {}", i + 1)).await;
        let r = e
            .web
            .post(&format!("/api/tournaments/{id}/present"), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        players.push(e);
    }
    // Player 2 watches the tournament's page: taken to the game from there too.
    let cookie = players[1].web.cookies.join("; ");
    let mut page = GameSocket::connect_with_cookie(addr, &format!("/ws/tournaments/{id}"), &cookie)
        .await
        .expect("tournament socket");
    tournament::pair_next(&hub, &id, &Who::Organiser(owner.clone()))
        .await
        .expect("paired");
    let on_page = page
        .until(WAIT, |v| v["t"] == "your_game")
        .await
        .expect("your_game on the tournament socket");
    let in_lobby = players[1].your_game(1).await;
    assert_eq!(on_page, in_lobby);
    let g = players[0].your_game(1).await;
    assert_eq!(g["game"], on_page["game"]);
    assert_ne!(g["color"], on_page["color"]);
    let seat = json!({"game": g["game"], "secret": g["secret"], "seat": g["color"]});
    let mut p = Player::connect(addr, &seat).await;
    let before = p.state().await;
    assert_eq!(
        before["tournament"],
        json!({"id": id, "round": 1, "board": 1}),
        "{before}"
    );
    let path = format!("/api/tournaments/{id}/rounds/1/boards/1/time");
    let r = players[0]
        .web
        .post(&path, json!({"seconds": 60, "color": "white"}))
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    // A player of the event sets no result (not even in their own game),
    // pairs no round and changes nothing of the tournament.
    for (path, body) in [
        (
            format!("/api/tournaments/{id}/rounds/1/boards/1/result"),
            json!({"result": "1-0"}),
        ),
        (
            format!("/api/tournaments/{id}/rounds/1/boards/1/result"),
            json!({"result": "+-"}),
        ),
        (format!("/api/tournaments/{id}/rounds"), json!({})),
        (
            format!("/api/tournaments/{id}/players"),
            json!({"name": "Colada"}),
        ),
        (
            format!("/api/tournaments/{id}/players/1/withdraw"),
            json!({}),
        ),
        (
            format!("/api/tournaments/{id}/organisers"),
            json!({"account": "alguien"}),
        ),
    ] {
        for e in &mut players {
            let r = e.web.post(&path, body.clone()).await;
            assert_eq!(r.status, 403, "{path} {body}: {}", r.body);
            assert_eq!(r.json()["code"], "not_organiser", "{path}: {}", r.body);
        }
    }
    let r = org
        .post(&path, json!({"seconds": 0, "color": "white"}))
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
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
    // Bad input is refused with a typed error, never a fault.
    for (path, body) in [
        (format!("/api/tournaments/{id}/join"), json!({"name": 5})),
        (
            format!("/api/tournaments/{id}/join"),
            json!({"nombre": "x"}),
        ),
        (
            format!("/api/tournaments/{id}/join"),
            json!({"name": "a\u{7}b"}),
        ),
        (
            format!("/api/tournaments/{id}/rounds/x/boards/1/time"),
            json!({"seconds": 5, "color": "white"}),
        ),
        (path.clone(), json!({"seconds": 5, "color": "green"})),
        (path.clone(), json!({"seconds": -5, "color": "white"})),
    ] {
        let r = org.post(&path, body.clone()).await;
        assert!(
            r.status == 400 || r.status == 422,
            "{path} {body}: {} {}",
            r.status,
            r.body
        );
        assert_eq!(r.json()["t"], "error", "{path} {body}: {}", r.body);
    }
    let r = org
        .post(&format!("/api/tournaments/{id}/leave"), json!({}))
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.json()["code"], "not_entered", "{}", r.body);
    let r = org
        .post("/api/tournaments/nonexistent/present", json!({}))
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    // A player cannot abort a tournament game.
    let a = p.act(json!({"t": "abort", "id": 3})).await;
    assert_eq!(a["code"], "tournament_game", "{a}");
    // Nor adjourn it (the round is played at one sitting).
    let a = p.act(json!({"t": "offer_adjourn", "id": 4})).await;
    assert_eq!(a["code"], "cannot_adjourn", "{a}");
    assert!(a["es"].as_str().unwrap().contains("torneo"), "{a}");
    // An unusual result does not end a game being played: refused, the
    // game goes on (issue 58).
    let r = org
        .post(
            &format!("/api/tournaments/{id}/rounds/1/boards/1/result"),
            json!({"result": "0-½"}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["code"], "game_in_progress", "{}", r.body);
    assert!(view_of(&hub, &id).await["rounds"][0]["boards"][0]["result"].is_null());
    // The organiser's forfeit ends the game; the board says so.
    let r = players[0]
        .web
        .post(
            &format!("/api/tournaments/{id}/rounds/1/boards/1/result"),
            json!({"result": "+-"}),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    let r = org
        .post(
            &format!("/api/tournaments/{id}/rounds/1/boards/1/result"),
            json!({"result": "+-"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let end = p.event("end").await;
    assert_eq!(end["result"], "1-0", "{end}");
    let v = view_of(&hub, &id).await;
    assert_eq!(v["rounds"][0]["boards"][0]["result"], "+-", "{v}");
    assert_eq!(v["rounds"][0]["boards"][0]["game"], g["game"], "{v}");
    // Over, the game's board takes an unusual result as a correction.
    let r = org
        .post(
            &format!("/api/tournaments/{id}/rounds/1/boards/1/result"),
            json!({"result": "0-½"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["previous"], "+-", "{}", r.body);
    let v = view_of(&hub, &id).await;
    assert_eq!(v["rounds"][0]["boards"][0]["result"], "0-½", "{v}");
}

both_dbs!(
    organiser_adds_time_and_sets_a_forfeit,
    organiser_time_and_result
);

/// A game that ended as the server went down, its result not yet on the
/// board (the ending is stored before the result): on the next start the
/// result is recorded, and the complete round's countdown runs again and
/// pairs the next round.
async fn results_and_countdowns_resume_on_start(db: Db) {
    let Some(url) = crate::common::own_database_url(db, "resume").await else {
        return;
    };
    let database = escaque_server::Database::Url(url);
    let same = database.clone();
    let Some(first) = crate::common::start_with(db, |c| c.database = same).await else {
        return;
    };
    let hub = Arc::clone(&first.hub);
    let org = guest(first.addr).await;
    let (id, owner) = create(
        &hub,
        &org,
        Settings {
            time_control: Some("5+0".into()),
            auto_pair: true,
            pair_delay_s: 1,
            no_show_s: 600,
            ..Settings::default()
        },
    )
    .await;
    for i in 0..2 {
        let mut e = Entrant::new(first.addr).await;
        e.join(&id, &format!("Jugador {}", i + 1)).await;
        let r = e
            .web
            .post(&format!("/api/tournaments/{id}/present"), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    tournament::pair_next(&hub, &id, &Who::Organiser(owner))
        .await
        .expect("paired");
    let l = tournament::load(&hub, &id).await.expect("loads");
    let game = l.games[0].game.clone();
    // The ending as the game's task stores it (White never came), the
    // server gone before the board was told.
    first.abort();
    hub.store
        .update_game(
            None,
            &game,
            None,
            Some(escaque_server::store::Ending {
                result: Some(escaque::GameResult::BlackWins),
                termination: escaque::Termination::Abandoned {
                    by: escaque::Color::White,
                },
            }),
        )
        .await
        .expect("stored");
    let l = tournament::load(&hub, &id).await.expect("loads");
    assert_eq!(l.t.rounds[0].games[0].outcome, Outcome::Pending);
    drop(hub);

    let second = crate::common::start_with(db, |c| c.database = database)
        .await
        .expect("second start");
    let deadline = tokio::time::Instant::now() + WAIT;
    let l = loop {
        let l = tournament::load(&second.hub, &id).await.expect("loads");
        if l.t.rounds.len() == 2 {
            break l;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "round 2 never paired: {:?}",
            l.t.rounds
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(l.t.rounds[0].games[0].outcome, Outcome::BlackForfeitWin);
}

both_dbs!(resumed_on_start, results_and_countdowns_resume_on_start);
