//! Kid mode (issue 26, docs/protocol.md "Kid mode"): a pupil plays, sees
//! and is seen by its class only. Each rule from both sides: the pupil
//! reaching out, and the outside reaching the pupil.

use crate::common::*;
use escaque_server::client::GameSocket;
use serde_json::{json, Value};

/// The ids of the seeks `b` is shown by `GET /api/seeks`.
async fn seeks_seen(b: &mut Browser) -> Vec<String> {
    let r = b.req("GET", "/api/seeks", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["seeks"]
        .as_array()
        .expect("seeks")
        .iter()
        .map(|s| s["id"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Posts a seek: its id.
async fn post_seek(b: &mut Browser, body: Value) -> String {
    let r = b.post("/api/seeks", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["seek"].as_str().expect("seek id").to_string()
}

/// A refusal's status and code.
fn refusal(r: &escaque_server::client::HttpReply) -> (u16, String) {
    let v = r.json();
    assert!(
        v["es"].as_str().is_some_and(|t| !t.is_empty())
            && v["en"].as_str().is_some_and(|t| !t.is_empty()),
        "Spanish and English text: {v}"
    );
    (r.status, v["code"].as_str().unwrap_or("").to_string())
}

/// The refusal of kid mode.
const KID: (u16, &str) = (403, "kid_mode");

/// Asserts `r` is the refusal `want` (status and code, with Spanish and
/// English text).
fn refused(r: &escaque_server::client::HttpReply, want: (u16, &str)) {
    assert_eq!(refusal(r), (want.0, want.1.into()), "{}", r.body);
}

/// `b` offers a game to a friend (anybody may take the other seat): its id.
async fn challenge(b: &mut Browser) -> String {
    let r = b.post("/api/games", json!({"opponent": "friend"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["game"].as_str().expect("game").to_string()
}

/// `b` accepts the seek `seek`.
async fn accept(b: &mut Browser, seek: &str) -> escaque_server::client::HttpReply {
    b.post(&format!("/api/seeks/{seek}/accept"), json!({}))
        .await
}

/// `b` takes the free seat of the game `game`.
async fn join(b: &mut Browser, game: &str) -> escaque_server::client::HttpReply {
    b.post(&format!("/api/games/{game}/join"), json!({})).await
}

/// The lobby socket of `b`: the ids of the first list of seeks it is told.
async fn lobby_seeks(addr: std::net::SocketAddr, b: &Browser) -> (GameSocket, Vec<String>) {
    let cookie = b.cookies.join("; ");
    let mut ws = GameSocket::connect_with_cookie(addr, "/ws/lobby", &cookie)
        .await
        .expect("lobby socket");
    let m = ws.until(WAIT, |v| v["t"] == "seeks").await.expect("seeks");
    (ws, ids(&m))
}

fn ids(m: &Value) -> Vec<String> {
    m["seeks"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| s["id"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

async fn class_of_game(s: &escaque_server::Running, game: &str) -> Option<String> {
    s.hub
        .store
        .game(game)
        .await
        .expect("store")
        .expect("game")
        .class_id
}

// ------------------------------------------------------------------ seeks

async fn seeks_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 3).await;
    let mut other = class_with_pupils(&s, 1).await;
    let (mut outsider, _) = account(s.addr, "Fuera").await;
    let mut guest = Browser::new(s.addr);

    // A pupil's seek (rated: allowed within the class) is shown to its
    // class only.
    let mine = post_seek(
        &mut c.pupils[0].web,
        json!({"time_control": "5+3", "rated": true}),
    )
    .await;
    assert!(seeks_seen(&mut c.pupils[0].web).await.contains(&mine));
    assert!(seeks_seen(&mut c.pupils[1].web).await.contains(&mine));
    assert!(seeks_seen(&mut c.teacher).await.contains(&mine));
    for b in [
        &mut outsider,
        &mut guest,
        &mut other.teacher,
        &mut other.pupils[0].web,
    ] {
        assert!(!seeks_seen(b).await.contains(&mine), "shown outside");
    }
    // The lobby socket says the same, per watcher, on connect and after a
    // change.
    let (mut classmate_ws, seen) = lobby_seeks(s.addr, &c.pupils[1].web).await;
    assert!(seen.contains(&mine));
    let (mut outsider_ws, seen) = lobby_seeks(s.addr, &outsider).await;
    assert!(!seen.contains(&mine));

    // An outsider's seek: shown to everybody but pupils; the class's
    // teacher's seek: shown to its pupils too.
    let theirs = post_seek(&mut outsider, json!({})).await;
    let m = classmate_ws
        .until(WAIT, |v| v["t"] == "seeks")
        .await
        .expect("seeks after a change");
    assert!(
        !ids(&m).contains(&theirs),
        "a pupil is shown an outsider's seek"
    );
    assert!(ids(&m).contains(&mine));
    let m = outsider_ws
        .until(WAIT, |v| v["t"] == "seeks")
        .await
        .expect("seeks after a change");
    assert!(ids(&m).contains(&theirs));
    assert!(!ids(&m).contains(&mine));
    assert!(!seeks_seen(&mut c.pupils[1].web).await.contains(&theirs));
    assert!(seeks_seen(&mut other.teacher).await.contains(&theirs));
    let teachers = post_seek(&mut c.teacher, json!({})).await;
    assert!(seeks_seen(&mut c.pupils[2].web).await.contains(&teachers));
    assert!(!seeks_seen(&mut other.pupils[0].web)
        .await
        .contains(&teachers));

    // The outside cannot accept the pupil's seek: nobody there knows it
    // (404), and a pupil of another class is told why (403).
    for b in [&mut outsider, &mut guest, &mut other.teacher] {
        refused(&accept(b, &mine).await, (404, "no_such_seek"));
    }
    refused(&accept(&mut other.pupils[0].web, &mine).await, KID);
    // The pupil cannot accept the outsider's seek, nor the other class's
    // teacher's.
    refused(&accept(&mut c.pupils[0].web, &theirs).await, KID);
    let others = post_seek(&mut other.teacher, json!({})).await;
    refused(&accept(&mut c.pupils[0].web, &others).await, KID);
    // Nothing was taken.
    let left = seeks_seen(&mut c.teacher).await;
    assert!(left.contains(&mine) && left.contains(&theirs) && left.contains(&others));

    // A classmate accepts: a rated game of the class.
    let r = accept(&mut c.pupils[1].web, &mine).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let game = r.json()["game"].as_str().expect("game").to_string();
    assert_eq!(
        class_of_game(&s, &game).await.as_deref(),
        Some(c.id.as_str())
    );
    let row = s.hub.store.game(&game).await.expect("store").expect("row");
    assert!(row.rated);
    // A pupil accepts its teacher's seek: the class's game too.
    let r = accept(&mut c.pupils[2].web, &teachers).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let game = r.json()["game"].as_str().expect("game").to_string();
    assert_eq!(
        class_of_game(&s, &game).await.as_deref(),
        Some(c.id.as_str())
    );
    // Between two outsiders nothing changes.
    let r = accept(&mut other.teacher, &theirs).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let game = r.json()["game"].as_str().expect("game").to_string();
    assert_eq!(class_of_game(&s, &game).await, None);
}

both_dbs!(a_pupils_seeks_stay_in_its_class, seeks_run);

// ------------------------------------------------------------- challenges

async fn challenges_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 2).await;
    let mut other = class_with_pupils(&s, 1).await;
    let (mut outsider, _) = account(s.addr, "Fuera").await;
    let mut guest = Browser::new(s.addr);

    // A pupil's challenge: the outside may not take its seat.
    let game = challenge(&mut c.pupils[0].web).await;
    assert_eq!(
        class_of_game(&s, &game).await.as_deref(),
        Some(c.id.as_str())
    );
    for b in [
        &mut outsider,
        &mut guest,
        &mut other.teacher,
        &mut other.pupils[0].web,
    ] {
        refused(&join(b, &game).await, KID);
    }
    // A classmate may.
    let r = join(&mut c.pupils[1].web, &game).await;
    assert_eq!(r.status, 200, "{}", r.body);

    // The outside's challenge: the pupil may not take its seat.
    for creator in [&mut outsider, &mut guest, &mut other.teacher] {
        let game = challenge(creator).await;
        refused(&join(&mut c.pupils[0].web, &game).await, KID);
        // The seat is still free for anybody else.
        let (mut someone, _) = account(s.addr, "Otro").await;
        let r = join(&mut someone, &game).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(class_of_game(&s, &game).await, None);
    }

    // The teacher's challenge: the pupil takes it, and the game becomes
    // the class's.
    let game = challenge(&mut c.teacher).await;
    assert_eq!(class_of_game(&s, &game).await, None);
    let r = join(&mut c.pupils[0].web, &game).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        class_of_game(&s, &game).await.as_deref(),
        Some(c.id.as_str())
    );

    // The engine is always there.
    let r = c.pupils[0]
        .web
        .post("/api/games", json!({"opponent": "engine", "level": 1}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
}

both_dbs!(a_pupils_challenges_stay_in_its_class, challenges_run);

// ------------------------------------------------------------ tournaments

async fn tournaments_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 1).await;
    let (mut outsider, _) = account(s.addr, "Fuera").await;
    let pupil = c.pupils[0].name.clone();

    // A pupil makes no tournament, by form or by TRF.
    let r = c.pupils[0]
        .web
        .post(
            "/api/tournaments",
            json!({"name": "Mi torneo", "system": "dutch", "rounds": 3}),
        )
        .await;
    refused(&r, KID);
    let r = c.pupils[0]
        .web
        .post("/api/tournaments/import", json!({"trf": "012 Torneo\n"}))
        .await;
    refused(&r, KID);

    // Nobody makes a pupil an organiser: outside its class the pupil is
    // not even known, inside it is told why.
    for (b, want) in [
        (&mut outsider, (404, "no_such_account")),
        (&mut c.teacher, (403, "kid_mode")),
    ] {
        let r = b
            .post(
                "/api/tournaments",
                json!({"name": "Abierto", "system": "dutch", "rounds": 3}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        let id = r.json()["id"].as_str().expect("id").to_string();
        let r = b
            .post(
                &format!("/api/tournaments/{id}/organisers"),
                json!({"account": pupil}),
            )
            .await;
        refused(&r, want);
    }
}

both_dbs!(a_pupil_makes_no_tournament, tournaments_run);

// ---------------------------------------------------------- player pages

/// `black_key`'s side resigns a game: both seated, one move, resign.
async fn play_and_resign(s: &escaque_server::Running, created: &Value, joined: &Value) {
    let (mut w, mut b) = seated(s.addr, created, joined).await;
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    let a = b.act(json!({"t": "resign", "id": 3})).await;
    assert_eq!(a["t"], "ack", "{a}");
    w.event("end").await;
}

async fn pages_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 2).await;
    let mut other = class_with_pupils(&s, 1).await;
    let (mut outsider, outsider_name) = account(s.addr, "Fuera").await;
    let mut guest = Browser::new(s.addr);
    let pupil = c.pupils[0].name.clone();
    let classmate = c.pupils[1].name.clone();

    // The teacher plays the pupil and wins.
    let (game, created, joined) = accepted(
        &mut c.teacher,
        &mut c.pupils[0].web,
        json!({"color": "white"}),
    )
    .await;
    play_and_resign(&s, &created, &joined).await;

    let page = format!("/api/players/{pupil}");
    // Seen by itself, its teacher and its classmates…
    let (first, rest) = c.pupils.split_at_mut(1);
    for b in [&mut first[0].web, &mut rest[0].web, &mut c.teacher] {
        let r = b.req("GET", &page, None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["managed"], true);
        assert_eq!(r.json()["score"]["losses"], 1);
    }
    // …and by nobody else: the answer of a name that does not exist.
    for b in [
        &mut outsider,
        &mut guest,
        &mut other.teacher,
        &mut other.pupils[0].web,
    ] {
        let r = b.req("GET", &page, None).await;
        refused(&r, (404, "no_such_player"));
        let r = b
            .req("GET", &format!("/api/players/{pupil}/vs/{classmate}"), None)
            .await;
        refused(&r, (404, "no_such_player"));
        let r = b
            .req(
                "GET",
                &format!("/api/players/{}/vs/{pupil}", c.teacher_name),
                None,
            )
            .await;
        refused(&r, (404, "no_such_player"));
    }
    // Nor may anybody outside learn that the pupil's name is an account by
    // asking for its own head-to-head with it.
    let other_teacher = other.teacher_name.clone();
    for (b, me) in [
        (&mut outsider, outsider_name.as_str()),
        (&mut other.teacher, other_teacher.as_str()),
    ] {
        for path in [
            format!("/api/players/{me}/vs/{pupil}"),
            format!("/api/players/{pupil}/vs/{me}"),
        ] {
            let r = b.req("GET", &path, None).await;
            assert_eq!(
                refusal(&r),
                (404, "no_such_player".into()),
                "{path}: {}",
                r.body
            );
        }
    }
    // The head-to-head of two classmates: for the class.
    for b in [&mut c.pupils[1].web, &mut c.teacher] {
        let r = b
            .req("GET", &format!("/api/players/{pupil}/vs/{classmate}"), None)
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = c.pupils[1]
        .web
        .req(
            "GET",
            &format!("/api/players/{}/vs/{pupil}", c.teacher_name),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["score"]["wins"], 1);

    // The teacher's page is public, but its game against the pupil is
    // listed only for those who may see the pupil (the score counts it).
    let teacher_page = format!("/api/players/{}", c.teacher_name);
    let listed = |v: &Value| {
        v["games"]
            .as_array()
            .expect("games")
            .iter()
            .any(|g| g["game"] == game.as_str())
    };
    for b in [&mut outsider, &mut guest, &mut other.pupils[0].web] {
        let r = b.req("GET", &teacher_page, None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        assert!(!listed(&v), "the pupil's game shown outside: {v}");
        assert!(!r.body.contains(&pupil), "the pupil's name shown outside");
        assert_eq!(v["score"]["wins"], 1);
    }
    for b in [&mut c.teacher, &mut c.pupils[1].web] {
        let r = b.req("GET", &teacher_page, None).await;
        assert!(listed(&r.json()), "{}", r.body);
    }
    // A pupil may read a public page (an outsider's): reading is not
    // meeting.
    let r = c.pupils[0]
        .web
        .req("GET", &format!("/api/players/{outsider_name}"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

both_dbs!(a_pupils_page_is_its_class_only, pages_run);

// -------------------------------------------------------- games in play

async fn live_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 2).await;
    let (mut a, _) = account(s.addr, "Ana").await;
    let (mut b, _) = account(s.addr, "Beto").await;

    // Two pupils (by seek), the teacher and a pupil (by challenge), a
    // pupil and the engine, two outsiders.
    let seek = post_seek(&mut c.pupils[0].web, json!({})).await;
    let r = accept(&mut c.pupils[1].web, &seek).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let kids = r.json()["game"].as_str().expect("game").to_string();
    let (with_teacher, _, _) = accepted(&mut c.teacher, &mut c.pupils[0].web, json!({})).await;
    let r = c.pupils[1]
        .web
        .post("/api/games", json!({"opponent": "engine", "level": 1}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let engine = r.json()["game"].as_str().expect("game").to_string();
    let (grown_ups, _, _) = accepted(&mut a, &mut b, json!({})).await;
    for g in [&kids, &with_teacher, &engine, &grown_ups] {
        // Each game's task is running (a game is listed once it plays).
        assert!(s.hub.game(g).await.is_some());
    }

    let mut guest = Browser::new(s.addr);
    let pupils: Vec<String> = c.pupils.iter().map(|p| p.name.clone()).collect();
    for viewer in [&mut guest, &mut c.teacher, &mut c.pupils[0].web] {
        let r = viewer.req("GET", "/api/games/live", None).await;
        let listed: Vec<String> = r.json()["games"]
            .as_array()
            .expect("games")
            .iter()
            .map(|g| g["game"].as_str().unwrap_or("").to_string())
            .collect();
        assert!(listed.contains(&grown_ups), "{}", r.body);
        for g in [&kids, &with_teacher, &engine] {
            assert!(!listed.contains(g), "a pupil's game listed: {}", r.body);
        }
        for p in &pupils {
            assert!(!r.body.contains(p.as_str()), "a pupil's name listed");
        }
    }
    // The lobby's push: the same list.
    let mut lobby = GameSocket::connect_with_cookie(s.addr, "/ws/lobby", &guest.cookies.join("; "))
        .await
        .expect("lobby");
    let m = lobby
        .until(WAIT, |v| {
            v["t"] == "live"
                && v["games"]
                    .as_array()
                    .is_some_and(|a| a.iter().any(|g| g["game"] == grown_ups.as_str()))
        })
        .await
        .expect("live push");
    for g in [&kids, &with_teacher, &engine] {
        assert!(
            !m["games"]
                .as_array()
                .expect("games")
                .iter()
                .any(|x| x["game"] == g.as_str()),
            "a pupil's game pushed: {m}"
        );
    }
}

both_dbs!(a_pupils_games_are_not_listed_publicly, live_run);

// -------------------------------------------------------------- messages

async fn messages_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 1).await;
    let (mut outsider, outsider_name) = account(s.addr, "Fuera").await;

    // The pupil plays the engine: its game socket takes moves and the
    // game's negotiations, no text for anybody.
    let r = c.pupils[0]
        .web
        .post(
            "/api/games",
            json!({"opponent": "engine", "level": 1, "color": "white"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let seat = r.json();
    let game = seat["game"].as_str().expect("game").to_string();
    let mut p = Player::connect(s.addr, &seat).await;
    for t in ["chat", "message", "say", "talk", "whisper"] {
        let a = p
            .act(json!({"t": t, "text": "hola", "to": outsider_name, "id": 5}))
            .await;
        assert_eq!(a["t"], "error", "{t}: {a}");
        assert_eq!(a["code"], "unknown_type", "{t}: {a}");
    }
    // No HTTP route carries a message, for a pupil or to one.
    let routes = [
        "/api/messages".to_string(),
        "/api/chat".to_string(),
        format!("/api/games/{game}/chat"),
        format!("/api/players/{outsider_name}/message"),
        format!("/api/players/{}/message", c.pupils[0].name),
        format!("/api/classes/{}/messages", c.id),
    ];
    for path in &routes {
        for b in [&mut c.pupils[0].web, &mut outsider] {
            let r = b.post(path, json!({"text": "hola"})).await;
            assert_eq!(refusal(&r), (404, "not_found".into()), "{path}: {}", r.body);
        }
    }
}

both_dbs!(a_pupil_sends_and_receives_no_message, messages_run);

// ------------------------------------------------- a pupil in no class

async fn archived_run(db: Db) {
    use escaque_server::{Config, Database};
    let Some(url) = own_database_url(db, "kid_archived").await else {
        return;
    };
    let Some(s) = start_with(db, |c: &mut Config| c.database = Database::Url(url.clone())).await
    else {
        return;
    };
    let pool = sqlx::AnyPool::connect(&url)
        .await
        .expect("second connection");
    let mut c = class_with_pupils(&s, 3).await;
    let archive = |key: &str| {
        let uid = key.trim_start_matches("u:").to_string();
        let pool = pool.clone();
        async move {
            sqlx::query("UPDATE class_pupils SET archived = 1 WHERE user_id = $1")
                .bind(uid)
                .execute(&pool)
                .await
                .expect("archive");
        }
    };

    // A classmate's seek, posted while pupil 2 was in the class; then
    // pupil 2 is archived: the seek it was shown is refused to it, checked
    // against the classes as they are now.
    let seek = post_seek(&mut c.pupils[1].web, json!({})).await;
    assert!(seeks_seen(&mut c.pupils[2].web).await.contains(&seek));
    // Pupil 0 posts too, then is archived: its seek (shown to the class
    // when posted) is refused to the classmate who is still there.
    let gone = post_seek(&mut c.pupils[0].web, json!({})).await;
    archive(&c.pupils[0].key).await;
    archive(&c.pupils[2].key).await;
    refused(&accept(&mut c.pupils[2].web, &seek).await, KID);
    refused(&accept(&mut c.pupils[1].web, &gone).await, KID);

    // A pupil in no class plays the engine only: no seek, no challenge,
    // no seat of anybody's challenge, not even its old teacher's.
    let r = c.pupils[0].web.post("/api/seeks", json!({})).await;
    refused(&r, KID);
    let r = c.pupils[0]
        .web
        .post("/api/games", json!({"opponent": "friend"}))
        .await;
    refused(&r, KID);
    let game = challenge(&mut c.teacher).await;
    refused(&join(&mut c.pupils[0].web, &game).await, KID);
    let r = c.pupils[0]
        .web
        .post("/api/games", json!({"opponent": "engine", "level": 1}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    // Its page: its own only.
    let page = format!("/api/players/{}", c.pupils[0].name);
    let r = c.pupils[0].web.req("GET", &page, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    for b in [&mut c.teacher, &mut c.pupils[1].web] {
        let r = b.req("GET", &page, None).await;
        refused(&r, (404, "no_such_player"));
    }
    pool.close().await;
}

both_dbs!(a_pupil_in_no_class_plays_the_engine_only, archived_run);
