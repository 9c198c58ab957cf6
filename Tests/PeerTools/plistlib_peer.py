#!/usr/bin/env python3
"""Peer reader for ActivityCodec's tests: reads a property list with Python's
plistlib and prints its value as typed JSON (see Specs/golden-files.md):

  {"type": "dict", "value": {...}}, {"type": "integer", "value": "-5"},
  {"type": "real", "value": "0.5"} (Python repr), {"type": "date",
  "value": "YYYY-MM-DDTHH:MM:SS.ffffffZ"}, {"type": "data", "value": base64},
  {"type": "uid", "value": "7"}, {"type": "null"}, string, bool, array.

With several files, prints one line per file; a file plistlib refuses gets
a line starting with "!". Exit 0 if every file was read, 1 otherwise. XML dicts whose only key is CF$UID
(an integer in [0, 2^32)) are UIDs, as CoreFoundation reads them.
"""
import base64
import datetime
import json
import plistlib
import sys

EPOCH = datetime.datetime(2001, 1, 1)


def typed(v, xml):
    if v is None:
        return {"type": "null"}
    if isinstance(v, bool):
        return {"type": "bool", "value": v}
    if isinstance(v, int):
        return {"type": "integer", "value": str(v)}
    if isinstance(v, float):
        return {"type": "real", "value": repr(v)}
    if isinstance(v, str):
        return {"type": "string", "value": v}
    if isinstance(v, (bytes, bytearray)):
        return {"type": "data", "value": base64.b64encode(bytes(v)).decode("ascii")}
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return {"type": "date", "value": v.strftime("%Y-%m-%dT%H:%M:%S.%fZ")}
    if isinstance(v, plistlib.UID):
        return {"type": "uid", "value": str(v.data)}
    if isinstance(v, list):
        return {"type": "array", "value": [typed(x, xml) for x in v]}
    if isinstance(v, dict):
        if xml and len(v) == 1 and isinstance(v.get("CF$UID"), int) and not isinstance(v["CF$UID"], bool) \
                and 0 <= v["CF$UID"] < 2**32:
            return {"type": "uid", "value": str(v["CF$UID"])}
        return {"type": "dict", "value": {k: typed(x, xml) for k, x in v.items()}}
    raise TypeError(type(v).__name__)


def main():
    status = 0
    for path in sys.argv[1:]:
        data = open(path, "rb").read()
        try:
            value = plistlib.loads(data)
        except Exception as e:  # plistlib raises many kinds on bad input
            print("!plistlib refused: %s: %s" % (type(e).__name__, str(e).replace("\n", " ")))
            status = 1
            continue
        print(json.dumps(typed(value, not data.startswith(b"bplist")), ensure_ascii=True, sort_keys=True))
    return status


if __name__ == "__main__":
    sys.exit(main())
