#!/usr/bin/env python3
"""Writes the starting seeds of every fuzz target into Corpus/<target>/.

Each seed is one options byte (see Specs/fuzzing.md) followed by a document:
peer-written golden files (plistlib, plistutil, Foundation, bpylist2), our own
payloads and typed JSON (written by plistkit), and a few hostile variants
(truncated, cut in the middle). Run from the repository root after `swift build`;
then minimise with `Fuzz/run.sh TARGET --merge`. With target names as
arguments (`python3 Fuzz/make_seeds.py error-packet diff`), only their seeds
are written.
"""
import hashlib
import json
import pathlib
import plistlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
golden = root / "Corpus" / "golden"
plistkit = str(root / ".build" / "debug" / "plistkit")
only = set(sys.argv[1:])


def write(target, options, document, name):
    if only and target not in only:
        return
    folder = root / "Corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    data = bytes([options]) + document
    digest = hashlib.sha1(data).hexdigest()[:10]
    (folder / f"{name}-{digest}").write_bytes(data)


def hostile(target, document, name):
    """The valid seed, cut in half and cut before its last byte."""
    write(target, 0, document[: len(document) // 2], name + "-half")
    write(target, 0, document[:-1], name + "-short")


def files(pattern):
    return sorted(golden.glob(pattern))


def run(*args, stdin=None):
    return subprocess.run([plistkit, *args], input=stdin, capture_output=True, check=True).stdout


def write_raw(target, document, name):
    """A seed of the differential target: the document alone, no options byte."""
    if only and target not in only:
        return
    folder = root / "Corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}-{hashlib.sha1(document).hexdigest()[:10]}").write_bytes(document)


# Both differential targets (Foundation, libplist) start from the same documents.
differential = ("differential-foundation", "differential-libplist")
for path in files("*/*.bplist") + files("keyed/*/*.bplist") + files("xml/foundation/*.bplist"):
    write("binary-decode", 0, path.read_bytes(), path.stem)
    for target in differential:
        write_raw(target, path.read_bytes(), path.stem)
for path in files("*/*.xml") + files("xml/foundation/*.xml"):
    write("xml-decode", 0, path.read_bytes(), path.stem)
    for target in differential:
        write_raw(target, path.read_bytes(), path.stem)
for path in files("plistlib/*.bplist")[:6]:
    hostile("binary-decode", path.read_bytes(), path.stem)
for path in files("plistlib/*.xml")[:6]:
    hostile("xml-decode", path.read_bytes(), path.stem)

for path in files("keyed/*/*.bplist"):
    data = path.read_bytes()
    write("keyed-decode", 0, data, path.stem)
    write("keyed-decode", 0, run("convert", str(path), "--format", "xml1", "-o", "-"), path.stem + "-xml")
    # Archives of custom classes (keyed/graph/) have no userInfo to write as typed JSON.
    if path.parent.name != "graph":
        write("typed-json-read", 0, run("unarchive", str(path), "-o", "-"), path.stem)
    hostile("keyed-decode", data, path.stem)
for path in files("plistlib/*.bplist"):
    write("typed-json-read", 0, run("convert", str(path), "--format", "typed-json", "-o", "-"), path.stem)

# Payloads: the bundled sample, and envelopes encoded by plistkit for each layout
# the options byte selects (bits 2-3) with and without a versioning key (bits 4-5).
sample = (root / "Corpus" / "samples" / "trip.payload").read_bytes()
write("payload-decode", 0, sample, "trip")
layouts = {0: "ios", 1: "macos:/Users/ada", 2: "root:/srv/containers"}
for layout_bits, layout in layouts.items():
    for version in (None, "2.1", "2.0", "1.0", "3.0"):
        envelope = {"type": "dict", "value": {
            "activityType": {"type": "string", "value": "com.example.app.view"},
            "title": {"type": "string", "value": "Fuzz seed"},
            "webpageURL": {"type": "url", "relative": "https://example.com/a?b=1", "base": None},
            "teamID": {"type": "string", "value": "ABCDE12345"},
            "userInfo": {"type": "dict", "value": {
                "file": {"type": "url", "relative": "Documents/a%20b.txt",
                         "base": {"type": "url", "relative": "file://" + ("/private/var/mobile/Library/Mobile%20Documents" if layout == "ios" else "/Users/ada/Library/Mobile%20Documents" if layout.startswith("macos") else "/srv/containers") + "/iCloud~com~example~App/", "base": None}},
                "drive": {"type": "url", "relative": "file://" + ("/private/var/mobile/Library/Mobile%20Documents" if layout == "ios" else "/Users/ada/Library/Mobile%20Documents" if layout.startswith("macos") else "/srv/containers") + "/com~apple~CloudDocs/x/y.pdf", "base": None},
                "ids": {"type": "set", "value": [{"type": "uuid", "value": "6F9619FF-8B86-D011-B42D-00C04FC964FF"}]},
                "nothing": {"type": "null"},
                "n": {"type": "array", "value": [{"type": "integer", "value": "-1"}, {"type": "real", "value": "0.5"}, {"type": "bool", "value": True}]},
            }},
        }}
        arguments = ["payload", "encode", "-", "--layout", layout,
                     "--container", "iCloud.com.example.App", "--container", "com.apple.CloudDocs"]
        if version:
            arguments += ["--version-key", "com.example.app.version", "--version", version]
        try:
            payload = run(*arguments, stdin=json.dumps(envelope).encode())
        except subprocess.CalledProcessError as error:
            sys.exit(f"plistkit payload encode failed: {error.stderr.decode()}")
        options = layout_bits << 2 | (0x10 if version else 0) | (0x20 if version == "1.0" else 0)
        write("payload-decode", options, payload, f"{layout.split(':')[0]}-{version or 'unversioned'}")
        if version == "2.1":
            keyed = run(*arguments, "--userinfo-form", "keyed-archive", stdin=json.dumps(envelope).encode())
            write("payload-decode", options, keyed, f"{layout.split(':')[0]}-keyed")
            hostile("payload-decode", payload, f"{layout.split(':')[0]}")

# Apple's wire forms: the hand-built golden vectors (Corpus/golden/mp and
# container, valid and invalid), and the containers for payload-decode too.
for path in sorted((golden / "mp").glob("*/*.mp")):
    write("mp-decode", 0, path.read_bytes(), path.stem)
for path in sorted((golden / "container").glob("*/*.container")):
    write("container-decode", 0, path.read_bytes(), path.stem)
    if path.parent.name == "valid":
        write("payload-decode", 0, path.read_bytes(), path.stem)

# OpenStep texts (Specs/openstep.md): a project file, a .strings file, escapes,
# data and GNUstep typed values, UTF-16 with either byte-order mark; each also cut in half.
openstep_texts = [
    '// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjects = {\n\t\t1A2B /* main.swift */ = {isa = PBXBuildFile; fileRef = 5E6F; };\n\t\tFILES = (\n\t\t\t"a b.swift",\n\t\t\tc/d.swift,\n\t\t);\n\t};\n\trootObject = 9C0D /* Project object */;\n}\n',
    '/* Greeting */\n"hello" = "Bonjour";\n"bye" = "Au revoir"; // informal\n"OK";\nmenu.title = Fichier;\n',
    '"tab\\there\\n\\"q\\" \\\'s\\\' back\\\\slash \\101 caf\\U00e9 \\UD83D\\UDE00"',
    '(<0fA1 2b ff>, <>, <*I-12>, <*R1.5>, <*BY>, <*BN>, <*D2001-01-01 00:00:10 +0000>, a, "b",)',
    '{ a = { b = ( x, "y" ); }; c = <00>; }',
    '( )',
    'word',
    '{ k = "\u00e9\U0001F600"; }',
]
for number, text in enumerate(openstep_texts):
    data = text.encode("utf-8")
    write("openstep-read", 0, data, f"text{number}")
    write("openstep-read", 0, data[: len(data) // 2], f"text{number}-half")
unicode_text = '{ k = "\u00e9\U0001F600"; }'
write("openstep-read", 0, b"\xfe\xff" + unicode_text.encode("utf-16-be"), "utf16be")
write("openstep-read", 0, b"\xff\xfe" + unicode_text.encode("utf-16-le"), "utf16le")
write("openstep-read", 0, b"\xef\xbb\xbf" + unicode_text.encode("utf-8"), "utf8bom")
write("openstep-read", 0, (golden / "openstep" / "project.pbxproj").read_bytes(), "pbxproj-mod-pbxproj")

# The format layer as real files need it (issue 25; openstep-read also runs
# Document.read(document:) and writes each document back in its own format
# and encoding): .strings files in UTF-16 and comment-only, a project with
# Xcode 16's synchronized groups and Swift packages, JSON, XML and OpenStep
# data that all start with a character the detection must weigh.
strings_text = '/* Class = "NSMenuItem"; title = "Quit"; */\n"58.title" = "Quitter";\n\n/* No comment */\n"ok" = "D\u00e9j\u00e0";\n'
write("openstep-read", 0, b"\xff\xfe" + strings_text.encode("utf-16-le"), "strings-utf16le-ibtool")
write("openstep-read", 0, b"\xfe\xff" + strings_text.encode("utf-16-be"), "strings-utf16be-ibtool")
write("openstep-read", 0, b"\xff\xfe" + "/* \n  InfoPlist.strings\n*/\n".encode("utf-16-le"), "strings-comment-only")
write("openstep-read", 0, b"  \n", "strings-whitespace-only")
write("openstep-read", 0, b"\xff\xfe", "strings-mark-only")
write("openstep-read", 0, b'{"a": [1, 2.5, true, "x"], "b": {}}', "json-object")
write("openstep-read", 0, b"\xef\xbb\xbf[1, 2]", "json-array-bom")
write("openstep-read", 0, b"{}", "json-or-openstep-empty")
write("openstep-read", 0, b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>a</key><string>b</string></dict></plist>\n', "xml")
write("openstep-read", 0, b"<0fa1 2b>", "openstep-data-angle")
synchronized = (
    '// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjectVersion = 77;\n\tobjects = {\n'
    '\t\tA1 /* Project object */ = {isa = PBXProject; buildConfigurationList = A2; targets = (A5, ); packageReferences = (A8, A9, ); };\n'
    '\t\tA2 = {isa = XCConfigurationList; buildConfigurations = (); };\n'
    '\t\tA3 = {isa = PBXFileSystemSynchronizedRootGroup; path = App; sourceTree = "<group>"; exceptions = (A4, ); };\n'
    '\t\tA4 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Info.plist, ); target = A5; };\n'
    '\t\tA5 = {isa = PBXNativeTarget; name = App; buildPhases = (A6, ); dependencies = (A7, ); };\n'
    '\t\tA6 = {isa = PBXFrameworksBuildPhase; files = (B1, B2, ); };\n'
    '\t\tA7 = {isa = PBXTargetDependency; targetProxy = A0; };\n'
    '\t\tA0 = {isa = PBXContainerItemProxy; containerPortal = A1; remoteGlobalIDString = A5; };\n'
    '\t\tA8 = {isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/apple/swift-algorithms.git"; };\n'
    '\t\tA9 = {isa = XCLocalSwiftPackageReference; relativePath = ../Kit; };\n'
    '\t\tB0 = {isa = XCSwiftPackageProductDependency; package = A8; productName = Algorithms; };\n'
    '\t\tB1 = {isa = PBXBuildFile; productRef = B0; };\n'
    '\t\tB2 = {isa = PBXBuildFile; };\n'
    '\t\tB3 = {isa = PBXFileSystemSynchronizedRootGroup; explicitFileTypes = {}; explicitFolders = (); path = Old; sourceTree = "<group>"; };\n'
    '\t};\n\trootObject = A1 /* Project object */;\n}\n')
write("openstep-read", 0, synchronized.encode("utf-8"), "pbxproj-xcode16-packages")
# Raw control characters in XML strings, as Xcode 4 wrote them (xml-plist.md,
# "Control characters in strings"); with a mark already there (refused).
controls = '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>NS.string\x01</key>\n\t<string>Build \x1b[1mApp\x1b[0m\x01</string>\n</dict>\n</plist>\n'
write("xml-decode", 0, controls.encode("utf-8"), "raw-controls-xcode4")
for target in differential:
    write_raw(target, controls.encode("utf-8"), "raw-controls-xcode4")
write("xml-decode", 0, controls.replace("App", "\ufdd0").encode("utf-8"), "raw-controls-with-mark")



# error-packet (Specs/fuzzing.md, "error-packet and diff"): keyed archives of
# NSErrors, which the target frames as an error packet. Linux Foundation cannot
# archive an NSError (Tests/KeyedArchiveTests/ArchivedErrorTests.swift), so
# they are written here with plistlib in the layout NSError's encodeWithCoder:
# gives them, as the container vectors' error packet is (its archive is the
# first seed).
class Archive:
    """An NSKeyedArchiver archive built object by object; add() returns a UID."""

    def __init__(self):
        self.objects = ["$null"]
        self.classes = {}

    def add(self, value):
        self.objects.append(value)
        return plistlib.UID(len(self.objects) - 1)

    def cls(self, *chain):
        if chain not in self.classes:
            self.classes[chain] = self.add({"$classname": chain[0], "$classes": list(chain)})
        return self.classes[chain]

    def array(self, members, name="NSArray"):
        return self.add({"$class": self.cls(name, "NSObject"), "NS.objects": list(members)})

    def set(self, members):
        return self.add({"$class": self.cls("NSSet", "NSObject"), "NS.objects": list(members)})

    def dictionary(self, pairs):
        keys = [self.add(key) for key, _ in pairs]
        return self.add({"$class": self.cls("NSDictionary", "NSObject"), "NS.keys": keys, "NS.objects": [value for _, value in pairs]})

    def date(self, seconds):
        return self.add({"$class": self.cls("NSDate", "NSObject"), "NS.time": float(seconds)})

    def url(self, relative, base=None):
        return self.add({"$class": self.cls("NSURL", "NSObject"), "NS.base": base or plistlib.UID(0), "NS.relative": self.add(relative)})

    def uuid(self, data):
        return self.add({"$class": self.cls("NSUUID", "NSObject"), "NS.uuidbytes": data})

    def null(self):
        return self.add({"$class": self.cls("NSNull", "NSObject")})

    def error(self, domain, code, user_info=None, chain=("NSError", "NSObject")):
        fields = {"$class": self.cls(*chain), "NSDomain": self.add(domain), "NSCode": code}
        if user_info is not None:
            fields["NSUserInfo"] = user_info
        return self.add(fields)

    def bytes(self, root):
        return plistlib.dumps({"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": root},
                               "$objects": self.objects}, fmt=plistlib.FMT_BINARY, sort_keys=True)


def error_archive(build):
    """An archive whose root is the NSError `build(archive)` adds."""
    archive = Archive()
    # Object 1 is the error, as NSKeyedArchiver numbers the root first.
    archive.objects.append(None)
    root = build(archive)
    archive.objects[1] = archive.objects[root.data]
    archive.objects[root.data] = "unused"
    return archive.bytes(plistlib.UID(1))


def doubled_chain(levels):
    """Tests/PlistkitTests/BoundedWalkTests.swift, errorArchive(levels:): user
    info {"k": a0}, each array a(i) holding a(i+1) twice (2^levels leaves, expanded)."""
    first_array = 5
    error_class, dictionary_class, array_class = 6 + levels, 7 + levels, 8 + levels
    objects = ["$null",
               {"$class": plistlib.UID(error_class), "NSDomain": plistlib.UID(2), "NSCode": 1, "NSUserInfo": plistlib.UID(3)},
               "Domain",
               {"$class": plistlib.UID(dictionary_class), "NS.keys": [plistlib.UID(4)], "NS.objects": [plistlib.UID(first_array)]},
               "k"]
    for level in range(levels):
        following = plistlib.UID(first_array + level + 1)
        objects.append({"$class": plistlib.UID(array_class), "NS.objects": [following, following]})
    objects.append({"$class": plistlib.UID(array_class), "NS.objects": []})
    objects.append({"$classname": "NSError", "$classes": ["NSError", "NSObject"]})
    objects.append({"$classname": "NSDictionary", "$classes": ["NSDictionary", "NSObject"]})
    objects.append({"$classname": "NSArray", "$classes": ["NSArray", "NSObject"]})
    return plistlib.dumps({"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": plistlib.UID(1)},
                           "$objects": objects}, fmt=plistlib.FMT_BINARY, sort_keys=True)


def values_user_info(a):
    shared = a.array([a.add("shared"), a.add(1), a.add(2.5), a.add(True)])
    base = a.url("https://example.com/base/")
    pairs = [
        ("NSLocalizedDescription", a.add("The operation couldn\u2019t be completed.")),
        ("first", shared), ("second", shared), ("nested", a.array([shared, shared])),
        ("when", a.date(-978307200.5)), ("url", a.url("a/b%20c?d=1", base)), ("file", a.url("file:///Users/ada/Doc.txt")),
        ("id", a.uuid(bytes(range(16)))), ("ids", a.set([a.add("x"), a.add(7), a.uuid(b"\xff" * 16)])),
        ("nothing", a.null()), ("bytes", a.add(b"\x00\x01\x02")), ("big", a.add(2 ** 64 - 1)), ("neg", a.add(-1)),
    ]
    return a.error("UAContinuityErrorDomain", -110, a.dictionary(pairs))


def underlying_user_info(a):
    underlying = a.error("NSPOSIXErrorDomain", 61, a.dictionary([("reason", a.add("refused"))]))
    return a.error("Outer", 7, a.dictionary([("NSUnderlyingError", underlying), ("NSLocalizedDescription", a.add("outer"))]))


def hostile_strings(a):
    text = "a\u202eb\u2028c\x1b[2J\x7f\u0085\u200f"
    return a.error("Domain\u202e\n", 2 ** 63 - 1, a.dictionary([(text, a.add(text)), ("e\u0301", a.add("\u00e9"))]))


def cyclic_user_info(a):
    loop = a.array([])
    a.objects[loop.data]["NS.objects"].append(loop)
    return a.error("Cycle", 1, a.dictionary([("loop", loop), ("fine", a.add("yes"))]))


def shared_strings(a):
    word = a.add("repeated " * 8)
    row = a.array([word] * 12)
    return a.error("Shared", 3, a.dictionary([("k%d" % n, row) for n in range(12)]))


golden_error = (golden / "container" / "valid" / "error-packet.container").read_bytes()[8:]
write("error-packet", 0, golden_error, "golden-uacontinuity")
write("error-packet", 3, golden_error, "golden-uacontinuity-minimal-limits")
write("error-packet", 0, error_archive(lambda a: a.error("Bare", 0)), "no-user-info")
write("error-packet", 0, error_archive(values_user_info), "user-info-values-shared-array")
write("error-packet", 2, error_archive(values_user_info), "user-info-values-tight-limits")
write("error-packet", 0, error_archive(underlying_user_info), "underlying-error-other-class")
write("error-packet", 0, error_archive(hostile_strings), "hostile-strings")
write("error-packet", 0, error_archive(cyclic_user_info), "cyclic-user-info")
write("error-packet", 0, error_archive(shared_strings), "shared-rows")
write("error-packet", 0, error_archive(lambda a: a.error("Sub", 4, None, ("MyError", "NSError", "NSObject"))), "subclass-chain")
write("error-packet", 0, error_archive(lambda a: a.error("Code", 1.5)), "not-an-error-real-code")
for levels in (12, 22, 40):
    write("error-packet", 0, doubled_chain(levels), f"doubled-chain-{levels}-levels")
for path in files("keyed/*/*.bplist")[:6]:
    write("error-packet", 0, path.read_bytes(), "not-an-error-" + path.stem)

# diff (Specs/fuzzing.md, "error-packet and diff"): documents whose second
# value the target derives from the first; peers' binary plists, keyed
# archives (compared as their userInfo, and with bit 2 as property lists),
# and documents of heavily shared objects (plistlib writes an object used
# twice once), deep, and of strings no terminal should see raw.
for path in files("plistlib/*.bplist")[:8] + files("plistutil/*.bplist")[:4] + files("foundation/*.bplist")[:4]:
    write("diff", 0, path.read_bytes(), path.stem)
for path in files("keyed/*/*.bplist")[:4]:
    write("diff", 0, path.read_bytes(), "archive-" + path.stem)
    write("diff", 4, path.read_bytes(), "archive-as-plist-" + path.stem)
records = [{"key%d" % n: "value %d" % n} for n in range(40)]
write("diff", 0, plistlib.dumps({"a": [records] * 30, "b": records}, fmt=plistlib.FMT_BINARY), "shared-records")
doubled = []
for _ in range(12):
    doubled = [doubled, doubled]
write("diff", 0, plistlib.dumps({"chain": doubled, "n": [1, 2, 3] * 5}, fmt=plistlib.FMT_BINARY), "doubled-chain-12")
deep = "leaf"
for level in range(200):
    deep = [deep] if level % 2 else {"d": deep}
write("diff", 0, plistlib.dumps(deep, fmt=plistlib.FMT_BINARY), "deep-200")
permuted = list(range(50)) + ["x", "y", 2.5, True, b"\x00", "x"]
write("diff", 0, plistlib.dumps({"list": permuted, "rev": permuted[::-1]}, fmt=plistlib.FMT_BINARY), "permuted-arrays")
unreadable = "a\u2028b\u2029c\u202ed\x1b[31m\x7f\u0085\u061c"
write("diff", 0, plistlib.dumps({unreadable: unreadable, "\u00e9": [unreadable], "nested": {"e\u0301": 1}},
                                fmt=plistlib.FMT_BINARY), "unreadable-strings")
write("diff", 2, plistlib.dumps({"a": [1, 2, {"b": [3.5, False]}]}, fmt=plistlib.FMT_BINARY), "small-tight-limits")

for target in ("binary-decode", "xml-decode", "keyed-decode", "payload-decode", "typed-json-read", "differential-foundation",
               "mp-decode", "container-decode", "openstep-read", "differential-libplist", "error-packet", "diff"):
    if not only or target in only:
        print(target, len(list((root / "Corpus" / target).iterdir())))
