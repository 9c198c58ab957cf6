#!/usr/bin/env python3
"""Sums Fuzz/campaigns.tsv into the cumulative table of Fuzz/README.md.

    python3 Fuzz/ledger.py            print the table
    python3 Fuzz/ledger.py --write    also replace it in Fuzz/README.md (between the ledger markers)

Per target: CPU hours over every recorded run, runs, the coverage of the latest
run, the accumulated corpus committed in Corpus/<target>/ (libFuzzer-named
inputs, kept by `Fuzz/run.sh TARGET --merge`), and runs that ended in a finding.
"""
import pathlib
import re
import sys

here = pathlib.Path(__file__).resolve().parent
root = here.parent
START, END = "<!-- ledger:start -->", "<!-- ledger:end -->"


def table():
    totals = {}
    for line in (here / "campaigns.tsv").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        date, commit, target, cpu, execs, cov, ft, corp, result = line.split("\t")
        t = totals.setdefault(target, {"cpu": 0, "runs": 0, "execs": 0, "findings": 0})
        t["cpu"] += int(cpu)
        t["runs"] += 1
        t["execs"] += int(execs)
        t["findings"] += 0 if result == "clean" else 1
        t["last"] = (date, commit, cov, ft)
    rows = ["| target | CPU hours | runs | executions recorded | latest coverage (edges / features) | accumulated corpus | runs with a finding |",
            "| --- | ---: | ---: | ---: | --- | ---: | ---: |"]
    for target, t in totals.items():
        folder = root / "Corpus" / target
        accumulated = [p for p in folder.iterdir() if re.fullmatch(r"[0-9a-f]{40}", p.name)] if folder.is_dir() else []
        size = sum(p.stat().st_size for p in accumulated)
        date, commit, cov, ft = t["last"]
        rows.append(f"| `{target}` | {t['cpu'] / 3600:.2f} | {t['runs']} | {t['execs']:,} | {cov} / {ft} ({date[:10]}, {commit}) "
                    f"| {len(accumulated)} inputs, {size / 1024:.0f} KiB | {t['findings']} |")
    return "\n".join(rows)


def main():
    text = table()
    print(text)
    if "--write" in sys.argv:
        readme = here / "README.md"
        content = readme.read_text()
        start, end = content.index(START) + len(START), content.index(END)
        readme.write_text(content[:start] + "\n" + text + "\n" + content[end:])


if __name__ == "__main__":
    main()
