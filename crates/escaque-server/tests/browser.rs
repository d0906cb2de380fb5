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
use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MouseActions, PointerAction, MOUSE_BUTTON_LEFT,
};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

pub(crate) type R<T = ()> = Result<T, String>;

/// How long a step may take before the test says it failed: generous, since
/// a fresh CI machine runs the other suites beside the browser (a pass
/// never waits for it).
pub(crate) const WAIT: Duration = Duration::from_secs(30);

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub(crate) fn shots_dir() -> PathBuf {
    let d = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
        .join("screenshots");
    let _ = std::fs::create_dir_all(&d);
    d
}

/// Kills chromedriver when the test ends, however it ends.
pub(crate) struct Driver(Child);

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

pub(crate) fn start_driver() -> (Driver, u16) {
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

pub(crate) async fn browser(port: u16, lang: &str, downloads: &std::path::Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", format!("--lang={lang}"), "--hide-scrollbars",
                     "--disable-extensions", "--mute-audio"],
            "prefs": {"intl.accept_languages": lang,
                      "download.default_directory": downloads.to_string_lossy(),
                      "download.prompt_for_download": false,
                      "safebrowsing.enabled": false},
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a Chromium session")
}

// ------------------------------------------------------------------ helpers

pub(crate) async fn js(c: &Client, script: &str) -> R<Value> {
    c.execute(script, vec![])
        .await
        .map_err(|e| format!("script failed: {e}: {script}"))
}

/// Polls a JavaScript expression until it is truthy.
pub(crate) async fn until(c: &Client, what: &str, expr: &str) -> R<Value> {
    let t0 = Instant::now();
    // The page polls the expression itself (every 10 ms), so a wait costs
    // one WebDriver round trip, not one per poll. A navigation interrupts
    // the script; then it is started again on the new page.
    let script = format!(
        "const done = arguments[arguments.length - 1];
         const limit = arguments[0];
         const t0 = Date.now();
         const step = () => {{
           let v = null;
           try {{ v = ({expr}); }} catch (e) {{ v = null; }}
           if (v !== null && v !== undefined && v !== false && v !== '' && v !== 0) return done({{v}});
           if (Date.now() - t0 > limit) return done({{timeout: true}});
           setTimeout(step, 10);
         }};
         step();"
    );
    let mut last_error = String::new();
    loop {
        let left = WAIT.saturating_sub(t0.elapsed()).as_millis().min(5000) as u64;
        match c.execute_async(&script, vec![json!(left)]).await {
            Ok(v) if v.get("v").is_some() => return Ok(v["v"].clone()),
            Ok(_) => {}
            Err(e) => {
                last_error = e.to_string();
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        if t0.elapsed() > WAIT {
            let status = js(
                c,
                "return (document.querySelector('#status')||{}).textContent + ' | ' + (document.querySelector('#error')||{}).textContent",
            )
            .await
            .unwrap_or(Value::Null);
            return Err(format!(
                "timed out waiting for {what} ({expr}); page says {status}; last script error: {last_error}"
            ));
        }
    }
}

/// Clicks the element `css` selects once it is there. The page redraws its
/// buttons when a `state` arrives, so an element found a moment ago may be
/// gone by the click ("stale element"): it is found again and clicked, as a
/// person's second tap would, until `WAIT` runs out.
pub(crate) async fn click(c: &Client, css: &str) -> R {
    let deadline = Instant::now() + WAIT;
    loop {
        let el = c
            .wait()
            .at_most(WAIT)
            .for_element(Locator::Css(css))
            .await
            .map_err(|e| format!("no {css}: {e}"))?;
        match el.click().await {
            Ok(()) => return Ok(()),
            Err(e) if e.to_string().contains("stale element") && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => return Err(format!("click {css}: {e}")),
        }
    }
}

pub(crate) async fn ready(c: &Client, url: &str) -> R {
    c.goto(url).await.map_err(|e| format!("goto {url}: {e}"))?;
    until(c, "page ready", "document.body.dataset.ready === '1'").await?;
    Ok(())
}

/// The strings in the array that `script` returns (anything else in it
/// left out).
pub(crate) async fn js_strings(c: &Client, script: &str) -> R<Vec<String>> {
    let v = js(c, script).await?;
    Ok(v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default())
}

/// The centre of a square in viewport pixels, from the board's box and
/// orientation.
pub(crate) async fn square_xy(c: &Client, sq: &str) -> R<(f64, f64)> {
    square_centre(
        c,
        "const b = document.querySelector('#board cg-board').getBoundingClientRect();
         const white = window.escaqueBoard.state.orientation === 'white';",
        sq,
    )
    .await
}

/// The centre of square `sq` in viewport pixels, from `setup`, a script
/// that defines `b` (the board's box) and `white` (whether White is at the
/// bottom).
pub(crate) async fn square_centre(c: &Client, setup: &str, sq: &str) -> R<(f64, f64)> {
    let v = js(
        c,
        &format!(
            "{setup}
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

/// `chain` followed by a left click at (`x`, `y`) in viewport pixels.
fn then_click(chain: MouseActions, x: f64, y: f64) -> MouseActions {
    chain
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
        })
}

/// A left click at (`x`, `y`) in viewport pixels; `what` names it in an
/// error.
pub(crate) async fn click_xy(c: &Client, x: f64, y: f64, what: &str) -> R {
    c.perform_actions(then_click(MouseActions::new("mouse".into()), x, y))
        .await
        .map_err(|e| format!("click on {what}: {e}"))
}

/// Click the origin, then the destination.
pub(crate) async fn click_move(c: &Client, from: &str, to: &str) -> R {
    for sq in [from, to] {
        let (x, y) = square_xy(c, sq).await?;
        click_xy(c, x, y, sq).await?;
    }
    Ok(())
}

/// Press on the origin, move in steps, release on the destination.
pub(crate) async fn drag_move(c: &Client, from: &str, to: &str) -> R {
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

const TAB: &str = "\u{E004}";
const ENTER: &str = "\u{E007}";
const ESCAPE: &str = "\u{E00C}";
const SPACE: &str = " ";
const END: &str = "\u{E010}";
const HOME: &str = "\u{E011}";
const LEFT: &str = "\u{E012}";
const UP: &str = "\u{E013}";
const RIGHT: &str = "\u{E014}";
const DOWN: &str = "\u{E015}";

/// Presses keys on whatever has the focus, as a person at the keyboard
/// (WebDriver key actions: no element is targeted).
async fn press(c: &Client, keys: &str) -> R {
    let mut a = KeyActions::new("keyboard".into());
    for k in keys.chars() {
        a = a
            .then(KeyAction::Down { value: k })
            .then(KeyAction::Up { value: k });
    }
    c.perform_actions(a)
        .await
        .map_err(|e| format!("keys {keys:?}: {e}"))
}

/// Presses keys, then waits until the live region says `said`.
async fn press_hear(c: &Client, keys: &str, said: &str) -> R {
    press(c, keys).await?;
    until(
        c,
        &format!("to hear {said:?} after {keys:?}"),
        &format!(
            "document.querySelector('#sr-live').textContent === {}",
            json!(said)
        ),
    )
    .await
    .map(|_| ())
}

pub(crate) async fn wait_plies(c: &Client, n: usize) -> R {
    until(
        c,
        &format!("{n} moves"),
        &format!("document.querySelectorAll('#moves .mv').length === {n}"),
    )
    .await
    .map(|_| ())
}

pub(crate) async fn text(c: &Client, css: &str) -> R<String> {
    Ok(js(
        c,
        &format!("const e = document.querySelector('{css}'); return e ? e.textContent : null"),
    )
    .await?
    .as_str()
    .unwrap_or("")
    .to_string())
}

pub(crate) async fn shot(c: &Client, name: &str) -> R {
    let png = c.screenshot().await.map_err(|e| e.to_string())?;
    std::fs::write(shots_dir().join(name), png).map_err(|e| e.to_string())
}

/// A request from the page (its cookies: the organiser's identity), as
/// the desk's own script sends it: the status and the body's text.
pub(crate) async fn fetch(
    c: &Client,
    method: &str,
    url: &str,
    body: Option<Value>,
) -> R<(u16, String)> {
    let v = c
        .execute_async(
            "const [method, url, body, done] = arguments;
             const opts = {method, headers: {'Content-Type': 'application/json'}};
             if (body !== null) opts.body = JSON.stringify(body);
             fetch(url, opts).then(async r => done({status: r.status, text: await r.text()}))
               .catch(e => done({status: 0, text: String(e)}));",
            vec![json!(method), json!(url), body.unwrap_or(Value::Null)],
        )
        .await
        .map_err(|e| format!("fetch {url}: {e}"))?;
    Ok((
        v["status"].as_u64().unwrap_or(0) as u16,
        v["text"].as_str().unwrap_or("").to_string(),
    ))
}

/// One Spanish browser on a fresh server (data under a new directory named
/// from `prefix`): runs `scenario` with the server's base URL, the browser
/// and the data directory; on failure saves
/// `target/screenshots/failed-{name}.png`; always closes the browser and
/// removes the data; panics with what failed. The desk tests' shared
/// frame (browser_fide, browser_tiebreaks, browser_equipos).
pub(crate) fn one_browser<F, Fut>(prefix: &str, name: &str, scenario: F)
where
    F: FnOnce(String, Client, PathBuf) -> Fut,
    Fut: std::future::Future<Output = R>,
{
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server(prefix, 5000.0).await;
        let base = format!("http://{}", server.addr);
        let c = browser(port, "es", &dir.join("downloads")).await;
        let r = scenario(base, c.clone(), dir.clone()).await;
        if r.is_err() {
            let _ = shot(&c, &format!("failed-{name}.png")).await;
        }
        let _ = c.close().await;
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = r {
            panic!("{name}: {e}");
        }
    });
}

/// Logs `c` in with an account's name and password, as the login form
/// does: the browser keeps the session cookie.
pub(crate) async fn log_in(c: &Client, base: &str, name: &str, password: &str) -> R {
    ready(c, &format!("{base}/")).await?;
    let v = c
        .execute_async(
            "const [name, password, done] = arguments;
             fetch('/api/login', {method: 'POST', headers: {'Content-Type': 'application/json'},
                   body: JSON.stringify({name, password})})
               .then(r => r.json()).then(done).catch(e => done({error: String(e)}));",
            vec![json!(name), json!(password)],
        )
        .await
        .map_err(|e| e.to_string())?;
    if v["account"] != true {
        return Err(format!("login of {name}: {v}"));
    }
    Ok(())
}

/// A screenshot for the teacher's guide: under `target/screenshots/` as
/// any other, and with `ESCAQUE_GUIDE_SHOTS=1` also in `docs/img/clases/`
/// (how the guide's pictures are made again; a plain test run leaves the
/// tree as it was).
pub(crate) async fn guide_shot(c: &Client, name: &str) -> R {
    shot(c, name).await?;
    if std::env::var_os("ESCAQUE_GUIDE_SHOTS").is_some() {
        let guide = root().join("docs/img/clases");
        std::fs::create_dir_all(&guide).map_err(|e| e.to_string())?;
        std::fs::copy(shots_dir().join(name), guide.join(name))
            .map_err(|e| format!("copy to the guide: {e}"))?;
    }
    Ok(())
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
pub(crate) async fn pair(base: &str, a: &Client, b: &Client, extra: Value) -> R<String> {
    ready(a, &format!("{base}/")).await?;
    let mut body = json!({"opponent": "friend", "color": "white"});
    if let (Some(o), Value::Object(e)) = (body.as_object_mut(), extra) {
        o.extend(e);
    }
    let g = create(a, body).await?;
    let id = g["game"].as_str().unwrap_or_default().to_string();
    join_at(&format!("{base}/partida/{id}"), a, b).await?;
    Ok(id)
}

/// Both open a challenge's page, `b` accepts it, and both see the game
/// start.
pub(crate) async fn join_at(url: &str, a: &Client, b: &Client) -> R {
    ready(a, url).await?;
    ready(b, url).await?;
    click(b, "#join").await?;
    for c in [a, b] {
        until(
            c,
            "game started",
            "document.querySelector('#status').textContent.includes('blancas')",
        )
        .await?;
    }
    Ok(())
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
    /// Where the spectator's browser saves downloads.
    downloads: PathBuf,
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
    // Revancha: White proposes, Black sees it and accepts; both are taken to
    // the new game with the colours swapped.
    let old = js(a, "return location.pathname").await?;
    click(a, "#rematch").await?;
    until(a, "rematch sent", "document.querySelector('#status').textContent === 'Partida terminada. Has propuesto la revancha' && document.querySelector('#rematch').hidden").await?;
    until(b, "rematch offered", "document.querySelector('#status').textContent === 'Partida terminada. Tu rival propone la revancha' && !document.querySelector('#rematch').hidden").await?;
    click(b, "#rematch").await?;
    let mut ids = Vec::new();
    for c in [a, b] {
        let p = until(
            c,
            "the rematch",
            &format!("location.pathname !== {old} && document.body.dataset.ready === '1' && document.querySelector('#status').textContent.startsWith('Juegan las blancas') && location.pathname"),
        )
        .await?;
        ids.push(p);
    }
    let orient = [
        js(a, "return window.escaqueBoard.state.orientation").await?,
        js(b, "return window.escaqueBoard.state.orientation").await?,
    ];
    let b_status = text(b, "#status").await?;
    if ids[0] != ids[1]
        || orient != [json!("black"), json!("white")]
        || b_status != "Juegan las blancas — Te toca"
    {
        return Err(format!("rematch: pages {ids:?}, orientations {orient:?}, Black-now-White's status {b_status:?}"));
    }
    shot(a, "rematch.png").await?;
    typed(b, "d4").await?;
    wait_plies(a, 1).await?;
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

async fn flag_fall(env: &Env) -> R {
    let (a, b) = (&env.a, &env.b);
    pair(&env.base, a, b, json!({"time_control": "2s"})).await?;
    typed(a, "e4").await?;
    wait_plies(b, 1).await?;
    typed(b, "e5").await?;
    wait_plies(a, 2).await?;
    // White's clock runs (2 s): tenths and the low-time colour, then the flag.
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

/// The game as the server records it (`GET /api/games/{id}`), fetched by the page.
async fn server_state(c: &Client, id: &str) -> R<Value> {
    let v = c
        .execute_async(
            "const [id, done] = arguments;
             fetch('/api/games/' + id).then(r => r.json()).then(done).catch(e => done({error: String(e)}));",
            vec![json!(id)],
        )
        .await
        .map_err(|e| e.to_string())?;
    if v.get("status").is_none() {
        return Err(format!("state of {id}: {v}"));
    }
    Ok(v)
}

fn uci_moves(st: &Value) -> Vec<String> {
    st["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m["uci"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn sans(st: &Value, field: &str) -> Vec<String> {
    st["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m[field].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The move escaque's own engine (full strength, a small node budget) plays
/// for the human side: the position comes from the server's record, read
/// with the rules library.
fn helper_move(
    engine: &mut escaque_engine::Engine,
    start_fen: &str,
    moves: &[String],
) -> R<String> {
    use escaque::{read_move, Notation, Position};
    let mut pos = Position::from_fen(start_fen).map_err(|e| format!("start FEN: {e:?}"))?;
    let mut history = Vec::new();
    for u in moves {
        history.push(pos.zobrist());
        let m = read_move(&pos, u, Notation::Uci).map_err(|e| format!("{u}: {e:?}"))?;
        pos.play(m).map_err(|e| format!("{u}: {e:?}"))?;
    }
    let limits = escaque_engine::Limits {
        nodes: Some(20_000),
        ..escaque_engine::Limits::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let best = engine
        .search(&pos, &history, &limits, &stop)
        .best_move
        .ok_or("the helper found no move")?;
    Ok(escaque::coord::to_uci(best))
}

/// The placement field of the FEN after `plies` of the recorded moves.
fn placement_after(start_fen: &str, moves: &[String], plies: usize) -> R<String> {
    use escaque::{read_move, Notation, Position};
    let mut pos = Position::from_fen(start_fen).map_err(|e| format!("start FEN: {e:?}"))?;
    for u in &moves[..plies] {
        let m = read_move(&pos, u, Notation::Uci).map_err(|e| format!("{u}: {e:?}"))?;
        pos.play(m).map_err(|e| format!("{u}: {e:?}"))?;
    }
    Ok(pos
        .to_fen()
        .split(' ')
        .next()
        .unwrap_or_default()
        .to_string())
}

/// The moves of a PGN's movetext (tags, comments, numbers and the result
/// left out).
fn pgn_moves(pgn: &str) -> Vec<String> {
    let mut text = String::new();
    for line in pgn.lines().filter(|l| !l.starts_with('[')) {
        text.push_str(line);
        text.push(' ');
    }
    let mut out = String::new();
    let mut depth = 0;
    for ch in text.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    let mut moves: Vec<String> = Vec::new();
    for w in out.split_whitespace() {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&w) {
            continue;
        }
        // A move number ("12." or "12...") before the move, or alone.
        let digits = w.len() - w.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let w = if digits > 0 && w[digits..].starts_with('.') {
            w[digits..].trim_start_matches('.')
        } else {
            w
        };
        if w.is_empty() {
            continue;
        }
        // Spanish en passant is written after the move ("exd6 a.p.").
        match moves.last_mut() {
            Some(last) if w == "a.p." => {
                last.push_str(" a.p.");
            }
            _ => moves.push(w.to_string()),
        }
    }
    moves
}

/// The moves the page's move list shows.
async fn page_moves(c: &Client) -> R<Vec<String>> {
    js_strings(
        c,
        "return [...document.querySelectorAll('#moves .mv')].map(b => b.textContent)",
    )
    .await
}

/// Waits for a downloaded file to be complete in `dir`.
async fn downloaded(dir: &std::path::Path, name: &str) -> R<String> {
    let t0 = Instant::now();
    let path = dir.join(name);
    loop {
        if let Ok(s) = std::fs::read_to_string(&path) {
            if !s.is_empty() {
                return Ok(s);
            }
        }
        if t0.elapsed() > WAIT {
            let there: Vec<_> = std::fs::read_dir(dir)
                .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name()).collect())
                .unwrap_or_default();
            return Err(format!(
                "no download {name} in {} (there: {there:?})",
                dir.display()
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

const END_SHOWN: &str = "!document.querySelector('#end-message').hidden && document.querySelector('#end-message').textContent";

/// A whole game against the engine at level 1 from the start position,
/// started from the home page's form. The human side's moves come from
/// escaque's engine at full strength and are made on the board by
/// click-click (promotions through the chooser). Then the finished game in
/// Mis partidas: replay with the keyboard, both PGN downloads; then the
/// rematch against the engine (colours swapped, the engine opens).
async fn engine_game(env: &Env) -> R {
    // The third browser (dark theme since home_and_phone), so that a
    // two-player scenario can run at the same time.
    let a = &env.spectator;
    ready(a, &format!("{}/", env.base)).await?;
    choose(a, "#engine-color", "white").await?;
    let level = js(a, "return document.querySelector('#engine-level').value").await?;
    if level != json!("1") {
        return Err(format!("default level {level}"));
    }
    click(a, "#start-engine").await?;
    let id = until(
        a,
        "the engine game",
        "location.pathname.startsWith('/partida/') && document.body.dataset.ready === '1' && location.pathname.split('/')[2]",
    )
    .await?
    .as_str()
    .unwrap_or_default()
    .to_string();
    let who = until(
        a,
        "players shown",
        "document.querySelector('#name-top').textContent",
    )
    .await?;
    if !who
        .as_str()
        .unwrap_or("")
        .contains("motor, nivel 1 (principiante)")
    {
        return Err(format!("engine shown as {who}"));
    }
    let mut helper = escaque_engine::Engine::new();
    helper.set_hash(16);
    let mut plies = 0;
    let t0 = Instant::now();
    let st = loop {
        // One script per move: waits until the server has more than `plies`
        // moves and either the game is over or it is White's turn with the
        // page showing every move and the server's destinations; then gives
        // the server's record and the board's box.
        let v = a
            .execute_async(
                "const [id, plies, done] = arguments;
                 const t0 = Date.now();
                 const step = async () => {
                   try {
                     const st = await (await fetch('/api/games/' + id)).json();
                     const n = (st.moves || []).length;
                     const shown = document.querySelectorAll('#moves .mv').length;
                     const dests = window.escaqueBoard.state.movable.dests;
                     const endShown = !document.querySelector('#end-message').hidden;
                     if (n > plies && ((st.status === 'over' && endShown) ||
                         (st.status === 'playing' && st.turn === 'white' && shown === n && dests && dests.size > 0))) {
                       const b = document.querySelector('#board cg-board').getBoundingClientRect();
                       return done({st, box: [b.left, b.top, b.width], white: window.escaqueBoard.state.orientation === 'white'});
                     }
                   } catch (e) { /* try again */ }
                   if (Date.now() - t0 > 15000) return done({timeout: plies});
                   setTimeout(step, 15);
                 };
                 step();",
                vec![json!(id), json!(plies as i64 - 1)],
            )
            .await
            .map_err(|e| e.to_string())?;
        let st = v["st"].clone();
        if st.is_null() {
            return Err(format!("the game stopped after {plies} plies: {v}"));
        }
        if st["status"] == json!("over") {
            break st;
        }
        let moves = uci_moves(&st);
        let n = moves.len();
        if n > 600 {
            return Err(format!("no end after {n} plies"));
        }
        // The search runs off the async threads: another scenario runs at
        // the same time.
        let start = st["start_fen"].as_str().unwrap_or_default().to_string();
        let (engine, mv) = tokio::task::spawn_blocking(move || {
            let mv = helper_move(&mut helper, &start, &moves);
            (helper, mv)
        })
        .await
        .map_err(|e| e.to_string())?;
        helper = engine;
        let mv = mv?;
        // Both clicks in one action chain, at the squares' centres.
        let (left, top, size) = (
            v["box"][0].as_f64().unwrap_or(0.0),
            v["box"][1].as_f64().unwrap_or(0.0),
            v["box"][2].as_f64().unwrap_or(0.0) / 8.0,
        );
        let white = v["white"] == json!(true);
        let centre = |sq: &str| {
            let (f, r) = (
                f64::from(sq.as_bytes()[0] - b'a'),
                f64::from(sq.as_bytes()[1] - b'1'),
            );
            let (col, row) = if white { (f, 7.0 - r) } else { (7.0 - f, r) };
            (left + (col + 0.5) * size, top + (row + 0.5) * size)
        };
        let mut chain = MouseActions::new("mouse".into());
        for sq in [&mv[0..2], &mv[2..4]] {
            let (x, y) = centre(sq);
            chain = then_click(chain, x, y);
        }
        a.perform_actions(chain)
            .await
            .map_err(|e| format!("{mv} on the board: {e}"))?;
        if mv.len() == 5 {
            until(
                a,
                "promotion chooser",
                "!document.querySelector('#promotion').hidden",
            )
            .await?;
            click(a, &format!("#promotion .promo-{}", &mv[4..5])).await?;
        }
        plies = n + 1;
    };
    let end = until(a, "end message", END_SHOWN).await?;
    let library = st["end_text"]["es"].as_str().unwrap_or_default();
    if end.as_str().unwrap_or("").trim() != library || library.is_empty() {
        return Err(format!("the page says {end}, the server {library:?}"));
    }
    // The strong side wins, by mate.
    if st["result"] != json!("1-0")
        || st["termination"] != json!("checkmate")
        || !library.contains("(1-0)")
    {
        return Err(format!(
            "engine game ended {} {} {library}",
            st["result"], st["termination"]
        ));
    }
    let shown = page_moves(a).await?;
    let recorded = sans(&st, "san_es");
    if shown != recorded {
        return Err(format!("move list {shown:?}\nserver  {recorded:?}"));
    }
    eprintln!(
        "  the game against level 1: {} plies in {:.1} s, {}",
        recorded.len(),
        t0.elapsed().as_secs_f64(),
        st["termination"]
    );
    shot(a, "engine-end.png").await?;

    // Mis partidas: the game with its result and reason.
    click(a, "#nav-games").await?;
    until(
        a,
        "my games",
        &format!("document.querySelector(\"tr[data-game='{id}']\")"),
    )
    .await?;
    let row = text(a, &format!("tr[data-game=\"{id}\"]")).await?;
    if !(row.contains("1-0") && row.contains("jaque mate")) {
        return Err(format!("Mis partidas row: {row}"));
    }
    shot(a, "my-games.png").await?;
    click(a, &format!("tr[data-game='{id}'] a.open-game")).await?;
    until(
        a,
        "replay",
        "document.body.dataset.ready === '1' && document.querySelector('#replay-pos')",
    )
    .await?;
    // Stepping with the keyboard only: End, Home, →, →, →, ←.
    let start = st["start_fen"].as_str().unwrap_or_default();
    let ucis = uci_moves(&st);
    let n = ucis.len();
    let label = |k: usize| {
        format!(
            "{}{} {}",
            k / 2 + 1,
            if k.is_multiple_of(2) { "." } else { "…" },
            recorded[k]
        )
    };
    let steps: [(&str, usize); 6] = [
        (END, n),
        (HOME, 0),
        (RIGHT, 1),
        (RIGHT, 2),
        (RIGHT, 3),
        (LEFT, 2),
    ];
    for (key, plies) in steps {
        press(a, key).await?;
        let want = if plies == 0 {
            "Inicio".to_string()
        } else {
            label(plies - 1)
        };
        until(
            a,
            &format!("replay at {want}"),
            &format!(
                "document.querySelector('#replay-pos').textContent === {}",
                json!(want)
            ),
        )
        .await?;
        let board = js(a, "return window.escaqueReplay.getFen()").await?;
        let placement = placement_after(start, &ucis, plies)?;
        if board != json!(placement) {
            return Err(format!(
                "replay at ply {plies}: board {board}, expected {placement}"
            ));
        }
    }
    shot(a, "replay.png").await?;
    // Both PGN downloads, to a folder of our own.
    let dl = env.downloads.clone();
    for (css, file, field, tag) in [
        (
            "#pgn-es",
            format!("escaque-{id}-es.pgn"),
            "san_es",
            "PGN (español)",
        ),
        (
            "#pgn-en",
            format!("escaque-{id}-en.pgn"),
            "san",
            "PGN (inglés)",
        ),
    ] {
        let label = text(a, css).await?;
        if label != tag {
            return Err(format!("{css} says {label}"));
        }
        click(a, css).await?;
        let pgn = downloaded(&dl, &file).await?;
        let want = sans(&st, field);
        if pgn_moves(&pgn) != want || !pgn.contains("[Result \"1-0\"]") {
            return Err(format!(
                "{file}: moves {:?}, expected {want:?}\n{pgn}",
                pgn_moves(&pgn)
            ));
        }
    }

    // Rematch against the engine: at once, colours swapped, the engine opens.
    ready(a, &format!("{}/partida/{id}", env.base)).await?;
    click(a, "#rematch").await?;
    let again = until(
        a,
        "the rematch",
        &format!("location.pathname.startsWith('/partida/') && !location.pathname.endsWith('{id}') && document.body.dataset.ready === '1' && location.pathname.split('/')[2]"),
    )
    .await?;
    let again = again.as_str().unwrap_or_default().to_string();
    wait_plies(a, 1).await?;
    let orient = js(a, "return window.escaqueBoard.state.orientation").await?;
    let status = until(a, "my turn", "document.querySelector('#status').textContent.includes('Te toca') && document.querySelector('#status').textContent").await?;
    let rst = server_state(a, &again).await?;
    if orient != json!("black")
        || rst["white"]["kind"] != json!("engine")
        || rst["white"]["level"] != json!(1)
        || !status
            .as_str()
            .unwrap_or("")
            .starts_with("Juegan las negras")
    {
        return Err(format!(
            "rematch: orientation {orient}, white {}, status {status}",
            rst["white"]
        ));
    }
    click(a, "#abort").await?;
    until(a, "rematch aborted", END_SHOWN).await?;
    Ok(())
}
/// The square under the keyboard cursor as drawn: the `kb-cursor` square's
/// centre, mapped back to a square name through the board's box.
async fn drawn_cursor(c: &Client) -> R<String> {
    let v = js(
        c,
        "const sq = document.querySelector('#board cg-board square.kb-cursor');
         if (!sq) return null;
         const b = document.querySelector('#board cg-board').getBoundingClientRect();
         const r = sq.getBoundingClientRect();
         const col = Math.floor((r.left + r.width / 2 - b.left) / (b.width / 8));
         const row = Math.floor((r.top + r.height / 2 - b.top) / (b.height / 8));
         const white = window.escaqueBoard.state.orientation === 'white';
         return 'abcdefgh'[white ? col : 7 - col] + (white ? 8 - row : row + 1);",
    )
    .await?;
    Ok(v.as_str().unwrap_or("none").to_string())
}

/// Tab, Enter on the skip link, Tab: the board has the focus, with a
/// visible ring and the cursor on `start`, announced.
async fn focus_board(c: &Client, start: &str, said: &str) -> R {
    // The skip link comes first in the page's keyboard order (read from the
    // page itself).
    let order = js(
        c,
        "return [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
           .filter(e => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length > 0)
           .slice(0, 3).map(e => e.tagName + '.' + e.className)",
    )
    .await?;
    if order[0] != json!("A.skip") {
        return Err(format!(
            "the page's keyboard order begins {order}, not with the skip link"
        ));
    }
    // Where the keyboard starts on a page just loaded (the browser's own
    // toolbar, the document, where the last page had it) differs between
    // Chromium builds. A click on an empty spot at the top of the page puts
    // it at the start of the document, as for a person who clicks into the
    // page before using the keyboard; then the first Tab must reach the skip
    // link.
    let spot = js(
        c,
        "const e = document.elementFromPoint(2, 2); return e && e.tabIndex < 0 && !e.closest('a, button, input, select, label') ? e.tagName : null",
    )
    .await?;
    if spot.is_null() {
        return Err("the page's top-left corner is not an empty spot".into());
    }
    let at_corner = MouseActions::new("mouse".into())
        .then(PointerAction::MoveTo {
            duration: None,
            x: 2.0,
            y: 2.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(at_corner)
        .await
        .map_err(|e| format!("click at the corner: {e}"))?;
    press(c, TAB).await?;
    let first = js(c, "return document.activeElement.className").await?;
    if first != json!("skip") {
        return Err(format!("the first Tab reached {first}, not the skip link"));
    }
    press(c, ENTER).await?;
    press_hear(c, TAB, said).await?;
    let focus = js(
        c,
        "const b = document.querySelector('#board');
         return [document.activeElement === b, b.matches(':focus-visible'), getComputedStyle(b).outlineStyle, b.getAttribute('role'), b.getAttribute('aria-roledescription')]",
    )
    .await?;
    if focus[0] != json!(true) || focus[1] != json!(true) || focus[2] == json!("none") {
        return Err(format!(
            "the board's focus (focused, focus-visible, outline, role, roledescription): {focus}"
        ));
    }
    let cur = drawn_cursor(c).await?;
    if cur != start {
        return Err(format!("the cursor is drawn on {cur}, not {start}"));
    }
    Ok(())
}

/// Both players move by keys only: Tab to the board, arrows, Enter/Space,
/// Escape. The fool's mate, with a cancelled pick, a square that is not a
/// destination, and Black's reversed arrows. The announcements are checked
/// in the page and in Chromium's accessibility tree.
async fn keyboard_game(env: &Env) -> R {
    let (a, b) = (&env.a, &env.b);
    let id = pair(&env.base, a, b, json!({})).await?;
    // Fresh pages (nothing clicked): the keyboard starts at the top.
    for c in [a, b] {
        ready(c, &format!("{}/partida/{id}", env.base)).await?;
    }
    // White: the board gets the focus; the cursor starts on e2.
    focus_board(a, "e2", "e2, peón blanco").await?;
    // The accessibility tree: a focused application named "Tablero", a
    // chessboard by its role description, and the square in the live region.
    let tree = cdp(a, env.driver_port, "Accessibility.getFullAXTree", json!({})).await?;
    let nodes = tree["nodes"].as_array().ok_or("no AX nodes")?;
    let board = nodes.iter().find(|n| {
        n["role"]["value"] == json!("application") && n["name"]["value"] == json!("Tablero")
    });
    let Some(board) = board else {
        return Err("no application node named Tablero in the accessibility tree".into());
    };
    let prop = |name: &str| {
        board["properties"]
            .as_array()
            .and_then(|ps| ps.iter().find(|p| p["name"] == json!(name)))
            .map(|p| p["value"]["value"].clone())
    };
    if prop("focused") != Some(json!(true)) {
        return Err(format!("the board node is not focused: {board}"));
    }
    let described = board["description"]["value"].as_str().unwrap_or("");
    if !described.starts_with("Con el teclado") {
        return Err(format!("the board's description: {described:?}"));
    }
    if !ax_live_text(a, env.driver_port, "e2, peón blanco", "assertive").await? {
        return Err("no assertive live region says \"e2, peón blanco\"".into());
    }
    press_hear(a, RIGHT, "f2, peón blanco").await?;
    press_hear(a, ENTER, "Elegido: peón blanco en f2. Destinos: f3, f4").await?;
    press_hear(a, ESCAPE, "Elección cancelada").await?;
    if js(a, "return window.escaqueBoard.state.selected || null").await? != Value::Null {
        return Err("Escape left the pawn picked".into());
    }
    press_hear(a, SPACE, "Elegido: peón blanco en f2. Destinos: f3, f4").await?;
    press_hear(a, UP, "f3, vacía, destino posible").await?;
    press_hear(a, UP, "f4, vacía, destino posible").await?;
    press_hear(a, UP, "f5, vacía").await?;
    press_hear(a, ENTER, "f5 no es un destino posible").await?;
    press_hear(a, DOWN, "f4, vacía, destino posible").await?;
    shot(a, "keyboard-white.png").await?;
    press(a, DOWN).await?;
    press(a, ENTER).await?;
    wait_plies(b, 1).await?;
    // Black: the cursor starts on e7; on Black's board up is towards rank 1.
    focus_board(b, "e7", "e7, peón negro").await?;
    press_hear(b, ENTER, "Elegido: peón negro en e7. Destinos: e5, e6").await?;
    press_hear(b, UP, "e6, vacía, destino posible").await?;
    press_hear(b, UP, "e5, vacía, destino posible").await?;
    press(b, ENTER).await?;
    wait_plies(a, 2).await?;
    // White: from f3, right and down to g2, g2-g4. The focus stayed on the board.
    press_hear(a, RIGHT, "g3, vacía").await?;
    press_hear(a, DOWN, "g2, peón blanco").await?;
    press(a, ENTER).await?;
    press_hear(a, UP, "g3, vacía, destino posible").await?;
    press_hear(a, UP, "g4, vacía, destino posible").await?;
    press(a, ENTER).await?;
    wait_plies(b, 3).await?;
    // Black: the queen from d8 to h4 (down is towards rank 8, right towards file a).
    press(b, DOWN).await?;
    press(b, DOWN).await?;
    press_hear(b, DOWN, "e8, rey negro").await?;
    press_hear(b, RIGHT, "d8, dama negra").await?;
    press_hear(
        b,
        ENTER,
        "Elegido: dama negra en d8. Destinos: e7, f6, g5, h4",
    )
    .await?;
    for sq in ["d7", "d6", "d5", "d4"] {
        let what = if sq == "d7" { "peón negro" } else { "vacía" };
        press_hear(b, UP, &format!("{sq}, {what}")).await?;
    }
    for sq in ["e4", "f4", "g4"] {
        let what = if sq == "g4" { "peón blanco" } else { "vacía" };
        press_hear(b, LEFT, &format!("{sq}, {what}")).await?;
    }
    press_hear(b, LEFT, "h4, vacía, destino posible").await?;
    shot(b, "keyboard-black.png").await?;
    press(b, ENTER).await?;
    for c in [a, b] {
        let e = until(c, "mate", END_SHOWN).await?;
        if e.as_str().unwrap_or("").trim() != "Jaque mate. Ganan las negras (0-1)" {
            return Err(format!("keyboard game end: {e}"));
        }
    }
    let st = server_state(a, &id).await?;
    for c in [a, b] {
        let shown = page_moves(c).await?;
        if shown != sans(&st, "san_es") || shown != ["f3", "e5", "g4", "Dh4#"] {
            return Err(format!("keyboard game moves {shown:?}"));
        }
    }
    Ok(())
}

/// Chooses an option of a select (the page may redraw the select when a
/// message arrives, so a stale element is looked up again).
pub(crate) async fn choose(c: &Client, css: &str, value: &str) -> R {
    let mut last = String::new();
    for _ in 0..5 {
        let el = c
            .wait()
            .at_most(WAIT)
            .for_element(Locator::Css(css))
            .await
            .map_err(|e| format!("no {css}: {e}"))?;
        match el.select_by_value(value).await {
            Ok(()) => return Ok(()),
            Err(e) => last = e.to_string(),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Err(format!("could not choose {value} in {css}: {last}"))
}

/// Types into a field by keys (the field is cleared first). A page that
/// redraws its form when its data arrive may replace the field under the
/// typing ("stale element"): it is found again and typed again, whole,
/// as a person would, until `WAIT` runs out.
pub(crate) async fn fill(c: &Client, css: &str, value: &str) -> R {
    let deadline = Instant::now() + WAIT;
    loop {
        let el = c
            .find(Locator::Css(css))
            .await
            .map_err(|e| format!("no {css}: {e}"))?;
        let typed = match el.clear().await {
            Ok(()) => el.send_keys(value).await,
            Err(e) => Err(e),
        };
        match typed {
            Ok(()) => return Ok(()),
            Err(e) if e.to_string().contains("stale element") && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => return Err(format!("fill {css}: {e}")),
        }
    }
}

/// The game ids Mis partidas lists.
async fn listed_games(c: &Client) -> R<Vec<String>> {
    js_strings(
        c,
        "return [...document.querySelectorAll('#games tr[data-game]')].map(r => r.dataset.game)",
    )
    .await
}

async fn open_my_games(c: &Client) -> R {
    click(c, "#nav-games").await?;
    until(
        c,
        "Mis partidas",
        "location.pathname === '/mis-partidas' && document.body.dataset.ready === '1'",
    )
    .await
    .map(|_| ())
}

/// Sign up from the home page, start a game against the engine and abort
/// it, find it in Mis partidas; log out (the guest does not see it); a wrong
/// password is refused; log in again and it is there. The browser stays
/// logged in (the engine game after this one is the account's).
async fn accounts(env: &Env) -> R {
    let c = &env.spectator;
    ready(c, &format!("{}/", env.base)).await?;
    let guest = text(c, "#me").await?;
    fill(c, "#acct-name", "ana_escaque").await?;
    fill(c, "#acct-pass", "secreto-largo-1").await?;
    click(c, "#signup").await?;
    until(
        c,
        "signed up",
        "document.body.dataset.ready === '1' && document.querySelector('#me').textContent === 'Juegas como ana_escaque' && document.querySelector('#logout')",
    )
    .await?;
    shot(c, "account-home.png").await?;
    // A game against the engine from the home page, aborted at once.
    choose(c, "#engine-color", "white").await?;
    click(c, "#start-engine").await?;
    let id = until(
        c,
        "the game",
        "location.pathname.startsWith('/partida/') && document.body.dataset.ready === '1' && location.pathname.split('/')[2]",
    )
    .await?
    .as_str()
    .unwrap_or_default()
    .to_string();
    let white = until(
        c,
        "the players",
        "document.querySelector('#name-bottom').textContent",
    )
    .await?;
    if !white.as_str().unwrap_or("").contains("ana_escaque") {
        return Err(format!("the account's name on the board: {white}"));
    }
    click(c, "#abort").await?;
    until(c, "aborted", END_SHOWN).await?;
    open_my_games(c).await?;
    if listed_games(c).await? != [id.clone()] {
        return Err(format!("the account's games: {:?}", listed_games(c).await?));
    }
    let row = text(c, &format!("tr[data-game=\"{id}\"]")).await?;
    if !(row.contains("ana_escaque") && row.contains("anulada")) {
        return Err(format!("the account's game row: {row}"));
    }
    // Log out: back to the guest, who does not see the account's game.
    click(c, "#nav-home").await?;
    click(c, "#logout").await?;
    until(c, "logged out", "document.body.dataset.ready === '1' && document.querySelector('#login') && document.querySelector('#me').textContent").await?;
    let me = text(c, "#me").await?;
    if me != guest {
        return Err(format!(
            "after logging out: {me:?}, before signing up: {guest:?}"
        ));
    }
    open_my_games(c).await?;
    if listed_games(c).await?.contains(&id) {
        return Err("the guest sees the account's game".into());
    }
    // A wrong password is refused with a message; the right one logs in.
    click(c, "#nav-home").await?;
    until(
        c,
        "home",
        "document.body.dataset.ready === '1' && document.querySelector('#login')",
    )
    .await?;
    fill(c, "#acct-name", "ana_escaque").await?;
    fill(c, "#acct-pass", "no-es-esta").await?;
    click(c, "#login").await?;
    let err = until(c, "refused", "document.querySelector('#error').textContent").await?;
    if !err.as_str().unwrap_or("").starts_with("Error: ")
        || !js(c, "return !document.querySelector('#logout')")
            .await?
            .as_bool()
            .unwrap_or(false)
    {
        return Err(format!("a wrong password: {err}"));
    }
    fill(c, "#acct-pass", "secreto-largo-1").await?;
    click(c, "#login").await?;
    until(
        c,
        "logged in",
        "document.body.dataset.ready === '1' && document.querySelector('#me').textContent === 'Juegas como ana_escaque'",
    )
    .await?;
    open_my_games(c).await?;
    if listed_games(c).await? != [id.clone()] {
        return Err(format!(
            "after logging in again: {:?}",
            listed_games(c).await?
        ));
    }
    Ok(())
}

/// A draw claimed with a declared move: the repetition (Black declares Cg8,
/// chosen in the select by its Spanish SAN) and the fifty-move rule (from a
/// position with 99 half-moves, White declares a rook move).
async fn claim_with_move(env: &Env) -> R {
    let (a, b) = (&env.a, &env.b);
    pair(&env.base, a, b, json!({})).await?;
    let line = ["Cf3", "Cf6", "Cg1", "Cg8", "Cf3", "Cf6", "Cg1"];
    for (i, mv) in line.iter().enumerate() {
        let me = if i % 2 == 0 { a } else { b };
        typed(me, mv).await?;
        wait_plies(a, i + 1).await?;
        wait_plies(b, i + 1).await?;
    }
    let status = until(
        b,
        "claim with a move offered",
        "document.querySelector('#claim-move') && document.querySelector('#status').textContent",
    )
    .await?;
    let st = status.as_str().unwrap_or("");
    let plain_claim = js(b, "return document.querySelector('#claim-draw').hidden").await?;
    if !st.contains("Puedes reclamar tablas declarando una jugada") || plain_claim != json!(true) {
        return Err(format!(
            "before the declared move: status {st:?}, plain claim hidden {plain_claim}"
        ));
    }
    let options = js(b, "return [...document.querySelectorAll('#claim-move option')].map(o => [o.value, o.textContent])").await?;
    if options != json!([["f6g8", "Cg8"]]) {
        return Err(format!("declared moves offered: {options}"));
    }
    shot(b, "claim-with-move.png").await?;
    click(b, "#claim-with-move").await?;
    for c in [a, b] {
        let e = until(c, "the claimed draw", END_SHOWN).await?;
        let e = e.as_str().unwrap_or("");
        if !(e.contains("repetición") && e.contains("½-½")) {
            return Err(format!("repetition claimed with a move: {e}"));
        }
        if page_moves(c).await?.last().map(String::as_str) != Some("Cg8") {
            return Err(format!(
                "the declared move was not played: {:?}",
                page_moves(c).await?
            ));
        }
    }
    // Fifty moves: 99 half-moves without a capture or a pawn move.
    pair(
        &env.base,
        a,
        b,
        json!({"fen": "4k3/8/8/8/8/8/8/R3K3 w - - 99 80"}),
    )
    .await?;
    let options = until(
        a,
        "declared moves",
        "document.querySelector('#claim-move') && [...document.querySelectorAll('#claim-move option')].map(o => o.textContent)",
    )
    .await?;
    let has = |m: &str| options.as_array().is_some_and(|o| o.contains(&json!(m)));
    if !(has("Ta2") && has("Rd1")) || has("Ra2") {
        return Err(format!("fifty-move declared moves in Spanish: {options}"));
    }
    choose(a, "#claim-move", "a1a2").await?;
    click(a, "#claim-with-move").await?;
    for c in [a, b] {
        let e = until(c, "the fifty-move draw", END_SHOWN).await?;
        let e = e.as_str().unwrap_or("");
        if e.trim() != "Tablas por la regla de los cincuenta movimientos (½-½)" {
            return Err(format!("fifty moves claimed with a move: {e}"));
        }
        if page_moves(c).await? != ["Ta2"] {
            return Err(format!(
                "the declared rook move: {:?}",
                page_moves(c).await?
            ));
        }
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
    phone(a, "phone-game.png").await
}

/// The screenshot `name` at phone size (390 × 844), which must not scroll
/// sideways; then back to the desktop size.
pub(crate) async fn phone(c: &Client, name: &str) -> R {
    c.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    tokio::time::sleep(Duration::from_millis(400)).await;
    shot(c, name).await?;
    let fits = js(
        c,
        "return document.documentElement.scrollWidth <= window.innerWidth + 1",
    )
    .await?;
    let wide = js(c, "return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 6).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).join(', ')").await?;
    c.set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;
    if fits != json!(true) {
        return Err(format!("{name}: the phone layout scrolls sideways: {wide}"));
    }
    Ok(())
}

/// `window.scrollY` of the page.
async fn scroll_y(c: &Client) -> R<f64> {
    js(c, "return window.scrollY")
        .await?
        .as_f64()
        .ok_or_else(|| "no window.scrollY".to_string())
}

/// Neither the player's page nor the spectator's has scrolled by itself.
async fn still_at_top(pages: [(&Client, &str); 2], ply: usize) -> R {
    for (c, who) in pages {
        let y = scroll_y(c).await?;
        if y != 0.0 {
            return Err(format!(
                "after ply {ply} the {who}'s page scrolled by itself to y = {y} px"
            ));
        }
    }
    Ok(())
}

/// On a phone (390×844) the page never scrolls itself as moves come in (the
/// move list scrolls in its own box): White plays by taps on the board, the
/// spectator watches. The spectator's header names the two players (it does
/// not say "Juegas como …"), and on the English page guests are `guest-…`
/// with the same six characters as `invitado-…` on the Spanish one.
async fn phone_game(env: &mut Env) -> R {
    let (a, b, s) = (&env.a, &env.b, &env.spectator);
    let id = pair(&env.base, a, b, json!({})).await?;
    let url = format!("{}/partida/{id}", env.base);
    for c in [a, s] {
        c.set_window_size(390, 844)
            .await
            .map_err(|e| e.to_string())?;
    }
    let run = async {
        let st = server_state(a, &id).await?;
        let names = [&st["white"]["name"], &st["black"]["name"]].map(|n| n.as_str().unwrap_or(""));
        let suffix = |n: &str| n.strip_prefix("invitado-").map(str::to_string);
        let (Some(w), Some(bl)) = (suffix(names[0]), suffix(names[1])) else {
            return Err(format!("the players are not guests: {names:?}"));
        };
        // The spectator in Spanish, then in English.
        ready(s, &url).await?;
        let header = until(s, "spectator header", "document.querySelector('#me').textContent.startsWith('Miras') && document.querySelector('#me').textContent").await?;
        if header != json!(format!("Miras invitado-{w} contra invitado-{bl}")) {
            return Err(format!("the Spanish spectator's header: {header}"));
        }
        ready(s, &format!("{url}?lang=en")).await?;
        let header = until(s, "English spectator header", "document.querySelector('#me').textContent.startsWith('Watching') && document.querySelector('#me').textContent").await?;
        if header != json!(format!("Watching guest-{w} vs guest-{bl}")) {
            return Err(format!("the English spectator's header: {header}"));
        }
        let labels = js(s, "return [...document.querySelectorAll('.player')].map(e => e.textContent).join(' | ')").await?;
        let labels = labels.as_str().unwrap_or("");
        if !labels.contains(&format!("guest-{w}")) || !labels.contains(&format!("guest-{bl}")) || labels.contains("invitado") {
            return Err(format!("the English page's player names: {labels}"));
        }
        // The player's page says whom one plays as.
        ready(a, &url).await?;
        // Until the game's socket has told the page its seat, the header
        // is the spectator's; what the player reads then is checked.
        let mine = until(a, "player header", "document.querySelector('#me').textContent.startsWith('Juegas') && document.querySelector('#me').textContent").await?;
        if mine != json!(format!("Juegas como invitado-{w}")) {
            return Err(format!("White's header: {mine}"));
        }
        let pages = [(a, "player"), (s, "spectator")];
        still_at_top(pages, 0).await?;
        let white = [("e2", "e4"), ("g1", "f3"), ("f1", "c4"), ("c2", "c3"), ("d2", "d3"), ("h2", "h3"), ("a2", "a4"), ("b1", "d2")];
        let black = ["e5", "d6", "h6", "a6", "g6", "b6", "c6", "f6"];
        let mut ply = 0;
        for (&(from, to), reply) in white.iter().zip(black) {
            click_move(a, from, to).await?;
            ply += 1;
            for c in [a, b, s] {
                wait_plies(c, ply).await?;
            }
            still_at_top(pages, ply).await?;
            typed(b, reply).await?;
            ply += 1;
            for c in [a, s] {
                wait_plies(c, ply).await?;
            }
            still_at_top(pages, ply).await?;
        }
        shot(a, "phone-after-16-plies.png").await?;
        shot(s, "phone-spectator-en.png").await?;
        // A list too short for its moves scrolls itself to the last one.
        js(s, "document.querySelector('#moves').style.maxHeight = '3em'; return null").await?;
        click_move(a, "d1", "e2").await?;
        ply += 1;
        wait_plies(s, ply).await?;
        still_at_top(pages, ply).await?;
        let seen = until(
            s,
            "the last move shown in the list",
            "(() => { const l = document.querySelector('#moves'), c = l.querySelector('.current');
                      const lb = l.getBoundingClientRect(), cb = c.getBoundingClientRect();
                      return l.scrollTop > 0 && cb.top >= lb.top - 1 && cb.bottom <= lb.bottom + 1; })()",
        )
        .await;
        if seen.is_err() {
            return Err("the move list did not scroll to the last move".into());
        }
        Ok::<(), String>(())
    }
    .await;
    for c in [a, s] {
        let _ = c.set_window_size(1280, 900).await;
    }
    // Back to Spanish for the scenarios after this one.
    ready(s, &format!("{}/?lang=es", env.base)).await?;
    run
}

async fn takeback_and_abort(env: &Env) -> R {
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

/// Makes the page's next `move` message never reach the server: it is
/// dropped and its socket closed, as when a server process dies with the
/// move unread. `window.escaqueDropped` becomes 1 once it happened.
pub(crate) async fn drop_next_move(c: &Client) -> R {
    js(
        c,
        "const send = WebSocket.prototype.send;
         window.escaqueDropped = 0;
         WebSocket.prototype.send = function (data) {
           if (window.escaqueDropped === 0 && String(data).includes('\"t\":\"move\"')) {
             window.escaqueDropped = 1;
             this.close();
             return;
           }
           return send.call(this, data);
         };",
    )
    .await
    .map(|_| ())
}

/// A move whose socket closes before the server receives it is sent again
/// once the page has reconnected, and played once: the page's next move
/// message is dropped and its socket closed, as when a server process dies
/// with the move unread.
async fn move_across_a_reconnection(env: &Env) -> R {
    let (a, b) = (&env.a, &env.b);
    let id = pair(&env.base, a, b, json!({})).await?;
    drop_next_move(a).await?;
    click_move(a, "e2", "e4").await?;
    until(a, "the move dropped", "window.escaqueDropped === 1").await?;
    wait_plies(b, 1).await?;
    wait_plies(a, 1).await?;
    typed(b, "e5").await?;
    wait_plies(a, 2).await?;
    let st = server_state(a, &id).await?;
    if uci_moves(&st) != ["e2e4", "e7e5"] {
        return Err(format!(
            "after the reconnection the game is {:?}",
            uci_moves(&st)
        ));
    }
    Ok(())
}

/// A game whose process went down shows "Reanudando…" while another takes
/// it over, takes no move, and goes on when the full state follows (issue
/// 60). One process cannot lose its game, so the page is handed what a
/// stand-in sends then (`crate::actor::resuming`: the stored state with
/// status `resuming`, no legal moves, the clocks stopped — the cross-node
/// kill test, escaque-cli's cluster_kill.rs, checks the server sends it) on
/// a reconnection, and the game's own `state` after.
async fn resuming_state(env: &Env) -> R {
    let (a, b) = (&env.a, &env.b);
    let id = pair(&env.base, a, b, json!({})).await?;
    js(
        a,
        "const parse = JSON.parse;
         window.escaqueResuming = false;
         window.escaqueResumingSeen = 0;
         JSON.parse = function (text, reviver) {
           const m = parse.call(this, text, reviver);
           // The state, and the events the real server sends after it
           // here (a stand-in sends none while it resumes).
           if (window.escaqueResuming && m && (m.t === 'state' || m.t === 'event') && m.status === 'playing') {
             m.status = 'resuming';
             m.legal = []; m.legal_uci = []; m.claimable = []; m.claim_moves = [];
             m.can_abort = false; m.abandon_claimable_by = null;
             if (m.clock) m.clock.running = null;
             if (m.t === 'state') window.escaqueResumingSeen += 1;
           }
           return m;
         };
         const send = WebSocket.prototype.send;
         window.escaqueWs = null;
         WebSocket.prototype.send = function (data) {
           if (String(this.url).includes('/ws/games/')) window.escaqueWs = this;
           return send.call(this, data);
         };
         return 1",
    )
    .await?;
    // The game's socket (seen when it answers the server's ping; the lobby's
    // socket is left alone), closed as a dying process closes it; the
    // reconnection is answered `resuming`.
    until(
        a,
        "the page's socket",
        "window.escaqueWs && window.escaqueWs.readyState === 1",
    )
    .await?;
    js(
        a,
        "window.escaqueResuming = true; const old = window.escaqueWs; window.escaqueOld = old; old.close(); return 1",
    )
    .await?;
    until(
        a,
        "Reanudando… shown",
        "window.escaqueResumingSeen >= 1 && document.querySelector('#status').textContent === 'Reanudando…'",
    )
    .await?;
    let hidden = js(a, "return document.querySelector('#move-form').hidden").await?;
    if hidden != json!(true) {
        return Err("the move box is open while the game resumes".into());
    }
    // No move while resuming: the board offers none.
    click_move(a, "e2", "e4").await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let plies = uci_moves(&server_state(a, &id).await?).len();
    let shown = page_moves(a).await?.len();
    if plies != 0 || shown != 0 {
        return Err(format!(
            "a move was made while resuming: {plies} stored, {shown} shown"
        ));
    }
    // The new owner's state follows on the same connection.
    until(
        a,
        "the new socket",
        "window.escaqueWs && window.escaqueWs !== window.escaqueOld && window.escaqueWs.readyState === 1",
    )
    .await?;
    js(
        a,
        "window.escaqueResuming = false; window.escaqueWs.send(JSON.stringify({ t: 'state' })); return 1",
    )
    .await?;
    until(
        a,
        "the game going on",
        "document.querySelector('#status').textContent.includes('blancas')",
    )
    .await?;
    typed(a, "e4").await?;
    wait_plies(b, 1).await?;
    Ok(())
}

/// Runs one scenario with a time limit, saying how long it took.
async fn timed(name: &str, fut: impl std::future::Future<Output = R>) -> R {
    let t0 = Instant::now();
    eprintln!("{name:<24} …");
    let r = tokio::time::timeout(Duration::from_secs(90), fut)
        .await
        .unwrap_or_else(|_| Err("took more than 90 s".into()));
    eprintln!(
        "{name:<24} {} ({:.1} s)",
        if r.is_ok() { "ok" } else { "FAILED" },
        t0.elapsed().as_secs_f64()
    );
    r
}

/// [`timed`], or `Err(None)` without running when `skip`.
async fn unless_skipped(
    skip: bool,
    name: &str,
    fut: impl std::future::Future<Output = R>,
) -> Result<(), Option<String>> {
    if skip {
        return Err(None);
    }
    timed(name, fut).await.map_err(Some)
}

/// A filtered run can never pass: what was left out counts as a failure.
fn not_run(name: &str, only: &str) -> String {
    eprintln!("{name:<24} not run (ESCAQUE_BROWSER_ONLY={only})");
    format!("{name}: not run (ESCAQUE_BROWSER_ONLY)")
}

/// The browser tests' runtime (shared with the other tests' fixtures).
pub(crate) use crate::common::runtime;

/// A server on a fresh SQLite directory (`prefix`-PID-ID under the temporary
/// directory, holding a copy of the tests' template database: migrated, the
/// shipped puzzles stored), the engine quick, the per-address limit `rate`
/// (every browser of a test comes from one address).
pub(crate) async fn start_server(prefix: &str, rate: f64) -> (escaque_server::Running, PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "{prefix}-{}-{}",
        std::process::id(),
        escaque_server::new_id()
    ));
    crate::common::sqlite_from_template(&dir).await;
    let config = Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        database: Database::Dir(dir.clone()),
        engine_threads: 1,
        engine_movetime: Duration::from_millis(30),
        http_burst: rate,
        http_per_sec: rate,
        ..Config::default()
    };
    let server = escaque_server::start(config).await.expect("server");
    (server, dir)
}

#[test]
fn browser_suite() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-web-test", 1000.0).await;
        let base = format!("http://{}", server.addr);
        // Where each browser saves downloads (the PGN files).
        let downloads = dir.join("downloads");
        let a = browser(port, "es", &downloads.join("a")).await;
        let b = browser(port, "es", &downloads.join("b")).await;
        let spectator = browser(port, "es", &downloads.join("spectator")).await;
        let mut env = Env {
            base,
            driver_port: port,
            a,
            b,
            spectator,
            latencies: Vec::new(),
            downloads: downloads.join("spectator"),
        };
        let mut failures = Vec::new();
        let only = std::env::var("ESCAQUE_BROWSER_ONLY").unwrap_or_default();
        let skip = |name: &str| !only.is_empty() && !only.split(',').any(|o| o == name);
        // One scenario, or two at once (`a, b`: they must use different
        // browsers; a scenario that only waits then costs no time).
        macro_rules! scenario {
            ($f:ident) => {{
                if skip(stringify!($f)) {
                    failures.push(not_run(stringify!($f), &only));
                } else if let Err(e) = timed(stringify!($f), $f(&mut env)).await {
                    let _ = shot(&env.a, concat!("failed-", stringify!($f), "-a.png")).await;
                    let _ = shot(&env.b, concat!("failed-", stringify!($f), "-b.png")).await;
                    failures.push(format!("{}: {e}", stringify!($f)));
                }
            }};
        }
        // Scenarios taking turns on one side while others take turns on the
        // other, at the same time (the two sides use different browsers).
        macro_rules! in_turn {
            ($($f:ident),+) => {
                async {
                    let mut out = Vec::new();
                    $(
                        let name = stringify!($f);
                        out.push((name, unless_skipped(skip(name), name, $f(&env)).await));
                    )+
                    out
                }
            };
        }
        scenario!(home_and_phone);
        scenario!(phone_game);
        scenario!(mate_game);
        scenario!(promotion_and_premove);
        scenario!(draw_by_agreement);
        scenario!(threefold_claim);
        scenario!(resignation);
        scenario!(live_list);
        // Two players (browsers a and b) beside one (the third browser).
        let (left, right) = tokio::join!(
            in_turn!(
                flag_fall,
                claim_with_move,
                takeback_and_abort,
                move_across_a_reconnection,
                resuming_state,
                keyboard_game
            ),
            in_turn!(accounts, engine_game)
        );
        for (name, r) in left.into_iter().chain(right) {
            match r {
                Ok(()) => {}
                Err(None) => failures.push(not_run(name, &only)),
                Err(Some(e)) => {
                    for (c, who) in [(&env.a, "a"), (&env.b, "b"), (&env.spectator, "spectator")] {
                        let _ = shot(c, &format!("failed-{name}-{who}.png")).await;
                    }
                    failures.push(format!("{name}: {e}"));
                }
            }
        }
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

/// "Partidas en juego": a game two people play shows on a visitor's home
/// page, its moves counted live, and a click opens it to watch.
async fn live_list(env: &mut Env) -> R {
    let id = pair(&env.base, &env.a, &env.b, json!({"time_control": "10+0"})).await?;
    let v = &env.spectator;
    ready(v, &format!("{}/", env.base)).await?;
    let link = format!("#live-games a.watch[href='/partida/{id}']");
    until(
        v,
        "the game listed",
        &format!("document.querySelector(\"{link}\")"),
    )
    .await?;
    click_move(&env.a, "e2", "e4").await?;
    wait_plies(&env.b, 1).await?;
    until(
        v,
        "its move counted (pushed, no reload)",
        &format!(
            "(document.querySelector(\"{link}\") || {{}}).parentElement?.textContent.includes('1 jugada')"
        ),
    )
    .await?;
    click(v, &link).await?;
    until(
        v,
        "the game page, watching",
        &format!("location.pathname === '/partida/{id}' && document.body.dataset.ready === '1' && !!document.querySelector('cg-board')"),
    )
    .await?;
    wait_plies(v, 1).await?;
    Ok(())
}
