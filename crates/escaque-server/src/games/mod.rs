//! Games: the one game builder (issue 53). Every way a game is started —
//! a game created (`POST /api/games`), a seek accepted, a simul's boards,
//! a teacher's class game, a tournament's board — works out its start
//! position and colours here and gets its [`NewGame`] from [`build`] (or
//! [`GameSpec::start`] then [`Start::game`], for the caller that checks
//! something between the two):
//!
//! - a FEN, when given, is the start position (read with Chess960
//!   castling for a Chess960 game), and the first seat takes the colour
//!   asked for;
//! - otherwise a Chess960 game starts from the number asked for or one
//!   drawn now;
//! - otherwise odds: the first seat gives them from the usual side (the
//!   colour asked for is not used);
//! - otherwise the usual position, the first seat the colour asked for
//!   (`random`: drawn now).
//!
//! Chess960 takes no odds, nor a FEN together with a position number.
//! What is refused is a [`Refusal`], given its HTTP status in
//! `crate::http::error`; this module knows nothing of HTTP.

mod variant;

use escaque::{Color, FenError, Lang, Localized, Odds, Position, RuleSet, TimeControl};

pub use variant::Variant;

use crate::{NewGame, Seat};

/// Why a new game's start position or colours cannot be worked out. Every
/// one is a fault of the request (its kind: invalid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The FEN does not read; the library's reason.
    BadFen(FenError),
    /// Odds with no such id, alias or name (the text sent).
    UnknownOdds(String),
    /// A colour that is not white, black or random (the text sent).
    UnknownColor(String),
    /// A variant that is not standard or chess960 (the text sent).
    UnknownVariant(String),
    /// A Chess960 position that is not 0–959 or `random` (the text sent).
    PositionOutOfRange(String),
    /// A `position` without `variant: chess960`.
    PositionWithoutChess960,
    /// Chess960 with odds, or with both a FEN and a position number.
    Chess960Mix,
}

impl Refusal {
    /// The stable code (the protocol's `code`).
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::BadFen(_) => "bad_fen",
            Refusal::UnknownOdds(_) => "bad_odds",
            Refusal::UnknownColor(_) => "bad_color",
            Refusal::UnknownVariant(_) | Refusal::Chess960Mix => "bad_variant",
            Refusal::PositionOutOfRange(_) | Refusal::PositionWithoutChess960 => "bad_position",
        }
    }

    /// The Spanish and English texts.
    pub fn text(&self) -> (String, String) {
        match self {
            Refusal::BadFen(e) => (e.message(Lang::Es), e.message(Lang::En)),
            Refusal::UnknownOdds(o) => (
                format!("ventaja desconocida: «{o}» (pawn_and_move, knight, rook, queen)"),
                format!("unknown odds: \"{o}\" (pawn_and_move, knight, rook, queen)"),
            ),
            Refusal::UnknownColor(c) => (
                format!("color desconocido: «{c}» (white, black, random)"),
                format!("unknown colour: \"{c}\" (white, black, random)"),
            ),
            Refusal::UnknownVariant(v) => (
                format!("variante desconocida: «{v}» (standard, chess960)"),
                format!("unknown variant: \"{v}\" (standard, chess960)"),
            ),
            Refusal::PositionOutOfRange(p) => (
                format!("posición de Chess960 fuera de rango: {p} (0–959 o «random»)"),
                format!("Chess960 position out of range: {p} (0–959 or \"random\")"),
            ),
            Refusal::PositionWithoutChess960 => (
                "«position» es solo para Chess960 (variant: chess960)".into(),
                "\"position\" is for Chess960 only (variant: chess960)".into(),
            ),
            Refusal::Chess960Mix => (
                "Chess960 no admite ventaja, ni un FEN junto a un número de posición".into(),
                "Chess960 takes no odds, nor a FEN together with a position number".into(),
            ),
        }
    }
}

impl From<FenError> for Refusal {
    fn from(e: FenError) -> Refusal {
        Refusal::BadFen(e)
    }
}

/// Odds as a request names them: the library's one reader (the id, an
/// alias or the name; see `Odds::ALIASES`); none when absent.
pub fn read_odds(s: Option<&str>) -> Result<Option<Odds>, Refusal> {
    s.map(|o| {
        o.parse::<Odds>()
            .map_err(|_| Refusal::UnknownOdds(o.to_string()))
    })
    .transpose()
}

/// The colour a seat asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Drawn when the game is built.
    Random,
}

impl ColorChoice {
    /// Reads `white`/`blancas`, `black`/`negras`, `random`/`azar`; absent:
    /// `absent`.
    pub fn read(s: Option<&str>, absent: ColorChoice) -> Result<ColorChoice, Refusal> {
        match s {
            None => Ok(absent),
            Some("white") | Some("blancas") => Ok(ColorChoice::White),
            Some("black") | Some("negras") => Ok(ColorChoice::Black),
            Some("random") | Some("azar") => Ok(ColorChoice::Random),
            Some(c) => Err(Refusal::UnknownColor(c.to_string())),
        }
    }

    /// `white`, `black` or `random`, as the protocol and storage write it.
    pub fn id(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }

    /// The colour: as asked, or drawn now.
    pub fn draw(self) -> Color {
        match self {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random => {
                if rand::random::<bool>() {
                    Color::White
                } else {
                    Color::Black
                }
            }
        }
    }
}

/// What decides a new game's start position and its first seat's colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// Standard or Chess960 (numbered or drawn).
    pub variant: Variant,
    /// A start position as FEN.
    pub fen: Option<String>,
    /// Odds given by the first seat.
    pub odds: Option<Odds>,
    /// The first seat's colour.
    pub color: ColorChoice,
}

impl GameSpec {
    /// Standard chess from the usual position, the first seat `color`.
    pub fn standard(color: ColorChoice) -> GameSpec {
        GameSpec {
            variant: Variant::Standard,
            fen: None,
            odds: None,
            color,
        }
    }

    /// Refuses what does not mix: Chess960 with odds, or with a FEN and a
    /// position number together.
    pub fn check(&self) -> Result<(), Refusal> {
        let numbered = self.variant.number().is_some();
        if self.variant.is_chess960() && (self.odds.is_some() || (self.fen.is_some() && numbered)) {
            return Err(Refusal::Chess960Mix);
        }
        Ok(())
    }

    /// The start position and the first seat's colour (a random colour
    /// and a Chess960 position without a number are drawn now).
    pub fn start(&self) -> Result<Start, Refusal> {
        self.check()?;
        let mut first = self.color.draw();
        let position = match (&self.fen, self.odds, self.variant.start()) {
            (Some(f), _, _) => self.variant.read_fen(f)?,
            (None, _, Some(p)) => p,
            (None, Some(o), None) => {
                // The first seat gives the odds, from the usual side.
                first = o.usual_giver();
                o.position_for(first)
            }
            (None, None, None) => Position::new(),
        };
        Ok(Start {
            position,
            first,
            chess960: self.variant.is_chess960(),
        })
    }
}

/// A new game's start, worked out: the position, the first seat's colour.
#[derive(Clone, Debug)]
pub struct Start {
    /// The start position.
    pub position: Position,
    /// The first seat's colour.
    pub first: Color,
    /// A Chess960 game.
    pub chess960: bool,
}

/// What a new game is besides its start and its seats.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Rules.
    pub rules: RuleSet,
    /// Clock.
    pub time_control: Option<TimeControl>,
    /// Rated (the caller has checked that it may be).
    pub rated: bool,
    /// The class it is played in.
    pub class_id: Option<String>,
}

impl Settings {
    /// A casual game under FIDE's rules, in `class_id` when given.
    pub fn casual(time_control: Option<TimeControl>, class_id: Option<String>) -> Settings {
        Settings {
            rules: RuleSet::fide_2023(),
            time_control,
            rated: false,
            class_id,
        }
    }
}

impl Start {
    /// The new game: `first` seated on [`Start::first`], `second` on the
    /// other colour.
    pub fn game(self, first: Seat, second: Seat, settings: Settings) -> NewGame {
        let (white, black) = match self.first {
            Color::White => (first, second),
            Color::Black => (second, first),
        };
        NewGame {
            rules: settings.rules,
            start: self.position,
            time_control: settings.time_control,
            white,
            black,
            chess960: self.chess960,
            rated: settings.rated,
            class_id: settings.class_id,
        }
    }
}

/// The one game builder: `spec`'s start position and colours, `first`
/// seated on the first seat's colour, `second` on the other. Returns the
/// game and the first seat's colour.
pub fn build(
    spec: &GameSpec,
    first: Seat,
    second: Seat,
    settings: Settings,
) -> Result<(NewGame, Color), Refusal> {
    let start = spec.start()?;
    let color = start.first;
    Ok((start.game(first, second, settings), color))
}

#[cfg(test)]
mod tests;
