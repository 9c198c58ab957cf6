#!/usr/bin/env python3
"""The golden samples: property-list values defined here, in Python, and
written by Python's plistlib (binary and XML). Also writes each value's
expected typed JSON to expected/NAME.json (the form of
Tests/PeerTools/plistlib_peer.py). generate.sh then has plistutil and Linux
Foundation rewrite the plistlib files. ActivityCodec's code writes none of
these files; its tests only read them.

UIDs are written to XML as {"CF$UID": n} dictionaries (plistlib's XML writer
has no UID type); readers take such a dictionary as a UID in XML.
"""
import datetime
import os
import plistlib
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "PeerTools"))
import plistlib_peer  # noqa: E402

D = datetime.datetime
UID = plistlib.UID

SAMPLES = {
    "scalars": {
        "ascii": "Hello, world",
        "empty": "",
        "unicode": "café ☕ 日本語 😀",
        "combining": "e\u0301",
        "controls": "tab\there\nnew line",
        "markup": "<a href=\"x\">&amp;</a> 'q'",
        "zero": 0, "one": 1, "byte-max": 255, "u16-min": 256, "u16-max": 65535,
        "u32-min": 65536, "u32-max": 2**32 - 1, "u64-min": 2**32,
        "i64-max": 2**63 - 1, "u64-above-i64": 2**63, "u64-max": 2**64 - 1,
        "minus-one": -1, "i64-min": -2**63,
        "real-zero": 0.0, "tenth": 0.1, "big": 1e300,
        "tiny": 5e-324, "third": 1 / 3, "negative": -2.5, "infinity": float("inf"),
        "negative-infinity": float("-inf"), "integral-real": 3.0,
        "yes": True, "no": False,
        "date": D(2014, 6, 2, 17, 30, 0), "date-before-2001": D(1969, 7, 20, 20, 17, 40),
        "date-far": D(4000, 12, 31, 23, 59, 59),
        "data-empty": b"", "data-small": b"\x00\x01\x02\xff", "data-text": b"Handoff payload",
        "data-long": bytes(range(256)) * 3,
    },
    "array-of-dicts": [
        {"name": "Track %d" % i, "artist": "Artist %d" % (i % 3), "seconds": 180 + i,
         "rating": i % 5, "loved": i % 2 == 0, "tags": ["a", "b"] if i % 2 else []}
        for i in range(40)
    ],
    "long-strings": [
        "a" * 14, "b" * 15, "c" * 16, "d" * 300, "é" * 14, "é" * 15, "ü" * 300,
        "😀" * 20, "x" * 70000,
    ],
    "many-objects": ["string number %d" % i for i in range(300)],
    "big-offsets": {"blob": bytes(i % 251 for i in range(70000)), "after": "a value after a large blob"},
    "uids": [UID(0), UID(1), UID(255), UID(256), UID(65535), UID(65536), UID(2**32 - 1), UID(7), UID(7)],
    "deep-nesting": None,  # filled below
    "empty-containers": {"dict": {}, "array": [], "string": "", "data": b"", "nested": [[], {}, [[]]]},
    "unicode-keys": {"b": 1, "a": 2, "B": 3, "é": 4, "z": 5, "😀": 6, "ｚ": 7, "": 8, "a.b[0]": 10},
    "top-string": "just a string",
    "top-integer": -42,
    "top-real": 2.718281828459045,
    # Alone, because plistlib's binary writer stores 0.0 and -0.0 as one object
    # (it de-duplicates by Python equality); see Specs/known-deviations.md.
    "negative-zero": [-0.0, 1.5],
    "top-true": True,
    "top-date": D(2001, 1, 1, 0, 0, 0),
    "top-data": b"\xde\xad\xbe\xef",
    "top-empty-array": [],
    "top-empty-dict": {},
    "shared-values": {"first": "same", "second": "same", "numbers": [7, 7, 7, 7.0, True, 1], "dates": [D(2020, 2, 29, 12, 0, 0)] * 3},
    "counts-at-15": {"array-14": list(range(14)), "array-15": list(range(15)), "array-16": list(range(16)),
                     "dict-15": {"k%02d" % i: i for i in range(15)}, "data-15": b"x" * 15, "string-15": "y" * 15},
    "userinfo-like": {
        "com.example.shop.version": "2.1",
        "cart": [{"sku": "A-100", "qty": 2, "price": 19.99}, {"sku": "B-7", "qty": 1, "price": 5.0}],
        "scroll": 0.4375, "selected": "B-7", "updated": D(2026, 11, 22, 9, 15, 0),
        "thumbnail": bytes(range(64)),
    },
}

nested = "bottom"
for _ in range(100):
    nested = [nested]
SAMPLES["deep-nesting"] = nested

# Binary-only samples: values XML cannot carry exactly (fractional dates).
BINARY_ONLY = {
    "fractional-date": [D(2020, 1, 2, 3, 4, 5, 123456), D(1999, 12, 31, 23, 59, 59, 999999)],
}


def to_xml_form(v):
    if isinstance(v, UID):
        return {"CF$UID": v.data}
    if isinstance(v, list):
        return [to_xml_form(x) for x in v]
    if isinstance(v, dict):
        return {k: to_xml_form(x) for k, x in v.items()}
    return v


def main(out):
    for sub in ("expected", "plistlib"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    import json
    for name, value in list(SAMPLES.items()) + list(BINARY_ONLY.items()):
        with open(os.path.join(out, "expected", name + ".json"), "w") as f:
            json.dump(plistlib_peer.typed(value, False), f, ensure_ascii=True, sort_keys=True, indent=1)
            f.write("\n")
        with open(os.path.join(out, "plistlib", name + ".bplist"), "wb") as f:
            f.write(plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=True))
        if name in SAMPLES:
            with open(os.path.join(out, "plistlib", name + ".xml"), "wb") as f:
                f.write(plistlib.dumps(to_xml_form(value), fmt=plistlib.FMT_XML, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
