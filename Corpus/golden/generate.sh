#!/usr/bin/env bash
# Regenerates the peer-written golden files (see README.md here).
# Needs python3, plistutil (Debian libplist-utils) and Swift's Foundation.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
rm -rf expected plistlib plistutil foundation
python3 samples.py "$here"
mkdir -p plistutil foundation
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -O foundation_write.swift -o "$work/foundation_write"
for input in plistlib/*.bplist; do
  name=$(basename "$input" .bplist)
  plistutil -i "$input" -o "plistutil/$name.bplist" -f bin
  plistutil -i "$input" -o "plistutil/$name.xml" -f xml
  # Foundation starts from plistlib's XML where there is one (it keeps CF$UID dictionaries as UIDs).
  source="plistlib/$name.xml"; [ -f "$source" ] || source="$input"
  "$work/foundation_write" "$source" "foundation/$name.bplist" "foundation/$name.xml"
done
# XML cannot carry fractional dates exactly: XML copies exist only for the samples in SAMPLES.
for name in $(python3 -c 'import samples; print(" ".join(samples.BINARY_ONLY))'); do
  rm -f "plistutil/$name.xml" "foundation/$name.xml"
done
echo "golden files written under $here"
