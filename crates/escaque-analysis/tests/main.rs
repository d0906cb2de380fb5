//! The integration tests of escaque-analysis, one binary: each file is a module.

mod analyse;
mod annotate;
mod book;
mod judge;
mod openings;
mod uci_engine;

/// Python with python-chess, shared with the other packages' tests.
#[path = "../../../testing/python_chess.rs"]
mod python_chess;
