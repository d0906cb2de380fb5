//! Classes (issue 26): teachers, their classes and their pupils.
//!
//! * A **teacher** is an account the administrator marked
//!   (`Config::teachers`, `users.teacher`), or any account that is not a
//!   pupil when `Config::any_teacher` is set. A teacher creates classes and
//!   adds co-teachers.
//! * A **pupil** is a managed account (`users.managed`) in one class at a
//!   time, its name and password generated ([`words`]); its real name is
//!   seen by the class's teachers only.
//! * **Kid mode**: a pupil plays, watches and talks only within its
//!   [`Circle`] (its class's teachers and pupils), the engine, and its
//!   class's events; its page is not public.
//! * Every class route asks for the asker's [`Role`] first: somebody who is
//!   neither a teacher nor a pupil of the class gets `404 class_not_found`
//!   (the class's existence is not told), a pupil on a teacher's route gets
//!   `403 teachers_only`.

pub mod kid;
mod refusal;
pub mod words;

pub use refusal::{ClassError, Refusal};

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use crate::error::ApiError;
use crate::identity::Identity;
use crate::ratelimit::Bucket;
use crate::store::classes::ClassRow;
use crate::store::{Store, StoreError};
use crate::Hub;

/// What the asker is to a class.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// One of its teachers.
    Teacher,
    /// One of its pupils (not archived).
    Pupil,
    /// Anybody else.
    Outsider,
}

/// The user id of an account identity (`u:ID`); `None` for a guest.
pub fn user_id(me: &Identity) -> Option<&str> {
    me.key.strip_prefix("u:").filter(|_| me.account)
}

/// What `me` is to `class_id`.
pub async fn role(store: &Store, me: &Identity, class_id: &str) -> Result<Role, StoreError> {
    let Some(uid) = user_id(me) else {
        return Ok(Role::Outsider);
    };
    if !me.managed && store.is_class_teacher(class_id, uid).await? {
        return Ok(Role::Teacher);
    }
    if me.managed && store.pupil_class(uid).await?.as_deref() == Some(class_id) {
        return Ok(Role::Pupil);
    }
    Ok(Role::Outsider)
}

/// `404 class_not_found` ([`Refusal::ClassNotFound`]) as a refusal.
pub fn class_not_found() -> ApiError {
    Refusal::ClassNotFound.into()
}

/// `403 teachers_only` ([`Refusal::TeachersOnly`]) as a refusal.
pub fn teachers_only() -> ApiError {
    Refusal::TeachersOnly.into()
}

/// `403 kid_mode` ([`Refusal::KidMode`]) as a refusal.
pub fn kid_mode() -> ApiError {
    Refusal::KidMode.into()
}

/// The class `class_id` if `me` is one of its teachers: `404
/// class_not_found` for an outsider, `403 teachers_only` for a pupil.
pub async fn teaching(hub: &Hub, me: &Identity, class_id: &str) -> Result<ClassRow, ClassError> {
    match member(hub, me, class_id).await? {
        (class, Role::Teacher) => Ok(class),
        _ => Err(Refusal::TeachersOnly.into()),
    }
}

/// The class `class_id` and the asker's role if `me` is a teacher or a
/// pupil of it: `404 class_not_found` otherwise.
pub async fn member(
    hub: &Hub,
    me: &Identity,
    class_id: &str,
) -> Result<(ClassRow, Role), ClassError> {
    let class = hub
        .store
        .class(class_id)
        .await?
        .ok_or(Refusal::ClassNotFound)?;
    match role(&hub.store, me, class_id).await? {
        Role::Outsider => Err(Refusal::ClassNotFound.into()),
        r => Ok((class, r)),
    }
}

/// Whether `me` may create classes: an account that is not a pupil, marked
/// as a teacher or on a server where anybody may teach.
pub async fn may_teach(hub: &Hub, me: &Identity) -> Result<bool, StoreError> {
    let Some(uid) = user_id(me) else {
        return Ok(false);
    };
    if me.managed {
        return Ok(false);
    }
    if hub.config.any_teacher {
        return Ok(true);
    }
    Ok(hub
        .store
        .user_flags(uid)
        .await?
        .is_some_and(|(teacher, _)| teacher))
}

/// A pupil's world: its class, and the identity keys (`u:ID`) of that
/// class's teachers and pupils.
#[derive(Clone, Debug)]
pub struct Circle {
    /// The class.
    pub class_id: String,
    /// Teachers' and pupils' identity keys.
    pub members: HashSet<String>,
}

impl Circle {
    /// Whether identity key `key` is in the circle.
    pub fn has(&self, key: &str) -> bool {
        self.members.contains(key)
    }
}

/// The circle of `me` if `me` is a pupil (kid mode); `None` for anybody
/// else. A pupil in no class (archived everywhere) has an empty circle:
/// it may still play the engine.
pub async fn circle(store: &Store, me: &Identity) -> Result<Option<Circle>, StoreError> {
    if !me.managed {
        return Ok(None);
    }
    let Some(uid) = user_id(me) else {
        return Ok(None);
    };
    let Some(class_id) = store.pupil_class(uid).await? else {
        return Ok(Some(Circle {
            class_id: String::new(),
            members: HashSet::new(),
        }));
    };
    Ok(Some(circle_of(store, &class_id).await?))
}

/// Everybody in class `class_id`, as a circle.
pub async fn circle_of(store: &Store, class_id: &str) -> Result<Circle, StoreError> {
    let mut members = HashSet::new();
    for t in store.class_teachers(class_id).await? {
        members.insert(format!("u:{}", t.user_id));
    }
    for p in store.class_pupils(class_id, false).await? {
        members.insert(format!("u:{}", p.user_id));
    }
    Ok(Circle {
        class_id: class_id.to_string(),
        members,
    })
}

/// Marks the account named `name` as a teacher (at start, from
/// `Config::teachers`); an unknown name is reported on stderr and skipped.
pub async fn mark_teacher(store: &Store, name: &str) -> Result<(), StoreError> {
    let key = crate::names::skeleton(name);
    let found = store.set_teacher(&key).await? || store.set_teacher(&name.to_lowercase()).await?;
    if !found {
        eprintln!(
            "escaque-server: no hay ninguna cuenta «{name}» que marcar como docente \
             / no account '{name}' to mark as a teacher"
        );
    }
    Ok(())
}

/// Class-code logins: one bucket per class, not per address, so that a
/// room of tablets behind one address is never locked out; wrong codes
/// draw from a smaller bucket of their own per class, so that guessing a
/// code is slow without slowing the class.
#[derive(Default)]
pub struct LoginLimits {
    good: Mutex<HashMap<String, Bucket>>,
    wrong: Mutex<HashMap<String, Bucket>>,
}

/// Logins by code per class: burst…
pub const CLASS_LOGIN_BURST: f64 = 120.0;
/// …refilled per second.
pub const CLASS_LOGIN_PER_SEC: f64 = 4.0;
/// Wrong codes per class: burst…
pub const WRONG_CODE_BURST: f64 = 20.0;
/// …refilled per second (one every 10 s).
pub const WRONG_CODE_PER_SEC: f64 = 0.1;

impl LoginLimits {
    /// Takes a login token of `class_id`.
    pub fn take(&self, class_id: &str) -> bool {
        let mut m = self.good.lock().unwrap_or_else(|e| e.into_inner());
        m.entry(class_id.to_string())
            .or_insert_with(|| Bucket::new(CLASS_LOGIN_BURST, CLASS_LOGIN_PER_SEC))
            .take()
    }

    /// Whether `class_id` has a wrong-code token left (none is taken):
    /// false while too many wrong codes were typed lately.
    pub fn wrong_left(&self, class_id: &str) -> bool {
        let mut m = self.wrong.lock().unwrap_or_else(|e| e.into_inner());
        m.get_mut(class_id).is_none_or(Bucket::has)
    }

    /// Takes a wrong-code token of `class_id`; false: too many wrong codes
    /// lately.
    pub fn take_wrong(&self, class_id: &str) -> bool {
        let mut m = self.wrong.lock().unwrap_or_else(|e| e.into_inner());
        m.entry(class_id.to_string())
            .or_insert_with(|| Bucket::new(WRONG_CODE_BURST, WRONG_CODE_PER_SEC))
            .take()
    }
}
