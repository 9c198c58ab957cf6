#!/usr/bin/env bash
# Regenerates the peer-written golden keyed archives (see ../README.md):
# Linux Foundation's NSKeyedArchiver (with Foundation's own NSKeyedUnarchiver
# reading recorded as the expected value) and Python's bpylist2
# (pip install bpylist2).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
rm -rf foundation bpylist2
mkdir -p foundation bpylist2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -O foundation_archive.swift -o "$work/foundation_archive"
swiftc -O ../../../Tests/PeerTools/FoundationPeer/main.swift -o "$work/foundation-peer"
"$work/foundation_archive" foundation
for archive in foundation/*.bplist; do
  "$work/foundation-peer" --unarchive "$archive" | python3 -c 'import json,sys; json.dump(json.loads(sys.stdin.read()), sys.stdout, ensure_ascii=True, sort_keys=True, indent=1); print()' > "${archive%.bplist}.json"
done
python3 bpylist2_archive.py bpylist2
# Graph archives (any classes): Foundation's and bpylist2's custom classes.
mkdir -p graph
swiftc graph_write.swift -o "$work/graph_write"
"$work/graph_write" graph
python3 bpylist2_graph.py graph
echo "golden keyed archives written under $here"
