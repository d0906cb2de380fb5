//! Random frames thrown at a running server: every frame gets an answer or is
//! ignored, the connection keeps answering, and the server keeps serving.

use crate::common;

use std::sync::OnceLock;

use common::*;
use proptest::prelude::*;
use serde_json::{json, Value};
use tokio::runtime::Runtime;

struct Fixture {
    rt: Runtime,
    addr: std::net::SocketAddr,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let s = rt
            .block_on(start_with(Db::Sqlite, |c| {
                c.msgs_burst = 1e9;
                c.msgs_per_sec = 1e9;
            }))
            .unwrap();
        let addr = s.addr;
        std::mem::forget(s);
        Fixture { rt, addr }
    })
}

fn frame() -> impl Strategy<Value = String> {
    let types = prop::sample::select(vec![
        "move",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "claim_draw",
        "abort",
        "takeback",
        "takeback_answer",
        "rematch",
        "claim_abandoned",
        "pong",
        "state",
        "ping",
        "",
        "MOVE",
        "resignx",
    ]);
    let value = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        "[a-h][1-8][a-h][1-8][qrbndtac]?".prop_map(Value::from),
    ];
    prop_oneof![
        // Arbitrary text, including invalid JSON and control characters.
        ".{0,200}",
        // Objects with a known or near-known type and random fields.
        (types, prop::collection::vec(("[a-z_]{1,8}", value), 0..4)).prop_map(|(t, fields)| {
            let mut o = serde_json::Map::new();
            o.insert("t".into(), json!(t));
            for (k, v) in fields {
                o.insert(k, v);
            }
            Value::Object(o).to_string()
        }),
        // Long frames around the size limit.
        (4000usize..5000).prop_map(|n| format!(r#"{{"t":"move","move":"{}"}}"#, "a".repeat(n))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_frames_never_hurt(frames in prop::collection::vec(frame(), 1..12)) {
        let f = fixture();
        f.rt.block_on(async {
            let (mut w, mut b) = friend_game(f.addr, json!({"time_control": "5+0"})).await;
            for (i, fr) in frames.iter().enumerate() {
                let p = if i % 2 == 0 { &mut w } else { &mut b };
                p.ws.send_text(fr).await.expect("send");
                // The connection still answers.
                let st = p.state().await;
                assert_eq!(st["t"], "state");
                // A malformed frame's error, when there is one, is typed.
                for m in p.backlog.drain(..) {
                    if m["t"] == "error" {
                        assert!(m["code"].is_string() && m["es"].is_string() && m["en"].is_string(), "{m}");
                    }
                }
            }
            // The server still creates games and plays moves.
            let (mut w2, mut b2) = friend_game(f.addr, json!({})).await;
            play_line(&mut w2, &mut b2, &["e4", "e5"]).await;
        });
    }
}
