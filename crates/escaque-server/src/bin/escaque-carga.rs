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
//!               [--procesos N | --servidores A,B,C] [--espectadores otro|mismo]
//! escaque-carga --modo notificar --db URL [--conexiones 1,4,16] [--segundos S]
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
//! Several processes (issue 28): `--procesos N` starts N servers
//! (`escaque-carga servidor --nodo a|b|c…`, the same settings) on one
//! PostgreSQL database (`--db`, required when N > 1); `--servidores A,B,C`
//! plays against servers already running at those addresses instead. Each
//! game is created and played on the server the game picks (game `g` on
//! server `g mod N`), as a proxy sticky by game would send it; with
//! `--espectadores otro` each game also has a spectator on the next server
//! (`g + 1 mod N`, through the process that does not own the game), with
//! `mismo` on the game's own. One table for the whole: games per second
//! (created, played and resigned, over the whole run), moves per second
//! (over the play), the move latency (sent → opponent) and the spectator
//! latency (sent → spectator), p50/p99/max, and the servers' memory when
//! this program started them.
//!
//! `--modo notificar` is the notifying-commit micro-benchmark (issue 28: a
//! transaction that issued NOTIFY takes a global lock at commit): on
//! `--db` (PostgreSQL), at `--conexiones 1,4,16` concurrent connections
//! (each its own), for `--segundos S` each (default 10), transactions that
//! insert a row and `pg_notify` a small payload, against the same
//! transactions without the notify, alternated; one listener connection
//! drains the channel as a server's bus would. It reports commits per
//! second and the COMMIT's p50/p99/max per cell.
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
use escaque_server::client::{body, http, GameSocket};
use escaque_server::proto::games::CreateGame;
use escaque_server::proto::ClientMsg;
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
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
    /// Servers already running (`--servidores`).
    servers: Vec<SocketAddr>,
    /// Servers to start (`--procesos`); 0: the one-server default.
    processes: usize,
    /// Where each game's spectator watches: `None`, `otro`, `mismo`.
    spectators: Option<String>,
    /// The `servidor` child's node name and lease.
    node: Option<String>,
    lease_ms: Option<u64>,
    /// `--modo notificar`.
    connections: Vec<usize>,
    seconds: u64,
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
        servers: Vec::new(),
        processes: 0,
        spectators: None,
        node: None,
        lease_ms: None,
        connections: vec![1, 4, 16],
        seconds: 10,
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
            "--servidores" | "--servers" => {
                a.servers = val()?
                    .split(',')
                    .filter(|t| !t.trim().is_empty())
                    .map(|t| {
                        t.trim()
                            .parse()
                            .map_err(|e| format!("{t}: {e} (EQUIPO:PUERTO / HOST:PORT)"))
                    })
                    .collect::<Result<_, _>>()?
            }
            "--procesos" | "--processes" => {
                a.processes = val()?.parse().map_err(|e| format!("{e}"))?
            }
            "--espectadores" | "--spectators" => {
                let v = val()?;
                match v.as_str() {
                    "otro" | "other" => a.spectators = Some("otro".into()),
                    "mismo" | "same" => a.spectators = Some("mismo".into()),
                    "no" | "none" => a.spectators = None,
                    _ => return Err(format!("--espectadores {v}: otro | mismo | no")),
                }
            }
            "--nodo" | "--node" => a.node = Some(val()?),
            "--arriendo-ms" | "--lease-ms" => {
                a.lease_ms = Some(val()?.parse().map_err(|e| format!("{e}"))?)
            }
            "--conexiones" | "--connections" => {
                a.connections = val()?
                    .split(',')
                    .map(|t| t.trim().parse().map_err(|e| format!("{t}: {e}")))
                    .collect::<Result<_, _>>()?
            }
            "--segundos" | "--seconds" => a.seconds = val()?.parse().map_err(|e| format!("{e}"))?,
            "--sqlite-normal" => a.normal_sync = true,
            "--modo" | "--mode" => a.mode = val()?,
            other => return Err(format!("opción desconocida / unknown option: {other}")),
        }
    }
    if a.processes > 1 && a.db.is_none() {
        return Err(
            "--procesos N > 1 necesita --db postgres://… (SQLite: un proceso) / \
                    --processes N > 1 needs --db postgres://… (SQLite: one process)"
                .into(),
        );
    }
    if a.processes > 0 && !a.servers.is_empty() {
        return Err(
            "--procesos o --servidores, no ambos / --processes or --servers, not both".into(),
        );
    }
    if a.mode == "notificar" && a.db.is_none() {
        return Err("--modo notificar necesita --db postgres://… / needs --db postgres://…".into());
    }
    if a.connections.contains(&0) {
        return Err("--conexiones: al menos 1 / at least 1".into());
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
        Some("servidor") => rt.block_on(serve_rules(
            args.db,
            !args.normal_sync,
            args.node,
            args.lease_ms,
        )),
        Some("eco") => rt.block_on(serve_echo()),
        _ if args.mode == "torneo" => rt.block_on(tournament::drive(args)),
        _ if args.mode == "notificar" => rt.block_on(notify::drive(args)),
        _ if args.processes > 0 || !args.servers.is_empty() => rt.block_on(cluster::drive(args)),
        _ if args.mode == "clase" => rt.block_on(class::drive(args)),
        _ => rt.block_on(drive(args)),
    }
}

// ---------------------------------------------------------------- servers

async fn serve_rules(
    db: Option<String>,
    full_sync: bool,
    node: Option<String>,
    lease_ms: Option<u64>,
) {
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
        node,
        lease: lease_ms
            .map(Duration::from_millis)
            .unwrap_or(escaque_server::Config::default().lease),
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

/// Every half second, the resident memory of the processes `pids` together
/// (KiB), kept in `peak` when it is the largest seen; runs until aborted.
fn sample_peak_rss(pids: Vec<u32>, peak: Arc<Mutex<u64>>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let r: u64 = pids.iter().map(|p| rss_kib(*p)).sum();
            {
                let mut p = peak.lock().unwrap_or_else(|e| e.into_inner());
                *p = (*p).max(r);
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    })
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
        let sampler = sample_peak_rss(vec![child.id()], Arc::clone(&peak));
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
    rules_game_on(addr, None, plies, think, seed, stats, go).await
}

/// A game created and played on `addr`; with `watch` (a server and the
/// spectators' statistics), a spectator on that server whose latency is
/// recorded too.
async fn rules_game_on(
    addr: SocketAddr,
    watch: Option<(SocketAddr, &Mutex<Stats>)>,
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
            Some(&body(&CreateGame {
                opponent: "friend".into(),
                color: Some("white".into()),
                time_control: Some("15+10".into()),
                ..CreateGame::default()
            })),
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
        let spectator = match watch {
            Some((at, _)) => {
                let mut s = GameSocket::connect(at, &format!("/ws/games/{id}"))
                    .await
                    .map_err(|e| format!("spectator: {e:?}"))?;
                s.until(WAIT, |v| v["t"] == "state")
                    .await
                    .map_err(|e| format!("spectator: {e:?}"))?;
                Some(s)
            }
            None => None,
        };
        Ok::<_, String>((socks, spectator))
    };
    let r = setup.await;
    go.wait().await;
    let (mut socks, mut spectator) = r?;
    let mut legal: Vec<String> = ["e2e4", "d2d4", "g1f3", "c2c4"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for ply in 0..plies {
        tokio::time::sleep(Duration::from_millis(rng.between(think.0, think.1))).await;
        let side = ply % 2;
        let mv = legal[(rng.next() % legal.len() as u64) as usize].clone();
        let (latency, watched, playing, next) =
            one_move_watched(&mut socks, spectator.as_mut(), side, &mv, ply).await?;
        record(stats, latency);
        if let (Some(w), Some((_, spectators))) = (watched, watch) {
            record(spectators, w);
        }
        legal = next;
        if !playing || legal.is_empty() {
            break;
        }
    }
    // Finished games do not weigh on the next run's start.
    let _ = socks[0].send_msg(&ClientMsg::Resign { id: None }).await;
    let _ = socks[0]
        .until(WAIT, |v| v["t"] == "ack" || v["t"] == "error")
        .await;
    for s in socks.into_iter().chain(spectator) {
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
        let msg = ClientMsg::Move {
            mv: "e2e4".into(),
            id: Some(ply as u64),
        };
        socks[side]
            .send_msg(&msg)
            .await
            .map_err(|e| format!("{e:?}"))?;
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

    use escaque_server::client::{body, http, GameSocket};
    use escaque_server::http::Identity;
    use escaque_server::proto::common::Empty;
    use escaque_server::proto::tournaments::JoinBody;
    use escaque_server::proto::ClientMsg;
    use escaque_server::tournament::{self as service, Settings, Who};
    use escaque_torneo::{System, Tournament};
    use serde_json::Value;
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
        // The cookie is `ID.MAC`; the identity is the id.
        let value = cookie.trim_start_matches("escaque_invitado=");
        let key = format!("g:{}", value.split('.').next().unwrap_or(value));
        let lobby = GameSocket::connect_with_cookie(addr, "/ws/lobby", &cookie)
            .await
            .map_err(|e| format!("{e:?}"))?;
        let headers = [("Cookie", cookie.as_str())];
        for (path, body) in [
            (
                "join",
                body(&JoinBody {
                    name: Some(format!("Jugador {:03}", i + 1)),
                }),
            ),
            ("present", body(&Empty {})),
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
                .send_msg(&ClientMsg::Resign { id: Some(999) })
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
    let (latency, _, playing, legal) = one_move_watched(socks, None, side, mv, ply).await?;
    Ok((latency, playing, legal))
}

/// [`one_move`], and with `spectator` the time until the spectator's
/// socket relays the move too (the two waited for at once).
async fn one_move_watched(
    socks: &mut [GameSocket],
    spectator: Option<&mut GameSocket>,
    side: usize,
    mv: &str,
    ply: usize,
) -> Result<(Duration, Option<Duration>, bool, Vec<String>), String> {
    let sent = Instant::now();
    let (first, second) = socks.split_at_mut(1);
    let (mover, opponent) = if side == 0 {
        (&mut first[0], &mut second[0])
    } else {
        (&mut second[0], &mut first[0])
    };
    mover
        .send_msg(&ClientMsg::Move {
            mv: mv.to_string(),
            id: Some(ply as u64),
        })
        .await
        .map_err(|e| format!("{e:?}"))?;
    let is_the_move =
        |v: &Value| v["t"] == "event" && v["event"] == "move" && v["plies"] == ply + 1;
    let opponent_sees = async {
        let ev = opponent
            .until(WAIT, |v| v["t"] == "error" || is_the_move(v))
            .await
            .map_err(|e| format!("{e:?}"))?;
        Ok::<_, String>((ev, sent.elapsed()))
    };
    let spectator_sees = async {
        match spectator {
            Some(s) => {
                let ev = s
                    .until(WAIT, |v| v["t"] == "error" || is_the_move(v))
                    .await
                    .map_err(|e| format!("spectator: {e:?}"))?;
                if ev["t"] == "error" {
                    return Err(format!("spectator: {ev}"));
                }
                Ok(Some(sent.elapsed()))
            }
            None => Ok(None),
        }
    };
    let (seen, watched) = tokio::join!(opponent_sees, spectator_sees);
    let (ev, latency) = seen?;
    let watched = watched?;
    if ev["t"] == "error" {
        return Err(ev.to_string());
    }
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
    Ok((latency, watched, ev["status"] == "playing", legal))
}

/// `--modo clase`: creating and printing a class, and a whole class logging
/// in from one address (issue 26).
mod class {
    use std::net::SocketAddr;
    use std::time::{Duration, Instant};

    use escaque_server::client::{body, http, HttpReply};
    use escaque_server::proto::classes::{AddPupils, CodeLogin, NewClass};
    use escaque_server::proto::games::Credentials;
    use serde_json::Value;
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
            Some(&body(&Credentials {
                name: teacher.clone(),
                password: "contraseña-de-la-carga".into(),
            })),
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
                Some(&body(&NewClass {
                    name: format!("Clase de carga {}", k + 1),
                    description: None,
                })),
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
                Some(&body(&AddPupils {
                    real_names: None,
                    text: Some(names(args.pupils, k)),
                })),
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
            let body = body(&CodeLogin {
                name: name.clone(),
                code: code.clone(),
            });
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

// ---------------------------------------------------------------- several processes

/// `--procesos N` / `--servidores A,B,C`: games spread over several servers
/// (issue 28).
mod cluster {
    use std::net::SocketAddr;
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use super::{rss_kib, rules_game_on, spawn_child, Args, Stats};

    /// The name of the `i`-th process started here: `a`, `b`, `c`, …
    fn node_name(i: usize) -> String {
        match u8::try_from(i) {
            Ok(i) if i < 26 => char::from(b'a' + i).to_string(),
            _ => format!("n{i}"),
        }
    }

    pub(super) async fn drive(args: Args) {
        let mut children = Vec::new();
        let servers: Vec<SocketAddr> = if args.processes > 0 {
            let mut v = Vec::new();
            for i in 0..args.processes {
                let mut a: Vec<String> = vec!["servidor".into(), "--nodo".into(), node_name(i)];
                if let Some(db) = &args.db {
                    a.extend(["--db".into(), db.clone()]);
                } else if args.normal_sync {
                    a.push("--sqlite-normal".into());
                }
                if let Some(ms) = args.lease_ms {
                    a.extend(["--arriendo-ms".into(), ms.to_string()]);
                }
                let refs: Vec<&str> = a.iter().map(String::as_str).collect();
                let (child, addr) = spawn_child(&refs);
                children.push(child);
                v.push(addr);
            }
            v
        } else {
            args.servers.clone()
        };
        let n = servers.len();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let rss = |children: &[std::process::Child]| -> u64 {
            children.iter().map(|c| rss_kib(c.id())).sum()
        };
        let rss0 = rss(&children);
        let stats = Arc::new(Mutex::new(Stats::default()));
        let watching = Arc::new(Mutex::new(Stats::default()));
        let start = Instant::now();
        let go = Arc::new(tokio::sync::Barrier::new(args.games + 1));
        let mut tasks = Vec::new();
        for g in 0..args.games {
            let play = servers[g % n];
            let watch = match args.spectators.as_deref() {
                Some("otro") => Some(servers[(g + 1) % n]),
                Some(_) => Some(play),
                None => None,
            };
            let (stats, watching, go) =
                (Arc::clone(&stats), Arc::clone(&watching), Arc::clone(&go));
            let (plies, think) = (args.plies, args.think);
            tasks.push(tokio::spawn(async move {
                let w = watch.map(|at| (at, &*watching));
                let r = rules_game_on(play, w, plies, think, g as u64, &stats, &go).await;
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
        let peak = Arc::new(Mutex::new(0u64));
        let pids: Vec<u32> = children.iter().map(|c| c.id()).collect();
        let sampler = crate::sample_peak_rss(pids, Arc::clone(&peak));
        for t in tasks {
            let _ = t.await;
        }
        sampler.abort();
        let play = play_start.elapsed();
        let total = start.elapsed();
        let peak = {
            let mut p = peak.lock().unwrap_or_else(|e| e.into_inner());
            *p = (*p).max(rss(&children));
            p.to_owned()
        };
        for mut c in children.drain(..) {
            let id = c.id();
            let _ = c.kill();
            let _ = c.wait();
            let _ =
                std::fs::remove_dir_all(std::env::temp_dir().join(format!("escaque-carga-{id}")));
        }
        let mut s = stats.lock().unwrap_or_else(|e| e.into_inner());
        s.latencies_us.sort_unstable();
        let mut w = watching.lock().unwrap_or_else(|e| e.into_inner());
        w.latencies_us.sort_unstable();
        let played = args.games as u64 - s.errors;
        let label = match (args.processes, &args.db) {
            (0, _) => format!("{n} servidores"),
            (p, Some(_)) => format!("{p} (PostgreSQL)"),
            (p, None) => format!("{p} (SQLite)"),
        };
        println!(
            "| procesos | partidas | partidas/s | jugadas | jugadas/s | p50 ms | p99 ms | máx ms | espectador p50 ms | espectador p99 ms | espectador máx ms | errores | RSS MiB |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        let spect = |p: f64| {
            if args.spectators.is_some() {
                format!("{:.1}", w.percentile_ms(p))
            } else {
                "–".to_string()
            }
        };
        println!(
            "| {label} | {} | {:.1} | {} | {:.0} | {:.1} | {:.1} | {:.1} | {} | {} | {} | {} | {} |",
            args.games,
            played as f64 / total.as_secs_f64(),
            s.moves,
            s.moves as f64 / play.as_secs_f64(),
            s.percentile_ms(0.5),
            s.percentile_ms(0.99),
            s.percentile_ms(1.0),
            spect(0.5),
            spect(0.99),
            spect(1.0),
            s.errors,
            if peak > 0 {
                format!("{:.1} → {:.1}", rss0 as f64 / 1024.0, peak as f64 / 1024.0)
            } else {
                "–".to_string()
            },
        );
        if let Some(e) = &s.first_error {
            eprintln!("  primer error / first error: {e}");
        }
        eprintln!(
            "  ({label}: preparación {:.1} s, juego {:.1} s, total {:.1} s; espectadores: {} jugadas vistas)",
            setup.as_secs_f64(),
            play.as_secs_f64(),
            total.as_secs_f64(),
            w.moves
        );
    }
}

// ---------------------------------------------------------------- notifying commits

/// `--modo notificar`: what a `pg_notify` in a transaction costs at commit
/// (issue 28).
mod notify {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use sqlx::postgres::{PgConnection, PgListener};
    use sqlx::Connection;

    use super::Args;

    const CHANNEL: &str = "escaque_carga";

    /// One cell: the commits made and each COMMIT's time (µs).
    struct Cell {
        commits: u64,
        commit_us: Vec<u64>,
        errors: u64,
        first_error: Option<String>,
    }

    fn pct(v: &[u64], p: f64) -> f64 {
        if v.is_empty() {
            0.0
        } else {
            v[((v.len() - 1) as f64 * p) as usize] as f64 / 1000.0
        }
    }

    fn fail(what: &str, e: impl std::fmt::Display) -> ! {
        eprintln!("escaque-carga: {what}: {e}");
        std::process::exit(1);
    }

    /// `conns` connections, each committing transactions for `secs`: an
    /// insert, then `pg_notify` (`notify`) or a statement of the same
    /// shape that notifies nothing, then COMMIT (timed).
    async fn cell(url: &str, conns: usize, notify: bool, secs: u64) -> Cell {
        let mut open = Vec::new();
        for _ in 0..conns {
            match PgConnection::connect(url).await {
                Ok(c) => open.push(c),
                Err(e) => fail("connect", e),
            }
        }
        let start = Arc::new(tokio::sync::Barrier::new(conns));
        let mut tasks = Vec::new();
        for (i, mut c) in open.into_iter().enumerate() {
            let start = Arc::clone(&start);
            tasks.push(tokio::spawn(async move {
                start.wait().await;
                let until = Instant::now() + Duration::from_secs(secs);
                let mut out = Cell {
                    commits: 0,
                    commit_us: Vec::new(),
                    errors: 0,
                    first_error: None,
                };
                let mut ply = 0u64;
                while Instant::now() < until {
                    ply += 1;
                    let payload = format!(r#"{{"k":"game","id":"carga{i:04}","ply":{ply}}}"#);
                    let r = async {
                        let mut tx = c.begin().await?;
                        sqlx::query("INSERT INTO carga_notificar (conn, ply) VALUES ($1, $2)")
                            .bind(i as i64)
                            .bind(ply as i64)
                            .execute(&mut *tx)
                            .await?;
                        let sql = if notify {
                            "SELECT pg_notify($1, $2)::text"
                        } else {
                            "SELECT ($1 || $2)::text"
                        };
                        sqlx::query(sql)
                            .bind(CHANNEL)
                            .bind(&payload)
                            .execute(&mut *tx)
                            .await?;
                        let t = Instant::now();
                        tx.commit().await?;
                        Ok::<_, sqlx::Error>(t.elapsed())
                    }
                    .await;
                    match r {
                        Ok(d) => {
                            out.commits += 1;
                            out.commit_us.push(d.as_micros() as u64);
                        }
                        Err(e) => {
                            out.errors += 1;
                            out.first_error.get_or_insert(e.to_string());
                        }
                    }
                }
                let _ = c.close().await;
                out
            }));
        }
        let mut all = Cell {
            commits: 0,
            commit_us: Vec::new(),
            errors: 0,
            first_error: None,
        };
        for t in tasks {
            match t.await {
                Ok(c) => {
                    all.commits += c.commits;
                    all.commit_us.extend(c.commit_us);
                    all.errors += c.errors;
                    if all.first_error.is_none() {
                        all.first_error = c.first_error;
                    }
                }
                Err(e) => {
                    all.errors += 1;
                    all.first_error.get_or_insert(e.to_string());
                }
            }
        }
        all.commit_us.sort_unstable();
        all
    }

    pub(super) async fn drive(args: Args) {
        let url = args.db.clone().unwrap_or_default();
        let mut admin = match PgConnection::connect(&url).await {
            Ok(c) => c,
            Err(e) => fail("connect", e),
        };
        let mut settings = Vec::new();
        for name in [
            "server_version",
            "fsync",
            "synchronous_commit",
            "wal_sync_method",
        ] {
            let v: String = sqlx::query_scalar(&format!("SHOW {name}"))
                .fetch_one(&mut admin)
                .await
                .unwrap_or_else(|e| e.to_string());
            settings.push(format!("{name} = {v}"));
        }
        if let Err(e) = sqlx::raw_sql(
            "DROP TABLE IF EXISTS carga_notificar; \
             CREATE TABLE carga_notificar (id BIGSERIAL PRIMARY KEY, conn BIGINT NOT NULL, ply BIGINT NOT NULL)",
        )
        .execute(&mut admin)
        .await
        {
            fail("create table", e);
        }
        // A listener draining the channel, as each server's bus does.
        let received = Arc::new(AtomicU64::new(0));
        let mut listener = match PgListener::connect(&url).await {
            Ok(l) => l,
            Err(e) => fail("listen", e),
        };
        if let Err(e) = listener.listen(CHANNEL).await {
            fail("listen", e);
        }
        let drain = {
            let received = Arc::clone(&received);
            tokio::spawn(async move {
                while listener.recv().await.is_ok() {
                    received.fetch_add(1, Ordering::Relaxed);
                }
            })
        };
        println!("PostgreSQL: {}", settings.join(", "));
        println!();
        println!(
            "| conexiones | NOTIFY en la transacción | commits | commits/s | COMMIT p50 ms | COMMIT p99 ms | COMMIT máx ms | errores |"
        );
        println!("|---|---|---|---|---|---|---|---|");
        let mut notified = 0;
        for &conns in &args.connections {
            for notify in [false, true] {
                let c = cell(&url, conns, notify, args.seconds).await;
                if notify {
                    notified += c.commits;
                }
                println!(
                    "| {conns} | {} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {} |",
                    if notify { "sí" } else { "no" },
                    c.commits,
                    c.commits as f64 / args.seconds as f64,
                    pct(&c.commit_us, 0.5),
                    pct(&c.commit_us, 0.99),
                    pct(&c.commit_us, 1.0),
                    c.errors
                );
                if let Some(e) = &c.first_error {
                    eprintln!("  primer error / first error: {e}");
                }
            }
        }
        // The listener has every notification (a NOTIFY is delivered at
        // commit; give it a moment to read the last).
        let deadline = Instant::now() + Duration::from_secs(5);
        while received.load(Ordering::Relaxed) < notified && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        drain.abort();
        println!();
        println!(
            "Notificaciones recibidas por la escucha / received by the listener: {} de {notified}",
            received.load(Ordering::Relaxed)
        );
        let _ = sqlx::raw_sql("DROP TABLE IF EXISTS carga_notificar")
            .execute(&mut admin)
            .await;
    }
}
