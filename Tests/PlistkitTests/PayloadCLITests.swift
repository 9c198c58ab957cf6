import Foundation
import PropertyList
import TestSupport
import Testing
import TypedJSON
import UserInfo

/// `plistkit payload check|translate|encode|decode` on the bundled sample
/// (an activity container with an MP userInfo, built by hand: Corpus/samples).
@Suite("plistkit payload")
struct PayloadCLITests {
    static let sample = Paths.packageRoot.appendingPathComponent("Corpus/samples/trip.payload").path
    static let receiver = ["--layout", "ios", "--container", "iCloud.com.example.Planner"]

    @Test("check: size, per-key cost table largest first, version; exit 0")
    func check() throws {
        let result = try run(CLITests.plistkit, ["payload", "check", Self.sample, "--version-key", "com.example.planner.version", "--supports", "1.x"] + Self.receiver)
        let out = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0)
        #expect(out.contains("version: 1.0"))
        let costs = out.split(separator: "\n").filter { $0.hasPrefix("   ") }.compactMap { Int($0.split(separator: " ").first ?? "") }
        #expect(costs.count == 6)
        #expect(costs == costs.sorted(by: >))
    }

    @Test("check: violations exit 1 with one line naming the rule")
    func checkViolations() throws {
        let cases: [([String], String)] = [
            (["--layout", "ios"], "unknownContainer"),
            (["--version-key", "com.example.planner.version", "--supports", "0.x"] + Self.receiver, "unsupportedVersion"),
            (["--version-key", "other.version", "--supports", "1.x"] + Self.receiver, "missingVersion"),
        ]
        for (options, code) in cases {
            let result = try run(CLITests.plistkit, ["payload", "check", Self.sample] + options)
            #expect(result.status == 1, "\(options)")
            #expect(String(decoding: result.stderr, as: UTF8.self).contains(code), "\(options)")
        }
        // Over the hard limit: the report on stdout, the violation as the one line on stderr.
        let over = try run(CLITests.plistkit, ["payload", "check", Self.sample, "--hard-limit", "100"] + Self.receiver)
        #expect(over.status == 1)
        #expect(String(decoding: over.stdout, as: UTF8.self).contains("cost per key path"))
        #expect(String(decoding: over.stderr, as: UTF8.self) == "plistkit: \(Self.sample): overBudget: overBudget(size: 194, limit: 100)\n")
    }

    @Test("encode on macOS, decode on iOS: the file URL names the same document")
    func encodeDecode() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let envelope = #"{"type":"dict","value":{"activityType":{"type":"string","value":"com.example.planner.edit"},"userInfo":{"type":"dict","value":{"doc":{"type":"url","relative":"file:///Users/ada/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/A%20B.plan","base":null}}}}}"#
        let input = directory.appendingPathComponent("envelope.json")
        try Data(envelope.utf8).write(to: input)
        let wire = directory.appendingPathComponent("out.payload").path
        let encoded = try run(CLITests.plistkit, ["payload", "encode", input.path, "--layout", "macos:/Users/ada", "--container", "iCloud.com.example.Planner",
                                                  "--version-key", "v", "--version", "1.0", "-o", wire])
        #expect(encoded.status == 0, "\(String(decoding: encoded.stderr, as: UTF8.self))")
        #expect(!(try Data(contentsOf: URL(fileURLWithPath: wire))).contains(Data("/Users/ada".utf8)))
        let decoded = try run(CLITests.plistkit, ["payload", "decode", wire, "--version-key", "v", "--supports", "1.x"] + Self.receiver)
        #expect(decoded.status == 0)
        let value = try TypedJSONReader().readUserInfo(decoded.stdout)
        #expect(value["userInfo"]?["doc"]?.urlValue?.url?.path(percentEncoded: false) ==
                "/private/var/mobile/Library/Mobile Documents/iCloud~com~example~Planner/Documents/A B.plan")
        // A file outside every container fails the whole encode.
        let outside = #"{"type":"dict","value":{"activityType":{"type":"string","value":"a.b"},"userInfo":{"type":"dict","value":{"doc":{"type":"url","relative":"file:///etc/passwd","base":null}}}}}"#
        let refused = try run(CLITests.plistkit, ["payload", "encode", "-", "--layout", "macos:/Users/ada"], stdin: Data(outside.utf8))
        #expect(refused.status == 1)
        #expect(String(decoding: refused.stderr, as: UTF8.self).contains("key path doc"))
    }

    @Test("translate: the sender's envelope, encoded on the Mac and decoded on the iPhone, through PayloadCodec")
    func translate() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("envelope.json")
        try Data(Self.macEnvelope.utf8).write(to: input)
        let output = directory.appendingPathComponent("moved.json").path
        let result = try run(CLITests.plistkit, ["payload", "translate", input.path, "--from", "macos:/Users/ada", "--to", "ios",
                                                 "--container", "iCloud.com.example.Planner", "-o", output])
        #expect(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        let moved = try TypedJSONReader().readUserInfo(Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(moved["userInfo"]?["doc"]?.urlValue?.relative ==
                "file:///private/var/mobile/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/A%20B.plan")
        // The envelope's rules apply on the way (it used to bypass them): a bad activity type is refused.
        try Data(Self.macEnvelope.replacingOccurrences(of: "com.example.planner.edit", with: "not valid").utf8).write(to: input)
        let refused = try run(CLITests.plistkit, ["payload", "translate", input.path, "--from", "macos:/Users/ada", "--to", "ios",
                                                  "--container", "iCloud.com.example.Planner", "-o", output])
        #expect(refused.status == 1)
        #expect(String(decoding: refused.stderr, as: UTF8.self).contains(": invalidActivityType: "))
    }

    static let macEnvelope = #"{"type":"dict","value":{"activityType":{"type":"string","value":"com.example.planner.edit"},"userInfo":{"type":"dict","value":{"doc":{"type":"url","relative":"file:///Users/ada/Library/Mobile%20Documents/iCloud~com~example~Planner/Documents/A%20B.plan","base":null}}}}}"#
}
