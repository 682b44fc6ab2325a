#!/usr/bin/env bash
# Action step: the gate (or the nightly). Never fails the step itself: the exit code goes to
# the step's outputs, the reports get uploaded, and the Verdict step fails the job with it.
# The command writes the job summary itself (GITHUB_STEP_SUMMARY).
set -uo pipefail
reports="$(mkdir -p "${INPUT_REPORTS:-svc-reports}" && cd "${INPUT_REPORTS:-svc-reports}" && pwd)"
args=()
if [ -n "${INPUT_CONFIG:-}" ]; then args+=(--config "$INPUT_CONFIG"); fi
case "${INPUT_COMMAND:-run}" in
  run)
    args+=(run)
    for p in ${INPUT_PROJECTS:-}; do args+=(--project "$p"); done
    if [ -n "${INPUT_GREP:-}" ]; then args+=(--grep "$INPUT_GREP"); fi
    if [ -n "${INPUT_SHARD:-}" ]; then args+=(--shard "$INPUT_SHARD"); fi
    ;;
  nightly)
    args+=(nightly --out "$reports")
    if [ -n "${INPUT_GREP:-}" ]; then args+=(--grep "$INPUT_GREP"); fi
    ;;
  *)
    echo "::error::command must be run or nightly, got \"${INPUT_COMMAND}\""
    echo "exit-code=2" >> "${GITHUB_OUTPUT:-/dev/null}"
    echo "reports=$reports" >> "${GITHUB_OUTPUT:-/dev/null}"
    exit 0
    ;;
esac
SVC_REPORTS_OUT="$reports" node "${GITHUB_ACTION_PATH:?}/cli/bin.mjs" "${args[@]}"
code=$?
echo "exit-code=$code" >> "${GITHUB_OUTPUT:-/dev/null}"
echo "reports=$reports" >> "${GITHUB_OUTPUT:-/dev/null}"
exit 0
