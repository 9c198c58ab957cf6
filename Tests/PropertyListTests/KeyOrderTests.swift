import PropertyList
import TestSupport
import Testing

/// "Key order" (Specs/binary-plist.md): writers sort keys by UTF-16 code units.
/// `utf16Precedes` compares UTF-8 bytes and falls back to UTF-16 only where the
/// two orders differ (U+E000…U+FFFF against supplementary characters).
@Suite("Key order: UTF-16 code units")
struct KeyOrderTests {
    static func reference(_ a: String, _ b: String) -> Bool { a.utf16.lexicographicallyPrecedes(b.utf16) }

    @Test("agrees with a plain UTF-16 comparison on tricky pairs")
    func trickyPairs() {
        let strings = ["", "a", "ab", "b", "\u{7F}", "\u{80}", "é", "e\u{301}", "\u{FFFF}", "\u{E000}", "\u{FF5E}",
                       "\u{10000}", "😀", "a😀", "a\u{FFFD}", "a\u{E000}b", "a\u{10FFFF}", "\u{D7FF}", "Z", "zz"]
        for a in strings {
            for b in strings {
                #expect(utf16Precedes(a, b) == Self.reference(a, b), "\(a.unicodeScalars.map(\.value)) vs \(b.unicodeScalars.map(\.value))")
            }
        }
    }

    @Test("agrees with a plain UTF-16 comparison on random strings")
    func randomPairs() {
        var rng = TestRandom(seed: 4306)
        let pools: [ClosedRange<UInt32>] = [0x20...0x7E, 0x80...0x7FF, 0xE000...0xFFFD, 0x10000...0x1F64F, 0x800...0xD7FF]
        func randomString() -> String {
            var s = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let pool = pools.randomElement(using: &rng)!
                s.append(Unicode.Scalar(UInt32.random(in: pool, using: &rng))!)
            }
            return String(s)
        }
        for _ in 0..<20_000 {
            let (a, b) = (randomString(), randomString())
            #expect(utf16Precedes(a, b) == Self.reference(a, b), "\(a.unicodeScalars.map(\.value)) vs \(b.unicodeScalars.map(\.value)), \(rng)")
        }
    }
}

/// `sortedKeys` and the writers' `writerOrder` (integer prefixes, an
/// already-sorted pass) order keys as a plain UTF-16 sort does.
@Suite("Key order: dictionaries")
struct DictionaryKeyOrderTests {
    @Test("sortedKeys equals a plain UTF-16 sort, for keys in order, reversed and shuffled")
    func sortedKeys() {
        var rng = TestRandom(seed: 4307)
        let pools: [ClosedRange<UInt32>] = [0x61...0x63, 0x00...0x02, 0x20...0x7E, 0xE000...0xE002, 0x10000...0x10002, 0xFFFD...0xFFFD]
        for _ in 0..<3_000 {
            var keys = Set<String>()
            for _ in 0..<Int.random(in: 0...24, using: &rng) {
                var scalars = String.UnicodeScalarView()
                // Long shared prefixes make the eight-byte prefixes tie.
                if Bool.random(using: &rng) { scalars.append(contentsOf: "prefix12".unicodeScalars) }
                for _ in 0..<Int.random(in: 0...10, using: &rng) {
                    scalars.append(Unicode.Scalar(UInt32.random(in: pools.randomElement(using: &rng)!, using: &rng))!)
                }
                keys.insert(String(scalars))
            }
            let expected = keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
            for arrangement in [expected, Array(expected.reversed()), expected.shuffled(using: &rng)] {
                let dictionary = PropertyListDictionary(uniqueKeysWithValues: arrangement.map { ($0, PropertyListValue.bool(true)) })
                #expect(dictionary.sortedKeys == expected, "\(rng)")
                #expect(dictionary.writerOrder.map { dictionary[$0].key } == expected, "\(rng)")
            }
        }
    }
}
