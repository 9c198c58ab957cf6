#!/usr/bin/env python3
"""Writes the benchmark corpus into a folder (default Benchmarks/work/corpus).

Deterministic (fixed seeds) and written by a peer, Python's plistlib, so no file
is shaped by the code under test. Each corpus exists in binary and XML:

  userinfo.pack      10,000 userInfo-like dictionaries of 0.5-3 KB (binary size), packed
  one-userinfo       one ~1.3 KB userInfo dictionary (the latency goal)
  settings           a ~1 MB settings plist (nested preference dictionaries)
  library            a music-library-like plist, ~50 MB as XML
  unicode            unicode-heavy strings (UTF-16 in binary)
  numbers            number-heavy arrays (integers of every width, reals)

A pack is "PLPACK01", u32 LE count, then count x (u32 LE length, bytes).
The keyed-archive pack is made from userinfo.pack by the Foundation peer
(NSKeyedArchiver), see compare.sh.
"""
import datetime
import pathlib
import plistlib
import random
import struct
import sys

out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent / "work" / "corpus")
out.mkdir(parents=True, exist_ok=True)
EPOCH = datetime.datetime(2001, 1, 1)
WORDS = ("alpha beta gamma delta trip lisbon planner document page zoom selection note "
         "city river bridge train museum coffee market harbour tower garden").split()


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def date(rng):
    return EPOCH + datetime.timedelta(seconds=rng.randrange(0, 900_000_000))


def userinfo(rng, target):
    """A dictionary like an NSUserActivity userInfo, about `target` bytes in binary."""
    info = {
        "com.example.app.version": "2.1",
        "activity": "com.example.app." + rng.choice(WORDS),
        "documentID": "%08X-%04X-%04X-%04X-%012X" % tuple(rng.getrandbits(b) for b in (32, 16, 16, 16, 48)),
        "page": rng.randrange(1, 500),
        "zoom": round(rng.uniform(0.25, 4), 3),
        "editing": rng.random() < 0.5,
        "opened": date(rng),
    }
    index = 0
    while len(plistlib.dumps(info, fmt=plistlib.FMT_BINARY)) < target:
        index += 1
        kind = rng.randrange(6)
        key = f"{rng.choice(WORDS)}{index}"
        if kind == 0:
            info[key] = words(rng, rng.randrange(2, 12))
        elif kind == 1:
            info[key] = [rng.randrange(-1000, 100000) for _ in range(rng.randrange(1, 8))]
        elif kind == 2:
            info[key] = {"x": rng.uniform(-500, 500), "y": rng.uniform(-500, 500), "label": words(rng, 2)}
        elif kind == 3:
            info[key] = rng.randbytes(rng.randrange(8, 64))
        elif kind == 4:
            info[key] = [{"id": rng.randrange(1 << 40), "title": words(rng, 3), "done": rng.random() < 0.3}
                         for _ in range(rng.randrange(1, 4))]
        else:
            info[key] = date(rng)
    return info


def settings(rng):
    root = {}
    for section in range(360):
        group = {}
        for item in range(40):
            kind = item % 5
            key = f"{rng.choice(WORDS)}.{section}.{item}"
            group[key] = (words(rng, 4) if kind == 0 else rng.randrange(-10**6, 10**6) if kind == 1 else
                          rng.random() < 0.5 if kind == 2 else rng.uniform(0, 1) if kind == 3 else
                          [words(rng, 1) for _ in range(3)])
        root[f"com.example.settings.{section}"] = group
    return root


def library(rng, tracks):
    catalogue = {}
    for track in range(tracks):
        catalogue[str(1000 + track)] = {
            "Track ID": 1000 + track, "Name": words(rng, 3).title(), "Artist": words(rng, 2).title(),
            "Album Artist": words(rng, 2).title(), "Album": words(rng, 2).title(), "Genre": rng.choice(WORDS).title(),
            "Kind": "MPEG audio file", "Size": rng.randrange(2_000_000, 15_000_000),
            "Total Time": rng.randrange(60_000, 600_000), "Disc Number": 1, "Disc Count": 1,
            "Track Number": rng.randrange(1, 20), "Track Count": 20, "Year": rng.randrange(1960, 2025),
            "Date Modified": date(rng), "Date Added": date(rng), "Bit Rate": rng.choice((128, 192, 256, 320)),
            "Sample Rate": 44100, "Play Count": rng.randrange(0, 300), "Play Date": rng.randrange(3_000_000_000, 3_800_000_000),
            "Play Date UTC": date(rng), "Persistent ID": "%016X" % rng.getrandbits(64), "Track Type": "File",
            "Location": "file:///Users/ada/Music/iTunes/" + words(rng, 4).replace(" ", "%20") + ".mp3",
            "File Folder Count": 5, "Library Folder Count": 1, "Loved": rng.random() < 0.1,
        }
    playlists = [{"Name": words(rng, 2).title(), "Playlist ID": 50000 + p, "Playlist Persistent ID": "%016X" % rng.getrandbits(64),
                  "All Items": True, "Playlist Items": [{"Track ID": 1000 + rng.randrange(tracks)} for _ in range(rng.randrange(10, 200))]}
                 for p in range(100)]
    return {"Major Version": 1, "Minor Version": 1, "Application Version": "12.9.5.5", "Date": date(rng),
            "Features": 5, "Show Content Ratings": True, "Library Persistent ID": "%016X" % rng.getrandbits(64),
            "Tracks": catalogue, "Playlists": playlists, "Music Folder": "file:///Users/ada/Music/iTunes/iTunes%20Media/"}


def unicode(rng):
    alphabets = ["ÀÉÎÕÜàéîõüçñß", "αβγδεζηθικλμνξοπρστυφχψω", "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                 "日本語の文章とカタカナひらがな漢字", "한국어문장입니다", "😀🚀🌍🎉👍🏽", "עברית", "العربية"]
    return {f"k{i}-{rng.choice(alphabets)[:3]}": ["".join(rng.choice(rng.choice(alphabets)) for _ in range(rng.randrange(5, 60)))
                                                   for _ in range(8)] for i in range(3000)}


def numbers(rng):
    return {"small": [rng.randrange(-128, 256) for _ in range(40000)],
            "wide": [rng.randrange(-2**63, 2**63) for _ in range(40000)],
            "unsigned": [rng.randrange(2**63, 2**64) for _ in range(2000)],
            "reals": [rng.uniform(-1e9, 1e9) for _ in range(40000)],
            "floats": [float(rng.randrange(-1000, 1000)) / 8 for _ in range(20000)]}


def pack(documents):
    return b"PLPACK01" + struct.pack("<I", len(documents)) + b"".join(struct.pack("<I", len(d)) + d for d in documents)


def write(name, value):
    for suffix, fmt in (("bplist", plistlib.FMT_BINARY), ("xml", plistlib.FMT_XML)):
        (out / f"{name}.{suffix}").write_bytes(plistlib.dumps(value, fmt=fmt, sort_keys=False))


rng = random.Random(20141)
infos = [userinfo(rng, rng.randrange(500, 3000)) for _ in range(10_000)]
for suffix, fmt in (("bplist", plistlib.FMT_BINARY), ("xml", plistlib.FMT_XML)):
    (out / f"userinfo.pack.{suffix}").write_bytes(pack([plistlib.dumps(i, fmt=fmt, sort_keys=False) for i in infos]))
one = userinfo(random.Random(7), 1300)
write("one-userinfo", one)
write("settings", settings(random.Random(11)))
write("library", library(random.Random(13), 32_000))
write("unicode", unicode(random.Random(17)))
write("numbers", numbers(random.Random(19)))
for path in sorted(out.iterdir()):
    print(f"{path.name:24} {path.stat().st_size:>12,} bytes")
