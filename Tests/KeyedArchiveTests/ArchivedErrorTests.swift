import Foundation
import KeyedArchive
import PropertyList
import Testing
import UserInfo

/// An error packet's NSError (Specs/keyed-archive.md, "Archived errors"), on
/// archives written by hand from the layout NSError's `encodeWithCoder:`
/// gives them (`NSCode`, `NSDomain`, `NSUserInfo`), as the container golden
/// vectors' generator writes its error packet. Linux Foundation cannot make
/// one: its NSKeyedArchiver recurses without end hashing an NSError
/// (`_CFSwiftGetHash`, a crash in swift-corelibs-foundation 6.3.1).
@Suite("Archived errors: the NSError of an error packet")
struct ArchivedErrorTests {
    static func bytes(_ plist: PropertyListValue) throws -> Data { try BinaryPropertyListWriter().write(plist) }

    /// An NSError archive: the error (object 1), its domain (2), its class
    /// (3), then `extra` objects; `userInfo` is the UID of its user info.
    static func errorArchive(domain: String, code: PropertyListValue, userInfo: UInt32? = nil,
                             extra: [PropertyListValue] = []) -> PropertyListValue {
        var fields: PropertyListDictionary = ["$class": .uid(3), "NSCode": code, "NSDomain": .uid(2)]
        if let userInfo { fields["NSUserInfo"] = .uid(userInfo) }
        return archive([.dictionary(fields), .string(domain), classEntry("NSError")] + extra)
    }

    @Test("domain, code and a user info of values")
    func valuesUserInfo() throws {
        // Object 4: the user info {"reason": "peer gone", "tries": 3}; 5–8 its keys and values; 9 its class.
        let plist = Self.errorArchive(domain: "UAContinuityErrorDomain", code: -110, userInfo: 4, extra: [
            ["NS.keys": uids(5, 6), "NS.objects": uids(7, 8), "$class": .uid(9)],
            "reason", "tries", "peer gone", 3, classEntry("NSDictionary"),
        ])
        let error = try ArchivedError(reading: try Self.bytes(plist))
        #expect(error.domain == "UAContinuityErrorDomain")
        #expect(error.code == -110)
        #expect(error.userInfo == ["reason": "peer gone", "tries": 3])
        #expect(!error.userInfoHasOtherClasses)
        let bare = try ArchivedError(reading: try Self.bytes(Self.errorArchive(domain: "D\u{202E}", code: .integer(PropertyListInteger(Int64.max)))))
        #expect(bare.domain == "D\u{202E}")
        #expect(bare.code == PropertyListInteger(Int64.max))
        #expect(bare.userInfo == nil)
    }

    @Test("an underlying error (another class) is kept in the graph, not refused")
    func underlyingError() throws {
        // Object 4: {NSUnderlyingError (5): object 6}; 6 an NSError of domain 7; 8 the dictionary's class.
        let plist = Self.errorArchive(domain: "Outer", code: 7, userInfo: 4, extra: [
            ["NS.keys": uids(5), "NS.objects": uids(6), "$class": .uid(8)],
            "NSUnderlyingError",
            ["$class": .uid(3), "NSCode": 61, "NSDomain": .uid(7)],
            "NSPOSIXErrorDomain",
            classEntry("NSDictionary"),
        ])
        let error = try ArchivedError(reading: try Self.bytes(plist))
        #expect(error.domain == "Outer")
        #expect(error.code == 7)
        #expect(error.userInfo == nil)
        #expect(error.userInfoHasOtherClasses)
        #expect(error.graph.objects.contains { if case .value(.string("NSPOSIXErrorDomain")) = $0 { return true }; return false })
    }

    @Test("notAnError: no NSError at the root, or one without a string domain or an integer code")
    func notAnError() throws {
        let cases: [PropertyListValue] = [
            archive(["just a string"]),
            archive([["$class": .uid(2), "NSCode": 1, "NSDomain": .uid(3)], classEntry("NSException"), "D"]),
            Self.errorArchive(domain: "D", code: "not a number"),
            archive([["$class": .uid(2), "NSCode": 1, "NSDomain": .uid(3)], classEntry("NSError"), 5]),
        ]
        for plist in cases {
            #expect(throws: UserInfoError(.notAnError, "")) { try ArchivedError(reading: try Self.bytes(plist)) }
        }
        // A subclass of NSError is an NSError.
        let subclass = archive([["$class": .uid(3), "NSCode": 1, "NSDomain": .uid(2)], "D", classEntry("MyError", ["MyError", "NSError", "NSObject"])])
        #expect(try ArchivedError(reading: try Self.bytes(subclass)).domain == "D")
    }

    @Test("notAnError: a domain naming a chain of doubled arrays is no string, not a value past the budget (found by the error-packet fuzz target)")
    func domainNamingAnExpandingChain() throws {
        // Object 1: the error, its domain object 3; 2: its class; 3…3+levels: arrays each holding the next twice.
        let levels = 40
        var objects: [PropertyListValue] = [["$class": .uid(2), "NSCode": 1, "NSDomain": .uid(3)], classEntry("NSError")]
        let arrayClass = UInt32(4 + levels)
        for level in 0..<levels {
            let next = PropertyListValue.uid(UInt32(4 + level))
            objects.append(["$class": .uid(arrayClass), "NS.objects": [next, next]])
        }
        objects.append(["$class": .uid(arrayClass), "NS.objects": []])
        objects.append(classEntry("NSArray"))
        let data = try Self.bytes(archive(objects))
        // 2^40 leaves behind the domain: refused as no NSError, at once (was expansionLimitExceeded).
        #expect(throws: UserInfoError(.notAnError, "")) { try ArchivedError(reading: data) }
    }
}
