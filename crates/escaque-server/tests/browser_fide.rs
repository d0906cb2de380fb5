//! FIDE mode on the organiser's desk in a real browser (issue 58): the
//! card shows "Modo FIDE"; leaving it takes the first confirmation (a
//! checkbox that enables "Continuar"), then the second (the tournament's
//! name typed again); a wrong name is refused by the server and the
//! tournament stays in FIDE mode; the right one takes it out for good: the
//! card says "FUERA DEL MODO FIDE (desde la ronda 1)", no button is left,
//! and the TRF carries the `### FIDE mode left` line. Screenshots:
//! `target/screenshots/torneo-fide-*.png` (desktop 1280 and phone 390).
//!
//! The manual pairing form of the same card: started with the engine's
//! pairing of round 2, boards changed by picking players in the selects, a
//! player picked twice refused, the warnings (a repeat, an ineligible bye)
//! shown in Spanish and "Terminar y guardar" disabled until they are
//! accepted; saved, round 2 is the organiser's and the TRF carries the
//! `### MPA @ Round 2` line. Screenshots `torneo-fide-manual-*.png`.

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use crate::browser::{
    browser, click, fetch, js, ready, runtime, shot, start_driver, start_server, until, R,
};

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

/// Picks `value` in the select `css` the way a person does (the option
/// clicked: the page gets its change event).
/// (The form is drawn again after each check: a select found a moment ago
/// may be gone, and is found again.)
async fn choose(c: &Client, css: &str, value: u32) -> R {
    for _ in 0..50 {
        let el = c
            .wait()
            .for_element(Locator::Css(css))
            .await
            .map_err(|e| format!("no {css}: {e}"))?;
        match el.select_by_value(&value.to_string()).await {
            Ok(_) => return Ok(()),
            Err(e) if e.to_string().contains("stale element") => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            Err(e) => return Err(format!("choose {value} in {css}: {e}")),
        }
    }
    Err(format!("choose {value} in {css}: always stale"))
}

async fn json_of(c: &Client, method: &str, url: &str, body: Option<Value>) -> R<Value> {
    let (status, text) = fetch(c, method, url, body).await?;
    if !(200..300).contains(&status) {
        return Err(format!("{method} {url}: {status} {text}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("{url}: {e}: {text}"))
}

async fn selects(c: &Client) -> R<Value> {
    js(
        c,
        "return [...document.querySelectorAll('#manual-boards tbody tr')].map((tr) => \
           [Number(tr.querySelector('.manual-white').value), Number(tr.querySelector('.manual-black').value)])",
    )
    .await
}

async fn desk_pairs_by_hand(base: &str, c: &Client) -> R {
    ready(c, &format!("{base}/torneos")).await?;
    let created = json_of(
        c,
        "POST",
        "/api/tournaments",
        Some(json!({"name": "Abierto de Invierno", "system": "dutch", "rounds": 5, "mode": "otb"})),
    )
    .await?;
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let api = format!("/api/tournaments/{id}");
    for (i, name) in [
        "Ana", "Bruno", "Carmen", "David", "Elena", "Fermín", "Gloria",
    ]
    .iter()
    .enumerate()
    {
        json_of(
            c,
            "POST",
            &format!("{api}/players"),
            Some(json!({"name": name, "rating": 2100 - 60 * i as i64})),
        )
        .await?;
    }
    json_of(c, "POST", &format!("{api}/rounds"), Some(json!({}))).await?;
    let view = json_of(c, "GET", &api, None).await?;
    let boards = view["rounds"][0]["boards"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for b in &boards {
        json_of(
            c,
            "POST",
            &format!("{api}/rounds/1/boards/{}/result", b["board"]),
            Some(json!({"result": "1-0"})),
        )
        .await?;
    }
    let first = (
        boards[0]["white"].as_u64().unwrap_or(0) as u32,
        boards[0]["black"].as_u64().unwrap_or(0) as u32,
    );
    let bye1 = view["rounds"][0]["byes"][0]["player"].as_u64().unwrap_or(0) as u32;
    let engine = json_of(
        c,
        "POST",
        &format!("{api}/manual-pairing"),
        Some(json!({"games": []})),
    )
    .await?;

    ready(c, &format!("{base}/torneos/{id}/organizar")).await?;
    click(c, "#manual-start").await?;
    until(
        c,
        "the manual pairing form",
        "document.querySelector('#manual-boards')",
    )
    .await?;
    // Started with the engine's pairing: the same boards, no warning,
    // saving allowed.
    if selects(c).await? != engine["engine"]["games"] {
        return Err(format!(
            "form {:?} engine {}",
            selects(c).await?,
            engine["engine"]
        ));
    }
    let bye_shown = js(
        c,
        "return Number(document.querySelector('#manual-bye').value)",
    )
    .await?;
    if bye_shown != engine["engine"]["bye"] {
        return Err(format!("bye {bye_shown} engine {}", engine["engine"]));
    }
    let said = text_of(c, "#manual-engine").await?;
    if !said.starts_with("Emparejamiento del programa: ") {
        return Err(format!("engine line: {said}"));
    }
    if text_of(c, "#manual-differ").await? != "Igual que el emparejamiento del programa." {
        return Err("differ line".into());
    }
    if js(c, "return document.querySelector('#manual-save').disabled").await? != json!(false) {
        return Err("the engine's own pairing cannot be saved".into());
    }
    shot(c, "torneo-fide-manual-start.png").await?;

    // Board 1 of round 1 again: first one player twice (refused by the
    // server, nothing to save), then the rest placed, the bye to round 1's.
    choose(
        c,
        "#manual-boards tr[data-board='1'] .manual-white",
        first.0,
    )
    .await?;
    choose(
        c,
        "#manual-boards tr[data-board='1'] .manual-black",
        first.1,
    )
    .await?;
    until(c, "a player twice", "document.querySelector('#manual-error') && document.querySelector('#manual-error').textContent.includes('aparece dos veces')").await?;
    if js(c, "return document.querySelector('#manual-save').disabled").await? != json!(true) {
        return Err("saving allowed with a player twice".into());
    }
    let rest: Vec<u32> = (1..=7)
        .filter(|p| *p != first.0 && *p != first.1 && *p != bye1)
        .collect();
    choose(
        c,
        "#manual-boards tr[data-board='2'] .manual-white",
        rest[0],
    )
    .await?;
    choose(
        c,
        "#manual-boards tr[data-board='2'] .manual-black",
        rest[1],
    )
    .await?;
    choose(
        c,
        "#manual-boards tr[data-board='3'] .manual-white",
        rest[2],
    )
    .await?;
    choose(
        c,
        "#manual-boards tr[data-board='3'] .manual-black",
        rest[3],
    )
    .await?;
    choose(c, "#manual-bye", bye1).await?;
    until(
        c,
        "the warnings",
        "document.querySelectorAll('#manual-warnings li').length === 2",
    )
    .await?;
    let warned = js(
        c,
        "return [...document.querySelectorAll('#manual-warnings li')].map((li) => li.dataset.kind + ': ' + li.textContent)",
    )
    .await?;
    let want_repeat = format!("repeat: {} y {} ya jugaron entre sí", first.0, first.1);
    let list: Vec<String> = warned
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    if !list.iter().any(|w| w.starts_with(&want_repeat))
        || !list.iter().any(|w| w.starts_with("ineligible_bye: "))
    {
        return Err(format!("warnings: {list:?}"));
    }
    if js(c, "return document.querySelector('#manual-save').disabled").await? != json!(true) {
        return Err("saving allowed with warnings not accepted".into());
    }
    if js(c, "return document.querySelector('#manual-error') === null").await? != json!(true) {
        return Err("the refusal stayed".into());
    }
    js(
        c,
        "document.querySelector('#manual-warnings').scrollIntoView({block: 'center'}); return true",
    )
    .await?;
    shot(c, "torneo-fide-manual-warnings.png").await?;
    phone_shot(c, "torneo-fide-manual-warnings-phone.png").await?;
    // Nothing stored yet.
    if json_of(c, "GET", &api, None).await?["round"] != json!(1) {
        return Err("stored before the end".into());
    }
    click(c, "#manual-accept").await?;
    until(
        c,
        "saving allowed",
        "!document.querySelector('#manual-save').disabled",
    )
    .await?;
    click(c, "#manual-save").await?;
    until(
        c,
        "round 2 on the desk",
        "document.body.dataset.tnRound === '2'",
    )
    .await?;
    until(c, "the MPA line", "document.querySelector('#fide-log') && document.querySelector('#fide-log').textContent.includes('### MPA @ Round 2')").await?;
    let saved = text_of(c, "#manual-saved").await?;
    if !saved.starts_with("Ronda 2 guardada: ### MPA @ Round 2") {
        return Err(format!("saved: {saved}"));
    }
    shot(c, "torneo-fide-manual-saved.png").await?;
    phone_shot(c, "torneo-fide-manual-saved-phone.png").await?;
    let view = json_of(c, "GET", &api, None).await?;
    let got: Vec<(u64, u64)> = view["rounds"][1]["boards"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|b| {
            (
                b["white"].as_u64().unwrap_or(0),
                b["black"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    let want: Vec<(u64, u64)> = [(first.0, first.1), (rest[0], rest[1]), (rest[2], rest[3])]
        .iter()
        .map(|&(w, b)| (w as u64, b as u64))
        .collect();
    let mut got_sorted = got.clone();
    got_sorted.sort();
    let mut want_sorted = want.clone();
    want_sorted.sort();
    if got_sorted != want_sorted {
        return Err(format!("round 2 stored {got:?}, chosen {want:?}"));
    }
    let (status, trf) = fetch(c, "GET", &format!("{api}/trf"), None).await?;
    let mpa = trf
        .lines()
        .find(|l| l.starts_with("### MPA @ Round 2: manual "));
    let Some(mpa) = mpa.filter(|_| status == 200) else {
        return Err(format!("the TRF: {status}\n{trf}"));
    };
    if !mpa.contains(&format!("{}-{}", first.0, first.1))
        || !mpa.contains(&format!("{bye1}-bye"))
        || !mpa.contains("warnings repeat")
        || !mpa.contains("ineligible_bye")
    {
        return Err(format!("MPA line: {mpa}"));
    }
    Ok(())
}

#[test]
fn the_desk_pairs_a_round_by_hand_with_its_warnings() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-fide-manual-web", 5000.0).await;
        let base = format!("http://{}", server.addr);
        let org = browser(port, "es", &dir.join("downloads")).await;
        let r = desk_pairs_by_hand(&base, &org).await;
        if r.is_err() {
            let _ = shot(&org, "failed-torneo-fide-manual.png").await;
        }
        let _ = org.close().await;
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = r {
            panic!("the desk's manual pairing: {e}");
        }
    });
}
