public import FoundationEssentials
@_spi(ByteKit) public import PropertyList
public import UserInfo

/// Writes userInfo values as NSKeyedArchiver archives, the form in which
/// Apple's system archives a Handoff `userInfo`, so that Apple's
/// `NSKeyedUnarchiver` (with secure coding and the ten classes) reads them.
///
/// The archive follows what macOS's NSKeyedArchiver writes: `$archiver`,
/// `$version` 100000, `$top` with root key `root`, `$objects` starting with
/// `$null`, objects numbered in the order the archiver meets them (an
/// object, then its members, then its class entry when first needed),
/// class entries with full class chains, `NS.*` fields as Apple's classes
/// encode them, equal strings, numbers and data stored once, `NSNull` once.
/// Output is deterministic: dictionary keys in UTF-16 order, set members in
/// typed-JSON order. See `Specs/keyed-archive.md`, "Writer".
///
/// ```swift
/// let data = try KeyedArchiveWriter().write(["id": .uuid(UUID()), "page": 3])
/// ```
public struct KeyedArchiveWriter: Sendable {
    /// The bounds of what is written (``WriterLimits``): nothing deeper or
    /// larger than a reader with the same limits reads.
    public var limits: WriterLimits

    /// Creates a writer.
    public init(limits: WriterLimits = .default) {
        self.limits = limits
    }

    /// The archive as a property-list value, before serialisation.
    ///
    /// - Throws: ``UserInfoError`` with ``ErrorCode/invalidDate``,
    ///   ``ErrorCode/reservedString``, ``ErrorCode/ambiguousSetMembers``,
    ///   ``ErrorCode/invalidURL`` or ``ErrorCode/depthLimitExceeded``,
    ///   with the key path of the offending value.
    public func archive(_ value: UserInfoValue) throws(UserInfoError) -> PropertyListValue {
        try archive(value, tracing: false).archive
    }

    /// The archive serialised by `serialize`, refused
    /// (``ErrorCode/expansionLimitExceeded``) when a reader with these limits
    /// would not read the value back from the bytes: equal objects are
    /// archived once, so a deep value can be written in few bytes
    /// (Specs/value-model.md, "Writer limits", `unreadableOutput`).
    package func archiveBytes<Bytes: Collection>(
        _ value: UserInfoValue,
        serializedBy serialize: (PropertyListValue) throws(PropertyListError) -> Bytes
    ) throws(UserInfoError) -> Bytes {
        let (builder, root) = try build(value, tracing: false)
        return try serialized(builder, root: root, by: serialize)
    }

    private func serialized<Bytes: Collection>(
        _ builder: ArchiveBuilder, root: UInt32,
        by serialize: (PropertyListValue) throws(PropertyListError) -> Bytes
    ) throws(UserInfoError) -> Bytes {
        let bytes: Bytes
        do throws(PropertyListError) {
            bytes = try serialize(builder.propertyList(root: root))
        } catch {
            throw UserInfoError(error)
        }
        try checkReadable(builder, outputBytes: bytes.count)
        return bytes
    }

    /// unreadableOutput: a reader with these limits reads the archive back.
    private func checkReadable(_ builder: borrowing ArchiveBuilder, outputBytes: Int) throws(UserInfoError) {
        do { try limits.checkReadable(expandedSize: builder.meter.charged, outputBytes: outputBytes) } catch { throw UserInfoError(error.code, error.reason) }
    }

    /// The archive, and where each dictionary entry of `value` (reached
    /// through dictionaries and arrays, not sets) landed in it: what the
    /// payload cost report attributes bytes to (Specs/payload.md, "Cost report").
    package func archiveTracingEntries(_ value: UserInfoValue) throws(UserInfoError) -> (archive: PropertyListValue, entries: [ArchivedEntry]) {
        let archived = try archive(value, tracing: true)
        return (archived.archive, archived.entries)
    }

    private func archive(_ value: UserInfoValue, tracing: Bool) throws(UserInfoError) -> (archive: PropertyListValue, entries: [ArchivedEntry]) {
        let (builder, root) = try build(value, tracing: tracing)
        return (builder.propertyList(root: root), builder.trace ?? [])
    }

    /// The archive's objects, numbered.
    private func build(_ value: UserInfoValue, tracing: Bool) throws(UserInfoError) -> (builder: ArchiveBuilder, root: UInt32) {
        do {
            try limits.validate()
        } catch {
            throw UserInfoError(error)
        }
        var builder = ArchiveBuilder(maxDepth: limits.maxDepth, maxExpandedBytes: limits.maxExpandedBytes)
        if tracing { builder.trace = [] }
        let root = try builder.encode(value, depth: 0)
        return (builder, root)
    }

    /// The archive as a binary property list, the form NSKeyedArchiver writes.
    /// (For XML, write ``archive(_:)`` with the XML writer, or use `UserInfoCodec`
    /// of the DocumentFormats module.)
    public func write(_ value: UserInfoValue) throws(UserInfoError) -> Data {
        Data(try writeBytes(value))
    }

    /// The binary archive of `value`, numbered straight into the binary
    /// object table (``ArchiveBuilder/binaryArchive(root:limits:)``): the same
    /// bytes as ``archive(_:)`` written by `BinaryPropertyListWriter`, without
    /// the property-list tree. A refusal of the binary writer (a limit) is
    /// made by that tree path, so that it reads exactly as there.
    package func writeBytes(_ value: UserInfoValue) throws(UserInfoError) -> [UInt8] {
        let (builder, root) = try build(value, tracing: false)
        let bytes: [UInt8]
        do throws(PropertyListError) {
            bytes = try builder.binaryArchive(root: root, limits: .default)
        } catch {
            return try treeBytes(builder, root: root)
        }
        try checkReadable(builder, outputBytes: bytes.count)
        return bytes
    }

    /// The binary archive through the property-list tree: the reference the
    /// direct path is checked against (tests, the keyed-decode fuzz target).
    package func writeBytesThroughTree(_ value: UserInfoValue) throws(UserInfoError) -> [UInt8] {
        let (builder, root) = try build(value, tracing: false)
        return try treeBytes(builder, root: root)
    }

    private func treeBytes(_ builder: ArchiveBuilder, root: UInt32) throws(UserInfoError) -> [UInt8] {
        try serialized(builder, root: root) { archive throws(PropertyListError) in
            // The archive's own property list nests four deep, whatever the
            // userInfo's depth: it is written with the default limits.
            var writer = BinaryPropertyListWriter()
            writer.expectedScalars = builder.expectedBinaryScalars
            return try writer.writeBytes(archive)
        }
    }
}

/// A dictionary entry as archived: its key path in the userInfo value, the
/// dictionary object, and its position in that object's `NS.keys` and
/// `NS.objects` (the writers' key order).
package struct ArchivedEntry: Sendable {
    package let keyPath: PropertyListKeyPath
    package let dictionary: UInt32
    package let position: Int
}

/// An archive object as ``ArchiveBuilder`` numbers it: what its entry in
/// `$objects` holds, with the UIDs it refers to, before it is written as a
/// property list (``ArchiveBuilder/propertyList(root:)``) or straight into a
/// binary object table (``ArchiveBuilder/binaryArchive(root:limits:)``).
enum ArchiveObject {
    /// `$null`, object 0.
    case nullString
    /// A string, number or data, stored inline.
    case scalar(PropertyListValue)
    /// `{$class}`: NSNull.
    case null(classUID: UInt32)
    /// `{$class, NS.time}`: NSDate.
    case date(seconds: Double, classUID: UInt32)
    /// `{$class, NS.uuidbytes}`: NSUUID.
    case uuid(bytes: Data, classUID: UInt32)
    /// `{$class, NS.base, NS.relative}`: NSURL (base 0 when it has none).
    case url(base: UInt32, relative: UInt32, classUID: UInt32)
    /// `{$class, NS.objects}`: NSArray or NSSet, members `references[start ..< start + count]`.
    case list(start: Int, count: Int, classUID: UInt32)
    /// `{$class, NS.keys, NS.objects}`: NSDictionary, keys `references[start ..< start + count]`, values the next `count`.
    case dictionary(start: Int, count: Int, classUID: UInt32)
    /// `{$classes, $classname}`: a class entry.
    case classEntry(ArchiveClass)
}

/// Numbers objects as NSKeyedArchiver does.
struct ArchiveBuilder {
    let maxDepth: Int
    private(set) var objects: [ArchiveObject] = [.nullString]
    /// The UIDs lists and dictionaries refer to (``ArchiveObject``).
    private(set) var references: [UInt32] = []
    /// Each class's entry, by ``ArchiveClass/ordinal`` (0: not yet appended).
    private var classes = [UInt32](repeating: 0, count: ArchiveClass.allCases.count)
    private var shared: [PropertyListValue: UInt32] = [:]
    private var nullObject: UInt32?

    private(set) var meter: ExpansionMeter
    /// The entries met so far, when tracing (``KeyedArchiveWriter/archiveTracingEntries(_:)``).
    var trace: [ArchivedEntry]?
    /// The key path of the value being encoded, and how many sets enclose it (tracing only).
    private var path: [PropertyListKeyPath.Component] = []
    private var setsAround = 0

    init(maxDepth: Int, maxExpandedBytes: Int) {
        self.maxDepth = maxDepth
        meter = ExpansionMeter(limit: maxExpandedBytes)
        // Room for a Handoff-sized userInfo's scalars without rehashing (measured:
        // growing from empty cost a sixth of archiving a 1 KB state).
        shared.reserveCapacity(64)
        objects.reserveCapacity(64)
        references.reserveCapacity(64)
    }

    /// Charges one node of the userInfo value's expanded size.
    private mutating func charge(depth: Int, payload: Int) throws(UserInfoError) {
        do { try meter.charge(depth: depth, payload: payload) } catch { throw UserInfoError(error) }
    }

    /// Encodes `value` (found at container depth `depth`) and returns its UID.
    mutating func encode(_ value: UserInfoValue, depth: Int) throws(UserInfoError) -> UInt32 {
        try charge(depth: depth, payload: value.payloadBytes)
        switch value {
        case .string(let string):
            return try encodeString(string)
        case .number, .data: return inline(value.propertyListScalar!)
        case .null:
            if let nullObject { return nullObject }
            let uid = append(.nullString)
            objects[Int(uid)] = .null(classUID: classEntry(.null))
            nullObject = uid
            return uid
        case .date(let date):
            let seconds = date.timeIntervalSinceReferenceDate
            // invalidDate: the reader refuses dates outside PropertyListValue.dateRange, so the writer does too.
            guard PropertyListValue.isValidDate(seconds) else { throw UserInfoError(.invalidDate, "date is \(seconds)") }
            let uid = append(.nullString)
            objects[Int(uid)] = .date(seconds: seconds, classUID: classEntry(.date))
            return uid
        case .uuid(let uuid):
            let uid = append(.nullString)
            objects[Int(uid)] = .uuid(bytes: Data(uuid.byteArray), classUID: classEntry(.uuid))
            return uid
        case .url(let url):
            return try encodeURL(url, depth: depth)
        case .array(let elements):
            return try encodeList(elements, as: .array, depth: depth)
        case .set(let set):
            return try encodeList(try set.canonicalMembersCheckingDistinct(), as: .set, depth: depth)
        case .dictionary(let dictionary):
            return try encodeDictionary(dictionary, depth: depth)
        }
    }

    // One function per container, so that the recursion's frames stay small
    // (in debug builds every case's locals would share one frame per level).

    /// An NSArray, or an NSSet (members in canonical order): `NS.objects` only.
    @inline(never)
    private mutating func encodeList(_ members: [UserInfoValue], as listClass: ArchiveClass, depth: Int) throws(UserInfoError) -> UInt32 {
        try enter(depth)
        let uid = append(.nullString)
        let start = references.count
        references.append(contentsOf: repeatElement(0, count: members.count))
        let tracing = trace != nil
        if tracing && listClass == .set { setsAround += 1 }
        for (position, member) in members.enumerated() {
            if tracing { path.append(.index(position)) }
            do { references[start + position] = try encode(member, depth: depth + 1) } catch { throw error.inside(.index(position)) }
            if tracing { path.removeLast() }
        }
        if tracing && listClass == .set { setsAround -= 1 }
        objects[Int(uid)] = .list(start: start, count: members.count, classUID: classEntry(listClass))
        return uid
    }

    @inline(never)
    private mutating func encodeDictionary(_ dictionary: UserInfoDictionary, depth: Int) throws(UserInfoError) -> UInt32 {
        try enter(depth)
        let uid = append(.nullString)
        let keys = dictionary.sortedKeys
        let start = references.count
        references.append(contentsOf: repeatElement(0, count: 2 * keys.count))
        // NSDictionary encodes all its keys, then all its values.
        for (position, key) in keys.enumerated() {
            do { references[start + position] = try encode(.string(key), depth: depth + 1) } catch { throw error.inside(.key(key)) }
        }
        for (position, key) in keys.enumerated() {
            if trace != nil {
                path.append(.key(key))
                if setsAround == 0 { trace!.append(ArchivedEntry(keyPath: PropertyListKeyPath(path), dictionary: uid, position: position)) }
            }
            do { references[start + keys.count + position] = try encode(dictionary[key]!, depth: depth + 1) } catch { throw error.inside(.key(key)) }
            if trace != nil { path.removeLast() }
        }
        objects[Int(uid)] = .dictionary(start: start, count: keys.count, classUID: classEntry(.dictionary))
        return uid
    }

    /// A string object (a value, a key, a URL's relative string).
    private mutating func encodeString(_ string: String) throws(UserInfoError) -> UInt32 {
        // reservedString: NSKeyedUnarchiver reads the string "$null" back as nil.
        guard !ExactString.equal(string, Field.nullObject) else {
            throw UserInfoError(.reservedString, "the string \"$null\" cannot be archived: NSKeyedUnarchiver reads it back as nil")
        }
        return inline(.string(string))
    }

    /// NSURL encodes its base first, then its relative string.
    private mutating func encodeURL(_ url: UserInfoURL, depth: Int) throws(UserInfoError) -> UInt32 {
        // invalidURL: only strings Foundation can parse as URLs.
        guard url.isValid else {
            throw UserInfoError(.invalidURL, "\"\(url.relative)\" is not a URL Foundation can parse")
        }
        try enter(depth)
        let uid = append(.nullString)
        var base: UInt32 = 0
        if let baseURL = url.base {
            // The base is a node of its own; the relative string is the URL's payload.
            try charge(depth: depth + 1, payload: baseURL.relative.utf8.count)
            base = try encodeURL(baseURL, depth: depth + 1)
        }
        let relative = try encodeString(url.relative)
        objects[Int(uid)] = .url(base: base, relative: relative, classUID: classEntry(.url))
        return uid
    }

    private func enter(_ depth: Int) throws(UserInfoError) {
        // depthLimitExceeded: never write what the reader would refuse.
        guard depth < maxDepth else { throw UserInfoError(.depthLimitExceeded, "containers nest deeper than \(maxDepth)") }
    }

    private mutating func inline(_ scalar: PropertyListValue) -> UInt32 {
        if let uid = shared[scalar] { return uid }
        let uid = append(.scalar(scalar))
        shared[scalar] = uid
        return uid
    }

    private mutating func append(_ object: ArchiveObject) -> UInt32 {
        objects.append(object)
        return UInt32(objects.count - 1)
    }

    /// About how many distinct scalars the binary archive holds, to size the
    /// binary writer's table: each object is a scalar or refers to others by
    /// UID (a scalar each).
    var expectedBinaryScalars: Int { 2 * objects.count }

    /// The UID of the class entry, appended when first needed.
    private mutating func classEntry(_ archiveClass: ArchiveClass) -> UInt32 {
        let uid = classes[archiveClass.ordinal]
        if uid != 0 { return uid }
        let appended = append(.classEntry(archiveClass))
        classes[archiveClass.ordinal] = appended
        return appended
    }
}

// MARK: - The archive as a property list

extension ArchiveBuilder {
    /// The archive as a property-list value: `$objects` from the numbered objects.
    func propertyList(root: UInt32) -> PropertyListValue {
        // Locals, not closures over `self`: a closure capturing the builder
        // copied it for every object (measured).
        let references = references
        func uids(_ start: Int, _ count: Int) -> PropertyListValue {
            var list: [PropertyListValue] = []
            list.reserveCapacity(count)
            for index in start..<(start + count) { list.append(.uid(references[index])) }
            return .array(list)
        }
        var archived: [PropertyListValue] = []
        archived.reserveCapacity(objects.count)
        for object in objects {
            switch object {
            case .nullString: archived.append(.string(Field.nullObject))
            case .scalar(let scalar): archived.append(scalar)
            case .null(let classUID): archived.append(.dictionary([Field.class: .uid(classUID)]))
            case .date(let seconds, let classUID): archived.append(.dictionary([Field.time: .real(seconds), Field.class: .uid(classUID)]))
            case .uuid(let bytes, let classUID): archived.append(.dictionary([Field.uuidBytes: .data(bytes), Field.class: .uid(classUID)]))
            case .url(let base, let relative, let classUID):
                archived.append(.dictionary([Field.base: .uid(base), Field.relative: .uid(relative), Field.class: .uid(classUID)]))
            case .list(let start, let count, let classUID):
                archived.append(.dictionary([Field.objects: uids(start, count), Field.class: .uid(classUID)]))
            case .dictionary(let start, let count, let classUID):
                archived.append(.dictionary([Field.keys: uids(start, count), Field.objects: uids(start + count, count),
                                             Field.class: .uid(classUID)]))
            case .classEntry(let archiveClass):
                archived.append(.dictionary([Field.classname: .string(archiveClass.rawValue),
                                             Field.classes: .array(archiveClass.chain.map { .string($0) })]))
            }
        }
        return .dictionary([
            Field.archiver: .string(Field.archiverName),
            Field.version: .integer(PropertyListInteger(Field.archiveVersion)),
            Field.top: .dictionary([Field.root: .uid(root)]),
            Field.objects$: .array(archived),
        ])
    }
}
