//! Chess960 online: games and seeks from a numbered or random starting
//! position, castling by the king onto its rook or onto its castling square
//! (both sides, both forms), the moves stored with castling as the king
//! taking its rook, the game reloaded after a restart, the engine castling,
//! and the PGN read back by escaque and by python-chess.

use escaque::pgn::PgnReader;
use escaque::{CastlingMode, CastlingStyle, Position};
use escaque_server::Database;
use serde_json::{json, Value};

use crate::common::*;

/// Position 291, BQNRKRNB: the king on e1 between its rooks on d1 and f1.
/// Castling short: king to g1, the rook stays on f1 (king onto rook `e1f1`,
/// two squares `e1g1`); long: king to c1, the rook stays on d1 (`e1d1`,
/// `e1c1`). The knights on c1 and g1 must go first.
const N291: u16 = 291;

fn placement(fen: &Value) -> &str {
    fen.as_str().unwrap().split(' ').next().unwrap()
}

fn dests<'a>(st: &'a Value, from: &str) -> Vec<&'a str> {
    st["legal"][from]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn has_uci(st: &Value, uci: &str) -> bool {
    st["legal_uci"]
        .as_array()
        .unwrap()
        .iter()
        .any(|u| u.as_str() == Some(uci))
}

async fn stored_moves(s: &escaque_server::Running, game: &str) -> Vec<String> {
    s.hub
        .store
        .moves(game)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.uci)
        .collect()
}

/// White castles short onto its rook, Black long with the king's two-square
/// move; then the server restarts and the game goes on from the stored
/// moves.
async fn castling_and_restart(db: Db) {
    let Some(url) = own_database_url(db, "c960").await else {
        return;
    };
    let database = Database::Url(url);
    let d = database.clone();
    let s = start_with(db, |c| c.database = d).await.unwrap();
    let (mut w, mut b) = friend_game(
        s.addr,
        json!({"variant": "chess960", "position": N291, "time_control": "10+5"}),
    )
    .await;
    let st = w.state().await;
    assert_eq!(st["variant"], "chess960");
    assert_eq!(st["chess960_position"], N291);
    let start = Position::chess960(N291).unwrap();
    assert_eq!(st["start_fen"], start.to_fen_with(CastlingStyle::Shredder));
    assert_eq!(
        placement(&st["fen"]),
        "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB"
    );
    play_line(&mut w, &mut b, &["g1h3", "c8b6"]).await;

    // White may castle short both ways; long is still blocked by the knight.
    let st = w.state().await;
    let mut e1 = dests(&st, "e1");
    e1.sort();
    assert_eq!(e1, ["f1", "g1"], "{}", st["legal"]);
    assert!(has_uci(&st, "e1f1") && has_uci(&st, "e1g1"));
    assert!(!has_uci(&st, "e1d1"));
    let a = w.play("e1f1").await;
    assert_eq!(a["t"], "ack", "{a}");
    let ev = b
        .wait_for(|v| v["event"] == "move" && v["data"]["ply"] == 2)
        .await;
    assert_eq!(ev["data"]["san"], "O-O", "{ev}");
    assert_eq!(ev["data"]["san_es"], "0-0");
    assert_eq!(ev["data"]["uci"], "e1f1");

    // Black castles long with the king's two-square move.
    let st = b.state().await;
    let mut e8 = dests(&st, "e8");
    e8.sort();
    assert_eq!(e8, ["c8", "d8"], "{}", st["legal"]);
    let a = b.play("e8c8").await;
    assert_eq!(a["t"], "ack", "{a}");
    let st = w.state().await;
    assert_eq!(
        placement(&st["fen"]),
        "bqkr1rnb/pppppppp/1n6/8/8/7N/PPPPPPPP/BQNR1RKB"
    );
    assert_eq!(st["moves"][3]["san"], "O-O-O");
    // Castling is stored as the king taking its rook, whichever form came in.
    let game = w.game.clone();
    assert_eq!(
        stored_moves(&s, &game).await,
        ["g1h3", "c8b6", "e1f1", "e8d8"]
    );

    // The server stops; a new one on the same database reloads the game
    // from the stored moves, and play goes on.
    s.abort();
    let seats = [
        json!({"game": game, "seat": "white", "secret": w.secret}),
        json!({"game": game, "seat": "black", "secret": b.secret}),
    ];
    drop((w, b));
    let s2 = start_with(db, |c| c.database = database).await.unwrap();
    let mut w = Player::connect(s2.addr, &seats[0]).await;
    let mut b = Player::connect(s2.addr, &seats[1]).await;
    let st2 = w.state().await;
    assert_eq!(st2["variant"], "chess960");
    assert_eq!(st2["chess960_position"], N291);
    assert_eq!(st2["fen"], st["fen"]);
    assert_eq!(st2["moves"][2]["uci"], "e1f1");
    assert_eq!(st2["moves"][3]["uci"], "e8d8");
    assert_eq!(st2["moves"][3]["san"], "O-O-O");
    assert_eq!(st2["status"], "playing");
    play_line(&mut w, &mut b, &["h3f4", "b6c4"]).await;
    assert_eq!(
        stored_moves(&s2, &game).await,
        ["g1h3", "c8b6", "e1f1", "e8d8", "h3f4", "b6c4"]
    );
}
both_dbs!(castling_onto_the_rook_and_restart, castling_and_restart);

/// The other two ways: White castles long with the king's two-square move,
/// Black short onto its rook.
async fn castling_other_ways(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut c = challenge(
        s.addr,
        json!({"variant": "960", "position": N291, "color": "white"}),
    )
    .await;
    let mut w = Player::connect(s.addr, &c.created).await;
    let mut b = Player::connect(s.addr, &c.joined).await;
    play_line(&mut w, &mut b, &["c1b3", "g8h6"]).await;
    let st = w.state().await;
    let mut e1 = dests(&st, "e1");
    e1.sort();
    assert_eq!(e1, ["c1", "d1"], "{}", st["legal"]);
    play_line(&mut w, &mut b, &["e1c1", "e8f8"]).await;
    let st = w.state().await;
    assert_eq!(
        placement(&st["fen"]),
        "bqnr1rkb/pppppppp/7n/8/8/1N6/PPPPPPPP/BQKR1RNB"
    );
    assert_eq!(st["moves"][2]["san"], "O-O-O");
    assert_eq!(st["moves"][3]["san"], "O-O");
    assert_eq!(
        stored_moves(&s, &w.game).await,
        ["c1b3", "g8h6", "e1d1", "e8f8"]
    );
    // The list of games in progress, my games and the replay say Chess960;
    // the replay's positions follow the castlings.
    let live = c.creator.req("GET", "/api/games/live", None).await.json();
    let listed = live["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == c.game.as_str())
        .unwrap_or_else(|| panic!("not listed: {live}"));
    assert_eq!(listed["variant"], "chess960");
    assert_eq!(listed["chess960_position"], N291);
    let mine = c.joiner.req("GET", "/api/me/games", None).await.json();
    assert_eq!(mine["games"][0]["variant"], "chess960");
    let replay = c
        .creator
        .req("GET", &format!("/web/api/games/{}/positions", c.game), None)
        .await
        .json();
    assert_eq!(replay["variant"], "chess960");
    assert_eq!(replay["moves"][3]["uci"], "e8f8");
    assert_eq!(replay["moves"][3]["san"], "O-O");
    assert_eq!(replay["moves"][3]["fen"], st["fen"]);
    // SAN and the Spanish zeros are read too (a fresh game).
    let (mut w, mut b) = friend_game(s.addr, json!({"variant": "chess960", "position": 3})).await;
    play_line(&mut w, &mut b, &["0-0", "O-O"]).await;
    assert_eq!(stored_moves(&s, &w.game).await, ["f1g1", "f8g8"]);
}
both_dbs!(castling_the_other_ways, castling_other_ways);

/// A king that can both step onto its castling square and castle onto it:
/// the two squares mean the step; castling is the king onto its rook.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_king_step_to_the_castling_square_is_a_step() {
    let Some(s) = start(Db::Sqlite).await else {
        return;
    };
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
    let (mut w, _b) = friend_game(s.addr, json!({"variant": "chess960", "fen": fen})).await;
    let st = w.state().await;
    assert_eq!(st["variant"], "chess960");
    assert_eq!(st["chess960_position"], Value::Null);
    let mut b1 = dests(&st, "b1");
    b1.sort();
    // a1 (long castling onto the rook), c1 (a step), h1 (short castling
    // onto the rook) and g1 (short castling's square, no step goes there).
    assert_eq!(b1, ["a1", "c1", "g1", "h1"], "{}", st["legal"]);
    let a = w.play("b1c1").await;
    assert_eq!(a["t"], "ack", "{a}");
    let st = w.state().await;
    assert_eq!(
        placement(&st["fen"]),
        "rk5r/pppppppp/8/8/8/8/PPPPPPPP/R1K4R"
    );
    assert_eq!(st["moves"][0]["san"], "Kc1");
    // Castling long puts the king on c1 too: stored as the king taking its
    // rook, it replays as castling, never as the step (the replay of the
    // stored moves shows the rook on d1).
    let (mut w, _b) = friend_game(s.addr, json!({"variant": "chess960", "fen": fen})).await;
    let a = w.play("b1a1").await;
    assert_eq!(a["t"], "ack", "{a}");
    assert_eq!(stored_moves(&s, &w.game).await, ["b1a1"]);
    let replay = Browser::new(s.addr)
        .req("GET", &format!("/web/api/games/{}/positions", w.game), None)
        .await
        .json();
    assert_eq!(
        placement(&replay["moves"][0]["fen"]),
        "rk5r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R"
    );
    assert_eq!(replay["moves"][0]["san"], "O-O-O");
}

/// The engine plays Chess960: from a position where castling mates, it
/// castles, and the move is stored as the king taking its rook.
async fn engine_castles(db: Db) {
    let Some(s) = start(db).await else { return };
    let mut br = Browser::new(s.addr);
    let r = br
        .post(
            "/api/games",
            json!({"opponent": "engine", "level": 10, "color": "black", "variant": "chess960",
                   "fen": "4rkr1/4p1p1/8/8/8/8/8/6KR w H - 0 1"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let mut me = Player::connect(s.addr, &r.json()).await;
    let st = loop {
        let st = me.state().await;
        if st["status"] == "over" {
            break st;
        }
        me.wait_for(|v| v["t"] == "event").await;
    };
    assert_eq!(st["result"], "1-0", "{st}");
    assert_eq!(st["termination"], "checkmate");
    assert_eq!(stored_moves(&s, &me.game).await, ["g1h1"]);
    // From a numbered position the engine plays its moves as in any game.
    let r = br
        .post(
            "/api/games",
            json!({"opponent": "engine", "level": 3, "color": "black", "variant": "chess960",
                   "position": 0}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let mut me = Player::connect(s.addr, &r.json()).await;
    let mut st = me.state().await;
    me.backlog.clear();
    // Until it is Black's turn again after ply 12: the position then waits
    // for this player, so the PGN read below is of the same position (the
    // engine, to move, could otherwise play between the two reads).
    while (st["plies"].as_u64().unwrap() < 12 || st["turn"] != "black") && st["status"] == "playing"
    {
        if st["turn"] == "black" {
            let mv = st["legal_uci"][0].as_str().unwrap().to_string();
            let a = me.play(&mv).await;
            assert_eq!(a["t"], "ack", "{a}");
        }
        me.wait_for(|v| v["t"] == "event" && v["event"] == "move")
            .await;
        st = me.state().await;
    }
    assert_eq!(st["chess960_position"], 0);
    let pgn = br
        .req("GET", &format!("/api/games/{}/pgn", me.game), None)
        .await;
    let read = PgnReader::new(pgn.body.as_bytes())
        .next_game()
        .unwrap()
        .unwrap();
    assert_eq!(read.final_position().to_fen(), st["fen"].as_str().unwrap());
}
both_dbs!(engine_plays_chess960, engine_castles);

/// A random position, a seek with a numbered one, and what is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_positions_seeks_and_refusals() {
    let Some(s) = start(Db::Sqlite).await else {
        return;
    };
    let mut br = Browser::new(s.addr);
    let r = br
        .post(
            "/api/games",
            json!({"opponent": "friend", "variant": "chess960"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let game = r.json()["game"].as_str().unwrap().to_string();
    let st = br
        .req("GET", &format!("/api/games/{game}"), None)
        .await
        .json();
    let n = st["chess960_position"].as_u64().expect("a number") as u16;
    assert!(n < 960);
    assert_eq!(
        st["start_fen"],
        Position::chess960(n)
            .unwrap()
            .to_fen_with(CastlingStyle::Shredder)
    );
    // A standard game says so.
    let r = br.post("/api/games", json!({"opponent": "friend"})).await;
    let game = r.json()["game"].as_str().unwrap().to_string();
    let st = br
        .req("GET", &format!("/api/games/{game}"), None)
        .await
        .json();
    assert_eq!(st["variant"], "standard");
    assert_eq!(st["chess960_position"], Value::Null);

    // Seeks show their variant and position.
    let mut poster = Browser::new(s.addr);
    let r = poster
        .post(
            "/api/seeks",
            json!({"variant": "chess960", "position": 7, "time_control": "5+3"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let seek = r.json()["seek"].as_str().unwrap().to_string();
    let list = br.req("GET", "/api/seeks", None).await.json();
    let shown = &list["seeks"][0];
    assert_eq!(shown["variant"], "chess960");
    assert_eq!(shown["position"], 7);
    let r = br
        .post(&format!("/api/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let game = r.json()["game"].as_str().unwrap().to_string();
    let st = br
        .req("GET", &format!("/api/games/{game}"), None)
        .await
        .json();
    assert_eq!(st["variant"], "chess960");
    assert_eq!(st["chess960_position"], 7);
    // A random seek shows no number and draws one when accepted.
    let r = poster
        .post(
            "/api/seeks",
            json!({"variant": "chess960", "position": "random"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let list = br.req("GET", "/api/seeks", None).await.json();
    assert_eq!(list["seeks"][0]["variant"], "chess960");
    assert_eq!(list["seeks"][0]["position"], Value::Null);
    let r = poster
        .post("/api/seeks", json!({"time_control": "5+3"}))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let list = br.req("GET", "/api/seeks", None).await.json();
    assert_eq!(list["seeks"][0]["variant"], "standard");

    // Refused, with the reason.
    for (body, code) in [
        (
            json!({"opponent": "friend", "variant": "crazyhouse"}),
            "bad_variant",
        ),
        (
            json!({"opponent": "friend", "variant": "chess960", "position": 960}),
            "bad_position",
        ),
        (
            json!({"opponent": "friend", "variant": "chess960", "position": "x"}),
            "bad_position",
        ),
        (json!({"opponent": "friend", "position": 5}), "bad_position"),
        (
            json!({"opponent": "friend", "variant": "chess960", "odds": "knight"}),
            "bad_variant",
        ),
        (
            json!({"opponent": "friend", "variant": "chess960", "position": 5,
                   "fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1"}),
            "bad_variant",
        ),
    ] {
        let r = br.post("/api/games", body.clone()).await;
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert_eq!(r.json()["code"], code, "{body}: {}", r.body);
    }
    for (body, code) in [
        (json!({"variant": "atomic"}), "bad_variant"),
        (
            json!({"variant": "chess960", "position": 1000}),
            "bad_position",
        ),
        (
            json!({"variant": "chess960", "odds": "rook"}),
            "bad_variant",
        ),
    ] {
        let r = br.post("/api/seeks", body.clone()).await;
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert_eq!(r.json()["code"], code, "{body}: {}", r.body);
    }
}

/// The PGN of a Chess960 game says so (`Variant`, `SetUp`, `FEN`) and is
/// read back by escaque and by python-chess (needs python3 with
/// python-chess: `scripts/python-chess.sh`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pgn_reads_back_in_escaque_and_python_chess() {
    let Some(s) = start(Db::Sqlite).await else {
        return;
    };
    let (mut w, mut b) =
        friend_game(s.addr, json!({"variant": "chess960", "position": N291})).await;
    play_line(&mut w, &mut b, &["g1h3", "c8b6", "e1f1", "e8d8", "h3f4"]).await;
    let fen = w.state().await["fen"].as_str().unwrap().to_string();
    let mut br = Browser::new(s.addr);
    let pgn = br
        .req("GET", &format!("/api/games/{}/pgn", w.game), None)
        .await
        .body;
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(pgn.contains("[FEN \""), "{pgn}");
    assert!(pgn.contains("2. O-O O-O-O 3. Nf4"), "{pgn}");
    let read = PgnReader::new(pgn.as_bytes()).next_game().unwrap().unwrap();
    assert_eq!(read.final_position().to_fen(), fen);
    let start = Position::from_fen_with(
        &Position::chess960(N291)
            .unwrap()
            .to_fen_with(CastlingStyle::Shredder),
        CastlingMode::Chess960,
    )
    .unwrap();
    assert_eq!(start.chess960_number(), Some(N291));

    let script = "import sys, chess.pgn\n\
        g = chess.pgn.read_game(sys.stdin)\n\
        assert not g.errors, g.errors\n\
        b = g.end().board()\n\
        print(b.chess960, b.board_fen(), ' '.join(m.uci() for m in g.mainline_moves()))\n";
    let stdout = crate::python_chess::run_python(&["-c", script], &pgn);
    assert_eq!(
        stdout.trim(),
        format!(
            "True {} g1h3 c8b6 e1f1 e8d8 h3f4",
            fen.split(' ').next().unwrap()
        )
    );
}

/// A rematch of a Chess960 game is played from the same position, colours
/// swapped, and castles as Chess960.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_keeps_the_position() {
    let Some(s) = start(Db::Sqlite).await else {
        return;
    };
    let (mut w, mut b) = friend_game(s.addr, json!({"variant": "chess960", "position": 3})).await;
    play_line(&mut w, &mut b, &["f1g1"]).await;
    assert_eq!(w.act(json!({"t": "resign"})).await["t"], "ack");
    b.event("end").await;
    assert_eq!(b.act(json!({"t": "rematch"})).await["t"], "ack");
    w.event("rematch_offer").await;
    w.ws.send(&json!({"t": "rematch"})).await.unwrap();
    let seat_b = b.wait_for(|v| v["t"] == "rematch_seat").await;
    let seat_w = w.wait_for(|v| v["t"] == "rematch_seat").await;
    let mut nw = Player::connect(s.addr, &seat_b).await;
    let mut nb = Player::connect(s.addr, &seat_w).await;
    let st = nw.state().await;
    assert_eq!(st["variant"], "chess960");
    assert_eq!(st["chess960_position"], 3);
    // Position 3, BQNNRKRB: the king on f1 castles short onto g1, where
    // its rook stands (the king onto its rook and its castling square are
    // one square).
    assert_eq!(dests(&st, "f1"), ["g1"], "{}", st["legal"]);
    play_line(&mut nw, &mut nb, &["f1g1", "f8g8"]).await;
    let st = nw.state().await;
    assert_eq!(
        placement(&st["fen"]),
        "bqnnrrkb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRRKB"
    );
    assert_eq!(stored_moves(&s, &nw.game).await, ["f1g1", "f8g8"]);
}
