//! Shared set-up: a server started in-process on 127.0.0.1:0, on SQLite (a
//! fresh directory) or on the PostgreSQL named by `ESCAQUE_TEST_POSTGRES`.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use escaque_server::client::{http, GameSocket, HttpReply};
use escaque_server::{Config, Database, Running};
use serde_json::{json, Value};

pub const WAIT: Duration = Duration::from_secs(20);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

pub fn temp_dir(tag: &str) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let d = std::env::temp_dir().join(format!(
        "escaque-server-test-{tag}-{}-{n}-{}",
        std::process::id(),
        escaque_server::new_id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The PostgreSQL URL for the tests. Without one: `None`, unless
/// `ESCAQUE_REQUIRE_POSTGRES=1`, which makes the test fail.
pub fn postgres_url() -> Option<String> {
    match std::env::var("ESCAQUE_TEST_POSTGRES") {
        Ok(u) if !u.is_empty() => Some(u),
        _ => {
            if std::env::var("ESCAQUE_REQUIRE_POSTGRES").as_deref() == Ok("1") {
                panic!(
                    "ESCAQUE_REQUIRE_POSTGRES=1 but ESCAQUE_TEST_POSTGRES is not set: \
                     run `eval \"$(scripts/postgres.sh)\"` first"
                );
            }
            eprintln!("PostgreSQL variant not run: ESCAQUE_TEST_POSTGRES is not set");
            None
        }
    }
}

/// The name of a new test database: `prefix`, this process's id and a
/// random id. `scripts/postgres.sh` drops the databases whose process is
/// gone, so that a cluster kept between runs does not fill up (the tests
/// cannot drop their own: a test has no hook that runs after it, and a
/// run may be killed half-way).
pub fn test_database_name(prefix: &str) -> String {
    format!(
        "{prefix}_p{}_{}",
        std::process::id(),
        escaque_server::new_id().to_lowercase()
    )
}

/// `url` with its database name replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (base, _) = url
        .rsplit_once('/')
        .expect("a postgres URL ends with /DATABASE");
    let query = url
        .split_once('?')
        .map(|(_, q)| format!("?{q}"))
        .unwrap_or_default();
    format!("{base}/{name}{query}")
}

/// A new, empty PostgreSQL database on the test server (named `prefix_`,
/// the process id and a random id), for a test that must not see what
/// other tests left in the shared one; its URL, or `None` as
/// [`postgres_url`] says.
pub async fn fresh_postgres_database(prefix: &str) -> Option<String> {
    use sqlx::Connection;
    let url = postgres_url()?;
    let name = test_database_name(prefix);
    let mut admin = sqlx::PgConnection::connect(&url).await.expect("postgres");
    sqlx::raw_sql(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .expect("create database");
    Some(with_database(&url, &name))
}

/// This process's template: a database migrated once by the store
/// ([`escaque_server::store::Store::open`], the same code a server runs at
/// its start), which every migrated test database is copied from.
static TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();

/// The name of this process's migrated template, made on first use. One per
/// process, not one kept in the cluster: a migration being written changes
/// without changing its number, and a template kept between runs would then
/// hand the tests an old schema.
async fn migrated_template() -> String {
    use sqlx::Connection;
    TEMPLATE
        .get_or_init(|| async {
            let url = postgres_url().expect("a template only with PostgreSQL");
            let name = test_database_name("tmpl");
            let mut admin = sqlx::PgConnection::connect(&url).await.expect("postgres");
            sqlx::raw_sql(&format!("CREATE DATABASE {name}"))
                .execute(&mut admin)
                .await
                .expect("create the template database");
            let store = escaque_server::store::Store::open(&with_database(&url, &name))
                .await
                .expect("migrate the template database");
            // The puzzle catalogue, as a server's first start stores it
            // (thousands of rows): a server on a copy finds it stored.
            escaque_server::problemas::load_catalogue(&store)
                .await
                .expect("the template's puzzle catalogue");
            drop(store);
            // A copy needs the template with nobody connected: the store's
            // pool closes its connections in the background, so they are
            // ended here and waited for.
            let t0 = std::time::Instant::now();
            loop {
                let (left,): (i64,) =
                    sqlx::query_as("SELECT count(*) FROM pg_stat_activity WHERE datname = $1")
                        .bind(&name)
                        .fetch_one(&mut admin)
                        .await
                        .expect("connections to the template");
                if left == 0 {
                    break;
                }
                sqlx::query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                )
                .bind(&name)
                .execute(&mut admin)
                .await
                .expect("end the template's connections");
                assert!(t0.elapsed() < WAIT, "the template database stays in use");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            name
        })
        .await
        .clone()
}

/// A new PostgreSQL database with the whole schema already migrated and
/// the shipped puzzles stored (a copy of this process's template: `CREATE
/// DATABASE … TEMPLATE`, about a tenth of the time of running every
/// migration again), as a server would leave a fresh database after its
/// start; its URL, or `None` as [`postgres_url`] says. For an empty
/// database (a test of the migrations or of a first start):
/// [`fresh_postgres_database`], [`start_on_empty`].
pub async fn migrated_postgres_database(prefix: &str) -> Option<String> {
    use sqlx::Connection;
    let url = postgres_url()?;
    let template = migrated_template().await;
    let name = test_database_name(prefix);
    let mut admin = sqlx::PgConnection::connect(&url).await.expect("postgres");
    sqlx::raw_sql(&format!("CREATE DATABASE {name} TEMPLATE {template}"))
        .execute(&mut admin)
        .await
        .expect("create database from the template");
    Some(with_database(&url, &name))
}

/// This process's SQLite template: a database made once by the store
/// ([`escaque_server::store::Store::open_dir`], the migrations a server
/// runs at its start) with the shipped puzzles stored
/// ([`escaque_server::problemas::load_catalogue`], as a first start does),
/// written out whole by SQLite's `VACUUM INTO` (one file, no journal
/// beside it). Each SQLite test database is a copy of it: a server's first
/// start on a new database stores 5,554 puzzles, most of a small test's CPU
/// before (BENCHMARKS.md, "Suite time, sixth pass").
static SQLITE_TEMPLATE: tokio::sync::OnceCell<PathBuf> = tokio::sync::OnceCell::const_new();

async fn sqlite_template() -> PathBuf {
    use sqlx::Connection;
    SQLITE_TEMPLATE
        .get_or_init(|| async {
            let dir = temp_dir("tmpl");
            let store = escaque_server::store::Store::open_dir(&dir, false)
                .await
                .expect("migrate the SQLite template");
            escaque_server::problemas::load_catalogue(&store)
                .await
                .expect("the SQLite template's puzzle catalogue");
            let out = dir.join("template.sqlite3");
            let mut conn = sqlx::SqliteConnection::connect(&format!(
                "sqlite://{}",
                dir.join("escaque.sqlite3").display()
            ))
            .await
            .expect("open the SQLite template");
            sqlx::raw_sql(&format!(
                "VACUUM INTO '{}'",
                out.display().to_string().replace('\'', "''")
            ))
            .execute(&mut conn)
            .await
            .expect("write the SQLite template out");
            drop(conn);
            drop(store);
            out
        })
        .await
        .clone()
}

/// `dir` (made if missing) holding a copy of this process's SQLite
/// template as `escaque.sqlite3`, the file a server on
/// [`Database::Dir`] opens.
pub async fn sqlite_from_template(dir: &std::path::Path) {
    let template = sqlite_template().await;
    std::fs::create_dir_all(dir).expect("test database folder");
    std::fs::copy(&template, dir.join("escaque.sqlite3")).expect("copy the SQLite template");
}

/// A database of its own for a test that opens the store itself: a copy of
/// this process's SQLite template in a temporary folder, or a fresh
/// PostgreSQL database copied from its template
/// ([`migrated_postgres_database`]; `None` when no PostgreSQL is
/// configured): migrated, the shipped puzzles stored.
pub async fn own_database_url(db: Db, prefix: &str) -> Option<String> {
    match db {
        Db::Sqlite => {
            let dir = temp_dir(prefix);
            sqlite_from_template(&dir).await;
            Some(format!(
                "sqlite://{}?mode=rwc",
                dir.join("escaque.sqlite3").display()
            ))
        }
        Db::Postgres => migrated_postgres_database(prefix).await,
    }
}

/// Test settings: fast engine, short grace, frequent pings.
pub fn test_config(db: Db) -> Option<Config> {
    let database = match db {
        Db::Sqlite => Database::Dir(temp_dir("db")),
        Db::Postgres => Database::Url(postgres_url()?),
    };
    Some(Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        database,
        engine_threads: 2,
        engine_movetime: Duration::from_millis(30),
        grace_base: Duration::from_millis(300),
        grace_divisor: 1000,
        grace_max: Duration::from_millis(600),
        ping_every: Duration::from_millis(200),
        http_burst: 1000.0,
        http_per_sec: 1000.0,
        ..Config::default()
    })
}

pub async fn start(db: Db) -> Option<Running> {
    start_with(db, |_| {}).await
}

/// A runtime for what outlives one test (a fixture, a browser session):
/// two workers, as the machine has.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// A server with the test settings. Each server gets a database of its
/// own, copied from this process's template (migrated, the shipped puzzles
/// stored: [`sqlite_from_template`], [`migrated_postgres_database`]): a
/// shared one would hold every other test's (and every earlier run's)
/// unfinished games, which each start reloads and which crowd lists such
/// as the games in progress.
pub async fn start_with(db: Db, tweak: impl FnOnce(&mut Config)) -> Option<Running> {
    let mut c = test_config(db)?;
    if db == Db::Postgres {
        c.database = Database::Url(migrated_postgres_database("t").await?);
    } else if let Database::Dir(dir) = &c.database {
        sqlite_from_template(dir).await;
    }
    tweak(&mut c);
    Some(escaque_server::start(c).await.expect("server starts"))
}

/// A server on an empty database (a new SQLite folder; a new PostgreSQL
/// database without a table), which its start migrates and fills as a
/// first start does: for the tests of that first start.
pub async fn start_on_empty(db: Db) -> Option<Running> {
    let mut c = test_config(db)?;
    if db == Db::Postgres {
        c.database = Database::Url(fresh_postgres_database("empty").await?);
    }
    Some(escaque_server::start(c).await.expect("server starts"))
}

/// A lobby socket with `cookie`, once the server watches it: its first
/// list of seeks has come, so whatever is told after that (a `your_game`)
/// reaches it. (The server reads the asker's class before it watches.)
pub async fn lobby_socket(addr: SocketAddr, cookie: &str) -> GameSocket {
    let mut ws = GameSocket::connect_with_cookie(addr, "/ws/lobby", cookie)
        .await
        .expect("lobby socket");
    ws.until(WAIT, |v| v["t"] == "seeks")
        .await
        .expect("the first list of seeks");
    ws
}

/// An HTTP client with its own cookies (one identity).
pub struct Browser {
    pub addr: SocketAddr,
    pub cookies: Vec<String>,
}

impl Browser {
    pub fn new(addr: SocketAddr) -> Browser {
        Browser {
            addr,
            cookies: Vec::new(),
        }
    }

    pub async fn req(&mut self, method: &str, path: &str, body: Option<Value>) -> HttpReply {
        let cookie = self.cookies.join("; ");
        let mut extra = vec![];
        if !cookie.is_empty() {
            extra.push(("Cookie", cookie.as_str()));
        }
        let r = http(self.addr, method, path, body.as_ref(), &extra)
            .await
            .expect("http");
        for c in r.cookies() {
            let name = c.split('=').next().unwrap_or("").to_string();
            self.cookies.retain(|x| !x.starts_with(&format!("{name}=")));
            self.cookies.push(c);
        }
        r
    }

    pub async fn post(&mut self, path: &str, body: Value) -> HttpReply {
        self.req("POST", path, Some(body)).await
    }
}

/// A seat: its socket and what the server said about it.
pub struct Player {
    pub seat: String,
    pub game: String,
    pub secret: String,
    pub ws: GameSocket,
    /// Messages read while waiting for something else.
    pub backlog: std::collections::VecDeque<Value>,
}

impl Player {
    pub async fn connect(addr: SocketAddr, reply: &Value) -> Player {
        let game = reply["game"].as_str().expect("game id").to_string();
        let secret = reply["secret"].as_str().expect("secret").to_string();
        let mut ws = GameSocket::connect(addr, &format!("/ws/games/{game}?seat={secret}"))
            .await
            .expect("ws");
        let st = ws.until(WAIT, |v| v["t"] == "state").await.expect("state");
        assert_eq!(st["you"], reply["seat"]);
        Player {
            seat: reply["seat"].as_str().unwrap_or("").to_string(),
            game,
            secret,
            ws,
            backlog: Default::default(),
        }
    }

    /// Sends a move and waits for its ack (or error, returned).
    pub async fn play(&mut self, mv: &str) -> Value {
        self.act(json!({"t": "move", "move": mv, "id": 1})).await
    }

    pub async fn act(&mut self, msg: Value) -> Value {
        self.ws.send(&msg).await.expect("send");
        self.wait_for(|v| v["t"] == "ack" || v["t"] == "error")
            .await
    }

    /// The first message (from the backlog, then the socket) that satisfies
    /// `pred`; others read meanwhile are kept in the backlog.
    pub async fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i).unwrap_or_default();
        }
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let v = self
                .ws
                .recv(left)
                .await
                .unwrap_or_else(|e| panic!("waiting: {e:?}"));
            if pred(&v) {
                return v;
            }
            if v["t"] != "ping" {
                self.backlog.push_back(v);
            }
        }
    }

    /// Asks for and returns the full state.
    pub async fn state(&mut self) -> Value {
        self.ws
            .send(&json!({"t": "state", "id": 99}))
            .await
            .expect("send");
        self.wait_for(|v| v["t"] == "state" && v["id"] == 99).await
    }

    /// Waits for an event of kind `kind`.
    pub async fn event(&mut self, kind: &str) -> Value {
        self.wait_for(|v| v["t"] == "event" && v["event"] == kind)
            .await
    }
}

/// A friend challenge accepted: the two people (their cookies kept), the
/// game, and the seat replies of the creator and of the friend who joined.
pub struct Challenge {
    /// Who created it.
    pub creator: Browser,
    /// Who joined it.
    pub joiner: Browser,
    /// The game's id.
    pub game: String,
    /// The creator's reply (`game`, `seat`, `secret`).
    pub created: Value,
    /// The joiner's reply.
    pub joined: Value,
}

/// Creates a friend challenge with `body` (`opponent` set to `friend`) and
/// has a second person join it.
pub async fn challenge(addr: SocketAddr, body: Value) -> Challenge {
    let mut creator = Browser::new(addr);
    let mut joiner = Browser::new(addr);
    let (game, created, joined) = accepted(&mut creator, &mut joiner, body).await;
    Challenge {
        creator,
        joiner,
        game,
        created,
        joined,
    }
}

/// `creator` makes a friend challenge with `body` (`opponent` set to
/// `friend`) and `joiner` joins it: the game's id and the two seat replies.
pub async fn accepted(
    creator: &mut Browser,
    joiner: &mut Browser,
    body: Value,
) -> (String, Value, Value) {
    let mut body = body;
    body["opponent"] = json!("friend");
    let r = creator.post("/api/games", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let created = r.json();
    let game = created["game"].as_str().unwrap().to_string();
    let j = joiner
        .post(&format!("/api/games/{game}/join"), json!({}))
        .await;
    assert_eq!(j.status, 200, "{}", j.body);
    (game, created, j.json())
}

/// Both seats of a game connected: White and Black.
pub async fn seated(addr: SocketAddr, created: &Value, joined: &Value) -> (Player, Player) {
    let p1 = Player::connect(addr, created).await;
    let p2 = Player::connect(addr, joined).await;
    if p1.seat == "white" {
        (p1, p2)
    } else {
        (p2, p1)
    }
}

/// Two people in one game: White and Black, created by a friend challenge.
pub async fn friend_game(addr: SocketAddr, body: Value) -> (Player, Player) {
    let c = challenge(addr, body).await;
    seated(addr, &c.created, &c.joined).await
}

/// Plays moves alternately, each acknowledged.
pub async fn play_line(w: &mut Player, b: &mut Player, moves: &[&str]) {
    for (i, m) in moves.iter().enumerate() {
        let p = if i % 2 == 0 { &mut *w } else { &mut *b };
        let a = p.play(m).await;
        assert_eq!(a["t"], "ack", "move {m}: {a}");
    }
}

/// Defines a test on SQLite and its PostgreSQL twin.
#[macro_export]
macro_rules! both_dbs {
    ($name:ident, $body:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$body($crate::common::Db::Sqlite).await;
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                super::$body($crate::common::Db::Postgres).await;
            }
        }
    };
}

// ---------------------------------------------------------------- classes

/// A pupil of a [`ClassFixture`], logged in.
pub struct Pupil {
    /// The generated account name.
    pub name: String,
    /// The real name the teacher gave.
    pub real_name: String,
    /// The generated password.
    pub password: String,
    /// The identity key (`u:ID`).
    pub key: String,
    /// Its own cookies (logged in).
    pub web: Browser,
}

/// A class made straight in the store (for the tests of what builds on
/// classes): a teacher account logged in, the class, and its pupils.
pub struct ClassFixture {
    /// Class id.
    pub id: String,
    /// Class login code.
    pub code: String,
    /// The teacher's account name.
    pub teacher_name: String,
    /// The teacher's identity key.
    pub teacher_key: String,
    /// The teacher's cookies (logged in).
    pub teacher: Browser,
    /// The pupils, logged in.
    pub pupils: Vec<Pupil>,
}

/// A PHC string for `password`, Argon2id at its smallest cost (8 KiB, one
/// pass), for the accounts a test makes straight in the store. The server
/// checks a password against the parameters written in its PHC string, so
/// such an account logs in through `/api/login` like any other, for a
/// fraction of the CPU of the server's own parameters (19 MiB, two passes),
/// which every account the server makes (sign-up, a class's pupils) keeps.
pub fn cheap_hash(password: &str) -> String {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let mut salt = [0u8; 16];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut salt);
    let salt = SaltString::encode_b64(&salt).expect("salt");
    let params = argon2::Params::new(8, 1, 1, None).expect("argon2 parameters");
    argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params)
        .hash_password(password.as_bytes(), &salt)
        .expect("hash")
        .to_string()
}

/// Signs up a fresh account (a unique name from `prefix`) and returns its
/// cookies and name.
pub async fn account(addr: SocketAddr, prefix: &str) -> (Browser, String) {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = format!("{prefix}{}x{n}", std::process::id() % 10_000);
    let mut web = Browser::new(addr);
    let r = web
        .post(
            "/api/signup",
            json!({"name": name, "password": "contraseña-larga"}),
        )
        .await;
    assert_eq!(r.status, 200, "signup {name}: {}", r.body);
    (web, name)
}

/// A class of `n` pupils made in the store (their passwords hashed by
/// [`cheap_hash`]), the teacher and every pupil logged in through
/// `/api/login`.
pub async fn class_with_pupils(s: &Running, n: usize) -> ClassFixture {
    use escaque_server::classes::words;
    use escaque_server::store::classes::ClassRow;
    use escaque_server::store::UserRow;
    let addr = s.addr;
    let store = &s.hub.store;
    let (teacher, teacher_name) = account(addr, "Docente").await;
    let teacher_row = store
        .user_by_name(&teacher_name)
        .await
        .expect("store")
        .expect("teacher account");
    assert!(store
        .set_teacher(&teacher_name.to_lowercase())
        .await
        .expect("store"));
    let mut rng = rand::rng();
    let class = ClassRow {
        id: escaque_server::new_id(),
        name: format!("Clase {}", COUNTER.fetch_add(1, Ordering::Relaxed)),
        description: "Ajedrez en el cole".into(),
        login_code: words::class_code(&mut rng),
        created_by: teacher_row.id.clone(),
        created_ms: escaque_server::store::now_ms(),
        archived: false,
    };
    store.insert_class(&class).await.expect("insert class");
    let mut pupils = Vec::new();
    for i in 0..n {
        let password = words::password(&mut rng);
        let hash = cheap_hash(&password);
        let (user, name) = loop {
            let name = words::account_name(&mut rng);
            let user = UserRow {
                id: escaque_server::new_id(),
                name: name.clone(),
                pass_hash: hash.clone(),
            };
            let key = name.to_lowercase();
            if store
                .create_pupil(&class.id, &user, &key, &format!("Alumno Número {}", i + 1))
                .await
                .expect("create pupil")
            {
                break (user, name);
            }
        };
        let mut web = Browser::new(addr);
        let r = web
            .post("/api/login", json!({"name": name, "password": password}))
            .await;
        assert_eq!(r.status, 200, "pupil login: {}", r.body);
        pupils.push(Pupil {
            name,
            real_name: format!("Alumno Número {}", i + 1),
            password,
            key: format!("u:{}", user.id),
            web,
        });
    }
    ClassFixture {
        id: class.id,
        code: class.login_code,
        teacher_name,
        teacher_key: format!("u:{}", teacher_row.id),
        teacher,
        pupils,
    }
}
