//! Aprende a jugar in a real browser (issue 55): a pupil of a class plays
//! the whole course on the page `/aprender` — the board moves, the touched
//! squares, the options and the written moves — with the keyboard only for
//! one stage of each way of answering (touch, move, choose, write) and the
//! mouse for the rest; a wrong move shows its reason; the stars on the
//! page and on the server are the ones expected; a guest's progress kept
//! in the browser joins the account at login; the teacher sees the
//! pupil's course stars in the class progress table. Screenshots at phone
//! and desktop size go to `target/screenshots/aprender-*.png`.
//!
//! The figures (the first load's compressed bytes, the median time from a
//! try to its verdict drawn) are measured by the ignored benchmark
//! `aprender_answer_time` below, run by hand through
//! `scripts/bench-aprender.sh`; nothing here is a time limit.

use std::time::{Duration, Instant};

use escaque_play::aprender::{Course, Exercise, Goal};
use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MouseActions, PointerAction, MOUSE_BUTTON_LEFT,
};
use fantoccini::Client;
use serde_json::{json, Value};

use crate::aprender::{course, solution};
use crate::browser::{
    browser, click, click_xy, js, log_in, phone, ready, runtime, shot, square_centre, start_driver,
    start_server, until, R,
};
use crate::common::class_with_pupils;

const TAB: char = '\u{E004}';
const ENTER: char = '\u{E007}';
const LEFT: char = '\u{E012}';
const UP: char = '\u{E013}';
const RIGHT: char = '\u{E014}';
const DOWN: char = '\u{E015}';

/// How each stage is played.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum How {
    Keyboard,
    Mouse,
}

/// Keys on whatever has the focus, as a person at the keyboard.
async fn press(c: &Client, keys: &[char]) -> R {
    let mut a = KeyActions::new("keyboard".into());
    for &k in keys {
        a = a
            .then(KeyAction::Down { value: k })
            .then(KeyAction::Up { value: k });
    }
    c.perform_actions(a)
        .await
        .map_err(|e| format!("keys {keys:?}: {e}"))
}

async fn type_text(c: &Client, text: &str) -> R {
    let keys: Vec<char> = text.chars().collect();
    press(c, &keys).await
}

/// The centre of a square of the course's board.
async fn square(c: &Client, sq: &str) -> R<(f64, f64)> {
    js(
        c,
        "document.querySelector('#board').scrollIntoView({block: 'nearest'}); return true",
    )
    .await?;
    square_centre(
        c,
        "const b = document.querySelector('#board cg-board').getBoundingClientRect();
         const white = window.escaqueAprenderBoard.state.orientation === 'white';",
        sq,
    )
    .await
}

async fn click_square(c: &Client, sq: &str) -> R {
    let (x, y) = square(c, sq).await?;
    click_xy(c, x, y, sq).await
}

/// Moves the board's keyboard cursor to `sq` with the arrows.
async fn cursor_to(c: &Client, sq: &str) -> R {
    let v = js(
        c,
        "const b = document.querySelector('#board');
         return [b.dataset.cursor || '', window.escaqueAprenderBoard.state.orientation];",
    )
    .await?;
    let mut cur = v[0].as_str().unwrap_or("").to_string();
    let white = v[1] == "white";
    if cur.is_empty() {
        // The first arrow shows the cursor where it starts (e2 or e7).
        press(c, &[UP]).await?;
        let v = js(c, "return document.querySelector('#board').dataset.cursor").await?;
        cur = v.as_str().unwrap_or("").to_string();
    }
    let (cf, cr) = (cur.as_bytes()[0] as i32, cur.as_bytes()[1] as i32);
    let (tf, tr) = (sq.as_bytes()[0] as i32, sq.as_bytes()[1] as i32);
    let (mut df, mut dr) = (tf - cf, tr - cr);
    if !white {
        df = -df;
        dr = -dr;
    }
    let mut keys = Vec::new();
    for _ in 0..df.abs() {
        keys.push(if df > 0 { RIGHT } else { LEFT });
    }
    for _ in 0..dr.abs() {
        keys.push(if dr > 0 { UP } else { DOWN });
    }
    press(c, &keys).await?;
    let now = js(c, "return document.querySelector('#board').dataset.cursor").await?;
    if now != sq {
        return Err(format!("the cursor is on {now}, not {sq}"));
    }
    Ok(())
}

/// From a page just loaded to the element `id` by the keyboard, as a
/// person does: a click on an empty spot at the top of the page puts the
/// keyboard at the start of the document (where it starts on a fresh page
/// differs between Chromium builds: often the browser's own toolbar, out of
/// the page's reach), the first Tab reaches the skip link, Enter jumps to
/// the main part, and Tab goes on until `id` has the focus (at most 12
/// presses: the course's link back and the kid-mode box come first).
async fn tab_to(c: &Client, id: &str) -> R {
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
    press(c, &[TAB]).await?;
    let first = js(c, "return document.activeElement.className").await?;
    if first != "skip" {
        return Err(format!("the first Tab reached {first}, not the skip link"));
    }
    press(c, &[ENTER]).await?;
    let mut seen = Vec::new();
    for _ in 0..12 {
        press(c, &[TAB]).await?;
        let v = js(
            c,
            "const e = document.activeElement; return e ? (e.id || e.tagName) : null",
        )
        .await?;
        if v == id {
            return Ok(());
        }
        seen.push(v.to_string());
    }
    Err(format!(
        "the keyboard never reached #{id} (after the skip link: {})",
        seen.join(" ")
    ))
}

/// Waits for the verdict of try number `n` of the exercise on the page.
async fn tries_done(c: &Client, n: usize) -> R {
    until(
        c,
        &format!("try {n} judged"),
        &format!("document.body.dataset.tries === '{n}'"),
    )
    .await
    .map(|_| ())
}

/// One try of the page's exercise, by keyboard or mouse.
async fn play_try(c: &Client, ex: &Exercise, t: &Value, how: How) -> R {
    if let Some(sq) = t["square"].as_str() {
        match how {
            How::Mouse => click_square(c, sq).await?,
            How::Keyboard => {
                cursor_to(c, sq).await?;
                press(c, &[ENTER]).await?;
            }
        }
    } else if let Some(i) = t["choice"].as_u64() {
        match how {
            How::Mouse => click(c, &format!("#ap-answer button[data-option='{i}']")).await?,
            How::Keyboard => {
                // The first option has the focus; Tab to the one meant.
                let mut keys = vec![TAB; i as usize];
                keys.push(ENTER);
                press(c, &keys).await?;
            }
        }
    } else if let Some(text) = t["text"].as_str() {
        match how {
            How::Mouse => {
                js(c, &format!("document.querySelector('#ap-write').value = {}; document.querySelector('#ap-write-send').click(); return true", json!(text))).await?;
            }
            How::Keyboard => {
                type_text(c, text).await?;
                press(c, &[ENTER]).await?;
            }
        }
    } else if let Some(m) = t["move"].as_str() {
        let (from, to, promo) = (&m[0..2], &m[2..4], m.get(4..).unwrap_or(""));
        match how {
            How::Mouse => {
                click_square(c, from).await?;
                click_square(c, to).await?;
            }
            How::Keyboard => {
                cursor_to(c, from).await?;
                press(c, &[ENTER]).await?;
                cursor_to(c, to).await?;
                press(c, &[ENTER]).await?;
            }
        }
        if !promo.is_empty() {
            until(
                c,
                "the promotion chooser",
                "document.querySelector('#ap-answer .ap-promo button')",
            )
            .await?;
            let i = ["q", "r", "b", "n"]
                .iter()
                .position(|p| *p == promo)
                .ok_or("promotion")?;
            match how {
                How::Mouse => click(c, &format!("#ap-answer button[data-promo='{promo}']")).await?,
                How::Keyboard => {
                    let mut keys = vec![TAB; i];
                    keys.push(ENTER);
                    press(c, &keys).await?;
                }
            }
        }
    } else {
        return Err(format!("a try of no kind: {t}"));
    }
    let _ = ex;
    Ok(())
}

/// Plays every exercise of stage `id` on its page; returns the stars the
/// page showed. `wrong_first`: a refused move first on exercise 0 (its
/// reason checked on the page).
async fn play_stage(
    c: &Client,
    base: &str,
    co: &Course,
    id: &str,
    how: How,
    wrong_first: Option<(&str, &str)>,
) -> R<u32> {
    let st = co.stage(id).ok_or("no stage")?;
    ready(c, &format!("{base}/aprender/{id}")).await?;
    until(
        c,
        "the first exercise",
        "document.body.dataset.exercise === '0'",
    )
    .await?;
    if how == How::Keyboard {
        // From the top of the page, the keyboard alone: to the board, or to
        // the first option or text box.
        let first = &st.exercises[0];
        let target = if first.goal.is_question() {
            "ap-answer-first"
        } else if matches!(first.goal, Goal::Write(_)) {
            "ap-write"
        } else {
            "board"
        };
        if target == "ap-answer-first" {
            js(
                c,
                "document.querySelector('#ap-answer button').id = 'ap-answer-first'; return true",
            )
            .await?;
        }
        tab_to(c, target).await?;
    }
    let mut total = 0;
    for (n, ex) in st.exercises.iter().enumerate() {
        until(
            c,
            &format!("exercise {n}"),
            &format!("document.body.dataset.exercise === '{n}'"),
        )
        .await?;
        js(c, "document.body.dataset.tries = '0'; return true").await?;
        let mut k = 0;
        if n == 0 {
            if let Some((from, to)) = wrong_first {
                play_try(c, ex, &json!({"move": format!("{from}{to}")}), how).await?;
                k += 1;
                tries_done(c, k).await?;
                let reason = until(
                    c,
                    "the reason",
                    "document.querySelector('#ap-reason').textContent",
                )
                .await?;
                let r = reason.as_str().unwrap_or("");
                if r.trim().len() < 15 || !r.contains("filas y columnas") {
                    return Err(format!("{id}: a bare refusal: {r:?}"));
                }
            }
        }
        for t in solution(ex) {
            play_try(c, ex, &t, how).await?;
            k += 1;
            tries_done(c, k).await?;
        }
        let stars = until(
            c,
            "the stars",
            "document.querySelector('#ap-good').dataset.stars",
        )
        .await?;
        let s: u32 = stars.as_str().and_then(|s| s.parse().ok()).ok_or("stars")?;
        total += s;
        // To the next exercise: Enter on the focused button, or a click.
        if n + 1 < st.exercises.len() {
            match how {
                How::Keyboard => {
                    until(
                        c,
                        "the next button focused",
                        "document.activeElement && document.activeElement.id === 'ap-next-ex'",
                    )
                    .await?;
                    js(c, "document.body.dataset.tries = 'x'; return true").await?;
                    press(c, &[ENTER]).await?;
                }
                How::Mouse => {
                    js(c, "document.body.dataset.tries = 'x'; return true").await?;
                    click(c, "#ap-next-ex").await?;
                }
            }
        } else {
            let done = until(c, "the stage's end", "document.querySelector('#ap-stage-done') && document.querySelector('#ap-stage-done').dataset.stars").await?;
            if done.as_str() != Some(total.to_string().as_str()) {
                return Err(format!(
                    "{id}: the page says {done} stars, the exercises {total}"
                ));
            }
        }
    }
    Ok(total)
}

async fn course_day(
    c: &Client,
    teacher: &Client,
    base: &str,
    pupil: (&str, &str),
    teacher_login: (&str, &str),
    class_id: &str,
) -> R {
    let co = course();
    // A guest first: one stage in this browser, kept in localStorage.
    ready(c, &format!("{base}/aprender")).await?;
    let guest_stars = play_stage(c, base, &co, "rey", How::Mouse, None).await?;
    let kept = js(
        c,
        "return Object.keys(JSON.parse(localStorage.getItem('aprender:invitado') || '{}')).length",
    )
    .await?;
    if kept != co.stage("rey").unwrap().exercises.len() {
        return Err(format!("the guest's browser keeps {kept} exercises"));
    }
    // Logged in: the guest's progress joins the account.
    log_in(c, base, pupil.0, pupil.1).await?;
    ready(c, &format!("{base}/aprender")).await?;
    until(
        c,
        "the join",
        "document.querySelector('#ap-joined.ap-good')",
    )
    .await?;
    let total = js(
        c,
        "return document.querySelector('#ap-total').dataset.stars",
    )
    .await?;
    if total.as_str() != Some(guest_stars.to_string().as_str()) {
        return Err(format!(
            "after the join the page shows {total} stars, the guest had {guest_stars}"
        ));
    }
    shot(c, "aprender-lista.png").await?;
    phone(c, "aprender-lista-phone.png").await?;

    // The whole course: keyboard for one stage of each way of answering.
    let keyboard = ["tablero", "torre", "leer", "escribir", "arbitro"];
    let mut expected = u64::from(guest_stars);
    let t0 = Instant::now();
    for st in &co.stages {
        if st.id == "rey" {
            continue;
        }
        let how = if keyboard.contains(&st.id.as_str()) {
            How::Keyboard
        } else {
            How::Mouse
        };
        let wrong = (st.id == "torre").then_some(("a1", "b2"));
        let got = play_stage(c, base, &co, &st.id, how, wrong)
            .await
            .map_err(|e| format!("{}: {e}", st.id))?;
        let want = 3 * st.exercises.len() as u32 - if wrong.is_some() { 1 } else { 0 };
        if got != want {
            return Err(format!("{}: {got} stars, {want} expected", st.id));
        }
        expected += u64::from(got);
        if st.id == "torre" {
            // A wrong move's reason on the page, screenshots.
            ready(c, &format!("{base}/aprender/torre")).await?;
            click_square(c, "a1").await?;
            click_square(c, "b2").await?;
            until(
                c,
                "a reason",
                "document.querySelector('#ap-reason').textContent",
            )
            .await?;
            shot(c, "aprender-razon.png").await?;
            phone(c, "aprender-razon-phone.png").await?;
        }
    }
    eprintln!(
        "aprender: the course played in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    ready(c, &format!("{base}/aprender")).await?;
    let total = js(
        c,
        "return Number(document.querySelector('#ap-total').dataset.stars)",
    )
    .await?;
    if total != expected {
        return Err(format!("the list shows {total} stars, {expected} earned"));
    }
    shot(c, "aprender-completo.png").await?;

    // Kid mode and the coordinates trainer, by keyboard.
    ready(c, &format!("{base}/aprender/coordenadas")).await?;
    js(c, "document.querySelector('#ap-kid').click(); return true").await?;
    click(c, "#co-start").await?;
    for _ in 0..10 {
        let task = until(
            c,
            "a square to find",
            "document.querySelector('#co-task').textContent",
        )
        .await?;
        let sq = task
            .as_str()
            .unwrap_or("")
            .rsplit(' ')
            .next()
            .unwrap_or("")
            .to_string();
        cursor_to(c, &sq).await?;
        press(c, &[ENTER]).await?;
    }
    until(c, "the history", "document.querySelectorAll('#co-history li').length === 1 && document.querySelector('#co-history li').textContent.includes('10/10')").await?;
    shot(c, "aprender-coordenadas.png").await?;
    phone(c, "aprender-coordenadas-phone.png").await?;
    ready(c, &format!("{base}/aprender/peon")).await?;
    shot(c, "aprender-ninos.png").await?;
    phone(c, "aprender-ninos-phone.png").await?;
    js(c, "document.querySelector('#ap-kid').click(); return true").await?;

    // The teacher's class progress table.
    log_in(teacher, base, teacher_login.0, teacher_login.1).await?;
    ready(teacher, &format!("{base}/clases/{class_id}/progreso")).await?;
    let shown = until(
        teacher,
        "the pupil's course stars",
        &format!(
            "(() => {{ const tr = document.querySelector('tr[data-pupil={}]'); if (!tr) return null;
               const i = [...document.querySelectorAll('#progress-table thead th')].findIndex(th => th.dataset.sort === 'course_stars');
               return tr.children[i].textContent; }})()",
            json!(pupil.0)
        ),
    )
    .await?;
    if shown.as_str() != Some(expected.to_string().as_str()) {
        return Err(format!(
            "the teacher's table shows {shown} course stars, {expected} earned"
        ));
    }
    shot(teacher, "aprender-docente.png").await?;
    phone(teacher, "aprender-docente-phone.png").await?;
    Ok(())
}

#[test]
fn aprender_course_in_the_browser() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-aprender-web", 5000.0).await;
        let base = format!("http://{}", server.addr);
        let class = class_with_pupils(&server, 1).await;
        let downloads = dir.join("downloads");
        let pupil = browser(port, "es", &downloads.join("p")).await;
        let teacher = browser(port, "es", &downloads.join("t")).await;
        let p = &class.pupils[0];
        let t0 = Instant::now();
        let r = tokio::time::timeout(
            Duration::from_secs(1200),
            course_day(
                &pupil,
                &teacher,
                &base,
                (&p.name, &p.password),
                (&class.teacher_name, "contraseña-larga"),
                &class.id,
            ),
        )
        .await
        .unwrap_or_else(|_| Err("took more than 1200 s".into()));
        eprintln!(
            "aprender in the browser: {:?} ({:.1} s)",
            r.as_ref().map(|_| ()),
            t0.elapsed().as_secs_f64()
        );
        if r.is_err() {
            let _ = shot(&pupil, "failed-aprender-pupil.png").await;
            let _ = shot(&teacher, "failed-aprender-teacher.png").await;
        }
        for c in [pupil, teacher] {
            let _ = c.close().await;
        }
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = r {
            panic!("aprender in the browser: {e}");
        }
    });
}

/// The first load's weight and the median time from a move on the board to
/// its verdict drawn (the server judged it over loopback, the page drew the
/// reason and the browser painted the frame: `performance.now()` when the
/// board hands the move to the page, and in the next animation frame after
/// the verdict is on the page), over 60 refused rook moves of `torre`. A
/// benchmark, run by hand (`scripts/bench-aprender.sh`): ignored, prints
/// `APRENDER_BENCH …`, asserts no time.
#[test]
#[ignore = "a benchmark: run by scripts/bench-aprender.sh"]
fn aprender_answer_time() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-aprender-bench", 5000.0).await;
        let base = format!("http://{}", server.addr);
        let c = browser(port, "es", &dir.join("downloads")).await;
        let r: R<(u64, f64, usize)> = async {
            // A browser that has loaded nothing yet (nothing cached): every
            // response's compressed bytes and headers.
            ready(&c, &format!("{base}/aprender/torre")).await?;
            until(&c, "the exercise", "document.body.dataset.exercise === '0'").await?;
            let weight = js(&c, "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource')).reduce((s, e) => s + (e.transferSize || 0), 0)").await?;
            let weight = weight.as_u64().ok_or("no weight")?;
            js(&c, "window.escaqueAprender.sent.length = 0; window.escaqueAprender.shown.length = 0; return true").await?;
            let n = 60;
            for i in 0..n {
                let to = ["b2", "c3", "b3"][i % 3];
                click_square(&c, "a1").await?;
                click_square(&c, to).await?;
                tries_done(&c, i + 1).await?;
            }
            until(&c, "the timings", &format!("window.escaqueAprender.shown.length >= {n}")).await?;
            let ms = js(&c, "const t = window.escaqueAprender; const d = t.shown.map((s, i) => s - t.sent[i]).sort((a, b) => a - b); return d[Math.floor(d.length / 2)]").await?;
            Ok((weight, ms.as_f64().ok_or("no median")?, n))
        }
        .await;
        let _ = c.close().await;
        let _ = std::fs::remove_dir_all(&dir);
        match r {
            Ok((weight, median, n)) => println!(
                "APRENDER_BENCH page_bytes_transferred={weight} median_answer_ms={median:.1} tries={n}"
            ),
            Err(e) => panic!("aprender benchmark: {e}"),
        }
    });
}
