//! escaque's integration tests, in one test binary (one link instead of
//! one per file). Each file in this folder is a module here; `common` is
//! what several of them share. A new test file must be added below: the
//! test `every_file_is_a_module` fails otherwise.

mod adjourn;
mod chess960_game;
mod clock_fuzz;
mod dead;
mod differential;
mod differential960;
mod fen960_props;
mod game_endings;
mod game_vs_shakmaty;
mod notation;
mod notation_fuzz;
mod perft;
mod perft960;
mod pgn_data;
mod playable_fen;
mod properties;
mod rules;
mod sealed;

/// The number of cases of the fuzz targets (`ESCAQUE_FUZZ_CASES`), shared
/// by the test files that have one.
#[path = "../../../testing/fuzz_cases.rs"]
mod fuzz_cases;

/// Every `tests/*.rs` file is declared above (the check every package
/// shares).
#[path = "../../../testing/every_file_is_a_module.rs"]
mod every_file_is_a_module;
#[path = "../../../testing/imports_run_one_way.rs"]
mod imports_run_one_way;
