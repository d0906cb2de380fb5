//! The UCI protocol over any reader and writer. The search runs on its own
//! thread, so `stop`, `ponderhit` and `isready` are answered while it thinks.
//!
//! ```
//! use escaque_engine::uci::Uci;
//! let mut out = Vec::new();
//! {
//!     let shared = std::sync::Arc::new(std::sync::Mutex::new(Vec::<u8>::new()));
//!     let mut uci = Uci::new(escaque_engine::uci::SharedBuf(shared.clone()));
//!     uci.handle_line("position startpos moves e2e4");
//!     uci.handle_line("go depth 3");
//!     uci.handle_line("quit");
//!     out.extend_from_slice(&shared.lock().unwrap());
//! }
//! assert!(String::from_utf8(out).unwrap().contains("bestmove "));
//! ```

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use escaque::coord::to_uci_in;
use escaque::read::{MoveError, Notation};
use escaque::{CastlingMode, FenError, Lang, Localized, Move, Position};

use crate::book::Book;
use crate::level::{MAX_ELO, MIN_ELO};
use crate::search::{Info, Limits, Report, Score};
use crate::tt::Bound;
use crate::{Engine, SearchResult};

/// A `Write` into a shared, growable buffer (for tests and in-process use).
#[derive(Clone, Default)]
pub struct SharedBuf(pub Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// How long a search with limits may go on after the input ended, before
/// it is stopped: the program ends within a second of its input.
pub const END_OF_INPUT_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

struct Running {
    handle: JoinHandle<Engine>,
    /// `go infinite` or `go ponder`: would never end by itself.
    endless: bool,
    /// A `go` with no limit at all: searches until `stop`.
    unlimited: bool,
    stop: Arc<AtomicBool>,
    ponder: Arc<AtomicBool>,
}

/// The UCI state machine. Feed it lines with [`Uci::handle_line`] or give it a
/// reader with [`Uci::run`].
pub struct Uci {
    out: Out,
    engine: Option<Engine>,
    running: Option<Running>,
    /// The position `go` searches, or why the last `position` command set none.
    position: Result<Position, PositionError>,
    history: Vec<u64>,
    show_wdl: bool,
    ponder_option: bool,
    debug: bool,
    /// `UCI_Chess960`: FENs read with Chess960 castling (X-FEN, Shredder-FEN)
    /// and castling written as the king taking its own rook (`e1h1`).
    chess960: bool,
    /// `OwnBook`: the engine plays from its book in the opening.
    own_book: bool,
    /// `BookFile`'s book, read when the option is set (the shipped book
    /// while it is `<empty>`).
    book: Arc<Book>,
}

/// Runs the UCI loop until `quit` or the end of `input`.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) {
    Uci::new(output).run(input);
}

const OPTIONS: &[&str] = &[
    "option name Hash type spin default 16 min 1 max 32768",
    "option name Threads type spin default 1 min 1 max 256",
    "option name MultiPV type spin default 1 min 1 max 256",
    "option name Ponder type check default false",
    "option name Move Overhead type spin default 30 min 0 max 5000",
    "option name UCI_LimitStrength type check default false",
    "option name UCI_ShowWDL type check default false",
    "option name UCI_Chess960 type check default false",
    "option name Skill Level type spin default 20 min 0 max 20",
    "option name Clear Hash type button",
    "option name BookFile type string default <empty>",
    "option name Use NNUE type check default true",
];

impl Uci {
    /// A protocol handler writing to `output`.
    pub fn new<W: Write + Send + 'static>(output: W) -> Uci {
        Uci::with_engine(Engine::new(), output)
    }

    /// A protocol handler for an engine already set up (e.g. with
    /// [`Engine::set_strength_setting`]). An engine given a book
    /// ([`Engine::set_book`]) starts with `OwnBook` on and that book.
    pub fn with_engine<W: Write + Send + 'static>(engine: Engine, output: W) -> Uci {
        let own_book = engine.book().is_some();
        let book = engine.book().cloned().unwrap_or_else(Book::shipped);
        Uci {
            own_book,
            book,
            out: Arc::new(Mutex::new(Box::new(output))),
            engine: Some(engine),
            running: None,
            position: Ok(Position::new()),
            history: Vec::new(),
            show_wdl: false,
            ponder_option: false,
            debug: false,
            chess960: false,
        }
    }

    /// Reads lines until `quit` or end of input. A line that is not UTF-8
    /// (a name in Latin-1 in a `setoption`) is reported with `info string`
    /// and skipped, and reading goes on. At the end of input the program
    /// ends within a second whatever is running: a search with limits is
    /// given [`END_OF_INPUT_GRACE`] to finish (so `echo "go depth 9" |
    /// escaque uci` answers in full), then it is stopped and its `bestmove`
    /// written; a search without end (`go`, `go infinite`, `go ponder`) is
    /// stopped at once.
    pub fn run<R: BufRead>(mut self, mut input: R) {
        let mut buf = Vec::new();
        let mut number = 0u64;
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            }
            number += 1;
            while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                buf.pop();
            }
            match std::str::from_utf8(&buf) {
                Ok(line) => {
                    if !self.handle_line(line) {
                        return;
                    }
                }
                Err(e) => self.say(&format!(
                    "info string line {number} is not UTF-8 (byte {}): skipped",
                    e.valid_up_to() + 1
                )),
            }
        }
        self.end_of_input();
    }

    /// The input ended: see [`Uci::run`].
    fn end_of_input(&mut self) {
        if let Some(r) = &self.running {
            let bounded = !r.endless && !r.unlimited;
            let deadline = std::time::Instant::now() + END_OF_INPUT_GRACE;
            while bounded && !r.handle.is_finished() && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
        self.finish_search(true);
    }

    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    /// Stops (if `stop`) and waits for a running search; its `bestmove` is printed.
    fn finish_search(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.stop.store(true, Ordering::Relaxed);
            }
            match r.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    self.say("info string the search thread failed; starting a fresh engine");
                    let mut engine = Engine::new();
                    engine.set_book(self.own_book.then(|| self.book.clone()));
                    self.engine = Some(engine);
                }
            }
        }
    }

    fn engine(&mut self) -> &mut Engine {
        self.finish_search(true);
        self.engine.get_or_insert_with(Engine::new)
    }

    /// Handles one line. Returns `false` after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        match cmd {
            "uci" => {
                self.say(&format!("id name escaque {}", env!("CARGO_PKG_VERSION")));
                self.say("id author escaque developers");
                self.say(&format!(
                    "option name OwnBook type check default {}",
                    self.own_book
                ));
                for o in OPTIONS {
                    self.say(o);
                }
                self.say(&format!(
                    "option name UCI_Elo type spin default {MAX_ELO} min {MIN_ELO} max {MAX_ELO}"
                ));
                self.say("uciok");
            }
            "isready" => self.say("readyok"),
            "debug" => match args.first() {
                Some(&"on") => {
                    self.debug = true;
                    self.say("info string debug on");
                }
                Some(&"off") => self.debug = false,
                _ => self.say("info string debug expects 'on' or 'off'"),
            },
            "ucinewgame" => {
                self.engine().clear_hash();
                self.position = Ok(Position::new());
                self.history.clear();
            }
            "setoption" => self.setoption(args),
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.finish_search(true),
            "ponderhit" => {
                if let Some(r) = &self.running {
                    r.ponder.store(false, Ordering::Relaxed);
                } else {
                    self.say("info string ponderhit without a ponder search");
                }
            }
            "quit" => {
                self.finish_search(true);
                return false;
            }
            "d" => match &self.position {
                Ok(pos) => {
                    let fen = pos.to_fen();
                    self.say(&format!("info string fen {fen}"));
                }
                Err(e) => self.say(&format!("info string no position: {e}")),
            },
            _ => {
                let shown: String = line.chars().take(80).collect();
                self.say(&format!("info string unknown command: {shown}"));
            }
        }
        true
    }

    fn setoption(&mut self, args: &[&str]) {
        let (name, value) = match args.first() {
            Some(&"name") => {
                let rest = &args[1..];
                match rest.iter().position(|t| t.eq_ignore_ascii_case("value")) {
                    Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
                    None => (rest.join(" "), None),
                }
            }
            _ => {
                self.say("info string setoption expects: setoption name <name> [value <value>]");
                return;
            }
        };
        let lname = name.to_ascii_lowercase();
        let value = value.unwrap_or_default();
        let num = value.trim().parse::<u64>();
        let boolean = match value.trim().to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => None,
        };
        let bad = |s: &Uci, what: &str| {
            s.say(&format!(
                "info string invalid value '{value}' for option {name}: {what}"
            ))
        };
        match lname.as_str() {
            "hash" => match num {
                Ok(mb) if (1..=32768).contains(&mb) => self.engine().set_hash(mb as usize),
                _ => bad(self, "expected 1..32768"),
            },
            "threads" => match num {
                Ok(n) if (1..=256).contains(&n) => self.engine().set_threads(n as usize),
                _ => bad(self, "expected 1..256"),
            },
            "multipv" => match num {
                Ok(n) if (1..=256).contains(&n) => self.engine().set_multipv(n as usize),
                _ => bad(self, "expected 1..256"),
            },
            "move overhead" => match num {
                Ok(n) if n <= 5000 => self.engine().set_move_overhead(n),
                _ => bad(self, "expected 0..5000"),
            },
            "skill level" => match num {
                Ok(n) if n <= 20 => self.engine().set_skill_level(n as u32),
                _ => bad(self, "expected 0..20"),
            },
            "uci_elo" => match num {
                Ok(n) if (MIN_ELO as u64..=MAX_ELO as u64).contains(&n) => {
                    let on = self.engine().options().limit_strength;
                    self.engine().set_limit_strength(on, n as u32);
                }
                _ => bad(self, "out of range"),
            },
            "uci_limitstrength" => match boolean {
                Some(b) => {
                    let elo = self.engine().options().elo;
                    self.engine().set_limit_strength(b, elo);
                }
                None => bad(self, "expected true or false"),
            },
            "ponder" => match boolean {
                Some(b) => self.ponder_option = b,
                None => bad(self, "expected true or false"),
            },
            "uci_showwdl" => match boolean {
                Some(b) => self.show_wdl = b,
                None => bad(self, "expected true or false"),
            },
            "uci_chess960" => match boolean {
                Some(b) => self.chess960 = b,
                None => bad(self, "expected true or false"),
            },
            "clear hash" => self.engine().clear_hash(),
            "ownbook" => match boolean {
                Some(b) => {
                    self.own_book = b;
                    self.apply_book();
                }
                None => bad(self, "expected true or false"),
            },
            "bookfile" => self.set_book_file(value.trim()),
            "use nnue" => match boolean {
                Some(b) => self.engine().set_nnue(b),
                None => bad(self, "expected true or false"),
            },
            _ => self.say(&format!("info string unknown option: {name}")),
        }
    }

    /// `BookFile`: `<empty>` (or nothing) is the shipped book; any other
    /// value a Polyglot file, read now. A file that cannot be read is said in
    /// an `info string` and the book in use is kept.
    fn set_book_file(&mut self, path: &str) {
        if path.is_empty() || path == "<empty>" {
            self.book = Book::shipped();
        } else {
            match Book::open(path) {
                Ok(book) => {
                    self.say(&format!(
                        "info string opening book {path}: {} entries",
                        book.len()
                    ));
                    self.book = Arc::new(book);
                }
                Err(e) => {
                    self.say(&format!(
                        "info string BookFile: {}; the book in use is kept",
                        e.message(Lang::En)
                    ));
                    return;
                }
            }
        }
        self.apply_book();
    }

    /// Gives the engine its book when `OwnBook` is on, none otherwise.
    fn apply_book(&mut self) {
        let book = self.own_book.then(|| self.book.clone());
        self.engine().set_book(book);
    }

    /// Sets the position and the game history from `position …`. A command
    /// that cannot be set in full (a bad FEN, an illegal or malformed move in
    /// the list) leaves no position at all: `go` must not search the previous
    /// one, nor the moves before the bad one, since the GUI's board is neither.
    fn set_position(&mut self, args: &[&str]) {
        self.history.clear();
        let mut relaxed = Vec::new();
        self.position = read_position(args, &mut self.history, &mut relaxed, self.chess960);
        for w in relaxed {
            // A position no game can reach is still played from: say what was
            // relaxed, as GUIs show `info string` lines to the user.
            self.say(&format!("info string {}", w.message(Lang::En)));
        }
        if let Err(e) = &self.position {
            self.history.clear();
            self.say(&format!(
                "info string {e}; no position is set until a valid 'position' command"
            ));
        }
    }

    /// Whether a search with `limits` ends by itself: a depth, nodes,
    /// mate, move time, or a clock for the side to move.
    fn limited(&self, limits: &Limits) -> bool {
        let clock = match self.position.as_ref().map(|p| p.turn()) {
            Ok(escaque::Color::White) => limits.wtime.is_some(),
            Ok(escaque::Color::Black) => limits.btime.is_some(),
            Err(_) => limits.wtime.is_some() || limits.btime.is_some(),
        };
        clock
            || limits.movetime.is_some()
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some()
    }

    fn go(&mut self, args: &[&str]) {
        let mut limits = Limits::default();
        let mut ponder = false;
        // A limit was given that could not be read (no number, not a
        // number, out of range): reported, and never taken as no limit.
        let mut unread = false;
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            // The value is the next word unless that word starts the next
            // parameter (`go movestogo movetime 100`).
            let value = args
                .get(i + 1)
                .copied()
                .filter(|t| !GO_KEYWORDS.contains(t));
            let mut number = |max: u64, negative_is_zero: bool| -> Option<u64> {
                let Some(v) = value else {
                    say(
                        &self.out,
                        &format!("info string go {key} expects a number; ignored"),
                    );
                    unread = true;
                    return None;
                };
                i += 1;
                match read_go_number(v, max, negative_is_zero) {
                    Some(n) => Some(n),
                    None => {
                        say(
                            &self.out,
                            &format!(
                                "info string go {key}: '{}' is not a number from 0 to {max}; ignored",
                                v.chars().take(40).collect::<String>()
                            ),
                        );
                        unread = true;
                        None
                    }
                }
            };
            match key {
                // Times may come negative from a GUI whose clock ran out: 0.
                "wtime" => limits.wtime = number(u64::MAX, true).or(limits.wtime),
                "btime" => limits.btime = number(u64::MAX, true).or(limits.btime),
                "winc" => limits.winc = number(u64::MAX, true).or(limits.winc),
                "binc" => limits.binc = number(u64::MAX, true).or(limits.binc),
                "movetime" => limits.movetime = number(u64::MAX, false).or(limits.movetime),
                "nodes" => limits.nodes = number(u64::MAX, false).or(limits.nodes),
                "movestogo" | "depth" | "mate" => {
                    let v = number(u32::MAX.into(), false).map(|x| x as u32);
                    match key {
                        "movestogo" => limits.movestogo = v.or(limits.movestogo),
                        "depth" => limits.depth = v.or(limits.depth),
                        _ => limits.mate = v.or(limits.mate),
                    }
                }
                "infinite" => limits.infinite = true,
                "ponder" => ponder = true,
                "searchmoves" => {
                    while let Some(&text) = args.get(i + 1).filter(|t| !GO_KEYWORDS.contains(t)) {
                        i += 1;
                        let Ok(pos) = &self.position else { continue };
                        match read_move(pos, text) {
                            Ok(m) => limits.searchmoves.push(m),
                            Err(e) => self.say(&format!(
                                "info string go searchmoves: {}; ignored",
                                move_error_text(&e)
                            )),
                        }
                    }
                }
                other => self.say(&format!(
                    "info string go: unknown parameter '{other}' ignored"
                )),
            }
            i += 1;
        }
        if limits.mate.is_some() && limits.depth.is_none() {
            limits.depth = limits.mate.map(|m| (2 * m).max(1));
        }
        // A plain `go` searches until `stop`, as the protocol has it; a `go`
        // whose limits could not be read does not: without any limit left
        // for the side to move it searches one ply and answers at once.
        if unread && !limits.infinite && !ponder && !self.limited(&limits) {
            self.say("info string go: no limit could be read; searching depth 1, not without end");
            limits.depth = Some(1);
        }
        // Without a position the answer is `bestmove (none)`, not a move of an
        // older position that the GUI's board does not have. `(none)` rather
        // than the null move `0000`: it is what Stockfish answers when it has
        // no move to give, and what GUIs read as "no move" (python-chess's
        // engine module maps `(none)` to no move, but plays `0000` as a null
        // move on its board). It is written at once; only after `go infinite`
        // or `go ponder` does it wait, as the protocol requires, for `stop`
        // or `ponderhit` (through the search thread, which then searches
        // nothing).
        let pos = match &self.position {
            Ok(p) => Some(*p),
            Err(e) => {
                let e = e.to_string();
                self.finish_search(true);
                self.say(&format!("info string no position to search: {e}"));
                if !(limits.infinite || ponder) {
                    self.say("bestmove (none)");
                    return;
                }
                None
            }
        };
        let mut engine = match self.engine.take() {
            Some(e) => e,
            None => {
                self.finish_search(true);
                self.engine.take().unwrap_or_default()
            }
        };
        let stop = Arc::new(AtomicBool::new(false));
        let ponder_flag = Arc::new(AtomicBool::new(ponder));
        let out = self.out.clone();
        let history = self.history.clone();
        let show_wdl = self.show_wdl;
        let chess960 = self.chess960;
        let infinite = limits.infinite;
        let unlimited = !self.limited(&limits);
        let (stop2, ponder2) = (stop.clone(), ponder_flag.clone());
        let handle = std::thread::spawn(move || {
            let root = pos.unwrap_or_default();
            let mut report = |r: Report| match r {
                Report::Line(info) => say(&out, &format_info_in(info, show_wdl, &root, chess960)),
                Report::CurrMove { depth, mv, number } => say(
                    &out,
                    &format!(
                        "info depth {depth} currmove {} currmovenumber {number}",
                        to_uci_in(&root, mv, chess960)
                    ),
                ),
            };
            let result = match pos {
                Some(pos) => {
                    engine.search_with(&pos, &history, &limits, &stop2, Some(&ponder2), &mut report)
                }
                None => SearchResult::default(),
            };
            // UCI: after `go infinite` or `go ponder`, wait for `stop`/`ponderhit`.
            while (infinite || ponder2.load(Ordering::Relaxed)) && !stop2.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            if let (true, Some(m)) = (result.book, result.best_move) {
                say(
                    &out,
                    &format!("info string book move {}", to_uci_in(&root, m, chess960)),
                );
            }
            let line = match result.best_move {
                Some(m) => {
                    let best = to_uci_in(&root, m, chess960);
                    let mut after = root;
                    after.play_unchecked(m);
                    match result.ponder {
                        Some(p) => {
                            format!("bestmove {best} ponder {}", to_uci_in(&after, p, chess960))
                        }
                        None => format!("bestmove {best}"),
                    }
                }
                None => "bestmove (none)".to_string(),
            };
            say(&out, &line);
            engine
        });
        self.running = Some(Running {
            handle,
            endless: infinite || ponder,
            unlimited,
            stop,
            ponder: ponder_flag,
        });
        if self.debug {
            let ponder_option = self.ponder_option;
            if let Ok(pos) = &self.position {
                self.say(&format!(
                    "info string debug: searching {} (Ponder option {ponder_option})",
                    pos.to_fen()
                ));
            }
        }
    }
}

/// A number of a `go` parameter: a decimal from 0 to `max` (a leading `+`
/// allowed); below 0 it is 0 where `negative_is_zero` (clock times), else
/// refused; beyond `max` refused, never wrapped or cut.
fn read_go_number(text: &str, max: u64, negative_is_zero: bool) -> Option<u64> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if let Some(neg) = digits.strip_prefix('-') {
        let ok = !neg.is_empty() && neg.bytes().all(|b| b.is_ascii_digit());
        return (ok && negative_is_zero).then_some(0);
    }
    digits.parse::<u64>().ok().filter(|&n| n <= max)
}

/// The words that start a parameter of `go` (they end a `searchmoves` list).
const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// Why a `position` command set no position.
#[derive(Clone, Debug, PartialEq)]
enum PositionError {
    /// Neither `startpos` nor `fen …` after `position`.
    Syntax,
    /// The FEN was refused.
    Fen(FenError),
    /// A move of the `moves` list is malformed or illegal.
    Move {
        /// Its number in the list, from 1.
        number: usize,
        /// Why it is not a legal move there.
        error: MoveError,
    },
    /// A null move `0000` while the side to move is in check.
    NullMoveInCheck {
        /// Its number in the list, from 1.
        number: usize,
    },
}

/// In English: UCI is an English protocol.
impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Syntax => f.write_str(
                "position expects 'startpos' or 'fen <FEN>', then optionally 'moves ...'",
            ),
            PositionError::Fen(e) => write!(f, "invalid FEN: {}", e.message(Lang::En)),
            PositionError::Move { number, error } => {
                write!(f, "move {number} of the list: {}", move_error_text(error))
            }
            PositionError::NullMoveInCheck { number } => write!(
                f,
                "move {number} of the list: the null move 0000 is not possible while in check"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

/// Reads the arguments of `position` into the position they describe,
/// pushing the Zobrist key of every position before it onto `history`.
/// The FEN is read as a playable position (`Position::from_fen_playable`):
/// the perft suites' unreachable positions are set, and what was relaxed is
/// left in `relaxed`. With `chess960` (the `UCI_Chess960` option) the
/// castling field may be X-FEN or Shredder-FEN. A move `0000` is the null
/// move (python-chess sends it): a pass, refused only when the side to move
/// is in check.
fn read_position(
    args: &[&str],
    history: &mut Vec<u64>,
    relaxed: &mut Vec<escaque::FenWarning>,
    chess960: bool,
) -> Result<Position, PositionError> {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let moves_at = args.iter().position(|t| *t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &args[args.len()..]),
    };
    let mut pos = match setup.first() {
        Some(&"startpos") => Position::new(),
        Some(&"fen") => {
            let (pos, warnings) = Position::from_fen_playable_with(&setup[1..].join(" "), mode)
                .map_err(PositionError::Fen)?;
            *relaxed = warnings;
            pos
        }
        _ => return Err(PositionError::Syntax),
    };
    for (i, text) in moves.iter().enumerate() {
        if *text == "0000" {
            let next = pos
                .null_move()
                .ok_or(PositionError::NullMoveInCheck { number: i + 1 })?;
            history.push(pos.zobrist());
            pos = next;
            continue;
        }
        let m = read_move(&pos, text).map_err(|error| PositionError::Move {
            number: i + 1,
            error,
        })?;
        history.push(pos.zobrist());
        pos.play_unchecked(m);
    }
    Ok(pos)
}

/// A move in UCI notation (`e2e4`, `e1g1`, `e7e8q`), legal in `pos`, read by
/// the rules library's one move reader. Upper case is accepted as well
/// (`E1G1`, `e7e8Q`: some programs send the promotion letter in upper case);
/// an error quotes the text as it was sent.
fn read_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    escaque::read::read_move(pos, &text.to_ascii_lowercase(), Notation::Uci).map_err(|e| match e {
        MoveError::Unknown { .. } => MoveError::Unknown { text: text.into() },
        MoveError::Illegal { mv, reason, .. } => MoveError::Illegal {
            text: text.into(),
            mv,
            reason,
        },
        other => other,
    })
}

/// Why a UCI move text is not a legal move, in English and in UCI's own
/// terms (the library's wording suggests SAN examples, and repeats the move).
fn move_error_text(e: &MoveError) -> String {
    match e {
        MoveError::Unknown { text } => {
            format!("{text:?} is not a UCI move (such as e2e4, e1g1, e7e8q)")
        }
        MoveError::Illegal { text, reason, .. } => {
            format!("{text:?} is illegal: {}", reason.message(Lang::En))
        }
        e => e.message(Lang::En),
    }
}

/// Win/draw/loss per mille for a score, from a logistic model.
pub fn wdl(score: i32) -> (u32, u32, u32) {
    match Score::from_internal(score) {
        Score::Mate(m) if m > 0 => (1000, 0, 0),
        Score::Mate(_) => (0, 0, 1000),
        Score::Cp(cp) => {
            let f = |x: f64| 1000.0 / (1.0 + ((200.0 - x) / 80.0).exp());
            let w = f(cp as f64).round() as u32;
            let l = f(-cp as f64).round() as u32;
            (w, 1000 - w - l, l)
        }
    }
}

/// Formats an `info` line, its principal variation in standard chess's UCI
/// notation.
pub fn format_info(info: &Info, show_wdl: bool) -> String {
    format_info_in(info, show_wdl, &Position::new(), false)
}

/// Formats an `info` line for a search of `root`; with `chess960` castling in
/// the principal variation is written as the king taking its own rook.
pub fn format_info_in(info: &Info, show_wdl: bool, root: &Position, chess960: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score ",
        info.depth, info.seldepth, info.multipv
    );
    match Score::from_internal(info.score) {
        Score::Cp(cp) => s.push_str(&format!("cp {cp}")),
        Score::Mate(m) => s.push_str(&format!("mate {m}")),
    }
    match info.bound {
        Some(Bound::Lower) => s.push_str(" lowerbound"),
        Some(Bound::Upper) => s.push_str(" upperbound"),
        _ => {}
    }
    if show_wdl {
        let (w, d, l) = wdl(info.score);
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
    let nps = info.nodes * 1000 / info.time_ms.max(1);
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} time {} pv",
        info.nodes, nps, info.hashfull, info.time_ms
    ));
    let mut pos = *root;
    for &m in &info.pv {
        if chess960 {
            s.push(' ');
            s.push_str(&to_uci_in(&pos, m, true));
            pos.play_unchecked(m);
        } else {
            s.push_str(&format!(" {m}"));
        }
    }
    s
}
