//! One check shared by every package's integration-test crate (each
//! `crates/*/tests/main.rs` includes this file with `#[path]`): with
//! `autotests = false` cargo no longer finds `tests/*.rs` files by itself, so
//! a test file that `tests/main.rs` does not declare as a module would never
//! run. This test fails then, naming it.

#[test]
fn every_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("tests/main.rs is readable");
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
