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
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends stockfish >/dev/null
echo "installed $SF"
