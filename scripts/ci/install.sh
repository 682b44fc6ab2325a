#!/usr/bin/env bash
# Action step: install svc-conformance's runtime dependencies in the action's own checkout
# ($GITHUB_ACTION_PATH), so `node $GITHUB_ACTION_PATH/cli/bin.mjs` is the installed command.
# Nothing is installed when the tree already satisfies package.json (`npm ls`): a checkout
# with its development dependencies stays as it is.
set -euo pipefail
cd "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH, the checkout of the action, is not set}"
if ! npm ls --omit=dev --depth=0 >/dev/null 2>&1; then
  npm ci --omit=dev --no-audit --no-fund --loglevel=error
fi
node cli/bin.mjs --version
