#!/usr/bin/env python3
"""The bundled sample payload (README's main job): a Handoff activity of a
trip planner as a sender puts it on the wire — an activity container
(Specs/activity-container.md) whose userInfo is "MP" (Specs/mp-userinfo.md),
its document already a portable container reference. Built by hand from the
two specs, not by ActivityCodec. Usage: python3 trip_payload.py trip.payload
"""
import json
import struct
import sys
import uuid


def mp_string(text):
    raw = text.encode("utf-8")
    if len(raw) <= 31:
        return bytes([0xA0 | len(raw)]) + raw
    if len(raw) <= 0xFF:
        return b"\xD9" + bytes([len(raw)]) + raw
    return b"\xDA" + struct.pack(">H", len(raw)) + raw


def mp_url(text):  # a URL without a base: C7 05 00, then its string
    return b"\xC7\x05\x00" + mp_string(text)


def mp_date(seconds_since_2001):  # D7 03, then the double little-endian
    return b"\xD7\x03" + struct.pack("<d", seconds_since_2001)


def mp_uuid(text):  # D8 01, then the 16 bytes
    return b"\xD8\x01" + uuid.UUID(text).bytes


entries = [
    ("com.example.planner.version", mp_string("1.0")),
    ("document", mp_url("icloud-container:iCloud.com.example.Planner/Documents/Trip%20to%20Lisbon.plan")),
    ("selection", bytes([0x92, 3, 7])),
    ("zoom", b"\xCB" + struct.pack(">d", 1.25)),
    ("day", mp_date(786_000_000.0)),
    ("tripID", mp_uuid("6F9619FF-8B86-D011-B42D-00C04FC964FF")),
]
user_info = b"MP\x03\x05" + bytes([0x80 | len(entries)]) + b"".join(mp_string(k) + v for k, v in entries)


def field(raw):
    if raw is None:
        return b"\x00\x00\x00\x00"
    return struct.pack("<I", len(raw) | 0x01000000) + raw


info = json.dumps({"teamID": "", "type": "com.example.planner.edit-trip"}, separators=(",", ":")).encode()
packet = (struct.pack("<I", 1)
          + field("Editing “Trip to Lisbon”".encode("utf-8"))
          + field(user_info)
          + field(info)
          + field(b"https://planner.example.com/trips/6F9619FF")
          + field(None))
with open(sys.argv[1], "wb") as out:
    out.write(packet)
