#!/usr/bin/env bash
# Structure-aware mutation against libFuzzer's own, in the same CPU time
# (Specs/fuzzing.md, "Structure-aware mutation"):
#
#   Fuzz/compare_mutation.sh TARGET [SECONDS]   (default 240)
#
# Runs TARGET twice at once, one core each, from its named seeds only (not the
# accumulated corpus), with the same libFuzzer seed: once with the mutator,
# once with FUZZ_PLAIN_MUTATION=1. Then loads each run's corpus with the
# seeds (-runs=0) and both together, and prints one Markdown row per run:
# executions, edges and features as libFuzzer counts them on loading, and the
# edges and features only that run's corpus reaches. Not recorded in the ledger.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
target=$1; seconds=${2:-240}
binary=${FUZZ_BIN_DIR:-$here/.build-release/release}/$(bash "$here/run.sh" --executable "$target")
export SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$here/lsan-suppressions.txt"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/seeds" "$work/structured" "$work/plain"
for file in "$root/Corpus/$target"/*; do
  [[ $(basename "$file") =~ ^[0-9a-f]{40}$ ]] || cp "$file" "$work/seeds/"
done
common=(-dict="$here/dictionaries/$target.dict" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256)
"$binary" "$work/structured" "$work/seeds" "${common[@]}" -seed=7 -max_total_time="$seconds" -print_final_stats=1 > "$work/structured.log" 2>&1 &
FUZZ_PLAIN_MUTATION=1 "$binary" "$work/plain" "$work/seeds" "${common[@]}" -seed=7 -max_total_time="$seconds" -print_final_stats=1 > "$work/plain.log" 2>&1 &
wait
loaded() {  # edges and features when the given folders are loaded
  "$binary" "${common[@]}" -runs=0 "$@" 2>&1 | grep -E 'INITED' | sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+).*/\1 \2/p'
}
read -r s_cov s_ft <<< "$(loaded "$work/structured" "$work/seeds")"
read -r p_cov p_ft <<< "$(loaded "$work/plain" "$work/seeds")"
read -r u_cov u_ft <<< "$(loaded "$work/structured" "$work/plain" "$work/seeds")"
execs() { grep -E '^stat::number_of_executed_units' "$1" | tail -1 | awk '{ print $2 }'; }
echo "| $target | structure-aware | $(execs "$work/structured.log") | $s_cov | $s_ft | $((u_cov - p_cov)) | $((u_ft - p_ft)) |"
echo "| $target | libFuzzer's alone | $(execs "$work/plain.log") | $p_cov | $p_ft | $((u_cov - s_cov)) | $((u_ft - s_ft)) |"
echo "| $target | both corpora together | | $u_cov | $u_ft | | |"
