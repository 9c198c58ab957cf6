public import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads binary property lists (`bplist00`) strictly.
///
/// Every malformed input is refused with a ``PropertyListError`` naming the
/// rule, the byte offset and the key path; nothing is repaired or guessed.
/// Decoding is linear in the input: each object is decoded once and shared
/// objects are reused (copy-on-write), while ``PropertyListLimits`` bound the
/// depth and the size of the tree the shared references describe.
///
/// ```swift
/// let value = try BinaryPropertyListReader().read(data)
/// ```
///
/// See `Specs/binary-plist.md` for the format and every rule.
public struct BinaryPropertyListReader: Sendable {
    /// The bounds this reader enforces.
    public var limits: PropertyListLimits

    /// Creates a reader with the given limits.
    public init(limits: PropertyListLimits = .default) {
        self.limits = limits
    }

    /// Decodes a binary property list.
    ///
    /// - Parameter data: The whole file, starting with `bplist00`.
    /// - Returns: The top object's value.
    /// - Throws: ``PropertyListError`` with the broken rule's code.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        do {
            return try data.withUnsafeBytes { buffer in
                try self.read(buffer)
            }
        } catch let error as PropertyListError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    /// Decodes a binary property list from bytes.
    public func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        do {
            return try bytes.withUnsafeBytes { buffer in
                try self.read(buffer)
            }
        } catch let error as PropertyListError {
            throw error
        } catch {
            preconditionFailure("unexpected error \(error)")
        }
    }

    /// Decodes a binary property list from raw memory that stays valid for the call.
    public func read(_ buffer: UnsafeRawBufferPointer) throws(PropertyListError) -> PropertyListValue {
        try limits.validate()
        var decoder = try BinaryPropertyListDecoder(buffer, limits: limits)
        return try decoder.decodeDocument()
    }

    /// True when `prefix` starts with the `bplist` magic (any version).
    public static func hasMagic(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: BinaryFormat.magic)
    }
}

/// Constants of the `bplist00` layout (Specs/binary-plist.md, "Layout").
internal enum BinaryFormat {
    static let magic: [UInt8] = Array("bplist".utf8)
    static let headerSize = 8
    static let trailerSize = 32
    /// Header, one 1-byte object, one 1-byte offset entry, trailer.
    static let minimumSize = headerSize + 1 + 1 + trailerSize

    enum Marker {
        static let null: UInt8 = 0x00
        static let falseValue: UInt8 = 0x08
        static let trueValue: UInt8 = 0x09
        static let fill: UInt8 = 0x0F
        static let int: UInt8 = 0x10
        static let real: UInt8 = 0x20
        static let date: UInt8 = 0x33
        static let data: UInt8 = 0x40
        static let asciiString: UInt8 = 0x50
        static let utf16String: UInt8 = 0x60
        static let utf8String: UInt8 = 0x70
        static let uid: UInt8 = 0x80
        static let array: UInt8 = 0xA0
        static let orderedSet: UInt8 = 0xB0
        static let set: UInt8 = 0xC0
        static let dict: UInt8 = 0xD0
    }
}

/// One checked input: its bytes, limits and trailer fields, and every read
/// of them. All unsafe memory access of the binary reader lives in this type,
/// each unchecked read right after its bounds guard. It holds no references,
/// so the decoding pass reads it in place (a `let` of the decoder) instead of
/// copying it for each call, as it did while these were methods of the
/// decoder (measured: a 144-byte memcpy per object).
internal struct BinaryInput {
    let bytes: UnsafeRawBufferPointer
    let limits: PropertyListLimits
    let offsetSize: Int
    let referenceSize: Int
    let objectCount: Int
    let topObject: Int
    /// Where the offset table starts; also the end of the object area.
    let tableOffset: Int
    /// The largest expanded size the document may have (Specs/value-model.md,
    /// "Expanded size"), at most ``maxExpandedSize`` so that node counts pack.
    let expansionBudget: Int
    /// The packed shapes hold node counts in 52 bits; every node weighs 8 or more.
    static let maxExpandedSize = (1 << 52) - 1

    /// Parses and checks the header, trailer and offset table (Specs: "Trailer").
    init(_ bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) throws(PropertyListError) {
        self.bytes = bytes
        self.limits = limits
        let size = bytes.count

        // inputTooLarge: the whole input is bounded before anything is read.
        guard size <= limits.maxInputBytes else {
            throw PropertyListError(.inputTooLarge, "input is \(size) bytes, over the limit of \(limits.maxInputBytes)")
        }
        // badMagic: the file starts with "bplist".
        guard size >= 6, bytes.starts(with: BinaryFormat.magic) else {
            throw PropertyListError(.badMagic, "not a binary property list (no \"bplist\" header)", at: .byteOffset(0))
        }
        // unsupportedBinaryVersion: only version "00" is a public format.
        guard size >= 8, bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") else {
            let shown = size >= 8 ? String(decoding: bytes[6..<8], as: UTF8.self) : "?"
            throw PropertyListError(.unsupportedBinaryVersion, "binary property list version \"\(shown)\" is not supported (only \"00\")", at: .byteOffset(6))
        }
        // truncated: room for the header, one object, one offset and the trailer.
        guard size >= BinaryFormat.minimumSize else {
            throw PropertyListError(.truncated, "file is \(size) bytes, shorter than the smallest binary property list (\(BinaryFormat.minimumSize))", at: .byteOffset(size))
        }

        let trailer = size - BinaryFormat.trailerSize
        // badTrailer: the five unused bytes and the sort version are zero, as Apple writes them.
        for offset in trailer..<(trailer + 6) where bytes[offset] != 0 {
            throw PropertyListError(.badTrailer, "reserved trailer byte is 0x\(Hex.upper(bytes[offset])), not zero", at: .byteOffset(offset))
        }
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let rawCount = Self.loadBigEndian64(bytes, at: trailer + 8)
        let rawTop = Self.loadBigEndian64(bytes, at: trailer + 16)
        let rawTable = Self.loadBigEndian64(bytes, at: trailer + 24)

        // badTrailer: offset and reference sizes are 1…8 bytes.
        guard (1...8).contains(offsetSize) else {
            throw PropertyListError(.badTrailer, "offset size \(offsetSize) is not 1…8", at: .byteOffset(trailer + 6))
        }
        guard (1...8).contains(referenceSize) else {
            throw PropertyListError(.badTrailer, "object reference size \(referenceSize) is not 1…8", at: .byteOffset(trailer + 7))
        }
        // badTrailer: at least one object.
        guard rawCount >= 1 else {
            throw PropertyListError(.badTrailer, "object count is zero", at: .byteOffset(trailer + 8))
        }
        // objectLimitExceeded: the count is bounded before anything is allocated for it.
        guard rawCount <= UInt64(limits.maxObjects) else {
            throw PropertyListError(.objectLimitExceeded, "\(rawCount) objects, over the limit of \(limits.maxObjects)", at: .byteOffset(trailer + 8))
        }
        // badTrailer: the top object is one of the objects.
        guard rawTop < rawCount else {
            throw PropertyListError(.badTrailer, "top object \(rawTop) is not below the object count \(rawCount)", at: .byteOffset(trailer + 16))
        }
        // badTrailer: references can address every object (CoreFoundation's rule).
        guard referenceSize == 8 || rawCount < (1 as UInt64) << (8 * referenceSize) else {
            throw PropertyListError(.badTrailer, "\(referenceSize)-byte references cannot address \(rawCount) objects", at: .byteOffset(trailer + 7))
        }
        // badOffsetTable: the table starts after the header and at least one object byte.
        guard rawTable >= UInt64(BinaryFormat.headerSize + 1), rawTable < UInt64(trailer) else {
            throw PropertyListError(.badOffsetTable, "offset table at \(rawTable) is outside the file's object area", at: .byteOffset(trailer + 24))
        }
        // badOffsetTable: the table fills exactly the bytes up to the trailer (no overflow, no slack).
        let (tableBytes, overflow) = rawCount.multipliedReportingOverflow(by: UInt64(offsetSize))
        guard !overflow, rawTable + tableBytes == UInt64(trailer) else {
            throw PropertyListError(.badOffsetTable, "offset table of \(rawCount) × \(offsetSize) bytes at \(rawTable) does not end where the trailer starts (\(trailer))", at: .byteOffset(trailer + 24))
        }
        // badTrailer: offsets are wide enough to reach the table (CoreFoundation's rule).
        guard offsetSize == 8 || rawTable < (1 as UInt64) << (8 * offsetSize) else {
            throw PropertyListError(.badTrailer, "\(offsetSize)-byte offsets cannot reach the offset table at \(rawTable)", at: .byteOffset(trailer + 6))
        }

        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.objectCount = Int(rawCount)
        self.topObject = Int(rawTop)
        self.tableOffset = Int(rawTable)
        self.expansionBudget = min(limits.expansionBudget(inputBytes: bytes.count), Self.maxExpandedSize)
    }

    /// Decodes a non-container object at `start`; returns it and the offset after it.
    func decodeScalar(at start: Int) throws(PropertyListError) -> (PropertyListValue, end: Int) {
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker & 0xF0 {
        case 0x00:
            switch marker {
            case BinaryFormat.Marker.null: return (.null, start + 1)
            case BinaryFormat.Marker.falseValue: return (.bool(false), start + 1)
            case BinaryFormat.Marker.trueValue: return (.bool(true), start + 1)
            case BinaryFormat.Marker.fill:
                throw PropertyListError(.unsupportedObject, "fill byte 0x0F is not a value", at: .byteOffset(start))
            case 0x0C, 0x0D, 0x0E:
                throw PropertyListError(.unsupportedObject, "marker 0x\(Hex.upper(marker)) (URL/UUID) belongs to CoreFoundation's private bplist1x formats", at: .byteOffset(start))
            default:
                throw PropertyListError(.unknownMarker, "unknown marker 0x\(Hex.upper(marker))", at: .byteOffset(start))
            }
        case BinaryFormat.Marker.int:
            return try decodeInteger(at: start)
        case BinaryFormat.Marker.real:
            // badRealWidth: reals are float32 (0x22) or float64 (0x23).
            switch low {
            case 2:
                try need(4, at: start + 1, for: start)
                let bits = UInt32(truncatingIfNeeded: loadBigEndian(at: start + 1, width: 4))
                return (.real(Double(Float(bitPattern: bits))), start + 5)
            case 3:
                try need(8, at: start + 1, for: start)
                return (.real(Double(bitPattern: loadBigEndian(at: start + 1, width: 8))), start + 9)
            default:
                throw PropertyListError(.badRealWidth, "real of \(1 << low) bytes (only 4 or 8)", at: .byteOffset(start))
            }
        case 0x30:
            guard marker == BinaryFormat.Marker.date else {
                throw PropertyListError(.unknownMarker, "unknown marker 0x\(Hex.upper(marker)) (dates are 0x33)", at: .byteOffset(start))
            }
            try need(8, at: start + 1, for: start)
            let seconds = Double(bitPattern: loadBigEndian(at: start + 1, width: 8))
            // invalidDate: dates are finite and within PropertyListValue.dateRange.
            guard PropertyListValue.isValidDate(seconds) else {
                throw PropertyListError(.invalidDate, "date is \(seconds)", at: .byteOffset(start))
            }
            return (.date(Date(timeIntervalSinceReferenceDate: seconds)), start + 9)
        case BinaryFormat.Marker.data:
            let (count, content) = try readCount(at: start)
            // dataLimitExceeded
            guard count <= limits.maxDataBytes else {
                throw PropertyListError(.dataLimitExceeded, "data of \(count) bytes, over the limit of \(limits.maxDataBytes)", at: .byteOffset(start))
            }
            try need(count, at: content, for: start)
            return (.data(Data(UnsafeRawBufferPointer(rebasing: bytes[content..<(content + count)]))), content + count)
        case BinaryFormat.Marker.asciiString, BinaryFormat.Marker.utf16String:
            let (string, end) = try decodeString(at: start)
            return (.string(string), end)
        case BinaryFormat.Marker.utf8String:
            throw PropertyListError(.unsupportedObject, "UTF-8 string marker 0x7n belongs to CoreFoundation's private bplist1x formats", at: .byteOffset(start))
        case BinaryFormat.Marker.uid:
            let width = low + 1
            // uidTooWide: UIDs are at most 4 bytes wide.
            guard width <= 4 else {
                throw PropertyListError(.uidTooWide, "UID of \(width) bytes (at most 4)", at: .byteOffset(start))
            }
            try need(width, at: start + 1, for: start)
            return (.uid(UInt32(truncatingIfNeeded: loadBigEndian(at: start + 1, width: width))), start + 1 + width)
        case BinaryFormat.Marker.orderedSet, BinaryFormat.Marker.set:
            throw PropertyListError(.unsupportedObject, "sets (marker 0x\(Hex.upper(marker))) are not property-list values", at: .byteOffset(start))
        default:
            throw PropertyListError(.unknownMarker, "unknown marker 0x\(Hex.upper(marker))", at: .byteOffset(start))
        }
    }

    /// Decodes an integer object (0x1n).
    func decodeInteger(at start: Int) throws(PropertyListError) -> (PropertyListValue, end: Int) {
        let exponent = Int(bytes[start] & 0x0F)
        // badIntegerWidth: 1, 2, 4, 8 or 16 bytes.
        guard exponent <= 4 else {
            throw PropertyListError(.badIntegerWidth, "integer of 2^\(exponent) bytes (only 1, 2, 4, 8 or 16)", at: .byteOffset(start))
        }
        let width = 1 << exponent
        try need(width, at: start + 1, for: start)
        switch width {
        case 1, 2, 4:
            // Narrow integers are unsigned.
            return (.integer(PropertyListInteger(loadBigEndian(at: start + 1, width: width))), start + 1 + width)
        case 8:
            // 8-byte integers are signed.
            return (.integer(PropertyListInteger(Int64(bitPattern: loadBigEndian(at: start + 1, width: 8)))), start + 9)
        default:
            // 16-byte integers: signed 128-bit, accepted when the value lies in [-2⁶³, 2⁶⁴).
            let high = loadBigEndian(at: start + 1, width: 8)
            let low = loadBigEndian(at: start + 9, width: 8)
            if high == 0 {
                return (.integer(PropertyListInteger(low)), start + 17)
            }
            if high == UInt64.max, low >= 1 << 63 {
                return (.integer(PropertyListInteger(Int64(bitPattern: low))), start + 17)
            }
            // integerOutOfRange
            throw PropertyListError(.integerOutOfRange, "16-byte integer outside [-2^63, 2^64)", at: .byteOffset(start))
        }
    }

    /// Decodes a string object (0x5n ASCII or 0x6n UTF-16BE).
    func decodeString(at start: Int) throws(PropertyListError) -> (String, end: Int) {
        let (count, content) = try readCount(at: start)
        if bytes[start] & 0xF0 == BinaryFormat.Marker.asciiString {
            // stringLimitExceeded
            guard count <= limits.maxStringBytes else {
                throw PropertyListError(.stringLimitExceeded, "string of \(count) bytes, over the limit of \(limits.maxStringBytes)", at: .byteOffset(start))
            }
            try need(count, at: content, for: start)
            let region = UnsafeRawBufferPointer(rebasing: bytes[content..<(content + count)])
            // invalidASCII: every byte is below 0x80 (checked eight at a time).
            if let bad = WordScan.firstNonASCII(region) {
                throw PropertyListError(.invalidASCII, "byte 0x\(Hex.upper(region[bad])) in an ASCII string", at: .byteOffset(content + bad))
            }
            // ASCII, just checked, is valid UTF-8: copied without validating again.
            let ascii = region.assumingMemoryBound(to: UInt8.self)
            return (String(copying: unsafe UTF8Span(unchecked: ascii.span, isKnownASCII: true)), content + count)
        }
        // stringLimitExceeded: UTF-16 units are counted as two bytes each.
        guard count <= limits.maxStringBytes / 2 else {
            throw PropertyListError(.stringLimitExceeded, "string of \(count) UTF-16 units, over the limit of \(limits.maxStringBytes) bytes", at: .byteOffset(start))
        }
        try need(count * 2, at: content, for: start)
        let string = try Self.decodeUTF16BigEndian(bytes, from: content, units: count)
        return (string, content + count * 2)
    }

    /// Transcodes `units` UTF-16BE code units at `from` to a String, refusing
    /// unpaired surrogates (``UTF16BigEndian``).
    ///
    /// The UTF-8 is written into scratch memory and copied into the `String`
    /// without being validated again: the transcoder writes only well-formed
    /// sequences (measured: re-validation was a quarter of decoding unicode.bplist).
    static func decodeUTF16BigEndian(_ bytes: UnsafeRawBufferPointer, from: Int, units: Int) throws(PropertyListError) -> String {
        let result: Result<String, PropertyListError> = withUnsafeTemporaryAllocation(
            of: UInt8.self, capacity: UTF16BigEndian.decodeCapacity(units: units)
        ) { scratch in
            switch UTF16BigEndian.decode(bytes.baseAddress! + from, units: units, into: UnsafeMutableRawPointer(scratch.baseAddress!)) {
            case .unpairedSurrogate(let unit):
                // invalidUTF16: surrogates come in high-low pairs.
                return .failure(Self.unpairedSurrogate(from + 2 * unit))
            case .utf8(let count, let isASCII):
                let written = UnsafeBufferPointer(start: scratch.baseAddress!, count: count)
                return .success(String(copying: unsafe UTF8Span(unchecked: written.span, isKnownASCII: isASCII)))
            }
        }
        return try result.get()
    }

    private static func unpairedSurrogate(_ offset: Int) -> PropertyListError {
        PropertyListError(.invalidUTF16, "unpaired UTF-16 surrogate", at: .byteOffset(offset))
    }

    // MARK: Checks

    @inline(__always)
    func checkDepth(_ depth: Int, at start: Int) throws(PropertyListError) {
        // depthLimitExceeded
        guard depth <= limits.maxDepth else {
            throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(limits.maxDepth)", at: .byteOffset(start))
        }
    }

    @inline(__always)
    func checkCollectionCount(_ count: Int, at start: Int) throws(PropertyListError) {
        // collectionLimitExceeded
        guard count <= limits.maxCollectionCount else {
            throw PropertyListError(.collectionLimitExceeded, "collection of \(count) members, over the limit of \(limits.maxCollectionCount)", at: .byteOffset(start))
        }
    }

    /// Checks an object's expanded size where it is placed: `base + nodes × depth`.
    @inline(__always)
    func checkExpansion(base: Int, nodes: Int, depth: Int, at start: Int) throws(PropertyListError) {
        // expansionLimitExceeded: the value, expanded, may weigh at most the budget.
        guard ExpandedSize.placed(base: base, nodes: nodes, depth: depth) <= expansionBudget else {
            throw PropertyListError(.expansionLimitExceeded, "the value expands past \(expansionBudget) bytes (the budget for \(bytes.count) input bytes)", at: .byteOffset(start))
        }
    }

    /// Reads the count in the marker's low nibble, or the extended count that
    /// follows it; returns the count and where the content starts.
    @inline(__always)
    func readCount(at start: Int) throws(PropertyListError) -> (count: Int, content: Int) {
        let nibble = Int(bytes[start] & 0x0F)
        if nibble != 0x0F { return (nibble, start + 1) }
        let lengthAt = start + 1
        try need(1, at: lengthAt, for: start)
        let lengthMarker = bytes[lengthAt]
        // badLength: an extended length is an integer object of 1, 2, 4 or 8 bytes.
        guard lengthMarker & 0xF0 == BinaryFormat.Marker.int, lengthMarker & 0x0F <= 3 else {
            throw PropertyListError(.badLength, "extended length has marker 0x\(Hex.upper(lengthMarker)), not a 1-8 byte integer", at: .byteOffset(lengthAt))
        }
        let width = 1 << Int(lengthMarker & 0x0F)
        try need(width, at: lengthAt + 1, for: start)
        let raw = loadBigEndian(at: lengthAt + 1, width: width)
        // badLength: lengths are not negative (8-byte integers are signed).
        guard raw <= UInt64(Int64.max) else {
            throw PropertyListError(.badLength, "extended length is negative", at: .byteOffset(lengthAt))
        }
        // objectOverrun: no length may exceed the bytes left in the object area.
        guard raw <= UInt64(tableOffset) else {
            throw PropertyListError(.objectOverrun, "length \(raw) exceeds the object area", at: .byteOffset(lengthAt))
        }
        return (Int(raw), lengthAt + 1 + width)
    }

    /// Checks that `count` bytes at `offset` lie inside the object area.
    @inline(__always)
    func need(_ count: Int, at offset: Int, for start: Int) throws(PropertyListError) {
        // objectOverrun
        guard count <= tableOffset - offset else {
            throw PropertyListError(.objectOverrun, "object at \(start) needs \(count) bytes at \(offset), past the object area (ends at \(tableOffset))", at: .byteOffset(start))
        }
    }

    /// Checks room for `count` references; `count` is already bounded by the object area.
    @inline(__always)
    func needReferences(_ count: Int, at offset: Int, for start: Int) throws(PropertyListError) {
        let (bytesNeeded, overflow) = count.multipliedReportingOverflow(by: referenceSize)
        guard !overflow else {
            throw PropertyListError(.objectOverrun, "object at \(start) declares \(count) references", at: .byteOffset(start))
        }
        try need(bytesNeeded, at: offset, for: start)
    }

    /// Reads an object reference at `offset` (already bounds-checked).
    @inline(__always)
    func reference(at offset: Int) throws(PropertyListError) -> Int {
        let raw = loadBigEndian(at: offset, width: referenceSize)
        // badReference: references are below the object count.
        guard raw < UInt64(objectCount) else {
            throw PropertyListError(.badReference, "reference to object \(raw), but there are \(objectCount)", at: .byteOffset(offset))
        }
        return Int(raw)
    }

    /// Reads object `index`'s offset from the table.
    @inline(__always)
    func objectOffset(_ index: Int) throws(PropertyListError) -> Int {
        let entry = tableOffset + index * offsetSize
        let raw = loadBigEndian(at: entry, width: offsetSize)
        // badObjectOffset: objects start after the header and before the offset table.
        guard raw >= UInt64(BinaryFormat.headerSize), raw < UInt64(tableOffset) else {
            throw PropertyListError(.badObjectOffset, "object \(index) is at offset \(raw), outside the object area", at: .byteOffset(entry))
        }
        return Int(raw)
    }

    // MARK: Raw loads (callers have checked the bounds)

    @inline(__always)
    func loadBigEndian(at offset: Int, width: Int) -> UInt64 {
        switch width {
        case 1: return UInt64(bytes[offset])
        case 2: return UInt64(UInt16(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        case 8: return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        default:
            var value: UInt64 = 0
            for i in 0..<width { value = value << 8 | UInt64(bytes[offset + i]) }
            return value
        }
    }

    static func loadBigEndian64(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64 {
        UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

}

/// The decoding state for one input: what is known about each object, and
/// the decoded values, filled in one pass with an explicit stack.
///
/// The per-object tables are raw memory the decoder owns (released by
/// `deinit`; the decoder cannot be copied), so that recording an object's
/// state and value is a plain store. They are sized by the object count the
/// trailer declares, which the offset table bounds by the file's bytes. Up to
/// 8 MiB they are one block reused from an earlier decode (``ScratchMemory``);
/// beyond that they cost memory only for the objects actually reached: the
/// shapes and sizes are zero-filled by `calloc` (untouched pages are never
/// committed). A value slot is initialised only when its object is decoded
/// (Specs/value-model.md, "Memory"). Every index into them is an object number below the count, which
/// `BinaryInput.reference(at:)` and the loops over `0..<objectCount` ensure.
internal struct BinaryPropertyListDecoder: ~Copyable {
    private let input: BinaryInput

    /// What is known about each object, by index, kept apart from the values
    /// so that checking a state never copies a value. Packed in eight bytes
    /// (state: 2 bits, height: 10, nodes: 52); all zero is an unvisited object.
    private struct Shape {
        /// `done` objects have their value in `values`; `doneUnstored` ones are
        /// scalars without storage (integers, reals, booleans, dates, UIDs,
        /// null), decoded again where they are reused (a few bytes, no
        /// allocation), so that the common unshared one is never copied into
        /// `values` and destroyed again.
        enum State: UInt64 { case unvisited, inProgress, done, doneUnstored }
        private var bits: UInt64 = 0

        init(state: State, height: Int, nodes: Int) {
            bits = state.rawValue | UInt64(height) << 2 | UInt64(nodes) << 12
        }
        var state: State {
            get { State(rawValue: bits & 3)! }
            set { bits = bits & ~3 | newValue.rawValue }
        }
        /// Container height (0 for scalars), once done; at most maxSupportedDepth.
        var height: Int { Int(truncatingIfNeeded: bits >> 2 & 0x3FF) }
        /// Nodes of the expanded tree the object stands for, once done.
        var nodes: Int { Int(truncatingIfNeeded: bits >> 12) }
    }
    /// One shape per object (zero-filled: unvisited).
    private let shapes: UnsafeMutablePointer<Shape>
    /// Each object's expanded size at relative depth 0, once done (zero-filled).
    private let sizes: UnsafeMutablePointer<Int>
    /// Each object's value, initialised when its shape is done (never before).
    private let values: UnsafeMutablePointer<PropertyListValue>
    /// The block that holds the three tables, when it came from ``ScratchMemory``.
    private let scratch: ScratchMemory.Buffer?
    private var decodedCount = 0
    /// The containers in progress, outermost first: an explicit stack, so that
    /// no depth a caller allows can overflow the thread's stack
    /// (Specs/architecture.md, "One stack policy"). Frames are initialised
    /// in place when a container opens and moved out when it closes, never
    /// copied; `openFrames` of them are live.
    private let frames: UnsafeMutablePointer<Frame>
    private var openFrames = 0
    /// Recently decoded dictionary keys (see `decodeKey`); allocated on first use.
    private var recentKeys: [RecentKey] = []
    private static let recentKeysSize = 256
    private static let recentKeysMinimumObjects = 256
    private struct RecentKey {
        var object: Int
        var key: String
        var hash: Int?
    }

    /// A decoded object: its value, and its expanded size at relative depth 0
    /// (`base`), node count and container height, from which its size where it
    /// is placed follows (``ExpandedSize``).
    private struct Decoded {
        var value: PropertyListValue
        var base: Int
        var nodes: Int
        var height: Int

        /// What ``startLeaf(_:depth:)`` returns for a container still to open
        /// (a sentinel rather than an optional: an optional of this struct is
        /// handled through value witnesses, measured 5% of a decode).
        static let container = Decoded(value: .bool(false), base: 0, nodes: 0, height: -1)
        var isContainer: Bool { height < 0 }
    }

    /// Checks the header, trailer and offset table (Specs: "Trailer") and
    /// prepares one slot per object.
    init(_ bytes: UnsafeRawBufferPointer, limits: PropertyListLimits) throws(PropertyListError) {
        input = try BinaryInput(bytes, limits: limits)
        let count = max(input.objectCount, 1)
        // The three tables in one block: shapes, sizes, then values (all
        // eight-byte aligned). Up to ScratchMemory's largest kept buffer the
        // block is reused from an earlier decode and only the shapes are
        // cleared; beyond it the shapes and sizes are calloc'd, so that the
        // system commits their memory only as objects are reached (the table
        // check bounds the count by the file size, not by the objects reached).
        let tableBytes = count * (MemoryLayout<Shape>.stride + MemoryLayout<Int>.stride)
        let valueBytes = count * MemoryLayout<PropertyListValue>.stride
        if tableBytes + valueBytes <= ScratchMemory.largestKept {
            let block = ScratchMemory.take(atLeast: tableBytes + valueBytes)
            scratch = block
            memset(block.base, 0, count * MemoryLayout<Shape>.stride)
            shapes = block.base.bindMemory(to: Shape.self, capacity: count)
            sizes = (block.base + count * MemoryLayout<Shape>.stride).bindMemory(to: Int.self, capacity: count)
            values = (block.base + tableBytes).bindMemory(to: PropertyListValue.self, capacity: count)
        } else {
            guard let shapeMemory = calloc(count, MemoryLayout<Shape>.stride),
                  let sizeMemory = calloc(count, MemoryLayout<Int>.stride) else {
                preconditionFailure("out of memory for \(count) objects")
            }
            scratch = nil
            shapes = shapeMemory.bindMemory(to: Shape.self, capacity: count)
            sizes = sizeMemory.bindMemory(to: Int.self, capacity: count)
            values = .allocate(capacity: count)
        }
        // Containers nest at most maxDepth deep, and at most once per object (no cycles).
        frames = .allocate(capacity: min(limits.maxDepth, count) + 1)
    }

    deinit {
        // Only decoded objects hold a value.
        if decodedCount > 0 {
            for index in 0..<input.objectCount where shapes[index].state == .done {
                (values + index).deinitialize(count: 1)
            }
        }
        frames.deinitialize(count: openFrames)
        frames.deallocate()
        if let scratch {
            ScratchMemory.give(scratch)
        } else {
            values.deallocate()
            free(sizes)
            free(shapes)
        }
    }

    /// Decodes the top object and checks that every object was used.
    mutating func decodeDocument() throws(PropertyListError) -> PropertyListValue {
        // unaccountedBytes: the first object starts right after the header.
        let first = try input.objectOffset(0)
        guard first == BinaryFormat.headerSize else {
            throw PropertyListError(.unaccountedBytes, "first object starts at \(first), not right after the header", at: .byteOffset(BinaryFormat.headerSize))
        }
        let top = try decodeObject(input.topObject, depth: 0)
        // Unreferenced objects are accepted, because CoreFoundation writes them
        // (one object per repeated boolean, only the first referenced), but each
        // is decoded and checked like any other, so every byte is still a valid object.
        if decodedCount < input.objectCount {
            for index in 0..<input.objectCount {
                if shapes[index].state == .unvisited { _ = try decodeObject(index, depth: 0) }
            }
        }
        return top.value
    }

    // MARK: Objects

    /// A container being decoded: one per level of `frames`.
    private struct Frame {
        /// The container's object number and byte offset.
        let index: Int
        let start: Int
        /// The container depth it was entered at (1 for the top container).
        let depth: Int
        let isDictionary: Bool
        let count: Int
        /// The first member reference (arrays) or key reference (dictionaries).
        let references: Int
        /// The member being decoded.
        var position = 0
        var elements: [PropertyListValue] = []
        var dictionary = PropertyListDictionary()
        /// The key of the member being decoded (dictionaries).
        var key = ""
        var keyHash: Int?
        /// The container measured at relative depth 0 so far: itself, then
        /// each member one level down.
        var base = ExpandedSize.node(depth: 0, payload: 0)
        var nodes = 1
        var height = 0

        /// The key path component of the member being decoded.
        var member: PropertyListKeyPath.Component { isDictionary ? .key(key) : .index(position) }
    }

    /// Decodes object `index` found at container depth `depth` (0 for the top
    /// object): its value, expanded size, node count and container height.
    /// A shared object is decoded once and charged its expanded size again at
    /// every place it is used. Containers in progress are kept in `frames`; an
    /// error gets the key path from this object to where it happened.
    private mutating func decodeObject(_ index: Int, depth: Int) throws(PropertyListError) -> Decoded {
        let first = try startLeaf(index, depth: depth)
        guard first.isContainer else { return first }
        let bottom = openFrames
        try open(index, depth: depth)
        while true {
            let top = frames + (openFrames - 1)
            if top.pointee.position < top.pointee.count {
                // The next member: its key first (dictionaries), then its value.
                // The container's own checks are located at the container, the
                // member's at the member.
                let child: Int
                do { child = try nextMember(top) } catch { throw located(error, levels: openFrames - 1, from: bottom) }
                // A scalar goes straight into the container.
                let scalar: Scalar
                do { scalar = try scalarMember(child, depth: top.pointee.depth) } catch { throw located(error, levels: openFrames, from: bottom) }
                if !scalar.isContainer {
                    do { try addScalar(scalar, to: top) } catch { throw located(error, levels: openFrames - 1, from: bottom) }
                    continue
                }
                let leaf: Decoded
                do { leaf = try startLeaf(child, depth: top.pointee.depth) } catch { throw located(error, levels: openFrames, from: bottom) }
                if leaf.isContainer {
                    do { try open(child, depth: top.pointee.depth) } catch { throw located(error, levels: openFrames, from: bottom) }
                } else {
                    do { try addMember(leaf, to: top) } catch { throw located(error, levels: openFrames - 1, from: bottom) }
                }
            } else {
                // The finished container is a member of its parent: its own
                // checks are located at that member.
                openFrames -= 1
                let decoded: Decoded
                do { decoded = try finish(top) } catch { throw located(error, levels: openFrames, from: bottom) }
                if openFrames == bottom { return decoded }
                do { try addMember(decoded, to: top - 1) } catch { throw located(error, levels: openFrames - 1, from: bottom) }
            }
        }
    }

    /// `error` with the key path through the members in progress of the
    /// frames from `bottom` up to (not including) `levels`.
    private func located(_ error: PropertyListError, levels: Int, from bottom: Int) -> PropertyListError {
        var error = error
        var level = levels - 1
        while level >= bottom {
            error = error.inside(frames[level].member)
            level -= 1
        }
        return error
    }

    /// Starts object `index` at container depth `depth`: a done object or a
    /// scalar is finished at once; ``Decoded/container`` for a container to
    /// ``open(_:depth:)``.
    @inline(__always)
    private mutating func startLeaf(_ index: Int, depth: Int) throws(PropertyListError) -> Decoded {
        let shape = shapes[index]
        switch shape.state {
        case .done where shape.height > 0:
            let offset = (try? input.objectOffset(index)) ?? 0
            // depthLimitExceeded: a shared container reused deeper than where it was first decoded.
            guard depth + shape.height <= input.limits.maxDepth else {
                throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(input.limits.maxDepth)", at: .byteOffset(offset))
            }
            try input.checkExpansion(base: sizes[index], nodes: shape.nodes, depth: depth, at: offset)
            return Decoded(value: values[index], base: sizes[index], nodes: shape.nodes, height: shape.height)
        case .inProgress:
            throw PropertyListError(.cyclicReference, "object \(index) contains itself", at: .byteOffset((try? input.objectOffset(index)) ?? 0))
        default:
            let scalar = try scalarMember(index, depth: depth)
            return scalar.isContainer ? .container : Decoded(value: scalar.value, base: scalar.base, nodes: 1, height: 0)
        }
    }

    /// A scalar member and its expanded size at relative depth 0, or
    /// ``Scalar/container`` for an object the general path handles (a
    /// container, or an object in progress: a cycle).
    private struct Scalar {
        var value: PropertyListValue
        var base: Int
        static let container = Scalar(value: .bool(false), base: -1)
        var isContainer: Bool { base < 0 }
    }

    /// Object `index` met at container depth `depth`, when it is a scalar:
    /// decoded and checked (expanded size where it is placed, then
    /// `unaccountedBytes`, as ``complete(_:at:end:_:depth:)`` checks a
    /// container), or taken again if done. A string or data value is kept in
    /// `values` for its next use; any other scalar is not
    /// (``Shape/State/doneUnstored``).
    @inline(__always)
    private mutating func scalarMember(_ index: Int, depth: Int) throws(PropertyListError) -> Scalar {
        switch shapes[index].state {
        case .done:
            guard shapes[index].height == 0 else { return .container }
            let base = sizes[index]
            try input.checkExpansion(base: base, nodes: 1, depth: depth, at: (try? input.objectOffset(index)) ?? 0)
            return Scalar(value: values[index], base: base)
        case .doneUnstored:
            let start = try input.objectOffset(index)
            let (value, _) = try input.decodeScalar(at: start)
            let base = ExpandedSize.node(depth: 0, payload: 0)
            try input.checkExpansion(base: base, nodes: 1, depth: depth, at: start)
            return Scalar(value: value, base: base)
        case .inProgress:
            return .container
        case .unvisited:
            break
        }
        let start = try input.objectOffset(index)
        let kind = input.bytes[start] & 0xF0
        guard kind != 0xA0 && kind != 0xD0 else { return .container }
        shapes[index].state = .inProgress
        let (value, end) = try input.decodeScalar(at: start)
        let payload = value.payloadBytes
        let base = ExpandedSize.node(depth: 0, payload: payload)
        try input.checkExpansion(base: base, nodes: 1, depth: depth, at: start)
        // unaccountedBytes: each object ends exactly where the next one (or the table) starts.
        let nextStart = index + 1 < input.objectCount ? try input.objectOffset(index + 1) : input.tableOffset
        guard end == nextStart else {
            throw PropertyListError(.unaccountedBytes, end < nextStart
                ? "\(nextStart - end) bytes after object \(index) belong to no object"
                : "object \(index) overlaps the next object or is out of table order", at: .byteOffset(end))
        }
        decodedCount += 1
        switch kind {
        case BinaryFormat.Marker.asciiString, BinaryFormat.Marker.utf16String, BinaryFormat.Marker.data:
            (values + index).initialize(to: value)
            sizes[index] = base
            shapes[index] = Shape(state: .done, height: 0, nodes: 1)
        default:
            shapes[index].state = .doneUnstored
        }
        return Scalar(value: value, base: base)
    }

    /// ``addMember(_:to:)`` for a scalar: one node, no height.
    @inline(__always)
    private func addScalar(_ member: consuming Scalar, to frame: UnsafeMutablePointer<Frame>) throws(PropertyListError) {
        let base = member.base
        try add(member.value, base: base, nodes: 1, height: 0, to: frame)
    }

    /// Opens the unvisited container `index` at container depth `depth`: its
    /// header checked, a frame for its members pushed onto `frames`.
    private mutating func open(_ index: Int, depth: Int) throws(PropertyListError) {
        shapes[index].state = .inProgress
        let start = try input.objectOffset(index)
        let isDictionary = input.bytes[start] & 0xF0 == 0xD0
        try input.checkDepth(depth + 1, at: start)
        let (count, references) = try input.readCount(at: start)
        try input.checkCollectionCount(count, at: start)
        try input.needReferences(count, at: references, for: start)
        if isDictionary {
            try input.needReferences(count, at: references + count * input.referenceSize, for: start)
        }
        let frame = frames + openFrames
        frame.initialize(to: Frame(index: index, start: start, depth: depth + 1, isDictionary: isDictionary,
                                   count: count, references: references))
        openFrames += 1
        if isDictionary {
            frame.pointee.dictionary = PropertyListDictionary(minimumCapacity: count)
        } else {
            frame.pointee.elements.reserveCapacity(count)
        }
    }

    /// Reads the reference of `frame`'s member in progress, and for a
    /// dictionary decodes its key.
    @inline(__always)
    private mutating func nextMember(_ frame: UnsafeMutablePointer<Frame>) throws(PropertyListError) -> Int {
        let slot = frame.pointee.references + frame.pointee.position * input.referenceSize
        guard frame.pointee.isDictionary else { return try input.reference(at: slot) }
        (frame.pointee.key, frame.pointee.keyHash) = try decodeKey(try input.reference(at: slot), hashed: frame.pointee.dictionary.isIndexed)
        return try input.reference(at: slot + frame.pointee.count * input.referenceSize)
    }

    /// Adds a decoded member to `frame` and checks the container's size so far.
    @inline(__always)
    private func addMember(_ member: Decoded, to frame: UnsafeMutablePointer<Frame>) throws(PropertyListError) {
        try add(member.value, base: member.base, nodes: member.nodes, height: member.height, to: frame)
    }

    /// Adds a member's value, measured at relative depth 0 (`base`, `nodes`,
    /// `height`), to `frame` and checks the container's size so far.
    @inline(__always)
    private func add(_ value: consuming PropertyListValue, base: Int, nodes: Int, height: Int,
                     to frame: UnsafeMutablePointer<Frame>) throws(PropertyListError) {
        if frame.pointee.isDictionary {
            // duplicateKey: each key once (canonically equivalent spellings count as one).
            guard frame.pointee.dictionary.insertNew(value, forKey: frame.pointee.key, hashValue: frame.pointee.keyHash) else {
                let slot = frame.pointee.references + frame.pointee.position * input.referenceSize
                throw PropertyListError(.duplicateKey, "key \"\(frame.pointee.key)\" appears more than once", at: .byteOffset(slot))
            }
            // The key and the value, each a node one level down.
            frame.pointee.base = ExpandedSize.add(frame.pointee.base, ExpandedSize.node(depth: 1, payload: frame.pointee.key.utf8.count))
            frame.pointee.nodes = ExpandedSize.add(frame.pointee.nodes, 1 &+ nodes)
        } else {
            frame.pointee.elements.append(value)
            frame.pointee.nodes = ExpandedSize.add(frame.pointee.nodes, nodes)
        }
        frame.pointee.base = ExpandedSize.add(frame.pointee.base, ExpandedSize.placed(base: base, nodes: nodes, depth: 1))
        frame.pointee.height = max(frame.pointee.height, height)
        frame.pointee.position += 1
        try input.checkExpansion(base: frame.pointee.base, nodes: frame.pointee.nodes, depth: frame.pointee.depth - 1, at: frame.pointee.start)
    }

    /// The value of a container whose members are all decoded, checked and
    /// stored; its frame (already popped) is deinitialised.
    @inline(__always)
    private mutating func finish(_ frame: UnsafeMutablePointer<Frame>) throws(PropertyListError) -> Decoded {
        // The members are moved out of the frame, not copied, and the frame is
        // released before anything can throw.
        let value: PropertyListValue
        if frame.pointee.isDictionary {
            var dictionary = PropertyListDictionary()
            swap(&dictionary, &frame.pointee.dictionary)
            value = .dictionary(dictionary)
        } else {
            var elements: [PropertyListValue] = []
            swap(&elements, &frame.pointee.elements)
            value = .array(elements)
        }
        let width = frame.pointee.isDictionary ? 2 : 1
        let end = frame.pointee.references + width * frame.pointee.count * input.referenceSize
        let decoded = Decoded(value: value, base: frame.pointee.base, nodes: frame.pointee.nodes, height: frame.pointee.height + 1)
        let index = frame.pointee.index, start = frame.pointee.start, depth = frame.pointee.depth - 1
        frame.deinitialize(count: 1)
        try complete(index, at: start, end: end, decoded, depth: depth)
        return decoded
    }

    /// Checks a decoded object's size where it is placed and that it ends where
    /// the next object starts, then stores it.
    @inline(__always)
    private mutating func complete(_ index: Int, at start: Int, end: Int, _ decoded: Decoded, depth: Int) throws(PropertyListError) {
        try input.checkExpansion(base: decoded.base, nodes: decoded.nodes, depth: depth, at: start)
        // unaccountedBytes: each object ends exactly where the next one (or the table) starts.
        let nextStart = index + 1 < input.objectCount ? try input.objectOffset(index + 1) : input.tableOffset
        guard end == nextStart else {
            throw PropertyListError(.unaccountedBytes, end < nextStart
                ? "\(nextStart - end) bytes after object \(index) belong to no object"
                : "object \(index) overlaps the next object or is out of table order", at: .byteOffset(end))
        }
        (values + index).initialize(to: decoded.value)
        sizes[index] = decoded.base
        shapes[index] = Shape(state: .done, height: decoded.height, nodes: decoded.nodes)
        decodedCount += 1
    }

    /// Decodes object `index` as a dictionary key; with `hashed`, also
    /// returns its `hashValue`.
    ///
    /// Keys already met are taken from `recentKeys`, a small direct-mapped cache
    /// by object index: the dictionaries of a file share a few key objects
    /// (Apple's writers store each distinct string once), so most keys are
    /// decoded and hashed once per document instead of once per entry.
    private mutating func decodeKey(_ index: Int, hashed: Bool) throws(PropertyListError) -> (String, hash: Int?) {
        // The key is kept here as well as in `values`: reading it back from
        // `values` (state check, enum copy) measured 15% slower on library.bplist.
        let slot = index & (recentKeys.count &- 1)
        if !recentKeys.isEmpty, recentKeys[slot].object == index {
            guard hashed else { return (recentKeys[slot].key, nil) }
            if let hash = recentKeys[slot].hash { return (recentKeys[slot].key, hash) }
            let hash = recentKeys[slot].key.hashValue
            recentKeys[slot].hash = hash
            return (recentKeys[slot].key, hash)
        }
        let offset = try input.objectOffset(index)
        let kind = input.bytes[offset] & 0xF0
        // nonStringKey: keys are ASCII or UTF-16 strings.
        guard kind == BinaryFormat.Marker.asciiString || kind == BinaryFormat.Marker.utf16String else {
            throw PropertyListError(.nonStringKey, "dictionary key is not a string (marker 0x\(Hex.upper(input.bytes[offset])))", at: .byteOffset(offset))
        }
        // A key is a string object: decoded once, and checked like any other
        // (a string is never in progress, and its size at depth 0 was checked
        // when it was decoded).
        let key: String
        if shapes[index].state == .done {
            guard case .string(let decoded) = values[index] else { preconditionFailure("a string marker decoded to something else") }
            key = decoded
        } else {
            let end: Int
            (key, end) = try input.decodeString(at: offset)
            let value = PropertyListValue.string(key)
            shapes[index].state = .inProgress
            try complete(index, at: offset, end: end,
                         Decoded(value: value, base: ExpandedSize.node(depth: 0, payload: value.payloadBytes), nodes: 1, height: 0), depth: 0)
            // A key met for the first time is not cached: only a key object
            // that serves a second dictionary is (measured: caching every key
            // cost 7% on settings.bplist, whose keys are all distinct).
            return (key, hashed ? key.hashValue : nil)
        }
        let hash = hashed ? key.hashValue : nil
        // Small documents are decoded without the cache: it would cost more to
        // set up than the few repeated keys they can have save.
        guard input.objectCount >= Self.recentKeysMinimumObjects else { return (key, hash) }
        if recentKeys.isEmpty {
            recentKeys = Array(repeating: RecentKey(object: -1, key: "", hash: nil), count: Self.recentKeysSize)
        }
        recentKeys[index & (Self.recentKeysSize - 1)] = RecentKey(object: index, key: key, hash: hash)
        return (key, hash)
    }

}
