public import FoundationEssentials
public import PropertyList

/// Reads plain JSON (as `plutil -convert json` writes it, and as `plutil
/// -insert -json` takes a fragment) into a property-list value: objects are
/// dictionaries, arrays arrays, strings strings, `true`/`false` booleans, a
/// number without fraction or exponent an integer (within [-2⁶³, 2⁶⁴)), any
/// other number a real. The text is strict JSON (the typed-JSON parser: no
/// duplicate keys, one value). See `Specs/plain-json.md`, "Reading".
public struct PlainJSONReader: Sendable {
    /// Bounds on the input and the value.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Reads one JSON value.
    ///
    /// - Throws: ``PropertyListError``: ``ErrorCode/invalidJSON`` (with line and
    ///   column), ``ErrorCode/duplicateKey``, ``ErrorCode/unrepresentableValue``
    ///   for `null` (no property list holds it), ``ErrorCode/integerOutOfRange``,
    ///   ``ErrorCode/inputTooLarge``, ``ErrorCode/depthLimitExceeded``.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        do { try limits.validate() } catch { throw error }
        // inputTooLarge
        guard data.count <= limits.maxInputBytes else {
            throw PropertyListError(.inputTooLarge, "the input is \(data.count) bytes, over maxInputBytes \(limits.maxInputBytes)")
        }
        let node: StrictJSON.Node
        do {
            node = try StrictJSON.parse(Array(data), maxDepth: limits.maxDepth, maxStringBytes: limits.maxStringBytes)
        } catch {
            throw PropertyListError(error.code, error.reason, at: .lineColumn(line: error.position.line, column: error.position.column))
        }
        return try Self.value(of: node)
    }

    /// A container being converted: one per level of an explicit stack, so
    /// that no depth a caller allows can overflow the thread's stack
    /// (Specs/architecture.md, "One stack policy").
    private struct Frame {
        /// An object's keys; nil for an array.
        let keys: [String]?
        let children: [StrictJSON.Node]
        var values: [PropertyListValue] = []

        init(keys: [String]?, children: [StrictJSON.Node]) {
            (self.keys, self.children) = (keys, children)
            values.reserveCapacity(children.count)
        }

        /// The key path component of the member being converted.
        var component: PropertyListKeyPath.Component {
            keys.map { .key($0[values.count]) } ?? .index(values.count)
        }

        /// The container, once every member is converted.
        var value: PropertyListValue {
            guard let keys else { return .array(values) }
            var dictionary = PropertyListDictionary(minimumCapacity: keys.count)
            for (key, value) in zip(keys, values) { dictionary[key] = value }
            return .dictionary(dictionary)
        }
    }

    /// The value of a parsed node, members in order, with an explicit stack;
    /// an error gets the key path of the frames it leaves.
    private static func value(of root: StrictJSON.Node) throws(PropertyListError) -> PropertyListValue {
        var stack: [Frame] = []
        var next = root
        while true {
            var value: PropertyListValue
            switch next {
            case .object(let members, _) where !members.isEmpty:
                stack.append(Frame(keys: members.map(\.key), children: members.map(\.value)))
                next = members[0].value
                continue
            case .array(let elements, _) where !elements.isEmpty:
                stack.append(Frame(keys: nil, children: elements))
                next = elements[0]
                continue
            default:
                do {
                    value = try scalar(next)
                } catch {
                    var located = error
                    for frame in stack.reversed() { located = located.inside(frame.component) }
                    throw located
                }
            }
            // Deliver the value to its container; a container complete is delivered in turn.
            while let last = stack.indices.last {
                stack[last].values.append(value)
                if stack[last].values.count < stack[last].children.count { break }
                value = stack.removeLast().value
            }
            guard let last = stack.indices.last else { return value }
            next = stack[last].children[stack[last].values.count]
        }
    }

    /// The value of a node that holds no members: a scalar, or an empty object or array.
    private static func scalar(_ node: StrictJSON.Node) throws(PropertyListError) -> PropertyListValue {
        let at = ErrorLocation.lineColumn(line: node.position.line, column: node.position.column)
        switch node {
        case .object:
            return .dictionary(PropertyListDictionary(minimumCapacity: 0))
        case .array:
            return .array([])
        case .string(let string, _):
            return .string(string)
        case .bool(let flag, _):
            return .bool(flag)
        case .null:
            // unrepresentableValue: a property list has no null.
            throw PropertyListError(.unrepresentableValue, "JSON null has no property-list form", at: at)
        case .number(let text, _):
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                // integerOutOfRange: integers of a property list lie in [-2⁶³, 2⁶⁴).
                guard let integer = PropertyListInteger(decimal: text) else {
                    throw PropertyListError(.integerOutOfRange, "\(text) is outside [-2⁶³, 2⁶⁴)", at: at)
                }
                return .integer(integer)
            }
            guard let real = Double(text), real.isFinite else {
                throw PropertyListError(.unrepresentableValue, "\(text) is not a finite double", at: at)
            }
            return .real(real)
        }
    }
}
