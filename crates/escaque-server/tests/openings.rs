//! Opening names on every game: the game's state, the list of games in
//! progress, the replay positions, the own games list, the player page and
//! the PGN export (`ECO`, `Opening` in English or Spanish), on SQLite and
//! PostgreSQL.

use crate::common;

use common::*;
use serde_json::{json, Value};

/// The Nimzo-Indian reached from the English Opening's move order: named
/// by its position (E20), not by its moves.
const NIMZO_BY_TRANSPOSITION: [&str; 6] = ["c2c4", "e7e6", "b1c3", "g8f6", "d2d4", "f8b4"];

fn is_nimzo(o: &Value, ply: u64) {
    assert_eq!(o["eco"], "E20", "{o}");
    assert_eq!(o["name_en"], "Nimzo-Indian Defense", "{o}");
    assert_eq!(o["name_es"], "Defensa Nimzo-india", "{o}");
    assert_eq!(o["ply"], ply, "{o}");
}

async fn opening_everywhere(db: Db) {
    let Some(s) = start(db).await else { return };
    let (mut alba, alba_name) = account(s.addr, "Alba").await;
    let (mut bruno, _) = account(s.addr, "Bruno").await;
    let (game, created, joined) = accepted(&mut alba, &mut bruno, json!({})).await;
    let (mut w, mut b) = seated(s.addr, &created, &joined).await;

    // Before any move: no name anywhere.
    assert_eq!(w.state().await["opening"], Value::Null);
    let pos = alba
        .req("GET", &format!("/web/api/games/{game}/positions"), None)
        .await
        .json();
    assert_eq!(pos["opening"], Value::Null, "{pos}");

    // 1.c4 alone is already named (the English Opening); the name follows
    // the game move by move.
    play_line(&mut w, &mut b, &NIMZO_BY_TRANSPOSITION[..1]).await;
    let st = w.state().await;
    assert_eq!(st["opening"]["eco"], "A10", "{st}");
    assert_eq!(st["opening"]["ply"], 1);
    // Black to move: the line goes on from Black.
    play_line(&mut b, &mut w, &NIMZO_BY_TRANSPOSITION[1..]).await;
    is_nimzo(&w.state().await["opening"], 6);

    // A move out of the book keeps the deepest name.
    play_line(&mut w, &mut b, &["h2h3"]).await;
    is_nimzo(&w.state().await["opening"], 6);

    // The list of games in progress.
    let live = alba.req("GET", "/api/games/live", None).await.json();
    let listed = live["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == game.as_str())
        .unwrap_or_else(|| panic!("{live}"))
        .clone();
    is_nimzo(&listed["opening"], 6);

    // Over: Black resigns.
    let a = b.act(json!({"t": "resign", "id": 5})).await;
    assert_eq!(a["t"], "ack", "{a}");

    let pos = alba
        .req("GET", &format!("/web/api/games/{game}/positions"), None)
        .await
        .json();
    is_nimzo(&pos["opening"], 6);

    let mine = alba.req("GET", "/api/me/games", None).await.json();
    let g = mine["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == game.as_str())
        .unwrap_or_else(|| panic!("{mine}"))
        .clone();
    is_nimzo(&g["opening"], 6);

    let page = alba
        .req("GET", &format!("/api/players/{alba_name}"), None)
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let page = page.json();
    let g = page["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == game.as_str())
        .unwrap_or_else(|| panic!("{page}"))
        .clone();
    is_nimzo(&g["opening"], 6);

    let en = alba
        .req("GET", &format!("/api/games/{game}/pgn"), None)
        .await;
    assert_eq!(en.status, 200);
    assert!(en.body.contains("[ECO \"E20\"]\n"), "{}", en.body);
    assert!(
        en.body.contains("[Opening \"Nimzo-Indian Defense\"]\n"),
        "{}",
        en.body
    );
    let es = alba
        .req("GET", &format!("/api/games/{game}/pgn?lang=es"), None)
        .await;
    assert!(es.body.contains("[ECO \"E20\"]\n"), "{}", es.body);
    assert!(
        es.body.contains("[Opening \"Defensa Nimzo-india\"]\n"),
        "{}",
        es.body
    );
    // The tags read back with the library's PGN reader.
    let read = escaque::pgn::PgnReader::new(en.body.as_bytes())
        .next_game()
        .unwrap()
        .unwrap();
    assert_eq!(read.tag("ECO"), Some("E20"));
    assert_eq!(read.tag("Opening"), Some("Nimzo-Indian Defense"));
}

both_dbs!(opening_on_every_view_of_a_game, opening_everywhere);

async fn no_name_for_chess960(db: Db) {
    let Some(s) = start(db).await else { return };
    let c = challenge(s.addr, json!({"variant": "chess960", "position": 518})).await;
    let (mut w, mut b) = seated(s.addr, &c.created, &c.joined).await;
    // The standard array, but a Chess960 game: lichess names none of them.
    play_line(&mut w, &mut b, &["e2e4", "e7e5"]).await;
    assert_eq!(w.state().await["opening"], Value::Null);
    let pgn = http_pgn(s.addr, &c.game).await;
    assert!(!pgn.contains("[ECO "), "{pgn}");
    assert!(!pgn.contains("[Opening "), "{pgn}");
}

async fn http_pgn(addr: std::net::SocketAddr, game: &str) -> String {
    Browser::new(addr)
        .req("GET", &format!("/api/games/{game}/pgn"), None)
        .await
        .body
}

both_dbs!(chess960_games_have_no_opening_name, no_name_for_chess960);
