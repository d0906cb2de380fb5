//! A player's page and rated play in a real browser (issue 25), with the
//! WebDriver helpers of `browser.rs`.
//!
//! `player_page`: an account with a long rated history (rows written into
//! the ratings tables here) — the page shows the pools, the graph (one SVG
//! point per rated game, placed by rating), a point's date and rating when
//! tapped, the recent games and the head-to-head; names link to the page;
//! a managed account's page is private. Screenshots at desktop and phone
//! sizes go to `target/screenshots/rated-*.png`.
//!
//! `two_rated_games`: two accounts play two rated blitz games to the end
//! from the pages (a rated friend challenge; a rated seek with a rating
//! range, refused to an opponent out of it, then accepted); the ratings
//! stored and shown on the game page ("1500?", then the change) are what
//! `escaque_torneo::glicko` computes, and the player's page draws them.

use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::json;
use sqlx::AnyPool;

use escaque_torneo::glicko::{self, ColorAdvantage, Glicko};

use crate::browser::{
    browser, choose, click, click_move, fill, js, ready, runtime, shot, start_driver, start_server,
    text, until, wait_plies, R,
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
        // Played just now (an old date would grow the deviation).
        .bind(escaque_server::store::now_ms())
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

    // In English.
    ready(b, &format!("{base}/jugador/{marta}?lang=en")).await?;
    until(
        b,
        "the English page",
        "document.querySelectorAll('svg.rating-graph circle.pt').length === 12",
    )
    .await?;
    let score = text(b, "#player-score").await?;
    let first_pool = text(b, ".pools .pool .pool-name").await?;
    if score != "12 games: 7 won, 2 drawn, 3 lost" || first_pool != "blitz" {
        return Err(format!("the English page says {score:?}, {first_pool:?}"));
    }
    shot(b, "rated-player-en.png").await?;
    ready(b, &format!("{base}/?lang=es")).await?;

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

/// Each side's rating in `perf` as stored: (rating, deviation, volatility,
/// games).
async fn stored(pool: &AnyPool, user: &str, perf: &str) -> R<Glicko> {
    let (rating, deviation, volatility): (f64, f64, f64) = sqlx::query_as(
        "SELECT rating, deviation, volatility FROM ratings WHERE user_id = $1 AND perf = $2",
    )
    .bind(user)
    .bind(perf)
    .fetch_one(pool)
    .await
    .map_err(|e| format!("the stored {perf} rating of {user}: {e}"))?;
    Ok(Glicko {
        rating,
        deviation,
        volatility,
    })
}

/// The stored rating is the formula's (up to the deviation's growth over
/// the seconds between two games, far below 0.01).
fn same(who: &str, got: Glicko, want: Glicko) -> R {
    let close = (got.rating - want.rating).abs() < 0.01
        && (got.deviation - want.deviation).abs() < 0.01
        && (got.volatility - want.volatility).abs() < 1e-6;
    if close {
        Ok(())
    } else {
        Err(format!("{who}: stored {got:?}, Glicko-2 says {want:?}"))
    }
}

/// A change as the page writes it: `+12`, `−12` (a minus sign).
fn signed(d: i64) -> String {
    if d > 0 {
        format!("+{d}")
    } else if d < 0 {
        format!("−{}", -d)
    } else {
        "±0".into()
    }
}

/// Waits until both name bars of a game page show these texts (the bar
/// of `top` and of `bottom`).
async fn bars(c: &Client, what: &str, top: &str, bottom: &str) -> R {
    until(
        c,
        what,
        &format!(
            "document.querySelector('#name-top').textContent.includes({}) && document.querySelector('#name-bottom').textContent.includes({})",
            json!(top),
            json!(bottom)
        ),
    )
    .await
    .map(|_| ())
}

const END_SHOWN: &str = "!document.querySelector('#end-message').hidden && document.querySelector('#end-message').textContent";

/// Two accounts play two rated blitz games to the end from the page — a
/// friend challenge (Rosa mates) and a seek with a rating range (Rosa
/// resigns) —; after each, the ratings stored and shown are what
/// `escaque_torneo::glicko` computes, and Rosa's page draws both.
async fn two_rated_games(base: &str, pool: &AnyPool, a: &Client, b: &Client) -> R {
    let (rosa, tomas) = ("rosa_web", "tomas_web");
    sign_up(a, base, rosa).await?;
    sign_up(b, base, tomas).await?;
    let (rid, tid) = (user_id(pool, rosa).await?, user_id(pool, tomas).await?);

    // Game 1: Rosa's rated challenge, 3+2 (blitz), she takes White.
    ready(a, &format!("{base}/")).await?;
    choose(a, "#friend-color", "white").await?;
    fill(a, "#friend-tc", "3+2").await?;
    click(a, "#friend-rated").await?;
    click(a, "#create-challenge").await?;
    let link = until(
        a,
        "the challenge link",
        "document.querySelector('#challenge-link') && document.querySelector('#challenge-link').value",
    )
    .await?;
    let id = link
        .as_str()
        .and_then(|l| l.rsplit('/').next())
        .unwrap_or_default()
        .to_string();
    ready(a, &format!("{base}/partida/{id}")).await?;
    ready(b, &format!("{base}/partida/{id}")).await?;
    click(b, "#join").await?;
    // Both new: 1500, provisional.
    bars(
        a,
        "the ratings (Rosa)",
        &format!("{tomas} 1500?"),
        &format!("{rosa} 1500?"),
    )
    .await?;
    bars(
        b,
        "the ratings (Tomás)",
        &format!("{rosa} 1500?"),
        &format!("{tomas} 1500?"),
    )
    .await?;
    until(
        a,
        "the rated note",
        "!document.querySelector('#rated-note').hidden && document.querySelector('#rated-note').textContent.includes('relámpago')",
    )
    .await?;
    shot(a, "rated-game-start.png").await?;
    // The scholar's mate.
    for (i, (c, from, to)) in [
        (a, "e2", "e4"),
        (b, "e7", "e5"),
        (a, "f1", "c4"),
        (b, "b8", "c6"),
        (a, "d1", "h5"),
        (b, "g8", "f6"),
        (a, "h5", "f7"),
    ]
    .into_iter()
    .enumerate()
    {
        wait_plies(c, i).await?;
        click_move(c, from, to).await?;
    }
    for c in [a, b] {
        until(c, "the mate", END_SHOWN).await?;
    }
    let [w1, b1] = glicko::rate_game(
        Glicko::DEFAULT,
        Glicko::DEFAULT,
        1.0,
        ColorAdvantage::STANDARD,
    )
    .map_err(|e| e.to_string())?;
    let (rosa1, tomas1) = (
        stored(pool, &rid, "blitz").await?,
        stored(pool, &tid, "blitz").await?,
    );
    same("Rosa after game 1", rosa1, w1)?;
    same("Tomás after game 1", tomas1, b1)?;
    let (dr, dt) = (w1.int_rating() - 1500, b1.int_rating() - 1500);
    if dr <= 0 || dt >= 0 {
        return Err(format!("a win changed the ratings by {dr} and {dt}"));
    }
    bars(
        a,
        "the changes (Rosa)",
        &format!("1500? {}", signed(dt)),
        &format!("1500? {}", signed(dr)),
    )
    .await?;
    bars(
        b,
        "the changes (Tomás)",
        &format!("1500? {}", signed(dr)),
        &format!("1500? {}", signed(dt)),
    )
    .await?;
    shot(a, "rated-game-end.png").await?;

    // Game 2: Tomás seeks a rated 3+2 with White, for opponents from 100
    // below to 300 above him: Rosa, about 480 above, is refused.
    ready(b, &format!("{base}/")).await?;
    choose(b, "#seek-color", "white").await?;
    fill(b, "#seek-tc", "3+2").await?;
    click(b, "#seek-rated").await?;
    choose(b, "#seek-range-min", "-100").await?;
    choose(b, "#seek-range-max", "300").await?;
    click(b, "#seek-create").await?;
    ready(a, &format!("{base}/")).await?;
    let listed = until(
        a,
        "Tomás's seek",
        &format!("document.querySelector('#seeks .seek .accept-seek') && document.querySelector('#seeks .seek').textContent.includes('({}?)') && document.querySelector('#seeks .seek').textContent", b1.int_rating()),
    )
    .await?;
    let listed = listed.as_str().unwrap_or_default().to_string();
    if !listed.contains("relámpago · con puntuación") || !listed.contains(tomas) {
        return Err(format!("the seek as listed: {listed}"));
    }
    shot(a, "rated-lobby.png").await?;
    let first_range = text(a, "#seeks .seek-rating").await?;
    click(a, "#seeks .accept-seek").await?;
    until(
        a,
        "refused: out of range",
        "document.querySelector('#error').textContent",
    )
    .await?;
    if js(a, "return location.pathname").await? != json!("/") {
        return Err("an out-of-range seek was accepted".into());
    }
    // Up to 500 above: Rosa may.
    choose(b, "#seek-range-max", "500").await?;
    click(b, "#seek-create").await?;
    until(
        a,
        "the wider seek",
        &format!(
            "document.querySelector('#seeks .seek-rating') && document.querySelector('#seeks .seek-rating').textContent !== {}",
            json!(first_range)
        ),
    )
    .await?;
    click(a, "#seeks .accept-seek").await?;
    for c in [a, b] {
        until(
            c,
            "the seek's game",
            "location.pathname.startsWith('/partida/') && document.body.dataset.ready === '1' && document.querySelector('#status').textContent.includes('blancas')",
        )
        .await?;
    }
    // The ratings when it began, provisional still.
    let (r1, t1) = (rosa1.int_rating(), tomas1.int_rating());
    bars(
        a,
        "game 2's ratings (Rosa)",
        &format!("{tomas} {t1}?"),
        &format!("{rosa} {r1}?"),
    )
    .await?;
    for (i, (c, from, to)) in [
        (b, "e2", "e4"),
        (a, "e7", "e5"),
        (b, "g1", "f3"),
        (a, "b8", "c6"),
    ]
    .into_iter()
    .enumerate()
    {
        wait_plies(c, i).await?;
        click_move(c, from, to).await?;
    }
    wait_plies(a, 4).await?;
    js(a, "window.confirm = () => true; return 1").await?;
    click(a, "#resign").await?;
    for c in [a, b] {
        until(c, "the resignation", END_SHOWN).await?;
    }
    // Tomás (White) won: each rated against the other's rating after game 1.
    let [w2, b2] = glicko::rate_game(tomas1, rosa1, 1.0, ColorAdvantage::STANDARD)
        .map_err(|e| e.to_string())?;
    let (rosa2, tomas2) = (
        stored(pool, &rid, "blitz").await?,
        stored(pool, &tid, "blitz").await?,
    );
    same("Rosa after game 2", rosa2, b2)?;
    same("Tomás after game 2", tomas2, w2)?;
    let (dr2, dt2) = (rosa2.int_rating() - r1, tomas2.int_rating() - t1);
    if dr2 >= 0 || dt2 <= 0 {
        return Err(format!("a loss changed the ratings by {dr2} and {dt2}"));
    }
    bars(
        a,
        "game 2's changes",
        &format!("{t1}? {}", signed(dt2)),
        &format!("{r1}? {}", signed(dr2)),
    )
    .await?;
    shot(b, "rated-game2-end.png").await?;
    b.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    shot(b, "rated-game2-end-phone.png").await?;
    b.set_window_size(1280, 900)
        .await
        .map_err(|e| e.to_string())?;

    // Rosa's page: the blitz pool, the graph of both games.
    ready(a, &format!("{base}/jugador/{rosa}")).await?;
    until(
        a,
        "Rosa's graph",
        "document.querySelectorAll('svg.rating-graph circle.pt').length === 2",
    )
    .await?;
    let pools = js(
        a,
        "return [...document.querySelectorAll('.pools .pool')].map(p => p.dataset.perf + ' ' + p.querySelector('.pool-rating').textContent + ' ' + p.querySelector('.pool-games').textContent)",
    )
    .await?;
    let want = json!([format!("blitz {}? 2 partidas", rosa2.int_rating())]);
    if pools != want {
        return Err(format!("Rosa's pools {pools}, expected {want}"));
    }
    check_graph(&graph_points(a).await?, &[r1, rosa2.int_rating()])?;
    let diffs = js(
        a,
        "return [...document.querySelectorAll('#player-games tbody tr')].map(r => r.querySelector('td.diff').textContent)",
    )
    .await?;
    if diffs != json!([signed(dr2), signed(dr)]) {
        return Err(format!("Rosa's games list the changes {diffs}"));
    }
    let score = text(a, "#player-score").await?;
    if score != "2 partidas: 1 ganada, 0 tablas, 1 perdida" {
        return Err(format!("Rosa's score line: {score}"));
    }
    shot(a, "rated-rosa-desktop.png").await?;
    a.set_window_size(390, 844)
        .await
        .map_err(|e| e.to_string())?;
    ready(a, &format!("{base}/jugador/{rosa}")).await?;
    until(
        a,
        "Rosa's graph (phone)",
        "document.querySelectorAll('svg.rating-graph circle.pt').length === 2",
    )
    .await?;
    check_graph(&graph_points(a).await?, &[r1, rosa2.int_rating()])?;
    no_sideways_scroll(a).await?;
    shot(a, "rated-rosa-phone.png").await?;
    a.set_window_size(1280, 900)
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
        if let Err(e) = timed(
            "two_rated_games",
            240,
            two_rated_games(&base, &pool, &a, &b),
        )
        .await
        {
            let _ = shot(&a, "failed-rated-games-a.png").await;
            let _ = shot(&b, "failed-rated-games-b.png").await;
            failures.push(format!("two_rated_games: {e}"));
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
