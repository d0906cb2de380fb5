#!/usr/bin/env bash
# Installs Debian's headless browser for the browser tests (chromium and
# chromium-driver) if they are missing. Idempotent; needs apt-get (root or sudo).
# The browser tests (cargo test -p escaque-server --test integration browser) call this
# script themselves when `chromedriver` is not on PATH.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  echo "chromium and chromedriver already installed: $(chromedriver --version | head -1)"
  exit 0
fi
source "$(dirname "${BASH_SOURCE[0]}")/lib-apt.sh"
apt_install chromium chromium-driver fonts-dejavu-core
echo "installed: $(chromedriver --version | head -1)"
