#!/usr/bin/env python3
"""Summarises Benchmarks/work/results.jsonl (written by compare.sh) as Markdown.

   summarize.py results.jsonl

Throughput (MB/s) = input bytes / per-iteration median time / 1e6, the median taken
over rounds. Ratios are paired: in each round, ratio = peer's median_s / ActivityCodec's
median_s on the same case (> 1: ActivityCodec is faster); the table gives the median
and the minimum of those per-round ratios. "best peer" is, per round, the fastest peer
that ran that case in that round. Goals are judged on the median paired ratio.
"""
import json
import statistics
import sys
from collections import defaultdict

PEERS = ["activitycodec", "libplist", "foundation", "plistlib"]
NAMES = {"activitycodec": "ActivityCodec", "libplist": "libplist", "foundation": "Foundation", "plistlib": "plistlib"}
FILE_ORDER = ["userinfo.pack", "settings", "library", "unicode", "numbers", "one-userinfo",
              "userinfo-keyed.pack", "userinfo-keyed-1k.pack", "userinfo-keyed-100.pack"]
SECTIONS = [("decode", "binary"), ("encode", "binary"), ("decode", "xml"), ("encode", "xml"),
            ("keyed-decode", "binary"), ("keyed-encode", "binary")]
# (op, format) -> (against, target, description); against is a peer or "best".
GOALS = {
    ("decode", "binary"): ("libplist", 1.5, "binary decode ≥ 1.5× libplist on every corpus"),
    ("encode", "binary"): ("best", 1.5, "binary encode ≥ 1.5× the fastest peer on every corpus"),
    ("decode", "xml"): ("libplist", 1.0, "XML decode ≥ 1× libplist on every corpus"),
    ("encode", "xml"): ("libplist", 1.0, "XML encode ≥ 1× libplist on every corpus"),
    ("keyed-decode", "binary"): ("foundation", 5.0, "keyed-archive decode ≥ 5× Foundation"),
}
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
                   f"{meta.get('python', '?')} (plistlib) · {meta.get('gcc', '')}")
        out.append("")
    out.append("MB/s = input bytes ÷ median time per iteration (median over rounds). "
               "Ratios: peer time ÷ ActivityCodec time, paired per round, shown as median / minimum over rounds; "
               "> 1 means ActivityCodec is faster. † = that peer ran in fewer rounds (heavy run).")
    out.append("")

    goal_rows = defaultdict(list)  # (op, format) -> [(file, ratio or None)]
    for op, fmt in SECTIONS:
        keys = sorted((k for k in runs if k[0] == op and k[1] == fmt), key=lambda k: order(k[2]))
        if not keys:
            continue
        goal = GOALS.get((op, fmt))
        out.append(f"## {op} · {fmt}")
        out.append("")
        header = ["file", "size"] + [f"{NAMES[p]} MB/s" for p in PEERS] + \
                 ["÷ libplist", "÷ Foundation", "÷ best peer"] + (["goal"] if goal else [])
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
            for peer in PEERS:
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
            for against in ("libplist", "foundation", "best"):
                values = []
                for r, t in ours.items():
                    if t <= 0:
                        continue
                    if against == "best":
                        others = [rounds_of[p][r] for p in PEERS if p != OURS and r in rounds_of.get(p, {})]
                        if others:
                            values.append(min(others) / t)
                    elif r in rounds_of.get(against, {}):
                        values.append(rounds_of[against][r] / t)
                ratios[against] = values
                cells.append(ratio_text(values))
            if goal:
                values = ratios[goal[0]]
                if values:
                    value = statistics.median(values)
                    goal_rows[(op, fmt)].append((key[2], value))
                    cells.append(mark(value >= goal[1]))
                else:
                    goal_rows[(op, fmt)].append((key[2], None))
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
        out.append("## Peak RSS, decoding once (ITERS=1), MiB")
        out.append("")
        out.append("| file | " + " | ".join(NAMES[p] for p in PEERS) + " | ≤ plistlib |")
        out.append("|---|" + "---:|" * len(PEERS) + "---|")
        rss_ok = {}
        for f in files:
            cells = [f]
            for p in PEERS:
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
    for (op, fmt), (against, target, text) in GOALS.items():
        rows = goal_rows.get((op, fmt), [])
        known = [(f, v) for f, v in rows if v is not None]
        if not known:
            out.append(f"- ❔ {text}: no data")
            continue
        failing = [f"{f} {v:.2f}×" for f, v in known if v < target]
        worst = min(v for _, v in known)
        status = mark(not failing and len(known) == len(rows))
        detail = f"failing: {', '.join(failing)}" if failing else f"lowest {worst:.2f}×"
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
