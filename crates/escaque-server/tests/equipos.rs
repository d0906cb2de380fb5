//! Team tournaments on the server (issue 59, teams), on SQLite and on
//! PostgreSQL: the organiser's desk through the API (create a team Swiss,
//! teams with rosters from names and accounts, line-ups, pairing, results
//! by board, a whole-match forfeit, standings), every rule refused with its
//! reason and nothing changed (a line-up out of the roster's order, a
//! player or an account in two teams, a stranger, a forged or past match
//! code, a body naming another match), the results entered by the teams'
//! phones from a match's code (one enters, the other confirms; a conflict
//! stays out of the standings until the arbiter decides, the override
//! logged), round robin and Scheveningen; any body is answered, never with
//! a 5xx (proptest).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::common::*;
use proptest::prelude::*;
use serde_json::{json, Value};

const BASE: &str = "/api/equipos";

/// A GET answered 200: its JSON.
pub(crate) async fn get(b: &mut Browser, path: &str) -> Value {
    let r = b.req("GET", path, None).await;
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    r.json()
}

/// A POST answered 200 or 201: its JSON.
pub(crate) async fn ok(b: &mut Browser, path: &str, body: Value) -> Value {
    let r = b.post(path, body.clone()).await;
    assert!(
        r.status == 200 || r.status == 201,
        "{path} {body}: {} {}",
        r.status,
        r.body
    );
    r.json()
}

/// A refusal: its status and code, both texts present.
async fn refused(b: &mut Browser, path: &str, body: Value, status: u16, code: &str) -> Value {
    let r = b.post(path, body.clone()).await;
    assert_eq!(r.status, status, "{path} {body}: {}", r.body);
    let v = r.json();
    assert_eq!(v["code"], code, "{v}");
    assert!(!v["es"].as_str().unwrap().is_empty() && !v["en"].as_str().unwrap().is_empty());
    v
}

/// `n` players named after the team, rated from `top` down by 10, given
/// in a scrambled order (the server sorts the roster by rating).
fn roster(team: &str, n: usize, top: u16) -> Vec<Value> {
    let mut m: Vec<Value> = (0..n)
        .map(|j| json!({"name": format!("{team} J{}", j + 1), "rating": top - 10 * j as u16}))
        .collect();
    m.reverse();
    m.swap(0, n / 2);
    m
}

async fn new_swiss(org: &mut Browser, teams: usize, boards: u32, rounds: u32) -> String {
    let v = ok(
        org,
        BASE,
        json!({"name": "Liga escolar", "system": "suizo", "rounds": rounds, "boards": boards,
               "city": "Salamanca"}),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_string();
    for i in 0..teams {
        let name = format!("Equipo {}", i + 1);
        ok(
            org,
            &format!("{BASE}/{id}/equipos"),
            json!({"name": name, "school": format!("Colegio {}", i % 3),
                   "members": roster(&name, boards as usize + 1, 2000 - 50 * i as u16),
                   "captain": 1}),
        )
        .await;
    }
    id
}

/// A team Swiss (as [`new_swiss`]) with its first round paired, and that
/// round's match codes (`{round, matches: [{table, code, link}]}`).
async fn paired_swiss(
    org: &mut Browser,
    teams: usize,
    boards: u32,
    rounds: u32,
) -> (String, Value) {
    let id = new_swiss(org, teams, boards, rounds).await;
    ok(org, &format!("{BASE}/{id}/emparejar"), json!({})).await;
    let codes = get(org, &format!("{BASE}/{id}/rondas/1/codigos")).await;
    (id, codes)
}

/// Game points (halves) of a White–Black result for White and Black.
fn halves(r: &str) -> (u32, u32) {
    match r {
        "1-0" | "+-" | "+/-" => (2, 0),
        "0-1" | "-+" | "-/+" => (0, 2),
        "½-½" => (1, 1),
        _ => panic!("{r}"),
    }
}

/// The result the arbiter enters on board `b` of table `t` in round `r`.
fn pattern(r: u32, t: u32, b: u32) -> &'static str {
    ["1-0", "½-½", "0-1", "1-0", "½-½", "1-0", "0-1"][((r * 7 + t * 3 + b) % 7) as usize]
}

/// Enters every board of `round` as the arbiter, and returns each team's
/// match points and game points (halves) as this test works them out
/// from the results it entered (2/1/0; a bye 2 and a point per board).
async fn play_round(
    org: &mut Browser,
    id: &str,
    round: u32,
    boards: u32,
    totals: &mut HashMap<u64, (u32, u32)>,
) {
    let v = get(org, &format!("{BASE}/{id}")).await;
    let r = &v["rounds"][round as usize - 1];
    for m in r["matches"].as_array().unwrap() {
        let table = m["table"].as_u64().unwrap() as u32;
        let (mut h, mut a) = (0, 0);
        for b in m["boards"].as_array().unwrap() {
            let n = b["board"].as_u64().unwrap() as u32;
            let res = pattern(round, table, n);
            ok(
                org,
                &format!("{BASE}/{id}/resultado"),
                json!({"round": round, "table": table, "board": n, "result": res}),
            )
            .await;
            let (w, bl) = halves(res);
            if b["white"] == "home" {
                h += w;
                a += bl;
            } else {
                h += bl;
                a += w;
            }
        }
        let (mh, ma) = match h.cmp(&a) {
            std::cmp::Ordering::Greater => (2, 0),
            std::cmp::Ordering::Equal => (1, 1),
            std::cmp::Ordering::Less => (0, 2),
        };
        let e = totals.entry(m["home"].as_u64().unwrap()).or_default();
        *e = (e.0 + mh, e.1 + h);
        let e = totals.entry(m["away"].as_u64().unwrap()).or_default();
        *e = (e.0 + ma, e.1 + a);
    }
    // The pairing-allocated bye: a drawn match, a draw's match points and
    // ½ a board (C.04.6 art. 1.4, escaque's default since issue 59).
    if let Some(bye) = r["bye"].as_u64() {
        let e = totals.entry(bye).or_default();
        *e = (e.0 + 1, e.1 + boards);
    }
}

fn halves_text(h: u32) -> String {
    // As the printouts write points: `3,5`, `0,5`, `4`.
    if h % 2 == 1 {
        format!("{},5", h / 2)
    } else {
        (h / 2).to_string()
    }
}

/// The standings say what the test worked out, and are in order of match
/// points.
fn check_standings(v: &Value, totals: &HashMap<u64, (u32, u32)>) {
    let rows = v["standings"].as_array().unwrap();
    assert_eq!(rows.len(), totals.len(), "{v}");
    let mut last = u64::MAX;
    for row in rows {
        let team = row["team"].as_u64().unwrap();
        let (mp, gp) = totals[&team];
        assert_eq!(
            row["match_points"].as_u64().unwrap(),
            u64::from(mp),
            "{row}"
        );
        assert_eq!(
            row["game_points"].as_str().unwrap(),
            halves_text(gp),
            "{row}"
        );
        let codes: Vec<&str> = row["tiebreaks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes, ["GPTS", "EMGSB", "DE"], "{row}");
        assert!(row["match_points"].as_u64().unwrap() <= last);
        last = row["match_points"].as_u64().unwrap();
    }
}

async fn desk_runs_a_team_swiss_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let addr = s.addr;
    let (mut org, _) = account(addr, "Org").await;
    let (_ana_web, ana) = account(addr, "Ana").await;
    let (_luis_web, luis) = account(addr, "Luis").await;
    let id = new_swiss(&mut org, 4, 4, 3).await;
    // A fifth team, two of its players from accounts (named by them).
    let v = ok(
        &mut org,
        &format!("{BASE}/{id}/equipos"),
        json!({"name": "Club Norte", "school": "Club Norte", "fixed_order": true,
               "members": [{"account": ana, "rating": 1500}, {"account": luis},
                           {"name": "Eva Ruiz", "rating": 1900, "category": "sub10"},
                           {"name": "Leo Gil"}]}),
    )
    .await;
    assert_eq!(v["team"], 5);
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    assert_eq!(v["status"], "registration");
    assert_eq!(v["can_edit"], true);
    assert_eq!(v["next_round"], 1);
    // Rosters sorted by rating, highest first; a fixed order kept.
    let t1: Vec<&str> = v["teams"][0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        t1,
        [
            "Equipo 1 J1",
            "Equipo 1 J2",
            "Equipo 1 J3",
            "Equipo 1 J4",
            "Equipo 1 J5"
        ]
    );
    let norte = &v["teams"][4];
    assert_eq!(norte["members"][0]["name"], ana.as_str());
    assert_eq!(norte["members"][0]["account"], ana.as_str());
    assert_eq!(norte["members"][1]["account"], luis.as_str());
    assert_eq!(norte["members"][2]["category"], "sub10");
    assert_eq!(norte["members"][3]["account"], Value::Null);
    // A visitor sees it, cannot change it.
    let mut visitor = Browser::new(addr);
    let pub_view = get(&mut visitor, &format!("{BASE}/{id}")).await;
    assert_eq!(pub_view["can_edit"], false);
    refused(
        &mut visitor,
        &format!("{BASE}/{id}/emparejar"),
        json!({}),
        403,
        "not_organiser",
    )
    .await;

    let mut totals = HashMap::new();
    for round in 1..=3u32 {
        let v = ok(&mut org, &format!("{BASE}/{id}/emparejar"), json!({})).await;
        assert_eq!(v["round"], round);
        let v = get(&mut org, &format!("{BASE}/{id}")).await;
        let r = &v["rounds"][round as usize - 1];
        assert_eq!(r["matches"].as_array().unwrap().len(), 2, "{r}");
        let bye = r["bye"].as_u64().expect("five teams: one has the bye");
        // The bye team has no line-up to give.
        refused(
            &mut org,
            &format!("{BASE}/{id}/alineacion"),
            json!({"round": round, "team": bye, "players": [1, 2, 3, 4]}),
            409,
            "not_playing",
        )
        .await;
        // A match's first team with five players (Club Norte has four)
        // leaves its player 3 out: boards 3 and 4 are its players 4 and 5;
        // the board-1 colour alternates by board.
        let mi = (0..2)
            .find(|&i| {
                let home = r["matches"][i]["home"].as_u64().unwrap() as usize;
                v["teams"][home - 1]["members"].as_array().unwrap().len() >= 5
            })
            .expect("at most one match has Club Norte as its first team");
        let m = &r["matches"][mi];
        let home = m["home"].as_u64().unwrap();
        ok(
            &mut org,
            &format!("{BASE}/{id}/alineacion"),
            json!({"round": round, "team": home, "players": [1, 2, 4, 5]}),
        )
        .await;
        let v = get(&mut org, &format!("{BASE}/{id}")).await;
        let m = &v["rounds"][round as usize - 1]["matches"][mi];
        let roster = &v["teams"][home as usize - 1]["members"];
        assert_eq!(m["boards"][2]["home_player"], roster[3]["name"]);
        assert_eq!(m["boards"][3]["home_player"], roster[4]["name"]);
        let whites: Vec<&str> = m["boards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["white"].as_str().unwrap())
            .collect();
        assert!(
            whites == ["home", "away", "home", "away"]
                || whites == ["away", "home", "away", "home"]
        );
        // Not complete: the next round waits.
        refused(
            &mut org,
            &format!("{BASE}/{id}/emparejar"),
            json!({}),
            409,
            "round_not_complete",
        )
        .await;
        play_round(&mut org, &id, round, 4, &mut totals).await;
        let v = get(&mut org, &format!("{BASE}/{id}")).await;
        for m in v["rounds"][round as usize - 1]["matches"]
            .as_array()
            .unwrap()
        {
            assert_eq!(m["complete"], true);
            let (h, a) = (
                m["home_match_points"].as_u64().unwrap(),
                m["away_match_points"].as_u64().unwrap(),
            );
            assert_eq!(h + a, 2, "{m}");
            assert!(m["boards"]
                .as_array()
                .unwrap()
                .iter()
                .all(|b| b["state"] == "arbiter"));
        }
        check_standings(&v, &totals);
    }
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    assert_eq!(v["status"], "finished");
    assert_eq!(v["next_round"], Value::Null);
    // No two teams met twice in the Swiss.
    let mut met = std::collections::HashSet::new();
    for r in v["rounds"].as_array().unwrap() {
        for m in r["matches"].as_array().unwrap() {
            let (a, b) = (m["home"].as_u64().unwrap(), m["away"].as_u64().unwrap());
            assert!(met.insert((a.min(b), a.max(b))), "{a} and {b} met twice");
        }
    }
    refused(
        &mut org,
        &format!("{BASE}/{id}/emparejar"),
        json!({}),
        409,
        "tournament_over",
    )
    .await;
}

both_dbs!(desk_runs_a_team_swiss, desk_runs_a_team_swiss_run);

/// The organiser's view with `can_edit` as a visitor sees it: what a
/// refusal must leave as it was.
async fn snapshot(org: &mut Browser, id: &str) -> Value {
    get(org, &format!("{BASE}/{id}")).await
}

async fn bad_input_changes_nothing_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let addr = s.addr;
    let (mut org, _) = account(addr, "Org").await;
    let (_w, ana) = account(addr, "Ana").await;
    let id = new_swiss(&mut org, 4, 3, 3).await;
    let other = new_swiss(&mut org, 2, 3, 1).await;
    let p = |x: &str| format!("{BASE}/{id}/{x}");

    // Creation refused with reasons.
    for (body, code) in [
        (
            json!({"name": "X", "system": "suizo", "boards": 4}),
            "bad_rounds",
        ),
        (
            json!({"name": "X", "system": "liguilla", "rounds": 3, "boards": 4}),
            "bad_rounds",
        ),
        (
            json!({"name": "X", "system": "olimpico", "rounds": 3, "boards": 4}),
            "bad_system",
        ),
        (
            json!({"name": "X", "system": "suizo", "rounds": 3, "boards": 0}),
            "bad_boards",
        ),
        (
            json!({"name": " ", "system": "suizo", "rounds": 3, "boards": 4}),
            "bad_name",
        ),
        (
            json!({"name": "X", "system": "suizo", "rounds": 3, "boards": 4, "scoring": "1/1/0"}),
            "bad_scoring",
        ),
    ] {
        refused(&mut org, BASE, body, 400, code).await;
    }
    let before = snapshot(&mut org, &id).await;
    // A player in two teams (same name), an account in two teams, an
    // unknown account, a captain outside the roster, an empty roster.
    refused(
        &mut org,
        &p("equipos"),
        json!({"name": "Otro", "members": [{"name": "equipo 1  j2"}]}),
        409,
        "player_in_two_teams",
    )
    .await;
    refused(
        &mut org,
        &p("equipos"),
        json!({"name": "Otro", "members": [{"name": "Nadie"}, {"name": "nadie"}]}),
        400,
        "player_twice",
    )
    .await;
    refused(
        &mut org,
        &p("equipos"),
        json!({"name": "Otro", "members": [{"account": "nohayx"}]}),
        404,
        "no_such_account",
    )
    .await;
    refused(
        &mut org,
        &p("equipos"),
        json!({"name": "Otro", "members": [{"name": "A"}], "captain": 2}),
        400,
        "no_such_member",
    )
    .await;
    refused(
        &mut org,
        &p("equipos"),
        json!({"name": "Otro", "members": []}),
        400,
        "bad_roster",
    )
    .await;
    refused(
        &mut org,
        &p("equipos"),
        json!({"name": "Equipo 1", "members": [{"name": "Z"}]}),
        409,
        "duplicate_team",
    )
    .await;
    assert_eq!(snapshot(&mut org, &id).await, before);
    ok(
        &mut org,
        &p("equipos"),
        json!({"name": "Con cuenta", "members": [{"account": ana}]}),
    )
    .await;
    let before = snapshot(&mut org, &id).await;
    refused(
        &mut org,
        &p("equipos"),
        json!({"name": "Otra", "members": [{"account": ana, "name": "Alias"}]}),
        409,
        "player_in_two_teams",
    )
    .await;
    // A stranger changes nothing.
    let mut stranger = Browser::new(addr);
    for (path, body) in [
        (
            p("equipos"),
            json!({"name": "Intruso", "members": [{"name": "I"}]}),
        ),
        (p("emparejar"), json!({})),
        (
            p("resultado"),
            json!({"round": 1, "table": 1, "board": 1, "result": "1-0"}),
        ),
    ] {
        refused(&mut stranger, &path, body, 403, "not_organiser").await;
    }
    assert_eq!(stranger.req("GET", &p("registro"), None).await.status, 403);
    assert_eq!(
        stranger
            .req("GET", &p("rondas/1/codigos"), None)
            .await
            .status,
        403
    );
    assert_eq!(snapshot(&mut org, &id).await, before);

    ok(&mut org, &p("emparejar"), json!({})).await;
    let v = snapshot(&mut org, &id).await;
    let m = &v["rounds"][0]["matches"][0];
    let home = m["home"].as_u64().unwrap();
    let away = m["away"].as_u64().unwrap();
    // Line-ups: out of the roster's order, a player twice, too many, a
    // player not in the roster, a player 0, a team not in the tournament.
    for (players, status, code) in [
        (json!([2, 1, 3]), 400, "lineup_order"),
        (json!([1, 3, 2]), 400, "lineup_order"),
        (json!([1, 1]), 400, "player_twice"),
        (json!([1, 2, 3, 4]), 400, "lineup_size"),
        (json!([1, 9]), 400, "no_such_member"),
        (json!([0, 1]), 400, "no_such_member"),
        (json!([]), 400, "lineup_size"),
    ] {
        refused(
            &mut org,
            &p("alineacion"),
            json!({"round": 1, "team": home, "players": players}),
            status,
            code,
        )
        .await;
    }
    refused(
        &mut org,
        &p("alineacion"),
        json!({"round": 1, "team": 99, "players": [1]}),
        404,
        "no_such_team",
    )
    .await;
    refused(
        &mut org,
        &p("alineacion"),
        json!({"round": 7, "team": home, "players": [1]}),
        404,
        "no_such_round",
    )
    .await;
    assert_eq!(snapshot(&mut org, &id).await, v);
    // A short line-up: the last board is empty, lost by forfeit; no result
    // can be entered there, and the line-up is locked once a result is in.
    ok(
        &mut org,
        &p("alineacion"),
        json!({"round": 1, "team": away, "players": [1, 2]}),
    )
    .await;
    let v = snapshot(&mut org, &id).await;
    let b3 = &v["rounds"][0]["matches"][0]["boards"][2];
    assert_eq!(b3["away_player"], Value::Null);
    assert_eq!(b3["state"], "forfeit");
    let home_forfeit = if b3["white"] == "home" { "+/-" } else { "-/+" };
    assert_eq!(b3["result"], home_forfeit);
    refused(
        &mut org,
        &p("resultado"),
        json!({"round": 1, "table": 1, "board": 3, "result": "1-0"}),
        409,
        "empty_board",
    )
    .await;
    ok(
        &mut org,
        &p("resultado"),
        json!({"round": 1, "table": 1, "board": 1, "result": "1-0"}),
    )
    .await;
    let v = snapshot(&mut org, &id).await;
    refused(
        &mut org,
        &p("alineacion"),
        json!({"round": 1, "team": away, "players": [1, 2, 3]}),
        409,
        "lineup_locked",
    )
    .await;
    // Results: no such match, board or round; a result that is no result.
    for (body, status, code) in [
        (
            json!({"round": 1, "table": 9, "board": 1, "result": "1-0"}),
            404,
            "no_such_match",
        ),
        (
            json!({"round": 1, "table": 1, "board": 9, "result": "1-0"}),
            404,
            "no_such_board",
        ),
        (
            json!({"round": 2, "table": 1, "board": 1, "result": "1-0"}),
            404,
            "no_such_round",
        ),
        (
            json!({"round": 1, "table": 1, "board": 2, "result": "2-0"}),
            400,
            "bad_result",
        ),
    ] {
        refused(&mut org, &p("resultado"), body, status, code).await;
    }
    refused(
        &mut org,
        &p("incomparecencia"),
        json!({"round": 1, "table": 1, "by": "nadie"}),
        400,
        "bad_side",
    )
    .await;
    assert_eq!(snapshot(&mut org, &id).await, v);

    // Codes: malformed, forged, of another tournament's match, of another
    // match; a phone's double forfeit.
    let codes = get(&mut org, &p("rondas/1/codigos")).await;
    let code = codes["matches"][0]["code"].as_str().unwrap().to_string();
    assert!(codes["matches"][0]["link"]
        .as_str()
        .unwrap()
        .ends_with(&format!("/equipos/resultado/{code}")));
    let mut phone = Browser::new(addr);
    assert_eq!(
        phone
            .req("GET", &format!("{BASE}/codigo/abc"), None)
            .await
            .status,
        400
    );
    let forged = "a".repeat(20);
    let r = phone
        .req("GET", &format!("{BASE}/codigo/{forged}"), None)
        .await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (404, json!("no_such_code"))
    );
    let entry = |t: &str, table: u32, board: u32, side: &str, res: &str| json!({"tournament": t, "round": 1, "table": table, "board": board, "side": side, "result": res});
    refused(
        &mut phone,
        &format!("{BASE}/codigo/{forged}"),
        entry(&id, 1, 2, "home", "1-0"),
        404,
        "no_such_code",
    )
    .await;
    refused(
        &mut phone,
        &format!("{BASE}/codigo/{code}"),
        entry(&other, 1, 2, "home", "1-0"),
        409,
        "wrong_match",
    )
    .await;
    refused(
        &mut phone,
        &format!("{BASE}/codigo/{code}"),
        entry(&id, 2, 2, "home", "1-0"),
        409,
        "wrong_match",
    )
    .await;
    refused(
        &mut phone,
        &format!("{BASE}/codigo/{code}"),
        entry(&id, 1, 2, "home", "--"),
        400,
        "arbiter_only",
    )
    .await;
    refused(
        &mut phone,
        &format!("{BASE}/codigo/{code}"),
        entry(&id, 1, 2, "blancas", "1-0"),
        400,
        "bad_side",
    )
    .await;
    refused(
        &mut phone,
        &format!("{BASE}/codigo/{code}"),
        entry(&id, 1, 1, "home", "0-1"),
        409,
        "already_final",
    )
    .await;
    refused(
        &mut phone,
        &format!("{BASE}/codigo/{code}"),
        entry(&id, 1, 3, "home", "1-0"),
        409,
        "empty_board",
    )
    .await;
    // The other tournament's code does not open this one's match.
    ok(&mut org, &format!("{BASE}/{other}/emparejar"), json!({})).await;
    let oc = get(&mut org, &format!("{BASE}/{other}/rondas/1/codigos")).await;
    let ocode = oc["matches"][0]["code"].as_str().unwrap();
    refused(
        &mut phone,
        &format!("{BASE}/codigo/{ocode}"),
        entry(&id, 1, 2, "home", "1-0"),
        409,
        "wrong_match",
    )
    .await;
    // An individual board's code route does not open a team match.
    let r = phone
        .req("GET", &format!("/api/resultados/{code}"), None)
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(snapshot(&mut org, &id).await, v);

    // A past round's code: refused once round 2 is paired.
    ok(
        &mut org,
        &p("incomparecencia"),
        json!({"round": 1, "table": 1, "by": "away"}),
    )
    .await;
    ok(
        &mut org,
        &p("incomparecencia"),
        json!({"round": 1, "table": 2, "by": "both"}),
    )
    .await;
    let v = snapshot(&mut org, &id).await;
    assert_eq!(v["rounds"][0]["matches"][0]["home_match_points"], 2);
    assert_eq!(v["rounds"][0]["matches"][1]["home_match_points"], 0);
    assert_eq!(v["rounds"][0]["matches"][1]["away_match_points"], 0);
    ok(&mut org, &p("emparejar"), json!({})).await;
    let r = phone
        .req("GET", &format!("{BASE}/codigo/{code}"), None)
        .await;
    assert_eq!(
        (r.status, r.json()["code"].clone()),
        (410, json!("past_round"))
    );
}

both_dbs!(bad_input_changes_nothing, bad_input_changes_nothing_run);

async fn phones_enter_and_confirm_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let addr = s.addr;
    let mut org = Browser::new(addr);
    let (id, codes) = paired_swiss(&mut org, 2, 4, 1).await;
    let code = codes["matches"][0]["code"].as_str().unwrap().to_string();
    // Asked again: the same code.
    let again = get(&mut org, &format!("{BASE}/{id}/rondas/1/codigos")).await;
    assert_eq!(again, codes);
    let mut home = Browser::new(addr);
    let mut away = Browser::new(addr);
    let url = format!("{BASE}/codigo/{code}");
    let opened = get(&mut home, &url).await;
    assert_eq!(opened["tournament"], id.as_str());
    assert_eq!(opened["round"], 1);
    assert_eq!(opened["match"]["table"], 1);
    assert_eq!(opened["match"]["boards"].as_array().unwrap().len(), 4);
    let e = |board: u32, side: &str, res: &str| json!({"tournament": id, "round": 1, "table": 1, "board": board, "side": side, "result": res});
    let standings_mp = |v: &Value| -> Vec<u64> {
        v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["match_points"].as_u64().unwrap())
            .collect()
    };
    // Board 1: home enters, away confirms. Board 2: they disagree.
    // Boards 3, 4: entered by one side only.
    let v = ok(&mut home, &url, e(1, "home", "1-0")).await;
    assert_eq!(v["match"]["boards"][0]["state"], "entered");
    assert_eq!(v["match"]["boards"][0]["result"], Value::Null);
    let view = get(&mut org, &format!("{BASE}/{id}")).await;
    assert_eq!(
        view["rounds"][0]["matches"][0]["boards"][0]["result"],
        Value::Null
    );
    assert_eq!(standings_mp(&view), [0, 0]);
    let v = ok(&mut away, &url, e(1, "away", "1-0")).await;
    assert_eq!(v["match"]["boards"][0]["state"], "confirmed");
    assert_eq!(v["match"]["boards"][0]["result"], "1-0");
    ok(&mut home, &url, e(2, "home", "½-½")).await;
    let v = ok(&mut away, &url, e(2, "away", "0-1")).await;
    assert_eq!(v["match"]["boards"][1]["state"], "conflict");
    assert_eq!(v["match"]["boards"][1]["result"], Value::Null);
    ok(&mut home, &url, e(3, "home", "0-1")).await;
    ok(&mut away, &url, e(4, "away", "½-½")).await;
    let view = get(&mut org, &format!("{BASE}/{id}")).await;
    let b = &view["rounds"][0]["matches"][0]["boards"];
    let states: Vec<&str> = (0..4).map(|i| b[i]["state"].as_str().unwrap()).collect();
    assert_eq!(states, ["confirmed", "conflict", "entered", "entered"]);
    let results: Vec<Value> = (0..4).map(|i| b[i]["result"].clone()).collect();
    assert_eq!(
        results,
        [json!("1-0"), Value::Null, Value::Null, Value::Null]
    );
    assert_eq!(view["rounds"][0]["matches"][0]["complete"], false);
    // The confirming phones finish boards 3 and 4; the arbiter decides
    // board 2 (an override, logged with what the phones said).
    ok(&mut away, &url, e(3, "away", "0-1")).await;
    ok(&mut home, &url, e(4, "home", "½-½")).await;
    ok(
        &mut org,
        &format!("{BASE}/{id}/resultado"),
        json!({"round": 1, "table": 1, "board": 2, "result": "½-½"}),
    )
    .await;
    let view = get(&mut org, &format!("{BASE}/{id}")).await;
    let m = &view["rounds"][0]["matches"][0];
    assert_eq!(m["complete"], true);
    assert_eq!(m["boards"][1]["state"], "arbiter");
    // 1-0, ½-½, 0-1, ½-½ White–Black; the home team's points follow its
    // colours on each board.
    let mut h = 0;
    for (i, res) in ["1-0", "½-½", "0-1", "½-½"].iter().enumerate() {
        let (w, bl) = halves(res);
        h += if m["boards"][i]["white"] == "home" {
            w
        } else {
            bl
        };
    }
    assert_eq!(m["home_points"].as_str().unwrap(), halves_text(h));
    assert_eq!(m["away_points"].as_str().unwrap(), halves_text(8 - h));
    let log = get(&mut org, &format!("{BASE}/{id}/registro")).await;
    let actions: Vec<(u64, &str, &str)> = log["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["board"].as_u64().unwrap(),
                l["who"].as_str().unwrap(),
                l["action"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        actions,
        [
            (1, "home", "entered"),
            (1, "away", "confirmed"),
            (2, "home", "entered"),
            (2, "away", "conflict"),
            (3, "home", "entered"),
            (4, "away", "entered"),
            (3, "away", "confirmed"),
            (4, "home", "confirmed"),
            (2, "arbiter", "override"),
        ]
    );
    let prev = log["entries"][8]["previous"].as_str().unwrap();
    assert!(prev.contains("½-½") && prev.contains("0-1"), "{prev}");
    // Once final, a phone cannot change it.
    refused(&mut home, &url, e(2, "home", "1-0"), 409, "already_final").await;
}

both_dbs!(phones_enter_and_confirm, phones_enter_and_confirm_run);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_robin_and_scheveningen() {
    let Some(s) = start(Db::Sqlite).await else {
        return;
    };
    let mut org = Browser::new(s.addr);
    // Round robin of 4 teams: 3 rounds, everybody meets everybody once.
    let id = ok(
        &mut org,
        BASE,
        json!({"name": "Liga", "system": "liguilla", "boards": 2, "scoring": "3/1/0"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for i in 0..4 {
        let name = format!("E{i}");
        ok(
            &mut org,
            &format!("{BASE}/{id}/equipos"),
            json!({"name": name, "members": roster(&name, 2, 1800)}),
        )
        .await;
    }
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    assert_eq!(v["total_rounds"], 3);
    assert_eq!(v["scoring"], "3/1/0");
    let mut met = std::collections::HashSet::new();
    for round in 1..=3 {
        ok(&mut org, &format!("{BASE}/{id}/emparejar"), json!({})).await;
        let v = get(&mut org, &format!("{BASE}/{id}")).await;
        for m in v["rounds"][round - 1]["matches"].as_array().unwrap() {
            let (a, b) = (m["home"].as_u64().unwrap(), m["away"].as_u64().unwrap());
            met.insert((a.min(b), a.max(b)));
            for board in 1..=2 {
                ok(
                    &mut org,
                    &format!("{BASE}/{id}/resultado"),
                    json!({"round": round, "table": m["table"], "board": board, "result": "1-0"}),
                )
                .await;
            }
        }
        // A team enters no more once the round robin started.
        refused(
            &mut org,
            &format!("{BASE}/{id}/equipos"),
            json!({"name": "Tarde", "members": [{"name": "T"}]}),
            409,
            "started",
        )
        .await;
    }
    assert_eq!(met.len(), 6);
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    assert_eq!(v["status"], "finished");
    // 1-0 on both boards: one board White for each team, so every match
    // is 1-1, a draw: 3 draws × 1 point.
    for row in v["standings"].as_array().unwrap() {
        assert_eq!(row["match_points"], 3, "{row}");
        assert_eq!(row["game_points"], "3");
    }

    // Scheveningen: two teams of 3, every player against every player.
    let id = ok(
        &mut org,
        BASE,
        json!({"name": "Duelo", "system": "scheveningen", "boards": 3}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for name in ["Norte", "Sur"] {
        ok(
            &mut org,
            &format!("{BASE}/{id}/equipos"),
            json!({"name": name, "members": roster(name, 3, 1700)}),
        )
        .await;
    }
    let mut pairs = std::collections::HashSet::new();
    for round in 1..=3 {
        ok(&mut org, &format!("{BASE}/{id}/emparejar"), json!({})).await;
        refused(
            &mut org,
            &format!("{BASE}/{id}/alineacion"),
            json!({"round": round, "team": 1, "players": [1, 2, 3]}),
            409,
            "lineup_fixed",
        )
        .await;
        let v = get(&mut org, &format!("{BASE}/{id}")).await;
        for b in v["rounds"][round - 1]["matches"][0]["boards"]
            .as_array()
            .unwrap()
        {
            pairs.insert((
                b["home_player"].as_str().unwrap().to_string(),
                b["away_player"].as_str().unwrap().to_string(),
            ));
            ok(
                &mut org,
                &format!("{BASE}/{id}/resultado"),
                json!({"round": round, "table": 1, "board": b["board"], "result": "½-½"}),
            )
            .await;
        }
    }
    assert_eq!(pairs.len(), 9, "{pairs:?}");
    refused(
        &mut org,
        &format!("{BASE}/{id}/emparejar"),
        json!({}),
        409,
        "tournament_over",
    )
    .await;
}

/// School rules set at creation (teams per school, a category in every
/// roster, the school ranking) and forbidden pairs (a group, every
/// school's teams): refused with their reasons and nothing changed; the
/// teams kept apart never meet in a three-round Swiss; a round robin
/// takes none.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn school_rules_and_forbidden_pairs() {
    let Some(s) = start(Db::Sqlite).await else {
        return;
    };
    let mut org = Browser::new(s.addr);
    let rules = |school: Value| json!({"name": "Liga", "system": "suizo", "rounds": 3, "boards": 2, "school": school});
    for school in [
        json!({"max_teams": 0}),
        json!({"counted": 100}),
        json!({"categories": [{"category": "sub 12", "players": 1}]}),
        json!({"categories": [{"category": "F:1", "players": 1}]}),
        json!({"categories": [{"category": "F", "players": 0}]}),
        json!({"categories": [{"category": "", "players": 1}]}),
    ] {
        refused(&mut org, BASE, rules(school), 400, "bad_school_rules").await;
    }
    let id = ok(
        &mut org,
        BASE,
        rules(
            json!({"max_teams": 2, "categories": [{"category": "F", "players": 1}], "counted": 2}),
        ),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let team = |name: &str, school: &str, cat: &str| {
        json!({"name": name, "school": school, "members": [
            {"name": format!("{name} A"), "rating": 1800, "category": cat},
            {"name": format!("{name} B"), "rating": 1700}]})
    };
    let teams = format!("{BASE}/{id}/equipos");
    let before = get(&mut org, &format!("{BASE}/{id}")).await;
    let v = refused(
        &mut org,
        &teams,
        team("Sin F", "Sol", "sub12"),
        409,
        "category_short",
    )
    .await;
    assert!(v["es"].as_str().unwrap().contains("categoría F"), "{v}");
    assert_eq!(get(&mut org, &format!("{BASE}/{id}")).await, before);
    for (name, school) in [
        ("Sol A", "Sol"),
        ("Sol B", "sol"),
        ("Luna A", "Luna"),
        ("Luna B", "Luna"),
    ] {
        ok(&mut org, &teams, team(name, school, "f")).await;
    }
    refused(
        &mut org,
        &teams,
        team("Sol C", "Sol", "F"),
        409,
        "school_full",
    )
    .await;
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    assert_eq!(v["teams"].as_array().unwrap().len(), 4);
    assert_eq!(
        v["school"],
        json!({"max_teams": 2, "categories": [{"category": "F", "players": 1}], "counted": 2})
    );
    assert_eq!(v["forbidden"], json!([]));
    // Forbidden pairs: a stranger, one team, an unknown team refused.
    let forbid = format!("{BASE}/{id}/prohibidos");
    let mut stranger = Browser::new(s.addr);
    refused(
        &mut stranger,
        &forbid,
        json!({"teams": [1, 2]}),
        403,
        "not_organiser",
    )
    .await;
    refused(
        &mut org,
        &forbid,
        json!({"teams": [1, 1]}),
        400,
        "forbidden_group",
    )
    .await;
    refused(&mut org, &forbid, json!({}), 400, "forbidden_group").await;
    refused(
        &mut org,
        &forbid,
        json!({"teams": [1, 9]}),
        404,
        "no_such_team",
    )
    .await;
    assert_eq!(
        get(&mut org, &format!("{BASE}/{id}")).await["forbidden"],
        json!([])
    );
    // Every school's teams ("Sol" and "sol" are one school).
    ok(&mut org, &forbid, json!({"same_school": true})).await;
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    assert_eq!(v["forbidden"], json!([[1, 2], [3, 4]]));
    for round in 1..=2u32 {
        ok(&mut org, &format!("{BASE}/{id}/emparejar"), json!({})).await;
        let v = get(&mut org, &format!("{BASE}/{id}")).await;
        for m in v["rounds"][round as usize - 1]["matches"]
            .as_array()
            .unwrap()
        {
            let (a, b) = (m["home"].as_u64().unwrap(), m["away"].as_u64().unwrap());
            assert_ne!(a.div_ceil(2), b.div_ceil(2), "round {round}: {a} and {b}");
            let table = m["table"].as_u64().unwrap();
            for board in 1..=2 {
                ok(
                    &mut org,
                    &format!("{BASE}/{id}/resultado"),
                    json!({"round": round, "table": table, "board": board, "result": "1-0"}),
                )
                .await;
            }
        }
    }
    // Round 3: each team has met both teams of the other school; only
    // the forbidden pairs are left, so no pairing exists.
    refused(
        &mut org,
        &format!("{BASE}/{id}/emparejar"),
        json!({}),
        409,
        "no_pairing",
    )
    .await;
    // The school ranking: both schools, two teams counted each.
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    let schools: Vec<&str> = v["schools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["school"].as_str().unwrap())
        .collect();
    assert_eq!(schools.len(), 2, "{}", v["schools"]);
    for s in v["schools"].as_array().unwrap() {
        assert_eq!(s["teams"].as_array().unwrap().len(), 2, "{s}");
    }
    // A round robin takes no forbidden pairs.
    let rr = ok(
        &mut org,
        BASE,
        json!({"name": "RR", "system": "liguilla", "boards": 1}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for i in 0..2 {
        let name = format!("E{i}");
        ok(
            &mut org,
            &format!("{BASE}/{rr}/equipos"),
            json!({"name": name, "members": roster(&name, 1, 1500)}),
        )
        .await;
    }
    refused(
        &mut org,
        &format!("{BASE}/{rr}/prohibidos"),
        json!({"teams": [1, 2]}),
        409,
        "forbidden_needs_swiss",
    )
    .await;
}

// ---------------------------------------------------------------- proptest

struct Fixture {
    rt: tokio::runtime::Runtime,
    addr: std::net::SocketAddr,
    cookie_org: Browser,
    id: String,
    code: String,
}

fn fixture() -> &'static std::sync::Mutex<Fixture> {
    static F: OnceLock<std::sync::Mutex<Fixture>> = OnceLock::new();
    F.get_or_init(|| {
        let rt = runtime();
        let (addr, org, id, code) = rt.block_on(async {
            let s = start(Db::Sqlite).await.unwrap();
            let addr = s.addr;
            Box::leak(Box::new(s));
            let mut org = Browser::new(addr);
            let (id, c) = paired_swiss(&mut org, 3, 2, 2).await;
            let code = c["matches"][0]["code"].as_str().unwrap().to_string();
            (addr, org, id, code)
        });
        std::sync::Mutex::new(Fixture {
            rt,
            addr,
            cookie_org: org,
            id,
            code,
        })
    })
}

fn field() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..5).prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        prop::sample::select(vec![
            "home", "away", "both", "1-0", "½-½", "--", "*", "suizo", "liguilla", "2/1/0"
        ])
        .prop_map(Value::from),
        prop::collection::vec((0u64..6).prop_map(Value::from), 0..6).prop_map(Value::from),
        prop::collection::vec(
            (
                proptest::option::of(".{0,6}"),
                proptest::option::of(0u16..3000)
            )
                .prop_map(|(n, r)| json!({"name": n, "rating": r})),
            0..4
        )
        .prop_map(Value::from),
        // School rules (POST /api/equipos's `school`).
        (
            proptest::option::of(0u32..120),
            prop::collection::vec((".{0,4}", 0u32..40), 0..3),
            proptest::option::of(0u32..120),
        )
            .prop_map(|(m, c, n)| json!({"max_teams": m, "counted": n,
                "categories": c.into_iter().map(|(category, players)| json!({"category": category, "players": players})).collect::<Vec<_>>()})),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Any body on any of the desk's routes (forbidden pairs and school
    /// rules too) and a phone's: an answer (done,
    /// or a refusal with its code and both texts), never a server error;
    /// and the view still reads, every result in it final (both phones
    /// agreed, or the arbiter's).
    #[test]
    fn any_body_is_answered(
        route in 0usize..7,
        keys in prop::collection::vec(prop::sample::select(vec![
            "name", "system", "rounds", "boards", "scoring", "city", "members", "school",
            "fixed_order", "captain", "round", "team", "players", "table", "board", "result",
            "by", "tournament", "side", "extra", "teams", "same_school", "max_teams",
            "categories", "counted",
        ]), 0..8),
        values in prop::collection::vec(field(), 8),
        own in any::<bool>(),
    ) {
        let f = fixture();
        let mut f = f.lock().unwrap();
        let (addr, id, code) = (f.addr, f.id.clone(), f.code.clone());
        let Fixture { rt, cookie_org, .. } = &mut *f;
        rt.block_on(async {
            let mut body = json!({});
            for (k, v) in keys.iter().zip(values) {
                body[*k] = v;
            }
            if own && route == 6 {
                body["tournament"] = json!(id);
            }
            let path = match route {
                0 => BASE.to_string(),
                1 => format!("{BASE}/{id}/equipos"),
                2 => format!("{BASE}/{id}/alineacion"),
                3 => format!("{BASE}/{id}/resultado"),
                4 => format!("{BASE}/{id}/incomparecencia"),
                5 => format!("{BASE}/{id}/prohibidos"),
                _ => format!("{BASE}/codigo/{code}"),
            };
            let r = if route == 6 {
                Browser::new(addr).post(&path, body.clone()).await
            } else {
                cookie_org.post(&path, body.clone()).await
            };
            assert!(r.status < 500, "{path} {body}: {} {}", r.status, r.body);
            let v: Value = serde_json::from_str(&r.body).unwrap();
            if r.status >= 400 {
                assert_eq!(v["t"], "error", "{v}");
                assert!(!v["es"].as_str().unwrap().is_empty());
            }
            let view = get(cookie_org, &format!("{BASE}/{id}")).await;
            for m in view["rounds"][0]["matches"].as_array().unwrap() {
                for b in m["boards"].as_array().unwrap() {
                    if b["result"].is_string() {
                        assert!(matches!(b["state"].as_str().unwrap(), "confirmed" | "arbiter" | "forfeit"), "{b}");
                    }
                    if b["state"] == "confirmed" {
                        assert_eq!(b["home_claim"], b["away_claim"], "{b}");
                        assert_eq!(b["home_claim"], b["result"], "{b}");
                    }
                }
            }
        });
    }
}

// ---------------------------------------------------------------- printouts

/// The round's pairing sheet (PDF, organiser only) holds one QR code per
/// match, each its match's link (scanned back: pdftoppm + rqrr, as the
/// login cards are), and each link opens that match; the standings with
/// the crosstable and the board-by-board results are PDFs in Spanish; the
/// round's page draws the codes and marks the boards to look at.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn printed_pairing_sheet_opens_its_matches() {
    let Some(s) = start(Db::Sqlite).await else {
        return;
    };
    let addr = s.addr;
    let mut org = Browser::new(addr);
    let (id, codes) = paired_swiss(&mut org, 7, 4, 3).await;
    let path = format!("{BASE}/{id}/rondas/1/emparejamientos.pdf");
    let raw = escaque_server::client::http_raw(
        addr,
        &addr.to_string(),
        "GET",
        &path,
        None,
        &[("Cookie", &org.cookies.join("; "))],
    )
    .await
    .unwrap();
    assert_eq!(raw.status, 200);
    assert_eq!(raw.header("content-type"), Some("application/pdf"));
    let _ = std::fs::write(
        crate::browser::shots_dir().join("equipos-emparejamientos.pdf"),
        &raw.body,
    );
    let text = String::from_utf8_lossy(&raw.body);
    assert!(text.contains("(Ronda 1: emparejamientos por encuentro) Tj"));
    assert!(text.contains("Exento: "), "seven teams: a bye");
    // Scan every page in overlapping bands, each taller than a code and
    // short enough to hold few (rqrr's finder, given a whole page of
    // codes, now and then joins the finder patterns of two codes into one
    // grid it cannot read): the codes found are the round's, and a band
    // never reads a code that is not.
    let dir = temp_dir("equipos-pdf");
    let pages = crate::class_cards::print_pages(&raw.body, &dir);
    let mut found = std::collections::BTreeSet::new();
    for page in &pages {
        let (w, h, pixels) = crate::class_cards::read_pgm(page);
        let band = (h / 5).min(h);
        let mut y = 0;
        while y < h {
            let ch = band.min(h - y);
            for text in crate::class_cards::decode_crop(w, &pixels, (0, y, w, ch)) {
                if !text.starts_with("unreadable") {
                    found.insert(text);
                }
            }
            y += band / 3;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let found: Vec<String> = found.into_iter().collect();
    let mut want: Vec<String> = codes["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["link"].as_str().unwrap().to_string())
        .collect();
    want.sort();
    assert_eq!(want.len(), 3);
    assert_eq!(found, want);
    for m in codes["matches"].as_array().unwrap() {
        let link = m["link"].as_str().unwrap();
        assert!(link.starts_with(&format!("http://{addr}/equipos/resultado/")));
        let code = m["code"].as_str().unwrap();
        let mut phone = Browser::new(addr);
        let v = get(&mut phone, &format!("{BASE}/codigo/{code}")).await;
        assert_eq!(v["match"]["table"], m["table"]);
        // The link itself opens the match's form on a phone.
        let page = phone
            .req(
                "GET",
                link.strip_prefix(&format!("http://{addr}")).unwrap(),
                None,
            )
            .await;
        assert_eq!(page.status, 200, "{}", page.body);
        assert!(page
            .body
            .contains(&format!("data-table=\"{}\"", m["table"])));
        assert!(page.body.contains("name=\"side\" value=\"home\""));
    }
    // Only the organiser prints the codes.
    let mut stranger = Browser::new(addr);
    assert_eq!(stranger.req("GET", &path, None).await.status, 403);
    assert_eq!(
        stranger
            .req("GET", &format!("/equipos/{id}/rondas/1"), None)
            .await
            .status,
        403
    );
    // One board in conflict: the round's page says so, with the codes.
    let code = codes["matches"][0]["code"].as_str().unwrap();
    let e = |side: &str, res: &str| json!({"tournament": id, "round": 1, "table": 1, "board": 1, "side": side, "result": res});
    ok(
        &mut Browser::new(addr),
        &format!("{BASE}/codigo/{code}"),
        e("home", "1-0"),
    )
    .await;
    ok(
        &mut Browser::new(addr),
        &format!("{BASE}/codigo/{code}"),
        e("away", "0-1"),
    )
    .await;
    let page = org
        .req("GET", &format!("/equipos/{id}/rondas/1"), None)
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(page.body.matches("<svg class=\"qr\"").count(), 3);
    assert!(page
        .body
        .contains("data-board=\"1\" data-state=\"conflict\""));
    assert!(page.body.contains("(en conflicto: <strong>1</strong>)"));
    assert!(page
        .body
        .contains(&format!("/api/equipos/{id}/rondas/1/emparejamientos.pdf")));
    // Standings with the crosstable, and board by board: anyone.
    let mut visitor = Browser::new(addr);
    for (p, needle) in [
        ("clasificacion.pdf", "(Cuadro cruzado) Tj"),
        ("tableros.pdf", "(Resultados por tablero) Tj"),
    ] {
        let r = escaque_server::client::http_raw(
            addr,
            &addr.to_string(),
            "GET",
            &format!("{BASE}/{id}/{p}"),
            None,
            &[],
        )
        .await
        .unwrap();
        assert_eq!(r.status, 200);
        assert!(r.body.starts_with(b"%PDF-1.4"));
        assert!(String::from_utf8_lossy(&r.body).contains(needle), "{p}");
        let _ = &mut visitor;
    }
}

/// Requested byes at the desk (`POST …/descansos`): refused for a
/// stranger, an unknown kind or team, a round already paired or past the
/// last, and in a round robin, each with nothing changed; asked again for
/// the same round and team, the new kind replaces the old; the team is
/// left out of its round's pairing and scores what its kind gives (a drawn
/// match's match points for `medio`).
async fn team_byes_at_the_desk_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut org = Browser::new(s.addr);
    let id = new_swiss(&mut org, 5, 2, 3).await;
    let byes = format!("{BASE}/{id}/descansos");
    let before = snapshot(&mut org, &id).await;
    assert_eq!(before["requested_byes"], json!([]));
    let mut stranger = Browser::new(s.addr);
    let asked = json!({"round": 1, "team": 5, "kind": "medio"});
    refused(&mut stranger, &byes, asked.clone(), 403, "not_organiser").await;
    let bad_kind = json!({"round": 1, "team": 5, "kind": "doble"});
    refused(&mut org, &byes, bad_kind, 400, "bad_bye_kind").await;
    let no_team = json!({"round": 1, "team": 9, "kind": "cero"});
    refused(&mut org, &byes, no_team, 404, "no_such_team").await;
    for round in [0, 4] {
        let v = json!({"round": round, "team": 5, "kind": "cero"});
        refused(&mut org, &byes, v, 409, "bye_round").await;
    }
    assert_eq!(snapshot(&mut org, &id).await, before);
    // Round 1: team 5 half; round 2: team 1 zero, then full instead.
    ok(&mut org, &byes, asked).await;
    ok(
        &mut org,
        &byes,
        json!({"round": 2, "team": 1, "kind": "cero"}),
    )
    .await;
    ok(
        &mut org,
        &byes,
        json!({"round": 2, "team": 1, "kind": "completo"}),
    )
    .await;
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    assert_eq!(
        v["requested_byes"],
        json!([{"round": 1, "team": 5, "kind": "medio"},
               {"round": 2, "team": 1, "kind": "completo"}])
    );
    // Round 1 pairs the four others, no pairing-allocated bye.
    ok(&mut org, &format!("{BASE}/{id}/emparejar"), json!({})).await;
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    let r1 = &v["rounds"][0];
    assert_eq!(r1["matches"].as_array().unwrap().len(), 2);
    assert!(r1["bye"].is_null(), "{r1}");
    for m in r1["matches"].as_array().unwrap() {
        assert!(m["home"] != 5 && m["away"] != 5, "{m}");
    }
    let five = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["team"] == 5)
        .unwrap()
        .clone();
    assert_eq!(five["match_points"], 1, "{five}");
    // Round 1 is paired now: too late to ask for it.
    let late = json!({"round": 1, "team": 2, "kind": "cero"});
    let paired = snapshot(&mut org, &id).await;
    refused(&mut org, &byes, late, 409, "bye_round").await;
    assert_eq!(snapshot(&mut org, &id).await, paired);
    // A round robin: every team plays every round.
    let rr = ok(
        &mut org,
        BASE,
        json!({"name": "Liga", "system": "liguilla", "boards": 2}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let v = json!({"round": 1, "team": 1, "kind": "cero"});
    refused(
        &mut org,
        &format!("{BASE}/{rr}/descansos"),
        v,
        409,
        "bye_needs_swiss",
    )
    .await;
}

both_dbs!(team_byes_at_the_desk, team_byes_at_the_desk_run);

/// `baku` at creation: the view says so, round 1 pairs the first half of
/// the teams among themselves (C.04.7's virtual points; without them it
/// would be 1-5, 2-6, 3-7, 4-8), and a round robin asking for it is
/// refused `400 bad_baku`.
async fn baku_at_the_desk_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut org = Browser::new(s.addr);
    let body = json!({"name": "Liga Bakú", "system": "suizo", "rounds": 5, "boards": 2,
                      "baku": true});
    let id = ok(&mut org, BASE, body).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for i in 0..8 {
        let name = format!("Equipo {}", i + 1);
        ok(
            &mut org,
            &format!("{BASE}/{id}/equipos"),
            json!({"name": name, "members": roster(&name, 2, 2000 - 50 * i as u16)}),
        )
        .await;
    }
    assert_eq!(snapshot(&mut org, &id).await["baku"], true);
    ok(&mut org, &format!("{BASE}/{id}/emparejar"), json!({})).await;
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    let matches = v["rounds"][0]["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 4, "{v}");
    for m in matches {
        let (home, away) = (m["home"].as_u64().unwrap(), m["away"].as_u64().unwrap());
        assert_eq!(home <= 4, away <= 4, "{matches:?}");
    }
    let plain = ok(
        &mut org,
        BASE,
        json!({"name": "Liga", "system": "suizo", "rounds": 5, "boards": 2}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(snapshot(&mut org, &plain).await["baku"], false);
    refused(
        &mut org,
        BASE,
        json!({"name": "Liguilla", "system": "liguilla", "boards": 2, "baku": true}),
        400,
        "bad_baku",
    )
    .await;
}

both_dbs!(baku_at_the_desk, baku_at_the_desk_run);
