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
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo -n"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >/dev/null
echo "installed: $(chromedriver --version | head -1)"
