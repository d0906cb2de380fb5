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
    for _ in 0..40 {
        w.ws.send_text(r#"{"t":"state"}"#).await.unwrap();
    }
    let e = w.wait_for(|v| v["t"] == "error").await;
    assert_eq!(e["code"], "rate_limited");
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
            json!({"time_control": "3+2", "color": "white"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let seek = r.json()["seek"].as_str().unwrap().to_string();
    let update = next!();
    assert!(
        update["seeks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == json!(seek) && x["time_control"] == "3+2"),
        "{update}"
    );
    // The poster cannot accept its own seek.
    assert_eq!(
        poster
            .post(&format!("/api/seeks/{seek}/accept"), json!({}))
            .await
            .status,
        400
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
