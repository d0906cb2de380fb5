//! The homework routes' bodies and answers (`/api/classes/{id}/tareas…`,
//! `/api/familia/{token}…`; docs/protocol.md "Tareas", issue 57).

use serde::{Deserialize, Serialize};

/// `POST /api/classes/{id}/tareas`: a new homework.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NewHomework {
    /// The title (1 to 80 characters).
    pub title: String,
    /// When it is due (wall clock, ms since 1970).
    pub due_ms: i64,
    /// Whether a later attempt counts (otherwise only the first one).
    #[serde(default)]
    pub retry: bool,
    /// The pupils (account names) it is for; absent: the whole class.
    #[serde(default)]
    pub pupils: Option<Vec<String>>,
    /// The items, in order (1 to 40 once drawn puzzles are counted).
    pub items: Vec<NewItem>,
}

/// One item of a new homework.
#[derive(Debug, Deserialize, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum NewItem {
    /// One puzzle of the shipped sets, by id.
    Puzzle {
        /// The puzzle's id.
        id: String,
    },
    /// Puzzles drawn from the shipped sets by theme and rating range.
    Puzzles {
        /// A theme key (`mateIn1`, `fork`…); absent: any theme.
        #[serde(default)]
        theme: Option<String>,
        /// Lowest rating (absent: no floor).
        #[serde(default)]
        min_rating: Option<i32>,
        /// Highest rating (absent: no ceiling).
        #[serde(default)]
        max_rating: Option<i32>,
        /// How many (1 to 20); each becomes one item.
        count: u32,
    },
    /// A puzzle found in the analysed game of one of the class's pupils
    /// (`GET /api/classes/{id}/problemas-partidas`), by id.
    GamePuzzle {
        /// The puzzle's id.
        id: String,
    },
    /// A stage of the course "Aprende a jugar", by id.
    Stage {
        /// The stage's id (`torre`, `enroque`…).
        stage: String,
    },
    /// Coordinates: `count` right answers in a row of the trainer.
    Coords {
        /// `buscar` (touch the square named) or `nombrar` (name the square
        /// shown).
        mode: String,
        /// Right answers needed (1 to 50).
        count: u32,
    },
    /// A game against the engine at a level with a goal.
    EngineGame {
        /// The engine's level (1 to 10); a stronger level counts too.
        level: u8,
        /// `gana_blancas` (win with White), `gana_negras` (win with
        /// Black), `tablas` (a draw or better).
        goal: String,
    },
    /// A position to play out against the engine.
    Position {
        /// The position (FEN), the pupil moving first.
        fen: String,
        /// The engine's level (1 to 10).
        level: u8,
        /// `gana` (win it) or `tablas` (a draw or better).
        goal: String,
    },
}

/// `201` to `POST /api/classes/{id}/tareas`.
#[derive(Debug, Serialize)]
pub struct HomeworkCreated {
    /// The homework's id.
    pub id: String,
    /// How many items it has (drawn puzzles counted one by one).
    pub items: usize,
}

/// One homework in `GET /api/classes/{id}/tareas`.
#[derive(Debug, Serialize)]
pub struct HomeworkSummary {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// When it is due (ms).
    pub due_ms: i64,
    /// Whether a later attempt counts.
    pub retry: bool,
    /// Items.
    pub items: usize,
    /// Items the asking pupil has still to do (a teacher: `null`).
    pub left: Option<usize>,
    /// The due time has passed.
    pub overdue: bool,
}

/// `GET /api/classes/{id}/tareas`: the class's homework (a pupil: the
/// homework set for it), newest first.
#[derive(Debug, Serialize)]
pub struct HomeworkList {
    /// The caller's role: `teacher` or `pupil`.
    pub role: &'static str,
    /// The homework.
    pub homework: Vec<HomeworkSummary>,
}

/// One item as shown.
#[derive(Debug, Serialize)]
pub struct ItemView {
    /// Its place (from 0).
    pub idx: usize,
    /// `puzzle`, `stage`, `coords`, `engine_game` or `position`.
    pub kind: &'static str,
    /// What is asked, in Spanish.
    pub es: String,
    /// What is asked, in English.
    pub en: String,
    /// The puzzle's id, the stage's id, or the coordinates' mode.
    pub reference: Option<String>,
    /// The position to start from (a puzzle: before the opponent's move;
    /// a position to play out).
    pub fen: Option<String>,
    /// A puzzle: the opponent's move that starts it (UCI).
    pub first: Option<String>,
    /// A puzzle: how many moves the solver makes.
    pub solver_moves: Option<usize>,
    /// Coordinates: right answers needed; the squares' seed.
    pub count: Option<u32>,
    /// Coordinates: the seed of the squares asked.
    pub seed: Option<u64>,
    /// A game: the engine's level.
    pub level: Option<u8>,
    /// A game: the goal's id.
    pub goal: Option<String>,
    /// The asking pupil's cell: `first_try`, `after_help`, `failed`,
    /// `not_done` (a teacher: `null`).
    pub state: Option<&'static str>,
    /// The asking pupil's attempts at it (a teacher: 0).
    pub attempts: usize,
}

/// `GET /api/classes/{id}/tareas/{hw}`.
#[derive(Debug, Serialize)]
pub struct HomeworkView {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Due (ms).
    pub due_ms: i64,
    /// Whether a later attempt counts.
    pub retry: bool,
    /// Due time passed.
    pub overdue: bool,
    /// The pupils it is for (account names); the whole class: `null`. A
    /// pupil: `null`.
    pub pupils: Option<Vec<String>>,
    /// The items.
    pub items: Vec<ItemView>,
    /// Items the asking pupil has still to do (a teacher: `null`).
    pub left: Option<usize>,
}

/// One try at an exercise of a course stage.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum Try {
    /// A move on the board.
    Move {
        /// Origin square (`e2`).
        from: String,
        /// Destination square.
        to: String,
        /// Promotion piece, Spanish letter (`D`, `T`, `A`, `C`).
        #[serde(default)]
        promotion: Option<String>,
    },
    /// A square touched.
    Square {
        /// The square.
        sq: String,
    },
    /// Typed text.
    Text {
        /// The text.
        text: String,
    },
    /// An option chosen (from 0).
    Choice {
        /// The option.
        n: usize,
    },
}

/// `POST /api/classes/{id}/tareas/{hw}/items/{n}/intentos`: one finished
/// attempt; the field the item's kind reads must be there.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptBody {
    /// A puzzle: the solver's moves in order, UCI (`e2e4`, `e7e8q`); it
    /// ends at the first wrong one, or before the end when the pupil gave
    /// up.
    #[serde(default)]
    pub moves: Option<Vec<String>>,
    /// A course stage: for each exercise in order, the tries the pupil made
    /// (refused ones included).
    #[serde(default)]
    pub tries: Option<Vec<Vec<Try>>>,
    /// Coordinates: the squares touched (`buscar`) or named (`nombrar`),
    /// in order.
    #[serde(default)]
    pub answers: Option<Vec<String>>,
    /// A game against the engine or a position played out: the game's id.
    #[serde(default)]
    pub game: Option<String>,
    /// Time the pupil's page counted (ms).
    #[serde(default)]
    pub time_ms: u64,
    /// Hints the pupil asked for.
    #[serde(default)]
    pub hints: u32,
}

/// `201` to an attempt: stored (on disk) and judged.
#[derive(Debug, Serialize)]
pub struct AttemptAck {
    /// The attempt's id.
    pub attempt: String,
    /// Solved.
    pub solved: bool,
    /// Solved without a mistake or a hint.
    pub clean: bool,
    /// Whether it counts in the teacher's grid (a later attempt counts
    /// only when the teacher allowed a second try).
    pub counts: bool,
    /// The pupil's cell for the item now.
    pub state: &'static str,
    /// The judge's words, Spanish.
    pub es: String,
    /// The judge's words, English.
    pub en: String,
    /// Items still to do.
    pub left: usize,
}

/// One cell of the grid.
#[derive(Debug, Serialize, PartialEq, Eq, Clone)]
pub struct Cell {
    /// `first_try`, `after_help`, `failed`, `not_done`.
    pub state: &'static str,
    /// Not done by the due time, or done after it.
    pub overdue: bool,
    /// The attempt that counts (open it with the attempt route).
    pub attempt: Option<String>,
    /// Attempts made.
    pub attempts: usize,
}

/// One item's column of the grid.
#[derive(Debug, Serialize)]
pub struct GridItem {
    /// Its place.
    pub idx: usize,
    /// Short label (`P1 mateIn1`, `Etapa torre`).
    pub label: String,
    /// The item's average over the pupils, 0 to 100 (first try 100, after
    /// help 50, failed or not done 0).
    pub average: u32,
}

/// One pupil's row of the grid.
#[derive(Debug, Serialize)]
pub struct GridRow {
    /// Account name.
    pub name: String,
    /// Real name (the grid is the teachers').
    pub real_name: String,
    /// One cell per item.
    pub cells: Vec<Cell>,
    /// The pupil's average, 0 to 100.
    pub average: u32,
}

/// `GET /api/classes/{id}/tareas/{hw}/grid`: pupils × items.
#[derive(Debug, Serialize)]
pub struct Grid {
    /// The homework's id.
    pub homework: String,
    /// Title.
    pub title: String,
    /// Due (ms).
    pub due_ms: i64,
    /// Due time passed.
    pub overdue: bool,
    /// The columns.
    pub items: Vec<GridItem>,
    /// The rows, in the order of the real names.
    pub pupils: Vec<GridRow>,
}

/// `GET …/intentos/{attempt}`: one attempt, move by move.
#[derive(Debug, Serialize)]
pub struct AttemptView {
    /// Id.
    pub id: String,
    /// The pupil (account name).
    pub pupil: String,
    /// The item's place.
    pub idx: usize,
    /// The item's kind.
    pub kind: &'static str,
    /// When it came (ms).
    pub at_ms: i64,
    /// Time counted (ms).
    pub time_ms: i64,
    /// Hints asked for.
    pub hints: i64,
    /// Solved.
    pub solved: bool,
    /// Solved without a mistake or a hint.
    pub clean: bool,
    /// Where the moves start (FEN), for a replay.
    pub fen: Option<String>,
    /// The moves from `fen` in UCI: a puzzle's opponent moves included.
    pub moves: Vec<String>,
    /// The same moves in Spanish notation (`Cf3`, `exd6 a.p.`, `e8=D`).
    pub san: Vec<String>,
    /// The position (FEN) after each of `moves`, for a page that replays
    /// the attempt without any rules of its own.
    pub fens: Vec<String>,
    /// A stage: each exercise's stars (`null`: not met) and tries.
    pub exercises: Vec<ExerciseResult>,
    /// Coordinates: the answers.
    pub answers: Vec<String>,
    /// A game: its id.
    pub game: Option<String>,
    /// The judge's words, Spanish.
    pub es: String,
    /// The judge's words, English.
    pub en: String,
}

/// One exercise of a stage attempt.
#[derive(Debug, Serialize, Deserialize, Clone)]
pub struct ExerciseResult {
    /// The exercise (from 0).
    pub exercise: usize,
    /// Stars earned (1 to 3), `null` if not met.
    pub stars: Option<u8>,
    /// Tries made.
    pub tries: usize,
}

/// `201` to `POST /api/classes/{id}/pupils/{name}/familia`: a parent's
/// read-only link.
#[derive(Debug, Serialize)]
pub struct ParentLink {
    /// The token.
    pub token: String,
    /// The page's path (`/familia/{token}`).
    pub path: String,
}

/// `POST /api/classes/{id}/pupils/{name}/familia/revocar`.
#[derive(Debug, Serialize)]
pub struct Revoked {
    /// Links revoked.
    pub revoked: u64,
}

/// One homework on a parent's page.
#[derive(Debug, Serialize)]
pub struct ParentHomework {
    /// Id.
    pub id: String,
    /// Title.
    pub title: String,
    /// Due (ms).
    pub due_ms: i64,
    /// The items' labels.
    pub labels: Vec<String>,
    /// The pupil's cells, one per item.
    pub cells: Vec<Cell>,
}

/// One finished game on a parent's page.
#[derive(Debug, Serialize)]
pub struct ParentGame {
    /// The game's id.
    pub game: String,
    /// The pupil had White.
    pub white: bool,
    /// PGN result.
    pub result: String,
    /// When it ended (ms).
    pub ended_ms: i64,
}

/// `GET /api/familia/{token}`: one pupil, read only.
#[derive(Debug, Serialize)]
pub struct ParentView {
    /// The pupil's account name.
    pub pupil: String,
    /// The class's name.
    pub class_name: String,
    /// The homework set for the pupil, newest first.
    pub homework: Vec<ParentHomework>,
    /// Course stages the pupil completed in homework.
    pub stages_done: Vec<String>,
    /// The pupil's finished games of the last 30 days, newest first.
    pub games: Vec<ParentGame>,
}

/// `POST /api/games`'s `homework`: the game is that homework item's (a
/// game against the engine or a position to play out), allowed while
/// "juego tras la tarea" holds free play.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct HomeworkGame {
    /// The class's id.
    pub class: String,
    /// The homework's id.
    pub homework: String,
    /// The item's place (from 0).
    pub item: usize,
}

/// `POST /api/classes/{id}/juego-tras-tarea`: the teacher turns the
/// option on or off.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlayAfterBody {
    /// On: free play waits for the pupil's open homework.
    pub on: bool,
}

/// `GET`/`POST /api/classes/{id}/juego-tras-tarea`.
#[derive(Debug, Serialize)]
pub struct PlayAfterView {
    /// The option is on.
    pub on: bool,
}

/// One homework that holds a pupil's free play.
#[derive(Debug, Serialize)]
pub struct PendingHomework {
    /// Its id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// When it is due (ms).
    pub due_ms: i64,
    /// Items the pupil has still to do.
    pub left: usize,
}

/// `GET /api/me/juego`: whether the asker may start a free game.
#[derive(Debug, Serialize)]
pub struct PlayState {
    /// The asker's class has "juego tras la tarea" on (false for anybody
    /// who is not a pupil).
    pub play_after_homework: bool,
    /// Free play is held until `pending` is done.
    pub locked: bool,
    /// The pupil's class (with the option on).
    pub class: Option<String>,
    /// The open homework left, soonest due first.
    pub pending: Vec<PendingHomework>,
    /// Why, in Spanish (empty when the option is off).
    pub es: String,
    /// Why, in English.
    pub en: String,
}

/// One puzzle found in a pupil's analysed game, on the teacher's form
/// (`GET /api/classes/{id}/problemas-partidas`).
#[derive(Debug, Serialize)]
pub struct GamePuzzle {
    /// The puzzle's id (`NewItem::GamePuzzle`'s `id`).
    pub id: String,
    /// The pupil who solves it (account name): the one who could have won
    /// there.
    pub pupil: String,
    /// The pupil's real name (the teachers').
    pub real_name: String,
    /// The game it was found in.
    pub game: String,
    /// The move of the game where it starts: its number (1, 2…) and side,
    /// in Spanish notation (`23. Cf3`, `23… exd4`) — the opponent's move
    /// the pupil had to answer.
    pub moved: String,
    /// The ply (from 0) of that move.
    pub ply: i64,
    /// Its rating.
    pub rating: i32,
    /// Theme keys.
    pub themes: Vec<String>,
    /// What the form shows, Spanish.
    pub es: String,
    /// What the form shows, English.
    pub en: String,
}

/// `GET /api/classes/{id}/problemas-partidas`: the puzzles found in the
/// games of the class's pupils, newest game first.
#[derive(Debug, Serialize)]
pub struct GamePuzzles {
    /// The puzzles.
    pub puzzles: Vec<GamePuzzle>,
}

/// `POST /api/classes/{id}/tareas/{hw}/items/{n}/jugada`: a puzzle item
/// played on the pupil's page (the puzzles of the class's games, which the
/// trainer serves only to their own player): the moves so far, judged and
/// answered, nothing stored. The attempt is handed in afterwards.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct StepBody {
    /// The solver's moves so far (UCI); none: the start.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Ask for a hint at this point (the piece to move).
    #[serde(default)]
    pub hint: bool,
}

/// The answer to a step.
#[derive(Debug, Serialize)]
pub struct StepAnswer {
    /// `continue`, `solved` or `failed`.
    pub state: &'static str,
    /// The position shown (FEN, before the opponent's first move).
    pub fen: String,
    /// The opponent's first move (UCI).
    pub first_move: String,
    /// The solver's side: `white` or `black`.
    pub solver: &'static str,
    /// The opponent's reply to the last move (`continue`), UCI.
    pub reply: Option<String>,
    /// The solver's legal moves now, origin square → destinations
    /// (`continue`).
    pub legal: std::collections::BTreeMap<String, Vec<String>>,
    /// The hint's square (the piece to move), when asked.
    pub hint: Option<String>,
    /// The hint's piece, Spanish (`caballo`).
    pub piece_es: Option<String>,
    /// The hint's piece, English.
    pub piece_en: Option<String>,
}
