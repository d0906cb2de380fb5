#!/usr/bin/env bash
# Aprende a jugar's figures (issue 55), measured, never asserted:
#  1. the course page's first load, compressed: the gzip -9 size of every
#     file /aprender/{stage} pulls in (the shell, app.js, the catalogues,
#     chessground, aprender.js, speech.js, boardkeys.js);
#  (the median time from a try to its verdict in a real Chromium is not
#  measured yet: the course's browser test has not landed, issue 55).
# Usage: nice -n 19 bash scripts/bench-aprender.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
web="$root/crates/escaque-server/web"
total=0
for f in index.html favicon.svg style.css app.js speech.js boardkeys.js aprender.js i18n/es.js i18n/en.js \
         vendor/chessground/chessground.min.js vendor/chessground/chessground.base.css \
         vendor/chessground/chessground.cburnett.css; do
  raw=$(wc -c <"$web/$f")
  gz=$(gzip -9 -c "$web/$f" | wc -c)
  total=$((total + gz))
  printf '%-45s %8d bytes  %7d gzipped\n' "$f" "$raw" "$gz"
done
printf '%-45s %8s        %7d gzipped (%d KB; goal 120 KB)\n' "files of /aprender" "" "$total" $((total / 1024))
