import Foundation
import PropertyList
import TestSupport
import Testing

/// The writer's layout, checked against bytes written by hand from
/// Specs/binary-plist.md ("Writer").
@Suite("Binary writer")
struct BinaryWriterTests {
    private func write(_ value: PropertyListValue) throws -> [UInt8] {
        try BinaryPropertyListWriter().writeBytes(value)
    }

    @Test("a dictionary: keys sorted, keys then values in pre-order, equal scalars shared")
    func dictionaryLayout() throws {
        let bytes = try write(["b": "x", "a": "x"])
        let expected = bplist([
            [0xD2, 1, 2, 3, 3],   // 0: {a, b} → both values are object 3
            [0x51, 0x61],         // 1: "a"
            [0x51, 0x62],         // 2: "b"
            [0x51, 0x78],         // 3: "x", written once
        ])
        #expect(bytes == expected)
    }

    @Test("integers in their smallest width; negatives in 8 bytes; above Int64.max in 16")
    func integerWidths() throws {
        let values: [PropertyListValue] = [0, 255, 256, 65535, 65536, 4_294_967_295, 4_294_967_296, -1,
                                           .integer(PropertyListInteger(UInt64.max))]
        let bytes = try write(.array(values))
        let expected = bplist([
            [0xA9, 1, 2, 3, 4, 5, 6, 7, 8, 9],
            [0x10, 0x00],
            [0x10, 0xFF],
            [0x11, 0x01, 0x00],
            [0x11, 0xFF, 0xFF],
            [0x12, 0x00, 0x01, 0x00, 0x00],
            [0x12, 0xFF, 0xFF, 0xFF, 0xFF],
            [0x13, 0, 0, 0, 1, 0, 0, 0, 0],
            [0x13, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            [0x14] + Array(repeating: 0, count: 8) + Array(repeating: 0xFF, count: 8),
        ])
        #expect(bytes == expected)
    }

    @Test("scalars: reals as float64, dates, data, ASCII and UTF-16 strings, UIDs, booleans, null")
    func scalarEncodings() throws {
        let bytes = try write([.real(1.5), .date(Date(timeIntervalSinceReferenceDate: 2)), .data(Data([7])),
                               "é", .uid(300), false, .null])
        let expected = bplist([
            [0xA7, 1, 2, 3, 4, 5, 6, 7],
            [0x23, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0],
            [0x33, 0x40, 0x00, 0, 0, 0, 0, 0, 0],
            [0x41, 0x07],
            [0x61, 0x00, 0xE9],
            [0x81, 0x01, 0x2C],
            [0x08],
            [0x00],
        ])
        #expect(bytes == expected)
    }

    @Test("counts of 15 and more use the extended form")
    func extendedCounts() throws {
        let bytes = try write(.string(String(repeating: "a", count: 15)))
        #expect(bytes == bplist([[0x5F, 0x10, 0x0F] + Array(repeating: 0x61, count: 15)]))
    }

    @Test("references and offsets take 2 bytes from 256 objects and from a 256-byte offset")
    func widths() throws {
        let many = PropertyListValue.array((0..<255).map { .integer(PropertyListInteger($0 + 1000)) })
        let bytes = try write(many)  // 256 objects
        #expect(bytes[bytes.count - 32 + 7] == 2, "reference size")
        #expect(bytes[bytes.count - 32 + 6] == 2, "offset size")
        let small = try write(.array((0..<254).map { .integer(PropertyListInteger($0)) }))  // 255 objects, table below 65536
        #expect(small[small.count - 32 + 7] == 1)
    }

    @Test("the same value gives the same bytes, whatever the dictionary insertion order")
    func deterministic() throws {
        var a = PropertyListDictionary()
        var b = PropertyListDictionary()
        for key in ["one", "two", "three", "four"] { a[key] = .string(key) }
        for key in ["four", "three", "two", "one"] { b[key] = .string(key) }
        #expect(try write(.dictionary(a)) == write(.dictionary(b)))
    }

    @Test("scalars are shared only when exactly equal")
    func exactSharing() throws {
        let value: PropertyListValue = ["\u{E9}", "e\u{301}", .real(0.0), .real(-0.0), 1, .real(1), true]
        let decoded = try BinaryPropertyListReader().read(try write(value))
        #expect(decoded == value)
        #expect(try write(value).count > 0)
    }

    /// The object count in the trailer of `bytes`.
    static func objectCount(_ bytes: [UInt8]) -> Int {
        Int(bytes.suffix(24).prefix(8).reduce(0 as UInt64) { $0 << 8 | UInt64($1) })
    }

    @Test("equal scalars share one object; the same 64 bits as an integer, a real and a date do not")
    func sharingCounts() throws {
        // 1.0's bit pattern as an integer, a real and a date: one hash, three objects.
        let bits = Int64(bitPattern: (1.0 as Double).bitPattern)
        let sameBits: PropertyListValue = [.integer(PropertyListInteger(bits)), .real(1.0), .date(Date(timeIntervalSinceReferenceDate: 1.0)),
                                           .integer(PropertyListInteger(bits)), .real(1.0), .date(Date(timeIntervalSinceReferenceDate: 1.0))]
        #expect(Self.objectCount(try write(sameBits)) == 1 + 3)
        // 3,000 distinct strings, integers and data, each three times: the table grows past its first size.
        var elements: [PropertyListValue] = []
        for round in 0..<3 {
            for i in 0..<1_000 {
                elements += [.string("s\(i)"), .integer(PropertyListInteger(Int64(i) + 1_000_000)), .data(Data("d\(i)".utf8))]
            }
            if round == 0 { elements += [true, false, .null] } else { elements += [false, .null, true] }
        }
        let bytes = try write(.array(elements))
        #expect(Self.objectCount(bytes) == 1 + 3_000 + 3)
        #expect(try BinaryPropertyListReader().read(bytes) == .array(elements))
    }

    @Test("invalidDate: the writer refuses what the reader would refuse")
    func refusesNonFiniteDates() {
        #expect(throws: PropertyListError(.invalidDate, "")) {
            try BinaryPropertyListWriter().write(["when": .date(Date(timeIntervalSinceReferenceDate: .nan))])
        }
    }

    @Test("depthLimitExceeded: the writer refuses nesting the reader would refuse")
    func refusesDeepValues() throws {
        var value: PropertyListValue = true
        for _ in 0..<512 { value = [value] }
        _ = try write(value)
        value = [value]
        #expect(throws: PropertyListError(.depthLimitExceeded, "")) { try write(value) }
    }
}
