/// The entries of a property-list dictionary.
public typealias PropertyListDictionary = StringKeyedDictionary<PropertyListValue>

/// String-keyed entries, each key at most once, in insertion order: the
/// dictionaries of property lists and of userInfo values.
///
/// Keys are unique under Swift's `String` equality, which treats canonically
/// equivalent spellings (`"é"` and `"e\u{301}"`) as one key; readers refuse
/// input holding two such keys as ``ErrorCode/duplicateKey``
/// rather than silently keep one. Two dictionaries are equal when they hold
/// exactly equal entries (keys compared scalar by scalar), in any order.
///
/// Up to eight entries are found by scan; larger dictionaries keep a hash
/// index of positions. Lookup, insertion and replacement are O(1) (amortised);
/// removal is O(n), as it keeps the order.
/// See `Specs/value-model.md`, "Dictionary representation".
public struct StringKeyedDictionary<Value: Hashable & Sendable>: Sendable {
    // Members are inlinable so that they are specialised in each client module
    // for its value type instead of running as unspecialised generic code
    // (measured: 8% of keyed-archive decoding went to generic metadata lookups).
    /// The keys, in insertion order.
    @usableFromInline internal var storedKeys: [String]
    /// The values, in the order of their keys.
    @usableFromInline internal var storedValues: [Value]
    /// Empty while the dictionary is small enough to scan.
    @usableFromInline internal var index: KeyIndex

    /// Creates an empty dictionary.
    @inlinable public init() {
        storedKeys = []
        storedValues = []
        index = KeyIndex()
    }

    /// Creates an empty dictionary with room for `capacity` entries.
    @inlinable public init(minimumCapacity capacity: Int) {
        storedKeys = []
        storedValues = []
        storedKeys.reserveCapacity(capacity)
        storedValues.reserveCapacity(capacity)
        index = KeyIndex(forCount: capacity)
    }

    @inlinable internal init(storedKeys: [String], storedValues: [Value], index: KeyIndex) {
        self.storedKeys = storedKeys
        self.storedValues = storedValues
        self.index = index
    }

    /// A dictionary with `sibling`'s keys, in its order, and `values` (one per
    /// key): the keys and their index are shared with `sibling`, not built
    /// again (a reader's sibling keys, Specs/binary-plist.md).
    @inlinable @_spi(ByteKit) public init(sharingKeysOf sibling: Self, values: [Value]) {
        precondition(values.count == sibling.storedKeys.count, "one value per key")
        self.init(storedKeys: sibling.storedKeys, storedValues: values, index: sibling.index)
    }

    /// Creates a dictionary from key-value pairs; repeated keys trap.
    @inlinable public init(uniqueKeysWithValues pairs: some Sequence<(String, Value)>) {
        self.init(minimumCapacity: pairs.underestimatedCount)
        for (key, value) in pairs {
            guard insertNew(value, forKey: key) else { preconditionFailure("duplicate key \"\(key)\"") }
        }
    }

    /// The dictionary of `keys[i]: values[i]`, in their order, holding the
    /// arrays as they are (for a reader that collected both); nil when a key
    /// is repeated under Swift's `String` equality.
    @inlinable package init?(keys: [String], values: [Value]) {
        precondition(keys.count == values.count, "as many keys as values")
        self.init(storedKeys: keys, storedValues: values, index: KeyIndex(forCount: keys.count))
        if index.isEmpty {
            for position in keys.indices {
                for earlier in 0..<position where keys[earlier] == keys[position] { return nil }
            }
            return
        }
        for position in keys.indices {
            let (found, bucket) = find(keys[position], hashValue: keys[position].hashValue)
            guard found == nil else { return nil }
            index.store(position + 1, at: bucket)
        }
    }

    /// The number of entries.
    @inlinable public var count: Int { storedKeys.count }
    /// The keys in insertion order.
    @inlinable public var keys: [String] { storedKeys }
    /// The values in insertion order.
    @inlinable public var values: [Value] { storedValues }
    /// True when there are no entries.
    @inlinable public var isEmpty: Bool { storedKeys.isEmpty }
    /// The most entries a dictionary holds before it builds a hash index; a
    /// reader that cannot know a dictionary's size reserves this many.
    @inlinable package static var scanLimit: Int { KeyIndex.scanLimit }
    /// True when keys are found through the hash index, so that inserting one
    /// needs its `hashValue`; false while the dictionary is small enough to scan.
    @inlinable package var isIndexed: Bool { !index.isEmpty }

    /// The value stored under `key`; assigning nil removes the entry.
    @inlinable public subscript(key: String) -> Value? {
        get {
            guard let position = position(forKey: key) else { return nil }
            return storedValues[position]
        }
        set {
            if let newValue {
                if let position = position(forKey: key) {
                    storedValues[position] = newValue
                } else {
                    append(newValue, forKey: key)
                }
            } else if let position = position(forKey: key) {
                storedKeys.remove(at: position)
                storedValues.remove(at: position)
                index = KeyIndex(forCount: storedKeys.count)
                if !index.isEmpty { rebuildIndex() }
            }
        }
    }

    /// Adds an entry unless the key is already present (under Swift's
    /// `String` equality). Returns false, changing nothing, for a repeated key.
    @discardableResult
    @inlinable public mutating func insertNew(_ value: Value, forKey key: String) -> Bool {
        insertNew(value, forKey: key, hashValue: nil)
    }

    /// `insertNew(_:forKey:)` for a reader that knows `key.hashValue` already
    /// (it meets the same key object many times in one document).
    @inlinable package mutating func insertNew(_ value: __owned Value, forKey key: __owned String, hashValue: Int?) -> Bool {
        if index.isEmpty && storedKeys.count < KeyIndex.scanLimit {
            for existing in storedKeys where existing == key { return false }
            storedKeys.append(key)
            storedValues.append(value)
            return true
        }
        growIndexIfNeeded(toHold: storedKeys.count + 1)
        let (found, bucket) = find(key, hashValue: hashValue ?? key.hashValue)
        guard found == nil else { return false }
        index.store(storedKeys.count + 1, at: bucket)
        storedKeys.append(key)
        storedValues.append(value)
        return true
    }

    /// For a reader that checks each key as it arrives and adds its value
    /// later: makes room for one more entry and returns where `key` goes, or
    /// nil when it is present. Nothing may change the dictionary before
    /// ``append(_:forNewKey:at:)`` takes the slot.
    ///
    /// `hashes` holds the `hashValue` of every stored key, in order, once the
    /// dictionary is past ``scanLimit`` (the reader keeps them, so that the
    /// index grows without hashing any key again); `hash` gives the new key's,
    /// asked for only then. Small dictionaries are scanned and hash nothing.
    /// The slot is an index bucket, or -1 in a scanned dictionary.
    ///
    /// `knownAbsent`: the caller has proved that no stored key equals `key`
    /// (a reader whose keys are those of an earlier, checked dictionary, in
    /// its order), so no key is compared.
    @inlinable package mutating func slot(forNewKey key: String, hash: () -> Int, hashes: Span<Int>,
                                          knownAbsent: Bool = false) -> Int? {
        if index.isEmpty && storedKeys.count < KeyIndex.scanLimit {
            if !knownAbsent {
                for existing in storedKeys where existing == key { return nil }
            }
            return -1
        }
        let count = storedKeys.count + 1
        if count > index.capacity >> 1 {
            index = KeyIndex(forCount: Swift.max(count, 2 * storedKeys.count))
            let mask = index.capacity - 1
            for position in storedKeys.indices {
                var bucket = hashes[position] & mask
                while index[bucket] != 0 { bucket = (bucket + 1) & mask }
                index.store(position + 1, at: bucket)
            }
        }
        if knownAbsent {
            return index.probe(hash: hash()) { _ in false }.bucket
        }
        let (found, bucket) = find(key, hashValue: hash())
        return found == nil ? bucket : nil
    }

    /// Adds the entry whose slot ``slot(forNewKey:hash:hashes:knownAbsent:)`` gave.
    @inlinable package mutating func append(_ value: __owned Value, forNewKey key: __owned String, at slot: Int) {
        if slot >= 0 { index.store(storedKeys.count + 1, at: slot) }
        storedKeys.append(key)
        storedValues.append(value)
    }

    /// Stores `value` under `key`, replacing the value there or appending an
    /// entry; returns the entry's position.
    @inlinable package mutating func updateValue(_ value: __owned Value, forKey key: String) -> Int {
        if let position = position(forKey: key) {
            storedValues[position] = value
            return position
        }
        append(value, forKey: key)
        return storedKeys.count - 1
    }

    /// Replaces the value of the entry at `position`.
    @inlinable package mutating func replaceValue(at position: Int, with value: __owned Value) {
        storedValues[position] = value
    }

    /// The position of `key`'s entry, if present.
    @inlinable package func position(forKey key: String) -> Int? {
        if index.isEmpty {
            for position in storedKeys.indices where storedKeys[position] == key { return position }
            return nil
        }
        return find(key, hashValue: key.hashValue).position
    }

    /// Probes the index for `key`: its entry's position, or the empty bucket
    /// where it would go.
    @inlinable @inline(__always) internal func find(_ key: String, hashValue hash: Int) -> (position: Int?, bucket: Int) {
        let keys = storedKeys.span
        return index.probe(hash: hash) { keys[$0] == key }
    }

    /// Appends an entry whose key is known to be absent.
    @inlinable internal mutating func append(_ value: Value, forKey key: String) {
        growIndexIfNeeded(toHold: storedKeys.count + 1)
        if !index.isEmpty { index.store(storedKeys.count + 1, at: find(key, hashValue: key.hashValue).bucket) }
        storedKeys.append(key)
        storedValues.append(value)
    }

    /// Makes the index big enough for `count` entries (nothing while a scan will do).
    @inlinable @inline(__always) internal mutating func growIndexIfNeeded(toHold count: Int) {
        guard count > KeyIndex.scanLimit, count > index.capacity >> 1 else { return }
        growIndex(toHold: count)
    }

    @inlinable @inline(never) internal mutating func growIndex(toHold count: Int) {
        index = KeyIndex(forCount: Swift.max(count, 2 * storedKeys.count))
        rebuildIndex()
    }

    /// Enters every entry into a fresh, empty index.
    @usableFromInline internal mutating func rebuildIndex() {
        let mask = index.capacity - 1
        for position in storedKeys.indices {
            var bucket = storedKeys[position].hashValue & mask
            while index[bucket] != 0 { bucket = (bucket + 1) & mask }
            index.store(position + 1, at: bucket)
        }
    }

    /// The keys in the order writers use: ascending by UTF-16 code units,
    /// as CoreFoundation sorts them. See `Specs/binary-plist.md`, "Writer".
    public var sortedKeys: [String] {
        UTF16Order.sortedIndices(storedKeys).map { storedKeys[$0] }
    }

    /// The positions of the entries in writer order (keys ascending by UTF-16
    /// code units): `for position in d.writerOrder { let (key, value) = d[position] }`.
    package var writerOrder: [Int] {
        UTF16Order.sortedIndices(storedKeys)
    }

    /// The positions of the entries in `order`: writer order, or the dictionary's own.
    package func writerOrder(_ order: KeyOrder) -> [Int] {
        order == .sorted ? writerOrder : Array(0..<storedKeys.count)
    }

    /// Returns a dictionary with the same keys and transformed values.
    @inlinable public func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> StringKeyedDictionary<T> {
        StringKeyedDictionary<T>(storedKeys: storedKeys, storedValues: try storedValues.map(transform), index: index)
    }
}

/// Orders strings by UTF-16 code units, CoreFoundation's literal order.
public func utf16Precedes(_ a: String, _ b: String) -> Bool {
    // UTF-8 bytes order strings as code points do, and code point order is
    // UTF-16 order except between U+E000…U+FFFF (lead bytes EE, EF) and
    // supplementary characters (F0…F4, surrogates in UTF-16): compare bytes up to
    // the first difference, and only that pair of characters decides the case.
    let byBytes: Bool? = a.withUTF8Span { x in b.withUTF8Span { y in UTF16Order.precedesBytes(x, y) } }
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
    @inlinable public var endIndex: Int { storedKeys.count }
    @inlinable public subscript(position: Int) -> Element { (storedKeys[position], storedValues[position]) }
}

extension StringKeyedDictionary: Hashable {
    /// Equal when both hold exactly equal keys and values, in any order.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in zip(lhs.storedKeys, lhs.storedValues) {
            guard let position = rhs.position(forKey: key) else { return false }
            guard ExactString.equal(key, rhs.storedKeys[position]), value == rhs.storedValues[position] else { return false }
        }
        return true
    }

    /// An order-independent hash of the entries.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (key, value) in zip(storedKeys, storedValues) {
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
    // Inlinable and over the literal's array: a literal is built in the
    // client's own specialisation (measured: keyed-archive writing spent a
    // quarter of its time in the generic `some Sequence` initialiser).
    @inlinable public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(minimumCapacity: elements.count)
        for (key, value) in elements {
            guard insertNew(value, forKey: key) else { preconditionFailure("duplicate key in a dictionary literal") }
        }
    }
}
