//! The FIDE Dutch system (C.04.3, the text in force since 2017 with the
//! 2025 amendments), paired with maximum-weight matchings, one score
//! bracket at a time — the method bbpPairings documents, written here from
//! the rules.
//!
//! Every criterion of C.04.3 section C becomes a field of a pair's weight,
//! from the most significant: completion and the bye (C.4, C.5), the most
//! pairs and the highest scores paired in the bracket (C.6, C.7) and in the
//! next one (C.8), the bye to the player with the fewest unplayed games
//! (C.9), the topscorer and colour criteria (C.10–C.13), repeated floats and
//! their scores (C.14–C.21); the least significant bits order candidates.
//! Each field is wide enough for its sum over a whole matching, so comparing
//! two matchings' total weights compares the criteria one after the other.
//! The weights are integers of several machine words (`matching::Wide`).
//!
//! For each bracket from the top (its residents, the players moved down into
//! it, and the next score group for C.8), a matching over every player still
//! unpaired keeps completion exact; a sequence of matchings then decides,
//! one thing at a time and always among the best matchings: which
//! moved-down players are paired here (the highest first) and with whom,
//! how many exchanges between S1 and S2, which S1 players are exchanged
//! (the lowest first) and which S2 players (the highest first), and whom
//! each S1 player meets (the highest S2 player it can) — the order of
//! transpositions and exchanges of C.04.3 D. In large events a bracket's
//! matchings look at the bracket, the next group and the 20 players below
//! it (who may instead be paired further down); if that leaves someone
//! unpaired, the round is paired again over everyone. Colours follow
//! C.04.3 E (articles E.1–E.5).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::error::TorneoError;
use crate::matching::{max_weight_matching, Wide};
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
    /// Rounds of the tournament before this one.
    pub rounds_played: u32,
    /// The score without acceleration (orders the boards).
    pub real_score: HalfPoints,
    /// The pairing number rule E.5 looks at: the place by start number among
    /// the players of the tournament, leaving out only those who have never
    /// been paired and are not paired now (late entries still to come,
    /// players absent from the start), as bbpPairings counts. A player
    /// absent this round keeps their number.
    pub number: u32,
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

    /// The colour preference (C.04.1 / A.6) and how strong it is: absolute
    /// when the colour difference is over 1 or the last two games had the
    /// same colour, strong when it is 1, mild otherwise.
    fn preference(&self) -> (Option<Colour>, Strength) {
        let cd = self.colour_difference();
        let lower = if cd > 0 { Colour::Black } else { Colour::White };
        let last = self.colours.last().copied();
        let run = self
            .colours
            .iter()
            .rev()
            .take_while(|&&c| Some(c) == last)
            .count();
        if cd.abs() > 1 {
            (Some(lower), Strength::Absolute)
        } else if run > 1 {
            (last.map(|c| c.opposite()), Strength::Absolute)
        } else if cd != 0 {
            (Some(lower), Strength::Strong)
        } else if let Some(c) = last {
            (Some(c.opposite()), Strength::Mild)
        } else {
            (None, Strength::None)
        }
    }
}

/// Builds each available player's pairing facts for round `round` (1-based).
pub fn pairing_players(t: &Tournament, round: u32) -> Vec<PairingPlayer> {
    let mut out = Vec::new();
    let mut number = 0;
    for (i, p) in t.players.iter().enumerate() {
        let id = i as u32 + 1;
        let paired_before = (1..round).any(|r| match t.entry(id, r) {
            Entry::Game { .. } => true,
            Entry::Bye(k) => k == ByeKind::PairingAllocated,
            Entry::Absent => false,
        });
        if p.available(round) || paired_before {
            number += 1;
        }
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
            rounds_played: round - 1,
            real_score: t.score_after(id, round - 1),
            number,
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
                    // Scores as that round was paired (with its acceleration).
                    let (mine, theirs) = (
                        t.score_after(id, r - 1) + t.acceleration(id, r),
                        t.score_after(opponent, r - 1) + t.acceleration(opponent, r),
                    );
                    float = (theirs > mine) as i8 - (theirs < mine) as i8;
                }
                _ => {
                    // A round without a game over the board counts as a
                    // downfloat when it gave points (a bye, a forfeit win).
                    let points = t.score_after(id, r) - t.score_after(id, r - 1);
                    float = -((points > 0) as i8);
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
                unusual: None,
            }),
            None => r.byes.push((w, ByeKind::PairingAllocated)),
        }
    }
    r.byes.extend(t.fixed_byes(round));
    Ok(r)
}

/// One player as the pairing sees them, in pairing order (score, then
/// pairing number).
#[derive(Clone, Debug)]
struct Seat {
    /// Index into the caller's players.
    p: usize,
    score: HalfPoints,
    /// May receive the pairing-allocated bye (C.04.1, C.2).
    eligible: bool,
    pref: Option<Colour>,
    /// |games with White − games with Black|.
    imbalance: u32,
    /// The colour of the last two games when they were the same.
    repeated: Option<Colour>,
    /// Float in the last round and the one before: +1 up, −1 down, 0 none.
    float1: i8,
    float2: i8,
    played: u32,
    /// Score group, 0 the highest.
    group: usize,
}

impl Seat {
    fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }
    fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
    fn strong(&self) -> bool {
        !self.absolute() && self.imbalance > 0
    }
}

/// Where each criterion sits in a pair's weight (bit offsets, least
/// significant first). Every field is wide enough for its sum over all the
/// pairs of a matching, so that comparing total weights compares the
/// criteria one after the other (lexicographically).
struct Layout {
    /// Width of a field that counts the pairs or players of a bracket.
    w: u32,
    /// Offset of each score group inside a field that counts by score group
    /// (the highest group in the most significant bits).
    group_offset: Vec<u32>,
    up2s: u32,
    down2s: u32,
    up1s: u32,
    down1s: u32,
    up2: u32,
    down2: u32,
    up1: u32,
    down1: u32,
    c13: u32,
    c12: u32,
    c11: u32,
    c10: u32,
    c9: u32,
    next_scores: u32,
    next: u32,
    cur_scores: u32,
    cur: u32,
    top: u32,
    total: u32,
}

fn bits(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

impl Layout {
    /// `present`: the score groups whose players are in the bracket being
    /// paired (only they can have anything in the fields counted by group).
    fn new(group_sizes: &[usize], present: &[bool], n: usize) -> Layout {
        // Fields that count players or pairs of one bracket need room for
        // the largest score group; completion and C.9 count over everyone.
        let w = bits(group_sizes.iter().copied().max().unwrap_or(0)) + 1;
        let wide = bits(n) + 1;
        let mut group_offset = vec![0; group_sizes.len()];
        let mut gfield = 0;
        for (g, &size) in group_sizes.iter().enumerate().rev() {
            if present[g] {
                group_offset[g] = gfield;
                gfield += bits(size);
            }
        }
        // The least significant 3w + 1 bits order the candidates inside a
        // bracket (exchanges, then which player meets whom).
        let mut at = 3 * w + 1;
        let mut take = |width: u32| {
            let p = at;
            at += width;
            p
        };
        let up2s = take(gfield);
        let down2s = take(gfield);
        let up1s = take(gfield);
        let down1s = take(gfield);
        let up2 = take(w);
        let down2 = take(w);
        let up1 = take(w);
        let down1 = take(w);
        let c13 = take(w);
        let c12 = take(w);
        let c11 = take(w);
        let c10 = take(w);
        let c9 = take(2 * wide);
        let next_scores = take(gfield);
        let next = take(w);
        let cur_scores = take(gfield);
        let cur = take(w);
        let top = take(wide + 2);
        Layout {
            w,
            group_offset,
            up2s,
            down2s,
            up1s,
            down1s,
            up2,
            down2,
            up1,
            down1,
            c13,
            c12,
            c11,
            c10,
            c9,
            next_scores,
            next,
            cur_scores,
            cur,
            top,
            total: at,
        }
    }
}

/// The pairing of one round as a sequence of maximum-weight matchings over
/// every player still to pair (so that the rest can always be completed),
/// one score bracket at a time from the top. Each matching keeps what the
/// brackets above decided and then settles, in the order of C.04.3, the
/// next decision of the current bracket: which moved-down players are paired
/// here (and with whom), how many exchanges, which players are exchanged,
/// and whom each S1 player meets.
struct Engine<'a> {
    seats: &'a [Seat],
    group_sizes: &'a [usize],
    lay: Layout,
    n: usize,
    compatible: &'a [bool],
    /// What each pair's weight says, `[a * n + b]` with `a < b`; packed
    /// into `cw` with the current bracket's layout.
    desc: Vec<Desc>,
    /// The weights the matching sees, `words` 64-bit limbs each (least
    /// significant first): as few as the current bracket's layout needs.
    cw: Vec<u64>,
    words: usize,
    /// The width, in 64-bit words, that this pass declares for the weights:
    /// a bracket whose layout does not fit in it makes the pass start
    /// again wider, and it sets how many S1 players one matching seats.
    declared: usize,
    /// Matchings computed by an earlier, narrower pass.
    memo: &'a RefCell<Memo>,
    /// The current bracket's criteria weights.
    base: Vec<Desc>,
    /// Pairs already decided.
    fixed: Vec<usize>,
    bye_score: HalfPoints,
    /// C.9 applies in this bracket: the bye goes to a player of its score.
    single_downfloater_bye: bool,
    unplayed_rank: std::collections::HashMap<u32, u64>,
    rounds_played: u32,
    /// The players the matchings look at, when not all (see `matching`).
    window: Option<Vec<usize>>,
    /// Players from here on in pairing order may be paired further down.
    window_far: usize,
    /// Use windows at all.
    windows: bool,
}

/// A pair's weight before it is packed: the criteria of `Engine::pack`
/// (computed in the bracket where it was set) plus an adjustment in the
/// lowest bits that orders candidates. `live == false`: no edge.
#[derive(Clone, Copy, Debug, Default)]
struct Desc {
    live: bool,
    cur: bool,
    next: bool,
    single: bool,
    low: i64,
}

impl Desc {
    fn plus(self, d: i64) -> Desc {
        Desc {
            low: self.low + d,
            ..self
        }
    }
}

const NO: usize = usize::MAX;

/// Bits above a weight's top field: the matching doubles the weights, and
/// its duals and slacks add two of them, with a sign.
const MARGIN: usize = 8;

/// The fewest players below the next score group that a windowed matching
/// looks at.
const WINDOW_MIN: usize = 20;

/// The bracket needs wider weights than the engine's.
struct TooNarrow;

/// The widths, in 64-bit words, that the matchings' weights can have.
const WIDTHS: [usize; 9] = [2, 3, 4, 5, 6, 8, 16, 32, 64];

/// The widths a pass can declare, narrowest first.
const DECLARED: [usize; 6] = [4, 6, 8, 16, 32, 64];

/// The narrowest width of `WIDTHS` that holds `bits` bits.
fn width_for(bits: usize) -> usize {
    WIDTHS
        .into_iter()
        .find(|&w| 64 * w >= bits)
        .unwrap_or(WIDTHS[WIDTHS.len() - 1])
}

/// Runs `$body` with the constant `$m` set to `$w`, one of `WIDTHS`.
macro_rules! with_width {
    ($w:expr, $m:ident => $body:expr) => {
        match $w {
            2 => {
                const $m: usize = 2;
                $body
            }
            3 => {
                const $m: usize = 3;
                $body
            }
            4 => {
                const $m: usize = 4;
                $body
            }
            5 => {
                const $m: usize = 5;
                $body
            }
            6 => {
                const $m: usize = 6;
                $body
            }
            8 => {
                const $m: usize = 8;
                $body
            }
            16 => {
                const $m: usize = 16;
                $body
            }
            32 => {
                const $m: usize = 32;
                $body
            }
            _ => {
                const $m: usize = 64;
                $body
            }
        }
    };
}

/// The word that extends a little-endian two's-complement number `w`
/// beyond its words: all ones when it is negative, else zero.
fn sign_word(w: &[u64]) -> u64 {
    if (w[w.len() - 1] as i64) < 0 {
        u64::MAX
    } else {
        0
    }
}

/// The matchings of a pairing's earlier passes. A matching depends only on
/// its graph and its weights (their values, not how many words hold them),
/// so when a pass starts again with wider weights, every matching it asks
/// for with the same graph and weights as before is taken from here.
#[derive(Default)]
struct Memo {
    /// By a hash of the graph; each with its graph, compared in full.
    calls: HashMap<u64, Vec<MemoCall>>,
}

struct MemoCall {
    nv: usize,
    ends: Vec<(u32, u32)>,
    /// The weights, `limbs` words each.
    limbs: usize,
    weights: Vec<u64>,
    mate: Vec<Option<usize>>,
}

impl Memo {
    /// A quick hash of the graph (a multiply-rotate mix: the calls with
    /// the same key are compared in full, so it need not be strong).
    fn key<const M: usize>(nv: usize, edges: &[(usize, usize, Wide<M>)]) -> u64 {
        let mix = |h: u64, x: u64| (h.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
        let mut h = mix(nv as u64, edges.len() as u64);
        for (a, b, w) in edges {
            h = mix(mix(h, ((*a as u64) << 32) | *b as u64), w.0[0]);
        }
        h
    }

    /// A maximum-weight matching of the graph, computed or remembered.
    fn matching<const M: usize>(
        &mut self,
        nv: usize,
        edges: &[(usize, usize, Wide<M>)],
    ) -> Vec<Option<usize>> {
        let key = Self::key(nv, edges);
        // Word `k` of a weight; beyond its words, a weight is its sign,
        // repeated.
        let limb = |w: &[u64], k: usize| -> u64 { w.get(k).copied().unwrap_or(sign_word(w)) };
        if let Some(list) = self.calls.get(&key) {
            for c in list {
                let same = c.nv == nv
                    && c.ends.len() == edges.len()
                    && edges.iter().enumerate().all(|(e, (a, b, w))| {
                        c.ends[e] == (*a as u32, *b as u32)
                            && (0..c.limbs.max(M)).all(|k| {
                                limb(&c.weights[e * c.limbs..(e + 1) * c.limbs], k) == limb(&w.0, k)
                            })
                    });
                if same {
                    return c.mate.clone();
                }
            }
        }
        let mate = max_weight_matching(nv, edges);
        self.calls.entry(key).or_default().push(MemoCall {
            nv,
            ends: edges
                .iter()
                .map(|&(a, b, _)| (a as u32, b as u32))
                .collect(),
            limbs: M,
            weights: edges.iter().flat_map(|e| e.2 .0).collect(),
            mate: mate.clone(),
        });
        mate
    }
}

impl<'a> Engine<'a> {
    fn idx(&self, a: usize, b: usize) -> usize {
        if a < b {
            a * self.n + b
        } else {
            b * self.n + a
        }
    }
    fn set(&mut self, a: usize, b: usize, d: Desc) {
        let k = self.idx(a, b);
        self.desc[k] = d;
        self.store(k, a.min(b), a.max(b), d);
    }

    /// Packs the pair `hi < lo` into `cw[k]`, in the current width.
    fn store(&mut self, k: usize, hi: usize, lo: usize, d: Desc) {
        let words = self.words;
        with_width!(words, M => {
            let w = self.pack::<M>(hi, lo, d);
            self.cw[k * M..(k + 1) * M].copy_from_slice(&w.0);
        })
    }

    /// The weight of pair `k` in `M >= words` words.
    fn weight<const M: usize>(&self, k: usize) -> Wide<M> {
        let src = &self.cw[k * self.words..(k + 1) * self.words];
        let mut out = [sign_word(src); M];
        out[..self.words].copy_from_slice(src);
        Wide(out)
    }
    fn base(&self, a: usize, b: usize) -> Desc {
        self.base[self.idx(a, b)]
    }
    fn set_base(&mut self, a: usize, b: usize, d: Desc) {
        let k = self.idx(a, b);
        self.base[k] = d;
    }

    fn bye_candidate(&self, v: usize) -> bool {
        self.seats[v].eligible && self.seats[v].score <= self.bye_score
    }

    /// The criteria of the pair `hi`–`lo` (`hi` ranked higher); `cur`: `lo`
    /// belongs to the bracket being paired, `next`: to the score group below.
    fn edge(&self, hi: usize, lo: usize, cur: bool, next: bool) -> Desc {
        Desc {
            live: self.compatible[self.idx(hi, lo)],
            cur,
            next,
            single: self.single_downfloater_bye,
            low: 0,
        }
    }

    /// The weight of a pair, its criteria from the most significant bits.
    fn pack<const M: usize>(&self, hi: usize, lo: usize, d: Desc) -> Wide<M> {
        let mut w = Wide::<M>::ZERO;
        if !d.live {
            return w;
        }
        let lay = &self.lay;
        let (h, l) = (&self.seats[hi], &self.seats[lo]);
        // Completion first (C.4), then a bye candidate left over (C.5).
        w.add_shifted(
            1 + !self.bye_candidate(hi) as u64 + !self.bye_candidate(lo) as u64,
            lay.top,
        );
        // C.6/C.7: most pairs in the bracket, then the highest scores paired.
        if d.cur {
            w.add_shifted(1, lay.cur);
            w.add_shifted(1, lay.cur_scores + lay.group_offset[h.group]);
        }
        // C.8: the same for the next bracket.
        if d.next {
            w.add_shifted(1, lay.next);
            w.add_shifted(1, lay.next_scores + lay.group_offset[h.group]);
        }
        // C.9: the bye to the player with the fewest unplayed games.
        if d.single {
            for s in [h, l] {
                if s.score == self.bye_score {
                    w.add_shifted(self.unplayed_rank[&s.played], lay.c9);
                }
            }
        }
        if d.cur {
            self.add_bracket_criteria(&mut w, h, l);
        }
        if d.low >= 0 {
            w += Wide::from_u64(d.low as u64);
        } else {
            w -= Wide::from_u64(d.low.unsigned_abs());
        }
        w
    }

    /// C.10–C.21 for a pair inside the bracket.
    fn add_bracket_criteria<const M: usize>(&self, w: &mut Wide<M>, h: &Seat, l: &Seat) {
        let lay = &self.lay;
        // Colours (player = the lower one, opponent = the higher).
        let (p, o) = (l, h);
        let same = p.pref == o.pref;
        w.add_shifted(
            (!p.absolute_imbalance() || !o.absolute_imbalance() || !same) as u64,
            lay.c10,
        );
        let c11 = !p.absolute()
            || !o.absolute()
            || !same
            || if p.imbalance == o.imbalance {
                p.repeated.is_none() || p.repeated != o.repeated
            } else {
                let x = if p.imbalance > o.imbalance { o } else { p };
                x.repeated != p.pref.map(|c| c.opposite())
            };
        w.add_shifted(c11 as u64, lay.c11);
        let c12 = !same || p.pref.is_none() || o.pref.is_none();
        w.add_shifted(c12 as u64, lay.c12);
        let c13 = (!p.strong() && !p.absolute())
            || (!o.strong() && !o.absolute())
            || (p.absolute() && o.absolute())
            || !same;
        w.add_shifted(c13 as u64, lay.c13);
        // Floats.
        let hi_down = h.score > l.score;
        for (back, f_l, f_h, down, up, downs, ups) in [
            (
                1, l.float1, h.float1, lay.down1, lay.up1, lay.down1s, lay.up1s,
            ),
            (
                2, l.float2, h.float2, lay.down2, lay.up2, lay.down2s, lay.up2s,
            ),
        ] {
            if self.rounds_played < back {
                continue;
            }
            w.add_shifted((f_l < 0) as u64 + (!hi_down && f_h < 0) as u64, down);
            w.add_shifted(!(hi_down && f_l > 0) as u64, up);
            w.add_shifted((f_l < 0) as u64, downs + lay.group_offset[l.group]);
            w.add_shifted((f_h < 0) as u64, downs + lay.group_offset[h.group]);
            if !(f_l > 0 && hi_down) {
                w.add_shifted(1, ups + lay.group_offset[h.group]);
            }
        }
    }

    /// Lays the weights out for a bracket made of `players`.
    fn relayout(&mut self, players: &[usize]) -> Result<(), TooNarrow> {
        let mut present = vec![false; self.group_sizes.len()];
        for &v in players {
            present[self.seats[v].group] = true;
        }
        self.lay = Layout::new(self.group_sizes, &present, self.n);
        if self.lay.total as usize + MARGIN > 64 * self.declared {
            return Err(TooNarrow);
        }
        // Every pair the bracket's matchings can look at (the players
        // still to pair, in the window if there is one) is packed again, in
        // the narrowest width that holds this layout.
        self.words = width_for(self.lay.total as usize + MARGIN);
        let len = self.n * self.n * self.words;
        if self.cw.len() < len {
            self.cw.resize(len, 0);
        }
        let mut seen = self.free_players();
        seen.sort_unstable();
        for (i, &a) in seen.iter().enumerate() {
            for &b in &seen[i + 1..] {
                let k = a * self.n + b;
                self.store(k, a, b, self.desc[k]);
            }
        }
        Ok(())
    }

    /// A maximum-weight matching over the players not yet paired (or, in a
    /// large tournament, over the bracket, the next score group and the
    /// nearest players below them); `mate[v]` is `v` for a player left
    /// unpaired.
    fn matching(&self) -> Vec<usize> {
        self.matching_ext(0, |_, _| None)
    }

    /// `matching` with every weight shifted left by `extra` bits and
    /// `low(a, b) = Some((value, shift))` added for the pair `a < b`.
    fn matching_ext(
        &self,
        extra: u32,
        low: impl Fn(usize, usize) -> Option<(u64, u32)>,
    ) -> Vec<usize> {
        let width = width_for(self.lay.total as usize + extra as usize + MARGIN).max(self.words);
        with_width!(width, M => self.matching_at::<M>(extra, &low))
    }

    /// The players the current bracket's matchings look at: those still
    /// to pair, in the window if there is one (in its order).
    fn free_players(&self) -> Vec<usize> {
        let unpaired = |&v: &usize| self.fixed[v] == NO;
        match &self.window {
            Some(w) => w.iter().copied().filter(unpaired).collect(),
            None => (0..self.n).filter(unpaired).collect(),
        }
    }

    /// `matching_ext` with weights of `M` words.
    fn matching_at<const M: usize>(
        &self,
        extra: u32,
        low: &impl Fn(usize, usize) -> Option<(u64, u32)>,
    ) -> Vec<usize> {
        let free = self.free_players();
        let mut edges = Vec::new();
        for (i, &a) in free.iter().enumerate() {
            for (j, &b) in free.iter().enumerate().skip(i + 1) {
                let mut w = self.weight::<M>(self.idx(a, b));
                if w > Wide::ZERO {
                    if self.window.is_some() {
                        // Completion counted per player (doubled), so that a
                        // player below may instead be paired further down.
                        w.add_shifted(
                            1 + !self.bye_candidate(a) as u64 + !self.bye_candidate(b) as u64,
                            self.lay.top,
                        );
                    }
                    let mut w = w.shifted_left(extra);
                    if let Some((value, shift)) = low(a, b) {
                        w.add_shifted(value, shift);
                    }
                    edges.push((i, j, w));
                }
            }
        }
        let mut nv = free.len();
        if self.window.is_some() {
            for (i, &a) in free.iter().enumerate() {
                if a >= self.window_far {
                    let mut w = Wide::<M>::ZERO;
                    w.add_shifted(1 + 2 * !self.bye_candidate(a) as u64, self.lay.top + extra);
                    edges.push((i, nv, w));
                    nv += 1;
                }
            }
        }
        let m = self.memo.borrow_mut().matching(nv, &edges);
        let mut mate: Vec<usize> = (0..self.n)
            .map(|v| {
                if self.fixed[v] != NO {
                    self.fixed[v]
                } else {
                    v
                }
            })
            .collect();
        for (i, &a) in free.iter().enumerate() {
            if let Some(j) = m[i] {
                if j < free.len() {
                    mate[a] = free[j];
                }
            }
        }
        mate
    }

    fn finalize(&mut self, a: usize, b: usize) {
        self.fixed[a] = b;
        self.fixed[b] = a;
    }

    /// Fixes S1 player `v` against `m`, its partner in the matching, if `m`
    /// is one of the remainder's players; false if the matching left `v`
    /// unpaired or paired it outside the remainder.
    fn seat_with_remainder(
        &mut self,
        v: usize,
        m: usize,
        rem: &[usize],
        matched: &mut [bool],
    ) -> bool {
        if m == v || !rem.contains(&m) {
            return false;
        }
        matched[v] = true;
        matched[m] = true;
        self.finalize(v, m);
        true
    }

    // Positions in the remainder are the players' ranks there (S1 is its
    // first `pairs` players), so the loops go by position.
    #[allow(clippy::needless_range_loop)]
    fn run(mut self, init: &Init) -> Result<Option<Vec<usize>>, TooNarrow> {
        let n = self.n;
        let odd = n % 2 == 1;
        let top_score = self.seats[0].score;
        self.bye_score = init.bye_score;
        self.single_downfloater_bye = init.single;
        self.unplayed_rank = init.unplayed_rank.clone();
        for b in 0..n {
            for a in 0..b {
                let d = self.edge(a, b, false, false);
                let k = self.idx(a, b);
                self.desc[k] = d;
            }
        }

        // Players of the bracket being paired: moved-down players first,
        // then the residents, then the next score group.
        let mut bracket: Vec<usize> = (0..n)
            .take_while(|&v| self.seats[v].score >= top_score)
            .collect();
        let mut next_group = bracket.len();
        let mut movers = 0; // moved-down players at the front of `bracket`
        let mut first_resident = 0; // first resident's index in pairing order
        let mut matched = vec![false; n];
        let mut sm: Vec<usize>;
        while bracket.len() > 1 || next_group < n {
            let residents_end = bracket.len(); // index in `bracket`
            let next_first = first_resident + (residents_end - movers); // in pairing order
            let group_start = next_group;
            while next_group < n && self.seats[next_group].score >= self.seats[group_start].score {
                bracket.push(next_group);
                next_group += 1;
            }
            let in_bracket = |v: usize| v >= first_resident && v < next_first;
            for li in movers..bracket.len() {
                for si in 0..li {
                    let d = self.edge(
                        bracket[si],
                        bracket[li],
                        li < residents_end,
                        li >= residents_end,
                    );
                    self.set_base(bracket[si], bracket[li], d);
                    let k = self.idx(bracket[si], bracket[li]);
                    self.desc[k] = d;
                }
            }
            // In a large tournament the matchings look at the bracket, the
            // next group and as many players again below them.
            let below = n - next_group;
            let near = WINDOW_MIN;
            self.window = if self.windows && below > near {
                self.window_far = next_group;
                let mut w = bracket.clone();
                w.extend(next_group..next_group + near);
                Some(w)
            } else {
                None
            };
            self.relayout(&bracket)?;
            let residents = (residents_end - movers) as i64;
            let progress_before = self.fixed.iter().filter(|&&f| f != NO).count();
            sm = self.matching();

            // Which moved-down players are paired in this bracket: as many
            // of each score as can be, the highest-ranked first.
            let mut group_score = 0;
            let mut remaining = 0;
            let mut remaining_matched = 0;
            for pi in 0..movers {
                let v = bracket[pi];
                if pi == 0 || self.seats[v].score < group_score {
                    group_score = self.seats[v].score;
                    remaining = 0;
                    remaining_matched = 0;
                    for &u in bracket[pi..movers]
                        .iter()
                        .take_while(|&&u| self.seats[u].score >= group_score)
                    {
                        remaining += 1;
                        if in_bracket(sm[u]) {
                            remaining_matched += 1;
                        }
                    }
                }
                if remaining_matched == 0 {
                    continue;
                }
                if remaining <= remaining_matched {
                    matched[v] = true;
                    continue;
                }
                remaining -= 1;
                if !in_bracket(sm[v]) {
                    for oi in movers..residents_end {
                        let o = bracket[oi];
                        let b = self.base(v, o);
                        if b.live {
                            self.set(v, o, b.plus(1));
                        }
                    }
                    sm = self.matching();
                }
                if in_bracket(sm[v]) {
                    matched[v] = true;
                    remaining_matched -= 1;
                    for oi in movers..residents_end {
                        let o = bracket[oi];
                        let b = self.base(v, o);
                        if b.live {
                            self.set(v, o, b.plus(residents + 1));
                        }
                    }
                }
            }
            // Their opponents, the highest-ranked resident first.
            for pi in 0..movers {
                let v = bracket[pi];
                if !matched[v] {
                    continue;
                }
                // When the matching already gives it the best resident it
                // can have, that matching stays a best one.
                let best = bracket[movers..residents_end]
                    .iter()
                    .copied()
                    .find(|&o| !matched[o] && self.base(v, o).live);
                if best != Some(sm[v]) {
                    let mut addend = bracket.len() as i64;
                    for oi in (movers..residents_end).rev() {
                        let o = bracket[oi];
                        if matched[o] {
                            continue;
                        }
                        let b = self.base(v, o);
                        if b.live {
                            self.set(v, o, b.plus(addend));
                            addend += 1;
                        }
                    }
                    sm = self.matching();
                }
                let m = sm[v];
                if m == v {
                    return Ok(None);
                }
                matched[m] = true;
                self.finalize(v, m);
            }

            // The remainder: residents not paired with a moved-down player.
            let rem: Vec<usize> = bracket[movers..residents_end]
                .iter()
                .copied()
                .filter(|&v| sm[v] >= first_resident)
                .collect();
            let pairs = rem.iter().filter(|&&v| sm[v] < v).count();
            let exch_shift = 2 * self.lay.w + 1;
            // Fewest exchanges, then the smallest difference of the
            // exchanged numbers (S1's remaining players count by rank).
            let exch = |eng: &Self, i: usize, j: usize| -> Desc {
                let b = eng.base(rem[i], rem[j]);
                if !b.live {
                    return b;
                }
                b.plus((((i < pairs) as i64) << exch_shift) - 2 * i as i64)
            };
            for i in 0..rem.len() {
                for j in i + 1..rem.len() {
                    let d = exch(&self, i, j);
                    self.set(rem[i], rem[j], d);
                }
            }
            let top = |sm: &[usize], v: usize| sm[v] > v && sm[v] < next_first;
            // A matching that already pairs every S1 player with a later
            // player is still a best one with these weights (no exchange,
            // and the exchange terms are then the same for all such).
            if (0..pairs).any(|i| !top(&sm, rem[i])) {
                sm = self.matching();
            }
            let exchanges = (0..pairs).filter(|&i| !top(&sm, rem[i])).count();
            // S1 players to exchange: the lowest first.
            let mut left = exchanges;
            let mut i = pairs;
            while i > 0 && left > 0 {
                i -= 1;
                let v = rem[i];
                if top(&sm, v) {
                    for j in i + 1..rem.len() {
                        let d = exch(&self, i, j);
                        if d.live {
                            self.set(v, rem[j], d.plus(-1));
                        }
                    }
                    sm = self.matching();
                }
                let exchange = !top(&sm, v);
                if exchange {
                    left -= 1;
                }
                for j in i + 1..rem.len() {
                    if exchange {
                        self.set_base(v, rem[j], Desc::default());
                    }
                    let d = exch(&self, i, j);
                    self.set(v, rem[j], d);
                }
            }
            // S2 players to exchange: the highest first.
            let mut left = exchanges;
            for j in pairs..rem.len() {
                if left <= 1 {
                    break;
                }
                let v = rem[j];
                let already = top(&sm, v);
                if !already {
                    for k in j + 1..rem.len() {
                        let d = exch(&self, j, k);
                        if d.live {
                            self.set(v, rem[k], d.plus(1));
                        }
                    }
                    sm = self.matching();
                }
                if top(&sm, v) {
                    left -= 1;
                    for k in 0..j {
                        self.set_base(v, rem[k], Desc::default());
                        self.set(v, rem[k], Desc::default());
                    }
                    for oi in residents_end..bracket.len() {
                        let o = bracket[oi];
                        self.set_base(v, o, Desc::default());
                        self.set(v, o, Desc::default());
                    }
                }
                if !already {
                    for k in j + 1..rem.len() {
                        let d = exch(&self, j, k);
                        self.set(v, rem[k], d);
                    }
                }
            }
            // Fix who is in S1 and who in S2.
            for i in 0..rem.len() {
                for j in i + 1..rem.len() {
                    let (v, o) = (rem[i], rem[j]);
                    if !top(&sm, v) || top(&sm, o) {
                        self.set_base(v, o, Desc::default());
                    }
                    let b = self.base(v, o);
                    self.set(v, o, b);
                }
            }
            // Each S1 player, in order, meets the highest S2 player it can.
            // When the matching does not already do so, one more matching
            // decides it for all of them: below every criterion, one field
            // per S1 player (the first the most significant) holds how high
            // its opponent stands.
            let tops: Vec<usize> = rem.iter().copied().filter(|&v| top(&sm, v)).collect();
            let mut taken = vec![false; n];
            let greedy = tops.iter().all(|&v| {
                let best = rem
                    .iter()
                    .copied()
                    .find(|&o| o > v && !taken[o] && self.base(v, o).live);
                if let Some(b) = best {
                    taken[b] = true;
                }
                best == Some(sm[v])
            });
            if !greedy {
                // As many S1 players at a time as the weights have room for.
                let fw = bits(rem.len());
                let room =
                    (64 * self.declared).saturating_sub(self.lay.total as usize + MARGIN) as u32;
                let chunk = ((room / fw) as usize).max(1);
                let mut height = vec![None; n];
                for (j, &o) in rem.iter().enumerate() {
                    height[o] = Some((rem.len() - 1 - j) as u64);
                }
                for part in tops.chunks(chunk) {
                    let extra = fw * part.len() as u32;
                    if self.lay.total as usize + extra as usize + MARGIN > 64 * self.declared {
                        return Err(TooNarrow);
                    }
                    let mut field = vec![None; n];
                    for (k, &t) in part.iter().enumerate() {
                        field[t] = Some((part.len() - 1 - k) as u32 * fw);
                    }
                    sm = self.matching_ext(extra, |a, b| Some((height[b]?, field[a]?)));
                    for &v in part {
                        if !self.seat_with_remainder(v, sm[v], &rem, &mut matched) {
                            return Ok(None);
                        }
                    }
                }
            }
            for &v in &tops {
                if !matched[v] && !self.seat_with_remainder(v, sm[v], &rem, &mut matched) {
                    return Ok(None);
                }
            }

            // The players left over move down into the next bracket.
            let mut next_bracket = Vec::new();
            let mut next_movers = 0;
            let group_score = if group_start < n {
                self.seats[group_start].score
            } else {
                0
            };
            self.single_downfloater_bye = odd && group_start < n && self.bye_score >= group_score;
            for (pi, &v) in bracket.iter().enumerate() {
                if pi < residents_end && matched[v] {
                    continue;
                }
                next_bracket.push(v);
                if pi < residents_end {
                    next_movers += 1;
                }
                if self.single_downfloater_bye && self.seats[sm[v]].score < group_score {
                    self.single_downfloater_bye = false;
                }
            }
            let progress = self.fixed.iter().filter(|&&f| f != NO).count() > progress_before;
            if group_start == n && !progress {
                // Nothing left to decide by brackets: take the matching as it is.
                for &v in &next_bracket {
                    let m = sm[v];
                    if m != v && self.fixed[v] == NO {
                        self.finalize(v, m);
                    }
                }
                next_bracket.retain(|&v| self.fixed[v] == NO);
            }
            bracket = next_bracket;
            movers = next_movers;
            first_resident = next_first;
        }
        let mate: Vec<usize> = (0..n)
            .map(|v| {
                if self.fixed[v] != NO {
                    self.fixed[v]
                } else {
                    v
                }
            })
            .collect();
        if mate.iter().enumerate().filter(|&(v, &m)| m == v).count() > 1 {
            return Ok(None);
        }
        Ok(Some(mate))
    }
}

/// What the first matching over all players tells (C.4, C.5, C.9).
struct Init {
    bye_score: HalfPoints,
    single: bool,
    unplayed_rank: std::collections::HashMap<u32, u64>,
}

/// Whether everyone can be paired (all but one eligible player when the
/// number is odd), and the lowest score the bye can go to.
fn first_matching(seats: &[Seat], compatible: &[bool], groups: usize) -> Option<Init> {
    let n = seats.len();
    if n.is_multiple_of(2) {
        // Whether everyone can be paired at all (C.1, C.3, the forbidden
        // pairs): without a perfect matching of the compatible pairs there
        // is no pairing, and the brackets would only find that out after
        // trying every way down the score groups (a team Swiss without a
        // possible pairing took over a minute; issue 58).
        if !perfect_with(n, compatible, &[]) {
            return None;
        }
        return Some(Init {
            bye_score: 0,
            single: false,
            unplayed_rank: Default::default(),
        });
    }
    let top_score = seats[0].score;
    // The weighted matching below leaves unpaired one eligible player of the
    // lowest score group that allows it (its first field counts the pairs
    // and the ineligible players paired, its second the groups of the
    // players paired). Which group that is needs only matchings of unit
    // weights, far quicker: an extra vertex joined to the group's eligible
    // players makes the field even, and a perfect matching of it leaves one
    // of them out. The top group also decides C.9's single downfloater
    // (which the weighted matching's pairs tell), so it is left to it.
    let mut first_of_group = vec![n; groups + 1];
    for (v, s) in seats.iter().enumerate().rev() {
        first_of_group[s.group] = v;
    }
    first_of_group[groups] = n;
    for g in (1..groups).rev().take(FAST_BYE_GROUPS) {
        let eligible: Vec<usize> = (first_of_group[g]..first_of_group[g + 1])
            .filter(|&v| seats[v].eligible)
            .collect();
        if eligible.is_empty() {
            continue;
        }
        if perfect_with(n, compatible, &eligible) {
            return Some(bye_in(seats, seats[first_of_group[g]].score, false));
        }
    }
    let mut edges: Vec<(usize, usize, i128)> = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if compatible[a * n + b] {
                let (sa, sb) = (&seats[a], &seats[b]);
                let pair = 1 + !sa.eligible as i128 + !sb.eligible as i128;
                let rank = ((groups - sa.group) + (groups - sb.group)) as i128;
                let top_pair = (sb.score >= top_score) as i128;
                edges.push((a, b, (pair << 80) | (rank << 40) | top_pair));
            }
        }
    }
    let m = max_weight_matching(n, &edges);
    let unpaired: Vec<usize> = (0..n).filter(|&v| m[v].is_none()).collect();
    if unpaired.len() > 1 || unpaired.iter().any(|&v| !seats[v].eligible) {
        return None;
    }
    let Some(&bye) = unpaired.first() else {
        return Some(Init {
            bye_score: 0,
            single: false,
            unplayed_rank: Default::default(),
        });
    };
    let bye_score = seats[bye].score;
    let single = bye_score >= top_score
        && (0..n)
            .take_while(|&v| seats[v].score >= top_score)
            .all(|v| m[v].is_none_or(|u| seats[u].score >= top_score));
    Some(bye_in(seats, bye_score, single))
}

/// How many score groups, from the lowest, `first_matching` tries with
/// unit-weight matchings before it asks the weighted one.
const FAST_BYE_GROUPS: usize = 3;

/// `Init` for a bye to a player scoring `bye_score`.
fn bye_in(seats: &[Seat], bye_score: HalfPoints, single: bool) -> Init {
    let mut init = Init {
        bye_score,
        single,
        unplayed_rank: Default::default(),
    };
    let mut played: Vec<u32> = seats
        .iter()
        .filter(|s| s.score == bye_score)
        .map(|s| s.played)
        .collect();
    played.sort_unstable_by(|a, b| b.cmp(a));
    for (rank, p) in played.into_iter().enumerate() {
        init.unplayed_rank.insert(p, rank as u64);
    }
    init
}

/// Whether the `n` players' compatible pairs, plus one extra vertex joined
/// to each of `extra` when it is not empty, have a perfect matching.
fn perfect_with(n: usize, compatible: &[bool], extra: &[usize]) -> bool {
    let mut edges: Vec<(usize, usize, i128)> = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if compatible[a * n + b] {
                edges.push((a, b, 1));
            }
        }
    }
    edges.extend(extra.iter().map(|&v| (v, n, 1)));
    let nv = n + !extra.is_empty() as usize;
    max_weight_matching(nv, &edges).iter().all(Option::is_some)
}

/// Pairs the players; returns `(white, Some(black))` in board order and
/// `(player, None)` for the pairing-allocated bye; `None` if no legal
/// pairing exists.
pub fn pair(
    players: &[PairingPlayer],
    last_round: bool,
    _total_rounds: u32,
    first_white: bool,
) -> Option<Vec<(PlayerId, Option<PlayerId>)>> {
    let n = players.len();
    if n == 0 {
        return Some(Vec::new());
    }
    // Pairing order: score, then pairing number.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .score
            .cmp(&players[a].score)
            .then(players[a].id.cmp(&players[b].id))
    });
    let rounds_played = players.iter().map(|p| p.rounds_played).max().unwrap_or(0);
    let mut group_sizes: Vec<usize> = Vec::new();
    let mut seats: Vec<Seat> = Vec::with_capacity(n);
    for (k, &i) in order.iter().enumerate() {
        let p = &players[i];
        if k == 0 || players[order[k - 1]].score != p.score {
            group_sizes.push(0);
        }
        *group_sizes.last_mut().expect("a group") += 1;
        let whites = p.colours.iter().filter(|&&c| c == Colour::White).count() as u32;
        let blacks = p.colours.len() as u32 - whites;
        let last = p.colours.last().copied();
        let run = p
            .colours
            .iter()
            .rev()
            .take_while(|&&c| Some(c) == last)
            .count();
        seats.push(Seat {
            p: i,
            score: p.score,
            eligible: p.bye_eligible,
            pref: p.preference().0,
            imbalance: whites.abs_diff(blacks),
            repeated: if run > 1 { last } else { None },
            float1: p.float_last,
            float2: p.float_before,
            played: p.colours.len() as u32,
            group: group_sizes.len() - 1,
        });
    }
    // Topscorers (more than half the points played) may meet with the same
    // absolute colour preference in the last round (C.04.3 C.3).
    let threshold = rounds_played;
    let mut compatible = vec![false; n * n];
    for a in 0..n {
        for b in a + 1..n {
            let (sa, sb) = (&seats[a], &seats[b]);
            let met = players[sa.p].opponents.contains(&players[sb.p].id)
                || players[sb.p].opponents.contains(&players[sa.p].id);
            let colours_ok = !sa.absolute()
                || !sb.absolute()
                || sa.pref != sb.pref
                || (last_round && (sa.score > threshold || sb.score > threshold));
            compatible[a * n + b] = !met && colours_ok;
        }
    }
    let init = first_matching(&seats, &compatible, group_sizes.len())?;
    let run = |windows: bool| {
        let ctx = (
            &seats[..],
            &group_sizes[..],
            &compatible[..],
            rounds_played,
            &init,
            windows,
        );
        // The narrowest declared width first; a pass that finds it too
        // narrow starts again wider, with the matchings it already made.
        let memo = RefCell::new(Memo::default());
        DECLARED
            .into_iter()
            .find_map(|declared| run_engine(ctx, declared, &memo).ok())
            .flatten()
    };
    // With windows first (fast); if that leaves someone unpaired, over
    // everyone.
    let mates = run(true).or_else(|| run(false))?;

    // Colours and board order.
    let prefs: Vec<(Option<Colour>, Strength)> = players.iter().map(|p| p.preference()).collect();
    let mut rank = vec![0usize; n];
    for (k, s) in seats.iter().enumerate() {
        rank[s.p] = k;
    }
    // E.5 looks at each player's pairing number in the tournament.
    let number: Vec<usize> = players.iter().map(|p| p.number as usize).collect();
    let mut games: Vec<(usize, usize)> = Vec::new();
    let mut bye = None;
    for (v, &m) in mates.iter().enumerate() {
        if m == v {
            bye = Some(seats[v].p);
        } else if v < m {
            let (a, b) = (seats[v].p, seats[m].p);
            games.push(allocate_colours(
                players,
                &prefs,
                (a, b),
                rank[a] < rank[b],
                &number,
                first_white,
            ));
        }
    }
    // Boards: by the scores without acceleration, the higher player's
    // first, then the other's, then the higher player's pairing number.
    games.sort_by_key(|&(a, b)| {
        let (pa, pb) = (&players[a], &players[b]);
        let a_higher =
            (pa.real_score, std::cmp::Reverse(pa.id)) > (pb.real_score, std::cmp::Reverse(pb.id));
        let (hi, lo) = if a_higher { (pa, pb) } else { (pb, pa) };
        (
            std::cmp::Reverse(hi.real_score),
            std::cmp::Reverse(lo.real_score),
            hi.id,
        )
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

type EngineInput<'a> = (&'a [Seat], &'a [usize], &'a [bool], u32, &'a Init, bool);

fn run_engine(
    (seats, group_sizes, compatible, rounds_played, init, windows): EngineInput,
    declared: usize,
    memo: &RefCell<Memo>,
) -> Result<Option<Vec<usize>>, TooNarrow> {
    let n = seats.len();
    Engine {
        seats,
        group_sizes,
        lay: Layout::new(group_sizes, &vec![true; group_sizes.len()], n),
        n,
        compatible,
        desc: vec![Desc::default(); n * n],
        cw: Vec::new(),
        words: 1,
        declared,
        memo,
        base: vec![Desc::default(); n * n],
        fixed: vec![NO; n],
        bye_score: 0,
        single_downfloater_bye: false,
        unplayed_rank: Default::default(),
        rounds_played,
        window: None,
        window_far: n,
        windows,
    }
    .run(init)
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    fn memo_calls(memo: &Memo) -> usize {
        memo.calls.values().map(Vec::len).sum()
    }

    #[test]
    fn memo_reuses_a_matching_only_for_the_same_weights() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..200 {
            let n = rng.random_range(2..16);
            let mut narrow: Vec<(usize, usize, Wide<3>)> = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rng.random_bool(0.6) {
                        let mut w = Wide::<3>::ZERO;
                        w.add_shifted(rng.random_range(1..6), rng.random_range(0..150));
                        narrow.push((a, b, w));
                    }
                }
            }
            let widen = |e: &[(usize, usize, Wide<3>)]| -> Vec<(usize, usize, Wide<5>)> {
                e.iter()
                    .map(|&(a, b, w)| (a, b, Wide([w.0[0], w.0[1], w.0[2], 0, 0])))
                    .collect()
            };
            let mut memo = Memo::default();
            let first = memo.matching(n, &narrow);
            assert_eq!(first, max_weight_matching(n, &narrow));
            // The same values in wider words: taken from the memo.
            assert_eq!(memo.matching(n, &widen(&narrow)), first);
            assert_eq!(memo_calls(&memo), 1);
            if narrow.is_empty() {
                continue;
            }
            // One weight changed (in a word the hash does not read): computed.
            let k = rng.random_range(0..narrow.len());
            narrow[k].2 .0[2] += 1;
            let wide = widen(&narrow);
            assert_eq!(memo.matching(n, &wide), max_weight_matching(n, &wide));
            assert_eq!(memo_calls(&memo), 2);
        }
    }
}
