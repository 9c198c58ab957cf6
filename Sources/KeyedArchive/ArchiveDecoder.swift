import FoundationEssentials
@_spi(ByteKit) import PropertyList
import UserInfo

/// The decoding state of one archive.
struct ArchiveDecoder {
    private let objects: [PropertyListValue]
    private let limits: PropertyListLimits
    private let rootReference: PropertyListValue

    private enum Slot {
        case unvisited
        case inProgress
        case done(Resolved)
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

    /// The largest expanded size the userInfo value may have (Specs/value-model.md, "Expanded size").
    private let expansionBudget: Int

    /// Checks the archive's top-level structure (Specs: "Archive"); `inputBytes`
    /// (the archive's size, when known) sets the expansion budget.
    init(_ archive: PropertyListValue, limits: PropertyListLimits, inputBytes: Int?) throws(UserInfoError) {
        self.limits = limits
        self.expansionBudget = inputBytes.map { limits.expansionBudget(inputBytes: $0) } ?? limits.maxExpandedBytes
        let (objects, root) = try Self.archiveParts(archive)
        self.objects = objects
        self.rootReference = root
        self.slots = Array(repeating: .unvisited, count: objects.count)
        self.referenced = Array(repeating: false, count: objects.count)
        referenced[0] = true
    }

    /// Decodes the root object and checks that every object was used.
    ///
    /// The graph is walked with an explicit stack of containers, not by
    /// recursion, so no archive can exhaust the thread's stack whatever the
    /// depth limit (Specs/keyed-archive.md, "Reader").
    mutating func decodeRoot() throws(UserInfoError) -> UserInfoValue {
        var root: Resolved?
        do throws(UserInfoError) {
            switch try step(rootReference, expecting: .any, depthAbove: 0, field: .named("$top.root"), owner: nil) {
            case .value(let resolved): root = resolved
            case .pushed: break
            }
            while !stack.isEmpty {
                if let finished = try advance() { root = finished }
            }
        } catch {
            var located = error
            located.keyPath = PropertyListKeyPath(stack.compactMap(\.component) + error.keyPath.components)
            throw located
        }
        guard let root, let value = root.value else {
            throw UserInfoError(.nilRoot, "the root object is nil")
        }
        // unreferencedObject: every object is reachable from the root.
        if let orphan = referenced.firstIndex(of: false) {
            throw UserInfoError(.unreferencedObject, "object \(orphan) is not referenced from the root", objectIndex: orphan)
        }
        return value
    }

    /// A decoded object: its value (nil for the `$null` string), its expanded
    /// size at relative depth 0 and node count (``ExpandedSize``), and its
    /// container height.
    private struct Resolved {
        var value: UserInfoValue?
        var base: Int
        var nodes: Int
        var height: Int

        /// A leaf: one node and its payload.
        init(leaf value: UserInfoValue?) {
            self.value = value
            base = ExpandedSize.node(depth: 0, payload: value?.payloadBytes ?? 0)
            nodes = value == nil ? 0 : 1
            height = 0
        }

        init(value: UserInfoValue?, base: Int, nodes: Int, height: Int) {
            (self.value, self.base, self.nodes, self.height) = (value, base, nodes, height)
        }
    }

    /// What following a reference gave: a value now, or a container pushed on the stack.
    private enum Step {
        case value(Resolved)
        case pushed
    }

    /// A container being decoded, one member at a time.
    private struct Frame {
        enum Kind { case array, set, dictionary, url }
        let index: Int
        let kind: Kind
        /// Container depth of this object (the root container is at 1).
        let depth: Int
        /// Array and set: `NS.objects`. Dictionary: `NS.keys` then `NS.objects`. URL: `NS.base`, `NS.relative`.
        let references: [PropertyListValue]
        var position = 0
        /// The container measured at relative depth 0 (itself; members one level down).
        var base = ExpandedSize.node(depth: 0, payload: 0)
        var nodes = 1
        var height = 0
        var elements: [UserInfoValue] = []
        var set = UserInfoSet()
        var keys: [String] = []
        var dictionary = UserInfoDictionary()
        var urlBase: UserInfoURL?
        var relative: String?

        /// The number of keys of a dictionary (half its references).
        var keyCount: Int { references.count / 2 }

        /// Where the member being decoded sits, for error key paths.
        var component: PropertyListKeyPath.Component? {
            switch kind {
            case .array, .set: return position < references.count ? .index(position) : nil
            case .dictionary: return position >= keyCount && position < references.count ? .key(keys[position - keyCount]) : nil
            case .url: return nil
            }
        }

        /// The field being read, for error messages (formatted only when one is thrown).
        var field: FieldName {
            switch kind {
            case .array, .set: return .objects(position)
            case .dictionary: return position < keyCount ? .keys(position) : .objects(position - keyCount)
            case .url: return .named(position == 0 ? Field.base : Field.relative)
            }
        }

        var expectation: Expectation {
            switch kind {
            case .array, .set: return .any
            case .dictionary: return position < keyCount ? .string : .any
            case .url: return position == 0 ? .url : .string
            }
        }
    }

    private var stack: [Frame] = []

    /// A field of an archived object, named in error messages.
    private enum FieldName: CustomStringConvertible {
        case named(String)
        case keys(Int)
        case objects(Int)

        var isKey: Bool { if case .keys = self { return true }; return false }

        var description: String {
            switch self {
            case .named(let name): return name
            case .keys(let position): return "NS.keys[\(position)]"
            case .objects(let position): return "NS.objects[\(position)]"
            }
        }
    }

    /// Decodes the next member of the innermost container, or finishes it.
    /// Returns the outermost container's value when it finishes, else nil.
    private mutating func advance() throws(UserInfoError) -> Resolved? {
        let last = stack.count - 1
        if stack[last].position < stack[last].references.count {
            // Read in place: copying a frame copies its arrays' references.
            let reference = stack[last].references[stack[last].position]
            let (expectation, field) = (stack[last].expectation, stack[last].field)
            let (depth, owner) = (stack[last].depth, stack[last].index)
            switch try step(reference, expecting: expectation, depthAbove: depth, field: field, owner: owner) {
            case .value(let resolved): try deliver(resolved)
            case .pushed: break
            }
            return nil
        }
        var frame = stack.removeLast()
        let finished = try finish(&frame)
        try checkExpansion(finished, depth: frame.depth - 1, frame.index)
        slots[frame.index] = .done(finished)
        if stack.isEmpty { return finished }
        try deliver(finished)
        return nil
    }

    /// Hands a decoded member to the innermost container.
    private mutating func deliver(_ member: Resolved) throws(UserInfoError) {
        let last = stack.count - 1
        try Self.deliver(member, into: &stack[last])
        // The container so far, where it is placed (read in place: copying a frame copies its arrays).
        let (base, nodes, depth, index) = (stack[last].base, stack[last].nodes, stack[last].depth, stack[last].index)
        guard ExpandedSize.placed(base: base, nodes: nodes, depth: depth - 1) <= expansionBudget else {
            throw UserInfoError(.expansionLimitExceeded, "the value expands past \(expansionBudget) bytes (the budget for its input)", objectIndex: index)
        }
    }

    private static func deliver(_ member: Resolved, into frame: inout Frame) throws(UserInfoError) {
        /// A member one level below the container.
        func addMember(_ member: Resolved) {
            frame.base = ExpandedSize.add(frame.base, ExpandedSize.placed(base: member.base, nodes: member.nodes, depth: 1))
            frame.nodes = ExpandedSize.add(frame.nodes, member.nodes)
        }
        let field = frame.field
        switch frame.kind {
        case .array, .set:
            // nilMember: collections hold no nil.
            guard let value = member.value else { throw UserInfoError(.nilMember, "\(field) is nil", objectIndex: frame.index) }
            if frame.kind == .array {
                frame.elements.append(value)
            } else {
                // duplicateSetMember: no two exactly equal members.
                guard frame.set.insert(value) else {
                    throw UserInfoError(.duplicateSetMember, "the set holds this member twice", objectIndex: frame.index)
                }
            }
            addMember(member)
        case .dictionary:
            if frame.position < frame.keyCount {
                guard case .string(let key)? = member.value else {
                    throw UserInfoError(.nilMember, "dictionary key \(frame.position) is nil", objectIndex: frame.index)
                }
                frame.keys.append(key)
            } else {
                guard let value = member.value else { throw UserInfoError(.nilMember, "\(field) is nil", objectIndex: frame.index) }
                let key = frame.keys[frame.position - frame.keyCount]
                // duplicateKey (canonically equivalent spellings included), found
                // as the value is stored: one hash per key.
                guard frame.dictionary.insertNew(value, forKey: key) else {
                    throw UserInfoError(.duplicateKey, "key \"\(key)\" appears more than once", objectIndex: frame.index)
                }
                // The key, a node one level down, and the value.
                frame.base = ExpandedSize.add(frame.base, ExpandedSize.node(depth: 1, payload: key.utf8.count))
                frame.nodes = ExpandedSize.add(frame.nodes, 1)
                addMember(member)
            }
        case .url:
            if frame.position == 0 {
                if case .url(let base)? = member.value {
                    frame.urlBase = base
                    addMember(member)
                }
            } else {
                // missingField: NS.relative refers to a string, never nil.
                guard case .string(let relative)? = member.value else {
                    throw UserInfoError(.missingField, "NS.relative is nil", objectIndex: frame.index)
                }
                frame.relative = relative
                // The relative string is the URL's own payload, not a node.
                frame.base = ExpandedSize.add(frame.base, relative.utf8.count)
            }
        }
        frame.height = max(frame.height, member.height)
        frame.position += 1
    }

    /// The value of a container whose members are all decoded.
    private func finish(_ frame: inout Frame) throws(UserInfoError) -> Resolved {
        switch frame.kind {
        case .array:
            return Resolved(value: .array(frame.elements), base: frame.base, nodes: frame.nodes, height: frame.height + 1)
        case .set:
            // ambiguousSetMembers: no two members Foundation would merge.
            do { try frame.set.checkFoundationDistinct() } catch {
                var located = error
                located.objectIndex = frame.index
                throw located
            }
            return Resolved(value: .set(frame.set), base: frame.base, nodes: frame.nodes, height: frame.height + 1)
        case .dictionary:
            return Resolved(value: .dictionary(frame.dictionary), base: frame.base, nodes: frame.nodes, height: frame.height + 1)
        case .url:
            let url = UserInfoURL(relative: frame.relative!, base: frame.urlBase)
            // invalidURL: Foundation must be able to build the URL.
            guard url.isValid else {
                throw UserInfoError(.invalidURL, "\"\(url.relative)\" is not a URL Foundation can parse", objectIndex: frame.index)
            }
            return Resolved(value: .url(url), base: frame.base, nodes: frame.nodes, height: frame.height + 1)
        }
    }

    /// Follows a reference held in `field` of object `owner`, found inside a
    /// container at depth `depthAbove`: returns scalars and shared objects at once,
    /// and pushes a frame for a container not yet decoded.
    private mutating func step(_ reference: PropertyListValue, expecting expectation: Expectation, depthAbove: Int,
                               field: FieldName, owner: Int?) throws(UserInfoError) -> Step {
        guard case .uid(let raw) = reference else {
            throw UserInfoError(.wrongFieldType, "\(field) holds a \(reference.typeName), not a UID", objectIndex: owner)
        }
        let index = Int(raw)
        // badReference: a UID names an object of $objects.
        guard index < objects.count else {
            throw UserInfoError(.badReference, "\(field) refers to object \(index), but there are \(objects.count)", objectIndex: owner)
        }
        referenced[index] = true
        if index == 0 { return .value(Resolved(leaf: nil)) }
        switch slots[index] {
        case .done(let resolved):
            // depthLimitExceeded: a shared object reused deeper than first decoded.
            guard depthAbove + resolved.height <= limits.maxDepth else {
                throw UserInfoError(.depthLimitExceeded, "objects nest deeper than \(limits.maxDepth)", objectIndex: index)
            }
            try check(resolved.value, expectation, field, index)
            try checkExpansion(resolved, depth: depthAbove, index)
            return .value(resolved)
        case .inProgress:
            // cyclicReference
            throw UserInfoError(.cyclicReference, "object \(index) contains itself", objectIndex: index)
        case .unvisited:
            break
        }
        let value: UserInfoValue?
        switch objects[index] {
        case .string(let string):
            // NSKeyedUnarchiver reads any "$null" string object as nil.
            value = ExactString.equal(string, Field.nullObject) ? nil : .string(string)
        case .integer, .real, .bool, .data:
            value = UserInfoValue(propertyListScalar: objects[index])
        case .dictionary(let fields):
            let archiveClass = try instanceClass(index, fields)
            let kind: Frame.Kind?
            switch archiveClass {
            case .array, .mutableArray: kind = .array
            case .set, .mutableSet: kind = .set
            case .dictionary, .mutableDictionary: kind = .dictionary
            case .url: kind = .url
            default: kind = nil
            }
            if let kind {
                // The expected type is known from the class, before decoding anything under it.
                try check(kind == .url ? .url(UserInfoURL(relative: "")) : .array([]), expectation, field, index)
                let depth = depthAbove + 1
                try checkDepth(depth, index)
                let references = try containerReferences(kind, fields, index)
                slots[index] = .inProgress
                stack.append(Frame(index: index, kind: kind, depth: depth, references: references))
                return .pushed
            }
            value = try leafInstance(archiveClass, fields, index)
        case let other:
            // unexpectedObjectType: NSKeyedArchiver writes no inline UID, date, array or null.
            throw UserInfoError(.unexpectedObjectType, "object \(index) is an inline \(other.typeName), which no userInfo value is archived as", objectIndex: index)
        }
        let resolved = Resolved(leaf: value)
        slots[index] = .done(resolved)
        try check(value, expectation, field, index)
        try checkExpansion(resolved, depth: depthAbove, index)
        return .value(resolved)
    }

    /// The expected type is checked at every reference, also for shared objects.
    private func check(_ value: UserInfoValue?, _ expectation: Expectation, _ field: FieldName, _ index: Int) throws(UserInfoError) {
        guard let value else { return }
        switch (expectation, value) {
        case (.any, _), (.string, .string), (.url, .url): return
        default:
            throw UserInfoError(expectation == .string && field.isKey ? .nonStringKey : .wrongFieldType,
                                "\(field) refers to a \(value.typeName), not \(expectation.name)", objectIndex: index)
        }
    }

    /// The class of an object dictionary, after checking its fields against it.
    private mutating func instanceClass(_ index: Int, _ fields: PropertyListDictionary) throws(UserInfoError) -> ArchiveClass {
        // missingClass
        guard let classReference = fields[Field.class] else {
            throw UserInfoError(.missingClass, "object \(index) has no $class", objectIndex: index)
        }
        let archiveClass = try resolveClass(classReference, of: index)
        // unexpectedField: NS. and $ fields are the class's own; other keys are ignored, as NSKeyedUnarchiver does.
        for key in fields.keys where key != Field.class && (key.hasPrefix("NS.") || key.hasPrefix("$")) {
            guard archiveClass.reads(key) else {
                throw UserInfoError(.unexpectedField, "\(archiveClass.rawValue) has no field \(key)", objectIndex: index)
            }
        }
        return archiveClass
    }

    /// The references a container's members are read from.
    private func containerReferences(_ kind: Frame.Kind, _ fields: PropertyListDictionary, _ index: Int) throws(UserInfoError) -> [PropertyListValue] {
        switch kind {
        case .array, .set:
            return try referenceList(Field.objects, of: fields, index)
        case .dictionary:
            let keys = try referenceList(Field.keys, of: fields, index)
            let values = try referenceList(Field.objects, of: fields, index)
            // keysObjectsMismatch
            guard keys.count == values.count else {
                throw UserInfoError(.keysObjectsMismatch, "NS.keys has \(keys.count) entries but NS.objects has \(values.count)", objectIndex: index)
            }
            return keys + values
        case .url:
            // missingField: NS.base (a URL or 0) and NS.relative (a string) are both present.
            return [try field(Field.base, of: fields, index), try field(Field.relative, of: fields, index)]
        }
    }

    /// Decodes an instance of a class that holds no references.
    private func leafInstance(_ archiveClass: ArchiveClass, _ fields: PropertyListDictionary, _ index: Int) throws(UserInfoError) -> UserInfoValue {
        switch archiveClass {
        case .string, .mutableString:
            guard case .string(let string) = try field(Field.string, of: fields, index) else {
                throw UserInfoError(.wrongFieldType, "NS.string is not a string", objectIndex: index)
            }
            return .string(string)
        case .data, .mutableData:
            guard case .data(let data) = try field(Field.data, of: fields, index) else {
                throw UserInfoError(.wrongFieldType, "NS.data is not data", objectIndex: index)
            }
            return .data(data)
        case .date:
            // wrongFieldType / invalidDate: NS.time is a real within PropertyListValue.dateRange.
            guard case .real(let seconds) = try field(Field.time, of: fields, index) else {
                throw UserInfoError(.wrongFieldType, "NS.time is not a real", objectIndex: index)
            }
            guard PropertyListValue.isValidDate(seconds) else {
                throw UserInfoError(.invalidDate, "NS.time is \(seconds)", objectIndex: index)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .uuid:
            // wrongFieldType: NS.uuidbytes is exactly 16 bytes.
            guard case .data(let bytes) = try field(Field.uuidBytes, of: fields, index), bytes.count == 16 else {
                throw UserInfoError(.wrongFieldType, "NS.uuidbytes is not 16 bytes of data", objectIndex: index)
            }
            let b = Array(bytes)
            return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
        case .null:
            return .null
        case .array, .mutableArray, .set, .mutableSet, .dictionary, .mutableDictionary, .url:
            preconditionFailure("containers are decoded through frames")
        }
    }

    // MARK: Classes

    /// Resolves and checks the class entry `reference` names (Specs: "Classes").
    private mutating func resolveClass(_ reference: PropertyListValue, of index: Int) throws(UserInfoError) -> ArchiveClass {
        guard case .uid(let raw) = reference else {
            throw UserInfoError(.wrongFieldType, "$class is a \(reference.typeName), not a UID", objectIndex: index)
        }
        let entry = Int(raw)
        guard entry < objects.count else {
            throw UserInfoError(.badReference, "$class refers to object \(entry), but there are \(objects.count)", objectIndex: index)
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
        // The chain's names, looked up once per hint below: linear in chain and hints.
        let chainNames = Set(chain)
        guard chain.count == chainValues.count, hints.count == hintValues.count,
              fields[Field.classhints] == nil || fields[Field.classhints]?.arrayValue != nil,
              chain.first == name, chainNames.count == chain.count else {
            throw UserInfoError(.inconsistentClass, "class entry \(entry) for \(name) has a malformed chain or hints", objectIndex: entry)
        }
        let resolved: ArchiveClass
        if let known = ArchiveClass(rawValue: name) {
            // inconsistentClass: the chain is Apple's for this class, or a prefix of it
            // (bpylist2 writes the class alone); no foreign superclass may be claimed.
            guard known.chain.starts(with: chain) else {
                throw UserInfoError(.inconsistentClass, "\(name) has the class chain \(chain), not \(known.chain)", objectIndex: entry)
            }
            resolved = known
        } else if let hinted = hints.lazy.compactMap(ArchiveClass.init(rawValue:)).first(where: { chainNames.contains($0.rawValue) }) {
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

    /// Checks an object's expanded size where it is placed (`depth` containers above it).
    private func checkExpansion(_ resolved: Resolved, depth: Int, _ index: Int) throws(UserInfoError) {
        // expansionLimitExceeded: the value, expanded, may weigh at most the budget.
        guard ExpandedSize.placed(base: resolved.base, nodes: resolved.nodes, depth: depth) <= expansionBudget else {
            throw UserInfoError(.expansionLimitExceeded, "the value expands past \(expansionBudget) bytes (the budget for its input)", objectIndex: index)
        }
    }
}
