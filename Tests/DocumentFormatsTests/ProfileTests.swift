import DocumentFormats
import Foundation
import PropertyList
import Testing
import UserInfo
import KeyedArchive

/// Specs/keyed-archive.md, "Profiles".
@Suite("Profiles")
struct ProfileTests {
    let codec = UserInfoCodec()

    @Test("keyed-archive profile: all ten types round-trip, and decoding reports the profile")
    func keyedArchive() throws {
        let value: UserInfoValue = ["null": nil, "set": .set(["a"]), "uuid": .uuid(UUID()), "url": .url(UserInfoURL(relative: "https://x.org")),
                                    "n": 1, "when": .date(Date(timeIntervalSinceReferenceDate: 5))]
        let (decoded, profile) = try codec.decodeDetectingProfile(try codec.encode(value))
        #expect(decoded == value)
        #expect(profile == .keyedArchive)
    }

    @Test("plain profile: plist-native values round-trip as a plain property list")
    func plain() throws {
        let value: UserInfoValue = ["cart": [["sku": "A-100", "qty": 2]], "scroll": 0.5, "ok": true, "blob": .data(Data([1]))]
        let bytes = try codec.encode(value, profile: .plain)
        #expect(try BinaryPropertyListReader().read(bytes)["cart"]?[0]?["qty"] == 2)
        let (decoded, profile) = try codec.decodeDetectingProfile(bytes)
        #expect(decoded == value)
        #expect(profile == .plain)
    }

    @Test("notPlistNative: null, set, UUID and URL are refused in the plain profile, naming the key path")
    func notPlistNative() {
        for bad: UserInfoValue in [nil, .set([]), .uuid(UUID()), .url(UserInfoURL(relative: "https://x.org"))] {
            do {
                _ = try codec.encode(["list": [1, bad]], profile: .plain)
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.code == .notPlistNative)
                #expect(error.keyPath.description == "list[1]")
                #expect(error.reason.contains("keyed-archive profile"))
            }
        }
    }

    @Test("reservedKey: a plain userInfo may not have a top-level $archiver")
    func reservedKey() {
        #expect(throws: UserInfoError(.reservedKey, "")) { try codec.encode(["$archiver": "x"], profile: .plain) }
    }

    @Test("notUserInfoType: UIDs and binary nulls in a plain property list are no userInfo values")
    func notUserInfoType() throws {
        for plist: PropertyListValue in [["a": .uid(1)], [.null]] {
            #expect(throws: UserInfoError(.notUserInfoType, "")) { try codec.decode(BinaryPropertyListWriter().write(plist)) }
        }
    }

    @Test("a dictionary with $archiver is read as an archive, and must be a valid one")
    func detection() throws {
        let fake = try BinaryPropertyListWriter().write(["$archiver": "NSKeyedArchiver", "other": 1])
        #expect(throws: UserInfoError(.missingArchiveKey, "")) { try codec.decode(fake) }
    }

    @Test("propertyList: bytes that are no property list are refused with the underlying error")
    func notAPropertyList() {
        #expect(throws: UserInfoError(.propertyList, "")) { try codec.decode(Data("hello".utf8)) }
        // unknownFormat: neither the binary magic nor, after whitespace, an XML "<".
        do {
            _ = try codec.decode(Data("hello".utf8))
        } catch {
            #expect(error.underlying?.code == .unknownFormat)
        }
    }
}
