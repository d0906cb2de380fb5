//! The analysis queue shared by several `escaque servir` processes on one
//! PostgreSQL database (issue 28): a claim records the process; a process
//! that starts again does not queue again what another live process runs;
//! the analysis of a process killed with SIGKILL is done by another.
//!
//! The analysis engine is `escaque uci` behind a gate: a shell script that
//! passes the first `go`s through and holds the next until the test creates
//! the gate file, so an analysis stays running (with some progress made)
//! for as long as the test needs, whatever the machine's speed.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::common::cluster::{fresh_postgres, Node};
use crate::common::Client;
use serde_json::{json, Value};

/// Morphy's "opera game": 33 plies, 34 positions to analyse.
const OPERA: &str = r#"[Event "Paris"]
[White "Morphy"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7
8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7
14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
"#;

/// How many `go`s the gated engine answers before it waits for the gate.
const FREE_GOS: u32 = 4;

/// The lease of the processes (ms): a process is taken for gone after two.
const LEASE_MS: u64 = 1000;

/// A folder with the gated engine (`engine.sh`); the gate is `dir/gate`.
struct Gate {
    dir: PathBuf,
}

impl Gate {
    fn new(name: &str) -> Gate {
        let dir = crate::common::temp_dir(&format!("cluster-analysis-{name}"));
        let gate = dir.join("gate");
        // The wait is bounded (60 s) so that an engine left behind by a
        // failed test ends by itself.
        let script = format!(
            r#"#!/bin/sh
n=0
while IFS= read -r line; do
  case "$line" in
    go*)
      n=$((n + 1))
      if [ "$n" -gt {FREE_GOS} ]; then
        i=0
        while [ ! -f '{gate}' ] && [ "$i" -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
      fi
      ;;
  esac
  printf '%s\n' "$line"
done | exec '{escaque}' uci
"#,
            gate = gate.display(),
            escaque = env!("CARGO_BIN_EXE_escaque"),
        );
        let path = dir.join("engine.sh");
        std::fs::write(&path, script).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        Gate { dir }
    }

    fn engine(&self) -> String {
        self.dir.join("engine.sh").display().to_string()
    }

    fn open(&self) {
        std::fs::write(self.dir.join("gate"), "").unwrap();
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        self.open();
        let dir = self.dir.clone();
        // The engines still waiting see the gate open before it goes.
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(500));
            let _ = std::fs::remove_dir_all(dir);
        });
    }
}

/// A node analysing with the gated engine, shallow.
fn node(db: &str, name: &str, gate: &Gate) -> Node {
    let engine = gate.engine();
    Node::start(
        db,
        name,
        LEASE_MS,
        &["--motor-analisis", &engine, "--profundidad-analisis", "2"],
    )
}

/// The stored status, process and progress of analysis `id`.
fn stored(db: &str, id: &str) -> (String, Option<String>, i64) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::PgConnection::connect(db).await.expect("postgres");
        sqlx::query_as("SELECT status, node, progress FROM analyses WHERE id = $1")
            .bind(id)
            .fetch_one(&mut c)
            .await
            .expect("analysis row")
    })
}

/// Polls `what` every 100 ms until it gives `Some`, for at most `limit`.
fn until<T>(limit: Duration, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(t) = f() {
            return t;
        }
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Uploads the opera game on `addr`: the analysis's id.
fn upload(addr: std::net::SocketAddr) -> String {
    let r = Client::new(addr).post("/api/analysis", json!({"pgn": OPERA}));
    r["analyses"][0]["analysis"]
        .as_str()
        .unwrap_or_else(|| panic!("no analysis in {r}"))
        .to_string()
}

/// The analysis as `addr` shows it.
fn view(addr: std::net::SocketAddr, id: &str) -> Value {
    Client::new(addr).get(&format!("/api/analysis/{id}"))
}

/// Which of `nodes` runs analysis `id` (once one has claimed it and made
/// some progress), by index.
fn analyser(db: &str, id: &str, nodes: &[&Node]) -> usize {
    let name = until(Duration::from_secs(30), "claimed", || {
        match stored(db, id) {
            (s, Some(n), p) if s == "running" && p >= 1 => Some(n),
            _ => None,
        }
    });
    nodes
        .iter()
        .position(|n| n.name == name)
        .unwrap_or_else(|| panic!("claimed by an unknown process {name}"))
}

#[test]
fn a_restarted_process_does_not_take_a_running_analysis_again() {
    let Some(db) = fresh_postgres("can_restart") else {
        return;
    };
    let gate = Gate::new("restart");
    let a = node(&db, "a", &gate);
    let b = node(&db, "b", &gate);
    let id = upload(a.addr);
    let mut nodes = [a, b];
    let x = analyser(&db, &id, &[&nodes[0], &nodes[1]]);
    let y = 1 - x;
    let runner = nodes[x].name.clone();
    // The other process shows the analysis running, with the progress the
    // analysing process stored.
    let v = until(Duration::from_secs(10), "progress seen elsewhere", || {
        let v = view(nodes[y].addr, &id);
        (v["status"] == "running" && v["progress"]["done"].as_u64() >= Some(1)).then_some(v)
    });
    assert_eq!(v["progress"]["total"], 34, "{v}");

    // The other process starts again: it queues again only its own running
    // analyses and those of processes gone, not this one.
    nodes[y].restart();
    let (status, owner, _) = stored(&db, &id);
    assert_eq!(
        (status.as_str(), owner.as_deref()),
        ("running", Some(runner.as_str()))
    );
    // Nor does its sweeper while the analysing process lives (three
    // leases: its first sweep falls in them).
    std::thread::sleep(Duration::from_millis(3 * LEASE_MS));
    let (status, owner, _) = stored(&db, &id);
    assert_eq!(
        (status.as_str(), owner.as_deref()),
        ("running", Some(runner.as_str()))
    );

    gate.open();
    let v = until(Duration::from_secs(60), "done", || {
        let v = view(nodes[y].addr, &id);
        (v["status"] == "done").then_some(v)
    });
    assert_eq!(v["progress"]["done"], 34, "{v}");
    assert_eq!(v["analysis"]["plies"].as_array().map(Vec::len), Some(33));
    // Finished where it ran: nobody took it over.
    let (_, owner, _) = stored(&db, &id);
    assert_eq!(owner.as_deref(), Some(runner.as_str()));
}

#[test]
fn the_analysis_of_a_killed_process_is_done_by_another() {
    let Some(db) = fresh_postgres("can_kill") else {
        return;
    };
    let gate = Gate::new("kill");
    let a = node(&db, "a", &gate);
    let b = node(&db, "b", &gate);
    let id = upload(b.addr);
    let mut nodes = [a, b];
    let x = analyser(&db, &id, &[&nodes[0], &nodes[1]]);
    let y = 1 - x;
    let survivor = nodes[y].name.clone();
    let killed = Instant::now();
    nodes[x].kill();
    // Two leases without a heartbeat, then the survivor's sweeper queues it
    // again and its worker takes it.
    let taken = until(Duration::from_secs(20), "taken over", || {
        match stored(&db, &id) {
            (s, Some(n), _) if s == "running" && n == survivor => Some(killed.elapsed()),
            (s, _, _) if s == "done" => Some(killed.elapsed()),
            _ => None,
        }
    });
    assert!(
        taken >= Duration::from_millis(2 * LEASE_MS - LEASE_MS / 2),
        "taken over after {taken:?}, before two leases"
    );
    eprintln!("cluster_analysis: taken over {taken:?} after the kill");
    gate.open();
    let v = until(Duration::from_secs(60), "done", || {
        let v = view(nodes[y].addr, &id);
        (v["status"] == "done").then_some(v)
    });
    assert_eq!(v["analysis"]["plies"].as_array().map(Vec::len), Some(33));
    let (_, owner, _) = stored(&db, &id);
    assert_eq!(owner.as_deref(), Some(survivor.as_str()));
}
