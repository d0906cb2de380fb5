//! The board in a real browser: headless Chromium (Debian's `chromium` and
//! `chromium-driver`) driven over WebDriver with fantoccini, against a server
//! started in-process on 127.0.0.1:0 with a fresh SQLite directory.
//!
//! One chromedriver process; browser sessions are reused across scenarios
//! (two players and a spectator, each with its own cookies). Every scenario
//! runs even if an earlier one failed; the test fails listing each failure.
//! Screenshots and the move-latency figures go to `target/screenshots/`.
//!
//! If `chromedriver` is missing, the test runs `scripts/chromium.sh` to
//! install it; if that fails the test fails (it is never skipped).

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use escaque_server::{Config, Database};
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

type R<T = ()> = Result<T, String>;

const WAIT: Duration = Duration::from_secs(15);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shots_dir() -> PathBuf {
    let d = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
        .join("screenshots");
    let _ = std::fs::create_dir_all(&d);
    d
}

/// Kills chromedriver when the test ends, however it ends.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn have(cmd: &str) -> bool {
    Command::new(cmd)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn start_driver() -> (Driver, u16) {
    if !have("chromedriver") {
        let st = Command::new(root().join("scripts/chromium.sh"))
            .status()
            .expect("could not run scripts/chromium.sh");
        assert!(st.success(), "scripts/chromium.sh failed: {st}");
    }
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver did not start (scripts/chromium.sh installs it)");
    let d = Driver(child);
    let t0 = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "chromedriver did not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (d, port)
}

async fn browser(port: u16, lang: &str) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", format!("--lang={lang}"), "--hide-scrollbars",
                     "--disable-extensions", "--mute-audio"],
            "prefs": {"intl.accept_languages": lang},
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a Chromium session")
}

// ------------------------------------------------------------------ helpers

async fn js(c: &Client, script: &str) -> R<Value> {
    c.execute(script, vec![])
        .await
        .map_err(|e| format!("script failed: {e}: {script}"))
}

/// Polls a JavaScript expression until it is truthy.
async fn until(c: &Client, what: &str, expr: &str) -> R<Value> {
    let t0 = Instant::now();
    let script = format!("try {{ return ({expr}); }} catch (e) {{ return null; }}");
    loop {
        let v = js(c, &script).await?;
        let truthy = match &v {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::String(s) => !s.is_empty(),
            Value::Number(n) => n.as_f64() != Some(0.0),
            _ => true,
        };
        if truthy {
            return Ok(v);
        }
        if t0.elapsed() > WAIT {
            let status = js(
                c,
                "return (document.querySelector('#status')||{}).textContent + ' | ' + (document.querySelector('#error')||{}).textContent",
            )
            .await
            .unwrap_or(Value::Null);
            return Err(format!(
                "timed out waiting for {what} ({expr}); page says {status}"
            ));
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
}

async fn click(c: &Client, css: &str) -> R {
    let el = c
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(css))
        .await
        .map_err(|e| format!("no {css}: {e}"))?;
    el.click().await.map_err(|e| format!("click {css}: {e}"))
}

async fn ready(c: &Client, url: &str) -> R {
    c.goto(url).await.map_err(|e| format!("goto {url}: {e}"))?;
    until(c, "page ready", "document.body.dataset.ready === '1'").await?;
    Ok(())
}

/// The centre of a square in viewport pixels, from the board's box and
/// orientation.
async fn square_xy(c: &Client, sq: &str) -> R<(f64, f64)> {
    let v = js(
        c,
        &format!(
            "const b = document.querySelector('#board cg-board').getBoundingClientRect();
             const white = window.escaqueBoard.state.orientation === 'white';
             const f = '{sq}'.charCodeAt(0) - 97, r = Number('{sq}'[1]) - 1;
             const col = white ? f : 7 - f, row = white ? 7 - r : r;
             return [b.left + (col + 0.5) * b.width / 8, b.top + (row + 0.5) * b.height / 8];"
        ),
    )
    .await?;
    let x = v[0].as_f64().ok_or("no x")?;
    let y = v[1].as_f64().ok_or("no y")?;
    Ok((x, y))
}

/// Click the origin, then the destination.
async fn click_move(c: &Client, from: &str, to: &str) -> R {
    for sq in [from, to] {
        let (x, y) = square_xy(c, sq).await?;
        let a = MouseActions::new("mouse".into())
            .then(PointerAction::MoveTo {
                duration: None,
                x,
                y,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        c.perform_actions(a)
            .await
            .map_err(|e| format!("click on {sq}: {e}"))?;
    }
    Ok(())
}

/// Press on the origin, move in steps, release on the destination.
async fn drag_move(c: &Client, from: &str, to: &str) -> R {
    let (x0, y0) = square_xy(c, from).await?;
    let (x1, y1) = square_xy(c, to).await?;
    let mut a = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: x0,
            y: y0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        });
    for i in 1..=5 {
        let k = i as f64 / 5.0;
        a = a.then(PointerAction::MoveTo {
            duration: Some(Duration::from_millis(20)),
            x: x0 + (x1 - x0) * k,
            y: y0 + (y1 - y0) * k,
        });
    }
    a = a.then(PointerAction::Up {
        button: MOUSE_BUTTON_LEFT,
    });
    c.perform_actions(a)
        .await
        .map_err(|e| format!("drag {from}{to}: {e}"))?;
    c.release_actions().await.map_err(|e| e.to_string())?;
    Ok(())
}

async fn wait_plies(c: &Client, n: usize) -> R {
    until(
        c,
        &format!("{n} moves"),
        &format!("document.querySelectorAll('#moves .mv').length === {n}"),
    )
    .await
    .map(|_| ())
}

async fn text(c: &Client, css: &str) -> R<String> {
    Ok(js(
        c,
        &format!("const e = document.querySelector('{css}'); return e ? e.textContent : null"),
    )
    .await?
    .as_str()
    .unwrap_or("")
    .to_string())
}

async fn shot(c: &Client, name: &str) -> R {
    let png = c.screenshot().await.map_err(|e| e.to_string())?;
    std::fs::write(shots_dir().join(name), png).map_err(|e| e.to_string())
}

/// Creates a game from the page (the same request the home page's forms send).
async fn create(c: &Client, body: Value) -> R<Value> {
    let v = c
        .execute_async(
            "const [body, done] = arguments;
             fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})
               .then(r => r.json()).then(s => { localStorage.setItem('seat:' + s.game, s.secret); done(s); })
               .catch(e => done({error: String(e)}));",
            vec![body],
        )
        .await
        .map_err(|e| e.to_string())?;
    if v.get("game").is_none() {
        return Err(format!("could not create a game: {v}"));
    }
    Ok(v)
}

/// White (a) creates a friend game, Black (b) opens the link and accepts.
async fn pair(base: &str, a: &Client, b: &Client, extra: Value) -> R<String> {
    ready(a, &format!("{base}/")).await?;
    let mut body = json!({"opponent": "friend", "color": "white"});
    if let (Some(o), Value::Object(e)) = (body.as_object_mut(), extra) {
        o.extend(e);
    }
    let g = create(a, body).await?;
    let id = g["game"].as_str().unwrap_or_default().to_string();
    ready(a, &format!("{base}/partida/{id}")).await?;
    ready(b, &format!("{base}/partida/{id}")).await?;
    click(b, "#join").await?;
    for c in [a, b] {
        until(
            c,
            "game started",
            "document.querySelector('#status').textContent.includes('blancas')",
        )
        .await?;
    }
    Ok(id)
}

async fn typed(c: &Client, mv: &str) -> R {
    let input = c
        .find(Locator::Css("#move-input"))
        .await
        .map_err(|e| e.to_string())?;
    input.send_keys(mv).await.map_err(|e| e.to_string())?;
    click(c, "#move-send").await
}

/// Runs a Chrome DevTools command through chromedriver's
/// `/session/{id}/goog/cdp/execute` (plain HTTP/1.1 on loopback).
async fn cdp(c: &Client, driver_port: u16, cmd: &str, params: Value) -> R<Value> {
    use std::io::{Read, Write};
    let sid = c
        .session_id()
        .await
        .map_err(|e| e.to_string())?
        .ok_or("no session id")?;
    let body = json!({"cmd": cmd, "params": params}).to_string();
    let req = format!(
        "POST /session/{sid}/goog/cdp/execute HTTP/1.1\r\nHost: 127.0.0.1:{driver_port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let raw = tokio::task::spawn_blocking(move || -> std::io::Result<Vec<u8>> {
        let mut s = TcpStream::connect(("127.0.0.1", driver_port))?;
        s.set_read_timeout(Some(Duration::from_secs(20)))?;
        s.write_all(req.as_bytes())?;
        // Read the head, then exactly Content-Length bytes (the driver may
        // keep the connection open).
        let mut out = Vec::new();
        let mut buf = [0u8; 65536];
        loop {
            let n = s.read(&mut buf)?;
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&out);
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let len = head
                    .lines()
                    .find_map(|l| {
                        let (k, v) = l.split_once(':')?;
                        k.eq_ignore_ascii_case("content-length")
                            .then(|| v.trim().parse::<usize>().ok())
                            .flatten()
                    })
                    .unwrap_or(usize::MAX);
                if body.len() >= len {
                    break;
                }
            }
        }
        Ok(out)
    })
    .await
    .map_err(|e| e.to_string())?
    .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&raw);
    let (_, json_text) = text.split_once("\r\n\r\n").ok_or("no HTTP body")?;
    let v: Value =
        serde_json::from_str(json_text.trim()).map_err(|e| format!("CDP answer: {e}"))?;
    Ok(v["value"].clone())
}

/// True if the accessibility tree holds `text` inside an `aria-live`
/// region with politeness `live`.
async fn ax_live_text(c: &Client, driver_port: u16, text: &str, live: &str) -> R<bool> {
    let tree = cdp(c, driver_port, "Accessibility.getFullAXTree", json!({})).await?;
    let nodes = tree["nodes"].as_array().ok_or("no AX nodes")?;
    let by_id = |id: &Value| nodes.iter().find(|n| &n["nodeId"] == id);
    for n in nodes {
        if n["name"]["value"].as_str() != Some(text) {
            continue;
        }
        let mut cur = Some(n);
        while let Some(node) = cur {
            let is_live = node["properties"].as_array().is_some_and(|ps| {
                ps.iter()
                    .any(|p| p["name"] == json!("live") && p["value"]["value"] == json!(live))
            });
            if is_live {
                return Ok(true);
            }
            cur = by_id(&node["parentId"]);
        }
    }
    Ok(false)
}

// ------------------------------------------------------------------ scenarios

struct Env {
    base: String,
    driver_port: u16,
    a: Client,
    b: Client,
    spectator: Client,
    latencies: Vec<f64>,
}

/// Milliseconds from a move sent by one browser to its display in the other,
/// for the given plies (White is `a`, Black is `b`).
async fn latency(a: &Client, b: &Client, plies: std::ops::Range<usize>) -> R<Vec<f64>> {
    let la = js(a, "return window.escaqueLog").await?;
    let lb = js(b, "return window.escaqueLog").await?;
    let mut out = Vec::new();
    for p in plies {
        let k = p.to_string();
        let (mover, other) = if p % 2 == 0 { (&la, &lb) } else { (&lb, &la) };
        if let (Some(s), Some(r)) = (mover["sent"][&k].as_f64(), other["seen"][&k].as_f64()) {
            out.push(r - s);
        }
    }
    Ok(out)
}

/// Légal's mate, moves alternately by click-click and by drag; a spectator
/// watches; the black player uses the screen-reader mode; a reload in the
/// middle; screenshots in both orientations.
async fn mate_game(env: &mut Env) -> R {
    let (a, b, s) = (&env.a, &env.b, &env.spectator);
    // Black turns the screen-reader mode on (stored for the next pages).
    ready(b, &format!("{}/", env.base)).await?;
    click(b, "#sr-toggle").await?;
    let id = pair(&env.base, a, b, json!({"time_control": "5+3"})).await?;
    ready(s, &format!("{}/partida/{id}", env.base)).await?;
    // The spectator has no controls and no move field.
    let spectator_controls = js(
        s,
        "return [...document.querySelectorAll('#controls button')].filter(b => b.offsetParent !== null).map(b => b.id)",
    )
    .await?;
    if spectator_controls != json!(["flip"]) {
        return Err(format!(
            "spectator sees controls {spectator_controls} (only flip expected)"
        ));
    }
    if js(
        s,
        "return getComputedStyle(document.querySelector('#move-form')).display",
    )
    .await?
        != json!("none")
    {
        return Err("spectator sees the move field".into());
    }
    let line = [
        "e2e4", "e7e5", "g1f3", "d7d6", "f1c4", "c8g4", "b1c3", "g7g6", "f3e5", "g4d1", "c4f7",
        "e8e7", "c3d5",
    ];
    for (i, mv) in line.iter().enumerate() {
        let (me, other) = if i % 2 == 0 { (a, b) } else { (b, a) };
        let (from, to) = (&mv[0..2], &mv[2..4]);
        if i % 2 == 0 {
            click_move(me, from, to).await?;
        } else {
            drag_move(me, from, to).await?;
        }
        wait_plies(other, i + 1).await?;
        wait_plies(me, i + 1).await?;
        if i == 2 {
            // Black's screen reader announced White's knight move in Spanish.
            let said = until(
                b,
                "the spoken move",
                "document.querySelector('#sr-live').textContent",
            )
            .await?;
            let live = js(
                b,
                "return document.querySelector('#sr-live').getAttribute('aria-live')",
            )
            .await?;
            if said != json!("caballo de g1 a f3") || live != json!("assertive") {
                return Err(format!(
                    "screen reader said {said} (aria-live {live}), expected \"caballo de g1 a f3\""
                ));
            }
            // The same words as the browser exposes them to assistive technology.
            if !ax_live_text(b, env.driver_port, "caballo de g1 a f3", "assertive").await? {
                return Err("the accessibility tree has no assertive live region saying \"caballo de g1 a f3\"".into());
            }
            // Reading a rank on request.
            let cmd = b
                .find(Locator::Css("#sr-cmd"))
                .await
                .map_err(|e| e.to_string())?;
            cmd.send_keys("f 1\u{E007}")
                .await
                .map_err(|e| e.to_string())?;
            until(
                b,
                "rank read aloud",
                "document.querySelector('#sr-live').textContent.startsWith('fila 1: a1 torre blanca, b1 caballo blanco')",
            )
            .await?;
        }
        if i == 5 {
            shot(a, "game-white.png").await?;
            shot(b, "game-black.png").await?;
        }
        if i == 7 {
            // Reload Black mid-game: position and clocks come back.
            let l = latency(a, b, 0..8).await?;
            env.latencies.extend(l);
            let fen = js(a, "return window.escaqueBoard.getFen()").await?;
            ready(b, &format!("{}/partida/{id}", env.base)).await?;
            wait_plies(b, 8).await?;
            let fen_b = js(b, "return window.escaqueBoard.getFen()").await?;
            if fen != fen_b {
                return Err(format!("after reload the board is {fen_b}, not {fen}"));
            }
            let orient = js(b, "return window.escaqueBoard.state.orientation").await?;
            if orient != json!("black") {
                return Err(format!("after reload Black's board is oriented {orient}"));
            }
            let clock = until(
                b,
                "clock shown",
                "document.querySelector('#clock-bottom').textContent",
            )
            .await?;
            let c = clock.as_str().unwrap_or("");
            if !(c.starts_with("5:") || c.starts_with("4:")) {
                return Err(format!("after reload Black's clock shows {c}"));
            }
        }
    }
    // The spectator saw every move live.
    wait_plies(s, line.len()).await?;
    let mut ends = Vec::new();
    for c in [a, b, s] {
        ends.push(
            until(
                c,
                "end message",
                "!document.querySelector('#end-message').hidden && document.querySelector('#end-message').textContent",
            )
            .await?,
        );
    }
    let e = ends[0].as_str().unwrap_or("");
    // The library's wording, once (the result is part of it).
    if e.trim() != "Jaque mate. Ganan las blancas (1-0)" || ends.iter().any(|x| x != &ends[0]) {
        return Err(format!("end messages {ends:?}"));
    }
    if js(
        a,
        "return getComputedStyle(document.querySelector('#move-form')).display",
    )
    .await?
        != json!("none")
    {
        return Err("the move field is still shown after the end".into());
    }
    shot(a, "end-message.png").await?;
    let l = latency(a, b, 8..line.len()).await?;
    env.latencies.extend(l);
    Ok(())
}

async fn promotion_and_premove(env: &mut Env) -> R {
    let (a, b) = (&env.a, &env.b);
    let _id = pair(
        &env.base,
        a,
        b,
        json!({"fen": "7k/1P6/8/8/8/8/P7/K7 w - - 0 1"}),
    )
    .await?;
    // Black queues a premove while White thinks.
    until(b, "board", "window.escaqueBoard").await?;
    click_move(b, "h8", "g8").await?;
    if let Err(e) = until(
        b,
        "premove set",
        "!document.querySelector('#cancel-premove').hidden",
    )
    .await
    {
        let st = js(b, "const s = window.escaqueBoard.state; return JSON.stringify({sel: s.selected, pre: s.premovable.current, preEnabled: s.premovable.enabled, color: s.movable.color, turn: s.turnColor, viewOnly: s.viewOnly, orient: s.orientation})").await?;
        return Err(format!("{e}; board state {st}"));
    }
    // White promotes through the chooser, to a knight.
    drag_move(a, "b7", "b8").await?;
    until(
        a,
        "promotion chooser",
        "!document.querySelector('#promotion').hidden",
    )
    .await?;
    click(a, "#promotion .promo-n").await?;
    wait_plies(a, 2).await?;
    wait_plies(b, 2).await?;
    let sans = js(
        a,
        "return [...document.querySelectorAll('#moves .mv')].map(b => b.textContent)",
    )
    .await?;
    if sans != json!(["b8=C", "Rg8"]) {
        return Err(format!("moves after promotion and premove: {sans}"));
    }
    Ok(())
}

async fn draw_by_agreement(env: &mut Env) -> R {
    let (a, b) = (&env.a, &env.b);
    pair(&env.base, a, b, json!({})).await?;
    typed(a, "e4").await?;
    wait_plies(b, 1).await?;
    typed(b, "Cf6").await?;
    wait_plies(a, 2).await?;
    click(a, "#offer-draw").await?;
    until(
        b,
        "draw offer",
        "!document.querySelector('#accept-draw').hidden",
    )
    .await?;
    click(b, "#accept-draw").await?;
    for c in [a, b] {
        let e = until(c, "end", "!document.querySelector('#end-message').hidden && document.querySelector('#end-message').textContent").await?;
        if !e.as_str().unwrap_or("").contains("½")
            && !e.as_str().unwrap_or("").to_lowercase().contains("tablas")
        {
            return Err(format!("draw end message: {e}"));
        }
    }
    Ok(())
}

async fn threefold_claim(env: &mut Env) -> R {
    let (a, b) = (&env.a, &env.b);
    pair(&env.base, a, b, json!({})).await?;
    let line = ["Cf3", "Cf6", "Cg1", "Cg8", "Nf3", "Nf6", "Ng1", "Ng8"];
    for (i, mv) in line.iter().enumerate() {
        let me = if i % 2 == 0 { a } else { b };
        typed(me, mv).await?;
        wait_plies(a, i + 1).await?;
        wait_plies(b, i + 1).await?;
    }
    until(
        a,
        "claim offered",
        "document.querySelector('#status').textContent.includes('triple repetición') && !document.querySelector('#claim-draw').hidden",
    )
    .await?;
    click(a, "#claim-draw").await?;
    let e = until(b, "end", "!document.querySelector('#end-message').hidden && document.querySelector('#end-message').textContent").await?;
    if !e.as_str().unwrap_or("").to_lowercase().contains("repetici") {
        return Err(format!("threefold end message: {e}"));
    }
    let l = latency(a, b, 0..line.len()).await?;
    env.latencies.extend(l);
    Ok(())
}

async fn resignation(env: &mut Env) -> R {
    let (a, b) = (&env.a, &env.b);
    pair(&env.base, a, b, json!({})).await?;
    typed(a, "d4").await?;
    wait_plies(b, 1).await?;
    typed(b, "d5").await?;
    wait_plies(a, 2).await?;
    js(a, "window.confirm = () => true; return 1").await?;
    click(a, "#resign").await?;
    let e = until(b, "end", "!document.querySelector('#end-message').hidden && document.querySelector('#end-message').textContent").await?;
    let e = e.as_str().unwrap_or("").to_lowercase();
    if !(e.contains("abandon") && e.contains("0-1")) {
        return Err(format!("resignation end message: {e}"));
    }
    Ok(())
}

async fn flag_fall(env: &mut Env) -> R {
    let (a, b) = (&env.a, &env.b);
    pair(&env.base, a, b, json!({"time_control": "4s"})).await?;
    typed(a, "e4").await?;
    wait_plies(b, 1).await?;
    typed(b, "e5").await?;
    wait_plies(a, 2).await?;
    // White's clock runs: tenths and the low-time colour, then the flag.
    until(
        a,
        "tenths shown",
        "/^0:0[0-3]\\.\\d$/.test(document.querySelector('#clock-bottom').textContent) && document.querySelector('#clock-bottom').classList.contains('low')",
    )
    .await?;
    let e = until(b, "flag", "!document.querySelector('#end-message').hidden && document.querySelector('#end-message').textContent").await?;
    let e = e.as_str().unwrap_or("").to_lowercase();
    if !(e.contains("tiempo") && e.contains("0-1")) {
        return Err(format!("flag end message: {e}"));
    }
    Ok(())
}

async fn engine_game(env: &mut Env) -> R {
    let a = &env.a;
    ready(a, &format!("{}/", env.base)).await?;
    // The engine (Black, level 1) has two legal moves, both answered by mate.
    let g = create(
        a,
        json!({"opponent": "engine", "level": 1, "color": "white",
               "fen": "7k/p7/6K1/8/8/1Q6/8/8 b - - 0 1"}),
    )
    .await?;
    let id = g["game"].as_str().unwrap_or_default();
    ready(a, &format!("{}/partida/{id}", env.base)).await?;
    wait_plies(a, 1).await?;
    let who = text(a, "#name-top").await?;
    if !who.contains("nivel 1 (principiante)") {
        return Err(format!("engine shown as {who}"));
    }
    typed(a, "Db8").await?;
    let e = until(a, "end", "!document.querySelector('#end-message').hidden && document.querySelector('#end-message').textContent").await?;
    if !e.as_str().unwrap_or("").contains("1-0") {
        return Err(format!("engine game end message: {e}"));
    }
    // The finished game is listed and replays with the keyboard.
    ready(a, &format!("{}/mis-partidas", env.base)).await?;
    click(a, &format!("tr[data-game='{id}'] a.open-game")).await?;
    until(a, "replay", "document.querySelector('#replay-pos')").await?;
    let body = a
        .find(Locator::Css("body"))
        .await
        .map_err(|e| e.to_string())?;
    body.send_keys("\u{E011}")
        .await
        .map_err(|e| e.to_string())?; // Home
    let first = text(a, "#replay-pos").await?;
    body.send_keys("\u{E014}")
        .await
        .map_err(|e| e.to_string())?; // ArrowRight
    let after = until(a, "a step", "document.querySelector('#replay-pos').textContent !== 'Inicio' && document.querySelector('#replay-pos').textContent").await?;
    if first != "Inicio" || !after.as_str().unwrap_or("").starts_with("1…") {
        return Err(format!("replay stepping: {first} then {after}"));
    }
    let pgn = js(
        a,
        "return document.querySelector('#pgn-es').getAttribute('href')",
    )
    .await?;
    if pgn != json!(format!("/api/games/{id}/pgn?lang=es")) {
        return Err(format!("Spanish PGN link {pgn}"));
    }
    Ok(())
}

async fn home_and_phone(env: &mut Env) -> R {
    let a = &env.a;
    ready(a, &format!("{}/", env.base)).await?;
    let h = text(a, "#h-engine").await?;
    if h != "Jugar contra el motor" {
        return Err(format!("home heading: {h}"));
    }
    let levels = js(
        a,
        "return [...document.querySelectorAll('#engine-level option')].map(o => o.textContent)",
    )
    .await?;
    if levels[0] != json!("1 — principiante") || levels[9] != json!("10 — maestro") {
        return Err(format!("levels {levels}"));
    }
    shot(a, "home.png").await?;
    // Static files: right type, gzip-compressed, cacheable.
    let h = a
        .execute_async(
            "const done = arguments[0];
             fetch('/static/app.js').then(r => done([r.status, r.headers.get('content-type'), r.headers.get('content-encoding'), r.headers.get('cache-control')]));",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    if h != json!([
        200,
        "text/javascript; charset=utf-8",
        "gzip",
        "public, max-age=3600"
    ]) {
        return Err(format!("headers of /static/app.js: {h}"));
    }
    // English by choice, and the dark theme.
    let s = &env.spectator;
    ready(s, &format!("{}/?lang=en", env.base)).await?;
    let h = text(s, "#h-engine").await?;
    if h != "Play the engine" {
        return Err(format!("English home heading: {h}"));
    }
    click(s, "#theme").await?;
    let theme = js(s, "return document.documentElement.dataset.theme").await?;
    if theme != json!("dark") {
        return Err(format!("theme after the toggle: {theme}"));
    }
    shot(s, "home-en-dark.png").await?;
    ready(s, &format!("{}/?lang=es", env.base)).await?;
    // The lobby updates live: a seek from B appears at A without a reload.
    ready(&env.b, &format!("{}/", env.base)).await?;
    click(&env.b, "#seek-create").await?;
    until(
        a,
        "seek listed",
        "document.querySelector('#seeks .accept-seek')",
    )
    .await?;
    click(a, "#seeks .accept-seek").await?;
    until(
        a,
        "seek game",
        "location.pathname.startsWith('/partida/') && document.body.dataset.ready === '1'",
    )
    .await?;
    until(
        &env.b,
        "seek game (poster)",
        "location.pathname.startsWith('/partida/') && document.body.dataset.ready === '1'",
    )
    .await?;
    a.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    shot(a, "phone-game.png").await?;
    let overflow = js(
        a,
        "return document.documentElement.scrollWidth <= window.innerWidth + 1",
    )
    .await?;
    let wide = js(a, "return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 6).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')").await?;
    a.set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;
    if overflow != json!(true) {
        return Err(format!("the phone layout scrolls sideways: {wide}"));
    }
    Ok(())
}

async fn takeback_and_abort(env: &mut Env) -> R {
    let (a, b) = (&env.a, &env.b);
    // Abort before both sides have moved.
    pair(&env.base, a, b, json!({})).await?;
    typed(a, "e4").await?;
    wait_plies(b, 1).await?;
    click(b, "#abort").await?;
    let e = until(a, "abort", "!document.querySelector('#end-message').hidden && document.querySelector('#end-message').textContent").await?;
    if !e.as_str().unwrap_or("").to_lowercase().contains("anulada") {
        return Err(format!("abort end message: {e}"));
    }
    // A takeback asked and accepted (a game without a clock).
    pair(&env.base, a, b, json!({})).await?;
    typed(a, "e4").await?;
    wait_plies(b, 1).await?;
    typed(b, "e5").await?;
    wait_plies(a, 2).await?;
    click(b, "#takeback").await?;
    until(a, "takeback request", "document.querySelector('#accept-takeback') && document.querySelector('#accept-takeback').offsetParent !== null").await?;
    click(a, "#accept-takeback").await?;
    wait_plies(a, 1).await?;
    wait_plies(b, 1).await?;
    let turn = text(b, "#status").await?;
    if !turn.starts_with("Juegan las negras") {
        return Err(format!("after the takeback Black's status says {turn}"));
    }
    Ok(())
}

#[test]
fn browser_suite() {
    let (_driver, port) = start_driver();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async move {
        let dir = std::env::temp_dir().join(format!(
            "escaque-web-test-{}-{}",
            std::process::id(),
            escaque_server::new_id()
        ));
        let config = Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            database: Database::Dir(dir.clone()),
            engine_threads: 1,
            engine_movetime: Duration::from_millis(30),
            http_burst: 1000.0,
            http_per_sec: 1000.0,
            ..Config::default()
        };
        let server = escaque_server::start(config).await.expect("server");
        let base = format!("http://{}", server.addr);
        let a = browser(port, "es").await;
        let b = browser(port, "es").await;
        let spectator = browser(port, "es").await;
        let mut env = Env {
            base,
            driver_port: port,
            a,
            b,
            spectator,
            latencies: Vec::new(),
        };
        let mut failures = Vec::new();
        macro_rules! scenario {
            ($f:ident) => {{
                let only = std::env::var("ESCAQUE_BROWSER_ONLY").unwrap_or_default();
                if !only.is_empty() && !only.split(',').any(|o| o == stringify!($f)) {
                    eprintln!("{:<24} not run (ESCAQUE_BROWSER_ONLY={only})", stringify!($f));
                    failures.push(format!("{}: not run (ESCAQUE_BROWSER_ONLY)", stringify!($f)));
                } else {
                let t0 = Instant::now();
                eprintln!("{:<24} …", stringify!($f));
                let r = tokio::time::timeout(Duration::from_secs(90), $f(&mut env)).await;
                let r = r.unwrap_or_else(|_| Err("took more than 90 s".into()));
                eprintln!(
                    "{:<24} {} ({:.1} s)",
                    stringify!($f),
                    if r.is_ok() { "ok" } else { "FAILED" },
                    t0.elapsed().as_secs_f64()
                );
                if let Err(e) = r {
                    let _ = shot(&env.a, concat!("failed-", stringify!($f), "-a.png")).await;
                    let _ = shot(&env.b, concat!("failed-", stringify!($f), "-b.png")).await;
                    failures.push(format!("{}: {e}", stringify!($f)));
                }
                }
            }};
        }
        scenario!(home_and_phone);
        scenario!(mate_game);
        scenario!(promotion_and_premove);
        scenario!(draw_by_agreement);
        scenario!(threefold_claim);
        scenario!(resignation);
        scenario!(flag_fall);
        scenario!(engine_game);
        scenario!(takeback_and_abort);
        let mut l = env.latencies.clone();
        l.sort_by(|x, y| x.total_cmp(y));
        if !l.is_empty() {
            let pct = |p: f64| l[((l.len() - 1) as f64 * p).round() as usize];
            let line = format!(
                "move seen by the opponent's browser, loopback, {} moves: median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
                l.len(),
                pct(0.5),
                pct(0.95),
                l[l.len() - 1]
            );
            eprintln!("{line}");
            let _ = std::fs::write(shots_dir().join("latency.txt"), line + "\n");
        }
        for c in [env.a, env.b, env.spectator] {
            let _ = c.close().await;
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(failures.is_empty(), "browser scenarios failed:\n{}", failures.join("\n"));
    });
}
