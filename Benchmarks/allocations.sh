#!/usr/bin/env bash
# Heap allocations per decoded document on ActivityCodec's decode paths, counted by
# valgrind (memcheck's heap summary): plistkit-bench runs once with 1 and once with
# 3 timed iterations; the difference over 2 iterations is one iteration's allocations
# (start-up, reading and the warm-up cancel out), divided by the documents per file.
#   bash Benchmarks/allocations.sh [CORPUS_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
corpus=${1:-$here/work/corpus}
bench=$here/../.build/release/plistkit-bench
[ -x "$bench" ] || swift build -c release --product plistkit-bench --package-path "$here/.."
command -v valgrind >/dev/null || apt-get install -y valgrind >/dev/null
# valgrind 3.19 gives up on the release binary's debug information ("Possibly
# corrupted debuginfo file"), as instructions.sh found: count on a stripped copy.
mkdir -p "$here/work"
strip --strip-debug -o "$here/work/plistkit-bench-stripped" "$bench"
bench=$here/work/plistkit-bench-stripped

allocs() {  # OP FORMAT FILE ITERS → total heap allocations of the run
  valgrind --tool=memcheck --leak-check=no "$bench" "$@" 2>&1 >/dev/null | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
documents() {  # a pack's count, else 1
  python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(12); print(struct.unpack('<I', d[8:12])[0] if d[:8]==b'PLPACK01' else 1)" "$1"
}

printf '| op | file | documents | allocations per document | bytes per allocation |\n| --- | --- | ---: | ---: | ---: |\n'
for case in "decode binary one-userinfo.bplist" "decode xml one-userinfo.xml" "decode binary settings.bplist" \
            "decode xml settings.xml" "keyed-decode binary userinfo-keyed.pack.bplist"; do
  set -- $case
  file=$corpus/$3
  [ -f "$file" ] || continue
  if [ "$1" = keyed-decode ]; then  # the whole keyed pack is slow under valgrind: its first 500 archives
    python3 - "$file" /tmp/keyed-500.pack <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read(); offset, docs = 12, []
for _ in range(500):
    (length,) = struct.unpack_from("<I", data, offset); docs.append(data[offset + 4:offset + 4 + length]); offset += 4 + length
open(sys.argv[2], "wb").write(b"PLPACK01" + struct.pack("<I", len(docs)) + b"".join(struct.pack("<I", len(d)) + d for d in docs))
PY
    file=/tmp/keyed-500.pack
  fi
  one=$(allocs "$1" "$2" "$file" 1)
  three=$(allocs "$1" "$2" "$file" 3)
  count=$(documents "$file")
  size=$(stat -c %s "$file")
  python3 -c "a=($three-$one)/2; n=$count; print(f'| $1 $2 | $3 | {n} | {a/n:,.1f} | {$size/a:,.1f} |')"
done
