#!/usr/bin/env bash
# The long run of the fuzz targets: the proptests over every reader of
# outside input, each with ESCAQUE_FUZZ_CASES cases instead of the few
# thousand (or few dozen) the test suite runs in seconds.
#
#   FEN         crates/escaque/tests/properties.rs (arbitrary text, FEN-like
#               fields, mutated start position)
#   PGN, SAN    crates/escaque/tests/notation_fuzz.rs
#   TRF         crates/escaque-torneo/tests/trf.rs (arbitrary text, mutated
#               files stored through write_checked, random player lines)
#   tournament  crates/escaque-torneo/tests/domain.rs (every model entry point:
#               accepted reads back, refused changes nothing)
#   UCI         crates/escaque-engine/tests/uci_input.rs (the command reader
#               on any bytes, ending with its input)
#
# Usage: scripts/fuzz.sh [CASES]   (default 100000; the UCI and tournament
# targets run CASES/100, as each of their cases plays whole sessions).
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-100000}"
few=$(( cases / 100 > 0 ? cases / 100 : 1 ))
ESCAQUE_FUZZ_CASES="$cases" cargo test -p escaque --test integration -- \
    properties:: notation_fuzz::
ESCAQUE_FUZZ_CASES="$cases" cargo test -p escaque-torneo --test integration -- trf::
ESCAQUE_FUZZ_CASES="$few" cargo test -p escaque-torneo --test integration -- domain::
ESCAQUE_FUZZ_CASES="$few" cargo test -p escaque-engine --test integration -- uci_input::
