//! Random frames thrown at a running server: every frame gets an answer or is
//! ignored, the connection keeps answering, and the server keeps serving.

use crate::common;

use std::sync::OnceLock;

use common::*;
use proptest::prelude::*;
use serde_json::{json, Value};
use tokio::runtime::Runtime;

struct Fixture {
    rt: Runtime,
    addr: std::net::SocketAddr,
    /// The server itself (its store makes the classes of the class bodies'
    /// target); it runs for the rest of the test process.
    server: &'static escaque_server::Running,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let rt = runtime();
        let s = rt
            .block_on(start_with(Db::Sqlite, |c| {
                c.msgs_burst = 1e9;
                c.msgs_per_sec = 1e9;
            }))
            .unwrap();
        let addr = s.addr;
        let server: &'static escaque_server::Running = Box::leak(Box::new(s));
        Fixture { rt, addr, server }
    })
}

fn frame() -> impl Strategy<Value = String> {
    let types = prop::sample::select(vec![
        "move",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "claim_draw",
        "abort",
        "takeback",
        "takeback_answer",
        "rematch",
        "claim_abandoned",
        "pong",
        "state",
        "ping",
        "",
        "MOVE",
        "resignx",
    ]);
    let value = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        ".{0,12}".prop_map(Value::from),
        "[a-h][1-8][a-h][1-8][qrbndtac]?".prop_map(Value::from),
    ];
    prop_oneof![
        // Arbitrary text, including invalid JSON and control characters.
        ".{0,200}",
        // Objects with a known or near-known type and random fields.
        (types, prop::collection::vec(("[a-z_]{1,8}", value), 0..4)).prop_map(|(t, fields)| {
            let mut o = serde_json::Map::new();
            o.insert("t".into(), json!(t));
            for (k, v) in fields {
                o.insert(k, v);
            }
            Value::Object(o).to_string()
        }),
        // Long frames around the size limit.
        (4000usize..5000).prop_map(|n| format!(r#"{{"t":"move","move":"{}"}}"#, "a".repeat(n))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_frames_never_hurt(frames in prop::collection::vec(frame(), 1..12)) {
        let f = fixture();
        f.rt.block_on(async {
            let (mut w, mut b) = friend_game(f.addr, json!({"time_control": "5+0"})).await;
            let game = w.game.clone();
            for (i, fr) in frames.iter().enumerate() {
                let p = if i % 2 == 0 { &mut w } else { &mut b };
                let before = stored(f.addr, &game).await;
                p.ws.send_text(fr).await.expect("send");
                // The connection still answers.
                let st = p.state().await;
                assert_eq!(st["t"], "state");
                // A malformed frame's error, when there is one, is typed.
                let mut done = false;
                for m in p.backlog.drain(..) {
                    if m["t"] == "error" {
                        assert!(m["code"].is_string() && m["es"].is_string() && m["en"].is_string(), "{m}");
                    }
                    done |= m["t"] == "ack";
                }
                // A frame not acknowledged stored nothing (issue 60).
                if !done {
                    assert_eq!(stored(f.addr, &game).await, before, "{fr}");
                }
            }
            // The server still creates games and plays moves.
            let (mut w2, mut b2) = friend_game(f.addr, json!({})).await;
            play_line(&mut w2, &mut b2, &["e4", "e5"]).await;
        });
    }
}

/// What the store holds of a game, as `GET /api/games/{id}` reads it: the
/// position, the moves, the status and result, the offers.
async fn stored(addr: std::net::SocketAddr, game: &str) -> Value {
    let r = Browser::new(addr)
        .req("GET", &format!("/api/games/{game}"), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    json!([
        v["fen"],
        v["plies"],
        v["status"],
        v["result"],
        v["draw_offer"],
        v["takeback_offer"],
        v["moves"]
    ])
}

/// A JSON value of any shape, names the tournament API uses among others.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u32>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,40}".prop_map(Value::from),
        prop::sample::select(vec![
            "dutch",
            "round_robin",
            "online",
            "otb",
            "half",
            "zero",
            "full",
            "csv",
            "list",
            "trf",
            "1-0",
            "½-½",
            "+-",
            "--",
            "*",
            "5+3",
            "fide2023",
        ])
        .prop_map(Value::from),
    ];
    let keys = prop::sample::select(vec![
        "name",
        "system",
        "rounds",
        "mode",
        "time_control",
        "rules",
        "tiebreaks",
        "accelerated",
        "team_size",
        "settings",
        "club",
        "category",
        "birth_year",
        "rating",
        "fide_id",
        "title",
        "sex",
        "format",
        "text",
        "from_round",
        "round",
        "kind",
        "players",
        "account",
        "result",
        "trf",
        "x",
    ]);
    leaf.prop_recursive(3, 24, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..6).prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The tournament API's JSON bodies: every answer is a success or a
    /// typed refusal (never a server fault), and the server keeps serving.
    #[test]
    fn random_tournament_bodies_never_hurt(bodies in prop::collection::vec((0usize..12, json_value()), 1..10)) {
        let f = fixture();
        f.rt.block_on(async {
            let mut org = Browser::new(f.addr);
            let r = org.post("/api/tournaments", json!({"name": "Fuzz", "system": "dutch", "rounds": 3})).await;
            assert_eq!(r.status, 201, "{}", r.body);
            let id = r.json()["id"].as_str().unwrap().to_string();
            let r = org
                .post(&format!("/api/tournaments/{id}/players/import"), json!({"format": "list", "text": "A\nB\nC\nD\nE"}))
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            let paths = [
                "/api/tournaments".to_string(),
                "/api/tournaments/import".to_string(),
                format!("/api/tournaments/{id}/players"),
                format!("/api/tournaments/{id}/players/import"),
                format!("/api/tournaments/{id}/players/2"),
                format!("/api/tournaments/{id}/players/3/withdraw"),
                format!("/api/tournaments/{id}/players/4/bye"),
                format!("/api/tournaments/{id}/forbidden"),
                format!("/api/tournaments/{id}/organisers"),
                format!("/api/tournaments/{id}/rounds"),
                format!("/api/tournaments/{id}/rounds/1/boards/1/result"),
                format!("/api/tournaments/{id}/rounds/1/boards/2/result"),
            ];
            for (which, body) in &bodies {
                let r = org.post(&paths[*which], body.clone()).await;
                assert!(r.status < 500 && r.status != 0, "{} {body}: {} {}", paths[*which], r.status, r.body);
                if r.status >= 400 {
                    let e = r.json();
                    assert!(e["code"].is_string() && e["es"].is_string() && e["en"].is_string(), "{e}");
                }
            }
            // The tournament still reads, its pages print, and it still pairs.
            let v = org.req("GET", &format!("/api/tournaments/{id}"), None).await;
            assert_eq!(v.status, 200, "{}", v.body);
            for page in ["standings", "crosstable", "categories", "teams"] {
                let r = org.req("GET", &format!("/api/tournaments/{id}/print/{page}"), None).await;
                assert_eq!(r.status, 200, "{page}");
            }
            let r = org.req("GET", &format!("/api/tournaments/{id}/trf"), None).await;
            assert_eq!(r.status, 200);
        });
    }
}

/// A small tournament's TRF, two rounds played, as `escaque torneo` writes it.
fn sample_trf() -> String {
    use escaque_torneo::{pairing, trf, Outcome, Player, System, Tournament};
    let mut t = Tournament::new("Muestra", System::Swiss, 4);
    for i in 0..9 {
        let mut p = Player::new(&format!("Jugador {i}"));
        p.rating = Some(1500 + 37 * i);
        p.club = ["A", "B"][i as usize % 2].into();
        t.add_player(p).unwrap();
    }
    t.forbid(&[1, 2], 1, 4).unwrap();
    for r in 1..=2 {
        pairing::pair_next_round(&mut t).unwrap();
        for b in 1..=t.rounds[r - 1].games.len() as u32 {
            let o = [Outcome::WhiteWins, Outcome::Draw, Outcome::BlackForfeitWin][b as usize % 3];
            t.set_result_board(r as u32, b, o).unwrap();
        }
    }
    t.request_bye(3, 3, escaque_torneo::ByeKind::Half).unwrap();
    trf::write(&t)
}

/// One change to a TRF text.
#[derive(Clone, Debug)]
enum Mutation {
    Put(usize, char),
    DropLine(usize),
    CopyLine(usize),
    Cut(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let c = prop::sample::select(vec![
        '0', '1', '2', '9', ' ', 'w', 'b', '-', '=', '+', 'H', 'Z', 'U', 'F', '\n', 'X', 'é',
    ]);
    prop_oneof![
        (any::<usize>(), c).prop_map(|(i, c)| Mutation::Put(i, c)),
        any::<usize>().prop_map(Mutation::DropLine),
        any::<usize>().prop_map(Mutation::CopyLine),
        any::<usize>().prop_map(Mutation::Cut),
    ]
}

fn mutate(text: &str, muts: &[Mutation]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for m in muts {
        match *m {
            Mutation::Put(i, c) if !chars.is_empty() => {
                let i = i % chars.len();
                chars[i] = c;
            }
            Mutation::Cut(i) if !chars.is_empty() => chars.truncate(i % chars.len()),
            Mutation::DropLine(i) | Mutation::CopyLine(i) => {
                let s: String = chars.iter().collect();
                let mut lines: Vec<&str> = s.lines().collect();
                if lines.is_empty() {
                    continue;
                }
                let i = i % lines.len();
                if matches!(m, Mutation::DropLine(_)) {
                    lines.remove(i);
                } else {
                    lines.insert(i, lines[i]);
                }
                chars = lines.join("\n").chars().collect();
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A damaged TRF imported as a tournament, or as its players, is read or
    /// refused with a typed error; what is read can be shown, printed,
    /// exported and paired without a fault.
    #[test]
    fn damaged_trf_imports_never_hurt(muts in prop::collection::vec(mutation(), 1..6)) {
        let f = fixture();
        let text = mutate(&sample_trf(), &muts);
        f.rt.block_on(async {
            let mut org = Browser::new(f.addr);
            let r = org.post("/api/tournaments/import", json!({"trf": text})).await;
            assert!(r.status == 201 || r.status == 400, "{} {}\n{text}", r.status, r.body);
            if r.status == 400 {
                let code = r.json()["code"].clone();
                assert!(code == "bad_trf" || code == "bad_field", "{}", r.body);
                return;
            }
            let id = r.json()["id"].as_str().unwrap().to_string();
            for path in ["", "/trf", "/print/standings", "/print/crosstable", "/print/teams", "/pdf/standings", "/rounds/1/print", "/rounds/2/pdf"] {
                let r = org.req("GET", &format!("/api/tournaments/{id}{path}"), None).await;
                assert!(r.status == 200 || r.status == 404, "{path}: {} {}\n{text}", r.status, r.body);
            }
            let r = org.post(&format!("/api/tournaments/{id}/rounds"), json!({})).await;
            assert!(r.status == 200 || r.status == 409, "pair: {} {}\n{text}", r.status, r.body);
            let r = org.req("GET", &format!("/api/tournaments/{id}"), None).await;
            assert_eq!(r.status, 200, "{}\n{text}", r.body);
            let r = org
                .post(&format!("/api/tournaments/{id}/players/import"), json!({"format": "trf", "text": text}))
                .await;
            assert!(r.status < 500 && r.status != 0, "{} {}", r.status, r.body);
        });
    }
}

/// A JSON value of any shape, with the names and values of the bodies of
/// games, seeks, accounts and the analysis board among others.
fn play_body() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,40}".prop_map(Value::from),
        prop::sample::select(vec![
            "friend",
            "engine",
            "white",
            "black",
            "random",
            "5+3",
            "1+0",
            "0+0",
            "-",
            "fide2023",
            "londres1846",
            "chess960",
            "standard",
            "knight",
            "queen",
            "e2e4",
            "e4",
            "Cf3",
            "ana",
            "invitado-bbbbbb",
            "contraseña-larga",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        ])
        .prop_map(Value::from),
    ];
    let keys = prop::sample::select(vec![
        "opponent",
        "level",
        "color",
        "time_control",
        "rules",
        "odds",
        "variant",
        "position",
        "rated",
        "rating_range",
        "name",
        "password",
        "fen",
        "moves",
        "lines",
        "chess960",
        "x",
    ]);
    leaf.prop_recursive(2, 16, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..8).prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The JSON bodies of games, seeks, accounts and the analysis board
    /// (issue 60): never a server fault; a refusal is a 4xx with a typed,
    /// worded reason, and stores nothing — the caller has no new game and
    /// no seek, and no account of the refused name exists.
    #[test]
    fn random_bodies_never_hurt(bodies in prop::collection::vec((0usize..6, play_body()), 1..8)) {
        let f = fixture();
        f.rt.block_on(async {
            let mut me = Browser::new(f.addr);
            let r = me.post("/api/games", json!({"opponent": "friend"})).await;
            assert_eq!(r.status, 201, "{}", r.body);
            let open = r.json()["game"].as_str().unwrap().to_string();
            let mine = |v: Value| v["games"].as_array().map_or(0, Vec::len);
            for (which, body) in &bodies {
                let path = [
                    "/api/games".to_string(),
                    "/api/seeks".to_string(),
                    "/api/signup".to_string(),
                    "/api/login".to_string(),
                    format!("/api/games/{open}/join"),
                    "/api/analysis/position".to_string(),
                ][*which].clone();
                let games = mine(me.req("GET", "/api/me/games", None).await.json());
                let seeks = own_seeks(&mut me).await;
                let r = me.post(&path, body.clone()).await;
                assert!(r.status < 500 && r.status != 0, "{path} {body}: {} {}", r.status, r.body);
                if r.status < 400 {
                    continue;
                }
                let e = r.json();
                assert!(e["code"].is_string() && e["es"].as_str().is_some_and(|t| !t.is_empty())
                    && e["en"].as_str().is_some_and(|t| !t.is_empty()), "{path} {body}: {e}");
                assert_eq!(mine(me.req("GET", "/api/me/games", None).await.json()), games, "{path} {body}: {e}");
                assert_eq!(own_seeks(&mut me).await, seeks, "{path} {body}: {e}");
                if path == "/api/signup" && e["code"] != "name_taken" {
                    if let Some(name) = body["name"].as_str().filter(|n| !n.is_empty()) {
                        let p = Browser::new(f.addr).req("GET", &format!("/api/players/{}", enc(name)), None).await;
                        assert_ne!(p.status, 200, "{body}: refused, yet {name} exists: {}", p.body);
                    }
                }
            }
            // The server still creates games and plays moves.
            let (mut w2, mut b2) = friend_game(f.addr, json!({})).await;
            play_line(&mut w2, &mut b2, &["e4", "e5"]).await;
        });
    }
}

/// The seeks `me` posted (by its name), as the lobby lists them.
async fn own_seeks(me: &mut Browser) -> Vec<Value> {
    let name = me.req("GET", "/api/me", None).await.json()["name"].clone();
    let all = me.req("GET", "/api/seeks", None).await.json();
    all["seeks"]
        .as_array()
        .map(|a| a.iter().filter(|x| x["name"] == name).cloned().collect())
        .unwrap_or_default()
}

/// `s` percent-encoded for a path segment.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A JSON value of any shape, with the names and values of the bodies of
/// classes, their pupils, news, games, simuls and tournaments; `$p0` and
/// `$p1` stand for the class's two pupils' account names.
fn class_body() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u32>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,40}".prop_map(Value::from),
        prop::sample::select(vec![
            "$p0",
            "$p1",
            "$p0\n$p1",
            "Ana Pérez\nLuis Gómez",
            "white",
            "black",
            "random",
            "azar",
            "5+3",
            "15+10",
            "-",
            "dutch",
            "round_robin",
            "swiss",
            "Clase nueva",
            "",
        ])
        .prop_map(Value::from),
    ];
    let keys = prop::sample::select(vec![
        "name",
        "description",
        "archived",
        "real_names",
        "real_name",
        "text",
        "to",
        "code",
        "homework",
        "white",
        "black",
        "time_control",
        "pupils",
        "host_color",
        "system",
        "rounds",
        "auto_pair",
        "x",
    ]);
    leaf.prop_recursive(2, 16, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..6).prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

/// `v` with `$p0` and `$p1` replaced by the pupils' names, in every string.
fn with_pupils(v: &Value, pupils: &[String]) -> Value {
    match v {
        Value::String(s) => Value::String(s.replace("$p0", &pupils[0]).replace("$p1", &pupils[1])),
        Value::Array(a) => Value::Array(a.iter().map(|x| with_pupils(x, pupils)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), with_pupils(x, pupils)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// What a class holds, as its teacher sees it: the class (who is online
/// left out), its simuls and tournaments, the teacher's classes and games.
async fn class_snapshot(teacher: &mut Browser, id: &str) -> Value {
    let mut class = teacher
        .req("GET", &format!("/api/classes/{id}"), None)
        .await
        .json();
    if let Some(pupils) = class["pupils"].as_array_mut() {
        for p in pupils {
            if let Some(o) = p.as_object_mut() {
                o.remove("online");
                o.remove("seen_ms_ago");
            }
        }
    }
    json!({
        "class": class,
        "classes": teacher.req("GET", "/api/classes", None).await.json(),
        "simuls": teacher.req("GET", &format!("/api/classes/{id}/simuls"), None).await.json(),
        "tournaments": teacher.req("GET", &format!("/api/classes/{id}/tournaments"), None).await.json(),
        "games": teacher.req("GET", "/api/me/games", None).await.json(),
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// The JSON bodies of classes and simuls (issue 60): a class, its
    /// teacher and two pupils; random bodies on every class route that
    /// takes one (the class, its teachers, pupils, a pupil's name and move,
    /// the code login, news, a class game, a simul, a class tournament) and
    /// on a simul board's restart: never a server fault; a refusal is a 4xx
    /// with a typed, worded reason and changes nothing the teacher sees
    /// (the class, its pupils and news, its simuls and tournaments, the
    /// teacher's classes and games); a refused code login logs nobody in.
    #[test]
    fn random_class_bodies_never_hurt(bodies in prop::collection::vec((0usize..11, class_body()), 1..8)) {
        let f = fixture();
        f.rt.block_on(async {
            let c = class_with_pupils(f.server, 2).await;
            let id = c.id.clone();
            let pupils: Vec<String> = c.pupils.iter().map(|p| p.name.clone()).collect();
            let mut teacher = c.teacher;
            let r = teacher
                .post(&format!("/api/classes/{id}/simuls"), json!({"pupils": [pupils[0], pupils[1]]}))
                .await;
            assert_eq!(r.status, 201, "{}", r.body);
            let simul = r.json()["id"].as_str().unwrap_or_default().to_string();
            assert!(!simul.is_empty(), "{}", r.body);
            let paths = [
                "/api/classes".to_string(),
                format!("/api/classes/{id}"),
                format!("/api/classes/{id}/teachers"),
                format!("/api/classes/{id}/pupils"),
                format!("/api/classes/{id}/pupils/{}", pupils[0]),
                format!("/api/classes/{id}/pupils/{}/move", pupils[0]),
                format!("/api/classes/{id}/login"),
                format!("/api/classes/{id}/news"),
                format!("/api/classes/{id}/games"),
                format!("/api/classes/{id}/simuls"),
                format!("/api/classes/{id}/tournaments"),
            ];
            for (which, body) in &bodies {
                let path = &paths[*which];
                let body = with_pupils(body, &pupils);
                let before = class_snapshot(&mut teacher, &id).await;
                // The code login is a stranger's; every other route the teacher's.
                let mut stranger = Browser::new(f.addr);
                let r = if path.ends_with("/login") {
                    stranger.post(path, body.clone()).await
                } else {
                    teacher.post(path, body.clone()).await
                };
                assert!(r.status < 500 && r.status != 0, "{path} {body}: {} {}", r.status, r.body);
                if r.status < 400 {
                    continue;
                }
                let e = r.json();
                assert!(e["code"].is_string() && e["es"].as_str().is_some_and(|t| !t.is_empty())
                    && e["en"].as_str().is_some_and(|t| !t.is_empty()), "{path} {body}: {e}");
                assert_eq!(class_snapshot(&mut teacher, &id).await, before, "{path} {body}: {e}");
                if path.ends_with("/login") {
                    let me = stranger.req("GET", "/api/me", None).await.json();
                    assert_eq!(me["account"], json!(false), "{body}: refused, yet logged in: {me}");
                }
            }
            // A simul board's restart, with random bodies: never a fault.
            for (_, body) in bodies.iter().take(2) {
                let r = teacher
                    .post(&format!("/api/simuls/{simul}/boards/1/restart"), with_pupils(body, &pupils))
                    .await;
                assert!(r.status < 500 && r.status != 0, "restart {body}: {} {}", r.status, r.body);
            }
            // The class and its simul still read, and the server still plays.
            for path in [format!("/api/classes/{id}"), format!("/api/simuls/{simul}")] {
                let r = teacher.req("GET", &path, None).await;
                assert_eq!(r.status, 200, "{path}: {}", r.body);
            }
            let (mut w2, mut b2) = friend_game(f.addr, json!({})).await;
            play_line(&mut w2, &mut b2, &["e4", "e5"]).await;
        });
    }
}
