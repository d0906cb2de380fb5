//! The transposition table: shared by all search threads without locks. Each
//! entry is two atomic words, the key stored XORed with the data so that a torn
//! write (two threads storing at once) reads back as a miss, never as a wrong hit.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use escaque::Move;

/// How a stored score bounds the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (fail low).
    Upper = 1,
    /// The true score is at least this (fail high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

impl Bound {
    /// True if a stored `score` with this bound settles the window
    /// `(alpha, beta)` without searching.
    #[inline]
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// What a probe finds.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    /// The best move found, if any.
    pub mv: Option<Move>,
    /// The score, relative to the node (mate scores as distance from this node).
    pub score: i32,
    /// The static evaluation.
    pub eval: i32,
    /// Remaining depth searched.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

/// A lock-free transposition table.
pub struct TranspositionTable {
    slots: Vec<[AtomicU64; 2]>,
    age: AtomicU8,
}

fn pack(mv: u16, score: i16, eval: i16, depth: u8, bound: u8, age: u8) -> u64 {
    mv as u64
        | (score as u16 as u64) << 16
        | (eval as u16 as u64) << 32
        | (depth as u64) << 48
        | ((bound as u64) & 3) << 56
        | ((age as u64) & 63) << 58
}

impl TranspositionTable {
    /// A table using about `mb` mebibytes (at least one entry). If the memory
    /// cannot be had, the size is halved until it can.
    pub fn new(mb: usize) -> TranspositionTable {
        let mut n = (mb.max(1).saturating_mul(1024 * 1024) / 16).max(1);
        let mut slots: Vec<[AtomicU64; 2]> = Vec::new();
        while slots.try_reserve_exact(n).is_err() && n > 1 {
            n /= 2;
        }
        slots.resize_with(n, || [AtomicU64::new(0), AtomicU64::new(0)]);
        TranspositionTable {
            slots,
            age: AtomicU8::new(0),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True if the table has no entry (never: it has at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        let a = self.age.load(Ordering::Relaxed);
        self.age.store(a.wrapping_add(1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = &self.slots[self.index(key)];
        let k = s[0].load(Ordering::Relaxed);
        let d = s[1].load(Ordering::Relaxed);
        if k ^ d != key || d == 0 {
            return None;
        }
        let bound = match (d >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => return None,
        };
        Some(Entry {
            mv: Move::from_u16(d as u16).filter(|m| m.to_u16() != 0),
            score: (d >> 16) as u16 as i16 as i32,
            eval: (d >> 32) as u16 as i16 as i32,
            depth: ((d >> 48) & 0xff) as i32,
            bound,
        })
    }

    /// Stores a result, keeping the old move when the new one is unknown.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let s = &self.slots[self.index(key)];
        let age = self.age.load(Ordering::Relaxed);
        let old_k = s[0].load(Ordering::Relaxed);
        let old_d = s[1].load(Ordering::Relaxed);
        let same = old_k ^ old_d == key && old_d != 0;
        let old_depth = ((old_d >> 48) & 0xff) as i32;
        let old_age = ((old_d >> 58) & 63) as u8;
        if same && bound != Bound::Exact && depth + 3 < old_depth && old_age == age {
            return;
        }
        if !same && old_d != 0 && old_age == age && depth + 2 < old_depth {
            return;
        }
        let mut m = mv.map(|m| m.to_u16()).unwrap_or(0);
        if m == 0 && same {
            m = old_d as u16;
        }
        let d = pack(
            m,
            score.clamp(-32767, 32767) as i16,
            eval.clamp(-32767, 32767) as i16,
            depth.clamp(0, 255) as u8,
            bound as u8,
            age,
        );
        s[0].store(key ^ d, Ordering::Relaxed);
        s[1].store(d, Ordering::Relaxed);
    }

    /// Per mille of the first thousand entries written in this search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) as u64;
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s[1].load(Ordering::Relaxed);
                d != 0 && (d >> 58) & 63 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}
