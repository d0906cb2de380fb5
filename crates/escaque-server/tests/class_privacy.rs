//! Privacy and roles of the class routes (issue 26): every class endpoint
//! asked by a guest, an account outside the class, a pupil of the class
//! (on the teachers' routes), a pupil of another class and a teacher of
//! another class, each with the refusal it must get; a pupil never reads a
//! real name; and a room of tablets logging in by class code from one
//! address is never locked out.

use std::time::Instant;

use serde_json::{json, Value};

use crate::common::*;

/// Who may use a route.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Who {
    /// The class's teachers only.
    Teachers,
    /// Its teachers and pupils.
    Members,
}

/// Every route of `src/http/classes.rs` under `/api/classes/{id}`, with a
/// body that would be accepted from a teacher. `{id}`: the class,
/// `{pupil}`: a pupil of it, `{other}`: a class the asker teaches (for
/// `move`), `{news}`: a notice of the board.
fn routes() -> Vec<(&'static str, &'static str, Option<Value>, Who)> {
    use Who::*;
    vec![
        ("GET", "/api/classes/{id}", None, Members),
        (
            "POST",
            "/api/classes/{id}",
            Some(json!({"name": "Robada"})),
            Teachers,
        ),
        (
            "POST",
            "/api/classes/{id}/teachers",
            Some(json!({"name": "{me}"})),
            Teachers,
        ),
        (
            "POST",
            "/api/classes/{id}/pupils",
            Some(json!({"real_names": ["Intruso"]})),
            Teachers,
        ),
        (
            "POST",
            "/api/classes/{id}/pupils/{pupil}",
            Some(json!({"archived": true})),
            Teachers,
        ),
        (
            "POST",
            "/api/classes/{id}/pupils/{pupil}/password",
            Some(json!({})),
            Teachers,
        ),
        (
            "POST",
            "/api/classes/{id}/pupils/{pupil}/move",
            Some(json!({"to": "{other}"})),
            Teachers,
        ),
        (
            "GET",
            "/api/classes/{id}/pupils/{pupil}/games",
            None,
            Teachers,
        ),
        ("POST", "/api/classes/{id}/code", Some(json!({})), Teachers),
        ("GET", "/api/classes/{id}/news", None, Members),
        (
            "POST",
            "/api/classes/{id}/news",
            Some(json!({"text": "hola"})),
            Teachers,
        ),
        ("DELETE", "/api/classes/{id}/news/{news}", None, Teachers),
        (
            "POST",
            "/api/classes/{id}/games",
            Some(json!({"white": "{pupil}", "black": "{pupil2}"})),
            Teachers,
        ),
        // Simuls, class tournaments, progress, login cards.
        (
            "POST",
            "/api/classes/{id}/simuls",
            Some(json!({"pupils": ["{pupil}"]})),
            Teachers,
        ),
        ("GET", "/api/classes/{id}/simuls", None, Members),
        (
            "POST",
            "/api/classes/{id}/tournaments",
            Some(json!({"system": "swiss", "pupils": ["{pupil}", "{pupil2}"]})),
            Teachers,
        ),
        ("GET", "/api/classes/{id}/tournaments", None, Members),
        ("GET", "/api/classes/{id}/progress", None, Teachers),
        (
            "GET",
            "/api/classes/{id}/progress?format=csv",
            None,
            Teachers,
        ),
        ("GET", "/api/classes/{id}/cards.pdf", None, Teachers),
        ("GET", "/clases/{id}/tarjetas", None, Teachers),
    ]
}

/// Who asks, their cookies, their name, and the answer they must get on a
/// teachers' route and on a members' route (`200`: served).
type Asker<'a> = (
    &'static str,
    &'a mut Browser,
    String,
    (u16, &'static str),
    (u16, &'static str),
);

fn fill(s: &str, vars: &[(&str, &str)]) -> String {
    vars.iter().fold(s.to_string(), |acc, (k, v)| {
        acc.replace(&format!("{{{k}}}"), v)
    })
}

fn fill_json(v: &Value, vars: &[(&str, &str)]) -> Value {
    serde_json::from_str(&fill(&v.to_string(), vars)).expect("json")
}

async fn every_class_route_refuses_strangers_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 2).await;
    let mut other = class_with_pupils(&s, 1).await;
    let (mut outsider, outsider_name) = account(s.addr, "Fuera").await;
    let news = c
        .teacher
        .post(
            &format!("/api/classes/{}/news", c.id),
            json!({"text": "Aviso"}),
        )
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (p0, p1) = (c.pupils[0].name.clone(), c.pupils[1].name.clone());
    let other_teacher = other.teacher_name.clone();
    let other_id = other.id.clone();
    // (asker, the refusal on a teachers' route, on a members' route)
    let mut guest = Browser::new(s.addr);
    let mut askers: Vec<Asker> = vec![
        (
            "guest",
            &mut guest,
            "invitado".into(),
            (404, "class_not_found"),
            (404, "class_not_found"),
        ),
        (
            "outsider",
            &mut outsider,
            outsider_name,
            (404, "class_not_found"),
            (404, "class_not_found"),
        ),
        (
            "teacher of another class",
            &mut other.teacher,
            other_teacher,
            (404, "class_not_found"),
            (404, "class_not_found"),
        ),
        (
            "pupil of another class",
            &mut other.pupils[0].web,
            "x".into(),
            (404, "class_not_found"),
            (404, "class_not_found"),
        ),
    ];
    let (first, rest) = c.pupils.split_at_mut(1);
    let _ = rest;
    askers.push((
        "pupil of the class",
        &mut first[0].web,
        p0.clone(),
        (403, "teachers_only"),
        (200, ""),
    ));
    let mut checked = 0;
    for (who, web, me_name, on_teachers, on_members) in askers.iter_mut() {
        for (method, path, body, route) in routes() {
            let vars = [
                ("id", c.id.as_str()),
                ("pupil", p1.as_str()),
                ("pupil2", p0.as_str()),
                ("other", other_id.as_str()),
                ("news", news.as_str()),
                ("me", me_name.as_str()),
            ];
            let url = fill(path, &vars);
            let r = web
                .req(method, &url, body.as_ref().map(|b| fill_json(b, &vars)))
                .await;
            let want = if route == Who::Teachers {
                *on_teachers
            } else {
                *on_members
            };
            let got = r.json()["code"].as_str().unwrap_or("").to_string();
            if want.0 == 200 {
                assert_eq!(r.status, 200, "{who} {method} {url}: {}", r.body);
            } else {
                assert_eq!(
                    (r.status, got.as_str()),
                    want,
                    "{who} {method} {url}: {}",
                    r.body
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 5 * routes().len());
    // Nothing changed: the name, the pupils, the code, the board.
    let v = c
        .teacher
        .req("GET", &format!("/api/classes/{}", c.id), None)
        .await
        .json();
    assert_eq!(v["code"], c.code.as_str());
    assert_ne!(v["name"], "Robada");
    assert_eq!(v["pupils"].as_array().unwrap().len(), 2);
    assert!(v["pupils"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["archived"] == false));
    assert_eq!(v["teachers"].as_array().unwrap().len(), 1);
    assert_eq!(v["news"].as_array().unwrap().len(), 1);
    assert!(v["games"].as_array().unwrap().is_empty());
    for what in ["simuls", "tournaments"] {
        let l = c
            .teacher
            .req("GET", &format!("/api/classes/{}/{what}", c.id), None)
            .await
            .json();
        assert!(l[what].as_array().unwrap().is_empty(), "{what}: {l}");
    }
    // The pupils' passwords still work.
    for p in &c.pupils {
        let r = Browser::new(s.addr)
            .post(
                "/api/login",
                json!({"name": p.name, "password": p.password}),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // A pupil is not a teacher anywhere: creating a class is refused too.
    let r = c.pupils[1]
        .web
        .post("/api/classes", json!({"name": "Mía"}))
        .await;
    assert_eq!(r.json()["code"], "not_a_teacher");
}

both_dbs!(
    every_class_route_refuses_strangers,
    every_class_route_refuses_strangers_run
);

async fn a_pupil_never_reads_a_real_name_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 3).await;
    // One more pupil through the API, and one archived.
    let r = c
        .teacher
        .post(
            &format!("/api/classes/{}/pupils", c.id),
            json!({"text": "Zoe Secreta"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let archived = c.pupils[2].name.clone();
    let r = c
        .teacher
        .post(
            &format!("/api/classes/{}/pupils/{archived}", c.id),
            json!({"archived": true}),
        )
        .await;
    assert_eq!(r.status, 200);
    let id = c.id.clone();
    let pupil = &mut c.pupils[0].web;
    let mut bodies = Vec::new();
    for path in [
        "/api/classes".to_string(),
        format!("/api/classes/{id}"),
        format!("/api/classes/{id}/news"),
        format!("/api/classes/{id}/login"),
        "/api/me".to_string(),
    ] {
        let r = pupil.req("GET", &path, None).await;
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        bodies.push((path, r.body));
    }
    for (path, body) in &bodies {
        assert!(!body.contains("real_name"), "{path}: {body}");
        assert!(!body.contains("Alumno Número"), "{path}: {body}");
        assert!(!body.contains("Zoe Secreta"), "{path}: {body}");
        assert!(
            !body.contains(&archived),
            "{path}: an archived pupil is gone: {body}"
        );
        assert!(
            !body.contains("\"code\""),
            "{path}: the class code is the teacher's: {body}"
        );
    }
    // The login page (anybody) has neither real names nor the code.
    let r = Browser::new(s.addr)
        .req("GET", &format!("/api/classes/{id}/login"), None)
        .await;
    assert!(
        !r.body.contains("real_name") && !r.body.contains(&c.code),
        "{}",
        r.body
    );
    // The teacher sees them.
    let v = c
        .teacher
        .req("GET", &format!("/api/classes/{id}"), None)
        .await;
    assert!(v.body.contains("Zoe Secreta") && v.body.contains("Alumno Número 1"));
}

both_dbs!(
    a_pupil_never_reads_a_real_name,
    a_pupil_never_reads_a_real_name_run
);

/// A room of tablets: 30 pupils log in by class code from one address,
/// whose own bucket is nearly empty (2 tokens, refilled one in 1000 s),
/// and none is refused. The time is printed (`--nocapture`).
async fn thirty_class_logins_from_one_address_run(db: Db) {
    let Some(s) = start_with(db, |c| {
        c.http_burst = 2.0;
        c.http_per_sec = 0.001;
    })
    .await
    else {
        return;
    };
    let store = &s.hub.store;
    let (mut teacher, name) = account(s.addr, "Maestra").await;
    assert!(store.set_teacher(&name.to_lowercase()).await.unwrap());
    let made = teacher
        .post("/api/classes", json!({"name": "5º A"}))
        .await
        .json();
    let id = made["id"].as_str().unwrap().to_string();
    let code = made["code"].as_str().unwrap().to_string();
    let list: Vec<String> = (1..=30).map(|i| format!("Alumna {i}")).collect();
    let r = teacher
        .post(
            &format!("/api/classes/{id}/pupils"),
            json!({"text": list.join("\n")}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let names: Vec<String> = r.json()["pupils"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    // The address's bucket is spent: an ordinary login is refused…
    let r = Browser::new(s.addr)
        .post("/api/login", json!({"name": names[0], "password": "x"}))
        .await;
    assert_eq!(r.status, 429, "{}", r.body);
    // …and the class logs in all the same.
    let t0 = Instant::now();
    for n in &names {
        let mut web = Browser::new(s.addr);
        let r = web
            .post(
                &format!("/api/classes/{id}/login"),
                json!({"name": n, "code": code}),
            )
            .await;
        assert_eq!(r.status, 200, "{n}: {}", r.body);
        let me = web.req("GET", "/api/me", None).await.json();
        assert_eq!(me["name"], n.as_str());
    }
    let took = t0.elapsed();
    // Reported, not asserted (speed is measured in BENCHMARKS.md).
    println!("30 class-code logins from one address ({db:?}): {took:?}");
}

both_dbs!(
    thirty_class_logins_from_one_address,
    thirty_class_logins_from_one_address_run
);
