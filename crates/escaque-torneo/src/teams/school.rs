//! School rules for team events: at most N teams per school, a team entered
//! only with K players of each category the organiser sets (e.g. one girl,
//! two players under 12), and the school ranking (the best teams of each
//! school added up).

use crate::teams::model::{Team, TeamError, TeamTournament};
use crate::teams::standings;
use crate::HalfPoints;

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SchoolRules {
    /// At most this many teams per school (`None`: no limit).
    pub max_teams: Option<u32>,
    /// Every roster needs at least `K` players of category `C`.
    pub categories: Vec<(String, u32)>,
    /// The school ranking adds up each school's best `counted` teams (at least 1).
    pub counted: u32,
}

impl SchoolRules {
    /// Checks a team about to be entered: its school's team count and its
    /// categories.
    pub fn check_new_team(&self, t: &TeamTournament, team: &Team) -> Result<(), TeamError> {
        if let Some(max) = self.max_teams {
            let school = team.school.trim();
            if !school.is_empty() {
                let has = t
                    .teams
                    .iter()
                    .filter(|x| x.school.trim().to_lowercase() == school.to_lowercase())
                    .count() as u32;
                if has >= max {
                    return Err(TeamError::SchoolFull {
                        school: school.to_string(),
                        max,
                    });
                }
            }
        }
        for (category, needed) in &self.categories {
            let has = team
                .members
                .iter()
                .filter(|m| m.category.trim().eq_ignore_ascii_case(category.trim()))
                .count() as u32;
            if has < *needed {
                return Err(TeamError::CategoryShort {
                    team: team.name.clone(),
                    category: category.clone(),
                    needed: *needed,
                    has,
                });
            }
        }
        Ok(())
    }
}

/// A school's line in the school ranking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchoolStanding {
    pub rank: u32,
    pub school: String,
    pub match_points: u32,
    pub game_points: HalfPoints,
    /// The teams counted, best first.
    pub teams: Vec<u32>,
}

/// The school ranking: each school's best `counted` teams (the tournament's
/// school rules, 1 without them) by the team standings; match points added,
/// then game points, then the best counted team's place.
pub fn ranking(t: &TeamTournament) -> Vec<SchoolStanding> {
    let counted = t.school.as_ref().map(|s| s.counted.max(1)).unwrap_or(1) as usize;
    let table = standings::compute(t);
    // One school however its teams write it (case aside, as the team
    // limit counts them): the first team's spelling names it.
    let key = |s: &str| s.trim().to_lowercase();
    let mut schools: Vec<String> = Vec::new();
    for x in &t.teams {
        let name = x.school.trim();
        if !name.is_empty() && !schools.iter().any(|s| key(s) == key(name)) {
            schools.push(name.to_string());
        }
    }
    schools.sort_by_key(|s| key(s));
    let mut rows: Vec<(SchoolStanding, u32)> = schools
        .into_iter()
        .map(|school| {
            let mine: Vec<&standings::TeamStanding> = table
                .iter()
                .filter(|s| key(&t.teams[s.team as usize - 1].school) == key(&school))
                .take(counted)
                .collect();
            let best = mine.first().map(|s| s.rank).unwrap_or(u32::MAX);
            (
                SchoolStanding {
                    rank: 0,
                    match_points: mine.iter().map(|s| s.match_points).sum(),
                    game_points: mine.iter().map(|s| s.game_points).sum(),
                    teams: mine.iter().map(|s| s.team).collect(),
                    school,
                },
                best,
            )
        })
        .collect();
    rows.sort_by(|a, b| {
        (b.0.match_points, b.0.game_points)
            .cmp(&(a.0.match_points, a.0.game_points))
            .then(a.1.cmp(&b.1))
    });
    rows.into_iter()
        .enumerate()
        .map(|(i, (mut s, _))| {
            s.rank = i as u32 + 1;
            s
        })
        .collect()
}
