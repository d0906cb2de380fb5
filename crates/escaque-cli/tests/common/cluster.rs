//! Several `escaque servir` processes on one PostgreSQL database (issue 28):
//! start them, kill them (SIGKILL), pause and resume them (SIGSTOP,
//! SIGCONT), start them again.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

/// A new, empty PostgreSQL database on the test server (`ESCAQUE_TEST_POSTGRES`),
/// named `prefix_`, this process's id and a number; its URL. `None` when no PostgreSQL is
/// configured, unless `ESCAQUE_REQUIRE_POSTGRES=1`, which fails the test.
pub fn fresh_postgres(prefix: &str) -> Option<String> {
    let url = match std::env::var("ESCAQUE_TEST_POSTGRES") {
        Ok(u) if !u.is_empty() => u,
        _ => {
            assert_ne!(
                std::env::var("ESCAQUE_REQUIRE_POSTGRES").as_deref(),
                Ok("1"),
                "ESCAQUE_REQUIRE_POSTGRES=1 but ESCAQUE_TEST_POSTGRES is not set"
            );
            eprintln!("PostgreSQL variant not run: ESCAQUE_TEST_POSTGRES is not set");
            return None;
        }
    };
    // `PREFIX_pPID_…`: scripts/postgres.sh drops it once this process is
    // gone (a test has no hook after it to drop its own).
    let name = format!("{prefix}_p{}", super::unique_suffix());
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        let mut admin = sqlx::PgConnection::connect(&url).await.expect("postgres");
        sqlx::raw_sql(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .expect("create database");
    });
    let (base, _) = url.rsplit_once('/').expect("URL ends with /DATABASE");
    let query = url
        .split_once('?')
        .map(|(_, q)| format!("?{q}"))
        .unwrap_or_default();
    Some(format!("{base}/{name}{query}"))
}

/// Runs `sql` on database `url` (a test's look into the database, or a
/// `pg_terminate_backend`).
pub fn sql(url: &str, sql: &str) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        use sqlx::Connection;
        let mut c = sqlx::PgConnection::connect(url).await.expect("postgres");
        sqlx::raw_sql(sql).execute(&mut c).await.expect("sql");
    });
}

/// One `escaque servir` process of a cluster.
pub struct Node {
    /// The process.
    pub child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its `--nodo` name.
    pub name: String,
    db: String,
    extra: Vec<String>,
}

impl Node {
    /// Starts `escaque servir --db DB --nodo NAME --puerto 0 --arriendo-ms
    /// LEASE_MS` with one engine thread and one analysis worker, plus
    /// `extra`.
    pub fn start(db: &str, name: &str, lease_ms: u64, extra: &[&str]) -> Node {
        let mut extra: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
        extra.extend(["--arriendo-ms".into(), lease_ms.to_string()]);
        Node::spawn(db, name, extra)
    }

    fn spawn(db: &str, name: &str, extra: Vec<String>) -> Node {
        let mut child = Command::new(env!("CARGO_BIN_EXE_escaque"))
            .args(["servir", "--puerto", "0", "--hilos-motor", "1"])
            .args(["--hilos-analisis", "1", "--db", db, "--nodo", name])
            .args(&extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start escaque servir");
        let addr = super::read_address(&mut child, &format!("node {name}"));
        Node {
            child,
            addr,
            name: name.to_string(),
            db: db.to_string(),
            extra,
        }
    }

    /// SIGKILL, and waits for the process to be gone.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends `signal` (`STOP`, `CONT`, `TERM`) to the process.
    pub fn signal(&self, signal: &str) {
        let ok = Command::new("kill")
            .args([format!("-{signal}"), self.child.id().to_string()])
            .status()
            .expect("kill")
            .success();
        assert!(ok, "kill -{signal} {}", self.child.id());
    }

    /// Starts the process again (same name, same database, a new port).
    pub fn restart(&mut self) {
        self.kill();
        let again = Node::spawn(&self.db, &self.name, self.extra.clone());
        *self = again;
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
