#!/usr/bin/env bash
# Action step: the gate (or the nightly). Never fails the step itself: the exit code goes to
# the step's outputs, the reports get uploaded, and the Verdict step fails the job with it.
# The command writes the job summary itself (GITHUB_STEP_SUMMARY), except when it refuses its
# configuration (exit 2): then this step writes the message there.
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
    if [ -n "${INPUT_HISTORY:-}" ]; then args+=(--history "$INPUT_HISTORY"); fi
    ;;
  nightly)
    args+=(nightly --out "$reports")
    if [ -n "${INPUT_GREP:-}" ]; then args+=(--grep "$INPUT_GREP"); fi
    if [ -n "${INPUT_HISTORY:-}" ]; then args+=(--history "$INPUT_HISTORY"); fi
    ;;
  *)
    echo "::error::command must be run or nightly, got \"${INPUT_COMMAND}\""
    echo "exit-code=2" >> "${GITHUB_OUTPUT:-/dev/null}"
    echo "reports=$reports" >> "${GITHUB_OUTPUT:-/dev/null}"
    exit 0
    ;;
esac
# Only the error stream is kept (outside the reports folder): a refused configuration stops
# the command before any reporter writes the job summary, and its message is the summary.
errors="$(mktemp)"
# stdout stays the log's (fd 3); stderr goes through tee to the log and the file.
{
  SVC_REPORTS_OUT="$reports" node "${GITHUB_ACTION_PATH:?}/cli/bin.mjs" "${args[@]}" 2>&1 1>&3 3>&- | tee "$errors" >&2
  code=${PIPESTATUS[0]}
} 3>&1
cause=""
if [ "$code" = 2 ]; then
  # The message and the problems it lists, on one line (a job annotation is one line).
  cause="$(sed -n '/^error: /,$p' "$errors" | sed -E 's/^error: //; s/^ +//' | tr '\n' ' ' | sed 's/ *$//' | cut -c1-400)"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf '# svc-conformance: NOT RUN\n\nBad usage or configuration (exit 2): nothing was tested.\n\n```\n%s\n```\n' "$(tail -c 8000 "$errors")" >>"$GITHUB_STEP_SUMMARY"
  fi
fi
rm -f "$errors"
{
  echo "exit-code=$code"
  echo "reports=$reports"
  echo "cause=$cause"
} >>"${GITHUB_OUTPUT:-/dev/null}"
exit 0
