//! Lag compensation: a player whose pongs come back late (a long round trip)
//! is credited that time, up to the cap, and no more.

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::json;

/// Thinks for `think`, answering pings `delay` late, then plays `mv`.
/// Returns the time the player thought, as the player measured it.
async fn slow_move(p: &mut Player, mv: &str, think: Duration, delay: Duration) -> Duration {
    p.ws.answer_pings = false;
    let t0 = Instant::now();
    let mut due: Vec<(Instant, u64)> = Vec::new();
    while t0.elapsed() < think {
        let now = Instant::now();
        for (_, n) in due.iter().filter(|(at, _)| *at <= now) {
            p.ws.send(&json!({"t": "pong", "n": n})).await.unwrap();
        }
        due.retain(|(at, _)| *at > now);
        if let Ok(v) = p.ws.recv(Duration::from_millis(5)).await {
            if v["t"] == "ping" {
                due.push((Instant::now() + delay, v["n"].as_u64().unwrap()));
            } else {
                p.backlog.push_back(v);
            }
        }
    }
    let thought = t0.elapsed();
    let a = p.play(mv).await;
    assert_eq!(a["t"], "ack", "{a}");
    thought
}

async fn lag(db: Db) {
    let Some(s) = start_with(db, |c| {
        c.lag_cap = Duration::from_millis(1000);
        c.ping_every = Duration::from_millis(150);
    })
    .await
    else {
        return;
    };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "1"})).await;
    // The recv helper would answer pings at once: intercept them instead.
    w.ws.answer_pings = false;
    b.ws.answer_pings = false;
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    // White: a 500 ms round trip is credited. The margins leave room for
    // the frames' own way through a loaded machine, which no pong measures.
    let t = slow_move(
        &mut w,
        "Nf3",
        Duration::from_millis(1800),
        Duration::from_millis(500),
    )
    .await;
    let ev = b
        .wait_for(|v| v["t"] == "event" && v["event"] == "move" && v["plies"] == 3)
        .await;
    let left = ev["data"]["clock_ms"].as_u64().unwrap() as i64;
    let charged = 60_000 - left;
    let t = t.as_millis() as i64;
    assert!(
        charged <= t - 250,
        "charged {charged} ms for {t} ms of thought"
    );
    assert!(
        charged >= t - 560,
        "charged {charged} ms for {t} ms of thought"
    );
    // Black lies: pongs 2 s late. The credit stops at the 1 s cap.
    let t = slow_move(
        &mut b,
        "Nc6",
        Duration::from_millis(3500),
        Duration::from_millis(2000),
    )
    .await;
    let ev = w
        .wait_for(|v| v["t"] == "event" && v["event"] == "move" && v["plies"] == 4)
        .await;
    let left = ev["data"]["clock_ms"].as_u64().unwrap() as i64;
    let charged = 60_000 - left;
    let t = t.as_millis() as i64;
    assert!(
        charged >= t - 1020,
        "liar charged {charged} ms for {t} ms of thought"
    );
    assert!(
        charged <= t - 750,
        "liar charged {charged} ms for {t} ms of thought"
    );
}
both_dbs!(lag_is_credited_up_to_the_cap, lag);

/// The time the server takes to store a move is charged to nobody. Another
/// connection holds the game's row, so White's move waits a second to be
/// stored (PostgreSQL: the store's update of the row waits for the lock);
/// Black, told of the move only then, is not charged that second.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn storing_a_move_is_charged_to_nobody() {
    use sqlx::Connection;
    let Some(s) = start(Db::Postgres).await else {
        return;
    };
    let escaque_server::Database::Url(url) = &s.hub.config.database else {
        panic!("a PostgreSQL test server has a URL");
    };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "1"})).await;
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    let mut other = sqlx::PgConnection::connect(url).await.expect("postgres");
    let mut tx = other.begin().await.expect("begin");
    sqlx::query("SELECT id FROM games WHERE id = $1 FOR UPDATE")
        .bind(&w.game)
        .fetch_one(&mut *tx)
        .await
        .expect("the game's row, locked");
    let sent = Instant::now();
    w.ws.send(&json!({"t": "move", "move": "Nf3", "id": 1}))
        .await
        .expect("send");
    tokio::time::sleep(Duration::from_millis(1000)).await;
    tx.commit().await.expect("the lock let go");
    let a = w.wait_for(|v| v["t"] == "ack" || v["t"] == "error").await;
    assert_eq!(a["t"], "ack", "{a}");
    let held = sent.elapsed();
    assert!(held >= Duration::from_millis(1000), "stored in {held:?}");
    b.wait_for(|v| v["t"] == "event" && v["event"] == "move" && v["plies"] == 3)
        .await;
    let a = b.play("Nc6").await;
    assert_eq!(a["t"], "ack", "{a}");
    let ev = w
        .wait_for(|v| v["t"] == "event" && v["event"] == "move" && v["plies"] == 4)
        .await;
    let charged = 60_000 - ev["data"]["clock_ms"].as_u64().unwrap() as i64;
    assert!(
        charged < 400,
        "Black charged {charged} ms for a move stored in {held:?}"
    );
}
