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

use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MouseActions, PointerAction, MOUSE_BUTTON_LEFT,
};

use crate::browser::{
    browser, choose, click, click_move, click_xy, drop_next_move, fill, js, log_in, phone, ready,
    runtime, shot, square_centre, start_driver, start_server, until, wait_plies, R,
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

/// The centre of square `sq` of the board in front, in viewport pixels,
/// measured now (where a person sees it).
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

/// How the host makes a move.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Hand {
    /// A click on the piece, a click on its destination.
    Clicks,
    /// Pressed on the piece, moved in steps, released on the destination.
    Drag,
}

/// Waits until board `n` is in front and waiting for the host; its plies.
async fn host_turn(c: &Client, n: u32) -> R<u64> {
    until_current(c, n).await?;
    until(
        c,
        &format!("board {n} waiting for the host"),
        &format!("document.querySelector('.simul-current[data-board=\"{n}\"].host-turn')"),
    )
    .await?;
    js(
        c,
        "return Number(document.querySelector('.simul-current').dataset.plies)",
    )
    .await?
    .as_u64()
    .ok_or_else(|| "no plies".to_string())
}

/// Waits until the server has played the host's move on board `n`.
async fn played(c: &Client, n: u32, plies: u64, what: &str) -> R {
    match until(
        c,
        &format!("{what} played on board {n}"),
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

/// The host moves on board `n` (which must be in front, its move legal)
/// with the mouse, as a person does: wherever the page shows the board
/// (no scrolling it into view first: at 1280×900 the board in front is on
/// screen), a click on each square.
pub(crate) async fn host_move(c: &Client, n: u32, from: &str, to: &str) -> R {
    host_hand(c, n, from, to, Hand::Clicks).await
}

/// [`host_move`] with the click-click or the drag.
pub(crate) async fn host_hand(c: &Client, n: u32, from: &str, to: &str, hand: Hand) -> R {
    let plies = host_turn(c, n).await?;
    let (x0, y0) = current_square(c, from).await?;
    let (x1, y1) = current_square(c, to).await?;
    let (w, h) = (js(c, "return [window.innerWidth, window.innerHeight]").await?)
        .as_array()
        .and_then(|a| Some((a.first()?.as_f64()?, a.get(1)?.as_f64()?)))
        .ok_or("no viewport")?;
    for (x, y, sq) in [(x0, y0, from), (x1, y1, to)] {
        if !(0.0..w).contains(&x) || !(0.0..h).contains(&y) {
            return Err(format!(
                "{sq} of board {n} is off screen at ({x:.0}, {y:.0}) in {w}×{h}"
            ));
        }
    }
    match hand {
        Hand::Clicks => {
            click_xy(c, x0, y0, &format!("{from} of board {n}")).await?;
            // What a person sees after the first click: the piece picked
            // and its destinations marked. chessground draws them at the
            // next animation frame, so the page is looked at until they are
            // there (or two seconds have passed).
            let looked = Instant::now();
            let seen = loop {
                let seen = js(
                    c,
                    "const cell = document.querySelector('.simul-current');
                     return [!!cell.querySelector('square.selected'), cell.querySelectorAll('square.move-dest').length]",
                )
                .await?;
                let drawn = seen[0] == json!(true) && seen[1].as_u64().unwrap_or(0) > 0;
                if drawn || looked.elapsed() > Duration::from_secs(2) {
                    break seen;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            };
            if seen[0] != json!(true) || seen[1].as_u64().unwrap_or(0) == 0 {
                return Err(format!(
                    "after a click on {from} of board {n}: selected, destinations {seen}; the grid: {}",
                    grid_state(c).await
                ));
            }
            click_xy(c, x1, y1, &format!("{to} of board {n}")).await?;
        }
        Hand::Drag => drag_xy(c, (x0, y0), (x1, y1), &format!("{from}{to} on board {n}")).await?,
    }
    played(c, n, plies, &format!("{from}{to}")).await
}

/// Pressed at `a`, moved in steps, released at `b` (viewport pixels).
async fn drag_xy(c: &Client, a: (f64, f64), b: (f64, f64), what: &str) -> R {
    let mut m = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: a.0,
            y: a.1,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        });
    for i in 1..=6 {
        let k = f64::from(i) / 6.0;
        m = m.then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(25)),
            x: a.0 + (b.0 - a.0) * k,
            y: a.1 + (b.1 - a.1) * k,
        });
    }
    m = m.then(PointerAction::Up {
        button: MOUSE_BUTTON_LEFT,
    });
    c.perform_actions(m)
        .await
        .map_err(|e| format!("drag {what}: {e}"))?;
    c.release_actions().await.map_err(|e| e.to_string())
}

const TAB: char = '\u{E004}';
const ENTER: char = '\u{E007}';
const SHIFT: char = '\u{E008}';
const LEFT: char = '\u{E012}';
const UP: char = '\u{E013}';
const RIGHT: char = '\u{E014}';
const DOWN: char = '\u{E015}';

/// Keys pressed one after the other on whatever has the focus.
async fn keys(c: &Client, keys: &[char]) -> R {
    let mut a = KeyActions::new("keyboard".into());
    for k in keys {
        a = a
            .then(KeyAction::Down { value: *k })
            .then(KeyAction::Up { value: *k });
    }
    c.perform_actions(a)
        .await
        .map_err(|e| format!("keys {keys:?}: {e}"))
}

/// Text typed on whatever has the focus.
async fn type_text(c: &Client, text: &str) -> R {
    keys(c, &text.chars().collect::<Vec<_>>()).await
}

/// Tab (or Shift+Tab) until the focus is on `css`, as a person at the
/// keyboard finds a control.
async fn tab_to(c: &Client, css: &str, back: bool) -> R {
    let test = format!(
        "return !!document.activeElement && document.activeElement.matches({})",
        json!(css)
    );
    for _ in 0..80 {
        if js(c, &test).await? == json!(true) {
            return Ok(());
        }
        if back {
            let a = KeyActions::new("keyboard".into())
                .then(KeyAction::Down { value: SHIFT })
                .then(KeyAction::Down { value: TAB })
                .then(KeyAction::Up { value: TAB })
                .then(KeyAction::Up { value: SHIFT });
            c.perform_actions(a).await.map_err(|e| e.to_string())?;
        } else {
            keys(c, &[TAB]).await?;
        }
    }
    Err(format!("Tab never reached {css}"))
}

/// The host types a move on board `n` in its move box, which has the focus
/// (`tab`: Tab to it first), and presses Enter.
async fn host_types(c: &Client, n: u32, text: &str, tab: bool) -> R {
    let plies = host_turn(c, n).await?;
    let input = format!(".simul-board[data-board=\"{n}\"] .sb-move-input");
    if tab {
        tab_to(c, &input, false).await?;
    } else if js(
        c,
        &format!(
            "return document.activeElement === document.querySelector({})",
            json!(input)
        ),
    )
    .await?
        != json!(true)
    {
        return Err(format!(
            "the focus is not in board {n}'s move box but on {}",
            js(c, "const e = document.activeElement; return e ? e.tagName + '.' + e.className : 'nothing'").await?
        ));
    }
    type_text(c, text).await?;
    keys(c, &[ENTER]).await?;
    played(c, n, plies, text).await
}

/// The host plays on board `n` from the board itself with the keyboard
/// (its focus reached with Shift+Tab): the arrows from the cursor's start
/// (e2 for White) to `from`, Enter, the arrows to `to`, Enter.
async fn host_board_keys(c: &Client, n: u32, from: &str, to: &str) -> R {
    let plies = host_turn(c, n).await?;
    let board = format!(".simul-board[data-board=\"{n}\"] .board");
    tab_to(c, &board, true).await?;
    let steps = |a: &str, b: &str| {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        let df = i32::from(b[0]) - i32::from(a[0]);
        let dr = i32::from(b[1]) - i32::from(a[1]);
        let mut k = Vec::new();
        for _ in 0..df.abs() {
            k.push(if df > 0 { RIGHT } else { LEFT });
        }
        for _ in 0..dr.abs() {
            k.push(if dr > 0 { UP } else { DOWN });
        }
        k
    };
    let mut k = steps("e2", from);
    k.push(ENTER);
    keys(c, &k).await?;
    let picked = js(
        c,
        &format!(
            "return document.querySelector({}).dataset.cursor",
            json!(board)
        ),
    )
    .await?;
    if picked != json!(from) {
        return Err(format!("the cursor is on {picked}, not {from}"));
    }
    let mut k = steps(from, to);
    k.push(ENTER);
    keys(c, &k).await?;
    played(c, n, plies, &format!("{from}{to} (keys)")).await
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

/// The teacher's games page (`/mis-partidas`): each game's result cell.
async fn listed_results(c: &Client, base: &str) -> R<Value> {
    ready(c, &format!("{base}/mis-partidas")).await?;
    until(
        c,
        "the list of games",
        "document.querySelector('#games tbody tr')",
    )
    .await?;
    js(
        c,
        "return Object.fromEntries([...document.querySelectorAll('#games tbody tr')].map((r) => [r.dataset.game, r.children[2].textContent]))",
    )
    .await
}

/// The class's progress table: (games, wins, draws, losses) of `pupil`.
async fn progress_row(c: &Client, pupil: &str) -> R<Value> {
    js(
        c,
        &format!(
            "const r = document.querySelector('#progress-table tr[data-pupil=' + JSON.stringify({}) + ']');
             if (!r) return null;
             const th = [...document.querySelectorAll('#progress-table thead th')];
             return ['games', 'wins', 'draws', 'losses'].map((k) => Number(r.children[th.findIndex((t) => t.dataset.sort === k)].textContent))",
            json!(pupil)
        ),
    )
    .await
}

/// A whole simul as a teacher plays it (issue 60: the host could not move
/// from this page; the earlier test scrolled each board to the middle of
/// the screen before it clicked, which made chessground measure the board
/// again, and a person does not): the mouse where the page shows the board,
/// with two clicks and with a drag, the keyboard with a typed move and on
/// the board itself, the next board coming forward after every move, a
/// pupil's resignation, the host's resignation and a draw accepted on the
/// grid, the final score, "Repetir", and afterwards the teacher's list of
/// games and the class's progress table counting the finished games.
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
            // From board to board, each move sending the host on: two
            // clicks, a drag, a move typed once Tab reached its box, and
            // one typed straight away (the focus came along to the next
            // board's box).
            assert_eq_r(current_board(&host).await?, 1, "the first board in front")?;
            host_hand(&host, 1, "e2", "e4", Hand::Clicks).await?;
            host_hand(&host, 2, "e2", "e4", Hand::Drag).await?;
            host_types(&host, 3, "e4", true).await?;
            host_types(&host, 4, "e4", false).await?;
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
            // answers only after the host has seen this one). The host
            // plays there on the board with the keyboard.
            until(
                &host,
                "the pupil's answer",
                &format!("document.querySelector('.simul-board[data-board=\"{kb}\"].host-turn')"),
            )
            .await?;
            host_board_keys(&host, kb, "b1", "c3").await?;
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
            // The next board in front: the host drags there. That move's
            // socket closes before the server reads it (dropped here, as
            // when a server process dies with it unread): the board sends
            // it again once connected.
            let drawn = current_board(&host).await?;
            if [kb, won].contains(&drawn) {
                return Err(format!("after board {kb} the host is at board {drawn}"));
            }
            drop_next_move(&host).await?;
            host_hand(&host, drawn, "f1", "c4", Hand::Drag).await?;
            assert_eq_r(
                js(&host, "return window.escaqueDropped").await?,
                json!(1),
                "the host's move dropped once",
            )?;
            // The last board waiting comes in front; the host resigns
            // there (two taps).
            let lost = current_board(&host).await?;
            eprintln!("won {won}, drawn {drawn}, lost {lost}; {}", grid_state(&host).await);
            if [kb, won, drawn].contains(&lost) {
                return Err(format!("after board {drawn} the host is at board {lost}"));
            }
            click(&host, ".simul-current .sb-resign").await?;
            click(&host, ".simul-current .sb-resign").await?;
            until_over(&host, lost).await?;
            // The dragged board's pupil offers a draw; the host accepts it
            // on the grid.
            let i = others.iter().position(|o| o.0 == drawn).ok_or("no such board")?;
            ack(&mut others[i].2, json!({"t": "offer_draw", "id": 3})).await?;
            click(&host, &format!(".simul-board[data-board=\"{drawn}\"] .sb-accept-draw")).await?;
            until_over(&host, drawn).await?;
            // The pupil in Chromium resigns after the host's knight move.
            wait_plies(&kid, 3).await?;
            js(&kid, "window.confirm = () => true; return 1").await?;
            click(&kid, "#resign").await?;
            until_over(&host, kb).await?;
            until(
                &host,
                "the score 2½ – 1½ and every board over",
                "document.querySelector('#simul-score').textContent.includes('2½ – 1½') && document.querySelectorAll('.simul-board[data-status=over]').length === 4",
            )
            .await?;
            let games: Value = js(
                &host,
                "return Object.fromEntries([...document.querySelectorAll('.simul-board')].map((e) => [e.dataset.board, e.dataset.game]))",
            )
            .await?;
            let pupils: Value = js(
                &host,
                "return Object.fromEntries([...document.querySelectorAll('.simul-board')].map((e) => [e.dataset.board, e.dataset.pupil]))",
            )
            .await?;
            let game_of = |n: u32| games[n.to_string()].as_str().unwrap_or_default().to_string();
            // The lost board again ("Repetir"): a new game, its pupil told,
            // the host White.
            let new_game = restart_board(&host, lost).await?;
            let i = others.iter().position(|o| o.0 == lost).ok_or("no such board")?;
            let m = your_game(&mut others[i].1).await?;
            if m["game"] != json!(new_game) || m["board"] != json!(lost) || m["simul"] != json!(id) {
                return Err(format!("board {lost}'s pupil was told {m}, not {new_game}"));
            }
            let mut again = sit(addr, &m).await;
            host_move(&host, lost, "c2", "c4").await?;
            ack(&mut again, json!({"t": "move", "move": "c7c5", "id": 1})).await?;
            until_current(&host, lost).await?;
            let score = score_text(&host).await?;
            if !score.contains("2½ – 1½") {
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
            // Afterwards: the teacher's games list each finished simul game
            // with its result, the new one as in progress…
            let listed = listed_results(&host, &base).await?;
            let draw = |r: &Value| r == "1/2-1/2" || r == "½-½";
            for (n, want) in [(won, "1-0"), (kb, "1-0"), (lost, "0-1")] {
                if listed[game_of(n)] != want {
                    return Err(format!("board {n}'s game listed as {}: {listed}", listed[game_of(n)]));
                }
            }
            if !draw(&listed[game_of(drawn)]) {
                return Err(format!("board {drawn}'s game listed as {}", listed[game_of(drawn)]));
            }
            if listed[&new_game] != "en curso" {
                return Err(format!("the restarted game listed as {}", listed[&new_game]));
            }
            shot(&host, "simul-my-games.png").await?;
            // …and the class's progress table counts them (the restarted
            // game, still in play, not).
            ready(&host, &format!("{base}/clases/{}/progreso", class.id)).await?;
            until(&host, "the progress table", "document.querySelector('#progress-table tbody tr')").await?;
            for (n, want) in [
                (won, [1, 0, 0, 1]),
                (kb, [1, 0, 0, 1]),
                (lost, [1, 1, 0, 0]),
                (drawn, [1, 0, 1, 0]),
            ] {
                let pupil = pupils[n.to_string()].as_str().unwrap_or_default();
                let got = progress_row(&host, pupil).await?;
                if got != json!(want) {
                    return Err(format!("board {n}'s pupil {pupil} in the progress table: {got}, not {want:?}"));
                }
            }
            shot(&host, "simul-progress.png").await?;
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
