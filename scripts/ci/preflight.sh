#!/usr/bin/env bash
# Action step: the preflight (reachability, credentials, versions, what will run and skip),
# printed and added to the job summary. Never fails the step itself: a fatal finding (an
# unreachable target, refused credentials) or a refused config file is recorded in the
# step's outputs (exit-code, cause, reports), the gate does not start, the reports folder
# (preflight.md with the cause) is still uploaded, and the Verdict step ends the job with 2.
set -uo pipefail
reports="$(mkdir -p "${INPUT_REPORTS:-svc-reports}" && cd "${INPUT_REPORTS:-svc-reports}" && pwd)"
markdown="$reports/preflight.md"
rm -f "$markdown"
log="$(mktemp)"
args=()
if [ -n "${INPUT_CONFIG:-}" ]; then args+=(--config "$INPUT_CONFIG"); fi
node "${GITHUB_ACTION_PATH:?}/cli/bin.mjs" "${args[@]}" preflight --markdown "$markdown" 2>&1 | tee "$log"
code=${PIPESTATUS[0]}
cause=""
if [ "$code" != 0 ]; then
  # The line that says what to fix: the preflight's FATAL verdict or the command's error.
  cause="$(grep -m1 '^FATAL: ' "$log" | sed 's/^FATAL: //' | cut -c1-400)"
  if [ -z "$cause" ]; then cause="$(sed -n '/^error: /,$p' "$log" | sed -E 's/^error: //; s/^ +//' | tr '\n' ' ' | sed 's/ *$//' | cut -c1-400)"; fi
  if [ -z "$cause" ]; then cause="$(grep -v '^[[:space:]]*$' "$log" | tail -n1 | cut -c1-400)"; fi
  # A refused config file stops the command before it writes its table: its message is the report.
  if [ ! -f "$markdown" ]; then
    {
      echo '## svc-conformance preflight'
      echo
      echo '```'
      tail -c 8000 "$log"
      echo '```'
    } >"$markdown"
  fi
fi
rm -f "$log"
{
  echo "exit-code=$code"
  echo "reports=$reports"
  echo "cause=$cause"
} >>"${GITHUB_OUTPUT:-/dev/null}"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  if [ "$code" != 0 ]; then
    printf '# svc-conformance: NOT RUN\n\nThe preflight stopped the job (exit %s) before the gate: nothing was tested. %s\n\n' "$code" "$cause" >>"$GITHUB_STEP_SUMMARY"
  fi
  cat "$markdown" >>"$GITHUB_STEP_SUMMARY"
fi
exit 0
