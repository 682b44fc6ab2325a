#!/usr/bin/env bash
# Action step: where the history lives and its keys in the Actions cache. The history (what the
# target served night after night, history/; the trends and Allure's history beside it) must
# outlive the job: the next step restores the latest one saved, the gate records tonight's night
# into it, and a last step saves it under a new key (a cache entry never changes once saved).
#   history: auto  the nightly keeps svc-history, a run keeps none
#            none  no history
#            <dir> this folder, relative to working-directory (run --history <dir> for a run)
# A shard keeps its own (its nights hold only its share of the scenarios).
set -euo pipefail
case "${INPUT_HISTORY:-auto}" in
  none | '') dir="" ;;
  auto) if [ "${INPUT_COMMAND:-run}" = nightly ]; then dir=svc-history; else dir=""; fi ;;
  *) dir="$INPUT_HISTORY" ;;
esac
out="${GITHUB_OUTPUT:-/dev/null}"
if [ -z "$dir" ]; then
  echo "path=" >>"$out"
  exit 0
fi
mkdir -p "$dir"
shard="${INPUT_SHARD:-all}"
prefix="svc-conformance-history-${INPUT_COMMAND:-run}-${shard//\//-of-}-"
{
  echo "path=$(cd "$dir" && pwd)"
  echo "restore-key=$prefix"
  echo "key=$prefix${GITHUB_RUN_ID:-local}-${GITHUB_RUN_ATTEMPT:-1}"
} >>"$out"
