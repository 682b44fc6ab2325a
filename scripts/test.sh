#!/usr/bin/env bash
# The project's tests (README, "Run the tests"). .ci/run calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
npm run --silent test
