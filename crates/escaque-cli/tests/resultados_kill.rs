//! `escaque servir` killed with SIGKILL while phones enter an
//! over-the-board round's results from the boards' QR codes (issue 59), on
//! SQLite and on PostgreSQL: started again on the same data, every result
//! a phone was told was confirmed is in the standings, no board holds a
//! result both players did not give, and the phones finish the round.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::killed::{on_postgres, on_sqlite, request, sigkill, Data};
use crate::common::Client;
use serde_json::{json, Value};

/// A phone's `POST`: the status and body, `None` when the server is gone
/// (killed) before it answered.
fn phone_post(addr: SocketAddr, path: &str, body: &Value) -> Option<(u16, Value)> {
    request(addr, "POST", path, Some(body), None).map(|a| (a.status, a.body))
}

fn result_of(n: u64) -> &'static str {
    ["1-0", "0-1", "½-½"][(n % 3) as usize]
}

/// Both phones of board `n`: White enters, Black confirms. True when the
/// server answered that the result is confirmed.
fn both_phones(addr: SocketAddr, id: &str, code: &str, n: u64) -> bool {
    let path = format!("/api/resultados/{code}");
    let mut confirmed = false;
    for side in ["white", "black"] {
        let body =
            json!({"tournament": id, "round": 1, "board": n, "side": side, "result": result_of(n)});
        match phone_post(addr, &path, &body) {
            Some((200, v)) => confirmed = v["state"] == "confirmed",
            Some((status, v)) => panic!("board {n} {side}: {status} {v}"),
            None => return false,
        }
    }
    confirmed
}

fn kill_while_phones_enter(data: Data) {
    let (mut child, addr) = data.start(&[]);
    let mut org = Client::new(addr);
    let created = org.post(
        "/api/tournaments",
        json!({"name": "Resultados interrumpidos", "system": "dutch", "rounds": 2, "mode": "otb"}),
    );
    let id = created["id"].as_str().expect("id").to_string();
    let mut csv = String::from("nombre\n");
    for i in 0..80 {
        csv.push_str(&format!("Jugadora {i:02}\n"));
    }
    org.post(
        &format!("/api/tournaments/{id}/players/import"),
        json!({"format": "csv", "text": csv}),
    );
    org.post(&format!("/api/tournaments/{id}/rounds"), json!({}));
    let list = org.get(&format!("/api/tournaments/{id}/resultados/1"));
    let codes: Vec<(u64, String)> = list["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["board"].as_u64().unwrap(),
                b["code"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(codes.len(), 40);

    // Four phones' pairs at once, board after board; the server killed
    // once 12 results are confirmed, while the others are being sent.
    let acked = Arc::new(Mutex::new(Vec::<u64>::new()));
    let queue = Arc::new(Mutex::new(codes.clone()));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let (acked, queue, id) = (Arc::clone(&acked), Arc::clone(&queue), id.clone());
            std::thread::spawn(move || loop {
                let Some((n, code)) = queue.lock().unwrap().pop() else {
                    return;
                };
                if both_phones(addr, &id, &code, n) {
                    acked.lock().unwrap().push(n);
                } else {
                    return;
                }
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    while acked.lock().unwrap().len() < 12 {
        assert!(Instant::now() < deadline, "12 results confirmed in time");
        std::thread::sleep(Duration::from_millis(2));
    }
    sigkill(&mut child);
    for t in threads {
        t.join().unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(acked.len() >= 12 && acked.len() < 40, "{acked:?}");

    let (mut child, addr) = data.start(&[]);
    org.addr = addr;
    let v = org.get(&format!("/api/tournaments/{id}"));
    let list = org.get(&format!("/api/tournaments/{id}/resultados/1"));
    let mut in_standings = 0;
    for b in v["rounds"][0]["boards"].as_array().unwrap() {
        let n = b["board"].as_u64().unwrap();
        let entry = list["boards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["board"] == n)
            .unwrap();
        if acked.contains(&n) {
            // Every confirmation a phone was told of survived.
            assert_eq!(b["result"], result_of(n), "board {n}: {v}");
        }
        if b["result"].is_null() {
            assert_ne!(entry["state"], "confirmed", "board {n}: {entry}");
        } else {
            // A result in the standings is one both phones gave.
            in_standings += 1;
            assert_eq!(entry["state"], "confirmed", "board {n}: {entry}");
            assert_eq!(entry["white_claim"], b["result"]);
            assert_eq!(entry["black_claim"], b["result"]);
        }
    }
    assert!(in_standings >= acked.len());
    // The phones finish the round on the restarted server (a phone whose
    // claim was lost with the kill sends it again).
    for (n, code) in &codes {
        assert!(both_phones(addr, &id, code, *n), "board {n}");
    }
    let v = org.get(&format!("/api/tournaments/{id}"));
    assert_eq!(v["round_complete"], true, "{v}");
    // The standings count the round now that it is complete: a point a board.
    let points: f64 = v["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_f64().unwrap())
        .sum();
    assert_eq!(points, 40.0);
    sigkill(&mut child);
}

#[test]
fn confirmed_results_survive_sigkill_sqlite() {
    on_sqlite("resultados-kill", kill_while_phones_enter);
}

#[test]
fn confirmed_results_survive_sigkill_postgres() {
    on_postgres(kill_while_phones_enter);
}
