import FoundationEssentials

/// Writes binary property lists (`bplist00`) deterministically: the same
/// value gives the same bytes every time.
///
/// Layout follows CoreFoundation's writer: objects in depth-first pre-order
/// (a dictionary's keys, then its values), equal scalars stored once,
/// integers and counts in their smallest width, object references and
/// offsets in the smallest of 1, 2, 4 or 8 bytes. Dictionary keys are
/// written in ascending UTF-16 order, so equal dictionaries give equal bytes
/// whatever their insertion order. See `Specs/binary-plist.md`, "Writer".
///
/// ```swift
/// let data = try BinaryPropertyListWriter().write(["name": "Ada", "age": 36])
/// ```
public struct BinaryPropertyListWriter: PropertyListByteWriter {
    /// The bounds of what is written (``WriterLimits``): nothing deeper or
    /// larger than a reader with the same limits reads.
    public var limits: WriterLimits
    /// The order of dictionary keys (``KeyOrder/sorted``, as Apple writes them, by default).
    public var keyOrder: KeyOrder = .sorted
    /// How many distinct scalars the value is expected to hold (0: unknown):
    /// room made for them at once, where a writer knows (a keyed archive's objects).
    package var expectedScalars = 0

    /// Creates a writer.
    public init(limits: WriterLimits = .default) {
        self.limits = limits
    }

    /// Encodes `value` as a binary property list into a byte array
    /// (``PropertyListByteWriter/write(_:)`` gives it as `Data`).
    ///
    /// - Throws: ``PropertyListError`` with ``ErrorCode/invalidDate``
    ///   for a date outside `PropertyListValue.dateRange`, ``ErrorCode/depthLimitExceeded``
    ///   or ``ErrorCode/expansionLimitExceeded``.
    public func writeBytes(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
        try limits.validate()
        var flattener = BinaryPropertyListFlattener(maxDepth: limits.maxDepth, maxExpandedBytes: limits.maxExpandedBytes, keyOrder: keyOrder,
                                                    expectedScalars: expectedScalars)
        _ = try flattener.flatten(value, depth: 0)
        let meter = flattener.meter
        let bytes = flattener.serialize()
        // Shared objects make a binary list small beside its expanded size: it must still read back.
        try meter.checkReadable(outputBytes: bytes.count, limits)
        return bytes
    }
}

/// The objects a binary property list of a value holds, as written: each
/// object's size, the objects it refers to, and the scalars' bytes. What the
/// payload cost report walks (Specs/payload.md, "Cost report"): exact bytes,
/// with the writer's sharing of equal scalars, in one pass.
package struct BinaryObjectGraph: Sendable {
    /// Bytes of each object's encoding (its offset-table slot not included).
    package let sizes: [Int]
    /// The objects each refers to: `references[referenceStarts[i] ..< referenceStarts[i + 1]]`
    /// (a dictionary's keys, then its values).
    package let referenceStarts: [Int]
    package let references: [Int]
    /// Each scalar's encoded bytes (nil for containers).
    private let scalarRanges: [Range<Int>?]
    private let scalarBytes: [UInt8]
    /// The widths the writer chose, and the whole file's size.
    package let referenceSize: Int
    package let offsetSize: Int
    package let totalBytes: Int

    fileprivate init(sizes: [Int], referenceStarts: [Int], references: [Int], scalarRanges: [Range<Int>?], scalarBytes: [UInt8],
                     referenceSize: Int, offsetSize: Int, totalBytes: Int) {
        (self.sizes, self.referenceStarts, self.references) = (sizes, referenceStarts, references)
        (self.scalarRanges, self.scalarBytes) = (scalarRanges, scalarBytes)
        (self.referenceSize, self.offsetSize, self.totalBytes) = (referenceSize, offsetSize, totalBytes)
    }

    /// The objects `object` refers to.
    package func children(of object: Int) -> ArraySlice<Int> {
        references[referenceStarts[object]..<referenceStarts[object + 1]]
    }

    /// The value of a UID object.
    package func uid(_ object: Int) -> UInt32? {
        guard let range = scalarRanges[object], scalarBytes[range.lowerBound] & 0xF0 == BinaryMarker.uid.rawValue else { return nil }
        return scalarBytes[(range.lowerBound + 1)..<range.upperBound].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The text of an ASCII string object.
    package func asciiString(_ object: Int) -> String? {
        guard let range = scalarRanges[object], scalarBytes[range.lowerBound] & 0xF0 == BinaryMarker.asciiString.rawValue else { return nil }
        // A count of 15 or more follows the marker as an integer object: 0x1n and 2^n bytes.
        let textStart = scalarBytes[range.lowerBound] & 0x0F < 15
            ? range.lowerBound + 1
            : range.lowerBound + 2 + 1 << Int(scalarBytes[range.lowerBound + 1] & 0x0F)
        return String(decoding: scalarBytes[textStart..<range.upperBound], as: UTF8.self)
    }
}

extension BinaryPropertyListWriter {
    /// The objects the binary property list of `value` holds (see ``BinaryObjectGraph``).
    package func objectGraph(_ value: PropertyListValue) throws(PropertyListError) -> BinaryObjectGraph {
        try limits.validate()
        var flattener = BinaryPropertyListFlattener(maxDepth: limits.maxDepth, maxExpandedBytes: limits.maxExpandedBytes, keyOrder: keyOrder)
        _ = try flattener.flatten(value, depth: 0)
        return flattener.graph()
    }
}

/// A binary property list written object by object, for a writer that walks
/// a structure of its own instead of a ``PropertyListValue`` tree (the keyed
/// archive writer, which numbers its objects straight into this table).
///
/// The caller visits objects in the order ``BinaryPropertyListWriter`` would
/// flatten the equal tree (pre-order; a dictionary's keys in writer order,
/// then its values) and makes the same charges, so the bytes, the limits
/// checked and the refusals are the tree's. Equal scalars share one object, as
/// there: ``unique(_:)`` always gives an equal scalar the same number, so a
/// caller may keep numbers it was given and charge a repeated scalar instead.
package struct BinaryObjectTable: ~Copyable {
    private var flattener: BinaryPropertyListFlattener
    private let limits: WriterLimits

    /// A table for a value of about `expectedScalars` distinct scalars.
    package init(limits: WriterLimits, expectedScalars: Int) throws(PropertyListError) {
        try limits.validate()
        self.limits = limits
        flattener = BinaryPropertyListFlattener(maxDepth: limits.maxDepth, maxExpandedBytes: limits.maxExpandedBytes,
                                                expectedScalars: expectedScalars)
    }

    /// Charges a node at `depth` with `payload` bytes (a scalar, or a dictionary key at its entries' depth).
    @inline(__always)
    package mutating func charge(depth: Int, payload: Int) throws(PropertyListError) {
        try flattener.meter.charge(depth: depth, payload: payload)
    }

    /// The number of `scalar`: of an equal scalar numbered before, or the next one. Not charged.
    package mutating func unique(_ scalar: PropertyListValue) -> Int {
        flattener.unique(scalar)
    }

    /// A new object for `scalar`, not entered in the table of scalars: for a
    /// scalar the caller numbers itself, which no other scalar of the value
    /// equals and for which ``unique(_:)`` is never asked (a keyed archive's
    /// UIDs, each numbered once and kept by the archive writer). Not charged.
    package mutating func appendUnshared(_ scalar: PropertyListValue) -> Int {
        flattener.appendUnshared(scalar)
    }

    /// Numbers an array of `count` elements at `depth` (charged); returns its
    /// number and the first of its `count` reference slots.
    package mutating func array(count: Int, depth: Int) throws(PropertyListError) -> (number: Int, slots: Int) {
        try charge(depth: depth, payload: 0)
        return try flattener.open(count: count, dictionary: false, depth: depth)
    }

    /// Numbers a dictionary of `count` entries at `depth` (charged); returns its
    /// number and the first of its `2 × count` reference slots (keys, then values).
    package mutating func dictionary(count: Int, depth: Int) throws(PropertyListError) -> (number: Int, slots: Int) {
        try charge(depth: depth, payload: 0)
        return try flattener.open(count: count, dictionary: true, depth: depth)
    }

    /// Points reference slot `slot` at object `number`.
    @inline(__always)
    package mutating func refer(_ slot: Int, to number: Int) {
        flattener.refer(slot, to: number)
    }

    /// The file, refused (``ErrorCode/expansionLimitExceeded``) if a reader with
    /// these limits would not read it back; object 0 is the top object.
    package consuming func bytes() throws(PropertyListError) -> [UInt8] {
        let bytes = flattener.serialize()
        try flattener.meter.checkReadable(outputBytes: bytes.count, limits)
        return bytes
    }
}

/// Pass one assigns object numbers and encodes each distinct scalar; pass two
/// lays the objects out in number order.
internal struct BinaryPropertyListFlattener: ~Copyable {
    enum Entry {
        /// The object's bytes are `scalars[start ..< start + length]`.
        case scalar(start: Int, length: Int)
        /// Children are `references[start ..< start + count]`.
        case array(start: Int, count: Int)
        /// Keys are `references[start ..< start + count]`, values the next `count`.
        case dictionary(start: Int, count: Int)
    }

    private let maxDepth: Int
    private let keyOrder: KeyOrder
    var meter: ExpansionMeter
    private var entries = GrowableBuffer<Entry>()
    private var references = GrowableBuffer<Int>()
    /// The encoded scalar objects, back to back, each distinct one once.
    private var scalars = ByteSink(capacity: 256)
    private var uniqued: ScalarNumbers

    init(maxDepth: Int, maxExpandedBytes: Int, keyOrder: KeyOrder = .sorted, expectedScalars: Int = 0) {
        self.maxDepth = maxDepth
        self.keyOrder = keyOrder
        meter = ExpansionMeter(limit: maxExpandedBytes)
        uniqued = ScalarNumbers(expected: expectedScalars)
    }

    /// Numbers `value` and everything under it in pre-order; returns its object number.
    mutating func flatten(_ value: PropertyListValue, depth: Int) throws(PropertyListError) -> Int {
        try meter.charge(depth: depth, payload: value.payloadBytes)
        switch value {
        case .array(let elements):
            let (number, start) = try open(count: elements.count, dictionary: false, depth: depth)
            for (position, element) in elements.enumerated() {
                do {
                    references[start + position] = try flatten(element, depth: depth + 1)
                } catch {
                    throw error.inside(.index(position))
                }
            }
            return number
        case .dictionary(let dictionary):
            let count = dictionary.count
            let (number, start) = try open(count: count, dictionary: true, depth: depth)
            let order = dictionary.writerOrder(keyOrder)
            for (position, entry) in order.enumerated() {
                let key = dictionary[entry].key
                try meter.charge(depth: depth + 1, payload: key.utf8.count)
                references[start + position] = unique(.string(key))
            }
            for (position, entry) in order.enumerated() {
                let (key, value) = dictionary[entry]
                do {
                    references[start + count + position] = try flatten(value, depth: depth + 1)
                } catch {
                    throw error.inside(.key(key))
                }
            }
            return number
        case .date(let date):
            // invalidDate: the reader refuses dates outside PropertyListValue.dateRange, so the writer does too.
            guard PropertyListValue.isValidDate(date.timeIntervalSinceReferenceDate) else {
                throw PropertyListError(.invalidDate, "date is \(date.timeIntervalSinceReferenceDate)")
            }
            return unique(value)
        default:
            return unique(value)
        }
    }

    /// Numbers a container at `depth` (already charged) and makes room for its
    /// references (a dictionary's keys, then its values); returns its number
    /// and the first reference slot. For ``flatten(_:depth:)`` and ``BinaryObjectTable``.
    @inline(__always)
    mutating func open(count: Int, dictionary: Bool, depth: Int) throws(PropertyListError) -> (number: Int, slots: Int) {
        try enter(depth)
        let number = entries.count
        let start = references.count
        entries.append(dictionary ? .dictionary(start: start, count: count) : .array(start: start, count: count))
        references.append(repeating: 0, count: dictionary ? 2 * count : count)
        return (number, start)
    }

    @inline(__always)
    mutating func refer(_ slot: Int, to number: Int) {
        references[slot] = number
    }

    private func enter(_ depth: Int) throws(PropertyListError) {
        // depthLimitExceeded: never write what the reader refuses.
        guard depth < maxDepth else {
            throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(maxDepth)")
        }
    }

    /// Returns the object number of an equal scalar already seen, or a new one.
    /// The scalar is encoded first: exactly equal scalars are exactly the ones
    /// with equal bytes (each has one encoding), so those bytes are what is
    /// compared, and they are kept only for a new object.
    mutating func unique(_ scalar: PropertyListValue) -> Int {
        let next = entries.count
        let start = scalars.count
        Self.appendScalar(scalar, to: &scalars)
        let end = scalars.count
        let number = uniqued.number(for: start..<end, in: scalars, next: next, written: entries)
        if number == next {
            entries.append(.scalar(start: start, length: end - start))
        } else {
            scalars.removeLast(from: start)
        }
        return number
    }

    /// A new object for `scalar`, outside the table of scalars (``BinaryObjectTable/appendUnshared(_:)``).
    mutating func appendUnshared(_ scalar: PropertyListValue) -> Int {
        let start = scalars.count
        Self.appendScalar(scalar, to: &scalars)
        entries.append(.scalar(start: start, length: scalars.count - start))
        return entries.count - 1
    }

    /// The objects as ``BinaryObjectGraph`` describes them, sized as ``serialize()`` writes them.
    func graph() -> BinaryObjectGraph {
        let referenceSize = Self.byteWidth(UInt64(entries.count))
        var sizes: [Int] = []
        var starts: [Int] = [0]
        var references: [Int] = []
        var ranges: [Range<Int>?] = []
        sizes.reserveCapacity(entries.count)
        func headerSize(_ count: Int) -> Int { count < 15 ? 1 : 2 + Self.byteWidth(UInt64(count)) }
        for index in 0..<entries.count {
            switch entries[index] {
            case .scalar(let start, let length):
                sizes.append(length)
                ranges.append(start..<(start + length))
            case .array(let start, let count):
                sizes.append(headerSize(count) + count * referenceSize)
                for i in start..<(start + count) { references.append(self.references[i]) }
                ranges.append(nil)
            case .dictionary(let start, let count):
                sizes.append(headerSize(count) + 2 * count * referenceSize)
                for i in start..<(start + 2 * count) { references.append(self.references[i]) }
                ranges.append(nil)
            }
            starts.append(references.count)
        }
        let tableOffset = 8 + sizes.reduce(0, +)
        let offsetSize = Self.byteWidth(UInt64(tableOffset))
        let bytes = scalars.bytes(in: 0..<scalars.count)
        return BinaryObjectGraph(sizes: sizes, referenceStarts: starts, references: references, scalarRanges: ranges, scalarBytes: bytes,
                                 referenceSize: referenceSize, offsetSize: offsetSize,
                                 totalBytes: tableOffset + entries.count * offsetSize + 32)
    }

    // MARK: Pass two

    /// Writes header, objects, offset table and trailer.
    func serialize() -> [UInt8] {
        let referenceSize = Self.byteWidth(UInt64(entries.count))
        var out = ByteSink(capacity: 64 + scalars.count + entries.count * 8 + references.count * referenceSize)
        out.append("bplist00")
        var offsets = GrowableBuffer<Int>(capacity: entries.count)
        for index in 0..<entries.count {
            offsets.append(out.count)
            switch entries[index] {
            case .scalar(let start, let length):
                out.append(from: scalars, in: start..<(start + length))
            case .array(let start, let count):
                Self.appendHeader(BinaryMarker.array.rawValue, count: count, to: &out)
                for i in start..<(start + count) { Self.appendBigEndian(UInt64(references[i]), width: referenceSize, to: &out) }
            case .dictionary(let start, let count):
                Self.appendHeader(BinaryMarker.dict.rawValue, count: count, to: &out)
                for i in start..<(start + 2 * count) { Self.appendBigEndian(UInt64(references[i]), width: referenceSize, to: &out) }
            }
        }
        let tableOffset = out.count
        let offsetSize = Self.byteWidth(UInt64(tableOffset))
        for index in 0..<offsets.count { Self.appendBigEndian(UInt64(offsets[index]), width: offsetSize, to: &out) }
        out.append(repeating: 0, count: 6)
        out.append(UInt8(offsetSize))
        out.append(UInt8(referenceSize))
        Self.appendBigEndian(UInt64(entries.count), width: 8, to: &out)
        Self.appendBigEndian(0, width: 8, to: &out)  // the top object is always object 0
        Self.appendBigEndian(UInt64(tableOffset), width: 8, to: &out)
        return out.takeBytes()
    }

    private static func appendScalar(_ value: PropertyListValue, to out: inout ByteSink) {
        switch value {
        case .null: out.append(BinaryMarker.null.rawValue)
        case .bool(let flag): out.append(flag ? BinaryMarker.trueValue.rawValue : BinaryMarker.falseValue.rawValue)
        case .integer(let integer): appendInteger(integer, to: &out)
        case .real(let real):
            out.append(BinaryMarker.real.rawValue | 3)
            appendBigEndian(real.bitPattern, width: 8, to: &out)
        case .date(let date):
            out.append(BinaryMarker.date.rawValue)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, width: 8, to: &out)
        case .data(let data):
            appendHeader(BinaryMarker.data.rawValue, count: data.count, to: &out)
            out.append(data: data)
        case .string(let string):
            appendString(string, to: &out)
        case .uid(let uid):
            let width = uid <= 0xFF ? 1 : uid <= 0xFFFF ? 2 : 4
            out.append(BinaryMarker.uid.rawValue | UInt8(width - 1))
            appendBigEndian(UInt64(uid), width: width, to: &out)
        case .array, .dictionary:
            preconditionFailure("containers are not scalars")
        }
    }

    /// Smallest of 1, 2, 4, 8 bytes (unsigned); negatives take 8; above `Int64.max`, 16.
    private static func appendInteger(_ integer: PropertyListInteger, to out: inout ByteSink) {
        if let value = integer.int64Value {
            appendUnsignedOrNegative(value, to: &out)
        } else {
            out.append(BinaryMarker.int.rawValue | 4)
            appendBigEndian(0, width: 8, to: &out)
            appendBigEndian(integer.bitPattern, width: 8, to: &out)
        }
    }

    private static func appendUnsignedOrNegative(_ value: Int64, to out: inout ByteSink) {
        let bits = UInt64(bitPattern: value)
        switch bits {
        case 0...0xFF:
            out.append(BinaryMarker.int.rawValue | 0); out.append(UInt8(bits))
        case 0x100...0xFFFF:
            out.append(BinaryMarker.int.rawValue | 1); appendBigEndian(bits, width: 2, to: &out)
        case 0x1_0000...0xFFFF_FFFF:
            out.append(BinaryMarker.int.rawValue | 2); appendBigEndian(bits, width: 4, to: &out)
        default:
            out.append(BinaryMarker.int.rawValue | 3); appendBigEndian(bits, width: 8, to: &out)
        }
    }

    /// ASCII strings as 0x5n bytes; any other as 0x6n UTF-16BE units,
    /// transcoded from the string's UTF-8 in one pass (``UTF16BigEndian``).
    private static func appendString(_ string: String, to out: inout ByteSink) {
        string.withUTF8Span { utf8 in
            if utf8.bytes.firstNonASCII == nil {
                appendHeader(BinaryMarker.asciiString.rawValue, count: utf8.count, to: &out)
                out.append(utf8)
            } else {
                let units = UTF16BigEndian.unitCount(utf8: utf8)
                appendHeader(BinaryMarker.utf16String.rawValue, count: units, to: &out)
                out.append(utf16BigEndianOf: utf8, units: units)
            }
        }
    }

    /// A marker with the count in its low nibble, or 0xF and an integer object.
    private static func appendHeader(_ marker: UInt8, count: Int, to out: inout ByteSink) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            appendUnsignedOrNegative(Int64(count), to: &out)
        }
    }

    @inline(__always)
    private static func appendBigEndian(_ value: UInt64, width: Int, to out: inout ByteSink) {
        out.append(bigEndian: value, width: width)
    }

    /// The smallest of 1, 2, 4 or 8 bytes that holds `value` (CoreFoundation's rule).
    static func byteWidth(_ value: UInt64) -> Int {
        switch value {
        case 0...0xFF: return 1
        case 0x100...0xFFFF: return 2
        case 0x1_0000...0xFFFF_FFFF: return 4
        default: return 8
        }
    }
}

/// Object numbers of the scalars written so far, so that equal scalars
/// (exactly equal: strings by scalars, reals and dates by bits) are written once.
///
/// One open-addressing table (linear probing, at most half full) for every
/// type, keyed by the scalar's encoded bytes: each slot packs 32 bits of their
/// hash with the object number, so the table grows without hashing again, and
/// a probe compares bytes only when those bits match. Hashes come from Swift's
/// per-process seeded `Hasher`, so values chosen to collide cannot make
/// writing quadratic.
private struct ScalarNumbers: ~Copyable {
    /// `hash bits << 32 | (object number + 1)`, or 0 for an empty slot.
    private var slots: GrowableBuffer<UInt64>
    private var count = 0

    /// A table with room for `expected` scalars (at least 64 slots, at most
    /// half full): growing from 64 cost 8% of writing a keyed archive of a
    /// Handoff-sized userInfo (measured).
    init(expected: Int) {
        var size = 64
        while size < 2 * expected, size < 1 << 20 { size *= 2 }
        slots = GrowableBuffer<UInt64>(repeating: 0, count: size)
    }

    /// The number of a scalar encoded as `scalars[range]` numbered before,
    /// else `next` (now taken). `written` describes the objects numbered so far.
    mutating func number(for range: Range<Int>, in scalars: borrowing ByteSink, next: Int,
                         written: borrowing GrowableBuffer<BinaryPropertyListFlattener.Entry>) -> Int {
        precondition(next < Int(UInt32.max), "more objects than a binary property list can number")
        var hasher = Hasher()
        scalars.hash(range, into: &hasher)
        let hash = hasher.finalize()
        let hashBits = UInt64(UInt32(truncatingIfNeeded: hash >> 32))
        let mask = slots.count - 1
        var bucket = Int(hashBits) & mask
        while slots[bucket] != 0 {
            let slot = slots[bucket]
            if slot >> 32 == hashBits {
                let number = Int(slot & 0xFFFF_FFFF) - 1
                if case .scalar(let start, let length) = written[number], scalars.bytesEqual(start..<(start + length), range) {
                    return number
                }
            }
            bucket = (bucket + 1) & mask
        }
        slots[bucket] = hashBits << 32 | UInt64(next + 1)
        count += 1
        if count > slots.count / 2 { grow() }
        return next
    }

    /// Doubles the table, placing each slot by its stored hash bits.
    private mutating func grow() {
        var larger = GrowableBuffer<UInt64>(repeating: 0, count: 2 * slots.count)
        let mask = larger.count - 1
        for index in 0..<slots.count where slots[index] != 0 {
            let slot = slots[index]
            var bucket = Int(slot >> 32) & mask
            while larger[bucket] != 0 { bucket = (bucket + 1) & mask }
            larger[bucket] = slot
        }
        slots = larger
    }
}
