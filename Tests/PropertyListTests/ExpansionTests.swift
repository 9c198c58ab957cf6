import Foundation
import PropertyList
import TestSupport
import Testing

/// Shared-reference bombs and other inputs that would take unbounded time or
/// memory if decoded naively (Specs/binary-plist.md, "Sharing, time and memory").
@Suite("Binary expansion and resource bounds")
struct ExpansionTests {
    /// `levels` arrays, each holding the next one twice: 2^levels leaves in a few hundred bytes.
    static func bomb(levels: Int, width: Int = 2) -> [UInt8] {
        var objects: [[UInt8]] = (0..<levels).map { [0xA0 | UInt8(width)] + Array(repeating: UInt8($0 + 1), count: width) }
        objects.append([0x09])
        return bplist(objects)
    }

    @Test("expansionLimitExceeded: a 2^60-node bomb of a few hundred bytes is refused quickly, not expanded")
    func bomb60() throws {
        let file = Self.bomb(levels: 60)
        #expect(file.count < 300)
        #expect(binaryError(file)?.code == .expansionLimitExceeded)
        // Refused at once: plistkit lint does it in a bounded count of
        // instructions past its start (callgrind; was timed: under 100 ms).
        let counted = try WorkCount.plistkit(["lint", "{}"], input: file)
        #expect(counted.status == 1)
        print("binary 2^60 bomb: \(counted.count - WorkCount.startup) instructions beyond start-up")
        #expect(counted.count - WorkCount.startup < 20_000_000, "\(counted.count - WorkCount.startup) instructions")
    }

    @Test("a bomb exactly at its expanded size decodes, sharing storage; one byte less is refused")
    func underTheLimit() throws {
        // Specs/value-model.md, "Expanded size": 2^d arrays at depth d < 10 and
        // 2^10 booleans at depth 10, each node 8 + depth.
        let expanded = (0..<10).reduce(0) { $0 + (1 << $1) * (8 + $1) } + (1 << 10) * (8 + 10)
        var limits = PropertyListLimits(maxExpandedBytes: expanded, expansionFactor: 0)
        let value = try BinaryPropertyListReader(limits: limits).read(Self.bomb(levels: 10))
        var depth = 0
        var cursor = value
        while case .array(let elements) = cursor { depth += 1; cursor = elements[0] }
        #expect(depth == 10)
        limits.maxExpandedBytes -= 1
        #expect(binaryError(Self.bomb(levels: 10), limits: limits)?.code == .expansionLimitExceeded)
    }

    @Test("the budget is proportional to the input: 64 × its bytes, at least 1 MiB, at most maxExpandedBytes")
    func proportionalBudget() {
        let limits = PropertyListLimits.default
        #expect(limits.expansionBudget(inputBytes: 100) == 1 << 20)
        #expect(limits.expansionBudget(inputBytes: 1 << 20) == 64 << 20)
        #expect(limits.expansionBudget(inputBytes: 256 << 20) == 1 << 30)
        #expect(limits.expansionBudget(inputBytes: Int.max) == 1 << 30)
        #expect(PropertyListLimits(maxExpandedBytes: 5000, expansionFactor: 0).expansionBudget(inputBytes: 1 << 30) == 5000)
        // One 64 KiB string shared 2,000 times: 128 MB expanded from 68 KB of input.
        var objects: [[UInt8]] = [[0xAF, 0x11, 0x07, 0xD0] + Array(repeating: [0x00, 0x01], count: 2000).flatMap { $0 }]
        objects.append([0x5F, 0x12, 0x00, 0x01, 0x00, 0x00] + Array(repeating: 0x41, count: 1 << 16))
        #expect(binaryError(bplist(objects, referenceSize: 2))?.code == .expansionLimitExceeded)
    }

    @Test("expansionLimitExceeded: wide sharing (one array referenced by every slot) is refused")
    func wideBomb() {
        let file = Self.bomb(levels: 8, width: 14)  // 14^8 ≈ 1.5e9 leaves
        #expect(binaryError(file)?.code == .expansionLimitExceeded)
    }

    /// An array of `uses` references (two bytes each) to one UTF-16 string of
    /// 400 non-ASCII units (800 bytes of UTF-8), then as many to one data
    /// object of 100 bytes.
    static func sharedStringAndData(uses: Int) -> [UInt8] {
        let count = bigEndian(UInt64(2 * uses), width: 2)
        let references = Array(repeating: [UInt8]([0x00, 0x01]), count: uses).flatMap { $0 }
            + Array(repeating: [UInt8]([0x00, 0x02]), count: uses).flatMap { $0 }
        let array: [UInt8] = [0xAF, 0x11] + count + references
        let string: [UInt8] = [0x6F, 0x11, 0x01, 0x90] + Array(repeating: [UInt8]([0x00, 0xE9]), count: 400).flatMap { $0 }
        let data: [UInt8] = [0x4F, 0x10, 100] + (0..<100).map { UInt8($0) }
        return bplist([array, string, data], referenceSize: 2)
    }

    @Test("a string or data object is decoded at most twice, however often it is used (Sharing, time and memory)")
    func stringsDecodedAtMostTwice() throws {
        // Its first use moves the value into its container; its second use
        // decodes it again and keeps it; every later use shares the kept one.
        // Each decode makes new storage, so the storages counted are the decodes.
        for uses in [1, 2, 3, 1000] {
            let value = try BinaryPropertyListReader().read(Self.sharedStringAndData(uses: uses))
            let text = String(repeating: "é", count: 400)
            let bytes = Data((0..<100).map { UInt8($0) })
            #expect(value == .array(Array(repeating: .string(text), count: uses) + Array(repeating: .data(bytes), count: uses)))
            guard case .array(let members) = value else { continue }
            var strings: Set<UInt> = [], datas: Set<UInt> = []
            for member in members {
                switch member {
                case .string(var string):
                    string.withUTF8 { strings.insert(UInt(bitPattern: $0.baseAddress)) }
                case .data(let data):
                    data.withUnsafeBytes { datas.insert(UInt(bitPattern: $0.baseAddress)) }
                default: Issue.record("unexpected \(member)")
                }
            }
            #expect(strings.count <= 2 && datas.count <= 2, "\(uses) uses: \(strings.count) strings, \(datas.count) data")
        }
    }

    @Test("a string met as a value, then as a key, then as a value again reads the same each time; unreferenced objects are still checked")
    func stringReusedAsKey() throws {
        // [s, {s: s}] with s = "kéy" (UTF-16): its second use is as a key.
        let key: [UInt8] = [0x63, 0x00, 0x6B, 0x00, 0xE9, 0x00, 0x79]
        let objects: [[UInt8]] = [[0xA2, 1, 2], key, [0xD1, 1, 1]]
        let expected = PropertyListValue.array([.string("kéy"), .dictionary(["kéy": .string("kéy")])])
        #expect(try BinaryPropertyListReader().read(bplist(objects)) == expected)
        // An unreferenced object after them is decoded and checked like any other.
        #expect(try BinaryPropertyListReader().read(bplist(objects + [[0x51, 0x61]])) == expected)
        #expect(binaryError(bplist(objects + [[0x61, 0xD8, 0x00]]))?.code == .invalidUTF16)
    }

    @Test("dictionary keys count as nodes too, with their bytes")
    func dictionaryBomb() {
        // 40 dictionaries {k: next, j: next}: 2^40 values.
        var objects: [[UInt8]] = [[0x51, 0x6B], [0x51, 0x6A]]
        for level in 0..<40 { objects.append([0xD2, 0, 1, UInt8(level + 3), UInt8(level + 3)]) }
        objects.append([0x09])
        #expect(binaryError(bplist(objects, top: 2))?.code == .expansionLimitExceeded)
    }

    @Test("huge declared counts are refused before any allocation")
    func hugeCounts() throws {
        let files = [bplist([[0xAF, 0x13] + bigEndian(1 << 59, width: 8)]), bplist([[0x4F, 0x13] + bigEndian(UInt64(Int64.max), width: 8)]),
                     bplist([[0xDF, 0x12, 0x7F, 0xFF, 0xFF, 0xFF]])]
        for file in files { #expect(binaryError(file)?.code == .objectOverrun) }
        // Refused before any allocation: all three in a bounded count of
        // instructions past plistkit's start (callgrind; was timed: under 100 ms).
        let counted = try WorkCount.plistkit(["lint", "--jobs", "1"], inputs: files)
        #expect(counted.status == 1)
        let work = counted.count - WorkCount.startup(for: ["lint", "--jobs", "1", "{}"])
        print("huge declared counts: \(work) instructions beyond start-up")
        #expect(work < 20_000_000, "\(work) instructions")
    }
}

/// Specs/value-model.md, "Limits": limits a caller sets are checked before
/// anything is read or written (invalidLimits), never trusted.
@Suite("Limits a caller sets")
struct LimitValidationTests {
    static let document = try! BinaryPropertyListWriter().writeBytes(["a": [1, 2, ["b": "c"]]])

    @Test("invalidLimits: a negative bound or a depth over maxSupportedDepth, in the binary reader")
    func invalidLimits() {
        let paths: [WritableKeyPath<PropertyListLimits, Int>] = [\.maxInputBytes, \.maxDepth, \.maxObjects, \.maxCollectionCount,
                                                                  \.maxStringBytes, \.maxDataBytes, \.maxExpandedBytes, \.expansionFactor]
        for path in paths {
            var limits = PropertyListLimits.default
            limits[keyPath: path] = -1
            #expect(binaryError(Self.document, limits: limits)?.code == .invalidLimits, "\(path)")
        }
        for depth in [PropertyListLimits.maxSupportedDepth + 1, 1 << 20, Int.max] {
            #expect(binaryError(Self.document, limits: PropertyListLimits(maxDepth: depth))?.code == .invalidLimits)
            #expect(throws: PropertyListError(.invalidLimits, "")) { try BinaryPropertyListWriter(limits: WriterLimits(maxDepth: depth)).writeBytes(1) }
        }
        #expect(throws: PropertyListError(.invalidLimits, "")) { try BinaryPropertyListWriter(limits: WriterLimits(maxDepth: -1)).writeBytes(1) }
    }

    @Test("the supported depth itself works: 512 nested arrays written and read back, 513 refused")
    func supportedDepth() throws {
        var value: PropertyListValue = 1
        for _ in 0..<PropertyListLimits.maxSupportedDepth { value = [value] }
        let bytes = try BinaryPropertyListWriter(limits: WriterLimits(maxDepth: PropertyListLimits.maxSupportedDepth)).writeBytes(value)
        let limits = PropertyListLimits(maxDepth: PropertyListLimits.maxSupportedDepth)
        #expect(try BinaryPropertyListReader(limits: limits).read(bytes) == value)
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) {
            try BinaryPropertyListWriter(limits: WriterLimits(maxDepth: PropertyListLimits.maxSupportedDepth)).writeBytes([value])
        }
    }
}
