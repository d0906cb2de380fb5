//! Notation round trips and the differential test against shakmaty's SAN.
//!
//! Thousands of seeded random games: every move written in SAN (English,
//! Spanish, Spanish display with `a.p.`), in coordinate notation and as UCI is
//! read back as the same move; shakmaty (a dev-dependency oracle) writes the same
//! English SAN for every legal move of the positions met, and our reader reads
//! shakmaty's SAN as the same move. Random games with comments, NAGs, clocks
//! and variations survive PGN write → read, in export and Spanish form.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position as _};

use escaque::coord::{to_coord, to_uci};
use escaque::pgn::{write_game_string, Node, PgnGame, PgnReader, PgnStyle, ReaderOptions};
use escaque::read::{read_move, Notation};
use escaque::san::{parse_san, san, san_display, SanLang};
use escaque::{Lang, Move, MoveError, Position};

/// A random legal move, preferring captures and promotions now and then so that
/// games reach promotions, en passant and crowded disambiguations.
fn random_move(pos: &Position, rng: &mut ChaCha8Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    if rng.random_bool(0.3) {
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.promotion_role().is_some() || m.is_en_passant() || m.is_castle())
            .collect();
        if !special.is_empty() {
            return Some(special[rng.random_range(0..special.len())]);
        }
    }
    Some(moves[rng.random_range(0..moves.len())])
}

fn random_game(seed: u64, max_plies: usize) -> Vec<(Position, Move)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::new();
    let mut out = Vec::new();
    for _ in 0..max_plies {
        let Some(m) = random_move(&pos, &mut rng) else {
            break;
        };
        out.push((pos, m));
        pos.play_unchecked(m);
        if pos.halfmove_clock() >= 100 {
            break;
        }
    }
    out
}

#[test]
fn san_and_coordinates_round_trip_on_random_games() {
    let (mut moves, mut ambiguous_auto, mut ep, mut promos, mut mates) = (0, 0, 0, 0, 0);
    for seed in 0..2000 {
        for (pos, m) in random_game(seed, 300) {
            moves += 1;
            ep += usize::from(m.is_en_passant());
            promos += usize::from(m.promotion_role().is_some());
            let en = san(&pos, m, Lang::En);
            let es = san(&pos, m, Lang::Es);
            mates += usize::from(en.ends_with('#'));
            assert_eq!(
                parse_san(&pos, &en, SanLang::En),
                Ok(m),
                "{en} {}",
                pos.to_fen()
            );
            assert_eq!(
                parse_san(&pos, &es, SanLang::Es),
                Ok(m),
                "{es} {}",
                pos.to_fen()
            );
            let shown = san_display(&pos, m, Lang::Es);
            assert_eq!(parse_san(&pos, &shown, SanLang::Es), Ok(m), "{shown}");
            if m.is_en_passant() {
                assert!(shown.contains(" a.p."), "{shown}");
            }
            // Auto: the same move, or an error naming both readings.
            for text in [&en, &es] {
                match parse_san(&pos, text, SanLang::Auto) {
                    Ok(x) => assert_eq!(x, m, "{text} {}", pos.to_fen()),
                    Err(MoveError::AmbiguousLanguage {
                        spanish, english, ..
                    }) => {
                        assert!(text.starts_with('R'), "{text}");
                        let bare = text.trim_end_matches(['+', '#']);
                        assert!(
                            bare == spanish.display(Lang::Es) || bare == english.display(Lang::En),
                            "{text}"
                        );
                        assert_ne!(spanish.to_move(&pos), english.to_move(&pos), "{text}");
                        ambiguous_auto += 1;
                    }
                    Err(e) => panic!("{text} {}: {e}", pos.to_fen()),
                }
            }
            for lang in [Lang::Es, Lang::En] {
                let c = to_coord(m, lang);
                for any in [SanLang::Es, SanLang::En, SanLang::Auto] {
                    assert_eq!(read_move(&pos, &c, Notation::Any(any)), Ok(m), "{c}");
                    let upper = c.to_uppercase();
                    assert_eq!(read_move(&pos, &upper, Notation::Any(any)), Ok(m), "{c}");
                }
            }
            assert_eq!(read_move(&pos, &to_uci(m), Notation::Uci), Ok(m));
            // The typed SAN value: the same move from its text in either language.
            let value = escaque::San::from_move(&pos, m);
            for lang in [Lang::Es, Lang::En] {
                let text = value.display(lang);
                assert_eq!(escaque::San::parse(&text, lang), Ok(value), "{text}");
                assert_eq!(value.to_move(&pos), Ok(m), "{text}");
                assert_eq!(
                    read_move(&pos, &text, Notation::Any(lang.into())),
                    Ok(m),
                    "{text}"
                );
            }
        }
    }
    // The games were varied enough to mean something.
    assert!(moves > 200_000, "{moves}");
    assert!(
        ep > 100 && promos > 100 && mates > 10,
        "{ep} {promos} {mates}"
    );
    assert!(ambiguous_auto > 0);
}

#[test]
fn san_agrees_with_shakmaty() {
    let mut compared = 0usize;
    for seed in 10_000..10_400 {
        let mut theirs = Chess::default();
        for (pos, m) in random_game(seed, 250) {
            for cand in pos.legal_moves() {
                let uci = UciMove::from_ascii(cand.to_string().as_bytes()).unwrap();
                let tm = uci.to_move(&theirs).unwrap();
                let their_san = SanPlus::from_move(theirs.clone(), tm).to_string();
                assert_eq!(san(&pos, cand, Lang::En), their_san, "{}", pos.to_fen());
                assert_eq!(parse_san(&pos, &their_san, SanLang::En), Ok(cand));
                compared += 1;
            }
            let uci = UciMove::from_ascii(m.to_string().as_bytes()).unwrap();
            let tm = uci.to_move(&theirs).unwrap();
            theirs.play_unchecked(tm);
        }
    }
    assert!(compared > 500_000, "{compared}");
}

fn random_line(pos: Position, rng: &mut ChaCha8Rng, plies: usize, depth: usize) -> Vec<Node> {
    let mut pos = pos;
    let mut line = Vec::new();
    for _ in 0..plies {
        let Some(m) = random_move(&pos, rng) else {
            break;
        };
        let mut node = Node::new(m);
        if rng.random_bool(0.1) {
            node.nags.push(rng.random_range(1..=20));
        }
        if rng.random_bool(0.1) {
            let n = rng.random_range(0..99);
            node.comments
                .push(format!("comentario {n}: ¡buena jugada! (ñ) ; $1 1-0"));
        }
        if rng.random_bool(0.2) {
            node.clock_ms = Some(rng.random_range(0..7_200) * 1000 + 500 * rng.random_range(0..2));
        }
        if depth < 3 && rng.random_bool(0.05) {
            let var = random_line(pos, rng, 6, depth + 1);
            if !var.is_empty() {
                node.variations.push(var);
            }
        }
        line.push(node);
        pos.play_unchecked(m);
    }
    line
}

#[test]
fn pgn_round_trips_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut games = Vec::new();
    for i in 0..1000 {
        let mut g = PgnGame::default();
        for (n, v) in [
            ("Event", format!("Torneo \"{i}\"")),
            ("Site", "Tucumán".into()),
            ("Date", "2026.11.22".into()),
            ("Round", i.to_string()),
            ("White", "Blancas".into()),
            ("Black", "Negras".into()),
            ("Result", "*".into()),
        ] {
            g.tags.push((n.into(), v));
        }
        if i % 10 == 0 {
            // Start from a middle-game position with a FEN tag.
            let mut p = Position::new();
            for (_, m) in random_game(50_000 + i, 20) {
                p.play_unchecked(m);
            }
            g.tags.push(("SetUp".into(), "1".into()));
            g.tags.push(("FEN".into(), p.to_fen()));
            g.start = p;
        }
        g.moves = random_line(g.start, &mut rng, 120, 0);
        if i % 7 == 0 {
            if let Some(n) = g.moves.first_mut() {
                n.comments_before.push("apertura".into());
            }
        }
        g.result = Some(None);
        games.push(g);
    }
    for (style, lang) in [
        (PgnStyle::export(), SanLang::En),
        (PgnStyle::spanish(), SanLang::Es),
    ] {
        let mut text = String::new();
        for g in &games {
            text.push_str(&write_game_string(g, style));
        }
        // Movetext lines stay within 80 columns (a tag pair is one line, however long).
        assert!(text
            .lines()
            .all(|l| l.starts_with('[') || l.chars().count() <= 80));
        for opts in [ReaderOptions { notation: lang }, ReaderOptions::default()] {
            let read: Vec<PgnGame> = PgnReader::with_options(text.as_bytes(), opts)
                .map(|r| r.unwrap())
                .collect();
            assert_eq!(read.len(), games.len());
            for (a, b) in games.iter().zip(&read) {
                assert_eq!(a, b);
            }
        }
    }
}
