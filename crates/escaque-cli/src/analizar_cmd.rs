//! `escaque analizar PARTIDAS.pgn [-o SALIDA.pgn] [--profundidad N]
//! [--nodos N] [--motor-analisis RUTA]` (English alias `analyse`): each game
//! of a PGN file analysed by escaque's engine (or any UCI engine) and
//! written back annotated — `[%eval …]` on every move, the marks as NAGs, a
//! comment in the language of `--idioma` ("Error grave. Era mejor Cxe5.")
//! and the engine's line as a variation, and the `[ECO]` and `[Opening]` of
//! the deepest named position the game reaches (the name the web page shows,
//! in the language of `--idioma`). A progress bar on standard error
//! when it is a terminal, and a summary of each game (accuracy and marks per
//! side). One position cache serves all the games of the file, so openings
//! they share are evaluated once.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;
use escaque::pgn::{write_game, PgnGame, PgnReader, PgnStyle};
use escaque::{Lang, Localized, Move};
use escaque_analysis::annotate::annotate;
use escaque_analysis::uci_engine::{Timeouts, UciEvaluator};
use escaque_analysis::{
    analyse_game, AnalysisError, Cache, EscaqueEvaluator, Evaluator, GameAnalysis, Progress,
    Settings, SideSummary,
};

use crate::error::CliError;

/// Positions the cache keeps (shared by all the games of a file).
const CACHE_POSITIONS: usize = 200_000;

#[derive(Args)]
pub struct AnalizarArgs {
    /// Archivo PGN con las partidas (entrada estándar si falta o es «-»).
    #[arg(value_name = "PARTIDAS.pgn")]
    pub file: Option<PathBuf>,
    /// Archivo donde escribir el PGN anotado (salida estándar si falta).
    #[arg(
        short = 'o',
        long = "salida",
        alias = "output",
        value_name = "SALIDA.pgn"
    )]
    pub output: Option<PathBuf>,
    /// Profundidad de la búsqueda en cada posición, en medias jugadas (por
    /// defecto, la del análisis de escaque).
    #[arg(long = "profundidad", alias = "depth", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Nodos por posición (en lugar de una profundidad).
    #[arg(long = "nodos", alias = "nodes", value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Motor UCI que analiza en lugar del de escaque (p. ej. /usr/games/stockfish).
    #[arg(
        long = "motor-analisis",
        alias = "analysis-engine",
        value_name = "RUTA"
    )]
    pub engine: Option<PathBuf>,
}

/// The engine that analyses: escaque's own or a UCI program.
enum AnyEvaluator {
    Own(Box<EscaqueEvaluator>),
    Uci(Box<UciEvaluator>),
}

impl AnyEvaluator {
    fn as_dyn(&mut self) -> &mut dyn Evaluator {
        match self {
            AnyEvaluator::Own(e) => e.as_mut(),
            AnyEvaluator::Uci(e) => e.as_mut(),
        }
    }

    /// The error of an analysis, typed when the UCI engine broke.
    fn error(&self, e: AnalysisError) -> CliError {
        match (self, &e) {
            (AnyEvaluator::Uci(u), AnalysisError::Engine(_)) => match u.error() {
                Some(typed) => CliError::AnalysisEngine(typed.clone()),
                None => CliError::Analysis(e),
            },
            _ => CliError::Analysis(e),
        }
    }
}

pub fn run(args: &AnalizarArgs, lang: Lang) -> Result<(), CliError> {
    let settings = match (args.depth, args.nodes) {
        (None, None) => Settings::default(),
        (depth, nodes) => Settings { depth, nodes },
    };
    let input: Box<dyn Read> = match &args.file {
        Some(p) if p.as_os_str() != "-" => {
            Box::new(File::open(p).map_err(|error| CliError::Open {
                path: p.display().to_string(),
                error,
            })?)
        }
        _ => Box::new(io::stdin().lock()),
    };
    let mut out: Box<dyn Write> = match &args.output {
        Some(p) => Box::new(BufWriter::new(File::create(p).map_err(|error| {
            CliError::Save {
                path: p.display().to_string(),
                error,
            }
        })?)),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let mut evaluator = match &args.engine {
        Some(path) => AnyEvaluator::Uci(Box::new(
            UciEvaluator::start(path, &[], settings, Timeouts::default())
                .map_err(CliError::AnalysisEngine)?,
        )),
        None => AnyEvaluator::Own(Box::new(EscaqueEvaluator::new(settings))),
    };
    let cache = Cache::new(CACHE_POSITIONS);
    let stop = AtomicBool::new(false);
    let show_progress = io::stderr().is_terminal();
    let mut reader = PgnReader::new(input);
    let (mut total, mut failed) = (0usize, 0usize);
    let mut text = String::new();
    while let Some(read) = reader.next_game() {
        total += 1;
        let mut game = match read {
            Ok(g) => g,
            Err(e) => {
                failed += 1;
                eprintln!("escaque: {}", e.message(lang));
                continue;
            }
        };
        for w in &game.warnings {
            eprintln!(
                "escaque: {}: {}",
                lang.pick("aviso", "warning"),
                w.message(lang)
            );
        }
        // A null move (`--`) is no move of a played game: the analysis
        // stops before it.
        let moves: Vec<Move> = game.mainline().take_while(|m| !m.is_null()).collect();
        let mut bar = ProgressBar::new(total, lang, show_progress);
        let analysed = analyse_game(
            &game.start,
            &moves,
            evaluator.as_dyn(),
            Some(&cache),
            &stop,
            &mut |p| bar.draw(p),
        );
        bar.clear();
        let analysis = match analysed {
            Ok(a) => a,
            Err(AnalysisError::IllegalMove(i)) => {
                failed += 1;
                eprintln!(
                    "escaque: {} {total}: {}",
                    lang.pick("partida", "game"),
                    AnalysisError::IllegalMove(i).message(lang)
                );
                continue;
            }
            Err(e) => {
                // The engine is gone: what was written stays written.
                out.flush().map_err(CliError::Write)?;
                return Err(evaluator.error(e));
            }
        };
        annotate(&mut game, &analysis, lang);
        text.clear();
        write_game(&mut text, &game, PgnStyle::export());
        // Each game is flushed before its summary: on a terminal they
        // alternate.
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => {}
            // The reader of the output has gone (`| head`): stop quietly.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(CliError::Write(e)),
        }
        eprintln!("{}", summary(total, &game, &analysis, lang));
    }
    match out.flush() {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
        Err(e) => return Err(CliError::Write(e)),
    }
    if failed > 0 {
        return Err(CliError::GamesWithErrors { failed, total });
    }
    Ok(())
}

/// One line about a game: its players, result and each side's accuracy and
/// marks.
pub fn summary(number: usize, game: &PgnGame, a: &GameAnalysis, lang: Lang) -> String {
    let name = |tag: &str, default: &'static str| match game.tag(tag) {
        Some(n) if !n.is_empty() && n != "?" => n.to_string(),
        _ => default.to_string(),
    };
    let white = name("White", lang.pick("Blancas", "White"));
    let black = name("Black", lang.pick("Negras", "Black"));
    format!(
        "{} {number} ({white} – {black}, {}): {} {}. {}: {}. {}: {}.",
        lang.pick("Partida", "Game"),
        game.result_text(),
        a.plies.len(),
        lang.pick("medias jugadas", "plies"),
        lang.pick("Blancas", "White"),
        side(&a.white, lang),
        lang.pick("Negras", "Black"),
        side(&a.black, lang),
    )
}

fn side(s: &SideSummary, lang: Lang) -> String {
    let count = |n: u32, es: (&str, &str), en: (&str, &str)| {
        let (one, many) = lang.pick(es, en);
        format!("{n} {}", if n == 1 { one } else { many })
    };
    let accuracy = match lang {
        Lang::Es => format!("precisión {:.1} %", s.accuracy).replace('.', ","),
        Lang::En => format!("accuracy {:.1}%", s.accuracy),
    };
    format!(
        "{accuracy}, {}, {}, {}, {} {}",
        count(
            s.inaccuracies,
            ("imprecisión", "imprecisiones"),
            ("inaccuracy", "inaccuracies")
        ),
        count(s.mistakes, ("error", "errores"), ("mistake", "mistakes")),
        count(
            s.blunders,
            ("error grave", "errores graves"),
            ("blunder", "blunders")
        ),
        lang.pick("pérdida media", "ACPL"),
        s.acpl,
    )
}

/// The progress of one game's analysis on standard error, redrawn in place
/// (only when standard error is a terminal).
struct ProgressBar {
    label: String,
    on: bool,
    drawn: bool,
}

impl ProgressBar {
    const WIDTH: usize = 30;

    fn new(game: usize, lang: Lang, on: bool) -> ProgressBar {
        ProgressBar {
            label: format!("{} {game}", lang.pick("Partida", "Game")),
            on,
            drawn: false,
        }
    }

    /// The bar's line: `Partida 2 [#######-------] 12/41`.
    fn line(&self, p: Progress) -> String {
        let total = p.total.max(1);
        let filled = (p.done.min(total) * Self::WIDTH) / total;
        format!(
            "{} [{}{}] {}/{}",
            self.label,
            "#".repeat(filled),
            "-".repeat(Self::WIDTH - filled),
            p.done,
            p.total
        )
    }

    fn draw(&mut self, p: Progress) {
        if !self.on {
            return;
        }
        let mut err = io::stderr().lock();
        let _ = write!(err, "\r{}", self.line(p));
        let _ = err.flush();
        self.drawn = true;
    }

    fn clear(&mut self) {
        if self.drawn {
            let mut err = io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
            self.drawn = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_bar_fills_with_the_positions() {
        let bar = ProgressBar::new(2, Lang::Es, false);
        let p = |done, total| Progress { done, total };
        assert_eq!(
            bar.line(p(0, 10)),
            format!("Partida 2 [{}] 0/10", "-".repeat(30))
        );
        assert_eq!(
            bar.line(p(5, 10)),
            format!("Partida 2 [{}{}] 5/10", "#".repeat(15), "-".repeat(15))
        );
        assert_eq!(
            ProgressBar::new(1, Lang::En, false).line(p(10, 10)),
            format!("Game 1 [{}] 10/10", "#".repeat(30))
        );
        // Nothing to do, or more done than said: never a panic.
        assert!(bar.line(p(0, 0)).ends_with("0/0"));
        assert!(bar.line(p(12, 10)).contains(&"#".repeat(30)));
    }

    #[test]
    fn the_summary_says_each_sides_accuracy_and_marks() {
        let game = escaque::pgn::PgnReader::new(
            "[White \"Ana\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n".as_bytes(),
        )
        .next_game()
        .unwrap()
        .unwrap();
        let side = |accuracy, blunders| SideSummary {
            accuracy,
            acpl: 12,
            inaccuracies: 1,
            mistakes: 2,
            blunders,
            ..SideSummary::default()
        };
        let a = GameAnalysis {
            engine: "escaque".into(),
            settings: Settings::default(),
            start_fen: escaque::Position::new().to_fen(),
            start_eval: None,
            start_wc: 0.0,
            plies: Vec::new(),
            white: side(91.25, 0),
            black: side(40.0, 1),
        };
        assert_eq!(
            summary(3, &game, &a, Lang::Es),
            "Partida 3 (Ana – Negras, 1-0): 0 medias jugadas. \
             Blancas: precisión 91,2 %, 1 imprecisión, 2 errores, 0 errores graves, pérdida media 12. \
             Negras: precisión 40,0 %, 1 imprecisión, 2 errores, 1 error grave, pérdida media 12."
        );
        assert_eq!(
            summary(3, &game, &a, Lang::En),
            "Game 3 (Ana – Black, 1-0): 0 plies. \
             White: accuracy 91.2%, 1 inaccuracy, 2 mistakes, 0 blunders, ACPL 12. \
             Black: accuracy 40.0%, 1 inaccuracy, 2 mistakes, 1 blunder, ACPL 12."
        );
    }
}
