//! Runs the `escaque` binary as a script does: arguments, lines on standard
//! input through a pipe, text read back.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};

use serde_json::Value;

pub mod cluster;
pub mod killed;

/// A suffix no other test of this machine uses at the same time: the
/// process id and the clock's nanoseconds (temporary directories, database
/// names).
pub fn unique_suffix() -> String {
    format!(
        "{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
            % 1_000_000_000
    )
}

/// A new, empty temporary directory whose name starts with `escaque-{tag}-`.
pub fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("escaque-{tag}-{}", unique_suffix()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A tiny xorshift generator (kill points, random moves and frames): the
/// tests that kill processes draw from it.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// In `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// An index into something `n` long.
    pub fn pick(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
}

/// Runs `escaque ARGS` in a Spanish locale with `input` on standard input and
/// returns its standard output, standard error and whether it succeeded.
pub fn run_raw(args: &[&str], input: &str) -> (String, String, bool) {
    run_raw_env(args, input, &[])
}

/// [`run_raw`] with extra environment variables.
pub fn run_raw_env(args: &[&str], input: &str, env: &[(&str, &str)]) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .args(args)
        .env("LANG", "es_ES.UTF-8")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run escaque");
    // A command that stops early (an engine that cannot start, a missing
    // file) need not read its input: the pipe it closed is no failure.
    let written = child.stdin.take().unwrap().write_all(input.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

/// [`run_raw`], panicking (with both streams) unless it succeeds; returns
/// standard output.
#[allow(dead_code)] // not every test binary uses both helpers
pub fn run_with_input(args: &[&str], input: &str) -> String {
    let (stdout, stderr, ok) = run_raw(args, input);
    assert!(ok, "escaque {args:?} failed\n{stdout}\n{stderr}");
    stdout
}

/// Starts `escaque servir --puerto 0 --hilos-motor 1` with `storage`
/// (`["--datos", DIR]` or `["--db", URL]`) and reads the address it prints
/// on its first line.
pub fn start_servir(storage: &[&std::ffi::OsStr]) -> (std::process::Child, std::net::SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .args(["servir", "--puerto", "0", "--hilos-motor", "1"])
        .args(storage)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start escaque servir");
    let addr = read_address(&mut child, "escaque servir");
    (child, addr)
}

/// The address a started `escaque servir` prints on its first line
/// (`who` names it in the panic when there is none).
pub fn read_address(child: &mut std::process::Child, who: &str) -> std::net::SocketAddr {
    use std::io::{BufRead, BufReader};
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("address line");
    line.split("http://")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("{who}: no address in {line:?}"))
}

/// One identity's HTTP client: its cookies kept between requests.
pub struct Client {
    /// The server (a restarted server listens elsewhere: set it again).
    pub addr: SocketAddr,
    cookie: String,
}

impl Client {
    pub fn new(addr: SocketAddr) -> Client {
        Client {
            addr,
            cookie: String::new(),
        }
    }

    pub fn req(&mut self, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
        let mut s = TcpStream::connect(self.addr).unwrap();
        let b = body.map(Value::to_string).unwrap_or_default();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\nCookie: {}\r\n\r\n{b}",
            self.addr,
            b.len(),
            self.cookie
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        for l in head.lines() {
            if let Some((k, v)) = l.split_once(':') {
                if k.eq_ignore_ascii_case("set-cookie") {
                    let c = v.trim().split(';').next().unwrap_or("").to_string();
                    let name = c.split('=').next().unwrap_or("").to_string();
                    let mut kept: Vec<String> = self
                        .cookie
                        .split("; ")
                        .filter(|x| !x.is_empty() && !x.starts_with(&format!("{name}=")))
                        .map(str::to_string)
                        .collect();
                    kept.push(c);
                    self.cookie = kept.join("; ");
                }
            }
        }
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_string()
        };
        (status, body)
    }

    pub fn post(&mut self, path: &str, body: Value) -> Value {
        let (status, text) = self.req("POST", path, Some(&body));
        assert!((200..300).contains(&status), "POST {path}: {status} {text}");
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }

    pub fn get(&mut self, path: &str) -> Value {
        let (status, text) = self.req("GET", path, None);
        assert_eq!(status, 200, "GET {path}: {text}");
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }
}

/// A chunked HTTP body put together.
fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}
