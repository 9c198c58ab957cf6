#!/usr/bin/env bash
# The Codable comparison (Benchmarks/README.md, "Codable"): a Handoff app's
# state to wire bytes and back, ours beside Foundation's coders in one process,
# then heap allocations per operation for each case, counted by valgrind
# (memcheck's heap summary: a run of 3 operations minus a run of 1, halved,
# so that start-up and the untimed first operation cancel out).
#   bash Benchmarks/codable.sh [ROUNDS [ITERATIONS]]     default 5 rounds of 20,000
#   ALLOCATIONS=0 bash Benchmarks/codable.sh             the times only
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
swift build -c release --product codable-bench --package-path "$here/.." >&2
bench=$here/../.build/release/codable-bench
"$bench" "${1:-5}" "${2:-20000}"
[ "${ALLOCATIONS:-1}" = 1 ] || exit 0
command -v valgrind >/dev/null || apt-get install -y valgrind >/dev/null
# valgrind 3.19 cannot read the release binary's debug information (instructions.sh): a stripped copy.
mkdir -p "$here/work"
strip --strip-debug -o "$here/work/codable-bench-stripped" "$bench"
allocs() {  # PATH OP STATE N → heap allocations of the run
  valgrind --tool=memcheck --leak-check=no "$here/work/codable-bench-stripped" one "$@" 2>&1 >/dev/null \
    | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
printf '\n### Heap allocations per operation\n\n| state | path | encode | decode |\n| --- | --- | ---: | ---: |\n'
for state in handoff-trip readme-trip; do
  for path in foundation-plist foundation-json mp mp-direct keyed payload floor; do
    cells=()
    for op in encode decode; do
      one=$(allocs "$path" "$op" "$state" 1); three=$(allocs "$path" "$op" "$state" 3)
      cells+=("$(( (three - one) / 2 ))")
    done
    printf '| %s | %s | %s | %s |\n' "$state" "$path" "${cells[0]}" "${cells[1]}"
  done
done
