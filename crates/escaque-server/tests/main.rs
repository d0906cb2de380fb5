//! escaque-server's integration tests, in one test binary (one link instead of
//! one per file). Each file in this folder is a module here; `common` is
//! what several of them share (its macros, too). A new test file must be added below: the
//! test `every_file_is_a_module` fails otherwise.

#[macro_use]
mod common;
mod browser;
mod fuzz;
mod games;
mod lag;
mod refusals;
mod sockets;
mod upgrade;

/// Every `tests/*.rs` file is declared above (`autotests = false` means
/// cargo no longer finds them by itself).
#[test]
fn every_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = include_str!("main.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("tests/ is readable") {
        let name = entry.expect("a tests/ entry").file_name();
        let name = name.to_string_lossy();
        if let Some(stem) = name.strip_suffix(".rs") {
            if stem != "main" && !main.contains(&format!("\nmod {stem};")) {
                missing.push(name.to_string());
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not declared in tests/main.rs: {missing:?}"
    );
}
