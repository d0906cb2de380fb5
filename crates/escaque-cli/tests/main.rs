//! escaque-cli's integration tests, in one test binary (one link instead of
//! one per file). Each file in this folder is a module here; `common` is
//! what several of them share. A new test file must be added below: the
//! test `every_file_is_a_module` fails otherwise.

mod analizar_cli;
mod aprender_cli;
mod backup_cli;
mod bad_input_cli;
mod chess960_cli;
mod cluster_analysis;
mod cluster_bus;
mod cluster_handover;
mod cluster_kill;
mod cluster_nginx;
mod cluster_relay;
mod cluster_stop;
mod common;
mod dead_cli;
mod equipos_online_kill;
mod perft_cli;
mod pgn_cli;
mod problemas_cli;
mod result_check_cli;
mod resultados_kill;
mod servir_kill;
mod servir_torneo_kill;
mod tareas_kill;
mod texto;
mod torneo_cli;
mod torneo_comprobar_cli;
mod torneo_equipos_cli;
mod torneo_fide_cli;
mod uci_cli;
mod uci_python;

/// Whether a move lets the opponent mate at once, for the tests that
/// play the engine (shared with the other packages' tests).
#[path = "../../../testing/mate_in_one.rs"]
mod mate_in_one;

/// Every `tests/*.rs` file is declared above (the check every package
/// shares).
#[path = "../../../testing/every_file_is_a_module.rs"]
mod every_file_is_a_module;
#[path = "../../../testing/imports_run_one_way.rs"]
mod imports_run_one_way;
