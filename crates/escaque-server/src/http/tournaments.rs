//! Tournaments over HTTP: create, import, read the view, every organiser's
//! action, exports and printouts, and the tournament's WebSocket
//! (`docs/protocol.md`, "Tournaments"). Each change is one call of the
//! service in `crate::tournament` (load, the model's own method, store
//! under the version check, tell the watchers); the rights are checked
//! there.

use std::sync::Arc;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use escaque_torneo::standings::TieBreak;
use escaque_torneo::{html, trf, ByeKind, Player, System, Tournament};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::mpsc;

use super::extract::{Organising, Unmanaged};
use super::games::{chrono_date, parse_rules, parse_tc, LangQuery};
use super::{ApiError, ApiResult, AppJson, Identity, Limited};
use crate::actor::{stored_pgn_of_event, EventTags, Out};
use crate::error::Kind;
use crate::proto::tournaments as wire;
use crate::tournament::fanout::TournamentFanout;
use crate::tournament::{self as service, tiebreaks, view, Entered, Loaded, Settings, Who};
use crate::Hub;

/// The longest tournament name.
const MAX_TOURNAMENT_NAME: usize = 120;
/// The longest club, school or category.
const MAX_FIELD: usize = 60;
/// The most rounds of a Swiss.
const MAX_ROUNDS: u32 = 30;
/// The most players of one tournament.
const MAX_PLAYERS: usize = 2000;

fn bad_field(field: &str, es: &str, en: &str) -> ApiError {
    ApiError::bad(
        "bad_field",
        format!("«{field}»: {es}"),
        format!("'{field}': {en}"),
    )
}

/// A short text field: at most `max` characters, no control characters.
fn text_field(field: &str, v: &str, max: usize) -> Result<String, ApiError> {
    let v = v.trim();
    if v.chars().count() > max {
        return Err(bad_field(
            field,
            &format!("como mucho {max} caracteres"),
            &format!("at most {max} characters"),
        ));
    }
    if v.chars().any(char::is_control) {
        return Err(bad_field(
            field,
            "no puede tener caracteres de control",
            "may not hold control characters",
        ));
    }
    Ok(v.to_string())
}

fn path_id(p: Result<Path<String>, PathRejection>) -> Result<String, ApiError> {
    Ok(p?.0)
}

// ---------------------------------------------------------------- create

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CreateTournament {
    name: String,
    system: String,
    #[serde(default)]
    rounds: Option<u32>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    time_control: Option<String>,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    tiebreaks: Option<Vec<String>>,
    #[serde(default)]
    accelerated: Option<bool>,
    #[serde(default)]
    team_size: Option<u32>,
    #[serde(default)]
    city: Option<String>,
    #[serde(default)]
    date: Option<String>,
    #[serde(default)]
    settings: Option<Settings>,
}

fn parse_mode(m: Option<&str>) -> Result<&'static str, ApiError> {
    match m {
        None | Some("otb") => Ok("otb"),
        Some("online") => Ok("online"),
        Some(other) => Err(ApiError::bad(
            "bad_mode",
            format!("modalidad desconocida «{other}» (otb, online)"),
            format!("unknown mode '{other}' (otb, online)"),
        )),
    }
}

fn check_settings(s: &mut Settings) -> Result<(), ApiError> {
    s.rules = parse_rules(Some(&s.rules))?.id().to_string();
    s.time_control = parse_tc(s.time_control.as_deref())?.map(|t| t.to_string());
    if !matches!(s.late_bye.as_str(), "half" | "zero") {
        return Err(bad_field("late_bye", "«half» o «zero»", "'half' or 'zero'"));
    }
    if s.rated && (s.time_control.is_none() || s.rules != escaque::RuleSet::fide_2023().id()) {
        return Err(bad_field(
            "rated",
            "un torneo con puntuación necesita reloj y las reglas FIDE 2023",
            "a rated tournament needs a clock and the FIDE 2023 rules",
        ));
    }
    if s.pair_delay_s > 3600 || s.no_show_s > 3600 {
        return Err(bad_field(
            "settings",
            "las esperas son de una hora como mucho",
            "waits are at most an hour",
        ));
    }
    Ok(())
}

pub(super) async fn create(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    // Kid mode: a pupil plays its class's events, it does not make any.
    Unmanaged(me): Unmanaged,
    body: AppJson<CreateTournament>,
) -> ApiResult {
    let req = body.read()?;
    let name = text_field("name", &req.name, MAX_TOURNAMENT_NAME)?;
    if name.is_empty() {
        return Err(bad_field(
            "name",
            "no puede estar vacío",
            "may not be empty",
        ));
    }
    let system = match req.system.as_str() {
        "dutch" | "swiss" => System::Swiss,
        "round_robin" => System::RoundRobin { double: false },
        "double_round_robin" => System::RoundRobin { double: true },
        other => {
            return Err(ApiError::bad(
                "bad_system",
                format!("sistema desconocido «{other}» (dutch, round_robin, double_round_robin)"),
                format!("unknown system '{other}' (dutch, round_robin, double_round_robin)"),
            ))
        }
    };
    let rounds = match (system, req.rounds) {
        (System::Swiss, Some(r)) if (1..=MAX_ROUNDS).contains(&r) => r,
        (System::Swiss, _) => {
            return Err(bad_field(
                "rounds",
                &format!("un suizo necesita de 1 a {MAX_ROUNDS} rondas"),
                &format!("a Swiss needs 1 to {MAX_ROUNDS} rounds"),
            ))
        }
        // A round robin's rounds follow from its players.
        (System::RoundRobin { .. }, _) => 0,
    };
    let mode = parse_mode(req.mode.as_deref())?;
    let mut settings = req.settings.unwrap_or_default();
    if req.time_control.is_some() {
        settings.time_control = req.time_control;
    }
    if let Some(r) = req.rules {
        settings.rules = r;
    }
    if let Some(a) = req.accelerated {
        settings.accelerated = a;
    }
    if settings.accelerated && !matches!(system, System::Swiss) {
        return Err(bad_field(
            "accelerated",
            "solo un suizo se acelera",
            "only a Swiss is accelerated",
        ));
    }
    check_settings(&mut settings)?;
    let mut t = Tournament::new(&name, system, rounds);
    if let Some(list) = req.tiebreaks {
        if list.len() > TieBreak::ALL.len() {
            return Err(bad_field("tiebreaks", "demasiados", "too many"));
        }
        t.tiebreaks = list
            .iter()
            .map(|id| {
                TieBreak::from_id(id)
                    .ok_or(escaque_torneo::TorneoError::UnknownTieBreak(id.clone()))
            })
            .collect::<Result<_, _>>()
            .map_err(service::refused)?;
    }
    if let Some(n) = req.team_size {
        if !(1..=20).contains(&n) {
            return Err(bad_field("team_size", "de 1 a 20", "1 to 20"));
        }
        t.team_size = n;
    }
    t.city = text_field("city", req.city.as_deref().unwrap_or(""), MAX_FIELD)?;
    t.start_date = text_field("date", req.date.as_deref().unwrap_or(""), 10)?;
    t.time_control = settings.time_control.clone().unwrap_or_default();
    let id = service::create(&hub, &me, mode, t, settings).await?;
    Ok((StatusCode::CREATED, Json(wire::Created { id })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ImportTournament {
    trf: String,
}

/// An over-the-board event from `escaque torneo` (or another program's TRF).
pub(super) async fn import(
    State(hub): State<Arc<Hub>>,
    _: Limited,
    Unmanaged(me): Unmanaged,
    body: AppJson<ImportTournament>,
) -> ApiResult {
    let req = body.read()?;
    let t = trf::parse(&req.trf).map_err(|e| service::refused(e.into()))?;
    if t.players.len() > MAX_PLAYERS {
        return Err(bad_field(
            "trf",
            &format!("como mucho {MAX_PLAYERS} jugadores"),
            &format!("at most {MAX_PLAYERS} players"),
        ));
    }
    if t.name.trim().is_empty() {
        return Err(bad_field(
            "trf",
            "el torneo no tiene nombre (012)",
            "the tournament has no name (012)",
        ));
    }
    let settings = Settings {
        time_control: None,
        ..Settings::default()
    };
    let id = service::create(&hub, &me, "otb", t, settings).await?;
    Ok((StatusCode::CREATED, Json(wire::Created { id })).into_response())
}

// ---------------------------------------------------------------- read

pub(super) async fn list(State(hub): State<Arc<Hub>>) -> ApiResult {
    let rows = hub.store.tournaments(200).await?;
    let mut out = Vec::with_capacity(rows.len());
    // A class's tournaments are listed on its class page, not here.
    for r in rows.into_iter().filter(|r| r.class_id.is_none()) {
        // A row whose text does not read is left out of the list (logged).
        let t = match trf::parse(&r.trf) {
            Ok(t) => t,
            Err(e) => {
                crate::store::log_unreadable(&format!("torneo {}", r.id), "tournaments.trf", e);
                continue;
            }
        };
        out.push(wire::ListItem {
            id: r.id,
            name: r.name,
            mode: r.mode,
            status: r.status,
            system: view::system_id(t.system),
            rounds: t.total_rounds,
            round: t.rounds.len(),
            players: t.players.len(),
        });
    }
    Ok(Json(out).into_response())
}

pub(super) async fn get_view(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let l = service::load(&hub, &path_id(id)?).await?;
    let base = view::view(&l);
    Ok(Json(view::for_identity(&base, &l, Some(&me.key))).into_response())
}

pub(super) async fn get_trf(
    State(hub): State<Arc<Hub>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let l = service::load(&hub, &path_id(id)?).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"torneo-{}.trf\"", l.row.id),
            ),
        ],
        trf::write_checked(&l.t).map_err(service::refused)?,
    )
        .into_response())
}

/// `GET /api/tournaments/{id}/tiebreak-rules`: the version of FIDE C.07
/// the standings follow ([`tiebreaks::RulesInfo`]). Anyone who may read the
/// standings may read it.
pub(super) async fn get_tiebreak_rules(
    State(hub): State<Arc<Hub>>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let l = service::load(&hub, &path_id(id)?).await?;
    Ok(Json(tiebreaks::RulesInfo::of(&l.t)).into_response())
}

/// `POST /api/tournaments/{id}/tiebreak-rules` `{"version": "2024"|"2026"|null}`:
/// the organiser chooses the version of C.07 (kept in the TRF's `XZV`);
/// `null` goes back to the one the start date asks for. Refused: an
/// unknown version (400 `bad_version`), anyone but an organiser (403).
pub(super) async fn set_tiebreak_rules(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
    body: AppJson<tiebreaks::SetRules>,
) -> ApiResult {
    let id = path_id(id)?;
    let req = body.read()?;
    let version = tiebreaks::parse_version(req.version.as_deref()).map_err(|v| {
        ApiError::bad(
            "bad_version",
            format!("versión del reglamento desconocida «{v}» (2024, 2026)"),
            format!("unknown regulations version '{v}' (2024, 2026)"),
        )
    })?;
    let info = service::change(&hub, &id, &Who::Organiser(me), |l| {
        l.t.tiebreak_rules = version;
        Ok(tiebreaks::RulesInfo::of(&l.t))
    })
    .await?;
    Ok(Json(info).into_response())
}

/// `GET /api/tournaments/{id}/players/{n}/tiebreaks`: how player `n`'s
/// tie-breaks were made ([`tiebreaks::Explanation`], the library's
/// `standings::explain`). Refused: an unknown player (404 `no_such_player`).
pub(super) async fn explain_tiebreaks(
    State(hub): State<Arc<Hub>>,
    p: Result<Path<(String, u32)>, PathRejection>,
) -> ApiResult {
    let Path((id, n)) = p?;
    let l = service::load(&hub, &id).await?;
    let e = tiebreaks::explanation(&l.t, n).map_err(service::refused)?;
    Ok(Json(e).into_response())
}

/// `GET /api/tournaments/{id}/pgn[?lang=es]`: every game the server played
/// in the tournament (an online event's), round by round and board by board,
/// `Event` the tournament's name and `Round` `round.board`; a game still being
/// played is written as far as it went, result `*`. An over-the-board event
/// has no games here: an empty file.
pub(super) async fn get_pgn(
    State(hub): State<Arc<Hub>>,
    id: Result<Path<String>, PathRejection>,
    Query(q): Query<LangQuery>,
) -> ApiResult {
    let l = service::load(&hub, &path_id(id)?).await?;
    let mut out = String::new();
    for b in hub.store.tournament_games(&l.row.id).await? {
        let Some(row) = hub.store.game(&b.game).await? else {
            continue;
        };
        let moves = hub.store.moves(&b.game).await?;
        let tags = EventTags {
            event: l.row.name.clone(),
            round: format!("{}.{}", b.round, b.board),
        };
        let text = stored_pgn_of_event(
            &row,
            &moves,
            &chrono_date(row.created_ms),
            Some(&tags),
            q.style(),
        )
        .map_err(|_| ApiError::storage())?;
        if !out.is_empty() && !out.ends_with("\n\n") {
            out.push('\n');
        }
        out.push_str(&text);
    }
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"torneo-{}.pgn\"", l.row.id),
            ),
        ],
        out,
    )
        .into_response())
}

fn html_page(text: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            // The page is the server's own printout: no script runs in it.
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; style-src 'unsafe-inline'",
            ),
        ],
        text,
    )
        .into_response()
}

fn paired_round(l: &Loaded, round: u32) -> Result<u32, ApiError> {
    if round == 0 || round as usize > l.t.rounds.len() {
        return Err(service::refused(escaque_torneo::TorneoError::NoSuchRound(
            round,
        )));
    }
    Ok(round)
}

/// `?paper=a4|letter` (`carta` too): the paper a printout is laid out for,
/// A4 when not given (`escaque_torneo::print::Paper`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PaperQuery {
    #[serde(default)]
    paper: Option<String>,
}

impl PaperQuery {
    fn paper(q: Result<Query<PaperQuery>, QueryRejection>) -> Result<html::Paper, ApiError> {
        let Query(q) = q?;
        match q.paper.as_deref() {
            None => Ok(html::Paper::A4),
            Some(p) => html::Paper::from_id(p)
                .ok_or_else(|| bad_field("paper", "a4 o letter (carta)", "a4 or letter (carta)")),
        }
    }
}

pub(super) async fn print_round(
    State(hub): State<Arc<Hub>>,
    p: Result<Path<(String, u32)>, PathRejection>,
    q: Result<Query<PaperQuery>, QueryRejection>,
) -> ApiResult {
    let Path((id, round)) = p?;
    let paper = PaperQuery::paper(q)?;
    let l = service::load(&hub, &id).await?;
    let round = paired_round(&l, round)?;
    Ok(html_page(html::pairings_on(&l.t, round, paper)))
}

pub(super) async fn print_page(
    State(hub): State<Arc<Hub>>,
    p: Result<Path<(String, String)>, PathRejection>,
    q: Result<Query<PaperQuery>, QueryRejection>,
) -> ApiResult {
    let Path((id, page)) = p?;
    let paper = PaperQuery::paper(q)?;
    let l = service::load(&hub, &id).await?;
    // The library heads them with the last round with every result in.
    let text = match page.as_str() {
        "standings" => html::standings_page_on(&l.t, paper),
        "crosstable" => html::crosstable_page_on(&l.t, paper),
        "categories" => html::categories_page_on(&l.t, paper),
        "teams" => html::teams_page_on(&l.t, paper),
        _ => return Err(ApiError::no_route()),
    };
    Ok(html_page(text))
}

fn pdf_file(name: String, bytes: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{name}\""),
            ),
        ],
        bytes,
    )
        .into_response()
}

/// The pairings of a round as PDF (`escaque_torneo::pdf`).
pub(super) async fn round_pdf(
    State(hub): State<Arc<Hub>>,
    p: Result<Path<(String, u32)>, PathRejection>,
    q: Result<Query<PaperQuery>, QueryRejection>,
) -> ApiResult {
    let Path((id, round)) = p?;
    let paper = PaperQuery::paper(q)?;
    let l = service::load(&hub, &id).await?;
    let round = paired_round(&l, round)?;
    Ok(pdf_file(
        format!("ronda-{round}.pdf"),
        escaque_torneo::pdf::pairings_on(&l.t, round, paper),
    ))
}

/// The standings as PDF.
pub(super) async fn standings_pdf(
    State(hub): State<Arc<Hub>>,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<PaperQuery>, QueryRejection>,
) -> ApiResult {
    let paper = PaperQuery::paper(q)?;
    let l = service::load(&hub, &path_id(id)?).await?;
    Ok(pdf_file(
        "clasificacion.pdf".to_string(),
        escaque_torneo::pdf::standings_on(&l.t, paper),
    ))
}

// ---------------------------------------------------------------- players

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct PlayerFields {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    club: Option<String>,
    #[serde(default)]
    category: Option<String>,
    #[serde(default)]
    birth_year: Option<u16>,
    #[serde(default)]
    rating: Option<u16>,
    #[serde(default)]
    fide_id: Option<u64>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    sex: Option<String>,
}

/// Applies the given fields to `p`, then checks the player against the
/// domain every front end shares ([`escaque_torneo::Player::check`]:
/// the name within TRF's 33 columns, ratings 0–3500, FIDE ids of at most 11
/// digits, …); a rating or FIDE id of 0 means none.
fn apply_fields(p: &mut Player, f: &PlayerFields) -> Result<(), ApiError> {
    if let Some(n) = &f.name {
        p.name = n.trim().to_string();
    }
    if let Some(c) = &f.club {
        p.club = c.trim().to_string();
    }
    if let Some(c) = &f.category {
        p.category = c.trim().to_string();
    }
    if let Some(y) = f.birth_year {
        p.birth_year = Some(y);
    }
    if let Some(r) = f.rating {
        p.rating = (r > 0).then_some(r);
    }
    if let Some(id) = f.fide_id {
        p.fide_id = (id > 0).then_some(id);
    }
    if let Some(t) = &f.title {
        p.title = t.trim().to_string();
    }
    if let Some(s) = &f.sex {
        p.sex = s.clone();
    }
    p.check().map_err(|e| service::refused(e.into()))
}

/// Enters players; a round robin's rounds follow from its players.
fn enter(l: &mut Loaded, players: Vec<Player>) -> Result<Vec<u32>, ApiError> {
    if l.t.players.len() + players.len() > MAX_PLAYERS {
        return Err(bad_field(
            "players",
            &format!("como mucho {MAX_PLAYERS} jugadores"),
            &format!("at most {MAX_PLAYERS} players"),
        ));
    }
    let mut numbers = Vec::with_capacity(players.len());
    for p in players {
        numbers.push(l.t.add_player(p).map_err(service::refused)?);
    }
    if let System::RoundRobin { double } = l.t.system {
        let n = l.t.players.len() as u32;
        let per_cycle = n.saturating_sub(1) + n % 2;
        l.t.total_rounds = if double { 2 * per_cycle } else { per_cycle };
    }
    Ok(numbers)
}

fn new_player(f: &PlayerFields) -> Result<Player, ApiError> {
    let Some(name) = &f.name else {
        return Err(bad_field("name", "falta", "missing"));
    };
    let mut p = Player::new(name);
    apply_fields(&mut p, f)?;
    Ok(p)
}

pub(super) async fn add_player(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
    body: AppJson<PlayerFields>,
) -> ApiResult {
    let id = path_id(id)?;
    let f = body.read()?;
    let p = new_player(&f)?;
    let n = service::change(&hub, &id, &Who::Organiser(me), |l| {
        Ok(enter(l, vec![p.clone()])?[0])
    })
    .await?;
    Ok(Json(wire::Number { number: n }).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ImportPlayers {
    format: String,
    text: String,
}

/// The players of a pasted list, a CSV or a TRF.
fn players_from(format: &str, text: &str) -> Result<Vec<Player>, ApiError> {
    let line_err = |line: usize, e: ApiError| {
        ApiError(
            e.0,
            e.1,
            format!("línea {line}: {}", e.2),
            format!("line {line}: {}", e.3),
        )
    };
    match format {
        // One name a line.
        "list" => text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| {
                new_player(&PlayerFields {
                    name: Some(l.to_string()),
                    ..PlayerFields::default()
                })
                .map_err(|e| line_err(i + 1, e))
            })
            .collect(),
        "csv" => players_from_csv(text),
        "trf" => {
            let t = trf::parse(text).map_err(|e| service::refused(e.into()))?;
            Ok(t.players
                .into_iter()
                .map(|p| Player {
                    entry_round: 1,
                    withdrawn_from: None,
                    half_byes: Default::default(),
                    absences: Default::default(),
                    full_byes: Default::default(),
                    ..p
                })
                .collect())
        }
        other => Err(ApiError::bad(
            "bad_format",
            format!("formato desconocido «{other}» (list, csv, trf)"),
            format!("unknown format '{other}' (list, csv, trf)"),
        )),
    }
}

/// One CSV record's fields (quotes as RFC 4180 writes them; `,` or `;`).
fn csv_fields(line: &str, sep: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            c if c == sep && !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out.into_iter().map(|f| f.trim().to_string()).collect()
}

/// A CSV with a header naming its columns (Spanish or English): name /
/// nombre, club / colegio, category / categoria, birth_year / nacimiento,
/// rating / elo, fide_id / fide, title / titulo, sex / sexo.
fn players_from_csv(text: &str) -> Result<Vec<Player>, ApiError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, head)) = lines.next() else {
        return Ok(Vec::new());
    };
    let sep = if head.matches(';').count() > head.matches(',').count() {
        ';'
    } else {
        ','
    };
    let columns: Vec<String> = csv_fields(head, sep)
        .into_iter()
        .map(|c| c.to_lowercase())
        .collect();
    let col = |names: &[&str]| columns.iter().position(|c| names.contains(&c.as_str()));
    let Some(name_col) = col(&["name", "nombre"]) else {
        return Err(ApiError::bad(
            "bad_csv",
            "la primera línea debe nombrar las columnas, entre ellas «nombre»",
            "the first line must name the columns, 'name' among them",
        ));
    };
    let club = col(&["club", "colegio", "escuela", "school"]);
    let category = col(&["category", "categoria", "categoría"]);
    let birth = col(&["birth_year", "nacimiento", "año", "year"]);
    let rating = col(&["rating", "elo"]);
    let fide = col(&["fide_id", "fide"]);
    let title = col(&["title", "titulo", "título"]);
    let sex = col(&["sex", "sexo"]);
    let mut out = Vec::new();
    for (i, line) in lines {
        let f = csv_fields(line, sep);
        let get = |c: Option<usize>| c.and_then(|c| f.get(c)).filter(|v| !v.is_empty());
        let num = |c: Option<usize>, field: &str| -> Result<Option<u64>, ApiError> {
            get(c)
                .map(|v| {
                    v.parse::<u64>().map_err(|_| {
                        bad_field(
                            field,
                            &format!("«{v}» no es un número"),
                            &format!("'{v}' is not a number"),
                        )
                    })
                })
                .transpose()
        };
        let at = |e: ApiError| {
            ApiError(
                e.0,
                e.1,
                format!("línea {}: {}", i + 1, e.2),
                format!("line {}: {}", i + 1, e.3),
            )
        };
        let small = |v: Option<u64>| v.map(|v| u16::try_from(v).unwrap_or(u16::MAX));
        let fields = PlayerFields {
            name: Some(get(Some(name_col)).cloned().unwrap_or_default()),
            club: get(club).cloned(),
            category: get(category).cloned(),
            birth_year: small(num(birth, "birth_year").map_err(at)?),
            rating: small(num(rating, "rating").map_err(at)?),
            fide_id: num(fide, "fide_id").map_err(at)?,
            title: get(title).cloned(),
            sex: get(sex).map(|s| s.to_lowercase()),
        };
        out.push(new_player(&fields).map_err(at)?);
    }
    Ok(out)
}

pub(super) async fn import_players(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
    body: AppJson<ImportPlayers>,
) -> ApiResult {
    let id = path_id(id)?;
    let req = body.read()?;
    let players = players_from(&req.format, &req.text)?;
    let added = service::change(&hub, &id, &Who::Organiser(me), |l| {
        Ok(enter(l, players.clone())?.len())
    })
    .await?;
    Ok(Json(wire::Added { added }).into_response())
}

pub(super) async fn edit_player(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    p: Result<Path<(String, u32)>, PathRejection>,
    body: AppJson<PlayerFields>,
) -> ApiResult {
    let Path((id, n)) = p?;
    let f = body.read()?;
    service::change(&hub, &id, &Who::Organiser(me), |l| {
        let mut p = l.t.player(n).map_err(service::refused)?.clone();
        apply_fields(&mut p, &f)?;
        l.t.replace_player(n, p).map_err(service::refused)
    })
    .await?;
    Ok(Json(wire::Number { number: n }).into_response())
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct Withdraw {
    #[serde(default)]
    from_round: Option<u32>,
}

pub(super) async fn withdraw(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    p: Result<Path<(String, u32)>, PathRejection>,
    body: AppJson<Withdraw>,
) -> ApiResult {
    let Path((id, n)) = p?;
    let w = body.read()?;
    service::change(&hub, &id, &Who::Organiser(me), |l| {
        let from = w.from_round.unwrap_or(l.t.rounds.len() as u32 + 1);
        l.t.withdraw(n, from).map_err(service::refused)
    })
    .await?;
    Ok(Json(wire::Number { number: n }).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Bye {
    round: u32,
    kind: String,
}

pub(super) async fn bye(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    p: Result<Path<(String, u32)>, PathRejection>,
    body: AppJson<Bye>,
) -> ApiResult {
    let Path((id, n)) = p?;
    let b = body.read()?;
    let kind = match b.kind.as_str() {
        "half" => ByeKind::Half,
        "zero" => ByeKind::Zero,
        "full" => ByeKind::Full,
        other => {
            return Err(ApiError::bad(
                "bad_bye",
                format!("descanso desconocido «{other}» (half, zero, full)"),
                format!("unknown bye '{other}' (half, zero, full)"),
            ))
        }
    };
    service::change(&hub, &id, &Who::Organiser(me), |l| {
        l.t.request_bye(n, b.round, kind).map_err(service::refused)
    })
    .await?;
    Ok(Json(wire::NumberRound {
        number: n,
        round: b.round,
    })
    .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Forbid {
    players: Vec<u32>,
    #[serde(default)]
    from_round: Option<u32>,
    #[serde(default)]
    to_round: Option<u32>,
}

pub(super) async fn forbid(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
    body: AppJson<Forbid>,
) -> ApiResult {
    let id = path_id(id)?;
    let f = body.read()?;
    if f.players.len() > 100 {
        return Err(bad_field("players", "como mucho 100", "at most 100"));
    }
    service::change(&hub, &id, &Who::Organiser(me), |l| {
        if !matches!(l.t.system, System::Swiss) {
            return Err(ApiError::new(
                Kind::Conflict,
                "not_swiss",
                "un round robin tiene sus tablas fijas: no se prohíben emparejamientos",
                "a round robin's tables are fixed: pairings cannot be forbidden",
            ));
        }
        let first = f.from_round.unwrap_or(l.t.rounds.len() as u32 + 1);
        let last = f.to_round.unwrap_or(l.t.total_rounds.max(first));
        l.t.forbid(&f.players, first, last)
            .map_err(service::refused)
    })
    .await?;
    Ok(Json(wire::Forbidden { players: f.players }).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AddOrganiser {
    account: String,
}

/// The right first ([`Organising`]): a stranger learns nothing, not even
/// whether an account of that name exists.
pub(super) async fn add_organiser(
    State(hub): State<Arc<Hub>>,
    Organising { me, loaded }: Organising,
    body: AppJson<AddOrganiser>,
) -> ApiResult {
    let id = loaded.row.id;
    let req = body.read()?;
    if req.account.len() > 100 {
        return Err(bad_field("account", "demasiado largo", "too long"));
    }
    let mut found = hub
        .store
        .user_by_name_key(&super::names::skeleton(&req.account))
        .await?;
    if found.is_none() {
        found = hub.store.user_by_name(&req.account).await?;
    }
    let no_such_account = || {
        ApiError::new(
            Kind::NotFound,
            "no_such_account",
            "no hay ninguna cuenta con ese nombre",
            "there is no account with that name",
        )
    };
    let user = found.ok_or_else(no_such_account)?;
    // Kid mode: a pupil organises nothing; outside its class it is not
    // even known.
    if crate::classes::kid::pupil_circle(&hub.store, &format!("u:{}", user.id))
        .await?
        .is_some()
    {
        return Err(
            if crate::classes::kid::may_see_pupil(&hub.store, &me, &user.id).await? {
                crate::classes::kid_mode()
            } else {
                no_such_account()
            },
        );
    }
    let identity = format!("u:{}", user.id);
    service::change(&hub, &id, &Who::Organiser(me), |l| {
        if l.row.owner != identity && !l.organisers.contains(&identity) {
            l.organisers.push(identity.clone());
        }
        Ok(())
    })
    .await?;
    Ok(Json(wire::Organiser { account: user.name }).into_response())
}

// ---------------------------------------------------------------- rounds

pub(super) async fn pair(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult {
    let id = path_id(id)?;
    let round = service::pair_next(&hub, &id, &Who::Organiser(me)).await?;
    Ok(Json(wire::Paired { round }).into_response())
}

/// `{"result"}`: the body of a board's result (`docs/protocol.md`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SetResult {
    result: String,
}

/// A result as the API names it (`1-0`, `0-1`, `½-½`, `+-`, `-+`, `--`,
/// and the unusual `½-0`, `0-½`, `0-0`; the library's readers take their
/// other spellings too, `*` clears it).
fn parse_result(text: &str) -> Result<Entered, ApiError> {
    Entered::parse(text).map_err(service::refused)
}

/// The organiser's right first ([`Organising`]): online, the result ends
/// a game still being played before the tournament is changed.
pub(super) async fn set_result(
    State(hub): State<Arc<Hub>>,
    Organising { me, loaded }: Organising,
    p: Result<Path<(String, u32, u32)>, PathRejection>,
    body: AppJson<SetResult>,
) -> ApiResult {
    let Path((_, round, board)) = p?;
    let id = loaded.row.id;
    let req = body.read()?;
    let entered = parse_result(&req.result)?;
    // Online, a game still being played ends with a standard result.
    let previous = crate::tournament::online::organiser_result(
        &hub,
        &id,
        round,
        board,
        entered,
        &Who::Organiser(me),
    )
    .await?;
    Ok(Json(wire::ResultSet {
        round,
        board,
        result: entered.id(),
        previous,
    })
    .into_response())
}

// ---------------------------------------------------------------- socket

/// `GET /ws/tournaments/{id}`: the view on connect and after every change.
/// The socket only listens; whatever the client sends is ignored (changes
/// are HTTP requests).
pub(super) async fn ws(
    State(hub): State<Arc<Hub>>,
    me: Identity,
    id: Result<Path<String>, PathRejection>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult {
    let id = path_id(id)?;
    let l = service::load(&hub, &id).await?;
    let ws = match ws {
        Ok(ws) => ws,
        Err(r) => return Ok(r.into_response()),
    };
    let base = view::view(&l);
    let first = view::message(&view::for_identity(&base, &l, Some(&me.key)));
    Ok(super::small_buffers(ws)
        .max_message_size(4096)
        .on_upgrade(move |socket| watch(hub, id, me, first, socket)))
}

async fn watch(hub: Arc<Hub>, id: String, me: Identity, first: Out, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Out>(64);
    if sink.send(Message::Text((*first).into())).await.is_err() {
        return;
    }
    hub.tournaments.watch(&id, me.key.clone(), tx);
    loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(m) => {
                    if sink.send(Message::Text((*m).into())).await.is_err() {
                        break;
                    }
                }
                // Dropped by the fanout: too slow to read.
                None => break,
            },
            got = stream.next() => match got {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
        }
    }
}
