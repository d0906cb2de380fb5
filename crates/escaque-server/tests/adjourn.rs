//! Adjournment and the sealed move over real WebSocket connections: offered,
//! accepted, sealed (hidden from everybody), resumed when both are back, the
//! envelope opened and the move played or judged by the library, and an
//! adjourned game brought back after a restart.

use crate::common;

use std::time::Duration;

use common::*;
use escaque_server::client::GameSocket;
use serde_json::{json, Value};

/// `by` offers to adjourn and the other accepts: the side to move must seal.
async fn agree(offerer: &mut Player, accepter: &mut Player) {
    let a = offerer.act(json!({"t": "offer_adjourn", "id": 5})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let ev = accepter.event("adjourn_offer").await;
    assert_eq!(ev["data"]["by"], offerer.seat.as_str());
    assert_eq!(ev["adjourn_offer"], offerer.seat.as_str());
    let a = accepter.act(json!({"t": "accept_adjourn", "id": 6})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let ev = offerer.event("sealing").await;
    assert_eq!(ev["sealing"], ev["turn"]);
    assert_eq!(ev["data"]["by"], ev["turn"]);
    assert_eq!(ev["adjourn_offer"], Value::Null);
}

/// Both say they are back; the envelope is opened. Returns the
/// `envelope_opened` event as `first` saw it.
async fn both_resume(first: &mut Player, second: &mut Player) -> Value {
    let a = first.act(json!({"t": "resume", "id": 8})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let ev = second.event("resume_ready").await;
    assert_eq!(ev["data"]["by"], first.seat.as_str());
    assert_eq!(ev["resume_ready"], json!([first.seat]));
    assert_eq!(ev["status"], "adjourned");
    let a = second.act(json!({"t": "resume", "id": 9})).await;
    assert_eq!(a["t"], "ack", "{a}");
    first.event("envelope_opened").await
}

/// Every frame a connection has read so far (its backlog), as text.
fn seen(p: &Player) -> String {
    p.backlog
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

async fn sealed_and_played(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "5+0"})).await;
    let mut watcher = GameSocket::connect(s.addr, &format!("/ws/games/{}", w.game))
        .await
        .expect("spectator");
    // Not before both sides have moved.
    let e = w.act(json!({"t": "offer_adjourn"})).await;
    assert_eq!(e["code"], "cannot_adjourn", "{e}");
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    // Nothing to accept or seal yet.
    let e = b.act(json!({"t": "accept_adjourn"})).await;
    assert_eq!(e["code"], "nothing_pending", "{e}");
    let e = w.act(json!({"t": "seal", "move": "Cc3"})).await;
    assert_eq!(e["code"], "not_sealing", "{e}");
    let e = w.act(json!({"t": "resume"})).await;
    assert_eq!(e["code"], "not_adjourned", "{e}");
    // Black offers, White (to move) accepts: White seals, its clock running.
    agree(&mut b, &mut w).await;
    let st = w.state().await;
    assert_eq!(st["sealing"], "white");
    assert_eq!(st["clock"]["running"], "white");
    let before_ms = st["clock"]["white_ms"].as_i64().unwrap();
    // While sealing: no move on the board, and only White seals.
    let e = w.play("Nc3").await;
    assert_eq!(e["code"], "sealing", "{e}");
    let e = b.act(json!({"t": "seal", "move": "Cc6"})).await;
    assert_eq!(e["code"], "not_your_turn", "{e}");
    let e = w.act(json!({"t": "seal", "move": "   "})).await;
    assert_eq!(e["code"], "malformed", "{e}");
    tokio::time::sleep(Duration::from_millis(700)).await;
    let a = w.act(json!({"t": "seal", "move": "Cc3", "id": 7})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let ev = b.event("adjourned").await;
    assert_eq!(ev["data"]["by"], "white");
    assert_eq!(ev["status"], "adjourned");
    assert_eq!(ev["sealed_by"], "white");
    assert_eq!(ev["sealing"], Value::Null);
    assert_eq!(ev["clock"]["running"], Value::Null);
    assert_eq!(ev["legal_uci"], json!([]));
    // The time spent writing it is White's.
    let sealed_ms = ev["clock"]["white_ms"].as_i64().unwrap();
    assert!(sealed_ms <= before_ms - 600, "{before_ms} → {sealed_ms}");
    // Clocks stand still while adjourned.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let st = b.state().await;
    assert_eq!(st["clock"]["white_ms"].as_i64().unwrap(), sealed_ms);
    assert_eq!(st["status"], "adjourned");
    // Nothing is played while adjourned.
    let e = w.play("Nc3").await;
    assert_eq!(e["code"], "adjourned", "{e}");
    let e = b.act(json!({"t": "offer_draw"})).await;
    assert_eq!(e["code"], "adjourned", "{e}");
    // The envelope is hidden: from the opponent, the spectator, the HTTP
    // state and the record.
    let mut br = Browser::new(s.addr);
    let snap = br.req("GET", &format!("/api/games/{}", w.game), None).await;
    assert_eq!(snap.json()["status"], "adjourned", "{}", snap.body);
    let pgn = br
        .req("GET", &format!("/api/games/{}/pgn", w.game), None)
        .await;
    let mut watched = String::new();
    while let Ok(v) = watcher.recv(Duration::from_millis(200)).await {
        watched.push_str(&v.to_string());
    }
    assert!(watched.contains("\"adjourned\""), "{watched}");
    for (who, text) in [
        ("black", seen(&b)),
        ("spectator", watched),
        ("snapshot", snap.body.clone()),
        ("pgn", pgn.body.clone()),
    ] {
        assert!(!text.contains("Cc3"), "{who} saw the sealed move: {text}");
    }
    // Both back: the envelope is opened, Nc3 played, Black's clock runs.
    let opened = both_resume(&mut b, &mut w).await;
    assert_eq!(opened["data"]["by"], "white");
    assert_eq!(opened["data"]["sealed_move"], "Cc3");
    assert_eq!(opened["data"]["played"], true);
    let mv = b
        .wait_for(|v| v["event"] == "move" && v["data"]["ply"] == 2)
        .await;
    assert_eq!(mv["data"]["san"], "Nc3");
    assert_eq!(mv["data"]["san_es"], "Cc3");
    assert_eq!(mv["status"], "playing");
    assert_eq!(mv["sealed_by"], Value::Null);
    assert_eq!(mv["clock"]["running"], "black");
    let after_ms = mv["clock"]["white_ms"].as_i64().unwrap();
    assert!(
        after_ms <= sealed_ms && after_ms > sealed_ms - 400,
        "{sealed_ms} → {after_ms}"
    );
    // Play goes on, and the record has the move.
    let a = b.play("Cc6").await;
    assert_eq!(a["t"], "ack", "{a}");
    let pgn = br
        .req("GET", &format!("/api/games/{}/pgn", w.game), None)
        .await;
    // The movetext, after the tags (the game's id in `Site` may hold "e4").
    let body = pgn.body.split("\n\n").nth(1).unwrap_or_default();
    let at = |m: &str| {
        body.find(m)
            .unwrap_or_else(|| panic!("{m} missing: {body}"))
    };
    assert!(at("e4") < at("e5") && at("e5") < at("Nc3") && at("Nc3") < at("Nc6"));
}
both_dbs!(sealed_resumed_and_played, sealed_and_played);

async fn declined_and_refused(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({})).await;
    play_line(&mut w, &mut b, &["d4", "d5"]).await;
    let a = w.act(json!({"t": "offer_adjourn"})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let e = w.act(json!({"t": "accept_adjourn"})).await;
    assert_eq!(e["code"], "nothing_pending", "{e}");
    let a = b.act(json!({"t": "decline_adjourn"})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let ev = w.event("adjourn_declined").await;
    assert_eq!(ev["data"]["by"], "black");
    assert_eq!(ev["adjourn_offer"], Value::Null);
    // An offer lapses with the next move.
    let a = b.act(json!({"t": "offer_adjourn"})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let a = w.play("c4").await;
    assert_eq!(a["t"], "ack", "{a}");
    let st = w.state().await;
    assert_eq!(st["adjourn_offer"], Value::Null);
    let e = w.act(json!({"t": "accept_adjourn"})).await;
    assert_eq!(e["code"], "nothing_pending", "{e}");
    // Spectators hold no seat.
    let mut watcher = GameSocket::connect(s.addr, &format!("/ws/games/{}", w.game))
        .await
        .expect("spectator");
    watcher
        .send(&json!({"t": "offer_adjourn", "id": 3}))
        .await
        .unwrap();
    let e = watcher
        .until(WAIT, |v| v["t"] == "error")
        .await
        .expect("error");
    assert_eq!(e["code"], "not_a_player");
    // Against the engine: refused, with the reason.
    let mut br = Browser::new(s.addr);
    let r = br
        .post(
            "/api/games",
            json!({"opponent": "engine", "level": 1, "color": "white"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let mut me = Player::connect(s.addr, &r.json()).await;
    let e = me.act(json!({"t": "offer_adjourn"})).await;
    assert_eq!(e["code"], "cannot_adjourn", "{e}");
    assert!(e["es"].as_str().unwrap().contains("motor"), "{e}");
    assert!(e["en"].as_str().unwrap().contains("engine"), "{e}");
}
both_dbs!(adjournment_declined_and_refused, declined_and_refused);

async fn illegal_loses(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "10+5"})).await;
    play_line(&mut w, &mut b, &["e4", "e5", "Nf3"]).await;
    // White offers, Black (to move) accepts and seals a move that is not
    // legal here.
    agree(&mut w, &mut b).await;
    let a = b.act(json!({"t": "seal", "move": "Ce4"})).await;
    assert_eq!(a["t"], "ack", "{a}");
    w.event("adjourned").await;
    let opened = both_resume(&mut w, &mut b).await;
    assert_eq!(opened["data"]["sealed_move"], "Ce4");
    assert_eq!(opened["data"]["played"], false);
    assert!(opened["data"]["es"].is_string(), "{opened}");
    assert!(opened["data"]["en"].is_string(), "{opened}");
    let end = w.event("end").await;
    assert_eq!(end["result"], "1-0");
    assert_eq!(end["termination"], "illegal_sealed_move");
    assert_eq!(end["termination_side"], "black");
    assert_eq!(end["status"], "over");
    let st = b.state().await;
    assert_eq!(st["plies"], 3);
    let e = b.act(json!({"t": "resume"})).await;
    assert_eq!(e["code"], "game_over", "{e}");
}
both_dbs!(illegal_sealed_move_loses, illegal_loses);

async fn illegal_drawn(db: Db) {
    let Some(s) = start(db).await else { return };
    // Black has a bare king: it could not mate by any series of moves.
    let (mut w, mut b) = friend_game(
        s.addr,
        json!({"fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "color": "white", "time_control": "10+5"}),
    )
    .await;
    play_line(&mut w, &mut b, &["e3", "Kd7"]).await;
    agree(&mut b, &mut w).await;
    let a = w.act(json!({"t": "seal", "move": "Dd8"})).await;
    assert_eq!(a["t"], "ack", "{a}");
    b.event("adjourned").await;
    let opened = both_resume(&mut b, &mut w).await;
    assert_eq!(opened["data"]["played"], false);
    let end = b.event("end").await;
    assert_eq!(end["result"], "1/2-1/2");
    assert_eq!(end["termination"], "illegal_sealed_move");
    assert_eq!(end["termination_side"], "white");
}
both_dbs!(
    illegal_sealed_move_drawn_when_the_opponent_could_not_mate,
    illegal_drawn
);

/// Ready counts only while connected: a player who said "resume" and left
/// must say it again.
async fn ready_while_back(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({})).await;
    play_line(&mut w, &mut b, &["e4", "c5"]).await;
    agree(&mut w, &mut b).await;
    let a = w.act(json!({"t": "seal", "move": "Nf3"})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let a = w.act(json!({"t": "resume"})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let game = w.game.clone();
    let secret = w.secret.clone();
    drop(w);
    let ev = b
        .wait_for(|v| v["event"] == "presence" && v["data"]["connected"] == false)
        .await;
    assert_eq!(ev["resume_ready"], json!([]));
    // No abandonment while adjourned: the grace (at most 600 ms here) runs
    // out and nothing can be claimed.
    tokio::time::sleep(Duration::from_millis(900)).await;
    let st = b.state().await;
    assert_eq!(st["abandon_claimable_by"], Value::Null);
    let e = b
        .act(json!({"t": "claim_abandoned", "result": "win"}))
        .await;
    assert_eq!(e["code"], "adjourned", "{e}");
    let a = b.act(json!({"t": "resume"})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let st = b.state().await;
    assert_eq!(st["status"], "adjourned");
    assert_eq!(st["resume_ready"], json!(["black"]));
    let mut w = Player::connect(
        s.addr,
        &json!({"game": game, "secret": secret, "seat": "white"}),
    )
    .await;
    let st = w.state().await;
    assert_eq!(st["status"], "adjourned");
    let a = w.act(json!({"t": "resume"})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let mv = w.event("move").await;
    assert_eq!(mv["data"]["san"], "Nf3");
}
both_dbs!(resume_needs_both_back, ready_while_back);

/// The server stops while the game is adjourned: it comes back adjourned,
/// the envelope closed and the clocks as they were, and is resumed.
async fn restart(db: Db) {
    let Some(url) = own_database_url(db, "adjourn").await else {
        return;
    };
    let database = escaque_server::Database::Url(url);
    let same = database.clone();
    let Some(first) = start_with(db, |c| c.database = same).await else {
        return;
    };
    let (mut w, mut b) = friend_game(first.addr, json!({"time_control": "10+5"})).await;
    play_line(&mut w, &mut b, &["e4", "e5", "Nf3"]).await;
    agree(&mut w, &mut b).await;
    let a = b.act(json!({"t": "seal", "move": "Cc6"})).await;
    assert_eq!(a["t"], "ack", "{a}");
    let ev = w.event("adjourned").await;
    let clock = ev["clock"].clone();
    let (game, ws, bs) = (w.game.clone(), w.secret.clone(), b.secret.clone());
    drop((w, b));
    first.abort();
    drop(first);
    let second = start_with(db, |c| c.database = database)
        .await
        .expect("second start");
    // Loaded on start, adjourned.
    assert!(second.hub.live_games().iter().any(|(id, _)| *id == game));
    let mut w = Player::connect(
        second.addr,
        &json!({"game": game, "secret": ws, "seat": "white"}),
    )
    .await;
    let st = w.state().await;
    assert_eq!(st["status"], "adjourned", "{st}");
    assert_eq!(st["sealed_by"], "black");
    assert_eq!(st["plies"], 3);
    assert_eq!(st["clock"]["white_ms"], clock["white_ms"]);
    assert_eq!(st["clock"]["black_ms"], clock["black_ms"]);
    assert_eq!(st["clock"]["running"], Value::Null);
    assert!(!st.to_string().contains("Cc6"), "{st}");
    let mut b = Player::connect(
        second.addr,
        &json!({"game": game, "secret": bs, "seat": "black"}),
    )
    .await;
    let opened = both_resume(&mut w, &mut b).await;
    assert_eq!(opened["data"]["played"], true);
    let mv = w.event("move").await;
    assert_eq!(mv["data"]["san"], "Nc6");
    assert_eq!(mv["clock"]["running"], "white");
    // Black's time: as adjourned (the sealer's thinking charged), plus
    // the increment.
    let black = mv["clock"]["black_ms"].as_i64().unwrap();
    let adjourned = clock["black_ms"].as_i64().unwrap();
    assert!(
        black <= adjourned + 5000 && black > adjourned + 4600,
        "{adjourned} → {black}"
    );
    let a = w.play("Bb5").await;
    assert_eq!(a["t"], "ack", "{a}");
}
both_dbs!(adjourned_game_survives_a_restart, restart);
