#!/usr/bin/env bash
# Install everything the test suite needs, then run it (ruff, mypy, the import contracts, then pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/pip install -q --disable-pip-version-check -e '.[test,research]'
# Browser tests drive Debian's chromium; services the storage tests need are started by scripts/.
if [ -f scripts/install-system.sh ]; then
  bash scripts/install-system.sh
fi
# PostgreSQL for the storage tests (they run on SQLite and on PostgreSQL); skipped when it cannot start.
if [ -z "${HALALI_TEST_PG_URL:-}" ]; then
  if HALALI_TEST_PG_URL="$(bash scripts/postgres.sh | tail -n 1)"; then
    export HALALI_TEST_PG_URL
  else
    echo "test.sh: no PostgreSQL; the PostgreSQL storage tests will be skipped" >&2
  fi
fi
.venv/bin/ruff check src tests benchmarks
# Type checking: what and how in pyproject.toml [tool.mypy].
.venv/bin/mypy
# The import contracts in pyproject.toml [tool.importlinter]: which package may import which, no cycles.
.venv/bin/lint-imports
# Two runs: Playwright's synchronous API keeps an event loop running in the main thread for the
# rest of its session, which would break the tests that start their own asyncio loop.
status=0
.venv/bin/python -m pytest tests --ignore=tests/web "$@" || status=$?
.venv/bin/python -m pytest tests/web "$@" || status=$?
exit "$status"
