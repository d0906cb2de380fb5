//! A class's progress table (issue 26): every pupil's games, scores, time
//! played, rating change and tournaments over a period, as JSON and as CSV
//! with Spanish headers; the period's refusals; teachers only.

use serde_json::{json, Value};

use crate::class_tournaments::offline_pupil;
use crate::common::*;

/// The line of pupil `name` in a progress answer.
fn line<'a>(p: &'a Value, name: &str) -> &'a Value {
    p["pupils"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == name)
        .unwrap_or_else(|| panic!("no line for {name}: {p}"))
}

async fn progress_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let began = escaque_server::store::now_ms();
    let mut c = class_with_pupils(&s, 3).await;
    // A pupil whose real name a spreadsheet would take for a formula, with
    // a comma: it never plays.
    let (quiet, _) = offline_pupil(&s, &c.id, "=Pérez, \"Ana\"").await;
    let (a, b, d) = {
        let [a, b, d] = &mut c.pupils[..] else {
            unreachable!()
        };
        (a, b, d)
    };

    // A (White) against B: Fool's mate, B wins.
    let (_, created, joined) = accepted(&mut a.web, &mut b.web, json!({"color": "white"})).await;
    let (mut w, mut bl) = seated(s.addr, &created, &joined).await;
    play_line(&mut w, &mut bl, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    w.event("end").await;
    // A (White) against B, rated blitz: B resigns, A wins.
    let (_, created, joined) = accepted(
        &mut a.web,
        &mut b.web,
        json!({"color": "white", "rated": true, "time_control": "5+3"}),
    )
    .await;
    let (mut w, mut bl) = seated(s.addr, &created, &joined).await;
    let rated_game = w.game.clone();
    // Two half-moves at least: a game with fewer changes no rating.
    play_line(&mut w, &mut bl, &["e2e4", "e7e5"]).await;
    let r = bl.act(json!({"t": "resign", "id": 5})).await;
    assert_eq!(r["t"], "ack", "{r}");
    w.event("end").await;
    // A against D: a draw agreed.
    let (_, created, joined) = accepted(&mut a.web, &mut d.web, json!({"color": "white"})).await;
    let (mut w, mut bl) = seated(s.addr, &created, &joined).await;
    play_line(&mut w, &mut bl, &["e2e4", "e7e5"]).await;
    assert_eq!(w.act(json!({"t": "offer_draw", "id": 7})).await["t"], "ack");
    assert_eq!(
        bl.act(json!({"t": "accept_draw", "id": 8})).await["t"],
        "ack"
    );
    w.event("end").await;
    // An aborted game counts for nothing.
    let (_, created, joined) = accepted(&mut a.web, &mut d.web, json!({"color": "white"})).await;
    let (mut w, _bl) = seated(s.addr, &created, &joined).await;
    assert_eq!(w.act(json!({"t": "abort", "id": 9})).await["t"], "ack");
    let elapsed = escaque_server::store::now_ms() - began;

    let row = s.hub.store.game(&rated_game).await.unwrap().unwrap();
    assert!(row.rated && row.rating_applied, "{row:?}");
    let (a_before, a_diff) = (row.ratings[0].unwrap(), row.rating_diffs[0].unwrap());
    let (b_before, b_diff) = (row.ratings[1].unwrap(), row.rating_diffs[1].unwrap());

    let url = format!("/api/classes/{}/progress", c.id);
    let r = c.teacher.req("GET", &url, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let p = r.json();
    assert_eq!(p["class"]["id"], c.id.as_str());
    assert_eq!(p["pupils"].as_array().unwrap().len(), 4, "{p}");
    let (a, b, d) = (&c.pupils[0], &c.pupils[1], &c.pupils[2]);
    let la = line(&p, &a.name);
    assert_eq!(la["real_name"], a.real_name.as_str());
    assert_eq!(
        [&la["games"], &la["wins"], &la["draws"], &la["losses"]],
        [3, 1, 1, 1],
        "{la}"
    );
    assert_eq!(la["perf"], "blitz");
    assert_eq!(la["rating_before"], a_before);
    assert_eq!(la["rating_after"], a_before + a_diff);
    assert_eq!(la["rating_change"], a_diff);
    assert!(a_diff > 0);
    assert_eq!(la["tournaments"], 0);
    let played = la["time_played_ms"].as_i64().unwrap();
    assert!(played > 0 && played <= elapsed, "{played} of {elapsed}");
    let lb = line(&p, &b.name);
    assert_eq!(
        [&lb["games"], &lb["wins"], &lb["draws"], &lb["losses"]],
        [2, 1, 0, 1],
        "{lb}"
    );
    assert_eq!(lb["rating_change"], b_diff);
    assert_eq!(lb["rating_before"], b_before);
    let ld = line(&p, &d.name);
    assert_eq!(
        [&ld["games"], &ld["wins"], &ld["draws"], &ld["losses"]],
        [1, 0, 1, 0],
        "{ld}"
    );
    assert_eq!(ld["perf"], Value::Null);
    assert_eq!(ld["rating_change"], Value::Null);
    let lq = line(&p, &quiet);
    assert_eq!(lq["games"], 0);
    assert_eq!(lq["time_played_ms"], 0);

    // Today only: the same; a day a month ago: nothing.
    let today = p["to"].as_str().unwrap().to_string();
    let long_ago = p["from"].as_str().unwrap().to_string();
    let r = c
        .teacher
        .req("GET", &format!("{url}?from={today}&to={today}"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(line(&r.json(), &a.name)["games"], 3);
    let r = c
        .teacher
        .req("GET", &format!("{url}?from={long_ago}&to={long_ago}"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.json()["from"].as_str(), r.json()["to"].as_str()),
        (Some(long_ago.as_str()), Some(long_ago.as_str()))
    );
    for l in r.json()["pupils"].as_array().unwrap() {
        assert_eq!(l["games"], 0, "{l}");
    }

    // CSV: Spanish headers, one row per pupil, real names quoted and never
    // formulas.
    let r = c
        .teacher
        .req("GET", &format!("{url}?format=csv"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let kind = r
        .headers
        .iter()
        .find(|(k, _)| k == "content-type")
        .map(|(_, v)| v.clone());
    assert!(
        kind.as_deref().is_some_and(|t| t.starts_with("text/csv")),
        "{kind:?}"
    );
    let text = r.body.trim_start_matches('\u{feff}');
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 5, "{text}");
    assert!(
        rows[0].starts_with(
            "Alumno,Nombre,Partidas,Ganadas,Tablas,Perdidas,Minutos jugados,Puntuación antes"
        ),
        "{}",
        rows[0]
    );
    let row_a = rows
        .iter()
        .find(|r| r.starts_with(&format!("{},", a.name)))
        .unwrap();
    assert!(
        row_a.starts_with(&format!("{},{},3,1,1,1,", a.name, a.real_name)),
        "{row_a}"
    );
    assert!(row_a.ends_with(",0,blitz,0,0"), "{row_a}");
    assert!(
        text.contains(&format!("{quiet},\"'=Pérez, \"\"Ana\"\"\",0,0,0,0,0,,,,0,")),
        "{text}"
    );
}

both_dbs!(progress_counts_each_pupils_games, progress_run);

async fn refusals_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 1).await;
    let mut other = class_with_pupils(&s, 1).await;
    let (mut outsider, _) = account(s.addr, "Fuera").await;
    let mut guest = Browser::new(s.addr);
    let url = format!("/api/classes/{}/progress", c.id);
    for (who, web) in [
        ("guest", &mut guest),
        ("outsider", &mut outsider),
        ("other teacher", &mut other.teacher),
    ] {
        let r = web.req("GET", &url, None).await;
        assert_eq!(r.status, 404, "{who}: {}", r.body);
        assert_eq!(r.json()["code"], "class_not_found");
        // The class is not told, whatever the query.
        let r = web.req("GET", &format!("{url}?from=nada"), None).await;
        assert_eq!(r.json()["code"], "class_not_found", "{who}");
    }
    let r = c.pupils[0].web.req("GET", &url, None).await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.json()["code"], "teachers_only");
    assert!(!r.body.contains("Alumno Número"));
    for (q, code) in [
        ("from=2026-11-02&to=2026-11-01", "bad_period"),
        ("from=2026-02-30", "bad_period"),
        ("to=ayer", "bad_period"),
        ("from=2000-01-01&to=2026-01-01", "bad_period"),
        ("tz=5000", "bad_period"),
        ("tz=tres", "malformed"),
        ("format=xlsx", "bad_format"),
        ("desde=2026-01-01", "malformed"),
    ] {
        let r = c.teacher.req("GET", &format!("{url}?{q}"), None).await;
        assert_eq!(r.status, 400, "{q}: {}", r.body);
        assert_eq!(r.json()["code"], code, "{q}: {}", r.body);
        assert!(r.json()["es"].is_string() && r.json()["en"].is_string());
    }
    let r = c
        .teacher
        .req("GET", &format!("{url}?tz=-180&format=json"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

both_dbs!(progress_refusals, refusals_run);
