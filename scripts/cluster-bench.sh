#!/bin/sh
# Issue 28's load on this machine, one PostgreSQL (scripts/postgres.sh):
#
#   1. the same games (GAMES games of PLIES plies, think time THINK ms,
#      created, played and resigned) on one `escaque servir` process, then
#      spread over three processes on the same database (game g on process
#      g mod 3, as a proxy sticky by game sends it), the same settings;
#      spectators (SPECT: `otro`, on the next process, through the process
#      that does not own the game; `mismo`; `no`);
#   2. the notifying-commit micro-benchmark: commits per second of
#      transactions that `pg_notify` against the same transactions without
#      it, at 1, 4 and 16 connections, SECS seconds each, with the COMMIT's
#      percentiles (a transaction that issued NOTIFY takes a global lock at
#      commit).
#
# Each measurement runs on a fresh database and takes a minute or less.
# Settings (environment): GAMES (200), PLIES (40), THINK (0-20), SPECT
# (otro), SECS (10), CONNS (1,4,16), LEASE (the processes' lease in ms;
# default the server's, 10 s), PROFILE (release; `test` reuses the test
# build's optimised dependencies, target/debug).
#
#   sh scripts/cluster-bench.sh
#   PROFILE=test GAMES=60 SECS=5 sh scripts/cluster-bench.sh   # a quick trial
set -eu
cd "$(dirname "$0")/.."

GAMES="${GAMES:-200}"
PLIES="${PLIES:-40}"
THINK="${THINK:-0-20}"
SPECT="${SPECT:-otro}"
SECS="${SECS:-10}"
CONNS="${CONNS:-1,4,16}"
PROFILE="${PROFILE:-release}"
LEASE="${LEASE:-}"

say() { echo "cluster-bench.sh: $*" >&2; }

eval "$(sh scripts/postgres.sh)"
URL="$ESCAQUE_TEST_POSTGRES"
BASE="${URL%/*}"
PSQL="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)/psql"

say "building escaque-carga ($PROFILE)"
cargo build --profile "$PROFILE" -p escaque-server --bin escaque-carga >&2
case "$PROFILE" in
    dev | test) CARGA=target/debug/escaque-carga ;;
    *) CARGA="target/$PROFILE/escaque-carga" ;;
esac

# A fresh database for each measurement: its URL.
fresh() {
    name="escaque_cb_$1_$$"
    "$PSQL" -q "$URL" -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name" >/dev/null 2>&1
    echo "$BASE/$name"
}
drop() {
    "$PSQL" -q "$URL" -c "DROP DATABASE IF EXISTS ${1##*/}" >&2 || true
}

OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

set --
if [ -n "$LEASE" ]; then set -- --arriendo-ms "$LEASE"; fi
for P in 1 3; do
    DB="$(fresh "p$P")"
    say "$GAMES games on $P process(es)"
    "$CARGA" --procesos "$P" --db "$DB" --partidas "$GAMES" --jugadas "$PLIES" \
        --pensar-ms "$THINK" --espectadores "$SPECT" "$@" >"$OUT/p$P"
    drop "$DB"
done

DB="$(fresh notify)"
say "notifying commits at $CONNS connections, $SECS s each"
"$CARGA" --modo notificar --db "$DB" --conexiones "$CONNS" --segundos "$SECS" >"$OUT/notify"
drop "$DB"

echo "## cluster-bench.sh — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
echo
echo "Load: $GAMES games × $PLIES plies, think $THINK ms, spectators: $SPECT, lease: ${LEASE:-default} ms"
echo
head -n 2 "$OUT/p1"
tail -n 1 "$OUT/p1"
tail -n 1 "$OUT/p3"
echo
echo "Notifying commits ($SECS s per row):"
echo
cat "$OUT/notify"
