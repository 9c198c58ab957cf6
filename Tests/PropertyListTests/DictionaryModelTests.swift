import PropertyBased
@_spi(ByteKit) import PropertyList
import Testing

/// "Dictionary representation" (Specs/value-model.md): entries in insertion
/// order, found by scan up to 8 entries and through a hash index above, with
/// `String` equality either way. Checked against a plain model: an array of
/// entries searched one by one.
@Suite("Dictionary representation: scan and hash index against a model")
struct DictionaryModelTests {
    /// The model: entries in order, keys compared with `String` equality.
    struct Model {
        var entries: [(key: String, value: Int)] = []
        func position(of key: String) -> Int? { entries.firstIndex { $0.key == key } }
    }

    /// Keys with canonically equivalent pairs among them (é, K and the Kelvin
    /// sign, Å and the Angstrom sign) and enough of them to cross every size.
    static func keyPool(_ count: Int) -> [String] {
        ["é", "e\u{301}", "K", "\u{212A}", "\u{C5}", "\u{212B}", "A\u{30A}", "", "a"] + (0..<count).map { "key \($0)" }
    }

    /// `insertNew`'s result (a mutating call cannot sit inside `#expect`).
    static func inserting(_ dictionary: inout StringKeyedDictionary<Int>, _ value: Int, forKey key: String) -> Bool {
        dictionary.insertNew(value, forKey: key)
    }

    static func check(_ dictionary: StringKeyedDictionary<Int>, against model: Model, pool: [String]) {
        #expect(dictionary.count == model.entries.count)
        #expect(dictionary.keys.map { Array($0.unicodeScalars) } == model.entries.map { Array($0.key.unicodeScalars) })
        #expect(dictionary.values == model.entries.map(\.value))
        for key in pool {
            #expect(dictionary[key] == model.position(of: key).map { model.entries[$0].value }, "lookup of \(key.unicodeScalars.map(\.value))")
        }
    }

    @Test("random inserts, replacements and removals agree with the model at every size", arguments: [20, 200, 700])
    func randomOperations(poolSize: Int) {
        var rng: any SeededRandomNumberGenerator = Xoshiro(seed: (21, 22, 23, UInt64(poolSize)))
        let pool = Self.keyPool(poolSize)
        var dictionary = StringKeyedDictionary<Int>()
        var model = Model()
        for step in 0..<(6 * poolSize) {
            let key = pool[Int.random(in: 0..<pool.count, using: &rng)]
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:  // insertNew: refused (and nothing changes) for a present key
                let inserted = dictionary.insertNew(step, forKey: key)
                #expect(inserted == (model.position(of: key) == nil))
                if inserted { model.entries.append((key, step)) }
            case 5..<8:  // assignment: replaces in place or appends
                dictionary[key] = step
                if let position = model.position(of: key) { model.entries[position].value = step } else { model.entries.append((key, step)) }
            default:  // removal keeps the order of the rest
                dictionary[key] = nil
                if let position = model.position(of: key) { model.entries.remove(at: position) }
            }
            if step % 25 == 0 { Self.check(dictionary, against: model, pool: pool) }
        }
        Self.check(dictionary, against: model, pool: pool)
    }

    @Test("canonically equivalent keys are one key, below and above the scan limit", arguments: [0, 8, 40, 300])
    func canonicalEquivalence(filler: Int) {
        var dictionary = StringKeyedDictionary<Int>(minimumCapacity: filler)
        for i in 0..<filler { #expect(Self.inserting(&dictionary, i, forKey: "filler \(i)")) }
        #expect(Self.inserting(&dictionary, 1, forKey: "\u{E9}"))
        #expect(!Self.inserting(&dictionary, 2, forKey: "e\u{301}"))
        #expect(Self.inserting(&dictionary, 3, forKey: "K"))
        #expect(!Self.inserting(&dictionary, 4, forKey: "\u{212A}"))
        #expect(dictionary["e\u{301}"] == 1 && dictionary["\u{212A}"] == 3)
        #expect(dictionary.count == filler + 2)
    }

    @Test("a dictionary too large for 1- and 2-byte slots finds every key")
    func wideSlots() {
        let count = 40_000
        var dictionary = StringKeyedDictionary<Int>()
        for i in 0..<count { #expect(Self.inserting(&dictionary, i, forKey: "k\(i)")) }
        #expect(dictionary.count == count)
        for i in stride(from: 0, to: count, by: 1) where dictionary["k\(i)"] != i {
            Issue.record("k\(i) not found"); break
        }
        #expect(dictionary["k\(count)"] == nil)
        #expect(!Self.inserting(&dictionary, 0, forKey: "k123"))
        dictionary["k0"] = nil
        #expect(dictionary["k1"] == 1 && dictionary["k0"] == nil && dictionary.first?.key == "k1")
    }

    @Test("mapValues keeps keys, order and lookups")
    func mapValues() {
        var dictionary = StringKeyedDictionary<Int>()
        for i in 0..<50 { dictionary["k\(i)"] = i }
        let doubled = dictionary.mapValues { String($0 * 2) }
        #expect(doubled.keys == dictionary.keys)
        for i in 0..<50 { #expect(doubled["k\(i)"] == String(i * 2)) }
    }

    @Test("sharing a sibling's keys: the same keys and lookups, each dictionary changed alone", arguments: [3, 8, 40])
    func sharingKeys(count: Int) {
        var sibling = PropertyListDictionary()
        for i in 0..<count { sibling.insertNew(.integer(PropertyListInteger(i)), forKey: "k\(i)") }
        var shared = PropertyListDictionary(sharingKeysOf: sibling, values: (0..<count).map { .string("v\($0)") })
        #expect(shared.keys == sibling.keys)
        for i in 0..<count { #expect(shared["k\(i)"] == .string("v\(i)") && sibling["k\(i)"] == .integer(PropertyListInteger(i))) }
        shared["new"] = .bool(true)
        shared["k0"] = nil
        #expect(sibling.count == count && sibling["new"] == nil && sibling["k0"] == .integer(0))
        #expect(shared.count == count && shared["new"] == .bool(true) && shared["k1"] == .string("v1"))
    }
}
