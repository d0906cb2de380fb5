//! Rated play: friend challenges and seeks between accounts, played over
//! WebSocket to the end; the ratings stored as `escaque_torneo::glicko`
//! computes them, with their history and each game's changes; games that
//! change nothing (aborted, too short); the refusals; the start sweep of a
//! finished game left unapplied; two games of one player applied at once.

use escaque::{GameResult, RuleSet, Termination};
use escaque_server::rating;
use escaque_server::store::{Ending, GameRow, MoveRow, Store};
use escaque_torneo::glicko::{rate_game, ColorAdvantage, Glicko};
use serde_json::{json, Value};

use crate::common::*;

const FOOLS_MATE: [&str; 4] = ["f2f3", "e7e5", "g2g4", "d8h4"];

/// A new account, logged in.
async fn account(addr: std::net::SocketAddr, tag: &str) -> (Browser, String) {
    let mut b = Browser::new(addr);
    let name = format!("{tag}{}", &escaque_server::new_id()[..6]);
    let r = b
        .post(
            "/api/signup",
            json!({"name": name, "password": "larga-y-buena"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    (b, name)
}

async fn user_id(store: &Store, name: &str) -> String {
    store.user_by_name(name).await.unwrap().unwrap().id
}

/// `creator` challenges `joiner` to a rated game with `body`; both seated.
async fn rated_game(
    addr: std::net::SocketAddr,
    creator: &mut Browser,
    joiner: &mut Browser,
    body: Value,
) -> (Player, Player) {
    let mut body = body;
    body["rated"] = json!(true);
    let (_, created, joined) = accepted(creator, joiner, body).await;
    seated(addr, &created, &joined).await
}

fn close(what: &str, got: f64, want: f64, tolerance: f64) {
    assert!(
        (got - want).abs() <= tolerance,
        "{what}: {got} is not within {tolerance} of {want}"
    );
}

async fn two_rated_games(db: Db) {
    let Some(s) = start(db).await else { return };
    let store = &s.hub.store;
    let (mut ana, ana_name) = account(s.addr, "ana").await;
    let (mut beto, beto_name) = account(s.addr, "beto").await;
    let (ana_id, beto_id) = (
        user_id(store, &ana_name).await,
        user_id(store, &beto_name).await,
    );

    // Game 1: Ana White, 5+3 (blitz); Black mates.
    let (mut w, mut b) = rated_game(
        s.addr,
        &mut ana,
        &mut beto,
        json!({"time_control": "5+3", "color": "white"}),
    )
    .await;
    let st = w.state().await;
    assert_eq!(st["rated"], true, "{st}");
    assert_eq!(st["perf"], "blitz");
    for side in ["white", "black"] {
        assert_eq!(st[side]["rating"], 1500, "{st}");
        assert_eq!(st[side]["provisional"], true);
        assert_eq!(st[side]["rating_diff"], Value::Null);
    }
    play_line(&mut w, &mut b, &FOOLS_MATE).await;
    let end = w.event("end").await;
    let [wa, ba] = rate_game(
        Glicko::DEFAULT,
        Glicko::DEFAULT,
        0.0,
        ColorAdvantage::STANDARD,
    )
    .unwrap();
    let diffs = [wa.int_rating() - 1500, ba.int_rating() - 1500];
    assert!(diffs[0] < 0 && diffs[1] > 0, "{diffs:?}");
    assert_eq!(end["white"]["rating_diff"], diffs[0], "{end}");
    assert_eq!(end["black"]["rating_diff"], diffs[1], "{end}");
    let row = store.game(&w.game).await.unwrap().unwrap();
    assert!(row.rated && row.rating_applied);
    assert_eq!(row.perf.as_deref(), Some("blitz"));
    assert_eq!(row.ratings, [Some(1500), Some(1500)]);
    assert_eq!(row.rating_diffs, [Some(diffs[0]), Some(diffs[1])]);
    let a1 = store.rating(&ana_id, "blitz").await.unwrap().unwrap();
    let b1 = store.rating(&beto_id, "blitz").await.unwrap().unwrap();
    assert_eq!((a1.games, b1.games), (1, 1));
    close("ana", a1.glicko.rating, wa.rating, 1e-9);
    close("ana rd", a1.glicko.deviation, wa.deviation, 1e-9);
    close("beto", b1.glicko.rating, ba.rating, 1e-9);
    assert!(store.rating(&ana_id, "rapid").await.unwrap().is_none());
    // Applying again changes nothing.
    assert_eq!(rating::apply(store, &w.game).await.unwrap(), None);
    assert_eq!(store.rating(&ana_id, "blitz").await.unwrap(), Some(a1));

    // Game 2: Beto White this time; a draw by agreement after two moves each.
    let (mut w2, mut b2) = rated_game(
        s.addr,
        &mut beto,
        &mut ana,
        json!({"time_control": "5+3", "color": "white"}),
    )
    .await;
    let st = b2.state().await;
    assert_eq!(st["white"]["rating"], ba.int_rating(), "{st}");
    assert_eq!(st["black"]["rating"], wa.int_rating(), "{st}");
    play_line(&mut w2, &mut b2, &["e2e4", "e7e5", "g1f3", "b8c6"]).await;
    assert_eq!(
        w2.act(json!({"t": "offer_draw", "id": 5})).await["t"],
        "ack"
    );
    assert_eq!(
        b2.act(json!({"t": "accept_draw", "id": 6})).await["t"],
        "ack"
    );
    let end = b2.event("end").await;
    let a2 = store.rating(&ana_id, "blitz").await.unwrap().unwrap();
    let b2r = store.rating(&beto_id, "blitz").await.unwrap().unwrap();
    assert_eq!((a2.games, b2r.games), (2, 2));
    // As the formula says, from the first game's ratings (aged by the
    // seconds between the games: far below the tolerance).
    let [wb, bb] = rate_game(b1.glicko, a1.glicko, 0.5, ColorAdvantage::STANDARD).unwrap();
    close("beto after two", b2r.glicko.rating, wb.rating, 1e-3);
    close("ana after two", a2.glicko.rating, bb.rating, 1e-3);
    assert_eq!(
        end["black"]["rating_diff"],
        a2.glicko.int_rating() - a1.glicko.int_rating(),
        "{end}"
    );
    let history = store.rating_history(&ana_id, "blitz").await.unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].game, w.game);
    assert_eq!(history[1].game, w2.game);
    close("history", history[1].rating, a2.glicko.rating, 1e-9);
    let pools = store.ratings_of(&ana_id).await.unwrap();
    assert_eq!(pools.len(), 1);
    assert_eq!(pools[0].0, "blitz");
}
both_dbs!(
    two_rated_games_change_ratings_as_glicko_says,
    two_rated_games
);

async fn games_that_change_nothing(db: Db) {
    let Some(s) = start(db).await else { return };
    let store = &s.hub.store;
    let (mut ana, ana_name) = account(s.addr, "ana").await;
    let (mut beto, _) = account(s.addr, "beto").await;
    let ana_id = user_id(store, &ana_name).await;
    // Aborted before both sides moved.
    let (mut w, _b) = rated_game(s.addr, &mut ana, &mut beto, json!({"time_control": "1+0"})).await;
    assert_eq!(w.act(json!({"t": "abort", "id": 3})).await["t"], "ack");
    let end = w.event("end").await;
    assert_eq!(end["white"]["rating_diff"], Value::Null);
    // Resigned after one half-move: nobody really played (as lichess).
    let (mut w, mut b) = rated_game(
        s.addr,
        &mut ana,
        &mut beto,
        json!({"time_control": "1+0", "color": "white"}),
    )
    .await;
    assert_eq!(w.play("e2e4").await["t"], "ack");
    assert_eq!(b.act(json!({"t": "resign", "id": 4})).await["t"], "ack");
    w.event("end").await;
    let row = store.game(&w.game).await.unwrap().unwrap();
    assert_eq!(row.rating_diffs, [None, None]);
    assert!(store.rating(&ana_id, "bullet").await.unwrap().is_none());
    assert!(store
        .rating_history(&ana_id, "bullet")
        .await
        .unwrap()
        .is_empty());
    // A casual game between the same accounts: no rating fields.
    let r = ana
        .post(
            "/api/games",
            json!({"opponent": "friend", "time_control": "1+0"}),
        )
        .await;
    assert_eq!(r.status, 201);
    let game = r.json()["game"].as_str().unwrap().to_string();
    let st = ana
        .req("GET", &format!("/api/games/{game}"), None)
        .await
        .json();
    assert_eq!(st["rated"], false, "{st}");
    assert_eq!(st["perf"], Value::Null);
    assert_eq!(st["white"]["rating"], Value::Null);
}
both_dbs!(
    aborted_and_too_short_games_change_nothing,
    games_that_change_nothing
);

async fn refusals(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut ana, _) = account(s.addr, "ana").await;
    let (mut beto, _) = account(s.addr, "beto").await;
    let mut guest = Browser::new(s.addr);
    let refused = |r: escaque_server::client::HttpReply, status: u16, code: &str| {
        assert_eq!(r.status, status, "{code}: {}", r.body);
        let v = r.json();
        assert_eq!(v["code"], code, "{v}");
        assert!(v["es"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(v["en"].as_str().is_some_and(|t| !t.is_empty()));
    };
    let friend = |extra: Value| {
        let mut b = json!({"opponent": "friend", "rated": true, "time_control": "5+3"});
        for (k, v) in extra.as_object().unwrap() {
            b[k] = v.clone();
        }
        b
    };
    refused(
        guest.post("/api/games", friend(json!({}))).await,
        403,
        "rated_needs_account",
    );
    refused(
        ana.post(
            "/api/games",
            friend(json!({"opponent": "engine", "level": 1})),
        )
        .await,
        400,
        "rated_no_engine",
    );
    refused(
        ana.post("/api/games", friend(json!({"time_control": null})))
            .await,
        400,
        "rated_needs_clock",
    );
    refused(
        ana.post("/api/games", friend(json!({"rules": "london1846"})))
            .await,
        400,
        "rated_needs_fide_rules",
    );
    refused(
        ana.post("/api/games", friend(json!({"odds": "knight"})))
            .await,
        400,
        "rated_no_odds",
    );
    refused(
        ana.post(
            "/api/games",
            friend(json!({"fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"})),
        )
        .await,
        400,
        "rated_no_position",
    );
    // A guest may not take the free seat of a rated challenge.
    let r = ana.post("/api/games", friend(json!({}))).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let game = r.json()["game"].as_str().unwrap().to_string();
    refused(
        guest
            .post(&format!("/api/games/{game}/join"), json!({}))
            .await,
        403,
        "rated_needs_account",
    );

    // Seeks.
    refused(
        guest
            .post("/api/seeks", json!({"time_control": "5+3", "rated": true}))
            .await,
        403,
        "rated_needs_account",
    );
    refused(
        guest
            .post(
                "/api/seeks",
                json!({"time_control": "5+3", "rating_range": [-100, 100]}),
            )
            .await,
        403,
        "rated_needs_account",
    );
    for range in [json!([300, -200]), json!([-5000, 0]), json!([0, 1001])] {
        refused(
            ana.post(
                "/api/seeks",
                json!({"time_control": "5+3", "rated": true, "rating_range": range}),
            )
            .await,
            400,
            "bad_rating_range",
        );
    }
    refused(
        ana.post("/api/seeks", json!({"rating_range": [-100, 100]}))
            .await,
        400,
        "bad_rating_range",
    );
    // Ana's seek wants players 100 to 300 above her 1500.
    let r = ana
        .post(
            "/api/seeks",
            json!({"time_control": "5+3", "rated": true, "rating_range": [100, 300]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let seek = r.json()["seek"].as_str().unwrap().to_string();
    let list = guest.req("GET", "/api/seeks", None).await.json();
    let shown = list["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == seek.as_str())
        .unwrap()
        .clone();
    assert_eq!(shown["rated"], true, "{shown}");
    assert_eq!(shown["perf"], "blitz");
    assert_eq!(shown["rating"], 1500);
    assert_eq!(shown["provisional"], true);
    assert_eq!(shown["rating_min"], 1600);
    assert_eq!(shown["rating_max"], 1800);
    refused(
        beto.post(&format!("/api/seeks/{seek}/accept"), json!({}))
            .await,
        403,
        "out_of_range",
    );
    refused(
        guest
            .post(&format!("/api/seeks/{seek}/accept"), json!({}))
            .await,
        403,
        "rated_needs_account",
    );
    // Refused, the seek is still there; one Beto is within takes it.
    let r = ana
        .post(
            "/api/seeks",
            json!({"time_control": "5+3", "rated": true, "rating_range": [-100, 100]}),
        )
        .await;
    let seek = r.json()["seek"].as_str().unwrap().to_string();
    let r = beto
        .post(&format!("/api/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let game = r.json()["game"].as_str().unwrap().to_string();
    let st = beto
        .req("GET", &format!("/api/games/{game}"), None)
        .await
        .json();
    assert_eq!(st["rated"], true, "{st}");
    assert_eq!(st["perf"], "blitz");
    assert_eq!(st["white"]["rating"], 1500);
    assert_eq!(st["black"]["rating"], 1500);
}
both_dbs!(rated_refusals, refusals);

/// A finished rated Fool's mate game between two accounts, stored as a
/// process that died before applying it would leave it.
async fn unapplied_game(store: &Store, white: &str, black: &str) -> String {
    let (mut row, _) = escaque_server::Hub::prepare_game(escaque_server::NewGame {
        rules: RuleSet::fide_2023(),
        start: escaque::Position::new(),
        time_control: Some("5+3".parse().unwrap()),
        white: escaque_server::Seat::Person {
            owner: format!("u:{white}"),
            name: "w".into(),
        },
        black: escaque_server::Seat::Person {
            owner: format!("u:{black}"),
            name: "b".into(),
        },
        chess960: false,
        rated: true,
        class_id: None,
    });
    rating::fill_new_game(store, &mut row).await.unwrap();
    store.insert_game(&row).await.unwrap();
    for (i, m) in FOOLS_MATE.iter().enumerate() {
        let end = (i == 3).then_some(Ending {
            result: Some(GameResult::BlackWins),
            termination: Termination::Checkmate,
        });
        store
            .append_move(
                None,
                &row.id,
                &MoveRow {
                    ply: i as i64,
                    uci: m.to_string(),
                    clock_ms: Some(300_000),
                },
                Some([300_000, 300_000]),
                end,
            )
            .await
            .unwrap();
    }
    row.id
}

async fn sweep(db: Db) {
    let Some(url) = own_database_url(db, "ratings_sweep").await else {
        return;
    };
    let store = Store::open(&url).await.unwrap();
    let game = unapplied_game(&store, "wuser", "buser").await;
    let row: GameRow = store.game(&game).await.unwrap().unwrap();
    assert_eq!(row.status, "over");
    assert!(row.rated && !row.rating_applied);
    assert!(store.rating("buser", "blitz").await.unwrap().is_none());
    drop(store);
    // The server starts on that database: the sweep applies the game.
    let Some(s) = start_with(db, |c| {
        c.database = escaque_server::Database::Url(url.clone());
    })
    .await
    else {
        return;
    };
    let store = &s.hub.store;
    let row = store.game(&game).await.unwrap().unwrap();
    assert!(row.rating_applied);
    let [wa, ba] = rate_game(
        Glicko::DEFAULT,
        Glicko::DEFAULT,
        0.0,
        ColorAdvantage::STANDARD,
    )
    .unwrap();
    assert_eq!(
        row.rating_diffs,
        [Some(wa.int_rating() - 1500), Some(ba.int_rating() - 1500)]
    );
    let b = store.rating("buser", "blitz").await.unwrap().unwrap();
    close("black", b.glicko.rating, ba.rating, 1e-9);
    assert_eq!(
        store.rating_history("wuser", "blitz").await.unwrap().len(),
        1
    );
    // The game's page shows the change (its actor loads the stored game).
    let st = Browser::new(s.addr)
        .req("GET", &format!("/api/games/{game}"), None)
        .await
        .json();
    assert_eq!(st["black"]["rating_diff"], ba.int_rating() - 1500, "{st}");
}
both_dbs!(the_start_sweep_applies_a_game_left_unapplied, sweep);

async fn together(db: Db) {
    let Some(url) = own_database_url(db, "ratings_together").await else {
        return;
    };
    let store = Store::open(&url).await.unwrap();
    // One player's two games (and a third between others) end at once.
    let g1 = unapplied_game(&store, "uno", "dos").await;
    let g2 = unapplied_game(&store, "tres", "uno").await;
    let g3 = unapplied_game(&store, "dos", "tres").await;
    let (r1, r2, r3, again) = tokio::join!(
        rating::apply(&store, &g1),
        rating::apply(&store, &g2),
        rating::apply(&store, &g3),
        rating::apply(&store, &g1),
    );
    let applied = [r1, r2, r3, again].map(|r| r.unwrap().is_some());
    // Each game exactly once (g1 by one of its two requests).
    assert_eq!(applied.iter().filter(|a| **a).count(), 3, "{applied:?}");
    assert!(applied[1] && applied[2]);
    for user in ["uno", "dos", "tres"] {
        let r = store.rating(user, "blitz").await.unwrap().unwrap();
        assert_eq!(r.games, 2, "{user}");
        let h = store.rating_history(user, "blitz").await.unwrap();
        assert_eq!(h.len(), 2, "{user}");
        // The stored rating is one of its games' (the later one applied).
        assert!(
            h.iter().any(|p| p.rating == r.glicko.rating),
            "{user}: {h:?}"
        );
    }
    for g in [&g1, &g2, &g3] {
        let row = store.game(g).await.unwrap().unwrap();
        assert!(row.rating_applied && row.rating_diffs.iter().all(Option::is_some));
    }
}
both_dbs!(two_games_of_one_player_applied_at_once, together);

async fn rated_tournament(db: Db) {
    use escaque_server::tournament::{self, Settings, Who};
    let Some(s) = start(db).await else { return };
    let hub = std::sync::Arc::clone(&s.hub);
    let (org, org_name) = account(s.addr, "org").await;
    let owner = escaque_server::http::Identity {
        key: format!("u:{}", user_id(&hub.store, &org_name).await),
        name: org_name,
        account: true,
        managed: false,
    };
    drop(org);
    let t = escaque_torneo::Tournament::new("Con puntuación", escaque_torneo::System::Swiss, 1);
    let settings = Settings {
        time_control: Some("5+0".into()),
        no_show_s: 600,
        rated: true,
        ..Settings::default()
    };
    let id = tournament::create(&hub, &owner, "online", t, settings)
        .await
        .expect("created");
    let mut entrants = Vec::new();
    for tag in ["ana", "beto"] {
        let (mut web, name) = account(s.addr, tag).await;
        let cookie = web.cookies.join("; ");
        let ws = lobby_socket(s.addr, &cookie).await;
        let r = web
            .post(
                &format!("/api/tournaments/{id}/join"),
                json!({"name": name}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let r = web
            .post(&format!("/api/tournaments/{id}/present"), json!({}))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        entrants.push((ws, name));
    }
    tournament::pair_next(&hub, &id, &Who::Organiser(owner))
        .await
        .expect("paired");
    let mut seats = Vec::new();
    for (ws, _) in &mut entrants {
        let g = ws
            .until(WAIT, |v| v["t"] == "your_game")
            .await
            .expect("your_game");
        seats.push(json!({"game": g["game"], "secret": g["secret"], "seat": g["color"]}));
    }
    let mut p0 = Player::connect(s.addr, &seats[0]).await;
    let mut p1 = Player::connect(s.addr, &seats[1]).await;
    let st = p0.state().await;
    assert_eq!(st["rated"], true, "{st}");
    assert_eq!(st["perf"], "blitz");
    assert_eq!(st["white"]["rating"], 1500);
    let (w, b) = if p0.seat == "white" {
        (&mut p0, &mut p1)
    } else {
        (&mut p1, &mut p0)
    };
    play_line(w, b, &FOOLS_MATE).await;
    let end = w.event("end").await;
    assert!(
        end["black"]["rating_diff"].as_i64().is_some_and(|d| d > 0),
        "{end}"
    );
    for (_, name) in &entrants {
        let uid = user_id(&hub.store, name).await;
        let r = hub.store.rating(&uid, "blitz").await.unwrap().unwrap();
        assert_eq!(r.games, 1);
    }
    // A rated event needs a clock and the FIDE rules.
    let (mut web, _) = account(s.addr, "org").await;
    let r = web
        .post(
            "/api/tournaments",
            json!({"name": "sin reloj", "system": "swiss", "rounds": 3, "mode": "online",
                   "settings": {"rated": true}}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["code"], "bad_field");
}
both_dbs!(a_rated_online_tournament_rates_its_games, rated_tournament);

async fn managed(db: Db) {
    let Some(url) = own_database_url(db, "ratings_managed").await else {
        return;
    };
    let store = Store::open(&url).await.unwrap();
    for (id, name) in [("pupil", "alumna"), ("adult", "adulta")] {
        let u = escaque_server::store::UserRow {
            id: id.into(),
            name: name.into(),
            pass_hash: String::new(),
        };
        assert!(store.create_user_keyed(&u, name).await.unwrap());
    }
    // The classes issue makes pupils; here the column is set by hand.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    sqlx::query("UPDATE users SET managed = 1 WHERE id = 'pupil'")
        .execute(&pool)
        .await
        .unwrap();
    let start = rating::current(&store, "pupil", "rapid").await.unwrap();
    assert_eq!(start, Glicko::MANAGED);
    assert_eq!(start.display(), "800?");
    assert_eq!(
        rating::current(&store, "adult", "rapid").await.unwrap(),
        Glicko::DEFAULT
    );
    // The pupil (White) is mated: rated from 800/400 against 1500/500.
    let game = unapplied_game(&store, "pupil", "adult").await;
    let row = store.game(&game).await.unwrap().unwrap();
    assert_eq!(row.ratings, [Some(800), Some(1500)]);
    rating::apply(&store, &game)
        .await
        .unwrap()
        .expect("applied");
    let [w, b] = rate_game(
        Glicko::MANAGED,
        Glicko::DEFAULT,
        0.0,
        ColorAdvantage::STANDARD,
    )
    .unwrap();
    let p = store.rating("pupil", "blitz").await.unwrap().unwrap();
    let a = store.rating("adult", "blitz").await.unwrap().unwrap();
    close("pupil", p.glicko.rating, w.rating, 1e-9);
    close("adult", a.glicko.rating, b.rating, 1e-9);
}
both_dbs!(a_managed_account_starts_at_800, managed);
