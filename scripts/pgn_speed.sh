#!/usr/bin/env bash
# Games per second reading one PGN file, escaque and python-chess side by
# side in one run (issue 30). Each side reads every game of the file into its
# game tree (moves checked and played, comments, NAGs and variations kept):
# escaque with `PgnReader` (crates/escaque/examples/pgn_speed.rs, release
# build), python-chess with `chess.pgn.read_game`. Best of RUNS for each.
#
#   scripts/pgn_speed.sh [FILE] [RUNS]
#
# FILE defaults to the largest TWIC file in the corpus
# (crates/escaque/tests/data/pgn-corpus/pgn-parser__twic-01-232games.pgn).
# Needs python3 with python-chess (scripts/python-chess.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
FILE="${1:-crates/escaque/tests/data/pgn-corpus/pgn-parser__twic-01-232games.pgn}"
RUNS="${2:-5}"
PY="${PYTHON:-python3}"
cargo build --quiet --release -p escaque --example pgn_speed
ours=$(target/release/examples/pgn_speed "$FILE" "$RUNS")
theirs=$("$PY" - "$FILE" "$RUNS" <<'PYEOF'
import io, sys, time
import chess, chess.pgn
path, runs = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read().decode("utf-8", errors="replace")
best, games = float("inf"), 0
for _ in range(max(runs, 1)):
    f = io.StringIO(data)
    start = time.perf_counter()
    games = 0
    while chess.pgn.read_game(f) is not None:
        games += 1
    best = min(best, time.perf_counter() - start)
print("python-chess %s %d games %.4f s %.0f games/s" % (chess.__version__, games, best, games / best))
PYEOF
)
echo "$FILE ($(wc -c < "$FILE") bytes)"
echo "$ours"
echo "$theirs"
awk -v a="$(echo "$ours" | awk '{print $(NF-1)}')" -v b="$(echo "$theirs" | awk '{print $(NF-1)}')" \
    'BEGIN { printf "escaque / python-chess: %.1fx\n", a / b }'
