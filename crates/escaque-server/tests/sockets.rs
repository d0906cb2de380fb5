//! WebSocket faults found by trying the server as a user would (issue 23),
//! each against a started server with a real WebSocket client.

use crate::common;

use std::time::Duration;

use common::*;
use escaque_server::client::{GameSocket, SocketError};
use serde_json::json;

/// Errors echo the request's `id`, even for frames that are no message.
async fn errors_echo_the_id(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, _b) = friend_game(s.addr, json!({})).await;
    for (frame, code) in [
        (r#"{"t":"castle_now","id":114}"#, "unknown_type"),
        (r#"{"t":"move","id":115}"#, "malformed"),
        (
            r#"{"t":"move","move":"e4","extra":1,"id":116}"#,
            "malformed",
        ),
        (r#"{"t":7,"id":117}"#, "malformed"),
    ] {
        w.ws.send_text(frame).await.unwrap();
        let e = w.wait_for(|v| v["t"] == "error").await;
        assert_eq!(e["code"], code, "{frame}: {e}");
        let sent: serde_json::Value = serde_json::from_str(frame).unwrap();
        assert_eq!(e["id"], sent["id"], "{frame}: {e}");
    }
    // An error for a valid message echoes it too (as before).
    let e = w.act(json!({"t": "accept_draw", "id": 118})).await;
    assert_eq!(
        (e["t"].as_str(), e["id"].as_u64()),
        (Some("error"), Some(118))
    );
}
both_dbs!(errors_echo_the_request_id, errors_echo_the_id);

/// A `pong` with an `id` is accepted: no error comes back.
async fn pong_with_id(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, _b) = friend_game(s.addr, json!({})).await;
    w.ws.send_text(r#"{"t":"pong","n":1,"id":5}"#)
        .await
        .unwrap();
    // The next answer is the state asked for after it, not an error.
    w.ws.send_text(r#"{"t":"state","id":6}"#).await.unwrap();
    let next = w.wait_for(|v| v["t"] == "error" || v["t"] == "state").await;
    assert_eq!(next["t"], "state", "{next}");
    assert_eq!(next["id"], 6);
}
both_dbs!(pong_carrying_an_id_is_accepted, pong_with_id);

/// A frame over the transport limit closes the connection with 1009 and a
/// reason, not a reset.
async fn frame_too_big(db: Db) {
    let Some(s) = start(db).await else { return };
    let (w, _b) = friend_game(s.addr, json!({})).await;
    let mut ws = GameSocket::connect(s.addr, &format!("/ws/games/{}", w.game))
        .await
        .unwrap();
    ws.until(WAIT, |v| v["t"] == "state").await.unwrap();
    ws.send_text(&"x".repeat(70 * 1024)).await.unwrap();
    match ws.until(WAIT, |_| false).await {
        Err(SocketError::CloseFrame { code, reason }) => {
            assert_eq!(code, 1009, "{reason}");
            assert!(reason.contains("demasiado grande"), "{reason}");
            assert!(reason.contains("too big"), "{reason}");
        }
        other => panic!("expected a close frame 1009, got {other:?}"),
    }
}
both_dbs!(oversized_frame_closes_with_1009, frame_too_big);

/// After the seat's secret is renewed, a socket opened with the old secret
/// is told so and can no longer act.
async fn reclaimed_seat(db: Db) {
    let Some(s) = start(db).await else { return };
    let Challenge {
        creator: mut a,
        game,
        created,
        joined,
        ..
    } = challenge(s.addr, json!({"color": "white"})).await;
    // The old secret leaked: somebody holds a socket with it.
    let mut leaked = Player::connect(s.addr, &created).await;
    let mut b = Player::connect(s.addr, &joined).await;
    let again = a.post(&format!("/api/games/{game}/seat"), json!({})).await;
    assert_eq!(again.status, 200, "{}", again.body);
    let e = leaked
        .wait_for(|v| v["t"] == "error" && v["code"] == "seat_reclaimed")
        .await;
    assert!(e["es"].as_str().unwrap().contains("clave nueva"), "{e}");
    let st = leaked.wait_for(|v| v["t"] == "state").await;
    assert_eq!(st["you"], serde_json::Value::Null);
    // It cannot move any more.
    let e = leaked.play("e4").await;
    assert_eq!(e["code"], "not_a_player", "{e}");
    // The new secret plays.
    let mut w = Player::connect(s.addr, &again.json()).await;
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
}
both_dbs!(reclaiming_a_seat_evicts_the_old_secret, reclaimed_seat);

/// When a friend accepts a challenge, the creator is never told that the
/// rival disconnected, nor that the rival is back.
async fn friend_arrives(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut a = Browser::new(s.addr);
    let mut bb = Browser::new(s.addr);
    let created = a
        .post(
            "/api/games",
            json!({"opponent": "friend", "color": "white"}),
        )
        .await
        .json();
    let game = created["game"].as_str().unwrap().to_string();
    // The creator waits on the board.
    let mut w = Player::connect(s.addr, &created).await;
    let j = bb
        .post(&format!("/api/games/{game}/join"), json!({}))
        .await
        .json();
    let start = w.event("start").await;
    assert_eq!(start["black"]["connected"], true, "{start}");
    let mut b = Player::connect(s.addr, &j).await;
    // Everything the creator hears until the friend's first move.
    play_line(&mut b, &mut w, &[]).await;
    let a1 = w.play("e4").await;
    assert_eq!(a1["t"], "ack");
    let a2 = b.play("e5").await;
    assert_eq!(a2["t"], "ack");
    w.wait_for(|v| v["event"] == "move" && v["plies"] == 2)
        .await;
    let heard: Vec<_> = w.backlog.drain(..).collect();
    for v in &heard {
        assert_ne!(v["event"], "presence", "{v}");
        if v["t"] == "event" || v["t"] == "state" {
            assert_eq!(v["black"]["connected"], true, "{v}");
        }
    }
    // A real disconnection is still told.
    b.ws.close().await;
    let ev = w
        .wait_for(|v| v["event"] == "presence" && v["data"]["connected"] == false)
        .await;
    assert_eq!(ev["black"]["connected"], false);
    tokio::time::sleep(Duration::from_millis(10)).await;
}
both_dbs!(accepted_challenge_shows_no_disconnection, friend_arrives);
