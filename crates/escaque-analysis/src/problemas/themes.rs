//! The tagger: a puzzle's themes, with the definitions of lichess's tagger
//! (lichess-puzzler's `tagger/cook.py`, read and written again here on
//! escaque's board), keyed as lichess writes them (`fork`, `mateIn2`) and
//! named in Spanish and English for people.
//!
//! The moves are numbered as in the CSV: move 0 is the opponent's, the
//! solver plays the odd ones. `b(i)` is the position before move `i` (so
//! `b(i + 1)` is the one after it). Where lichess's definitions lean on an
//! accident of Python — a piece type's number compared with a piece's
//! value, a king on a1 read as "no king" — the same comparison is made, so
//! that the tags agree.
//!
//! Three kinds of theme do not come from `cook.py`: `zugzwang` (lichess's
//! `zugzwang.py`: the opponent would rather pass, by an engine's
//! evaluation; [`zugzwang`]), and the phase, `opening`, `middlegame` or
//! `endgame` (on lichess from the game's phase; here from the position
//! shown: [`phase`]).

use std::sync::atomic::AtomicBool;

use escaque::attacks::{attacks, between};
use escaque::{Bitboard, Color, Lang, Move, Piece, Position, Role, Square};

use super::generate::Criteria;
use super::Puzzle;
use crate::analyse::Evaluator;

/// A theme: lichess's key, the Spanish and the English name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    /// lichess's key, as the CSV writes it.
    pub key: &'static str,
    /// The name in Spanish.
    pub es: &'static str,
    /// The name in English.
    pub en: &'static str,
}

impl Theme {
    /// The name in `lang`.
    pub fn name(&self, lang: Lang) -> &'static str {
        lang.pick(self.es, self.en)
    }

    /// The theme with lichess's key `key`.
    pub fn from_key(key: &str) -> Option<&'static Theme> {
        THEMES.iter().find(|t| t.key == key)
    }
}

macro_rules! themes {
    ($($key:literal => $es:literal, $en:literal;)*) => {
        /// Every theme escaque tags or shows, in lichess's order of tagging.
        pub const THEMES: &[Theme] = &[$(Theme { key: $key, es: $es, en: $en }),*];
    };
}

themes! {
    "mateIn1" => "mate en 1", "mate in 1";
    "mateIn2" => "mate en 2", "mate in 2";
    "mateIn3" => "mate en 3", "mate in 3";
    "mateIn4" => "mate en 4", "mate in 4";
    "mateIn5" => "mate en 5 o más", "mate in 5 or more";
    "mate" => "mate", "checkmate";
    "smotheredMate" => "mate de la coz", "smothered mate";
    "backRankMate" => "mate del pasillo", "back-rank mate";
    "anastasiaMate" => "mate de Anastasia", "Anastasia's mate";
    "hookMate" => "mate del gancho", "hook mate";
    "arabianMate" => "mate árabe", "Arabian mate";
    "bodenMate" => "mate de Boden", "Boden's mate";
    "doubleBishopMate" => "mate de los dos alfiles", "double bishop mate";
    "dovetailMate" => "mate de la cola de paloma", "dovetail mate";
    "crushing" => "ventaja decisiva", "crushing";
    "advantage" => "ventaja", "advantage";
    "equality" => "igualdad", "equality";
    "attraction" => "atracción", "attraction";
    "deflection" => "desviación", "deflection";
    "advancedPawn" => "peón avanzado", "advanced pawn";
    "doubleCheck" => "jaque doble", "double check";
    "quietMove" => "jugada tranquila", "quiet move";
    "defensiveMove" => "jugada defensiva", "defensive move";
    "sacrifice" => "sacrificio", "sacrifice";
    "xRayAttack" => "ataque de rayos X", "x-ray attack";
    "fork" => "ataque doble", "fork";
    "hangingPiece" => "pieza colgada", "hanging piece";
    "trappedPiece" => "pieza atrapada", "trapped piece";
    "discoveredAttack" => "ataque a la descubierta", "discovered attack";
    "exposedKing" => "rey expuesto", "exposed king";
    "skewer" => "enfilada", "skewer";
    "interference" => "interferencia", "interference";
    "intermezzo" => "jugada intermedia", "intermezzo";
    "pin" => "clavada", "pin";
    "attackingF2F7" => "ataque a f2/f7", "attacking f2 or f7";
    "clearance" => "despeje", "clearance";
    "enPassant" => "captura al paso", "en passant";
    "castling" => "enroque", "castling";
    "promotion" => "coronación", "promotion";
    "underPromotion" => "subpromoción", "underpromotion";
    "capturingDefender" => "captura del defensor", "capture the defender";
    "pawnEndgame" => "final de peones", "pawn endgame";
    "queenEndgame" => "final de damas", "queen endgame";
    "rookEndgame" => "final de torres", "rook endgame";
    "bishopEndgame" => "final de alfiles", "bishop endgame";
    "knightEndgame" => "final de caballos", "knight endgame";
    "queenRookEndgame" => "final de dama y torre", "queen and rook endgame";
    "kingsideAttack" => "ataque en el flanco de rey", "kingside attack";
    "queensideAttack" => "ataque en el flanco de dama", "queenside attack";
    "oneMove" => "una jugada", "one move";
    "short" => "corto", "short";
    "long" => "largo", "long";
    "veryLong" => "muy largo", "very long";
    "zugzwang" => "zugzwang", "zugzwang";
    "opening" => "apertura", "opening";
    "middlegame" => "medio juego", "middlegame";
    "endgame" => "final", "endgame";
}

// ------------------------------------------------------------ the board

/// lichess's piece values (no king).
fn value(r: Role) -> Option<i32> {
    match r {
        Role::Pawn => Some(1),
        Role::Knight | Role::Bishop => Some(3),
        Role::Rook => Some(5),
        Role::Queen => Some(9),
        Role::King => None,
    }
}

/// Values with the king at 99.
fn king_value(r: Role) -> i32 {
    value(r).unwrap_or(99)
}

/// python-chess's piece type numbers (pawn 1 … king 6).
fn type_number(r: Role) -> i32 {
    r.index() as i32 + 1
}

fn is_ray(r: Role) -> bool {
    matches!(r, Role::Queen | Role::Rook | Role::Bishop)
}

/// The squares the piece on `sq` attacks.
fn attacks_from(pos: &Position, sq: Square) -> Bitboard {
    match pos.piece_at(sq) {
        Some(p) => attacks(p.role, p.color, sq, pos.occupied()),
        None => Bitboard::EMPTY,
    }
}

fn attackers(pos: &Position, color: Color, sq: Square) -> Bitboard {
    pos.attackers_to(sq, color, pos.occupied())
}

/// Opponent pieces (of `pov`'s opponent) attacked from `from`.
fn attacked_opponent_squares(pos: &Position, from: Square, pov: Color) -> Vec<(Piece, Square)> {
    attacks_from(pos, from)
        .filter_map(|s| pos.piece_at(s).filter(|p| p.color != pov).map(|p| (p, s)))
        .collect()
}

fn is_defended(pos: &Position, piece: Piece, sq: Square) -> bool {
    if attackers(pos, piece.color, sq).any() {
        return true;
    }
    // A defence through an attacking slider (x-ray).
    for a in attackers(pos, piece.color.other(), sq) {
        if pos.role_at(a).is_some_and(is_ray)
            && pos
                .attackers_to(sq, piece.color, pos.occupied().without(a))
                .any()
        {
            return true;
        }
    }
    false
}

fn is_hanging(pos: &Position, piece: Piece, sq: Square) -> bool {
    !is_defended(pos, piece, sq)
}

fn can_be_taken_by_lower_piece(pos: &Position, piece: Piece, sq: Square) -> bool {
    let Some(v) = value(piece.role) else {
        return false;
    };
    Iterator::any(&mut attackers(pos, piece.color.other(), sq), |a| {
        pos.role_at(a).and_then(value).is_some_and(|av| av < v)
    })
}

fn is_in_bad_spot(pos: &Position, sq: Square) -> bool {
    let Some(piece) = pos.piece_at(sq) else {
        return false;
    };
    attackers(pos, piece.color.other(), sq).any()
        && (is_hanging(pos, piece, sq) || can_be_taken_by_lower_piece(pos, piece, sq))
}

/// The line through `color`'s king and `sq` when the piece on `sq` is
/// pinned to it by an enemy slider; `None` when it is not pinned.
fn pin(pos: &Position, color: Color, sq: Square) -> Option<Bitboard> {
    let king = pos.king(color);
    if king == sq {
        return None;
    }
    let line = escaque::attacks::line(king, sq);
    if line.is_empty() {
        return None;
    }
    let orth = king.file() == sq.file() || king.rank() == sq.rank();
    let them = color.other();
    let snipers = if orth {
        pos.pieces(them, Role::Rook) | pos.pieces(them, Role::Queen)
    } else {
        pos.pieces(them, Role::Bishop) | pos.pieces(them, Role::Queen)
    };
    for s in snipers & line {
        let btw = between(king, s);
        if btw.contains(sq) && (btw & pos.occupied()) == Bitboard::from_square(sq) {
            return Some(line);
        }
    }
    None
}

fn is_trapped(pos: &Position, sq: Square) -> bool {
    if pos.is_check() || pin(pos, pos.turn(), sq).is_some() {
        return false;
    }
    let Some(piece) = pos.piece_at(sq) else {
        return false;
    };
    if matches!(piece.role, Role::Pawn | Role::King) {
        return false;
    }
    if !is_in_bad_spot(pos, sq) {
        return false;
    }
    for &m in pos.legal_moves().iter() {
        if m.from() != sq {
            continue;
        }
        if let Some(c) = pos.piece_at(m.to()) {
            if king_value(c.role) >= king_value(piece.role) {
                return false;
            }
        }
        let mut p = *pos;
        p.play_unchecked(m);
        if !is_in_bad_spot(&p, m.to()) {
            return false;
        }
    }
    true
}

/// The puzzle as the tagger reads it.
struct Line<'a> {
    pov: Color,
    boards: Vec<Position>,
    moves: &'a [Move],
}

impl Line<'_> {
    fn n(&self) -> usize {
        self.moves.len()
    }
    /// The position before move `i`.
    fn b(&self, i: usize) -> &Position {
        &self.boards[i]
    }
    fn m(&self, i: usize) -> Move {
        self.moves[i]
    }
    /// The solver's move indices, 1, 3, 5, …
    fn solver(&self) -> impl Iterator<Item = usize> + '_ {
        (1..self.n()).step_by(2)
    }
    /// The piece on the destination after move `i` (the promoted piece
    /// after a promotion).
    fn moved(&self, i: usize) -> Role {
        self.b(i + 1).role_at(self.m(i).to()).unwrap_or(Role::Pawn)
    }
    fn is_capture(&self, i: usize) -> bool {
        let m = self.m(i);
        m.is_en_passant() || (!m.is_castle() && self.b(i).piece_at(m.to()).is_some())
    }
    fn is_castling(&self, i: usize) -> bool {
        let m = self.m(i);
        self.moved(i) == Role::King && (m.is_castle() || m.from().distance(m.to()) > 1)
    }
    /// The side to move after move `i`.
    fn turn_after(&self, i: usize) -> Color {
        self.b(i + 1).turn()
    }
    fn is_advanced_pawn_move(&self, i: usize) -> bool {
        let m = self.m(i);
        if m.promotion_role().is_some() {
            return true;
        }
        if self.moved(i) != Role::Pawn {
            return false;
        }
        let r = m.to().rank().index();
        if self.turn_after(i) == Color::White {
            r < 3
        } else {
            r > 4
        }
    }
    fn is_very_advanced_pawn_move(&self, i: usize) -> bool {
        if !self.is_advanced_pawn_move(i) {
            return false;
        }
        let r = self.m(i).to().rank().index();
        if self.turn_after(i) == Color::White {
            r < 2
        } else {
            r > 5
        }
    }
    fn end(&self) -> &Position {
        &self.boards[self.n()]
    }
}

fn material_diff(pos: &Position, side: Color) -> i32 {
    super::generate::material_diff(pos, side)
}

// ------------------------------------------------------------ the themes

fn mate_in(l: &Line) -> Option<&'static str> {
    if !l.end().is_checkmate() {
        return None;
    }
    Some(match l.n() / 2 {
        1 => "mateIn1",
        2 => "mateIn2",
        3 => "mateIn3",
        4 => "mateIn4",
        _ => "mateIn5",
    })
}

fn smothered_mate(l: &Line) -> bool {
    let b = l.end();
    let king = b.king(l.pov.other());
    for c in b.checkers() {
        if b.role_at(c) == Some(Role::Knight) {
            for s in Square::all().filter(|s| s.distance(king) == 1) {
                match b.piece_at(s) {
                    None => return false,
                    Some(p) if p.color == l.pov => return false,
                    _ => {}
                }
            }
            return true;
        }
    }
    false
}

fn back_rank_mate(l: &Line) -> bool {
    let b = l.end();
    let king = b.king(l.pov.other());
    let back = if l.pov == Color::White { 7 } else { 0 };
    if !(b.is_checkmate() && king.rank().index() == back) {
        return false;
    }
    let dr = if l.pov == Color::White { -1 } else { 1 };
    let squares = [-1, 0, 1].into_iter().filter_map(|df| king.offset(df, dr));
    for s in squares {
        match b.piece_at(s) {
            None => return false,
            Some(p) if p.color == l.pov => return false,
            _ => {}
        }
        if attackers(b, l.pov, s).any() {
            return false;
        }
    }
    Iterator::any(&mut b.checkers(), |c: Square| c.rank().index() == back)
}

fn anastasia_mate(l: &Line) -> bool {
    let b = l.end();
    let king = b.king(l.pov.other());
    let kf = king.file().index();
    let kr = king.rank().index();
    if !matches!(kf, 0 | 7) || matches!(kr, 0 | 7) {
        return false;
    }
    let last = l.m(l.n() - 1);
    if last.to().file().index() != kf || !matches!(l.moved(l.n() - 1), Role::Queen | Role::Rook) {
        return false;
    }
    // Toward the centre: a blocker beside the king, a knight three files in.
    let dir = if kf == 0 { 1 } else { -1 };
    let blocker = king.offset(dir, 0).and_then(|s| b.piece_at(s));
    if blocker.is_none_or(|p| p.color == l.pov) {
        return false;
    }
    king.offset(3 * dir, 0)
        .and_then(|s| b.piece_at(s))
        .is_some_and(|p| p.color == l.pov && p.role == Role::Knight)
}

fn hook_mate(l: &Line) -> bool {
    let b = l.end();
    let king = b.king(l.pov.other());
    let last = l.m(l.n() - 1);
    if l.moved(l.n() - 1) != Role::Rook || last.to().distance(king) != 1 {
        return false;
    }
    for d in attackers(b, l.pov, last.to()) {
        if b.role_at(d) == Some(Role::Knight) && d.distance(king) == 1 {
            for p in attackers(b, l.pov, d) {
                if b.role_at(p) == Some(Role::Pawn) {
                    return true;
                }
            }
        }
    }
    false
}

fn arabian_mate(l: &Line) -> bool {
    let b = l.end();
    let king = b.king(l.pov.other());
    let last = l.m(l.n() - 1);
    if !(matches!(king.file().index(), 0 | 7)
        && matches!(king.rank().index(), 0 | 7)
        && l.moved(l.n() - 1) == Role::Rook
        && last.to().distance(king) == 1)
    {
        return false;
    }
    Iterator::any(&mut attackers(b, l.pov, last.to()), |k| {
        b.role_at(k) == Some(Role::Knight)
            && (k.rank().index() as i32 - king.rank().index() as i32).abs() == 2
            && (k.file().index() as i32 - king.file().index() as i32).abs() == 2
    })
}

fn boden_or_double_bishop_mate(l: &Line) -> Option<&'static str> {
    let b = l.end();
    let king = b.king(l.pov.other());
    let bishops: Vec<Square> = b.pieces(l.pov, Role::Bishop).collect();
    if bishops.len() < 2 {
        return None;
    }
    for s in Square::all().filter(|s| s.distance(king) < 2) {
        if !attackers(b, l.pov, s).all(|a| b.role_at(a) == Some(Role::Bishop)) {
            return None;
        }
    }
    let kf = king.file().index();
    if (bishops[0].file().index() < kf) == (bishops[1].file().index() > kf) {
        Some("bodenMate")
    } else {
        Some("doubleBishopMate")
    }
}

fn dovetail_mate(l: &Line) -> bool {
    let b = l.end();
    let king = b.king(l.pov.other());
    if matches!(king.file().index(), 0 | 7) || matches!(king.rank().index(), 0 | 7) {
        return false;
    }
    let q = l.m(l.n() - 1).to();
    if l.moved(l.n() - 1) != Role::Queen
        || q.file() == king.file()
        || q.rank() == king.rank()
        || q.distance(king) > 1
    {
        return false;
    }
    for s in Square::all().filter(|s| s.distance(king) == 1) {
        if s == q {
            continue;
        }
        let a = attackers(b, l.pov, s);
        if a == Bitboard::from_square(q) {
            if b.piece_at(s).is_some() {
                return false;
            }
        } else if a.any() {
            return false;
        }
    }
    true
}

fn advanced_pawn(l: &Line) -> bool {
    l.solver().any(|i| l.is_very_advanced_pawn_move(i))
}

fn double_check(l: &Line) -> bool {
    l.solver().any(|i| l.b(i + 1).checkers().count() > 1)
}

fn sacrifice(l: &Line) -> bool {
    let initial = material_diff(l.b(1), l.pov);
    for i in (3..l.n()).step_by(2) {
        if material_diff(l.b(i + 1), l.pov) - initial <= -2 {
            return !(2..l.n())
                .step_by(2)
                .any(|j| l.m(j).promotion_role().is_some());
        }
    }
    false
}

fn x_ray(l: &Line) -> bool {
    for i in l.solver().skip(1) {
        if !l.is_capture(i) {
            continue;
        }
        let (m, op, pl) = (l.m(i), l.m(i - 1), l.m(i - 2));
        if op.to() != m.to() || l.moved(i - 1) == Role::King {
            continue;
        }
        if pl.to() != op.to() {
            continue;
        }
        if between(m.from(), m.to()).contains(op.from()) {
            return true;
        }
    }
    false
}

fn fork(l: &Line) -> bool {
    let solver: Vec<usize> = l.solver().collect();
    for &i in solver.iter().take(solver.len().saturating_sub(1)) {
        let moved = l.moved(i);
        if moved == Role::King {
            continue;
        }
        let b = l.b(i + 1);
        let to = l.m(i).to();
        if is_in_bad_spot(b, to) {
            continue;
        }
        let mut nb = 0;
        for (piece, sq) in attacked_opponent_squares(b, to, l.pov) {
            if piece.role == Role::Pawn {
                continue;
            }
            if king_value(piece.role) > king_value(moved)
                || (is_hanging(b, piece, sq) && !attackers(b, l.pov.other(), to).contains(sq))
            {
                nb += 1;
            }
        }
        if nb > 1 {
            return true;
        }
    }
    false
}

fn hanging_piece(l: &Line) -> bool {
    let to = l.m(1).to();
    let b1 = l.b(1);
    let captured = b1.piece_at(to);
    if b1.is_check() && captured.is_none_or(|c| c.role == Role::Pawn) {
        return false;
    }
    let Some(captured) = captured else {
        return false;
    };
    if captured.role == Role::Pawn || !is_hanging(b1, captured, to) {
        return false;
    }
    let op = l.m(0);
    if let Some(op_capture) = l.b(0).piece_at(op.to()) {
        if king_value(op_capture.role) >= king_value(captured.role) && op.to() == to {
            return false;
        }
    }
    if l.n() < 4 {
        return true;
    }
    material_diff(l.b(4), l.pov) >= material_diff(l.b(2), l.pov)
}

fn trapped_piece(l: &Line) -> bool {
    for i in l.solver().skip(1) {
        let mut sq = l.m(i).to();
        let captured = l.b(i).piece_at(sq);
        if captured.is_some_and(|c| c.role != Role::Pawn) {
            if l.m(i - 1).to() == sq {
                sq = l.m(i - 1).from();
            }
            if is_trapped(l.b(i - 1), sq) {
                return true;
            }
        }
    }
    false
}

fn discovered_check(l: &Line) -> bool {
    l.solver().any(|i| {
        let c = l.b(i + 1).checkers();
        c.any() && !c.contains(l.m(i).to())
    })
}

fn discovered_attack(l: &Line) -> bool {
    if discovered_check(l) {
        return true;
    }
    for i in l.solver().skip(1) {
        if l.is_capture(i) {
            let m = l.m(i);
            let btw = between(m.from(), m.to());
            if l.m(i - 1).to() == m.to() {
                return false;
            }
            let prev = l.m(i - 2);
            if btw.contains(prev.from())
                && m.to() != prev.to()
                && m.from() != prev.to()
                && !l.is_castling(i - 2)
            {
                return true;
            }
        }
    }
    false
}

fn quiet_move(l: &Line) -> bool {
    (0..l.n()).any(|i| {
        l.turn_after(i) != l.pov
            && i + 1 != l.n()
            && !l.b(i + 1).is_check()
            && !l.b(i).is_check()
            && !l.is_capture(i)
            && attacked_opponent_squares(l.b(i + 1), l.m(i).to(), l.pov).is_empty()
            && !l.is_advanced_pawn_move(i)
            && l.moved(i) != Role::King
    })
}

fn defensive_move(l: &Line) -> bool {
    let n = l.n();
    if l.b(n - 1).count_legal_moves() < 3 {
        return false;
    }
    let i = n - 1;
    if l.b(n).is_check() || l.is_capture(i) {
        return false;
    }
    if !attacked_opponent_squares(l.b(n), l.m(i).to(), l.pov).is_empty() {
        return false;
    }
    !l.is_advanced_pawn_move(i)
}

fn check_escape(l: &Line) -> bool {
    for i in l.solver() {
        if l.b(i + 1).is_check() || l.is_capture(i) {
            return false;
        }
        if l.b(i).count_legal_moves() < 3 {
            return false;
        }
        if l.b(i).is_check() {
            return true;
        }
    }
    false
}

fn attraction(l: &Line) -> bool {
    for i in 1..l.n() {
        if l.turn_after(i) == l.pov {
            continue;
        }
        let first_to = l.m(i).to();
        if i + 1 < l.n() && l.m(i + 1).to() == first_to {
            let attracted = l.moved(i + 1);
            if matches!(attracted, Role::King | Role::Queen | Role::Rook) {
                let sq = l.m(i + 1).to();
                if i + 2 < l.n() {
                    let a = attackers(l.b(i + 3), l.pov, sq);
                    if a.contains(l.m(i + 2).to()) {
                        if attracted == Role::King {
                            return true;
                        }
                        if i + 4 < l.n() && l.m(i + 4).to() == sq {
                            return true;
                        }
                    }
                }
            }
        }
    }
    false
}

fn deflection(l: &Line) -> bool {
    for i in l.solver().skip(1) {
        let m = l.m(i);
        let captured = l.b(i).piece_at(m.to());
        if captured.is_none() && m.promotion_role().is_none() {
            continue;
        }
        let capturing = l.moved(i);
        if captured.is_some_and(|c| king_value(c.role) > king_value(capturing)) {
            continue;
        }
        let sq = m.to();
        let op = l.m(i - 1);
        let pl = l.m(i - 2);
        let pl_capture = l.b(i - 2).piece_at(pl.to());
        let cond1 = pl_capture.is_none_or(|c| king_value(c.role) < type_number(l.moved(i - 2)));
        let gp = l.b(i - 1);
        let cond2 = sq != op.to() && sq != pl.to();
        let cond3 = op.to() == pl.to() || gp.is_check();
        let cond4 = attacks_from(gp, op.from()).contains(sq)
            || (m.promotion_role().is_some()
                && m.to().file() == op.from().file()
                && attacks_from(gp, op.from()).contains(m.from()));
        let cond5 = !attacks_from(l.b(i), op.to()).contains(sq);
        if cond1 && cond2 && cond3 && cond4 && cond5 {
            return true;
        }
    }
    false
}

fn exposed_king(l: &Line) -> bool {
    // The opponent's king on the solver's far half, with no pawn of its
    // own in front of it.
    let b = l.b(1);
    let them = l.pov.other();
    let king = b.king(them);
    let rel = |s: Square| -> usize {
        if l.pov == Color::White {
            s.rank().index()
        } else {
            7 - s.rank().index()
        }
    };
    if rel(king) < 5 {
        return false;
    }
    let fwd = if l.pov == Color::White { -1 } else { 1 };
    let shield = [(0, fwd), (-1, 0), (-1, fwd), (1, 0), (1, fwd)];
    for (df, dr) in shield {
        if let Some(s) = king.offset(df, dr) {
            if b.piece_at(s)
                == Some(Piece {
                    color: them,
                    role: Role::Pawn,
                })
            {
                return false;
            }
        }
    }
    let solver: Vec<usize> = l.solver().collect();
    if solver.len() < 3 {
        return false;
    }
    solver[1..solver.len() - 1]
        .iter()
        .any(|&i| l.b(i + 1).is_check())
}

fn skewer(l: &Line) -> bool {
    for i in l.solver().skip(1) {
        let m = l.m(i);
        let Some(capture) = l.b(i).piece_at(m.to()) else {
            continue;
        };
        if !is_ray(l.moved(i)) || l.b(i + 1).is_checkmate() {
            continue;
        }
        let btw = between(m.from(), m.to());
        let op = l.m(i - 1);
        if op.to() == m.to() || !btw.contains(op.from()) {
            continue;
        }
        if king_value(l.moved(i - 1)) > king_value(capture.role) && is_in_bad_spot(l.b(i), m.to()) {
            return true;
        }
    }
    false
}

fn first_square(b: Bitboard) -> Option<Square> {
    b.into_iter().next()
}

fn self_interference(l: &Line) -> bool {
    for i in l.solver().skip(1) {
        let prev = l.b(i);
        let sq = l.m(i).to();
        let Some(capture) = prev.piece_at(sq) else {
            continue;
        };
        if !is_hanging(prev, capture, sq) {
            continue;
        }
        let init = l.b(i - 1);
        if let Some(d) = first_square(attackers(init, capture.color, sq)) {
            if init.role_at(d).is_some_and(is_ray) && between(sq, d).contains(l.m(i - 1).to()) {
                return true;
            }
        }
    }
    false
}

fn interference(l: &Line) -> bool {
    for i in l.solver().skip(1) {
        let prev = l.b(i);
        let sq = l.m(i).to();
        let Some(capture) = prev.piece_at(sq) else {
            continue;
        };
        if sq == l.m(i - 1).to() || !is_hanging(prev, capture, sq) {
            continue;
        }
        let init = l.b(i - 2);
        if let Some(d) = first_square(attackers(init, capture.color, sq)) {
            if init.role_at(d).is_some_and(is_ray) && between(sq, d).contains(l.m(i - 2).to()) {
                return true;
            }
        }
    }
    false
}

fn intermezzo(l: &Line) -> bool {
    for i in l.solver().skip(1) {
        if !l.is_capture(i) {
            continue;
        }
        let m = l.m(i);
        let sq = m.to();
        if !attackers(l.b(i - 1), l.pov.other(), sq).contains(l.m(i - 1).from())
            && l.m(i - 2).to() != sq
        {
            return l.m(i - 3).to() == sq && l.is_capture(i - 3) && l.b(i - 2).is_legal(m);
        }
    }
    false
}

fn pin_prevents_attack(l: &Line) -> bool {
    for i in l.solver() {
        let b = l.b(i + 1);
        for sq in b.by_color(l.pov.other()) {
            let Some(dir) = pin(b, l.pov.other(), sq) else {
                continue;
            };
            let Some(piece) = b.piece_at(sq) else {
                continue;
            };
            for a in attacks_from(b, sq) {
                if let Some(att) = b.piece_at(a) {
                    if att.color == l.pov
                        && !dir.contains(a)
                        && (king_value(att.role) > king_value(piece.role) || is_hanging(b, att, a))
                    {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Squares a piece could move to ignoring checks and pins (python-chess's
/// pseudo-legal moves from one square, castling aside).
fn pseudo_targets(b: &Position, sq: Square) -> Bitboard {
    let Some(p) = b.piece_at(sq) else {
        return Bitboard::EMPTY;
    };
    let own = b.by_color(p.color);
    if p.role != Role::Pawn {
        return Bitboard(attacks_from(b, sq).0 & !own.0);
    }
    let mut out = Bitboard(attacks_from(b, sq).0 & b.by_color(p.color.other()).0);
    let dir = if p.color == Color::White { 1 } else { -1 };
    if let Some(one) = sq.offset(0, dir) {
        if b.piece_at(one).is_none() {
            out = out.with(one);
            let home = if p.color == Color::White { 1 } else { 6 };
            if sq.rank().index() == home {
                if let Some(two) = sq.offset(0, 2 * dir) {
                    if b.piece_at(two).is_none() {
                        out = out.with(two);
                    }
                }
            }
        }
    }
    if let Some(ep) = b.ep_square() {
        if escaque::attacks::pawn_attacks(p.color, sq).contains(ep) {
            out = out.with(ep);
        }
    }
    out
}

fn pin_prevents_escape(l: &Line) -> bool {
    for i in l.solver() {
        let b = l.b(i + 1);
        for ps in b.by_color(l.pov.other()) {
            let Some(dir) = pin(b, l.pov.other(), ps) else {
                continue;
            };
            let Some(pinned) = b.piece_at(ps) else {
                continue;
            };
            for a in attackers(b, l.pov, ps) {
                if !dir.contains(a) {
                    continue;
                }
                let Some(attacker) = b.piece_at(a) else {
                    continue;
                };
                if let (Some(pv), Some(av)) = (value(pinned.role), value(attacker.role)) {
                    if pv > av {
                        return true;
                    }
                }
                if is_hanging(b, pinned, ps)
                    && !attackers(b, l.pov.other(), a).contains(ps)
                    && Iterator::any(&mut pseudo_targets(b, ps), |t| !dir.contains(t))
                {
                    return true;
                }
            }
        }
    }
    false
}

fn attacking_f2_f7(l: &Line) -> bool {
    for i in l.solver() {
        let sq = l.m(i).to();
        if l.b(i).piece_at(sq).is_some() && (sq == Square::F2 || sq == Square::F7) {
            let k = l.b(i + 1).piece_at(if sq == Square::F7 {
                Square::E8
            } else {
                Square::E1
            });
            return k.is_some_and(|k| k.role == Role::King && k.color != l.pov);
        }
    }
    false
}

fn side_attack(l: &Line, corner_file: usize, king_files: &[usize], nb_pieces: usize) -> bool {
    let back = if l.pov == Color::White { 7 } else { 0 };
    let init = l.b(1);
    let king = init.king(l.pov.other());
    if king == Square::A1
        || king.rank().index() != back
        || !king_files.contains(&king.file().index())
        || init.occupied().count() < nb_pieces
        || !l.solver().any(|i| l.b(i + 1).is_check())
    {
        return false;
    }
    let corner = Square::new((back * 8 + corner_file) as u32).unwrap_or(Square::A1);
    let mut score = 0;
    for i in l.solver() {
        let d = corner.distance(l.m(i).to());
        if l.b(i + 1).is_check() {
            score += 1;
        }
        if l.is_capture(i) && d <= 3 {
            score += 1;
        } else if d >= 5 {
            score -= 1;
        }
    }
    score >= 2
}

fn clearance(l: &Line) -> bool {
    for i in l.solver().skip(1) {
        let b = l.b(i + 1);
        let m = l.m(i);
        if l.b(i).piece_at(m.to()).is_some() {
            continue;
        }
        if !b.role_at(m.to()).is_some_and(is_ray) {
            continue;
        }
        let prev = l.m(i - 2);
        if prev.promotion_role().is_none()
            && prev.to() != m.from()
            && prev.to() != m.to()
            && !l.b(i).is_check()
            && (!b.is_check() || l.moved(i - 1) != Role::King)
            && (prev.from() == m.to() || between(m.from(), m.to()).contains(prev.from()))
            && (l.b(i - 2).piece_at(prev.to()).is_none() || is_in_bad_spot(l.b(i - 1), prev.to()))
        {
            return true;
        }
    }
    false
}

fn en_passant(l: &Line) -> bool {
    l.solver().any(|i| {
        let m = l.m(i);
        l.moved(i) == Role::Pawn
            && m.from().file() != m.to().file()
            && l.b(i).piece_at(m.to()).is_none()
    })
}

fn castling(l: &Line) -> bool {
    l.solver().any(|i| l.is_castling(i))
}

fn promotion(l: &Line) -> bool {
    l.solver().any(|i| l.m(i).promotion_role().is_some())
}

fn under_promotion(l: &Line) -> bool {
    for i in l.solver() {
        let p = l.m(i).promotion_role();
        if l.b(i + 1).is_checkmate() {
            return p == Some(Role::Knight);
        } else if p.is_some_and(|r| r != Role::Queen) {
            return true;
        }
    }
    false
}

fn capturing_defender(l: &Line) -> bool {
    for i in l.solver().skip(1) {
        let b = l.b(i + 1);
        let m = l.m(i);
        let capture = l.b(i).piece_at(m.to());
        let moved = l.moved(i);
        let takes = capture.is_some_and(|c| {
            moved != Role::King
                && king_value(c.role) <= king_value(moved)
                && is_hanging(l.b(i), c, m.to())
                && l.m(i - 1).to() != m.to()
        });
        if b.is_checkmate() || takes {
            let prev = l.m(i - 2);
            if !l.b(i - 1).is_check() && prev.to() != m.from() {
                let init = l.b(i - 2);
                let ds = prev.to();
                if let Some(d) = init.piece_at(ds) {
                    if attackers(init, d.color, m.to()).contains(ds) && !init.is_check() {
                        return true;
                    }
                }
            }
        }
    }
    false
}

fn piece_endgame(l: &Line, role: Role) -> bool {
    [l.b(1), l.b(2)].iter().all(|b| {
        b.by_role(role).any()
            && Square::all().all(|s| {
                b.role_at(s)
                    .is_none_or(|r| matches!(r, Role::King | Role::Pawn) || r == role)
            })
    })
}

fn queen_rook_endgame(l: &Line) -> bool {
    [l.b(1), l.b(2)].iter().all(|b| {
        b.by_role(Role::Queen).count() == 1
            && b.by_role(Role::Rook).any()
            && (b.by_role(Role::Knight) | b.by_role(Role::Bishop)).is_empty()
    })
}

/// The phase of the position shown (lila's `Divider`, simplified): an
/// endgame with at most 6 queens, rooks, bishops and knights on the board;
/// the opening while there are more than 10, both back ranks still hold at
/// least 4 pieces of their side and the game is within its first 12 moves;
/// a middlegame otherwise.
pub fn phase(pos: &Position) -> &'static str {
    let majors_minors = (pos.occupied().count()
        - pos.by_role(Role::Pawn).count()
        - pos.by_role(Role::King).count()) as u32;
    if majors_minors <= 6 {
        return "endgame";
    }
    let back = |c: Color, rank: u32| {
        (pos.by_color(c)
            & Bitboard::rank(escaque::Rank::new(rank).unwrap_or(escaque::Rank::new(0).unwrap())))
        .count()
    };
    let sparse = back(Color::White, 0) < 4 || back(Color::Black, 7) < 4;
    if majors_minors > 10 && !sparse && pos.fullmove_number() <= 12 {
        "opening"
    } else {
        "middlegame"
    }
}

/// The themes of `p`, as lichess's tagger finds them (without zugzwang:
/// see [`zugzwang`]). `cp`: the solver's advantage at the end in
/// centipawns, `None` for a mate (lichess's `advantage` over 200,
/// `crushing` over 600, `equality` else).
pub fn tag(p: &Puzzle, cp: Option<i32>) -> Vec<&'static str> {
    let boards = p.positions();
    let l = Line {
        pov: p.solver(),
        boards,
        moves: &p.moves,
    };
    let mut t: Vec<&'static str> = Vec::new();
    if let Some(m) = mate_in(&l) {
        t.push(m);
        t.push("mate");
        if smothered_mate(&l) {
            t.push("smotheredMate");
        } else if back_rank_mate(&l) {
            t.push("backRankMate");
        } else if anastasia_mate(&l) {
            t.push("anastasiaMate");
        } else if hook_mate(&l) {
            t.push("hookMate");
        } else if arabian_mate(&l) {
            t.push("arabianMate");
        } else if let Some(k) = boden_or_double_bishop_mate(&l) {
            t.push(k);
        } else if dovetail_mate(&l) {
            t.push("dovetailMate");
        }
    } else {
        match cp {
            Some(c) if c > 600 => t.push("crushing"),
            Some(c) if c > 200 => t.push("advantage"),
            None => t.push("crushing"),
            _ => t.push("equality"),
        }
    }
    let mut add = |cond: bool, key: &'static str| {
        if cond {
            t.push(key);
        }
    };
    add(attraction(&l), "attraction");
    let defl = deflection(&l);
    add(defl, "deflection");
    add(advanced_pawn(&l), "advancedPawn");
    add(double_check(&l), "doubleCheck");
    add(quiet_move(&l), "quietMove");
    add(defensive_move(&l) || check_escape(&l), "defensiveMove");
    add(sacrifice(&l), "sacrifice");
    add(x_ray(&l), "xRayAttack");
    let is_fork = fork(&l);
    add(is_fork, "fork");
    add(hanging_piece(&l), "hangingPiece");
    add(trapped_piece(&l), "trappedPiece");
    add(discovered_attack(&l), "discoveredAttack");
    add(exposed_king(&l), "exposedKing");
    add(skewer(&l), "skewer");
    add(self_interference(&l) || interference(&l), "interference");
    add(intermezzo(&l), "intermezzo");
    add(pin_prevents_attack(&l) || pin_prevents_escape(&l), "pin");
    add(attacking_f2_f7(&l), "attackingF2F7");
    add(clearance(&l), "clearance");
    add(en_passant(&l), "enPassant");
    add(castling(&l), "castling");
    add(promotion(&l), "promotion");
    add(under_promotion(&l), "underPromotion");
    add(capturing_defender(&l), "capturingDefender");
    let endgame = [
        (Role::Pawn, "pawnEndgame"),
        (Role::Queen, "queenEndgame"),
        (Role::Rook, "rookEndgame"),
        (Role::Bishop, "bishopEndgame"),
        (Role::Knight, "knightEndgame"),
    ]
    .into_iter()
    .find(|&(r, _)| piece_endgame(&l, r))
    .map(|(_, k)| k)
    .or_else(|| queen_rook_endgame(&l).then_some("queenRookEndgame"));
    if let Some(k) = endgame {
        t.push(k);
    }
    if !t.contains(&"backRankMate") && !is_fork {
        if side_attack(&l, 7, &[6, 7], 20) {
            t.push("kingsideAttack");
        } else if side_attack(&l, 0, &[0, 1, 2], 18) {
            t.push("queensideAttack");
        }
    }
    t.push(match l.n() {
        2 => "oneMove",
        4 => "short",
        n if n >= 8 => "veryLong",
        _ => "long",
    });
    t
}

/// lichess's zugzwang test: at some solver move not giving check, with at
/// most 15 replies, the opponent's winning chances to move are lower by
/// more than 0.3 than if it could pass. Needs an evaluator; errors count
/// as no.
pub fn zugzwang(p: &Puzzle, eval: &mut dyn Evaluator, c: &Criteria) -> bool {
    let stop = AtomicBool::new(false);
    let boards = p.positions();
    let them = p.solver().other();
    for i in (1..p.moves.len()).step_by(2) {
        let b = &boards[i + 1];
        if b.is_check() || b.count_legal_moves() > 15 || !b.has_legal_moves() {
            continue;
        }
        let Some(passed) = b.null_move() else {
            continue;
        };
        let score = eval.evaluate(b, &[], 1, &stop);
        let rev = eval.evaluate(&passed, &[], 1, &stop);
        if let (Ok(s), Ok(r)) = (score, rev) {
            if let (Some(s), Some(r)) = (s.first(), r.first()) {
                if c.wc(s.eval.for_side(them)) < c.wc(r.eval.for_side(them)) - 0.3 {
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problemas::read_line;

    fn puzzle(fen: &str, moves: &[&str]) -> Puzzle {
        let start = Position::from_fen(fen).unwrap();
        let ms = read_line(&start, moves).unwrap();
        Puzzle::new("t".into(), start, ms, 1500).unwrap()
    }

    #[test]
    fn every_key_has_two_names_and_there_are_more_than_thirty() {
        assert!(THEMES.len() >= 30);
        for t in THEMES {
            assert!(!t.es.is_empty() && !t.en.is_empty());
            assert_eq!(Theme::from_key(t.key), Some(t));
        }
    }

    #[test]
    fn a_back_rank_mate_in_one() {
        let p = puzzle("6k1/5ppp/8/8/8/8/r7/1R4K1 b - - 0 1", &["a2a3", "b1b8"]);
        let t = tag(&p, None);
        for k in ["mateIn1", "mate", "backRankMate", "oneMove"] {
            assert!(t.contains(&k), "{k} in {t:?}");
        }
    }

    #[test]
    fn a_knight_fork_of_king_and_queen() {
        // Black walks into it with ...Ke7; Nc6+ forks king and queen.
        let p = puzzle(
            "4k3/8/8/q7/1N6/8/8/7K b - - 0 1",
            &["e8e7", "b4c6", "e7d6", "c6a5"],
        );
        let t = tag(&p, Some(900));
        assert!(t.contains(&"fork"), "{t:?}");
        assert!(t.contains(&"crushing"), "{t:?}");
        assert!(t.contains(&"short"), "{t:?}");
    }
}
