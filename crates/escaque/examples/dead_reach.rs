//! Development aid: prints the static analysis' reach of every piece.
use escaque::dead::StaticAnalysis;
use escaque::{Color, Position};

fn main() {
    let fen = std::env::args().nth(1).expect("FEN");
    let p = Position::from_fen(&fen).expect("FEN");
    let sa = StaticAnalysis::new(&p);
    for sq in p.occupied() {
        let r = sa.reachable(sq);
        let squares: Vec<String> = r.into_iter().map(|s| format!("{s:?}")).collect();
        println!("{sq:?}: {} {}", r.count(), squares.join(" "));
    }
    println!("steady {:?}", sa.steady().into_iter().collect::<Vec<_>>());
    for c in [Color::White, Color::Black] {
        println!("{c:?} proved unwinnable: {}", sa.proves_unwinnable(c));
    }
}
