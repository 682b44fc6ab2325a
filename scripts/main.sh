#!/usr/bin/env bash
# Main job (README): the suites against the embedded simulator, reports in reports/out/
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
npm run --silent conformance
