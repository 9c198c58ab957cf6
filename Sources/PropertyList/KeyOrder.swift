/// The order writers put dictionary keys in (Specs/plistkit.md, "Key order").
public enum KeyOrder: String, Sendable, Hashable, CaseIterable {
    /// Ascending by UTF-16 code units, as CoreFoundation writes them (the default:
    /// equal dictionaries give equal bytes).
    case sorted
    /// The dictionary's own order (insertion, or as read): files that must diff minimally.
    case insertion
}

/// UTF-16 order decided on UTF-8 bytes where the two orders agree.
enum UTF16Order {
    /// Up to this many keys are sorted comparing the strings themselves.
    static let fewCount = 8
    /// Up to this many keys out of order are sorted by insertion.
    static let smallCount = 16

    /// The indices of `keys` in ascending UTF-16 order (the keys are distinct).
    ///
    /// Each key's first sixteen UTF-8 bytes, zero-padded, with the lead bytes
    /// of U+E000…U+FFFF (EE, EF) moved above those of supplementary characters
    /// (F0…F4), compare as two integers exactly as the keys compare in UTF-16
    /// (see `SortKey`); only a tie falls through to a comparison of the
    /// strings. Dictionaries read from a file are usually in order already,
    /// which one pass checks.
    static func sortedIndices(_ keys: [String]) -> [Int] {
        let count = keys.count
        if count < 2 { return Array(0..<count) }
        if count <= fewCount {
            // A few keys: compare the strings, no sort keys built.
            var order = Array(0..<count)
            insertionSort(&order) { utf16Precedes(keys[$0], keys[$1]) }
            return order
        }
        var items: [SortKey] = []
        items.reserveCapacity(count)
        for index in 0..<count { items.append(SortKey(keys[index], index: index)) }
        func precedes(_ a: SortKey, _ b: SortKey) -> Bool {
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            return utf16Precedes(keys[a.index], keys[b.index])
        }
        var inOrder = true
        for i in 1..<count where !precedes(items[i - 1], items[i]) { inOrder = false; break }
        if inOrder { return Array(0..<count) }
        if count <= smallCount {
            insertionSort(&items, by: precedes)
        } else {
            items.sort(by: precedes)
        }
        return items.map(\.index)
    }

    /// Sorts a short array in place (fewer calls of `precedes` than the
    /// standard library's sort on a handful of elements).
    @inline(__always)
    static func insertionSort<Element>(_ elements: inout [Element], by precedes: (Element, Element) -> Bool) {
        guard elements.count > 1 else { return }
        for i in 1..<elements.count {
            let element = elements[i]
            var j = i
            while j > 0 && precedes(element, elements[j - 1]) {
                elements[j] = elements[j - 1]
                j -= 1
            }
            elements[j] = element
        }
    }

    /// A key's first sixteen UTF-8 bytes as two big-endian integers, zero-padded,
    /// each lead byte mapped so that integer order is UTF-16 order.
    ///
    /// UTF-8 byte order is code point order, which is UTF-16 order except that
    /// U+E000…U+FFFF (lead bytes EE, EF) come after supplementary characters
    /// (F0…F4, surrogate pairs in UTF-16). Two keys first differ either at the
    /// lead bytes of two characters or inside characters with the same lead
    /// byte, so moving EE, EF above F0…F4 (to F5, F6, bytes UTF-8 never uses)
    /// and F0…F4 down to EE…F2, in order, fixes the comparison. Equal integers
    /// (a shared 16-byte prefix, or zero padding against NUL bytes) decide nothing.
    struct SortKey {
        var high: UInt64
        var low: UInt64
        var index: Int

        init(_ key: String, index: Int) {
            (high, low) = key.withUTF8Span { utf8 in (Self.word(utf8, from: 0), Self.word(utf8, from: 8)) }
            self.index = index
        }

        static func word(_ utf8: Span<UInt8>, from start: Int) -> UInt64 {
            var value: UInt64 = 0
            if utf8.count >= start + 8 {
                // The eight bytes, first most significant.
                value = utf8.word(at: start).byteSwapped
            } else {
                for k in start..<(start + 8) { value = value << 8 | UInt64(k < utf8.count ? utf8[k] : 0) }
            }
            // Only bytes EE…F4 move; ASCII words (the common case) are left as they are.
            guard WordScan.hasNonASCII(value) else { return value }
            var mapped: UInt64 = 0
            for shift in stride(from: 56, through: 0, by: -8) {
                var byte = UInt8(truncatingIfNeeded: value >> UInt64(shift))
                switch byte {
                case 0xEE, 0xEF: byte &+= 0xF5 - 0xEE
                case 0xF0...0xF4: byte &-= 0xF0 - 0xEE
                default: break
                }
                mapped = mapped << 8 | UInt64(byte)
            }
            return mapped
        }
    }

    /// Whether `x` precedes `y` in UTF-16 order, or nil when the first
    /// difference sets a character of U+E000…U+FFFF against a supplementary one.
    @inline(__always)
    static func precedesBytes(_ x: Span<UInt8>, _ y: Span<UInt8>) -> Bool? {
        let common = min(x.count, y.count)
        var i = 0
        while i < common && x[i] == y[i] { i += 1 }
        if i == common { return x.count < y.count }
        let (p, q) = (x[i], y[i])
        // A difference inside a character (continuation bytes) or between two
        // characters of the same UTF-16 class keeps byte order.
        let pHigh = p >= 0xEE && p <= 0xEF, qHigh = q >= 0xEE && q <= 0xEF
        let pSupplementary = p >= 0xF0, qSupplementary = q >= 0xF0
        if (pHigh && qSupplementary) || (pSupplementary && qHigh) { return nil }
        return p < q
    }
}
