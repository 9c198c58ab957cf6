#!/usr/bin/env bash
# Start-up (Benchmarks/README.md, "Start-up"): one process checking one tiny
# XML property list, as `find -exec`, xargs and git hooks call a plist tool.
# `plistkit lint FILE` (no argument parser: Specs/plistkit.md, "Start-up"),
# `plistkit lint --jobs 1 FILE` (through the parser, as every other verb) and
# libplist's `plistutil -i FILE -o /dev/null` run in turn, ROUNDS times
# (default 200) after a warm-up; prints each one's median wall time and the
# median of the paired ratios to plistutil, then callgrind's instruction
# counts (the same on every run, whatever the machine does).
#
#   bash Benchmarks/startup.sh [PLISTKIT]   (default: the release tarball's
#                                            binary, built by Scripts/package.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ROUNDS="${ROUNDS:-200}"
PLISTKIT="${1:-}"
if [ -z "$PLISTKIT" ]; then
  tarball=$(bash "$ROOT/Scripts/package.sh" | tail -n 1)   # its tree sits beside it
  PLISTKIT="$ROOT/${tarball%.tar.gz}/bin/plistkit"
fi
command -v plistutil >/dev/null || { echo "plistutil is missing (bash .ci/setup installs it)" >&2; exit 1; }
FILE="$(mktemp --suffix=.plist)"
trap 'rm -f "$FILE"' EXIT
cat > "$FILE" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict><key>a</key><integer>1</integer></dict>
</plist>
EOF
echo "$("$PLISTKIT" --version) · $(plistutil --version 2>/dev/null | head -n 1 || echo plistutil) · $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$ROUNDS" "$PLISTKIT" "$FILE" <<'EOF'
import statistics, subprocess, sys, time
rounds, plistkit, file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
commands = {
    "plistkit lint FILE": [plistkit, "lint", file],
    "plistkit lint --jobs 1 FILE": [plistkit, "lint", "--jobs", "1", file],
    "plistutil -i FILE -o /dev/null": ["plistutil", "-i", file, "-o", "/dev/null"],
}
def once(argv):
    start = time.perf_counter_ns()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter_ns() - start) / 1e6
for argv in commands.values():
    once(argv)
times = {name: [] for name in commands}
for r in range(rounds):
    order = list(commands.items()) if r % 2 == 0 else list(commands.items())[::-1]
    for name, argv in order:
        times[name].append(once(argv))
base = times["plistutil -i FILE -o /dev/null"]
for name, values in times.items():
    ratios = [a / b for a, b in zip(values, base)]
    print(f"{name:32} median {statistics.median(values):6.2f} ms   ÷ plistutil, paired: median {statistics.median(ratios):5.2f}")
EOF
if command -v valgrind >/dev/null; then
  COPY="$(mktemp)"
  strip --strip-debug -o "$COPY" "$PLISTKIT"   # valgrind 3.19 cannot read Swift's DWARF 5
  for args in "lint $FILE" "lint --jobs 1 $FILE"; do
    # shellcheck disable=SC2086
    count=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$COPY" $args 2>&1 >/dev/null | sed -n 's/.*Collected : //p')
    printf '%-32s %12s instructions\n' "plistkit ${args/$FILE/FILE}" "$count"
  done
  count=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null plistutil -i "$FILE" -o /dev/null 2>&1 | sed -n 's/.*Collected : //p')
  printf '%-32s %12s instructions\n' "plistutil -i FILE -o /dev/null" "$count"
  rm -f "$COPY"
fi
