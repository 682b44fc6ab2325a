#!/usr/bin/env bash
# Action step: install svc-conformance's runtime dependencies in the action's own checkout
# ($GITHUB_ACTION_PATH), so `node $GITHUB_ACTION_PATH/cli/bin.mjs` is the installed command.
set -euo pipefail
cd "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH, the checkout of the action, is not set}"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --omit=dev --no-audit --no-fund --loglevel=error
fi
node cli/bin.mjs --version
