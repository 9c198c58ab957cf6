internal import OrderedCollections

/// The entries of a property-list dictionary: string keys, each at most once,
/// in insertion order.
///
/// Keys are unique under Swift's `String` equality, which treats canonically
/// equivalent spellings (`"é"` and `"e\u{301}"`) as one key; readers refuse
/// input holding two such keys as ``PropertyListError/Code/duplicateKey``
/// rather than silently keep one. Two dictionaries are equal when they hold
/// exactly equal entries, in any order. See `Specs/value-model.md`.
public struct PropertyListDictionary: Sendable {
    internal var storage: OrderedDictionary<String, PropertyListValue>

    /// Creates an empty dictionary.
    public init() { storage = [:] }

    /// Creates an empty dictionary with room for `capacity` entries.
    public init(minimumCapacity capacity: Int) {
        storage = OrderedDictionary(minimumCapacity: capacity)
    }

    /// Creates a dictionary from key-value pairs; repeated keys trap.
    public init(uniqueKeysWithValues pairs: some Sequence<(String, PropertyListValue)>) {
        storage = OrderedDictionary(uniqueKeysWithValues: pairs)
    }

    /// The number of entries.
    public var count: Int { storage.count }
    /// True when there are no entries.
    public var isEmpty: Bool { storage.isEmpty }
    /// The keys in insertion order.
    public var keys: [String] { Array(storage.keys) }
    /// The values in insertion order.
    public var values: [PropertyListValue] { Array(storage.values) }

    /// The value stored under `key`; assigning nil removes the entry.
    public subscript(key: String) -> PropertyListValue? {
        get { storage[key] }
        set { storage[key] = newValue }
    }

    /// Adds an entry unless the key is already present (under Swift's
    /// `String` equality). Returns false, changing nothing, for a repeated key.
    @discardableResult
    public mutating func insertNew(_ value: PropertyListValue, forKey key: String) -> Bool {
        guard storage.index(forKey: key) == nil else { return false }
        storage[key] = value
        return true
    }

    /// The keys in the order writers use: ascending by UTF-16 code units,
    /// as CoreFoundation sorts them. See `Specs/binary-plist.md`, "Key order".
    public var sortedKeys: [String] {
        storage.keys.sorted { PropertyListDictionary.utf16Precedes($0, $1) }
    }

    /// Orders strings by UTF-16 code units, CoreFoundation's literal order.
    public static func utf16Precedes(_ a: String, _ b: String) -> Bool {
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
}

extension PropertyListDictionary: RandomAccessCollection {
    public typealias Element = (key: String, value: PropertyListValue)
    public typealias Index = Int
    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public subscript(position: Int) -> Element { storage.elements[position] }
}

extension PropertyListDictionary: Hashable {
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

extension PropertyListDictionary: ExpressibleByDictionaryLiteral {
    /// Creates a dictionary from a literal; repeated keys trap.
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self.init(uniqueKeysWithValues: elements)
    }
}
