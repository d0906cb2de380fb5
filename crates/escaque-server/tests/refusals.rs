//! Everything the server must refuse, with a typed error, leaving the
//! connection, the game and the server unharmed.

use crate::common;

use std::time::Duration;

use common::*;
use escaque_server::client::{http, GameSocket};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

async fn game_refusals(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "5+0"})).await;
    // Wrong seat secret: refused before the upgrade.
    let bad = GameSocket::connect(
        s.addr,
        &format!("/ws/games/{}?seat=00000000000000000000000000000000", w.game),
    )
    .await;
    assert!(bad.is_err());
    let raw = http(
        s.addr,
        "GET",
        &format!("/ws/games/{}?seat=x", w.game),
        None,
        &[],
    )
    .await
    .unwrap();
    assert_eq!(raw.status, 403, "{}", raw.body);
    assert_eq!(raw.json()["code"], "bad_seat");
    // Unknown game.
    assert_eq!(
        http(s.addr, "GET", "/api/games/nope", None, &[])
            .await
            .unwrap()
            .status,
        404
    );
    // Out of turn.
    let e = b.play("e5").await;
    assert_eq!(e["code"], "not_your_turn");
    assert!(e["es"].as_str().unwrap().contains("turno"));
    assert!(e["en"].as_str().unwrap().contains("turn"));
    // Illegal move, with the library's reason.
    let e = w.play("e2e5").await;
    assert_eq!(e["code"], "bad_move");
    let e = w.play("Ke2").await;
    assert_eq!(e["code"], "bad_move");
    let e = w.play("zz").await;
    assert_eq!(e["code"], "bad_move");
    // Malformed, unknown type, missing fields, wrong types, binary.
    for (frame, code) in [
        ("not json", "malformed"),
        ("[1,2]", "malformed"),
        (r#"{"move":"e4"}"#, "malformed"),
        (r#"{"t":5}"#, "malformed"),
        (r#"{"t":"move"}"#, "malformed"),
        (r#"{"t":"move","move":7}"#, "malformed"),
        (r#"{"t":"move","move":"e4","extra":1}"#, "malformed"),
        (r#"{"t":"castle_queenside"}"#, "unknown_type"),
        (r#"{"t":"ping","n":1}"#, "unknown_type"),
    ] {
        w.ws.send_text(frame).await.unwrap();
        let e = w.wait_for(|v| v["t"] == "error").await;
        assert_eq!(e["code"], code, "{frame}: {e}");
    }
    w.ws.send_raw(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    assert_eq!(w.wait_for(|v| v["t"] == "error").await["code"], "binary");
    // Oversized (but within the transport limit): an error, the connection stays.
    let big = format!(r#"{{"t":"move","move":"{}"}}"#, "e".repeat(10_000));
    w.ws.send_text(&big).await.unwrap();
    assert_eq!(w.wait_for(|v| v["t"] == "error").await["code"], "too_large");
    // After all that, the game goes on.
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    // Beyond the transport limit the connection is closed (1009)…
    let mut spare = GameSocket::connect(s.addr, &format!("/ws/games/{}", w.game))
        .await
        .unwrap();
    let _ = spare.send_text(&"x".repeat(100_000)).await;
    assert!(spare.until(WAIT, |_| false).await.is_err());
    // …and the players are unharmed.
    play_line(&mut w, &mut b, &["Nf3", "Nc6"]).await;
}
both_dbs!(every_refusal_in_a_game, game_refusals);

async fn flood(db: Db) {
    let Some(s) = start_with(db, |c| {
        c.msgs_burst = 5.0;
        c.msgs_per_sec = 5.0;
        // Pongs count too: keep pings rare here.
        c.ping_every = Duration::from_secs(30);
    })
    .await
    else {
        return;
    };
    let (mut w, mut b) = friend_game(s.addr, json!({})).await;
    // Every message answered, a refused one too, with its own id (issue 60:
    // a move refused as `rate_limited` came back with `"id": null`).
    for n in 1..=40 {
        w.ws.send_text(&format!(r#"{{"t":"state","id":{n}}}"#))
            .await
            .unwrap();
    }
    w.ws.send_text(r#"{"t":"move","move":"e4","id":93}"#)
        .await
        .unwrap();
    let mut answered = std::collections::BTreeMap::new();
    while answered.len() < 41 {
        let v = w
            .wait_for(|v| v["t"] == "state" || v["t"] == "error" || v["t"] == "ack")
            .await;
        if v["t"] == "error" && v["code"] == "rate_limited" && v["id"].is_null() {
            // The answer to a pong this socket sent by itself (pongs carry
            // no id): the first ping comes as the connection opens.
            continue;
        }
        let id = v["id"].as_u64().unwrap_or_else(|| panic!("no id: {v}"));
        if v["t"] == "error" {
            assert_eq!(v["code"], "rate_limited", "{v}");
        }
        assert!(
            answered.insert(id, v["t"].clone()).is_none(),
            "{id} answered twice"
        );
    }
    let expected: Vec<u64> = (1..=40).chain([93]).collect();
    assert_eq!(answered.keys().copied().collect::<Vec<_>>(), expected);
    assert!(
        answered.values().any(|t| t == "error"),
        "nothing refused: {answered:?}"
    );
    if answered[&93] == "ack" {
        // The bucket had a token again: the move was played.
        w.event("move").await;
        b.event("move").await;
        w.backlog.clear();
        b.backlog.clear();
        tokio::time::sleep(Duration::from_millis(1500)).await;
        play_line(&mut b, &mut w, &["d5", "d4"]).await;
        return;
    }
    // After a pause the connection works again.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    w.state().await;
    w.backlog.clear();
    play_line(&mut w, &mut b, &["d4", "d5"]).await;
}
both_dbs!(flood_is_rate_limited, flood);

async fn http_refusals(db: Db) {
    let Some(s) = start_with(db, |c| {
        c.http_burst = 3.0;
        c.http_per_sec = 0.01;
    })
    .await
    else {
        return;
    };
    // Cross-site requests are refused.
    let body = json!({"opponent": "friend"});
    let r = http(
        s.addr,
        "POST",
        "/api/games",
        Some(&body),
        &[("Origin", "http://evil.example")],
    )
    .await
    .unwrap();
    assert_eq!(r.status, 403);
    assert_eq!(r.json()["code"], "cross_site");
    let r = http(
        s.addr,
        "POST",
        "/api/games",
        Some(&body),
        &[("Sec-Fetch-Site", "cross-site")],
    )
    .await
    .unwrap();
    assert_eq!(r.status, 403);
    // Same origin is fine; the guest cookie is HttpOnly and SameSite.
    let origin = format!("http://{}", s.addr);
    let r = http(
        s.addr,
        "POST",
        "/api/games",
        Some(&body),
        &[("Origin", &origin)],
    )
    .await
    .unwrap();
    assert_eq!(r.status, 201, "{}", r.body);
    let set = r
        .headers
        .iter()
        .find(|(k, _)| k == "set-cookie")
        .unwrap()
        .1
        .clone();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    // Bad bodies: typed errors.
    let r = http(
        s.addr,
        "POST",
        "/api/games",
        Some(&json!({"opponent": "engine", "level": 11})),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(r.json()["code"], "bad_level");
    let r = http(
        s.addr,
        "POST",
        "/api/games",
        Some(&json!({"opponent": "friend", "time_control": "x"})),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (400, json!("bad_time_control")),
        "{}",
        r.body
    );
    // The fourth creation from this address is over the limit (three per burst).
    let r = http(s.addr, "POST", "/api/games", Some(&body), &[])
        .await
        .unwrap();
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.json()["code"], "rate_limited");
    // Malformed JSON.
    let r = http(s.addr, "POST", "/api/login", None, &[]).await.unwrap();
    assert!(r.status == 400 || r.status == 429, "{}", r.body);
}
both_dbs!(http_refusals_and_limits, http_refusals);

async fn seat_taken(db: Db) {
    let Some(s) = start(db).await else { return };
    let (w, _b) = friend_game(s.addr, json!({})).await;
    let mut third = Browser::new(s.addr);
    let r = third
        .post(&format!("/api/games/{}/join", w.game), json!({}))
        .await;
    assert_eq!(r.status, 409);
    assert_eq!(r.json()["code"], "seat_taken");
}
both_dbs!(a_taken_seat_cannot_be_joined, seat_taken);

async fn rules_and_odds(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut a = Browser::new(s.addr);
    // Ids, aliases and names are read by the library's one reader...
    for (rules, odds, want) in [
        ("london1846_english", "rook", "london1846_english"),
        ("londres-inglaterra", "torre", "london1846_english"),
        ("Londres 1846", "ventaja de caballo", "london1846"),
        ("fide2023", "pawn_and_move", "fide2023"),
    ] {
        let r = a
            .post(
                "/api/games",
                json!({"opponent": "friend", "rules": rules, "odds": odds}),
            )
            .await;
        assert_eq!(r.status, 201, "{rules} {odds}: {}", r.body);
        let game = r.json()["game"].as_str().unwrap().to_string();
        let st = a
            .req("GET", &format!("/api/games/{game}"), None)
            .await
            .json();
        // ...and sent back as ids.
        assert_eq!(st["rules"], want, "{rules}");
    }
    // Anything else is refused, with the ids in the text.
    let r = a
        .post(
            "/api/games",
            json!({"opponent": "friend", "rules": "chino"}),
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["code"], "bad_rules");
    assert!(r.body.contains("london1846"), "{}", r.body);
    let r = a
        .post("/api/games", json!({"opponent": "friend", "odds": "alfil"}))
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["code"], "bad_odds");
}
both_dbs!(rules_and_odds_by_id_or_alias, rules_and_odds);

async fn accounts(db: Db) {
    let Some(s) = start(db).await else { return };
    let name = format!("ana_{}", &escaque_server::new_id()[..6]);
    let mut a = Browser::new(s.addr);
    let r = a
        .post("/api/signup", json!({"name": name, "password": "corta"}))
        .await;
    assert_eq!(r.json()["code"], "bad_password");
    let r = a
        .post(
            "/api/signup",
            json!({"name": "<script>", "password": "larga-y-buena"}),
        )
        .await;
    assert_eq!(r.json()["code"], "bad_name");
    let r = a
        .post(
            "/api/signup",
            json!({"name": name, "password": "larga-y-buena"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(a.cookies.iter().any(|c| c.starts_with("escaque_sesion=")));
    assert_eq!(
        a.req("GET", "/api/me", None).await.json()["name"],
        json!(name)
    );
    let mut other = Browser::new(s.addr);
    let r = other
        .post(
            "/api/signup",
            json!({"name": name.to_uppercase(), "password": "otra-contraseña"}),
        )
        .await;
    assert_eq!(r.json()["code"], "name_taken");
    let r = other
        .post(
            "/api/login",
            json!({"name": name, "password": "equivocada"}),
        )
        .await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (401, json!("bad_login"))
    );
    let r = other
        .post(
            "/api/login",
            json!({"name": name, "password": "larga-y-buena"}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        other.req("GET", "/api/me", None).await.json()["account"],
        true
    );
    // Games are listed per player (the account, from either browser).
    let g = a
        .post("/api/games", json!({"opponent": "engine", "level": 1}))
        .await
        .json();
    let list = other.req("GET", "/api/me/games", None).await.json();
    assert!(
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["game"] == g["game"]),
        "{list}"
    );
    let r = other.post("/api/logout", json!({})).await;
    assert_eq!(r.status, 200);
    assert_eq!(
        other.req("GET", "/api/me", None).await.json()["account"],
        false
    );
}
both_dbs!(accounts_and_sessions, accounts);

async fn lobby(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut poster = Browser::new(s.addr);
    let mut taker = Browser::new(s.addr);
    poster.req("GET", "/api/me", None).await; // gets the guest cookie
    let cookie = poster.cookies.join("; ");
    // The poster watches the lobby (with its cookie, to hear of acceptance).
    let url = format!("ws://{}/ws/lobby", s.addr);
    let mut req =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(url)
            .unwrap();
    req.headers_mut().insert("Cookie", cookie.parse().unwrap());
    let (mut lobby, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    use futures_util::StreamExt;
    macro_rules! next {
        () => {{
            let m = tokio::time::timeout(WAIT, lobby.next())
                .await
                .unwrap()
                .unwrap()
                .unwrap();
            serde_json::from_str::<serde_json::Value>(m.to_text().unwrap()).unwrap()
        }};
    }
    let first = next!();
    assert_eq!(first["t"], "seeks");
    let r = poster
        .post(
            "/api/seeks",
            json!({"time_control": "3+2", "color": "white", "rules": "Londres", "odds": "caballo"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let seek = r.json()["seek"].as_str().unwrap().to_string();
    // (The list of games in progress may come in between, and so may the
    // list as it was before the seek: on PostgreSQL the process's first
    // listening connection re-reads and sends the whole list again. Each
    // `seeks` is the whole list, so the seek is in a later one.)
    let has_seek = |v: &serde_json::Value| {
        v["seeks"]
            .as_array()
            .is_some_and(|a| a.iter().any(|x| x["id"] == json!(seek)))
    };
    let mut update = next!();
    for _ in 0..20 {
        if update["t"] == "live" || (update["t"] == "seeks" && !has_seek(&update)) {
            update = next!();
        } else {
            break;
        }
    }
    // What was typed is listed by the library's ids.
    assert!(
        update["seeks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == json!(seek)
                && x["time_control"] == "3+2"
                && x["rules"] == "london1846"
                && x["odds"] == "knight"),
        "{update}"
    );
    // The poster cannot accept its own seek.
    let own = poster
        .post(&format!("/api/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(
        (own.status, own.json()["code"].clone()),
        (409, json!("own_game"))
    );
    let mine = taker
        .post(&format!("/api/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(mine.status, 200, "{}", mine.body);
    assert_eq!(mine.json()["seat"], "black");
    let mut told = None;
    for _ in 0..3 {
        let m = next!();
        if m["t"] == "seek_accepted" {
            told = Some(m);
            break;
        }
    }
    let told = told.expect("the poster is told");
    assert_eq!(told["seat"], "white");
    let mut w = Player::connect(s.addr, &told).await;
    let mut b = Player::connect(s.addr, &mine.json()).await;
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    // Gone from the lobby.
    assert_eq!(
        taker.req("GET", "/api/seeks", None).await.json()["seeks"],
        json!([])
    );
}
both_dbs!(lobby_seek_to_game, lobby);

async fn own_challenge(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut creator = Browser::new(s.addr);
    let r = creator
        .post("/api/games", json!({"opponent": "friend"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let game = r.json()["game"].as_str().unwrap().to_string();
    // Following one's own challenge link does not seat the creator twice:
    // the same rule, and the same code, as accepting one's own seek.
    let again = creator
        .post(&format!("/api/games/{game}/join"), json!({}))
        .await;
    assert_eq!(again.status, 409, "{}", again.body);
    assert_eq!(again.json()["code"], "own_game");
    assert!(again.json()["es"].as_str().unwrap().contains("invitación"));
    // The seat is still free for a friend.
    let mut friend = Browser::new(s.addr);
    let j = friend
        .post(&format!("/api/games/{game}/join"), json!({}))
        .await;
    assert_eq!(j.status, 200, "{}", j.body);
}
both_dbs!(the_creator_cannot_join_its_own_challenge, own_challenge);

async fn impersonating_names(db: Db) {
    let Some(s) = start(db).await else { return };
    let tag = &escaque_server::new_id()[..6];
    let signup = |name: String| json!({"name": name, "password": "larga-y-buena"});
    let mut a = Browser::new(s.addr);
    for name in [
        "invitado-287faa".to_string(),
        "guest-1234".to_string(),
        format!("\u{0430}dmin{tag}"),
        format!("ａｄｍｉｎ{tag}"),
    ] {
        let r = a.post("/api/signup", signup(name.clone())).await;
        assert_eq!(r.status, 400, "{name}: {}", r.body);
        assert_eq!(r.json()["code"], "bad_name", "{name}");
    }
    // Decomposed and composed é are one name; the stored name is NFC.
    let decomposed = format!("Jose\u{301}{tag}");
    let composed = format!("Jos\u{e9}{tag}");
    let r = a.post("/api/signup", signup(decomposed.clone())).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["name"], json!(composed));
    let mut b = Browser::new(s.addr);
    let r = b.post("/api/signup", signup(composed.to_uppercase())).await;
    assert_eq!(r.json()["code"], "name_taken", "{}", r.body);
    let r = b.post("/api/login", signup(decomposed)).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Case and Cyrillic look-alikes collide: "Cop…" then a wholly Cyrillic
    // "СОР…" (digits go with any script).
    let num: String = tag.bytes().map(|b| char::from(b'0' + b % 10)).collect();
    let r = a.post("/api/signup", signup(format!("Cop{num}"))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let cyrillic = format!("\u{0421}\u{041E}\u{0420}{num}");
    let r = b.post("/api/signup", signup(cyrillic)).await;
    assert_eq!(r.json()["code"], "name_taken", "{}", r.body);
    let r = b.post("/api/signup", signup(format!("cOP{num}"))).await;
    assert_eq!(r.json()["code"], "name_taken", "{}", r.body);
}
both_dbs!(names_that_impersonate_are_refused, impersonating_names);

async fn spanish_texts(db: Db) {
    let Some(s) = start(db).await else { return };
    // A body over the limit, an unknown field, a wrong type: the Spanish
    // text is Spanish through and through.
    let big = json!({"opponent": "friend", "fen": "x".repeat(3 * 1024 * 1024)});
    let r = http(s.addr, "POST", "/api/games", Some(&big), &[])
        .await
        .unwrap();
    assert_eq!(r.status, 413, "{}", r.body);
    let e = r.json();
    assert_eq!(e["code"], "malformed");
    assert_eq!(e["t"], "error");
    assert_eq!(e["es"], "el cuerpo de la petición es demasiado grande");
    assert!(e["en"].as_str().unwrap().contains("length limit"), "{e}");
    let r = http(
        s.addr,
        "POST",
        "/api/games",
        Some(&json!({"opponent": "friend", "extra": 1})),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(r.status, 400);
    let es = r.json()["es"].as_str().unwrap().to_string();
    assert!(
        es.starts_with("cuerpo JSON no válido: campo desconocido «extra»"),
        "{es}"
    );
    assert!(!es.contains("unknown") && !es.contains("expected"), "{es}");
    let r = http(
        s.addr,
        "POST",
        "/api/games",
        Some(&json!({"opponent": 7})),
        &[],
    )
    .await
    .unwrap();
    let es = r.json()["es"].as_str().unwrap().to_string();
    assert!(es.contains("en «opponent»: tipo no válido"), "{es}");
    // Every HTTP refusal has the WebSocket error's shape, unknown routes too.
    let r = http(s.addr, "GET", "/api/nada", None, &[]).await.unwrap();
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["t"], "error");
    assert!(r.json()["es"].is_string() && r.json()["en"].is_string());
    for path in ["/web/api/games/nope/positions", "/static/nada.js"] {
        let r = http(s.addr, "GET", path, None, &[]).await.unwrap();
        assert_eq!(
            (r.status, r.json()["t"].clone()),
            (404, json!("error")),
            "{path}: {}",
            r.body
        );
    }
    // The WebSocket's malformed frames: Spanish too, the field name kept.
    let (mut w, _b) = friend_game(s.addr, json!({})).await;
    w.ws.send_text(r#"{"t":"move","move":"e4","extra":1}"#)
        .await
        .unwrap();
    let e = w.wait_for(|v| v["t"] == "error").await;
    let es = e["es"].as_str().unwrap();
    assert!(
        es.starts_with("mensaje mal formado: campo desconocido «extra»"),
        "{es}"
    );
    assert!(!es.contains("unknown field"), "{es}");
    assert!(
        e["en"].as_str().unwrap().contains("unknown field `extra`"),
        "{e}"
    );
}
both_dbs!(spanish_texts_are_spanish, spanish_texts);

async fn games_in_progress(db: Db) {
    // The list holds every game in progress of the database (at most 50):
    // every test server has a database of its own (`common::start_with`).
    let Some(s) = start(db).await else {
        return;
    };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "5+3"})).await;
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    // A challenge nobody joined is not in progress.
    let mut lone = Browser::new(s.addr);
    let waiting = lone
        .post("/api/games", json!({"opponent": "friend"}))
        .await
        .json();
    let list = http(s.addr, "GET", "/api/games/live", None, &[])
        .await
        .unwrap()
        .json();
    let games = list["games"].as_array().unwrap();
    let g = games
        .iter()
        .find(|g| g["game"] == json!(w.game))
        .unwrap_or_else(|| panic!("{list}"));
    assert_eq!(g["plies"], 2);
    assert!(g["white"].as_str().unwrap().starts_with("invitado-"), "{g}");
    assert_eq!(g["clock"]["control"], "5+3");
    assert_eq!(g["watch"], json!(format!("/partida/{}", w.game)));
    assert!(games.iter().all(|g| g["game"] != waiting["game"]), "{list}");
    // The lobby pushes the list, and again when it changes.
    let url = format!("ws://{}/ws/lobby", s.addr);
    let (mut lobby, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    use futures_util::StreamExt;
    let mut next_live = async || loop {
        let m = tokio::time::timeout(WAIT, lobby.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(m.to_text().unwrap()).unwrap();
        if v["t"] == "live" {
            return v;
        }
    };
    let first = next_live().await;
    assert!(first["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["game"] == json!(w.game)));
    play_line(&mut w, &mut b, &["Nf3"]).await;
    let id = w.game.clone();
    let plies_of = |v: &serde_json::Value| {
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["game"] == json!(id))
            .map(|g| g["plies"].clone())
    };
    let mut seen = first;
    while plies_of(&seen) != Some(json!(3)) {
        seen = next_live().await;
    }
    // A finished game leaves the list.
    assert_eq!(w.act(json!({"t": "resign", "id": 5})).await["t"], "ack");
    while plies_of(&seen).is_some() {
        seen = next_live().await;
    }
}
both_dbs!(games_in_progress_are_listed_live, games_in_progress);
