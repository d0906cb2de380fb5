//! Everything the terminal game says to a player, in one place per language:
//! [`es`] holds the Spanish texts, [`en`] the English ones. The rest of the
//! program names a message with [`Msg`] and asks [`text`] for its wording.

use escaque::{Color, Lang};

mod en;
mod es;

/// How a finished game was scored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// ½-½.
    Draw,
}

impl Outcome {
    /// The result as PGN writes it.
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    /// The result as a person reads it (`½-½`).
    pub fn display(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "½-½",
        }
    }
}

/// Why a game ended, with the side concerned where there is one (the
/// automatic endings come from the arbiter).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move was mated.
    Checkmate,
    /// The side to move was stalemated.
    Stalemate,
    /// Neither side can mate by any series of legal moves.
    DeadPosition,
    /// Agreed draw.
    Agreement,
    /// Claimed threefold repetition.
    Threefold,
    /// Claimed fifty-move rule.
    FiftyMoves,
    /// Automatic fivefold repetition.
    Fivefold,
    /// Automatic seventy-five-move rule.
    SeventyFiveMoves,
    /// This side resigned.
    Resignation(Color),
    /// This side's flag fell.
    Time(Color),
    /// Ended some other way (for example a loaded PGN's result).
    Other,
}

/// A finished game: the score and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The score.
    pub outcome: Outcome,
    /// The reason.
    pub reason: EndReason,
}

/// Who plays one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// A person at the keyboard.
    Human,
    /// The engine at this level (1–10).
    Engine(u32),
}

/// A draw that the side to move may claim now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ClaimKind {
    /// The position has appeared three times.
    Threefold,
    /// Fifty moves without a capture or pawn move.
    FiftyMoves,
}

/// Every message the game shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg<'a> {
    /// "Juegan las blancas".
    ToMove(Color),
    /// "¡Jaque!".
    Check,
    /// A draw the side to move can claim.
    CanClaim(ClaimKind),
    /// The opponent of the side to move offered a draw.
    DrawOffered(Color),
    /// The engine is looking for a move.
    Thinking,
    /// The end of the game.
    GameOver(Ending),
    /// A move was played (`12. Cf3`, `12... Cf6`).
    Played {
        /// Move number.
        number: u32,
        /// Who played it.
        color: Color,
        /// The move in display notation.
        san: &'a str,
    },
    /// A move or command was refused; the reason follows.
    Refused(&'a str),
    /// A command that needs the game to be in progress.
    GameAlreadyOver,
    /// The engine stopped answering.
    EngineFailed,
    /// A move typed while the engine has the move.
    NotYourTurn,
    /// Nothing to claim.
    NothingToClaim,
    /// A claim was wrong: it stands as a draw offer.
    ClaimRejected,
    /// A draw offer was made.
    OfferMade(Color),
    /// The offer was declined.
    OfferDeclined,
    /// No offer to answer.
    NoOffer,
    /// Undo is not allowed (clocked game) or there is nothing to undo.
    CannotUndo,
    /// Moves were taken back.
    Undone(usize),
    /// The board was turned.
    Flipped(Color),
    /// The game was saved to this file.
    Saved(&'a str),
    /// A game or position was loaded from this source.
    Loaded(&'a str),
    /// Saving or loading failed.
    FileError(&'a str, &'a str),
    /// A new game starts between these players.
    NewGame(PlayerKind, PlayerKind),
    /// Leaving a game in progress: ask to save first.
    ConfirmQuit,
    /// Goodbye.
    Bye,
    /// The in-app help, one command a line.
    Help,
    /// Title of the moves column.
    MovesTitle,
    /// Label before a player name: "Blancas" / "Negras".
    Side(Color),
    /// A player's description.
    Player(PlayerKind),
    /// "Reglas: FIDE 2023".
    Rules(&'a str),
    /// "Reloj: 5+3" or "sin reloj".
    ClockLabel(Option<&'a str>),
    /// Prompt of the input line.
    Prompt,
    /// The promotion dialog.
    PromotionPrompt,
    /// "Selecciona una pieza" hint after an invalid click.
    SelectOwnPiece,
    /// Title of the new-game menu.
    MenuTitle,
    /// A menu row label.
    MenuRow(MenuRow),
    /// The menu's key hint.
    MenuHint,
    /// "Al azar" (random colour).
    RandomColor,
    /// "inicial" (standard start position).
    StartPosition,
    /// "personalizado…" entry of a list.
    Custom,
    /// The key hint under the board.
    KeyHint,
    /// Hint of the confirm-quit dialog.
    ConfirmQuitHint,
    /// The side to move is in a position given by FEN.
    InvalidFen(&'a str),
    /// A time control text was not understood.
    InvalidClock(&'a str),
}

/// A row of the new-game menu.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MenuRow {
    /// Opponent: engine level or person.
    Opponent,
    /// Your colour.
    Color,
    /// Time control.
    Clock,
    /// Rule set.
    Rules,
    /// Start position.
    Position,
    /// Start button.
    Start,
}

/// The wording of `msg` in `lang`.
pub fn text(lang: Lang, msg: &Msg) -> String {
    match lang {
        Lang::Es => es::text(msg),
        Lang::En => en::text(msg),
    }
}

/// Words a player may type, in both languages, for each command.
pub const COMMAND_WORDS: &[(&str, Command)] = &[
    ("abandonar", Command::Resign),
    ("rendirse", Command::Resign),
    ("resign", Command::Resign),
    ("tablas", Command::OfferDraw),
    ("ofrecer", Command::OfferDraw),
    ("draw", Command::OfferDraw),
    ("offer", Command::OfferDraw),
    ("aceptar", Command::Accept),
    ("accept", Command::Accept),
    ("rechazar", Command::Decline),
    ("decline", Command::Decline),
    ("reclamar", Command::Claim),
    ("claim", Command::Claim),
    ("deshacer", Command::Undo),
    ("undo", Command::Undo),
    ("girar", Command::Flip),
    ("flip", Command::Flip),
    ("guardar", Command::Save),
    ("save", Command::Save),
    ("cargar", Command::Load),
    ("load", Command::Load),
    ("nueva", Command::New),
    ("new", Command::New),
    ("salir", Command::Quit),
    ("quit", Command::Quit),
    ("exit", Command::Quit),
    ("ayuda", Command::Help),
    ("help", Command::Help),
    ("?", Command::Help),
    ("tablero", Command::Board),
    ("board", Command::Board),
];

/// A command of the game, whatever the language it was typed in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// abandonar
    Resign,
    /// ofrecer tablas
    OfferDraw,
    /// aceptar (the draw offer)
    Accept,
    /// rechazar (the draw offer)
    Decline,
    /// reclamar tablas
    Claim,
    /// deshacer
    Undo,
    /// girar el tablero
    Flip,
    /// guardar [ARCHIVO]
    Save,
    /// cargar ARCHIVO|FEN
    Load,
    /// nueva partida
    New,
    /// salir
    Quit,
    /// ayuda
    Help,
    /// show the board again (plain-text mode)
    Board,
}

/// Reads a typed line as a command and its argument, if it is one. The first
/// word decides (`ofrecer tablas`, `reclamar tablas` and `nueva partida` also
/// work); case does not matter.
pub fn parse_command(line: &str) -> Option<(Command, &str)> {
    let line = line.trim();
    let (first, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    };
    let first = first.to_lowercase();
    let cmd = COMMAND_WORDS
        .iter()
        .find(|(w, _)| *w == first)
        .map(|(_, c)| *c)?;
    // The second word of "ofrecer tablas", "reclamar tablas", "nueva partida"
    // is not an argument.
    let rest = match (cmd, rest.to_lowercase().as_str()) {
        (Command::OfferDraw | Command::Claim, "tablas" | "draw")
        | (Command::New, "partida" | "game") => "",
        _ => rest,
    };
    Some((cmd, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_in_both_languages() {
        assert_eq!(parse_command("abandonar"), Some((Command::Resign, "")));
        assert_eq!(parse_command("Resign"), Some((Command::Resign, "")));
        assert_eq!(parse_command("reclamar tablas"), Some((Command::Claim, "")));
        assert_eq!(
            parse_command("guardar  mi partida.pgn "),
            Some((Command::Save, "mi partida.pgn"))
        );
        assert_eq!(parse_command("Cf3"), None);
        assert_eq!(parse_command(""), None);
    }

    #[test]
    fn every_message_has_both_wordings() {
        let e = Ending {
            outcome: Outcome::Draw,
            reason: EndReason::Stalemate,
        };
        assert_eq!(
            text(Lang::Es, &Msg::GameOver(e)),
            "Tablas por ahogado (½-½)"
        );
        assert_eq!(text(Lang::En, &Msg::GameOver(e)), "Draw by stalemate (½-½)");
        assert_eq!(
            text(Lang::Es, &Msg::ToMove(Color::White)),
            "Juegan las blancas"
        );
    }
}
