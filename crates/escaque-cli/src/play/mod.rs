//! `escaque jugar`: a game in the terminal, full-screen or in plain text.

pub mod backend;
pub mod engine_worker;
pub mod session;
pub mod texto;
pub mod thinker;

use std::io::IsTerminal;
use std::sync::Arc;

use clap::Args;
use escaque::{Lang, Odds};

use crate::i18n::PlayerKind;
use backend::{MonotonicTime, RuleChoice};
use session::{Config, Session};

/// The engine level when none is given: the middle of 1–10.
pub const DEFAULT_LEVEL: u32 = 5;

/// Options of `escaque jugar` (`escaque play`).
#[derive(Args, Debug, Default, Clone)]
pub struct PlayArgs {
    /// Quién lleva las blancas: humano | motor[:NIVEL] (NIVEL 1–10).
    #[arg(long = "blancas", visible_alias = "white", value_name = "JUGADOR")]
    pub blancas: Option<String>,
    /// Quién lleva las negras: humano | motor[:NIVEL].
    #[arg(long = "negras", visible_alias = "black", value_name = "JUGADOR")]
    pub negras: Option<String>,
    /// Control de tiempo, p. ej. 5+3 (minutos + segundos de incremento).
    #[arg(long = "reloj", visible_alias = "clock", value_name = "CONTROL")]
    pub reloj: Option<String>,
    /// Posición inicial en FEN.
    #[arg(long)]
    pub fen: Option<String>,
    /// Partida con ventaja: peon (peón y salida) | caballo | torre | dama.
    #[arg(long = "ventaja", visible_alias = "odds", value_name = "VENTAJA")]
    pub ventaja: Option<String>,
    /// Reglamento: fide | londres1846 | londres1846-inglaterra (el ahogado gana).
    #[arg(long = "reglas", visible_alias = "rules", value_name = "REGLAS")]
    pub reglas: Option<String>,
    /// Modo de texto: una línea por jugada u orden, sin pantalla completa.
    #[arg(long = "texto", visible_alias = "text")]
    pub texto: bool,
    /// Piezas con letras en vez de figuras.
    #[arg(long)]
    pub ascii: bool,
}

impl PlayArgs {
    /// True when no option chooses the game (then the menu is shown first).
    pub fn chooses_nothing(&self) -> bool {
        self.blancas.is_none()
            && self.negras.is_none()
            && self.reloj.is_none()
            && self.fen.is_none()
            && self.reglas.is_none()
            && self.ventaja.is_none()
    }
}

/// Reads `humano`, `motor`, `motor:3` (and English `human`, `engine:3`).
pub fn parse_player(text: &str, lang: Lang) -> Result<PlayerKind, String> {
    let t = text.trim().to_lowercase();
    let (kind, level) = match t.split_once(':') {
        Some((k, l)) => (k.to_string(), Some(l.to_string())),
        None => (t.clone(), None),
    };
    match kind.as_str() {
        "humano" | "human" | "persona" | "person" => match level {
            None => Ok(PlayerKind::Human),
            Some(_) => Err(bad_player(text, lang)),
        },
        "motor" | "engine" | "escaque" => match level {
            None => Ok(PlayerKind::Engine(DEFAULT_LEVEL)),
            Some(l) => match l.parse::<u32>() {
                Ok(n) if (1..=10).contains(&n) => Ok(PlayerKind::Engine(n)),
                _ => Err(lang
                    .pick(
                        format!("nivel {l:?}: el nivel del motor va de 1 a 10"),
                        format!("level {l:?}: engine levels go from 1 to 10"),
                    )
                    .to_string()),
            },
        },
        _ => Err(bad_player(text, lang)),
    }
}

fn bad_player(text: &str, lang: Lang) -> String {
    lang.pick(
        format!("jugador {text:?}: escribe humano, motor o motor:NIVEL (1–10)"),
        format!("player {text:?}: write human, engine or engine:LEVEL (1-10)"),
    )
}

/// The game set-up the options ask for.
pub fn config_from_args(args: &PlayArgs, lang: Lang) -> Result<Config, String> {
    let white = args
        .blancas
        .as_deref()
        .map(|t| parse_player(t, lang))
        .transpose()?;
    let black = args
        .negras
        .as_deref()
        .map(|t| parse_player(t, lang))
        .transpose()?;
    let other = |p: PlayerKind| match p {
        PlayerKind::Human => PlayerKind::Engine(DEFAULT_LEVEL),
        PlayerKind::Engine(_) => PlayerKind::Human,
    };
    let players = match (white, black) {
        (Some(w), Some(b)) => [w, b],
        (Some(w), None) => [w, other(w)],
        (None, Some(b)) => [other(b), b],
        (None, None) => [PlayerKind::Human, PlayerKind::Engine(DEFAULT_LEVEL)],
    };
    let rules = match args.reglas.as_deref() {
        None => RuleChoice::Fide2023,
        Some(r) => RuleChoice::parse(r).ok_or_else(|| {
            lang.pick(
                format!("reglas {r:?}: escribe fide, londres1846 o londres1846-inglaterra"),
                format!("rules {r:?}: write fide, london1846 or london1846-english"),
            )
        })?,
    };
    let clock = match args.reloj.as_deref() {
        None => None,
        Some(c)
            if matches!(
                c.trim().to_lowercase().as_str(),
                "no" | "ninguno" | "none" | "-"
            ) =>
        {
            None
        }
        Some(c) => Some(c.trim().to_string()),
    };
    let odds = match args.ventaja.as_deref() {
        None => None,
        Some(v) => Some(parse_odds(v).ok_or_else(|| {
            lang.pick(
                format!("ventaja {v:?}: escribe peon, caballo, torre o dama"),
                format!("odds {v:?}: write pawn, knight, rook or queen"),
            )
        })?),
    };
    Ok(Config {
        players,
        clock,
        rules,
        fen: args.fen.clone(),
        odds,
    })
}

/// Reads an odds preset: `peon` (peón y salida), `caballo`, `torre`, `dama`
/// (English `pawn`, `knight`, `rook`, `queen`).
pub fn parse_odds(text: &str) -> Option<Odds> {
    match text.trim().to_lowercase().as_str() {
        "peon" | "peón" | "peonysalida" | "peón y salida" | "pawn" => Some(Odds::PawnAndMove),
        "caballo" | "knight" => Some(Odds::Knight),
        "torre" | "rook" => Some(Odds::Rook),
        "dama" | "queen" => Some(Odds::Queen),
        _ => None,
    }
}

/// Whether this terminal can show chess figurines: a UTF-8 locale and not
/// the Linux text console (whose font lacks them).
pub fn terminal_has_figurines() -> bool {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()))
        .unwrap_or_default()
        .to_lowercase();
    let utf8 = locale.contains("utf-8") || locale.contains("utf8");
    let console = std::env::var("TERM").map(|t| t == "linux").unwrap_or(false);
    utf8 && !console
}

/// Runs `escaque jugar`.
pub fn run(args: &PlayArgs, lang: Lang) -> Result<(), String> {
    let config = config_from_args(args, lang)?;
    let source = Arc::new(MonotonicTime::new());
    let text_mode =
        args.texto || !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal();
    if text_mode {
        let mut session = Session::new(config, lang, source)?;
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        texto::run(&mut session, stdin.lock(), &mut out).map_err(|e| e.to_string())
    } else {
        let ascii = args.ascii || !terminal_has_figurines();
        crate::tui::run(config, lang, source, ascii, args.chooses_nothing())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_in_both_languages() {
        assert_eq!(parse_player("humano", Lang::Es), Ok(PlayerKind::Human));
        assert_eq!(
            parse_player("engine:3", Lang::En),
            Ok(PlayerKind::Engine(3))
        );
        assert_eq!(
            parse_player("motor", Lang::Es),
            Ok(PlayerKind::Engine(DEFAULT_LEVEL))
        );
        assert!(parse_player("motor:11", Lang::Es)
            .unwrap_err()
            .contains("1 a 10"));
        assert!(parse_player("gato", Lang::Es).is_err());
    }

    #[test]
    fn the_unnamed_side_is_the_other_kind() {
        let args = PlayArgs {
            blancas: Some("motor:2".into()),
            ..PlayArgs::default()
        };
        let c = config_from_args(&args, Lang::Es).unwrap();
        assert_eq!(c.players, [PlayerKind::Engine(2), PlayerKind::Human]);
        let args = PlayArgs {
            reglas: Some("londres1846".into()),
            ..PlayArgs::default()
        };
        let c = config_from_args(&args, Lang::Es).unwrap();
        assert_eq!(c.rules, RuleChoice::London1846);
        assert_eq!(
            c.players,
            [PlayerKind::Human, PlayerKind::Engine(DEFAULT_LEVEL)]
        );
    }
}
