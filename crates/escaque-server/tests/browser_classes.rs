//! The class pages in a real browser (issue 26), with the
//! WebDriver helpers of `browser.rs`: a teacher creates a class, pastes a
//! list of real names (one with markup, shown as text) and sees the
//! passwords once; pupils log in on `/clase/{id}/entrar` by picking their
//! name (or opening the card's `?alumno=` link) and typing the class code;
//! the roster shows who is online; the teacher starts a game between two
//! pupils, who are taken to it from their class page and play it; the class
//! page lists it. Screenshots (desktop and phone) go to
//! `target/screenshots/clases-*.png`.
//!
//! The steps are `pub(crate)` so that the end-to-end class test can
//! compose them.

use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{
    browser, click, click_move, js, js_strings, ready, runtime, shot, start_driver, start_server,
    until, wait_plies, R,
};

/// A pupil as the teacher's page showed it once, after adding.
#[derive(Clone, Debug)]
pub(crate) struct Added {
    /// Account name.
    pub name: String,
    /// Real name.
    pub real_name: String,
    /// Generated password.
    pub password: String,
}

/// Signs up `name` from the page (as the home page's form does) and marks
/// the account a teacher in the store (what `--docente NOMBRE` does).
pub(crate) async fn teacher_account(
    c: &Client,
    base: &str,
    server: &escaque_server::Running,
    name: &str,
) -> R {
    ready(c, &format!("{base}/")).await?;
    let r = c
        .execute_async(
            "const [name, done] = arguments;
             fetch('/api/signup', {method: 'POST', headers: {'Content-Type': 'application/json'},
               body: JSON.stringify({name, password: 'contraseña-docente'})})
               .then(r => done(r.status)).catch(e => done(String(e)));",
            vec![json!(name)],
        )
        .await
        .map_err(|e| e.to_string())?;
    if r != json!(200) {
        return Err(format!("signup {name}: {r}"));
    }
    escaque_server::classes::mark_teacher(&server.hub.store, name)
        .await
        .map_err(|e| e.to_string())
}

/// Types into a field (textarea newlines included) by setting its value.
async fn set_value(c: &Client, css: &str, value: &str) -> R {
    let v = c
        .execute(
            "const [css, value] = arguments; const e = document.querySelector(css);
             if (!e) return false; e.value = value; e.dispatchEvent(new Event('input')); return true;",
            vec![json!(css), json!(value)],
        )
        .await
        .map_err(|e| e.to_string())?;
    if v != json!(true) {
        return Err(format!("no {css}"));
    }
    Ok(())
}

/// On `/clases`, creates a class; returns its id once its page is shown.
pub(crate) async fn create_class(
    c: &Client,
    base: &str,
    name: &str,
    description: &str,
) -> R<String> {
    ready(c, &format!("{base}/clases")).await?;
    until(c, "create form", "document.querySelector('#class-create')").await?;
    set_value(c, "#class-name", name).await?;
    set_value(c, "#class-description", description).await?;
    click(c, "#class-create").await?;
    let id = until(
        c,
        "class page",
        "document.body.dataset.ready === '1' && document.querySelector('#class-code') && location.pathname.split('/')[2]",
    )
    .await?;
    id.as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("no class id: {id}"))
}

/// On the teacher's class page, pastes `real_names` (one a line) and adds
/// them; returns what the passwords table shows.
pub(crate) async fn add_pupils(c: &Client, real_names: &[&str]) -> R<Vec<Added>> {
    // Blank lines and spaces around the names, as a pasted list has them.
    let text = format!("\n  {}  \n\n", real_names.join("\n"));
    set_value(c, "#pupils-paste", &text).await?;
    click(c, "#pupils-add").await?;
    let n = real_names.len();
    until(
        c,
        "passwords shown",
        &format!("document.querySelectorAll('#pupil-passwords tbody tr').length === {n}"),
    )
    .await?;
    until(
        c,
        "roster filled",
        &format!("document.querySelectorAll('#roster tr[data-pupil]').length >= {n}"),
    )
    .await?;
    let rows = js(
        c,
        "return [...document.querySelectorAll('#pupil-passwords tbody tr')].map(r => [...r.cells].map(d => d.textContent))",
    )
    .await?;
    let rows = rows.as_array().cloned().unwrap_or_default();
    Ok(rows
        .iter()
        .map(|r| Added {
            real_name: r[0].as_str().unwrap_or("").into(),
            name: r[1].as_str().unwrap_or("").into(),
            password: r[2].as_str().unwrap_or("").into(),
        })
        .collect())
}

/// The class code the teacher's page shows.
pub(crate) async fn class_code(c: &Client) -> R<String> {
    let v = until(c, "class code", "document.querySelector('#class-code') && document.querySelector('#class-code').textContent").await?;
    Ok(v.as_str().unwrap_or("").to_string())
}

/// A pupil logs in on the class's login page: `preselect` opens the link
/// of a login card (`?alumno=NAME`), else the pupil taps its name; then it
/// types the code and lands on its class page, connected to the lobby.
pub(crate) async fn pupil_login(
    c: &Client,
    base: &str,
    class: &str,
    name: &str,
    code: &str,
    preselect: bool,
) -> R {
    let url = if preselect {
        format!("{base}/clase/{class}/entrar?alumno={name}")
    } else {
        format!("{base}/clase/{class}/entrar")
    };
    ready(c, &url).await?;
    if !preselect {
        click(c, &format!("#login-pupils button[data-pupil='{name}']")).await?;
    }
    until(
        c,
        "name picked",
        &format!("document.querySelector(\"#login-pupils button[data-pupil='{name}']\").classList.contains('on') && !document.querySelector('#login-go').disabled"),
    )
    .await?;
    set_value(c, "#login-code", code).await?;
    click(c, "#login-go").await?;
    until(
        c,
        "class page",
        &format!("location.pathname === '/clases/{class}' && document.body.dataset.ready === '1' && document.querySelector('#class-title') && document.body.dataset.lobby === '1'"),
    )
    .await?;
    Ok(())
}

/// The teacher starts a game between two pupils from the class page;
/// returns the game's id.
pub(crate) async fn start_pupil_game(
    c: &Client,
    white: &str,
    black: &str,
    clock: &str,
) -> R<String> {
    until(
        c,
        "game form",
        "document.querySelectorAll('#start-game-white option').length >= 2",
    )
    .await?;
    let ok = c
        .execute(
            "const [w, b, clock] = arguments;
             const set = (css, v) => { const s = document.querySelector(css); s.value = v; return s.value === v; };
             return set('#start-game-white', w) && set('#start-game-black', b) && set('#start-game-clock', clock);",
            vec![json!(white), json!(black), json!(clock)],
        )
        .await
        .map_err(|e| e.to_string())?;
    if ok != json!(true) {
        return Err(format!("could not choose {white} and {black}"));
    }
    click(c, "#start-game").await?;
    let id = until(
        c,
        "game started",
        "document.querySelector('#started-game') && document.querySelector('#started-game').getAttribute('href').split('/')[2]",
    )
    .await?;
    Ok(id.as_str().unwrap_or("").to_string())
}

/// The names the roster marks online.
pub(crate) async fn online_in_roster(c: &Client) -> R<Vec<String>> {
    js_strings(
        c,
        "return [...document.querySelectorAll('#roster tr.online')].map(r => r.dataset.pupil)",
    )
    .await
}

/// Markup in a real name: shown as text or the page is wrong.
const MARKUP: &str = "<img src=x onerror=window.pwned=1>Lucía";

async fn scenario(
    base: &str,
    server: &escaque_server::Running,
    teacher: &Client,
    pupils: &[Client],
) -> R {
    teacher_account(teacher, base, server, "ProfeMarta").await?;
    let id = create_class(teacher, base, "4º B", "Ajedrez los martes").await?;
    until(
        teacher,
        "nav link to the classes",
        "document.querySelector('#nav-classes')",
    )
    .await?;
    let reals = ["Ana Pérez", "Luis Gómez", MARKUP, "María José Ruiz"];
    let added = add_pupils(teacher, &reals).await?;
    if added.len() != 4
        || added
            .iter()
            .map(|a| a.real_name.as_str())
            .collect::<Vec<_>>()
            != reals
    {
        return Err(format!("added: {added:?}"));
    }
    if js(teacher, "return window.pwned === undefined").await? != json!(true) {
        return Err("a real name ran as markup".into());
    }
    for a in &added {
        if a.password.len() < 8 || a.name.is_empty() {
            return Err(format!("generated: {a:?}"));
        }
    }
    let code = class_code(teacher).await?;
    if code.len() != 6 {
        return Err(format!("code: {code}"));
    }
    shot(teacher, "clases-nueva.png").await?;
    // The login page on a phone, before anybody logs in.
    pupils[0]
        .set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    ready(&pupils[0], &format!("{base}/clase/{id}/entrar")).await?;
    let buttons = js(
        &pupils[0],
        "return [...document.querySelectorAll('#login-pupils button')].map(b => b.dataset.pupil)",
    )
    .await?;
    if buttons.as_array().map(Vec::len) != Some(4) {
        return Err(format!("login buttons: {buttons}"));
    }
    let page = js(&pupils[0], "return document.body.innerText").await?;
    let page = page.as_str().unwrap_or("");
    if page.contains("Ana Pérez") || page.contains(&code) {
        return Err("the login page shows a real name or the code".into());
    }
    shot(&pupils[0], "clases-entrar-movil.png").await?;
    // A wrong code is refused in words.
    click(
        &pupils[0],
        &format!("#login-pupils button[data-pupil='{}']", added[0].name),
    )
    .await?;
    set_value(&pupils[0], "#login-code", "XXXXXX").await?;
    click(&pupils[0], "#login-go").await?;
    until(
        &pupils[0],
        "wrong code said",
        "[...document.querySelectorAll('.error')].some(e => e.textContent.includes('código'))",
    )
    .await?;
    // Two pupils log in: one taps its name, one opens its card's link; the
    // code typed in lower case with a space.
    let typed = format!("{} {}", code[..3].to_lowercase(), &code[3..]);
    pupil_login(&pupils[0], base, &id, &added[0].name, &typed, false).await?;
    pupil_login(&pupils[1], base, &id, &added[1].name, &code, true).await?;
    // The pupil's page: no real names.
    let text = js(&pupils[0], "return document.body.innerText").await?;
    let text = text.as_str().unwrap_or("");
    if reals.iter().any(|r| text.contains(r)) || text.contains(&code) {
        return Err(format!(
            "the pupil's page shows a real name or the code: {text}"
        ));
    }
    shot(&pupils[0], "clases-alumno-movil.png").await?;
    // The teacher's roster marks the two online.
    ready(teacher, &format!("{base}/clases/{id}")).await?;
    until(
        teacher,
        "roster",
        "document.querySelectorAll('#roster tr[data-pupil]').length === 4",
    )
    .await?;
    let mut online = online_in_roster(teacher).await?;
    online.sort();
    let mut want = vec![added[0].name.clone(), added[1].name.clone()];
    want.sort();
    if online != want {
        return Err(format!("online: {online:?}, want {want:?}"));
    }
    // A game between the two: both are taken to it and play it.
    let game = start_pupil_game(teacher, &added[0].name, &added[1].name, "10+5").await?;
    for p in &pupils[..2] {
        until(
            p,
            "taken to the game",
            &format!("location.pathname === '/partida/{game}' && document.body.dataset.ready === '1' && document.querySelector('#status') && document.querySelector('#status').textContent.includes('blancas')"),
        )
        .await?;
    }
    pupils[0]
        .set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;
    for (i, (from, to)) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")]
        .into_iter()
        .enumerate()
    {
        let p = &pupils[i % 2];
        click_move(p, from, to).await?;
        wait_plies(p, i + 1).await?;
    }
    until(
        &pupils[0],
        "mate",
        "!document.querySelector('#end-message').hidden && document.querySelector('#end-message').textContent",
    )
    .await?;
    // The class page lists it, finished; the pupil's games too.
    ready(teacher, &format!("{base}/clases/{id}")).await?;
    until(
        teacher,
        "class game listed",
        &format!("document.querySelector(\"#class-games li[data-game='{game}']\") && document.querySelector(\"#class-games li[data-game='{game}']\").textContent.includes('0-1')"),
    )
    .await?;
    click(
        teacher,
        &format!("#roster tr[data-pupil='{}'] button.games", added[0].name),
    )
    .await?;
    until(
        teacher,
        "pupil's games",
        &format!("document.querySelector(\"#pupil-games li[data-game='{game}']\")"),
    )
    .await?;
    shot(teacher, "clases-docente.png").await?;
    teacher
        .set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    tokio::time::sleep(Duration::from_millis(300)).await;
    shot(teacher, "clases-docente-movil.png").await?;
    teacher
        .set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;
    // A new code: the old one no longer lets a pupil in.
    teacher
        .execute("window.confirm = () => true; return true;", vec![])
        .await
        .map_err(|e| e.to_string())?;
    click(teacher, "#class-new-code").await?;
    let fresh = until(
        teacher,
        "new code",
        &format!("document.querySelector('#class-code').textContent !== '{code}' && document.querySelector('#class-code').textContent"),
    )
    .await?;
    // In English, by choice.
    ready(&pupils[2], &format!("{base}/clase/{id}/entrar?lang=en")).await?;
    until(
        &pupils[2],
        "English login page",
        "document.body.innerText.includes('Who are you?') && document.querySelector('#login-go').textContent === 'Log in'",
    )
    .await?;
    let old: Value = pupils[2]
        .execute_async(
            "const [name, code, done] = arguments;
             fetch(location.pathname.replace('/clase/', '/api/classes/').replace('/entrar', '/login'),
               {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name, code})})
               .then(r => done(r.status)).catch(e => done(String(e)));",
            vec![json!(added[2].name), json!(code)],
        )
        .await
        .map_err(|e| e.to_string())?;
    if old != json!(401) {
        return Err(format!("the old code: {old}"));
    }
    pupil_login(
        &pupils[2],
        base,
        &id,
        &added[2].name,
        fresh.as_str().unwrap_or(""),
        false,
    )
    .await?;
    Ok(())
}

#[test]
fn class_pages() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-clases-web", 1000.0).await;
        let base = format!("http://{}", server.addr);
        let downloads = dir.join("downloads");
        let teacher = browser(port, "es", &downloads.join("t")).await;
        let mut pupils = Vec::new();
        for i in 0..3 {
            pupils.push(browser(port, "es", &downloads.join(format!("p{i}"))).await);
        }
        let outcome = tokio::time::timeout(
            Duration::from_secs(240),
            scenario(&base, &server, &teacher, &pupils),
        )
        .await
        .unwrap_or_else(|_| Err("timed out".into()));
        if outcome.is_err() {
            let _ = shot(&teacher, "failed-clases-docente.png").await;
            for (i, p) in pupils.iter().enumerate() {
                let _ = shot(p, &format!("failed-clases-alumno{i}.png")).await;
            }
        }
        for c in pupils {
            let _ = c.close().await;
        }
        let _ = teacher.close().await;
        server.abort();
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = outcome {
            panic!("class pages: {e}");
        }
    });
}
