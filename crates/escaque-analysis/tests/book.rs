//! The shipped opening book is exactly what `book::build` makes from the
//! named opening lines, and every named line can be played from it.

use escaque::Position;
use escaque_analysis::{book, openings};
use escaque_engine::book::{Book, SHIPPED};

#[test]
fn the_shipped_book_is_built_from_the_opening_lines() {
    let built = book::build();
    assert!(
        built == SHIPPED,
        "crates/escaque-engine/data/book.bin is stale: rebuild it with \
         `cargo run -p escaque-analysis --example build_book`"
    );
}

#[test]
fn every_named_line_is_in_the_book_with_its_weight() {
    let b = Book::from_bytes(&book::build()).unwrap();
    let lines = openings::entries();
    for line in lines {
        let mut pos = Position::new();
        for &mv in &line.moves {
            let found = b.moves(&pos).into_iter().find(|&(m, _)| m == mv);
            assert!(
                found.is_some_and(|(_, w)| w >= 1),
                "{} {}",
                line.name_en,
                mv
            );
            pos.play_unchecked(mv);
        }
    }
    // From the start, the weights count the lines: they add up to all of them.
    let total: u32 = b
        .moves(&Position::new())
        .iter()
        .map(|&(_, w)| w as u32)
        .sum();
    assert_eq!(total as usize, lines.len());
}
