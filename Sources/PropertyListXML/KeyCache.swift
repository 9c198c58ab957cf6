#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The keys of one document, by their UTF-8 bytes (Specs/xml-plist.md,
/// "Performance"): a key met again reuses the `String` built the first time
/// (no decoding, no allocation) and its `hashValue` (Swift's seeded hash,
/// computed at most once per distinct key, and only for keys of dictionaries
/// large enough to be indexed).
///
/// Bounded whatever the input: at most ``maxEntries`` keys of at most
/// ``maxKeyBytes`` bytes are kept, and a lookup probes at most ``maxProbes``
/// slots, so keys crafted to collide in the cache's (unseeded) byte hash cost
/// what uncached keys cost, never more: past the probe limit a key is simply
/// not cached.
struct KeyCache {
    static let maxEntries = 4096
    static let maxKeyBytes = 64
    static let maxProbes = 8

    private struct Entry {
        var string: String
        /// `string.hashValue`, once asked for.
        var hash: Int?
        var byteHash: UInt64
        var start: Int
        var count: Int
    }

    private var entries: [Entry] = []
    /// Entry index + 1 per slot (0: empty); a power of two, at most half full.
    private var slots: [Int32] = []
    /// Every cached key's bytes, one after another.
    private var bytes: [UInt8] = []

    /// The cached entry for `text`, adding it (built by `make`) when it is new
    /// and the cache has room; nil when `text` is not cached.
    @inline(__always)
    mutating func entry(for text: UnsafeBufferPointer<UInt8>, make: () -> String) -> Int? {
        guard text.count <= Self.maxKeyBytes else { return nil }
        let byteHash = Self.byteHash(text)
        if !slots.isEmpty {
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: byteHash) & mask
            for _ in 0..<Self.maxProbes {
                let stored = Int(slots[slot])
                if stored == 0 { break }
                if entries[stored - 1].byteHash == byteHash, sameBytes(entries[stored - 1], text) { return stored - 1 }
                slot = (slot + 1) & mask
            }
        }
        return insert(text, byteHash: byteHash, string: make())
    }

    /// The key's `String`.
    @inline(__always)
    func string(_ entry: Int) -> String { entries[entry].string }

    /// The key's `hashValue`, computed once.
    @inline(__always)
    mutating func hash(_ entry: Int) -> Int {
        if let hash = entries[entry].hash { return hash }
        let hash = entries[entry].string.hashValue
        entries[entry].hash = hash
        return hash
    }

    private func sameBytes(_ entry: Entry, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard entry.count == text.count else { return false }
        return bytes.withUnsafeBufferPointer { stored in
            guard let base = stored.baseAddress, let other = text.baseAddress else { return text.isEmpty }
            return memcmp(base + entry.start, other, text.count) == 0
        }
    }

    private mutating func insert(_ text: UnsafeBufferPointer<UInt8>, byteHash: UInt64, string: String) -> Int? {
        guard entries.count < Self.maxEntries else { return nil }
        if 2 * (entries.count + 1) > slots.count { grow() }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: byteHash) & mask
        for _ in 0..<Self.maxProbes {
            if slots[slot] == 0 {
                entries.append(Entry(string: string, hash: nil, byteHash: byteHash, start: bytes.count, count: text.count))
                bytes.append(contentsOf: text)
                slots[slot] = Int32(entries.count)
                return entries.count - 1
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: Swift.max(64, 2 * slots.count))
        let mask = slots.count - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.byteHash) & mask
            // An entry that finds no slot within the probe limit is dropped from the index.
            for _ in 0..<Self.maxProbes {
                if slots[slot] == 0 { slots[slot] = Int32(index + 1); break }
                slot = (slot + 1) & mask
            }
        }
    }

    /// A fast hash of at most 64 bytes, eight at a time (multiply and fold).
    @inline(__always)
    static func byteHash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: text.count) &* 0x9E37_79B9_7F4A_7C15
        guard let base = text.baseAddress else { return hash }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= text.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            i += 8
        }
        if i < text.count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < text.count {
                tail |= UInt64(text[i]) << shift
                shift += 8
                i += 1
            }
            hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
            hash ^= hash >> 29
        }
        return hash
    }
}
