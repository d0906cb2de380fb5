//! The analysis pages in a real browser (issue 27), with the WebDriver
//! helpers of `browser.rs`. A finished game with a real blunder (1.e4 e5
//! 2.Bc4 Nc6 3.Qh5 Nf6?? 4.Qxf7#, the browser's guest playing Black) is
//! analysed from its replay page: the graph is drawn with a blunder's dot,
//! a click on the dot goes to that move, the arrow keys step through the
//! plies, the move list shows `??` with "Era mejor …" and the engine's line;
//! "Aprende de tus errores" is played through once (a wrong try, then the
//! engine's move); the analysis board lists the engine's lines and draws
//! them as arrows, and follows a move made on it; the page reads in
//! English too; on /analisis a pasted PGN is analysed and the FEN box's
//! board shows its lines. Screenshots at desktop and phone sizes go to
//! `target/screenshots/analisis-*.png` (and with `ESCAQUE_GUIDE_SHOTS=1`
//! to `docs/img/analisis/`, the user guide's pictures).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{
    browser, click, click_xy, js, ready, runtime, shot, shots_dir, square_centre, start_driver,
    start_server, until, R,
};
use crate::common::{play_line, Browser, Player};

/// The game: Black's third move lets White mate at once.
const GAME: [&str; 7] = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"];
/// The blunder's index in the analysis's `plies`.
const BLUNDER: usize = 5;

/// A screenshot for the user guide (docs/guia-analisis.md): under
/// `target/screenshots/` as any other, and with `ESCAQUE_GUIDE_SHOTS=1`
/// also in `docs/img/analisis/`.
async fn guide_shot(c: &Client, name: &str) -> R {
    shot(c, name).await?;
    if std::env::var_os("ESCAQUE_GUIDE_SHOTS").is_some() {
        let guide = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/img/analisis");
        std::fs::create_dir_all(&guide).map_err(|e| e.to_string())?;
        std::fs::copy(shots_dir().join(name), guide.join(name))
            .map_err(|e| format!("copy to the guide: {e}"))?;
    }
    Ok(())
}

/// Waits up to `secs` seconds for `expr` (an analysis takes its time).
async fn until_long(c: &Client, what: &str, expr: &str, secs: u64) -> R<Value> {
    let t0 = Instant::now();
    loop {
        match until(c, what, expr).await {
            Ok(v) => return Ok(v),
            Err(e) if t0.elapsed() > Duration::from_secs(secs) => return Err(e),
            Err(_) => {}
        }
    }
}

/// The centre of a square of the analysis board.
async fn an_square(c: &Client, sq: &str) -> R<(f64, f64)> {
    square_centre(
        c,
        "const b = document.querySelector('#an-board cg-board').getBoundingClientRect();
         const white = window.escaqueAnalysis.state.orientation === 'white';",
        sq,
    )
    .await
}

/// A move on the analysis board: the origin clicked, then the destination.
async fn an_move(c: &Client, uci: &str) -> R {
    for sq in [&uci[0..2], &uci[2..4]] {
        let (x, y) = an_square(c, sq).await?;
        click_xy(c, x, y, sq).await?;
    }
    Ok(())
}

/// Presses one key on whatever has the focus.
async fn key(c: &Client, k: char) -> R {
    let a = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: k })
        .then(KeyAction::Up { value: k });
    c.perform_actions(a).await.map_err(|e| format!("key: {e}"))
}

/// A fetch from the page (its cookies): the JSON answer and the status.
async fn fetch(c: &Client, method: &str, url: &str, body: Value) -> R<Value> {
    c.execute_async(
        "const [method, url, body, done] = arguments;
         const opts = {method, headers: {'Content-Type': 'application/json'}};
         if (method !== 'GET') opts.body = JSON.stringify(body);
         fetch(url, opts).then(async r => done({status: r.status, body: await r.json().catch(() => null)}))
           .catch(e => done({status: 0, body: String(e)}));",
        vec![json!(method), json!(url), body],
    )
    .await
    .map_err(|e| e.to_string())
}

/// The text of the first element `css` selects ('' when none).
async fn text_of(c: &Client, css: &str) -> R<String> {
    Ok(js(
        c,
        &format!(
            "const e = document.querySelector({}); return e ? e.textContent : ''",
            json!(css)
        ),
    )
    .await?
    .as_str()
    .unwrap_or_default()
    .to_string())
}

/// The browser's guest creates a friend game playing Black; a second
/// person joins as White; the game is played to mate over the sockets.
async fn finished_game(base: &str, addr: std::net::SocketAddr, c: &Client) -> R<String> {
    ready(c, &format!("{base}/")).await?;
    let created = fetch(
        c,
        "POST",
        "/api/games",
        json!({"opponent": "friend", "color": "black"}),
    )
    .await?;
    if created["status"] != 201 {
        return Err(format!("the challenge: {created}"));
    }
    let created = created["body"].clone();
    let game = created["game"].as_str().unwrap_or_default().to_string();
    let mut friend = Browser::new(addr);
    let joined = friend
        .post(&format!("/api/games/{game}/join"), json!({}))
        .await;
    if joined.status != 200 {
        return Err(format!("join: {} {}", joined.status, joined.body));
    }
    let mut black = Player::connect(addr, &created).await;
    let mut white = Player::connect(addr, &joined.json()).await;
    play_line(&mut white, &mut black, &GAME).await;
    white.event("end").await;
    Ok(game)
}

async fn scenario(base: &str, addr: std::net::SocketAddr, c: &Client) -> R {
    let game = finished_game(base, addr, c).await?;

    // "Analizar la partida" on the replay page and on the finished game's
    // page; from the game's page, the progress, then the view.
    ready(c, &format!("{base}/mis-partidas/{game}")).await?;
    until(
        c,
        "the replay page's button",
        "document.querySelector('#analyse-game')",
    )
    .await?;
    ready(c, &format!("{base}/partida/{game}")).await?;
    until(
        c,
        "the finished game's button",
        "document.querySelector('#end-message:not([hidden])') && document.querySelector('#analyse-game')",
    )
    .await?;
    shot(c, "analisis-boton-partida.png").await?;
    click(c, "#analyse-game").await?;
    until(
        c,
        "the analysis page",
        "location.pathname.startsWith('/analisis/') && document.body.dataset.ready === '1'",
    )
    .await?;
    let aid = js(c, "return location.pathname.split('/').pop()").await?;
    let aid = aid.as_str().unwrap_or_default().to_string();
    // While queued or running, a progress bar (an analysis this short may
    // be done before the first look: then the view is there already).
    let first = until(
        c,
        "the progress or the view",
        "document.querySelector('#an-progress') ? 'progress' : (document.querySelector('#an-graph') ? 'view' : null)",
    )
    .await?;
    if first == "progress" {
        shot(c, "analisis-progreso.png").await?;
    }
    until_long(
        c,
        "the graph",
        "document.querySelector('#an-graph circle.an-mark')",
        120,
    )
    .await?;
    let view = fetch(c, "GET", &format!("/api/analysis/{aid}"), Value::Null).await?;
    let plies = view["body"]["analysis"]["plies"].clone();
    // The opening, named in the page's language.
    let opening = &view["body"]["opening"];
    if !opening.is_null() {
        let shown = text_of(c, "#an-opening").await?;
        let want = format!(
            "{} · {}",
            opening["eco"].as_str().unwrap_or_default(),
            opening["name_es"].as_str().unwrap_or_default()
        );
        if shown != want {
            return Err(format!("the opening: {shown:?}, want {want:?}"));
        }
    }
    if plies[BLUNDER]["judgement"] != "blunder" {
        return Err(format!("3…Nf6 is not a blunder: {}", plies[BLUNDER]));
    }
    let best = plies[BLUNDER]["best"]
        .as_str()
        .ok_or("no better move for 3…Nf6")?
        .to_string();
    let best_es = plies[BLUNDER]["best_san_es"]
        .as_str()
        .unwrap_or_default()
        .to_string();

    // The graph: one dot per marked move, the blunder's red.
    let dots = js(
        c,
        "return [...document.querySelectorAll('#an-graph circle.an-mark')].map(e => e.getAttribute('class') + ' ' + e.dataset.ply)",
    )
    .await?;
    let marked: Vec<usize> = (0..GAME.len())
        .filter(|&i| !plies[i]["judgement"].is_null())
        .collect();
    if dots.as_array().map(Vec::len) != Some(marked.len())
        || !dots
            .as_array()
            .ok_or("no dots")?
            .iter()
            .any(|d| d == &json!(format!("an-mark an-blunder {BLUNDER}")))
    {
        return Err(format!(
            "the graph's dots: {dots} (marked plies {marked:?})"
        ));
    }
    // The move list: `??` on 3…Cf6, "Era mejor …" and the line under it.
    let sym = text_of(
        c,
        &format!("#an-moves button.mv[data-ply='{BLUNDER}'] .an-sym"),
    )
    .await?;
    if sym != "??" {
        return Err(format!("the blunder's mark: {sym:?}"));
    }
    let mv = text_of(c, &format!("#an-moves button.mv[data-ply='{BLUNDER}']")).await?;
    if mv != "Cf6??" {
        return Err(format!("the blunder in the move list: {mv:?}"));
    }
    let better = text_of(c, &format!(".an-note[data-ply='{BLUNDER}'] .an-better")).await?;
    if better != format!("Era mejor {best_es}") {
        return Err(format!("the better move: {better:?}, want {best_es}"));
    }
    let line = text_of(c, &format!(".an-note[data-ply='{BLUNDER}'] .an-line")).await?;
    if !line.contains(&format!("3… {best_es}")) {
        return Err(format!("the engine's line: {line:?}"));
    }
    let acc = text_of(c, "#an-acc-black").await?;
    if !acc.ends_with(" %") || acc.trim_end_matches(" %").parse::<u32>().is_err() {
        return Err(format!("Black's accuracy: {acc:?}"));
    }
    let pgn = js(
        c,
        "return document.querySelector('#an-pgn-es').getAttribute('href')",
    )
    .await?;
    if pgn != json!(format!("/api/analysis/{aid}/pgn?lang=es")) {
        return Err(format!("the annotated PGN's link: {pgn}"));
    }
    let got = fetch(
        c,
        "GET",
        &format!("/api/analysis/{aid}/pgn?lang=es"),
        Value::Null,
    )
    .await?;
    if got["status"] != 200 {
        return Err(format!("the annotated PGN: {got}"));
    }

    // A click on the blunder's dot goes to that move; the arrow keys step.
    let xy = js(
        c,
        &format!(
            "const r = document.querySelector('#an-graph circle.an-blunder[data-ply=\"{BLUNDER}\"]').getBoundingClientRect();
             return [r.left + r.width / 2, r.top + r.height / 2];"
        ),
    )
    .await?;
    click_xy(
        c,
        xy[0].as_f64().ok_or("x")?,
        xy[1].as_f64().ok_or("y")?,
        "the blunder's dot",
    )
    .await?;
    until(
        c,
        "the blunder shown",
        &format!("document.querySelector('#an-moves .mv.current[data-ply=\"{BLUNDER}\"]')"),
    )
    .await?;
    js(c, "window.scrollTo(0, 0); return null").await?;
    guide_shot(c, "analisis-partida.png").await?;
    let fen = js(c, "return window.escaqueAnalysis.getFen()").await?;
    if fen
        != json!(plies[BLUNDER]["fen"]
            .as_str()
            .unwrap_or("")
            .split(' ')
            .next()
            .unwrap_or(""))
    {
        return Err(format!("the board after 3…Cf6: {fen}"));
    }
    js(
        c,
        "document.activeElement && document.activeElement.blur(); return null",
    )
    .await?;
    key(c, '\u{E012}').await?; // ←
    until(
        c,
        "one ply back",
        &format!(
            "document.querySelector('#an-moves .mv.current[data-ply=\"{}\"]')",
            BLUNDER - 1
        ),
    )
    .await?;
    key(c, '\u{E014}').await?; // →
    until(
        c,
        "one ply on",
        &format!("document.querySelector('#an-moves .mv.current[data-ply=\"{BLUNDER}\"]')"),
    )
    .await?;

    // Aprende de tus errores: the viewer played Black, so Black's marks.
    click(c, "#an-learn").await?;
    let mut tried_wrong = false;
    loop {
        let item = until(
            c,
            "a mistake to find again, or the summary",
            "document.querySelector('#an-learn-summary') ? 'end'
               : (document.querySelector('#an-learn-panel').dataset.ready === '1' && document.querySelector('#an-learn-panel').dataset.ply)",
        )
        .await?;
        if item == "end" {
            break;
        }
        let k: usize = item
            .as_str()
            .unwrap_or("")
            .parse()
            .map_err(|_| format!("ply {item}"))?;
        if k == BLUNDER {
            // A wrong try first: a7-a6 leaves f7 to the queen.
            an_move(c, "a7a6").await?;
            until(
                c,
                "the wrong try's verdict",
                "document.querySelector('#an-learn-verdict').dataset.verdict === 'not_yet'",
            )
            .await?;
            js(c, "window.scrollTo(0, 0); return null").await?;
            guide_shot(c, "analisis-aprende-intento.png").await?;
            click(c, "#an-learn-retry").await?;
            until(
                c,
                "the position again",
                "document.querySelector('#an-learn-panel').dataset.ready === '1' && window.escaqueAnalysis.state.movable.color === 'black'",
            )
            .await?;
            an_move(c, &best).await?;
            until(
                c,
                "the right move's verdict",
                "document.querySelector('#an-learn-verdict').dataset.verdict === 'best'",
            )
            .await?;
            tried_wrong = true;
            js(c, "window.scrollTo(0, 0); return null").await?;
            guide_shot(c, "analisis-aprende.png").await?;
        } else {
            click(c, "#an-learn-solution").await?;
            until(
                c,
                "the solution",
                "document.querySelector('#an-learn-verdict').dataset.verdict === 'solution'",
            )
            .await?;
        }
        click(c, "#an-learn-next").await?;
    }
    if !tried_wrong {
        return Err("3…Cf6 was not among the mistakes to learn from".into());
    }
    let summary = text_of(c, "#an-learn-summary").await?;
    if !summary.contains("después de intentarlo 1") {
        return Err(format!("the review's summary: {summary:?}"));
    }
    click(c, "#an-learn-stop").await?;

    // The analysis board after 3.Dh5: the engine's lines, listed and drawn.
    click(
        c,
        &format!("#an-moves button.mv[data-ply='{}']", BLUNDER - 1),
    )
    .await?;
    click(c, "#an-explore").await?;
    until_long(
        c,
        "the engine's lines",
        "document.querySelector('#an-lines').dataset.ready === '1' && document.querySelectorAll('#an-lines li.an-line-item').length >= 1
           && window.escaqueAnalysis.state.drawable.autoShapes.length >= 1",
        60,
    )
    .await?;
    let first = text_of(c, "#an-lines li.an-line-item").await?;
    if first.trim().is_empty() {
        return Err("an empty line".into());
    }
    js(c, "window.scrollTo(0, 0); return null").await?;
    guide_shot(c, "analisis-tablero.png").await?;
    // A move on the board: g7-g6 (the queen is attacked); the lines follow.
    let before = js(c, "return document.querySelector('#an-lines').dataset.fen").await?;
    an_move(c, "g7g6").await?;
    until_long(
        c,
        "the lines after g6",
        &format!(
            "document.querySelector('#an-lines').dataset.ready === '1' && document.querySelector('#an-lines').dataset.fen !== {before}
               && document.querySelector('#an-lines').dataset.fen.startsWith('r1bqkbnr/pppp1p1p/2n3p1/')
               && document.querySelectorAll('#an-lines li.an-line-item').length >= 1"
        ),
        60,
    )
    .await?;

    // Phone size: the board, then the graph and the moves below it.
    c.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    click(c, "#an-explore").await?;
    tokio::time::sleep(Duration::from_millis(400)).await;
    js(c, "window.scrollTo(0, 0); return null").await?;
    guide_shot(c, "analisis-movil.png").await?;
    js(
        c,
        "document.querySelector('#an-graph').scrollIntoView(); return null",
    )
    .await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    guide_shot(c, "analisis-movil-grafica.png").await?;
    c.set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;

    // The same page in English.
    ready(c, &format!("{base}/analisis/{aid}?lang=en")).await?;
    until_long(
        c,
        "the English page",
        "document.querySelector('.an-better')",
        30,
    )
    .await?;
    let better = text_of(c, &format!(".an-note[data-ply='{BLUNDER}'] .an-better")).await?;
    let best_en = plies[BLUNDER]["best_san"].as_str().unwrap_or_default();
    if better != format!("{best_en} was best") {
        return Err(format!("the better move in English: {better:?}"));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    shot(c, "analisis-partida-en.png").await?;

    // /analisis: a pasted PGN (Spanish letters) is analysed; the FEN box's
    // board shows the start position's lines.
    ready(c, &format!("{base}/analisis?lang=es")).await?;
    until_long(
        c,
        "the start position's lines",
        "document.querySelector('#an-lines').dataset.ready === '1' && document.querySelectorAll('#an-lines li.an-line-item').length >= 1",
        60,
    )
    .await?;
    until(
        c,
        "the earlier analysis in the list",
        &format!("document.querySelector('#an-list li[data-analysis=\"{aid}\"] a')"),
    )
    .await?;
    js(
        c,
        "document.querySelector('#an-pgn-text').value = '[White \"Ana\"]\\n[Black \"Luis\"]\\n\\n1. e4 e5 2. Ac4 Cc6 3. Dh5 Cf6 4. Dxf7# 1-0\\n'; return null",
    )
    .await?;
    guide_shot(c, "analisis-pegar.png").await?;
    click(c, "#an-pgn-send").await?;
    until(
        c,
        "the pasted game's page",
        "location.pathname.startsWith('/analisis/') && location.pathname.length > 10 && document.body.dataset.ready === '1'",
    )
    .await?;
    until_long(
        c,
        "the pasted game analysed",
        &format!("document.querySelector('#an-moves button.mv[data-ply=\"{BLUNDER}\"] .an-sym')"),
        120,
    )
    .await?;
    let title = text_of(c, "#an-title").await?;
    if !title.contains("Ana") || !title.contains("Luis") {
        return Err(format!("the pasted game's title: {title:?}"));
    }
    Ok(())
}

#[test]
fn browser_analysis() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-analysis-test", 1000.0).await;
        let base = format!("http://{}", server.addr);
        let c = browser(port, "es", &dir.join("c")).await;
        let r = scenario(&base, server.addr, &c).await;
        if r.is_err() {
            let _ = shot(&c, "failed-analisis.png").await;
        }
        let _ = c.close().await;
        let _ = std::fs::remove_dir_all(&dir);
        r.unwrap();
    });
}

/// The keys of the `an` section of a browser catalogue (an identifier at
/// the start of a line or after `, `, then `: ` and a text, a function or
/// an object).
fn an_keys(catalogue: &str) -> std::collections::BTreeSet<String> {
    let start = catalogue.find("\n  an: {").expect("an section") + 8;
    let body = &catalogue[start..];
    let body = &body[..body.find("\n  },").expect("an closed")];
    let mut keys = std::collections::BTreeSet::new();
    for line in body.lines() {
        // A nested object's first key follows `{ `.
        let line = line.replace("{ ", ", ");
        for part in line.trim_start().split(", ") {
            let Some((key, rest)) = part.split_once(": ") else {
                continue;
            };
            let is_key = !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if is_key && (rest.is_empty() || rest.starts_with(['\'', '(', '`'])) {
                keys.insert(key.to_string());
            }
        }
    }
    keys
}

/// Every text the analysis pages ask for is in both catalogues, and the
/// two catalogues' `an` sections have the same keys.
#[test]
fn analysis_pages_have_every_text_in_spanish_and_english() {
    let es = an_keys(include_str!("../web/i18n/es.js"));
    let en = an_keys(include_str!("../web/i18n/en.js"));
    assert!(es.len() > 50, "{es:?}");
    assert_eq!(es, en, "the same keys in es.js and en.js");
    let page = include_str!("../web/analisis.js");
    let asked = page
        .split("T.")
        .skip(1)
        .chain(page.split("A().").skip(1))
        .chain(page.split("t.an.").skip(1));
    for used in asked {
        let key: String = used
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if key.is_empty() || !key.starts_with(|c: char| c.is_ascii_lowercase()) {
            continue;
        }
        assert!(es.contains(&key), "analisis.js asks for an.{key}");
    }
    let app = include_str!("../web/app.js");
    for used in app.split("t.an.").skip(1) {
        let key: String = used
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .collect();
        assert!(es.contains(&key), "app.js asks for an.{key}");
    }
    // Every kind of mark has its word.
    for kind in ["inaccuracy", "mistake", "blunder"] {
        for cat in [
            include_str!("../web/i18n/es.js"),
            include_str!("../web/i18n/en.js"),
        ] {
            assert!(an_keys(cat).contains(kind), "no word for {kind}");
        }
    }
}
