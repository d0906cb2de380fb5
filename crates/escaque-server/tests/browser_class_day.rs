//! A class's day in a real browser (issue 26), end to end, composed from
//! the steps of the class tests: a teacher creates a class of 12 from a
//! pasted list and prints the login cards (the PDF's 12 QR codes decoded
//! back to the pupils' login links); six pupils log in, each in its own
//! browser, through the link of its card and the class code; two of them
//! play a game the teacher starts; the teacher runs a 3-round class Swiss
//! with the six and a 4-board simul; the progress table shows what
//! happened. Every browser is its own Chromium session (its own cookies).
//!
//! The screenshots the teacher's guide shows are taken here
//! (`ESCAQUE_GUIDE_SHOTS=1` copies them into `docs/img/clases/`).

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{
    browser, click, drag_move, guide_shot, js, ready, runtime, start_driver, start_server, until,
    wait_plies, R,
};
use crate::browser_class_events::{check_progress, start_class_tournament};
use crate::browser_classes::{
    add_pupils, class_code, create_class, online_in_roster, pupil_login, start_pupil_game,
    teacher_account,
};
use crate::browser_simul::{board_of, current_board, host_move, start_simul, until_over};
use crate::class_cards::{cards_pdf_from, link, print_cards, scan_pdf};

/// The pasted list, as a teacher copies it from the school's roll.
const ROLL: [&str; 12] = [
    "Abril Fernández",
    "Bautista Gómez",
    "Camila Rodríguez",
    "Dante López",
    "Emma Martínez",
    "Felipe García",
    "Guadalupe Pérez",
    "Hernán Sánchez",
    "Inés Romero",
    "Julián Díaz",
    "Lola Álvarez",
    "Martín Ñúñez",
];

/// The page's game (`/partida/ID`) once it is a new one (not in `seen`)
/// and its board is up.
async fn new_game(c: &Client, seen: &HashSet<String>) -> R<String> {
    let seen: Vec<&String> = seen.iter().collect();
    let v = until(
        c,
        "taken to a new game",
        &format!(
            "(() => {{ const seen = {}; const m = location.pathname.match(/^\\/partida\\/([A-Za-z0-9]+)$/);
               return m && !seen.includes(m[1]) && document.body.dataset.ready === '1'
                 && document.querySelector('cg-board') ? m[1] : null; }})()",
            json!(seen)
        ),
    )
    .await?;
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("no game: {v}"))
}

/// What the server answers to `GET path`, asked by the page (its cookies).
async fn api_get(c: &Client, path: &str) -> R<Value> {
    let v = c
        .execute_async(
            "const [path, done] = arguments;
             fetch(path).then(r => r.json()).then(done).catch(e => done({error: String(e)}));",
            vec![json!(path)],
        )
        .await
        .map_err(|e| e.to_string())?;
    if v.get("error").is_some() {
        return Err(format!("{path}: {v}"));
    }
    Ok(v)
}

/// The game as the server has it.
async fn game_state(c: &Client, id: &str) -> R<Value> {
    api_get(c, &format!("/api/games/{id}")).await
}

/// White plays 1.e4, Black 1…e5 and resigns, each from its own browser.
async fn e4_e5_resign(white: &Client, black: &Client) -> R {
    wait_plies(white, 0).await?;
    drag_move(white, "e2", "e4").await?;
    wait_plies(black, 1).await?;
    drag_move(black, "e7", "e5").await?;
    wait_plies(white, 2).await?;
    js(black, "window.confirm = () => true; return 1").await?;
    click(black, "#resign").await?;
    until(
        white,
        "the end",
        "!document.querySelector('#end-message').hidden",
    )
    .await?;
    Ok(())
}

async fn day(
    base: &str,
    server: &escaque_server::Running,
    teacher: &Client,
    pupils: &[Client],
) -> R {
    // The teacher's class of 12, from a pasted list.
    teacher_account(teacher, base, server, "ProfeLucia").await?;
    let class = create_class(teacher, base, "5º A", "Ajedrez los jueves, 2.ª hora").await?;
    let added = add_pupils(teacher, &ROLL).await?;
    if added.len() != 12 {
        return Err(format!("{} pupils added", added.len()));
    }
    guide_shot(teacher, "clase-nueva.png").await?;
    let real_of: HashMap<String, String> = added
        .iter()
        .map(|a| (a.name.clone(), a.real_name.clone()))
        .collect();

    // The cards: 12 in the PDF, each QR code read back to its pupil's link.
    let pdf = cards_pdf_from(teacher, base, &class).await?;
    let mut scanned = scan_pdf(&pdf, 12);
    let mut want: Vec<String> = added
        .iter()
        .map(|a| link(server.addr, &class, &a.name))
        .collect();
    let printed_order = scanned.clone();
    scanned.sort();
    want.sort();
    if scanned != want {
        return Err(format!(
            "the QR codes read {scanned:?}, the links are {want:?}"
        ));
    }
    print_cards(teacher, base, &class, &printed_order).await?;
    ready(teacher, &format!("{base}/clases/{class}")).await?;
    let code = class_code(teacher).await?;

    // Six pupils log in, each from its card's link, with the class code.
    let six: Vec<String> = printed_order
        .iter()
        .take(6)
        .map(|l| l.rsplit("alumno=").next().unwrap_or("").to_string())
        .collect();
    for (i, (c, name)) in pupils.iter().zip(&six).enumerate() {
        if i == 0 {
            ready(c, &format!("{base}/clase/{class}/entrar?alumno={name}")).await?;
            until(
                c,
                "the names",
                "document.querySelector('#login-pupils button')",
            )
            .await?;
            guide_shot(c, "entrar.png").await?;
        }
        pupil_login(c, base, &class, name, &code.to_lowercase(), true).await?;
        // A pupil's page never shows a real name.
        let text = js(c, "return document.body.textContent").await?;
        let text = text.as_str().unwrap_or("");
        if let Some(real) = real_of.values().find(|r| text.contains(r.as_str())) {
            return Err(format!("a pupil's page shows the real name {real}"));
        }
    }
    ready(teacher, &format!("{base}/clases/{class}")).await?;
    let mut online = Vec::new();
    for _ in 0..40 {
        online = online_in_roster(teacher).await?;
        if online.len() == 6 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        ready(teacher, &format!("{base}/clases/{class}")).await?;
    }
    let mut want_online = six.clone();
    want_online.sort();
    online.sort();
    if online != want_online {
        return Err(format!("online {online:?}, logged in {want_online:?}"));
    }
    guide_shot(teacher, "clase-docente.png").await?;
    let by_name: HashMap<&str, &Client> = six.iter().map(String::as_str).zip(pupils).collect();

    // Two pupils play a game the teacher starts: 1.f3 e5 2.g4 Dh4#.
    let mut seen = HashSet::new();
    let first = start_pupil_game(teacher, &six[0], &six[1], "").await?;
    let (w, b) = (&pupils[0], &pupils[1]);
    for c in [w, b] {
        let g = new_game(c, &seen).await?;
        if g != first {
            return Err(format!("taken to {g}, the teacher started {first}"));
        }
    }
    seen.insert(first.clone());
    drag_move(w, "f2", "f3").await?;
    wait_plies(b, 1).await?;
    drag_move(b, "e7", "e5").await?;
    wait_plies(w, 2).await?;
    drag_move(w, "g2", "g4").await?;
    wait_plies(b, 3).await?;
    drag_move(b, "d8", "h4").await?;
    until(
        w,
        "the mate",
        "!document.querySelector('#end-message').hidden",
    )
    .await?;
    let st = game_state(teacher, &first).await?;
    if st["result"] != "0-1" {
        return Err(format!("the pupils' game: {st}"));
    }

    // A 3-round class Swiss with the six: every game played from the
    // pupils' own browsers (1.e4 e5, Black resigns).
    let tournament = start_class_tournament(teacher, base, &class, &six, 3, None).await?;
    guide_shot(teacher, "torneo-clase.png").await?;
    let mut swiss_games = Vec::new();
    for round in 1..=3 {
        let mut boards: HashMap<String, Vec<&str>> = HashMap::new();
        for name in &six {
            let g = new_game(by_name[name.as_str()], &seen).await?;
            boards.entry(g).or_default().push(name);
        }
        if boards.len() != 3 || boards.values().any(|v| v.len() != 2) {
            return Err(format!("round {round}: {boards:?}"));
        }
        for (g, _) in boards {
            let st = game_state(teacher, &g).await?;
            let (wn, bn) = (
                st["white"]["name"].as_str().unwrap_or("").to_string(),
                st["black"]["name"].as_str().unwrap_or("").to_string(),
            );
            let (Some(wc), Some(bc)) = (by_name.get(wn.as_str()), by_name.get(bn.as_str())) else {
                return Err(format!("round {round}: {g} seats {wn} and {bn}"));
            };
            e4_e5_resign(wc, bc).await?;
            seen.insert(g.clone());
            swiss_games.push(g);
        }
    }
    let mut status = Value::Null;
    for _ in 0..100 {
        status =
            api_get(teacher, &format!("/api/tournaments/{tournament}")).await?["status"].clone();
        if status == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    if status != "finished" || swiss_games.len() != 9 {
        return Err(format!("the Swiss: {status}, {} games", swiss_games.len()));
    }

    // A 4-board simul: the teacher (White) against four of the six; the
    // teacher opens each board, each pupil answers and resigns.
    let simul_pupils: Vec<&str> = six.iter().skip(2).map(String::as_str).collect();
    let simul = start_simul(teacher, base, &class, &simul_pupils, "", "white").await?;
    for name in &simul_pupils {
        let c = by_name[name];
        let g = new_game(c, &seen).await?;
        seen.insert(g);
    }
    // From board to board: the page puts the next board waiting for the
    // teacher in front.
    for _ in 0..simul_pupils.len() {
        let n = current_board(teacher).await?;
        host_move(teacher, n, "d2", "d4").await?;
        let name = js(
            teacher,
            &format!(
                "return document.querySelector('.simul-board[data-board=\"{n}\"]').dataset.pupil"
            ),
        )
        .await?;
        let c = by_name
            .get(name.as_str().unwrap_or(""))
            .ok_or_else(|| format!("board {n} is {name}'s"))?;
        wait_plies(c, 1).await?;
        drag_move(c, "d7", "d5").await?;
    }
    guide_shot(teacher, "simultanea.png").await?;
    for name in &simul_pupils {
        let c = by_name[name];
        wait_plies(c, 2).await?;
        js(c, "window.confirm = () => true; return 1").await?;
        click(c, "#resign").await?;
        let n = board_of(teacher, name).await?;
        until_over(teacher, n).await?;
    }
    let grid = api_get(teacher, &format!("/api/simuls/{simul}")).await?;
    if grid["score"] != json!({"host": 4.0, "pupils": 0.0})
        && grid["score"] != json!({"host": 4, "pupils": 0})
    {
        return Err(format!("the simul's score: {}", grid["score"]));
    }

    // The progress table: what each of the six played today.
    let games: Vec<(String, u64)> = six
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let teacher_game = u64::from(i < 2);
            let simul_game = u64::from(i >= 2);
            (n.clone(), teacher_game + 3 + simul_game)
        })
        .collect();
    check_progress(teacher, base, &class, &games, Some("progreso")).await?;
    guide_shot(teacher, "progreso.png").await?;
    Ok(())
}

#[test]
fn a_class_day() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-dia-de-clase", 5000.0).await;
        let downloads = dir.join("downloads");
        let teacher = browser(port, "es", &downloads.join("docente")).await;
        let mut pupils = Vec::new();
        for i in 0..6 {
            pupils.push(browser(port, "es", &downloads.join(format!("alumno{i}"))).await);
        }
        let r = tokio::time::timeout(
            Duration::from_secs(420),
            day(
                &format!("http://{}", server.addr),
                &server,
                &teacher,
                &pupils,
            ),
        )
        .await
        .unwrap_or_else(|_| Err("took more than 420 s".into()));
        if r.is_err() {
            let _ = crate::browser::shot(&teacher, "failed-dia-docente.png").await;
            for (i, p) in pupils.iter().enumerate() {
                let _ = crate::browser::shot(p, &format!("failed-dia-alumno{i}.png")).await;
            }
        }
        let _ = teacher.close().await;
        for p in pupils {
            let _ = p.close().await;
        }
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(e) = r {
            panic!("a class's day: {e}");
        }
    });
}
