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
        c.lag_cap = Duration::from_millis(500);
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
    // White: a 300 ms round trip is credited.
    let t = slow_move(
        &mut w,
        "Nf3",
        Duration::from_millis(1500),
        Duration::from_millis(300),
    )
    .await;
    let ev = b
        .wait_for(|v| v["t"] == "event" && v["event"] == "move" && v["plies"] == 3)
        .await;
    let left = ev["data"]["clock_ms"].as_u64().unwrap() as i64;
    let charged = 60_000 - left;
    let t = t.as_millis() as i64;
    assert!(
        charged <= t - 150,
        "charged {charged} ms for {t} ms of thought"
    );
    assert!(
        charged >= t - 560,
        "charged {charged} ms for {t} ms of thought"
    );
    // Black lies: pongs 1.2 s late. The credit stops at the 500 ms cap.
    let t = slow_move(
        &mut b,
        "Nc6",
        Duration::from_millis(2500),
        Duration::from_millis(1200),
    )
    .await;
    let ev = w
        .wait_for(|v| v["t"] == "event" && v["event"] == "move" && v["plies"] == 4)
        .await;
    let left = ev["data"]["clock_ms"].as_u64().unwrap() as i64;
    let charged = 60_000 - left;
    let t = t.as_millis() as i64;
    assert!(
        charged >= t - 520,
        "liar charged {charged} ms for {t} ms of thought"
    );
    assert!(
        charged <= t - 350,
        "liar charged {charged} ms for {t} ms of thought"
    );
}
both_dbs!(lag_is_credited_up_to_the_cap, lag);
