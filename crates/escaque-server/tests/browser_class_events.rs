//! A class's tournament and progress pages in a real browser (issue 26),
//! with the WebDriver helpers of `browser.rs`: the teacher starts a class
//! Swiss from `/clases/{id}/torneo` (the pupils online ticked, one left
//! out), lands on the tournament's page, the pupils (API clients with their
//! lobby sockets) are taken to their games and play them, and the
//! progress table at `/clases/{id}/progreso` shows the games, sorts by a
//! heading, links the CSV and keeps only the table when printing; a pupil
//! gets neither page's teacher part. Screenshots: `target/screenshots/`
//! `torneo-clase.png`, `torneo-clase-movil.png`, `progreso.png`,
//! `progreso-movil.png`.
//!
//! The step functions are `pub(crate)` for the end-to-end class test.

use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{
    browser, choose, click, fill, js, ready, runtime, shot, start_driver, start_server, until, R,
};
use crate::class_tournaments::{play_round, Lobby};
use crate::common::class_with_pupils;

/// Puts a logged-in identity's cookies (`name=value`, as the test
/// client keeps them) into a browser, on the server's origin.
pub(crate) async fn use_cookies(c: &Client, base: &str, cookies: &[String]) -> R {
    c.goto(&format!("{base}/favicon.ico"))
        .await
        .map_err(|e| e.to_string())?;
    for kv in cookies {
        // The page's own cookie jar: the browser has none of that name yet.
        js(
            c,
            &format!("document.cookie = {}", json!(format!("{kv}; path=/"))),
        )
        .await?;
    }
    Ok(())
}

/// The teacher starts a class Swiss of `rounds` rounds with exactly
/// `pupils` from `/clases/{class}/torneo` and lands on its page; the
/// tournament's id. `shots`: screenshot names (desktop) to save the form
/// as, before starting.
pub(crate) async fn start_class_tournament(
    c: &Client,
    base: &str,
    class: &str,
    pupils: &[String],
    rounds: u32,
    shots: Option<&str>,
) -> R<String> {
    ready(c, &format!("{base}/clases/{class}/torneo")).await?;
    until(
        c,
        "the form",
        "document.querySelector('#class-tournament-start')",
    )
    .await?;
    click(c, "#class-tournament-none").await?;
    for p in pupils {
        let css = format!("#class-tournament-pupils input[data-pupil={}]", json!(p));
        click(c, &css).await?;
    }
    choose(c, "#class-tournament-system", "swiss").await?;
    fill(c, "#class-tournament-rounds", &rounds.to_string()).await?;
    choose(c, "#class-tournament-clock", "10+0").await?;
    let chosen = js(
        c,
        "return [...document.querySelectorAll('#class-tournament-pupils input:checked')].map((b) => b.dataset.pupil)",
    )
    .await?;
    let mut want = pupils.to_vec();
    want.sort();
    let mut got: Vec<String> = chosen
        .as_array()
        .ok_or("no list")?
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    got.sort();
    if got != want {
        return Err(format!("ticked {got:?}, wanted {want:?}"));
    }
    if let Some(name) = shots {
        shot(c, name).await?;
    }
    click(c, "#class-tournament-start").await?;
    let id = until(
        c,
        "the tournament's page",
        "location.pathname.startsWith('/torneos/') && location.pathname.split('/')[2]",
    )
    .await?;
    let id = id.as_str().ok_or("no id")?.to_string();
    // Its page shows round 1 with the pupils.
    let first = json!(pupils[0]);
    until(
        c,
        "round 1 on the page",
        &format!(
            "document.body.dataset.ready === '1' && document.body.textContent.includes({first})"
        ),
    )
    .await?;
    Ok(id)
}

/// The progress table of `class` for today: one row per pupil with its
/// games as `games` says; sorted by a heading both ways; the CSV linked;
/// printing hides all but the table. Screenshots at desktop and phone
/// width when `shots` names them (`name.png`, `name-movil.png`).
pub(crate) async fn check_progress(
    c: &Client,
    base: &str,
    class: &str,
    games: &[(String, u64)],
    shots: Option<&str>,
) -> R {
    ready(c, &format!("{base}/clases/{class}/progreso")).await?;
    until(
        c,
        "the table",
        "document.querySelector('table#progress-table tbody tr')",
    )
    .await?;
    for (name, n) in games {
        let got = js(
            c,
            &format!(
                "const r = document.querySelector('#progress-table tr[data-pupil=' + JSON.stringify({}) + ']');
                 if (!r) return null;
                 const i = [...document.querySelectorAll('#progress-table thead th')].findIndex((t) => t.dataset.sort === 'games');
                 return r.children[i].textContent",
                json!(name)
            ),
        )
        .await?;
        if got != json!(n.to_string()) {
            return Err(format!("{name}: {got} games shown, not {n}"));
        }
    }
    // Sorting: by wins, most first; again, fewest first.
    let column = "const i = [...document.querySelectorAll('#progress-table thead th')].findIndex((t) => t.dataset.sort === 'wins');
                  return [...document.querySelectorAll('#progress-table tbody tr')].map((r) => Number(r.children[i].textContent))";
    click(c, "#progress-table th[data-sort=wins]").await?;
    let down: Vec<i64> = serde_json::from_value(js(c, column).await?).map_err(|e| e.to_string())?;
    if down.windows(2).any(|w| w[0] < w[1]) {
        return Err(format!("not sorted most wins first: {down:?}"));
    }
    if js(c, "return document.querySelector('#progress-table th[data-sort=wins]').getAttribute('aria-sort')").await? != json!("descending") {
        return Err("aria-sort is not descending".into());
    }
    click(c, "#progress-table th[data-sort=wins]").await?;
    let up: Vec<i64> = serde_json::from_value(js(c, column).await?).map_err(|e| e.to_string())?;
    if up.windows(2).any(|w| w[0] > w[1]) {
        return Err(format!("not sorted fewest wins first: {up:?}"));
    }
    // The period inputs hold what the server counted; the CSV is linked
    // for the same period and answers with its Spanish headers.
    let csv = js(
        c,
        "const a = document.querySelector('#progress-csv');
         const from = document.querySelector('#progress-from').value;
         const to = document.querySelector('#progress-to').value;
         if (!a.href.includes('format=csv') || !a.href.includes('from=' + from) || !a.href.includes('to=' + to)) return 'bad link ' + a.href;
         return fetch(a.href).then((r) => r.text())",
    )
    .await?;
    let csv = csv.as_str().unwrap_or("");
    if !csv
        .trim_start_matches('\u{feff}')
        .starts_with("Alumno,Nombre,Partidas")
    {
        return Err(format!("the CSV: {csv}"));
    }
    // Printing keeps the table and drops the rest.
    let print = js(
        c,
        "const css = document.getElementById('pg-style').textContent;
         return css.includes('@media print') && css.includes('header.top') && css.includes('.no-print')
           && !document.querySelector('#progress-table').closest('.no-print')
           && !!document.querySelector('#progress-form.no-print')",
    )
    .await?;
    if print != json!(true) {
        return Err("the print style does not hide the rest".into());
    }
    if let Some(name) = shots {
        shot(c, &format!("{name}.png")).await?;
        c.set_window_size(390, 844)
            .await
            .map_err(|e| e.to_string())?;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        shot(c, &format!("{name}-movil.png")).await?;
        c.set_window_size(1280, 900)
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

async fn class_events(c: &Client, pupil_page: &Client, server: &escaque_server::Running) -> R {
    let base = format!("http://{}", server.addr);
    let class = class_with_pupils(server, 5).await;
    use_cookies(c, &base, &class.teacher.cookies).await?;
    use_cookies(pupil_page, &base, &class.pupils[0].web.cookies).await?;
    let mut lobbies = Vec::new();
    for p in &class.pupils[..4] {
        lobbies.push(Lobby::open(server.addr, &p.web).await);
    }
    let fifth = json!(class.pupils[4].name);
    // The four with their lobby open are online, the fifth (logged in
    // only) is not: the form ticks the four.
    let four: Vec<String> = class.pupils[..4].iter().map(|p| p.name.clone()).collect();
    ready(c, &format!("{base}/clases/{}/torneo", class.id)).await?;
    until(
        c,
        "the roster",
        &format!(
            "document.querySelectorAll('#class-tournament-pupils input:checked').length === 4
             && !document.querySelector('#class-tournament-pupils input[data-pupil=' + JSON.stringify({fifth}) + ']').checked"
        ),
    )
    .await?;
    c.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    shot(c, "torneo-clase-movil.png").await?;
    c.set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;
    let id =
        start_class_tournament(c, &base, &class.id, &four, 1, Some("torneo-clase.png")).await?;
    // Each of the four is taken to its game; they play it.
    let mut told = Vec::new();
    for l in &mut lobbies {
        let v = l.your_game(&id, 1).await;
        if v["class"] != json!(class.id) {
            return Err(format!("your_game without the class: {v}"));
        }
        told.push(v);
    }
    play_round(server.addr, &told, true).await;
    until(
        c,
        "the tournament finished",
        "document.body.textContent.includes('Terminado')",
    )
    .await?;
    let mut games: Vec<(String, u64)> = four.iter().map(|n| (n.clone(), 1)).collect();
    games.push((class.pupils[4].name.clone(), 0));
    check_progress(c, &base, &class.id, &games, Some("progreso")).await?;
    // The tournament is listed on the class's tournament page.
    ready(c, &format!("{base}/clases/{}/torneo", class.id)).await?;
    until(
        c,
        "the class's tournaments",
        &format!(
            "document.querySelector('#class-tournaments li[data-tournament={}]')",
            json!(id)
        ),
    )
    .await?;
    // A pupil sees the list, no form, no roster, and no progress table.
    ready(pupil_page, &format!("{base}/clases/{}/torneo", class.id)).await?;
    until(
        pupil_page,
        "the list",
        "document.querySelector('#class-tournaments')",
    )
    .await?;
    let leak: Value = js(
        pupil_page,
        "return !!document.querySelector('#class-tournament-form') || document.body.textContent.includes('Alumno Número')",
    )
    .await?;
    if leak != json!(false) {
        return Err("a pupil sees the teacher's form or a real name".into());
    }
    ready(pupil_page, &format!("{base}/clases/{}/progreso", class.id)).await?;
    until(
        pupil_page,
        "refused",
        "document.querySelector('#error').textContent.length > 0",
    )
    .await?;
    let shown: Value = js(
        pupil_page,
        "return !!document.querySelector('table#progress-table') || document.body.textContent.includes('Alumno Número')",
    )
    .await?;
    if shown != json!(false) {
        return Err("a pupil sees the progress table".into());
    }
    Ok(())
}

#[test]
fn class_tournament_and_progress_pages() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-clase-web", 5000.0).await;
        let downloads = dir.join("downloads");
        let teacher = browser(port, "es", &downloads.join("t")).await;
        let pupil = browser(port, "es", &downloads.join("p")).await;
        let r = tokio::time::timeout(
            std::time::Duration::from_secs(180),
            class_events(&teacher, &pupil, &server),
        )
        .await
        .unwrap_or_else(|_| Err("took more than 180 s".into()));
        if r.is_err() {
            let _ = shot(&teacher, "failed-clase-eventos-docente.png").await;
            let _ = shot(&pupil, "failed-clase-eventos-alumno.png").await;
        }
        let _ = teacher.close().await;
        let _ = pupil.close().await;
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = r {
            panic!("class events in the browser: {e}");
        }
    });
}
