#!/usr/bin/env bash
# Installs python-chess (PyPI package `chess`) for the test that plays
# Chess960 against `escaque uci` through python-chess's UCI client
# (crates/escaque-cli/tests/uci_python.rs). Idempotent: does nothing when
# `import chess` already works.
set -euo pipefail
PY="${PYTHON:-python3}"
if "$PY" -c "import chess.engine" 2>/dev/null; then
    exit 0
fi
"$PY" -m pip install --quiet "chess==1.11.2" \
    || "$PY" -m pip install --quiet --break-system-packages "chess==1.11.2"
"$PY" -c "import chess.engine"
