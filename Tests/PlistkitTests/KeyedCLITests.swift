import Foundation
import PropertyList
import TestSupport
import Testing
import TypedJSON

/// `plistkit unarchive`, `archive`, `convert --format typed-json` and `print`
/// of archives (Specs/plistkit.md).
@Suite("plistkit keyed-archive verbs")
struct KeyedCLITests {
    static func golden(_ path: String) -> String { Paths.golden.appendingPathComponent("keyed/" + path).path }

    @Test("unarchive: typed JSON of a Foundation-written archive, equal to Foundation's own reading")
    func unarchive() throws {
        let result = try CLITests.plistkit("unarchive", Self.golden("foundation/ten-types.bplist"))
        #expect(result.status == 0)
        let expected = try PeerTypedJSON.userInfo(from: Data(contentsOf: URL(fileURLWithPath: Self.golden("foundation/ten-types.json"))))
        #expect(peerEqual(try PeerTypedJSON.userInfo(from: result.raw), expected))
    }

    @Test("archive then unarchive: typed JSON → keyed archive → the same typed JSON")
    func archiveRoundTrip() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = #"{"type":"dict","value":{"id":{"type":"uuid","value":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"},"tags":{"type":"set","value":[{"type":"string","value":"a"}]},"gone":{"type":"null"},"doc":{"type":"url","relative":"x.txt","base":{"type":"url","relative":"https://h.example/","base":null}}}}"#
        let input = directory.appendingPathComponent("in.json")
        try Data(json.utf8).write(to: input)
        let archive = directory.appendingPathComponent("out.bplist").path
        #expect(try CLITests.plistkit("archive", input.path, "-o", archive).status == 0)
        let back = try CLITests.plistkit("unarchive", archive)
        #expect(back.status == 0)
        #expect(try TypedJSONReader().readUserInfo(back.raw) == TypedJSONReader().readUserInfo(Data(json.utf8)))
        // And Foundation's NSKeyedUnarchiver opens the archive.
        #expect(try Peers.foundationUnarchive([URL(fileURLWithPath: archive)]).first.map { (try? $0.get()) != nil } == true)
    }

    @Test("unarchive refuses a disallowed class with one line naming the object")
    func unarchiveRefuses() throws {
        let plist: PropertyListValue = ["$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
                                        "$objects": ["$null", ["$class": .uid(2)], ["$classname": "NSValue", "$classes": ["NSValue", "NSObject"]]]]
        let (directory, file) = try CLITests.scratch("value.bplist", try BinaryPropertyListWriter().writeBytes(plist))
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.json").path
        let result = try CLITests.plistkit("unarchive", file, "-o", output)
        #expect(result.status == 1)
        #expect(result.stderr == "plistkit: \(file): classNotAllowed: class NSValue is not one of the userInfo classes (object 1)\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("archive refuses bad typed JSON with line and column")
    func archiveRefuses() throws {
        let result = try CLITests.plistkit("archive", "-", stdin: Data("{\"type\":\"dict\",\n\"value\":{\"n\":{\"type\":\"integer\",\"value\":\"0x1\"}}}".utf8))
        #expect(result.status == 1)
        #expect(result.stderr.contains("(at line 2, column 40, key path n)"))
    }

    @Test("convert --format typed-json writes any plist losslessly, UIDs included")
    func convertTypedJSON() throws {
        let result = try CLITests.plistkit("convert", Paths.golden.appendingPathComponent("plistlib/uids.bplist").path, "--format", "typed-json")
        #expect(result.status == 0)
        let value = try TypedJSONReader().readPropertyList(result.raw)
        #expect(value[0] == .uid(0))
        #expect(value[6] == .uid(UInt32.max))
    }

    @Test("print shows a userInfo archive as its userInfo tree")
    func printArchive() throws {
        let result = try CLITests.plistkit("print", Self.golden("foundation/url-with-base.bplist"))
        #expect(result.status == 0)
        #expect(result.stdout == "<url \"foo.xml\" relative to \"https://www.example.com/dir/\">\n")
    }
}
