#!/usr/bin/env bash
# Installs python3 and python-chess (PyPI package `chess`) for the test that
# plays Chess960 against `escaque uci` through python-chess's UCI client
# (crates/escaque-cli/tests/uci_python.rs). Idempotent: does nothing when
# `import chess.engine` already works. Needs apt-get (root or sudo) only when
# python3 itself is missing; python-chess comes from PyPI (pip), or from
# Debian's python3-chess when pip cannot install.
set -euo pipefail
PY="${PYTHON:-python3}"
if "$PY" -c "import chess.engine" 2>/dev/null; then
    echo "python-chess already installed: $("$PY" -c 'import chess; print(chess.__version__)')"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
export DEBIAN_FRONTEND=noninteractive
if ! command -v "$PY" >/dev/null 2>&1 || ! "$PY" -m pip --version >/dev/null 2>&1; then
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends python3 python3-pip >/dev/null
fi
"$PY" -m pip install --quiet "chess==1.11.2" \
    || "$PY" -m pip install --quiet --break-system-packages "chess==1.11.2" \
    || $SUDO apt-get install -y -qq --no-install-recommends python3-chess >/dev/null
"$PY" -c "import chess.engine; print('installed python-chess', chess.__version__)"
