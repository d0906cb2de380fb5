//! Any UCI engine as an [`crate::Evaluator`] (`--motor-analisis PATH`).
//!
//! The engine runs as a child process. A reader thread turns its standard
//! output into lines on a channel, so every wait has a deadline: an engine
//! that dies, hangs or talks nonsense gives a typed [`UciError`] (an
//! [`AnalysisError::Engine`] through the [`Evaluator`] trait), never a hang
//! and never a panic.
//!
//! Per position: `setoption name MultiPV` when the number of lines changes,
//! `setoption name UCI_Chess960` when the position's castling needs it,
//! `position fen …`, `go nodes N` (with [`Settings::nodes`]) or `go depth D` (escaque's
//! [`Settings::DEFAULT_DEPTH`] when neither is set),
//! then the last `info … multipv k score … pv …` of each line before
//! `bestmove`. Scores are turned to White's point of view and every move of
//! every line is checked against the rules (a line is cut at its first
//! illegal move). The engine is given the position alone: the game's
//! earlier positions reach an [`Evaluator`] as Zobrist keys, which UCI
//! cannot carry, so a UCI engine does not see repetitions.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use escaque::read::{read_move, Notation};
use escaque::{Color, Lang, Localized, Move, Position};

use crate::analyse::{AnalysisError, Evaluator, Line, Settings};
use crate::judge::Eval;

/// The longest line read from an engine; a longer one is cut (an engine
/// writing without end is stopped by the deadlines).
const MAX_LINE_BYTES: usize = 64 * 1024;

/// How long an engine may take.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// To answer `uci` with `uciok` and `isready` with `readyok`.
    pub handshake: Duration,
    /// To answer `go` with `bestmove`, per position.
    pub search: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(10),
            search: Duration::from_secs(300),
        }
    }
}

/// What went wrong with a UCI engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciError {
    /// The program could not be started.
    Spawn {
        /// The program.
        program: String,
        /// What the system said.
        error: String,
    },
    /// The engine's output ended (it exited or crashed).
    Died {
        /// What it was asked when it went.
        waiting_for: &'static str,
    },
    /// The engine did not answer in time.
    Timeout {
        /// The answer it did not give.
        waiting_for: &'static str,
        /// Seconds waited.
        seconds: u64,
    },
    /// Writing to the engine failed.
    Write(String),
    /// The engine answered `bestmove` without one line this module could
    /// read (no score, or a first move that is not legal).
    NoLine {
        /// The position, as FEN.
        fen: String,
        /// The `bestmove` line it sent.
        bestmove: String,
    },
}

impl UciError {
    fn wording(&self, lang: Lang) -> String {
        match self {
            UciError::Spawn { program, error } => lang.pick(
                format!("no se pudo arrancar el motor {program}: {error}"),
                format!("could not start the engine {program}: {error}"),
            ),
            UciError::Died { waiting_for } => lang.pick(
                format!("el motor terminó mientras se esperaba «{waiting_for}»"),
                format!("the engine exited while waiting for '{waiting_for}'"),
            ),
            UciError::Timeout {
                waiting_for,
                seconds,
            } => lang.pick(
                format!("el motor no respondió «{waiting_for}» en {seconds} s"),
                format!("the engine did not answer '{waiting_for}' within {seconds} s"),
            ),
            UciError::Write(e) => lang.pick(
                format!("no se pudo escribir al motor: {e}"),
                format!("could not write to the engine: {e}"),
            ),
            UciError::NoLine { fen, bestmove } => lang.pick(
                format!(
                    "el motor no dio ninguna línea legal con evaluación para {fen} ({bestmove:?})"
                ),
                format!("the engine gave no legal line with a score for {fen} ({bestmove:?})"),
            ),
        }
    }
}

impl Localized for UciError {
    fn message(&self, lang: Lang) -> String {
        self.wording(lang)
    }
}

impl std::fmt::Display for UciError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.wording(Lang::En))
    }
}

impl std::error::Error for UciError {}

impl From<UciError> for AnalysisError {
    fn from(e: UciError) -> AnalysisError {
        AnalysisError::Engine(e.to_string())
    }
}

/// A UCI engine run as a child process, evaluating positions.
pub struct UciEvaluator {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    reader: Option<JoinHandle<()>>,
    name: String,
    settings: Settings,
    timeouts: Timeouts,
    multipv: usize,
    chess960: bool,
    has_chess960_option: bool,
    /// After a failure the engine is not asked again.
    broken: Option<UciError>,
}

impl UciEvaluator {
    /// Starts the engine at `path` (no arguments) and completes the UCI
    /// handshake.
    pub fn spawn(path: &Path, settings: Settings) -> Result<UciEvaluator, AnalysisError> {
        Ok(UciEvaluator::start(
            path,
            &[],
            settings,
            Timeouts::default(),
        )?)
    }

    /// Starts `program` with `args` and completes the UCI handshake, with
    /// the given deadlines; the error is typed, for a caller that words it
    /// in its user's language.
    pub fn start(
        program: &Path,
        args: &[&str],
        settings: Settings,
        timeouts: Timeouts,
    ) -> Result<UciEvaluator, UciError> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| UciError::Spawn {
                program: program.display().to_string(),
                error: e.to_string(),
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(UciError::Spawn {
                program: program.display().to_string(),
                error: "no pipes".into(),
            });
        };
        let (tx, rx) = mpsc::channel();
        let reader = std::thread::Builder::new()
            .name("uci-reader".into())
            .spawn(move || read_lines(stdout, tx))
            .map_err(|e| UciError::Spawn {
                program: program.display().to_string(),
                error: e.to_string(),
            })?;
        let mut ev = UciEvaluator {
            child,
            stdin,
            lines: rx,
            reader: Some(reader),
            name: program
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "uci".into()),
            settings,
            timeouts,
            multipv: 1,
            chess960: false,
            has_chess960_option: false,
            broken: None,
        };
        ev.handshake()?;
        Ok(ev)
    }

    /// The error that broke this engine, if one did (for wording it in the
    /// user's language; [`Evaluator::evaluate`] gives it in English).
    pub fn error(&self) -> Option<&UciError> {
        self.broken.as_ref()
    }

    fn handshake(&mut self) -> Result<(), UciError> {
        self.send("uci")?;
        let deadline = Instant::now() + self.timeouts.handshake;
        loop {
            let line = self.next_line("uciok", deadline, None)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("uciok") => break,
                Some("id") if words.next() == Some("name") => {
                    let name = words.collect::<Vec<_>>().join(" ");
                    if !name.is_empty() {
                        self.name = name.chars().take(100).collect();
                    }
                }
                Some("option") => {
                    let rest: Vec<&str> = words.collect();
                    if rest.windows(2).any(|w| w == ["name", "UCI_Chess960"]) {
                        self.has_chess960_option = true;
                    }
                }
                _ => {}
            }
        }
        self.sync()
    }

    /// `isready` … `readyok`.
    fn sync(&mut self) -> Result<(), UciError> {
        self.send("isready")?;
        let deadline = Instant::now() + self.timeouts.handshake;
        loop {
            if self.next_line("readyok", deadline, None)?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    fn send(&mut self, command: &str) -> Result<(), UciError> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| UciError::Write(e.to_string()))
    }

    /// The next line before `deadline`. With `stop`, a raised flag sends
    /// `stop` once (the engine then answers `bestmove` soon).
    fn next_line(
        &mut self,
        waiting_for: &'static str,
        deadline: Instant,
        mut stop: Option<(&AtomicBool, &mut bool)>,
    ) -> Result<String, UciError> {
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(UciError::Timeout {
                    waiting_for,
                    seconds: self.timeout_for(waiting_for).as_secs(),
                });
            }
            let wait = (deadline - now).min(Duration::from_millis(50));
            match self.lines.recv_timeout(wait) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Disconnected) => return Err(UciError::Died { waiting_for }),
                Err(RecvTimeoutError::Timeout) => {
                    if let Some((flag, sent)) = stop.as_mut() {
                        if !**sent && flag.load(Ordering::Relaxed) {
                            **sent = true;
                            self.send("stop")?;
                        }
                    }
                }
            }
        }
    }

    fn timeout_for(&self, waiting_for: &str) -> Duration {
        if waiting_for == "bestmove" {
            self.timeouts.search
        } else {
            self.timeouts.handshake
        }
    }

    /// The lines of `pos`; `after_bestmove`: this is the second search, of
    /// the position after a `bestmove` that came without lines.
    fn search(
        &mut self,
        pos: &Position,
        lines: usize,
        stop: &AtomicBool,
        after_bestmove: bool,
    ) -> Result<Vec<Line>, EvalFailure> {
        let lines = lines.clamp(1, 256);
        let chess960 = pos.has_chess960_castling();
        let mut changed = false;
        if lines != self.multipv {
            self.send(&format!("setoption name MultiPV value {lines}"))?;
            self.multipv = lines;
            changed = true;
        }
        if chess960 != self.chess960 && (self.has_chess960_option || chess960) {
            self.send(&format!("setoption name UCI_Chess960 value {chess960}"))?;
            self.chess960 = chess960;
            changed = true;
        }
        if changed {
            self.sync()?;
        }
        let fen = pos.to_fen();
        self.send(&format!("position fen {fen}"))?;
        let go = match (self.settings.nodes, self.settings.effective_depth()) {
            (Some(n), _) => format!("go nodes {n}"),
            (None, d) => format!("go depth {}", d.unwrap_or(Settings::DEFAULT_DEPTH)),
        };
        self.send(&go)?;
        let deadline = Instant::now() + self.timeouts.search;
        let mut stop_sent = false;
        let mut found: Vec<Option<Line>> = vec![None; lines];
        let bestmove = loop {
            let line = self.next_line("bestmove", deadline, Some((stop, &mut stop_sent)))?;
            let line = line.trim();
            if line.starts_with("bestmove") {
                break line.to_string();
            }
            if let Some((k, l)) = parse_info(pos, line) {
                if let Some(slot) = found.get_mut(k - 1) {
                    *slot = Some(l);
                }
            }
        };
        if stop_sent {
            return Err(EvalFailure::Stopped);
        }
        let out: Vec<Line> = found.into_iter().flatten().collect();
        if !out.is_empty() {
            return Ok(out);
        }
        // Some engines answer a position with one legal move (or a move
        // they know) at once, with no `info`: the evaluation is then the
        // one of the position after their move, searched once more.
        let best = bestmove
            .split_whitespace()
            .nth(1)
            .and_then(|t| read_move(pos, t, Notation::Uci).ok());
        match best {
            Some(m) if !after_bestmove => {
                let mut next = *pos;
                next.play_unchecked(m);
                let eval = if next.is_checkmate() {
                    Eval::Mate(if pos.turn() == Color::White { 1 } else { -1 })
                } else if next.legal_moves().is_empty() {
                    Eval::Cp(0)
                } else {
                    let child = self.search(&next, 1, stop, true)?;
                    let eval = child[0].eval;
                    // One move more to a mate for the side that mates.
                    match eval {
                        Eval::Mate(n) if (n > 0) == (pos.turn() == Color::White) => {
                            Eval::Mate(n + n.signum())
                        }
                        e => e,
                    }
                };
                Ok(vec![Line {
                    eval,
                    moves: vec![m],
                    depth: 1,
                }])
            }
            _ => Err(UciError::NoLine { fen, bestmove }.into()),
        }
    }
}

enum EvalFailure {
    Engine(UciError),
    Stopped,
}

impl From<UciError> for EvalFailure {
    fn from(e: UciError) -> EvalFailure {
        EvalFailure::Engine(e)
    }
}

impl Evaluator for UciEvaluator {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn settings(&self) -> Settings {
        self.settings
    }

    fn evaluate(
        &mut self,
        pos: &Position,
        _history: &[u64],
        lines: usize,
        stop: &AtomicBool,
    ) -> Result<Vec<Line>, AnalysisError> {
        if let Some(e) = &self.broken {
            return Err(e.clone().into());
        }
        if stop.load(Ordering::Relaxed) {
            return Err(AnalysisError::Stopped);
        }
        // A position with no legal move has no line: the engine is not asked
        // (engines answer it in different ways, `bestmove (none)` or `0000`).
        if pos.legal_moves().is_empty() {
            return Ok(Vec::new());
        }
        match self.search(pos, lines, stop, false) {
            Ok(l) => Ok(l),
            Err(EvalFailure::Stopped) => Err(AnalysisError::Stopped),
            Err(EvalFailure::Engine(e)) => {
                self.broken = Some(e.clone());
                let _ = self.child.kill();
                Err(e.into())
            }
        }
    }
}

impl Drop for UciEvaluator {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // A well-behaved engine exits at `quit`; any other is killed.
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
            }
        }
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}

/// Sends the engine's output, line by line, until it ends.
fn read_lines(stdout: std::process::ChildStdout, tx: mpsc::Sender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // Read at most MAX_LINE_BYTES of one line; the rest of it is dropped.
        let mut limited = (&mut reader).take(MAX_LINE_BYTES as u64);
        match limited.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE_BYTES {
            let mut skip = Vec::new();
            if reader.read_until(b'\n', &mut skip).is_err() {
                return;
            }
        }
        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
        if tx.send(line).is_err() {
            return;
        }
    }
}

/// Reads an `info` line that carries a score and a principal variation:
/// its `multipv` number (1 when absent) and the line, the score turned to
/// White's point of view and the moves checked (cut at the first that is
/// not legal; `None` when the first is not; the king taking its own rook
/// is read as castling, so both castling notations are understood). Bounds (`lowerbound`,
/// `upperbound`) are not final scores and are skipped.
pub fn parse_info(pos: &Position, text: &str) -> Option<(usize, Line)> {
    let mut words = text.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let mut depth = 0u32;
    let mut multipv = 1usize;
    let mut score: Option<Eval> = None;
    let mut pv: Vec<&str> = Vec::new();
    while let Some(w) = words.next() {
        match w {
            "depth" => depth = words.next()?.parse().ok()?,
            "multipv" => multipv = words.next()?.parse().ok()?,
            "score" => {
                let kind = words.next()?;
                let n: i32 = words.next()?.parse().ok()?;
                score = Some(match kind {
                    "cp" => Eval::Cp(n.clamp(-100_000, 100_000)),
                    "mate" if n != 0 => Eval::Mate(n),
                    _ => return None,
                });
            }
            "lowerbound" | "upperbound" => return None,
            // `string` runs to the end of the line; `pv` is last in practice,
            // and is read to the end of the line too.
            "string" => return None,
            "pv" => {
                pv = words.by_ref().collect();
            }
            _ => {}
        }
    }
    let score = score?;
    if multipv == 0 || pv.is_empty() {
        return None;
    }
    let mut p = *pos;
    let mut moves: Vec<Move> = Vec::with_capacity(pv.len());
    for text in pv {
        let Ok(m) = read_move(&p, text, Notation::Uci) else {
            break;
        };
        p.play_unchecked(m);
        moves.push(m);
    }
    if moves.is_empty() {
        return None;
    }
    let eval = match pos.turn() {
        Color::White => score,
        Color::Black => match score {
            Eval::Cp(c) => Eval::Cp(-c),
            Eval::Mate(m) => Eval::Mate(-m),
        },
    };
    Some((multipv, Line { eval, moves, depth }))
}

/// An evaluator searching `nodes` a position: the UCI engine at `uci`
/// (started with no arguments), or escaque's own engine without one.
pub fn evaluator_at_nodes(uci: Option<&Path>, nodes: u64) -> Result<Box<dyn Evaluator>, UciError> {
    let settings = Settings {
        depth: None,
        nodes: Some(nodes),
    };
    Ok(match uci {
        Some(path) => Box::new(UciEvaluator::start(
            path,
            &[],
            settings,
            Timeouts::default(),
        )?),
        None => Box::new(crate::analyse::EscaqueEvaluator::new(settings)),
    })
}
