//! How far each level stays in the shipped opening book: for every level,
//! `GAMES` openings (default 500) in which both sides are that level with the
//! book, counting the plies played from the book before the first move
//! that is searched (the level's depth reached, or a position the book does
//! not know). Prints, per level, the book depth allowed, the mean and the
//! largest number of book plies, and how many different positions the
//! openings reached at ply 6.
//!
//! `cargo run --release -p escaque-engine --example book_depth [GAMES]`

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use escaque::Position;
use escaque_engine::book::Book;
use escaque_engine::{Engine, Level, Limits};

fn main() {
    let games: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(500);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    println!("| level | Elo | book plies allowed | mean plies from the book | most | distinct positions at ply 6 |");
    println!("|---|---|---|---|---|---|");
    for level in Level::ALL {
        let mut engine = Engine::new();
        engine.set_seed(27 + level.number() as u64);
        engine.set_book(Some(Book::shipped()));
        engine.set_level(level);
        let mut total = 0;
        let mut most = 0;
        let mut at6 = HashSet::new();
        for _ in 0..games {
            let mut pos = Position::new();
            let mut plies = 0;
            let mut in_book = true;
            loop {
                let r = engine.search(&pos, &[], &limits, &stop);
                let Some(m) = r.best_move else { break };
                in_book &= r.book;
                plies += in_book as usize;
                pos.play_unchecked(m);
                let ply = escaque_engine::book::game_ply(&pos);
                if ply == 6 {
                    at6.insert(pos.zobrist());
                }
                if ply >= 6 && !in_book {
                    break;
                }
            }
            total += plies;
            most = most.max(plies);
        }
        let allowed = engine.book_plies();
        let allowed = if allowed == u32::MAX {
            "all".to_string()
        } else {
            allowed.to_string()
        };
        println!(
            "| {} {} | {} | {allowed} | {:.1} | {most} | {} |",
            level.number(),
            level.name(escaque::Lang::En),
            level.elo(),
            total as f64 / games as f64,
            at6.len()
        );
    }
}
