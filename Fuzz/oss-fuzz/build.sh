#!/bin/bash -eu
# OSS-Fuzz build script (Swift conventions: sources in $SRC, binaries, seed
# corpora and dictionaries into $OUT, scratch space in $WORK, $SANITIZER chosen
# by the infrastructure). Also runs locally: set SRC, OUT and WORK and run it
# (Fuzz/README.md shows the command).
project=${PROJECT_DIR:-$SRC/activitycodec}
sanitizer=${SANITIZER:-address}

if command -v precompile_swift >/dev/null 2>&1 || [ -f /usr/local/bin/precompile_swift ]; then
  # OSS-Fuzz's flags. Its -parse-as-library is dropped: our targets start
  # libFuzzer from main.swift (Fuzz/Sources/FuzzDriver), because SwiftPM links an
  # executable's entry point as `main` and -parse-as-library leaves none.
  . precompile_swift
  SWIFTFLAGS=${SWIFTFLAGS//-Xswiftc -parse-as-library/}
else
  SWIFTFLAGS="-Xswiftc -sanitize=fuzzer,$sanitizer"
fi

# shellcheck disable=SC2086
swift build -c release --package-path "$project/Fuzz" --scratch-path "$WORK/activitycodec-fuzz" $SWIFTFLAGS
bin=$(swift build -c release --package-path "$project/Fuzz" --scratch-path "$WORK/activitycodec-fuzz" --show-bin-path)

for target in $("$project/Fuzz/run.sh" --list); do
  cp "$bin/$("$project/Fuzz/run.sh" --executable "$target")" "$OUT/$target"
  cp "$project/Fuzz/dictionaries/$target.dict" "$OUT/$target.dict"
  rm -f "$OUT/${target}_seed_corpus.zip"
  (cd "$project/Corpus/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
  printf '[libfuzzer]\nmax_len = 65536\ntimeout = 2\nrss_limit_mb = 2048\nmalloc_limit_mb = 256\n' > "$OUT/$target.options"
done
