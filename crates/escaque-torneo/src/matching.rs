//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm,
//! the O(n³) primal-dual version as described by Galil, "Efficient
//! algorithms for finding maximum matching in graphs", 1986). Weights are
//! integers; the Dutch pairing encodes its criteria, in order of priority,
//! in the bits of one weight.

const NONE: usize = usize::MAX;

/// What the matching needs from a weight: a signed integer (two's
/// complement) that can be added, subtracted, compared, doubled and halved.
pub trait Weight:
    Copy
    + Ord
    + std::fmt::Debug
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::AddAssign
    + std::ops::SubAssign
{
    const ZERO: Self;
    fn double(self) -> Self;
    /// Division by two, rounding towards minus infinity.
    fn half(self) -> Self;
    /// `a + b - c` (an edge's slack).
    fn add_sub(a: Self, b: Self, c: Self) -> Self {
        a + b - c
    }
    /// `self > 0`.
    fn is_positive(self) -> bool {
        self > Self::ZERO
    }
}

impl Weight for i128 {
    const ZERO: Self = 0;
    fn double(self) -> Self {
        2 * self
    }
    fn half(self) -> Self {
        self >> 1
    }
}

/// A signed integer of `64 * N` bits (two's complement, least significant
/// limb first): the Dutch system's weights hold one field per criterion and
/// need several hundred bits for a large tournament.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Wide<N> {
    pub const ZERO: Self = Wide([0; N]);

    /// Adds `value << shift` (the shift must leave room for the value).
    pub fn add_shifted(&mut self, value: u64, shift: u32) {
        if value == 0 {
            return;
        }
        let limb = (shift / 64) as usize;
        let bit = shift % 64;
        let lo = value << bit;
        let hi = if bit == 0 { 0 } else { value >> (64 - bit) };
        let mut addend = [0u64; N];
        addend[limb] = lo;
        if limb + 1 < N {
            addend[limb + 1] = hi;
        }
        *self += Wide(addend);
    }

    pub fn from_u64(v: u64) -> Self {
        let mut w = Self::ZERO;
        w.0[0] = v;
        w
    }

    /// Shift left by `k` bits (bits beyond the top are lost).
    pub fn shifted_left(self, k: u32) -> Self {
        if k == 0 {
            return self;
        }
        let (limbs, bits) = ((k / 64) as usize, k % 64);
        let mut out = [0u64; N];
        for i in (limbs..N).rev() {
            let src = i - limbs;
            let mut v = self.0[src] << bits;
            if bits > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bits);
            }
            out[i] = v;
        }
        Wide(out)
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }
}

/// `a + b + carry` and the carry out.
fn add_carry(a: u64, b: u64, carry: bool) -> (u64, bool) {
    let (s, c1) = a.overflowing_add(b);
    let (s, c2) = s.overflowing_add(carry as u64);
    (s, c1 | c2)
}

/// `a - b - borrow` and the borrow out.
fn sub_borrow(a: u64, b: u64, borrow: bool) -> (u64, bool) {
    let (d, b1) = a.overflowing_sub(b);
    let (d, b2) = d.overflowing_sub(borrow as u64);
    (d, b1 | b2)
}

impl<const N: usize> std::ops::Add for Wide<N> {
    type Output = Self;
    fn add(mut self, rhs: Self) -> Self {
        self += rhs;
        self
    }
}

impl<const N: usize> std::ops::AddAssign for Wide<N> {
    fn add_assign(&mut self, rhs: Self) {
        let mut carry = false;
        for (a, b) in self.0.iter_mut().zip(rhs.0) {
            (*a, carry) = add_carry(*a, b, carry);
        }
    }
}

impl<const N: usize> std::ops::Sub for Wide<N> {
    type Output = Self;
    fn sub(mut self, rhs: Self) -> Self {
        self -= rhs;
        self
    }
}

impl<const N: usize> std::ops::SubAssign for Wide<N> {
    fn sub_assign(&mut self, rhs: Self) {
        let mut borrow = false;
        for (a, b) in self.0.iter_mut().zip(rhs.0) {
            (*a, borrow) = sub_borrow(*a, b, borrow);
        }
    }
}

impl<const N: usize> Ord for Wide<N> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let top = (self.0[N - 1] as i64).cmp(&(other.0[N - 1] as i64));
        if top != std::cmp::Ordering::Equal {
            return top;
        }
        for k in (0..N - 1).rev() {
            let c = self.0[k].cmp(&other.0[k]);
            if c != std::cmp::Ordering::Equal {
                return c;
            }
        }
        std::cmp::Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Weight for Wide<N> {
    const ZERO: Self = Wide([0; N]);
    fn add_sub(a: Self, b: Self, c: Self) -> Self {
        let mut out = [0u64; N];
        let (mut carry, mut borrow) = (false, false);
        for (k, o) in out.iter_mut().enumerate() {
            let s;
            (s, carry) = add_carry(a.0[k], b.0[k], carry);
            (*o, borrow) = sub_borrow(s, c.0[k], borrow);
        }
        Wide(out)
    }
    fn is_positive(self) -> bool {
        let top = self.0[N - 1] as i64;
        top > 0 || (top == 0 && self.0[..N - 1].iter().any(|&l| l != 0))
    }
    fn double(self) -> Self {
        self + self
    }
    fn half(self) -> Self {
        let mut out = [0u64; N];
        let negative = (self.0[N - 1] as i64) < 0;
        for (k, o) in out.iter_mut().enumerate() {
            let next = if k + 1 < N {
                self.0[k + 1]
            } else if negative {
                u64::MAX
            } else {
                0
            };
            *o = (self.0[k] >> 1) | (next << 63);
        }
        Wide(out)
    }
}

/// Returns `mate[v]` (the vertex matched to `v`, or `None`) for a matching of
/// maximum total weight over the edges `(u, v, w)` (only `w > 0` can help).
pub fn max_weight_matching<W: Weight>(n: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
    if edges.is_empty() || n == 0 {
        return vec![None; n];
    }
    let mut m = Matcher::new(n, edges);
    m.solve();
    (0..n)
        .map(|v| {
            if m.mate[v] == NONE {
                None
            } else {
                Some(m.endpoint[m.mate[v]])
            }
        })
        .collect()
}

struct Matcher<W: Weight> {
    nv: usize,
    /// The two ends of each edge.
    ends: Vec<(usize, usize)>,
    endpoint: Vec<usize>,
    /// Each vertex's incident edges, in the order of the input: the
    /// endpoint `p` of the neighbour (the edge is `p / 2`) and the
    /// neighbour, in `adj[adj_start[v]..adj_start[v + 1]]`, with the edge's
    /// `twice` weight alongside in `adj_twice` (scanning a vertex's edges
    /// then reads memory in order).
    adj_start: Vec<usize>,
    adj: Vec<(usize, usize)>,
    adj_twice: Vec<W>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
    /// Twice each (doubled) edge weight, as `slack` needs it.
    twice: Vec<W>,
    /// The slack of `bestedge[x]`, valid while `bestepoch[x] == epoch`;
    /// `epoch` counts the changes of the vertices' duals.
    bestslack: Vec<W>,
    bestepoch: Vec<u64>,
    epoch: u64,
    /// Scratch space reused by `add_blossom` (no allocation per blossom):
    /// a blossom's leaves, and the best edge (and its slack) from it to each
    /// other S-blossom, `NONE` between uses.
    leaf_buf: Vec<usize>,
    bestedgeto: Vec<usize>,
    slackto: Vec<W>,
}

/// Appends the vertices of blossom `b` to `out`, in the order of its
/// sub-blossoms.
fn leaves_into(childs: &[Vec<usize>], nv: usize, b: usize, out: &mut Vec<usize>) {
    if b < nv {
        out.push(b);
    } else {
        for &c in &childs[b] {
            leaves_into(childs, nv, c, out);
        }
    }
}

impl<W: Weight> Matcher<W> {
    fn new(n: usize, input: &[(usize, usize, W)]) -> Matcher<W> {
        // Doubled weights keep every dual change an integer.
        let edges: Vec<(usize, usize, W)> =
            input.iter().map(|&(i, j, w)| (i, j, w.double())).collect();
        let maxw = edges
            .iter()
            .map(|e| e.2)
            .max()
            .unwrap_or(W::ZERO)
            .max(W::ZERO);
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut degree = vec![0usize; n + 1];
        for &(i, j, _) in &edges {
            endpoint.push(i);
            endpoint.push(j);
            degree[i] += 1;
            degree[j] += 1;
        }
        let mut adj_start = Vec::with_capacity(n + 1);
        let mut at = 0;
        for d in &degree {
            adj_start.push(at);
            at += d;
        }
        let mut fill = adj_start.clone();
        let mut adj = vec![(0, 0); 2 * edges.len()];
        let mut adj_twice = vec![W::ZERO; 2 * edges.len()];
        for (k, &(i, j, w)) in edges.iter().enumerate() {
            for (v, p, u) in [(i, 2 * k + 1, j), (j, 2 * k, i)] {
                adj[fill[v]] = (p, u);
                adj_twice[fill[v]] = w.double();
                fill[v] += 1;
            }
        }
        let mut blossombase: Vec<usize> = (0..n).collect();
        blossombase.extend(std::iter::repeat_n(NONE, n));
        let mut dualvar = vec![maxw; n];
        dualvar.extend(std::iter::repeat_n(W::ZERO, n));
        Matcher {
            nv: n,
            endpoint,
            adj_start,
            adj,
            adj_twice,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase,
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).collect(),
            dualvar,
            allowedge: vec![false; edges.len()],
            queue: Vec::new(),
            twice: edges.iter().map(|e| e.2.double()).collect(),
            ends: edges.iter().map(|e| (e.0, e.1)).collect(),
            bestslack: vec![W::ZERO; 2 * n],
            bestepoch: vec![u64::MAX; 2 * n],
            epoch: 0,
            leaf_buf: Vec::new(),
            bestedgeto: vec![NONE; 2 * n],
            slackto: vec![W::ZERO; 2 * n],
        }
    }

    fn slack(&self, k: usize) -> W {
        let (i, j) = self.ends[k];
        W::add_sub(self.dualvar[i], self.dualvar[j], self.twice[k])
    }

    /// The slack of `bestedge[x]` (which must be an edge).
    fn best_slack(&mut self, x: usize) -> W {
        if self.bestepoch[x] != self.epoch {
            self.bestslack[x] = self.slack(self.bestedge[x]);
            self.bestepoch[x] = self.epoch;
        }
        self.bestslack[x]
    }

    fn set_best(&mut self, x: usize, k: usize, slack: W) {
        self.bestedge[x] = k;
        self.bestslack[x] = slack;
        self.bestepoch[x] = self.epoch;
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        leaves_into(&self.blossomchilds, self.nv, b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            leaves_into(&self.blossomchilds, self.nv, b, &mut self.queue);
        } else {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = self.ends[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("blossom slots");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::ZERO;
        let mut leaves = std::mem::take(&mut self.leaf_buf);
        leaves.clear();
        leaves_into(&self.blossomchilds, self.nv, b, &mut leaves);
        for &v in &leaves {
            if self.label[self.inblossom[v]] == 2 {
                self.queue.push(v);
            }
            self.inblossom[v] = b;
        }
        // Best edges from the new blossom to other S-blossoms.
        let mut bestedgeto = std::mem::take(&mut self.bestedgeto);
        let mut slackto = std::mem::take(&mut self.slackto);
        let mut consider = |m: &Self, k: usize| {
            let (mut i, mut j) = m.ends[k];
            if m.inblossom[j] == b {
                std::mem::swap(&mut i, &mut j);
            }
            let bj = m.inblossom[j];
            if bj != b && m.label[bj] == 1 {
                let s = m.slack(k);
                if bestedgeto[bj] == NONE || s < slackto[bj] {
                    bestedgeto[bj] = k;
                    slackto[bj] = s;
                }
            }
        };
        for &bv in &path {
            match self.blossombestedges[bv].take() {
                Some(list) => {
                    for k in list {
                        consider(self, k);
                    }
                }
                None => {
                    leaves.clear();
                    leaves_into(&self.blossomchilds, self.nv, bv, &mut leaves);
                    for &v in &leaves {
                        for a in self.adj_start[v]..self.adj_start[v + 1] {
                            consider(self, self.adj[a].0 / 2);
                        }
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        self.leaf_buf = leaves;
        self.bestedge[b] = NONE;
        let mut list = Vec::new();
        for bj in 0..bestedgeto.len() {
            let k = bestedgeto[bj];
            if k == NONE {
                continue;
            }
            bestedgeto[bj] = NONE;
            list.push(k);
            let s = slackto[bj];
            if self.bestedge[b] == NONE || s < self.best_slack(b) {
                self.set_best(b, k, s);
            }
        }
        self.bestedgeto = bestedgeto;
        self.slackto = slackto;
        self.blossombestedges[b] = Some(list);
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.nv {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == W::ZERO {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves_of(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let len = childs.len() as isize;
            let mut j = childs.iter().position(|&c| c == entrychild).unwrap() as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let at = |i: isize| -> usize { ((i % len + len) % len) as usize };
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = endps[at(j - endptrick as isize)] ^ endptrick;
                self.label[self.endpoint[q ^ 1]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[q / 2] = true;
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(j)];
            self.label[self.endpoint[p ^ 1]] = 2;
            self.label[bv] = 2;
            self.labelend[self.endpoint[p ^ 1]] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let mut found = NONE;
                for v in self.leaves_of(bv) {
                    if self.label[v] != 0 {
                        found = v;
                        break;
                    }
                }
                if found != NONE {
                    let v = found;
                    self.label[v] = 0;
                    let mv = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[mv]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b].clear();
        self.blossomendps[b].clear();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.nv {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let i = self.blossomchilds[b].iter().position(|&c| c == t).unwrap() as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, usize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        let at = |i: isize| -> usize { ((i % len + len) % len) as usize };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            let p = self.blossomendps[b][at(j - endptrick as isize)] ^ endptrick;
            if t >= self.nv {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            if t >= self.nv {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        let iu = i as usize;
        self.blossomchilds[b].rotate_left(iu);
        self.blossomendps[b].rotate_left(iu);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w) = self.ends[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.nv {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.nv {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        let n = self.nv;
        for _ in 0..n {
            self.label.iter_mut().for_each(|l| *l = 0);
            self.bestedge.iter_mut().for_each(|e| *e = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|a| *a = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    // A vertex's dual changes only between scans.
                    let dv = self.dualvar[v];
                    for idx in self.adj_start[v]..self.adj_start[v + 1] {
                        let (p, w) = self.adj[idx];
                        let k = p / 2;
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::ZERO;
                        if !self.allowedge[k] {
                            kslack = W::add_sub(dv, self.dualvar[w], self.adj_twice[idx]);
                            if !kslack.is_positive() {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            let bw = self.inblossom[w];
                            if self.label[bw] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[bw] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.best_slack(b) {
                                self.set_best(b, k, kslack);
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.best_slack(w))
                        {
                            self.set_best(w, k, kslack);
                        }
                    }
                    if augmented {
                        break;
                    }
                }
                if augmented {
                    break;
                }
                // No augmenting path with the current duals: change them.
                let mut deltatype = 1;
                let mut delta = self.dualvar[..n].iter().copied().min().unwrap_or(W::ZERO);
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.best_slack(v);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let d = self.best_slack(b).half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] -= delta,
                        2 => self.dualvar[v] += delta,
                        _ => {}
                    }
                }
                self.epoch += 1;
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] += delta,
                            2 => self.dualvar[b] -= delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j) = self.ends[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _) = self.ends[deltaedge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == W::ZERO
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(n: usize, edges: &[(usize, usize, i128)]) -> i128 {
        fn go(v: usize, n: usize, used: &mut Vec<bool>, w: &[Vec<Option<i128>>]) -> i128 {
            if v == n {
                return 0;
            }
            if used[v] {
                return go(v + 1, n, used, w);
            }
            used[v] = true;
            let mut best = go(v + 1, n, used, w);
            for u in v + 1..n {
                if !used[u] {
                    if let Some(x) = w[v][u] {
                        used[u] = true;
                        best = best.max(x + go(v + 1, n, used, w));
                        used[u] = false;
                    }
                }
            }
            used[v] = false;
            best
        }
        let mut w = vec![vec![None; n]; n];
        for &(a, b, x) in edges {
            w[a][b] = Some(x);
            w[b][a] = Some(x);
        }
        go(0, n, &mut vec![false; n], &w)
    }

    #[test]
    fn wide_arithmetic_agrees_with_i128() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let to = |x: i128| -> Wide<2> { Wide([x as u64, (x >> 64) as u64]) };
        for _ in 0..20000 {
            let a: i128 = rng.random::<i128>() >> 2;
            let b: i128 = rng.random::<i128>() >> 2;
            assert_eq!(to(a) + to(b), to(a + b));
            assert_eq!(to(a) - to(b), to(a - b));
            assert_eq!(to(a).cmp(&to(b)), a.cmp(&b));
            assert_eq!(to(a).half(), to(a >> 1));
            assert_eq!(to(a).is_positive(), a > 0);
            assert_eq!(to(a >> 70).is_positive(), a >> 70 > 0);
            let c: i128 = rng.random::<i128>() >> 2;
            assert_eq!(Wide::add_sub(to(a), to(b), to(c)), to(a + b - c));
            let k = rng.random_range(0..3u32);
            assert_eq!(to(a >> 8).shifted_left(k), to((a >> 8) << k));
            assert_eq!(to(a >> 80).shifted_left(70), to((a >> 80) << 70));
            let mut c = to(a);
            let (v, sh) = (rng.random_range(0..1u64 << 20), rng.random_range(0..100u32));
            c.add_shifted(v, sh);
            assert_eq!(c, to(a + ((v as i128) << sh)));
        }
    }

    #[test]
    fn wide_weights_give_the_same_optimum() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for _ in 0..500 {
            let n = rng.random_range(1..11);
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rng.random_bool(0.5) {
                        edges.push((a, b, rng.random_range(1..1000i128) << 70));
                    }
                }
            }
            let wide: Vec<(usize, usize, Wide<3>)> = edges
                .iter()
                .map(|&(a, b, w)| (a, b, Wide([w as u64, (w >> 64) as u64, 0])))
                .collect();
            let total = |mate: &[Option<usize>]| -> i128 {
                mate.iter()
                    .enumerate()
                    .filter_map(|(a, m)| m.filter(|&b| a < b).map(|b| (a, b)))
                    .map(|(a, b)| edges.iter().find(|e| e.0 == a && e.1 == b).unwrap().2)
                    .sum()
            };
            assert_eq!(
                total(&max_weight_matching(n, &wide)),
                total(&max_weight_matching(n, &edges))
            );
        }
    }

    #[test]
    fn matches_brute_force_on_random_graphs() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..3000 {
            let n = rng.random_range(1..11);
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rng.random_bool(0.5) {
                        edges.push((a, b, rng.random_range(1..20)));
                    }
                }
            }
            let mate = max_weight_matching(n, &edges);
            let mut total = 0;
            for (a, m) in mate.iter().enumerate() {
                if let Some(b) = *m {
                    assert_eq!(mate[b], Some(a));
                    if a < b {
                        total += edges
                            .iter()
                            .find(|e| (e.0 == a && e.1 == b) || (e.0 == b && e.1 == a))
                            .expect("matched along an edge")
                            .2;
                    }
                }
            }
            assert_eq!(total, brute(n, &edges), "n={n} edges={edges:?}");
        }
    }
}
