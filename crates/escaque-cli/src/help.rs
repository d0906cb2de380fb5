//! The command-line help in the user's language. The help texts written on
//! the options (`///` comments) are Spanish; [`localize`] gives the whole
//! tree clap builds Spanish or English headings, its own `-h`/`-V` flags
//! worded in that language, and, in English, the English text of every
//! command and option from [`ENGLISH`].

use clap::{Arg, ArgAction, Command};
use escaque::Lang;

/// English help for each command (`path`) and option (`path` + `:` + id),
/// the path being the subcommand names from the top (`""` for `escaque`
/// itself, `pgn convertir`).
pub const ENGLISH: &[(&str, &str)] = &[
    ("", "escaque: chess in Spanish and English"),
    (":lang", "Language of the messages: es | en (default: LANG; Spanish when unknown)"),
    (":white", "Who plays White: human | engine[:LEVEL] (LEVEL 1-10)"),
    (":black", "Who plays Black: human | engine[:LEVEL]"),
    (":clock", "Time control, e.g. 5+3 (minutes + seconds of increment)"),
    (":fen", "Start position in FEN"),
    (":odds", "Odds game: pawn (pawn and move) | knight | rook | queen"),
    (":rules", "Rules: fide | london1846 | london1846-english (stalemate wins)"),
    (":text", "Text mode: one line per move or command, no full screen"),
    (":ascii", "Pieces as letters instead of figurines"),
    (":chess960", "Chess960: starting position number N (0-959), at random without N"),
    ("perft", "Count the nodes of the tree of legal moves (perft) to DEPTH"),
    ("perft:depth", "Depth in half-moves"),
    ("perft:fen", "Start position in FEN (default: the initial one)"),
    ("perft:divide", "Show each root move with its count (divide)"),
    (
        "perft:chess960",
        "Chess960: starting position number N (0-959); without N, read the FEN with Chess960 castling",
    ),
    ("uci", "Speak the UCI protocol on standard input and output (for GUIs)"),
    ("uci:elo", "Play at this strength (UCI_LimitStrength + UCI_Elo, 800-2380)"),
    ("uci:level", "Play at this level of the terminal game (1 beginner … 10 master)"),
    (
        "uci:setting",
        "Play at this raw weakening setting (200-2850), bypassing the calibration table: for measuring the levels",
    ),
    ("uci:threads", "Search threads (the Threads option, 1-256)"),
    (
        "uci:book",
        "Open from the opening book (the OwnBook option): escaque's own, or the Polyglot file PATH (the BookFile option)",
    ),
    ("bench", "Search fixed positions to a fixed depth: total nodes and speed"),
    ("bench:depth", "Depth of each search"),
    ("pgn", "Read, convert and check PGN games (convertir/convert, revisar/check)"),
    ("pgn convertir", "Rewrite the games in another notation"),
    (
        "pgn convertir:notation",
        "Output notation: es (Spanish) or en (English, PGN export format)",
    ),
    (
        "pgn convertir:input",
        "Notation of the input moves (default: detected in each game)",
    ),
    ("pgn convertir:file", "PGN file (standard input when missing)"),
    ("pgn revisar", "Replay and check each game"),
    ("pgn revisar:file", "PGN file (standard input when missing)"),
    ("pgn revisar:json", "One JSON object per line and game"),
    (
        "pgn revisar:input",
        "Notation of the input moves (default: detected in each game)",
    ),
    ("muerta", "Say whether each side can still checkmate (dead position), with a mating line"),
    ("muerta:fens", "Positions in FEN (without them, one per line on standard input)"),
    (
        "muerta:json",
        "One JSON object per line: fen, white, black (winnable/unwinnable/undecided) and the lines",
    ),
    ("torneo", "Tournaments: FIDE Dutch Swiss, round robin, results, standings, TRF, printouts"),
    ("torneo nuevo", "Create a new tournament in FILE"),
    ("torneo nuevo:file", "Tournament file (TRF with escaque's own lines)"),
    ("torneo nuevo:name", "Name of the tournament"),
    ("torneo nuevo:rounds", "Number of rounds (computed for a round robin when left out)"),
    ("torneo nuevo:system", "Pairing system: suizo (FIDE Dutch), rr (round robin), drr (double round robin)"),
    (
        "torneo nuevo:tiebreaks",
        "Tie-breaks in order, e.g. \"BH-C1,BH,SB,DE,WIN\" (BH, BH-C1, BH-M1, SB, DE, WIN, WON, BPG, ARO, PS, KS)",
    ),
    ("torneo nuevo:team_size", "Players who score for their club or school in the team ranking"),
    ("torneo nuevo:city", "Place"),
    ("torneo nuevo:date", "Start date"),
    ("torneo nuevo:first_black", "Number 1 has Black in the first round"),
    (
        "torneo nuevo:rules",
        "Version of the tie-break regulations (FIDE C.07): 2024 | 2026; without it, the one in force at the start date",
    ),
    (
        "torneo nuevo:unrated_rating",
        "Rating that unrated players count with in ARO (if the event's rules set one; without it, ARO is not used when unrated players take part)",
    ),
    ("torneo inscribir", "Enroll a player (after the first round, a late entry)"),
    ("torneo inscribir:file", "Tournament file"),
    ("torneo inscribir:name", "Player's name (\"Surname, Name\")"),
    ("torneo inscribir:club", "Club or school"),
    ("torneo inscribir:category", "Category (age, sex) for the rankings by category"),
    ("torneo inscribir:born", "Year of birth"),
    ("torneo inscribir:rating", "Rating"),
    ("torneo inscribir:fide", "FIDE id"),
    ("torneo inscribir:sex", "m | f"),
    ("torneo retirar", "Withdraw a player from the given round (default: the next one)"),
    ("torneo retirar:file", "Tournament file"),
    ("torneo retirar:player", "Player's starting number"),
    ("torneo retirar:from", "First round the player no longer plays"),
    (
        "torneo descanso",
        "Record a bye for a round not yet paired: a requested half point (default), a full point given, or an absence",
    ),
    ("torneo descanso:file", "Tournament file"),
    ("torneo descanso:player", "Player's starting number"),
    ("torneo descanso:round", "Round of the bye"),
    ("torneo descanso:kind", "Kind: medio|half (½ point), completo|full (1 point), cero|zero (absence)"),
    (
        "torneo prohibir",
        "Forbid the given players (siblings, schoolmates) to meet each other in the given rounds",
    ),
    ("torneo prohibir:file", "Tournament file"),
    ("torneo prohibir:players", "Starting numbers of the players (two or more)"),
    ("torneo prohibir:from", "First round of the ban (default: the next one)"),
    ("torneo prohibir:to", "Last round of the ban (default: the tournament's last)"),
    ("torneo emparejar", "Pair the next round (and save it), or print the next round of another program's TRF"),
    ("torneo emparejar:file", "Tournament file, or another program's TRF"),
    ("torneo emparejar:javafo", "Only print in the JaVaFo/bbpPairings format, without saving"),
    ("torneo resultado", "Record or correct a result: ROUND BOARD RESULT (1-0, 0-1, ½-½, +/-, -/+, -/-, ½-0, 0-½, 0-0)"),
    ("torneo resultado:file", "Tournament file"),
    ("torneo resultado:round", "Round"),
    ("torneo resultado:board", "Board"),
    ("torneo resultado:result", "Result: 1-0, 0-1, ½-½, +/-, -/+, -/-, or an unusual one: ½-0, 0-½, 0-0"),
    ("torneo clasificacion", "Show the standings with their tie-breaks"),
    ("torneo clasificacion:file", "Tournament file"),
    ("torneo clasificacion:category", "Only this category"),
    (
        "torneo clasificacion:detail",
        "Explain how player N's tie-breaks were made: each opponent and their adjusted score, the dummy opponent, the cuts",
    ),
    (
        "torneo clasificacion:rules",
        "Compute with this version of the regulations (2024 | 2026) instead of the tournament's (not saved)",
    ),
    ("torneo exportar", "Export the tournament as a FIDE TRF"),
    ("torneo exportar:file", "Tournament file"),
    ("torneo exportar:trf", "Output TRF file"),
    ("torneo generar", "Generate random Swiss tournaments (TRF-2026) for testing pairing programs and tie-breaks"),
    ("torneo generar:players", "Number of players"),
    ("torneo generar:rounds", "Number of rounds"),
    ("torneo generar:seed", "Seed (the same seed gives the same file); random when left out"),
    ("torneo generar:model", "A real tournament (TRF) to take players, rounds, tie-breaks and the rates of draws, forfeits, retirements and byes from"),
    ("torneo generar:config", "Configuration file: 'key = value' lines (see docs/torneos-generados.md)"),
    ("torneo generar:baku", "With the Baku acceleration (C.04.5.1)"),
    ("torneo generar:output", "Where to write the tournament (standard output when left out)"),
    ("torneo generar:count", "Generate COUNT tournaments, seeds S, S+1, ..., in --directorio (t<seed>.trf)"),
    ("torneo generar:dir", "Folder for the tournaments of --cantidad"),
    ("torneo equipos", "Team tournaments: FIDE C.04.6 team Swiss, round robin, Scheveningen"),
    ("torneo equipos nuevo", "Create a new team tournament in FILE"),
    ("torneo equipos nuevo:file", "Tournament file (TRF-2026 with team records)"),
    ("torneo equipos nuevo:name", "Name of the tournament"),
    ("torneo equipos nuevo:system", "Pairing system: suizo (C.04.6), rr, drr, scheveningen, dscheveningen"),
    ("torneo equipos nuevo:boards", "Boards per match"),
    ("torneo equipos nuevo:rounds", "Rounds (the Swiss needs them; round robin and Scheveningen compute them)"),
    ("torneo equipos nuevo:scoring", "Match points for a win/draw/loss, e.g. 2/1/0 or 3/1/0"),
    ("torneo equipos nuevo:colours", "Colour preferences of the Swiss (C.04.6 1.7): a, b, ninguno (none)"),
    ("torneo equipos nuevo:by_game_points", "Pair by game points instead of match points"),
    ("torneo equipos nuevo:tiebreaks", "Tie-breaks in order, e.g. \"GPTS,EMGSB,DE\" (GPTS, EMGSB, EMMSB, BH, DE, WIN, WON, BC)"),
    ("torneo equipos nuevo:max_teams", "School rules: at most N teams per school"),
    ("torneo equipos nuevo:categories", "School rules: every team needs K players of category C (\"C:K\"; may be repeated)"),
    ("torneo equipos nuevo:counted", "Teams of each school counted in the school ranking"),
    ("torneo equipos nuevo:first_black", "The first team drawn has Black on board 1"),
    ("torneo equipos nuevo:bye_as_win", "The pairing-allocated bye is worth a win (a point a board) instead of C.04.6's draw (half a point a board)"),
    ("torneo equipos nuevo:baku", "Baku acceleration (C.04.7) of a Swiss paired by match points: the first half of the teams carry virtual points in the first rounds"),
    ("torneo equipos equipo", "Enter a team: --jugador \"Name,rating,category\" once per player"),
    ("torneo equipos equipo:file", "Tournament file"),
    ("torneo equipos equipo:name", "Name of the team"),
    ("torneo equipos equipo:players", "A player: \"Name,rating,category\" (rating and category optional)"),
    ("torneo equipos equipo:captain", "The captain: their number in the list given (1 = the first)"),
    ("torneo equipos equipo:fixed_order", "Board order fixed by the organiser (not sorted by rating)"),
    ("torneo equipos equipo:school", "The team's school or club"),
    ("torneo equipos alineacion", "Set a team's line-up for a round: roster numbers, board 1 first"),
    ("torneo equipos alineacion:file", "Tournament file"),
    ("torneo equipos alineacion:round", "Round"),
    ("torneo equipos alineacion:team", "Team number"),
    ("torneo equipos alineacion:players", "Roster numbers, e.g. \"1,2,4,5\""),
    ("torneo equipos prohibir", "Forbid teams to meet in the rounds still to play (Swiss only): the numbers given, or the teams of one school"),
    ("torneo equipos prohibir:file", "Tournament file"),
    ("torneo equipos prohibir:teams", "Team numbers, e.g. \"1,4\""),
    ("torneo equipos prohibir:same_school", "Teams of the same school or club do not meet"),
    ("torneo equipos descanso", "A team asks not to be paired in a round not yet paired (Swiss only)"),
    ("torneo equipos descanso:file", "Tournament file"),
    ("torneo equipos descanso:round", "Round"),
    ("torneo equipos descanso:team", "Team number"),
    ("torneo equipos descanso:kind", "What the bye is worth: completo (a win's match points, a point a board), medio (a draw's, half a point a board; the default), cero (nothing)"),
    ("torneo equipos emparejar", "Pair the next round and print it"),
    ("torneo equipos emparejar:file", "Tournament file"),
    ("torneo equipos resultado", "Enter a board's result (White-Black: 1-0, ½-½, 0-1, +/-, -/+, -/-) or a whole team's forfeit"),
    ("torneo equipos resultado:file", "Tournament file"),
    ("torneo equipos resultado:round", "Round"),
    ("torneo equipos resultado:table", "Match number in the round"),
    ("torneo equipos resultado:board", "Board"),
    ("torneo equipos resultado:result", "The result, White-Black"),
    ("torneo equipos resultado:forfeit", "The whole match lost by forfeit: primero (first team), segundo (second), ambos (both)"),
    ("torneo equipos ronda", "Print a round's pairings (by match and board)"),
    ("torneo equipos ronda:file", "Tournament file"),
    ("torneo equipos ronda:round", "Round (default: the last paired)"),
    ("torneo equipos clasificacion", "Team standings (and school ranking with --centros)"),
    ("torneo equipos clasificacion:file", "Tournament file"),
    ("torneo equipos clasificacion:schools", "Also the ranking by schools"),
    ("torneo equipos cuadro", "The crosstable by teams"),
    ("torneo equipos cuadro:file", "Tournament file"),
    ("torneo equipos tableros", "Each player's board-by-board results"),
    ("torneo equipos tableros:file", "Tournament file"),
    ("torneo modo-fide", "Say whether the tournament is in FIDE mode (it is unless it was left) and what the file records about it"),
    ("torneo modo-fide:file", "Tournament file"),
    ("torneo salir-modo-fide", "Leave FIDE mode: needs --confirmo and the tournament's name typed again; cannot be undone"),
    ("torneo salir-modo-fide:file", "Tournament file"),
    ("torneo salir-modo-fide:confirm", "First confirmation: I know leaving FIDE mode cannot be undone"),
    ("torneo salir-modo-fide:name", "Second confirmation: the tournament's name, typed again"),
    ("torneo salir-modo-fide:who", "Who decides it (written in the TRF)"),
    ("torneo emparejar-manual", "Pair the next round by hand: shows the engine's pairing and the warnings; --guardar finishes it"),
    ("torneo emparejar-manual:file", "Tournament file"),
    ("torneo emparejar-manual:pairs", "Pairs WHITE-BLACK by board (1-4 2-3), and PLAYER-0 for the bye"),
    ("torneo emparejar-manual:save", "Finish the manual pairing: save the round (without it, it is only shown)"),
    ("torneo emparejar-manual:accept", "Save even though it breaks rules (repeat, prohibited pair, bye, colours)"),
    ("torneo comprobar", "Check a tournament's pairings (Dutch system, C.04.3) and standings (declared tie-breaks): exit 0 all right, 1 something wrong, 2 unreadable"),
    ("torneo comprobar:files", "TRF files (TRF-2026, TRF16, TRF(x) with XXR/XXC/XXA/XXP) or directories (their .trf files, by name)"),
    ("torneo comprobar:json", "Report as JSON, one line per file"),
    ("torneo comprobar:jobs", "How many files to check at once (threads); 0: as many as cores"),
    ("torneo imprimir", "Write the printable HTML pages (and PDF with --pdf) into the given directory"),
    ("torneo imprimir:file", "Tournament file"),
    ("torneo imprimir:out", "Directory to write the pages into"),
    ("torneo imprimir:round", "Round of the pairings (default: the last one)"),
    ("torneo imprimir:pdf", "Also each page's PDF (printed by headless Chromium)"),
    ("torneo imprimir:paper", "Paper: a4 (default) | carta|letter (US Letter)"),
    ("servir", "Serve online games over HTTP and WebSocket (SQLite or PostgreSQL)"),
    ("servir:port", "Port to listen on (0: any free one)"),
    ("servir:address", "Address to listen on"),
    ("servir:data", "Data directory (the SQLite database lives there; created if missing)"),
    ("servir:db", "PostgreSQL database (postgres://user@host/db) instead of SQLite"),
    ("servir:engine_threads", "Engine searches at once (default: as many as cores)"),
    ("servir:teachers", "Mark the account NAME as a teacher (may create classes); repeatable"),
    ("servir:any_teacher", "Any account (not a pupil's) may create classes"),
    ("servir:analysis_engine", "UCI engine that analyses games instead of escaque's own (path)"),
    ("servir:analysis_depth", "Depth of the analyses, in plies (default: escaque's analysis depth)"),
    ("servir:analysis_workers", "Analyses at once, one thread each (default: cores minus one, at least 1)"),
    ("servir:node", "This process's unique name among the processes of one PostgreSQL database (default: the host's name)"),
    ("servir:advertise", "Where the other processes reach this one, HOST:PORT (default: the address it listens on)"),
    ("servir:lease_ms", "How long a game's lease lasts unless its owner renews it, in ms (default 10000)"),
    ("respaldo", "Back up a server's SQLite database, while it serves"),
    ("respaldo:data", "The server's data directory (that of `escaque servir --datos`)"),
    ("respaldo:file", "New file to write the backup to (an existing one is never overwritten)"),
    ("aprender", "Learn to play: the rules course, stage by stage (--texto)"),
    ("aprender:stage", "Stage to start from: its name (torre, enroque…) or its number (1-21)"),
    ("aprender:text", "Text mode: one line per answer, no full screen"),
    ("aprender:list", "List the course's stages and stop"),
    ("aprender:coords", "Coordinates trainer: name the marked square"),
    ("aprender:black", "With --coordenadas: the board seen from Black's side"),
    ("aprender:rounds", "With --coordenadas: how many squares to ask"),
    ("analizar", "Analyse PGN games with the engine: evaluation, marked mistakes and annotated PGN"),
    ("analizar:file", "PGN file with the games (standard input when missing or -)"),
    ("analizar:output", "File to write the annotated PGN to (standard output when missing)"),
    (
        "analizar:depth",
        "Search depth at each position, in plies (default: escaque's analysis depth)",
    ),
    ("analizar:nodes", "Nodes per position (instead of a depth)"),
    (
        "analizar:engine",
        "UCI engine that analyses instead of escaque's (e.g. /usr/games/stockfish)",
    ),
    ("problemas", "Puzzles from real games: find, import (lichess CSV) and play (full screen on a terminal, --texto for plain lines; your rating kept in ~/.local/share/escaque)"),
    ("problemas:text", "Text mode: one line per move or command, no full screen"),
    ("problemas:file", "CSV file of puzzles (lichess format) instead of escaque's"),
    ("problemas:theme", "Only the puzzles of this theme (lichess key: fork, mateIn2…)"),
    ("problemas:rating", "Your rating: the puzzles nearest to it first (by default your saved rating)"),
    ("problemas:kids", "The mates in 1 and 2 for children, proved by the rules library"),
    ("problemas:collection", "Your own collection (that of import); default ~/.local/share/escaque/problemas.csv"),
    ("problemas buscar", "Find puzzles in the games of a PGN file (lichess CSV format)"),
    ("problemas buscar:file", "PGN file with the games"),
    ("problemas buscar:output", "CSV file to write the puzzles to (standard output when missing)"),
    ("problemas buscar:nodes", "Nodes per position of the checks (multipv 2)"),
    ("problemas buscar:engine", "UCI engine that searches instead of escaque's (e.g. /usr/games/stockfish)"),
    ("problemas importar", "Add the puzzles of a lichess CSV file to your collection"),
    ("problemas importar:file", "CSV file with puzzles in lichess's format"),
    ("problemas importar:collection", "Collection to add them to; default ~/.local/share/escaque/problemas.csv"),
    ("jugar", "Play a game in the terminal (against the engine or between two people)"),
    ("jugar:white", "Who plays White: human | engine[:LEVEL] (LEVEL 1-10)"),
    ("jugar:black", "Who plays Black: human | engine[:LEVEL]"),
    ("jugar:clock", "Time control, e.g. 5+3 (minutes + seconds of increment)"),
    ("jugar:fen", "Start position in FEN"),
    ("jugar:odds", "Odds game: pawn (pawn and move) | knight | rook | queen"),
    ("jugar:rules", "Rules: fide | london1846 | london1846-english (stalemate wins)"),
    ("jugar:text", "Text mode: one line per move or command, no full screen"),
    ("jugar:ascii", "Pieces as letters instead of figurines"),
    ("jugar:chess960", "Chess960: starting position number N (0-959), at random without N"),
];

/// The language the command line asks for before clap reads it: `--idioma`
/// or `--lang` (`--idioma en`, `--lang=en`), else `LANG`. Arguments that
/// are not UTF-8 are passed over here (clap refuses those it reads as text).
pub fn lang_from_args<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Lang {
    let args: Vec<Option<&str>> = args.iter().map(|a| a.as_ref().to_str()).collect();
    let mut asked = None;
    for (i, a) in args.iter().enumerate() {
        let Some(a) = *a else { continue };
        for flag in ["--idioma", "--lang"] {
            if a == flag {
                asked = args.get(i + 1).copied().flatten();
            } else if let Some(v) = a.strip_prefix(flag).and_then(|r| r.strip_prefix('=')) {
                asked = Some(v);
            }
        }
    }
    match asked {
        Some(l) => Lang::from_locale(Some(l)),
        None => Lang::from_locale(std::env::var("LANG").ok().as_deref()),
    }
}

fn english(key: &str) -> Option<&'static str> {
    ENGLISH.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// `cmd` and all its subcommands with help in `lang`, built.
pub fn localize(cmd: Command, lang: Lang) -> Command {
    let mut cmd = localize_at(cmd, lang, "");
    cmd.build();
    match lang {
        Lang::Es => spanish_usage(cmd),
        Lang::En => cmd,
    }
}

/// clap writes `[OPTIONS]` in every usage line: Spanish says `[OPCIONES]`.
fn spanish_usage(mut cmd: Command) -> Command {
    let usage = cmd.render_usage().to_string();
    let usage = usage.strip_prefix("Usage: ").unwrap_or(&usage).to_string();
    cmd = cmd.override_usage(usage.replace("[OPTIONS]", "[OPCIONES]"));
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(&name, spanish_usage);
    }
    cmd
}

/// clap's own error for a command line it could not read, in `lang`: the
/// usual mistakes are said in Spanish; anything else (and every message in
/// English) is clap's text.
pub fn error_text(e: &clap::Error, lang: Lang) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if lang == Lang::En {
        return None;
    }
    let ctx = |k: ContextKind| match e.get(k) {
        Some(ContextValue::String(s)) => s.clone(),
        Some(ContextValue::Strings(v)) => v.join(", "),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    let usage = ctx(ContextKind::Usage);
    let usage = usage
        .trim_start_matches("Usage: ")
        .replace("[OPTIONS]", "[OPCIONES]");
    let what = match e.kind() {
        ErrorKind::MissingRequiredArgument => {
            format!(
                "falta un argumento obligatorio: {}",
                ctx(ContextKind::InvalidArg)
            )
        }
        ErrorKind::UnknownArgument => {
            format!("argumento desconocido: {}", ctx(ContextKind::InvalidArg))
        }
        ErrorKind::InvalidSubcommand => {
            format!("orden desconocida: {}", ctx(ContextKind::InvalidSubcommand))
        }
        ErrorKind::ValueValidation => {
            // clap's reason comes from the value parser, such as "5000 is
            // not in 200..=2850".
            let why = std::error::Error::source(e)
                .map(|s| s.to_string().replace(" is not in ", " no está en "))
                .unwrap_or_default();
            format!(
                "valor no válido {:?} para {}: {why}",
                ctx(ContextKind::InvalidValue),
                ctx(ContextKind::InvalidArg)
            )
        }
        ErrorKind::InvalidValue => format!(
            "valor no válido {:?} para {}{}",
            ctx(ContextKind::InvalidValue),
            ctx(ContextKind::InvalidArg),
            match ctx(ContextKind::ValidValue) {
                v if v.is_empty() => String::new(),
                v => format!(" (valores posibles: {v})"),
            }
        ),
        ErrorKind::ArgumentConflict => {
            format!(
                "{} no se puede usar con {}",
                ctx(ContextKind::InvalidArg),
                ctx(ContextKind::PriorArg)
            )
        }
        ErrorKind::NoEquals
        | ErrorKind::TooManyValues
        | ErrorKind::TooFewValues
        | ErrorKind::WrongNumberOfValues => {
            format!(
                "número de valores incorrecto para {}",
                ctx(ContextKind::InvalidArg)
            )
        }
        _ => return None,
    };
    let usage = if usage.trim().is_empty() {
        String::new()
    } else {
        format!("\nUso: {usage}\n")
    };
    Some(format!(
        "error: {what}\n{usage}\nEscribe --ayuda para ver la ayuda.\n"
    ))
}

fn localize_at(mut cmd: Command, lang: Lang, path: &str) -> Command {
    let (usage, commands, options, arguments) = match lang {
        Lang::Es => ("Uso", "Órdenes", "Opciones", "Argumentos"),
        Lang::En => ("Usage", "Commands", "Options", "Arguments"),
    };
    cmd = cmd
        .help_template(format!(
            "{{before-help}}{{about-with-newline}}\n{usage}: {{usage}}\n\n{{all-args}}{{after-help}}"
        ))
        .subcommand_help_heading(commands)
        .subcommand_value_name(lang.pick("ORDEN", "COMMAND"))
        .disable_help_subcommand(true)
        .disable_help_flag(true)
        .arg({
            let help = Arg::new("help")
                .short('h')
                .long("help")
                .action(ArgAction::Help)
                .help(lang.pick("Muestra esta ayuda", "Show this help"));
            match lang {
                Lang::Es => help.visible_alias("ayuda"),
                Lang::En => help,
            }
        });
    if path.is_empty() {
        cmd = cmd.disable_version_flag(true).arg(
            Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::Version)
                .help(lang.pick("Muestra la versión", "Show the version")),
        );
    }
    if lang == Lang::En {
        if let Some(about) = english(path) {
            cmd = cmd.about(about);
        }
    }
    cmd = cmd.mut_args(|a| {
        let id = a.get_id().to_string();
        let heading = if a.is_positional() {
            arguments
        } else {
            options
        };
        let a = a.help_heading(heading);
        match (lang, english(&format!("{path}:{id}"))) {
            (Lang::En, Some(help)) => a.help(help),
            _ => a,
        }
    });
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        let sub_path = if path.is_empty() {
            name.clone()
        } else {
            format!("{path} {name}")
        };
        cmd = cmd.mut_subcommand(&name, |s| localize_at(s, lang, &sub_path));
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn walk(cmd: &Command, path: &str, out: &mut Vec<String>) {
        out.push(path.to_string());
        for a in cmd.get_arguments() {
            let id = a.get_id().as_str();
            if !matches!(id, "help" | "version") {
                out.push(format!("{path}:{id}"));
            }
        }
        for s in cmd.get_subcommands() {
            let p = if path.is_empty() {
                s.get_name().to_string()
            } else {
                format!("{path} {}", s.get_name())
            };
            walk(s, &p, out);
        }
    }

    #[test]
    fn every_command_and_option_has_english_help() {
        let mut keys = Vec::new();
        walk(&crate::Cli::command(), "", &mut keys);
        let missing: Vec<&String> = keys.iter().filter(|k| english(k).is_none()).collect();
        assert!(missing.is_empty(), "no English help for {missing:?}");
    }

    fn render(lang: Lang, sub: &[&str]) -> String {
        let mut cmd = localize(crate::Cli::command(), lang);
        let mut c = &mut cmd;
        for s in sub {
            c = c.find_subcommand_mut(s).unwrap();
        }
        c.render_long_help().to_string()
    }

    #[test]
    fn spanish_help_is_all_spanish_and_english_all_english() {
        for sub in [&[][..], &["jugar"], &["pgn"], &["pgn", "revisar"], &["uci"]] {
            let es = render(Lang::Es, sub);
            for english in [
                "Usage:",
                "Commands:",
                "Options:",
                "Arguments:",
                "Print help",
                "Print version",
            ] {
                assert!(!es.contains(english), "{english} in {sub:?}:\n{es}");
            }
            assert!(es.contains("Uso:"), "{es}");
            let en = render(Lang::En, sub);
            assert!(en.contains("Usage:"), "{en}");
            for spanish in ["Uso:", "Opciones", "Muestra", "Quién", "partida"] {
                assert!(!en.contains(spanish), "{spanish} in {sub:?}:\n{en}");
            }
        }
        assert!(render(Lang::Es, &[]).contains("Órdenes:"));
        assert!(render(Lang::En, &["jugar"]).contains("Who plays White"));
    }

    #[test]
    fn usual_mistakes_are_said_in_spanish() {
        let cmd = || localize(crate::Cli::command(), Lang::Es);
        let e = cmd()
            .try_get_matches_from(["escaque", "perft"])
            .unwrap_err();
        let t = error_text(&e, Lang::Es).unwrap();
        assert!(t.contains("falta un argumento obligatorio: <DEPTH>"), "{t}");
        assert!(t.contains("Uso: escaque perft"), "{t}");
        let e = cmd()
            .try_get_matches_from(["escaque", "--colores"])
            .unwrap_err();
        assert!(error_text(&e, Lang::Es)
            .unwrap()
            .contains("argumento desconocido: --colores"));
        let e = cmd()
            .try_get_matches_from(["escaque", "pgn", "convertir", "--notacion", "fr"])
            .unwrap_err();
        let t = error_text(&e, Lang::Es).unwrap();
        assert!(
            t.contains("valor no válido \"fr\"") && t.contains("es, en"),
            "{t}"
        );
        let e = cmd()
            .try_get_matches_from(["escaque", "perft", "x"])
            .unwrap_err();
        assert!(error_text(&e, Lang::Es)
            .unwrap()
            .contains("valor no válido"));
        assert_eq!(error_text(&e, Lang::En), None);
    }

    #[test]
    fn the_language_is_read_before_clap() {
        let args = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert_eq!(
            lang_from_args(&args("escaque --idioma en perft 1")),
            Lang::En
        );
        assert_eq!(lang_from_args(&args("escaque perft 1 --lang=en")), Lang::En);
        assert_eq!(lang_from_args(&args("escaque --idioma es")), Lang::Es);
    }
}
