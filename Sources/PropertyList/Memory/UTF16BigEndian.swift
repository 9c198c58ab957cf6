/// The binary format's UTF-16BE strings (marker 0x6n) to and from UTF-8, in
/// one pass each way (Specs/binary-plist.md, "Strings"). Text that mixes
/// scripts alternates between two- and three-byte characters, so a branch
/// between them mispredicts; the three-byte form is made, the two-byte one
/// derived from it and one kept by a conditional move, and each character is
/// one fixed-width store of which only the right number of bytes count. Runs
/// of such characters loop on their own; ASCII (several at a time) and
/// surrogate pairs take their own, rarely mispredicted, branches.
///
/// The callers own the memory: each function states how many bytes past its
/// result it may write (slack), and reads nothing outside its input.
@_spi(ByteKit) public enum UTF16BigEndian {
    // MARK: UTF-16BE → UTF-8

    /// What ``decode(_:units:into:)`` found.
    @_spi(ByteKit) public enum Decoded {
        /// `bytes` of UTF-8 written; `isASCII` when every scalar was below 0x80.
        case utf8(bytes: Int, isASCII: Bool)
        /// An unpaired surrogate at this unit index.
        case unpairedSurrogate(unit: Int)
    }

    /// The most UTF-8 bytes ``decode(_:units:into:)`` writes for `units` units,
    /// slack included: 3 per unit (a surrogate pair, 2 units, is 4 bytes) and 4 more.
    @inlinable @_spi(ByteKit) public static func decodeCapacity(units: Int) -> Int { units * 3 + 4 }

    /// Transcodes `units` UTF-16BE units at `source` into `utf8`, which has
    /// room for ``decodeCapacity(units:)`` bytes. The UTF-8 written is well
    /// formed (nothing needs to validate it again); surrogates must pair.
    @_spi(ByteKit) public static func decode(_ source: UnsafeRawPointer, units: Int, into utf8: UnsafeMutableRawPointer) -> Decoded {
        var out = 0
        var i = 0
        var isASCII = true
        while i < units {
            let unit = UInt32(UInt16(bigEndian: source.loadUnaligned(fromByteOffset: 2 &* i, as: UInt16.self)))
            if unit < 0x80 {
                // Four ASCII units at once (each high byte zero, each low byte below 0x80).
                if units &- i >= 4 {
                    let word = UInt64(bigEndian: source.loadUnaligned(fromByteOffset: 2 &* i, as: UInt64.self))
                    if word & 0xFF80_FF80_FF80_FF80 == 0 {
                        let packed = UInt32(truncatingIfNeeded: word &>> 48) &<< 24 | UInt32(truncatingIfNeeded: word &>> 32 & 0xFF) &<< 16
                            | UInt32(truncatingIfNeeded: word &>> 16 & 0xFF) &<< 8 | UInt32(truncatingIfNeeded: word & 0xFF)
                        utf8.storeBytes(of: packed.bigEndian, toByteOffset: out, as: UInt32.self)
                        out &+= 4
                        i &+= 4
                        continue
                    }
                }
                utf8.storeBytes(of: UInt8(truncatingIfNeeded: unit), toByteOffset: out, as: UInt8.self)
                out &+= 1
                i &+= 1
                continue
            }
            isASCII = false
            if unit & 0xF800 == 0xD800 {
                // A high surrogate (D800–DBFF) and then a low one (DC00–DFFF): four bytes.
                guard unit <= 0xDBFF, i &+ 1 < units else { return .unpairedSurrogate(unit: i) }
                let next = UInt32(UInt16(bigEndian: source.loadUnaligned(fromByteOffset: 2 &* i &+ 2, as: UInt16.self)))
                guard next & 0xFC00 == 0xDC00 else { return .unpairedSurrogate(unit: i) }
                let scalar = 0x10000 &+ ((unit &- 0xD800) &<< 10) &+ (next &- 0xDC00)
                utf8.storeBytes(of: fourByteUTF8(scalar), toByteOffset: out, as: UInt32.self)
                out &+= 4
                i &+= 2
                continue
            }
            // A run of two- and three-byte characters, in a loop of its own
            // (mixed scripts stay in it: one load and two tests a unit).
            var character = unit
            while true {
                out &+= storeTwoOrThree(character, into: utf8, at: out)
                i &+= 1
                guard i < units else { break }
                character = UInt32(UInt16(bigEndian: source.loadUnaligned(fromByteOffset: 2 &* i, as: UInt16.self)))
                guard character >= 0x80, character & 0xF800 != 0xD800 else { break }
            }
        }
        return .utf8(bytes: out, isASCII: isASCII)
    }

    /// Stores the UTF-8 of `unit` (U+0080…U+FFFF, not a surrogate) at `offset`
    /// and returns its length: two bytes below U+0800, three from it. The
    /// three-byte form is always made; the two-byte form is its last two
    /// bytes with the first raised by 0x40 (below U+0800, 0x80 | unit >> 6 is
    /// 0x80…0x9F, and 0xC0 | unit >> 6 is 0x40 more), and one is kept by a
    /// conditional move, not a branch: mixed scripts alternate between them.
    /// Writes four bytes.
    @inline(__always)
    static func storeTwoOrThree(_ unit: UInt32, into utf8: UnsafeMutableRawPointer, at offset: Int) -> Int {
        let three = (0xE0 | unit &>> 12) | (0x80 | unit &>> 6 & 0x3F) &<< 8 | (0x80 | unit & 0x3F) &<< 16
        let isThree = unit >= 0x800
        let word = isThree ? three : (three &>> 8) &+ 0x40
        utf8.storeBytes(of: word.littleEndian, toByteOffset: offset, as: UInt32.self)
        return isThree ? 3 : 2
    }

    /// The four UTF-8 bytes of a supplementary scalar (U+10000…U+10FFFF),
    /// first byte lowest, so that a little-endian store writes them in order.
    @inline(__always)
    static func fourByteUTF8(_ scalar: UInt32) -> UInt32 {
        let word = (0xF0 | scalar &>> 18) | (0x80 | scalar &>> 12 & 0x3F) &<< 8
            | (0x80 | scalar &>> 6 & 0x3F) &<< 16 | (0x80 | scalar & 0x3F) &<< 24
        return word.littleEndian
    }

    // MARK: UTF-8 → UTF-16BE

    /// The UTF-16 units of well-formed UTF-8: one per byte that does not
    /// continue a sequence, and one more per 4-byte sequence (a surrogate pair).
    @_spi(ByteKit) public static func unitCount(utf8 span: Span<UInt8>) -> Int {
        unsafe span.withUnsafeBufferPointer { unitCount(utf8: $0) }
    }

    static func unitCount(utf8: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        let bytes = UnsafeRawPointer(base)
        let count = utf8.count
        let highs: UInt64 = 0x8080_8080_8080_8080
        var continuations = 0
        var fours = 0
        var i = 0
        while i &+ 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if word & highs != 0 {
                // Bit 7 of each byte: 10xxxxxx continues; 11110xxx starts four bytes.
                continuations &+= (word & ~(word &<< 1) & highs).nonzeroBitCount
                fours &+= (word & (word &<< 1) & (word &<< 2) & (word &<< 3) & highs).nonzeroBitCount
            }
            i &+= 8
        }
        while i < count {
            let byte = base[i]
            continuations &+= byte & 0xC0 == 0x80 ? 1 : 0
            fours &+= byte >= 0xF0 ? 1 : 0
            i &+= 1
        }
        return count &- continuations &+ fours
    }

    /// Transcodes well-formed UTF-8 (a Swift string's) into UTF-16BE at
    /// `out`, which has room for 2 × ``unitCount(utf8:)`` bytes and 2 more;
    /// returns the bytes written (2 × the unit count).
    @_spi(ByteKit) public static func encode(utf8: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableRawPointer) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        let bytes = UnsafeRawPointer(base)
        let count = utf8.count
        var written = 0
        var i = 0
        // Four bytes can be read at every position before the last three.
        while i &+ 4 <= count {
            let sequence = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self))
            let lead = sequence &>> 24
            if lead < 0x80 {
                // Eight ASCII bytes become eight units.
                if i &+ 8 <= count {
                    let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    if word & 0x8080_8080_8080_8080 == 0 {
                        for k in 0..<8 {
                            out.storeBytes(of: UInt16(truncatingIfNeeded: word &>> (8 &* UInt64(k)) & 0xFF).bigEndian,
                                           toByteOffset: written &+ 2 &* k, as: UInt16.self)
                        }
                        written &+= 16
                        i &+= 8
                        continue
                    }
                }
                out.storeBytes(of: UInt16(lead).bigEndian, toByteOffset: written, as: UInt16.self)
                written &+= 2
                i &+= 1
                continue
            }
            if lead >= 0xF0 {
                // Four bytes: a surrogate pair.
                let (length, units, stored) = utf16Word(sequence)
                out.storeBytes(of: stored, toByteOffset: written, as: UInt32.self)
                written &+= 2 &* units
                i &+= length
                continue
            }
            // Two bytes (lead C2–DF) or three (E0–EF): both decoded, one kept
            // by a mask (not a branch: mixed scripts alternate between them).
            let isThree = (0xDF &- lead) &>> 31
            let two = (sequence &>> 24 & 0x1F) &<< 6 | sequence &>> 16 & 0x3F
            let three = (sequence &>> 24 & 0x0F) &<< 12 | (sequence &>> 16 & 0x3F) &<< 6 | sequence &>> 8 & 0x3F
            let keepThree = 0 &- isThree
            out.storeBytes(of: UInt16(truncatingIfNeeded: three & keepThree | two & ~keepThree).bigEndian, toByteOffset: written, as: UInt16.self)
            written &+= 2
            i &+= 2 &+ Int(isThree)
        }
        // The last bytes, zero-padded to four.
        while i < count {
            var sequence: UInt32 = 0
            for k in 0..<4 where i &+ k < count { sequence |= UInt32(base[i &+ k]) &<< (24 &- 8 &* UInt32(k)) }
            let (length, units, stored) = utf16Word(sequence)
            out.storeBytes(of: stored, toByteOffset: written, as: UInt32.self)
            written &+= 2 &* units
            i &+= length
        }
        return written
    }

    /// The UTF-16BE of the scalar whose well-formed UTF-8 starts `sequence`
    /// (its first four bytes, the first highest): how many UTF-8 bytes it
    /// takes, how many units it makes (1, or 2 for a surrogate pair), and
    /// those units as a word to store (first unit first in memory).
    @inline(__always)
    static func utf16Word(_ sequence: UInt32) -> (length: Int, units: Int, stored: UInt32) {
        // The lead byte's leading ones give the length (none: one byte).
        let ones = UInt32((~sequence).leadingZeroBitCount)
        let length = ones &+ ((ones &- 1) &>> 31)  // 0 ones → 1 byte
        // The lead byte keeps 7 bits (length 1) or 7 - length bits.
        let leadBits = (0x7F as UInt32) &>> (length &- 1 &+ ((0 &- (length &- 1)) &>> 31))
        let all = (sequence &>> 24 & leadBits) &<< 18 | (sequence &>> 16 & 0x3F) &<< 12
            | (sequence &>> 8 & 0x3F) &<< 6 | sequence & 0x3F
        let scalar = all &>> (6 &* (4 &- length))
        let isPair = length &>> 2  // 1 for four bytes
        let offset = scalar &- 0x10000
        let pair = (0xD800 | offset &>> 10) &<< 16 | (0xDC00 | offset & 0x3FF)
        let pairMask = 0 &- isPair
        let word = pair & pairMask | scalar &<< 16 & ~pairMask
        return (Int(length), Int(1 &+ isPair), word.bigEndian)
    }
}

extension ByteReader {
    /// The `units` UTF-16BE code units at `offset` (inside the input: the
    /// caller has checked; a failure traps), transcoded to a `String`
    /// (``UTF16BigEndian``); on an unpaired surrogate, its unit index.
    /// Straight from the input's memory into one scratch buffer.
    @inline(__always)
    @_spi(ByteKit) public func utf16BigEndianString(at offset: Int, units: Int) -> Result<String, UnpairedSurrogate> {
        precondition(offset >= 0 && offset <= count && units >= 0 && units <= (count &- offset) / 2, "range out of the input")
        return unsafe bytes.withUnsafeBytes { raw in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: UTF16BigEndian.decodeCapacity(units: units)) { scratch in
                let source = raw.baseAddress.map { $0 + offset } ?? UnsafeRawPointer(scratch.baseAddress!)
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
}
