#!/usr/bin/env bash
# Debian packages the test suite needs: chromium for the browser tests (tests/web/).
# Idempotent and quiet: does nothing when everything is already installed.
set -euo pipefail
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "install-system: /usr/bin/chromium is missing; run as root: apt-get install -y chromium" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium >/dev/null
fi
