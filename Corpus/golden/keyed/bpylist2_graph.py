#!/usr/bin/env python3
"""A graph golden archive written by Python's bpylist2 (a peer): a custom
class holding a string, a number, a list and the same custom object twice.
Usage: python3 bpylist2_graph.py graph/   (Specs/keyed-archive.md, "Graph")."""
import os
import sys

from bpylist2 import archiver


class Thing:
    def __init__(self, name, size, parts):
        self.name, self.size, self.parts = name, size, parts

    @staticmethod
    def encode_archive(obj, archive):
        archive.encode("name", obj.name)
        archive.encode("size", obj.size)
        archive.encode("parts", obj.parts)

    @staticmethod
    def decode_archive(archive):
        return Thing(archive.decode("name"), archive.decode("size"), archive.decode("parts"))


archiver.update_class_map({"Thing": Thing})
leaf = Thing("leaf", 2, [])
root = Thing("root", 1, [leaf, leaf, "text"])
with open(os.path.join(sys.argv[1], "bpylist2-custom.bplist"), "wb") as f:
    f.write(archiver.archive(root))
