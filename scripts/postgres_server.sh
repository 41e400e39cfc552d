#!/usr/bin/env bash
# Starts or stops the PostgreSQL 15 server that the strategy memory's tests use (CTest starts it
# before them and stops it after: tests/memory/CMakeLists.txt). The server is Debian's
# postgresql-15 (scripts/setup.sh installs it), run as an unprivileged user: as root, a system
# user `kopt-postgres` that this script creates; otherwise, the calling user. It listens on
# 127.0.0.1 at a free port, asks for a password (a random one, made per start), and keeps its
# data in a folder of its own under the temporary folder; its durability is off (fsync), since
# the tests kill clients, never the server.
#
# Usage: scripts/postgres_server.sh start STATE_DIR   writes STATE_DIR/url (the URL, password
#                                                     and all) and STATE_DIR/data (where it runs)
#        scripts/postgres_server.sh stop STATE_DIR    stops it and removes its data
set -euo pipefail

action=${1:-}
state=${2:-}
if [ -z "$action" ] || [ -z "$state" ]; then
  echo "usage: $0 start|stop STATE_DIR" >&2
  exit 2
fi

bin=${KOPT_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
if [ ! -x "$bin/pg_ctl" ]; then
  echo "postgres_server.sh: no PostgreSQL 15 server in $bin: run scripts/setup.sh (it installs postgresql-15), or set KOPT_POSTGRES_BIN" >&2
  exit 1
fi

server_user=$(id -un)
as_server() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
  server_user=kopt-postgres
  if ! id "$server_user" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$server_user"
  fi
  as_server() { runuser -u "$server_user" -- "$@"; }
fi

stop_server() {
  [ -f "$state/data" ] || return 0
  local data
  data=$(cat "$state/data")
  if [ -d "$data/cluster" ]; then as_server "$bin/pg_ctl" -D "$data/cluster" -m immediate -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$data"
  rm -f "$state/data" "$state/url"
}

case "$action" in
  stop)
    stop_server
    ;;
  start)
    mkdir -p "$state"
    stop_server   # one left by a run that was killed
    data=$(mktemp -d "${TMPDIR:-/tmp}/kopt-postgres.XXXXXX")
    echo "$data" >"$state/data"
    chmod 700 "$data"
    if [ "$(id -u)" -eq 0 ]; then chown "$server_user" "$data"; fi
    password=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
    printf '%s\n' "$password" >"$data/password"
    if [ "$(id -u)" -eq 0 ]; then chown "$server_user" "$data/password"; fi
    as_server "$bin/initdb" -D "$data/cluster" -U kopt --pwfile="$data/password" --auth=scram-sha-256 \
      --encoding=UTF8 --locale=C >"$data/initdb.log" 2>&1 || { cat "$data/initdb.log" >&2; exit 1; }
    rm -f "$data/password"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_server "$bin/pg_ctl" -D "$data/cluster" -l "$data/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$data -c fsync=off -c max_connections=200" \
      start >/dev/null || { cat "$data/server.log" >&2; exit 1; }
    url="postgresql://kopt:$password@127.0.0.1:$port/postgres"
    (umask 077; printf '%s\n' "$url" >"$state/url")
    echo "postgres_server.sh: PostgreSQL 15 runs as $server_user on 127.0.0.1:$port (data in $data)"
    ;;
  *)
    echo "usage: $0 start|stop STATE_DIR" >&2
    exit 2
    ;;
esac
