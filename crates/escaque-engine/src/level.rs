//! Playing strength for people: `Skill Level` 0–20, `UCI_Elo`, and the ten
//! named levels of the terminal game.

use std::fmt;
use std::str::FromStr;

use escaque::{Lang, Localized};

/// The weakest `UCI_Elo` accepted.
pub const MIN_ELO: u32 = 800;
/// The strongest `UCI_Elo` accepted: what full strength measured with the
/// network (≈ 2380 ± 94, 3-14-13 against Stockfish 15.1 at `UCI_Elo` 2500,
/// 5+0.05; BENCHMARKS.md); at or above it the engine plays at full strength.
pub const MAX_ELO: u32 = 2380;

/// The weakest setting of the schedule ([`Weakening::for_setting`]).
pub const MIN_SETTING: u32 = 200;
/// The strongest setting of the schedule (the lightest weakening).
pub const MAX_SETTING: u32 = 2850;
/// The strongest setting of the hand-written evaluation's schedule; above
/// it, up to [`MAX_SETTING`], the engine searches at full strength with its
/// network, one move and no choice, and only a node limit weakens it.
pub const HAND_TOP: u32 = 2600;
/// The setting below which the search stops shrinking (1 ply, 300 nodes) and
/// only the choice of move loosens.
const SMALLEST_SEARCH: u32 = 800;

/// How a weakened engine searches and chooses.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Weakening {
    /// Depth limit in plies.
    pub depth: u32,
    /// Node limit.
    pub nodes: u64,
    /// Number of candidate moves considered (MultiPV of the inner search).
    pub candidates: usize,
    /// Softness of the choice, in centipawns: a move this much worse than the
    /// best is chosen e⁻¹ times as often.
    pub temperature: f64,
    /// A move worse than the best by more than this is never chosen.
    pub max_loss: i32,
    /// Whether the search evaluates with the network (the settings above
    /// [`HAND_TOP`]) or with the hand-written evaluation alone (the rest).
    pub network: bool,
}

/// Where the schedule of [`Weakening::for_setting`] lands: (setting, Elo on
/// Stockfish 15.1's `UCI_Elo` scale at 5+0.05), increasing in both. Up to
/// [`HAND_TOP`] (the hand-written evaluation) the Elo column is the curve that
/// `tools/calibrate.py` fitted by maximum likelihood (a quadratic in the
/// setting) to every calibration game, against Stockfish with `UCI_Elo`
/// 1350–2000 and between settings, which carry the scale below Stockfish's
/// floor (the games are in `tools/calibration_games.txt`). The curve is steep
/// at the weak end (one more ply of search is worth hundreds of points there)
/// and flat at the strong end, where the lightest hand-written weakening plays
/// ≈ 450 points below full strength ([`MAX_ELO`]). Above it (the network's
/// search under a node limit) the column is the line that the same tool
/// fitted (`--degree 1`: Elo linear in the logarithm of the nodes) to the
/// games of `tools/calibration_network.txt`, against Stockfish at 2000–2400
/// (BENCHMARKS.md, "Levels against Stockfish's `UCI_Elo`"). Both rounded to
/// 10. Below setting 900 the games only bound the curve (those settings lose
/// almost every game to setting 1200). [`Weakening::for_elo`] reads the table
/// backwards so that the Elo asked for is the Elo measured.
pub const CALIBRATION: [(u32, u32); 13] = [
    (900, 760),
    (1000, 880),
    (1200, 1090),
    (1400, 1280),
    (1600, 1450),
    (1800, 1590),
    (2000, 1710),
    (2200, 1810),
    (2400, 1880),
    (2600, 1930),
    (2650, 2010),
    (2750, 2170),
    (2850, 2330),
];

impl Weakening {
    /// The weakening for a target Elo; `None` at full strength ([`MAX_ELO`]).
    /// Targets between the strongest calibrated point (≈ 2330) and full
    /// strength get the lightest weakening.
    pub fn for_elo(elo: u32) -> Option<Weakening> {
        if elo >= MAX_ELO {
            return None;
        }
        Some(Weakening::for_setting(Weakening::setting_for(elo)))
    }

    /// The schedule setting that measured as `elo`: linear between the
    /// calibration points, clamped to the first and last.
    pub fn setting_for(elo: u32) -> u32 {
        let (s0, m0) = CALIBRATION[0];
        if elo <= m0 {
            return s0;
        }
        for w in CALIBRATION.windows(2) {
            let ((sa, ma), (sb, mb)) = (w[0], w[1]);
            if elo <= mb {
                return sa + (elo - ma) * (sb - sa) / (mb - ma);
            }
        }
        CALIBRATION[CALIBRATION.len() - 1].0
    }

    /// The Elo a raw setting measured as: the calibration curve read
    /// forwards, linear between its points, and the end points beyond them
    /// (below setting 900 the games only bound the strength from above).
    pub fn elo_for_setting(setting: u32) -> u32 {
        let (s0, m0) = CALIBRATION[0];
        if setting <= s0 {
            return m0;
        }
        for w in CALIBRATION.windows(2) {
            let ((sa, ma), (sb, mb)) = (w[0], w[1]);
            if setting <= sb {
                return ma + (setting - sa) * (mb - ma) / (sb - sa);
            }
        }
        CALIBRATION[CALIBRATION.len() - 1].1
    }

    /// The raw schedule: depth, nodes, candidates, temperature and loss cap
    /// for a setting between [`MIN_SETTING`] and [`MAX_SETTING`]. From 800 up
    /// every number moves linearly (nodes exponentially) towards the lightest
    /// weakening at 2600; below 800 the search stays at its smallest (1 ply,
    /// 300 nodes) and only the choice grows looser: more candidates, a higher
    /// temperature, a larger loss allowed.
    ///
    /// Above [`HAND_TOP`] the search is the full engine's (the network, one
    /// candidate, no depth limit) and the node limit alone grows: 8,000
    /// nodes a move at 2600, doubled every 50 points (2650: 16,000; 2850:
    /// 256,000), which fills the gap between the lightest hand-written
    /// weakening (≈ 1930) and full strength (≈ 2380). 8,000 is where the
    /// network's search measured about as strong as setting 2600.
    pub fn for_setting(setting: u32) -> Weakening {
        if setting > HAND_TOP {
            let u = (setting.min(MAX_SETTING) - HAND_TOP) as f64 / 50.0;
            return Weakening {
                depth: crate::search::MAX_PLY as u32 - 1,
                nodes: (8000.0 * 2f64.powf(u)) as u64,
                candidates: 1,
                temperature: 1.0,
                max_loss: 0,
                network: true,
            };
        }
        let s = setting.clamp(MIN_SETTING, HAND_TOP) as f64;
        let t = (s - SMALLEST_SEARCH as f64) / (HAND_TOP - SMALLEST_SEARCH) as f64;
        Weakening {
            depth: 1 + (t.max(0.0) * 9.0).round() as u32,
            nodes: (300.0 * 2f64.powf(t.max(0.0) * 10.0)) as u64,
            candidates: 3 + ((1.0 - t) * 5.0).round() as usize,
            temperature: 8.0 + (1.0 - t) * 140.0,
            max_loss: 30 + ((1.0 - t) * 420.0) as i32,
            network: false,
        }
    }

    /// The Elo a `Skill Level` (0–20) stands for; 20 is full strength.
    pub fn skill_to_elo(skill: u32) -> u32 {
        if skill >= 20 {
            MAX_ELO
        } else {
            MIN_ELO + skill * (MAX_ELO - MIN_ELO) / 20
        }
    }
}

/// The ten levels of the terminal game, shown to players by name
/// ([`Level::name`]; `Display` gives the Spanish one).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// 1 — principiante, beginner (~800).
    Beginner = 1,
    /// 2 — novato, novice (~950).
    Novice,
    /// 3 — aprendiz, learner (~1100).
    Learner,
    /// 4 — aficionado, amateur (~1250).
    Amateur,
    /// 5 — jugador de club, club player (~1400).
    ClubPlayer,
    /// 6 — avanzado, advanced (~1550).
    Advanced,
    /// 7 — experto, expert (~1700).
    Expert,
    /// 8 — fuerte, strong (~1800).
    Strong,
    /// 9 — muy fuerte, very strong (~1900).
    VeryStrong,
    /// 10 — maestro, master: full strength ([`MAX_ELO`]).
    Master,
}

impl Level {
    /// All ten, weakest first.
    pub const ALL: [Level; 10] = [
        Level::Beginner,
        Level::Novice,
        Level::Learner,
        Level::Amateur,
        Level::ClubPlayer,
        Level::Advanced,
        Level::Expert,
        Level::Strong,
        Level::VeryStrong,
        Level::Master,
    ];

    /// The level numbered 1–10.
    pub fn from_number(n: u32) -> Option<Level> {
        Level::ALL.get((n as usize).wrapping_sub(1)).copied()
    }

    /// 1–10.
    pub fn number(self) -> u32 {
        self as u32
    }

    /// The name shown to players in `lang` (lower case: `"jugador de club"`,
    /// `"club player"`).
    pub fn name(self, lang: Lang) -> &'static str {
        let (es, en) = match self {
            Level::Beginner => ("principiante", "beginner"),
            Level::Novice => ("novato", "novice"),
            Level::Learner => ("aprendiz", "learner"),
            Level::Amateur => ("aficionado", "amateur"),
            Level::ClubPlayer => ("jugador de club", "club player"),
            Level::Advanced => ("avanzado", "advanced"),
            Level::Expert => ("experto", "expert"),
            Level::Strong => ("fuerte", "strong"),
            Level::VeryStrong => ("muy fuerte", "very strong"),
            Level::Master => ("maestro", "master"),
        };
        lang.pick(es, en)
    }

    /// The `UCI_Elo` this level is mapped to: 800 to 1700 in steps of 150 for
    /// levels 1–7, 1800 and 1900 for levels 8 and 9 (where the hand-written
    /// evaluation's curve flattens: its lightest weakening measured ≈ 1930),
    /// then full strength ([`MAX_ELO`]).
    pub fn elo(self) -> u32 {
        match self {
            Level::Strong => 1800,
            Level::VeryStrong => 1900,
            Level::Master => MAX_ELO,
            l => 800 + 150 * (l.number() - 1),
        }
    }
}

/// The Spanish name (`"jugador de club"`); [`Level::name`] for English.
impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name(Lang::Es))
    }
}

impl Localized for Level {
    fn message(&self, lang: Lang) -> String {
        self.name(lang).to_string()
    }
}

/// A text that names no level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLevelError {
    /// The text as given.
    pub text: String,
}

impl Localized for ParseLevelError {
    fn message(&self, lang: Lang) -> String {
        let names: Vec<&str> = Level::ALL.iter().map(|l| l.name(lang)).collect();
        match lang {
            Lang::Es => format!(
                "{:?} no es un nivel: escribe un número del 1 al 10 o un nombre ({})",
                self.text,
                names.join(", ")
            ),
            Lang::En => format!(
                "{:?} is not a level: give a number from 1 to 10 or a name ({})",
                self.text,
                names.join(", ")
            ),
        }
    }
}

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::Es))
    }
}

impl std::error::Error for ParseLevelError {}

/// Reads a level from its number (`"5"`) or its Spanish or English name, in
/// any case, with spaces, hyphens or underscores between words
/// (`"jugador de club"`, `"Club-Player"`).
impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        let err = || ParseLevelError { text: text.into() };
        let t = text.trim();
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            return t
                .parse::<u32>()
                .ok()
                .and_then(Level::from_number)
                .ok_or_else(err);
        }
        let words: Vec<String> = t
            .split(|c: char| c.is_whitespace() || c == '-' || c == '_')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        let wanted = words.join(" ");
        Level::ALL
            .into_iter()
            .find(|l| l.name(Lang::Es) == wanted || l.name(Lang::En) == wanted)
            .ok_or_else(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calibration_is_increasing_and_read_backwards() {
        assert!(CALIBRATION
            .windows(2)
            .all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        for &(s, m) in &CALIBRATION {
            assert_eq!(Weakening::setting_for(m), s);
            assert_eq!(Weakening::elo_for_setting(s), m);
        }
        let elos: Vec<u32> = (MIN_SETTING..=MAX_SETTING)
            .map(Weakening::elo_for_setting)
            .collect();
        assert!(elos.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(Weakening::elo_for_setting(MIN_SETTING), CALIBRATION[0].1);
        let settings: Vec<u32> = (MIN_ELO..MAX_ELO).map(Weakening::setting_for).collect();
        assert!(settings.windows(2).all(|w| w[0] <= w[1]));
        assert!(settings
            .iter()
            .all(|&s| (MIN_SETTING..=MAX_SETTING).contains(&s)));
        assert_eq!(Weakening::for_elo(MAX_ELO), None);
        assert!(Weakening::for_elo(MAX_ELO - 1).is_some());
        // Every level below full strength asks for an Elo the table covers.
        for level in Level::ALL {
            if level != Level::Master {
                assert!(level.elo() >= CALIBRATION[0].1);
                assert!(level.elo() <= CALIBRATION[CALIBRATION.len() - 1].1);
            }
        }
        let settings: Vec<u32> = Level::ALL[..9]
            .iter()
            .map(|l| Weakening::setting_for(l.elo()))
            .collect();
        assert!(settings.windows(2).all(|w| w[0] < w[1]), "{settings:?}");
    }

    #[test]
    fn the_schedule_weakens_monotonically() {
        let hand: Vec<Weakening> = (MIN_SETTING..=HAND_TOP)
            .step_by(50)
            .map(Weakening::for_setting)
            .collect();
        for w in hand.windows(2) {
            let (weak, strong) = (&w[0], &w[1]);
            assert!(weak.depth <= strong.depth && weak.nodes <= strong.nodes);
            assert!(weak.candidates >= strong.candidates);
            assert!(weak.temperature > strong.temperature && weak.max_loss >= strong.max_loss);
        }
        assert!(hand.iter().all(|w| !w.network));
        let weakest = Weakening::for_setting(MIN_SETTING);
        assert_eq!((weakest.depth, weakest.nodes), (1, 300));
        assert!(weakest.max_loss > 500, "{weakest:?}");
        // Above the hand-written top: the network's full search, one move,
        // only the node limit growing (doubled every 50 points).
        let net: Vec<Weakening> = (HAND_TOP + 1..=MAX_SETTING)
            .map(Weakening::for_setting)
            .collect();
        assert!(net
            .iter()
            .all(|w| w.network && w.candidates == 1 && w.max_loss == 0));
        assert!(net.windows(2).all(|w| w[0].nodes <= w[1].nodes));
        assert_eq!(Weakening::for_setting(HAND_TOP + 50).nodes, 16_000);
        assert_eq!(Weakening::for_setting(MAX_SETTING).nodes, 256_000);
        assert_eq!(
            Weakening::for_setting(u32::MAX),
            Weakening::for_setting(MAX_SETTING)
        );
    }
}
