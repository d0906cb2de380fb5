//! Team tournaments on the server (issue 59, teams): the service over
//! `escaque_torneo::teams`, as [`crate::tournament`] is over the
//! individual model.
//!
//! **The tournament is its TRF.** A team tournament is stored as its
//! TRF-2026 team text (`escaque_torneo::teams::trf`) and the server's
//! [`Settings`] (the accounts linked to roster players, what the phones
//! said about each board, the log); every change loads the row, applies
//! the model's own method (`add_team`, `set_lineup`,
//! `schedule::pair_next_round`, `set_result_by_colour`, `forfeit_match`)
//! and writes both back in one statement under the row's `version`
//! (optimistic: a change that lost the race runs again on the new state).
//! No pairing, scoring or tie-break logic lives here.
//!
//! **Results by the players** (the team-match QR code): each match of a
//! round has a secret code (a `result_codes` row of kind `match`); the
//! phone that opens it speaks for one team (`home` or `away`) and enters a
//! board's result; the other team's phone confirms it. Only a result both
//! teams gave, or one an organiser entered, reaches the tournament; two
//! claims that differ are a conflict the organisers see first. Every step
//! is logged, overrides with what the board held.

use std::sync::Arc;

use escaque::{Lang, Localized};
use escaque_torneo::print::points;
use escaque_torneo::teams::model::{BoardResult, Member, RequestedBye, Side, Team, TeamSystem};
use escaque_torneo::teams::{schedule, standings, trf, TeamError, TeamTournament};
use escaque_torneo::Outcome;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, Kind};
use crate::identity::Identity;
use crate::proto::equipos as wire;
use crate::store::equipos::TeamTournamentRow;
use crate::store::now_ms;
use crate::Hub;

pub mod online;

/// How many times a change that lost the version race is run again.
const RETRIES: usize = 16;
/// A team match's code kind in `result_codes`.
pub const KIND_MATCH: &str = "match";
/// At most this many boards per match.
pub const MAX_BOARDS: u32 = 20;
/// At most this many players in a roster.
pub const MAX_ROSTER: usize = 30;
/// At most this many teams.
pub const MAX_TEAMS: usize = 200;
/// At most this many rounds of a Swiss.
pub const MAX_ROUNDS: u32 = 30;
/// Longest name (a tournament, a team, a player, a school), in characters.
pub const MAX_NAME: usize = 80;

/// An account linked to a roster player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountLink {
    /// The team's number.
    pub team: u32,
    /// The player's name in the roster (the roster is sorted after it is
    /// entered: the name finds the player).
    pub name: String,
    /// The account's id.
    pub user: String,
    /// The account's name.
    pub account: String,
}

/// What the phones said about one board, and who made its result final.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// Round.
    pub round: u32,
    /// Table.
    pub table: u32,
    /// Board.
    pub board: u32,
    /// The first-named team's phone, White–Black (`1-0`…).
    pub home: Option<String>,
    /// The second-named team's phone.
    pub away: Option<String>,
    /// `players` (both agreed) or `arbiter`, once final.
    pub final_by: Option<String>,
}

/// One step on a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// When (wall, ms).
    pub at_ms: i64,
    /// Round.
    pub round: u32,
    /// Table.
    pub table: u32,
    /// Board.
    pub board: u32,
    /// `home`, `away` or `arbiter`.
    pub who: String,
    /// `entered`, `confirmed`, `conflict`, `arbiter`, `override`,
    /// `forfeit`.
    pub action: String,
    /// The result given.
    pub result: Option<String>,
    /// What the board held before, for an override.
    pub previous: Option<String>,
}

/// The server's side of a team tournament (JSON in
/// `team_tournaments.settings`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The system as it was asked for (`suizo`, `liguilla`…).
    pub system: String,
    /// Accounts linked to roster players.
    pub accounts: Vec<AccountLink>,
    /// What the phones said, per board.
    pub claims: Vec<Claim>,
    /// Every step, oldest first.
    pub log: Vec<Step>,
}

/// A team tournament read from storage.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The stored row.
    pub row: TeamTournamentRow,
    /// The model.
    pub t: TeamTournament,
    /// The server's settings.
    pub settings: Settings,
}

impl Loaded {
    /// Whether identity `key` organises it.
    pub fn can_edit(&self, key: &str) -> bool {
        self.row.owner == key
    }

    fn claim(&self, round: u32, table: u32, board: u32) -> Option<&Claim> {
        self.settings
            .claims
            .iter()
            .find(|c| c.round == round && c.table == table && c.board == board)
    }

    fn claim_mut(&mut self, round: u32, table: u32, board: u32) -> &mut Claim {
        let i = match self
            .settings
            .claims
            .iter()
            .position(|c| c.round == round && c.table == table && c.board == board)
        {
            Some(i) => i,
            None => {
                self.settings.claims.push(Claim {
                    round,
                    table,
                    board,
                    ..Claim::default()
                });
                self.settings.claims.len() - 1
            }
        };
        &mut self.settings.claims[i]
    }
}

/// `registration` before round 1, `finished` when every round has every
/// result, `running` in between.
pub fn status_of(t: &TeamTournament) -> &'static str {
    if t.rounds.is_empty() {
        "registration"
    } else if matches!(t.next_round_number(), Err(TeamError::TournamentOver(_))) {
        "finished"
    } else {
        "running"
    }
}

// ---------------------------------------------------------------- errors

/// No team tournament with that id.
pub fn not_found() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "no_such_tournament",
        "no existe ese torneo por equipos",
        "there is no such team tournament",
    )
}

/// The organiser's right: `me` organises `l`, else `403 not_organiser`.
/// The one check of this module and [`online`] (as
/// [`crate::tournament::organised_by`] is the individual desk's).
pub(crate) fn organised_by(l: &Loaded, me: &Identity) -> Result<(), ApiError> {
    if l.can_edit(&me.key) {
        Ok(())
    } else {
        Err(not_organiser())
    }
}

fn not_organiser() -> ApiError {
    ApiError::new(
        Kind::Forbidden,
        "not_organiser",
        "solo quien organiza el torneo puede cambiarlo",
        "only the tournament's organiser can change it",
    )
}

pub(crate) fn conflict() -> ApiError {
    ApiError::new(
        Kind::Conflict,
        "conflict",
        "el torneo cambió a la vez; inténtalo de nuevo",
        "the tournament changed at the same time; try again",
    )
}

/// The model refused: its own Spanish and English text, with a code.
pub fn refused(e: TeamError) -> ApiError {
    use TeamError::*;
    let (kind, code) = match &e {
        NoName | EmptyRoster(_) => (Kind::Invalid, "bad_team"),
        DuplicateTeam(_) => (Kind::Conflict, "duplicate_team"),
        PlayerTwice { .. } => (Kind::Invalid, "player_twice"),
        PlayerInTwoTeams { .. } => (Kind::Conflict, "player_in_two_teams"),
        NoSuchTeam(_) => (Kind::NotFound, "no_such_team"),
        NoSuchMember { .. } => (Kind::Invalid, "no_such_member"),
        NoSuchRound(_) => (Kind::NotFound, "no_such_round"),
        NoSuchMatch { .. } => (Kind::NotFound, "no_such_match"),
        NoSuchBoard { .. } => (Kind::NotFound, "no_such_board"),
        NotPlaying { .. } => (Kind::Conflict, "not_playing"),
        LineupSize { .. } => (Kind::Invalid, "lineup_size"),
        LineupOrder { .. } => (Kind::Invalid, "lineup_order"),
        LineupLocked { .. } => (Kind::Conflict, "lineup_locked"),
        LineupFixedBySystem => (Kind::Conflict, "lineup_fixed"),
        EmptyBoard { .. } => (Kind::Conflict, "empty_board"),
        RoundNotComplete { .. } => (Kind::Conflict, "round_not_complete"),
        TournamentOver(_) => (Kind::Conflict, "tournament_over"),
        TeamTwiceInRound { .. } => (Kind::Conflict, "team_twice"),
        Started => (Kind::Conflict, "started"),
        NoPairing { .. } => (Kind::Conflict, "no_pairing"),
        Scheveningen { .. } => (Kind::Conflict, "scheveningen_teams"),
        BadScoring { .. } => (Kind::Invalid, "bad_scoring"),
        ForbiddenNeedsSwiss => (Kind::Conflict, "forbidden_needs_swiss"),
        ForbiddenGroup { .. } => (Kind::Invalid, "forbidden_group"),
        ByeNeedsSwiss => (Kind::Conflict, "bye_needs_swiss"),
        ByeRound { .. } => (Kind::Conflict, "bye_round"),
        SchoolFull { .. } => (Kind::Conflict, "school_full"),
        CategoryShort { .. } => (Kind::Conflict, "category_short"),
    };
    ApiError(kind, code, e.message(Lang::Es), e.message(Lang::En))
}

fn bad(code: &'static str, es: String, en: String) -> ApiError {
    ApiError::bad(code, es, en)
}

fn name_field(field: &str, text: &str) -> Result<String, ApiError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(bad(
            "bad_name",
            format!("{field}: falta el nombre"),
            format!("{field}: the name is missing"),
        ));
    }
    if t.chars().count() > MAX_NAME || t.chars().any(char::is_control) {
        return Err(bad(
            "bad_name",
            format!("{field}: nombre de más de {MAX_NAME} caracteres o con caracteres de control"),
            format!("{field}: a name over {MAX_NAME} characters or with control characters"),
        ));
    }
    Ok(t.to_string())
}

fn optional_field(field: &str, text: Option<&str>) -> Result<String, ApiError> {
    match text.map(str::trim) {
        None | Some("") => Ok(String::new()),
        Some(t) => name_field(field, t),
    }
}

/// `2/1/0` read into the model's scoring.
pub fn parse_scoring(text: &str) -> Result<escaque_torneo::teams::Scoring, ApiError> {
    let parts: Vec<Option<u32>> = text.split('/').map(|p| p.trim().parse().ok()).collect();
    match parts[..] {
        [Some(w), Some(d), Some(l)] if w <= 100 => {
            escaque_torneo::teams::Scoring::new(w, d, l).map_err(refused)
        }
        _ => Err(bad(
            "bad_scoring",
            format!("puntuación «{text}»: se esperaba victoria/empate/derrota, p. ej. 2/1/0"),
            format!("scoring '{text}': expected win/draw/loss, e.g. 2/1/0"),
        )),
    }
}

fn system_of(text: &str) -> Result<TeamSystem, ApiError> {
    Ok(match text {
        "suizo" => TeamSystem::Swiss,
        "liguilla" => TeamSystem::RoundRobin { double: false },
        "liguilla_doble" => TeamSystem::RoundRobin { double: true },
        "scheveningen" => TeamSystem::Scheveningen { double: false },
        "scheveningen_doble" => TeamSystem::Scheveningen { double: true },
        _ => {
            return Err(bad(
                "bad_system",
                format!(
                    "sistema «{text}»: se esperaba suizo, liguilla, liguilla_doble, \
                     scheveningen o scheveningen_doble"
                ),
                format!(
                    "system '{text}': expected suizo, liguilla, liguilla_doble, \
                     scheveningen or scheveningen_doble"
                ),
            ))
        }
    })
}

/// A result as typed (White–Black), refused as `400 bad_result`.
pub fn parse_result(text: &str) -> Result<Outcome, ApiError> {
    Outcome::parse(text)
        .map_err(|e| ApiError::bad("bad_result", e.message(Lang::Es), e.message(Lang::En)))
}

fn side_of(text: &str) -> Result<Side, ApiError> {
    match text {
        "home" => Ok(Side::Home),
        "away" => Ok(Side::Away),
        _ => Err(bad(
            "bad_side",
            format!("equipo «{text}»: se esperaba home (el primero) o away (el segundo)"),
            format!("side '{text}': expected home (the first team) or away (the second)"),
        )),
    }
}

// ---------------------------------------------------------------- service

/// Reads a team tournament.
pub async fn load(hub: &Arc<Hub>, id: &str) -> Result<Loaded, ApiError> {
    let row = hub.store.team_tournament(id).await?.ok_or_else(not_found)?;
    let t = trf::parse(&row.trf).map_err(|e| {
        eprintln!(
            "escaque-server: equipos {id}: TRF guardado ilegible / unreadable stored TRF: {e}"
        );
        ApiError::internal()
    })?;
    let settings: Settings = serde_json::from_str(&row.settings).map_err(|e| {
        eprintln!("escaque-server: equipos {id}: ajustes ilegibles / unreadable settings: {e}");
        ApiError::internal()
    })?;
    Ok(Loaded { row, t, settings })
}

/// The TRF text of `t`, refused unless it reads back as the same
/// tournament (a change that would leave it unreadable is not stored).
fn checked_trf(t: &TeamTournament) -> Result<String, ApiError> {
    let text = trf::write(t);
    match trf::parse(&text) {
        Ok(back) if back.teams == t.teams && back.rounds == t.rounds => Ok(text),
        _ => Err(bad(
            "not_stored",
            "el cambio no se puede guardar en el TRF de equipos; no se hizo nada".into(),
            "the change cannot be kept in the team TRF; nothing was done".into(),
        )),
    }
}

/// Writes the model and the settings into `l.row` with the next version;
/// returns the version it was read at (the guard of the write).
pub(crate) fn stamp(l: &mut Loaded) -> Result<i64, ApiError> {
    let old = l.row.version;
    l.row.name = l.t.name.clone();
    l.row.status = status_of(&l.t).to_string();
    l.row.trf = checked_trf(&l.t)?;
    l.row.settings = serde_json::to_string(&l.settings).map_err(|_| ApiError::internal())?;
    l.row.version = old + 1;
    l.row.updated_ms = now_ms();
    Ok(old)
}

async fn save(hub: &Arc<Hub>, l: &mut Loaded) -> Result<bool, ApiError> {
    let old = stamp(l)?;
    Ok(hub.store.save_team_tournament(&l.row, old).await?)
}

/// Applies `f` if `who` (`None`: a phone with a code, checked by the
/// caller) may change it, stores it under the version check (running `f`
/// again on a newer state when another change won) and returns what `f`
/// returned with the tournament as stored.
pub async fn change<R>(
    hub: &Arc<Hub>,
    id: &str,
    who: Option<&Identity>,
    mut f: impl FnMut(&mut Loaded) -> Result<R, ApiError>,
) -> Result<(R, Loaded), ApiError> {
    for _ in 0..RETRIES {
        let mut l = load(hub, id).await?;
        if let Some(me) = who {
            organised_by(&l, me)?;
        }
        let r = f(&mut l)?;
        if save(hub, &mut l).await? {
            return Ok((r, l));
        }
    }
    Err(conflict())
}

/// Creates a team tournament organised by `me`.
pub async fn create(
    hub: &Arc<Hub>,
    me: &Identity,
    req: &wire::NewTeamTournament,
) -> Result<wire::Created, ApiError> {
    let name = name_field("nombre del torneo", &req.name)?;
    let system = system_of(&req.system)?;
    if req.boards == 0 || req.boards > MAX_BOARDS {
        return Err(bad(
            "bad_boards",
            format!("tableros: entre 1 y {MAX_BOARDS}"),
            format!("boards: between 1 and {MAX_BOARDS}"),
        ));
    }
    let rounds = match (system, req.rounds) {
        (TeamSystem::Swiss, Some(r)) if (1..=MAX_ROUNDS).contains(&r) => r,
        (TeamSystem::Swiss, _) => {
            return Err(bad(
                "bad_rounds",
                format!("rondas: un suizo necesita entre 1 y {MAX_ROUNDS}"),
                format!("rounds: a Swiss needs between 1 and {MAX_ROUNDS}"),
            ))
        }
        (_, None) => 0,
        (_, Some(_)) => {
            return Err(bad(
                "bad_rounds",
                "rondas: una liguilla o un Scheveningen tiene las rondas que da su sistema".into(),
                "rounds: a round robin or a Scheveningen has the rounds its system gives".into(),
            ))
        }
    };
    if req.baku && system != TeamSystem::Swiss {
        return Err(bad(
            "bad_baku",
            "aceleración Bakú: solo para un suizo (una liguilla o un Scheveningen empareja por calendario)".into(),
            "Baku acceleration: a Swiss only (a round robin or a Scheveningen pairs by its schedule)".into(),
        ));
    }
    let mut t = TeamTournament::new(&name, system, req.boards, rounds);
    t.baku = req.baku;
    if let Some(s) = &req.scoring {
        t.scoring = parse_scoring(s)?;
    }
    t.city = optional_field("ciudad", req.city.as_deref())?;
    if let Some(rules) = &req.school {
        t.school = Some(school_rules(rules)?);
    }
    let settings = Settings {
        system: req.system.clone(),
        ..Settings::default()
    };
    let now = now_ms();
    let row = TeamTournamentRow {
        id: crate::new_id(),
        name,
        owner: me.key.clone(),
        status: status_of(&t).to_string(),
        trf: checked_trf(&t)?,
        settings: serde_json::to_string(&settings).map_err(|_| ApiError::internal())?,
        version: 1,
        created_ms: now,
        updated_ms: now,
    };
    hub.store.insert_team_tournament(&row).await?;
    Ok(wire::Created { id: row.id })
}

/// The school rules asked for, refused with the field that is wrong.
fn school_rules(
    req: &wire::SchoolRulesBody,
) -> Result<escaque_torneo::teams::school::SchoolRules, ApiError> {
    let limit = |field: &str, v: Option<u32>| match v {
        Some(n) if !(1..=99).contains(&n) => Err(bad(
            "bad_school_rules",
            format!("normas escolares, {field}: entre 1 y 99"),
            format!("school rules, {field}: between 1 and 99"),
        )),
        _ => Ok(v),
    };
    let max_teams = limit("equipos por centro", req.max_teams)?;
    let counted = limit("equipos que suman por centro", req.counted)?.unwrap_or(1);
    if req.categories.len() > 10 {
        return Err(bad(
            "bad_school_rules",
            "normas escolares: como mucho 10 categorías".into(),
            "school rules: at most 10 categories".into(),
        ));
    }
    let mut categories = Vec::new();
    for (i, q) in req.categories.iter().enumerate() {
        let field = format!("normas escolares, categoría {}", i + 1);
        let name = q.category.trim().to_string();
        // The TRF's XZR line keeps `CATEGORY:K,…` (a space would come
        // back as `_`): none of them may be in a name.
        if name.is_empty()
            || name.contains([':', ',', ' '])
            || name.chars().any(char::is_control)
            || name.chars().count() > 20
        {
            return Err(bad(
                "bad_school_rules",
                format!("{field}: «{name}» (hasta 20 caracteres, sin espacios, «:» ni «,»)"),
                format!("school rules, category {}: '{name}' (up to 20 characters, no spaces, ':' or ',')", i + 1),
            ));
        }
        if !(1..=MAX_ROSTER as u32).contains(&q.players) {
            return Err(bad(
                "bad_school_rules",
                format!("{field}: entre 1 y {MAX_ROSTER} jugadores"),
                format!(
                    "school rules, category {}: between 1 and {MAX_ROSTER} players",
                    i + 1
                ),
            ));
        }
        categories.push((name, q.players));
    }
    Ok(escaque_torneo::teams::school::SchoolRules {
        max_teams,
        categories,
        counted,
    })
}

/// A team enters with its roster; players named by an account take the
/// account's name (it must exist, and play in no other team).
pub async fn add_team(
    hub: &Arc<Hub>,
    id: &str,
    me: &Identity,
    req: &wire::NewTeam,
) -> Result<wire::TeamEntered, ApiError> {
    let name = name_field("nombre del equipo", &req.name)?;
    let school = optional_field("centro", req.school.as_deref())?;
    if req.members.is_empty() || req.members.len() > MAX_ROSTER {
        return Err(bad(
            "bad_roster",
            format!("lista: entre 1 y {MAX_ROSTER} jugadores"),
            format!("roster: between 1 and {MAX_ROSTER} players"),
        ));
    }
    // The accounts are looked up before the change (not inside it: the
    // change may run again).
    let mut members = Vec::new();
    let mut links = Vec::new();
    for (i, m) in req.members.iter().enumerate() {
        let place = i + 1;
        let account = match m.account.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(a) => Some(hub.store.user_by_name(a).await?.ok_or_else(|| {
                ApiError::new(
                    Kind::NotFound,
                    "no_such_account",
                    format!("jugador {place}: no existe la cuenta «{a}»"),
                    format!("player {place}: there is no account '{a}'"),
                )
            })?),
        };
        let name = match (&m.name, &account) {
            (Some(n), _) if !n.trim().is_empty() => name_field(&format!("jugador {place}"), n)?,
            (_, Some(u)) => u.name.clone(),
            _ => name_field(&format!("jugador {place}"), "")?,
        };
        let mut member = Member::new(&name);
        member.rating = m.rating;
        member.category = optional_field(
            &format!("jugador {place}, categoría"),
            m.category.as_deref(),
        )?;
        if let Some(u) = account {
            links.push(AccountLink {
                team: 0,
                name: name.clone(),
                user: u.id,
                account: u.name,
            });
        }
        members.push(member);
    }
    let captain = match req.captain {
        None => None,
        Some(c) if c >= 1 && (c as usize) <= members.len() => Some(c as usize - 1),
        Some(c) => {
            return Err(bad(
                "no_such_member",
                format!("capitán: no hay jugador {c} en la lista"),
                format!("captain: there is no player {c} in the roster"),
            ))
        }
    };
    let (team, _) = change(hub, id, Some(me), |l| {
        if l.t.teams.len() >= MAX_TEAMS {
            return Err(bad(
                "too_many_teams",
                format!("como mucho {MAX_TEAMS} equipos"),
                format!("at most {MAX_TEAMS} teams"),
            ));
        }
        for link in &links {
            if let Some(other) = l.settings.accounts.iter().find(|a| a.user == link.user) {
                let team =
                    l.t.team(other.team)
                        .map(|t| t.name.clone())
                        .unwrap_or_default();
                return Err(ApiError::new(
                    Kind::Conflict,
                    "player_in_two_teams",
                    format!("la cuenta «{}» ya juega en el equipo {team}", link.account),
                    format!("account '{}' already plays in team {team}", link.account),
                ));
            }
        }
        let mut team = Team::new(&name, members.clone());
        team.school = school.clone();
        team.fixed_order = req.fixed_order;
        team.captain = captain;
        let n = l.t.add_team(team).map_err(refused)?;
        for link in &links {
            let mut link = link.clone();
            link.team = n;
            l.settings.accounts.push(link);
        }
        Ok(n)
    })
    .await?;
    Ok(wire::TeamEntered { team })
}

/// A team's line-up for a round (places in the roster from 1).
pub async fn set_lineup(
    hub: &Arc<Hub>,
    id: &str,
    me: &Identity,
    req: &wire::Lineup,
) -> Result<(), ApiError> {
    if req.players.contains(&0) {
        return Err(bad(
            "no_such_member",
            "alineación: los jugadores se cuentan desde 1".into(),
            "line-up: players are counted from 1".into(),
        ));
    }
    let players: Vec<usize> = req.players.iter().map(|&p| p as usize - 1).collect();
    change(hub, id, Some(me), |l| {
        l.t.set_lineup(req.round, req.team, &players)
            .map_err(refused)
    })
    .await?;
    Ok(())
}

/// Teams that must not meet from now on: a group, or every school's teams.
pub async fn forbid(
    hub: &Arc<Hub>,
    id: &str,
    me: &Identity,
    req: &wire::ForbiddenPairing,
) -> Result<(), ApiError> {
    if req.teams.len() > MAX_TEAMS {
        return Err(bad(
            "forbidden_group",
            format!("emparejamiento prohibido: como mucho {MAX_TEAMS} equipos"),
            format!("forbidden pairing: at most {MAX_TEAMS} teams"),
        ));
    }
    change(hub, id, Some(me), |l| {
        if req.same_school {
            l.t.forbid_same_school().map_err(refused)?;
        }
        if !req.same_school || !req.teams.is_empty() {
            l.t.forbid(&req.teams).map_err(refused)?;
        }
        Ok(())
    })
    .await?;
    Ok(())
}

/// The wire name of a requested bye's kind.
fn bye_kind_name(kind: RequestedBye) -> &'static str {
    match kind {
        RequestedBye::Full => "completo",
        RequestedBye::Half => "medio",
        RequestedBye::Zero => "cero",
    }
}

/// A team asks not to be paired in a round not yet paired (a Swiss only:
/// the model refuses a round robin or a Scheveningen, an unknown team, a
/// round already paired or past the last).
pub async fn request_bye(
    hub: &Arc<Hub>,
    id: &str,
    me: &Identity,
    req: &wire::TeamByeRequest,
) -> Result<(), ApiError> {
    let kind = match req.kind.as_str() {
        "completo" => RequestedBye::Full,
        "medio" => RequestedBye::Half,
        "cero" => RequestedBye::Zero,
        other => {
            return Err(bad(
                "bad_bye_kind",
                format!("descanso «{other}»: se esperaba completo, medio o cero"),
                format!("bye '{other}': expected completo, medio or cero"),
            ))
        }
    };
    change(hub, id, Some(me), |l| {
        l.t.request_bye(req.round, req.team, kind).map_err(refused)
    })
    .await?;
    Ok(())
}

/// Pairs the next round by the tournament's system (an online one with
/// its games: [`online::pair`]).
pub async fn pair(hub: &Arc<Hub>, id: &str, me: &Identity) -> Result<wire::Paired, ApiError> {
    if online::is_online(hub, id).await? {
        return online::pair(hub, id, me).await;
    }
    let (round, _) = change(hub, id, Some(me), pair_round).await?;
    Ok(wire::Paired { round })
}

/// Pairs the next round of `l` (refused under two teams).
pub(crate) fn pair_round(l: &mut Loaded) -> Result<u32, ApiError> {
    if l.t.teams.len() < 2 {
        return Err(ApiError::new(
            Kind::Conflict,
            "too_few_teams",
            "hacen falta al menos dos equipos para emparejar",
            "at least two teams are needed to pair",
        ));
    }
    schedule::pair_next_round(&mut l.t).map_err(refused)
}

fn match_of(l: &Loaded, round: u32, table: u32) -> Result<&escaque_torneo::teams::Match, ApiError> {
    l.t.rounds
        .get(
            round
                .checked_sub(1)
                .ok_or_else(|| refused(TeamError::NoSuchRound(round)))? as usize,
        )
        .ok_or_else(|| refused(TeamError::NoSuchRound(round)))?
        .matches
        .get(table.checked_sub(1).unwrap_or(u32::MAX) as usize)
        .ok_or_else(|| refused(TeamError::NoSuchMatch { round, table }))
}

fn board_outcome(
    l: &Loaded,
    round: u32,
    table: u32,
    board: u32,
) -> Result<(Outcome, bool), ApiError> {
    let m = match_of(l, round, table)?;
    let b = board
        .checked_sub(1)
        .and_then(|i| m.boards.get(i as usize))
        .ok_or_else(|| {
            refused(TeamError::NoSuchBoard {
                round,
                table,
                board,
            })
        })?;
    Ok((b.result.outcome(b.home_white), b.forced().is_some()))
}

fn text_of(o: Outcome) -> Option<String> {
    (o != Outcome::Pending).then(|| o.text().to_string())
}

/// Logs one step at `(round, table, board)` (board 0: the whole match).
fn log(
    l: &mut Loaded,
    (round, table, board): (u32, u32, u32),
    who: &str,
    action: &str,
    result: Option<String>,
    previous: Option<String>,
) {
    l.settings.log.push(Step {
        at_ms: now_ms(),
        round,
        table,
        board,
        who: who.to_string(),
        action: action.to_string(),
        result,
        previous,
    });
}

/// What a board held, in words, for the log of an override.
fn held(l: &Loaded, round: u32, table: u32, board: u32, recorded: Outcome) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(r) = text_of(recorded) {
        parts.push(format!("clasificación {r}"));
    }
    if let Some(c) = l.claim(round, table, board) {
        if let Some(h) = &c.home {
            parts.push(format!("primer equipo {h}"));
        }
        if let Some(a) = &c.away {
            parts.push(format!("segundo equipo {a}"));
        }
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// An organiser enters, corrects or clears (`*`) a board's result.
pub async fn arbiter_result(
    hub: &Arc<Hub>,
    id: &str,
    me: &Identity,
    req: &wire::BoardResultBody,
) -> Result<(), ApiError> {
    let o = parse_result(&req.result)?;
    let (round, table, board) = (req.round, req.table, req.board);
    change(hub, id, Some(me), |l| {
        let (recorded, _) = board_outcome(l, round, table, board)?;
        let before = held(l, round, table, board, recorded);
        let c = l.claim(round, table, board).cloned().unwrap_or_default();
        let differs = (recorded != Outcome::Pending && recorded != o)
            || [&c.home, &c.away]
                .into_iter()
                .flatten()
                .any(|x| Some(x.as_str()) != text_of(o).as_deref());
        l.t.set_result_by_colour(round, table, board, o)
            .map_err(refused)?;
        let claim = l.claim_mut(round, table, board);
        claim.final_by = (o != Outcome::Pending).then(|| "arbiter".to_string());
        if o == Outcome::Pending {
            claim.home = None;
            claim.away = None;
        }
        let action = if differs { "override" } else { "arbiter" };
        log(
            l,
            (round, table, board),
            "arbiter",
            action,
            text_of(o),
            if differs { before } else { None },
        );
        Ok(())
    })
    .await?;
    // Online: a game still played on the board ends with it.
    online::board_set(hub, id, round, table, board).await;
    Ok(())
}

/// A whole match forfeited by one team or both.
pub async fn forfeit(
    hub: &Arc<Hub>,
    id: &str,
    me: &Identity,
    req: &wire::MatchForfeit,
) -> Result<(), ApiError> {
    let by = match req.by.as_str() {
        "home" => Some(Side::Home),
        "away" => Some(Side::Away),
        "both" => None,
        other => {
            return Err(bad(
                "bad_side",
                format!("incomparecencia de «{other}»: se esperaba home, away o both"),
                format!("forfeit by '{other}': expected home, away or both"),
            ))
        }
    };
    change(hub, id, Some(me), |l| {
        match_of(l, req.round, req.table)?;
        l.t.forfeit_match(req.round, req.table, by)
            .map_err(refused)?;
        let boards = match_of(l, req.round, req.table)?.boards.len() as u32;
        for b in 1..=boards {
            l.claim_mut(req.round, req.table, b).final_by = Some("arbiter".into());
        }
        log(
            l,
            (req.round, req.table, 0),
            "arbiter",
            "forfeit",
            Some(req.by.clone()),
            None,
        );
        Ok(())
    })
    .await?;
    online::board_set(hub, id, req.round, req.table, 0).await;
    Ok(())
}

// ---------------------------------------------------------------- view

fn member_name(l: &Loaded, team: u32, p: Option<usize>) -> Option<String> {
    let t = l.t.team(team).ok()?;
    p.and_then(|i| t.members.get(i)).map(|m| m.name.clone())
}

fn board_state(
    l: &Loaded,
    round: u32,
    table: u32,
    board: u32,
    recorded: Outcome,
    forced: bool,
) -> &'static str {
    let c = l.claim(round, table, board);
    if forced {
        return "forfeit";
    }
    if recorded != Outcome::Pending {
        return match c.and_then(|c| c.final_by.as_deref()) {
            Some("players") => "confirmed",
            Some(online::FINAL_BY_GAME) => "played",
            _ => "arbiter",
        };
    }
    match c {
        Some(Claim {
            home: Some(h),
            away: Some(a),
            ..
        }) if h != a => "conflict",
        Some(Claim { home: Some(_), .. }) | Some(Claim { away: Some(_), .. }) => "entered",
        _ => "missing",
    }
}

/// A match as the desk and the phones see it.
pub fn match_view(l: &Loaded, round: u32, table: u32) -> Result<wire::MatchView, ApiError> {
    let m = match_of(l, round, table)?;
    let name = |id: u32| l.t.team(id).map(|t| t.name.clone()).unwrap_or_default();
    let (h, a) = m.game_points();
    let mp = m.match_points(&l.t.scoring);
    let boards = m
        .boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let n = i as u32 + 1;
            let o = b.result.outcome(b.home_white);
            let c = l.claim(round, table, n);
            wire::BoardView {
                board: n,
                home_player: member_name(l, m.home, b.home_player),
                away_player: member_name(l, m.away, b.away_player),
                white: if b.home_white { "home" } else { "away" }.to_string(),
                result: text_of(o),
                state: board_state(l, round, table, n, o, b.forced().is_some()).to_string(),
                home_claim: c.and_then(|c| c.home.clone()),
                away_claim: c.and_then(|c| c.away.clone()),
            }
        })
        .collect();
    Ok(wire::MatchView {
        table,
        home: m.home,
        away: m.away,
        home_name: name(m.home),
        away_name: name(m.away),
        home_points: points(h),
        away_points: points(a),
        home_match_points: mp.map(|p| p.0),
        away_match_points: mp.map(|p| p.1),
        complete: m.complete(),
        boards,
    })
}

/// The whole tournament for `me` (`None`: a visitor).
pub fn view(l: &Loaded, me: Option<&Identity>) -> wire::TeamTournamentView {
    let t = &l.t;
    let teams = t
        .teams
        .iter()
        .enumerate()
        .map(|(i, team)| {
            let number = i as u32 + 1;
            wire::TeamView {
                number,
                name: team.name.clone(),
                school: team.school.clone(),
                captain: team.captain.map(|c| c as u32 + 1),
                members: team
                    .members
                    .iter()
                    .enumerate()
                    .map(|(k, m)| wire::MemberView {
                        order: k as u32 + 1,
                        name: m.name.clone(),
                        rating: m.rating,
                        category: m.category.clone(),
                        account: l
                            .settings
                            .accounts
                            .iter()
                            .find(|a| a.team == number && a.name == m.name)
                            .map(|a| a.account.clone()),
                    })
                    .collect(),
            }
        })
        .collect();
    let rounds = t
        .rounds
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let round = i as u32 + 1;
            wire::RoundView {
                round,
                matches: (1..=r.matches.len() as u32)
                    .filter_map(|table| match_view(l, round, table).ok())
                    .collect(),
                bye: r.bye,
            }
        })
        .collect();
    let standings = standings::compute(t)
        .into_iter()
        .map(|s| wire::StandingView {
            rank: s.rank,
            team: s.team,
            name: t.team(s.team).map(|x| x.name.clone()).unwrap_or_default(),
            match_points: s.match_points,
            game_points: points(s.game_points),
            tiebreaks: s
                .values
                .iter()
                .map(|&(tb, v)| wire::TieValue {
                    code: tb.code().to_string(),
                    value: standings::value_text(tb, v),
                })
                .collect(),
        })
        .collect();
    wire::TeamTournamentView {
        id: l.row.id.clone(),
        name: t.name.clone(),
        system: l.settings.system.clone(),
        boards: t.boards,
        total_rounds: if t.system == TeamSystem::Swiss || !t.rounds.is_empty() {
            t.total_rounds
        } else {
            schedule::rounds_of(t)
        },
        status: status_of(t).to_string(),
        scoring: format!("{}/{}/{}", t.scoring.win, t.scoring.draw, t.scoring.loss),
        baku: t.baku,
        can_edit: me.is_some_and(|me| l.can_edit(&me.key)),
        next_round: t.next_round_number().ok(),
        teams,
        rounds,
        standings,
        forbidden: t.forbidden.iter().map(|&(a, b)| [a, b]).collect(),
        requested_byes: t
            .requested_byes
            .iter()
            .map(|&(round, team, kind)| wire::RequestedByeView {
                round,
                team,
                kind: bye_kind_name(kind).to_string(),
            })
            .collect(),
        school: t.school.as_ref().map(|r| wire::SchoolRulesBody {
            max_teams: r.max_teams,
            categories: r
                .categories
                .iter()
                .map(|(category, players)| wire::CategoryQuota {
                    category: category.clone(),
                    players: *players,
                })
                .collect(),
            counted: Some(r.counted.max(1)),
        }),
        schools: escaque_torneo::teams::school::ranking(t)
            .into_iter()
            .map(|s| wire::SchoolStandingView {
                rank: s.rank,
                school: s.school,
                match_points: s.match_points,
                game_points: points(s.game_points),
                teams: s.teams,
            })
            .collect(),
    }
}

/// The log, for an organiser.
pub async fn log_of(hub: &Arc<Hub>, id: &str, me: &Identity) -> Result<wire::TeamLog, ApiError> {
    let l = load(hub, id).await?;
    organised_by(&l, me)?;
    Ok(wire::TeamLog {
        entries: l
            .settings
            .log
            .iter()
            .map(|s| wire::LogLine {
                at_ms: s.at_ms,
                round: s.round,
                table: s.table,
                board: s.board,
                who: s.who.clone(),
                action: s.action.clone(),
                result: s.result.clone(),
                previous: s.previous.clone(),
            })
            .collect(),
    })
}

// ---------------------------------------------------------------- codes

/// The match codes of `round` (made the first time they are asked for),
/// for an organiser; `origin` begins the links.
pub async fn codes(
    hub: &Arc<Hub>,
    id: &str,
    me: &Identity,
    round: u32,
    origin: &str,
) -> Result<(Loaded, wire::MatchCodes), ApiError> {
    let l = load(hub, id).await?;
    organised_by(&l, me)?;
    let tables =
        l.t.rounds
            .get(round.checked_sub(1).unwrap_or(u32::MAX) as usize)
            .ok_or_else(|| refused(TeamError::NoSuchRound(round)))?
            .matches
            .len() as u32;
    let mut have = hub.store.result_codes(id, round, KIND_MATCH).await?;
    if (have.len() as u32) < tables {
        let new: Vec<(u32, String)> = (1..=tables)
            .filter(|n| !have.iter().any(|(k, _)| k == n))
            .map(|n| (n, crate::resultados::new_code()))
            .collect();
        hub.store
            .insert_result_codes(id, round, KIND_MATCH, &new, now_ms())
            .await?;
        have = hub.store.result_codes(id, round, KIND_MATCH).await?;
    }
    let matches = have
        .into_iter()
        .map(|(table, code)| wire::MatchCode {
            table,
            link: format!("{origin}/equipos/resultado/{code}"),
            code,
        })
        .collect();
    Ok((l, wire::MatchCodes { round, matches }))
}

fn bad_code() -> ApiError {
    ApiError::bad(
        "bad_code",
        "el código no tiene la forma de un código de encuentro",
        "the code does not look like a match code",
    )
}

fn no_such_code() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "no_such_code",
        "no hay ningún encuentro con ese código",
        "there is no match with that code",
    )
}

/// The match a code opens: its tournament, round and table. A code of a
/// round already over (a later one paired) is refused.
pub async fn open(hub: &Arc<Hub>, code: &str) -> Result<(Loaded, u32, u32), ApiError> {
    if !crate::resultados::code_shape(code) {
        return Err(bad_code());
    }
    let c = hub
        .store
        .result_code(code)
        .await?
        .filter(|c| c.kind == KIND_MATCH)
        .ok_or_else(no_such_code)?;
    let l = load(hub, &c.tournament_id).await?;
    let current = l.t.rounds.len() as u32;
    if c.round != current {
        return Err(ApiError::new(
            Kind::Gone,
            "past_round",
            format!(
                "ese código es de la ronda {}; ya se juega la {current}",
                c.round
            ),
            format!(
                "that code is of round {}; round {current} is under way",
                c.round
            ),
        ));
    }
    Ok((l, c.round, c.number))
}

/// What a phone opened with a code.
pub fn phone_view(l: &Loaded, round: u32, table: u32) -> Result<wire::PhoneMatch, ApiError> {
    Ok(wire::PhoneMatch {
        tournament: l.row.id.clone(),
        tournament_name: l.t.name.clone(),
        round,
        team_match: match_view(l, round, table)?,
    })
}

/// A phone with a match's code enters or confirms a board's result for
/// its team. The result reaches the tournament when the other team's
/// phone said the same; two different claims are a conflict (nothing in
/// the standings) until an organiser decides.
pub async fn phone_enter(
    hub: &Arc<Hub>,
    code: &str,
    req: &wire::PhoneEntry,
) -> Result<wire::PhoneMatch, ApiError> {
    let side = side_of(&req.side)?;
    let o = parse_result(&req.result)?;
    if matches!(o, Outcome::DoubleForfeit | Outcome::Pending) {
        return Err(ApiError::bad(
            "arbiter_only",
            "ese resultado (--, *) solo lo puede poner el árbitro",
            "that result (--, *) only the arbiter may enter",
        ));
    }
    let (l0, round, table) = open(hub, code).await?;
    if req.tournament != l0.row.id || req.round != round || req.table != table {
        return Err(ApiError::new(
            Kind::Conflict,
            "wrong_match",
            format!(
                "el código es del encuentro {table} de la ronda {round} de «{}»; no del que se envía",
                l0.t.name
            ),
            format!(
                "the code is of match {table} of round {round} of '{}', not the one sent",
                l0.t.name
            ),
        ));
    }
    let id = l0.row.id.clone();
    let board = req.board;
    let text = o.text().to_string();
    let who = req.side.clone();
    let (_, l) = change(hub, &id, None, |l| {
        let (recorded, forced) = board_outcome(l, round, table, board)?;
        if forced {
            return Err(refused(TeamError::EmptyBoard {
                round,
                table,
                board,
            }));
        }
        if recorded != Outcome::Pending {
            return Err(ApiError::new(
                Kind::Conflict,
                "already_final",
                format!(
                    "el tablero {board} ya tiene resultado ({}); solo el árbitro lo cambia",
                    recorded.text()
                ),
                format!(
                    "board {board} already has its result ({}); only the arbiter changes it",
                    recorded.text()
                ),
            ));
        }
        let c = l.claim_mut(round, table, board);
        let (mine, theirs) = match side {
            Side::Home => (&mut c.home, c.away.clone()),
            Side::Away => (&mut c.away, c.home.clone()),
        };
        if mine.as_deref() == Some(text.as_str()) {
            return Ok(()); // said again: nothing changes
        }
        *mine = Some(text.clone());
        let action = match theirs.as_deref() {
            None => "entered",
            Some(t) if t == text => "confirmed",
            Some(_) => "conflict",
        };
        if action == "confirmed" {
            c.final_by = Some("players".into());
            l.t.set_result_by_colour(round, table, board, o)
                .map_err(refused)?;
        }
        log(
            l,
            (round, table, board),
            &who,
            action,
            Some(text.clone()),
            None,
        );
        Ok(())
    })
    .await?;
    phone_view(&l, round, table)
}

/// The boards of `round` an organiser must look at first: conflicts, then
/// those without a result (table, board, state).
pub fn round_attention(l: &Loaded, round: u32) -> Vec<(u32, u32, String)> {
    let mut out = Vec::new();
    let Some(r) =
        l.t.rounds
            .get(round.checked_sub(1).unwrap_or(u32::MAX) as usize)
    else {
        return out;
    };
    for table in 1..=r.matches.len() as u32 {
        if let Ok(m) = match_view(l, round, table) {
            for b in m.boards {
                if matches!(b.state.as_str(), "conflict" | "missing" | "entered") {
                    out.push((table, b.board, b.state));
                }
            }
        }
    }
    out.sort_by_key(|(t, b, s)| (s != "conflict", *t, *b));
    out
}

/// `BoardResult` is the model's; the desk shows White–Black.
pub fn board_result_text(r: BoardResult, home_white: bool) -> Option<String> {
    text_of(r.outcome(home_white))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoring_reads_win_draw_loss_and_refuses_the_rest() {
        let s = parse_scoring("3/1/0").unwrap();
        assert_eq!((s.win, s.draw, s.loss), (3, 1, 0));
        for bad in [
            "", "2/1", "1/1/0", "2/1/x", "a/b/c", "2/1/0/0", "0/1/2", "999/1/0",
        ] {
            assert!(parse_scoring(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn systems_by_their_spanish_names() {
        assert_eq!(system_of("suizo").unwrap(), TeamSystem::Swiss);
        assert_eq!(
            system_of("liguilla_doble").unwrap(),
            TeamSystem::RoundRobin { double: true }
        );
        assert!(system_of("Suizo ").is_err());
    }
}
