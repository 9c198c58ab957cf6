import Foundation
@testable import KeyedArchive
import PropertyBased
import PropertyList
import TestSupport
import Testing
import UserInfo

/// The binary archive is written straight from the numbered objects
/// (Specs/keyed-archive.md, "Writer", `directBinaryArchive`); the tree path,
/// the archive as a property list written by `BinaryPropertyListWriter`, is the
/// reference it must equal byte for byte, and refusal for refusal.
@Suite("Keyed archive writer: the direct binary path against the tree path")
struct ArchiveDirectWriterTests {
    private func expectSameBytes(_ value: UserInfoValue, _ comment: Comment? = nil,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let direct = try KeyedArchiveWriter().writeBytes(value)
        let tree = try KeyedArchiveWriter().writeBytesThroughTree(value)
        #expect(direct == tree, comment, sourceLocation: sourceLocation)
        // The tree path is BinaryPropertyListWriter over the archive as a value.
        #expect(tree == [UInt8](try BinaryPropertyListWriter().write(KeyedArchiveWriter().archive(value))), comment, sourceLocation: sourceLocation)
    }

    @Test("generated values: the same bytes")
    func generated() async {
        await propertyCheck(count: 400, input: UserInfoGenerator().generator) { value in
            try expectSameBytes(value)
        }
    }

    /// Strings and numbers equal to what the archive itself holds share its
    /// objects in the binary table, wherever the first of them comes.
    @Test("values equal to the archive's own names and numbers share their objects, as in the tree")
    func valuesEqualToFieldNames() throws {
        let names = ["$class", "NS.keys", "NS.objects", "NS.time", "NS.uuidbytes", "NS.base", "NS.relative",
                     "$classes", "$classname", "NSObject", "NSDictionary", "NSArray", "NSSet", "NSDate", "NSUUID", "NSURL",
                     "NSNull", "root", "NSKeyedArchiver", "$archiver", "$objects", "$top", "$version"]
        for name in names {
            try expectSameBytes(.string(name), "\(name) alone")
            try expectSameBytes([name: .string(name)], "\(name) as key and value")
            try expectSameBytes([.string(name), .date(Date(timeIntervalSinceReferenceDate: 1)), .uuid(UUID()), .null], "\(name) first")
            try expectSameBytes([.null, .set([.string(name), 2]), .string(name)], "\(name) after a container")
        }
        try expectSameBytes(.dictionary(UserInfoDictionary(uniqueKeysWithValues: names.map { ($0, UserInfoValue.string($0)) })))
        for number: UserInfoValue in [100_000, 0, 1, 255, 256, -1, .number(.real(100_000)), .number(.bool(true))] {
            try expectSameBytes(number, "\(number)")
            try expectSameBytes(["v": number, "w": [number, number]], "\(number) twice")
        }
        try expectSameBytes(.url(UserInfoURL(relative: "b/c", base: UserInfoURL(relative: "https://example.com/a/"))))
    }

    @Test("many objects: references and UIDs wider than one byte")
    func wideReferences() throws {
        let wide = UserInfoValue.array((0..<700).map { .string("s\($0 % 400)") } + (0..<300).map { .date(Date(timeIntervalSinceReferenceDate: Double($0))) })
        try expectSameBytes(wide)
        try expectSameBytes(["a": wide, "b": .set(UserInfoSet((0..<300).map { UserInfoValue(integerLiteral: Int64($0)) }))])
    }

    /// The direct path charges what the binary writer charges for the tree,
    /// node for node, so both refuse at the same limit: swept around the
    /// archive's expanded size, and over small depths.
    @Test("the binary table's limits refuse exactly where the tree's do")
    func limitsSweep() throws {
        let value: UserInfoValue = ["trip": ["stops": ["a", "b", 3], "when": .date(Date(timeIntervalSinceReferenceDate: 5))],
                                    "id": .uuid(UUID()), "page": .url(UserInfoURL(relative: "https://example.com/x")), "none": .null]
        var builder = ArchiveBuilder(maxDepth: 64, maxExpandedBytes: 1 << 30)
        let root = try builder.encode(value, depth: 0)
        let tree = builder.propertyList(root: root)
        var crossings = 0
        var mismatches: [String] = []
        var previous: Bool?
        for limit in 0..<6_000 {
            let limits = WriterLimits(maxExpandedBytes: limit)
            let direct = outcome(keyPath: false) { () throws(PropertyListError) in try builder.binaryArchive(root: root, limits: limits) }
            let reference = outcome(keyPath: false) { () throws(PropertyListError) in try BinaryPropertyListWriter(limits: limits).writeBytes(tree) }
            if direct != reference { mismatches.append("maxExpandedBytes \(limit): \(direct.prefix(80)) against \(reference.prefix(80))") }
            let written = reference.hasPrefix("bytes")
            if written && previous == false { crossings += 1 }
            previous = written
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) limits disagree; the first: \(mismatches.prefix(3))")
        #expect(crossings == 1, "the sweep crosses the archive's expanded size once")
        for depth in 0...5 {
            let limits = WriterLimits(maxDepth: depth)
            let direct = outcome(keyPath: false) { () throws(PropertyListError) in try builder.binaryArchive(root: root, limits: limits) }
            let reference = outcome(keyPath: false) { () throws(PropertyListError) in try BinaryPropertyListWriter(limits: limits).writeBytes(tree) }
            #expect(direct == reference, "maxDepth \(depth)")
        }
    }

    @Test("refusals of the userInfo value are the tree path's")
    func refusals() {
        let values: [UserInfoValue] = [["a": "$null"], ["$null": 1], [.date(Date(timeIntervalSinceReferenceDate: .infinity))],
                                       .url(UserInfoURL(relative: "a b")), ["tags": .set([1, 1.0])]]
        for value in values {
            let direct = outcome { () throws(UserInfoError) in try KeyedArchiveWriter().writeBytes(value) }
            let tree = outcome { () throws(UserInfoError) in try KeyedArchiveWriter().writeBytesThroughTree(value) }
            #expect(direct == tree)
            #expect(direct.hasPrefix("refused"), "\(direct)")
        }
        let deep = (0..<40).reduce(UserInfoValue.string("x")) { inner, _ in [inner] }
        let limits = WriterLimits(maxDepth: 20)
        #expect(throws: UserInfoError(.depthLimitExceeded, "")) { try KeyedArchiveWriter(limits: limits).writeBytes(deep) }
    }

    @Test("each class's ordinal is its place among allCases (the builder's class table)")
    func classOrdinals() {
        #expect(ArchiveClass.allCases.map(\.ordinal) == Array(ArchiveClass.allCases.indices))
    }

    /// What a write gave, for comparing two paths: the bytes, or the refusal's code, key path and reason.
    /// (Without `keyPath`, the refusal's place is left out: the direct path
    /// leaves naming it to the tree path, which the writer falls back to.)
    private func outcome<Failure: CodecError>(keyPath: Bool = true, _ write: () throws(Failure) -> [UInt8]) -> String {
        do { return "bytes \(try write())" } catch {
            return keyPath ? "refused \(error.code) at \(error.keyPath): \(error.reason)" : "refused \(error.code): \(error.reason)"
        }
    }
}
