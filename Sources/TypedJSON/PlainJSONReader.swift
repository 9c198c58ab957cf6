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

    /// The value of a parsed node (recursion bounded by the parser's maxDepth).
    private static func value(of node: StrictJSON.Node) throws(PropertyListError) -> PropertyListValue {
        let at = ErrorLocation.lineColumn(line: node.position.line, column: node.position.column)
        switch node {
        case .object(let members, _):
            var dictionary = PropertyListDictionary(minimumCapacity: members.count)
            for (key, member) in members {
                do {
                    dictionary[key] = try value(of: member)
                } catch {
                    throw error.inside(.key(key))
                }
            }
            return .dictionary(dictionary)
        case .array(let elements, _):
            var values: [PropertyListValue] = []
            values.reserveCapacity(elements.count)
            for (position, element) in elements.enumerated() {
                do {
                    values.append(try value(of: element))
                } catch {
                    throw error.inside(.index(position))
                }
            }
            return .array(values)
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
