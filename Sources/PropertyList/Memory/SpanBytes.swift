#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
}

// Reads of byte spans that the codecs' scanners and text decoders share:
// checked word loads, searches, and strings.
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

    /// The offset of the first byte at or above 0x80, or nil when every byte is ASCII.
    @inlinable @inline(__always)
    @_spi(ByteKit) public var firstNonASCII: Int? {
        var i = skipWords(from: 0) { !WordScan.hasNonASCII($0) }
        while i < count {
            if self[i] >= 0x80 { return i }
            i &+= 1
        }
        return nil
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
        for k in 0..<length where self[offset &+ k] != text[k] { return false }
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

    /// The bytes as a `String`, ill-formed UTF-8 repaired (for messages).
    @_spi(ByteKit) public var decodedString: String {
        unsafe withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes as a `String`, copied without validating: for text that is
    /// valid UTF-8 already (checked by the caller's format before, as the XML
    /// reader checks the whole document before libxml2 hands its text back).
    /// Ill-formed input is a programming error, caught here in debug builds.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func stringOfValidatedUTF8() -> String {
        assert((try? UTF8Span(validating: self)) != nil, "text is not valid UTF-8")
        return String(copying: unsafe UTF8Span(unchecked: self, isKnownASCII: firstNonASCII == nil))
    }
}
