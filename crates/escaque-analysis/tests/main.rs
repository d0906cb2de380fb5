//! The integration tests of escaque-analysis, one binary: each file is a module.

mod analyse;
mod annotate;
mod book;
mod judge;
mod openings;
mod problemas;
mod uci_engine;

/// Python with python-chess, shared with the other packages' tests.
#[path = "../../../testing/python_chess.rs"]
mod python_chess;

#[path = "../../../testing/every_file_is_a_module.rs"]
mod every_file_is_a_module;
#[path = "../../../testing/imports_run_one_way.rs"]
mod imports_run_one_way;
