//! Unusual results in the arbiter's results module (issue 58, FIDE's
//! checklist VCL.13; the phones' module of issue 59).
//!
//! Through the HTTP API, on SQLite and on PostgreSQL: the arbiter enters
//! and corrects `½-0`, `0-½` and `0-0` on the boards of an over-the-board
//! Swiss in FIDE mode, each answer's `previous` naming what the board held
//! (an unusual result by its own text, not the `½-½` it is stored with);
//! the round's list, a phone's view of the board, the log and the round's
//! page show each board's own result; the standings are the library's on
//! the stored TRF; a phone that sends an unusual result is refused with
//! the reason and changes nothing, as do a bad text, a board or round that
//! is not there and a stranger; out of FIDE mode the same holds. An online
//! tournament whose game is still being played: refused here (`409
//! online_tournament`), as the desk refuses an unusual result on it (`409
//! game_in_progress`), and nothing changes.
//!
//! In a real Chromium at phone size (390 × 844): the arbiter taps the
//! options of the round's page (the select's "Inusuales" group), the row
//! shows the board's own result and a correction says what it held
//! ("Mesa 1 corregida: antes ½-0"). Screenshots:
//! `target/screenshots/resultados-inusuales-*.png`.

use std::net::SocketAddr;
use std::sync::Arc;

use crate::common::*;
use escaque_server::http::Identity;
use escaque_server::tournament::{self, Settings, Who};
use escaque_torneo::{trf, System, Tournament, Unusual};

use crate::tournaments_unusual::round_one_as_the_library_scores_it;
use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use crate::browser::{js, js_strings, one_browser, shot, until, R};
use crate::browser_inusuales::{json_of, reyes_round_one};

const BASE: &str = "/api/tournaments";

async fn get(b: &mut Browser, path: &str) -> Value {
    let r = b.req("GET", path, None).await;
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    r.json()
}

/// The stored TRF's text.
async fn trf_text(b: &mut Browser, id: &str) -> String {
    let r = b.req("GET", &format!("{BASE}/{id}/trf"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

/// The arbiter (`b`) posts `text` on `board` of `round`: status and body.
async fn arbiter(b: &mut Browser, id: &str, round: u32, board: u32, text: &str) -> (u16, Value) {
    let r = b
        .post(
            &format!("{BASE}/{id}/resultados/{round}/{board}"),
            json!({ "result": text }),
        )
        .await;
    (
        r.status,
        serde_json::from_str(&r.body).unwrap_or(Value::Null),
    )
}

/// A phone (its own guest cookie, nothing else) sends `result` for `side`
/// on the board of `code`: status and body.
async fn phone(
    addr: SocketAddr,
    code: &str,
    id: &str,
    board: u32,
    side: &str,
    result: &str,
) -> (u16, Value) {
    let mut p = Browser::new(addr);
    let r = p
        .post(
            &format!("/api/resultados/{code}"),
            json!({"tournament": id, "round": 1, "board": board, "side": side, "result": result}),
        )
        .await;
    (
        r.status,
        serde_json::from_str(&r.body).unwrap_or(Value::Null),
    )
}

/// Everything a refusal must leave as it was: the TRF, the round's list,
/// the log.
async fn snapshot(org: &mut Browser, id: &str) -> (String, Value, Value) {
    (
        trf_text(org, id).await,
        get(org, &format!("{BASE}/{id}/resultados/1")).await,
        get(org, &format!("{BASE}/{id}/resultados")).await,
    )
}

/// The boards' `result` in the list, by board.
fn listed(list: &Value) -> Vec<Value> {
    let mut boards: Vec<&Value> = list["boards"].as_array().unwrap().iter().collect();
    boards.sort_by_key(|b| b["board"].as_u64());
    boards.iter().map(|b| b["result"].clone()).collect()
}

async fn arbiter_enters_unusual_results(db: Db) {
    let Some(server) = start(db).await else {
        return;
    };
    let addr = server.addr;
    let mut org = Browser::new(addr);
    let name = "Abierto de Reyes";
    let r = org
        .post(
            BASE,
            json!({"name": name, "system": "dutch", "rounds": 3, "mode": "otb",
                   "tiebreaks": ["BH", "SB", "WIN"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    for (i, n) in ["Ana", "Bruno", "Carmen", "David", "Elena", "Fermín"]
        .iter()
        .enumerate()
    {
        let r = org
            .post(
                &format!("{BASE}/{id}/players"),
                json!({"name": n, "rating": 2000 - 100 * i as i64}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        get(&mut org, &format!("{BASE}/{id}/fide")).await["on"],
        true
    );
    let list = get(&mut org, &format!("{BASE}/{id}/resultados/1")).await;
    let code = |board: u32| -> String {
        list["boards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["board"] == board)
            .and_then(|b| b["code"].as_str())
            .unwrap()
            .to_string()
    };

    // A phone sends an unusual result: refused with the reason, whoever
    // sends it and however it is spelt; nothing changes.
    let before = snapshot(&mut org, &id).await;
    for (side, text) in [
        ("white", "½-0"),
        ("black", "0-½"),
        ("blancas", "0-0"),
        ("negras", "1/2-0"),
    ] {
        let (s, body) = phone(addr, &code(1), &id, 1, side, text).await;
        assert_eq!(
            (s, body["code"].as_str()),
            (400, Some("arbiter_only")),
            "{text}: {body}"
        );
        let es = body["es"].as_str().unwrap();
        let own = Unusual::parse(text).unwrap().text();
        assert!(es.contains("árbitro") && es.contains(own), "{es}");
        assert!(body["en"].as_str().unwrap().contains("arbiter"), "{body}");
    }
    assert_eq!(snapshot(&mut org, &id).await, before, "a phone changed it");

    // Board 3: the players agree on 1-0 from their phones.
    let (s, body) = phone(addr, &code(3), &id, 3, "white", "1-0").await;
    assert_eq!((s, &body["state"]), (200, &json!("entered")), "{body}");
    let (s, body) = phone(addr, &code(3), &id, 3, "black", "1-0").await;
    assert_eq!((s, &body["state"]), (200, &json!("confirmed")), "{body}");

    // The arbiter enters, corrects and enters again; `previous` says what
    // the board held in the standings.
    let steps: [(u32, &str, &str, Value); 7] = [
        (1, "½-0", "½-0", Value::Null),
        (1, "1/2-1/2", "½-½", json!("½-0")),
        (1, "1/2-0", "½-0", json!("½-½")),
        (2, "0-0", "0-0", Value::Null),
        (3, "0-½", "0-½", json!("1-0")),
        (3, "0 - 0.5", "0-½", json!("0-½")),
        (2, "0-0", "0-0", json!("0-0")),
    ];
    for (board, text, back, previous) in steps {
        let (s, body) = arbiter(&mut org, &id, 1, board, text).await;
        assert_eq!(s, 200, "{text}: {body}");
        assert_eq!(
            (
                &body["board"],
                &body["result"],
                &body["state"],
                &body["open"],
                &body["previous"]
            ),
            (
                &json!(board),
                &json!(back),
                &json!("arbiter"),
                &json!(false),
                &previous
            ),
            "{text}: {body}"
        );
    }

    // Every view shows the board's own result.
    let list = get(&mut org, &format!("{BASE}/{id}/resultados/1")).await;
    assert_eq!(listed(&list), [json!("½-0"), json!("0-0"), json!("0-½")]);
    assert_eq!(list["counts"]["arbiter"], 3, "{}", list["counts"]);
    let mut scan = Browser::new(addr);
    let b = get(&mut scan, &format!("/api/resultados/{}", code(1))).await;
    assert_eq!(
        (&b["result"], &b["state"]),
        (&json!("½-0"), &json!("arbiter"))
    );
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    let in_view: Vec<Value> = v["rounds"][0]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["result"].clone())
        .collect();
    assert_eq!(in_view, listed(&list));
    // The log, oldest first: what each step gave and what it replaced.
    let log = get(&mut org, &format!("{BASE}/{id}/resultados")).await;
    let lines: Vec<(u64, String, String, String)> = log["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["board"].as_u64().unwrap(),
                l["action"].as_str().unwrap().to_string(),
                l["result"].as_str().unwrap_or("").to_string(),
                l["previous"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let want = [
        (3, "entered", "1-0", ""),
        (3, "confirmed", "1-0", ""),
        (1, "arbiter", "½-0", ""),
        (1, "override", "½-½", "clasificación ½-0"),
        (1, "override", "½-0", "clasificación ½-½"),
        (2, "arbiter", "0-0", ""),
        (
            3,
            "override",
            "0-½",
            "clasificación 1-0, blancas 1-0, negras 1-0",
        ),
        // The same again: still an override of the players' 1-0.
        (
            3,
            "override",
            "0-½",
            "clasificación 0-½, blancas 1-0, negras 1-0",
        ),
        (2, "arbiter", "0-0", ""),
    ];
    let want: Vec<(u64, String, String, String)> = want
        .iter()
        .map(|(b, a, r, p)| (*b, a.to_string(), r.to_string(), p.to_string()))
        .collect();
    assert_eq!(lines, want);
    // The round's page: the own result in each row, the select on it, the
    // unusual group offered, the log's lines.
    let r = org
        .req("GET", &format!("/torneos/{id}/rondas/1/resultados"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    for shown in [
        "data-board=\"1\" data-state=\"arbiter\" data-result=\"½-0\"",
        "data-board=\"2\" data-state=\"arbiter\" data-result=\"0-0\"",
        "data-board=\"3\" data-state=\"arbiter\" data-result=\"0-½\"",
        "<optgroup label=\"Inusuales (cada uno sus puntos)\">",
        "<option value=\"½-0\" title=\"½ para blancas, 0 para negras\" selected>",
        "(clasificación 1-0, blancas 1-0, negras 1-0)",
    ] {
        assert!(r.body.contains(shown), "the page lacks {shown}");
    }
    assert_eq!(r.body.matches(" selected>").count(), 3, "one per board");

    // The stored TRF holds them as unusual results, and the standings
    // shown are the library's on it.
    let t: Tournament = trf::parse(&trf_text(&mut org, &id).await).expect("the TRF reads");
    round_one_as_the_library_scores_it(&t, &v);

    // Refused, nothing changed: a phone's ½-½ on a board holding ½-0 (told
    // the board's own result), not a result, no such board or round, a
    // stranger.
    let before = snapshot(&mut org, &id).await;
    let (s, body) = phone(addr, &code(1), &id, 1, "white", "½-½").await;
    assert_eq!(
        (s, body["code"].as_str()),
        (409, Some("already_final")),
        "{body}"
    );
    assert!(body["es"].as_str().unwrap().contains("(½-0)"), "{body}");
    for (round, board, text, status, code) in [
        (1, 1, "½-1", 400, "bad_result"),
        (1, 1, "0-½F", 400, "bad_result"),
        (1, 9, "0-0", 404, "no_such_board"),
        (7, 1, "½-0", 404, "no_such_board"),
    ] {
        let (s, body) = arbiter(&mut org, &id, round, board, text).await;
        assert_eq!(
            (s, body["code"].as_str()),
            (status, Some(code)),
            "{text}: {body}"
        );
    }
    let mut stranger = Browser::new(addr);
    let (s, body) = arbiter(&mut stranger, &id, 1, 2, "½-0").await;
    assert_eq!(
        (s, body["code"].as_str()),
        (403, Some("not_organiser")),
        "{body}"
    );
    assert_eq!(
        snapshot(&mut org, &id).await,
        before,
        "a refusal changed it"
    );

    // Out of FIDE mode (both confirmations) the arbiter's results are the
    // same; the phones' too.
    let r = org
        .post(
            &format!("{BASE}/{id}/fide/leave"),
            json!({"confirm": true, "name": name}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        get(&mut org, &format!("{BASE}/{id}/fide")).await["on"],
        false
    );
    let (s, body) = arbiter(&mut org, &id, 1, 2, "½-0").await;
    assert_eq!(
        (s, &body["result"], &body["previous"]),
        (200, &json!("½-0"), &json!("0-0")),
        "{body}"
    );
    let (s, body) = phone(addr, &code(2), &id, 2, "white", "0-0").await;
    assert_eq!((s, body["code"].as_str()), (400, Some("arbiter_only")));
    let t: Tournament = trf::parse(&trf_text(&mut org, &id).await).expect("the TRF reads");
    assert_eq!(t.rounds[0].games[1].unusual, Some(Unusual::HalfZero));
    server.abort();
}

both_dbs!(
    the_arbiter_enters_unusual_results,
    arbiter_enters_unusual_results
);

/// The identity of a browser's guest cookie (`g:ID`).
fn guest_key(web: &Browser) -> String {
    let c = web
        .cookies
        .iter()
        .find_map(|c| c.strip_prefix("escaque_invitado="))
        .expect("a guest cookie");
    format!("g:{}", c.split('.').next().unwrap_or(c))
}

/// An online tournament with its game still being played: the results
/// module refuses it (its games give the results), as the desk refuses an
/// unusual result on that game; nothing changes, the game goes on.
async fn online_game_refused(db: Db) {
    let Some(server) = start(db).await else {
        return;
    };
    let addr = server.addr;
    let hub = Arc::clone(&server.hub);
    let mut org = Browser::new(addr);
    let me = org.req("GET", "/api/me", None).await;
    assert_eq!(me.status, 200, "{}", me.body);
    let owner = Identity {
        key: guest_key(&org),
        name: "Organizadora".into(),
        account: false,
        managed: false,
    };
    let t = Tournament::new("Torneo en línea", System::Swiss, 3);
    let settings = Settings {
        time_control: Some("5+0".into()),
        no_show_s: 600,
        ..Settings::default()
    };
    let id = tournament::create(&hub, &owner, "online", t, settings)
        .await
        .expect("created");
    for i in 0..2 {
        let mut p = Browser::new(addr);
        let me = p.req("GET", "/api/me", None).await;
        assert_eq!(me.status, 200, "{}", me.body);
        let r = p
            .post(
                &format!("{BASE}/{id}/join"),
                json!({"name": format!("Jugadora {}", i + 1)}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let r = p.post(&format!("{BASE}/{id}/present"), json!({})).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    tournament::pair_next(&hub, &id, &Who::Organiser(owner))
        .await
        .expect("paired");
    let game = tournament::load(&hub, &id).await.expect("loads").games[0]
        .game
        .clone();
    let trf_before = trf_text(&mut org, &id).await;
    for text in ["½-0", "0-½", "0-0", "1-0"] {
        let (s, body) = arbiter(&mut org, &id, 1, 1, text).await;
        assert_eq!(
            (s, body["code"].as_str()),
            (409, Some("online_tournament")),
            "{text}: {body}"
        );
    }
    let r = org
        .post(
            &format!("{BASE}/{id}/rounds/1/boards/1/result"),
            json!({"result": "½-0"}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["code"], "game_in_progress");
    let r = org
        .req("GET", &format!("{BASE}/{id}/resultados/1"), None)
        .await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (409, json!("online_tournament"))
    );
    assert_eq!(trf_text(&mut org, &id).await, trf_before);
    let g = hub.store.game(&game).await.expect("reads").expect("stored");
    assert_ne!(g.status, "over", "the game goes on");
    server.abort();
}

both_dbs!(an_online_game_is_not_the_modules, online_game_refused);

// ---------------------------------------------------------------- Chromium

/// Picks `value` in board `board`'s select as a person does (the option
/// tapped), then taps "Anotar"; waits for the page drawn again with the
/// row saying `value`.
async fn tap(c: &Client, board: u32, value: &str) -> R {
    let css = format!("tr[data-board=\"{board}\"] select");
    let el = c
        .wait()
        .for_element(Locator::Css(&css))
        .await
        .map_err(|e| format!("no {css}: {e}"))?;
    el.select_by_value(value)
        .await
        .map_err(|e| format!("pick {value} on board {board}: {e}"))?;
    let button = c
        .find(Locator::Css(&format!("button[data-enter=\"{board}\"]")))
        .await
        .map_err(|e| format!("board {board}'s button: {e}"))?;
    button
        .click()
        .await
        .map_err(|e| format!("tap board {board}: {e}"))?;
    until(
        c,
        &format!("board {board} showing {value}"),
        &format!(
            "(() => {{ const tr = document.querySelector('tr[data-board=\"{board}\"]'); \
               return !!tr && tr.dataset.state === 'arbiter' && tr.dataset.result === {v} \
               && tr.querySelector('select').value === {v} \
               && tr.querySelector('.res').textContent === {v}; }})()",
            v = json!(value)
        ),
    )
    .await
    .map(|_| ())
}

/// Opens a page the server draws (no app: no `data-ready` to wait for).
async fn goto(c: &Client, url: &str) -> R {
    c.goto(url).await.map_err(|e| format!("goto {url}: {e}"))?;
    until(c, url, "document.readyState === 'complete'")
        .await
        .map(|_| ())
}

/// The correction's line says `text`.
async fn says(c: &Client, text: &str) -> R {
    until(
        c,
        &format!("the correction '{text}'"),
        &format!(
            "(document.querySelector('#correction') || {{}}).textContent === {}",
            json!(text)
        ),
    )
    .await
    .map(|_| ())
}

async fn arbiter_taps_unusual_results(base: String, c: Client) -> R {
    let c = &c;
    let (id, api) = reyes_round_one(c, &base).await?;
    c.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    goto(c, &format!("{base}/torneos/{id}/rondas/1/resultados")).await?;
    until(
        c,
        "the round's boards",
        "document.querySelectorAll('tr[data-board] select').length === 3",
    )
    .await?;
    let width = js(c, "return document.documentElement.scrollWidth").await?;
    if width.as_u64().unwrap_or(9999) > 390 {
        return Err(format!(
            "the arbiter's page is wider than the phone: {width}"
        ));
    }
    let offered = js_strings(
        c,
        "const g = document.querySelector('tr[data-board=\"1\"] optgroup'); \
         return g ? [g.label, ...[...g.querySelectorAll('option')].map((o) => o.textContent)] : []",
    )
    .await?;
    if offered != ["Inusuales (cada uno sus puntos)", "½-0", "0-½", "0-0"] {
        return Err(format!("the select offers {offered:?}"));
    }
    // The select's options are big enough to tap (at least 44 px high).
    let high = js(
        c,
        "return document.querySelector('tr[data-board=\"1\"] select').getBoundingClientRect().height",
    )
    .await?;
    if high.as_f64().unwrap_or(0.0) < 44.0 {
        return Err(format!("the select is {high} px high"));
    }
    tap(c, 1, "½-0").await?;
    tap(c, 2, "0-0").await?;
    tap(c, 3, "1-0").await?;
    shot(c, "resultados-inusuales-movil.png").await?;
    tap(c, 3, "0-½").await?;
    says(c, "Mesa 3 corregida: antes 1-0").await?;
    tap(c, 1, "½-½").await?;
    says(c, "Mesa 1 corregida: antes ½-0").await?;
    tap(c, 1, "½-0").await?;
    says(c, "Mesa 1 corregida: antes ½-½").await?;
    js(c, "window.scrollTo(0, 0); return true").await?;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    shot(c, "resultados-inusuales-movil-corregida.png").await?;
    let log = js(c, "return document.querySelector('#log').textContent").await?;
    let log = log.as_str().unwrap_or_default();
    for line in ["½-0 (clasificación ½-½)", "½-½ (clasificación ½-0)"] {
        if !log.contains(line) {
            return Err(format!("the log lacks '{line}': {log}"));
        }
    }
    js(
        c,
        "document.querySelector('#log').scrollIntoView(); return true",
    )
    .await?;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    shot(c, "resultados-inusuales-movil-registro.png").await?;
    let width = js(c, "return document.documentElement.scrollWidth").await?;
    if width.as_u64().unwrap_or(9999) > 390 {
        return Err(format!("the page grew wider than the phone: {width}"));
    }
    // Stored as tapped; the desk's view shows the same.
    let v = json_of(c, "GET", &api, None).await?;
    let results: Vec<Value> = (0..3)
        .map(|b| v["rounds"][0]["boards"][b]["result"].clone())
        .collect();
    if results != [json!("½-0"), json!("0-0"), json!("0-½")] {
        return Err(format!("stored: {results:?}"));
    }
    // A player's phone opening board 1 sees the arbiter's ½-0 and no form.
    let list = json_of(c, "GET", &format!("{api}/resultados/1"), None).await?;
    let url = list["boards"]
        .as_array()
        .and_then(|b| b.iter().find(|b| b["board"] == 1))
        .and_then(|b| b["url"].as_str())
        .ok_or(format!("board 1's link: {list}"))?
        .to_string();
    goto(c, &format!("{base}{url}")).await?;
    let state = js(
        c,
        "return [document.querySelector('#state').dataset.state, \
         document.querySelector('#state strong').textContent, !!document.querySelector('#entry')]",
    )
    .await?;
    if state != json!(["arbiter", "½-0", false]) {
        return Err(format!("the phone's board: {state}"));
    }
    shot(c, "resultados-inusuales-movil-jugador.png").await?;
    Ok(())
}

#[test]
fn the_arbiter_taps_unusual_results_on_a_phone() {
    one_browser(
        "escaque-resultados-inusuales-web",
        "resultados-inusuales",
        |base, c, _dir| arbiter_taps_unusual_results(base, c),
    );
}
