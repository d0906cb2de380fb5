//! Games escaque's engine plays against itself at human strengths, as PGN on
//! standard output: the games the shipped puzzle set (`data/problemas/`) was
//! found in, which the project can publish because it wrote them.
//!
//! ```text
//! cargo run --release -p escaque-analysis --example autopartidas -- \
//!     GAMES SEED [MIN_ELO MAX_ELO [SPREAD]] > partidas.pgn
//! ```
//!
//! Game `i` (from 0) is played by two `UCI_Elo` strengths drawn in steps of
//! 100 from MIN_ELO to MAX_ELO (800 and 2000 by default), the second
//! within SPREAD of the first (any by default), by a generator seeded with
//! `SEED + i` (so any game can be played again alone), each side with the shipped opening book as far as people of
//! its strength know it, 50 ms a move at most (the weakening's own node and
//! depth limits bound the weaker levels well before that), ending at mate,
//! a draw by the rules, or 200 plies (then `*`).

use std::io::Write;
use std::sync::atomic::AtomicBool;

use escaque::pgn::{write_game_string, Node, PgnGame, PgnStyle};
use escaque::{GameResult, Position};
use escaque_engine::book::Book;
use escaque_engine::{Engine, Limits};

/// A small deterministic generator (splitmix64) for the strengths.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(56);
    let book = Book::shipped();
    let stdout = std::io::stdout();
    let stop = AtomicBool::new(false);
    for i in 0..games {
        let mut state = seed.wrapping_add(i);
        let lo: u32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(800);
        let hi: u32 = args
            .get(4)
            .and_then(|s| s.parse().ok())
            .unwrap_or(2000)
            .max(lo);
        let spread: u32 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(hi - lo);
        let steps = u64::from((hi - lo) / 100 + 1);
        let first = lo + (splitmix(&mut state) % steps) as u32 * 100;
        let (a, b) = (
            first.saturating_sub(spread).max(lo),
            (first + spread).min(hi),
        );
        let second = a + (splitmix(&mut state) % u64::from((b - a) / 100 + 1)) as u32 * 100;
        let elos = if splitmix(&mut state).is_multiple_of(2) {
            [first, second]
        } else {
            [second, first]
        };
        let mut engines: Vec<Engine> = elos
            .iter()
            .map(|&e| {
                let mut engine = Engine::new();
                engine.set_book(Some(book.clone()));
                engine.set_limit_strength(true, e);
                engine.set_seed(splitmix(&mut state));
                engine
            })
            .collect();
        let mut pos = Position::new();
        let mut history: Vec<u64> = Vec::new();
        let mut nodes: Vec<Node> = Vec::new();
        let mut result: Option<GameResult> = None;
        let mut seen: std::collections::HashMap<u64, u32> = Default::default();
        for _ in 0..200 {
            if !pos.has_legal_moves() {
                result = Some(if pos.is_check() {
                    GameResult::win_for(pos.turn().other())
                } else {
                    GameResult::Draw
                });
                break;
            }
            let count = seen.entry(pos.zobrist()).or_insert(0);
            *count += 1;
            if *count >= 3 || pos.is_insufficient_material() || pos.halfmove_clock() >= 100 {
                result = Some(GameResult::Draw);
                break;
            }
            let side = pos.turn().index();
            let limits = Limits {
                movetime: Some(50),
                ..Limits::default()
            };
            let found = engines[side].search(&pos, &history, &limits, &stop);
            let Some(mv) = found.best_move else { break };
            history.push(pos.zobrist());
            pos.play_unchecked(mv);
            nodes.push(Node::new(mv));
        }
        let mut game = PgnGame {
            start: Position::new(),
            moves: nodes,
            result: Some(result),
            ..PgnGame::default()
        };
        let result_text = match result {
            Some(r) => r.pgn().to_string(),
            None => "*".to_string(),
        };
        game.set_tag("Event", "escaque contra escaque");
        game.set_tag("Site", &format!("escaque autopartidas {seed}/{i}"));
        game.set_tag("Round", &format!("{}", i + 1));
        game.set_tag("White", &format!("escaque {}", elos[0]));
        game.set_tag("Black", &format!("escaque {}", elos[1]));
        game.set_tag("WhiteElo", &elos[0].to_string());
        game.set_tag("BlackElo", &elos[1].to_string());
        game.set_tag("Result", &result_text);
        let text = write_game_string(&game, PgnStyle::export());
        let mut out = stdout.lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}
