//! Finds the magic multipliers used by `src/attacks.rs` for rook and bishop
//! attacks, and prints them as Rust arrays.
//!
//! Run with `cargo run --release -p escaque --example find_magics`. The search is
//! deterministic (a fixed xorshift seed), so it prints the same numbers each time;
//! `attacks.rs` checks at compile time that every number maps each blocker set to
//! the right attack set, so a wrong number cannot slip into the build.

use escaque::attacks::{bishop_attacks_slow, bishop_mask, rook_attacks_slow, rook_mask};
use escaque::{Bitboard, Square};

type Slow = fn(Square, Bitboard) -> Bitboard;
type Mask = fn(Square) -> Bitboard;

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find(sq: Square, mask: Bitboard, slow: Slow, rng: &mut XorShift) -> u64 {
    let mask = mask.0;
    let bits = mask.count_ones();
    let mut subsets = Vec::new();
    let mut sub = 0u64;
    loop {
        subsets.push((sub, slow(sq, Bitboard(sub)).0));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    let mut table = vec![0u64; 1 << bits];
    let mut used = vec![false; 1 << bits];
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        used.iter_mut().for_each(|u| *u = false);
        let ok = subsets.iter().all(|&(occ, att)| {
            let idx = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
            if !used[idx] {
                used[idx] = true;
                table[idx] = att;
                true
            } else {
                table[idx] == att
            }
        });
        if ok {
            return magic;
        }
    }
}

fn main() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let sliders: [(&str, Mask, Slow); 2] = [
        ("ROOK_MAGICS", rook_mask, rook_attacks_slow),
        ("BISHOP_MAGICS", bishop_mask, bishop_attacks_slow),
    ];
    for (name, mask, slow) in sliders {
        println!("const {name}: [u64; 64] = [");
        for sq in Square::all() {
            println!("    0x{:016X},", find(sq, mask(sq), slow, &mut rng));
        }
        println!("];");
    }
}
