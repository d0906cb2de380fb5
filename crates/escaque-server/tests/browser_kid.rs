//! Kid mode in a real browser (issue 26), with the WebDriver helpers of
//! `browser.rs`: the home page's list of seeks, fed by `GET /api/seeks`
//! and the lobby socket, shows a pupil its class's seeks only and shows
//! nobody outside the class a pupil's seek; the pupil accepts a
//! classmate's seek from the page and the game is the class's.
//! Screenshots at desktop and phone sizes go to
//! `target/screenshots/kid-*.png`.

use std::time::{Duration, Instant};

use escaque_server::Running;
use fantoccini::Client;
use serde_json::json;

use crate::browser::{
    browser, js, log_in, ready, runtime, shot, start_driver, start_server, until, R,
};
use crate::common::{account, class_with_pupils, Browser, ClassFixture};

/// The home page's list of seeks, as text, one entry a seek.
async fn seeks_shown(c: &Client) -> R<Vec<String>> {
    let v = js(
        c,
        "return [...document.querySelectorAll('#seeks li.seek')].map(li => li.textContent)",
    )
    .await?;
    Ok(v.as_array()
        .ok_or("no list")?
        .iter()
        .map(|s| s.as_str().unwrap_or("").to_string())
        .collect())
}

/// Waits until the home page lists a seek whose text contains `needle`.
async fn until_listed(c: &Client, needle: &str) -> R {
    until(
        c,
        &format!("a seek by {needle}"),
        &format!(
            "[...document.querySelectorAll('#seeks li.seek')].some(li => li.textContent.includes({}))",
            json!(needle)
        ),
    )
    .await
    .map(|_| ())
}

/// Posts a seek over HTTP as `who`.
async fn seek(who: &mut Browser, body: serde_json::Value) -> R<String> {
    let r = who.post("/api/seeks", body).await;
    if r.status != 201 {
        return Err(format!("seek: {} {}", r.status, r.body));
    }
    Ok(r.json()["seek"].as_str().unwrap_or("").to_string())
}

/// The class's pupil 0 (in `pupil`) and an outsider (in `outsider`) on
/// the home page: each is shown what kid mode allows, live.
pub(crate) async fn kid_lobby(
    base: &str,
    server: &Running,
    class: &mut ClassFixture,
    pupil: &Client,
    outsider: &Client,
) -> R {
    let (mut stranger, stranger_name) = account(server.addr, "Extrano").await;
    log_in(
        pupil,
        base,
        &class.pupils[0].name,
        &class.pupils[0].password,
    )
    .await?;
    log_in(outsider, base, &stranger_name, "contraseña-larga").await?;
    let teacher = class.teacher_name.clone();
    let classmate = class.pupils[1].name.clone();

    // Before the pages open: a seek by somebody outside the class, and one
    // by the teacher.
    seek(&mut stranger, json!({"time_control": "10+5"})).await?;
    seek(&mut class.teacher, json!({"time_control": "15+10"})).await?;
    ready(pupil, &format!("{base}/")).await?;
    ready(outsider, &format!("{base}/")).await?;
    until_listed(pupil, &teacher).await?;
    until_listed(outsider, &teacher).await?;
    until_listed(outsider, &stranger_name).await?;
    if seeks_shown(pupil)
        .await?
        .iter()
        .any(|s| s.contains(&stranger_name))
    {
        return Err("the pupil is shown a seek from outside its class".into());
    }

    // A classmate's seek reaches the pupil's page live, and not the
    // outsider's: the outsider's next seek (a later message on the same
    // socket) arrives while the classmate's never does.
    seek(&mut class.pupils[1].web, json!({"time_control": "5+3"})).await?;
    until_listed(pupil, &classmate).await?;
    seek(&mut stranger, json!({"time_control": "7+2"})).await?;
    until_listed(outsider, "7+2").await?;
    if seeks_shown(outsider)
        .await?
        .iter()
        .any(|s| s.contains(&classmate))
    {
        return Err("the outsider is shown a pupil's seek".into());
    }
    let shown = seeks_shown(pupil).await?;
    if shown.len() != 2 || shown.iter().any(|s| s.contains(&stranger_name)) {
        return Err(format!("the pupil's list: {shown:?}"));
    }
    shot(pupil, "kid-lobby.png").await?;
    shot(outsider, "kid-lobby-outsider.png").await?;
    pupil
        .set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    until_listed(pupil, &classmate).await?;
    js(
        pupil,
        "document.querySelector('#seeks').scrollIntoView(); return true",
    )
    .await?;
    shot(pupil, "kid-lobby-phone.png").await?;
    pupil
        .set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;

    // The pupil accepts the classmate's seek from the page: a game of the
    // class.
    js(
        pupil,
        &format!(
            "const li = [...document.querySelectorAll('#seeks li.seek')].find(li => li.textContent.includes({}));
             li.querySelector('button.accept-seek').click(); return true",
            json!(classmate)
        ),
    )
    .await?;
    let path = until(
        pupil,
        "the game's page",
        "location.pathname.startsWith('/partida/') && location.pathname",
    )
    .await?;
    let game = path
        .as_str()
        .and_then(|p| p.strip_prefix("/partida/"))
        .ok_or("no game id")?
        .to_string();
    let row = server
        .hub
        .store
        .game(&game)
        .await
        .map_err(|e| e.to_string())?
        .ok_or("no such game")?;
    if row.class_id.as_deref() != Some(class.id.as_str()) {
        return Err(format!("the game's class: {:?}", row.class_id));
    }
    Ok(())
}

#[test]
fn kid_mode_pages() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-kid-web", 2000.0).await;
        let base = format!("http://{}", server.addr);
        let mut class = class_with_pupils(&server, 2).await;
        let downloads = dir.join("downloads");
        let pupil = browser(port, "es", &downloads.join("p")).await;
        let outsider = browser(port, "es", &downloads.join("o")).await;
        let t0 = Instant::now();
        let r = tokio::time::timeout(
            Duration::from_secs(120),
            kid_lobby(&base, &server, &mut class, &pupil, &outsider),
        )
        .await
        .unwrap_or_else(|_| Err("took more than 120 s".into()));
        eprintln!("kid_lobby {:?} ({:.1} s)", r, t0.elapsed().as_secs_f64());
        if r.is_err() {
            let _ = shot(&pupil, "failed-kid-pupil.png").await;
            let _ = shot(&outsider, "failed-kid-outsider.png").await;
        }
        for c in [pupil, outsider] {
            let _ = c.close().await;
        }
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = r {
            panic!("kid mode in the browser: {e}");
        }
    });
}
