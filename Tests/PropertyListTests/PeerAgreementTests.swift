import Foundation
import PropertyBased
import PropertyList
import TestSupport
import Testing

/// Our writer's output decodes to equal values in every peer
/// (Specs/golden-files.md, "Peers"). Missing peers fail the test: CI installs them.
@Suite("Binary writer against peers")
struct PeerAgreementTests {
    /// The golden values plus generated ones every peer can carry.
    static func values() throws -> [(name: String, value: PropertyListValue)] {
        var values = try GoldenTests.samples.map { ($0, try GoldenTests.expected($0)) }
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (1, 2, 3, 4))
        let generator = ValueGenerator(allowNull: false, ordinaryDates: true)
        for index in 0..<60 {
            values.append(("generated-\(index)", generator.value(depth: 0, using: &rng)))
        }
        return values
    }

    @Test("plistlib, Foundation and plistutil read our binary output as the values we wrote")
    func peersAgree() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let values = try Self.values()
        var files: [URL] = []
        for (name, value) in values {
            let file = directory.appendingPathComponent("\(name).bplist")
            try BinaryPropertyListWriter().write(value).write(to: file)
            files.append(file)
        }
        let peers: [(String, Peers.Readings)] = [
            ("plistlib", try Peers.plistlib(files)),
            ("Foundation", try Peers.foundation(files)),
            ("plistutil", try Peers.plistutil(files, in: directory)),
        ]
        for (peer, readings) in peers {
            for ((name, value), reading) in zip(values, readings) {
                switch reading {
                case .success(let read):
                    #expect(peerEqual(read, value), "\(peer) read \(name) differently:\n\(read)\nwrote:\n\(value)")
                case .failure(let failure):
                    Issue.record("\(peer) refused \(name): \(failure)")
                }
            }
        }
    }

    @Test("plistlib and Foundation read the null object we write")
    func null() throws {
        let directory = try Peers.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("null.bplist")
        let value: PropertyListValue = [.null, "after"]
        try BinaryPropertyListWriter().write(value).write(to: file)
        #expect(try Peers.plistlib([file]).first.flatMap { try? $0.get() } == value)
        #expect(try Peers.foundation([file]).first.flatMap { try? $0.get() } == value)
    }
}
