#!/usr/bin/env python3
"""Two builds of plistkit-bench timed against each other, back to back.

    python3 Benchmarks/paired.py BEFORE_BINARY NOW_BINARY [ROUNDS] [op:format:file ...]

For every case (each corpus file decoded and encoded in both formats, keyed
archives, MP), runs the two binaries in turn, alternating which goes first,
ROUNDS times (default 7), and prints before ÷ now of plistkit-bench's own
median time per iteration, paired per round: median, minimum and maximum
(> 1: the second binary is faster). Naming cases (op:format:file) runs only
those. The corpus is Benchmarks/work/corpus (make_corpus.py; compare.sh makes
the keyed packs). Used for issue 27's before-and-after table (README.md,
"Performance"); compare.sh compares ActivityCodec with its peers instead.
"""
import json, os, statistics, subprocess, sys

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "work", "corpus")
CASES = []
for name, iters in [("one-userinfo.bplist", 2000), ("settings.bplist", 60), ("unicode.bplist", 15),
                    ("numbers.bplist", 15), ("library.bplist", 3), ("userinfo.pack.bplist", 2)]:
    CASES += [("decode", "binary", name, iters), ("encode", "binary", name, iters)]
for name, iters in [("one-userinfo.xml", 1000), ("settings.xml", 20), ("unicode.xml", 10),
                    ("numbers.xml", 8), ("library.xml", 1), ("userinfo.pack.xml", 1)]:
    CASES += [("decode", "xml", name, iters), ("encode", "xml", name, iters)]
CASES += [("keyed-decode", "binary", "userinfo-keyed-100.pack.bplist", 10),
          ("keyed-encode", "binary", "userinfo-keyed-100.pack.bplist", 10),
          ("mp-decode", "binary", "one-userinfo.bplist", 2000),
          ("mp-encode", "binary", "one-userinfo.bplist", 2000)]


def median_seconds(binary, op, fmt, name, iters):
    out = subprocess.run([binary, op, fmt, os.path.join(CORPUS, name), str(iters)], capture_output=True,
                         text=True, check=True, env={"SWIFT_DETERMINISTIC_HASHING": "1"}).stdout
    return json.loads(out.strip().splitlines()[-1])["median_s"]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    before, now = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    wanted = set(sys.argv[4:])
    for op, fmt, name, iters in CASES:
        if wanted and f"{op}:{fmt}:{name}" not in wanted:
            continue
        ratios, times_now, times_before = [], [], []
        for r in range(rounds):
            runs = [(now, times_now), (before, times_before)]
            for binary, times in (runs if r % 2 == 0 else runs[::-1]):
                times.append(median_seconds(binary, op, fmt, name, iters))
            ratios.append(times_before[-1] / times_now[-1])
        print(f"{op:13} {fmt:6} {name:32} before/now median {statistics.median(ratios):.3f} "
              f"min {min(ratios):.3f} max {max(ratios):.3f}  now {statistics.median(times_now) * 1e3:.3f} ms "
              f"before {statistics.median(times_before) * 1e3:.3f} ms", flush=True)


if __name__ == "__main__":
    main()
