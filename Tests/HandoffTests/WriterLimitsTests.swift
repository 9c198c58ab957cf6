import DocumentFormats
import Foundation
import Handoff
import KeyedArchive
import MPUserInfo
import PropertyList
import PropertyListXML
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

    /// 3,000 copies of one short string at depth 400: expanded 1.2 MB, past the
    /// 1 MiB floor, in a few KB of binary (one shared string) or MP (a byte a value).
    static func wideAndDeep() -> PropertyListValue {
        var value: PropertyListValue = .array(Array(repeating: .string("x"), count: 3000))
        for _ in 0..<399 { value = .array([value]) }
        return value
    }

    @Test("unreadableOutput: no writer writes what a reader with the same limits refuses, though the bytes are few; with expansionFactor 0 it does")
    func unreadableOutput() throws {
        let value = Self.wideAndDeep()
        // The binary writer shares the string: a few KB, whose budget is the 1 MiB floor.
        #expect(throws: PropertyListError(.expansionLimitExceeded, "")) { try BinaryPropertyListWriter().write(value) }
        let unchecked = try BinaryPropertyListWriter(limits: WriterLimits(expansionFactor: 0)).write(value)
        #expect(unchecked.count < 16 << 10)
        // What the check stops: bytes the default reader refuses, that a reader without the factor reads.
        #expect(throws: PropertyListError(.expansionLimitExceeded, "")) { try BinaryPropertyListReader().read(unchecked) }
        #expect(try BinaryPropertyListReader(limits: PropertyListLimits(expansionFactor: 0)).read(unchecked) == value)
        // Compact JSON (two bytes a value) and the text writers that indent agree with their readers too.
        #expect(throws: PropertyListError(.expansionLimitExceeded, "")) { try PlainJSONWriter().write(value) }
        _ = try XMLPropertyListWriter().write(value)  // indented: its bytes carry the depth

        // MP writes a byte a value; keyed archives share the string.
        guard case .array(let outer) = value else { return }
        var userInfo: UserInfoValue = .array(Array(repeating: .string("x"), count: 3000))
        for _ in 0..<398 { userInfo = .array([userInfo]) }
        #expect(outer.count == 1)
        #expect(throws: UserInfoError(.expansionLimitExceeded, "")) { try MPUserInfoWriter().writeBytes(["k": userInfo]) }
        #expect(throws: UserInfoError(.expansionLimitExceeded, "")) { try KeyedArchiveWriter().write(.dictionary(["k": userInfo])) }
        #expect(throws: UserInfoError(.expansionLimitExceeded, "")) { try UserInfoCodec().encode(.dictionary(["k": userInfo])) }
        // A hundredth of it is below the floor, and written by all.
        var small: UserInfoValue = .array(Array(repeating: .string("x"), count: 30))
        for _ in 0..<398 { small = .array([small]) }
        _ = try MPUserInfoWriter().writeBytes(["k": small])
        _ = try KeyedArchiveWriter().write(.dictionary(["k": small]))
    }

    @Test("every writer takes the same limits value and refuses the same depth")
    func sameLimitsEverywhere() throws {
        let limits = WriterLimits(maxDepth: 3)
        let deep = Self.nested(4)
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try BinaryPropertyListWriter(limits: limits).writeBytes(deep) }
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try Document.writeBytes(deep, as: .xml, limits: limits) }
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try Document.writeBytes(deep, as: .json, limits: limits) }
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try Document.writeBytes(deep, as: .openStep, limits: limits) }
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try Document.writeBytes(deep, as: .typedJSON, limits: limits) }
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
