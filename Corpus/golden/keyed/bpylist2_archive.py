#!/usr/bin/env python3
"""Golden keyed archives written by Python's bpylist2 (which writes class
chains of the class alone, and keys and values interleaved). Writes
OUTDIR/NAME.bplist and OUTDIR/NAME.json, the expected value in typed JSON,
computed here from the Python value (ActivityCodec's code writes neither)."""
import base64
import datetime
import json
import os
import sys

from bpylist2 import archiver
from bpylist2.archive_types import timestamp

SAMPLES = {
    "scalars": {"string": "bpylist2 ✓", "int": 42, "negative": -7, "real": 1.5, "yes": True,
                "data": b"\x00\x01\xff", "empty": ""},
    "collections": {"list": [1, "two", 3.0, [4]], "set": {"a", "b"}, "dict": {"k": {"nested": "v"}}},
    "date": {"when": timestamp(1763807200.5), "before-2001": timestamp(900000000.25)},
    "top-list": ["x", "y", "x"],
}


def typed(v):
    if isinstance(v, bool):
        return {"type": "bool", "value": v}
    if isinstance(v, timestamp):
        # bpylist2's timestamp counts from 1970 (it subtracts 978307200 for NS.time).
        when = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=float(v))
        return {"type": "date", "value": when.strftime("%Y-%m-%dT%H:%M:%S.%fZ")}
    if isinstance(v, int):
        return {"type": "integer", "value": str(v)}
    if isinstance(v, float):
        return {"type": "real", "value": repr(v)}
    if isinstance(v, str):
        return {"type": "string", "value": v}
    if isinstance(v, bytes):
        return {"type": "data", "value": base64.b64encode(v).decode("ascii")}
    if isinstance(v, list):
        return {"type": "array", "value": [typed(x) for x in v]}
    if isinstance(v, (set, frozenset)):
        return {"type": "set", "value": sorted((typed(x) for x in v), key=lambda n: json.dumps(n, sort_keys=True))}
    if isinstance(v, dict):
        return {"type": "dict", "value": {k: typed(x) for k, x in v.items()}}
    raise TypeError(type(v).__name__)


def main(out):
    os.makedirs(out, exist_ok=True)
    for name, value in SAMPLES.items():
        with open(os.path.join(out, name + ".bplist"), "wb") as f:
            f.write(archiver.archive(value))
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(typed(value), f, ensure_ascii=True, sort_keys=True, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
