//! Kid mode (issue 26): who a pupil may meet, and who may see a pupil.
//!
//! A pupil (a managed account) plays, and is seen by, its [`Circle`] only:
//! its class's teachers and pupils. Everybody else is *outside*. The rules
//! every route applies come down to two questions answered here:
//!
//! * [`meeting`]: may these two identities sit at one board? A pupil meets
//!   its circle; anybody meets a pupil only from inside that pupil's
//!   circle; two identities neither of which is a pupil always meet. The
//!   answer names the class the game belongs to (the pupil's), which the
//!   new game carries as its `class_id`.
//! * [`may_see_pupil`]: may the asker see a pupil's page (and its name in
//!   somebody else's list)? The pupil itself, its class's teachers and its
//!   classmates.
//!
//! The lobby's lists are filtered per watcher by a [`Viewer`] (a pupil
//! watches with its circle), and a pupil's seek carries its audience.

use std::collections::HashSet;
use std::sync::Arc;

use super::{circle, circle_of, user_id, Circle};
use crate::identity::Identity;
use crate::lobby::Viewer;
use crate::store::{Store, StoreError};
use crate::Hub;

/// Whether two identities may play each other, and the class their game
/// belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Meeting {
    /// Neither is a pupil: no restriction, no class.
    Open,
    /// A pupil and a member of its circle: the game belongs to that class.
    Class(String),
    /// One of them is a pupil and the other is outside its circle.
    Refused,
}

impl Meeting {
    /// The class of the game, if any.
    pub fn class(&self) -> Option<String> {
        match self {
            Meeting::Class(c) => Some(c.clone()),
            _ => None,
        }
    }
}

/// The circle of the identity key `key` if it is a pupil's (`u:ID` of a
/// managed account), `None` for anybody else (a guest, an account that is
/// not managed, an engine's empty owner).
pub async fn pupil_circle(store: &Store, key: &str) -> Result<Option<Circle>, StoreError> {
    let Some(uid) = key.strip_prefix("u:") else {
        return Ok(None);
    };
    match store.user_flags(uid).await? {
        Some((_, true)) => {}
        _ => return Ok(None),
    }
    match store.pupil_class(uid).await? {
        Some(class_id) => Ok(Some(circle_of(store, &class_id).await?)),
        // Archived everywhere: nobody may reach it.
        None => Ok(Some(Circle {
            class_id: String::new(),
            members: HashSet::new(),
        })),
    }
}

/// Whether `me` and the identity `other` may sit at one board (see
/// [`Meeting`]).
pub async fn meeting(store: &Store, me: &Identity, other: &str) -> Result<Meeting, StoreError> {
    let within = |c: Circle, key: &str| {
        if !c.class_id.is_empty() && c.has(key) {
            Meeting::Class(c.class_id)
        } else {
            Meeting::Refused
        }
    };
    if let Some(mine) = circle(store, me).await? {
        return Ok(within(mine, other));
    }
    match pupil_circle(store, other).await? {
        Some(theirs) => Ok(within(theirs, &me.key)),
        None => Ok(Meeting::Open),
    }
}

/// Whether `me` may see the pupil whose account id is `pupil_uid`: it is
/// the pupil itself, one of its class's teachers or one of its classmates.
/// (A pupil archived everywhere is seen by itself only.)
pub async fn may_see_pupil(
    store: &Store,
    me: &Identity,
    pupil_uid: &str,
) -> Result<bool, StoreError> {
    let Some(uid) = user_id(me) else {
        return Ok(false);
    };
    if uid == pupil_uid {
        return Ok(true);
    }
    let Some(class_id) = store.pupil_class(pupil_uid).await? else {
        return Ok(false);
    };
    if me.managed {
        Ok(store.pupil_class(uid).await?.as_deref() == Some(class_id.as_str()))
    } else {
        store.is_class_teacher(&class_id, uid).await
    }
}

/// How `me` watches the lobby: a pupil with its circle, anybody else
/// without. A pupil whose class cannot be read (the database failed) is
/// given an empty circle: it sees its own seeks only, never more.
pub async fn viewer(store: &Store, me: &Identity) -> Viewer {
    let circle = match circle(store, me).await {
        Ok(c) => c.map(|c| c.members),
        Err(e) => {
            // Logged once, as every store error of a route is.
            crate::error::log_storage(&e);
            me.managed.then(HashSet::new)
        }
    };
    Viewer {
        key: me.key.clone(),
        circle: circle.map(Arc::new),
    }
}

/// Whether identity key `key` is a pupil's (a managed account): read once
/// from the store, then remembered by the lobby (an account is made
/// managed or not and stays so).
pub async fn is_pupil(hub: &Hub, key: &str) -> Result<bool, StoreError> {
    let Some(uid) = key.strip_prefix("u:") else {
        return Ok(false);
    };
    if let Some(known) = hub.lobby.known_pupil(key) {
        return Ok(known);
    }
    let pupil = hub
        .store
        .user_flags(uid)
        .await?
        .is_some_and(|(_, managed)| managed);
    hub.lobby.remember_pupil(key, pupil);
    Ok(pupil)
}
