//! Aprende a jugar on the server (issue 55): the course and its stages as
//! the page reads them, a try judged with the rules' reason, an exercise's
//! stars kept only after the server replayed the tries, a pupil's stars in
//! the teacher's class progress table, a guest's progress joined at login;
//! forged progress (stars for a stage not played, empty or wrong tries,
//! another pupil's account, an unknown stage) refused with a 4xx and
//! nothing changed.

use escaque::{Lang, Move};
use escaque_play::aprender::{Course, Exercise, Goal, Input, Verdict};
use serde_json::{json, Value};

use crate::common::*;

/// A try as the page sends it.
fn move_try(m: Move) -> Value {
    let promo = m
        .promotion_role()
        .map(|r| r.char_en().to_ascii_lowercase().to_string())
        .unwrap_or_default();
    json!({ "move": format!("{}{}{promo}", m.from(), m.to()) })
}

fn input_of(m: Move) -> Input {
    Input::Move {
        from: m.from(),
        to: m.to(),
        promotion: m.promotion_role(),
    }
}

/// The tries that solve `ex` with the fewest moves (3 stars), found through
/// the course's judge and the rules library, as the page would send them.
pub fn solution(ex: &Exercise) -> Vec<Value> {
    match &ex.goal {
        Goal::Square(sq) => vec![json!({ "square": sq.to_string() })],
        Goal::Quiz { .. } | Goal::Ask(_) => vec![json!({ "choice": ex.right_options()[0] })],
        Goal::Write(m) => {
            let pos = ex.position.expect("a position to write a move in");
            vec![json!({ "text": escaque::san::san(&pos, *m, Lang::Es) })]
        }
        _ => {
            let mut a = ex.start();
            let mut out = Vec::new();
            for _ in 0..40 {
                let pos = *a.position().expect("a board goal has a position");
                let mut best: Option<(u32, Move)> = None;
                for &m in pos.legal_moves().iter() {
                    let mut b = a.clone();
                    match b.try_input(&input_of(m)) {
                        Verdict::Solved { .. } => {
                            best = Some((0, m));
                            break;
                        }
                        Verdict::Progress { .. } => {
                            if let Some(rest) = b.moves_to_goal() {
                                if best.is_none_or(|(r, _)| rest < r) {
                                    best = Some((rest, m));
                                }
                            }
                        }
                        _ => {}
                    }
                }
                let (_, m) = best.expect("an accepted move");
                out.push(move_try(m));
                if let Verdict::Solved { .. } = a.try_input(&input_of(m)) {
                    return out;
                }
            }
            panic!("not solved in 40 moves")
        }
    }
}

pub fn course() -> Course {
    Course::builtin().expect("the course loads")
}

/// Every exercise of `stage` saved by `web` with its solution.
pub async fn save_stage(web: &mut Browser, stage: &str) -> u32 {
    let c = course();
    let st = c.stage(stage).unwrap();
    let mut total = 0;
    for (n, ex) in st.exercises.iter().enumerate() {
        let r = web
            .post(
                "/api/aprender/progreso",
                json!({"stage": stage, "exercise": n, "tries": solution(ex)}),
            )
            .await;
        assert_eq!(r.status, 200, "{stage} {n}: {}", r.body);
        assert_eq!(r.json()["stars"], 3, "{stage} {n}: {}", r.body);
        total += 3;
    }
    total
}

async fn progress_of(web: &mut Browser) -> Value {
    let r = web.req("GET", "/api/aprender/progreso", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

fn stage_stars(p: &Value, stage: &str) -> Vec<u64> {
    p["stages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["stage"] == stage)
        .unwrap_or_else(|| panic!("no {stage} in {p}"))["stars"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_course_and_a_stage_as_the_page_reads_them() {
    let Some(s) = start(Db::Sqlite).await else {
        return;
    };
    let mut guest = Browser::new(s.addr);
    let r = guest.req("GET", "/api/aprender", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let l = r.json();
    let c = course();
    assert_eq!(l["stages"].as_array().unwrap().len(), c.stages.len());
    assert_eq!(l["exercises"], c.exercise_count());
    assert!(c.stages.len() >= 20 && c.exercise_count() >= 100);
    assert_eq!(l["stages"][1]["id"], "torre");
    assert_eq!(l["stages"][1]["number"], 2);
    assert!(l["stages"][1]["title"]["es"].is_string() && l["stages"][1]["title"]["en"].is_string());

    let r = guest.req("GET", "/api/aprender/etapas/torre", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let st = r.json();
    let torre = c.stage("torre").unwrap();
    assert_eq!(
        st["exercises"].as_array().unwrap().len(),
        torre.exercises.len()
    );
    assert_eq!(
        st["exercises"][0]["fen"],
        torre.exercises[0].position.unwrap().to_fen()
    );
    assert_eq!(st["exercises"][0]["side"], "white");
    assert_eq!(st["next"], c.stages[2].id.as_str());
    // A question's options, a touched square's flag.
    let tablero = guest
        .req("GET", "/api/aprender/etapas/tablero", None)
        .await
        .json();
    assert!(tablero["exercises"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["touch"] == true));
    let r = guest.req("GET", "/api/aprender/etapas/nada", None).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "etapa_desconocida");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_try_is_judged_with_the_rules_reason() {
    let Some(s) = start(Db::Sqlite).await else {
        return;
    };
    let mut guest = Browser::new(s.addr);
    // The rook does not go diagonally: refused with the reason.
    let r = guest
        .post(
            "/api/aprender/jugar",
            json!({"stage": "torre", "exercise": 0, "tries": [{"move": "a1b2"}]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["verdict"], "refused", "{v}");
    assert!(
        v["reason"]["es"]
            .as_str()
            .unwrap()
            .contains("filas y columnas"),
        "{v}"
    );
    assert!(!v["reason"]["en"].as_str().unwrap().is_empty());
    // Then solved after the refusal: one star less.
    let r = guest
        .post(
            "/api/aprender/jugar",
            json!({"stage": "torre", "exercise": 0, "tries": [{"move": "a1b2"}, {"move": "a1a5"}]}),
        )
        .await;
    let v = r.json();
    assert_eq!(v["verdict"], "solved", "{v}");
    assert_eq!(v["stars"], 2, "{v}");
    assert_eq!(v["uci"], "a1a5");
    assert_eq!(v["san"]["es"], "Ta5");
    assert!(v["fen"].as_str().unwrap().contains('R'));
    // Every exercise of the course is solved through the server.
    let c = course();
    for st in &c.stages {
        for (n, ex) in st.exercises.iter().enumerate() {
            let tries = solution(ex);
            for k in 1..=tries.len() {
                let r = guest
                    .post(
                        "/api/aprender/jugar",
                        json!({"stage": st.id, "exercise": n, "tries": &tries[..k]}),
                    )
                    .await;
                assert_eq!(r.status, 200, "{} {n}: {}", st.id, r.body);
                let want = if k == tries.len() {
                    "solved"
                } else {
                    "progress"
                };
                assert_eq!(
                    r.json()["verdict"],
                    want,
                    "{} {n} try {k}: {}",
                    st.id,
                    r.body
                );
            }
        }
    }
    // Bad tries are refused with where.
    for (body, code) in [
        (
            json!({"stage": "torre", "exercise": 0, "tries": [{"move": "a1a5"}, {"move": "zz"}]}),
            "bad_try",
        ),
        (
            json!({"stage": "torre", "exercise": 0, "tries": [{"square": "j9"}]}),
            "bad_try",
        ),
        (
            json!({"stage": "torre", "exercise": 0, "tries": [{"move": "a7a8x"}]}),
            "bad_try",
        ),
        (
            json!({"stage": "torre", "exercise": 0, "tries": []}),
            "no_tries",
        ),
        (
            json!({"stage": "torre", "exercise": 0, "tries": [{"jugada": "a1a5"}]}),
            "malformed",
        ),
        (
            json!({"stage": "torre", "exercise": 0, "tries": [], "stars": 3}),
            "malformed",
        ),
        (
            json!({"stage": "torre", "exercise": 99, "tries": [{"move": "a1a5"}]}),
            "ejercicio_desconocido",
        ),
    ] {
        let r = guest.post("/api/aprender/jugar", body.clone()).await;
        assert!((400..500).contains(&r.status), "{body}: {}", r.body);
        assert_eq!(r.json()["code"], code, "{body}: {}", r.body);
        assert!(r.json()["es"].is_string() && r.json()["en"].is_string());
    }
    let r = guest
        .post(
            "/api/aprender/jugar",
            json!({"stage": "torre", "exercise": 0, "tries": [{"move": "a1a5"}, {"move": "zz"}]}),
        )
        .await;
    assert!(
        r.json()["es"].as_str().unwrap().contains("intento 2"),
        "{}",
        r.body
    );
}

async fn progress_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 2).await;
    let other_name = c.pupils[1].name.clone();
    let (a, rest) = c.pupils.split_at_mut(1);
    let a = &mut a[0];
    let b = &mut rest[0];
    let co = course();

    // Nothing yet.
    let p = progress_of(&mut a.web).await;
    assert_eq!(p["total"], 0);
    assert_eq!(p["max"], 3 * co.exercise_count());
    assert_eq!(p["account"], a.name.as_str());

    // A pupil plays the rook stage: its stars are recomputed and kept.
    let total = save_stage(&mut a.web, "torre").await;
    let p = progress_of(&mut a.web).await;
    assert_eq!(p["total"], total);
    assert!(stage_stars(&p, "torre").iter().all(|&s| s == 3));

    // A worse replay later keeps the best.
    let ex0 = &co.stage("alfil").unwrap().exercises[0];
    let mut slow = vec![
        json!({"square": "a1"}),
        json!({"choice": 99}),
        json!({"text": "nada"}),
    ];
    slow.extend(solution(ex0));
    let r = a
        .web
        .post(
            "/api/aprender/progreso",
            json!({"stage": "alfil", "exercise": 0, "tries": slow}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let low = r.json()["stars"].as_u64().unwrap();
    assert!(low < 3, "{}", r.body);
    assert_eq!(r.json()["best"], low);
    let r = a
        .web
        .post(
            "/api/aprender/progreso",
            json!({"stage": "alfil", "exercise": 0, "tries": solution(ex0), "account": a.name}),
        )
        .await;
    assert_eq!(r.json()["best"], 3, "{}", r.body);
    let r = a
        .web
        .post(
            "/api/aprender/progreso",
            json!({"stage": "alfil", "exercise": 0, "tries": slow}),
        )
        .await;
    assert_eq!(r.json()["stars"], low);
    assert_eq!(r.json()["best"], 3, "{}", r.body);
    let before = progress_of(&mut a.web).await;

    // Forged progress: refused with a 4xx, nothing changed.
    let dama0 = solution(&co.stage("dama").unwrap().exercises[0]);
    for (body, status, code) in [
        // Stars for a stage not played: no tries, or tries that do not meet the goal.
        (
            json!({"stage": "dama", "exercise": 0, "tries": []}),
            422,
            "no_resuelto",
        ),
        (
            json!({"stage": "dama", "exercise": 1, "tries": dama0}),
            422,
            "no_resuelto",
        ),
        (
            json!({"stage": "mate", "exercise": 0, "tries": [{"choice": 0}]}),
            422,
            "no_resuelto",
        ),
        // The client's own count of stars is not a field.
        (
            json!({"stage": "dama", "exercise": 0, "tries": [], "stars": 3}),
            400,
            "malformed",
        ),
        (
            json!({"stage": "nada", "exercise": 0, "tries": dama0}),
            404,
            "etapa_desconocida",
        ),
        (
            json!({"stage": "dama", "exercise": 500, "tries": dama0}),
            404,
            "ejercicio_desconocido",
        ),
        // Another pupil's account.
        (
            json!({"stage": "dama", "exercise": 0, "tries": dama0, "account": other_name}),
            403,
            "not_your_account",
        ),
        (
            json!({"stage": "dama", "exercise": 0, "tries": vec![json!({"choice": 0}); 201]}),
            400,
            "demasiados_intentos",
        ),
    ] {
        let r = a.web.post("/api/aprender/progreso", body.clone()).await;
        assert_eq!(r.status, status, "{body}: {}", r.body);
        assert_eq!(r.json()["code"], code, "{body}: {}", r.body);
    }
    assert_eq!(progress_of(&mut a.web).await, before);
    assert_eq!(progress_of(&mut b.web).await["total"], 0);
    // A guest keeps nothing on the server.
    let mut guest = Browser::new(s.addr);
    let r = guest
        .post(
            "/api/aprender/progreso",
            json!({"stage": "dama", "exercise": 0, "tries": dama0}),
        )
        .await;
    assert_eq!(r.status, 401, "{}", r.body);
    assert_eq!(r.json()["code"], "account_only");
    // The guard (issue 53: `SignedIn`) refuses a guest before the body is
    // read: a malformed body and every route for accounts only are 401.
    for (method, path, body) in [
        ("POST", "/api/aprender/progreso", Some(json!({"stars": 3}))),
        ("POST", "/api/aprender/unir", Some(json!({"items": "x"}))),
        ("GET", "/api/aprender/progreso", None),
    ] {
        let r = guest.req(method, path, body).await;
        assert_eq!(r.status, 401, "{method} {path}: {}", r.body);
        assert_eq!(r.json()["code"], "account_only", "{path}");
    }
    assert_eq!(
        guest
            .req("GET", "/api/aprender/progreso", None)
            .await
            .status,
        401
    );

    // A guest's progress joined at login: one forged item refuses it all.
    let good: Vec<Value> = co
        .stage("dama")
        .unwrap()
        .exercises
        .iter()
        .enumerate()
        .map(|(n, ex)| json!({"stage": "dama", "exercise": n, "tries": solution(ex)}))
        .collect();
    let mut forged = good.clone();
    forged.push(json!({"stage": "rey", "exercise": 0, "tries": []}));
    let r = b
        .web
        .post("/api/aprender/unir", json!({"items": forged}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["code"], "no_resuelto");
    assert!(r.json()["es"]
        .as_str()
        .unwrap()
        .contains(&format!("ejercicio {}", good.len() + 1)));
    assert_eq!(progress_of(&mut b.web).await["total"], 0);
    let r = guest
        .post("/api/aprender/unir", json!({"items": good}))
        .await;
    assert_eq!(r.status, 401, "{}", r.body);
    let r = b
        .web
        .post("/api/aprender/unir", json!({"items": good}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let joined = r.json();
    assert_eq!(joined["total"], 3 * good.len());
    assert_eq!(joined["solved"], good.len());
    assert_eq!(progress_of(&mut b.web).await, joined);

    // The teacher's class progress table shows each pupil's course stars.
    let r = c
        .teacher
        .req("GET", &format!("/api/classes/{}/progress", c.id), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let t = r.json();
    let line = |name: &str| {
        t["pupils"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == name)
            .unwrap()
            .clone()
    };
    let (a, b) = (&c.pupils[0], &c.pupils[1]);
    assert_eq!(line(&a.name)["course_stars"], before["total"]);
    assert_eq!(line(&a.name)["course_solved"], before["solved"]);
    assert_eq!(line(&b.name)["course_stars"], 3 * good.len());
    let r = c
        .teacher
        .req(
            "GET",
            &format!("/api/classes/{}/progress?format=csv", c.id),
            None,
        )
        .await;
    assert!(
        r.body.contains("Estrellas del curso,Ejercicios del curso"),
        "{}",
        r.body
    );
    assert!(
        r.body
            .contains(&format!(",{},{}\r\n", before["total"], before["solved"])),
        "{}",
        r.body
    );
}

both_dbs!(
    progress_is_kept_per_account_and_forged_progress_refused,
    progress_run
);

/// Any try of any shape, judged or saved: an answer or a refusal, never a
/// panic; the stars the judge gives are the ones `verify` recomputes.
fn any_try() -> impl proptest::strategy::Strategy<Value = escaque_server::proto::aprender::Try> {
    use escaque_server::proto::aprender::Try;
    use proptest::prelude::*;
    let sq = "[a-h][1-8]";
    prop_oneof![
        (sq, sq, "[qrbnkpx]?").prop_map(|(a, b, p)| Try::Move(format!("{a}{b}{p}"))),
        "\\PC{0,8}".prop_map(Try::Move),
        sq.prop_map(Try::Square),
        "\\PC{0,6}".prop_map(Try::Square),
        "\\PC{0,50}".prop_map(Try::Text),
        (0u32..8).prop_map(Try::Choice),
        any::<u32>().prop_map(Try::Choice),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]
    #[test]
    fn any_tries_are_judged_without_panicking(
        stage in 0usize..30,
        exercise in 0u32..12,
        tries in proptest::collection::vec(any_try(), 0..12),
    ) {
        use escaque_server::proto::aprender::PlayTry;
        let c = course();
        let stage = c.stages.get(stage).map_or("nada".to_string(), |s| s.id.clone());
        let req = PlayTry { stage, exercise, tries };
        // The body survives the wire both ways.
        let text = serde_json::to_string(&req).unwrap();
        let back: PlayTry = serde_json::from_str(&text).unwrap();
        match escaque_server::aprender::judge(&back) {
            Ok(v) => {
                if v.verdict == "refused" {
                    proptest::prop_assert!(v.reason.is_some());
                }
                if v.verdict == "solved" {
                    let inputs: Vec<_> = req
                        .tries
                        .iter()
                        .enumerate()
                        .map(|(n, t)| escaque_server::aprender::input(n, t).unwrap())
                        .collect();
                    let s = escaque_play::aprender::progress::verify(&c, &req.stage, exercise as usize, &inputs);
                    proptest::prop_assert_eq!(s.ok(), v.stars);
                }
            }
            Err(e) => proptest::prop_assert!((400..500).contains(&e.status().as_u16()), "{e:?}"),
        }
    }

    #[test]
    fn any_text_as_a_body_is_read_or_refused(text in "\\PC{0,200}") {
        let _ = serde_json::from_str::<escaque_server::proto::aprender::PlayTry>(&text);
        let _ = serde_json::from_str::<escaque_server::proto::aprender::JoinProgress>(&text);
        let _ = serde_json::from_str::<escaque_server::proto::aprender::SaveTries>(&text);
    }
}
