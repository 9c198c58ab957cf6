public import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Reads of byte spans that the codecs' scanners and text decoders share:
// checked byte and word loads, searches, and strings. Each is written once,
// for `RawSpan` (a `Span<UInt8>` reaches it through `.bytes`), except the
// word scans, which the scanners run over `Span<UInt8>`. The names follow
// ``ByteReader``'s rule: a bare `…(at:)` is for an offset the caller has
// checked, and traps otherwise.

extension RawSpan {
    /// The byte at `offset` (below `byteCount`).
    @inlinable @inline(__always)
    @_spi(ByteKit) public func byte(at offset: Int) -> UInt8 {
        precondition(UInt(bitPattern: offset) < UInt(bitPattern: byteCount), "offset out of range")
        return unsafe unsafeLoad(fromUncheckedByteOffset: offset, as: UInt8.self)
    }

    /// The eight bytes at `offset` as one little-endian word.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func word(at offset: Int) -> UInt64 {
        precondition(byteCount >= 8 && UInt(bitPattern: offset) <= UInt(bitPattern: byteCount &- 8), "word out of range")
        return UInt64(littleEndian: unsafe unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: UInt64.self))
    }

    /// The offset of the first byte at or above 0x80, or nil when every byte
    /// is ASCII (``WordScan/firstNonASCII(_:)``: eight bytes at a time).
    @inlinable @inline(__always)
    @_spi(ByteKit) public var firstNonASCII: Int? {
        unsafe withUnsafeBytes { WordScan.firstNonASCII($0) }
    }

    /// The bytes as a span of `UInt8`, for the scanners that index them.
    @inlinable
    @_spi(ByteKit) public var span: Span<UInt8> {
        @_lifetime(copy self)
        get { Span(_bytes: self) }
    }

    /// The bytes, copied into `Data`.
    @inlinable
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

    /// True when both spans hold the same bytes.
    @_spi(ByteKit) public func sameBytes(as other: RawSpan) -> Bool {
        guard byteCount == other.byteCount else { return false }
        guard byteCount > 0 else { return true }
        return unsafe withUnsafeBytes { a in
            unsafe other.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }

    /// True when the bytes are `literal`'s, ASCII letters compared without
    /// regard to case (a declared encoding name against the ones allowed).
    @_spi(ByteKit) public func equalsIgnoringASCIICase(_ literal: StaticString) -> Bool {
        guard byteCount == literal.utf8CodeUnitCount else { return false }
        let expected = literal.utf8Start
        for i in 0..<byteCount {
            let byte = byte(at: i)
            let folded = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            let other = expected[i]
            let otherFolded = other >= UInt8(ascii: "A") && other <= UInt8(ascii: "Z") ? other | 0x20 : other
            if folded != otherFolded { return false }
        }
        return true
    }

    /// True when the bytes are those of `string`'s UTF-8.
    @_spi(ByteKit) public func sameBytes(asUTF8Of string: String) -> Bool {
        string.withUTF8Span { sameBytes(as: $0.bytes) }
    }
}

extension Span where Element == UInt8 {
    /// The eight bytes at `offset` as one little-endian word (the first byte
    /// in memory lowest), for the word-at-a-time scans of ``WordScan``.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func word(at offset: Int) -> UInt64 {
        // One comparison per word once `count >= 8` is hoisted out of a loop.
        precondition(count >= 8 && UInt(bitPattern: offset) <= UInt(bitPattern: count &- 8), "word out of range")
        return UInt64(littleEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: UInt64.self))
    }

    /// Steps eight bytes at a time from `start` for as long as `skip` holds
    /// of the word there (little-endian); returns where it stopped: at the
    /// first word `skip` refuses, or where fewer than eight bytes are left.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func skipWords(from start: Int, while skip: (UInt64) -> Bool) -> Int {
        precondition(start >= 0 && start <= count, "start out of range")
        let raw = bytes
        var i = start
        let last = count &- 8
        while i <= last {
            if !skip(UInt64(littleEndian: unsafe raw.unsafeLoadUnaligned(fromUncheckedByteOffset: i, as: UInt64.self))) { break }
            i &+= 8
        }
        return i
    }

    /// The first byte `flags` marks, scanning eight bytes at a time from
    /// `start` while a whole word lies before `end`: `flags` returns, for a
    /// word (little-endian), a word whose lowest set bit lies in the first
    /// marked byte (as ``WordScan/bytes(in:equalTo:)`` does). Returns that
    /// byte's offset and true, or where the words ran out and false (fewer
    /// than eight bytes before `end` are left to look at byte by byte).
    @inlinable @inline(__always)
    @_spi(ByteKit) public func firstFlaggedByte(from start: Int, before end: Int,
                                                _ flags: (UInt64) -> UInt64) -> (offset: Int, found: Bool) {
        precondition(start >= 0 && end <= count, "range out of the span")
        let raw = bytes
        var i = start
        let last = end &- 8
        while i <= last {
            let marked = flags(UInt64(littleEndian: unsafe raw.unsafeLoadUnaligned(fromUncheckedByteOffset: i, as: UInt64.self)))
            if marked != 0 { return (i &+ marked.trailingZeroBitCount &>> 3, true) }
            i &+= 8
        }
        return (i, false)
    }

    /// The offset of the first `byte` at or after `start`, or nil.
    @_spi(ByteKit) public func firstIndex(of byte: UInt8, from start: Int = 0) -> Int? {
        guard start >= 0, start < count else { return nil }
        return unsafe withUnsafeBufferPointer { buffer in
            guard let found = memchr(buffer.baseAddress! + start, Int32(byte), buffer.count - start) else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(buffer.baseAddress!)
        }
    }

    /// True when `byte` occurs anywhere.
    @_spi(ByteKit) public func contains(_ byte: UInt8) -> Bool {
        firstIndex(of: byte) != nil
    }

    /// True when the bytes at `offset` spell `literal` (ASCII).
    @inlinable @inline(__always)
    @_spi(ByteKit) public func hasPrefix(_ literal: StaticString, at offset: Int) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard offset >= 0, length <= count &- offset else { return false }
        let text = literal.utf8Start
        var k = 0
        // A long literal (a prolog) eight bytes at a time.
        while k &+ 8 <= length {
            let literalWord = unsafe UnsafeRawPointer(text).loadUnaligned(fromByteOffset: k, as: UInt64.self)
            guard UInt64(littleEndian: literalWord) == word(at: offset &+ k) else { return false }
            k &+= 8
        }
        while k < length {
            guard self[offset &+ k] == text[k] else { return false }
            k &+= 1
        }
        return true
    }

    /// The offset of the first occurrence of `literal` at or after `start`.
    @inlinable
    @_spi(ByteKit) public func firstIndex(of literal: StaticString, from start: Int) -> Int? {
        var i = start
        let first = literal.utf8Start[0]
        while let found = firstIndex(of: first, from: i) {
            if hasPrefix(literal, at: found) { return found }
            i = found &+ 1
        }
        return nil
    }

    /// The bytes as a `String`, copied without validating them: for text
    /// that is valid UTF-8 already (checked by the caller's format before, as
    /// the XML reader checks the whole document before libxml2 hands its text
    /// back). Ill-formed input is a programming error, caught here in debug
    /// builds only.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func stringAssumingValidUTF8() -> String {
        assert((try? UTF8Span(validating: self)) != nil, "text is not valid UTF-8")
        return String(copying: unsafe UTF8Span(unchecked: self, isKnownASCII: bytes.firstNonASCII == nil))
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
