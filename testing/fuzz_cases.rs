//! How many cases a fuzz target (a proptest over a reader of outside
//! input: FEN, PGN, TRF, UCI commands) runs: its default in the test suite,
//! kept to a few seconds, or `ESCAQUE_FUZZ_CASES` for the long run
//! (`scripts/fuzz`, README's paragraph on long tests). Test files include
//! this file with `#[path]`, as `every_file_is_a_module.rs`.

/// `default`, or the number `ESCAQUE_FUZZ_CASES` gives.
pub fn cases(default: u32) -> u32 {
    std::env::var("ESCAQUE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(default)
}
