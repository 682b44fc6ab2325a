#!/usr/bin/env bash
# The project's tests (README, "The two commands"). .ci/run calls exactly this.
#   1. npm test: static checks, unit tests (no child process), the self-test matrix.
#   2. npm run test:system: the system tests (*.system.test.ts: the packed tarball, the CLI
#      as a process, real-target mode, the CI action, the nightly across nights, ...).
# Both run whatever the first gives, so one red run shows every failure; the exit is 0 only
# when both pass.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh || exit $?
started=$SECONDS
npm run --silent test
unit=$?
unit_s=$((SECONDS - started))
started=$SECONDS
npm run --silent test:system
system=$?
system_s=$((SECONDS - started))
echo "test.sh: npm test $([ $unit -eq 0 ] && echo passed || echo "FAILED (exit $unit)") in ${unit_s} s; npm run test:system $([ $system -eq 0 ] && echo passed || echo "FAILED (exit $system)") in ${system_s} s"
[ $unit -eq 0 ] && [ $system -eq 0 ]
