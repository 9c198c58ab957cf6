#!/usr/bin/env bash
# CI fuzz stage: builds every target the way OSS-Fuzz and ClusterFuzzLite do
# (Fuzz/oss-fuzz/build.sh with SRC, OUT and WORK set: release, libFuzzer +
# ASan), checks that $OUT holds each target with its dictionary, options and
# seed corpus, and runs each for FUZZ_SECONDS (default 10) from its seeds; any
# finding fails the stage. The regression replay runs in `swift test`
# (Tests/FuzzRegressionTests).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
# The stage's time budget (issue 43): 10 s a target, about two minutes for the
# twelve. CI's run is a check that every target builds as OSS-Fuzz builds it,
# starts, replays its seeds and finds nothing in its first seconds; campaigns,
# which add coverage, run for tens of minutes each and are kept in
# Fuzz/campaigns.tsv (Fuzz/README.md). Measured on keyed-decode (2026-11-28,
# release + ASan): libFuzzer replays the whole corpus before the clock counts
# (1,672 inputs, about 10 s: 7,917 edges); 60 s then added 8 edges of 7,920,
# which a campaign finds and keeps, where CI's throw-away clone would not.
seconds=${FUZZ_SECONDS:-10}
export FUZZ_LEDGER=0  # CI's runs are checks on a throw-away clone, not campaigns
out=$here/.work/oss-out work=$here/.work/oss-work
mkdir -p "$out" "$work"
echo "== fuzz targets: Fuzz/oss-fuzz/build.sh (SRC, OUT, WORK set; SANITIZER=address)" >&2
SRC=$(dirname "$root") PROJECT_DIR=$root OUT=$out WORK=$work SANITIZER=address bash "$here/oss-fuzz/build.sh"
status=0
empty=$(mktemp -d)
for target in $("$here/run.sh" --list); do
  for file in "$target" "$target.dict" "$target.options" "${target}_seed_corpus.zip"; do
    [ -s "$out/$file" ] || { echo "oss-fuzz build: $out/$file is missing or empty"; status=1; }
  done
  seeds=$(find "$root/Corpus/$target" -type f | wc -l)
  zipped=$(unzip -Z1 "$out/${target}_seed_corpus.zip" | grep -vc '/$' || true)
  [ "$seeds" = "$zipped" ] || { echo "oss-fuzz build: $target's seed corpus holds $zipped files, Corpus/$target $seeds"; status=1; }
  # The binary as OSS-Fuzz runs it: one empty input, with its options' flags.
  "$out/$target" -runs=0 -dict="$out/$target.dict" "$empty" > "$here/.work/$target-oss.log" 2>&1 \
    || { echo "oss-fuzz build: $out/$target does not run"; tail -5 "$here/.work/$target-oss.log"; status=1; }
done
rmdir "$empty"
[ $status = 0 ] || exit $status
bin=$(swift build -c release --package-path "$here" --scratch-path "$work/activitycodec-fuzz" --show-bin-path)
for target in $("$here/run.sh" --list); do
  if FUZZ_BIN_DIR=$bin "$here/run.sh" "$target" "$seconds" > "$here/.work/$target-ci.log" 2>&1; then
    echo "fuzz $target: $(grep -E '^#[0-9]+[[:space:]]+DONE' "$here/.work/$target-ci.log" | tail -1)"
  else
    echo "fuzz $target: FINDING (log follows)"; tail -40 "$here/.work/$target-ci.log"; status=1
  fi
done
exit $status
