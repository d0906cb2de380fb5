//! Runs the `escaque` binary as a script does: arguments, lines on standard
//! input through a pipe, text read back.

use std::io::Write;
use std::process::{Command, Stdio};

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
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
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
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .args(["servir", "--puerto", "0", "--hilos-motor", "1"])
        .args(storage)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start escaque servir");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("address line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    (child, addr)
}
