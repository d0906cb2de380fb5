//! Results by QR code in a real Chromium (issue 59): a phone-sized form
//! (390 × 844) where one player enters and the other confirms, a board in
//! conflict, and the arbiter's page (1280 × 800) listing the conflict first
//! and clearing it. Screenshots in target/screenshots/resultados-*.png.

use fantoccini::Client;
use serde_json::{json, Value};

use crate::browser::{browser, click, js, runtime, shot, start_driver, until, R};

/// A `fetch` from the page `c` is on (its cookies), answered as JSON.
async fn fetch(c: &Client, method: &str, path: &str, body: Value) -> R<Value> {
    c.execute_async(
        "const [method, path, body, done] = arguments;
         const init = {method, headers: {'Content-Type': 'application/json'}};
         if (method !== 'GET') init.body = JSON.stringify(body);
         fetch(path, init).then(r => r.json()).then(done).catch(e => done({error: String(e)}));",
        vec![json!(method), json!(path), body],
    )
    .await
    .map_err(|e| format!("fetch {path}: {e}"))
}

/// A phone opens the board's link and sends `result` for `side`; waits for
/// the state the server answers.
async fn phone_enters(c: &Client, link: &str, side: &str, result: &str, state: &str) -> R {
    c.goto(link)
        .await
        .map_err(|e| format!("goto {link}: {e}"))?;
    click(c, &format!("input[name=side][value={side}]")).await?;
    click(c, &format!("input[name=result][value='{result}']")).await?;
    click(c, "#send").await?;
    until(
        c,
        state,
        &format!("document.querySelector('#state').dataset.state === '{state}'"),
    )
    .await?;
    Ok(())
}

#[test]
fn results_by_qr_in_a_browser() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = crate::browser::start_server("escaque-resultados-web", 1000.0).await;
        let base = format!("http://{}", server.addr);
        let org = browser(port, "es", &dir.join("downloads")).await;
        let phone = browser(port, "es", &dir.join("downloads-phone")).await;
        let result = async {
            org.set_window_size(1280, 800)
                .await
                .map_err(|e| e.to_string())?;
            phone
                .set_window_size(390, 844)
                .await
                .map_err(|e| e.to_string())?;
            // The organiser (the browser's guest identity) makes the event.
            org.goto(&format!("{base}/torneos"))
                .await
                .map_err(|e| e.to_string())?;
            let t = fetch(
                &org,
                "POST",
                "/api/tournaments",
                json!({"name": "Abierto del colegio", "system": "dutch", "rounds": 3, "mode": "otb"}),
            )
            .await?;
            let id = t["id"].as_str().ok_or(format!("{t}"))?.to_string();
            let names = [
                "Lucía Fernández", "Mateo Gómez", "Sofía Martínez", "Hugo Pérez",
                "Martina López", "Daniel Sánchez", "Valeria Romero", "Pablo Núñez",
            ];
            let csv = format!("nombre;elo\n{}", names.iter().enumerate()
                .map(|(i, n)| format!("{n};{}\n", 1500 - i * 40)).collect::<String>());
            fetch(&org, "POST", &format!("/api/tournaments/{id}/players/import"),
                  json!({"format": "csv", "text": csv})).await?;
            fetch(&org, "POST", &format!("/api/tournaments/{id}/rounds"), json!({})).await?;
            let list = fetch(&org, "GET", &format!("/api/tournaments/{id}/resultados/1"), json!(null)).await?;
            let link = |n: usize| -> R<String> {
                let b = list["boards"].as_array().and_then(|b| b.iter().find(|b| b["board"] == n))
                    .ok_or(format!("board {n}: {list}"))?;
                Ok(format!("{base}{}", b["url"].as_str().unwrap_or("")))
            };

            // Board 1: White enters on the phone, Black confirms.
            phone_enters(&phone, &link(1)?, "white", "1-0", "entered").await?;
            let width = js(&phone, "return document.documentElement.scrollWidth").await?;
            if width.as_u64().unwrap_or(9999) > 390 {
                return Err(format!("the form is wider than the phone: {width}"));
            }
            shot(&phone, "resultados-movil-anotado.png").await?;
            phone_enters(&phone, &link(1)?, "black", "1-0", "confirmed").await?;
            shot(&phone, "resultados-movil-confirmado.png").await?;
            // Board 3 and 4: the players disagree on board 3, board 4 waits.
            phone_enters(&phone, &link(3)?, "white", "1-0", "entered").await?;
            phone_enters(&phone, &link(3)?, "black", "0-1", "conflict").await?;
            shot(&phone, "resultados-movil-conflicto.png").await?;
            phone_enters(&phone, &link(4)?, "black", "½-½", "entered").await?;
            // A form opened again once confirmed offers nothing to send.
            phone.goto(&link(1)?).await.map_err(|e| e.to_string())?;
            let form = js(&phone, "return !!document.querySelector('#entry')").await?;
            if form != json!(false) {
                return Err("a confirmed board still offers the form".into());
            }
            // The standings hold board 1 only.
            let v = fetch(&org, "GET", &format!("/api/tournaments/{id}"), json!(null)).await?;
            let results: Vec<Value> = v["rounds"][0]["boards"].as_array().unwrap_or(&vec![])
                .iter().map(|b| b["result"].clone()).collect();
            if results != [json!("1-0"), Value::Null, Value::Null, Value::Null] {
                return Err(format!("standings' results: {results:?}"));
            }

            // The arbiter's page: the conflict first, then the missing and
            // the unconfirmed, then the confirmed.
            org.goto(&format!("{base}/torneos/{id}/rondas/1/resultados"))
                .await
                .map_err(|e| e.to_string())?;
            let order = js(&org, "return [...document.querySelectorAll('tr[data-board]')].map(r => r.dataset.board + ':' + r.dataset.state)").await?;
            if order != json!(["3:conflict", "2:missing", "4:entered", "1:confirmed"]) {
                return Err(format!("the arbiter's order: {order}"));
            }
            let qrs = js(&org, "return document.querySelectorAll('tr[data-board] svg.qr').length").await?;
            if qrs != json!(4) {
                return Err(format!("QR codes on the page: {qrs}"));
            }
            shot(&org, "resultados-arbitro.png").await?;
            // The arbiter decides board 3.
            js(&org, "document.querySelector('tr[data-board=\"3\"] select').value = '0-1'; return 1").await?;
            click(&org, "button[data-enter='3']").await?;
            until(&org, "board 3 by the arbiter",
                  "document.querySelector('tr[data-board=\"3\"]') && document.querySelector('tr[data-board=\"3\"]').dataset.state === 'arbiter'").await?;
            let log = js(&org, "return document.querySelector('#log').textContent").await?;
            if !log.as_str().unwrap_or("").contains("sustituyó lo anotado") {
                return Err(format!("the log: {log}"));
            }
            shot(&org, "resultados-arbitro-resuelto.png").await?;
            let v = fetch(&org, "GET", &format!("/api/tournaments/{id}"), json!(null)).await?;
            if v["rounds"][0]["boards"][2]["result"] != "0-1" {
                return Err(format!("board 3 in the standings: {v}"));
            }
            Ok::<(), String>(())
        }
        .await;
        if result.is_err() {
            let _ = shot(&org, "failed-resultados-arbitro.png").await;
            let _ = shot(&phone, "failed-resultados-movil.png").await;
        }
        let _ = org.close().await;
        let _ = phone.close().await;
        if let Err(e) = result {
            panic!("results by QR in a browser: {e}");
        }
    });
}
