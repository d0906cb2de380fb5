#!/bin/bash
# The long run that builds escaque's shipped puzzle set (issue 56), on as many
# cores as it is given, every process at `nice -n 19`:
#
#   bash scripts/problemas-run.sh DIR GAMES SEED PROCS [MIN_ELO MAX_ELO SPREAD]
#
# 1. escaque's engine plays GAMES games against itself at human strengths
#    (`--example autopartidas -- GAMES SEED MIN_ELO MAX_ELO SPREAD`, both sides
#    drawn from MIN_ELO..MAX_ELO, 800 1500 300 by default) into DIR/partidas.pgn;
# 2. PROCS processes of `--example problemas_lote` share the games (process k
#    takes games k, k+PROCS, ...): the generator with escaque's engine (scan
#    10,000 nodes, probe 150,000, multipv 2), each puzzle verified again at
#    1,000,000 nodes with the stricter margin, tagged and rated, appended to
#    DIR/gen-K.csv (dropped ones to DIR/gen-K-descartados.csv, proved mates
#    to DIR/mates-K.csv), progress in DIR/gen-K.log;
# 3. when they end, `python3 scripts/problemas-merge.py` joins them.
#
# Re-check with Stockfish afterwards (or alongside, it resumes):
#   python3 scripts/problemas-recheck.py DIR/problemas.csv --done DIR/recheck.tsv
set -euo pipefail
dir=${1:?DIR}; games=${2:?GAMES}; seed=${3:?SEED}; procs=${4:?PROCS}
lo=${5:-800}; hi=${6:-1500}; spread=${7:-300}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir"
cd "$root"
cargo build --profile test -p escaque-analysis --example autopartidas --example problemas_lote
bin="$root/target/debug/examples"
if [ ! -s "$dir/partidas.pgn" ]; then
  nice -n 19 "$bin/autopartidas" "$games" "$seed" "$lo" "$hi" "$spread" > "$dir/partidas.pgn"
fi
pids=()
for k in $(seq 0 $((procs - 1))); do
  nice -n 19 "$bin/problemas_lote" "$dir/partidas.pgn" "$dir/gen-$k.csv" "$dir/mates-$k.csv" \
    10000 150000 "$k" "$procs" 1000000 2> "$dir/gen-$k.log" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
outs=()
for k in $(seq 0 $((procs - 1))); do outs+=("$dir/gen-$k.csv"); done
python3 "$root/scripts/problemas-merge.py" "${outs[@]}" -o "$dir/problemas.csv"
