#!/usr/bin/env bash
# Instruction counts of plistkit-bench for a fixed set of operations, under
# callgrind with a fixed hash seed: exact and repeatable, unlike times on this
# noisy machine, so two commits compare to the instruction. Whole process
# (start-up and file reading included, the same for every commit); ITERS
# iterations of each op. See Benchmarks/README.md, "Profiling".
#
#   bash Benchmarks/instructions.sh            # prints "op format file instructions" lines
set -euo pipefail
BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH")"
CORPUS="$BENCH/work/corpus"
[ -f "$CORPUS/settings.bplist" ] || { mkdir -p "$CORPUS"; python3 "$BENCH/make_corpus.py" "$CORPUS" >&2; }
swift build -c release --product plistkit-bench --package-path "$ROOT" >&2
swift build --product plistkit --package-path "$ROOT" >&2
BIN="$ROOT/.build/release/plistkit-bench"
# 100 keyed archives of the first userinfo documents (written by plistkit archive:
# an input for counting, not a reference; compare.sh uses NSKeyedArchiver's).
KEYED100="$BENCH/work/keyed-100-plistkit.pack"
if [ ! -s "$KEYED100" ]; then
    python3 - "$CORPUS/userinfo.pack.bplist" "$KEYED100" "$ROOT/.build/debug/plistkit" <<'PY'
import struct, subprocess, sys, tempfile, os
src, dest, plistkit = sys.argv[1:4]
data = open(src, "rb").read()
(count,) = struct.unpack_from("<I", data, 8)
offset, docs = 12, []
with tempfile.TemporaryDirectory() as tmp:
    for i in range(100):
        (length,) = struct.unpack_from("<I", data, offset)
        doc = os.path.join(tmp, "d.bplist")
        open(doc, "wb").write(data[offset + 4:offset + 4 + length])
        offset += 4 + length
        typed = subprocess.run([plistkit, "convert", doc, "--format", "typed-json"], check=True, capture_output=True).stdout
        docs.append(subprocess.run([plistkit, "archive", "-"], input=typed, check=True, capture_output=True).stdout)
open(dest, "wb").write(b"PLPACK01" + struct.pack("<I", len(docs)) + b"".join(struct.pack("<I", len(d)) + d for d in docs))
PY
fi
strip --strip-debug -o "$BENCH/work/plistkit-bench-stripped" "$BIN"
run() {  # op format file iters
    local count
    count=$(SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$BENCH/work/plistkit-bench-stripped" "$1" "$2" "$3" "$4" 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
    printf '%-13s %-6s %-28s %14s\n' "$1" "$2" "$(basename "$3")" "$count"
}
run decode binary "$CORPUS/one-userinfo.bplist" 200
run decode binary "$CORPUS/settings.bplist" 3
run decode binary "$CORPUS/unicode.bplist" 1
run decode xml "$CORPUS/one-userinfo.xml" 200
run decode xml "$CORPUS/settings.xml" 3
run encode binary "$CORPUS/settings.bplist" 3
run encode xml "$CORPUS/settings.xml" 3
run keyed-decode binary "$KEYED100" 3
run keyed-encode binary "$KEYED100" 3
# MP userInfo: the same one-userinfo document read and written as MP (the
# preparation, a binary decode and one MP write, is in the count too).
run mp-decode binary "$CORPUS/one-userinfo.bplist" 200
run mp-encode binary "$CORPUS/one-userinfo.bplist" 200
# The Codable paths (codable-bench): instructions per operation on the
# Handoff-sized state, from a run of 201 operations minus a run of 1.
swift build -c release --product codable-bench --package-path "$ROOT" >&2
strip --strip-debug -o "$BENCH/work/codable-bench-stripped" "$ROOT/.build/release/codable-bench"
codable() {  # path op
    local one many
    count() { SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$BENCH/work/codable-bench-stripped" one "$1" "$2" handoff-trip "$3" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'; }
    one=$(count "$1" "$2" 1); many=$(count "$1" "$2" 201)
    printf '%-13s %-6s %-28s %14s\n' "codable-$2" "$1" "handoff-trip (per op)" "$(( (many - one) / 200 ))"
}
for path in foundation-plist foundation-json mp mp-direct keyed payload floor; do codable "$path" encode; codable "$path" decode; done
