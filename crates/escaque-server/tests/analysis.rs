//! Analysis of games (issue 27) over HTTP: a finished game's analysis
//! queued, its progress, the blunder marked, the annotated PGN and
//! "Aprende de tus errores"; every refusal; unfinished analyses queued again
//! after a restart; uploaded PGN; the analysis board; random bodies.

use std::sync::OnceLock;
use std::time::Duration;

use escaque_analysis::Settings;
use escaque_server::client::HttpReply;
use escaque_server::{Config, Database, Running};
use proptest::prelude::*;
use serde_json::{json, Value};

use crate::common::*;

/// Shallow analyses keep the suite fast.
fn shallow(c: &mut Config) {
    c.analysis_settings = Settings {
        depth: Some(6),
        nodes: None,
    };
    c.analysis_workers = 1;
}

/// The fool's mate, finished on the server: 1. f3 e5 2. g4?? Qh4#.
async fn fools_mate(s: &Running) -> (Challenge, String) {
    let c = challenge(s.addr, json!({})).await;
    let (mut w, mut b) = seated(s.addr, &c.created, &c.joined).await;
    play_line(&mut w, &mut b, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    let game = c.game.clone();
    (c, game)
}

/// A game still being played.
async fn game_in_progress(s: &Running) -> (Challenge, String) {
    let c = challenge(s.addr, json!({})).await;
    let (mut w, mut b) = seated(s.addr, &c.created, &c.joined).await;
    play_line(&mut w, &mut b, &["e2e4", "e7e5"]).await;
    let game = c.game.clone();
    (c, game)
}

/// Asks for the analysis of `game` (an empty body).
async fn ask(web: &mut Browser, game: &str) -> HttpReply {
    web.post(&format!("/api/games/{game}/analysis"), json!({}))
        .await
}

/// Polls the view until it is done (or failed), recording the progress
/// seen on the way.
async fn until_done(web: &mut Browser, aid: &str) -> (Value, Vec<Value>) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    let mut seen = Vec::new();
    loop {
        let r = web.req("GET", &format!("/api/analysis/{aid}"), None).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        seen.push(v["progress"].clone());
        match v["status"].as_str() {
            Some("done") | Some("failed") => return (v, seen),
            Some("queued") | Some("running") => {}
            other => panic!("status {other:?}: {v}"),
        }
        assert!(tokio::time::Instant::now() < deadline, "not done: {v}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn request_progress_done(db: Db) {
    let Some(s) = start_with(db, shallow).await else {
        return;
    };
    let (mut c, game) = fools_mate(&s).await;
    // Nobody asked yet.
    let r = c
        .creator
        .req("GET", &format!("/api/games/{game}/analysis"), None)
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "no_analysis");

    let r = ask(&mut c.creator, &game).await;
    assert_eq!(r.status, 202, "{}", r.body);
    let v = r.json();
    assert_eq!(v["status"], "queued");
    assert!(v["queue"].is_u64(), "{v}");
    let aid = v["analysis"].as_str().unwrap().to_string();

    // Asked again (by the other player): the same analysis.
    let again = ask(&mut c.joiner, &game).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.json()["analysis"], aid.as_str());

    let (view, seen) = until_done(&mut c.creator, &aid).await;
    assert_eq!(view["status"], "done", "{view}");
    assert_eq!(view["game"], game.as_str());
    assert_eq!(view["result"], "0-1");
    assert_eq!(view["engine"], "escaque");
    assert_eq!(view["error"], Value::Null);
    // The opening, by position.
    assert_eq!(
        view["opening"]["name_en"], "Barnes Opening: Fool's Mate",
        "{view}"
    );
    assert_eq!(view["opening"]["ply"], 4, "{view}");
    assert!(view["opening"]["name_es"].is_string(), "{view}");
    assert_eq!(view["progress"], json!({"done": 5, "total": 5}));
    for p in &seen {
        assert_eq!(p["total"], 5, "{p}");
        assert!(p["done"].as_u64().unwrap() <= 5, "{p}");
    }
    let a = &view["analysis"];
    let plies = a["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), 4);
    // 2. g4?? walks into mate: a blunder, with what was better.
    assert_eq!(plies[2]["uci"], "g2g4");
    assert_eq!(plies[2]["judgement"], "blunder", "{}", plies[2]);
    assert!(plies[2]["best_san"].is_string(), "{}", plies[2]);
    assert!(plies[2]["best_san_es"].is_string(), "{}", plies[2]);
    assert!(!plies[2]["line"].as_array().unwrap().is_empty());
    assert_eq!(plies[2]["eval"], json!({"mate": -1}));
    // The mating move is never marked; its evaluation is null.
    assert_eq!(plies[3]["judgement"], Value::Null);
    assert_eq!(plies[3]["eval"], Value::Null);
    assert!(a["white"]["blunders"].as_u64().unwrap() >= 1);
    assert!(a["white"]["accuracy"].is_number());
    assert_eq!(a["black"]["blunders"], 0);

    // The view through the game.
    let r = c
        .joiner
        .req("GET", &format!("/api/games/{game}/analysis"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["id"], aid.as_str());

    // The annotated PGN, in Spanish and in English, read back by the
    // library's reader.
    for (lang, word, opening) in [
        ("es", "Error grave.", "Apertura Barnes: mate del loco"),
        ("en", "Blunder.", "Barnes Opening: Fool's Mate"),
    ] {
        let r = c
            .creator
            .req("GET", &format!("/api/analysis/{aid}/pgn?lang={lang}"), None)
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        // (The writer wraps lines at 80 characters.)
        let flat = r.body.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(word), "{}", r.body);
        assert!(r.body.contains("[%eval"), "{}", r.body);
        assert!(r.body.contains("$4"), "{}", r.body);
        let back = escaque::pgn::PgnReader::new(r.body.as_bytes())
            .next_game()
            .expect("a game")
            .expect("it reads");
        assert_eq!(back.mainline().count(), 4);
        // The opening the page names, in the language asked for.
        let name = format!("name_{lang}");
        assert_eq!(
            back.tag("Opening"),
            view["opening"][name.as_str()].as_str(),
            "{}",
            r.body
        );
        assert_eq!(back.tag("Opening"), Some(opening), "{}", r.body);
        assert_eq!(back.tag("ECO"), Some("A00"), "{}", r.body);
        let disposition = r
            .headers
            .iter()
            .find(|(k, _)| k == "content-disposition")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        assert!(disposition.starts_with("attachment"), "{disposition}");
    }

    // Aprende de tus errores: the blunder again is not yet it; the engine's
    // move is; a sound move is good.
    let url = format!("/api/analysis/{aid}/try");
    let r = c.creator.post(&url, json!({"ply": 2, "uci": "g2g4"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["verdict"], "not_yet", "{v}");
    assert_eq!(v["san"], "g4");
    assert_eq!(v["best_san"], plies[2]["best_san"]);
    assert_eq!(v["best_san_es"], plies[2]["best_san_es"]);
    let best = plies[2]["best"].as_str().unwrap();
    let r = c.creator.post(&url, json!({"ply": 2, "uci": best})).await;
    assert_eq!(r.json()["verdict"], "best", "{}", r.body);
    // Anything that does not let the queen in is at worst an inaccuracy
    // away from the best: after 1. f3 e5, 2. e3 or 2. Nc3 keeps the game.
    let mut good = 0;
    for m in ["e2e3", "b1c3", "e2e4", "d2d4"] {
        if m == best {
            continue;
        }
        let r = c.creator.post(&url, json!({"ply": 2, "uci": m})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let verdict = r.json()["verdict"].clone();
        assert!(verdict == "good" || verdict == "not_yet", "{verdict}");
        good += (verdict == "good") as u32;
    }
    assert!(good >= 1, "no sound move judged good");
    // Refusals of the try.
    let r = c.creator.post(&url, json!({"ply": 4, "uci": "e2e4"})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["code"], "bad_ply");
    let r = c.creator.post(&url, json!({"ply": 2, "uci": "e2e5"})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["code"], "illegal_move");
    s.abort();
}
both_dbs!(request_progress_done_t, request_progress_done);

async fn refusals(db: Db) {
    // No worker: what is asked for stays queued.
    let Some(s) = start_with(db, |c| {
        shallow(c);
        c.analysis_workers = 0;
    })
    .await
    else {
        return;
    };
    let mut web = Browser::new(s.addr);
    let r = web.post("/api/games/nosuchgame/analysis", json!({})).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "not_found");
    let r = web.req("GET", "/api/analysis/nosuch", None).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "no_analysis");

    let (mut c, playing) = game_in_progress(&s).await;
    let r = ask(&mut c.creator, &playing).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["code"], "game_not_over");

    // Two requests unfinished, a third refused; the same game again is no
    // new request.
    let (_, g1) = fools_mate(&s).await;
    let (_, g2) = fools_mate(&s).await;
    let (_, g3) = fools_mate(&s).await;
    let r1 = ask(&mut web, &g1).await;
    assert_eq!(r1.status, 202, "{}", r1.body);
    let r2 = ask(&mut web, &g2).await;
    assert_eq!(r2.status, 202, "{}", r2.body);
    assert_eq!(r2.json()["queue"], 1, "{}", r2.body);
    let r3 = ask(&mut web, &g3).await;
    assert_eq!(r3.status, 429, "{}", r3.body);
    assert_eq!(r3.json()["code"], "analysis_busy");
    let up = web
        .post("/api/analysis", json!({"pgn": "1. e4 e5 *"}))
        .await;
    assert_eq!(up.status, 429, "{}", up.body);
    let again = ask(&mut web, &g1).await;
    assert_eq!(again.status, 200, "{}", again.body);
    // Somebody else may still ask.
    let mut other = Browser::new(s.addr);
    let r = ask(&mut other, &g3).await;
    assert_eq!(r.status, 202, "{}", r.body);

    // Not done yet: no PGN, no try.
    let aid = r1.json()["analysis"].as_str().unwrap().to_string();
    let r = web
        .req("GET", &format!("/api/analysis/{aid}/pgn"), None)
        .await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["code"], "analysis_not_done");
    let r = web
        .post(
            &format!("/api/analysis/{aid}/try"),
            json!({"ply": 0, "uci": "e2e4"}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.body);
    let v = web
        .req("GET", &format!("/api/analysis/{aid}"), None)
        .await
        .json();
    assert_eq!(v["status"], "queued");
    assert_eq!(v["queue"], 0);
    assert_eq!(v["analysis"], Value::Null);
    assert_eq!(v["progress"], json!({"done": 0, "total": 5}));

    // A class's game: its players and its class see it; nobody else.
    let class = class_with_pupils(&s, 1).await;
    let (mut cg, class_game) = fools_mate(&s).await;
    s.hub
        .store
        .set_game_class(&class_game, &class.id)
        .await
        .unwrap();
    let mut outsider = Browser::new(s.addr);
    let r = ask(&mut outsider, &class_game).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "not_found");
    let r = ask(&mut cg.creator, &class_game).await;
    assert_eq!(r.status, 202, "{}", r.body);
    let class_aid = r.json()["analysis"].as_str().unwrap().to_string();
    let r = outsider
        .req("GET", &format!("/api/analysis/{class_aid}"), None)
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    let r = outsider
        .req("GET", &format!("/api/games/{class_game}/analysis"), None)
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    let mut teacher = class.teacher;
    let r = teacher
        .req("GET", &format!("/api/analysis/{class_aid}"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let mut pupil = class.pupils.into_iter().next().unwrap().web;
    let r = pupil
        .req("GET", &format!("/api/games/{class_game}/analysis"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    s.abort();
}
both_dbs!(refusals_t, refusals);

async fn restart_requeues(db: Db) {
    let Some(url) = own_database_url(db, "an_restart").await else {
        return;
    };
    let first = start_with(db, |c| {
        shallow(c);
        c.analysis_workers = 0;
        c.database = Database::Url(url.clone());
    })
    .await
    .unwrap();
    let (mut a, g1) = fools_mate(&first).await;
    let (mut b, g2) = fools_mate(&first).await;
    let r1 = ask(&mut a.creator, &g1).await;
    let r2 = ask(&mut b.creator, &g2).await;
    let a1 = r1.json()["analysis"].as_str().unwrap().to_string();
    let a2 = r2.json()["analysis"].as_str().unwrap().to_string();
    // One of them was running when the server went down.
    let claimed = first
        .hub
        .store
        .claim_analysis(&first.hub.node.name)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(claimed.id, a1);
    assert_eq!(
        first.hub.store.analysis(&a1).await.unwrap().unwrap().status,
        "running"
    );
    first.abort();
    drop(first);

    let second = start_with(db, |c| {
        shallow(c);
        c.database = Database::Url(url.clone());
    })
    .await
    .unwrap();
    let mut web = Browser::new(second.addr);
    for aid in [&a1, &a2] {
        let (v, _) = until_done(&mut web, aid).await;
        assert_eq!(v["status"], "done", "{v}");
        assert_eq!(v["analysis"]["plies"][2]["judgement"], "blunder");
    }
    second.abort();
}
both_dbs!(restart_requeues_t, restart_requeues);

const TWO_GAMES: &str = r#"[Event "Casual"]
[White "Ana"]
[Black "Beto"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "Casual"]
[White "Carla"]
[Black "Dani"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0
"#;

async fn upload(db: Db) {
    let Some(s) = start_with(db, shallow).await else {
        return;
    };
    let mut web = Browser::new(s.addr);
    // Two good games and a broken one: nothing is queued, and the message
    // says where.
    let broken = format!("{TWO_GAMES}\n[White \"Eva\"]\n[Black \"Fede\"]\n\n1. e4 e5 2. Ke3 *\n");
    let r = web.post("/api/analysis", json!({"pgn": broken})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    let v = r.json();
    assert_eq!(v["code"], "pgn_invalid");
    let es = v["es"].as_str().unwrap();
    let en = v["en"].as_str().unwrap();
    assert!(es.contains("partida 3") && es.contains("línea 18"), "{es}");
    assert!(en.contains("Ke3"), "{en}");

    let r = web
        .post("/api/analysis", json!({"pgn": "no es un PGN {"}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["code"], "pgn_invalid");
    let r = web.post("/api/analysis", json!({"pgn": ""})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    let many = "1. e4 e5 *\n\n".repeat(21);
    let r = web.post("/api/analysis", json!({"pgn": many})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["code"], "too_many_games");
    let large = format!("{{{}}} 1. e4 *", "x".repeat(600 * 1024));
    let r = web.post("/api/analysis", json!({"pgn": large})).await;
    assert_eq!(r.status, 413, "{}", r.body);
    assert_eq!(r.json()["code"], "too_large");

    let r = web.post("/api/analysis", json!({"pgn": TWO_GAMES})).await;
    assert_eq!(r.status, 202, "{}", r.body);
    let list = r.json()["analyses"].as_array().unwrap().clone();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["white"], "Ana");
    assert_eq!(list[1]["black"], "Dani");
    // One request: the asker may still ask for one more.
    let (_, g) = fools_mate(&s).await;
    let r = ask(&mut web, &g).await;
    assert_eq!(r.status, 202, "{}", r.body);
    for (i, item) in list.iter().enumerate() {
        let (v, _) = until_done(&mut web, item["analysis"].as_str().unwrap()).await;
        assert_eq!(v["status"], "done", "{v}");
        assert_eq!(v["game"], Value::Null);
        let plies = v["analysis"]["plies"].as_array().unwrap();
        if i == 0 {
            assert_eq!(v["result"], "0-1");
            assert_eq!(plies[2]["judgement"], "blunder");
        } else {
            assert_eq!(v["result"], "1-0");
            assert_eq!(plies.len(), 7);
            // 3... Nf6?? lets the queen mate.
            assert_eq!(plies[5]["judgement"], "blunder", "{}", plies[5]);
        }
    }
    s.abort();
}
both_dbs!(upload_t, upload);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_board() {
    let s = start_with(Db::Sqlite, |c| {
        shallow(c);
        c.analysis_burst = 3.0;
        c.analysis_per_sec = 0.0;
    })
    .await
    .unwrap();
    let mut web = Browser::new(s.addr);
    let board = "/api/analysis/position";
    let r = web
        .post(board, json!({"moves": ["e2e4"], "lines": 0}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert_eq!(v["turn"], "black");
    let sorted = |v: &Value| {
        let mut l: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect();
        l.sort();
        l
    };
    assert_eq!(sorted(&v["legal"]["e7"]), ["e5", "e6"]);
    assert_eq!(sorted(&v["legal"]["g8"]), ["f6", "h6"]);
    assert_eq!(v["legal"].as_object().unwrap().len(), 10);
    assert_eq!(
        v["last"],
        json!({"uci": "e2e4", "san": "e4", "san_es": "e4"})
    );
    assert_eq!(v["over"], Value::Null);
    assert_eq!(v["lines"], json!([]));
    assert_eq!(v["opening"]["eco"], "B00", "{v}");

    // Lines from the engine: several, best first, with SAN.
    let r = web
        .post(
            board,
            json!({"fen": "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "lines": 3}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{v}");
    assert_eq!(lines[0]["uci"][0], "h5f7");
    assert_eq!(lines[0]["san"][0], "Qxf7#");
    assert_eq!(lines[0]["san_es"][0], "Dxf7#");
    assert_eq!(lines[0]["eval"], json!({"mate": 1}));
    assert!(lines[0]["wc"].as_f64().unwrap() > 0.95);

    // A finished position: no legal moves, no lines, the ending.
    let r = web
        .post(
            board,
            json!({"moves": ["f2f3", "e7e5", "g2g4", "d8h4"], "lines": 2}),
        )
        .await;
    let v = r.json();
    assert_eq!(v["over"], "checkmate", "{v}");
    assert_eq!(v["legal"], json!({}));
    assert_eq!(v["lines"], json!([]));
    assert_eq!(v["last"]["san_es"], "Dh4#");
    let r = web
        .post(
            board,
            json!({"fen": "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "lines": 0}),
        )
        .await;
    assert_eq!(r.json()["over"], "stalemate", "{}", r.body);

    // Refusals.
    let r = web
        .post(board, json!({"fen": "rnbqkbnr/pppppppp/8/8 w KQkq - 0 1"}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.json()["code"], "fen_invalid");
    let r = web
        .post(board, json!({"moves": ["e2e4", "e2e4"], "lines": 0}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    let v = r.json();
    assert_eq!(v["code"], "illegal_move");
    assert!(v["es"].as_str().unwrap().contains("jugada 2"), "{v}");
    let r = web
        .post(
            board,
            json!({"moves": ["f2f3", "e7e5", "g2g4", "d8h4", "a2a3"], "lines": 0}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    let r = web.post(board, json!({"lines": 6})).await;
    assert_eq!(r.status, 400, "{}", r.body);

    // The engine's searches are limited per address (3 here: one spent
    // above); the board without the engine is not.
    let mut limited = 0;
    for _ in 0..4 {
        let r = web.post(board, json!({"lines": 1})).await;
        limited += (r.status == 429) as u32;
        if r.status == 429 {
            assert_eq!(r.json()["code"], "rate_limited");
        }
    }
    assert_eq!(limited, 2);
    let r = web.post(board, json!({"lines": 0})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    s.abort();
}

// ---------------------------------------------------------------- random bodies

struct Fixture {
    rt: tokio::runtime::Runtime,
    addr: std::net::SocketAddr,
    aid: String,
    game: String,
}

/// A server with one finished analysis (of an uploaded game).
fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let rt = runtime();
        let (addr, aid, game) = rt.block_on(async {
            let s = start_with(Db::Sqlite, |c| {
                shallow(c);
                c.analysis_settings.depth = Some(3);
                c.analysis_burst = 1e9;
                c.analysis_per_sec = 1e9;
            })
            .await
            .unwrap();
            let (_, game) = fools_mate(&s).await;
            let mut web = Browser::new(s.addr);
            let r = web.post("/api/analysis", json!({"pgn": TWO_GAMES})).await;
            let aid = r.json()["analyses"][0]["analysis"]
                .as_str()
                .unwrap()
                .to_string();
            let (v, _) = until_done(&mut web, &aid).await;
            assert_eq!(v["status"], "done");
            let addr = s.addr;
            std::mem::forget(s);
            (addr, aid, game)
        });
        Fixture {
            rt,
            addr,
            aid,
            game,
        }
    })
}

fn body() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e6f64..1e6).prop_map(Value::from),
        ".{0,20}".prop_map(Value::from),
        "[a-h][1-8][a-h][1-8][qrbn]?".prop_map(Value::from),
        Just(json!("8/8/8/8/8/8/8/8 w - - 0 1")),
        Just(json!("1. e4 e5 2. Nf3 *")),
    ];
    let value = leaf.prop_recursive(2, 8, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::vec(("[a-z]{1,6}", inner), 0..3)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    });
    let field = prop::sample::select(vec![
        "pgn", "fen", "moves", "lines", "chess960", "ply", "uci", "x",
    ]);
    prop::collection::vec((field, value), 0..5)
        .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random bodies to every new endpoint: an answer (never 500), and the
    /// server keeps serving.
    #[test]
    fn random_bodies_never_fail_the_server(b in body(), which in 0usize..4) {
        let f = fixture();
        let path = match which {
            0 => "/api/analysis".to_string(),
            1 => "/api/analysis/position".to_string(),
            2 => format!("/api/analysis/{}/try", f.aid),
            _ => format!("/api/games/{}/analysis", f.game),
        };
        let status = f.rt.block_on(async {
            let r = escaque_server::client::http(f.addr, "POST", &path, Some(&b), &[])
                .await
                .expect("an answer");
            r.status
        });
        prop_assert!(status < 500 || status == 503, "{path} {b}: {status}");
        let alive = f.rt.block_on(async {
            escaque_server::client::http(f.addr, "GET", &format!("/api/analysis/{}", f.aid), None, &[])
                .await
                .map(|r| r.status)
        });
        prop_assert_eq!(alive.ok(), Some(200));
    }
}

/// One game analysed by the UCI engine at `engine`.
struct EngineRun {
    server: Running,
    players: Challenge,
    game: String,
    aid: String,
    view: Value,
}

/// A shallow server analysing with the UCI engine at `engine`: the fool's
/// mate finished on it, its analysis asked for (and queued) and waited for.
async fn analysed_by(db: Db, engine: &std::path::Path) -> Option<EngineRun> {
    let server = start_with(db, |c| {
        shallow(c);
        c.analysis_engine = Some(engine.to_path_buf());
    })
    .await?;
    let (mut players, game) = fools_mate(&server).await;
    let r = ask(&mut players.creator, &game).await;
    assert_eq!(r.status, 202, "{}", r.body);
    let aid = r.json()["analysis"].as_str().unwrap().to_string();
    let (view, _) = until_done(&mut players.creator, &aid).await;
    Some(EngineRun {
        server,
        players,
        game,
        aid,
        view,
    })
}

/// Another UCI engine named by the administrator analyses instead of
/// escaque's (Debian's Stockfish, when installed), and an engine that
/// cannot be started fails the analysis with a reason.
async fn uci_engine(db: Db) {
    let bogus = std::path::Path::new("/nonexistent/motor-de-analisis");
    let Some(mut run) = analysed_by(db, bogus).await else {
        return;
    };
    let v = &run.view;
    assert_eq!(v["status"], "failed", "{v}");
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    assert_eq!(v["engine"], "motor-de-analisis");
    // Asked for again, it is queued again (and fails again).
    let r = ask(&mut run.players.creator, &run.game).await;
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.json()["analysis"], run.aid.as_str());
    run.server.abort();

    let stockfish = std::path::Path::new("/usr/games/stockfish");
    if !stockfish.exists() {
        eprintln!("Stockfish part not run: /usr/games/stockfish is not installed");
        return;
    }
    let Some(mut run) = analysed_by(db, stockfish).await else {
        return;
    };
    let v = &run.view;
    assert_eq!(v["status"], "done", "{v}");
    assert!(
        v["engine"].as_str().unwrap().starts_with("Stockfish"),
        "{v}"
    );
    assert_eq!(v["analysis"]["plies"][2]["judgement"], "blunder");
    let r = run
        .players
        .creator
        .post(
            "/api/analysis/position",
            json!({"moves": ["e2e4", "e7e5"], "lines": 2}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["lines"].as_array().unwrap().len(), 2, "{}", r.body);
    run.server.abort();
}
both_dbs!(uci_engine_t, uci_engine);

/// The first game of the held-out judged set (issue 54): 1350 against 1500,
/// with marks of every grade.
fn judged_game() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testing/judged-set/games.pgn"
    );
    let text = std::fs::read_to_string(path).expect("testing/judged-set/games.pgn");
    let end = text[1..].find("\n[Event ").map_or(text.len(), |i| i + 1);
    text[..end].to_string()
}

/// The web analysis gives the marks the command line gives (issue 54): the
/// same game and settings, analysed by the server's worker (uploaded PGN)
/// and by what `escaque analizar` runs (crates/escaque-cli/src/analizar_cmd.rs:
/// a fresh `EscaqueEvaluator` with the settings and a fresh cache,
/// `analyse_game`, then `annotate`): the same mark and evaluation on every
/// move, and the same NAGs and `[%eval]`s in the annotated PGN downloaded.
async fn web_marks_as_command_line(db: Db) {
    use escaque::pgn::{write_game, PgnReader, PgnStyle};
    use escaque::{Lang, Move};
    use escaque_analysis::annotate::annotate;
    use escaque_analysis::{analyse_game, Cache, EscaqueEvaluator};
    use std::sync::atomic::AtomicBool;

    let settings = Settings {
        depth: Some(8),
        nodes: None,
    };
    let Some(s) = start_with(db, move |c| {
        c.analysis_settings = settings;
        c.analysis_workers = 1;
    })
    .await
    else {
        return;
    };
    let pgn = judged_game();
    let mut web = Browser::new(s.addr);
    let r = web.post("/api/analysis", json!({"pgn": pgn})).await;
    assert_eq!(r.status, 202, "{}", r.body);
    let aid = r.json()["analyses"][0]["analysis"]
        .as_str()
        .expect("an analysis")
        .to_string();
    let (view, _) = until_done(&mut web, &aid).await;
    assert_eq!(view["status"], "done", "{view}");
    let web_plies = view["analysis"]["plies"].as_array().expect("plies").clone();

    // The command line's way.
    let mut game = PgnReader::new(pgn.as_bytes())
        .next_game()
        .expect("a game")
        .expect("it reads");
    let moves: Vec<Move> = game.mainline().take_while(|m| !m.is_null()).collect();
    let mut evaluator = EscaqueEvaluator::new(settings);
    let cache = Cache::new(200_000);
    let cli = analyse_game(
        &game.start,
        &moves,
        &mut evaluator,
        Some(&cache),
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .expect("the analysis");
    assert_eq!(web_plies.len(), cli.plies.len());
    let mut marked = 0;
    for (w, c) in web_plies.iter().zip(&cli.plies) {
        let mark = c.judgement.map(|j| j.id());
        assert_eq!(w["judgement"].as_str(), mark, "ply {}: {w}", c.ply);
        assert_eq!(
            w["eval"],
            serde_json::to_value(c.eval).unwrap(),
            "ply {}",
            c.ply
        );
        marked += mark.is_some() as usize;
    }
    // Not a vacuous agreement: the game has marks at this depth.
    assert!(marked >= 5, "only {marked} marks");

    // The annotated PGN: the page's download against the command line's
    // output, move by move (comments and variations as they are).
    annotate(&mut game, &cli, Lang::Es);
    let mut text = String::new();
    write_game(&mut text, &game, PgnStyle::export());
    let r = web
        .req("GET", &format!("/api/analysis/{aid}/pgn?lang=es"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let read = |t: &str| {
        PgnReader::new(t.as_bytes())
            .next_game()
            .expect("a game")
            .expect("it reads")
    };
    let (down, ours) = (read(&r.body), read(&text));
    assert_eq!(down.moves.len(), ours.moves.len());
    for (i, (a, b)) in down.moves.iter().zip(&ours.moves).enumerate() {
        assert_eq!(a.mv, b.mv, "ply {i}");
        assert_eq!(a.nags, b.nags, "ply {i}: the marks");
        let eval = |n: &escaque::pgn::Node| {
            n.comments
                .iter()
                .flat_map(|c| c.split("[%eval ").nth(1))
                .map(|e| e.split(']').next().unwrap_or("").to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(eval(a), eval(b), "ply {i}: the evaluations");
    }
    s.abort();
}
both_dbs!(web_marks_as_command_line_t, web_marks_as_command_line);
