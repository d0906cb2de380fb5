//! The integration tests of escaque-analysis, one binary: each file is a module.

mod openings;
