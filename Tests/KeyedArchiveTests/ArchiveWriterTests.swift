import Foundation
import KeyedArchive
import PropertyList
import Testing
import UserInfo

/// The writer produces macOS's NSKeyedArchiver layout. The expected object lists
/// are written by hand from Specs/keyed-archive.md ("Writer"); they are also
/// exactly the `$objects` of the macOS archives NSKeyedUnarchiver-ArrayTest,
/// -URLTest and -ComplexTest in the conformance corpus.
@Suite("Keyed archive writer")
struct ArchiveWriterTests {
    private func written(_ value: UserInfoValue) throws -> PropertyListValue {
        try KeyedArchiveWriter().archive(value)
    }

    @Test("the top level: $archiver, $version, $top.root, $objects starting with $null")
    func topLevel() throws {
        let plist = try written("x")
        #expect(plist["$archiver"] == "NSKeyedArchiver")
        #expect(plist["$version"] == 100_000)
        #expect(plist["$top"] == ["root": .uid(1)])
        #expect(objects(plist) == ["$null", "x"])
        #expect(plist.dictionaryValue?.count == 4)
    }

    @Test("an array with a repeated string: one shared string object, class after members (ArrayTest)")
    func arrayLayout() throws {
        let plist = try written(["baa", "baa", "black", "sheep"])
        #expect(objects(plist) == ["$null", ["NS.objects": uids(2, 2, 3, 4), "$class": .uid(5)], "baa", "black", "sheep", classEntry("NSArray")])
    }

    @Test("a URL with a base: base first, its class, then the relative string (URLTest)")
    func urlLayout() throws {
        let plist = try written(.url(UserInfoURL(relative: "foo.xml", base: UserInfoURL(relative: "https://www.example.com"))))
        #expect(objects(plist) == [
            "$null",
            ["$class": .uid(4), "NS.base": .uid(2), "NS.relative": .uid(5)],
            ["$class": .uid(4), "NS.base": .uid(0), "NS.relative": .uid(3)],
            "https://www.example.com", classEntry("NSURL"), "foo.xml",
        ])
    }

    @Test("a dictionary of the ten types: keys, then values in order, classes when first needed (ComplexTest)")
    func complexLayout() throws {
        let uuid = UUID(uuidString: "71DC068E-3420-45FF-919E-3A267D55EC22")!
        let value: UserInfoValue = [
            "array": [nil, "hello", 34545, ["key": "val"]],
            "string": "hello",
            "url": .url(UserInfoURL(relative: "index.xml", base: UserInfoURL(relative: "https://www.swift.org"))),
            "uuid": .uuid(uuid),
        ]
        let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        #expect(objects(try written(value)) == [
            "$null",
            ["NS.keys": uids(2, 3, 4, 5), "NS.objects": uids(6, 9, 16, 21), "$class": .uid(14)],
            "array", "string", "url", "uuid",
            ["NS.objects": uids(7, 9, 10, 11), "$class": .uid(15)],
            ["$class": .uid(8)], classEntry("NSNull"),
            "hello", 34545,
            ["NS.keys": uids(12), "NS.objects": uids(13), "$class": .uid(14)], "key", "val",
            classEntry("NSDictionary"), classEntry("NSArray"),
            ["NS.base": .uid(17), "$class": .uid(19), "NS.relative": .uid(20)],
            ["NS.base": .uid(0), "$class": .uid(19), "NS.relative": .uid(18)],
            "https://www.swift.org", classEntry("NSURL"), "index.xml",
            ["NS.uuidbytes": .data(bytes), "$class": .uid(22)], classEntry("NSUUID"),
        ])
    }

    @Test("dates, data, numbers and a set: NS.time, inline scalars, members in canonical order")
    func scalarsAndSets() throws {
        let plist = try written([.date(Date(timeIntervalSinceReferenceDate: 10.5)), .data(Data([1])), 1, 1.5, true,
                                 .set(["b", "a"])])
        #expect(objects(plist) == [
            "$null",
            ["NS.objects": uids(2, 4, 5, 6, 7, 8), "$class": .uid(12)],
            ["NS.time": 10.5, "$class": .uid(3)], classEntry("NSDate"),
            .data(Data([1])), 1, 1.5, true,
            ["NS.objects": uids(9, 10), "$class": .uid(11)], "a", "b",
            classEntry("NSSet"), classEntry("NSArray"),
        ])
    }

    @Test("null is one shared object; integers, reals and booleans are never shared with each other")
    func sharing() throws {
        let plist = try written([nil, nil, 1, 1.0, true, 1])
        #expect(objects(plist) == [
            "$null", ["NS.objects": uids(2, 2, 4, 5, 6, 4), "$class": .uid(7)],
            ["$class": .uid(3)], classEntry("NSNull"), 1, 1.0, true, classEntry("NSArray"),
        ])
    }

    @Test("the same value gives the same bytes, whatever the insertion order of dictionaries and sets")
    func deterministic() throws {
        var a = UserInfoDictionary(), b = UserInfoDictionary()
        for key in ["one", "two", "three"] { a[key] = .set(UserInfoSet([.string(key), 1, "z"])) }
        for key in ["three", "two", "one"] { b[key] = .set(UserInfoSet(["z", 1, .string(key)])) }
        #expect(try KeyedArchiveWriter().write(.dictionary(a)) == KeyedArchiveWriter().write(.dictionary(b)))
    }

    @Test("reservedString: the string $null is refused (NSKeyedUnarchiver reads it as nil), also as a key")
    func reservedString() {
        #expect(throws: UserInfoError(.reservedString, "")) { try KeyedArchiveWriter().archive(["$null"]) }
        #expect(throws: UserInfoError(.reservedString, "")) { try KeyedArchiveWriter().archive(["$null": 1]) }
    }

    @Test("ambiguousSetMembers: sets Foundation would shrink are refused, with the key path")
    func ambiguousSets() {
        do {
            _ = try KeyedArchiveWriter().archive(["tags": .set([1, 1.0])])
            Issue.record("accepted")
        } catch {
            #expect(error.code == .ambiguousSetMembers)
            #expect(error.keyPath.description == "tags[1]")
        }
    }

    @Test("invalidURL and invalidDate: the writer refuses what the reader refuses")
    func invalidValues() {
        #expect(throws: UserInfoError(.invalidURL, "")) { try KeyedArchiveWriter().archive(.url(UserInfoURL(relative: "a b"))) }
        #expect(throws: UserInfoError(.invalidDate, "")) { try KeyedArchiveWriter().archive(.date(Date(timeIntervalSinceReferenceDate: .infinity))) }
    }

    @Test("depthLimitExceeded: the writer refuses nesting the reader would refuse")
    func depth() throws {
        var value: UserInfoValue = "bottom"
        for _ in 0..<512 { value = [value] }
        _ = try KeyedArchiveWriter().archive(value)
        value = [value]
        #expect(throws: UserInfoError(.depthLimitExceeded, "")) { try KeyedArchiveWriter().archive(value) }
    }
}
