public import FoundationEssentials
@_spi(ByteKit) public import PropertyList
public import UserInfo

/// Any NSKeyedArchiver archive, of any classes, as a graph of objects
/// (Specs/keyed-archive.md, "Graph"): for forensic and debugging use, where
/// ``KeyedArchiveReader`` (the ten userInfo classes only) refuses.
///
/// Objects keep their numbers in `$objects`; references are those numbers
/// (0 is nil), so a shared object appears once and cycles are plain numbers.
/// Foundation's value classes (strings, numbers, data, dates, arrays,
/// dictionaries, sets, UUIDs, URLs, NSNull, and their mutable forms) are
/// rendered as values; any other object keeps its class chain and its fields
/// as archived, UIDs standing for references. Reading is one pass over
/// `$objects`, so no archive, however deep or cyclic, costs more than its size.
///
/// ```swift
/// let graph = try KeyedArchiveGraph(reading: data)
/// print(graph.rendered())          // a property-list value: root and objects
/// ```
public struct KeyedArchiveGraph: Sendable, Hashable {
    /// One object of `$objects`.
    public enum Node: Sendable, Hashable {
        /// Object 0, `$null`: what reference 0 names.
        case nilObject
        /// A plain value stored inline in `$objects` (a string, number, boolean, data…).
        case value(PropertyListValue)
        /// NSString / NSMutableString.
        case string(String)
        /// NSData / NSMutableData.
        case data(Data)
        /// NSDate.
        case date(Date)
        /// NSUUID.
        case uuid(UUID)
        /// NSNull.
        case null
        /// NSURL: references to its relative string and its base (0 for none).
        case url(relative: Int, base: Int)
        /// NSArray / NSMutableArray: references to the elements.
        case array([Int])
        /// NSSet / NSMutableSet: references to the members.
        case set([Int])
        /// NSDictionary / NSMutableDictionary: references to the keys and to the values, pairwise.
        case dictionary(keys: [Int], values: [Int])
        /// Any other object: the number of its class entry, that entry's class
        /// chain (most specific first, shared by every object of the class) and
        /// its fields, as archived (a UID field is a reference).
        case object(classEntry: Int, classes: [String], fields: PropertyListDictionary)
        /// A class entry (`$classname`, `$classes`), named by objects' `$class`.
        case classEntry([String])
    }

    /// The objects, numbered as in `$objects` (0 is `$null`).
    public var objects: [Node]
    /// `$top` as archived, every key kept (`root` for an archive of one object,
    /// `State` in Xcode's `.xcuserstate`, `IB.objectdata` and
    /// `IB.systemFontUpdateVersion` in a compiled nib): a UID stands for a
    /// reference to an object (each names one), anything else is a plain value.
    public var top: PropertyListDictionary
    /// The number of the object `$top`'s `root` (or legacy `$$0`) key names,
    /// the object ``KeyedArchiveReader`` decodes; nil when `$top` has no such
    /// reference.
    public var root: Int?

    /// Reads a binary property list holding an archive.
    ///
    /// - Throws: ``UserInfoError``: the property list's errors, the archive's
    ///   structural rules (`missingArchiveKey` … `nilRoot`), ``ErrorCode/badReference``,
    ///   ``ErrorCode/missingClass``, ``ErrorCode/inconsistentClass``,
    ///   ``ErrorCode/missingField``, ``ErrorCode/wrongFieldType``,
    ///   ``ErrorCode/keysObjectsMismatch``, ``ErrorCode/invalidDate``.
    public init(reading data: Data, limits: PropertyListLimits = .default) throws(UserInfoError) {
        let plist: PropertyListValue
        do throws(PropertyListError) {
            try limits.validate()
            plist = try BinaryPropertyListReader(limits: limits).read(data)
        } catch {
            throw UserInfoError(error)
        }
        try self.init(archive: plist)
    }

    /// Reads an archive from its property-list value.
    public init(archive: PropertyListValue) throws(UserInfoError) {
        let (objects, top) = try ArchiveDecoder.archiveStructure(archive)
        var references = ReferenceCheck(count: objects.count)
        // badReference: every UID in $top names an object.
        for (key, value) in top {
            try references.check(value, field: "$top.\(key)", of: 0)
        }
        var root: Int?
        for key in [Field.root, Field.legacyRoot] {
            guard case .uid(let uid)? = top[key] else { continue }
            // nilRoot: the root names an object. NSKeyedUnarchiver reads any
            // "$null" string object as nil, as the ten-type reader does (found
            // by the keyed-decode oracle).
            guard uid != 0, objects[Int(uid)].stringValue != Field.nullObject else {
                throw UserInfoError(.nilRoot, "the root is nil")
            }
            root = Int(uid)
            break
        }
        self.top = top
        self.root = root
        var nodes: [Node] = [.nilObject]
        nodes.reserveCapacity(objects.count)
        var classes: [Int: [String]] = [:]
        for index in 1..<objects.count {
            nodes.append(try Self.node(objects[index], index: index, objects: objects, classes: &classes, referenceCheck: &references))
        }
        self.objects = nodes
    }

    /// One object: a class entry, a known Foundation object, any other object, or an inline value.
    private static func node(_ object: PropertyListValue, index: Int, objects: [PropertyListValue],
                             classes: inout [Int: [String]], referenceCheck: inout ReferenceCheck) throws(UserInfoError) -> Node {
        guard case .dictionary(var fields) = object else {
            // An inline value; a UID here references nothing (unexpectedObjectType).
            if case .uid = object { throw UserInfoError(.unexpectedObjectType, "object \(index) is a bare UID", objectIndex: index) }
            return .value(object)
        }
        if fields[Field.classname] != nil {
            return .classEntry(try classChain(index, objects: objects))
        }
        // missingClass: every object dictionary names its class.
        guard let classReference = fields[Field.class] else {
            throw UserInfoError(.missingClass, "object \(index) has no $class", objectIndex: index)
        }
        let chain = try resolve(classReference, of: index, objects: objects, classes: &classes)
        let entry = Int(classReference.uidValue!)
        fields[Field.class] = nil
        // Every UID in the fields names an object.
        for (name, value) in fields {
            try referenceCheck.check(value, field: name, of: index)
        }
        func reference(_ name: String) throws(UserInfoError) -> Int {
            guard case .uid(let uid)? = fields[name] else {
                throw UserInfoError(fields[name] == nil ? .missingField : .wrongFieldType, "\(name) is not a reference", objectIndex: index)
            }
            return Int(uid)
        }
        func references(_ name: String) throws(UserInfoError) -> [Int] {
            guard case .array(let values)? = fields[name] else {
                throw UserInfoError(fields[name] == nil ? .missingField : .wrongFieldType, "\(name) is not an array of references", objectIndex: index)
            }
            var result: [Int] = []
            result.reserveCapacity(values.count)
            for value in values {
                guard case .uid(let uid) = value else { throw UserInfoError(.wrongFieldType, "\(name) holds a \(value.typeName), not a reference", objectIndex: index) }
                result.append(Int(uid))
            }
            return result
        }
        switch ArchiveClass(rawValue: chain[0]) {
        case .array?, .mutableArray?:
            return .array(try references(Field.objects))
        case .set?, .mutableSet?:
            return .set(try references(Field.objects))
        case .dictionary?, .mutableDictionary?:
            let keys = try references(Field.keys), values = try references(Field.objects)
            // keysObjectsMismatch
            guard keys.count == values.count else {
                throw UserInfoError(.keysObjectsMismatch, "NS.keys has \(keys.count) references, NS.objects \(values.count)", objectIndex: index)
            }
            return .dictionary(keys: keys, values: values)
        case .string?, .mutableString?:
            switch fields[Field.string] {
            case .string(let string)?: return .string(string)
            case .data(let bytes)?:
                guard let string = String(validating: bytes, as: UTF8.self) else {
                    throw UserInfoError(.wrongFieldType, "NS.string holds bytes that are not UTF-8", objectIndex: index)
                }
                return .string(string)
            default: throw UserInfoError(.missingField, "NSString object \(index) has no NS.string", objectIndex: index)
            }
        case .data?, .mutableData?:
            guard case .data(let bytes)? = fields[Field.data] else { throw UserInfoError(.missingField, "NSData object \(index) has no NS.data", objectIndex: index) }
            return .data(bytes)
        case .date?:
            let seconds: Double
            switch fields[Field.time] {
            case .real(let real)?: seconds = real
            case .integer(let integer)?: seconds = Double(integer.int64Value ?? 0)
            default: throw UserInfoError(.missingField, "NSDate object \(index) has no NS.time", objectIndex: index)
            }
            // invalidDate
            guard PropertyListValue.isValidDate(seconds) else { throw UserInfoError(.invalidDate, "NS.time is \(seconds)", objectIndex: index) }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uuid?:
            guard case .data(let bytes)? = fields[Field.uuidBytes], bytes.count == 16 else {
                throw UserInfoError(.wrongFieldType, "NS.uuidbytes is not 16 bytes", objectIndex: index)
            }
            let b = [UInt8](bytes)
            return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
        case .url?:
            let base = fields[Field.base] == nil ? 0 : try reference(Field.base)
            return .url(relative: try reference(Field.relative), base: base)
        case .null?:
            return .null
        case nil:
            return .object(classEntry: entry, classes: chain, fields: fields)
        }
    }

    /// The class chain of the class entry `$class` names.
    private static func resolve(_ reference: PropertyListValue, of index: Int, objects: [PropertyListValue],
                                classes: inout [Int: [String]]) throws(UserInfoError) -> [String] {
        guard case .uid(let raw) = reference else {
            throw UserInfoError(.wrongFieldType, "$class is a \(reference.typeName), not a UID", objectIndex: index)
        }
        let entry = Int(raw)
        // badReference / missingClass
        guard entry < objects.count else { throw UserInfoError(.badReference, "$class refers to object \(entry), but there are \(objects.count)", objectIndex: index) }
        guard entry != 0 else { throw UserInfoError(.missingClass, "$class is nil", objectIndex: index) }
        if let chain = classes[entry] { return chain }
        let chain = try classChain(entry, objects: objects)
        classes[entry] = chain
        return chain
    }

    /// A class entry's chain: `$classname` first in `$classes`, strings only.
    private static func classChain(_ entry: Int, objects: [PropertyListValue]) throws(UserInfoError) -> [String] {
        // inconsistentClass
        guard case .dictionary(let fields) = objects[entry], case .string(let name)? = fields[Field.classname],
              case .array(let values)? = fields[Field.classes], !values.isEmpty,
              fields.keys.allSatisfy({ [Field.classname, Field.classes, Field.classhints].contains($0) }) else {
            throw UserInfoError(.inconsistentClass, "object \(entry) is not a class entry ($classname, $classes)", objectIndex: entry)
        }
        let chain = values.compactMap(\.stringValue)
        guard chain.count == values.count, chain.first == name, Set(chain).count == chain.count else {
            throw UserInfoError(.inconsistentClass, "class entry \(entry) for \(name) has a malformed chain", objectIndex: entry)
        }
        return chain
    }

    // MARK: As a userInfo value

    /// The userInfo value rooted at `index` (the root by default), when the
    /// objects under it are all of the ten userInfo classes and nest at most
    /// `PropertyListLimits.maxSupportedDepth` deep (so never through a cycle);
    /// nil otherwise, and nil without an index for an archive with no root.
    /// It equals what ``KeyedArchiveReader`` reads from the same archive
    /// wherever both read it (`KeyedArchiveGraphTests`, the keyed-decode fuzz
    /// oracle).
    ///
    /// Each object is resolved once, with an explicit stack, and a shared
    /// object is one value wherever it is used; its expanded size is counted
    /// at every place, as the readers count it (Specs/keyed-archive.md,
    /// "Graph"), so the cost is linear in the archive whatever its sharing.
    ///
    /// - Parameter maxExpandedBytes: the budget of the value's expanded size:
    ///   the input's (`PropertyListLimits.expansionBudget(inputBytes:)`) for
    ///   an archive that was read.
    /// - Throws: ``UserInfoError`` ``ErrorCode/expansionLimitExceeded`` when the
    ///   value would expand past `maxExpandedBytes`.
    public func userInfoValue(at index: Int? = nil,
                              maxExpandedBytes: Int = PropertyListLimits.default.maxExpandedBytes) throws(UserInfoError) -> UserInfoValue? {
        guard let start = index ?? root, start >= 0, start < objects.count else { return nil }
        var resolver = UserInfoResolver(objects: objects, budget: maxExpandedBytes)
        guard let resolved = try resolver.resolve(start), resolved.height <= PropertyListLimits.maxSupportedDepth else { return nil }
        return resolved.value
    }

    // MARK: Rendering

    /// The graph as one property-list value, for printing and JSON:
    /// `{"top": {KEY: …}, "objects": {"N": …}}` (`$top`'s keys in their own
    /// order, `{"root": {"$ref": N}}` for an archive of one object), each object
    /// rendered as its value (Foundation value classes) or as its fields with
    /// `"$class": {"$ref": N}`, N its class entry, which is rendered once as
    /// `{"$classname": …, "$classes": […]}` (a chain repeated per object made the
    /// output grow with objects × chain: 43 MB of JSON from 23 KB), each
    /// reference as `{"$ref": N}` (`{"$ref": 0}` is nil). With `plainJSON`, data
    /// and dates are written as `{"$data": base64}` and `{"$date": ISO 8601}`,
    /// which plain JSON can hold. The rendering is linear in the archive.
    ///
    /// - Parameter limits: the bound of the rendering's expanded size,
    ///   `limits.maxExpandedBytes` (plistkit passes the input's budget);
    ///   unbounded by default.
    /// - Throws: ``UserInfoError`` ``ErrorCode/expansionLimitExceeded`` when the
    ///   rendering's expanded size passes `limits.maxExpandedBytes`
    ///   (Specs/value-model.md, "Expanded size").
    public func rendered(plainJSON: Bool = false, limits: WriterLimits = WriterLimits(maxExpandedBytes: .max)) throws(UserInfoError) -> PropertyListValue {
        let maxExpandedBytes = limits.maxExpandedBytes
        func ref(_ index: Int) -> PropertyListValue { .dictionary(["$ref": .integer(PropertyListInteger(index))]) }
        /// A scalar as plain JSON holds it (data and dates as objects, a UID as a reference).
        func plain(_ value: PropertyListValue) -> PropertyListValue {
            switch value {
            case .data(let data): return .dictionary(["$data": .string(data.base64EncodedString())])
            case .date(let date): return .dictionary(["$date": .string(CivilTime.iso8601(secondsSinceReference: date.timeIntervalSinceReferenceDate) ?? "")])
            case .uid(let uid): return ref(Int(uid))
            default: return value
            }
        }
        // Field values through the one bounded walk (Specs/architecture.md,
        // "One bounded walk"): a value shared between fields converts once and
        // stays shared. UIDs become references; with plainJSON, data and dates
        // become objects too.
        var conversion = TreeConversion<PropertyListValue, PropertyListValue>()
        func convert(_ value: PropertyListValue) -> PropertyListValue {
            do {
                return try conversion.run(value) { (leaf: PropertyListValue) throws(PropertyListError) -> PropertyListValue in
                    if case .uid(let uid) = leaf { return ref(Int(uid)) }
                    return plainJSON ? plain(leaf) : leaf
                } array: { (members) throws(PropertyListError) in .array(members) } dictionary: { (keys, members) throws(PropertyListError) in
                    .dictionary(PropertyListDictionary(uniqueKeysWithValues: zip(keys, members)))
                }
            } catch {
                preconditionFailure("a conversion that throws nothing threw \(error)")
            }
        }
        func scalar(_ value: PropertyListValue) -> PropertyListValue { plainJSON ? convert(value) : value }
        func field(_ value: PropertyListValue) -> PropertyListValue { convert(value) }
        var rendered = PropertyListDictionary()
        for (index, node) in objects.enumerated() {
            let value: PropertyListValue
            switch node {
            case .nilObject: continue
            case .classEntry(let chain):
                value = .dictionary(["$classname": .string(chain[0]), "$classes": .array(chain.map { .string($0) })])
            case .value(let plain): value = scalar(plain)
            case .string(let string): value = .string(string)
            case .data(let data): value = scalar(.data(data))
            case .date(let date): value = scalar(.date(date))
            case .uuid(let uuid): value = .dictionary(["$class": "NSUUID", "uuid": .string(uuid.uuidString)])
            case .null: value = .dictionary(["$class": "NSNull"])
            case .url(let relative, let base): value = .dictionary(["$class": "NSURL", "relative": ref(relative), "base": ref(base)])
            case .array(let elements): value = .array(elements.map(ref))
            case .set(let members): value = .dictionary(["$class": "NSSet", "members": .array(members.map(ref))])
            case .dictionary(let keys, let values):
                value = .dictionary(["$class": "NSDictionary", "keys": .array(keys.map(ref)), "values": .array(values.map(ref))])
            case .object(let entry, _, let fields):
                var dictionary = PropertyListDictionary()
                dictionary["$class"] = ref(entry)
                for (name, member) in fields { dictionary[name] = field(member) }
                value = .dictionary(dictionary)
            }
            rendered[String(index)] = value
        }
        var renderedTop = PropertyListDictionary()
        for (key, value) in top { renderedTop[key] = field(value) }
        let value: PropertyListValue = .dictionary(["top": .dictionary(renderedTop), "objects": .dictionary(rendered)])
        // expansionLimitExceeded: the rendering is measured as every output is,
        // through the one bounded walk.
        do throws(PropertyListError) {
            _ = try ValueWalk.expandedSize(of: value, budget: maxExpandedBytes)
        } catch {
            throw UserInfoError(.expansionLimitExceeded, "the graph's rendering expands past \(maxExpandedBytes) bytes (maxExpandedBytes)")
        }
        return value
    }
}

/// badReference: every UID in a field names an object (arrays and
/// dictionaries of UIDs included), checked through the one bounded walk
/// (Specs/architecture.md, "One bounded walk"): a value shared between
/// fields is checked once.
struct ReferenceCheck {
    let count: Int
    /// Containers checked, by storage, beside the value (which keeps the storage alive).
    private var checked: [StorageIdentity: PropertyListValue] = [:]

    init(count: Int) { self.count = count }

    mutating func check(_ value: PropertyListValue, field: String, of index: Int) throws(UserInfoError) {
        var meter = ExpansionMeter(limit: Int.max)
        var visitor = Visitor(count: count, field: field, index: index, checked: checked)
        defer { checked = visitor.checked }
        try ValueWalk.walk(value, meter: &meter, visitor: &visitor)
    }

    private struct Visitor: ValueVisitor {
        typealias Value = PropertyListValue
        typealias Failure = UserInfoError
        let count: Int
        let field: String
        let index: Int
        var checked: [StorageIdentity: PropertyListValue]

        func visit(scalar value: PropertyListValue, at place: WalkPlace, depth: Int) throws(UserInfoError) {
            guard case .uid(let uid) = value else { return }
            guard Int(uid) < count else { throw UserInfoError(.badReference, "\(field) refers to object \(uid), but there are \(count)", objectIndex: index) }
        }

        func enter(_ value: PropertyListValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) -> Bool {
            container.identity.map { checked[$0] == nil } ?? true
        }

        mutating func leave(_ value: PropertyListValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) {
            if let identity = container.identity { checked[identity] = value }
        }
    }
}
