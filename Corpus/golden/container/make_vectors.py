#!/usr/bin/env python3
"""Golden vectors for Apple's activity container (Specs/activity-container.md).

Uncompressed containers are assembled by hand with struct.pack from the spec
and ../../../../shared/BRIEF.md section 7.2, never by ActivityCodec's own code.
Compressed containers are made by peers: Python's bz2 module
(`bz2.compress(fields, 1)`) and the `bzip2` command-line tool (`bzip2 -1`, and
`bzip2 -9` for the bomb and a read-only vector).  Every compressed vector is
checked here: it inflates (Python's bz2) to exactly the hand-built fields, the
peers agree with each other, and they agree with libbz2 called with Apple's
parameters (block size 1, work factor 200) when libbz2 can be loaded.

The userInfo field holds bytes of the MP vectors in ../mp/valid (run
../mp/make_vectors.py first).

Run: python3 make_vectors.py      (in this folder; rewrites valid/ and invalid/)
Exit status 1 when a self-check fails.
"""

import bz2
import ctypes
import ctypes.util
import hashlib
import json
import os
import plistlib
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MP_VALID = os.path.join(HERE, "..", "mp", "valid")
FAILURES = []
NOTES = []


def fail(message):
    FAILURES.append(message)
    print("FAIL:", message, file=sys.stderr)


# ---------------------------------------------------------------------------
# Hand assembly.

H_ACTIVITY = 0x1
H_COMPRESSED = 0x101
H_ERROR = 0xF
ABSENT = b"\x00\x00\x00\x00"


def header(h): return struct.pack("<I", h)


def word(length):
    return struct.pack("<I", (length & 0xFFFFFF) | 0x01000000)


def field(b):
    """A present field (non-empty bytes) or, for None, the absent word."""
    if b is None:
        return ABSENT
    assert len(b) > 0, "length 0 is written as the absent word"
    return word(len(b)) + b


def jstr(s):
    # Values in valid vectors avoid anything JSON writers escape differently
    # (no '/', no quotes, no backslash, no control or non-ASCII characters).
    assert all(c.isascii() and (c.isalnum() or c in ".-_ ") for c in s), s
    return '"' + s + '"'


def activity_json(team_id, activity_type, persistent_id=None, target_content_id=None):
    """Compact, keys in the writer's order: teamID, type, persistentID, targetContentID."""
    parts = ['"teamID":' + jstr(team_id), '"type":' + jstr(activity_type)]
    if persistent_id is not None:
        parts.append('"persistentID":' + jstr(persistent_id))
    if target_content_id is not None:
        parts.append('"targetContentID":' + jstr(target_content_id))
    return ("{" + ",".join(parts) + "}").encode("ascii")


def mp(name):
    path = os.path.join(MP_VALID, name + ".mp")
    if not os.path.exists(path):
        sys.exit(f"{path} is missing: run ../mp/make_vectors.py first")
    with open(path, "rb") as f:
        return f.read()


def pseudo_random(n, seed):
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(seed + counter.to_bytes(8, "little")).digest()
        counter += 1
    return out[:n]


# ---------------------------------------------------------------------------
# Peers for bzip2.

def bz2_python(data):
    return bz2.compress(data, 1)


def bzip2_tool(data, level=1):
    return subprocess.run(["bzip2", f"-{level}", "-c"], input=data, stdout=subprocess.PIPE, check=True).stdout


def libbz2_apple(data):
    """BZ2_bzBuffToBuffCompress with block size 1, work factor 200 (Apple's sender)."""
    name = ctypes.util.find_library("bz2")
    if not name:
        return None
    lib = ctypes.CDLL(name)
    capacity = len(data) + len(data) // 100 + 600
    dest = ctypes.create_string_buffer(capacity)
    dest_len = ctypes.c_uint(capacity)
    rc = lib.BZ2_bzBuffToBuffCompress(dest, ctypes.byref(dest_len), ctypes.c_char_p(data),
                                      ctypes.c_uint(len(data)), 1, 0, 200)
    if rc != 0:
        raise RuntimeError(f"BZ2_bzBuffToBuffCompress returned {rc}")
    return dest.raw[:dest_len.value]


# ---------------------------------------------------------------------------
# Valid vectors.

VALID = {}      # name -> (bytes, expected JSON)


def hexo(b): return None if b is None else b.hex()


def activity(name, title=None, user_info=None, json_bytes=None, webpage=None, streams=None,
             team_id=None, activity_type=None, persistent_id=None, target_content_id=None,
             compress=None):
    """compress: None (plain), "python", "tool", "tool9" (bzip2 -9)."""
    title_b = title.encode("utf-8") if title is not None else None
    web_b = webpage.encode("utf-8") if webpage is not None else None
    fields = (field(title_b) + field(user_info) + field(json_bytes) + field(web_b) + field(streams))
    if compress is None:
        data = header(H_ACTIVITY) + fields
    else:
        stream = {"python": bz2_python, "tool": bzip2_tool,
                  "tool9": lambda d: bzip2_tool(d, 9)}[compress](fields)
        data = header(H_COMPRESSED) + stream
        if bz2.decompress(stream) != fields:
            fail(f"valid/{name}: the bzip2 stream does not inflate to the fields")
    expected = {
        "header": H_ACTIVITY if compress is None else H_COMPRESSED,
        "compressed": compress is not None,
        "title": title,
        "userInfoHex": hexo(user_info),
        "teamID": team_id,
        "type": activity_type,
        "persistentID": persistent_id,
        "targetContentID": target_content_id,
        "webpageURL": webpage,
        "streamsHex": hexo(streams),
    }
    if not name.startswith("readonly-") and \
            json_bytes != activity_json(team_id, activity_type, persistent_id, target_content_id):
        fail(f"valid/{name}: JSON field is not the writer's compact form")
    assert name not in VALID
    VALID[name] = (data, expected, header(H_ACTIVITY) + fields)
    return data


def std(name, title, ui, team, typ, pid, tcid, web, streams, compress=None):
    return activity(name, title, ui, activity_json(team, typ, pid, tcid), web, streams,
                    team, typ, pid, tcid, compress)


UI_KITCHEN = mp("kitchen-sink")
UI_DATE = mp("brief-date")
UI_URL = mp("brief-url")
UI_EMPTY = mp("empty-dict")
STREAMS = bytes(range(1, 17))

std("all-fields", "Shopping", UI_KITCHEN, "ABCDE12345", "com.example.shop.browse", "p-1", "item-7",
    "https://shop.example/item/7?ref=handoff", STREAMS)
std("minimal", None, None, "", "com.example.minimal", None, None, None, None)
std("team-id-empty", "Notes", UI_EMPTY, "", "com.example.notes.edit", None, None, None, None)
std("no-title", None, UI_DATE, "ABCDE12345", "com.example.a", None, None, "https://a.b/", None)
std("no-userinfo", "Title only", None, "ABCDE12345", "com.example.a", None, None, None, None)
std("no-webpage", "T", UI_URL, "ABCDE12345", "com.example.a", "p", None, None, STREAMS)
std("no-streams", "T", UI_URL, "ABCDE12345", "com.example.a", None, "t", "http://example.com/", None)
std("only-streams", None, None, "", "com.example.stream", None, None, None, b"\x00")
std("persistent-id-only", None, None, "ABCDE12345", "com.example.doc", "doc-42", None, None, None)
std("target-content-id-only", None, None, "ABCDE12345", "com.example.doc", None, "section 3", None, None)
std("http-webpage", None, None, "", "com.example.web", None, None, "http://example.com", None)
std("title-unicode", "Café ☕ 日本 \U0001F600 e\u0301", None, "", "com.example.unicode", None, None, None, None)
std("webpage-percent-encoded", None, None, "", "com.example.web", None, None, "https://example.com/%C3%A9?q=%20", None)
std("title-255-bytes", "t" * 255, None, "", "com.example.t", None, None, None, None)
std("title-256-bytes", "t" * 256, None, "", "com.example.t", None, None, None, None)
std("userinfo-large-string", None, mp("str-len-256"), "", "com.example.big", None, None, None, None)

# Error packet: one field, a secure keyed archive of an NSError (built with
# plistlib: NSCode -110 in UAContinuityErrorDomain).
ERROR_ARCHIVE = plistlib.dumps({
    "$version": 100000,
    "$archiver": "NSKeyedArchiver",
    "$top": {"root": plistlib.UID(1)},
    "$objects": [
        "$null",
        {"$class": plistlib.UID(3), "NSCode": -110, "NSDomain": plistlib.UID(2)},
        "UAContinuityErrorDomain",
        {"$classname": "NSError", "$classes": ["NSError", "NSObject"]},
    ],
}, fmt=plistlib.FMT_BINARY, sort_keys=False)
VALID["error-packet"] = (header(H_ERROR) + field(ERROR_ARCHIVE), {"header": H_ERROR, "errorHex": ERROR_ARCHIVE.hex()},
                         None)

# Large packets. "Whole packet" = the 4-byte header and the fields.
LOREM = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
         "incididunt ut labore et dolore magna aliqua. ") * 24          # 2,904 bytes
LARGE = dict(title=LOREM, ui=UI_KITCHEN, team="ABCDE12345", typ="com.example.reader.article",
             pid="article-1", tcid=None, web="https://example.com/articles/1", streams=STREAMS)


def std_large(name, compress, **kw):
    a = dict(LARGE, **kw)
    return std(name, a["title"], a["ui"], a["team"], a["typ"], a["pid"], a["tcid"], a["web"],
               a["streams"], compress)


std_large("readonly-large-uncompressed", None)
std_large("compressed-python-bz2", "python")
std_large("compressed-bzip2-tool", "tool", title=LOREM.upper(), pid=None, tcid="chapter-2")
std_large("readonly-compressed-bzip2-9", "tool9", title=LOREM.lower())
# JSON forms another writer could produce (strict JSON all the same): other key
# order, whitespace, escapes (NSJSONSerialization writes "/" as "\\/").
activity("readonly-json-key-order", None, None,
         b'{"type":"com.example.a","persistentID":"p","teamID":"ABCDE12345"}', None, None,
         "ABCDE12345", "com.example.a", "p", None)
activity("readonly-json-whitespace", None, None,
         b'{ "teamID" : "", "type" : "com.example.a" }\n', None, None, "", "com.example.a", None, None)
activity("readonly-json-escapes", None, None,
         b'{"teamID":"","type":"com\\u002eexample.a","targetContentID":"doc\\/1 \\u00e9 \\ud83d\\ude00"}',
         None, None, "", "com.example.a", None, "doc/1 \u00e9 \U0001F600")
# Small packet compressed anyway: readable, but our writer never compresses under 2049 bytes.
std("readonly-compressed-small", "Small", UI_DATE, "", "com.example.small", None, None, None, None, "tool")
# Large but incompressible (pseudo-random streams): bzip2 makes it bigger, so it stays plain.
std("large-incompressible", "Random", UI_EMPTY, "", "com.example.random", None, None, None,
    pseudo_random(4000, b"incompressible"))


def sized(total, name, compress):
    """A compressible packet whose UNCOMPRESSED size (header + fields) is exactly `total`."""
    base = dict(title="Boundary", ui=UI_DATE, team="", typ="com.example.boundary", pid=None, tcid=None,
                web=None)
    fixed = 4 + (4 + len(base["title"])) + (4 + len(base["ui"])) + \
        (4 + len(activity_json(base["team"], base["typ"]))) + 4 + 4
    streams = (b"stream-endpoint-" * 200)[: total - fixed]
    std(name, base["title"], base["ui"], base["team"], base["typ"], None, None, None, streams, compress)
    assert len(VALID[name][2]) == total, (name, len(VALID[name][2]))


sized(2048, "boundary-2048-uncompressed", None)
sized(2049, "boundary-2049-compressed", "python")


# ---------------------------------------------------------------------------
# Invalid vectors.

INVALID = {}    # name -> (bytes, expected)


def invalid(name, data, error, **extra):
    assert name not in INVALID, name
    INVALID[name] = (data, dict({"error": error}, **extra))


J = activity_json("", "com.example.a")
OK5 = field(b"T") + field(UI_EMPTY) + field(J) + field(b"https://a.b/") + field(b"\x01")
F3 = field(b"T") + field(UI_EMPTY) + field(J)


def with_json(j):
    return header(H_ACTIVITY) + field(b"T") + ABSENT + field(j) + ABSENT + ABSENT


def with_title(t):
    return header(H_ACTIVITY) + field(t) + ABSENT + field(J) + ABSENT + ABSENT


def with_web(w):
    return header(H_ACTIVITY) + ABSENT + ABSENT + field(J) + field(w) + ABSENT


invalid("truncated-empty", b"", "truncated")
invalid("truncated-2-bytes", b"\x01\x00", "truncated")
invalid("truncated-3-bytes", b"\x01\x00\x00", "truncated")
invalid("truncated-field-word", header(H_ACTIVITY) + word(1)[:2], "truncated")
invalid("truncated-field-word-later", header(H_ACTIVITY) + F3 + b"\x00\x00", "truncated")
invalid("truncated-field-bytes", header(H_ACTIVITY) + word(10) + b"abc", "truncated")
invalid("truncated-last-field", header(H_ACTIVITY) + F3 + ABSENT + word(8) + b"\x01\x02", "truncated")
invalid("truncated-error-packet", header(H_ERROR) + word(len(ERROR_ARCHIVE)) + ERROR_ARCHIVE[:10], "truncated")

invalid("bad-header-0x2", header(0x2) + OK5, "badContainerHeader")
invalid("bad-header-0x201", header(0x201) + OK5, "badContainerHeader")
invalid("bad-header-0x1f", header(0x1F) + OK5, "badContainerHeader")
invalid("bad-header-0x0", header(0x0) + OK5, "badContainerHeader")
invalid("bad-header-0x10f", header(0x10F) + bz2_python(field(ERROR_ARCHIVE)), "badContainerHeader")
invalid("bad-header-0x80000001", header(0x80000001) + OK5, "badContainerHeader")
invalid("bad-header-0x100", header(0x100) + bz2_python(OK5), "badContainerHeader")

invalid("bad-field-tag-0x02000005", header(H_ACTIVITY) + struct.pack("<I", 0x02000005) + b"Title"
        + ABSENT + field(J) + ABSENT + ABSENT, "badFieldTag")
invalid("bad-field-tag-present-length-0", header(H_ACTIVITY) + struct.pack("<I", 0x01000000)
        + ABSENT + field(J) + ABSENT + ABSENT, "badFieldTag")
invalid("bad-field-tag-0x00000005", header(H_ACTIVITY) + struct.pack("<I", 0x00000005) + b"Title"
        + ABSENT + field(J) + ABSENT + ABSENT, "badFieldTag")
invalid("bad-field-tag-0xff000001", header(H_ACTIVITY) + ABSENT + ABSENT + field(J) + ABSENT
        + struct.pack("<I", 0xFF000001) + b"x", "badFieldTag")

invalid("bad-field-count-0", header(H_ACTIVITY), "badFieldCount")
invalid("bad-field-count-3", header(H_ACTIVITY) + F3, "badFieldCount")
invalid("bad-field-count-4", header(H_ACTIVITY) + F3 + field(b"https://a.b/"), "badFieldCount")
invalid("bad-field-count-error-packet-0", header(H_ERROR), "badFieldCount")
invalid("bad-field-count-compressed-3", header(H_COMPRESSED) + bz2_python(F3), "badFieldCount")

invalid("trailing-bytes-sixth-field", header(H_ACTIVITY) + OK5 + field(b"abc"), "trailingBytes")
invalid("trailing-bytes-absent-sixth-field", header(H_ACTIVITY) + OK5 + ABSENT, "trailingBytes")
invalid("trailing-bytes-stray-byte", header(H_ACTIVITY) + OK5 + b"\x00", "trailingBytes")
invalid("trailing-bytes-error-packet-second-field", header(H_ERROR) + field(ERROR_ARCHIVE) + field(b"x"),
        "trailingBytes")
invalid("trailing-bytes-compressed", header(H_COMPRESSED) + bz2_python(OK5 + b"\x00\x00"), "trailingBytes")

invalid("invalid-utf8-title", with_title(b"\xFF"), "invalidUTF8")
invalid("invalid-utf8-title-surrogate", with_title(b"ab\xED\xA0\x80"), "invalidUTF8")
invalid("invalid-utf8-webpage", with_web(b"https://a.b/\xFF"), "invalidUTF8")

invalid("invalid-webpage-ftp", with_web(b"ftp://x/"), "invalidWebpageURL")
invalid("invalid-webpage-javascript", with_web(b"javascript:alert(1)"), "invalidWebpageURL")
invalid("invalid-webpage-file", with_web(b"file:///etc/passwd"), "invalidWebpageURL")
invalid("invalid-webpage-relative", with_web(b"/path/only"), "invalidWebpageURL")
invalid("invalid-webpage-no-host", with_web(b"https:///path"), "invalidWebpageURL")
invalid("invalid-webpage-space", with_web(b"https://a.b/c d"), "invalidWebpageURL")

invalid("invalid-json-not-json", with_json(b"{"), "invalidActivityJSON")
invalid("invalid-json-array", with_json(b'["com.example.a"]'), "invalidActivityJSON")
invalid("invalid-json-string", with_json(b'"com.example.a"'), "invalidActivityJSON")
invalid("invalid-json-unknown-key", with_json(b'{"teamID":"","type":"com.example.a","extra":"x"}'),
        "invalidActivityJSON")
invalid("invalid-json-non-string-value", with_json(b'{"teamID":"","type":1}'), "invalidActivityJSON")
invalid("invalid-json-null-value", with_json(b'{"teamID":"","type":"com.example.a","persistentID":null}'),
        "invalidActivityJSON")
invalid("invalid-json-duplicate-key", with_json(b'{"teamID":"","type":"com.example.a","type":"com.example.b"}'),
        "invalidActivityJSON")
invalid("invalid-json-missing-type", with_json(b'{"teamID":""}'), "invalidActivityJSON")
invalid("invalid-json-missing-team-id", with_json(b'{"type":"com.example.a"}'), "invalidActivityJSON")
invalid("invalid-json-empty-persistent-id", with_json(b'{"teamID":"","type":"com.example.a","persistentID":""}'),
        "invalidActivityJSON")
invalid("invalid-json-empty-target-content-id",
        with_json(b'{"teamID":"","type":"com.example.a","targetContentID":""}'), "invalidActivityJSON")
invalid("invalid-json-absent", header(H_ACTIVITY) + field(b"T") + ABSENT + ABSENT + ABSENT + ABSENT,
        "invalidActivityJSON")
invalid("invalid-json-trailing-text", with_json(b'{"teamID":"","type":"com.example.a"}x'), "invalidActivityJSON")
invalid("invalid-json-trailing-comma", with_json(b'{"teamID":"","type":"com.example.a",}'), "invalidActivityJSON")
invalid("invalid-json-bad-utf8", with_json(b'{"teamID":"","type":"com.example.\xFF"}'), "invalidActivityJSON")

GOOD_STREAM = bz2_python(OK5)
invalid("bad-compression-garbage", header(H_COMPRESSED) + b"this is not a bzip2 stream", "badCompression")
invalid("bad-compression-empty", header(H_COMPRESSED), "badCompression")
invalid("bad-compression-cut", header(H_COMPRESSED) + GOOD_STREAM[:-10], "badCompression")
invalid("bad-compression-header-only", header(H_COMPRESSED) + b"BZh1", "badCompression")
invalid("bad-compression-extra-bytes", header(H_COMPRESSED) + GOOD_STREAM + b"\x00\x01", "badCompression")
invalid("bad-compression-two-streams", header(H_COMPRESSED) + GOOD_STREAM + GOOD_STREAM, "badCompression")
flipped = bytearray(GOOD_STREAM)
flipped[len(flipped) // 2] ^= 0x55
invalid("bad-compression-corrupt", header(H_COMPRESSED) + bytes(flipped), "badCompression")
invalid("bad-compression-block-size-0", header(H_COMPRESSED) + b"BZh0" + GOOD_STREAM[4:], "badCompression")


def zeros_bomb(n):
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run(f"head -c {n} | bzip2 -9 -c", shell=True, stdin=zero,
                              stdout=subprocess.PIPE, check=True)
    return proc.stdout


BOMB = zeros_bomb(64 << 20)
invalid("bomb", header(H_COMPRESSED) + BOMB, "inflatedTooLarge", inflatesTo=4 + (64 << 20))
SMALL_BOMB = zeros_bomb(1 << 20)
invalid("inflated-too-large-1mib", header(H_COMPRESSED) + SMALL_BOMB, "inflatedTooLarge", inflatesTo=4 + (1 << 20))


# ---------------------------------------------------------------------------
# Self-checks.

def decode_plain(data):
    """Minimal independent reader of the hand-built layout, used only to check the script."""
    h = struct.unpack_from("<I", data, 0)[0]
    body = data[4:]
    if h == H_COMPRESSED:
        body = bz2.decompress(body)
    fields, pos = [], 0
    while pos < len(body):
        w = struct.unpack_from("<I", body, pos)[0]
        pos += 4
        if w == 0:
            fields.append(None)
            continue
        assert w >> 24 == 1 and (w & 0xFFFFFF) > 0
        n = w & 0xFFFFFF
        fields.append(body[pos:pos + n])
        assert len(fields[-1]) == n
        pos += n
    return h, fields


def checks():
    lib_ok = libbz2_apple(b"probe") is not None
    if not lib_ok:
        NOTES.append("libbz2 not loadable through ctypes: the work-factor-200 comparison was skipped")
    for name, (data, expected, plain) in VALID.items():
        if len(data) > 100_000:
            fail(f"valid/{name}: over 100 KB")
        h, fields = decode_plain(data)
        if h == H_ERROR:
            if len(fields) != 1 or fields[0].hex() != expected["errorHex"]:
                fail(f"valid/{name}: error packet does not read back")
            continue
        if len(fields) != 5:
            fail(f"valid/{name}: {len(fields)} fields")
            continue
        title, ui, js, web, streams = fields
        obj = json.loads(js)
        if list(obj)[:2] != ["teamID", "type"] and not name.startswith("readonly-"):
            fail(f"valid/{name}: JSON key order")
        got = {"title": title.decode() if title else None, "userInfoHex": hexo(ui),
               "teamID": obj["teamID"], "type": obj["type"], "persistentID": obj.get("persistentID"),
               "targetContentID": obj.get("targetContentID"), "webpageURL": web.decode() if web else None,
               "streamsHex": hexo(streams)}
        if any(expected[key] != value for key, value in got.items()):
            fail(f"valid/{name}: fields do not read back as expected")
        if ui is not None and not ui.startswith(b"MP\x03\x05"):
            fail(f"valid/{name}: userInfo is not MP")
        # What Apple's writer does with this packet: try bzip2 when the whole
        # packet is >= 2049 bytes, keep it only when smaller.
        def enc(text): return None if text is None else text.encode("utf-8")
        plain = header(H_ACTIVITY) + field(enc(got["title"])) + field(ui) + field(activity_json(
            got["teamID"], got["type"], got["persistentID"], got["targetContentID"])) + \
            field(enc(got["webpageURL"])) + field(streams) if name != "readonly-json-escapes" else b""
        if not plain:   # values outside jstr's safe set: the writer's escaping is not modelled
            continue
        fields_bytes = plain[4:]
        candidates = {"python": bz2_python(fields_bytes), "tool": bzip2_tool(fields_bytes)}
        if lib_ok:
            candidates["libbz2-wf200"] = libbz2_apple(fields_bytes)
        if len(set(candidates.values())) != 1:
            fail(f"valid/{name}: the bzip2 peers disagree: " + ", ".join(f"{k}={len(v)}" for k, v in candidates.items()))
        stream = candidates["python"]
        writer_compresses = len(plain) >= 2049 and 4 + len(stream) < len(plain)
        writer_bytes = header(H_COMPRESSED) + stream if writer_compresses else plain
        if not name.startswith("readonly-") and writer_bytes != data:
            fail(f"valid/{name}: not what Apple's sender writes (compress={writer_compresses})")
        if name.startswith("readonly-") and writer_bytes == data:
            NOTES.append(f"valid/{name} is named read-only but equals the writer's bytes")
    for name in ("large-incompressible",):
        plain = VALID[name][2]
        if not (len(plain) >= 2049 and 4 + len(bz2_python(plain[4:])) >= len(plain)):
            fail(f"valid/{name}: expected a large packet that bzip2 does not shrink")
    b2048 = VALID["boundary-2048-uncompressed"][2]
    if not 4 + len(bz2_python(b2048[4:])) < len(b2048):
        fail("boundary-2048-uncompressed: should be compressible (else the boundary is not what keeps it plain)")
    for name, (data, expected) in INVALID.items():
        if len(data) > 100_000:
            fail(f"invalid/{name}: over 100 KB")
        if expected["error"] == "badCompression":
            stream = data[4:]
            if name in ("bad-compression-two-streams", "bad-compression-extra-bytes"):
                # One whole stream, then more bytes (Python's bz2.decompress would go on or
                # ignore them; one BZ2Decompressor stops at the end of the first stream).
                d = bz2.BZ2Decompressor()
                d.decompress(stream)
                if not d.eof or not d.unused_data:
                    fail(f"invalid/{name}: expected a whole stream followed by more bytes")
            elif name == "bad-compression-empty":
                if stream:
                    fail(f"invalid/{name}: expected nothing after the header")
            else:
                try:
                    d = bz2.BZ2Decompressor()
                    d.decompress(stream)
                    if d.eof:
                        fail(f"invalid/{name}: Python's bz2 inflates it")
                except (OSError, ValueError, EOFError):
                    pass
    for name in ("bomb", "inflated-too-large-1mib"):
        data, expected = INVALID[name]
        if len(data) > 2048:
            fail(f"invalid/{name}: {len(data)} bytes, not a small bomb")
        inflated = bz2.decompress(data[4:])
        if 4 + len(inflated) != expected["inflatesTo"] or inflated.count(0) != len(inflated):
            fail(f"invalid/{name}: does not inflate to inflatesTo zero bytes")


def write_all():
    for sub in ("valid", "invalid"):
        path = os.path.join(HERE, sub)
        if os.path.isdir(path):
            shutil.rmtree(path)
        os.makedirs(path)
    for name, (data, expected, _) in VALID.items():
        with open(os.path.join(HERE, "valid", name + ".container"), "wb") as f:
            f.write(data)
        with open(os.path.join(HERE, "valid", name + ".json"), "w", encoding="utf-8") as f:
            json.dump(expected, f, ensure_ascii=True, indent=1)
            f.write("\n")
    for name, (data, expected) in INVALID.items():
        with open(os.path.join(HERE, "invalid", name + ".container"), "wb") as f:
            f.write(data)
        with open(os.path.join(HERE, "invalid", name + ".json"), "w", encoding="utf-8") as f:
            json.dump(expected, f)
            f.write("\n")


def main():
    checks()
    write_all()
    readonly = sum(1 for n in VALID if n.startswith("readonly-"))
    compressed = sum(1 for d, _, _ in VALID.values() if d[:4] == header(H_COMPRESSED))
    print(f"container vectors: {len(VALID)} valid ({readonly} read-only, {compressed} compressed), "
          f"{len(INVALID)} invalid; bomb {len(INVALID['bomb'][0])} bytes -> {INVALID['bomb'][1]['inflatesTo']}")
    for note in NOTES:
        print("note:", note)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) FAILED", file=sys.stderr)
        return 1
    print("all checks passed (bzip2 peers: Python bz2, bzip2 tool, libbz2 work factor 200 agree)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
