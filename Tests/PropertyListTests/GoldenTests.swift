import Foundation
import PropertyList
import TestSupport
import Testing

/// Golden files (Specs/golden-files.md): inputs written by peers decode to the
/// values stored beside them; our writer's bytes for the same values are
/// recorded and any change is shown. `RECORD_GOLDEN=1 swift test` records
/// the writer's files (and fails, so a recording run is never taken for a pass).
@Suite("Binary golden files")
struct GoldenTests {
    static let samples: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Paths.golden.appendingPathComponent("expected").path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    static func expected(_ name: String) throws -> PropertyListValue {
        try PeerTypedJSON.value(from: try Data(contentsOf: Paths.golden.appendingPathComponent("expected/\(name).json")))
    }

    @Test("the golden set is present")
    func present() {
        #expect(Self.samples.count >= 20)
    }

    @Test("files written by plistlib, plistutil and Foundation decode to their stored values", arguments: samples)
    func peerWritten(_ name: String) throws {
        let expected = try Self.expected(name)
        for writer in ["plistlib", "plistutil", "foundation"] {
            let file = Paths.golden.appendingPathComponent("\(writer)/\(name).bplist")
            let decoded = try BinaryPropertyListReader().read(try Data(contentsOf: file))
            #expect(peerEqual(decoded, expected), "\(writer)/\(name).bplist")
        }
    }

    @Test("our writer's bytes for each golden value are unchanged", arguments: samples)
    func writerBytes(_ name: String) throws {
        let value = try Self.expected(name)
        let bytes = try BinaryPropertyListWriter().writeBytes(value)
        let file = Paths.golden.appendingPathComponent("writer/\(name).bplist")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: file)
            Issue.record("recorded \(file.lastPathComponent); run again without RECORD_GOLDEN to compare")
            return
        }
        let recorded = try [UInt8](Data(contentsOf: file))
        #expect(bytes == recorded, "writer output changed:\n\(hexDiff(recorded, bytes))")
        // The recorded file still decodes to the value.
        #expect(try BinaryPropertyListReader().read(recorded) == value)
    }
}

/// The first difference of two byte strings, as -/+ hex lines around it.
func hexDiff(_ old: [UInt8], _ new: [UInt8]) -> String {
    let first = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
    let start = max(0, first - 8) & ~7
    func line(_ bytes: [UInt8]) -> String {
        bytes[min(start, bytes.count)..<min(start + 32, bytes.count)].map { String(format: "%02x", $0) }.joined(separator: " ")
    }
    return "first difference at offset \(first) (sizes \(old.count) → \(new.count))\n- \(line(old))\n+ \(line(new))"
}
