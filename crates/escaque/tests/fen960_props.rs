//! Property tests of the Chess960 FEN reading (X-FEN and Shredder-FEN
//! castling fields): it never panics, it accepts exactly the positions
//! shakmaty accepts in `CastlingMode::Chess960`, and what both accept has the
//! same legal moves and is written back the same way.

use std::collections::BTreeSet;

use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode as SMode, Chess, EnPassantMode, Position as _};

use escaque::coord::to_uci_in;
use escaque::{CastlingMode, CastlingStyle, Position};

/// A FEN with the kings and some rooks on their first rows, pawns in front
/// (so that no rook looks down an open file), and a castling field made of
/// `letters`.
fn fen_of(wk: usize, bk: usize, wr: u8, br: u8, letters: &str, black: bool) -> String {
    let row = |king: usize, rooks: u8, upper: bool| -> String {
        let mut s = String::new();
        let mut empty = 0;
        for f in 0..8 {
            let c = if f == king {
                Some('k')
            } else if rooks & (1 << f) != 0 {
                Some('r')
            } else {
                None
            };
            match c {
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(if upper { c.to_ascii_uppercase() } else { c });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        s
    };
    let field = if letters.is_empty() { "-" } else { letters };
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} {} {field} - 0 1",
        row(bk, br, false),
        row(wk, wr, true),
        if black { 'b' } else { 'w' }
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn chess960_fen_agrees_with_shakmaty(
        wk in 0usize..8,
        bk in 0usize..8,
        wr in any::<u8>(),
        br in any::<u8>(),
        letters in proptest::collection::vec(
            proptest::sample::select("KQkqABCDEFGHabcdefgh".chars().collect::<Vec<_>>()),
            0..5,
        ),
        black in any::<bool>(),
    ) {
        // Each letter once (a letter twice is a syntax error, tested apart).
        let mut seen = Vec::new();
        for c in letters {
            if !seen.contains(&c) {
                seen.push(c);
            }
        }
        let letters: String = seen.into_iter().collect();
        let fen = fen_of(wk, bk, wr & !(1 << wk), br & !(1 << bk), &letters, black);
        let ours = Position::from_fen_with(&fen, CastlingMode::Chess960);
        let theirs: Result<Chess, _> = Fen::from_ascii(fen.as_bytes())
            .map_err(|_| ())
            .and_then(|f| f.into_position(SMode::Chess960).map_err(|_| ()));
        // The playable reading never fails on these (kings and rooks only).
        let (playable, _) = Position::from_fen_playable_with(&fen, CastlingMode::Chess960)
            .expect("playable");
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{}: {:?}", fen, ours);
        if let (Ok(ours), Ok(theirs)) = (ours, theirs) {
            prop_assert_eq!(playable, ours);
            prop_assert_eq!(
                ours.to_fen(),
                Fen::from_position(&theirs, EnPassantMode::Always).to_string()
            );
            let mine: BTreeSet<String> = ours
                .legal_moves()
                .iter()
                .map(|&m| to_uci_in(&ours, m, true))
                .collect();
            let their: BTreeSet<String> = theirs
                .legal_moves()
                .iter()
                .map(|m| m.to_uci(SMode::Chess960).to_string())
                .collect();
            prop_assert_eq!(mine, their, "{}", fen);
            for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
                let text = ours.to_fen_with(style);
                prop_assert_eq!(
                    Position::from_fen_with(&text, CastlingMode::Chess960),
                    Ok(ours)
                );
            }
        }
    }

    #[test]
    fn a_letter_twice_is_refused_with_its_column(placement in 0u16..960) {
        let start = Position::chess960(placement).unwrap().to_fen();
        let board = start.split(' ').next().unwrap();
        let fen = format!("{board} w KK - 0 1");
        let expected = Err(escaque::FenError::BadCastling { text: "KK".into(), column: board.len() + 4 });
        prop_assert_eq!(Position::from_fen_with(&fen, CastlingMode::Chess960), expected);
    }

    #[test]
    fn arbitrary_castling_fields_never_panic(field in "\\PC{0,8}", placement in 0u16..960) {
        let start = Position::chess960(placement).unwrap().to_fen();
        let board = start.split(' ').next().unwrap();
        let fen = format!("{board} w {field} - 0 1");
        for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
            let _ = Position::from_fen_with(&fen, mode);
            if let Ok((pos, _)) = Position::from_fen_playable_with(&fen, mode) {
                // Whatever is accepted can be played from and written back.
                let _ = pos.legal_moves();
                for style in [CastlingStyle::XFen, CastlingStyle::Shredder] {
                    let again =
                        Position::from_fen_playable_with(&pos.to_fen_with(style), CastlingMode::Chess960)
                            .map(|(p, _)| p);
                    prop_assert_eq!(again, Ok(pos), "{}", fen);
                }
            }
        }
    }
}

#[test]
fn two_rooks_named_for_one_side() {
    use escaque::FenWarning;
    // Strict: an error; playable: the outermost rook keeps the right, as
    // python-chess keeps it, and the inner one's letter is reported.
    let fen = "4k3/8/8/8/8/8/8/R3K1RR w GH - 0 1";
    assert_eq!(
        Position::from_fen_with(fen, CastlingMode::Chess960),
        Err(escaque::FenError::CastlingContradicted { right: 'G' })
    );
    let (pos, warnings) = Position::from_fen_playable_with(fen, CastlingMode::Chess960).unwrap();
    assert_eq!(pos.castling_fen(CastlingStyle::Shredder), "H");
    assert_eq!(warnings, vec![FenWarning::CastlingDropped { right: 'G' }]);
    let (pos, _) = Position::from_fen_playable_with(
        "4k3/8/8/8/8/8/8/R3K1RR w HG - 0 1",
        CastlingMode::Chess960,
    )
    .unwrap();
    assert_eq!(pos.castling_fen(CastlingStyle::Shredder), "H");
    // Two names for one right are the right once.
    let pos = Position::from_fen_with("4k3/8/8/8/8/8/8/R3K2R w KHQ - 0 1", CastlingMode::Chess960)
        .unwrap();
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
}
