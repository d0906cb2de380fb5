//! Hand-written rule cases: FEN validation errors, the reasons given for illegal
//! moves, castling conditions, en passant timing, promotion, draws by material.

use escaque::{
    Bitboard, Color, FenError, IllegalReason, Lang, Localized, Move, Position, Rank, Role, Square,
};

fn fen_err(fen: &str) -> FenError {
    Position::from_fen(fen).expect_err(fen)
}

#[test]
fn fen_errors_name_the_problem() {
    assert_eq!(fen_err(""), FenError::Empty);
    assert_eq!(fen_err("8/8/8 w"), FenError::FieldCount { found: 2 });
    assert_eq!(
        fen_err("8/8/8/8/8/8/8 w - - 0 1"),
        FenError::RankCount { found: 7 }
    );
    assert_eq!(
        fen_err("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::BadPieceChar {
            ch: 'x',
            column: 14
        }
    );
    assert!(matches!(
        fen_err("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankTooLong {
            rank: Rank::SEVENTH,
            ..
        }
    ));
    assert!(matches!(
        fen_err("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        FenError::RankTooShort {
            rank: Rank::SEVENTH,
            squares: 7,
            ..
        }
    ));
    assert!(matches!(
        fen_err("4k3/8/8/8/8/8/8/4K3 x - - 0 1"),
        FenError::BadTurn { .. }
    ));
    assert!(matches!(
        fen_err("4k3/8/8/8/8/8/8/4K3 w KK - 0 1"),
        FenError::BadCastling { .. }
    ));
    assert!(matches!(
        fen_err("4k3/8/8/8/8/8/8/4K3 w - e9 0 1"),
        FenError::BadEnPassantSyntax { .. }
    ));
    assert!(matches!(
        fen_err("4k3/8/8/8/8/8/8/4K3 w - - x 1"),
        FenError::BadHalfmoveClock { .. }
    ));
    assert!(matches!(
        fen_err("4k3/8/8/8/8/8/8/4K3 w - - 0 y"),
        FenError::BadFullmoveNumber { .. }
    ));
    assert_eq!(
        fen_err("4k3/8/8/8/8/8/8/4KK2 w - - 0 1"),
        FenError::KingCount {
            color: Color::White,
            found: 2
        }
    );
    assert_eq!(
        fen_err("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::KingCount {
            color: Color::Black,
            found: 0
        }
    );
    assert_eq!(
        fen_err("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::PawnOnBackRank { square: Square::H8 }
    );
    assert_eq!(
        fen_err("4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1"),
        FenError::TooManyPieces {
            color: Color::White
        }
    );
    assert_eq!(
        fen_err("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::OpponentInCheck
    );
    assert_eq!(
        fen_err("3k4/8/8/8/8/8/8/3K3R w K - 0 1"),
        FenError::CastlingContradicted { right: 'K' }
    );
    assert_eq!(
        fen_err("r3k3/8/8/8/8/8/8/4K3 w k - 0 1"),
        FenError::CastlingContradicted { right: 'k' }
    );
    assert!(Position::from_fen("r3k3/8/8/8/8/8/8/4K3 w q - 0 1").is_ok());
    assert_eq!(
        fen_err("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"),
        FenError::ImpossibleEnPassant { square: Square::E6 }
    );
    assert_eq!(
        fen_err("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1"),
        FenError::ImpossibleEnPassant { square: Square::E3 }
    );
    // Three checkers, two knights, two rooks on one line.
    assert_eq!(
        fen_err("4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1"),
        FenError::ImpossibleCheck
    );
    assert_eq!(
        fen_err("4k3/2N5/3N4/8/8/8/8/4K3 b - - 0 1"),
        FenError::ImpossibleCheck
    );
    assert_eq!(
        fen_err("R3k2R/8/8/8/8/8/8/4K3 b - - 0 1"),
        FenError::ImpossibleCheck
    );
    // In check with an en passant square whose double step could not give it.
    assert_eq!(
        fen_err("4r1k1/8/8/2Pp4/8/8/8/4K3 w - d6 0 1"),
        FenError::ImpossibleCheck
    );
    // ... while a check the double step uncovered is possible.
    assert!(Position::from_fen("2b3k1/8/8/2Pp4/8/7K/8/8 w - d6 0 1").is_ok());
    assert!(Position::from_fen("6k1/8/8/2Pp4/8/8/8/4K3 w - d6 0 1").is_ok());
}

#[test]
fn fen_errors_read_in_both_languages() {
    let e = fen_err("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(
        e.message(Lang::Es).contains("columna 14"),
        "{}",
        e.message(Lang::Es)
    );
    assert!(
        e.message(Lang::En).contains("column 14"),
        "{}",
        e.message(Lang::En)
    );
    assert_eq!(e.to_string(), e.message(Lang::Es));
}

#[test]
fn valid_unusual_fens_are_accepted() {
    // Four fields only: counters default to 0 1.
    let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    // Double check by a discovered rook and a knight.
    assert!(Position::from_fen("4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1").is_ok());
    // The en passant square is kept as written when a double step made it.
    let p =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(p.ep_square(), Some(Square::E3));
    assert_eq!(p.legal_ep_square(), None);
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn reason(fen: &str, m: Move) -> IllegalReason {
    let mut p = pos(fen);
    let before = p;
    let err = p.play(m).expect_err("illegal");
    assert_eq!(p, before, "an illegal move must change nothing");
    err.reason
}

#[test]
fn illegal_moves_say_why() {
    let start = escaque::STARTING_FEN;
    assert_eq!(
        reason(start, Move::normal(Square::E4, Square::E5)),
        IllegalReason::NoPiece
    );
    assert_eq!(
        reason(start, Move::normal(Square::E7, Square::E5)),
        IllegalReason::OpponentPiece
    );
    assert_eq!(
        reason(start, Move::normal(Square::A1, Square::A2)),
        IllegalReason::OwnPieceOnTarget
    );
    assert_eq!(
        reason(start, Move::normal(Square::E2, Square::E5)),
        IllegalReason::CannotReach(Role::Pawn)
    );
    assert_eq!(
        reason(start, Move::normal(Square::F1, Square::C4)),
        IllegalReason::CannotReach(Role::Bishop)
    );
    // Pinned knight.
    assert_eq!(
        reason(
            "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
            Move::normal(Square::E2, Square::C3)
        ),
        IllegalReason::LeavesKingInCheck
    );
    // In check, a move elsewhere.
    assert_eq!(
        reason(
            "4k3/4r3/8/8/8/8/P7/4K3 w - - 0 1",
            Move::normal(Square::A2, Square::A3)
        ),
        IllegalReason::DoesNotAnswerCheck
    );
    // Promotion must be given, and only on the last rank.
    assert_eq!(
        reason(
            "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            Move::normal(Square::A7, Square::A8)
        ),
        IllegalReason::PromotionRequired
    );
    assert_eq!(
        reason(start, Move::promotion(Square::E2, Square::E3, Role::Queen)),
        IllegalReason::InvalidPromotion
    );
    let msg = IllegalReason::LeavesKingInCheck.message(Lang::Es);
    assert_eq!(msg, "el rey quedaría en jaque");
}

#[test]
fn castling_conditions() {
    let castle = Move::castle(Square::E1, Square::G1);
    let long = Move::castle(Square::E1, Square::C1);
    // Allowed.
    assert!(pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").is_legal(castle));
    assert!(pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").is_legal(long));
    // Right lost.
    assert_eq!(
        reason("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", castle),
        IllegalReason::CastlingRightLost
    );
    // Piece in between (also on b1 for the long castling, which the king does not cross).
    assert_eq!(
        reason("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", long),
        IllegalReason::CastlingBlocked
    );
    // In check.
    assert_eq!(
        reason("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", castle),
        IllegalReason::CastlingInCheck
    );
    // Through an attacked square (f1), onto one (g1), but b1 attacked is fine.
    assert_eq!(
        reason("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1", castle),
        IllegalReason::CastlingThroughCheck
    );
    assert_eq!(
        reason("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", castle),
        IllegalReason::CastlingThroughCheck
    );
    assert!(pos("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").is_legal(long));
    // The rook may be attacked.
    assert!(pos("4k2r/8/8/8/8/8/8/R3K2R w KQ - 0 1").is_legal(castle));
    // Rights go when the king or the rook moves, or the rook is captured.
    let mut p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    p.play(Move::normal(Square::A1, Square::A8)).unwrap();
    assert_eq!(p.castling_rights().to_fen(), "Kk");
}

#[test]
fn en_passant_only_right_after_the_double_step() {
    let mut p = pos("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    p.play(Move::normal(Square::D7, Square::D5)).unwrap();
    let ep = Move::en_passant(Square::E5, Square::D6);
    assert!(p.is_legal(ep));
    let mut later = p;
    later.play(Move::normal(Square::E1, Square::E2)).unwrap();
    later.play(Move::normal(Square::E8, Square::E7)).unwrap();
    assert_eq!(
        later.illegal_reason(ep),
        IllegalReason::EnPassantNotAvailable
    );
    p.play(ep).unwrap();
    assert!(p.piece_at(Square::D5).is_none());
    assert_eq!(p.role_at(Square::D6), Some(Role::Pawn));
    // The rank-wise discovered check: capturing would expose the king.
    let p = pos("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert!(!p.is_legal(Move::en_passant(Square::E5, Square::D6)));
    assert_eq!(p.legal_ep_square(), None);
}

#[test]
fn promotion_to_each_piece() {
    let p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    for role in Role::PROMOTIONS {
        let mut q = p;
        q.play(Move::promotion(Square::A7, Square::A8, role))
            .unwrap();
        assert_eq!(q.role_at(Square::A8), Some(role));
    }
    assert_eq!(p.legal_moves().len(), 5 + 4);
}

#[test]
fn mate_stalemate_and_material() {
    assert!(pos("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").is_checkmate());
    assert!(pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").is_stalemate());
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/1B6/B1B1K3 w - - 0 1",
    ] {
        assert!(pos(fen).is_insufficient_material(), "{fen}");
    }
    for fen in [
        "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1",
        "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
    ] {
        assert!(!pos(fen).is_insufficient_material(), "{fen}");
    }
    assert_eq!(Bitboard::LIGHT.count(), 32);
}

#[test]
fn reasons_use_the_right_article_in_spanish() {
    assert_eq!(
        IllegalReason::CannotReach(Role::Queen).message(Lang::Es),
        "la dama no puede ir a esa casilla"
    );
    assert_eq!(
        IllegalReason::CannotReach(Role::Rook).message(Lang::Es),
        "la torre no puede ir a esa casilla"
    );
    assert_eq!(
        IllegalReason::CannotReach(Role::Knight).message(Lang::Es),
        "el caballo no puede ir a esa casilla"
    );
}
