//! `GET /api/me` answers exactly the fields docs/protocol.md documents
//! (issue 60): the row's example object names them, and the row says what
//! each one means. Asked as a guest, an account, a teacher and a pupil.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::*;

/// The documented fields: the keys of the JSON object in the answer column
/// of the `GET /api/me` row, each also named in backquotes in the row.
fn documented() -> BTreeSet<String> {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/protocol.md"
    ))
    .expect("docs/protocol.md");
    let row = doc
        .lines()
        .find(|l| l.starts_with("| `GET /api/me` |"))
        .expect("a `GET /api/me` row in docs/protocol.md");
    let answer = row.rsplit(" | ").next().expect("the answer column");
    let start = answer.find('{').expect("an example object");
    let end = start + answer[start..].find('}').expect("its end");
    let example: Value = serde_json::from_str(&answer[start..=end]).expect("the example is JSON");
    let keys: BTreeSet<String> = example
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect();
    let prose = &answer[end + 1..];
    for k in &keys {
        assert!(
            prose.contains(&format!("`{k}`")),
            "docs/protocol.md's `GET /api/me` row does not say what `{k}` is"
        );
    }
    keys
}

async fn me(web: &mut Browser) -> Value {
    let r = web.req("GET", "/api/me", None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

fn fields(v: &Value) -> BTreeSet<String> {
    v.as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

async fn me_fields(db: Db) {
    let Some(s) = start(db).await else { return };
    let doc = documented();
    let class = class_with_pupils(&s, 1).await;
    let mut guest = Browser::new(s.addr);
    let (mut plain, plain_name) = account(s.addr, "Cuenta").await;
    let mut teacher = class.teacher;
    let mut pupil = class.pupils.into_iter().next().expect("a pupil").web;
    let g = me(&mut guest).await;
    let a = me(&mut plain).await;
    let t = me(&mut teacher).await;
    let p = me(&mut pupil).await;
    for (who, v) in [
        ("guest", &g),
        ("account", &a),
        ("teacher", &t),
        ("pupil", &p),
    ] {
        assert_eq!(fields(v), doc, "{who}'s /api/me: {v}");
    }
    // What each says, as documented.
    assert_eq!(
        (&g["account"], &g["managed"], &g["may_teach"], &g["class"]),
        (&false.into(), &false.into(), &false.into(), &Value::Null),
        "{g}"
    );
    assert!(g["name"]
        .as_str()
        .is_some_and(|n| n.starts_with("invitado-")));
    assert_eq!(a["name"], plain_name.as_str());
    assert_eq!(
        (&a["account"], &a["managed"], &a["may_teach"], &a["class"]),
        (&true.into(), &false.into(), &false.into(), &Value::Null),
        "{a}"
    );
    assert_eq!(t["name"], class.teacher_name.as_str());
    assert_eq!(
        (&t["account"], &t["managed"], &t["may_teach"], &t["class"]),
        (&true.into(), &false.into(), &true.into(), &Value::Null),
        "{t}"
    );
    assert_eq!(
        (&p["account"], &p["managed"], &p["may_teach"], &p["class"]),
        (
            &true.into(),
            &true.into(),
            &false.into(),
            &class.id.as_str().into()
        ),
        "{p}"
    );
}
both_dbs!(api_me_answers_the_documented_fields, me_fields);
