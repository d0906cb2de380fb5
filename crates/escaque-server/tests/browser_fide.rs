//! FIDE mode on the organiser's desk in a real browser (issue 58): the
//! card shows "Modo FIDE"; leaving it takes the first confirmation (a
//! checkbox that enables "Continuar"), then the second (the tournament's
//! name typed again); a wrong name is refused by the server and the
//! tournament stays in FIDE mode; the right one takes it out for good: the
//! card says "FUERA DEL MODO FIDE (desde la ronda 1)", no button is left,
//! and the TRF carries the `### FIDE mode left` line. Screenshots:
//! `target/screenshots/torneo-fide-*.png` (desktop 1280 and phone 390).

use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{
    browser, click, js, ready, runtime, shot, start_driver, start_server, until, R,
};

async fn fetch(c: &Client, method: &str, url: &str, body: Option<Value>) -> R<(u16, String)> {
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

/// The screenshot `name` at phone size (390 × 844), then back to 1280.
/// (Only the FIDE card is scrolled into view and looked at, by eye; the
/// whole desk's phone layout is not what this test is about.)
async fn phone_shot(c: &Client, name: &str) -> R {
    c.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    js(
        c,
        "document.querySelector('#desk-fide').scrollIntoView(); return true",
    )
    .await?;
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    let r = shot(c, name).await;
    c.set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;
    r
}

async fn text_of(c: &Client, css: &str) -> R<String> {
    let v = js(
        c,
        &format!(
            "const e = document.querySelector({}); return e ? e.textContent : null",
            json!(css)
        ),
    )
    .await?;
    Ok(v.as_str().unwrap_or("").to_string())
}

async fn desk_leaves_fide_mode(base: &str, c: &Client) -> R {
    ready(c, &format!("{base}/torneos")).await?;
    let (status, text) = fetch(
        c,
        "POST",
        "/api/tournaments",
        Some(json!({"name": "Abierto de Otoño", "system": "dutch", "rounds": 5, "mode": "otb"})),
    )
    .await?;
    if status != 201 {
        return Err(format!("create: {status} {text}"));
    }
    let id = serde_json::from_str::<Value>(&text).map_err(|e| e.to_string())?["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    ready(c, &format!("{base}/torneos/{id}/organizar")).await?;
    until(c, "the FIDE card", "document.querySelector('#fide-mark')").await?;
    let mark = text_of(c, "#fide-mark").await?;
    if mark != "Modo FIDE" {
        return Err(format!("mark: {mark}"));
    }
    shot(c, "torneo-fide-on.png").await?;
    // First confirmation: "Continuar" stays disabled until the box is ticked.
    click(c, "#fide-leave").await?;
    until(
        c,
        "the first confirmation",
        "document.querySelector('#fide-sure')",
    )
    .await?;
    if js(c, "return document.querySelector('#fide-leave-1').disabled").await? != json!(true) {
        return Err("Continuar enabled before the box is ticked".into());
    }
    shot(c, "torneo-fide-confirm-1.png").await?;
    click(c, "#fide-sure").await?;
    until(
        c,
        "Continuar enabled",
        "!document.querySelector('#fide-leave-1').disabled",
    )
    .await?;
    click(c, "#fide-leave-1").await?;
    until(
        c,
        "the second confirmation",
        "document.querySelector('#fide-leave-name')",
    )
    .await?;
    // A wrong name: refused, still in FIDE mode.
    js(
        c,
        "document.querySelector('#fide-leave-name').value = 'Abierto'; return true",
    )
    .await?;
    shot(c, "torneo-fide-confirm-2.png").await?;
    phone_shot(c, "torneo-fide-confirm-2-phone.png").await?;
    click(c, "#fide-leave-2").await?;
    until(c, "the refusal", "[...document.querySelectorAll('.error')].some((e) => e.textContent.includes('no es el nombre del torneo'))").await?;
    let (_, st) = fetch(c, "GET", &format!("/api/tournaments/{id}/fide"), None).await?;
    let st: Value = serde_json::from_str(&st).map_err(|e| e.to_string())?;
    if st["on"] != json!(true) {
        return Err(format!("a wrong name took it out: {st}"));
    }
    // The right name (case aside): out, for good.
    js(
        c,
        "document.querySelector('#fide-leave-name').value = 'abierto de otoño'; return true",
    )
    .await?;
    click(c, "#fide-leave-2").await?;
    until(c, "the mark out of FIDE mode", "document.querySelector('#fide-mark') && document.querySelector('#fide-mark').textContent.startsWith('FUERA')").await?;
    let mark = text_of(c, "#fide-mark").await?;
    if mark != "FUERA DEL MODO FIDE (desde la ronda 1)" {
        return Err(format!("mark: {mark}"));
    }
    if js(c, "return document.querySelector('#fide-leave') === null").await? != json!(true) {
        return Err("the leave button is still there".into());
    }
    let log = text_of(c, "#fide-log").await?;
    if !log.contains("### FIDE mode left @ Round 1 by ") {
        return Err(format!("log: {log}"));
    }
    shot(c, "torneo-fide-off.png").await?;
    phone_shot(c, "torneo-fide-off-phone.png").await?;
    let (status, trf) = fetch(c, "GET", &format!("/api/tournaments/{id}/trf"), None).await?;
    if status != 200
        || !trf
            .lines()
            .any(|l| l.starts_with("### FIDE mode left @ Round 1 by "))
    {
        return Err(format!("the TRF: {status}\n{trf}"));
    }
    Ok(())
}

#[test]
fn the_desk_leaves_fide_mode_only_after_two_confirmations() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-fide-web", 5000.0).await;
        let base = format!("http://{}", server.addr);
        let org = browser(port, "es", &dir.join("downloads")).await;
        let r = desk_leaves_fide_mode(&base, &org).await;
        if r.is_err() {
            let _ = shot(&org, "failed-torneo-fide.png").await;
        }
        let _ = org.close().await;
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = r {
            panic!("the desk's FIDE mode: {e}");
        }
    });
}
