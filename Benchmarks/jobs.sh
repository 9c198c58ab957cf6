#!/usr/bin/env bash
# `plistkit lint --jobs N` over the shared corpora (../shared/realworld and
# ../shared/conformance, every regular file), against one process per file,
# the way plutil is scripted: libplist's plistutil and Python's plistlib.
# Each command runs ROUNDS times (default 5) after one warm-up, in turn;
# prints the median wall time of each. See Benchmarks/README.md, "Many files".
#
#   bash Benchmarks/jobs.sh
#   ROUNDS=3 bash Benchmarks/jobs.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${SHARED:-$ROOT/../shared}"
ROUNDS="${ROUNDS:-5}"
command -v plistutil >/dev/null || { apt-get install -y libplist-utils >/dev/null 2>&1 || true; }
(cd "$ROOT" && swift build -c release --product plistkit >&2)
PLISTKIT="$ROOT/.build/release/plistkit"
# The interpreter itself, not a version manager's shim (a shell script per call).
PYTHON="$(python3 -c 'import sys; print(sys.executable)')"
LIST="$(mktemp)"
trap 'rm -f "$LIST"' EXIT
find "$SHARED/realworld" "$SHARED/conformance" -type f | LC_ALL=C sort > "$LIST"
COUNT=$(wc -l < "$LIST")
BYTES=$(xargs -d '\n' cat < "$LIST" | wc -c)

jobs1()  { xargs -d '\n' "$PLISTKIT" lint --jobs 1 < "$LIST" > /dev/null || true; }
jobs2()  { xargs -d '\n' "$PLISTKIT" lint --jobs 2 < "$LIST" > /dev/null || true; }
perfile() { while IFS= read -r f; do "$PLISTKIT" lint "$f" > /dev/null || true; done < "$LIST"; }
plistutil_loop() { while IFS= read -r f; do plistutil -i "$f" -o /dev/null > /dev/null 2>&1 || true; done < "$LIST"; }
python_loop() {
    while IFS= read -r f; do
        "$PYTHON" -c 'import plistlib, sys; plistlib.load(open(sys.argv[1], "rb"))' "$f" > /dev/null 2>&1 || true
    done < "$LIST"
}

CASES=(jobs1 jobs2 perfile python_loop)
command -v plistutil >/dev/null && CASES+=(plistutil_loop)
declare -A TIMES
for round in $(seq 0 "$ROUNDS"); do
    for case in "${CASES[@]}"; do
        start=$(date +%s.%N)
        "$case"
        end=$(date +%s.%N)
        # Round 0 is the warm-up (page cache, first run of each binary).
        ((round == 0)) || TIMES[$case]+="$(echo "$end - $start" | bc) "
    done
done
echo "$COUNT files, $BYTES bytes; $(nproc) cores; $ROUNDS rounds; median wall seconds:"
for case in "${CASES[@]}"; do
    median=$(tr ' ' '\n' <<< "${TIMES[$case]}" | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
    printf '  %-15s %8.3f\n' "$case" "$median"
done
