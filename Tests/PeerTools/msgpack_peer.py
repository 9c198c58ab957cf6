#!/usr/bin/env python3
"""Python's msgpack package as a peer for MP userInfo (Specs/mp-userinfo.md).

  msgpack_peer.py repack FILE...       each FILE is MP (header 4D 50 03 05, no
                                       extensions): unpack the rest with msgpack,
                                       pack it again, print "same" or "differs".
  msgpack_peer.py generate DIR N SEED  write N random MP files (no extensions)
                                       packed by msgpack, DIR/N.mp.

msgpack picks the smallest form for each value, as Apple's writer does, so
both directions must give identical bytes. cmp's extension layout (type
before size) is not MessagePack's, so extensions are left out here.
"""
import os
import random
import sys

import msgpack

HEADER = b"MP\x03\x05"


def repack(paths):
    for path in paths:
        data = open(path, "rb").read()
        assert data[:4] == HEADER, path
        body = data[4:]
        value = msgpack.unpackb(body, raw=False, strict_map_key=False)
        again = msgpack.packb(value, use_bin_type=True)
        print("same" if again == body else "differs")


def value(rng, depth):
    kind = rng.randrange(12 if depth < 3 else 9)
    if kind == 0:
        return rng.choice([0, 1, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1, 2**64 - 1,
                           -1, -32, -33, -128, -129, -32768, -32769, -2**31, -2**31 - 1, -2**63])
    if kind == 1:
        return rng.randrange(-2**63, 2**64)
    if kind == 2:
        return rng.choice([0.0, -0.0, 0.1, 1e300, -2.5, float("inf"), 5e-324])
    if kind == 3:
        return rng.random() * 10 ** rng.randrange(-10, 10)
    if kind == 4:
        return rng.choice([True, False, None])
    if kind == 5:
        return "".join(rng.choice("ab\u00e9\u4e2d\U0001F600\n\"") for _ in range(rng.choice([0, 1, 31, 32, 40, 300])))
    if kind == 6:
        return bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 255, 256, 300])))
    if kind in (7, 8):
        return "x" * rng.randrange(0, 3)
    if kind in (9, 10):
        return [value(rng, depth + 1) for _ in range(rng.choice([0, 1, 15, 16, 17]))]
    return {f"k{i}": value(rng, depth + 1) for i in range(rng.choice([0, 1, 15, 16]))}


def generate(directory, count, seed):
    rng = random.Random(seed)
    for n in range(count):
        top = {f"key{i}": value(rng, 1) for i in range(rng.choice([0, 1, 5, 16]))}
        with open(os.path.join(directory, f"{n}.mp"), "wb") as out:
            out.write(HEADER + msgpack.packb(top, use_bin_type=True))


if __name__ == "__main__":
    if sys.argv[1] == "repack":
        repack(sys.argv[2:])
    else:
        generate(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
