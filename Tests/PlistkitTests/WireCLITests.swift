import Foundation
import PropertyList
import TestSupport
import Testing
import TypedJSON
import UserInfo

/// `plistkit print` and `convert` of Apple's wire forms, and the wire options
/// of `payload encode` (Specs/plistkit.md, "Wire forms").
@Suite("plistkit: MP userInfo and activity containers")
struct WireCLITests {
    static let golden = Paths.golden
    static let sample = PayloadCLITests.sample

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test("print of a container shows the header, each field and whether it was compressed, then the userInfo")
    func printContainer() throws {
        let plain = try run(CLITests.plistkit, ["print", Self.sample])
        #expect(plain.status == 0)
        let lines = Self.text(plain.stdout).split(separator: "\n").map(String.init)
        #expect(lines.first == "activity container: header 0x1 (activity), not compressed")
        #expect(lines.contains("  field 2 userInfo: 194 bytes at offset 40"))
        #expect(lines.contains("  field 5 streams: absent"))
        #expect(lines.contains("userInfo (MP, 194 bytes): {"))
        let compressed = try run(CLITests.plistkit, ["print", Self.golden.appendingPathComponent("container/valid/compressed-bzip2-tool.container").path])
        #expect(compressed.status == 0)
        #expect(Self.text(compressed.stdout).hasPrefix("activity container: header 0x101 (activity), bzip2-compressed: "))
        let bomb = try run(CLITests.plistkit, ["print", Self.golden.appendingPathComponent("container/invalid/bomb.container").path])
        #expect(bomb.status == 1)
        #expect(Self.text(bomb.stderr).contains(": inflatedTooLarge: "))
    }

    @Test("print and convert --format typed-json read an MP userInfo (detected by \"MP\"); other formats are refused")
    func mp() throws {
        let file = Self.golden.appendingPathComponent("mp/valid/kitchen-sink.mp").path
        let converted = try run(CLITests.plistkit, ["convert", file, "--format", "typed-json"])
        #expect(converted.status == 0)
        let expected = try TypedJSONReader().readUserInfo(Data(contentsOf: Self.golden.appendingPathComponent("mp/valid/kitchen-sink.json")))
        #expect(try TypedJSONReader().readUserInfo(converted.stdout) == expected)
        let printed = try run(CLITests.plistkit, ["print", file])
        #expect(printed.status == 0)
        #expect(Self.text(printed.stdout) == expected.description + "\n")
        let refused = try run(CLITests.plistkit, ["convert", file, "--format", "xml1"])
        #expect(refused.status == 1)
        #expect(Self.text(refused.stderr).contains(": unrepresentableValue: an MP userInfo converts to typed-json only"))
        let bad = try run(CLITests.plistkit, ["print", Self.golden.appendingPathComponent("mp/invalid/duplicate-key.mp").path])
        #expect(bad.status == 1)
        #expect(Self.text(bad.stderr).contains(": duplicateKey: "))
    }

    @Test("convert --format typed-json of a container gives the envelope payload decode prints (no payload rules)")
    func convertContainer() throws {
        let converted = try run(CLITests.plistkit, ["convert", Self.sample, "--format", "typed-json"])
        #expect(converted.status == 0)
        let envelope = try TypedJSONReader().readUserInfo(converted.stdout)
        #expect(envelope["activityType"] == "com.example.planner.edit-trip")
        #expect(envelope["teamID"] == "")
        #expect(envelope["userInfo"]?["document"]?.urlValue?.relative.hasPrefix("icloud-container:") == true)
        // payload decode applies the rules: the reference resolves for the receiver.
        let decoded = try run(CLITests.plistkit, ["payload", "decode", Self.sample] + PayloadCLITests.receiver)
        #expect(decoded.status == 0)
        let received = try TypedJSONReader().readUserInfo(decoded.stdout)
        #expect(received["userInfo"]?["document"]?.urlValue?.relative.hasPrefix("file:///private/var/mobile/") == true)
        #expect(received["title"] == envelope["title"])
    }

    @Test("payload encode --userinfo-form keyed-archive and --no-compression; decode reads both forms")
    func encodeForms() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("envelope.json")
        let blob = String(repeating: "abc", count: 1000)
        let envelope = #"{"type":"dict","value":{"activityType":{"type":"string","value":"com.example.a"},"teamID":{"type":"string","value":"T1"},"userInfo":{"type":"dict","value":{"s":{"type":"string","value":"\#(blob)"}}}}}"#
        try Data(envelope.utf8).write(to: input)
        for (options, header) in [([String](), [1, 1, 0, 0]), (["--no-compression"], [1, 0, 0, 0]),
                                  (["--userinfo-form", "keyed-archive"], [1, 1, 0, 0]),
                                  (["--userinfo-form", "keyed-archive", "--no-compression"], [1, 0, 0, 0])] as [([String], [UInt8])] {
            let wire = directory.appendingPathComponent("out").path
            let encoded = try run(CLITests.plistkit, ["payload", "encode", input.path, "-o", wire] + options)
            #expect(encoded.status == 0, "\(options): \(Self.text(encoded.stderr))")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: wire)))
            #expect(Array(bytes.prefix(4)) == header, "\(options)")
            let keyed = options.contains("keyed-archive")
            let uncompressed = options.contains("--no-compression")
            if uncompressed {
                // The userInfo field starts after the title's zero word and the userInfo's word.
                #expect((bytes[12...].starts(with: Array("MP".utf8))) == !keyed)
                #expect((bytes[12...].starts(with: Array("bplist00".utf8))) == keyed)
            }
            let decoded = try run(CLITests.plistkit, ["payload", "decode", wire])
            #expect(decoded.status == 0)
            let value = try TypedJSONReader().readUserInfo(decoded.stdout)
            #expect(value["userInfo"]?["s"]?.stringValue == blob)
            #expect(value["teamID"] == "T1")
        }
        let bad = try run(CLITests.plistkit, ["payload", "encode", input.path, "--userinfo-form", "json"])
        #expect(bad.status != 0)
    }
}
