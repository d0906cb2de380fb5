//! The class core (issue 26): classes, co-teachers, pupils from a
//! pasted list, passwords, archive and move, the class code, the board,
//! games a teacher starts — each endpoint's answer and its refusals.

use std::time::Duration;

use escaque_server::client::GameSocket;
use escaque_server::store::UserRow;
use serde_json::{json, Value};

use crate::common::*;

fn code_of(r: &escaque_server::client::HttpReply) -> String {
    r.json()["code"].as_str().unwrap_or("").to_string()
}

async fn create_class(web: &mut Browser, name: &str) -> Value {
    let r = web
        .post(
            "/api/classes",
            json!({"name": name, "description": "Martes"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}

async fn classes_create_list_view_edit_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 1).await;
    // Only a teacher creates classes.
    let (mut plain, plain_name) = account(s.addr, "Padre").await;
    for web in [&mut plain, &mut Browser::new(s.addr), &mut c.pupils[0].web] {
        let r = web.post("/api/classes", json!({"name": "4º B"})).await;
        assert_eq!(
            (r.status, code_of(&r)),
            (403, "not_a_teacher".into()),
            "{}",
            r.body
        );
    }
    // Names and descriptions are checked.
    for (body, code) in [
        (json!({"name": "   "}), "bad_class_name"),
        (json!({"name": "x".repeat(81)}), "bad_class_name"),
        (
            json!({"name": "ok", "description": "d".repeat(2001)}),
            "bad_description",
        ),
    ] {
        let r = c.teacher.post("/api/classes", body).await;
        assert_eq!((r.status, code_of(&r)), (400, code.into()), "{}", r.body);
    }
    let made = create_class(&mut c.teacher, "  4º B  ").await;
    assert_eq!(made["name"], "4º B");
    assert_eq!(made["code"].as_str().unwrap().len(), 6);
    let id = made["id"].as_str().unwrap().to_string();
    let list = c.teacher.req("GET", "/api/classes", None).await.json();
    assert_eq!(list["may_teach"], true);
    let mine = list["classes"].as_array().unwrap();
    assert_eq!(mine.len(), 2, "{list}");
    let entry = mine.iter().find(|x| x["id"] == id.as_str()).unwrap();
    assert_eq!(entry["role"], "teacher");
    assert_eq!(entry["pupils"], 0);
    assert_eq!(entry["archived"], false);
    // A pupil sees its one class; somebody else sees none.
    let pl = c.pupils[0]
        .web
        .req("GET", "/api/classes", None)
        .await
        .json();
    assert_eq!(pl["may_teach"], false);
    assert_eq!(pl["classes"].as_array().unwrap().len(), 1, "{pl}");
    assert_eq!(pl["classes"][0]["id"], c.id.as_str());
    assert_eq!(pl["classes"][0]["role"], "pupil");
    let none = plain.req("GET", "/api/classes", None).await.json();
    assert_eq!(none, json!({"may_teach": false, "classes": []}));
    // The teacher's view.
    let v = c
        .teacher
        .req("GET", &format!("/api/classes/{id}"), None)
        .await;
    assert_eq!(v.status, 200, "{}", v.body);
    let v = v.json();
    assert_eq!(v["role"], "teacher");
    assert_eq!(v["code"], made["code"]);
    assert_eq!(v["teachers"], json!([{"name": c.teacher_name}]));
    assert_eq!(v["pupils"], json!([]));
    // Edit.
    let r = c
        .teacher
        .post(
            &format!("/api/classes/{id}"),
            json!({"name": "4º C", "archived": true}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["description"], "Martes", "kept");
    let v = c
        .teacher
        .req("GET", &format!("/api/classes/{id}"), None)
        .await
        .json();
    assert_eq!(
        (v["name"].clone(), v["archived"].clone()),
        (json!("4º C"), json!(true))
    );
    let r = c
        .teacher
        .post(&format!("/api/classes/{id}"), json!({"name": ""}))
        .await;
    assert_eq!(code_of(&r), "bad_class_name");
    // Co-teachers: an existing account that is not a pupil's.
    let t = format!("/api/classes/{id}/teachers");
    let r = c
        .teacher
        .post(&t, json!({"name": "nadie-se-llama-asi"}))
        .await;
    assert_eq!((r.status, code_of(&r)), (404, "no_such_account".into()));
    let r = c.teacher.post(&t, json!({"name": c.pupils[0].name})).await;
    assert_eq!((r.status, code_of(&r)), (404, "no_such_account".into()));
    let r = c
        .teacher
        .post(&t, json!({"name": plain_name.to_uppercase()}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["teachers"].as_array().unwrap().len(), 2);
    let r = c.teacher.post(&t, json!({"name": plain_name})).await;
    assert_eq!((r.status, code_of(&r)), (409, "already_teacher".into()));
    // The co-teacher teaches it (although not marked a teacher).
    let v = plain.req("GET", &format!("/api/classes/{id}"), None).await;
    assert_eq!(v.status, 200, "{}", v.body);
    assert_eq!(v.json()["role"], "teacher");
    let r = plain
        .post(&format!("/api/classes/{id}/code"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_ne!(r.json()["code"], made["code"]);
}

both_dbs!(
    classes_create_list_view_edit,
    classes_create_list_view_edit_run
);

async fn any_account_teaches_when_allowed_run(db: Db) {
    let Some(s) = start_with(db, |c| c.any_teacher = true).await else {
        return;
    };
    let (mut web, _) = account(s.addr, "Libre").await;
    let list = web.req("GET", "/api/classes", None).await.json();
    assert_eq!(list["may_teach"], true);
    create_class(&mut web, "Club").await;
    // A guest still may not.
    let r = Browser::new(s.addr)
        .post("/api/classes", json!({"name": "x"}))
        .await;
    assert_eq!(code_of(&r), "not_a_teacher");
}

both_dbs!(
    any_account_teaches_when_allowed,
    any_account_teaches_when_allowed_run
);

async fn pupils_from_a_pasted_list_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 0).await;
    let p = format!("/api/classes/{}/pupils", c.id);
    let r = c
        .teacher
        .post(
            &p,
            json!({"text": "  Ana Pérez \n\n\t\nLuis Gómez\r\n  María José  \n"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let made = r.json()["pupils"].as_array().unwrap().clone();
    let reals: Vec<&str> = made
        .iter()
        .map(|x| x["real_name"].as_str().unwrap())
        .collect();
    assert_eq!(reals, ["Ana Pérez", "Luis Gómez", "María José"]);
    for x in &made {
        let name = x["name"].as_str().unwrap();
        let password = x["password"].as_str().unwrap();
        assert!(!name.contains(['0', '1']) && name.len() <= 20, "{name}");
        assert!(
            password.len() >= 8 && !password.contains(['0', '1']),
            "{password}"
        );
        // The generated password logs in, and the account is a managed one.
        let mut web = Browser::new(s.addr);
        let r = web
            .post("/api/login", json!({"name": name, "password": password}))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let me = web.req("GET", "/api/me", None).await.json();
        assert_eq!(
            (me["managed"].clone(), me["class"].clone()),
            (json!(true), json!(c.id))
        );
    }
    let r = c
        .teacher
        .post(&p, json!({"real_names": ["Pedro", " Lucía "]}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["pupils"][1]["real_name"], "Lucía");
    let v = c
        .teacher
        .req("GET", &format!("/api/classes/{}", c.id), None)
        .await
        .json();
    let roster = v["pupils"].as_array().unwrap();
    assert_eq!(roster.len(), 5);
    assert!(roster
        .iter()
        .all(|x| x["real_name"].is_string() && x["archived"] == false));
    // Refused lists.
    for (body, code) in [
        (json!({}), "bad_pupil_list"),
        (json!({"text": "a", "real_names": ["b"]}), "bad_pupil_list"),
        (json!({"text": " \n \n"}), "bad_pupil_list"),
        (json!({"real_names": []}), "bad_pupil_list"),
        (json!({"real_names": vec!["x"; 101]}), "bad_pupil_list"),
        (json!({"real_names": ["ok", " "]}), "bad_real_name"),
        (json!({"real_names": ["y".repeat(81)]}), "bad_real_name"),
    ] {
        let r = c.teacher.post(&p, body.clone()).await;
        assert_eq!(
            (r.status, code_of(&r)),
            (400, code.into()),
            "{body}: {}",
            r.body
        );
    }
    // A class holds at most 100 active pupils: fill it to 99 in the store.
    let store = &s.hub.store;
    for i in 0..94 {
        let user = UserRow {
            id: escaque_server::new_id(),
            name: format!("Relleno{i}x{}", std::process::id() % 1000),
            pass_hash: "x".into(),
        };
        let key = user.name.to_lowercase();
        assert!(store
            .create_pupil(&c.id, &user, &key, "Relleno")
            .await
            .unwrap());
    }
    let r = c.teacher.post(&p, json!({"real_names": ["A", "B"]})).await;
    assert_eq!(
        (r.status, code_of(&r)),
        (400, "class_full".into()),
        "{}",
        r.body
    );
    let r = c.teacher.post(&p, json!({"real_names": ["A"]})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = c.teacher.post(&p, json!({"real_names": ["B"]})).await;
    assert_eq!(code_of(&r), "class_full");
}

both_dbs!(pupils_from_a_pasted_list, pupils_from_a_pasted_list_run);

async fn password_archive_and_move_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 2).await;
    let base = format!("/api/classes/{}/pupils", c.id);
    let name0 = c.pupils[0].name.clone();
    // A new password: the old one and the old sessions stop working.
    let r = c
        .teacher
        .post(
            &format!("{base}/{}/password", name0.to_lowercase()),
            json!({}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let fresh = r.json()["password"].as_str().unwrap().to_string();
    assert_eq!(r.json()["name"], name0.as_str());
    let me = c.pupils[0].web.req("GET", "/api/me", None).await.json();
    assert_eq!(me["account"], false, "the old session ended: {me}");
    let old = Browser::new(s.addr)
        .post(
            "/api/login",
            json!({"name": name0, "password": c.pupils[0].password}),
        )
        .await;
    assert_eq!(old.status, 401);
    let mut web = Browser::new(s.addr);
    let r = web
        .post("/api/login", json!({"name": name0, "password": fresh}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Unknown pupil.
    for path in [
        format!("{base}/NadieNadie22/password"),
        format!("{base}/NadieNadie22"),
        format!("{base}/NadieNadie22/move"),
    ] {
        let r = c.teacher.post(&path, json!({"to": c.id})).await;
        assert_eq!(
            (r.status, code_of(&r)),
            (404, "pupil_not_found".into()),
            "{path}"
        );
    }
    let r = c
        .teacher
        .req("GET", &format!("{base}/NadieNadie22/games"), None)
        .await;
    assert_eq!(code_of(&r), "pupil_not_found");
    // Rename and archive: the pupil's session ends, the class code no
    // longer lets it in, its classmates no longer see it.
    let r = c
        .teacher
        .post(
            &format!("{base}/{name0}"),
            json!({"real_name": " Ana M. ", "archived": true}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.json(),
        json!({"name": name0, "real_name": "Ana M.", "archived": true})
    );
    assert_eq!(
        web.req("GET", "/api/me", None).await.json()["account"],
        false
    );
    let r = Browser::new(s.addr)
        .post(
            &format!("/api/classes/{}/login", c.id),
            json!({"name": name0, "code": c.code}),
        )
        .await;
    assert_eq!((r.status, code_of(&r)), (401, "bad_class_code".into()));
    let seen = c.pupils[1]
        .web
        .req("GET", &format!("/api/classes/{}", c.id), None)
        .await
        .json();
    assert_eq!(seen["pupils"].as_array().unwrap().len(), 1, "{seen}");
    let t = c
        .teacher
        .req("GET", &format!("/api/classes/{}", c.id), None)
        .await
        .json();
    let row = t["pupils"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name0.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        (row["archived"].clone(), row["real_name"].clone()),
        (json!(true), json!("Ana M."))
    );
    let r = c
        .teacher
        .post(&format!("{base}/{name0}"), json!({"real_name": ""}))
        .await;
    assert_eq!(code_of(&r), "bad_real_name");
    let r = c
        .teacher
        .post(&format!("{base}/{name0}"), json!({"archived": false}))
        .await;
    assert_eq!(r.status, 200);
    let r = Browser::new(s.addr)
        .post(
            &format!("/api/classes/{}/login", c.id),
            json!({"name": name0, "code": c.code}),
        )
        .await;
    assert_eq!(r.status, 200, "back in: {}", r.body);
    // Move: to a class the teacher also teaches; not to anybody else's.
    let other = create_class(&mut c.teacher, "Otra").await;
    let other_id = other["id"].as_str().unwrap();
    let (mut stranger, _) = account(s.addr, "Ajeno").await;
    let mut s2 = class_with_pupils(&s, 0).await;
    let foreign = s2.id.clone();
    let r = c
        .teacher
        .post(&format!("{base}/{name0}/move"), json!({"to": foreign}))
        .await;
    assert_eq!((r.status, code_of(&r)), (404, "class_not_found".into()));
    let r = c
        .teacher
        .post(
            &format!("{base}/{name0}/move"),
            json!({"to": "nosuchclass"}),
        )
        .await;
    assert_eq!(code_of(&r), "class_not_found");
    let r = c
        .teacher
        .post(&format!("{base}/{name0}/move"), json!({"to": other_id}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["class"], other_id);
    let moved = c
        .teacher
        .req("GET", &format!("/api/classes/{other_id}"), None)
        .await
        .json();
    assert_eq!(moved["pupils"][0]["name"], name0.as_str());
    assert_eq!(moved["pupils"][0]["real_name"], "Ana M.");
    let left = c
        .teacher
        .req("GET", &format!("/api/classes/{}", c.id), None)
        .await
        .json();
    assert_eq!(left["pupils"].as_array().unwrap().len(), 1);
    // The other class's teacher cannot reset this class's pupils.
    let r = s2
        .teacher
        .post(&format!("{base}/{}/password", c.pupils[1].name), json!({}))
        .await;
    assert_eq!(code_of(&r), "class_not_found");
    let r = stranger
        .post(&format!("{base}/{}/password", c.pupils[1].name), json!({}))
        .await;
    assert_eq!(code_of(&r), "class_not_found");
}

both_dbs!(password_archive_and_move, password_archive_and_move_run);

async fn class_code_login_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 3).await;
    let page = Browser::new(s.addr)
        .req("GET", &format!("/api/classes/{}/login", c.id), None)
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let mut names: Vec<String> = c.pupils.iter().map(|p| p.name.clone()).collect();
    names.sort();
    assert_eq!(page.json()["pupils"], json!(names));
    assert!(!page.body.contains("Alumno Número") && !page.body.contains(&c.code));
    let r = Browser::new(s.addr)
        .req("GET", "/api/classes/nosuch/login", None)
        .await;
    assert_eq!((r.status, code_of(&r)), (404, "class_not_found".into()));
    let login = format!("/api/classes/{}/login", c.id);
    // The code as a child types it: lower case, a space.
    let typed = format!("{} {}", &c.code[..3].to_lowercase(), &c.code[3..]);
    let mut web = Browser::new(s.addr);
    let r = web
        .post(
            &login,
            json!({"name": c.pupils[1].name.to_lowercase(), "code": typed}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json(), json!({"name": c.pupils[1].name, "account": true}));
    let me = web.req("GET", "/api/me", None).await.json();
    assert_eq!(me["managed"], true);
    assert_eq!(me["class"], c.id.as_str());
    // Wrong code, and a name that is not a pupil's: one answer.
    for body in [
        json!({"name": c.pupils[0].name, "code": "XXXXXX"}),
        json!({"name": c.teacher_name, "code": c.code}),
        json!({"name": "Nadie", "code": c.code}),
    ] {
        let r = Browser::new(s.addr).post(&login, body).await;
        assert_eq!(
            (r.status, code_of(&r)),
            (401, "bad_class_code".into()),
            "{}",
            r.body
        );
    }
    let r = Browser::new(s.addr)
        .post(&login, json!({"name": "x"}))
        .await;
    assert_eq!(code_of(&r), "malformed");
    // A new code: the old one stops working.
    let r = c
        .teacher
        .post(&format!("/api/classes/{}/code", c.id), json!({}))
        .await;
    let fresh = r.json()["code"].as_str().unwrap().to_string();
    assert_ne!(fresh, c.code);
    let r = Browser::new(s.addr)
        .post(&login, json!({"name": c.pupils[0].name, "code": c.code}))
        .await;
    assert_eq!(code_of(&r), "bad_class_code");
    let r = Browser::new(s.addr)
        .post(&login, json!({"name": c.pupils[0].name, "code": fresh}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Guessing: after the class's wrong-code bucket is spent, no code is
    // checked at all (the right one neither) until it refills.
    let mut spent = false;
    for _ in 0..40 {
        let r = Browser::new(s.addr)
            .post(&login, json!({"name": c.pupils[0].name, "code": "WRONG9"}))
            .await;
        if r.status == 429 {
            assert_eq!(code_of(&r), "rate_limited");
            spent = true;
            break;
        }
        assert_eq!(code_of(&r), "bad_class_code");
    }
    assert!(spent, "the wrong-code bucket runs out");
    let r = Browser::new(s.addr)
        .post(&login, json!({"name": c.pupils[0].name, "code": fresh}))
        .await;
    assert_eq!(r.status, 429, "{}", r.body);
    // Another class is not slowed by this one's guesser.
    let other = class_with_pupils(&s, 1).await;
    let r = Browser::new(s.addr)
        .post(
            &format!("/api/classes/{}/login", other.id),
            json!({"name": other.pupils[0].name, "code": other.code}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // An archived class lets nobody in by code.
    let r = c
        .teacher
        .post(&format!("/api/classes/{}", c.id), json!({"archived": true}))
        .await;
    assert_eq!(r.status, 200);
    let r = Browser::new(s.addr)
        .req("GET", &format!("/api/classes/{}/login", c.id), None)
        .await;
    assert_eq!(code_of(&r), "class_not_found");
}

both_dbs!(class_code_login, class_code_login_run);

async fn the_class_board_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 1).await;
    let news = format!("/api/classes/{}/news", c.id);
    let r = c
        .teacher
        .post(&news, json!({"text": "  Traed el tablero el jueves "}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let first = r.json();
    assert_eq!(first["text"], "Traed el tablero el jueves");
    assert_eq!(first["homework"], false);
    assert_eq!(first["author"], c.teacher_name.as_str());
    tokio::time::sleep(Duration::from_millis(5)).await;
    let r = c
        .teacher
        .post(
            &news,
            json!({"text": "Resolved el mate en 2", "homework": true}),
        )
        .await;
    assert_eq!(r.status, 201);
    for (body, code) in [
        (json!({"text": " "}), "bad_news"),
        (json!({"text": "n".repeat(2001)}), "bad_news"),
    ] {
        let r = c.teacher.post(&news, body).await;
        assert_eq!((r.status, code_of(&r)), (400, code.into()));
    }
    // A pupil reads it, newest first, and may not write.
    let list = c.pupils[0].web.req("GET", &news, None).await.json();
    let items = list["news"].as_array().unwrap();
    assert_eq!(items.len(), 2, "{list}");
    assert_eq!(items[0]["homework"], true);
    assert_eq!(items[1]["id"], first["id"]);
    let r = c.pupils[0].web.post(&news, json!({"text": "hola"})).await;
    assert_eq!((r.status, code_of(&r)), (403, "teachers_only".into()));
    let view = c.pupils[0]
        .web
        .req("GET", &format!("/api/classes/{}", c.id), None)
        .await
        .json();
    assert_eq!(view["news"].as_array().unwrap().len(), 2);
    // Delete.
    let one = format!("{news}/{}", first["id"].as_str().unwrap());
    let r = c.pupils[0].web.req("DELETE", &one, None).await;
    assert_eq!(code_of(&r), "teachers_only");
    let r = c.teacher.req("DELETE", &one, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = c.teacher.req("DELETE", &one, None).await;
    assert_eq!((r.status, code_of(&r)), (404, "no_such_news".into()));
    let list = c.teacher.req("GET", &news, None).await.json();
    assert_eq!(list["news"].as_array().unwrap().len(), 1);
}

both_dbs!(the_class_board, the_class_board_run);

/// A pupil's lobby socket, once the server watches it (its first list of
/// seeks has come: what is told after that reaches it).
async fn lobby(s: &escaque_server::Running, web: &Browser) -> GameSocket {
    lobby_socket(s.addr, &web.cookies.join("; ")).await
}

async fn a_teacher_starts_a_game_between_two_pupils_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 3).await;
    let mut ws0 = lobby(&s, &c.pupils[0].web).await;
    let mut ws1 = lobby(&s, &c.pupils[1].web).await;
    let games = format!("/api/classes/{}/games", c.id);
    let (a, b) = (c.pupils[0].name.clone(), c.pupils[1].name.clone());
    for (body, status, code) in [
        (json!({"white": a, "black": a}), 400, "same_pupil"),
        (
            json!({"white": a, "black": "Nadie"}),
            404,
            "pupil_not_found",
        ),
        (
            json!({"white": a, "black": b, "time_control": "zzz"}),
            400,
            "bad_time_control",
        ),
    ] {
        let r = c.teacher.post(&games, body).await;
        assert_eq!((r.status, code_of(&r)), (status, code.into()), "{}", r.body);
    }
    let r = c.pupils[2]
        .web
        .post(&games, json!({"white": a, "black": b}))
        .await;
    assert_eq!(code_of(&r), "teachers_only");
    let r = c
        .teacher
        .post(
            &games,
            json!({"white": a, "black": b, "time_control": "10+5"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let game = r.json()["game"].as_str().unwrap().to_string();
    assert_eq!(r.json()["watch"], format!("/partida/{game}"));
    // Each pupil is taken to the game, with its seat.
    let y0 = ws0
        .until(WAIT, |v| v["t"] == "your_game")
        .await
        .expect("your_game");
    let y1 = ws1
        .until(WAIT, |v| v["t"] == "your_game")
        .await
        .expect("your_game");
    assert_eq!(
        (y0["game"].clone(), y0["color"].clone()),
        (json!(game), json!("white"))
    );
    assert_eq!(y1["color"], "black");
    assert_eq!(y0["class"], c.id.as_str());
    assert_eq!(y0["watch"], format!("/partida/{game}"));
    let row = s.hub.store.game(&game).await.unwrap().unwrap();
    assert_eq!(row.class_id.as_deref(), Some(c.id.as_str()));
    assert!(!row.rated);
    assert_eq!(row.time_control.as_deref(), Some("10+5"));
    // The class page: the game, and who is playing.
    let v = c
        .teacher
        .req("GET", &format!("/api/classes/{}", c.id), None)
        .await
        .json();
    assert_eq!(v["games"][0]["game"], game.as_str());
    assert_eq!(v["games"][0]["white"], a.as_str());
    assert_eq!(v["games"][0]["status"], "playing");
    let by_name = |n: &str| {
        v["pupils"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == n)
            .unwrap()
            .clone()
    };
    assert_eq!(by_name(&a)["playing"], game.as_str());
    assert_eq!(by_name(&a)["online"], true);
    assert_eq!(by_name(&c.pupils[2].name)["playing"], Value::Null);
    // They play it out (fool's mate), and the teacher sees it finished.
    let seat = |y: &Value| json!({"game": y["game"], "secret": y["secret"], "seat": y["color"]});
    let mut w = Player::connect(s.addr, &seat(&y0)).await;
    let mut bl = Player::connect(s.addr, &seat(&y1)).await;
    play_line(&mut w, &mut bl, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    w.event("end").await;
    let mut list = Value::Null;
    for _ in 0..50 {
        list = c
            .teacher
            .req(
                "GET",
                &format!("/api/classes/{}/pupils/{a}/games", c.id),
                None,
            )
            .await
            .json();
        if !list["games"].as_array().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let g = &list["games"][0];
    assert_eq!(g["game"], game.as_str());
    assert_eq!(g["result"], "0-1");
    assert_eq!(g["termination"], "checkmate");
    assert!(g["ended_ms"].as_i64().unwrap() > 0);
    assert_eq!(g["pgn"], format!("/api/games/{game}/pgn"));
    let r = c.pupils[0]
        .web
        .req(
            "GET",
            &format!("/api/classes/{}/pupils/{a}/games", c.id),
            None,
        )
        .await;
    assert_eq!(code_of(&r), "teachers_only");
}

both_dbs!(
    a_teacher_starts_a_game_between_two_pupils,
    a_teacher_starts_a_game_between_two_pupils_run
);

/// The keys of the `cl` section of a browser catalogue: an identifier at
/// the start of a line or after `, `, followed by `: ` and a text or a
/// function.
fn cl_keys(catalogue: &str) -> std::collections::BTreeSet<String> {
    let start = catalogue.find("\n  cl: {").expect("cl section") + 8;
    let body = &catalogue[start..];
    let body = &body[..body.find("\n  },").expect("cl closed")];
    let mut keys = std::collections::BTreeSet::new();
    for line in body.lines() {
        for part in line.trim_start().split(", ") {
            let Some((key, rest)) = part.split_once(": ") else {
                continue;
            };
            let is_key = !key.is_empty() && key.chars().all(|c| c.is_ascii_lowercase() || c == '_');
            if is_key && rest.starts_with(['\'', '(', '`']) {
                keys.insert(key.to_string());
            }
        }
    }
    keys
}

/// Every text `clases.js` asks for is in both catalogues, and the two
/// catalogues have the same keys.
#[test]
fn class_pages_have_every_text_in_spanish_and_english() {
    let es = cl_keys(include_str!("../web/i18n/es.js"));
    let en = cl_keys(include_str!("../web/i18n/en.js"));
    assert!(es.len() > 50, "{es:?}");
    assert_eq!(es, en, "the same keys in es.js and en.js");
    let page = include_str!("../web/clases.js");
    for used in page.split("T().").skip(1) {
        let key: String = used
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .collect();
        assert!(es.contains(&key), "clases.js asks for cl.{key}");
    }
}
