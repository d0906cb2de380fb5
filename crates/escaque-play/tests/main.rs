//! escaque-play's integration tests, in one test binary (one link instead of
//! one per file). Each file in this folder is a module here; `common` is
//! what several of them share. A new test file must be added below: the
//! test `every_file_is_a_module` fails otherwise.

mod aprender;
mod session;

/// Every `tests/*.rs` file is declared above (the check every package
/// shares).
#[path = "../../../testing/every_file_is_a_module.rs"]
mod every_file_is_a_module;
#[path = "../../../testing/imports_run_one_way.rs"]
mod imports_run_one_way;
