//! TRF-2026 team files, read and written.
//!
//! What is written (columns 1-based):
//! - the header records (`012` … `142`, `152` initial colour), `092` the
//!   tournament type with the names Gacrux reads (`FIDE_TEAM_TYPEA_MP_GP`,
//!   `FIDE_TEAM_TYPEB_GP_MP`, `FIDE_TEAM_MP_GP`, `FIDE_TEAM_ROUNDROBIN`,
//!   `FIDE_TEAM_DOUBLEROUNDROBIN`; escaque's own
//!   `ESCAQUE_TEAM_SCHEVENINGEN[_DOUBLE]`), `202` the tie-breaks, `352` the
//!   colour sequence of the first team's boards (its length is the number
//!   of boards), `362` the match scoring (`TW`, `TD`, `TL`, `TP` in 9-column
//!   fields from column 5);
//! - `001` one line per player, teams one after the other in roster order;
//!   each round in columns 92-95 (opponent), 97 (colour), 99 (result), then
//!   102-109 …; a player who did not play that round has a blank cell, a
//!   board won because the opponent's board was left empty is `0000 - +`;
//! - `310` one line per team: number 5-7, name 9-40, short name 42-46,
//!   average rating 48-53, match points 55-60, game points 62-67, rank
//!   69-71, then the roster's start numbers in 74-77, 79-82, … (the columns
//!   Gacrux reads);
//! - `300` one line per team and match: round 5-7, the team 9-11, its
//!   opponent 13-15, then the start numbers board by board in 17-20,
//!   22-25, … (0000: the board left empty); the first-named team's line
//!   comes first;
//! - `320` the pairing-allocated byes: match points 5-8, game points 10-13,
//!   then per round the team given the bye in 15-17, 19-21, …;
//! - `240` each requested bye: `F` (full point), `H` (half) or `Z` (zero)
//!   in 5, round 7-9, team 11-14 (as Sharly Chess writes them);
//! - `330` each whole-match forfeit: `+-`, `-+` or `--` in 5-6, round
//!   8-10, first team 12-14, second team 16-18;
//! - escaque's `XZR` school rules (teams per school 5-7, 0 = no limit;
//!   teams counted per school 9-11; `CATEGORY:K,…` from 13), `XZQ` (team number 5-7, captain's roster place 9-11, `F` for
//!   a fixed board order in 13, the school from 15), `XZK` (a player's
//!   category) and `XZF` (two teams that must not meet: team numbers
//!   5-7 and 9-11) lines, and `XZB` alone (the Baku acceleration of a
//!   team Swiss), which other programs ignore.
//!
//! Reading takes the same records back; a file that contradicts itself (a
//! player in two teams, a line-up naming a player of another team, the two
//! players of a board disagreeing) is refused with the line and column.

use std::collections::BTreeMap;

use crate::error::{TrfError, TrfErrorKind};
use crate::model::GameResult;
use crate::teams::model::{
    Board, BoardResult, Match, Member, RequestedBye, Scoring, Side, Team, TeamRound, TeamSystem,
    TeamTournament,
};
use crate::teams::standings::{self, TeamTieBreak};
use crate::teams::swiss::ColourType;

fn fit(s: &str, width: usize) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(width)
        .collect()
}

fn pts(hp: u32) -> String {
    crate::format_points_dot(hp)
}

fn type_name(t: &TeamTournament) -> String {
    match t.system {
        TeamSystem::Swiss => {
            let kind = match t.colour_preferences {
                ColourType::A => "TYPEA_",
                ColourType::B => "TYPEB_",
                ColourType::None => "",
            };
            let order = if t.pair_by_game_points {
                "GP_MP"
            } else {
                "MP_GP"
            };
            format!("FIDE_TEAM_{kind}{order}")
        }
        TeamSystem::RoundRobin { double: false } => "FIDE_TEAM_ROUNDROBIN".into(),
        TeamSystem::RoundRobin { double: true } => "FIDE_TEAM_DOUBLEROUNDROBIN".into(),
        TeamSystem::Scheveningen { double: false } => "ESCAQUE_TEAM_SCHEVENINGEN".into(),
        TeamSystem::Scheveningen { double: true } => "ESCAQUE_TEAM_SCHEVENINGEN_DOUBLE".into(),
    }
}

/// The start number of every roster player: teams one after the other.
fn offsets(t: &TeamTournament) -> Vec<u32> {
    let mut out = Vec::with_capacity(t.teams.len());
    let mut n = 0;
    for team in &t.teams {
        out.push(n);
        n += team.members.len() as u32;
    }
    out
}

/// Writes the tournament as a TRF-2026 team file.
pub fn write(t: &TeamTournament) -> String {
    let mut out = String::new();
    for (code, v) in [
        ("012", &t.name),
        ("022", &t.city),
        ("032", &t.federation),
        ("042", &t.start_date),
        ("052", &t.end_date),
        ("102", &t.chief_arbiter),
        ("122", &t.time_control),
    ] {
        if !v.trim().is_empty() {
            out.push_str(&format!("{code} {}\n", fit(v, 200)));
        }
    }
    let players: usize = t.teams.iter().map(|x| x.members.len()).sum();
    out.push_str(&format!("062 {players}\n"));
    out.push_str(&format!(
        "072 {}\n",
        t.teams
            .iter()
            .flat_map(|x| &x.members)
            .filter(|m| m.rating.is_some())
            .count()
    ));
    out.push_str(&format!("082 {}\n", t.teams.len()));
    out.push_str(&format!("092 {}\n", type_name(t)));
    out.push_str(&format!("142 {}\n", t.total_rounds));
    out.push_str(&format!("152 {}\n", if t.first_white { 'W' } else { 'B' }));
    out.push_str(&format!("182 escaque {}\n", env!("CARGO_PKG_VERSION")));
    let codes: Vec<&str> = t.tiebreaks.iter().map(|tb| tb.code()).collect();
    if !codes.is_empty() {
        out.push_str(&format!("202 {}\n", codes.join(",")));
    }
    let seq: String = (0..t.boards)
        .map(|b| {
            if (b % 2 == 0) == t.first_white {
                'W'
            } else {
                'B'
            }
        })
        .collect();
    out.push_str(&format!("352 {seq}\n"));
    let s = &t.scoring;
    out.push_str(&format!(
        "362 TW{:>4}   TD{:>4}   TL{:>4}   TP{:>4}\n",
        s.win, s.draw, s.loss, s.bye_match_points
    ));
    let off = offsets(t);
    let played = t.rounds.len() as u32;
    let table = standings::compute(t);
    for (ti, team) in t.teams.iter().enumerate() {
        let tid = ti as u32 + 1;
        for (mi, m) in team.members.iter().enumerate() {
            let id = off[ti] + mi as u32 + 1;
            let mut total = 0;
            let mut cells = String::new();
            for r in 1..=played {
                let cell = t.match_of(r, tid).and_then(|(_, mt)| {
                    let side = mt.side_of(tid)?;
                    mt.boards.iter().find_map(|b| {
                        let (me, them, other_team) = match side {
                            Side::Home => (b.home_player, b.away_player, mt.away),
                            Side::Away => (b.away_player, b.home_player, mt.home),
                        };
                        if me != Some(mi) {
                            return None;
                        }
                        let (h, a) = b.result.points();
                        let outcome = b.result.outcome(b.home_white);
                        let white = (side == Side::Home) == b.home_white;
                        let gr = outcome.for_side(if white {
                            crate::model::Colour::White
                        } else {
                            crate::model::Colour::Black
                        });
                        total += if side == Side::Home { h } else { a };
                        Some(match them {
                            Some(o) => format!(
                                "  {:>4} {} {}",
                                off[other_team as usize - 1] + o as u32 + 1,
                                if white { 'w' } else { 'b' },
                                gr.trf_code()
                            ),
                            None => "  0000 - +".to_string(),
                        })
                    })
                });
                cells.push_str(&cell.unwrap_or_else(|| " ".repeat(10)));
            }
            let line = format!(
                "001 {:>4} {:1}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {:>4} {:>4}{}",
                id,
                fit(&m.sex, 1),
                fit(&m.title, 3),
                fit(&m.name, 33),
                m.rating.map(|r| r.to_string()).unwrap_or_default(),
                fit(&m.federation, 3),
                m.fide_id.map(|x| x.to_string()).unwrap_or_default(),
                m.birth_year.map(|y| format!("{y:04}")).unwrap_or_default(),
                pts(total),
                0,
                cells
            );
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    for (ti, team) in t.teams.iter().enumerate() {
        let tid = ti as u32 + 1;
        let row = table.iter().find(|r| r.team == tid);
        let mut line = format!(
            "310 {:>3} {:<32} {:<5} {:>6} {:>6} {:>6} {:>3} ",
            tid,
            fit(&team.name, 32),
            fit(&team.short, 5),
            team.average_rating(t.boards)
                .map(|r| r.to_string())
                .unwrap_or_default(),
            row.map(|r| r.match_points).unwrap_or(0),
            pts(row.map(|r| r.game_points).unwrap_or(0)),
            row.map(|r| r.rank).unwrap_or(0),
        );
        for mi in 0..team.members.len() {
            line.push_str(&format!(" {:>4}", off[ti] + mi as u32 + 1));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for (ri, round) in t.rounds.iter().enumerate() {
        for m in &round.matches {
            for side in [Side::Home, Side::Away] {
                let (team, other) = match side {
                    Side::Home => (m.home, m.away),
                    Side::Away => (m.away, m.home),
                };
                let mut line = format!("300 {:>3} {:>3} {:>3}", ri + 1, team, other);
                for b in &m.boards {
                    let p = match side {
                        Side::Home => b.home_player,
                        Side::Away => b.away_player,
                    };
                    let n = p
                        .map(|p| off[team as usize - 1] + p as u32 + 1)
                        .unwrap_or(0);
                    line.push_str(&format!(" {n:>4}"));
                }
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    // The bye's value is written whenever it is not C.04.6's default or a
    // bye was given, so that it survives a file with no bye yet.
    if t.rounds.iter().any(|r| r.bye.is_some()) || s.bye_game_points.is_some() {
        let mut line = format!(
            "320 {:>4} {:>4}",
            s.bye_match_points,
            pts(s.bye_game_points_for(t.boards))
        );
        for r in &t.rounds {
            line.push_str(&format!(" {:>3}", r.bye.unwrap_or(0)));
        }
        out.push_str(&line);
        out.push('\n');
    }
    for &(round, team, kind) in &t.requested_byes {
        out.push_str(&format!("240 {} {round:>3} {team:>4}\n", kind.code()));
    }
    for (ri, round) in t.rounds.iter().enumerate() {
        for m in &round.matches {
            let all = |r: BoardResult| m.boards.iter().all(|b| b.result == r);
            let code = if all(BoardResult::HomeForfeitWin) {
                "+-"
            } else if all(BoardResult::AwayForfeitWin) {
                "-+"
            } else if all(BoardResult::DoubleForfeit) {
                "--"
            } else {
                continue;
            };
            out.push_str(&format!(
                "330 {code} {:>3} {:>3} {:>3}\n",
                ri + 1,
                m.home,
                m.away
            ));
        }
    }
    if let Some(r) = &t.school {
        let cats: Vec<String> = r
            .categories
            .iter()
            .map(|(c, k)| format!("{}:{k}", fit(c, 20).replace([' ', ',', ':'], "_")))
            .collect();
        out.push_str(
            format!(
                "XZR {:>3} {:>3} {}",
                r.max_teams.unwrap_or(0),
                r.counted,
                cats.join(",")
            )
            .trim_end(),
        );
        out.push('\n');
    }
    for (a, b) in &t.forbidden {
        out.push_str(&format!("XZF {a:>3} {b:>3}\n"));
    }
    if t.baku {
        out.push_str("XZB\n");
    }
    for (ti, team) in t.teams.iter().enumerate() {
        out.push_str(
            format!(
                "XZQ {:>3} {:>3} {} {}",
                ti + 1,
                team.captain.map(|c| c + 1).unwrap_or(0),
                if team.fixed_order { 'F' } else { 'R' },
                fit(&team.school, 100)
            )
            .trim_end(),
        );
        out.push('\n');
        for (mi, m) in team.members.iter().enumerate() {
            if !m.category.trim().is_empty() {
                out.push_str(&format!(
                    "XZK {:>4} {}\n",
                    off[ti] + mi as u32 + 1,
                    fit(&m.category, 100)
                ));
            }
        }
    }
    out
}

fn err(line: usize, column: usize, kind: TrfErrorKind) -> TrfError {
    TrfError { line, column, kind }
}

fn unexpected(line: usize, column: usize, what: String) -> TrfError {
    err(line, column, TrfErrorKind::Unexpected(what))
}

/// Characters `from..=to` (1-based), trimmed; empty past the end.
fn field(chars: &[char], from: usize, to: usize) -> String {
    if from > chars.len() {
        return String::new();
    }
    chars[from - 1..to.min(chars.len())]
        .iter()
        .collect::<String>()
        .trim()
        .to_string()
}

fn num<T: std::str::FromStr>(
    text: &str,
    name: &'static str,
    line: usize,
    col: usize,
) -> Result<T, TrfError> {
    text.parse::<T>().map_err(|_| {
        err(
            line,
            col,
            TrfErrorKind::BadNumber {
                field: name,
                text: text.to_string(),
            },
        )
    })
}

fn opt<T: std::str::FromStr>(
    text: &str,
    name: &'static str,
    line: usize,
    col: usize,
) -> Result<Option<T>, TrfError> {
    if text.is_empty() {
        Ok(None)
    } else {
        num(text, name, line, col).map(Some)
    }
}

/// Half points from "6.5", "6", "6,5".
fn half_points(text: &str, name: &'static str, line: usize, col: usize) -> Result<u32, TrfError> {
    let t = text.replace(',', ".");
    let (whole, frac) = t.split_once('.').unwrap_or((&t, ""));
    let w: u32 = num(whole, name, line, col)?;
    let half = match frac.trim_end_matches('0') {
        "" => 0,
        "5" => 1,
        _ => {
            return Err(err(
                line,
                col,
                TrfErrorKind::BadNumber {
                    field: name,
                    text: text.to_string(),
                },
            ))
        }
    };
    w.checked_mul(2)
        .and_then(|x| x.checked_add(half))
        .ok_or_else(|| {
            err(
                line,
                col,
                TrfErrorKind::BadNumber {
                    field: name,
                    text: text.to_string(),
                },
            )
        })
}

/// A round cell of a player line.
#[derive(Clone, Copy)]
struct Cell {
    opponent: u32,
    white: Option<bool>,
    result: GameResult,
}

/// The largest number of rounds, boards, teams and players a file may
/// name (far above any real event; keeps bad input from asking for huge
/// allocations).
const LIMIT: u32 = 10_000;

/// Reads a TRF-2026 team file.
pub fn parse(text: &str) -> Result<TeamTournament, TrfError> {
    let mut t = TeamTournament::new("", TeamSystem::Swiss, 1, 0);
    t.tiebreaks = Vec::new();
    let mut players: BTreeMap<u32, (Member, Vec<Option<Cell>>, usize)> = BTreeMap::new();
    let mut teams: BTreeMap<u32, (Team, Vec<u32>, usize)> = BTreeMap::new();
    let mut lineups: Vec<(u32, u32, u32, Vec<u32>, usize)> = Vec::new();
    let mut byes: Vec<(u32, u32)> = Vec::new();
    let mut requested: Vec<(u32, u32, RequestedBye, usize)> = Vec::new();
    let mut extras: Vec<(usize, String, Vec<char>)> = Vec::new();
    let mut boards: Option<u32> = None;
    let mut tiebreaks_given = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let chars: Vec<char> = raw.trim_end().chars().collect();
        if chars.len() < 3 {
            continue;
        }
        let code: String = chars[..3].iter().collect();
        let rest = field(&chars, 5, chars.len().max(5));
        match code.as_str() {
            "012" => t.name = rest,
            "022" => t.city = rest,
            "032" => t.federation = rest,
            "042" => t.start_date = rest,
            "052" => t.end_date = rest,
            "102" => t.chief_arbiter = rest,
            "122" => t.time_control = rest,
            "092" => {
                let u = rest.to_ascii_uppercase();
                t.system = if u.contains("SCHEVENINGEN") {
                    TeamSystem::Scheveningen {
                        double: u.contains("DOUBLE"),
                    }
                } else if u.contains("ROUNDROBIN") {
                    TeamSystem::RoundRobin {
                        double: u.contains("DOUBLE"),
                    }
                } else {
                    TeamSystem::Swiss
                };
                t.colour_preferences = if u.contains("TYPEB") {
                    ColourType::B
                } else if u.contains("TYPEA") {
                    ColourType::A
                } else {
                    ColourType::None
                };
                // The first of MP/GP named is the primary score.
                t.pair_by_game_points = match (u.find("_GP"), u.find("_MP")) {
                    (Some(g), Some(m)) => g < m,
                    (Some(_), None) => true,
                    _ => false,
                };
            }
            "142" => {
                let n: u32 = num(&rest, "rounds", line, 5)?;
                if n > LIMIT {
                    return Err(unexpected(line, 5, rest));
                }
                t.total_rounds = n;
            }
            "152" => t.first_white = !rest.to_ascii_uppercase().starts_with('B'),
            "202" => {
                tiebreaks_given = true;
                for c in rest.split([',', ' ']).filter(|c| !c.is_empty()) {
                    let tb = TeamTieBreak::from_code(c).ok_or_else(|| {
                        err(line, 5, TrfErrorKind::UnknownTieBreak(c.to_string()))
                    })?;
                    if tb != TeamTieBreak::MatchPoints {
                        t.tiebreaks.push(tb);
                    }
                }
            }
            "352" => {
                if rest.is_empty()
                    || rest.chars().count() as u32 > LIMIT
                    || rest.chars().any(|c| !matches!(c, 'W' | 'B' | 'w' | 'b'))
                {
                    return Err(unexpected(line, 5, rest));
                }
                boards = Some(rest.chars().count() as u32);
                t.first_white = rest.to_ascii_uppercase().starts_with('W');
            }
            "362" => {
                let mut s = Scoring::default();
                let mut col = 5;
                while col < chars.len() {
                    let tag = field(&chars, col, col + 1).to_ascii_uppercase();
                    let v = field(&chars, col + 2, col + 5);
                    let v = v.split('.').next().unwrap_or("");
                    let value: u32 = num(v, "match points", line, col + 2)?;
                    match tag.as_str() {
                        "TW" => s.win = value,
                        "TD" => s.draw = value,
                        "TL" => s.loss = value,
                        "TP" => s.bye_match_points = value,
                        _ => return Err(unexpected(line, col, tag)),
                    }
                    col += 9;
                }
                if s.win <= s.draw || s.draw < s.loss {
                    return Err(unexpected(line, 5, rest));
                }
                t.scoring = Scoring {
                    bye_game_points: t.scoring.bye_game_points,
                    ..s
                };
            }
            "001" => {
                if chars.len() < 84 {
                    return Err(err(line, chars.len() + 1, TrfErrorKind::ShortLine));
                }
                let id: u32 = num(&field(&chars, 5, 8), "start number", line, 5)?;
                if id == 0 || id > LIMIT {
                    return Err(unexpected(line, 5, id.to_string()));
                }
                let m = Member {
                    sex: field(&chars, 10, 10),
                    title: field(&chars, 11, 13),
                    name: field(&chars, 15, 47),
                    rating: opt(&field(&chars, 49, 52), "rating", line, 49)?,
                    federation: field(&chars, 54, 56),
                    fide_id: opt(&field(&chars, 58, 68), "FIDE id", line, 58)?,
                    birth_year: {
                        let b = field(&chars, 70, 79);
                        opt(
                            b.get(..4.min(b.len())).unwrap_or(""),
                            "birth year",
                            line,
                            70,
                        )?
                    },
                    category: String::new(),
                };
                let mut cells = Vec::new();
                let mut col = 92;
                while col <= chars.len() {
                    let opp = field(&chars, col, col + 3);
                    let colour = chars.get(col + 4).copied().unwrap_or(' ');
                    let res = chars.get(col + 6).copied().unwrap_or(' ');
                    if opp.is_empty() && colour == ' ' && res == ' ' {
                        cells.push(None);
                    } else {
                        let opponent: u32 = num(&opp, "opponent", line, col)?;
                        let white = match colour {
                            'w' | 'W' => Some(true),
                            'b' | 'B' => Some(false),
                            '-' | ' ' => None,
                            c => return Err(err(line, col + 4, TrfErrorKind::BadColour(c))),
                        };
                        let result = GameResult::from_trf(res)
                            .ok_or_else(|| err(line, col + 6, TrfErrorKind::BadResult(res)))?;
                        if (opponent == 0) != white.is_none()
                            || (opponent == 0 && result != GameResult::ForfeitWin)
                        {
                            return Err(unexpected(
                                line,
                                col,
                                chars[col - 1..(col + 6).min(chars.len())].iter().collect(),
                            ));
                        }
                        cells.push(Some(Cell {
                            opponent,
                            white,
                            result,
                        }));
                    }
                    if cells.len() as u32 > LIMIT {
                        return Err(unexpected(line, col, "…".into()));
                    }
                    col += 10;
                }
                if players.insert(id, (m, cells, line)).is_some() {
                    return Err(err(line, 5, TrfErrorKind::DuplicateStartNumber(id)));
                }
            }
            "310" => {
                let id: u32 = num(&field(&chars, 5, 7), "team number", line, 5)?;
                if id == 0 || id > LIMIT {
                    return Err(unexpected(line, 5, id.to_string()));
                }
                let team = Team {
                    name: field(&chars, 9, 40),
                    short: field(&chars, 42, 46),
                    ..Team::default()
                };
                let mut members = Vec::new();
                let mut col = 74;
                while col <= chars.len() {
                    let p = field(&chars, col, col + 3);
                    if !p.is_empty() {
                        members.push(num::<u32>(&p, "player number", line, col)?);
                    }
                    col += 5;
                }
                if teams.insert(id, (team, members, line)).is_some() {
                    return Err(unexpected(line, 5, format!("310 {id}")));
                }
            }
            "300" => {
                let round: u32 = num(&field(&chars, 5, 7), "round", line, 5)?;
                let team: u32 = num(&field(&chars, 9, 11), "team number", line, 9)?;
                let other: u32 = num(&field(&chars, 13, 15), "team number", line, 13)?;
                if round == 0 || round > LIMIT {
                    return Err(unexpected(line, 5, round.to_string()));
                }
                let mut list = Vec::new();
                let mut col = 17;
                while col <= chars.len() {
                    list.push(num::<u32>(
                        &field(&chars, col, col + 3),
                        "player number",
                        line,
                        col,
                    )?);
                    col += 5;
                }
                lineups.push((round, team, other, list, line));
            }
            "320" => {
                t.scoring.bye_match_points = num(&field(&chars, 5, 8), "match points", line, 5)?;
                t.scoring.bye_game_points = Some(half_points(
                    &field(&chars, 10, 13),
                    "game points",
                    line,
                    10,
                )?);
                let mut col = 15;
                let mut round = 1;
                while col <= chars.len() {
                    let x = field(&chars, col, col + 2);
                    if !x.is_empty() {
                        let team: u32 = num(&x, "team number", line, col)?;
                        if team > 0 {
                            byes.push((round, team));
                        }
                    }
                    round += 1;
                    col += 4;
                }
            }
            "XZR" => {
                let max: u32 = num(&field(&chars, 5, 7), "school teams", line, 5)?;
                let counted: u32 = num(&field(&chars, 9, 11), "school teams counted", line, 9)?;
                let mut categories = Vec::new();
                for c in field(&chars, 13, chars.len().max(13))
                    .split(',')
                    .filter(|c| !c.is_empty())
                {
                    let (name, k) = c
                        .rsplit_once(':')
                        .ok_or_else(|| unexpected(line, 13, c.to_string()))?;
                    categories.push((name.to_string(), num(k, "category players", line, 13)?));
                }
                t.school = Some(crate::teams::school::SchoolRules {
                    max_teams: (max > 0).then_some(max),
                    categories,
                    counted,
                });
            }
            "240" => {
                let kind = field(&chars, 5, 5);
                let kind = kind
                    .chars()
                    .next()
                    .and_then(RequestedBye::from_code)
                    .ok_or_else(|| unexpected(line, 5, kind.clone()))?;
                let round: u32 = num(&field(&chars, 7, 9), "round", line, 7)?;
                let mut col = 11;
                for x in field(&chars, 11, chars.len().max(11)).split_whitespace() {
                    let team: u32 = num(x, "team number", line, col)?;
                    requested.push((round, team, kind, line));
                    col += x.chars().count() + 1;
                }
            }
            "XZB" => t.baku = true,
            "330" | "XZQ" | "XZK" | "XZF" => extras.push((line, code, chars)),
            _ => {}
        }
    }
    if !tiebreaks_given {
        t.tiebreaks = TeamTieBreak::default_list();
    }
    // Teams, in number order, numbered 1..n.
    let mut team_of: BTreeMap<u32, (u32, usize)> = BTreeMap::new();
    for (k, (&id, (team, members, line))) in teams.iter().enumerate() {
        if id != k as u32 + 1 {
            return Err(unexpected(*line, 5, format!("{id}")));
        }
        let mut team = team.clone();
        for (pos, &p) in members.iter().enumerate() {
            let (m, _, _) = players
                .get(&p)
                .ok_or_else(|| err(*line, 74 + 5 * pos, TrfErrorKind::UnknownPlayer(p)))?;
            if let Some((other, _)) = team_of.insert(p, (id, pos)) {
                return Err(unexpected(
                    *line,
                    74 + 5 * pos,
                    format!("{p} (310 {other})"),
                ));
            }
            team.members.push(m.clone());
        }
        if team.members.is_empty() || team.name.is_empty() {
            return Err(unexpected(*line, 9, team.name));
        }
        team.fixed_order = true;
        t.teams.push(team);
    }
    if let Some((&p, (_, _, line))) = players.iter().find(|(p, _)| !team_of.contains_key(p)) {
        return Err(unexpected(*line, 5, format!("{p}")));
    }
    for (line, code, chars) in &extras {
        let line = *line;
        match code.as_str() {
            "XZQ" => {
                let id: u32 = num(&field(chars, 5, 7), "team number", line, 5)?;
                let team = t
                    .teams
                    .get_mut((id as usize).wrapping_sub(1))
                    .ok_or_else(|| unexpected(line, 5, id.to_string()))?;
                let captain: usize = num(&field(chars, 9, 11), "captain", line, 9)?;
                if captain > team.members.len() {
                    return Err(unexpected(line, 9, captain.to_string()));
                }
                team.captain = captain.checked_sub(1);
                team.fixed_order = field(chars, 13, 13) == "F";
                team.school = field(chars, 15, chars.len().max(15));
            }
            "XZF" => {
                let a: u32 = num(&field(chars, 5, 7), "team number", line, 5)?;
                let b: u32 = num(&field(chars, 9, 11), "team number", line, 9)?;
                let n = t.teams.len() as u32;
                if a == 0 || a > n {
                    return Err(unexpected(line, 5, a.to_string()));
                }
                if b == 0 || b > n || b == a {
                    return Err(unexpected(line, 9, b.to_string()));
                }
                let pair = (a.min(b), a.max(b));
                if !t.forbidden.contains(&pair) {
                    t.forbidden.push(pair);
                    t.forbidden.sort_unstable();
                }
            }
            "XZK" => {
                let p: u32 = num(&field(chars, 5, 8), "player number", line, 5)?;
                let (tid, pos) = *team_of
                    .get(&p)
                    .ok_or_else(|| err(line, 5, TrfErrorKind::UnknownPlayer(p)))?;
                t.teams[tid as usize - 1].members[pos].category =
                    field(chars, 10, chars.len().max(10));
            }
            _ => {
                // 330: checked against the boards below.
                let kind = field(chars, 5, 6);
                if !matches!(kind.as_str(), "+-" | "-+" | "--") {
                    return Err(unexpected(line, 5, kind));
                }
                num::<u32>(&field(chars, 8, 10), "round", line, 8)?;
                num::<u32>(&field(chars, 12, 14), "team number", line, 12)?;
                num::<u32>(&field(chars, 16, 18), "team number", line, 16)?;
            }
        }
    }
    t.boards = boards
        .unwrap_or_else(|| lineups.iter().map(|l| l.3.len() as u32).max().unwrap_or(1))
        .max(1);
    // Rounds: the matches from the 300 lines, the results from the players.
    let rounds = lineups
        .iter()
        .map(|l| l.0)
        .chain(byes.iter().map(|b| b.0))
        .max()
        .unwrap_or(0);
    let n_teams = t.teams.len() as u32;
    for r in 1..=rounds {
        let mut round = TeamRound::default();
        let mine: Vec<&(u32, u32, u32, Vec<u32>, usize)> =
            lineups.iter().filter(|l| l.0 == r).collect();
        let mut used = vec![false; mine.len()];
        for i in 0..mine.len() {
            if used[i] {
                continue;
            }
            let (_, home, away, hl, line) = mine[i];
            let line = *line;
            if *home == 0 || *home > n_teams || *away == 0 || *away > n_teams || home == away {
                return Err(unexpected(line, 9, format!("{home} {away}")));
            }
            let j = (i + 1..mine.len())
                .find(|&j| !used[j] && mine[j].1 == *away && mine[j].2 == *home)
                .ok_or_else(|| unexpected(line, 13, format!("{away}")))?;
            used[i] = true;
            used[j] = true;
            let al = &mine[j].3;
            if hl.len() != t.boards as usize || al.len() != t.boards as usize {
                return Err(unexpected(line, 17, format!("{} / {}", hl.len(), t.boards)));
            }
            let member =
                |team: u32, p: u32, line: usize, col: usize| -> Result<Option<usize>, TrfError> {
                    if p == 0 {
                        return Ok(None);
                    }
                    match team_of.get(&p) {
                        Some(&(tid, pos)) if tid == team => Ok(Some(pos)),
                        _ => Err(unexpected(line, col, format!("{p}"))),
                    }
                };
            let mut m = Match {
                home: *home,
                away: *away,
                boards: Vec::new(),
            };
            for b in 0..t.boards as usize {
                let col = 17 + 5 * b;
                let hp = member(*home, hl[b], line, col)?;
                let ap = member(*away, al[b], mine[j].4, col)?;
                let cell = |p: u32| -> Option<Cell> {
                    players
                        .get(&p)
                        .and_then(|(_, cells, _)| cells.get(r as usize - 1).copied().flatten())
                };
                let (hc, ac) = (cell(hl[b]), cell(al[b]));
                let (home_white, result) = match (hp, ap) {
                    (Some(_), Some(_)) => {
                        let (Some(h), Some(a)) = (hc, ac) else {
                            return Err(err(
                                line,
                                col,
                                TrfErrorKind::Inconsistent {
                                    player: hl[b],
                                    opponent: al[b],
                                    round: r,
                                },
                            ));
                        };
                        let ok = h.opponent == al[b]
                            && a.opponent == hl[b]
                            && h.white.is_some()
                            && h.white == a.white.map(|w| !w);
                        let white = h.white.unwrap_or(true);
                        let outcome = if white {
                            crate::model::Outcome::from_sides(h.result, a.result)
                        } else {
                            crate::model::Outcome::from_sides(a.result, h.result)
                        };
                        match (ok, outcome) {
                            (true, Some(o)) => (white, BoardResult::from_outcome(o, white)),
                            _ => {
                                return Err(err(
                                    line,
                                    col,
                                    TrfErrorKind::Inconsistent {
                                        player: hl[b],
                                        opponent: al[b],
                                        round: r,
                                    },
                                ))
                            }
                        }
                    }
                    (Some(_), None) => (b % 2 == 0, BoardResult::HomeForfeitWin),
                    (None, Some(_)) => (b % 2 == 0, BoardResult::AwayForfeitWin),
                    (None, None) => (b % 2 == 0, BoardResult::DoubleForfeit),
                };
                m.boards.push(Board {
                    home_player: hp,
                    away_player: ap,
                    home_white,
                    result,
                });
            }
            round.matches.push(m);
        }
        round.bye = byes.iter().find(|b| b.0 == r).map(|b| b.1);
        if let Some(b) = round.bye {
            if b > n_teams {
                return Err(unexpected(0, 15, b.to_string()));
            }
        }
        t.record_round(round)
            .map_err(|e| unexpected(0, 1, e.to_string()))?;
    }
    if matches!(t.system, TeamSystem::Swiss) && t.total_rounds < rounds {
        t.total_rounds = rounds;
    }
    for (round, team, kind, line) in requested {
        if team == 0 || team > n_teams || round == 0 {
            return Err(unexpected(line, 7, format!("{round} {team}")));
        }
        // A team cannot both play (or get the bye) and ask not to play.
        if let Some(r) = t.rounds.get(round as usize - 1) {
            if r.bye == Some(team) || r.matches.iter().any(|m| m.home == team || m.away == team) {
                return Err(unexpected(line, 11, team.to_string()));
            }
        }
        t.requested_byes
            .retain(|&(r, x, _)| !(r == round && x == team));
        t.requested_byes.push((round, team, kind));
    }
    t.requested_byes.sort_unstable();
    if !matches!(t.system, TeamSystem::Swiss) {
        t.total_rounds = crate::teams::schedule::rounds_of(&t);
    }
    Ok(t)
}
