import FoundationEssentials
@_spi(ByteKit) import PropertyList

/// The value floor (`value-floor` op): the work any reader must do to produce
/// a document's `PropertyListValue` tree, and nothing else — no parsing, no
/// rule checked (Benchmarks/README.md, "Peers").
///
/// The tree is built again from the decoded one, walking it (timed), by a
/// plan made untimed: each distinct text becomes a new `String` once per
/// document (from its UTF-8, unvalidated, as the readers copy it) and is
/// reused wherever it occurs again, keys included — the most a reader can
/// share, as a binary plist stores each distinct string once; each distinct
/// key is hashed once per document, and only for a dictionary large enough to
/// be indexed; data, arrays and dictionaries are built anew at their exact
/// capacity. The plan is read in visiting order, one entry per string and per
/// indexed key.
struct ValueFloorPlan {
    let value: PropertyListValue
    /// Per string (value or key), in visiting order: true where its text first occurs.
    let firstText: [Bool]
    /// Per key of an indexed dictionary, in visiting order: its hash if an
    /// earlier key had the same text, nil where it must be hashed.
    let knownHashes: [Int?]

    init(_ value: PropertyListValue) {
        var seenText = Set<String>()
        var hashOfKey: [String: Int] = [:]
        var firstText: [Bool] = []
        var knownHashes: [Int?] = []
        func visit(_ value: PropertyListValue) {
            switch value {
            case .string(let string):
                firstText.append(seenText.insert(string).inserted)
            case .array(let elements):
                elements.forEach(visit)
            case .dictionary(let dictionary):
                let indexed = dictionary.count > PropertyListDictionary.scanLimit
                for (key, member) in dictionary {
                    firstText.append(seenText.insert(key).inserted)
                    if indexed {
                        knownHashes.append(hashOfKey[key])
                        if hashOfKey[key] == nil { hashOfKey[key] = key.hashValue }
                    }
                    visit(member)
                }
            default:
                break
            }
        }
        visit(value)
        self.value = value
        self.firstText = firstText
        self.knownHashes = knownHashes
    }

    /// Builds the tree (the timed part).
    func build() -> PropertyListValue {
        var builder = ValueFloorBuilder(firstText: firstText, knownHashes: knownHashes)
        return builder.build(value)
    }
}

/// The timed walk of ``ValueFloorPlan``.
struct ValueFloorBuilder {
    let firstText: [Bool]
    let knownHashes: [Int?]
    var texts = 0
    var keys = 0

    init(firstText: [Bool], knownHashes: [Int?]) {
        self.firstText = firstText
        self.knownHashes = knownHashes
    }

    mutating func text(_ string: String) -> String {
        defer { texts += 1 }
        guard firstText[texts] else { return string }
        return string.withUTF8Span { $0.stringAssumingValidUTF8() }
    }

    mutating func build(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .string(let string): return .string(text(string))
        case .data(let data): return .data(Data(data.bytes.array))
        case .array(let elements):
            var copy: [PropertyListValue] = []
            copy.reserveCapacity(elements.count)
            for element in elements { copy.append(build(element)) }
            return .array(copy)
        case .dictionary(let dictionary):
            var copy = PropertyListDictionary(minimumCapacity: dictionary.count)
            let indexed = dictionary.count > PropertyListDictionary.scanLimit
            for (key, member) in dictionary {
                let key = text(key)
                var hash: Int? = nil
                if indexed {
                    hash = knownHashes[keys] ?? key.hashValue
                    keys += 1
                }
                _ = copy.insertNew(build(member), forKey: key, hashValue: hash)
            }
            return .dictionary(copy)
        default:
            return value
        }
    }
}
