import Foundation
import PropertyList
import TestSupport
import Testing

/// One test per rule of Specs/binary-plist.md, each with a small input written
/// by hand from the spec. Object bytes are annotated; `bplist(_:)` adds the
/// offset table and trailer.
@Suite("Binary reader rules")
struct BinaryReaderRuleTests {
    // MARK: Accepted forms

    @Test("accepts every scalar type Apple writes")
    func acceptsScalars() throws {
        let file = bplist([
            [0xAC, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],  // 0: array of 12
            [0x08],                                        // 1: false
            [0x09],                                        // 2: true
            [0x10, 0xFF],                                  // 3: int 255 (1 byte, unsigned)
            [0x11, 0xFF, 0xFE],                            // 4: int 65534 (2 bytes)
            [0x12, 0xFF, 0xFF, 0xFF, 0xFF],                // 5: int 4294967295 (4 bytes, unsigned)
            [0x13] + bigEndian(UInt64(bitPattern: -2), width: 8),  // 6: int -2 (8 bytes, signed)
            [0x22, 0x3F, 0xC0, 0x00, 0x00],                // 7: float32 1.5
            [0x23] + bigEndian((0.1).bitPattern, width: 8), // 8: float64 0.1
            [0x33] + bigEndian((-1.25).bitPattern, width: 8), // 9: date 2000-12-31T23:59:58.75Z
            [0x43, 0xDE, 0xAD, 0x01],                      // 10: data(3)
            [0x52, 0x68, 0x69],                            // 11: "hi"
            [0x63, 0xD8, 0x3D, 0xDE, 0x00, 0x00, 0xE9],    // 12: UTF-16 "😀é"
        ])
        let value = try BinaryPropertyListReader().read(file)
        #expect(value == [false, true, 255, 65534, 4_294_967_295, -2, 1.5, 0.1,
                          .date(Date(timeIntervalSinceReferenceDate: -1.25)), .data(Data([0xDE, 0xAD, 0x01])), "hi", "😀é"])
    }

    @Test("accepts the null object (0x00), as CoreFoundation and plistlib do")
    func acceptsNull() throws {
        #expect(try BinaryPropertyListReader().read(bplist([[0x00]])) == .null)
    }

    @Test("accepts UIDs of 1 to 4 bytes")
    func acceptsUIDs() throws {
        let file = bplist([[0xA4, 1, 2, 3, 4], [0x80, 0x07], [0x81, 0x01, 0x00], [0x82, 0x01, 0x00, 0x00], [0x83, 0xFF, 0xFF, 0xFF, 0xFF]])
        #expect(try BinaryPropertyListReader().read(file) == [.uid(7), .uid(256), .uid(65536), .uid(UInt32.max)])
    }

    @Test("16-byte integers: accepted exactly when the value is in [-2^63, 2^64)")
    func sixteenByteIntegers() throws {
        let maxUnsigned = bplist([[0x14] + bigEndian(0, width: 8) + bigEndian(UInt64.max, width: 8)])
        #expect(try BinaryPropertyListReader().read(maxUnsigned) == .integer(PropertyListInteger(UInt64.max)))
        let small = bplist([[0x14] + bigEndian(0, width: 8) + bigEndian(5, width: 8)])
        #expect(try BinaryPropertyListReader().read(small) == 5)
        let negative = bplist([[0x14] + bigEndian(UInt64.max, width: 8) + bigEndian(UInt64(bitPattern: Int64.min), width: 8)])
        #expect(try BinaryPropertyListReader().read(negative) == .integer(PropertyListInteger(Int64.min)))
    }

    @Test("integerOutOfRange: 16-byte integers outside [-2^63, 2^64) are refused")
    func integerOutOfRange() {
        let above = bplist([[0x14] + bigEndian(1, width: 8) + bigEndian(0, width: 8)])  // 2^64
        #expect(binaryError(above)?.code == .integerOutOfRange)
        let below = bplist([[0x14] + bigEndian(UInt64.max, width: 8) + bigEndian(5, width: 8)])  // -2^64 + 5
        #expect(binaryError(below)?.code == .integerOutOfRange)
    }

    @Test("accepts 3-, 5-, 6- and 7-byte offsets and references, as real Xcode files have")
    func oddWidths() throws {
        for width in [3, 5, 6, 7] {
            let file = bplist([[0xA1] + bigEndian(1, width: width), [0x51, 0x78]], offsetSize: width, referenceSize: width)
            #expect(try BinaryPropertyListReader().read(file) == ["x"], "width \(width)")
        }
    }

    @Test("accepts extended counts, including a count below 15 written long")
    func extendedCounts() throws {
        let fifteen = bplist([[0x5F, 0x10, 0x0F] + Array(repeating: 0x61, count: 15)])
        #expect(try BinaryPropertyListReader().read(fifteen) == .string(String(repeating: "a", count: 15)))
        let longThree = bplist([[0x5F, 0x11, 0x00, 0x03, 0x61, 0x62, 0x63]])
        #expect(try BinaryPropertyListReader().read(longThree) == "abc")
    }

    @Test("accepts unreferenced objects (CoreFoundation writes one per repeated boolean) and still checks them")
    func unreferencedObjects() throws {
        // Linux Foundation's bytes for [true, true]: object 2 is a second `true` nothing refers to.
        let foundation = bplist([[0xA2, 1, 1], [0x09], [0x09]])
        #expect(try BinaryPropertyListReader().read(foundation) == [true, true])
        // An unreferenced object must still be valid.
        let badOrphan = bplist([[0xA1, 1], [0x09], [0x53, 0x61, 0x80, 0x62]])
        #expect(binaryError(badOrphan)?.code == .invalidASCII)
    }

    @Test("accepts a shared (de-duplicated) object referenced many times")
    func sharedObjects() throws {
        let file = bplist([[0xA3, 1, 1, 1], [0x51, 0x78]])
        #expect(try BinaryPropertyListReader().read(file) == ["x", "x", "x"])
    }

    // MARK: Header and trailer

    @Test("inputTooLarge: input over maxInputBytes is refused before parsing")
    func inputTooLarge() {
        var limits = PropertyListLimits()
        limits.maxInputBytes = 41
        #expect(binaryError(bplist([[0x09]]), limits: limits)?.code == .inputTooLarge)
    }

    @Test("badMagic: input not starting with bplist")
    func badMagic() {
        #expect(binaryError([])?.code == .badMagic)
        #expect(binaryError(Array("<?xml version=\"1.0\"?>".utf8))?.code == .badMagic)
        var file = bplist([[0x09]])
        file[5] = UInt8(ascii: "x")
        #expect(binaryError(file)?.code == .badMagic)
    }

    @Test("unsupportedBinaryVersion: bplist versions other than 00, including the private bplist1x")
    func unsupportedBinaryVersion() {
        for version in ["15", "16", "17", "01", "0x"] {
            var file = bplist([[0x09]])
            file[6] = Array(version.utf8)[0]
            file[7] = Array(version.utf8)[1]
            #expect(binaryError(file)?.code == .unsupportedBinaryVersion, "bplist\(version)")
        }
    }

    @Test("truncated: shorter than header + object + offset + trailer")
    func truncated() {
        let file = bplist([[0x09]])
        #expect(binaryError(Array(file.prefix(41)))?.code == .truncated)
        #expect(binaryError(Array("bplist00".utf8))?.code == .truncated)
    }

    /// A valid one-object file with one trailer byte replaced.
    private func patchedTrailer(_ position: Int, _ value: UInt8, objects: [[UInt8]] = [[0x09]]) -> [UInt8] {
        var file = bplist(objects)
        file[file.count - 32 + position] = value
        return file
    }

    /// A valid file with one 8-byte trailer field replaced.
    private func patchedField(_ position: Int, _ value: UInt64, objects: [[UInt8]] = [[0x09]]) -> [UInt8] {
        var file = bplist(objects)
        file.replaceSubrange((file.count - 32 + position)..<(file.count - 24 + position), with: bigEndian(value, width: 8))
        return file
    }

    @Test("badTrailer: reserved bytes and sort version are zero")
    func reservedBytes() {
        for position in 0..<6 {
            #expect(binaryError(patchedTrailer(position, 1))?.code == .badTrailer, "byte \(position)")
        }
    }

    @Test("badTrailer: offset and reference sizes are 1...8")
    func sizeFields() {
        #expect(binaryError(patchedTrailer(6, 0))?.code == .badTrailer)
        #expect(binaryError(patchedTrailer(6, 9))?.code == .badTrailer)
        #expect(binaryError(patchedTrailer(7, 0))?.code == .badTrailer)
        #expect(binaryError(patchedTrailer(7, 9))?.code == .badTrailer)
    }

    @Test("badTrailer: at least one object; the top object is one of them")
    func countAndTop() {
        #expect(binaryError(patchedField(8, 0))?.code == .badTrailer)
        #expect(binaryError(patchedField(16, 1))?.code == .badTrailer)
        #expect(binaryError(patchedField(16, UInt64.max))?.code == .badTrailer)
    }

    @Test("objectLimitExceeded: the declared object count is bounded before allocating")
    func objectLimit() {
        #expect(binaryError(patchedField(8, 1 << 62))?.code == .objectLimitExceeded)
        var limits = PropertyListLimits()
        limits.maxObjects = 1
        #expect(binaryError(bplist([[0xA1, 1], [0x09]]), limits: limits)?.code == .objectLimitExceeded)
    }

    @Test("badTrailer: references must be able to address every object (CoreFoundation's rule)")
    func referenceSizeTooSmall() {
        // 256 objects cannot be addressed by 1-byte references (255 is the largest).
        let objects = [[0xAF, 0x11, 0x00, 0xFF] + (1...255).map { UInt8($0) }] + Array(repeating: [0x09] as [UInt8], count: 255)
        #expect(binaryError(bplist(objects, offsetSize: 2))?.code == .badTrailer)
    }

    @Test("badTrailer: offsets must be wide enough to reach the offset table")
    func offsetSizeTooSmall() {
        // One 300-byte data object: the table starts at 311, beyond 1-byte offsets.
        let file = bplist([[0x4F, 0x11, 0x01, 0x2C] + Array(repeating: 0, count: 300)], offsetSize: 1)
        #expect(binaryError(file)?.code == .badTrailer)
    }

    @Test("badOffsetTable: the table lies between the objects and the trailer, with no bytes left over")
    func offsetTablePlacement() {
        let file = bplist([[0x09]])  // table at 9
        #expect(binaryError(patchedField(24, 8))?.code == .badOffsetTable)          // overlaps the header
        #expect(binaryError(patchedField(24, UInt64(file.count - 32)))?.code == .badOffsetTable)  // at the trailer
        #expect(binaryError(patchedField(24, 9, objects: [[0x09], [0x09]]))?.code == .badOffsetTable)  // ends before the trailer
        var slack = file
        slack.insert(0x00, at: 10)  // a byte between table and trailer
        #expect(binaryError(slack)?.code == .badOffsetTable)
        var limits = PropertyListLimits()
        limits.maxObjects = .max
        var overflow = patchedTrailer(6, 8)
        overflow[overflow.count - 32 + 7] = 8
        overflow.replaceSubrange((overflow.count - 24)..<(overflow.count - 16), with: bigEndian(1 << 61, width: 8))
        #expect(binaryError(overflow, limits: limits)?.code == .badOffsetTable)
    }

    @Test("badObjectOffset: offsets point inside the object area")
    func objectOffsets() {
        var low = bplist([[0x09]])
        low[9] = 0x03  // object 0 "at" offset 3, inside the header
        #expect(binaryError(low)?.code == .badObjectOffset)
        var high = bplist([[0x09]])
        high[9] = 0x09  // at the offset table itself
        #expect(binaryError(high)?.code == .badObjectOffset)
    }

    // MARK: Layout

    @Test("unaccountedBytes: objects tile the area between header and table, in table order")
    func unaccountedBytes() {
        // A byte no object accounts for: data(1) followed by a stray byte.
        #expect(binaryError(bplist([[0x41, 0x01, 0xEE]]))?.code == .unaccountedBytes)
        // The first object does not start right after the header.
        var gapFirst = Array("bplist00".utf8) + [0x00, 0x09] + [0x09]
        gapFirst += [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(1, width: 8) + bigEndian(0, width: 8) + bigEndian(10, width: 8)
        #expect(binaryError(gapFirst)?.code == .unaccountedBytes)
        // Two table entries for one object (overlap): objects at 8, 11, 12; entry 2 moved to 11.
        var overlap = bplist([[0xA2, 1, 2], [0x09], [0x08]])
        overlap[overlap.count - 32 - 1] = 11
        #expect(binaryError(overlap)?.code == .unaccountedBytes)
        // Objects out of table order: entries 1 and 2 swapped.
        var swapped = bplist([[0xA2, 1, 2], [0x09], [0x08]])
        swapped[swapped.count - 32 - 2] = 12
        swapped[swapped.count - 32 - 1] = 11
        #expect(binaryError(swapped)?.code == .unaccountedBytes)
    }

    // MARK: Objects

    @Test("badReference: references are below the object count")
    func badReference() {
        #expect(binaryError(bplist([[0xA1, 0x05], [0x09]]))?.code == .badReference)
        #expect(binaryError(bplist([[0xD1, 0x07, 0x01], [0x09]]))?.code == .badReference)
    }

    @Test("objectOverrun: no object or declared count reaches past the object area")
    func objectOverrun() {
        #expect(binaryError(bplist([[0x13, 0x00, 0x00]]))?.code == .objectOverrun)                // 8-byte int cut short
        #expect(binaryError(bplist([[0x4A, 0x00]]))?.code == .objectOverrun)                      // data(10), 1 byte left
        #expect(binaryError(bplist([[0x5F, 0x13] + bigEndian(1 << 40, width: 8)]))?.code == .objectOverrun)  // 2^40 chars
        #expect(binaryError(bplist([[0xAF, 0x12, 0x7F, 0xFF, 0xFF, 0xFF]]))?.code == .objectOverrun)  // 2^31 refs
        #expect(binaryError(bplist([[0x6F, 0x13] + bigEndian(1 << 62, width: 8)]))?.code == .objectOverrun)  // 2^62 units
        #expect(binaryError(bplist([[0x23, 0x00]]))?.code == .objectOverrun)
        #expect(binaryError(bplist([[0x5F]]))?.code == .objectOverrun)
    }

    @Test("badLength: extended lengths are 1-8 byte non-negative integers")
    func badLength() {
        #expect(binaryError(bplist([[0x5F, 0x51, 0x61]]))?.code == .badLength)                    // length is a string
        #expect(binaryError(bplist([[0x5F, 0x14] + Array(repeating: 0, count: 16)]))?.code == .badLength)  // 16-byte length
        #expect(binaryError(bplist([[0x5F, 0x13] + bigEndian(UInt64.max, width: 8)]))?.code == .badLength) // negative
    }

    @Test("invalidASCII: ASCII strings hold bytes below 0x80 only")
    func invalidASCII() {
        let error = binaryError(bplist([[0x53, 0x61, 0xC3, 0xA9]]))
        #expect(error?.code == .invalidASCII)
        #expect(error?.location == .byteOffset(10))
    }

    @Test("invalidUTF16: surrogates come in high-low pairs")
    func invalidUTF16() {
        #expect(binaryError(bplist([[0x61, 0xD8, 0x3D]]))?.code == .invalidUTF16)                  // lone high at end
        #expect(binaryError(bplist([[0x61, 0xDE, 0x00]]))?.code == .invalidUTF16)                  // lone low
        #expect(binaryError(bplist([[0x62, 0xD8, 0x3D, 0x00, 0x61]]))?.code == .invalidUTF16)      // high then 'a'
        #expect(binaryError(bplist([[0x62, 0xD8, 0x3D, 0xD8, 0x3D]]))?.code == .invalidUTF16)      // high then high
    }

    @Test("unknownMarker: marker bytes no property list uses")
    func unknownMarker() {
        for marker: UInt8 in [0x01, 0x07, 0x0A, 0x0B, 0x30, 0x32, 0x34, 0x90, 0xE0, 0xF0, 0xFF] {
            #expect(binaryError(bplist([[marker] + Array(repeating: 0, count: 16)]))?.code == .unknownMarker, "0x\(String(marker, radix: 16))")
        }
    }

    @Test("unsupportedObject: fill, set, ordered set, UTF-8 string, URL and UUID markers")
    func unsupportedObject() {
        for marker: UInt8 in [0x0F, 0x0C, 0x0D, 0x0E, 0x71, 0xB0, 0xC0, 0xC1] {
            #expect(binaryError(bplist([[marker, 0x61]]))?.code == .unsupportedObject, "0x\(String(marker, radix: 16))")
        }
    }

    @Test("badIntegerWidth: integers of 32 bytes and more")
    func badIntegerWidth() {
        #expect(binaryError(bplist([[0x15] + Array(repeating: 0, count: 32)]))?.code == .badIntegerWidth)
    }

    @Test("badRealWidth: reals are 4 or 8 bytes")
    func badRealWidth() {
        #expect(binaryError(bplist([[0x21, 0, 0]]))?.code == .badRealWidth)
        #expect(binaryError(bplist([[0x24] + Array(repeating: 0, count: 16)]))?.code == .badRealWidth)
    }

    @Test("invalidDate: NaN and infinite dates are refused")
    func invalidDate() {
        for seconds in [Double.nan, .infinity, -.infinity] {
            #expect(binaryError(bplist([[0x33] + bigEndian(seconds.bitPattern, width: 8)]))?.code == .invalidDate)
        }
    }

    @Test("uidTooWide: UIDs wider than 4 bytes")
    func uidTooWide() {
        #expect(binaryError(bplist([[0x84, 0, 0, 0, 0, 1]]))?.code == .uidTooWide)
        #expect(binaryError(bplist([[0x8F] + Array(repeating: 0, count: 16)]))?.code == .uidTooWide)
    }

    @Test("cyclicReference: an object may not contain itself")
    func cyclicReference() {
        #expect(binaryError(bplist([[0xA1, 0x00]]))?.code == .cyclicReference)                       // [self]
        #expect(binaryError(bplist([[0xD1, 0x01, 0x00], [0x51, 0x6B]]))?.code == .cyclicReference)   // {k: self}
        let indirect = binaryError(bplist([[0xA1, 0x01], [0xA1, 0x00]]))                             // a → b → a
        #expect(indirect?.code == .cyclicReference)
        #expect(indirect?.keyPath.description == "[0][0]")
    }

    @Test("depthLimitExceeded: 512 nested containers pass, 513 are refused")
    func depthLimit() throws {
        func nested(_ depth: Int) -> [UInt8] {
            let width = depth < 65535 ? 2 : 4
            var objects: [[UInt8]] = (0..<depth).map { [0xA1] + bigEndian(UInt64($0 + 1), width: width) }
            objects.append([0x09])
            return bplist(objects, referenceSize: width)
        }
        _ = try BinaryPropertyListReader().read(nested(512))
        #expect(binaryError(nested(513))?.code == .depthLimitExceeded)
        #expect(binaryError(nested(100_000))?.code == .depthLimitExceeded)
    }

    @Test("depthLimitExceeded: a shared container reused deeper than where it was first decoded")
    func depthLimitThroughSharing() {
        var limits = PropertyListLimits()
        limits.maxDepth = 3
        // 0: [1, 2]; 1: [[x]] (depth 3 when under 0); 2: [1] puts 1 at depth 3..4.
        let file = bplist([[0xA2, 1, 2], [0xA1, 3], [0xA1, 1], [0xA1, 4], [0x09]])
        #expect(binaryError(file, limits: limits)?.code == .depthLimitExceeded)
    }

    @Test("nonStringKey: dictionary keys are strings")
    func nonStringKey() {
        for key: [UInt8] in [[0x10, 0x01], [0x41, 0x61], [0x80, 0x01], [0x09], [0xA0]] {
            #expect(binaryError(bplist([[0xD1, 0x01, 0x02], key, [0x09]]))?.code == .nonStringKey)
        }
    }

    @Test("duplicateKey: each key once, also as separate objects and as canonically equivalent spellings")
    func duplicateKey() {
        #expect(binaryError(bplist([[0xD2, 1, 1, 2, 2], [0x51, 0x6B], [0x09]]))?.code == .duplicateKey)
        #expect(binaryError(bplist([[0xD2, 1, 2, 3, 3], [0x51, 0x6B], [0x61, 0x00, 0x6B], [0x09]]))?.code == .duplicateKey)
        // "é" as U+00E9 and as U+0065 U+0301: one key to Swift and Foundation on Linux, two to CoreFoundation.
        let canonical = bplist([[0xD2, 1, 2, 3, 3], [0x61, 0x00, 0xE9], [0x62, 0x00, 0x65, 0x03, 0x01], [0x09]])
        #expect(binaryError(canonical)?.code == .duplicateKey)
    }

    /// A document of 300 ten-key dictionaries sharing key objects: big enough
    /// for the reader's cache of recent keys and for indexed dictionaries.
    /// Objects: 0 the top array, 1…10 "k0"…"k9", 11 "é" (U+00E9), 12 "e" U+0301,
    /// 13 true, then the dictionaries, the last with `lastKeys`.
    static func sharedKeyDocument(lastKeys: [Int]) -> [UInt8] {
        let dictionaries = 300
        func ref(_ index: Int) -> [UInt8] { bigEndian(UInt64(index), width: 2) }
        var objects: [[UInt8]] = [[0xAF, 0x11] + bigEndian(UInt64(dictionaries), width: 2) + (0..<dictionaries).flatMap { ref(14 + $0) }]
        objects += (0..<10).map { [0x52] + Array("k\($0)".utf8) }
        objects += [[0x61, 0x00, 0xE9], [0x62, 0x00, 0x65, 0x03, 0x01], [0x09]]
        for position in 0..<dictionaries {
            let keys = position == dictionaries - 1 ? lastKeys
                : position == 0 ? Array(1...9) + [11] : position == 1 ? Array(1...9) + [12] : Array(1...10)
            objects.append([0xDA] + keys.flatMap(ref) + Array(repeating: 13, count: 10).flatMap(ref))
        }
        return bplist(objects, referenceSize: 2)
    }

    @Test("duplicateKey in a large document: key objects reused across dictionaries, indexed dictionaries")
    func duplicateKeyWithSharedKeys() throws {
        let valid = try BinaryPropertyListReader().read(Self.sharedKeyDocument(lastKeys: Array(1...10)))
        let dictionaries = try #require(valid.arrayValue)
        #expect(dictionaries.count == 300)
        #expect(dictionaries[0]["\u{E9}"] == .bool(true) && dictionaries[1]["e\u{301}"] == .bool(true))
        #expect(dictionaries.allSatisfy { $0.dictionaryValue?.count == 10 && $0["k8"] == .bool(true) })
        // The same key object twice, both met before in other dictionaries.
        #expect(binaryError(Self.sharedKeyDocument(lastKeys: Array(1...9) + [1]))?.code == .duplicateKey)
        // Two key objects spelling "é" two ways, each met before on its own.
        #expect(binaryError(Self.sharedKeyDocument(lastKeys: Array(1...8) + [11, 12]))?.code == .duplicateKey)
    }

    @Test("collectionLimitExceeded, stringLimitExceeded, dataLimitExceeded")
    func sizeLimits() {
        var limits = PropertyListLimits()
        limits.maxCollectionCount = 2
        #expect(binaryError(bplist([[0xA3, 1, 1, 1], [0x09]]), limits: limits)?.code == .collectionLimitExceeded)
        limits = PropertyListLimits()
        limits.maxStringBytes = 2
        #expect(binaryError(bplist([[0x53, 0x61, 0x62, 0x63]]), limits: limits)?.code == .stringLimitExceeded)
        #expect(binaryError(bplist([[0x62, 0, 0x61, 0, 0x62]]), limits: limits)?.code == .stringLimitExceeded)
        limits = PropertyListLimits()
        limits.maxDataBytes = 2
        #expect(binaryError(bplist([[0x43, 1, 2, 3]]), limits: limits)?.code == .dataLimitExceeded)
    }

    @Test("errors name the key path of the bad value")
    func keyPaths() {
        // {"items": [1, {"name": <invalid ASCII>}]}
        let file = bplist([
            [0xD1, 1, 2],            // 0: {items: 2}
            [0x55] + Array("items".utf8),  // 1
            [0xA2, 3, 4],            // 2: [3, 4]
            [0x10, 0x01],            // 3: 1
            [0xD1, 5, 6],            // 4: {name: 6}
            [0x54] + Array("name".utf8),   // 5
            [0x51, 0xFF],            // 6: bad ASCII
        ])
        let error = binaryError(file)
        #expect(error?.code == .invalidASCII)
        #expect(error?.keyPath.description == "items[1].name")
        #expect(error?.description == "byte 0xFF in an ASCII string (at offset \(file.count - 32 - 7 - 1), key path items[1].name)")
    }
}
