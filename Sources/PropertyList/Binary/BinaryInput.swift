import FoundationEssentials

/// One checked input: its bytes (a ``ByteReader``: every read checked),
/// limits and trailer fields, and the checks every object needs. It holds no
/// references, so the decoding pass reads it in place (a `let` of the
/// decoder) instead of copying it for each call, as it did while these were
/// methods of the decoder (measured: a 144-byte memcpy per object).
internal struct BinaryInput: ~Escapable {
    let reader: ByteReader
    /// The limits the pass checks (the others are checked here, once).
    let limits: Limits
    /// The width of an object reference, for word loads: a reference list
    /// lies in the object area, which the offset table and the trailer follow.
    let referenceWidth: BigEndianWidth
    var referenceSize: Int { referenceWidth.bytes }
    var offsetSize: Int { offsetWidth.bytes }
    /// The number of objects: the offset table's count.
    let objectCount: Int
    let topObject: Int

    /// The limits the decoding pass checks, kept apart from the others so
    /// that the input stays small: it is moved into every call that reads
    /// an object, and above 128 bytes a move is a call to `memcpy`.
    struct Limits {
        let maxDepth: Int
        let maxCollectionCount: Int
        let maxStringBytes: Int
        let maxDataBytes: Int
    }
    /// Where the offset table starts; also the end of the object area.
    let tableOffset: Int
    /// The width of the offset table's entries, for word loads: the table
    /// lies before the trailer, which was checked to follow it exactly.
    let offsetWidth: BigEndianWidth
    /// The largest expanded size the document may have (Specs/value-model.md,
    /// "Expanded size"), at most ``maxExpandedSize`` so that node counts pack.
    let expansionBudget: Int
    /// The packed shapes hold node counts in 52 bits; every node weighs 8 or more.
    static let maxExpandedSize = (1 << 52) - 1

    /// Parses and checks the header, trailer and offset table (Specs: "Trailer").
    @_lifetime(copy bytes)
    init(_ bytes: RawSpan, limits: PropertyListLimits) throws(PropertyListError) {
        let bytes = ByteReader(bytes)
        self.reader = bytes
        self.limits = Limits(maxDepth: limits.maxDepth, maxCollectionCount: limits.maxCollectionCount,
                             maxStringBytes: limits.maxStringBytes, maxDataBytes: limits.maxDataBytes)
        let size = bytes.count

        // inputTooLarge: the whole input is bounded before anything is read.
        guard size <= limits.maxInputBytes else {
            throw PropertyListError(.inputTooLarge, "input is \(size) bytes, over the limit of \(limits.maxInputBytes)")
        }
        // badMagic: the file starts with "bplist".
        guard size >= 6, (0..<6).allSatisfy({ bytes[$0] == BinaryFormat.magic[$0] }) else {
            throw PropertyListError(.badMagic, "not a binary property list (no \"bplist\" header)", at: .byteOffset(0))
        }
        // unsupportedBinaryVersion: only version "00" is a public format.
        guard size >= 8, bytes[6] == UInt8(ascii: "0"), bytes[7] == UInt8(ascii: "0") else {
            let shown = bytes.getBytes(in: 6..<8)?.decodedString ?? "?"
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
        // The trailer's last three fields: whole words inside the input (it is at least minimumSize long).
        let word = BigEndianWidth(bytes: 8)!
        let rawCount = bytes.integer(at: trailer + 8, width: word)
        let rawTop = bytes.integer(at: trailer + 16, width: word)
        let rawTable = bytes.integer(at: trailer + 24, width: word)

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

        self.topObject = Int(rawTop)
        self.tableOffset = Int(rawTable)
        self.objectCount = Int(rawCount)
        // The table was checked above to fill the bytes up to the trailer,
        // whose 32 bytes give every entry a whole word.
        self.offsetWidth = BigEndianWidth(bytes: offsetSize)!
        self.referenceWidth = BigEndianWidth(bytes: referenceSize)!
        self.expansionBudget = min(limits.expansionBudget(inputBytes: bytes.count), Self.maxExpandedSize)
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
            throw PropertyListError(.expansionLimitExceeded, "the value expands past \(expansionBudget) bytes (the budget for \(reader.count) input bytes)", at: .byteOffset(start))
        }
    }

    /// ``checkExpansion(base:nodes:depth:at:)`` for a done object met again,
    /// located at the object's offset, read only when the check fails (the
    /// offset was read when the object was decoded, so the read succeeds).
    @inline(__always)
    func checkExpansion(base: Int, nodes: Int, depth: Int, ofDecoded index: Int) throws(PropertyListError) {
        guard ExpandedSize.placed(base: base, nodes: nodes, depth: depth) <= expansionBudget else {
            // The same check fails again, now located.
            try checkExpansion(base: base, nodes: nodes, depth: depth, at: try objectOffset(index))
            preconditionFailure("the check failed a moment ago")
        }
    }

    /// Reads the count in the marker's low nibble, or the extended count that
    /// follows it; returns the count and where the content starts.
    @inline(__always)
    func readCount(at start: Int) throws(PropertyListError) -> (count: Int, content: Int) {
        let nibble = Int(reader[start] & 0x0F)
        if nibble != 0x0F { return (nibble, start + 1) }
        let lengthAt = start + 1
        try need(1, at: lengthAt, for: start)
        let lengthMarker = reader[lengthAt]
        // badLength: an extended length is an integer object of 1, 2, 4 or 8 bytes.
        guard lengthMarker & 0xF0 == BinaryMarker.int.rawValue, lengthMarker & 0x0F <= 3 else {
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
        let raw = reader.integer(at: offset, width: referenceWidth)
        // badReference: references are below the object count.
        guard raw < UInt64(objectCount) else {
            throw PropertyListError(.badReference, "reference to object \(raw), but there are \(objectCount)", at: .byteOffset(offset))
        }
        return Int(raw)
    }

    /// Reads object `index`'s offset from the table. `index` is below
    /// ``objectCount`` (a checked reference, or a loop over the objects):
    /// the table holds it, and the word load checks its bounds.
    @inline(__always)
    func objectOffset(_ index: Int) throws(PropertyListError) -> Int {
        let entry = tableOffset &+ index &* offsetSize
        let raw = reader.integer(at: entry, width: offsetWidth)
        // badObjectOffset: objects start after the header and before the offset table.
        guard raw >= UInt64(BinaryFormat.headerSize), raw < UInt64(tableOffset) else {
            throw PropertyListError(.badObjectOffset, "object \(index) is at offset \(raw), outside the object area", at: .byteOffset(entry))
        }
        return Int(raw)
    }

    // MARK: Loads (callers have checked the bounds)

    /// A big-endian unsigned integer of `width` bytes (1…8) at `offset`, which
    /// the caller has checked lies inside the object area. The offset table
    /// and the 32-byte trailer follow that area, so a whole word is there
    /// (``ByteReader/integer(at:width:)``).
    @inline(__always)
    func loadBigEndian(at offset: Int, width: Int) -> UInt64 {
        reader.integer(at: offset, width: BigEndianWidth(bytes: width)!)
    }
}
