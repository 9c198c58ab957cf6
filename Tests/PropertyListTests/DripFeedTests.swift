import Foundation
import PropertyList
import TestSupport
import Testing

/// Every proper prefix of a valid file is refused (Specs/binary-plist.md,
/// "Truncation"): no prefix is mistaken for a smaller valid file.
@Suite("Binary drip-feed")
struct DripFeedTests {
    static let files: [String] = {
        let directory = Paths.golden
        var names: [String] = []
        for writer in ["plistlib", "plistutil", "foundation"] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(writer).path)) ?? []
            names += entries.filter { $0.hasSuffix(".bplist") }.sorted().map { "\(writer)/\($0)" }
        }
        return names
    }()

    @Test("the golden set is present")
    func present() {
        #expect(Self.files.count >= 60)
    }

    @Test("every proper prefix of a peer-written file is refused", arguments: files)
    func prefixes(_ name: String) throws {
        let bytes = try Data(contentsOf: Paths.golden.appendingPathComponent(name))
        _ = try BinaryPropertyListReader().read(bytes)
        // Each prefix in memory of exactly its length, so that a read past its
        // end is a read past the allocation.
        let whole = [UInt8](bytes)
        for length in 0..<whole.count {
            let prefix = Array(whole[0..<length])
            #expect(throws: PropertyListError.self, "prefix of \(length) bytes") {
                try BinaryPropertyListReader().read(prefix)
            }
        }
    }
}
