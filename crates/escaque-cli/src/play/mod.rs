//! `escaque jugar`: a game in the terminal, full-screen or in plain text.

pub mod texto;

use std::io::IsTerminal;
use std::sync::Arc;

use clap::Args;
use escaque::{Lang, MonotonicTime, Odds, RuleSet, TimeControl};
use escaque_play::{default_level, Config, Player, Session};

use crate::error::CliError;

/// Options of `escaque jugar` (`escaque play`).
#[derive(Args, Debug, Default, Clone)]
pub struct PlayArgs {
    /// Quién lleva las blancas: humano | motor[:NIVEL] (NIVEL 1–10).
    #[arg(long = "blancas", visible_alias = "white", value_name = "JUGADOR")]
    pub white: Option<String>,
    /// Quién lleva las negras: humano | motor[:NIVEL].
    #[arg(long = "negras", visible_alias = "black", value_name = "JUGADOR")]
    pub black: Option<String>,
    /// Control de tiempo, p. ej. 5+3 (minutos + segundos de incremento).
    #[arg(long = "reloj", visible_alias = "clock", value_name = "CONTROL")]
    pub clock: Option<String>,
    /// Posición inicial en FEN.
    #[arg(long)]
    pub fen: Option<String>,
    /// Partida con ventaja: peon (peón y salida) | caballo | torre | dama.
    #[arg(long = "ventaja", visible_alias = "odds", value_name = "VENTAJA")]
    pub odds: Option<String>,
    /// Reglamento: fide | londres1846 | londres1846-inglaterra (el ahogado gana).
    #[arg(long = "reglas", visible_alias = "rules", value_name = "REGLAS")]
    pub rules: Option<String>,
    /// Modo de texto: una línea por jugada u orden, sin pantalla completa.
    #[arg(long = "texto", visible_alias = "text")]
    pub text: bool,
    /// Piezas con letras en vez de figuras.
    #[arg(long)]
    pub ascii: bool,
    /// Ajedrez 960 (Chess960): la posición inicial número N (0-959), al azar sin N.
    #[arg(long = "960", value_name = "N", num_args = 0..=1, id = "chess960")]
    pub chess960: Option<Option<u16>>,
}

impl PlayArgs {
    /// True when no option chooses the game (then the menu is shown first).
    pub fn chooses_nothing(&self) -> bool {
        self.white.is_none()
            && self.black.is_none()
            && self.clock.is_none()
            && self.fen.is_none()
            && self.rules.is_none()
            && self.odds.is_none()
            && self.chess960.is_none()
    }
}

/// The game set-up the options ask for.
/// Whatever a start position given as FEN had relaxed is said on standard
/// error in `lang`.
pub fn config_from_args(args: &PlayArgs, lang: Lang) -> Result<Config, CliError> {
    let player = |t: &Option<String>| -> Result<Option<Player>, CliError> {
        t.as_deref()
            .map(str::parse::<Player>)
            .transpose()
            .map_err(CliError::Player)
    };
    let (white, black) = (player(&args.white)?, player(&args.black)?);
    let other = |p: Player| match p {
        Player::Human => Player::Engine(default_level()),
        Player::Engine(_) => Player::Human,
    };
    let players = match (white, black) {
        (Some(w), Some(b)) => [w, b],
        (Some(w), None) => [w, other(w)],
        (None, Some(b)) => [other(b), b],
        (None, None) => [Player::Human, Player::Engine(default_level())],
    };
    let rules = match args.rules.as_deref() {
        None => RuleSet::fide_2023(),
        Some(r) => r.parse().map_err(CliError::Rules)?,
    };
    let clock = match args.clock.as_deref().map(str::trim) {
        None => None,
        Some(c) if matches!(c.to_lowercase().as_str(), "no" | "ninguno" | "none" | "-") => None,
        Some(c) => Some(TimeControl::parse(c).map_err(CliError::Clock)?),
    };
    let odds = match args.odds.as_deref() {
        None => None,
        Some(v) => Some(
            v.parse::<Odds>()
                .map_err(|_| CliError::Odds(v.to_string()))?,
        ),
    };
    let start = match args.fen.as_deref() {
        Some(f) => {
            // Standard FEN, or a Chess960 one whose castling field names the
            // rooks' files (the game is then Chess960).
            let (pos, warnings, _) =
                crate::perft_cmd::read_fen(f.trim(), false).map_err(CliError::Fen)?;
            for w in warnings {
                eprintln!("escaque: {}", escaque::Localized::message(&w, lang));
            }
            Some(pos)
        }
        None => None,
    };
    let chess960 = match args.chess960 {
        None => None,
        Some(_) if start.is_some() || odds.is_some() => return Err(CliError::FenAnd960),
        Some(Some(n)) if n >= escaque::chess960::CHESS960_POSITIONS => {
            return Err(CliError::Chess960Number(n))
        }
        Some(Some(n)) => Some(n),
        Some(None) => Some(random_chess960_number()),
    };
    Ok(Config {
        players,
        clock,
        rules,
        start,
        odds,
        chess960,
    })
}

/// A Chess960 starting position number drawn at random (0–959), from the
/// system clock and the process id mixed by SplitMix64: no two games started
/// apart in time get the same one by design, and no random number crate is
/// needed for one draw.
fn random_chess960_number() -> u16 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut z = nanos ^ (u64::from(std::process::id()) << 32);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z % u64::from(escaque::chess960::CHESS960_POSITIONS)) as u16
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
pub fn run(args: &PlayArgs, lang: Lang) -> Result<(), CliError> {
    let config = config_from_args(args, lang)?;
    let source = Arc::new(MonotonicTime::new());
    let text_mode =
        args.text || !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal();
    if text_mode {
        let mut session = Session::new(config, lang, source);
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        texto::run(&mut session, stdin.lock(), &mut out).map_err(CliError::Write)
    } else {
        let ascii = args.ascii || !terminal_has_figurines();
        crate::tui::run(config, lang, source, ascii, args.chooses_nothing())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use escaque::Localized;

    #[test]
    fn the_unnamed_side_is_the_other_kind() {
        let args = PlayArgs {
            white: Some("motor:2".into()),
            ..PlayArgs::default()
        };
        let c = config_from_args(&args, Lang::Es).unwrap();
        let two = escaque_play::Level::from_number(2).unwrap();
        assert_eq!(c.players, [Player::Engine(two), Player::Human]);
        let args = PlayArgs {
            rules: Some("londres1846".into()),
            ..PlayArgs::default()
        };
        let c = config_from_args(&args, Lang::Es).unwrap();
        assert_eq!(c.rules, RuleSet::londres_1846());
        assert_eq!(c.players, [Player::Human, Player::Engine(default_level())]);
    }

    #[test]
    fn bad_options_are_typed_errors_worded_in_both_languages() {
        let bad = |args: PlayArgs| config_from_args(&args, Lang::Es).unwrap_err();
        let e = bad(PlayArgs {
            black: Some("motor:11".into()),
            ..PlayArgs::default()
        });
        assert!(matches!(e, CliError::Player(_)));
        assert!(
            e.message(Lang::Es).contains("1 a 10"),
            "{}",
            e.message(Lang::Es)
        );
        let e = bad(PlayArgs {
            rules: Some("ajedrez chino".into()),
            ..PlayArgs::default()
        });
        assert!(e.message(Lang::En).contains("london1846"));
        let e = bad(PlayArgs {
            clock: Some("5+x".into()),
            ..PlayArgs::default()
        });
        assert!(matches!(e, CliError::Clock(_)));
        let e = bad(PlayArgs {
            odds: Some("alfil".into()),
            ..PlayArgs::default()
        });
        assert!(e.message(Lang::Es).contains("caballo"));
        let e = bad(PlayArgs {
            fen: Some("8/8/8 w".into()),
            ..PlayArgs::default()
        });
        assert!(matches!(e, CliError::Fen(_)));
    }
}
