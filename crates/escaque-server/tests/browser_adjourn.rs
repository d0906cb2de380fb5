//! Adjournment and the sealed move in a real browser, with the WebDriver
//! helpers of `browser.rs`: two people agree to adjourn, the player to move
//! makes the move on the board (it fills the sealed text instead of being
//! played) and seals it; both pages show the game adjourned, nobody's page
//! shows the sealed move; both resume and the envelope is opened and played.
//! Then a second adjournment with a typed illegal move, judged a loss.
//! Screenshots at desktop and phone sizes: `target/screenshots/adjourn-*.png`.

use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::json;

use crate::browser::{
    browser, click, click_move, fill, js, pair, ready, runtime, shot, start_driver, start_server,
    until, wait_plies, R,
};

/// Whether the element `css` is shown.
fn shown(css: &str) -> String {
    format!("(() => {{ const e = document.querySelector('{css}'); return !!e && !e.hidden && e.offsetParent !== null; }})()")
}

/// A phone-sized screenshot with `css` scrolled into view, then the page
/// back at its top (where the board is, for the next move).
async fn phone_shot(c: &Client, css: &str, name: &str) -> R {
    js(
        c,
        &format!("document.querySelector('{css}').scrollIntoView({{block: 'center'}}); return 1"),
    )
    .await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    shot(c, name).await?;
    js(c, "window.scrollTo(0, 0); return 1").await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(())
}

/// `offerer` proposes, `accepter` accepts; `sealer` then sees the dialog.
async fn agree(offerer: &Client, accepter: &Client, sealer: &Client) -> R {
    click(offerer, "#offer-adjourn").await?;
    until(accepter, "the offer", &shown("#accept-adjourn")).await?;
    let st = js(
        accepter,
        "return document.querySelector('#status').textContent",
    )
    .await?;
    if !st.as_str().unwrap_or("").contains("aplazar") {
        return Err(format!("the offer is not in the status: {st}"));
    }
    click(accepter, "#accept-adjourn").await?;
    until(sealer, "the sealing dialog", &shown("#seal-form")).await?;
    Ok(())
}

async fn both_resume(a: &Client, b: &Client) -> R {
    click(a, "#resume").await?;
    until(
        b,
        "the opponent ready",
        "document.querySelector('#status').textContent.includes('listo')",
    )
    .await?;
    click(b, "#resume").await?;
    Ok(())
}

async fn sealed_resumed_judged(base: &str, a: &Client, b: &Client, watcher: &Client) -> R {
    pair(base, a, b, json!({"time_control": "10+5"})).await?;
    let id = js(a, "return location.pathname.split('/')[2]").await?;
    let id = id.as_str().unwrap_or_default().to_string();
    ready(watcher, &format!("{base}/partida/{id}")).await?;
    click_move(a, "e2", "e4").await?;
    wait_plies(b, 1).await?;
    click_move(b, "e7", "e5").await?;
    wait_plies(a, 2).await?;
    // Black proposes, White (to move) accepts and seals.
    agree(b, a, a).await?;
    until(
        b,
        "White sealing",
        "document.querySelector('#status').textContent.includes('jugada secreta')",
    )
    .await?;
    shot(a, "adjourn-sealing-desktop.png").await?;
    // A move on the board fills the text; it is not played.
    click_move(a, "g1", "f3").await?;
    until(
        a,
        "the text from the board",
        "document.querySelector('#seal-input').value === 'g1f3'",
    )
    .await?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    wait_plies(a, 2).await?;
    wait_plies(b, 2).await?;
    click(a, "#seal-send").await?;
    for c in [a, b, watcher] {
        until(
            c,
            "adjourned",
            "document.querySelector('#status').textContent.includes('aplazada')",
        )
        .await?;
    }
    // Nobody's page shows the sealed move.
    for (who, c) in [("black", b), ("spectator", watcher), ("white", a)] {
        let body = js(c, "return document.body.innerText").await?;
        let body = body.as_str().unwrap_or("");
        if body.contains("g1f3") || body.contains("Cf3") {
            return Err(format!("{who}'s page shows the sealed move: {body}"));
        }
    }
    until(a, "the resume button", &shown("#resume")).await?;
    shot(a, "adjourn-adjourned-desktop.png").await?;
    b.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    phone_shot(b, "#status", "adjourn-adjourned-phone.png").await?;
    // The clock stands still while adjourned.
    let clocks = "document.querySelector('#clock-top').textContent + document.querySelector('#clock-bottom').textContent";
    let before = js(a, &format!("return {clocks}")).await?;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let after = js(a, &format!("return {clocks}")).await?;
    if before != after {
        return Err(format!("clocks ran while adjourned: {before} → {after}"));
    }
    // Both back: opened and played.
    both_resume(a, b).await?;
    for c in [a, b, watcher] {
        wait_plies(c, 3).await?;
        until(
            c,
            "the envelope note",
            &format!(
                "{} && document.querySelector('#envelope-note').textContent.includes('g1f3')",
                shown("#envelope-note")
            ),
        )
        .await?;
    }
    phone_shot(b, "#envelope-note", "adjourn-opened-phone.png").await?;
    // A second adjournment: Black seals a typed move that is illegal here.
    click_move(b, "b8", "c6").await?;
    wait_plies(a, 4).await?;
    click_move(a, "f1", "c4").await?;
    wait_plies(b, 5).await?;
    agree(a, b, b).await?;
    fill(b, "#seal-input", "Ae6").await?;
    phone_shot(b, "#seal-form", "adjourn-sealing-phone.png").await?;
    click(b, "#seal-send").await?;
    until(a, "adjourned", &shown("#resume")).await?;
    both_resume(b, a).await?;
    for c in [a, b] {
        let e = until(c, "the verdict", "!document.querySelector('#end-message').hidden && document.querySelector('#end-message').textContent").await?;
        let e = e.as_str().unwrap_or("");
        if !e.contains("jugada secreta") || !e.contains("1-0") {
            return Err(format!("verdict: {e}"));
        }
    }
    let note = js(
        a,
        "return document.querySelector('#envelope-note').textContent",
    )
    .await?;
    if !note.as_str().unwrap_or("").contains("Ae6") {
        return Err(format!("envelope note: {note}"));
    }
    shot(a, "adjourn-judged-desktop.png").await?;
    phone_shot(b, "#end-message", "adjourn-judged-phone.png").await?;
    // My games lists it as over; the server says so too.
    ready(a, &format!("{base}/mis-partidas")).await?;
    until(a, "my games", "document.querySelector('#games') && document.querySelector('#games').textContent.includes('1-0')").await?;
    Ok(())
}

#[test]
fn adjourn_in_the_browser() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-adjourn-web", 1000.0).await;
        let base = format!("http://{}", server.addr);
        let downloads = dir.join("downloads");
        let a = browser(port, "es", &downloads.join("a")).await;
        let b = browser(port, "es", &downloads.join("b")).await;
        let w = browser(port, "es", &downloads.join("w")).await;
        let t0 = Instant::now();
        let r = tokio::time::timeout(
            Duration::from_secs(180),
            sealed_resumed_judged(&base, &a, &b, &w),
        )
        .await
        .unwrap_or_else(|_| Err("took more than 180 s".into()));
        if r.is_err() {
            let _ = shot(&a, "failed-adjourn-a.png").await;
            let _ = shot(&b, "failed-adjourn-b.png").await;
        }
        eprintln!(
            "adjourn in the browser: {:.1} s",
            t0.elapsed().as_secs_f64()
        );
        for c in [a, b, w] {
            let _ = c.close().await;
        }
        if let Err(e) = r {
            panic!("{e}");
        }
    });
}
