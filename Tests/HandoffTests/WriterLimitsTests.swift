import DocumentFormats
import Foundation
import Handoff
import MPUserInfo
import PropertyList
import TypedJSON
import Testing
import UserInfo

/// Specs/value-model.md, "Writer limits": one ``WriterLimits`` value for
/// every writer, and every encode applies the limits its decode applies.
@Suite("Writer limits: every writer bounded alike, every encode as strict as its decode")
struct WriterLimitsTests {
    /// `depth` arrays, one inside the other, around an integer.
    static func nested(_ depth: Int) -> PropertyListValue {
        var value: PropertyListValue = 1
        for _ in 0..<depth { value = .array([value]) }
        return value
    }

    @Test("the typed-JSON writer refuses what is deeper than its limit, with the key path")
    func typedJSONDepth() throws {
        let limits = WriterLimits(maxDepth: 4)
        _ = try TypedJSONWriter(limits: limits).write(Self.nested(4))
        do {
            _ = try TypedJSONWriter(limits: limits).write(Self.nested(5))
            Issue.record("a value five deep was written under maxDepth 4")
        } catch {
            #expect(error.code == .depthLimitExceeded)
            #expect(error.keyPath == PropertyListKeyPath([.index(0), .index(0), .index(0), .index(0)]))
        }
        // userInfo values too, sets and dictionaries included.
        let userInfo: UserInfoValue = .dictionary(["a": .set(UserInfoSet([.array([.array([.number(.integer(1))])])]))])
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try TypedJSONWriter(limits: WriterLimits(maxDepth: 3)).write(userInfo) }
        _ = try TypedJSONWriter(limits: WriterLimits(maxDepth: 4)).write(userInfo)
    }

    @Test("the typed-JSON writer refuses what expands past its limit, and bad limits")
    func typedJSONExpansion() throws {
        let value: PropertyListValue = .array(Array(repeating: .string(String(repeating: "x", count: 100)), count: 100))
        #expect(throws: PropertyListError(.expansionLimitExceeded, "")) {
            try TypedJSONWriter(limits: WriterLimits(maxExpandedBytes: 5_000)).write(value)
        }
        _ = try TypedJSONWriter(limits: WriterLimits(maxExpandedBytes: 20_000)).write(value)
        #expect(throws: PropertyListError(.invalidLimits, "")) { try TypedJSONWriter(limits: WriterLimits(maxDepth: -1)).write(PropertyListValue.integer(1)) }
    }

    @Test("every writer takes the same limits value and refuses the same depth")
    func sameLimitsEverywhere() throws {
        let limits = WriterLimits(maxDepth: 3)
        let deep = Self.nested(4)
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try BinaryPropertyListWriter(limits: limits).writeBytes(deep) }
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try Document.writeBytes(deep, as: .xml, limits: PropertyListLimits(maxDepth: 3)) }
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try Document.writeBytes(deep, as: .json, limits: PropertyListLimits(maxDepth: 3)) }
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try Document.writeBytes(deep, as: .openStep, limits: PropertyListLimits(maxDepth: 3)) }
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try Document.writeBytes(deep, as: .typedJSON, limits: PropertyListLimits(maxDepth: 3)) }
        let userInfo: UserInfoDictionary = ["a": .array([.array([.array([.number(.integer(1))])])])]
        #expect(throws: UserInfoError(.depthLimitExceeded, "")) { try MPUserInfoWriter(limits: limits).write(userInfo) }
    }

    static func payload(_ userInfo: UserInfoDictionary) -> ActivityPayload {
        ActivityPayload(activityType: "com.example.notes.edit", title: "Editing", userInfo: userInfo, teamID: "ABCDE12345")
    }

    @Test("a payload codec never sends what its own decode refuses", arguments: [UserInfoWireForm.mp, .keyedArchive])
    func encodeAsStrictAsDecode(_ form: UserInfoWireForm) throws {
        var limits = PropertyListLimits.payload
        limits.maxStringBytes = 16
        var codec = PayloadCodec(limits: limits, userInfoForm: form)
        codec.budget = SizeBudget()
        let long = Self.payload(["note": .string(String(repeating: "n", count: 40))])
        // Before: encoded, then refused by the same codec's decode.
        #expect(throws: PayloadError(.stringLimitExceeded, "")) { try codec.encode(long) }
        let short = Self.payload(["note": .string("short")])
        let encoded = try codec.encode(short)
        #expect(try codec.decode(encoded.data).payload.userInfo == short.userInfo)
        limits = .payload
        limits.maxDepth = 2
        codec = PayloadCodec(limits: limits, userInfoForm: form)
        #expect(throws: PayloadError(.depthLimitExceeded, "")) {
            try codec.encode(Self.payload(["a": .array([.array([.number(.integer(1))])])]))
        }
    }
}
