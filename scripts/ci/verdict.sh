#!/usr/bin/env bash
# Action step: the job's verdict is the gate's exit code (0 green, 1 failures, 2 usage/config).
# A preflight that stopped the job is a 2 as well: nothing was tested, and what to fix is
# a setting (the target's address, the credentials, the config file).
set -euo pipefail
pre="${PREFLIGHT_EXIT_CODE:-}"
if [ -n "$pre" ] && [ "$pre" != 0 ]; then
  echo "::error::svc-conformance: the preflight stopped the job (exit $pre), nothing was tested: ${PREFLIGHT_CAUSE:-see the job summary}"
  exit 2
fi
code="${GATE_EXIT_CODE:-}"
if [ -z "$code" ]; then echo "::error::the gate did not run (see the steps above)"; exit 1; fi
case "$code" in
  0) echo "svc-conformance: green" ;;
  1) echo "::error::svc-conformance: the gate found failures (see the job summary and the report artifact)" ;;
  2) echo "::error::svc-conformance: bad usage or configuration; nothing ran${GATE_CAUSE:+: $GATE_CAUSE}" ;;
  *) echo "::error::svc-conformance exited $code" ;;
esac
exit "$code"
