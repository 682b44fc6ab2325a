#!/usr/bin/env bash
# Action step: the job's verdict is the gate's exit code (0 green, 1 failures, 2 usage/config).
set -euo pipefail
code="${GATE_EXIT_CODE:-}"
if [ -z "$code" ]; then echo "::error::the gate did not run (see the steps above)"; exit 1; fi
case "$code" in
  0) echo "svc-conformance: green" ;;
  1) echo "::error::svc-conformance: the gate found failures (see the job summary and the report artifact)" ;;
  2) echo "::error::svc-conformance: bad usage or configuration; nothing ran" ;;
  *) echo "::error::svc-conformance exited $code" ;;
esac
exit "$code"
