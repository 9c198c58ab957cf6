#!/usr/bin/env python3
"""Python plistlib's side of the benchmark protocol (Benchmarks/README.md).
   plistlib_bench.py OP FORMAT FILE ITERS     OP: decode | encode"""
import json
import os
import plistlib
import statistics
import struct
import sys
import time


def documents(data):
    if not data.startswith(b"PLPACK01"):
        return [data]
    (count,) = struct.unpack_from("<I", data, 8)
    offset, result = 12, []
    for _ in range(count):
        (length,) = struct.unpack_from("<I", data, offset)
        result.append(data[offset + 4: offset + 4 + length])
        offset += 4 + length
    return result


op, fmt, path, iterations = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
data = open(path, "rb").read()
docs = documents(data)
out_format = plistlib.FMT_XML if fmt == "xml" else plistlib.FMT_BINARY
if op == "decode":
    def work():
        return [plistlib.loads(d) for d in docs], 0
else:
    values = [plistlib.loads(d) for d in docs]

    def work():
        outputs = [plistlib.dumps(v, fmt=out_format, sort_keys=False) for v in values]
        return outputs, sum(map(len, outputs))
_, out_bytes = work()
times = []
for _ in range(iterations):
    start = time.monotonic()
    kept = work()
    times.append(time.monotonic() - start)
    del kept
times.sort()
print(json.dumps({"peer": "plistlib", "op": op, "format": fmt, "file": os.path.basename(path), "iters": iterations,
                  "messages": len(docs), "bytes": len(data), "median_s": statistics.median(times), "min_s": times[0], "max_s": times[-1],
                  "out_bytes": out_bytes}, separators=(",", ":")))
