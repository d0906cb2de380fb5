//! Unusual results at the organiser's desk through the HTTP API (issue 58,
//! FIDE's checklist VCL.13): `½-0`, `0-½` and `0-0` entered on the boards
//! of a Swiss in FIDE mode, each player scoring their own points in the
//! view, the standings (the library's, on the stored TRF), the printouts
//! and the TRF; the answer's `previous` names what the board held before
//! (an unusual result by its own text, not the `½-½` it is stored with);
//! other texts, boards and rounds refused, and a stranger changes nothing;
//! FIDE mode stays on and round 2 pairs on the players' own points. On
//! SQLite and on PostgreSQL.

use crate::common;

use common::*;
use escaque_torneo::{fide, pairing, standings, trf, Outcome, Tournament, Unusual};
use serde_json::{json, Value};

const BASE: &str = "/api/tournaments";

async fn fresh_server(db: Db) -> Option<escaque_server::Running> {
    match db {
        Db::Sqlite => start(Db::Sqlite).await,
        Db::Postgres => {
            let url = fresh_postgres_database("inusual").await?;
            start_with(Db::Sqlite, |c| {
                c.database = escaque_server::Database::Url(url);
            })
            .await
        }
    }
}

async fn view(b: &mut Browser, id: &str) -> Value {
    let r = b.req("GET", &format!("{BASE}/{id}"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

async fn stored(b: &mut Browser, id: &str) -> Tournament {
    let r = b.req("GET", &format!("{BASE}/{id}/trf"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    trf::parse(&r.body).unwrap_or_else(|e| panic!("{e:?}\n{}", r.body))
}

/// The unusual results the desk offers (`UNUSUAL` in `web/torneo.js`).
fn offered() -> Vec<String> {
    include_str!("../web/torneo.js")
        .split_once("const UNUSUAL = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| {
            list.split(',')
                .map(|s| s.trim().trim_matches('\'').to_string())
                .collect()
        })
        .expect("the desk's list of unusual results")
}

/// Posts `text` on `board` of `round`: the answer's status and body.
async fn enter(b: &mut Browser, id: &str, round: u32, board: u32, text: &str) -> (u16, Value) {
    let r = b
        .post(
            &format!("{BASE}/{id}/rounds/{round}/boards/{board}/result"),
            json!({ "result": text }),
        )
        .await;
    let body = serde_json::from_str(&r.body).unwrap_or(Value::Null);
    (r.status, body)
}

async fn unusual_results_at_the_desk(db: Db) {
    let Some(server) = fresh_server(db).await else {
        return;
    };
    let mut org = Browser::new(server.addr);
    assert_eq!(offered(), ["½-0", "0-½", "0-0"]);
    let r = org
        .post(
            BASE,
            json!({"name": "Abierto de Reyes", "system": "dutch", "rounds": 3, "mode": "otb",
                   "tiebreaks": ["BH", "SB", "WIN"]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    for (i, name) in ["Ana", "Bruno", "Carmen", "David", "Elena", "Fermín"]
        .iter()
        .enumerate()
    {
        let r = org
            .post(
                &format!("{BASE}/{id}/players"),
                json!({"name": name, "rating": 2000 - 100 * i as i64}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);

    // Entered, corrected, entered again; `previous` says what was there.
    let steps: [(u32, &str, &str, Value); 7] = [
        (1, "½-0", "½-0", Value::Null),
        (1, "1/2-1/2", "½-½", json!("½-0")),
        (1, "1/2-0", "½-0", json!("½-½")),
        (2, "0-0", "0-0", Value::Null),
        (3, "1-0", "1-0", Value::Null),
        (3, "0-½", "0-½", json!("1-0")),
        (3, "0 - 0.5", "0-½", json!("0-½")),
    ];
    for (board, text, back, previous) in steps {
        let (status, body) = enter(&mut org, &id, 1, board, text).await;
        assert_eq!(status, 200, "{text}: {body}");
        assert_eq!(
            body,
            json!({"round": 1, "board": board, "result": back, "previous": previous}),
            "{text}"
        );
    }

    // The view shows each as entered; each player has their own points.
    let v = view(&mut org, &id).await;
    let boards = v["rounds"][0]["boards"].as_array().unwrap().clone();
    let results: Vec<&str> = boards
        .iter()
        .map(|b| b["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["½-0", "0-0", "0-½"]);
    assert_eq!(v["round_complete"], true, "{v}");
    let own = [(0.5, 0.0), (0.0, 0.0), (0.0, 0.5)];
    let points_of = |n: &Value| {
        v["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["number"] == *n)
            .map(|p| p["points"].as_f64().unwrap())
            .unwrap()
    };
    for (b, (w, bl)) in boards.iter().zip(own) {
        assert_eq!(
            (points_of(&b["white"]), points_of(&b["black"])),
            (w, bl),
            "{b}"
        );
    }
    // The stored TRF holds them as unusual results, and the standings the
    // server shows are the library's on it (points, ranks, tie-breaks).
    let t = stored(&mut org, &id).await;
    round_one_as_the_library_scores_it(&t, &v);

    // The printouts write them (`½ - 0`), FIDE mode's mark on each.
    let r = org
        .req("GET", &format!("{BASE}/{id}/rounds/1/print"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    for shown in ["½ - 0", "0 - 0", "0 - ½", "Modo FIDE"] {
        assert!(
            r.body.contains(shown),
            "{shown} not in the pairings printout"
        );
    }
    let r = org
        .req("GET", &format!("{BASE}/{id}/print/standings"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("Modo FIDE"), "the standings printout");

    // Refused, nothing changed: not a result, no such board or round, a
    // stranger.
    for (round, board, text, status, code) in [
        (1, 1, "½-1", 400, "tournament_refused"),
        (1, 1, "0-½F", 400, "tournament_refused"),
        (1, 9, "0-0", 404, "no_such_board"),
        (7, 1, "½-0", 404, "no_such_round"),
    ] {
        let (s, body) = enter(&mut org, &id, round, board, text).await;
        assert_eq!(
            (s, body["code"].as_str()),
            (status, Some(code)),
            "{text}: {body}"
        );
    }
    let mut stranger = Browser::new(server.addr);
    let (s, body) = enter(&mut stranger, &id, 1, 2, "½-0").await;
    assert_eq!(
        (s, body["code"].as_str()),
        (403, Some("not_organiser")),
        "{body}"
    );
    assert_eq!(
        stored(&mut org, &id).await,
        t,
        "a refusal changed the tournament"
    );

    // Still in FIDE mode; round 2 is the Dutch pairing on the own points.
    let st = org.req("GET", &format!("{BASE}/{id}/fide"), None).await;
    assert_eq!(st.json()["on"], true, "{}", st.body);
    assert!(fide::is_on(&t));
    let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let after = stored(&mut org, &id).await;
    let mut expected = t.clone();
    pairing::pair_next_round(&mut expected).expect("the library pairs round 2");
    assert_eq!(after.rounds[1], expected.rounds[1]);
    // A correction of round 1 now: said, and the round paired on it stands.
    let (s, body) = enter(&mut org, &id, 1, 2, "1-0").await;
    assert_eq!((s, &body["previous"]), (200, &json!("0-0")), "{body}");
    let v = view(&mut org, &id).await;
    assert_eq!(v["rounds"][0]["boards"][1]["result"], "1-0");
    assert_eq!(stored(&mut org, &id).await.rounds[1], after.rounds[1]);
    server.abort();
}

both_dbs!(
    unusual_results_entered_and_shown,
    unusual_results_at_the_desk
);

/// Round 1 of the six-player tournaments of these tests holds ½-0, 0-0
/// and 0-½ (stored as unusual results over a drawn outcome), and the
/// standings the server shows (`v`, the view) are the library's on the
/// stored TRF `t`: points, ranks, tie-breaks; only two players scored, ½
/// each.
pub(crate) fn round_one_as_the_library_scores_it(t: &Tournament, v: &Value) {
    let kinds: Vec<Option<Unusual>> = t.rounds[0].games.iter().map(|g| g.unusual).collect();
    assert_eq!(
        kinds,
        [
            Some(Unusual::HalfZero),
            Some(Unusual::ZeroZero),
            Some(Unusual::ZeroHalf)
        ]
    );
    assert!(t.rounds[0].games.iter().all(|g| g.outcome == Outcome::Draw));
    let table = standings::table(t);
    let rows = v["standings"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), table.rows.len());
    for (row, s) in rows.iter().zip(&table.rows) {
        assert_eq!(row["number"], s.player, "{row}");
        assert_eq!(row["rank"], s.rank, "{row}");
        assert_eq!(row["points"].as_f64().unwrap(), f64::from(s.points) / 2.0);
        assert_eq!(row["tiebreaks"], json!(s.tiebreaks), "{row}");
    }
    let scored: Vec<f64> = rows.iter().map(|r| r["points"].as_f64().unwrap()).collect();
    assert_eq!(scored, [0.5, 0.5, 0.0, 0.0, 0.0, 0.0]);
}
