//! The static analysis: which squares each piece can ever reach, which
//! pieces can never move nor be captured, and what follows for mates.

use crate::attacks::{
    attacks, between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks, rook_attacks,
};
use crate::{Bitboard, Color, Position, Rank, Role, Square};

// ---------------------------------------------------------------------------
// Static analysis.
// ---------------------------------------------------------------------------

/// What the "always mates" filter needs in a round of the fixpoint.
struct MatingContext {
    winner: Color,
    /// The winner's king, which never moves.
    king: Square,
    /// Squares the winner's pieces but the king may ever attack.
    covers: Bitboard,
    /// The winner's steady pieces.
    blocked: Bitboard,
    /// Squares that may ever be occupied.
    ever: Bitboard,
    /// The squares each of the loser's pieces always attacks (its starting
    /// square first), so that the moving piece's own share can be left out.
    loser_parts: arrayvec::ArrayVec<(Square, Bitboard), 32>,
}

/// What the "always lost" filter needs in a round of the fixpoint: see
/// [`SacrificeContext::always_lost`].
struct SacrificeContext {
    /// The loser's king, which never moves.
    king: Square,
    /// The loser's steady pieces.
    steady: Bitboard,
    /// Squares the winner's king attacks from every square of its reach.
    wk_always: Bitboard,
    /// Squares the winner's king may ever attack.
    wk_ever: Bitboard,
    /// Squares that may ever be occupied.
    ever: Bitboard,
    /// Each of the loser's non-king pieces that counts for the squares
    /// attacked for ever: its reach and the squares it always attacks.
    loser_parts: arrayvec::ArrayVec<(Bitboard, Bitboard), 32>,
}

impl SacrificeContext {
    /// True if the winner's only piece besides its king (`role`), moving to
    /// `to`, is always lost at once, so that the analysis may leave the move
    /// out: after it the winner can never mate.
    ///
    /// Soundness, for any position of a continuation in which the fixpoint's
    /// sets hold and the move is played:
    /// * it gives check: the piece on `to` attacks the loser's king (which
    ///   never moves) with every square that may ever be occupied in the way,
    ///   so the check cannot be blocked;
    /// * the loser's king has no other square: each one around it holds one
    ///   of the loser's steady pieces, is attacked from `to` (with every
    ///   square that may ever be occupied in the way, but the king's own), or
    ///   is attacked by the winner's king wherever it stands;
    /// * so every legal reply takes the piece on `to`, and there is one: a
    ///   loser's piece that is never captured and cannot be the one taken on
    ///   `to` (its reach does not hold `to`) attacks `to` for ever, or the
    ///   loser's king stands next to `to` and the winner's king can never
    ///   defend it. The move is therefore no mate, and after the reply the
    ///   winner has a bare king.
    fn always_lost(&self, role: Role, color: Color, to: Square) -> bool {
        if !attacks(role, color, to, self.ever).contains(self.king) {
            return false;
        }
        let from_to = attacks(role, color, to, self.ever.without(self.king));
        let flights = king_attacks(self.king).without(to);
        if (flights & !self.steady & !from_to & !self.wk_always).any() {
            return false;
        }
        let by_king = king_attacks(self.king).contains(to) && !self.wk_ever.contains(to);
        by_king
            || self
                .loser_parts
                .iter()
                .any(|&(reach, att)| !reach.contains(to) && att.contains(to))
    }
}

/// The most fixpoints one case split may run.
const SPLIT_ANALYSES: u32 = 96;

/// Which squares each piece can ever reach, which pieces can never move nor
/// be captured, and what follows for mates.
///
/// The fixpoint starts from "every piece stays where it is" and grows each
/// piece's set of reachable squares by the moves it could make from any of
/// them, with only steady pieces (those that provably never move nor are
/// captured) standing in the way, pawns capturing only where an enemy piece
/// may stand, and kings never entering a square a steady enemy piece attacks
/// for ever. A piece stops being steady as soon as it could move or an enemy
/// piece could reach its square. At the fixpoint, by induction over any legal
/// continuation, every piece stays within its set and every steady piece stays
/// put: the sets are sound over-approximations.
#[derive(Clone, Debug)]
pub struct StaticAnalysis {
    /// Pieces as they stand: square, colour, kind.
    pieces: Vec<(Square, Color, Role)>,
    /// Reachable squares of the piece that started on each square.
    reach: [Bitboard; 64],
    /// Squares of the pieces that never move nor are captured.
    steady: Bitboard,
    /// Pawns that might promote.
    promotable: Bitboard,
    /// Castling rights or an en passant square make the analysis give up.
    gave_up: bool,
    /// Case-split assumption "not captured before it first moves": while the
    /// piece on such a square has never moved (it is steady), no enemy piece
    /// enters its square. See [`StaticAnalysis::proves_unwinnable_split`].
    guarded: Bitboard,
    /// Case-split assumption "never moves": the piece on such a square keeps
    /// its square until it is captured there (if ever).
    frozen: Bitboard,
    /// Pieces that never move but might be captured, as first found by the
    /// fixpoint (before any pawn could promote): the candidates of the case
    /// split.
    split_candidates: Bitboard,
    /// The side in check in the analysed position, if any.
    in_check: Option<Color>,
    /// The intended winner, when the analysis is made for one: the other
    /// side's moves that always mate it end the game and are left out.
    winner: Option<Color>,
    /// The intended winner has one piece besides its king: see
    /// [`StaticAnalysis::capture_zone`].
    lone_winner: bool,
}

impl StaticAnalysis {
    /// Runs the fixpoint on `pos`.
    pub fn new(pos: &Position) -> StaticAnalysis {
        StaticAnalysis::with_cases(pos, Bitboard::EMPTY, Bitboard::EMPTY, None)
    }

    /// Runs the fixpoint on `pos` under the case-split assumptions: the
    /// pieces on `guarded` are not captured before they first move, those on
    /// `frozen` never move (but may be captured where they stand). The
    /// result holds only for the continuations that satisfy both.
    fn with_cases(
        pos: &Position,
        guarded: Bitboard,
        frozen: Bitboard,
        winner: Option<Color>,
    ) -> StaticAnalysis {
        let mut sa = StaticAnalysis {
            pieces: Vec::with_capacity(32),
            reach: [Bitboard::EMPTY; 64],
            steady: pos.occupied(),
            promotable: Bitboard::EMPTY,
            gave_up: pos.castling_rights() != crate::CastlingRights::NONE
                || pos.ep_square().is_some(),
            guarded,
            frozen,
            split_candidates: Bitboard::EMPTY,
            in_check: pos.is_check().then(|| pos.turn()),
            winner,
            lone_winner: winner
                .is_some_and(|w| (pos.by_color(w) & !pos.by_role(Role::King)).count() == 1),
        };
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                sa.pieces.push((sq, p.color, p.role));
                sa.reach[sq.index()] = Bitboard::from_square(sq);
            }
        }
        if !sa.gave_up {
            sa.saturate();
        }
        sa
    }

    /// The squares the piece now on `sq` may ever stand on (an
    /// over-approximation); empty if no piece stands there.
    pub fn reachable(&self, sq: Square) -> Bitboard {
        self.reach[sq.index()]
    }

    /// The pieces that provably never move nor are captured.
    pub fn steady(&self) -> Bitboard {
        self.steady
    }

    fn union_reach(&self, color: Option<Color>, non_king: bool) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for &(sq, c, r) in &self.pieces {
            if color.is_some_and(|want| want != c) || (non_king && r == Role::King) {
                continue;
            }
            b |= self.reach[sq.index()];
        }
        b
    }

    /// Squares where `color`'s pieces may ever capture: the reach of each
    /// piece but its pawns, and for a pawn the squares of its reach that are
    /// also diagonally in front of a square of its reach (a pawn captures
    /// only diagonally forward, from a square where it stood; a square it
    /// reaches only by pushes is never a capture).
    ///
    /// When the analysis is made for a winner with a single piece besides
    /// its king, the loser's captures are left out altogether (empty zone,
    /// and the loser's pawns never capture): the only piece the loser can
    /// ever capture is that one (kings are never captured), and after that
    /// capture the winner has a bare king and can never mate, so nothing
    /// after it matters to the proof. The sets then cover every
    /// continuation up to that capture.
    fn capture_zone(&self, color: Color) -> Bitboard {
        if self.lone_winner && self.winner != Some(color) {
            return Bitboard::EMPTY;
        }
        let mut b = Bitboard::EMPTY;
        for &(sq, c, r) in &self.pieces {
            if c != color {
                continue;
            }
            let reach = self.reach[sq.index()];
            if r == Role::Pawn && !self.promotable.contains(sq) {
                let mut diag = Bitboard::EMPTY;
                for s in reach {
                    diag |= pawn_attacks(c, s);
                }
                b |= reach & diag;
            } else {
                b |= reach;
            }
        }
        b
    }

    /// Squares the piece that started on `sq` (`color`'s `role`) may ever
    /// attack from a square of its reach, with `occ` in the way; as a queen
    /// or a knight too where it may promote.
    fn ever_attacked_by(&self, sq: Square, color: Color, role: Role, occ: Bitboard) -> Bitboard {
        let promoted = self.promotable.contains(sq);
        let mut att = Bitboard::EMPTY;
        for t in self.reach[sq.index()] {
            att |= attacks(role, color, t, occ);
            if promoted {
                att |= queen_attacks(t, occ) | knight_attacks(t);
            }
        }
        att
    }

    /// Squares always attacked by `color`'s steady pieces, whatever else
    /// stands on the board.
    fn always_attacked(&self, color: Color, ever_occupied: Bitboard, kings: bool) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        self.each_always_attacking(color, ever_occupied, kings, |_, att| b |= att);
        b
    }

    /// Squares always attacked by a pen of `color`'s bishops: two or more
    /// bishops whose reaches, joined, make a set `R` on which no other
    /// piece of either side may ever stand. They never leave `R` (each stays
    /// within its reach), are never captured (the capturer would stand on
    /// `R`) and nothing else enters `R`, so `R` always holds exactly these
    /// `k` bishops and `|R| - k` empty squares. A square attacked, whichever
    /// `|R| - k` squares of `R` are empty, by a bishop on one of the others
    /// (with every square any piece may ever stand on, but those empty ones,
    /// in the way) is attacked in every position the analysis covers,
    /// though no single bishop attacks it for ever: a pawn guarded by
    /// whichever bishop of a crowded pen stands behind it. Pens of at most
    /// sixteen squares with at most two empty.
    fn pen_attacked(&self, color: Color, ever: Bitboard) -> Bitboard {
        let bishops = || {
            self.pieces
                .iter()
                .filter(move |p| p.1 == color && p.2 == Role::Bishop)
        };
        if bishops().nth(1).is_none() {
            return Bitboard::EMPTY;
        }
        // Bishops whose reaches meet, joined: (R, starting squares).
        let mut pens: arrayvec::ArrayVec<(Bitboard, Bitboard), 16> = arrayvec::ArrayVec::new();
        for &(sq, _, _) in bishops() {
            let mut joined = (self.reach[sq.index()], Bitboard::from_square(sq));
            let mut i = 0;
            while i < pens.len() {
                if (pens[i].0 & joined.0).any() {
                    let (r, starts) = pens.swap_remove(i);
                    joined = (joined.0 | r, joined.1 | starts);
                } else {
                    i += 1;
                }
            }
            pens.push(joined);
        }
        let mut b = Bitboard::EMPTY;
        for &(pen, starts) in &pens {
            let k = starts.count();
            let size = pen.count();
            if k < 2 || size > 16 || size > k + 2 {
                continue;
            }
            let intruded = self
                .pieces
                .iter()
                .any(|p| !starts.contains(p.0) && (self.reach[p.0.index()] & pen).any());
            if intruded {
                continue;
            }
            let attacked_with = |empty: Bitboard| {
                let mut att = Bitboard::EMPTY;
                for r in pen & !empty {
                    att |= bishop_attacks(r, ever & !empty);
                }
                att
            };
            let squares: arrayvec::ArrayVec<Square, 16> = pen.into_iter().collect();
            let mut always = Bitboard::FULL;
            match size - k {
                0 => always = attacked_with(Bitboard::EMPTY),
                1 => {
                    for &e in &squares {
                        always &= attacked_with(Bitboard::from_square(e));
                    }
                }
                _ => {
                    for (i, &e) in squares.iter().enumerate() {
                        for &f in &squares[i + 1..] {
                            always &=
                                attacked_with(Bitboard::from_square(e) | Bitboard::from_square(f));
                        }
                    }
                }
            }
            b |= always;
        }
        b
    }

    /// [`StaticAnalysis::always_attacked`] piece by piece: the starting
    /// square of each piece that counts, with the squares it always attacks.
    fn always_attacked_parts(
        &self,
        color: Color,
        ever_occupied: Bitboard,
    ) -> arrayvec::ArrayVec<(Square, Bitboard), 32> {
        let mut parts = arrayvec::ArrayVec::new();
        self.each_always_attacking(color, ever_occupied, true, |sq, att| parts.push((sq, att)));
        parts
    }

    /// Calls `f` with each of `color`'s pieces (kings too if `kings`) that
    /// counts for [`StaticAnalysis::always_attacked`], and the squares it
    /// always attacks (when there are any).
    fn each_always_attacking(
        &self,
        color: Color,
        ever_occupied: Bitboard,
        kings: bool,
        mut f: impl FnMut(Square, Bitboard),
    ) {
        // A piece no enemy piece can ever meet is never captured: wherever
        // it stands within its reach, it attacks what it attacks from every
        // square of the reach (with every square that may ever be occupied
        // in the way). Pawns that may promote change kind and are left out.
        // A king counts its own square too: wherever it stands in its reach,
        // the other king can never step there, on it or next to it.
        let enemies = self.capture_zone(color.other());
        for &(sq, c, r) in &self.pieces {
            if c != color || self.promotable.contains(sq) || (!kings && r == Role::King) {
                continue;
            }
            let reach = self.reach[sq.index()];
            if r != Role::King && (reach & enemies).any() && !self.steady.contains(sq) {
                continue;
            }
            let mut att = Bitboard::FULL;
            for t in reach {
                let own = if r == Role::King {
                    Bitboard::from_square(t)
                } else {
                    Bitboard::EMPTY
                };
                att &= attacks(r, c, t, ever_occupied) | own;
                if att.is_empty() {
                    break;
                }
            }
            if att.any() {
                f(sq, att);
            }
        }
    }

    fn saturate(&mut self) {
        loop {
            let ever = self.union_reach(None, false);
            let occupiable = [
                self.union_reach(Some(Color::White), true),
                self.union_reach(Some(Color::Black), true),
            ];
            let always = [Color::White, Color::Black]
                .map(|c| self.always_attacked(c, ever, true) | self.pen_attacked(c, ever));
            let steady_kings = self.steady & self.king_squares();
            let mating = self.mating_context(ever);
            let sacrifice = self.sacrifice_context(ever);
            // A side whose other pieces can never move: a king move of the
            // other side that leaves its king no square is a stalemate.
            let frozen = [Color::White, Color::Black].map(|c| {
                self.pieces.iter().all(|&(sq, pc, r)| {
                    pc != c
                        || r == Role::King
                        || self.reach[sq.index()] == Bitboard::from_square(sq)
                })
            });
            // Our pieces' attacks but the king's, with our king anywhere
            // it or a step from it may be in the way (for the stalemates).
            let others = [Color::White, Color::Black].map(|c| {
                if !frozen[c.other().index()] {
                    return Bitboard::EMPTY;
                }
                let mut around = Bitboard::EMPTY;
                for &(sq, pc, r) in &self.pieces {
                    if pc == c && r == Role::King {
                        for k in self.reach[sq.index()] {
                            around |= king_attacks(k);
                        }
                    }
                }
                self.always_attacked(c, ever | around, false)
            });
            let mut changed = false;
            for i in 0..self.pieces.len() {
                let (orig, color, role) = self.pieces[i];
                let old = self.reach[orig.index()];
                if old == Bitboard::FULL || self.frozen.contains(orig) {
                    continue;
                }
                let friends_steady = self.steady & self.color_squares(color);
                // Enemy pieces assumed not captured while they stay put.
                let guarded = self.steady & self.guarded & !self.color_squares(color);
                let no_pass = if role == Role::Pawn {
                    self.no_pass_zone(i)
                } else {
                    Bitboard::EMPTY
                };
                let mut new = old;
                for s in old {
                    let targets = match role {
                        Role::Pawn => {
                            let one = Bitboard::from_square(s).forward(color) & !self.steady;
                            let mut t = one & !no_pass;
                            if !self.lone_winner || self.winner == Some(color) {
                                t |= pawn_attacks(color, s) & occupiable[color.other().index()];
                            }
                            if let Some(m) = mating.as_ref().filter(|m| color != m.winner) {
                                t = t
                                    .into_iter()
                                    .filter(|&x| !self.always_mates(m, orig, role, color, x))
                                    .collect();
                            }
                            if one.any() && s.rank() == Rank::SECOND.relative_to(color) {
                                t |= one.forward(color) & !self.steady & !no_pass;
                            }
                            t
                        }
                        Role::King => {
                            let t = king_attacks(s) & !always[color.other().index()];
                            if frozen[color.other().index()] {
                                self.drop_stalemates(color, s, t, others[color.index()])
                            } else {
                                t
                            }
                        }
                        _ => {
                            let t = attacks(role, color, s, self.steady);
                            match (&mating, &sacrifice) {
                                (Some(m), _) if color != m.winner => t
                                    .into_iter()
                                    .filter(|&x| !self.always_mates(m, orig, role, color, x))
                                    .collect(),
                                (_, Some(c)) if self.winner == Some(color) => t
                                    .into_iter()
                                    .filter(|&x| !c.always_lost(role, color, x))
                                    .collect(),
                                _ => t,
                            }
                        }
                    };
                    new |= targets & !friends_steady & !steady_kings & !guarded;
                }
                if role == Role::Pawn
                    && (new & Bitboard::rank(Rank::EIGHTH.relative_to(color))).any()
                {
                    self.promotable |= Bitboard::from_square(orig);
                    new = Bitboard::FULL;
                }
                if new != old {
                    self.reach[orig.index()] = new;
                    changed = true;
                }
            }
            // Steady: never moves, and no enemy piece can capture on its
            // square (kings are never captured).
            let zones = [
                self.capture_zone(Color::White),
                self.capture_zone(Color::Black),
            ];
            let mut steady = Bitboard::EMPTY;
            let mut stuck = Bitboard::EMPTY;
            for &(sq, c, r) in &self.pieces {
                let stays = self.reach[sq.index()] == Bitboard::from_square(sq);
                let safe = r == Role::King || !zones[c.other().index()].contains(sq);
                if stays && safe {
                    steady |= Bitboard::from_square(sq);
                } else if stays {
                    stuck |= Bitboard::from_square(sq);
                }
            }
            // The case split's candidates: the first pieces found stuck but
            // capturable, and more while no pawn may promote.
            if self.split_candidates.is_empty() || self.promotable.is_empty() {
                self.split_candidates |= stuck;
            }
            if steady != self.steady {
                self.steady = steady;
                changed = true;
            }
            if !changed {
                break;
            }
        }
    }

    /// The king of `color` moving from `from`: drops the targets where it
    /// would stalemate the other side, whose non-king pieces can never move
    /// (checked by the caller). Wherever the other king stands in its reach
    /// (and not next to ours), each square around it is next to our king,
    /// attacked by one of our other pieces that are never captured
    /// (`others`, computed with our king around `from` in the way), or
    /// holds one of its steady pieces. A king move gives no check but a
    /// discovered one, so the filter is not used where one of our line
    /// pieces may stand on a line through `from` that the other king may
    /// stand on too.
    fn drop_stalemates(
        &self,
        color: Color,
        from: Square,
        targets: Bitboard,
        others: Bitboard,
    ) -> Bitboard {
        let them = color.other();
        let Some(their_king) = self.king_start(them) else {
            return targets;
        };
        let region = self.reach[their_king.index()];
        let their_steady = self.steady & self.color_squares(them);
        let mut open_lines: arrayvec::ArrayVec<Bitboard, 4> = arrayvec::ArrayVec::new();
        for (df, dr, diagonal) in [(1, 0, false), (0, 1, false), (1, 1, true), (1, -1, true)] {
            let Some(next) = from.offset(df, dr).or_else(|| from.offset(-df, -dr)) else {
                continue;
            };
            // What is seen from `from` along the line past steady pieces
            // only (they never leave it).
            let rays = if diagonal {
                bishop_attacks(from, self.steady)
            } else {
                rook_attacks(from, self.steady)
            };
            let l = line(from, next) & rays;
            if (l & region).is_empty() {
                continue;
            }
            let slider = self.pieces.iter().any(|&(sq, c, r)| {
                let kind = self.promotable.contains(sq)
                    || r == Role::Queen
                    || r == if diagonal { Role::Bishop } else { Role::Rook };
                c == color && kind && (self.reach[sq.index()] & l).any()
            });
            if slider {
                open_lines.push(l);
            }
        }
        let mut kept = targets;
        for t in targets {
            if open_lines.iter().any(|l| !l.with(from).contains(t)) {
                continue;
            }
            let covered = king_attacks(t).with(t);
            let blocked = covered | others | their_steady;
            if (region & !covered)
                .into_iter()
                .all(|q| (king_attacks(q) & !blocked).is_empty())
            {
                kept = kept.without(t);
            }
        }
        kept
    }

    /// What [`SacrificeContext::always_lost`] needs, computed once a round:
    /// `None` unless the analysis is made for a winner with one piece
    /// besides its king, and the loser's king never moves.
    fn sacrifice_context(&self, ever: Bitboard) -> Option<SacrificeContext> {
        let winner = self.winner.filter(|_| self.lone_winner)?;
        let loser = winner.other();
        let king = self.unmoving_king(loser)?;
        let wk = self.king_start(winner)?;
        let mut wk_always = Bitboard::FULL;
        let mut wk_ever = Bitboard::EMPTY;
        for k in self.reach[wk.index()] {
            wk_always &= king_attacks(k);
            wk_ever |= king_attacks(k);
        }
        let mut loser_parts = arrayvec::ArrayVec::new();
        self.each_always_attacking(loser, ever, false, |sq, att| {
            loser_parts.push((self.reach[sq.index()], att));
        });
        Some(SacrificeContext {
            king,
            steady: self.steady & self.color_squares(loser),
            wk_always,
            wk_ever,
            ever,
            loser_parts,
        })
    }

    /// What [`StaticAnalysis::always_mates`] needs, computed once a round:
    /// `None` unless the analysis is made for a winner whose king never
    /// moves.
    fn mating_context(&self, ever: Bitboard) -> Option<MatingContext> {
        let winner = self.winner?;
        let king = self.unmoving_king(winner)?;
        let mut covers = Bitboard::EMPTY;
        for &(sq, c, r) in &self.pieces {
            if c != winner || r == Role::King {
                continue;
            }
            covers |= self.ever_attacked_by(sq, c, r, self.steady);
        }
        Some(MatingContext {
            winner,
            king,
            covers,
            blocked: self.steady & self.color_squares(winner),
            ever,
            loser_parts: self.always_attacked_parts(winner.other(), ever),
        })
    }

    /// True if a move of the loser's piece that started on `orig` (`role`)
    /// to `to` always mates the winner, whose king never moves, so that the
    /// game ends there without a mate by the winner and the analysis may
    /// leave the move out.
    ///
    /// Soundness, for any position of a continuation in which the fixpoint's
    /// sets hold (the induction of the fixpoint) and the move is played:
    /// * it gives check: the piece on `to` attacks the king with every square
    ///   that may ever be occupied in the way (`ever`), so the squares between
    ///   are empty and stay so: a contact check (a knight's, a pawn's, or a
    ///   queen's, rook's or bishop's from next to the king), or a line no
    ///   piece can ever stand on. No winner's piece can block it;
    /// * no winner's piece but the king may ever attack `to` (`covers`, with
    ///   promoted pawns as queens and knights), so none takes the checker; next
    ///   to the king, `to` is attacked for ever by the loser's pieces that are
    ///   never captured, the moving piece left out (it stands on `to` now, not
    ///   within its reach), so the king cannot take either;
    /// * every square around the king holds one of the winner's steady pieces,
    ///   is attacked for ever by the loser's other pieces, or is attacked by
    ///   the piece on `to` with every square that may ever be occupied in the
    ///   way (but the king's own square, which it leaves): the king has no
    ///   flight, and it is mate.
    ///
    /// A pawn's move to the last rank (it becomes another piece) and its
    /// double step (the winner might take it en passant, from a square
    /// `covers` does not look at) are not left out.
    fn always_mates(
        &self,
        m: &MatingContext,
        orig: Square,
        role: Role,
        color: Color,
        to: Square,
    ) -> bool {
        if m.covers.contains(to)
            || (role == Role::Pawn && to.rank() == Rank::EIGHTH.relative_to(color))
            || !attacks(role, color, to, m.ever).contains(m.king)
        {
            return false;
        }
        let loser_always = m
            .loser_parts
            .iter()
            .filter(|p| p.0 != orig)
            .fold(Bitboard::EMPTY, |b, p| b | p.1);
        if king_attacks(m.king).contains(to) && !loser_always.contains(to) {
            return false;
        }
        let from_to = attacks(role, color, to, m.ever.without(m.king));
        (king_attacks(m.king).without(to) & !m.blocked & !loser_always & !from_to).is_empty()
    }

    /// For the pawn `pieces[i]`: squares of its file it can never push to
    /// because an enemy pawn stands ahead on the same file, neither pawn can
    /// ever leave the file (both only push, never capture) and the enemy pawn
    /// can never be captured. Two such pawns never pass each other, so the
    /// pawn stays short of the enemy pawn's present square.
    fn no_pass_zone(&self, i: usize) -> Bitboard {
        let (orig, color, _) = self.pieces[i];
        let file = Bitboard::file(orig.file());
        if (self.reach[orig.index()] & !file).any() {
            return Bitboard::EMPTY;
        }
        let mut zone = Bitboard::EMPTY;
        for (j, &(q, qc, qr)) in self.pieces.iter().enumerate() {
            if j == i || qc == color || qr != Role::Pawn || q.file() != orig.file() {
                continue;
            }
            let ahead = match color {
                Color::White => q.rank().index() > orig.rank().index(),
                Color::Black => q.rank().index() < orig.rank().index(),
            };
            let q_reach = self.reach[q.index()];
            if !ahead || (q_reach & !file).any() {
                continue;
            }
            let capturable = self.pieces.iter().enumerate().any(|(k, &(x, xc, _))| {
                k != i && xc == color && (self.reach[x.index()] & q_reach).any()
            });
            if capturable {
                continue;
            }
            let beyond: Bitboard = file
                .filter(|t| match color {
                    Color::White => t.rank().index() >= q.rank().index(),
                    Color::Black => t.rank().index() <= q.rank().index(),
                })
                .collect();
            zone |= beyond;
        }
        zone
    }

    /// The square `color`'s king stands on in the analysed position.
    fn king_start(&self, color: Color) -> Option<Square> {
        self.pieces
            .iter()
            .find(|p| p.1 == color && p.2 == Role::King)
            .map(|p| p.0)
    }

    /// `color`'s king's square, if the king never moves (its reach is that
    /// square alone).
    fn unmoving_king(&self, color: Color) -> Option<Square> {
        self.king_start(color)
            .filter(|k| self.reach[k.index()] == Bitboard::from_square(*k))
    }

    fn king_squares(&self) -> Bitboard {
        self.pieces
            .iter()
            .filter(|p| p.2 == Role::King)
            .map(|p| p.0)
            .collect()
    }

    fn color_squares(&self, color: Color) -> Bitboard {
        self.pieces
            .iter()
            .filter(|p| p.1 == color)
            .map(|p| p.0)
            .collect()
    }

    /// Runs the analysis on `pos` and says whether it proves that `winner`
    /// can never mate, splitting into cases on pieces that never move but
    /// might be captured where they stand when the plain analysis does not
    /// prove it (two levels deep, at most 96 fixpoints).
    ///
    /// Soundness of the split: take such a piece P on square `s`. In any
    /// continuation, either P is not captured on `s` before it first leaves
    /// `s` (case "guarded": the fixpoint lets no enemy piece enter `s` while
    /// P has never moved; once it lets P move, the assumption restricts
    /// nothing), or it is captured there before it ever moved. In the second
    /// case, every position before the capture has P on `s`, never moved and
    /// not yet captured: the fixpoint with P frozen and guarded covers them;
    /// every position after it is covered by that fixpoint run again from
    /// the squares each piece may then stand on, without P (see
    /// `after_capture`). Each fixpoint over-approximates the continuations
    /// that satisfy its assumptions, the cases cover every continuation, so a
    /// proof in every case is a proof. Inside the guarded case the split is
    /// applied again to another piece, keeping the first assumption (the
    /// fixpoint after a capture drops the assumptions, which only weakens
    /// it).
    pub fn proves_unwinnable_split(pos: &Position, winner: Color) -> bool {
        let mut left = SPLIT_ANALYSES;
        Self::split(pos, winner, Bitboard::EMPTY, 2, &mut left)
    }

    fn split(
        pos: &Position,
        winner: Color,
        guarded: Bitboard,
        levels: u32,
        left: &mut u32,
    ) -> bool {
        *left = left.saturating_sub(1);
        let sa = StaticAnalysis::with_cases(pos, guarded, Bitboard::EMPTY, Some(winner));
        if sa.proves_unwinnable(winner) {
            return true;
        }
        if sa.gave_up || levels == 0 {
            return false;
        }
        for s in (sa.split_candidates & !guarded).into_iter().take(12) {
            if *left == 0 {
                return false;
            }
            let one = Bitboard::from_square(s);
            if !Self::split(pos, winner, guarded | one, levels - 1, left) {
                continue;
            }
            *left = left.saturating_sub(2);
            let before = StaticAnalysis::with_cases(pos, guarded | one, one, Some(winner));
            if !before.proves_unwinnable(winner) {
                continue;
            }
            if before
                .after_capture(s)
                .is_none_or(|after| after.proves_unwinnable(winner))
            {
                return true;
            }
        }
        false
    }

    /// The case "captured on `s` before it ever moved", after the capture:
    /// `self` is the fixpoint in which the piece on `s` never moves and no
    /// enemy enters `s` (true of every position before the capture). Right
    /// after the capture every other piece stands within its reach here and
    /// the capturer on `s`; the capturer is an enemy piece that attacked `s`
    /// from a square of its reach (with this fixpoint's steady pieces, which
    /// have not moved, in the way). Runs the fixpoint again from these sets,
    /// without the captured piece, so that the result covers every position
    /// after the capture. `None` if no piece can ever capture there.
    fn after_capture(&self, s: Square) -> Option<StaticAnalysis> {
        let &(_, color, _) = self.pieces.iter().find(|p| p.0 == s)?;
        let occ = self.steady.without(s);
        let mut next = self.clone();
        next.pieces.retain(|p| p.0 != s);
        next.reach[s.index()] = Bitboard::EMPTY;
        next.promotable = next.promotable.without(s);
        next.guarded = Bitboard::EMPTY;
        next.frozen = Bitboard::EMPTY;
        next.in_check = None;
        let mut any = false;
        for &(sq, c, r) in &next.pieces {
            if c == color {
                continue;
            }
            if next.ever_attacked_by(sq, c, r, occ).contains(s) {
                next.reach[sq.index()] = next.reach[sq.index()].with(s);
                any = true;
            }
        }
        if !any {
            return None;
        }
        next.steady = next
            .pieces
            .iter()
            .filter(|p| next.reach[p.0.index()] == Bitboard::from_square(p.0))
            .map(|p| p.0)
            .collect();
        next.saturate();
        Some(next)
    }

    /// True if the analysis proves that `winner` can never mate: no square the
    /// loser's king may stand on can be attacked by a winner's piece other than
    /// the king while every square around it could be taken away (by a loser's
    /// piece standing there or a winner's piece attacking it).
    pub fn proves_unwinnable(&self, winner: Color) -> bool {
        if self.gave_up {
            return false;
        }
        let loser = winner.other();
        let Some(lk) = self.king_start(loser) else {
            return false;
        };
        let occ = self.steady.without(lk);
        // Squares a winner's piece other than the king may ever attack
        // (`covers`), and those where it may ever give check (`checks`).
        //
        // A piece that never moves gives check only by discovery: the loser's
        // king is never in check after the loser's move, so the mating move
        // opens the line between that piece and the king, and a piece stood
        // on the line before: the winner's piece that moved (or a loser's
        // pawn taken en passant). Where no such piece may ever stand between,
        // that square is never checked by the piece; a knight, pawn or king
        // that never moves never gives check at all. (Not used when the loser
        // is in check in the analysed position itself.)
        let mut covers = Bitboard::EMPTY;
        let mut checks = Bitboard::EMPTY;
        let mut wk_reach = Bitboard::EMPTY;
        let loser_pawns = self
            .pieces
            .iter()
            .filter(|p| p.1 == loser && p.2 == Role::Pawn);
        let loser_pawns: Bitboard =
            loser_pawns.fold(Bitboard::EMPTY, |b, p| b | self.reach[p.0.index()]);
        for &(sq, c, r) in &self.pieces {
            if c != winner {
                continue;
            }
            if r == Role::King {
                wk_reach = self.reach[sq.index()];
                continue;
            }
            let att = self.ever_attacked_by(sq, c, r, occ);
            covers |= att;
            if self.reach[sq.index()] != Bitboard::from_square(sq) || self.in_check == Some(loser) {
                checks |= att;
                continue;
            }
            let mut openers = loser_pawns;
            for &(o, oc, _) in &self.pieces {
                if oc == winner && o != sq && !self.steady.contains(o) {
                    openers |= self.reach[o.index()];
                }
            }
            for k in att {
                if (between(sq, k) & openers).any() {
                    checks |= Bitboard::from_square(k);
                }
            }
        }
        // What each of the loser's other pieces may ever stand on: each one
        // blocks at most one flight square of its king at a time.
        let mut blockers: arrayvec::ArrayVec<Bitboard, 32> = arrayvec::ArrayVec::new();
        for &(sq, c, r) in &self.pieces {
            if c == loser && r != Role::King {
                blockers.push(self.reach[sq.index()]);
            }
        }
        let lk_reach = self.reach[lk.index()];
        for k in lk_reach {
            if !checks.contains(k) {
                continue;
            }
            // A flight square the king can never stand on is always blocked
            // or attacked when the king is next to it (the reach is closed
            // under the king's moves); one a non-king winner's piece may
            // attack counts as covered. The rest: the winner's king from
            // one square at least two away, and distinct loser's pieces.
            let flights = king_attacks(k) & lk_reach & !covers;
            if flights.is_empty() {
                return false;
            }
            let mut tried: arrayvec::ArrayVec<Bitboard, 64> = arrayvec::ArrayVec::new();
            tried.push(Bitboard::EMPTY);
            for w in wk_reach {
                if w.distance(k) >= 2 {
                    let cover = king_attacks(w) & flights;
                    if !tried.contains(&cover) {
                        tried.push(cover);
                    }
                }
            }
            for &cover in &tried {
                if matchable(flights & !cover, &blockers, 0) {
                    return false;
                }
            }
        }
        true
    }
}

/// Whether each square of `squares` can be given its own piece among
/// `blockers` (each the set of squares one piece may stand on), not using
/// the pieces in the bit mask `used`.
fn matchable(squares: Bitboard, blockers: &[Bitboard], used: u32) -> bool {
    let Some(s) = squares.first() else {
        return true;
    };
    let rest = squares.without(s);
    blockers.iter().enumerate().any(|(i, b)| {
        used & (1 << i) == 0 && b.contains(s) && matchable(rest, blockers, used | (1 << i))
    })
}
