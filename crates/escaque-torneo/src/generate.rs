//! Random tournaments for testing pairing programs and tie-break checkers
//! (`escaque torneo generar`): a whole Swiss event paired round by round by
//! escaque's Dutch engine ([`crate::dutch`]), with results drawn by the
//! rating difference along FIDE's expected-score table
//! ([`crate::rating::expected_score`]), draws, forfeits, retirements and
//! byes of every kind at the rates (or fixed counts per round) of a
//! [`Config`], the Baku acceleration if asked for, and the tie-break list.
//!
//! The generator has its own random number generator (xoshiro256**, seeded
//! through SplitMix64), written here so that a seed gives the same file
//! on every machine and with every version of any dependency: the same
//! seed and configuration give the same bytes. The seed and the
//! configuration are written at the top of the file as `###` comments,
//! which every TRF reader skips.

use escaque::{Lang, Localized};

use crate::model::{ByeKind, Outcome, Player, System, Tournament, Unusual};
use crate::standings::TieBreak;

/// xoshiro256** (Blackman and Vigna), seeded by SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Rng {
            s: [next(), next(), next(), next()],
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A number in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A number in `lo..=hi` (without modulo bias).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        let span = hi - lo + 1;
        if span == 0 {
            return self.next_u64();
        }
        let zone = u64::MAX - (u64::MAX % span);
        loop {
            let v = self.next_u64();
            if v < zone {
                return lo + v % span;
            }
        }
    }

    /// Whether an event of probability `p` happens.
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.unit() < p
    }

    /// `k` distinct items of `items`, in their order there.
    fn choose<T: Copy>(&mut self, items: &[T], k: usize) -> Vec<T> {
        let mut idx: Vec<usize> = (0..items.len()).collect();
        let k = k.min(items.len());
        for i in 0..k {
            let j = self.range(i as u64, items.len() as u64 - 1) as usize;
            idx.swap(i, j);
        }
        let mut chosen: Vec<usize> = idx[..k].to_vec();
        chosen.sort_unstable();
        chosen.into_iter().map(|i| items[i]).collect()
    }
}

/// How often something happens: a probability for each player-round (or
/// each game), or exactly so many each round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rate {
    Probability(f64),
    PerRound(u32),
}

impl Rate {
    fn text(self) -> String {
        match self {
            Rate::Probability(p) => format!("{p}"),
            Rate::PerRound(k) => format!("{k}/ronda"),
        }
    }

    fn parse(text: &str) -> Option<Rate> {
        let t = text.trim();
        for suffix in ["/ronda", "/round", "por ronda", "per round"] {
            if let Some(k) = t.strip_suffix(suffix) {
                return k.trim().parse().ok().map(Rate::PerRound);
            }
        }
        let p = if let Some(pct) = t.strip_suffix('%') {
            pct.trim().parse::<f64>().ok()? / 100.0
        } else {
            t.parse::<f64>().ok()?
        };
        (0.0..=1.0).contains(&p).then_some(Rate::Probability(p))
    }
}

/// What the generated tournament looks like.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub players: u32,
    pub rounds: u32,
    pub lowest_rating: u16,
    pub highest_rating: u16,
    /// Share of players without a rating.
    pub unrated: f64,
    /// Share of the games played over the board that are drawn.
    pub draws: f64,
    /// Games one side did not come to (a forfeit win for the other).
    pub forfeits: Rate,
    /// Games neither side came to.
    pub double_forfeits: Rate,
    /// Games played that end ½-0, 0-½ or 0-0 (each of the three a third of
    /// them): a share of the games like `forfeits`, or so many each round.
    pub unusual: Rate,
    /// Players leaving the tournament before a round (never back).
    pub retirements: Rate,
    /// Requested half-point byes (TRF `H`).
    pub half_byes: Rate,
    /// Full-point byes the organiser gives (TRF `F`).
    pub full_byes: Rate,
    /// Announced absences, zero points (TRF `Z`).
    pub zero_byes: Rate,
    /// Players entering late (their first round drawn among 2..=3).
    pub late_entries: f64,
    /// The Baku acceleration (C.04.5.1).
    pub baku: bool,
    /// The accelerations written as JaVaFo's `XXA` lines (one a player,
    /// its virtual points round by round) instead of TRF-2026 `250` records.
    pub xxa: bool,
    pub tiebreaks: Vec<TieBreak>,
    /// White for the first player in round 1; `None`: drawn by the seed.
    pub first_white: Option<bool>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            players: 30,
            rounds: 7,
            lowest_rating: 1400,
            highest_rating: 2600,
            unrated: 0.0,
            draws: 0.3,
            forfeits: Rate::Probability(0.02),
            double_forfeits: Rate::Probability(0.0),
            unusual: Rate::Probability(0.0),
            retirements: Rate::Probability(0.01),
            half_byes: Rate::Probability(0.03),
            full_byes: Rate::Probability(0.0),
            zero_byes: Rate::Probability(0.01),
            late_entries: 0.0,
            baku: false,
            xxa: false,
            tiebreaks: TieBreak::default_order(System::Swiss),
            first_white: None,
        }
    }
}

/// What is wrong in a configuration file, or why no tournament came out.
#[derive(Clone, Debug, PartialEq)]
pub enum GenError {
    /// Line `line` (1-based) of the configuration: an unknown key.
    UnknownKey { line: usize, key: String },
    /// Line `line`: a value that does not fit its key.
    BadValue {
        line: usize,
        key: String,
        value: String,
    },
    /// Line `line` has no `=`.
    NoEquals { line: usize },
    /// Something out of range: fewer than 2 players, no rounds, the lowest
    /// rating above the highest, rates of one player-round adding up to
    /// more than 1.
    Invalid(&'static str),
    /// No legal pairing exists for this round with this seed.
    NoPairing { round: u32 },
}

impl std::fmt::Display for GenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for GenError {}

impl Localized for GenError {
    fn message(&self, lang: Lang) -> String {
        match self {
            GenError::UnknownKey { line, key } => lang.pick(
                format!("línea {line}: clave desconocida «{key}»"),
                format!("line {line}: unknown key '{key}'"),
            ),
            GenError::BadValue { line, key, value } => lang.pick(
                format!("línea {line}: «{value}» no vale para «{key}»"),
                format!("line {line}: '{value}' is not a valid value for '{key}'"),
            ),
            GenError::NoEquals { line } => lang.pick(
                format!("línea {line}: se esperaba «clave = valor»"),
                format!("line {line}: expected 'key = value'"),
            ),
            GenError::Invalid(what) => lang.pick(
                format!("configuración imposible: {what}"),
                format!("impossible configuration: {what}"),
            ),
            GenError::NoPairing { round } => lang.pick(
                format!("no hay emparejamiento legal para la ronda {round} con esta semilla; pruebe otra"),
                format!("no legal pairing exists for round {round} with this seed; try another"),
            ),
        }
    }
}

impl Config {
    /// Reads `clave = valor` lines over `self` (`#` starts a comment).
    /// Keys, in Spanish or English: `jugadores`/`players`,
    /// `rondas`/`rounds`, `elo_min`/`lowest_rating`,
    /// `elo_max`/`highest_rating`, `sin_elo`/`unrated`, `tablas`/`draws`,
    /// `incomparecencias`/`forfeits`, `dobles_incomparecencias`/`double_forfeits`,
    /// `inusuales`/`unusual` (½-0, 0-½, 0-0),
    /// `retiradas`/`retirements`, `medio_punto`/`half_byes`,
    /// `punto_completo`/`full_byes`, `cero_puntos`/`zero_byes`,
    /// `tardios`/`late_entries`, `baku` (`si`/`no`, `yes`/`no`),
    /// `desempates`/`tiebreaks` (FIDE codes, comma-separated),
    /// `blancas1`/`first_white` (`si`/`no`). A rate is a probability
    /// (`0.05`), a percentage (`5%`) or a count per round (`2/ronda`).
    pub fn read(mut self, text: &str) -> Result<Config, GenError> {
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let l = raw.split('#').next().unwrap_or("").trim();
            if l.is_empty() {
                continue;
            }
            let (key, value) = l.split_once('=').ok_or(GenError::NoEquals { line })?;
            let (key, value) = (key.trim(), value.trim());
            let bad = || GenError::BadValue {
                line,
                key: key.to_string(),
                value: value.to_string(),
            };
            let rate = || Rate::parse(value).ok_or_else(bad);
            let prob = || match Rate::parse(value) {
                Some(Rate::Probability(p)) => Ok(p),
                _ => Err(bad()),
            };
            let yes_no = || match value.to_lowercase().as_str() {
                "si" | "sí" | "yes" | "true" | "1" => Ok(true),
                "no" | "false" | "0" => Ok(false),
                _ => Err(bad()),
            };
            match key.to_lowercase().as_str() {
                "jugadores" | "players" => self.players = value.parse().map_err(|_| bad())?,
                "rondas" | "rounds" => self.rounds = value.parse().map_err(|_| bad())?,
                "elo_min" | "lowest_rating" => {
                    self.lowest_rating = value.parse().map_err(|_| bad())?
                }
                "elo_max" | "highest_rating" => {
                    self.highest_rating = value.parse().map_err(|_| bad())?
                }
                "sin_elo" | "unrated" => self.unrated = prob()?,
                "tablas" | "draws" => self.draws = prob()?,
                "incomparecencias" | "forfeits" => self.forfeits = rate()?,
                "dobles_incomparecencias" | "double_forfeits" => self.double_forfeits = rate()?,
                "inusuales" | "unusual" => self.unusual = rate()?,
                "retiradas" | "retirements" => self.retirements = rate()?,
                "medio_punto" | "half_byes" => self.half_byes = rate()?,
                "punto_completo" | "full_byes" => self.full_byes = rate()?,
                "cero_puntos" | "zero_byes" => self.zero_byes = rate()?,
                "tardios" | "tardíos" | "late_entries" => self.late_entries = prob()?,
                "baku" => self.baku = yes_no()?,
                "xxa" => self.xxa = yes_no()?,
                "blancas1" | "first_white" => self.first_white = Some(yes_no()?),
                "desempates" | "tiebreaks" => {
                    let list = TieBreak::parse_list(value).map_err(|_| bad())?;
                    TieBreak::check_for(System::Swiss, &list).map_err(|_| bad())?;
                    self.tiebreaks = list;
                }
                _ => {
                    return Err(GenError::UnknownKey {
                        line,
                        key: key.to_string(),
                    })
                }
            }
        }
        Ok(self)
    }

    /// The configuration as [`Config::read`] reads it back (written into
    /// the generated file).
    pub fn text(&self) -> String {
        let codes: Vec<&str> = self.tiebreaks.iter().map(|t| t.id()).collect();
        format!(
            "jugadores={} rondas={} elo_min={} elo_max={} sin_elo={} tablas={} incomparecencias={} \
             dobles_incomparecencias={} retiradas={} medio_punto={} punto_completo={} cero_puntos={} \
             tardios={} baku={} desempates={}{}{}{}",
            self.players,
            self.rounds,
            self.lowest_rating,
            self.highest_rating,
            self.unrated,
            self.draws,
            self.forfeits.text(),
            self.double_forfeits.text(),
            self.retirements.text(),
            self.half_byes.text(),
            self.full_byes.text(),
            self.zero_byes.text(),
            self.late_entries,
            if self.baku { "si" } else { "no" },
            codes.join(","),
            match self.first_white {
                Some(w) => format!(" blancas1={}", if w { "si" } else { "no" }),
                None => String::new(),
            },
            if self.xxa { " xxa=si" } else { "" },
            // Written only when asked for, so that files generated before
            // unusual results existed come out byte for byte the same.
            if self.unusual == Rate::Probability(0.0) {
                String::new()
            } else {
                format!(" inusuales={}", self.unusual.text())
            }
        )
    }

    /// The rates a real tournament shows (draws among the games played,
    /// forfeits among the games, and per player-round retirements and byes
    /// of each kind), its size, rounds, ratings and tie-breaks: a model for
    /// generating events like it (`--modelo`).
    pub fn from_model(t: &Tournament) -> Config {
        let mut c = Config {
            players: t.players.len() as u32,
            rounds: t.total_rounds.max(t.rounds.len() as u32),
            tiebreaks: t.tiebreaks.clone(),
            first_white: Some(t.first_white),
            ..Config::default()
        };
        let rated: Vec<u16> = t.players.iter().filter_map(|p| p.rating).collect();
        if let (Some(&lo), Some(&hi)) = (rated.iter().min(), rated.iter().max()) {
            c.lowest_rating = lo;
            c.highest_rating = hi;
        }
        if !t.players.is_empty() {
            c.unrated = (t.players.len() - rated.len()) as f64 / t.players.len() as f64;
        }
        let (mut games, mut played, mut drawn, mut forfeits, mut doubles) = (0, 0, 0, 0, 0);
        let mut unusual = 0;
        for r in &t.rounds {
            for g in &r.games {
                games += 1;
                if g.unusual.is_some() {
                    unusual += 1;
                    continue;
                }
                match g.outcome {
                    Outcome::Draw => {
                        played += 1;
                        drawn += 1
                    }
                    Outcome::WhiteWins | Outcome::BlackWins => played += 1,
                    Outcome::WhiteForfeitWin | Outcome::BlackForfeitWin => forfeits += 1,
                    Outcome::DoubleForfeit => doubles += 1,
                    Outcome::Pending => {}
                }
            }
        }
        let share = |a: u32, b: u32| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        c.draws = share(drawn, played);
        c.forfeits = Rate::Probability(share(forfeits, games));
        c.double_forfeits = Rate::Probability(share(doubles, games));
        c.unusual = Rate::Probability(share(unusual, games));
        let (mut slots, mut half, mut full, mut zero, mut retired) = (0, 0, 0, 0, 0);
        for (i, p) in t.players.iter().enumerate() {
            let id = i as u32 + 1;
            for r in 1..=t.rounds.len() as u32 {
                if r < p.entry_round || p.withdrawn_from.is_some_and(|w| r > w) {
                    continue;
                }
                slots += 1;
                if p.withdrawn_from == Some(r) {
                    retired += 1;
                    continue;
                }
                match t.entry(id, r) {
                    crate::model::Entry::Bye(ByeKind::Half) => half += 1,
                    crate::model::Entry::Bye(ByeKind::Full) => full += 1,
                    crate::model::Entry::Bye(ByeKind::Zero) | crate::model::Entry::Absent => {
                        zero += 1
                    }
                    _ => {}
                }
            }
        }
        c.half_byes = Rate::Probability(share(half, slots));
        c.full_byes = Rate::Probability(share(full, slots));
        c.zero_byes = Rate::Probability(share(zero, slots));
        c.retirements = Rate::Probability(share(retired, slots));
        c
    }

    fn check(&self) -> Result<(), GenError> {
        if self.players < 2 {
            return Err(GenError::Invalid(
                "menos de 2 jugadores / fewer than 2 players",
            ));
        }
        if self.players > 9999 {
            return Err(GenError::Invalid(
                "más de 9999 jugadores / more than 9999 players",
            ));
        }
        if self.rounds == 0 || self.rounds > 99 {
            return Err(GenError::Invalid(
                "rondas entre 1 y 99 / rounds from 1 to 99",
            ));
        }
        if self.lowest_rating > self.highest_rating {
            return Err(GenError::Invalid("elo_min > elo_max"));
        }
        let p = |r: Rate| match r {
            Rate::Probability(p) => p,
            Rate::PerRound(_) => 0.0,
        };
        let slot = p(self.retirements) + p(self.half_byes) + p(self.full_byes) + p(self.zero_byes);
        let game = p(self.forfeits) + p(self.double_forfeits) + p(self.unusual);
        if slot > 1.0 || game > 1.0 {
            return Err(GenError::Invalid(
                "probabilidades que suman más de 1 / probabilities adding up to more than 1",
            ));
        }
        Ok(())
    }
}

/// Draws `rate` among `candidates` (each independently with a probability,
/// or exactly k of them).
fn pick(rng: &mut Rng, rate: Rate, candidates: &[u32]) -> Vec<u32> {
    match rate {
        Rate::Probability(p) => candidates
            .iter()
            .copied()
            .filter(|_| rng.chance(p))
            .collect(),
        Rate::PerRound(k) => rng.choose(candidates, k as usize),
    }
}

/// A generated tournament and its TRF text.
#[derive(Clone, Debug)]
pub struct Generated {
    pub tournament: Tournament,
    pub text: String,
}

/// Generates a tournament from `config` and `seed`; with `model`, its
/// players (names, ratings, titles, federations, ids) instead of invented
/// ones.
pub fn generate(
    config: &Config,
    seed: u64,
    model: Option<&Tournament>,
) -> Result<Generated, GenError> {
    config.check()?;
    let mut rng = Rng::new(seed);
    let mut t = Tournament::new(
        &format!("Torneo generado {seed}"),
        System::Swiss,
        config.rounds,
    );
    t.city = "escaque".into();
    t.start_date = "2026-03-01".into();
    t.tiebreaks = config.tiebreaks.clone();
    t.first_white = match config.first_white {
        Some(w) => w,
        None => rng.chance(0.5),
    };
    match model {
        Some(m) => {
            for p in &m.players {
                let mut q = Player::new(&p.name);
                q.title = p.title.clone();
                q.federation = p.federation.clone();
                q.rating = p.rating;
                q.fide_id = p.fide_id;
                q.sex = p.sex.clone();
                q.birth_year = p.birth_year;
                add(&mut t, q);
            }
        }
        None => {
            for i in 1..=config.players {
                let mut p = Player::new(&format!("Jugador {i:04}"));
                if !rng.chance(config.unrated) {
                    p.rating = Some(
                        rng.range(config.lowest_rating.into(), config.highest_rating.into()) as u16,
                    );
                }
                add(&mut t, p);
            }
        }
    }
    // Late entries: their first round is 2 or 3 (never past the last).
    if config.rounds > 1 {
        for p in &mut t.players {
            if rng.chance(config.late_entries) {
                p.entry_round = rng.range(2, 3.min(config.rounds as u64)) as u32;
            }
        }
    }
    t.sort_pairing_numbers();
    for r in 1..=config.rounds {
        // Late entries take their numbers before the round they enter.
        if t.players.iter().any(|p| p.entry_round == r && r > 1) {
            t.sort_pairing_numbers();
        }
        if config.baku {
            t.accelerations = crate::baku::acceleration(&t);
        }
        let active: Vec<u32> = (1..=t.players.len() as u32)
            .filter(|&id| {
                let p = &t.players[id as usize - 1];
                p.entry_round <= r && p.withdrawn_from.is_none()
            })
            .collect();
        // Retirements (not in round 1: a player who never plays is an
        // absence), then byes among the others.
        let leaving = if r > 1 {
            pick(&mut rng, config.retirements, &active)
        } else {
            Vec::new()
        };
        for &id in &leaving {
            t.withdraw(id, r).expect("a player of the tournament");
        }
        let mut staying: Vec<u32> = active
            .iter()
            .copied()
            .filter(|id| !leaving.contains(id))
            .collect();
        for (rate, kind) in [
            (config.half_byes, ByeKind::Half),
            (config.full_byes, ByeKind::Full),
            (config.zero_byes, ByeKind::Zero),
        ] {
            // One draw a player-round across the kinds, so that the
            // probabilities are of the player-round (they add up).
            let chosen = match rate {
                Rate::Probability(_) => Vec::new(),
                Rate::PerRound(_) => pick(&mut rng, rate, &staying),
            };
            for &id in &chosen {
                t.request_bye(id, r, kind).expect("a round not yet paired");
            }
            staying.retain(|id| !chosen.contains(id));
        }
        let prob = |r: Rate| match r {
            Rate::Probability(p) => p,
            Rate::PerRound(_) => 0.0,
        };
        let (ph, pf, pz) = (
            prob(config.half_byes),
            prob(config.full_byes),
            prob(config.zero_byes),
        );
        if ph + pf + pz > 0.0 {
            for &id in &staying {
                let u = rng.unit();
                let kind = if u < ph {
                    ByeKind::Half
                } else if u < ph + pf {
                    ByeKind::Full
                } else if u < ph + pf + pz {
                    ByeKind::Zero
                } else {
                    continue;
                };
                t.request_bye(id, r, kind).expect("a round not yet paired");
            }
        }
        let round = crate::pairing::next_round(&t).map_err(|_| GenError::NoPairing { round: r })?;
        t.record_round(round).expect("the next round");
        // Results.
        let games: Vec<(u32, u32)> = t.rounds[r as usize - 1]
            .games
            .iter()
            .map(|g| (g.white, g.black))
            .collect();
        let boards: Vec<usize> = (0..games.len()).collect();
        let forfeited = match config.forfeits {
            Rate::PerRound(k) => rng.choose(&boards, k as usize),
            Rate::Probability(_) => Vec::new(),
        };
        let doubled = match config.double_forfeits {
            Rate::PerRound(k) => {
                let rest: Vec<usize> = boards
                    .iter()
                    .copied()
                    .filter(|b| !forfeited.contains(b))
                    .collect();
                rng.choose(&rest, k as usize)
            }
            Rate::Probability(_) => Vec::new(),
        };
        let unusual_boards = match config.unusual {
            Rate::PerRound(k) => {
                let rest: Vec<usize> = boards
                    .iter()
                    .copied()
                    .filter(|b| !forfeited.contains(b) && !doubled.contains(b))
                    .collect();
                rng.choose(&rest, k as usize)
            }
            Rate::Probability(_) => Vec::new(),
        };
        let (pf, pd) = (prob(config.forfeits), prob(config.double_forfeits));
        let pu = prob(config.unusual);
        for (b, &(w, bl)) in games.iter().enumerate() {
            // `None`: an unusual result (½-0, 0-½, 0-0), drawn below.
            let outcome = if forfeited.contains(&b) {
                Some(forfeit_side(&mut rng))
            } else if doubled.contains(&b) {
                Some(Outcome::DoubleForfeit)
            } else if unusual_boards.contains(&b) {
                None
            } else {
                let u = if pf + pd + pu > 0.0 { rng.unit() } else { 1.0 };
                if u < pf {
                    Some(forfeit_side(&mut rng))
                } else if u < pf + pd {
                    Some(Outcome::DoubleForfeit)
                } else if u < pf + pd + pu {
                    None
                } else {
                    Some(played(&mut rng, config, &t, w, bl))
                }
            };
            let board = b as u32 + 1;
            match outcome {
                Some(o) => t.set_result_board(r, board, o),
                None => {
                    let kind = Unusual::ALL[rng.range(0, 2) as usize];
                    t.set_unusual_board(r, board, kind)
                }
            }
            .expect("a board of the round");
        }
    }
    let text = format!(
        "### escaque torneo generar: semilla {seed}\n### {}\n{}",
        config.text(),
        with_system_line(
            &if config.xxa {
                with_xxa(&crate::trf::write(&t), &t)
            } else {
                crate::trf::write(&t)
            },
            config.baku
        )
    );
    Ok(Generated {
        tournament: t,
        text,
    })
}

fn add(t: &mut Tournament, p: Player) {
    // Names are distinct (numbered, or a real event's), so the entry
    // cannot be a duplicate; one that is would be the model's own error.
    if t.add_player(p.clone()).is_err() {
        let n = t.players.len() + 1;
        let mut q = p;
        q.name = format!("{} ({n})", q.name);
        t.add_player(q).expect("a distinct name");
    }
}

fn forfeit_side(rng: &mut Rng) -> Outcome {
    if rng.chance(0.5) {
        Outcome::WhiteForfeitWin
    } else {
        Outcome::BlackForfeitWin
    }
}

/// A game played over the board: a draw with the configured share; the
/// decisive games split so that White's expected score is FIDE's table's
/// for the two ratings (an unrated player counts as the lowest rating).
fn played(rng: &mut Rng, config: &Config, t: &Tournament, w: u32, b: u32) -> Outcome {
    let rating = |id: u32| {
        t.players[id as usize - 1]
            .rating
            .unwrap_or(config.lowest_rating)
    };
    let e = crate::rating::expected_score(rating(w), rating(b));
    let d = config.draws;
    if rng.chance(d) {
        return Outcome::Draw;
    }
    let white_wins = if d >= 1.0 {
        0.5
    } else {
        ((e - d / 2.0) / (1.0 - d)).clamp(0.0, 1.0)
    };
    if rng.chance(white_wins) {
        Outcome::WhiteWins
    } else {
        Outcome::BlackWins
    }
}

/// The tournament's accelerations as JaVaFo's `XXA` lines: `XXA NNNN`, then
/// the virtual points of rounds 1, 2, … in 4 columns every 5 from column 10
/// (as bbpPairings and [`crate::trf::parse`] read them).
pub fn xxa_lines(t: &Tournament) -> String {
    crate::trf::xxa_lines(t)
}

/// `text` (written by [`crate::trf::write`]) with its `250` records
/// replaced by the `XXA` lines of [`xxa_lines`].
fn with_xxa(text: &str, t: &Tournament) -> String {
    let mut out: String = text
        .lines()
        .filter(|l| !l.starts_with("250"))
        .map(|l| format!("{l}\n"))
        .collect();
    out.push_str(&xxa_lines(t));
    out
}

/// Adds `192 FIDE_DUTCH_2025` (or `…_BAKU`) after the `182` line: the
/// pairing system, as TRF-2026 names it for pairing programs.
fn with_system_line(text: &str, baku: bool) -> String {
    let line = if baku {
        "192 FIDE_DUTCH_2025_BAKU\n"
    } else {
        "192 FIDE_DUTCH_2025\n"
    };
    match text.find("\n182 ") {
        Some(i) => {
            let end = text[i + 1..]
                .find('\n')
                .map_or(text.len(), |j| i + 1 + j + 1);
            format!("{}{line}{}", &text[..end], &text[end..])
        }
        None => format!("{line}{text}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rng_is_xoshiro256_starstar() {
        // xoshiro256** from state {1, 2, 3, 4}, as a Python transcription of
        // the authors' algorithm gives it.
        let mut r = Rng { s: [1, 2, 3, 4] };
        assert_eq!(r.next_u64(), 11520);
        assert_eq!(r.next_u64(), 0);
        assert_eq!(r.next_u64(), 1509978240);
        assert_eq!(r.next_u64(), 1215971899390074240);
    }

    #[test]
    fn rates_read_as_probabilities_percentages_or_counts() {
        assert_eq!(Rate::parse("0.25"), Some(Rate::Probability(0.25)));
        assert_eq!(Rate::parse("5%"), Some(Rate::Probability(0.05)));
        assert_eq!(Rate::parse("2/ronda"), Some(Rate::PerRound(2)));
        assert_eq!(Rate::parse("3 per round"), Some(Rate::PerRound(3)));
        assert_eq!(Rate::parse("1.5"), None);
        assert_eq!(Rate::parse("x"), None);
    }

    #[test]
    fn the_configuration_reads_back_from_its_text() {
        let c = Config {
            baku: true,
            half_byes: Rate::PerRound(2),
            first_white: Some(false),
            ..Config::default()
        };
        let text = c.text().replace(' ', "\n");
        assert_eq!(Config::default().read(&text).unwrap(), c);
    }

    #[test]
    fn configuration_errors_name_their_line() {
        let e = Config::default().read("rondas = 5\n\nfoo = 1").unwrap_err();
        assert_eq!(
            e,
            GenError::UnknownKey {
                line: 3,
                key: "foo".into()
            }
        );
        let e = Config::default().read("tablas = 2").unwrap_err();
        assert!(matches!(e, GenError::BadValue { line: 1, .. }));
        assert!(e.message(Lang::Es).contains("línea 1"));
        let e = Config::default().read("rondas 5").unwrap_err();
        assert_eq!(e, GenError::NoEquals { line: 1 });
    }
}
