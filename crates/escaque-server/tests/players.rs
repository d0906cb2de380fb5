//! A player's page over HTTP (`/api/players/{name}` and the head-to-head),
//! read from rows written here straight into the tables the ratings module
//! fills, on SQLite and PostgreSQL.

use crate::common;

use common::*;
use escaque::{Color, GameResult, RuleSet, Termination};
use escaque_server::store::{Ending, GameRow};
use escaque_server::{Config, Database};
use serde_json::{json, Value};
use sqlx::AnyPool;

/// A server and a second connection to its database (for writing the rows
/// a test reads back).
async fn server_and_pool(db: Db) -> Option<(escaque_server::Running, AnyPool)> {
    let url = own_database_url(db, "players").await?;
    let s = start_with(db, |c: &mut Config| c.database = Database::Url(url.clone())).await?;
    let pool = AnyPool::connect(&url).await.expect("second connection");
    Some((s, pool))
}

/// A new account with a unique name starting with `prefix`: its browser
/// (logged in), its name and its owner identity (`u:ID`).
async fn account(
    addr: std::net::SocketAddr,
    pool: &AnyPool,
    prefix: &str,
) -> (Browser, String, String) {
    let name = format!("{prefix}{}", &escaque_server::new_id()[..8]);
    let mut b = Browser::new(addr);
    let r = b
        .post(
            "/api/signup",
            json!({"name": name, "password": "contraseña-larga"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let (id,): (String,) = sqlx::query_as("SELECT id FROM users WHERE name = $1")
        .bind(&name)
        .fetch_one(pool)
        .await
        .expect("user id");
    (b, name, format!("u:{id}"))
}

/// A finished game between `white` and `black` (owner, name), ended at
/// `ended_ms`.
#[allow(clippy::too_many_arguments)]
async fn finished(
    s: &escaque_server::Running,
    pool: &AnyPool,
    white: (&str, &str),
    black: (&str, &str),
    result: Option<GameResult>,
    termination: Termination,
    rated: Option<(&str, [i64; 2], [i64; 2])>,
    ended_ms: i64,
) -> String {
    let id = escaque_server::new_id();
    let row = GameRow {
        id: id.clone(),
        rules: RuleSet::fide_2023(),
        start_fen: escaque::Position::new().to_fen(),
        time_control: Some("3+2".into()),
        white_kind: "human".into(),
        black_kind: if black.0.is_empty() {
            "engine:4".into()
        } else {
            "human".into()
        },
        white_owner: Some(white.0.to_string()),
        black_owner: (!black.0.is_empty()).then(|| black.0.to_string()),
        white_secret: None,
        black_secret: None,
        white_name: white.1.into(),
        black_name: black.1.into(),
        status: "over".into(),
        end: Some(Ending {
            result,
            termination,
        }),
        clock_white_ms: None,
        clock_black_ms: None,
        created_ms: ended_ms - 60_000,
        chess960: false,
        rated: rated.is_some(),
        perf: rated.map(|r| r.0.to_string()),
        ratings: rated.map_or([None, None], |r| [Some(r.1[0]), Some(r.1[1])]),
        rating_diffs: rated.map_or([None, None], |r| [Some(r.2[0]), Some(r.2[1])]),
        rating_applied: rated.is_some(),
        sealed: None,
        class_id: None,
    };
    s.hub.store.insert_game(&row).await.expect("insert game");
    sqlx::query("UPDATE games SET updated_ms = $1 WHERE id = $2")
        .bind(ended_ms)
        .bind(&id)
        .execute(pool)
        .await
        .expect("ended");
    id
}

async fn rating(
    pool: &AnyPool,
    owner: &str,
    perf: &str,
    (rating, deviation, games): (f64, f64, i64),
    updated_ms: i64,
) {
    sqlx::query(
        "INSERT INTO ratings (user_id, perf, rating, deviation, volatility, games, updated_ms) \
         VALUES ($1,$2,$3,$4,$5,$6,$7)",
    )
    .bind(&owner[2..])
    .bind(perf)
    .bind(rating)
    .bind(deviation)
    .bind(0.09)
    .bind(games)
    .bind(updated_ms)
    .execute(pool)
    .await
    .expect("rating");
}

async fn history(pool: &AnyPool, owner: &str, perf: &str, game: &str, at_ms: i64, rating: f64) {
    sqlx::query(
        "INSERT INTO rating_history (user_id, perf, game, at_ms, rating, deviation) \
         VALUES ($1,$2,$3,$4,$5,$6)",
    )
    .bind(&owner[2..])
    .bind(perf)
    .bind(game)
    .bind(at_ms)
    .bind(rating)
    .bind(300.0)
    .execute(pool)
    .await
    .expect("history");
}

async fn get(b: &mut Browser, path: &str) -> (u16, Value) {
    let r = b.req("GET", path, None).await;
    let v = serde_json::from_str(&r.body).unwrap_or(Value::Null);
    (r.status, v)
}

async fn page(db: Db) {
    let Some((s, pool)) = server_and_pool(db).await else {
        return;
    };
    let (mut ana_b, ana, ana_o) = account(s.addr, &pool, "ana").await;
    let (_, beto, beto_o) = account(s.addr, &pool, "beto").await;
    let t0 = 1_700_000_000_000_i64;
    // Ana beats Beto (rated blitz), draws (rated blitz), loses to him on
    // time (casual), beats the engine, and one game is aborted.
    let g1 = finished(
        &s,
        &pool,
        (&ana_o, &ana),
        (&beto_o, &beto),
        Some(GameResult::WhiteWins),
        Termination::Checkmate,
        Some(("blitz", [1500, 1500], [180, -180])),
        t0,
    )
    .await;
    let g2 = finished(
        &s,
        &pool,
        (&beto_o, &beto),
        (&ana_o, &ana),
        Some(GameResult::Draw),
        Termination::Agreement,
        Some(("blitz", [1320, 1680], [12, -12])),
        t0 + 1000,
    )
    .await;
    let g3 = finished(
        &s,
        &pool,
        (&beto_o, &beto),
        (&ana_o, &ana),
        Some(GameResult::WhiteWins),
        Termination::Time {
            flagged: Color::Black,
        },
        None,
        t0 + 2000,
    )
    .await;
    let g4 = finished(
        &s,
        &pool,
        (&ana_o, &ana),
        ("", "motor"),
        Some(GameResult::WhiteWins),
        Termination::Resignation { by: Color::Black },
        None,
        t0 + 3000,
    )
    .await;
    let g5 = finished(
        &s,
        &pool,
        (&ana_o, &ana),
        (&beto_o, &beto),
        None,
        Termination::Aborted,
        None,
        t0 + 4000,
    )
    .await;
    let now = escaque_server::store::now_ms();
    rating(&pool, &ana_o, "blitz", (1668.7, 290.6, 2), now).await;
    rating(&pool, &ana_o, "classical", (1500.0, 109.6, 40), now).await;
    // Established two years ago, not played since: its deviation has grown
    // (0.21436 rating periods a day) past the provisional line.
    rating(
        &pool,
        &ana_o,
        "rapid",
        (1712.0, 60.0, 30),
        now - 730 * 86_400_000,
    )
    .await;
    history(&pool, &ana_o, "blitz", &g2, t0 + 1000, 1668.7).await;
    history(&pool, &ana_o, "blitz", &g1, t0, 1680.9).await;

    let mut guest = Browser::new(s.addr);
    let (st, p) = get(&mut guest, &format!("/api/players/{ana}")).await;
    assert_eq!(st, 200, "{p}");
    assert_eq!(p["name"], ana.as_str());
    assert_eq!(p["you"], false);
    // Pools in the page's order (bullet, blitz, rapid, classical, chess960),
    // ratings truncated (as lichess shows them), deviations rounded and
    // grown for the time without games; provisional while the deviation is
    // 110 or more.
    let r = p["ratings"].as_array().unwrap();
    assert_eq!(r.len(), 3);
    assert_eq!(r[0]["perf"], "blitz");
    assert_eq!(r[0]["rating"], 1668);
    assert_eq!(r[0]["deviation"], 291);
    assert_eq!(r[0]["provisional"], true);
    assert_eq!(r[0]["games"], 2);
    assert_eq!(r[1]["perf"], "rapid");
    assert_eq!(r[1]["rating"], 1712);
    assert_eq!(r[1]["provisional"], true);
    assert!(r[1]["deviation"].as_i64().unwrap() > 110, "{}", r[1]);
    assert_eq!(r[2]["perf"], "classical");
    assert_eq!(r[2]["provisional"], false);
    // The history oldest first.
    assert_eq!(
        r[0]["history"],
        json!([{"at_ms": t0, "rating": 1680, "game": g1}, {"at_ms": t0 + 1000, "rating": 1668, "game": g2}])
    );
    assert_eq!(r[2]["history"], json!([]));
    // The score leaves the aborted game out.
    assert_eq!(
        p["score"],
        json!({"games": 4, "wins": 2, "draws": 1, "losses": 1})
    );
    // Recent games, last ended first, from Ana's side; no aborted game.
    let games = p["games"].as_array().unwrap();
    let ids: Vec<&str> = games.iter().map(|g| g["game"].as_str().unwrap()).collect();
    assert_eq!(ids, [g4.as_str(), g3.as_str(), g2.as_str(), g1.as_str()]);
    assert!(!ids.contains(&g5.as_str()));
    assert_eq!(games[0]["opponent_kind"], "engine");
    assert_eq!(games[0]["opponent_level"], 4);
    assert_eq!(games[0]["opponent_account"], false);
    assert_eq!(games[0]["score"], "win");
    assert_eq!(games[1]["score"], "loss");
    assert_eq!(games[1]["termination"], "time_forfeit");
    assert_eq!(games[1]["termination_side"], "black");
    assert_eq!(games[1]["rated"], false);
    assert_eq!(games[1]["perf"], Value::Null);
    assert_eq!(games[2]["color"], "black");
    assert_eq!(games[2]["score"], "draw");
    assert_eq!(games[2]["rating"], 1680);
    assert_eq!(games[2]["opponent_rating"], 1320);
    assert_eq!(games[2]["rating_diff"], -12);
    assert_eq!(games[3]["opponent"], beto.as_str());
    assert_eq!(games[3]["opponent_account"], true);
    assert_eq!(games[3]["rated"], true);
    assert_eq!(games[3]["perf"], "blitz");
    assert_eq!(games[3]["rating_diff"], 180);
    for g in games {
        // These games have no moves: no opening named (tests/openings.rs
        // names one); the accuracy is the analysis's, present, null.
        assert!(g.get("opening").is_some_and(Value::is_null));
        assert!(g.get("accuracy").is_some_and(Value::is_null));
    }
    // Any spelling the names rule calls the same name.
    let (st, p2) = get(&mut guest, &format!("/api/players/{}", ana.to_uppercase())).await;
    assert_eq!(st, 200);
    assert_eq!(p2["name"], ana.as_str());
    // Ana sees her own page as hers.
    let (_, mine) = get(&mut ana_b, &format!("/api/players/{ana}")).await;
    assert_eq!(mine["you"], true);

    // Head-to-head, from either side.
    let (st, h) = get(&mut guest, &format!("/api/players/{ana}/vs/{beto}")).await;
    assert_eq!(st, 200, "{h}");
    assert_eq!(
        h["score"],
        json!({"games": 3, "wins": 1, "draws": 1, "losses": 1})
    );
    let ids: Vec<&str> = h["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [g3.as_str(), g2.as_str(), g1.as_str()]);
    let (_, h2) = get(&mut guest, &format!("/api/players/{beto}/vs/{ana}")).await;
    assert_eq!(
        h2["score"],
        json!({"games": 3, "wins": 1, "draws": 1, "losses": 1})
    );
    assert_eq!(h2["games"][2]["score"], "loss");

    // Nobody else: no page for a guest, an unknown name, or nonsense.
    for path in [
        "/api/players/invitado-abcdef".to_string(),
        "/api/players/nadie-en-absoluto".to_string(),
        format!("/api/players/{}", "x".repeat(300)),
        format!("/api/players/{ana}/vs/nadie-en-absoluto"),
    ] {
        let (st, e) = get(&mut guest, &path).await;
        assert_eq!(st, 404, "{path}: {e}");
        assert_eq!(e["code"], "no_such_player", "{path}");
        assert!(e["es"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(e["en"].as_str().is_some_and(|t| !t.is_empty()));
    }
}
both_dbs!(player_page_reads_ratings_history_and_games, page);

async fn managed(db: Db) {
    let Some((s, pool)) = server_and_pool(db).await else {
        return;
    };
    let (mut pupil_b, pupil, pupil_o) = account(s.addr, &pool, "alumna").await;
    let (mut other_b, other, other_o) = account(s.addr, &pool, "otro").await;
    let (_, third, _) = account(s.addr, &pool, "tercero").await;
    finished(
        &s,
        &pool,
        (&pupil_o, &pupil),
        (&other_o, &other),
        Some(GameResult::BlackWins),
        Termination::Checkmate,
        None,
        1_700_000_000_000,
    )
    .await;
    sqlx::query("UPDATE users SET managed = 1 WHERE name = $1")
        .bind(&pupil)
        .execute(&pool)
        .await
        .expect("managed");
    let mut guest = Browser::new(s.addr);
    // Private: the same answer as a name that does not exist, for a guest
    // and for another account.
    for b in [&mut guest, &mut other_b] {
        let (st, e) = get(b, &format!("/api/players/{pupil}")).await;
        assert_eq!((st, e["code"].as_str()), (404, Some("no_such_player")));
    }
    // The pupil sees their own page.
    let (st, p) = get(&mut pupil_b, &format!("/api/players/{pupil}")).await;
    assert_eq!(st, 200, "{p}");
    assert_eq!(p["you"], true);
    assert_eq!(p["managed"], true);
    assert_eq!(p["score"]["losses"], 1);
    // A head-to-head with the pupil: only for one of the two.
    let (st, _) = get(&mut guest, &format!("/api/players/{other}/vs/{pupil}")).await;
    assert_eq!(st, 404);
    let mut third_b = Browser::new(s.addr);
    let r = third_b
        .post(
            "/api/login",
            json!({"name": third, "password": "contraseña-larga"}),
        )
        .await;
    assert_eq!(r.status, 200);
    let (st, _) = get(&mut third_b, &format!("/api/players/{pupil}/vs/{other}")).await;
    assert_eq!(st, 404);
    let (st, h) = get(&mut other_b, &format!("/api/players/{other}/vs/{pupil}")).await;
    assert_eq!(st, 200, "{h}");
    assert_eq!(h["score"]["wins"], 1);
    let (st, h) = get(&mut pupil_b, &format!("/api/players/{pupil}/vs/{other}")).await;
    assert_eq!(st, 200);
    assert_eq!(h["score"]["losses"], 1);
    // The other account's own page still lists the game (it is theirs).
    let (_, p) = get(&mut guest, &format!("/api/players/{other}")).await;
    assert_eq!(p["score"]["wins"], 1);
}
both_dbs!(managed_accounts_pages_are_private, managed);
