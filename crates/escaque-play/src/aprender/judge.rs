//! A pupil's try at an exercise, judged by the rules library.

use escaque::read::{move_between, read_move};
use escaque::san::san;
use escaque::{
    Bitboard, CastlingSide, Color, Game, GameResult, IllegalReason, Lang, Localized, Move,
    MoveError, Notation, Position, Role, SanLang, Square,
};

use super::reason::{self, capital, of_piece_on, piece_on};
use super::search::{self, Left};
use super::{EscapeWay, Exercise, Goal, Question, Text};

/// What the pupil does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A move on the board, from one square to another.
    Move {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
        /// The piece a pawn becomes on the last rank.
        promotion: Option<Role>,
    },
    /// A square touched (or named).
    Square(Square),
    /// Typed text: a move in notation, or the answer to `escribir`.
    Text(String),
    /// An option chosen (0-based).
    Choice(usize),
}

/// The answer to a try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A good move, and the exercise goes on (stars left, pieces left).
    Progress {
        /// The move in Spanish and English notation.
        san: Text,
    },
    /// The goal is met.
    Solved {
        /// The move in notation, when it was a move.
        san: Option<Text>,
        /// 1 to 3.
        stars: u8,
    },
    /// Not accepted, and why. The position is unchanged.
    Refused(Text),
    /// The exercise was already solved.
    AlreadySolved,
}

/// Stars for meeting a goal whose fewest moves are `min` with `used` moves
/// and tries (refused tries count): 3 with none to spare, 2 with up to two
/// more, 1 otherwise.
pub fn stars(min: u32, used: u32) -> u8 {
    if used <= min {
        3
    } else if used <= min + 2 {
        2
    } else {
        1
    }
}

/// One pupil working through one exercise.
#[derive(Clone, Debug)]
pub struct Attempt<'a> {
    ex: &'a Exercise,
    pos: Option<Position>,
    left: Option<Left>,
    played: Vec<Move>,
    tries: u32,
    answers: u32,
    solved: Option<u8>,
}

impl Exercise {
    /// Starts a try at this exercise.
    pub fn start(&self) -> Attempt<'_> {
        Attempt {
            ex: self,
            pos: self.position,
            left: match self.goal {
                Goal::Stars(s) => Some(Left::Stars(s)),
                Goal::CaptureAll => Some(Left::Pieces),
                _ => None,
            },
            played: Vec::new(),
            tries: 0,
            answers: 0,
            solved: None,
        }
    }
}

impl<'a> Attempt<'a> {
    /// The exercise.
    pub fn exercise(&self) -> &'a Exercise {
        self.ex
    }

    /// The position now (after the pupil's moves, the turn the pupil's).
    pub fn position(&self) -> Option<&Position> {
        self.pos.as_ref()
    }

    /// The stars still to collect.
    pub fn stars_left(&self) -> Bitboard {
        match self.left {
            Some(Left::Stars(s)) => s,
            _ => Bitboard::EMPTY,
        }
    }

    /// The moves accepted so far.
    pub fn played(&self) -> &[Move] {
        &self.played
    }

    /// The fewest moves still needed, as the rules library's search finds
    /// them (for a goal met in one move, 1 until it is met).
    pub fn moves_to_goal(&self) -> Option<u32> {
        if self.solved.is_some() {
            return Some(0);
        }
        match (self.left, self.pos) {
            (Some(left), Some(pos)) => search::fewest(&pos, left),
            _ => Some(1),
        }
    }

    /// Moves, answers and refused tries so far.
    pub fn used(&self) -> u32 {
        self.played.len() as u32 + self.tries + self.answers
    }

    /// The stars, once solved.
    pub fn solved(&self) -> Option<u8> {
        self.solved
    }

    /// Judges one try.
    pub fn try_input(&mut self, input: &Input) -> Verdict {
        if self.solved.is_some() {
            return Verdict::AlreadySolved;
        }
        let before = self.played.len();
        let v = self.judge(input);
        if matches!(v, Verdict::Solved { .. }) && self.played.len() == before {
            // An answer (a square, an option, a written move) counts as one.
            self.answers += 1;
        }
        match &v {
            Verdict::Refused(_) => self.tries += 1,
            Verdict::Solved { .. } => {}
            _ => {}
        }
        if let Verdict::Solved { san, .. } = v {
            let s = stars(self.ex.min_moves, self.used());
            self.solved = Some(s);
            return Verdict::Solved { san, stars: s };
        }
        v
    }

    fn judge(&mut self, input: &Input) -> Verdict {
        let ex = self.ex;
        match (&ex.goal, input) {
            (Goal::Square(target), Input::Square(sq)) => {
                if sq == target {
                    solved(None)
                } else {
                    Verdict::Refused(Text::new(
                        format!(
                            "esa es {sq}: columna {}, fila {}; busca {target}",
                            sq.file().char(),
                            sq.rank().char()
                        ),
                        format!(
                            "that is {sq}: the {}-file, rank {}; look for {target}",
                            sq.file().char(),
                            sq.rank().char()
                        ),
                    ))
                }
            }
            (Goal::Square(target), Input::Text(t)) => match Square::parse(t.trim()) {
                Some(sq) => self.judge(&Input::Square(sq)),
                None => Verdict::Refused(Text::new(
                    format!(
                        "«{}» no es una casilla: escribe la columna y la fila, como {target}",
                        t.trim()
                    ),
                    format!(
                        "«{}» is not a square: write the file and the rank, like {target}",
                        t.trim()
                    ),
                )),
            },
            (Goal::Square(_), _) => Verdict::Refused(Text::new(
                "toca una casilla del tablero",
                "touch a square of the board",
            )),
            (Goal::Quiz { .. } | Goal::Ask(_), Input::Choice(i)) => {
                let options = ex.options();
                if *i >= options.len() {
                    return Verdict::Refused(Text::new(
                        format!("elige una de las {} opciones", options.len()),
                        format!("choose one of the {} options", options.len()),
                    ));
                }
                if ex.right_options().contains(i) {
                    solved(None)
                } else {
                    Verdict::Refused(self.wrong_answer(*i))
                }
            }
            (Goal::Quiz { .. } | Goal::Ask(_), Input::Text(t)) => match t.trim().parse::<usize>() {
                Ok(n) if n >= 1 => self.judge(&Input::Choice(n - 1)),
                _ => Verdict::Refused(Text::new(
                    "responde con el número de una opción",
                    "answer with the number of an option",
                )),
            },
            (Goal::Quiz { .. } | Goal::Ask(_), _) => Verdict::Refused(Text::new(
                "elige una de las opciones",
                "choose one of the options",
            )),
            (Goal::Write(m), Input::Text(t)) => self.judge_write(*m, t),
            (Goal::Write(_), _) => Verdict::Refused(Text::new(
                "escribe la jugada en notación algebraica",
                "write the move in algebraic notation",
            )),
            (
                _,
                Input::Move {
                    from,
                    to,
                    promotion,
                },
            ) => self.judge_move_squares(*from, *to, *promotion),
            (_, Input::Text(t)) => {
                let Some(pos) = self.pos else {
                    return Verdict::Refused(Text::new("no hay tablero", "there is no board"));
                };
                match read_move(&pos, t, Notation::Any(SanLang::Es)) {
                    Ok(m) => self.judge_move(m),
                    Err(MoveError::Illegal {
                        mv: Some(m),
                        reason,
                        ..
                    }) => Verdict::Refused(reason::illegal(&pos, m, reason)),
                    Err(e) => Verdict::Refused(Text::new(e.message(Lang::Es), e.message(Lang::En))),
                }
            }
            (_, Input::Square(_) | Input::Choice(_)) => Verdict::Refused(Text::new(
                "haz una jugada en el tablero",
                "make a move on the board",
            )),
        }
    }

    fn wrong_answer(&self, _chosen: usize) -> Text {
        let ex = self.ex;
        if let Goal::Ask(q) = &ex.goal {
            return why_answer(*q, &ex.position.unwrap_or_default());
        }
        Text::new(
            "no es esa: vuelve a leer la regla de arriba",
            "not that one: read the rule above again",
        )
    }

    fn judge_move_squares(&mut self, from: Square, to: Square, promotion: Option<Role>) -> Verdict {
        let Some(pos) = self.pos else {
            return Verdict::Refused(Text::new("no hay tablero", "there is no board"));
        };
        match move_between(&pos, from, to, promotion) {
            Ok(m) => self.judge_move(m),
            Err(MoveError::Illegal {
                mv: Some(m),
                reason,
                ..
            }) => Verdict::Refused(reason::illegal(&pos, m, reason)),
            Err(_) => {
                let m = match promotion {
                    Some(r) => Move::promotion(from, to, r),
                    None => Move::normal(from, to),
                };
                let r = pos.illegal_reason(m);
                Verdict::Refused(reason::illegal(&pos, m, r))
            }
        }
    }

    /// Judges a legal move of the pupil.
    fn judge_move(&mut self, m: Move) -> Verdict {
        let Some(pos) = self.pos else {
            return Verdict::Refused(Text::new("no hay tablero", "there is no board"));
        };
        let written = Text::new(san(&pos, m, Lang::Es), san(&pos, m, Lang::En));
        match accepts(self.ex, &pos, self.left, m) {
            Err(why) => Verdict::Refused(why),
            Ok(Step::Done) => {
                self.played.push(m);
                let mut next = pos;
                next.play_unchecked(m);
                self.pos = Some(next);
                solved(Some(written))
            }
            Ok(Step::Continue(next, left)) => {
                self.played.push(m);
                self.pos = Some(next);
                self.left = Some(left);
                Verdict::Progress { san: written }
            }
        }
    }

    fn judge_write(&mut self, m: Move, text: &str) -> Verdict {
        let Some(pos) = self.pos else {
            return Verdict::Refused(Text::new("no hay tablero", "there is no board"));
        };
        let t = text.trim();
        let right = san(&pos, m, Lang::Es);
        let english = san(&pos, m, Lang::En);
        match write_check(&pos, m, t) {
            Ok(()) => solved(Some(Text::new(right, english))),
            Err(why) => Verdict::Refused(why),
        }
    }
}

fn solved(san: Option<Text>) -> Verdict {
    Verdict::Solved { san, stars: 0 }
}

/// Whether `text` writes `m` in Spanish algebraic notation, with the signs.
fn write_check(pos: &Position, m: Move, text: &str) -> Result<(), Text> {
    if text.is_empty() {
        return Err(Text::new("escribe la jugada", "write the move"));
    }
    let coords = text.len() >= 4
        && text
            .chars()
            .take(4)
            .collect::<String>()
            .chars()
            .all(|c| c.is_ascii_alphanumeric())
        && Square::parse(&text[..2.min(text.len())]).is_some()
        && text.get(2..4).and_then(Square::parse).is_some();
    if coords {
        return Err(Text::new(
            "eso son coordenadas (origen y destino); escribe la notación algebraica: la inicial de la pieza (R, D, T, A, C; nada para el peón) y la casilla de llegada",
            "those are coordinates (origin and destination); write algebraic notation: the piece's initial (R, D, T, A, C; none for a pawn) and the destination square",
        ));
    }
    // Strictly Spanish first; an English text that means the move is named
    // as English.
    let spanish = escaque::san::parse_san(pos, text, SanLang::Es);
    if spanish != Ok(m) {
        if escaque::san::parse_san(pos, text, SanLang::En) == Ok(m) && !m.is_castle() {
            return Err(Text::new(
                "esa es la notación inglesa: en español, R rey, D dama, T torre, A alfil, C caballo",
                "that is English notation: in Spanish, R king, D queen, T rook, A bishop, C knight",
            ));
        }
        match read_move(pos, text, Notation::Any(SanLang::Es)) {
            Ok(r) if r == m => {}
            Ok(r) => {
                let other = san(pos, r, Lang::Es);
                return Err(Text::new(
                    format!("«{text}» anota otra jugada: {other}"),
                    format!("«{text}» writes another move: {other}"),
                ));
            }
            Err(e) => {
                return Err(Text::new(
                    format!(
                        "«{text}» no se lee como esa jugada: {}",
                        e.message(Lang::Es)
                    ),
                    format!(
                        "«{text}» does not read as that move: {}",
                        e.message(Lang::En)
                    ),
                ))
            }
        }
    }
    if m.is_castle() && !text.starts_with("0-0") {
        return Err(Text::new(
            "el enroque se anota con ceros: 0-0 el corto, 0-0-0 el largo",
            "castling is written with zeros: 0-0 short, 0-0-0 long",
        ));
    }
    let mut after = *pos;
    after.play_unchecked(m);
    if after.is_checkmate() && !text.contains('#') {
        return Err(Text::new(
            "la jugada da jaque mate: falta el signo #",
            "the move gives checkmate: the # sign is missing",
        ));
    }
    if after.is_check() && !after.is_checkmate() && !text.contains('+') {
        return Err(Text::new(
            "la jugada da jaque: falta el signo +",
            "the move gives check: the + sign is missing",
        ));
    }
    if !after.is_check() && (text.contains('+') || text.contains('#')) {
        return Err(Text::new(
            "la jugada no da jaque: sobra el signo",
            "the move gives no check: the sign is wrong",
        ));
    }
    if pos.piece_at(m.to()).is_some() && !m.is_castle() && !text.contains('x') {
        return Err(Text::new(
            "la jugada captura: se anota con x (por ejemplo Cxe5)",
            "the move captures: it is written with x (for example Cxe5)",
        ));
    }
    Ok(())
}

enum Step {
    Done,
    Continue(Position, Left),
}

fn side_es(c: Color) -> &'static str {
    match c {
        Color::White => "blanco",
        Color::Black => "negro",
    }
}

fn side_en(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Whether the legal move `m` meets (or makes progress towards) the goal.
fn accepts(ex: &Exercise, pos: &Position, left: Option<Left>, m: Move) -> Result<Step, Text> {
    let us = pos.turn();
    let mut after = *pos;
    after.play_unchecked(m);
    match &ex.goal {
        Goal::Stars(_) | Goal::CaptureAll => {
            let left = left.unwrap_or(Left::Pieces);
            if search::king_watches(pos, m) {
                return Err(Text::new(
                    "en este ejercicio tu rey solo mira: juega con las otras piezas",
                    "in this exercise your king only watches: play with the other pieces",
                ));
            }
            let Some(next) = search::step(pos, m) else {
                return Err(Text::new(
                    format!("esa jugada da jaque al rey {}: en este ejercicio el rey contrario solo mira, no le des jaque", side_es(us.other())),
                    format!("that move checks the {} king: here the opponent's king only watches, do not check it", side_en(us.other())),
                ));
            };
            let nl = left.after(&next, us);
            if nl.done(&next) {
                return Ok(Step::Done);
            }
            if search::fewest(&next, nl).is_none() {
                let what = match nl {
                    Left::Stars(s) => {
                        let list: Vec<String> = s.map(|q| q.to_string()).collect();
                        Text::new(
                            format!(
                                "desde ahí ya no podrías recoger la estrella de {}",
                                list.join(", ")
                            ),
                            format!(
                                "from there you could no longer collect the star on {}",
                                list.join(", ")
                            ),
                        )
                    }
                    Left::Pieces => Text::new(
                        "desde ahí ya no podrías capturar todas las piezas",
                        "from there you could no longer capture every piece",
                    ),
                };
                return Err(what);
            }
            Ok(Step::Continue(next, nl))
        }
        Goal::Mate => {
            if after.is_checkmate() {
                return Ok(Step::Done);
            }
            if after.is_stalemate() {
                return Err(Text::new(
                    format!("¡ahogado! El rey {} no está en jaque y no tiene ninguna jugada legal: eso es tablas, no mate", side_es(us.other())),
                    format!("stalemate! The {} king is not in check and has no legal move: that is a draw, not mate", side_en(us.other())),
                ));
            }
            if after.is_check() {
                let reply = after.legal_moves().iter().next().copied();
                let r = reply.map(|r| (san(&after, r, Lang::Es), san(&after, r, Lang::En)));
                return Err(match r {
                    Some((es, en)) => Text::new(
                        format!(
                            "es jaque, pero no mate: las {} pueden responder {es}",
                            if us == Color::White {
                                "negras"
                            } else {
                                "blancas"
                            }
                        ),
                        format!(
                            "that is check, but not mate: {} can answer {en}",
                            side_en(us.other())
                        ),
                    ),
                    None => Text::new("es jaque, pero no mate", "that is check, but not mate"),
                });
            }
            Err(Text::new(
                "esa jugada no da jaque, así que no puede ser mate",
                "that move gives no check, so it cannot be mate",
            ))
        }
        Goal::Escape(way) => {
            // Every legal move answers the check (the rules library refuses the
            // others); the exercise may ask for one of the three ways.
            let Some(way) = way else {
                return Ok(Step::Done);
            };
            let used = escape_ways(pos, m);
            if used.contains(way) {
                return Ok(Step::Done);
            }
            let name = |w: EscapeWay| match w {
                EscapeWay::Capture => (
                    "capturando la pieza que da jaque",
                    "capturing the checking piece",
                ),
                EscapeWay::King => ("moviendo el rey", "moving the king"),
                EscapeWay::Block => (
                    "cubriendo el jaque con una pieza",
                    "blocking the check with a piece",
                ),
            };
            let (did_es, did_en) = name(used[0]);
            let (ask_es, ask_en) = name(*way);
            Err(Text::new(
                format!("eso también sale del jaque ({did_es}), pero aquí se pide salir {ask_es}"),
                format!("that also gets out of check ({did_en}), but here you are asked to do it by {ask_en}"),
            ))
        }
        Goal::Castle(side) => {
            if m.is_castle() && side.is_none_or(|s| CastlingSide::from_king_to(m.to()) == s) {
                return Ok(Step::Done);
            }
            if m.is_castle() {
                return Err(Text::new(
                    "ese es el enroque del otro lado",
                    "that is castling on the other side",
                ));
            }
            Err(Text::new(
                "esa jugada es legal, pero aquí se pide enrocar: el rey va dos casillas hacia la torre y la torre salta a su lado",
                "that move is legal, but here you are asked to castle: the king goes two squares towards the rook and the rook jumps beside it",
            ))
        }
        Goal::EnPassant => {
            if m.is_en_passant() {
                return Ok(Step::Done);
            }
            Err(Text::new(
                "esa jugada es legal, pero aquí se pide capturar al paso: tu peón captura en diagonal al peón que acaba de avanzar dos casillas, como si hubiera avanzado una",
                "that move is legal, but here you are asked to capture en passant: your pawn takes diagonally the pawn that has just advanced two squares, as if it had advanced one",
            ))
        }
        Goal::Promote(role) => {
            let Some(r) = m.promotion_role() else {
                return Err(Text::new(
                    "se pide coronar: lleva un peón a la última fila",
                    "you are asked to promote: take a pawn to the last rank",
                ));
            };
            if let Some(want) = role {
                if r != *want {
                    return Err(Text::new(
                        format!(
                            "se pide coronar en {} (={})",
                            reason::the(*want).es,
                            want.char_es()
                        ),
                        format!(
                            "you are asked to promote to {} (={})",
                            reason::the(*want).en,
                            want.char_en()
                        ),
                    ));
                }
            }
            if after.is_stalemate() {
                return Err(Text::new(
                    format!("¡ahogado! Con {} el rey {} no está en jaque y no tiene jugada legal: tablas. Elige otra pieza", reason::the(r).es, side_es(us.other())),
                    format!("stalemate! With {} the {} king is not in check and has no legal move: a draw. Choose another piece", reason::the(r).en, side_en(us.other())),
                ));
            }
            if escaque::dead::proves_dead(&after) {
                return Err(Text::new(
                    format!(
                        "con {} nadie podría dar mate: la partida sería tablas",
                        reason::the(r).es
                    ),
                    format!(
                        "with {} nobody could mate: the game would be drawn",
                        reason::the(r).en
                    ),
                ));
            }
            Ok(Step::Done)
        }
        Goal::Draw => {
            let game = exercise_game(ex);
            if game.claimable_moves().iter().any(|(c, _)| *c == m) {
                return Ok(Step::Done);
            }
            let mut g = game;
            if let Ok(Some(o)) = g.play(m) {
                if o.result == GameResult::Draw {
                    return Ok(Step::Done);
                }
                return Err(Text::new(
                    "esa jugada termina la partida, pero no en tablas",
                    "that move ends the game, but not in a draw",
                ));
            }
            Err(Text::new(
                "tras esa jugada la partida sigue: no es tablas ni se pueden reclamar",
                "after that move the game goes on: it is not a draw, nor can one be claimed",
            ))
        }
        Goal::Read(text) => {
            let want = read_move(pos, text, Notation::Any(SanLang::Es)).ok();
            if want == Some(m) {
                return Ok(Step::Done);
            }
            let es = san(pos, m, Lang::Es);
            Err(Text::new(
                format!("esa jugada se anota {es}; se pide {text}"),
                format!("that move is written {es}; you are asked for {text}"),
            ))
        }
        Goal::Touched(sq) => {
            if m.from() == *sq {
                return Ok(Step::Done);
            }
            let who = pos
                .role_at(*sq)
                .map(|r| piece_on(r, *sq))
                .unwrap_or_default();
            Err(Text::new(
                format!("tocaste {}: la pieza tocada se mueve (FIDE 4.3.2), si tiene alguna jugada legal", who.es),
                format!("you touched {}: the touched piece must be moved (FIDE 4.3.2) if it has a legal move", who.en),
            ))
        }
        Goal::TouchedOpponent(sq) => {
            if m.to() == *sq {
                return Ok(Step::Done);
            }
            let who = pos
                .role_at(*sq)
                .map(|r| piece_on(r, *sq))
                .unwrap_or_default();
            Err(Text::new(
                format!(
                    "tocaste {} del contrario: tienes que capturarla si puedes (FIDE 4.3.2)",
                    who.es
                ),
                format!(
                    "you touched your opponent's {}: you must capture it if you can (FIDE 4.3.2)",
                    who.en
                ),
            ))
        }
        Goal::Square(_) | Goal::Quiz { .. } | Goal::Ask(_) | Goal::Write(_) => Err(Text::new(
            "aquí no se juega: responde a la pregunta",
            "no move here: answer the question",
        )),
    }
}

/// The ways a legal move `m` gets out of the check (a king capturing the
/// checker is both a king move and a capture).
fn escape_ways(pos: &Position, m: Move) -> Vec<EscapeWay> {
    let checkers = pos.checkers();
    let mut ways = Vec::new();
    let captured = if m.is_en_passant() {
        Square::from_coords(m.to().file(), m.from().rank())
    } else {
        m.to()
    };
    if checkers.contains(captured) {
        ways.push(EscapeWay::Capture);
    }
    if pos.role_at(m.from()) == Some(Role::King) {
        ways.push(EscapeWay::King);
    }
    if ways.is_empty() {
        ways.push(EscapeWay::Block);
    }
    ways
}

/// The game of an exercise: its FEN with the moves before it.
fn exercise_game(ex: &Exercise) -> Game {
    let start = ex
        .fen
        .as_deref()
        .and_then(|f| Position::from_fen(f).ok())
        .or(ex.position)
        .unwrap_or_default();
    let mut g = Game::from_position(start);
    for &m in &ex.history {
        if g.play(m).is_err() {
            break;
        }
    }
    g
}

/// The legal moves of the exercise's position that meet its goal (for a
/// multi-move goal: that keep it reachable), as the rules library computes
/// them. Empty for the goals answered off the board.
pub fn accepted_moves(ex: &Exercise) -> Vec<Move> {
    let Some(pos) = ex.position else {
        return Vec::new();
    };
    if matches!(
        ex.goal,
        Goal::Square(_) | Goal::Quiz { .. } | Goal::Ask(_) | Goal::Write(_)
    ) {
        return Vec::new();
    }
    let left = ex.start().left;
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|&m| accepts(ex, &pos, left, m).is_ok())
        .collect()
}

/// Checks that the exercise can be done; returns the fewest moves it takes.
pub fn validate(ex: &Exercise) -> Result<u32, Text> {
    let no = |es: &str, en: &str| Err(Text::new(es, en));
    match (&ex.goal, ex.position) {
        (Goal::Quiz { options, answers }, _) => {
            if options.len() < 2 {
                return no(
                    "una pregunta necesita al menos dos opciones",
                    "a question needs at least two options",
                );
            }
            if answers.is_empty() {
                return no(
                    "ninguna opción está marcada «correcta»",
                    "no option is marked «correcta»",
                );
            }
            if answers.len() == options.len() {
                return no("todas las opciones son correctas", "every option is right");
            }
            Ok(1)
        }
        (Goal::Square(_), _) | (Goal::Ask(Question::SquareColor(_)), _) => Ok(1),
        (_, None) => no("esta meta necesita un «fen»", "this goal needs a «fen»"),
        (Goal::Ask(q), Some(pos)) => {
            if let Question::Result(r) = q {
                let g = Game::from_position(pos).with_rules(r.rule_set());
                if g.outcome().is_none() {
                    return no(
                        "«resultado» pide una posición terminada (mate, ahogado o muerta)",
                        "«resultado» needs a finished position (mate, stalemate or dead)",
                    );
                }
            }
            Ok(1)
        }
        (Goal::Write(_), Some(_)) => Ok(1),
        (Goal::Stars(s), Some(pos)) => {
            if (*s & pos.occupied()).any() {
                return no(
                    "hay una estrella en una casilla ocupada",
                    "a star is on an occupied square",
                );
            }
            if pos.is_check() {
                return no(
                    "el rey contrario no puede empezar en jaque",
                    "the opponent's king cannot start in check",
                );
            }
            search::fewest(&pos, Left::Stars(*s)).ok_or_else(|| {
                Text::new(
                    format!("las estrellas no se pueden recoger en {} jugadas o menos: meta inalcanzable", search::MAX_MOVES),
                    format!("the stars cannot be collected in {} moves or fewer: unreachable goal", search::MAX_MOVES),
                )
            })
        }
        (Goal::CaptureAll, Some(pos)) => {
            let them = pos.turn().other();
            if (pos.by_color(them) & !pos.pieces(them, Role::King)).is_empty() {
                return no(
                    "el contrario no tiene piezas que capturar",
                    "the opponent has no pieces to capture",
                );
            }
            search::fewest(&pos, Left::Pieces).ok_or_else(|| {
                Text::new(
                    format!(
                        "las piezas no se pueden capturar en {} jugadas o menos: meta inalcanzable",
                        search::MAX_MOVES
                    ),
                    format!(
                        "the pieces cannot be captured in {} moves or fewer: unreachable goal",
                        search::MAX_MOVES
                    ),
                )
            })
        }
        (goal, Some(pos)) => {
            if let Goal::Escape(_) = goal {
                if !pos.is_check() {
                    return no(
                        "«salir» pide una posición con el rey en jaque",
                        "«salir» needs a position with the king in check",
                    );
                }
            }
            if let Goal::Touched(sq) | Goal::TouchedOpponent(sq) = goal {
                let owner = pos.color_at(*sq);
                let want = if matches!(goal, Goal::Touched(_)) {
                    pos.turn()
                } else {
                    pos.turn().other()
                };
                if owner != Some(want) {
                    return Err(Text::new(
                        format!("en {sq} no hay una pieza del bando que pide la meta"),
                        format!("there is no piece of the right side on {sq}"),
                    ));
                }
            }
            if accepted_moves(ex).is_empty() {
                return no(
                    "ninguna jugada legal cumple la meta: meta inalcanzable",
                    "no legal move meets the goal: unreachable goal",
                );
            }
            Ok(1)
        }
    }
}

/// The options of a computed question.
pub fn question_options(q: Question) -> Vec<Text> {
    match q {
        Question::State => vec![
            Text::new("Jaque mate", "Checkmate"),
            Text::new("Ahogado (tablas)", "Stalemate (a draw)"),
            Text::new("Jaque, pero no mate", "Check, but not mate"),
            Text::new(
                "Ninguna de las tres: la partida sigue",
                "None of them: the game goes on",
            ),
        ],
        Question::Flag(_) | Question::Result(_) => vec![
            Text::new("Ganan las blancas (1-0)", "White wins (1-0)"),
            Text::new("Ganan las negras (0-1)", "Black wins (0-1)"),
            Text::new("Tablas (½-½)", "Draw (½-½)"),
        ],
        Question::CanCastle(_) => vec![Text::new("Sí", "Yes"), Text::new("No", "No")],
        Question::SquareColor(_) => vec![Text::new("Blanca", "Light"), Text::new("Negra", "Dark")],
    }
}

fn result_index(r: GameResult) -> usize {
    match r {
        GameResult::WhiteWins => 0,
        GameResult::BlackWins => 1,
        _ => 2,
    }
}

/// The right option of a computed question, from the rules library.
pub fn question_answer(q: Question, pos: &Position) -> usize {
    match q {
        Question::State => {
            if pos.is_checkmate() {
                0
            } else if pos.is_stalemate() {
                1
            } else if pos.is_check() {
                2
            } else {
                3
            }
        }
        Question::Flag(flagged) => {
            if escaque::dead::could_not_mate(pos, flagged.other()) {
                2
            } else {
                result_index(GameResult::win_for(flagged.other()))
            }
        }
        Question::Result(rules) => {
            let g = Game::from_position(*pos).with_rules(rules.rule_set());
            g.result().map(result_index).unwrap_or(2)
        }
        Question::CanCastle(side) => {
            let can = pos
                .legal_moves()
                .iter()
                .any(|m| m.is_castle() && CastlingSide::from_king_to(m.to()) == side);
            if can {
                0
            } else {
                1
            }
        }
        Question::SquareColor(sq) => {
            if sq.is_light() {
                0
            } else {
                1
            }
        }
    }
}

/// Why the right answer is right, from the rules (said after a wrong choice).
pub fn why_answer(q: Question, pos: &Position) -> Text {
    let us = pos.turn();
    match q {
        Question::State => {
            if pos.is_checkmate() {
                Text::new(
                    format!("el rey {} está en jaque y ninguna jugada lo resuelve: es mate", side_es(us)),
                    format!("the {} king is in check and no move answers it: it is mate", side_en(us)),
                )
            } else if pos.is_stalemate() {
                Text::new(
                    format!("el rey {} no está en jaque, pero las {} no tienen ninguna jugada legal: es ahogado", side_es(us), if us == Color::White { "blancas" } else { "negras" }),
                    format!("the {} king is not in check, but {} has no legal move: it is stalemate", side_en(us), side_en(us)),
                )
            } else if let Some(c) = pos.checkers().first() {
                let m = pos.legal_moves().iter().next().copied();
                let reply = m.map(|m| san(pos, m, Lang::Es)).unwrap_or_default();
                let reply_en = m.map(|m| san(pos, m, Lang::En)).unwrap_or_default();
                let by = pos.role_at(c).map(|r| of_piece_on(r, c)).unwrap_or_default();
                Text::new(
                    format!("el rey está en jaque {}, pero puede salir: por ejemplo {reply}", by.es),
                    format!("the king is in check from {}, but it can get out: for example {reply_en}", by.en),
                )
            } else {
                Text::new(
                    "no hay jaque y hay jugadas legales: la partida sigue",
                    "there is no check and there are legal moves: the game goes on",
                )
            }
        }
        Question::Flag(flagged) => {
            let other = flagged.other();
            if escaque::dead::could_not_mate(pos, other) {
                Text::new(
                    format!("las {} no podrían dar mate con ninguna serie de jugadas legales: si cae la bandera, es tablas (FIDE 6.9)", if other == Color::White { "blancas" } else { "negras" }),
                    format!("{} could not mate by any series of legal moves: when the flag falls it is a draw (FIDE 6.9)", side_en(other)),
                )
            } else {
                Text::new(
                    format!("las {} todavía podrían dar mate con alguna serie de jugadas legales: si cae la bandera, pierde quien se quedó sin tiempo (FIDE 6.9)", if other == Color::White { "blancas" } else { "negras" }),
                    format!("{} could still mate by some series of legal moves: when the flag falls the player out of time loses (FIDE 6.9)", side_en(other)),
                )
            }
        }
        Question::Result(rules) => {
            let g = Game::from_position(*pos).with_rules(rules.rule_set());
            match g.outcome() {
                Some(o) => {
                    let t = o.termination.message(Lang::Es);
                    let te = o.termination.message(Lang::En);
                    Text::new(
                        format!("{}: {}", capital(&t), o.result.pgn()),
                        format!("{}: {}", capital(&te), o.result.pgn()),
                    )
                }
                None => Text::new("la partida sigue", "the game goes on"),
            }
        }
        Question::CanCastle(side) => {
            let king = pos.king(us);
            let to = side.king_to(us);
            if pos.legal_moves().iter().any(|m| m.is_castle() && m.to() == to) {
                Text::new(
                    "sí se puede: el rey y la torre no se han movido, no hay piezas en medio, el rey no está en jaque y no pasa ni queda en una casilla atacada",
                    "yes: neither the king nor the rook has moved, nothing stands between them, the king is not in check and does not cross or land on an attacked square",
                )
            } else {
                let m = Move::castle(king, to);
                let r = pos.illegal_reason(m);
                let r = if r == IllegalReason::CannotReach(Role::King) {
                    IllegalReason::CastlingRightLost
                } else {
                    r
                };
                reason::illegal(pos, m, r)
            }
        }
        Question::SquareColor(sq) => Text::new(
            format!(
                "{sq} es {}: la casilla de la esquina derecha más cercana a cada jugador (h1, a8) es blanca, y los colores se alternan",
                if sq.is_light() { "blanca" } else { "negra" }
            ),
            format!(
                "{sq} is {}: the corner square on each player's right (h1, a8) is light, and the colours alternate",
                if sq.is_light() { "light" } else { "dark" }
            ),
        ),
    }
}
