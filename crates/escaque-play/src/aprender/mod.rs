//! # Aprende a jugar — the rules as a course
//!
//! The course a club teacher gives (seed 001's order and words): the board,
//! each piece moving and capturing, check and the three ways out of it
//! (seed 004), mate, stalemate, castling, en passant, promotion, the draws,
//! the clock and the flag, notation, the arbiter's rules and the London rules
//! of 1846. Each stage is one data file in `crates/escaque-play/cursos/`
//! (embedded in the binary, so nothing is read from disk at run time); the
//! format is described in [`parse`].
//!
//! An exercise names a position and a goal. **What is accepted is computed by
//! the rules library, never listed by hand**: the moves that give mate are the
//! legal moves after which [`escaque::Position::is_checkmate`] holds, the
//! squares a star can be reached from come from a search over the legal moves,
//! the answer to "¿quién gana si cae la bandera?" comes from
//! [`escaque::dead::could_not_mate`]. A refused move gets a reason taken from
//! the rules ([`reason`]): "el caballo salta en L", "tu rey quedaría en jaque
//! del alfil de b5", "no puedes enrocar: el rey pasaría por f1, atacada por el
//! alfil de c4".
//!
//! A pupil works through an exercise with an [`Attempt`]: each try is answered
//! with a [`Verdict`]; when the goal is met the attempt has its stars (1 to 3,
//! by the moves and tries used against the fewest possible, [`stars`]).
//!
//! ```
//! use escaque::{Lang, Square};
//! use escaque_play::aprender::{Course, Input, Verdict};
//!
//! let course = Course::builtin().unwrap();
//! assert!(course.stages.len() >= 20);
//! let rook = course.stage("torre").unwrap();
//! let mut attempt = rook.exercises[0].start();
//! // A rook does not move diagonally: refused, with the reason.
//! let v = attempt.try_input(&Input::Move { from: Square::A1, to: Square::B2, promotion: None });
//! match v {
//!     Verdict::Refused(r) => assert!(r.get(Lang::Es).contains("filas y columnas")),
//!     other => panic!("{other:?}"),
//! }
//! ```

pub mod coords;
mod judge;
pub mod parse;
pub mod progress;
pub mod reason;
mod search;

use escaque::{Bitboard, CastlingSide, Color, Lang, Move, Position, Role, Square};

pub use judge::{stars, Attempt, Input, Verdict};
pub use parse::{parse_stage, LoadError};

/// A text in Spanish and in English.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Text {
    /// Spanish.
    pub es: String,
    /// English.
    pub en: String,
}

impl Text {
    /// A text from its two languages.
    pub fn new(es: impl Into<String>, en: impl Into<String>) -> Text {
        Text {
            es: es.into(),
            en: en.into(),
        }
    }

    /// The text in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::Es => &self.es,
            Lang::En => &self.en,
        }
    }
}

/// One stage of the course: one file.
#[derive(Clone, Debug)]
pub struct Stage {
    /// The stable id (`torre`, `enroque`): used in URLs and in stored progress.
    pub id: String,
    /// The file the stage came from (for messages).
    pub file: String,
    /// The title.
    pub title: Text,
    /// The seed article it teaches ("Semilla 001, art. 3").
    pub source: Text,
    /// The seed's own words, quoted (Spanish: the seeds are Spanish).
    pub quote: String,
    /// What the stage is about, told to the pupil before the first exercise.
    pub intro: Text,
    /// The exercises, in order.
    pub exercises: Vec<Exercise>,
}

/// How a check is to be answered, when an exercise asks for one way (seed
/// 004: capture the attacker, move the king, block).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EscapeWay {
    /// Capture the piece that gives check.
    Capture,
    /// Move the king to a square that is not attacked.
    King,
    /// Put a piece between the attacker and the king.
    Block,
}

/// A question whose answer the rules library computes from the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Checkmate, stalemate, check, or none of them (for the side to move).
    State,
    /// The flag of `Color` falls: who wins (FIDE 6.9: a draw when the
    /// opponent cannot mate by any series of legal moves).
    Flag(Color),
    /// Can the side to move castle to that side now?
    CanCastle(CastlingSide),
    /// The colour of a square.
    SquareColor(Square),
    /// The result of this finished (or dead) position under a rule set.
    Result(Rules),
}

/// The rule sets a question may be asked under.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Rules {
    /// FIDE 2023.
    Fide,
    /// London 1846, "en Francia y otras naciones" (stalemate a draw).
    Londres,
    /// London 1846, "en Inglaterra" (the stalemated player wins).
    Inglaterra,
}

impl Rules {
    /// The rules library's rule set.
    pub fn rule_set(self) -> escaque::RuleSet {
        match self {
            Rules::Fide => escaque::RuleSet::fide_2023(),
            Rules::Londres => escaque::RuleSet::londres_1846(),
            Rules::Inglaterra => escaque::RuleSet::londres_1846_inglaterra(),
        }
    }
}

/// What an exercise asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Touch (click, name) this square.
    Square(Square),
    /// Collect every star with your pieces; the opponent does not move.
    Stars(Bitboard),
    /// Take every piece of the opponent but the king; the opponent does not move.
    CaptureAll,
    /// Give checkmate in one move.
    Mate,
    /// Get out of check (in the given way, or any).
    Escape(Option<EscapeWay>),
    /// Castle (to that side, or either).
    Castle(Option<CastlingSide>),
    /// Capture en passant.
    EnPassant,
    /// Promote a pawn (to that piece, or any) without drawing the game.
    Promote(Option<Role>),
    /// Play a move after which the game is drawn or a draw may be claimed.
    Draw,
    /// Play the move written in Spanish notation (the text as shown).
    Read(String),
    /// Write this move in Spanish notation.
    Write(Move),
    /// Touch-move: the piece on this square was touched; move it.
    Touched(Square),
    /// Touch-move: the opponent's piece on this square was touched; capture it.
    TouchedOpponent(Square),
    /// A question with written options; `answers` are the right ones.
    Quiz {
        /// The options, in order.
        options: Vec<Text>,
        /// The indices of the right options.
        answers: Vec<usize>,
    },
    /// A question the rules library answers.
    Ask(Question),
}

impl Goal {
    /// The kind of goal, a stable id (`estrellas`, `mate`, `pregunta`…) used
    /// by the front ends to choose how to show it.
    pub fn kind(&self) -> &'static str {
        match self {
            Goal::Square(_) => "casilla",
            Goal::Stars(_) => "estrellas",
            Goal::CaptureAll => "capturar",
            Goal::Mate => "mate",
            Goal::Escape(_) => "salir",
            Goal::Castle(_) => "enrocar",
            Goal::EnPassant => "alpaso",
            Goal::Promote(_) => "coronar",
            Goal::Draw => "tablas",
            Goal::Read(_) => "leer",
            Goal::Write(_) => "escribir",
            Goal::Touched(_) => "tocada",
            Goal::TouchedOpponent(_) => "tomar",
            Goal::Quiz { .. } => "pregunta",
            Goal::Ask(_) => "calcular",
        }
    }

    /// Whether the pupil answers by choosing an option (not on the board).
    pub fn is_question(&self) -> bool {
        matches!(self, Goal::Quiz { .. } | Goal::Ask(_))
    }
}

/// One exercise: a position (or none, for a question about words) and a goal.
#[derive(Clone, Debug)]
pub struct Exercise {
    /// The line of the file where it starts (for messages).
    pub line: usize,
    /// What the pupil is asked to do.
    pub task: Text,
    /// The position as written in the file (before `previas`).
    pub fen: Option<String>,
    /// Moves played from `fen` before the exercise (for repetitions).
    pub history: Vec<Move>,
    /// The position the pupil sees (after `history`); `None` for a question
    /// about words only.
    pub position: Option<Position>,
    /// The goal.
    pub goal: Goal,
    /// Told after the goal is met.
    pub note: Option<Text>,
    /// The fewest moves (or answers) that meet the goal, from the rules.
    pub min_moves: u32,
}

impl Exercise {
    /// The side the pupil plays (the side to move), White for a question
    /// without a position.
    pub fn side(&self) -> Color {
        self.position.map_or(Color::White, |p| p.turn())
    }

    /// The stars of a [`Goal::Stars`] exercise.
    pub fn star_squares(&self) -> Bitboard {
        match self.goal {
            Goal::Stars(s) => s,
            _ => Bitboard::EMPTY,
        }
    }

    /// The options of a question, in order (written ones, or the fixed ones
    /// of a computed question).
    pub fn options(&self) -> Vec<Text> {
        match &self.goal {
            Goal::Quiz { options, .. } => options.clone(),
            Goal::Ask(q) => judge::question_options(*q),
            _ => Vec::new(),
        }
    }

    /// The indices of the right options of a question, as the rules library
    /// (or, for a question about words, the file) says.
    pub fn right_options(&self) -> Vec<usize> {
        match &self.goal {
            Goal::Quiz { answers, .. } => answers.clone(),
            Goal::Ask(q) => match (q, self.position) {
                (_, Some(p)) => vec![judge::question_answer(*q, &p)],
                // The one question asked without a board.
                (Question::SquareColor(_), None) => {
                    vec![judge::question_answer(*q, &Position::new())]
                }
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }
}

/// The whole course: the stages in order.
#[derive(Clone, Debug)]
pub struct Course {
    /// The stages, in the teacher's order.
    pub stages: Vec<Stage>,
}

/// The stage files shipped in the binary, in order.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "01-tablero.curso",
        include_str!("../../cursos/01-tablero.curso"),
    ),
    (
        "02-torre.curso",
        include_str!("../../cursos/02-torre.curso"),
    ),
    (
        "03-alfil.curso",
        include_str!("../../cursos/03-alfil.curso"),
    ),
    ("04-dama.curso", include_str!("../../cursos/04-dama.curso")),
    ("05-rey.curso", include_str!("../../cursos/05-rey.curso")),
    (
        "06-caballo.curso",
        include_str!("../../cursos/06-caballo.curso"),
    ),
    ("07-peon.curso", include_str!("../../cursos/07-peon.curso")),
    (
        "08-capturar.curso",
        include_str!("../../cursos/08-capturar.curso"),
    ),
    (
        "09-jaque.curso",
        include_str!("../../cursos/09-jaque.curso"),
    ),
    ("10-mate.curso", include_str!("../../cursos/10-mate.curso")),
    (
        "11-ahogado.curso",
        include_str!("../../cursos/11-ahogado.curso"),
    ),
    (
        "12-enroque.curso",
        include_str!("../../cursos/12-enroque.curso"),
    ),
    (
        "13-alpaso.curso",
        include_str!("../../cursos/13-alpaso.curso"),
    ),
    (
        "14-coronacion.curso",
        include_str!("../../cursos/14-coronacion.curso"),
    ),
    (
        "15-tablas.curso",
        include_str!("../../cursos/15-tablas.curso"),
    ),
    (
        "16-reloj.curso",
        include_str!("../../cursos/16-reloj.curso"),
    ),
    ("17-leer.curso", include_str!("../../cursos/17-leer.curso")),
    (
        "18-escribir.curso",
        include_str!("../../cursos/18-escribir.curso"),
    ),
    (
        "19-tocada.curso",
        include_str!("../../cursos/19-tocada.curso"),
    ),
    (
        "20-arbitro.curso",
        include_str!("../../cursos/20-arbitro.curso"),
    ),
    (
        "21-reglas-1846.curso",
        include_str!("../../cursos/21-reglas-1846.curso"),
    ),
];

impl Course {
    /// Reads stage files (name, text) in order; the first bad one is refused
    /// with its file and line.
    pub fn load(files: &[(&str, &str)]) -> Result<Course, LoadError> {
        let mut stages: Vec<Stage> = Vec::new();
        for (name, text) in files {
            let stage = parse_stage(name, text)?;
            if stages.iter().any(|s| s.id == stage.id) {
                return Err(LoadError {
                    file: (*name).to_string(),
                    line: 1,
                    message: Text::new(
                        format!("la etapa «{}» ya existe en otro fichero", stage.id),
                        format!("stage «{}» already exists in another file", stage.id),
                    ),
                });
            }
            stages.push(stage);
        }
        Ok(Course { stages })
    }

    /// The course shipped in the binary ([`BUILTIN`]), checked as any other:
    /// a bad file is refused with its name and line (the tests load it, so a
    /// release never carries one).
    pub fn builtin() -> Result<Course, LoadError> {
        Course::load(BUILTIN)
    }

    /// The stage with that id.
    pub fn stage(&self, id: &str) -> Option<&Stage> {
        self.stages.iter().find(|s| s.id == id)
    }

    /// The number of exercises in all stages.
    pub fn exercise_count(&self) -> usize {
        self.stages.iter().map(|s| s.exercises.len()).sum()
    }
}
