/// Checked random-access reads of input bytes that stay valid while the
/// region is used: the binary reader's input, read out of order by offset.
///
/// Unlike ``ByteReader`` a region is escapable, so keeping it within the
/// bytes' lifetime is its maker's duty: regions are made only by
/// ``withByteRegion(_:_:)``, valid inside that call, and held only by values
/// that live inside it (`BinaryInput`, in the binary reader's `read`).
/// Why not a `RawSpan`: Swift 6.3.1 copies a non-escapable input held in a
/// decoder on every call from the decoder's mutating methods (measured: a
/// 136-byte memcpy per object, with the copies and bounds checks 12% more
/// instructions decoding settings.bplist).
@_spi(ByteKit) public struct ByteRegion {
    @usableFromInline let base: UnsafeRawPointer?
    /// The number of bytes.
    @_spi(ByteKit) public let count: Int
    /// The number of offsets at which a whole 8-byte word lies inside the
    /// region (`count - 7`, or 0 when the region is shorter than a word).
    @usableFromInline let wordStarts: Int

    @usableFromInline init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes.baseAddress
        count = bytes.count
        wordStarts = max(bytes.count - 7, 0)
    }

    /// The byte at `offset`, which the caller has checked is below ``count``.
    @inlinable @inline(__always)
    @_spi(ByteKit) public subscript(offset: Int) -> UInt8 {
        precondition(UInt(bitPattern: offset) < UInt(bitPattern: count), "offset out of range")
        return base.unsafelyUnwrapped.load(fromByteOffset: offset, as: UInt8.self)
    }

    /// A big-endian unsigned integer of `width` bytes at `offset`, read as the
    /// top bytes of the 8-byte word there: one load and one shift, no branch
    /// on the width. The whole word must lie inside the region (checked with
    /// one comparison; a failure is a programming error): a caller uses it
    /// where the format guarantees bytes after the integer, as the binary
    /// format's trailer follows its offset table and reference lists.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func load(_ width: BigEndianWidth, at offset: Int) -> UInt64 {
        precondition(UInt(bitPattern: offset) < UInt(bitPattern: wordStarts), "word out of range")
        return UInt64(bigEndian: (base.unsafelyUnwrapped + offset).loadUnaligned(as: UInt64.self)) &>> width.shift
    }

    /// The `count` big-endian integers of `width` bytes each that start at
    /// `offset`, one after the other, with a whole 8-byte word inside the
    /// region at each (see ``load(_:at:)``); nil otherwise. Checked here
    /// once, so that reading one checks only its index.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func integers(at offset: Int, count: Int, width: BigEndianWidth) -> BigEndianIntegers? {
        guard offset >= 0, count >= 1, count <= (self.count &- offset) / width.bytes,
              offset &+ (count &- 1) &* width.bytes < wordStarts else { return nil }
        return BigEndianIntegers(base: base.unsafelyUnwrapped + offset, count: count, width: width)
    }

    /// True when `range` lies inside the region.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func contains(_ range: Range<Int>) -> Bool {
        range.lowerBound >= 0 && range.upperBound <= count
    }

    /// The bytes at `range` (inside the region), as a span valid during `body`.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func withBytes<R, E: Error>(in range: Range<Int>, _ body: (RawSpan) throws(E) -> R) throws(E) -> R {
        precondition(contains(range), "range out of the region")
        let bytes = UnsafeRawBufferPointer(start: base.map { $0 + range.lowerBound }, count: range.count)
        return try body(bytes.bytes)
    }

    /// The UTF-16BE code units at `offset`, transcoded to a `String`
    /// (``UTF16BigEndian``; the region must hold them); on an unpaired
    /// surrogate, its unit index. Straight from the region's memory into one
    /// scratch buffer (through a `RawSpan` and a closure, it cost 50
    /// instructions more per string: 40% of decoding unicode.bplist's strings).
    @inline(__always)
    @_spi(ByteKit) public func utf16BigEndianString(at offset: Int, units: Int) -> Result<String, UnpairedSurrogate> {
        precondition(offset >= 0 && offset <= count && units >= 0 && units <= (count &- offset) / 2, "range out of the region")
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: UTF16BigEndian.decodeCapacity(units: units)) { scratch in
            let source = base.map { $0 + offset } ?? UnsafeRawPointer(scratch.baseAddress!)
            switch UTF16BigEndian.decode(source, units: units, into: UnsafeMutableRawPointer(scratch.baseAddress!)) {
            case .unpairedSurrogate(let unit):
                return .failure(UnpairedSurrogate(unit: unit))
            case .utf8(let written, let isASCII):
                // The transcoder writes only well-formed UTF-8: copied without validating again
                // (measured: re-validation was a quarter of decoding unicode.bplist).
                let utf8 = UnsafeBufferPointer(start: scratch.baseAddress!, count: written)
                return .success(String(copying: unsafe UTF8Span(unchecked: utf8.span, isKnownASCII: isASCII)))
            }
        }
    }
}

/// Calls `body` with a region over `bytes`, valid only during the call.
@inlinable
@_spi(ByteKit) public func withByteRegion<R, E: Error>(_ bytes: RawSpan, _ body: (ByteRegion) throws(E) -> R) throws(E) -> R {
    try bytes.withUnsafeBytes { (raw) throws(E) -> R in try body(ByteRegion(raw)) }
}

/// The width of a big-endian unsigned integer, 1…8 bytes, for the loads
/// that read a whole word and shift (``ByteRegion/load(_:at:)``). Two bytes,
/// so that the inputs holding it stay small enough to move without a call.
@_spi(ByteKit) public struct BigEndianWidth {
    @usableFromInline let storedBytes: UInt8
    /// How far the 8-byte word is shifted right: `(8 - bytes) × 8`.
    @usableFromInline let storedShift: UInt8

    /// The width of `bytes` bytes; nil unless 1…8.
    @inlinable
    @_spi(ByteKit) public init?(bytes: Int) {
        guard bytes >= 1, bytes <= 8 else { return nil }
        storedBytes = UInt8(bytes)
        storedShift = UInt8(8 - bytes) &* 8
    }

    /// The width in bytes (1…8).
    @inlinable @_spi(ByteKit) public var bytes: Int { Int(storedBytes) }
    @inlinable var shift: UInt64 { UInt64(storedShift) }
}

/// Big-endian unsigned integers of one width, one after the other inside a
/// ``ByteRegion``: the binary format's offset table. Made only by
/// ``ByteRegion/integers(at:count:width:)``, which checks that each lies
/// inside the region with a whole word after its start, and valid as long as
/// that region; reading one checks its index against ``count`` (one
/// comparison) and is one load and one shift.
@_spi(ByteKit) public struct BigEndianIntegers {
    @usableFromInline let base: UnsafeRawPointer
    /// The number of integers.
    @_spi(ByteKit) public let count: Int
    /// Their width.
    @_spi(ByteKit) public let width: BigEndianWidth

    @usableFromInline init(base: UnsafeRawPointer, count: Int, width: BigEndianWidth) {
        self.base = base
        self.count = count
        self.width = width
    }

    /// Integer `index` (below ``count``).
    @inlinable
    @_spi(ByteKit) public subscript(index: Int) -> UInt64 {
        @inline(__always) get {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "index out of range")
            return UInt64(bigEndian: (base + index &* width.bytes).loadUnaligned(as: UInt64.self)) &>> width.shift
        }
    }
}
