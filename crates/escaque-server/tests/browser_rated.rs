//! A player's page and rated play in a real browser (issue 25), with the
//! WebDriver helpers of `browser.rs`.
//!
//! `player_page`: an account with a long rated history (rows written into
//! the ratings tables here) — the page shows the pools, the graph (one SVG
//! point per rated game, placed by rating), a point's date and rating when
//! tapped, the recent games and the head-to-head; names link to the page;
//! a managed account's page is private. Screenshots at desktop and phone
//! sizes go to `target/screenshots/rated-*.png`.

use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::json;
use sqlx::AnyPool;

use crate::browser::{
    browser, click, js, ready, runtime, shot, start_driver, start_server, text, until, R,
};

/// Signs up from the page (the request the account form sends): the
/// browser keeps the session cookie.
async fn sign_up(c: &Client, base: &str, name: &str) -> R {
    ready(c, &format!("{base}/")).await?;
    let v = c
        .execute_async(
            "const [name, done] = arguments;
             fetch('/api/signup', {method: 'POST', headers: {'Content-Type': 'application/json'},
                   body: JSON.stringify({name, password: 'contraseña-larga'})})
               .then(r => r.json()).then(done).catch(e => done({error: String(e)}));",
            vec![json!(name)],
        )
        .await
        .map_err(|e| e.to_string())?;
    if v["account"] != true {
        return Err(format!("sign-up of {name}: {v}"));
    }
    Ok(())
}

async fn user_id(pool: &AnyPool, name: &str) -> R<String> {
    let (id,): (String,) = sqlx::query_as("SELECT id FROM users WHERE name = $1")
        .bind(name)
        .fetch_one(pool)
        .await
        .map_err(|e| e.to_string())?;
    Ok(id)
}

/// The page fits a phone's width: nothing scrolls sideways.
async fn no_sideways_scroll(c: &Client) -> R {
    let v = js(
        c,
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]",
    )
    .await?;
    let (sw, cw) = (v[0].as_i64().unwrap_or(0), v[1].as_i64().unwrap_or(0));
    if sw > cw {
        return Err(format!("the page scrolls sideways: {sw} > {cw}"));
    }
    Ok(())
}

/// The graph's points as the page drew them: `[rating, cx, cy]` each.
async fn graph_points(c: &Client) -> R<Vec<(i64, f64, f64)>> {
    let v = js(
        c,
        "return [...document.querySelectorAll('svg.rating-graph circle.pt')].map(p =>
           [Number(p.dataset.rating), Number(p.getAttribute('cx')), Number(p.getAttribute('cy'))])",
    )
    .await?;
    Ok(v.as_array()
        .ok_or("no points")?
        .iter()
        .map(|p| {
            (
                p[0].as_i64().unwrap_or(0),
                p[1].as_f64().unwrap_or(0.0),
                p[2].as_f64().unwrap_or(0.0),
            )
        })
        .collect())
}

/// The graph draws `ratings` in order: one point each, left to right, a
/// higher rating higher up.
fn check_graph(points: &[(i64, f64, f64)], ratings: &[i64]) -> R {
    let shown: Vec<i64> = points.iter().map(|p| p.0).collect();
    if shown != ratings {
        return Err(format!("graph points {shown:?}, expected {ratings:?}"));
    }
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        if b.1 <= a.1 {
            return Err(format!("points not left to right: {points:?}"));
        }
        if (b.0 > a.0 && b.2 >= a.2) || (b.0 < a.0 && b.2 <= a.2) || (b.0 == a.0 && b.2 != a.2) {
            return Err(format!("points not placed by rating: {points:?}"));
        }
    }
    Ok(())
}

async fn player_page(base: &str, pool: &AnyPool, a: &Client, b: &Client) -> R {
    let (marta, lucas) = ("marta_web", "lucas_web");
    sign_up(a, base, marta).await?;
    sign_up(b, base, lucas).await?;
    let (mid, lid) = (user_id(pool, marta).await?, user_id(pool, lucas).await?);
    // Twelve rated blitz games a day apart, Marta winning, drawing, losing;
    // and her rapid rating, provisional, without history.
    let day = 86_400_000_i64;
    let t0 = 1_780_000_000_000_i64;
    let mut rating = 1500.0_f64;
    let mut ratings = Vec::new();
    let script = [
        "1-0", "1-0", "1/2-1/2", "0-1", "1-0", "1-0", "0-1", "1-0", "1/2-1/2", "1-0", "0-1", "1-0",
    ];
    for (i, result) in script.iter().enumerate() {
        let id = format!("seeded{i:02}");
        let at = t0 + i as i64 * day;
        let diff: f64 = match *result {
            "1-0" => 31.4 - i as f64,
            "0-1" => -27.6 + i as f64,
            _ => 3.2,
        };
        let before = rating;
        rating += diff;
        ratings.push(rating as i64);
        sqlx::query(
            "INSERT INTO games (id, rules, start_fen, time_control, white_kind, black_kind, \
             white_owner, black_owner, white_name, black_name, status, result, termination, \
             termination_side, created_ms, updated_ms, variant, rated, perf, white_rating, \
             black_rating, white_rating_diff, black_rating_diff, rating_applied) VALUES \
             ($1,'fide2023',$2,'3+2','human','human',$3,$4,$5,$6,'over',$7,$8,NULL,$9,$10,\
              'standard',1,'blitz',$11,1500,$12,0,1)",
        )
        .bind(&id)
        .bind(escaque::Position::new().to_fen())
        .bind(format!("u:{mid}"))
        .bind(format!("u:{lid}"))
        .bind(marta)
        .bind(lucas)
        .bind(result)
        .bind(if *result == "1/2-1/2" {
            "agreement"
        } else {
            "checkmate"
        })
        .bind(at - 600_000)
        .bind(at)
        .bind(before.round() as i64)
        .bind((rating.round() - before.round()) as i64)
        .execute(pool)
        .await
        .map_err(|e| e.to_string())?;
        sqlx::query(
            "INSERT INTO rating_history (user_id, perf, game, at_ms, rating, deviation) \
             VALUES ($1,'blitz',$2,$3,$4,$5)",
        )
        .bind(&mid)
        .bind(&id)
        .bind(at)
        .bind(rating)
        .bind(300.0 - 10.0 * i as f64)
        .execute(pool)
        .await
        .map_err(|e| e.to_string())?;
    }
    for (perf, r, rd, games) in [("blitz", rating, 95.0, 12_i64), ("rapid", 1432.0, 240.0, 1)] {
        sqlx::query(
            "INSERT INTO ratings (user_id, perf, rating, deviation, volatility, games, updated_ms) \
             VALUES ($1,$2,$3,$4,0.09,$5,$6)",
        )
        .bind(&mid)
        .bind(perf)
        .bind(r)
        .bind(rd)
        .bind(games)
        .bind(t0)
        .execute(pool)
        .await
        .map_err(|e| e.to_string())?;
    }

    // Lucas opens Marta's page.
    ready(b, &format!("{base}/jugador/{marta}")).await?;
    until(
        b,
        "the graph",
        "document.querySelectorAll('svg.rating-graph circle.pt').length === 12",
    )
    .await?;
    let name = text(b, "#player-name").await?;
    if name != marta {
        return Err(format!("page of {name}"));
    }
    let pools = js(
        b,
        "return [...document.querySelectorAll('.pools .pool')].map(p => p.dataset.perf + ' ' + p.querySelector('.pool-rating').textContent)",
    )
    .await?;
    let expected = json!([format!("blitz {}", ratings[11]), "rapid 1432?"]);
    if pools != expected {
        return Err(format!("pools {pools}, expected {expected}"));
    }
    check_graph(&graph_points(b).await?, &ratings)?;
    let score = text(b, "#player-score").await?;
    if !score.contains("12 partidas: 7 ganadas, 2 tablas, 3 perdidas") {
        return Err(format!("score line: {score}"));
    }
    // A point tapped says its date and rating, and links to its game.
    click(b, "svg.rating-graph circle.pt[data-index='3']").await?;
    until(
        b,
        "the point's label",
        &format!(
            "document.querySelector('#graph-point').textContent.includes('{}') && document.querySelector('#graph-point a[href=\"/mis-partidas/seeded03\"]')",
            ratings[3]
        ),
    )
    .await?;
    // Recent games: twelve, the last first, each change signed.
    let rows = js(
        b,
        "return [...document.querySelectorAll('#player-games tbody tr')].map(r => r.dataset.game + ' ' + r.querySelector('td.diff').textContent)",
    )
    .await?;
    let rows: Vec<String> = rows
        .as_array()
        .ok_or("no rows")?
        .iter()
        .map(|r| r.as_str().unwrap_or("").to_string())
        .collect();
    if rows.len() != 12 || !rows[0].starts_with("seeded11 +") || !rows[1].starts_with("seeded10 −")
    {
        return Err(format!("recent games: {rows:?}"));
    }
    shot(b, "rated-player-desktop.png").await?;
    // Head to head from a row's button.
    click(b, "#player-games tbody tr button.vs").await?;
    until(
        b,
        "the head-to-head",
        "document.querySelector('#h2h-score') && document.querySelectorAll('#h2h-games tbody tr').length === 12",
    )
    .await?;
    let h2h = text(b, "#h2h-score").await?;
    if !h2h.contains(&format!("{marta} contra {lucas}"))
        || !h2h.contains("7 ganadas, 2 tablas, 3 perdidas")
    {
        return Err(format!("head-to-head: {h2h}"));
    }
    // On a phone: the graph redrawn to the width, nothing sideways.
    b.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    ready(b, &format!("{base}/jugador/{marta}")).await?;
    until(
        b,
        "the graph (phone)",
        "document.querySelectorAll('svg.rating-graph circle.pt').length === 12",
    )
    .await?;
    let width = js(
        b,
        "return document.querySelector('svg.rating-graph').getBoundingClientRect().width",
    )
    .await?;
    if width.as_f64().unwrap_or(0.0) > 390.0 {
        return Err(format!("graph wider than the phone: {width}"));
    }
    check_graph(&graph_points(b).await?, &ratings)?;
    no_sideways_scroll(b).await?;
    shot(b, "rated-player-phone.png").await?;
    js(b, "document.querySelector('.pl-recent').scrollIntoView()").await?;
    shot(b, "rated-player-phone-games.png").await?;
    b.set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;

    // Names link to the page: Marta's games list her opponent's name as a link.
    ready(a, &format!("{base}/mis-partidas")).await?;
    until(
        a,
        "a link to Lucas's page",
        &format!("document.querySelector('#games a.player-link[href=\"/jugador/{lucas}\"]')"),
    )
    .await?;
    click(
        a,
        &format!("#games a.player-link[href=\"/jugador/{lucas}\"]"),
    )
    .await?;
    until(
        a,
        "Lucas's page",
        &format!("document.body.dataset.ready === '1' && (document.querySelector('#player-name') || {{}}).textContent === '{lucas}'"),
    )
    .await?;
    // Lucas has no rating yet; his page says so.
    until(a, "no ratings", "document.querySelector('#no-ratings')").await?;

    // A managed account's page is private: Lucas finds nothing, Marta her own.
    sqlx::query("UPDATE users SET managed = 1 WHERE id = $1")
        .bind(&mid)
        .execute(pool)
        .await
        .map_err(|e| e.to_string())?;
    ready(b, &format!("{base}/jugador/{marta}")).await?;
    until(b, "private", "document.querySelector('#player-missing')").await?;
    if js(
        b,
        "return document.querySelectorAll('svg.rating-graph').length",
    )
    .await?
        != json!(0)
    {
        return Err("a private page drew its graph".into());
    }
    ready(a, &format!("{base}/jugador/{marta}")).await?;
    until(
        a,
        "her own page",
        "document.querySelectorAll('svg.rating-graph circle.pt').length === 12",
    )
    .await?;
    sqlx::query("UPDATE users SET managed = 0 WHERE id = $1")
        .bind(&mid)
        .execute(pool)
        .await
        .map_err(|e| e.to_string())?;
    Ok(())
}

async fn timed(name: &str, limit_s: u64, fut: impl std::future::Future<Output = R>) -> R {
    let t0 = Instant::now();
    let r = match tokio::time::timeout(Duration::from_secs(limit_s), fut).await {
        Ok(r) => r,
        Err(_) => Err(format!("{name}: over {limit_s} s")),
    };
    eprintln!(
        "{name:<24} {:>6.1} s {}",
        t0.elapsed().as_secs_f64(),
        if r.is_ok() { "ok" } else { "FAILED" }
    );
    r
}

#[test]
fn rated_pages() {
    let (_driver, port) = start_driver();
    let rt = runtime();
    rt.block_on(async move {
        let (server, dir) = start_server("escaque-rated-web", 2000.0).await;
        let base = format!("http://{}", server.addr);
        let pool = AnyPool::connect(&format!("sqlite://{}/escaque.sqlite3", dir.display()))
            .await
            .expect("a second connection to the database");
        let downloads = dir.join("downloads");
        let a = browser(port, "es", &downloads.join("a")).await;
        let b = browser(port, "es", &downloads.join("b")).await;
        let mut failures: Vec<String> = Vec::new();
        if let Err(e) = timed("player_page", 120, player_page(&base, &pool, &a, &b)).await {
            let _ = shot(&a, "failed-rated-player-a.png").await;
            let _ = shot(&b, "failed-rated-player-b.png").await;
            failures.push(format!("player_page: {e}"));
        }
        for c in [a, b] {
            let _ = c.close().await;
        }
        pool.close().await;
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            failures.is_empty(),
            "rated browser scenarios failed:\n{}",
            failures.join("\n")
        );
    });
}
