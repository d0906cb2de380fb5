//! The annotated PGN: `[%eval …]` on every move, NAGs for the marks, a
//! comment in Spanish or English ("Error grave. Era mejor Cxe5.") and the
//! engine's line as a variation.
