#!/usr/bin/env bash
# Installs what the suite needs on a fresh Debian machine with Node 20:
# npm packages (npm ci) and, for the browser scenarios, Debian's chromium and
# chromium-headless-shell (the build headless runs use: targets/profiles/sections.ts
# defaultChromiumPath; the full browser is for --headed runs).
# Idempotent: does nothing that is already done. Needs root (or sudo) for apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "bootstrap: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

if [ "${SVC_SKIP_BROWSER:-}" != "1" ] && { [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromium-headless-shell ]; }; then
  echo "bootstrap: installing Debian's chromium and chromium-headless-shell (Playwright's own browser download is not used)"
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell >/dev/null
fi
