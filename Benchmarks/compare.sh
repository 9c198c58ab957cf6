#!/usr/bin/env bash
# Benchmarks ActivityCodec (plistkit-bench) against Linux Foundation, libplist 2.2,
# Python's plistlib and the rust `plist` crate, with libxml2's bare SAX parse as
# the XML-decode floor, interleaved, and writes a Markdown summary.
# See Benchmarks/README.md.
#
#   bash Benchmarks/compare.sh                 # ROUNDS=5 full rounds (~12 min here)
#   ROUNDS=3 bash Benchmarks/compare.sh
#   QUICK=1 bash Benchmarks/compare.sh         # smoke test: 1 round, small files only
#
# Environment:
#   ROUNDS        rounds of every case (default 5; QUICK=1 forces 1)
#   HEAVY_ROUNDS  rounds (the first ones) in which the "heavy" peer runs -- a slow
#                 peer on a big file, a run taking ≳8 s here, never the comparator
#                 of a goal -- take part (default 1). See heavy() below.
#   QUICK         1: one round, small files only (one-userinfo, settings, a 100-archive
#                 keyed pack), peak RSS on settings instead of library
#
# Output: Benchmarks/work/results.jsonl (fresh each run), Benchmarks/work/summary.md
# (also printed on stdout). Progress goes to stderr.
set -euo pipefail

BENCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$BENCH")"
WORK="$BENCH/work"
BIN="$WORK/bin"
CORPUS="$WORK/corpus"
RESULTS="$WORK/results.jsonl"
SUMMARY="$WORK/summary.md"
QUICK="${QUICK:-0}"
ROUNDS="${ROUNDS:-5}"
HEAVY_ROUNDS="${HEAVY_ROUNDS:-1}"
[[ "$QUICK" == 1 ]] && ROUNDS=1
export PATH="/opt/swift/usr/bin:$PATH" LC_NUMERIC=C

log() { printf '%s\n' "$*" >&2; }
die() { log "compare.sh: $*"; exit 1; }

mkdir -p "$BIN" "$CORPUS"

# ---------------------------------------------------------------- tools
need_package() {  # need_package TEST-COMMAND PACKAGE
    if ! eval "$1" >/dev/null 2>&1; then
        log "installing $2 (apt-get)"
        local sudo=""
        [[ "$(id -u)" != 0 ]] && sudo="sudo"
        $sudo apt-get install -y "$2" >&2 ||
            { $sudo apt-get update >&2 && $sudo apt-get install -y "$2" >&2; } ||
            die "could not install $2"
    fi
}
need_package "pkg-config --exists libplist-2.0" libplist-dev
need_package "pkg-config --exists libxml-2.0" libxml2-dev
need_package "test -x /usr/bin/time" time
# The rust `plist` crate and its dependencies, as Debian packages them
# (a cargo directory source); the rust peer is built offline against it.
RUST_REGISTRY=/usr/share/cargo/registry
need_package "ls -d $RUST_REGISTRY/plist-1.*" librust-plist-dev
command -v python3 >/dev/null || die "python3 is required"
command -v gcc >/dev/null || die "gcc is required"
# cargo: the machine's (rustup's, in ~/.cargo/bin) if there is one, else Debian's.
if ! command -v cargo >/dev/null && [[ -x "$HOME/.cargo/bin/cargo" ]]; then
    export PATH="$PATH:$HOME/.cargo/bin"
fi
need_package "command -v cargo" cargo

# ---------------------------------------------------------------- builds
PLISTKIT_BENCH="$ROOT/.build/release/plistkit-bench"
build_plistkit_bench() {
    local attempt
    for attempt in 1 2 3; do
        log "building plistkit-bench (release), attempt $attempt"
        if (cd "$ROOT" && swift build -c release --product plistkit-bench >&2); then
            return 0
        fi
        [[ $attempt -lt 3 ]] && { log "build failed (sources mid-edit?); retrying in 60 s"; sleep 60; }
    done
    if [[ -x "$PLISTKIT_BENCH" ]]; then
        log "WARNING: build failed 3 times; using the existing $PLISTKIT_BENCH ($(date -r "$PLISTKIT_BENCH"))"
        BUILD_NOTE="build failed; used existing binary from $(date -r "$PLISTKIT_BENCH" '+%F %T')"
        return 0
    fi
    die "plistkit-bench does not build and there is no earlier binary"
}
BUILD_NOTE="built by this run"
build_plistkit_bench

# A peer is rebuilt when missing or older than its source.
if [[ ! -x "$BIN/foundation_bench" || "$BENCH/peers/foundation_bench.swift" -nt "$BIN/foundation_bench" ]]; then
    log "building foundation_bench"
    swiftc -O "$BENCH/peers/foundation_bench.swift" -o "$BIN/foundation_bench"
fi
# The C peers share peers/bench_harness.h (reading packs, the clock, the median).
if [[ ! -x "$BIN/libplist_bench" || "$BENCH/peers/libplist_bench.c" -nt "$BIN/libplist_bench" ||
      "$BENCH/peers/bench_harness.h" -nt "$BIN/libplist_bench" ]]; then
    log "building libplist_bench"
    # shellcheck disable=SC2046
    gcc -O2 -o "$BIN/libplist_bench" "$BENCH/peers/libplist_bench.c" $(pkg-config --cflags --libs libplist-2.0)
fi
if [[ ! -x "$BIN/libxml2_floor" || "$BENCH/peers/libxml2_floor.c" -nt "$BIN/libxml2_floor" ||
      "$BENCH/peers/bench_harness.h" -nt "$BIN/libxml2_floor" ]]; then
    log "building libxml2_floor"
    # shellcheck disable=SC2046
    gcc -O2 -o "$BIN/libxml2_floor" "$BENCH/peers/libxml2_floor.c" $(pkg-config --cflags --libs libxml-2.0)
fi
# The rust peer: offline, against Debian's registry only (a CARGO_HOME of our own
# whose config replaces crates.io with it). Cargo writes Cargo.lock beside
# Cargo.toml (ignored by git there).
RUST_SRC="$BENCH/peers/rust_plist_bench"
if [[ ! -x "$BIN/rust_plist_bench" || "$RUST_SRC/Cargo.toml" -nt "$BIN/rust_plist_bench" ||
      "$RUST_SRC/src/main.rs" -nt "$BIN/rust_plist_bench" ]]; then
    log "building rust_plist_bench (cargo, offline, Debian's crates)"
    mkdir -p "$WORK/cargo-home"
    cat >"$WORK/cargo-home/config.toml" <<EOF
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "$RUST_REGISTRY"

[net]
offline = true
EOF
    CARGO_HOME="$WORK/cargo-home" cargo build --offline --release --quiet \
        --manifest-path "$RUST_SRC/Cargo.toml" --target-dir "$WORK/rust-target" >&2
    cp "$WORK/rust-target/release/rust_plist_bench" "$BIN/rust_plist_bench.tmp"
    mv "$BIN/rust_plist_bench.tmp" "$BIN/rust_plist_bench"
fi

# ---------------------------------------------------------------- corpus
CORPUS_FILES=(userinfo.pack one-userinfo settings library unicode numbers)
missing=0
for f in "${CORPUS_FILES[@]}"; do
    [[ -s "$CORPUS/$f.bplist" && -s "$CORPUS/$f.xml" ]] || missing=1
done
if [[ $missing == 1 ]]; then
    log "generating the corpus (about a minute)"
    python3 "$BENCH/make_corpus.py" "$CORPUS" >&2
fi
KEYED="$CORPUS/userinfo-keyed.pack.bplist"
if [[ ! -s "$KEYED" || "$CORPUS/userinfo.pack.bplist" -nt "$KEYED" ]]; then
    log "generating the keyed-archive pack with NSKeyedArchiver (about 75 s)"
    "$BIN/foundation_bench" --make-keyed "$CORPUS/userinfo.pack.bplist" "$KEYED.tmp"
    mv "$KEYED.tmp" "$KEYED"
fi
# Packs of the first N keyed archives: keyed-encode runs on 1,000 of them because
# Foundation's NSKeyedArchiver needs ~66 s for all 10,000; QUICK uses 100.
subpack() {  # subpack SRC N DEST
    if [[ ! -s "$3" || "$1" -nt "$3" ]]; then
        python3 - "$1" "$2" "$3" <<'EOF'
import struct, sys
src, n, dest = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(src, "rb").read()
assert data.startswith(b"PLPACK01")
(count,) = struct.unpack_from("<I", data, 8)
n = min(n, count)
offset, parts = 12, [b"PLPACK01", struct.pack("<I", n)]
for _ in range(n):
    (length,) = struct.unpack_from("<I", data, offset)
    parts.append(data[offset:offset + 4 + length])
    offset += 4 + length
open(dest + ".tmp", "wb").write(b"".join(parts))
EOF
        mv "$3.tmp" "$3"
    fi
}
subpack "$KEYED" 1000 "$CORPUS/userinfo-keyed-1k.pack.bplist"
subpack "$KEYED" 100 "$CORPUS/userinfo-keyed-100.pack.bplist"

# ---------------------------------------------------------------- peers and cases
# libxml2-floor is not a codec: libxml2's SAX parse with empty callbacks, set up as
# ActivityCodec's XML reader sets it up -- the floor of any reader built on it.
# Two floors: libxml2-floor is issue 19's (the SAX2 push parser, as the reader used
# libxml2 before it); libxml2-floor-ours is libxml2 set up exactly as the reader sets
# it up now (the pull parser, SAX1 element events) -- the true floor of our reader.
# value-floor is not a codec either: plistkit-bench building the decoded values
# anew from decoded ones (fresh strings, data, arrays, dictionaries with their key
# index; no parsing, no rule checked) -- the floor of any reader that produces
# PropertyListValue trees, whatever the format.
PEERS=(activitycodec libplist foundation plistlib rust-plist libxml2-floor libxml2-floor-ours value-floor)

peer_command() {  # prints nothing; sets CMD array
    case "$1" in
        activitycodec) CMD=("$PLISTKIT_BENCH") ;;
        libplist) CMD=("$BIN/libplist_bench") ;;
        foundation) CMD=("$BIN/foundation_bench") ;;
        plistlib) CMD=(python3 "$BENCH/peers/plistlib_bench.py") ;;
        rust-plist) CMD=("$BIN/rust_plist_bench") ;;
        libxml2-floor) CMD=("$BIN/libxml2_floor") ;;
        libxml2-floor-ours) CMD=(env LIBXML2_FLOOR_SETUP=ours "$BIN/libxml2_floor") ;;
        value-floor) CMD=(env PLISTKIT_BENCH_FLOOR=value "$PLISTKIT_BENCH") ;;
    esac
}

supports() {  # supports PEER OP FORMAT
    case "$1:$2:$3" in
        activitycodec:* | foundation:*) return 0 ;;
        libplist:decode:* | libplist:encode:* | plistlib:decode:* | plistlib:encode:*) return 0 ;;
        rust-plist:decode:* | rust-plist:encode:*) return 0 ;;
        libxml2-floor:decode:xml | libxml2-floor-ours:decode:xml) return 0 ;;
        value-floor:decode:*) return 0 ;;
        *) return 1 ;;
    esac
}

# ITERS per file, so one run of a fast peer (ActivityCodec, libplist, rust-plist,
# libxml2-floor) takes roughly 0.2-2 s here; the slow peers (Foundation, plistlib)
# get fewer, and so does rust-plist's XML decode (xml-rs: 10-25 MB/s here, about
# Foundation's speed). The summary compares per-iteration medians, so differing
# ITERS is fine.
iters() {  # iters PEER OP FILE
    local slow=0
    [[ "$1" == foundation || "$1" == plistlib ]] && slow=1
    [[ "$1" == rust-plist && "$2" == decode && "$3" == *.xml ]] && slow=1   # 0.1-2.6 s per iteration
    [[ "$1:$2:$3" == libplist:encode:library.bplist ]] && slow=1   # ~18 s per iteration
    case "$3" in
        one-userinfo.bplist) ((slow)) && echo 2000 || echo 20000 ;;
        one-userinfo.xml) ((slow)) && echo 1000 || echo 5000 ;;
        settings.bplist) ((slow)) && echo 5 || echo 50 ;;
        settings.xml) ((slow)) && echo 5 || echo 20 ;;
        unicode.*) ((slow)) && echo 3 || echo 20 ;;
        # 30, not 10: the first ~10 decodes of numbers.bplist in a process
        # fault in fresh pages for its 640 KB arrays (glibc's mmap threshold
        # adapting, then its heap top trimmed after each free): 3.1 ms, then
        # 2.0 ms once the heap is reused. Ten put the median in that transient
        # (Benchmarks/README.md, "Allocator warm-up").
        numbers.bplist) ((slow)) && echo 3 || echo 30 ;;
        numbers.xml) ((slow)) && echo 3 || echo 5 ;;
        userinfo.pack.bplist) ((slow)) && echo 1 || echo 5 ;;
        # 5, not 2: the first timed decode after the warm-up's values are
        # freed is ~20% slower for ActivityCodec (glibc reorganising the
        # freed heap), and the median of two is their mean (Benchmarks/README.md,
        # "Allocator warm-up").
        userinfo.pack.xml) ((slow)) && echo 1 || echo 5 ;;
        library.bplist) ((slow)) && echo 1 || echo 3 ;;
        library.xml) ((slow)) && echo 1 || echo 2 ;;
        userinfo-keyed.pack.bplist) ((slow)) && echo 1 || echo 2 ;;
        userinfo-keyed-1k.pack.bplist) ((slow)) && echo 1 || echo 5 ;;
        userinfo-keyed-100.pack.bplist) ((slow)) && echo 3 || echo 20 ;;
        *) echo 5 ;;
    esac
}

# Heavy peer runs: a run (setup, warm-up and ITERS=1) takes ≳8 s here, and the
# peer is not what a goal is judged against on that case (goals compare with
# libplist, with the fastest peer for binary encode -- far faster than these
# there -- and with Foundation for keyed-decode). They take part only in the first
# HEAVY_ROUNDS rounds, which saves ~185 s a round; the summary marks their numbers
# with †. Foundation's keyed-decode (~15 s a run) is the keyed goal's comparator,
# so it runs every round.
heavy() {  # heavy PEER OP FILE
    case "$1:$2:$3" in
        libplist:encode:library.bplist) return 0 ;;
        foundation:encode:library.bplist | foundation:encode:library.xml) return 0 ;;
        foundation:encode:userinfo.pack.bplist | foundation:encode:userinfo.pack.xml) return 0 ;;
        foundation:keyed-encode:userinfo-keyed-1k.pack.bplist) return 0 ;;
        plistlib:encode:userinfo.pack.bplist) return 0 ;;
        plistlib:decode:userinfo.pack.xml | plistlib:encode:userinfo.pack.xml) return 0 ;;
        plistlib:decode:library.xml | plistlib:encode:library.xml) return 0 ;;
        *) return 1 ;;
    esac
}

# Cases: "OP FORMAT FILE".
CASES=()
if [[ "$QUICK" == 1 ]]; then
    BASES=(settings one-userinfo)
    KEYED_DECODE_FILE=userinfo-keyed-100.pack.bplist
    KEYED_ENCODE_FILE=userinfo-keyed-100.pack.bplist
else
    BASES=(userinfo.pack settings library unicode numbers one-userinfo)
    KEYED_DECODE_FILE=userinfo-keyed.pack.bplist
    KEYED_ENCODE_FILE=userinfo-keyed-1k.pack.bplist
fi
for format in binary xml; do
    ext=bplist
    [[ $format == xml ]] && ext=xml
    for op in decode encode; do
        for base in "${BASES[@]}"; do CASES+=("$op $format $base.$ext"); done
    done
done
CASES+=("keyed-decode binary $KEYED_DECODE_FILE" "keyed-encode binary $KEYED_ENCODE_FILE")

# ---------------------------------------------------------------- metadata
json_string() { python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$1"; }
commit="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
dirty="$(git -C "$ROOT" status --porcelain -- Sources Package.swift 2>/dev/null | wc -l)"
swift_version="$(swift --version 2>&1 | grep -m1 -i 'swift version' || true)"
libplist_version="$(pkg-config --modversion libplist-2.0)"
python_version="$(python3 --version 2>&1)"
gcc_version="$(gcc --version | head -1)"
libxml2_version="$(pkg-config --modversion libxml-2.0)"
# The plist crate cargo resolved (Cargo.lock), else the one Debian's registry holds.
rust_plist_version="$(python3 -c '
import sys, tomllib
lock = tomllib.load(open(sys.argv[1], "rb"))
print(next(p["version"] for p in lock["package"] if p["name"] == "plist"))' "$RUST_SRC/Cargo.lock" 2>/dev/null ||
    dpkg-query -W -f '${Version}' librust-plist-dev 2>/dev/null || echo unknown)"
rustc_version="$(rustc --version 2>/dev/null || echo 'rustc ?')"
: >"$RESULTS"
printf '{"op":"meta","date":%s,"commit":%s,"dirty_source_files":%s,"build":%s,"rounds":%s,"heavy_rounds":%s,"quick":%s,"cpus":%s,"loadavg":%s,"swift":%s,"libplist":%s,"python":%s,"gcc":%s,"libxml2":%s,"rust_plist":%s,"rustc":%s}\n' \
    "$(json_string "$(date '+%F %T %Z')")" "$(json_string "$commit")" "$dirty" "$(json_string "$BUILD_NOTE")" \
    "$ROUNDS" "$HEAVY_ROUNDS" "$([[ $QUICK == 1 ]] && echo true || echo false)" "$(nproc)" \
    "$(json_string "$(cut -d' ' -f1-3 /proc/loadavg)")" "$(json_string "$swift_version")" \
    "$(json_string "$libplist_version")" "$(json_string "$python_version")" "$(json_string "$gcc_version")" \
    "$(json_string "$libxml2_version")" "$(json_string "$rust_plist_version")" "$(json_string "$rustc_version")" >>"$RESULTS"

# ---------------------------------------------------------------- rounds
run_one() {  # run_one ROUND PEER OP FORMAT FILE
    local round=$1 peer=$2 op=$3 format=$4 file=$5 n out status
    n="$(iters "$peer" "$op" "$file")"
    peer_command "$peer"
    status=0
    local start=${EPOCHREALTIME/[.,]/} end us wall
    out="$("${CMD[@]}" "$op" "$format" "$CORPUS/$file" "$n" 2>"$WORK/last-stderr.txt")" || status=$?
    end=${EPOCHREALTIME/[.,]/}
    us=$((10#$end - 10#$start))
    printf -v wall '%d.%03d' $((us / 1000000)) $((us % 1000000 / 1000))
    out="$(printf '%s\n' "$out" | grep -m1 '^{.*"median_s"' || true)"
    if [[ $status != 0 || -z "$out" ]]; then
        log "  FAILED $peer $op $format $file (exit $status): $(head -c 300 "$WORK/last-stderr.txt")"
        printf '{"round":%s,"peer":"%s","op":"%s","format":"%s","file":"%s","iters":%s,"error":%s}\n' \
            "$round" "$peer" "$op" "$format" "$file" "$n" \
            "$(json_string "exit $status: $(head -c 300 "$WORK/last-stderr.txt")")" >>"$RESULTS"
        return 0
    fi
    # round and the run's wall time (process start to exit, setup and warm-up included)
    printf '{"round":%s,"wall_s":%s,%s\n' "$round" "$wall" "${out#\{}" >>"$RESULTS"
    python3 -c 'import json,sys; d=json.loads(sys.argv[1]); t=d["median_s"]; print("  %-13s %-12s %-6s %-30s %9.3f %s/iter  x%d" % (d["peer"], d["op"], d["format"], d["file"], t*1e6 if t < 1e-3 else t*1e3, "µs" if t < 1e-3 else "ms", d["iters"]))' "$out" >&2
}

start_all=$SECONDS
for ((round = 0; round < ROUNDS; round++)); do
    start_round=$SECONDS
    order=()
    for ((i = 0; i < ${#PEERS[@]}; i++)); do order+=("${PEERS[(i + round) % ${#PEERS[@]}]}"); done
    log "round $((round + 1))/$ROUNDS, peer order: ${order[*]}"
    for case in "${CASES[@]}"; do
        read -r op format file <<<"$case"
        for peer in "${order[@]}"; do
            supports "$peer" "$op" "$format" || continue
            if heavy "$peer" "$op" "$file" && ((round >= HEAVY_ROUNDS)); then continue; fi
            run_one "$round" "$peer" "$op" "$format" "$file"
        done
    done
    printf '{"op":"round-time","round":%s,"seconds":%s}\n' "$round" "$((SECONDS - start_round))" >>"$RESULTS"
    log "round $((round + 1)) took $((SECONDS - start_round)) s"
done

# ---------------------------------------------------------------- peak RSS
if [[ "$QUICK" == 1 ]]; then RSS_BASE=settings; else RSS_BASE=library; fi
log "peak RSS decoding $RSS_BASE.{bplist,xml}"
for format in binary xml; do
    ext=bplist
    [[ $format == xml ]] && ext=xml
    for peer in "${PEERS[@]}"; do
        supports "$peer" decode "$format" || continue
        [[ $peer == value-floor ]] && continue   # holds two trees at once: not a reader's footprint
        peer_command "$peer"
        if /usr/bin/time -f %M -o "$WORK/rss.txt" "${CMD[@]}" decode "$format" "$CORPUS/$RSS_BASE.$ext" 1 >/dev/null 2>"$WORK/last-stderr.txt"; then
            rss="$(tail -1 "$WORK/rss.txt")"
            printf '{"peer":"%s","op":"peak-rss","format":"%s","file":"%s","rss_kb":%s}\n' \
                "$peer" "$format" "$RSS_BASE.$ext" "$rss" >>"$RESULTS"
            log "  $peer $RSS_BASE.$ext: $rss KB"
        else
            log "  FAILED peak RSS $peer $RSS_BASE.$ext: $(head -c 300 "$WORK/last-stderr.txt")"
        fi
    done
done
printf '{"op":"total-time","seconds":%s}\n' "$((SECONDS - start_all))" >>"$RESULTS"
log "measurements took $((SECONDS - start_all)) s"

# ---------------------------------------------------------------- summary
python3 "$BENCH/summarize.py" "$RESULTS" | tee "$SUMMARY"
