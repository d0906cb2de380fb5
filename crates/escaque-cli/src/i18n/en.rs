//! The game's texts in English.

use escaque::Color;

use escaque::{DrawClaim, Lang, Localized};
use escaque_play::Player;

use super::{MenuRow, Msg};

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn player(p: Player) -> String {
    match p {
        Player::Human => "person".into(),
        Player::Engine(l) => format!("engine, level {} ({})", l.number(), l.name(Lang::En)),
    }
}

const HELP: &str = "\
Type your move in Spanish (Cf3, 0-0, e8=D) or English SAN (Nf3, O-O, e8=Q)
or in coordinates (g1f3, e7e8q), or pick piece and square with the arrows and
Enter or the mouse. Commands (in brackets, their key full-screen):
  resign               resign the game
  draw (F4)            offer a draw
  accept / decline     answer a draw offer
  claim (F5)           claim a draw (threefold repetition or 50 moves);
  claim MOVE           ... or with the move that produces it
  undo (F3)            take back your last move (games without a clock)
  flip (F2)            turn the board round
  adjourn [FILE]       adjourn: you write the sealed move (not shown); it is saved
  save [FILE]          save the game as PGN
  load FILE|FEN        load a PGN game or a FEN position
  new (F6)             start a new game
  board                show the board again (text mode)
  help (F1)            show this help
  quit (Ctrl-C)        leave (asks whether to save the game)";

/// The English wording of `msg`.
pub fn text(msg: &Msg) -> String {
    match msg {
        Msg::ToMove(c) => format!("{} to move", side(*c)),
        Msg::Check => "Check!".into(),
        Msg::CanClaim(DrawClaim::Threefold) => "You can claim a draw by threefold repetition".into(),
        Msg::CanClaim(DrawClaim::FiftyMoves) => {
            "You can claim a draw by the fifty-move rule".into()
        }
        Msg::DrawOffered(c) => format!("{} offers a draw: type \"accept\" or \"decline\"", side(*c)),
        Msg::Thinking => "The engine is thinking…".into(),
        Msg::GameOver(o) => o.message(escaque::Lang::En),
        Msg::Played { number, color, san } => match color {
            Color::White => format!("{number}. {san}"),
            Color::Black => format!("{number}... {san}"),
        },
        Msg::Refused(why) => format!("Move not accepted: {why}"),
        Msg::GameAlreadyOver => "The game is over: type \"new\" to play another".into(),
        Msg::EngineFailed => "The engine stopped answering: save the game and start again".into(),
        Msg::NotYourTurn => "Wait: it is the engine's turn".into(),
        Msg::NothingToClaim => {
            "There is no draw to claim now (no threefold repetition, no 50 moves)".into()
        }
        Msg::ClaimRejected => {
            "Incorrect claim: the game goes on and the claim stands as a draw offer".into()
        }
        Msg::OfferMade(c) => format!("{} offers a draw", side(*c)),
        Msg::OfferDeclined => "Draw offer declined".into(),
        Msg::NoOffer => "There is no draw offer to answer".into(),
        Msg::CannotUndo => "Cannot undo: none of your moves to take back, or the game has a clock".into(),
        Msg::Undone(n) => {
            if *n == 1 {
                "One move taken back".into()
            } else {
                format!("{n} moves taken back")
            }
        }
        Msg::Flipped(c) => format!("Board turned: {} at the bottom", side(*c)),
        Msg::Saved(p) => format!("Game saved to {p}"),
        Msg::Loaded(p) => format!("Loaded: {p}"),
        Msg::FileError(p, e) => format!("Could not use \"{p}\": {e}"),
        Msg::NewGame(w, b) => format!("New game: White, {}; Black, {}", player(*w), player(*b)),
        Msg::ConfirmQuit => {
            "The game is not over. Save it before leaving? (y = yes, n = no, anything else = keep playing)"
                .into()
        }
        Msg::Bye => "Goodbye!".into(),
        Msg::Help => HELP.into(),
        Msg::MovesTitle => "Moves".into(),
        Msg::Chess960(n) => format!("Chess960, starting position no. {n}"),
        Msg::Side(c) => side(*c).into(),
        Msg::Player(p) => player(*p),
        Msg::Rules(r) => format!("Rules: {r}"),
        Msg::ClockLabel(Some(c)) => format!("Clock: {c}"),
        Msg::ClockLabel(None) => "No clock".into(),
        Msg::Prompt => "Move or command".into(),
        Msg::PromotionPrompt => "Promote to: Q queen · R rook · B bishop · N knight".into(),
        Msg::SelectOwnPiece => "Pick one of your pieces".into(),
        Msg::MenuTitle => "New game".into(),
        Msg::MenuRow(MenuRow::Opponent) => "Opponent".into(),
        Msg::MenuRow(MenuRow::Color) => "Your colour".into(),
        Msg::MenuRow(MenuRow::Clock) => "Clock".into(),
        Msg::MenuRow(MenuRow::Rules) => "Rules".into(),
        Msg::MenuRow(MenuRow::Position) => "Position".into(),
        Msg::MenuRow(MenuRow::Start) => "Start".into(),
        Msg::MenuHint => {
            "↑↓ pick a row · ←→ change · type for a custom text · Enter start · Esc quit".into()
        }
        Msg::RandomColor => "random".into(),
        Msg::StartPosition => "standard".into(),
        Msg::Custom => "custom…".into(),
        Msg::KeyHint => "F1 help  F2 flip  F3 undo  F4 draw  F5 claim  F6 new  ^C quit".into(),
        Msg::ConfirmQuitHint => "y: save and quit · n: quit without saving · Esc: keep playing".into(),
        Msg::InvalidFen(e) => format!("invalid FEN: {e}"),
    }
}
