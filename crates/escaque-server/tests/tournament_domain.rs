//! One accepted request must never make a tournament unreadable (issue 63):
//! a forbidden pairing up to round 2000 on a three-round event once answered
//! 200 and left every route of that tournament answering 500. Each value is
//! now checked against its domain where it enters (the tournament crate's
//! `domain`, shared with the command line) and every TRF stored is read
//! back first. A property test per route: an accepted request leaves a
//! tournament that reads, prints and exports; a refused one leaves its
//! stored TRF byte for byte as it was.

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
        let rt = runtime();
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

/// A three-round Swiss with six players, round 1 paired: its id.
async fn three_rounds(org: &mut Browser) -> String {
    let r = org
        .post(
            "/api/tournaments",
            json!({"name": "Dominio", "system": "dutch", "rounds": 3}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let r = org
        .post(
            &format!("/api/tournaments/{id}/players/import"),
            json!({"format": "list", "text": "Ana\nLuis\nEva\nPablo\nSara\nTeo"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = org
        .post(&format!("/api/tournaments/{id}/rounds"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    id
}

async fn stored_trf(org: &mut Browser, id: &str) -> String {
    let r = org
        .req("GET", &format!("/api/tournaments/{id}/trf"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

/// Every view of the tournament answers.
async fn readable(org: &mut Browser, id: &str) {
    let v = org
        .req("GET", &format!("/api/tournaments/{id}"), None)
        .await;
    assert_eq!(v.status, 200, "{}", v.body);
    let rounds = v.json()["rounds"].as_array().map_or(0, Vec::len);
    let mut paths = vec![
        "/trf".to_string(),
        "/pgn".to_string(),
        "/print/standings".to_string(),
        "/print/crosstable".to_string(),
        "/print/categories".to_string(),
        "/print/teams".to_string(),
        "/pdf/standings".to_string(),
    ];
    for r in 1..=rounds {
        paths.push(format!("/rounds/{r}/print"));
        paths.push(format!("/rounds/{r}/pdf"));
    }
    for p in paths {
        let r = org
            .req("GET", &format!("/api/tournaments/{id}{p}"), None)
            .await;
        assert_eq!(r.status, 200, "{p}: {}", r.body);
    }
}

#[test]
fn a_forbidden_pairing_up_to_round_2000_is_refused_and_the_event_still_reads() {
    let f = fixture();
    f.rt.block_on(async {
        let mut org = Browser::new(f.addr);
        let id = three_rounds(&mut org).await;
        let before = stored_trf(&mut org, &id).await;
        let r = org
            .post(
                &format!("/api/tournaments/{id}/forbidden"),
                json!({"players": [1, 2], "from_round": 2, "to_round": 2000}),
            )
            .await;
        assert!((400..500).contains(&r.status), "{} {}", r.status, r.body);
        let e = r.json();
        assert_eq!(e["code"], "bad_field", "{e}");
        assert!(e["es"].as_str().unwrap().contains("2000"), "{e}");
        assert!(e["en"].as_str().unwrap().contains("2–3"), "{e}");
        assert_eq!(stored_trf(&mut org, &id).await, before);
        readable(&mut org, &id).await;
        // The same players, within the rounds: accepted.
        let r = org
            .post(
                &format!("/api/tournaments/{id}/forbidden"),
                json!({"players": [1, 2], "from_round": 2, "to_round": 3}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        readable(&mut org, &id).await;
        // Players whose values are wider than their columns: refused.
        for (path, body) in [
            ("players", json!({"name": "Ana María", "rating": 10000})),
            (
                "players",
                json!({"name": "Ana María", "fide_id": 123456789012u64}),
            ),
            ("players", json!({"name": "x".repeat(34)})),
            ("players/2", json!({"rating": 3501})),
            ("players/2", json!({"name": "y".repeat(40)})),
            ("players/3/withdraw", json!({"from_round": 1000})),
            ("players/4/bye", json!({"round": 1000, "kind": "half"})),
        ] {
            let before = stored_trf(&mut org, &id).await;
            let r = org
                .post(&format!("/api/tournaments/{id}/{path}"), body.clone())
                .await;
            assert!(
                (400..500).contains(&r.status),
                "{path} {body}: {} {}",
                r.status,
                r.body
            );
            assert_eq!(stored_trf(&mut org, &id).await, before, "{path} {body}");
        }
        readable(&mut org, &id).await;
    });
}

fn edge_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u64..8).prop_map(Value::from),
        prop::sample::select(vec![
            999u64,
            1000,
            2000,
            3500,
            3501,
            9999,
            10_000,
            65_535,
            65_536,
            99_999_999_999,
            123_456_789_012,
            4_294_967_296,
        ])
        .prop_map(Value::from),
        Just(json!(-1)),
    ]
}

fn edge_text() -> impl Strategy<Value = Value> {
    prop_oneof![
        "[A-Za-zñ ]{1,12}".prop_map(Value::from),
        (30usize..42).prop_map(|n| Value::from("ñ".repeat(n))),
        (55usize..70).prop_map(|n| Value::from("c".repeat(n))),
        Just(json!("a\nb")),
    ]
}

/// One request to a route that changes a tournament.
fn request() -> impl Strategy<Value = (String, Value)> {
    let player = 0u32..8;
    prop_oneof![
        (
            edge_text(),
            prop::option::of(edge_number()),
            prop::option::of(edge_number()),
            edge_text()
        )
            .prop_map(|(name, rating, fide, club)| {
                let mut b = json!({"name": name, "club": club});
                if let Some(r) = rating {
                    b["rating"] = r;
                }
                if let Some(x) = fide {
                    b["fide_id"] = x;
                }
                ("players".to_string(), b)
            }),
        (edge_text(), edge_text()).prop_map(|(a, b)| {
            let text = format!("{}\n{}", a.as_str().unwrap_or(""), b.as_str().unwrap_or(""));
            (
                "players/import".to_string(),
                json!({"format": "list", "text": text}),
            )
        }),
        (
            player.clone(),
            edge_text(),
            prop::option::of(edge_number()),
            prop::option::of(edge_number())
        )
            .prop_map(|(n, name, rating, born)| {
                let mut b = json!({"name": name});
                if let Some(r) = rating {
                    b["rating"] = r;
                }
                if let Some(y) = born {
                    b["birth_year"] = y;
                }
                (format!("players/{n}"), b)
            }),
        (player.clone(), prop::option::of(edge_number())).prop_map(|(n, from)| {
            let b = match from {
                Some(r) => json!({"from_round": r}),
                None => json!({}),
            };
            (format!("players/{n}/withdraw"), b)
        }),
        (
            player.clone(),
            edge_number(),
            prop::sample::select(vec!["half", "zero", "full"])
        )
            .prop_map(|(n, round, kind)| (
                format!("players/{n}/bye"),
                json!({"round": round, "kind": kind})
            )),
        (
            prop::collection::vec(player.clone(), 0..4),
            prop::option::of(edge_number()),
            prop::option::of(edge_number())
        )
            .prop_map(|(players, from, to)| {
                let mut b = json!({"players": players});
                if let Some(r) = from {
                    b["from_round"] = r;
                }
                if let Some(r) = to {
                    b["to_round"] = r;
                }
                ("forbidden".to_string(), b)
            }),
        Just(("rounds".to_string(), json!({}))),
        (
            1u32..4,
            1u32..5,
            prop::sample::select(vec!["1-0", "0-1", "½-½", "+/-", "-/+", "-/-", "*"])
        )
            .prop_map(|(r, b, res)| (
                format!("rounds/{r}/boards/{b}/result"),
                json!({"result": res})
            )),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Any sequence of requests to the routes that change a tournament:
    /// accepted, every view of it answers; refused (4xx, typed), its stored
    /// TRF is byte for byte as it was; never a server fault.
    #[test]
    fn every_tournament_route_keeps_the_event_readable(requests in prop::collection::vec(request(), 1..8)) {
        let f = fixture();
        f.rt.block_on(async {
            let mut org = Browser::new(f.addr);
            let id = three_rounds(&mut org).await;
            for (path, body) in &requests {
                let before = stored_trf(&mut org, &id).await;
                let r = org.post(&format!("/api/tournaments/{id}/{path}"), body.clone()).await;
                assert!(r.status < 500 && r.status != 0, "{path} {body}: {} {}", r.status, r.body);
                if r.status >= 400 {
                    let e = r.json();
                    assert!(e["code"].is_string() && e["es"].is_string() && e["en"].is_string(), "{e}");
                    assert_eq!(stored_trf(&mut org, &id).await, before, "{path} {body} refused but changed");
                } else {
                    readable(&mut org, &id).await;
                }
            }
        });
    }
}
