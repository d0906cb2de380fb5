//! Chess960 in a real browser (issue 25), with the WebDriver helpers of
//! `browser.rs`: a challenge created from the home page's form for position
//! 291 (BQNRKRNB: the king on e1 between its rooks on d1 and f1), White
//! castling short by clicking the king and then its rook, Black castling
//! long by dragging the king onto its rook; the board redrawn from the
//! server's position, the moves stored as the king taking its rook; a
//! Chess960 seek shown in the lobby. Screenshots at desktop and phone size
//! go to `target/screenshots/c960-*.png`.

use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{
    browser, click, click_move, drag_move, join_at, js, ready, runtime, shot, start_driver,
    start_server, until, wait_plies, R,
};

/// The game as the server has it (`GET /api/games/{id}`).
async fn server_state(c: &Client, id: &str) -> R<Value> {
    c.execute_async(
        "const [id, done] = arguments;
         fetch('/api/games/' + id).then(r => r.json()).then(done).catch(e => done({error: String(e)}));",
        vec![json!(id)],
    )
    .await
    .map_err(|e| e.to_string())
}

/// The pieces on the board as chessground holds them, as a FEN placement
/// (what the player sees).
async fn board_placement(c: &Client) -> R<String> {
    let v = js(
        c,
        "const p = window.escaqueBoard.state.pieces; const L = {pawn:'p',knight:'n',bishop:'b',rook:'r',queen:'q',king:'k'};
         let rows = [];
         for (let r = 8; r >= 1; r--) { let row = '', e = 0;
           for (const f of 'abcdefgh') { const x = p.get(f + r);
             if (!x) { e++; continue; } if (e) { row += e; e = 0; }
             const l = L[x.role]; row += x.color === 'white' ? l.toUpperCase() : l; }
           if (e) row += e; rows.push(row); }
         return rows.join('/');",
    )
    .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

async fn set_value(c: &Client, css: &str, value: &str) -> R {
    js(
        c,
        &format!(
            "const e = document.querySelector('{css}'); e.value = {}; e.dispatchEvent(new Event('change')); return null",
            json!(value)
        ),
    )
    .await
    .map(|_| ())
}

async fn scenario(base: &str, a: &Client, b: &Client) -> R {
    // White creates the challenge from the home page's form.
    ready(a, &format!("{base}/")).await?;
    set_value(a, "#friend-color", "white").await?;
    set_value(a, "#friend-variant", "chess960").await?;
    let shown = js(
        a,
        "return !document.querySelector('#friend-position-label').hidden",
    )
    .await?;
    if shown != json!(true) {
        return Err("the position field did not show for Chess960".into());
    }
    set_value(a, "#friend-position", "291").await?;
    shot(a, "c960-form-desktop.png").await?;
    click(a, "#create-challenge").await?;
    let link = until(a, "challenge link", "document.querySelector('#challenge-link') && document.querySelector('#challenge-link').value").await?;
    let link = link.as_str().unwrap_or_default().to_string();
    let id = link.rsplit('/').next().unwrap_or_default().to_string();
    join_at(&link, a, b).await?;
    for c in [a, b] {
        let line = until(
            c,
            "the variant line",
            "document.querySelector('#variant').textContent",
        )
        .await?;
        if line != json!("Chess960 (ajedrez 960) · posición n.º 291") {
            return Err(format!("variant line: {line}"));
        }
    }
    let st = server_state(a, &id).await?;
    if st["variant"] != "chess960" || st["chess960_position"] != 291 {
        return Err(format!("not Chess960 291: {st}"));
    }
    if board_placement(a).await? != "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB" {
        return Err(format!("start board: {}", board_placement(a).await?));
    }
    shot(a, "c960-start-desktop.png").await?;
    // The knights leave; White castles short: the king clicked, then its
    // rook on f1.
    click_move(a, "g1", "h3").await?;
    wait_plies(b, 1).await?;
    click_move(b, "c8", "b6").await?;
    wait_plies(a, 2).await?;
    let dests = js(
        a,
        "return window.escaqueBoard.state.movable.dests.get('e1')",
    )
    .await?;
    if dests != json!(["f1", "g1"]) && dests != json!(["g1", "f1"]) {
        return Err(format!("the king's squares on e1: {dests}"));
    }
    click_move(a, "e1", "f1").await?;
    wait_plies(b, 3).await?;
    // Black castles long: the king dragged onto its rook on d8.
    drag_move(b, "e8", "d8").await?;
    wait_plies(a, 4).await?;
    let want = "bqkr1rnb/pppppppp/1n6/8/8/7N/PPPPPPPP/BQNR1RKB";
    for c in [a, b] {
        let seen = until(
            c,
            "the board after both castlings",
            "(() => { const p = window.escaqueBoard.state.pieces;
               return p.get('g1') && p.get('g1').role === 'king' && p.get('f1') && p.get('f1').role === 'rook'
                 && p.get('c8') && p.get('c8').role === 'king' && p.get('d8') && p.get('d8').role === 'rook'
                 && !p.get('e1') && !p.get('e8'); })()",
        )
        .await;
        if seen.is_err() || board_placement(c).await? != want {
            return Err(format!(
                "board after castling: {}",
                board_placement(c).await?
            ));
        }
    }
    let st = server_state(a, &id).await?;
    let moves: Vec<(String, String)> = st["moves"]
        .as_array()
        .ok_or("no moves")?
        .iter()
        .map(|m| {
            (
                m["uci"].as_str().unwrap_or_default().to_string(),
                m["san"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let expected = [
        ("g1h3", "Nh3"),
        ("c8b6", "Nb6"),
        ("e1f1", "O-O"),
        ("e8d8", "O-O-O"),
    ]
    .map(|(u, s)| (u.to_string(), s.to_string()));
    if moves != expected {
        return Err(format!("moves as stored: {moves:?}"));
    }
    // The move list in Spanish says 0-0 and 0-0-0.
    let list = js(
        a,
        "return [...document.querySelectorAll('#moves .mv')].map(e => e.textContent).join(' ')",
    )
    .await?;
    let list = list.as_str().unwrap_or_default();
    if !list.contains("0-0") || !list.contains("0-0-0") {
        return Err(format!("the move list: {list}"));
    }
    shot(a, "c960-castled-desktop.png").await?;
    shot(b, "c960-castled-desktop-black.png").await?;
    for c in [a, b] {
        c.set_window_size(390, 844)
            .await
            .map_err(|e| e.to_string())?;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    shot(a, "c960-castled-phone.png").await?;
    shot(b, "c960-castled-phone-black.png").await?;
    for c in [a, b] {
        c.set_window_size(1280, 900)
            .await
            .map_err(|e| e.to_string())?;
    }

    // A Chess960 seek with its position drawn on acceptance, in the lobby.
    ready(b, &format!("{base}/")).await?;
    set_value(b, "#seek-variant", "chess960").await?;
    click(b, "#seek-create").await?;
    ready(a, &format!("{base}/")).await?;
    let seek = until(a, "the seek listed", "[...document.querySelectorAll('#seeks .seek')].map(e => e.textContent).find(t => t.includes('Chess960'))").await?;
    if !seek
        .as_str()
        .unwrap_or_default()
        .contains("Chess960 (ajedrez 960) posición al azar")
    {
        return Err(format!("the seek: {seek}"));
    }
    shot(a, "c960-lobby-desktop.png").await?;
    click(a, "#seeks .accept-seek").await?;
    until(a, "the seek's game", "location.pathname.startsWith('/partida/') && document.querySelector('#variant') && document.querySelector('#variant').textContent").await?;
    let line = js(a, "return document.querySelector('#variant').textContent").await?;
    if !line
        .as_str()
        .unwrap_or_default()
        .starts_with("Chess960 (ajedrez 960) · posición n.º ")
    {
        return Err(format!("the seek's game: {line}"));
    }
    Ok(())
}

#[test]
fn browser_chess960() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-960-test", 1000.0).await;
        let base = format!("http://{}", server.addr);
        let a = browser(port, "es", &dir.join("a")).await;
        let b = browser(port, "es", &dir.join("b")).await;
        let r = scenario(&base, &a, &b).await;
        if r.is_err() {
            let _ = shot(&a, "failed-c960-a.png").await;
            let _ = shot(&b, "failed-c960-b.png").await;
        }
        for c in [a, b] {
            let _ = c.close().await;
        }
        let _ = std::fs::remove_dir_all(&dir);
        r.unwrap();
    });
}
