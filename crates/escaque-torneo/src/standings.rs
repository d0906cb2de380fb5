//! Standings and tie-breaks by FIDE C.07 ("Play-off and tie-break
//! regulations"), in the version the event's date asks for: the 2023/2024
//! text ([`Rules::V2024`]) or its amendment of March 2026 ([`Rules::V2026`],
//! approved by the FIDE Council in February 2026, for events starting on or
//! after 1 March 2026). The organiser may name the version
//! ([`Tournament::tiebreak_rules`]); otherwise it follows the start date
//! (TRF `042`, [`Rules::for_date`]).
//!
//! Unplayed rounds (Article 16):
//! - a participant's own unplayed rounds are *voluntary* (VUR: half-point
//!   and zero-point byes, absences, forfeit losses) or not (the
//!   pairing-allocated bye, a full-point bye, a forfeit win);
//! - an opponent's score is *adjusted* (16.3): each of the opponent's rounds
//!   counts with the points actually scored in it (a zero-point bye 0, a
//!   forfeit win 1, the pairing-allocated bye what the tournament gives it,
//!   a half-point bye ½), except the rounds without an opponent that come
//!   after the opponent's last round that was not voluntarily unplayed
//!   (16.2.5: a withdrawal, or byes to the end), which count as draws;
//! - in Buchholz and Sonneborn-Berger a participant's own unplayed round
//!   counts as a game against a dummy opponent (16.4) with the participant's
//!   own final score; the 2026 amendment caps it: a bye's dummy has at most
//!   half the rounds' points (16.4.2), a forfeit's at most the real
//!   opponent's adjusted score (16.4.1);
//! - the cuts (Article 14, 16.5) take the voluntarily unplayed rounds
//!   first, then the lowest values;
//! - round robins (pre-determined pairings) count a forfeited game as played
//!   against the scheduled opponent, and a round without an opponent (the
//!   rest of an odd round robin, a bye) counts nothing: no dummy opponent.
//!
//! Where the text leaves a choice to the reader, this module follows Gacrux
//! (OttoMilvang/TieBreakServer, FIDE TEC's tie-break checker); the
//! differential test `tests/gacrux.rs` holds every value, and
//! `docs/tiebreaks.md` says which article decides each case.

use std::cmp::Ordering;

use crate::model::{ByeKind, Colour, Entry, GameResult, PlayerId, System, Tournament};
use crate::HalfPoints;

/// The version of FIDE C.07 and the tie-breaks, kept with the model (a
/// tournament declares them; issue 53: the model imports nothing above it).
pub use crate::model::{Rules, TieBreak};

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1-based place; tied players (all tie-breaks equal) share it.
    pub rank: u32,
    pub player: PlayerId,
    pub points: HalfPoints,
    /// Values in the organiser's order of tie-breaks. A tie-break the
    /// regulations drop ([`dropped`]) is 0 for everyone; direct encounter is
    /// the number of players, tied with this one before it, that it ranks
    /// below this one (0 for a player not tied).
    pub tiebreaks: Vec<f64>,
}

/// How one round enters a player's Buchholz and Sonneborn-Berger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Counted {
    /// A game played (or, in a round robin, a game forfeited): the
    /// opponent's adjusted score.
    Opponent {
        opponent: PlayerId,
        /// The opponent's score as it stands.
        actual: HalfPoints,
        /// The opponent's adjusted score (Article 16.3).
        adjusted: HalfPoints,
        /// The opponent's rounds counted as draws (16.2.5), with the points
        /// actually scored in each.
        as_draws: Vec<(u32, HalfPoints)>,
    },
    /// The participant's own unplayed round, against a dummy opponent with
    /// the participant's own score (16.4), capped by the 2026 amendment.
    Dummy {
        own: HalfPoints,
        cap: Option<Cap>,
        value: HalfPoints,
    },
    /// Nothing: a round robin's round without an opponent.
    Nothing,
}

/// The 2026 amendment's cap on a dummy opponent (Article 16.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    /// A bye: half the points of the rounds (16.4.2).
    HalfTheRounds(HalfPoints),
    /// A forfeit: the real opponent's adjusted score (16.4.1).
    Opponent {
        opponent: PlayerId,
        adjusted: HalfPoints,
    },
}

/// One round of a player's tie-breaks, explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundDetail {
    pub round: u32,
    pub entry: Entry,
    /// Voluntarily unplayed (cut first).
    pub voluntary: bool,
    pub counted: Counted,
    /// The round's Buchholz value, in half points (`None`: not counted).
    pub buchholz: Option<HalfPoints>,
    /// The round's Sonneborn-Berger value, in quarter points.
    pub sonneborn_berger: Option<u32>,
    /// Whether the round's points count for Koya.
    pub koya: bool,
}

/// How a player's tie-breaks were made ([`explain`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Detail {
    pub player: PlayerId,
    pub rules: Rules,
    pub after_round: u32,
    pub points: HalfPoints,
    pub rounds: Vec<RoundDetail>,
    /// The round BH-C1 cuts (and BH-M1 cuts as the lowest).
    pub cut_low: Option<u32>,
    /// The round BH-M1 cuts as the highest.
    pub cut_high: Option<u32>,
    /// Koya's threshold in half points: half the maximum possible score.
    pub koya_threshold: HalfPoints,
    /// The values, in the organiser's order, as the standings show them.
    pub values: Vec<(TieBreak, f64)>,
    /// Tie-breaks the regulations drop, and why ([`dropped`]).
    pub dropped: Vec<(TieBreak, Dropped)>,
}

/// Why a tie-break is left out of the ranking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dropped {
    /// ARO with unrated players and no rating set for them (C.07,
    /// rating-based tie-breaks: dropped unless the tournament's regulations
    /// say how unrated players count).
    UnratedPlayers,
}

/// Per-player facts the tie-breaks are computed from.
struct Facts {
    rules: Rules,
    round_robin: bool,
    rounds: u32,
    /// The rounds counted end with the tournament's last round (its
    /// planned number of rounds): only then has Fore Buchholz a last round
    /// to count as draws ([`fore_buchholz`]).
    last_is_final: bool,
    score: Vec<HalfPoints>,
    adjusted: Vec<HalfPoints>,
    entries: Vec<Vec<Entry>>,
    /// Koya's threshold ([`Facts::koya_threshold`]).
    koya: HalfPoints,
}

/// Voluntarily unplayed (Article 16.2): half-point and zero-point byes,
/// absences, forfeit losses.
fn voluntary(e: Entry) -> bool {
    match e {
        Entry::Game { result, .. } => !result.played() && result != GameResult::ForfeitWin,
        Entry::Bye(k) => matches!(k, ByeKind::Half | ByeKind::Zero),
        Entry::Absent => true,
    }
}

impl Facts {
    /// The facts of rounds `1..=rounds`.
    fn new(t: &Tournament, rounds: u32) -> Facts {
        let n = t.players.len() as u32;
        let round_robin = matches!(t.system, System::RoundRobin { .. });
        let entries: Vec<Vec<Entry>> = (1..=n)
            .map(|id| (1..=rounds).map(|r| t.entry(id, r)).collect())
            .collect();
        let score: Vec<HalfPoints> = entries
            .iter()
            .map(|e| e.iter().map(|x| x.points()).sum())
            .collect();
        let adjusted = entries
            .iter()
            .map(|e| {
                let last = last_not_voluntary(e);
                e.iter()
                    .enumerate()
                    .map(|(i, x)| match x {
                        Entry::Game { .. } => x.points(),
                        _ if i < last => x.points(),
                        _ if round_robin => 0,
                        _ => 1,
                    })
                    .sum()
            })
            .collect();
        let mut f = Facts {
            rules: Rules::of(t),
            round_robin,
            rounds,
            last_is_final: rounds >= t.total_rounds,
            score,
            adjusted,
            entries,
            koya: 0,
        };
        f.koya = f.koya_threshold();
        f
    }

    /// The rounds (1-based) of `id`'s adjusted score counted as draws.
    fn as_draws(&self, id: PlayerId) -> Vec<(u32, HalfPoints)> {
        let e = &self.entries[id as usize - 1];
        let last = last_not_voluntary(e);
        e.iter()
            .enumerate()
            .filter(|&(i, x)| i >= last && !matches!(x, Entry::Game { .. }))
            .map(|(i, x)| (i as u32 + 1, x.points()))
            .collect()
    }

    /// What round `round` (0-based) of `id` counts in Buchholz.
    fn counted(&self, id: PlayerId, round: usize) -> Counted {
        let i = id as usize - 1;
        let e = self.entries[i][round];
        let opponent_game = |o: PlayerId| Counted::Opponent {
            opponent: o,
            actual: self.score[o as usize - 1],
            adjusted: self.adjusted[o as usize - 1],
            as_draws: self.as_draws(o),
        };
        match e {
            Entry::Game { opponent, .. } if e.played() || self.round_robin => {
                opponent_game(opponent)
            }
            _ if self.round_robin => Counted::Nothing,
            _ => {
                let own = self.score[i];
                let cap = match (self.rules, e) {
                    (Rules::V2024, _) => None,
                    (Rules::V2026, Entry::Game { opponent, .. }) => Some(Cap::Opponent {
                        opponent,
                        adjusted: self.adjusted[opponent as usize - 1],
                    }),
                    (Rules::V2026, _) => Some(Cap::HalfTheRounds(self.rounds)),
                };
                let value = match cap {
                    None => own,
                    Some(Cap::HalfTheRounds(c)) => own.min(c),
                    Some(Cap::Opponent { adjusted, .. }) => own.min(adjusted),
                };
                Counted::Dummy { own, cap, value }
            }
        }
    }

    /// Buchholz values of each counted round: (round, value, voluntary).
    fn contributions(&self, id: PlayerId) -> Vec<(u32, HalfPoints, bool)> {
        (0..self.entries[id as usize - 1].len())
            .filter_map(|r| {
                let e = self.entries[id as usize - 1][r];
                let v = match self.counted(id, r) {
                    Counted::Opponent { adjusted, .. } => adjusted,
                    Counted::Dummy { value, .. } => value,
                    Counted::Nothing => return None,
                };
                let vol = !e.played() && !self.round_robin && voluntary(e);
                Some((r as u32 + 1, v, vol))
            })
            .collect()
    }

    /// Koya's threshold: half the maximum possible score (C.07, Koya
    /// system: one figure for every opponent, not lowered for an
    /// opponent's absences). In
    /// a round robin the maximum leaves out the rests of an odd number of
    /// players (whole cycles) and the players who never played.
    fn koya_threshold(&self) -> HalfPoints {
        let mut games = self.rounds;
        if self.round_robin {
            let n = self.entries.len() as u32;
            if n > 0 && self.rounds.is_multiple_of(n) {
                games -= self.rounds / n;
            }
            let never = self
                .entries
                .iter()
                .filter(|e| {
                    !e.iter().any(|x| {
                        matches!(
                            x,
                            Entry::Game { .. } | Entry::Bye(ByeKind::PairingAllocated)
                        )
                    })
                })
                .count() as u32;
            games = games.saturating_sub(never);
        }
        // Half of `games` points, in half points.
        games
    }
}

/// The index after the last round that was not voluntarily unplayed (0 if
/// none): the rounds from there on without an opponent are those of
/// Article 16.2.5.
fn last_not_voluntary(e: &[Entry]) -> usize {
    e.iter().rposition(|&x| !voluntary(x)).map_or(0, |i| i + 1)
}

fn half(hp: u32) -> f64 {
    hp as f64 / 2.0
}

/// The rounds a cut of `low` lowest and `high` highest leaves out:
/// voluntarily unplayed rounds go first among the lowest (Article 16.5).
fn cut_rounds(values: &[(u32, HalfPoints, bool)], low: usize, high: usize) -> (Vec<u32>, Vec<u32>) {
    let mut rest: Vec<(u32, HalfPoints, bool)> = values.to_vec();
    let mut lows = Vec::new();
    for _ in 0..low.min(rest.len()) {
        let k = (0..rest.len())
            .min_by_key(|&k| (!rest[k].2, rest[k].1, rest[k].0))
            .expect("not empty");
        lows.push(rest.remove(k).0);
    }
    let mut highs = Vec::new();
    for _ in 0..high.min(rest.len()) {
        let k = (0..rest.len())
            .max_by_key(|&k| (rest[k].1, std::cmp::Reverse(rest[k].0)))
            .expect("not empty");
        highs.push(rest.remove(k).0);
    }
    (lows, highs)
}

fn cut(values: Vec<(u32, HalfPoints, bool)>, low: usize, high: usize) -> f64 {
    let (lows, highs) = cut_rounds(&values, low, high);
    half(
        values
            .iter()
            .filter(|v| !lows.contains(&v.0) && !highs.contains(&v.0))
            .map(|v| v.1)
            .sum(),
    )
}

/// Whether ARO is dropped: unrated players take part and the organiser set
/// no rating for them (C.07, rating-based tie-breaks: they are dropped when
/// unrated players are present, unless the tournament's regulations say how
/// unrated players count).
fn aro_dropped(t: &Tournament) -> bool {
    t.unrated_rating.is_none() && t.players.iter().any(|p| p.rating.is_none_or(|r| r == 0))
}

/// The tie-breaks of the organiser's list that the regulations drop for
/// this tournament, and why.
pub fn dropped(t: &Tournament) -> Vec<(TieBreak, Dropped)> {
    t.tiebreaks
        .iter()
        .filter(|&&tb| tb.rating_based() && aro_dropped(t))
        .map(|&tb| (tb, Dropped::UnratedPlayers))
        .collect()
}

fn value(t: &Tournament, f: &Facts, id: PlayerId, tb: TieBreak) -> f64 {
    let i = id as usize - 1;
    let entries = &f.entries[i];
    match tb {
        TieBreak::Buchholz => half(f.contributions(id).iter().map(|x| x.1).sum()),
        TieBreak::BuchholzCut1 => cut(f.contributions(id), 1, 0),
        TieBreak::MedianBuchholz => cut(f.contributions(id), 1, 1),
        TieBreak::SonnebornBerger => {
            let quarters: u32 = (0..entries.len())
                .map(|r| sonneborn_berger(f, id, r).unwrap_or(0))
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
            if aro_dropped(t) {
                return 0.0;
            }
            let ratings: Vec<u32> = entries
                .iter()
                .filter(|e| e.played())
                .filter_map(|e| match e {
                    Entry::Game { opponent, .. } => t.players[*opponent as usize - 1]
                        .rating
                        .filter(|&r| r > 0)
                        .or(t.unrated_rating),
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
        TieBreak::Koya => half(
            (0..entries.len())
                .filter(|&r| koya_counts(f, id, r))
                .map(|r| entries[r].points())
                .sum(),
        ),
        TieBreak::KoyaLower1 => koya_limited(f, id, -1),
        TieBreak::KoyaRaised1 => koya_limited(f, id, 1),
        TieBreak::BuchholzCut2 => half(gacrux_cut(buchholz_items(f, id), 2, 0, f.rounds)),
        TieBreak::MedianBuchholz2 => half(gacrux_cut(buchholz_items(f, id), 2, 2, f.rounds)),
        TieBreak::SonnebornBergerCut1 => {
            gacrux_cut(sonneborn_berger_items(f, id), 1, 0, f.rounds) as f64 / 4.0
        }
        TieBreak::SonnebornBergerCut2 => {
            gacrux_cut(sonneborn_berger_items(f, id), 2, 0, f.rounds) as f64 / 4.0
        }
        TieBreak::ForeBuchholz => half(fore_buchholz(f, id)),
        TieBreak::AverageOfBuchholz => average_of_buchholz(f, id),
        TieBreak::BlackWins => entries
            .iter()
            .filter(|e| {
                e.played()
                    && matches!(
                        e,
                        Entry::Game {
                            colour: Colour::Black,
                            result: GameResult::Win,
                            ..
                        }
                    )
            })
            .count() as f64,
        TieBreak::ElectedToPlay => entries.iter().filter(|&&e| !voluntary(e)).count() as f64,
        TieBreak::Standard => half(
            entries
                .iter()
                .map(|e| match e.points() {
                    0 => 0,
                    1 => 1,
                    _ => 2,
                })
                .sum(),
        ),
        TieBreak::PairingNumber => id as f64,
        TieBreak::Rating => {
            if aro_dropped(t) {
                return 0.0;
            }
            let p = &t.players[i];
            p.rating
                .filter(|&r| r > 0)
                .or(t.unrated_rating)
                .map_or(0.0, f64::from)
        }
        TieBreak::AverageRatingCut1
        | TieBreak::AverageRatingMedian1
        | TieBreak::PerformanceRating
        | TieBreak::PerfectPerformance => {
            if aro_dropped(t) {
                return 0.0;
            }
            let mut games = opponent_ratings(t, f, id);
            match tb {
                TieBreak::AverageRatingCut1 | TieBreak::AverageRatingMedian1 => {
                    // The lowest rating goes (C1), and the highest too (M1).
                    games.sort_by_key(|g| g.0);
                    if !games.is_empty() {
                        games.remove(0);
                    }
                    if tb == TieBreak::AverageRatingMedian1 {
                        games.pop();
                    }
                    let ratings: Vec<i64> = games.iter().map(|g| g.0).collect();
                    average_half_up(&ratings).map_or(0.0, |v| v as f64)
                }
                TieBreak::PerformanceRating => performance(&games).map_or(0.0, |v| v as f64),
                _ => perfect_performance(&games).map_or(0.0, |v| v as f64),
            }
        }
        TieBreak::AveragePerformanceOpponents | TieBreak::AveragePerfectPerformanceOpponents => {
            if aro_dropped(t) {
                return 0.0;
            }
            let of = |o: PlayerId| {
                let games = opponent_ratings(t, f, o);
                if tb == TieBreak::AveragePerformanceOpponents {
                    performance(&games)
                } else {
                    perfect_performance(&games)
                }
            };
            let values: Vec<i64> = entries
                .iter()
                .filter(|e| e.played())
                .filter_map(|e| match e {
                    Entry::Game { opponent, .. } => of(*opponent),
                    _ => None,
                })
                .collect();
            average_half_up(&values).map_or(0.0, |v| v as f64)
        }
    }
}

/// The average of `values` rounded half up (FIDE rounds averages so);
/// `None` for no values.
fn average_half_up(values: &[i64]) -> Option<i64> {
    if values.is_empty() {
        return None;
    }
    let n = values.len() as i64;
    Some((2 * values.iter().sum::<i64>() + n).div_euclid(2 * n))
}

/// The games a rating-based tie-break reads: each game played over the
/// board (forfeits and byes are not games, Article 16: they leave the
/// rating tie-breaks), with the opponent's rating (an unrated opponent's
/// the tournament's figure for the unrated) and the points scored.
fn opponent_ratings(t: &Tournament, f: &Facts, id: PlayerId) -> Vec<(i64, HalfPoints)> {
    f.entries[id as usize - 1]
        .iter()
        .filter(|e| e.played())
        .filter_map(|e| match e {
            Entry::Game { opponent, .. } => t.players[*opponent as usize - 1]
                .rating
                .filter(|&r| r > 0)
                .or(t.unrated_rating)
                .map(|r| (i64::from(r), e.points())),
            _ => None,
        })
        .collect()
}

/// TPR (C.07 10.2, FIDE B.02 8.1.1): the average rating of the opponents
/// plus dp for the percentage scored (rounded half up to a whole percent).
fn performance(games: &[(i64, HalfPoints)]) -> Option<i64> {
    let ratings: Vec<i64> = games.iter().map(|g| g.0).collect();
    let aro = average_half_up(&ratings)?;
    let n = games.len() as i64;
    // Score in hundredths of a point, then the percentage, half up.
    let score100 = i64::from(games.iter().map(|g| g.1).sum::<u32>()) * 50;
    let p = (2 * score100 + n) / (2 * n);
    Some(aro + i64::from(crate::rating::SCORE_TO_DP[p.clamp(0, 100) as usize]))
}

/// PTP (C.07 10.3): the lowest rating whose expected score against the
/// opponents (FIDE's table) reaches the score; with no point, the lowest
/// opponent's rating less 800.
fn perfect_performance(games: &[(i64, HalfPoints)]) -> Option<i64> {
    let min = games.iter().map(|g| g.0).min()?;
    let max = games.iter().map(|g| g.0).max()?;
    let score100 = i64::from(games.iter().map(|g| g.1).sum::<u32>()) * 50;
    if score100 == 0 {
        return Some(min - 800);
    }
    let expected = |r: i64| -> i64 {
        games
            .iter()
            .map(|g| {
                i64::from(crate::rating::expected_hundredths_uncapped(
                    r as i32, g.0 as i32,
                ))
            })
            .sum()
    };
    // expected(low) < score <= expected(high): at 800 below every
    // opponent the expectation is 0, at 800 above it is every game.
    let (mut low, mut high) = (min - 801, max + 800);
    if expected(high) < score100 {
        return Some(high);
    }
    while high - low > 1 {
        let mid = low + (high - low) / 2;
        if expected(mid) >= score100 {
            high = mid;
        } else {
            low = mid;
        }
    }
    Some(high)
}

/// Koya with its limit moved by `offset` half points (Article 14's
/// modifier: `KS/L+1` raises it half a point, `KS/L-1` lowers it).
fn koya_limited(f: &Facts, id: PlayerId, offset: i64) -> f64 {
    let limit = i64::from(f.koya) + offset;
    let entries = &f.entries[id as usize - 1];
    half(
        entries
            .iter()
            .filter(|e| match e {
                Entry::Game { opponent, .. } => i64::from(f.score[*opponent as usize - 1]) >= limit,
                _ => false,
            })
            .map(|e| e.points())
            .sum(),
    )
}

/// One counted round for a cut: (round, the opponent's or the dummy's
/// score, the round's value, voluntarily unplayed).
type CutItem = (u32, u32, u32, bool);

/// Buchholz rounds for [`gacrux_cut`]: the value is the score.
fn buchholz_items(f: &Facts, id: PlayerId) -> Vec<CutItem> {
    f.contributions(id)
        .into_iter()
        .map(|(r, v, vol)| (r, v, v, vol))
        .collect()
}

/// Sonneborn-Berger rounds for [`gacrux_cut`]: the value in quarter points.
fn sonneborn_berger_items(f: &Facts, id: PlayerId) -> Vec<CutItem> {
    f.contributions(id)
        .into_iter()
        .map(|(r, v, vol)| {
            let sb = sonneborn_berger(f, id, r as usize - 1).unwrap_or(0);
            (r, v, sb, vol)
        })
        .collect()
}

/// The sum left after cutting `low` least and `high` most significant
/// rounds (Article 14; 16.5: a voluntarily unplayed round is cut first
/// among the lowest). The least significant round is the one whose
/// opponent (or dummy) has the lowest score; in Sonneborn-Berger, where a
/// round's value is the score times the points, the voluntarily unplayed
/// round is cut unless the lowest-scored opponent's round is worth more
/// (which is what Gacrux does). At most `rounds` low cuts and the rest of
/// the rounds high.
fn gacrux_cut(mut items: Vec<CutItem>, low: usize, high: usize, rounds: u32) -> u32 {
    let low = low.min(rounds as usize);
    let high = high.min(rounds as usize - low);
    for _ in 0..low {
        if items.is_empty() {
            break;
        }
        let all = (0..items.len())
            .min_by_key(|&k| (items[k].1, items[k].2, items[k].0))
            .expect("not empty");
        let exp = (0..items.len())
            .min_by_key(|&k| (!items[k].3, items[k].1, items[k].2, items[k].0))
            .expect("not empty");
        let k = if items[all].2 > items[exp].2 {
            all
        } else {
            exp
        };
        items.remove(k);
    }
    for _ in 0..high {
        if items.is_empty() {
            break;
        }
        let k = (0..items.len())
            .max_by_key(|&k| (items[k].1, items[k].2, std::cmp::Reverse(items[k].0)))
            .expect("not empty");
        items.remove(k);
    }
    items.iter().map(|x| x.2).sum()
}

/// Fore Buchholz's scores (C.07 8.3): for a player paired in the last
/// round (a game, forfeited or not, or the pairing-allocated bye), every
/// round counts its points (no round counts as a draw for a withdrawal:
/// the player is still in), and a game of the last round counts as a
/// draw. Returns (adjusted score as an opponent, own score as a dummy).
fn fore_scores(f: &Facts, id: PlayerId) -> (HalfPoints, HalfPoints) {
    let e = &f.entries[id as usize - 1];
    let Some(&last) = e.last() else {
        return (0, 0);
    };
    let paired_last = matches!(
        last,
        Entry::Game { .. } | Entry::Bye(ByeKind::PairingAllocated)
    );
    if !paired_last {
        return (f.adjusted[id as usize - 1], f.score[id as usize - 1]);
    }
    let adjust = |x: HalfPoints| -> HalfPoints {
        match last {
            Entry::Game { .. } => x - last.points() + 1,
            _ => x,
        }
    };
    let all: HalfPoints = e.iter().map(|x| x.points()).sum();
    (adjust(all), adjust(f.score[id as usize - 1]))
}

/// FB (C.07 8.3): Buchholz with the last round's games counted as draws;
/// a game of the last round counts against its opponent even if
/// forfeited. Dummy opponents and the 2026 caps as in Buchholz.
///
/// "The last round" is the tournament's (its planned number of rounds,
/// TRF `142`/`XXR`): standings after an earlier round (a file cut before
/// its last round, or the standings during the event) have no last-round
/// games to count as draws, and FB is then the Buchholz, as Gacrux
/// computes it (its FB adjusts only when the player's last round paired is
/// the tournament's number of rounds).
fn fore_buchholz(f: &Facts, id: PlayerId) -> HalfPoints {
    if !f.last_is_final {
        return f.contributions(id).iter().map(|x| x.1).sum();
    }
    let e = &f.entries[id as usize - 1];
    let own = fore_scores(f, id).1;
    let last = e.len().saturating_sub(1);
    e.iter()
        .enumerate()
        .map(|(r, x)| match *x {
            Entry::Game { opponent, .. } if x.played() || r == last => fore_scores(f, opponent).0,
            _ => match (f.rules, *x) {
                (Rules::V2024, _) => own,
                (Rules::V2026, Entry::Game { opponent, .. }) => own.min(fore_scores(f, opponent).0),
                (Rules::V2026, _) => own.min(f.rounds),
            },
        })
        .sum()
}

/// AOB (C.07 8.4): the average of the Buchholz of the opponents met over
/// the board, rounded half up to hundredths.
fn average_of_buchholz(f: &Facts, id: PlayerId) -> f64 {
    let bh: Vec<u64> = f.entries[id as usize - 1]
        .iter()
        .filter(|e| e.played())
        .filter_map(|e| match e {
            Entry::Game { opponent, .. } => Some(
                f.contributions(*opponent)
                    .iter()
                    .map(|x| u64::from(x.1))
                    .sum(),
            ),
            _ => None,
        })
        .collect();
    if bh.is_empty() {
        return 0.0;
    }
    let n = bh.len() as u64;
    let s: u64 = bh.iter().sum();
    // s half points over n opponents, in hundredths, half up.
    ((100 * s + n) / (2 * n)) as f64 / 100.0
}

/// Round `r`'s Sonneborn-Berger value in quarter points: the Buchholz
/// value times the points of the round.
fn sonneborn_berger(f: &Facts, id: PlayerId, r: usize) -> Option<u32> {
    let e = f.entries[id as usize - 1][r];
    let v = match f.counted(id, r) {
        Counted::Opponent { adjusted, .. } => adjusted,
        Counted::Dummy { value, .. } => value,
        Counted::Nothing => return None,
    };
    Some(v * e.points())
}

/// Whether round `r`'s points count for Koya: an opponent (the game played
/// or forfeited) whose score reaches the threshold.
fn koya_counts(f: &Facts, id: PlayerId, r: usize) -> bool {
    match f.entries[id as usize - 1][r] {
        Entry::Game { opponent, .. } => f.score[opponent as usize - 1] >= f.koya,
        _ => false,
    }
}

/// The points a player scored against each tied opponent (Article 6):
/// games played (in a round robin, forfeits too); against an opponent met
/// more than once, the average. Returns (sum, opponents met).
fn encounters(f: &Facts, p: usize, group: &[usize]) -> (f64, usize) {
    let mut per: Vec<(usize, u32, u32)> = Vec::new();
    for e in &f.entries[p] {
        if let Entry::Game {
            opponent, result, ..
        } = *e
        {
            let o = opponent as usize - 1;
            if !(result.played() || f.round_robin) || !group.contains(&o) {
                continue;
            }
            match per.iter_mut().find(|x| x.0 == o) {
                Some(x) => {
                    x.1 += result.points();
                    x.2 += 1;
                }
                None => per.push((o, result.points(), 1)),
            }
        }
    }
    let sum = per.iter().map(|x| half(x.1) / x.2 as f64).sum();
    (sum, per.len())
}

/// Direct encounter among `group` (Article 6): the group split into tiers,
/// best first. If all have met each other (always in a round robin), the
/// points among them rank them (6.1); if not (6.2), a player is ranked
/// above the others only with more points than any of them could have
/// scored had the missing games been won. Players a step leaves tied are
/// ranked again among themselves (6.3).
fn de_tiers(f: &Facts, group: Vec<usize>) -> Vec<Vec<usize>> {
    if group.len() < 2 {
        return vec![group];
    }
    let m = group.len() - 1;
    let mut s: Vec<(usize, f64, f64)> = group
        .iter()
        .map(|&p| {
            let (pts, met) = encounters(f, p, &group);
            let max = if f.round_robin {
                pts
            } else {
                pts + (m - met.min(m)) as f64
            };
            (p, pts, max)
        })
        .collect();
    let all_met = f.round_robin || s.iter().all(|x| x.2 == x.1);
    let tiers: Vec<Vec<usize>> = if all_met {
        s.sort_by(|a, b| {
            b.1.partial_cmp(&a.1)
                .unwrap_or(Ordering::Equal)
                .then(a.0.cmp(&b.0))
        });
        let mut tiers: Vec<Vec<usize>> = Vec::new();
        for (k, x) in s.iter().enumerate() {
            if k > 0 && s[k - 1].1 == x.1 {
                tiers.last_mut().expect("a tier").push(x.0);
            } else {
                tiers.push(vec![x.0]);
            }
        }
        tiers
    } else {
        s.sort_by(|a, b| {
            b.1.partial_cmp(&a.1)
                .unwrap_or(Ordering::Equal)
                .then(b.2.partial_cmp(&a.2).unwrap_or(Ordering::Equal))
                .then(a.0.cmp(&b.0))
        });
        let mut tiers = Vec::new();
        let mut k = 0;
        while k + 1 < s.len() {
            let best_rest = s[k + 1..].iter().map(|x| x.2).fold(f64::MIN, f64::max);
            if s[k].1 > best_rest {
                tiers.push(vec![s[k].0]);
                k += 1;
            } else {
                break;
            }
        }
        tiers.push(s[k..].iter().map(|x| x.0).collect());
        tiers
    };
    if tiers.len() == 1 {
        return tiers;
    }
    tiers.into_iter().flat_map(|t| de_tiers(f, t)).collect()
}

/// Direct encounter values for `group`: how many of the group it ranks
/// below each player.
fn direct_encounter(f: &Facts, group: &[usize]) -> Vec<f64> {
    let tiers = de_tiers(f, group.to_vec());
    group
        .iter()
        .map(|p| {
            let k = tiers.iter().position(|t| t.contains(p)).expect("in a tier");
            tiers[k + 1..].iter().map(Vec::len).sum::<usize>() as f64
        })
        .collect()
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
                    let (x, y) = if tb.lower_is_better() { (a, b) } else { (b, a) };
                    x.tiebreaks[k]
                        .partial_cmp(&y.tiebreaks[k])
                        .unwrap_or(Ordering::Equal)
                        .then(a.player.cmp(&b.player))
                });
            }
            start = end;
        }
    }
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

/// How player `id`'s tie-breaks were made after round `rounds`
/// ([`Tournament::complete_rounds`] for the standings as shown): each
/// round's opponent with the score as adjusted and why, the dummy
/// opponent, the cuts, Koya's threshold and the values.
pub fn explain(t: &Tournament, id: PlayerId, rounds: u32) -> Result<Detail, crate::TorneoError> {
    t.player(id)?;
    let rounds = rounds.min(t.rounds.len() as u32);
    let f = Facts::new(t, rounds);
    let i = id as usize - 1;
    let details: Vec<RoundDetail> = (0..f.entries[i].len())
        .map(|r| {
            let e = f.entries[i][r];
            let counted = f.counted(id, r);
            let buchholz = match &counted {
                Counted::Opponent { adjusted, .. } => Some(*adjusted),
                Counted::Dummy { value, .. } => Some(*value),
                Counted::Nothing => None,
            };
            RoundDetail {
                round: r as u32 + 1,
                entry: e,
                voluntary: !e.played() && !f.round_robin && voluntary(e),
                buchholz,
                sonneborn_berger: sonneborn_berger(&f, id, r),
                koya: koya_counts(&f, id, r),
                counted,
            }
        })
        .collect();
    let contributions = f.contributions(id);
    let (low1, _) = cut_rounds(&contributions, 1, 0);
    let (_, high1) = cut_rounds(&contributions, 1, 1);
    let row = compute_after(t, rounds)
        .into_iter()
        .find(|s| s.player == id)
        .expect("every player has a row");
    Ok(Detail {
        player: id,
        rules: f.rules,
        after_round: rounds,
        points: f.score[i],
        rounds: details,
        cut_low: low1.first().copied(),
        cut_high: high1.first().copied(),
        koya_threshold: f.koya,
        values: t.tiebreaks.iter().copied().zip(row.tiebreaks).collect(),
        dropped: dropped(t),
    })
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
