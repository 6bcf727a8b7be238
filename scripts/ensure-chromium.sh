#!/usr/bin/env bash
# Browser tests need Chromium. Playwright cannot download its own build on these machines,
# so on Debian as root we install Debian's package; elsewhere Playwright's installer.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[test] installing Debian's chromium for the browser tests" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium >/dev/null
else
  echo "[test] installing Playwright's chromium for the browser tests" >&2
  npx playwright install chromium
fi
