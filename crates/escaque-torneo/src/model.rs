//! The tournament: players, rounds, games, byes and results.
//!
//! Scores, standings and everything else that depends on results are computed
//! from the rounds on demand, so correcting a result recomputes them.

use std::collections::BTreeSet;

use crate::domain::{
    check_number, check_text, fits, refuse, DomainError, Field, Rule, BIRTH_YEARS, HEADER_CHARS,
    MAX_FIDE_ID, MAX_PLAYERS, MAX_RATING, MAX_ROUNDS, NAME_CHARS, TEXT_CHARS,
};
use crate::error::TorneoError;
use crate::HalfPoints;

/// A player's start number (1-based), also the pairing number.
pub type PlayerId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// A game's result seen from the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// 1-0
    WhiteWins,
    /// 0-1
    BlackWins,
    /// ½-½
    Draw,
    /// +/− : Black did not come.
    WhiteForfeitWin,
    /// −/+ : White did not come.
    BlackForfeitWin,
    /// −/− : neither came.
    DoubleForfeit,
    /// Not played yet.
    Pending,
}

impl Outcome {
    /// The one reader of a result as a person types it, shared by the
    /// command line (`escaque torneo resultado`), the desk and its API:
    /// `1-0`, `0-1`, `½-½` (also `1/2-1/2`, `=`), `+/-` (also `+-`, `1F-0F`),
    /// `-/+` (`-+`, `0F-1F`), `-/-` (`--`, `0F-0F`); `*` for pending. A TRF
    /// file writes one code per player instead: [`Outcome::from_sides`]
    /// reads those.
    pub fn parse(text: &str) -> Result<Outcome, TorneoError> {
        let t: String = text
            .trim()
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| if c == '−' || c == '–' { '-' } else { c })
            .collect();
        Ok(match t.as_str() {
            "1-0" => Outcome::WhiteWins,
            "0-1" => Outcome::BlackWins,
            "½-½" | "1/2-1/2" | "=" | "0.5-0.5" | "tablas" | "draw" => Outcome::Draw,
            "+/-" | "+-" | "1F-0F" | "1f-0f" => Outcome::WhiteForfeitWin,
            "-/+" | "-+" | "0F-1F" | "0f-1f" => Outcome::BlackForfeitWin,
            "-/-" | "--" | "0F-0F" | "0f-0f" => Outcome::DoubleForfeit,
            "*" => Outcome::Pending,
            _ => return Err(TorneoError::BadResultText(text.to_string())),
        })
    }

    pub fn text(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "½-½",
            Outcome::WhiteForfeitWin => "+/-",
            Outcome::BlackForfeitWin => "-/+",
            Outcome::DoubleForfeit => "-/-",
            Outcome::Pending => "*",
        }
    }

    /// Every outcome, in declaration order.
    pub const ALL: [Outcome; 7] = [
        Outcome::WhiteWins,
        Outcome::BlackWins,
        Outcome::Draw,
        Outcome::WhiteForfeitWin,
        Outcome::BlackForfeitWin,
        Outcome::DoubleForfeit,
        Outcome::Pending,
    ];

    /// The game whose White and Black scored `white` and `black` (a TRF
    /// file's two result codes, [`GameResult::from_trf`]); `None` when the
    /// two do not make one game (both won, a forfeit against a game played).
    pub fn from_sides(white: GameResult, black: GameResult) -> Option<Outcome> {
        Outcome::ALL
            .into_iter()
            .find(|o| o.for_side(Colour::White) == white && o.for_side(Colour::Black) == black)
    }

    /// The result seen from one side.
    pub fn for_side(self, colour: Colour) -> GameResult {
        use GameResult::*;
        let (w, b) = match self {
            Outcome::WhiteWins => (Win, Loss),
            Outcome::BlackWins => (Loss, Win),
            Outcome::Draw => (Draw, Draw),
            Outcome::WhiteForfeitWin => (ForfeitWin, ForfeitLoss),
            Outcome::BlackForfeitWin => (ForfeitLoss, ForfeitWin),
            Outcome::DoubleForfeit => (ForfeitLoss, ForfeitLoss),
            Outcome::Pending => (Pending, Pending),
        };
        match colour {
            Colour::White => w,
            Colour::Black => b,
        }
    }
}

/// A game's result from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
    ForfeitWin,
    ForfeitLoss,
    Pending,
}

impl GameResult {
    /// A TRF result code of one player's round (TRF-2026, columns 99, 109,
    /// …; letters in either case): `1`/`W` win, `=`/`D` draw, `0`/`L` loss
    /// (`W`, `D`, `L`: the game lasted less than one move), `+` forfeit
    /// win, `-` forfeit loss, blank or `*` not played yet. Bye codes (`H`,
    /// `F`, `U`, `Z`) are no game result: `None`.
    pub fn from_trf(code: char) -> Option<GameResult> {
        Some(match code.to_ascii_uppercase() {
            '1' | 'W' => GameResult::Win,
            '=' | 'D' => GameResult::Draw,
            '0' | 'L' => GameResult::Loss,
            '+' => GameResult::ForfeitWin,
            '-' => GameResult::ForfeitLoss,
            ' ' | '*' => GameResult::Pending,
            _ => return None,
        })
    }

    /// The TRF code [`GameResult::from_trf`] reads back (a game not played
    /// yet is blank).
    pub fn trf_code(self) -> char {
        match self {
            GameResult::Win => '1',
            GameResult::Draw => '=',
            GameResult::Loss => '0',
            GameResult::ForfeitWin => '+',
            GameResult::ForfeitLoss => '-',
            GameResult::Pending => ' ',
        }
    }

    pub fn points(self) -> HalfPoints {
        match self {
            GameResult::Win | GameResult::ForfeitWin => 2,
            GameResult::Draw => 1,
            _ => 0,
        }
    }
    /// Played over the board (not forfeited, not pending).
    pub fn played(self) -> bool {
        matches!(self, GameResult::Win | GameResult::Draw | GameResult::Loss)
    }
}

/// Rounds without an opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByeKind {
    /// The pairing-allocated bye (one point): TRF `U`.
    PairingAllocated,
    /// A requested half-point bye: TRF `H`.
    Half,
    /// A full-point bye given by the organiser: TRF `F`.
    Full,
    /// Not paired and no points (absent, withdrawn, late entry, round-robin rest): TRF `Z`.
    Zero,
}

impl ByeKind {
    pub fn points(self) -> HalfPoints {
        match self {
            ByeKind::PairingAllocated | ByeKind::Full => 2,
            ByeKind::Half => 1,
            ByeKind::Zero => 0,
        }
    }
    pub fn trf_code(self) -> char {
        match self {
            ByeKind::PairingAllocated => 'U',
            ByeKind::Half => 'H',
            ByeKind::Full => 'F',
            ByeKind::Zero => 'Z',
        }
    }
}

/// A game played to an end that is none of 1-0, ½-½, 0-1: the arbiter gave
/// one player ½ and the other 0, or both 0 (FIDE Laws 11.3.2.2 and 12.9
/// allow it; C.02's checklist asks for it as VCL.13). Each player scores
/// their own points, in pairing and in every tie-break; TRF-2026 writes each
/// player's own result code (`=` and `0`, `0` and `0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unusual {
    /// ½-0: White ½, Black 0.
    HalfZero,
    /// 0-½: White 0, Black ½.
    ZeroHalf,
    /// 0-0: both lost.
    ZeroZero,
}

impl Unusual {
    /// Every unusual result, in declaration order.
    pub const ALL: [Unusual; 3] = [Unusual::HalfZero, Unusual::ZeroHalf, Unusual::ZeroZero];

    /// Each side's own result: (White's, Black's).
    pub fn sides(self) -> (GameResult, GameResult) {
        match self {
            Unusual::HalfZero => (GameResult::Draw, GameResult::Loss),
            Unusual::ZeroHalf => (GameResult::Loss, GameResult::Draw),
            Unusual::ZeroZero => (GameResult::Loss, GameResult::Loss),
        }
    }

    /// The unusual result whose White and Black scored `white` and `black`
    /// (a TRF file's two codes); `None` for any other pair.
    pub fn from_sides(white: GameResult, black: GameResult) -> Option<Unusual> {
        Unusual::ALL
            .into_iter()
            .find(|u| u.sides() == (white, black))
    }

    /// How it is written: `½-0`, `0-½`, `0-0`.
    pub fn text(self) -> &'static str {
        match self {
            Unusual::HalfZero => "½-0",
            Unusual::ZeroHalf => "0-½",
            Unusual::ZeroZero => "0-0",
        }
    }

    /// Reads `½-0` (also `1/2-0`, `0.5-0`), `0-½` (`0-1/2`, `0-0.5`) and
    /// `0-0`, spaces ignored; `None` for anything else.
    pub fn parse(text: &str) -> Option<Unusual> {
        let t: String = text
            .trim()
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| if c == '−' || c == '–' { '-' } else { c })
            .collect();
        match t.as_str() {
            "½-0" | "1/2-0" | "0.5-0" | "0,5-0" => Some(Unusual::HalfZero),
            "0-½" | "0-1/2" | "0-0.5" | "0-0,5" => Some(Unusual::ZeroHalf),
            "0-0" => Some(Unusual::ZeroZero),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub white: PlayerId,
    pub black: PlayerId,
    /// The result; for an [`Unusual`] one it is `Draw` (played and
    /// finished) and `unusual` says what each player scored.
    pub outcome: Outcome,
    /// Set when the game ended ½-0, 0-½ or 0-0.
    pub unusual: Option<Unusual>,
}

impl Game {
    /// A game with a standard result (or none yet).
    pub fn new(white: PlayerId, black: PlayerId, outcome: Outcome) -> Game {
        Game {
            white,
            black,
            outcome,
            unusual: None,
        }
    }

    /// The result from one side: the player's own, for an unusual result too.
    pub fn result_for(&self, colour: Colour) -> GameResult {
        match (self.unusual, colour) {
            (Some(u), Colour::White) => u.sides().0,
            (Some(u), Colour::Black) => u.sides().1,
            (None, c) => self.outcome.for_side(c),
        }
    }

    /// The result as printed: `1-0`, `½-½`, … or `½-0`, `0-½`, `0-0`.
    pub fn result_text(&self) -> &'static str {
        match self.unusual {
            Some(u) => u.text(),
            None => self.outcome.text(),
        }
    }
}

/// One round: games in board order, then the players without a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Game>,
    pub byes: Vec<(PlayerId, ByeKind)>,
}

impl Round {
    /// Byes in start-number order (games keep their board order).
    pub fn sort_byes(&mut self) {
        self.byes.sort_by_key(|b| b.0);
    }
}

/// A round from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Game {
        opponent: PlayerId,
        colour: Colour,
        result: GameResult,
    },
    Bye(ByeKind),
    /// Not in the round at all (counts as a zero-point bye).
    Absent,
}

impl Entry {
    pub fn points(self) -> HalfPoints {
        match self {
            Entry::Game { result, .. } => result.points(),
            Entry::Bye(k) => k.points(),
            Entry::Absent => 0,
        }
    }
    /// A game played over the board.
    pub fn played(self) -> bool {
        matches!(self, Entry::Game { result, .. } if result.played())
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    /// Club or school.
    pub club: String,
    /// Age group or category, e.g. `Sub-12`.
    pub category: String,
    /// `m`, `f` or empty.
    pub sex: String,
    pub title: String,
    pub federation: String,
    pub birth_year: Option<u16>,
    pub rating: Option<u16>,
    pub fide_id: Option<u64>,
    /// First round the player takes part in (1 unless a late entry).
    pub entry_round: u32,
    /// Withdrawn from this round on.
    pub withdrawn_from: Option<u32>,
    /// Rounds for which a half-point bye was requested.
    pub half_byes: BTreeSet<u32>,
    /// Rounds the player announced to miss (zero points, not paired).
    pub absences: BTreeSet<u32>,
    /// Rounds for which the organiser gives a full-point bye (TRF-2026 `240 F`,
    /// e.g. a player away on official duty).
    pub full_byes: BTreeSet<u32>,
}

impl Player {
    pub fn new(name: &str) -> Player {
        Player {
            name: name.trim().to_string(),
            entry_round: 1,
            ..Player::default()
        }
    }

    /// Whether the player is to be paired in `round` (1-based).
    pub fn available(&self, round: u32) -> bool {
        round >= self.entry_round
            && self.withdrawn_from.is_none_or(|w| round < w)
            && !self.half_byes.contains(&round)
            && !self.absences.contains(&round)
            && !self.full_byes.contains(&round)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    /// FIDE Dutch system (C.04.3).
    Swiss,
    /// Berger tables (C.05 Annex 1); `double` plays every pairing twice.
    RoundRobin { double: bool },
}

/// Players who must not be paired against each other in rounds
/// `first_round..=last_round` (TRF-2026 record `260`): siblings, pupils of one
/// school in a qualifier, players of one federation in a given round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForbiddenPairing {
    pub first_round: u32,
    pub last_round: u32,
    /// Any two of these may not meet.
    pub players: Vec<PlayerId>,
}

impl ForbiddenPairing {
    /// Whether `a` and `b` may not meet in `round`.
    pub fn forbids(&self, a: PlayerId, b: PlayerId, round: u32) -> bool {
        (self.first_round..=self.last_round).contains(&round)
            && a != b
            && self.players.contains(&a)
            && self.players.contains(&b)
    }
}

/// Fictitious points counted for pairing only, in an accelerated Swiss
/// (TRF-2026 record `250`; C.04.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acceleration {
    /// Points added, in half points.
    pub points: HalfPoints,
    pub first_round: u32,
    pub last_round: u32,
    pub first_player: PlayerId,
    pub last_player: PlayerId,
}

impl Acceleration {
    /// The fictitious points this record gives player `id` in `round`.
    pub fn points_for(&self, id: PlayerId, round: u32) -> HalfPoints {
        if (self.first_round..=self.last_round).contains(&round)
            && (self.first_player..=self.last_player).contains(&id)
        {
            self.points
        } else {
            0
        }
    }
}

/// What a result correction touched: rounds already paired after the
/// corrected one were paired on the old result (FIDE: they stand).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Correction {
    pub previous: Outcome,
    /// Set when the result replaced was ½-0, 0-½ or 0-0 (`previous` is
    /// then `Draw`, the outcome an unusual result is stored with).
    pub previous_unusual: Option<Unusual>,
    pub later_rounds_paired: Vec<u32>,
}

impl Correction {
    /// The result replaced, as printed (`1-0`, `½-½`, `½-0`…); `None` when
    /// the board had none.
    pub fn previous_text(&self) -> Option<&'static str> {
        match (self.previous_unusual, self.previous) {
            (Some(u), _) => Some(u.text()),
            (None, Outcome::Pending) => None,
            (None, o) => Some(o.text()),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    pub name: String,
    pub city: String,
    pub federation: String,
    pub start_date: String,
    pub end_date: String,
    pub chief_arbiter: String,
    pub time_control: String,
    pub system: System,
    pub total_rounds: u32,
    /// Colour of the first player in round 1 (TRF `XXC white1`/`black1`).
    pub first_white: bool,
    pub players: Vec<Player>,
    pub rounds: Vec<Round>,
    /// The organiser's order of tie-breaks.
    pub tiebreaks: Vec<TieBreak>,
    /// The team ranking adds the best N players of each club or school.
    pub team_size: u32,
    /// Date of each round as written (TRF `132`), round 1 first.
    pub round_dates: Vec<String>,
    /// The time control encoded as TRF-2026 `222` does (`5400+30`).
    pub time_control_code: String,
    /// Pairings the organiser forbids (TRF-2026 `260`).
    pub forbidden: Vec<ForbiddenPairing>,
    /// Accelerated rounds (TRF-2026 `250`).
    pub accelerations: Vec<Acceleration>,
    /// The version of the tie-break regulations (FIDE C.07) the organiser
    /// chose; `None`: the one the start date asks for
    /// ([`Rules::of`]).
    pub tiebreak_rules: Option<Rules>,
    /// The rating unrated players count with in rating-based tie-breaks
    /// (ARO), where the tournament's regulations set one (C.07 allows it);
    /// `None`: ARO is dropped when unrated players take part.
    pub unrated_rating: Option<u16>,
    /// FIDE mode's `###` lines in the TRF, in order: leaving it (which
    /// cannot be undone) and each manual pairing's comparison with the
    /// engine (`### MPA @ Round n`); see `fide.rs`.
    pub fide_log: Vec<String>,
}

impl Tournament {
    pub fn new(name: &str, system: System, total_rounds: u32) -> Tournament {
        Tournament {
            name: name.to_string(),
            city: String::new(),
            federation: String::new(),
            start_date: String::new(),
            end_date: String::new(),
            chief_arbiter: String::new(),
            time_control: String::new(),
            system,
            total_rounds,
            first_white: true,
            players: Vec::new(),
            rounds: Vec::new(),
            tiebreaks: TieBreak::default_order(system),
            team_size: 4,
            round_dates: Vec::new(),
            time_control_code: String::new(),
            forbidden: Vec::new(),
            accelerations: Vec::new(),
            tiebreak_rules: None,
            unrated_rating: None,
            fide_log: Vec::new(),
        }
    }

    pub fn player(&self, id: PlayerId) -> Result<&Player, TorneoError> {
        id.checked_sub(1)
            .and_then(|i| self.players.get(i as usize))
            .ok_or(TorneoError::NoSuchPlayer(id))
    }

    fn player_mut(&mut self, id: PlayerId) -> Result<&mut Player, TorneoError> {
        id.checked_sub(1)
            .and_then(|i| self.players.get_mut(i as usize))
            .ok_or(TorneoError::NoSuchPlayer(id))
    }

    /// Enters a player; after round 1 is paired this is a late entry, who
    /// starts with zero-point rounds for what was missed.
    pub fn add_player(&mut self, mut p: Player) -> Result<PlayerId, TorneoError> {
        p.name = p.name.trim().to_string();
        if p.name.is_empty() || p.name.chars().any(|c| c.is_control()) {
            return Err(TorneoError::BadName(p.name));
        }
        p.normalize();
        p.check()?;
        if self.players.len() >= crate::domain::MAX_PLAYERS {
            return Err(crate::domain::DomainError {
                field: crate::domain::Field::Players,
                value: (self.players.len() + 1).to_string(),
                rule: crate::domain::Rule::Range {
                    min: 1,
                    max: crate::domain::MAX_PLAYERS as u64,
                },
            }
            .into());
        }
        if matches!(self.system, System::RoundRobin { .. }) && !self.rounds.is_empty() {
            return Err(TorneoError::RoundRobinStarted);
        }
        for (i, q) in self.players.iter().enumerate() {
            let same_fide = p.fide_id.is_some() && p.fide_id == q.fide_id;
            let same_person =
                q.name.to_lowercase() == p.name.to_lowercase() && q.birth_year == p.birth_year;
            if same_fide || same_person {
                return Err(TorneoError::DuplicatePlayer {
                    name: p.name,
                    existing: i as u32 + 1,
                });
            }
        }
        p.entry_round = p.entry_round.max(self.rounds.len() as u32 + 1);
        self.players.push(p);
        let id = self.players.len() as u32;
        // Rounds already paired: the late entry was not in them.
        for r in &mut self.rounds {
            r.byes.push((id, ByeKind::Zero));
            r.sort_byes();
        }
        Ok(id)
    }

    /// Replaces player `id`'s details (an edit at the desk): the new ones
    /// are checked as an entry is ([`Player::check`]); the
    /// rounds the player is in stay as they are.
    pub fn replace_player(&mut self, id: PlayerId, mut p: Player) -> Result<(), TorneoError> {
        self.player(id)?;
        p.name = p.name.trim().to_string();
        if p.name.is_empty() || p.name.chars().any(|c| c.is_control()) {
            return Err(TorneoError::BadName(p.name));
        }
        p.normalize();
        p.check()?;
        *self.player_mut(id)? = p;
        Ok(())
    }

    /// Withdraws a player from `round` on (rounds already paired keep their games).
    pub fn withdraw(&mut self, id: PlayerId, from_round: u32) -> Result<(), TorneoError> {
        let first_unpaired = self.rounds.len() as u32 + 1;
        // From any round of the tournament, or from the one after its last.
        let last = self.total_rounds.max(self.rounds.len() as u32) + 1;
        crate::domain::check_number(
            crate::domain::Field::Round,
            from_round.into(),
            1,
            last.into(),
        )?;
        let p = self.player_mut(id)?;
        p.withdrawn_from = Some(from_round.max(first_unpaired));
        Ok(())
    }

    /// Records a requested half-point bye for a round not yet paired.
    pub fn request_half_bye(&mut self, id: PlayerId, round: u32) -> Result<(), TorneoError> {
        self.request_bye(id, round, ByeKind::Half)
    }

    /// Records a bye for a round not yet paired: a requested half point
    /// (`Half`), a full point the organiser gives (`Full`), or an announced
    /// absence (`Zero`). Any earlier request for that round is replaced.
    /// (`PairingAllocated` asked for in advance counts as `Full`.)
    pub fn request_bye(
        &mut self,
        id: PlayerId,
        round: u32,
        kind: ByeKind,
    ) -> Result<(), TorneoError> {
        if round <= self.rounds.len() as u32 || round == 0 || round > self.total_rounds {
            return Err(TorneoError::ByeTooLate { player: id, round });
        }
        let p = self.player_mut(id)?;
        p.half_byes.remove(&round);
        p.full_byes.remove(&round);
        p.absences.remove(&round);
        match kind {
            ByeKind::Half => p.half_byes.insert(round),
            ByeKind::Zero => p.absences.insert(round),
            // A bye the pairing would give is, asked for in advance, a full point.
            ByeKind::Full | ByeKind::PairingAllocated => p.full_byes.insert(round),
        };
        Ok(())
    }

    /// Forbids any two of `players` to meet in rounds `first..=last` (Swiss only;
    /// a round robin's tables are fixed).
    pub fn forbid(
        &mut self,
        players: &[PlayerId],
        first: u32,
        last: u32,
    ) -> Result<(), TorneoError> {
        for &id in players {
            self.player(id)?;
        }
        let distinct: BTreeSet<PlayerId> = players.iter().copied().collect();
        if distinct.len() < 2 || first == 0 || last < first {
            return Err(TorneoError::BadForbidden);
        }
        // Within the tournament's rounds: a round past its end would be
        // written wider than its TRF column.
        crate::domain::check_rounds(first, last, self.total_rounds)?;
        self.forbidden.push(ForbiddenPairing {
            first_round: first,
            last_round: last,
            players: players.to_vec(),
        });
        Ok(())
    }

    /// Player `id`'s round `round` (1-based) as seen from the player.
    pub fn entry(&self, id: PlayerId, round: u32) -> Entry {
        let Some(r) = round
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i as usize))
        else {
            return Entry::Absent;
        };
        for g in &r.games {
            if g.white == id {
                return Entry::Game {
                    opponent: g.black,
                    colour: Colour::White,
                    result: g.result_for(Colour::White),
                };
            }
            if g.black == id {
                return Entry::Game {
                    opponent: g.white,
                    colour: Colour::Black,
                    result: g.result_for(Colour::Black),
                };
            }
        }
        r.byes
            .iter()
            .find(|(p, _)| *p == id)
            .map(|(_, k)| Entry::Bye(*k))
            .unwrap_or(Entry::Absent)
    }

    /// Score after the first `rounds` rounds.
    pub fn score_after(&self, id: PlayerId, rounds: u32) -> HalfPoints {
        (1..=rounds).map(|r| self.entry(id, r).points()).sum()
    }

    /// Whether the organiser forbids `a` and `b` to meet in `round` (TRF `260`).
    pub fn forbidden_pairing(&self, a: PlayerId, b: PlayerId, round: u32) -> bool {
        self.forbidden.iter().any(|f| f.forbids(a, b, round))
    }

    /// Fictitious points player `id` carries for pairing `round` (TRF `250`).
    pub fn acceleration(&self, id: PlayerId, round: u32) -> HalfPoints {
        self.accelerations
            .iter()
            .map(|a| a.points_for(id, round))
            .sum()
    }

    /// Score after every round paired so far.
    pub fn score(&self, id: PlayerId) -> HalfPoints {
        self.score_after(id, self.rounds.len() as u32)
    }

    /// The last round with every result in: rounds `1..=complete_rounds()`
    /// have no game without result (0 before round 1 is finished).
    pub fn complete_rounds(&self) -> u32 {
        self.rounds
            .iter()
            .take_while(|r| r.games.iter().all(|g| g.outcome != Outcome::Pending))
            .count() as u32
    }

    /// The round paired and not finished (a game still without result), if
    /// any: the first round after [`Tournament::complete_rounds`].
    pub fn round_in_progress(&self) -> Option<u32> {
        let done = self.complete_rounds();
        (done < self.rounds.len() as u32).then_some(done + 1)
    }

    /// Games of a round still without result.
    pub fn pending(&self, round: u32) -> Vec<(PlayerId, PlayerId)> {
        self.rounds
            .get(round as usize - 1)
            .map(|r| {
                r.games
                    .iter()
                    .filter(|g| g.outcome == Outcome::Pending)
                    .map(|g| (g.white, g.black))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn round_mut(&mut self, round: u32) -> Result<&mut Round, TorneoError> {
        round
            .checked_sub(1)
            .and_then(|i| self.rounds.get_mut(i as usize))
            .ok_or(TorneoError::NoSuchRound(round))
    }

    fn correction(
        &self,
        round: u32,
        previous: Outcome,
        previous_unusual: Option<Unusual>,
    ) -> Correction {
        Correction {
            previous,
            previous_unusual,
            later_rounds_paired: ((round + 1)..=self.rounds.len() as u32).collect(),
        }
    }

    /// Sets (or corrects) the result of the game between `a` and `b` in any order.
    /// The outcome is read from White's side; if `a` is Black it is as given
    /// for the board, so callers pass the board result.
    pub fn set_result(
        &mut self,
        round: u32,
        a: PlayerId,
        b: PlayerId,
        outcome: Outcome,
    ) -> Result<Correction, TorneoError> {
        let r = self.round_mut(round)?;
        let g = r
            .games
            .iter_mut()
            .find(|g| (g.white == a && g.black == b) || (g.white == b && g.black == a))
            .ok_or(TorneoError::NoSuchGame { round, a, b })?;
        let previous = std::mem::replace(&mut g.outcome, outcome);
        let previous_unusual = g.unusual.take();
        Ok(self.correction(round, previous, previous_unusual))
    }

    /// The game on board `board` (1-based) of `round`.
    fn board_mut(&mut self, round: u32, board: u32) -> Result<&mut Game, TorneoError> {
        let r = self.round_mut(round)?;
        board
            .checked_sub(1)
            .and_then(|i| r.games.get_mut(i as usize))
            .ok_or(TorneoError::NoSuchBoard { round, board })
    }

    /// Sets (or corrects) the result on board `board` (1-based) of `round`.
    pub fn set_result_board(
        &mut self,
        round: u32,
        board: u32,
        outcome: Outcome,
    ) -> Result<Correction, TorneoError> {
        let g = self.board_mut(round, board)?;
        let previous = std::mem::replace(&mut g.outcome, outcome);
        let previous_unusual = g.unusual.take();
        Ok(self.correction(round, previous, previous_unusual))
    }

    /// Sets (or corrects) an unusual result (½-0, 0-½, 0-0, from White's
    /// side) on board `board` (1-based) of `round`; a later standard result
    /// set with [`Tournament::set_result_board`] replaces it.
    pub fn set_unusual_board(
        &mut self,
        round: u32,
        board: u32,
        unusual: Unusual,
    ) -> Result<Correction, TorneoError> {
        let g = self.board_mut(round, board)?;
        let previous = std::mem::replace(&mut g.outcome, Outcome::Draw);
        let previous_unusual = g.unusual.replace(unusual);
        Ok(self.correction(round, previous, previous_unusual))
    }

    /// The number of the round to pair next, if one may be paired now: the
    /// tournament is not over and every game of the last round has a result.
    pub fn next_round_number(&self) -> Result<u32, TorneoError> {
        let next = self.rounds.len() as u32 + 1;
        if next > self.total_rounds {
            return Err(TorneoError::TournamentOver(self.total_rounds));
        }
        if next > 1 {
            let pending = self.pending(next - 1);
            if !pending.is_empty() {
                return Err(TorneoError::RoundNotComplete {
                    round: next - 1,
                    pending,
                });
            }
        }
        Ok(next)
    }

    /// Records `round` as the next round (byes sorted by player) and returns
    /// its number. The model does not pair: the pairing module makes the
    /// round and records it here. Refused, as [`Tournament::next_round_number`]
    /// refuses, when no round may be added now.
    pub fn record_round(&mut self, mut round: Round) -> Result<u32, TorneoError> {
        let next = self.next_round_number()?;
        round.sort_byes();
        self.rounds.push(round);
        Ok(next)
    }

    /// Gives the players their pairing numbers by the initial ranking of
    /// FIDE C.04.2 A.2: rating (highest first; unrated last), then FIDE
    /// title (GM, IM, WGM, FM, WIM, CM, WFM, WCM, none), then name
    /// (alphabetically, case and accents aside), then the order of entry.
    ///
    /// Before round 1 every player is ranked. Once a round is paired the
    /// numbers already used in it stand: only players who have not yet been
    /// in any paired round (late entries, `entry_round` after the last paired
    /// round) take their place, each just before the first ranked player it
    /// precedes by the same rule; everyone below moves down one number.
    ///
    /// Every reference is renumbered: games, byes, forbidden pairings and
    /// accelerations (an acceleration's range of numbers is split into as
    /// many ranges as its players now cover). Returns the renumbering as
    /// `new_number[old_number - 1]`; it is the identity when nothing moved.
    ///
    /// A round robin is left as entered: its numbers are the drawing of lots
    /// for the Berger tables (C.05), not a ranking.
    pub fn sort_pairing_numbers(&mut self) -> Vec<PlayerId> {
        let paired = self.rounds.len() as u32;
        let n = self.players.len();
        if matches!(self.system, System::RoundRobin { .. }) {
            return (1..=n as PlayerId).collect();
        }
        let (fixed, mut late): (Vec<usize>, Vec<usize>) = if paired == 0 {
            (Vec::new(), (0..n).collect())
        } else {
            (0..n).partition(|&i| self.players[i].entry_round <= paired)
        };
        late.sort_by(|&a, &b| self.initial_rank_order(a, b));
        // Merge: fixed players keep their relative order; a late entry goes
        // before the first fixed player it ranks above.
        let mut order = Vec::with_capacity(n);
        let mut li = 0;
        for &f in &fixed {
            while li < late.len()
                && self.initial_rank_order(late[li], f) == std::cmp::Ordering::Less
            {
                order.push(late[li]);
                li += 1;
            }
            order.push(f);
        }
        order.extend_from_slice(&late[li..]);
        let mut new_number = vec![0; n];
        for (new_index, &old_index) in order.iter().enumerate() {
            new_number[old_index] = new_index as PlayerId + 1;
        }
        if order.iter().enumerate().all(|(i, &o)| i == o) {
            return new_number;
        }
        let map = |id: PlayerId| -> PlayerId {
            id.checked_sub(1)
                .and_then(|i| new_number.get(i as usize).copied())
                .unwrap_or(id)
        };
        let old_players = std::mem::take(&mut self.players);
        let mut slots: Vec<Option<Player>> = old_players.into_iter().map(Some).collect();
        self.players = order.iter().filter_map(|&i| slots[i].take()).collect();
        for r in &mut self.rounds {
            for g in &mut r.games {
                g.white = map(g.white);
                g.black = map(g.black);
            }
            for b in &mut r.byes {
                b.0 = map(b.0);
            }
            r.sort_byes();
        }
        for f in &mut self.forbidden {
            for p in &mut f.players {
                *p = map(*p);
            }
        }
        let mut accelerations = Vec::new();
        for a in &self.accelerations {
            let mut covered: Vec<PlayerId> = (a.first_player..=a.last_player)
                .filter(|&id| id >= 1 && id as usize <= n)
                .map(map)
                .collect();
            covered.sort_unstable();
            let mut i = 0;
            while i < covered.len() {
                let mut j = i;
                while j + 1 < covered.len() && covered[j + 1] == covered[j] + 1 {
                    j += 1;
                }
                accelerations.push(Acceleration {
                    first_player: covered[i],
                    last_player: covered[j],
                    ..a.clone()
                });
                i = j + 1;
            }
        }
        self.accelerations = accelerations;
        new_number
    }

    /// The initial ranking's order between players at indices `a` and `b`
    /// (C.04.2 A.2), the order of entry last so that it is total.
    fn initial_rank_order(&self, a: usize, b: usize) -> std::cmp::Ordering {
        let (p, q) = (&self.players[a], &self.players[b]);
        q.rating
            .unwrap_or(0)
            .cmp(&p.rating.unwrap_or(0))
            .then_with(|| title_rank(&p.title).cmp(&title_rank(&q.title)))
            .then_with(|| name_key(&p.name).cmp(&name_key(&q.name)))
            .then_with(|| p.name.cmp(&q.name))
            .then_with(|| a.cmp(&b))
    }

    /// Byes that are not the pairing's choice: requested half-points, absences.
    pub(crate) fn fixed_byes(&self, round: u32) -> Vec<(PlayerId, ByeKind)> {
        let mut out = Vec::new();
        for (i, p) in self.players.iter().enumerate() {
            let id = i as u32 + 1;
            if p.available(round) {
                continue;
            }
            let present = round >= p.entry_round && p.withdrawn_from.is_none_or(|w| round < w);
            let kind = if present && p.full_byes.contains(&round) {
                ByeKind::Full
            } else if present && p.half_byes.contains(&round) {
                ByeKind::Half
            } else {
                ByeKind::Zero
            };
            out.push((id, kind));
        }
        out
    }
}

/// A FIDE title's place in the initial ranking (C.04.2 A.2): GM, IM, WGM, FM,
/// WIM, CM, WFM, WCM, then no title. Reads the TRF codes (`g`, `i`, `wg`,
/// `f`, `wi`, `c`, `wf`, `wc`) and the usual abbreviations.
pub fn title_rank(title: &str) -> u8 {
    match title.trim().to_ascii_lowercase().as_str() {
        "g" | "gm" => 0,
        "i" | "im" => 1,
        "wg" | "wgm" => 2,
        "f" | "fm" => 3,
        "wi" | "wim" => 4,
        "c" | "cm" => 5,
        "wf" | "wfm" => 6,
        "wc" | "wcm" => 7,
        _ => 8,
    }
}

/// A name as the alphabetical order compares it: lower case, accents off
/// (`Álvarez` sorts with `Alvarez`).
fn name_key(name: &str) -> String {
    name.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ñ' => 'n',
            'ç' => 'c',
            other => other,
        })
        .collect()
}

/// The domain's checks of a whole player (`crate::domain` has the limits).
impl Player {
    /// What an entry means, written one way: texts without the spaces around
    /// them, a rating or FIDE id of 0 as none (TRF writes both blank).
    pub fn normalize(&mut self) {
        let p = self;
        for s in [
            &mut p.name,
            &mut p.club,
            &mut p.category,
            &mut p.sex,
            &mut p.title,
            &mut p.federation,
        ] {
            if s.trim().len() != s.len() {
                *s = s.trim().to_string();
            }
        }
        p.rating = p.rating.filter(|r| *r > 0);
        p.fide_id = p.fide_id.filter(|x| *x > 0);
    }

    /// A player as a person enters or edits them (the command line, the desk,
    /// a pasted list, the online Swiss): every field within its domain.
    pub fn check(&self) -> Result<(), DomainError> {
        let p = self;
        if p.name.trim().is_empty() {
            return Err(refuse(Field::Name, &p.name, Rule::Empty));
        }
        check_text(Field::Name, &p.name, NAME_CHARS)?;
        check_text(Field::Club, &p.club, TEXT_CHARS)?;
        check_text(Field::Category, &p.category, TEXT_CHARS)?;
        if !matches!(p.sex.as_str(), "" | "m" | "f" | "w" | "M" | "F" | "W") {
            return Err(refuse(Field::Sex, &p.sex, Rule::OneOf("m, f")));
        }
        check_text(Field::Title, &p.title, 3)?;
        if !p.title.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(refuse(
                Field::Title,
                &p.title,
                Rule::OneOf("GM, IM, FM, WGM…"),
            ));
        }
        check_text(Field::Federation, &p.federation, 3)?;
        if !p.federation.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(refuse(
                Field::Federation,
                &p.federation,
                Rule::OneOf("ESP, ARG, MEX…"),
            ));
        }
        if let Some(y) = p.birth_year {
            check_number(
                Field::BirthYear,
                y.into(),
                (*BIRTH_YEARS.start()).into(),
                (*BIRTH_YEARS.end()).into(),
            )?;
        }
        if let Some(r) = p.rating {
            check_number(Field::Rating, r.into(), 0, MAX_RATING.into())?;
        }
        if let Some(id) = p.fide_id {
            check_number(Field::FideId, id, 0, MAX_FIDE_ID)?;
        }
        Ok(())
    }
}

/// The domain's check of the whole state before a TRF is written.
impl Tournament {
    /// Whether the whole state fits the TRF's columns, so that the text
    /// [`crate::trf::write`] makes says what the state holds (nothing cut,
    /// nothing moved into the next column). Wider than entry allows where a
    /// file from another program may hold more (a rating above 3500).
    pub fn check_fits_trf(&self) -> Result<(), DomainError> {
        let t = self;
        check_number(Field::Rounds, t.total_rounds.into(), 0, MAX_ROUNDS.into())?;
        check_number(Field::Rounds, t.rounds.len() as u64, 0, MAX_ROUNDS.into())?;
        check_number(
            Field::Players,
            t.players.len() as u64,
            0,
            MAX_PLAYERS as u64,
        )?;
        for h in [
            &t.name,
            &t.city,
            &t.federation,
            &t.start_date,
            &t.end_date,
            &t.chief_arbiter,
            &t.time_control,
            &t.time_control_code,
        ] {
            fits(Field::Header, h.trim(), HEADER_CHARS)?;
        }
        for p in &t.players {
            fits(Field::Name, &p.name, NAME_CHARS)?;
            fits(Field::Club, &p.club, HEADER_CHARS)?;
            fits(Field::Category, &p.category, HEADER_CHARS)?;
            fits(Field::Sex, &p.sex, 1)?;
            fits(Field::Title, &p.title, 3)?;
            fits(Field::Federation, &p.federation, 3)?;
            if let Some(y) = p.birth_year {
                check_number(Field::BirthYear, y.into(), 1, 9999)?;
            }
            if let Some(r) = p.rating {
                check_number(Field::Rating, r.into(), 0, 9999)?;
            }
            if let Some(id) = p.fide_id {
                check_number(Field::FideId, id, 0, MAX_FIDE_ID)?;
            }
            for &r in p.half_byes.iter().chain(&p.full_byes).chain(&p.absences) {
                check_number(Field::Round, r.into(), 1, MAX_ROUNDS.into())?;
            }
        }
        for f in &t.forbidden {
            check_number(Field::FromRound, f.first_round.into(), 1, MAX_ROUNDS.into())?;
            check_number(
                Field::ToRound,
                f.last_round.into(),
                f.first_round.into(),
                MAX_ROUNDS.into(),
            )?;
        }
        for a in &t.accelerations {
            check_number(Field::FromRound, a.first_round.into(), 1, MAX_ROUNDS.into())?;
            check_number(
                Field::ToRound,
                a.last_round.into(),
                a.first_round.into(),
                MAX_ROUNDS.into(),
            )?;
            // Four columns: at most 99.5 points.
            check_number(Field::Header, a.points.into(), 1, 199)?;
        }
        Ok(())
    }
}

/// The version of FIDE C.07 the tie-breaks follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The regulations approved in 2023 (in force for FIDE events from
    /// 1 September 2023, for every rated event from 1 April 2024, text of
    /// 1 August 2024): the dummy opponent has the participant's own score.
    V2024,
    /// The March 2026 amendment (events starting on or after 2026-03-01):
    /// the dummy opponent is capped (Article 16.4).
    V2026,
}

impl Rules {
    pub const ALL: [Rules; 2] = [Rules::V2024, Rules::V2026];

    /// The first day of the 2026 amendment.
    pub const V2026_FROM: (u32, u32, u32) = (2026, 3, 1);

    /// The stable identifier, used in files (`XZV`) and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Rules::V2024 => "2024",
            Rules::V2026 => "2026",
        }
    }

    /// Reads `2024` (also `2023`, the year the text was approved) or `2026`.
    pub fn from_id(id: &str) -> Option<Rules> {
        match id.trim() {
            "2023" | "2024" => Some(Rules::V2024),
            "2026" => Some(Rules::V2026),
            _ => None,
        }
    }

    /// The version in force for an event that starts on `date` (TRF `042`:
    /// `YYYY/MM/DD`, also `YYYY-MM-DD`, `YYYY.MM.DD`, `DD.MM.YYYY`,
    /// `DD/MM/YYYY` and the two-digit `YY/MM/DD`). Without a date that can
    /// be read, the version in force today ([`Rules::V2026`]).
    pub fn for_date(date: &str) -> Rules {
        match parse_date(date) {
            Some(d) if d < Rules::V2026_FROM => Rules::V2024,
            _ => Rules::V2026,
        }
    }

    /// The version the tournament's tie-breaks follow: the organiser's
    /// choice, or the one its start date asks for.
    pub fn of(t: &Tournament) -> Rules {
        t.tiebreak_rules
            .unwrap_or_else(|| Rules::for_date(&t.start_date))
    }

    /// The line that heads the standings.
    pub fn heading(self, lang: escaque::Lang) -> String {
        lang.pick(
            format!("Desempates según FIDE C.07, versión {}", self.id()),
            format!("Tie-breaks by FIDE C.07, {} version", self.id()),
        )
    }
}

/// (year, month, day) of a date as TRF and people write it.
fn parse_date(text: &str) -> Option<(u32, u32, u32)> {
    let text = text.trim();
    let head = text.split_whitespace().next()?;
    let parts: Vec<&str> = head.split(['/', '-', '.']).collect();
    if parts.len() != 3 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    let num = |s: &str| -> Option<u32> {
        if s.chars().all(|c| c.is_ascii_digit()) && s.len() <= 4 {
            s.parse().ok()
        } else {
            None
        }
    };
    let (y, m, d) = if parts[0].len() == 4 {
        (num(parts[0])?, num(parts[1])?, num(parts[2])?)
    } else if parts[2].len() == 4 {
        (num(parts[2])?, num(parts[1])?, num(parts[0])?)
    } else {
        // `YY/MM/DD`, as TRF writes round dates.
        (2000 + num(parts[0])?, num(parts[1])?, num(parts[2])?)
    };
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// BH: Buchholz.
    Buchholz,
    /// BH-C1: Buchholz cut 1.
    BuchholzCut1,
    /// BH-M1: median Buchholz (cut highest and lowest).
    MedianBuchholz,
    /// SB: Sonneborn-Berger.
    SonnebornBerger,
    /// DE: direct encounter among the tied players.
    DirectEncounter,
    /// WIN: rounds won, played or not (forfeit wins, full-point byes).
    Wins,
    /// WON: games won over the board.
    GamesWon,
    /// BPG: games played with Black.
    BlackGames,
    /// ARO: average rating of opponents.
    AverageRatingOpponents,
    /// PS: progressive score.
    Progressive,
    /// KS: Koya (points against those with at least half the points).
    Koya,
    /// BH-C2: Buchholz cut 2 (the two least significant values).
    BuchholzCut2,
    /// BH-M2: median Buchholz 2 (two highest and two lowest cut).
    MedianBuchholz2,
    /// FB: Fore Buchholz (C.07 8.3: the last round's games counted as
    /// draws, for the player and for every opponent).
    ForeBuchholz,
    /// AOB: average of the opponents' Buchholz (games played).
    AverageOfBuchholz,
    /// SB-C1: Sonneborn-Berger cut 1.
    SonnebornBergerCut1,
    /// SB-C2: Sonneborn-Berger cut 2.
    SonnebornBergerCut2,
    /// BWG: games won with Black over the board.
    BlackWins,
    /// REP: rounds one elected to play (rounds less the voluntarily
    /// unplayed ones, Article 16.2).
    ElectedToPlay,
    /// KS-L-1: Koya with its limit half a point lower (Article 14's
    /// modifier, TRF `KS/L-1`).
    KoyaLower1,
    /// KS-L+1: Koya with its limit half a point higher (`KS/L+1`).
    KoyaRaised1,
    /// ARO-C1: average rating of opponents, the lowest cut.
    AverageRatingCut1,
    /// ARO-M1: average rating of opponents, the lowest and highest cut.
    AverageRatingMedian1,
    /// TPR: tournament performance rating (FIDE B.02's dp table).
    PerformanceRating,
    /// PTP: perfect tournament performance.
    PerfectPerformance,
    /// APRO: average performance rating of the opponents.
    AveragePerformanceOpponents,
    /// APPO: average perfect performance of the opponents.
    AveragePerfectPerformanceOpponents,
    /// STD: points by the standard system (1, ½, 0 a round).
    Standard,
    /// TPN: tournament pairing number (the lower ranks higher).
    PairingNumber,
    /// RTNG: the participant's own rating.
    Rating,
}

impl TieBreak {
    pub const ALL: [TieBreak; 30] = [
        TieBreak::Buchholz,
        TieBreak::BuchholzCut1,
        TieBreak::MedianBuchholz,
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
        TieBreak::Wins,
        TieBreak::GamesWon,
        TieBreak::BlackGames,
        TieBreak::AverageRatingOpponents,
        TieBreak::Progressive,
        TieBreak::Koya,
        TieBreak::BuchholzCut2,
        TieBreak::MedianBuchholz2,
        TieBreak::ForeBuchholz,
        TieBreak::AverageOfBuchholz,
        TieBreak::SonnebornBergerCut1,
        TieBreak::SonnebornBergerCut2,
        TieBreak::BlackWins,
        TieBreak::ElectedToPlay,
        TieBreak::KoyaLower1,
        TieBreak::KoyaRaised1,
        TieBreak::AverageRatingCut1,
        TieBreak::AverageRatingMedian1,
        TieBreak::PerformanceRating,
        TieBreak::PerfectPerformance,
        TieBreak::AveragePerformanceOpponents,
        TieBreak::AveragePerfectPerformanceOpponents,
        TieBreak::Standard,
        TieBreak::PairingNumber,
        TieBreak::Rating,
    ];

    /// The stable identifier: FIDE's acronym, used in files (TRF) and on the
    /// command line.
    pub fn id(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "BH",
            TieBreak::BuchholzCut1 => "BH-C1",
            TieBreak::MedianBuchholz => "BH-M1",
            TieBreak::SonnebornBerger => "SB",
            TieBreak::DirectEncounter => "DE",
            TieBreak::Wins => "WIN",
            TieBreak::GamesWon => "WON",
            TieBreak::BlackGames => "BPG",
            TieBreak::AverageRatingOpponents => "ARO",
            TieBreak::Progressive => "PS",
            TieBreak::Koya => "KS",
            TieBreak::BuchholzCut2 => "BH-C2",
            TieBreak::MedianBuchholz2 => "BH-M2",
            TieBreak::ForeBuchholz => "FB",
            TieBreak::AverageOfBuchholz => "AOB",
            TieBreak::SonnebornBergerCut1 => "SB-C1",
            TieBreak::SonnebornBergerCut2 => "SB-C2",
            TieBreak::BlackWins => "BWG",
            TieBreak::ElectedToPlay => "REP",
            TieBreak::KoyaLower1 => "KS-L-1",
            TieBreak::KoyaRaised1 => "KS-L+1",
            TieBreak::AverageRatingCut1 => "ARO-C1",
            TieBreak::AverageRatingMedian1 => "ARO-M1",
            TieBreak::PerformanceRating => "TPR",
            TieBreak::PerfectPerformance => "PTP",
            TieBreak::AveragePerformanceOpponents => "APRO",
            TieBreak::AveragePerfectPerformanceOpponents => "APPO",
            TieBreak::Standard => "STD",
            TieBreak::PairingNumber => "TPN",
            TieBreak::Rating => "RTNG",
        }
    }

    /// The acronym FIDE C.07 gives the tie-break (Article 7 and the
    /// modifiers of Article 14: `BH-C1`, `BH-M1`), as printouts and the
    /// standings head their columns. [`TieBreak::id`] is the stable
    /// identifier of files and the command line, which TRF-2026 writes
    /// with a slash ([`crate::trf::tiebreak_code`]). The two agree for
    /// every tie-break escaque has, so this is the id; a page asks for
    /// this one, so that a tie-break whose id must differ changes here only.
    pub fn acronym(self) -> &'static str {
        self.id()
    }

    /// The tie-break with identifier `id` ([`TieBreak::id`]), read ignoring
    /// case and surrounding spaces; a modifier may also be written after a
    /// slash, as TRF-2026 and Gacrux write it (`BH/C1`).
    pub fn from_id(id: &str) -> Option<TieBreak> {
        let c = id.trim().to_ascii_uppercase().replace('/', "-");
        TieBreak::ALL.into_iter().find(|tb| tb.id() == c)
    }

    /// Spanish name for printouts.
    pub fn name_es(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "Buchholz",
            TieBreak::BuchholzCut1 => "Buchholz -1",
            TieBreak::MedianBuchholz => "Buchholz mediano",
            TieBreak::SonnebornBerger => "Sonneborn-Berger",
            TieBreak::DirectEncounter => "Encuentro directo",
            TieBreak::Wins => "Victorias",
            TieBreak::GamesWon => "Victorias jugadas",
            TieBreak::BlackGames => "Partidas con negras",
            TieBreak::AverageRatingOpponents => "Elo medio rivales",
            TieBreak::Progressive => "Progresivo",
            TieBreak::Koya => "Koya",
            TieBreak::BuchholzCut2 => "Buchholz -2",
            TieBreak::MedianBuchholz2 => "Buchholz mediano 2",
            TieBreak::ForeBuchholz => "Buchholz previo",
            TieBreak::AverageOfBuchholz => "Media del Buchholz de los rivales",
            TieBreak::SonnebornBergerCut1 => "Sonneborn-Berger -1",
            TieBreak::SonnebornBergerCut2 => "Sonneborn-Berger -2",
            TieBreak::BlackWins => "Victorias con negras",
            TieBreak::ElectedToPlay => "Rondas que eligió jugar",
            TieBreak::KoyaLower1 => "Koya (límite medio punto menos)",
            TieBreak::KoyaRaised1 => "Koya (límite medio punto más)",
            TieBreak::AverageRatingCut1 => "Elo medio rivales -1",
            TieBreak::AverageRatingMedian1 => "Elo medio rivales mediano",
            TieBreak::PerformanceRating => "Resultado Elo (performance)",
            TieBreak::PerfectPerformance => "Performance perfecta",
            TieBreak::AveragePerformanceOpponents => "Media de la performance de los rivales",
            TieBreak::AveragePerfectPerformanceOpponents => {
                "Media de la performance perfecta de los rivales"
            }
            TieBreak::Standard => "Puntos (sistema estándar)",
            TieBreak::PairingNumber => "Número de emparejamiento",
            TieBreak::Rating => "Elo propio",
        }
    }

    /// Whether a lower value ranks higher (TPN: the lower pairing number
    /// first); every other tie-break ranks the higher value first.
    pub fn lower_is_better(self) -> bool {
        self == TieBreak::PairingNumber
    }

    /// The rating-based tie-breaks (ARO, TPR, PTP, APRO, APPO, RTNG and
    /// their cuts): dropped when unrated players take part and the
    /// tournament sets no rating for them.
    pub fn rating_based(self) -> bool {
        matches!(
            self,
            TieBreak::AverageRatingOpponents
                | TieBreak::AverageRatingCut1
                | TieBreak::AverageRatingMedian1
                | TieBreak::PerformanceRating
                | TieBreak::PerfectPerformance
                | TieBreak::AveragePerformanceOpponents
                | TieBreak::AveragePerfectPerformanceOpponents
                | TieBreak::Rating
        )
    }

    /// The Buchholz family (BH and its cuts, FB, AOB): C.07 gives it for
    /// Swiss events only; it is not offered for round robins, where every
    /// participant meets the same opponents.
    pub fn is_buchholz(self) -> bool {
        matches!(
            self,
            TieBreak::Buchholz
                | TieBreak::BuchholzCut1
                | TieBreak::MedianBuchholz
                | TieBreak::BuchholzCut2
                | TieBreak::MedianBuchholz2
                | TieBreak::ForeBuchholz
                | TieBreak::AverageOfBuchholz
        )
    }

    /// The tie-breaks an organiser may choose for `system`: all of them for
    /// a Swiss event; no Buchholz for a round robin.
    pub fn offered(system: System) -> Vec<TieBreak> {
        TieBreak::ALL
            .into_iter()
            .filter(|tb| matches!(system, System::Swiss) || !tb.is_buchholz())
            .collect()
    }

    /// Checks an organiser's list for `system` ([`TieBreak::offered`]).
    pub fn check_for(system: System, list: &[TieBreak]) -> Result<(), crate::TorneoError> {
        match list
            .iter()
            .find(|tb| !TieBreak::offered(system).contains(tb))
        {
            Some(tb) => Err(crate::TorneoError::TieBreakNotForRoundRobin(
                tb.id().to_string(),
            )),
            None => Ok(()),
        }
    }

    pub fn default_order(system: System) -> Vec<TieBreak> {
        match system {
            System::Swiss => vec![
                TieBreak::BuchholzCut1,
                TieBreak::Buchholz,
                TieBreak::SonnebornBerger,
                TieBreak::DirectEncounter,
                TieBreak::Wins,
            ],
            System::RoundRobin { .. } => vec![
                TieBreak::DirectEncounter,
                TieBreak::SonnebornBerger,
                TieBreak::Wins,
                TieBreak::Koya,
            ],
        }
    }

    /// Reads a comma- or space-separated list of codes.
    pub fn parse_list(text: &str) -> Result<Vec<TieBreak>, crate::TorneoError> {
        text.split([',', ' '])
            .filter(|w| !w.is_empty())
            .map(|w| TieBreak::from_id(w).ok_or(crate::TorneoError::UnknownTieBreak(w.into())))
            .collect()
    }
}
