//! Playing strength for people: `Skill Level` 0–20, `UCI_Elo`, and the ten
//! named levels of the terminal game.

/// The weakest `UCI_Elo` accepted.
pub const MIN_ELO: u32 = 800;
/// The strongest `UCI_Elo` accepted (at or above it the engine plays at full strength).
pub const MAX_ELO: u32 = 2600;

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
}

/// Where the schedule of [`Weakening::for_setting`] lands: (setting, Elo measured
/// against Stockfish 15.1's `UCI_Elo` at 5+0.05), increasing in both. Measured
/// with `tools/match.py`, 8–10 games a point (see BENCHMARKS.md, "Levels against
/// Stockfish's `UCI_Elo`"): the raw schedule is about right up to 1400 and too
/// weak above it (settings 1600–2200 played like ≈ 1400–1700, 2400 like
/// ≈ 2100–2200, about what full strength measured, so targets above ≈ 2200
/// cannot be reached and only get a lighter weakening). [`Weakening::for_elo`] reads the table
/// backwards so that the Elo asked for is the Elo measured.
const CALIBRATION: [(u32, u32); 4] = [(1400, 1400), (2000, 1700), (2400, 2100), (2590, 2250)];

impl Weakening {
    /// The weakening for a target Elo; `None` at full strength. Targets above
    /// the strongest calibrated point get that point's (slight) weakening.
    pub fn for_elo(elo: u32) -> Option<Weakening> {
        if elo >= MAX_ELO {
            return None;
        }
        Some(Weakening::for_setting(Weakening::setting_for(elo)))
    }

    /// The schedule setting (`MIN_ELO`–`MAX_ELO`) that measured as `elo`:
    /// identity below the first calibration point, linear between points,
    /// the last point's setting above it.
    pub fn setting_for(elo: u32) -> u32 {
        let (s0, m0) = CALIBRATION[0];
        if elo <= m0 {
            return elo.clamp(MIN_ELO, s0);
        }
        for w in CALIBRATION.windows(2) {
            let ((sa, ma), (sb, mb)) = (w[0], w[1]);
            if elo <= mb {
                return sa + (elo - ma) * (sb - sa) / (mb - ma);
            }
        }
        CALIBRATION[CALIBRATION.len() - 1].0
    }

    /// The raw schedule: depth, nodes, candidates, temperature and loss cap
    /// for a setting between `MIN_ELO` and `MAX_ELO`.
    pub fn for_setting(setting: u32) -> Weakening {
        let t = (setting.clamp(MIN_ELO, MAX_ELO) - MIN_ELO) as f64 / (MAX_ELO - MIN_ELO) as f64;
        Weakening {
            depth: 1 + (t * 9.0).round() as u32,
            nodes: (300.0 * 2f64.powf(t * 10.0)) as u64,
            candidates: 3 + ((1.0 - t) * 5.0).round() as usize,
            temperature: 8.0 + (1.0 - t) * 140.0,
            max_loss: 30 + ((1.0 - t) * 420.0) as i32,
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

/// The ten levels of the terminal game, named in Spanish.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// 1 — principiante (~800).
    Principiante = 1,
    /// 2 — novato (~1000).
    Novato,
    /// 3 — aprendiz (~1200).
    Aprendiz,
    /// 4 — aficionado (~1400).
    Aficionado,
    /// 5 — jugador de club (~1600).
    JugadorDeClub,
    /// 6 — avanzado (~1800).
    Avanzado,
    /// 7 — experto (~2000).
    Experto,
    /// 8 — candidato a maestro (~2200).
    Candidato,
    /// 9 — maestro FIDE (~2400).
    MaestroFide,
    /// 10 — maestro: full strength.
    Maestro,
}

impl Level {
    /// All ten, weakest first.
    pub const ALL: [Level; 10] = [
        Level::Principiante,
        Level::Novato,
        Level::Aprendiz,
        Level::Aficionado,
        Level::JugadorDeClub,
        Level::Avanzado,
        Level::Experto,
        Level::Candidato,
        Level::MaestroFide,
        Level::Maestro,
    ];

    /// The level numbered 1–10.
    pub fn from_number(n: u32) -> Option<Level> {
        Level::ALL.get((n as usize).wrapping_sub(1)).copied()
    }

    /// 1–10.
    pub fn number(self) -> u32 {
        self as u32
    }

    /// The Spanish name shown to players.
    pub fn name_es(self) -> &'static str {
        match self {
            Level::Principiante => "principiante",
            Level::Novato => "novato",
            Level::Aprendiz => "aprendiz",
            Level::Aficionado => "aficionado",
            Level::JugadorDeClub => "jugador de club",
            Level::Avanzado => "avanzado",
            Level::Experto => "experto",
            Level::Candidato => "candidato a maestro",
            Level::MaestroFide => "maestro FIDE",
            Level::Maestro => "maestro",
        }
    }

    /// The English name.
    pub fn name_en(self) -> &'static str {
        match self {
            Level::Principiante => "beginner",
            Level::Novato => "novice",
            Level::Aprendiz => "learner",
            Level::Aficionado => "amateur",
            Level::JugadorDeClub => "club player",
            Level::Avanzado => "advanced",
            Level::Experto => "expert",
            Level::Candidato => "candidate master",
            Level::MaestroFide => "FIDE master",
            Level::Maestro => "master",
        }
    }

    /// The `UCI_Elo` this level is mapped to (`MAX_ELO` = full strength).
    pub fn elo(self) -> u32 {
        match self {
            Level::Maestro => MAX_ELO,
            l => 800 + 200 * (l.number() - 1),
        }
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
        }
        assert_eq!(Weakening::setting_for(MIN_ELO), MIN_ELO);
        let settings: Vec<u32> = (MIN_ELO..MAX_ELO).map(Weakening::setting_for).collect();
        assert!(settings.windows(2).all(|w| w[0] <= w[1]));
        assert!(settings.iter().all(|&s| (MIN_ELO..MAX_ELO).contains(&s)));
        assert_eq!(Weakening::for_elo(MAX_ELO), None);
    }
}
