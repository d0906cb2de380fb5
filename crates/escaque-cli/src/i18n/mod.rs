//! Everything the terminal game says to a player, in one place per language:
//! [`es`] holds the Spanish texts, [`en`] the English ones. The rest of the
//! program names a message with [`Msg`] and asks [`text`] for its wording.

use escaque::{Color, DrawClaim, Lang, Localized, Outcome};
use escaque_play::{Action, Notice, Player, Refusal, Status};

mod en;
mod es;

/// Every message the game shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg<'a> {
    /// "Juegan las blancas".
    ToMove(Color),
    /// "¡Jaque!".
    Check,
    /// A draw the side to move can claim.
    CanClaim(DrawClaim),
    /// The opponent of the side to move offered a draw.
    DrawOffered(Color),
    /// The engine is looking for a move.
    Thinking,
    /// The end of the game, worded by the library.
    GameOver(Outcome),
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
    NewGame(Player, Player),
    /// A Chess960 game from this starting position number.
    Chess960(u16),
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
    Player(Player),
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
pub const COMMAND_WORDS: &[(&str, Action)] = &[
    ("abandonar", Action::Resign),
    ("rendirse", Action::Resign),
    ("resign", Action::Resign),
    ("tablas", Action::OfferDraw),
    ("ofrecer", Action::OfferDraw),
    ("draw", Action::OfferDraw),
    ("offer", Action::OfferDraw),
    ("aceptar", Action::Accept),
    ("accept", Action::Accept),
    ("rechazar", Action::Decline),
    ("decline", Action::Decline),
    ("reclamar", Action::Claim),
    ("claim", Action::Claim),
    ("deshacer", Action::Undo),
    ("undo", Action::Undo),
    ("girar", Action::Flip),
    ("flip", Action::Flip),
    ("guardar", Action::Save),
    ("save", Action::Save),
    ("cargar", Action::Load),
    ("load", Action::Load),
    ("nueva", Action::New),
    ("new", Action::New),
    ("salir", Action::Quit),
    ("quit", Action::Quit),
    ("exit", Action::Quit),
    ("ayuda", Action::Help),
    ("help", Action::Help),
    ("?", Action::Help),
    ("tablero", Action::Board),
    ("aplazar", Action::Adjourn),
    ("adjourn", Action::Adjourn),
    ("board", Action::Board),
];

/// Reads a typed line as a command and its argument, if it is one. The first
/// word decides (`ofrecer tablas`, `reclamar tablas` and `nueva partida` also
/// work); case does not matter.
pub fn parse_command(line: &str) -> Option<(Action, &str)> {
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
        (Action::OfferDraw | Action::Claim, "tablas" | "draw")
        | (Action::New, "partida" | "game") => "",
        _ => rest,
    };
    Some((cmd, rest))
}

fn side_es(c: Color) -> &'static str {
    match c {
        Color::White => "las blancas",
        Color::Black => "las negras",
    }
}

fn side_en(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The wording of a session's notice in `lang`.
pub fn notice_text(lang: Lang, n: &Notice) -> String {
    match n {
        Notice::NewGame([w, b]) => text(lang, &Msg::NewGame(*w, *b)),
        Notice::Chess960(n) => text(lang, &Msg::Chess960(*n)),
        Notice::Played {
            number,
            color,
            before,
            mv,
        } => {
            let san = escaque::san::san_display(before, *mv, lang);
            text(
                lang,
                &Msg::Played {
                    number: *number,
                    color: *color,
                    san: &san,
                },
            )
        }
        Notice::GameOver(o) => text(lang, &Msg::GameOver(*o)),
        Notice::Refused(r) => {
            let why = match r {
                Refusal::Move(e) => e.message(lang),
                Refusal::Game(e) => e.message(lang),
            };
            text(lang, &Msg::Refused(&why))
        }
        Notice::GameAlreadyOver => text(lang, &Msg::GameAlreadyOver),
        Notice::EngineFailed => text(lang, &Msg::EngineFailed),
        Notice::NotYourTurn => text(lang, &Msg::NotYourTurn),
        Notice::NothingToClaim => text(lang, &Msg::NothingToClaim),
        Notice::ClaimRejected => text(lang, &Msg::ClaimRejected),
        Notice::OfferMade(c) => text(lang, &Msg::OfferMade(*c)),
        Notice::OfferDeclined => text(lang, &Msg::OfferDeclined),
        Notice::NoOffer => text(lang, &Msg::NoOffer),
        Notice::CannotUndo => text(lang, &Msg::CannotUndo),
        Notice::Undone(n) => text(lang, &Msg::Undone(*n)),
        Notice::Flipped(c) => text(lang, &Msg::Flipped(*c)),
        Notice::Loaded(s) => text(lang, &Msg::Loaded(s)),
        Notice::CannotLoad { source, why } => text(lang, &Msg::FileError(source, why)),
        Notice::InvalidFen(e) => text(lang, &Msg::InvalidFen(&e.message(lang))),
        Notice::FenRelaxed(warnings) => warnings
            .iter()
            .map(|w| w.message(lang))
            .collect::<Vec<_>>()
            .join("; "),
        Notice::Saved(p) => text(lang, &Msg::Saved(p)),
        Notice::FileError { path, error } => text(lang, &Msg::FileError(path, error)),
        Notice::ConfirmQuit => text(lang, &Msg::ConfirmQuit),
        Notice::AskSealedMove(c) => lang.pick(
            format!(
                "Aplazamiento: {} escriben su jugada secreta; no se mostrará y se guardará en un sobre cerrado",
                side_es(*c)
            ),
            format!(
                "Adjournment: {} writes the sealed move; it is not shown and goes into a closed envelope",
                side_en(*c)
            ),
        ),
        Notice::Adjourned(c) => lang.pick(
            format!(
                "Partida aplazada: la jugada secreta de {} queda en sobre cerrado",
                side_es(*c)
            ),
            format!(
                "Game adjourned: {}'s sealed move is in a closed envelope",
                side_en(*c)
            ),
        ),
        Notice::EnvelopeOpened { by, before, opening } => {
            let head = lang.pick(
                format!("Sobre cerrado de {}: se abre", side_es(*by)),
                format!("{}'s sealed envelope is opened", side_en(*by)),
            );
            match opening {
                escaque::sealed::Opening::Played { mv, outcome } => {
                    let san = escaque::san::san_display(before, *mv, lang);
                    let played = text(
                        lang,
                        &Msg::Played {
                            number: before.fullmove_number(),
                            color: before.turn(),
                            san: &san,
                        },
                    );
                    match outcome {
                        Some(o) => format!("{head}: {played}. {}", o.message(lang)),
                        None => format!("{head}: {played}"),
                    }
                }
                escaque::sealed::Opening::Forfeit { error, outcome } => {
                    format!("{head}: {}. {}", error.message(lang), outcome.message(lang))
                }
                escaque::sealed::Opening::NoEnvelope => head,
            }
        }
        Notice::Bye => text(lang, &Msg::Bye),
        Notice::Help => text(lang, &Msg::Help),
    }
}

/// The wording of a status line in `lang`.
pub fn status_text(lang: Lang, s: Status) -> String {
    match s {
        Status::Over(o) => text(lang, &Msg::GameOver(o)),
        Status::ToMove(c) => text(lang, &Msg::ToMove(c)),
        Status::Check => text(lang, &Msg::Check),
        Status::CanClaim(c) => text(lang, &Msg::CanClaim(c)),
        Status::DrawOffered(c) => text(lang, &Msg::DrawOffered(c)),
        Status::Thinking => text(lang, &Msg::Thinking),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_in_both_languages() {
        assert_eq!(parse_command("abandonar"), Some((Action::Resign, "")));
        assert_eq!(parse_command("Resign"), Some((Action::Resign, "")));
        assert_eq!(parse_command("reclamar tablas"), Some((Action::Claim, "")));
        assert_eq!(
            parse_command("guardar  mi partida.pgn "),
            Some((Action::Save, "mi partida.pgn"))
        );
        assert_eq!(parse_command("Cf3"), None);
        assert_eq!(parse_command(""), None);
    }

    #[test]
    fn every_message_has_both_wordings() {
        let e = Outcome {
            result: escaque::GameResult::Draw,
            termination: escaque::Termination::Stalemate,
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
