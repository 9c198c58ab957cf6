import Foundation
import PropertyList
import TestSupport
import Testing
import TypedJSON

/// plutil's key-path verbs (Specs/plistkit.md, "Key paths"): extract, type,
/// insert, replace, remove, create; each run as the built binary, checking
/// stdout, stderr and the exit status, and that failed edits leave the file untouched.
@Suite("plistkit extract, type, insert, replace, remove, create")
struct EditCLITests {
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// A working copy of a document: {"a": {"b": 3, "c.d": [1, {"x": true}], "list": ["first", "hi"]}, "name": "café", …}.
    static func document(in directory: URL, format: String = "xml1") throws -> URL {
        let json = #"{"a":{"b":3,"c.d":[1,{"x":true}],"list":["first","hi"]},"name":"café","real":1.25,"blob":"x"}"#
        let source = directory.appendingPathComponent("source.json")
        try Data(json.utf8).write(to: source)
        let file = directory.appendingPathComponent("doc.plist")
        let converted = try run(CLITests.plistkit, ["convert", source.path, "--format", format, "-o", file.path])
        try #require(converted.status == 0, "\(text(converted.stderr))")
        // A date and data (which JSON cannot hold), inserted with the verbs under test.
        for (key, option, value) in [("when", "--date", "2001-01-01T00:00:10Z"), ("bytes", "--data", "AAEC")] where format != "json" {
            let inserted = try run(CLITests.plistkit, ["insert", key, file.path, option, value])
            try #require(inserted.status == 0, "\(text(inserted.stderr))")
        }
        return file
    }

    @Test("extract: raw scalars bare, escaped dots, array indices; other formats as documents")
    func extract() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.document(in: directory).path
        let cases: [(String, String)] = [("a.b", "3"), ("a.c\\.d.1.x", "true"), ("a.list.0", "first"), ("name", "café"),
                                         ("real", "1.25"), ("when", "2001-01-01T00:00:10Z"), ("bytes", "AAEC")]
        for (path, expected) in cases {
            let result = try run(CLITests.plistkit, ["extract", path, "raw", file])
            #expect(result.status == 0, "\(path): \(Self.text(result.stderr))")
            #expect(Self.text(result.stdout) == expected + "\n", "\(path)")
        }
        let json = try run(CLITests.plistkit, ["extract", "a.c\\.d", "json", file])
        #expect(json.status == 0)
        #expect(try PlainJSONReader().read(json.stdout) == .array([.integer(1), .dictionary(["x": .bool(true)])]))
        let xml = try run(CLITests.plistkit, ["extract", "a", "xml1", file])
        #expect(Self.text(xml.stdout).hasPrefix("<?xml"))
        // A container has no raw form; a wrong --expect fails; both exit 1 with the code.
        for (arguments, code) in [(["extract", "a", "raw", file], "notAScalar"),
                                  (["extract", "a.b", "raw", file, "--expect", "string"], "unexpectedType"),
                                  (["extract", "a.list.2", "raw", file], "indexOutOfRange"),
                                  (["extract", "a.list.x", "raw", file], "indexOutOfRange"),
                                  (["extract", "a.zz", "raw", file], "keyPathNotFound"),
                                  (["extract", "name.x", "raw", file], "notAContainer"),
                                  (["extract", "a\\x", "raw", file], "invalidKeyPath"),
                                  (["extract", "", "raw", file], "invalidKeyPath")] {
            let result = try run(CLITests.plistkit, arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(Self.text(result.stderr).contains(": \(code): "), "\(arguments): \(Self.text(result.stderr))")
            #expect(result.stdout.isEmpty)
        }
        let named = try run(CLITests.plistkit, ["extract", "a.zz.y", "raw", file])
        #expect(Self.text(named.stderr).contains(#"no value at "a.zz" (component 2 of 3, "zz")"#))
    }

    @Test("type: plutil's type names, and --expect")
    func types() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.document(in: directory).path
        for (path, name) in [("a", "dictionary"), ("a.list", "array"), ("a.b", "integer"), ("real", "float"), ("name", "string"),
                             ("a.c\\.d.1.x", "bool"), ("when", "date"), ("bytes", "data")] {
            let result = try run(CLITests.plistkit, ["type", path, file])
            #expect(Self.text(result.stdout) == name + "\n", "\(path)")
            #expect(try run(CLITests.plistkit, ["type", path, file, "--expect", name]).status == 0)
        }
        #expect(try run(CLITests.plistkit, ["type", "a", file, "--expect", "array"]).status == 1)
        #expect(try run(CLITests.plistkit, ["type", "a", file, "--expect", "thing"]).status == 64)
    }

    @Test("insert, replace, remove: in place, in the input's format; --append; indices insert before")
    func edits() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for format in ["xml1", "binary1", "json"] {
            let file = try Self.document(in: directory, format: format)
            let before = try Data(contentsOf: file)
            let steps: [[String]] = [
                ["insert", "a.list.0", file.path, "--string", "zero"],
                ["insert", "a.list", file.path, "--append", "--integer", "-7"],
                ["insert", "a.list.4", file.path, "--bool", "YES"],
                ["replace", "a.b", file.path, "--float", "2.5"],
                ["replace", "new", file.path, "--json", #"{"k":[1,2]}"#],
                ["insert", "a.e\\.f", file.path, "--dictionary"],
                ["remove", "a.list.1", file.path],
                ["remove", "name", file.path],
            ]
            for step in steps {
                let result = try run(CLITests.plistkit, step)
                #expect(result.status == 0, "\(format) \(step): \(Self.text(result.stderr))")
                #expect(result.stdout.isEmpty && result.stderr.isEmpty)
            }
            let after = try Data(contentsOf: file)
            #expect(after != before)
            // The format is kept.
            switch format {
            case "binary1": #expect(after.starts(with: Data("bplist00".utf8)))
            case "xml1": #expect(after.starts(with: Data("<?xml".utf8)))
            default: #expect(after.first == UInt8(ascii: "{"))
            }
            let list = try run(CLITests.plistkit, ["extract", "a.list", "json", file.path])
            #expect(try PlainJSONReader().read(list.stdout) == .array([.string("zero"), .string("hi"), .integer(-7), .bool(true)]), "\(format)")
            #expect(Self.text(try run(CLITests.plistkit, ["extract", "a.b", "raw", file.path]).stdout) == "2.5\n")
            #expect(Self.text(try run(CLITests.plistkit, ["extract", "new.k.1", "raw", file.path]).stdout) == "2\n")
            #expect(Self.text(try run(CLITests.plistkit, ["type", "a.e\\.f", file.path]).stdout) == "dictionary\n")
            #expect(try run(CLITests.plistkit, ["extract", "name", "raw", file.path]).status == 1)
        }
    }

    @Test("a failed edit leaves the file untouched: existing key, missing key, bad index, bad value, not a container")
    func failedEditsTouchNothing() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.document(in: directory)
        let before = try Data(contentsOf: file)
        let failures: [([String], Int32, String)] = [
            (["insert", "a.b", file.path, "--integer", "4"], 1, "valueExists"),
            (["insert", "a.list.3", file.path, "--integer", "4"], 1, "indexOutOfRange"),
            (["replace", "a.list.2", file.path, "--integer", "4"], 1, "indexOutOfRange"),
            (["insert", "zz.y", file.path, "--integer", "4"], 1, "keyPathNotFound"),
            (["insert", "name.y", file.path, "--integer", "4"], 1, "notAContainer"),
            (["insert", "a.b", file.path, "--append", "--integer", "4"], 1, "notAContainer"),
            // The array's count names no array to append to (it trapped until the edit oracle, 2026-11-26).
            (["insert", "a.list.2", file.path, "--append", "--integer", "4"], 1, "indexOutOfRange"),
            (["remove", "a.nothing", file.path], 1, "keyPathNotFound"),
            (["remove", "a.list.9", file.path], 1, "indexOutOfRange"),
            (["insert", "k", file.path, "--integer", "1.5"], 64, "usage"),
            (["insert", "k", file.path, "--bool", "maybe"], 64, "usage"),
            (["insert", "k", file.path, "--date", "yesterday"], 64, "usage"),
            (["insert", "k", file.path, "--data", "AAE"], 64, "usage"),
            (["insert", "k", file.path, "--json", "{\"a\":null}"], 64, "usage"),
            (["insert", "k", file.path, "--string", "a", "--integer", "1"], 64, "usage"),
            (["insert", "k", file.path], 64, "usage"),
        ]
        for (arguments, status, code) in failures {
            let result = try run(CLITests.plistkit, arguments)
            #expect(result.status == status, "\(arguments): \(Self.text(result.stderr))")
            #expect(Self.text(result.stderr).contains(code), "\(arguments): \(Self.text(result.stderr))")
            #expect(try Data(contentsOf: file) == before, "\(arguments) changed the file")
        }
        // Nothing left beside it (no temporary files).
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["doc.plist", "source.json"])
    }

    @Test("-o and --format write elsewhere or in another format; '-' edits standard input to standard output")
    func outputs() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.document(in: directory)
        let before = try Data(contentsOf: file)
        let copy = directory.appendingPathComponent("copy.bplist")
        let result = try run(CLITests.plistkit, ["insert", "extra", file.path, "--string", "x", "-o", copy.path, "--format", "binary1"])
        #expect(result.status == 0)
        #expect(try Data(contentsOf: file) == before)
        #expect(try Data(contentsOf: copy).starts(with: Data("bplist00".utf8)))
        let piped = try run(CLITests.plistkit, ["remove", "a", "-", "--format", "binary1"], stdin: before)
        #expect(piped.status == 0)
        #expect(piped.stdout.starts(with: Data("bplist00".utf8)))
        #expect(try BinaryPropertyListReader().read(piped.stdout).dictionaryValue?["a"] == nil)
        #expect(try BinaryPropertyListReader().read(piped.stdout).dictionaryValue?["name"] == "café")
        // A key that starts with '-': options first, then '--' ends them.
        let dashed = try run(CLITests.plistkit, ["insert", "--string", "v", "--", "-k", file.path])
        #expect(dashed.status == 0, "\(Self.text(dashed.stderr))")
        let read = try run(CLITests.plistkit, ["extract", "--", "-k", "raw", file.path])
        #expect(Self.text(read.stdout) == "v\n")
    }

    @Test("create writes an empty dictionary in each format; convert reads plain JSON")
    func createAndJSON() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (format, prefix) in [("xml1", "<?xml"), ("binary1", "bplist00"), ("json", "{}")] {
            let file = directory.appendingPathComponent("new.\(format)")
            #expect(try run(CLITests.plistkit, ["create", format, file.path]).status == 0)
            let bytes = try Data(contentsOf: file)
            #expect(bytes.starts(with: Data(prefix.utf8)), "\(format)")
            #expect(Self.text(try run(CLITests.plistkit, ["type", "x", file.path]).stderr).contains("keyPathNotFound"))
        }
        #expect(Self.text(try run(CLITests.plistkit, ["create", "xml1", "-"]).stdout).contains("<dict/>"))
        // Plain JSON in, checked by Python's plistlib reading our XML out.
        let json = directory.appendingPathComponent("in.json")
        try Data(#"{"n":18446744073709551615,"r":0.5,"s":"é","l":[true,false],"d":{}}"#.utf8).write(to: json)
        let converted = try run(CLITests.plistkit, ["convert", json.path, "--format", "xml1"])
        #expect(converted.status == 0)
        let value = try Document.readXML(converted.stdout)
        #expect(value == .dictionary(["n": .integer(PropertyListInteger(UInt64.max)), "r": .real(0.5), "s": .string("é"),
                                      "l": .array([.bool(true), .bool(false)]), "d": .dictionary([:])]))
        for bad in [#"{"a":null}"#, #"{"a":1,"a":2}"#, "[1,]", #"{"n":18446744073709551616}"#] {
            try Data(bad.utf8).write(to: json)
            let refused = try run(CLITests.plistkit, ["convert", json.path, "--format", "xml1"])
            #expect(refused.status == 1, "\(bad)")
        }
    }
}

private enum Document {
    /// Our XML output read by plistlib (a peer) into typed JSON, then into a value.
    static func readXML(_ bytes: Data) throws -> PropertyListValue {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("out.plist")
        try bytes.write(to: file)
        let readings = try Peers.plistlib([file])
        return try readings[0].get()
    }
}

/// Output style (Specs/plistkit.md, "Key order"): key order, readable JSON, -e, lint -s.
@Suite("plistkit output style: --key-order, -r, -e, lint -s")
struct StyleCLITests {
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test("--key-order insertion keeps the input's order in every format; sorted (the default) sorts")
    func keyOrder() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("in.json")
        try Data(#"{"z":1,"a":{"y":[1,2],"b":true},"m":"x"}"#.utf8).write(to: source)
        let compact = try run(CLITests.plistkit, ["convert", source.path, "--format", "json", "--key-order", "insertion"])
        #expect(Self.text(compact.stdout) == #"{"z":1,"a":{"y":[1,2],"b":true},"m":"x"}"#)
        let sorted = try run(CLITests.plistkit, ["convert", source.path, "--format", "json"])
        #expect(Self.text(sorted.stdout) == #"{"a":{"b":true,"y":[1,2]},"m":"x","z":1}"#)
        for format in ["xml1", "binary1"] {
            let file = directory.appendingPathComponent("out.\(format)")
            #expect(try run(CLITests.plistkit, ["convert", source.path, "--format", format, "--key-order", "insertion", "-o", file.path]).status == 0)
            // Read back (our readers keep the file's order) and written as JSON in that order.
            let back = try run(CLITests.plistkit, ["convert", file.path, "--format", "json", "--key-order", "insertion"])
            #expect(Self.text(back.stdout) == #"{"z":1,"a":{"y":[1,2],"b":true},"m":"x"}"#, "\(format)")
            // Edits keep it too.
            #expect(try run(CLITests.plistkit, ["insert", "c", file.path, "--integer", "3", "--key-order", "insertion"]).status == 0)
            let edited = try run(CLITests.plistkit, ["convert", file.path, "--format", "json", "--key-order", "insertion"])
            #expect(Self.text(edited.stdout) == #"{"z":1,"a":{"y":[1,2],"b":true},"m":"x","c":3}"#, "\(format)")
        }
    }

    @Test("-r writes readable JSON that Python's json reads to the same value as the compact form")
    func readableJSON() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("in.json")
        try Data(#"{"a":{"b":true,"e":[],"f":{}},"l":[1,[2,"é"]],"n":-0.5}"#.utf8).write(to: source)
        let readable = try run(CLITests.plistkit, ["convert", source.path, "--format", "json", "-r"])
        #expect(Self.text(readable.stdout).hasPrefix("{\n  \"a\" : {\n    \"b\" : true,"))
        #expect(Self.text(readable.stdout).hasSuffix("}\n"))
        let compact = try run(CLITests.plistkit, ["convert", source.path, "--format", "json"])
        let script = "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); print(a == b)"
        let readableFile = directory.appendingPathComponent("r.json"), compactFile = directory.appendingPathComponent("c.json")
        try readable.stdout.write(to: readableFile)
        try compact.stdout.write(to: compactFile)
        let same = try run("/usr/bin/env", ["python3", "-c", script, readableFile.path, compactFile.path])
        #expect(Self.text(same.stdout) == "True\n")
    }

    @Test("-e writes beside the input with another extension; lint -s prints only failures")
    func extensionAndSilent() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("settings.json")
        try Data(#"{"a":1}"#.utf8).write(to: source)
        let converted = try run(CLITests.plistkit, ["convert", source.path, "--format", "binary1", "-e", "plist"])
        #expect(converted.status == 0 && converted.stdout.isEmpty)
        let written = directory.appendingPathComponent("settings.plist")
        #expect(try Data(contentsOf: written).starts(with: Data("bplist00".utf8)))
        #expect(try run(CLITests.plistkit, ["convert", source.path, "--format", "xml1", "-e", "x", "-o", directory.appendingPathComponent("o").path]).status == 64)
        #expect(try run(CLITests.plistkit, ["convert", "-", "--format", "xml1", "-e", "x"], stdin: Data()).status == 64)
        let bad = directory.appendingPathComponent("bad.plist")
        try Data("bplist00".utf8).write(to: bad)
        let silent = try run(CLITests.plistkit, ["lint", "-s", written.path, bad.path])
        #expect(silent.status == 1)
        let lines = Self.text(silent.stdout).split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix(bad.path + ": truncated"), "\(lines)")
        let quiet = try run(CLITests.plistkit, ["lint", "--silent", written.path])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty)
    }
}

/// `convert --format swift|objc` (Specs/plistkit.md, "Literals").
@Suite("plistkit convert --format swift|objc")
struct LiteralCLITests {
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test("Swift literals of golden and awkward documents type-check with the Swift compiler")
    func swiftCompiles() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let awkward = directory.appendingPathComponent("my settings-2.json")
        try Data(#"{"q":"a \"b\" \\ c\n\t\u0001 é 😀","n":-9223372036854775808,"u":18446744073709551615,"r":1e-300,"e":{},"l":[],"m":[1,"x"]}"#.utf8).write(to: awkward)
        var program = ""
        var names: [String] = []
        for source in [awkward.path, Paths.golden.appendingPathComponent("plistlib/empty-containers.bplist").path,
                       Paths.golden.appendingPathComponent("plistlib/long-strings.bplist").path,
                       Paths.golden.appendingPathComponent("plistlib/array-of-dicts.bplist").path,
                       Paths.golden.appendingPathComponent("plistlib/top-empty-array.bplist").path] {
            let result = try run(CLITests.plistkit, ["convert", source, "--format", "swift"])
            #expect(result.status == 0, "\(source): \(Self.text(result.stderr))")
            let text = Self.text(result.stdout)
            #expect(text.hasPrefix("/// Generated from "))
            program += text
            names.append(String(text.split(separator: "\n")[1].dropFirst(4).prefix { $0 != " " }))
        }
        #expect(names.first == "my_settings_2")
        program = "import Foundation\n" + program + names.map { "print(\($0).count)\n" }.joined()
        let file = directory.appendingPathComponent("literals.swift")
        try Data(program.utf8).write(to: file)
        let compiled = try run("/usr/bin/env", ["swiftc", "-typecheck", file.path])
        #expect(compiled.status == 0, "\(Self.text(compiled.stderr))\n\(program)")
    }

    @Test("Objective-C literals: boxed numbers, escaped strings, plutil's layout; no dates or data; a scalar at the top is refused")
    func objc() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("config.json")
        try Data(#"{"b":true,"n":-3,"s":"say \"hi\"","l":[1.5]}"#.utf8).write(to: source)
        let out = directory.appendingPathComponent("config.m")
        #expect(try run(CLITests.plistkit, ["convert", source.path, "--format", "objc", "-o", out.path]).status == 0)
        let expected = """
        #import "config.h"

        /// Generated from config.json
        __attribute__((visibility("hidden")))
        NSDictionary * const config = @{
            @"b" : @YES,
            @"l" : @[
                @1.5,
            ],
            @"n" : @-3,
            @"s" : @"say \\"hi\\"",
        };

        """
        #expect(Self.text(try Data(contentsOf: out)) == expected)
        let data = try run(CLITests.plistkit, ["convert", Paths.golden.appendingPathComponent("plistlib/scalars.bplist").path, "--format", "objc"])
        #expect(data.status == 1)
        #expect(Self.text(data.stderr).contains(": unrepresentableValue: Objective-C literals cannot hold a"))
        try Data(#""just a string""#.utf8).write(to: source)
        let scalar = try run(CLITests.plistkit, ["convert", source.path, "--format", "swift"])
        #expect(scalar.status == 1)
        #expect(Self.text(scalar.stderr).contains("needs a dictionary or an array at the top"))
    }
}

@Suite("plistkit convert --from typed-json, extract -n, convert --header")
struct MoreOptionsCLITests {
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test("--from typed-json reads typed JSON back to the same property list; extract -n drops the newline; --header writes FILE.h")
    func options() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let golden = Paths.golden.appendingPathComponent("plistlib/scalars.bplist").path
        let typed = try run(CLITests.plistkit, ["convert", golden, "--format", "typed-json"])
        let typedFile = directory.appendingPathComponent("s.json")
        try typed.stdout.write(to: typedFile)
        let binary = directory.appendingPathComponent("s.bplist")
        #expect(try run(CLITests.plistkit, ["convert", typedFile.path, "--from", "typed-json", "--format", "binary1", "-o", binary.path]).status == 0)
        #expect(try BinaryPropertyListReader().read(Data(contentsOf: binary)) == BinaryPropertyListReader().read(Data(contentsOf: URL(fileURLWithPath: golden))))
        // Without --from, typed JSON is plain JSON (a dictionary of "type" and "value").
        let plain = try run(CLITests.plistkit, ["type", "type", typedFile.path])
        #expect(Self.text(plain.stdout) == "string\n")
        let source = directory.appendingPathComponent("app-config.json")
        try Data(#"{"k":"v"}"#.utf8).write(to: source)
        let raw = try run(CLITests.plistkit, ["extract", "k", "raw", "-n", source.path])
        #expect(raw.stdout == Data("v".utf8))
        let output = directory.appendingPathComponent("Config.m")
        #expect(try run(CLITests.plistkit, ["convert", source.path, "--format", "objc", "--header", "-o", output.path]).status == 0)
        let header = Self.text(try Data(contentsOf: directory.appendingPathComponent("Config.h")))
        #expect(header.hasPrefix("#import <Foundation/Foundation.h>\n"))
        #expect(header.contains("extern NSDictionary * const app_config;"))
        #expect(Self.text(try Data(contentsOf: output)).hasPrefix("#import \"Config.h\"\n"))
        #expect(try run(CLITests.plistkit, ["convert", source.path, "--format", "objc", "--header"]).status == 64)
        #expect(try run(CLITests.plistkit, ["convert", source.path, "--format", "swift", "--header", "-o", output.path]).status == 64)
    }
}

/// OpenStep input (Specs/plistkit.md, "Key paths": detection; Specs/openstep.md).
@Suite("plistkit reads OpenStep text and .strings files")
struct OpenStepCLITests {
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test("print, convert and extract read OpenStep; an edit writes it back in its own form; errors come from the reader that read further")
    func openStep() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let strings = directory.appendingPathComponent("Localizable.strings")
        try Data("/* Greeting */\n\"hello\" = \"Bonjour\";\n\"OK\";\n".utf8).write(to: strings)
        let json = try run(CLITests.plistkit, ["convert", strings.path, "--format", "json"])
        #expect(Self.text(json.stdout) == #"{"OK":"OK","hello":"Bonjour"}"#)
        let project = directory.appendingPathComponent("project.pbxproj")
        try Data("// !$*UTF8*$!\n{ objects = { A1 /* x */ = { isa = PBXFileReference; path = \"a b.swift\"; }; }; rootObject = A1; }\n".utf8).write(to: project)
        #expect(Self.text(try run(CLITests.plistkit, ["extract", "objects.A1.path", "raw", project.path]).stdout) == "a b.swift\n")
        let printed = try run(CLITests.plistkit, ["print", project.path])
        #expect(printed.status == 0 && Self.text(printed.stdout).contains("\"isa\" => \"PBXFileReference\""))
        // An edit of a project writes it back in Xcode's layout.
        #expect(try run(CLITests.plistkit, ["insert", "extra", project.path, "--string", "x"]).status == 0)
        #expect(Self.text(try Data(contentsOf: project)) == """
            // !$*UTF8*$!
            {
            \textra = x;
            \tobjects = {

            /* Begin PBXFileReference section */
            \t\tA1 /* a b.swift */ = {isa = PBXFileReference; path = "a b.swift"; };
            /* End PBXFileReference section */
            \t};
            \trootObject = A1 /* a b.swift */;
            }

            """)
        let converted = directory.appendingPathComponent("project.xml")
        #expect(try run(CLITests.plistkit, ["insert", "more", project.path, "--string", "x", "--format", "xml1", "-o", converted.path]).status == 0)
        #expect(Self.text(try run(CLITests.plistkit, ["extract", "more", "raw", converted.path]).stdout) == "x\n")
        // --format openstep writes it in the generic layout; convert writes OpenStep and .strings.
        #expect(try run(CLITests.plistkit, ["insert", "more", project.path, "--string", "y z", "--format", "openstep"]).status == 0)
        #expect(Self.text(try run(CLITests.plistkit, ["extract", "more", "raw", project.path]).stdout) == "y z\n")
        let openStepText = try run(CLITests.plistkit, ["convert", strings.path, "--format", "openstep"])
        #expect(Self.text(openStepText.stdout) == "{\n\tOK = OK;\n\thello = Bonjour;\n}\n")
        // A .strings file converted to one is itself (written over its own text), unless asked to sort.
        let stringsText = try run(CLITests.plistkit, ["convert", strings.path, "--format", "strings"])
        #expect(stringsText.stdout == (try Data(contentsOf: strings)))
        let sortedText = try run(CLITests.plistkit, ["convert", strings.path, "--format", "strings", "--key-order", "sorted"])
        #expect(Self.text(sortedText.stdout) == "\"OK\" = \"OK\";\n\"hello\" = \"Bonjour\";\n")
        // An Xcode project edited in place changes exactly the edited line.
        let peerProject = directory.appendingPathComponent("peer.pbxproj")
        let original = try Data(contentsOf: Paths.golden.appendingPathComponent("openstep/project.pbxproj"))
        try original.write(to: peerProject)
        #expect(try run(CLITests.plistkit, ["convert", peerProject.path, "--format", "pbxproj"]).stdout == original)
        // The project's name: --project-name (with pbxproj only), else the path, else as the text records it.
        let named = Self.text(try run(CLITests.plistkit, ["convert", project.path, "--format", "pbxproj", "--project-name", "Planner"]).stdout)
        #expect(try run(CLITests.plistkit, ["convert", project.path, "--format", "json", "--project-name", "Planner"]).status == 64)
        let bundle = directory.appendingPathComponent("Trips.xcodeproj")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let inBundle = bundle.appendingPathComponent("project.pbxproj")
        try Data(#"{ objects = { P = { isa = PBXProject; buildConfigurationList = L; }; L = { isa = XCConfigurationList; }; }; rootObject = P; }"#.utf8).write(to: inBundle)
        let fromPath = Self.text(try run(CLITests.plistkit, ["convert", inBundle.path, "--format", "pbxproj"]).stdout)
        #expect(fromPath.contains("L /* Build configuration list for PBXProject \"Trips\" */"))
        let piped = try run(CLITests.plistkit, ["convert", "-", "--format", "pbxproj"], stdin: Data(fromPath.utf8))
        #expect(Self.text(piped.stdout) == fromPath)
        #expect(!named.isEmpty)
        #expect(try run(CLITests.plistkit, ["replace", "objects.DDDDDDDDDDDDDDDDDDDDDDDD.buildSettings.SWIFT_VERSION", peerProject.path,
                                            "--string", "6.0"]).status == 0)
        let linesBefore = Self.text(original).split(separator: "\n", omittingEmptySubsequences: false)
        let linesAfter = Self.text(try Data(contentsOf: peerProject)).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(linesBefore.count == linesAfter.count)
        let changed = zip(linesBefore, linesAfter).filter { $0 != $1 }
        #expect(changed.count == 1 && changed.first?.1 == "\t\t\t\tSWIFT_VERSION = 6.0;", "\(changed)")
        // JSON and OpenStep both refuse: the error of the one that read further.
        let brokenJSON = directory.appendingPathComponent("a.json")
        try Data(#"{"a": [1, 2"#.utf8).write(to: brokenJSON)
        #expect(Self.text(try run(CLITests.plistkit, ["print", brokenJSON.path]).stderr).contains(": invalidJSON: "))
        let brokenOpenStep = directory.appendingPathComponent("b.plist")
        try Data("{ a = (1, 2); b = c }".utf8).write(to: brokenOpenStep)
        let error = Self.text(try run(CLITests.plistkit, ["print", brokenOpenStep.path]).stderr)
        #expect(error.contains(": unexpectedCharacter: expected ';' after the value of \"b\""), "\(error)")
    }

    @Test("a UTF-16 .strings file: every verb reads it; an edit keeps its encoding, byte-order mark, order and comments")
    func utf16Strings() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for encoding in [TextEncoding.utf16LittleEndian, .utf16BigEndian, .utf8WithByteOrderMark, .utf8] {
            let file = directory.appendingPathComponent("\(encoding.rawValue).strings")
            try Data(encoding.encode("/* Title of the window */\n\"title\" = \"Fenêtre\";\n\"about\" = \"À propos\";\n")).write(to: file)
            #expect(Self.text(try run(CLITests.plistkit, ["lint", file.path]).stdout) == "\(file.path): OK\n")
            #expect(Self.text(try run(CLITests.plistkit, ["type", "title", file.path]).stdout) == "string\n")
            #expect(Self.text(try run(CLITests.plistkit, ["extract", "about", "raw", file.path]).stdout) == "À propos\n")
            #expect(Self.text(try run(CLITests.plistkit, ["print", file.path]).stdout).contains("\"title\" => \"Fenêtre\""))
            #expect(try run(CLITests.plistkit, ["replace", "title", file.path, "--string", "Fenêtre principale"]).status == 0)
            #expect(try run(CLITests.plistkit, ["insert", "close", file.path, "--string", "Fermer"]).status == 0)
            // Only the edited entry changes; the comment and the other entry stay; the new key comes last.
            let expected = encoding.encode("/* Title of the window */\n\"title\" = \"Fenêtre principale\";\n\"about\" = \"À propos\";\n\"close\" = \"Fermer\";\n")
            #expect([UInt8](try Data(contentsOf: file)) == expected, "\(encoding)")
        }
        // A comment-only .strings file (Xcode's template) is an empty dictionary; zero bytes are not a document.
        let template = directory.appendingPathComponent("InfoPlist.strings")
        try Data(TextEncoding.utf16LittleEndian.encode("/* \n  InfoPlist.strings\n*/\n")).write(to: template)
        #expect(Self.text(try run(CLITests.plistkit, ["convert", template.path, "--format", "json"]).stdout) == "{}")
        let empty = directory.appendingPathComponent("Empty.strings")
        try Data().write(to: empty)
        #expect(Self.text(try run(CLITests.plistkit, ["lint", empty.path]).stdout) == "\(empty.path): truncated: the text is empty (at line 1, column 1)\n")
        #expect(try run(CLITests.plistkit, ["create", "strings", empty.path]).status == 64)
    }
}

/// `plistkit unarchive --graph` and `print` of archives of any class (Specs/keyed-archive.md, "Graph").
@Suite("plistkit unarchive --graph")
struct GraphCLITests {
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test("any archive as a graph in typed JSON or JSON; print shows it; the ten-type unarchive still refuses custom classes")
    func graph() throws {
        let tree = Paths.golden.appendingPathComponent("keyed/graph/tree-with-cycle.bplist").path
        let json = try run(CLITests.plistkit, ["unarchive", "--graph", tree, "--format", "json"])
        #expect(json.status == 0, "\(Self.text(json.stderr))")
        let value = try PlainJSONReader().read(json.stdout)
        #expect(value["top"]?["root"] == .dictionary(["$ref": 1]))
        // Each class once, objects referring to it (Specs/keyed-archive.md, "Graph").
        #expect(value["objects"]?["1"]?["$class"] == .dictionary(["$ref": 9]))
        #expect(value["objects"]?["9"]?["$classname"] == "graph_write.Node")
        #expect(value["objects"]?["4"]?["parent"] == .dictionary(["$ref": 1]))
        let typed = try run(CLITests.plistkit, ["unarchive", "--graph", tree])
        #expect(typed.status == 0)
        #expect(try TypedJSONReader().readPropertyList(typed.stdout)["objects"]?["8"] == "shared tag")
        let plain = try run(CLITests.plistkit, ["unarchive", tree])
        #expect(plain.status == 1 && Self.text(plain.stderr).contains(": classNotAllowed: "))
        let printed = try run(CLITests.plistkit, ["print", tree])
        #expect(printed.status == 0 && Self.text(printed.stdout).contains("\"$classname\" => \"graph_write.Node\""))
        #expect(try run(CLITests.plistkit, ["unarchive", tree, "--format", "json"]).status == 64)
    }
}
