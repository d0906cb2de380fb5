//! Typed errors with their Spanish and English wording in one place.

use std::fmt;

use escaque::{Lang, Localized};

/// A start number (as `model::PlayerId`).
type PlayerId = u32;

/// What is wrong in a TRF file, and where (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrfError {
    pub line: usize,
    pub column: usize,
    pub kind: TrfErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrfErrorKind {
    /// A field that should hold a number holds something else.
    BadNumber { field: &'static str, text: String },
    /// A player's start number appears twice.
    DuplicateStartNumber(u32),
    /// A round entry's result code is not one TRF defines.
    BadResult(char),
    /// A round entry's colour is not `w`, `b` or `-`.
    BadColour(char),
    /// A player line is shorter than its fixed fields.
    ShortLine,
    /// A game names an opponent who is not in the file.
    UnknownOpponent {
        player: u32,
        opponent: u32,
        round: u32,
    },
    /// The two sides of a game disagree (colours, opponent or result).
    Inconsistent {
        player: u32,
        opponent: u32,
        round: u32,
    },
    /// A record names a player number that is not in the file.
    UnknownPlayer(u32),
    /// Start numbers must be 1..=n without gaps.
    StartNumbersNotContiguous(u32),
    /// Text that is not valid in this line.
    Unexpected(String),
    /// A tie-break code escaque does not compute.
    UnknownTieBreak(String),
    /// A record escaque reads but cannot honour (team tournaments, abnormal
    /// points, a scoring system other than 1, ½, 0).
    Unsupported(Unsupported),
    /// A round number of 0 or a range whose end comes before its start.
    BadRange { first: u32, last: u32 },
    /// Record `192` names a pairing system or variant escaque does not pair
    /// (anything but the FIDE Dutch system, with or without Baku acceleration).
    UnsupportedSystem(String),
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for TrfError {}

impl Localized for TrfError {
    fn message(&self, lang: Lang) -> String {
        let what = match &self.kind {
            TrfErrorKind::BadNumber { field, text } => lang.pick(
                format!("el campo «{field}» debe ser un número y dice «{text}»"),
                format!("field '{field}' must be a number, found '{text}'"),
            ),
            TrfErrorKind::DuplicateStartNumber(n) => lang.pick(
                format!("el número inicial {n} está repetido"),
                format!("start number {n} appears twice"),
            ),
            TrfErrorKind::BadResult(c) => lang.pick(
                format!("resultado desconocido «{c}»"),
                format!("unknown result code '{c}'"),
            ),
            TrfErrorKind::BadColour(c) => lang.pick(
                format!("color desconocido «{c}» (w, b o -)"),
                format!("unknown colour '{c}' (w, b or -)"),
            ),
            TrfErrorKind::ShortLine => lang.pick(
                "la línea de jugador es demasiado corta".to_string(),
                "the player line is too short".to_string(),
            ),
            TrfErrorKind::UnknownOpponent {
                player,
                opponent,
                round,
            } => lang.pick(
                format!("el jugador {player} tiene en la ronda {round} un rival {opponent} que no existe"),
                format!("player {player} has in round {round} an opponent {opponent} who does not exist"),
            ),
            TrfErrorKind::Inconsistent {
                player,
                opponent,
                round,
            } => lang.pick(
                format!("la partida {player}–{opponent} de la ronda {round} no coincide en las dos líneas (rival, color o resultado)"),
                format!("game {player}–{opponent} of round {round} differs between the two lines (opponent, colour or result)"),
            ),
            TrfErrorKind::UnknownPlayer(n) => lang.pick(
                format!("no hay ningún jugador con el número {n}"),
                format!("there is no player number {n}"),
            ),
            TrfErrorKind::StartNumbersNotContiguous(n) => lang.pick(
                format!("falta el número inicial {n} (deben ir de 1 a n sin huecos)"),
                format!("start number {n} is missing (they must run from 1 to n)"),
            ),
            TrfErrorKind::Unexpected(t) => lang.pick(
                format!("texto inesperado «{t}»"),
                format!("unexpected text '{t}'"),
            ),
            TrfErrorKind::UnknownTieBreak(t) => lang.pick(
                format!("desempate desconocido «{t}» (escaque calcula BH, BH-C1, BH-M1, SB, DE, WIN, WON, BPG, ARO, PS y KS)"),
                format!("unknown tie-break '{t}' (escaque computes BH, BH-C1, BH-M1, SB, DE, WIN, WON, BPG, ARO, PS and KS)"),
            ),
            TrfErrorKind::Unsupported(what) => match what {
                Unsupported::Teams => lang.pick(
                    "los torneos por equipos (registros 013 y 310) no están admitidos",
                    "team tournaments (records 013 and 310) are not supported",
                ),
                Unsupported::AbnormalPoints => lang.pick(
                    "las asignaciones anómalas de puntos (registro 299) no están admitidas",
                    "abnormal point assignments (record 299) are not supported",
                ),
                Unsupported::Scoring => lang.pick(
                    "solo se admite la puntuación 1, ½, 0 (registro 162)",
                    "only the 1, ½, 0 scoring is supported (record 162)",
                ),
            }
            .to_string(),
            TrfErrorKind::BadRange { first, last } => lang.pick(
                format!("intervalo no válido: de {first} a {last}"),
                format!("invalid range: from {first} to {last}"),
            ),
            TrfErrorKind::UnsupportedSystem(s) => lang.pick(
                format!("escaque no empareja el sistema «{s}» (registro 192): solo el holandés de la FIDE (FIDE_DUTCH, FIDE_DUTCH_2025, y con aceleración de Bakú FIDE_DUTCH_2025_BAKU); otras aceleraciones se dan con registros 250 o XXA"),
                format!("escaque does not pair the system '{s}' (record 192): only the FIDE Dutch system (FIDE_DUTCH, FIDE_DUTCH_2025, and with Baku acceleration FIDE_DUTCH_2025_BAKU); give other accelerations as 250 or XXA records"),
            ),
        };
        lang.pick(
            format!("TRF, línea {}, columna {}: {what}", self.line, self.column),
            format!("TRF, line {}, column {}: {what}", self.line, self.column),
        )
    }
}

/// TRF records escaque reads but cannot honour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsupported {
    /// Records `013`/`310`: a team competition.
    Teams,
    /// Record `299`: points given or taken outside the games.
    AbnormalPoints,
    /// Record `162` with values other than 1, ½, 0.
    Scoring,
}

/// Everything that can go wrong when managing a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TorneoError {
    Trf(TrfError),
    /// A player with the same name and birth year (or FIDE id) is already entered.
    DuplicatePlayer {
        name: String,
        existing: u32,
    },
    NoSuchPlayer(u32),
    NoSuchRound(u32),
    /// No game between these two players in that round.
    NoSuchGame {
        round: u32,
        a: u32,
        b: u32,
    },
    /// No game on that board in that round.
    NoSuchBoard {
        round: u32,
        board: u32,
    },
    /// The next round cannot be paired while games of this round have no result.
    RoundNotComplete {
        round: u32,
        pending: Vec<(u32, u32)>,
    },
    /// All planned rounds are paired.
    TournamentOver(u32),
    /// No legal pairing exists (everyone has met everyone, or colour rules block it).
    NoPairing {
        round: u32,
    },
    /// The round robin cannot change its players after the first round is paired.
    RoundRobinStarted,
    /// A result text that is not 1-0, 0-1, ½-½, +/-, -/+ or -/-.
    BadResultText(String),
    /// A half-point bye requested for a round already paired.
    ByeTooLate {
        player: u32,
        round: u32,
    },
    /// An empty or invalid player name.
    BadName(String),
    /// A tie-break name that is not known.
    UnknownTieBreak(String),
    /// A tie-break C.07 does not give for a round robin (the Buchholz family).
    TieBreakNotForRoundRobin(String),
    /// A forbidden pairing needs two players or more and rounds from first to last.
    BadForbidden,
    /// A value outside its domain ([`crate::domain`]), refused where it entered.
    Domain(crate::domain::DomainError),
    /// The tournament's TRF would not read back: it is not written, and the
    /// file or row it would have replaced is kept.
    WouldNotReadBack(TrfError),
    /// FIDE mode refuses it (`fide.rs`).
    Fide(FideError),
}

impl From<FideError> for TorneoError {
    fn from(e: FideError) -> Self {
        TorneoError::Fide(e)
    }
}

impl From<crate::domain::DomainError> for TorneoError {
    fn from(e: crate::domain::DomainError) -> Self {
        TorneoError::Domain(e)
    }
}

impl From<TrfError> for TorneoError {
    fn from(e: TrfError) -> Self {
        TorneoError::Trf(e)
    }
}

impl fmt::Display for TorneoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for TorneoError {}

impl Localized for TorneoError {
    fn message(&self, lang: Lang) -> String {
        match self {
            TorneoError::Trf(e) => e.message(lang),
            TorneoError::DuplicatePlayer { name, existing } => lang.pick(
                format!("«{name}» ya está inscrito (número {existing})"),
                format!("'{name}' is already entered (number {existing})"),
            ),
            TorneoError::NoSuchPlayer(n) => lang.pick(
                format!("no hay ningún jugador con el número {n}"),
                format!("there is no player number {n}"),
            ),
            TorneoError::NoSuchRound(r) => lang.pick(
                format!("la ronda {r} no está emparejada"),
                format!("round {r} is not paired"),
            ),
            TorneoError::NoSuchGame { round, a, b } => lang.pick(
                format!("en la ronda {round} no hay partida entre {a} y {b}"),
                format!("round {round} has no game between {a} and {b}"),
            ),
            TorneoError::NoSuchBoard { round, board } => lang.pick(
                format!("la ronda {round} no tiene tablero {board}"),
                format!("round {round} has no board {board}"),
            ),
            TorneoError::RoundNotComplete { round, pending } => {
                let list: Vec<String> = pending.iter().map(|(w, b)| format!("{w}–{b}")).collect();
                lang.pick(
                    format!("faltan resultados de la ronda {round}: {}", list.join(", ")),
                    format!("round {round} still lacks results: {}", list.join(", ")),
                )
            }
            TorneoError::TournamentOver(n) => lang.pick(
                format!("el torneo ha terminado: ya están emparejadas las {n} rondas previstas"),
                format!("the tournament is over: all {n} planned rounds are already paired"),
            ),
            TorneoError::NoPairing { round } => lang.pick(
                format!("no hay emparejamiento legal para la ronda {round}"),
                format!("no legal pairing exists for round {round}"),
            ),
            TorneoError::RoundRobinStarted => lang.pick(
                "el round robin ya empezó: no se pueden inscribir jugadores".to_string(),
                "the round robin has started: no more players can be entered".to_string(),
            ),
            TorneoError::BadResultText(t) => lang.pick(
                format!("resultado «{t}» no válido (1-0, 0-1, ½-½, +/-, -/+ o -/-)"),
                format!("invalid result '{t}' (1-0, 0-1, ½-½, +/-, -/+ or -/-)"),
            ),
            TorneoError::ByeTooLate { player, round } => lang.pick(
                format!("la ronda {round} ya está emparejada: el jugador {player} no puede pedir descanso en ella"),
                format!("round {round} is already paired: player {player} cannot request a bye in it"),
            ),
            TorneoError::BadName(n) => lang.pick(
                format!("nombre no válido: «{n}»"),
                format!("invalid name: '{n}'"),
            ),
            TorneoError::TieBreakNotForRoundRobin(t) => lang.pick(
                format!("el desempate «{t}» no se usa en un round robin: el Buchholz es para sistemas suizos (FIDE C.07); elija entre DE, SB, WIN, WON, BPG, ARO, PS, KS"),
                format!("tie-break '{t}' is not for a round robin: Buchholz is for Swiss events (FIDE C.07); choose among DE, SB, WIN, WON, BPG, ARO, PS, KS"),
            ),
            TorneoError::UnknownTieBreak(t) => lang.pick(
                format!("desempate desconocido «{t}»"),
                format!("unknown tie-break '{t}'"),
            ),
            TorneoError::BadForbidden => lang.pick(
                "una prohibición necesita al menos dos jugadores y rondas de la primera a la última".to_string(),
                "a forbidden pairing needs two players or more and rounds from first to last".to_string(),
            ),
            TorneoError::Domain(e) => e.message(lang),
            TorneoError::Fide(e) => e.message(lang),
            TorneoError::WouldNotReadBack(e) => lang.pick(
                format!("no se guarda: el TRF del torneo no se podría volver a leer ({}); queda el anterior", e.message(lang)),
                format!("not saved: the tournament's TRF would not read back ({}); the previous one is kept", e.message(lang)),
            ),
        }
    }
}

/// What FIDE mode refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FideError {
    /// The tournament already left FIDE mode (it cannot be left twice, nor
    /// entered again).
    AlreadyLeft,
    /// The first confirmation was not given.
    NotConfirmed,
    /// The second confirmation (the tournament's name typed again) does
    /// not match.
    NameMismatch { typed: String },
    /// A manual pairing names a player twice.
    PlayerTwice(PlayerId),
    /// A manual pairing leaves out a player who is to play this round.
    PlayerLeftOut(PlayerId),
    /// A manual pairing pairs a player who does not play this round (bye
    /// requested, absent, withdrawn, not yet entered).
    NotAvailable(PlayerId),
    /// A player paired against themselves.
    SelfPaired(PlayerId),
    /// More than one pairing-allocated bye.
    TwoByes,
    /// The manual pairing breaks rules and the organiser did not accept
    /// the warnings.
    Warnings(Vec<Warning>),
    /// A point system where two draws score more than a win and a loss
    /// (or a win not above a draw, a draw below a loss).
    PointSystem { win: u32, draw: u32, loss: u32 },
    /// A bye worth more than a win.
    ByeAboveWin { bye: u32, win: u32 },
    /// A pair that is not `WHITE-BLACK` or `PLAYER-0` (the bye).
    BadPairs { word: String },
}

impl FideError {
    pub fn message(&self, lang: Lang) -> String {
        match self {
            FideError::AlreadyLeft => lang.pick(
                "el torneo ya salió del modo FIDE; no se puede volver a entrar".to_string(),
                "the tournament has already left FIDE mode; it cannot enter it again".to_string(),
            ),
            FideError::NotConfirmed => lang.pick(
                "salir del modo FIDE necesita una confirmación explícita (y no se puede deshacer)".to_string(),
                "leaving FIDE mode needs an explicit confirmation (and cannot be undone)".to_string(),
            ),
            FideError::NameMismatch { typed } => lang.pick(
                format!("segunda confirmación: «{typed}» no es el nombre del torneo"),
                format!("second confirmation: '{typed}' is not the tournament's name"),
            ),
            FideError::PlayerTwice(p) => lang.pick(
                format!("el jugador {p} aparece dos veces en el emparejamiento"),
                format!("player {p} appears twice in the pairing"),
            ),
            FideError::PlayerLeftOut(p) => lang.pick(
                format!("falta el jugador {p}, que juega esta ronda"),
                format!("player {p}, who plays this round, is missing"),
            ),
            FideError::NotAvailable(p) => lang.pick(
                format!("el jugador {p} no juega esta ronda (descanso pedido, ausencia, retirada o inscripción posterior)"),
                format!("player {p} does not play this round (bye requested, absent, withdrawn or entering later)"),
            ),
            FideError::SelfPaired(p) => lang.pick(
                format!("el jugador {p} no puede jugar contra sí mismo"),
                format!("player {p} cannot play themselves"),
            ),
            FideError::TwoByes => lang.pick(
                "solo un jugador puede quedar sin rival (descanso por emparejamiento)".to_string(),
                "only one player can be left without an opponent (pairing-allocated bye)".to_string(),
            ),
            FideError::Warnings(w) => {
                let list: Vec<String> = w.iter().map(|w| w.message(lang)).collect();
                lang.pick(
                    format!("el emparejamiento manual incumple reglas (acéptelo explícitamente para guardarlo): {}", list.join("; ")),
                    format!("the manual pairing breaks rules (accept it explicitly to store it): {}", list.join("; ")),
                )
            }
            FideError::PointSystem { win, draw, loss } => lang.pick(
                format!("sistema de puntos {win}/{draw}/{loss} rechazado en modo FIDE: la victoria debe valer más que las tablas, las tablas no menos que la derrota, y dos tablas no más que una victoria y una derrota"),
                format!("point system {win}/{draw}/{loss} refused in FIDE mode: a win must score more than a draw, a draw not less than a loss, and two draws not more than a win and a loss"),
            ),
            FideError::BadPairs { word } => lang.pick(
                format!("pareja no válida «{word}»: escriba BLANCAS-NEGRAS (p. ej. 1-4) o JUGADOR-0 para el descanso"),
                format!("invalid pair '{word}': write WHITE-BLACK (e.g. 1-4) or PLAYER-0 for the bye"),
            ),
            FideError::ByeAboveWin { bye, win } => lang.pick(
                format!("un descanso de {bye} puntos vale más que una victoria ({win}): rechazado en modo FIDE"),
                format!("a bye of {bye} points is worth more than a win ({win}): refused in FIDE mode"),
            ),
        }
    }
}

/// A rule a manual pairing breaks; the organiser may still store it after
/// accepting the warnings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// The two already met (C.04.1 b).
    Repeat { a: PlayerId, b: PlayerId },
    /// The organiser forbade this pair (TRF `260`, `XXP`).
    Prohibited { a: PlayerId, b: PlayerId },
    /// The player already had a pairing-allocated bye or a forfeit win
    /// (C.04.1 d).
    IneligibleBye { player: PlayerId },
    /// The same colour a third time in a row (C.04.1 g).
    ThreeInARow { player: PlayerId, white: bool },
    /// Whites minus blacks beyond ±2 (C.04.1 f).
    ColourImbalance { player: PlayerId, difference: i32 },
}

impl Warning {
    /// A short machine-readable name.
    pub fn kind(&self) -> &'static str {
        match self {
            Warning::Repeat { .. } => "repeat",
            Warning::Prohibited { .. } => "prohibited",
            Warning::IneligibleBye { .. } => "ineligible_bye",
            Warning::ThreeInARow { .. } => "three_in_a_row",
            Warning::ColourImbalance { .. } => "colour_imbalance",
        }
    }

    /// The players the warning is about.
    pub fn players(&self) -> Vec<PlayerId> {
        match *self {
            Warning::Repeat { a, b } | Warning::Prohibited { a, b } => vec![a, b],
            Warning::IneligibleBye { player }
            | Warning::ThreeInARow { player, .. }
            | Warning::ColourImbalance { player, .. } => vec![player],
        }
    }

    pub fn message(&self, lang: Lang) -> String {
        match *self {
            Warning::Repeat { a, b } => lang.pick(
                format!("{a} y {b} ya jugaron entre sí"),
                format!("{a} and {b} have already played each other"),
            ),
            Warning::Prohibited { a, b } => lang.pick(
                format!("{a} y {b} no pueden enfrentarse (emparejamiento prohibido)"),
                format!("{a} and {b} may not meet (prohibited pairing)"),
            ),
            Warning::IneligibleBye { player } => lang.pick(
                format!("{player} ya tuvo un descanso por emparejamiento o una victoria por incomparecencia: no puede recibir otro"),
                format!("{player} already had a pairing-allocated bye or a forfeit win: not eligible for another"),
            ),
            Warning::ThreeInARow { player, white } => {
                let (es, en) = if white {
                    ("blancas", "White")
                } else {
                    ("negras", "Black")
                };
                lang.pick(
                    format!("{player} jugaría con {es} por tercera vez seguida"),
                    format!("{player} would play {en} a third time in a row"),
                )
            }
            Warning::ColourImbalance { player, difference } => lang.pick(
                format!("{player} quedaría con una diferencia de colores de {difference:+} (más de 2)"),
                format!("{player} would have a colour difference of {difference:+} (more than 2)"),
            ),
        }
    }
}
