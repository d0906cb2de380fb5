#!/usr/bin/env bash
# Makes escaque's network (crates/escaque-engine/src/nnue.bin): self-play
# data from the engine as it is built (with the network it embeds at the
# time: the network of three generations learnt from them, the first played
# with the hand-written evaluation, the second with the first network, the
# third with the second; the shipped network is that one trained further,
# with NNUE_INIT, on a fourth generation played with it, and the result on
# a fifth played with the result; the engine's README
# says which builds, seeds, line counts and settings), then the project's own CPU
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
# beyond 10 pawns. Job i uses seed 101·i, or SEED_BASE + i when SEED_BASE
# is set (consecutive seeds give different games since `Rng::for_self_play`;
# before it, seeds 2k and 2k + 1 gave the same). With SECONDS_PER_JOB set,
# each job plays until that time is up, and a file stopped so is cut before
# its last line (the one the stop may have cut); a job that ends first keeps
# all its lines, and one that fails leaves its `.part` file and says so. This
# is how the third generation was made on a 16-core machine (SEED_BASE=1000
# SECONDS_PER_JOB=510 with 16 jobs, then SEED_BASE=2000 SECONDS_PER_JOB=225).
# Existing data files are kept (the script only trains when they are there):
# delete them to make them again.
#
# On this 2-core machine a job writes about 8,500 positions a minute (on the
# 16-core machine, about 8,000 a job); the network of the engine's README
# was trained on what it says there.
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
        seed=$((101 * i))
        [ -n "${SEED_BASE:-}" ] && seed=$((SEED_BASE + i))
        if [ -n "${SECONDS_PER_JOB:-}" ]; then
            (
                rc=0
                timeout "$SECONDS_PER_JOB" "$T" nnuedata "$GAMES" 5000 "$f.part" "$seed" 2>"$DIR/d$i.log" || rc=$?
                case $rc in
                0) mv "$f.part" "$f" ;;
                124) head -n -1 "$f.part" >"$f" && rm "$f.part" ;;
                *) echo "job $i failed ($rc): $DIR/d$i.log" >&2 ;;
                esac
            ) &
        else
            "$T" nnuedata "$GAMES" 5000 "$f" "$seed" 2>"$DIR/d$i.log" &
        fi
    fi
done
wait
# Training: seed 1, two threads; NNUE_LR, NNUE_WD, NNUE_LAMBDA and
# NNUE_RESIDUAL override the defaults of `escaque-tune nnue-train` (the
# network of three generations: NNUE_LAMBDA=1.0 NNUE_WD=1.0, six epochs),
# and NNUE_INIT names a network file to train further instead of starting
# from random weights (epoch 0 is then that network's own held-out error;
# the shipped network: NNUE_INIT=<the network of three generations>
# NNUE_LR=0.0003 NNUE_WD=0 NNUE_LAMBDA=1.0, three epochs, on the fourth
# generation alone).
"$T" nnue-train "$DIR/nnue.bin" "$EPOCHS" 1 2 "${files[@]}"
echo "network: $DIR/nnue.bin (copy it to crates/escaque-engine/src/nnue.bin)" >&2
