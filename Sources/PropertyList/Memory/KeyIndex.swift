// The hash index of the dictionaries (PropertyListDictionary.swift): a
// table of small integers packed at one, two or four bytes each.

/// The hash index of a large ``StringKeyedDictionary``: an open-addressing
/// table (linear probing, at most half full) whose slots hold an entry's
/// position + 1, or 0 when empty. Slots are 1, 2 or 4 bytes wide as the
/// capacity needs; the width follows from the table's byte count.
@usableFromInline
internal struct KeyIndex: Sendable {
    /// Dictionaries of up to this many entries are scanned, with no index.
    @inlinable static var scanLimit: Int { 8 }

    @usableFromInline internal var slots: [UInt8]

    /// No index.
    @inlinable init() { slots = [] }

    /// An empty index for `count` entries, or none when a scan will do.
    @inlinable init(forCount count: Int) {
        guard count > Self.scanLimit else { slots = []; return }
        // A power of two at least twice the count.
        let capacity = 1 << (Int.bitWidth - (2 * count - 1).leadingZeroBitCount)
        slots = Array(repeating: 0, count: capacity * Self.width(forCapacity: capacity))
    }

    /// 1-byte slots up to 256 (≤ 128 entries), 2-byte up to 65,536, else 4.
    /// The byte counts of the three ranges (≤ 256, 1,024…131,072, ≥ 524,288)
    /// do not overlap, so the width follows from `slots.count`.
    @inlinable static func width(forCapacity capacity: Int) -> Int {
        capacity <= 256 ? 1 : capacity <= 65_536 ? 2 : 4
    }

    /// log₂ of the slot width of a table of `byteCount` bytes.
    @inlinable @inline(__always) static func widthShift(byteCount: Int) -> Int {
        byteCount <= 256 ? 0 : byteCount <= 131_072 ? 1 : 2
    }

    @inlinable var isEmpty: Bool { slots.isEmpty }

    /// The number of slots (0 without an index).
    @inlinable var capacity: Int { slots.count >> Self.widthShift(byteCount: slots.count) }

    /// Position + 1 of the entry in `bucket`, or 0. The index's raw memory
    /// access: `bucket` is below the capacity (callers mask it).
    @inlinable @inline(__always)
    static func load(_ slots: UnsafeRawBufferPointer, bucket: Int, widthShift: Int) -> Int {
        switch widthShift {
        case 0: return Int(slots[bucket])
        case 1: return Int(UInt16(littleEndian: slots.loadUnaligned(fromByteOffset: bucket << 1, as: UInt16.self)))
        default: return Int(UInt32(littleEndian: slots.loadUnaligned(fromByteOffset: bucket << 2, as: UInt32.self)))
        }
    }

    /// Stores position + 1 (`value`) in `bucket`, below the capacity.
    @inlinable @inline(__always)
    static func store(_ value: Int, in slots: UnsafeMutableRawBufferPointer, bucket: Int, widthShift: Int) {
        switch widthShift {
        case 0: slots[bucket] = UInt8(truncatingIfNeeded: value)
        case 1: slots.storeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian, toByteOffset: bucket << 1, as: UInt16.self)
        default: slots.storeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian, toByteOffset: bucket << 2, as: UInt32.self)
        }
    }

    /// Position + 1 of the entry in `bucket`, or 0.
    @inlinable @inline(__always) subscript(bucket: Int) -> Int {
        precondition(bucket >= 0 && bucket < capacity)
        return slots.withUnsafeBytes { Self.load($0, bucket: bucket, widthShift: Self.widthShift(byteCount: $0.count)) }
    }

    /// Puts position + 1 (`value`) in `bucket` (inline: as a call it measured
    /// 4% of decoding library.bplist).
    @inlinable @inline(__always) mutating func store(_ value: Int, at bucket: Int) {
        precondition(bucket >= 0 && bucket < capacity)
        slots.withUnsafeMutableBytes { Self.store(value, in: $0, bucket: bucket, widthShift: Self.widthShift(byteCount: $0.count)) }
    }

    /// Probes from `hash`'s bucket: the position of the first entry that
    /// `matches`, or the empty bucket where such an entry would go.
    @inlinable @inline(__always)
    func probe(hash: Int, matches: (Int) -> Bool) -> (position: Int?, bucket: Int) {
        slots.withUnsafeBytes { slots in
            let shift = Self.widthShift(byteCount: slots.count)
            let mask = slots.count >> shift &- 1
            var bucket = hash & mask
            while true {
                let stored = Self.load(slots, bucket: bucket, widthShift: shift)
                if stored == 0 { return (nil, bucket) }
                if matches(stored &- 1) { return (stored &- 1, bucket) }
                bucket = (bucket &+ 1) & mask
            }
        }
    }
}
