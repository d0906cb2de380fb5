//! Tareas (issue 57) in a real browser: the teacher sets a 10-item homework
//! with clicks on /clases/{id}/tareas (counted and timed); 30 pupils do it
//! with a mix of results — 27 as scripted HTTP clients, three in Chromium on
//! the item pages (a puzzle on its board, with and without a hint; the
//! course stage on the course's own page; coordinates, right and wrong; a
//! game against the engine started from the homework and resigned on
//! /partida); the grid on the teacher's page equals what each pupil did,
//! cell by cell, with the averages; a cell opens the attempt move by move;
//! the CSV the page links equals the grid on the page; the PDF renders
//! (pdftoppm). Screenshots (desktop 1280 and phone 390 wide):
//! `target/screenshots/tareas-*.png`.

use std::time::Instant;

use escaque::coord::to_uci;
use escaque_play::aprender::{Course, Goal};
use escaque_server::tareas::library;
use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{
    browser, choose, click, click_move, click_xy, fill, guide_shot, js, log_in, phone, ready,
    runtime, shot, square_centre, start_driver, start_server, until, wait_plies, R,
};
use crate::common::{class_with_pupils, Browser, ClassFixture, Player};
use crate::tareas::{act_for, expected, mean, post_attempt, render_pdf, score, work, Act};

/// The position item: king and queen against king, White to move.
const KQK: &str = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";

/// The puzzle set by its id: one with two solver moves, none a promotion.
fn chosen_puzzle() -> &'static escaque_analysis::problemas::Puzzle {
    library()
        .puzzles
        .iter()
        .find(|p| p.moves.len() >= 4 && p.solution().all(|m| to_uci(m).len() == 4))
        .expect("a puzzle of two moves without a promotion")
}

/// What the scripted pupils do with the two game items (8: a game against
/// the engine; 9: the position): some resign one (failed), the rest leave
/// it.
fn plays_game(pupil: usize, idx: usize) -> bool {
    match idx {
        8 => pupil.is_multiple_of(5),
        _ => pupil % 7 == 3,
    }
}

/// What the browser pupils do, by (pupil, item): the state it leaves.
fn in_browser(pupil: usize, idx: usize) -> Option<&'static str> {
    match (pupil, idx) {
        (0, 2) | (0, 5) | (0, 6) => Some("first_try"),
        (0, 8) => Some("failed"),
        (1, 2) => Some("after_help"),
        (2, 6) => Some("failed"),
        _ => None,
    }
}

/// The cell the grid must show for pupil `pi`, item `idx`.
fn want(pi: usize, idx: usize) -> &'static str {
    if let Some(s) = in_browser(pi, idx) {
        return s;
    }
    if idx >= 8 {
        return if plays_game(pi, idx) {
            "failed"
        } else {
            "not_done"
        };
    }
    expected(act_for(pi, idx))
}

/// A game against the engine at level 1 (from `fen` if given), one move
/// played and resigned, as the pupil `web`: its id.
async fn resigned_game(
    s: &escaque_server::Running,
    web: &mut Browser,
    fen: Option<&str>,
) -> String {
    let mut body = json!({"opponent": "engine", "level": 1, "color": "white"});
    if let Some(f) = fen {
        body["fen"] = json!(f);
    }
    let r = web.post("/api/games", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let seat = r.json();
    let mut p = Player::connect(s.addr, &seat).await;
    let mv = if fen.is_some() { "d1d2" } else { "e2e4" };
    assert_eq!(p.play(mv).await["t"], "ack");
    assert_eq!(p.act(json!({"t": "resign"})).await["t"], "ack");
    seat["game"].as_str().unwrap().to_string()
}

/// One scripted pupil's work on the items the browser does not do.
async fn scripted_pupil(
    s: &escaque_server::Running,
    c: &mut ClassFixture,
    hw: &str,
    pi: usize,
    items: &[Value],
) {
    let class = c.id.clone();
    let p = &mut c.pupils[pi];
    // Items in any order: backwards for odd pupils.
    let order: Vec<usize> = if pi % 2 == 1 {
        (0..items.len()).rev().collect()
    } else {
        (0..items.len()).collect()
    };
    for ii in order {
        if in_browser(pi, ii).is_some() {
            continue;
        }
        if ii >= 8 {
            if plays_game(pi, ii) {
                let fen = (ii == 9).then_some(KQK);
                let g = resigned_game(s, &mut p.web, fen).await;
                let a = post_attempt(
                    &mut p.web,
                    &class,
                    hw,
                    ii,
                    json!({"game": g, "time_ms": 5000, "hints": 0}),
                )
                .await;
                assert_eq!(a["state"], "failed", "{a}");
            }
            continue;
        }
        let item = &items[ii];
        match act_for(pi, ii) {
            Act::Clean => {
                post_attempt(&mut p.web, &class, hw, ii, work(item, true, 0)).await;
            }
            Act::Hinted => {
                post_attempt(&mut p.web, &class, hw, ii, work(item, true, 1)).await;
            }
            Act::Fail => {
                post_attempt(&mut p.web, &class, hw, ii, work(item, false, 0)).await;
            }
            Act::Skip => {}
            Act::FailThenSolve => {
                post_attempt(&mut p.web, &class, hw, ii, work(item, false, 0)).await;
                post_attempt(&mut p.web, &class, hw, ii, work(item, true, 0)).await;
            }
        }
    }
}

/// The teacher's clicks: the form on /clases/{id}/tareas filled and sent.
/// Returns the homework's id and the number of actions.
async fn teacher_sets(c: &Client, base: &str, class: &str) -> R<(String, usize)> {
    ready(c, &format!("{base}/clases/{class}/tareas")).await?;
    until(c, "the form", "document.querySelector('#tr-new')").await?;
    let puzzle = chosen_puzzle().id.clone();
    let t0 = Instant::now();
    let mut n = 0;
    macro_rules! act {
        ($e:expr) => {{
            $e.await?;
            n += 1;
        }};
    }
    act!(fill(
        c,
        "#tr-title-in",
        "Semana 3: mates, casillas y partidas"
    ));
    act!(click(c, "#tr-retry"));
    act!(choose(c, "#tr-f-theme", "mateIn1"));
    act!(fill(c, "#tr-f-count", "2"));
    act!(click(c, "#tr-add"));
    act!(choose(c, "#tr-f-kind", "puzzle"));
    act!(fill(c, "#tr-f-id", &puzzle));
    act!(click(c, "#tr-add"));
    act!(choose(c, "#tr-f-kind", "puzzles"));
    act!(choose(c, "#tr-f-theme", ""));
    act!(fill(c, "#tr-f-count", "2"));
    act!(click(c, "#tr-add"));
    act!(choose(c, "#tr-f-kind", "stage"));
    act!(choose(c, "#tr-f-stage", "tablero"));
    act!(click(c, "#tr-add"));
    act!(choose(c, "#tr-f-kind", "coords"));
    act!(fill(c, "#tr-f-ccount", "4"));
    act!(click(c, "#tr-add"));
    act!(fill(c, "#tr-f-ccount", "8"));
    act!(click(c, "#tr-add"));
    act!(choose(c, "#tr-f-kind", "engine_game"));
    act!(fill(c, "#tr-f-level", "1"));
    act!(click(c, "#tr-add"));
    act!(choose(c, "#tr-f-kind", "position"));
    act!(fill(c, "#tr-f-fen", KQK));
    act!(fill(c, "#tr-f-plevel", "1"));
    act!(click(c, "#tr-add"));
    let count = js(
        c,
        "return document.querySelector('#tr-items').dataset.count",
    )
    .await?;
    if count != json!("10") {
        return Err(format!("the form counts {count} items, not 10"));
    }
    guide_shot(c, "tareas-poner.png").await?;
    phone(c, "tareas-poner-movil.png").await?;
    act!(click(c, "#tr-set"));
    let hw = until(
        c,
        "the grid page of the new homework",
        "document.querySelector('#tr-grid') && location.pathname.split('/')[4]",
    )
    .await?;
    eprintln!(
        "tareas: the teacher set a 10-item homework with {n} actions (clicks, choices, typed fields) in {:.1} s of WebDriver time",
        t0.elapsed().as_secs_f64()
    );
    Ok((hw.as_str().unwrap_or_default().to_string(), n))
}

/// A square of the board `board` (whose chessground is `window[cg]`)
/// clicked.
async fn click_square(c: &Client, board: &str, cg: &str, sq: &str) -> R {
    js(
        c,
        &format!("const b = document.querySelector('{board}'); const r = b.getBoundingClientRect();
                  if (r.top < 0 || r.bottom > window.innerHeight) b.scrollIntoView({{block: 'center'}}); return true"),
    )
    .await?;
    let (x, y) = square_centre(
        c,
        &format!(
            "const b = document.querySelector('{board} cg-board').getBoundingClientRect();
             const white = window.{cg}.state.orientation === 'white';"
        ),
        sq,
    )
    .await?;
    click_xy(c, x, y, sq).await
}

/// The item page's answer is in: its cell's state.
async fn sent_state(c: &Client) -> R<String> {
    until(
        c,
        "the attempt sent",
        "document.querySelector('main').dataset.sent",
    )
    .await?;
    Ok(js(
        c,
        "return document.querySelector('#tr-state').dataset.state",
    )
    .await?
    .as_str()
    .unwrap_or_default()
    .to_string())
}

/// The chosen puzzle solved on the item's board (`hint`: after a hint).
async fn browser_puzzle(c: &Client, url: &str, hint: bool) -> R<String> {
    ready(c, url).await?;
    until(
        c,
        "the solver's turn",
        "document.querySelector('#tr-board').dataset.ready === '1'",
    )
    .await?;
    if hint {
        click(c, "#tr-hint").await?;
        until(
            c,
            "the hint",
            "document.querySelector('#tr-status').textContent.includes('Pista')",
        )
        .await?;
    }
    let p = chosen_puzzle();
    let moves: Vec<String> = p.solution().map(to_uci).collect();
    for (i, mv) in moves.iter().enumerate() {
        if i > 0 {
            until(
                c,
                "the opponent's reply and the solver's turn again",
                &format!(
                    "window.escaqueTareaBoard.state.movable.color && window.escaqueTareaBoard.state.lastMove && window.escaqueTareaBoard.state.lastMove[1] === '{}'",
                    &to_uci(p.moves[2 * i])[2..4]
                ),
            )
            .await?;
        }
        for (k, sq) in [&mv[0..2], &mv[2..4]].into_iter().enumerate() {
            click_square(c, "#tr-board", "escaqueTareaBoard", sq).await?;
            if k == 0 {
                let sel = "document.querySelector('#tr-board cg-board square.selected') !== null";
                if until(c, "the origin selected", sel).await.is_err() {
                    click_square(c, "#tr-board", "escaqueTareaBoard", sq).await?;
                    until(c, "the origin selected", sel).await?;
                }
            }
        }
    }
    sent_state(c).await
}

/// Coordinates: the squares the page asks touched (`wrong`: one wrong
/// square, then "me rindo").
async fn browser_coords(c: &Client, url: &str, count: usize, wrong: bool) -> R<String> {
    ready(c, url).await?;
    click(c, "#tr-coords-start").await?;
    for k in 0..count {
        let target = until(
            c,
            "a square asked",
            "document.querySelector('#tr-board').dataset.target",
        )
        .await?;
        let target = target.as_str().unwrap_or_default().to_string();
        let sq = if wrong {
            if target == "a1" {
                "h8".to_string()
            } else {
                "a1".to_string()
            }
        } else {
            target.clone()
        };
        click_square(c, "#tr-board", "escaqueTareaBoard", &sq).await?;
        if wrong {
            until(
                c,
                "the wrong answer said",
                "document.querySelector('#tr-status').classList.contains('bad')",
            )
            .await?;
            click(c, "#tr-coords-give-up").await?;
            break;
        }
        // The answer is taken before the next square is read.
        until(
            c,
            "the right answer counted",
            &format!(
                "document.querySelector('#tr-board').dataset.right === '{}'",
                k + 1
            ),
        )
        .await?;
    }
    sent_state(c).await
}

/// The stage `tablero` done on the course's own page inside the item.
async fn browser_stage(c: &Client, url: &str) -> R<String> {
    ready(c, url).await?;
    let course = Course::builtin().map_err(|e| e.to_string())?;
    let st = course.stage("tablero").ok_or("no stage tablero")?;
    let n = st.exercises.len();
    for (i, ex) in st.exercises.iter().enumerate() {
        until(
            c,
            "the exercise",
            &format!("document.body.dataset.exercise === '{i}'"),
        )
        .await?;
        match &ex.goal {
            Goal::Square(sq) => {
                click_square(c, "#board", "escaqueAprenderBoard", &sq.to_string()).await?;
            }
            _ => {
                let right = ex.right_options();
                click(c, &format!("#ap-answer [data-option=\"{}\"]", right[0])).await?;
            }
        }
        until(c, "the exercise solved", "document.querySelector('#ap-good') && document.querySelector('#ap-good').dataset.stars").await?;
        if i == 0 {
            shot(c, "tareas-etapa.png").await?;
        }
        if i + 1 < n {
            click(c, "#ap-next-ex").await?;
        }
    }
    sent_state(c).await
}

/// The game item: started from the homework, resigned on /partida after one
/// move each, handed in by the homework page.
async fn browser_game(c: &Client, base: &str, class: &str, hw: &str) -> R<String> {
    ready(c, &format!("{base}/clases/{class}/tareas/{hw}/9")).await?;
    click(c, "#tr-game-start").await?;
    until(
        c,
        "the game page",
        "location.pathname.startsWith('/partida/') && window.escaqueBoard",
    )
    .await?;
    until(c, "the game ready", "document.body.dataset.ready === '1'").await?;
    click_move(c, "e2", "e4").await?;
    wait_plies(c, 2).await?;
    js(c, "window.confirm = () => true; return true").await?;
    click(c, "#resign").await?;
    until(c, "the end", "document.querySelector('.end')").await?;
    ready(c, &format!("{base}/clases/{class}/tareas/{hw}")).await?;
    let st = until(
        c,
        "item 9's card",
        "(document.querySelector('#tr-cards li[data-idx=\"8\"]')||{}).dataset.state",
    )
    .await?;
    Ok(st.as_str().unwrap_or_default().to_string())
}

async fn scenario(base: &str, s: &escaque_server::Running, teacher: &Client, pupil: &Client) -> R {
    let mut c = class_with_pupils(s, 30).await;
    log_in(teacher, base, &c.teacher_name, "contraseña-larga").await?;
    let (hw, actions) = teacher_sets(teacher, base, &c.id).await?;
    if actions > 30 {
        return Err(format!("{actions} actions to set a homework"));
    }
    let view = c.pupils[0]
        .web
        .req("GET", &format!("/api/classes/{}/tareas/{hw}", c.id), None)
        .await
        .json();
    let items = view["items"].as_array().ok_or("no items")?.clone();
    let kinds: Vec<&str> = items
        .iter()
        .map(|i| i["kind"].as_str().unwrap_or(""))
        .collect();
    if kinds
        != [
            "puzzle",
            "puzzle",
            "puzzle",
            "puzzle",
            "puzzle",
            "stage",
            "coords",
            "coords",
            "engine_game",
            "position",
        ]
    {
        return Err(format!("the homework's items: {kinds:?}"));
    }
    if items[2]["reference"] != json!(chosen_puzzle().id) || view["retry"] != json!(true) {
        return Err(format!("the homework: {view}"));
    }

    // Three pupils in the browser.
    let item = |n: usize| format!("{base}/clases/{}/tareas/{hw}/{n}", c.id);
    log_in(pupil, base, &c.pupils[0].name, &c.pupils[0].password).await?;
    ready(pupil, &format!("{base}/clases/{}", c.id)).await?;
    click(pupil, "#link-tareas").await?;
    until(
        pupil,
        "the pupil's homework list",
        "document.querySelector('#tr-list li[data-left=\"10\"]')",
    )
    .await?;
    click(pupil, "#tr-list a.tr-open").await?;
    until(
        pupil,
        "the items",
        "document.querySelectorAll('#tr-cards li').length === 10",
    )
    .await?;
    guide_shot(pupil, "tareas-alumno.png").await?;
    phone(pupil, "tareas-alumno-movil.png").await?;
    let got = browser_puzzle(pupil, &item(3), false).await?;
    shot(pupil, "tareas-problema.png").await?;
    if got != "first_try" {
        return Err(format!("pupil 0's puzzle: {got}"));
    }
    let got = browser_stage(pupil, &item(6)).await?;
    if got != "first_try" {
        return Err(format!("pupil 0's stage: {got}"));
    }
    let got = browser_coords(pupil, &item(7), 4, false).await?;
    if got != "first_try" {
        return Err(format!("pupil 0's coordinates: {got}"));
    }
    let got = browser_game(pupil, base, &c.id, &hw).await?;
    if got != "failed" {
        return Err(format!("pupil 0's game: {got}"));
    }
    // What is left, on the page: ten less the four done (one failed).
    ready(pupil, &format!("{base}/clases/{}/tareas/{hw}", c.id)).await?;
    let left = js(
        pupil,
        "return document.querySelector('#tr-left').dataset.left",
    )
    .await?;
    if left != json!("7") {
        return Err(format!("pupil 0 has {left} left, not 7"));
    }
    shot(pupil, "tareas-alumno-hecho.png").await?;

    log_in(pupil, base, &c.pupils[1].name, &c.pupils[1].password).await?;
    let got = browser_puzzle(pupil, &item(3), true).await?;
    if got != "after_help" {
        return Err(format!("pupil 1's puzzle with a hint: {got}"));
    }
    log_in(pupil, base, &c.pupils[2].name, &c.pupils[2].password).await?;
    let got = browser_coords(pupil, &item(7), 4, true).await?;
    if got != "failed" {
        return Err(format!("pupil 2's wrong square: {got}"));
    }

    // The rest by scripted clients.
    for pi in 0..30 {
        scripted_pupil(s, &mut c, &hw, pi, &items).await;
    }

    // The teacher's grid on the page, cell by cell.
    ready(teacher, &format!("{base}/clases/{}/tareas/{hw}", c.id)).await?;
    until(
        teacher,
        "the grid",
        "document.querySelectorAll('#tr-grid tbody tr').length === 30",
    )
    .await?;
    let page = js(
        teacher,
        "return [...document.querySelectorAll('#tr-grid tbody tr')].map(tr => ({name: tr.dataset.pupil,
           cells: [...tr.querySelectorAll('td.tr-cell')].map(td => td.dataset.state + (td.dataset.overdue === '1' ? '!' : '')),
           average: Number(tr.querySelector('td.tr-avg').dataset.average)}))",
    )
    .await?;
    let rows = page.as_array().ok_or("no rows")?;
    let mut item_scores: Vec<Vec<u32>> = vec![Vec::new(); 10];
    for (pi, p) in c.pupils.iter().enumerate() {
        let row = rows
            .iter()
            .find(|r| r["name"] == json!(p.name))
            .ok_or_else(|| format!("no row for {}", p.name))?;
        let mut scores = Vec::new();
        for ii in 0..10 {
            let w = want(pi, ii);
            if row["cells"][ii] != json!(w) {
                return Err(format!(
                    "pupil {pi} item {ii}: the page shows {}, not {w}",
                    row["cells"][ii]
                ));
            }
            scores.push(score(w));
            item_scores[ii].push(score(w));
        }
        if row["average"] != json!(mean(&scores)) {
            return Err(format!(
                "pupil {pi}'s average: {} not {}",
                row["average"],
                mean(&scores)
            ));
        }
    }
    let foot = js(
        teacher,
        "return [...document.querySelectorAll('#tr-averages td.tr-avg')].map(td => Number(td.dataset.average))",
    )
    .await?;
    let want_foot: Vec<u32> = item_scores.iter().map(|v| mean(v)).collect();
    if foot != json!(want_foot) {
        return Err(format!("the items' averages: {foot} not {want_foot:?}"));
    }
    guide_shot(teacher, "tareas-cuadricula.png").await?;
    phone(teacher, "tareas-cuadricula-movil.png").await?;

    // A cell opens the attempt move by move: pupil 0's puzzle.
    click(
        teacher,
        &format!(
            "#tr-grid tr[data-pupil=\"{}\"] td.tr-cell[data-idx=\"2\"] button",
            c.pupils[0].name
        ),
    )
    .await?;
    until(
        teacher,
        "the attempt's board",
        "document.querySelector('#tr-replay-board[data-ply=\"0\"]')",
    )
    .await?;
    let n = chosen_puzzle().moves.len();
    let shown = js(
        teacher,
        "return document.querySelectorAll('#tr-replay-moves button').length",
    )
    .await?;
    if shown != json!(n) {
        return Err(format!("the attempt shows {shown} moves, not {n}"));
    }
    click(teacher, "#tr-next").await?;
    click(teacher, "#tr-next").await?;
    until(
        teacher,
        "the second move shown",
        "document.querySelector('#tr-replay-board[data-ply=\"2\"]')",
    )
    .await?;
    let placement = js(
        teacher,
        "return window.escaqueReplay ? window.escaqueReplay.getFen() : ''",
    )
    .await?;
    let pos = chosen_puzzle().positions()[2].to_fen();
    let want_placement = pos.split(' ').next().unwrap_or_default();
    if placement != json!(want_placement) {
        return Err(format!(
            "the board after two moves: {placement} not {want_placement}"
        ));
    }
    shot(teacher, "tareas-intento.png").await?;

    // The CSV the page links equals the grid on the page.
    let csv = teacher
        .execute_async(
            "const done = arguments[0]; fetch(document.querySelector('#tr-csv').href).then(r => r.text()).then(done);",
            vec![],
        )
        .await
        .map_err(|e| e.to_string())?;
    let csv = csv.as_str().ok_or("no CSV")?.to_string();
    let lines: Vec<&str> = csv.lines().collect();
    if lines.len() != 32 {
        return Err(format!("the CSV has {} lines", lines.len()));
    }
    for (li, row) in rows.iter().enumerate() {
        let f: Vec<&str> = lines[li + 1].split(',').collect();
        if f[0] != row["name"].as_str().unwrap_or_default() {
            return Err(format!("CSV line {li}: {} is not {}", f[0], row["name"]));
        }
        for ii in 0..10 {
            let word = match row["cells"][ii].as_str().unwrap_or_default() {
                "first_try" => "primera",
                "after_help" => "con ayuda",
                "failed" => "fallada",
                _ => "sin hacer",
            };
            if f[2 + ii] != word {
                return Err(format!("CSV line {li} item {ii}: {} not {word}", f[2 + ii]));
            }
        }
        let average = row["average"].to_string();
        if f[12] != average {
            return Err(format!(
                "CSV line {li}: average {} not {}",
                f[12], row["average"]
            ));
        }
    }
    let last: Vec<&str> = lines[31].split(',').collect();
    for (ii, avg) in want_foot.iter().enumerate() {
        if last[2 + ii] != avg.to_string() {
            return Err(format!(
                "CSV averages: item {ii} {} not {avg}",
                last[2 + ii]
            ));
        }
    }

    // The PDF renders.
    let href = js(
        teacher,
        "return document.querySelector('#tr-pdf').getAttribute('href')",
    )
    .await?;
    let pdf = escaque_server::client::http_raw(
        s.addr,
        &s.addr.to_string(),
        "GET",
        href.as_str().unwrap_or_default(),
        None,
        &[("Cookie", &c.teacher.cookies.join("; "))],
    )
    .await
    .map_err(|e| e.to_string())?;
    if pdf.status != 200 || !pdf.body.starts_with(b"%PDF") {
        return Err(format!("the PDF: {}", pdf.status));
    }
    render_pdf(&pdf.body, "tareas-navegador-cuadricula");
    play_after_step(base, s, teacher, pupil).await
}

/// "Juego tras la tarea" in the browser, on a class of its own (the big
/// homework holds all 30 pupils of the other until it is over): the
/// teacher ticks it on the class page; the pupil's home page shows free
/// play held, with the homework, and its play buttons off; the pupil does
/// the homework (coordinates on the board) and the home page opens: a game
/// against the engine starts.
async fn play_after_step(
    base: &str,
    s: &escaque_server::Running,
    teacher: &Client,
    pupil: &Client,
) -> R {
    let mut k = class_with_pupils(s, 1).await;
    let due = escaque_server::store::now_ms() + 86_400_000;
    let r = k
        .teacher
        .post(
            &format!("/api/classes/{}/tareas", k.id),
            json!({"title": "Antes de jugar", "due_ms": due,
                   "items": [{"kind": "coords", "mode": "buscar", "count": 3}]}),
        )
        .await;
    if r.status != 201 {
        return Err(format!("the small homework: {}", r.body));
    }
    let hw = r.json()["id"].as_str().unwrap_or_default().to_string();
    log_in(teacher, base, &k.teacher_name, "contraseña-larga").await?;
    ready(teacher, &format!("{base}/clases/{}", k.id)).await?;
    until(
        teacher,
        "the option's switch",
        "document.querySelector('#play-after')",
    )
    .await?;
    if js(
        teacher,
        "return document.querySelector('#play-after').checked",
    )
    .await?
        != json!(false)
    {
        return Err("juego tras la tarea is on before anybody ticked it".into());
    }
    click(teacher, "#play-after").await?;
    until(
        teacher,
        "the option on",
        "document.querySelector('#play-after-msg').textContent.startsWith('Activado')",
    )
    .await?;
    shot(teacher, "tareas-juego-docente.png").await?;
    let on = k
        .teacher
        .req(
            "GET",
            &format!("/api/classes/{}/juego-tras-tarea", k.id),
            None,
        )
        .await
        .json();
    if on["on"] != json!(true) {
        return Err(format!("the option after the click: {on}"));
    }
    log_in(pupil, base, &k.pupils[0].name, &k.pupils[0].password).await?;
    ready(pupil, &format!("{base}/")).await?;
    let why = until(
        pupil,
        "free play held",
        "document.querySelector('#play-locked-why') && document.querySelector('#play-locked-why').textContent",
    )
    .await?;
    if !why.as_str().unwrap_or("").contains("Antes de jugar") {
        return Err(format!("the reason shown: {why}"));
    }
    if js(
        pupil,
        "return document.querySelector('#start-engine').disabled",
    )
    .await?
        != json!(true)
    {
        return Err("the engine's button is on while the homework is open".into());
    }
    guide_shot(pupil, "tareas-juego-bloqueado.png").await?;
    phone(pupil, "tareas-juego-bloqueado-movil.png").await?;
    let got = browser_coords(
        pupil,
        &format!("{base}/clases/{}/tareas/{hw}/1", k.id),
        3,
        false,
    )
    .await?;
    if got != "first_try" {
        return Err(format!("the small homework's coordinates: {got}"));
    }
    ready(pupil, &format!("{base}/")).await?;
    until(
        pupil,
        "free play open",
        "document.querySelector('#play-open')",
    )
    .await?;
    if js(
        pupil,
        "return document.querySelector('#start-engine').disabled",
    )
    .await?
        != json!(false)
    {
        return Err("the engine's button is off after the homework".into());
    }
    shot(pupil, "tareas-juego-abierto.png").await?;
    click(pupil, "#start-engine").await?;
    until(
        pupil,
        "a free game after the homework",
        "location.pathname.startsWith('/partida/')",
    )
    .await?;
    Ok(())
}

#[test]
fn browser_tareas() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-tareas-test", 1000.0).await;
        let base = format!("http://{}", server.addr);
        let teacher = browser(port, "es", &dir.join("t")).await;
        let pupil = browser(port, "es", &dir.join("p")).await;
        let r = scenario(&base, &server, &teacher, &pupil).await;
        if r.is_err() {
            let _ = shot(&teacher, "failed-tareas-docente.png").await;
            let _ = shot(&pupil, "failed-tareas-alumno.png").await;
        }
        let _ = teacher.close().await;
        let _ = pupil.close().await;
        let _ = std::fs::remove_dir_all(&dir);
        r.unwrap();
    });
}
