//! FIDE Tournament Report File, the current edition (TRF-2026, "TRF26",
//! applied from 1 September 2025), read and written as text; files in the
//! earlier TRF-16 with the JaVaFo/bbpPairings `XXR`/`XXC` codes are read too.
//!
//! Records read: `012`–`122` (tournament data), `132` round dates, `142`
//! number of rounds, `152` initial colour, `162` scoring (only 1, ½, 0 is
//! accepted: anything else is an error, never a silent miscount), `192`
//! pairing system (the FIDE Dutch system, with the Baku acceleration of
//! C.04.5.1 for `FIDE_DUTCH_2025_BAKU` unless `250`/`XXA` records give the
//! accelerations; any other system or variant is refused with its line), `202`/`212` tie-breaks, `222` encoded time
//! control, `001` players, `240` byes for rounds (`F`, `H`, `Z`), `250`
//! accelerated rounds, `260` forbidden pairings, and JaVaFo's `XXA`
//! (accelerations per player and round, kept as `250` records) and `XXP`
//! (pairs forbidden in every round); `013`/`310` (teams) and `299` (abnormal
//! points) are refused with a clear error. Records escaque has no use for
//! (`182`, national rating records, comments `###`) are skipped. A file
//! that gives no initial colour (no `152`, no `XXC`) has it read from round
//! 1's games, as bbpPairings reads it. Bytes that are not UTF-8 are read as
//! Windows-1252 by [`decode`].
//!
//! Written: the TRF-2026 records above, and `XXR`/`XXC` beside `142`/`152`
//! for pairing programs that still read only TRF-16.
//!
//! Unusual results ([`Unusual`]: ½-0, 0-½, 0-0 in a game played) are each
//! player's own result code, whose standard points are the player's own:
//! `=` and `0` for ½-0, `0` and `=` for 0-½, `0` and `0` for 0-0 (also read
//! with `D`/`L`). No `299` record is needed for them, since neither side's
//! points differ from its code's; bbpPairings reads such files the same way
//! (each player's score from their own codes). Any other pair of codes that
//! makes no game (both won, a forfeit against a game played) is refused.
//!
//! Columns are counted in characters (names may hold letters such as `ñ`).
//! escaque keeps what TRF has no field for in its own `XZ?` lines, which other
//! programs ignore: `XZS` system, `XZN` team size, `XZC` club, `XZK`
//! category, `XZE` entry round, `XZW` withdrawal round, `XZO` the board
//! order of a round (White of each board), `XZV` the version of the
//! tie-break regulations the organiser chose (`2024`, `2026`), `XZU` the
//! rating unrated players count with in ARO. Older escaque files also have
//! `XZT` (tie-breaks, now `202`) and `XZH`/`XZA` (requested byes, now `240`),
//! still read.

use std::collections::BTreeMap;

use crate::error::{TrfError, TrfErrorKind, Unsupported};
use crate::model::{
    Acceleration, ByeKind, Colour, Entry, ForbiddenPairing, Game, GameResult, Outcome, Player,
    Round, System, Tournament, Unusual,
};
use crate::standings::TieBreak;

/// One player's round cell as read.
#[derive(Clone, Copy, Debug)]
struct Cell {
    opponent: u32,
    colour: char,
    result: char,
    column: usize,
}

fn err(line: usize, column: usize, kind: TrfErrorKind) -> TrfError {
    TrfError { line, column, kind }
}

/// Characters `from..=to` (1-based) of a line, trimmed; empty past the end.
fn field(chars: &[char], from: usize, to: usize) -> String {
    let start = from - 1;
    if start >= chars.len() {
        return String::new();
    }
    let end = to.min(chars.len());
    chars[start..end]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

fn number<T: std::str::FromStr>(
    text: &str,
    name: &'static str,
    line: usize,
    column: usize,
) -> Result<T, TrfError> {
    text.parse::<T>().map_err(|_| {
        err(
            line,
            column,
            TrfErrorKind::BadNumber {
                field: name,
                text: text.to_string(),
            },
        )
    })
}

fn optional<T: std::str::FromStr>(
    text: &str,
    name: &'static str,
    line: usize,
    column: usize,
) -> Result<Option<T>, TrfError> {
    if text.is_empty() {
        Ok(None)
    } else {
        number(text, name, line, column).map(Some)
    }
}

/// Reads a TRF text into a tournament.
pub fn parse(text: &str) -> Result<Tournament, TrfError> {
    let mut t = Tournament::new("", System::Swiss, 0);
    let mut total_rounds: Option<u32> = None;
    let mut cells: BTreeMap<u32, (usize, Vec<Cell>)> = BTreeMap::new();
    let mut players: BTreeMap<u32, Player> = BTreeMap::new();
    // Extension lines refer to players that may come later.
    let mut extensions: Vec<(usize, String, Vec<char>)> = Vec::new();
    let mut boards: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    // Records 240/250/260 name players that may come later.
    let mut records: Vec<(usize, String, Vec<char>)> = Vec::new();
    let mut saw_202 = false;
    // Whether the file says the first player's colour in round 1 (`152`,
    // `XXC`); if not, it is taken from round 1's games, as bbpPairings does.
    let mut colour_given = false;
    // JaVaFo's extensions: `XXA` accelerations per player and round, `XXP`
    // pairs forbidden in every round.
    let mut xxa: Vec<(usize, Vec<char>)> = Vec::new();
    let mut xxp: Vec<(usize, String)> = Vec::new();
    // Record 192 asks for the Baku acceleration (FIDE_DUTCH_2025_BAKU).
    let mut baku = false;

    let normalized = text.replace("\r\n", "\n").replace('\r', "\n");
    for (i, raw) in normalized.split('\n').enumerate() {
        let line_no = i + 1;
        let chars: Vec<char> = raw.chars().collect();
        if chars.iter().all(|c| c.is_whitespace()) {
            continue;
        }
        let code: String = chars.iter().take(3).collect();
        let rest = field(&chars, 5, chars.len().max(5));
        match code.as_str() {
            "001" => {
                let (id, p, row) = parse_player(&chars, line_no)?;
                if players.insert(id, p).is_some() {
                    return Err(err(line_no, 5, TrfErrorKind::DuplicateStartNumber(id)));
                }
                cells.insert(id, (line_no, row));
            }
            "012" => t.name = rest,
            "022" => t.city = rest,
            "032" => t.federation = rest,
            "042" => t.start_date = date(&rest),
            "052" => t.end_date = date(&rest),
            "102" => t.chief_arbiter = rest,
            "122" => t.time_control = rest,
            "XXR" | "142" => total_rounds = Some(number(&rest, "number of rounds", line_no, 5)?),
            "152" => match rest.as_str() {
                "W" | "w" => {
                    t.first_white = true;
                    colour_given = true;
                }
                "B" | "b" => {
                    t.first_white = false;
                    colour_given = true;
                }
                _ => {
                    return Err(err(
                        line_no,
                        5,
                        TrfErrorKind::BadColour(rest.chars().next().unwrap_or(' ')),
                    ))
                }
            },
            "132" => {
                t.round_dates.clear();
                let mut col = 92;
                while col <= chars.len() {
                    t.round_dates.push(field(&chars, col, col + 7));
                    col += 10;
                }
                while t.round_dates.last().is_some_and(|d| d.is_empty()) {
                    t.round_dates.pop();
                }
            }
            "162" => check_scoring(&chars, line_no)?,
            "202" | "212" => {
                let mut order = Vec::new();
                for word in rest.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                    if code == "212" && word.eq_ignore_ascii_case("PTS") {
                        continue;
                    }
                    match tiebreak_from_code(word) {
                        Some(tb) => order.push(tb),
                        None => {
                            return Err(err(line_no, 5, TrfErrorKind::UnknownTieBreak(word.into())))
                        }
                    }
                }
                // 202 (tie-breaks) wins over 212 (the standings, which repeats them).
                if code == "202" || !saw_202 {
                    t.tiebreaks = order;
                }
                saw_202 |= code == "202";
            }
            "222" => t.time_control_code = rest,
            "240" | "250" | "260" => records.push((line_no, code, chars)),
            "XXA" => xxa.push((line_no, chars)),
            "###" => {
                let line = raw.trim_end();
                if crate::fide::is_fide_line(line) {
                    t.fide_log.push(line.to_string());
                }
            }
            "XXP" => xxp.push((line_no, rest)),
            "192" => {
                // The pairing system (TRF-2026, as bbpPairings reads it):
                // only the Dutch system escaque pairs is accepted.
                let system = rest.to_ascii_uppercase();
                match system.as_str() {
                    "FIDE_DUTCH" | "FIDE_DUTCH_2025" => baku = false,
                    // The Baku acceleration (C.04.5.1), computed below
                    // unless the file gives its accelerations (250, XXA).
                    "FIDE_DUTCH_BAKU" | "FIDE_DUTCH_2025_BAKU" => baku = true,
                    _ => return Err(err(line_no, 5, TrfErrorKind::UnsupportedSystem(rest))),
                }
            }
            "013" | "310" => {
                return Err(err(
                    line_no,
                    1,
                    TrfErrorKind::Unsupported(Unsupported::Teams),
                ))
            }
            "299" => {
                return Err(err(
                    line_no,
                    1,
                    TrfErrorKind::Unsupported(Unsupported::AbnormalPoints),
                ))
            }
            "XXC" => {
                for word in rest.split_whitespace() {
                    match word {
                        "white1" => t.first_white = true,
                        "black1" => t.first_white = false,
                        _ => continue,
                    }
                    colour_given = true;
                }
            }
            "XZS" => {
                t.system = match rest.as_str() {
                    "swiss" => System::Swiss,
                    "rr" => System::RoundRobin { double: false },
                    "drr" => System::RoundRobin { double: true },
                    _ => return Err(err(line_no, 5, TrfErrorKind::Unexpected(rest))),
                }
            }
            "XZT" => {
                let mut order = Vec::new();
                for word in rest.split_whitespace() {
                    match TieBreak::from_id(word) {
                        Some(tb) => order.push(tb),
                        None => return Err(err(line_no, 5, TrfErrorKind::Unexpected(word.into()))),
                    }
                }
                if !saw_202 {
                    t.tiebreaks = order;
                }
            }
            "XZN" => t.team_size = number(&rest, "XZN", line_no, 5)?,
            "XZV" => {
                t.tiebreak_rules = Some(
                    crate::standings::Rules::from_id(&rest)
                        .ok_or_else(|| err(line_no, 5, TrfErrorKind::Unexpected(rest.clone())))?,
                )
            }
            "XZU" => t.unrated_rating = Some(number(&rest, "XZU", line_no, 5)?),
            "XZO" => {
                let mut words = rest.split_whitespace();
                let round: usize = number(words.next().unwrap_or(""), "XZO", line_no, 5)?;
                let whites = words
                    .map(|w| number::<u32>(w, "XZO", line_no, 5))
                    .collect::<Result<Vec<_>, _>>()?;
                boards.insert(round, whites);
            }
            c if c.starts_with("XZ") => extensions.push((line_no, code, chars)),
            _ => {} // Other codes (062, 092, BBW, XXS, ...) are not needed here.
        }
    }

    // Start numbers 1..=n.
    for (expected, id) in (1u32..).zip(players.keys()) {
        if *id != expected {
            let line = cells.get(id).map(|c| c.0).unwrap_or(0);
            return Err(err(
                line,
                5,
                TrfErrorKind::StartNumbersNotContiguous(expected),
            ));
        }
    }
    t.players = players.into_values().collect();
    let n = t.players.len() as u32;

    for (line_no, code, chars) in records {
        read_record(&mut t, &code, &chars, line_no)?;
    }
    for (line_no, chars) in xxa {
        read_xxa(&mut t, &chars, line_no)?;
    }

    for (line_no, code, chars) in extensions {
        let id: u32 = number(&field(&chars, 5, 8), "start number", line_no, 5)?;
        if id == 0 || id > n {
            return Err(err(line_no, 5, TrfErrorKind::UnknownPlayer(id)));
        }
        let value = field(&chars, 10, chars.len().max(10));
        let p = &mut t.players[id as usize - 1];
        match code.as_str() {
            "XZC" => p.club = value,
            "XZK" => p.category = value,
            "XZE" => p.entry_round = number(&value, "XZE", line_no, 10)?,
            "XZW" => p.withdrawn_from = Some(number(&value, "XZW", line_no, 10)?),
            "XZH" | "XZA" => {
                for w in value.split_whitespace() {
                    let r: u32 = number(w, code_name(&code), line_no, 10)?;
                    if code == "XZH" {
                        p.half_byes.insert(r);
                    } else {
                        p.absences.insert(r);
                    }
                }
            }
            _ => return Err(err(line_no, 1, TrfErrorKind::Unexpected(code))),
        }
    }

    // Rounds: a round with at least one game is paired; trailing rounds with
    // byes only are requests for rounds still to pair.
    let max_rounds = cells.values().map(|c| c.1.len()).max().unwrap_or(0);
    let mut paired = 0;
    for r in 0..max_rounds {
        if cells
            .values()
            .any(|c| c.1.get(r).is_some_and(|cell| cell.opponent != 0))
        {
            paired = r + 1;
        }
    }
    for r in 0..paired {
        let mut round = Round::default();
        for (&id, (line_no, row)) in &cells {
            let cell = row.get(r).copied().unwrap_or(Cell {
                opponent: 0,
                colour: '-',
                result: ' ',
                column: 92 + 10 * r,
            });
            if cell.opponent == 0 {
                let kind = match cell.result {
                    'U' => ByeKind::PairingAllocated,
                    'H' | '=' => ByeKind::Half,
                    'F' | '+' | '1' => ByeKind::Full,
                    'Z' | '-' | ' ' | '0' => ByeKind::Zero,
                    c => return Err(err(*line_no, cell.column + 7, TrfErrorKind::BadResult(c))),
                };
                round.byes.push((id, kind));
                continue;
            }
            let (op_line, op_row) = cells.get(&cell.opponent).ok_or(err(
                *line_no,
                cell.column,
                TrfErrorKind::UnknownOpponent {
                    player: id,
                    opponent: cell.opponent,
                    round: r as u32 + 1,
                },
            ))?;
            let inconsistent = err(
                *line_no,
                cell.column,
                TrfErrorKind::Inconsistent {
                    player: id,
                    opponent: cell.opponent,
                    round: r as u32 + 1,
                },
            );
            let other = op_row.get(r).copied().ok_or(inconsistent.clone())?;
            if other.opponent != id || cell.opponent == id {
                return Err(inconsistent);
            }
            // Each game is built once, from its White (or lower number if no colour).
            let white_here = match (cell.colour, other.colour) {
                ('w', 'b') => true,
                ('b', 'w') => false,
                ('-', '-') => id < cell.opponent,
                _ => return Err(inconsistent),
            };
            if !white_here {
                continue;
            }
            let (outcome, unusual) = match (
                GameResult::from_trf(cell.result),
                GameResult::from_trf(other.result),
            ) {
                (Some(a), Some(b)) => match Outcome::from_sides(a, b) {
                    Some(o) => (o, None),
                    None => (
                        Outcome::Draw,
                        Some(Unusual::from_sides(a, b).ok_or(inconsistent)?),
                    ),
                },
                (None, _) => {
                    return Err(err(
                        *line_no,
                        cell.column + 7,
                        TrfErrorKind::BadResult(cell.result),
                    ))
                }
                (_, None) => {
                    return Err(err(
                        *op_line,
                        other.column + 7,
                        TrfErrorKind::BadResult(other.result),
                    ))
                }
            };
            round.games.push(Game {
                white: id,
                black: cell.opponent,
                outcome,
                unusual,
            });
        }
        if let Some(whites) = boards.get(&(r + 1)) {
            // Board order as saved; games it does not list go last.
            round.games.sort_by_key(|g| {
                whites
                    .iter()
                    .position(|&w| w == g.white)
                    .unwrap_or(usize::MAX)
            });
        }
        t.rounds.push(round);
    }
    // Requests for the next round(s) written as cells.
    for (&id, (line_no, row)) in &cells {
        for (r, cell) in row.iter().enumerate().skip(paired) {
            let p = &mut t.players[id as usize - 1];
            match cell.result {
                'H' | '=' => {
                    p.half_byes.insert(r as u32 + 1);
                }
                'F' => {
                    p.full_byes.insert(r as u32 + 1);
                }
                'Z' | '-' | '0' | 'U' | '+' | '1' => {
                    p.absences.insert(r as u32 + 1);
                }
                ' ' => {}
                c => return Err(err(*line_no, cell.column + 7, TrfErrorKind::BadResult(c))),
            }
        }
    }
    // Rounds in the file beyond its declared total count as planned.
    t.total_rounds = total_rounds.unwrap_or(0).max(max_rounds as u32);
    for (line_no, rest) in xxp {
        let mut players = Vec::new();
        for word in rest.split_whitespace() {
            let id: u32 = number(word, "player", line_no, 5)?;
            if id == 0 || id > n {
                return Err(err(line_no, 5, TrfErrorKind::UnknownPlayer(id)));
            }
            players.push(id);
        }
        if players.len() < 2 {
            return Err(err(line_no, 5, TrfErrorKind::ShortLine));
        }
        t.forbidden.push(ForbiddenPairing {
            first_round: 1,
            last_round: t.total_rounds.max(1),
            players,
        });
    }
    // Given accelerations (250, XXA) win over record 192's Baku, as in
    // bbpPairings.
    if baku && t.accelerations.is_empty() {
        t.accelerations = crate::baku::acceleration(&t);
    }
    if !colour_given {
        if let Some(white) = infer_first_colour(&t) {
            t.first_white = white;
        }
    }
    Ok(t)
}

/// The colour the first player had in round 1 when the file does not say
/// it (no `152`, no `XXC`), read from the games as bbpPairings reads it: in
/// the first round where someone had a colour, the first player (by start
/// number) among those who had been paired by then, with their pairing
/// number's parity (E.5 gives odd numbers the first colour); a player
/// without a game there passes it on to the next. `None` before any game.
fn infer_first_colour(t: &Tournament) -> Option<bool> {
    let first = t.rounds.iter().position(|r| !r.games.is_empty())?;
    let round = first as u32 + 1;
    let paired_by = |id: u32| {
        (1..=round).any(|r| match t.entry(id, r) {
            Entry::Game { .. } => true,
            Entry::Bye(k) => k == ByeKind::PairingAllocated,
            Entry::Absent => false,
        })
    };
    let mut number = 0;
    for id in 1..=t.players.len() as u32 {
        if !paired_by(id) {
            continue;
        }
        number += 1;
        // A player without a game in that round (a bye) keeps a number
        // and the next one tells.
        if let Entry::Game { colour, .. } = t.entry(id, round) {
            let odd = number % 2 == 1;
            return Some((colour == Colour::White) == odd);
        }
    }
    None
}

/// JaVaFo's `XXA NNNN pts1 pts2 …`: the fictitious points player NNNN
/// carries for pairing in rounds 1, 2, … (4 columns each, from column 10,
/// every 5). Kept as `250` records, one a run of equal rounds.
fn read_xxa(t: &mut Tournament, chars: &[char], line: usize) -> Result<(), TrfError> {
    let id = player_in(chars, 5, line, t.players.len() as u32)?;
    let mut per_round: Vec<u32> = Vec::new();
    let mut col = 10;
    while col <= chars.len() {
        let text = field(chars, col, col + 3);
        let half = if text.is_empty() {
            0
        } else {
            let points: f64 = number(&text, "points", line, col)?;
            let half = points * 2.0;
            if !(half >= 0.0 && half.fract() == 0.0 && half <= 1000.0) {
                return Err(err(
                    line,
                    col,
                    TrfErrorKind::BadNumber {
                        field: "points",
                        text,
                    },
                ));
            }
            half as u32
        };
        per_round.push(half);
        col += 5;
    }
    let mut r = 0;
    while r < per_round.len() {
        let mut end = r;
        while end + 1 < per_round.len() && per_round[end + 1] == per_round[r] {
            end += 1;
        }
        if per_round[r] > 0 {
            t.accelerations.push(Acceleration {
                points: per_round[r],
                first_round: r as u32 + 1,
                last_round: end as u32 + 1,
                first_player: id,
                last_player: id,
            });
        }
        r = end + 1;
    }
    Ok(())
}

/// The text of a TRF file given as bytes: UTF-8 (a byte-order mark is
/// dropped) or, when the bytes are not valid UTF-8, Windows-1252 (the
/// encoding of older Swiss-Manager and Vega exports). The second value says
/// the file was read as Windows-1252, for a warning.
pub fn decode(bytes: &[u8]) -> (String, bool) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_string(), false),
        Err(_) => (bytes.iter().map(|&b| cp1252(b)).collect(), true),
    }
}

/// One Windows-1252 byte as a character (the five bytes the code page leaves
/// undefined are kept as the C1 control of the same number, as the WHATWG
/// encoding standard does).
fn cp1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9f => HIGH[(b - 0x80) as usize],
        _ => b as char,
    }
}

/// Record 162: only the standard scoring is accepted (W 1, D ½, L 0, A 0,
/// P as W, X as D); the pairing and the tie-breaks assume it.
fn check_scoring(chars: &[char], line: usize) -> Result<(), TrfError> {
    let text: String = chars.iter().skip(4).collect();
    let mut words = text.split_whitespace().peekable();
    while let Some(w) = words.next() {
        let mut it = w.chars();
        let code = it.next().unwrap_or(' ');
        let inline: String = it.collect();
        let value = if inline.is_empty() {
            words.next().unwrap_or("").to_string()
        } else {
            inline
        };
        let points: f64 = number(&value, "points", line, 5)?;
        let standard = match code.to_ascii_uppercase() {
            'W' | 'P' => 1.0,
            'D' | 'X' => 0.5,
            'L' | 'A' => 0.0,
            c => return Err(err(line, 5, TrfErrorKind::BadResult(c))),
        };
        if points != standard {
            return Err(err(
                line,
                5,
                TrfErrorKind::Unsupported(Unsupported::Scoring),
            ));
        }
    }
    Ok(())
}

/// A player number inside a record, checked against the players read.
fn player_in(chars: &[char], col: usize, line: usize, players: u32) -> Result<u32, TrfError> {
    let id: u32 = number(&field(chars, col, col + 3), "player", line, col)?;
    if id == 0 || id > players {
        return Err(err(line, col, TrfErrorKind::UnknownPlayer(id)));
    }
    Ok(id)
}

fn round_range(
    chars: &[char],
    first: usize,
    last: usize,
    line: usize,
) -> Result<(u32, u32), TrfError> {
    let a: u32 = number(&field(chars, first, first + 2), "round", line, first)?;
    let b: u32 = number(&field(chars, last, last + 2), "round", line, last)?;
    if a == 0 || b < a {
        return Err(err(
            line,
            first,
            TrfErrorKind::BadRange { first: a, last: b },
        ));
    }
    Ok((a, b))
}

/// Player numbers every 5 columns from `col` to the end of the line.
fn player_list(
    chars: &[char],
    mut col: usize,
    line: usize,
    players: u32,
) -> Result<Vec<u32>, TrfError> {
    let mut out = Vec::new();
    while col <= chars.len() {
        if !field(chars, col, col + 3).is_empty() {
            out.push(player_in(chars, col, line, players)?);
        }
        col += 5;
    }
    Ok(out)
}

/// Records 240 (byes), 250 (acceleration) and 260 (forbidden pairings).
fn read_record(
    t: &mut Tournament,
    code: &str,
    chars: &[char],
    line: usize,
) -> Result<(), TrfError> {
    let n = t.players.len() as u32;
    match code {
        "240" => {
            let kind = chars.get(4).copied().unwrap_or(' ').to_ascii_uppercase();
            let round: u32 = number(&field(chars, 7, 9), "round", line, 7)?;
            if round == 0 {
                return Err(err(line, 7, TrfErrorKind::BadRange { first: 0, last: 0 }));
            }
            for id in player_list(chars, 11, line, n)? {
                let p = &mut t.players[id as usize - 1];
                match kind {
                    'H' => p.half_byes.insert(round),
                    'F' => p.full_byes.insert(round),
                    'Z' => p.absences.insert(round),
                    c => return Err(err(line, 5, TrfErrorKind::BadResult(c))),
                };
            }
        }
        "250" => {
            if !field(chars, 5, 8).is_empty() {
                let mp: f64 = number(&field(chars, 5, 8), "match points", line, 5)?;
                if mp != 0.0 {
                    return Err(err(line, 5, TrfErrorKind::Unsupported(Unsupported::Teams)));
                }
            }
            let points: f64 = number(&field(chars, 10, 13), "points", line, 10)?;
            let half = points * 2.0;
            if !(half >= 1.0 && half.fract() == 0.0 && half <= 1000.0) {
                return Err(err(
                    line,
                    10,
                    TrfErrorKind::BadNumber {
                        field: "points",
                        text: field(chars, 10, 13),
                    },
                ));
            }
            let (first_round, last_round) = round_range(chars, 15, 19, line)?;
            let first_player = player_in(chars, 23, line, n)?;
            let last_player = player_in(chars, 28, line, n)?;
            if last_player < first_player {
                return Err(err(
                    line,
                    23,
                    TrfErrorKind::BadRange {
                        first: first_player,
                        last: last_player,
                    },
                ));
            }
            t.accelerations.push(Acceleration {
                points: half as u32,
                first_round,
                last_round,
                first_player,
                last_player,
            });
        }
        _ => {
            let (first_round, last_round) = round_range(chars, 5, 9, line)?;
            let players = player_list(chars, 13, line, n)?;
            if players.len() < 2 {
                return Err(err(line, chars.len() + 1, TrfErrorKind::ShortLine));
            }
            t.forbidden.push(ForbiddenPairing {
                first_round,
                last_round,
                players,
            });
        }
    }
    Ok(())
}

/// A date as TRF-2026 writes it in `042`/`052`: `YYYY/MM/DD`. Read from
/// that form and from `YYYY-MM-DD`, `YYYY.MM.DD`, `DD/MM/YYYY`,
/// `DD-MM-YYYY`, `DD.MM.YYYY` and the two-digit `YY/MM/DD` of TRF's round
/// dates (which Gacrux also writes in `042`); a text that is none of these
/// is kept as written.
pub fn date(text: &str) -> String {
    let text = text.trim();
    let parts: Vec<&str> = text.split(['/', '-', '.']).collect();
    let digits = |s: &str| !s.is_empty() && s.len() <= 4 && s.chars().all(|c| c.is_ascii_digit());
    if parts.len() != 3 || !parts.iter().all(|p| digits(p)) {
        return text.to_string();
    }
    let n = |s: &str| s.parse::<u32>().unwrap_or(0);
    let (y, m, d) = match (parts[0].len(), parts[2].len()) {
        (4, 1..=2) => (n(parts[0]), n(parts[1]), n(parts[2])),
        (1..=2, 4) => (n(parts[2]), n(parts[1]), n(parts[0])),
        (2, 2) => (2000 + n(parts[0]), n(parts[1]), n(parts[2])),
        _ => return text.to_string(),
    };
    if parts[1].len() > 2 || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return text.to_string();
    }
    format!("{y:04}/{m:02}/{d:02}")
}

/// A tie-break as TRF-2026 writes it in `202`/`212`: C.07's code with its
/// modifiers after a slash (`BH/C1`, `BH/M1`), as FIDE's tie-break checker
/// (Gacrux) reads it.
pub fn tiebreak_code(tb: TieBreak) -> String {
    tb.id().replacen('-', "/", 1)
}

/// A tie-break from a `202`/`212`/`XZT` code: `BH/C1` (TRF-2026) and the
/// `BH-C1` escaque wrote before, in any case.
pub fn tiebreak_from_code(code: &str) -> Option<TieBreak> {
    TieBreak::from_id(code)
        .or_else(|| TieBreak::from_id(&code.replace('/', "-")))
        .or_else(|| TieBreak::from_id(&code.replace('-', "/")))
}

fn code_name(code: &str) -> &'static str {
    if code == "XZH" {
        "XZH"
    } else {
        "XZA"
    }
}

fn parse_player(chars: &[char], line: usize) -> Result<(u32, Player, Vec<Cell>), TrfError> {
    if chars.len() < 8 {
        return Err(err(line, chars.len() + 1, TrfErrorKind::ShortLine));
    }
    let id: u32 = number(&field(chars, 5, 8), "start number", line, 5)?;
    if id == 0 {
        return Err(err(
            line,
            5,
            TrfErrorKind::BadNumber {
                field: "start number",
                text: "0".into(),
            },
        ));
    }
    let mut p = Player::new(&field(chars, 15, 47));
    p.sex = field(chars, 10, 10);
    p.title = field(chars, 11, 13);
    p.rating = optional::<u16>(&field(chars, 49, 52), "rating", line, 49)?.filter(|r| *r > 0);
    p.federation = field(chars, 54, 56);
    p.fide_id = optional::<u64>(&field(chars, 58, 68), "FIDE id", line, 58)?.filter(|x| *x > 0);
    let birth = field(chars, 70, 79);
    if birth.len() >= 4 && birth.chars().take(4).all(|c| c.is_ascii_digit()) {
        p.birth_year = Some(number(&birth[..4], "birth date", line, 70)?).filter(|y| *y > 0);
    } else if !birth.is_empty() {
        return Err(err(
            line,
            70,
            TrfErrorKind::BadNumber {
                field: "birth date",
                text: birth,
            },
        ));
    }
    let points = field(chars, 81, 84);
    if !points.is_empty() {
        number::<f64>(&points, "points", line, 81)?;
    }
    let mut row = Vec::new();
    let mut col = 92;
    while col <= chars.len() {
        let block = field(chars, col - 2, col + 7);
        if block.is_empty() {
            // An empty cell: nothing in that round.
            row.push(Cell {
                opponent: 0,
                colour: '-',
                result: ' ',
                column: col,
            });
            col += 10;
            continue;
        }
        let opp_text = field(chars, col, col + 3);
        let opponent = if opp_text.is_empty() {
            0
        } else {
            number::<u32>(&opp_text, "opponent", line, col)?
        };
        let colour = chars.get(col + 4).copied().unwrap_or(' ');
        let colour = if colour == ' ' { '-' } else { colour };
        if !matches!(colour, 'w' | 'b' | '-' | 'W' | 'B') {
            return Err(err(line, col + 5, TrfErrorKind::BadColour(colour)));
        }
        let result = chars.get(col + 6).copied().unwrap_or(' ');
        if GameResult::from_trf(result).is_none() && !matches!(result, 'U' | 'H' | 'F' | 'Z') {
            return Err(err(line, col + 7, TrfErrorKind::BadResult(result)));
        }
        if let Some(extra) = chars.get(col + 7).filter(|c| !c.is_whitespace()) {
            return Err(err(
                line,
                col + 8,
                TrfErrorKind::Unexpected(extra.to_string()),
            ));
        }
        row.push(Cell {
            opponent,
            colour: colour.to_ascii_lowercase(),
            result,
            column: col,
        });
        col += 10;
    }
    // Trailing empty cells carry nothing.
    while row
        .last()
        .is_some_and(|c| c.opponent == 0 && c.result == ' ')
    {
        row.pop();
    }
    Ok((id, p, row))
}

fn fit(s: &str, width: usize) -> String {
    s.chars().filter(|c| !c.is_control()).take(width).collect()
}

/// Writes a tournament as TRF text (lines end in `\n`). Players' points and
/// ranks come from the standings. Requests for the next round (half-point
/// byes, absences) are written as that round's cells, as pairing programs
/// read them.
pub fn write(t: &Tournament) -> String {
    write_with(t, WriteOptions::default())
}

/// How [`write_with`] writes what a TRF can say in two ways.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteOptions {
    /// The accelerations as JaVaFo's `XXA` lines (one a player, its
    /// virtual points round by round, as bbpPairings and JaVaFo read them)
    /// instead of TRF-2026 `250` records.
    pub xxa: bool,
}

/// [`write`] with options ([`WriteOptions`]).
pub fn write_with(t: &Tournament, options: WriteOptions) -> String {
    let mut out = String::new();
    let mut header = |code: &str, v: &str| {
        if !v.is_empty() {
            out.push_str(&format!("{code} {}\n", fit(v, 200)));
        }
    };
    header("012", &t.name);
    header("022", &t.city);
    header("032", &t.federation);
    header("042", &date(&t.start_date));
    header("052", &date(&t.end_date));
    header("102", &t.chief_arbiter);
    header("122", &t.time_control);
    header("222", &t.time_control_code);
    out.push_str(&format!("062 {}\n", t.players.len()));
    out.push_str(&format!(
        "072 {}\n",
        t.players.iter().filter(|p| p.rating.is_some()).count()
    ));
    out.push_str(&format!(
        "092 {}\n",
        match t.system {
            System::Swiss => "FIDE_DUTCH_2025",
            System::RoundRobin { double: false } => "Round robin (Berger)",
            System::RoundRobin { double: true } => "Double round robin (Berger)",
        }
    ));
    if !t.round_dates.is_empty() {
        // Dates in columns 92–99, 102–109, … as the player lines' rounds.
        let mut line = format!("132{}", " ".repeat(88));
        for d in &t.round_dates {
            line.push_str(&format!("{:<8}  ", fit(d, 8)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&format!("142 {}\n", t.total_rounds));
    out.push_str(&format!("152 {}\n", if t.first_white { 'W' } else { 'B' }));
    out.push_str(&format!("182 escaque {}\n", env!("CARGO_PKG_VERSION")));
    let codes: Vec<String> = t.tiebreaks.iter().map(|&tb| tiebreak_code(tb)).collect();
    if !codes.is_empty() {
        out.push_str(&format!("202 {}\n", codes.join(",")));
    }
    out.push_str(&format!(
        "212 {}\n",
        std::iter::once("PTS")
            .chain(codes.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(",")
    ));
    // TRF-16's codes for the pairing programs that read only those.
    out.push_str(&format!("XXR {}\n", t.total_rounds));
    out.push_str(&format!(
        "XXC {}\n",
        if t.first_white { "white1" } else { "black1" }
    ));
    // FIDE mode's lines: leaving it, the manual pairings (crate::fide).
    for line in &t.fide_log {
        out.push_str(line);
        out.push('\n');
    }
    let ranks = crate::standings::ranks(t);
    let played = t.rounds.len() as u32;
    let next = played + 1;
    for (i, p) in t.players.iter().enumerate() {
        let id = i as u32 + 1;
        let birth = p.birth_year.map(|y| format!("{y:04}")).unwrap_or_default();
        let mut line = format!(
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}",
            id,
            fit(&p.sex, 1),
            fit(&p.title, 3),
            fit(&p.name, 33),
            p.rating.map(|r| r.to_string()).unwrap_or_default(),
            fit(&p.federation, 3),
            p.fide_id.map(|x| x.to_string()).unwrap_or_default(),
            birth,
            crate::format_points_dot(t.score(id)),
            ranks[i],
        );
        for r in 1..=played {
            let cell = match t.entry(id, r) {
                crate::model::Entry::Game {
                    opponent,
                    colour,
                    result,
                } => {
                    let c = if colour == Colour::White { 'w' } else { 'b' };
                    format!("  {opponent:>4} {c} {}", result.trf_code())
                }
                crate::model::Entry::Bye(k) => format!("  0000 - {}", k.trf_code()),
                crate::model::Entry::Absent => "  0000 - Z".to_string(),
            };
            line.push_str(&cell);
        }
        if next <= t.total_rounds && !p.available(next) {
            let present = p.entry_round <= next && p.withdrawn_from.is_none_or(|w| next < w);
            let code = if present && p.full_byes.contains(&next) {
                'F'
            } else if present && p.half_byes.contains(&next) {
                'H'
            } else {
                'Z'
            };
            line.push_str(&format!("  0000 - {code}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    // Requested byes, round by round (240), as TRF-2026 writes them.
    for (kind, pick) in [
        (
            'F',
            (|p: &Player| &p.full_byes) as fn(&Player) -> &std::collections::BTreeSet<u32>,
        ),
        ('H', |p: &Player| &p.half_byes),
        ('Z', |p: &Player| &p.absences),
    ] {
        let mut by_round: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (i, p) in t.players.iter().enumerate() {
            for &r in pick(p) {
                by_round.entry(r).or_default().push(i + 1);
            }
        }
        for (r, ids) in by_round {
            // At most 20 players a line, to keep lines readable.
            for chunk in ids.chunks(20) {
                let list: Vec<String> = chunk.iter().map(|id| format!("{id:>4}")).collect();
                out.push_str(&format!("240 {kind} {r:>3} {}\n", list.join(" ")));
            }
        }
    }
    if options.xxa {
        out.push_str(&xxa_lines(t));
    }
    for a in t.accelerations.iter().filter(|_| !options.xxa) {
        out.push_str(&format!(
            "250      {:>4} {:>3} {:>3} {:>4} {:>4}\n",
            crate::format_points_dot(a.points),
            a.first_round,
            a.last_round,
            a.first_player,
            a.last_player
        ));
    }
    for f in &t.forbidden {
        let list: Vec<String> = f.players.iter().map(|id| format!("{id:>4}")).collect();
        out.push_str(&format!(
            "260 {:>3} {:>3} {}\n",
            f.first_round,
            f.last_round,
            list.join(" ")
        ));
    }
    // escaque's own lines.
    out.push_str(&format!(
        "XZS {}\n",
        match t.system {
            System::Swiss => "swiss",
            System::RoundRobin { double: false } => "rr",
            System::RoundRobin { double: true } => "drr",
        }
    ));
    out.push_str(&format!("XZN {}\n", t.team_size));
    if let Some(rules) = t.tiebreak_rules {
        out.push_str(&format!("XZV {}\n", rules.id()));
    }
    if let Some(r) = t.unrated_rating {
        out.push_str(&format!("XZU {r}\n"));
    }
    for (i, r) in t.rounds.iter().enumerate() {
        let whites: Vec<String> = r.games.iter().map(|g| g.white.to_string()).collect();
        out.push_str(&format!("XZO {} {}\n", i + 1, whites.join(" ")));
    }
    for (i, p) in t.players.iter().enumerate() {
        let id = i + 1;
        if !p.club.is_empty() {
            out.push_str(&format!("XZC {id:>4} {}\n", fit(&p.club, 200)));
        }
        if !p.category.is_empty() {
            out.push_str(&format!("XZK {id:>4} {}\n", fit(&p.category, 200)));
        }
        if p.entry_round > 1 {
            out.push_str(&format!("XZE {id:>4} {}\n", p.entry_round));
        }
        if let Some(w) = p.withdrawn_from {
            out.push_str(&format!("XZW {id:>4} {w}\n"));
        }
    }
    out
}

/// The tournament's accelerations as JaVaFo's `XXA` lines: `XXA NNNN`, then
/// the virtual points of rounds 1, 2, … in 4 columns every 5 from column 10
/// (as bbpPairings and [`parse`] read them).
pub fn xxa_lines(t: &Tournament) -> String {
    let last = t
        .accelerations
        .iter()
        .map(|a| a.last_round)
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for id in 1..=t.players.len() as u32 {
        let points: Vec<u32> = (1..=last).map(|r| t.acceleration(id, r)).collect();
        if points.iter().all(|&p| p == 0) {
            continue;
        }
        out.push_str(&format!("XXA {id:>4}"));
        for p in points {
            out.push_str(&format!(" {:>4}", crate::format_points_dot(p)));
        }
        out.push('\n');
    }
    out
}

/// Writes a tournament as [`write`] does, for storing: refused, with
/// nothing written, when a value does not fit its TRF column
/// ([`crate::Tournament::check_fits_trf`]) or when the text would not read back
/// ([`parse`]). Every front end that stores a tournament (the command
/// line's file, the server's row) writes it through here, so that one
/// accepted request can never leave a tournament nobody can read.
pub fn write_checked(t: &Tournament) -> Result<String, crate::TorneoError> {
    t.check_fits_trf()?;
    let text = write(t);
    parse(&text).map_err(crate::TorneoError::WouldNotReadBack)?;
    Ok(text)
}
