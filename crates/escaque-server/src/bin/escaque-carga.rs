//! `escaque-carga`: a load generator for `escaque servir`.
//!
//! Opens N concurrent games over WebSocket on loopback, two clients each,
//! playing legal moves (taken from the server's own `legal_uci`) on a clock,
//! with a think time between moves; reports moves per second, the time from a
//! move sent to the opponent receiving it (p50, p99, max), the server's memory
//! per game and the errors. Side by side, the same pattern against a bare
//! WebSocket relay built on the same stack (axum + tokio), which has no rules,
//! no clocks and no storage: the ratio is the cost of those.
//!
//! ```text
//! escaque-carga [--partidas N] [--jugadas M] [--pensar-ms A-B]
//!               [--db URL] [--modo reglas|eco|ambos] [--sqlite-normal]
//! ```
//!
//! The servers run as child processes of this one (`escaque-carga servidor`,
//! `escaque-carga eco`) so that their memory is measured alone.
//!
//! `--modo torneo` is an online Swiss instead (issue 24): `--jugadores N`
//! scripted players (default 300) join a tournament of `--rondas R` rounds
//! (default 3) with 1+0 games on SQLite, answer the roll call, and play each
//! round's games with moves from the legal list (`--jugadas M` plies, then
//! the side to move resigns). Per round it reports the pairing time (pairing,
//! storing the round with its games in one transaction, starting them), the
//! time from the round paired to every player seated at its game and to
//! every clock running (both sides' first moves made), and the move
//! latency. The server runs in this process (the tournament is created
//! through the service, as the organiser's request does); players reach it
//! only over HTTP and WebSocket.
//!
//! `--modo clase` measures a class (issue 26) on SQLite (or `--db`), with
//! the server's default per-address rate limit: a teacher creates
//! `--veces V` classes (default 5) of `--alumnos N` pupils (default 30)
//! from a pasted list of real names (`POST /api/classes/{id}/pupils`) and
//! prints each class's login cards (`GET /api/classes/{id}/cards.pdf`),
//! timed apiece; then the N pupils of the last class log in with the class
//! code all at once from this one address (`POST /api/classes/{id}/login`),
//! each login timed, with the total and the logins refused (a lockout would
//! show there). p50/p95 are over the V classes and over the N logins.

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use escaque_server::client::{http, GameSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::mpsc;

struct Args {
    games: usize,
    plies: usize,
    think: (u64, u64),
    db: Option<String>,
    mode: String,
    normal_sync: bool,
    players: usize,
    rounds: u32,
    pupils: usize,
    repeats: usize,
}

fn parse_args() -> Result<(Option<String>, Args), String> {
    let mut it = std::env::args().skip(1).peekable();
    let sub = match it.peek().map(String::as_str) {
        Some("servidor") | Some("eco") => it.next(),
        _ => None,
    };
    let mut a = Args {
        games: 100,
        plies: 30,
        think: (500, 1500),
        db: None,
        mode: "ambos".into(),
        normal_sync: false,
        players: 300,
        rounds: 3,
        pupils: 30,
        repeats: 5,
    };
    while let Some(flag) = it.next() {
        let mut val = || it.next().ok_or(format!("falta el valor de {flag}"));
        match flag.as_str() {
            "--partidas" | "--games" => a.games = val()?.parse().map_err(|e| format!("{e}"))?,
            "--jugadas" | "--plies" => a.plies = val()?.parse().map_err(|e| format!("{e}"))?,
            "--pensar-ms" | "--think-ms" => {
                let v = val()?;
                let (lo, hi) = v.split_once('-').unwrap_or((&v, &v));
                a.think = (
                    lo.parse().map_err(|e| format!("{e}"))?,
                    hi.parse().map_err(|e| format!("{e}"))?,
                );
            }
            "--db" => a.db = Some(val()?),
            "--jugadores" | "--players" => {
                a.players = val()?.parse().map_err(|e| format!("{e}"))?
            }
            "--rondas" | "--rounds" => a.rounds = val()?.parse().map_err(|e| format!("{e}"))?,
            "--alumnos" | "--pupils" => a.pupils = val()?.parse().map_err(|e| format!("{e}"))?,
            "--veces" | "--repeats" => a.repeats = val()?.parse().map_err(|e| format!("{e}"))?,
            "--sqlite-normal" => a.normal_sync = true,
            "--modo" | "--mode" => a.mode = val()?,
            other => return Err(format!("opción desconocida / unknown option: {other}")),
        }
    }
    Ok((sub, a))
}

fn main() {
    let (sub, args) = match parse_args() {
        Ok(x) => x,
        Err(e) => {
            eprintln!("escaque-carga: {e}");
            std::process::exit(2);
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    match sub.as_deref() {
        Some("servidor") => rt.block_on(serve_rules(args.db, !args.normal_sync)),
        Some("eco") => rt.block_on(serve_echo()),
        _ if args.mode == "torneo" => rt.block_on(tournament::drive(args)),
        _ if args.mode == "clase" => rt.block_on(class::drive(args)),
        _ => rt.block_on(drive(args)),
    }
}

// ---------------------------------------------------------------- servers

async fn serve_rules(db: Option<String>, full_sync: bool) {
    let dir = std::env::temp_dir().join(format!("escaque-carga-{}", std::process::id()));
    let config = escaque_server::Config {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        database: match db {
            Some(u) => escaque_server::Database::Url(u),
            None => escaque_server::Database::Dir(dir),
        },
        http_burst: 1e9,
        http_per_sec: 1e9,
        sqlite_full_sync: full_sync,
        ..escaque_server::Config::default()
    };
    let s = escaque_server::start(config).await.expect("server");
    println!("{}", s.addr);
    s.wait().await;
}

type Rooms = Arc<Mutex<HashMap<String, Vec<mpsc::Sender<Arc<str>>>>>>;

async fn serve_echo() {
    let rooms: Rooms = Arc::default();
    let app = Router::new()
        .route("/ws/eco/{room}", get(echo_ws))
        .with_state(rooms);
    let l = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    println!("{}", l.local_addr().expect("addr"));
    let _ = axum::serve(l, app).await;
}

async fn echo_ws(
    State(rooms): State<Rooms>,
    Path(room): Path<String>,
    ws: WebSocketUpgrade,
) -> Response {
    escaque_server::http::small_buffers(ws).on_upgrade(move |socket| echo_conn(rooms, room, socket))
}

/// Relays every text frame to everybody in the room (the sender too, as the
/// game server's event does) and acknowledges it to the sender.
async fn echo_conn(rooms: Rooms, room: String, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::channel::<Arc<str>>(512);
    rooms
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(room.clone())
        .or_default()
        .push(tx.clone());
    let writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            if sink.send(Message::Text(m.as_ref().into())).await.is_err() {
                break;
            }
        }
    });
    while let Some(Ok(msg)) = stream.next().await {
        if let Message::Text(t) = msg {
            let text: Arc<str> = Arc::from(t.as_str());
            let peers = rooms
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&room)
                .cloned()
                .unwrap_or_default();
            for p in peers {
                let _ = p.try_send(Arc::clone(&text));
            }
            let _ = tx.try_send(Arc::from(r#"{"t":"ack"}"#));
        }
    }
    writer.abort();
}

// ---------------------------------------------------------------- driver

fn spawn_child(args: &[&str]) -> (Child, SocketAddr) {
    let exe = std::env::current_exe().expect("own path");
    let mut child = Command::new(exe)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("child");
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
        &mut line,
    )
    .expect("address");
    let addr = line.trim().parse().expect("address line");
    (child, addr)
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

#[derive(Default)]
struct Stats {
    latencies_us: Vec<u64>,
    moves: u64,
    errors: u64,
    first_error: Option<String>,
}

impl Stats {
    /// The latency at fraction `p` (0–1) of the sorted latencies, in ms
    /// (0 when none was measured).
    fn percentile_ms(&self, p: f64) -> f64 {
        let v = &self.latencies_us;
        if v.is_empty() {
            0.0
        } else {
            v[((v.len() - 1) as f64 * p) as usize] as f64 / 1000.0
        }
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}

async fn drive(args: Args) {
    let modes: Vec<&str> = match args.mode.as_str() {
        "reglas" => vec!["reglas"],
        "eco" => vec!["eco"],
        _ => vec!["reglas", "eco"],
    };
    println!(
        "| servidor | partidas | jugadas | jugadas/s | p50 ms | p99 ms | máx ms | errores | RSS antes MiB | RSS con partidas MiB | KiB/partida |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for mode in modes {
        let db_arg;
        let (mut child, addr) = if mode == "reglas" {
            match &args.db {
                Some(u) => {
                    db_arg = u.clone();
                    spawn_child(&["servidor", "--db", &db_arg])
                }
                None if args.normal_sync => spawn_child(&["servidor", "--sqlite-normal"]),
                None => spawn_child(&["servidor"]),
            }
        } else {
            spawn_child(&["eco"])
        };
        tokio::time::sleep(Duration::from_millis(300)).await;
        let rss0 = rss_kib(child.id());
        let stats = Arc::new(Mutex::new(Stats::default()));
        let peak = Arc::new(Mutex::new(0u64));
        let start = Instant::now();
        let mut tasks = Vec::new();
        // Ready when every game is seated and connected; then all start.
        let go = Arc::new(tokio::sync::Barrier::new(args.games + 1));
        for g in 0..args.games {
            let stats = Arc::clone(&stats);
            let go = Arc::clone(&go);
            let (plies, think) = (args.plies, args.think);
            let mode = mode.to_string();
            tasks.push(tokio::spawn(async move {
                let r = if mode == "reglas" {
                    rules_game(addr, plies, think, g as u64, &stats, &go).await
                } else {
                    echo_game(addr, plies, think, g as u64, &stats, &go).await
                };
                if let Err(e) = r {
                    let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
                    s.errors += 1;
                    s.first_error.get_or_insert(e);
                }
            }));
        }
        go.wait().await;
        let setup = start.elapsed();
        let play_start = Instant::now();
        let pid = child.id();
        let peak2 = Arc::clone(&peak);
        let sampler = tokio::spawn(async move {
            loop {
                let r = rss_kib(pid);
                {
                    let mut p = peak2.lock().unwrap_or_else(|e| e.into_inner());
                    *p = (*p).max(r);
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        });
        for t in tasks {
            let _ = t.await;
        }
        sampler.abort();
        let wall = play_start.elapsed();
        let _ = child.kill();
        let _ = child.wait();
        let _ = std::fs::remove_dir_all(
            std::env::temp_dir().join(format!("escaque-carga-{}", child.id())),
        );
        let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
        s.latencies_us.sort_unstable();
        let pct = |p: f64| s.percentile_ms(p);
        let peak = *peak.lock().unwrap_or_else(|e| e.into_inner());
        println!(
            "| {} | {} | {} | {:.0} | {:.1} | {:.1} | {:.1} | {} | {:.1} | {:.1} | {:.1} |",
            if mode == "reglas" {
                if args.db.is_some() {
                    "escaque (PostgreSQL)"
                } else {
                    "escaque (SQLite)"
                }
            } else {
                "eco WebSocket"
            },
            args.games,
            s.moves,
            s.moves as f64 / wall.as_secs_f64(),
            pct(0.5),
            pct(0.99),
            pct(1.0),
            s.errors,
            rss0 as f64 / 1024.0,
            peak as f64 / 1024.0,
            peak.saturating_sub(rss0) as f64 / args.games as f64,
        );
        if let Some(e) = &s.first_error {
            eprintln!("  primer error / first error: {e}");
        }
        eprintln!(
            "  ({mode}: preparación {:.1} s, juego {:.1} s)",
            setup.as_secs_f64(),
            wall.as_secs_f64()
        );
    }
}

fn record(stats: &Mutex<Stats>, lat: Duration) {
    let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
    s.moves += 1;
    s.latencies_us.push(lat.as_micros() as u64);
}

const WAIT: Duration = Duration::from_secs(60);

async fn rules_game(
    addr: SocketAddr,
    plies: usize,
    think: (u64, u64),
    seed: u64,
    stats: &Mutex<Stats>,
    go: &tokio::sync::Barrier,
) -> Result<(), String> {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let setup = async {
        let created = http(
            addr,
            "POST",
            "/api/games",
            Some(&json!({"opponent": "friend", "color": "white", "time_control": "15+10"})),
            &[],
        )
        .await
        .map_err(|e| e.to_string())?
        .json();
        let id = created["game"].as_str().ok_or("no game")?.to_string();
        let joined = http(addr, "POST", &format!("/api/games/{id}/join"), None, &[])
            .await
            .map_err(|e| e.to_string())?
            .json();
        let mut socks = Vec::new();
        for secret in [&created["secret"], &joined["secret"]] {
            let path = format!("/ws/games/{id}?seat={}", secret.as_str().unwrap_or(""));
            let mut s = GameSocket::connect(addr, &path)
                .await
                .map_err(|e| format!("{e:?}"))?;
            s.until(WAIT, |v| v["t"] == "state")
                .await
                .map_err(|e| format!("{e:?}"))?;
            socks.push(s);
        }
        Ok::<_, String>(socks)
    };
    let r = setup.await;
    go.wait().await;
    let mut socks = r?;
    let mut legal: Vec<String> = ["e2e4", "d2d4", "g1f3", "c2c4"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for ply in 0..plies {
        tokio::time::sleep(Duration::from_millis(rng.between(think.0, think.1))).await;
        let side = ply % 2;
        let mv = legal[(rng.next() % legal.len() as u64) as usize].clone();
        let (latency, playing, next) = one_move(&mut socks, side, &mv, ply).await?;
        record(stats, latency);
        legal = next;
        if !playing || legal.is_empty() {
            break;
        }
    }
    // Finished games do not weigh on the next run's start.
    let _ = socks[0].send(&json!({"t": "resign"})).await;
    let _ = socks[0]
        .until(WAIT, |v| v["t"] == "ack" || v["t"] == "error")
        .await;
    for s in socks {
        s.close().await;
    }
    Ok(())
}

async fn echo_game(
    addr: SocketAddr,
    plies: usize,
    think: (u64, u64),
    seed: u64,
    stats: &Mutex<Stats>,
    go: &tokio::sync::Barrier,
) -> Result<(), String> {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let setup = async {
        let mut socks = Vec::new();
        for _ in 0..2 {
            socks.push(
                GameSocket::connect(addr, &format!("/ws/eco/{seed}"))
                    .await
                    .map_err(|e| format!("{e:?}"))?,
            );
        }
        Ok::<_, String>(socks)
    };
    let r = setup.await;
    go.wait().await;
    let mut socks = r?;
    for ply in 0..plies {
        tokio::time::sleep(Duration::from_millis(rng.between(think.0, think.1))).await;
        let side = ply % 2;
        let sent = Instant::now();
        let msg: Value = json!({"t": "move", "move": "e2e4", "id": ply});
        socks[side].send(&msg).await.map_err(|e| format!("{e:?}"))?;
        socks[1 - side]
            .until(WAIT, |v| v["t"] == "move" && v["id"] == ply)
            .await
            .map_err(|e| format!("{e:?}"))?;
        record(stats, sent.elapsed());
        socks[side]
            .until(WAIT, |v| v["t"] == "ack")
            .await
            .map_err(|e| format!("{e:?}"))?;
    }
    for s in socks {
        s.close().await;
    }
    Ok(())
}

// ---------------------------------------------------------------- tournament

mod tournament {
    use std::collections::HashMap;
    use std::net::SocketAddr;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use escaque_server::client::{http, GameSocket};
    use escaque_server::http::Identity;
    use escaque_server::tournament::{self as service, Settings, Who};
    use escaque_torneo::{System, Tournament};
    use serde_json::{json, Value};
    use tokio::sync::Mutex as AsyncMutex;

    use super::{record, Args, Rng, Stats, WAIT};

    /// One scripted player: its cookie and its lobby socket (where the
    /// server sends `your_game`).
    struct Entrant {
        key: String,
        lobby: AsyncMutex<GameSocket>,
    }

    fn ms(d: Duration) -> f64 {
        d.as_secs_f64() * 1000.0
    }

    async fn enter(addr: SocketAddr, id: &str, i: usize) -> Result<Entrant, String> {
        let me = http(addr, "GET", "/api/me", None, &[])
            .await
            .map_err(|e| e.to_string())?;
        let cookie = me
            .cookies()
            .into_iter()
            .find(|c| c.starts_with("escaque_invitado="))
            .ok_or("no guest cookie")?;
        let key = format!("g:{}", cookie.trim_start_matches("escaque_invitado="));
        let lobby = GameSocket::connect_with_cookie(addr, "/ws/lobby", &cookie)
            .await
            .map_err(|e| format!("{e:?}"))?;
        let headers = [("Cookie", cookie.as_str())];
        for (path, body) in [
            ("join", json!({"name": format!("Jugador {:03}", i + 1)})),
            ("present", json!({})),
        ] {
            let r = http(
                addr,
                "POST",
                &format!("/api/tournaments/{id}/{path}"),
                Some(&body),
                &headers,
            )
            .await
            .map_err(|e| e.to_string())?;
            if r.status != 200 {
                return Err(format!("{path}: {} {}", r.status, r.body));
            }
        }
        Ok(Entrant {
            key,
            lobby: AsyncMutex::new(lobby),
        })
    }

    /// When a board's players sat down and when its clock ran, from the
    /// round paired.
    #[derive(Default)]
    struct Board {
        seated: Duration,
        running: Duration,
    }

    async fn your_game(e: &Entrant, round: u32) -> Result<Value, String> {
        let mut ws = e.lobby.lock().await;
        ws.until(WAIT, |v| v["t"] == "your_game" && v["round"] == round)
            .await
            .map_err(|err| format!("your_game: {err:?}"))
    }

    #[allow(clippy::too_many_arguments)]
    async fn play_board(
        addr: SocketAddr,
        white: Arc<Entrant>,
        black: Arc<Entrant>,
        round: u32,
        paired: Instant,
        plies: usize,
        think: (u64, u64),
        seed: u64,
        stats: Arc<Mutex<Stats>>,
    ) -> Result<Board, String> {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut socks = Vec::new();
        for e in [&white, &black] {
            let g = your_game(e, round).await?;
            let path = g["ws"].as_str().ok_or("no ws")?.to_string();
            let mut s = GameSocket::connect(addr, &path)
                .await
                .map_err(|e| format!("{e:?}"))?;
            s.until(WAIT, |v| v["t"] == "state")
                .await
                .map_err(|e| format!("{e:?}"))?;
            socks.push(s);
        }
        let mut board = Board {
            seated: paired.elapsed(),
            ..Board::default()
        };
        let mut legal: Vec<String> = ["e2e4", "d2d4", "g1f3", "c2c4"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut over = false;
        for ply in 0..plies {
            if ply >= 2 {
                tokio::time::sleep(Duration::from_millis(rng.between(think.0, think.1))).await;
            }
            let side = ply % 2;
            let mv = legal[(rng.next() % legal.len() as u64) as usize].clone();
            let (latency, playing, next) = super::one_move(&mut socks, side, &mv, ply).await?;
            record(&stats, latency);
            if ply == 1 {
                board.running = paired.elapsed();
            }
            legal = next;
            if !playing || legal.is_empty() {
                over = true;
                break;
            }
        }
        if !over {
            // The side to move resigns: the result goes to the tournament.
            let side = plies % 2;
            socks[side]
                .send(&json!({"t": "resign", "id": 999}))
                .await
                .map_err(|e| format!("{e:?}"))?;
            let ack = socks[side]
                .until(WAIT, |v| v["t"] == "ack" || v["t"] == "error")
                .await
                .map_err(|e| format!("{e:?}"))?;
            if ack["t"] == "error" {
                return Err(ack.to_string());
            }
        }
        for s in socks {
            s.close().await;
        }
        Ok(board)
    }

    pub(super) async fn drive(args: Args) {
        let dir = std::env::temp_dir().join(format!("escaque-carga-torneo-{}", std::process::id()));
        let config = escaque_server::Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            database: match &args.db {
                Some(u) => escaque_server::Database::Url(u.clone()),
                None => escaque_server::Database::Dir(dir.clone()),
            },
            http_burst: 1e9,
            http_per_sec: 1e9,
            msgs_burst: 1e9,
            msgs_per_sec: 1e9,
            sqlite_full_sync: !args.normal_sync,
            ..escaque_server::Config::default()
        };
        let server = escaque_server::start(config).await.expect("server");
        let hub = Arc::clone(&server.hub);
        let addr = server.addr;
        let organiser = Identity {
            key: "g:escaque-carga".into(),
            name: "Organización".into(),
            account: false,
            managed: false,
        };
        let settings = Settings {
            time_control: Some("1+0".into()),
            ..Settings::default()
        };
        let t = Tournament::new("Carga", System::Swiss, args.rounds);
        let id = service::create(&hub, &organiser, "online", t, settings)
            .await
            .expect("tournament");
        let joining = Instant::now();
        let mut entrants = Vec::new();
        // One at a time: every join is a change of the one tournament row.
        for i in 0..args.players {
            match enter(addr, &id, i).await {
                Ok(e) => entrants.push(Arc::new(e)),
                Err(e) => {
                    eprintln!("escaque-carga: jugador {i}: {e}");
                    std::process::exit(1);
                }
            }
        }
        eprintln!(
            "  {} jugadores inscritos en {:.1} s",
            entrants.len(),
            joining.elapsed().as_secs_f64()
        );
        let by_key: HashMap<String, Arc<Entrant>> = entrants
            .iter()
            .map(|e| (e.key.clone(), Arc::clone(e)))
            .collect();
        println!(
            "| ronda | tableros | emparejar ms | todos sentados ms | todos los relojes ms | jugadas | p50 ms | p99 ms | máx ms | errores |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|");
        let who = Who::Organiser(organiser.clone());
        for _ in 0..args.rounds {
            let started = Instant::now();
            let round = match service::pair_next(&hub, &id, &who).await {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("escaque-carga: emparejar / pairing: {e:?}");
                    std::process::exit(1);
                }
            };
            let pairing = started.elapsed();
            let paired = Instant::now();
            let l = service::load(&hub, &id).await.expect("tournament");
            let owner = |n: u32| {
                l.players
                    .iter()
                    .find(|p| p.number == n)
                    .and_then(|p| p.owner.clone())
                    .and_then(|k| by_key.get(&k).cloned())
            };
            let stats = Arc::new(Mutex::new(Stats::default()));
            let mut tasks = Vec::new();
            let games = l.t.rounds[round as usize - 1].games.clone();
            for (b, g) in games.iter().enumerate() {
                let (Some(w), Some(bl)) = (owner(g.white), owner(g.black)) else {
                    eprintln!("escaque-carga: tablero {} sin jugadores", b + 1);
                    continue;
                };
                let stats = Arc::clone(&stats);
                let (plies, think) = (args.plies, args.think);
                let seed = u64::from(round) * 10_000 + b as u64;
                tasks.push(tokio::spawn(async move {
                    play_board(addr, w, bl, round, paired, plies, think, seed, stats).await
                }));
            }
            let mut seated = Duration::ZERO;
            let mut running = Duration::ZERO;
            for t in tasks {
                match t.await {
                    Ok(Ok(b)) => {
                        seated = seated.max(b.seated);
                        running = running.max(b.running);
                    }
                    Ok(Err(e)) => {
                        let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
                        s.errors += 1;
                        s.first_error.get_or_insert(e);
                    }
                    Err(e) => {
                        let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
                        s.errors += 1;
                        s.first_error.get_or_insert(e.to_string());
                    }
                }
            }
            // The results reach the tournament as the games end.
            let deadline = Instant::now() + WAIT;
            while Instant::now() < deadline {
                let l = service::load(&hub, &id).await.expect("tournament");
                if l.t.pending(round).is_empty() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
            s.latencies_us.sort_unstable();
            let pct = |p: f64| s.percentile_ms(p);
            println!(
                "| {round} | {} | {:.0} | {:.0} | {:.0} | {} | {:.1} | {:.1} | {:.1} | {} |",
                games.len(),
                ms(pairing),
                ms(seated),
                ms(running),
                s.moves,
                pct(0.5),
                pct(0.99),
                pct(1.0),
                s.errors,
            );
            if let Some(e) = &s.first_error {
                eprintln!("  primer error / first error: {e}");
            }
        }
        server.abort();
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// `side` plays `mv` (ply `ply`) on a game's two seat sockets: the time
/// until the opponent's socket relays it (the move latency measured), then
/// the mover's `ack`; gives the latency, whether the game goes on, and the
/// legal moves (UCI) of the side now to move.
async fn one_move(
    socks: &mut [GameSocket],
    side: usize,
    mv: &str,
    ply: usize,
) -> Result<(Duration, bool, Vec<String>), String> {
    let sent = Instant::now();
    socks[side]
        .send(&json!({"t": "move", "move": mv, "id": ply}))
        .await
        .map_err(|e| format!("{e:?}"))?;
    let ev = socks[1 - side]
        .until(WAIT, |v| {
            v["t"] == "error"
                || (v["t"] == "event" && v["event"] == "move" && v["plies"] == ply + 1)
        })
        .await
        .map_err(|e| format!("{e:?}"))?;
    if ev["t"] == "error" {
        return Err(ev.to_string());
    }
    let latency = sent.elapsed();
    let ack = socks[side]
        .until(WAIT, |v| v["t"] == "ack" || v["t"] == "error")
        .await
        .map_err(|e| format!("{e:?}"))?;
    if ack["t"] == "error" {
        return Err(ack.to_string());
    }
    let legal = ev["legal_uci"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    Ok((latency, ev["status"] == "playing", legal))
}

/// `--modo clase`: creating and printing a class, and a whole class logging
/// in from one address (issue 26).
mod class {
    use std::net::SocketAddr;
    use std::time::{Duration, Instant};

    use escaque_server::client::{http, HttpReply};
    use serde_json::{json, Value};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::Args;

    fn fail(what: &str, r: &HttpReply) -> ! {
        eprintln!("escaque-carga: {what}: {} {}", r.status, r.body);
        std::process::exit(1);
    }

    fn ms(d: Duration) -> f64 {
        d.as_secs_f64() * 1000.0
    }

    /// (p50, p95, max) of `v` in ms.
    fn spread(v: &mut [Duration]) -> (f64, f64, f64) {
        v.sort();
        let at = |p: f64| v.get(((v.len().max(1) - 1) as f64 * p) as usize).copied();
        (
            at(0.5).map(ms).unwrap_or(0.0),
            at(0.95).map(ms).unwrap_or(0.0),
            v.last().copied().map(ms).unwrap_or(0.0),
        )
    }

    /// `GET path` with `cookie`: status and the body's length in bytes.
    async fn get_len(addr: SocketAddr, path: &str, cookie: &str) -> Result<(u16, usize), String> {
        let mut s = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| e.to_string())?;
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n"
        );
        s.write_all(req.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).await.map_err(|e| e.to_string())?;
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .ok_or("no head")?;
        let status = String::from_utf8_lossy(&raw[..split])
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        Ok((status, raw.len() - split - 4))
    }

    fn names(n: usize, class: usize) -> String {
        const FIRST: &[&str] = &[
            "Sofía",
            "Mateo",
            "Valentina",
            "Santiago",
            "Martina",
            "Benjamín",
            "Lucía",
            "Tomás",
            "Emma",
            "Joaquín",
        ];
        const LAST: &[&str] = &[
            "Pérez",
            "González",
            "Rodríguez",
            "Fernández",
            "López",
            "Díaz",
            "Martínez",
            "Núñez",
        ];
        (0..n)
            .map(|i| {
                format!(
                    "{} {} {}",
                    FIRST[i % FIRST.len()],
                    LAST[(i / FIRST.len() + class) % LAST.len()],
                    i + 1
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub(super) async fn drive(args: Args) {
        let dir = std::env::temp_dir().join(format!(
            "escaque-carga-clase-{}-{}",
            std::process::id(),
            escaque_server::new_id()
        ));
        // The server's default per-address limit: the class logins must not
        // draw from it.
        let config = escaque_server::Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            database: match &args.db {
                Some(u) => escaque_server::Database::Url(u.clone()),
                None => escaque_server::Database::Dir(dir.clone()),
            },
            any_teacher: true,
            sqlite_full_sync: !args.normal_sync,
            ..escaque_server::Config::default()
        };
        let server = escaque_server::start(config).await.expect("server");
        let addr = server.addr;
        let teacher = format!("Docente{}", std::process::id() % 100_000);
        let r = http(
            addr,
            "POST",
            "/api/signup",
            Some(&json!({"name": teacher, "password": "contraseña-de-la-carga"})),
            &[],
        )
        .await
        .expect("http");
        if r.status != 200 {
            fail("signup", &r);
        }
        let cookie = r
            .cookies()
            .into_iter()
            .find(|c| c.starts_with("escaque_sesion="))
            .unwrap_or_else(|| fail("no session cookie", &r));
        let headers = [("Cookie", cookie.as_str())];
        let (mut adding, mut printing, mut both) = (Vec::new(), Vec::new(), Vec::new());
        let mut last: Option<(String, String, Vec<String>)> = None;
        let mut pdf_bytes = 0;
        for k in 0..args.repeats.max(1) {
            let r = http(
                addr,
                "POST",
                "/api/classes",
                Some(&json!({"name": format!("Clase de carga {}", k + 1)})),
                &headers,
            )
            .await
            .expect("http");
            if r.status != 201 {
                fail("POST /api/classes", &r);
            }
            let class = r.json();
            let id = class["id"].as_str().unwrap_or_default().to_string();
            let code = class["code"].as_str().unwrap_or_default().to_string();
            let t0 = Instant::now();
            let r = http(
                addr,
                "POST",
                &format!("/api/classes/{id}/pupils"),
                Some(&json!({"text": names(args.pupils, k)})),
                &headers,
            )
            .await
            .expect("http");
            let added = t0.elapsed();
            if r.status != 201 {
                fail("POST pupils", &r);
            }
            let pupils: Vec<String> = r.json()["pupils"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|p| p["name"].as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            if pupils.len() != args.pupils {
                eprintln!(
                    "escaque-carga: {} pupils made, {} asked",
                    pupils.len(),
                    args.pupils
                );
                std::process::exit(1);
            }
            let t1 = Instant::now();
            let (status, len) = get_len(addr, &format!("/api/classes/{id}/cards.pdf"), &cookie)
                .await
                .expect("cards");
            let printed = t1.elapsed();
            if status != 200 {
                eprintln!("escaque-carga: cards.pdf: {status}");
                std::process::exit(1);
            }
            pdf_bytes = len;
            adding.push(added);
            printing.push(printed);
            both.push(added + printed);
            last = Some((id, code, pupils));
        }
        println!(
            "| {} clases de {} alumnos | p50 ms | p95 ms | máx ms |",
            args.repeats.max(1),
            args.pupils
        );
        println!("|---|---|---|---|");
        for (what, v) in [
            ("crear los alumnos (POST pupils)", &mut adding),
            ("imprimir las tarjetas (cards.pdf)", &mut printing),
            ("crear + imprimir", &mut both),
        ] {
            let (p50, p95, max) = spread(v);
            println!("| {what} | {p50:.1} | {p95:.1} | {max:.1} |");
        }
        println!("\nPDF de {} tarjetas: {pdf_bytes} bytes\n", args.pupils);
        let Some((id, code, pupils)) = last else {
            return;
        };
        // The whole class at once, from this one address.
        let started = Instant::now();
        let logins = pupils.iter().map(|name| {
            let body = json!({"name": name, "code": code});
            let path = format!("/api/classes/{id}/login");
            async move {
                let t = Instant::now();
                let r = http(addr, "POST", &path, Some(&body), &[]).await;
                (t.elapsed(), r)
            }
        });
        let results = futures_util::future::join_all(logins).await;
        let total = started.elapsed();
        let mut times = Vec::new();
        let mut refused: Vec<String> = Vec::new();
        for (t, r) in results {
            match r {
                Ok(r) if r.status == 200 && r.json()["name"] != Value::Null => times.push(t),
                Ok(r) => refused.push(format!("{} {}", r.status, r.body)),
                Err(e) => refused.push(e.to_string()),
            }
        }
        let (p50, p95, max) = spread(&mut times);
        println!(
            "| {} entradas con el código de la clase, a la vez, desde 127.0.0.1 | |",
            pupils.len()
        );
        println!("|---|---|");
        println!("| aceptadas | {} |", times.len());
        println!("| rechazadas | {} |", refused.len());
        println!("| p50 ms | {p50:.1} |");
        println!("| p95 ms | {p95:.1} |");
        println!("| máx ms | {max:.1} |");
        println!("| total s | {:.2} |", total.as_secs_f64());
        if let Some(first) = refused.first() {
            eprintln!("escaque-carga: entradas rechazadas / logins refused: {first}");
            std::process::exit(1);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
