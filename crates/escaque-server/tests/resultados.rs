//! Results entered by the players from a QR code (issue 59), on SQLite and
//! on PostgreSQL: 100 boards entered by scripted phones (no account, only
//! the board's code), 10 of them in conflict — after every phone's step the
//! standings hold exactly the confirmed results; the arbiter sees the
//! conflicts first and clears them, every override logged. Bad input (a
//! forged code, a code of another tournament or board, a code of a past
//! round, a stranger as arbiter) is refused with its reason and changes
//! nothing; any body a phone may send is answered, never with a 5xx. The
//! printed result slips, scanned back (pdftoppm + rqrr, as the login cards
//! are), open the right board.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::common::*;
use proptest::prelude::*;
use serde_json::{json, Value};

const BASE: &str = "/api/tournaments";

/// An over-the-board Swiss of `players` players and `rounds` rounds, made
/// by `org` (a guest), round 1 paired; its id.
pub(crate) async fn otb_event(
    org: &mut Browser,
    name: &str,
    players: usize,
    rounds: u32,
) -> String {
    let r = org
        .post(
            BASE,
            json!({"name": name, "system": "dutch", "rounds": rounds, "mode": "otb"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let mut csv = String::from("nombre;elo\n");
    for i in 0..players {
        csv.push_str(&format!("Jugador {i:03};{}\n", 1000 + (i * 37) % 900));
    }
    let r = org
        .post(
            &format!("{BASE}/{id}/players/import"),
            json!({"format": "csv", "text": csv}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    id
}

async fn get(b: &mut Browser, path: &str) -> Value {
    let r = b.req("GET", path, None).await;
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    r.json()
}

/// The round's list for the arbiter.
async fn list(org: &mut Browser, id: &str, round: u32) -> Value {
    get(org, &format!("{BASE}/{id}/resultados/{round}")).await
}

/// Board number → code, from the arbiter's list.
fn codes(list: &Value) -> HashMap<u64, String> {
    list["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["board"].as_u64().unwrap(),
                b["code"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Points of a result for White and Black, in halves.
fn halves(r: &str) -> (u32, u32) {
    match r {
        "1-0" | "+-" => (2, 0),
        "0-1" | "-+" => (0, 2),
        "½-½" => (1, 1),
        _ => panic!("{r}"),
    }
}

/// The public view holds exactly the results of `done` on round 1's
/// boards (none where a board is not there), and the standings, once the
/// round is complete, the points they give.
fn check_standings(v: &Value, done: &HashMap<u64, String>) {
    let mut points: HashMap<u64, u32> = HashMap::new();
    for b in v["rounds"][0]["boards"].as_array().unwrap() {
        let n = b["board"].as_u64().unwrap();
        let expect = done.get(&n);
        assert_eq!(
            b["result"].as_str(),
            expect.map(String::as_str),
            "board {n}'s result in the view"
        );
        if let Some(r) = expect {
            let (w, bl) = halves(r);
            *points.entry(b["white"].as_u64().unwrap()).or_default() += w;
            *points.entry(b["black"].as_u64().unwrap()).or_default() += bl;
        }
    }
    // The standings count a round once every board has its result; until
    // then they show none of round 1's.
    let complete = done.len() == v["rounds"][0]["boards"].as_array().unwrap().len();
    assert_eq!(v["round_complete"], complete, "{}", v["standings"]);
    for row in v["standings"]["rows"].as_array().unwrap() {
        let n = row["number"].as_u64().unwrap();
        let want = if complete {
            f64::from(points.get(&n).copied().unwrap_or(0)) / 2.0
        } else {
            0.0
        };
        assert_eq!(row["points"].as_f64().unwrap(), want, "player {n}: {row}");
    }
}

/// A phone (no cookies but its own guest one) sends `result` for `side`.
async fn phone(
    addr: std::net::SocketAddr,
    code: &str,
    body: Value,
) -> escaque_server::client::HttpReply {
    let mut p = Browser::new(addr);
    p.post(&format!("/api/resultados/{code}"), body).await
}

fn entry(id: &str, round: u32, board: u64, side: &str, result: &str) -> Value {
    json!({"tournament": id, "round": round, "board": board, "side": side, "result": result})
}

/// The result of board `n` (what both players say, unless in conflict).
fn result_of(n: u64) -> &'static str {
    ["1-0", "0-1", "½-½", "1-0", "+-", "0-1", "½-½"][(n % 7) as usize]
}

async fn hundred_boards_by_phones_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let addr = s.addr;
    let mut org = Browser::new(addr);
    let id = otb_event(&mut org, "Abierto con resultados por QR", 200, 3).await;
    let l = list(&mut org, &id, 1).await;
    assert_eq!(l["boards"].as_array().unwrap().len(), 100);
    assert_eq!(l["counts"]["missing"], 100);
    assert_eq!(l["current_round"], 1);
    let codes = codes(&l);
    // Codes are the organisers': the public view never shows them.
    let public = org.req("GET", &format!("{BASE}/{id}"), None).await.body;
    let mut stranger = Browser::new(addr);
    let seen = stranger
        .req("GET", &format!("{BASE}/{id}"), None)
        .await
        .body;
    for c in codes.values() {
        assert!(!public.contains(c.as_str()) && !seen.contains(c.as_str()));
    }
    let r = stranger
        .req("GET", &format!("{BASE}/{id}/resultados/1"), None)
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.json()["code"], "not_organiser");
    // Asked again, the same codes.
    assert_eq!(codes, self::codes(&list(&mut org, &id, 1).await));

    let conflicts: Vec<u64> = (1..=10).map(|k| k * 10).collect();
    let mut done: HashMap<u64, String> = HashMap::new();
    for n in 1..=100u64 {
        let code = &codes[&n];
        // The phone opens the board: its players, nothing entered.
        let mut scan = Browser::new(addr);
        let b = get(&mut scan, &format!("/api/resultados/{code}")).await;
        assert_eq!(b["board"], n);
        assert_eq!(b["round"], 1);
        assert_eq!(b["tournament"], id.as_str());
        assert_eq!(b["state"], "missing");
        assert_eq!(b["open"], true);
        let r = result_of(n);
        // White enters first on even boards, Black on odd ones.
        let (first, second) = if n % 2 == 0 {
            ("white", "black")
        } else {
            ("black", "white")
        };
        let a = phone(addr, code, entry(&id, 1, n, first, r)).await;
        assert_eq!(a.status, 200, "{}", a.body);
        assert_eq!(a.json()["state"], "entered");
        assert_eq!(a.json()["result"], Value::Null);
        check_standings(&get(&mut org, &format!("{BASE}/{id}")).await, &done);
        let other = if conflicts.contains(&n) {
            if r == "½-½" {
                "1-0"
            } else {
                "½-½"
            }
        } else {
            r
        };
        let c = phone(addr, code, entry(&id, 1, n, second, other)).await;
        assert_eq!(c.status, 200, "{}", c.body);
        if conflicts.contains(&n) {
            assert_eq!(c.json()["state"], "conflict", "{}", c.body);
            assert_eq!(c.json()["result"], Value::Null);
        } else {
            assert_eq!(c.json()["state"], "confirmed", "{}", c.body);
            assert_eq!(c.json()["result"], r);
            done.insert(n, r.to_string());
        }
        check_standings(&get(&mut org, &format!("{BASE}/{id}")).await, &done);
    }
    // The arbiter's list: the ten conflicts first, in board order.
    let l = list(&mut org, &id, 1).await;
    assert_eq!(l["counts"]["conflict"], 10);
    assert_eq!(l["counts"]["confirmed"], 90);
    assert_eq!(l["counts"]["missing"], 0);
    let order: Vec<u64> = l["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["board"].as_u64().unwrap())
        .collect();
    assert_eq!(order[..10], conflicts[..]);
    for b in &l["boards"].as_array().unwrap()[..10] {
        assert_eq!(b["state"], "conflict");
        assert_ne!(b["white_claim"], b["black_claim"]);
    }
    // A confirmed board takes no other result from a phone; the same
    // result again is answered as it is.
    let again = phone(addr, &codes[&1], entry(&id, 1, 1, "white", result_of(1))).await;
    assert_eq!(again.status, 200, "{}", again.body);
    let other = if result_of(1) == "½-½" {
        "1-0"
    } else {
        "½-½"
    };
    let refused = phone(addr, &codes[&1], entry(&id, 1, 1, "black", other)).await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_eq!(refused.json()["code"], "already_final");
    check_standings(&get(&mut org, &format!("{BASE}/{id}")).await, &done);
    // No next round while the conflicts stand.
    let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    assert_eq!(r.status, 409, "{}", r.body);

    // The arbiter clears them: White's word on half, Black's on the rest.
    for (k, n) in conflicts.iter().enumerate() {
        let b = &l["boards"][k];
        let side = if k % 2 == 0 {
            "white_claim"
        } else {
            "black_claim"
        };
        let r = b[side].as_str().unwrap().to_string();
        let a = org
            .post(
                &format!("{BASE}/{id}/resultados/1/{n}"),
                json!({"result": r}),
            )
            .await;
        assert_eq!(a.status, 200, "{}", a.body);
        assert_eq!(a.json()["state"], "arbiter");
        done.insert(*n, r);
        check_standings(&get(&mut org, &format!("{BASE}/{id}")).await, &done);
    }
    let l = list(&mut org, &id, 1).await;
    assert_eq!(l["counts"]["conflict"], 0);
    assert_eq!(l["counts"]["arbiter"], 10);
    // Every step logged; each of the arbiter's answers replaced a claim
    // that said otherwise: an override, with what the board held.
    let log = get(&mut org, &format!("{BASE}/{id}/resultados")).await;
    let lines = log["lines"].as_array().unwrap();
    let count = |a: &str| lines.iter().filter(|l| l["action"] == a).count();
    assert_eq!(count("entered"), 100);
    assert_eq!(count("confirmed"), 90);
    assert_eq!(count("conflict"), 10);
    assert_eq!(count("override"), 10);
    assert_eq!(lines.len(), 210);
    for l in lines.iter().filter(|l| l["action"] == "override") {
        let prev = l["previous"].as_str().unwrap();
        assert!(prev.contains("blancas") && prev.contains("negras"), "{l}");
        assert!(conflicts.contains(&l["board"].as_u64().unwrap()));
    }
    let r = stranger
        .req("GET", &format!("{BASE}/{id}/resultados"), None)
        .await;
    assert_eq!(r.status, 403);
    // Round 1 is complete: round 2 pairs, and round 1's codes are past.
    let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let old = phone(addr, &codes[&5], entry(&id, 1, 5, "white", "1-0")).await;
    assert_eq!(old.status, 410, "{}", old.body);
    assert_eq!(old.json()["code"], "past_round");
    let l2 = list(&mut org, &id, 2).await;
    let c2 = self::codes(&l2);
    assert!(c2.values().all(|c| !codes.values().any(|o| o == c)));
}

both_dbs!(hundred_boards_by_phones, hundred_boards_by_phones_run);

async fn bad_input_changes_nothing_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let addr = s.addr;
    let mut org = Browser::new(addr);
    let a = otb_event(&mut org, "Torneo A", 8, 2).await;
    let b = otb_event(&mut org, "Torneo B", 8, 2).await;
    let ca = codes(&list(&mut org, &a, 1).await);
    let cb = codes(&list(&mut org, &b, 1).await);
    let before_a = get(&mut org, &format!("{BASE}/{a}")).await;
    let before_b = get(&mut org, &format!("{BASE}/{b}")).await;
    let refusals: Vec<(String, Value, u16, &str)> = vec![
        // A forged code of the right shape; a code of the wrong shape.
        (
            "abcdefghjkmnpqrstuvw".into(),
            entry(&a, 1, 1, "white", "1-0"),
            404,
            "no_such_code",
        ),
        (
            "x".repeat(5),
            entry(&a, 1, 1, "white", "1-0"),
            400,
            "bad_code",
        ),
        // Board 1 of A's code, the result said for tournament B.
        (
            ca[&1].clone(),
            entry(&b, 1, 1, "white", "1-0"),
            409,
            "other_tournament",
        ),
        // A's board 1 code, the phone thought it was board 2.
        (
            ca[&1].clone(),
            entry(&a, 1, 2, "white", "1-0"),
            409,
            "wrong_board",
        ),
        (
            ca[&1].clone(),
            entry(&a, 2, 1, "white", "1-0"),
            409,
            "wrong_board",
        ),
        (
            cb[&3].clone(),
            entry(&a, 1, 3, "black", "0-1"),
            409,
            "other_tournament",
        ),
        (
            ca[&1].clone(),
            entry(&a, 1, 1, "gris", "1-0"),
            400,
            "bad_side",
        ),
        (
            ca[&1].clone(),
            entry(&a, 1, 1, "white", "--"),
            400,
            "arbiter_only",
        ),
        (
            ca[&1].clone(),
            entry(&a, 1, 1, "white", "*"),
            400,
            "arbiter_only",
        ),
        (
            ca[&1].clone(),
            entry(&a, 1, 1, "white", "2-0"),
            400,
            "bad_result",
        ),
        (
            ca[&1].clone(),
            json!({"tournament": a, "round": 1, "board": 1, "side": "white", "result": "1-0", "extra": 1}),
            400,
            "malformed",
        ),
    ];
    for (code, body, status, why) in refusals {
        let r = phone(addr, &code, body.clone()).await;
        assert_eq!(r.status, status, "{why}: {}", r.body);
        assert_eq!(r.json()["code"], why, "{}", r.body);
        assert!(!r.json()["es"].as_str().unwrap().is_empty());
        assert!(!r.json()["en"].as_str().unwrap().is_empty());
    }
    // The forged code's page says so, in Spanish (English on ?lang=en).
    let mut p = Browser::new(addr);
    let page = p.req("GET", "/resultado/abcdefghjkmnpqrstuvw", None).await;
    assert_eq!(page.status, 404);
    assert!(
        page.body.contains("data-code=\"no_such_code\""),
        "{}",
        page.body
    );
    assert!(page.body.contains("no es de ninguna mesa"));
    // A stranger is no arbiter.
    let mut stranger = Browser::new(addr);
    let r = stranger
        .post(
            &format!("{BASE}/{a}/resultados/1/1"),
            json!({"result": "1-0"}),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.json()["code"], "not_organiser");
    // The arbiter's board must exist.
    let r = org
        .post(
            &format!("{BASE}/{a}/resultados/1/9"),
            json!({"result": "1-0"}),
        )
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.json()["code"], "no_such_board");
    // Nothing changed anywhere.
    assert_eq!(get(&mut org, &format!("{BASE}/{a}")).await, before_a);
    assert_eq!(get(&mut org, &format!("{BASE}/{b}")).await, before_b);
    let la = list(&mut org, &a, 1).await;
    assert_eq!(la["counts"]["missing"], 4, "{la}");
    assert!(
        get(&mut org, &format!("{BASE}/{a}/resultados")).await["lines"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // The round done by the arbiter and the next paired, a code of round 1
    // is refused as past.
    for n in 1..=4 {
        let r = org
            .post(
                &format!("{BASE}/{a}/resultados/1/{n}"),
                json!({"result": "½-½"}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["state"], "arbiter");
    }
    let r = org.post(&format!("{BASE}/{a}/rounds"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let before = get(&mut org, &format!("{BASE}/{a}")).await;
    let r = phone(addr, &ca[&2], entry(&a, 1, 2, "white", "1-0")).await;
    assert_eq!(r.status, 410, "{}", r.body);
    assert_eq!(r.json()["code"], "past_round");
    assert!(r.json()["es"].as_str().unwrap().contains("ronda 2"));
    assert_eq!(get(&mut org, &format!("{BASE}/{a}")).await, before);
    // Online tournaments have no codes: their games give the results.
    let r = org
        .post(
            BASE,
            json!({"name": "En línea", "system": "dutch", "rounds": 2, "mode": "online"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
}

both_dbs!(bad_input_changes_nothing, bad_input_changes_nothing_run);

/// The organisers' routes check the right first (issue 53: the
/// `Organising` guard): a stranger is `403 not_organiser` whatever the
/// body or the round says, an unknown tournament `404 no_such_tournament`,
/// and nothing changes; the organiser's own malformed body is still `400`.
async fn the_right_comes_first_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut org = Browser::new(s.addr);
    let a = otb_event(&mut org, "Torneo C", 6, 2).await;
    let before = get(&mut org, &format!("{BASE}/{a}")).await;
    let mut stranger = Browser::new(s.addr);
    let asks: Vec<(&str, String, Option<Value>)> = vec![
        ("GET", format!("{BASE}/{a}/resultados"), None),
        ("GET", format!("{BASE}/{a}/resultados/x"), None),
        ("GET", format!("{BASE}/{a}/rounds/1/resultados.pdf"), None),
        (
            "POST",
            format!("{BASE}/{a}/resultados/1/1"),
            Some(json!({"nope": 1})),
        ),
        (
            "POST",
            format!("{BASE}/{a}/manual-pairing"),
            Some(json!({"games": "x"})),
        ),
        (
            "POST",
            format!("{BASE}/{a}/rounds/1/boards/1/time"),
            Some(json!({"seconds": 0, "color": "x"})),
        ),
        (
            "POST",
            format!("{BASE}/{a}/rounds/1/boards/1/result"),
            Some(json!({"result": "banana"})),
        ),
    ];
    for (method, path, body) in &asks {
        let r = stranger.req(method, path, body.clone()).await;
        assert_eq!(r.status, 403, "{method} {path}: {}", r.body);
        assert_eq!(r.json()["code"], "not_organiser", "{path}: {}", r.body);
        let gone = path.replace(&a, "no-existe");
        let r = stranger.req(method, &gone, body.clone()).await;
        assert_eq!(r.status, 404, "{method} {gone}: {}", r.body);
        assert_eq!(r.json()["code"], "no_such_tournament", "{gone}");
    }
    // The arbiter's page answers the guard's refusal as a page.
    let page = stranger
        .req("GET", &format!("/torneos/{a}/rondas/1/resultados"), None)
        .await;
    assert!(
        page.body.contains("data-code=\"not_organiser\""),
        "{}",
        page.body
    );
    // The organiser passes the guard; the body is read after it.
    let r = org
        .post(&format!("{BASE}/{a}/manual-pairing"), json!({"games": "x"}))
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["code"], "malformed", "{}", r.body);
    assert_eq!(get(&mut org, &format!("{BASE}/{a}")).await, before);
}

both_dbs!(the_right_comes_first, the_right_comes_first_run);

// ---------------------------------------------------------------- printed

async fn printed_slips_open_their_boards_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let addr = s.addr;
    let mut org = Browser::new(addr);
    let id = otb_event(&mut org, "Torneo impreso", 24, 3).await;
    let codes = codes(&list(&mut org, &id, 1).await);
    let r = org
        .req("GET", &format!("{BASE}/{id}/rounds/1/resultados.pdf"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let raw = escaque_server::client::http_raw(
        addr,
        &addr.to_string(),
        "GET",
        &format!("{BASE}/{id}/rounds/1/resultados.pdf"),
        None,
        &[("Cookie", &org.cookies.join("; "))],
    )
    .await
    .unwrap();
    assert_eq!(raw.header("content-type"), Some("application/pdf"));
    if db == Db::Sqlite {
        let _ = std::fs::write(
            crate::browser::shots_dir().join("hojas-resultado.pdf"),
            &raw.body,
        );
    }
    // Twelve slips on two pages, each QR code its board's link, in board
    // order; each link opens that board's form.
    let scanned = crate::class_cards::scan_pdf(&raw.body, 12);
    let expected: Vec<String> = (1..=12u64)
        .map(|n| format!("http://{addr}/resultado/{}", codes[&n]))
        .collect();
    assert_eq!(scanned, expected);
    let v = get(&mut org, &format!("{BASE}/{id}")).await;
    for (i, link) in scanned.iter().enumerate() {
        let path = link.strip_prefix(&format!("http://{addr}")).unwrap();
        let mut phone = Browser::new(addr);
        let page = phone.req("GET", path, None).await;
        assert_eq!(page.status, 200, "{}", page.body);
        let n = i + 1;
        assert!(page.body.contains(&format!("data-board=\"{n}\"")), "{path}");
        let b = &v["rounds"][0]["boards"][i];
        for side in ["white", "black"] {
            let number = b[side].as_u64().unwrap() as usize;
            let name = v["players"][number - 1]["name"].as_str().unwrap();
            assert!(page.body.contains(name), "board {n}: {name}");
        }
    }
    // Only the organisers print them.
    let mut stranger = Browser::new(addr);
    let r = stranger
        .req("GET", &format!("{BASE}/{id}/rounds/1/resultados.pdf"), None)
        .await;
    assert_eq!(r.status, 403);
}

both_dbs!(
    printed_slips_open_their_boards,
    printed_slips_open_their_boards_run
);

// ---------------------------------------------------------------- proptest

struct Fixture {
    rt: tokio::runtime::Runtime,
    addr: std::net::SocketAddr,
    id: String,
    code: String,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let rt = runtime();
        let (addr, id, code) = rt.block_on(async {
            let s = start(Db::Sqlite).await.unwrap();
            let addr = s.addr;
            Box::leak(Box::new(s));
            let mut org = Browser::new(addr);
            let id = otb_event(&mut org, "Fuzz", 4, 2).await;
            let code = codes(&list(&mut org, &id, 1).await)[&1].clone();
            (addr, id, code)
        });
        Fixture { rt, addr, id, code }
    })
}

fn field() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..4).prop_map(Value::from),
        ".{0,16}".prop_map(Value::from),
        prop::sample::select(vec!["white", "black", "1-0", "0-1", "½-½", "--", "*", "+-"])
            .prop_map(Value::from),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any body a phone may send to a code: an answer (a result entered,
    /// or a refusal with its code and both texts), never a server error;
    /// and the standings hold a result only once both sides said it.
    #[test]
    fn any_phone_message_is_answered(
        t in prop_oneof![Just(Value::Null), ".{0,8}".prop_map(Value::from)],
        round in field(), board in field(), side in field(), result in field(),
        own_tournament in any::<bool>(),
        extra in proptest::option::of("[a-z]{1,6}"),
    ) {
        let f = fixture();
        f.rt.block_on(async {
            let mut body = json!({
                "tournament": if own_tournament { Value::from(f.id.clone()) } else { t },
                "round": round, "board": board, "side": side, "result": result,
            });
            if let Some(k) = extra {
                body[k.as_str()] = json!(1);
            }
            let r = phone(f.addr, &f.code, body).await;
            let r = (r.status, r.body);
            assert!(r.0 < 500, "{r:?}");
            let v: Value = serde_json::from_str(&r.1).unwrap();
            if r.0 != 200 {
                assert_eq!(v["t"], "error", "{v}");
                assert!(!v["es"].as_str().unwrap().is_empty());
            }
            // The standings: a result only where both claims agree.
            let mut org = Browser::new(f.addr);
            let b = get(&mut org, &format!("/api/resultados/{}", f.code)).await;
            match b["result"].as_str() {
                Some(res) => {
                    assert_eq!(b["white_claim"].as_str(), Some(res));
                    assert_eq!(b["black_claim"].as_str(), Some(res));
                }
                None => assert!(b["state"] != "confirmed"),
            }
        });
    }
}
