//! Los textos del juego en español.

use escaque::Color;

use escaque::{DrawClaim, Lang, Localized};
use escaque_play::Player;

use super::{MenuRow, Msg};

fn side(c: Color) -> &'static str {
    match c {
        Color::White => "las blancas",
        Color::Black => "las negras",
    }
}

fn side_cap(c: Color) -> &'static str {
    match c {
        Color::White => "Las blancas",
        Color::Black => "Las negras",
    }
}

fn player(p: Player) -> String {
    match p {
        Player::Human => "persona".into(),
        Player::Engine(l) => format!("motor, nivel {} ({})", l.number(), l.name(Lang::Es)),
    }
}

const HELP: &str = "\
Escribe tu jugada en notación española (Cf3, exd5, 0-0, e8=D), inglesa (Nf3)
o de coordenadas (g1f3, e7e8d), o elige pieza y casilla con las flechas e Intro
o con el ratón. Órdenes (entre paréntesis, su tecla en pantalla completa):
  abandonar            abandona la partida
  tablas (F4)          ofrece tablas al rival
  aceptar / rechazar   responde a una oferta de tablas
  reclamar (F5)        reclama tablas (triple repetición o 50 movimientos);
  reclamar JUGADA      ... o con la jugada que las produce
  deshacer (F3)        deshace tu última jugada (partidas sin reloj)
  girar (F2)           gira el tablero
  aplazar [ARCHIVO]    aplaza: escribes la jugada secreta (no se muestra) y se guarda
  guardar [ARCHIVO]    guarda la partida en PGN
  cargar ARCHIVO|FEN   carga una partida PGN o una posición FEN
  nueva (F6)           empieza una partida nueva
  tablero              vuelve a mostrar el tablero (modo texto)
  ayuda (F1)           muestra esta ayuda
  salir (Ctrl-C)       sale (pregunta si quieres guardar la partida)";

/// The Spanish wording of `msg`.
pub fn text(msg: &Msg) -> String {
    match msg {
        Msg::ToMove(c) => format!("Juegan {}", side(*c)),
        Msg::Check => "¡Jaque!".into(),
        Msg::CanClaim(DrawClaim::Threefold) => {
            "Puedes reclamar tablas por triple repetición".into()
        }
        Msg::CanClaim(DrawClaim::FiftyMoves) => {
            "Puedes reclamar tablas por la regla de los cincuenta movimientos".into()
        }
        Msg::DrawOffered(c) => format!(
            "{} ofrecen tablas: escribe «aceptar» o «rechazar»",
            side_cap(*c)
        ),
        Msg::Thinking => "El motor está pensando…".into(),
        Msg::GameOver(o) => o.message(escaque::Lang::Es),
        Msg::Played { number, color, san } => match color {
            Color::White => format!("{number}. {san}"),
            Color::Black => format!("{number}... {san}"),
        },
        Msg::Refused(why) => format!("Jugada no válida: {why}"),
        Msg::GameAlreadyOver => {
            "La partida ha terminado: escribe «nueva» para jugar otra".into()
        }
        Msg::EngineFailed => "El motor no responde: guarda la partida y vuelve a empezar".into(),
        Msg::NotYourTurn => "Espera: es el turno del motor".into(),
        Msg::NothingToClaim => {
            "No hay tablas que reclamar ahora (ni triple repetición ni 50 movimientos)".into()
        }
        Msg::ClaimRejected => {
            "Reclamación incorrecta: la partida sigue y la reclamación cuenta como oferta de tablas"
                .into()
        }
        Msg::OfferMade(c) => format!("{} ofrecen tablas", side_cap(*c)),
        Msg::OfferDeclined => "Oferta de tablas rechazada".into(),
        Msg::NoOffer => "No hay ninguna oferta de tablas pendiente".into(),
        Msg::CannotUndo => {
            "No se puede deshacer: no hay jugadas tuyas o la partida tiene reloj".into()
        }
        Msg::Undone(n) => {
            if *n == 1 {
                "Se deshizo una jugada".into()
            } else {
                format!("Se deshicieron {n} jugadas")
            }
        }
        Msg::Flipped(c) => format!("Tablero girado: abajo {}", side(*c)),
        Msg::Saved(p) => format!("Partida guardada en {p}"),
        Msg::Loaded(p) => format!("Cargada: {p}"),
        Msg::FileError(p, e) => format!("No se pudo usar «{p}»: {e}"),
        Msg::NewGame(w, b) => format!(
            "Nueva partida: blancas, {}; negras, {}",
            player(*w),
            player(*b)
        ),
        Msg::ConfirmQuit => {
            "La partida no ha terminado. ¿Guardarla antes de salir? (s = sí, n = no, otra cosa = seguir jugando)"
                .into()
        }
        Msg::Bye => "¡Hasta la próxima!".into(),
        Msg::Help => HELP.into(),
        Msg::MovesTitle => "Jugadas".into(),
        Msg::Chess960(n) => format!("Ajedrez 960, posición inicial n.º {n}"),
        Msg::Side(Color::White) => "Blancas".into(),
        Msg::Side(Color::Black) => "Negras".into(),
        Msg::Player(p) => player(*p),
        Msg::Rules(r) => format!("Reglas: {r}"),
        Msg::ClockLabel(Some(c)) => format!("Reloj: {c}"),
        Msg::ClockLabel(None) => "Sin reloj".into(),
        Msg::Prompt => "Jugada u orden".into(),
        Msg::PromotionPrompt => "Coronar: D dama · T torre · A alfil · C caballo".into(),
        Msg::SelectOwnPiece => "Elige una de tus piezas".into(),
        Msg::MenuTitle => "Nueva partida".into(),
        Msg::MenuRow(MenuRow::Opponent) => "Rival".into(),
        Msg::MenuRow(MenuRow::Color) => "Tu color".into(),
        Msg::MenuRow(MenuRow::Clock) => "Reloj".into(),
        Msg::MenuRow(MenuRow::Rules) => "Reglas".into(),
        Msg::MenuRow(MenuRow::Position) => "Posición".into(),
        Msg::MenuRow(MenuRow::Start) => "Empezar".into(),
        Msg::MenuHint => {
            "↑↓ elegir fila · ←→ cambiar · escribe para el texto propio · Intro empezar · Esc salir"
                .into()
        }
        Msg::RandomColor => "al azar".into(),
        Msg::StartPosition => "inicial".into(),
        Msg::Custom => "propio…".into(),
        Msg::KeyHint => {
            "F1 ayuda  F2 girar  F3 deshacer  F4 tablas  F5 reclamar  F6 nueva  ^C salir".into()
        }
        Msg::ConfirmQuitHint => "s: guardar y salir · n: salir sin guardar · Esc: seguir".into(),
        Msg::InvalidFen(e) => format!("FEN no válido: {e}"),
    }
}
