import FoundationEssentials
public import PropertyList

/// Reads plain JSON (as `plutil -convert json` writes it, and as `plutil
/// -insert -json` takes a fragment) into a property-list value: objects are
/// dictionaries, arrays arrays, strings strings, `true`/`false` booleans, a
/// number without fraction or exponent an integer (within [-2⁶³, 2⁶⁴)), any
/// other number a real. The text is strict JSON (the typed-JSON parser: no
/// duplicate keys, one value). See `Specs/plain-json.md`, "Reading".
public struct PlainJSONReader: BytesReader, Sendable {
    /// Bounds on the input and the value.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Reads one JSON value from a span of its bytes (read in place; `Data`
    /// and arrays: ``BytesReader``).
    ///
    /// - Throws: ``PropertyListError``: ``ErrorCode/invalidJSON`` (with line and
    ///   column), ``ErrorCode/duplicateKey``, ``ErrorCode/unrepresentableValue``
    ///   for `null` (no property list holds it), ``ErrorCode/integerOutOfRange``,
    ///   ``ErrorCode/inputTooLarge``, ``ErrorCode/depthLimitExceeded``.
    public func read(_ bytes: RawSpan) throws(PropertyListError) -> PropertyListValue {
        do { try limits.validate() } catch { throw error }
        // inputTooLarge
        guard bytes.byteCount <= limits.maxInputBytes else {
            throw PropertyListError(.inputTooLarge, "the input is \(bytes.byteCount) bytes, over maxInputBytes \(limits.maxInputBytes)")
        }
        let node: StrictJSON.Node
        do {
            node = try StrictJSON.parse(bytes, maxDepth: limits.maxDepth, maxStringBytes: limits.maxStringBytes)
        } catch {
            throw PropertyListError(error.code, error.reason, at: .lineColumn(line: error.position.line, column: error.position.column))
        }
        return try Self.value(of: node)
    }

    /// The value of a parsed node, converted with the containers in progress
    /// on an explicit stack in the heap (Specs/architecture.md, "One stack
    /// policy"): no depth the limits allow grows the thread's stack.
    private static func value(of root: StrictJSON.Node) throws(PropertyListError) -> PropertyListValue {
        /// An object or array in progress: its members, the next one's index,
        /// and the values converted so far (each frame is one or the other).
        struct Frame {
            var members: [(key: String, value: StrictJSON.Node)] = []
            var elements: [StrictJSON.Node] = []
            var dictionary = PropertyListDictionary()
            var values: [PropertyListValue] = []
            let isObject: Bool
            var next = 0
            var count: Int { isObject ? members.count : elements.count }
            /// Where a member's error happened, as a key path component.
            var component: PropertyListKeyPath.Component { isObject ? .key(members[next].key) : .index(next) }
        }
        // The innermost container in progress is a local; its ancestors wait on the stack.
        var stack: [Frame] = []
        var current = Frame(isObject: false)
        var inContainer = false
        var node = root
        do throws(PropertyListError) {
            while true {
                // Down: a container with members is opened and its first member read next.
                var value: PropertyListValue
                switch node {
                case .object(let members, _) where !members.isEmpty:
                    var frame = Frame(isObject: true)
                    frame.members = members
                    frame.dictionary = PropertyListDictionary(minimumCapacity: members.count)
                    if inContainer { stack.append(consume current) }
                    current = frame
                    inContainer = true
                    node = members[0].value
                    continue
                case .array(let elements, _) where !elements.isEmpty:
                    var frame = Frame(isObject: false)
                    frame.elements = elements
                    frame.values.reserveCapacity(elements.count)
                    if inContainer { stack.append(consume current) }
                    current = frame
                    inContainer = true
                    node = elements[0]
                    continue
                default:
                    value = try scalarValue(of: node)
                }
                // Up: the value goes into its container; a finished container is itself a value.
                while inContainer {
                    let position = current.next
                    if current.isObject {
                        current.dictionary[current.members[position].key] = value
                    } else {
                        current.values.append(value)
                    }
                    current.next = position + 1
                    if position + 1 < current.count {
                        node = current.isObject ? current.members[position + 1].value : current.elements[position + 1]
                        break
                    }
                    let finished = consume current
                    value = finished.isObject ? .dictionary(finished.dictionary) : .array(finished.values)
                    if let parent = stack.popLast() {
                        current = parent
                    } else {
                        current = Frame(isObject: false)
                        inContainer = false
                    }
                }
                if !inContainer { return value }
            }
        } catch {
            // The key path from the root to the member that failed, innermost wrapped first.
            var located = error
            if inContainer { located = located.inside(current.component) }
            for frame in stack.reversed() { located = located.inside(frame.component) }
            throw located
        }
    }

    /// The value of a scalar node (objects and arrays are the caller's).
    @inline(__always)
    private static func scalarValue(of node: StrictJSON.Node) throws(PropertyListError) -> PropertyListValue {
        var at: ErrorLocation { .lineColumn(line: node.position.line, column: node.position.column) }
        switch node {
        case .object:
            return .dictionary(PropertyListDictionary())
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
