#!/usr/bin/env bash
# Chromium for flowagent's browser tests (tests/e2e/test_web.py drives it headless through Playwright).
#
#   scripts/chromium.sh [install]   install Debian's chromium with apt if /usr/bin/chromium is missing
#
# Idempotent and quiet. Playwright's own browser downloads are never used (no `playwright install`).
set -euo pipefail

CHROMIUM=/usr/bin/chromium

install() {
  if [ -x "$CHROMIUM" ]; then
    return 0
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: $CHROMIUM is not installed and apt-get is not available; install Chromium with your package manager" >&2
    exit 1
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  echo "==> installing Chromium (apt)"
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  # fonts-noto-cjk: the page's Chinese text in the screenshots.
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null
  if [ ! -x "$CHROMIUM" ]; then
    echo "error: the chromium package is installed but $CHROMIUM was not found" >&2
    exit 1
  fi
}

cmd="${1:-install}"
case "$cmd" in
  install) install ;;
  *)
    echo "usage: scripts/chromium.sh [install]" >&2
    exit 2
    ;;
esac
