//! A tournament checked against the rules (`escaque torneo comprobar`):
//! every round of a Swiss is paired again by escaque's Dutch engine
//! ([`crate::dutch`]) from the tournament as it stood before it — the
//! rounds before, and that round's byes and absences, which are input to
//! the pairing — and compared with the file's pairing, pairs and colours,
//! as bbpPairings' checker (`--dutch -c`) compares them. Apart from that
//! comparison, each pairing of the file is checked against the absolute
//! criteria of C.04.3 (C.1 no rematch and no forbidden pair, C.2 no second
//! bye or forfeit win before the bye, C.3 no two non-topscorers with the
//! same absolute colour preference), and each player's points and place
//! against the standings the file's declared tie-breaks give (ties, where
//! every tie-break is equal, may be listed in any order or share a place).

use std::collections::BTreeSet;

use escaque::Lang;

use crate::dutch::{pair, pairing_players, PairingPlayer};
use crate::model::{ByeKind, Colour, Entry, PlayerId, System, Tournament};
use crate::HalfPoints;

/// A pair of a round: `(white, Some(black))`, or `(player, None)` for the
/// pairing-allocated bye.
pub type Pair = (PlayerId, Option<PlayerId>);

/// A pairing rule of C.04.3 the file's round breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Breach {
    /// C.1: the two have already played each other.
    Rematch { a: PlayerId, b: PlayerId },
    /// C.1: the organiser forbids the pair (TRF `260`, `XXP`).
    Forbidden { a: PlayerId, b: PlayerId },
    /// C.2: the bye to a player who already had a bye or a forfeit win.
    SecondBye { player: PlayerId },
    /// C.3: two non-topscorers with the same absolute colour preference.
    AbsoluteColours { a: PlayerId, b: PlayerId },
}

/// Something wrong in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The round's pairing is not the one the Dutch system gives:
    /// `file` and `engine` are the pairs each has and the other has not
    /// (a pair with its colours).
    PairingDiffers {
        round: u32,
        file: Vec<Pair>,
        engine: Vec<Pair>,
    },
    /// The Dutch system finds no legal pairing for this round, and the
    /// file has one.
    NoPairing { round: u32 },
    /// A pairing of the file breaks an absolute criterion.
    Breach { round: u32, breach: Breach },
    /// The file's points for a player are not the sum of its results.
    Points {
        player: PlayerId,
        file: HalfPoints,
        computed: HalfPoints,
    },
    /// The file's place for a player does not follow the declared
    /// tie-breaks: `from..=to` are the places it may have (a tie).
    Rank {
        player: PlayerId,
        file: u32,
        from: u32,
        to: u32,
    },
}

/// The checker's findings on one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Rounds paired again.
    pub rounds_checked: u32,
    /// Whether the standings were checked (the file declares its
    /// tie-breaks, `202` or `212`, and has its places).
    pub standings_checked: bool,
    pub problems: Vec<Problem>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// The tournament as it stood before round `r` was paired: the rounds
/// before it, and round `r`'s requested byes and absences (TRF `H`, `F`,
/// `Z`, and a player with neither game nor bye) as requests.
pub fn before_round(full: &Tournament, r: u32) -> Tournament {
    let mut t = full.clone();
    let next = t.rounds.get(r as usize - 1).cloned();
    t.rounds.truncate(r as usize - 1);
    if let Some(round) = next {
        let mut seen: BTreeSet<PlayerId> = BTreeSet::new();
        for g in &round.games {
            seen.insert(g.white);
            seen.insert(g.black);
        }
        for &(p, kind) in &round.byes {
            seen.insert(p);
            let player = &mut t.players[p as usize - 1];
            match kind {
                ByeKind::PairingAllocated => {}
                ByeKind::Half => {
                    player.half_byes.insert(r);
                }
                ByeKind::Full => {
                    player.full_byes.insert(r);
                }
                ByeKind::Zero => {
                    player.absences.insert(r);
                }
            }
        }
        for (i, player) in t.players.iter_mut().enumerate() {
            if !seen.contains(&(i as PlayerId + 1)) {
                player.absences.insert(r);
            }
        }
    }
    t
}

/// The file's pairing of round `r`: games as `(white, Some(black))` and
/// the pairing-allocated bye as `(player, None)`.
fn file_pairs(t: &Tournament, r: u32) -> Vec<Pair> {
    let round = &t.rounds[r as usize - 1];
    let mut out: Vec<Pair> = round
        .games
        .iter()
        .map(|g| (g.white, Some(g.black)))
        .collect();
    out.extend(
        round
            .byes
            .iter()
            .filter(|(_, k)| *k == ByeKind::PairingAllocated)
            .map(|&(p, _)| (p, None)),
    );
    out
}

/// A player's colour preference is absolute (C.04.1/A.6): a colour
/// difference over 1, or the same colour in the last two games played.
fn absolute(p: &PairingPlayer) -> Option<Colour> {
    let cd: i32 = p
        .colours
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum();
    let n = p.colours.len();
    if cd > 1 {
        Some(Colour::Black)
    } else if cd < -1 {
        Some(Colour::White)
    } else if n >= 2 && p.colours[n - 1] == p.colours[n - 2] {
        Some(p.colours[n - 1].opposite())
    } else {
        None
    }
}

fn breaches(t: &Tournament, r: u32, players: &[PairingPlayer], pairs: &[Pair]) -> Vec<Breach> {
    let find = |id: PlayerId| players.iter().find(|p| p.id == id);
    let last_round = r == t.total_rounds;
    let mut out = Vec::new();
    for &(a, b) in pairs {
        match b {
            None => {
                if find(a).is_some_and(|p| !p.bye_eligible) {
                    out.push(Breach::SecondBye { player: a });
                }
            }
            Some(b) => {
                let met = (1..r).any(|k| {
                    matches!(t.entry(a, k), Entry::Game { opponent, result, .. }
                        if opponent == b && result.played())
                });
                if met {
                    out.push(Breach::Rematch { a, b });
                } else if t.forbidden_pairing(a, b, r) {
                    out.push(Breach::Forbidden { a, b });
                }
                if let (Some(pa), Some(pb)) = (find(a), find(b)) {
                    // Topscorers (over half the maximum score) may meet with
                    // the same absolute preference in the last round.
                    let top = |p: &PairingPlayer| p.real_score > p.rounds_played;
                    let same = absolute(pa).is_some() && absolute(pa) == absolute(pb);
                    if same && !(last_round && (top(pa) || top(pb))) {
                        out.push(Breach::AbsoluteColours { a, b });
                    }
                }
            }
        }
    }
    out
}

/// Pairs as a set, each with its colours.
fn as_set(pairs: &[Pair]) -> BTreeSet<Pair> {
    pairs.iter().copied().collect()
}

/// Checks a Swiss tournament's pairings round by round with escaque's Dutch
/// engine, and its points and places (see the module's text). `text` is
/// the file as read (for the places it lists); `t` the tournament read
/// from it.
pub fn check(t: &Tournament, text: &str) -> Report {
    let mut report = Report::default();
    if matches!(t.system, System::Swiss) {
        for r in 1..=t.rounds.len() as u32 {
            let before = before_round(t, r);
            let players = pairing_players(&before, r);
            let file = file_pairs(t, r);
            report.rounds_checked += 1;
            for breach in breaches(&before, r, &players, &file) {
                report.problems.push(Problem::Breach { round: r, breach });
            }
            match pair(&players, r == t.total_rounds, t.total_rounds, t.first_white) {
                None => report.problems.push(Problem::NoPairing { round: r }),
                Some(engine) => {
                    let (f, e) = (as_set(&file), as_set(&engine));
                    if f != e {
                        report.problems.push(Problem::PairingDiffers {
                            round: r,
                            file: f.difference(&e).copied().collect(),
                            engine: e.difference(&f).copied().collect(),
                        });
                    }
                }
            }
        }
    }
    // Points and places, as the player lines give them.
    let listed = listed_places(text);
    let declared = text.lines().any(|l| {
        let l = l.trim_start_matches('\u{feff}');
        l.starts_with("202") || l.starts_with("212")
    });
    let standings = crate::standings::compute_after(t, t.rounds.len() as u32);
    let mut rank_of = vec![0u32; t.players.len()];
    for s in &standings {
        rank_of[s.player as usize - 1] = s.rank;
    }
    for &(id, points, _) in &listed {
        if id == 0 || id as usize > t.players.len() {
            continue;
        }
        let computed = t.score_after(id, t.rounds.len() as u32);
        if let Some(p) = points {
            if p != computed {
                report.problems.push(Problem::Points {
                    player: id,
                    file: p,
                    computed,
                });
            }
        }
    }
    if declared && !listed.is_empty() && listed.iter().all(|l| l.2.is_some()) {
        report.standings_checked = true;
        for &(id, _, place) in &listed {
            let (Some(place), true) = (place, id >= 1 && id as usize <= t.players.len()) else {
                continue;
            };
            let from = rank_of[id as usize - 1];
            let tied = rank_of.iter().filter(|&&r| r == from).count() as u32;
            let to = from + tied - 1;
            if !(from..=to).contains(&place) {
                report.problems.push(Problem::Rank {
                    player: id,
                    file: place,
                    from,
                    to,
                });
            }
        }
    }
    report
}

/// The player lines' start numbers, points (columns 81–84) and places
/// (columns 86–89), where present and readable.
fn listed_places(text: &str) -> Vec<(PlayerId, Option<HalfPoints>, Option<u32>)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        if chars.len() < 8 || chars[..3].iter().collect::<String>() != "001" {
            continue;
        }
        let field = |from: usize, to: usize| -> String {
            if from > chars.len() {
                return String::new();
            }
            chars[from - 1..to.min(chars.len())]
                .iter()
                .collect::<String>()
                .trim()
                .to_string()
        };
        let Ok(id) = field(5, 8).parse::<u32>() else {
            continue;
        };
        let points = field(81, 84)
            .parse::<f64>()
            .ok()
            .filter(|p| *p >= 0.0 && (p * 2.0).fract() == 0.0 && *p < 1e6)
            .map(|p| (p * 2.0) as HalfPoints);
        let place = field(86, 89).parse::<u32>().ok().filter(|&p| p > 0);
        out.push((id, points, place));
    }
    out
}

fn pair_text(p: &Pair, lang: Lang) -> String {
    match p {
        (a, Some(b)) => format!("{a}-{b}"),
        (a, None) => format!("{a} {}", lang.pick("descansa", "bye")),
    }
}

fn list(pairs: &[Pair], lang: Lang) -> String {
    if pairs.is_empty() {
        return "—".into();
    }
    pairs
        .iter()
        .map(|p| pair_text(p, lang))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Problem {
    /// One line in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        match self {
            Problem::PairingDiffers {
                round,
                file,
                engine,
            } => lang.pick(
                format!(
                    "ronda {round}: el emparejamiento no es el del sistema holandés (C.04.3): el archivo tiene {} y el holandés daría {}",
                    list(file, lang),
                    list(engine, lang)
                ),
                format!(
                    "round {round}: the pairing is not the Dutch system's (C.04.3): the file has {} where the Dutch system gives {}",
                    list(file, lang),
                    list(engine, lang)
                ),
            ),
            Problem::NoPairing { round } => lang.pick(
                format!("ronda {round}: el sistema holandés no encuentra emparejamiento legal, y el archivo tiene uno"),
                format!("round {round}: the Dutch system finds no legal pairing, and the file has one"),
            ),
            Problem::Breach { round, breach } => match breach {
                Breach::Rematch { a, b } => lang.pick(
                    format!("ronda {round}: {a} y {b} ya habían jugado entre sí (C.04.3 C.1)"),
                    format!("round {round}: {a} and {b} had already played each other (C.04.3 C.1)"),
                ),
                Breach::Forbidden { a, b } => lang.pick(
                    format!("ronda {round}: el organizador prohíbe el emparejamiento {a}-{b} (C.04.3 C.1)"),
                    format!("round {round}: the organiser forbids the pair {a}-{b} (C.04.3 C.1)"),
                ),
                Breach::SecondBye { player } => lang.pick(
                    format!("ronda {round}: {player} descansa y ya había tenido un descanso o una victoria por incomparecencia (C.04.3 C.2)"),
                    format!("round {round}: {player} gets the bye after an earlier bye or forfeit win (C.04.3 C.2)"),
                ),
                Breach::AbsoluteColours { a, b } => lang.pick(
                    format!("ronda {round}: {a} y {b} tienen la misma preferencia absoluta de color (C.04.3 C.3)"),
                    format!("round {round}: {a} and {b} have the same absolute colour preference (C.04.3 C.3)"),
                ),
            },
            Problem::Points {
                player,
                file,
                computed,
            } => lang.pick(
                format!(
                    "jugador {player}: el archivo le da {} puntos y sus resultados suman {}",
                    crate::format_points_dot(*file),
                    crate::format_points_dot(*computed)
                ),
                format!(
                    "player {player}: the file gives {} points and the results add up to {}",
                    crate::format_points_dot(*file),
                    crate::format_points_dot(*computed)
                ),
            ),
            Problem::Rank {
                player,
                file,
                from,
                to,
            } => {
                let should = if from == to {
                    format!("{from}")
                } else {
                    format!("{from}–{to}")
                };
                lang.pick(
                    format!("jugador {player}: el archivo lo pone {file}º y los desempates declarados lo ponen {should}º"),
                    format!("player {player}: the file places them {file} and the declared tie-breaks place them {should}"),
                )
            }
        }
    }

    fn json(&self) -> String {
        let pairs = |v: &[Pair]| {
            let items: Vec<String> = v
                .iter()
                .map(|(a, b)| match b {
                    Some(b) => format!("[{a},{b}]"),
                    None => format!("[{a},null]"),
                })
                .collect();
            format!("[{}]", items.join(","))
        };
        match self {
            Problem::PairingDiffers {
                round,
                file,
                engine,
            } => format!(
                r#"{{"kind":"pairing_differs","round":{round},"file":{},"engine":{}}}"#,
                pairs(file),
                pairs(engine)
            ),
            Problem::NoPairing { round } => {
                format!(r#"{{"kind":"no_pairing","round":{round}}}"#)
            }
            Problem::Breach { round, breach } => match breach {
                Breach::Rematch { a, b } => {
                    format!(r#"{{"kind":"rematch","round":{round},"players":[{a},{b}]}}"#)
                }
                Breach::Forbidden { a, b } => {
                    format!(r#"{{"kind":"forbidden","round":{round},"players":[{a},{b}]}}"#)
                }
                Breach::SecondBye { player } => {
                    format!(r#"{{"kind":"second_bye","round":{round},"players":[{player}]}}"#)
                }
                Breach::AbsoluteColours { a, b } => {
                    format!(r#"{{"kind":"absolute_colours","round":{round},"players":[{a},{b}]}}"#)
                }
            },
            Problem::Points {
                player,
                file,
                computed,
            } => format!(
                r#"{{"kind":"points","player":{player},"file":{},"computed":{}}}"#,
                crate::format_points_dot(*file),
                crate::format_points_dot(*computed)
            ),
            Problem::Rank {
                player,
                file,
                from,
                to,
            } => format!(
                r#"{{"kind":"rank","player":{player},"file":{file},"from":{from},"to":{to}}}"#
            ),
        }
    }
}

impl Report {
    /// The report to read, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let mut out = String::new();
        out.push_str(&lang.pick(
            format!(
                "{} rondas emparejadas de nuevo con el sistema holandés; clasificación {}\n",
                self.rounds_checked,
                if self.standings_checked {
                    "comprobada con los desempates declarados"
                } else {
                    "no comprobada (el archivo no declara desempates o no da puestos)"
                }
            ),
            format!(
                "{} rounds paired again with the Dutch system; standings {}\n",
                self.rounds_checked,
                if self.standings_checked {
                    "checked against the declared tie-breaks"
                } else {
                    "not checked (the file declares no tie-breaks or gives no places)"
                }
            ),
        ));
        for p in &self.problems {
            out.push_str(&p.text(lang));
            out.push('\n');
        }
        out.push_str(&if self.ok() {
            lang.pick("Todo correcto.\n", "All correct.\n").to_string()
        } else {
            lang.pick(
                format!("{} problemas.\n", self.problems.len()),
                format!("{} problems.\n", self.problems.len()),
            )
        });
        out
    }

    /// The report in one line, in `lang`: all correct, or the number of
    /// problems and the first of them.
    pub fn summary(&self, lang: Lang) -> String {
        match self.problems.first() {
            None => lang.pick(
                format!("todo correcto ({} rondas)", self.rounds_checked),
                format!("all correct ({} rounds)", self.rounds_checked),
            ),
            Some(first) => lang.pick(
                format!(
                    "{} problemas; el primero: {}",
                    self.problems.len(),
                    first.text(lang)
                ),
                format!(
                    "{} problems; the first: {}",
                    self.problems.len(),
                    first.text(lang)
                ),
            ),
        }
    }

    /// The report as JSON: `{"ok", "rounds_checked", "standings_checked",
    /// "problems": [{"kind", …}]}` (kinds: `pairing_differs`, `no_pairing`,
    /// `rematch`, `forbidden`, `second_bye`, `absolute_colours`, `points`,
    /// `rank`).
    pub fn json(&self) -> String {
        let problems: Vec<String> = self.problems.iter().map(Problem::json).collect();
        format!(
            r#"{{"ok":{},"rounds_checked":{},"standings_checked":{},"problems":[{}]}}"#,
            self.ok(),
            self.rounds_checked,
            self.standings_checked,
            problems.join(",")
        )
    }
}
