#!/usr/bin/env bash
# Installs Debian's Stockfish (package `stockfish`, /usr/games/stockfish) for
# the tests that drive a real UCI engine through escaque's UCI evaluator
# (crates/escaque-analysis/tests/uci_engine.rs and `escaque analizar
# --motor-analisis` in crates/escaque-cli/tests/analizar_cli.rs).
# Idempotent: does nothing when it is already there.
set -euo pipefail
SF="${ESCAQUE_STOCKFISH:-/usr/games/stockfish}"
if [ -x "$SF" ]; then
    echo "stockfish already installed: $SF"
    exit 0
fi
source "$(dirname "${BASH_SOURCE[0]}")/lib-apt.sh"
apt_install stockfish
echo "installed $SF"
