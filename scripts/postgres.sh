#!/usr/bin/env bash
# A local PostgreSQL for the storage tests: installs it with apt when missing, starts the newest
# cluster as the postgres user (pg_ctlcluster, no systemd), creates the role and database halali_test
# (the role may create databases: each test gets its own), and prints the SQLAlchemy URL on stdout.
# Idempotent: run it as often as you like. Diagnostics go to stderr.
#   export HALALI_TEST_PG_URL="$(bash scripts/postgres.sh)"
set -euo pipefail
# Only the URL goes to stdout: everything the tools print is sent to stderr.
exec 3>&1 1>&2
ROLE=halali_test
PASSWORD=halali_test
DB=halali_test

as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "postgres.sh: PostgreSQL is not installed; run as root (apt-get install -y postgresql)" >&2
    exit 1
  fi
  echo "postgres.sh: installing PostgreSQL" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq postgresql >/dev/null
fi

VERSION="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
if ! pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main"' | grep -q .; then
  echo "postgres.sh: creating cluster $VERSION/main" >&2
  pg_createcluster "$VERSION" main 3>&-
fi
PORT="$(pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $3}')"
STATUS="$(pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $4}')"
if [ "$STATUS" != online ]; then
  echo "postgres.sh: starting cluster $VERSION/main on port $PORT" >&2
  mkdir -p /var/run/postgresql && chown postgres:postgres /var/run/postgresql
  as_postgres pg_ctlcluster "$VERSION" main start 3>&-
fi
for _ in $(seq 1 50); do
  if as_postgres psql -p "$PORT" -Atqc 'select 1' >/dev/null 2>&1; then break; fi
  sleep 0.2
done

psql_admin() { as_postgres psql -p "$PORT" -v ON_ERROR_STOP=1 -Atq "$@"; }
if [ "$(psql_admin -c "select 1 from pg_roles where rolname = '$ROLE'")" != 1 ]; then
  psql_admin -c "create role $ROLE login createdb password '$PASSWORD'"
fi
if [ "$(psql_admin -c "select 1 from pg_database where datname = '$DB'")" != 1 ]; then
  psql_admin -c "create database $DB owner $ROLE"
fi
echo "postgresql+psycopg://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB" >&3
