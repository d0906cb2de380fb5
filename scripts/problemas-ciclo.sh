#!/bin/bash
# The long run of issue 56 on a shared machine: ONE process at a time, every
# step at `nice -n 19`, everything written as it is found, so that it can be
# stopped at any moment (kill the loop's pid) and resumed with the same
# arguments:
#
#   bash scripts/problemas-ciclo.sh DIR SEED UNTIL [CHUNK [MIN_ELO MAX_ELO SPREAD [RIVAL_NODES]]]
#
# Until UNTIL (a time `date -d` reads, e.g. 12:05 for today in UTC), over and
# over, chunk k (k = 0, 1, ...; chunks already done, DIR/partidas-k.done, are
# skipped):
# 1. escaque's engine plays CHUNK games (20 by default) against itself at
#    human strengths (`--example autopartidas -- CHUNK SEED+k*CHUNK MIN MAX
#    SPREAD`, 800 1500 300 by default) into DIR/partidas-k.pgn;
# 2. `--example problemas_lote` finds their puzzles (scan 10,000 nodes, probe
#    150,000, verify 1,000,000 with the stricter margin, then
#    generate::verify_rivals with every other solver move searched on its own
#    at RIVAL_NODES, 200,000 by default), appending to DIR/gen.csv (dropped
#    ones to DIR/gen-descartados.csv, proved mates to DIR/mates.csv);
# 3. `scripts/problemas-recheck.py` re-checks every new puzzle of DIR/gen.csv
#    with Debian's Stockfish 15.1 at 10,000,000 nodes (verdicts appended to
#    DIR/recheck.tsv).
# Then `python3 scripts/problemas-merge.py DIR/gen.csv -o OUT.csv --recheck
# DIR/recheck.tsv` keeps the passes.
#
# The generator's node counts come from PROBLEMAS_SCAN, PROBLEMAS_PROBE and
# PROBLEMAS_VERIFY (10000, 150000, 1000000 by default); with
# ESCAQUE_MOTOR_ANALISIS=/usr/games/stockfish the generator searches with
# Stockfish instead of escaque's engine (the fourth run of issue 56:
# 15000 1000000 4000000, RIVAL_NODES 0). Every PROBLEMAS_* variable
# problemas_lote reads passes through: PROBLEMAS_PRESCAN=2000 (the sixth and
# seventh runs) and PROBLEMAS_VERIFY_MARGIN / PROBLEMAS_VERIFY_MATE1_RIVAL
# (lichess's 0.7 / 0.6 instead of 0.85 / 0.45; BENCHMARKS.md, seventh run).
set -euo pipefail
dir=${1:?DIR}; seed=${2:?SEED}; until=${3:?UNTIL}; chunk=${4:-20}
lo=${5:-800}; hi=${6:-1500}; spread=${7:-300}; rivals=${8:-200000}
root=$(cd "$(dirname "$0")/.." && pwd)
end=$(date -d "$until" +%s)
mkdir -p "$dir"
bin=${PROBLEMAS_BIN:-$root/target/debug/examples}
for b in autopartidas problemas_lote; do
  [ -x "$bin/$b" ] || { echo "build first: cargo build --profile test -p escaque-analysis --example $b" >&2; exit 2; }
done
k=0
while [ "$(date +%s)" -lt "$end" ]; do
  if [ ! -e "$dir/partidas-$k.done" ]; then
    echo "$(date -u +%T) chunk $k: games" >&2
    nice -n 19 "$bin/autopartidas" "$chunk" $((seed + k * chunk)) "$lo" "$hi" "$spread" \
      > "$dir/partidas-$k.pgn"
    echo "$(date -u +%T) chunk $k: generator" >&2
    nice -n 19 "$bin/problemas_lote" "$dir/partidas-$k.pgn" "$dir/gen.csv" "$dir/mates.csv" \
      "${PROBLEMAS_SCAN:-10000}" "${PROBLEMAS_PROBE:-150000}" 0 1 "${PROBLEMAS_VERIFY:-1000000}" \
      "$rivals" 2>> "$dir/gen.log"
    touch "$dir/partidas-$k.done"
    echo "$(date -u +%T) chunk $k: re-check" >&2
    nice -n 19 python3 "$root/scripts/problemas-recheck.py" "$dir/gen.csv" \
      --nodes 10000000 --done "$dir/recheck.tsv" >> "$dir/recheck.log" 2>> "$dir/recheck.err" || true
  fi
  k=$((k + 1))
done
echo "$(date -u +%T) stopped at chunk $k" >&2
