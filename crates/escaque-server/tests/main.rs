//! escaque-server's integration tests, in one test binary (one link instead of
//! one per file). Each file in this folder is a module here; `common` is
//! what several of them share (its macros, too). A new test file must be added below: the
//! test `every_file_is_a_module` fails otherwise.

#[macro_use]
mod common;
mod adjourn;
mod analysis;
mod api_me;
mod aprender;
mod browser;
mod browser_960;
mod browser_adjourn;
mod browser_analysis;
mod browser_aprender;
mod browser_class_day;
mod browser_class_events;
mod browser_classes;
mod browser_equipos;
mod browser_fide;
mod browser_inusuales;
mod browser_kid;
mod browser_problemas;
mod browser_rated;
mod browser_resultados;
mod browser_simul;
mod browser_tareas;
mod browser_tiebreaks;
mod browser_torneo;
mod chess960;
mod class_cards;
mod class_privacy;
mod class_roles;
mod class_tournaments;
mod classes;
mod equipos;
mod equipos_online;
mod fencing;
mod fide;
mod fuzz;
mod games;
mod kid_mode;
mod lag;
mod openings;
mod players;
mod problemas;
mod progress;
mod protocol_doc;
mod ratings;
mod refusals;
mod resultados;
mod resultados_inusuales;
mod security;
mod simuls;
mod sockets;
mod tareas;
mod tareas_juego;
mod tournament_domain;
mod tournaments;
mod tournaments_online;
mod tournaments_unusual;
mod upgrade;

/// Python with python-chess, shared with the other packages' tests.
#[path = "../../../testing/python_chess.rs"]
mod python_chess;

/// Whether a move lets the opponent mate at once, for the tests that
/// play the engine (shared with the other packages' tests).
#[path = "../../../testing/mate_in_one.rs"]
mod mate_in_one;

/// Every `tests/*.rs` file is declared above (the check every package
/// shares).
#[path = "../../../testing/every_file_is_a_module.rs"]
mod every_file_is_a_module;

/// The package's modules import one another one way (the check every
/// package shares; docs/architecture-server.md draws the floors).
#[path = "../../../testing/imports_run_one_way.rs"]
mod imports_run_one_way;
