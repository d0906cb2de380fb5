//! The annotated PGN: written, then read back by escaque's PGN reader and by
//! python-chess's (`tests/python/read_annotated.py`; python3 with
//! python-chess, which `scripts/python-chess.sh` installs), and a property:
//! annotating any game with any analysis never panics, always reads back,
//! and annotating twice changes nothing.

use std::sync::atomic::AtomicBool;

use escaque::pgn::{write_game_string, PgnGame, PgnReader, PgnStyle};
use escaque::read::{read_move, Notation};
use escaque::{Lang, Move, Position, SanLang};
use escaque_analysis::annotate::{annotate, annotated_pgn, eval_command, set_opening_tags};
use escaque_analysis::{
    analyse_game, EscaqueEvaluator, Eval, GameAnalysis, Judgement, PlyAnalysis, Settings,
    SideSummary,
};
use proptest::prelude::*;

use crate::python_chess::run_python;

/// The moves of `text` (SAN, either language) from the start.
fn moves(text: &str) -> Vec<Move> {
    let mut pos = Position::new();
    text.split_whitespace()
        .map(|s| {
            let m = read_move(&pos, s, Notation::Any(SanLang::Auto)).unwrap();
            pos.play(m).unwrap();
            m
        })
        .collect()
}

/// One ply of a hand-made analysis (`best` and `line` in coordinates).
fn ply(
    pos: &Position,
    i: usize,
    m: Move,
    eval: Option<Eval>,
    judgement: Option<Judgement>,
    line: &[&str],
) -> PlyAnalysis {
    let mut after = *pos;
    after.play(m).unwrap();
    let san = |p: &Position, m: Move, l: Lang| escaque::san::san(p, m, l);
    let mut p = *pos;
    let (mut line_san, mut line_san_es) = (Vec::new(), Vec::new());
    for t in line {
        let lm = read_move(&p, t, Notation::Uci).unwrap();
        line_san.push(san(&p, lm, Lang::En));
        line_san_es.push(san(&p, lm, Lang::Es));
        p.play(lm).unwrap();
    }
    PlyAnalysis {
        ply: i,
        uci: m.to_string(),
        san: san(pos, m, Lang::En),
        san_es: san(pos, m, Lang::Es),
        fen: after.to_fen(),
        eval,
        wc: 0.0,
        judgement,
        best: line.first().map(|s| s.to_string()),
        best_san: line_san.first().cloned(),
        best_san_es: line_san_es.first().cloned(),
        line: line.iter().map(|s| s.to_string()).collect(),
        line_san,
        line_san_es,
        accuracy: 100.0,
        loss_cp: 0,
    }
}

fn analysis(plies: Vec<PlyAnalysis>) -> GameAnalysis {
    GameAnalysis {
        engine: "escaque".into(),
        settings: Settings::default(),
        start_fen: Position::new().to_fen(),
        start_eval: Some(Eval::Cp(20)),
        start_wc: 0.0,
        plies,
        white: SideSummary::default(),
        black: SideSummary::default(),
    }
}

/// Scholar's mate (1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? 4. Qxf7#), with 2. Bc4 an
/// inaccuracy (better Nf3) and 3... Nf6 a blunder (better Qe7 4. Nf3).
fn scholars_mate() -> (Vec<Move>, GameAnalysis) {
    let ms = moves("e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
    let evals = [
        Some(Eval::Cp(30)),
        Some(Eval::Cp(25)),
        Some(Eval::Cp(-5)),
        Some(Eval::Cp(10)),
        Some(Eval::Cp(-40)),
        Some(Eval::Mate(1)),
        None,
    ];
    let mut pos = Position::new();
    let mut plies = Vec::new();
    for (i, &m) in ms.iter().enumerate() {
        let (j, line): (_, &[&str]) = match i {
            2 => (Some(Judgement::Inaccuracy), &["g1f3", "b8c6"]),
            5 => (Some(Judgement::Blunder), &["d8e7", "g1f3"]),
            _ => (None, &[]),
        };
        plies.push(ply(&pos, i, m, evals[i], j, line));
        pos.play(m).unwrap();
    }
    (ms, analysis(plies))
}

fn read_one(text: &str) -> PgnGame {
    let mut r = PgnReader::new(text.as_bytes());
    let g = r.next_game().expect("a game").expect("reads back");
    assert!(r.next_game().is_none());
    g
}

/// The `[%eval …]` of a comment, read back.
fn eval_in(comment: &str) -> Option<Eval> {
    let at = comment.find("[%eval ")? + 7;
    let v = &comment[at..at + comment[at..].find(']')?];
    Some(match v.strip_prefix('#') {
        Some(m) => Eval::Mate(m.parse().ok()?),
        None => Eval::Cp((v.parse::<f64>().ok()? * 100.0).round() as i32),
    })
}

#[test]
fn evals_nags_comments_and_lines_are_written_in_spanish_and_english() {
    let (ms, a) = scholars_mate();
    let tags = vec![
        ("White".to_string(), "Blancas".to_string()),
        ("Result".to_string(), "1-0".to_string()),
    ];
    let es = annotated_pgn(&Position::new(), &ms, &tags, &a, Lang::Es);
    assert!(es.contains("[Annotator \"escaque\"]"), "{es}");
    let flat = es.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("1. e4 {[%eval 0.30]} 1... e5 {[%eval 0.25]}"),
        "{flat}"
    );
    assert!(
        flat.contains("2. Bc4 $6 {[%eval -0.05] Imprecisión. Era mejor Cf3.} (2. Nf3 Nc6)"),
        "{flat}"
    );
    assert!(
        flat.contains(
            "3... Nf6 $4 {[%eval #1] Error grave. El mate ya es inevitable. Era mejor De7.} (3... Qe7 4. Nf3) 4. Qxf7# 1-0"
        ),
        "{flat}"
    );
    let en = annotated_pgn(&Position::new(), &ms, &tags, &a, Lang::En);
    let flat = en.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("{[%eval -0.05] Inaccuracy. Nf3 was best.}"),
        "{flat}"
    );
    assert!(
        flat.contains("{[%eval #1] Blunder. Checkmate is now unavoidable. Qe7 was best.}"),
        "{flat}"
    );

    // escaque's reader gives back the moves, the evaluations, NAGs and lines.
    let g = read_one(&es);
    assert_eq!(g.mainline().collect::<Vec<_>>(), ms);
    for (node, p) in g.moves.iter().zip(&a.plies) {
        assert_eq!(node.comments.first().and_then(|c| eval_in(c)), p.eval);
        let nags: Vec<u8> = p.judgement.map(|j| j.nag()).into_iter().collect();
        assert_eq!(node.nags, nags);
        let lines: Vec<Vec<String>> = node
            .variations
            .iter()
            .map(|v| v.iter().map(|n| n.mv.to_string()).collect())
            .collect();
        let expected: Vec<Vec<String>> = if p.line.is_empty() {
            vec![]
        } else {
            vec![p.line.clone()]
        };
        assert_eq!(lines, expected);
    }
}

#[test]
fn the_opening_is_tagged_in_the_language_asked_for() {
    // The Ruy Lopez's Morphy Defense (C70 after 3... a6), then 4. h3, which
    // names no deeper position: the deepest named one gives the tags.
    let ms = moves("e4 e5 Nf3 Nc6 Bb5 a6 h3 Nf6");
    let mut pos = Position::new();
    let mut plies = Vec::new();
    for (i, &m) in ms.iter().enumerate() {
        plies.push(ply(&pos, i, m, Some(Eval::Cp(20)), None, &[]));
        pos.play(m).unwrap();
    }
    let a = analysis(plies);
    let tags = vec![("Opening".to_string(), "Whatever the file said".to_string())];
    let es = read_one(&annotated_pgn(&Position::new(), &ms, &tags, &a, Lang::Es));
    assert_eq!(es.tag("ECO"), Some("C70"));
    assert_eq!(es.tag("Opening"), Some("Apertura española: defensa Morphy"));
    // Annotated again in English, the name is replaced, not repeated.
    let mut en = es.clone();
    annotate(&mut en, &a, Lang::En);
    let text = write_game_string(&en, PgnStyle::export());
    assert_eq!(text.matches("[Opening ").count(), 1, "{text}");
    assert!(
        text.contains("[Opening \"Ruy Lopez: Morphy Defense\"]"),
        "{text}"
    );
    assert!(text.contains("[ECO \"C70\"]"), "{text}");

    // A set-up position and a Chess960 game are not named (nor are their
    // own tags touched).
    let mut from_fen = PgnGame {
        start: {
            let mut p = Position::new();
            p.play(ms[0]).unwrap();
            p
        },
        ..PgnGame::default()
    };
    from_fen.moves = ms[1..]
        .iter()
        .map(|&m| escaque::pgn::Node::new(m))
        .collect();
    set_opening_tags(&mut from_fen, Lang::Es);
    assert_eq!(from_fen.tag("Opening"), None);
    let mut c960 = read_one(&format!(
        "[Variant \"Chess960\"]\n[Opening \"?\"]\n\n{} *\n",
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"
    ));
    set_opening_tags(&mut c960, Lang::Es);
    assert_eq!(c960.tag("Opening"), Some("?"));
    assert_eq!(c960.tag("ECO"), None);
}

/// Every game of `testing/analysis-reference/games.pgn` (200 games between
/// engines, from the standard start) of at least 10 plies gets an `Opening`
/// and an `ECO` tag: the deepest named position of its first 40 plies.
#[test]
fn every_reference_game_of_ten_plies_is_named() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testing/analysis-reference/games.pgn"
    ))
    .expect("testing/analysis-reference/games.pgn reads");
    let mut named = 0;
    for (i, g) in PgnReader::new(text.as_bytes()).enumerate() {
        let mut g = g.expect("the reference games read");
        if g.moves.len() < 10 || g.start != Position::new() {
            continue;
        }
        set_opening_tags(&mut g, Lang::Es);
        assert!(
            g.tag("Opening").is_some_and(|o| !o.is_empty()) && g.tag("ECO").is_some(),
            "game {} has no opening",
            i + 1
        );
        named += 1;
    }
    assert_eq!(named, 200);
}

#[test]
fn mate_notes_say_a_mate_became_unavoidable_or_was_lost() {
    use escaque::Color::{Black, White};
    use escaque_analysis::annotate::{judgement_comment_with, MateNote};
    let of = MateNote::of;
    assert_eq!(
        of(Some(Eval::Cp(-100)), Eval::Mate(-2), White),
        Some(MateNote::Unavoidable)
    );
    assert_eq!(
        of(Some(Eval::Cp(50)), Eval::Mate(3), Black),
        Some(MateNote::Unavoidable)
    );
    assert_eq!(
        of(Some(Eval::Mate(3)), Eval::Cp(500), White),
        Some(MateNote::Lost)
    );
    assert_eq!(
        of(Some(Eval::Mate(-3)), Eval::Cp(-800), Black),
        Some(MateNote::Lost)
    );
    // Already mated, a slower mate, no evaluation before: nothing to say.
    assert_eq!(of(Some(Eval::Mate(-5)), Eval::Mate(-2), White), None);
    assert_eq!(of(Some(Eval::Mate(3)), Eval::Mate(4), White), None);
    assert_eq!(of(None, Eval::Mate(-1), White), None);
    assert_eq!(
        judgement_comment_with(
            Judgement::Mistake,
            Some(MateNote::Lost),
            Some("Dh5"),
            Lang::Es
        ),
        "Error. Se perdió un mate forzado. Era mejor Dh5."
    );
    assert_eq!(
        judgement_comment_with(
            Judgement::Mistake,
            Some(MateNote::Lost),
            Some("Qh5"),
            Lang::En
        ),
        "Mistake. Lost forced checkmate sequence. Qh5 was best."
    );
}

#[test]
fn a_game_with_clocks_and_comments_keeps_them_and_its_evals_are_replaced() {
    let (_, a) = scholars_mate();
    let text =
        "[Event \"x\"]\n\n1. e4 {[%eval 9.99] [%clk 0:03:00]} e5 {[%clk 0:02:59] Simétrica} \
                2. Bc4 {Italiana} Nc6 3. Qh5 Nf6 ? {[%eval 0.1]} 4. Qxf7# 1-0\n";
    let mut g = read_one(text);
    annotate(&mut g, &a, Lang::Es);
    let out = write_game_string(&g, PgnStyle::export());
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("1. e4 {[%eval 0.30] [%clk 0:03:00]}"),
        "{flat}"
    );
    assert!(
        flat.contains("1... e5 {[%eval 0.25] [%clk 0:02:59] Simétrica}"),
        "{flat}"
    );
    assert!(
        flat.contains("2. Bc4 $6 {[%eval -0.05] Imprecisión. Era mejor Cf3. Italiana}"),
        "{flat}"
    );
    // The human `?` gives way to the mark; the old evaluation is gone.
    assert!(
        flat.contains(
            "3... Nf6 $4 {[%eval #1] Error grave. El mate ya es inevitable. Era mejor De7.}"
        ),
        "{flat}"
    );
    assert_eq!(out.matches("[%eval").count(), 6, "{out}");
    let back = read_one(&out);
    assert_eq!(back.moves[0].clock_ms, Some(180_000));
    assert_eq!(back.moves[1].clock_ms, Some(179_000));
    // Annotating again changes nothing.
    let mut again = back.clone();
    annotate(&mut again, &a, Lang::Es);
    assert_eq!(write_game_string(&again, PgnStyle::export()), out);
}

#[test]
fn an_analysis_of_another_game_annotates_only_the_moves_in_common() {
    let (_, a) = scholars_mate();
    let mut g = read_one("1. e4 e5 2. Nf3 Nc6 *\n");
    annotate(&mut g, &a, Lang::En);
    let out = write_game_string(&g, PgnStyle::export());
    assert_eq!(out.matches("[%eval").count(), 2, "{out}");
    // And an analysis with nothing in it touches no move.
    let mut g = read_one("1. e4 e5 *\n");
    annotate(&mut g, &analysis(vec![]), Lang::En);
    assert!(!write_game_string(&g, PgnStyle::export()).contains('{'));
}

#[test]
fn python_chess_reads_every_eval_nag_and_variation() {
    let (ms, a) = scholars_mate();
    let mut text = annotated_pgn(&Position::new(), &ms, &[], &a, Lang::Es);
    // A second game, from a position, with clocks.
    let mut g = read_one(
        "[FEN \"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3\"]\n\
         [SetUp \"1\"]\n\n3. Qh5 {[%clk 0:01:00]} Nf6 4. Qxf7# 1-0\n",
    );
    let start = g.start;
    let m1 = g.moves[0].mv;
    let mut after = start;
    after.play(m1).unwrap();
    let mut after2 = after;
    after2.play(g.moves[1].mv).unwrap();
    let mut b = analysis(vec![
        ply(&start, 0, m1, Some(Eval::Cp(-40)), None, &[]),
        ply(
            &after,
            1,
            g.moves[1].mv,
            Some(Eval::Mate(1)),
            Some(Judgement::Blunder),
            &["g7g6", "h5f3"],
        ),
        ply(&after2, 2, g.moves[2].mv, None, None, &[]),
    ]);
    b.start_fen = start.to_fen();
    annotate(&mut g, &b, Lang::En);
    text.push_str(&write_game_string(&g, PgnStyle::export()));

    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/python/read_annotated.py"
    );
    let stdout = run_python(&[script], &text);
    let games: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(games.as_array().unwrap().len(), 2);
    let seen = |g: usize| -> Vec<(String, serde_json::Value, Vec<u64>, usize)> {
        games[g]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["uci"].as_str().unwrap().to_string(),
                    m["eval"].clone(),
                    m["nags"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|n| n.as_u64().unwrap())
                        .collect(),
                    m["variations"].as_array().unwrap().len(),
                )
            })
            .collect()
    };
    let expected = |a: &GameAnalysis| -> Vec<(String, serde_json::Value, Vec<u64>, usize)> {
        a.plies
            .iter()
            .map(|p| {
                let eval = match p.eval {
                    None => serde_json::Value::Null,
                    Some(Eval::Cp(c)) => format!("{c:+}").into(),
                    Some(Eval::Mate(m)) => format!("#{m:+}").into(),
                };
                (
                    p.uci.clone(),
                    eval,
                    p.judgement
                        .map(|j| u64::from(j.nag()))
                        .into_iter()
                        .collect(),
                    usize::from(!p.line.is_empty()),
                )
            })
            .collect()
    };
    assert_eq!(seen(0), expected(&a));
    assert_eq!(seen(1), expected(&b));
    assert_eq!(
        games[0]["moves"][5]["variations"][0],
        serde_json::json!(["d8e7", "g1f3"])
    );
    let comment = games[1]["moves"][1]["comment"].as_str().unwrap();
    assert_eq!(
        comment.split_whitespace().collect::<Vec<_>>().join(" "),
        "[%eval #1] Blunder. Checkmate is now unavoidable. g6 was best."
    );
    assert_eq!(games[1]["headers"]["Annotator"], "escaque");
}

#[test]
fn a_real_analysis_annotates_the_blunder_of_scholars_mate() {
    let ms = moves("e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
    let mut ev = EscaqueEvaluator::new(Settings {
        depth: Some(6),
        nodes: None,
    });
    let a = analyse_game(
        &Position::new(),
        &ms,
        &mut ev,
        None,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    let text = annotated_pgn(&Position::new(), &ms, &[], &a, Lang::Es);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("3... Nf6 $4 {[%eval #1] Error grave. El mate ya es inevitable. Era mejor"),
        "{flat}"
    );
    let g = read_one(&text);
    assert_eq!(g.mainline().collect::<Vec<_>>(), ms);
    assert_eq!(g.moves[5].nags, [4]);
    assert_eq!(g.moves[5].variations.len(), 1);
    assert_eq!(g.moves[6].comments, Vec::<String>::new(), "no eval on mate");
}

fn arb_eval() -> impl Strategy<Value = Option<Eval>> {
    prop_oneof![
        Just(None),
        (-3000i32..3000).prop_map(|c| Some(Eval::Cp(c))),
        (1i32..40, any::<bool>()).prop_map(|(m, w)| Some(Eval::Mate(if w { m } else { -m }))),
    ]
}

fn arb_judgement() -> impl Strategy<Value = Option<Judgement>> {
    prop_oneof![
        Just(None),
        Just(Some(Judgement::Inaccuracy)),
        Just(Some(Judgement::Mistake)),
        Just(Some(Judgement::Blunder)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any game, any (even nonsensical) analysis: no panic, the PGN reads
    /// back with the same moves, each mark's NAG and each evaluation, and
    /// annotating it again changes nothing.
    #[test]
    fn annotating_never_panics_and_always_reads_back(
        picks in prop::collection::vec(any::<u16>(), 0..60),
        evals in prop::collection::vec(arb_eval(), 60),
        marks in prop::collection::vec(arb_judgement(), 60),
        lines in prop::collection::vec(prop::collection::vec(any::<u16>(), 0..8), 60),
        garbage in prop::collection::vec(prop::option::of("[a-h1-8qx%#\\]\\[{}]{0,6}"), 60),
        comment in prop::option::of("[ -~áñ]{0,30}"),
        lang_es in any::<bool>(),
    ) {
        let lang = if lang_es { Lang::Es } else { Lang::En };
        let mut pos = Position::new();
        let mut game = PgnGame { start: pos, ..PgnGame::default() };
        let mut plies = Vec::new();
        for (i, pick) in picks.iter().enumerate() {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[*pick as usize % legal.len()];
            // A line of random legal moves, sometimes with garbage in it.
            let mut p = pos;
            let mut line = Vec::new();
            for (k, l) in lines[i].iter().enumerate() {
                let lm = p.legal_moves();
                if lm.is_empty() {
                    break;
                }
                if k == 2 {
                    if let Some(g) = &garbage[i] {
                        line.push(g.clone());
                    }
                }
                let x = lm[*l as usize % lm.len()];
                line.push(x.to_string());
                p.play(x).unwrap();
            }
            let mut pa = PlyAnalysis {
                best: line.first().cloned(),
                best_san: None,
                best_san_es: None,
                line,
                ..ply(&pos, i, m, evals[i], marks[i], &[])
            };
            if i % 7 == 3 {
                pa.best = garbage[i].clone();
            }
            plies.push(pa);
            let mut node = escaque::pgn::Node::new(m);
            if let (Some(c), 0) = (&comment, i % 5) {
                node.comments.push(c.clone());
            }
            game.moves.push(node);
            pos.play(m).unwrap();
        }
        let a = analysis(plies);
        annotate(&mut game, &a, lang);
        let out = write_game_string(&game, PgnStyle::export());
        let back = read_one(&out);
        prop_assert_eq!(back.mainline().collect::<Vec<_>>(), game.mainline().collect::<Vec<_>>());
        for (node, p) in back.moves.iter().zip(&a.plies) {
            if let Some(e) = p.eval {
                prop_assert_eq!(node.comments.first().and_then(|c| eval_in(c)), Some(e));
                prop_assert!(node.comments[0].starts_with(&eval_command(e)));
            }
            match (p.judgement, p.eval) {
                (Some(j), Some(_)) => prop_assert_eq!(node.nags.first().copied(), Some(j.nag())),
                // A checkmating move (no evaluation) is never marked.
                _ => prop_assert!(node.nags.is_empty()),
            }
        }
        let mut again = back.clone();
        annotate(&mut again, &a, lang);
        prop_assert_eq!(write_game_string(&again, PgnStyle::export()), out);
    }
}
