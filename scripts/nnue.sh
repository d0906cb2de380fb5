#!/usr/bin/env bash
# Makes escaque's network (crates/escaque-engine/src/nnue.bin): self-play
# data from the engine as it is built (with the network it embeds at the
# time: the shipped network learnt from two generations, the first played
# with the hand-written evaluation, the second with the first network; the
# engine's README says which builds and seeds), then the project's own CPU
# trainer (issue 29, item 4). The data is not committed; this script is how
# it is made again, and a seed gives the same data and the same network
# again on the same build.
#
#   scripts/nnue.sh DIR [GAMES_PER_JOB] [JOBS] [EPOCHS]
#
# DIR holds the data (one file per job, `FEN;RESULT;SCORE` lines: the
# position, the game's result for White and the 5,000-node search's score in
# centipawns for White; quiet positions only, as `escaque-tune nnuedata`
# writes them) and the network. Each job plays GAMES_PER_JOB games with
# 6 to 10 random first plies (an opening more than 1.5 pawns out of balance
# is drawn again), 5,000 nodes a move, wins adjudicated after six moves
# beyond 10 pawns. Job i uses seed 101·i. Existing data files are kept (the
# script only trains when they are there): delete them to make them again.
#
# On this 2-core machine a job writes about 8,500 positions a minute; the
# network of the engine's README was trained on what it says there.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:?usage: scripts/nnue.sh DIR [GAMES_PER_JOB] [JOBS] [EPOCHS]}
GAMES=${2:-6000}
JOBS=${3:-2}
EPOCHS=${4:-10}
mkdir -p "$DIR"
CARGO_BUILD_JOBS=2 cargo build --release -p escaque-tune >&2
T=target/release/escaque-tune
files=()
for i in $(seq 1 "$JOBS"); do
    f="$DIR/d$i.txt"
    files+=("$f")
    if [ ! -s "$f" ]; then
        "$T" nnuedata "$GAMES" 5000 "$f" $((101 * i)) 2>"$DIR/d$i.log" &
    fi
done
wait
# Training: seed 1, two threads; NNUE_LR, NNUE_WD, NNUE_LAMBDA and
# NNUE_RESIDUAL override the defaults of `escaque-tune nnue-train` (the
# shipped network: NNUE_LAMBDA=1.0 NNUE_WD=1.0, six epochs).
"$T" nnue-train "$DIR/nnue.bin" "$EPOCHS" 1 2 "${files[@]}"
echo "network: $DIR/nnue.bin (copy it to crates/escaque-engine/src/nnue.bin)" >&2
