//! The opening book shipped with escaque's engine
//! (`crates/escaque-engine/data/book.bin`, read by
//! [`escaque_engine::book::Book::shipped`]), built from the named lines of
//! lichess's CC0 chess-openings data ([`crate::openings::entries`]).
//!
//! Every position of every named line, with the move the line plays there,
//! is one entry; its weight is the number of named lines that play that move
//! from that position (by position, so lines that transpose add up). Theory
//! grows where people play: 1.e4 and 1.d4 carry hundreds of named lines,
//! 1.a3 a handful, so the weight is a fair stand-in for how often a move is
//! met, and every named line stays playable. The engine sharpens or flattens
//! these weights with its strength ([`escaque_engine::book::sharpness_for_elo`]).
//!
//! Rebuild the shipped file after a change to the opening data with
//! `cargo run -p escaque-analysis --example build_book -- crates/escaque-engine/data/book.bin`;
//! a test checks that the file equals [`build`]'s bytes.

use std::collections::{HashMap, HashSet};

use escaque::Position;
use escaque_engine::book::{encode_move, key, write, Entry};

/// The book's entries: one per (position, move) of the named lines, weighted
/// by how many lines go through it (at most `u16::MAX`).
pub fn entries() -> Vec<Entry> {
    let mut counts: HashMap<(u64, u16), u32> = HashMap::new();
    for line in crate::openings::entries() {
        let mut pos = Position::new();
        let mut seen = HashSet::new();
        for &mv in &line.moves {
            let at = (key(&pos), encode_move(&pos, mv));
            if seen.insert(at) {
                *counts.entry(at).or_default() += 1;
            }
            pos.play_unchecked(mv);
        }
    }
    counts
        .into_iter()
        .map(|((key, raw_move), n)| Entry {
            key,
            raw_move,
            weight: n.min(u16::MAX as u32) as u16,
            learn: 0,
        })
        .collect()
}

/// The shipped book's bytes, as built from the opening data.
pub fn build() -> Vec<u8> {
    write(&entries())
}
