#!/usr/bin/env bash
# Install everything the test suite needs, then run it: the compiled kernel built once, then the suite
# in parallel (pytest-xdist), the browser tests after the rest; ruff, mypy and the import contracts
# beside all that at a lower priority. Prints the slowest tests at the end of each half. Arguments go
# to both pytest runs.
#   HALALI_TEST_WORKERS (default 3), HALALI_BROWSER_WORKERS (default 3): pytest workers of each half.
set -euo pipefail
cd "$(dirname "$0")/.."
# Python keeps the modules it compiles (its __pycache__). With PYTHONDONTWRITEBYTECODE set, as on
# some machines, every process of the run (servers, bot workers, engines: hundreds of them) compiled
# again each module it imports that the install had not compiled: this project's own, and with uv
# (which compiles nothing) every library too, about 4 CPU-s a server (docs/performance.md).
unset PYTHONDONTWRITEBYTECODE
# The suite's Python: HALALI_TEST_PYTHON if set, else the distribution's own (/usr/bin/python3, as
# the system's PostgreSQL, Redis and Chromium are), else python3 on the PATH; 3.11 or newer, with venv.
# A distribution builds its Python with profile-guided and link-time optimisation; one built from
# source without --enable-optimizations (pyenv's default, this machine's python3) ran the suite's
# Python a fifth slower (docs/performance.md, "Stop 53"). An existing .venv is kept as it is.
usable() { "$1" -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }
if [ ! -x .venv/bin/python ]; then
  if [ -n "${HALALI_TEST_PYTHON:-}" ]; then
    usable "$HALALI_TEST_PYTHON" || { echo "test.sh: HALALI_TEST_PYTHON=$HALALI_TEST_PYTHON is not a Python 3.11 or newer with venv" >&2; exit 2; }
    python="$HALALI_TEST_PYTHON"
  elif usable /usr/bin/python3; then
    python=/usr/bin/python3
  else
    python=python3
  fi
  "$python" -m venv .venv
fi
echo "test.sh: $(.venv/bin/python -c 'import sys; print("Python", sys.version.split()[0], "in .venv, from", sys._base_executable)')" >&2
# uv installs what pip would, from the same pins, in seconds instead of a minute (docs/performance.md,
# "The test command"); pip does it when uv cannot be had.
uv_pin="$(grep -o '"uv==[^"]*"' pyproject.toml | tr -d '"')"
if .venv/bin/pip install -q --disable-pip-version-check "$uv_pin" \
    && .venv/bin/uv pip install -q --python .venv/bin/python -e '.[test,research]'; then
  :
else
  echo "test.sh: uv failed; installing with pip" >&2
  .venv/bin/pip install -q --disable-pip-version-check -e '.[test,research]'
fi
logs="$(mktemp -d)"
jobs_started=()
# Nothing started here outlives the script, whichever way it ends.
cleanup() {
  for pid in "${jobs_started[@]}"; do
    pkill -P "$pid" 2>/dev/null || true  # a static check the subshell runs
    kill "$pid" 2>/dev/null || true
  done
  rm -rf "$logs"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# numba compiles the kernel on its first use and caches it on disk, in the machine's folder for these
# sources (~/.cache/halali/kernel-<fingerprint>, docs/ai.md): a clone of sources compiled before on
# this machine (another clone, a worktree, an earlier run) loads it in a second. Done once here,
# beside the system packages, PostgreSQL and the static checks; every test process after it loads
# it instead of compiling its own.
.venv/bin/python tests/warm_kernel.py >"$logs/warm.log" 2>&1 &
warm=$!
jobs_started+=("$warm")
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

echo "test.sh: installed in ${SECONDS} s (the kernel compiling meanwhile)" >&2
# The static checks, at the lowest priority (below the kernel's compilation, which the tests wait for),
# beside the kernel's compilation and then beside the tests:
# ruff, mypy (what and how in pyproject.toml [tool.mypy]) and the import contracts (pyproject.toml
# [tool.importlinter]: which package may import which, no cycles). Nothing waits for them but the end
# of the run, whose status they count in; they fill the moments the tests leave a core idle.
# mypy keeps its cache in the machine's folder, as the kernel does: mypy checks each entry against a
# hash of its source file, so a clone finds what another clone of the same sources checked (half a
# minute of CPU when nothing is cached; docs/performance.md, "Stop 54").
# Without a home (HOME unset) or where it cannot be written, the clone's own .mypy_cache.
mypy_cache=.mypy_cache
cache_base="${XDG_CACHE_HOME:-${HOME:+$HOME/.cache}}"
if [ -n "$cache_base" ] && mkdir -p "$cache_base/halali/mypy" 2>/dev/null && [ -w "$cache_base/halali/mypy" ]; then
  mypy_cache="$cache_base/halali/mypy"
fi
(
  rc=0
  nice -n 19 .venv/bin/ruff check src tests benchmarks || rc=1
  nice -n 19 .venv/bin/mypy --cache-dir "$mypy_cache" || rc=1
  nice -n 19 .venv/bin/lint-imports || rc=1
  exit "$rc"
) >"$logs/static.log" 2>&1 &
static=$!
jobs_started+=("$static")
if ! wait "$warm"; then
  cat "$logs/warm.log" >&2
  echo "test.sh: building the compiled kernel failed" >&2
  exit 1
fi

cat "$logs/warm.log" >&2
echo "test.sh: the kernel compiled at ${SECONDS} s" >&2

# Two runs, one after the other: Playwright's synchronous API keeps an event loop running in the main
# thread for the rest of its session, which would break the tests that start their own asyncio loop.
# Each run keeps both cores busy on its own; side by side they took as long in all, and the longest
# browser tests twice as long, near their bounds (docs/performance.md, "The test command").
workers="${HALALI_TEST_WORKERS:-3}"
browser_workers="${HALALI_BROWSER_WORKERS:-3}"
status=0
# --dist loadgroup: the tests of a module marked xdist_group (the handler sweep) share one worker.
.venv/bin/python -m pytest tests --ignore=tests/web -n "$workers" --dist loadgroup --durations=15 "$@" || status=$?
echo "test.sh: the suite without the browser done at ${SECONDS} s" >&2
echo
echo "=== static checks (ruff, mypy, lint-imports) ==="
static_ok=1
wait "$static" || static_ok=0
cat "$logs/static.log"
if [ "$static_ok" = 0 ]; then
  echo "test.sh: a static check failed (above)" >&2
  status=1
fi
echo
echo "=== browser tests (tests/web) ==="
.venv/bin/python -m pytest tests/web -n "$browser_workers" --durations=15 "$@" || status=$?
echo "test.sh: done in ${SECONDS} s" >&2
exit "$status"
