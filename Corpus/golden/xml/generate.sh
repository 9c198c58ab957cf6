#!/usr/bin/env bash
# Regenerates the Foundation-written XML golden files (see Specs/xml-plist.md, "Golden files").
# Needs Swift's Foundation. Our code writes none of these files; tests only read them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -O "$here/foundation_xml_samples.swift" -o "$work/foundation_xml_samples"
rm -rf "$here/foundation"
"$work/foundation_xml_samples" "$here/foundation"
echo "golden XML files written under $here/foundation"
