//! UCI in Chess960 (`UCI_Chess960`) and the null move `0000`, driven
//! in-process.

use escaque::coord::to_uci_in;
use escaque::read::{read_move, Notation};
use escaque::{CastlingMode, Position};

use crate::common::Session;

fn bestmove(out: &str) -> &str {
    out.lines()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("no bestmove in {out}"))
}

#[test]
fn the_option_is_advertised_and_type_checked() {
    let mut s = Session::new();
    s.send("uci");
    let out = s.take();
    assert!(
        out.contains("option name UCI_Chess960 type check default false"),
        "{out}"
    );
    s.send("setoption name UCI_Chess960 value maybe");
    assert!(s
        .take()
        .contains("invalid value 'maybe' for option UCI_Chess960"));
    s.send("setoption name UCI_Chess960 value true");
    assert_eq!(s.take(), "");
}

#[test]
fn castling_is_written_and_read_as_king_takes_rook_when_on() {
    // The king already on g1 castles short with the h1 rook: the king stays,
    // the rook goes to f1. Only the king-takes-rook notation can say it.
    let fen = "4k3/8/8/8/8/8/3PP3/6KR w H - 0 1";
    let pos = Position::from_fen_with(fen, CastlingMode::Chess960).unwrap();
    let castle = pos
        .legal_moves()
        .into_iter()
        .find(|m| m.is_castle())
        .expect("short castling is legal");
    assert_eq!(to_uci_in(&pos, castle, true), "g1h1");
    let mut s = Session::new();
    s.send("setoption name UCI_Chess960 value true");
    s.send(&format!("position fen {fen}"));
    let out = s.go("depth 2 searchmoves g1h1");
    assert_eq!(bestmove(&out), "g1h1", "{out}");
    // The engine reads its own notation back: castled, the rook is on f1.
    s.send(&format!("position fen {fen} moves g1h1"));
    s.send("d");
    let out = s.take();
    assert!(
        out.contains("info string fen 4k3/8/8/8/8/8/3PP3/5RK1 b - - 1 1"),
        "{out}"
    );
}

#[test]
fn standard_castling_keeps_the_king_s_move_when_off() {
    let mut s = Session::new();
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    s.send(&format!("position fen {fen}"));
    let out = s.go("depth 2 searchmoves e1g1");
    assert_eq!(bestmove(&out), "e1g1", "{out}");
    s.send("setoption name UCI_Chess960 value true");
    s.send(&format!("position fen {fen}"));
    let out = s.go("depth 2 searchmoves e1h1");
    assert_eq!(bestmove(&out), "e1h1", "{out}");
    // The info lines' principal variation uses the same notation.
    assert!(
        out.lines()
            .filter(|l| l.starts_with("info depth"))
            .all(|l| l.contains(" pv e1h1")),
        "{out}"
    );
}

#[test]
fn shredder_and_x_fen_positions_are_set_when_on() {
    let mut s = Session::new();
    s.send("setoption name UCI_Chess960 value true");
    for fen in [
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
    ] {
        s.send(&format!("position fen {fen}"));
        s.send("d");
        let out = s.take();
        assert!(
            out.contains(
                "info string fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
            ),
            "{out}"
        );
    }
    // Without the option a Shredder-FEN is not standard FEN.
    let mut s = Session::new();
    s.send("position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert!(s.take().contains("invalid FEN"));
}

#[test]
fn chess960_self_play_through_uci_gives_only_legal_moves() {
    let mut castled = 0;
    for n in [0u16, 105, 333, 518, 700, 959] {
        let start = Position::chess960(n).unwrap();
        let fen = start.to_fen();
        let mut s = Session::new();
        s.send("setoption name UCI_Chess960 value true");
        s.send("ucinewgame");
        let mut pos = start;
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..40 {
            if pos.legal_moves().is_empty() {
                break;
            }
            s.send(&format!("position fen {fen} moves {}", moves.join(" ")));
            let out = s.go("depth 3");
            let text = bestmove(&out).to_string();
            let m = read_move(&pos, &text, Notation::Uci)
                .unwrap_or_else(|e| panic!("start {n}: {text} illegal: {e:?}"));
            assert_eq!(to_uci_in(&pos, m, true), text, "start {n}");
            if m.is_castle() {
                castled += 1;
                // King takes its own rook.
                let to = escaque::Square::parse(&text[2..4]).unwrap();
                assert_eq!(pos.role_at(to), Some(escaque::Role::Rook), "{text}");
            }
            pos.play(m).unwrap();
            moves.push(text);
        }
    }
    assert!(castled > 0, "no game castled");
}

#[test]
fn a_null_move_in_the_list_is_a_pass() {
    let mut s = Session::new();
    s.send("position startpos moves e2e4 0000");
    s.send("d");
    let out = s.take();
    assert!(
        out.contains("info string fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"),
        "{out}"
    );
    let out = s.go("depth 2");
    let pos =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2").unwrap();
    assert!(
        read_move(&pos, bestmove(&out), Notation::Uci).is_ok(),
        "{out}"
    );

    // In check a pass is impossible: no position, and `go` answers (none).
    s.send("position startpos moves e2e4 f7f6 d1h5 0000");
    let out = s.take();
    assert!(
        out.contains("null move 0000 is not possible while in check"),
        "{out}"
    );
    let out = s.go("depth 2");
    assert_eq!(bestmove(&out), "(none)");
}
