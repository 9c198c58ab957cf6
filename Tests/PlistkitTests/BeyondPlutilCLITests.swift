import Foundation
import PropertyList
import PropertyListXML
import TestSupport
import Testing

/// The verbs beyond plutil (Specs/plistkit.md, "Diff", "Merge", "Many
/// files"), run as the built binary.
@Suite("plistkit diff, merge, and many files at once")
struct BeyondPlutilCLITests {
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// Writes `json` as a plain-JSON file and converts it to `format` beside it.
    static func document(_ json: String, _ format: String, named name: String, in directory: URL) throws -> String {
        let source = directory.appendingPathComponent(name + ".source.json")
        try Data(json.utf8).write(to: source)
        let file = directory.appendingPathComponent(name).path
        let converted = try run(CLITests.plistkit, ["convert", source.path, "--format", format, "-o", file])
        try #require(converted.status == 0, "\(text(converted.stderr))")
        return file
    }

    @Test("diff: equal across formats (exit 0, no output); differences one line each (exit 1); unreadable exit 2")
    func diffAcrossFormats() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = #"{"name":"Trip","stops":[{"city":"Paris"},{"city":"Lyon"}],"count":3,"ratio":1.5,"flags":{"wifi":true}}"#
        let binary = try Self.document(json, "binary1", named: "a.plist", in: directory)
        let xml = try Self.document(json, "xml1", named: "b.plist", in: directory)
        let openstep = try Self.document(json, "openstep", named: "c.plist", in: directory)
        for other in [xml, openstep] {
            let same = try run(CLITests.plistkit, ["diff", binary, other])
            #expect(same.status == 0, "\(Self.text(same.stderr))")
            #expect(same.stdout.isEmpty)
        }
        let edited = try Self.document(#"{"name":"Trip","stops":[{"city":"Paris"},{"city":"Nice"},{"city":"Lyon"}],"count":3.0,"flags":{"wifi":true,"power":false}}"#,
                                       "xml1", named: "d.plist", in: directory)
        let differ = try run(CLITests.plistkit, ["diff", binary, edited])
        #expect(differ.status == 1)
        #expect(Self.text(differ.stdout) == """
            type "count": integer 3 -> real 3.0
            added "flags.power": false
            removed "ratio": 1.5
            changed "stops.1.city": "Lyon" -> "Nice"
            added "stops.2": {"city": "Lyon"}

            """)
        // Moved members matched: the insertion is one added member, Lyon a move.
        let moved = try run(CLITests.plistkit, ["diff", "--match-moved", binary, edited])
        #expect(Self.text(moved.stdout).contains(#"moved "stops": 1 -> 2 ({"city": "Lyon"})"#))
        #expect(Self.text(moved.stdout).contains(#"added "stops.1": {"city": "Nice"}"#))
        // JSON for machines: an array of objects with typed-JSON values.
        let machine = try run(CLITests.plistkit, ["diff", "--format", "json", binary, edited])
        #expect(machine.status == 1)
        let objects = try #require(try JSONSerialization.jsonObject(with: machine.stdout) as? [[String: Any]])
        #expect(objects.map { $0["kind"] as? String } == ["type", "added", "removed", "changed", "added"])
        #expect((objects[0]["new"] as? [String: Any])?["type"] as? String == "real")
        #expect(objects[3]["path"] as? [AnyHashable] == ["stops", 1, "city"])
        // Unreadable: exit 2, the input's error line.
        let broken = directory.appendingPathComponent("broken.plist")
        try Data("<plist><dict><key>a</key></dict></plist>".utf8).write(to: broken)
        let unreadable = try run(CLITests.plistkit, ["diff", binary, broken.path])
        #expect(unreadable.status == 2)
        #expect(Self.text(unreadable.stderr).hasPrefix("plistkit: \(broken.path): "))
        let missing = try run(CLITests.plistkit, ["diff", binary, directory.appendingPathComponent("none").path])
        #expect(missing.status == 2)
        #expect(Self.text(missing.stderr).contains(": readFailed: "))
        #expect(try run(CLITests.plistkit, ["diff", "-", "-"]).status == 64)
    }

    @Test("diff: an activity container, its typed-JSON envelope and a keyed archive of its userInfo compare as values")
    func diffWireForms() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let envelope = directory.appendingPathComponent("envelope.json")
        let userInfo = #"{"type":"dict","value":{"id":{"type":"uuid","value":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"},"tags":{"type":"set","value":[{"type":"string","value":"a"},{"type":"null"}]},"when":{"type":"date","value":"2001-01-01T00:00:00.5Z"}}}"#
        try Data((#"{"type":"dict","value":{"activityType":{"type":"string","value":"com.example.planner.edit"},"userInfo":"# + userInfo + "}}").utf8).write(to: envelope)
        let container = directory.appendingPathComponent("activity.bin").path
        let encoded = try run(CLITests.plistkit, ["payload", "encode", envelope.path, "-o", container])
        try #require(encoded.status == 0, "\(Self.text(encoded.stderr))")
        let decoded = directory.appendingPathComponent("decoded.json").path
        try #require(try run(CLITests.plistkit, ["payload", "decode", container, "-o", decoded]).status == 0)
        let same = try run(CLITests.plistkit, ["diff", container, decoded, "--from-b", "typed-json"])
        #expect(same.status == 0, "\(Self.text(same.stdout))\(Self.text(same.stderr))")
        // The userInfo alone, archived, against the same userInfo as typed JSON; then one member changed.
        let userInfoFile = directory.appendingPathComponent("userinfo.json")
        try Data(userInfo.utf8).write(to: userInfoFile)
        let archive = directory.appendingPathComponent("userinfo.archive").path
        try #require(try run(CLITests.plistkit, ["archive", userInfoFile.path, "-o", archive]).status == 0)
        #expect(try run(CLITests.plistkit, ["diff", archive, userInfoFile.path, "--from-b", "typed-json"]).status == 0)
        let changed = directory.appendingPathComponent("changed.json")
        try Data(userInfo.replacingOccurrences(of: #""value":"a""#, with: #""value":"b""#).utf8).write(to: changed)
        let differ = try run(CLITests.plistkit, ["diff", archive, changed.path, "--from-b", "typed-json"])
        #expect(differ.status == 1)
        #expect(Self.text(differ.stdout) == "removed \"tags\": \"a\"\nadded \"tags\": \"b\"\n")
        // Typed JSON is never guessed: read as plain JSON it is another value.
        #expect(try run(CLITests.plistkit, ["diff", archive, userInfoFile.path]).status == 1)
    }

    @Test("diff: dates at the precision both documents keep (XML drops the fraction)")
    func diffDatePrecision() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = try Self.document(#"{"a":1}"#, "binary1", named: "d.plist", in: directory)
        #expect(try run(CLITests.plistkit, ["insert", "when", binary, "--date", "2001-01-01T00:00:10Z"]).status == 0)
        let typed = directory.appendingPathComponent("t.json")
        try Data(#"{"type":"dict","value":{"a":{"type":"integer","value":"1"},"when":{"type":"date","value":"2001-01-01T00:00:10.25Z"}}}"#.utf8).write(to: typed)
        let fractional = directory.appendingPathComponent("f.plist").path
        try #require(try run(CLITests.plistkit, ["convert", typed.path, "--from", "typed-json", "--format", "binary1", "-o", fractional]).status == 0)
        let xml = directory.appendingPathComponent("f.xml").path
        try #require(try run(CLITests.plistkit, ["convert", fractional, "--format", "xml1", "-o", xml]).status == 0)
        // Binary against its own XML conversion: equal (the XML kept 10 s of 10.25 s).
        #expect(try run(CLITests.plistkit, ["diff", fractional, xml]).status == 0)
        // Two binary files: 10 s and 10.25 s differ.
        let exact = try run(CLITests.plistkit, ["diff", binary, fractional])
        #expect(exact.status == 1)
        #expect(Self.text(exact.stdout) == "changed \"when\": 2001-01-01T00:00:10Z -> 2001-01-01T00:00:10.25Z\n")
    }

    @Test("diff: keys and values with controls and bidirectional overrides print escaped")
    func diffEscapes() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try Self.document(#"{"k\u001b[2J\n\u202e":"x"}"#, "binary1", named: "a.plist", in: directory)
        let b = try Self.document(#"{"k\u001b[2J\n\u202e":"y\r"}"#, "binary1", named: "b.plist", in: directory)
        let result = try run(CLITests.plistkit, ["diff", a, b])
        #expect(result.status == 1)
        let output = Self.text(result.stdout)
        #expect(output == "changed \"k\\u001b[2J\\n\\u202e\": \"x\" -> \"y\\r\"\n")
        #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x202E })
    }

    @Test("merge: PlistBuddy's Merge — DEST's keys kept with a warning, --overwrite, arrays appended, in DEST's format")
    func merge() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = try Self.document(#"{"a":1,"b":{"x":[1]},"list":["first"]}"#, "binary1", named: "dest.plist", in: directory)
        let source = try Self.document(#"{"a":2,"c":"new"}"#, "xml1", named: "src.plist", in: directory)
        let merged = try run(CLITests.plistkit, ["merge", destination, source])
        #expect(merged.status == 0)
        #expect(Self.text(merged.stderr) == "plistkit: warning: kept DEST's value for \"a\" (SRC's skipped; --overwrite takes it)\n")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: destination))
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        #expect(try BinaryPropertyListReader().read(bytes) == ["a": 1, "b": ["x": [1]], "list": ["first"], "c": "new"])
        // --overwrite; into a dictionary at a key path; an array gets a dictionary's values appended.
        #expect(try run(CLITests.plistkit, ["merge", destination, source, "--overwrite"]).stderr.isEmpty)
        #expect(try run(CLITests.plistkit, ["merge", destination, source, "b"]).status == 0)
        #expect(try run(CLITests.plistkit, ["merge", destination, source, "list"]).status == 0)
        #expect(try BinaryPropertyListReader().read(try Data(contentsOf: URL(fileURLWithPath: destination)))
            == ["a": 2, "b": ["x": [1], "a": 2, "c": "new"], "list": ["first", 2, "new"], "c": "new"])
        // Refusals leave DEST as it was.
        let before = try Data(contentsOf: URL(fileURLWithPath: destination))
        let array = try Self.document(#"[1,2]"#, "xml1", named: "array.plist", in: directory)
        for (arguments, code) in [(["merge", destination, array], "notMergeable"),
                                  (["merge", destination, source, "a"], "notMergeable"),
                                  (["merge", destination, source, "zz"], "keyPathNotFound"),
                                  (["merge", destination, source, "list.9"], "indexOutOfRange")] {
            let result = try run(CLITests.plistkit, arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(Self.text(result.stderr).contains(": \(code): "), "\(arguments): \(Self.text(result.stderr))")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == before)
        // A scalar SRC cannot be merged.
        let scalar = directory.appendingPathComponent("scalar.plist")
        try Data("\"word\"".utf8).write(to: scalar)
        #expect(Self.text(try run(CLITests.plistkit, ["merge", destination, scalar.path]).stderr).contains(": notMergeable: "))
    }

    @Test("print: a text starting with MP that MP refuses and that reads as a property list is that text (Specs/plistkit.md, \"Wire forms\")")
    func printReadsTextStartingWithMP() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let strings = directory.appendingPathComponent("Localizable.strings")
        try Data("MP = \"x\";\n".utf8).write(to: strings)
        let printed = try run(CLITests.plistkit, ["print", strings.path])
        #expect(printed.status == 0 && Self.text(printed.stdout) == "{\n  \"MP\" => \"x\"\n}\n", "\(Self.text(printed.stderr))")
        // Neither MP nor a property list: the MP reader's refusal stands.
        let neither = directory.appendingPathComponent("neither.bin")
        try Data([0x4D, 0x50, 0x03, 0x05, 0xC1]).write(to: neither)
        let refused = try run(CLITests.plistkit, ["print", neither.path])
        #expect(refused.status == 1 && !Self.text(refused.stderr).contains("unknownFormat"), "\(Self.text(refused.stderr))")
    }

    @Test("merge: a wire form as SRC (an MP userInfo, an activity container) is unknownFormat, as for edits (Specs/plistkit.md, \"Input formats\", \"Merge\"; issue 42)")
    func mergeRefusesWireForms() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = try Self.document(#"{"a":1}"#, "xml1", named: "dest.plist", in: directory)
        let before = try Data(contentsOf: URL(fileURLWithPath: destination))
        // An MP userInfo {"a": "b"}: "MP", cmp 3, MessagePack 5, a map of one entry (fixstr "a", fixstr "b").
        let mp = directory.appendingPathComponent("userinfo.mp")
        try Data([0x4D, 0x50, 0x03, 0x05, 0x81, 0xA1, 0x61, 0xA1, 0x62]).write(to: mp)
        #expect(Self.text(try run(CLITests.plistkit, ["print", mp.path]).stdout) == "{\n  \"a\" => \"b\"\n}\n")
        let envelope = directory.appendingPathComponent("envelope.json")
        try Data(#"{"type":"dict","value":{"activityType":{"type":"string","value":"com.example.planner.edit"},"userInfo":{"type":"dict","value":{"a":{"type":"string","value":"b"}}}}}"#.utf8)
            .write(to: envelope)
        let container = directory.appendingPathComponent("activity.bin").path
        try #require(try run(CLITests.plistkit, ["payload", "encode", envelope.path, "-o", container]).status == 0)
        let edited = directory.appendingPathComponent("edited.mp").path
        try Data(contentsOf: mp).write(to: URL(fileURLWithPath: edited))
        let cases: [(arguments: [String], file: String, form: String)] = [
            (["merge", destination, mp.path], mp.path, "an MP userInfo"),
            (["merge", destination, container], container, "an activity container"),
            (["merge", edited, destination], edited, "an MP userInfo"),             // as DEST
            (["insert", "k", edited, "--string", "v"], edited, "an MP userInfo"),  // an edit
        ]
        for (arguments, file, form) in cases {
            let result = try run(CLITests.plistkit, arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(Self.text(result.stderr).hasPrefix("plistkit: \(file): unknownFormat: \(form) holds "), "\(arguments): \(Self.text(result.stderr))")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination)) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: edited)) == Data(contentsOf: mp))
        // A text that starts with "MP" and reads is that text: a .strings file merges.
        let strings = directory.appendingPathComponent("MP.strings")
        try Data(#"MPKey = "v";"#.utf8).write(to: strings)
        let merged = try run(CLITests.plistkit, ["merge", destination, strings.path])
        #expect(merged.status == 0, "\(Self.text(merged.stderr))")
        #expect(try XMLPropertyListReader().read(try Data(contentsOf: URL(fileURLWithPath: destination))) == ["a": 1, "MPKey": "v"])
    }

    @Test("print and payload decode of an error packet show its NSError (domain, code, user info)")
    func errorPacket() throws {
        // Written by the container vectors' Python generator (a peer), not by us.
        let packet = Paths.packageRoot.appendingPathComponent("Corpus/golden/container/valid/error-packet.container").path
        let printed = try run(CLITests.plistkit, ["print", packet])
        #expect(printed.status == 0)
        #expect(Self.text(printed.stdout).hasSuffix("""
            error: NSError (a keyed archive of 266 bytes)
              domain: "UAContinuityErrorDomain"
              code: -110
              userInfo: absent

            """))
        let decoded = try run(CLITests.plistkit, ["payload", "decode", packet])
        #expect(decoded.status == 1)
        #expect(Self.text(decoded.stderr).contains(#": errorPacket: the container is an error packet (the sender could not send its activity), not an activity: NSError domain "UAContinuityErrorDomain" code -110"#))
    }

    /// The real Info.plists Xcode wrote (../shared/realworld).
    static func realInfoPlists() throws -> [String] {
        try Self.corpusFiles().filter { $0.contains("/realworld/") && $0.hasSuffix("Info.plist") }
    }

    @Test("lint --handoff: real Info.plists read; declarations checked (missing, malformed types, duplicates)")
    func lintHandoff() throws {
        let plists = try Self.realInfoPlists()
        try #require(plists.count >= 5)
        // None of the real ones adopts Handoff: each reads, and each says so.
        let real = try run(CLITests.plistkit, ["lint", "--handoff"] + plists)
        #expect(real.status == 1)
        let lines = Self.text(real.stdout).split(separator: "\n")
        #expect(lines.count == plists.count)
        #expect(lines.allSatisfy { $0.contains(": missingActivityTypes: ") }, "\(lines.filter { !$0.contains("missingActivityTypes") })")
        // IINA's, which declares document types, given Handoff declarations with the edit verbs.
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let iina = try #require(plists.first { $0.hasSuffix("iina__Info.plist") })
        let info = directory.appendingPathComponent("Info.plist").path
        try FileManager.default.copyItem(atPath: iina, toPath: info)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: info)  // shared/ is read-only
        #expect(try run(CLITests.plistkit, ["insert", "NSUserActivityTypes", info, "--json", #"["io.iina.play","io.iina.play","not a type"]"#]).status == 0)
        #expect(try run(CLITests.plistkit, ["insert", "CFBundleDocumentTypes.0.NSUbiquitousDocumentUserActivityType", info, "--string", "io.iina.document"]).status == 0)
        #expect(try run(CLITests.plistkit, ["insert", "CFBundleDocumentTypes.2.NSUbiquitousDocumentUserActivityType", info, "--string", "io.iina.document"]).status == 0)
        let checked = try run(CLITests.plistkit, ["lint", "--handoff", info])
        #expect(checked.status == 1)
        #expect(Self.text(checked.stdout).split(separator: "\n").map { $0.components(separatedBy: ": ")[1] } == ["duplicateActivityType", "invalidActivityType"])
        // Fixed: OK (two document types sharing one activity type are allowed).
        #expect(try run(CLITests.plistkit, ["replace", "NSUserActivityTypes", info, "--json", #"["io.iina.play"]"#]).status == 0)
        let fixed = try run(CLITests.plistkit, ["lint", "--handoff", info])
        #expect(fixed.status == 0)
        #expect(Self.text(fixed.stdout) == "\(info): OK\n")
        // IINA's "Matroska audio" lists an empty content type: harmless until the type continues an activity.
        #expect(try run(CLITests.plistkit, ["insert", "CFBundleDocumentTypes.1.NSUbiquitousDocumentUserActivityType", info, "--string", "io.iina.document"]).status == 0)
        #expect(Self.text(try run(CLITests.plistkit, ["lint", "--handoff", info]).stdout)
            == "\(info): undeclaredContentType: CFBundleDocumentTypes.1.LSItemContentTypes names \"\", which neither UTExportedTypeDeclarations nor UTImportedTypeDeclarations declares\n")
        // A malformed declaration.
        #expect(try run(CLITests.plistkit, ["replace", "NSUserActivityTypes", info, "--string", "io.iina.play"]).status == 0)
        #expect(Self.text(try run(CLITests.plistkit, ["lint", "--handoff", info]).stdout).contains(": malformedDeclarations: NSUserActivityTypes is a string"))
    }

    @Test("payload check --info-plist, --team-id: declared types and the team accepted; others refused after every other rule")
    func payloadCheckDeclarations() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let iina = try #require(try Self.realInfoPlists().first { $0.hasSuffix("iina__Info.plist") })
        let info = directory.appendingPathComponent("Info.plist").path
        try FileManager.default.copyItem(atPath: iina, toPath: info)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: info)  // shared/ is read-only
        #expect(try run(CLITests.plistkit, ["insert", "NSUserActivityTypes", info, "--json", #"["io.iina.play"]"#]).status == 0)
        #expect(try run(CLITests.plistkit, ["insert", "CFBundleDocumentTypes.0.NSUbiquitousDocumentUserActivityType", info, "--string", "io.iina.document"]).status == 0)
        func container(_ type: String) throws -> String {
            let envelope = directory.appendingPathComponent(type + ".json")
            try Data((#"{"type":"dict","value":{"activityType":{"type":"string","value":""# + type + #""},"teamID":{"type":"string","value":"ABCDE12345"},"userInfo":{"type":"dict","value":{"t":{"type":"integer","value":"5"}}}}}"#).utf8).write(to: envelope)
            let file = directory.appendingPathComponent(type + ".container").path
            let encoded = try run(CLITests.plistkit, ["payload", "encode", envelope.path, "-o", file])
            try #require(encoded.status == 0, "\(Self.text(encoded.stderr))")
            return file
        }
        for type in ["io.iina.play", "io.iina.document"] {
            let accepted = try run(CLITests.plistkit, ["payload", "check", try container(type), "--info-plist", info, "--team-id", "ABCDE12345"])
            #expect(accepted.status == 0, "\(type): \(Self.text(accepted.stderr))")
            #expect(Self.text(accepted.stdout).hasPrefix("activity type: \(type)\n"))
        }
        let undeclared = try run(CLITests.plistkit, ["payload", "check", try container("io.iina.other"), "--info-plist", info])
        #expect(undeclared.status == 1)
        #expect(Self.text(undeclared.stderr).contains(#": undeclaredActivityType: the activity type "io.iina.other" is not declared by the app (NSUserActivityTypes and document types declare: "io.iina.play", "io.iina.document")"#))
        // The report is still written: the declarations are checked last.
        #expect(Self.text(undeclared.stdout).hasPrefix("activity type: io.iina.other\n"))
        let otherTeam = try run(CLITests.plistkit, ["payload", "check", try container("io.iina.play"), "--info-plist", info, "--team-id", "ZZZZZ99999"])
        #expect(otherTeam.status == 1)
        #expect(Self.text(otherTeam.stderr).contains(": teamMismatch: "))
        // An unreadable Info.plist is its own error.
        let missing = try run(CLITests.plistkit, ["payload", "check", try container("io.iina.play"), "--info-plist", directory.appendingPathComponent("none").path])
        #expect(missing.status == 1)
        #expect(Self.text(missing.stderr).contains("none: readFailed: "))
    }

    /// Every file of the shared corpora (real-world and conformance), sorted.
    static func corpusFiles() throws -> [String] {
        try Paths.sharedCorpusFiles().map(\.path)
    }

    @Test("lint --jobs: the same lines in the same order as one at a time, over both shared corpora")
    func lintJobs() throws {
        let files = try Self.corpusFiles()
        try #require(files.count > 700)
        let serial = try run(CLITests.plistkit, ["lint", "--jobs", "1"] + files)
        for jobs in ["2", "5"] {
            let parallel = try run(CLITests.plistkit, ["lint", "--jobs", jobs] + files)
            #expect(parallel.status == serial.status)
            #expect(parallel.stdout == serial.stdout, "--jobs \(jobs)")
        }
        // Some files fail (the conformance corpus holds malformed ones): exit 1, every file listed.
        #expect(serial.status == 1)
        #expect(Self.text(serial.stdout).split(separator: "\n").count == files.count)
        #expect(try run(CLITests.plistkit, ["lint", "--jobs", "0", files[0]]).status == 64)
    }

    @Test("convert many files: -o DIR and -e EXT, --jobs output identical to serial; collisions refused before writing")
    func convertMany() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputs = try Self.corpusFiles().filter { $0.contains("/realworld/") }.prefix(120)
        var outputs: [[String: Data]] = []
        var statuses: [Int32] = []
        var errors: [String] = []
        for jobs in ["1", "3"] {
            let out = directory.appendingPathComponent("out" + jobs)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            // Inputs under distinct names (the corpus repeats file names across projects).
            var named: [String] = []
            for (index, input) in inputs.enumerated() {
                let copy = directory.appendingPathComponent("in\(jobs)/\(index)-" + URL(fileURLWithPath: input).lastPathComponent)
                try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: URL(fileURLWithPath: input), to: copy)
                named.append(copy.path)
            }
            let result = try run(CLITests.plistkit, ["convert", "--format", "xml1", "-o", out.path, "--jobs", jobs] + named)
            statuses.append(result.status)
            errors.append(Self.text(result.stderr).replacingOccurrences(of: "/in\(jobs)/", with: "/in/"))
            var written: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
                written[name] = try Data(contentsOf: out.appendingPathComponent(name))
            }
            outputs.append(written)
        }
        #expect(statuses[0] == statuses[1])
        #expect(errors[0] == errors[1])
        #expect(outputs[0] == outputs[1])
        #expect(outputs[0].count > 60)
        // Two inputs with one output name: refused, nothing written.
        let a = try Self.document(#"{"a":1}"#, "xml1", named: "same.plist", in: directory)
        let sub = directory.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let b = try Self.document(#"{"b":1}"#, "xml1", named: "sub/same.xml", in: directory)
        let target = directory.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let collision = try run(CLITests.plistkit, ["convert", "--format", "binary1", "-o", target.path, a, b])
        #expect(collision.status == 1)
        #expect(Self.text(collision.stderr).contains(": outputCollision: "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        // -e: an output that would replace another input is refused too.
        let c = try Self.document(#"{"c":1}"#, "xml1", named: "same.json", in: directory)
        let replacing = try run(CLITests.plistkit, ["convert", "--format", "json", "-e", "json", a, c])
        #expect(Self.text(replacing.stderr).contains(": outputCollision: "))
        // Many files need -e or -o DIR.
        #expect(try run(CLITests.plistkit, ["convert", "--format", "json", a, c]).status == 64)
    }
}
