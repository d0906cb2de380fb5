//! Online play of a tournament (issue 24): the games of a paired round, the
//! players taken to them, results from finished games, the automatic next
//! round after a countdown, and the players' own actions (join, leave,
//! roll call).
//!
//! * A round's games are made by [`games_for_round`] and stored by the
//!   service in the pairing's transaction; [`round_started`] then tells each
//!   player `your_game` (with the seat's secret, privately) on the
//!   tournament's socket and on the lobby's.
//! * A game's task tells [`game_ended`] its result (a no-show is a forfeit,
//!   see `actor::tournament`); the service stores it and calls
//!   [`result_recorded`], which starts the countdown to the next round when
//!   the round is complete and the organiser chose automatic pairing.
//! * [`resume`] (on start) records the results of games that ended while
//!   the server was going down and starts again any countdown due.
//!
//! The online team tournament (`crate::equipos::online`) plays its boards
//! through the same pieces: [`board_game`] makes a board's game,
//! [`tell_seats`] takes its players to it, [`tournament_outcome`] and
//! [`finished_outcome`] read its result, [`end_running_game`] ends it with
//! the organiser's result, and [`Countdowns::results_turn`] records one
//! result at a time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use escaque::{Color, GameResult, RuleSet, Termination, TimeControl};
use escaque_torneo::{ByeKind, Outcome, Unusual};

use super::{Entered, Loaded, Who};
use crate::error::{ApiError, Kind};
use crate::games::{self, ColorChoice, GameSpec, Settings};
use crate::lobby::Fanout;
use crate::proto::lobby::YourGame;
use crate::proto::tournaments::Countdown;
use crate::proto::{ErrorCode, Out};
use crate::store::{self, Ending, GameRow, TournamentLink};
use crate::tournament::fanout::TournamentFanout;
use crate::{Created, Hub, Seat};

/// One board's game of a round being paired.
#[derive(Clone, Debug)]
pub struct BoardGame {
    /// Board number (1-based).
    pub board: u32,
    /// The game's row, stored with the round.
    pub row: GameRow,
    /// Its seats' secrets.
    pub created: Created,
}

/// The countdowns to automatic pairings running in this process, by
/// tournament: the round they will pair and when; and, by tournament, the
/// turn of the games whose results are being recorded (one at a time: the
/// games of a round that end together would otherwise race for the
/// tournament's version and retry).
#[derive(Default)]
pub struct Countdowns {
    map: Mutex<HashMap<String, (u32, Instant)>>,
    results: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl Countdowns {
    /// Milliseconds left before `tournament`'s next round is paired, if a
    /// countdown runs.
    pub fn ms_left(&self, tournament: &str) -> Option<(u32, u64)> {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.get(tournament).map(|(round, at)| {
            (
                *round,
                at.saturating_duration_since(Instant::now()).as_millis() as u64,
            )
        })
    }

    /// Starts a countdown unless one runs for this tournament already.
    fn start(&self, tournament: &str, round: u32, at: Instant) -> bool {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        if map.contains_key(tournament) {
            return false;
        }
        map.insert(tournament.to_string(), (round, at));
        true
    }

    /// The turn of `tournament`'s results: held while one is recorded.
    pub fn results_turn(&self, tournament: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut map = self.results.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(map.entry(tournament.to_string()).or_default())
    }

    fn end(&self, tournament: &str) {
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(tournament);
    }
}

/// The games to create with round `round` of an online event (stored in
/// the pairing's transaction): one per board, with the tournament's clock
/// and rules, each seat the identity that entered the player (a player the
/// organiser entered without one cannot sit down, and loses by no-show).
pub async fn games_for_round(
    hub: &Arc<Hub>,
    l: &Loaded,
    round: u32,
) -> Result<Vec<BoardGame>, ApiError> {
    if l.row.mode != "online" {
        return Ok(Vec::new());
    }
    let Some(r) = round
        .checked_sub(1)
        .and_then(|i| l.t.rounds.get(i as usize))
    else {
        return Ok(Vec::new());
    };
    let rules = RuleSet::from_id(&l.settings.rules).unwrap_or_default();
    let time_control = l
        .settings
        .time_control
        .as_deref()
        .and_then(|t| TimeControl::parse(t).ok());
    let mut boards = Vec::new();
    let seat = |id: u32| {
        let name =
            l.t.players
                .get(id as usize - 1)
                .map(|p| p.name.clone())
                .unwrap_or_default();
        let owner = l
            .players
            .iter()
            .find(|p| p.number == id)
            .and_then(|p| p.owner.clone())
            .unwrap_or_default();
        Seat::Person { owner, name }
    };
    for (i, g) in r.games.iter().enumerate() {
        let (row, created) = board_game(
            hub,
            rules,
            time_control.clone(),
            [seat(g.white), seat(g.black)],
            l.settings.rated,
            l.row.class_id.clone(),
        )
        .await?;
        boards.push(BoardGame {
            board: i as u32 + 1,
            row,
            created,
        });
    }
    Ok(boards)
}

/// One tournament board's game, neither stored nor started (an individual
/// or a team round stores all its games with the round): the event's
/// rules and clock from the start position, `[white, black]` seated (a
/// seat without an owner cannot be taken, and loses by no-show), rated
/// when the event is and both seats are accounts.
pub async fn board_game(
    hub: &Arc<Hub>,
    rules: RuleSet,
    time_control: Option<TimeControl>,
    [white, black]: [Seat; 2],
    rated: bool,
    class_id: Option<String>,
) -> Result<(GameRow, Created), ApiError> {
    let accounts = [&white, &black]
        .iter()
        .all(|s| matches!(s, Seat::Person { owner, .. } if owner.starts_with("u:")));
    let settings = Settings {
        rules,
        time_control,
        rated: rated && accounts,
        class_id,
    };
    let (game, _) = games::build(
        &GameSpec::standard(ColorChoice::White),
        white,
        black,
        settings,
    )?;
    let (mut row, created) = Hub::prepare_game(game);
    crate::rating::fill_new_game(&hub.store, &mut row).await?;
    Ok((row, created))
}

/// Tells each seated player of a board's game, privately on the lobby's
/// socket (and on `watchers`' tournament socket when given), the message
/// that takes them to it: `your_game` with the seat and its secret, as
/// `fill` completes it (the tournament, round, board).
pub fn tell_seats(
    hub: &Arc<Hub>,
    row: &GameRow,
    created: &Created,
    watchers: Option<&str>,
    fill: impl Fn(YourGame) -> YourGame,
) {
    for color in [Color::White, Color::Black] {
        let owner = color.fold(&row.white_owner, &row.black_owner);
        let Some(owner) = owner.as_deref().filter(|o| !o.is_empty()) else {
            continue;
        };
        let Some(secret) = created.secret(color) else {
            continue;
        };
        let msg = fill(YourGame::new(
            &created.game,
            color.fold("white", "black"),
            secret,
        ));
        let msg: Out = Arc::from(msg.to_text());
        if let Some(t) = watchers {
            hub.tournaments.tell_owner(t, owner, Arc::clone(&msg));
        }
        hub.lobby.tell_owner(owner, msg);
    }
}

/// The tournament result of game `game` if it has ended (its stored
/// ending and its moves: [`tournament_outcome`]); `None` while it is
/// played, or unknown.
pub async fn finished_outcome(hub: &Arc<Hub>, game: &str) -> Option<Outcome> {
    let row = hub.store.game(game).await.ok()??;
    let ending = row.end?;
    let plies = hub.store.moves(game).await.map(|m| m.len()).unwrap_or(0);
    tournament_outcome(&ending, plies)
}

/// Ends game `game`, if it is still being played, with the organiser's
/// `outcome` (its task then hands exactly that result to its tournament):
/// true when it did; false when the game was over already (a correction
/// is then the caller's to record).
pub async fn end_running_game(
    hub: &Arc<Hub>,
    game: &str,
    outcome: Outcome,
) -> Result<bool, ApiError> {
    if outcome == Outcome::Pending {
        return Ok(false);
    }
    let playing = matches!(hub.store.game(game).await?, Some(r) if r.status != "over");
    if !playing {
        return Ok(false);
    }
    match hub.set_game_result(game, outcome).await {
        Some(Ok(())) => Ok(true),
        // Ended meanwhile: a correction.
        Some(Err(ErrorCode::GameOver)) | None => Ok(false),
        Some(Err(e)) => Err(e.into()),
    }
}

/// The tournament result of a finished game: a forfeit when the loser
/// never moved (a no-show, `Abandoned` before that side's first move),
/// otherwise the game's score. `None` for a game without a score (aborted).
pub fn tournament_outcome(ending: &Ending, plies: usize) -> Option<Outcome> {
    if let Termination::Abandoned { by } = ending.termination {
        let never_moved = match by {
            Color::White => plies == 0,
            Color::Black => plies <= 1,
        };
        if never_moved && ending.result == Some(GameResult::win_for(by.other())) {
            return Some(match by {
                Color::White => Outcome::BlackForfeitWin,
                Color::Black => Outcome::WhiteForfeitWin,
            });
        }
    }
    Some(match ending.result? {
        GameResult::WhiteWins => Outcome::WhiteWins,
        GameResult::BlackWins => Outcome::BlackWins,
        GameResult::Draw => Outcome::Draw,
    })
}

/// Round `round` was stored with its games and they run: each player is
/// told privately, on the tournament's socket and on the lobby's (a player
/// on any page is taken to the game).
pub async fn round_started(hub: &Arc<Hub>, l: &Loaded, round: u32, boards: Vec<BoardGame>) {
    hub.countdowns.end(&l.row.id);
    for b in &boards {
        tell_seats(hub, &b.row, &b.created, Some(&l.row.id), |m| YourGame {
            tournament: Some(l.row.id.clone()),
            round: Some(round),
            board: Some(b.board),
            // A class's tournament: the class, as every class game's message has.
            class: l.row.class_id.clone(),
            ..m
        });
    }
}

/// A tournament game ended (its ending stored): its result goes to the
/// tournament. A result the organiser already set on the board stands.
pub async fn game_ended(hub: &Arc<Hub>, link: &TournamentLink, outcome: Outcome) {
    let turn = hub.countdowns.results_turn(&link.tournament);
    let _turn = turn.lock().await;
    let mut r = Ok(());
    // A change by the organiser at the same moment can still win the race
    // every time the service retries: the result is not dropped for that.
    for attempt in 0..20u64 {
        r = super::record_result(
            hub,
            &link.tournament,
            link.round,
            link.board,
            outcome,
            &Who::Server,
        )
        .await;
        match &r {
            Err(e) if e.1 == "conflict" => {
                tokio::time::sleep(Duration::from_millis(10 * (attempt + 1))).await;
            }
            _ => break,
        }
    }
    if let Err(e) = r {
        eprintln!(
            "escaque-server: torneo {} ronda {} tablero {}: {} / {}",
            link.tournament, link.round, link.board, e.2, e.3
        );
    }
}

/// A result of round `round` was stored: when it completes the last round
/// paired of an event with automatic pairing, the countdown to the next
/// round starts (and is told to the watchers).
pub async fn result_recorded(hub: &Arc<Hub>, l: &Loaded, round: u32) {
    if l.row.mode != "online" || !l.settings.auto_pair || round != l.t.rounds.len() as u32 {
        return;
    }
    let Ok(next) = l.t.next_round_number() else {
        return;
    };
    let delay = Duration::from_secs(l.settings.pair_delay_s.into());
    start_countdown(hub, &l.row.id, next, delay);
}

fn start_countdown(hub: &Arc<Hub>, id: &str, round: u32, delay: Duration) {
    if !hub.countdowns.start(id, round, Instant::now() + delay) {
        return;
    }
    let msg = Countdown {
        t: "countdown",
        round,
        ms: delay.as_millis() as u64,
    };
    let msg: Out = Arc::from(serde_json::to_string(&msg).unwrap_or_default());
    hub.tournaments.publish_all(id, msg);
    let weak: Weak<Hub> = Arc::downgrade(hub);
    let id = id.to_string();
    tokio::spawn(async move {
        tokio::time::sleep(delay).await;
        let Some(hub) = weak.upgrade() else { return };
        hub.countdowns.end(&id);
        // Refused when the organiser paired it first, or changed something
        // that makes the round not pairable: nothing to do then.
        if let Err(e) = super::pair_next(&hub, &id, &Who::Server).await {
            if e.1 != "round_not_complete" && e.1 != "tournament_over" {
                eprintln!("escaque-server: torneo {id}: {} / {}", e.2, e.3);
            }
        }
    });
}

/// On start: for every online event being played, the results of games
/// that ended while the server went down are recorded, and the countdown of
/// a complete round with automatic pairing starts again (from its full
/// length: the time the server was down counts for nothing).
pub async fn resume(hub: &Arc<Hub>) {
    let ids = match hub.store.running_online_tournaments().await {
        Ok(ids) => ids,
        Err(e) => {
            store::log_failure(&e);
            return;
        }
    };
    for id in ids {
        let Ok(l) = super::load(hub, &id).await else {
            continue;
        };
        let round = l.t.rounds.len() as u32;
        let games = hub.store.tournament_games(&id).await.unwrap_or_default();
        for g in games.iter().filter(|g| g.round == round) {
            let pending = l.t.rounds[round as usize - 1]
                .games
                .get(g.board as usize - 1)
                .is_some_and(|x| x.outcome == Outcome::Pending);
            if !pending {
                continue;
            }
            if let Some(outcome) = finished_outcome(hub, &g.game).await {
                let link = TournamentLink {
                    tournament: id.clone(),
                    round: g.round,
                    board: g.board,
                    no_show: Duration::ZERO,
                    team_table: None,
                };
                game_ended(hub, &link, outcome).await;
            }
        }
        if let Ok(l) = super::load(hub, &id).await {
            result_recorded(hub, &l, round).await;
        }
    }
}

// ---------------------------------------------------------------- players' own actions

/// Whether a player may still join: before the round `registration_until`
/// is paired (0: only before round 1), and never once the event is over.
pub fn registration_open(l: &Loaded) -> bool {
    let paired = l.t.rounds.len() as u32;
    paired < l.t.total_rounds && paired < l.settings.registration_until.max(1)
}

/// A late joiner's missed rounds: the half-point bye (`late_bye` = `half`)
/// or none (`zero`), in place of the zero the model gives a late entry.
pub fn late_byes(l: &mut Loaded, id: u32) {
    if l.settings.late_bye != "half" {
        return;
    }
    for r in &mut l.t.rounds {
        for b in &mut r.byes {
            if b.0 == id && b.1 == ByeKind::Zero {
                b.1 = ByeKind::Half;
            }
        }
    }
}

/// The organiser's result on a board of an online event: a game still
/// being played ends with it (its task hands the result to the tournament,
/// a forfeit as a forfeit); a finished game's result is corrected. The
/// caller has checked `who`'s right (the HTTP route's `Organising` guard);
/// a correction goes through [`super::change`], which checks it again.
pub async fn organiser_result(
    hub: &Arc<Hub>,
    id: &str,
    round: u32,
    board: u32,
    entered: Entered,
    who: &Who,
) -> Result<Option<&'static str>, ApiError> {
    let game = hub
        .store
        .tournament_games(id)
        .await?
        .into_iter()
        .find(|g| g.round == round && g.board == board);
    if let Some(g) = game {
        match entered {
            Entered::Standard(outcome) => {
                if end_running_game(hub, &g.game, outcome).await? {
                    return Ok(None);
                }
            }
            // An unusual result does not end a game: the game's own ending
            // would replace it. It is the arbiter's once the game is over.
            Entered::Unusual(u) => {
                if matches!(hub.store.game(&g.game).await?, Some(r) if r.status != "over") {
                    return Err(still_played(u));
                }
            }
        }
    }
    super::record_entered(hub, id, round, board, entered, who).await
}

/// `409 game_in_progress`: an unusual result on a board whose online game
/// is still being played.
fn still_played(u: Unusual) -> ApiError {
    ApiError::new(
        Kind::Conflict,
        "game_in_progress",
        format!(
            "la partida de esa mesa aún se juega: un resultado {} se anota cuando termine (o termínala con un resultado y corrígelo)",
            u.text()
        ),
        format!(
            "that board's game is still being played: a {} result is entered once it ends (or end it with a result and correct it)",
            u.text()
        ),
    )
}
