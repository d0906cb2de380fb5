//! A database written by the first release (main at 058fc90, schema 1)
//! opens with this one: the migrations rewrite its stored names to the
//! library's identifiers and keep every game, account and finished game; the
//! games in progress go on. Fixtures and how they were made:
//! `tests/data/README.md`.

use crate::common;

use std::path::Path;

use common::*;
use escaque::{Color, GameResult, RuleSet, Termination};
use escaque_server::store::{Ending, Store};
use escaque_server::Database;
use serde_json::json;
use sqlx::Connection;

/// What the first release stored (names glued to colours, display names as
/// keys), read back raw after the upgrade: the new identifiers.
struct Expected {
    rules: &'static str,
    status: &'static str,
    result: Option<&'static str>,
    termination: Option<&'static str>,
    side: Option<&'static str>,
    plies: usize,
}

const fn over(
    rules: &'static str,
    result: &'static str,
    termination: &'static str,
    side: Option<&'static str>,
    plies: usize,
) -> Expected {
    Expected {
        rules,
        status: "over",
        result: Some(result),
        termination: Some(termination),
        side,
        plies,
    }
}

/// The fixture's games in the order they were created (see the README).
const GAMES: [Expected; 13] = [
    over("fide2023", "0-1", "checkmate", None, 4),
    over("fide2023", "1-0", "resignation", Some("black"), 2),
    over("fide2023", "0-1", "time_forfeit", Some("white"), 2),
    over("fide2023", "1/2-1/2", "threefold_repetition", None, 8),
    over("fide2023", "1/2-1/2", "agreement", None, 2),
    over("fide2023", "*", "aborted", None, 1),
    over("london1846", "1-0", "resignation", Some("black"), 3),
    over("london1846_english", "0-1", "stalemate", None, 1),
    over("fide2023", "0-1", "abandoned", Some("white"), 2),
    over("fide2023", "1/2-1/2", "abandoned", Some("black"), 3),
    Expected {
        rules: "london1846",
        status: "playing",
        result: None,
        termination: None,
        side: None,
        plies: 4,
    },
    Expected {
        rules: "fide2023",
        status: "playing",
        result: None,
        termination: None,
        side: None,
        plies: 2,
    },
    Expected {
        rules: "fide2023",
        status: "waiting",
        result: None,
        termination: None,
        side: None,
        plies: 0,
    },
];

type RawGame = (
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// Opens the upgraded database with the new code and checks every game,
/// raw and typed, then serves it and checks what people see.
async fn check_upgraded(database: Database, url: &str) {
    // The migrations run on open: 1 (the first release's schema, already
    // there), 2 (the identifiers), 3 (tournaments), 4 (the games of
    // online tournaments) and 5 (rated play, Chess960, the sealed move).
    let store = match &database {
        Database::Dir(d) => Store::open_dir(d, true).await,
        Database::Url(u) => Store::open(u).await,
    }
    .expect("the old database opens");
    let versions = store.schema_versions().await.unwrap();
    assert_eq!(versions[..8], [1, 2, 3, 4, 5, 6, 7, 8]);
    // And every later one this release knows (9… as the features land).
    assert_eq!(versions, escaque_server::store::migration_versions());

    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let raw: Vec<RawGame> = sqlx::query_as(
        "SELECT id, rules, status, result, termination, termination_side FROM games \
         ORDER BY created_ms, id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(raw.len(), GAMES.len(), "every game kept");
    for ((id, rules, status, result, termination, side), want) in raw.iter().zip(&GAMES) {
        assert_eq!(rules, want.rules, "{id}");
        assert_eq!(status, want.status, "{id}");
        assert_eq!(result.as_deref(), want.result, "{id}");
        assert_eq!(termination.as_deref(), want.termination, "{id}");
        assert_eq!(side.as_deref(), want.side, "{id}");
        // Typed, through the store.
        let row = store.game(id).await.unwrap().expect("game readable");
        assert_eq!(Some(row.rules), RuleSet::from_id(want.rules));
        let end = want.termination.map(|t| Ending {
            result: GameResult::from_pgn(want.result.unwrap_or("*")),
            termination: Termination::from_id(
                t,
                want.side.map(|s| {
                    if s == "white" {
                        Color::White
                    } else {
                        Color::Black
                    }
                }),
            )
            .expect("a library ending"),
        });
        assert_eq!(row.end, end, "{id}");
        assert_eq!(store.moves(id).await.unwrap().len(), want.plies, "{id}");
    }
    let users: Vec<(String,)> = sqlx::query_as("SELECT name FROM users ORDER BY name")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(users, vec![("Ana".to_string(),), ("Beto".to_string(),)]);
    pool.close().await;
    drop(store);

    // Opening again applies nothing more.
    let again = match &database {
        Database::Dir(d) => Store::open_dir(d, true).await,
        Database::Url(u) => Store::open(u).await,
    }
    .unwrap();
    assert_eq!(
        again.schema_versions().await.unwrap(),
        escaque_server::store::migration_versions()
    );
    drop(again);

    // The server on the upgraded database.
    let mut config = test_config(Db::Sqlite).unwrap();
    config.database = database;
    let s = escaque_server::start(config).await.expect("server starts");
    let ids: Vec<&str> = raw.iter().map(|r| r.0.as_str()).collect();

    // Every finished game, as a spectator sees it and as PGN.
    let mut guest = Browser::new(s.addr);
    for (id, want) in ids.iter().zip(&GAMES) {
        let st = guest.req("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(st.status, 200, "{id}: {}", st.body);
        let st = st.json();
        assert_eq!(st["rules"], want.rules, "{id}");
        assert_eq!(st["status"], want.status, "{id}");
        assert_eq!(st["plies"], want.plies, "{id}");
        if want.status == "over" {
            assert_eq!(st["termination"], json!(want.termination), "{id}");
            assert_eq!(st["termination_side"], json!(want.side), "{id}");
            assert_eq!(st["result"], json!(want.result), "{id}");
            let es = st["end_text"]["es"].as_str().unwrap_or("");
            let en = st["end_text"]["en"].as_str().unwrap_or("");
            assert!(!es.is_empty() && !en.is_empty(), "{id}: {st}");
            let pgn = guest
                .req("GET", &format!("/api/games/{id}/pgn"), None)
                .await;
            assert_eq!(pgn.status, 200, "{id}");
            assert!(
                pgn.body
                    .contains(&format!("[Result \"{}\"]", want.result.unwrap())),
                "{}",
                pgn.body
            );
        }
    }
    let st = guest
        .req("GET", &format!("/api/games/{}", ids[2]), None)
        .await
        .json();
    assert!(
        st["end_text"]["es"]
            .as_str()
            .unwrap()
            .contains("pierden por tiempo"),
        "{st}"
    );
    let st = guest
        .req("GET", &format!("/api/games/{}", ids[9]), None)
        .await
        .json();
    assert_eq!(
        st["end_text"]["en"],
        "Draw: Black left the game (disconnected) (½-½)"
    );

    // The accounts log in with their passwords and list their games.
    let mut ana = Browser::new(s.addr);
    let r = ana
        .post(
            "/api/login",
            json!({"name": "Ana", "password": "larga-y-buena"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let mine = ana.req("GET", "/api/me/games", None).await.json();
    let list = mine["games"].as_array().unwrap();
    assert_eq!(list.len(), 10, "{mine}");
    for g in list {
        assert!(
            RuleSet::from_id(g["rules"].as_str().unwrap()).is_some(),
            "{g}"
        );
        if let Some(t) = g["termination"].as_str() {
            let side = g["termination_side"].as_str().map(|s| {
                if s == "white" {
                    Color::White
                } else {
                    Color::Black
                }
            });
            assert!(Termination::from_id(t, side).is_some(), "{g}");
        }
    }
    let mut beto = Browser::new(s.addr);
    let r = beto
        .post(
            "/api/login",
            json!({"name": "Beto", "password": "otra-contraseña"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);

    // The games in progress go on: each player takes the seat back with a
    // new secret and moves. London 1846 with knight odds (Ana White):
    // 1.e4 e5 2.Nf3 Nc6, White to move.
    let london = ids[10];
    let seat = ana
        .post(&format!("/api/games/{london}/seat"), json!({}))
        .await;
    assert_eq!(seat.status, 200, "{}", seat.body);
    let mut w = Player::connect(s.addr, &seat.json()).await;
    let seat = beto
        .post(&format!("/api/games/{london}/seat"), json!({}))
        .await;
    let mut b = Player::connect(s.addr, &seat.json()).await;
    let st = w.state().await;
    assert_eq!(st["rules"], "london1846");
    assert_eq!(st["turn"], "white");
    play_line(&mut w, &mut b, &["Bc4", "Bc5"]).await;
    assert_eq!(w.state().await["plies"], 6);
    // The clocked game (Beto White, 15+10): 1.c4 e5, White to move.
    let clocked = ids[11];
    let seat = beto
        .post(&format!("/api/games/{clocked}/seat"), json!({}))
        .await;
    let mut w: Player = Player::connect(s.addr, &seat.json()).await;
    let seat = ana
        .post(&format!("/api/games/{clocked}/seat"), json!({}))
        .await;
    let mut b = Player::connect(s.addr, &seat.json()).await;
    play_line(&mut w, &mut b, &["Nc3", "Nf6"]).await;
    let st = w.state().await;
    assert_eq!(st["plies"], 4);
    assert!(st["clock"]["white_ms"].as_u64().unwrap() > 800_000, "{st}");
    assert_eq!(w.act(json!({"t": "resign"})).await["t"], "ack");
    let end = b.event("end").await;
    assert_eq!(end["termination"], "resignation");
    assert_eq!(end["termination_side"], "white");
    assert_eq!(end["result"], "0-1");
    // The waiting challenge can be joined.
    let j = guest
        .post(&format!("/api/games/{}/join", ids[12]), json!({}))
        .await;
    assert_eq!(j.status, 200, "{}", j.body);
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_database_of_the_first_release_upgrades() {
    let dir = temp_dir("upgrade");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("escaque.sqlite3");
    std::fs::copy(fixture("v1.sqlite3"), &file).unwrap();
    let url = format!("sqlite://{}", file.display());
    check_upgraded(Database::Dir(dir.clone()), &url).await;
}

/// The server's URL with another database name.
/// Restores `v1.postgres.sql` (pg_dump --inserts of a database the first
/// release wrote) into a fresh database and upgrades it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_database_of_the_first_release_upgrades() {
    let Some(fresh) = fresh_postgres_database("escaque_upgrade").await else {
        return;
    };
    {
        let dump = std::fs::read_to_string(fixture("v1.postgres.sql")).unwrap();
        // psql's meta-commands (`\restrict` in newer dumps) are not SQL.
        let sql: String = dump
            .lines()
            .filter(|l| !l.starts_with('\\'))
            .map(|l| format!("{l}\n"))
            .collect();
        let mut conn = sqlx::PgConnection::connect(&fresh).await.unwrap();
        sqlx::raw_sql(&sql)
            .execute(&mut conn)
            .await
            .expect("the dump restores");
        conn.close().await.unwrap();
    }
    check_upgraded(Database::Url(fresh.clone()), &fresh).await;
}
