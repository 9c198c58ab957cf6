import ActivityContainer
import Foundation
import PropertyList
import TestSupport
import Testing

/// The vectors of Corpus/golden/container: built by hand (Python `struct`)
/// from Specs/activity-container.md, compressed by peers (Python's bz2, the
/// bzip2 tool); see its README.
@Suite("Activity container: golden vectors")
struct ContainerGoldenTests {
    static let directory = Paths.golden.appendingPathComponent("container")

    static func names(_ kind: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(kind).path)) ?? []
        return entries.filter { $0.hasSuffix(".container") }.map { String($0.dropLast(10)) }.sorted()
    }

    static func hex(_ text: Any?) -> Data? {
        guard let text = text as? String else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return Data(bytes)
    }

    @Test("the vectors are present")
    func present() {
        #expect(Self.names("valid").count >= 25)
        #expect(Self.names("invalid").count >= 60)
    }

    @Test("each valid vector reads to its fields; all but the read-only ones are written back byte for byte", arguments: names("valid"))
    func valid(_ name: String) throws {
        let bytes = try Data(contentsOf: Self.directory.appendingPathComponent("valid/\(name).container"))
        let fields = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: Self.directory.appendingPathComponent("valid/\(name).json"))) as? [String: Any])
        let (container, details) = try ActivityContainerReader().inspect(bytes)
        #expect(Int(details.header) == fields["header"] as? Int)
        let expected: ActivityContainer
        if let error = Self.hex(fields["errorHex"]) {
            expected = .errorPacket(error)
        } else {
            #expect((details.compressedBytes != nil) == (fields["compressed"] as? Bool))
            expected = .activity(ActivityRecord(
                activityType: try #require(fields["type"] as? String), teamID: try #require(fields["teamID"] as? String),
                title: fields["title"] as? String, userInfo: Self.hex(fields["userInfoHex"]),
                persistentID: fields["persistentID"] as? String, targetContentID: fields["targetContentID"] as? String,
                webpageURL: fields["webpageURL"] as? String, streamsEndpoint: Self.hex(fields["streamsHex"])))
        }
        #expect(container == expected)
        if !name.hasPrefix("readonly-") {
            #expect(try ActivityContainerWriter().write(container) == bytes)
        }
    }

    @Test("each invalid vector is refused with its code (and offset, where the vector gives one)", arguments: names("invalid"))
    func invalid(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent("invalid/\(name).container")))
        let expected = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: Self.directory.appendingPathComponent("invalid/\(name).json"))) as? [String: Any])
        let error = try #require(containerError(bytes), "\(name) was read")
        #expect(error.code.name == expected["error"] as? String, "\(error)")
        if let offset = expected["offset"] as? Int {
            #expect(error.location == .byteOffset(offset), "\(error)")
        }
    }
}
