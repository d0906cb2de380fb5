use super::*;
use crate::read::MoveError;
use crate::san::SanLang;
use crate::Move;

fn read_all(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    PgnReader::new(text.as_bytes()).collect()
}

#[test]
fn reads_tags_moves_comments_variations_nags_clock() {
    let text = "\u{feff}[Event \"Test \\\"1\\\"\"]\n[White \"A\"]\n\n\
            % escape line\n\
            1.e4 {[%clk 0:03:25] buen} e5 $1 2. Nf3!? (2. f4 exf4 (2... d5) 3. Nf3) 2...Nc6 ; fin\n\
            3.Bb5 a6 1-0\n";
    let games = read_all(text);
    assert_eq!(games.len(), 1);
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tag("Event"), Some("Test \"1\""));
    assert_eq!(g.mainline().count(), 6);
    assert_eq!(g.moves[0].clock_ms, Some(205_000));
    assert_eq!(g.moves[0].comments, vec!["buen".to_string()]);
    assert_eq!(g.moves[1].nags, vec![1]);
    assert_eq!(g.moves[2].nags, vec![5]);
    assert_eq!(g.moves[2].variations.len(), 1);
    assert_eq!(g.moves[2].variations[0].len(), 3);
    assert_eq!(g.moves[2].variations[0][1].variations[0].len(), 1);
    assert_eq!(g.moves[3].comments, vec!["fin".to_string()]);
    assert_eq!(g.result, Some(Some(crate::GameResult::WhiteWins)));
}

#[test]
fn recovers_after_a_bad_game() {
    let text = "[Event \"1\"]\n\n1. e4 e5 *\n\n[Event \"2\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n\n\
                    [Event \"3\"]\n\n1. d4 1/2-1/2\n";
    let games = read_all(text);
    assert_eq!(games.len(), 3);
    assert!(games[0].is_ok());
    let e = games[1].as_ref().unwrap_err();
    assert_eq!((e.game, e.line, e.column), (2, 7, 13));
    assert!(matches!(
        e.kind,
        PgnErrorKind::San(MoveError::Illegal { .. })
    ));
    assert_eq!(games[2].as_ref().unwrap().tag("Event"), Some("3"));
}

#[test]
fn partial_game_is_kept() {
    let mut r = PgnReader::new("1. e4 e5 2. Qxf7 *".as_bytes());
    let (e, partial) = r.next_game_partial().unwrap().unwrap_err();
    assert_eq!(e.column, 13);
    assert_eq!(partial.mainline().count(), 2);
}

#[test]
fn spanish_movetext_and_half_results() {
    let text = "1. e4 e5 2. Cf3 Cc6 3. Ab5 a6 4. Axc6 dxc6 5. 0-0 f6 ½-½";
    let g = read_all(text).remove(0).unwrap();
    assert_eq!(g.mainline().count(), 10);
    assert_eq!(g.result, Some(Some(crate::GameResult::Draw)));
    let out = write_game_string(&g, PgnStyle::export());
    assert!(out.contains("4. Bxc6 dxc6 5. O-O f6 1/2-1/2"), "{out}");
    let es = write_game_string(&g, PgnStyle::spanish());
    assert!(es.contains("4. Axc6 dxc6 5. 0-0 f6"), "{es}");
}

#[test]
fn writes_seven_tag_roster_first_and_short_lines() {
    let mut text = String::from("[ECO \"C60\"]\n[White \"W\"]\n\n");
    for _ in 0..30 {
        text.push_str("{a rather long comment that goes on} ");
    }
    text.push_str("1. e4 *");
    let g = read_all(&text).remove(0).unwrap();
    let out = write_game_string(&g, PgnStyle::export());
    assert!(out.starts_with("[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"));
    assert!(out.contains("[Result \"*\"]\n[ECO \"C60\"]\n"));
    assert!(out.lines().all(|l| l.chars().count() <= MAX_LINE), "{out}");
    let again = read_all(&out).remove(0).unwrap();
    assert_eq!(again.moves, g.moves);
}

#[test]
fn errors_on_structure() {
    let kinds: Vec<PgnErrorKind> = [
        "1. e4 ( 1. d4",
        "( e4 ) 1. e4",
        "1. e4 ) e5",
        "1. e4 { open",
        "[Event \"x]\n1. e4",
        "[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4",
        "1. e4 e5 2. Qh5 Nc6 3. Qxf7+ --",
        "1. e4 zz9",
    ]
    .iter()
    .map(|t| read_all(t).remove(0).unwrap_err().kind)
    .collect();
    assert_eq!(kinds[0], PgnErrorKind::UnclosedVariation);
    assert_eq!(kinds[1], PgnErrorKind::VariationWithoutMove);
    assert_eq!(kinds[2], PgnErrorKind::UnmatchedClose);
    assert_eq!(kinds[3], PgnErrorKind::UnclosedComment);
    assert_eq!(kinds[4], PgnErrorKind::BadTag);
    assert!(matches!(kinds[5], PgnErrorKind::BadFen(_)));
    assert_eq!(kinds[6], PgnErrorKind::NullMoveInCheck);
    assert!(matches!(
        kinds[7],
        PgnErrorKind::San(MoveError::Unknown { .. })
    ));
}

#[test]
fn r_is_resolved_by_the_rest_of_the_game() {
    let fen = "[FEN \"4k3/8/8/8/8/8/8/4K2R w - - 0 1\"]\n\n";
    let en = read_all(&format!("{fen}1. Rf1 Kd7 2. Kd2 *"))
        .remove(0)
        .unwrap();
    assert_eq!(en.moves[0].mv.to_string(), "h1f1");
    let es = read_all(&format!("{fen}1. Rf1 Rd7 2. Th2 *"))
        .remove(0)
        .unwrap();
    assert_eq!(es.moves[0].mv.to_string(), "e1f1");
    // Nothing in the game tells: the error names both readings.
    let e = read_all(&format!("{fen}1. Rf1 *")).remove(0).unwrap_err();
    assert!(matches!(
        e.kind,
        PgnErrorKind::San(MoveError::AmbiguousLanguage { .. })
    ));
    // Forced notation: no question.
    let opts = ReaderOptions {
        notation: SanLang::Es,
    };
    let g = PgnReader::with_options(format!("{fen}1. Rf1 *").as_bytes(), opts)
        .next_game()
        .unwrap()
        .unwrap();
    assert_eq!(g.moves[0].mv.to_string(), "e1f1");
}

#[test]
fn en_passant_suffix_with_marks() {
    // `a.p.` is its own token after the capture, with or without marks.
    for text in [
        "2. exd6 a.p.! Rd7",
        "2. exd6 a.p.!+ Rd7",
        "2. exd6 e.p. $1 Rd7",
    ] {
        let text = format!("[FEN \"4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1\"]\n\n1... d5 {text} *");
        let g = read_all(&text).remove(0).unwrap();
        assert_eq!(g.moves.len(), 3, "{text}");
        assert!(g.moves[1].mv.is_en_passant());
        assert_eq!(g.moves[1].nags, vec![1], "{text}");
    }
}

#[test]
fn clock_round_trip() {
    assert_eq!(
        extract_clock("[%clk 1:02:03.5] x"),
        Some((3_723_500, "x".into()))
    );
    assert_eq!(
        crate::clock::format_hms(std::time::Duration::from_millis(3_723_500)),
        "1:02:03.5"
    );
    assert_eq!(
        crate::clock::format_hms(std::time::Duration::from_secs(205)),
        "0:03:25"
    );
    assert_eq!(extract_clock("[%clk 0:61:00]"), None);
}

#[test]
fn null_moves_are_kept_and_written_as_pgn_does() {
    // The forms python-chess reads: `--`, ChessBase's `Z0`, `0000`, `@@@@`.
    for null in ["--", "Z0", "0000", "@@@@"] {
        let text = format!("1. e4 {null} 2. d4 e5 *");
        let g = read_all(&text).remove(0).unwrap();
        let moves: Vec<Move> = g.mainline().collect();
        assert_eq!(moves.len(), 4, "{null}");
        assert!(moves[1].is_null(), "{null}");
        // Black passed: White moved twice, then Black.
        assert_eq!(
            g.final_position().to_fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR w KQkq e6 0 3",
            "{null}"
        );
        let out = write_game_string(&g, PgnStyle::export());
        assert!(out.contains("1. e4 -- 2. d4 e5 *"), "{out}");
        let again = read_all(&out).remove(0).unwrap();
        assert_eq!(again.moves, g.moves);
    }
}
