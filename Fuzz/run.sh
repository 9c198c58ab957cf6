#!/usr/bin/env bash
# Runs one fuzz target with its seeds and dictionary wired in.
#
#   Fuzz/run.sh --list                         the target names, one per line
#   Fuzz/run.sh --executable TARGET            the SwiftPM executable of a target
#   Fuzz/run.sh TARGET SECONDS [-- ARGS...]    fuzz for SECONDS (ARGS go to libFuzzer)
#   Fuzz/run.sh TARGET --merge                 fold what runs found into Corpus/TARGET (minimised)
#
# Seeds are read from Corpus/TARGET (only --merge writes there); new inputs go to
# Fuzz/.work/TARGET, findings to Fuzz/.work/artifacts/TARGET/. Exits non-zero
# on any finding (crash, trap, leak, timeout, out-of-memory). Each run appends
# its CPU time and coverage to Fuzz/campaigns.tsv (FUZZ_LEDGER=0: not; FUZZ_COMMIT
# names the binaries' commit when FUZZ_BIN_DIR holds a build of an earlier one), which
# Fuzz/ledger.py sums into the table of Fuzz/README.md.
# Long runs: `-- -fork=2 -ignore_crashes=0` runs two workers (stops at the first
# finding); `-- -jobs=4 -workers=2` runs four independent sessions, two at a time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
targets="binary-decode xml-decode keyed-decode payload-decode typed-json-read differential-foundation mp-decode container-decode openstep-read differential-libplist error-packet diff"

executable_of() {  # binary-decode → FuzzBinaryDecode, typed-json-read → FuzzTypedJSONRead, …
  echo "Fuzz$(echo "$1" | sed -e 's/xml/XML/; s/json/JSON/; s/^mp/MP/; s/openstep/openStep/' | awk -F- '{ for (i = 1; i <= NF; i++) printf "%s", toupper(substr($i, 1, 1)) substr($i, 2) }')"
}
if [ "${1:-}" = "--list" ]; then printf '%s\n' $targets; exit 0; fi
if [ "${1:-}" = "--executable" ]; then executable_of "$2"; exit 0; fi
if [ $# -lt 2 ]; then sed -n '2,14p' "$0" >&2; exit 2; fi
target=$1; shift
case " $targets " in *" $target "*) ;; *) echo "unknown target '$target' (try --list)" >&2; exit 2 ;; esac

binary=${FUZZ_BIN_DIR:-$here/.build-release/release}/$(executable_of "$target")
[ -x "$binary" ] || FUZZ_CONFIGS=release bash "$here/build.sh"

seeds=$root/Corpus/$target
work=$here/.work/$target
artifacts=$here/.work/artifacts/$target
mkdir -p "$seeds" "$work" "$artifacts"
# Tight bounds: inputs are at most 64 KiB, so a slow or large run is a blow-up (Specs/fuzzing.md).
common=(-dict="$here/dictionaries/$target.dict" -max_len=65536 -timeout=2 -rss_limit_mb=2048 -malloc_limit_mb=256)

if [ "$1" = "--merge" ]; then
  # Corpus/TARGET holds named seeds (make_seeds.py, regressions: kept as they are)
  # and the accumulated corpus (libFuzzer's 40-hex-digit names). The accumulated
  # part is re-minimised against the named seeds: an input is kept only if it adds
  # coverage to them (-set_cover_merge: a greedy cover of the features, which
  # on keyed-decode kept the coverage within 2 edges in a quarter fewer bytes
  # than -merge). Inputs over 8 KiB are not kept; the accumulated part of a
  # target may not pass 2 MiB (the merge fails: look at what grew).
  named=$(mktemp -d); previous=$(mktemp -d)
  for file in "$seeds"/*; do
    [ -f "$file" ] || continue
    if [[ $(basename "$file") =~ ^[0-9a-f]{40}$ ]]; then mv "$file" "$previous/"; else cp "$file" "$named/"; fi
  done
  candidates=$(mktemp -d)
  find "$previous" "$work" -maxdepth 1 -type f -size -8193c -exec cp {} "$candidates/" \;
  SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$here/lsan-suppressions.txt" \
    "$binary" "${common[@]}" -set_cover_merge=1 "$named" "$candidates" 2>&1 | grep -E "MERGE-OUTER: [0-9]+ new files" || true
  for file in "$named"/*; do
    [[ $(basename "$file") =~ ^[0-9a-f]{40}$ ]] && cp "$file" "$seeds/"
  done
  rm -rf "$named" "$previous" "$candidates"
  kept=$(find "$seeds" -maxdepth 1 -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' | wc -l)
  bytes=$(find "$seeds" -maxdepth 1 -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
  echo "$target: $(ls "$seeds" | wc -l) inputs after merge ($kept accumulated, $bytes bytes)"
  [ "$bytes" -le $((2 << 20)) ] || { echo "$target: the accumulated corpus is over 2 MiB" >&2; exit 1; }
  exit 0
fi

seconds=$1; shift
[ "${1:-}" = "--" ] && shift
export SWIFT_BACKTRACE=enable=no  # the Swift backtracer and ASan fight over the crash
export LSAN_OPTIONS="suppressions=$here/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
log=$(mktemp)
# CPU seconds (user + system) of this shell's finished children, from bash's `times`.
# (`times` must run in this shell, into a file: in a pipe or $(…) it reports a subshell's.)
cpu_before=$(mktemp); cpu_after=$(mktemp)
seconds_of() { tail -1 "$1" | tr 'ms' '  ' | awk '{ printf "%.1f", $1 * 60 + $2 + $3 * 60 + $4 }'; }
times > "$cpu_before"
set +e
"$binary" "$work" "$seeds" "${common[@]}" -max_total_time="$seconds" \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
times > "$cpu_after"
if [ "${FUZZ_LEDGER:-1}" != 0 ]; then
  # date, commit, target, CPU seconds, executions, edges, features, corpus, result
  cpu=$(awk -v a="$(seconds_of "$cpu_after")" -v b="$(seconds_of "$cpu_before")" 'BEGIN { printf "%.0f", a - b }')
  execs=$(grep -E '^stat::number_of_executed_units' "$log" | tail -1 | awk '{ print $2 }')
  line=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -1)
  cov=$(echo "$line" | sed -nE 's/.*cov: ([0-9]+).*/\1/p'); ft=$(echo "$line" | sed -nE 's/.*ft: ([0-9]+).*/\1/p')
  corp=$(echo "$line" | sed -nE 's/.*corp: ([0-9]+).*/\1/p')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "${FUZZ_COMMIT:-$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo -)}" \
    "$target" "${cpu:-0}" "${execs:-0}" "${cov:-0}" "${ft:-0}" "${corp:-0}" "$([ "$status" = 0 ] && echo clean || echo "finding($status)")" \
    >> "$here/campaigns.tsv"
fi
rm -f "$log" "$cpu_before" "$cpu_after"
exit "$status"
