//! Why a move is illegal, in the words a player understands.

use crate::attacks::between;
use crate::{Bitboard, CastlingSide, Move, MoveKind, Position, Rank, Role};

/// A move that was refused, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move that was tried.
    pub mv: Move,
    /// Why it is not legal.
    pub reason: IllegalReason,
}

/// Why a move is not legal in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// There is no piece on the origin square.
    NoPiece,
    /// The piece on the origin square belongs to the opponent.
    OpponentPiece,
    /// The destination holds one of the mover's own pieces.
    OwnPieceOnTarget,
    /// That piece does not move that way (or something stands in its path).
    CannotReach(Role),
    /// A pawn reaching the last row must be promoted (FIDE 3.7.5).
    PromotionRequired,
    /// Only a pawn reaching the last row is promoted, and only to D, T, A or C.
    InvalidPromotion,
    /// The king or that rook has moved: the castling right is gone.
    CastlingRightLost,
    /// A piece stands between the king and the rook.
    CastlingBlocked,
    /// One may not castle out of check.
    CastlingInCheck,
    /// The king would cross or land on an attacked square.
    CastlingThroughCheck,
    /// En passant is possible only right after the double step, on that square.
    EnPassantNotAvailable,
    /// The side to move is in check and this move does not answer it.
    DoesNotAnswerCheck,
    /// After the move the mover's king would be attacked.
    LeavesKingInCheck,
}

impl Position {
    /// Plays `m` if it is legal; otherwise leaves the position unchanged and says
    /// why the move is illegal.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMove {
                mv: m,
                reason: self.illegal_reason(m),
            })
        }
    }

    /// Why `m` is illegal here (meaningful only for a move that is not legal; for a
    /// legal move the answer is not defined).
    pub fn illegal_reason(&self, m: Move) -> IllegalReason {
        let us = self.turn();
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.piece_at(from) else {
            return IllegalReason::NoPiece;
        };
        if piece.color != us {
            return IllegalReason::OpponentPiece;
        }
        match m.kind() {
            MoveKind::Castle => {
                if piece.role != Role::King {
                    return IllegalReason::CannotReach(piece.role);
                }
                let side = CastlingSide::from_king_to(to);
                if to != side.king_to(us) {
                    return IllegalReason::CannotReach(Role::King);
                }
                let Some(rook) = self.castling_rights().rook(us, side) else {
                    return IllegalReason::CastlingRightLost;
                };
                let rook_to = side.rook_to(us);
                let path = between(from, to).with(to) | between(rook, rook_to).with(rook_to);
                if (path & self.occupied().without(from).without(rook)).any() {
                    return IllegalReason::CastlingBlocked;
                }
                if self.is_check() {
                    return IllegalReason::CastlingInCheck;
                }
                return IllegalReason::CastlingThroughCheck;
            }
            MoveKind::EnPassant => {
                if piece.role != Role::Pawn
                    || self.ep_square() != Some(to)
                    || !self.reaches_diagonal(m)
                {
                    return IllegalReason::EnPassantNotAvailable;
                }
            }
            MoveKind::Normal | MoveKind::Promotion(_) => {
                if self.by_color(us).contains(to) {
                    return IllegalReason::OwnPieceOnTarget;
                }
                if !self.reaches(piece.role, us, from, to) {
                    return IllegalReason::CannotReach(piece.role);
                }
                let last = Bitboard::rank(Rank::EIGHTH.relative_to(us)).contains(to);
                match (piece.role == Role::Pawn && last, m.promotion_role()) {
                    (true, None) => return IllegalReason::PromotionRequired,
                    (false, Some(_)) => return IllegalReason::InvalidPromotion,
                    _ => {}
                }
            }
        }
        if self.is_check() {
            IllegalReason::DoesNotAnswerCheck
        } else {
            IllegalReason::LeavesKingInCheck
        }
    }

    fn reaches_diagonal(&self, m: Move) -> bool {
        crate::attacks::pawn_attacks(self.turn(), m.from()).contains(m.to())
    }
}
