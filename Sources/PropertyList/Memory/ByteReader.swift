import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte order of an integer in the input (swift-nio's `Endianness`).
@_spi(ByteKit) public enum Endianness: Sendable {
    /// Most significant byte first.
    case big
    /// Least significant byte first.
    case little
}

/// The kit's one way to read input bytes: a cursor over a `RawSpan`.
///
/// One vocabulary, swift-nio's `ByteBuffer`'s (Specs/architecture.md,
/// "Memory"): `get…(at:)` reads at an offset, never moves the cursor, and
/// returns `nil` when the bytes are not all there; `read…` reads at the
/// cursor and advances it, only on success, returning `nil` when short; a
/// bare `…(at:)` or a subscript is for an offset the caller has checked
/// with a named guard, and traps otherwise; a read that checks nothing says
/// so in its name. Integers are read by one function with an endianness.
/// Callers turn `nil` into their format's own error (`truncated`,
/// `objectOverrun`, …) with the offset it happened at.
///
/// The reader cannot outlive the bytes it reads (it is `~Escapable`).
@_spi(ByteKit) public struct ByteReader: ~Escapable {
    /// The whole input.
    @_spi(ByteKit) public let bytes: RawSpan
    /// The offset of the next sequential read.
    @inlinable @_spi(ByteKit) public var offset: Int { position }
    @usableFromInline var position: Int
    /// The number of offsets at which a whole 8-byte word lies inside the
    /// input (`count - 7`, or 0 when it is shorter than a word): the bound of
    /// the word loads, one comparison each.
    @usableFromInline let wordStarts: Int

    /// A reader at the start of `bytes` (or at `offset`).
    @_lifetime(copy bytes)
    @_spi(ByteKit) public init(_ bytes: RawSpan, offset: Int = 0) {
        precondition(offset >= 0 && offset <= bytes.byteCount)
        self.bytes = bytes
        self.position = offset
        self.wordStarts = max(bytes.byteCount - 7, 0)
    }

    /// The number of input bytes.
    @inlinable @_spi(ByteKit) public var count: Int { bytes.byteCount }
    /// Bytes after the cursor.
    @inlinable @_spi(ByteKit) public var remaining: Int { bytes.byteCount &- offset }
    /// True when the cursor is at the end of the input.
    @inlinable @_spi(ByteKit) public var isAtEnd: Bool { offset == bytes.byteCount }

    // MARK: Sequential reads: nil when short, the cursor moved only on success

    /// The byte at the cursor.
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func readByte() -> UInt8? {
        // The cursor is never negative: one comparison.
        guard position < bytes.byteCount else { return nil }
        defer { position &+= 1 }
        return unsafe bytes.unsafeLoad(fromUncheckedByteOffset: position, as: UInt8.self)
    }

    /// An integer of `T`'s width at the cursor, in `endianness` (big-endian unless told).
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func readInteger<T: FixedWidthInteger & BitwiseCopyable>(endianness: Endianness = .big, as: T.Type = T.self) -> T? {
        let width = MemoryLayout<T>.size
        guard width <= remaining else { return nil }
        defer { position &+= width }
        let raw = unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: position, as: T.self)
        return endianness == .big ? T(bigEndian: raw) : T(littleEndian: raw)
    }

    /// An unsigned integer of `width` bytes (1…8) at the cursor, in `endianness` (big-endian unless told).
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func readInteger(width: Int, endianness: Endianness = .big) -> UInt64? {
        guard let value = getInteger(at: offset, width: width, endianness: endianness) else { return nil }
        position &+= width
        return value
    }

    /// The next `count` bytes.
    @inlinable @inline(__always)
    @_lifetime(copy self)
    @_spi(ByteKit) public mutating func readBytes(_ count: Int) -> RawSpan? {
        guard count >= 0, count <= remaining else { return nil }
        defer { position &+= count }
        return unsafe bytes.extracting(unchecked: offset..<(offset &+ count))
    }

    /// Skips `count` bytes; false (and the cursor unmoved) when fewer remain.
    @inlinable
    @_spi(ByteKit) public mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        position &+= count
        return true
    }

    /// Moves the cursor to `offset`; false (and the cursor unmoved) when it is past the end.
    @inlinable
    @_spi(ByteKit) public mutating func move(to offset: Int) -> Bool {
        guard offset >= 0, offset <= bytes.byteCount else { return false }
        self.position = offset
        return true
    }

    // MARK: Random access: nil when out of range, the cursor never moved

    /// The byte at `offset`.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func getByte(at offset: Int) -> UInt8? {
        guard UInt(bitPattern: offset) < UInt(bitPattern: bytes.byteCount) else { return nil }
        return unsafe bytes.unsafeLoad(fromUncheckedByteOffset: offset, as: UInt8.self)
    }

    /// The integer of `T`'s width at `offset`, in `endianness` (big-endian unless told).
    @inlinable @inline(__always)
    @_spi(ByteKit) public func getInteger<T: FixedWidthInteger & BitwiseCopyable>(at offset: Int, endianness: Endianness = .big, as: T.Type = T.self) -> T? {
        let width = MemoryLayout<T>.size
        guard offset >= 0, width <= bytes.byteCount &- offset else { return nil }
        let raw = unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: T.self)
        return endianness == .big ? T(bigEndian: raw) : T(littleEndian: raw)
    }

    /// The unsigned integer of `width` bytes (1…8) at `offset`, in `endianness` (big-endian unless told).
    @inlinable @inline(__always)
    @_spi(ByteKit) public func getInteger(at offset: Int, width: Int, endianness: Endianness = .big) -> UInt64? {
        guard offset >= 0, width >= 1, width <= 8, width <= bytes.byteCount &- offset else { return nil }
        let value: UInt64
        switch width {
        case 1: return UInt64(unsafe bytes.unsafeLoad(fromUncheckedByteOffset: offset, as: UInt8.self))
        case 2: value = UInt64(UInt16(bigEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: UInt16.self)))
        case 4: value = UInt64(UInt32(bigEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: UInt32.self)))
        case 8: value = UInt64(bigEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: UInt64.self))
        default:
            var bigEndian: UInt64 = 0
            for i in offset..<(offset + width) {
                bigEndian = bigEndian << 8 | UInt64(unsafe bytes.unsafeLoad(fromUncheckedByteOffset: i, as: UInt8.self))
            }
            value = bigEndian
        }
        // Read most significant byte first; a little-endian integer is those bytes reversed.
        return endianness == .big ? value : value.byteSwapped &>> UInt64(64 &- 8 &* width)
    }

    /// The bytes at `range`.
    @inlinable @inline(__always)
    @_lifetime(copy self)
    @_spi(ByteKit) public func getBytes(in range: Range<Int>) -> RawSpan? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.byteCount else { return nil }
        return unsafe bytes.extracting(unchecked: range)
    }

    /// The byte at `offset`, which the caller has checked is below ``count``.
    @inlinable @inline(__always)
    @_spi(ByteKit) public subscript(offset: Int) -> UInt8 {
        precondition(UInt(bitPattern: offset) < UInt(bitPattern: bytes.byteCount), "offset out of range")
        return unsafe bytes.unsafeLoad(fromUncheckedByteOffset: offset, as: UInt8.self)
    }

    /// A big-endian unsigned integer of `width` bytes at `offset`, read as
    /// the top bytes of the 8-byte word there: one load and one shift, no
    /// branch on the width. The whole word must lie inside the input (one
    /// check; a failure traps): for formats that guarantee bytes after the
    /// integer, as the binary format's offset table and 32-byte trailer
    /// follow its objects, and the trailer follows the table (moving the
    /// binary reader onto checked reads of the exact width had cost 2–5%
    /// more instructions).
    @inlinable @inline(__always)
    @_spi(ByteKit) public func integer(at offset: Int, width: BigEndianWidth) -> UInt64 {
        precondition(UInt(bitPattern: offset) < UInt(bitPattern: wordStarts), "word out of range")
        return UInt64(bigEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: UInt64.self)) &>> width.shift
    }

    /// The first offset at or after `start` holding `byte`, or nil.
    @_spi(ByteKit) public func firstOffset(of byte: UInt8, from start: Int = 0) -> Int? {
        guard start >= 0, start < bytes.byteCount else { return nil }
        return unsafe bytes.withUnsafeBytes { raw in
            guard let found = memchr(raw.baseAddress! + start, Int32(byte), raw.count - start) else { return nil }
            return UnsafeRawPointer(found) - raw.baseAddress!
        }
    }
}

/// The width of a big-endian unsigned integer, 1…8 bytes, for the word loads
/// of ``ByteReader/integer(at:width:)``. Two bytes, so that the inputs holding
/// it stay small enough to move without a call.
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
