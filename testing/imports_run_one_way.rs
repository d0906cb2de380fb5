//! One check shared by every package's integration-test crate (each
//! `crates/*/tests/main.rs` includes this file with `#[path]`): the package's
//! top-level modules import one another in one direction only, as
//! `scripts/module-deps.py` finds them (a lower module never imports a
//! higher one; DESIGN.md's layering, module by module). The script names the
//! circle when there is one.

#[test]
fn imports_run_one_way() {
    let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = crate_dir.join("../..");
    let out = std::process::Command::new("python3")
        .arg(root.join("scripts/module-deps.py"))
        .arg(crate_dir.join("src"))
        .output()
        .expect("python3 runs scripts/module-deps.py");
    let text = String::from_utf8_lossy(&out.stdout);
    let circles: Vec<&str> = text.lines().filter(|l| l.contains("CIRCLE")).collect();
    assert!(
        out.status.success() && circles.is_empty(),
        "scripts/module-deps.py finds import circles in {}: {circles:?}\n{}",
        crate_dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}
