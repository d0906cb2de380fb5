//! The owner of a game paused (SIGSTOP) past its lease (issue 28): another
//! process takes the game over and a client reconnecting there plays on;
//! the old owner resumed (SIGCONT) finds its write refused (fenced), closes
//! its clients' sockets with 1012, and no ply is stored twice.

use std::time::Duration;

use serde_json::json;
use tungstenite::Message;

use crate::cluster_kill::{
    connect, connect_any, moves_of, new_game, play, query_i64, until, until_within, Gone, LEASE_MS,
};
use crate::common::cluster::{fresh_postgres, Node};

#[test]
fn a_paused_owner_is_fenced_when_it_resumes() {
    let Some(db) = fresh_postgres("cstop") else {
        return;
    };
    let a = Node::start(&db, "a", LEASE_MS, &[]);
    let b = Node::start(&db, "b", LEASE_MS, &[]);
    let g = new_game(a.addr, "10+0");
    let (mut w_a, _) = connect(a.addr, &g.id, Some(&g.secrets[0])).expect("white on a");
    let (mut b_a, _) = connect(a.addr, &g.id, Some(&g.secrets[1])).expect("black on a");
    let line = ["d2d4", "d7d5", "c2c4", "e7e6"];
    for (i, mv) in line.iter().enumerate() {
        let p = if i % 2 == 0 { &mut w_a } else { &mut b_a };
        assert!(play(p, mv, i as u64).expect("answered"), "{mv}");
    }
    a.signal("STOP");
    // b takes the game once a's lease has run out: White reconnects there
    // and plays on, and so does Black.
    let within = Duration::from_secs(15);
    let (mut w_b, st, _) =
        connect_any(&[b.addr], &g.id, Some(&g.secrets[0]), within).expect("white on b");
    assert_eq!(moves_of(&st), line);
    let (mut b_b, _) = connect(b.addr, &g.id, Some(&g.secrets[1])).expect("black on b");
    assert!(play(&mut w_b, "b1c3", 4).expect("answered"));
    assert!(play(&mut b_b, "g8f6", 5).expect("answered"));
    // White's old socket, on the paused a, sends another move for ply 4;
    // a reads it when it resumes.
    let stale = json!({"t": "move", "move": "g1f3", "id": 4});
    w_a.send(Message::Text(stale.to_string().into()))
        .expect("sent to a");
    // Black's old socket resigns there: a write no key would refuse.
    let resign = json!({"t": "resign", "id": 40});
    b_a.send(Message::Text(resign.to_string().into()))
        .expect("sent to a");
    a.signal("CONT");
    // Not acknowledged: a's write is refused (or a sees first that its
    // lease is gone); either way its sockets close with 1012.
    let end = until_within(&mut w_a, Duration::from_secs(10), |v| v["t"] == "ack");
    assert!(
        matches!(end, Err(Gone::Closed(1012))),
        "White's socket on a: {end:?}"
    );
    let end = until_within(&mut b_a, Duration::from_secs(10), |v| v["t"] == "ack");
    assert!(
        matches!(end, Err(Gone::Closed(1012))),
        "Black's socket on a: {end:?}"
    );
    // No ply twice, nothing of a's: ply 4 is b's move.
    let count = |sql: &str| query_i64(&db, &sql.replace("$G", &g.id));
    assert_eq!(count("SELECT COUNT(*) FROM moves WHERE game_id = '$G'"), 6);
    assert_eq!(
        count("SELECT COUNT(DISTINCT ply) FROM moves WHERE game_id = '$G'"),
        6
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM moves WHERE game_id = '$G' AND ply = 4 AND uci = 'b1c3'"),
        1
    );
    assert_eq!(
        count(
            "SELECT COUNT(*) FROM games WHERE id = '$G' AND owner_node = 'b' \
             AND status = 'playing' AND result IS NULL"
        ),
        1
    );
    // a no longer serves the game as its owner; b goes on.
    assert!(play(&mut w_b, "c1g5", 6).expect("answered"));
    let st = until(&mut b_b, |v| v["t"] == "event" && v["plies"] == json!(7)).expect("event");
    assert_eq!(st["status"], "playing");
}
