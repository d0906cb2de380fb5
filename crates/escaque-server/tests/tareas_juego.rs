//! Tareas (issue 57): "juego tras la tarea" and the puzzles of the class's
//! own games as homework items.
//!
//! * Juego tras la tarea: off by default; a pupil of the class may not
//!   post in the class's option; once the teacher turns it on, a pupil
//!   with open homework is refused every free game (against the engine, a
//!   challenge made or taken, a seek posted or accepted — its own seek
//!   accepted by the teacher too) with `403 homework_first`, while the
//!   game of a homework item is allowed (and checked against the item);
//!   a classmate the homework is not set for, the teacher and an account
//!   that is no pupil are not held; done homework, homework past its due
//!   time and the option turned off open free play again.
//! * Puzzles from the class's games: the teacher's list names the pupil,
//!   the game and the move; a homework takes one by id, the pupil plays it
//!   step by step on its page and hands it in, judged as a shipped puzzle
//!   is; a puzzle from a game of another class is refused when set.

use escaque_server::store::now_ms;
use escaque_server::tareas::library;
use serde_json::{json, Value};

use crate::common::*;
use crate::tareas::{post_attempt, stage_tries};

fn code_of(r: &escaque_server::client::HttpReply) -> String {
    r.json()["code"].as_str().unwrap_or("").to_string()
}

/// K+D against K: White mates in one (Qb8#).
const MATE_IN_ONE: &str = "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1";

fn engine_game(level: u32, color: &str) -> Value {
    json!({"opponent": "engine", "level": level, "color": color})
}

async fn play_state(web: &mut Browser) -> Value {
    let r = web.req("GET", "/api/me/juego", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

async fn play_after_homework(db: Db) {
    let Some(s) = start(db).await else { return };
    let addr = s.addr;
    let mut c = class_with_pupils(&s, 2).await;
    let (mut grown_up, _) = account(addr, "Adulto").await;
    let opt = format!("/api/classes/{}/juego-tras-tarea", c.id);
    // Off by default: the pupil plays the engine freely.
    let r = c.teacher.req("GET", &opt, None).await;
    assert_eq!((r.status, r.json()["on"].clone()), (200, json!(false)));
    let r = c.pupils[0]
        .web
        .post("/api/games", engine_game(1, "white"))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    // A homework for pupil 0 only, due tomorrow, no second try: a stage,
    // a position to win, a game against the engine with White.
    let due = now_ms() + 86_400_000;
    let r = c
        .teacher
        .post(
            &format!("/api/classes/{}/tareas", c.id),
            json!({"title": "Deberes del lunes", "due_ms": due, "pupils": [c.pupils[0].name],
                   "items": [{"kind": "stage", "stage": "tablero"},
                             {"kind": "position", "fen": MATE_IN_ONE, "level": 1, "goal": "gana"},
                             {"kind": "engine_game", "level": 2, "goal": "gana_blancas"}]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let hw = r.json()["id"].as_str().unwrap().to_string();
    // Still off: nothing held.
    assert_eq!(play_state(&mut c.pupils[0].web).await["locked"], false);
    // Pupil 0 posts a seek before the option is on (the teacher will try
    // to accept it later).
    let r = c.pupils[0]
        .web
        .post("/api/seeks", json!({"time_control": "5+3"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let early_seek = r.json()["seek"].as_str().unwrap().to_string();
    // A pupil may not turn it on; a teacher may; a bad body is refused.
    let r = c.pupils[0].web.post(&opt, json!({"on": true})).await;
    assert_eq!((r.status, code_of(&r)), (403, "teachers_only".into()));
    let r = c.teacher.post(&opt, json!({"on": "sí"})).await;
    assert!((400..500).contains(&r.status), "{}", r.body);
    assert_eq!(c.teacher.req("GET", &opt, None).await.json()["on"], false);
    let r = c.teacher.post(&opt, json!({"on": true})).await;
    assert_eq!((r.status, r.json()["on"].clone()), (200, json!(true)));
    let r = c.pupils[1].web.req("GET", &opt, None).await;
    assert_eq!(r.json()["on"], true, "a pupil reads it");
    // Pupil 0 is held, and told why.
    let st = play_state(&mut c.pupils[0].web).await;
    assert_eq!(st["locked"], true, "{st}");
    assert_eq!(st["pending"][0]["id"], hw.as_str());
    assert_eq!(st["pending"][0]["left"], 3);
    assert!(
        st["es"].as_str().unwrap().contains("Deberes del lunes"),
        "{st}"
    );
    let p0 = &mut c.pupils[0].web;
    for (what, path, body) in [
        ("engine", "/api/games", engine_game(3, "white")),
        (
            "challenge",
            "/api/games",
            json!({"opponent": "friend", "time_control": "5+3"}),
        ),
        ("seek", "/api/seeks", json!({"time_control": "5+3"})),
    ] {
        let r = p0.post(path, body).await;
        assert_eq!(
            (r.status, code_of(&r)),
            (403, "homework_first".into()),
            "{what}: {}",
            r.body
        );
        assert!(r.body.contains("Deberes del lunes"), "{}", r.body);
        assert!(r.json()["en"].as_str().unwrap_or("").contains("homework"));
    }
    // Pupil 1 (not set this homework) plays; pupil 0 may not take its
    // challenge nor its seek; the teacher may not accept pupil 0's seek.
    let r = c.pupils[1]
        .web
        .post("/api/games", json!({"opponent": "friend"}))
        .await;
    assert_eq!(r.status, 201, "pupil 1 is not held: {}", r.body);
    let ch = r.json()["game"].as_str().unwrap().to_string();
    let r = c.pupils[0]
        .web
        .post(&format!("/api/games/{ch}/join"), json!({}))
        .await;
    assert_eq!((r.status, code_of(&r)), (403, "homework_first".into()));
    let r = c.pupils[1]
        .web
        .post("/api/seeks", json!({"time_control": "10+0"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let seek1 = r.json()["seek"].as_str().unwrap().to_string();
    let r = c.pupils[0]
        .web
        .post(&format!("/api/seeks/{seek1}/accept"), json!({}))
        .await;
    assert_eq!((r.status, code_of(&r)), (403, "homework_first".into()));
    let r = c
        .teacher
        .post(&format!("/api/seeks/{early_seek}/accept"), json!({}))
        .await;
    assert_eq!((r.status, code_of(&r)), (403, "homework_first".into()));
    // The teacher and an account that is no pupil are not held.
    let r = c.teacher.post("/api/games", engine_game(1, "black")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = grown_up.post("/api/games", engine_game(1, "white")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(play_state(&mut grown_up).await["locked"], false);
    assert_eq!(play_state(&mut c.teacher).await["locked"], false);
    // The homework's games are allowed, checked against the item.
    let (cid, hwid) = (c.id.clone(), hw.clone());
    let hg = move |item: usize| json!({"class": cid, "homework": hwid, "item": item});
    for (body, code) in [
        (
            json!({"opponent": "engine", "level": 1, "color": "white", "homework": hg(2)}),
            "bad_homework_game",
        ),
        (
            json!({"opponent": "engine", "level": 2, "color": "black", "homework": hg(2)}),
            "bad_homework_game",
        ),
        (
            json!({"opponent": "friend", "homework": hg(2)}),
            "bad_homework_game",
        ),
        (
            json!({"opponent": "engine", "level": 2, "color": "white", "homework": hg(0)}),
            "bad_homework_game",
        ),
        (
            json!({"opponent": "engine", "level": 2, "color": "white", "homework": hg(9)}),
            "item_not_found",
        ),
        (
            json!({"opponent": "engine", "level": 2, "color": "white", "fen": MATE_IN_ONE, "homework": hg(2)}),
            "bad_homework_game",
        ),
        (
            json!({"opponent": "engine", "level": 2, "color": "white",
                "homework": {"class": c.id, "homework": "nada", "item": 2}}),
            "homework_not_found",
        ),
    ] {
        let r = c.pupils[0].web.post("/api/games", body.clone()).await;
        assert_eq!(code_of(&r), code, "{body}: {}", r.body);
        assert!((400..500).contains(&r.status));
    }
    // Pupil 1 may not start pupil 0's homework game.
    let r = c.pupils[1]
        .web
        .post(
            "/api/games",
            json!({"opponent": "engine", "level": 2, "color": "white", "homework": hg(2)}),
        )
        .await;
    assert_eq!((r.status, code_of(&r)), (404, "homework_not_found".into()));
    let r = c.pupils[0]
        .web
        .post(
            "/api/games",
            json!({"opponent": "engine", "level": 4, "color": "white", "homework": hg(2)}),
        )
        .await;
    assert_eq!(
        r.status, 201,
        "the item's game (a stronger level): {}",
        r.body
    );
    let game2 = r.json();
    let r = c.pupils[0]
        .web
        .post(
            "/api/games",
            json!({"opponent": "engine", "level": 1, "fen": MATE_IN_ONE, "color": "white",
                   "homework": hg(1)}),
        )
        .await;
    assert_eq!(r.status, 201, "the position's game: {}", r.body);
    let game1 = r.json();
    // Pupil 0 does its homework: the stage; the position won (Qb8#); the
    // game against the engine resigned (a failed item is done: no second
    // try). Still held until the last item.
    post_attempt(
        &mut c.pupils[0].web,
        &c.id,
        &hw,
        0,
        json!({"tries": stage_tries("tablero", false)}),
    )
    .await;
    let mut p = Player::connect(addr, &game1).await;
    assert_eq!(p.play("b1b8").await["t"], "ack");
    let a = post_attempt(
        &mut c.pupils[0].web,
        &c.id,
        &hw,
        1,
        json!({"game": game1["game"]}),
    )
    .await;
    assert_eq!(a["solved"], true, "{a}");
    let st = play_state(&mut c.pupils[0].web).await;
    assert_eq!(
        (st["locked"].clone(), st["pending"][0]["left"].clone()),
        (json!(true), json!(1)),
        "{st}"
    );
    let mut p = Player::connect(addr, &game2).await;
    assert_eq!(p.act(json!({"t": "resign"})).await["t"], "ack");
    let mut handed = None;
    for _ in 0..50 {
        let r = c.pupils[0]
            .web
            .post(
                &format!("/api/classes/{}/tareas/{hw}/items/2/intentos", c.id),
                json!({"game": game2["game"]}),
            )
            .await;
        if r.status == 201 {
            handed = Some(r.json());
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let a = handed.expect("the resigned game handed in");
    assert_eq!(
        (a["solved"].clone(), a["left"].clone()),
        (json!(false), json!(0))
    );
    // Done: free play opens.
    let st = play_state(&mut c.pupils[0].web).await;
    assert_eq!(
        (st["locked"].clone(), st["play_after_homework"].clone()),
        (json!(false), json!(true)),
        "{st}"
    );
    let r = c.pupils[0]
        .web
        .post("/api/games", engine_game(3, "black"))
        .await;
    assert_eq!(r.status, 201, "after the homework: {}", r.body);
    let r = c.pupils[0]
        .web
        .post(&format!("/api/seeks/{seek1}/accept"), json!({}))
        .await;
    assert!(
        r.status == 200 || r.status == 201,
        "a seek after the homework: {}",
        r.body
    );
    // A new homework for the whole class holds both pupils; one past its
    // due time holds nobody; the option turned off frees them.
    let r = c
        .teacher
        .post(
            &format!("/api/classes/{}/tareas", c.id),
            json!({"title": "Atrasada", "due_ms": now_ms() - 60_000,
                   "items": [{"kind": "stage", "stage": "tablero"}]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        play_state(&mut c.pupils[1].web).await["locked"],
        false,
        "past due holds nobody"
    );
    let r = c
        .teacher
        .post(
            &format!("/api/classes/{}/tareas", c.id),
            json!({"title": "Para el viernes", "due_ms": due,
                   "items": [{"kind": "coords", "mode": "buscar", "count": 3}]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    for i in 0..2 {
        let r = c.pupils[i]
            .web
            .post("/api/games", engine_game(1, "white"))
            .await;
        assert_eq!(
            (r.status, code_of(&r)),
            (403, "homework_first".into()),
            "pupil {i}"
        );
    }
    let r = c.teacher.post(&opt, json!({"on": false})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    for i in 0..2 {
        let r = c.pupils[i]
            .web
            .post("/api/games", engine_game(1, "white"))
            .await;
        assert_eq!(r.status, 201, "option off, pupil {i}: {}", r.body);
        let st = play_state(&mut c.pupils[i].web).await;
        assert_eq!(
            (st["locked"].clone(), st["play_after_homework"].clone()),
            (json!(false), json!(false))
        );
    }
}

both_dbs!(play_after, play_after_homework);

/// A shipped puzzle solved by White (so that a pupil playing White owns it).
fn white_solves() -> escaque_analysis::problemas::Puzzle {
    library()
        .puzzles
        .iter()
        .find(|p| p.solver() == escaque::Color::White && p.moves.len() >= 4)
        .expect("a puzzle White solves in two moves")
        .clone()
}

/// Stores `p` as found in `game` (White's, `owner`) at ply 20, as the
/// analysis does (issue 56's queue), under id `id`.
async fn found_in_game(s: &escaque_server::Running, owner: &str, game: &str, id: &str) {
    let p = white_solves();
    let mut row = escaque_server::problemas::row_of(&p, "game", false);
    row.id = id.to_string();
    row.game_id = Some(game.to_string());
    row.game_ply = Some(20);
    row.game_url = format!("/partida/{game}#21");
    s.hub.store.queue_found(owner, &[row]).await.expect("queue");
}

async fn puzzles_from_class_games(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut a = class_with_pupils(&s, 2).await;
    let mut b = class_with_pupils(&s, 1).await;
    // Each pupil 0 plays White against the engine; a puzzle is "found" in
    // each game.
    let ga = a.pupils[0]
        .web
        .post("/api/games", engine_game(1, "white"))
        .await
        .json();
    let gb = b.pupils[0]
        .web
        .post("/api/games", engine_game(1, "white"))
        .await
        .json();
    let ga = ga["game"].as_str().unwrap().to_string();
    let gb = gb["game"].as_str().unwrap().to_string();
    found_in_game(&s, &a.pupils[0].key, &ga, "partidaA1").await;
    found_in_game(&s, &b.pupils[0].key, &gb, "partidaB1").await;
    // The teacher's list: class A's puzzle, with pupil, game and move.
    let list = format!("/api/classes/{}/problemas-partidas", a.id);
    let r = a.teacher.req("GET", &list, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let l = r.json();
    let ps = l["puzzles"].as_array().unwrap();
    assert_eq!(ps.len(), 1, "{l}");
    let p = white_solves();
    let first = escaque::san::san(&p.start, p.moves[0], escaque::Lang::Es);
    assert_eq!(ps[0]["id"], "partidaA1");
    assert_eq!(ps[0]["pupil"], a.pupils[0].name.as_str());
    assert_eq!(ps[0]["real_name"], a.pupils[0].real_name.as_str());
    assert_eq!(ps[0]["game"], ga.as_str());
    assert_eq!(ps[0]["ply"], 20);
    assert!(ps[0]["moved"].as_str().unwrap().ends_with(&first), "{l}");
    // A pupil may not read it; class B's teacher sees only B's.
    let r = a.pupils[1].web.req("GET", &list, None).await;
    assert_eq!((r.status, code_of(&r)), (403, "teachers_only".into()));
    let r = b.teacher.req("GET", &list, None).await;
    assert_eq!((r.status, code_of(&r)), (404, "class_not_found".into()));
    let lb = b
        .teacher
        .req(
            "GET",
            &format!("/api/classes/{}/problemas-partidas", b.id),
            None,
        )
        .await
        .json();
    assert_eq!(lb["puzzles"][0]["id"], "partidaB1", "{lb}");
    assert_eq!(lb["puzzles"].as_array().unwrap().len(), 1);
    // Class A's teacher may not set class B's puzzle (nor an unknown one).
    let due = now_ms() + 86_400_000;
    for id in ["partidaB1", "nada"] {
        let r = a
            .teacher
            .post(
                &format!("/api/classes/{}/tareas", a.id),
                json!({"title": "Ajena", "due_ms": due, "items": [{"kind": "game_puzzle", "id": id}]}),
            )
            .await;
        assert_eq!(
            (r.status, code_of(&r)),
            (400, "bad_item".into()),
            "{id}: {}",
            r.body
        );
    }
    let r = a
        .teacher
        .post(
            &format!("/api/classes/{}/tareas", a.id),
            json!({"title": "De nuestras partidas", "due_ms": due,
                   "items": [{"kind": "game_puzzle", "id": "partidaA1"},
                             {"kind": "stage", "stage": "tablero"}]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let hw = r.json()["id"].as_str().unwrap().to_string();
    // Both pupils of A see it, named as from pupil 0's game.
    let base = format!("/api/classes/{}/tareas/{hw}", a.id);
    let v = a.pupils[1].web.req("GET", &base, None).await.json();
    let it = &v["items"][0];
    assert_eq!(it["kind"], "game_puzzle", "{v}");
    assert_eq!(it["reference"], "partidaA1");
    assert_eq!(it["fen"], p.start.to_fen());
    assert!(
        it["es"].as_str().unwrap().contains(&a.pupils[0].name),
        "{it}"
    );
    // Played step by step: the start, a hint, a right move, the end.
    let step = format!("{base}/items/0/jugada");
    let r = a.pupils[1].web.post(&step, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let st = r.json();
    assert_eq!(
        (st["state"].clone(), st["solver"].clone()),
        (json!("continue"), json!("white"))
    );
    assert_eq!(st["first_move"], p.moves[0].to_string());
    let sol: Vec<String> = p.solution().map(|m| m.to_string()).collect();
    let hint = a.pupils[1]
        .web
        .post(&step, json!({"hint": true}))
        .await
        .json();
    assert_eq!(hint["hint"], p.moves[1].from().to_string(), "{hint}");
    let r = a.pupils[1]
        .web
        .post(&step, json!({"moves": [sol[0]]}))
        .await
        .json();
    assert_eq!(
        r["state"],
        if sol.len() == 1 { "solved" } else { "continue" },
        "{r}"
    );
    if sol.len() > 1 {
        assert_eq!(r["reply"], p.moves[2].to_string());
    }
    let r = a.pupils[1]
        .web
        .post(&step, json!({"moves": sol}))
        .await
        .json();
    assert_eq!(r["state"], "solved", "{r}");
    // A wrong move fails it.
    let shown = p.shown_position();
    let wrong = shown
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| !p.accepts(1, m))
        .unwrap();
    let r = a.pupils[1]
        .web
        .post(&step, json!({"moves": [wrong.to_string()]}))
        .await
        .json();
    assert_eq!(r["state"], "failed", "{r}");
    // Handed in: judged as a shipped puzzle (the solution, clean; a wrong
    // move, failed).
    let ok = post_attempt(&mut a.pupils[1].web, &a.id, &hw, 0, json!({"moves": sol})).await;
    assert_eq!(
        (ok["solved"].clone(), ok["clean"].clone()),
        (json!(true), json!(true)),
        "{ok}"
    );
    let bad = post_attempt(
        &mut a.pupils[0].web,
        &a.id,
        &hw,
        0,
        json!({"moves": [wrong.to_string()]}),
    )
    .await;
    assert_eq!(bad["solved"], false, "{bad}");
    // The grid names the column by the pupil's game.
    let g = a
        .teacher
        .req("GET", &format!("{base}/grid"), None)
        .await
        .json();
    assert!(
        g["items"][0]["label"]
            .as_str()
            .unwrap()
            .contains(&a.pupils[0].name),
        "{g}"
    );
    // Not a step for a pupil of another class, nor for a teacher, nor on
    // an item that is not a game puzzle.
    let r = b.pupils[0].web.post(&step, json!({})).await;
    assert_eq!((r.status, code_of(&r)), (404, "class_not_found".into()));
    let r = a.teacher.post(&step, json!({})).await;
    assert_eq!((r.status, code_of(&r)), (403, "pupils_only".into()));
    let r = a.pupils[1]
        .web
        .post(&format!("{base}/items/1/jugada"), json!({}))
        .await;
    assert_eq!((r.status, code_of(&r)), (400, "bad_step".into()));
    let r = a.pupils[1]
        .web
        .post(&step, json!({"moves": ["a1a1"]}))
        .await;
    assert_eq!((r.status, code_of(&r)), (400, "bad_step".into()));
    // The trainer itself still serves the game's puzzle to its own player
    // only (issue 56): pupil 1 is not served pupil 0's puzzle there.
    let r = a.pupils[1]
        .web
        .req("GET", "/api/puzzles/next?puzzle=partidaA1", None)
        .await;
    assert!(
        r.status != 200 || r.json()["puzzle"]["id"] != "partidaA1",
        "{}",
        r.body
    );
}

both_dbs!(game_puzzles, puzzles_from_class_games);
