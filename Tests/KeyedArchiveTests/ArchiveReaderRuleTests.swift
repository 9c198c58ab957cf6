import Foundation
import KeyedArchive
import PropertyList
import TestSupport
import Testing
import UserInfo

/// One test per rule of Specs/keyed-archive.md ("Reader rules"), each with a
/// small archive written by hand from the spec.
@Suite("Keyed archive reader rules")
struct ArchiveReaderRuleTests {
    // MARK: Accepted shapes (as macOS, Linux Foundation, PyObjC and bpylist2 write them)

    @Test("accepts macOS's array with a shared string (NSKeyedUnarchiver-ArrayTest's layout)")
    func macOSArray() throws {
        let plist = archive([["NS.objects": uids(2, 2, 3, 4), "$class": .uid(5)], "baa", "black", "sheep", classEntry("NSArray")])
        #expect(try unarchive(plist) == ["baa", "baa", "black", "sheep"])
    }

    @Test("accepts macOS's URL with a base (NSKeyedUnarchiver-URLTest's layout)")
    func macOSURL() throws {
        let plist = archive([
            ["$class": .uid(4), "NS.base": .uid(2), "NS.relative": .uid(5)],
            ["$class": .uid(4), "NS.base": .uid(0), "NS.relative": .uid(3)],
            "https://www.example.com", classEntry("NSURL"), "foo.xml",
        ])
        #expect(try unarchive(plist) == .url(UserInfoURL(relative: "foo.xml", base: UserInfoURL(relative: "https://www.example.com"))))
    }

    @Test("accepts UUIDs, dates, null, mutable variants and their chains")
    func otherClasses() throws {
        let bytes = Data([0x0A, 0xD8, 0x63, 0xBA, 0x75, 0x84, 0x40, 0xCF, 0x88, 0x96, 0xBD, 0x87, 0xB3, 0x28, 0x0C, 0x34])
        let plist = archive([
            ["NS.objects": uids(2, 4, 6, 8, 10, 12), "$class": .uid(14)],
            ["NS.uuidbytes": .data(bytes), "$class": .uid(3)], classEntry("NSUUID"),
            ["NS.time": 10.5, "$class": .uid(5)], classEntry("NSDate"),
            ["$class": .uid(7)], classEntry("NSNull"),
            ["NS.string": "mutable", "$class": .uid(9)], classEntry("NSMutableString", ["NSMutableString", "NSString", "NSObject"]),
            ["NS.data": .data(Data([1])), "$class": .uid(11)], classEntry("NSMutableData", ["NSMutableData", "NSData", "NSObject"]),
            ["NS.keys": uids(), "NS.objects": uids(), "$class": .uid(13)],
            classEntry("NSMutableDictionary", ["NSMutableDictionary", "NSDictionary", "NSObject"]),
            classEntry("NSMutableSet", ["NSMutableSet", "NSSet", "NSObject"]),
        ])
        let expected: UserInfoValue = .set([.uuid(UUID(uuidString: "0AD863BA-7584-40CF-8896-BD87B3280C34")!),
                                            .date(Date(timeIntervalSinceReferenceDate: 10.5)), nil, "mutable",
                                            .data(Data([1])), .dictionary([:])])
        #expect(try unarchive(plist) == expected)
    }

    @Test("accepts a class its hints map to an allowed class (PyObjC's hinted string, with its extra field)")
    func hintedClass() throws {
        let plist = archive([
            ["$class": .uid(2), "NS.string": "KeyArchive UID Test", "pytype": 1],
            ["$classname": "OC_BuiltinPythonUnicode",
             "$classes": ["OC_BuiltinPythonUnicode", "OC_PythonUnicode", "NSString", "NSObject"],
             "$classhints": ["OC_PythonString", "NSString"]],
        ])
        #expect(try unarchive(plist) == "KeyArchive UID Test")
    }

    @Test("accepts bpylist2's chains of the class alone")
    func bpylist2Chains() throws {
        let plist = archive([["$class": .uid(2), "NS.objects": uids(3)], classEntry("NSArray", ["NSArray"]), "x"])
        #expect(try unarchive(plist) == ["x"])
    }

    @Test("accepts the legacy root key $$0")
    func legacyRoot() throws {
        let plist = replacing("$top", with: ["$$0": .uid(1)], in: archive(["hello"]))
        #expect(try unarchive(plist) == "hello")
    }

    // MARK: Archive

    @Test("missingArchiveKey: $archiver, $version, $top and $objects are all present")
    func missingArchiveKey() {
        for key in ["$archiver", "$version", "$top", "$objects"] {
            #expect(unarchiveError(removing(key, from: archive(["x"])))?.code == .missingArchiveKey, "\(key)")
        }
        #expect(unarchiveError(["not", "a", "dictionary"])?.code == .missingArchiveKey)
    }

    @Test("unexpectedArchiveKey: no other top-level keys")
    func unexpectedArchiveKey() {
        #expect(unarchiveError(replacing("$extra", with: 1, in: archive(["x"])))?.code == .unexpectedArchiveKey)
    }

    @Test("wrongArchiver: $archiver is the string NSKeyedArchiver")
    func wrongArchiver() {
        #expect(unarchiveError(archive(["x"], archiver: "NSArchiver"))?.code == .wrongArchiver)
        #expect(unarchiveError(archive(["x"], archiver: 1))?.code == .wrongArchiver)
    }

    @Test("wrongVersion: $version is the integer 100000")
    func wrongVersion() {
        #expect(unarchiveError(archive(["x"], version: 100_001))?.code == .wrongVersion)
        #expect(unarchiveError(archive(["x"], version: "100000"))?.code == .wrongVersion)
        #expect(unarchiveError(archive(["x"], version: 100_000.0))?.code == .wrongVersion)
    }

    @Test("badObjects: $objects is an array starting with $null")
    func badObjects() {
        #expect(unarchiveError(replacing("$objects", with: "x", in: archive([])))?.code == .badObjects)
        #expect(unarchiveError(replacing("$objects", with: [], in: archive([])))?.code == .badObjects)
        #expect(unarchiveError(replacing("$objects", with: ["null", "x"], in: archive([])))?.code == .badObjects)
    }

    @Test("badTop: one root key holding a UID")
    func badTop() {
        for top: PropertyListValue in [1, [:], ["root": 1], ["other": .uid(1)], ["root": .uid(1), "$$0": .uid(1)]] {
            #expect(unarchiveError(replacing("$top", with: top, in: archive(["x"])))?.code == .badTop, "\(top)")
        }
    }

    @Test("nilRoot: the root is not nil")
    func nilRoot() {
        #expect(unarchiveError(archive([], root: .uid(0)))?.code == .nilRoot)
        #expect(unarchiveError(archive(["$null"]))?.code == .nilRoot)
    }

    @Test("unreferencedObject: every object is reachable from the root")
    func unreferencedObject() {
        let orphanString = unarchiveError(archive(["x", "hidden"]))
        #expect(orphanString?.code == .unreferencedObject)
        #expect(orphanString?.objectIndex == 2)
        #expect(unarchiveError(archive(["x", classEntry("NSArray")]))?.code == .unreferencedObject)
    }

    // MARK: References and graph

    @Test("badReference: every UID is below the object count")
    func badReference() {
        #expect(unarchiveError(archive(["x"], root: .uid(9)))?.code == .badReference)
        #expect(unarchiveError(archive([["NS.objects": uids(99), "$class": .uid(2)], classEntry("NSArray")]))?.code == .badReference)
        #expect(unarchiveError(archive([["NS.objects": uids(), "$class": .uid(99)]]))?.code == .badReference)
    }

    @Test("nilMember: collections hold no nil")
    func nilMember() {
        let array = unarchiveError(archive([["NS.objects": uids(3, 0), "$class": .uid(2)], classEntry("NSArray"), "x"]))
        #expect(array?.code == .nilMember)
        #expect(array?.keyPath.description == "[1]")
        #expect(unarchiveError(archive([["NS.objects": uids(3), "$class": .uid(2)], classEntry("NSSet"), "$null"]))?.code == .nilMember)
        #expect(unarchiveError(archive([["NS.keys": uids(0), "NS.objects": uids(3), "$class": .uid(2)], classEntry("NSDictionary"), "v"]))?.code == .nilMember)
    }

    @Test("cyclicReference: no object contains itself")
    func cyclicReference() {
        #expect(unarchiveError(archive([["NS.objects": uids(1), "$class": .uid(2)], classEntry("NSArray")]))?.code == .cyclicReference)
        let url = archive([["NS.base": .uid(1), "NS.relative": .uid(3), "$class": .uid(2)], classEntry("NSURL"), "a"])
        #expect(unarchiveError(url)?.code == .cyclicReference)
        let indirect = archive([
            ["NS.keys": uids(3), "NS.objects": uids(4), "$class": .uid(2)], classEntry("NSDictionary"), "k",
            ["NS.objects": uids(1), "$class": .uid(5)], classEntry("NSArray"),
        ])
        let error = unarchiveError(indirect)
        #expect(error?.code == .cyclicReference)
        #expect(error?.keyPath.description == "k[0]")
    }

    @Test("depthLimitExceeded: 512 nested containers pass, 513 are refused")
    func depthLimit() throws {
        func nested(_ depth: Int) -> PropertyListValue {
            // Objects 1…depth are arrays holding the next; then the class entry, then a string.
            var objects: [PropertyListValue] = (1...depth).map { level in
                ["NS.objects": uids(UInt32(level == depth ? depth + 2 : level + 1)), "$class": .uid(UInt32(depth + 1))]
            }
            objects.append(classEntry("NSArray"))
            objects.append("bottom")
            return archive(objects)
        }
        _ = try unarchive(nested(512))
        #expect(unarchiveError(nested(513))?.code == .depthLimitExceeded)
        #expect(unarchiveError(nested(20_000))?.code == .depthLimitExceeded)
    }

    @Test("collectionLimitExceeded: NS.objects and NS.keys are bounded")
    func collectionLimit() {
        var limits = PropertyListLimits()
        limits.maxCollectionCount = 2
        #expect(unarchiveError(archive([["NS.objects": uids(3, 3, 3), "$class": .uid(2)], classEntry("NSArray"), "x"]), limits: limits)?.code == .collectionLimitExceeded)
    }

    @Test("expansionLimitExceeded: a 2^60-node graph of shared arrays is refused, not expanded")
    func expansionBomb() throws {
        // Objects 1…60: arrays holding the next one twice; 61: class; 62: a string.
        var objects: [PropertyListValue] = (1...60).map { level in
            let next = UInt32(level == 60 ? 62 : level + 1)
            return ["NS.objects": uids(next, next), "$class": .uid(61)]
        }
        objects.append(classEntry("NSArray"))
        objects.append("leaf")
        #expect(unarchiveError(archive(objects))?.code == .expansionLimitExceeded)
        // Refused at once: plistkit unarchive does it in a bounded count of
        // instructions past its start (callgrind; was timed: under 100 ms).
        let bytes = try BinaryPropertyListWriter().writeBytes(archive(objects))
        let counted = try WorkCount.plistkit(["unarchive", "{}"], input: bytes)
        #expect(counted.status == 1)
        let work = counted.count - WorkCount.startup(for: ["unarchive", "{}"])
        print("keyed 2^60 bomb: \(work) instructions beyond start-up")
        #expect(work < 20_000_000, "\(work) instructions")
    }

    @Test("unexpectedObjectType: no inline UIDs, dates, arrays or nulls in $objects")
    func unexpectedObjectType() {
        for inline: PropertyListValue in [.uid(0), .date(Date(timeIntervalSinceReferenceDate: 0)), ["x"], .null] {
            #expect(unarchiveError(archive([inline]))?.code == .unexpectedObjectType, "\(inline)")
        }
    }

    // MARK: Classes

    @Test("missingClass: object dictionaries have a $class")
    func missingClass() {
        #expect(unarchiveError(archive([["NS.objects": uids()]]))?.code == .missingClass)
        #expect(unarchiveError(archive([["NS.objects": uids(), "$class": .uid(0)]]))?.code == .missingClass)
    }

    @Test("inconsistentClass: class entries are well formed and agree with Apple's chains")
    func inconsistentClass() {
        let entries: [PropertyListValue] = [
            "NSArray",                                                                   // not a dictionary
            ["$classname": "NSArray"],                                                   // no chain
            ["$classname": "NSArray", "$classes": []],                                   // empty chain
            classEntry("NSArray", ["NSObject", "NSArray"]),                              // chain not starting with the name
            classEntry("NSArray", ["NSArray", "NSDictionary", "NSObject"]),              // foreign superclass
            classEntry("NSArray", ["NSArray", "NSArray"]),                               // repeated name
            ["$classname": "NSArray", "$classes": ["NSArray", 1]],                       // not strings
            ["$classname": "NSArray", "$classes": ["NSArray", "NSObject"], "$extra": 1],  // other key
            ["$classname": 1, "$classes": ["NSArray", "NSObject"]],                      // name not a string
        ]
        for entry in entries {
            #expect(unarchiveError(archive([["NS.objects": uids(), "$class": .uid(2)], entry]))?.code == .inconsistentClass, "\(entry)")
        }
    }

    @Test("classNotAllowed: only the ten classes and their mutable variants")
    func classNotAllowed() {
        for name in ["NSValue", "NSCountedSet", "NSOrderedSet", "NSAttributedString", "crap.Foo", "NSNumber"] {
            #expect(unarchiveError(archive([["$class": .uid(2)], classEntry(name)]))?.code == .classNotAllowed, "\(name)")
        }
        // A hint to an allowed class that the chain does not contain is no way in.
        let sneaky = archive([["$class": .uid(2), "NS.string": "x"],
                              ["$classname": "Evil", "$classes": ["Evil", "NSObject"], "$classhints": ["NSString"]]])
        #expect(unarchiveError(sneaky)?.code == .classNotAllowed)
    }

    @Test("unexpectedField: NS. and $ fields are the class's own")
    func unexpectedField() {
        #expect(unarchiveError(archive([["NS.objects": uids(), "NS.keys": uids(), "$class": .uid(2)], classEntry("NSArray")]))?.code == .unexpectedField)
        #expect(unarchiveError(archive([["NS.value": 1, "$class": .uid(2)], classEntry("NSNull")]))?.code == .unexpectedField)
        #expect(unarchiveError(archive([["NS.key.0": .uid(0), "NS.keys": uids(), "NS.objects": uids(), "$class": .uid(2)], classEntry("NSDictionary")]))?.code == .unexpectedField)
        #expect(unarchiveError(archive([["$classname": "x", "NS.objects": uids(), "$class": .uid(2)], classEntry("NSArray")]))?.code == .unexpectedField)
    }

    @Test("missingField: each class has the fields it reads")
    func missingField() {
        let cases: [(PropertyListValue, String)] = [
            (["$class": .uid(2)], "NSArray"), (["NS.keys": uids(), "$class": .uid(2)], "NSDictionary"),
            (["$class": .uid(2)], "NSDate"), (["$class": .uid(2)], "NSUUID"),
            (["NS.base": .uid(0), "$class": .uid(2)], "NSURL"), (["$class": .uid(2)], "NSMutableString"),
        ]
        for (object, name) in cases {
            let entry = name == "NSMutableString" ? classEntry(name, ["NSMutableString", "NSString", "NSObject"]) : classEntry(name)
            #expect(unarchiveError(archive([object, entry]))?.code == .missingField, "\(name)")
        }
        // NSURL without NS.base (Apple always writes it, 0 when there is none).
        #expect(unarchiveError(archive([["NS.relative": .uid(3), "$class": .uid(2)], classEntry("NSURL"), "a"]))?.code == .missingField)
    }

    @Test("wrongFieldType: fields have the types their classes read")
    func wrongFieldType() {
        let cases: [[PropertyListValue]] = [
            [["NS.objects": "x", "$class": .uid(2)], classEntry("NSArray")],
            [["NS.objects": [1], "$class": .uid(2)], classEntry("NSArray")],
            [["NS.keys": uids(), "NS.objects": [.uid(0), 1], "$class": .uid(2)], classEntry("NSDictionary")],
            [["NS.uuidbytes": .data(Data(count: 15)), "$class": .uid(2)], classEntry("NSUUID")],
            [["NS.uuidbytes": "0AD863BA-7584-40CF-8896-BD87B3280C34", "$class": .uid(2)], classEntry("NSUUID")],
            [["NS.time": "10", "$class": .uid(2)], classEntry("NSDate")],
            [["NS.time": 10, "$class": .uid(2)], classEntry("NSDate")],
            [["NS.base": .uid(0), "NS.relative": .uid(3), "$class": .uid(2)], classEntry("NSURL"), 7],
            [["NS.base": .uid(3), "NS.relative": .uid(3), "$class": .uid(2)], classEntry("NSURL"), "a"],
            [["NS.base": .uid(0), "NS.relative": "a", "$class": .uid(2)], classEntry("NSURL")],
            [["NS.data": .uid(3), "$class": .uid(2)], classEntry("NSMutableData", ["NSMutableData", "NSData", "NSObject"]), .data(Data())],
            [["NS.objects": uids(), "$class": 2], classEntry("NSArray")],
        ]
        for objects in cases {
            #expect(unarchiveError(archive(objects))?.code == .wrongFieldType, "\(objects[0])")
        }
    }

    @Test("wrongFieldType: the expected type is checked at every reference, also of a shared object")
    func checkedOnEveryReference() {
        // Object 4 is a URL, used first as an array member (fine) and then as NS.relative (must be a string).
        let plist = archive([
            ["NS.objects": uids(4, 5), "$class": .uid(2)], classEntry("NSArray"), classEntry("NSURL"),
            ["NS.base": .uid(0), "NS.relative": .uid(6), "$class": .uid(3)],
            ["NS.base": .uid(0), "NS.relative": .uid(4), "$class": .uid(3)],
            "https://a.example",
        ])
        #expect(unarchiveError(plist)?.code == .wrongFieldType)
    }

    @Test("invalidDate: NS.time is finite")
    func invalidDate() {
        for seconds in [Double.nan, .infinity, -.infinity] {
            #expect(unarchiveError(archive([["NS.time": .real(seconds), "$class": .uid(2)], classEntry("NSDate")]))?.code == .invalidDate)
        }
    }

    @Test("keysObjectsMismatch: NS.keys and NS.objects have equal lengths")
    func keysObjectsMismatch() {
        #expect(unarchiveError(archive([["NS.keys": uids(3), "NS.objects": uids(), "$class": .uid(2)], classEntry("NSDictionary"), "k"]))?.code == .keysObjectsMismatch)
    }

    @Test("nonStringKey: dictionary keys are strings")
    func nonStringKey() {
        #expect(unarchiveError(archive([["NS.keys": uids(3), "NS.objects": uids(3), "$class": .uid(2)], classEntry("NSDictionary"), 5]))?.code == .nonStringKey)
        #expect(unarchiveError(archive([["NS.keys": uids(3), "NS.objects": uids(3), "$class": .uid(2)], classEntry("NSDictionary"),
                                        ["NS.time": 1.0, "$class": .uid(4)], classEntry("NSDate")]))?.code == .nonStringKey)
    }

    @Test("duplicateKey: each key once, canonically equivalent spellings included")
    func duplicateKey() {
        #expect(unarchiveError(archive([["NS.keys": uids(3, 3), "NS.objects": uids(3, 3), "$class": .uid(2)], classEntry("NSDictionary"), "k"]))?.code == .duplicateKey)
        #expect(unarchiveError(archive([["NS.keys": uids(3, 4), "NS.objects": uids(3, 4), "$class": .uid(2)], classEntry("NSDictionary"), "\u{E9}", "e\u{301}"]))?.code == .duplicateKey)
    }

    @Test("duplicateSetMember: no member twice")
    func duplicateSetMember() {
        #expect(unarchiveError(archive([["NS.objects": uids(3, 3), "$class": .uid(2)], classEntry("NSSet"), "x"]))?.code == .duplicateSetMember)
        #expect(unarchiveError(archive([["NS.objects": uids(3, 4), "$class": .uid(2)], classEntry("NSSet"), "x", ["NS.string": "x", "$class": .uid(5)],
                                        classEntry("NSMutableString", ["NSMutableString", "NSString", "NSObject"])]))?.code == .duplicateSetMember)
    }

    @Test("ambiguousSetMembers: no two members Foundation would merge (1, 1.0, true; [1] and [1.0])")
    func ambiguousSetMembers() {
        for pair: (PropertyListValue, PropertyListValue) in [(1, 1.0), (true, 1), (false, 0.0), (0.0, -0.0)] {
            #expect(unarchiveError(archive([["NS.objects": uids(3, 4), "$class": .uid(2)], classEntry("NSSet"), pair.0, pair.1]))?.code == .ambiguousSetMembers, "\(pair)")
        }
        let nested = archive([["NS.objects": uids(3, 5), "$class": .uid(2)], classEntry("NSSet"),
                              ["NS.objects": uids(6), "$class": .uid(4)], classEntry("NSArray"),
                              ["NS.objects": uids(7), "$class": .uid(4)], 1, 1.0])
        #expect(unarchiveError(nested)?.code == .ambiguousSetMembers)
    }

    @Test("invalidURL: URL strings Foundation can parse")
    func invalidURL() {
        for relative: PropertyListValue in ["a b", "https://x.org/%zz", "http://[::1"] {
            #expect(unarchiveError(archive([["NS.base": .uid(0), "NS.relative": .uid(3), "$class": .uid(2)], classEntry("NSURL"), relative]))?.code == .invalidURL, "\(relative)")
        }
        #expect(unarchiveError(archive([["NS.base": .uid(0), "NS.relative": .uid(3), "$class": .uid(2)], classEntry("NSURL"), ""]))?.code == .invalidURL)
    }

    @Test("propertyList: bytes that are not a property list report the underlying error")
    func propertyList() {
        #expect(throws: UserInfoError(.propertyList, "")) { try KeyedArchiveReader().read(Data("bplist00junk".utf8)) }
        do {
            _ = try KeyedArchiveReader().read(Data("bplist00junk".utf8))
        } catch {
            #expect(error.underlying?.code == .truncated)
        }
    }

    @Test("errors name the object index and the key path")
    func errorLocation() {
        let plist = archive([
            ["NS.keys": uids(3), "NS.objects": uids(4), "$class": .uid(2)], classEntry("NSDictionary"), "cart",
            ["NS.objects": uids(5), "$class": .uid(6)], ["NS.time": .real(.nan), "$class": .uid(7)], classEntry("NSArray"), classEntry("NSDate"),
        ])
        let error = unarchiveError(plist)
        #expect(error?.code == .invalidDate)
        #expect(error?.objectIndex == 5)
        #expect(error?.keyPath.description == "cart[0]")
        #expect(error?.description == "NS.time is nan (object 5, key path cart[0])")
    }
}
