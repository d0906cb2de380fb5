//! Python (with python-chess) run on a text, for the tests that check what
//! escaque writes against another reader. Each package's tests include this
//! file with `#[path]`.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `python3` (or `$PYTHON`) with `args` and `input` on its standard
/// input; what it printed. A failure (python-chess missing, a failed
/// assertion in the script) panics with what it wrote.
pub fn run_python(args: &[&str], input: &str) -> String {
    let mut child = Command::new(std::env::var("PYTHON").unwrap_or_else(|_| "python3".into()))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs (install python-chess with scripts/python-chess.sh)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "python-chess failed (is it installed? scripts/python-chess.sh)\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}
