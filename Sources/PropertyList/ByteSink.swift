#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writers' growing output (binary and XML): their only raw memory. Small
/// appends are a bounds check and a copy, without Array's generic append
/// machinery (measured: a third of XML writing went to it). Its buffers come
/// from ``ScratchMemory``, so that a large one is reused by the next writer
/// instead of being faulted in anew.
package struct ByteSink: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used = 0
    /// The number of bytes written.
    package var count: Int { used }

    package init(capacity: Int) {
        let buffer = ScratchMemory.take(atLeast: max(capacity, 16))
        base = buffer.base.bindMemory(to: UInt8.self, capacity: buffer.capacity)
        self.capacity = buffer.capacity
    }

    deinit { ScratchMemory.give(ScratchMemory.Buffer(base: UnsafeMutableRawPointer(base), capacity: capacity)) }

    /// The bytes written at `range` (within `0..<count`), valid during `body`.
    package func withBytes<R>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        precondition(range.lowerBound >= 0 && range.upperBound <= used)
        return body(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
    }

    /// True when the bytes at `a` and at `b` (both within `0..<count`) are equal.
    package func bytesEqual(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        precondition(a.lowerBound >= 0 && a.upperBound <= used && b.lowerBound >= 0 && b.upperBound <= used)
        return a.count == b.count && memcmp(base + a.lowerBound, base + b.lowerBound, a.count) == 0
    }

    /// Forgets the bytes written after the first `count`.
    package mutating func removeLast(from count: Int) {
        precondition(count >= 0 && count <= used)
        used = count
    }

    /// Room for `more` bytes after the current ones.
    @inlinable
    mutating func reserve(_ more: Int) {
        if more > capacity - used { grow(more) }
    }

    @usableFromInline
    mutating func grow(_ more: Int) {
        var grown = capacity * 2
        while grown - used < more { grown *= 2 }
        let buffer = ScratchMemory.take(atLeast: grown)
        let moved = buffer.base.bindMemory(to: UInt8.self, capacity: buffer.capacity)
        moved.update(from: base, count: used)
        ScratchMemory.give(ScratchMemory.Buffer(base: UnsafeMutableRawPointer(base), capacity: capacity))
        base = moved
        capacity = buffer.capacity
    }

    @inlinable
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + used).update(from: source, count: bytes.count)
        used += bytes.count
    }

    @inlinable
    package mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inlinable
    package mutating func append(_ byte: UInt8) {
        reserve(1)
        base[used] = byte
        used += 1
    }

    package mutating func append(repeating byte: UInt8, count repeats: Int) {
        guard repeats > 0 else { return }
        reserve(repeats)
        (base + used).initialize(repeating: byte, count: repeats)
        used += repeats
    }

    /// The decimal digits of an integer, as `description` spells them.
    package mutating func append(decimal integer: PropertyListInteger) {
        var magnitude: UInt64
        if let value = integer.int64Value {
            if value < 0 { append(UInt8(ascii: "-")) }
            magnitude = value.magnitude
        } else {
            magnitude = integer.uint64Value!
        }
        // At most 20 digits, written backwards.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }

    /// `value`'s low `width` bytes, most significant first.
    @inlinable
    package mutating func append(bigEndian value: UInt64, width: Int) {
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
    package mutating func append(utf16BigEndianOf utf8: UnsafeBufferPointer<UInt8>, units: Int) {
        // The transcoder stores four bytes at a time: 2 bytes of slack.
        reserve(2 * units + 2)
        let written = UTF16BigEndian.encode(utf8: utf8, into: UnsafeMutableRawPointer(base + used))
        precondition(written == 2 * units, "the unit count does not match the UTF-8")
        used += written
    }

    /// A string's UTF-8 bytes (labelled, so that a literal always takes the StaticString overload).
    package mutating func append(string: String) {
        var string = string
        string.withUTF8 { append($0) }
    }

    /// The bytes written, as an array.
    package consuming func takeBytes() -> [UInt8] {
        Array(UnsafeBufferPointer(start: base, count: used))
    }
}
