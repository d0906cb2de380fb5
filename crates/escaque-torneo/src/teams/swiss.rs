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
//! - **Brackets, floats, bye (C.04.1, C.04.3 mutatis mutandis).** Each team is
//!   a participant of the crate's FIDE Dutch engine ([`crate::dutch::pair`],
//!   checked against bbpPairings for individuals): no two teams meet twice
//!   (a match lost entirely by forfeit is not a meeting), as many teams as
//!   possible paired within their score group, the smallest score
//!   differences, floaters chosen and the repeated-float criteria (C.14-C.21)
//!   applied as for players; the pairing-allocated bye goes to a team that
//!   has had neither a bye nor a win by forfeit of a whole match.
//! - **Colour preferences (1.7).** A team's colour is its colour on board 1
//!   (1.6.1); its colour difference counts the matches played. Type A
//!   (simple): a preference for White when the difference is below −1, or it
//!   is 0 or −1 and the last two matches played were with Black (for Black
//!   symmetrically); otherwise none. Type B adds mild preferences: White
//!   when the difference is −1, or it is 0, the last match was with Black
//!   and this is not the last round (Black symmetrically); Type A's
//!   preferences are then the strong ones. Or no preferences at all
//!   ([`ColourType::None`]). In the pairing these preferences are quality
//!   criteria only — they are handed to the Dutch engine as strong (Type A,
//!   Type B strong) or mild (Type B mild) preferences, never absolute — so
//!   the pairing minimises the teams whose preference is not met (C.04.6
//!   C8, and C9 for the strong ones of Type B) but a colour never stops two
//!   teams from meeting.
//! - **Colour allocation (article 4).** After the pairing, for each match:
//!   the *first team* is the one with the higher primary score, then the
//!   higher secondary score, then the smaller pairing number (4.2). Then,
//!   the first rule that decides: neither team has played yet — the first
//!   team gets the initial colour drawn (White unless the organiser drew
//!   Black) if its pairing number is odd, the other one otherwise (4.3.1);
//!   only one team has a preference — it gets it; the preferences are
//!   opposite — both get them; only one preference is strong (Type B) — it
//!   gets it; the team with the lower colour difference gets White; the
//!   teams alternate from the latest round in which they had different
//!   colours; the first team's preference is granted; the first team
//!   alternates from its last colour; the other team alternates from its
//!   last colour.
//! - **Not implemented:** the Baku acceleration for teams and the C.04.6
//!   rule that relaxes the topscorer criteria in the last two rounds (the
//!   Dutch engine relaxes them in the last round only); requested byes of a
//!   team (TRF `240 F`/`H`): a team sitting a round out
//!   ([`pair_round_without`]) scores nothing.
//! - **Known difference (art. 3.5):** C.04.6 completes an odd scoregroup
//!   with a team floating *up* from the next one and pairs the whole
//!   bracket by the smallest identifier (3.6); the Dutch engine moves a
//!   resident *down* (C.04.3). The score differences are the same, the
//!   teams that meet can differ: `tests/teams_replay.rs` shows it on a
//!   file Sharly Chess paired (round 2 of `sharly_issue23.trf`).
//! - **Forbidden pairs** ([`TeamTournament::forbid`]: teams of one school
//!   or club the organiser keeps apart) reach the Dutch engine as teams
//!   that already met, as forbidden pairs of players do (C.04.1).

use std::collections::HashSet;

use crate::dutch::PairingPlayer;
use crate::model::Colour;
use crate::teams::model::{Match, RoundRecord, Side, TeamError, TeamId, TeamRound, TeamTournament};

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

/// The teams as the Dutch engine sees them before `round`: id = pairing
/// number.
fn participants(t: &TeamTournament, round: u32, order: &[TeamId]) -> Vec<PairingPlayer> {
    let last_round = round == t.total_rounds;
    let number_of =
        |team: TeamId| order.iter().position(|&x| x == team).expect("a team") as u32 + 1;
    order
        .iter()
        .enumerate()
        .map(|(k, &team)| {
            // Forbidden pairs are handed over as if they had met (C.04.1:
            // neither may be paired with the other).
            let mut opponents: HashSet<u32> = t
                .forbidden
                .iter()
                .filter_map(|&(a, b)| (a == team).then_some(b).or((b == team).then_some(a)))
                .map(number_of)
                .collect();
            let mut floats = Vec::new();
            let mut bye_eligible = true;
            for r in 1..round {
                let float = match t.record(team, r) {
                    Some(RoundRecord::Match {
                        opponent,
                        played,
                        own,
                        other,
                        ..
                    }) => {
                        if played {
                            opponents.insert(number_of(opponent));
                            let (mine, theirs) =
                                (primary(t, team, r - 1).0, primary(t, opponent, r - 1).0);
                            (theirs > mine) as i8 - (theirs < mine) as i8
                        } else {
                            // A match won entirely by forfeit is a bye's equal.
                            if own > other {
                                bye_eligible = false;
                            }
                            -((own > other) as i8)
                        }
                    }
                    Some(RoundRecord::Bye { .. }) => {
                        bye_eligible = false;
                        -1
                    }
                    _ => 0,
                };
                floats.push(float);
            }
            let pref = preference(
                &colours_before(t, team, round),
                t.colour_preferences,
                last_round,
            );
            // The preference as a colour history the Dutch engine reads as
            // strong (difference 1) or mild (balanced, last colour opposite);
            // never absolute.
            let colours = match (pref.colour, pref.strong) {
                (None, _) => Vec::new(),
                (Some(c), true) => vec![c.opposite()],
                (Some(c), false) => vec![c, c.opposite()],
            };
            let score = primary(t, team, round - 1).0;
            PairingPlayer {
                id: k as u32 + 1,
                score,
                colours,
                opponents,
                bye_eligible,
                float_last: floats.last().copied().unwrap_or(0),
                float_before: if floats.len() >= 2 {
                    floats[floats.len() - 2]
                } else {
                    0
                },
                rounds_played: round - 1,
                real_score: score,
                number: k as u32 + 1,
            }
        })
        .collect()
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
    // Alternate from the latest round with different colours.
    for r in (1..round).rev() {
        let (x, y) = (colour_in(t, f, r), colour_in(t, o, r));
        if let (Some(x), Some(y)) = (x, y) {
            if x != y {
                return x == Colour::Black;
            }
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

fn colour_in(t: &TeamTournament, team: TeamId, round: u32) -> Option<Colour> {
    match t.record(team, round)? {
        RoundRecord::Match {
            side, played: true, ..
        } => Some(if side == Side::Home {
            Colour::White
        } else {
            Colour::Black
        }),
        _ => None,
    }
}

/// Pairs the next round of a team Swiss.
pub(crate) fn pair_round(t: &TeamTournament) -> Result<TeamRound, TeamError> {
    pair_round_without(t, &[])
}

/// Pairs the next round of a team Swiss with the teams of `absent` left
/// out of it (a team that announced it will not play the round: it keeps
/// its pairing number, and its earlier rounds count as they are).
pub fn pair_round_without(t: &TeamTournament, absent: &[TeamId]) -> Result<TeamRound, TeamError> {
    let round = t.rounds.len() as u32 + 1;
    let order = starting_order(t);
    let players: Vec<PairingPlayer> = participants(t, round, &order)
        .into_iter()
        .filter(|p| !absent.contains(&order[p.id as usize - 1]))
        .collect();
    let pairs = crate::dutch::pair(
        &players,
        round == t.total_rounds,
        t.total_rounds,
        t.first_white,
    )
    .ok_or(TeamError::NoPairing { round })?;
    let size = |id: TeamId| t.teams[id as usize - 1].members.len();
    let mut out = TeamRound::default();
    for (x, y) in pairs {
        let a = order[x as usize - 1];
        match y {
            None => out.bye = Some(a),
            Some(y) => {
                let b = order[y as usize - 1];
                let (home, away) = if allocate(t, round, a, x, b, y) {
                    (a, b)
                } else {
                    (b, a)
                };
                out.matches
                    .push(Match::new(home, away, t.boards, size(home), size(away)));
            }
        }
    }
    Ok(out)
}
