public import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writers' growing output (binary, XML, MP): a ``GrowableBuffer`` of
/// bytes. Small appends are a bounds check and a copy, without Array's
/// generic append machinery (measured: a third of XML writing went to it).
/// The buffer owns its memory: every append here writes through
/// ``GrowableBuffer/append(upTo:initializingWith:)`` and every read through
/// ``GrowableBuffer/withElements(in:_:)``.
@_spi(ByteKit) public typealias ByteSink = GrowableBuffer<UInt8>

extension GrowableBuffer where Element == UInt8 {
    /// Appends `bytes`.
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func append(_ bytes: Span<UInt8>) {
        let count = bytes.count
        guard count > 0 else { return }
        append(upTo: count) { target in
            unsafe bytes.withUnsafeBufferPointer { source in
                unsafe Self.copy(from: UnsafeRawPointer(source.baseAddress!), to: UnsafeMutableRawPointer(target.baseAddress!), count: count)
            }
            return count
        }
    }

    /// Copies `count` (at least 1) bytes. Up to 32 bytes (a scalar's text, a
    /// key) are copied as four or two words, two halves or single bytes that
    /// may overlap, without a call: a call to `memcpy` costs more than the copy.
    @inlinable @inline(__always)
    static func copy(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        if count >= 8 && count <= 16 {
            let head = unsafe source.loadUnaligned(as: UInt64.self)
            let tail = unsafe source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            unsafe target.storeBytes(of: head, as: UInt64.self)
            unsafe target.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 && count < 8 {
            let head = unsafe source.loadUnaligned(as: UInt32.self)
            let tail = unsafe source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            unsafe target.storeBytes(of: head, as: UInt32.self)
            unsafe target.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        } else if count < 4 {
            for offset in 0..<count {
                unsafe target.storeBytes(of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self)
            }
        } else if count <= 32 {
            // The first 16 bytes and the last 16, which overlap unless count is 32.
            let a = unsafe source.loadUnaligned(as: UInt64.self)
            let b = unsafe source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let c = unsafe source.loadUnaligned(fromByteOffset: count &- 16, as: UInt64.self)
            let d = unsafe source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            unsafe target.storeBytes(of: a, as: UInt64.self)
            unsafe target.storeBytes(of: b, toByteOffset: 8, as: UInt64.self)
            unsafe target.storeBytes(of: c, toByteOffset: count &- 16, as: UInt64.self)
            unsafe target.storeBytes(of: d, toByteOffset: count &- 8, as: UInt64.self)
        } else {
            unsafe target.copyMemory(from: source, byteCount: count)
        }
    }

    /// Appends `bytes`.
    @inlinable
    @_spi(ByteKit) public mutating func append(_ bytes: RawSpan) {
        let count = bytes.byteCount
        guard count > 0 else { return }
        append(upTo: count) { target in
            unsafe bytes.withUnsafeBytes { source in
                unsafe UnsafeMutableRawPointer(target.baseAddress!).copyMemory(from: source.baseAddress!, byteCount: count)
            }
            return count
        }
    }

    /// Appends the bytes of `data`.
    @_spi(ByteKit) public mutating func append(data: Data) {
        let count = data.count
        guard count > 0 else { return }
        append(upTo: count) { target in
            data.withUnsafeBytes { source in UnsafeMutableRawPointer(target.baseAddress!).copyMemory(from: source.baseAddress!, byteCount: count) }
            return count
        }
    }

    /// Appends a UUID's 16 bytes.
    @_spi(ByteKit) public mutating func append(uuid: UUID) {
        withUnsafeBytes(of: uuid.uuid) { append($0.bytes) }
    }

    /// Appends the bytes of `array`.
    @inlinable
    @_spi(ByteKit) public mutating func append(contentsOf array: [UInt8]) {
        append(array.span)
    }

    /// Appends the bytes at `range` of `other`.
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func append(from other: borrowing ByteSink, in range: Range<Int>) {
        guard !range.isEmpty else { return }
        other.withElements(in: range) { source in append(source.span) }
    }

    @inlinable
    @_spi(ByteKit) public mutating func append(_ literal: StaticString) {
        let count = literal.utf8CodeUnitCount
        append(upTo: count) { target in
            target.baseAddress!.update(from: literal.utf8Start, count: count)
            return count
        }
    }

    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func append(_ byte: UInt8) {
        append(upTo: 1) { target in
            target[0] = byte
            return 1
        }
    }

    /// For bytes at `range` (within ``count``) that are all ASCII, one bit of
    /// 64 picked by their length, first and last bytes (equal bytes, equal
    /// bits: a filter before comparing them); 0 when any byte is not ASCII.
    @inlinable
    @_spi(ByteKit) public func asciiSignature(_ range: Range<Int>) -> UInt64 {
        withElements(in: range) { bytes in
            var index = 0
            let count = bytes.count
            var bits: UInt64 = 0
            while index + 8 <= count {
                bits |= UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                index += 8
            }
            while index < count {
                bits |= UInt64(bytes[index])
                index += 1
            }
            guard bits & 0x8080_8080_8080_8080 == 0 else { return 0 }
            guard count > 0 else { return 1 }
            let mix = count &* 7 &+ Int(bytes[0]) &* 3 &+ Int(bytes[count - 1])
            return 1 << UInt64(mix & 63)
        }
    }

    /// The bytes at `range` (within ``count``), decoded as UTF-8.
    @_spi(ByteKit) public func string(in range: Range<Int>) -> String {
        withElements(in: range) { String(decoding: $0, as: UTF8.self) }
    }

    /// `value`'s low `width` bytes, most significant first.
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func append(bigEndian value: UInt64, width: Int) {
        append(upTo: width) { target in
            let at = UnsafeMutableRawPointer(target.baseAddress!)
            switch width {
            // The widths the formats use, each one store.
            case 1: at.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
            case 2: at.storeBytes(of: UInt16(truncatingIfNeeded: value).bigEndian, as: UInt16.self)
            case 4: at.storeBytes(of: UInt32(truncatingIfNeeded: value).bigEndian, as: UInt32.self)
            case 8: at.storeBytes(of: value.bigEndian, as: UInt64.self)
            default:
                var shift = (width - 1) * 8
                var offset = 0
                while shift >= 0 {
                    at.storeBytes(of: UInt8(truncatingIfNeeded: value >> UInt64(shift)), toByteOffset: offset, as: UInt8.self)
                    offset += 1
                    shift -= 8
                }
            }
            return width
        }
    }

    /// Well-formed UTF-8 as UTF-16BE; `units` is its ``UTF16BigEndian/unitCount(utf8:)``.
    @_spi(ByteKit) public mutating func append(utf16BigEndianOf utf8: Span<UInt8>, units: Int) {
        // The transcoder stores four bytes at a time: 2 bytes of slack.
        append(upTo: 2 * units + 2) { target in
            let written = unsafe utf8.withUnsafeBufferPointer { source in
                UTF16BigEndian.encode(utf8: source, into: UnsafeMutableRawPointer(target.baseAddress!))
            }
            precondition(written == 2 * units, "the unit count does not match the UTF-8")
            return written
        }
    }

    /// A string's UTF-8 bytes (labelled, so that a literal always takes the StaticString overload).
    @_spi(ByteKit) public mutating func append(string: String) {
        var string = string
        string.withUTF8 { append($0.span) }
    }

    /// True when the bytes at `a` and at `b` (both within `0..<count`) are equal.
    @_spi(ByteKit) public func bytesEqual(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        return withElements(in: a) { first in
            withElements(in: b) { second in memcmp(first.baseAddress!, second.baseAddress!, a.count) == 0 }
        }
    }

    /// Feeds the bytes at `range` to `hasher`.
    @_spi(ByteKit) public func hash(_ range: Range<Int>, into hasher: inout Hasher) {
        withElements(in: range) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The bytes at `range`, as an array.
    @_spi(ByteKit) public func bytes(in range: Range<Int>) -> [UInt8] {
        withElements(in: range) { Array($0) }
    }

    /// The bytes written, as an array.
    @_spi(ByteKit) public consuming func takeBytes() -> [UInt8] {
        withElements(in: 0..<count) { Array($0) }
    }
}

extension GrowableBuffer where Element == UInt8 {
    /// The bytes written, copied into `Data`.
    @_spi(ByteKit) public var data: Data {
        withElements(in: 0..<count) { Data($0) }
    }
}
