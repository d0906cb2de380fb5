//! # escaque-server — ajedrez en línea
//!
//! The HTTP + WebSocket server behind `escaque servir`: games between people
//! or against the engine, server-side clocks, seats with secrets, accounts,
//! a lobby of open seeks, spectators, PGN export, storage in SQLite (default)
//! or PostgreSQL.
//!
//! * The rules are the library's: [`escaque::Game`] decides every move,
//!   ending, offer and claim; [`escaque::Clock`] keeps the time.
//! * One game, one task ([`actor`]): a change is stored before anybody is
//!   told of it.
//! * The protocol is in `docs/protocol.md`.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let config = escaque_server::Config::default();
//! let server = escaque_server::start(config).await?;
//! println!("http://{}", server.addr);
//! server.wait().await;
//! # Ok(()) }
//! ```

#![forbid(unsafe_code)]

pub mod actor;
pub mod analysis;
pub mod aprender;
pub mod bus;
pub mod classes;
pub mod client;
pub mod cluster;
pub mod engine;
pub mod error;
pub mod games;
pub mod http;
pub mod identity;
mod lobby;
pub mod names;
pub mod openings;
pub mod presence;
pub mod problemas;
pub mod proto;
mod ratelimit;
pub mod rating;
pub mod resultados;
// Team tournaments on the server (issue 59, teams).
pub mod equipos;
pub mod store;
pub mod tareas;
pub mod texts;
pub mod tournament;
pub mod web;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use escaque::{Color, Position, RuleSet, TimeControl};
use rand::RngCore;
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

use actor::{Actor, Cmd};
use engine::EnginePool;
use escaque_play::{Level, Player};
use store::{GameRow, Store, StoreError};

/// Where the data lives.
#[derive(Clone, Debug)]
pub enum Database {
    /// SQLite file `escaque.sqlite3` in this directory (created if missing).
    Dir(PathBuf),
    /// A database URL: `postgres://…` or `sqlite:…`.
    Url(String),
}

/// Everything the server can be told.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on (port 0: any free port).
    pub addr: SocketAddr,
    /// Storage.
    pub database: Database,
    /// Most searches at once (default: the number of cores).
    pub engine_threads: usize,
    /// Engine thinking time per move in games without a clock.
    pub engine_movetime: Duration,
    /// The most network time credited to a player per move.
    pub lag_cap: Duration,
    /// Grace before a disconnected player's game may be claimed: base…
    pub grace_base: Duration,
    /// …plus the initial time divided by this…
    pub grace_divisor: u32,
    /// …at most this (also the grace of games without a clock).
    pub grace_max: Duration,
    /// Messages per second a connection may send (sustained).
    pub msgs_per_sec: f64,
    /// Burst of messages a connection may send at once.
    pub msgs_burst: f64,
    /// Game creations / logins per address: burst…
    pub http_burst: f64,
    /// …and sustained rate per second.
    pub http_per_sec: f64,
    /// Interval of the server's `ping` (lag measurement).
    pub ping_every: Duration,
    /// How long a finished game's task waits for watchers before it ends.
    pub idle_actor: Duration,
    /// SQLite `synchronous=FULL` (true, the default) or `NORMAL` (measuring
    /// only: a commit then survives a killed process, not a power cut).
    pub sqlite_full_sync: bool,
    /// Any account that is not a pupil may create classes (otherwise only
    /// the accounts marked as teachers).
    pub any_teacher: bool,
    /// Accounts marked as teachers when the server starts (by name).
    pub teachers: Vec<String>,
    /// The UCI engine that analyses games (`--motor-analisis RUTA`);
    /// escaque's own engine when `None`.
    pub analysis_engine: Option<PathBuf>,
    /// How deep the analyses look (`--profundidad-analisis N`).
    pub analysis_settings: escaque_analysis::Settings,
    /// Analyses run at once, each on a thread of its own (default: one
    /// less than the cores, at least 1; 0: this process runs none and only
    /// queues them).
    pub analysis_workers: usize,
    /// Engine searches of the analysis board per address: burst…
    pub analysis_burst: f64,
    /// …and sustained rate per second.
    pub analysis_per_sec: f64,
    /// This process's name among the processes of one database (`--nodo`);
    /// `None`: the host's name.
    pub node: Option<String>,
    /// Where the other processes reach this one (`--anunciar host:port`);
    /// `None`: the address it listens on.
    pub advertise: Option<String>,
    /// How long a game's lease lasts unless its owner renews it
    /// (`--arriendo-ms`); renewed every third of it.
    pub lease: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: Database::Dir(PathBuf::from("escaque-datos")),
            engine_threads: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            engine_movetime: Duration::from_millis(1000),
            lag_cap: Duration::from_millis(500),
            grace_base: Duration::from_secs(10),
            grace_divisor: 20,
            grace_max: Duration::from_secs(180),
            msgs_per_sec: 10.0,
            msgs_burst: 30.0,
            http_burst: 30.0,
            http_per_sec: 1.0,
            ping_every: Duration::from_secs(3),
            idle_actor: Duration::from_secs(60),
            sqlite_full_sync: true,
            any_teacher: false,
            teachers: Vec::new(),
            analysis_engine: None,
            analysis_settings: escaque_analysis::Settings::default(),
            analysis_workers: std::thread::available_parallelism()
                .map(|n| n.get().saturating_sub(1))
                .unwrap_or(1)
                .max(1),
            analysis_burst: 20.0,
            analysis_per_sec: 1.0,
            node: None,
            advertise: None,
            lease: Duration::from_secs(10),
        }
    }
}

/// Could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Storage.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The address.
    #[error("no se pudo escuchar en / could not listen on {addr}: {err}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        err: std::io::Error,
    },
}

/// The shared state of the server.
pub struct Hub {
    /// Settings.
    pub config: Config,
    /// Storage.
    pub store: Store,
    /// The engine pool.
    pub engines: EnginePool,
    games: Mutex<HashMap<String, mpsc::Sender<Cmd>>>,
    /// This process's own games: their load locks, the tasks it runs,
    /// whether it is handing them over.
    pub local: cluster::lease::Local,
    lobby: lobby::Lobby,
    http_limit: ratelimit::PerKey,
    /// The watchers of each tournament's socket.
    pub tournaments: tournament::fanout::Watchers,
    /// The countdowns to automatic pairings of online tournaments.
    pub countdowns: tournament::online::Countdowns,
    /// Who is online now (see [`presence::PresenceView`]).
    pub presence: presence::Presence,
    /// The class-code logins' buckets, by class (see `classes`).
    pub class_logins: classes::LoginLimits,
    /// Analysis of games: the queue, its workers, the board's searches.
    pub analysis: Arc<analysis::Analyses>,
    /// The analysis board's engine searches, per address.
    pub(crate) analysis_limit: ratelimit::PerKey,
    /// This process among the processes of one database.
    pub node: cluster::Node,
    /// How processes tell each other (the lobby, tournaments, classes).
    pub bus: Arc<dyn bus::Bus>,
    /// On PostgreSQL, this process's session lock (released by the
    /// database the moment this process's connection drops: see
    /// `cluster::session`).
    _session: Option<cluster::session::SessionLock>,
}

/// A random secret of 128 bits, as 32 hex digits.
pub fn new_secret() -> String {
    let mut b = [0u8; 16];
    rand::rng().fill_bytes(&mut b);
    hex(&b)
}

/// A short random id for links (80 bits, base-32-ish).
pub fn new_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut b = [0u8; 16];
    rand::rng().fill_bytes(&mut b);
    b.iter()
        .map(|x| ALPHABET[(*x as usize) % ALPHABET.len()] as char)
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// SHA-256 of a secret, hex (what is stored).
pub fn hash_secret(s: &str) -> String {
    hex(&Sha256::digest(s.as_bytes()))
}

/// A new game's seats as created.
#[derive(Clone, Debug)]
pub struct Created {
    /// The game id.
    pub game: String,
    /// White's seat secret, if White is a person seated now.
    pub white_secret: Option<String>,
    /// Black's.
    pub black_secret: Option<String>,
}

impl Created {
    /// The secret of `seat`, if a person was seated there.
    pub fn secret(&self, seat: Color) -> Option<&str> {
        seat.fold(&self.white_secret, &self.black_secret).as_deref()
    }
}

/// What a new game is.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Rules.
    pub rules: RuleSet,
    /// Start position.
    pub start: Position,
    /// Clock.
    pub time_control: Option<TimeControl>,
    /// White.
    pub white: Seat,
    /// Black.
    pub black: Seat,
    /// A Chess960 game (its start position is one of the 960, or any
    /// position with Chess960 castling).
    pub chess960: bool,
    /// A rated game (the caller has checked that it may be).
    pub rated: bool,
    /// The class the game is started in (a teacher's game between pupils,
    /// a simul board, a class tournament's game); `None` otherwise.
    pub class_id: Option<String>,
}

/// One seat of a new game.
#[derive(Clone, Debug)]
pub enum Seat {
    /// A person, seated now.
    Person {
        /// Owner identity.
        owner: String,
        /// Display name.
        name: String,
    },
    /// Left free for whoever follows the challenge link.
    Open,
    /// The engine.
    Engine(Level),
}

impl Hub {
    /// Creates a game, stores it and starts its task: [`Hub::prepare_game`],
    /// stored, then [`Hub::launch`].
    pub async fn create_game(self: &Arc<Hub>, g: NewGame) -> Result<Created, StoreError> {
        let (mut row, created) = Hub::prepare_game(g);
        rating::fill_new_game(&self.store, &mut row).await?;
        self.store.insert_game(&row).await?;
        self.launch(row).await;
        Ok(created)
    }

    /// A new game's row and seat secrets, neither stored nor started (a
    /// tournament round stores all its games in one transaction, then
    /// launches them).
    pub fn prepare_game(g: NewGame) -> (GameRow, Created) {
        let id = new_id();
        let mut secrets = [None, None];
        let mut owners = [None, None];
        let mut names = [String::new(), String::new()];
        let mut kinds = [Player::Human, Player::Human];
        let mut open = false;
        for (i, seat) in [&g.white, &g.black].into_iter().enumerate() {
            match seat {
                Seat::Person { owner, name } => {
                    secrets[i] = Some(new_secret());
                    owners[i] = Some(owner.clone());
                    names[i] = name.clone();
                }
                Seat::Open => open = true,
                Seat::Engine(level) => {
                    kinds[i] = Player::Engine(*level);
                    names[i] = escaque_play::engine_name(*level);
                }
            }
        }
        let init = g
            .time_control
            .as_ref()
            .map(|t| t.initial_time().as_millis() as i64);
        let row = GameRow {
            id: id.clone(),
            rules: g.rules,
            start_fen: if g.chess960 {
                g.start.to_fen_with(escaque::CastlingStyle::Shredder)
            } else {
                g.start.to_fen()
            },
            time_control: g.time_control.as_ref().map(|t| t.to_string()),
            white_kind: kinds[0].id(),
            black_kind: kinds[1].id(),
            white_owner: owners[0].clone(),
            black_owner: owners[1].clone(),
            white_secret: secrets[0].as_deref().map(hash_secret),
            black_secret: secrets[1].as_deref().map(hash_secret),
            white_name: names[0].clone(),
            black_name: names[1].clone(),
            status: if open { "waiting" } else { "playing" }.into(),
            end: None,
            clock_white_ms: init,
            clock_black_ms: init,
            created_ms: store::now_ms(),
            chess960: g.chess960,
            rated: g.rated,
            perf: None,
            ratings: [None, None],
            rating_diffs: [None, None],
            rating_applied: false,
            sealed: None,
            class_id: g.class_id.clone(),
        };
        let [white_secret, black_secret] = secrets;
        (
            row,
            Created {
                game: id,
                white_secret,
                black_secret,
            },
        )
    }

    /// Starts the task of a game just stored (its clock runs from now),
    /// after taking its lease.
    pub async fn launch(self: &Arc<Hub>, row: GameRow) {
        let _guard = self.local.lock_game(&row.id).await;
        match cluster::lease::take(self, &row.id).await {
            Ok(taken) => {
                self.spawn_actor(row, Vec::new(), taken);
            }
            // A process handing over leaves it to the others' sweepers.
            Err(other) => eprintln!("escaque-server: new game {}: {other:?}", row.id),
        }
    }

    /// The rematch of a finished game: same settings, colours swapped.
    /// Stored only while `fence` still holds the old game (a process that
    /// lost the game creates no rematch: [`StoreError::Fenced`]).
    pub async fn create_rematch(
        self: &Arc<Hub>,
        old: &GameRow,
        fence: &cluster::Fence,
    ) -> Result<Created, StoreError> {
        let seat = |kind: &str, owner: &Option<String>, name: &str| match Player::from_id(kind) {
            Some(Player::Engine(level)) => Seat::Engine(level),
            _ => Seat::Person {
                owner: owner.clone().unwrap_or_default(),
                name: name.to_string(),
            },
        };
        let g = NewGame {
            rules: old.rules,
            // A Chess960 rematch is played from the same position, colours
            // swapped (both players get each side of it).
            start: Position::from_fen_with(
                &old.start_fen,
                if old.chess960 {
                    escaque::CastlingMode::Chess960
                } else {
                    escaque::CastlingMode::Standard
                },
            )
            .unwrap_or_default(),
            time_control: old
                .time_control
                .as_deref()
                .and_then(|t| TimeControl::parse(t).ok()),
            white: seat(&old.black_kind, &old.black_owner, &old.black_name),
            black: seat(&old.white_kind, &old.white_owner, &old.white_name),
            chess960: old.chess960,
            rated: old.rated,
            class_id: old.class_id.clone(),
        };
        let (mut row, created) = Hub::prepare_game(g);
        rating::fill_new_game(&self.store, &mut row).await?;
        self.store.insert_game_fenced(&row, &old.id, fence).await?;
        self.launch(row).await;
        Ok(created)
    }

    fn spawn_actor(
        self: &Arc<Hub>,
        row: GameRow,
        moves: Vec<store::MoveRow>,
        taken: cluster::lease::Taken,
    ) -> Option<mpsc::Sender<Cmd>> {
        let id = row.id.clone();
        let epoch = taken.fence.epoch;
        match Actor::load(Arc::clone(self), row, moves, taken) {
            Ok((actor, engine_rx)) => {
                let (tx, rx) = mpsc::channel(256);
                let (stop_tx, stop_rx) = mpsc::channel(4);
                self.local.register(&id, epoch, stop_tx);
                self.games
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id, tx.clone());
                tokio::spawn(actor.run(rx, engine_rx, stop_rx));
                Some(tx)
            }
            Err(e) => {
                eprintln!("escaque-server: {e}");
                None
            }
        }
    }

    /// Loads game `id` here once its lease is taken (the turn's clock
    /// charged up to the old owner's last heartbeat: see
    /// `cluster::lease`).
    pub(crate) async fn load_taken(
        self: &Arc<Hub>,
        id: &str,
        taken: cluster::lease::Taken,
    ) -> Option<mpsc::Sender<Cmd>> {
        let loaded = async {
            let row = self.store.game(id).await.ok()??;
            let moves = self.store.moves(id).await.ok()?;
            Some((row, moves))
        }
        .await;
        match loaded {
            Some((row, moves)) => self.spawn_actor(row, moves, taken),
            None => {
                cluster::lease::release(self, id, &taken.fence).await;
                None
            }
        }
    }

    /// The task of game `id`, loading it from storage if needed.
    pub async fn game(self: &Arc<Hub>, id: &str) -> Option<mpsc::Sender<Cmd>> {
        if let Some(tx) = self.live(id) {
            return Some(tx);
        }
        let _guard = self.local.lock_game(id).await;
        if let Some(tx) = self.live(id) {
            return Some(tx);
        }
        match cluster::lease::take(self, id).await {
            Ok(taken) => self.load_taken(id, taken).await,
            Err(cluster::Claim::Elsewhere(owner)) => {
                let tx = cluster::relay::proxy(self, id, owner).await?;
                self.games
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id.to_string(), tx.clone());
                Some(tx)
            }
            Err(_) => None,
        }
    }

    /// Sets a running game's result (a tournament organiser's decision on
    /// its board): `None` when no task of the game answers.
    pub async fn set_game_result(
        self: &Arc<Hub>,
        id: &str,
        outcome: escaque_torneo::Outcome,
    ) -> Option<Result<(), proto::ErrorCode>> {
        let tx = self.game(id).await?;
        let (reply, answer) = tokio::sync::oneshot::channel();
        tx.send(Cmd::SetResult { outcome, reply }).await.ok()?;
        answer.await.ok()
    }

    /// Gives game `id`'s lease up (its task stops here; see
    /// `cluster::lease`).
    pub(crate) async fn release_lease(&self, id: &str, fence: &store::Fence) {
        cluster::lease::release(self, id, fence).await;
    }

    /// Runs game `id`'s task here if its lease can be taken (a game nobody
    /// holds: at start, and the sweeper's); never a stand-in.
    pub(crate) async fn adopt(self: &Arc<Hub>, id: &str) {
        if self.live(id).is_some() {
            return;
        }
        let _guard = self.local.lock_game(id).await;
        if self.live(id).is_some() {
            return;
        }
        if let Ok(taken) = cluster::lease::take(self, id).await {
            self.load_taken(id, taken).await;
        }
    }

    /// The games whose task runs now (in progress, waiting, or finished a
    /// moment ago).
    pub fn live_games(&self) -> Vec<(String, mpsc::Sender<Cmd>)> {
        let map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        map.iter()
            .filter(|(_, tx)| !tx.is_closed())
            .map(|(id, tx)| (id.clone(), tx.clone()))
            .collect()
    }

    fn live(&self, id: &str) -> Option<mpsc::Sender<Cmd>> {
        let map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        map.get(id).filter(|tx| !tx.is_closed()).cloned()
    }

    pub(crate) fn forget(&self, id: &str) {
        let mut map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        map.remove(id);
    }

    /// Forgets game `id`'s queue if it is closed (its task stopped; a newer
    /// task or stand-in put there since is kept).
    pub(crate) fn forget_closed(&self, id: &str) {
        let mut map = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if map.get(id).is_some_and(|tx| tx.is_closed()) {
            map.remove(id);
        }
    }

    /// Which seat of game row `row` the secret opens.
    pub fn seat_of(row: &GameRow, secret: &str) -> Option<Color> {
        let h = hash_secret(secret);
        if row.white_secret.as_deref() == Some(h.as_str()) {
            Some(Color::White)
        } else if row.black_secret.as_deref() == Some(h.as_str()) {
            Some(Color::Black)
        } else {
            None
        }
    }
}

/// A running server.
pub struct Running {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its state.
    pub hub: Arc<Hub>,
    task: tokio::task::JoinHandle<()>,
}

impl Running {
    /// Waits until the server stops (it does not, unless it fails).
    pub async fn wait(self) {
        let _ = self.task.await;
    }

    /// Serves until `stop` is ready (a signal), then hands the games over
    /// and stops ([`Running::shutdown`]); or until the server fails.
    pub async fn serve_until(mut self, stop: impl std::future::Future<Output = ()>) {
        tokio::select! {
            _ = &mut self.task => {}
            _ = stop => self.shutdown().await,
        }
    }

    /// Stops serving (and analysing: a running analysis is queued again).
    pub fn abort(&self) {
        self.task.abort();
        self.hub.analysis.shutdown();
    }

    /// Stops cleanly, handing every game over: this process is marked
    /// `stopping` (`/salud` answers 503) and takes no lease any more; each
    /// game's task, after its pending write, stores the clocks as they
    /// stand, gives its lease up (another process takes the game at once)
    /// and closes its connections with 1012; then the process is marked
    /// `down`, answers a moment more (a quarter lease, at most half a
    /// second) and stops serving.
    pub async fn shutdown(self) {
        let hub = &self.hub;
        hub.local.set_stopping();
        if let Err(e) = hub.store.set_node_state(&hub.node.name, "stopping").await {
            eprintln!("escaque-server: {e}");
        }
        let deadline = tokio::time::Instant::now() + hub.node.lease + Duration::from_secs(2);
        // A load under way as the stop began registers its task after
        // this: ask again until none is left.
        loop {
            let stoppers = hub.local.stoppers();
            if stoppers.is_empty() || tokio::time::Instant::now() >= deadline {
                break;
            }
            let mut waits = Vec::new();
            for s in stoppers {
                let (tx, rx) = tokio::sync::oneshot::channel();
                if s.send(actor::Stop::Handover(tx)).await.is_ok() {
                    waits.push(rx);
                }
            }
            for w in waits {
                let _ = tokio::time::timeout_at(deadline, w).await;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if let Err(e) = hub.store.set_node_state(&hub.node.name, "down").await {
            eprintln!("escaque-server: {e}");
        }
        // A moment more answering (`/salud`: 503, "stopping"), so that a
        // proxy's health check sees the process go rather than a refused
        // connection, and a client sent here again finds its game elsewhere.
        tokio::time::sleep((hub.node.lease / 4).min(Duration::from_millis(500))).await;
        self.abort();
    }
}

/// Opens storage, resumes unfinished games, and serves.
pub async fn start(config: Config) -> Result<Running, StartError> {
    let store = match &config.database {
        Database::Dir(d) => Store::open_dir(d, config.sqlite_full_sync).await?,
        Database::Url(u) => Store::open_with(u, config.sqlite_full_sync).await?,
    };
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|err| StartError::Bind {
            addr: config.addr,
            err,
        })?;
    let addr = listener.local_addr().map_err(|err| StartError::Bind {
        addr: config.addr,
        err,
    })?;
    let node = cluster::Node {
        name: Arc::from(config.node.clone().unwrap_or_else(cluster::host_name)),
        addr: config.advertise.clone().unwrap_or_else(|| addr.to_string()),
        lease: config.lease,
        secret: store.cluster_secret().await?,
    };
    // The bus: PostgreSQL's notifications between the processes of one
    // database; one process alone (SQLite) tells itself.
    let bus: Arc<dyn bus::Bus> = match (&config.database, store.backend()) {
        (Database::Url(url), store::Backend::Postgres) => {
            Arc::new(bus::PgBus::start(url, store.clone(), &node.name)?)
        }
        _ => Arc::new(bus::LocalBus::default()),
    };
    // On PostgreSQL, this process's session lock, before any lease is
    // taken: the others know at once when this process is gone.
    let session = match (&config.database, store.backend()) {
        (Database::Url(url), store::Backend::Postgres) => {
            Some(cluster::session::hold(url, &node.name).await?)
        }
        _ => None,
    };
    let analyses = Arc::new(analysis::Analyses::new(
        &config,
        store.clone(),
        node.name.clone(),
    ));
    let hub = Arc::new(Hub {
        node,
        lobby: lobby::Lobby::new(Arc::clone(&bus)),
        tournaments: tournament::fanout::Watchers::new(Arc::clone(&bus)),
        bus,
        engines: EnginePool::new(config.engine_threads),
        analysis: Arc::clone(&analyses),
        analysis_limit: ratelimit::PerKey::new(config.analysis_burst, config.analysis_per_sec),
        http_limit: ratelimit::PerKey::new(config.http_burst, config.http_per_sec),
        config,
        store,
        games: Mutex::new(HashMap::new()),
        local: cluster::lease::Local::default(),
        countdowns: tournament::online::Countdowns::default(),
        presence: presence::Presence::default(),
        class_logins: classes::LoginLimits::default(),
        _session: session,
    });
    // The accounts the administrator named as teachers.
    for name in &hub.config.teachers {
        classes::mark_teacher(&hub.store, name).await?;
    }
    // This process among the others, its leases renewed while it runs.
    // The last heartbeat of the previous run under this name first: its
    // games' clocks are charged up to it.
    hub.local
        .set_prev_seen(hub.store.node_seen(&hub.node.name).await?);
    hub.store
        .register_node(&hub.node.name, &hub.node.addr)
        .await?;
    tokio::spawn(cluster::lease::renew_loop(Arc::downgrade(&hub)));
    tokio::spawn(cluster::lease::sweep_loop(Arc::downgrade(&hub)));
    // What the other processes signal (and this one), told to this
    // process's watchers; the seeks this process held before are gone.
    let subscribers: Vec<Arc<dyn bus::Subscriber>> = vec![
        Arc::new(lobby::BusSubscriber),
        Arc::new(tournament::BusSubscriber),
    ];
    tokio::spawn(bus::run(
        Arc::downgrade(&hub),
        hub.bus.subscribe(),
        subscribers,
    ));
    lobby::start(&hub).await;
    tokio::spawn(lobby::sweep_loop(Arc::downgrade(&hub)));
    // Games in progress nobody holds continue here (their clocks and engine
    // turns run again).
    cluster::lease::adopt_orphans(&hub).await;
    // Rated games that ended as the server went down change their
    // players' ratings now.
    rating::sweep(&hub.store).await?;
    // The puzzle trainer's catalogue: the shipped sets not stored yet.
    problemas::load_catalogue(&hub.store).await?;
    // Online tournaments: results of games that ended as the server went
    // down, and the countdowns to the next round.
    tournament::online::resume(&hub).await;
    equipos::online::resume(&hub).await;
    tokio::spawn(http::live::push_loop(Arc::downgrade(&hub)));
    // Analyses this process was running when it went down, and those of
    // processes that are gone, are queued again; then the workers start.
    analyses.start().await?;
    let app = http::router(Arc::clone(&hub)).merge(web::router(Arc::clone(&hub)));
    // Small messages go out at once (no Nagle wait behind an unacknowledged
    // one: a move's event and its ack, a relayed frame).
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let task = tokio::spawn(async move {
        let _ = axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await;
    });
    Ok(Running { addr, hub, task })
}
