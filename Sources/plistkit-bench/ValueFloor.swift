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
/// capacity, except that a dictionary whose keys are, in order, those of the
/// last dictionary built at its depth shares that one's keys and index (as
/// the binary reader's sibling keys do, Specs/binary-plist.md). The plan is
/// read in visiting order, one entry per string and per indexed key.
struct ValueFloorPlan {
    let value: PropertyListValue
    /// Per string (value or key), in visiting order: true where its text first occurs.
    let firstText: [Bool]
    /// Per key of an indexed dictionary, in visiting order: its hash if an
    /// earlier key had the same text, nil where it must be hashed.
    let knownHashes: [Int?]
    /// Per dictionary, in visiting order: true where it shares the keys of
    /// the last dictionary visited at its depth.
    let sharesKeys: [Bool]

    init(_ value: PropertyListValue) {
        var seenText = Set<String>()
        var hashOfKey: [String: Int] = [:]
        var firstText: [Bool] = []
        var knownHashes: [Int?] = []
        var sharesKeys: [Bool] = []
        var lastKeys: [[String]] = []
        func visit(_ value: PropertyListValue, depth: Int) {
            switch value {
            case .string(let string):
                firstText.append(seenText.insert(string).inserted)
            case .array(let elements):
                for element in elements { visit(element, depth: depth + 1) }
            case .dictionary(let dictionary):
                while lastKeys.count <= depth { lastKeys.append([]) }
                let shares = !dictionary.isEmpty && dictionary.keys.count == lastKeys[depth].count
                    && zip(dictionary.keys, lastKeys[depth]).allSatisfy { $0.utf8.elementsEqual($1.utf8) }
                sharesKeys.append(shares)
                lastKeys[depth] = dictionary.keys
                if shares {
                    for member in dictionary.values { visit(member, depth: depth + 1) }
                    return
                }
                let indexed = dictionary.count > PropertyListDictionary.scanLimit
                for (key, member) in dictionary {
                    firstText.append(seenText.insert(key).inserted)
                    if indexed {
                        knownHashes.append(hashOfKey[key])
                        if hashOfKey[key] == nil { hashOfKey[key] = key.hashValue }
                    }
                    visit(member, depth: depth + 1)
                }
            default:
                break
            }
        }
        visit(value, depth: 0)
        self.value = value
        self.sharesKeys = sharesKeys
        self.firstText = firstText
        self.knownHashes = knownHashes
    }

    /// Builds the tree (the timed part).
    func build() -> PropertyListValue {
        var builder = ValueFloorBuilder(firstText: firstText, knownHashes: knownHashes, sharesKeys: sharesKeys)
        return builder.build(value, depth: 0)
    }
}

/// The timed walk of ``ValueFloorPlan``.
struct ValueFloorBuilder {
    let firstText: [Bool]
    let knownHashes: [Int?]
    let sharesKeys: [Bool]
    var texts = 0
    var keys = 0
    var dictionaries = 0
    /// The last dictionary built at each depth.
    var lastBuilt: [PropertyListDictionary] = []

    init(firstText: [Bool], knownHashes: [Int?], sharesKeys: [Bool]) {
        self.firstText = firstText
        self.knownHashes = knownHashes
        self.sharesKeys = sharesKeys
    }

    mutating func text(_ string: String) -> String {
        defer { texts += 1 }
        guard firstText[texts] else { return string }
        return string.withUTF8Span { $0.stringAssumingValidUTF8() }
    }

    mutating func build(_ value: PropertyListValue, depth: Int) -> PropertyListValue {
        switch value {
        case .string(let string): return .string(text(string))
        case .data(let data): return .data(Data(data.bytes.array))
        case .array(let elements):
            var copy: [PropertyListValue] = []
            copy.reserveCapacity(elements.count)
            for element in elements { copy.append(build(element, depth: depth + 1)) }
            return .array(copy)
        case .dictionary(let dictionary):
            let shares = sharesKeys[dictionaries]
            dictionaries += 1
            while lastBuilt.count <= depth { lastBuilt.append([:]) }
            if shares {
                var values: [PropertyListValue] = []
                values.reserveCapacity(dictionary.count)
                for member in dictionary.values { values.append(build(member, depth: depth + 1)) }
                return .dictionary(PropertyListDictionary(sharingKeysOf: lastBuilt[depth], values: values))
            }
            var copy = PropertyListDictionary(minimumCapacity: dictionary.count)
            let indexed = dictionary.count > PropertyListDictionary.scanLimit
            for (key, member) in dictionary {
                let key = text(key)
                var hash: Int? = nil
                if indexed {
                    hash = knownHashes[keys] ?? key.hashValue
                    keys += 1
                }
                _ = copy.insertNew(build(member, depth: depth + 1), forKey: key, hashValue: hash)
            }
            lastBuilt[depth] = copy
            return .dictionary(copy)
        default:
            return value
        }
    }
}
