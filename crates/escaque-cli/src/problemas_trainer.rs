//! The puzzle trainer's state, shared by the plain-line mode
//! (`problemas_cmd`) and the full-screen one (`tui::problemas`): the
//! player's own rating kept between runs, one attempt at a puzzle, and the
//! words both modes show. It imports neither mode, so the two depend on it
//! and not on each other.

use std::io;
use std::path::{Path, PathBuf};

use escaque::san::san_display;
use escaque::{Color, Lang, Move, Position};
use escaque_analysis::problemas::{Puzzle, Theme};
use escaque_torneo::glicko::{rate_game, ColorAdvantage, Glicko};

/// Where the player's own puzzle rating is kept: `$ESCAQUE_DATOS` when set,
/// else `~/.local/share/escaque`, file `problemas-puntuacion.txt`.
pub fn rating_path() -> Option<PathBuf> {
    let dir = match std::env::var_os("ESCAQUE_DATOS") {
        Some(d) => PathBuf::from(d),
        None => Path::new(&std::env::var_os("HOME")?).join(".local/share/escaque"),
    };
    Some(dir.join("problemas-puntuacion.txt"))
}

/// The player's own puzzle rating, kept between runs: one line
/// `rating deviation volatility solved missed`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalRating {
    /// Rating, deviation and volatility (a new player: 1500, 500, 0.09).
    pub glicko: Glicko,
    /// Puzzles solved.
    pub solved: u32,
    /// Puzzles missed.
    pub missed: u32,
}

impl Default for LocalRating {
    fn default() -> LocalRating {
        LocalRating {
            glicko: Glicko::DEFAULT,
            solved: 0,
            missed: 0,
        }
    }
}

impl LocalRating {
    /// Reads the line; a missing or unreadable file gives a new player.
    pub fn load(path: Option<&Path>) -> LocalRating {
        let Some(text) = path.and_then(|p| std::fs::read_to_string(p).ok()) else {
            return LocalRating::default();
        };
        LocalRating::parse(&text).unwrap_or_default()
    }

    /// The stored line, or `None` when it is not one.
    pub fn parse(text: &str) -> Option<LocalRating> {
        let w: Vec<&str> = text.split_whitespace().collect();
        if w.len() != 5 {
            return None;
        }
        let glicko = Glicko {
            rating: w[0].parse().ok()?,
            deviation: w[1].parse().ok()?,
            volatility: w[2].parse().ok()?,
        };
        let ok = [glicko.rating, glicko.deviation, glicko.volatility]
            .iter()
            .all(|x| x.is_finite() && *x > 0.0);
        ok.then_some(LocalRating {
            glicko,
            solved: w[3].parse().ok()?,
            missed: w[4].parse().ok()?,
        })
    }

    /// Writes the line (the folder made when missing).
    pub fn save(&self, path: &Path) -> io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(
            path,
            format!(
                "{} {} {} {} {}\n",
                self.glicko.rating,
                self.glicko.deviation,
                self.glicko.volatility,
                self.solved,
                self.missed
            ),
        )
    }

    /// After a puzzle of `puzzle_rating` scored `score` (1 solved, ½ solved
    /// after a hint, 0 missed): Glicko-2 with the puzzle as the opponent, as
    /// escaque's server rates (one game a period, no colour advantage).
    pub fn after(&mut self, puzzle_rating: i32, score: f64) {
        let puzzle = Glicko {
            rating: f64::from(puzzle_rating),
            deviation: 300.0,
            volatility: escaque_torneo::glicko::DEFAULT_VOLATILITY,
        };
        if let Ok([me, _]) = rate_game(self.glicko, puzzle, score, ColorAdvantage::ZERO) {
            self.glicko = me.capped();
        }
        if score > 0.0 {
            self.solved += 1;
        } else {
            self.missed += 1;
        }
    }
}

/// What a move did to an [`Attempt`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Not the solution's move (nor a mate): the puzzle is missed.
    Wrong,
    /// The right move; the opponent answered (`reply`, in SAN).
    Good {
        /// The solver's move in SAN.
        san: String,
        /// The opponent's answer in SAN.
        reply: String,
    },
    /// The last move (or another mate): solved.
    Solved {
        /// The solver's move in SAN.
        san: String,
    },
}

/// One puzzle being played: the position shown, the next move's index, the
/// hints asked; both the text mode and the full screen judge with it.
#[derive(Clone, Debug)]
pub struct Attempt<'p> {
    /// The puzzle.
    pub puzzle: &'p Puzzle,
    /// The position on the board (the solver to move while playing).
    pub pos: Position,
    /// Index in `puzzle.moves` of the solver's next move.
    pub index: usize,
    /// Hints asked.
    pub hints: u32,
    /// `Some(true)` solved, `Some(false)` missed (or the solution asked).
    pub result: Option<bool>,
    /// The last move played on the board (for drawing it).
    pub last: Move,
}

impl<'p> Attempt<'p> {
    /// The puzzle after the opponent's first move.
    pub fn new(puzzle: &'p Puzzle) -> Attempt<'p> {
        Attempt {
            puzzle,
            pos: puzzle.shown_position(),
            index: 1,
            hints: 0,
            result: None,
            last: puzzle.moves[0],
        }
    }

    /// The opponent's first move in SAN.
    pub fn first_move(&self, lang: Lang) -> String {
        san_display(&self.puzzle.start, self.puzzle.moves[0], lang)
    }

    /// The score for the rating: 1 solved, ½ solved after a hint, 0 missed.
    pub fn score(&self) -> f64 {
        match self.result {
            Some(true) if self.hints == 0 => 1.0,
            Some(true) => 0.5,
            _ => 0.0,
        }
    }

    /// Plays the solver's `mv` (legal in [`Attempt::pos`]).
    pub fn play(&mut self, mv: Move, lang: Lang) -> Step {
        let p = self.puzzle;
        let i = self.index;
        if self.result.is_some() || !p.accepts(i, mv) {
            self.result.get_or_insert(false);
            return Step::Wrong;
        }
        let san = san_display(&self.pos, mv, lang);
        self.pos.play_unchecked(mv);
        self.last = mv;
        if mv != p.moves[i] || i + 1 >= p.moves.len() {
            self.result = Some(true);
            return Step::Solved { san };
        }
        let reply = p.moves[i + 1];
        let reply_san = san_display(&self.pos, reply, lang);
        self.pos.play_unchecked(reply);
        self.last = reply;
        self.index += 2;
        Step::Good {
            san,
            reply: reply_san,
        }
    }

    /// The hint: the piece to move and its square.
    pub fn hint(&mut self, lang: Lang) -> String {
        self.hints += 1;
        let from = self.puzzle.moves[self.index].from();
        let role = self.pos.role_at(from).unwrap_or(escaque::Role::Pawn);
        lang.pick(
            format!("Pista: mueve {} de {from}.", role_name(role, lang)),
            format!("Hint: move {} on {from}.", role_name(role, lang)),
        )
    }

    /// The rest of the solution in SAN (the puzzle counts as missed).
    pub fn solution(&mut self, lang: Lang) -> String {
        if self.result.is_none() {
            self.result = Some(false);
        }
        let mut q = self.pos;
        let mut sans = Vec::new();
        for &m in &self.puzzle.moves[self.index..] {
            sans.push(san_display(&q, m, lang));
            q.play_unchecked(m);
        }
        sans.join(" ")
    }
}

pub(crate) fn side_name(c: Color, lang: Lang) -> &'static str {
    match c {
        Color::White => lang.pick("blancas", "White"),
        Color::Black => lang.pick("negras", "Black"),
    }
}

pub(crate) fn role_name(r: escaque::Role, lang: Lang) -> &'static str {
    use escaque::Role::*;
    match r {
        Pawn => lang.pick("el peón", "the pawn"),
        Knight => lang.pick("el caballo", "the knight"),
        Bishop => lang.pick("el alfil", "the bishop"),
        Rook => lang.pick("la torre", "the rook"),
        Queen => lang.pick("la dama", "the queen"),
        King => lang.pick("el rey", "the king"),
    }
}

pub(crate) fn themes_text(p: &Puzzle, lang: Lang) -> String {
    p.themes
        .iter()
        .map(|k| Theme::from_key(k).map_or(k.as_str(), |t| t.name(lang)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The puzzle's rating as shown: stars (1–5) for children, else the number.
pub(crate) fn shown_rating(rating: i32, kids: bool) -> String {
    if kids {
        "★".repeat(((rating - 400) / 400).clamp(1, 5) as usize)
    } else {
        rating.to_string()
    }
}

/// The player's rating change after a puzzle, in words.
pub(crate) fn rating_change(before: &LocalRating, after: &LocalRating, lang: Lang) -> String {
    let (a, b) = (before.glicko.rating.round(), after.glicko.rating.round());
    lang.pick(
        format!("Tu puntuación: {a} → {b} ({:+}).", b - a),
        format!("Your rating: {a} → {b} ({:+}).", b - a),
    )
}
