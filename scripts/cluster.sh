#!/usr/bin/env bash
# A whole cluster on this machine, from Debian packages: PostgreSQL (scripts/postgres.sh), Redis
# (redis-server), NODES server nodes, WORKERS bot workers and HAProxy as the front on 127.0.0.1:PORT
# (WebSockets proxied, nodes health-checked). docs/deploy.md says what each part does.
#
#   scripts/cluster.sh start      # then open http://127.0.0.1:8000/
#   scripts/cluster.sh status
#   scripts/cluster.sh stop       # nodes, workers, front and Redis; PostgreSQL stays up
#   scripts/cluster.sh stop --all # PostgreSQL too
#
# Settings (environment): HALALI_NODES (2), HALALI_WORKERS (1), HALALI_FRONT_PORT (8000),
# HALALI_NODE_PORT (8101: the first node's port, the next ones follow), HALALI_REDIS_PORT (6390),
# HALALI_CLUSTER_DIR (data/cluster), HALALI_CLUSTER_DB (halali_cluster), HALALI_LEASE_TTL (5).
set -euo pipefail
cd "$(dirname "$0")/.."
NODES="${HALALI_NODES:-2}"
WORKERS="${HALALI_WORKERS:-1}"
FRONT_PORT="${HALALI_FRONT_PORT:-8000}"
NODE_PORT="${HALALI_NODE_PORT:-8101}"
REDIS_PORT="${HALALI_REDIS_PORT:-6390}"
DIR="$(mkdir -p "${HALALI_CLUSTER_DIR:-data/cluster}" && cd "${HALALI_CLUSTER_DIR:-data/cluster}" && pwd)"
DB_NAME="${HALALI_CLUSTER_DB:-halali_cluster}"
LEASE_TTL="${HALALI_LEASE_TTL:-5}"
HALALI="${HALALI:-.venv/bin/halali}"
REDIS_URL="redis://127.0.0.1:${REDIS_PORT}/0"

log() { echo "cluster: $*" >&2; }

wait_for() {  # URL, what
  for _ in $(seq 1 150); do
    if curl -fsS -o /dev/null "$1" 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  log "$2 did not come up ($1)"
  return 1
}

stop_pid() {  # name
  local file="$DIR/$1.pid"
  if [ -f "$file" ]; then
    local pid
    pid="$(cat "$file")"
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$file"
  fi
}

database() {
  local test_url admin
  test_url="$(bash scripts/postgres.sh | tail -n 1)"  # starts PostgreSQL, makes the role halali_test
  admin() { if [ "$(id -un)" = postgres ]; then psql -Atq "$@"; else runuser -u postgres -- psql -Atq "$@"; fi; }
  local port
  port="$(echo "$test_url" | sed -E 's#.*:([0-9]+)/.*#\1#')"
  if [ "$(admin -p "$port" -c "select 1 from pg_database where datname = '$DB_NAME'")" != 1 ]; then
    admin -p "$port" -c "create database $DB_NAME owner halali_test" >/dev/null
  fi
  echo "${test_url%/*}/$DB_NAME"
}

start() {
  if [ ! -x "$HALALI" ]; then  # a fresh checkout: install the project first, as the README's first command does
    [ -x .venv/bin/python ] || python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check -e .
  fi
  bash scripts/install-system.sh
  local db
  db="$(database)"
  log "database $db"
  if [ ! -f "$DIR/redis.pid" ] || ! kill -0 "$(cat "$DIR/redis.pid")" 2>/dev/null; then
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$DIR" \
      --daemonize yes --pidfile "$DIR/redis.pid" --logfile "$DIR/redis.log"
    for _ in $(seq 1 50); do [ -s "$DIR/redis.pid" ] && break; sleep 0.1; done
  fi
  log "redis $REDIS_URL"
  local backends="" i port
  for i in $(seq 1 "$NODES"); do
    port=$((NODE_PORT + i - 1))
    if [ ! -f "$DIR/node$i.pid" ] || ! kill -0 "$(cat "$DIR/node$i.pid")" 2>/dev/null; then
      # Behind the front every client has the front's address: no open-table limit per address.
      director=()
      [ "$i" = 1 ] && director=(--tournament-director)  # one node runs the tournaments' rounds
      nohup "$HALALI" serve --port "$port" --db "$db" --redis "$REDIS_URL" --node-id "node$i" "${director[@]}" \
        --lease-ttl "$LEASE_TTL" --tables-per-address 0 --data "$DIR/node$i" >"$DIR/node$i.log" 2>&1 &
      echo $! >"$DIR/node$i.pid"
    fi
    backends+="    server node$i 127.0.0.1:$port check"$'\n'
  done
  for i in $(seq 1 "$NODES"); do
    wait_for "http://127.0.0.1:$((NODE_PORT + i - 1))/api/health" "node$i"
  done
  if "$HALALI" worker --help >/dev/null 2>&1; then
    for i in $(seq 1 "$WORKERS"); do
      if [ ! -f "$DIR/worker$i.pid" ] || ! kill -0 "$(cat "$DIR/worker$i.pid")" 2>/dev/null; then
        nohup "$HALALI" worker --redis "$REDIS_URL" --name "worker$i" >"$DIR/worker$i.log" 2>&1 &
        echo $! >"$DIR/worker$i.pid"
      fi
    done
  fi
  cat >"$DIR/haproxy.cfg" <<EOF
global
    maxconn 8000
defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    option forwardfor
    # A node that just died is tried once, then the request goes to another (before the checks notice).
    retries 2
    option redispatch
frontend halali
    bind 127.0.0.1:$FRONT_PORT
    default_backend nodes
backend nodes
    balance leastconn
    option httpchk GET /api/health
    default-server inter 1s fall 2 rise 1
$backends
EOF
  stop_pid haproxy
  haproxy -f "$DIR/haproxy.cfg" -D -p "$DIR/haproxy.pid"
  wait_for "http://127.0.0.1:$FRONT_PORT/api/health" "the front"
  log "up: http://127.0.0.1:$FRONT_PORT/ ($NODES nodes, front HAProxy, state in $DIR)"
}

stop() {
  stop_pid haproxy
  local f
  for f in "$DIR"/worker*.pid "$DIR"/node*.pid; do
    [ -e "$f" ] || continue
    stop_pid "$(basename "$f" .pid)"
  done
  stop_pid redis
  if [ "${1:-}" = "--all" ]; then
    local version
    version="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
    runuser -u postgres -- pg_ctlcluster "$version" main stop || true
  fi
  log "stopped"
}

status() {
  local f
  for f in "$DIR"/*.pid; do
    [ -e "$f" ] || continue
    if kill -0 "$(cat "$f")" 2>/dev/null; then echo "$(basename "$f" .pid): running"; else echo "$(basename "$f" .pid): dead"; fi
  done
}

case "${1:-}" in
  start) start ;;
  stop) shift; stop "${1:-}" ;;
  status) status ;;
  *) echo "usage: scripts/cluster.sh start | stop [--all] | status" >&2; exit 2 ;;
esac
