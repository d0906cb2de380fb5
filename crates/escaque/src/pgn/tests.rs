use super::*;
use crate::san::MoveError;
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
fn comment_holding_a_closing_brace_is_written_whole() {
    // TCEC's first season (Arena-style GUI, tests/data/pgn-corpus,
    // tcecgames__TCEC_Season_1_-_Division_3.pgn.gz): after the result, `;`
    // comments, one opening a brace and the next closing it. The `}` was
    // written as `)` inside a brace comment: the text changed.
    let text = "[Result \"1/2-1/2\"]\n\n1.e4 { ev=0.00, d=1 } e5 2.Nf3 Nc6\n1/2-1/2 \n\
                ; { Game Nr. 1 : Scorpio 2.6 draws against Jonny 4.0 by GUI adjudication \n\
                ; GameDuration = 03:53:35, Finalposition \
                r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 }\n";
    let g = read_all(text).remove(0).unwrap();
    let last = &g.moves[3].comments;
    assert_eq!(last.len(), 2, "{last:?}");
    assert!(last[1].ends_with("KQkq - 2 3 }"), "{last:?}");
    for style in [PgnStyle::export(), PgnStyle::spanish()] {
        let out = write_game_string(&g, style);
        assert!(out.contains("\n;GameDuration = 03:53:35"), "{out}");
        let notation = if style == PgnStyle::spanish() {
            SanLang::Es
        } else {
            SanLang::En
        };
        let again = PgnReader::with_options(out.as_bytes(), ReaderOptions { notation })
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(again.moves, g.moves, "{out}");
        assert_eq!(again.result, g.result);
    }
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

// ---------------------------------------------------------------- issue 30:
// PGN as the world writes it. Each test is the smallest piece of the kind of
// file that showed the fault.

#[test]
fn comments_after_the_result_are_no_game() {
    // Arena: a `;` comment on how the game ended, after the result.
    let text = "[Event \"Arena\"]\n[Result \"1-0\"]\n\n\
                1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\
                ; { Game Nr. 1 : A wins by mate\n\n\
                [Event \"Arena\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\
                { Game Nr. 2 : B wins by mate }\n";
    let games = read_all(text);
    assert_eq!(games.len(), 2);
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.moves[6].comments, vec!["{ Game Nr. 1 : A wins by mate"]);
    let g2 = games[1].as_ref().unwrap();
    assert_eq!(g2.moves[3].comments, vec!["Game Nr. 2 : B wins by mate"]);
    // Before a game without tags they go to that game, not to a game of their own.
    let games = read_all("1. e4 e5 1-0 {next:}\n\n1. d4 d5 *\n");
    assert_eq!(games.len(), 2);
    let g = games[1].as_ref().unwrap();
    assert_eq!(g.moves[0].comments_before, vec!["next:"]);
    assert!(games[0].as_ref().unwrap().moves[1].comments.is_empty());
}

#[test]
fn result_tag_that_disagrees_is_kept_and_reported() {
    let text = "[White \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 *\n";
    let g = read_all(text).remove(0).unwrap();
    assert_eq!(g.result, Some(None));
    assert_eq!(g.tag("Result"), Some("1-0"));
    assert_eq!(
        g.warnings
            .iter()
            .map(|w| (w.line, w.column, w.kind.clone()))
            .collect::<Vec<_>>(),
        vec![(
            4,
            21,
            PgnWarningKind::ResultMismatch {
                tag: "1-0".into(),
                movetext: "*".into()
            }
        )]
    );
    let out = write_game_string(&g, PgnStyle::export());
    assert!(out.contains("[Result \"1-0\"]"), "{out}");
    assert!(out.ends_with("2. Qh5 Nc6 *\n\n"), "{out}");
    // Agreeing, or an unknown tag text: nothing to say.
    for tag in ["*", "?", ""] {
        let text = format!("[Result \"{tag}\"]\n\n1. e4 *\n");
        assert!(
            read_all(&text).remove(0).unwrap().warnings.is_empty(),
            "{tag}"
        );
    }
}

#[test]
fn a_game_without_moves_keeps_its_result_tag_over_a_bare_star() {
    // A round file published before the games were entered: tags, no moves,
    // `*`. The tag is what the writer meant (python-chess reads 1-0 too).
    for (tag, want) in [
        ("1-0", crate::GameResult::WhiteWins),
        ("0-1", crate::GameResult::BlackWins),
        ("1/2-1/2", crate::GameResult::Draw),
    ] {
        let text = format!("[White \"A\"]\n[Black \"B\"]\n[Result \"{tag}\"]\n\n*\n");
        let g = read_all(&text).remove(0).unwrap();
        assert!(g.moves.is_empty());
        assert_eq!(g.result, Some(Some(want)), "{tag}");
        assert_eq!(g.recorded_result(), Some(want));
        assert_eq!(
            g.warnings
                .iter()
                .map(|w| (w.line, w.column, w.kind.clone()))
                .collect::<Vec<_>>(),
            vec![(
                5,
                1,
                PgnWarningKind::ResultFromTag {
                    tag: tag.to_string()
                }
            )]
        );
        let out = write_game_string(&g, PgnStyle::export());
        assert!(out.ends_with(&format!("\n\n{tag}\n\n")), "{out}");
    }
    // With moves, `*` still stands beside the tag (both kept, as above); and
    // a game without moves whose tag is `*` or unknown stays unfinished.
    let g = read_all("[Result \"1-0\"]\n\n1. e4 *\n").remove(0).unwrap();
    assert_eq!(g.result, Some(None));
    for tag in ["*", "?"] {
        let g = read_all(&format!("[Result \"{tag}\"]\n\n*\n"))
            .remove(0)
            .unwrap();
        assert_eq!(g.result, Some(None), "{tag}");
        assert!(g.warnings.is_empty(), "{tag}");
    }
}

#[test]
fn variants_escaque_does_not_play_are_refused_by_their_tag() {
    for (variant, movetext) in [
        ("Atomic", "1. e4 d5 2. exd5 *"),
        ("Crazyhouse", "1. e4 d5 2. exd5 Qxd5 3. P@h3 *"),
        ("Antichess", "1. e3 b5 2. Bxb5 *"),
        ("Horde", "1. e4 *"),
        ("Three-check", "1. e4 *"),
    ] {
        let text = format!("[Event \"lichess\"]\n[Variant \"{variant}\"]\n\n{movetext}\n\n[Event \"next\"]\n\n1. d4 *\n");
        let games = read_all(&text);
        assert_eq!(games.len(), 2, "{variant}");
        let e = games[0].as_ref().unwrap_err();
        assert_eq!(e.kind, PgnErrorKind::UnsupportedVariant(variant.into()));
        assert_eq!((e.line, e.column), (2, 1));
        let es = crate::Localized::message(e, crate::Lang::Es);
        assert!(
            es.contains(variant) && es.contains("escaque no juega"),
            "{es}"
        );
        let en = crate::Localized::message(e, crate::Lang::En);
        assert!(en.contains("does not play"), "{en}");
        assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("next"));
    }
    // Standard chess under the names programs give it, and Chess960.
    for variant in ["Standard", "From Position", "chess", "Regular", ""] {
        let text = format!("[Variant \"{variant}\"]\n\n1. e4 e5 *\n");
        assert!(read_all(&text).remove(0).is_ok(), "{variant}");
    }
    let text = "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 *\n";
    assert!(read_all(text).remove(0).is_ok());
}

#[test]
fn glued_tokens_are_split() {
    let g = read_all("1. a4 e5 2. a5*").remove(0).unwrap();
    assert_eq!((g.moves.len(), g.result), (3, Some(None)));
    let g = read_all("1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7#1-0")
        .remove(0)
        .unwrap();
    assert!(g.final_position().is_checkmate());
    assert_eq!(g.result, Some(Some(crate::GameResult::WhiteWins)));
    let g = read_all("1. f3 e5 2. g4 Qh4#0-1").remove(0).unwrap();
    assert_eq!(g.result, Some(Some(crate::GameResult::BlackWins)));
    let g = read_all("1. e4 e5 2. Nf3 Nc6 3.-- d6 4. d4 1/2-1/2")
        .remove(0)
        .unwrap();
    assert!(g.moves[4].mv.is_null());
    assert_eq!(g.moves.len(), 7);
    // Castling is not taken for a glued result.
    let g = read_all("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 *")
        .remove(0)
        .unwrap();
    assert!(g.moves[6].mv.is_castle());
}

#[test]
fn informant_symbols_are_read_as_nags_with_a_warning() {
    let text = "1. e4 e5 2. Nf3 += Nc6 N 3. Bb5 +- a6 ∞ 4. Ba4 RR = 1-0";
    let g = read_all(text).remove(0).unwrap();
    assert_eq!(g.moves.len(), 7);
    assert_eq!(g.moves[2].nags, vec![14]);
    assert_eq!(g.moves[3].nags, vec![146]);
    assert_eq!(g.moves[4].nags, vec![18]);
    assert_eq!(g.moves[5].nags, vec![13]);
    assert_eq!(g.moves[6].nags, vec![145, 10]);
    assert_eq!(g.warnings.len(), 6);
    assert_eq!(
        g.warnings[0].kind,
        PgnWarningKind::InformantSymbol {
            text: "+=".into(),
            nag: 14
        }
    );
    assert_eq!((g.warnings[0].line, g.warnings[0].column), (1, 17));
    let es = crate::Localized::message(&g.warnings[0], crate::Lang::Es);
    assert!(es.contains("Informant") && es.contains("$14"), "{es}");
}

#[test]
fn scid_diagram_symbol_is_read_as_its_nag_with_a_warning() {
    // Scid's engine annotation exported with symbols for NAGs (a file of
    // tests/data/pgn-corpus, ghotrix__games.pgn): `D` is Scid's diagram,
    // $201, beside `+=` and `+/-`.
    let text = "[Event \"PNN Chess Open\"]\n[Result \"1-0\"]\n\n\
                1.e4 b6 2.c4 Bb7 3.Nc3 D g6 += {Move out of book e6 80%}\n\
                4.d4 D e6 += D {Stockfish 6: 16:+0.75} 1-0\n";
    let g = read_all(text).remove(0).unwrap();
    assert_eq!(g.moves.len(), 8);
    assert_eq!(g.moves[4].nags, vec![201]);
    assert_eq!(g.moves[5].nags, vec![14]);
    assert_eq!(g.moves[6].nags, vec![201]);
    assert_eq!(g.moves[7].nags, vec![14, 201]);
    assert_eq!(
        g.warnings[0].kind,
        PgnWarningKind::InformantSymbol {
            text: "D".into(),
            nag: 201
        }
    );
}

#[test]
fn tag_ending_in_a_backslash_is_read_with_a_warning() {
    // fastchess's parser test (tests/data/pgn-corpus,
    // fastchess__pgns-backslash_header.pgn): the backslash before the closing
    // quote would escape it, and the game was lost to a bad tag.
    let text = "[Event \"Tournament \\\"]\n[Site \"Madrid ESP\"]\n[Result \"1-0\"]\n\n\
                1.d4 Nf6 2.c4 g6 1-0\n";
    let g = read_all(text).remove(0).unwrap();
    assert_eq!(g.tag("Event"), Some("Tournament \\"));
    assert_eq!(g.tag("Site"), Some("Madrid ESP"));
    assert_eq!(g.moves.len(), 4);
    assert_eq!(g.warnings.len(), 1);
    assert_eq!(
        g.warnings[0].kind,
        PgnWarningKind::TrailingBackslash {
            name: "Event".into()
        }
    );
    assert_eq!((g.warnings[0].line, g.warnings[0].column), (1, 1));
    // Written out, the backslash is escaped, and read back the same.
    let out = write_game_string(&g, PgnStyle::export());
    assert!(out.contains("[Event \"Tournament \\\\\"]"), "{out}");
    let again = read_all(&out).remove(0).unwrap();
    assert_eq!(again.tag("Event"), Some("Tournament \\"));
    assert!(again.warnings.is_empty());
    // An escaped quote inside a value that closes is still a quote, and a
    // line that never closes its value is still a bad tag.
    let g = read_all("[Event \"a \\\" b\"]\n\n1. e4 *\n")
        .remove(0)
        .unwrap();
    assert_eq!(g.tag("Event"), Some("a \" b"));
    assert!(g.warnings.is_empty());
    assert!(read_all("[Event \"a \\\" b]\n\n1. e4 *\n")[0].is_err());
}

#[test]
fn tag_with_unescaped_quotes_is_read_with_a_warning() {
    let text =
        "[White \"\"Socrates Expert\"\"]\n[Site \"Somewhere \" else\"] [Black \"B\"]\n\n1. e4 *\n";
    let g = read_all(text).remove(0).unwrap();
    assert_eq!(g.tag("White"), Some("\"Socrates Expert\""));
    assert_eq!(g.tag("Site"), Some("Somewhere \" else"));
    assert_eq!(g.tag("Black"), Some("B"));
    assert_eq!(g.warnings.len(), 2);
    assert_eq!(
        g.warnings[0].kind,
        PgnWarningKind::UnescapedQuotes {
            name: "White".into()
        }
    );
    // Written back escaped, read back the same without a warning.
    let out = write_game_string(&g, PgnStyle::export());
    assert!(out.contains("[White \"\\\"Socrates Expert\\\"\"]"), "{out}");
    let again = read_all(&out).remove(0).unwrap();
    assert_eq!(again.tag("White"), g.tag("White"));
    assert!(again.warnings.is_empty());
}

#[test]
fn recovery_after_a_result_inside_a_variation_makes_no_extra_game() {
    let text = "[Event \"1\"]\n\n1. e4 e5 (1... c5 2. Nf3 1-0) 2. Nf3 (2. Bc4 Nc6 (2... Nf6 0-1) 3. Qh5) 2... Nc6 1-0\n\n\
                [Event \"2\"]\n\n1. d4 *\n";
    let games = read_all(text);
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(
        games[0].as_ref().unwrap_err().kind,
        PgnErrorKind::UnclosedVariation
    );
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("2"));
    // An illegal move before a variation that holds a result.
    let text = "1. e4 e5 2. Ke3 (2. Nf3 Nc6 1-0) 2... Nc6 3. Nf3 *\n\n1. d4 *\n";
    let games = read_all(text);
    assert_eq!(games.len(), 2, "{games:?}");
    assert!(games[0].is_err());
    assert_eq!(games[1].as_ref().unwrap().moves.len(), 1);
}

#[test]
fn nag_before_the_first_move_of_a_variation_is_kept() {
    let text = "[FEN \"6k1/5ppp/8/8/8/8/1p3PPP/6K1 w - - 0 38\"]\n\n38. g3 b1=Q+ ($142 38... h6 39. Kg2) 39. Kg2 *";
    let g = read_all(text).remove(0).unwrap();
    assert_eq!(g.moves[1].variations[0][0].nags_before, vec![142]);
    let out = write_game_string(&g, PgnStyle::export());
    assert!(
        out.contains("38. g3 b1=Q+ ($142 38... h6 39. Kg2) 39. Kg2 *"),
        "{out}"
    );
}

#[test]
fn clock_and_eval_keep_their_order() {
    let text = "1. e4 { [%eval 0.17] [%clk 0:03:00] } e5 { [%clk 0:02:58] [%eval 0.2] } \
                2. Nf3 { [%eval 0.1] [%clk 0:02:57] good } *";
    let g = read_all(text).remove(0).unwrap();
    assert_eq!(g.moves[0].clock_ms, Some(180_000));
    let out = write_game_string(&g, PgnStyle::export()).replace('\n', " ");
    assert!(
        out.contains("1. e4 {[%eval 0.17] [%clk 0:03:00]} 1... e5 {[%clk 0:02:58] [%eval 0.2]}"),
        "{out}"
    );
    assert!(
        out.contains("2. Nf3 {[%eval 0.1] [%clk 0:02:57] good}"),
        "{out}"
    );
    assert_eq!(read_all(&out).remove(0).unwrap().moves, g.moves);
}

#[test]
fn the_language_ambiguity_names_the_squares() {
    let e = read_all("[FEN \"4k3/8/8/8/8/8/8/4K2R w - - 0 1\"]\n\n1. Rf1 *")
        .remove(0)
        .unwrap_err();
    let es = crate::Localized::message(&e.kind, crate::Lang::Es);
    assert!(es.contains("\"Rf1\" es ambigua: puede ser Re1-f1"), "{es}");
    assert!(es.contains("o Th1-f1"), "{es}");
    let en = crate::Localized::message(&e.kind, crate::Lang::En);
    assert!(
        en.contains("it may be Ke1-f1") && en.contains("or Rh1-f1"),
        "{en}"
    );
}

#[test]
fn dots_apart_from_the_move_number_are_read() {
    // chess.js's test file: `1. ... Ba5` from a FEN with Black to move; the
    // dots stand apart from the number (and some programs write `…`).
    let fen = "r1bqk1nr/pppp1ppp/2n5/4p3/1bB1P3/2P2N2/P2P1PPP/RNBQK2R b KQkq - 0 1";
    let text = format!(
        "[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. ... Ba5 2. O-O d6\n3. d4 *\n\n\
         [SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. \u{2026} Ba5 2. O-O d6 3. d4 *\n"
    );
    for g in read_all(&text) {
        let g = g.unwrap();
        assert_eq!(g.mainline().count(), 4);
        assert!(g.warnings.is_empty(), "{:?}", g.warnings);
    }
}

#[test]
fn text_that_is_not_utf8_is_read_as_windows_1252() {
    // Scid's test file: Latin-1 names (`Kràmnìk`), and ChessBase's `’` (0x92).
    let mut text =
        b"[White \"Kr\xe0mn\xeck, Vl\xe3\xdadimir\"]\n[Black \"Top\xe4lov\"]\n\n".to_vec();
    text.extend_from_slice(
        b"1. d4 {Kramnik\x92s move} ; fin \xe9\n1-0\n\n[White \"B\"]\n\n1. e4 *\n",
    );
    let games: Vec<_> = PgnReader::new(text.as_slice()).collect();
    let g = games[0].as_ref().unwrap();
    assert_eq!(g.tag("White"), Some("Kràmnìk, VlãÚdimir"));
    assert_eq!(g.tag("Black"), Some("Topälov"));
    assert_eq!(g.moves[0].comments, vec!["Kramnik’s move", "fin é"]);
    assert_eq!(g.warnings.len(), 1, "{:?}", g.warnings);
    assert_eq!(g.warnings[0].kind, PgnWarningKind::NotUtf8);
    assert_eq!((g.warnings[0].line, g.warnings[0].column), (1, 1));
    assert!(games[1].as_ref().unwrap().warnings.is_empty());
}

#[test]
fn tag_sections_without_moves_are_games_of_their_own() {
    // lichess's broadcast export without moves (scalachess's FWWRC.pgn): each
    // game is its tag section, then a blank line, then the next one.
    let text = "[Event \"Rapid\"]\n[Round \"1.1\"]\n[White \"A\"]\n[Result \"0-1\"]\n\n\
                [Event \"Rapid\"]\n[Round \"1.2\"]\n[White \"B\"]\n[Result \"1-0\"]\n\n\
                [Event \"Rapid\"]\n[Round \"1.3\"]\n[White \"C\"]\n[Result \"1/2-1/2\"]\n";
    let games: Vec<PgnGame> = read_all(text).into_iter().map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 3);
    for (g, (round, result)) in
        games
            .iter()
            .zip([("1.1", "0-1"), ("1.2", "1-0"), ("1.3", "1/2-1/2")])
    {
        assert_eq!(g.tags.len(), 4);
        assert_eq!(g.tag("Round"), Some(round));
        assert_eq!(g.result_text(), result);
        assert!(g.moves.is_empty());
    }
    // A tag section split by a blank line, no name repeated: one game.
    let one = read_all("[Event \"E\"]\n\n[White \"W\"]\n\n1. e4 *\n");
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].as_ref().unwrap().tags.len(), 2);
}

#[test]
fn a_comment_word_starting_with_percent_never_starts_a_line() {
    // Wrapped at the start of a line it would be an escape line (PGN 6),
    // skipped by readers, and the comment would never close.
    for n in 0..80 {
        let text = format!("1. e4 {{{} %ciento fin}} e5 *\n", "x".repeat(n));
        let g = read_all(&text).remove(0).unwrap();
        let out = write_game_string(&g, PgnStyle::export());
        assert!(!out.lines().any(|l| l.starts_with('%')), "{out}");
        let back = read_all(&out).remove(0).unwrap();
        assert_eq!(back.moves[0].comments, g.moves[0].comments, "{out}");
    }
}
