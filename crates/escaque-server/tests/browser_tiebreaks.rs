//! The desk's tie-breaks in a real browser (issue 62): an organiser imports
//! a real event with half-point byes (a file Gacrux was run on), chooses the
//! version of FIDE C.07 on the desk and opens one player's explanation. The
//! page shows the version's heading, the explanation's values are the
//! library's (`escaque_torneo::standings::explain`, as
//! `escaque torneo clasificacion --detalle N` prints them) and change with
//! the version chosen; the choice is kept in the tournament's TRF (`XZV`).
//! Then a Windows-1252 TRF of another program imported from the file
//! field keeps its accents. Screenshot:
//! `target/screenshots/torneo-desempates.png`.

use escaque_torneo::standings::{self, Rules};
use escaque_torneo::trf;
use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{choose, click, fetch, js, one_browser, ready, shot, until, R};

/// The event: 15 players, 7 rounds, half-point byes; it starts on
/// 2026-02-28, so the date asks for the 2024 rules.
const EVENT: &str =
    include_str!("../../escaque-torneo/tests/data/real/gacrux_many_unplayed_rounds.trf");

/// The values line the desk shows, as the library writes them with the
/// decimal comma (`BH 13,5 · SB 9,25`).
fn library_values(t: &escaque_torneo::Tournament, n: u32) -> String {
    let d = standings::explain(t, n, t.complete_rounds()).unwrap();
    d.values
        .iter()
        .map(|(tb, v)| {
            let text = escaque_torneo::print::number(*v);
            format!("{} {text}", tb.acronym())
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

async fn desk_tiebreaks(base: &str, c: &Client) -> R {
    ready(c, &format!("{base}/torneos")).await?;
    let (status, text) = fetch(
        c,
        "POST",
        "/api/tournaments/import",
        Some(json!({ "trf": EVENT })),
    )
    .await?;
    if status != 201 {
        return Err(format!("import: {status} {text}"));
    }
    let id = serde_json::from_str::<Value>(&text).map_err(|e| e.to_string())?["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    ready(c, &format!("{base}/torneos/{id}/organizar")).await?;
    until(
        c,
        "the version's heading",
        "document.querySelector('#tb-heading')",
    )
    .await?;
    let heading = js(
        c,
        "return document.querySelector('#tb-heading').textContent",
    )
    .await?;
    if heading != "Desempates según FIDE C.07, versión 2024" {
        return Err(format!("heading by the date: {heading}"));
    }
    // Player 3 took half-point byes: the 2026 amendment caps the dummy
    // opponent, so the values differ between the versions.
    let mut t = trf::parse(EVENT).map_err(|e| format!("{e:?}"))?;
    let v2024 = library_values(&t, 3);
    t.tiebreak_rules = Some(Rules::V2026);
    let v2026 = library_values(&t, 3);
    if v2024 == v2026 {
        return Err(format!("the versions agree for player 3: {v2024}"));
    }
    choose(c, "#tb-player", "3").await?;
    click(c, "#tb-explain-go").await?;
    until(c, "the explanation", "document.querySelector('#tb-values')").await?;
    let shown = js(c, "return document.querySelector('#tb-values').textContent").await?;
    if shown != v2024.as_str() {
        return Err(format!("2024 values: desk {shown}, library {v2024}"));
    }
    // The organiser chooses the 2026 version.
    js(
        c,
        "const s = document.querySelector('#tb-rules'); s.value = '2026'; s.dispatchEvent(new Event('change')); return true;",
    )
    .await?;
    until(
        c,
        "the 2026 heading",
        "document.querySelector('#tb-heading') && document.querySelector('#tb-heading').textContent.endsWith('2026')",
    )
    .await?;
    let expr = format!(
        "document.querySelector('#tb-values') && document.querySelector('#tb-values').textContent === {}",
        json!(v2026)
    );
    until(c, "the 2026 values", &expr).await?;
    let cap = js(
        c,
        "return [...document.querySelectorAll('#tb-explain li')].some((li) => li.textContent.includes('16.4.2'))",
    )
    .await?;
    if cap != json!(true) {
        return Err("no round names the 2026 cap (C.07 16.4.2)".into());
    }
    shot(c, "torneo-desempates.png").await?;
    // Kept in the TRF; a stranger's choice and an unknown version refused.
    let (status, text) = fetch(c, "GET", &format!("/api/tournaments/{id}/trf"), None).await?;
    if status != 200 || !text.lines().any(|l| l == "XZV 2026") {
        return Err(format!("the TRF keeps the choice: {status}\n{text}"));
    }
    let (status, _) = fetch(
        c,
        "POST",
        &format!("/api/tournaments/{id}/tiebreak-rules"),
        Some(json!({"version": "2025"})),
    )
    .await?;
    if status != 400 {
        return Err(format!("version 2025: {status}"));
    }
    let (status, text) = fetch(
        c,
        "GET",
        &format!("/api/tournaments/{id}/players/99/tiebreaks"),
        None,
    )
    .await?;
    if status != 404 {
        return Err(format!("player 99: {status} {text}"));
    }
    // Back to the date's version.
    choose(c, "#tb-rules", "").await?;
    until(
        c,
        "the 2024 heading again",
        "document.querySelector('#tb-heading') && document.querySelector('#tb-heading').textContent.endsWith('2024')",
    )
    .await?;
    Ok(())
}

/// A TRF written by another program in Windows-1252 (not valid UTF-8),
/// imported from the tournaments page's file field: the names keep their
/// accents, as `escaque torneo` reads the same bytes (`trf::decode`).
async fn import_windows_1252(base: &str, c: &Client, dir: &std::path::Path) -> R {
    let mut bytes = b"012 Torneo de Nu\xf1oa\n042 2025/10/04\nXXR 3\n".to_vec();
    bytes.extend_from_slice(b"001    1 m    Mu\xf1oz, Jos\xe9                       2000\n");
    bytes.extend_from_slice(b"001    2 m    Ib\xe1\xf1ez, \xc1ngela                    1900\n");
    let (text, cp1252) = trf::decode(&bytes);
    if !cp1252 || !text.contains("Muñoz, José") {
        return Err(format!("the library reads it: {text}"));
    }
    let path = dir.join("vega.trf");
    std::fs::write(&path, &bytes).map_err(|e| e.to_string())?;
    ready(c, &format!("{base}/torneos")).await?;
    c.find(fantoccini::Locator::Css("#tn-import-file"))
        .await
        .map_err(|e| e.to_string())?
        .send_keys(&path.to_string_lossy())
        .await
        .map_err(|e| e.to_string())?;
    click(c, "#tn-import-go").await?;
    until(c, "the desk", "location.pathname.endsWith('/organizar')").await?;
    let id = js(c, "return location.pathname.split('/')[2]").await?;
    let (status, view) = fetch(
        c,
        "GET",
        &format!("/api/tournaments/{}", id.as_str().unwrap_or_default()),
        None,
    )
    .await?;
    let v: Value = serde_json::from_str(&view).map_err(|e| format!("{status} {e}"))?;
    let names: Vec<&str> = v["players"]
        .as_array()
        .map(|a| a.iter().filter_map(|p| p["name"].as_str()).collect())
        .unwrap_or_default();
    if v["name"] != "Torneo de Nuñoa" || names != ["Muñoz, José", "Ibáñez, Ángela"] {
        return Err(format!("imported as {} {names:?}", v["name"]));
    }
    Ok(())
}

#[test]
fn the_desk_chooses_the_version_and_explains_a_player() {
    one_browser(
        "escaque-desempates-web",
        "torneo-desempates",
        |base, c, dir| async move {
            desk_tiebreaks(&base, &c).await?;
            import_windows_1252(&base, &c, &dir).await
        },
    );
}
