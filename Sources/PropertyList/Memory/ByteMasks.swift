#if arch(x86_64)
// SSE2 is part of x86-64 itself: every x86-64 processor has it.
public import _Builtin_intrinsics.intel
#endif

// Where given byte values stand in a block of 64 bytes, as one bit per byte:
// the scanners' way to visit only the bytes that matter (a markup pass visits
// each "<", ">" and "&", and nothing in between). One SSE2 compare and one
// movemask per 16 bytes and value on x86-64; elsewhere the same masks from
// exact word-at-a-time flags.

/// Three bitmasks over the same 64 bytes: bit k of each set exactly when byte
/// k of the block is that mask's value.
@_spi(ByteKit) public struct ByteMasks {
    @_spi(ByteKit) public var first: UInt64
    @_spi(ByteKit) public var second: UInt64
    @_spi(ByteKit) public var third: UInt64

    @inlinable
    @_spi(ByteKit) public init(first: UInt64, second: UInt64, third: UInt64) {
        self.first = first
        self.second = second
        self.third = third
    }
}

extension ByteMasks {
    /// True when the 64 bytes at `block` are all below 0x80: one OR of four
    /// 16-byte loads and one movemask on x86-64, an OR of eight words elsewhere.
    @inlinable @inline(__always)
    @_spi(ByteKit) public static func isASCII(block: UnsafeRawPointer) -> Bool {
        #if arch(x86_64)
        let a = unsafe _mm_loadu_si128(block.assumingMemoryBound(to: __m128i.self))
        let b = unsafe _mm_loadu_si128((block + 16).assumingMemoryBound(to: __m128i.self))
        let c = unsafe _mm_loadu_si128((block + 32).assumingMemoryBound(to: __m128i.self))
        let d = unsafe _mm_loadu_si128((block + 48).assumingMemoryBound(to: __m128i.self))
        return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))) == 0
        #else
        var all: UInt64 = 0
        for k in 0..<8 { all |= unsafe block.loadUnaligned(fromByteOffset: 8 &* k, as: UInt64.self) }
        return !WordScan.hasNonASCII(all)
        #endif
    }
}

extension Span where Element == UInt8 {
    /// Where the 64 bytes at `offset` equal `first`, `second` and `third`.
    /// The block must lie inside the span (a failure traps).
    @inlinable @inline(__always)
    @_spi(ByteKit) public func byteMasks(at offset: Int, _ first: UInt8, _ second: UInt8, _ third: UInt8) -> ByteMasks {
        precondition(offset >= 0 && count >= 64 && offset <= count &- 64, "block out of range")
        #if arch(x86_64)
        return unsafe withUnsafeBufferPointer { buffer in
            let base = unsafe UnsafeRawPointer(buffer.baseAddress!) + offset
            let a = _mm_set1_epi8(Int8(bitPattern: first))
            let b = _mm_set1_epi8(Int8(bitPattern: second))
            let c = _mm_set1_epi8(Int8(bitPattern: third))
            var masks = ByteMasks(first: 0, second: 0, third: 0)
            for part in 0..<4 {
                let bytes = unsafe _mm_loadu_si128((base + 16 &* part).assumingMemoryBound(to: __m128i.self))
                let shift = UInt64(16 &* part)
                masks.first |= UInt64(UInt16(truncatingIfNeeded: _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, a)))) &<< shift
                masks.second |= UInt64(UInt16(truncatingIfNeeded: _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, b)))) &<< shift
                masks.third |= UInt64(UInt16(truncatingIfNeeded: _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, c)))) &<< shift
            }
            return masks
        }
        #else
        return portableByteMasks(at: offset, first, second, third)
        #endif
    }

    /// Where the 64 bytes at `offset` equal `value`: bit k set exactly when
    /// byte k is. The block must lie inside the span (a failure traps).
    @inlinable @inline(__always)
    @_spi(ByteKit) public func byteMask(at offset: Int, _ value: UInt8) -> UInt64 {
        precondition(offset >= 0 && count >= 64 && offset <= count &- 64, "block out of range")
        #if arch(x86_64)
        return unsafe withUnsafeBufferPointer { buffer in
            let base = unsafe UnsafeRawPointer(buffer.baseAddress!) + offset
            let wanted = _mm_set1_epi8(Int8(bitPattern: value))
            var mask: UInt64 = 0
            for part in 0..<4 {
                let bytes = unsafe _mm_loadu_si128((base + 16 &* part).assumingMemoryBound(to: __m128i.self))
                mask |= UInt64(UInt16(truncatingIfNeeded: _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, wanted)))) &<< UInt64(16 &* part)
            }
            return mask
        }
        #else
        return portableByteMasks(at: offset, value, value, value).first
        #endif
    }

    /// ``byteMasks(at:_:_:_:)`` from words: the fallback where there is no
    /// SSE2, and the reference the SSE2 masks are tested against.
    @inlinable
    @_spi(ByteKit) public func portableByteMasks(at offset: Int, _ first: UInt8, _ second: UInt8, _ third: UInt8) -> ByteMasks {
        precondition(offset >= 0 && count >= 64 && offset <= count &- 64, "block out of range")
        /// Bit k set where byte k of `word` is `value` (exact: no borrows).
        @inline(__always) func mask(_ word: UInt64, _ value: UInt8) -> UInt64 {
            let x = word ^ (WordScan.ones &* UInt64(value))
            let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            let zero = ~(((x & low7) &+ low7) | x | low7)
            // The high bit of each zero byte, gathered into the low eight bits.
            return ((zero &>> 7) &* 0x0102_0408_1020_4080) &>> 56
        }
        var masks = ByteMasks(first: 0, second: 0, third: 0)
        for part in 0..<8 {
            let word = self.word(at: offset &+ 8 &* part)
            let shift = UInt64(8 &* part)
            masks.first |= mask(word, first) &<< shift
            masks.second |= mask(word, second) &<< shift
            masks.third |= mask(word, third) &<< shift
        }
        return masks
    }
}
