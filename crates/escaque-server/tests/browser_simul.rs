//! A simultaneous exhibition in a real browser (issue 26), with the
//! WebDriver helpers of `browser.rs`: a teacher starts a 4-board simul from
//! `/clases/{id}/simultanea` (the pupils online ticked), plays from board to
//! board on the grid (the board waiting for the host comes in front after
//! every move), wins one board, resigns one, accepts a draw on another,
//! sees the score, and restarts a finished board; one pupil plays in its
//! own Chromium (taken to its game by the lobby socket), the others over
//! sockets; the pupil sees the grid read-only with a link to its game.
//! Screenshots (the form, the host's grid at desktop and phone size, the
//! pupil's view) go to `target/screenshots/simul-*.png`.
//!
//! The step functions are `pub(crate)` so that the end-to-end class test
//! can run them on its own class.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use escaque_server::client::GameSocket;
use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{
    browser, choose, click, click_move, click_xy, drop_next_move, fill, js, log_in, phone, ready,
    runtime, shot, square_centre, start_driver, start_server, until, R,
};
use crate::common::{class_with_pupils, Browser, Player, WAIT};

/// The teacher starts a simul from the class's simul page: exactly
/// `pupils` ticked, the clock `tc` (empty: none), the host's colour; the
/// simul's id once its grid shows every board being played.
pub(crate) async fn start_simul(
    c: &Client,
    base: &str,
    class: &str,
    pupils: &[&str],
    tc: &str,
    color: &str,
) -> R<String> {
    ready(c, &format!("{base}/clases/{class}/simultanea")).await?;
    until(
        c,
        "the pupils to choose",
        "document.querySelectorAll('#simul-pupils input[name=pupil]').length > 0",
    )
    .await?;
    click(c, "#simul-none").await?;
    for p in pupils {
        click(c, &format!("#simul-pupils input[value=\"{p}\"]")).await?;
    }
    until(
        c,
        "the count of boards",
        &format!(
            "document.querySelector('#simul-count').textContent.startsWith('{} ')",
            pupils.len()
        ),
    )
    .await?;
    fill(c, "#simul-tc", tc).await?;
    choose(c, "#simul-color", color).await?;
    shot(c, "simul-form.png").await?;
    click(c, "#simul-start").await?;
    until(
        c,
        "the simul's page",
        "location.pathname.startsWith('/simul/') && document.body.dataset.ready === '1'",
    )
    .await?;
    until(
        c,
        "every board in play",
        &format!(
            "document.querySelectorAll('.simul-board[data-status=playing]').length === {}",
            pupils.len()
        ),
    )
    .await?;
    let id = js(c, "return location.pathname.split('/')[2]").await?;
    Ok(id.as_str().unwrap_or_default().to_string())
}

/// The board in front of the host (`.simul-current`), once there is one.
pub(crate) async fn current_board(c: &Client) -> R<u32> {
    let v = until(
        c,
        "a board in front",
        "(document.querySelector('.simul-current') || {dataset: {}}).dataset.board",
    )
    .await?;
    v.as_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no board number: {v}"))
}

/// Waits until board `n` is in front.
pub(crate) async fn until_current(c: &Client, n: u32) -> R {
    match until(
        c,
        &format!("board {n} in front"),
        &format!("document.querySelector('.simul-current[data-board=\"{n}\"]')"),
    )
    .await
    {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("{e}; the grid: {}", grid_state(c).await)),
    }
}

/// Each board as the host's page shows it (for a failure's message).
async fn grid_state(c: &Client) -> String {
    js(
        c,
        "return [...document.querySelectorAll('.simul-board')].map(e => `${e.dataset.board}:${e.dataset.status}${e.classList.contains('host-turn') ? ' host-turn' : ''}${e.classList.contains('simul-current') ? ' current' : ''} «${e.querySelector('.sb-status').textContent}»`).join(', ') + ' | error: ' + document.querySelector('#error').textContent",
    )
    .await
    .map(|v| v.as_str().unwrap_or_default().to_string())
    .unwrap_or_else(|e| e)
}

/// The centre of square `sq` of the board in front, in viewport pixels.
async fn current_square(c: &Client, sq: &str) -> R<(f64, f64)> {
    square_centre(
        c,
        "const cell = document.querySelector('.simul-current');
         const b = cell.querySelector('cg-board').getBoundingClientRect();
         const white = cell.querySelector('.cg-wrap').classList.contains('orientation-white');",
        sq,
    )
    .await
}

/// The host moves on board `n` (which must be in front, its move legal):
/// a click on each square.
pub(crate) async fn host_move(c: &Client, n: u32, from: &str, to: &str) -> R {
    until_current(c, n).await?;
    until(
        c,
        &format!("board {n} waiting for the host"),
        &format!("document.querySelector('.simul-current[data-board=\"{n}\"].host-turn')"),
    )
    .await?;
    let plies = js(
        c,
        "const e = document.querySelector('.simul-current'); e.scrollIntoView({block: 'center'}); return Number(e.dataset.plies)",
    )
    .await?
    .as_u64()
    .ok_or("no plies")?;
    for sq in [from, to] {
        let (x, y) = current_square(c, sq).await?;
        click_xy(c, x, y, &format!("{sq} of board {n}")).await?;
    }
    // The move is the server's once the board shows it played.
    match until(
        c,
        &format!("{from}{to} played on board {n}"),
        &format!(
            "(() => {{ const e = document.querySelector('.simul-board[data-board=\"{n}\"]'); return Number(e.dataset.plies) === {} && !e.classList.contains('host-turn'); }})()",
            plies + 1
        ),
    )
    .await
    {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("{e}; the grid: {}", grid_state(c).await)),
    }
}

/// A teacher restarts board `n` (its game over) with its "Repetir" button;
/// the board's new game id.
pub(crate) async fn restart_board(c: &Client, n: u32) -> R<String> {
    let cell = format!(".simul-board[data-board=\"{n}\"]");
    let old = js(
        c,
        &format!("return document.querySelector('{cell}').dataset.game"),
    )
    .await?;
    click(c, &format!("{cell} .simul-restart")).await?;
    let v = until(
        c,
        &format!("board {n}'s new game"),
        &format!(
            "(() => {{ const e = document.querySelector('{cell}'); return e.dataset.game !== {old} && e.dataset.status === 'playing' ? e.dataset.game : null; }})()"
        ),
    )
    .await?;
    Ok(v.as_str().unwrap_or_default().to_string())
}

/// The board pupil `name` plays on.
pub(crate) async fn board_of(c: &Client, name: &str) -> R<u32> {
    let v = js(
        c,
        &format!("return Number(document.querySelector('.simul-board[data-pupil=\"{name}\"]').dataset.board)"),
    )
    .await?;
    v.as_u64()
        .map(|n| n as u32)
        .ok_or_else(|| format!("no board of {name}: {v}"))
}

/// Waits until board `n`'s game is over.
pub(crate) async fn until_over(c: &Client, n: u32) -> R {
    until(
        c,
        &format!("board {n} over"),
        &format!("document.querySelector('.simul-board[data-board=\"{n}\"][data-status=over]')"),
    )
    .await
    .map(|_| ())
}

/// The score as the page shows it.
pub(crate) async fn score_text(c: &Client) -> R<String> {
    Ok(js(
        c,
        "return document.querySelector('#simul-score').textContent",
    )
    .await?
    .as_str()
    .unwrap_or_default()
    .to_string())
}

// ------------------------------------------------------------------ the test

/// A pupil's lobby socket, listening for `your_game`.
async fn lobby(addr: SocketAddr, web: &Browser) -> R<GameSocket> {
    let mut ws = GameSocket::connect_with_cookie(addr, "/ws/lobby", &web.cookies.join("; "))
        .await
        .map_err(|e| format!("lobby: {e:?}"))?;
    ws.until(WAIT, |v| v["t"] == "seeks")
        .await
        .map_err(|e| format!("lobby list: {e:?}"))?;
    Ok(ws)
}

async fn your_game(ws: &mut GameSocket) -> R<Value> {
    ws.until(WAIT, |v| v["t"] == "your_game")
        .await
        .map_err(|e| format!("your_game: {e:?}"))
}

async fn sit(addr: SocketAddr, m: &Value) -> Player {
    Player::connect(
        addr,
        &json!({"game": m["game"], "secret": m["secret"], "seat": m["color"]}),
    )
    .await
}

async fn ack(p: &mut Player, msg: Value) -> R {
    let a = p.act(msg.clone()).await;
    if a["t"] != "ack" {
        return Err(format!("{msg}: {a}"));
    }
    Ok(())
}

#[test]
fn simul_pages() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-simul-web", 1000.0).await;
        let base = format!("http://{}", server.addr);
        let addr = server.addr;
        let downloads = dir.join("downloads");
        let class = class_with_pupils(&server, 4).await;
        let host = browser(port, "es", &downloads.join("host")).await;
        let kid = browser(port, "es", &downloads.join("kid")).await;
        let t0 = Instant::now();
        let run = async {
            log_in(&host, &base, &class.teacher_name, "contraseña-larga").await?;
            let p0 = &class.pupils[0];
            log_in(&kid, &base, &p0.name, &p0.password).await?;
            // The pupil waits on the class's simul page (it follows the
            // lobby socket there); the others listen on sockets.
            ready(&kid, &format!("{base}/clases/{}/simultanea", class.id)).await?;
            let mut lobbies = Vec::new();
            for p in &class.pupils[1..] {
                lobbies.push(lobby(addr, &p.web).await?);
            }
            let names: Vec<&str> = class.pupils.iter().map(|p| p.name.as_str()).collect();
            let id = start_simul(&host, &base, &class.id, &names, "", "white").await?;
            let kb = board_of(&host, &p0.name).await?;
            eprintln!("simul {id}: the pupil in Chromium plays board {kb}");
            // From board to board: each move sends the host on.
            assert_eq_r(current_board(&host).await?, 1, "the first board in front")?;
            for n in 1..=4 {
                host_move(&host, n, "e2", "e4").await?;
            }
            until(
                &host,
                "every pupil thinking",
                "document.querySelectorAll('.simul-board.host-turn').length === 0",
            )
            .await?;
            // The pupil in Chromium was taken to its game; it answers there.
            until(&kid, "the pupil at its game", "location.pathname.startsWith('/partida/') && document.body.dataset.ready === '1' && document.body.dataset.connected === '1'").await?;
            let kid_game = js(&kid, "return location.pathname.split('/')[2]").await?;
            click_move(&kid, "e7", "e5").await?;
            // The pupil's board waits again: it comes in front (the others'
            // answers only after the host has seen this one).
            until(
                &host,
                "the pupil's answer",
                &format!("document.querySelector('.simul-board[data-board=\"{kb}\"].host-turn')"),
            )
            .await?;
            until_current(&host, kb).await?;
            // The others answer over their sockets (each told its board).
            let mut others = Vec::new();
            for mut ws in lobbies {
                let m = your_game(&mut ws).await?;
                let board = m["board"].as_u64().ok_or("no board")? as u32;
                let mut seat = sit(addr, &m).await;
                ack(&mut seat, json!({"t": "move", "move": "e7e5", "id": 1})).await?;
                others.push((board, ws, seat));
            }
            others.sort_by_key(|o| o.0);
            // The first one's pupil resigns: the host wins there.
            let won = others[0].0;
            ack(&mut others[0].2, json!({"t": "resign", "id": 2})).await?;
            until_over(&host, won).await?;
            // The host plays on, and goes on to a board still waiting,
            // where it resigns (two taps). That move's socket closes before
            // the server reads it (dropped here, as when a server process
            // dies with it unread): the board sends it again once connected.
            drop_next_move(&host).await?;
            host_move(&host, kb, "f1", "c4").await?;
            assert_eq_r(
                js(&host, "return window.escaqueDropped").await?,
                json!(1),
                "the host's move dropped once",
            )?;
            let lost = current_board(&host).await?;
            eprintln!("won {won}, lost {lost}; {}", grid_state(&host).await);
            if lost == kb || lost == won {
                return Err(format!("after board {kb} the host is at board {lost}"));
            }
            click(&host, ".simul-current .sb-resign").await?;
            click(&host, ".simul-current .sb-resign").await?;
            until_over(&host, lost).await?;
            // The last one: its pupil offers a draw, the host accepts it on
            // the grid.
            let drawn = others
                .iter()
                .map(|o| o.0)
                .find(|b| *b != won && *b != lost)
                .ok_or("no third board")?;
            until_current(&host, drawn).await?;
            let i = others.iter().position(|o| o.0 == drawn).unwrap_or(0);
            ack(&mut others[i].2, json!({"t": "offer_draw", "id": 3})).await?;
            click(&host, &format!(".simul-board[data-board=\"{drawn}\"] .sb-accept-draw")).await?;
            until_over(&host, drawn).await?;
            until(
                &host,
                "the score 1½ – 1½",
                "document.querySelector('#simul-score').textContent.includes('1½ – 1½')",
            )
            .await?;
            // The lost board again: a new game, its pupil told, the host
            // White.
            let new_game = restart_board(&host, lost).await?;
            let i = others.iter().position(|o| o.0 == lost).unwrap_or(0);
            let m = your_game(&mut others[i].1).await?;
            if m["game"] != json!(new_game) || m["board"] != json!(lost) || m["simul"] != json!(id) {
                return Err(format!("board {lost}'s pupil was told {m}, not {new_game}"));
            }
            let mut again = sit(addr, &m).await;
            until_current(&host, lost).await?;
            host_move(&host, lost, "c2", "c4").await?;
            ack(&mut again, json!({"t": "move", "move": "c7c5", "id": 1})).await?;
            until_current(&host, lost).await?;
            let score = score_text(&host).await?;
            if !score.contains("1½ – 1½") {
                return Err(format!("the score after the restart: {score}"));
            }
            js(&host, "window.scrollTo(0, 0)").await?;
            shot(&host, "simul-host.png").await?;
            phone(&host, "simul-host-phone.png").await?;
            // The pupil's view: the boards read-only, a link to its game.
            ready(&kid, &format!("{base}/simul/{id}")).await?;
            until(
                &kid,
                "the pupil's grid",
                "document.querySelectorAll('.simul-board').length === 4 && document.querySelector('#simul-your-game')",
            )
            .await?;
            let v = js(&kid, "return [document.querySelector('#simul-your-game').getAttribute('href'), document.querySelectorAll('.simul-restart, .simul-current').length, Number(document.querySelector('.simul-mine').dataset.board)]").await?;
            let link = format!("/partida/{}", kid_game.as_str().unwrap_or_default());
            if v != json!([link, 0, kb]) {
                return Err(format!("the pupil's view: {v}"));
            }
            shot(&kid, "simul-pupil.png").await?;
            phone(&kid, "simul-pupil-phone.png").await?;
            Ok(())
        };
        let r = tokio::time::timeout(Duration::from_secs(300), run)
            .await
            .unwrap_or_else(|_| Err("took more than 300 s".into()));
        eprintln!("simul pages: {:.1} s", t0.elapsed().as_secs_f64());
        if r.is_err() {
            let _ = shot(&host, "failed-simul-host.png").await;
            let _ = shot(&kid, "failed-simul-kid.png").await;
        }
        let _ = host.close().await;
        let _ = kid.close().await;
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = r {
            panic!("simul pages: {e}");
        }
    });
}

fn assert_eq_r<T: PartialEq + std::fmt::Debug>(a: T, b: T, what: &str) -> R {
    if a == b {
        Ok(())
    } else {
        Err(format!("{what}: {a:?}, expected {b:?}"))
    }
}
