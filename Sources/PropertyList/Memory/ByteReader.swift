public import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kit's one way to read input bytes: a cursor over a `RawSpan`.
///
/// Every read is checked against the end of the input. A read that would
/// pass the end returns `nil` and leaves the cursor where it was; a read that
/// succeeds advances it (the contract of swift-nio's `readInteger` and of
/// swift-protobuf's decoder). The random-access reads (`…(at:)`) never move
/// the cursor. Callers turn `nil` into their format's own error (`truncated`,
/// `objectOverrun`, …) with the offset it happened at.
///
/// The reader cannot outlive the bytes it reads (it is `~Escapable`).
@_spi(ByteKit) public struct ByteReader: ~Escapable {
    /// The whole input.
    @_spi(ByteKit) public let bytes: RawSpan
    /// The offset of the next sequential read.
    @inlinable @_spi(ByteKit) public var offset: Int { position }
    @usableFromInline var position: Int

    /// A reader at the start of `bytes` (or at `offset`).
    @_lifetime(copy bytes)
    @_spi(ByteKit) public init(_ bytes: RawSpan, offset: Int = 0) {
        precondition(offset >= 0 && offset <= bytes.byteCount)
        self.bytes = bytes
        self.position = offset
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
        guard offset < bytes.byteCount else { return nil }
        defer { position &+= 1 }
        return unsafe bytes.unsafeLoad(fromUncheckedByteOffset: offset, as: UInt8.self)
    }

    /// A big-endian integer of `T`'s width.
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func readBigEndian<T: FixedWidthInteger & BitwiseCopyable>(_: T.Type) -> T? {
        let width = MemoryLayout<T>.size
        guard width <= remaining else { return nil }
        defer { position &+= width }
        return T(bigEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: T.self))
    }

    /// A little-endian integer of `T`'s width.
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func readLittleEndian<T: FixedWidthInteger & BitwiseCopyable>(_: T.Type) -> T? {
        readBigEndian(T.self)?.byteSwapped
    }

    /// A big-endian unsigned integer of `width` bytes (1…8).
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func readBigEndian(width: Int) -> UInt64? {
        guard let value = bigEndian(at: offset, width: width) else { return nil }
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
    @_spi(ByteKit) public func byte(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < bytes.byteCount else { return nil }
        return unsafe bytes.unsafeLoad(fromUncheckedByteOffset: offset, as: UInt8.self)
    }

    /// The byte at `offset`, which the caller has checked is below ``count``.
    @inlinable @inline(__always)
    @_spi(ByteKit) public subscript(offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < bytes.byteCount, "offset out of range")
        return unsafe bytes.unsafeLoad(fromUncheckedByteOffset: offset, as: UInt8.self)
    }

    /// A big-endian unsigned integer of `width` bytes (1…8) at `offset`.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func bigEndian(at offset: Int, width: Int) -> UInt64? {
        guard offset >= 0, width >= 1, width <= 8, width <= bytes.byteCount &- offset else { return nil }
        switch width {
        case 1: return UInt64(unsafe bytes.unsafeLoad(fromUncheckedByteOffset: offset, as: UInt8.self))
        case 2: return UInt64(UInt16(bigEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: UInt32.self)))
        case 8: return UInt64(bigEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: UInt64.self))
        default:
            var value: UInt64 = 0
            for i in offset..<(offset + width) {
                value = value << 8 | UInt64(unsafe bytes.unsafeLoad(fromUncheckedByteOffset: i, as: UInt8.self))
            }
            return value
        }
    }

    /// The bytes at `range`.
    @inlinable @inline(__always)
    @_lifetime(copy self)
    @_spi(ByteKit) public func bytes(in range: Range<Int>) -> RawSpan? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.byteCount else { return nil }
        return unsafe bytes.extracting(unchecked: range)
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

// MARK: - Spans as values

extension RawSpan {
    /// The bytes, copied into `Data`.
    @_spi(ByteKit) public var data: Data {
        unsafe withUnsafeBytes { Data($0) }
    }

    /// The bytes as a `String`, ill-formed UTF-8 repaired (for messages).
    @_spi(ByteKit) public var decodedString: String {
        unsafe withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes, copied into an array.
    @_spi(ByteKit) public var array: [UInt8] {
        unsafe withUnsafeBytes { Array($0) }
    }

    /// The bytes as a `String` when they are well-formed UTF-8, else nil.
    /// ASCII (checked eight bytes at a time) is copied without validating again.
    @_spi(ByteKit) public var validUTF8String: String? {
        unsafe withUnsafeBytes { raw in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            if WordScan.firstNonASCII(raw) == nil {
                return String(copying: unsafe UTF8Span(unchecked: bytes.span, isKnownASCII: true))
            }
            guard let checked = try? UTF8Span(validating: bytes.span) else { return nil }
            return String(copying: checked)
        }
    }

    /// True when the bytes are well-formed UTF-8 (``validUTF8String`` without the copy).
    @_spi(ByteKit) public var isValidUTF8: Bool {
        unsafe withUnsafeBytes { raw in
            if WordScan.firstNonASCII(raw) == nil { return true }
            return (try? UTF8Span(validating: raw.assumingMemoryBound(to: UInt8.self).span)) != nil
        }
    }

    /// The 16 bytes as a UUID, or nil when there are not exactly 16.
    @_spi(ByteKit) public var uuid: UUID? {
        guard byteCount == 16 else { return nil }
        return unsafe withUnsafeBytes { b in
            UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
        }
    }

    /// The bytes as a `String` when every one is ASCII, else the offset of the first that is not.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func asciiString() -> Result<String, NonASCIIByte> {
        unsafe withUnsafeBytes { raw in
            if let bad = WordScan.firstNonASCII(raw) { return .failure(NonASCIIByte(offset: bad, byte: raw[bad])) }
            // ASCII, just checked, is valid UTF-8: copied without validating again.
            let ascii = raw.assumingMemoryBound(to: UInt8.self)
            return .success(String(copying: unsafe UTF8Span(unchecked: ascii.span, isKnownASCII: true)))
        }
    }

    /// The offset of the first byte at or above 0x80, or nil when every byte is ASCII.
    @inlinable @inline(__always)
    @_spi(ByteKit) public var firstNonASCII: Int? {
        unsafe withUnsafeBytes { WordScan.firstNonASCII($0) }
    }

    /// True when both spans hold the same bytes.
    @_spi(ByteKit) public func sameBytes(as other: RawSpan) -> Bool {
        guard byteCount == other.byteCount else { return false }
        guard byteCount > 0 else { return true }
        return unsafe withUnsafeBytes { a in
            unsafe other.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }

    /// True when the bytes are those of `string`'s UTF-8.
    @_spi(ByteKit) public func sameBytes(asUTF8Of string: String) -> Bool {
        string.withUTF8Span { sameBytes(as: $0.bytes) }
    }
}

extension Hasher {
    /// Feeds the bytes of `bytes` to the hasher.
    @_spi(ByteKit) public mutating func combine(bytes: RawSpan) {
        unsafe bytes.withUnsafeBytes { combine(bytes: $0) }
    }
}

extension UUID {
    /// The UUID's 16 bytes, in order.
    @_spi(ByteKit) public var byteArray: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }
}

/// A byte at or above 0x80 where only ASCII may be.
@_spi(ByteKit) public struct NonASCIIByte: Error {
    /// Its offset in the span.
    @_spi(ByteKit) public let offset: Int
    /// The byte.
    @_spi(ByteKit) public let byte: UInt8

    @usableFromInline init(offset: Int, byte: UInt8) {
        self.offset = offset
        self.byte = byte
    }
}

/// An unpaired UTF-16 surrogate.
@_spi(ByteKit) public struct UnpairedSurrogate: Error {
    /// The index of the unit.
    @_spi(ByteKit) public let unit: Int
}
