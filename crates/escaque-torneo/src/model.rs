//! The tournament: players, rounds, games, byes and results.
//!
//! Scores, standings and everything else that depends on results are computed
//! from the rounds on demand, so correcting a result recomputes them.

use std::collections::BTreeSet;

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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub white: PlayerId,
    pub black: PlayerId,
    pub outcome: Outcome,
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
    pub later_rounds_paired: Vec<u32>,
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
    pub tiebreaks: Vec<crate::standings::TieBreak>,
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
    /// ([`crate::standings::Rules::of`]).
    pub tiebreak_rules: Option<crate::standings::Rules>,
    /// The rating unrated players count with in rating-based tie-breaks
    /// (ARO), where the tournament's regulations set one (C.07 allows it);
    /// `None`: ARO is dropped when unrated players take part.
    pub unrated_rating: Option<u16>,
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
            tiebreaks: crate::standings::TieBreak::default_order(system),
            team_size: 4,
            round_dates: Vec::new(),
            time_control_code: String::new(),
            forbidden: Vec::new(),
            accelerations: Vec::new(),
            tiebreak_rules: None,
            unrated_rating: None,
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
        crate::domain::normalize(&mut p);
        crate::domain::check_player(&p)?;
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
    /// are checked as an entry is ([`crate::domain::check_player`]); the
    /// rounds the player is in stay as they are.
    pub fn replace_player(&mut self, id: PlayerId, mut p: Player) -> Result<(), TorneoError> {
        self.player(id)?;
        p.name = p.name.trim().to_string();
        if p.name.is_empty() || p.name.chars().any(|c| c.is_control()) {
            return Err(TorneoError::BadName(p.name));
        }
        crate::domain::normalize(&mut p);
        crate::domain::check_player(&p)?;
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
                    result: g.outcome.for_side(Colour::White),
                };
            }
            if g.black == id {
                return Entry::Game {
                    opponent: g.white,
                    colour: Colour::Black,
                    result: g.outcome.for_side(Colour::Black),
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

    fn correction(&self, round: u32, previous: Outcome) -> Correction {
        Correction {
            previous,
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
        Ok(self.correction(round, previous))
    }

    /// Sets (or corrects) the result on board `board` (1-based) of `round`.
    pub fn set_result_board(
        &mut self,
        round: u32,
        board: u32,
        outcome: Outcome,
    ) -> Result<Correction, TorneoError> {
        let r = self.round_mut(round)?;
        let g = board
            .checked_sub(1)
            .and_then(|i| r.games.get_mut(i as usize))
            .ok_or(TorneoError::NoSuchBoard { round, board })?;
        let previous = std::mem::replace(&mut g.outcome, outcome);
        Ok(self.correction(round, previous))
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
