#!/usr/bin/env bash
# Aprende a jugar's figures (issue 55), measured, never asserted:
#  1. the course page's first load, compressed: the gzip -9 size of every
#     file /aprender/{stage} pulls in (the shell, app.js, the catalogues,
#     chessground, aprender.js, speech.js, boardkeys.js);
#  2. the median time from a move on the board to its verdict drawn, in a
#     real Chromium on loopback (60 refused rook moves on /aprender/torre:
#     the ignored benchmark browser_aprender::aprender_answer_time; needs
#     `bash scripts/chromium.sh` once). It also prints the bytes the browser
#     was sent for the first load (transferSize: gzip as served + headers).
# Usage: nice -n 19 bash scripts/bench-aprender.sh [--sin-navegador]
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
if [ "${1:-}" != "--sin-navegador" ]; then
  cd "$root"
  cargo test -p escaque-server --test integration browser_aprender::aprender_answer_time \
    -- --ignored --nocapture 2>&1 | grep -E '^APRENDER_BENCH|panicked|FAILED'
fi
