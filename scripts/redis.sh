#!/usr/bin/env bash
# Redis for the production server (`./run serve`) and its tests.
#
#   scripts/redis.sh [install]            install redis-server with apt if missing
#   scripts/redis.sh start [DIR] [PORT]   a local Redis in DIR (default .flowagent/redis) on 127.0.0.1:PORT
#                                         (default 6380), in the background; prints its URL
#   scripts/redis.sh stop [DIR]           stop that Redis
#
# Idempotent and quiet. The tests start their own throw-away Redis; they only need `install`.
# The local Redis listens on the loopback address only, without a password: development only.
set -euo pipefail

install() {
  if command -v redis-server >/dev/null 2>&1; then
    return 0
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: redis-server is not installed and apt-get is not available; install Redis with your package manager" >&2
    exit 1
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  echo "==> installing Redis (apt)"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
  # The package may start a system-wide server on 6379; ours run on their own ports, so that one is left alone.
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "error: the redis-server package is installed but redis-server was not found" >&2
    exit 1
  fi
}

start() {
  local dir="${1:-.flowagent/redis}" port="${2:-6380}"
  install
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if ! { [ -f "$dir/redis.pid" ] && kill -0 "$(cat "$dir/redis.pid")" 2>/dev/null; }; then
    redis-server --bind 127.0.0.1 --port "$port" --protected-mode yes --daemonize yes \
      --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" --save 60 1 --appendonly no >/dev/null
    for _ in $(seq 1 50); do
      if redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; then
        break
      fi
      sleep 0.1
    done
    echo "$port" >"$dir/port"
  fi
  if ! redis-cli -h 127.0.0.1 -p "$(cat "$dir/port")" ping 2>/dev/null | grep -q PONG; then
    echo "error: Redis did not start on 127.0.0.1:$port (log: $dir/redis.log)" >&2
    exit 1
  fi
  echo "redis://127.0.0.1:$(cat "$dir/port")/0"
}

stop() {
  local dir="${1:-.flowagent/redis}"
  if [ -f "$dir/redis.pid" ] && kill -0 "$(cat "$dir/redis.pid")" 2>/dev/null; then
    kill "$(cat "$dir/redis.pid")"
  fi
}

cmd="${1:-install}"
shift || true
case "$cmd" in
  install) install ;;
  start) start "$@" ;;
  stop) stop "$@" ;;
  *)
    echo "usage: scripts/redis.sh [install] | start [DIR] [PORT] | stop [DIR]" >&2
    exit 2
    ;;
esac
