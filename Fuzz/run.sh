#!/usr/bin/env bash
# Runs one fuzz target with its seeds and dictionary wired in.
#
#   Fuzz/run.sh --list                         the target names, one per line
#   Fuzz/run.sh --executable TARGET            the SwiftPM executable of a target
#   Fuzz/run.sh TARGET SECONDS [-- ARGS...]    fuzz for SECONDS (ARGS go to libFuzzer)
#   Fuzz/run.sh TARGET --merge                 minimise Corpus/TARGET with what runs found
#
# Seeds are read from Corpus/TARGET (never written); new inputs go to
# Fuzz/.work/TARGET, findings to Fuzz/.work/artifacts/TARGET/. Exits non-zero
# on any finding (crash, trap, leak, timeout, out-of-memory).
# Long runs: `-- -fork=2 -ignore_crashes=0` runs two workers (stops at the first
# finding); `-- -jobs=4 -workers=2` runs four independent sessions, two at a time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
targets="binary-decode xml-decode keyed-decode payload-decode typed-json-read differential-foundation"

executable_of() {  # binary-decode → FuzzBinaryDecode, typed-json-read → FuzzTypedJSONRead, …
  echo "Fuzz$(echo "$1" | sed -e 's/xml/XML/; s/json/JSON/' | awk -F- '{ for (i = 1; i <= NF; i++) printf "%s", toupper(substr($i, 1, 1)) substr($i, 2) }')"
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
common=(-dict="$here/dictionaries/$target.dict" -max_len=65536 -timeout=10 -rss_limit_mb=4096)

if [ "$1" = "--merge" ]; then
  merged=$(mktemp -d)
  SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$here/lsan-suppressions.txt" "$binary" "${common[@]}" -merge=1 "$merged" "$seeds" "$work"
  rm -f "$seeds"/*
  cp "$merged"/* "$seeds"/
  rm -rf "$merged"
  echo "$target: $(ls "$seeds" | wc -l) inputs after merge"
  exit 0
fi

seconds=$1; shift
[ "${1:-}" = "--" ] && shift
export SWIFT_BACKTRACE=enable=no  # the Swift backtracer and ASan fight over the crash
export LSAN_OPTIONS="suppressions=$here/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
exec "$binary" "$work" "$seeds" "${common[@]}" -max_total_time="$seconds" \
  -artifact_prefix="$artifacts/" -print_final_stats=1 "$@"
