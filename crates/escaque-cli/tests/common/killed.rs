//! What the SIGKILL tests share (servir_torneo_kill, resultados_kill,
//! tareas_kill): `escaque servir` on a data directory or on a PostgreSQL
//! database, killed with SIGKILL and started again on the same data, each
//! test run on both; and a request that tells "the server went away before
//! it answered" (`None`) from an answer; a seat holder's game socket.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Child;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// Where the server keeps its data.
#[derive(Clone)]
pub enum Data {
    /// SQLite files in a directory (`--datos`).
    Dir(std::path::PathBuf),
    /// A PostgreSQL database (`--db`).
    Postgres(String),
}

impl Data {
    /// Starts `escaque servir` on this data, with `extra` arguments.
    pub fn start(&self, extra: &[&str]) -> (Child, SocketAddr) {
        let mut args: Vec<&std::ffi::OsStr> = match self {
            Data::Dir(d) => vec!["--datos".as_ref(), d.as_os_str()],
            Data::Postgres(url) => vec!["--db".as_ref(), url.as_ref()],
        };
        args.extend(extra.iter().map(|a| std::ffi::OsStr::new(*a)));
        super::start_servir(&args)
    }

    /// Removes a data directory (a database is left to its owner).
    pub fn remove(&self) {
        if let Data::Dir(d) = self {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// Kills `child` with SIGKILL and waits for it.
pub fn sigkill(child: &mut Child) {
    child.kill().expect("SIGKILL");
    child.wait().expect("wait for the killed server");
}

/// Runs `test` on a fresh data directory named after `tag`.
pub fn on_sqlite(tag: &str, test: impl FnOnce(Data)) {
    let dir = std::env::temp_dir().join(format!("escaque-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let data = Data::Dir(dir);
    test(data.clone());
    data.remove();
}

/// Runs `test` on the database of `ESCAQUE_TEST_POSTGRES`; without it the
/// variant is said not run, or fails when `ESCAQUE_REQUIRE_POSTGRES=1`.
pub fn on_postgres(test: impl FnOnce(Data)) {
    match std::env::var("ESCAQUE_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => test(Data::Postgres(url)),
        _ => {
            assert_ne!(
                std::env::var("ESCAQUE_REQUIRE_POSTGRES").as_deref(),
                Ok("1"),
                "ESCAQUE_REQUIRE_POSTGRES=1 but ESCAQUE_TEST_POSTGRES is not set"
            );
            eprintln!("PostgreSQL variant not run: ESCAQUE_TEST_POSTGRES is not set");
        }
    }
}

/// An answer: the status, the JSON body (`null` when it is not JSON) and
/// the session cookie it set, if any.
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// The body read as JSON.
    pub body: Value,
    /// `name=value` of a `Set-Cookie`.
    pub cookie: Option<String>,
}

/// One request with `cookie`; `None` when the server is gone (killed)
/// before it answered.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    cookie: Option<&str>,
) -> Option<Answer> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(20))).ok()?;
    let b = body.map(|b| b.to_string()).unwrap_or_default();
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{cookie}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{b}",
        b.len()
    )
    .ok()?;
    let mut out = String::new();
    s.read_to_string(&mut out).ok()?;
    let (head, body) = out.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    let set = head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.eq_ignore_ascii_case("set-cookie")
            .then(|| v.trim().split(';').next().unwrap_or("").to_string())
    });
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        // One chunk is all these small answers take.
        body.split_once("\r\n")?
            .1
            .rsplit_once("\r\n0")?
            .0
            .to_string()
    } else {
        body.to_string()
    };
    Some(Answer {
        status,
        body: serde_json::from_str(&body).unwrap_or(Value::Null),
        cookie: set,
    })
}

/// A game's socket, as a seat holder opens it.
pub type Ws = WebSocket<MaybeTlsStream<TcpStream>>;

/// The seat holder's socket of `game` (reads time out after 20 s).
pub fn connect(addr: SocketAddr, game: &str, secret: &str) -> Ws {
    let (mut ws, _) = tungstenite::connect(format!("ws://{addr}/ws/games/{game}?seat={secret}"))
        .expect("game socket");
    if let MaybeTlsStream::Plain(s) = ws.get_mut() {
        let _ = s.set_read_timeout(Some(Duration::from_secs(20)));
    }
    ws
}

/// Reads (answering pings) until a message `pred` accepts.
pub fn read_until(ws: &mut Ws, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        match ws.read().expect("socket read") {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str()).expect("JSON");
                if v["t"] == "ping" {
                    let pong = json!({"t": "pong", "n": v["n"]});
                    let _ = ws.send(Message::Text(pong.to_string().into()));
                    continue;
                }
                if pred(&v) {
                    return v;
                }
            }
            Message::Close(_) => panic!("socket closed"),
            _ => {}
        }
    }
}

/// Sends `msg` and waits for its answer: the `ack` (or the `error`).
pub fn act(ws: &mut Ws, msg: Value) -> Value {
    ws.send(Message::Text(msg.to_string().into())).unwrap();
    read_until(ws, |v| v["t"] == "ack" || v["t"] == "error")
}

/// GETs `path` every 50 ms until `pred` holds (at most 30 s), and returns
/// that answer; `what` names the wait in the failure message.
pub fn wait_get(
    who: &mut super::Client,
    path: &str,
    what: &str,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let v = who.get(path);
        if pred(&v) {
            return v;
        }
        assert!(Instant::now() < deadline, "{what}: {v}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
