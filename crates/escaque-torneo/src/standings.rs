//! Standings and tie-breaks (FIDE C.07, the 2023/2024 regulations).
//!
//! Unplayed rounds, as the regulations have them since 2023:
//! - for Buchholz-family tie-breaks a participant's own unplayed round
//!   (bye, forfeit either way, absence) counts as a game against a dummy
//!   opponent with the participant's own final score;
//! - an opponent's score is adjusted: each of the opponent's unplayed
//!   rounds counts as a draw;
//! - Buchholz cut-1 and median cut the participant's voluntarily unplayed
//!   rounds (half-point and zero-point byes, absences, forfeit losses)
//!   before the lowest values;
//! - Sonneborn-Berger uses the same values times the points of the round;
//! - Koya counts opponents with at least half of the points they could have
//!   scored (rounds resting in a round robin, or absent, do not count).

use std::cmp::Ordering;

use crate::model::{ByeKind, Colour, Entry, GameResult, PlayerId, System, Tournament};
use crate::HalfPoints;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// BH: Buchholz.
    Buchholz,
    /// BH-C1: Buchholz cut 1.
    BuchholzCut1,
    /// BH-M1: median Buchholz (cut highest and lowest).
    MedianBuchholz,
    /// SB: Sonneborn-Berger.
    SonnebornBerger,
    /// DE: direct encounter among the tied players.
    DirectEncounter,
    /// WIN: rounds won, played or not (forfeit wins, full-point byes).
    Wins,
    /// WON: games won over the board.
    GamesWon,
    /// BPG: games played with Black.
    BlackGames,
    /// ARO: average rating of opponents.
    AverageRatingOpponents,
    /// PS: progressive score.
    Progressive,
    /// KS: Koya (points against those with at least half the points).
    Koya,
}

impl TieBreak {
    pub const ALL: [TieBreak; 11] = [
        TieBreak::Buchholz,
        TieBreak::BuchholzCut1,
        TieBreak::MedianBuchholz,
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
        TieBreak::Wins,
        TieBreak::GamesWon,
        TieBreak::BlackGames,
        TieBreak::AverageRatingOpponents,
        TieBreak::Progressive,
        TieBreak::Koya,
    ];

    /// The stable identifier: FIDE's acronym, used in files (TRF) and on the
    /// command line.
    pub fn id(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "BH",
            TieBreak::BuchholzCut1 => "BH-C1",
            TieBreak::MedianBuchholz => "BH-M1",
            TieBreak::SonnebornBerger => "SB",
            TieBreak::DirectEncounter => "DE",
            TieBreak::Wins => "WIN",
            TieBreak::GamesWon => "WON",
            TieBreak::BlackGames => "BPG",
            TieBreak::AverageRatingOpponents => "ARO",
            TieBreak::Progressive => "PS",
            TieBreak::Koya => "KS",
        }
    }

    /// The tie-break with identifier `id` ([`TieBreak::id`]), read ignoring
    /// case and surrounding spaces.
    pub fn from_id(id: &str) -> Option<TieBreak> {
        let c = id.trim().to_ascii_uppercase();
        TieBreak::ALL.into_iter().find(|tb| tb.id() == c)
    }

    /// Spanish name for printouts.
    pub fn name_es(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "Buchholz",
            TieBreak::BuchholzCut1 => "Buchholz -1",
            TieBreak::MedianBuchholz => "Buchholz mediano",
            TieBreak::SonnebornBerger => "Sonneborn-Berger",
            TieBreak::DirectEncounter => "Encuentro directo",
            TieBreak::Wins => "Victorias",
            TieBreak::GamesWon => "Victorias jugadas",
            TieBreak::BlackGames => "Partidas con negras",
            TieBreak::AverageRatingOpponents => "Elo medio rivales",
            TieBreak::Progressive => "Progresivo",
            TieBreak::Koya => "Koya",
        }
    }

    pub fn default_order(system: System) -> Vec<TieBreak> {
        match system {
            System::Swiss => vec![
                TieBreak::BuchholzCut1,
                TieBreak::Buchholz,
                TieBreak::SonnebornBerger,
                TieBreak::DirectEncounter,
                TieBreak::Wins,
            ],
            System::RoundRobin { .. } => vec![
                TieBreak::DirectEncounter,
                TieBreak::SonnebornBerger,
                TieBreak::Wins,
                TieBreak::Koya,
            ],
        }
    }

    /// Reads a comma- or space-separated list of codes.
    pub fn parse_list(text: &str) -> Result<Vec<TieBreak>, crate::TorneoError> {
        text.split([',', ' '])
            .filter(|w| !w.is_empty())
            .map(|w| TieBreak::from_id(w).ok_or(crate::TorneoError::UnknownTieBreak(w.into())))
            .collect()
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1-based place; tied players (all tie-breaks equal) share it.
    pub rank: u32,
    pub player: PlayerId,
    pub points: HalfPoints,
    /// Values in the organiser's order of tie-breaks.
    pub tiebreaks: Vec<f64>,
}

/// Per-player facts the tie-breaks are computed from.
struct Facts {
    score: Vec<HalfPoints>,
    entries: Vec<Vec<Entry>>,
}

impl Facts {
    /// The facts of rounds `1..=rounds`.
    fn new(t: &Tournament, rounds: u32) -> Facts {
        let n = t.players.len() as u32;
        let entries: Vec<Vec<Entry>> = (1..=n)
            .map(|id| (1..=rounds).map(|r| t.entry(id, r)).collect())
            .collect();
        let score = entries
            .iter()
            .map(|e| e.iter().map(|x| x.points()).sum())
            .collect();
        Facts { score, entries }
    }

    /// Opponent's score with every unplayed round counted as a draw, in half points.
    fn adjusted(&self, id: PlayerId) -> HalfPoints {
        self.entries[id as usize - 1]
            .iter()
            .map(|e| if e.played() { e.points() } else { 1 })
            .sum()
    }

    /// Buchholz contribution of each round, and whether it was voluntarily unplayed.
    fn contributions(&self, id: PlayerId) -> Vec<(HalfPoints, bool)> {
        let own = self.score[id as usize - 1];
        self.entries[id as usize - 1]
            .iter()
            .map(|e| match *e {
                Entry::Game {
                    opponent, result, ..
                } if result.played() => (self.adjusted(opponent), false),
                Entry::Game { result, .. } => (own, result != GameResult::ForfeitWin),
                Entry::Bye(k) => (own, matches!(k, ByeKind::Half | ByeKind::Zero)),
                Entry::Absent => (own, true),
            })
            .collect()
    }
}

fn half(hp: u32) -> f64 {
    hp as f64 / 2.0
}

fn cut(mut values: Vec<(HalfPoints, bool)>, low: usize, high: usize) -> f64 {
    // Voluntarily unplayed rounds go first, then the lowest.
    values.sort_by_key(|&(v, voluntary)| (!voluntary, v));
    let kept = values.len().saturating_sub(low);
    let mut rest: Vec<HalfPoints> = values.into_iter().skip(low).map(|x| x.0).collect();
    rest.sort_unstable();
    let kept_high = kept.saturating_sub(high);
    half(rest.into_iter().take(kept_high).sum())
}

fn value(t: &Tournament, f: &Facts, id: PlayerId, tb: TieBreak) -> f64 {
    let i = id as usize - 1;
    let entries = &f.entries[i];
    match tb {
        TieBreak::Buchholz => half(f.contributions(id).iter().map(|x| x.0).sum()),
        TieBreak::BuchholzCut1 => cut(f.contributions(id), 1, 0),
        TieBreak::MedianBuchholz => cut(f.contributions(id), 1, 1),
        TieBreak::SonnebornBerger => {
            let own = f.score[i];
            let quarters: u32 = entries
                .iter()
                .map(|e| match *e {
                    Entry::Game {
                        opponent, result, ..
                    } if result.played() => f.adjusted(opponent) * result.points(),
                    other => own * other.points(),
                })
                .sum();
            quarters as f64 / 4.0
        }
        TieBreak::DirectEncounter => 0.0, // Computed among tied groups in `compute`.
        TieBreak::Wins => entries.iter().filter(|e| e.points() == 2).count() as f64,
        TieBreak::GamesWon => entries
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Entry::Game {
                        result: GameResult::Win,
                        ..
                    }
                )
            })
            .count() as f64,
        TieBreak::BlackGames => entries
            .iter()
            .filter(|e| {
                e.played()
                    && matches!(
                        e,
                        Entry::Game {
                            colour: Colour::Black,
                            ..
                        }
                    )
            })
            .count() as f64,
        TieBreak::AverageRatingOpponents => {
            let ratings: Vec<u32> = entries
                .iter()
                .filter(|e| e.played())
                .filter_map(|e| match e {
                    Entry::Game { opponent, .. } => t.players[*opponent as usize - 1].rating,
                    _ => None,
                })
                .map(u32::from)
                .collect();
            if ratings.is_empty() {
                0.0
            } else {
                let n = ratings.len() as u32;
                // Rounded half up, as FIDE rounds averages.
                ((2 * ratings.iter().sum::<u32>() + n) / (2 * n)) as f64
            }
        }
        TieBreak::Progressive => {
            let mut running = 0;
            let mut total = 0;
            for e in entries {
                running += e.points();
                total += running;
            }
            half(total)
        }
        TieBreak::Koya => {
            // An opponent counts with at least half of the points they could
            // have scored: rounds in which they were not resting or absent.
            let counts = |o: PlayerId| {
                let oe = &f.entries[o as usize - 1];
                let possible = oe
                    .iter()
                    .filter(|e| !matches!(e, Entry::Bye(ByeKind::Zero) | Entry::Absent))
                    .count() as u32;
                f.score[o as usize - 1] >= possible
            };
            half(
                entries
                    .iter()
                    .filter_map(|e| match *e {
                        Entry::Game {
                            opponent, result, ..
                        } if counts(opponent) => Some(result.points()),
                        _ => None,
                    })
                    .sum(),
            )
        }
    }
}

/// Points scored in games among `group` (all of whom must have met each
/// other for the tie-break to separate them).
fn direct_encounter(f: &Facts, group: &[usize]) -> Vec<f64> {
    let mut pts = vec![0u32; group.len()];
    let mut met = vec![vec![false; group.len()]; group.len()];
    for (a, &pa) in group.iter().enumerate() {
        for e in &f.entries[pa] {
            if let Entry::Game {
                opponent, result, ..
            } = *e
            {
                if let Some(b) = group.iter().position(|&x| x == opponent as usize - 1) {
                    met[a][b] = true;
                    pts[a] += result.points();
                }
            }
        }
    }
    let all_met = (0..group.len()).all(|a| (0..group.len()).all(|b| a == b || met[a][b]));
    if all_met {
        pts.into_iter().map(half).collect()
    } else {
        vec![0.0; group.len()]
    }
}

/// The standings as they stand now: those of the last round with every
/// result in, and the round being played, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The standings are those after this round (0: before round 1).
    pub after_round: u32,
    /// The round paired and not finished (some game without result), shown
    /// as in progress and not counted.
    pub in_progress: Option<u32>,
    /// Best first, with the organiser's tie-breaks.
    pub rows: Vec<Standing>,
}

/// The standings of the last round with every result in
/// ([`Tournament::complete_rounds`]), and the round in progress
/// ([`Tournament::round_in_progress`]). A paired round without results
/// is not counted: its games are not unplayed rounds.
pub fn table(t: &Tournament) -> Table {
    let after_round = t.complete_rounds();
    Table {
        after_round,
        in_progress: t.round_in_progress(),
        rows: compute_after(t, after_round),
    }
}

/// The standings, best first, with the organiser's tie-breaks, after the
/// last round with every result in ([`table`] says which).
pub fn compute(t: &Tournament) -> Vec<Standing> {
    compute_after(t, t.complete_rounds())
}

/// The standings after round `rounds` (rounds later than it are left out;
/// a game of those rounds without result counts for nothing).
pub fn compute_after(t: &Tournament, rounds: u32) -> Vec<Standing> {
    let f = Facts::new(t, rounds.min(t.rounds.len() as u32));
    let n = t.players.len();
    let mut rows: Vec<Standing> = (0..n)
        .map(|i| Standing {
            rank: 0,
            player: i as u32 + 1,
            points: f.score[i],
            tiebreaks: t
                .tiebreaks
                .iter()
                .map(|&tb| value(t, &f, i as u32 + 1, tb))
                .collect(),
        })
        .collect();
    // Sort by points, then refine tied groups one tie-break at a time
    // (direct encounter looks only at the players still tied).
    rows.sort_by(|a, b| b.points.cmp(&a.points).then(a.player.cmp(&b.player)));
    for (k, &tb) in t.tiebreaks.iter().enumerate() {
        let mut start = 0;
        while start < n {
            let mut end = start + 1;
            while end < n && tied(&rows[start], &rows[end], k) {
                end += 1;
            }
            if end - start > 1 {
                if tb == TieBreak::DirectEncounter {
                    let group: Vec<usize> = rows[start..end]
                        .iter()
                        .map(|r| r.player as usize - 1)
                        .collect();
                    for (r, v) in rows[start..end]
                        .iter_mut()
                        .zip(direct_encounter(&f, &group))
                    {
                        r.tiebreaks[k] = v;
                    }
                }
                rows[start..end].sort_by(|a, b| {
                    b.tiebreaks[k]
                        .partial_cmp(&a.tiebreaks[k])
                        .unwrap_or(Ordering::Equal)
                        .then(a.player.cmp(&b.player))
                });
            }
            start = end;
        }
    }
    // Direct encounter for untied players is meaningless: show it only in groups.
    for i in 0..n {
        let rank = if i > 0 && tied(&rows[i - 1], &rows[i], t.tiebreaks.len()) {
            rows[i - 1].rank
        } else {
            i as u32 + 1
        };
        rows[i].rank = rank;
    }
    rows
}

/// Equal points and equal first `k` tie-breaks.
fn tied(a: &Standing, b: &Standing, k: usize) -> bool {
    a.points == b.points && a.tiebreaks[..k] == b.tiebreaks[..k]
}

/// Each player's place, indexed by start number - 1.
pub fn ranks(t: &Tournament) -> Vec<u32> {
    let mut out = vec![0; t.players.len()];
    for s in compute(t) {
        out[s.player as usize - 1] = s.rank;
    }
    out
}

/// Standings of one category, in the overall order, with their own places.
pub fn by_category(t: &Tournament) -> Vec<(String, Vec<Standing>)> {
    let all = compute(t);
    let mut cats: Vec<String> = t.players.iter().map(|p| p.category.clone()).collect();
    cats.sort();
    cats.dedup();
    cats.into_iter()
        .filter(|c| !c.is_empty())
        .map(|c| {
            let mut rows: Vec<Standing> = all
                .iter()
                .filter(|s| t.players[s.player as usize - 1].category == c)
                .cloned()
                .collect();
            for i in 0..rows.len() {
                rows[i].rank = if i > 0
                    && rows[i].tiebreaks == rows[i - 1].tiebreaks
                    && rows[i].points == rows[i - 1].points
                {
                    rows[i - 1].rank
                } else {
                    i as u32 + 1
                };
            }
            (c, rows)
        })
        .collect()
}

/// A club's or school's line in the team ranking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamStanding {
    pub rank: u32,
    pub club: String,
    /// Sum of the best `team_size` players' points.
    pub points: HalfPoints,
    /// The players counted, best first.
    pub counted: Vec<PlayerId>,
}

/// Team ranking by club or school: the best N players' points (N =
/// `team_size`); ties go to the club whose counted players stand higher in
/// the individual standings (sum of places, lower is better).
pub fn teams(t: &Tournament) -> Vec<TeamStanding> {
    let all = compute(t);
    let mut clubs: Vec<String> = t.players.iter().map(|p| p.club.clone()).collect();
    clubs.sort();
    clubs.dedup();
    let mut out: Vec<(TeamStanding, u32)> = clubs
        .into_iter()
        .filter(|c| !c.is_empty())
        .map(|club| {
            let members: Vec<&Standing> = all
                .iter()
                .filter(|s| t.players[s.player as usize - 1].club == club)
                .take(t.team_size.max(1) as usize)
                .collect();
            let places = members.iter().map(|s| s.rank).sum();
            (
                TeamStanding {
                    rank: 0,
                    points: members.iter().map(|s| s.points).sum(),
                    counted: members.iter().map(|s| s.player).collect(),
                    club,
                },
                places,
            )
        })
        .collect();
    out.sort_by(|a, b| {
        b.0.points
            .cmp(&a.0.points)
            .then(b.0.counted.len().cmp(&a.0.counted.len()))
            .then(a.1.cmp(&b.1))
            .then(a.0.club.cmp(&b.0.club))
    });
    out.into_iter()
        .enumerate()
        .map(|(i, (mut s, _))| {
            s.rank = i as u32 + 1;
            s
        })
        .collect()
}
