//! Tournaments through the HTTP API (issue 24): an over-the-board Swiss of
//! 22 players and 5 rounds run as an organiser would (players entered one by
//! one and from a CSV, a forbidden pair, a requested bye, typed results, a
//! correction), checked round by round against `escaque_torneo` run on the
//! same data; its exported TRF read back by `escaque torneo`'s reader; the
//! rights (a stranger changes nothing, a co-organiser may) and escaped names
//! on the printouts. On SQLite and on PostgreSQL.

use crate::common;

use common::*;
use escaque_server::client::GameSocket;
use escaque_torneo::{pairing, standings, trf, ByeKind, Outcome, Player, System, Tournament};
use serde_json::{json, Value};

const BASE: &str = "/api/tournaments";

/// A player as entered: (name, club, category, birth year, rating; 0 unrated).
type Entered = (String, &'static str, &'static str, u16, u16);

/// The players entered one by one.
fn single_players() -> Vec<Entered> {
    (0..10)
        .map(|i| {
            (
                format!("Jugadora {i:02}"),
                ["Colegio Sarmiento", "Club Tucumán", "Escuela 25"][i % 3],
                ["Sub-12", "Sub-14"][i % 2],
                2012 + (i % 4) as u16,
                1200 + ((i * 137) % 700) as u16,
            )
        })
        .collect()
}

/// The same kind of players, as the CSV pasted by the organiser.
fn csv_players() -> (String, Vec<Entered>) {
    let list: Vec<Entered> = (0..12)
        .map(|i| {
            (
                format!("Alumno {i:02}"),
                ["Colegio Sarmiento", "Club Tucumán", "Escuela 25", ""][i % 4],
                ["Sub-12", "Sub-14", ""][i % 3],
                2011 + (i % 5) as u16,
                if i % 5 == 4 {
                    0
                } else {
                    1100 + ((i * 211) % 800) as u16
                },
            )
        })
        .collect();
    let mut text = String::from("nombre;colegio;categoria;nacimiento;elo\n");
    for (n, c, k, y, r) in &list {
        let r = if *r == 0 {
            String::new()
        } else {
            r.to_string()
        };
        text.push_str(&format!("\"{n}\";{c};{k};{y};{r}\n"));
    }
    (text, list)
}

fn library_player(p: &(String, &str, &str, u16, u16)) -> Player {
    let mut q = Player::new(&p.0);
    q.club = p.1.to_string();
    q.category = p.2.to_string();
    q.birth_year = Some(p.3);
    q.rating = (p.4 > 0).then_some(p.4);
    q
}

/// A deterministic result for a board, forfeits included.
fn result_for(round: u32, board: u32) -> &'static str {
    ["1-0", "0-1", "½-½", "1-0", "0-1", "1-0", "½-½", "+-"][((round * 5 + board * 3) % 8) as usize]
}

fn check_round(view: &Value, t: &Tournament, round: u32) {
    let served = &view["rounds"][round as usize - 1];
    let mine = &t.rounds[round as usize - 1];
    let boards: Vec<(u64, u64)> = served["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["white"].as_u64().unwrap(), b["black"].as_u64().unwrap()))
        .collect();
    let expected: Vec<(u64, u64)> = mine
        .games
        .iter()
        .map(|g| (u64::from(g.white), u64::from(g.black)))
        .collect();
    assert_eq!(
        boards, expected,
        "round {round}: the server's pairings are the library's"
    );
    let byes: Vec<(u64, String)> = served["byes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["player"].as_u64().unwrap(),
                b["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected: Vec<(u64, String)> = mine
        .byes
        .iter()
        .map(|(p, k)| {
            let kind = match k {
                ByeKind::PairingAllocated => "pairing",
                ByeKind::Half => "half",
                ByeKind::Full => "full",
                ByeKind::Zero => "zero",
            };
            (u64::from(*p), kind.to_string())
        })
        .collect();
    assert_eq!(byes, expected, "round {round}: byes");
}

fn check_standings(view: &Value, t: &Tournament) {
    let rows = view["standings"]["rows"].as_array().unwrap();
    let mine = standings::compute(t);
    assert_eq!(rows.len(), mine.len());
    for (r, s) in rows.iter().zip(&mine) {
        assert_eq!(r["number"].as_u64().unwrap(), u64::from(s.player));
        assert_eq!(r["rank"].as_u64().unwrap(), u64::from(s.rank));
        assert_eq!(r["points"].as_f64().unwrap(), f64::from(s.points) / 2.0);
        let tbs: Vec<f64> = r["tiebreaks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(tbs, s.tiebreaks);
    }
}

async fn view(b: &mut Browser, id: &str) -> Value {
    let r = b.req("GET", &format!("{BASE}/{id}"), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// A server on a fresh database: SQLite, or a new PostgreSQL database
/// (none when PostgreSQL is not configured).
async fn fresh_server(db: Db) -> Option<escaque_server::Running> {
    match db {
        Db::Sqlite => start(Db::Sqlite).await,
        Db::Postgres => {
            let url = fresh_postgres_database("torneo").await?;
            start_with(Db::Sqlite, |c| {
                c.database = escaque_server::Database::Url(url);
            })
            .await
        }
    }
}

async fn over_the_board_event(db: Db) {
    let Some(server) = fresh_server(db).await else {
        return;
    };
    let addr = server.addr;
    let mut org = Browser::new(addr);
    let r = org
        .post(
            BASE,
            json!({"name": "Abierto escolar", "system": "dutch", "rounds": 5, "mode": "otb",
                   "time_control": "30+10", "tiebreaks": ["BH-C1", "BH", "SB"], "team_size": 3}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let mut t = Tournament::new("Abierto escolar", System::Swiss, 5);
    t.tiebreaks = escaque_torneo::TieBreak::parse_list("BH-C1,BH,SB").unwrap();
    t.team_size = 3;
    t.time_control = "30+10".into();

    // Ten players entered one by one.
    for p in single_players() {
        let r = org
            .post(
                &format!("{BASE}/{id}/players"),
                json!({"name": p.0, "club": p.1, "category": p.2, "birth_year": p.3, "rating": p.4}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let n = t.add_player(library_player(&p)).unwrap();
        assert_eq!(r.json()["number"], n);
    }
    // Twelve more pasted as a CSV.
    let (csv, list) = csv_players();
    let r = org
        .post(
            &format!("{BASE}/{id}/players/import"),
            json!({"format": "csv", "text": csv}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["added"], 12);
    for p in &list {
        t.add_player(library_player(p)).unwrap();
    }
    // A player entered twice is refused, and nothing changes.
    let r = org
        .post(
            &format!("{BASE}/{id}/players"),
            json!({"name": "Jugadora 03", "birth_year": 2015}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.json()["code"], "duplicate_player");
    // Siblings never meet; one player asks for a half-point bye in round 3.
    let r = org
        .post(
            &format!("{BASE}/{id}/forbidden"),
            json!({"players": [1, 2]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    t.forbid(&[1, 2], 1, 5).unwrap();
    let r = org
        .post(
            &format!("{BASE}/{id}/players/7/bye"),
            json!({"round": 3, "kind": "half"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    t.request_bye(7, 3, ByeKind::Half).unwrap();

    // A watcher of the tournament's socket sees every change.
    let mut sock = GameSocket::connect(addr, &format!("/ws/tournaments/{id}"))
        .await
        .unwrap();
    let first = sock.until(WAIT, |v| v["t"] == "tournament").await.unwrap();
    assert_eq!(first["view"]["players"].as_array().unwrap().len(), 22);
    assert_eq!(first["view"]["can_edit"], false);
    assert_eq!(view(&mut org, &id).await["can_edit"], true);

    for round in 1..=5u32 {
        if round == 4 {
            // Withdrawn before round 4: not paired again.
            let r = org
                .post(&format!("{BASE}/{id}/players/9/withdraw"), json!({}))
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            t.withdraw(9, 4).unwrap();
        }
        let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["round"], round);
        // As `escaque torneo` does: the initial ranking, then the pairing.
        t.sort_pairing_numbers();
        assert_eq!(pairing::pair_next_round(&mut t).unwrap(), round);
        let v = view(&mut org, &id).await;
        check_round(&v, &t, round);
        assert_eq!(v["round"], round);
        assert_eq!(v["round_complete"], false);
        assert_eq!(v["standings"]["in_progress"], round);
        assert_eq!(v["standings"]["after_round"], round - 1);
        let pushed = sock
            .until(WAIT, |m| {
                m["t"] == "tournament" && m["view"]["round"] == round
            })
            .await
            .unwrap();
        check_round(&pushed["view"], &t, round);
        // Pairing again before every result is in is refused.
        let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
        assert_eq!(r.status, 409, "{}", r.body);
        let refusal = if round == 5 {
            "tournament_over"
        } else {
            "round_not_complete"
        };
        assert_eq!(r.json()["code"], refusal);
        let boards = t.rounds[round as usize - 1].games.len() as u32;
        for board in 1..=boards {
            let g = &t.rounds[round as usize - 1].games[board as usize - 1];
            assert!(
                !t.forbidden_pairing(g.white, g.black, round),
                "siblings paired"
            );
            let text = result_for(round, board);
            let r = org
                .post(
                    &format!("{BASE}/{id}/rounds/{round}/boards/{board}/result"),
                    json!({"result": text}),
                )
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            t.set_result_board(round, board, Outcome::parse(text).unwrap())
                .unwrap();
        }
        if round == 2 {
            // A correction: board 1 was typed wrong.
            let before = t.rounds[1].games[0].outcome;
            let fixed = if before == Outcome::Draw {
                "0-1"
            } else {
                "½-½"
            };
            let r = org
                .post(
                    &format!("{BASE}/{id}/rounds/2/boards/1/result"),
                    json!({"result": fixed}),
                )
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            t.set_result_board(2, 1, Outcome::parse(fixed).unwrap())
                .unwrap();
        }
        let v = view(&mut org, &id).await;
        assert_eq!(v["round_complete"], true);
        assert_eq!(v["standings"]["after_round"], round);
        assert_eq!(v["standings"]["in_progress"], Value::Null);
        check_standings(&v, &t);
    }
    let v = view(&mut org, &id).await;
    assert_eq!(v["status"], "finished");
    // The teams add each school's best three.
    let teams = standings::teams(&t);
    assert_eq!(v["teams"].as_array().unwrap().len(), teams.len());
    assert_eq!(v["teams"][0]["name"], teams[0].club.as_str());
    assert_eq!(
        v["teams"][0]["points"].as_f64().unwrap(),
        f64::from(teams[0].points) / 2.0
    );
    // Rated players' FIDE rating changes are the library's.
    let changes =
        escaque_torneo::rating::changes(&t, escaque_server::tournament::view::current_year());
    assert_eq!(v["rating_changes"].as_array().unwrap().len(), changes.len());
    assert_eq!(
        v["rating_changes"][0]["change"].as_f64().unwrap(),
        changes[0].change
    );
    // A sixth round is refused: the tournament is over.
    let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    assert_eq!(r.json()["code"], "tournament_over");

    // The exported TRF is the library's, and `escaque torneo`'s reader reads it back.
    let r = org.req("GET", &format!("{BASE}/{id}/trf"), None).await;
    assert_eq!(r.status, 200);
    assert!(r
        .headers
        .iter()
        .any(|(k, v)| k == "content-type" && v.starts_with("text/plain")));
    let back = trf::parse(&r.body).expect("the exported TRF reads back");
    assert_eq!(back.rounds, t.rounds);
    assert_eq!(back.forbidden, t.forbidden);
    assert_eq!(back.tiebreaks, t.tiebreaks);
    assert_eq!(back.total_rounds, 5);
    for (a, b) in back.players.iter().zip(&t.players) {
        assert_eq!(
            (
                &a.name,
                &a.club,
                &a.category,
                a.rating,
                a.birth_year,
                a.withdrawn_from
            ),
            (
                &b.name,
                &b.club,
                &b.category,
                b.rating,
                b.birth_year,
                b.withdrawn_from
            )
        );
    }
    assert_eq!(back.players.len(), t.players.len());
    assert_eq!(standings::compute(&back), standings::compute(&t));
    // And it comes back in as a tournament of its own.
    let r = org
        .post(&format!("{BASE}/import"), json!({"trf": r.body}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let again = r.json()["id"].as_str().unwrap().to_string();
    let v2 = view(&mut org, &again).await;
    assert_eq!(v2["standings"]["rows"], v["standings"]["rows"]);
    // Listed.
    let list = org.req("GET", BASE, None).await.json();
    assert!(list
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["id"] == id.as_str() && x["players"] == 22));
    // The printouts.
    let r = org
        .req("GET", &format!("{BASE}/{id}/rounds/5/print"), None)
        .await;
    assert_eq!(r.status, 200);
    assert!(r.body.contains("Jugadora 00"));
    for page in ["standings", "crosstable", "categories", "teams"] {
        let r = org
            .req("GET", &format!("{BASE}/{id}/print/{page}"), None)
            .await;
        assert_eq!(r.status, 200, "{page}");
        assert!(r.body.starts_with("<!DOCTYPE html>"), "{page}");
    }
    let r = org
        .req("GET", &format!("{BASE}/{id}/rounds/9/print"), None)
        .await;
    assert_eq!(r.status, 404);
    // The PDFs are escaque_torneo's.
    for (path, bytes) in [
        ("rounds/5/pdf", escaque_torneo::pdf::pairings(&t, 5)),
        ("pdf/standings", escaque_torneo::pdf::standings(&t)),
    ] {
        let r = org.req("GET", &format!("{BASE}/{id}/{path}"), None).await;
        assert_eq!(r.status, 200, "{path}");
        assert!(r
            .headers
            .iter()
            .any(|(k, v)| k == "content-type" && v == "application/pdf"));
        assert!(r.body.starts_with("%PDF-1.4"), "{path}");
        assert_eq!(r.body, String::from_utf8_lossy(&bytes), "{path}");
        if let Ok(dir) = std::env::var("ESCAQUE_TORNEO_PDF_DIR") {
            let name = path.replace('/', "-");
            std::fs::write(format!("{dir}/{name}.pdf"), &bytes).unwrap();
        }
    }
    let r = org
        .req("GET", &format!("{BASE}/{id}/rounds/0/pdf"), None)
        .await;
    assert_eq!(r.status, 404);
    // The paper the desk chose (A4 unless Letter): the HTML asks for it, the
    // PDF is laid out on it; another paper is refused (issue 64).
    use escaque_torneo::html::Paper;
    for (query, css) in [
        ("", "size: A4;"),
        ("?paper=a4", "size: A4;"),
        ("?paper=letter", "size: letter;"),
    ] {
        for path in ["print/standings", "print/crosstable", "rounds/5/print"] {
            let r = org
                .req("GET", &format!("{BASE}/{id}/{path}{query}"), None)
                .await;
            assert_eq!(r.status, 200, "{path}{query}");
            assert!(r.body.contains(&format!("@page {{ {css}")), "{path}{query}");
        }
    }
    for (path, bytes) in [
        (
            "rounds/5/pdf?paper=letter",
            escaque_torneo::pdf::pairings_on(&t, 5, Paper::Letter),
        ),
        (
            "pdf/standings?paper=carta",
            escaque_torneo::pdf::standings_on(&t, Paper::Letter),
        ),
    ] {
        let r = org.req("GET", &format!("{BASE}/{id}/{path}"), None).await;
        assert_eq!(r.status, 200, "{path}");
        assert!(r.body.contains("/MediaBox [0 0 612 792]"), "{path}");
        assert_eq!(r.body, String::from_utf8_lossy(&bytes), "{path}");
    }
    for path in [
        "pdf/standings?paper=a3",
        "print/teams?paper=",
        "rounds/5/print?papel=a4",
    ] {
        let r = org.req("GET", &format!("{BASE}/{id}/{path}"), None).await;
        assert_eq!(r.status, 400, "{path}: {}", r.body);
    }
    server.abort();
}

#[tokio::test]
async fn over_the_board_event_sqlite() {
    over_the_board_event(Db::Sqlite).await;
}

#[tokio::test]
async fn over_the_board_event_postgres() {
    over_the_board_event(Db::Postgres).await;
}

/// Only the organiser and the co-organisers they name change a tournament;
/// every name is escaped on the printable pages.
async fn rights_and_escaping(db: Db) {
    let Some(server) = fresh_server(db).await else {
        return;
    };
    let addr = server.addr;
    let mut org = Browser::new(addr);
    let r = org
        .post(
            BASE,
            json!({"name": "<b>Relámpago</b>", "system": "dutch", "rounds": 3}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let markup = "<script>alert(1)</script>";
    let r = org
        .post(
            &format!("{BASE}/{id}/players"),
            json!({"name": markup, "club": "<img src=x onerror=alert(1)>", "category": "Sub-10\"'&"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = org
        .post(
            &format!("{BASE}/{id}/players/import"),
            json!({"format": "list", "text": "Ana\nBeto\n\nCarla\n"}),
        )
        .await;
    assert_eq!(r.json()["added"], 3, "{}", r.body);
    let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let before = view(&mut org, &id).await;

    // A stranger (a guest, then an account) changes nothing.
    let mut stranger = Browser::new(addr);
    let changes = [
        ("players", json!({"name": "Intrusa"})),
        (
            "players/import",
            json!({"format": "list", "text": "Intrusa"}),
        ),
        ("players/1", json!({"name": "Cambiado"})),
        ("players/1/withdraw", json!({})),
        ("players/1/bye", json!({"round": 2, "kind": "half"})),
        ("forbidden", json!({"players": [1, 2]})),
        ("organisers", json!({"account": "nadie"})),
        ("rounds", json!({})),
        ("rounds/1/boards/1/result", json!({"result": "1-0"})),
    ];
    for account in [false, true] {
        if account {
            let r = stranger
                .post(
                    "/api/signup",
                    json!({"name": "Extraña", "password": "contraseña-larga"}),
                )
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
        for (path, body) in &changes {
            let r = stranger
                .post(&format!("{BASE}/{id}/{path}"), body.clone())
                .await;
            if *path == "organisers" {
                // The account named does not exist: refused before the right is
                // asked, as for anybody.
                assert!(r.status == 404 || r.status == 403, "{path}: {}", r.body);
                continue;
            }
            assert_eq!(r.status, 403, "{path}: {}", r.body);
            assert_eq!(r.json()["code"], "not_organiser", "{path}");
            assert!(r.json()["es"].is_string() && r.json()["en"].is_string());
        }
        let now = view(&mut stranger, &id).await;
        assert_eq!(now["can_edit"], false);
        assert_eq!(now["players"], before["players"]);
        assert_eq!(now["rounds"], before["rounds"]);
    }
    // Naming a real account is refused to the stranger too.
    let r = stranger
        .post(
            &format!("{BASE}/{id}/organisers"),
            json!({"account": "Extraña"}),
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.body);

    // A co-organiser the organiser names may.
    let mut helper = Browser::new(addr);
    let r = helper
        .post(
            "/api/signup",
            json!({"name": "Ayudante", "password": "contraseña-larga"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(view(&mut helper, &id).await["can_edit"], false);
    let r = org
        .post(
            &format!("{BASE}/{id}/organisers"),
            json!({"account": "ayudante"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(view(&mut helper, &id).await["can_edit"], true);
    let r = helper
        .post(
            &format!("{BASE}/{id}/rounds/1/boards/1/result"),
            json!({"result": "½-½"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        view(&mut org, &id).await["rounds"][0]["boards"][0]["result"],
        "½-½"
    );
    // Bad input is refused with a typed error, never a fault.
    for (path, body, code) in [
        (
            "rounds/1/boards/1/result",
            json!({"result": "2-0"}),
            "tournament_refused",
        ),
        (
            "rounds/7/boards/1/result",
            json!({"result": "1-0"}),
            "no_such_round",
        ),
        (
            "rounds/1/boards/99/result",
            json!({"result": "1-0"}),
            "no_such_board",
        ),
        ("players/99/withdraw", json!({}), "no_such_player"),
        ("players", json!({"name": "x".repeat(40)}), "bad_field"),
        ("players", json!({"name": "A\u{7}B"}), "bad_field"),
        (
            "players",
            json!({"name": "Zoe", "rating": 9000}),
            "bad_field",
        ),
        (
            "players/import",
            json!({"format": "xls", "text": ""}),
            "bad_format",
        ),
        (
            "players/import",
            json!({"format": "csv", "text": "elo\n1500"}),
            "bad_csv",
        ),
        (
            "players/import",
            json!({"format": "trf", "text": "001 x"}),
            "bad_trf",
        ),
        (
            "players/1/bye",
            json!({"round": 1, "kind": "half"}),
            "tournament_refused",
        ),
        (
            "players/1/bye",
            json!({"round": 2, "kind": "double"}),
            "bad_bye",
        ),
        ("forbidden", json!({"players": [1]}), "tournament_refused"),
        ("players", json!({"nombre": "Zoe"}), "malformed"),
    ] {
        let r = org.post(&format!("{BASE}/{id}/{path}"), body).await;
        assert!(
            r.status >= 400 && r.status < 500,
            "{path}: {} {}",
            r.status,
            r.body
        );
        assert_eq!(r.json()["code"], code, "{path}: {}", r.body);
    }
    let r = org.req("GET", &format!("{BASE}/nosuch"), None).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["code"], "no_such_tournament");

    // The printouts escape every name, club and category.
    for path in [
        "rounds/1/print",
        "print/standings",
        "print/crosstable",
        "print/categories",
        "print/teams",
    ] {
        let r = stranger
            .req("GET", &format!("{BASE}/{id}/{path}"), None)
            .await;
        assert_eq!(r.status, 200, "{path}");
        assert!(!r.body.contains("<script>alert"), "{path}: {}", r.body);
        assert!(!r.body.contains("<img src=x"), "{path}");
        assert!(!r.body.contains("<b>Relámpago"), "{path}");
        assert!(r.body.contains("&lt;b&gt;Relámpago"), "{path}");
        assert!(
            r.headers
                .iter()
                .any(|(k, v)| k == "content-security-policy" && v.contains("default-src 'none'")),
            "{path}"
        );
    }
    let r = stranger
        .req("GET", &format!("{BASE}/{id}/rounds/1/print"), None)
        .await;
    assert!(r.body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    server.abort();
}

#[tokio::test]
async fn rights_and_escaping_sqlite() {
    rights_and_escaping(Db::Sqlite).await;
}

#[tokio::test]
async fn rights_and_escaping_postgres() {
    rights_and_escaping(Db::Postgres).await;
}

/// Results typed at the same moment on every board all land: a change that
/// lost the version race runs again on the newer tournament.
#[tokio::test]
async fn results_typed_at_once_all_land() {
    let Some(server) = fresh_server(Db::Sqlite).await else {
        return;
    };
    let addr = server.addr;
    let mut org = Browser::new(addr);
    let r = org
        .post(
            BASE,
            json!({"name": "Simultánea", "system": "dutch", "rounds": 2}),
        )
        .await;
    let id = r.json()["id"].as_str().unwrap().to_string();
    let names: Vec<String> = (0..16).map(|i| format!("P{i:02}")).collect();
    let r = org
        .post(
            &format!("{BASE}/{id}/players/import"),
            json!({"format": "list", "text": names.join("\n")}),
        )
        .await;
    assert_eq!(r.json()["added"], 16);
    org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    let cookies = org.cookies.clone();
    let tasks: Vec<_> = (1..=8u32)
        .map(|board| {
            let cookies = cookies.clone();
            let id = id.clone();
            tokio::spawn(async move {
                let mut b = Browser { addr, cookies };
                let text = if board % 2 == 0 { "1-0" } else { "0-1" };
                b.post(
                    &format!("{BASE}/{id}/rounds/1/boards/{board}/result"),
                    json!({"result": text}),
                )
                .await
                .status
            })
        })
        .collect();
    for t in tasks {
        assert_eq!(t.await.unwrap(), 200);
    }
    let v = view(&mut org, &id).await;
    for (i, b) in v["rounds"][0]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        let board = i + 1;
        assert_eq!(
            b["result"],
            if board % 2 == 0 { "1-0" } else { "0-1" },
            "board {board}"
        );
    }
    assert_eq!(v["round_complete"], true);
    server.abort();
}

/// Every result the desk offers (its list in `web/torneo.js`) and every
/// spelling `escaque torneo resultado`'s help lists (`+/-`, `-/+`, `-/-`)
/// is read by the API as the command line reads it (`Outcome::parse`, the
/// one reader), and lands on its board (issue 64).
#[tokio::test]
async fn every_result_the_desk_offers_lands() {
    let Some(server) = fresh_server(Db::Sqlite).await else {
        return;
    };
    let mut org = Browser::new(server.addr);
    let script = include_str!("../web/torneo.js");
    let offered: Vec<String> = script
        .split_once("const RESULTS = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| {
            list.split(',')
                .map(|s| s.trim().trim_matches('\'').to_string())
                .collect()
        })
        .expect("the desk's list of results");
    // As the desk sends them, then as the command line's help writes them.
    let typed = [
        ("1-0", "1-0"),
        ("½-½", "½-½"),
        ("0-1", "0-1"),
        ("+-", "+-"),
        ("-+", "-+"),
        ("--", "--"),
        ("+/-", "+-"),
        ("-/+", "-+"),
        ("-/-", "--"),
    ];
    assert_eq!(
        offered,
        typed[..6].iter().map(|t| t.0).collect::<Vec<_>>(),
        "the desk offers other results than this test types"
    );
    let r = org
        .post(
            BASE,
            json!({"name": "Mesa", "system": "dutch", "rounds": 1}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_string();
    let names: Vec<String> = (0..18).map(|i| format!("P{i:02}")).collect();
    let r = org
        .post(
            &format!("{BASE}/{id}/players/import"),
            json!({"format": "list", "text": names.join("\n")}),
        )
        .await;
    assert_eq!(r.json()["added"], 18);
    let r = org.post(&format!("{BASE}/{id}/rounds"), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    for (i, (text, id_back)) in typed.iter().enumerate() {
        let board = i + 1;
        let r = org
            .post(
                &format!("{BASE}/{id}/rounds/1/boards/{board}/result"),
                json!({"result": text}),
            )
            .await;
        assert_eq!(r.status, 200, "{text}: {}", r.body);
        assert_eq!(r.json()["result"], *id_back, "{text}");
        let v = view(&mut org, &id).await;
        assert_eq!(v["rounds"][0]["boards"][i]["result"], *id_back, "{text}");
        assert_eq!(
            Outcome::parse(text).unwrap(),
            Outcome::parse(id_back).unwrap()
        );
    }
    // What is no result is refused with the reader's error.
    let r = org
        .post(
            &format!("{BASE}/{id}/rounds/1/boards/1/result"),
            json!({"result": "-/0"}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["code"], "tournament_refused", "{}", r.body);
    server.abort();
}
