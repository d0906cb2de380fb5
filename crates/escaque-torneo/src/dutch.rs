//! The FIDE Dutch system (C.04.3, 2017 text with the 2025 amendments),
//! paired with maximum-weight matchings, one score bracket at a time.
//!
//! For each bracket from the top, a matching is computed over the bracket
//! (its residents and the players moved down into it) and every player
//! below it, so that the rest can still be paired (completion). The weight
//! of a pair holds, from the most significant bits down: that it is a pair
//! at all; that it keeps bracket players in the bracket (fewest
//! downfloaters); the score differences; colour preferences (C.12, C.13);
//! repeated floats (C.14–C.17); and last the order in which the Dutch
//! system tries pairings (S1 against S2, transpositions, exchanges),
//! approximated by preferring partners half a bracket apart and letting
//! the lowest players float. Pairs inside the bracket are then fixed;
//! bracket players matched below become the next bracket's downfloaters.
//! The pairing-allocated bye goes to an eligible player of the lowest
//! bracket. Colours follow C.04.3 E (articles E.1–E.5).

use std::collections::HashSet;

use crate::error::TorneoError;
use crate::matching::max_weight_matching;
use crate::model::{ByeKind, Colour, Entry, Game, Outcome, PlayerId, Round, Tournament};
use crate::HalfPoints;

/// What the pairing needs to know about one player before the round.
#[derive(Clone, Debug)]
pub struct PairingPlayer {
    pub id: PlayerId,
    pub score: HalfPoints,
    /// Colours of the games played over the board, oldest first.
    pub colours: Vec<Colour>,
    pub opponents: HashSet<PlayerId>,
    /// May receive the pairing-allocated bye.
    pub bye_eligible: bool,
    /// Floats in the last round and the one before: +1 up, -1 down, 0 none.
    pub float_last: i8,
    pub float_before: i8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

impl PairingPlayer {
    fn colour_difference(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Colour::White { 1 } else { -1 })
            .sum()
    }

    /// The colour preference (C.04.1 / A.6) and how strong it is.
    fn preference(&self) -> (Option<Colour>, Strength) {
        let cd = self.colour_difference();
        let last = self.colours.last().copied();
        let two_same = self.colours.len() >= 2
            && self.colours[self.colours.len() - 1] == self.colours[self.colours.len() - 2];
        if cd > 1 || (two_same && last == Some(Colour::White)) {
            return (Some(Colour::Black), Strength::Absolute);
        }
        if cd < -1 || (two_same && last == Some(Colour::Black)) {
            return (Some(Colour::White), Strength::Absolute);
        }
        match (cd, last) {
            (1, _) => (Some(Colour::Black), Strength::Strong),
            (-1, _) => (Some(Colour::White), Strength::Strong),
            (_, Some(c)) => (Some(c.opposite()), Strength::Mild),
            _ => (None, Strength::None),
        }
    }
}

/// Builds each available player's pairing facts for round `round` (1-based).
pub fn pairing_players(t: &Tournament, round: u32) -> Vec<PairingPlayer> {
    let mut out = Vec::new();
    for (i, p) in t.players.iter().enumerate() {
        let id = i as u32 + 1;
        if !p.available(round) {
            continue;
        }
        let mut pp = PairingPlayer {
            id,
            // Accelerated rounds (C.04.5) pair on score plus fictitious points.
            score: t.score_after(id, round - 1) + t.acceleration(id, round),
            colours: Vec::new(),
            opponents: HashSet::new(),
            bye_eligible: true,
            float_last: 0,
            float_before: 0,
        };
        let mut floats = Vec::new();
        for r in 1..round {
            let e = t.entry(id, r);
            let float;
            match e {
                Entry::Game {
                    opponent,
                    colour,
                    result,
                } if result.played() => {
                    pp.colours.push(colour);
                    pp.opponents.insert(opponent);
                    let (mine, theirs) = (t.score_after(id, r - 1), t.score_after(opponent, r - 1));
                    float = (theirs > mine) as i8 - (theirs < mine) as i8;
                }
                _ => {
                    // A round without a game over the board counts as a downfloat.
                    float = -1;
                    if matches!(
                        e,
                        Entry::Bye(ByeKind::PairingAllocated) | Entry::Bye(ByeKind::Full)
                    ) || matches!(e, Entry::Game { result, .. } if result == crate::model::GameResult::ForfeitWin)
                    {
                        pp.bye_eligible = false;
                    }
                }
            }
            floats.push(float);
        }
        // Pairings the organiser forbids are treated as games already played (C.04.3 C.1).
        for other in 1..=t.players.len() as u32 {
            if t.forbidden_pairing(id, other, round) {
                pp.opponents.insert(other);
            }
        }
        pp.float_last = floats.last().copied().unwrap_or(0);
        pp.float_before = if floats.len() >= 2 {
            floats[floats.len() - 2]
        } else {
            0
        };
        out.push(pp);
    }
    out
}

/// Pairs the next round of a Swiss tournament.
pub(crate) fn pair_round(t: &Tournament) -> Result<Round, TorneoError> {
    let round = t.rounds.len() as u32 + 1;
    let players = pairing_players(t, round);
    let last_round = round == t.total_rounds;
    let pairs = pair(&players, last_round, t.total_rounds, t.first_white)
        .ok_or(TorneoError::NoPairing { round })?;
    let mut r = Round::default();
    for (w, b) in pairs {
        match b {
            Some(b) => r.games.push(Game {
                white: w,
                black: b,
                outcome: Outcome::Pending,
            }),
            None => r.byes.push((w, ByeKind::PairingAllocated)),
        }
    }
    r.byes.extend(t.fixed_byes(round));
    Ok(r)
}

// Fields of a pair's weight, most significant first. Each field is wide
// enough that its sum over every pair of a matching (at most 2^9 pairs)
// stays below the unit of the field above it; the largest weight stays
// below 2^124, so the matching's doubled weights and dual sums fit an i128.
const PAIR: i128 = 1 << 123;
const IN_BRACKET: i128 = 1 << 112;
const MDP_SCORE: i128 = 1 << 97;
const SCORE_DIFF: i128 = 1 << 83;
const C12: i128 = 1 << 74;
const C13: i128 = 1 << 65;
const FLOAT: i128 = 1 << 52;
const MOVER: i128 = 1 << 42;
const EXCHANGE: i128 = 1 << 32;

/// Pairs the players; returns `(white, Some(black))` in board order and
/// `(player, None)` for the pairing-allocated bye; `None` if no legal
/// pairing exists.
pub fn pair(
    players: &[PairingPlayer],
    last_round: bool,
    total_rounds: u32,
    first_white: bool,
) -> Option<Vec<(PlayerId, Option<PlayerId>)>> {
    // First with each bracket's matching looking only at the nearest players
    // below it (fast); if that leaves a later bracket unpairable, again with
    // everyone below (completion in full).
    pair_with(players, last_round, total_rounds, first_white, true)
        .or_else(|| pair_with(players, last_round, total_rounds, first_white, false))
}

fn pair_with(
    players: &[PairingPlayer],
    last_round: bool,
    total_rounds: u32,
    first_white: bool,
    near_only: bool,
) -> Option<Vec<(PlayerId, Option<PlayerId>)>> {
    let n = players.len();
    // Ranking: score, then pairing number.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .score
            .cmp(&players[a].score)
            .then(players[a].id.cmp(&players[b].id))
    });
    let mut rank = vec![0usize; players.len()];
    for (k, &i) in order.iter().enumerate() {
        rank[i] = k;
    }
    let prefs: Vec<(Option<Colour>, Strength)> = players.iter().map(|p| p.preference()).collect();
    let max_hp = 2 * total_rounds;
    let topscorer = |i: usize| last_round && 2 * players[i].score > max_hp;
    let compatible = |a: usize, b: usize| -> bool {
        if players[a].opponents.contains(&players[b].id) {
            return false;
        }
        let (pa, sa) = prefs[a];
        let (pb, sb) = prefs[b];
        !(sa == Strength::Absolute
            && sb == Strength::Absolute
            && pa == pb
            && !(topscorer(a) || topscorer(b)))
    };
    let bye_vertex = n; // present when n is odd
    let odd = n % 2 == 1;
    let mut paired: Vec<Option<usize>> = vec![None; n + 1];
    let mut done = vec![false; n + 1];
    let mut carried: Vec<usize> = Vec::new(); // downfloaters into the next bracket
    let mut scores: Vec<HalfPoints> = order.iter().map(|&i| players[i].score).collect();
    scores.dedup();
    let mut bye: Option<usize> = None;

    for (gi, &s) in scores.iter().enumerate() {
        let last_bracket = gi + 1 == scores.len();
        let mut bracket: Vec<usize> = carried.clone();
        bracket.extend(order.iter().copied().filter(|&i| players[i].score == s));
        let lower: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&i| players[i].score < s && !done[i])
            .take(if near_only {
                (3 * bracket.len()).max(40)
            } else {
                usize::MAX
            })
            .collect();
        // Vertices: bracket, then lower, then the bye.
        let mut verts: Vec<usize> = bracket.clone();
        verts.extend(&lower);
        if odd {
            verts.push(bye_vertex);
        }
        let mut vertex_of = vec![usize::MAX; n + 1];
        for (v, &i) in verts.iter().enumerate() {
            vertex_of[i] = v;
        }
        let in_bracket = |v: usize| v < bracket.len() || (last_bracket && verts[v] == bye_vertex);
        // Roles in the Dutch order of candidates: the players moved down
        // (S1 of a heterogeneous bracket), then the residents split into S1
        // and S2 after the ones expected to meet the moved-down players.
        let mut movers: Vec<usize> = carried.clone();
        movers.sort_by(|&a, &b| {
            players[b]
                .score
                .cmp(&players[a].score)
                .then(players[a].id.cmp(&players[b].id))
        });
        let residents: Vec<usize> = bracket[carried.len()..].to_vec();
        // S2 indices stay below 2^level_bits, so the first `levels` S1
        // players' choices are exactly lexicographic.
        let s2_size = residents.len().saturating_sub(movers.len()).div_ceil(2) + 1;
        let level_bits = (usize::BITS - s2_size.leading_zeros()) as i128;
        let levels = (19 / level_bits).max(1);
        // The residents expected to meet the moved-down players: first the
        // top ones; if the matching gives them others, again with those.
        let mut partners: Vec<usize> = residents.iter().take(movers.len()).copied().collect();
        let mut tries = 0;
        let mate = loop {
            let rest: Vec<usize> = residents
                .iter()
                .copied()
                .filter(|r| !partners.contains(r))
                .collect();
            let k = rest.len() / 2;
            // Each vertex's role, computed once (the loops below are quadratic).
            let mut roles: Vec<Role> = vec![Role::Below(0); verts.len()];
            for (x, &m) in movers.iter().enumerate() {
                roles[vertex_of[m]] = Role::Mover(x);
            }
            for (j, &r) in residents.iter().enumerate() {
                let rest_index = rest.iter().position(|&q| q == r);
                roles[vertex_of[r]] = Role::Resident {
                    index: j,
                    partner: rest_index.is_none(),
                    s1: rest_index.is_some_and(|x| x < k),
                    rest_index: rest_index.unwrap_or(0),
                    k,
                    level_bits,
                    levels,
                };
            }
            for (v, &i) in verts.iter().enumerate().skip(bracket.len()) {
                if i != bye_vertex {
                    roles[v] = Role::Below(rank[i]);
                }
            }
            let mut edges = Vec::new();
            for a in 0..verts.len() {
                for b in a + 1..verts.len() {
                    let (ia, ib) = (verts[a], verts[b]);
                    let ia_bracket = in_bracket(a);
                    let ib_bracket = in_bracket(b);
                    if !(ia_bracket || ib_bracket || ia == bye_vertex || ib == bye_vertex) {
                        // Lower players among themselves: only completion matters.
                        if compatible(ia, ib) {
                            edges.push((a, b, PAIR));
                        }
                        continue;
                    }
                    if ia == bye_vertex || ib == bye_vertex {
                        let p = if ia == bye_vertex { ib } else { ia };
                        if !players[p].bye_eligible {
                            continue;
                        }
                        // The bye goes as low as possible: lowest score, then lowest rank.
                        let rank = rank[p] as i128;
                        let mut w = PAIR + rank;
                        if last_bracket && in_bracket(if ia == bye_vertex { b } else { a }) {
                            w += IN_BRACKET;
                        }
                        edges.push((a, b, w));
                        continue;
                    }
                    if !compatible(ia, ib) {
                        continue;
                    }
                    let mut w = PAIR;
                    let (hi, lo) = if players[ia].score >= players[ib].score {
                        (ia, ib)
                    } else {
                        (ib, ia)
                    };
                    if ia_bracket && ib_bracket {
                        w += 2 * IN_BRACKET;
                        // C.7: the players who float down have the lowest scores.
                        let excess = (players[ia].score + players[ib].score - 2 * s) as i128;
                        w += MDP_SCORE * excess;
                    }
                    let diff = (players[hi].score - players[lo].score) as i128;
                    w += SCORE_DIFF * (max_hp as i128 + 2 - diff);
                    // Colours: C.12 (preferences granted) and C.13 (strong ones).
                    let (pa, sa) = prefs[ia];
                    let (pb, sb) = prefs[ib];
                    if !(pa.is_some() && pa == pb) {
                        w += C12 + C13;
                    } else if sa.min(sb) < Strength::Strong {
                        w += C13;
                    }
                    // Floats C.14-C.17: the higher player floats down, the lower up.
                    let mut f = 15;
                    if diff > 0 {
                        if players[hi].float_last < 0 {
                            f -= 8;
                        }
                        if players[lo].float_last > 0 {
                            f -= 4;
                        }
                        if players[hi].float_before < 0 {
                            f -= 2;
                        }
                        if players[lo].float_before > 0 {
                            f -= 1;
                        }
                    }
                    w += FLOAT * f;
                    // Moved-down players choose their opponents first, the highest first.
                    match (roles[a], roles[b]) {
                        (Role::Mover(x), Role::Resident { index, .. })
                        | (Role::Resident { index, .. }, Role::Mover(x)) => {
                            w += MOVER * (15 - index.min(15) as i128) * if x == 0 { 16 } else { 1 };
                        }
                        _ => {}
                    }
                    w += order_weight(roles[a], roles[b]);
                    edges.push((a, b, w));
                }
            }
            let mate = max_weight_matching(verts.len(), &edges);
            tries += 1;
            let mut actual: Vec<usize> = residents
                .iter()
                .copied()
                .filter(|&r| {
                    let v = vertex_of[r];
                    mate[v].is_some_and(|u| carried.contains(&verts[u]))
                })
                .collect();
            actual.sort_unstable();
            partners.sort_unstable();
            if movers.is_empty() || tries >= 3 || actual == partners {
                break mate;
            }
            partners = actual;
        };
        // Everyone must be paired (the bye vertex included when odd); when
        // only the nearest players below are in the graph, its parity is
        // arbitrary and only the bracket must be paired.
        let must = if near_only && !last_bracket {
            bracket.len()
        } else {
            mate.len()
        };
        if mate[..must].iter().any(|m| m.is_none()) {
            return None;
        }
        carried.clear();
        for (v, &i) in verts.iter().enumerate().take(bracket.len()) {
            let u = mate[v].unwrap();
            let j = verts[u];
            if j == bye_vertex {
                if last_bracket {
                    bye = Some(i);
                    done[i] = true;
                } else {
                    carried.push(i);
                }
            } else if u < bracket.len() {
                paired[i] = Some(j);
                done[i] = true;
            } else {
                carried.push(i);
            }
        }
        if last_bracket && !carried.is_empty() {
            return None;
        }
    }

    // Colours and board order. E.5 counts pairing numbers among the
    // players being paired (an absent player does not break the alternation).
    let mut by_id: Vec<usize> = (0..n).collect();
    by_id.sort_by_key(|&i| players[i].id);
    let mut number = vec![0usize; n];
    for (k, &i) in by_id.iter().enumerate() {
        number[i] = k + 1;
    }
    let rank_of = |i: usize| rank[i];
    let mut games: Vec<(usize, usize)> = Vec::new();
    for (i, p) in paired.iter().enumerate().take(n) {
        if let Some(j) = *p {
            if i < j {
                let (w, b) = allocate_colours(
                    players,
                    &prefs,
                    (i, j),
                    rank_of(i) < rank_of(j),
                    &number,
                    first_white,
                );
                games.push((w, b));
            }
        }
    }
    games.sort_by(|&(a1, b1), &(a2, b2)| {
        let key = |a: usize, b: usize| {
            let (sa, sb) = (players[a].score, players[b].score);
            (
                std::cmp::Reverse(sa.max(sb)),
                std::cmp::Reverse(sa + sb),
                rank_of(a).min(rank_of(b)),
            )
        };
        key(a1, b1).cmp(&key(a2, b2))
    });
    let mut out: Vec<(PlayerId, Option<PlayerId>)> = games
        .into_iter()
        .map(|(w, b)| (players[w].id, Some(players[b].id)))
        .collect();
    if let Some(b) = bye {
        out.push((players[b].id, None));
    }
    Some(out)
}

/// C.04.3 E: who gets White in a pair.
fn allocate_colours(
    players: &[PairingPlayer],
    prefs: &[(Option<Colour>, Strength)],
    (a, b): (usize, usize),
    a_higher: bool,
    number: &[usize],
    first_white: bool,
) -> (usize, usize) {
    let (hi, lo) = if a_higher { (a, b) } else { (b, a) };
    let white_is = |x: usize| if x == hi { (hi, lo) } else { (lo, hi) };
    let (ph, sh) = prefs[hi];
    let (pl, sl) = prefs[lo];
    // E.1: both preferences can be granted.
    if let (Some(h), Some(l)) = (ph, pl) {
        if h != l {
            return if h == Colour::White {
                (hi, lo)
            } else {
                (lo, hi)
            };
        }
    }
    if ph.is_some() && pl.is_none() {
        return if ph == Some(Colour::White) {
            (hi, lo)
        } else {
            (lo, hi)
        };
    }
    if pl.is_some() && ph.is_none() {
        return if pl == Some(Colour::White) {
            (lo, hi)
        } else {
            (hi, lo)
        };
    }
    if let (Some(h), Some(_)) = (ph, pl) {
        // E.2: the stronger preference (both absolute: the wider colour difference).
        if sh != sl || sh == Strength::Absolute {
            let (dh, dl) = (
                players[hi].colour_difference().abs(),
                players[lo].colour_difference().abs(),
            );
            let hi_wins = if sh != sl { sh > sl } else { dh >= dl };
            if sh != sl || dh != dl {
                let winner = if hi_wins { hi } else { lo };
                let c = if hi_wins { h } else { prefs[lo].0.unwrap() };
                return if c == Colour::White {
                    white_is(winner)
                } else {
                    let (w, bl) = white_is(winner);
                    (bl, w)
                };
            }
        }
        // E.3: alternate from the latest round where their colours differed.
        let (ch, cl) = (&players[hi].colours, &players[lo].colours);
        let (mut i, mut j) = (ch.len(), cl.len());
        while i > 0 && j > 0 {
            i -= 1;
            j -= 1;
            if ch[i] != cl[j] {
                return if ch[i] == Colour::White {
                    (lo, hi)
                } else {
                    (hi, lo)
                };
            }
        }
        // E.4: the higher-ranked player's preference.
        return if h == Colour::White {
            (hi, lo)
        } else {
            (lo, hi)
        };
    }
    // E.5: no preferences: by the higher-ranked player's pairing number.
    let odd = number[hi] % 2 == 1;
    if odd == first_white {
        (hi, lo)
    } else {
        (lo, hi)
    }
}

#[derive(Clone, Copy)]
enum Role {
    /// A player moved down into the bracket, `0` the highest.
    Mover(usize),
    Resident {
        index: usize,
        /// Expected to meet a moved-down player.
        partner: bool,
        s1: bool,
        rest_index: usize,
        k: usize,
        level_bits: i128,
        levels: i128,
    },
    /// Below the bracket, at this overall rank.
    Below(usize),
}

/// The last field of a pair's weight: how early the Dutch system would try
/// this pair. S1's first player gets the earliest S2 player it can, then the
/// second, and so on (transpositions, exactly for the first few S1 players,
/// approximately after); pairs inside S1 or inside S2 need an exchange; the
/// players who float down are the lowest.
fn order_weight(a: Role, b: Role) -> i128 {
    let base = 1i128 << 33;
    // Penalty for S1 player `i` meeting the S2 player `j`: exact
    // lexicographic weights for the first `levels` S1 players, then weights
    // that only make the plain S1[i]-S2[i] order the cheapest.
    let cost = |i: usize, j: usize, level_bits: i128, levels: i128| -> i128 {
        let (i, j) = (i as i128, j as i128);
        if i < levels {
            j << (12 + level_bits * (levels - 1 - i))
        } else {
            j * (300 - i.min(299))
        }
    };
    match (a, b) {
        (
            Role::Mover(x),
            Role::Resident {
                index,
                level_bits,
                levels,
                ..
            },
        )
        | (
            Role::Resident {
                index,
                level_bits,
                levels,
                ..
            },
            Role::Mover(x),
        ) => base - cost(x, index, level_bits, levels),
        (Role::Mover(x), Role::Mover(y)) => base - EXCHANGE - (x + y) as i128,
        (
            Role::Resident {
                index: ia,
                partner: pa,
                ..
            },
            Role::Resident {
                index: ib,
                partner: pb,
                ..
            },
        ) if pa || pb => {
            // A resident the moved-down players should have met.
            base - EXCHANGE - (ia + ib) as i128
        }
        (
            Role::Resident {
                s1: s1a,
                rest_index: ra,
                k,
                level_bits,
                levels,
                ..
            },
            Role::Resident {
                s1: s1b,
                rest_index: rb,
                ..
            },
        ) => {
            if s1a && s1b {
                // Two S1 players: an exchange; the S1 players moved are the lowest.
                base - EXCHANGE - (2 * k - ra - rb) as i128
            } else if s1a == s1b {
                // Two S2 players: the S2 players moved are the highest.
                base - EXCHANGE - (ra + rb - 2 * k) as i128
            } else {
                let (i, j) = if s1a {
                    (ra, rb.saturating_sub(k))
                } else {
                    (rb, ra.saturating_sub(k))
                };
                base - cost(i, j, level_bits, levels)
            }
        }
        // Floating down: prefer the lowest bracket players, and the highest below.
        (Role::Resident { index, .. }, Role::Below(r))
        | (Role::Below(r), Role::Resident { index, .. }) => {
            base + (index as i128) * 1024 - r as i128
        }
        (Role::Mover(x), Role::Below(r)) | (Role::Below(r), Role::Mover(x)) => {
            base + (x as i128) * 1024 - r as i128
        }
        (Role::Below(_), Role::Below(_)) => base,
    }
}

/// How a pairing fares on the Dutch system's quality criteria, in their
/// order of priority (lower is better in every field). Used to explain
/// where two pairings of the same round differ.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Quality {
    /// Score of the player given the pairing-allocated bye (C.5/C.9: as low as possible), negated.
    pub bye_score: i64,
    /// Score differences of the pairs, largest first (C.6/C.7: fewest and lowest floats).
    pub score_differences: Vec<u32>,
    /// Players not given their colour preference (C.12).
    pub colour: u32,
    /// Players not given a strong or absolute colour preference (C.13).
    pub strong_colour: u32,
    /// Players floating down again after a downfloat in the last round (C.14).
    pub repeated_down: u32,
    /// Players floating up again after an upfloat in the last round (C.15).
    pub repeated_up: u32,
    /// Same as C.14/C.15 for two rounds before (C.16/C.17).
    pub repeated_two_rounds: u32,
}

impl Quality {
    /// The name of the first criterion on which `self` and `other` differ.
    pub fn first_difference(&self, other: &Quality) -> &'static str {
        if self.bye_score != other.bye_score {
            "C.5/C.9 pairing-allocated bye"
        } else if self.score_differences != other.score_differences {
            "C.6/C.7 floaters and score differences"
        } else if self.colour != other.colour {
            "C.12 colour preferences"
        } else if self.strong_colour != other.strong_colour {
            "C.13 strong colour preferences"
        } else if self.repeated_down != other.repeated_down {
            "C.14 repeated downfloats"
        } else if self.repeated_up != other.repeated_up {
            "C.15 repeated upfloats"
        } else if self.repeated_two_rounds != other.repeated_two_rounds {
            "C.16/C.17 floats two rounds before"
        } else {
            "equal on C.5-C.17: order of candidates (transpositions/exchanges, C.04.3 B-D) or a rule not modelled"
        }
    }
}

/// Evaluates a pairing (`(white, Some(black))`, `(player, None)` for the bye).
pub fn quality(players: &[PairingPlayer], pairs: &[(PlayerId, Option<PlayerId>)]) -> Quality {
    let find = |id: PlayerId| players.iter().find(|p| p.id == id);
    let mut q = Quality {
        bye_score: 0,
        score_differences: Vec::new(),
        colour: 0,
        strong_colour: 0,
        repeated_down: 0,
        repeated_up: 0,
        repeated_two_rounds: 0,
    };
    for &(w, b) in pairs {
        let Some(pw) = find(w) else { continue };
        let Some(b) = b else {
            q.bye_score = -(pw.score as i64);
            continue;
        };
        let Some(pb) = find(b) else { continue };
        for (p, c) in [(pw, Colour::White), (pb, Colour::Black)] {
            let (pref, strength) = p.preference();
            if pref.is_some_and(|x| x != c) {
                q.colour += 1;
                if strength >= Strength::Strong {
                    q.strong_colour += 1;
                }
            }
        }
        let (hi, lo) = if pw.score >= pb.score {
            (pw, pb)
        } else {
            (pb, pw)
        };
        q.score_differences.push(hi.score - lo.score);
        if hi.score > lo.score {
            q.repeated_down += (hi.float_last < 0) as u32;
            q.repeated_up += (lo.float_last > 0) as u32;
            q.repeated_two_rounds += (hi.float_before < 0) as u32 + (lo.float_before > 0) as u32;
        }
    }
    q.score_differences.sort_unstable_by(|a, b| b.cmp(a));
    q
}
