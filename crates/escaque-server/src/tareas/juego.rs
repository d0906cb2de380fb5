//! "Juego tras la tarea" (issue 57): a class's option, off until one of its
//! teachers turns it on (migration 0014). While it is on, a pupil of the
//! class (kid mode) starts no **free game** until its **open homework** is
//! done:
//!
//! * **Open homework** ("la tarea del día"): every homework of the pupil's
//!   class that is set for the pupil, already set, whose due time has not
//!   passed, and that still has items left for the pupil — "left" exactly
//!   as the pupil's cards count them ([`super::pupil_cells`]: an item not
//!   attempted; with a second try allowed, also an item attempted but not
//!   solved). Homework past its due time no longer locks play (it is
//!   still handed in, marked late in the grid): a pupil is never locked
//!   for good by an old homework, and the teacher sees the late work.
//! * **A free game**: a game against the engine, a challenge (making one
//!   or taking its seat), a seek (posting one or accepting one, the
//!   pupil's or another's: a teacher who accepts a locked pupil's seek is
//!   refused too), a rematch. Not free: a game started from a homework
//!   item (`POST /api/games` with `homework`, checked against the item:
//!   against the engine at the item's level or stronger, from its
//!   position, with the side its goal names), and the class's own events
//!   the teacher runs (class games the teacher pairs, simuls,
//!   tournaments), which the teacher has chosen for the pupil.
//!
//! A refused start is `403 homework_first` naming the homework left; the
//! pupil's page reads the same answer from `GET /api/me/juego`.

use escaque::{Color, Position};

use super::{items_of, pupil_cells, set_for, Item};
use crate::error::{ApiError, Kind};
use crate::identity::Identity;
use crate::proto::tareas as wire;
use crate::store::tareas::HomeworkRow;
use crate::store::{now_ms, Store};

/// A pupil's lock: its class and the homework still open.
#[derive(Clone, Debug)]
pub struct Lock {
    /// The pupil's class.
    pub class_id: String,
    /// The open homework, soonest due first, with the items left.
    pub pending: Vec<(HomeworkRow, usize)>,
}

/// The open homework of pupil `user_id` in class `class_id` at `now` (see
/// the module's text), soonest due first.
pub async fn open_homework(
    store: &Store,
    class_id: &str,
    user_id: &str,
    now: i64,
) -> Result<Vec<(HomeworkRow, usize)>, ApiError> {
    let mut out = Vec::new();
    for hw in store.class_homework(class_id).await? {
        if hw.created_ms > now || now > hw.due_ms || !set_for(store, &hw, user_id).await? {
            continue;
        }
        let items = store.homework_items(&hw.id).await?.len();
        let mine = store.homework_attempts(&hw.id, Some(user_id)).await?;
        let (_, left) = pupil_cells(&hw, items, &mine);
        if left > 0 {
            out.push((hw, left));
        }
    }
    out.sort_by(|a, b| {
        a.0.due_ms
            .cmp(&b.0.due_ms)
            .then_with(|| a.0.id.cmp(&b.0.id))
    });
    Ok(out)
}

/// The pupil's class if identity key `key` is a pupil's (a managed
/// account in a class) whose class has the option on.
async fn locked_class(store: &Store, key: &str) -> Result<Option<(String, String)>, ApiError> {
    let Some(uid) = key.strip_prefix("u:") else {
        return Ok(None);
    };
    if !store
        .user_flags(uid)
        .await?
        .is_some_and(|(_, managed)| managed)
    {
        return Ok(None);
    }
    let Some(class_id) = store.pupil_class(uid).await? else {
        return Ok(None);
    };
    if !store.play_after_homework(&class_id).await? {
        return Ok(None);
    }
    Ok(Some((class_id, uid.to_string())))
}

/// The lock on identity key `key` now: `None` when it may start a free
/// game (not a pupil, the class's option off, or no open homework).
pub async fn lock_of(store: &Store, key: &str) -> Result<Option<Lock>, ApiError> {
    let Some((class_id, uid)) = locked_class(store, key).await? else {
        return Ok(None);
    };
    let pending = open_homework(store, &class_id, &uid, now_ms()).await?;
    Ok((!pending.is_empty()).then_some(Lock { class_id, pending }))
}

/// `403 homework_first`: free play waits for the homework `lock` names.
pub fn homework_first(lock: &Lock) -> ApiError {
    let (hw, left) = &lock.pending[0];
    let more = lock.pending.len() - 1;
    let (es_more, en_more) = match more {
        0 => (String::new(), String::new()),
        1 => (
            " y 1 tarea más".to_string(),
            " and 1 more homework".to_string(),
        ),
        n => (
            format!(" y {n} tareas más"),
            format!(" and {n} more homework"),
        ),
    };
    let (es_left, en_left) = if *left == 1 {
        ("te queda 1 ejercicio".to_string(), "1 item".to_string())
    } else {
        (
            format!("te quedan {left} ejercicios"),
            format!("{left} items"),
        )
    };
    let es = format!(
        "en tu clase se juega después de la tarea: {es_left} de «{}»{es_more}",
        hw.title
    );
    let en = format!(
        "in your class you play after your homework: {en_left} of “{}” left{en_more}",
        hw.title
    );
    ApiError::new(Kind::Forbidden, "homework_first", &es, &en)
}

/// Refuses a free game for identity key `key` while it is locked.
pub async fn check_free_play(store: &Store, key: &str) -> Result<(), ApiError> {
    match lock_of(store, key).await? {
        Some(l) => Err(homework_first(&l)),
        None => Ok(()),
    }
}

/// What `GET /api/me/juego` answers: whether `me` may start a free game,
/// and why not.
pub async fn state(store: &Store, me: &Identity) -> Result<wire::PlayState, ApiError> {
    let Some((class_id, uid)) = locked_class(store, &me.key).await? else {
        return Ok(wire::PlayState {
            play_after_homework: false,
            locked: false,
            class: None,
            pending: Vec::new(),
            es: String::new(),
            en: String::new(),
        });
    };
    let pending = open_homework(store, &class_id, &uid, now_ms()).await?;
    let lock = Lock {
        class_id: class_id.clone(),
        pending,
    };
    let (es, en) = if lock.pending.is_empty() {
        (
            "tarea hecha: ya puedes jugar".to_string(),
            "homework done: you may play".to_string(),
        )
    } else {
        let e = homework_first(&lock);
        (e.2, e.3)
    };
    Ok(wire::PlayState {
        play_after_homework: true,
        locked: !lock.pending.is_empty(),
        class: Some(class_id),
        pending: lock
            .pending
            .iter()
            .map(|(h, left)| wire::PendingHomework {
                id: h.id.clone(),
                title: h.title.clone(),
                due_ms: h.due_ms,
                left: *left,
            })
            .collect(),
        es,
        en,
    })
}

fn not_a_homework_game(es: &str, en: &str) -> ApiError {
    ApiError::bad(
        "bad_homework_game",
        format!("esa partida no es la del ejercicio de la tarea: {es}"),
        format!("that game is not the homework item's: {en}"),
    )
}

/// Checks that a new game `me` starts is the game of homework item
/// `r`: a homework of `me`'s class set for `me`, an item that is a game
/// against the engine or a position, the engine at `level` (`None`: not
/// the engine) at the item's level or stronger, starting at `start`
/// (the item's position, or the usual one), `me` playing `color` (the
/// goal's side; a position: the side to move).
pub async fn check_homework_game(
    store: &Store,
    me: &Identity,
    r: &wire::HomeworkGame,
    level: Option<u8>,
    start: &Position,
    chess960: bool,
    color: Color,
) -> Result<(), ApiError> {
    let uid = crate::classes::user_id(me)
        .filter(|_| me.managed)
        .ok_or_else(|| {
            not_a_homework_game(
                "solo un alumno juega la partida de su tarea",
                "only a pupil plays its homework's game",
            )
        })?;
    if store.pupil_class(uid).await?.as_deref() != Some(r.class.as_str()) {
        return Err(super::homework_not_found());
    }
    let hw = store
        .homework(&r.homework)
        .await?
        .filter(|h| h.class_id == r.class)
        .ok_or_else(super::homework_not_found)?;
    if !set_for(store, &hw, uid).await? {
        return Err(super::homework_not_found());
    }
    let items = items_of(&store.homework_items(&hw.id).await?)?;
    let item = items.get(r.item).ok_or_else(super::item_not_found)?;
    let Some(level) = level else {
        return Err(not_a_homework_game(
            "se juega contra el motor",
            "it is played against the engine",
        ));
    };
    let (want_level, want_start, want_color) = match item {
        Item::EngineGame { level, goal } => (
            *level,
            Position::new(),
            match goal.as_str() {
                "gana_blancas" => Some(Color::White),
                "gana_negras" => Some(Color::Black),
                _ => None,
            },
        ),
        Item::Position { fen, level, .. } => {
            let p = Position::from_fen(fen)?;
            (*level, p, Some(p.turn()))
        }
        _ => {
            return Err(not_a_homework_game(
                "ese ejercicio no es una partida",
                "that item is not a game",
            ))
        }
    };
    if level < want_level {
        return Err(not_a_homework_game(
            &format!("el motor ha de tener nivel {want_level} o más"),
            &format!("the engine must have level {want_level} or more"),
        ));
    }
    if chess960 || *start != want_start {
        return Err(not_a_homework_game(
            "no empieza en la posición del ejercicio",
            "it does not begin at the item's position",
        ));
    }
    if want_color.is_some_and(|c| c != color) {
        return Err(not_a_homework_game(
            "hay que llevar el bando que pide el ejercicio",
            "you must play the side the item names",
        ));
    }
    Ok(())
}
