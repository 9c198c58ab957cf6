import Foundation
import MPUserInfo
import PropertyList
import TestSupport
import Testing
import TypedJSON
import UserInfo

/// The hand-built vectors of Corpus/golden/mp (Python `struct` from
/// Specs/mp-userinfo.md, cross-checked with Python's msgpack; see its README).
@Suite("MP userInfo: hand-built golden vectors")
struct MPGoldenTests {
    static let directory = Paths.golden.appendingPathComponent("mp")

    static func names(_ kind: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(kind).path)) ?? []
        return entries.filter { $0.hasSuffix(".mp") }.map { String($0.dropLast(3)) }.sorted()
    }

    @Test("the vectors are present")
    func present() {
        #expect(Self.names("valid").count >= 100)
        #expect(Self.names("invalid").count >= 60)
    }

    @Test("each valid vector reads to its value; all but the read-only ones are written back byte for byte", arguments: names("valid"))
    func valid(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent("valid/\(name).mp")))
        let expected = try TypedJSONReader().readUserInfo(Data(contentsOf: Self.directory.appendingPathComponent("valid/\(name).json")))
        let value = try MPUserInfoReader().read(bytes)
        #expect(UserInfoValue.dictionary(value) == expected)
        if !name.hasPrefix("readonly-") {
            #expect(try MPUserInfoWriter().writeBytes(value) == bytes)
        }
    }

    @Test("each invalid vector is refused with its code (and offset, where the vector gives one)", arguments: names("invalid"))
    func invalid(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent("invalid/\(name).mp")))
        let expected = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: Self.directory.appendingPathComponent("invalid/\(name).json"))) as? [String: Any])
        let error = try #require(mpError(bytes), "\(name) was read")
        #expect(error.code.name == expected["error"] as? String, "\(error)")
        if let offset = expected["offset"] as? Int {
            #expect(error.location == .byteOffset(offset), "\(error)")
        }
    }
}
