//! escaque-torneo's integration tests, in one test binary (one link instead of
//! one per file). Each file in this folder is a module here; `common` is
//! what several of them share. A new test file must be added below: the
//! test `every_file_is_a_module` fails otherwise.

mod berger;
mod domain;
mod dutch_bbp;
mod dutch_no_pairing;
mod exchange;
mod fide;
mod gacrux;
mod generate;
mod glicko;
mod printouts;
mod ranking;
mod real;
mod school;
mod standings;
mod teams;
mod teams_friendship;
mod teams_replay;
mod tiebreak_rules;
mod tiebreaks_c07;
mod trf;
mod trf26;
mod unusual;

/// The number of cases of the fuzz targets (`ESCAQUE_FUZZ_CASES`), shared
/// by the test files that have one.
#[path = "../../../testing/fuzz_cases.rs"]
mod fuzz_cases;

/// Every `tests/*.rs` file is declared above (the check every package
/// shares).
#[path = "../../../testing/every_file_is_a_module.rs"]
mod every_file_is_a_module;
/// The package's modules import one another one way (the check every
/// package shares).
#[path = "../../../testing/imports_run_one_way.rs"]
mod imports_run_one_way;
