//! A class's tournaments and its pupils' progress (issue 26; `docs/protocol.md`,
//! "Class tournaments" and "Progress").
//!
//! * A teacher starts a Swiss or a round robin from the roster: an online
//!   tournament of the class (`tournaments.class_id`), the teacher its
//!   organiser (the co-teachers its co-organisers), the pupils entered
//!   linked to their accounts and present, round 1 paired at once and the
//!   next rounds paired automatically after a short countdown.
//! * Only the class joins a class's tournament, and a pupil joins only its
//!   own class's ([`may_join`], asked by the tournament's `join`).
//! * The progress of every pupil over a period, as JSON or as CSV.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use escaque_torneo::{Player, System, Tournament};
use serde::Deserialize;

use super::extract::{Member, Teaching};
use super::games::parse_tc;
use super::names::skeleton;
use super::{ApiError, ApiResult, AppJson, Identity};
use crate::classes::{self, Refusal, Role};
use crate::presence::PresenceView;
use crate::proto::classes as wire;
use crate::store::progress::PlayedGame;
use crate::store::{self, PlayerLink, StoreError, TournamentRow};
use crate::tournament::{self, view, Settings, Who};
use crate::Hub;

/// This file's routes (merged into [`super::router`]).
pub(super) fn routes() -> Router<Arc<Hub>> {
    Router::new()
        .route(
            "/api/classes/{id}/tournaments",
            get(list_tournaments).post(start_tournament),
        )
        .route("/api/classes/{id}/progress", get(progress))
}

/// The longest tournament name (as the tournaments' own form).
const MAX_NAME: usize = 120;
/// The most rounds of a class Swiss.
const MAX_ROUNDS: u32 = 30;
/// The most pupils in one class tournament (a class's most).
const MAX_PUPILS: usize = 100;
/// The countdown between a class tournament's rounds, seconds: a class
/// hour is short.
pub const CLASS_PAIR_DELAY_S: u32 = 10;
/// The longest period of the progress table, in days.
const MAX_PERIOD_DAYS: i64 = 3660;
/// The default period of the progress table, in days (today included).
const DEFAULT_PERIOD_DAYS: i64 = 30;
const DAY_MS: i64 = 86_400_000;

// ---------------------------------------------------------------- errors

/// `403 class_only`: a class's tournament, and the asker is not of the class.
pub(super) fn class_only() -> ApiError {
    Refusal::ClassOnly.into()
}

fn bad_period(es: &str, en: &str) -> ApiError {
    ApiError::bad(
        "bad_period",
        format!("periodo no válido: {es}"),
        format!("invalid period: {en}"),
    )
}

// ---------------------------------------------------------------- joining

/// Whether `me` may join tournament `row` (asked by the online
/// tournament's `join` before anything else): a pupil only its own
/// class's tournament (`403 kid_mode` for another class's or a public
/// one); anybody else a class's tournament only as one of its teachers
/// (`403 class_only`).
pub(super) async fn may_join(
    hub: &Hub,
    me: &Identity,
    row: &TournamentRow,
) -> Result<(), ApiError> {
    if let Some(circle) = classes::circle(&hub.store, me).await? {
        let own = !circle.class_id.is_empty() && row.class_id.as_deref() == Some(&circle.class_id);
        return if own {
            Ok(())
        } else {
            Err(classes::kid_mode())
        };
    }
    if let Some(class) = &row.class_id {
        if classes::role(&hub.store, me, class).await? == Role::Outsider {
            return Err(class_only());
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- tournaments

/// The body of `POST /api/classes/{id}/tournaments`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StartBody {
    #[serde(default)]
    name: Option<String>,
    system: String,
    #[serde(default)]
    rounds: Option<u32>,
    #[serde(default)]
    time_control: Option<String>,
    #[serde(default)]
    pupils: Option<Vec<String>>,
    #[serde(default)]
    auto_pair: Option<bool>,
}

/// The default rounds of a Swiss of `n` players: ⌈log₂ n⌉ (enough to
/// leave one winner), at least 1 and at most n − 1.
pub fn default_rounds(n: u32) -> u32 {
    let log = u32::BITS - n.saturating_sub(1).leading_zeros();
    log.clamp(1, n.saturating_sub(1).max(1))
}

/// `POST /api/classes/{id}/tournaments`: a teacher starts an online
/// tournament of the class with its pupils; round 1 is paired at once.
async fn start_tournament(
    State(hub): State<Arc<Hub>>,
    Teaching { me, class }: Teaching,
    body: AppJson<StartBody>,
) -> ApiResult {
    let id = class.id.clone();
    let req = body.read()?;
    let system = match req.system.as_str() {
        "swiss" => System::Swiss,
        "round_robin" => System::RoundRobin { double: false },
        other => {
            return Err(ApiError::bad(
                "bad_system",
                format!("sistema desconocido «{other}» (swiss, round_robin)"),
                format!("unknown system '{other}' (swiss, round_robin)"),
            ))
        }
    };
    let name = match req.name.as_deref().map(str::trim) {
        None | Some("") => {
            let date = super::games::chrono_date(store::now_ms()).replace('.', "-");
            let base: String = class.name.chars().take(MAX_NAME - 13).collect();
            format!("{base} · {date}")
        }
        Some(n) if n.chars().count() > MAX_NAME || n.chars().any(char::is_control) => {
            return Err(ApiError::bad(
                "bad_name",
                format!("el nombre del torneo tiene de 1 a {MAX_NAME} caracteres, sin caracteres de control"),
                format!("a tournament's name has 1 to {MAX_NAME} characters, no control characters"),
            ))
        }
        Some(n) => n.to_string(),
    };
    let time_control = parse_tc(req.time_control.as_deref())?.map(|t| t.to_string());
    let pupils = hub.store.class_pupils(&id, false).await?;
    let chosen = match &req.pupils {
        Some(names) => {
            if names.len() > MAX_PUPILS {
                return Err(ApiError::bad(
                    "too_many_pupils",
                    format!("como mucho {MAX_PUPILS} alumnos"),
                    format!("at most {MAX_PUPILS} pupils"),
                ));
            }
            let mut seen = HashSet::new();
            let mut chosen = Vec::with_capacity(names.len());
            for n in names {
                let key = skeleton(n.trim());
                let p = pupils
                    .iter()
                    .find(|p| skeleton(&p.name) == key)
                    .ok_or_else(|| Refusal::PupilNotInClass(n.to_string()))?;
                if !seen.insert(key) {
                    return Err(ApiError::bad(
                        "duplicate_pupil",
                        format!("«{}» está dos veces en la lista", p.name),
                        format!("'{}' is twice in the list", p.name),
                    ));
                }
                chosen.push(p.clone());
            }
            chosen
        }
        None => pupils
            .iter()
            .filter(|p| hub.presence.online(&format!("u:{}", p.user_id)))
            .cloned()
            .collect(),
    };
    if chosen.len() < 2 {
        return Err(Refusal::NotEnoughPupils.into());
    }
    let n = chosen.len() as u32;
    let rounds = match system {
        System::Swiss => match req.rounds {
            None => default_rounds(n),
            Some(r) if (1..=MAX_ROUNDS.min(n - 1).max(1)).contains(&r) => r,
            Some(_) => {
                let most = MAX_ROUNDS.min(n - 1).max(1);
                return Err(ApiError::bad(
                    "bad_rounds",
                    format!("con {n} alumnos, un suizo tiene de 1 a {most} rondas"),
                    format!("with {n} pupils a Swiss has 1 to {most} rounds"),
                ));
            }
        },
        // Every pupil meets every other once.
        System::RoundRobin { .. } => n - 1 + n % 2,
    };
    let mut t = Tournament::new(&name, system, rounds);
    let mut links = Vec::with_capacity(chosen.len());
    for p in &chosen {
        let number = t
            // A pupil's name may be longer than a TRF name (33 characters):
            // the tournament keeps its first 33, the link keeps the pupil.
            .add_player(Player::new(
                &p.name
                    .chars()
                    .take(escaque_torneo::domain::NAME_CHARS)
                    .collect::<String>(),
            ))
            .map_err(tournament::refused)?;
        links.push(PlayerLink {
            number,
            owner: Some(format!("u:{}", p.user_id)),
            present: true,
        });
    }
    t.time_control = time_control.clone().unwrap_or_default();
    let settings = Settings {
        time_control,
        auto_pair: req.auto_pair.unwrap_or(true),
        pair_delay_s: CLASS_PAIR_DELAY_S,
        // A pupil who comes late joins a Swiss until its last round is
        // paired (a round robin's table is fixed by its first round).
        registration_until: if matches!(system, System::Swiss) {
            rounds
        } else {
            0
        },
        ..Settings::default()
    };
    let tid =
        tournament::create_in_class(&hub, &me, "online", t, settings, Some(id.clone()), links)
            .await?;
    // The co-teachers organise it too.
    let co: Vec<String> = hub
        .store
        .class_teachers(&id)
        .await?
        .into_iter()
        .map(|t| format!("u:{}", t.user_id))
        .filter(|k| *k != me.key)
        .collect();
    if !co.is_empty() {
        tournament::change(&hub, &tid, &Who::Server, |l| {
            l.organisers = co.clone();
            Ok(())
        })
        .await?;
    }
    let round = tournament::pair_next(&hub, &tid, &Who::Server).await?;
    Ok((
        StatusCode::CREATED,
        Json(wire::TournamentStarted {
            url: format!("/torneos/{tid}"),
            id: tid,
            name,
            round,
            rounds,
            players: chosen.iter().map(|p| p.name.clone()).collect(),
        }),
    )
        .into_response())
}

/// `GET /api/classes/{id}/tournaments` (members): the class's tournaments,
/// newest first; for a teacher, the roster for the form too (each pupil
/// with its real name and whether it is online now).
async fn list_tournaments(
    State(hub): State<Arc<Hub>>,
    Member { class, role, .. }: Member,
) -> ApiResult {
    let id = class.id.clone();
    let mut list = Vec::new();
    for r in hub.store.class_tournaments(&id, 100).await? {
        let Ok(t) = escaque_torneo::trf::parse(&r.trf) else {
            continue;
        };
        list.push(wire::ClassTournament {
            url: format!("/torneos/{}", r.id),
            id: r.id,
            name: r.name,
            status: r.status,
            system: view::system_id(t.system),
            rounds: t.total_rounds,
            round: t.rounds.len(),
            players: t.players.len(),
            created_ms: r.created_ms,
        });
    }
    let pupils = if role == Role::Teacher {
        let pupils: Vec<wire::RosterPupil> = hub
            .store
            .class_pupils(&id, false)
            .await?
            .into_iter()
            .map(|p| wire::RosterPupil {
                online: hub.presence.online(&format!("u:{}", p.user_id)),
                name: p.name,
                real_name: p.real_name,
            })
            .collect();
        Some(pupils)
    } else {
        None
    };
    Ok(Json(wire::ClassTournaments {
        class: wire::ClassRef {
            id: class.id,
            name: class.name,
        },
        role: if role == Role::Teacher {
            "teacher"
        } else {
            "pupil"
        },
        tournaments: list,
        pupils,
    })
    .into_response())
}

// ---------------------------------------------------------------- progress

/// The query of `GET /api/classes/{id}/progress`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ProgressQuery {
    #[serde(default)]
    from: Option<String>,
    #[serde(default)]
    to: Option<String>,
    /// The teacher's time zone: minutes east of UTC (`-180` in Buenos
    /// Aires); the days of the period are that zone's.
    #[serde(default)]
    tz: Option<i32>,
    #[serde(default)]
    format: Option<String>,
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date (years 2000–9999), or
/// `None` if it is not one.
pub fn parse_day(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = s.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if !(2000..=9999).contains(&y) || !(1..=12).contains(&m) || d < 1 {
        return None;
    }
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days_in_month = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if d > days_in_month[(m - 1) as usize] {
        return None;
    }
    // Howard Hinnant's days-from-civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// `YYYY-MM-DD` of a day counted from 1970-01-01.
pub fn format_day(day: i64) -> String {
    super::games::chrono_date(day * DAY_MS).replace('.', "-")
}

/// A period of whole days in a time zone: the first and last day
/// (inclusive), and the wall-clock interval `[from_ms, to_ms)` they cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// First day (days since 1970-01-01).
    pub from: i64,
    /// Last day, inclusive.
    pub to: i64,
    /// Its start, ms since the epoch.
    pub from_ms: i64,
    /// The end of its last day, ms since the epoch (excluded).
    pub to_ms: i64,
}

/// The period asked for, `now_ms` being today: by default the last 30
/// days, today included.
pub fn period(
    from: Option<&str>,
    to: Option<&str>,
    tz_minutes: Option<i32>,
    now_ms: i64,
) -> Result<Period, ApiError> {
    let tz = tz_minutes.unwrap_or(0);
    if !(-720..=840).contains(&tz) {
        return Err(bad_period(
            "«tz» va de -720 a 840 minutos",
            "'tz' is -720 to 840 minutes",
        ));
    }
    let offset = i64::from(tz) * 60_000;
    let day = |s: &str| {
        parse_day(s).ok_or_else(|| {
            bad_period(
                &format!("«{s}» no es una fecha AAAA-MM-DD"),
                &format!("'{s}' is not a YYYY-MM-DD date"),
            )
        })
    };
    let to = match to {
        Some(s) => day(s)?,
        None => (now_ms + offset).div_euclid(DAY_MS),
    };
    let from = match from {
        Some(s) => day(s)?,
        None => to - (DEFAULT_PERIOD_DAYS - 1),
    };
    if from > to {
        return Err(bad_period(
            "«from» es posterior a «to»",
            "'from' is after 'to'",
        ));
    }
    if to - from >= MAX_PERIOD_DAYS {
        return Err(bad_period(
            &format!("como mucho {MAX_PERIOD_DAYS} días"),
            &format!("at most {MAX_PERIOD_DAYS} days"),
        ));
    }
    Ok(Period {
        from,
        to,
        from_ms: from * DAY_MS - offset,
        to_ms: (to + 1) * DAY_MS - offset,
    })
}

/// One pupil's line of the progress table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Finished games.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// Sum of each game's creation-to-end time, ms.
    pub time_played_ms: i64,
    /// The pool with most rated games in the period.
    pub perf: Option<String>,
    /// The rating in `perf` when its first rated game of the period began.
    pub rating_before: Option<i64>,
    /// The rating in `perf` after its last rated game of the period whose
    /// result has been applied.
    pub rating_after: Option<i64>,
    /// Tournaments with a game in the period.
    pub tournaments: u32,
}

impl Summary {
    /// `rating_after − rating_before`, when both are known.
    pub fn rating_change(&self) -> Option<i64> {
        Some(self.rating_after? - self.rating_before?)
    }
}

/// A pupil's line from its games of the period (first ended first).
pub fn summarise(games: &[PlayedGame]) -> Result<Summary, StoreError> {
    let mut s = Summary::default();
    let mut tournaments = HashSet::new();
    // Rated games per pool: (count, index of the last one).
    let mut pools: BTreeMap<&str, (u32, usize)> = BTreeMap::new();
    for (i, g) in games.iter().enumerate() {
        s.games += 1;
        match g.won()? {
            Some(true) => s.wins += 1,
            Some(false) => s.losses += 1,
            None => s.draws += 1,
        }
        s.time_played_ms += (g.ended_ms - g.created_ms).max(0);
        if let Some(t) = &g.tournament {
            tournaments.insert(t.as_str());
        }
        if let (Some(perf), Some(_)) = (&g.perf, g.rating) {
            let e = pools.entry(perf.as_str()).or_insert((0, i));
            e.0 += 1;
            e.1 = i;
        }
    }
    s.tournaments = tournaments.len() as u32;
    // Most games; a tie goes to the pool played last.
    if let Some((perf, _)) = pools.iter().max_by_key(|(_, &(n, last))| (n, last)) {
        let in_pool = || {
            games
                .iter()
                .filter(move |g| g.perf.as_deref() == Some(*perf) && g.rating.is_some())
        };
        s.perf = Some(perf.to_string());
        s.rating_before = in_pool().next().and_then(|g| g.rating);
        s.rating_after = in_pool()
            .filter_map(|g| Some(g.rating? + g.rating_diff?))
            .next_back();
    }
    Ok(s)
}

/// A CSV field: quoted when it must be, and a text a spreadsheet would
/// run as a formula (`=`, `+`, `-`, `@` first) made plain text.
fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

fn opt(n: Option<i64>) -> String {
    n.map(|n| n.to_string()).unwrap_or_default()
}

/// `GET /api/classes/{id}/progress?from=&to=&tz=&format=`: every active
/// pupil's line over the period (teachers only), as JSON or, with
/// `format=csv`, as a CSV file with Spanish headers.
async fn progress(
    State(hub): State<Arc<Hub>>,
    Teaching { class, .. }: Teaching,
    q: Result<Query<ProgressQuery>, QueryRejection>,
) -> ApiResult {
    let id = class.id.clone();
    let Query(q) = q?;
    let csv = match q.format.as_deref() {
        None | Some("json") => false,
        Some("csv") => true,
        Some(other) => {
            return Err(ApiError::bad(
                "bad_format",
                format!("formato desconocido «{other}» (json, csv)"),
                format!("unknown format '{other}' (json, csv)"),
            ))
        }
    };
    let p = period(q.from.as_deref(), q.to.as_deref(), q.tz, store::now_ms())?;
    let mut lines = Vec::new();
    for pupil in hub.store.class_pupils(&id, false).await? {
        let games = hub
            .store
            .games_ended_between(&format!("u:{}", pupil.user_id), p.from_ms, p.to_ms)
            .await?;
        let s = summarise(&games)?;
        let course = crate::aprender::summary(&hub.store, &pupil.user_id).await?;
        lines.push((pupil, s, course));
    }
    let (from, to) = (format_day(p.from), format_day(p.to));
    if csv {
        // A byte-order mark, so that a spreadsheet reads the accents.
        let mut out = String::from("\u{feff}");
        out.push_str(
            "Alumno,Nombre,Partidas,Ganadas,Tablas,Perdidas,Minutos jugados,\
             Puntuación antes,Puntuación después,Cambio,Torneos,Ritmo,\
             Estrellas del curso,Ejercicios del curso\r\n",
        );
        for (pupil, s, course) in &lines {
            let _ = write!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\r\n",
                csv_field(&pupil.name),
                csv_field(&pupil.real_name),
                s.games,
                s.wins,
                s.draws,
                s.losses,
                (s.time_played_ms + 30_000) / 60_000,
                opt(s.rating_before),
                opt(s.rating_after),
                opt(s.rating_change()),
                s.tournaments,
                s.perf.as_deref().unwrap_or(""),
                course.0,
                course.1,
            );
        }
        return Ok((
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!(
                        "attachment; filename=\"progreso-{}-{from}-{to}.csv\"",
                        class.id
                    ),
                ),
            ],
            out,
        )
            .into_response());
    }
    let pupils: Vec<wire::ProgressLine> = lines
        .iter()
        .map(|(pupil, s, course)| wire::ProgressLine {
            name: pupil.name.clone(),
            real_name: pupil.real_name.clone(),
            games: s.games,
            wins: s.wins,
            draws: s.draws,
            losses: s.losses,
            time_played_ms: s.time_played_ms,
            rating_before: s.rating_before,
            rating_after: s.rating_after,
            rating_change: s.rating_change(),
            tournaments: s.tournaments,
            perf: s.perf.clone(),
            course_stars: course.0,
            course_solved: course.1,
        })
        .collect();
    Ok(Json(wire::Progress {
        class: wire::ClassRef {
            id: class.id,
            name: class.name,
        },
        from,
        to,
        pupils,
    })
    .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(result: &str, white: bool, perf: Option<(&str, i64, Option<i64>)>) -> PlayedGame {
        PlayedGame {
            game: "g".into(),
            white,
            result: result.into(),
            created_ms: 1_000,
            ended_ms: 61_000,
            perf: perf.map(|p| p.0.to_string()),
            rating: perf.map(|p| p.1),
            rating_diff: perf.and_then(|p| p.2),
            tournament: None,
        }
    }

    #[test]
    fn days_read_and_write_back() {
        assert_eq!(parse_day("2000-01-01"), Some(10_957));
        assert_eq!(
            parse_day("2026-11-24").map(format_day).as_deref(),
            Some("2026-11-24")
        );
        assert_eq!(
            parse_day("2024-02-29").map(format_day).as_deref(),
            Some("2024-02-29")
        );
        for bad in [
            "2023-02-29",
            "2026-13-01",
            "2026-00-10",
            "26-11-24",
            "2026/11/24",
            "1999-12-31",
            "2026-1-024",
            "+026-11-24",
            "",
        ] {
            assert_eq!(parse_day(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_period_is_whole_days_of_the_teachers_zone() {
        let now = parse_day("2026-11-24").unwrap() * DAY_MS + 3_600_000; // 01:00 UTC
        let p = period(None, None, None, now).unwrap();
        assert_eq!(format_day(p.to), "2026-11-24");
        assert_eq!(p.to - p.from, 29);
        // 01:00 UTC is still the 23rd in Buenos Aires (UTC−3).
        let p = period(None, None, Some(-180), now).unwrap();
        assert_eq!(format_day(p.to), "2026-11-23");
        assert_eq!(
            p.to_ms,
            parse_day("2026-11-24").unwrap() * DAY_MS + 3 * 3_600_000
        );
        let p = period(Some("2026-11-01"), Some("2026-11-01"), None, now).unwrap();
        assert_eq!(p.to_ms - p.from_ms, DAY_MS);
        for (f, t, tz) in [
            (Some("2026-11-02"), Some("2026-11-01"), None),
            (Some("ayer"), None, None),
            (Some("2000-01-01"), Some("2026-01-01"), None),
            (None, None, Some(900)),
        ] {
            let e = period(f, t, tz, now).unwrap_err();
            assert_eq!(e.code(), "bad_period");
        }
    }

    #[test]
    fn a_summary_counts_scores_time_tournaments_and_the_main_pool() {
        let mut g = vec![
            game("1-0", true, None),
            game("1-0", false, Some(("blitz", 1500, Some(-10)))),
            game("1/2-1/2", true, Some(("rapid", 1400, Some(5)))),
            game("0-1", false, Some(("blitz", 1490, Some(12)))),
            // Not applied yet: the rating after is the last applied one.
            game("0-1", true, Some(("blitz", 1502, None))),
        ];
        g[0].tournament = Some("T1".into());
        g[3].tournament = Some("T1".into());
        g[4].tournament = Some("T2".into());
        let s = summarise(&g).unwrap();
        assert_eq!((s.games, s.wins, s.draws, s.losses), (5, 2, 1, 2));
        assert_eq!(s.time_played_ms, 5 * 60_000);
        assert_eq!(s.tournaments, 2);
        assert_eq!(s.perf.as_deref(), Some("blitz"));
        assert_eq!(s.rating_before, Some(1500));
        assert_eq!(s.rating_after, Some(1502));
        assert_eq!(s.rating_change(), Some(2));
        // No rated game: no pool, no ratings.
        let s = summarise(&g[..1]).unwrap();
        assert_eq!(
            (s.perf.clone(), s.rating_before, s.rating_change()),
            (None, None, None)
        );
        assert!(summarise(&[game("*", true, None)]).is_err());
    }

    #[test]
    fn default_rounds_leave_one_winner() {
        assert_eq!(
            [2, 3, 4, 5, 6, 8, 9, 12, 30, 100].map(default_rounds),
            [1, 2, 2, 3, 3, 3, 4, 4, 5, 7]
        );
    }

    #[test]
    fn csv_fields_are_quoted_and_never_formulas() {
        assert_eq!(csv_field("Ana"), "Ana");
        assert_eq!(csv_field("Pérez, Ana"), "\"Pérez, Ana\"");
        assert_eq!(csv_field("Ana \"la\" Gil"), "\"Ana \"\"la\"\" Gil\"");
        assert_eq!(csv_field("=1+1"), "'=1+1");
        assert_eq!(csv_field("-2,3"), "\"'-2,3\"");
    }
}
