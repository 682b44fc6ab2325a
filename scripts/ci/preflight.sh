#!/usr/bin/env bash
# Action step: the preflight (reachability, credentials, versions, what will run and skip),
# printed and added to the job summary. A fatal finding (refused credentials, an unreachable
# target, a bad config file) stops the job here, in seconds.
set -euo pipefail
args=()
if [ -n "${INPUT_CONFIG:-}" ]; then args+=(--config "$INPUT_CONFIG"); fi
set +e
node "${GITHUB_ACTION_PATH:?}/cli/bin.mjs" "${args[@]}" preflight --markdown "${INPUT_REPORTS:-svc-reports}/preflight.md"
code=$?
set -e
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "${INPUT_REPORTS:-svc-reports}/preflight.md" ]; then cat "${INPUT_REPORTS:-svc-reports}/preflight.md" >> "$GITHUB_STEP_SUMMARY"; fi
exit $code
