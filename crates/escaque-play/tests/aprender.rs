//! The course "Aprende a jugar": every exercise of every stage replayed
//! through the rules library (the goal reachable, every accepted move legal
//! and meeting the goal, every refused move with a reason), the reasons the
//! issue names, bad stage files refused with file and line, and the stage
//! parser under arbitrary input.

use escaque::{Color, Lang, Localized, Move, Position, Role, Square};
use escaque_play::aprender::coords::{Mode, Trainer};
use escaque_play::aprender::{parse_stage, stars, Course, Exercise, Goal, Input, Verdict, BUILTIN};
use proptest::prelude::*;

fn course() -> Course {
    match Course::builtin() {
        Ok(c) => c,
        Err(e) => panic!("{}", e.message(Lang::En)),
    }
}

fn mv(m: Move) -> Input {
    Input::Move {
        from: m.from(),
        to: m.to(),
        promotion: m.promotion_role(),
    }
}

/// A reason worth the name: not empty, not a bare "incorrecto", both languages.
fn assert_reason(v: &Verdict, what: &str) {
    match v {
        Verdict::Refused(t) => {
            assert!(t.es.len() > 12, "{what}: Spanish reason too short: {t:?}");
            assert!(t.en.len() > 12, "{what}: English reason too short: {t:?}");
            assert_ne!(t.es.to_lowercase(), "incorrecto", "{what}");
            assert_ne!(t.es, t.en, "{what}: the English text is the Spanish one");
        }
        other => panic!("{what}: expected a refusal, got {other:?}"),
    }
}

#[test]
fn the_course_has_twenty_stages_and_a_hundred_exercises_each_citing_its_seed() {
    let c = course();
    assert!(c.stages.len() >= 20, "{} stages", c.stages.len());
    assert!(
        c.exercise_count() >= 100,
        "{} exercises",
        c.exercise_count()
    );
    for s in &c.stages {
        assert!(
            s.source.es.contains("Semilla") || s.source.es.contains("FIDE"),
            "{}: the stage cites no seed article: {}",
            s.id,
            s.source.es
        );
        assert!(!s.quote.is_empty() && !s.title.en.is_empty() && !s.intro.en.is_empty());
    }
    // The teacher's order (seed 001): board, pieces, check, mate, stalemate,
    // castling, en passant, promotion, draws, clock, notation, arbiter, 1846.
    let ids: Vec<&str> = c.stages.iter().map(|s| s.id.as_str()).collect();
    let order = [
        "tablero",
        "torre",
        "alfil",
        "dama",
        "rey",
        "caballo",
        "peon",
        "jaque",
        "mate",
        "ahogado",
        "enroque",
        "alpaso",
        "coronacion",
        "tablas",
        "reloj",
        "leer",
        "escribir",
        "tocada",
        "arbitro",
        "reglas-1846",
    ];
    let mut last = 0;
    for id in order {
        let at = ids
            .iter()
            .position(|i| *i == id)
            .unwrap_or_else(|| panic!("no stage {id}"));
        assert!(at >= last, "{id} out of order");
        last = at;
    }
}

/// Plays the exercise to the end the shortest way, as the pupil would with
/// no mistake, checking each step; returns the stars.
fn solve(ex: &Exercise, what: &str) -> u8 {
    let mut a = ex.start();
    match &ex.goal {
        Goal::Square(sq) => {
            // A wrong square first (on a fresh attempt), then the right one.
            let wrong = if *sq == Square::A1 {
                Square::H8
            } else {
                Square::A1
            };
            assert_reason(&ex.start().try_input(&Input::Square(wrong)), what);
            match a.try_input(&Input::Square(*sq)) {
                Verdict::Solved { stars, .. } => stars,
                v => panic!("{what}: {v:?}"),
            }
        }
        Goal::Quiz { .. } | Goal::Ask(_) => {
            let right = ex.right_options();
            assert_eq!(right.len().min(1), 1, "{what}: no right option");
            for i in 0..ex.options().len() {
                if !right.contains(&i) {
                    assert_reason(&ex.start().try_input(&Input::Choice(i)), what);
                }
            }
            match a.try_input(&Input::Choice(right[0])) {
                Verdict::Solved { stars, .. } => stars,
                v => panic!("{what}: {v:?}"),
            }
        }
        Goal::Write(m) => {
            let pos = ex.position.unwrap();
            let es = escaque::san::san(&pos, *m, Lang::Es);
            // Coordinates and English letters are refused with a reason.
            assert_reason(
                &ex.start()
                    .try_input(&Input::Text(escaque::coord::to_uci(*m))),
                what,
            );
            let en = escaque::san::san(&pos, *m, Lang::En);
            if en != es && !m.is_castle() {
                assert_reason(&ex.start().try_input(&Input::Text(en)), what);
            }
            match a.try_input(&Input::Text(es)) {
                Verdict::Solved { stars, .. } => stars,
                v => panic!("{what}: {v:?}"),
            }
        }
        _ => {
            // Board goals: follow accepted moves that bring the goal nearer.
            for _ in 0..40 {
                let pos = *a.position().unwrap();
                let accepted = accepted_now(ex, &a);
                assert!(
                    !accepted.is_empty(),
                    "{what}: no accepted move in {}",
                    pos.to_fen()
                );
                // Pick the accepted move after which the fewest remain: try each on a clone.
                let mut best: Option<(u32, Move)> = None;
                for &m in &accepted {
                    assert!(pos.is_legal(m), "{what}: accepted move {m} is not legal");
                    let mut b = a.clone();
                    match b.try_input(&mv(m)) {
                        Verdict::Solved { .. } => {
                            best = Some((0, m));
                            break;
                        }
                        Verdict::Progress { .. } => {
                            let rest = b
                                .moves_to_goal()
                                .expect("an accepted move keeps the goal reachable");
                            if best.is_none_or(|(r, _)| rest < r) {
                                best = Some((rest, m));
                            }
                        }
                        v => panic!("{what}: accepted move {m} judged {v:?}"),
                    }
                }
                let (_, m) = best.unwrap();
                match a.try_input(&mv(m)) {
                    Verdict::Solved { stars, .. } => return stars,
                    Verdict::Progress { .. } => continue,
                    v => panic!("{what}: {v:?}"),
                }
            }
            panic!("{what}: not solved in 40 moves")
        }
    }
}

/// The moves accepted from where an attempt stands (its legal moves the
/// judge does not refuse).
fn accepted_now(_ex: &Exercise, a: &escaque_play::aprender::Attempt<'_>) -> Vec<Move> {
    let pos = *a.position().unwrap();
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| {
            let mut b = a.clone();
            matches!(
                b.try_input(&mv(m)),
                Verdict::Solved { .. } | Verdict::Progress { .. }
            )
        })
        .collect()
}

#[test]
fn every_exercise_is_solved_through_the_rules_library_and_every_other_move_gets_a_reason() {
    let c = course();
    for s in &c.stages {
        for (i, ex) in s.exercises.iter().enumerate() {
            let what = format!("{} ejercicio {} (línea {})", s.file, i + 1, ex.line);
            let st = solve(ex, &what);
            assert!((1..=3).contains(&st), "{what}: {st} stars");
            assert_eq!(st, 3, "{what}: the shortest solution gets three stars");
            let Some(pos) = ex.position else { continue };
            if ex.goal.is_question() || matches!(ex.goal, Goal::Write(_) | Goal::Square(_)) {
                continue;
            }
            // Single-move goals: every legal move is either accepted, and then
            // meets the goal as the rules library says, or refused with a reason.
            for &m in pos.legal_moves().iter() {
                let v = ex.start().try_input(&mv(m));
                let mut after = pos;
                after.play_unchecked(m);
                match (&ex.goal, &v) {
                    (_, Verdict::Refused(_)) => assert_reason(&v, &format!("{what}, {m}")),
                    (Goal::Mate, Verdict::Solved { .. }) => {
                        assert!(after.is_checkmate(), "{what}: {m} accepted, not mate")
                    }
                    (Goal::Castle(_), Verdict::Solved { .. }) => assert!(m.is_castle(), "{what}"),
                    (Goal::EnPassant, Verdict::Solved { .. }) => {
                        assert!(m.is_en_passant(), "{what}")
                    }
                    (Goal::Promote(r), Verdict::Solved { .. }) => {
                        assert!(m.promotion_role().is_some(), "{what}");
                        assert!(r.is_none() || m.promotion_role() == *r, "{what}");
                        assert!(!after.is_stalemate(), "{what}: {m} stalemates");
                    }
                    (Goal::Escape(_), Verdict::Solved { .. }) => {
                        assert!(!after.is_attacked(after.king(pos.turn()), pos.turn().other()))
                    }
                    (Goal::Touched(sq), Verdict::Solved { .. }) => assert_eq!(m.from(), *sq),
                    (Goal::TouchedOpponent(sq), Verdict::Solved { .. }) => {
                        assert_eq!(m.to(), *sq)
                    }
                    (Goal::Read(t), Verdict::Solved { .. }) => assert_eq!(
                        escaque::read_move(&pos, t, escaque::Notation::Any(escaque::SanLang::Es))
                            .ok(),
                        Some(m)
                    ),
                    (Goal::Draw, Verdict::Solved { .. }) => {}
                    (
                        Goal::Stars(_) | Goal::CaptureAll,
                        Verdict::Solved { .. } | Verdict::Progress { .. },
                    ) => {}
                    (g, v) => panic!("{what}: {g:?} {m} → {v:?}"),
                }
            }
            // Illegal tries: every (from, to) of the pupil's pieces that is
            // not a legal move gets a reason from the rules.
            let us = pos.turn();
            for from in pos.by_color(us) {
                for to in Square::all() {
                    // (The king onto its own rook is castling: a legal move.)
                    if from == to || escaque::read::move_between(&pos, from, to, None).is_ok() {
                        continue;
                    }
                    let v = ex.start().try_input(&Input::Move {
                        from,
                        to,
                        promotion: None,
                    });
                    assert_reason(&v, &format!("{what}, {from}{to}"));
                }
            }
        }
    }
}

fn exercise<'a>(c: &'a Course, stage: &str, n: usize) -> &'a Exercise {
    &c.stage(stage).unwrap().exercises[n]
}

fn refusal(ex: &Exercise, from: Square, to: Square) -> String {
    match ex.start().try_input(&Input::Move {
        from,
        to,
        promotion: None,
    }) {
        Verdict::Refused(t) => t.es,
        v => panic!("{v:?}"),
    }
}

#[test]
fn the_reasons_name_the_rule_the_piece_and_the_square() {
    let c = course();
    // The knight.
    let knight = exercise(&c, "caballo", 0);
    assert!(refusal(knight, Square::B1, Square::B3).contains("el caballo salta en L"));
    // The rook does not jump.
    let rook = exercise(&c, "torre", 3);
    assert_eq!(
        refusal(rook, Square::A1, Square::A5),
        "la torre no salta por encima de las piezas: el peón de a2 está en medio"
    );
    // Castling through an attacked square (stage enroque, exercise 4).
    let castle = exercise(&c, "enroque", 3);
    assert_eq!(
        refusal(castle, Square::E1, Square::G1),
        "no puedes enrocar: el rey pasaría por f1, atacada por el alfil de c4"
    );
    // A pinned piece: "tu rey quedaría en jaque del alfil de b5".
    let ex = parse_stage(
        "clavada.curso",
        "etapa: clavada\ntitulo: a | b\nfuente: Semilla 004 | Seed 004\ncita: c\nintro: d | e\n\
         ejercicio\ntarea: t | t\nfen: r1bqkbnr/ppp2ppp/2np4/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4\nmeta: tocada g8\n",
    )
    .unwrap();
    let pinned = refusal(&ex.exercises[0], Square::C6, Square::D4);
    assert!(
        pinned.contains("tu rey quedaría en jaque del alfil de b5"),
        "{pinned}"
    );
    // Double check: capturing one checker is not enough.
    let double = exercise(&c, "jaque", 5);
    let r = refusal(double, Square::A8, Square::E8);
    assert!(r.contains("seguiría en jaque del alfil de b4"), "{r}");
    // Mate goal: the stalemate is named.
    let stale = exercise(&c, "ahogado", 1);
    assert!(refusal(stale, Square::F1, Square::F7).starts_with("¡ahogado!"));
    // The seed's f8=T!!: the queen stalemates.
    let promo = exercise(&c, "coronacion", 3);
    match promo.start().try_input(&Input::Move {
        from: Square::F7,
        to: Square::F8,
        promotion: Some(Role::Queen),
    }) {
        Verdict::Refused(t) => assert!(t.es.contains("ahogado"), "{}", t.es),
        v => panic!("{v:?}"),
    }
    match promo.start().try_input(&Input::Move {
        from: Square::F7,
        to: Square::F8,
        promotion: Some(Role::Rook),
    }) {
        Verdict::Solved {
            san: Some(s),
            stars,
        } => {
            assert_eq!(s.es, "f8=T");
            assert_eq!(stars, 3);
        }
        v => panic!("{v:?}"),
    }
    // A pawn moving backwards; a bishop changing colour; the king onto an attacked square.
    let pawn = exercise(&c, "peon", 0);
    assert!(refusal(pawn, Square::E2, Square::E1).contains("no puede retroceder"));
    let bishop = exercise(&c, "alfil", 0);
    assert!(refusal(bishop, Square::C1, Square::C2).contains("mismo color"));
    let king = exercise(&c, "rey", 3);
    let r = refusal(king, Square::E1, Square::E2);
    assert!(
        r.starts_with("el rey no puede ir a e2: esa casilla está atacada por el peón de f3"),
        "{r}"
    );
    // English too.
    match knight.start().try_input(&Input::Move {
        from: Square::B1,
        to: Square::B3,
        promotion: None,
    }) {
        Verdict::Refused(t) => assert!(t.get(Lang::En).contains("knight jumps in an L")),
        v => panic!("{v:?}"),
    }
}

#[test]
fn stars_count_moves_and_refused_tries() {
    assert_eq!(stars(2, 2), 3);
    assert_eq!(stars(2, 3), 2);
    assert_eq!(stars(2, 4), 2);
    assert_eq!(stars(2, 5), 1);
    let c = course();
    let rook = exercise(&c, "torre", 1); // a7 and e7, two moves at best
    let mut a = rook.start();
    assert!(matches!(
        a.try_input(&Input::Move {
            from: Square::A1,
            to: Square::B2,
            promotion: None
        }),
        Verdict::Refused(_)
    ));
    assert!(matches!(
        a.try_input(&Input::Move {
            from: Square::A1,
            to: Square::A7,
            promotion: None
        }),
        Verdict::Progress { .. }
    ));
    match a.try_input(&Input::Move {
        from: Square::A7,
        to: Square::E7,
        promotion: None,
    }) {
        Verdict::Solved { stars, .. } => assert_eq!(stars, 2),
        v => panic!("{v:?}"),
    }
    assert_eq!(
        a.try_input(&Input::Square(Square::A1)),
        Verdict::AlreadySolved
    );
}

#[test]
fn typed_moves_and_answers_work_as_on_the_board() {
    let c = course();
    // Spanish SAN and coordinates both play the move.
    let mut a = exercise(&c, "leer", 1).start();
    match a.try_input(&Input::Text("Cf3".into())) {
        Verdict::Solved { san: Some(s), .. } => {
            assert_eq!((s.es.as_str(), s.en.as_str()), ("Cf3", "Nf3"))
        }
        v => panic!("{v:?}"),
    }
    let mut a = exercise(&c, "leer", 1).start();
    assert!(matches!(
        a.try_input(&Input::Text("g1f3".into())),
        Verdict::Solved { .. }
    ));
    // Another legal move is named in notation.
    let mut a = exercise(&c, "leer", 1).start();
    match a.try_input(&Input::Text("Cc3".into())) {
        Verdict::Refused(t) => assert_eq!(t.es, "esa jugada se anota Cc3; se pide Cf3"),
        v => panic!("{v:?}"),
    }
    // Writing: the signs are required.
    let mate = exercise(&c, "escribir", 4);
    match mate.start().try_input(&Input::Text("Ta8".into())) {
        Verdict::Refused(t) => assert!(t.es.contains("falta el signo #"), "{}", t.es),
        v => panic!("{v:?}"),
    }
    assert!(matches!(
        mate.start().try_input(&Input::Text("Ta8#".into())),
        Verdict::Solved { .. }
    ));
    let castle = exercise(&c, "escribir", 3);
    assert!(matches!(
        castle.start().try_input(&Input::Text("O-O".into())),
        Verdict::Refused(_)
    ));
    assert!(matches!(
        castle.start().try_input(&Input::Text("0-0".into())),
        Verdict::Solved { .. }
    ));
    // A question answered by number.
    let q = exercise(&c, "tablero", 9);
    assert!(matches!(
        q.start().try_input(&Input::Text("2".into())),
        Verdict::Solved { .. }
    ));
    assert!(matches!(
        q.start().try_input(&Input::Text("9".into())),
        Verdict::Refused(_)
    ));
}

#[test]
fn computed_answers_come_from_the_rules_library() {
    let c = course();
    // The flag (FIDE 6.9): K+N against K+R can still mate, so Black wins.
    let flag = exercise(&c, "reloj", 2);
    assert_eq!(flag.right_options(), vec![1]);
    assert!(!escaque::dead::could_not_mate(
        &flag.position.unwrap(),
        Color::Black
    ));
    let bare = exercise(&c, "reloj", 0);
    assert_eq!(bare.right_options(), vec![2]);
    // 1846: stalemate a draw in France, a win for the stalemated side in England.
    assert_eq!(exercise(&c, "reglas-1846", 1).right_options(), vec![2]);
    assert_eq!(exercise(&c, "reglas-1846", 2).right_options(), vec![1]);
    // Castling questions.
    assert_eq!(exercise(&c, "enroque", 7).right_options(), vec![0]); // b1 attacked: still yes
    assert_eq!(exercise(&c, "enroque", 8).right_options(), vec![1]); // g1 attacked
    match exercise(&c, "enroque", 8)
        .start()
        .try_input(&Input::Choice(0))
    {
        Verdict::Refused(t) => assert!(
            t.es.contains("quedaría en g1, atacada por el caballo de h3"),
            "{}",
            t.es
        ),
        v => panic!("{v:?}"),
    }
}

fn header() -> &'static str {
    "etapa: prueba\ntitulo: Prueba | Test\nfuente: Semilla 001 | Seed 001\ncita: cita\nintro: a | b\n"
}

fn load_err(body: &str) -> (usize, String) {
    let text = format!("{}{body}", header());
    match parse_stage("prueba.curso", &text) {
        Ok(_) => panic!("accepted: {body}"),
        Err(e) => {
            let m = e.message(Lang::Es);
            assert!(
                m.starts_with(&format!("prueba.curso, línea {}: ", e.line)),
                "{m}"
            );
            assert!(!e.message.en.is_empty());
            (e.line, m)
        }
    }
}

#[test]
fn bad_stage_files_are_refused_with_file_and_line() {
    // An illegal FEN (two white kings), on line 8.
    let (line, m) =
        load_err("ejercicio\ntarea: t | t\nfen: 4k3/8/8/8/8/8/8/3KK3 w - - 0 1\nmeta: mate\n");
    assert_eq!(line, 8);
    assert!(m.contains("FEN no válido"), "{m}");
    // A star a dark-squared bishop can never reach: unreachable, on the goal's line.
    let (line, m) = load_err(
        "ejercicio\ntarea: t | t\nfen: k7/8/8/8/8/8/8/2B4K w - - 0 1\nmeta: estrellas d3\n",
    );
    assert_eq!(line, 9);
    assert!(m.contains("meta inalcanzable"), "{m}");
    // Block a knight's check: impossible (seed 004).
    let (_, m) = load_err(
        "ejercicio\ntarea: t | t\nfen: 4k3/8/8/8/8/3n4/8/R3K3 w - - 0 1\nmeta: salir cubrir\n",
    );
    assert!(m.contains("meta inalcanzable"), "{m}");
    // No mate in the position.
    let (_, m) =
        load_err("ejercicio\ntarea: t | t\nfen: 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\nmeta: mate\n");
    assert!(m.contains("meta inalcanzable"), "{m}");
    // En passant without the double step.
    let (_, m) =
        load_err("ejercicio\ntarea: t | t\nfen: 4k3/8/8/4Pp2/8/8/8/4K3 w - - 0 1\nmeta: alpaso\n");
    assert!(m.contains("meta inalcanzable"), "{m}");
    // Missing English, unknown key, unknown goal, no right option, illegal move to read.
    let (line, m) = load_err("ejercicio\ntarea: solo español\nmeta: casilla e4\n");
    assert_eq!(line, 7);
    assert!(m.contains("inglés"), "{m}");
    let (line, _) = load_err("ejercicio\ntarea: t | t\ncolor: rojo\n");
    assert_eq!(line, 8);
    let (_, m) = load_err("ejercicio\ntarea: t | t\nmeta: volar\n");
    assert!(m.contains("meta desconocida"), "{m}");
    let (_, m) =
        load_err("ejercicio\ntarea: t | t\nmeta: pregunta\nopcion: a | a\nopcion: b | b\n");
    assert!(m.contains("correcta"), "{m}");
    let (_, m) =
        load_err("ejercicio\ntarea: t | t\nfen: 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\nmeta: leer Cf3\n");
    assert!(m.contains("no es una jugada legal"), "{m}");
    let (_, m) = load_err("ejercicio\ntarea: t | t\nfen: 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\nprevias: a1a9\nmeta: tablas\n");
    assert!(m.contains("previas"), "{m}");
    // A stage without exercises; a header key missing.
    let (_, m) = load_err("");
    assert!(m.contains("ningún ejercicio"), "{m}");
    match parse_stage("x.curso", "titulo: a | b\n") {
        Err(e) => assert!(e.message(Lang::Es).contains("etapa")),
        Ok(_) => panic!("accepted"),
    }
    // Two files with the same stage id.
    let dup = format!("{}ejercicio\ntarea: t | t\nmeta: casilla e4\n", header());
    let e = Course::load(&[("a.curso", &dup), ("b.curso", &dup)]).unwrap_err();
    assert_eq!(e.file, "b.curso");
}

#[test]
fn the_coordinates_trainer_asks_squares_and_counts_answers() {
    for orientation in [Color::White, Color::Black] {
        let mut t = Trainer::new(Mode::Name, orientation, 55);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..50 {
            let sq = t.current();
            seen.insert(sq);
            assert!(!t.answer_name("z9"));
            assert!(t.answer_name(&sq.to_string().to_uppercase()));
        }
        assert_eq!((t.right(), t.wrong()), (50, 50));
        assert!(seen.len() > 20, "the squares vary: {}", seen.len());
    }
    let mut t = Trainer::new(Mode::Find, Color::White, 1);
    let a = t.current();
    let wrong = if a == Square::A1 {
        Square::B1
    } else {
        Square::A1
    };
    assert!(!t.answer_square(wrong));
    assert_eq!(t.current(), a, "a wrong answer asks the same square again");
    assert_eq!(Mode::from_id(Mode::Find.id()), Some(Mode::Find));
    assert_eq!(
        escaque_play::aprender::coords::square_words(Square::E4, Lang::Es),
        "e4: columna e, fila 4"
    );
}

#[test]
fn the_builtin_files_are_the_ones_in_the_folder() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cursos");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".curso"))
        .collect();
    on_disk.sort();
    let builtin: Vec<String> = BUILTIN.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(on_disk, builtin);
    let _ = Position::new();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Any text: an error or a stage, never a panic.
    #[test]
    fn the_parser_never_panics_on_any_text(text in "\\PC{0,400}") {
        let _ = parse_stage("x.curso", &text);
    }

    /// A real stage file with a line replaced, removed or duplicated, or bytes
    /// changed: an error naming a line of the file, or a stage.
    #[test]
    fn mutated_stage_files_are_refused_with_a_line_or_read(
        file in 0usize..21,
        line in 0usize..200,
        op in 0u8..4,
        junk in "[a-z0-9:|/ =#-]{0,30}",
    ) {
        let (name, text) = BUILTIN[file % BUILTIN.len()];
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let at = line % lines.len();
        match op {
            0 => lines[at] = junk.clone(),
            1 => { lines.remove(at); }
            2 => { let l = lines[at].clone(); lines.insert(at, l); }
            _ => lines[at].push_str(&junk),
        }
        let total = lines.len();
        let mutated = lines.join("\n");
        match parse_stage(name, &mutated) {
            Ok(stage) => prop_assert!(!stage.exercises.is_empty()),
            Err(e) => {
                prop_assert!(e.line >= 1 && e.line <= total.max(1), "line {} of {}", e.line, total);
                prop_assert_eq!(e.file.as_str(), name);
            }
        }
    }
}

#[test]
fn progress_is_recomputed_from_the_tries_and_forged_claims_are_refused() {
    use escaque_play::aprender::progress::{verify, ProgressError, MAX_TRIES};
    let c = course();
    let rook = [
        Input::Move {
            from: Square::A1,
            to: Square::B2,
            promotion: None,
        },
        Input::Move {
            from: Square::A1,
            to: Square::A7,
            promotion: None,
        },
        Input::Move {
            from: Square::A7,
            to: Square::E7,
            promotion: None,
        },
    ];
    // One refused try: two stars, recomputed, whatever the pupil claims.
    assert_eq!(verify(&c, "torre", 1, &rook), Ok(2));
    assert_eq!(verify(&c, "torre", 1, &rook[1..]), Ok(3));
    // Half the exercise, no moves, another exercise's moves: not solved.
    assert_eq!(
        verify(&c, "torre", 1, &rook[..2]),
        Err(ProgressError::NotSolved)
    );
    assert_eq!(verify(&c, "torre", 1, &[]), Err(ProgressError::NotSolved));
    assert_eq!(verify(&c, "alfil", 0, &rook), Err(ProgressError::NotSolved));
    assert_eq!(
        verify(&c, "volar", 0, &rook),
        Err(ProgressError::UnknownStage)
    );
    assert_eq!(
        verify(&c, "torre", 99, &rook),
        Err(ProgressError::UnknownExercise)
    );
    let many = vec![Input::Choice(0); MAX_TRIES + 1];
    assert_eq!(
        verify(&c, "tablero", 7, &many),
        Err(ProgressError::TooManyTries)
    );
    // A question: the right option, after a wrong one.
    assert_eq!(
        verify(&c, "tablero", 7, &[Input::Choice(1), Input::Choice(0)]),
        Ok(2)
    );
    assert_eq!(ProgressError::NotSolved.id(), "no_resuelto");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Any tries on any exercise: stars from 1 to 3 or a refusal, never a panic.
    #[test]
    fn any_claimed_tries_are_judged_without_panicking(
        stage in 0usize..21,
        exercise in 0usize..12,
        tries in proptest::collection::vec((0u32..64, 0u32..64, 0u8..6, "[a-hA-Z0-9x=+#-]{0,6}"), 0..12),
    ) {
        let c = course();
        let id = c.stages[stage % c.stages.len()].id.clone();
        let inputs: Vec<Input> = tries
            .iter()
            .map(|(a, b, k, text)| {
                let (from, to) = (Square::new(*a).unwrap(), Square::new(*b).unwrap());
                match k {
                    0 => Input::Square(from),
                    1 => Input::Choice(*a as usize % 5),
                    2 => Input::Text(text.clone()),
                    3 => Input::Move { from, to, promotion: Some(Role::Knight) },
                    _ => Input::Move { from, to, promotion: None },
                }
            })
            .collect();
        if let Ok(s) = escaque_play::aprender::progress::verify(&c, &id, exercise, &inputs) {
            prop_assert!((1..=3).contains(&s));
        }
    }
}
