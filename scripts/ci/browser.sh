#!/usr/bin/env bash
# Action step: a browser for the browser scenarios, never Playwright's own download.
# Debian's chromium-headless-shell or chromium when installed; else the Chrome that GitHub's
# Ubuntu runners carry (Ubuntu's chromium package is only a snap stub); else Debian's
# packages through apt. The choice reaches the later steps as SVC_CHROMIUM_PATH.
set -euo pipefail
pick=""
for candidate in /usr/bin/chromium-headless-shell /usr/bin/chromium /usr/bin/google-chrome /usr/bin/google-chrome-stable; do
  if [ -x "$candidate" ]; then pick="$candidate"; break; fi
done
if [ -z "$pick" ]; then
  SUDO=""; if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell >/dev/null
  pick=/usr/bin/chromium-headless-shell
fi
echo "browser: $pick"
if [ -n "${GITHUB_ENV:-}" ] && [ -z "${SVC_CHROMIUM_PATH:-}" ]; then echo "SVC_CHROMIUM_PATH=$pick" >> "$GITHUB_ENV"; fi
