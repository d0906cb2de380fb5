//! The view of a tournament: what `GET /api/tournaments/{id}` answers and
//! `/ws/tournaments/{id}` pushes after every change (`docs/protocol.md`,
//! "Tournaments"). Every number here is the library's: standings from
//! `escaque_torneo::standings`, rating changes from `escaque_torneo::rating`.

use std::sync::Arc;

use escaque_torneo::model::{Correction, Game};
use escaque_torneo::standings::{self, Standing, TieBreak};
use escaque_torneo::{rating, ByeKind, Outcome, System, Tournament};
#[cfg(test)]
use serde_json::Value;

use super::Loaded;
use crate::proto::tournaments::{self as wire, TournamentView, ViewFor};
use crate::proto::Out;

/// The system's id in the API: `dutch`, `round_robin`, `double_round_robin`.
pub fn system_id(s: System) -> &'static str {
    match s {
        System::Swiss => "dutch",
        System::RoundRobin { double: false } => "round_robin",
        System::RoundRobin { double: true } => "double_round_robin",
    }
}

/// A result as the API writes it: `1-0`, `0-1`, `½-½`, `+-`, `-+`, `--`,
/// or none while pending.
pub fn result_id(o: Outcome) -> Option<&'static str> {
    Some(match o {
        Outcome::WhiteWins => "1-0",
        Outcome::BlackWins => "0-1",
        Outcome::Draw => "½-½",
        Outcome::WhiteForfeitWin => "+-",
        Outcome::BlackForfeitWin => "-+",
        Outcome::DoubleForfeit => "--",
        Outcome::Pending => return None,
    })
}

/// A board's result as the API writes it: [`result_id`], or `½-0`, `0-½`,
/// `0-0` for an unusual one (each player scores their own; FIDE's VCL.13).
pub fn game_result_id(g: &Game) -> Option<&'static str> {
    match g.unusual {
        Some(u) => Some(u.text()),
        None => result_id(g.outcome),
    }
}

/// What a correction replaced, as the API writes it (an unusual result by
/// its own text, not the `½-½` it is stored with); `None`: the board had
/// no result.
pub fn previous_id(c: &Correction) -> Option<&'static str> {
    match c.previous_unusual {
        Some(u) => Some(u.text()),
        None => result_id(c.previous),
    }
}

/// A bye's kind in the API: `pairing` (the one point the pairing gives),
/// `half`, `full`, `zero`.
pub fn bye_id(k: ByeKind) -> &'static str {
    match k {
        ByeKind::PairingAllocated => "pairing",
        ByeKind::Half => "half",
        ByeKind::Full => "full",
        ByeKind::Zero => "zero",
    }
}

/// A tie-break's English name (the Spanish one is the library's).
pub fn tiebreak_name_en(tb: TieBreak) -> &'static str {
    match tb {
        TieBreak::Buchholz => "Buchholz",
        TieBreak::BuchholzCut1 => "Buchholz cut 1",
        TieBreak::MedianBuchholz => "Median Buchholz",
        TieBreak::SonnebornBerger => "Sonneborn-Berger",
        TieBreak::DirectEncounter => "Direct encounter",
        TieBreak::Wins => "Wins",
        TieBreak::GamesWon => "Games won",
        TieBreak::BlackGames => "Games with Black",
        TieBreak::AverageRatingOpponents => "Average rating of opponents",
        TieBreak::Progressive => "Progressive score",
        TieBreak::Koya => "Koya",
        TieBreak::BuchholzCut2 => "Buchholz cut 2",
        TieBreak::MedianBuchholz2 => "Median Buchholz 2",
        TieBreak::ForeBuchholz => "Fore Buchholz",
        TieBreak::AverageOfBuchholz => "Average of opponents' Buchholz",
        TieBreak::SonnebornBergerCut1 => "Sonneborn-Berger cut 1",
        TieBreak::SonnebornBergerCut2 => "Sonneborn-Berger cut 2",
        TieBreak::BlackWins => "Games won with Black",
        TieBreak::ElectedToPlay => "Rounds elected to play",
        TieBreak::KoyaLower1 => "Koya (limit half a point lower)",
        TieBreak::KoyaRaised1 => "Koya (limit half a point higher)",
        TieBreak::AverageRatingCut1 => "Average rating of opponents cut 1",
        TieBreak::AverageRatingMedian1 => "Median average rating of opponents",
        TieBreak::PerformanceRating => "Tournament performance rating",
        TieBreak::PerfectPerformance => "Perfect tournament performance",
        TieBreak::AveragePerformanceOpponents => "Average performance rating of opponents",
        TieBreak::AveragePerfectPerformanceOpponents => "Average perfect performance of opponents",
        TieBreak::Standard => "Points by the standard system",
        TieBreak::PairingNumber => "Pairing number",
        TieBreak::Rating => "Own rating",
    }
}

fn points(hp: u32) -> f64 {
    f64::from(hp) / 2.0
}

/// The tournament as it stood after its complete rounds (the rating
/// changes are shown beside those standings).
fn after_complete(t: &Tournament) -> Tournament {
    let mut c = t.clone();
    c.rounds.truncate(t.complete_rounds() as usize);
    c
}

fn standing_rows(t: &Tournament, rows: &[Standing]) -> Vec<wire::StandingRow> {
    rows.iter()
        .filter_map(|s| {
            let p = t.player(s.player).ok()?;
            Some(wire::StandingRow {
                rank: s.rank,
                number: s.player,
                name: p.name.clone(),
                club: p.club.clone(),
                category: p.category.clone(),
                points: points(s.points),
                tiebreaks: s.tiebreaks.clone(),
            })
        })
        .collect()
}

/// The year now (UTC), for the juniors' K factor.
pub fn current_year() -> i32 {
    // Days since 1970-01-01 to a civil year (H. Hinnant's algorithm).
    let days = crate::store::now_ms().div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2)) as i32
}

/// The view without the caller's part (`can_edit`, `me`: [`for_identity`]
/// adds them).
pub fn view(l: &Loaded) -> TournamentView {
    let t = &l.t;
    let done = after_complete(t);
    let paired = t.rounds.len() as u32;
    // The standings of the last round with every result in, and the
    // round in progress (the library's).
    let table = standings::table(t);
    let players = t
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let number = i as u32 + 1;
            let link = l.players.get(i);
            wire::PlayerItem {
                number,
                name: p.name.clone(),
                club: p.club.clone(),
                category: p.category.clone(),
                birth_year: p.birth_year,
                rating: p.rating,
                fide_id: p.fide_id,
                title: p.title.clone(),
                withdrawn_from: p.withdrawn_from,
                points: points(t.score(number)),
                present: link.is_some_and(|x| x.present),
                online: link.is_some_and(|x| x.owner.is_some()),
            }
        })
        .collect();
    let rounds = t
        .rounds
        .iter()
        .enumerate()
        .map(|(i, r)| wire::RoundItem {
            number: i + 1,
            boards: r
                .games
                .iter()
                .enumerate()
                .map(|(b, g)| wire::BoardItem {
                    board: b + 1,
                    white: g.white,
                    black: g.black,
                    result: game_result_id(g),
                    game: l
                        .games
                        .iter()
                        .find(|x| x.round as usize == i + 1 && x.board as usize == b + 1)
                        .map(|x| x.game.clone()),
                })
                .collect(),
            byes: r
                .byes
                .iter()
                .map(|(p, k)| wire::ByeItem {
                    player: *p,
                    kind: bye_id(*k),
                })
                .collect(),
        })
        .collect();
    let categories = standings::by_category(t)
        .into_iter()
        .map(|(name, rows)| wire::CategoryItem {
            rows: standing_rows(t, &rows),
            name,
        })
        .collect();
    let teams = standings::teams(t)
        .into_iter()
        .map(|s| wire::TeamItem {
            rank: s.rank,
            name: s.club,
            points: points(s.points),
            players: s.counted,
        })
        .collect();
    let rating_changes = rating::changes(&done, current_year())
        .into_iter()
        .map(|c| wire::RatingChangeItem {
            number: c.player,
            games: c.games,
            expected: c.expected,
            score: c.score,
            k: c.k,
            change: c.change,
        })
        .collect();
    TournamentView {
        id: l.row.id.clone(),
        name: t.name.clone(),
        mode: l.row.mode.clone(),
        status: l.row.status.clone(),
        system: system_id(t.system),
        rounds_planned: t.total_rounds,
        settings: serde_json::to_value(&l.settings).unwrap_or_default(),
        round: paired,
        round_complete: table.in_progress.is_none(),
        players,
        rounds,
        standings: wire::Standings {
            after_round: table.after_round,
            in_progress: table.in_progress,
            tiebreaks: t
                .tiebreaks
                .iter()
                .map(|tb| wire::TieBreakItem {
                    id: tb.id(),
                    name_es: tb.name_es(),
                    name_en: tiebreak_name_en(*tb),
                })
                .collect(),
            rows: standing_rows(t, &table.rows),
        },
        categories,
        teams,
        team_size: t.team_size,
        rating_changes,
        countdown_ms: l.countdown_ms,
    }
}

/// `base` (from [`view`]) as identity `who` sees it (nobody: may not edit,
/// plays no board).
pub fn for_identity<'a>(base: &'a TournamentView, l: &Loaded, who: Option<&str>) -> ViewFor<'a> {
    ViewFor {
        view: base,
        can_edit: who.is_some_and(|k| l.can_edit(k)),
        me: who.and_then(|k| l.number_of(k)),
    }
}

/// The socket message carrying a view.
pub fn message(view: &ViewFor<'_>) -> Out {
    let msg = wire::TournamentMsg {
        t: "tournament",
        view,
    };
    Arc::from(serde_json::to_string(&msg).unwrap_or_default())
}

/// The view written once, for [`Rendered::message_for`]: a change sent to
/// many watchers serialises the view once, not once per identity.
pub struct Rendered(String);

impl Rendered {
    /// Writes `base` (from [`view`], an object without `can_edit`/`me`).
    pub fn new(base: &TournamentView) -> Rendered {
        Rendered(serde_json::to_string(base).unwrap_or_default())
    }

    /// Writes a view already written as a JSON object (tests).
    #[cfg(test)]
    fn from_value(base: &Value) -> Rendered {
        Rendered(base.to_string())
    }

    /// The socket message for an identity that may edit (`can_edit`) and
    /// plays as number `me`: the view with those two spliced in before the
    /// closing brace.
    pub fn message_for(&self, can_edit: bool, me: Option<u32>) -> Out {
        let body = self.0.strip_suffix('}').unwrap_or(&self.0);
        let sep = if body.len() > 1 { "," } else { "" };
        let me = me.map_or_else(|| "null".to_string(), |n| n.to_string());
        Arc::from(format!(
            "{{\"t\":\"tournament\",\"view\":{body}{sep}\"can_edit\":{can_edit},\"me\":{me}}}}}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_spliced_message_is_the_view_with_the_callers_part() {
        for base in [
            json!({"id": "x", "name": "Ana \"}{", "players": [{"name": "}"}]}),
            json!({}),
        ] {
            let r = Rendered::from_value(&base);
            for (can_edit, me) in [(true, None), (false, Some(3)), (false, None)] {
                let spliced: Value = serde_json::from_str(&r.message_for(can_edit, me)).unwrap();
                let mut v = base.clone();
                v["can_edit"] = json!(can_edit);
                v["me"] = json!(me);
                let built = json!({"t": "tournament", "view": v});
                assert_eq!(spliced, built);
            }
        }
    }
}
