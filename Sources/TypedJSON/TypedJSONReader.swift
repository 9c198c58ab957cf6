public import FoundationEssentials
public import PropertyList
public import UserInfo

/// Reads the typed JSON form (`Specs/typed-json.md`) as strictly as the other
/// readers: unknown types, missing or extra fields, values of the wrong JSON
/// type, non-canonical numbers, bad base64, dates or UUIDs are errors with
/// the line, column and key path where they occur.
public struct TypedJSONReader: Sendable {
    /// Bounds: input size, depth, collection size, string length.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Reads a userInfo value (`uid` is refused: it is not a userInfo type).
    public func readUserInfo(_ data: Data) throws(UserInfoError) -> UserInfoValue {
        var converter = TypedJSONConverter(limits: limits, inputBytes: data.count)
        return try converter.userInfo(try parse(data), depth: 0)
    }

    /// Reads a property-list value (`null`, `set`, `uuid` and `url` are refused:
    /// they are not property-list types; `uid` is accepted).
    public func readPropertyList(_ data: Data) throws(UserInfoError) -> PropertyListValue {
        var converter = TypedJSONConverter(limits: limits, inputBytes: data.count)
        return try converter.propertyList(try parse(data), depth: 0)
    }

    private func parse(_ data: Data) throws(UserInfoError) -> StrictJSON.Node {
        do {
            try limits.validate()
        } catch {
            throw UserInfoError(error)
        }
        // inputTooLarge
        guard data.count <= limits.maxInputBytes else {
            throw UserInfoError(.inputTooLarge, "input is \(data.count) bytes, over the limit of \(limits.maxInputBytes)")
        }
        do {
            // Each typed level is two JSON levels (the node object and its value).
            return try StrictJSON.parse(Array(data), maxDepth: 2 * limits.maxDepth + 2, maxStringBytes: limits.maxStringBytes)
        } catch {
            throw UserInfoError(error.code, error.reason, location: .lineColumn(line: error.position.line, column: error.position.column))
        }
    }
}

/// Converts parsed JSON nodes to values.
struct TypedJSONConverter {
    let limits: PropertyListLimits
    /// The expanded size converted so far, and what it may reach (Specs/value-model.md, "Expanded size").
    private var expandedSize = 0
    private let expansionBudget: Int

    init(limits: PropertyListLimits, inputBytes: Int) {
        self.limits = limits
        self.expansionBudget = limits.expansionBudget(inputBytes: inputBytes)
    }

    private func error(_ code: ErrorCode, _ reason: String, _ node: StrictJSON.Node) -> UserInfoError {
        UserInfoError(code, reason, location: .lineColumn(line: node.position.line, column: node.position.column))
    }

    /// The `type` of a typed node, after checking its fields are exactly `allowed` (plus `type`).
    private func fields(of node: StrictJSON.Node) throws(UserInfoError) -> (type: String, fields: [String: StrictJSON.Node]) {
        guard case .object(let members, _) = node else {
            throw error(.wrongFieldType, "a typed value is a JSON object, not \(node.kind)", node)
        }
        var fields: [String: StrictJSON.Node] = [:]
        for (key, value) in members {
            // duplicateKey: the JSON reader compared keys by scalars; two canonically
            // equivalent spellings would be one field here, so neither is dropped silently.
            guard fields.updateValue(value, forKey: key) == nil else {
                throw error(.duplicateKey, "a typed value names the field \"\(key)\" twice (canonically equivalent spellings)", value)
            }
        }
        guard let typeNode = fields["type"] else { throw error(.missingField, "a typed value has no \"type\"", node) }
        guard case .string(let type, _) = typeNode else { throw error(.wrongFieldType, "\"type\" is not a string", typeNode) }
        return (type, fields)
    }

    private func expectFields(_ fields: [String: StrictJSON.Node], _ allowed: Set<String>, type: String, _ node: StrictJSON.Node) throws(UserInfoError) {
        // unexpectedField / missingField: exactly the fields the type has.
        if let extra = fields.keys.sorted().first(where: { !allowed.contains($0) && $0 != "type" }) {
            throw error(.unexpectedField, "a \(type) has no field \"\(extra)\"", fields[extra]!)
        }
        if let missing = allowed.sorted().first(where: { fields[$0] == nil }) {
            throw error(.missingField, "a \(type) needs a \"\(missing)\" field", node)
        }
    }

    private func stringField(_ node: StrictJSON.Node, type: String) throws(UserInfoError) -> String {
        guard case .string(let text, _) = node else { throw error(.wrongFieldType, "the value of a \(type) is a JSON string, not \(node.kind)", node) }
        return text
    }

    /// Adds to the expanded size: each node as it is met (8 + its depth), its payload once read.
    private mutating func charge(_ bytes: Int, _ node: StrictJSON.Node) throws(UserInfoError) {
        expandedSize = ExpandedSize.add(expandedSize, bytes)
        // expansionLimitExceeded: typed JSON has no sharing, but the same budget holds.
        guard expandedSize <= expansionBudget else {
            throw error(.expansionLimitExceeded, "the value expands past \(expansionBudget) bytes (the budget for its input)", node)
        }
    }

    private func checkDepth(_ depth: Int, _ node: StrictJSON.Node) throws(UserInfoError) {
        // depthLimitExceeded
        guard depth < limits.maxDepth else { throw error(.depthLimitExceeded, "values nest deeper than \(limits.maxDepth)", node) }
    }

    private func elements(_ node: StrictJSON.Node, type: String) throws(UserInfoError) -> [StrictJSON.Node] {
        guard case .array(let elements, _) = node else { throw error(.wrongFieldType, "the value of a \(type) is a JSON array, not \(node.kind)", node) }
        // collectionLimitExceeded
        guard elements.count <= limits.maxCollectionCount else {
            throw error(.collectionLimitExceeded, "\(elements.count) members, over the limit of \(limits.maxCollectionCount)", node)
        }
        return elements
    }

    private func members(_ node: StrictJSON.Node) throws(UserInfoError) -> [(key: String, value: StrictJSON.Node)] {
        guard case .object(let members, _) = node else { throw error(.wrongFieldType, "the value of a dict is a JSON object, not \(node.kind)", node) }
        guard members.count <= limits.maxCollectionCount else {
            throw error(.collectionLimitExceeded, "\(members.count) members, over the limit of \(limits.maxCollectionCount)", node)
        }
        return members
    }

    /// A scalar shared by both value models, or nil when `type` is not a shared scalar type.
    private func scalar(_ type: String, _ fields: [String: StrictJSON.Node], _ node: StrictJSON.Node) throws(UserInfoError) -> PropertyListValue? {
        switch type {
        case "string":
            try expectFields(fields, ["value"], type: type, node)
            return .string(try stringField(fields["value"]!, type: type))
        case "integer":
            try expectFields(fields, ["value"], type: type, node)
            let text = try stringField(fields["value"]!, type: type)
            // invalidNumber: canonical decimal, in [-2^63, 2^64).
            guard TypedJSONSyntax.isCanonicalInteger(text), let integer = PropertyListInteger(decimal: text) else {
                throw error(.invalidNumber, "\"\(text)\" is not a canonical decimal integer in [-2^63, 2^64)", fields["value"]!)
            }
            return .integer(integer)
        case "real":
            try expectFields(fields, ["value"], type: type, node)
            let text = try stringField(fields["value"]!, type: type)
            guard let real = TypedJSONSyntax.real(text) else {
                throw error(.invalidNumber, "\"\(text)\" is not a real (a finite JSON number, nan, inf or -inf)", fields["value"]!)
            }
            return .real(real)
        case "bool":
            try expectFields(fields, ["value"], type: type, node)
            guard case .bool(let flag, _) = fields["value"]! else {
                throw error(.wrongFieldType, "the value of a bool is true or false", fields["value"]!)
            }
            return .bool(flag)
        case "date":
            try expectFields(fields, ["value"], type: type, node)
            let text = try stringField(fields["value"]!, type: type)
            guard let seconds = CivilTime.secondsSinceReference(iso8601: text) else {
                throw error(.invalidDate, "\"\(text)\" is not a UTC date YYYY-MM-DDTHH:MM:SS[.fraction]Z", fields["value"]!)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case "data":
            try expectFields(fields, ["value"], type: type, node)
            let text = try stringField(fields["value"]!, type: type)
            guard let data = TypedJSONSyntax.base64(text) else {
                throw error(.invalidBase64, "the value of a data is not canonical padded base64", fields["value"]!)
            }
            return .data(data)
        default:
            return nil
        }
    }

    // The recursion passes only through small frames: the dispatchers below
    // and one function per container type, so that the stack used per level
    // stays small even in debug builds (every case's locals would otherwise
    // share one large frame per level).

    mutating func userInfo(_ node: StrictJSON.Node, depth: Int) throws(UserInfoError) -> UserInfoValue {
        try charge(ExpandedSize.node(depth: depth, payload: 0), node)
        let (type, fields) = try fields(of: node)
        switch type {
        case "array": return .array(try userInfoArray(node, fields, depth: depth))
        case "set": return .set(try userInfoSet(node, fields, depth: depth))
        case "dict": return .dictionary(try userInfoDictionary(node, fields, depth: depth))
        case "url": return .url(try url(node, fields, depth: depth))
        default:
            let leaf = try userInfoLeaf(type, fields, node)
            try charge(leaf.payloadBytes, node)
            return leaf
        }
    }

    @inline(never)
    private func userInfoLeaf(_ type: String, _ fields: [String: StrictJSON.Node], _ node: StrictJSON.Node) throws(UserInfoError) -> UserInfoValue {
        if let scalar = try scalar(type, fields, node) { return UserInfoValue(propertyListScalar: scalar)! }
        switch type {
        case "null":
            try expectFields(fields, [], type: type, node)
            return .null
        case "uuid":
            try expectFields(fields, ["value"], type: type, node)
            let text = try stringField(fields["value"]!, type: type)
            guard TypedJSONSyntax.isUUID(text), let uuid = UUID(uuidString: text) else {
                throw error(.invalidUUID, "\"\(text)\" is not a UUID (8-4-4-4-12 hexadecimal digits)", fields["value"]!)
            }
            return .uuid(uuid)
        case "uid":
            // notUserInfoType
            throw error(.notUserInfoType, "a uid is not a userInfo value", node)
        default:
            // unknownType
            throw error(.unknownType, "unknown type \"\(type)\"", fields["type"]!)
        }
    }

    @inline(never)
    private mutating func userInfoArray(_ node: StrictJSON.Node, _ fields: [String: StrictJSON.Node], depth: Int) throws(UserInfoError) -> [UserInfoValue] {
        try expectFields(fields, ["value"], type: "array", node)
        try checkDepth(depth, node)
        var result: [UserInfoValue] = []
        for (position, element) in try elements(fields["value"]!, type: "array").enumerated() {
            do { result.append(try userInfo(element, depth: depth + 1)) } catch { throw error.inside(.index(position)) }
        }
        return result
    }

    @inline(never)
    private mutating func userInfoSet(_ node: StrictJSON.Node, _ fields: [String: StrictJSON.Node], depth: Int) throws(UserInfoError) -> UserInfoSet {
        try expectFields(fields, ["value"], type: "set", node)
        try checkDepth(depth, node)
        var set = UserInfoSet()
        for (position, element) in try elements(fields["value"]!, type: "set").enumerated() {
            do throws(UserInfoError) {
                // duplicateSetMember
                guard set.insert(try userInfo(element, depth: depth + 1)) else {
                    throw self.error(.duplicateSetMember, "the set holds this member twice", element)
                }
            } catch {
                throw error.inside(.index(position))
            }
        }
        // ambiguousSetMembers
        do { try set.checkFoundationDistinct() } catch {
            var located = error
            located.location = .lineColumn(line: node.position.line, column: node.position.column)
            throw located
        }
        return set
    }

    @inline(never)
    private mutating func userInfoDictionary(_ node: StrictJSON.Node, _ fields: [String: StrictJSON.Node], depth: Int) throws(UserInfoError) -> UserInfoDictionary {
        try expectFields(fields, ["value"], type: "dict", node)
        try checkDepth(depth, node)
        let entries = try members(fields["value"]!)
        var dictionary = UserInfoDictionary(minimumCapacity: entries.count)
        for (key, member) in entries {
            try charge(ExpandedSize.node(depth: depth + 1, payload: key.utf8.count), member)
            let value: UserInfoValue
            do { value = try userInfo(member, depth: depth + 1) } catch { throw error.inside(.key(key)) }
            // duplicateKey: canonically equivalent keys, which JSON keeps apart, are one key here.
            guard dictionary.insertNew(value, forKey: key) else {
                throw self.error(.duplicateKey, "key \"\(key)\" appears twice (as canonically equivalent spellings)", member)
            }
        }
        return dictionary
    }

    private mutating func url(_ node: StrictJSON.Node, _ fields: [String: StrictJSON.Node], depth: Int) throws(UserInfoError) -> UserInfoURL {
        try expectFields(fields, ["relative", "base"], type: "url", node)
        try checkDepth(depth, node)
        let relative = try stringField(fields["relative"]!, type: "url")
        try charge(relative.utf8.count, node)
        var url = UserInfoURL(relative: relative)
        let baseNode = fields["base"]!
        if case .null = baseNode {} else {
            let (baseType, baseFields) = try self.fields(of: baseNode)
            guard baseType == "url" else {
                throw error(.wrongFieldType, "the base of a url is a url or null, not a \(baseType)", baseNode)
            }
            try charge(ExpandedSize.node(depth: depth + 1, payload: 0), baseNode)
            url.base = try self.url(baseNode, baseFields, depth: depth + 1)
        }
        // invalidURL
        guard url.isValid else {
            throw error(.invalidURL, "\"\(relative)\" is not a URL Foundation can parse", node)
        }
        return url
    }

    mutating func propertyList(_ node: StrictJSON.Node, depth: Int) throws(UserInfoError) -> PropertyListValue {
        try charge(ExpandedSize.node(depth: depth, payload: 0), node)
        let (type, fields) = try fields(of: node)
        switch type {
        case "array": return .array(try propertyListArray(node, fields, depth: depth))
        case "dict": return .dictionary(try propertyListDictionary(node, fields, depth: depth))
        default:
            let leaf = try propertyListLeaf(type, fields, node)
            try charge(leaf.payloadBytes, node)
            return leaf
        }
    }

    @inline(never)
    private func propertyListLeaf(_ type: String, _ fields: [String: StrictJSON.Node], _ node: StrictJSON.Node) throws(UserInfoError) -> PropertyListValue {
        if let scalar = try scalar(type, fields, node) { return scalar }
        switch type {
        case "uid":
            try expectFields(fields, ["value"], type: type, node)
            let text = try stringField(fields["value"]!, type: type)
            guard TypedJSONSyntax.isCanonicalInteger(text), let uid = UInt32(text) else {
                throw error(.invalidNumber, "\"\(text)\" is not a UID (a decimal in [0, 2^32))", fields["value"]!)
            }
            return .uid(uid)
        case "null":
            try expectFields(fields, [], type: type, node)
            return .null
        case "set", "uuid", "url":
            throw error(.notPlistNative, "a \(type) is not a property-list value", node)
        default:
            throw error(.unknownType, "unknown type \"\(type)\"", fields["type"]!)
        }
    }

    @inline(never)
    private mutating func propertyListArray(_ node: StrictJSON.Node, _ fields: [String: StrictJSON.Node], depth: Int) throws(UserInfoError) -> [PropertyListValue] {
        try expectFields(fields, ["value"], type: "array", node)
        try checkDepth(depth, node)
        var result: [PropertyListValue] = []
        for (position, element) in try elements(fields["value"]!, type: "array").enumerated() {
            do { result.append(try propertyList(element, depth: depth + 1)) } catch { throw error.inside(.index(position)) }
        }
        return result
    }

    @inline(never)
    private mutating func propertyListDictionary(_ node: StrictJSON.Node, _ fields: [String: StrictJSON.Node], depth: Int) throws(UserInfoError) -> PropertyListDictionary {
        try expectFields(fields, ["value"], type: "dict", node)
        try checkDepth(depth, node)
        let entries = try members(fields["value"]!)
        var dictionary = PropertyListDictionary(minimumCapacity: entries.count)
        for (key, member) in entries {
            try charge(ExpandedSize.node(depth: depth + 1, payload: key.utf8.count), member)
            let value: PropertyListValue
            do { value = try propertyList(member, depth: depth + 1) } catch { throw error.inside(.key(key)) }
            guard dictionary.insertNew(value, forKey: key) else {
                throw self.error(.duplicateKey, "key \"\(key)\" appears twice (as canonically equivalent spellings)", member)
            }
        }
        return dictionary
    }
}

/// The exact text forms typed JSON accepts.
enum TypedJSONSyntax {
    /// `0`, or an optional `-` and digits without leading zeros; not `-0`.
    static func isCanonicalInteger(_ text: String) -> Bool {
        var digits = Substring(text)
        if digits.hasPrefix("-") { digits = digits.dropFirst() }
        guard let first = digits.first, digits.allSatisfy(\.isASCIIDigit) else { return false }
        if first == "0" { return digits.count == 1 && !text.hasPrefix("-") }
        return true
    }

    /// A finite JSON number, or `nan`, `inf`, `-inf`.
    static func real(_ text: String) -> Double? {
        switch text {
        case "nan": return .nan
        case "inf": return .infinity
        case "-inf": return -.infinity
        default:
            guard isJSONNumber(text), let value = Double(text), value.isFinite else { return nil }
            return value
        }
    }

    static func isJSONNumber(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.hasPrefix("-") { rest = rest.dropFirst() }
        let integer = rest.prefix(while: \.isASCIIDigit)
        guard !integer.isEmpty, integer == "0" || !integer.hasPrefix("0") else { return false }
        rest = rest.dropFirst(integer.count)
        if rest.hasPrefix(".") {
            let fraction = rest.dropFirst().prefix(while: \.isASCIIDigit)
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(1 + fraction.count)
        }
        if rest.hasPrefix("e") || rest.hasPrefix("E") {
            rest = rest.dropFirst()
            if rest.hasPrefix("+") || rest.hasPrefix("-") { rest = rest.dropFirst() }
            let exponent = rest.prefix(while: \.isASCIIDigit)
            guard !exponent.isEmpty else { return false }
            rest = rest.dropFirst(exponent.count)
        }
        return rest.isEmpty
    }

    /// Canonical base64: alphabet A–Z a–z 0–9 + /, padded to a multiple of 4, no whitespace,
    /// zero bits after the last symbol.
    static func base64(_ text: String) -> Data? {
        StrictBase64.decode(text, skippingWhitespace: false)
    }

    /// Exactly 8-4-4-4-12 hexadecimal digits.
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
