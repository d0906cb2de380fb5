#!/usr/bin/env bash
# Installs Debian's poppler-utils (pdftoppm) if it is missing: the login-card
# tests (crates/escaque-server/tests/class_cards.rs) print the cards' PDF to
# grey pixels with `pdftoppm` and read every QR code back. Idempotent; needs
# apt-get (root or sudo). The tests call this script themselves when
# `pdftoppm` is not on PATH.
set -euo pipefail
if command -v pdftoppm >/dev/null 2>&1; then
  echo "pdftoppm already installed: $(pdftoppm -v 2>&1 | head -1)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends poppler-utils >/dev/null
echo "installed: $(pdftoppm -v 2>&1 | head -1)"
