#!/usr/bin/env python3
"""Golden vectors for Apple's "MP" userInfo (Specs/mp-userinfo.md).

Every byte is assembled by hand here with struct.pack, following the spec and
../../../../shared/BRIEF.md section 7.1, never by ActivityCodec's own code.
Each valid vector's expected value is written as typed JSON
(Specs/typed-json.md).  Python's `msgpack` package cross-checks every valid
vector that has no extension inside (it reads the same value, and for
non-read-only vectors it writes back the very same bytes), and checks that the
MessagePack-level invalid vectors are refused by it too.

Run: python3 make_vectors.py      (in this folder; rewrites valid/ and invalid/)
Exit status 1 when a self-check or cross-check fails.
"""

import datetime
import json
import math
import os
import shutil
import struct
import sys

import msgpack

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = b"MP\x03\x05"          # 4D 50 03 05
FAILURES = []


def fail(message):
    FAILURES.append(message)
    print("FAIL:", message, file=sys.stderr)


# ---------------------------------------------------------------------------
# Hand-assembly helpers: each names the one MessagePack form it writes; the
# vectors below pick the form by hand (so the choice of "smallest form" is in
# the vector, not in a helper).

def u8(n): return struct.pack(">B", n)
def u16(n): return struct.pack(">H", n)
def u32(n): return struct.pack(">I", n)
def u64(n): return struct.pack(">Q", n)
def i8(n): return struct.pack(">b", n)
def i16(n): return struct.pack(">h", n)
def i32(n): return struct.pack(">i", n)
def i64(n): return struct.pack(">q", n)


def fixstr(s):
    b = s.encode("utf-8")
    assert len(b) < 32
    return bytes([0xA0 | len(b)]) + b


def str8(s):
    b = s.encode("utf-8")
    assert len(b) < 256
    return b"\xD9" + u8(len(b)) + b


def str16(s):
    b = s.encode("utf-8")
    assert len(b) < 65536
    return b"\xDA" + u16(len(b)) + b


def str32(s):
    b = s.encode("utf-8")
    return b"\xDB" + u32(len(b)) + b


def bin8(b): assert len(b) < 256; return b"\xC4" + u8(len(b)) + b
def bin16(b): assert len(b) < 65536; return b"\xC5" + u16(len(b)) + b
def bin32(b): return b"\xC6" + u32(len(b)) + b


def f64(x): return b"\xCB" + struct.pack(">d", x)
def date_ext(seconds): return b"\xD7\x03" + struct.pack("<d", seconds)   # LITTLE-endian (observed)
def uuid_ext(b16): assert len(b16) == 16; return b"\xD8\x01" + b16
SET = b"\xC7\x02\x00"           # then an array
URL_BASE = b"\xC7\x04\x00"      # then the base URL, then the relative string
URL_NOBASE = b"\xC7\x05\x00"    # then the string


def fixmap(n): assert n < 16; return bytes([0x80 | n])
def fixarray(n): assert n < 16; return bytes([0x90 | n])


k = fixstr   # keys are short strings


# ---------------------------------------------------------------------------
# The expected value model: tagged tuples.
#   ("string", s) ("integer", n) ("real", x) ("bool", b) ("null",)
#   ("date", seconds) ("data", bytes) ("array", [v]) ("dict", [(key, v)])
#   ("set", [v]) ("uuid", "UPPER-CASE") ("url", relative, base-or-None)

def S(s): return ("string", s)
def I(n): return ("integer", n)
def R(x): return ("real", x)
def B(b): return ("bool", b)
NULL = ("null",)
def DATE(s): return ("date", s)
def DATA(b): return ("data", b)
def A(*vs): return ("array", list(vs))
def D(*kvs): return ("dict", list(kvs))
def SETV(*vs): return ("set", list(vs))
def UUIDV(s): return ("uuid", s)
def URL(rel, base=None): return ("url", rel, base)


REFERENCE = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def iso_date(seconds):
    """typed-json.md: UTC, fraction only when non-zero, shortest, no trailing zeros.
    Only dyadic fractions with few digits are used by the vectors, so the
    fraction is exact."""
    whole = math.floor(seconds)
    fraction = seconds - whole
    assert (fraction * 1024).is_integer(), "vectors use exact dyadic fractions only"
    civil = REFERENCE + datetime.timedelta(seconds=whole)
    assert 1 <= civil.year <= 9999
    text = civil.strftime("%Y-%m-%dT%H:%M:%S")
    if fraction:
        digits = repr(fraction)
        assert digits.startswith("0.")
        text += "." + digits[2:]
    return text + "Z"


def real_text(x):
    if math.isnan(x): return "nan"
    if x == math.inf: return "inf"
    if x == -math.inf: return "-inf"
    return repr(x)      # shortest round-trip: 0.1, -0.0, 1e+300, 5e-324, 3.0


def typed(v):
    t = v[0]
    if t == "string": return {"type": "string", "value": v[1]}
    if t == "integer": return {"type": "integer", "value": str(v[1])}
    if t == "real": return {"type": "real", "value": real_text(v[1])}
    if t == "bool": return {"type": "bool", "value": v[1]}
    if t == "null": return {"type": "null"}
    if t == "date": return {"type": "date", "value": iso_date(v[1])}
    if t == "data":
        import base64
        return {"type": "data", "value": base64.b64encode(v[1]).decode("ascii")}
    if t == "array": return {"type": "array", "value": [typed(m) for m in v[1]]}
    if t == "dict":
        keys = [kk for kk, _ in v[1]]
        assert len(set(keys)) == len(keys)
        return {"type": "dict", "value": {kk: typed(m) for kk, m in v[1]}}
    if t == "set": return {"type": "set", "value": [typed(m) for m in v[1]]}
    if t == "uuid": return {"type": "uuid", "value": v[1]}
    if t == "url":
        return {"type": "url", "relative": v[1], "base": typed(v[2]) if v[2] is not None else None}
    raise ValueError(t)


def has_extension(v):
    t = v[0]
    if t in ("date", "set", "uuid", "url"): return True
    if t == "array": return any(has_extension(m) for m in v[1])
    if t == "dict": return any(has_extension(m) for _, m in v[1])
    return False


def same_as_msgpack(v, p):
    """Exact comparison of a model value with what msgpack.unpackb returned."""
    t = v[0]
    if t == "string": return type(p) is str and p == v[1]
    if t == "integer": return type(p) is int and p == v[1]
    if t == "real":
        return type(p) is float and struct.pack(">d", p) == struct.pack(">d", v[1])
    if t == "bool": return type(p) is bool and p == v[1]
    if t == "null": return p is None
    if t == "data": return type(p) is bytes and p == v[1]
    if t == "array":
        return type(p) is list and len(p) == len(v[1]) and all(same_as_msgpack(a, b) for a, b in zip(v[1], p))
    if t == "dict":
        if type(p) is not dict or len(p) != len(v[1]): return False
        return all(pk == vk and same_as_msgpack(vv, pv) for (vk, vv), (pk, pv) in zip(v[1], p.items()))
    return False


# ---------------------------------------------------------------------------
# Valid vectors: name -> (body bytes after the header, expected model).
# Names starting with "readonly-" are decode-only (not what our writer emits).

VALID = {}


def valid(name, body, model):
    assert name not in VALID, name
    assert model[0] == "dict"
    VALID[name] = (body, model)


def one(name, key, value_bytes, value_model):
    """A userInfo {key: value}: fixmap 81, fixstr key, the value."""
    valid(name, fixmap(1) + k(key) + value_bytes, D((key, value_model)))


# BRIEF section 7.1, byte for byte.
BRIEF = {
    "brief-date": bytes.fromhex("4D500305 81 A164 D703 000000000000F03F".replace(" ", "")),
    "brief-set": bytes.fromhex("4D500305 81 A173 C70200 91 01".replace(" ", "")),
    "brief-url": bytes.fromhex("4D500305 81 A175 C70500 AC 68747470733A2F2F612E622F".replace(" ", "")),
}
one("brief-date", "d", date_ext(1.0), DATE(1.0))
one("brief-set", "s", SET + fixarray(1) + b"\x01", SETV(I(1)))
one("brief-url", "u", URL_NOBASE + fixstr("https://a.b/"), URL("https://a.b/"))
for name, full in BRIEF.items():
    if HEADER + VALID[name][0] != full:
        fail(f"{name}: hand-built bytes differ from BRIEF section 7.1")

valid("empty-dict", fixmap(0), D())

# Integers, each in its smallest form.
INTS = [
    ("int-0", 0, b"\x00"),
    ("int-1", 1, b"\x01"),
    ("int-127", 127, b"\x7F"),
    ("int-128", 128, b"\xCC" + u8(128)),
    ("int-255", 255, b"\xCC" + u8(255)),
    ("int-256", 256, b"\xCD" + u16(256)),
    ("int-65535", 65535, b"\xCD" + u16(65535)),
    ("int-65536", 65536, b"\xCE" + u32(65536)),
    ("int-2p32-minus-1", 2**32 - 1, b"\xCE" + u32(2**32 - 1)),
    ("int-2p32", 2**32, b"\xCF" + u64(2**32)),
    ("int-2p63-minus-1", 2**63 - 1, b"\xCF" + u64(2**63 - 1)),
    ("int-2p63", 2**63, b"\xCF" + u64(2**63)),
    ("int-2p64-minus-1", 2**64 - 1, b"\xCF" + u64(2**64 - 1)),
    ("int-minus-1", -1, b"\xFF"),
    ("int-minus-32", -32, b"\xE0"),
    ("int-minus-33", -33, b"\xD0" + i8(-33)),
    ("int-minus-128", -128, b"\xD0" + i8(-128)),
    ("int-minus-129", -129, b"\xD1" + i16(-129)),
    ("int-minus-32768", -32768, b"\xD1" + i16(-32768)),
    ("int-minus-32769", -32769, b"\xD2" + i32(-32769)),
    ("int-minus-2p31", -2**31, b"\xD2" + i32(-2**31)),
    ("int-minus-2p31-minus-1", -2**31 - 1, b"\xD3" + i64(-2**31 - 1)),
    ("int-minus-2p63", -2**63, b"\xD3" + i64(-2**63)),
]
for name, n, enc in INTS:
    one(name, "i", enc, I(n))
# Spot checks of the hand encodings against literal bytes.
assert dict((n, e) for n, _, e in INTS)["int-minus-129"] == bytes.fromhex("D1FF7F")
assert dict((n, e) for n, _, e in INTS)["int-minus-2p31-minus-1"] == bytes.fromhex("D3FFFFFFFF7FFFFFFF")
assert dict((n, e) for n, _, e in INTS)["int-2p32"] == bytes.fromhex("CF0000000100000000")

valid("bools", fixmap(2) + k("t") + b"\xC3" + k("f") + b"\xC2", D(("t", B(True)), ("f", B(False))))
one("null", "n", b"\xC0", NULL)

REALS = [
    ("real-zero", 0.0), ("real-negative-zero", -0.0), ("real-0.1", 0.1), ("real-1e300", 1e300),
    ("real-integral", 3.0), ("real-negative", -2.5), ("real-min-subnormal", 5e-324),
    ("real-max", 1.7976931348623157e308), ("real-third", 1 / 3),
    ("real-inf", math.inf), ("real-minus-inf", -math.inf),
]
for name, x in REALS:
    one(name, "r", f64(x), R(x))
# NaN: the canonical quiet NaN 7FF8000000000000 (what typed JSON's "nan" reads as).
NAN = struct.unpack(">d", bytes.fromhex("7FF8000000000000"))[0]
one("real-nan", "r", b"\xCB" + bytes.fromhex("7FF8000000000000"), R(NAN))
assert f64(1.0) == bytes.fromhex("CB3FF0000000000000")

# Strings: UTF-8 byte lengths at each form's edge.
for n, enc in [(0, lambda s: b"\xA0"), (31, fixstr), (32, str8), (255, str8), (256, str16),
               (65535, str16), (65536, str32)]:
    s = "".join(chr(0x61 + i % 26) for i in range(n))
    one(f"str-len-{n}", "s", enc(s), S(s))
s31 = "é" * 15 + "a"      # 31 UTF-8 bytes, 16 characters: fixstr (bytes count, not characters)
s32 = "é" * 16            # 32 UTF-8 bytes: str8
assert len(s31.encode()) == 31 and len(s32.encode()) == 32
one("str-nonascii-31-bytes", "s", fixstr(s31), S(s31))
one("str-nonascii-32-bytes", "s", str8(s32), S(s32))
one("str-e-acute", "s", b"\xA2\xC3\xA9", S("é"))
one("str-emoji", "s", b"\xA4\xF0\x9F\x98\x80", S("\U0001F600"))
one("str-combining", "s", b"\xA3\x65\xCC\x81", S("e\u0301"))
one("str-nul", "s", b"\xA3a\x00b", S("a\x00b"))
valid("key-nonascii", fixmap(2) + fixstr("ключ") + fixstr("значение") + fixstr("日本") + b"\x01",
      D(("ключ", S("значение")), ("日本", I(1))))

# Data.
for n, enc in [(0, bin8), (1, bin8), (255, bin8), (256, bin16), (65535, bin16), (65536, bin32)]:
    b = bytes(i % 251 for i in range(n))
    one(f"data-len-{n}", "b", enc(b), DATA(b))
assert bin8(b"") == b"\xC4\x00" and bin32(b"x")[:5] == b"\xC6\x00\x00\x00\x01"

# Arrays and maps at the fix/16-bit edge.
one("array-empty", "a", fixarray(0), A())
one("array-15", "a", fixarray(15) + bytes(range(15)), A(*[I(i) for i in range(15)]))
one("array-16", "a", b"\xDC" + u16(16) + bytes(range(16)), A(*[I(i) for i in range(16)]))
keys15 = [f"k{i:02d}" for i in range(15)]
keys16 = [f"k{i:02d}" for i in range(16)]
valid("map-15", fixmap(15) + b"".join(k(kk) + bytes([i]) for i, kk in enumerate(keys15)),
      D(*[(kk, I(i)) for i, kk in enumerate(keys15)]))
valid("map-16", b"\xDE" + u16(16) + b"".join(k(kk) + bytes([i]) for i, kk in enumerate(keys16)),
      D(*[(kk, I(i)) for i, kk in enumerate(keys16)]))
one("map-16-nested", "m", b"\xDE" + u16(16) + b"".join(k(kk) + b"\xC0" for kk in keys16),
    D(*[(kk, NULL) for kk in keys16]))
# Keys in an order that is not sorted: the writer keeps the dictionary's order.
valid("map-key-order", fixmap(3) + k("zeta") + b"\x01" + k("alpha") + b"\x02" + k("Mid") + b"\x03",
      D(("zeta", I(1)), ("alpha", I(2)), ("Mid", I(3))))

# Nesting: {"a": [1, [2, {"b": []}], {"c": {"d": null}}], "e": {}}
valid("nested",
      fixmap(2) + k("a") + fixarray(3) + b"\x01"
      + fixarray(2) + b"\x02" + fixmap(1) + k("b") + fixarray(0)
      + fixmap(1) + k("c") + fixmap(1) + k("d") + b"\xC0"
      + k("e") + fixmap(0),
      D(("a", A(I(1), A(I(2), D(("b", A()))), D(("c", D(("d", NULL)))))), ("e", D())))
deep_bytes, deep_model = b"\x2A", I(42)
for depth in range(20):
    if depth % 2:
        deep_bytes, deep_model = fixmap(1) + k("x") + deep_bytes, D(("x", deep_model))
    else:
        deep_bytes, deep_model = fixarray(1) + deep_bytes, A(deep_model)
one("nested-depth-20", "deep", deep_bytes, deep_model)

# UUID.
one("uuid", "id", uuid_ext(bytes.fromhex("E621E1F8C36C495A93FC0C247A3E6E5F")),
    UUIDV("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
one("uuid-zero", "id", uuid_ext(bytes(16)), UUIDV("00000000-0000-0000-0000-000000000000"))

# Dates (little-endian doubles).
for name, secs in [("date-zero", 0.0), ("date-negative", -1.0), ("date-fraction", 1.5),
                   ("date-negative-fraction", -0.25), ("date-1970", -978307200.0),
                   ("date-2032", 1e9), ("date-large-fraction", 800000000.125),
                   ("date-1601", -12622780800.0)]:
    one(name, "d", date_ext(secs), DATE(secs))
assert iso_date(-1.0) == "2000-12-31T23:59:59Z"
assert iso_date(-0.25) == "2000-12-31T23:59:59.75Z"
assert iso_date(-978307200.0) == "1970-01-01T00:00:00Z"
assert iso_date(1e9) == "2032-09-09T01:46:40Z"
assert iso_date(-12622780800.0) == "1601-01-01T00:00:00Z"
assert date_ext(1.0) == bytes.fromhex("D703000000000000F03F")

# Sets: members in the canonical order of userinfo-value.md "Sets" (type name
# as UTF-8 bytes: array bool data date dict integer null real set string url
# uuid; then scalars by value).
one("set-empty", "s", SET + fixarray(0), SETV())
# Strings by UTF-8 bytes: "ｚ" (EF BD 9A) sorts before "😀" (F0 9F 98 80) in
# UTF-8 order, after it in UTF-16 order.
strs = ["Z", "a", "ab", "b", "é", "ｚ", "\U0001F600"]
assert strs == sorted(strs, key=lambda s: s.encode("utf-8"))
one("set-strings", "s", SET + fixarray(len(strs)) + b"".join(fixstr(s) for s in strs),
    SETV(*[S(s) for s in strs]))
# Integers numerically over Int64 u UInt64.
one("set-integers", "s",
    SET + fixarray(6) + b"\xD3" + i64(-2**63) + b"\xD1" + i16(-129) + b"\xFF" + b"\x00" + b"\xCD" + u16(300)
    + b"\xCF" + u64(2**64 - 1),
    SETV(I(-2**63), I(-129), I(-1), I(0), I(300), I(2**64 - 1)))
# Reals in IEEE total order.
one("set-reals", "s", SET + fixarray(3) + f64(-1.5) + f64(0.5) + f64(2.5),
    SETV(R(-1.5), R(0.5), R(2.5)))
# One member of each type, in type-name order.
mixed_bytes = (SET + fixarray(12)
               + fixarray(1) + b"\x01"                                    # array [1]
               + b"\xC3"                                                  # bool true
               + bin8(b"\x01\x02")                                        # data
               + date_ext(1.0)                                            # date
               + fixmap(1) + k("k") + fixstr("v")                         # dict
               + b"\x02"                                                  # integer 2
               + b"\xC0"                                                  # null
               + f64(0.5)                                                 # real
               + SET + fixarray(1) + fixstr("x")                          # set {"x"}
               + fixstr("a")                                              # string
               + URL_NOBASE + fixstr("https://a.b/")                      # url
               + uuid_ext(bytes.fromhex("E621E1F8C36C495A93FC0C247A3E6E5F")))  # uuid
mixed_model = SETV(A(I(1)), B(True), DATA(b"\x01\x02"), DATE(1.0), D(("k", S("v"))), I(2), NULL,
                   R(0.5), SETV(S("x")), S("a"), URL("https://a.b/"),
                   UUIDV("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
one("set-mixed", "s", mixed_bytes, mixed_model)
one("set-in-array", "a", fixarray(2) + SET + fixarray(1) + fixstr("x") + SET + fixarray(0),
    A(SETV(S("x")), SETV()))
# Not in canonical order: readable, but our writer would reorder it.
one("readonly-set-noncanonical", "s", SET + fixarray(3) + fixstr("b") + fixstr("a") + b"\x01",
    SETV(S("b"), S("a"), I(1)))

# URLs.
one("url-no-base", "u", URL_NOBASE + str8("https://example.com/path/to/page?q=1&r=%20#frag"),
    URL("https://example.com/path/to/page?q=1&r=%20#frag"))
one("url-with-base", "u", URL_BASE + URL_NOBASE + fixstr("https://example.com/dir/") + fixstr("page.html"),
    URL("page.html", URL("https://example.com/dir/")))
one("url-base-chain-2", "u",
    URL_BASE + URL_BASE + URL_NOBASE + fixstr("https://example.com/") + fixstr("a/") + fixstr("b?c=1#f"),
    URL("b?c=1#f", URL("a/", URL("https://example.com/"))))
one("url-empty-relative-with-base", "u", URL_BASE + URL_NOBASE + fixstr("https://a.b/c") + b"\xA0",
    URL("", URL("https://a.b/c")))
one("url-relative-no-base", "u", URL_NOBASE + fixstr("docs/index.html"), URL("docs/index.html"))
one("url-file", "u", URL_NOBASE + fixstr("file:///tmp/x.txt"), URL("file:///tmp/x.txt"))

# Everything at once, a realistic userInfo.
valid("kitchen-sink",
      fixmap(9)
      + k("title") + fixstr("Café ☕") + k("count") + b"\xCD" + u16(1000) + k("ratio") + f64(0.4375)
      + k("ok") + b"\xC3" + k("none") + b"\xC0" + k("when") + date_ext(785000000.5)
      + k("tags") + SET + fixarray(2) + fixstr("new") + fixstr("sale")
      + k("link") + URL_BASE + URL_NOBASE + fixstr("https://shop.example/") + fixstr("item/7")
      + k("items") + fixarray(2)
      + fixmap(2) + k("sku") + fixstr("A-100") + k("qty") + b"\x02"
      + fixmap(2) + k("sku") + fixstr("B-7") + k("blob") + bin8(b"\x00\xFF"),
      D(("title", S("Café ☕")), ("count", I(1000)), ("ratio", R(0.4375)), ("ok", B(True)),
        ("none", NULL), ("when", DATE(785000000.5)), ("tags", SETV(S("new"), S("sale"))),
        ("link", URL("item/7", URL("https://shop.example/"))),
        ("items", A(D(("sku", S("A-100")), ("qty", I(2))), D(("sku", S("B-7")), ("blob", DATA(b"\x00\xFF")))))))

# Read-only: forms the reader accepts but a smallest-form writer never emits.
valid("readonly-float32",
      fixmap(2) + k("f") + b"\xCA" + struct.pack(">f", 0.1) + k("g") + b"\xCA" + struct.pack(">f", 1.5),
      D(("f", R(struct.unpack(">f", struct.pack(">f", 0.1))[0])), ("g", R(1.5))))
assert real_text(VALID["readonly-float32"][1][1][0][1][1]) == "0.10000000149011612"
valid("readonly-wide-integers",
      fixmap(8)
      + k("a") + b"\xCC" + u8(5)            # uint8 for a fixint
      + k("b") + b"\xCF" + u64(7)           # uint64 for a fixint
      + k("c") + b"\xD0" + i8(5)            # int8 holding a positive value
      + k("d") + b"\xD3" + i64(42)          # int64 holding a positive value
      + k("e") + b"\xD1" + i16(-1)          # int16 for a negative fixint
      + k("f") + b"\xD3" + i64(-100)        # int64 for an int8
      + k("g") + b"\xCD" + u16(0)           # uint16 zero
      + k("h") + b"\xD2" + i32(2**31 - 1),  # int32 holding a uint32-sized positive
      D(("a", I(5)), ("b", I(7)), ("c", I(5)), ("d", I(42)), ("e", I(-1)), ("f", I(-100)),
        ("g", I(0)), ("h", I(2**31 - 1))))
valid("readonly-wide-strings",
      fixmap(3) + k("a") + b"\xD9" + u8(1) + b"x" + k("b") + b"\xDA" + u16(2) + b"yz"
      + k("c") + b"\xDB" + u32(0),
      D(("a", S("x")), ("b", S("yz")), ("c", S(""))))
valid("readonly-wide-key", fixmap(1) + b"\xD9" + u8(3) + b"key" + b"\x01", D(("key", I(1))))
valid("readonly-wide-data",
      fixmap(2) + k("a") + b"\xC5" + u16(2) + b"\x01\x02" + k("b") + b"\xC6" + u32(1) + b"\xFF",
      D(("a", DATA(b"\x01\x02")), ("b", DATA(b"\xFF"))))
valid("readonly-wide-arrays",
      fixmap(2) + k("a") + b"\xDC" + u16(1) + b"\x01" + k("b") + b"\xDD" + u32(2) + b"\x01\x02",
      D(("a", A(I(1))), ("b", A(I(1), I(2)))))
valid("readonly-map16-top", b"\xDE" + u16(1) + k("a") + b"\x01", D(("a", I(1))))
valid("readonly-map32-top", b"\xDF" + u32(2) + k("a") + b"\x01" + k("b") + b"\xDF" + u32(0),
      D(("a", I(1)), ("b", D())))
valid("readonly-set-array16", fixmap(1) + k("s") + SET + b"\xDC" + u16(1) + b"\x01", D(("s", SETV(I(1)))))


# ---------------------------------------------------------------------------
# Invalid vectors: name -> (full bytes including header, {"error": .., "offset": ..}).
# Offsets: the marker of the value at fault; header problems 0 (version: 2);
# trailing bytes: the first trailing byte; a non-map top value: 4.
# "offset" is left out where the spec does not pin it down.

INVALID = {}
MSGPACK_MUST_REFUSE = set()   # MessagePack-level faults: the msgpack package must refuse the body too


def invalid(name, full, error, offset=None, msgpack_refuses=False):
    assert name not in INVALID, name
    expected = {"error": error}
    if offset is not None:
        expected["offset"] = offset
    INVALID[name] = (full, expected)
    if msgpack_refuses:
        MSGPACK_MUST_REFUSE.add(name)


def in_map(value_bytes):
    """{"a": <value>}: the value's marker is at offset 7."""
    return HEADER + fixmap(1) + k("a") + value_bytes


V = 7   # offset of the value in in_map

invalid("bad-magic", b"MQ\x03\x05\x80", "badMagic", 0)
invalid("bad-magic-bplist", b"bplist00\xD0\x08\x00\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x01"
        b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x09", "badMagic", 0)
invalid("bad-magic-lowercase", b"mp\x03\x05\x80", "badMagic", 0)
invalid("unsupported-version-0304", b"MP\x03\x04\x80", "unsupportedMPVersion", 2)
invalid("unsupported-version-0205", b"MP\x02\x05\x80", "unsupportedMPVersion", 2)
invalid("truncated-header", b"MP\x03", "truncated", 0)
invalid("truncated-no-value", HEADER, "truncated", 4)
invalid("truncated-string", in_map(b"\xA5ab"), "truncated", V, True)
invalid("truncated-str8-length", in_map(b"\xD9"), "truncated", V, True)
invalid("truncated-uint32", in_map(b"\xCE\x00\x00"), "truncated", V, True)
invalid("truncated-float64", in_map(b"\xCB\x3F\xF0"), "truncated", V, True)
invalid("truncated-bin", in_map(b"\xC4\x05\x00\x01"), "truncated", V, True)
invalid("truncated-date", in_map(b"\xD7\x03\x00\x00\x00"), "truncated", V, True)
invalid("truncated-uuid", in_map(b"\xD8\x01" + bytes(10)), "truncated", V, True)
invalid("truncated-key", HEADER + fixmap(1) + b"\xA5ab", "truncated", 5, True)
invalid("trailing-bytes", HEADER + fixmap(0) + b"\x00", "trailingBytes", 5, True)
invalid("trailing-bytes-after-map", in_map(b"\x01") + b"\xC0\xC0", "trailingBytes", 8, True)
invalid("trailing-second-map", HEADER + fixmap(0) + fixmap(0), "trailingBytes", 5, True)
invalid("not-dictionary-array", HEADER + fixarray(1) + b"\x01", "notDictionary", 4)
invalid("not-dictionary-string", HEADER + fixstr("a"), "notDictionary", 4)
invalid("not-dictionary-null", HEADER + b"\xC0", "notDictionary", 4)
invalid("not-dictionary-set", HEADER + SET + fixarray(0), "notDictionary", 4)
invalid("unknown-marker-c1", in_map(b"\xC1"), "unknownMarker", V, True)
invalid("unknown-marker-fixext1", in_map(b"\xD4\x01\x00"), "unknownMarker", V)
invalid("unknown-marker-fixext2", in_map(b"\xD5\x03\x00\x00"), "unknownMarker", V)
invalid("unknown-marker-fixext4", in_map(b"\xD6\x03\x00\x00\x00\x00"), "unknownMarker", V)
invalid("unknown-marker-ext16", in_map(b"\xC8\x02\x00\x00" + fixarray(1) + b"\x01"), "unknownMarker", V)
invalid("unknown-marker-ext32", in_map(b"\xC9\x05\x00\x00\x00\x00" + fixstr("https://a.b/")), "unknownMarker", V)
invalid("unknown-extension-fixext16-type9", in_map(b"\xD8\x09" + bytes(16)), "unknownExtension", V)
invalid("unknown-extension-fixext8-type0", in_map(b"\xD7\x00" + bytes(8)), "unknownExtension", V)
invalid("unknown-extension-ext8-type6", in_map(b"\xC7\x06\x00"), "unknownExtension", V)
invalid("bad-extension-uuid-fixext8", in_map(b"\xD7\x01" + bytes(8)), "badExtension", V)
invalid("bad-extension-uuid-ext8", in_map(b"\xC7\x01\x10" + bytes(16)), "badExtension", V)
invalid("bad-extension-date-fixext16", in_map(b"\xD8\x03" + bytes(16)), "badExtension", V)
invalid("bad-extension-set-fixext16", in_map(b"\xD8\x02" + bytes(16)), "badExtension", V)
invalid("bad-extension-set-size", in_map(b"\xC7\x02\x05" + fixarray(1) + b"\x01"), "badExtension", V)
invalid("bad-extension-url-size", in_map(b"\xC7\x05\x01" + fixstr("https://a.b/")), "badExtension", V)
invalid("bad-extension-url-base-size",
        in_map(b"\xC7\x04\x02" + URL_NOBASE + fixstr("https://a.b/") + fixstr("c")), "badExtension", V)
invalid("bad-extension-set-not-array", in_map(SET + fixstr("a")), "badExtension")
invalid("bad-extension-set-map", in_map(SET + fixmap(0)), "badExtension")
invalid("bad-extension-url-base-string", in_map(URL_BASE + fixstr("https://a.b/") + fixstr("c")), "badExtension")
invalid("bad-extension-url-base-uuid", in_map(URL_BASE + uuid_ext(bytes(16)) + fixstr("c")), "badExtension")
invalid("bad-extension-url-not-string", in_map(URL_NOBASE + b"\x01"), "badExtension")
invalid("invalid-utf8-ff-fe", in_map(b"\xA2\xFF\xFE"), "invalidUTF8", V, True)
invalid("invalid-utf8-overlong", in_map(b"\xA2\xC0\x80"), "invalidUTF8", V, True)
invalid("invalid-utf8-surrogate", in_map(b"\xA3\xED\xA0\x80"), "invalidUTF8", V, True)
invalid("invalid-utf8-cut-sequence", in_map(b"\xA2a\xC3"), "invalidUTF8", V, True)
invalid("invalid-utf8-key", HEADER + fixmap(1) + b"\xA2\xFF\xFE" + b"\x01", "invalidUTF8", 5, True)
invalid("non-string-key-integer", HEADER + fixmap(1) + b"\x01" + fixstr("a"), "nonStringKey", 5, True)
invalid("non-string-key-binary", HEADER + fixmap(1) + bin8(b"a") + b"\x01", "nonStringKey", 5)
invalid("non-string-key-null", HEADER + fixmap(1) + b"\xC0" + b"\x01", "nonStringKey", 5, True)
invalid("duplicate-key", HEADER + fixmap(2) + k("a") + b"\x01" + k("a") + b"\x02", "duplicateKey")
invalid("duplicate-key-canonical", HEADER + fixmap(2) + b"\xA2\xC3\xA9" + b"\x01" + b"\xA3\x65\xCC\x81" + b"\x02",
        "duplicateKey")
invalid("duplicate-key-nested", in_map(fixmap(2) + k("x") + b"\xC0" + k("x") + b"\xC0"), "duplicateKey")
invalid("duplicate-set-member", in_map(SET + fixarray(2) + b"\x01\x01"), "duplicateSetMember")
invalid("duplicate-set-member-strings", in_map(SET + fixarray(2) + fixstr("a") + fixstr("a")), "duplicateSetMember")
invalid("ambiguous-set-members-int-bool", in_map(SET + fixarray(2) + b"\x01\xC3"), "ambiguousSetMembers")
invalid("ambiguous-set-members-int-real", in_map(SET + fixarray(2) + b"\x01" + f64(1.0)), "ambiguousSetMembers")
invalid("ambiguous-set-members-zeros", in_map(SET + fixarray(2) + f64(0.0) + f64(-0.0)), "ambiguousSetMembers")
invalid("ambiguous-set-members-dates", in_map(SET + fixarray(2) + date_ext(0.0) + date_ext(-0.0)),
        "ambiguousSetMembers")
invalid("invalid-url-space", in_map(URL_NOBASE + fixstr("ht tp://x")), "invalidURL")
invalid("invalid-url-space-in-path", in_map(URL_NOBASE + fixstr("https://a.b/c d")), "invalidURL")
invalid("invalid-url-empty-no-base", in_map(URL_NOBASE + b"\xA0"), "invalidURL")
invalid("invalid-url-in-base", in_map(URL_BASE + URL_NOBASE + fixstr("a b") + fixstr("c")), "invalidURL")
invalid("invalid-date-nan", in_map(b"\xD7\x03" + bytes.fromhex("000000000000F87F")), "invalidDate", V)
invalid("invalid-date-inf", in_map(b"\xD7\x03" + struct.pack("<d", math.inf)), "invalidDate", V)
invalid("invalid-date-minus-inf", in_map(b"\xD7\x03" + struct.pack("<d", -math.inf)), "invalidDate", V)
invalid("invalid-date-out-of-range", in_map(date_ext(1e16)), "invalidDate", V)
# A big-endian 1.0 (the msgpack-ish guess) read little-endian is 3.03865e-319 s: a valid date.
# So byte order is only tested by the valid vectors; nothing invalid to add here.
assert struct.pack("<d", math.inf) == bytes.fromhex("000000000000F07F")


# ---------------------------------------------------------------------------
# Cross-checks with the msgpack package, then write the files.

def msgpack_checks():
    checked = 0
    for name, (body, model) in VALID.items():
        if has_extension(model):
            continue
        try:
            decoded = msgpack.unpackb(body, raw=False, strict_map_key=False)
        except Exception as e:  # noqa: BLE001
            fail(f"valid/{name}: msgpack refuses it: {e!r}")
            continue
        if not same_as_msgpack(model, decoded):
            fail(f"valid/{name}: msgpack reads another value")
            continue
        if not name.startswith("readonly-"):
            again = msgpack.packb(decoded, use_bin_type=True)
            if again != body:
                fail(f"valid/{name}: msgpack writes other bytes: {again[:40].hex()} vs {body[:40].hex()}")
                continue
        checked += 1
    refused = 0
    for name in sorted(MSGPACK_MUST_REFUSE):
        full, _ = INVALID[name]
        try:
            msgpack.unpackb(full[4:], raw=False, strict_map_key=True)
        except Exception:  # noqa: BLE001
            refused += 1
            continue
        fail(f"invalid/{name}: msgpack accepts it")
    return checked, refused


def write_all():
    for sub in ("valid", "invalid"):
        path = os.path.join(HERE, sub)
        if os.path.isdir(path):
            shutil.rmtree(path)
        os.makedirs(path)
    for name, (body, model) in VALID.items():
        with open(os.path.join(HERE, "valid", name + ".mp"), "wb") as f:
            f.write(HEADER + body)
        with open(os.path.join(HERE, "valid", name + ".json"), "w", encoding="utf-8") as f:
            json.dump(typed(model), f, ensure_ascii=True, indent=1)
            f.write("\n")
    for name, (full, expected) in INVALID.items():
        with open(os.path.join(HERE, "invalid", name + ".mp"), "wb") as f:
            f.write(full)
        with open(os.path.join(HERE, "invalid", name + ".json"), "w", encoding="utf-8") as f:
            json.dump(expected, f)
            f.write("\n")


def self_checks():
    for name, (body, model) in VALID.items():
        # JSON text of the expected value must itself be valid JSON of the same value.
        text = json.dumps(typed(model))
        if json.loads(text) != typed(model):
            fail(f"valid/{name}: typed JSON does not round-trip")
        if len(HEADER + body) > 100_000:
            fail(f"valid/{name}: over 100 KB")
    for name, (full, expected) in INVALID.items():
        if "offset" in expected and not (0 <= expected["offset"] <= len(full)):
            fail(f"invalid/{name}: offset outside the input")


def main():
    self_checks()
    checked, refused = msgpack_checks()
    write_all()
    readonly = sum(1 for n in VALID if n.startswith("readonly-"))
    print(f"MP vectors: {len(VALID)} valid ({readonly} read-only), {len(INVALID)} invalid")
    print(f"msgpack cross-check: {checked} extension-free valid vectors read alike"
          f" (and re-packed byte for byte unless read-only); {refused}/{len(MSGPACK_MUST_REFUSE)}"
          f" MessagePack-level invalid vectors refused by msgpack")
    if FAILURES:
        print(f"{len(FAILURES)} check(s) FAILED", file=sys.stderr)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
