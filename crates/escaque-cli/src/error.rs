//! Why a command failed, as a value: each subcommand returns a [`CliError`]
//! and `main` words it once, in the user's language, at the edge.

use std::io;

use escaque::clock::TimeControlError;
use escaque::rules::UnknownRuleSet;
use escaque::{FenError, Lang, Localized};
use escaque_play::ParsePlayerError;

/// A failed command.
#[derive(Debug)]
pub enum CliError {
    /// A FEN given on the command line is not a valid position.
    Fen(FenError),
    /// `--blancas` / `--negras` name no player.
    Player(ParsePlayerError),
    /// `--reglas` names no rule set.
    Rules(UnknownRuleSet),
    /// `--reloj` is not a time control.
    Clock(TimeControlError),
    /// `--ventaja` names no odds preset.
    Odds(String),
    /// An engine level out of 1–10.
    Level(u32),
    /// A file could not be opened or read.
    Open {
        /// The file.
        path: String,
        /// What the system said.
        error: io::Error,
    },
    /// A file could not be saved (a tournament, a printout).
    Save {
        /// The file.
        path: String,
        /// What the system said.
        error: io::Error,
    },
    /// Writing the output (or driving the terminal) failed.
    Write(io::Error),
    /// Reading standard input failed.
    Read(io::Error),
    /// Some FENs given to read were not valid.
    InvalidFens {
        /// How many.
        failed: usize,
        /// Of how many.
        total: usize,
    },
    /// The server could not start (its storage, or the address to listen on).
    Serve(escaque_server::StartError),
    /// A tournament command failed (a bad result, a player entered twice, a
    /// saved file that is not valid TRF…).
    Tournament(escaque_torneo::TorneoError),
    /// A team tournament command was refused (`escaque torneo --equipos`).
    Teams(escaque_torneo::teams::TeamError),
    /// A TRF file could not be read.
    Trf(escaque_torneo::TrfError),
    /// `escaque torneo generar` could not make the tournament asked for.
    Generate(escaque_torneo::generate::GenError),
    /// An opening book (`escaque uci --libro RUTA`) could not be read.
    Book(escaque_engine::book::BookError),
    /// A file that would be overwritten already exists.
    Exists(String),
    /// A Swiss tournament was created without its number of rounds.
    SwissNeedsRounds,
    /// `--baku` on a team tournament that is not a Swiss paired by match
    /// points (C.04.7 accelerates match points only).
    TeamBakuNeedsMatchPointSwiss,
    /// `--pdf` needs Chromium (or Chrome), and none was found.
    NoChromium,
    /// Chromium did not print a page to PDF.
    Pdf {
        /// The page.
        page: String,
        /// What Chromium said, or what went wrong.
        detail: String,
    },
    /// Some games of a PGN could not be converted.
    NotConverted {
        /// How many.
        failed: usize,
    },
    /// `--960 N` with N out of 0–959.
    Chess960Number(u16),
    /// `--960 N` and `--fen` together: two starting positions.
    FenAnd960,
    /// The analysis engine (`--motor-analisis`) failed.
    AnalysisEngine(escaque_analysis::uci_engine::UciError),
    /// An analysis failed.
    Analysis(escaque_analysis::AnalysisError),
    /// `escaque respaldo` made no backup.
    Backup(escaque_server::store::backup::BackupError),
    /// Some games of a PGN have errors.
    GamesWithErrors {
        /// How many.
        failed: usize,
        /// Of how many.
        total: usize,
    },
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Write(e)
    }
}

impl Localized for CliError {
    fn message(&self, lang: Lang) -> String {
        match self {
            CliError::Chess960Number(n) => match lang {
                Lang::Es => format!(
                    "no hay posición inicial de Chess960 número {n}: van de 0 a 959 (518 es la del ajedrez clásico)"
                ),
                Lang::En => format!(
                    "there is no Chess960 starting position number {n}: they go from 0 to 959 (518 is standard chess's)"
                ),
            },
            CliError::FenAnd960 => lang
                .pick(
                    "--960 N y --fen dan dos posiciones de partida: elija una (--960 sin número lee el FEN como Chess960)",
                    "--960 N and --fen give two starting positions: choose one (--960 without a number reads the FEN as Chess960)",
                )
                .into(),
            CliError::Fen(e) => format!(
                "{}: {}",
                lang.pick("FEN no válido", "invalid FEN"),
                e.message(lang)
            ),
            CliError::Player(e) => e.message(lang),
            CliError::Rules(UnknownRuleSet { text }) => lang.pick(
                format!("reglas {text:?}: escribe fide, londres1846 o londres1846-inglaterra"),
                format!("rules {text:?}: write fide, london1846 or london1846-english"),
            ),
            CliError::Clock(e) => format!(
                "{}: {}",
                lang.pick("reloj no válido", "invalid clock"),
                e.message(lang)
            ),
            CliError::Odds(v) => lang.pick(
                format!("ventaja {v:?}: escribe peon, caballo, torre o dama"),
                format!("odds {v:?}: write pawn, knight, rook or queen"),
            ),
            CliError::Level(n) => lang.pick(
                format!("nivel {n}: el nivel del motor va de 1 a 10"),
                format!("level {n}: engine levels go from 1 to 10"),
            ),
            CliError::Open { path, error } => format!(
                "{} {path}: {error}",
                lang.pick("no se puede abrir", "cannot open")
            ),
            CliError::Save { path, error } => format!(
                "{} {path}: {error}",
                lang.pick("no se pudo guardar", "could not save")
            ),
            CliError::Read(e) => format!("{}: {e}", lang.pick("no se pudo leer", "could not read")),
            CliError::InvalidFens { failed, total } => lang.pick(
                format!("{failed} de {total} FEN no válidos"),
                format!("{failed} of {total} FENs invalid"),
            ),
            CliError::Write(e) => format!(
                "{}: {e}",
                lang.pick("no se pudo escribir", "could not write")
            ),
            CliError::Serve(e) => format!(
                "{}: {e}",
                lang.pick(
                    "no se pudo arrancar el servidor",
                    "the server could not start"
                )
            ),
            CliError::Tournament(e) => e.message(lang),
            CliError::Teams(e) => e.message(lang),
            CliError::Trf(e) => e.message(lang),
            CliError::Generate(e) => e.message(lang),
            CliError::Book(e) => e.message(lang),
            CliError::Exists(path) => lang.pick(
                format!("{path} ya existe: no se sobrescribe"),
                format!("{path} already exists: not overwritten"),
            ),
            CliError::SwissNeedsRounds => lang
                .pick("un suizo necesita --rondas", "a Swiss needs --rounds")
                .to_string(),
            CliError::TeamBakuNeedsMatchPointSwiss => lang
                .pick(
                    "--baku solo acelera un suizo emparejado por puntos de encuentro (no un round robin, un Scheveningen ni --por-puntos-de-partida)",
                    "--baku only accelerates a Swiss paired by match points (not a round robin, a Scheveningen or --by-game-points)",
                )
                .to_string(),
            CliError::NoChromium => lang
                .pick(
                    "--pdf imprime con Chromium y no se encuentra: instala el paquete «chromium» o indica su ruta en ESCAQUE_CHROMIUM (las páginas HTML sí se han escrito)",
                    "--pdf prints with Chromium and none was found: install the 'chromium' package or give its path in ESCAQUE_CHROMIUM (the HTML pages were written)",
                )
                .to_string(),
            CliError::Pdf { page, detail } => lang.pick(
                format!("Chromium no pudo imprimir {page} en PDF: {detail}"),
                format!("Chromium could not print {page} to PDF: {detail}"),
            ),
            CliError::NotConverted { failed } => lang.pick(
                format!("{failed} partida(s) con errores no se convirtieron"),
                format!("{failed} game(s) with errors were not converted"),
            ),
            CliError::AnalysisEngine(e) => format!(
                "{}: {}",
                lang.pick("motor de análisis", "analysis engine"),
                e.message(lang)
            ),
            CliError::Analysis(e) => e.message(lang),
            CliError::Backup(e) => e.message(lang),
            CliError::GamesWithErrors { failed, total } => lang.pick(
                format!("{failed} de {total} partida(s) con errores"),
                format!("{failed} of {total} game(s) have errors"),
            ),
        }
    }
}
