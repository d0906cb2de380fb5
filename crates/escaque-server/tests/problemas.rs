//! The puzzle trainer (issue 56) over HTTP: the shipped sets loaded on
//! start (once: a second start adds nothing), a solver who solves three and
//! misses one and whose rating moves by what an independent Glicko-2 gives,
//! the missed one in the queue, a hint and the solution, the refusals (an
//! answer for a puzzle not served, sent twice, someone else's), streak
//! mode, a game analysed adding its puzzles to its player's queue, and
//! random answers.

use std::sync::OnceLock;
use std::time::Duration;

use escaque::coord::to_uci;
use escaque_analysis::problemas::{shipped, shipped_mates, Puzzle};
use escaque_server::problemas::row_of;
use escaque_server::store::problemas::PuzzleRow;
use escaque_server::Config;
use escaque_torneo::glicko::Glicko;
use proptest::prelude::*;
use serde_json::{json, Value};

use crate::common::*;

/// What the PyPI package `glicko2` 2.1.0 (Ryan Kirkman's implementation, run
/// outside the project: /work/ref/glicko2-check/check.py; it reproduces
/// Glickman's worked example, 1464.05 / 151.52 / 0.05999) gives for a new
/// solver (1500, RD 500) against four puzzles rated 1400, 1600, 1800 and
/// 1500 (RD 80), solving the first three and missing the last, each a
/// rating period of its own with no deviation increase (lichess's), τ =
/// 0.75: (puzzle, its rating, score, the solver's rating before, after,
/// the solver's deviation after, the puzzle's rating and deviation after).
pub(crate) type Independent = (&'static str, f64, u8, f64, f64, f64, f64, f64);

/// The four rows described above.
pub(crate) const INDEPENDENT: [Independent; 4] = [
    (
        "glickoA",
        1400.0,
        1,
        1500.000000000,
        1681.230989278,
        298.714579157,
        1391.795191765,
        79.417583438,
    ),
    (
        "glickoB",
        1600.0,
        1,
        1681.230989278,
        1797.778137357,
        231.850064187,
        1589.172369951,
        78.936232021,
    ),
    (
        "glickoC",
        1800.0,
        1,
        1797.778137357,
        1904.163341672,
        194.678801665,
        1785.582574021,
        78.658706110,
    ),
    (
        "glickoD",
        1500.0,
        0,
        1904.163341672,
        1730.388554412,
        185.504493299,
        1527.093263538,
        79.353095581,
    ),
];

fn close(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() < 1e-6,
        "{what}: {got} is not {want} (within 1e-6)"
    );
}

/// The children's mates in one, as many as asked.
pub(crate) fn mates_in_one(n: usize) -> Vec<Puzzle> {
    shipped_mates()
        .into_iter()
        .filter(|p| p.moves.len() == 2)
        .take(n)
        .collect()
}

/// A legal move of the solver that neither is the solution nor mates.
pub(crate) fn wrong_move(p: &Puzzle) -> String {
    let pos = p.shown_position();
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| {
            let mut after = pos;
            after.play_unchecked(m);
            m != p.moves[1] && !after.is_checkmate()
        })
        .map(to_uci)
        .expect("a wrong move")
}

async fn next(web: &mut Browser, query: &str) -> Value {
    let r = web
        .req("GET", &format!("/api/puzzles/next{query}"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

async fn answer(web: &mut Browser, attempt: &str, moves: &[String]) -> (u16, Value) {
    let r = web
        .post(
            &format!("/api/puzzles/attempts/{attempt}/answer"),
            json!({"moves": moves, "time_ms": 4200}),
        )
        .await;
    (r.status, r.json())
}

async fn rated_and_queue(db: Db) {
    // On an empty database: the server's first start stores the catalogue
    // (the other tests' servers start on copies of a database that has it).
    let Some(s) = start_on_empty(db).await else {
        return;
    };
    let store = &s.hub.store;
    // The shipped sets are stored, every one.
    let ids = store.puzzle_ids().await.unwrap();
    let all: Vec<Puzzle> = shipped().into_iter().chain(shipped_mates()).collect();
    assert!(all.len() >= 1000, "{}", all.len());
    for p in &all {
        assert!(ids.contains(&p.id), "{} not loaded", p.id);
    }
    // Loading again adds nothing.
    assert_eq!(
        escaque_server::problemas::load_catalogue(store)
            .await
            .unwrap(),
        0
    );
    // The sets' fingerprint is kept: a start with the same sets reads
    // neither the CSVs nor the stored ids. With another one stored (an
    // older build's), they are looked at again: nothing new, and the
    // fingerprint is this build's again.
    let fingerprint = escaque_analysis::problemas::shipped_fingerprint();
    assert_eq!(
        store.shipped_puzzles_fingerprint().await.unwrap(),
        Some(fingerprint.clone())
    );
    store.set_shipped_puzzles_fingerprint("0").await.unwrap();
    assert_eq!(
        escaque_server::problemas::load_catalogue(store)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store.shipped_puzzles_fingerprint().await.unwrap(),
        Some(fingerprint)
    );
    // The theme menu's source: every theme of the catalogue with its
    // count, as counted here from the CSVs; most puzzles first.
    let mut web = Browser::new(s.addr);
    let themes = web.req("GET", "/api/puzzles/themes", None).await.json();
    let mut want: std::collections::BTreeMap<String, i64> = Default::default();
    let mut ids = std::collections::HashSet::new();
    for p in &all {
        if ids.insert(p.id.clone()) {
            for t in &p.themes {
                *want.entry(t.clone()).or_default() += 1;
            }
        }
    }
    assert_eq!(themes["kid"], false, "{themes}");
    assert_eq!(themes["puzzles"], ids.len() as i64);
    let got: std::collections::BTreeMap<String, i64> = themes["themes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["theme"]["key"].as_str().unwrap().to_string(),
                t["puzzles"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, want);
    let counts: Vec<i64> = themes["themes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["puzzles"].as_i64().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
    assert_eq!(themes["themes"][0]["theme"]["es"], "mate");

    // Four puzzles of known ratings (the mates' positions, new ids).
    let base = mates_in_one(4);
    let rows: Vec<PuzzleRow> = base
        .iter()
        .zip(INDEPENDENT)
        .map(|(p, (id, rating, ..))| {
            let mut r = row_of(p, "shipped", false);
            r.id = id.to_string();
            r.glicko = Glicko {
                rating,
                deviation: 80.0,
                volatility: 0.09,
            };
            r
        })
        .collect();
    assert_eq!(store.insert_puzzles(&rows).await.unwrap(), 4);

    let mut missed = String::new();
    let mut answered = Vec::new();
    for (p, (id, _, score, before, after, rd, p_after, p_rd)) in base.iter().zip(INDEPENDENT) {
        let served = next(&mut web, &format!("?puzzle={id}")).await;
        assert_eq!(served["mode"], "rating", "{served}");
        assert_eq!(served["puzzle"]["id"], id);
        assert_eq!(served["puzzle"]["first_move"], to_uci(p.moves[0]));
        assert_eq!(served["puzzle"]["solver_moves"], 1);
        assert_eq!(served["kid"], false);
        // The solution is not served.
        assert!(!served.to_string().contains("solution"), "{served}");
        let attempt = served["attempt"].as_str().unwrap().to_string();
        let moves = if score == 1 {
            vec![to_uci(p.moves[1])]
        } else {
            missed = id.to_string();
            vec![wrong_move(p)]
        };
        let (status, v) = answer(&mut web, &attempt, &moves).await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["state"], if score == 1 { "solved" } else { "failed" });
        close("before", v["rating"]["before"].as_f64().unwrap(), before);
        close("after", v["rating"]["after"].as_f64().unwrap(), after);
        close("rd", v["rating"]["deviation"].as_f64().unwrap(), rd);
        assert_eq!(v["rating"]["diff"], after as i64 - before as i64);
        assert_eq!(v["puzzle_rating"], p_after as i64);
        let stored = store.puzzle(id).await.unwrap().unwrap();
        close("puzzle", stored.glicko.rating, p_after);
        close("puzzle rd", stored.glicko.deviation, p_rd);
        assert_eq!(stored.plays, 1);
        assert_eq!(v["solution"][0], to_uci(p.moves[1]), "{v}");
        assert_eq!(v["queued_until"].is_null(), score == 1, "{v}");
        // Sent twice: refused, nothing moves.
        let (status, again) = answer(&mut web, &attempt, &moves).await;
        assert_eq!(status, 409, "{again}");
        assert_eq!(again["code"], "already_answered");
        answered.push(attempt);
    }
    let me = web.req("GET", "/api/puzzles/me", None).await.json();
    close(
        "profile",
        me["rating"]["rating"].as_f64().unwrap(),
        INDEPENDENT[3].4.trunc(),
    );
    assert_eq!(me["rated"], 4, "{me}");
    assert_eq!(me["history"].as_array().unwrap().len(), 4);
    assert_eq!(me["history"][0]["puzzle"], missed, "{me}");
    assert_eq!(me["history"][0]["solved"], false);
    assert_eq!(me["history"][0]["time_ms"], 4200);
    // The missed one is in the queue, back in a day.
    let queue = me["queue"].as_array().unwrap();
    assert_eq!(queue.len(), 1, "{me}");
    assert_eq!(queue[0]["puzzle"], missed);
    assert_eq!(queue[0]["step"], 0);
    assert_eq!(queue[0]["due_now"], false);
    // Per theme: four mates in one, three solved.
    let mate1 = me["themes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["theme"]["key"] == "mateIn1")
        .unwrap_or_else(|| panic!("{me}"));
    assert_eq!(
        (mate1["tried"].as_u64(), mate1["solved"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(mate1["theme"]["es"], "mate en 1");
    // Nothing due yet in the queue.
    let r = web.req("GET", "/api/puzzles/next?mode=queue", None).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "queue_empty");

    // Not served: an attempt that does not exist, someone else's.
    let (status, v) = answer(&mut web, "noexiste", &["e2e4".into()]).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (404, Some("no_attempt")),
        "{v}"
    );
    let mut other = Browser::new(s.addr);
    let served = next(&mut other, "").await;
    let theirs = served["attempt"].as_str().unwrap();
    let (status, v) = answer(&mut web, theirs, &["e2e4".into()]).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (404, Some("no_attempt")),
        "{v}"
    );
    // An illegal move: 400 with where, nothing stored (the attempt stays
    // open); too many moves; no move.
    let (status, v) = answer(&mut other, theirs, &["a1a1".into()]).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (400, Some("bad_answer")),
        "{v}"
    );
    assert!(v["es"].as_str().unwrap().contains("jugada 1"), "{v}");
    let (status, v) = answer(&mut other, theirs, &[]).await;
    assert_eq!(status, 400, "{v}");
    let long: Vec<String> = (0..65).map(|_| "e2e4".to_string()).collect();
    let (status, v) = answer(&mut other, theirs, &long).await;
    assert_eq!(status, 400, "{v}");
    // Unknown mode, theme, difficulty.
    for q in [
        "?mode=blitz",
        "?theme=nada",
        "?difficulty=imposible",
        "?foo=1",
    ] {
        let r = other
            .req("GET", &format!("/api/puzzles/next{q}"), None)
            .await;
        assert_eq!(r.status, 400, "{q}: {}", r.body);
    }
    // By theme and difficulty: a mate in two.
    let served = next(&mut other, "?theme=mateIn2&difficulty=easier").await;
    assert_eq!(served["puzzle"]["solver_moves"], 2, "{served}");

    // A hint: the piece to move, then solved with it: half a point.
    let p = &base[0];
    let mut third = Browser::new(s.addr);
    let served = next(&mut third, "?puzzle=glickoA").await;
    let attempt = served["attempt"].as_str().unwrap().to_string();
    let h = third
        .post(
            &format!("/api/puzzles/attempts/{attempt}/hint"),
            json!({"moves": [], "time_ms": 0}),
        )
        .await;
    assert_eq!(h.status, 200, "{}", h.body);
    let h = h.json();
    assert_eq!(h["square"], p.moves[1].from().to_string());
    assert_eq!(h["hints"], 1);
    let role = p.shown_position().role_at(p.moves[1].from()).unwrap();
    assert_eq!(h["piece_es"], role.name_es());
    let (status, v) = answer(&mut third, &attempt, &[to_uci(p.moves[1])]).await;
    assert_eq!(status, 200, "{v}");
    let rating = store.puzzle("glickoA").await.unwrap().unwrap().glicko;
    let _ = rating;
    let [half, _] = escaque_torneo::glicko::rate_game(
        Glicko::DEFAULT,
        Glicko {
            rating: INDEPENDENT[0].6,
            deviation: INDEPENDENT[0].7,
            volatility: 0.09,
        },
        0.5,
        escaque_torneo::glicko::ColorAdvantage::ZERO,
    )
    .unwrap();
    assert!(
        (v["rating"]["after"].as_f64().unwrap() - half.rating).abs() < 1e-3,
        "{v}"
    );
    // The solution: the attempt ends failed, rated as a miss, once.
    let served = next(&mut third, "?puzzle=glickoB").await;
    let attempt = served["attempt"].as_str().unwrap().to_string();
    let sol = third
        .post(
            &format!("/api/puzzles/attempts/{attempt}/solution"),
            json!({}),
        )
        .await;
    assert_eq!(sol.status, 200, "{}", sol.body);
    let sol = sol.json();
    assert_eq!(sol["state"], "failed");
    assert_eq!(sol["solution"][0], to_uci(base[1].moves[1]));
    assert!(sol["rating"]["diff"].as_i64().unwrap() < 0, "{sol}");
    let again = third
        .post(
            &format!("/api/puzzles/attempts/{attempt}/solution"),
            json!({}),
        )
        .await;
    assert_eq!(again.status, 409, "{}", again.body);
    // The same puzzle again: not rated a second time.
    let served = next(&mut third, "?puzzle=glickoB").await;
    let attempt = served["attempt"].as_str().unwrap().to_string();
    let (status, v) = answer(&mut third, &attempt, &[to_uci(base[1].moves[1])]).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"], "solved");
    assert!(v["rating"].is_null(), "{v}");
    s.abort();
}

both_dbs!(
    solves_three_misses_one_rated_as_glicko2_says,
    rated_and_queue
);

async fn streak(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut web = Browser::new(s.addr);
    let mut rating_before = None;
    for round in 0..3 {
        let served = next(&mut web, "?mode=streak").await;
        assert_eq!(served["mode"], "streak");
        assert_eq!(served["streak"], round, "{served}");
        let id = served["puzzle"]["id"].as_str().unwrap();
        let p = s.hub.store.puzzle(id).await.unwrap().unwrap();
        rating_before.get_or_insert(p.glicko.rating);
        let attempt = served["attempt"].as_str().unwrap().to_string();
        // The solver's moves of the line, played in turn.
        let solver: Vec<String> = p.moves.iter().skip(1).step_by(2).cloned().collect();
        let mut moves = Vec::new();
        let mut last = Value::Null;
        for m in &solver {
            moves.push(m.clone());
            let (status, v) = answer(&mut web, &attempt, &moves).await;
            assert_eq!(status, 200, "{v}");
            last = v;
        }
        assert_eq!(last["state"], "solved", "{last}");
        assert_eq!(last["streak"], round + 1);
        // Streak mode is not rated.
        assert!(last["rating"].is_null(), "{last}");
    }
    let me = web.req("GET", "/api/puzzles/me", None).await.json();
    assert_eq!(
        (me["streak"].as_i64(), me["best_streak"].as_i64()),
        (Some(3), Some(3))
    );
    assert!(me["rating"].is_null(), "{me}");
    s.abort();
}

both_dbs!(streak_mode_counts_and_is_not_rated, streak);

fn shallow(c: &mut Config) {
    c.analysis_settings = escaque_analysis::Settings {
        depth: Some(6),
        nodes: None,
    };
    c.analysis_workers = 1;
}

/// The fool's mate analysed: 2. g4?? lets Black mate; the puzzle joins
/// Black's queue (Black's owner), due now, linked to the game's move, and
/// is served from the queue.
async fn from_games(db: Db) {
    let Some(s) = start_with(db, shallow).await else {
        return;
    };
    let c = challenge(s.addr, json!({})).await;
    let (mut w, mut b) = seated(s.addr, &c.created, &c.joined).await;
    play_line(&mut w, &mut b, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    let game = c.game.clone();
    let (mut creator, mut joiner) = (c.creator, c.joiner);
    // Which browser has Black.
    let black_is_creator = c.created["seat"] == "black";
    let _ = (&w, &b);
    let r = creator
        .post(&format!("/api/games/{game}/analysis"), json!({}))
        .await;
    assert_eq!(r.status, 202, "{}", r.body);
    let black = if black_is_creator {
        &mut creator
    } else {
        &mut joiner
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    let queue = loop {
        let me = black.req("GET", "/api/puzzles/me", None).await.json();
        let q = me["queue"].as_array().cloned().unwrap_or_default();
        if !q.is_empty() {
            break q;
        }
        assert!(tokio::time::Instant::now() < deadline, "no puzzle: {me}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(queue.len(), 1, "{queue:?}");
    assert_eq!(queue[0]["due_now"], true);
    assert_eq!(queue[0]["step"], -1);
    assert_eq!(queue[0]["game"]["game"], game.as_str());
    assert_eq!(queue[0]["game"]["ply"], 3);
    assert_eq!(queue[0]["game"]["url"], format!("/partida/{game}#3"));
    let served = next(black, "?mode=queue").await;
    assert_eq!(served["puzzle"]["first_move"], "g2g4", "{served}");
    assert_eq!(served["puzzle"]["solver"], "black");
    let attempt = served["attempt"].as_str().unwrap().to_string();
    let (status, v) = answer(black, &attempt, &["d8h4".into()]).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"], "solved");
    assert!(v["themes"].to_string().contains("mateIn1"), "{v}");
    // Solved the first time: it leaves the queue.
    let me = black.req("GET", "/api/puzzles/me", None).await.json();
    assert_eq!(me["queue"], json!([]), "{me}");
    // White's queue is empty; the game's puzzle is no one else's to draw.
    let white = if black_is_creator {
        &mut joiner
    } else {
        &mut creator
    };
    let me = white.req("GET", "/api/puzzles/me", None).await.json();
    assert_eq!(me["queue"], json!([]), "{me}");
    let id = served["puzzle"]["id"].as_str().unwrap();
    let r = white
        .req("GET", &format!("/api/puzzles/next?puzzle={id}"), None)
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    s.abort();
}

both_dbs!(an_analysed_game_adds_its_puzzles_to_the_queue, from_games);

fn answer_body() -> impl Strategy<Value = Value> {
    prop_oneof![
        (
            proptest::collection::vec("[a-h1-8qrbnx=+#]{0,10}", 0..70),
            any::<u64>()
        )
            .prop_map(|(moves, t)| json!({"moves": moves, "time_ms": t})),
        any::<String>().prop_map(Value::String),
        (any::<i64>(), any::<bool>()).prop_map(|(n, b)| json!({"moves": n, "time_ms": b})),
        Just(json!({"moves": ["e2e4"], "time_ms": 1, "extra": 1})),
        Just(json!({"moves": ["e2e4"]})),
    ]
}

struct Fixture {
    rt: tokio::runtime::Runtime,
    addr: std::net::SocketAddr,
}

/// One server for the random answers.
fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let rt = runtime();
        let addr = rt.block_on(async {
            let s = start(Db::Sqlite).await.unwrap();
            let addr = s.addr;
            std::mem::forget(s);
            addr
        });
        Fixture { rt, addr }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any answer bodies to a puzzle served: a 200 or a 4xx with a Spanish
    /// reason, never a panic nor a 5xx; once an answer finished the
    /// attempt, every later one is refused.
    #[test]
    fn any_answer_is_judged_or_refused(bodies in proptest::collection::vec(answer_body(), 1..4)) {
        let f = fixture();
        f.rt.block_on(async {
            let mut web = Browser::new(f.addr);
            let served = next(&mut web, "").await;
            let attempt = served["attempt"].as_str().unwrap().to_string();
            let mut finished = false;
            for body in bodies {
                let r = web
                    .post(&format!("/api/puzzles/attempts/{attempt}/answer"), body.clone())
                    .await;
                assert!(
                    r.status == 200 || (400..500).contains(&r.status),
                    "{body}: {} {}", r.status, r.body
                );
                let v = r.json();
                if r.status == 200 {
                    assert!(!finished, "answered twice: {body}");
                    finished = v["state"] != "continue";
                } else {
                    assert!(v["es"].as_str().is_some_and(|t| !t.is_empty()), "{v}");
                }
            }
        });
    }
}
