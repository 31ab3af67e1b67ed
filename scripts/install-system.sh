#!/usr/bin/env bash
# Debian packages the test suite needs: chromium and its headless shell (what the browser tests drive,
# lighter than the whole browser) for tests/web/, redis-server and
# haproxy for the cluster tests (tests/server/cluster/, scripts/cluster.sh).
# Idempotent and quiet: does nothing when everything is already installed.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/lib/chromium/chromium-headless-shell ] || missing+=(chromium-headless-shell)
[ -x /usr/bin/redis-server ] || missing+=(redis-server)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-system: missing ${missing[*]}; run as root: apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  # Debian starts packaged services where it can; the tests start their own, so none is left running.
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d
  apt-get install -y -qq "${missing[@]}" >/dev/null
  rm -f /usr/sbin/policy-rc.d
fi
