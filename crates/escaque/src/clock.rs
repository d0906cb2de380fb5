//! Chess clocks: time controls and a two-sided clock driven by an injected
//! [`TimeSource`].
//!
//! A [`TimeControl`] is a list of [`Period`]s. Each has a time, an optional
//! number of moves to be made in it (the last one usually has none: "the rest of
//! the game"), and a [`Bonus`] per move: a Fischer increment, a Bronstein delay
//! or a simple (US) delay.
//!
//! ## Text forms
//!
//! Escaque's own form, for people (minutes for the time, seconds for the bonus):
//!
//! | text              | meaning                                                      |
//! |-------------------|--------------------------------------------------------------|
//! | `5`               | 5 minutes, sudden death                                      |
//! | `5+3`             | 5 minutes, Fischer increment of 3 s per move from move 1     |
//! | `5+d3`            | 5 minutes, simple (US) delay of 3 s                          |
//! | `5+b3`            | 5 minutes, Bronstein delay of 3 s                            |
//! | `30s+1`           | 30 seconds, increment of 1 s (a time with `s` is in seconds) |
//! | `40/90+30, 30+30` | 40 moves in 90 min, then 30 min for the rest, 30 s from move 1 (FIDE) |
//!
//! Periods are separated by commas; only the last may lack a move count. If the
//! last period has a move count, it repeats (`40/120` is 40 moves every two hours).
//!
//! The PGN `TimeControl` tag (PGN standard 9.6.1) is read and written with
//! [`TimeControl::from_pgn`] and [`TimeControl::to_pgn`]: seconds, periods
//! separated by `:`, as in `40/5400+30:1800+30`, `300+3`, `300`. PGN has no way to
//! write a delay; the sandglass form `*N` is not supported.
//!
//! ## Timing rules
//!
//! * Fischer: the increment is added to the mover's time each time they press
//!   the clock after a move, from move 1.
//! * Bronstein: after each move, the time used for it is given back, up to the
//!   delay.
//! * Simple delay: the clock waits for the delay before it starts counting down.
//! * A period's time is added when the player completes its last move (for
//!   `40/90+30, 30+30`: on pressing after the 40th move, 30 min are added and
//!   the 40th move's own increment as well).
//! * A flag falls when a running clock shows zero; it is noticed at the next
//!   reading ([`Clock::read`], [`Clock::press`]).
//!
//! ```
//! use std::sync::Arc;
//! use std::time::Duration;
//! use escaque::{Clock, Color, FakeTime, TimeControl};
//!
//! let tc: TimeControl = "40/90+30, 30+30".parse().unwrap();
//! assert_eq!(tc.to_pgn().unwrap(), "40/5400+30:1800+30");
//!
//! let time = FakeTime::new();
//! let mut clock = Clock::new(tc, Arc::new(time.clone()));
//! clock.start();
//! time.advance_secs(100);
//! clock.press().unwrap(); // White's first move: 100 s used, 30 s added
//! let r = clock.read();
//! assert_eq!(r.white, Duration::from_secs(5400 - 100 + 30));
//! assert_eq!(r.running, Some(Color::Black));
//! ```

use core::fmt;
use core::time::Duration;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::Color;

/// Where a clock gets the time from: a monotonic reading since some fixed
/// origin. The app uses [`MonotonicTime`]; tests use [`FakeTime`].
pub trait TimeSource: Send + Sync {
    /// The time since this source's origin. Never goes backwards.
    fn now(&self) -> Duration;
}

/// The system's monotonic clock.
#[derive(Clone, Debug)]
pub struct MonotonicTime {
    origin: Instant,
}

impl MonotonicTime {
    /// A source whose origin is now.
    pub fn new() -> MonotonicTime {
        MonotonicTime {
            origin: Instant::now(),
        }
    }
}

impl Default for MonotonicTime {
    fn default() -> MonotonicTime {
        MonotonicTime::new()
    }
}

impl TimeSource for MonotonicTime {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// A time source moved by hand, for tests and replays. Clones share the same
/// time.
#[derive(Clone, Debug, Default)]
pub struct FakeTime(Arc<Mutex<Duration>>);

impl FakeTime {
    /// A fake clock at time zero.
    pub fn new() -> FakeTime {
        FakeTime::default()
    }

    /// Moves the time forward by `d`.
    pub fn advance(&self, d: Duration) {
        let mut t = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *t += d;
    }

    /// Moves the time forward by `secs` seconds.
    pub fn advance_secs(&self, secs: u64) {
        self.advance(Duration::from_secs(secs));
    }
}

impl TimeSource for FakeTime {
    fn now(&self) -> Duration {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a player gets per move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Bonus {
    /// Nothing.
    None,
    /// Fischer increment, added after each move.
    Increment(Duration),
    /// Bronstein delay: the time used for a move is given back, up to this much.
    Bronstein(Duration),
    /// Simple (US) delay: the clock starts counting down only after this much.
    Delay(Duration),
}

/// One period of a time control.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// Moves to be made in this period; `None` for the rest of the game.
    pub moves: Option<u32>,
    /// The time for the period.
    pub time: Duration,
    /// The per-move bonus while in this period.
    pub bonus: Bonus,
}

/// A time control: one or more periods.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    periods: Vec<Period>,
}

/// Why a time-control text was refused. Columns count characters from 1 (for
/// [`TimeControl::new`], which has no text, the "column" is the period number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// The text is empty.
    Empty,
    /// A number was expected.
    BadNumber {
        /// The offending text.
        text: String,
        /// Where it starts.
        column: usize,
    },
    /// A bonus that is not `N`, `dN` or `bN`.
    BadBonus {
        /// The offending text.
        text: String,
        /// Where it starts.
        column: usize,
    },
    /// A period with no time and no bonus: the flag would fall at once.
    NoTime {
        /// Where the period starts.
        column: usize,
    },
    /// A period with a move count of zero.
    ZeroMoves {
        /// Where the period starts.
        column: usize,
    },
    /// A period for "the rest of the game" followed by another period.
    PeriodAfterRestOfGame {
        /// Where the extra period starts.
        column: usize,
    },
    /// The PGN sandglass form `*N` is not supported.
    Sandglass {
        /// Where it starts.
        column: usize,
    },
    /// A delay cannot be written in a PGN `TimeControl` tag.
    DelayNotInPgn,
}

impl TimeControl {
    /// A control from its periods. Every period but the last must have a move
    /// count; no move count may be zero; every period must give some time.
    pub fn new(periods: Vec<Period>) -> Result<TimeControl, TimeControlError> {
        if periods.is_empty() {
            return Err(TimeControlError::Empty);
        }
        for (i, p) in periods.iter().enumerate() {
            if p.moves == Some(0) {
                return Err(TimeControlError::ZeroMoves { column: i + 1 });
            }
            if p.moves.is_none() && i + 1 < periods.len() {
                return Err(TimeControlError::PeriodAfterRestOfGame { column: i + 2 });
            }
            if p.time.is_zero() && p.bonus == Bonus::None {
                return Err(TimeControlError::NoTime { column: i + 1 });
            }
        }
        Ok(TimeControl { periods })
    }

    fn single(time: Duration, bonus: Bonus) -> TimeControl {
        TimeControl {
            periods: vec![Period {
                moves: None,
                time,
                bonus,
            }],
        }
    }

    /// Sudden death: all moves in `time`.
    pub fn sudden_death(time: Duration) -> TimeControl {
        TimeControl::single(time, Bonus::None)
    }

    /// `time` plus a Fischer increment per move.
    pub fn fischer(time: Duration, increment: Duration) -> TimeControl {
        TimeControl::single(time, Bonus::Increment(increment))
    }

    /// `time` with a Bronstein delay.
    pub fn bronstein(time: Duration, delay: Duration) -> TimeControl {
        TimeControl::single(time, Bonus::Bronstein(delay))
    }

    /// `time` with a simple (US) delay.
    pub fn simple_delay(time: Duration, delay: Duration) -> TimeControl {
        TimeControl::single(time, Bonus::Delay(delay))
    }

    /// The FIDE standard: 40 moves in 90 minutes, then 30 minutes for the rest of
    /// the game, with 30 seconds added per move from move 1.
    pub fn fide_classical() -> TimeControl {
        let inc = Bonus::Increment(Duration::from_secs(30));
        TimeControl {
            periods: vec![
                Period {
                    moves: Some(40),
                    time: Duration::from_secs(90 * 60),
                    bonus: inc,
                },
                Period {
                    moves: None,
                    time: Duration::from_secs(30 * 60),
                    bonus: inc,
                },
            ],
        }
    }

    /// The periods.
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// The time each player starts with.
    pub fn initial_time(&self) -> Duration {
        self.periods[0].time
    }

    /// The index of the period a player is in after `moves_done` moves.
    pub fn period_index(&self, moves_done: u32) -> usize {
        let mut start = 0u32;
        for (i, p) in self.periods.iter().enumerate() {
            match p.moves {
                None => return i,
                Some(n) => {
                    if moves_done < start + n {
                        return i;
                    }
                    start += n;
                }
            }
        }
        // The last period has a move count: it repeats.
        self.periods.len() - 1
    }

    /// Moves still to be made before the next time control, after `moves_done`
    /// moves; `None` in a rest-of-game period.
    pub fn moves_to_control(&self, moves_done: u32) -> Option<u32> {
        let mut start = 0u32;
        for p in &self.periods {
            let n = p.moves?;
            if moves_done < start + n {
                return Some(start + n - moves_done);
            }
            start += n;
        }
        let n = self.periods.last()?.moves?;
        Some(n - (moves_done - start) % n)
    }

    /// The time added when a player has just completed `moves_done` moves, if
    /// that completes a period.
    fn time_added_after(&self, moves_done: u32) -> Option<Duration> {
        if self.moves_to_control(moves_done - 1) == Some(1) {
            let next = self.period_index(moves_done);
            Some(self.periods[next].time)
        } else {
            None
        }
    }

    /// Reads escaque's text form (see the module documentation).
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        if text.trim().is_empty() {
            return Err(TimeControlError::Empty);
        }
        let mut periods = Vec::new();
        let mut offset = 0;
        for part in text.split(',') {
            let lead = part.len() - part.trim_start().len();
            let col = char_column(text, offset + lead);
            let p = parse_period(part.trim(), col, false)?;
            if periods.last().is_some_and(|q: &Period| q.moves.is_none()) {
                return Err(TimeControlError::PeriodAfterRestOfGame { column: col });
            }
            periods.push(p);
            offset += part.len() + 1;
        }
        TimeControl::new(periods)
    }

    /// Reads a PGN `TimeControl` tag value. `Ok(None)` for `-` (no time
    /// control) and `?` (unknown).
    pub fn from_pgn(text: &str) -> Result<Option<TimeControl>, TimeControlError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(TimeControlError::Empty);
        }
        if t == "-" || t == "?" {
            return Ok(None);
        }
        let mut periods = Vec::new();
        let mut offset = 0;
        for part in text.split(':') {
            let lead = part.len() - part.trim_start().len();
            let col = char_column(text, offset + lead);
            if part.trim_start().starts_with('*') {
                return Err(TimeControlError::Sandglass { column: col });
            }
            let p = parse_period(part.trim(), col, true)?;
            if periods.last().is_some_and(|q: &Period| q.moves.is_none()) {
                return Err(TimeControlError::PeriodAfterRestOfGame { column: col });
            }
            periods.push(p);
            offset += part.len() + 1;
        }
        TimeControl::new(periods).map(Some)
    }

    /// Writes the PGN `TimeControl` tag value. Delays have no PGN form.
    pub fn to_pgn(&self) -> Result<String, TimeControlError> {
        let mut parts = Vec::new();
        for p in &self.periods {
            let mut s = String::new();
            if let Some(n) = p.moves {
                s.push_str(&format!("{n}/"));
            }
            s.push_str(&secs_text(p.time));
            match p.bonus {
                Bonus::None => {}
                Bonus::Increment(d) => {
                    s.push('+');
                    s.push_str(&secs_text(d));
                }
                Bonus::Bronstein(_) | Bonus::Delay(_) => {
                    return Err(TimeControlError::DelayNotInPgn);
                }
            }
            parts.push(s);
        }
        Ok(parts.join(":"))
    }
}

fn char_column(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())].chars().count() + 1
}

fn secs_text(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        d.as_secs().to_string()
    } else {
        format!("{}.{:03}", d.as_secs(), d.subsec_millis())
            .trim_end_matches('0')
            .to_string()
    }
}

fn parse_u64(text: &str, column: usize) -> Result<u64, TimeControlError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(TimeControlError::BadNumber {
            text: text.to_string(),
            column,
        });
    }
    text.parse::<u64>()
        .ok()
        .filter(|&n| n <= 10_000_000)
        .ok_or(TimeControlError::BadNumber {
            text: text.to_string(),
            column,
        })
}

/// `[N/]TIME[+BONUS]`; in PGN mode TIME and BONUS are seconds and the bonus is a
/// plain increment; otherwise TIME is minutes (or seconds with an `s`) and the
/// bonus is `N`, `dN` or `bN` seconds.
fn parse_period(part: &str, col: usize, pgn: bool) -> Result<Period, TimeControlError> {
    if part.is_empty() {
        return Err(TimeControlError::BadNumber {
            text: String::new(),
            column: col,
        });
    }
    let (moves, rest, rest_col) = match part.split_once('/') {
        Some((n, rest)) => {
            let n = parse_u64(n.trim(), col)?;
            if n == 0 {
                return Err(TimeControlError::ZeroMoves { column: col });
            }
            let skip = part.len() - rest.len();
            let rest_col = col + part[..skip].chars().count();
            let lead = rest.len() - rest.trim_start().len();
            (Some(n as u32), rest.trim(), rest_col + lead)
        }
        None => (None, part, col),
    };
    let (time_text, bonus_text) = match rest.split_once('+') {
        Some((t, b)) => (t.trim_end(), Some(b)),
        None => (rest, None),
    };
    let time = if pgn {
        Duration::from_secs(parse_u64(time_text, rest_col)?)
    } else if let Some(secs) = time_text.strip_suffix('s') {
        Duration::from_secs(parse_u64(secs.trim_end(), rest_col)?)
    } else {
        Duration::from_secs(parse_u64(time_text, rest_col)? * 60)
    };
    let bonus = match bonus_text {
        None => Bonus::None,
        Some(b) => {
            let bcol = rest_col + rest[..rest.len() - b.len()].chars().count();
            let lead = b.len() - b.trim_start().len();
            let b = b.trim();
            let bcol = bcol + lead;
            let b = b.strip_suffix('s').unwrap_or(b);
            let (kind, digits) = match b.chars().next() {
                Some('d') | Some('D') if !pgn => ('d', &b[1..]),
                Some('b') | Some('B') if !pgn => ('b', &b[1..]),
                Some(c) if c.is_ascii_digit() => ('i', b),
                _ => {
                    return Err(TimeControlError::BadBonus {
                        text: b.to_string(),
                        column: bcol,
                    })
                }
            };
            let secs = Duration::from_secs(parse_u64(digits, bcol + (kind != 'i') as usize)?);
            match kind {
                'd' => Bonus::Delay(secs),
                'b' => Bonus::Bronstein(secs),
                _ => Bonus::Increment(secs),
            }
        }
    };
    if time.is_zero() && matches!(bonus, Bonus::None) {
        return Err(TimeControlError::NoTime { column: col });
    }
    Ok(Period { moves, time, bonus })
}

impl fmt::Display for TimeControl {
    /// Escaque's text form: `5+3`, `40/90+30, 30+30`, `5+d3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.periods.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if let Some(n) = p.moves {
                write!(f, "{n}/")?;
            }
            let secs = p.time.as_secs();
            if secs % 60 == 0 {
                write!(f, "{}", secs / 60)?;
            } else {
                write!(f, "{secs}s")?;
            }
            match p.bonus {
                Bonus::None => {}
                Bonus::Increment(d) => write!(f, "+{}", d.as_secs())?,
                Bonus::Delay(d) => write!(f, "+d{}", d.as_secs())?,
                Bonus::Bronstein(d) => write!(f, "+b{}", d.as_secs())?,
            }
        }
        Ok(())
    }
}

impl core::str::FromStr for TimeControl {
    type Err = TimeControlError;
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        TimeControl::parse(s)
    }
}

/// A time as records write it (PGN's `[%clk]`, escaque's clock tags):
/// `H:MM:SS`, with the fraction of a second when there is one (`0:00:09.5`,
/// `1:02:03.25`), to the millisecond.
pub fn format_hms(d: Duration) -> String {
    let s = d.as_secs();
    let milli = d.subsec_millis();
    let whole = format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
    if milli == 0 {
        whole
    } else {
        let frac = format!("{milli:03}");
        format!("{whole}.{}", frac.trim_end_matches('0'))
    }
}

/// A time as a clock face shows it to a player: `1:05:00`, `4:59`, and
/// tenths under ten seconds (`9.8`).
pub fn format_clock(d: Duration) -> String {
    let secs = d.as_secs();
    if secs < 10 {
        format!("{}.{}", secs, d.subsec_millis() / 100)
    } else if secs < 3600 {
        format!("{}:{:02}", secs / 60, secs % 60)
    } else {
        format!("{}:{:02}:{:02}", secs / 3600, (secs / 60) % 60, secs % 60)
    }
}

/// Reads `H:MM:SS`, `MM:SS` or either with decimal seconds (`0:00:09.5`), as
/// in `[%clk]`. `None` if it is not such a time.
pub fn parse_hms(text: &str) -> Option<Duration> {
    let parts: Vec<&str> = text.trim().split(':').collect();
    if parts.len() < 2 || parts.len() > 3 {
        return None;
    }
    let mut secs = 0u64;
    for (i, p) in parts[..parts.len() - 1].iter().enumerate() {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || p.len() > 6 {
            return None;
        }
        let n = p.parse::<u64>().ok()?;
        if i > 0 && n >= 60 {
            return None;
        }
        secs = secs * 60 + n;
    }
    let last = parts[parts.len() - 1];
    let (whole, frac) = last.split_once('.').unwrap_or((last, ""));
    if whole.is_empty()
        || whole.len() > 2
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 9
    {
        return None;
    }
    let whole: u64 = whole.parse().ok()?;
    if whole >= 60 {
        return None;
    }
    let nanos = if frac.is_empty() {
        0
    } else {
        let padded = format!("{frac:0<9}");
        padded.parse::<u32>().ok()?
    };
    Some(Duration::new(secs * 60 + whole, nanos))
}

/// A look at the clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// White's remaining time.
    pub white: Duration,
    /// Black's remaining time.
    pub black: Duration,
    /// Whose clock is running, if any (none before the start, while paused and
    /// after a flag fall).
    pub running: Option<Color>,
    /// The side whose flag has fallen.
    pub flagged: Option<Color>,
    /// For a simple delay, how much of it is left before the running clock
    /// counts down.
    pub delay_left: Duration,
    /// Moves each side still has to make before its next time control
    /// (`None` in a rest-of-game period).
    pub moves_to_control: [Option<u32>; 2],
}

impl ClockReading {
    /// The remaining time of `color`.
    pub fn remaining(&self, color: Color) -> Duration {
        color.fold(self.white, self.black)
    }
}

/// A flag has fallen: `color` ran out of time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FlagFell {
    /// Who ran out of time.
    pub color: Color,
}

/// A two-sided chess clock.
#[derive(Clone)]
pub struct Clock {
    control: TimeControl,
    source: Arc<dyn TimeSource>,
    /// Remaining times at the start of the current turn (for the side to move)
    /// or now (for the other side).
    remaining: [Duration; 2],
    /// Moves completed (clock presses) by each side.
    moves: [u32; 2],
    /// The side whose clock runs, or would run.
    turn: Color,
    started: bool,
    paused: bool,
    /// Reading of the source when the current running stretch began.
    stretch_start: Duration,
    /// Time spent on the current turn before the current stretch (pauses).
    spent_before: Duration,
    flagged: Option<Color>,
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Clock")
            .field("control", &self.control.to_string())
            .field("remaining", &self.remaining)
            .field("moves", &self.moves)
            .field("turn", &self.turn)
            .field("started", &self.started)
            .field("paused", &self.paused)
            .field("flagged", &self.flagged)
            .finish()
    }
}

impl Clock {
    /// A clock set for `control`, not yet started, White to move.
    pub fn new(control: TimeControl, source: Arc<dyn TimeSource>) -> Clock {
        let t = control.initial_time();
        Clock {
            control,
            source,
            remaining: [t, t],
            moves: [0, 0],
            turn: Color::White,
            started: false,
            paused: false,
            stretch_start: Duration::ZERO,
            spent_before: Duration::ZERO,
            flagged: None,
        }
    }

    /// A clock set to given remaining times and move counts, with `turn` to
    /// move, not running (for resuming an adjourned game). Call
    /// [`Clock::start`] to run it.
    pub fn restored(
        control: TimeControl,
        source: Arc<dyn TimeSource>,
        remaining: [Duration; 2],
        moves: [u32; 2],
        turn: Color,
    ) -> Clock {
        let mut c = Clock::new(control, source);
        c.remaining = remaining;
        c.moves = moves;
        c.turn = turn;
        c
    }

    /// The time control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The side whose clock runs (or would run).
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Sets whose clock runs; only before the start (a game from a FEN with
    /// Black to move).
    pub fn set_turn(&mut self, color: Color) {
        if !self.started {
            self.turn = color;
        }
    }

    /// Moves completed by `color`.
    pub fn moves_made(&self, color: Color) -> u32 {
        self.moves[color.index()]
    }

    /// True once started.
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// True while paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The side whose flag has fallen, if noticed.
    pub fn flagged(&self) -> Option<Color> {
        self.flagged
    }

    /// Starts the clock of the side to move (does nothing if already started).
    pub fn start(&mut self) {
        if !self.started {
            self.started = true;
            self.paused = false;
            self.stretch_start = self.source.now();
            self.spent_before = Duration::ZERO;
        }
    }

    fn running(&self) -> bool {
        self.started && !self.paused && self.flagged.is_none()
    }

    fn turn_elapsed(&self, now: Duration) -> Duration {
        let mut e = self.spent_before;
        if self.running() {
            e += now.saturating_sub(self.stretch_start);
        }
        e
    }

    fn bonus_now(&self, color: Color) -> Bonus {
        self.control.periods[self.control.period_index(self.moves[color.index()])].bonus
    }

    /// Time charged to `color` for `elapsed` on its turn.
    fn charged(&self, color: Color, elapsed: Duration) -> Duration {
        match self.bonus_now(color) {
            Bonus::Delay(d) => elapsed.saturating_sub(d),
            _ => elapsed,
        }
    }

    fn reading_at(&self, now: Duration) -> ClockReading {
        let mut rem = self.remaining;
        let mut delay_left = Duration::ZERO;
        if self.flagged.is_none() {
            let c = self.turn;
            let elapsed = self.turn_elapsed(now);
            rem[c.index()] = rem[c.index()].saturating_sub(self.charged(c, elapsed));
            if let Bonus::Delay(d) = self.bonus_now(c) {
                delay_left = d.saturating_sub(elapsed);
            }
        }
        ClockReading {
            white: rem[0],
            black: rem[1],
            running: self.running().then_some(self.turn),
            flagged: self.flagged,
            delay_left,
            moves_to_control: [
                self.control.moves_to_control(self.moves[0]),
                self.control.moves_to_control(self.moves[1]),
            ],
        }
    }

    fn latch_flag(&mut self, now: Duration) -> Option<Color> {
        if self.flagged.is_none() && self.running() {
            let r = self.reading_at(now);
            if r.remaining(self.turn).is_zero() {
                self.flagged = Some(self.turn);
                self.remaining[self.turn.index()] = Duration::ZERO;
            }
        }
        self.flagged
    }

    /// Reads the clock without changing it (a flag that has fallen shows as
    /// zero time but is only recorded by [`Clock::read`] or [`Clock::press`]).
    pub fn peek(&self) -> ClockReading {
        self.reading_at(self.source.now())
    }

    /// Reads the clock, noticing a flag fall.
    pub fn read(&mut self) -> ClockReading {
        let now = self.source.now();
        self.latch_flag(now);
        self.reading_at(now)
    }

    /// The side to move has completed a move and presses the clock: its time is
    /// charged, its bonus given, a new period's time added when it completes a
    /// period, and the opponent's clock starts. If the flag had already fallen,
    /// nothing changes and the fall is reported. Starts the clock if it was not
    /// started (the move then costs nothing); resumes it if paused.
    pub fn press(&mut self) -> Result<(), FlagFell> {
        let now = self.source.now();
        if !self.started {
            self.start();
        }
        if self.paused {
            self.resume();
        }
        if let Some(color) = self.latch_flag(now) {
            return Err(FlagFell { color });
        }
        let c = self.turn;
        let i = c.index();
        let elapsed = self.turn_elapsed(now);
        let bonus = self.bonus_now(c);
        let mut rem = self.remaining[i].saturating_sub(self.charged(c, elapsed));
        match bonus {
            Bonus::Increment(inc) => rem += inc,
            Bonus::Bronstein(d) => rem += elapsed.min(d),
            Bonus::Delay(_) | Bonus::None => {}
        }
        self.moves[i] += 1;
        if let Some(extra) = self.control.time_added_after(self.moves[i]) {
            rem += extra;
        }
        self.remaining[i] = rem;
        self.turn = c.other();
        self.stretch_start = now;
        self.spent_before = Duration::ZERO;
        Ok(())
    }

    /// Stops the running clock (adjournment, arbiter's pause).
    pub fn pause(&mut self) {
        if self.running() {
            let now = self.source.now();
            if self.latch_flag(now).is_some() {
                return;
            }
            self.spent_before = self.turn_elapsed(now);
            self.paused = true;
        }
    }

    /// Restarts a paused clock.
    pub fn resume(&mut self) {
        if self.started && self.paused {
            self.paused = false;
            self.stretch_start = self.source.now();
        }
    }

    /// Adds time to `color` (an arbiter's correction, or the two minutes of
    /// FIDE 9.5.3 after an incorrect claim).
    pub fn add_time(&mut self, color: Color, d: Duration) {
        if self.flagged.is_none() {
            self.remaining[color.index()] += d;
        }
    }

    /// Takes back the last press (for taking back a move in a casual game): the
    /// remaining times and move counts become `snapshot`'s, and the side to move
    /// in it starts its turn now.
    pub(crate) fn restore_from(&mut self, snapshot: &ClockSnapshot) {
        self.remaining = snapshot.remaining;
        self.moves = snapshot.moves;
        self.turn = snapshot.turn;
        self.flagged = None;
        self.paused = false;
        self.spent_before = Duration::ZERO;
        self.stretch_start = self.source.now();
    }

    pub(crate) fn snapshot(&self) -> ClockSnapshot {
        let r = self.peek();
        ClockSnapshot {
            remaining: [r.white, r.black],
            moves: self.moves,
            turn: self.turn,
        }
    }
}

/// Remaining times, move counts and turn, as saved for undo.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClockSnapshot {
    pub(crate) remaining: [Duration; 2],
    pub(crate) moves: [u32; 2],
    pub(crate) turn: Color,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn clock(tc: &str) -> (Clock, FakeTime) {
        let t = FakeTime::new();
        let c = Clock::new(TimeControl::parse(tc).unwrap(), Arc::new(t.clone()));
        (c, t)
    }

    #[test]
    fn text_forms_round_trip() {
        for text in [
            "5",
            "5+3",
            "90+30",
            "40/90+30, 30+30",
            "5+d3",
            "5+b2",
            "30s+1",
            "40/120",
        ] {
            let tc = TimeControl::parse(text).unwrap();
            assert_eq!(tc.to_string(), text);
            assert_eq!(TimeControl::parse(&tc.to_string()).unwrap(), tc);
        }
        assert_eq!(
            TimeControl::parse("40/90+30,30+30").unwrap(),
            TimeControl::fide_classical()
        );
        assert_eq!(
            TimeControl::parse("5+3").unwrap(),
            TimeControl::fischer(secs(300), secs(3))
        );
    }

    #[test]
    fn pgn_forms() {
        let fide = TimeControl::fide_classical();
        assert_eq!(fide.to_pgn().unwrap(), "40/5400+30:1800+30");
        assert_eq!(
            TimeControl::from_pgn("40/5400+30:1800+30").unwrap(),
            Some(fide)
        );
        assert_eq!(
            TimeControl::from_pgn("300+3").unwrap(),
            Some(TimeControl::fischer(secs(300), secs(3)))
        );
        assert_eq!(
            TimeControl::from_pgn("180").unwrap(),
            Some(TimeControl::sudden_death(secs(180)))
        );
        assert_eq!(TimeControl::from_pgn("-").unwrap(), None);
        assert_eq!(TimeControl::from_pgn("?").unwrap(), None);
        assert_eq!(
            TimeControl::simple_delay(secs(300), secs(5)).to_pgn(),
            Err(TimeControlError::DelayNotInPgn)
        );
    }

    #[test]
    fn bad_text_is_an_error_with_a_column() {
        use TimeControlError::*;
        let cases: &[(&str, TimeControlError)] = &[
            ("", Empty),
            ("   ", Empty),
            (
                "x",
                BadNumber {
                    text: "x".into(),
                    column: 1,
                },
            ),
            (
                "5+x",
                BadBonus {
                    text: "x".into(),
                    column: 3,
                },
            ),
            (
                "5+3, 3+",
                BadBonus {
                    text: "".into(),
                    column: 8,
                },
            ),
            ("0/5", ZeroMoves { column: 1 }),
            ("0", NoTime { column: 1 }),
            ("5, 3", PeriodAfterRestOfGame { column: 4 }),
            (
                "40/9x",
                BadNumber {
                    text: "9x".into(),
                    column: 4,
                },
            ),
            (
                "5+d",
                BadNumber {
                    text: "".into(),
                    column: 4,
                },
            ),
            (
                "99999999999999999999",
                BadNumber {
                    text: "99999999999999999999".into(),
                    column: 1,
                },
            ),
            (
                "½+3",
                BadNumber {
                    text: "½".into(),
                    column: 1,
                },
            ),
        ];
        for (text, want) in cases {
            assert_eq!(TimeControl::parse(text).as_ref(), Err(want), "{text:?}");
        }
        assert_eq!(
            TimeControl::from_pgn("40/5400:*180"),
            Err(Sandglass { column: 9 })
        );
        assert_eq!(
            TimeControl::from_pgn("300+d5"),
            Err(BadBonus {
                text: "d5".into(),
                column: 5
            })
        );
    }

    #[test]
    fn hms() {
        assert_eq!(format_hms(secs(3725)), "1:02:05");
        assert_eq!(format_hms(Duration::from_millis(3_723_500)), "1:02:03.5");
        assert_eq!(format_hms(Duration::from_millis(9_250)), "0:00:09.25");
        assert_eq!(format_clock(Duration::from_millis(9_849)), "9.8");
        assert_eq!(format_clock(secs(299)), "4:59");
        assert_eq!(format_clock(secs(3_900)), "1:05:00");
        assert_eq!(parse_hms("1:02:05"), Some(secs(3725)));
        assert_eq!(parse_hms("0:00:09.5"), Some(Duration::from_millis(9500)));
        assert_eq!(parse_hms("02:05"), Some(secs(125)));
        for bad in ["", "1", "a:00:00", "1:60:00", "1:2:3:4", "1:00:0x"] {
            assert_eq!(parse_hms(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn sudden_death_flag_is_noticed_at_the_next_reading() {
        let (mut c, t) = clock("1");
        c.start();
        t.advance_secs(20);
        c.press().unwrap(); // White used 20 s
        assert_eq!(c.peek().white, secs(40));
        t.advance_secs(59);
        assert_eq!(c.read().black, secs(1));
        assert_eq!(c.flagged(), None);
        t.advance_secs(2);
        assert_eq!(c.peek().black, Duration::ZERO);
        let r = c.read();
        assert_eq!(r.flagged, Some(Color::Black));
        assert_eq!(r.running, None);
        assert_eq!(
            c.press(),
            Err(FlagFell {
                color: Color::Black
            })
        );
    }

    #[test]
    fn fischer_increment_from_move_one() {
        let (mut c, t) = clock("5+3");
        c.start();
        t.advance_secs(10);
        c.press().unwrap();
        assert_eq!(c.peek().white, secs(300 - 10 + 3));
        t.advance_secs(1);
        c.press().unwrap();
        assert_eq!(c.peek().black, secs(300 - 1 + 3));
        // A player who moves faster than the increment gains time.
        t.advance(Duration::from_millis(500));
        c.press().unwrap();
        assert_eq!(c.peek().white, secs(293 + 3) - Duration::from_millis(500));
    }

    #[test]
    fn bronstein_gives_back_at_most_the_delay() {
        let (mut c, t) = clock("5+b3");
        c.start();
        t.advance_secs(2);
        c.press().unwrap();
        assert_eq!(c.peek().white, secs(300), "2 s used, 2 s back");
        t.advance_secs(10);
        c.press().unwrap();
        assert_eq!(c.peek().black, secs(300 - 10 + 3), "10 s used, 3 s back");
    }

    #[test]
    fn simple_delay_waits_before_counting() {
        let (mut c, t) = clock("5+d5");
        c.start();
        t.advance_secs(3);
        let r = c.peek();
        assert_eq!(r.white, secs(300));
        assert_eq!(r.delay_left, secs(2));
        t.advance_secs(4);
        assert_eq!(c.peek().white, secs(298));
        c.press().unwrap();
        assert_eq!(c.peek().white, secs(298));
        // The flag falls only after delay + remaining time.
        let (mut c, t) = clock("30s+d5");
        c.start();
        t.advance_secs(34);
        assert_eq!(c.read().flagged, None);
        t.advance_secs(1);
        assert_eq!(c.read().flagged, Some(Color::White));
    }

    #[test]
    fn move_forty_adds_the_second_period() {
        let (mut c, t) = clock("40/90+30, 30+30");
        c.start();
        for n in 1..=40 {
            // White thinks 60 s per move, Black 10 s.
            t.advance_secs(60);
            c.press().unwrap();
            let r = c.peek();
            if n < 40 {
                assert_eq!(r.white, secs(5400 - 30 * n as u64));
                assert_eq!(r.moves_to_control[0], Some(40 - n));
            } else {
                // 90 min - 40 × 60 s + 40 × 30 s + 30 min.
                assert_eq!(r.white, secs(5400 - 1200 + 1800));
                assert_eq!(r.moves_to_control[0], None);
            }
            t.advance_secs(10);
            c.press().unwrap();
        }
        assert_eq!(c.peek().black, secs(5400 + 40 * 20 + 1800));
        // Move 41 still gets the increment.
        t.advance_secs(60);
        c.press().unwrap();
        assert_eq!(c.peek().white, secs(6000 - 30));
    }

    #[test]
    fn repeating_period() {
        let (mut c, t) = clock("2/1");
        c.start();
        for _ in 0..2 {
            t.advance_secs(10);
            c.press().unwrap();
            c.press().unwrap();
        }
        assert_eq!(c.peek().white, secs(60 - 20 + 60));
        assert_eq!(c.peek().moves_to_control[0], Some(2));
    }

    #[test]
    fn monotonic_time_runs_forward() {
        let m = MonotonicTime::new();
        let a = m.now();
        std::thread::sleep(Duration::from_millis(5));
        let b = m.now();
        assert!(b >= a + Duration::from_millis(5));
        // A clock on the real source charges real time.
        let mut c = Clock::new(TimeControl::sudden_death(secs(60)), Arc::new(m));
        c.start();
        std::thread::sleep(Duration::from_millis(5));
        c.press().unwrap();
        assert!(c.peek().white <= secs(60) - Duration::from_millis(5));
    }

    #[test]
    fn pause_and_resume() {
        let (mut c, t) = clock("5");
        c.start();
        t.advance_secs(10);
        c.pause();
        assert!(c.is_paused());
        t.advance_secs(1000);
        assert_eq!(c.read().white, secs(290));
        assert_eq!(c.read().running, None);
        c.resume();
        t.advance_secs(5);
        c.press().unwrap();
        assert_eq!(c.peek().white, secs(285));
        // Restored clocks keep their times and turn.
        let t2 = FakeTime::new();
        let mut r = Clock::restored(
            TimeControl::fide_classical(),
            Arc::new(t2.clone()),
            [secs(100), secs(200)],
            [39, 38],
            Color::Black,
        );
        r.start();
        t2.advance_secs(50);
        r.press().unwrap();
        assert_eq!(r.peek().black, secs(200 - 50 + 30));
        t2.advance_secs(50);
        r.press().unwrap();
        assert_eq!(r.peek().white, secs(100 - 50 + 30 + 1800));
    }
}
