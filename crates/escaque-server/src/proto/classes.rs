//! The class routes' answers (`/api/classes…`, docs/protocol.md
//! "Classes"): the classes, a class's page, its pupils, notices and games.

use serde::{Deserialize, Serialize};

/// One of the caller's classes in `GET /api/classes`.
#[derive(Debug, Serialize)]
pub struct ClassItem {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Active pupils.
    pub pupils: i64,
    /// Archived.
    pub archived: bool,
    /// The caller's role: `teacher` or `pupil`.
    pub role: &'static str,
}

/// `GET /api/classes`.
#[derive(Debug, Serialize)]
pub struct ClassList {
    /// Whether the caller may create classes.
    pub may_teach: bool,
    /// The classes.
    pub classes: Vec<ClassItem>,
}

/// `201` to `POST /api/classes`.
#[derive(Debug, Serialize)]
pub struct ClassCreated {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// The class's login code.
    pub code: String,
}

/// A teacher, by account name.
#[derive(Debug, Serialize)]
pub struct TeacherItem {
    /// Account name.
    pub name: String,
}

/// `201` to `POST /api/classes/{id}/teachers`.
#[derive(Debug, Serialize)]
pub struct Teachers {
    /// Every teacher of the class.
    pub teachers: Vec<TeacherItem>,
}

/// A pupil on the class's page.
#[derive(Debug, Serialize)]
pub struct PupilItem {
    /// Account name.
    pub name: String,
    /// Online now (never for an archived pupil).
    pub online: bool,
    /// Milliseconds since last seen; `null` if not seen since the start.
    pub seen_ms_ago: Option<u64>,
    /// Archived.
    pub archived: bool,
    /// The game the pupil plays now, if any.
    pub playing: Option<String>,
    /// The real name, to the class's teachers only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub real_name: Option<String>,
}

/// A notice of the class's board.
#[derive(Debug, Serialize)]
pub struct NewsItem {
    /// Id.
    pub id: String,
    /// Author's account name.
    pub author: String,
    /// The text.
    pub text: String,
    /// Homework.
    pub homework: bool,
    /// When written (wall, ms).
    pub at_ms: i64,
}

/// `GET /api/classes/{id}/news`.
#[derive(Debug, Serialize)]
pub struct NewsList {
    /// Newest first.
    pub news: Vec<NewsItem>,
}

/// A game of the class on its page.
#[derive(Debug, Serialize)]
pub struct ClassGame {
    /// Game id.
    pub game: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// `waiting`, `playing`, `adjourned`, `over`.
    pub status: String,
    /// The result (PGN), once over.
    pub result: Option<&'static str>,
}

/// `GET /api/classes/{id}`.
#[derive(Debug, Serialize)]
pub struct ClassView {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// The caller's role: `teacher` or `pupil`.
    pub role: &'static str,
    /// Archived.
    pub archived: bool,
    /// The teachers.
    pub teachers: Vec<TeacherItem>,
    /// The pupils (archived ones to teachers only).
    pub pupils: Vec<PupilItem>,
    /// The latest notices.
    pub news: Vec<NewsItem>,
    /// The latest games.
    pub games: Vec<ClassGame>,
    /// The login code, to teachers only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// `POST /api/classes/{id}`.
#[derive(Debug, Serialize)]
pub struct ClassEdited {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Description.
    pub description: String,
    /// Archived.
    pub archived: bool,
}

/// `POST /api/classes/{id}/code`.
#[derive(Debug, Serialize)]
pub struct ClassCode {
    /// The new login code.
    pub code: String,
}

/// A pupil just added, with its password (shown once).
#[derive(Debug, Serialize)]
pub struct NewPupil {
    /// Generated account name.
    pub name: String,
    /// Real name.
    pub real_name: String,
    /// Generated password.
    pub password: String,
}

/// `201` to `POST /api/classes/{id}/pupils`.
#[derive(Debug, Serialize)]
pub struct NewPupils {
    /// The pupils added, in the order asked.
    pub pupils: Vec<NewPupil>,
}

/// `POST /api/classes/{id}/pupils/{name}`.
#[derive(Debug, Serialize)]
pub struct PupilEdited {
    /// Account name.
    pub name: String,
    /// Real name.
    pub real_name: String,
    /// Archived.
    pub archived: bool,
}

/// `POST /api/classes/{id}/pupils/{name}/password`.
#[derive(Debug, Serialize)]
pub struct PupilPassword {
    /// Account name.
    pub name: String,
    /// The new password.
    pub password: String,
}

/// `POST /api/classes/{id}/pupils/{name}/move`.
#[derive(Debug, Serialize)]
pub struct PupilMoved {
    /// Account name.
    pub name: String,
    /// The class the pupil is in now.
    pub class: String,
}

/// A finished game of a pupil, for its teacher.
#[derive(Debug, Serialize)]
pub struct PupilGame {
    /// Game id.
    pub game: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result (PGN).
    pub result: Option<&'static str>,
    /// How it ended (`state`'s `termination`).
    pub termination: Option<&'static str>,
    /// When it ended (wall, ms).
    pub ended_ms: i64,
    /// Its PGN's address.
    pub pgn: String,
}

/// `GET /api/classes/{id}/pupils/{name}/games`.
#[derive(Debug, Serialize)]
pub struct PupilGames {
    /// Newest first.
    pub games: Vec<PupilGame>,
}

/// `GET /api/classes/{id}/login`: what the class-code login page shows.
#[derive(Debug, Serialize)]
pub struct LoginPage {
    /// Class id.
    pub id: String,
    /// Class name.
    pub name: String,
    /// The active pupils' account names.
    pub pupils: Vec<String>,
}

/// `201` to `POST /api/classes/{id}/games`.
#[derive(Debug, Serialize)]
pub struct GameStarted {
    /// Game id.
    pub game: String,
    /// Its page.
    pub watch: String,
}

/// A class, by id and name.
#[derive(Debug, Serialize)]
pub struct ClassRef {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
}

/// `201` to `POST /api/classes/{id}/tournaments`.
#[derive(Debug, Serialize)]
pub struct TournamentStarted {
    /// The tournament.
    pub id: String,
    /// Its page.
    pub url: String,
    /// Its name.
    pub name: String,
    /// The round paired now (1).
    pub round: u32,
    /// Rounds planned.
    pub rounds: u32,
    /// The pupils in it, by account name.
    pub players: Vec<String>,
}

/// One of a class's tournaments.
#[derive(Debug, Serialize)]
pub struct ClassTournament {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Status.
    pub status: String,
    /// System id.
    pub system: &'static str,
    /// Rounds planned.
    pub rounds: u32,
    /// Rounds paired.
    pub round: usize,
    /// Players.
    pub players: usize,
    /// Its page.
    pub url: String,
    /// When created (wall, ms).
    pub created_ms: i64,
}

/// A pupil of the teacher's roster (the tournament form).
#[derive(Debug, Serialize)]
pub struct RosterPupil {
    /// Account name.
    pub name: String,
    /// Real name.
    pub real_name: String,
    /// Online now.
    pub online: bool,
}

/// `GET /api/classes/{id}/tournaments`.
#[derive(Debug, Serialize)]
pub struct ClassTournaments {
    /// The class.
    pub class: ClassRef,
    /// `teacher` or `pupil`.
    pub role: &'static str,
    /// Newest first.
    pub tournaments: Vec<ClassTournament>,
    /// The roster, to teachers only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pupils: Option<Vec<RosterPupil>>,
}

/// A pupil's line of the progress table.
#[derive(Debug, Serialize)]
pub struct ProgressLine {
    /// Account name.
    pub name: String,
    /// Real name.
    pub real_name: String,
    /// Finished games.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// Time played, ms.
    pub time_played_ms: i64,
    /// Rating at the period's start (its `perf`).
    pub rating_before: Option<i64>,
    /// Rating at its end.
    pub rating_after: Option<i64>,
    /// The change.
    pub rating_change: Option<i64>,
    /// Tournaments played in.
    pub tournaments: u32,
    /// The pool with most rated games.
    pub perf: Option<String>,
    /// Stars earned in the rules course, Aprende a jugar (all time).
    pub course_stars: u32,
    /// Exercises of the course solved.
    pub course_solved: u32,
}

/// `GET /api/classes/{id}/progress` (JSON).
#[derive(Debug, Serialize)]
pub struct Progress {
    /// The class.
    pub class: ClassRef,
    /// First day (YYYY-MM-DD).
    pub from: String,
    /// Last day.
    pub to: String,
    /// One line per pupil.
    pub pupils: Vec<ProgressLine>,
}

/// `POST /api/classes`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NewClass {
    /// The class's name.
    pub name: String,
    /// Its description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// `POST /api/classes/{id}/pupils`: `real_names` or `text`, one of them.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AddPupils {
    /// The real names, a list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub real_names: Option<Vec<String>>,
    /// The real names, one a line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// `POST /api/classes/{id}/login`: a pupil's code login.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CodeLogin {
    /// The pupil's account name.
    pub name: String,
    /// The class's code.
    pub code: String,
}
