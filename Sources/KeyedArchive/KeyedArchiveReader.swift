public import FoundationEssentials
public import PropertyList

/// Reads NSKeyedArchiver archives of userInfo values strictly: the archives
/// Apple's system writes for a Handoff `userInfo` (and Linux Foundation's),
/// with their mutable variants and class chains, and nothing else.
///
/// Every refusal is a ``UserInfoError`` naming the rule, the object index and
/// the key path. No input crashes or hangs the reader: object references are
/// checked before use, cycles are refused, shared objects are decoded once,
/// and ``PropertyListLimits`` bound depth, collection sizes and the size of
/// the tree shared references describe. See `Specs/keyed-archive.md`, "Reader".
///
/// ```swift
/// let userInfo = try KeyedArchiveReader().read(data)
/// ```
public struct KeyedArchiveReader: Sendable {
    /// Bounds for the property list and for the object graph.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) {
        self.limits = limits
    }

    /// Decodes a keyed archive given as a binary property list.
    public func read(_ data: Data) throws(UserInfoError) -> UserInfoValue {
        let plist: PropertyListValue
        do {
            plist = try BinaryPropertyListReader(limits: limits).read(data)
        } catch {
            throw UserInfoError(error)
        }
        return try unarchive(plist)
    }

    /// Decodes a keyed archive from its property-list value.
    public func unarchive(_ archive: PropertyListValue) throws(UserInfoError) -> UserInfoValue {
        var decoder = try ArchiveDecoder(archive, limits: limits)
        return try decoder.decodeRoot()
    }

    /// True when `plist` looks like a keyed archive (a dictionary with `$archiver`),
    /// which is how decoding tells the keyed-archive profile from the plain one.
    public static func isArchive(_ plist: PropertyListValue) -> Bool {
        plist.dictionaryValue?[Field.archiver] != nil
    }
}

/// The decoding state of one archive.
struct ArchiveDecoder {
    private let objects: [PropertyListValue]
    private let limits: PropertyListLimits
    private let rootReference: PropertyListValue

    private enum Slot {
        case unvisited
        case inProgress
        case done(UserInfoValue?, nodes: Int, height: Int)
    }
    private var slots: [Slot]
    private var referenced: [Bool]
    private var resolvedClasses: [Int: ArchiveClass] = [:]

    /// What a reference site needs the referenced object to be.
    private enum Expectation {
        case any, string, url
        var name: String {
            switch self {
            case .any: return "a value"
            case .string: return "a string"
            case .url: return "a URL"
            }
        }
    }

    /// Checks the archive's top-level structure (Specs: "Archive").
    init(_ archive: PropertyListValue, limits: PropertyListLimits) throws(UserInfoError) {
        self.limits = limits
        guard case .dictionary(let top) = archive else {
            throw UserInfoError(.missingArchiveKey, "a keyed archive is a dictionary, not a \(archive.typeName)")
        }
        // missingArchiveKey / unexpectedArchiveKey: exactly $archiver, $version, $top, $objects.
        for key in [Field.archiver, Field.version, Field.top, Field.objects$] where top[key] == nil {
            throw UserInfoError(.missingArchiveKey, "the archive has no \(key)")
        }
        if let extra = top.keys.first(where: { ![Field.archiver, Field.version, Field.top, Field.objects$].contains($0) }) {
            throw UserInfoError(.unexpectedArchiveKey, "the archive has an unexpected top-level key \"\(extra)\"")
        }
        // wrongArchiver
        guard case .string(let archiver) = top[Field.archiver]!, archiver == Field.archiverName else {
            throw UserInfoError(.wrongArchiver, "$archiver is not \"NSKeyedArchiver\"")
        }
        // wrongVersion
        guard case .integer(let version) = top[Field.version]!, version.int64Value == Int64(Field.archiveVersion) else {
            throw UserInfoError(.wrongVersion, "$version is not 100000")
        }
        // badObjects: an array whose first object is the string "$null".
        guard case .array(let objects) = top[Field.objects$]!, let first = objects.first,
              case .string(let null) = first, ExactString.equal(null, Field.nullObject) else {
            throw UserInfoError(.badObjects, "$objects is not an array starting with \"$null\"")
        }
        // badTop: one root key, "root" (or the legacy "$$0"), holding a UID.
        guard case .dictionary(let topObject) = top[Field.top]!, topObject.count == 1,
              let key = topObject.keys.first, key == Field.root || key == Field.legacyRoot,
              case .uid = topObject[key]! else {
            throw UserInfoError(.badTop, "$top is not a dictionary with one root key holding a UID")
        }
        self.objects = objects
        self.rootReference = topObject[key]!
        self.slots = Array(repeating: .unvisited, count: objects.count)
        self.referenced = Array(repeating: false, count: objects.count)
        referenced[0] = true
    }

    /// Decodes the root object and checks that every object was used.
    mutating func decodeRoot() throws(UserInfoError) -> UserInfoValue {
        guard let root = try resolve(rootReference, depth: 0, expecting: .any, field: "$top.root") else {
            throw UserInfoError(.nilRoot, "the root object is nil")
        }
        // unreferencedObject: every object is reachable from the root.
        if let orphan = referenced.firstIndex(of: false) {
            throw UserInfoError(.unreferencedObject, "object \(orphan) is not referenced from the root", objectIndex: orphan)
        }
        return root.value
    }

    // MARK: References

    /// Follows a reference held in `field`; nil for UID 0 or the `$null` object.
    private mutating func resolve(_ reference: PropertyListValue, depth: Int, expecting expectation: Expectation,
                                  field: String, in owner: Int? = nil) throws(UserInfoError) -> (value: UserInfoValue, nodes: Int, height: Int)? {
        guard case .uid(let raw) = reference else {
            throw UserInfoError(.wrongFieldType, "\(field) holds a \(reference.typeName), not a UID", objectIndex: owner)
        }
        let index = Int(raw)
        // uidOutOfRange
        guard index < objects.count else {
            throw UserInfoError(.uidOutOfRange, "\(field) refers to object \(index), but there are \(objects.count)", objectIndex: owner)
        }
        referenced[index] = true
        if index == 0 { return nil }
        let (value, nodes, height) = try decodeObject(index, depth: depth)
        guard let value else { return nil }
        // The expected type is checked at every reference, also for shared objects.
        switch (expectation, value) {
        case (.any, _), (.string, .string), (.url, .url): break
        default:
            throw UserInfoError(expectation == .string && field.hasPrefix("NS.keys") ? .nonStringKey : .wrongFieldType,
                                "\(field) refers to a \(value.typeName), not \(expectation.name)", objectIndex: index)
        }
        return (value, nodes, height)
    }

    /// Decodes object `index` at container depth `depth`; nil for the `$null` string.
    private mutating func decodeObject(_ index: Int, depth: Int) throws(UserInfoError) -> (UserInfoValue?, nodes: Int, height: Int) {
        switch slots[index] {
        case .done(let value, let nodes, let height):
            // depthLimitExceeded: a shared object reused deeper than first decoded.
            guard depth + height <= limits.maxDepth else {
                throw UserInfoError(.depthLimitExceeded, "objects nest deeper than \(limits.maxDepth)", objectIndex: index)
            }
            return (value, nodes, height)
        case .inProgress:
            // cyclicReference
            throw UserInfoError(.cyclicReference, "object \(index) contains itself", objectIndex: index)
        case .unvisited:
            break
        }
        slots[index] = .inProgress
        let result: (UserInfoValue?, nodes: Int, height: Int)
        switch objects[index] {
        case .string(let string):
            // NSKeyedUnarchiver reads any "$null" string object as nil.
            result = (ExactString.equal(string, Field.nullObject) ? nil : .string(string), 1, 0)
        case .integer(let integer): result = (.number(.integer(integer)), 1, 0)
        case .real(let real): result = (.number(.real(real)), 1, 0)
        case .bool(let flag): result = (.number(.bool(flag)), 1, 0)
        case .data(let data): result = (.data(data), 1, 0)
        case .dictionary(let fields):
            let (value, nodes, height) = try decodeInstance(index, fields, depth: depth)
            result = (value, nodes, height)
        case let other:
            // unexpectedObjectType: NSKeyedArchiver writes no inline UID, date, array or null.
            throw UserInfoError(.unexpectedObjectType, "object \(index) is an inline \(other.typeName), which no userInfo value is archived as", objectIndex: index)
        }
        slots[index] = .done(result.0, nodes: result.nodes, height: result.height)
        return result
    }

    /// Decodes an object dictionary (an instance with a `$class`).
    private mutating func decodeInstance(_ index: Int, _ fields: PropertyListDictionary, depth: Int) throws(UserInfoError) -> (UserInfoValue, nodes: Int, height: Int) {
        // missingClass
        guard let classReference = fields[Field.class] else {
            throw UserInfoError(.missingClass, "object \(index) has no $class", objectIndex: index)
        }
        let archiveClass = try resolveClass(classReference, of: index)
        // unexpectedField: NS. and $ fields are the class's own; other keys are ignored, as NSKeyedUnarchiver does.
        for key in fields.keys where key != Field.class && (key.hasPrefix("NS.") || key.hasPrefix("$")) {
            guard archiveClass.fields.contains(key) else {
                throw UserInfoError(.unexpectedField, "\(archiveClass.rawValue) has no field \(key)", objectIndex: index)
            }
        }
        switch archiveClass {
        case .array, .mutableArray:
            return try decodeArray(index, fields, depth: depth)
        case .set, .mutableSet:
            return try decodeSet(index, fields, depth: depth)
        case .dictionary, .mutableDictionary:
            return try decodeDictionary(index, fields, depth: depth)
        case .string, .mutableString:
            guard case .string(let string) = try field(Field.string, of: fields, index) else {
                throw UserInfoError(.wrongFieldType, "NS.string is not a string", objectIndex: index)
            }
            return (.string(string), 1, 0)
        case .data, .mutableData:
            guard case .data(let data) = try field(Field.data, of: fields, index) else {
                throw UserInfoError(.wrongFieldType, "NS.data is not data", objectIndex: index)
            }
            return (.data(data), 1, 0)
        case .date:
            // wrongFieldType / invalidDate: NS.time is a finite real.
            guard case .real(let seconds) = try field(Field.time, of: fields, index) else {
                throw UserInfoError(.wrongFieldType, "NS.time is not a real", objectIndex: index)
            }
            guard seconds.isFinite else {
                throw UserInfoError(.invalidDate, "NS.time is \(seconds)", objectIndex: index)
            }
            return (.date(Date(timeIntervalSinceReferenceDate: seconds)), 1, 0)
        case .uuid:
            // wrongFieldType: NS.uuidbytes is exactly 16 bytes.
            guard case .data(let bytes) = try field(Field.uuidBytes, of: fields, index), bytes.count == 16 else {
                throw UserInfoError(.wrongFieldType, "NS.uuidbytes is not 16 bytes of data", objectIndex: index)
            }
            let b = Array(bytes)
            let uuid = UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
            return (.uuid(uuid), 1, 0)
        case .null:
            return (.null, 1, 0)
        case .url:
            return try decodeURL(index, fields, depth: depth)
        }
    }

    private mutating func decodeArray(_ index: Int, _ fields: PropertyListDictionary, depth: Int) throws(UserInfoError) -> (UserInfoValue, nodes: Int, height: Int) {
        try checkDepth(depth + 1, index)
        let references = try referenceList(Field.objects, of: fields, index)
        var elements: [UserInfoValue] = []
        elements.reserveCapacity(references.count)
        var nodes = 1, height = 0
        for (position, reference) in references.enumerated() {
            do {
                let member = try member(reference, depth: depth + 1, field: "NS.objects[\(position)]", owner: index)
                elements.append(member.value)
                nodes = try add(nodes, member.nodes, index)
                height = max(height, member.height)
            } catch {
                throw error.inside(.index(position))
            }
        }
        return (.array(elements), nodes, height + 1)
    }

    private mutating func decodeSet(_ index: Int, _ fields: PropertyListDictionary, depth: Int) throws(UserInfoError) -> (UserInfoValue, nodes: Int, height: Int) {
        try checkDepth(depth + 1, index)
        let references = try referenceList(Field.objects, of: fields, index)
        var set = UserInfoSet()
        var nodes = 1, height = 0
        for (position, reference) in references.enumerated() {
            do throws(UserInfoError) {
                let member = try member(reference, depth: depth + 1, field: "NS.objects[\(position)]", owner: index)
                // duplicateSetMember: no two exactly equal members.
                guard set.insert(member.value) else {
                    throw UserInfoError(.duplicateSetMember, "the set holds this member twice", objectIndex: index)
                }
                nodes = try add(nodes, member.nodes, index)
                height = max(height, member.height)
            } catch {
                throw error.inside(.index(position))
            }
        }
        // ambiguousSetMembers: no two members Foundation would merge.
        do { try FoundationIdentity.checkDistinct(set.members) } catch {
            var error = error
            error.objectIndex = index
            throw error
        }
        return (.set(set), nodes, height + 1)
    }

    private mutating func decodeDictionary(_ index: Int, _ fields: PropertyListDictionary, depth: Int) throws(UserInfoError) -> (UserInfoValue, nodes: Int, height: Int) {
        try checkDepth(depth + 1, index)
        let keys = try referenceList(Field.keys, of: fields, index)
        let values = try referenceList(Field.objects, of: fields, index)
        // keysObjectsMismatch
        guard keys.count == values.count else {
            throw UserInfoError(.keysObjectsMismatch, "NS.keys has \(keys.count) entries but NS.objects has \(values.count)", objectIndex: index)
        }
        var dictionary = UserInfoDictionary(minimumCapacity: keys.count)
        var nodes = 1, height = 0
        for position in keys.indices {
            guard let resolvedKey = try resolve(keys[position], depth: depth + 1, expecting: .string,
                                                field: "NS.keys[\(position)]", in: index),
                  case .string(let key) = resolvedKey.value else {
                throw UserInfoError(.nilMember, "dictionary key \(position) is nil", objectIndex: index)
            }
            let value: (value: UserInfoValue, nodes: Int, height: Int)
            do {
                value = try member(values[position], depth: depth + 1, field: "NS.objects[\(position)]", owner: index)
            } catch {
                throw error.inside(.key(key))
            }
            // duplicateKey (canonically equivalent spellings included)
            guard dictionary.insertNew(value.value, forKey: key) else {
                throw UserInfoError(.duplicateKey, "key \"\(key)\" appears more than once", objectIndex: index)
            }
            nodes = try add(nodes, 1 &+ value.nodes, index)
            height = max(height, value.height)
        }
        return (.dictionary(dictionary), nodes, height + 1)
    }

    private mutating func decodeURL(_ index: Int, _ fields: PropertyListDictionary, depth: Int) throws(UserInfoError) -> (UserInfoValue, nodes: Int, height: Int) {
        try checkDepth(depth + 1, index)
        // missingField / wrongFieldType: NS.relative refers to a string; NS.base to a URL or nil.
        guard let relative = try resolve(try field(Field.relative, of: fields, index), depth: depth + 1,
                                         expecting: .string, field: Field.relative, in: index),
              case .string(let relativeString) = relative.value else {
            throw UserInfoError(.missingField, "NS.relative is nil", objectIndex: index)
        }
        var url = UserInfoURL(relative: relativeString)
        var height = 0
        if let base = try resolve(try field(Field.base, of: fields, index), depth: depth + 1, expecting: .url,
                                  field: Field.base, in: index) {
            guard case .url(let baseURL) = base.value else { preconditionFailure("expectation checked") }
            url.base = baseURL
            height = base.height
        }
        // invalidURL: Foundation must be able to build the URL.
        guard URLSyntax.isValid(url) else {
            throw UserInfoError(.invalidURL, "\"\(relativeString)\" is not a URL Foundation can parse", objectIndex: index)
        }
        return (.url(url), 1 + url.chainLength, height + 1)
    }

    /// A collection member: any non-nil value.
    private mutating func member(_ reference: PropertyListValue, depth: Int, field: String, owner: Int) throws(UserInfoError) -> (value: UserInfoValue, nodes: Int, height: Int) {
        guard let resolved = try resolve(reference, depth: depth, expecting: .any, field: field, in: owner) else {
            // nilMember: collections hold no nil.
            throw UserInfoError(.nilMember, "\(field) is nil", objectIndex: owner)
        }
        return resolved
    }

    // MARK: Classes

    /// Resolves and checks the class entry `reference` names (Specs: "Classes").
    private mutating func resolveClass(_ reference: PropertyListValue, of index: Int) throws(UserInfoError) -> ArchiveClass {
        guard case .uid(let raw) = reference else {
            throw UserInfoError(.wrongFieldType, "$class is a \(reference.typeName), not a UID", objectIndex: index)
        }
        let entry = Int(raw)
        guard entry < objects.count else {
            throw UserInfoError(.uidOutOfRange, "$class refers to object \(entry), but there are \(objects.count)", objectIndex: index)
        }
        guard entry != 0 else {
            throw UserInfoError(.missingClass, "$class is nil", objectIndex: index)
        }
        referenced[entry] = true
        if let known = resolvedClasses[entry] { return known }
        // inconsistentClass: {$classname: string, $classes: [string…], $classhints?: [string…]}, nothing else.
        guard case .dictionary(let fields) = objects[entry],
              case .string(let name)? = fields[Field.classname],
              case .array(let chainValues)? = fields[Field.classes], !chainValues.isEmpty,
              fields.keys.allSatisfy({ [Field.classname, Field.classes, Field.classhints].contains($0) }) else {
            throw UserInfoError(.inconsistentClass, "object \(entry) is not a class entry ($classname, $classes)", objectIndex: entry)
        }
        let chain = chainValues.compactMap(\.stringValue)
        let hintValues = fields[Field.classhints].map { $0.arrayValue ?? [] } ?? []
        let hints = hintValues.compactMap(\.stringValue)
        guard chain.count == chainValues.count, hints.count == hintValues.count,
              fields[Field.classhints] == nil || fields[Field.classhints]?.arrayValue != nil,
              chain.first == name, Set(chain).count == chain.count else {
            throw UserInfoError(.inconsistentClass, "class entry \(entry) for \(name) has a malformed chain or hints", objectIndex: entry)
        }
        let resolved: ArchiveClass
        if let known = ArchiveClass(rawValue: name) {
            // inconsistentClass: the chain Apple writes for this class.
            guard chain == known.chain else {
                throw UserInfoError(.inconsistentClass, "\(name) has the class chain \(chain), not \(known.chain)", objectIndex: entry)
            }
            resolved = known
        } else if let hinted = hints.lazy.compactMap(ArchiveClass.init(rawValue:)).first(where: { chain.contains($0.rawValue) }) {
            // A class this system lacks, decoded as the allowed class its hints and chain name.
            resolved = hinted
        } else {
            // classNotAllowed
            throw UserInfoError(.classNotAllowed, "class \(name) is not one of the userInfo classes", objectIndex: index)
        }
        resolvedClasses[entry] = resolved
        return resolved
    }

    // MARK: Fields and limits

    private func field(_ name: String, of fields: PropertyListDictionary, _ index: Int) throws(UserInfoError) -> PropertyListValue {
        // missingField
        guard let value = fields[name] else {
            throw UserInfoError(.missingField, "object \(index) has no \(name)", objectIndex: index)
        }
        return value
    }

    /// An array of UIDs, bounded by the collection limit.
    private func referenceList(_ name: String, of fields: PropertyListDictionary, _ index: Int) throws(UserInfoError) -> [PropertyListValue] {
        // wrongFieldType: NS.objects and NS.keys are arrays of UIDs.
        guard case .array(let references) = try field(name, of: fields, index),
              references.allSatisfy({ $0.uidValue != nil }) else {
            throw UserInfoError(.wrongFieldType, "\(name) is not an array of UIDs", objectIndex: index)
        }
        // collectionLimitExceeded
        guard references.count <= limits.maxCollectionCount else {
            throw UserInfoError(.collectionLimitExceeded, "\(name) has \(references.count) members, over the limit of \(limits.maxCollectionCount)", objectIndex: index)
        }
        return references
    }

    private func checkDepth(_ depth: Int, _ index: Int) throws(UserInfoError) {
        // depthLimitExceeded
        guard depth <= limits.maxDepth else {
            throw UserInfoError(.depthLimitExceeded, "objects nest deeper than \(limits.maxDepth)", objectIndex: index)
        }
    }

    private func add(_ total: Int, _ more: Int, _ index: Int) throws(UserInfoError) -> Int {
        // expansionLimitExceeded: shared references may not describe more values than the limit.
        let (sum, overflow) = total.addingReportingOverflow(more)
        guard !overflow, sum <= limits.maxMaterializedNodes else {
            throw UserInfoError(.expansionLimitExceeded, "shared references expand to more than \(limits.maxMaterializedNodes) values", objectIndex: index)
        }
        return sum
    }
}
