@_spi(ByteKit) import PropertyList

// The binary archive written straight from the numbered objects: what
// `BinaryPropertyListWriter` writes for `ArchiveBuilder.propertyList(root:)`,
// object for object, without building that tree (Specs/keyed-archive.md,
// "Writer"). The tree path stays the reference: `writeBytesThroughTree`.

extension ArchiveBuilder {
    /// The archive as a binary property list with `limits`: the objects in
    /// the binary writer's order (pre-order; a dictionary's keys in UTF-16
    /// order, then its values) with the binary writer's charges, so that the
    /// bytes and the refusals are those of the tree.
    func binaryArchive(root: UInt32, limits: WriterLimits) throws(PropertyListError) -> [UInt8] {
        var layout = try ArchiveBinaryLayout(objectCount: objects.count, expectedScalars: expectedBinaryScalars, limits: limits)
        // The top dictionary: $archiver, $objects, $top, $version.
        let top = try layout.table.dictionary(count: 4, depth: 0)
        for (position, key) in [Field.archiver, Field.objects$, Field.top, Field.version].enumerated() {
            layout.table.refer(top.slots + position, to: try layout.string(key, depth: 1))
        }
        layout.table.refer(top.slots + 4, to: try layout.string(Field.archiverName, depth: 1))
        let list = try layout.table.array(count: objects.count, depth: 1)
        layout.table.refer(top.slots + 5, to: list.number)
        for index in objects.indices {
            layout.table.refer(list.slots + index, to: try layout.object(objects[index], references: references, depth: 2))
        }
        let rootDictionary = try layout.table.dictionary(count: 1, depth: 1)
        layout.table.refer(top.slots + 6, to: rootDictionary.number)
        layout.table.refer(rootDictionary.slots, to: try layout.string(Field.root, depth: 2))
        layout.table.refer(rootDictionary.slots + 1, to: try layout.uid(root, depth: 2))
        try layout.table.charge(depth: 1, payload: 0)
        layout.table.refer(top.slots + 7, to: layout.table.unique(.integer(PropertyListInteger(Field.archiveVersion))))
        return try layout.table.bytes()
    }
}

/// The binary object table of one archive, with the numbers of the scalars
/// every object repeats (UIDs, field names) kept, so that each is hashed once.
private struct ArchiveBinaryLayout: ~Copyable {
    var table: BinaryObjectTable
    /// The binary object of each UID value, by UID (-1: not yet numbered).
    private var uidNumbers: [Int]
    /// The binary object of each field name, by ``FieldName`` (-1: not yet numbered).
    private var fieldNumbers = [Int](repeating: -1, count: FieldName.allCases.count)

    /// The names of the objects' fields.
    enum FieldName: Int, CaseIterable {
        case `class`, keys, objects, time, uuidBytes, base, relative, classes, classname

        var text: String {
            switch self {
            case .class: return Field.class
            case .keys: return Field.keys
            case .objects: return Field.objects
            case .time: return Field.time
            case .uuidBytes: return Field.uuidBytes
            case .base: return Field.base
            case .relative: return Field.relative
            case .classes: return Field.classes
            case .classname: return Field.classname
            }
        }
    }

    init(objectCount: Int, expectedScalars: Int, limits: WriterLimits) throws(PropertyListError) {
        table = try BinaryObjectTable(limits: limits, expectedScalars: expectedScalars)
        uidNumbers = [Int](repeating: -1, count: objectCount)
    }

    /// A string value at `depth`.
    mutating func string(_ text: String, depth: Int) throws(PropertyListError) -> Int {
        try table.charge(depth: depth, payload: text.utf8.count)
        return table.unique(.string(text))
    }

    /// A UID value at `depth`.
    mutating func uid(_ uid: UInt32, depth: Int) throws(PropertyListError) -> Int {
        try table.charge(depth: depth, payload: 0)
        let known = uidNumbers[Int(uid)]
        if known >= 0 { return known }
        // Only UIDs equal UIDs, and each is numbered here once.
        let number = table.appendUnshared(.uid(uid))
        uidNumbers[Int(uid)] = number
        return number
    }

    /// A field name, the key of a dictionary entry at `depth`.
    private mutating func field(_ name: FieldName, depth: Int) throws(PropertyListError) -> Int {
        let text = name.text
        try table.charge(depth: depth, payload: text.utf8.count)
        let known = fieldNumbers[name.rawValue]
        if known >= 0 { return known }
        let number = table.unique(.string(text))
        fieldNumbers[name.rawValue] = number
        return number
    }

    /// An object's dictionary at `depth` with the field names given (in UTF-16
    /// order) as its keys; returns its number and the slot of its first value.
    private mutating func dictionary(_ first: FieldName, _ second: FieldName? = nil, _ third: FieldName? = nil,
                                     depth: Int) throws(PropertyListError) -> (number: Int, values: Int) {
        let count = third != nil ? 3 : second != nil ? 2 : 1
        let dictionary = try table.dictionary(count: count, depth: depth)
        table.refer(dictionary.slots, to: try field(first, depth: depth + 1))
        if let second { table.refer(dictionary.slots + 1, to: try field(second, depth: depth + 1)) }
        if let third { table.refer(dictionary.slots + 2, to: try field(third, depth: depth + 1)) }
        return (dictionary.number, dictionary.slots + count)
    }

    /// An array of the UIDs `references[start ..< start + count]` at `depth`.
    private mutating func uids(_ references: [UInt32], start: Int, count: Int, depth: Int) throws(PropertyListError) -> Int {
        let array = try table.array(count: count, depth: depth)
        for position in 0..<count {
            table.refer(array.slots + position, to: try uid(references[start + position], depth: depth + 1))
        }
        return array.number
    }

    /// One entry of `$objects`, at `depth`.
    mutating func object(_ object: ArchiveObject, references: [UInt32], depth: Int) throws(PropertyListError) -> Int {
        switch object {
        case .nullString:
            return try string(Field.nullObject, depth: depth)
        case .scalar(let scalar):
            try table.charge(depth: depth, payload: scalar.payloadBytes)
            return table.unique(scalar)
        case .null(let classUID):
            let entry = try dictionary(.class, depth: depth)
            table.refer(entry.values, to: try uid(classUID, depth: depth + 1))
            return entry.number
        case .date(let seconds, let classUID):
            let entry = try dictionary(.class, .time, depth: depth)
            table.refer(entry.values, to: try uid(classUID, depth: depth + 1))
            try table.charge(depth: depth + 1, payload: 0)
            table.refer(entry.values + 1, to: table.unique(.real(seconds)))
            return entry.number
        case .uuid(let bytes, let classUID):
            let entry = try dictionary(.class, .uuidBytes, depth: depth)
            table.refer(entry.values, to: try uid(classUID, depth: depth + 1))
            try table.charge(depth: depth + 1, payload: bytes.count)
            table.refer(entry.values + 1, to: table.unique(.data(bytes)))
            return entry.number
        case .url(let base, let relative, let classUID):
            let entry = try dictionary(.class, .base, .relative, depth: depth)
            table.refer(entry.values, to: try uid(classUID, depth: depth + 1))
            table.refer(entry.values + 1, to: try uid(base, depth: depth + 1))
            table.refer(entry.values + 2, to: try uid(relative, depth: depth + 1))
            return entry.number
        case .list(let start, let count, let classUID):
            let entry = try dictionary(.class, .objects, depth: depth)
            table.refer(entry.values, to: try uid(classUID, depth: depth + 1))
            table.refer(entry.values + 1, to: try uids(references, start: start, count: count, depth: depth + 1))
            return entry.number
        case .dictionary(let start, let count, let classUID):
            let entry = try dictionary(.class, .keys, .objects, depth: depth)
            table.refer(entry.values, to: try uid(classUID, depth: depth + 1))
            table.refer(entry.values + 1, to: try uids(references, start: start, count: count, depth: depth + 1))
            table.refer(entry.values + 2, to: try uids(references, start: start + count, count: count, depth: depth + 1))
            return entry.number
        case .classEntry(let archiveClass):
            let entry = try dictionary(.classes, .classname, depth: depth)
            let chain = archiveClass.chain
            let names = try table.array(count: chain.count, depth: depth + 1)
            for (position, name) in chain.enumerated() {
                table.refer(names.slots + position, to: try string(name, depth: depth + 2))
            }
            table.refer(entry.values, to: names.number)
            table.refer(entry.values + 1, to: try string(archiveClass.rawValue, depth: depth + 1))
            return entry.number
        }
    }
}
