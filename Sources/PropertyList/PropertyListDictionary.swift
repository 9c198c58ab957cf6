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
        self.init(sharing: sibling.sharedKeys, values: values)
    }

    /// The dictionary's keys and their index, for a dictionary of the same
    /// keys to share (``init(sharing:values:)``) without holding this one's values.
    @inlinable package var sharedKeys: SharedDictionaryKeys {
        SharedDictionaryKeys(keys: storedKeys, index: index)
    }

    /// A dictionary with the keys of `keys`, in their order, and `values`
    /// (one per key): the key array and its index are shared, not built again.
    @inlinable package init(sharing keys: SharedDictionaryKeys, values: [Value]) {
        precondition(values.count == keys.keys.count, "one value per key")
        self.init(storedKeys: keys.keys, storedValues: values, index: keys.index)
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

    /// A dictionary of `keys` and `values` (one per key, in order) that a
    /// reader collected apart and checked distinct itself, through `index`
    /// once there are more than ``scanLimit`` keys (empty up to it): the
    /// arrays and the index are held as they are (Specs/xml-plist.md, "Reader
    /// stacks").
    @inlinable package init(checkedKeys keys: [String], values: [Value], index: consuming OpenDictionaryIndex) {
        precondition(keys.count == values.count, "one value per key")
        precondition(index.index.isEmpty == (keys.count <= KeyIndex.scanLimit), "an index exactly past the scan limit")
        precondition(keys.count <= index.index.capacity >> 1 || index.index.isEmpty, "an index at most half full")
        self.init(storedKeys: keys, storedValues: values, index: index.index)
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

/// The hash index of a dictionary that a reader builds in stacks of its own
/// (its keys and values kept apart, in order, until it closes; see
/// ``StringKeyedDictionary/init(checkedKeys:values:index:)``). The reader
/// asks for a key's slot as the key arrives and stores the key's position
/// there once its value follows.
@usableFromInline package struct OpenDictionaryIndex: Sendable {
    @usableFromInline internal var index: KeyIndex

    /// No index (a dictionary still scanned).
    @inlinable package init() { index = KeyIndex() }

    /// True before the first ``makeRoom(hashes:)``.
    @inlinable package var isEmpty: Bool { index.isEmpty }

    /// Makes room for one more key after the `hashes.count` stored ones,
    /// whose `hashValue`s `hashes` holds in order: rebuilt from them, at least
    /// twice as large, when the table would be more than half full.
    @inlinable @inline(__always) package mutating func makeRoom(hashes: Span<Int>) {
        let count = hashes.count + 1
        guard count > KeyIndex.scanLimit, count > index.capacity >> 1 else { return }
        rebuild(hashes: hashes)
    }

    /// A first index has room for 32 keys, a later one for twice the keys
    /// (measured: a 36-key top-level dictionary, read key by key, rebuilt its
    /// index three times from nine keys on; 32 slots of one byte more are
    /// nothing beside the keys).
    @inlinable @inline(never) internal mutating func rebuild(hashes: Span<Int>) {
        let count = hashes.count + 1
        index = KeyIndex(forCount: Swift.max(count, 2 * hashes.count, index.isEmpty ? 32 : 0))
        let mask = index.capacity - 1
        for position in 0..<hashes.count {
            var bucket = hashes[position] & mask
            while index[bucket] != 0 { bucket = (bucket + 1) & mask }
            index.store(position + 1, at: bucket)
        }
    }

    /// The empty bucket where a key of hash `hash` goes, or nil when one of
    /// `keys` (the stored keys, in order) equals `key` under `String`
    /// equality. `knownAbsent`: the reader has proved no stored key equals
    /// it, so none is compared. After ``makeRoom(hashes:)``.
    @inlinable @inline(__always) package func slot(for key: String, hash: Int, keys: Span<String>, knownAbsent: Bool) -> Int? {
        if knownAbsent { return index.probe(hash: hash) { _ in false }.bucket }
        let (found, bucket) = index.probe(hash: hash) { keys[$0] == key }
        return found == nil ? bucket : nil
    }

    /// Records that the key at `position` is in `bucket` (from ``slot(for:hash:keys:knownAbsent:)``).
    @inlinable @inline(__always) package mutating func store(position: Int, at bucket: Int) {
        index.store(position + 1, at: bucket)
    }
}

/// A dictionary's keys, in order, with their index (``StringKeyedDictionary/sharedKeys``).
@usableFromInline package struct SharedDictionaryKeys: Sendable {
    /// The keys, in order.
    @usableFromInline package let keys: [String]
    @usableFromInline internal let index: KeyIndex

    /// No keys.
    @inlinable package init() { self.init(keys: [], index: KeyIndex()) }

    @inlinable internal init(keys: [String], index: KeyIndex) {
        self.keys = keys
        self.index = index
    }
}
