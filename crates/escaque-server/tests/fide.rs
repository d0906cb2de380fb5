//! FIDE mode at the organiser's desk through the HTTP API (issue 58): on
//! by default; leaving refused without both confirmations and for a
//! stranger, then written in the TRF and not undone; a manual pairing's
//! start (the engine's pairing and the warnings, nothing stored) and end
//! (refused with warnings unless accepted, then stored with its `### MPA @
//! Round n` line); pairing numbers frozen once round 4 is paired. On SQLite
//! and on PostgreSQL.

use crate::common;

use common::*;
use escaque_torneo::{fide, trf, Tournament};
use serde_json::{json, Value};

const BASE: &str = "/api/tournaments";

async fn fresh_server(db: Db) -> Option<escaque_server::Running> {
    match db {
        Db::Sqlite => start(Db::Sqlite).await,
        Db::Postgres => {
            let url = fresh_postgres_database("fide").await?;
            start_with(Db::Sqlite, |c| {
                c.database = escaque_server::Database::Url(url);
            })
            .await
        }
    }
}

async fn stored(b: &mut Browser, id: &str) -> (String, Tournament) {
    let r = b.req("GET", &format!("{BASE}/{id}/trf"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    (r.body.clone(), trf::parse(&r.body).unwrap())
}

async fn state(b: &mut Browser, id: &str) -> Value {
    let r = b.req("GET", &format!("{BASE}/{id}/fide"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Every board of the last round won by White.
async fn white_wins(b: &mut Browser, id: &str) {
    let (_, t) = stored(b, id).await;
    let r = t.rounds.len();
    for board in 1..=t.rounds[r - 1].games.len() {
        let res = b
            .post(
                &format!("{BASE}/{id}/rounds/{r}/boards/{board}/result"),
                json!({"result": "1-0"}),
            )
            .await;
        assert_eq!(res.status, 200, "{}", res.body);
    }
}

async fn fide_mode_at_the_desk(db: Db) {
    let Some(server) = fresh_server(db).await else {
        return;
    };
    let addr = server.addr;
    let mut org = Browser::new(addr);
    let r = org
        .post(
            BASE,
            json!({"name": "Abierto FIDE", "system": "dutch", "rounds": 7, "mode": "otb"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    for i in 0..7 {
        let r = org
            .post(
                &format!("{BASE}/{id}/players"),
                json!({"name": format!("Jugador {i}"), "rating": 2000 - 50 * i}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // On by default.
    let s = state(&mut org, &id).await;
    assert_eq!(s["on"], true, "{s}");
    assert_eq!(s["mark_es"], "Modo FIDE");
    assert_eq!(s["numbers_frozen"], false);

    // Round 1 by the engine.
    let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    white_wins(&mut org, &id).await;
    let (_, t) = stored(&mut org, &id).await;
    let g = t.rounds[0].games[0].clone();
    let bye1 = t.rounds[0].byes[0].0;

    // Round 2 by hand: board 1 of round 1 again, the bye to the same player.
    let rest: Vec<u32> = (1..=7)
        .filter(|p| *p != g.white && *p != g.black && *p != bye1)
        .collect();
    let games = json!([[g.white, g.black], [rest[0], rest[1]], [rest[2], rest[3]]]);
    let r = org
        .post(
            &format!("{BASE}/{id}/manual-pairing"),
            json!({"games": games, "bye": bye1}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let a = r.json();
    assert_eq!(a["round"], 2);
    assert_eq!(a["saved"], false);
    assert!(a["engine"]["games"].as_array().unwrap().len() == 3, "{a}");
    let kinds: Vec<&str> = a["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"repeat"), "{a}");
    assert!(kinds.contains(&"ineligible_bye"), "{a}");
    assert_eq!(
        stored(&mut org, &id).await.1.rounds.len(),
        1,
        "start stores nothing"
    );
    // The end without accepting the warnings: refused, nothing stored.
    let r = org
        .post(
            &format!("{BASE}/{id}/manual-pairing"),
            json!({"games": games, "bye": bye1, "save": true}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("ya jugaron entre sí"), "{}", r.body);
    assert_eq!(stored(&mut org, &id).await.1.rounds.len(), 1);
    // A stranger cannot pair.
    let mut stranger = Browser::new(addr);
    let r = stranger
        .post(
            &format!("{BASE}/{id}/manual-pairing"),
            json!({"games": games, "bye": bye1, "save": true, "accept_warnings": true}),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    // Accepted: stored, the comparison written in the TRF.
    let r = org
        .post(
            &format!("{BASE}/{id}/manual-pairing"),
            json!({"games": games, "bye": bye1, "save": true, "accept_warnings": true}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let a = r.json();
    assert_eq!(a["saved"], true);
    let mpa = a["mpa"].as_str().unwrap().to_string();
    assert!(mpa.starts_with("### MPA @ Round 2: manual "), "{mpa}");
    let (text, t) = stored(&mut org, &id).await;
    assert!(text.lines().any(|l| l == mpa), "{text}");
    assert_eq!(t.rounds.len(), 2);
    assert_eq!(state(&mut org, &id).await["log"][0], mpa.as_str());
    white_wins(&mut org, &id).await;
    // A pairing that leaves a player out is refused outright.
    let r = org
        .post(
            &format!("{BASE}/{id}/manual-pairing"),
            json!({"games": [[1, 2]]}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);

    // Rounds 3 and 4 by the engine: the numbers are frozen from then on.
    for _ in 0..2 {
        let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        white_wins(&mut org, &id).await;
    }
    assert_eq!(state(&mut org, &id).await["numbers_frozen"], true);
    // A late entry rated above everyone keeps number 8.
    let r = org
        .post(
            &format!("{BASE}/{id}/players"),
            json!({"name": "Tardío Fuerte", "rating": 2700}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let (_, t) = stored(&mut org, &id).await;
    assert_eq!(t.players[7].name, "Tardío Fuerte", "number 8 kept");
    assert_eq!(t.players[0].name, "Jugador 0");
    white_wins(&mut org, &id).await;

    // Leaving: a stranger, no first confirmation, a wrong name: refused.
    let r = stranger
        .post(
            &format!("{BASE}/{id}/fide/leave"),
            json!({"confirm": true, "name": "Abierto FIDE"}),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    let r = org
        .post(
            &format!("{BASE}/{id}/fide/leave"),
            json!({"confirm": false, "name": "Abierto FIDE"}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = org
        .post(
            &format!("{BASE}/{id}/fide/leave"),
            json!({"confirm": true, "name": "Abierto"}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("no es el nombre del torneo"), "{}", r.body);
    assert_eq!(state(&mut org, &id).await["on"], true);
    // Both: out, written, for good.
    let r = org
        .post(
            &format!("{BASE}/{id}/fide/leave"),
            json!({"confirm": true, "name": "abierto fide"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let s = r.json();
    assert_eq!(s["on"], false);
    assert_eq!(s["mark_es"], "FUERA DEL MODO FIDE (desde la ronda 6)");
    let (text, t) = stored(&mut org, &id).await;
    assert!(!fide::is_on(&t));
    assert!(
        text.lines()
            .any(|l| l.starts_with("### FIDE mode left @ Round 6 by ")),
        "{text}"
    );
    let r = org
        .post(
            &format!("{BASE}/{id}/fide/leave"),
            json!({"confirm": true, "name": "Abierto FIDE"}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("no se puede volver a entrar"), "{}", r.body);
    // Bad bodies: refused, never a crash.
    for body in [
        json!({"confirm": "yes", "name": 3}),
        json!({"games": "1-2"}),
        json!([]),
    ] {
        let r = org
            .post(&format!("{BASE}/{id}/fide/leave"), body.clone())
            .await;
        assert_eq!(r.status, 400, "{}", r.body);
        let r = org.post(&format!("{BASE}/{id}/manual-pairing"), body).await;
        assert_eq!(r.status, 400, "{}", r.body);
    }
    // The printouts carry the mark.
    let r = org
        .req("GET", &format!("{BASE}/{id}/print/standings"), None)
        .await;
    assert_eq!(r.status, 200);
    assert!(r.body.contains("FUERA DEL MODO FIDE"), "{}", r.body);
}

#[tokio::test]
async fn fide_mode_at_the_desk_sqlite() {
    fide_mode_at_the_desk(Db::Sqlite).await;
}

#[tokio::test]
async fn fide_mode_at_the_desk_postgres() {
    fide_mode_at_the_desk(Db::Postgres).await;
}
