//! `escaque servir` killed with SIGKILL while twelve pupils hand in a
//! homework's attempts (issue 57), on SQLite and on PostgreSQL: started
//! again on the same data, every attempt the server acknowledged (`201`)
//! is there — the teacher's grid counts it, and it opens with the answers
//! the pupil sent — and the pupils finish the homework on the restarted
//! server.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use escaque::Color;
use escaque_play::aprender::coords::{Mode, Trainer};
use serde_json::{json, Value};

use crate::common::killed::{on_postgres, on_sqlite, request, sigkill, Data};
use crate::common::{unique_suffix, Client};

const PUPILS: usize = 12;
const ITEMS: usize = 6;

/// The right answers to a coordinates item (its seed and count).
fn answers(item: &Value) -> Vec<String> {
    let mut t = Trainer::new(
        Mode::Find,
        Color::White,
        item["seed"].as_u64().expect("seed"),
    );
    (0..item["count"].as_u64().expect("count"))
        .map(|_| {
            let sq = t.current();
            assert!(t.answer_square(sq));
            sq.to_string()
        })
        .collect()
}

/// Pupil `cookie` hands in item `idx`: the attempt's id, or `None` when
/// the server went away before it answered.
fn hand_in(addr: SocketAddr, path: &str, cookie: &str, item: &Value) -> Option<String> {
    let body = json!({"answers": answers(item), "time_ms": 4000, "hints": 0});
    let a = request(addr, "POST", path, Some(&body), Some(cookie))?;
    assert_eq!(a.status, 201, "{path}: {}", a.body);
    Some(a.body["attempt"].as_str().expect("attempt id").to_string())
}

fn kill_while_pupils_work(data: Data) {
    let (mut child, addr) = data.start(&["--docentes-libres"]);
    let mut teacher = Client::new(addr);
    teacher.post(
        "/api/signup",
        json!({"name": format!("Docente{}", unique_suffix().replace('_', "").chars().take(12).collect::<String>()), "password": "contraseña-larga"}),
    );
    let class = teacher.post(
        "/api/classes",
        json!({"name": "Tareas interrumpidas", "description": ""}),
    );
    let id = class["id"].as_str().expect("class id").to_string();
    let names: String = (1..=PUPILS).map(|i| format!("Alumno {i}\n")).collect();
    let added = teacher.post(&format!("/api/classes/{id}/pupils"), json!({"text": names}));
    let due = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
        + 86_400_000;
    let items: Vec<Value> = (0..ITEMS)
        .map(|i| json!({"kind": "coords", "mode": "buscar", "count": 3 + i}))
        .collect();
    let hw = teacher.post(
        &format!("/api/classes/{id}/tareas"),
        json!({"title": "Coordenadas", "due_ms": due, "items": items}),
    );
    let hw = hw["id"].as_str().expect("homework id").to_string();
    let pupils: Vec<(String, String)> = added["pupils"]
        .as_array()
        .expect("pupils")
        .iter()
        .map(|p| {
            let a = request(
                addr,
                "POST",
                "/api/login",
                Some(&json!({"name": p["name"], "password": p["password"]})),
                None,
            )
            .expect("login");
            assert_eq!(a.status, 200, "{}", a.body);
            (
                p["name"].as_str().unwrap().to_string(),
                a.cookie.expect("a session cookie"),
            )
        })
        .collect();
    let view = request(
        addr,
        "GET",
        &format!("/api/classes/{id}/tareas/{hw}"),
        None,
        Some(&pupils[0].1),
    )
    .expect("view")
    .body;
    let shown: Vec<Value> = view["items"].as_array().expect("items").clone();
    assert_eq!(shown.len(), ITEMS);

    // Every pupil at once, item after item; killed once 25 attempts are
    // acknowledged, while the others are being sent.
    let acked = Arc::new(Mutex::new(Vec::<(usize, usize, String)>::new()));
    let threads: Vec<_> = pupils
        .iter()
        .enumerate()
        .map(|(pi, (_, cookie))| {
            let (acked, cookie, shown) = (Arc::clone(&acked), cookie.clone(), shown.clone());
            let base = format!("/api/classes/{id}/tareas/{hw}/items");
            std::thread::spawn(move || {
                for (ii, item) in shown.iter().enumerate() {
                    match hand_in(addr, &format!("{base}/{ii}/intentos"), &cookie, item) {
                        Some(a) => acked.lock().unwrap().push((pi, ii, a)),
                        None => return,
                    }
                }
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    while acked.lock().unwrap().len() < 25 {
        assert!(
            Instant::now() < deadline,
            "25 attempts acknowledged in time"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    sigkill(&mut child);
    for t in threads {
        t.join().unwrap();
    }
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.len() >= 25 && acked.len() < PUPILS * ITEMS,
        "killed in the middle: {} acknowledged",
        acked.len()
    );

    let (mut child, addr) = data.start(&["--docentes-libres"]);
    teacher.addr = addr;
    let grid = teacher.get(&format!("/api/classes/{id}/tareas/{hw}/grid"));
    let rows = grid["pupils"].as_array().expect("rows");
    let cell = |pi: usize, ii: usize| -> Value {
        rows.iter()
            .find(|r| r["name"] == pupils[pi].0.as_str())
            .unwrap_or_else(|| panic!("no row for {}", pupils[pi].0))["cells"][ii]
            .clone()
    };
    for (pi, ii, att) in &acked {
        // Every acknowledged attempt survived, counted once, and opens.
        let c = cell(*pi, *ii);
        assert_eq!(c["state"], "first_try", "pupil {pi} item {ii}: {c}");
        assert_eq!(c["attempt"], att.as_str(), "pupil {pi} item {ii}: {c}");
        assert_eq!(c["attempts"], 1, "pupil {pi} item {ii}: {c}");
        let a = teacher.get(&format!("/api/classes/{id}/tareas/{hw}/intentos/{att}"));
        assert_eq!(a["answers"], json!(answers(&shown[*ii])), "{a}");
        assert_eq!(a["solved"], true);
    }
    // The pupils finish on the restarted server: what was not acknowledged
    // is sent again (an attempt stored before the kill but never answered
    // stays the one that counts).
    for (pi, (_, cookie)) in pupils.iter().enumerate() {
        for (ii, item) in shown.iter().enumerate() {
            if acked.iter().any(|(p, i, _)| *p == pi && *i == ii) {
                continue;
            }
            let path = format!("/api/classes/{id}/tareas/{hw}/items/{ii}/intentos");
            hand_in(addr, &path, cookie, item).expect("the restarted server answers");
        }
    }
    let grid = teacher.get(&format!("/api/classes/{id}/tareas/{hw}/grid"));
    for r in grid["pupils"].as_array().expect("rows") {
        assert_eq!(r["average"], 100, "{r}");
    }
    for it in grid["items"].as_array().expect("items") {
        assert_eq!(it["average"], 100, "{it}");
    }
    sigkill(&mut child);
}

#[test]
fn acknowledged_attempts_survive_sigkill_sqlite() {
    on_sqlite("tareas-kill", kill_while_pupils_work);
}

#[test]
fn acknowledged_attempts_survive_sigkill_postgres() {
    on_postgres(kill_while_pupils_work);
}
