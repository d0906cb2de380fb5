#!/usr/bin/env bash
# Installs Debian's gnuchess-book (the public-domain Polyglot book of GNU
# Chess, /usr/share/games/gnuchess/book.bin) if it is missing: the test that
# compares escaque's Polyglot reader with python-chess's
# (crates/escaque-engine/tests/book.rs) reads it. Idempotent; needs apt-get
# (root or sudo).
set -euo pipefail
BOOK=/usr/share/games/gnuchess/book.bin
if [ -r "$BOOK" ]; then
  echo "gnuchess-book already installed: $BOOK"
  exit 0
fi
source "$(dirname "${BASH_SOURCE[0]}")/lib-apt.sh"
apt_install gnuchess-book
echo "installed: $BOOK"
