#!/usr/bin/env bash
# Sums the gzip-compressed sizes of what the home and game pages load on a first
# visit (the HTML shell and every script, style sheet and image it pulls in).
# The budget is 300 KB; the same sum is asserted by `cargo test -p escaque-server web::`.
set -euo pipefail
web="$(cd "$(dirname "$0")/.." && pwd)/crates/escaque-server/web"
total=0
for f in index.html favicon.svg style.css app.js speech.js boardkeys.js i18n/es.js i18n/en.js \
         vendor/chessground/chessground.min.js vendor/chessground/chessground.base.css \
         vendor/chessground/chessground.cburnett.css; do
  raw=$(wc -c <"$web/$f")
  gz=$(gzip -9 -c "$web/$f" | wc -c)
  total=$((total + gz))
  printf '%-45s %8d bytes  %7d gzipped\n' "$f" "$raw" "$gz"
done
printf '%-45s %8s        %7d gzipped (%d KB; budget 300 KB)\n' "first load" "" "$total" $((total / 1024))
