// Word-at-a-time byte scans every codec shares, defined once
// (Specs/architecture.md, "Shared tools").

/// Eight bytes at a time, as one `UInt64`: each function sets the high bit of
/// some byte exactly when the word holds such a byte. The lowest flag marks the
/// first such byte; flags above it may be spurious (borrows), which callers
/// either ignore or never read.
@_spi(ByteKit) public enum WordScan {
    // SPI-public, not `package`: Swift 6.3.1 never inlines an `@inlinable
    // package` declaration into another module (measured: every call stays a
    // call), while `@inlinable` SPI-public ones are inlined like public ones.
    @inlinable @_spi(ByteKit) public static var ones: UInt64 { 0x0101_0101_0101_0101 }
    @inlinable @_spi(ByteKit) public static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// Flags where a byte of `word` equals `byte`.
    @inlinable @inline(__always)
    @_spi(ByteKit) public static func bytes(in word: UInt64, equalTo byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs
    }

    /// Flags where a byte of `word` is below `limit` (at most 0x80).
    @inlinable @inline(__always)
    @_spi(ByteKit) public static func bytes(in word: UInt64, below limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    /// The number eight ASCII decimal digits spell, the first in memory (the
    /// lowest byte of the little-endian `word`) most significant, or nil when
    /// a byte is not a digit: one check of all eight bytes (high nibble 3, low
    /// nibble at most 9), then three multiply-and-add steps, each joining
    /// neighbouring groups (digits into pairs, pairs into fours, fours into eight).
    @inlinable @inline(__always)
    @_spi(ByteKit) public static func eightDigits(_ word: UInt64) -> UInt64? {
        let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let zeros = ones &* 0x30
        guard word & nibbles == zeros, (word &+ ones &* 0x06) & nibbles == zeros else { return nil }
        var value = word &- zeros
        value = (value &* 10) &+ (value &>> 8)
        let lanes: UInt64 = 0x0000_00FF_0000_00FF
        return ((value & lanes) &* (100 &+ (1_000_000 &<< 32)) &+ ((value &>> 16) & lanes) &* (1 &+ (10_000 &<< 32))) &>> 32
    }

    /// True when some byte of `word` is 0x80 or above (exact: no borrows).
    @inlinable @inline(__always)
    @_spi(ByteKit) public static func hasNonASCII(_ word: UInt64) -> Bool { word & highs != 0 }

    /// The index of the first byte ≥ 0x80 in `region`, or nil when it is all
    /// ASCII: the one scan behind ``RawSpan/firstNonASCII`` and the kit's
    /// string reads, which call it inside their own access to the bytes.
    @inlinable @inline(__always)
    static func firstNonASCII(_ region: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        let count = region.count
        while i &+ 8 <= count {
            if hasNonASCII(region.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { break }
            i &+= 8
        }
        while i < count {
            if region[i] >= 0x80 { return i }
            i &+= 1
        }
        return nil
    }
}

extension Span where Element == UInt8 {
    /// The offset of the first byte at or after `start` that `isMatch`
    /// accepts, or nil. Whole words of eight bytes that `wordMayMatch` rules
    /// out are skipped at once (it must return true for any word holding a
    /// matching byte); the others are scanned byte by byte.
    @inlinable @inline(__always)
    @_spi(ByteKit) public func firstByte(from start: Int, wordMayMatch: (UInt64) -> Bool, isMatch: (UInt8) -> Bool) -> Int? {
        precondition(start >= 0 && start <= count)
        return unsafe withUnsafeBufferPointer { bytes -> Int? in
            let count = bytes.count
            guard let base = bytes.baseAddress else { return nil }
            let raw = UnsafeRawPointer(base)
            var i = start
            while i < count {
                if i &+ 8 <= count, !wordMayMatch(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                    i &+= 8
                    continue
                }
                let end = Swift.min(i &+ 8, count)
                while i < end {
                    if isMatch(base[i]) { return i }
                    i &+= 1
                }
            }
            return nil
        }
    }
}

extension String {
    /// Calls `body` with the string's UTF-8, contiguous: a native string's
    /// own storage, read in place (`utf8Span` measured 2% of binary encoding
    /// in its checks; `withUTF8` needs a mutable copy, a retain and a release).
    @inlinable @inline(__always)
    @_spi(ByteKit) public func withUTF8Span<R>(_ body: (Span<UInt8>) -> R) -> R {
        if let result = utf8.withContiguousStorageIfAvailable({ body($0.span) }) { return result }
        var copy = self
        return copy.withUTF8 { body($0.span) }
    }
}
