//! The classes foundation (issue 26): a pupil is a managed account in its
//! class, a marked teacher may teach, and `/api/me` says so.

use crate::common::*;

async fn me_says_who_teaches_and_who_is_a_pupil_run(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = class_with_pupils(&s, 2).await;
    let t = c.teacher.req("GET", "/api/me", None).await.json();
    assert_eq!(t["may_teach"], true, "{t}");
    assert_eq!(t["managed"], false);
    assert!(t["class"].is_null());
    let p = c.pupils[0].web.req("GET", "/api/me", None).await.json();
    assert_eq!(p["managed"], true, "{p}");
    assert_eq!(p["may_teach"], false);
    assert_eq!(p["class"], c.id.as_str());
    assert_eq!(p["name"], c.pupils[0].name.as_str());
    let (mut other, _) = account(s.addr, "Otra").await;
    let o = other.req("GET", "/api/me", None).await.json();
    assert_eq!(o["may_teach"], false, "not marked: {o}");
    // The circle of a pupil: its classmates and its teacher, nobody else.
    let store = &s.hub.store;
    let circle = escaque_server::classes::circle_of(store, &c.id)
        .await
        .expect("circle");
    assert!(circle.has(&c.teacher_key));
    for pupil in &c.pupils {
        assert!(circle.has(&pupil.key));
    }
    assert_eq!(circle.members.len(), 3);
}

both_dbs!(
    me_says_who_teaches_and_who_is_a_pupil,
    me_says_who_teaches_and_who_is_a_pupil_run
);
