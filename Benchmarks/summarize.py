#!/usr/bin/env python3
"""Summarises Benchmarks/work/results.jsonl (written by compare.sh) as Markdown.

   summarize.py results.jsonl

Throughput (MB/s) = input bytes / per-iteration median time / 1e6, the median taken
over rounds. Ratios are paired: in each round, ratio = peer's median_s / ActivityCodec's
median_s on the same case (> 1: ActivityCodec is faster); the table gives the median
and the minimum of those per-round ratios. "best peer" is, per round, the fastest peer
that ran that case in that round, libxml2-floor excluded (it is not a codec: libxml2's
SAX parse with empty callbacks, the floor of any XML reader built on it). "% of floor"
is ActivityCodec's throughput as a share of the floor's, paired the same way (floor
median_s / ActivityCodec's median_s). Goals are judged on the median paired ratio.
"""
import json
import statistics
import sys
from collections import defaultdict

PEERS = ["activitycodec", "libplist", "foundation", "plistlib", "rust-plist", "libxml2-floor", "libxml2-floor-ours",
         "value-floor"]
NAMES = {"activitycodec": "ActivityCodec", "libplist": "libplist", "foundation": "Foundation", "plistlib": "plistlib",
         "rust-plist": "rust plist", "libxml2-floor": "libxml2 floor (push, SAX2)",
         "libxml2-floor-ours": "libxml2 floor (our set-up)", "value-floor": "value floor"}
FLOOR = "libxml2-floor"  # issue 19's floor: the SAX2 push parser
OUR_FLOOR = "libxml2-floor-ours"  # libxml2 set up exactly as our reader sets it up
# Building the decoded PropertyListValue trees anew, no parsing: the floor of any
# reader producing them (plistkit-bench's value-floor op).
VALUE_FLOOR = "value-floor"
FLOORS = (FLOOR, OUR_FLOOR, VALUE_FLOOR)  # not codecs: never the "best peer"
FILE_ORDER = ["userinfo.pack", "settings", "library", "unicode", "numbers", "one-userinfo",
              "userinfo-keyed.pack", "userinfo-keyed-1k.pack", "userinfo-keyed-100.pack"]
SECTIONS = [("decode", "binary"), ("encode", "binary"), ("decode", "xml"), ("encode", "xml"),
            ("keyed-decode", "binary"), ("keyed-encode", "binary")]
# The corpus files of compare.sh (each as .bplist and .xml); a QUICK run measures two.
CORPUS = {"userinfo.pack", "settings", "library", "unicode", "numbers", "one-userinfo"}
# Issue 19's goals: (op, format, against, target, files, column, description). against
# is a peer, "best" (the fastest peer but the floor) or "floor" (target is then a share of
# the floor's throughput); files is the set of corpus bases the goal covers (a goal is ❔
# while one of them was not measured), None = whatever file the run used.
GOALS = [
    ("decode", "binary", "libplist", 1.5, CORPUS, "goal",
     "binary decode ≥ 1.5× libplist on every corpus file"),
    ("encode", "binary", "best", 1.5, CORPUS, "goal",
     "binary encode ≥ 1.5× the fastest peer (rust plist included) on every corpus file"),
    ("decode", "xml", "libplist", 1.5, {"userinfo.pack", "settings", "library", "numbers"}, "goal ÷ libplist",
     "XML decode ≥ 1.5× libplist on userinfo.pack, settings, library, numbers"),
    ("decode", "xml", "floor", 0.6, CORPUS, "goal % of floor",
     "XML decode ≥ 60% of the libxml2 floor's throughput (SAX2 push parser, as issue 19 defines it) on every corpus file"),
    ("decode", "xml", "our-floor", 0.6, CORPUS, "goal % of our floor",
     "XML decode ≥ 60% of the floor of libxml2 as our reader sets it up (pull parser, SAX1) on every corpus file"),
    ("encode", "xml", "libplist", 1.5, CORPUS, "goal",
     "XML encode ≥ 1.5× libplist on every corpus file"),
    ("keyed-decode", "binary", "foundation", 5.0, None, "goal",
     "keyed-archive decode ≥ 5× Foundation"),
]
LATENCY_FILE, LATENCY_GOAL_US = "one-userinfo.bplist", 5.0
OURS = "activitycodec"


def base(file):
    for suffix in (".bplist", ".xml"):
        if file.endswith(suffix):
            return file[: -len(suffix)]
    return file


def order(file):
    b = base(file)
    return (FILE_ORDER.index(b) if b in FILE_ORDER else len(FILE_ORDER), file)


def size(n):
    for unit, scale in (("MB", 1e6), ("KB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def ratio_text(values):
    if not values:
        return "–"
    return f"{statistics.median(values):.2f}× / {min(values):.2f}×"


def percent_text(values):
    if not values:
        return "–"
    return f"{statistics.median(values) * 100:.0f}% / {min(values) * 100:.0f}%"


def value_text(against, value):
    return f"{value * 100:.0f}%" if against in ("floor", "our-floor") else f"{value:.2f}×"


def mark(ok):
    return "✅" if ok else "❌"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: summarize.py results.jsonl")
    meta, round_times, total_time = {}, {}, None
    runs = defaultdict(dict)  # (op, format, file) -> {(peer, round): record}
    rss = {}  # (peer, file) -> kB
    failures = []
    with open(sys.argv[1]) as stream:
        for number, line in enumerate(stream, 1):
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                failures.append(f"line {number}: not JSON: {line[:120]}")
                continue
            op = record.get("op")
            if op == "meta":
                meta = record
            elif op == "round-time":
                round_times[record["round"]] = record["seconds"]
            elif op == "total-time":
                total_time = record["seconds"]
            elif op == "peak-rss":
                rss[(record["peer"], record["file"])] = record["rss_kb"]
            elif "error" in record:
                failures.append(f"round {record.get('round')}: {record['peer']} {op} {record['format']} "
                                f"{record['file']}: {record['error']}")
            else:
                key = (op, record["format"], record["file"])
                # Lines without a round (hand-appended) count as extra rounds.
                r = record.get("round", f"n{sum(1 for k in runs[key] if k[0] == record['peer'])}")
                runs[key][(record["peer"], r)] = record

    out = []
    out.append("# ActivityCodec benchmark summary")
    out.append("")
    if meta:
        out.append(f"{meta.get('date', '?')} · commit {meta.get('commit', '?')}"
                   + (f" + {meta['dirty_source_files']} uncommitted source file(s)"
                      if meta.get("dirty_source_files") else "")
                   + f" ({meta.get('build', '')}) · {meta.get('rounds', '?')} round(s)"
                   + (f", heavy peer runs (†) only in the first {meta['heavy_rounds']} round(s)"
                      if not meta.get("quick") and meta.get("heavy_rounds", 0) < meta.get("rounds", 0) else "")
                   + (" · **QUICK smoke run**" if meta.get("quick") else "")
                   + f" · {meta.get('cpus', '?')} CPUs, load {meta.get('loadavg', '?')} at start")
        out.append("")
        out.append(f"{meta.get('swift', 'swift ?')} · libplist {meta.get('libplist', '?')} · "
                   f"{meta.get('python', '?')} (plistlib) · rust plist crate {meta.get('rust_plist', '?')} "
                   f"({meta.get('rustc', 'rustc ?')}) · libxml2 {meta.get('libxml2', '?')} · {meta.get('gcc', '')}")
        out.append("")
    out.append("MB/s = input bytes ÷ median time per iteration (median over rounds). "
               "Ratios: peer time ÷ ActivityCodec time, paired per round, shown as median / minimum over rounds; "
               "> 1 means ActivityCodec is faster. \"best peer\" leaves out the floors (not codecs: libxml2's parse "
               "with empty callbacks, where \"floor\" is issue 19's SAX2 push parser and \"our floor\" libxml2 set up "
               "exactly as ActivityCodec's XML reader sets it up; and the value floor, building the decoded values anew "
               "without parsing, the floor of any reader producing them); \"% of floor\" = floor time ÷ "
               "ActivityCodec time, paired the same way; \"value floor ÷ libplist\" = libplist's time ÷ the value "
               "floor's, the highest ratio to libplist any reader that builds these values can reach. A peer that ran no case of a table has no column. "
               "† = that peer ran in fewer rounds (heavy run).")
    out.append("")

    goal_rows = defaultdict(list)  # goal index -> [(file, ratio or None)]
    for op, fmt in SECTIONS:
        keys = sorted((k for k in runs if k[0] == op and k[1] == fmt), key=lambda k: order(k[2]))
        if not keys:
            continue
        goals = [(i, g) for i, g in enumerate(GOALS) if g[0] == op and g[1] == fmt]
        present = {peer for k in keys for peer, _ in runs[k]}
        peers = [p for p in PEERS if p in present]
        floor = FLOOR in present
        our_floor = OUR_FLOOR in present
        value_floor = VALUE_FLOOR in present
        out.append(f"## {op} · {fmt}")
        out.append("")
        header = ["file", "size"] + [f"{NAMES[p]} MB/s" for p in peers] + \
                 ["÷ libplist", "÷ Foundation", "÷ best peer"] + (["% of floor"] if floor else []) + \
                 (["% of our floor"] if our_floor else []) + \
                 (["% of value floor", "value floor ÷ libplist"] if value_floor else []) + \
                 [g[5] for _, g in goals]
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
        for key in keys:
            by = runs[key]
            rounds_of = defaultdict(dict)  # peer -> round -> median_s
            nbytes = None
            for (peer, r), record in by.items():
                rounds_of[peer][r] = record["median_s"]
                nbytes = record["bytes"]
            most = max(len(v) for v in rounds_of.values())
            cells = [key[2], size(nbytes)]
            for peer in peers:
                times = list(rounds_of.get(peer, {}).values())
                if not times:
                    cells.append("–")
                    continue
                median = statistics.median(times)
                text = f"{nbytes / median / 1e6:,.1f}" if median > 0 else "∞"
                if len(times) < most:
                    text += "†"
                cells.append(text)
            ours = rounds_of.get(OURS, {})
            ratios = {}
            for against in ("libplist", "foundation", "best", "floor", "our-floor"):
                values = []
                for r, t in ours.items():
                    if t <= 0:
                        continue
                    if against == "best":
                        others = [rounds_of[p][r] for p in PEERS
                                  if p != OURS and p not in FLOORS and r in rounds_of.get(p, {})]
                        if others:
                            values.append(min(others) / t)
                    else:
                        peer = {"floor": FLOOR, "our-floor": OUR_FLOOR}.get(against, against)
                        if r in rounds_of.get(peer, {}):
                            values.append(rounds_of[peer][r] / t)
                ratios[against] = values
                if against in ("floor", "our-floor"):
                    if (floor if against == "floor" else our_floor):
                        cells.append(percent_text(values))
                else:
                    cells.append(ratio_text(values))
            if value_floor:
                floor_times = rounds_of.get(VALUE_FLOOR, {})
                cells.append(percent_text([floor_times[r] / t for r, t in ours.items() if t > 0 and r in floor_times]))
                # The best ratio to libplist any reader that builds these values could reach.
                cells.append(ratio_text([rounds_of["libplist"][r] / t for r, t in floor_times.items()
                                         if t > 0 and r in rounds_of.get("libplist", {})]))
            for index, (_, _, against, target, files, _, _) in goals:
                if files is not None and base(key[2]) not in files:
                    cells.append("·")  # not a file this goal covers
                    continue
                values = ratios[against]
                if values:
                    value = statistics.median(values)
                    goal_rows[index].append((key[2], value))
                    cells.append(mark(value >= target))
                else:
                    goal_rows[index].append((key[2], None))
                    cells.append("❔")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")

    # Latency: one document per iteration, so median_s is the time per document.
    latency = None
    key = ("decode", "binary", LATENCY_FILE)
    if key in runs:
        ours = [rec["median_s"] for (peer, _), rec in runs[key].items() if peer == OURS]
        lib = [rec["median_s"] for (peer, _), rec in runs[key].items() if peer == "libplist"]
        if ours:
            latency = statistics.median(ours) * 1e6
            out.append(f"**Latency**: ActivityCodec decodes {LATENCY_FILE} ({size(runs[key][next(iter(runs[key]))]['bytes'])}, "
                       f"one document) in **{latency:.2f} µs** per document (median over {len(ours)} round(s); "
                       f"best round {min(ours) * 1e6:.2f} µs)"
                       + (f"; libplist {statistics.median(lib) * 1e6:.2f} µs" if lib else "")
                       + f". Goal ≤ {LATENCY_GOAL_US:g} µs: {mark(latency <= LATENCY_GOAL_US)}")
            out.append("")
    # Per document in a pack: median_s / messages (each line says how many documents an iteration holds).
    key = ("decode", "binary", "userinfo.pack")
    if key in runs:
        per = {}
        for (peer, _), rec in runs[key].items():
            if rec.get("messages", 1) > 1:
                per.setdefault(peer, []).append(rec["median_s"] / rec["messages"])
        if per:
            out.append("**Per document in userinfo.pack** (binary decode, median over rounds): "
                       + ", ".join(f"{NAMES.get(p, p)} {statistics.median(v) * 1e6:.2f} µs" for p, v in sorted(per.items())))
            out.append("")

    rss_ok = None
    if rss:
        files = sorted({f for _, f in rss}, key=order)
        peers = [p for p in PEERS if any(q == p for q, _ in rss)]
        out.append("## Peak RSS, decoding once (ITERS=1), MiB")
        out.append("")
        out.append("| file | " + " | ".join(NAMES[p] for p in peers) + " | ≤ plistlib |")
        out.append("|---|" + "---:|" * len(peers) + "---|")
        rss_ok = {}
        for f in files:
            cells = [f]
            for p in peers:
                cells.append(f"{rss[(p, f)] / 1024:,.1f}" if (p, f) in rss else "–")
            if (OURS, f) in rss and ("plistlib", f) in rss:
                rss_ok[f] = rss[(OURS, f)] <= rss[("plistlib", f)]
                cells.append(mark(rss_ok[f]))
            else:
                cells.append("❔")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")

    out.append("## Goals")
    out.append("")
    for index, (op, fmt, against, target, files, _, text) in enumerate(GOALS):
        rows = goal_rows.get(index, [])
        known = [(f, v) for f, v in rows if v is not None]
        if not known:
            out.append(f"- ❔ {text}: no data")
            continue
        failing = [f"{f} {value_text(against, v)}" for f, v in known if v < target]
        worst = min(v for _, v in known)
        status = mark(not failing and len(known) == len(rows))
        detail = f"failing: {', '.join(failing)}" if failing else f"lowest {value_text(against, worst)}"
        # A goal over corpus files that this run did not all measure (QUICK) is not met yet.
        missing = sorted(files - {base(f) for f, _ in rows}) if files else []
        if missing:
            if not failing:
                status = "❔"
            detail += f"; not measured: {', '.join(missing)}"
        out.append(f"- {status} {text} ({len(known)} file(s); {detail})")
    if latency is None:
        out.append(f"- ❔ {LATENCY_FILE} binary decode ≤ {LATENCY_GOAL_US:g} µs: no data")
    else:
        out.append(f"- {mark(latency <= LATENCY_GOAL_US)} {LATENCY_FILE} binary decode ≤ {LATENCY_GOAL_US:g} µs "
                   f"({latency:.2f} µs)")
    library = [f for f in (rss_ok or {}) if base(f) == "library"]
    if rss_ok is None or not library:
        out.append("- ❔ peak RSS decoding library (both formats) ≤ plistlib's: no data"
                   + (f" (this run measured {', '.join(sorted(rss_ok))})" if rss_ok else ""))
    else:
        fine = all(rss_ok[f] for f in library) and len(library) == 2
        out.append(f"- {mark(fine)} peak RSS decoding library (both formats) ≤ plistlib's ("
                   + ", ".join(f"{f}: {rss[(OURS, f)] / 1024:,.0f} vs {rss[('plistlib', f)] / 1024:,.0f} MiB"
                               for f in library) + ")")
    out.append("")

    if failures:
        out.append("## Failed runs")
        out.append("")
        out.extend(f"- {f}" for f in failures)
        out.append("")
    if round_times:
        times = ", ".join(f"{t} s" for _, t in sorted(round_times.items()))
        out.append(f"Round wall times: {times}" + (f"; all measurements {total_time} s." if total_time else "."))
        out.append("")
    print("\n".join(out))


if __name__ == "__main__":
    main()
