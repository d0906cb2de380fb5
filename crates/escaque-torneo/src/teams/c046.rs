//! FIDE C.04.6 article 3: the team Swiss's own pairing procedure (the text
//! in force from 1 February 2026), in place of the individual Dutch
//! engine.
//!
//! Article 3.3.2 pairs a round in this order:
//!
//! 1. **The pairing-allocated bye (3.4)**, when the teams are odd: to the
//!    team that may have it ([C2], 2.1.2: no earlier bye, no match won by
//!    forfeit, no full-point requested bye) and leaves a legal pairing for
//!    the others (3.4.1), with the lowest score (3.4.2), the most matches
//!    played (3.4.3), the largest pairing number (3.4.4).
//! 2. **The top scoregroup with a set of upfloaters (3.5).** There are no
//!    downfloaters: an odd scoregroup, or one that cannot be paired within
//!    itself, takes teams *up* from below. The sets are chosen by [C4]
//!    (fewest upfloaters, 2.3.1), then [C5] (their scores as high as
//!    possible, compared in ascending order, 2.3.2); among the sets of that
//!    size and scores — each sorted by descending score then ascending
//!    pairing number (3.5.3), the sets in the lexicographic order of those
//!    numbers (3.5.4) — the first that gives a legal pairing of the
//!    bracket and of every team left ([C1], [C3]) and complies with [C6]
//!    (the following scoregroup can still be paired with the fewest
//!    upfloaters, 2.3.3) and then [C7] (fewest upfloaters that floated in
//!    the previous round, except in the last two rounds, 2.3.4) (3.5.5).
//! 3. **The bracket's pairing (3.6).** The bracket's teams in pairing-number
//!    order; in each pair the smaller number is the top member; a pairing
//!    is identified by its top members in ascending order followed by their
//!    bottom members in the same order; the pairing chosen is the first, in
//!    the lexicographic order of identifiers, among those that best comply
//!    with [C8] (pairs of teams that prefer the same colour, 2.3.5), [C9]
//!    (the same for two strong preferences, Type B, 2.3.6) and [C10]
//!    (upfloaters' opponents that floated in the previous round, except in
//!    the last two rounds, 2.3.7), in that order.
//! 4. Steps 2 and 3 again with the teams left, until all are paired; the
//!    colours come afterwards (article 4, in [`crate::teams::swiss`]).
//!
//! The text used is the one Gacrux's C.04.6 engine (ChessRoster/
//! TieBreakServer, `gacrux/pairingfideteam.py`) quotes article by article;
//! the FIDE handbook page of C.04.6 was only reachable here for its
//! preface. This is escaque's own implementation of those articles.

use crate::matching::max_weight_matching;
use crate::model::Colour;

/// A team as the procedure sees it.
#[derive(Clone, Debug)]
pub struct Entrant {
    /// Pairing number (C.04.6 1.1), unique.
    pub tpn: u32,
    /// Primary score before the round (1.2), in the tournament's units.
    pub score: u32,
    /// Matches actually played so far (3.4.3).
    pub played: u32,
    /// May receive the pairing-allocated bye ([C2], 2.1.2).
    pub bye_eligible: bool,
    /// Played an opponent with a different score in the previous round
    /// (a floater, 1.5).
    pub floated: bool,
    /// Colour preference (1.7) and whether it is strong (Type A's, Type B's
    /// strong ones).
    pub colour: Option<Colour>,
    pub strong: bool,
}

/// The round to pair.
#[derive(Clone, Debug)]
pub struct Field {
    pub entrants: Vec<Entrant>,
    /// `can_meet[i][j]`: [C1] (2.1.1) lets entrants `i` and `j` meet.
    pub can_meet: Vec<Vec<bool>>,
    /// [C7] and [C10] apply (not in the last two rounds).
    pub float_criteria: bool,
    /// Type B colour preferences ([C9]).
    pub type_b: bool,
}

/// The round's pairing: pairs of entrant indices (top member first) and the
/// entrant with the pairing-allocated bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// More sets of upfloaters than this for one score profile are not
/// examined: the best found so far is taken (a bound on the time a
/// pathological round can take; never reached in a real event, where an
/// odd scoregroup takes one upfloater).
const MAX_SETS: usize = 20_000;

/// Pairs the round by C.04.6 article 3; `None` when no legal pairing exists
/// (3.3.3: the chief arbiter decides).
pub fn pair(f: &Field) -> Option<Pairing> {
    let n = f.entrants.len();
    let all: Vec<usize> = (0..n).collect();
    let mut left = all.clone();
    let mut bye = None;
    if n % 2 == 1 {
        let mut candidates: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&i| f.entrants[i].bye_eligible)
            .collect();
        candidates.sort_by_key(|&i| {
            let e = &f.entrants[i];
            (
                e.score,
                std::cmp::Reverse(e.played),
                std::cmp::Reverse(e.tpn),
            )
        });
        let chosen = candidates.into_iter().find(|&c| {
            let rest: Vec<usize> = all.iter().copied().filter(|&i| i != c).collect();
            perfect(f, &rest)
        })?;
        bye = Some(chosen);
        left.retain(|&i| i != chosen);
    }
    // The scoregroups of the round, highest first ([C6] reads "the
    // following scoregroup" in this list).
    let mut scores: Vec<u32> = f.entrants.iter().map(|e| e.score).collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    scores.dedup();
    let mut pairs = Vec::new();
    while !left.is_empty() {
        let top = left.iter().map(|&i| f.entrants[i].score).max()?;
        let residents: Vec<usize> = left
            .iter()
            .copied()
            .filter(|&i| f.entrants[i].score == top)
            .collect();
        let ups = select_upfloaters(f, &scores, top, &residents, &left)?;
        let mut bracket: Vec<usize> = residents.iter().chain(&ups).copied().collect();
        bracket.sort_by_key(|&i| f.entrants[i].tpn);
        let found = pair_bracket(f, top, &bracket)?;
        left.retain(|i| !bracket.contains(i));
        pairs.extend(found);
    }
    Some(Pairing { pairs, bye })
}

/// Whether `nodes` can all be paired under [C1].
fn perfect(f: &Field, nodes: &[usize]) -> bool {
    if nodes.len() % 2 == 1 {
        return false;
    }
    if nodes.is_empty() {
        return true;
    }
    let mut edges = Vec::new();
    for (a, &x) in nodes.iter().enumerate() {
        for (b, &y) in nodes.iter().enumerate().skip(a + 1) {
            if f.can_meet[x][y] {
                edges.push((a, b, 1i128));
            }
        }
    }
    let mate = max_weight_matching(nodes.len(), &edges);
    mate.iter().all(Option::is_some)
}

/// C.04.6 3.5: the upfloaters for the top scoregroup `residents` (score
/// `top`) among the teams `left`.
fn select_upfloaters(
    f: &Field,
    scores: &[u32],
    top: u32,
    residents: &[usize],
    left: &[usize],
) -> Option<Vec<usize>> {
    let e = &f.entrants;
    // 3.5.1: every team with a lower score is a potential upfloater; by
    // scoregroup, descending score, each in ascending pairing number.
    let mut levels: Vec<(u32, Vec<usize>)> = Vec::new();
    let mut lower: Vec<usize> = left.iter().copied().filter(|&i| e[i].score < top).collect();
    lower.sort_by_key(|&i| (std::cmp::Reverse(e[i].score), e[i].tpn));
    for &i in &lower {
        match levels.last_mut() {
            Some((s, v)) if *s == e[i].score => v.push(i),
            _ => levels.push((e[i].score, vec![i])),
        }
    }
    let following = scores.iter().copied().find(|&s| s < top);
    // [C4]: as few upfloaters as the bracket's parity allows, more only
    // when no set of that size gives a legal pairing.
    let mut size = residents.len() % 2;
    while size <= lower.len() {
        for profile in profiles(&levels, size) {
            let mut best: Option<((bool, usize, usize), Vec<usize>)> = None;
            for (index, set) in sets(&levels, &profile).enumerate().take(MAX_SETS) {
                let bracket: Vec<usize> = residents.iter().chain(&set).copied().collect();
                if !perfect(f, &bracket) {
                    continue;
                }
                let rest: Vec<usize> = left
                    .iter()
                    .copied()
                    .filter(|i| !bracket.contains(i))
                    .collect();
                // [C3] (2.2.1): the teams left can still be paired.
                if !perfect(f, &rest) {
                    continue;
                }
                let c6 = following.is_none_or(|s| c6_holds(f, s, &rest));
                let c7 = if f.float_criteria {
                    set.iter().filter(|&&i| e[i].floated).count()
                } else {
                    0
                };
                let key = (!c6, c7, index);
                if best.as_ref().is_none_or(|(k, _)| key < *k) {
                    best = Some((key, set));
                }
                if c6 && c7 == 0 {
                    break; // 3.5.5: the first set that complies.
                }
            }
            if let Some((_, set)) = best {
                return Some(set);
            }
        }
        size += 2;
    }
    None
}

/// The score profiles of `size` upfloaters (how many of each lower
/// scoregroup), best first by [C5]: the scores taken in ascending order,
/// the highest such list first.
fn profiles(levels: &[(u32, Vec<usize>)], size: usize) -> Vec<Vec<usize>> {
    fn grow(
        levels: &[(u32, Vec<usize>)],
        at: usize,
        left: usize,
        cur: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if at == levels.len() {
            if left == 0 {
                out.push(cur.clone());
            }
            return;
        }
        for k in (0..=left.min(levels[at].1.len())).rev() {
            cur.push(k);
            grow(levels, at + 1, left - k, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    grow(levels, 0, size, &mut Vec::new(), &mut out);
    let ascending = |p: &Vec<usize>| -> Vec<u32> {
        let mut s: Vec<u32> = p
            .iter()
            .enumerate()
            .flat_map(|(l, &k)| std::iter::repeat_n(levels[l].0, k))
            .collect();
        s.sort_unstable();
        s
    };
    out.sort_by_key(|p| std::cmp::Reverse(ascending(p)));
    out
}

/// The sets of upfloaters with this profile, in the order of 3.5.3–3.5.4:
/// each set sorted by descending score then ascending pairing number, the
/// sets in the lexicographic order of those numbers.
fn sets<'a>(
    levels: &'a [(u32, Vec<usize>)],
    profile: &'a [usize],
) -> impl Iterator<Item = Vec<usize>> + 'a {
    // One combination index list per level, advanced like an odometer whose
    // last wheel (the lowest scoregroup) turns fastest.
    let mut state: Option<Vec<Vec<usize>>> =
        Some(profile.iter().map(|&k| (0..k).collect()).collect());
    std::iter::from_fn(move || {
        let cur = state.take()?;
        let set: Vec<usize> = cur
            .iter()
            .enumerate()
            .flat_map(|(l, idx)| idx.iter().map(move |&j| levels[l].1[j]))
            .collect();
        let mut next = cur;
        let mut advanced = false;
        for l in (0..next.len()).rev() {
            if next_combination(&mut next[l], levels[l].1.len()) {
                for (m, k) in next.iter_mut().enumerate().skip(l + 1) {
                    *k = (0..profile[m]).collect();
                }
                advanced = true;
                break;
            }
        }
        if advanced {
            state = Some(next);
        }
        Some(set)
    })
}

/// The next k-combination of `0..n` in lexicographic order.
fn next_combination(c: &mut [usize], n: usize) -> bool {
    let k = c.len();
    for i in (0..k).rev() {
        if c[i] < n - k + i {
            c[i] += 1;
            for j in i + 1..k {
                c[j] = c[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

/// [C6] (2.3.3): what is left of the scoregroup of score `following` can
/// still be paired with the fewest upfloaters its size allows (none when
/// even, one when odd), leaving the rest pairable; holds when the whole
/// scoregroup went up.
fn c6_holds(f: &Field, following: u32, rest: &[usize]) -> bool {
    let e = &f.entrants;
    let group: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|&i| e[i].score == following)
        .collect();
    if group.is_empty() {
        return true;
    }
    let below: Vec<usize> = rest
        .iter()
        .copied()
        .filter(|&i| e[i].score < following)
        .collect();
    let candidates: Vec<Option<usize>> = if group.len().is_multiple_of(2) {
        vec![None]
    } else {
        below.iter().copied().map(Some).collect()
    };
    candidates.into_iter().any(|up| {
        let bracket: Vec<usize> = group.iter().copied().chain(up).collect();
        let others: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|i| !bracket.contains(i))
            .collect();
        perfect(f, &bracket) && perfect(f, &others)
    })
}

/// [C8], [C9] and [C10] of the pair `x`–`y` in a bracket of score `top`,
/// as one number: [C8] weighs more than any sum of [C9], which weighs more
/// than any sum of [C10].
fn pair_cost(f: &Field, top: u32, x: usize, y: usize, unit9: i128, unit8: i128) -> i128 {
    let (a, b) = (&f.entrants[x], &f.entrants[y]);
    let mut cost = 0;
    if let (Some(ca), Some(cb)) = (a.colour, b.colour) {
        if ca == cb {
            cost += unit8;
            if f.type_b && a.strong && b.strong {
                cost += unit9;
            }
        }
    }
    if f.float_criteria {
        // [C10]: an upfloater whose opponent floated in the previous round.
        if a.score < top && b.floated {
            cost += 1;
        }
        if b.score < top && a.floated {
            cost += 1;
        }
    }
    cost
}

/// C.04.6 3.6: the bracket's pairing. `bracket` is in pairing-number order.
fn pair_bracket(f: &Field, top: u32, bracket: &[usize]) -> Option<Vec<(usize, usize)>> {
    let n = bracket.len();
    let half = n / 2;
    let big = n as i128 + 1;
    let (unit9, unit8) = (3 * big, 3 * big * big);
    // Every pairing costs less than `ceiling`, so a matching with one pair
    // fewer never outweighs a complete one.
    let ceiling = unit8 * big;
    let cost = |a: usize, b: usize| pair_cost(f, top, bracket[a], bracket[b], unit9, unit8);
    // The cheapest complete pairing with the pairs `allowed` (positions in
    // the bracket, `a < b`): its cost, or `None`.
    let cheapest = |allowed: &dyn Fn(usize, usize) -> bool| -> Option<i128> {
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if f.can_meet[bracket[a]][bracket[b]] && allowed(a, b) {
                    edges.push((a, b, ceiling - cost(a, b)));
                }
            }
        }
        let mate = max_weight_matching(n, &edges);
        if mate.iter().any(Option::is_none) {
            return None;
        }
        Some(
            (0..n)
                .filter_map(|a| mate[a].filter(|&b| b > a).map(|b| cost(a, b)))
                .sum(),
        )
    };
    let best = cheapest(&|_, _| true)?;
    // The first identifier of all: the first half against the second, in
    // order; taken at once when it is legal and as cheap as the best.
    let natural: Vec<(usize, usize)> = (0..half).map(|a| (a, a + half)).collect();
    if natural
        .iter()
        .all(|&(a, b)| f.can_meet[bracket[a]][bracket[b]])
        && natural.iter().map(|&(a, b)| cost(a, b)).sum::<i128>() == best
    {
        return Some(
            natural
                .into_iter()
                .map(|(a, b)| (bracket[a], bracket[b]))
                .collect(),
        );
    }
    // The top members, smallest first: each team in turn is a top member
    // when a best pairing still allows it (the sorted list of top members
    // is then the lexicographically first), otherwise a bottom member.
    #[derive(Clone, Copy, PartialEq)]
    enum Role {
        Open,
        Top,
        Bottom,
    }
    let mut role = vec![Role::Open; n];
    let (mut tops, mut bottoms) = (0, 0);
    for p in 0..n {
        role[p] = if tops == half {
            Role::Bottom
        } else if bottoms == half {
            Role::Top
        } else {
            role[p] = Role::Top;
            let r = role.clone();
            if cheapest(&|a, b| r[a] != Role::Bottom && r[b] != Role::Top) == Some(best) {
                Role::Top
            } else {
                Role::Bottom
            }
        };
        if role[p] == Role::Top {
            tops += 1;
        } else {
            bottoms += 1;
        }
    }
    // Then each top member, in order, takes the smallest bottom member a
    // best pairing allows.
    let mut partner: Vec<Option<usize>> = vec![None; n];
    let mut pairs = Vec::new();
    for a in (0..n).filter(|&p| role[p] == Role::Top) {
        let mut chosen = None;
        for b in (a + 1..n).filter(|&q| role[q] == Role::Bottom && partner[q].is_none()) {
            if !f.can_meet[bracket[a]][bracket[b]] {
                continue;
            }
            let (fixed, r) = (partner.clone(), role.clone());
            let ok = cheapest(&|x, y| {
                if r[x] == Role::Bottom || r[y] == Role::Top {
                    return false;
                }
                if x == a || y == a || x == b || y == b {
                    return (x, y) == (a, b);
                }
                if fixed[x].is_some() || fixed[y].is_some() {
                    return fixed[x] == Some(y);
                }
                true
            }) == Some(best);
            if ok {
                chosen = Some(b);
                break;
            }
        }
        let b = chosen?;
        partner[a] = Some(b);
        partner[b] = Some(a);
        pairs.push((bracket[a], bracket[b]));
    }
    Some(pairs)
}
