//! The FIDE Swiss Team Pairing System, C.04.6 (approved 28/10/2025, in force
//! from 1 February 2026).
//!
//! Its preface says the individual rules (C.04.1 Basic Rules, C.04.2
//! articles 1, 2.4, 2.5, 3 and 4) apply to teams *mutatis mutandis*, except
//! Basic Rules 6 and 7 (the colour-difference and three-in-a-row limits),
//! which never apply: there are no absolute colour preferences for teams.
//! What this module implements, article by article:
//!
//! - **Scores (1.2).** Teams are paired on match points (or on game points
//!   when the rules say so, [`TeamTournament::pair_by_game_points`]); the
//!   other score is the secondary score used for the colours.
//! - **Pairing numbers.** The starting order (articles 2.1-2.3 of the
//!   individual rules are left to the organiser by C.04.6) is: average
//!   rating of the roster's first `boards` players, highest first, then the
//!   order of entry.
//! - **Bye, brackets, floaters (article 3).** C.04.6's own procedure,
//!   [`crate::teams::c046`]: the pairing-allocated bye first (3.4), then
//!   the top scoregroup completed with *upfloaters* from below (3.5, no
//!   downfloaters) and paired by the smallest identifier (3.6), again until
//!   every team is paired; no two teams meet twice (a match lost entirely
//!   by forfeit is not a meeting); the bye never goes to a team that has had
//!   one, won a whole match by forfeit or asked for a full-point bye ([C2]).
//! - **Colour preferences (1.7).** A team's colour is its colour on board 1
//!   (1.6.1); its colour difference counts the matches played. Type A
//!   (simple): a preference for White when the difference is below −1, or it
//!   is 0 or −1 and the last two matches played were with Black (for Black
//!   symmetrically); otherwise none. Type B adds mild preferences: White
//!   when the difference is −1, or it is 0, the last match was with Black
//!   and this is not the last round (Black symmetrically); Type A's
//!   preferences are then the strong ones. Or no preferences at all
//!   ([`ColourType::None`]). In the pairing these preferences are quality
//!   criteria only ([C8], and [C9] for Type B's strong ones): a colour
//!   never stops two teams from meeting.
//! - **Colour allocation (article 4).** After the pairing, for each match:
//!   the *first team* is the one with the higher primary score, then the
//!   higher secondary score, then the smaller pairing number (4.2). Then,
//!   the first rule that decides: neither team has played yet — the first
//!   team gets the initial colour drawn (White unless the organiser drew
//!   Black) if its pairing number is odd, the other one otherwise (4.3.1);
//!   only one team has a preference — it gets it; the preferences are
//!   opposite — both get them; only one preference is strong (Type B) — it
//!   gets it; the team with the lower colour difference gets White; the
//!   teams alternate from the most recent match in which they had
//!   different colours, their histories of matches played compared from
//!   the end (C.04.2 3.4: a round not played is left out, not compared); the first team's preference is granted; the first team
//!   alternates from its last colour; the other team alternates from its
//!   last colour.
//! - **Requested byes** ([`TeamTournament::request_bye`], TRF `240`): the
//!   team is left out of that round's pairing and scores what
//!   [`crate::teams::Scoring::requested_bye`] gives.
//! - **The Baku acceleration** ([`TeamTournament::baku`], off by
//!   default): C.04.7 with its individual figures read for match points —
//!   GA the first half of the teams by pairing number, rounded up to an
//!   even number; in the first half of the first half of the rounds
//!   (rounded up) a GA team carries a won match's match points as virtual
//!   points, in the rest of the first half a drawn match's. The pairing
//!   score (primary score plus virtual points) makes the scoregroups, the
//!   floats and the table order; the colours (4.2) use the scores scored.
//!   Never with game points as the primary score (C.04.7 1.4.4, as
//!   Gacrux reads it): there it adds nothing.
//! - **Forbidden pairs** ([`TeamTournament::forbid`]: teams of one school
//!   or club the organiser keeps apart) are pairs [C1] refuses, as if the
//!   teams had met (C.04.1).

use crate::model::Colour;
use crate::teams::c046::{self, Entrant, Field};
use crate::teams::model::{
    Match, RequestedBye, RoundRecord, Side, TeamError, TeamId, TeamRound, TeamTournament,
};

/// C.04.6 1.7: the colour preference rules the tournament announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourType {
    /// Type A, simple preferences.
    A,
    /// Type B, strong and mild preferences.
    B,
    /// No colour preferences.
    None,
}

/// A team's colour preference before a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preference {
    pub colour: Option<Colour>,
    /// Strong (Type A's preferences, Type B's strong ones).
    pub strong: bool,
}

/// The colours (on board 1) of the matches `team` played before `round`,
/// oldest first; a round without a match played over the board has none.
pub fn colours_before(t: &TeamTournament, team: TeamId, round: u32) -> Vec<Colour> {
    (1..round)
        .filter_map(|r| match t.record(team, r)? {
            RoundRecord::Match {
                side, played: true, ..
            } => Some(if side == Side::Home {
                Colour::White
            } else {
                Colour::Black
            }),
            _ => None,
        })
        .collect()
}

/// C.04.6 1.7: the preference of a team with these colours (`last_round`:
/// the round to pair is the tournament's last).
pub fn preference(colours: &[Colour], kind: ColourType, last_round: bool) -> Preference {
    let none = Preference {
        colour: None,
        strong: false,
    };
    if kind == ColourType::None || colours.is_empty() {
        return none;
    }
    let cd: i32 = colours
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum();
    let last = colours.last().copied();
    let last_two = colours.len() >= 2 && colours[colours.len() - 2] == colours[colours.len() - 1];
    let strong = if cd < -1 || ((cd == 0 || cd == -1) && last_two && last == Some(Colour::Black)) {
        Some(Colour::White)
    } else if cd > 1 || ((cd == 0 || cd == 1) && last_two && last == Some(Colour::White)) {
        Some(Colour::Black)
    } else {
        None
    };
    if strong.is_some() {
        return Preference {
            colour: strong,
            strong: true,
        };
    }
    if kind == ColourType::A {
        return none;
    }
    let mild = match cd {
        -1 => Some(Colour::White),
        1 => Some(Colour::Black),
        0 if !last_round => last.map(|c| c.opposite()),
        _ => None,
    };
    Preference {
        colour: mild,
        strong: false,
    }
}

/// The teams' pairing numbers: the team ids in starting order (average
/// rating of the first `boards` players, highest first, then order of
/// entry). `order[k]` is the team with pairing number `k + 1`.
pub fn starting_order(t: &TeamTournament) -> Vec<TeamId> {
    let mut ids: Vec<TeamId> = t.team_ids().collect();
    ids.sort_by_key(|&id| {
        std::cmp::Reverse(
            t.teams[id as usize - 1]
                .average_rating(t.boards)
                .unwrap_or(0),
        )
    });
    ids
}

fn primary(t: &TeamTournament, team: TeamId, rounds: u32) -> (u32, u32) {
    let (mp, gp) = t.scores_after(team, rounds);
    if t.pair_by_game_points {
        (gp, mp)
    } else {
        (mp, gp)
    }
}

/// The Baku acceleration's virtual match points (C.04.7, see the module's
/// notes) of the team with pairing number `tpn` in `round`: a won match's
/// in the first half of the accelerated rounds, a drawn match's in the
/// rest, for the teams of GA; none without the acceleration, with game
/// points as the primary score, or outside GA.
pub fn virtual_points(t: &TeamTournament, tpn: u32, round: u32) -> u32 {
    if !t.baku || t.pair_by_game_points || t.total_rounds < 2 {
        return 0;
    }
    if tpn > crate::baku::group_a_size(t.teams.len() as u32) {
        return 0;
    }
    let (full, half) = crate::baku::accelerated_rounds(t.total_rounds);
    if round <= full {
        t.scoring.win
    } else if round <= half {
        t.scoring.draw
    } else {
        0
    }
}

/// The pairing score of `team` for `round`: its primary score after the
/// rounds before, plus its virtual points (C.04.7).
fn pairing_score(t: &TeamTournament, order: &[TeamId], team: TeamId, round: u32) -> u32 {
    let tpn = order
        .iter()
        .position(|&x| x == team)
        .map_or(u32::MAX, |k| k as u32 + 1);
    primary(t, team, round - 1).0 + virtual_points(t, tpn, round)
}

/// Whether `team` played an opponent with a different pairing score in
/// round `r` (a floater, C.04.6 1.5: a bye or a match not played is no
/// float).
fn floated_in(t: &TeamTournament, order: &[TeamId], team: TeamId, r: u32) -> bool {
    match t.record(team, r) {
        Some(RoundRecord::Match {
            opponent,
            played: true,
            ..
        }) => pairing_score(t, order, team, r) != pairing_score(t, order, opponent, r),
        _ => false,
    }
}

/// The round to pair as C.04.6's procedure sees it ([`crate::teams::c046`]),
/// with the teams of `absent` and those with a requested bye left out; the
/// entrants are in pairing-number order, `order` as [`starting_order`].
fn field(
    t: &TeamTournament,
    round: u32,
    order: &[TeamId],
    absent: &[TeamId],
) -> (Field, Vec<TeamId>) {
    let last_round = round == t.total_rounds;
    let present: Vec<TeamId> = order
        .iter()
        .copied()
        .filter(|&team| !absent.contains(&team) && t.requested_bye(team, round).is_none())
        .collect();
    let entrants = present
        .iter()
        .map(|&team| {
            let tpn = order.iter().position(|&x| x == team).expect("a team") as u32 + 1;
            let mut played = 0;
            let mut bye_eligible = true;
            for r in 1..round {
                match t.record(team, r) {
                    Some(RoundRecord::Match { played: true, .. }) => played += 1,
                    // [C2]: a match won by forfeit is a bye's equal.
                    Some(RoundRecord::Match {
                        played: false,
                        own,
                        other,
                        ..
                    }) if own > other => bye_eligible = false,
                    Some(RoundRecord::Bye { .. })
                    | Some(RoundRecord::Requested {
                        kind: RequestedBye::Full,
                        ..
                    }) => bye_eligible = false,
                    _ => {}
                }
            }
            let pref = preference(
                &colours_before(t, team, round),
                t.colour_preferences,
                last_round,
            );
            Entrant {
                tpn,
                score: pairing_score(t, order, team, round),
                played,
                bye_eligible,
                floated: round > 1 && floated_in(t, order, team, round - 1),
                colour: pref.colour,
                strong: pref.strong,
            }
        })
        .collect();
    // [C1]: no two teams meet twice (a match lost entirely by forfeit is
    // not a meeting); forbidden pairs as if they had met (C.04.1).
    let can_meet = present
        .iter()
        .map(|&a| {
            present
                .iter()
                .map(|&b| {
                    a != b
                        && !t.forbidden.contains(&(a.min(b), a.max(b)))
                        && !(1..round).any(|r| {
                            matches!(t.record(a, r), Some(RoundRecord::Match {
                                opponent,
                                played: true,
                                ..
                            }) if opponent == b)
                        })
                })
                .collect()
        })
        .collect();
    let field = Field {
        entrants,
        can_meet,
        // [C7], [C10]: not in the last two rounds.
        float_criteria: round + 1 < t.total_rounds,
        type_b: t.colour_preferences == ColourType::B,
    };
    (field, present)
}

/// C.04.6 article 4: does team `a` (pairing number `na`) get White against
/// `b`? `round` is the round being paired.
pub fn allocate(t: &TeamTournament, round: u32, a: TeamId, na: u32, b: TeamId, nb: u32) -> bool {
    let last_round = round == t.total_rounds;
    // 4.2: the first team.
    let (pa, pb) = (primary(t, a, round - 1), primary(t, b, round - 1));
    let a_first = (pa.0, pa.1, std::cmp::Reverse(na)) > (pb.0, pb.1, std::cmp::Reverse(nb));
    let (f, nf, o) = if a_first { (a, na, b) } else { (b, nb, a) };
    let white_for_first = first_team_white(t, round, f, nf, o, last_round);
    white_for_first == a_first
}

fn first_team_white(
    t: &TeamTournament,
    round: u32,
    f: TeamId,
    nf: u32,
    o: TeamId,
    last_round: bool,
) -> bool {
    let (cf, co) = (colours_before(t, f, round), colours_before(t, o, round));
    // 4.3.1: no match played by either.
    if cf.is_empty() && co.is_empty() {
        return (nf % 2 == 1) == t.first_white;
    }
    let (pf, po) = (
        preference(&cf, t.colour_preferences, last_round),
        preference(&co, t.colour_preferences, last_round),
    );
    match (pf.colour, po.colour) {
        // Only one preference.
        (Some(c), None) => return c == Colour::White,
        (None, Some(c)) => return c == Colour::Black,
        // Opposite preferences.
        (Some(x), Some(y)) if x != y => return x == Colour::White,
        // Type B: only one is strong.
        (Some(x), Some(_)) if pf.strong != po.strong => {
            return if pf.strong {
                x == Colour::White
            } else {
                x == Colour::Black
            }
        }
        _ => {}
    }
    // The lower colour difference gets White.
    let diff = |c: &[Colour]| -> i32 {
        c.iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum()
    };
    let (df, dop) = (diff(&cf), diff(&co));
    if df != dop {
        return df < dop;
    }
    // 4.3.6: alternate to the most recent time one team had White and the
    // other Black. Only matches played count (C.04.2 3.4, which C.04.6's
    // preface applies to teams): the two histories, rounds not played
    // left out, are compared from the end.
    for (x, y) in cf.iter().rev().zip(co.iter().rev()) {
        if x != y {
            return *x == Colour::Black;
        }
    }
    // The first team's preference.
    if let Some(c) = pf.colour {
        return c == Colour::White;
    }
    // Alternate from the first team's last colour, then the other's.
    if let Some(c) = cf.last() {
        return *c == Colour::Black;
    }
    if let Some(c) = co.last() {
        return *c == Colour::White;
    }
    t.first_white
}

/// Pairs the next round of a team Swiss.
pub(crate) fn pair_round(t: &TeamTournament) -> Result<TeamRound, TeamError> {
    pair_round_without(t, &[])
}

/// Pairs the next round of a team Swiss with the teams of `absent` left
/// out of it (a team that announced it will not play the round: it keeps
/// its pairing number, and its earlier rounds count as they are). The
/// teams with a requested bye for the round are left out too.
pub fn pair_round_without(t: &TeamTournament, absent: &[TeamId]) -> Result<TeamRound, TeamError> {
    let round = t.rounds.len() as u32 + 1;
    let order = starting_order(t);
    let (field, present) = field(t, round, &order, absent);
    let pairing = c046::pair(&field).ok_or(TeamError::NoPairing { round })?;
    let number = |team: TeamId| order.iter().position(|&x| x == team).expect("a team") as u32 + 1;
    let size = |id: TeamId| t.teams[id as usize - 1].members.len();
    let mut out = TeamRound {
        bye: pairing.bye.map(|i| present[i]),
        ..TeamRound::default()
    };
    let mut pairs: Vec<(TeamId, TeamId)> = pairing
        .pairs
        .iter()
        .map(|&(x, y)| (present[x], present[y]))
        .collect();
    // The matches in table order: the higher score of the pair, then the
    // sum of the scores, then the smaller pairing number (C.04.2 3.6).
    pairs.sort_by_key(|&(a, b)| {
        let (sa, sb) = (
            pairing_score(t, &order, a, round),
            pairing_score(t, &order, b, round),
        );
        (
            std::cmp::Reverse(sa.max(sb)),
            std::cmp::Reverse(sa + sb),
            number(a).min(number(b)),
        )
    });
    for (a, b) in pairs {
        let (x, y) = (number(a), number(b));
        let (home, away) = if allocate(t, round, a, x, b, y) {
            (a, b)
        } else {
            (b, a)
        };
        out.matches
            .push(Match::new(home, away, t.boards, size(home), size(away)));
    }
    Ok(out)
}
