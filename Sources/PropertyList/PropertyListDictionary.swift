// Public so that the hot members below can be @inlinable: specialised in each
// client module for its value type, instead of running as unspecialised
// generic code (measured: 8% of keyed-archive decoding went to runtime
// generic metadata lookups before).
public import OrderedCollections

/// The entries of a property-list dictionary.
public typealias PropertyListDictionary = StringKeyedDictionary<PropertyListValue>

/// String-keyed entries, each key at most once, in insertion order: the
/// dictionaries of property lists and of userInfo values.
///
/// Keys are unique under Swift's `String` equality, which treats canonically
/// equivalent spellings (`"é"` and `"e\u{301}"`) as one key; readers refuse
/// input holding two such keys as ``PropertyListError/Code/duplicateKey``
/// rather than silently keep one. Two dictionaries are equal when they hold
/// exactly equal entries (keys compared scalar by scalar), in any order.
/// See `Specs/value-model.md`.
public struct StringKeyedDictionary<Value: Hashable & Sendable>: Sendable {
    @usableFromInline internal var storage: OrderedDictionary<String, Value>

    /// Creates an empty dictionary.
    @inlinable public init() { storage = [:] }

    /// Creates an empty dictionary with room for `capacity` entries.
    @inlinable public init(minimumCapacity capacity: Int) {
        storage = OrderedDictionary(minimumCapacity: capacity)
    }

    /// Creates a dictionary from key-value pairs; repeated keys trap.
    public init(uniqueKeysWithValues pairs: some Sequence<(String, Value)>) {
        storage = OrderedDictionary(uniqueKeysWithValues: pairs)
    }

    /// The number of entries.
    @inlinable public var count: Int { storage.count }
    /// True when there are no entries.
    @inlinable public var isEmpty: Bool { storage.isEmpty }
    /// The keys in insertion order.
    public var keys: [String] { Array(storage.keys) }
    /// The values in insertion order.
    public var values: [Value] { Array(storage.values) }

    /// The value stored under `key`; assigning nil removes the entry.
    @inlinable public subscript(key: String) -> Value? {
        get { storage[key] }
        set { storage[key] = newValue }
    }

    /// Adds an entry unless the key is already present (under Swift's
    /// `String` equality). Returns false, changing nothing, for a repeated key.
    @discardableResult
    @inlinable public mutating func insertNew(_ value: Value, forKey key: String) -> Bool {
        // One hash lookup in the common case; a repeated key (rare: readers then
        // throw) puts the first value back.
        guard let previous = storage.updateValue(value, forKey: key) else { return true }
        storage.updateValue(previous, forKey: key)
        return false
    }

    /// The keys in the order writers use: ascending by UTF-16 code units,
    /// as CoreFoundation sorts them. See `Specs/binary-plist.md`, "Key order".
    public var sortedKeys: [String] {
        let keys = storage.keys.elements
        return UTF16Order.sortedIndices(keys).map { keys[$0] }
    }

    /// The positions of the entries in writer order (keys ascending by UTF-16
    /// code units): `for position in d.writerOrder { let (key, value) = d[position] }`.
    package var writerOrder: [Int] {
        UTF16Order.sortedIndices(storage.keys.elements)
    }

    /// Returns a dictionary with the same keys and transformed values.
    @inlinable public func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> StringKeyedDictionary<T> {
        var result = StringKeyedDictionary<T>(minimumCapacity: count)
        for (key, value) in storage { result.storage[key] = try transform(value) }
        return result
    }
}

/// Orders strings by UTF-16 code units, CoreFoundation's literal order.
public func utf16Precedes(_ a: String, _ b: String) -> Bool {
    // UTF-8 bytes order strings as code points do, and code point order is
    // UTF-16 order except between U+E000…U+FFFF (lead bytes EE, EF) and
    // supplementary characters (F0…F4, surrogates in UTF-16): compare bytes up to
    // the first difference, and only that pair of characters decides the case.
    var (a, b) = (a, b)
    let byBytes: Bool? = a.withUTF8 { x in b.withUTF8 { y in UTF16Order.precedesBytes(x, y) } }
    if let byBytes { return byBytes }
    var left = a.utf16.makeIterator()
    var right = b.utf16.makeIterator()
    while true {
        switch (left.next(), right.next()) {
        case let (x?, y?): if x != y { return x < y }
        case (nil, _?): return true
        case (_, nil): return false
        }
    }
}

extension StringKeyedDictionary: RandomAccessCollection {
    public typealias Element = (key: String, value: Value)
    public typealias Index = Int
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { storage.count }
    @inlinable public subscript(position: Int) -> Element { storage.elements[position] }
}

extension StringKeyedDictionary: Hashable {
    /// Equal when both hold exactly equal keys and values, in any order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs.storage {
            guard let index = rhs.storage.index(forKey: key) else { return false }
            let (otherKey, otherValue) = rhs.storage.elements[index]
            guard ExactString.equal(key, otherKey), value == otherValue else { return false }
        }
        return true
    }

    /// An order-independent hash of the entries.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (key, value) in storage {
            var entry = Hasher()
            ExactString.hash(key, into: &entry)
            entry.combine(value)
            combined = combined &+ entry.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension StringKeyedDictionary: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary from a literal; repeated keys trap.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(uniqueKeysWithValues: elements)
    }
}

/// UTF-16 order decided on UTF-8 bytes where the two orders agree.
enum UTF16Order {
    /// The indices of `keys` in ascending UTF-16 order (the keys are distinct).
    /// Dictionaries read from a file are usually in order already, which one
    /// pass checks; otherwise each key's first eight UTF-8 bytes, as a
    /// big-endian integer, decide most comparisons without touching the strings.
    static func sortedIndices(_ keys: [String]) -> [Int] {
        let count = keys.count
        if count < 2 { return Array(0..<count) }
        // Two big-endian words per key: its first sixteen UTF-8 bytes, zero-padded.
        var words: [UInt64] = []
        words.reserveCapacity(2 * count)
        for var key in keys {
            key.withUTF8 { utf8 in
                for word in 0..<2 {
                    var value: UInt64 = 0
                    for k in (8 * word)..<(8 * word + 8) { value = value << 8 | UInt64(k < utf8.count ? utf8[k] : 0) }
                    words.append(value)
                }
            }
        }
        let prefixes = words  // a constant, so the comparator reads it without exclusivity checks
        // Prefixes compare as the bytes do, except that a shorter key padded with
        // zeros ties with a longer one that continues with NUL: ties fall through.
        // Between U+E000…U+FFFF and supplementary characters the two orders differ:
        // a first difference in a lead byte EE/EF against F0…F4 falls through too.
        func precedes(_ i: Int, _ j: Int) -> Bool {
            for word in 0..<2 {
                let (p, q) = (prefixes[2 * i + word], prefixes[2 * j + word])
                if p == q { continue }
                let shift = UInt64((p ^ q).leadingZeroBitCount & ~7)
                let x = UInt8(truncatingIfNeeded: (p << shift) >> 56), y = UInt8(truncatingIfNeeded: (q << shift) >> 56)
                let xHigh = x >= 0xEE && x <= 0xEF, yHigh = y >= 0xEE && y <= 0xEF
                if (xHigh && y >= 0xF0) || (x >= 0xF0 && yHigh) { break }
                return p < q
            }
            return utf16Precedes(keys[i], keys[j])
        }
        var inOrder = true
        for i in 1..<count where !precedes(i - 1, i) { inOrder = false; break }
        if inOrder { return Array(0..<count) }
        return (0..<count).sorted(by: precedes)
    }

    /// Whether `x` precedes `y` in UTF-16 order, or nil when the first
    /// difference sets a character of U+E000…U+FFFF against a supplementary one.
    @inline(__always)
    static func precedesBytes(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool? {
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
