#!/usr/bin/env bash
# CI fuzz stage: builds every target (release, libFuzzer + ASan) and runs each
# for FUZZ_SECONDS (default 60) from its seeds; any finding fails the stage.
# The regression replay runs in `swift test` (Tests/FuzzRegressionTests).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
seconds=${FUZZ_SECONDS:-60}
export FUZZ_LEDGER=0  # CI's runs are checks on a throw-away clone, not campaigns
FUZZ_CONFIGS=release bash "$here/build.sh"
status=0
mkdir -p "$here/.work"
for target in $("$here/run.sh" --list); do
  if "$here/run.sh" "$target" "$seconds" > "$here/.work/$target-ci.log" 2>&1; then
    echo "fuzz $target: $(grep -E '^#[0-9]+[[:space:]]+DONE' "$here/.work/$target-ci.log" | tail -1)"
  else
    echo "fuzz $target: FINDING (log follows)"; tail -40 "$here/.work/$target-ci.log"; status=1
  fi
done
exit $status
