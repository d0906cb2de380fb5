//! analyse_game with a scripted evaluator (exact expectations), with
//! escaque's engine on real games, the cache, stopping, errors, and the
//! analysis board's lines.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use escaque::san::{parse_san, SanLang};
use escaque::{Move, Position};
use escaque_analysis::analyse::{view_lines, LineView};
use escaque_analysis::{
    analyse_game, AnalysisError, Cache, EscaqueEvaluator, Eval, Evaluator, GameAnalysis, Judgement,
    Line, Progress, Settings, Verdict,
};

use Eval::{Cp, Mate};

/// Plays SAN moves (English) from `start`.
fn moves_of(start: &Position, sans: &str) -> Vec<Move> {
    let mut pos = *start;
    let mut out = Vec::new();
    for t in sans.split_whitespace() {
        if t.ends_with('.')
            || t.chars().next().is_some_and(|c| c.is_ascii_digit()) && t.contains('.')
        {
            continue;
        }
        let m = parse_san(&pos, t, SanLang::En).unwrap_or_else(|e| panic!("{t}: {e:?}"));
        pos.play(m).unwrap();
        out.push(m);
    }
    out
}

fn after(start: &Position, moves: &[Move]) -> Position {
    let mut p = *start;
    for &m in moves {
        p.play(m).unwrap();
    }
    p
}

fn san(pos: &Position, text: &str) -> Move {
    parse_san(pos, text, SanLang::En).unwrap()
}

/// An evaluator that answers from a table (by Zobrist key) and counts what
/// it is asked; unknown positions are level with the first legal move.
struct Scripted {
    table: HashMap<u64, (Eval, Vec<Move>)>,
    calls: usize,
    /// The keys of the positions asked, in order.
    asked: Vec<u64>,
}

impl Scripted {
    fn new() -> Scripted {
        Scripted {
            table: HashMap::new(),
            calls: 0,
            asked: Vec::new(),
        }
    }

    fn set(&mut self, pos: &Position, eval: Eval, line: &[&str]) {
        let mut p = *pos;
        let mut moves = Vec::new();
        for t in line {
            let m = san(&p, t);
            p.play(m).unwrap();
            moves.push(m);
        }
        self.table.insert(pos.zobrist(), (eval, moves));
    }
}

impl Evaluator for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }

    fn settings(&self) -> Settings {
        Settings {
            depth: Some(1),
            nodes: None,
        }
    }

    fn evaluate(
        &mut self,
        pos: &Position,
        _history: &[u64],
        _lines: usize,
        _stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        self.calls += 1;
        self.asked.push(pos.zobrist());
        let (eval, moves) = self
            .table
            .get(&pos.zobrist())
            .cloned()
            .unwrap_or_else(|| (Cp(0), vec![pos.legal_moves()[0]]));
        Ok(vec![Line {
            eval,
            moves,
            depth: 1,
        }])
    }
}

fn run(start: &Position, moves: &[Move], ev: &mut dyn Evaluator) -> GameAnalysis {
    let stop = AtomicBool::new(false);
    analyse_game(start, moves, ev, None, &stop, &mut |_| {}).unwrap()
}

const SCHOLAR: &str = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#";

#[test]
fn scripted_game_gives_exact_marks_and_fields() {
    let start = Position::new();
    let moves = moves_of(&start, SCHOLAR);
    let mut ev = Scripted::new();
    ev.set(&start, Cp(20), &["e4", "e5"]);
    ev.set(&after(&start, &moves[..1]), Cp(30), &["e5"]);
    ev.set(&after(&start, &moves[..2]), Cp(25), &["Nf3"]);
    ev.set(&after(&start, &moves[..3]), Cp(10), &["Nc6"]);
    ev.set(&after(&start, &moves[..4]), Cp(0), &["Nf3"]);
    ev.set(&after(&start, &moves[..5]), Cp(-5), &["g6", "Qf3"]);
    // After 3...Nf6 White mates at once.
    ev.set(&after(&start, &moves[..6]), Mate(1), &["Qxf7#"]);
    let mut seen: Vec<Progress> = Vec::new();
    let stop = AtomicBool::new(false);
    let a = analyse_game(&start, &moves, &mut ev, None, &stop, &mut |p| seen.push(p)).unwrap();
    assert_eq!(seen.len(), 8);
    assert_eq!(seen.last(), Some(&Progress { done: 8, total: 8 }));
    assert!(seen.windows(2).all(|w| w[1].done == w[0].done + 1));
    // The final position is checkmate: not evaluated; 3...Nf6 walked into
    // a mate, so the position after the better 3...g6 was looked at too.
    assert_eq!(ev.calls, 8);
    assert_eq!(a.engine, "scripted");
    assert_eq!(
        a.settings,
        Settings {
            depth: Some(1),
            nodes: None
        }
    );
    assert_eq!(a.start_eval, Some(Cp(20)));
    assert_eq!(a.plies.len(), 7);

    // 1.e4 was the best move: nothing to say.
    let p0 = &a.plies[0];
    assert_eq!(
        (p0.ply, p0.uci.as_str(), p0.san.as_str(), p0.san_es.as_str()),
        (0, "e2e4", "e4", "e4")
    );
    assert_eq!(p0.eval, Some(Cp(30)));
    assert_eq!(p0.judgement, None);
    assert_eq!(p0.best, None);
    assert!(p0.line.is_empty() && p0.line_san.is_empty() && p0.line_san_es.is_empty());
    assert_eq!(p0.accuracy, 100.0);
    assert_eq!(p0.loss_cp, 0);

    // 2.Bc4 (Nf3 was best), 25 → 10: a small loss, no mark.
    let p2 = &a.plies[2];
    assert_eq!(p2.san_es, "Ac4");
    assert_eq!(p2.best.as_deref(), Some("g1f3"));
    assert_eq!(p2.best_san.as_deref(), Some("Nf3"));
    assert_eq!(p2.best_san_es.as_deref(), Some("Cf3"));
    assert_eq!(p2.loss_cp, 15);
    assert_eq!(p2.judgement, None);

    // 3...Nf6?? walks into mate: a blunder, g6 was better, with its line.
    let p5 = &a.plies[5];
    assert_eq!(p5.san, "Nf6");
    assert_eq!(p5.san_es, "Cf6");
    assert_eq!(p5.eval, Some(Mate(1)));
    assert_eq!(p5.judgement, Some(Judgement::Blunder));
    assert_eq!(p5.best_san.as_deref(), Some("g6"));
    assert_eq!(p5.line, vec!["g7g6", "h5f3"]);
    assert_eq!(p5.line_san, vec!["g6", "Qf3"]);
    assert_eq!(p5.line_san_es, vec!["g6", "Df3"]);
    assert_eq!(p5.loss_cp, 1005);
    assert!(p5.accuracy < 20.0, "{}", p5.accuracy);
    assert!(p5.wc > 0.9);

    // 4.Qxf7# mates: no evaluation, no mark, White's chances are certain.
    let p6 = &a.plies[6];
    assert_eq!(p6.san, "Qxf7#");
    assert_eq!(p6.san_es, "Dxf7#");
    assert_eq!(p6.eval, None);
    assert_eq!(p6.judgement, None);
    assert_eq!(p6.wc, 1.0);
    assert_eq!(p6.fen, after(&start, &moves).to_fen());

    assert_eq!(
        (a.black.blunders, a.black.mistakes, a.black.inaccuracies),
        (1, 0, 0)
    );
    assert_eq!(
        (a.white.blunders, a.white.mistakes, a.white.inaccuracies),
        (0, 0, 0)
    );
    assert_eq!((a.white.moves, a.black.moves), (4, 3));
    // White: losses 0, 15 (Bc4: 25 → 10), 5 (Qh5: 0 → −5), 0 → 20 / 4 = 5.
    assert_eq!(a.white.acpl, 5);
    // Black: losses 0 (e5: 30 → 25 is a gain for Black), 0, 1005 (Nf6:
    // −5 → a mate, counted as 1000) → 335.
    assert_eq!(a.black.acpl, 335);
    assert!(a.white.accuracy > 90.0, "{}", a.white.accuracy);
    assert!(a.black.accuracy < a.white.accuracy);

    // The JSON has the contract's shape.
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json["plies"][5]["judgement"], "blunder");
    assert_eq!(json["plies"][5]["eval"]["mate"], 1);
    assert_eq!(json["plies"][0]["eval"]["cp"], 30);
    assert!(json["plies"][6]["eval"].is_null());
    assert!(json["plies"][0]["judgement"].is_null());
    assert!(json["white"]["accuracy"].is_number());
}

#[test]
fn a_draw_on_the_board_is_level_without_asking() {
    // 1.Qg6 stalemates.
    let start = Position::from_fen("7k/8/8/6Q1/8/8/8/K7 w - - 0 1").unwrap();
    let moves = moves_of(&start, "Qg6");
    let mut ev = Scripted::new();
    ev.set(&start, Mate(2), &["Kb2"]);
    let a = run(&start, &moves, &mut ev);
    assert_eq!(ev.calls, 1);
    assert_eq!(a.plies[0].eval, Some(Cp(0)));
    // From mate in 2 to a draw: a lost mate, a blunder.
    assert_eq!(a.plies[0].judgement, Some(Judgement::Blunder));
    assert_eq!(a.plies[0].best_san_es.as_deref(), Some("Rb2"));
}

/// A horizon between two positions: the evaluator sees +2 before 2.Nf3, its
/// own first choice, and a level game after it. Judged as lichess judges
/// consecutive evaluations, 2.Nf3 would be a blunder with no better move
/// to show, and 1...e5 a blunder for giving White +2. The position before
/// 2.Nf3 takes the evaluation after it, so neither is marked. A move that
/// was not the evaluator's choice is judged as lichess judges it.
#[test]
fn the_evaluators_own_move_is_never_marked() {
    let start = Position::new();
    let moves = moves_of(&start, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bc4");
    let mut ev = Scripted::new();
    ev.set(&start, Cp(20), &["d4"]);
    ev.set(&after(&start, &moves[..1]), Cp(0), &["c5"]);
    ev.set(&after(&start, &moves[..2]), Cp(200), &["Nf3", "Nc6"]);
    ev.set(&after(&start, &moves[..3]), Cp(0), &["a6"]);
    ev.set(&after(&start, &moves[..4]), Cp(10), &["Bb5"]);
    ev.set(&after(&start, &moves[..5]), Cp(10), &["a6"]);
    ev.set(&after(&start, &moves[..6]), Cp(250), &["Ba4"]);
    ev.set(&after(&start, &moves[..7]), Cp(-250), &["Nf6"]);
    let a = run(&start, &moves, &mut ev);
    assert_eq!(
        a.plies[1].eval,
        Some(Cp(0)),
        "after 1...e5: what 2.Nf3 led to"
    );
    assert_eq!(a.plies[1].judgement, None);
    assert_eq!(a.plies[1].loss_cp, 0);
    assert_eq!(a.plies[2].judgement, None);
    assert_eq!(a.plies[2].best, None, "2.Nf3 was the best move");
    assert_eq!(a.plies[2].accuracy, 100.0);
    // 4.Bc4 instead of 4.Ba4: +2.5 → −2.5, a blunder, Ba4 was better; the
    // evaluator is asked nothing more than the game's positions.
    assert_eq!(a.plies[6].judgement, Some(Judgement::Blunder));
    assert_eq!(a.plies[6].best_san.as_deref(), Some("Ba4"));
    assert_eq!(a.plies[5].eval, Some(Cp(250)));
    assert_eq!(ev.calls, 8);
    // Moves that were not the evaluator's choice keep their evaluations:
    // 1.e4 (d4 was best), 2...Nc6 (a6 was).
    assert_eq!(a.start_eval, Some(Cp(20)));
    assert_eq!(a.plies[0].eval, Some(Cp(0)));
    assert_eq!(a.plies[3].eval, Some(Cp(10)));
    let marks = |s: &escaque_analysis::SideSummary| s.blunders + s.mistakes + s.inaccuracies;
    // White: only 4.Bc4. 3...a6, the evaluator's choice too, gave White
    // +2.4 by consecutive evaluations (0.1 → 2.5): not marked, and the
    // position before it takes the +2.5.
    assert_eq!((marks(&a.white), marks(&a.black)), (1, 0));
    assert_eq!(a.plies[4].eval, Some(Cp(250)));
}

/// The moves of lila issue #15616's game (1-0, 35.Rh5#).
const LILA_15616: &str = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Bb6 5. d4 Qe7 6. d5 Nb8 7. a4 a6 8. O-O d6 9. Bg5 f6 10. Be3 Bg4 11. Bxb6 cxb6 12. Nbd2 Nd7 13. h3 Bh5 14. Re1 Nh6 15. Nf1 O-O 16. Ng3 Bf7 17. Nh4 g6 18. Qd2 Kg7 19. Qxh6+ Kxh6 20. Nhf5+ gxf5 21. Nxf5+ Kg5 22. Nxe7 Bg6 23. Bd3 Nc5 24. Bc2 Rf7 25. Nf5 Bxf5 26. exf5 Rg8 27. b4 Nd7 28. Re4 Rfg7 29. Rg4+ Kh5 30. f3 Rxg4 31. hxg4+ Kg5 32. Kf2 Rc8 33. Rh1 e4 34. Kg3 Rxc3 35. Rh5#";

/// lila #15616: the evaluator misses the mate before 33...e4 (a horizon)
/// and sees it after; the second look along its best move finds the mate
/// was already there, so 33...e4 is not marked.
#[test]
fn lila_15616_horizon_before_a_mate_is_no_mark() {
    let start = Position::new();
    let moves = moves_of(&start, LILA_15616);
    let e4 = 65; // 33...e4
    assert_eq!(
        escaque::san::san(&after(&start, &moves[..e4]), moves[e4], escaque::Lang::En),
        "e4"
    );
    let before = after(&start, &moves[..e4]);
    let with_horizon = |deeper: Eval| {
        let mut ev = Scripted::new();
        ev.set(&before, Cp(450), &["Rc4"]);
        ev.set(&after(&start, &moves[..=e4]), Mate(2), &["Kg3"]);
        let mut alt = before;
        alt.play(san(&before, "Rc4")).unwrap();
        ev.set(&alt, deeper, &["Kg3"]);
        run(&start, &moves, &mut ev)
    };
    // The best move also leads to mate in 2: no mark, and the position
    // before shows the mate.
    let a = with_horizon(Mate(2));
    assert_eq!(a.plies[e4].judgement, None);
    assert_eq!(a.plies[e4 - 1].eval, Some(Mate(2)));
    // Had the best move escaped, walking into the mate would be a blunder.
    let a = with_horizon(Cp(450));
    assert_eq!(a.plies[e4].judgement, Some(Judgement::Blunder));
}

/// lila #18262: White had mate in 6, played a move that mates in 7, and the
/// evaluator does not see the mate after it (a horizon); the second look
/// along Black's best reply finds the mate (in 7) again, so no mark.
#[test]
fn lila_18262_horizon_after_a_slower_mate_is_no_mark() {
    let start = Position::new();
    let moves = moves_of(&start, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6");
    let before = after(&start, &moves[..4]); // White to play 3.Bb5
    let played = after(&start, &moves[..5]); // Black to move after 3.Bb5
    let with_horizon = |deeper: Eval| {
        let mut ev = Scripted::new();
        ev.set(&before, Mate(6), &["Bc4"]);
        ev.set(&played, Cp(450), &["Nf6"]);
        let mut reply = played;
        reply.play(san(&played, "Nf6")).unwrap();
        ev.set(&reply, deeper, &["O-O"]);
        run(&start, &moves, &mut ev)
    };
    let a = with_horizon(Mate(7));
    assert_eq!(a.plies[4].judgement, None);
    // After 3.Bb5 the mate is in 7 (Black's reply does not count).
    assert_eq!(a.plies[4].eval, Some(Mate(7)));
    let a = with_horizon(Cp(450));
    assert_eq!(a.plies[4].judgement, Some(Judgement::Blunder));
}

#[test]
fn positions_are_evaluated_from_the_last_back_to_the_first() {
    // The evaluator learns the end of the game first (escaque's engine keeps
    // its table), so the position before each move is searched knowing how
    // the game went on; the progress still counts up, one position a step.
    let start = Position::new();
    let moves = moves_of(&start, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6");
    let mut want: Vec<u64> = (0..=moves.len())
        .map(|i| after(&start, &moves[..i]).zobrist())
        .collect();
    want.reverse();
    let mut ev = Scripted::new();
    let mut steps = Vec::new();
    let stop = AtomicBool::new(false);
    let a = analyse_game(&start, &moves, &mut ev, None, &stop, &mut |p| steps.push(p)).unwrap();
    assert_eq!(ev.asked, want);
    let total = moves.len() + 1;
    let counted: Vec<Progress> = (1..=total).map(|done| Progress { done, total }).collect();
    assert_eq!(steps, counted);
    // The result is in the game's order all the same.
    let played: Vec<String> = a.plies.iter().map(|p| p.san.clone()).collect();
    assert_eq!(played, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
}

#[test]
fn the_cache_makes_a_second_analysis_free() {
    let start = Position::new();
    let moves = moves_of(&start, SCHOLAR);
    let cache = Cache::new(1000);
    let stop = AtomicBool::new(false);
    let mut ev = Scripted::new();
    let first = analyse_game(&start, &moves, &mut ev, Some(&cache), &stop, &mut |_| {}).unwrap();
    assert_eq!(ev.calls, 7);
    assert_eq!(cache.len(), 7);
    let mut ev2 = Scripted::new();
    let second = analyse_game(&start, &moves, &mut ev2, Some(&cache), &stop, &mut |_| {}).unwrap();
    assert_eq!(ev2.calls, 0, "every position came from the cache");
    assert_eq!(first, second);
    // A game sharing the opening costs only its new positions.
    let other = moves_of(&start, "1. e4 e5 2. Bc4 Nf6");
    let mut ev3 = Scripted::new();
    analyse_game(&start, &other, &mut ev3, Some(&cache), &stop, &mut |_| {}).unwrap();
    assert_eq!(ev3.calls, 1);
    // Bounded.
    let small = Cache::new(3);
    let mut ev4 = Scripted::new();
    analyse_game(&start, &moves, &mut ev4, Some(&small), &stop, &mut |_| {}).unwrap();
    assert_eq!(small.len(), 3);
}

#[test]
fn stop_and_illegal_moves_are_errors() {
    let start = Position::new();
    let moves = moves_of(&start, SCHOLAR);
    let stop = AtomicBool::new(true);
    let r = analyse_game(
        &start,
        &moves,
        &mut Scripted::new(),
        None,
        &stop,
        &mut |_| {},
    );
    assert!(matches!(r, Err(AnalysisError::Stopped)));
    // Stopped from the progress callback half way.
    let stop = AtomicBool::new(false);
    let mut ev = Scripted::new();
    let r = analyse_game(&start, &moves, &mut ev, None, &stop, &mut |p| {
        if p.done == 3 {
            stop.store(true, Ordering::Relaxed);
        }
    });
    assert!(matches!(r, Err(AnalysisError::Stopped)));
    // From the end: the mate on the board is judged without the evaluator,
    // so three positions done cost two calls, and nothing more is asked.
    assert_eq!(ev.calls, 2);
    // 1.e4 e4?? (the same move twice) is not legal.
    let mut bad = moves.clone();
    bad[1] = bad[0];
    let stop = AtomicBool::new(false);
    let mut ev = Scripted::new();
    let r = analyse_game(&start, &bad, &mut ev, None, &stop, &mut |_| {});
    assert!(matches!(r, Err(AnalysisError::IllegalMove(1))));
    assert_eq!(ev.calls, 0);
    let e = AnalysisError::IllegalMove(1);
    assert_eq!(e.message(escaque::Lang::Es), "la jugada 1 no es legal");
    assert_eq!(e.message(escaque::Lang::En), "move 1 is not legal");
}

/// An evaluator that gives an illegal line is an engine error, not a panic.
struct Broken;
impl Evaluator for Broken {
    fn name(&self) -> String {
        "broken".into()
    }
    fn evaluate(
        &mut self,
        _pos: &Position,
        _history: &[u64],
        _lines: usize,
        _stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        Ok(vec![Line {
            eval: Cp(0),
            moves: vec![Move::normal(escaque::Square::A3, escaque::Square::A5)],
            depth: 1,
        }])
    }
}

#[test]
fn an_evaluator_with_no_legal_line_is_an_engine_error() {
    let start = Position::new();
    let moves = moves_of(&start, "1. e4");
    let stop = AtomicBool::new(false);
    let r = analyse_game(&start, &moves, &mut Broken, None, &stop, &mut |_| {});
    assert!(matches!(r, Err(AnalysisError::Engine(_))), "{r:?}");
}

// ------------------------------------------------------------ escaque's engine

#[test]
fn escaque_marks_the_scholars_mate_blunder() {
    let start = Position::new();
    let moves = moves_of(&start, SCHOLAR);
    let mut ev = EscaqueEvaluator::new(Settings {
        depth: Some(8),
        nodes: None,
    });
    let a = run(&start, &moves, &mut ev);
    assert_eq!(a.engine, "escaque");
    let nf6 = &a.plies[5];
    assert_eq!(nf6.san_es, "Cf6");
    assert_eq!(nf6.eval, Some(Mate(1)));
    assert_eq!(nf6.judgement, Some(Judgement::Blunder));
    let best = nf6.best_san.as_deref().expect("a better move");
    assert_ne!(best, "Nf6");
    assert!(["g6", "Qe7", "Qf6", "Nh6"].contains(&best), "{best}");
    assert!(!nf6.line.is_empty());
    assert_eq!(a.plies[6].eval, None);
    assert_eq!(a.plies[6].judgement, None);
    assert_eq!(a.black.blunders, 1);
    assert_eq!(a.white.blunders, 0);
}

#[test]
fn escaque_does_not_mark_33_e4_in_lila_15616() {
    let start = Position::new();
    let moves = moves_of(&start, LILA_15616);
    let mut ev = EscaqueEvaluator::new(Settings {
        depth: Some(8),
        nodes: None,
    });
    let a = run(&start, &moves, &mut ev);
    let e4 = &a.plies[65];
    assert_eq!(e4.san, "e4");
    assert_eq!(
        e4.judgement, None,
        "{:?} before {:?}",
        e4.eval, a.plies[64].eval
    );
    // 19.Qxh6+ gave the queen for a mating attack: the game ends in mate.
    assert_eq!(a.plies.last().unwrap().eval, None);
}

#[test]
fn escaque_lines_for_the_analysis_board() {
    let pos = Position::new();
    let mut ev = EscaqueEvaluator::new(Settings {
        depth: Some(6),
        nodes: None,
    });
    let stop = AtomicBool::new(false);
    let lines = ev.evaluate(&pos, &[], 3, &stop).unwrap();
    assert_eq!(lines.len(), 3);
    let views: Vec<LineView> = view_lines(&pos, &lines);
    assert_eq!(views.len(), 3);
    let firsts: Vec<&str> = views.iter().map(|v| v.uci[0].as_str()).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    for v in &views {
        assert_eq!(v.uci.len(), v.san.len());
        assert_eq!(v.san.len(), v.san_es.len());
        assert!((-1.0..=1.0).contains(&v.wc));
        assert!(matches!(v.eval, Cp(c) if c.abs() < 150));
    }
    // Best first (White's point of view, White to move).
    let cps: Vec<i32> = views
        .iter()
        .map(|v| match v.eval {
            Cp(c) => c,
            Mate(_) => 0,
        })
        .collect();
    assert!(cps[0] >= cps[1] && cps[1] >= cps[2], "{cps:?}");
    // Black to move: evaluations are still White's point of view; a mate in
    // one for Black is Mate(-1).
    let fools = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")
        .unwrap();
    let lines = ev.evaluate(&fools, &[], 1, &stop).unwrap();
    assert_eq!(lines[0].eval, Mate(-1));
    let v = view_lines(&fools, &lines);
    assert_eq!(v[0].san_es[0], "Dh4#");
    assert_eq!(v[0].uci[0], "d8h4");
}

#[test]
fn the_cache_and_evaluator_can_be_shared_between_threads() {
    fn shared<T: Send + Sync>() {}
    fn sent<T: Send>() {}
    shared::<Cache>();
    sent::<EscaqueEvaluator>();
    let d = Settings::default();
    assert_eq!(d.depth, Some(Settings::DEFAULT_DEPTH));
    assert_eq!(d.nodes, None);
    assert_eq!(
        serde_json::to_value(d).unwrap(),
        serde_json::json!({"depth": Settings::DEFAULT_DEPTH, "nodes": null})
    );
}

#[test]
fn view_lines_stop_at_an_illegal_move() {
    let pos = Position::new();
    let e4 = san(&pos, "e4");
    let line = Line {
        eval: Cp(25),
        // e2e4 then e2e4 again: the second is not legal.
        moves: vec![e4, e4],
        depth: 3,
    };
    let bad = Line {
        eval: Cp(0),
        moves: vec![Move::normal(escaque::Square::A3, escaque::Square::A5)],
        depth: 3,
    };
    let v = view_lines(&pos, &[line, bad]);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].uci, vec!["e2e4"]);
    assert_eq!(v[0].san_es, vec!["e4"]);
    let json = serde_json::to_value(&v[0]).unwrap();
    assert_eq!(json["eval"]["cp"], 25);
    assert!(json["wc"].as_f64().unwrap() > 0.0);
}

// ------------------------------------------------------------ issue 54

/// A scripted evaluator with a second, deeper look that answers from its
/// own table (positions not in it keep the first look's answer), recording
/// the histories it is given.
struct TwoLooks {
    first: Scripted,
    deeper: HashMap<u64, Eval>,
    looked_again: Vec<u64>,
    histories: Vec<(u64, Vec<u64>)>,
}

impl Evaluator for TwoLooks {
    fn name(&self) -> String {
        "two looks".into()
    }

    fn settings(&self) -> Settings {
        self.first.settings()
    }

    fn evaluate(
        &mut self,
        pos: &Position,
        history: &[u64],
        lines: usize,
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        self.histories.push((pos.zobrist(), history.to_vec()));
        self.first.evaluate(pos, history, lines, stop)
    }

    fn deeper_settings(&self) -> Option<Settings> {
        Some(Settings {
            depth: Some(2),
            nodes: None,
        })
    }

    fn evaluate_deeper(
        &mut self,
        pos: &Position,
        history: &[u64],
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        self.looked_again.push(pos.zobrist());
        let mut lines = self.first.evaluate(pos, history, 1, stop)?;
        if let Some(&e) = self.deeper.get(&pos.zobrist()) {
            lines[0].eval = e;
        }
        Ok(lines)
    }
}

#[test]
fn one_misjudged_position_is_looked_at_again_and_marks_nothing() {
    // 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6: the first look calls the position
    // after 2... Nc6 won for White (+4, best 3. d4), which would mark
    // 2... Nc6 `??` and 3. Bb5 (not the line's move) `??` too: both moves in
    // doubt, the three positions around them looked at again, and the
    // deeper look says level.
    let start = Position::new();
    let moves = moves_of(&start, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6");
    let spike = after(&start, &moves[..4]);
    let mut ev = TwoLooks {
        first: Scripted::new(),
        deeper: HashMap::new(),
        looked_again: Vec::new(),
        histories: Vec::new(),
    };
    ev.first.set(&spike, Cp(400), &["d4"]);
    ev.deeper.insert(spike.zobrist(), Cp(20));
    let a = run(&start, &moves, &mut ev);
    assert!(
        a.plies.iter().all(|p| p.judgement.is_none()),
        "{:?}",
        a.plies.iter().map(|p| p.judgement).collect::<Vec<_>>()
    );
    assert_eq!(a.plies[3].eval, Some(Cp(20)));
    // The misjudged position and its two neighbours, each once; nothing else.
    let mut again = ev.looked_again.clone();
    again.sort_unstable();
    let mut want = vec![
        after(&start, &moves[..3]).zobrist(),
        spike.zobrist(),
        after(&start, &moves[..5]).zobrist(),
    ];
    want.sort_unstable();
    assert_eq!(again, want);

    // Without the deeper look's correction the same game marks both moves:
    // the test above is not passing for want of marks.
    ev.deeper.clear();
    ev.looked_again.clear();
    let a = run(&start, &moves, &mut ev);
    assert_eq!(a.plies[3].judgement, Some(Judgement::Blunder));
    assert_eq!(a.plies[4].judgement, Some(Judgement::Blunder));
}

#[test]
fn a_position_seen_once_before_is_no_draw_for_the_engine() {
    // 1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1: the start position stands
    // a second time after 2... Ng8, the one after 1. Nf3 a second time after
    // 3. Nf3. The engine is told an earlier position only when it has stood
    // twice (its coming back would be the third time).
    let start = Position::new();
    let moves = moves_of(&start, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1");
    let keys: Vec<u64> = (0..=moves.len())
        .map(|i| after(&start, &moves[..i]).zobrist())
        .collect();
    let mut ev = TwoLooks {
        first: Scripted::new(),
        deeper: HashMap::new(),
        looked_again: Vec::new(),
        histories: Vec::new(),
    };
    run(&start, &moves, &mut ev);
    assert_eq!(ev.histories.len(), keys.len());
    for (key, history) in &ev.histories {
        // As long as the game before it (the engine counts plies back).
        let j = history.len();
        assert_eq!(*key, keys[j], "position {j}");
        for (t, h) in history.iter().enumerate() {
            let times = keys[..=j].iter().filter(|&&k| k == keys[t]).count();
            assert_eq!(*h == keys[t], times >= 2, "position {j}, earlier {t}");
        }
    }
    // Position 5 (after 3. Nf3) is told the start (seen twice by then) and
    // position 1 (the same as 5): both kept.
    let (_, h5) = ev
        .histories
        .iter()
        .find(|(k, h)| *k == keys[5] && h.len() == 5)
        .unwrap();
    assert_eq!(h5[0], keys[0]);
    assert_eq!(h5[1], keys[1]);
    assert_ne!(h5[2], keys[2]);
}

#[test]
fn escaque_does_not_call_a_won_game_drawn_by_going_back() {
    // From a won ending, White's king goes e1-d1-e1 while Black's does
    // the same: the position after 2. Ke1 stood once before (the start),
    // so it is no draw, and escaque still sees White winning there.
    let start = Position::from_fen("4k3/8/8/8/8/8/QQ6/4K3 w - - 0 1").unwrap();
    let moves = moves_of(&start, "1. Kd1 Kd8 2. Ke1 Ke8");
    let mut ev = EscaqueEvaluator::new(Settings {
        depth: Some(6),
        nodes: None,
    });
    let a = run(&start, &moves, &mut ev);
    for p in &a.plies {
        let e = p.eval.expect("an evaluation");
        assert!(
            e.mate().is_some_and(|m| m > 0) || e.cp().is_some_and(|c| c > 500),
            "ply {}: {e:?}",
            p.ply
        );
    }
}

#[test]
fn calibrated_centipawns_are_odd_monotone_and_follow_the_table() {
    use escaque_analysis::analyse::calibrated_cp;
    assert_eq!(calibrated_cp(0), 0);
    assert_eq!(calibrated_cp(100), 103);
    assert_eq!(calibrated_cp(-300), -327);
    assert_eq!(calibrated_cp(1000), 589);
    assert_eq!(calibrated_cp(1800), 935);
    assert_eq!(calibrated_cp(2800), 1435);
    let mut last = calibrated_cp(-30_000);
    for cp in -30_000..=30_000 {
        let c = calibrated_cp(cp);
        assert_eq!(c, -calibrated_cp(-cp), "{cp}");
        assert!(c >= last, "{cp}");
        last = c;
    }
    // An evaluation from the engine comes calibrated: +9 pawns for the
    // engine is under +6 in the analysis.
    assert!(calibrated_cp(900) < 600);
}

#[test]
fn escaque_reports_its_evaluation_at_each_depth() {
    // A quiet middlegame: the evaluation at every depth of the last search,
    // shallowest first, the last one the search's answer.
    let pos =
        Position::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8")
            .unwrap();
    let stop = AtomicBool::new(false);
    let mut ev = EscaqueEvaluator::new(Settings {
        depth: Some(6),
        nodes: None,
    });
    assert_eq!(
        ev.deeper_settings(),
        Some(Settings {
            depth: Some(8),
            nodes: None
        })
    );
    let first = ev.evaluate(&pos, &[], 1, &stop).unwrap();
    let depths = ev.depth_evals().to_vec();
    assert!(depths.windows(2).all(|w| w[0].0 < w[1].0), "{depths:?}");
    assert_eq!(depths.last().map(|d| d.0), Some(6), "{depths:?}");
    assert_eq!(
        Some(first[0].eval),
        depths.last().map(|d| d.1),
        "{depths:?}"
    );
    let deep = ev.evaluate_deeper(&pos, &[], &stop).unwrap();
    let depths = ev.depth_evals().to_vec();
    assert_eq!(depths.last().map(|d| d.0), Some(8), "{depths:?}");
    assert_eq!(Some(deep[0].eval), depths.last().map(|d| d.1), "{depths:?}");
    assert!(pos.is_legal(deep[0].moves[0]));
}

/// [`TwoLooks`] with a third look: a verdict table for the moves whose
/// loss lies in `band`, recording the positions it is asked.
struct ThreeLooks {
    two: TwoLooks,
    verdict: HashMap<u64, Eval>,
    band: Option<(f64, f64)>,
    judged_again: Vec<u64>,
}

impl Evaluator for ThreeLooks {
    fn name(&self) -> String {
        "three looks".into()
    }

    fn settings(&self) -> Settings {
        self.two.settings()
    }

    fn evaluate(
        &mut self,
        pos: &Position,
        history: &[u64],
        lines: usize,
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        self.two.evaluate(pos, history, lines, stop)
    }

    fn deeper_settings(&self) -> Option<Settings> {
        self.two.deeper_settings()
    }

    fn evaluate_deeper(
        &mut self,
        pos: &Position,
        history: &[u64],
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        self.two.evaluate_deeper(pos, history, stop)
    }

    fn verdict(&self) -> Option<Verdict> {
        self.band.map(|(low, high)| Verdict {
            settings: Settings {
                depth: Some(3),
                nodes: None,
            },
            low,
            high,
        })
    }

    fn evaluate_verdict(
        &mut self,
        pos: &Position,
        history: &[u64],
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        self.judged_again.push(pos.zobrist());
        let mut lines = self.two.evaluate_deeper(pos, history, stop)?;
        if let Some(&e) = self.verdict.get(&pos.zobrist()) {
            lines[0].eval = e;
        }
        Ok(lines)
    }
}

#[test]
fn a_move_whose_mark_hangs_on_a_threshold_is_judged_by_a_third_look() {
    // 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6: both looks call the position after
    // 2... Nc6 +1.50 for White (best 3. d4), a loss of about 0.29 winning
    // chances for 2... Nc6 and for 3. Bb5 (not the line's move): both
    // `?`, both in the band [0.2, 0.45]. The third look says −1.10; the
    // position is valued at the mean of the two, +0.20, and neither move is
    // marked.
    let start = Position::new();
    let moves = moves_of(&start, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6");
    let spike = after(&start, &moves[..4]);
    let mut ev = ThreeLooks {
        two: TwoLooks {
            first: Scripted::new(),
            deeper: HashMap::new(),
            looked_again: Vec::new(),
            histories: Vec::new(),
        },
        verdict: HashMap::new(),
        band: Some((0.2, 0.45)),
        judged_again: Vec::new(),
    };
    ev.two.first.set(&spike, Cp(150), &["d4"]);
    ev.verdict.insert(spike.zobrist(), Cp(-110));
    let a = run(&start, &moves, &mut ev);
    assert!(
        a.plies.iter().all(|p| p.judgement.is_none()),
        "{:?}",
        a.plies.iter().map(|p| p.judgement).collect::<Vec<_>>()
    );
    assert_eq!(a.plies[3].eval, Some(Cp(20)));
    // Only the two moves' three positions, each once.
    let mut again = ev.judged_again.clone();
    again.sort_unstable();
    let mut want = vec![
        after(&start, &moves[..3]).zobrist(),
        spike.zobrist(),
        after(&start, &moves[..5]).zobrist(),
    ];
    want.sort_unstable();
    assert_eq!(again, want);

    // A band the two losses are not in: no third look, and both marks stay.
    ev.band = Some((0.3, 0.45));
    ev.judged_again.clear();
    let a = run(&start, &moves, &mut ev);
    assert!(ev.judged_again.is_empty(), "{:?}", ev.judged_again);
    assert_eq!(a.plies[3].judgement, Some(Judgement::Mistake));
    assert_eq!(a.plies[4].judgement, Some(Judgement::Mistake));

    // No third look at all: the same marks.
    ev.band = None;
    let a = run(&start, &moves, &mut ev);
    assert!(ev.judged_again.is_empty());
    assert_eq!(a.plies[3].judgement, Some(Judgement::Mistake));
    assert_eq!(a.plies[4].judgement, Some(Judgement::Mistake));
}
