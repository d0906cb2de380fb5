//! Whole games over real WebSocket connections, on SQLite and PostgreSQL.

use crate::common;

use std::time::Duration;

use common::*;
use escaque_server::client::GameSocket;
use serde_json::json;

async fn mate(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({})).await;
    // Spanish, English and coordinates mixed: 1.f3 e5 2.g4 Dh4#
    play_line(&mut w, &mut b, &["f2f3", "e5", "g4"]).await;
    let a = b.play("Dh4").await;
    assert_eq!(a["t"], "ack");
    let end = w.event("end").await;
    assert_eq!(end["result"], "0-1");
    assert_eq!(end["termination"], "checkmate");
    assert_eq!(end["status"], "over");
    assert_eq!(
        end["end_text"]["es"].as_str().unwrap(),
        "Jaque mate. Ganan las negras (0-1)"
    );
    assert_eq!(end["last_move"]["san"], "Qh4#");
    assert_eq!(end["last_move"]["san_es"], "Dh4#");
    // Stored: the PGN export has all four moves and the result.
    let mut br = Browser::new(s.addr);
    let pgn = br
        .req("GET", &format!("/api/games/{}/pgn", w.game), None)
        .await;
    assert!(pgn.body.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{}", pgn.body);
    let es = br
        .req("GET", &format!("/api/games/{}/pgn?lang=es", w.game), None)
        .await;
    assert!(es.body.contains("Dh4#"), "{}", es.body);
    // Nothing more can be played.
    let r = w.play("e2e4").await;
    assert_eq!(r["code"], "game_over");
}
both_dbs!(mate_over_the_network, mate);

async fn stalemate(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(
        s.addr,
        json!({"fen": "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", "color": "white"}),
    )
    .await;
    let a = w.play("Qf7").await;
    assert_eq!(a["t"], "ack", "{a}");
    let end = b.event("end").await;
    assert_eq!(end["result"], "1/2-1/2");
    assert_eq!(end["termination"], "stalemate");
}
both_dbs!(stalemate_over_the_network, stalemate);

async fn threefold(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "10+5"})).await;
    play_line(
        &mut w,
        &mut b,
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"],
    )
    .await;
    // Black may claim with the declared move Ng8 (the start position a third time).
    let st = b.state().await;
    assert!(
        st["claim_moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["uci"] == "f6g8" && c["san"] == "Ng8" && c["san_es"] == "Cg8"),
        "{}",
        st["claim_moves"]
    );
    // A claim without a move now is incorrect: the opponent gets two minutes.
    let before = st["clock"]["white_ms"].as_u64().unwrap();
    let r = b.act(json!({"t": "claim_draw"})).await;
    assert_eq!(r["t"], "ack");
    let rej = w.event("claim_rejected").await;
    assert!(
        rej["clock"]["white_ms"].as_u64().unwrap() >= before + 119_000,
        "{rej}"
    );
    assert_eq!(rej["draw_offer"], "black");
    // The declared move makes the claim correct.
    let r = b.act(json!({"t": "claim_draw", "move": "Cg8"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    let end = w.event("end").await;
    assert_eq!(end["termination"], "threefold_repetition");
    assert_eq!(end["result"], "1/2-1/2");
    assert_eq!(end["plies"], 8);
}
both_dbs!(threefold_claim, threefold);

async fn flag(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "1s"})).await;
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    // White's clock runs; nobody sends anything: the server flags White.
    let end = b.event("end").await;
    assert_eq!(end["termination"], "time_forfeit");
    assert_eq!(end["termination_side"], "white");
    assert_eq!(end["result"], "0-1");
    assert_eq!(end["clock"]["white_ms"], 0);
}
both_dbs!(flag_fall_without_messages, flag);

async fn flag_draw(db: Db) {
    let Some(s) = start(db).await else { return };
    // 6.9: Black has a bare king and cannot mate: White's flag fall is a draw.
    let (mut w, mut b) = friend_game(
        s.addr,
        json!({"time_control": "1s", "fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}),
    )
    .await;
    play_line(&mut w, &mut b, &["Rh2", "Kd7"]).await;
    let end = w.event("end").await;
    assert_eq!(end["termination"], "time_forfeit");
    assert_eq!(end["termination_side"], "white");
    assert_eq!(end["result"], "1/2-1/2");
}
both_dbs!(flag_fall_against_bare_king_is_a_draw, flag_draw);

async fn resign_and_rematch(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "5+3"})).await;
    play_line(&mut w, &mut b, &["d4", "d5"]).await;
    let r = w.act(json!({"t": "resign"})).await;
    assert_eq!(r["t"], "ack");
    let end = b.event("end").await;
    assert_eq!(end["result"], "0-1");
    assert_eq!(end["termination"], "resignation");
    assert_eq!(end["termination_side"], "white");
    // Rematch: both ask, colours swap, each gets a new secret privately.
    assert_eq!(b.act(json!({"t": "rematch"})).await["t"], "ack");
    w.event("rematch_offer").await;
    w.ws.send(&json!({"t": "rematch"})).await.unwrap();
    let seat_w = w.wait_for(|v| v["t"] == "rematch_seat").await;
    assert_eq!(seat_w["seat"], "black");
    let seat_b = b.wait_for(|v| v["t"] == "rematch_seat").await;
    assert_eq!(seat_b["seat"], "white");
    let mut nw = Player::connect(s.addr, &seat_b).await;
    let mut nb = Player::connect(s.addr, &seat_w).await;
    play_line(&mut nw, &mut nb, &["e4"]).await;
}
both_dbs!(resignation_then_rematch, resign_and_rematch);

async fn agreement_and_abort(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({})).await;
    // Abort before both moved.
    play_line(&mut w, &mut b, &["e4"]).await;
    assert_eq!(b.act(json!({"t": "abort"})).await["t"], "ack");
    let end = w.event("end").await;
    assert_eq!(end["termination"], "aborted");
    assert_eq!(end["result"], "*");

    let (mut w, mut b) = friend_game(s.addr, json!({})).await;
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    assert_eq!(
        w.act(json!({"t": "abort"})).await["code"],
        "too_late_to_abort"
    );
    assert_eq!(w.act(json!({"t": "offer_draw"})).await["t"], "ack");
    let ev = b.event("draw_offer").await;
    assert_eq!(ev["draw_offer"], "white");
    // Declined, then offered again and accepted.
    assert_eq!(b.act(json!({"t": "decline_draw"})).await["t"], "ack");
    assert_eq!(b.act(json!({"t": "accept_draw"})).await["t"], "error");
    assert_eq!(w.act(json!({"t": "offer_draw"})).await["t"], "ack");
    assert_eq!(b.act(json!({"t": "accept_draw"})).await["t"], "ack");
    let end = w.event("end").await;
    assert_eq!(end["termination"], "agreement");
}
both_dbs!(abort_and_draw_agreement, agreement_and_abort);

async fn takeback(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({})).await;
    play_line(&mut w, &mut b, &["e4", "e5", "Nf3"]).await;
    // White asks to take back Nf3; Black accepts.
    assert_eq!(w.act(json!({"t": "takeback"})).await["t"], "ack");
    b.event("takeback_offer").await;
    assert_eq!(
        b.act(json!({"t": "takeback_answer", "accept": true})).await["t"],
        "ack"
    );
    let ev = w.event("takeback").await;
    assert_eq!(ev["plies"], 2);
    assert_eq!(ev["turn"], "white");
    play_line(&mut w, &mut b, &["Bc4"]).await;
    let st = b.state().await;
    let moves: Vec<_> = st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].clone())
        .collect();
    assert_eq!(moves, vec!["e4", "e5", "Bc4"]);
    // Clocked games refuse takebacks.
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "3+2"})).await;
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    assert_eq!(
        w.act(json!({"t": "takeback"})).await["code"],
        "no_takeback_with_clock"
    );
}
both_dbs!(takeback_when_unclocked, takeback);

async fn engine(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut br = Browser::new(s.addr);
    // The human takes Black: the engine (level 1) opens.
    let r = br
        .post(
            "/api/games",
            json!({"opponent": "engine", "level": 1, "color": "black", "time_control": "2+1"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let mut me = Player::connect(s.addr, &r.json()).await;
    // On a loaded machine the engine may open before the socket is up: then
    // its move is already in the state and no move event follows, so the
    // loop starts from the state (what came before it is in it).
    let mut ev = me.state().await;
    me.backlog.clear();
    for _ in 0..60 {
        if ev["event"] == "end" || ev["status"] == "over" {
            break;
        }
        if ev["turn"] != "black" {
            ev = me
                .wait_for(|v| v["t"] == "event" && (v["event"] == "move" || v["event"] == "end"))
                .await;
            continue;
        }
        if ev["plies"].as_u64().unwrap() >= 11 {
            break;
        }
        let mv = no_mate_in_one(&ev);
        let a = me.play(&mv).await;
        assert_eq!(a["t"], "ack", "{a}");
        ev = me
            .wait_for(|v| v["t"] == "event" && (v["event"] == "move" || v["event"] == "end"))
            .await;
    }
    let st = me.state().await;
    let n = st["moves"].as_array().unwrap().len();
    // Black never lets a mate in one, so the level-1 engine cannot end the
    // game in these few moves (it did once, before Black looked).
    assert_eq!(st["status"], "playing", "{st}");
    assert!(n >= 10, "{}", st["moves"]);
    assert_eq!(st["white"]["kind"], "engine");
    // Each move is stored with its clock.
    let pgn = br
        .req("GET", &format!("/api/games/{}/pgn", me.game), None)
        .await;
    assert_eq!(pgn.body.matches("[%clk").count(), n, "{}", pgn.body);
}

/// The first of the legal moves in `ev` (a state or a move event) after
/// which the opponent has no mate in one.
fn no_mate_in_one(ev: &serde_json::Value) -> String {
    let pos = escaque::Position::from_fen(ev["fen"].as_str().unwrap()).unwrap();
    let legal = ev["legal_uci"].as_array().unwrap();
    assert!(!legal.is_empty());
    legal
        .iter()
        .filter_map(|m| m.as_str())
        .find(|m| !crate::mate_in_one::lets_mate_in_one(&pos, m))
        .unwrap_or_else(|| legal[0].as_str().unwrap())
        .to_string()
}
both_dbs!(engine_opponent, engine);

async fn reconnect(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = challenge(s.addr, json!({"color": "white", "time_control": "5+0"})).await;
    let game = c.game.clone();
    let mut w = Player::connect(s.addr, &c.created).await;
    let mut b = Player::connect(s.addr, &c.joined).await;
    play_line(&mut w, &mut b, &["e4", "c5", "Nf3"]).await;
    w.ws.close().await;
    let ev = b
        .wait_for(|v| v["event"] == "presence" && v["data"]["connected"] == false)
        .await;
    assert_eq!(ev["white"]["connected"], false);
    assert_eq!(ev["data"]["es"], "blancas: desconectado");
    // White lost the secret (a reload): the cookie gets a new one.
    let again = c
        .creator
        .post(&format!("/api/games/{game}/seat"), json!({}))
        .await;
    assert_eq!(again.status, 200, "{}", again.body);
    // The other browser cannot.
    let mut stranger = Browser::new(s.addr);
    assert_eq!(
        stranger
            .post(&format!("/api/games/{game}/seat"), json!({}))
            .await
            .status,
        403
    );
    // The old secret no longer opens the seat.
    let old = GameSocket::connect(s.addr, &format!("/ws/games/{game}?seat={}", w.secret)).await;
    assert!(old.is_err());
    let mut w2 = GameSocket::connect(
        s.addr,
        &format!(
            "/ws/games/{game}?seat={}",
            again.json()["secret"].as_str().unwrap()
        ),
    )
    .await
    .unwrap();
    let st = w2.until(WAIT, |v| v["t"] == "state").await.unwrap();
    assert_eq!(st["you"], "white");
    assert_eq!(st["moves"].as_array().unwrap().len(), 3);
    assert_eq!(st["turn"], "black");
    assert_eq!(st["clock"]["running"], "black");
    let ev = b
        .wait_for(|v| {
            v["event"] == "presence"
                && v["data"]["connected"] == true
                && v["data"]["seat"] == "white"
                && v["plies"] == 3
        })
        .await;
    assert_eq!(ev["data"]["seat"], "white");
    play_line(
        &mut b,
        &mut Player {
            seat: "white".into(),
            game: game.clone(),
            secret: String::new(),
            ws: w2,
            backlog: Default::default(),
        },
        &["d6"],
    )
    .await;
}
both_dbs!(reconnection_mid_game, reconnect);

async fn abandonment(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "5+0"})).await;
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    // Too early: White is still connected.
    assert_eq!(
        b.act(json!({"t": "claim_abandoned", "result": "win"}))
            .await["code"],
        "cannot_claim_abandon"
    );
    w.ws.close().await;
    b.wait_for(|v| v["event"] == "presence" && v["data"]["connected"] == false)
        .await;
    // Within the grace period: refused.
    assert_eq!(
        b.act(json!({"t": "claim_abandoned", "result": "win"}))
            .await["code"],
        "cannot_claim_abandon"
    );
    tokio::time::sleep(Duration::from_millis(700)).await;
    let st = b.state().await;
    assert_eq!(st["abandon_claimable_by"], "black");
    assert_eq!(
        b.act(json!({"t": "claim_abandoned", "result": "win"}))
            .await["t"],
        "ack"
    );
    let end = b.event("end").await;
    assert_eq!(end["result"], "0-1");
    assert_eq!(end["termination"], "abandoned");
    assert_eq!(end["termination_side"], "white");
    assert_eq!(
        end["end_text"]["es"],
        "Ganan las negras: las blancas abandonaron la partida (desconexión) (0-1)"
    );
}
both_dbs!(abandonment_after_grace, abandonment);

async fn spectator(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut w, mut b) = friend_game(s.addr, json!({})).await;
    let mut watcher = GameSocket::connect(s.addr, &format!("/ws/games/{}", w.game))
        .await
        .unwrap();
    let st = watcher.until(WAIT, |v| v["t"] == "state").await.unwrap();
    assert_eq!(st["you"], serde_json::Value::Null);
    play_line(&mut w, &mut b, &["e4"]).await;
    let ev = watcher
        .until(WAIT, |v| v["t"] == "event" && v["event"] == "move")
        .await
        .unwrap();
    assert_eq!(ev["data"]["san"], "e4");
    for msg in [
        json!({"t": "move", "move": "e5"}),
        json!({"t": "resign"}),
        json!({"t": "offer_draw"}),
    ] {
        watcher.send(&msg).await.unwrap();
        let e = watcher.until(WAIT, |v| v["t"] == "error").await.unwrap();
        assert_eq!(e["code"], "not_a_player");
    }
    // The game went on unharmed.
    play_line(&mut b, &mut w, &["e5"]).await;
}
both_dbs!(spectator_is_read_only, spectator);

async fn rematch_owner(db: Db) {
    let Some(s) = start(db).await else { return };
    let Challenge {
        mut joiner,
        created,
        joined,
        ..
    } = challenge(s.addr, json!({"color": "white"})).await;
    let mut w = Player::connect(s.addr, &created).await;
    let mut b = Player::connect(s.addr, &joined).await;
    assert_eq!(w.act(json!({"t": "resign"})).await["t"], "ack");
    assert_eq!(w.act(json!({"t": "rematch"})).await["t"], "ack");
    b.ws.send(&json!({"t": "rematch"})).await.unwrap();
    let seat = b.wait_for(|v| v["t"] == "rematch_seat").await;
    // The player who joined by the challenge link owns the rematch seat too:
    // it is in their list, and their cookie can reclaim it.
    let list = joiner.req("GET", "/api/me/games", None).await.json();
    assert!(
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["game"] == seat["game"] && g["you"] == "white"),
        "{list}"
    );
    let r = joiner
        .post(
            &format!("/api/games/{}/seat", seat["game"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(r.json()["seat"], "white", "{}", r.body);
}
both_dbs!(rematch_seats_belong_to_both_players, rematch_owner);
