//! Real PGN written by other programs (see tests/data/README.md for where each
//! file comes from), and hand-written Spanish-notation games: every game reads
//! without error and ends in the position python-chess computed independently
//! (the `.fen` file beside each `.pgn`: final FEN and number of half-moves).

use std::collections::BTreeMap;
use std::fs;
use std::io::Read as _;
use std::path::PathBuf;

use escaque::pgn::{write_game_string, PgnGame, PgnReader, PgnStyle, ReaderOptions};
use escaque::SanLang;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn read(name: &str, notation: SanLang) -> Vec<PgnGame> {
    let bytes = fs::read(data(name)).unwrap();
    PgnReader::with_options(bytes.as_slice(), ReaderOptions { notation })
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|e| panic!("{name} game {}: {e}", i + 1)))
        .collect()
}

fn expected(name: &str) -> Vec<(String, usize)> {
    fs::read_to_string(data(name))
        .unwrap()
        .lines()
        .map(|l| {
            let (fen, plies) = l.split_once('\t').unwrap();
            (fen.to_string(), plies.parse().unwrap())
        })
        .collect()
}

fn check_file(pgn: &str, notation: SanLang) -> Vec<PgnGame> {
    let games = read(pgn, notation);
    let want = expected(&pgn.replace(".pgn", ".fen"));
    assert_eq!(games.len(), want.len(), "{pgn}");
    for (i, (g, (fen, plies))) in games.iter().zip(&want).enumerate() {
        assert_eq!(g.moves.len(), *plies, "{pgn} game {}", i + 1);
        assert_eq!(&g.final_position().to_fen(), fen, "{pgn} game {}", i + 1);
    }
    games
}

/// Writing the games and reading them back gives the same games, in the export
/// format and in the Spanish rendering.
fn round_trip(games: &[PgnGame]) {
    for (style, notation) in [
        (PgnStyle::export(), SanLang::En),
        (PgnStyle::spanish(), SanLang::Es),
    ] {
        let text: String = games.iter().map(|g| write_game_string(g, style)).collect();
        let again: Vec<PgnGame> =
            PgnReader::with_options(text.as_bytes(), ReaderOptions { notation })
                .map(|r| r.unwrap())
                .collect();
        assert_eq!(again.len(), games.len());
        for (a, b) in games.iter().zip(&again) {
            assert_eq!(a.moves, b.moves);
            assert_eq!(a.start, b.start);
            // The writer always ends the movetext with a result.
            assert_eq!(b.result_text(), a.result_text());
            assert!(b.result.is_some());
            for (name, value) in &a.tags {
                assert_eq!(b.tag(name), Some(value.as_str()), "{name}");
            }
        }
    }
}

#[test]
fn eco_openings_from_pgn_extract() {
    let games = check_file("eco.pgn", SanLang::Auto);
    // The first "game" is the file's opening comment, as python-chess reads it.
    assert!(games[0].moves.is_empty() && games[0].comments[0].contains("pgn-extract"));
    assert_eq!(games[1].tag("ECO"), Some("A00"));
    round_trip(&games);
}

#[test]
fn stockfish_games_from_python_chess() {
    let games = check_file("stockfish_selfplay.pgn", SanLang::Auto);
    let nodes: Vec<_> = games.iter().flat_map(|g| &g.moves).collect();
    // Clock comments read into the model; the rest of the comment kept.
    assert!(nodes.iter().all(|n| n.clock_ms.is_some()));
    assert!(nodes
        .iter()
        .any(|n| n.clock_ms.is_some_and(|c| c % 1000 != 0)));
    assert!(nodes
        .iter()
        .any(|n| n.comments.iter().any(|c| c.starts_with("[%eval"))));
    assert!(nodes.iter().any(|n| !n.nags.is_empty()));
    let variations = nodes.iter().filter(|n| !n.variations.is_empty()).count();
    assert!(variations > 10, "{variations}");
    round_trip(&games);
    // The model (clocks, comments, NAGs, variations) survives the round trip.
    let text: String = games
        .iter()
        .map(|g| write_game_string(g, PgnStyle::export()))
        .collect();
    let again: Vec<PgnGame> = PgnReader::new(text.as_bytes())
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(again, games);
}

#[test]
fn spanish_letters_from_pgn_extract() {
    let auto = check_file("pgn_extract_spanish.pgn", SanLang::Auto);
    let forced = check_file("pgn_extract_spanish.pgn", SanLang::Es);
    assert_eq!(auto, forced);
    // The same games as the English original.
    let english = read("stockfish_selfplay.pgn", SanLang::En);
    for (a, b) in auto.iter().zip(&english) {
        assert_eq!(a.moves, b.moves);
    }
}

#[test]
fn long_algebraic_and_coordinates_from_pgn_extract() {
    let english = read("stockfish_selfplay.pgn", SanLang::En);
    for file in ["pgn_extract_xlalg.pgn", "pgn_extract_lalg.pgn"] {
        let games = check_file(file, SanLang::Auto);
        for (a, b) in games.iter().zip(&english) {
            assert_eq!(a.moves, b.moves, "{file}");
        }
    }
}

#[test]
fn bom_and_crlf() {
    let games = check_file("bom_crlf.pgn", SanLang::Auto);
    assert_eq!(
        games[0].tag("Event"),
        Some("escaque test data: Stockfish 15.1 self-play")
    );
    let english = read("stockfish_selfplay.pgn", SanLang::En);
    assert_eq!(games[..], english[..games.len()]);
}

#[test]
fn hand_written_spanish_games() {
    let games = check_file("espanol_manual.pgn", SanLang::Auto);
    assert_eq!(games[0].tag("White"), Some("Paul Morphy"));
    assert!(games[0].final_position().is_checkmate());
    // 1.f8=T!! with its glyph, and the variation 1.f8D??.
    assert_eq!(games[1].moves[0].nags, vec![3]);
    assert_eq!(games[1].moves[0].variations[0][0].nags, vec![4]);
    assert!(games[2].moves[1].mv.is_en_passant());
    assert_eq!(games[3].result, Some(Some(escaque::GameResult::Draw)));
    assert!(games[5].final_position().is_checkmate());
    let forced = check_file("espanol_manual.pgn", SanLang::Es);
    assert_eq!(forced, games);
    round_trip(&games);
}

#[test]
fn chessbase_export_with_a_null_move() {
    // `41. Bxf3 Z0 42. Ke1`: Black passed. Read to the end, the final position
    // as python-chess computes it, written back with `--` and read again.
    let games = check_file("chessbase_null_move.pgn", SanLang::Auto);
    let moves: Vec<_> = games[0].mainline().collect();
    assert_eq!(moves.iter().filter(|m| m.is_null()).count(), 1);
    assert!(moves[81].is_null());
    round_trip(&games);
    let text = write_game_string(&games[0], PgnStyle::export());
    assert!(text.contains("41. Bxf3 -- 42. Ke1 Qh1+ 1-0"), "{text}");
}

// ---------------------------------------------------------------- the corpus
// Real PGN files written by other programs (tests/data/pgn-corpus/README.md),
// read by escaque and compared game by game with what python-chess 1.11.2
// read in them (pgn-corpus/python-chess/*.tsv, made by
// generate/corpus_python_chess.py): the moves of the main line, the final
// position, the Result tag and every tag.

/// One game as a reader saw it, or why it was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seen {
    Game(Box<Read>),
    Error(String),
}

/// What a reader read in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Read {
    /// The main line in UCI, castling as the king taking its rook.
    moves: String,
    /// The position after the main line.
    fen: String,
    /// The `Result` tag (`-` if there is none).
    result_tag: String,
    /// The tags as python-chess keeps them: the Seven Tag Roster always
    /// (`?`, `????.??.??`, `*` where the file has none), a repeated tag's
    /// last value.
    tags: BTreeMap<String, String>,
}

impl Read {
    fn plies(&self) -> usize {
        self.moves.split_whitespace().count()
    }
}

/// The parts of two games that differ.
fn differing_parts(a: &Read, b: &Read) -> Vec<&'static str> {
    let mut parts = Vec::new();
    if a.moves != b.moves {
        parts.push("moves");
    }
    if a.fen != b.fen {
        parts.push("position");
    }
    if a.result_tag != b.result_tag {
        parts.push("result tag");
    }
    if a.tags != b.tags {
        parts.push("tags");
    }
    parts
}

const ROSTER_DEFAULTS: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

fn corpus_dir() -> PathBuf {
    data("pgn-corpus")
}

fn escaque_game(g: &PgnGame) -> Read {
    let mut pos = g.start;
    let mut moves = Vec::new();
    for m in g.mainline() {
        moves.push(escaque::coord::to_uci_in(&pos, m, true));
        if !pos.play_recorded(m) {
            break;
        }
    }
    let mut tags: BTreeMap<String, String> = ROSTER_DEFAULTS
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    for (n, v) in &g.tags {
        tags.insert(n.clone(), v.clone());
    }
    // python-chess writes the movetext's result into a Result tag that is
    // missing or `*`; escaque keeps the tag as written (and warns where the
    // two disagree). Compared as python-chess keeps it.
    let result = match g.tag("Result") {
        Some(t) if t != "*" => t,
        _ if g.result.is_some() => g.result_text(),
        _ => "*",
    };
    tags.insert("Result".into(), result.into());
    Read {
        moves: moves.join(" "),
        fen: pos.to_fen(),
        result_tag: if result.is_empty() { "-" } else { result }.to_string(),
        tags,
    }
}

/// The bytes of a corpus file: the larger ones are kept gzipped
/// (`NAME.pgn.gz`) and read as the file they hold.
fn corpus_bytes(name: &str) -> Vec<u8> {
    let bytes = fs::read(corpus_dir().join(name)).unwrap();
    if name.ends_with(".gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_end(&mut out)
            .unwrap();
        out
    } else {
        bytes
    }
}

fn escaque_reads(name: &str) -> Vec<Seen> {
    let bytes = corpus_bytes(name);
    PgnReader::new(bytes.as_slice())
        .map(|r| match r {
            Ok(g) => Seen::Game(Box::new(escaque_game(&g))),
            Err(e) => Seen::Error(format!("{:?}", e.kind)),
        })
        .collect()
}

fn unescape(v: &str) -> String {
    let mut out = String::new();
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn python_chess_reads(name: &str) -> Vec<Seen> {
    // A gzipped file's table is gzipped as well.
    let tsv = corpus_bytes(&format!("python-chess/{}", name.replace(".pgn", ".tsv")));
    String::from_utf8(tsv)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            match f.as_slice() {
                ["CRASH", why] => Seen::Error(format!("crash {why}")),
                [_, result, plies, fen, "ok", moves, tags @ ..] => {
                    let read = Read {
                        moves: moves.to_string(),
                        fen: fen.to_string(),
                        result_tag: result.to_string(),
                        tags: tags
                            .iter()
                            .map(|t| {
                                let (n, v) = t.split_once('=').unwrap();
                                (n.to_string(), unescape(v))
                            })
                            .collect(),
                    };
                    assert_eq!(read.plies(), plies.parse::<usize>().unwrap(), "{name}");
                    Seen::Game(Box::new(read))
                }
                [variant, _, _, _, _, ..] => Seen::Error(format!("errors (Variant {variant})")),
                _ => panic!("{name}: bad line {l:?}"),
            }
        })
        .collect()
}

fn corpus_files() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(corpus_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pgn") || n.ends_with(".pgn.gz"))
        .collect();
    names.sort();
    names
}

/// Where the two readers differ, file by file (files not listed read the same
/// games: the same moves, final position, Result tag and tags). The classes,
/// and which reader is right, are the table of pgn-corpus/README.md.
const DIFFERENCES: &[(&str, Class)] = &[
    ("kokopu__antichess.pgn", Class::VariantRefused),
    ("kokopu__games-variant-antichess.pgn", Class::VariantRefused),
    ("kokopu__games-variant-horde.pgn", Class::VariantRefused),
    ("kokopu__horde.pgn", Class::VariantRefused),
    ("kokopu__optional-kings.pgn", Class::VariantRefused),
    (
        "python-chess__antichess-programfox.pgn",
        Class::VariantRefused,
    ),
    (
        "python-chess__knightvuillaume-jannlee-zh-lichess.pgn",
        Class::VariantRefused,
    ),
    (
        "python-chess__saturs-jannlee-zh-lichess.pgn",
        Class::VariantRefused,
    ),
    ("kokopu__chess960.pgn", Class::Chess960Spelling),
    ("kokopu__misc.pgn", Class::BlankLineInsideGame),
    (
        "pgn-extract__infield-barnes-horton.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__infield-test-C.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__infield-test-F-text.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__infield-test-Ta.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__infield-test-checkmate.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__infield-test-nochecks.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__infield-test-stalemate.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-FF-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-FF-text-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-NN-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-RR-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-VV-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-WWelalg-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-WWhalg-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-WWlalg-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-WWxlalg-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-addhashcode-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-f-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-fencomments-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-nochecks-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-nomovenumbers-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-noresults-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-notags-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-plylimit-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-totalplycount-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-w1000-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__outfiles-test-w60-out.pgn",
        Class::BlankLineInsideGame,
    ),
    (
        "pgn-extract__infield-test-fuzzydepth.pgn",
        Class::GamesOnOneLine,
    ),
    (
        "pgn-extract__infield-test-nobadresults.pgn",
        Class::GamesOnOneLine,
    ),
    ("kokopu__headers.pgn", Class::TagText),
    ("scalachess__FWWRC.pgn", Class::TagsOnly),
    ("scalachess__uzchesscup.pgn", Class::TagsOnly),
    ("scid__res_gameLatin1.pgn", Class::Latin1OnOneLine),
    (
        "pgn-extract__outfiles-test-WWdeutsch-out.pgn",
        Class::NotReadByEither,
    ),
    ("chess.js__tests-0.pgn", Class::NotReadByEither),
    ("kokopu__games-escaped-text.pgn", Class::BrokenOnPurpose),
    ("kokopu__linebreak-linux.pgn", Class::BrokenOnPurpose),
    ("kokopu__linebreak-mac.pgn", Class::BrokenOnPurpose),
    ("kokopu__linebreak-windows.pgn", Class::BrokenOnPurpose),
    ("kokopu__redos-comment.pgn", Class::BrokenOnPurpose),
    ("kokopu__redos-header.pgn", Class::BrokenOnPurpose),
    ("kokopu__semantic-error.pgn", Class::BrokenOnPurpose),
    ("kokopu__syntactic-error-1.pgn", Class::BrokenOnPurpose),
    ("kokopu__syntactic-error-2.pgn", Class::BrokenOnPurpose),
    ("kokopu__syntactic-error-3.pgn", Class::BrokenOnPurpose),
    ("kokopu__syntactic-error-4.pgn", Class::BrokenOnPurpose),
    ("kokopu__syntactic-error-5.pgn", Class::BrokenOnPurpose),
    (
        "pgn-extract__infield-nested-comment.pgn",
        Class::BrokenOnPurpose,
    ),
    // The second corpus (pychess, engines' cutechess files, chess.com and
    // lichess exports, Scid's annotation).
    ("chesscom__hikaru-2016-06.pgn.gz", Class::VariantRefused),
    ("pychess__atomic.pgn", Class::VariantRefused),
    ("pychess__zh.pgn", Class::VariantRefused),
    ("pychess__schess.pgn.gz", Class::VariantRefused),
    ("pychess__sittuyin.pgn", Class::VariantRefused),
    ("pychess__badpgn.pgn", Class::BrokenOnPurpose),
    ("pgn4web__demoGames.pgn", Class::BlankLineInsideGame),
    ("pgn4web__carlsensvidler.pgn", Class::BlankLineInsideGame),
    // pgn4web's test of its own extensions: text before the first game, a
    // variation of nothing `( ( {…} ) )`, `(*` continuations.
    ("pgn4web__test.pgn", Class::BrokenOnPurpose),
    ("pychess__dortmund.pgn.gz", Class::Latin1Text),
    ("pychess__mate_in_2.pgn", Class::Latin1Text),
    (
        "slowmate__arena-engine-battle-20250817.pgn",
        Class::Latin1Text,
    ),
    (
        "slowmate__arena-tournament-20250720_1104.pgn.gz",
        Class::Latin1Text,
    ),
    ("sirius__games.pgn", Class::NoBlankLineBetweenGames),
    ("fluxfish__games.pgn.gz", Class::NoBlankLineBetweenGames),
    (
        "carlsen__chess.com-games.pgn.gz",
        Class::NoBlankLineBetweenGames,
    ),
    ("ghotrix__games.pgn", Class::ScidSymbols),
    // fastchess's parser tests: an illegal king move, castling through the
    // queen, a game cut off in the middle of a move (`Kx`).
    ("fastchess__data-test_invalid.pgn", Class::BrokenOnPurpose),
    ("fastchess__pgns-black2move.pgn", Class::BrokenOnPurpose),
    ("fastchess__pgns-corrupted.pgn", Class::BrokenOnPurpose),
    (
        "fastchess__pgns-square_bracket_in_header.pgn",
        Class::TagText,
    ),
];

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Class {
    /// A `Variant` escaque does not play (antichess, crazyhouse, horde, games
    /// without kings, Seirawan, sittuyin, King of the Hill, 3-check): escaque
    /// refuses every such game by its tag; python-chess plays the variants
    /// it knows and reports an error for the others. The file's other games
    /// read the same.
    VariantRefused,
    /// `[Variant "chess-960"]`: escaque reads it as Chess960, python-chess
    /// refuses the spelling (and then fails on the castling).
    Chess960Spelling,
    /// A blank line, or a comment on lines of its own between blank lines,
    /// inside one game (kokopu's Paulsen–Morphy game; pgn-extract's test
    /// files and its own output, a comment between the tags and the moves):
    /// python-chess ends the game there and reads the rest as more games;
    /// escaque reads the game to its result.
    BlankLineInsideGame,
    /// Games with no blank line between them, or tags and moves on one line
    /// (pgn-extract's tests): python-chess reads them as one game; escaque
    /// reads each game.
    GamesOnOneLine,
    /// Tag values with PGN's escapes (`\"`, `\\`) and a whole game on one
    /// line: python-chess keeps the backslashes and misses the tags of the
    /// one-line game; escaque reads the values as PGN says.
    TagText,
    /// Lichess broadcasts exported without moves (scalachess's FWWRC.pgn,
    /// the 2024 women's world rapid championship, 605 tag sections, and
    /// uzchesscup.pgn, 45; each with its Result, blank lines between):
    /// escaque reads a game of tags for each, as scalachess's own tie-break
    /// tests do; python-chess reads one game, every section's tags merged.
    TagsOnly,
    /// Scid's Latin-1 test file, tags and moves on one line: python-chess
    /// reads no tag and no move; escaque reads it as Scid's own expected
    /// file (`res_gameLatin1expected.pgn`, UTF-8) says, with a warning.
    Latin1OnOneLine,
    /// Not PGN either reader can read: German piece letters (pgn-extract's
    /// `-Wdeutsch` output), HTML `<br />` between the tags (chess.js). escaque
    /// reports an error; python-chess yields a game without moves.
    NotReadByEither,
    /// Text that is not UTF-8 (Jan van Reek's ChessBase files in pychess,
    /// `Van Nüss`, `Polgár` in Latin-1): escaque reads it as Windows-1252
    /// with a warning; python-chess puts U+FFFD in its place. The games are
    /// otherwise the same.
    Latin1Text,
    /// No blank line between a game's result and the next game's tags
    /// (chess.com downloads put one after another; an engine's endgame test
    /// file; a self-play script's output, cut off in its last game):
    /// escaque reads each game with its tags; python-chess reads the
    /// first right, then reads every other game's tags as movetext (errors),
    /// losing its tags and, where it had one, its starting position.
    NoBlankLineBetweenGames,
    /// Scid's engine annotation exported with symbols for NAGs: `D` (Scid's
    /// diagram, $201) beside `+=`, `+/-`. escaque reads `D` as its NAG with
    /// a warning; python-chess reports an error where it stands.
    ScidSymbols,
    /// Files made broken on purpose (kokopu's parser tests: `pawn goes to
    /// e4`, tags cut by a line break, `\}` inside a comment, illegal moves, a
    /// carriage return alone as line end; pgn-extract's nested comment):
    /// escaque stops the game with an error that says where; python-chess
    /// skips what it cannot read and yields a shorter game, often with no
    /// error.
    BrokenOnPurpose,
}

/// The games of one file that both readers read, and those that agree.
fn check_class(name: &str, class: Class, ours: &[Seen], theirs: &[Seen]) {
    let games = |s: &[Seen]| s.iter().filter(|g| matches!(g, Seen::Game(_))).count();
    match class {
        Class::VariantRefused => {
            // Every game that differs is one escaque refuses by its Variant
            // (a chess.com month mixes them with chess and Chess960 games,
            // which read the same).
            assert_eq!(ours.len(), theirs.len(), "{name}");
            let refused =
                |s: &Seen| matches!(s, Seen::Error(e) if e.starts_with("UnsupportedVariant"));
            assert!(ours.iter().any(refused), "{name}");
            assert!(
                ours.iter().zip(theirs).all(|(a, b)| a == b || refused(a)),
                "{name}: {ours:?}"
            );
        }
        Class::Chess960Spelling => {
            assert_eq!(games(ours), ours.len(), "{name}");
            let differ: Vec<_> = ours.iter().zip(theirs).filter(|(a, b)| a != b).collect();
            assert!(
                differ
                    .iter()
                    .all(|(_, b)| matches!(b, Seen::Error(e) if e.contains("chess-960"))),
                "{name}: {differ:?}"
            );
        }
        Class::BlankLineInsideGame => {
            assert!(theirs.len() > ours.len(), "{name}");
            if name == "kokopu__misc.pgn" {
                // The Morphy game (Paulsen–Morphy, 1857) with comment blocks
                // on lines of their own: read whole.
                assert!(ours.iter().any(|s| matches!(s, Seen::Game(r)
                    if r.plies() == 56
                    && r.fen == "6k1/p1p2ppp/2p4r/8/1P1P4/2P1b3/4r2P/R1B2R1K w - - 1 29")));
            } else {
                // pgn-extract's and pgn4web's files: every game read whole, and
                // each one's moves are those python-chess read in the game it
                // split off.
                assert_eq!(games(ours), ours.len(), "{name}");
                // (A game from a set-up position: the part python-chess split
                // off lost the FEN with the tags, and fails.)
                for s in ours {
                    let Seen::Game(r) = s else { unreachable!() };
                    assert!(
                        theirs
                            .iter()
                            .any(|t| matches!(t, Seen::Game(t) if t.moves == r.moves))
                            || (r.tags.contains_key("FEN")
                                && theirs.iter().any(|t| matches!(t, Seen::Error(_)))),
                        "{name}"
                    );
                }
            }
        }
        Class::GamesOnOneLine => {
            assert!(ours.len() > theirs.len(), "{name}");
            assert_eq!(games(ours), ours.len(), "{name}");
        }
        Class::TagText => {
            assert_eq!(ours.len(), theirs.len(), "{name}");
            for (a, b) in ours.iter().zip(theirs) {
                if let (Seen::Game(a), Seen::Game(b)) = (a, b) {
                    assert!(differing_parts(a, b).iter().all(|p| *p == "tags"), "{name}");
                }
            }
        }
        Class::TagsOnly => {
            let text = fs::read_to_string(corpus_dir().join(name)).unwrap();
            let sections = text.lines().filter(|l| l.starts_with("[White ")).count();
            assert_eq!((ours.len(), theirs.len()), (sections, 1), "{name}");
            for s in ours {
                let Seen::Game(r) = s else { panic!("{name}") };
                assert!(r.moves.is_empty() && r.result_tag != "*", "{name}");
            }
        }
        Class::Latin1OnOneLine => {
            let expected = escaque_reads("scid__res_gameLatin1expected.pgn");
            assert_eq!(ours, expected, "{name}");
            let Seen::Game(r) = &ours[0] else {
                panic!("{name}")
            };
            assert_eq!(r.tags["White"], "Kràmnìk, VlãÚdimir");
            assert!(matches!(&theirs[0], Seen::Game(t) if t.plies() == 0));
        }
        Class::NotReadByEither => {
            assert!(matches!(ours[0], Seen::Error(_)), "{name}");
            assert!(
                matches!(&theirs[0], Seen::Game(t) if t.plies() == 0),
                "{name}"
            );
        }
        Class::BrokenOnPurpose => {
            assert!(ours.iter().any(|s| matches!(s, Seen::Error(_))), "{name}");
        }
        Class::Latin1Text => {
            assert_eq!(ours.len(), theirs.len(), "{name}");
            for (a, b) in ours.iter().zip(theirs) {
                let (Seen::Game(a), Seen::Game(b)) = (a, b) else {
                    panic!("{name}: {a:?} {b:?}")
                };
                assert!(differing_parts(a, b).iter().all(|p| *p == "tags"), "{name}");
                // Each differing value is the same text, but for the
                // characters python-chess could not decode.
                for (n, v) in &a.tags {
                    let w = &b.tags[n];
                    if v != w {
                        assert!(
                            w.contains('\u{FFFD}') && !v.contains('\u{FFFD}'),
                            "{name}: {v} {w}"
                        );
                        assert_eq!(v.chars().count(), w.chars().count(), "{name}: {v} {w}");
                        assert!(
                            v.chars()
                                .zip(w.chars())
                                .all(|(x, y)| x == y || y == '\u{FFFD}'),
                            "{name}: {v} {w}"
                        );
                    }
                }
            }
        }
        Class::NoBlankLineBetweenGames => {
            assert_eq!(ours.len(), theirs.len(), "{name}");
            // Every game read; fluxfish's file is cut off in the middle of
            // its last game's comment, which escaque reports.
            let cut = matches!(ours.last(), Some(Seen::Error(e)) if e == "UnclosedComment");
            assert_eq!(games(ours) + usize::from(cut), ours.len(), "{name}");
            // The first game: the same, or python-chess's error on the next
            // game's tags read as its movetext.
            assert!(
                ours[0] == theirs[0]
                    || matches!(&theirs[0], Seen::Error(e) if e.starts_with("errors")),
                "{name}"
            );
            for (a, b) in ours.iter().zip(theirs).skip(1) {
                let Seen::Game(a) = a else { continue };
                // escaque keeps each game's own tags.
                assert!(
                    a.tags["White"] != "?" || a.tags.contains_key("FEN"),
                    "{name}"
                );
                // python-chess lost them: no tag but the roster, or an error.
                if let Seen::Game(b) = b {
                    assert_eq!(b.tags["White"], "?", "{name}");
                    assert!(!b.tags.contains_key("FEN"), "{name}");
                }
            }
        }
        Class::ScidSymbols => {
            assert_eq!(ours.len(), theirs.len(), "{name}");
            assert_eq!(games(ours), ours.len(), "{name}");
            for (a, b) in ours.iter().zip(theirs) {
                assert!(
                    a == b || matches!(b, Seen::Error(e) if e.starts_with("errors")),
                    "{name}"
                );
            }
        }
    }
}

#[test]
fn corpus_against_python_chess() {
    let files = corpus_files();
    assert!(files.len() >= 275, "{}", files.len());
    let (mut games, mut same_games, mut paired) = (0, 0, 0);
    let mut same_files = 0;
    let mut parts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_class: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for name in &files {
        let bytes = corpus_bytes(name);
        let ours = escaque_reads(name);
        let theirs = python_chess_reads(name);
        games += ours.len();
        for (a, b) in ours.iter().zip(&theirs) {
            if a == b {
                same_games += 1;
            }
            if let (Seen::Game(a), Seen::Game(b)) = (a, b) {
                paired += 1;
                for p in ["moves", "position", "result tag", "tags"] {
                    if !differing_parts(a, b).contains(&p) {
                        *parts.entry(p).or_default() += 1;
                    }
                }
            }
        }
        match DIFFERENCES.iter().find(|(f, _)| f == name).map(|(_, c)| *c) {
            None => {
                assert_eq!(ours, theirs, "{name}: the readers differ");
                same_files += 1;
            }
            Some(class) => {
                assert_ne!(ours, theirs, "{name}: listed as {class:?} but the same");
                check_class(name, class, &ours, &theirs);
                let e = by_class.entry(format!("{class:?}")).or_default();
                e.0 += 1;
                e.1 += ours.len();
            }
        }
        // Every game escaque reads is written and read back to the same moves.
        for g in PgnReader::new(bytes.as_slice()).flatten() {
            for (style, notation) in [
                (PgnStyle::export(), SanLang::En),
                (PgnStyle::spanish(), SanLang::Es),
            ] {
                let text = write_game_string(&g, style);
                let again = PgnReader::with_options(text.as_bytes(), ReaderOptions { notation })
                    .next()
                    .unwrap()
                    .unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
                assert_eq!(again.moves, g.moves, "{name}");
            }
        }
    }
    println!(
        "{} files, {games} games read by escaque, {same_games} the same as python-chess; \
         {same_files} files the same throughout",
        files.len()
    );
    println!("of {paired} games both read, the same: {parts:?}");
    for (class, (f, g)) in &by_class {
        println!("{class}: {f} files, {g} games (escaque's count)");
    }
}
