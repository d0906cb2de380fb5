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
source "$(dirname "${BASH_SOURCE[0]}")/lib-apt.sh"
apt_install poppler-utils
echo "installed: $(pdftoppm -v 2>&1 | head -1)"
