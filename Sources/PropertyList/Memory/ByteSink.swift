public import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writers' growing output (binary, XML, MP): a ``GrowableBuffer`` of
/// bytes. Small appends are a bounds check and a copy, without Array's
/// generic append machinery (measured: a third of XML writing went to it).
@_spi(ByteKit) public typealias ByteSink = GrowableBuffer<UInt8>

extension GrowableBuffer where Element == UInt8 {
    /// Room for `more` bytes after the current ones.
    @inlinable @inline(__always)
    mutating func reserve(_ more: Int) {
        if more > capacity - used { grow(toHold: used + more) }
    }

    /// Appends `bytes`.
    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func append(_ bytes: Span<UInt8>) {
        let count = bytes.count
        guard count > 0 else { return }
        reserve(count)
        let target = base + used
        unsafe bytes.withUnsafeBufferPointer { source in
            unsafe target.update(from: source.baseAddress!, count: count)
        }
        used += count
    }

    /// Appends `bytes`.
    @inlinable
    @_spi(ByteKit) public mutating func append(_ bytes: RawSpan) {
        let count = bytes.byteCount
        guard count > 0 else { return }
        reserve(count)
        let target = UnsafeMutableRawPointer(base + used)
        unsafe bytes.withUnsafeBytes { source in
            unsafe target.copyMemory(from: source.baseAddress!, byteCount: count)
        }
        used += count
    }

    /// Appends the bytes of `data`.
    @_spi(ByteKit) public mutating func append(data: Data) {
        let count = data.count
        guard count > 0 else { return }
        reserve(count)
        let target = UnsafeMutableRawPointer(base + used)
        data.withUnsafeBytes { source in target.copyMemory(from: source.baseAddress!, byteCount: count) }
        used += count
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
    @_spi(ByteKit) public mutating func append(from other: borrowing ByteSink, in range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= other.used)
        guard !range.isEmpty else { return }
        reserve(range.count)
        (base + used).update(from: other.base + range.lowerBound, count: range.count)
        used += range.count
    }

    @inlinable
    @_spi(ByteKit) public mutating func append(_ literal: StaticString) {
        let count = literal.utf8CodeUnitCount
        reserve(count)
        (base + used).update(from: literal.utf8Start, count: count)
        used += count
    }

    @inlinable @inline(__always)
    @_spi(ByteKit) public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[used] = byte
        used += 1
    }

    /// For bytes at `range` (within ``count``) that are all ASCII, one bit of
    /// 64 picked by their length, first and last bytes (equal bytes, equal
    /// bits: a filter before comparing them); 0 when any byte is not ASCII.
    @inlinable
    @_spi(ByteKit) public func asciiSignature(_ range: Range<Int>) -> UInt64 {
        precondition(range.lowerBound >= 0 && range.upperBound <= used)
        var index = range.lowerBound
        var bits: UInt64 = 0
        while index + 8 <= range.upperBound {
            bits |= UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            index += 8
        }
        while index < range.upperBound {
            bits |= UInt64(base[index])
            index += 1
        }
        guard bits & 0x8080_8080_8080_8080 == 0 else { return 0 }
        guard !range.isEmpty else { return 1 }
        let mix = range.count &* 7 &+ Int(base[range.lowerBound]) &* 3 &+ Int(base[range.upperBound - 1])
        return 1 << UInt64(mix & 63)
    }

    /// The bytes at `range` (within ``count``), decoded as UTF-8.
    @_spi(ByteKit) public func string(in range: Range<Int>) -> String {
        precondition(range.lowerBound >= 0 && range.upperBound <= used)
        return String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)
    }

    /// The decimal digits of an integer, as `description` spells them.
    @_spi(ByteKit) public mutating func append(decimal integer: PropertyListInteger) {
        var magnitude: UInt64
        if let value = integer.int64Value {
            if value < 0 { append(UInt8(ascii: "-")) }
            magnitude = value.magnitude
        } else {
            magnitude = integer.uint64Value!
        }
        // At most 20 digits, written backwards into their place.
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 { digits += 1; rest /= 10 }
        reserve(digits)
        var at = used + digits
        repeat {
            at -= 1
            base[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        used += digits
    }

    /// `value`'s low `width` bytes, most significant first.
    @inlinable
    @_spi(ByteKit) public mutating func append(bigEndian value: UInt64, width: Int) {
        reserve(width)
        let at = UnsafeMutableRawPointer(base + used)
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
        used += width
    }

    /// Well-formed UTF-8 as UTF-16BE; `units` is its ``UTF16BigEndian/unitCount(utf8:)``.
    @_spi(ByteKit) public mutating func append(utf16BigEndianOf utf8: Span<UInt8>, units: Int) {
        // The transcoder stores four bytes at a time: 2 bytes of slack.
        reserve(2 * units + 2)
        let target = UnsafeMutableRawPointer(base + used)
        let written = unsafe utf8.withUnsafeBufferPointer { source in
            UTF16BigEndian.encode(utf8: source, into: target)
        }
        precondition(written == 2 * units, "the unit count does not match the UTF-8")
        used += written
    }

    /// A string's UTF-8 bytes (labelled, so that a literal always takes the StaticString overload).
    @_spi(ByteKit) public mutating func append(string: String) {
        var string = string
        string.withUTF8 { append($0.span) }
    }

    /// True when the bytes at `a` and at `b` (both within `0..<count`) are equal.
    @_spi(ByteKit) public func bytesEqual(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        precondition(a.lowerBound >= 0 && a.upperBound <= used && b.lowerBound >= 0 && b.upperBound <= used)
        return a.count == b.count && memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0
    }

    /// Feeds the bytes at `range` to `hasher`.
    @_spi(ByteKit) public func hash(_ range: Range<Int>, into hasher: inout Hasher) {
        precondition(range.lowerBound >= 0 && range.upperBound <= used)
        hasher.combine(bytes: UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// The bytes at `range`, as an array.
    @_spi(ByteKit) public func bytes(in range: Range<Int>) -> [UInt8] {
        precondition(range.lowerBound >= 0 && range.upperBound <= used)
        return Array(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// Forgets the bytes written after the first `count`.
    @_spi(ByteKit) public mutating func removeLast(from count: Int) {
        precondition(count >= 0 && count <= used)
        used = count
    }

    /// The bytes written, as an array.
    @_spi(ByteKit) public consuming func takeBytes() -> [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: used))
    }
}

extension GrowableBuffer where Element == UInt8 {
    /// The bytes written, copied into `Data`.
    @_spi(ByteKit) public var data: Data {
        Data(UnsafeBufferPointer(start: base, count: used))
    }
}
