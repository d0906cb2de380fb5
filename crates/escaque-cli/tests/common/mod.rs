//! Runs the `escaque` binary as a script does: arguments, lines on standard
//! input through a pipe, text read back.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `escaque ARGS` in a Spanish locale with `input` on standard input and
/// returns its output; panics, showing both streams, if it does not succeed.
pub fn run_with_input(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_escaque"))
        .args(args)
        .env("LANG", "es_ES.UTF-8")
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
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "exit {:?}\n{stdout}\n{stderr}",
        out.status
    );
    stdout
}
