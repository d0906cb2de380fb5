//! Every ending of a game, table-driven where the cases share a shape, with the
//! special cases the arbiter issue names.

use std::sync::Arc;
use std::time::Duration;

use escaque::dead::{cannot_mate, is_dead_position};
use escaque::game::repetition_key;
use escaque::rules::RuleSet;
use escaque::{
    ClaimResult, Clock, Color, DrawClaim, FakeTime, Game, GameError, GameResult, Lang, Localized,
    Move, Outcome, Position, Termination, TimeControl,
};

/// The legal move written `uci` (castling as the king's move).
fn mv(game: &Game, uci: &str) -> Move {
    game.position()
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() == uci)
        .unwrap_or_else(|| panic!("{uci} is not legal in {}", game.position().to_fen()))
}

fn play_all(game: &mut Game, moves: &str) {
    for uci in moves.split_whitespace() {
        let m = mv(game, uci);
        game.play(m).unwrap_or_else(|e| panic!("{uci}: {e}"));
    }
}

fn game(fen: &str) -> Game {
    Game::from_fen(fen).unwrap()
}

const KNIGHTS_A: &str = "g1f3 g8f6 f3g1 f6g8";

fn out(result: GameResult, termination: Termination) -> Option<Outcome> {
    Some(Outcome {
        result,
        termination,
    })
}

#[test]
fn endings_after_a_move() {
    use GameResult::*;
    use Termination::*;
    // (start FEN, moves, rules, expected outcome)
    let cases: &[(&str, &str, RuleSet, Option<Outcome>)] = &[
        // Fool's mate.
        (
            escaque::STARTING_FEN,
            "f2f3 e7e5 g2g4 d8h4",
            RuleSet::fide_2023(),
            out(BlackWins, Checkmate),
        ),
        // Stalemate: a draw, or a win for the stalemated side in England (1846).
        (
            "7k/8/6K1/8/8/8/5Q2/8 w - - 0 1",
            "f2f7",
            RuleSet::fide_2023(),
            out(Draw, Stalemate),
        ),
        (
            "7k/8/6K1/8/8/8/5Q2/8 w - - 0 1",
            "f2f7",
            RuleSet::londres_1846(),
            out(Draw, Stalemate),
        ),
        (
            "7k/8/6K1/8/8/8/5Q2/8 w - - 0 1",
            "f2f7",
            RuleSet::londres_1846_inglaterra(),
            out(BlackWins, Stalemate),
        ),
        // A capture that leaves K v K.
        (
            "8/8/8/4k3/8/8/3Kr3/8 w - - 0 1",
            "d2e2",
            RuleSet::fide_2023(),
            out(Draw, DeadPosition),
        ),
        // Promotion to a bishop leaving bishops all on one colour.
        (
            "8/2k1P3/8/8/8/8/8/K1B5 w - - 0 1",
            "e7e8b",
            RuleSet::fide_2023(),
            None,
        ),
        (
            "8/2k1P3/8/8/8/8/8/K3B3 w - - 0 1",
            "e7e8b",
            RuleSet::fide_2023(),
            None,
        ),
        (
            "8/2k2P2/8/8/8/8/8/K3B3 w - - 0 1",
            "f7f8b",
            RuleSet::fide_2023(),
            out(Draw, DeadPosition),
        ),
        // Seventy-five moves: the 150th half-move ends the game…
        (
            "6k1/8/6K1/8/8/8/8/R7 w - - 149 100",
            "a1a2",
            RuleSet::fide_2023(),
            out(Draw, SeventyFiveMoves),
        ),
        // …unless it mates: the mate stands (9.6.2).
        (
            "6k1/8/6K1/8/8/8/8/R7 w - - 149 100",
            "a1a8",
            RuleSet::fide_2023(),
            out(WhiteWins, Checkmate),
        ),
        (
            "6k1/8/6K1/8/8/8/8/R7 w - - 148 100",
            "a1a2",
            RuleSet::fide_2023(),
            None,
        ),
        // No seventy-five-move rule in London 1846.
        (
            "6k1/8/6K1/8/8/8/8/R7 w - - 149 100",
            "a1a2",
            RuleSet::londres_1846(),
            None,
        ),
        // Fivefold repetition, not on consecutive moves.
        (
            escaque::STARTING_FEN,
            "g1f3 g8f6 f3g1 f6g8 b1c3 b8c6 c3b1 c6b8 g1f3 g8f6 f3g1 f6g8 b1c3 b8c6 c3b1 c6b8",
            RuleSet::fide_2023(),
            out(Draw, FivefoldRepetition),
        ),
        (
            escaque::STARTING_FEN,
            "g1f3 g8f6 f3g1 f6g8 b1c3 b8c6 c3b1 c6b8 g1f3 g8f6 f3g1 f6g8 b1c3 b8c6 c3b1",
            RuleSet::fide_2023(),
            None,
        ),
        // No fivefold in London 1846.
        (
            escaque::STARTING_FEN,
            "g1f3 g8f6 f3g1 f6g8 b1c3 b8c6 c3b1 c6b8 g1f3 g8f6 f3g1 f6g8 b1c3 b8c6 c3b1 c6b8",
            RuleSet::londres_1846(),
            None,
        ),
    ];
    for (fen, moves, rules, want) in cases {
        let mut g = game(fen).with_rules(*rules);
        play_all(&mut g, moves);
        assert_eq!(g.outcome(), *want, "{fen} {moves} {}", rules.name());
        if let Some(o) = want {
            assert_eq!(g.result(), Some(o.result));
            assert_eq!(g.termination(), Some(o.termination));
            // A finished game takes no more moves.
            let any = Move::normal(escaque::Square::A1, escaque::Square::A2);
            assert_eq!(g.play(any), Err(GameError::GameOver(*o)));
        }
    }
}

#[test]
fn dead_positions_by_material_and_by_a_locked_wall() {
    let cases: &[(&str, bool)] = &[
        ("8/8/4k3/8/8/8/4K3/8 w - - 0 1", true),      // K v K
        ("8/8/4k3/8/8/8/4K3/5B2 w - - 0 1", true),    // K+A v K
        ("8/8/4k3/8/8/1n6/4K3/8 w - - 0 1", true),    // K v K+C
        ("8/8/4kb2/8/8/8/4K3/5B2 w - - 0 1", false),  // bishops on both colours
        ("8/8/4k1b1/8/8/8/4K3/5B2 w - - 0 1", true),  // K+A v K+A, one colour
        ("8/8/b3k1b1/8/B7/8/8/5B1K w - - 0 1", true), // four bishops, one colour
        ("8/8/4k3/8/8/2N5/4K3/6N1 w - - 0 1", false), // K+C+C v K
        ("8/8/4k3/8/8/2N5/4K3/5B2 w - - 0 1", false), // K+A+C v K
        ("8/8/4k3/8/8/8/4K3/5R2 w - - 0 1", false),   // K+T v K
        ("8/8/4k3/8/8/8/4KP2/8 w - - 0 1", false),    // a pawn
        // A locked pawn wall across the board, kings on their sides.
        ("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 w - - 0 1", true),
        ("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 b - - 0 1", true),
        // One pawn free to advance: not dead.
        ("4k3/8/8/1p1p1p1p/1PpPpPpP/P1P1P1P1/8/4K3 w - - 0 1", false),
        // A king inside the wall that can reach an enemy pawn: not dead.
        ("8/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/k7/4K3 w - - 0 1", false),
    ];
    for (fen, dead) in cases {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(is_dead_position(&pos), *dead, "{fen}");
        let g = Game::from_position(pos);
        let want = dead.then_some(Outcome {
            result: GameResult::Draw,
            termination: Termination::DeadPosition,
        });
        assert_eq!(g.outcome(), want, "{fen}");
    }
    // A bishop beside the wall that can never break it: the material-and-wall
    // rule does not prove it, the static analysis of `escaque::dead` does, and
    // the game ends at once (issue 13).
    let fen = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/2B1K3 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    assert!(!is_dead_position(&pos));
    assert!(escaque::dead::is_dead_fast(&pos));
    assert_eq!(
        Game::from_position(pos).termination(),
        Some(Termination::DeadPosition)
    );
    // The same wall with a light-squared bishop that can take a black pawn
    // (a4, c4, e4, g4 stand on light squares) is not dead.
    let fen = "4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/3BK3 w - - 0 1";
    let g = Game::from_fen(fen).unwrap();
    assert_eq!(g.outcome(), None, "{fen}");
}

#[test]
fn threefold_claim_now_and_with_a_declared_move() {
    // Two cycles bring the initial position back for the third time.
    let mut g = Game::new();
    play_all(&mut g, KNIGHTS_A);
    play_all(&mut g, "g1f3 g8f6 f3g1");
    assert_eq!(
        g.repetitions(),
        2,
        "after 3.Ng1 the position is the one after 1.Ng1"
    );
    let status = g.status();
    assert!(status.claims.is_empty());
    let f6g8 = mv(&g, "f6g8");
    assert_eq!(status.claim_moves, vec![(f6g8, DrawClaim::Threefold)]);

    // The declared-move path: Black writes 4...Cg8 and claims.
    let mut declared = g.clone();
    let r = declared.claim_draw_with_move(f6g8).unwrap();
    let drawn = Outcome {
        result: GameResult::Draw,
        termination: Termination::ThreefoldRepetition,
    };
    assert_eq!(r, ClaimResult::Granted(drawn));
    assert_eq!(declared.outcome(), Some(drawn));
    assert_eq!(declared.moves().len(), 8);
    assert_eq!(declared.moves().last().unwrap().mv, f6g8);

    // The same without declaring: play the move; the claim then belongs to White.
    g.play(f6g8).unwrap();
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.status().claims, vec![DrawClaim::Threefold]);
    assert_eq!(g.outcome(), None, "threefold is not automatic");
    assert_eq!(g.claim_draw().unwrap(), ClaimResult::Granted(drawn));
}

#[test]
fn incorrect_claims_count_as_offers_and_cost_two_minutes() {
    let t = FakeTime::new();
    let clock = Clock::new(TimeControl::parse("10").unwrap(), Arc::new(t.clone()));
    let mut g = Game::new().with_clock(clock);
    g.start_clock();
    play_all(&mut g, KNIGHTS_A);
    play_all(&mut g, "g1f3 g8f6 f3g1");
    // Black declares a move that repeats nothing.
    let b8c6 = mv(&g, "b8c6");
    let white_before = g.clock().unwrap().peek().white;
    assert_eq!(g.claim_draw_with_move(b8c6).unwrap(), ClaimResult::Rejected);
    assert_eq!(
        g.moves().last().unwrap().mv,
        b8c6,
        "the declared move is played"
    );
    assert_eq!(g.outcome(), None);
    assert_eq!(g.draw_offer(), Some(Color::Black), "9.1.2.3");
    assert_eq!(
        g.clock().unwrap().peek().white,
        white_before + Duration::from_secs(120),
        "9.5.3"
    );
    // White may accept the standing claim as an offer.
    let o = g.accept_draw(Color::White).unwrap();
    assert_eq!(o.termination, Termination::Agreement);

    // A claim without a move on a fresh position: rejected, offer pending, the
    // claimer still to move; moving does not withdraw it.
    let mut g = Game::new();
    assert_eq!(g.claim_draw().unwrap(), ClaimResult::Rejected);
    assert_eq!(g.draw_offer(), Some(Color::White));
    play_all(&mut g, "e2e4");
    assert_eq!(g.draw_offer(), Some(Color::White));
    play_all(&mut g, "e7e5");
    assert_eq!(g.draw_offer(), None, "Black moved instead of answering");
}

#[test]
fn repetition_needs_the_same_en_passant_possibility() {
    // After 1.e4 the black pawn on d4 stands beside e4. With the black king on a4
    // the capture d4xe3 would expose it to the rook on h4: no en passant
    // possibility, so the position after 1.e4 is the same as after 3.Cg1.
    let pinned = "1n6/8/8/8/k2p3R/8/4P3/4K1N1 w - - 0 1";
    // With the king on a5 the capture is legal: the first position differs.
    let free = "1n6/8/8/k7/3p3R/8/4P3/4K1N1 w - - 0 1";
    let cycle = "b8c6 g1f3 c6b8 f3g1";
    for (fen, after_two_cycles, after_three) in [(pinned, 3, 4), (free, 2, 3)] {
        let mut g = game(fen);
        play_all(&mut g, "e2e4");
        let first = *g.position();
        assert!(first.ep_square().is_some());
        play_all(&mut g, cycle);
        // Same placement, turn and rights; the Polyglot hash always differs
        // (it counts the file of a merely adjacent pawn), FIDE's may not.
        assert_ne!(first.zobrist(), g.position().zobrist());
        assert_eq!(
            repetition_key(&first) == repetition_key(g.position()),
            fen == pinned
        );
        play_all(&mut g, cycle);
        assert_eq!(g.repetitions(), after_two_cycles, "{fen}");
        assert_eq!(
            g.claimable().contains(&DrawClaim::Threefold),
            after_two_cycles >= 3
        );
        play_all(&mut g, cycle);
        assert_eq!(g.repetitions(), after_three, "{fen}");
    }
}

#[test]
fn castling_rights_lost_by_a_rook_move_break_a_repetition() {
    let start = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    // Rooks out and back: same squares, but the short castling rights are gone.
    let mut rooks = game(start);
    play_all(&mut rooks, "h1g1 h8g8 g1h1 g8h8");
    assert_eq!(rooks.position().castling_rights().to_fen(), "Qq");
    play_all(&mut rooks, "h1g1 h8g8 g1h1 g8h8");
    assert_eq!(rooks.repetitions(), 2, "the start had other rights");
    assert_eq!(rooks.claim_draw().unwrap(), ClaimResult::Rejected);

    // The control: knights shuffle without touching any right.
    let mut knights = game("rn2k2r/pppppppp/8/8/8/8/PPPPPPPP/RN2K2R w KQkq - 0 1");
    play_all(&mut knights, "b1c3 b8c6 c3b1 c6b8 b1c3 b8c6 c3b1 c6b8");
    assert_eq!(knights.repetitions(), 3);
    assert!(matches!(
        knights.claim_draw().unwrap(),
        ClaimResult::Granted(_)
    ));
}

#[test]
fn fifty_moves_on_claim() {
    let fen99 = "6k1/8/6K1/8/8/8/8/R7 w - - 99 80";
    let drawn = Outcome {
        result: GameResult::Draw,
        termination: Termination::FiftyMoves,
    };
    // 99 half-moves: too early to claim now…
    let mut g = game(fen99);
    assert!(g.claimable().is_empty());
    assert_eq!(g.claim_draw().unwrap(), ClaimResult::Rejected);
    // …but every quiet move may be declared with the claim.
    let g = game(fen99);
    let moves = g.claimable_moves();
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|&(_, c)| c == DrawClaim::FiftyMoves));
    let mut declared = g.clone();
    let r = declared.claim_draw_with_move(mv(&g, "a1a2")).unwrap();
    assert_eq!(r, ClaimResult::Granted(drawn));
    // A declared mate is a mate, not a claim.
    let mut mate = g.clone();
    let r = mate.claim_draw_with_move(mv(&g, "a1a8")).unwrap();
    assert_eq!(r, ClaimResult::Ended(mate.outcome().unwrap()));
    assert_eq!(mate.result(), Some(GameResult::WhiteWins));
    // At 100 the player to move claims directly.
    let mut g = game("6k1/8/6K1/8/8/8/8/R7 w - - 100 80");
    assert_eq!(g.status().claims, vec![DrawClaim::FiftyMoves]);
    assert_eq!(g.claim_draw().unwrap(), ClaimResult::Granted(drawn));
    // London 1846 has no fifty-move claim.
    let g = game("6k1/8/6K1/8/8/8/8/R7 w - - 100 80").with_rules(RuleSet::londres_1846());
    assert!(g.claimable().is_empty());
}

#[test]
fn london_agreed_fifty_move_count() {
    let fen = "8/8/4k3/8/8/8/8/2B1KN2 w - - 0 1";
    let mut fide = game(fen);
    assert_eq!(
        fide.agree_fifty_move_count(),
        Err(GameError::NoFiftyMoveAgreement)
    );
    let mut g = game(fen).with_rules(RuleSet::londres_1846());
    play_all(&mut g, "f1e3 e6d6");
    g.agree_fifty_move_count().unwrap();
    for i in 0..25 {
        play_all(&mut g, "e3f1 d6e6 f1e3 e6d6");
        let left = g.status().agreed_count_left;
        if i < 24 {
            assert_eq!(g.outcome(), None, "cycle {i}");
            assert_eq!(left, Some(100 - 4 * (i + 1)));
        }
    }
    assert_eq!(
        g.outcome(),
        Some(Outcome {
            result: GameResult::Draw,
            termination: Termination::AgreedFiftyMoves
        })
    );
    assert_eq!(g.moves().len(), 102);
}

#[test]
fn draw_offer_lifecycle() {
    // Offer after moving, accepted.
    let mut g = Game::new();
    play_all(&mut g, "e2e4");
    g.offer_draw(Color::White).unwrap();
    assert_eq!(g.status().draw_offer, Some(Color::White));
    assert_eq!(g.accept_draw(Color::White), Err(GameError::NoDrawOffer));
    let o = g.accept_draw(Color::Black).unwrap();
    assert_eq!(o.result, GameResult::Draw);
    assert_eq!(o.termination, Termination::Agreement);

    // Declined.
    let mut g = Game::new();
    play_all(&mut g, "e2e4");
    g.offer_draw(Color::White).unwrap();
    g.decline_draw(Color::Black).unwrap();
    assert_eq!(g.draw_offer(), None);
    assert_eq!(g.accept_draw(Color::Black), Err(GameError::NoDrawOffer));

    // Lapses when the opponent moves instead of answering.
    let mut g = Game::new();
    play_all(&mut g, "e2e4");
    g.offer_draw(Color::White).unwrap();
    play_all(&mut g, "e7e5");
    assert_eq!(g.draw_offer(), None);
    assert_eq!(g.accept_draw(Color::Black), Err(GameError::NoDrawOffer));

    // Made before one's own move, it survives that move.
    let mut g = Game::new();
    g.offer_draw(Color::White).unwrap();
    play_all(&mut g, "e2e4");
    assert_eq!(g.draw_offer(), Some(Color::White));
    // Crossing offers agree.
    let o = g.offer_draw(Color::Black).unwrap();
    assert_eq!(o.map(|o| o.termination), Some(Termination::Agreement));
}

#[test]
fn resignation() {
    use GameResult::*;
    // (FEN, who resigns, expected result)
    let cases: &[(&str, Color, GameResult)] = &[
        (escaque::STARTING_FEN, Color::White, BlackWins),
        (escaque::STARTING_FEN, Color::Black, WhiteWins),
        // Resigning with a queen against a bare king: the opponent cannot mate.
        ("8/8/4k3/8/8/8/4KQ2/8 w - - 0 1", Color::White, Draw),
        ("8/8/4k3/8/8/8/4KQ2/8 w - - 0 1", Color::Black, WhiteWins),
        // The opponent has K+C only, and a pawn of ours could help it: a loss.
        ("8/8/4k3/3n4/8/8/4KP2/8 b - - 0 1", Color::White, BlackWins),
        // K+C against K+D: the knight cannot mate.
        ("8/8/4k3/3n4/8/8/4KQ2/8 b - - 0 1", Color::White, Draw),
    ];
    for (fen, by, want) in cases {
        // Either side may resign at any moment, on turn or not.
        let mut g = game(fen);
        let o = g.resign(*by).unwrap();
        assert_eq!(o.result, *want, "{fen} {by:?}");
        assert_eq!(o.termination, Termination::Resignation { by: *by });
        assert!(matches!(g.resign(by.other()), Err(GameError::GameOver(_))));
    }
}

fn flagged_game(fen: &str, tc: &str) -> (Game, FakeTime) {
    let t = FakeTime::new();
    let clock = Clock::new(TimeControl::parse(tc).unwrap(), Arc::new(t.clone()));
    let mut g = game(fen).with_clock(clock);
    g.start_clock();
    (g, t)
}

#[test]
fn loss_on_time_and_the_6_9_draw() {
    use GameResult::*;
    // Black to move runs out of time. (FEN, expected result)
    let cases: &[(&str, GameResult)] = &[
        // White has K+C against K+D: no mate possible: a draw.
        ("8/8/4k3/8/3q4/8/4KN2/8 b - - 0 1", Draw),
        // K+C+C can mate (with help): a loss.
        ("8/8/4k3/8/3q4/8/4KNN1/8 b - - 0 1", WhiteWins),
        // A bare king always draws on the other's flag.
        ("8/8/4k3/8/3q4/8/4K3/8 b - - 0 1", Draw),
        ("8/8/4k3/8/3r4/8/4K3/8 b - - 0 1", Draw),
        // K+A against K+T: no mate. K+A against K+C: the knight could block.
        ("8/8/4k3/8/3r4/8/4KB2/8 b - - 0 1", Draw),
        ("8/8/4k3/3n4/8/8/4KB2/8 b - - 0 1", WhiteWins),
        // K+C against K+P: the pawn could block its own king: a loss.
        ("8/8/4k3/8/3p4/8/4KN2/8 b - - 0 1", WhiteWins),
        // Beyond material: a locked pawn wall, eight pawns and no mate.
        ("4k3/8/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/4K3 b - - 0 1", Draw),
        // The same wall with a way through for the white king: a loss.
        (
            "4k3/8/8/1p1p1p1p/1PpPpPpP/P1P1P1P1/8/4K3 b - - 0 1",
            WhiteWins,
        ),
    ];
    for (fen, want) in cases {
        let pos = Position::from_fen(fen).unwrap();
        let dead = is_dead_position(&pos);
        let (mut g, t) = flagged_game(fen, "1");
        if dead {
            // A dead position has already ended; the flag then cannot matter.
            assert_eq!(g.termination(), Some(Termination::DeadPosition));
            assert_eq!(*want, Draw);
            assert!(cannot_mate(&pos, Color::White));
            continue;
        }
        t.advance_secs(59);
        assert_eq!(g.poll_clock(), None, "{fen}");
        t.advance_secs(2);
        let o = g.poll_clock().unwrap_or_else(|| panic!("no flag in {fen}"));
        assert_eq!(o.result, *want, "{fen}");
        assert_eq!(
            o.termination,
            Termination::Time {
                flagged: Color::Black
            }
        );
        assert_eq!(g.outcome(), Some(o));
    }
}

#[test]
fn flag_falls_before_a_move_is_completed() {
    let (mut g, t) = flagged_game(escaque::STARTING_FEN, "1+2");
    t.advance_secs(10);
    play_all(&mut g, "e2e4");
    assert_eq!(g.moves()[0].clock, Some(Duration::from_secs(52)));
    t.advance_secs(61);
    let e5 = mv(&g, "e7e5");
    assert_eq!(g.play(e5), Err(GameError::FlagFell(Color::Black)));
    assert_eq!(g.moves().len(), 1, "the move was not made");
    let o = g.outcome().unwrap();
    assert_eq!(o.result, GameResult::WhiteWins);
    assert!(o.message(Lang::Es).contains("tiempo"));
    // The status shows it too.
    let s = g.status();
    assert_eq!(s.outcome, Some(o));
    assert_eq!(s.clock.unwrap().flagged, Some(Color::Black));
}

#[test]
fn undo_takes_back_moves_endings_and_clock() {
    let (mut g, t) = flagged_game(escaque::STARTING_FEN, "5+3");
    t.advance_secs(10);
    play_all(&mut g, "f2f3 e7e5 g2g4");
    let before_mate = g.clock().unwrap().peek();
    t.advance_secs(7);
    play_all(&mut g, "d8h4");
    assert_eq!(g.termination(), Some(Termination::Checkmate));
    assert_eq!(g.undo().unwrap().to_string(), "d8h4");
    assert_eq!(g.outcome(), None);
    // The time spent on the mating move stays spent.
    assert_eq!(
        g.clock().unwrap().peek().black,
        before_mate.black - Duration::from_secs(7)
    );
    assert_eq!(g.clock().unwrap().peek().running, Some(Color::Black));
    for _ in 0..3 {
        g.undo().unwrap();
    }
    assert_eq!(*g.position(), Position::new());
    assert_eq!(g.undo(), Err(GameError::NothingToUndo));
}

#[test]
fn status_for_a_user_interface() {
    let t = FakeTime::new();
    let clock = Clock::new(TimeControl::fide_classical(), Arc::new(t.clone()));
    let mut g = Game::new().with_clock(clock);
    g.start_clock();
    play_all(&mut g, "e2e4 f7f6 d2d4 g7g5");
    t.advance_secs(5);
    play_all(&mut g, "d1h5");
    let s = g.status();
    assert_eq!(s.turn, Color::Black);
    assert!(s.in_check);
    assert_eq!(s.move_number, 3);
    assert_eq!(
        s.outcome.map(|o| o.termination),
        Some(Termination::Checkmate)
    );
    let c = s.clock.unwrap();
    assert_eq!(c.white, Duration::from_secs(5400 + 3 * 30 - 5));
    assert_eq!(c.running, None, "the clock stops at the end");
    assert_eq!(c.moves_to_control, [Some(37), Some(38)]);
    assert_eq!(s.message(Lang::En), "Checkmate. White wins (1-0)");

    // A game in progress, in Spanish.
    let t = FakeTime::new();
    let clock = Clock::new(TimeControl::parse("5+3").unwrap(), Arc::new(t.clone()));
    let mut g = Game::new().with_clock(clock);
    g.start_clock();
    play_all(&mut g, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
    t.advance_secs(65);
    g.offer_draw(Color::White).unwrap();
    let s = g.status();
    assert_eq!(s.repetitions, 3);
    assert_eq!(s.clock.unwrap().white, Duration::from_secs(300 + 12 - 65));
    assert_eq!(
        s.message(Lang::Es),
        "Juegan las blancas (jugada 5); las blancas ofrecen tablas; \
         puede reclamar tablas por triple repetición; reloj: blancas 4:07, negras 5:12"
    );
}

#[test]
fn bad_fen_is_an_error_not_a_panic() {
    for bad in [
        "",
        "garbage",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    ] {
        let e = Game::from_fen(bad).unwrap_err();
        assert!(!e.message(Lang::Es).is_empty());
        assert!(!e.message(Lang::En).is_empty());
    }
}

#[test]
fn wording_in_both_languages() {
    let o = Outcome {
        result: GameResult::Draw,
        termination: Termination::Time {
            flagged: Color::White,
        },
    };
    assert!(o.to_string().starts_with("Tablas"));
    assert!(o.message(Lang::En).starts_with("Draw"));
    let m = Outcome {
        result: GameResult::BlackWins,
        termination: Termination::Checkmate,
    };
    assert_eq!(m.to_string(), "Jaque mate. Ganan las negras (0-1)");
    assert_eq!(m.message(Lang::En), "Checkmate. Black wins (0-1)");
}

#[test]
fn moves_are_recorded_with_san_and_hash() {
    let mut g = Game::new();
    g.play_san("f3", escaque::SanLang::Auto).unwrap();
    g.play_san("e5", escaque::SanLang::Auto).unwrap();
    g.play_san("g4", escaque::SanLang::Es).unwrap();
    let err = g.play_san("Dh5", escaque::SanLang::Es).unwrap_err();
    assert!(matches!(err, GameError::San(_)), "{err:?}");
    g.play_san("Dh4", escaque::SanLang::Es).unwrap();
    let sans: Vec<&str> = g.moves().iter().map(|r| r.san.as_str()).collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(g.move_san(3, Lang::Es).as_deref(), Some("Dh4#"));
    assert_eq!(g.move_san(4, Lang::Es), None);
    assert_eq!(g.moves()[3].hash, g.position().zobrist());
    assert_eq!(g.moves()[0].clock, None);
}
