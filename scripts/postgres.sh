#!/bin/sh
# Starts a throwaway PostgreSQL cluster for escaque's tests and prints the
# line that points the tests at it:
#
#   eval "$(scripts/postgres.sh)"      # sets ESCAQUE_TEST_POSTGRES
#
# Idempotent: installs Debian's postgresql package only if it is missing,
# creates the cluster only once, starts it only if it is not running.
# Listens on 127.0.0.1 only. Settings (environment):
#   ESCAQUE_PG_DIR   cluster directory (default /tmp/escaque-pg)
#   ESCAQUE_PG_PORT  port (default 54329)
# Everything the script says for people goes to standard error; standard
# output carries only the export line.
set -eu

DIR="${ESCAQUE_PG_DIR:-/tmp/escaque-pg}"
PORT="${ESCAQUE_PG_PORT:-54329}"
DB=escaque_test
ROLE=escaque

say() { echo "postgres.sh: $*" >&2; }

find_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

BIN="$(find_bin)"
if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        say "PostgreSQL is not installed and this is not root: apt-get install postgresql"
        exit 1
    fi
    say "installing postgresql (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update >&2
    apt-get install -y --no-install-recommends postgresql >&2
    BIN="$(find_bin)"
fi

# PostgreSQL refuses to run as root: run it as the postgres user then.
if [ "$(id -u)" -eq 0 ]; then
    as_pg() { runuser -u postgres -- "$@"; }
else
    as_pg() { "$@"; }
fi

if [ ! -f "$DIR/PG_VERSION" ]; then
    say "creating cluster in $DIR"
    mkdir -p "$DIR"
    if [ "$(id -u)" -eq 0 ]; then chown postgres:postgres "$DIR"; fi
    chmod 700 "$DIR"
    as_pg "$BIN/initdb" -D "$DIR" -A trust -U "$ROLE" --no-sync >&2
fi

if ! as_pg "$BIN/pg_ctl" -D "$DIR" status >/dev/null 2>&1; then
    say "starting on 127.0.0.1:$PORT"
    as_pg "$BIN/pg_ctl" -D "$DIR" -l "$DIR/server.log" -w \
        -o "-h 127.0.0.1 -p $PORT -k $DIR -c max_connections=300" start >&2
    # The tests make a fresh database for each test that needs one and never
    # drop it (a run may be killed half-way): on a cluster kept between runs
    # they pile up (thousands, 14 GB, and a crash then spends half an hour
    # syncing them). Nobody is connected yet, so drop what earlier runs left.
    as_pg "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U "$ROLE" -d postgres -tAc \
        "SELECT datname FROM pg_database WHERE NOT datistemplate AND datname NOT IN ('postgres', '$DB')" |
        while read -r old; do
            as_pg "$BIN/dropdb" -h 127.0.0.1 -p "$PORT" -U "$ROLE" "$old" >&2 || true
        done
fi

# The tests name each database they make after their process
# (`PREFIX_pPID_ID`, tests/common of escaque-server and escaque-cli), the
# per-process template included. A test cannot drop its own database (it
# has no hook after it, and a run may be killed), so each call drops those
# whose process is gone: a run of the suite cleans up after the one before,
# and the databases of a run still going are left alone.
as_pg "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U "$ROLE" -d postgres -tAc \
    "SELECT datname FROM pg_database WHERE datname ~ '_p[0-9]+_[a-z0-9]+$'" |
    while read -r old; do
        pid="$(echo "$old" | sed -E 's/.*_p([0-9]+)_[a-z0-9]+$/\1/')"
        if [ ! -d "/proc/$pid" ]; then
            as_pg "$BIN/dropdb" --force -h 127.0.0.1 -p "$PORT" -U "$ROLE" "$old" >&2 || true
        fi
    done

if ! as_pg "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U "$ROLE" -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1; then
    as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U "$ROLE" "$DB" >&2
fi

echo "export ESCAQUE_TEST_POSTGRES=postgres://$ROLE@127.0.0.1:$PORT/$DB"
