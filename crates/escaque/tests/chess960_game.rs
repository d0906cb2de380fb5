//! Chess960 games: the Game, its PGN (`[Variant "Chess960"]` with a FEN tag)
//! written and read back, and PGN as other programs write it.

use std::sync::Arc;

use escaque::pgn::{write_game_string, PgnReader, PgnStyle};
use escaque::{CastlingMode, FakeTime, Game, Lang, Position, SanLang};

#[test]
fn a_game_castles_and_its_pgn_says_chess960() {
    // Position 3, BQNNRKRB: the king on f1 castles short onto g1, where its
    // rook stands; the rook goes to f1.
    let mut game = Game::chess960(3).unwrap();
    game.play_san("0-0", SanLang::Es).unwrap();
    game.play_san("O-O", SanLang::En).unwrap();
    assert_eq!(
        game.position().to_fen(),
        "bqnnrrkb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRRKB w - - 2 2"
    );
    assert_eq!(game.move_san(0, Lang::Es).as_deref(), Some("0-0"));
    assert_eq!(game.move_san(1, Lang::En).as_deref(), Some("O-O"));
    game.play_san("Ce3", SanLang::Es).unwrap();

    let pgn = write_game_string(&game.to_pgn_game(), PgnStyle::export());
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(
        pgn.contains("[FEN \"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. O-O O-O 2. Ne3"), "{pgn}");

    // Read back: the same moves from the same position.
    let read = PgnReader::new(pgn.as_bytes()).next_game().unwrap().unwrap();
    assert_eq!(read.final_position(), *game.position());
    let resumed = Game::resume_from_pgn(&pgn, Arc::new(FakeTime::new())).unwrap();
    assert!(resumed.is_chess960());
    assert_eq!(resumed.chess960_number(), Some(3));
    assert_eq!(resumed.position(), game.position());
}

#[test]
fn standard_chess_from_position_518_is_still_chess960_by_choice() {
    let game = Game::chess960(518).unwrap();
    assert!(game.is_chess960());
    assert_eq!(*game.position(), Position::new());
    let pgn = write_game_string(&game.to_pgn_game(), PgnStyle::export());
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    // A standard game says nothing of it.
    let pgn = write_game_string(&Game::new().to_pgn_game(), PgnStyle::export());
    assert!(!pgn.contains("Variant"), "{pgn}");
    assert!(!pgn.contains("FEN"), "{pgn}");
    // A position whose castling standard chess cannot have makes the game
    // Chess960 by itself.
    let pos =
        Position::from_fen_with("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", CastlingMode::Chess960).unwrap();
    assert!(Game::from_position(pos).is_chess960());
}

#[test]
fn pgn_from_other_programs() {
    // As lichess exports a Chess960 game (X-FEN), as some programs write it
    // (Shredder-FEN, the variant spelled otherwise), and with an inner rook.
    let games = [
        "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1\"]\n\n1. O-O O-O 2. Ne3 *\n",
        "[Variant \"Fischerandom\"]\n[FEN \"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1\"]\n\n1. O-O O-O 2. Ne3 *\n",
        "[Variant \"chess 960\"]\n[FEN \"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1\"]\n\n1. 0-0 0-0 2. Ne3 *\n",
    ];
    let mut finals = Vec::new();
    for text in games {
        let g = PgnReader::new(text.as_bytes())
            .next_game()
            .unwrap()
            .unwrap_or_else(|e| panic!("{text}: {e:?}"));
        assert_eq!(g.mainline().count(), 3, "{text}");
        finals.push(g.final_position());
    }
    assert!(finals.windows(2).all(|w| w[0] == w[1]));
    // python-chess 1.11.2 reads the first to this position.
    assert_eq!(
        finals[0].to_fen(),
        "bqnnrrkb/pppppppp/8/8/8/4N3/PPPPPPPP/BQN1RRKB b - - 3 2"
    );

    // Without the Variant tag a Shredder-FEN is not a standard FEN.
    let text = "[FEN \"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1\"]\n\n1. O-O *\n";
    assert!(PgnReader::new(text.as_bytes())
        .next_game()
        .unwrap()
        .is_err());
}
