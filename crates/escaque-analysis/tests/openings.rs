//! Opening names: classification by position (transpositions, the deepest
//! named position, en passant as lichess's EPD has it, odd starts), the
//! Spanish translation's rules, and 1,000 real games against a reference
//! computed independently with python-chess.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use escaque::pgn::PgnReader;
use escaque::{Lang, Move, Position, SanLang};
use escaque_analysis::openings::{self, classify, entries, lookup, position_key, Opening};

fn line(sans: &str) -> Vec<Move> {
    let mut pos = Position::new();
    let mut out = Vec::new();
    for token in sans.split_whitespace() {
        if token.ends_with('.') {
            continue;
        }
        let mv = escaque::san::parse_san(&pos, token, SanLang::En).expect(token);
        pos.play(mv).unwrap();
        out.push(mv);
    }
    out
}

fn after(sans: &str) -> Position {
    let mut pos = Position::new();
    for mv in line(sans) {
        pos.play(mv).unwrap();
    }
    pos
}

fn named(sans: &str) -> Opening {
    classify(&Position::new(), &line(sans)).expect(sans)
}

#[test]
fn openings_a_line_of_the_data_gets_its_own_row() {
    let o = named("1. e4 e5 2. Nf3 Nc6 3. Bb5");
    assert_eq!(o.eco, "C60");
    assert_eq!(o.name_en, "Ruy Lopez");
    assert_eq!(o.name_es, "Apertura española (Ruy López)");
    assert_eq!(o.ply, 5);
    assert_eq!(o.name(Lang::Es), "Apertura española (Ruy López)");
    assert_eq!(o.name(Lang::En), "Ruy Lopez");
    let o = named("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6");
    assert_eq!(
        (o.eco.as_str(), o.name_en.as_str(), o.name_es.as_str()),
        (
            "B90",
            "Sicilian Defense: Najdorf Variation",
            "Defensa siciliana: variante Najdorf"
        )
    );
}

#[test]
fn openings_transpositions_resolve_by_position() {
    let a = named("1. d4 Nf6 2. c4 e6 3. Nc3 Bb4");
    let b = named("1. c4 e6 2. Nc3 Nf6 3. d4 Bb4");
    let c = named("1. d4 e6 2. c4 Nf6 3. Nc3 Bb4");
    assert_eq!(a.name_en, "Nimzo-Indian Defense");
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert_eq!(a.name_es, "Defensa Nimzo-india");
}

#[test]
fn openings_the_deepest_named_position_wins_and_later_moves_keep_it() {
    // 3...a6 is the Morphy Defense; the game goes on out of the book.
    let o = named("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. h4 h5 5. Rh3 Rh6");
    assert_eq!(o.name_en, "Ruy Lopez: Morphy Defense");
    assert_eq!(o.ply, 6);
    // Only the second ply's position is named: the deepest is that one.
    let o = named("1. e4 h5 2. Ke2 Rh6 3. Kd3");
    assert_eq!(
        (o.eco.as_str(), o.name_en.as_str(), o.ply),
        ("B00", "Goldsmith Defense", 2)
    );
}

#[test]
fn openings_only_the_first_forty_plies_are_searched() {
    // Knights out and back ten times: the start position comes back every
    // four plies and is never named; 1.Nf3 (A04) and 1.Nf3 Nf6 (A05) are.
    let mut sans = String::new();
    for _ in 0..10 {
        sans.push_str("Nf3 Nf6 Ng1 Ng8 ");
    }
    let mut moves = line(&sans);
    assert_eq!(moves.len(), openings::SEARCH_MAX_PLIES);
    let o = classify(&Position::new(), &moves).unwrap();
    assert_eq!((o.eco.as_str(), o.ply), ("A05", 38));
    // Ply 41 is 1.e4's position, named, but past the search.
    let mut pos = Position::new();
    for &m in &moves {
        pos.play(m).unwrap();
    }
    let e4 = escaque::san::parse_san(&pos, "e4", SanLang::En).unwrap();
    moves.push(e4);
    assert!(lookup(&after("1. e4")).is_some());
    assert_eq!(classify(&Position::new(), &moves).unwrap().ply, 38);
}

#[test]
fn openings_no_name_from_an_odd_start_or_with_no_moves() {
    assert_eq!(classify(&Position::new(), &[]), None);
    let p960 = Position::chess960(0).unwrap();
    let m = p960.legal_moves()[0];
    assert_eq!(classify(&p960, &[m]), None);
    let setup = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    let m = setup.legal_moves()[0];
    assert_eq!(classify(&setup, &[m]), None);
    // The start position with other move counters is still the start.
    let late =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5 9").unwrap();
    assert_eq!(
        classify(&late, &line("1. e4 e5")).unwrap().name_en,
        "King's Pawn Game"
    );
}

#[test]
fn openings_an_illegal_move_ends_the_search() {
    let mut moves = line("1. e4 e5 2. Nf3 Nc6 3. Bb5");
    moves.insert(2, Move::normal(escaque::Square::A1, escaque::Square::A8));
    assert_eq!(classify(&Position::new(), &moves).unwrap().ply, 2);
}

#[test]
fn openings_lookup_names_a_position_however_it_was_reached() {
    let pos = after("1. c4 e6 2. Nc3 Nf6 3. d4 Bb4");
    let o = lookup(&pos).unwrap();
    assert_eq!(o.eco, "E20");
    assert_eq!(o.ply, 6);
    let fen = "rnbqk2r/pppp1ppp/4pn2/8/1bPP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4";
    assert_eq!(lookup(&Position::from_fen(fen).unwrap()), Some(o));
    assert_eq!(lookup(&after("1. e4 h5 2. Ke2 Rh6 3. Kd3")), None);
}

#[test]
fn openings_en_passant_counts_only_when_the_capture_is_legal() {
    // A pawn beside the double-stepped pawn, free to capture: the square counts.
    let free = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1";
    let none = "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1";
    let key = |f: &str| position_key(&Position::from_fen(f).unwrap());
    assert_ne!(key(free), key(none));
    // No pawn beside it: FEN's square means nothing.
    assert_eq!(
        key("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"),
        key("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1")
    );
    // d4xe3 would empty the fourth rank between the king on a4 and the rook
    // on h4: illegal, so lichess's EPD (python-chess's `epd()`) has no square
    // and neither does the key (Polyglot's hash, which only asks for a pawn
    // beside the double-stepped one, has it).
    let pinned = "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1";
    let pinned_none = "8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1";
    let p = Position::from_fen(pinned).unwrap();
    assert_eq!(p.legal_ep_square(), None);
    assert_ne!(
        p.zobrist(),
        Position::from_fen(pinned_none).unwrap().zobrist()
    );
    assert_eq!(key(pinned), key(pinned_none));
}

#[test]
fn openings_every_row_has_its_own_position_and_is_found_by_its_line() {
    let rows = entries();
    let mut keys = HashSet::new();
    for (i, row) in rows.iter().enumerate() {
        let mut pos = Position::new();
        for &m in &row.moves {
            pos.play(m).unwrap();
        }
        assert!(
            keys.insert(position_key(&pos)),
            "row {i} repeats a position"
        );
        // scalachess stops searching below 20 pieces; no row is that low,
        // so escaque need not (see `openings::SEARCH_MAX_PLIES`).
        assert!(pos.occupied().count() >= 20, "row {i}");
        let o = lookup(&pos).unwrap();
        assert_eq!((o.eco.as_str(), o.name_en.as_str()), (row.eco, row.name_en));
        // Its own line names the game with it (nothing deeper on the line).
        let c = classify(&Position::new(), &row.moves).unwrap();
        assert_eq!(c.name_en, row.name_en, "row {i}");
        assert_eq!(c.ply, row.moves.len());
    }
}

// ---- the translation ----

fn data(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn tsv(text: &str) -> Vec<Vec<String>> {
    text.split('\n')
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

#[test]
fn openings_the_data_is_lichess_source_row_for_row() {
    let mut src = Vec::new();
    for part in ["a", "b", "c", "d", "e"] {
        src.extend(tsv(&data(&format!("lichess/{part}.tsv"))));
    }
    assert_eq!(src.len(), 3807);
    let rows = entries();
    assert_eq!(rows.len(), src.len());
    let shipped = tsv(&data("openings.tsv"));
    for (i, (s, o)) in src.iter().zip(&shipped).enumerate() {
        assert_eq!(o.len(), 4, "row {i}");
        assert_eq!((&s[0], &s[1], &s[2]), (&o[0], &o[1], &o[3]), "row {i}");
        assert_eq!(rows[i].name_es, o[2]);
    }
}

/// The rules of data/translation/check.py that need no English vocabulary:
/// every row translated, the capital only where the rule allows it, Spanish
/// piece letters in moves, and the structure `Family: variation, …` kept.
struct Rules {
    /// Tokens of proper names kept or respelled (they keep their capital).
    names_ok: HashSet<String>,
    /// The Spanish common words the glossary and the families produce.
    common: HashSet<String>,
}

fn words(s: &str, seps: &[char]) -> Vec<String> {
    s.split(|c| seps.contains(&c))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn starts_lower(w: &str) -> bool {
    w.chars().next().is_some_and(char::is_lowercase)
}

impl Rules {
    fn load() -> Rules {
        let mut names_ok = HashSet::new();
        let mut common = HashSet::new();
        for g in tsv(&data("translation/glossary.tsv")) {
            let (es, kind) = (&g[1], g[2].as_str());
            if kind == "name" {
                names_ok.extend(words(es, &[' ', '-']));
            } else if kind != "piece" {
                common.extend(
                    words(es, &[' ', '/', '-'])
                        .into_iter()
                        .filter(|w| starts_lower(w))
                        .map(|w| w.to_lowercase()),
                );
            }
        }
        for f in tsv(&data("translation/families.tsv")) {
            common.extend(
                f[1].split(' ')
                    .filter(|w| starts_lower(w))
                    .map(str::to_lowercase),
            );
        }
        Rules { names_ok, common }
    }

    fn problems(&self, en: &str, es: &str) -> Vec<String> {
        let mut out = Vec::new();
        if es.trim().is_empty() || es == en {
            return vec![format!("not translated: {en}")];
        }
        if !es.chars().next().is_some_and(char::is_uppercase) {
            out.push(format!("no capital first: {es}"));
        }
        for t in words(es, &[' ', ',', ':', '(', ')']).iter().skip(1) {
            for part in t.split('-') {
                if part.chars().next().is_some_and(char::is_uppercase)
                    && self.common.contains(&part.to_lowercase())
                    && !self.names_ok.contains(part)
                {
                    out.push(format!("common word capitalised: {part} in {es}"));
                }
            }
        }
        if has_english_move(es) {
            out.push(format!("English piece letter: {es}"));
        }
        if en.matches(':').count() != es.matches(':').count()
            || en.matches(", ").count() != es.matches(", ").count()
        {
            out.push(format!("structure differs: {en} / {es}"));
        }
        out
    }
}

/// check.py's `(?<![A-Za-z])[KQRBN][a-h]?[1-8]?x?[a-h][1-8]`.
fn has_english_move(s: &str) -> bool {
    let b = s.as_bytes();
    let file = |c: u8| (b'a'..=b'h').contains(&c);
    let rank = |c: u8| (b'1'..=b'8').contains(&c);
    (0..b.len()).any(|i| {
        if !b"KQRBN".contains(&b[i]) || (i > 0 && b[i - 1].is_ascii_alphabetic()) {
            return false;
        }
        let rest = &b[i + 1..];
        // Every choice of the optional file, rank and capture.
        (0..8).any(|mask: u8| {
            let mut j = 0;
            if mask & 1 != 0 {
                if !rest.get(j).is_some_and(|&c| file(c)) {
                    return false;
                }
                j += 1;
            }
            if mask & 2 != 0 {
                if !rest.get(j).is_some_and(|&c| rank(c)) {
                    return false;
                }
                j += 1;
            }
            if mask & 4 != 0 {
                if rest.get(j) != Some(&b'x') {
                    return false;
                }
                j += 1;
            }
            rest.get(j).is_some_and(|&c| file(c)) && rest.get(j + 1).is_some_and(|&c| rank(c))
        })
    })
}

#[test]
fn openings_every_row_is_translated_by_the_rules() {
    let rules = Rules::load();
    let problems: Vec<String> = entries()
        .iter()
        .flat_map(|row| rules.problems(row.name_en, row.name_es))
        .collect();
    assert!(problems.is_empty(), "{problems:#?}");
    // The 149 families, each translated, and every row's family among them.
    let families = tsv(&data("translation/families.tsv"));
    assert_eq!(families.len(), 149);
    let fams: HashSet<&str> = families.iter().map(|f| f[0].as_str()).collect();
    for row in entries() {
        let fam = row.name_en.split(':').next().unwrap();
        assert!(fams.contains(fam), "family {fam} missing");
    }
}

#[test]
fn openings_the_rules_catch_bad_rows() {
    let rules = Rules::load();
    let bad = [
        ("Sicilian Defense", "Sicilian Defense"),
        ("Sicilian Defense", ""),
        ("Sicilian Defense", "defensa siciliana"),
        (
            "Sicilian Defense: Najdorf Variation",
            "Defensa siciliana: Variante Najdorf",
        ),
        (
            "Sicilian Defense: Najdorf Variation",
            "Defensa siciliana, variante Najdorf",
        ),
        (
            "Indian Defense: Pawn Push Variation, with Nf3",
            "Defensa india: variante del avance de peón, con Nf3",
        ),
    ];
    for (en, es) in bad {
        assert!(!rules.problems(en, es).is_empty(), "{es}");
    }
    assert!(has_english_move("con ...Nxe5"));
    assert!(!has_english_move("con Cf3, línea Ab4+"));
    assert!(rules
        .problems(
            "Sicilian Defense: Najdorf Variation",
            "Defensa siciliana: variante Najdorf"
        )
        .is_empty());
}

// ---- 1,000 real games against python-chess ----

struct RefRow {
    file: String,
    game: usize,
    white: String,
    black: String,
    plies: usize,
    opening: Option<(String, String, usize)>,
}

fn reference() -> Vec<RefRow> {
    let p =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/openings_sample_reference.tsv");
    let text = std::fs::read_to_string(p).unwrap();
    tsv(&text)
        .into_iter()
        .map(|r| RefRow {
            file: r[1].clone(),
            game: r[2].parse().unwrap(),
            white: r[3].clone(),
            black: r[4].clone(),
            plies: r[5].parse().unwrap(),
            opening: (r[6] != "-").then(|| (r[6].clone(), r[7].clone(), r[8].parse().unwrap())),
        })
        .collect()
}

fn corpus_games(file: &str) -> Vec<Option<escaque::pgn::PgnGame>> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../escaque/tests/data/pgn-corpus")
        .join(file);
    let raw = std::fs::read(&p).unwrap();
    let bytes = if file.ends_with(".gz") {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&raw[..]), &mut out).unwrap();
        out
    } else {
        raw
    };
    let mut reader = PgnReader::new(&bytes[..]);
    let mut games = Vec::new();
    while let Some(g) = reader.next_game() {
        games.push(g.ok());
    }
    games
}

#[test]
fn openings_a_thousand_real_games_are_named_as_python_chess_names_them() {
    let reference = reference();
    assert_eq!(reference.len(), 1000);
    let mut files: HashMap<String, Vec<Option<escaque::pgn::PgnGame>>> = HashMap::new();
    let (mut reach10, mut named10, mut differ) = (0, 0, Vec::new());
    for r in &reference {
        let games = files
            .entry(r.file.clone())
            .or_insert_with(|| corpus_games(&r.file));
        let g = games[r.game].as_ref().expect("the reference's game reads");
        assert_eq!(
            g.tag("White").unwrap_or("?"),
            r.white,
            "{} {}",
            r.file,
            r.game
        );
        assert_eq!(
            g.tag("Black").unwrap_or("?"),
            r.black,
            "{} {}",
            r.file,
            r.game
        );
        let moves: Vec<Move> = g.mainline().collect();
        assert_eq!(moves.len(), r.plies);
        let got = classify(&g.start, &moves).map(|o| (o.eco, o.name_en, o.ply));
        if got != r.opening {
            differ.push(format!("{} {}: {got:?} vs {:?}", r.file, r.game, r.opening));
        }
        if moves.len() >= 10 {
            reach10 += 1;
            named10 += usize::from(got.is_some());
        }
    }
    assert!(differ.is_empty(), "{differ:#?}");
    let share = named10 as f64 / reach10 as f64;
    eprintln!(
        "games reaching ply 10: {reach10}, named: {named10} ({:.1} %)",
        100.0 * share
    );
    assert!(share >= 0.95);
}

#[test]
fn openings_classification_is_cheap() {
    // The index is built once; a game then costs at most 40 moves played and
    // looked up. Measured in release-like test profile; the bound is loose.
    // The Breyer Ruy Lopez, 41 plies.
    let moves = line(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 \
         8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 \
         14. Ng3 g6 15. a4 c5 16. d5 c4 17. Bg5 h6 18. Be3 Nc5 19. Qd2 h5 \
         20. Bg5 Be7 21. Rf1",
    );
    assert!(moves.len() >= 40);
    let start = Position::new();
    let _ = classify(&start, &moves);
    let n = 2000;
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(classify(&start, std::hint::black_box(&moves)));
    }
    let per = t.elapsed().as_nanos() / n;
    eprintln!("classify: {per} ns per game of {} plies", moves.len());
    assert!(per < 2_000_000, "{per} ns");
}
