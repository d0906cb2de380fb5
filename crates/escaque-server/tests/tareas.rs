//! Tareas (issue 57): a 10-item homework done by 30 scripted pupils with a
//! mix of results — the grid equals what each did, cell by cell, the CSV
//! equals the grid, the PDF renders (pdftoppm); the judge refuses what is
//! not a finished attempt; the authorization matrix: a pupil of another
//! class, another teacher, a guest, a revoked parent link and a parent link
//! of another pupil are refused on every homework endpoint and change
//! nothing.

use std::net::SocketAddr;
use std::process::Command;

use escaque::{Color, Square};
use escaque_play::aprender::coords::{Mode, Trainer};
use escaque_play::aprender::{Course, Goal};
use escaque_server::tareas::library;
use serde_json::{json, Value};

use crate::common::*;

fn code_of(r: &escaque_server::client::HttpReply) -> String {
    r.json()["code"].as_str().unwrap_or("").to_string()
}

/// What a scripted pupil does with one item.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Act {
    /// Solves it without a mistake or a hint.
    Clean,
    /// Solves it after a hint.
    Hinted,
    /// Fails it.
    Fail,
    /// Leaves it.
    Skip,
    /// Fails it, then solves it cleanly in a second attempt.
    FailThenSolve,
}

pub(crate) fn act_for(pupil: usize, item: usize) -> Act {
    // Uneven on purpose: pupils' averages run from 25 to 55 and items'
    // from 30 to 60, so a wrong average per pupil or per item shows.
    match (pupil * pupil + item * (pupil % 3 + 1) + item / 4) % 5 {
        0 => Act::Clean,
        1 => Act::Hinted,
        2 => Act::Fail,
        3 => Act::Skip,
        _ => Act::FailThenSolve,
    }
}

/// The cell the grid must show for `act` (a second try counts).
pub(crate) fn expected(act: Act) -> &'static str {
    match act {
        Act::Clean => "first_try",
        Act::Hinted | Act::FailThenSolve => "after_help",
        Act::Fail => "failed",
        Act::Skip => "not_done",
    }
}

pub(crate) fn score(state: &str) -> u32 {
    match state {
        "first_try" => 100,
        "after_help" => 50,
        _ => 0,
    }
}

pub(crate) fn mean(v: &[u32]) -> u32 {
    if v.is_empty() {
        return 0;
    }
    let n = v.len() as u32;
    (v.iter().sum::<u32>() + n / 2) / n
}

/// The tries that solve exercise `e` of stage `tablero` (a square or a
/// right option), with a wrong one first when `mistake`.
pub(crate) fn stage_tries(stage: &str, mistake: bool) -> Value {
    let course = Course::builtin().unwrap();
    let st = course.stage(stage).unwrap();
    let mut out = Vec::new();
    for ex in &st.exercises {
        let mut tries = Vec::new();
        match &ex.goal {
            Goal::Square(sq) => {
                if mistake {
                    let wrong = if *sq == Square::A1 { "h8" } else { "a1" };
                    tries.push(json!({"t": "square", "sq": wrong}));
                }
                tries.push(json!({"t": "square", "sq": sq.to_string()}));
            }
            _ => {
                let right = ex.right_options();
                assert!(!right.is_empty(), "{stage}: an exercise without options");
                if mistake {
                    let wrong = (0..ex.options().len())
                        .find(|i| !right.contains(i))
                        .unwrap();
                    tries.push(json!({"t": "choice", "n": wrong}));
                }
                tries.push(json!({"t": "choice", "n": right[0]}));
            }
        }
        out.push(Value::Array(tries));
    }
    Value::Array(out)
}

/// The answers to coordinates item `item` (its seed and count): right
/// ones, or one wrong then stop when `fail`.
pub(crate) fn coords_answers(item: &Value, fail: bool) -> Value {
    let mode = Mode::from_id(item["reference"].as_str().unwrap()).unwrap();
    let count = item["count"].as_u64().unwrap() as u32;
    let seed = item["seed"].as_u64().unwrap();
    let t = Trainer::new(mode, Color::White, seed);
    let mut out = Vec::new();
    let mut t2 = t.clone();
    if fail {
        let right = t2.current();
        let wrong = if right == Square::A1 { "h8" } else { "a1" };
        return json!([wrong]);
    }
    for _ in 0..count {
        let sq = t2.current();
        out.push(json!(sq.to_string()));
        assert!(t2.answer_square(sq));
    }
    Value::Array(out)
}

/// The body of an attempt at `item` (as the pupil's view shows it).
pub(crate) fn work(item: &Value, solve: bool, hints: u32) -> Value {
    match item["kind"].as_str().unwrap() {
        "puzzle" => {
            let p = library()
                .puzzle(item["reference"].as_str().unwrap())
                .unwrap();
            let moves: Vec<String> = if solve {
                p.solution().map(|m| m.to_string()).collect()
            } else {
                let shown = p.shown_position();
                let wrong = shown
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|&m| !p.accepts(1, m))
                    .unwrap();
                vec![wrong.to_string()]
            };
            json!({"moves": moves, "time_ms": 12_000, "hints": hints})
        }
        "stage" => {
            let stage = item["reference"].as_str().unwrap();
            let tries = if solve {
                stage_tries(stage, false)
            } else {
                // Only the first exercise: not the whole stage.
                let all = stage_tries(stage, false);
                json!([all[0].clone()])
            };
            json!({"tries": tries, "time_ms": 60_000, "hints": hints})
        }
        "coords" => {
            json!({"answers": coords_answers(item, !solve), "time_ms": 9_000, "hints": hints})
        }
        k => panic!("no scripted work for {k}"),
    }
}

fn ten_items() -> Value {
    let first = library()
        .puzzles
        .iter()
        .find(|p| p.moves.len() >= 4)
        .unwrap()
        .id
        .clone();
    json!([
        {"kind": "puzzle", "id": first},
        {"kind": "puzzles", "count": 5},
        {"kind": "puzzles", "theme": "mateIn1", "count": 1},
        {"kind": "stage", "stage": "tablero"},
        {"kind": "coords", "mode": "buscar", "count": 4},
        {"kind": "coords", "mode": "buscar", "count": 8},
    ])
}

pub(crate) async fn post_attempt(
    web: &mut Browser,
    class: &str,
    hw: &str,
    idx: usize,
    body: Value,
) -> Value {
    let r = web
        .post(
            &format!("/api/classes/{class}/tareas/{hw}/items/{idx}/intentos"),
            body,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}

async fn grid_equals_what_pupils_did(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 30).await;
    let due = escaque_server::store::now_ms() + 86_400_000;
    let r = c
        .teacher
        .post(
            &format!("/api/classes/{}/tareas", c.id),
            json!({"title": "Semana 1: mates y casillas", "due_ms": due, "retry": true,
                   "items": ten_items()}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let hw = r.json()["id"].as_str().unwrap().to_string();
    assert_eq!(r.json()["items"], 10);
    // Every pupil sees it with 10 items left.
    let list = c.pupils[0]
        .web
        .req("GET", &format!("/api/classes/{}/tareas", c.id), None)
        .await
        .json();
    assert_eq!(list["role"], "pupil");
    assert_eq!(list["homework"][0]["left"], 10, "{list}");
    let view = c.pupils[0]
        .web
        .req("GET", &format!("/api/classes/{}/tareas/{hw}", c.id), None)
        .await
        .json();
    let items = view["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 10);
    let mut expected_cells: Vec<Vec<&str>> = Vec::new();
    for (pi, p) in c.pupils.iter_mut().enumerate() {
        let mut row = Vec::new();
        // Items in any order: backwards for odd pupils.
        let order: Vec<usize> = if pi % 2 == 1 {
            (0..items.len()).rev().collect()
        } else {
            (0..items.len()).collect()
        };
        for &ii in &order {
            let act = act_for(pi, ii);
            let item = &items[ii];
            match act {
                Act::Clean => {
                    let a = post_attempt(&mut p.web, &c.id, &hw, ii, work(item, true, 0)).await;
                    assert_eq!(
                        (a["solved"].clone(), a["clean"].clone()),
                        (json!(true), json!(true)),
                        "{a}"
                    );
                }
                Act::Hinted => {
                    let a = post_attempt(&mut p.web, &c.id, &hw, ii, work(item, true, 1)).await;
                    assert_eq!(a["state"], "after_help", "{a}");
                }
                Act::Fail => {
                    let a = post_attempt(&mut p.web, &c.id, &hw, ii, work(item, false, 0)).await;
                    assert_eq!(a["solved"], false, "{a}");
                }
                Act::Skip => {}
                Act::FailThenSolve => {
                    post_attempt(&mut p.web, &c.id, &hw, ii, work(item, false, 0)).await;
                    let a = post_attempt(&mut p.web, &c.id, &hw, ii, work(item, true, 0)).await;
                    assert_eq!(
                        (a["counts"].clone(), a["state"].clone()),
                        (json!(true), json!("after_help")),
                        "{a}"
                    );
                }
            }
        }
        for ii in 0..items.len() {
            row.push(expected(act_for(pi, ii)));
        }
        expected_cells.push(row);
    }
    let g = c
        .teacher
        .req(
            "GET",
            &format!("/api/classes/{}/tareas/{hw}/grid", c.id),
            None,
        )
        .await;
    assert_eq!(g.status, 200, "{}", g.body);
    let g = g.json();
    let rows = g["pupils"].as_array().unwrap();
    assert_eq!(rows.len(), 30);
    let mut item_scores: Vec<Vec<u32>> = vec![Vec::new(); 10];
    for (pi, p) in c.pupils.iter().enumerate() {
        let row = rows
            .iter()
            .find(|r| r["name"] == p.name.as_str())
            .unwrap_or_else(|| panic!("no row for {}", p.name));
        assert_eq!(row["real_name"], p.real_name.as_str());
        let cells = row["cells"].as_array().unwrap();
        let mut scores = Vec::new();
        for (ii, cell) in cells.iter().enumerate() {
            let want = expected_cells[pi][ii];
            assert_eq!(cell["state"], want, "pupil {pi} item {ii}: {cell}");
            assert_eq!(cell["overdue"], false);
            assert_eq!(cell["attempt"].is_null(), want == "not_done", "{cell}");
            scores.push(score(want));
            item_scores[ii].push(score(want));
        }
        assert_eq!(row["average"], mean(&scores), "pupil {pi}");
    }
    for (ii, it) in g["items"].as_array().unwrap().iter().enumerate() {
        assert_eq!(it["average"], mean(&item_scores[ii]), "item {ii}");
    }
    // A cell opens the attempt move by move.
    let solved_puzzle = rows
        .iter()
        .flat_map(|r| r["cells"].as_array().unwrap()[0..1].to_vec())
        .find(|c| c["state"] == "first_try")
        .expect("a puzzle solved first try");
    let a = c
        .teacher
        .req(
            "GET",
            &format!(
                "/api/classes/{}/tareas/{hw}/intentos/{}",
                c.id,
                solved_puzzle["attempt"].as_str().unwrap()
            ),
            None,
        )
        .await
        .json();
    let p = library()
        .puzzle(items[0]["reference"].as_str().unwrap())
        .unwrap();
    assert_eq!(a["moves"].as_array().unwrap().len(), p.moves.len(), "{a}");
    assert_eq!(a["san"].as_array().unwrap().len(), p.moves.len(), "{a}");
    assert_eq!(a["fen"], p.start.to_fen().as_str());
    assert_eq!(a["solved"], true);
    // The CSV equals the grid.
    let csv = c
        .teacher
        .req(
            "GET",
            &format!("/api/classes/{}/tareas/{hw}/grid.csv", c.id),
            None,
        )
        .await;
    assert_eq!(csv.status, 200);
    let lines: Vec<&str> = csv.body.lines().collect();
    assert_eq!(lines.len(), 32, "{}", csv.body);
    assert!(
        lines[0].starts_with("Alumno,Nombre,1. Problema"),
        "{}",
        lines[0]
    );
    for (li, row) in rows.iter().enumerate() {
        let f: Vec<&str> = lines[li + 1].split(',').collect();
        assert_eq!(f[0], row["name"].as_str().unwrap());
        assert_eq!(f[1], row["real_name"].as_str().unwrap());
        for (ii, cell) in row["cells"].as_array().unwrap().iter().enumerate() {
            let word = match cell["state"].as_str().unwrap() {
                "first_try" => "primera",
                "after_help" => "con ayuda",
                "failed" => "fallada",
                _ => "sin hacer",
            };
            assert_eq!(f[2 + ii], word, "csv line {li} item {ii}");
        }
        assert_eq!(f[12], row["average"].to_string());
    }
    let last: Vec<&str> = lines[31].split(',').collect();
    for (ii, it) in g["items"].as_array().unwrap().iter().enumerate() {
        assert_eq!(last[2 + ii], it["average"].to_string());
    }
    // The PDF renders.
    let pdf = escaque_server::client::http_raw(
        s.addr,
        &s.addr.to_string(),
        "GET",
        &format!("/api/classes/{}/tareas/{hw}/grid.pdf", c.id),
        None,
        &[("Cookie", &c.teacher.cookies.join("; "))],
    )
    .await
    .expect("pdf");
    assert_eq!(pdf.status, 200);
    assert!(pdf.body.starts_with(b"%PDF-1.4"));
    let text = String::from_utf8_lossy(&pdf.body);
    assert!(
        text.contains("(Tarea: Semana 1: mates y casillas) Tj"),
        "title"
    );
    for p in &c.pupils {
        assert!(text.contains(&p.name), "{} on the sheet", p.name);
    }
    if db == Db::Sqlite {
        render_pdf(&pdf.body, "tareas-grid");
    }
    // The pupil's own view: what is left.
    let v = c.pupils[0]
        .web
        .req("GET", &format!("/api/classes/{}/tareas/{hw}", c.id), None)
        .await
        .json();
    let left = expected_cells[0]
        .iter()
        .filter(|s| **s == "not_done" || **s == "failed")
        .count();
    assert_eq!(v["left"], left, "{v}");
}

both_dbs!(grid_equals_pupils, grid_equals_what_pupils_did);

/// Prints `pdf` with pdftoppm into target/screenshots/`name`-N.png.
pub(crate) fn render_pdf(pdf: &[u8], name: &str) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.pdf"));
    std::fs::write(&file, pdf).unwrap();
    let Ok(out) = Command::new("pdftoppm")
        .args(["-png", "-r", "70"])
        .arg(&file)
        .arg(dir.join(name))
        .output()
    else {
        eprintln!("pdftoppm is missing (scripts/poppler.sh): the grid's PDF was not printed");
        return;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = dir.join(format!("{name}-1.png"));
    assert!(page.exists(), "{page:?}");
}

async fn judging_and_refusals(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 2).await;
    let base = format!("/api/classes/{}/tareas", c.id);
    // Bad homework bodies.
    for (body, code) in [
        (
            json!({"title": "", "due_ms": 1, "items": [{"kind": "stage", "stage": "torre"}]}),
            "bad_title",
        ),
        (
            json!({"title": "x", "due_ms": 0, "items": [{"kind": "stage", "stage": "torre"}]}),
            "bad_due",
        ),
        (json!({"title": "x", "due_ms": 1, "items": []}), "bad_items"),
        (
            json!({"title": "x", "due_ms": 1, "items": [{"kind": "stage", "stage": "nada"}]}),
            "bad_item",
        ),
        (
            json!({"title": "x", "due_ms": 1, "items": [{"kind": "puzzle", "id": "zzzzzzzz"}]}),
            "bad_item",
        ),
        (
            json!({"title": "x", "due_ms": 1, "items": [{"kind": "puzzles", "theme": "noSuchTheme", "count": 2}]}),
            "bad_item",
        ),
        (
            json!({"title": "x", "due_ms": 1, "items": [{"kind": "puzzles", "min_rating": 5000, "count": 2}]}),
            "bad_item",
        ),
        (
            json!({"title": "x", "due_ms": 1, "items": [{"kind": "coords", "mode": "bailar", "count": 2}]}),
            "bad_item",
        ),
        (
            json!({"title": "x", "due_ms": 1, "items": [{"kind": "engine_game", "level": 11, "goal": "tablas"}]}),
            "bad_item",
        ),
        (
            json!({"title": "x", "due_ms": 1, "items": [{"kind": "position", "fen": "8/8/8", "level": 1, "goal": "gana"}]}),
            "bad_item",
        ),
        (
            json!({"title": "x", "due_ms": 1, "items": [{"kind": "stage", "stage": "torre"}], "pupils": ["nadie"]}),
            "pupil_not_found",
        ),
    ] {
        let r = c.teacher.post(&base, body.clone()).await;
        assert!(r.status == 400 || r.status == 404, "{body}: {}", r.body);
        assert_eq!(code_of(&r), code, "{body}: {}", r.body);
    }
    // Due yesterday, only for pupil 0, no second try.
    let due = escaque_server::store::now_ms() - 86_400_000;
    let r = c
        .teacher
        .post(
            &base,
            json!({"title": "Atrasada", "due_ms": due, "pupils": [c.pupils[0].name],
                   "items": [{"kind": "stage", "stage": "tablero"},
                             {"kind": "position", "fen": "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", "level": 1, "goal": "gana"},
                             {"kind": "engine_game", "level": 2, "goal": "tablas"}]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let hw = r.json()["id"].as_str().unwrap().to_string();
    // Pupil 1 does not see it.
    let l = c.pupils[1].web.req("GET", &base, None).await.json();
    assert_eq!(l["homework"].as_array().unwrap().len(), 0, "{l}");
    let r = c.pupils[1]
        .web
        .req("GET", &format!("{base}/{hw}"), None)
        .await;
    assert_eq!((r.status, code_of(&r)), (404, "homework_not_found".into()));
    // A teacher does not hand in attempts.
    let r = c
        .teacher
        .post(
            &format!("{base}/{hw}/items/0/intentos"),
            json!({"tries": []}),
        )
        .await;
    assert_eq!((r.status, code_of(&r)), (403, "pupils_only".into()));
    let p = &mut c.pupils[0].web;
    for (idx, body, code) in [
        ("9", json!({"tries": []}), "item_not_found"),
        ("x", json!({"tries": []}), "item_not_found"),
        ("0", json!({"moves": ["e2e4"]}), "bad_attempt"),
        (
            "0",
            json!({"tries": [[{"t": "square", "sq": "z9"}]]}),
            "bad_attempt",
        ),
        (
            "0",
            json!({"tries": [[{"t": "move", "from": "a1", "to": "a2", "promotion": "Q"}]]}),
            "bad_attempt",
        ),
        (
            "0",
            json!({"tries": [[], [], [], [], [], [], [], [], [], [], [], []]}),
            "bad_attempt",
        ),
        ("1", json!({"game": "nonexistent"}), "bad_attempt"),
        ("0", json!({"tries": [], "extra": 1}), "bad_body"),
    ] {
        let r = p
            .post(&format!("{base}/{hw}/items/{idx}/intentos"), body.clone())
            .await;
        assert!(
            r.status == 400 || r.status == 404 || r.status == 422,
            "{body}: {}",
            r.body
        );
        if code != "bad_body" {
            assert_eq!(code_of(&r), code, "{body}: {}", r.body);
        }
    }
    // Nothing was stored by the refusals: every item still to do.
    let v = p.req("GET", &format!("{base}/{hw}"), None).await.json();
    assert_eq!(v["left"], 3, "{v}");
    assert!(v["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i["attempts"] == 0));
    // A late attempt counts, marked overdue; without a second try the
    // later one does not count.
    let a = post_attempt(
        p,
        &c.id,
        &hw,
        0,
        json!({"tries": stage_tries("tablero", true)}),
    )
    .await;
    assert_eq!(
        (a["solved"].clone(), a["clean"].clone(), a["state"].clone()),
        (json!(true), json!(false), json!("after_help")),
        "{a}"
    );
    let a = post_attempt(
        p,
        &c.id,
        &hw,
        0,
        json!({"tries": stage_tries("tablero", false)}),
    )
    .await;
    assert_eq!(
        (a["counts"].clone(), a["state"].clone()),
        (json!(false), json!("after_help")),
        "{a}"
    );
    let g = c
        .teacher
        .req("GET", &format!("{base}/{hw}/grid"), None)
        .await
        .json();
    assert_eq!(g["pupils"].as_array().unwrap().len(), 1, "{g}");
    let cells = &g["pupils"][0]["cells"];
    assert_eq!(cells[0]["state"], "after_help");
    assert_eq!(cells[0]["overdue"], true);
    assert_eq!(cells[0]["attempts"], 2);
    assert_eq!(cells[1]["state"], "not_done");
    assert_eq!(cells[1]["overdue"], true);
    let csv = c
        .teacher
        .req("GET", &format!("{base}/{hw}/grid.csv"), None)
        .await;
    assert!(
        csv.body
            .lines()
            .nth(1)
            .unwrap()
            .contains("con ayuda (tarde)"),
        "{}",
        csv.body
    );
    // The position against the engine: the pupil mates at once.
    let made = p
        .post(
            "/api/games",
            json!({"opponent": "engine", "level": 1, "color": "white",
                   "fen": "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"}),
        )
        .await;
    if made.status == 200 || made.status == 201 {
        let game = made.json()["game"].as_str().unwrap_or("").to_string();
        let mut w = Player::connect(s.addr, &made.json()).await;
        w.state().await;
        w.play("b1b8").await;
        for _ in 0..50 {
            let gr = p
                .req("GET", &format!("/api/games/{game}"), None)
                .await
                .json();
            if gr["status"] == "over" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let a = post_attempt(p, &c.id, &hw, 1, json!({"game": game})).await;
        assert_eq!(a["solved"], true, "{a}");
        // The same game is not a game against the engine from the start.
        let r = p
            .post(
                &format!("{base}/{hw}/items/2/intentos"),
                json!({"game": game}),
            )
            .await;
        assert_eq!(
            (r.status, code_of(&r)),
            (400, "bad_attempt".into()),
            "{}",
            r.body
        );
        // Another pupil's game is not hers.
        let r = c.pupils[1]
            .web
            .post(
                &format!("{base}/{hw}/items/1/intentos"),
                json!({"game": game}),
            )
            .await;
        assert_eq!(r.status, 404);
    } else {
        panic!("an engine game from a FEN: {} {}", made.status, made.body);
    }
    // Deleting the homework takes it away.
    let r = c.teacher.req("DELETE", &format!("{base}/{hw}"), None).await;
    assert_eq!(r.status, 200);
    let r = c
        .teacher
        .req("GET", &format!("{base}/{hw}/grid"), None)
        .await;
    assert_eq!(r.status, 404);
}

both_dbs!(judging, judging_and_refusals);

/// Every homework route with its method and body, for homework `hw` of
/// class `class`, pupil `pupil`, attempt `att`, parent link `token`.
fn every_route(
    class: &str,
    hw: &str,
    pupil: &str,
    att: &str,
    token: &str,
) -> Vec<(&'static str, String, Option<Value>)> {
    let b = format!("/api/classes/{class}/tareas");
    vec![
        ("GET", b.clone(), None),
        (
            "POST",
            b.clone(),
            Some(
                json!({"title": "Intrusa", "due_ms": 1, "items": [{"kind": "stage", "stage": "torre"}]}),
            ),
        ),
        ("GET", format!("{b}/{hw}"), None),
        ("DELETE", format!("{b}/{hw}"), None),
        (
            "POST",
            format!("{b}/{hw}/items/0/intentos"),
            Some(json!({"tries": [[{"t": "square", "sq": "e4"}]]})),
        ),
        ("GET", format!("{b}/{hw}/grid"), None),
        ("GET", format!("{b}/{hw}/grid.csv"), None),
        ("GET", format!("{b}/{hw}/grid.pdf"), None),
        ("GET", format!("{b}/{hw}/intentos/{att}"), None),
        (
            "POST",
            format!("/api/classes/{class}/pupils/{pupil}/familia"),
            Some(json!({})),
        ),
        (
            "POST",
            format!("/api/classes/{class}/pupils/{pupil}/familia/revocar"),
            Some(json!({})),
        ),
        ("GET", format!("/api/familia/{token}"), None),
        ("GET", format!("/api/familia/{token}/intentos/{att}"), None),
        // "Juego tras la tarea" and the puzzles of the class's games.
        (
            "POST",
            format!("{b}/{hw}/items/0/jugada"),
            Some(json!({"moves": []})),
        ),
        (
            "GET",
            format!("/api/classes/{class}/juego-tras-tarea"),
            None,
        ),
        (
            "POST",
            format!("/api/classes/{class}/juego-tras-tarea"),
            Some(json!({"on": true})),
        ),
        (
            "GET",
            format!("/api/classes/{class}/problemas-partidas"),
            None,
        ),
    ]
}

/// What the class's homework looks like to its teacher (to see that nothing
/// changed).
async fn snapshot(web: &mut Browser, class: &str, hw: &str) -> (String, String, String) {
    let l = web
        .req("GET", &format!("/api/classes/{class}/tareas"), None)
        .await
        .body;
    let g = web
        .req(
            "GET",
            &format!("/api/classes/{class}/tareas/{hw}/grid"),
            None,
        )
        .await
        .body;
    let v = web
        .req("GET", &format!("/api/classes/{class}/tareas/{hw}"), None)
        .await
        .body;
    (l, g, v)
}

async fn authorization_matrix(db: Db) {
    let Some(s) = start(db).await else { return };
    let addr: SocketAddr = s.addr;
    let mut a = class_with_pupils(&s, 2).await;
    let mut b = class_with_pupils(&s, 1).await;
    let base = format!("/api/classes/{}/tareas", a.id);
    let due = escaque_server::store::now_ms() + 3_600_000;
    let r = a
        .teacher
        .post(
            &base,
            json!({"title": "Casillas", "due_ms": due,
                   "items": [{"kind": "stage", "stage": "tablero"}]}),
        )
        .await;
    let hw = r.json()["id"].as_str().unwrap().to_string();
    let att = post_attempt(
        &mut a.pupils[0].web,
        &a.id,
        &hw,
        0,
        json!({"tries": stage_tries("tablero", false)}),
    )
    .await;
    let att = att["attempt"].as_str().unwrap().to_string();
    let p0 = a.pupils[0].name.clone();
    let p1 = a.pupils[1].name.clone();
    // Parent links: pupil 0's (revoked), pupil 1's (live).
    let l0 = a
        .teacher
        .post(
            &format!("/api/classes/{}/pupils/{p0}/familia", a.id),
            json!({}),
        )
        .await;
    assert_eq!(l0.status, 201, "{}", l0.body);
    let t0 = l0.json()["token"].as_str().unwrap().to_string();
    let l1 = a
        .teacher
        .post(
            &format!("/api/classes/{}/pupils/{p1}/familia", a.id),
            json!({}),
        )
        .await;
    let t1 = l1.json()["token"].as_str().unwrap().to_string();
    // The live link shows its pupil, read only.
    let mut parent = Browser::new(addr);
    let v = parent.req("GET", &format!("/api/familia/{t0}"), None).await;
    assert_eq!(v.status, 200, "{}", v.body);
    assert_eq!(v.json()["pupil"], p0.as_str());
    assert_eq!(v.json()["homework"][0]["cells"][0]["state"], "first_try");
    let v = parent
        .req("GET", &format!("/api/familia/{t0}/intentos/{att}"), None)
        .await;
    assert_eq!(v.status, 200, "{}", v.body);
    let r = a
        .teacher
        .post(
            &format!("/api/classes/{}/pupils/{p0}/familia/revocar", a.id),
            json!({}),
        )
        .await;
    assert_eq!(r.json()["revoked"], 1, "{}", r.body);
    let before = snapshot(&mut a.teacher, &a.id, &hw).await;
    // Who is refused, with which link they hold.
    let mut guest = Browser::new(addr);
    let (mut other_teacher, _) = (std::mem::replace(&mut b.teacher, Browser::new(addr)), ());
    let mut other_pupil = std::mem::replace(&mut b.pupils[0].web, Browser::new(addr));
    let mut revoked_parent = Browser::new(addr);
    let mut parent_of_other = Browser::new(addr);
    let cases: Vec<(&str, &mut Browser, &str)> = vec![
        ("pupil of another class", &mut other_pupil, &t0),
        ("another teacher", &mut other_teacher, &t0),
        ("guest", &mut guest, &t0),
        ("revoked parent link", &mut revoked_parent, &t0),
        ("parent link of another pupil", &mut parent_of_other, &t1),
    ];
    for (who, web, token) in cases {
        for (method, path, body) in every_route(&a.id, &hw, &p0, &att, token) {
            // A live link of another pupil reads its own pupil's page: that
            // is not this pupil's data, checked below.
            if who == "parent link of another pupil" && path == format!("/api/familia/{t1}") {
                let r = web.req(method, &path, body).await;
                assert_eq!(r.json()["pupil"], p1.as_str(), "{}", r.body);
                assert!(!r.body.contains(&p0), "another pupil shown: {}", r.body);
                continue;
            }
            let r = web.req(method, &path, body).await;
            assert!(
                (400..500).contains(&r.status),
                "{who}: {method} {path} answered {} {}",
                r.status,
                r.body
            );
        }
    }
    // A pupil of the class on the teacher's routes: 403; on another pupil's
    // attempt: 404.
    let p1web = &mut a.pupils[1].web;
    for (method, path) in [
        ("GET", format!("{base}/{hw}/grid")),
        ("GET", format!("{base}/{hw}/grid.csv")),
        ("DELETE", format!("{base}/{hw}")),
    ] {
        let r = p1web.req(method, &path, None).await;
        assert_eq!(
            (r.status, code_of(&r)),
            (403, "teachers_only".into()),
            "{path}"
        );
    }
    let r = p1web
        .req("GET", &format!("{base}/{hw}/intentos/{att}"), None)
        .await;
    assert_eq!((r.status, code_of(&r)), (404, "attempt_not_found".into()));
    // Nothing changed.
    let after = snapshot(&mut a.teacher, &a.id, &hw).await;
    assert_eq!(before, after);
    let r = a
        .teacher
        .req(
            "GET",
            &format!("/api/classes/{}/juego-tras-tarea", a.id),
            None,
        )
        .await;
    assert_eq!(r.json()["on"], false, "nobody turned it on: {}", r.body);
    let r = a
        .teacher
        .req("GET", &format!("/api/familia/{t0}"), None)
        .await;
    assert_eq!((r.status, code_of(&r)), (404, "link_not_found".into()));
}

both_dbs!(authorization, authorization_matrix);

// ---------------------------------------------------------------- proptests

/// One server with a class (a teacher, a pupil) and a homework of every
/// kind of item, for the random bodies.
struct PropFixture {
    rt: tokio::runtime::Runtime,
    addr: SocketAddr,
    class: String,
    hw: String,
    teacher: Vec<String>,
    pupil: Vec<String>,
}

fn prop_fixture() -> &'static PropFixture {
    static F: std::sync::OnceLock<PropFixture> = std::sync::OnceLock::new();
    F.get_or_init(|| {
        let rt = runtime();
        let f = rt.block_on(async {
            let s = start(Db::Sqlite).await.unwrap();
            let mut c = class_with_pupils(&s, 1).await;
            let mut items = ten_items();
            let extra = items.as_array_mut().unwrap();
            extra.push(json!({"kind": "engine_game", "level": 2, "goal": "tablas"}));
            extra.push(json!({"kind": "position", "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "level": 1, "goal": "gana"}));
            let r = c
                .teacher
                .post(
                    &format!("/api/classes/{}/tareas", c.id),
                    json!({"title": "Pruebas", "due_ms": escaque_server::store::now_ms() + 86_400_000,
                           "items": items}),
                )
                .await;
            assert_eq!(r.status, 201, "{}", r.body);
            let hw = r.json()["id"].as_str().unwrap().to_string();
            let f = (s.addr, c.id.clone(), hw, c.teacher.cookies.clone(), c.pupils[0].web.cookies.clone());
            std::mem::forget(s);
            f
        });
        PropFixture {
            rt,
            addr: f.0,
            class: f.1,
            hw: f.2,
            teacher: f.3,
            pupil: f.4,
        }
    })
}

fn leaf() -> proptest::strategy::BoxedStrategy<Value> {
    use proptest::prelude::*;
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-5i64..60).prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "\\PC{0,12}".prop_map(Value::from),
        prop::sample::select(vec![
            "puzzle",
            "puzzles",
            "game_puzzle",
            "stage",
            "coords",
            "engine_game",
            "position",
            "buscar",
            "nombrar",
            "gana",
            "tablas",
            "gana_blancas",
            "gana_negras",
            "tablero",
            "mateIn1",
            "e2e4",
            "e7e8q",
            "a1",
            "z9",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
            "8/8/8/8/8/8/8/8 w - - 0 1",
            "",
        ])
        .prop_map(Value::from),
    ]
    .boxed()
}

/// An object with some of `fields`, each a leaf, an array of leaves or
/// `inner`.
fn object_of(
    fields: &'static [&'static str],
    inner: proptest::strategy::BoxedStrategy<Value>,
) -> proptest::strategy::BoxedStrategy<Value> {
    use proptest::prelude::*;
    proptest::collection::vec(
        (
            prop::sample::select(fields.to_vec()),
            prop_oneof![
                3 => leaf(),
                1 => proptest::collection::vec(leaf(), 0..4).prop_map(Value::from),
                1 => proptest::collection::vec(inner, 0..4).prop_map(Value::from),
            ],
        ),
        0..7,
    )
    .prop_map(|kv| {
        let mut m = serde_json::Map::new();
        for (k, v) in kv {
            m.insert(k.to_string(), v);
        }
        Value::Object(m)
    })
    .boxed()
}

fn homework_body() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let item = object_of(
        &[
            "kind",
            "id",
            "theme",
            "min_rating",
            "max_rating",
            "count",
            "stage",
            "mode",
            "level",
            "goal",
            "fen",
            "otro",
        ],
        leaf(),
    );
    prop_oneof![
        1 => leaf(),
        4 => object_of(&["title", "due_ms", "retry", "pupils", "items", "otro"], item),
    ]
}

fn attempt_body() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let try_ = object_of(&["t", "from", "to", "promotion", "sq", "text", "n"], leaf());
    let tries = proptest::collection::vec(try_, 0..4)
        .prop_map(Value::from)
        .boxed();
    prop_oneof![
        1 => leaf(),
        4 => object_of(&["moves", "tries", "answers", "game", "time_ms", "hints", "otro"], tries),
    ]
}

/// A 2xx, or a 4xx whose Spanish words say what was wrong; never a 5xx.
fn answered_or_refused(r: &escaque_server::client::HttpReply, body: &Value) {
    assert!(
        (200..300).contains(&r.status) || (400..500).contains(&r.status),
        "{body}: {} {}",
        r.status,
        r.body
    );
    if r.status >= 400 {
        let v = r.json();
        assert!(
            v["es"].as_str().is_some_and(|t| !t.is_empty()) && v["code"].as_str().is_some(),
            "{body}: {v}"
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// Any body to `POST /api/classes/{id}/tareas`: a homework set (201) or
    /// a 4xx with a Spanish reason that says where (a field's path, an
    /// item's number); never a panic nor a 5xx.
    #[test]
    fn any_homework_body_is_set_or_refused(body in homework_body()) {
        let f = prop_fixture();
        f.rt.block_on(async {
            let mut web = Browser::new(f.addr);
            web.cookies = f.teacher.clone();
            let r = web.post(&format!("/api/classes/{}/tareas", f.class), body.clone()).await;
            answered_or_refused(&r, &body);
            if r.status == 201 {
                // What was set is read back: as many items as it said.
                let id = r.json()["id"].as_str().unwrap().to_string();
                let v = web.req("GET", &format!("/api/classes/{}/tareas/{id}", f.class), None).await;
                assert_eq!(v.status, 200);
                assert_eq!(v.json()["items"].as_array().unwrap().len(), r.json()["items"].as_u64().unwrap() as usize);
            }
        });
    }

    /// Any attempt body at any item: stored and judged (201), or a 4xx with
    /// a Spanish reason; never a panic nor a 5xx.
    #[test]
    fn any_attempt_body_is_judged_or_refused(idx in 0usize..14, body in attempt_body()) {
        let f = prop_fixture();
        f.rt.block_on(async {
            let mut web = Browser::new(f.addr);
            web.cookies = f.pupil.clone();
            let r = web
                .post(&format!("/api/classes/{}/tareas/{}/items/{idx}/intentos", f.class, f.hw), body.clone())
                .await;
            answered_or_refused(&r, &body);
        });
    }

    /// Any body of a puzzle step (`…/items/{n}/jugada`) at any item:
    /// answered, or a 4xx with a Spanish reason; never a panic nor a 5xx.
    #[test]
    fn any_step_body_is_answered_or_refused(idx in 0usize..14, body in step_body()) {
        let f = prop_fixture();
        f.rt.block_on(async {
            let mut web = Browser::new(f.addr);
            web.cookies = f.pupil.clone();
            let r = web
                .post(&format!("/api/classes/{}/tareas/{}/items/{idx}/jugada", f.class, f.hw), body.clone())
                .await;
            answered_or_refused(&r, &body);
        });
    }

    /// Any body for the class's "juego tras la tarea" (the teacher), and
    /// any `homework` of a new game (the pupil): answered or a 4xx with a
    /// Spanish reason; never a panic nor a 5xx.
    #[test]
    fn any_play_after_body_or_homework_game_is_answered_or_refused(
        on in object_of(&["on", "otro"], leaf()),
        hg in homework_game(),
    ) {
        let f = prop_fixture();
        f.rt.block_on(async {
            let mut web = Browser::new(f.addr);
            web.cookies = f.teacher.clone();
            let r = web.post(&format!("/api/classes/{}/juego-tras-tarea", f.class), on.clone()).await;
            answered_or_refused(&r, &on);
            let body = json!({"opponent": "engine", "level": 2, "color": "white", "homework": hg});
            let mut web = Browser::new(f.addr);
            web.cookies = f.pupil.clone();
            let r = web.post("/api/games", body.clone()).await;
            answered_or_refused(&r, &body);
        });
    }
}

fn step_body() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    prop_oneof![
        1 => leaf(),
        4 => object_of(&["moves", "hint", "otro"], leaf()),
    ]
}

fn homework_game() -> impl proptest::strategy::Strategy<Value = Value> {
    use proptest::prelude::*;
    let f = prop_fixture();
    let (class, hw) = (f.class.clone(), f.hw.clone());
    prop_oneof![
        1 => leaf(),
        2 => object_of(&["class", "homework", "item", "otro"], leaf()),
        2 => (0usize..14).prop_map(move |i| json!({"class": class, "homework": hw, "item": i})),
    ]
}
