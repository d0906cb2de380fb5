//! One owner per game (issue 28): a game write carries the lease it was
//! made under and is refused (`StoreError::Fenced`) once the game's lease
//! has another epoch; a game's task whose write is refused, or whose lease
//! the renewal no longer lists, stops and closes its connections with 1012.

use std::time::Duration;

use escaque::Position;
use escaque_server::client::SocketError;
use escaque_server::cluster::Fence;
use escaque_server::store::{MoveRow, Sealed, Store, StoreError};
use escaque_server::{Hub, NewGame, Seat};
use serde_json::json;

use crate::common::{friend_game, own_database_url, play_line, start_with, Db, WAIT};

fn new_game() -> escaque_server::store::GameRow {
    let person = |o: &str| Seat::Person {
        owner: format!("g:{o}"),
        name: o.to_string(),
    };
    let (row, _) = Hub::prepare_game(NewGame {
        rules: escaque::RuleSet::fide_2023(),
        start: Position::new(),
        time_control: Some("5+0".parse().unwrap()),
        white: person("w"),
        black: person("b"),
        chess960: false,
        rated: false,
        class_id: None,
    });
    row
}

fn mv(ply: i64, uci: &str) -> MoveRow {
    MoveRow {
        ply,
        uci: uci.into(),
        clock_ms: Some(300_000),
    }
}

fn fenced<T: std::fmt::Debug>(r: Result<T, StoreError>) {
    assert!(matches!(r, Err(StoreError::Fenced)), "{r:?}");
}

/// A write under a stale epoch is refused, nothing of it stored; the new
/// owner's writes go through; the same ply twice is refused by the key.
async fn stale_epoch_refused(db: Db) {
    let Some(url) = own_database_url(db, "fencing").await else {
        return;
    };
    let store = Store::open(&url).await.unwrap();
    let row = new_game();
    let g = row.id.as_str();
    store.insert_game(&row).await.unwrap();
    let ea = store
        .take_lease(g, "a", 60_000)
        .await
        .unwrap()
        .expect("a takes");
    let a = Fence {
        node: "a".into(),
        epoch: ea,
    };
    store
        .append_move(Some(&a), g, &mv(0, "e2e4"), Some([300_000, 300_000]), None)
        .await
        .unwrap();
    // The turn's start is stored with the clocks.
    let l = store.lease(g).await.unwrap().unwrap();
    let started = l.turn_started_ms.expect("turn_started_ms");
    assert!((escaque_server::store::now_ms() - started).abs() < 10_000);
    // b cannot take a valid lease; once a's runs out, it can.
    assert_eq!(store.take_lease(g, "b", 60_000).await.unwrap(), None);
    store.release_lease(g, "a", ea).await.unwrap();
    let eb = store
        .take_lease(g, "b", 60_000)
        .await
        .unwrap()
        .expect("b takes");
    assert_eq!(eb, ea + 1);
    let b = Fence {
        node: "b".into(),
        epoch: eb,
    };
    // Every game write of a's is refused now.
    fenced(
        store
            .append_move(Some(&a), g, &mv(1, "e7e5"), Some([1, 2]), None)
            .await,
    );
    fenced(store.update_game(Some(&a), g, Some([1, 2]), None).await);
    fenced(store.take_back(Some(&a), g, 0, Some([1, 2])).await);
    let sealed = Sealed {
        by: escaque::Color::Black,
        text: "e5".into(),
    };
    fenced(store.adjourn_game(&a, g, Some([1, 2]), &sealed).await);
    fenced(store.open_envelope(&a, g, None, None, None).await);
    fenced(store.set_game_rating(&a, g, true, 1500).await);
    let (rematch, _) = Hub::prepare_game(NewGame {
        rules: escaque::RuleSet::fide_2023(),
        start: Position::new(),
        time_control: None,
        white: Seat::Open,
        black: Seat::Open,
        chess960: false,
        rated: false,
        class_id: None,
    });
    fenced(store.insert_game_fenced(&rematch, g, &a).await);
    assert!(store.game(&rematch.id).await.unwrap().is_none());
    // A fence naming the right node with an old epoch is refused too.
    let old_b = Fence {
        node: "b".into(),
        epoch: ea,
    };
    fenced(store.update_game(Some(&old_b), g, None, None).await);
    // Nothing of a's stored: one move, the clocks as b finds them.
    let stored = store.moves(g).await.unwrap();
    assert_eq!(stored.len(), 1);
    let game = store.game(g).await.unwrap().unwrap();
    assert_eq!(game.clock_white_ms, Some(300_000));
    assert_eq!(game.status, "playing");
    // b's writes go through; a ply already stored is refused by the key.
    store
        .append_move(Some(&b), g, &mv(1, "e7e5"), Some([300_000, 299_000]), None)
        .await
        .unwrap();
    assert!(store
        .append_move(Some(&b), g, &mv(1, "d7d5"), None, None)
        .await
        .is_err());
    assert_eq!(store.moves(g).await.unwrap().len(), 2);
}
both_dbs!(a_write_with_a_stale_epoch_is_refused, stale_epoch_refused);

/// Takes game `game`'s lease away from the server (as another process
/// taking it over would): released at its epoch, then taken by `intruso`.
async fn steal(hub: &Hub, game: &str) {
    let l = hub.store.lease(game).await.unwrap().unwrap();
    hub.store
        .release_lease(game, &hub.node.name, l.epoch)
        .await
        .unwrap();
    let e = hub.store.take_lease(game, "intruso", 60_000).await.unwrap();
    assert_eq!(e, Some(l.epoch + 1));
}

/// The close frame a socket gets next (pings and events skipped).
async fn close_code(p: &mut crate::common::Player) -> (u16, String) {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match p.ws.recv(left).await {
            Ok(_) => continue,
            Err(SocketError::CloseFrame { code, reason }) => return (code, reason),
            Err(e) => panic!("no close frame: {e:?}"),
        }
    }
}

/// The game's task writes a move after another process took the game: the
/// move is refused (not acknowledged, not stored), the task stops and its
/// connections close with 1012; the hub runs it no more.
async fn fenced_task_stops(db: Db) {
    // A long lease: no renewal comes between the theft and the move.
    let Some(s) = start_with(db, |c| c.lease = Duration::from_secs(60)).await else {
        return;
    };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "5+0"})).await;
    play_line(&mut w, &mut b, &["e4", "e5"]).await;
    let game = w.game.clone();
    steal(&s.hub, &game).await;
    let a = w.play("Nf3").await;
    assert_eq!(a["t"], "error", "{a}");
    assert_eq!(a["code"], "storage", "{a}");
    let (code, reason) = close_code(&mut w).await;
    assert_eq!(code, 1012);
    assert!(reason.contains("otro proceso") && reason.contains("another process"));
    let (code, _) = close_code(&mut b).await;
    assert_eq!(code, 1012);
    assert_eq!(s.hub.store.moves(&game).await.unwrap().len(), 2);
    assert!(!s.hub.local.held().iter().any(|(g, _)| *g == game));
    assert!(!s.hub.live_games().iter().any(|(g, _)| *g == game));
}
both_dbs!(a_fenced_task_stops, fenced_task_stops);

/// The lease is taken while nothing is written: the next renewal no longer
/// lists it, and the task stops the same way.
async fn lost_lease_stops(db: Db) {
    let Some(s) = start_with(db, |c| c.lease = Duration::from_millis(600)).await else {
        return;
    };
    let (mut w, mut b) = friend_game(s.addr, json!({"time_control": "5+0"})).await;
    play_line(&mut w, &mut b, &["d4", "d5"]).await;
    let game = w.game.clone();
    steal(&s.hub, &game).await;
    let (code, _) = close_code(&mut w).await;
    assert_eq!(code, 1012);
    let (code, _) = close_code(&mut b).await;
    assert_eq!(code, 1012);
    assert!(!s.hub.local.held().iter().any(|(g, _)| *g == game));
}
both_dbs!(a_task_whose_lease_is_gone_stops, lost_lease_stops);

/// The lease renewal (one statement over every game a process holds) and
/// the group-commit writer (one transaction over several games' writes)
/// lock the games' rows in one order: renewing while many games are being
/// written never deadlocks (PostgreSQL would fail one of the two: a batch of
/// moves, or the renewal). Found by the load of issue 28 (BENCHMARKS.md).
async fn renewal_and_writes_never_deadlock(db: Db) {
    let Some(url) = own_database_url(db, "renewdl").await else {
        return;
    };
    let store = Store::open(&url).await.unwrap();
    let mut games = Vec::new();
    for _ in 0..40 {
        let row = new_game();
        store.insert_game(&row).await.unwrap();
        let epoch = store
            .take_lease(&row.id, "a", 60_000)
            .await
            .unwrap()
            .expect("a takes");
        games.push((
            row.id.clone(),
            Fence {
                node: "a".into(),
                epoch,
            },
        ));
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let renewer = {
        let store = store.clone();
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                store.renew_leases("a", 60_000).await.expect("renewal");
                n += 1;
            }
            n
        })
    };
    // Every game's writes at once, in an order the writer does not choose:
    // its batches hold several games each.
    let mut writers = Vec::new();
    for (i, (g, fence)) in games.into_iter().enumerate() {
        let store = store.clone();
        writers.push(tokio::spawn(async move {
            for ply in 0..30i64 {
                let uci = if ply % 2 == 0 { "g1f3" } else { "g8f6" };
                let clocks = Some([300_000 - ply - i as i64, 300_000 + ply]);
                store
                    .append_move(Some(&fence), &g, &mv(ply, uci), clocks, None)
                    .await
                    .unwrap_or_else(|e| panic!("game {g} ply {ply}: {e}"));
            }
        }));
    }
    for w in writers {
        w.await.unwrap();
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let renewals = renewer.await.unwrap();
    assert!(renewals > 0);
}
both_dbs!(
    lease_renewal_and_game_writes_never_deadlock,
    renewal_and_writes_never_deadlock
);

/// A process whose database session is gone (issue 60): its session lock
/// is free at once, and its lease can be taken from it at its epoch only —
/// never at an older one, never once it took the game again; its writes are
/// refused from then on. On SQLite there is no session lock: nobody is
/// known to be gone.
async fn gone_session_takeover(db: Db) {
    let Some(url) = own_database_url(db, "session").await else {
        return;
    };
    let store = Store::open(&url).await.unwrap();
    let row = new_game();
    let g = row.id.as_str();
    store.insert_game(&row).await.unwrap();
    let ea = store
        .take_lease(g, "a", 60_000)
        .await
        .unwrap()
        .expect("a takes");
    let a = Fence {
        node: "a".into(),
        epoch: ea,
    };
    store
        .append_move(Some(&a), g, &mv(0, "e2e4"), Some([300_000, 300_000]), None)
        .await
        .unwrap();
    if db == Db::Sqlite {
        assert_eq!(store.node_session_alive("a").await.unwrap(), None);
    } else {
        // a's lock, held on a connection of its own, then dropped (its
        // process died): free at once.
        assert_eq!(store.node_session_alive("a").await.unwrap(), Some(false));
        let lock = escaque_server::cluster::session::hold(&url, "a")
            .await
            .unwrap();
        assert_eq!(store.node_session_alive("a").await.unwrap(), Some(true));
        // Another name's lock is another lock.
        assert_eq!(store.node_session_alive("b").await.unwrap(), Some(false));
        drop(lock);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while store.node_session_alive("a").await.unwrap() != Some(false) {
            assert!(tokio::time::Instant::now() < deadline, "a's lock kept");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    // The lease is valid for a minute: only a taking from a at its epoch
    // succeeds, not one at an older epoch nor from another holder.
    assert_eq!(store.take_lease(g, "b", 60_000).await.unwrap(), None);
    assert_eq!(
        store
            .take_lease_from(g, "b", 60_000, "a", ea - 1)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store
            .take_lease_from(g, "b", 60_000, "c", ea)
            .await
            .unwrap(),
        None
    );
    let eb = store
        .take_lease_from(g, "b", 60_000, "a", ea)
        .await
        .unwrap()
        .expect("b takes from a");
    assert_eq!(eb, ea + 1);
    // a is fenced; a second taking at a's epoch (another survivor, late)
    // changes nothing.
    fenced(
        store
            .append_move(Some(&a), g, &mv(1, "e7e5"), Some([1, 2]), None)
            .await,
    );
    assert_eq!(
        store
            .take_lease_from(g, "c", 60_000, "a", ea)
            .await
            .unwrap(),
        None
    );
    let l = store.lease(g).await.unwrap().unwrap();
    assert_eq!((l.owner.as_deref(), l.epoch), (Some("b"), eb));
    let b = Fence {
        node: "b".into(),
        epoch: eb,
    };
    store
        .append_move(Some(&b), g, &mv(1, "e7e5"), Some([300_000, 299_000]), None)
        .await
        .unwrap();
    assert_eq!(store.moves(g).await.unwrap().len(), 2);
}
both_dbs!(
    a_gone_session_lease_is_taken_at_its_epoch_only,
    gone_session_takeover
);
