public import FoundationEssentials
@_spi(ByteKit) public import PropertyList
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
        try readUserInfo(data.bytes)
    }

    /// Reads a userInfo value from a span of its bytes (read in place).
    public func readUserInfo(_ bytes: RawSpan) throws(UserInfoError) -> UserInfoValue {
        var converter = TypedJSONConverter(limits: limits, inputBytes: bytes.byteCount)
        return try converter.userInfo(try parse(bytes))
    }

    /// Reads a property-list value (`null`, `set`, `uuid` and `url` are refused:
    /// they are not property-list types; `uid` is accepted).
    public func readPropertyList(_ data: Data) throws(UserInfoError) -> PropertyListValue {
        try readPropertyList(data.bytes)
    }

    /// Reads a property-list value from a span of its bytes (read in place).
    public func readPropertyList(_ bytes: RawSpan) throws(UserInfoError) -> PropertyListValue {
        var converter = TypedJSONConverter(limits: limits, inputBytes: bytes.byteCount)
        return try converter.propertyList(try parse(bytes))
    }

    private func parse(_ bytes: RawSpan) throws(UserInfoError) -> StrictJSON.Node {
        do {
            try limits.validate()
        } catch {
            throw UserInfoError(error)
        }
        // inputTooLarge
        guard bytes.byteCount <= limits.maxInputBytes else {
            throw UserInfoError(.inputTooLarge, "input is \(bytes.byteCount) bytes, over the limit of \(limits.maxInputBytes)")
        }
        do {
            // Each typed level is two JSON levels (the node object and its value).
            return try StrictJSON.parse(bytes, maxDepth: 2 * limits.maxDepth + 2, maxStringBytes: limits.maxStringBytes)
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
            throw error(.unexpectedField, "type \(type) has no field \"\(extra)\"", fields[extra]!)
        }
        if let missing = allowed.sorted().first(where: { fields[$0] == nil }) {
            throw error(.missingField, "type \(type) needs a \"\(missing)\" field", node)
        }
    }

    private func stringField(_ node: StrictJSON.Node, type: String) throws(UserInfoError) -> String {
        guard case .string(let text, _) = node else { throw error(.wrongFieldType, "the value of type \(type) is a JSON string, not \(node.kind)", node) }
        return text
    }

    /// The text of a scalar's one field, `value` (the type has no other),
    /// read by `parse`; a text `parse` refuses is `code`, for `reason`.
    private func valueText<T>(_ fields: [String: StrictJSON.Node], type: String, _ node: StrictJSON.Node,
                              _ code: ErrorCode, _ reason: (String) -> String,
                              _ parse: (String) -> T?) throws(UserInfoError) -> T {
        try expectFields(fields, ["value"], type: type, node)
        let text = try stringField(fields["value"]!, type: type)
        guard let value = parse(text) else { throw error(code, reason(text), fields["value"]!) }
        return value
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
        guard case .array(let elements, _) = node else { throw error(.wrongFieldType, "the value of type \(type) is a JSON array, not \(node.kind)", node) }
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
            // invalidNumber: canonical decimal, in [-2^63, 2^64).
            return .integer(try valueText(fields, type: type, node, .invalidNumber, { "\"\($0)\" is not a canonical decimal integer in [-2^63, 2^64)" }) {
                TypedJSONSyntax.isCanonicalInteger($0) ? PropertyListInteger(decimal: $0) : nil
            })
        case "real":
            return .real(try valueText(fields, type: type, node, .invalidNumber, { "\"\($0)\" is not a real (a finite JSON number, nan, inf or -inf)" },
                                       TypedJSONSyntax.real))
        case "bool":
            try expectFields(fields, ["value"], type: type, node)
            guard case .bool(let flag, _) = fields["value"]! else {
                throw error(.wrongFieldType, "the value of a bool is true or false", fields["value"]!)
            }
            return .bool(flag)
        case "date":
            let seconds = try valueText(fields, type: type, node, .invalidDate, { "\"\($0)\" is not a UTC date YYYY-MM-DDTHH:MM:SS[.fraction]Z" }) {
                CivilTime.secondsSinceReference(iso8601: $0)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case "data":
            return .data(try valueText(fields, type: type, node, .invalidBase64, { _ in "the value of a data is not canonical padded base64" },
                                       TypedJSONSyntax.base64))
        default:
            return nil
        }
    }

    // MARK: Trees

    /// A container being converted: one per level of the explicit stack, so
    /// that no depth a caller allows can overflow the thread's stack
    /// (Specs/architecture.md, "One stack policy").
    private struct Frame<Value> {
        let node: StrictJSON.Node
        let container: TypedJSONContainer
        /// The depth of the container's members.
        let memberDepth: Int
        let children: [StrictJSON.Node]
        /// The dictionary's keys, in order (empty for arrays and sets).
        let keys: [String]
        var results: [Value] = []
    }

    mutating func userInfo(_ root: StrictJSON.Node) throws(UserInfoError) -> UserInfoValue {
        try convert(root)
    }

    mutating func propertyList(_ root: StrictJSON.Node) throws(UserInfoError) -> PropertyListValue {
        try convert(root)
    }

    /// Converts the tree of `root` with an explicit stack; an error gets the
    /// key path from the root to where it happened.
    private mutating func convert<Value: TypedJSONModel>(_ root: StrictJSON.Node) throws(UserInfoError) -> Value {
        var stack: [Frame<Value>] = []
        var next = root
        var depth = 0
        while true {
            var value: Value
            do {
                try charge(ExpandedSize.node(depth: depth, payload: 0), next)
                let (type, fields) = try fields(of: next)
                if let container = Value.container(type) {
                    if let frame: Frame<Value> = try open(container, type, fields, next, depth: depth) {
                        stack.append(frame)
                        depth += 1
                        next = frame.children[0]
                        if container == .dictionary {
                            try charge(ExpandedSize.node(depth: depth, payload: frame.keys[0].utf8.count), next)
                        }
                        continue
                    }
                    value = try Value.build(container, [], keys: [], children: [], node: next, converter: self)
                } else {
                    value = try Value.leaf(type, fields, next, depth: depth, converter: &self)
                }
            } catch {
                throw located(error, stack)
            }
            // Hand the value up until a container still has members to convert.
            while let last = stack.indices.last {
                stack[last].results.append(value)
                let done = stack[last].results.count
                if done < stack[last].children.count {
                    next = stack[last].children[done]
                    depth = stack[last].memberDepth
                    if stack[last].container == .dictionary {
                        do {
                            try charge(ExpandedSize.node(depth: depth, payload: stack[last].keys[done].utf8.count), next)
                        } catch {
                            throw located(error, stack)
                        }
                    }
                    break
                }
                let frame = stack.removeLast()
                do {
                    value = try Value.build(frame.container, frame.results, keys: frame.keys, children: frame.children,
                                            node: frame.node, converter: self)
                } catch {
                    throw located(error, stack)
                }
            }
            if stack.isEmpty { return value }
        }
    }

    /// Checks a container's fields, depth and size: a frame for its members,
    /// or nil when it has none.
    private func open<Value>(_ container: TypedJSONContainer, _ type: String, _ fields: [String: StrictJSON.Node],
                             _ node: StrictJSON.Node, depth: Int) throws(UserInfoError) -> Frame<Value>? {
        try expectFields(fields, ["value"], type: type, node)
        try checkDepth(depth, node)
        let children: [StrictJSON.Node]
        var keys: [String] = []
        if container == .dictionary {
            let entries = try members(fields["value"]!)
            children = entries.map(\.value)
            keys = entries.map(\.key)
        } else {
            children = try elements(fields["value"]!, type: type)
        }
        guard !children.isEmpty else { return nil }
        var frame = Frame<Value>(node: node, container: container, memberDepth: depth + 1, children: children, keys: keys)
        frame.results.reserveCapacity(children.count)
        return frame
    }

    /// `error` with the path from the root to the member being converted in front of its own.
    private func located<Value>(_ error: UserInfoError, _ stack: [Frame<Value>]) -> UserInfoError {
        var located = error
        var level = stack.count - 1
        while level >= 0 {
            let position = stack[level].results.count
            located = located.inside(stack[level].container == .dictionary ? .key(stack[level].keys[position]) : .index(position))
            level -= 1
        }
        return located
    }

    /// A url and its chain of bases, converted without recursion.
    fileprivate mutating func url(_ node: StrictJSON.Node, _ fields: [String: StrictJSON.Node], depth: Int) throws(UserInfoError) -> UserInfoURL {
        // The chain from the url to its innermost base, each checked as met.
        var chain: [(node: StrictJSON.Node, relative: String)] = []
        var current = (node: node, fields: fields, depth: depth)
        while true {
            try expectFields(current.fields, ["relative", "base"], type: "url", current.node)
            try checkDepth(current.depth, current.node)
            let relative = try stringField(current.fields["relative"]!, type: "url")
            try charge(relative.utf8.count, current.node)
            chain.append((current.node, relative))
            let baseNode = current.fields["base"]!
            if case .null = baseNode { break }
            let (baseType, baseFields) = try self.fields(of: baseNode)
            guard baseType == "url" else {
                throw error(.wrongFieldType, "the base of a url is a url or null, not a \(baseType)", baseNode)
            }
            try charge(ExpandedSize.node(depth: current.depth + 1, payload: 0), baseNode)
            current = (baseNode, baseFields, current.depth + 1)
        }
        // Built from the innermost base out; invalidURL names the first that fails.
        var url: UserInfoURL?
        for (node, relative) in chain.reversed() {
            var link = UserInfoURL(relative: relative)
            link.base = url
            // invalidURL
            guard link.isValid else {
                throw error(.invalidURL, "\"\(relative)\" is not a URL Foundation can parse", node)
            }
            url = link
        }
        return url!
    }

    // MARK: Leaves and containers of each model

    fileprivate mutating func userInfoLeaf(_ type: String, _ fields: [String: StrictJSON.Node], _ node: StrictJSON.Node,
                                           depth: Int) throws(UserInfoError) -> UserInfoValue {
        if type == "url" { return .url(try url(node, fields, depth: depth)) }
        let leaf: UserInfoValue
        if let scalar = try scalar(type, fields, node) {
            leaf = UserInfoValue(propertyListScalar: scalar)!
        } else {
            switch type {
            case "null":
                try expectFields(fields, [], type: type, node)
                leaf = .null
            case "uuid":
                leaf = .uuid(try valueText(fields, type: type, node, .invalidUUID, { "\"\($0)\" is not a UUID (8-4-4-4-12 hexadecimal digits)" }) {
                    TypedJSONSyntax.isUUID($0) ? UUID(uuidString: $0) : nil
                })
            case "uid":
                // notUserInfoType
                throw error(.notUserInfoType, "a uid is not a userInfo value", node)
            default:
                // unknownType
                throw error(.unknownType, "unknown type \"\(type)\"", fields["type"]!)
            }
        }
        try charge(leaf.payloadBytes, node)
        return leaf
    }

    fileprivate mutating func propertyListLeaf(_ type: String, _ fields: [String: StrictJSON.Node],
                                               _ node: StrictJSON.Node) throws(UserInfoError) -> PropertyListValue {
        let leaf: PropertyListValue
        if let scalar = try scalar(type, fields, node) {
            leaf = scalar
        } else {
            switch type {
            case "uid":
                leaf = .uid(try valueText(fields, type: type, node, .invalidNumber, { "\"\($0)\" is not a UID (a decimal in [0, 2^32))" }) {
                    TypedJSONSyntax.isCanonicalInteger($0) ? UInt32($0) : nil
                })
            case "null":
                try expectFields(fields, [], type: type, node)
                leaf = .null
            case "set", "uuid", "url":
                // notPlistNative
                throw error(.notPlistNative, "type \(type) is not a property-list value", node)
            default:
                throw error(.unknownType, "unknown type \"\(type)\"", fields["type"]!)
            }
        }
        try charge(leaf.payloadBytes, node)
        return leaf
    }

    /// A dictionary of converted members.
    fileprivate func dictionary<Value>(_ members: [Value], keys: [String],
                                       children: [StrictJSON.Node]) throws(UserInfoError) -> StringKeyedDictionary<Value> {
        var dictionary = StringKeyedDictionary<Value>(minimumCapacity: members.count)
        for (position, member) in members.enumerated() {
            // duplicateKey: canonically equivalent keys, which JSON keeps apart, are one key here.
            guard dictionary.insertNew(member, forKey: keys[position]) else {
                throw error(.duplicateKey, "key \"\(keys[position])\" appears twice (as canonically equivalent spellings)", children[position])
            }
        }
        return dictionary
    }

    /// A set of converted members.
    fileprivate func set(_ members: [UserInfoValue], children: [StrictJSON.Node], node: StrictJSON.Node) throws(UserInfoError) -> UserInfoSet {
        var set = UserInfoSet()
        for (position, member) in members.enumerated() {
            // duplicateSetMember
            guard set.insert(member) else {
                throw error(.duplicateSetMember, "the set holds this member twice", children[position]).inside(.index(position))
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
}

/// The containers of typed JSON.
private enum TypedJSONContainer { case array, set, dictionary }

/// A value model typed JSON converts to: its containers, leaves and how a
/// container is built from its converted members.
private protocol TypedJSONModel {
    static func container(_ type: String) -> TypedJSONContainer?
    static func leaf(_ type: String, _ fields: [String: StrictJSON.Node], _ node: StrictJSON.Node, depth: Int,
                     converter: inout TypedJSONConverter) throws(UserInfoError) -> Self
    static func build(_ container: TypedJSONContainer, _ members: [Self], keys: [String], children: [StrictJSON.Node],
                      node: StrictJSON.Node, converter: TypedJSONConverter) throws(UserInfoError) -> Self
}

extension UserInfoValue: TypedJSONModel {
    fileprivate static func container(_ type: String) -> TypedJSONContainer? {
        switch type {
        case "array": .array
        case "set": .set
        case "dict": .dictionary
        default: nil
        }
    }

    fileprivate static func leaf(_ type: String, _ fields: [String: StrictJSON.Node], _ node: StrictJSON.Node, depth: Int,
                                 converter: inout TypedJSONConverter) throws(UserInfoError) -> UserInfoValue {
        try converter.userInfoLeaf(type, fields, node, depth: depth)
    }

    fileprivate static func build(_ container: TypedJSONContainer, _ members: [UserInfoValue], keys: [String], children: [StrictJSON.Node],
                                  node: StrictJSON.Node, converter: TypedJSONConverter) throws(UserInfoError) -> UserInfoValue {
        switch container {
        case .array: .array(members)
        case .set: .set(try converter.set(members, children: children, node: node))
        case .dictionary: .dictionary(try converter.dictionary(members, keys: keys, children: children))
        }
    }
}

extension PropertyListValue: TypedJSONModel {
    fileprivate static func container(_ type: String) -> TypedJSONContainer? {
        switch type {
        case "array": .array
        case "dict": .dictionary
        default: nil
        }
    }

    fileprivate static func leaf(_ type: String, _ fields: [String: StrictJSON.Node], _ node: StrictJSON.Node, depth: Int,
                                 converter: inout TypedJSONConverter) throws(UserInfoError) -> PropertyListValue {
        try converter.propertyListLeaf(type, fields, node)
    }

    fileprivate static func build(_ container: TypedJSONContainer, _ members: [PropertyListValue], keys: [String], children: [StrictJSON.Node],
                                  node: StrictJSON.Node, converter: TypedJSONConverter) throws(UserInfoError) -> PropertyListValue {
        switch container {
        case .array, .set: .array(members)
        case .dictionary: .dictionary(try converter.dictionary(members, keys: keys, children: children))
        }
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
