//! The integration tests of escaque-analysis, one binary: each file is a module.

mod analyse;
mod annotate;
mod judge;
mod openings;
mod uci_engine;
