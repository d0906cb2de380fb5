//! Tournaments (issue 24): the service over the `escaque_torneo` model.
//!
//! **The tournament is its TRF.** A tournament is stored as the
//! [`Tournament`] model written as TRF-2026 text; every change loads the
//! row, reads the text, applies the change with the model's own methods and
//! writes the text back, in one transaction guarded by the row's `version`
//! (optimistic: a change that lost the race is run again on the new state, a
//! few times, then refused with `409 conflict`). No pairing or standings
//! logic lives here: pairing is `escaque_torneo::pairing`, standings
//! `escaque_torneo::standings`. After every stored change the watchers of
//! `/ws/tournaments/{id}` get the new view ([`fanout`], [`view`]).
//!
//! Online play (the games of a round, forfeits, the automatic next round)
//! is [`online`]'s.

pub mod fanout;
pub mod online;
pub mod tiebreaks;
pub mod view;

use std::sync::Arc;

use escaque::{Lang, Localized};
use escaque_torneo::{pairing, trf, Outcome, TorneoError, Tournament, Unusual};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, Kind};
use crate::identity::Identity;
use crate::store::{self, PlayerLink, RoundGame, TournamentRow};
use crate::Hub;
use fanout::TournamentFanout;

/// How many times a change that lost the version race is run again.
const RETRIES: usize = 16;

/// The server's settings of a tournament (JSON in `tournaments.settings`);
/// every field has a default, so settings stored by an older release read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The games' clock in the text games use (`"10+5"`), if any.
    pub time_control: Option<String>,
    /// The rule set's id ([`escaque::RuleSet::id`]).
    pub rules: String,
    /// Online: pair the next round when the last game ends.
    pub auto_pair: bool,
    /// Countdown before automatic pairing, seconds.
    pub pair_delay_s: u32,
    /// Online: a player who has not moved by then loses by forfeit, seconds.
    pub no_show_s: u32,
    /// Online: joining is allowed until this round is paired (0: only
    /// before round 1).
    pub registration_until: u32,
    /// What a late joiner gets for the rounds missed: `half` or `zero`.
    pub late_bye: String,
    /// A Swiss accelerated by the Baku method (FIDE C.04.5.1): the
    /// accelerations are `escaque_torneo::baku::acceleration`'s, computed
    /// again before each round is paired (late entries).
    pub accelerated: bool,
    /// Online: the games are rated (those whose two seats are accounts;
    /// the event needs a clock and the FIDE 2023 rules).
    pub rated: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            time_control: None,
            rules: escaque::RuleSet::default().id().to_string(),
            auto_pair: false,
            pair_delay_s: 30,
            no_show_s: 120,
            registration_until: 0,
            late_bye: "half".to_string(),
            accelerated: false,
            rated: false,
        }
    }
}

/// Who asks for a change.
#[derive(Clone, Debug)]
pub enum Who {
    /// A person: changes only if they organise the tournament.
    Organiser(Identity),
    /// The server itself (an online result, an automatic pairing).
    Server,
}

/// A tournament read from storage: the row, the model, the settings, the
/// server's side of each player (index = start number − 1) and the
/// co-organisers.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The stored row (its `trf` is the text as read).
    pub row: TournamentRow,
    /// The model.
    pub t: Tournament,
    /// The settings.
    pub settings: Settings,
    /// One link per player, in start-number order.
    pub players: Vec<PlayerLink>,
    /// Co-organisers' identity keys (the owner is not listed).
    pub organisers: Vec<String>,
    /// Online: the game on each board of each round ([`online`]).
    pub games: Vec<store::BoardRow>,
    /// Online: the milliseconds left before the next round is paired
    /// automatically, while a countdown runs.
    pub countdown_ms: Option<u64>,
    /// The player links and co-organisers as storage holds them: a change
    /// that leaves them as they were does not write them again.
    stored: (Vec<PlayerLink>, Vec<String>),
}

impl Loaded {
    /// Whether identity `key` may change the tournament.
    pub fn can_edit(&self, key: &str) -> bool {
        self.row.owner == key || self.organisers.iter().any(|o| o == key)
    }

    /// The start number of identity `key`'s entry, if it plays.
    pub fn number_of(&self, key: &str) -> Option<u32> {
        self.players
            .iter()
            .find(|p| p.owner.as_deref() == Some(key))
            .map(|p| p.number)
    }

    /// One link per player of the model (new players get an empty one).
    fn sync_links(&mut self) {
        let n = self.t.players.len() as u32;
        self.players.retain(|p| p.number >= 1 && p.number <= n);
        for number in 1..=n {
            if !self.players.iter().any(|p| p.number == number) {
                self.players.push(PlayerLink {
                    number,
                    owner: None,
                    present: false,
                });
            }
        }
        self.players.sort_by_key(|p| p.number);
    }
}

/// `registration` before round 1, `finished` when every planned round has
/// every result, `running` in between.
pub fn status_of(t: &Tournament) -> &'static str {
    if t.rounds.is_empty() {
        "registration"
    } else if matches!(t.next_round_number(), Err(TorneoError::TournamentOver(_))) {
        "finished"
    } else {
        "running"
    }
}

// ---------------------------------------------------------------- errors

/// No tournament with that id.
pub fn not_found() -> ApiError {
    ApiError::new(
        Kind::NotFound,
        "no_such_tournament",
        "no existe ese torneo",
        "there is no such tournament",
    )
}

/// Only the organiser and co-organisers change a tournament.
pub fn not_organiser() -> ApiError {
    ApiError::new(
        Kind::Forbidden,
        "not_organiser",
        "solo quien organiza el torneo puede cambiarlo",
        "only the tournament's organisers can change it",
    )
}

/// Others changed the tournament at the same moment, every try.
pub fn conflict() -> ApiError {
    ApiError::new(
        Kind::Conflict,
        "conflict",
        "el torneo cambió a la vez; inténtalo de nuevo",
        "the tournament changed at the same time; try again",
    )
}

/// The model refused: its own Spanish and English text.
pub fn refused(e: TorneoError) -> ApiError {
    let (kind, code) = match &e {
        TorneoError::RoundNotComplete { .. } => (Kind::Conflict, "round_not_complete"),
        TorneoError::TournamentOver(_) => (Kind::Conflict, "tournament_over"),
        TorneoError::NoPairing { .. } => (Kind::Conflict, "no_pairing"),
        TorneoError::RoundRobinStarted => (Kind::Conflict, "round_robin_started"),
        TorneoError::DuplicatePlayer { .. } => (Kind::Conflict, "duplicate_player"),
        TorneoError::NoSuchPlayer(_) => (Kind::NotFound, "no_such_player"),
        TorneoError::NoSuchRound(_) => (Kind::NotFound, "no_such_round"),
        TorneoError::NoSuchBoard { .. } | TorneoError::NoSuchGame { .. } => {
            (Kind::NotFound, "no_such_board")
        }
        TorneoError::Trf(_) => (Kind::Invalid, "bad_trf"),
        TorneoError::Domain(_) => (Kind::Invalid, "bad_field"),
        TorneoError::WouldNotReadBack(_) => (Kind::Invalid, "bad_trf"),
        _ => (Kind::Invalid, "tournament_refused"),
    };
    ApiError(kind, code, e.message(Lang::Es), e.message(Lang::En))
}

// ---------------------------------------------------------------- service

/// Reads a tournament.
pub async fn load(hub: &Arc<Hub>, id: &str) -> Result<Loaded, ApiError> {
    let row = hub.store.tournament(id).await?.ok_or_else(not_found)?;
    let t = trf::parse(&row.trf).map_err(|e| {
        crate::store::log_unreadable(&format!("torneo {id}"), "tournaments.trf", e);
        ApiError::internal()
    })?;
    let settings: Settings = serde_json::from_str(&row.settings).map_err(|e| {
        crate::store::log_unreadable(&format!("torneo {id}"), "tournaments.settings", e);
        ApiError::internal()
    })?;
    let players = hub.store.tournament_players(id).await?;
    let organisers = hub.store.tournament_organisers(id).await?;
    let (games, countdown_ms) = if row.mode == "online" {
        (
            hub.store.tournament_games(id).await?,
            hub.countdowns.ms_left(id).map(|(_, ms)| ms),
        )
    } else {
        (Vec::new(), None)
    };
    let mut l = Loaded {
        stored: (players.clone(), organisers.clone()),
        row,
        t,
        settings,
        players,
        organisers,
        games,
        countdown_ms,
    };
    l.sync_links();
    Ok(l)
}

fn check(who: &Who, l: &Loaded) -> Result<(), ApiError> {
    match who {
        Who::Server => Ok(()),
        Who::Organiser(me) => organised_by(l, me),
    }
}

/// The organiser's right: `me` owns or co-organises `l`, else `403
/// not_organiser`. The one check (issue 53): the `Organising` guard of the
/// HTTP routes, [`change`], and a domain's retry on a reloaded tournament.
pub fn organised_by(l: &Loaded, me: &Identity) -> Result<(), ApiError> {
    if l.can_edit(&me.key) {
        Ok(())
    } else {
        Err(not_organiser())
    }
}

/// Creates a tournament owned by `owner`; returns its id.
pub async fn create(
    hub: &Arc<Hub>,
    owner: &Identity,
    mode: &str,
    t: Tournament,
    settings: Settings,
) -> Result<String, ApiError> {
    create_in_class(hub, owner, mode, t, settings, None, Vec::new()).await
}

/// Creates a tournament owned by `owner` in class `class_id` (`None`: no
/// class), its players linked as `links` says (a player without a link
/// gets an empty one); returns its id. Only members of the class may join
/// a class's tournament (`crate::http::class_events`).
pub async fn create_in_class(
    hub: &Arc<Hub>,
    owner: &Identity,
    mode: &str,
    t: Tournament,
    settings: Settings,
    class_id: Option<String>,
    links: Vec<PlayerLink>,
) -> Result<String, ApiError> {
    let now = store::now_ms();
    let id = crate::new_id();
    let row = TournamentRow {
        id: id.clone(),
        name: t.name.clone(),
        owner: owner.key.clone(),
        mode: mode.to_string(),
        status: status_of(&t).to_string(),
        trf: trf::write_checked(&t).map_err(refused)?,
        settings: serde_json::to_string(&settings).map_err(|_| ApiError::internal())?,
        version: 1,
        created_ms: now,
        updated_ms: now,
        class_id,
    };
    let players: Vec<PlayerLink> = (1..=t.players.len() as u32)
        .map(|number| {
            links
                .iter()
                .find(|l| l.number == number)
                .cloned()
                .unwrap_or(PlayerLink {
                    number,
                    owner: None,
                    present: false,
                })
        })
        .collect();
    hub.store.insert_tournament(&row, &players).await?;
    Ok(id)
}

/// Stores `l` (changed from the version it was read at) with `games`;
/// false when somebody else changed it first.
async fn save(hub: &Arc<Hub>, l: &mut Loaded, games: &[RoundGame]) -> Result<bool, ApiError> {
    l.sync_links();
    let old = l.row.version;
    l.row.name = l.t.name.clone();
    l.row.status = status_of(&l.t).to_string();
    // Checked and read back before it replaces the stored row: a change
    // that would leave the tournament unreadable is refused, the row kept.
    l.row.trf = trf::write_checked(&l.t).map_err(refused)?;
    l.row.settings = serde_json::to_string(&l.settings).map_err(|_| ApiError::internal())?;
    l.row.version = old + 1;
    l.row.updated_ms = store::now_ms();
    let players = (l.players != l.stored.0).then_some(&l.players[..]);
    let organisers = (l.organisers != l.stored.1).then_some(&l.organisers[..]);
    let saved = hub
        .store
        .save_tournament(&l.row, old, players, organisers, games)
        .await?;
    if saved {
        l.stored = (l.players.clone(), l.organisers.clone());
    }
    Ok(saved)
}

/// Applies `f` to the tournament if `who` may change it, stores the result
/// under the version check (running `f` again on the newer state when
/// another change won the race) and tells the watchers. Returns what `f`
/// returned and the tournament as stored.
pub async fn change_loaded<R>(
    hub: &Arc<Hub>,
    id: &str,
    who: &Who,
    mut f: impl FnMut(&mut Loaded) -> Result<R, ApiError>,
) -> Result<(R, Loaded), ApiError> {
    for _ in 0..RETRIES {
        let mut l = load(hub, id).await?;
        check(who, &l)?;
        let r = f(&mut l)?;
        if save(hub, &mut l, &[]).await? {
            notify(hub, &l);
            return Ok((r, l));
        }
    }
    Err(conflict())
}

/// [`change_loaded`], returning only what `f` returned.
pub async fn change<R>(
    hub: &Arc<Hub>,
    id: &str,
    who: &Who,
    f: impl FnMut(&mut Loaded) -> Result<R, ApiError>,
) -> Result<R, ApiError> {
    Ok(change_loaded(hub, id, who, f).await?.0)
}

/// Pairs the next round in-process and stores it, together with the
/// round's games for an online event, in one transaction; then starts the
/// games and tells the watchers. Returns the round's number.
pub async fn pair_next(hub: &Arc<Hub>, id: &str, who: &Who) -> Result<u32, ApiError> {
    for _ in 0..RETRIES {
        let mut l = load(hub, id).await?;
        check(who, &l)?;
        // The initial ranking (C.04.2): before round 1 everybody, later
        // only late entries take their place; the links follow the numbers.
        l.t.next_round_number().map_err(refused)?;
        // FIDE mode: pairing numbers frozen once round 4 is paired
        // (C.04.2 B.3); a late entry keeps the number it was given.
        let moved = if escaque_torneo::fide::numbers_frozen(&l.t) {
            (1..=l.t.players.len() as u32).collect()
        } else {
            l.t.sort_pairing_numbers()
        };
        for link in &mut l.players {
            if let Some(&new) = moved.get(link.number as usize - 1) {
                link.number = new;
            }
        }
        l.players.sort_by_key(|p| p.number);
        // Baku (C.04.5.1) as the library computes it, again every round:
        // late entries placed above the last GA player join GA.
        if l.settings.accelerated {
            l.t.accelerations = escaque_torneo::baku::acceleration(&l.t);
        }
        let round = pairing::pair_next_round(&mut l.t).map_err(refused)?;
        let boards = online::games_for_round(hub, &l, round).await?;
        let games: Vec<RoundGame> = boards
            .iter()
            .map(|b| RoundGame {
                round,
                board: b.board,
                row: b.row.clone(),
            })
            .collect();
        if save(hub, &mut l, &games).await? {
            for g in games {
                hub.launch(g.row).await;
            }
            notify(hub, &l);
            online::round_started(hub, &l, round, boards).await;
            return Ok(round);
        }
    }
    Err(conflict())
}

/// Records (or corrects) the result on `board` of `round`; the standings
/// are computed from the results, so a correction recomputes them.
pub async fn record_result(
    hub: &Arc<Hub>,
    id: &str,
    round: u32,
    board: u32,
    outcome: Outcome,
    who: &Who,
) -> Result<(), ApiError> {
    record_entered(hub, id, round, board, Entered::Standard(outcome), who)
        .await
        .map(|_| ())
}

/// A result entered on a board: a standard one (`*` clears it) or an
/// unusual one, ½-0, 0-½ or 0-0 (a game played in which the arbiter gave
/// one player ½ and the other 0, or both 0; FIDE's checklist VCL.13): each
/// player scores their own points, in the standings, the pairing and every
/// tie-break (the library's `Unusual`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entered {
    /// 1-0, ½-½, 0-1, a forfeit, or none.
    Standard(Outcome),
    /// ½-0, 0-½, 0-0.
    Unusual(Unusual),
}

impl Entered {
    /// Reads a result as the desk sends it: `½-0`, `0-½`, `0-0` (also
    /// `1/2-0`, `0-0.5`…) or a standard one in any spelling the library's
    /// reader takes; anything else is refused with the reader's words.
    pub fn parse(text: &str) -> Result<Entered, TorneoError> {
        match Unusual::parse(text) {
            Some(u) => Ok(Entered::Unusual(u)),
            None => Outcome::parse(text).map(Entered::Standard),
        }
    }

    /// As the API writes it (`null` when cleared).
    pub fn id(self) -> Option<&'static str> {
        match self {
            Entered::Standard(o) => view::result_id(o),
            Entered::Unusual(u) => Some(u.text()),
        }
    }
}

/// [`record_result`] for any [`Entered`] result; answers what the board
/// held before, as the API writes it (`None`: no result yet), for the
/// desk's correction message.
pub async fn record_entered(
    hub: &Arc<Hub>,
    id: &str,
    round: u32,
    board: u32,
    entered: Entered,
    who: &Who,
) -> Result<Option<&'static str>, ApiError> {
    let (previous, l) = change_loaded(hub, id, who, |l| {
        let c = match entered {
            Entered::Standard(o) => l.t.set_result_board(round, board, o),
            Entered::Unusual(u) => l.t.set_unusual_board(round, board, u),
        }
        .map_err(refused)?;
        Ok(view::previous_id(&c))
    })
    .await?;
    if l.row.mode == "online" {
        online::result_recorded(hub, &l, round).await;
    }
    Ok(previous)
}

/// Tells the watchers of every process the tournament's new view (each
/// its own): a signal naming it ([`changed`] in every process).
pub fn notify(hub: &Arc<Hub>, l: &Loaded) {
    hub.tournaments.changed(&l.row.id);
}

/// Tournament `id` changed (a signal on the bus): this process's watchers
/// of it are told its view as stored now, each its own.
pub async fn changed(hub: &Arc<Hub>, id: &str) {
    if !hub.tournaments.watching(id) {
        return;
    }
    let l = match load(hub, id).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("escaque-server: torneo {id}: {} / {}", e.2, e.3);
            return;
        }
    };
    let rendered = view::Rendered::new(&view::view(&l));
    hub.tournaments.render(id, &|who| {
        rendered.message_for(l.can_edit(who), l.number_of(who))
    });
}

/// The tournaments' ear on the bus: a tournament changed, a message to its
/// watchers or to one of them, a resync.
pub struct BusSubscriber;

impl crate::bus::Subscriber for BusSubscriber {
    fn hear<'a>(
        &'a self,
        hub: &'a Arc<Hub>,
        signal: &'a crate::bus::Signal,
    ) -> futures_util::future::BoxFuture<'a, ()> {
        use crate::bus::Signal;
        Box::pin(async move {
            match signal {
                Signal::Tournament { id } => changed(hub, id).await,
                Signal::TournamentAll { id, msg } => told_all(hub, id, Arc::from(msg.as_str())),
                Signal::TournamentOwner { id, key, msg } => {
                    told(hub, id, key, Arc::from(msg.as_str()))
                }
                _ => {}
            }
        })
    }

    fn resync<'a>(&'a self, hub: &'a Arc<Hub>) -> futures_util::future::BoxFuture<'a, ()> {
        Box::pin(resync(hub))
    }
}

/// A message for every watcher of tournament `id` arrived on the bus.
pub fn told_all(hub: &Hub, id: &str, msg: crate::proto::Out) {
    hub.tournaments.render(id, &|_| Arc::clone(&msg));
}

/// A private message for `owner`'s watchers of tournament `id` arrived on
/// the bus.
pub fn told(hub: &Hub, id: &str, owner: &str, msg: crate::proto::Out) {
    hub.tournaments.deliver(id, owner, msg);
}

/// Signals may have been lost: every tournament watched here is told
/// again.
pub async fn resync(hub: &Arc<Hub>) {
    for id in hub.tournaments.watched() {
        changed(hub, &id).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_stored_by_an_older_release_read_with_defaults() {
        let s: Settings = serde_json::from_str(r#"{"time_control":"5+3"}"#).unwrap();
        assert_eq!(s.time_control.as_deref(), Some("5+3"));
        assert_eq!(s.pair_delay_s, 30);
        assert_eq!(s.late_bye, "half");
        assert!(!s.accelerated);
    }
}
