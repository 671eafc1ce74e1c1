#!/usr/bin/env bash
# PostgreSQL for flowagent's scale-out setup and tests.
#
#   scripts/postgres.sh [install]          install the server binaries (initdb, pg_ctl) with apt if missing
#   scripts/postgres.sh start [DIR] [PORT]  a local cluster in DIR (default .flowagent/postgres) on 127.0.0.1:PORT
#                                          (default 5433), trust auth, database `flowagent`; prints its URL
#   scripts/postgres.sh stop [DIR]         stop that cluster
#
# Idempotent and quiet. The tests start their own throw-away server; they only need `install`.
# The local cluster listens on the loopback address only and trusts every local user: development only.
set -euo pipefail

find_bindir() {
  if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"
    return 0
  fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
    echo "$dir"
    return 0
  fi
  return 1
}

install() {
  if find_bindir >/dev/null; then
    return 0
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: PostgreSQL (initdb, pg_ctl) is not installed and apt-get is not available; install the PostgreSQL server with your package manager" >&2
    exit 1
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  # Only the binaries: no system-wide cluster on port 5432.
  if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
    $sudo mkdir -p /etc/postgresql-common
    echo "create_main_cluster = false" | $sudo tee /etc/postgresql-common/createcluster.conf >/dev/null
  fi
  echo "==> installing PostgreSQL (apt)"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  if ! find_bindir >/dev/null; then
    echo "error: the postgresql package is installed but initdb/pg_ctl were not found" >&2
    exit 1
  fi
}

# Run a server binary as the `postgres` OS user when we are root (initdb and postgres refuse to run as root).
as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start() {
  local dir="${1:-.flowagent/postgres}" port="${2:-5433}" bindir
  install
  bindir=$(find_bindir)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres:postgres "$dir"
    if ! runuser -u postgres -- test -w "$dir"; then
      echo "error: the postgres OS user cannot write $dir (a parent directory is private); pass another DIR, e.g. /var/tmp/flowagent-postgres" >&2
      exit 1
    fi
  fi
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    as_postgres "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C >/dev/null
  fi
  if ! as_postgres "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    as_postgres "$bindir/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=''" start >/dev/null
  fi
  port=$(sed -n 4p "$dir/data/postmaster.pid")
  if ! "$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -tAc \
      "SELECT 1 FROM pg_database WHERE datname = 'flowagent'" | grep -q 1; then
    "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres flowagent
  fi
  echo "postgresql://postgres@127.0.0.1:$port/flowagent"
}

stop() {
  local dir="${1:-.flowagent/postgres}" bindir
  bindir=$(find_bindir) || return 0
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_postgres "$bindir/pg_ctl" -D "$(cd "$dir" && pwd)/data" -m fast -w stop >/dev/null
  fi
}

cmd="${1:-install}"
shift || true
case "$cmd" in
  install) install ;;
  start) start "$@" ;;
  stop) stop "$@" ;;
  *)
    echo "usage: scripts/postgres.sh [install] | start [DIR] [PORT] | stop [DIR]" >&2
    exit 2
    ;;
esac
