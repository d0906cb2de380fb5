//! The tie-break regulations a tournament follows and how one player's
//! tie-breaks were made, for the organiser's desk (issue 62):
//! `GET`/`POST /api/tournaments/{id}/tiebreak-rules` and
//! `GET /api/tournaments/{id}/players/{n}/tiebreaks` (docs/protocol.md,
//! "Tournaments"). The data is the library's: [`standings::Rules::of`] and
//! [`standings::explain`], the same the command line's
//! `clasificacion --detalle N` prints; nothing is computed here.

use escaque_torneo::model::{Entry, GameResult, Tournament};
use escaque_torneo::standings::{self, Cap, Counted, Dropped, Rules};
use escaque_torneo::TorneoError;
use serde::{Deserialize, Serialize};

use super::view::bye_id;

/// The body of `POST /api/tournaments/{id}/tiebreak-rules`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetRules {
    /// `"2024"` or `"2026"`; `null` (or left out): the version the start
    /// date asks for.
    #[serde(default)]
    pub version: Option<String>,
}

/// The version of FIDE C.07 the standings follow.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct RulesInfo {
    /// `"2024"` or `"2026"`.
    pub version: &'static str,
    /// Whether the organiser chose it (`false`: the start date decides).
    pub chosen: bool,
    /// The version the start date asks for.
    pub by_date: &'static str,
    /// The standings' heading in Spanish ("Desempates según FIDE C.07,
    /// versión 2026").
    pub heading_es: String,
    /// In English.
    pub heading_en: String,
}

impl RulesInfo {
    pub fn of(t: &Tournament) -> RulesInfo {
        let r = Rules::of(t);
        RulesInfo {
            version: r.id(),
            chosen: t.tiebreak_rules.is_some(),
            by_date: Rules::for_date(&t.start_date).id(),
            heading_es: r.heading(escaque::Lang::Es),
            heading_en: r.heading(escaque::Lang::En),
        }
    }
}

/// Reads [`SetRules::version`]: `None` for the date's version.
pub fn parse_version(v: Option<&str>) -> Result<Option<Rules>, String> {
    match v {
        None => Ok(None),
        Some(text) => match text.trim() {
            "2024" => Ok(Some(Rules::V2024)),
            "2026" => Ok(Some(Rules::V2026)),
            other => Err(other.chars().take(20).collect()),
        },
    }
}

/// How a player's tie-breaks were made (`GET
/// /api/tournaments/{id}/players/{n}/tiebreaks`). Points and values in
/// points (`4.5`), never half points.
#[derive(Debug, Serialize)]
pub struct Explanation {
    /// Starting number.
    pub number: u32,
    /// Name.
    pub name: String,
    /// The version the values follow.
    pub rules: RulesInfo,
    /// The standings are those after this round.
    pub after_round: u32,
    /// The player's points.
    pub points: f64,
    /// Round by round.
    pub rounds: Vec<ExplainedRound>,
    /// The round BH-C1 cuts (and BH-M1 as its lowest).
    pub cut_low: Option<u32>,
    /// The round BH-M1 cuts as its highest.
    pub cut_high: Option<u32>,
    /// Koya's threshold: half the maximum possible score.
    pub koya_threshold: f64,
    /// The values, in the organiser's order, as the standings show them.
    pub values: Vec<ExplainedValue>,
}

/// One round of [`Explanation`].
#[derive(Debug, Serialize)]
pub struct ExplainedRound {
    pub round: u32,
    /// `game`, `bye` or `absent`.
    pub kind: &'static str,
    /// The opponent of a game (played or forfeited).
    pub opponent: Option<u32>,
    /// A game's result for this player: `win`, `draw`, `loss`,
    /// `forfeit_win`, `forfeit_loss`, `pending`.
    pub result: Option<&'static str>,
    /// A bye's kind: `pairing`, `half`, `full`, `zero`.
    pub bye: Option<&'static str>,
    /// Voluntarily unplayed (cut first).
    pub voluntary: bool,
    /// How the round enters BH and SB.
    pub counted: ExplainedCount,
    /// The round's Buchholz value (`null`: not counted).
    pub buchholz: Option<f64>,
    /// The round's Sonneborn-Berger value (`null`: not counted).
    pub sonneborn_berger: Option<f64>,
    /// Whether the round's points count for Koya.
    pub koya: bool,
}

/// [`ExplainedRound::counted`], tagged by `as`.
#[derive(Debug, Serialize)]
#[serde(tag = "as", rename_all = "snake_case")]
pub enum ExplainedCount {
    /// The opponent's score, adjusted (C.07 16.3): the rounds after a
    /// withdrawal count as draws (16.2.5).
    Opponent {
        opponent: u32,
        score: f64,
        adjusted: f64,
        rounds_as_draws: Vec<u32>,
    },
    /// A dummy opponent with the player's own score (16.4), capped by the
    /// 2026 amendment: `cap` `half_the_rounds` (a bye, 16.4.2) or
    /// `opponent` (a forfeit, 16.4.1, with `cap_opponent`).
    Dummy {
        own: f64,
        cap: Option<&'static str>,
        cap_value: Option<f64>,
        cap_opponent: Option<u32>,
        value: f64,
    },
    /// A round robin's round without an opponent: not counted.
    Nothing,
}

/// One tie-break's value.
#[derive(Debug, Serialize)]
pub struct ExplainedValue {
    /// The stable id (`BH-C1`).
    pub id: &'static str,
    /// C.07's acronym, as the columns are headed.
    pub acronym: &'static str,
    /// The value; `null` when the regulations drop the tie-break.
    pub value: Option<f64>,
    /// Why it is dropped: `unrated_players` (ARO with unrated players and
    /// no rating set for them).
    pub dropped: Option<&'static str>,
}

fn pts(hp: u32) -> f64 {
    f64::from(hp) / 2.0
}

fn result_id(r: GameResult) -> &'static str {
    match r {
        GameResult::Win => "win",
        GameResult::Draw => "draw",
        GameResult::Loss => "loss",
        GameResult::ForfeitWin => "forfeit_win",
        GameResult::ForfeitLoss => "forfeit_loss",
        GameResult::Pending => "pending",
    }
}

/// Player `n`'s explanation after the last complete round.
pub fn explanation(t: &Tournament, n: u32) -> Result<Explanation, TorneoError> {
    let after = t.complete_rounds();
    let d = standings::explain(t, n, after)?;
    let rounds = d
        .rounds
        .iter()
        .map(|r| {
            let (kind, opponent, result, bye) = match r.entry {
                Entry::Game {
                    opponent, result, ..
                } => ("game", Some(opponent), Some(result_id(result)), None),
                Entry::Bye(k) => ("bye", None, None, Some(bye_id(k))),
                Entry::Absent => ("absent", None, None, None),
            };
            let counted = match &r.counted {
                Counted::Opponent {
                    opponent,
                    actual,
                    adjusted,
                    as_draws,
                } => ExplainedCount::Opponent {
                    opponent: *opponent,
                    score: pts(*actual),
                    adjusted: pts(*adjusted),
                    rounds_as_draws: as_draws.iter().map(|x| x.0).collect(),
                },
                Counted::Dummy { own, cap, value } => {
                    let (cap, cap_value, cap_opponent) = match cap {
                        None => (None, None, None),
                        Some(Cap::HalfTheRounds(c)) => {
                            (Some("half_the_rounds"), Some(pts(*c)), None)
                        }
                        Some(Cap::Opponent { opponent, adjusted }) => {
                            (Some("opponent"), Some(pts(*adjusted)), Some(*opponent))
                        }
                    };
                    ExplainedCount::Dummy {
                        own: pts(*own),
                        cap,
                        cap_value,
                        cap_opponent,
                        value: pts(*value),
                    }
                }
                Counted::Nothing => ExplainedCount::Nothing,
            };
            ExplainedRound {
                round: r.round,
                kind,
                opponent,
                result,
                bye,
                voluntary: r.voluntary,
                counted,
                buchholz: r.buchholz.map(pts),
                sonneborn_berger: r.sonneborn_berger.map(|q| f64::from(q) / 4.0),
                koya: r.koya,
            }
        })
        .collect();
    let values = d
        .values
        .iter()
        .map(|(tb, v)| {
            let dropped = d.dropped.iter().find(|x| x.0 == *tb).map(|x| match x.1 {
                Dropped::UnratedPlayers => "unrated_players",
            });
            ExplainedValue {
                id: tb.id(),
                acronym: tb.acronym(),
                value: if dropped.is_some() { None } else { Some(*v) },
                dropped,
            }
        })
        .collect();
    Ok(Explanation {
        number: n,
        name: t.players[n as usize - 1].name.clone(),
        rules: RulesInfo::of(t),
        after_round: d.after_round,
        points: pts(d.points),
        rounds,
        cut_low: d.cut_low,
        cut_high: d.cut_high,
        koya_threshold: pts(d.koya_threshold),
        values,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use escaque_torneo::model::{Outcome, Player, System};
    use escaque_torneo::pairing::pair_next_round;

    #[test]
    fn versions_read_and_refuse() {
        assert_eq!(parse_version(None), Ok(None));
        assert_eq!(parse_version(Some("2024")), Ok(Some(Rules::V2024)));
        assert_eq!(parse_version(Some(" 2026 ")), Ok(Some(Rules::V2026)));
        assert_eq!(parse_version(Some("2025")), Err("2025".to_string()));
    }

    #[test]
    fn the_explanation_is_the_libraries_in_points() {
        let mut t = Tournament::new("T", System::Swiss, 2);
        t.start_date = "2025/05/01".into();
        for name in ["A", "B", "C"] {
            t.add_player(Player::new(name)).unwrap();
        }
        pair_next_round(&mut t).unwrap();
        t.set_result_board(1, 1, Outcome::WhiteWins).unwrap();
        let e = explanation(&t, 1).unwrap();
        assert_eq!(e.rules.version, "2024");
        assert!(!e.rules.chosen);
        assert_eq!(e.rounds.len(), 1);
        assert_eq!(e.rounds[0].result, Some("win"));
        assert_eq!(e.points, 1.0);
        let d = standings::explain(&t, 1, 1).unwrap();
        for (v, (tb, x)) in e.values.iter().zip(&d.values) {
            assert_eq!(v.id, tb.id());
            assert_eq!(v.value, Some(*x));
        }
        t.tiebreak_rules = Some(Rules::V2026);
        let info = RulesInfo::of(&t);
        assert_eq!(
            (info.version, info.chosen, info.by_date),
            ("2026", true, "2024")
        );
        assert_eq!(info.heading_es, "Desempates según FIDE C.07, versión 2026");
        assert!(explanation(&t, 9).is_err());
    }
}
