#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer and AddressSanitizer, in release (for
# fuzzing) and debug (for triage), each in its own scratch folder:
#   Fuzz/.build-release/release/<Target>   Fuzz/.build-debug/debug/<Target>
# FUZZ_CONFIGS="release" builds one configuration; FUZZ_SANITIZERS=fuzzer,undefined
# builds the UndefinedBehaviorSanitizer variant into Fuzz/.build-<config>-ubsan.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sanitizers=${FUZZ_SANITIZERS:-fuzzer,address}
suffix=""
[ "$sanitizers" = "fuzzer,address" ] || suffix="-${sanitizers#fuzzer,}"
[ "$suffix" = "-undefined" ] && suffix="-ubsan"
for config in ${FUZZ_CONFIGS:-release debug}; do
  echo "== fuzz targets: $config, -sanitize=$sanitizers" >&2
  swift build --package-path "$here" -c "$config" --scratch-path "$here/.build-$config$suffix" -Xswiftc "-sanitize=$sanitizers"
done
