//! Unusual results at the organiser's desk in a real browser (issue 58,
//! FIDE's checklist VCL.13): the board's result select offers "½-0", "0-½"
//! and "0-0" under "Inusuales (cada uno sus puntos)"; the organiser picks
//! them as a person does (the option clicked), the board shows what was
//! picked, each player's points are their own (½ and 0, 0 and 0), a
//! correction says what the board held ("Mesa 3 corregida: antes 1-0",
//! "… antes ½-0"), the public page's pairings and cross-table show them
//! and the card still says "Modo FIDE". Screenshots:
//! `target/screenshots/torneo-inusuales*.png` (desktop 1280 and phone 390).

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use crate::browser::{fetch, js, js_strings, one_browser, ready, shot, until, R};

/// Picks `value` in board `board`'s result select the way a person does
/// (the option clicked: the page gets its change event). The desk is drawn
/// again after each result: a select found a moment ago may be gone.
async fn pick(c: &Client, board: u32, value: &str) -> R {
    let css = format!("#desk-boards tr[data-board=\"{board}\"] select.result");
    for _ in 0..50 {
        let el = c
            .wait()
            .for_element(Locator::Css(&css))
            .await
            .map_err(|e| format!("no {css}: {e}"))?;
        match el.select_by_value(value).await {
            Ok(_) => return Ok(()),
            Err(e) if e.to_string().contains("stale element") => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            Err(e) => return Err(format!("pick {value} on board {board}: {e}")),
        }
    }
    Err(format!("pick {value} on board {board}: always stale"))
}

/// Waits until board `board`'s row says `result`.
async fn shows(c: &Client, board: u32, result: &str) -> R {
    until(
        c,
        &format!("board {board} showing {result}"),
        &format!(
            "(() => {{ const tr = document.querySelector('#desk-boards tr[data-board=\"{board}\"]'); \
               return tr && tr.dataset.result === {r} && tr.querySelector('select.result').value === {r}; }})()",
            r = json!(result)
        ),
    )
    .await
    .map(|_| ())
}

async fn correction(c: &Client, text: &str) -> R {
    until(
        c,
        &format!("the correction '{text}'"),
        &format!(
            "(document.querySelector('#result-correction') || {{}}).textContent === {}",
            json!(text)
        ),
    )
    .await
    .map(|_| ())
}

/// Each player's points on the desk's list, by start number.
async fn desk_points(c: &Client) -> R<Vec<String>> {
    js_strings(
        c,
        "return [...document.querySelectorAll('#desk-players tbody tr')]\
           .sort((a, b) => Number(a.dataset.number) - Number(b.dataset.number))\
           .map((tr) => tr.querySelector('td.pts').textContent)",
    )
    .await
}

pub(crate) async fn json_of(c: &Client, method: &str, url: &str, body: Option<Value>) -> R<Value> {
    let (status, text) = fetch(c, method, url, body).await?;
    if !(200..300).contains(&status) {
        return Err(format!("{method} {url}: {status} {text}"));
    }
    serde_json::from_str(&text).map_err(|e| format!("{url}: {e}: {text}"))
}

async fn phone_shot(c: &Client, css: &str, name: &str) -> R {
    c.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    js(
        c,
        &format!(
            "document.querySelector({}).scrollIntoView(); return true",
            json!(css)
        ),
    )
    .await?;
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    let r = shot(c, name).await;
    c.set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;
    r
}

/// The six-player "Abierto de Reyes" (Dutch, 3 rounds, over the board)
/// made through the API from the browser's session, round 1 paired: its id
/// and its API path.
pub(crate) async fn reyes_round_one(c: &Client, base: &str) -> R<(String, String)> {
    ready(c, &format!("{base}/torneos")).await?;
    let created = json_of(
        c,
        "POST",
        "/api/tournaments",
        Some(json!({"name": "Abierto de Reyes", "system": "dutch", "rounds": 3, "mode": "otb"})),
    )
    .await?;
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let api = format!("/api/tournaments/{id}");
    for (i, name) in ["Ana", "Bruno", "Carmen", "David", "Elena", "Fermín"]
        .iter()
        .enumerate()
    {
        json_of(
            c,
            "POST",
            &format!("{api}/players"),
            Some(json!({"name": name, "rating": 2000 - 100 * i as i64})),
        )
        .await?;
    }
    json_of(c, "POST", &format!("{api}/rounds"), Some(json!({}))).await?;
    Ok((id, api))
}

async fn desk_enters_unusual_results(base: String, c: Client) -> R {
    let c = &c;
    let (id, api) = reyes_round_one(c, &base).await?;
    let boards = json_of(c, "GET", &api, None).await?["rounds"][0]["boards"].clone();
    let pair = |b: usize| {
        (
            boards[b]["white"].as_u64().unwrap_or(0) as usize,
            boards[b]["black"].as_u64().unwrap_or(0) as usize,
        )
    };

    ready(c, &format!("{base}/torneos/{id}/organizar")).await?;
    until(
        c,
        "the desk's boards",
        "document.querySelectorAll('#desk-boards select.result').length === 3",
    )
    .await?;
    let offered = js_strings(
        c,
        "const g = document.querySelector('#desk-boards tr[data-board=\"1\"] optgroup'); \
         return g ? [g.label, ...[...g.querySelectorAll('option')].map((o) => o.textContent)] : []",
    )
    .await?;
    if offered != ["Inusuales (cada uno sus puntos)", "½-0", "0-½", "0-0"] {
        return Err(format!("the select offers {offered:?}"));
    }
    pick(c, 1, "½-0").await?;
    shows(c, 1, "½-0").await?;
    pick(c, 2, "0-0").await?;
    shows(c, 2, "0-0").await?;
    pick(c, 3, "1-0").await?;
    shows(c, 3, "1-0").await?;
    // A correction says what the board held.
    pick(c, 3, "0-½").await?;
    shows(c, 3, "0-½").await?;
    correction(c, "Mesa 3 corregida: antes 1-0").await?;
    shot(c, "torneo-inusuales.png").await?;
    phone_shot(c, "#desk-round", "torneo-inusuales-phone.png").await?;
    pick(c, 1, "½-½").await?;
    shows(c, 1, "½-½").await?;
    correction(c, "Mesa 1 corregida: antes ½-0").await?;
    pick(c, 1, "½-0").await?;
    shows(c, 1, "½-0").await?;
    correction(c, "Mesa 1 corregida: antes ½-½").await?;
    // Each player's own points: ½ and 0, 0 and 0, 0 and ½.
    until(
        c,
        "the round complete",
        "document.querySelector('#round-state').textContent === 'Ronda 1 completa.'",
    )
    .await?;
    let points = desk_points(c).await?;
    let mut expected = vec![String::new(); 6];
    for (b, (w, bl)) in [("½", "0"), ("0", "0"), ("0", "½")].iter().enumerate() {
        let (white, black) = pair(b);
        expected[white - 1] = (*w).to_string();
        expected[black - 1] = (*bl).to_string();
    }
    if points != expected {
        return Err(format!(
            "the desk's points {points:?}, expected {expected:?}"
        ));
    }
    let mark = js(c, "return document.querySelector('#fide-mark').textContent").await?;
    if mark != json!("Modo FIDE") {
        return Err(format!("FIDE mark: {mark}"));
    }
    let stored = json_of(c, "GET", &api, None).await?;
    let results: Vec<Value> = (0..3)
        .map(|b| stored["rounds"][0]["boards"][b]["result"].clone())
        .collect();
    if results != [json!("½-0"), json!("0-0"), json!("0-½")] {
        return Err(format!("stored: {results:?}"));
    }

    // The public page: the pairings and the cross-table show them.
    ready(c, &format!("{base}/torneos/{id}")).await?;
    until(
        c,
        "the public pairings",
        "document.querySelector('#pairings tr[data-board=\"3\"] td.res')",
    )
    .await?;
    let shown = js_strings(
        c,
        "return [...document.querySelectorAll('#pairings tr[data-board] td.res')].map((td) => td.textContent)",
    )
    .await?;
    if shown != ["½-0", "0-0", "0-½"] {
        return Err(format!("public pairings: {shown:?}"));
    }
    phone_shot(c, "#pairings", "torneo-inusuales-publica-phone.png").await?;
    // The cross-table: each player's own mark (`4b ½`: against 4 with White).
    ready(c, &format!("{base}/torneos/{id}?ver=crosstable")).await?;
    until(
        c,
        "the cross-table",
        "document.querySelector('#crosstable tbody tr')",
    )
    .await?;
    for (b, (w, bl)) in [("½", "0"), ("0", "0"), ("0", "½")].iter().enumerate() {
        let (white, black) = pair(b);
        for (me, cell) in [
            (white, format!("{black}b {w}")),
            (black, format!("{white}n {bl}")),
        ] {
            let cells = js_strings(
                c,
                &format!(
                    "return [...document.querySelectorAll('#crosstable tr[data-number=\"{me}\"] td')].map((td) => td.textContent)"
                ),
            )
            .await?;
            if !cells.contains(&cell) {
                return Err(format!("cross-table row {me}: {cells:?}, no {cell}"));
            }
        }
    }
    Ok(())
}

#[test]
fn the_desk_enters_and_shows_unusual_results() {
    one_browser(
        "escaque-inusuales-web",
        "torneo-inusuales",
        |base, c, _dir| desk_enters_unusual_results(base, c),
    );
}
