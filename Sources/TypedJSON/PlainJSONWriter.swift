public import FoundationEssentials
@_spi(ByteKit) public import PropertyList

/// Writes the JSON-representable part of a property list as plain JSON, as
/// `plutil -convert json` does: dictionaries, arrays, strings, integers,
/// finite reals, booleans and null. Dates, data, UIDs and non-finite reals
/// have no JSON form and are refused with
/// ``ErrorCode/unrepresentableValue`` and their key path.
///
/// Output is compact, keys in ascending UTF-16 order, numbers exact
/// (integers in decimal, reals in the shortest form that reads back equal).
/// See `Specs/plain-json.md`.
public struct PlainJSONWriter: Sendable {
    /// The bounds of what is written (``WriterLimits``): no deeper or larger
    /// than ``PlainJSONReader`` reads with the same limits, so that what is
    /// written reads back (``ErrorCode/depthLimitExceeded``).
    public var limits: WriterLimits
    /// The order of object keys (``KeyOrder/sorted`` by default).
    public var keyOrder: KeyOrder = .sorted
    /// Human-readable output (`plutil -r`): two-space indents, `"key" : value`,
    /// one member per line, a final newline. Compact otherwise.
    public var readable = false

    /// Creates a writer.
    public init(limits: WriterLimits = .default) {
        self.limits = limits
    }

    /// Encodes `value` as UTF-8 JSON text.
    public func write(_ value: PropertyListValue) throws(PropertyListError) -> Data {
        try limits.validate()
        var meter = ExpansionMeter(limit: limits.maxExpandedBytes)
        var out = ""
        try append(value, depth: 0, meter: &meter, to: &out)
        if readable { out += "\n" }
        let bytes = Data(out.utf8)
        try meter.checkReadable(outputBytes: bytes.count, limits)
        return bytes
    }

    private func append(_ value: PropertyListValue, depth: Int, meter: inout ExpansionMeter, to out: inout String) throws(PropertyListError) {
        try meter.charge(depth: depth, payload: value.payloadBytes)
        switch value {
        case .string(let string): JSONText.appendQuoted(string, to: &out)
        case .integer(let integer): out += integer.description
        case .real(let real):
            guard real.isFinite else {
                throw PropertyListError(.unrepresentableValue, "JSON cannot represent the real \(real)")
            }
            out += real.description
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        case .date, .data, .uid:
            throw PropertyListError(.unrepresentableValue, "JSON cannot represent a \(value.typeName) value")
        case .array(let elements):
            // depthLimitExceeded: never deeper than the reader reads.
            guard depth < limits.maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(limits.maxDepth)") }
            out += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { out += "," }
                newline(depth + 1, &out)
                do { try append(element, depth: depth + 1, meter: &meter, to: &out) } catch { throw error.inside(.index(position)) }
            }
            if !elements.isEmpty { newline(depth, &out) }
            out += "]"
        case .dictionary(let dictionary):
            guard depth < limits.maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(limits.maxDepth)") }
            out += "{"
            for (position, entry) in dictionary.writerOrder(keyOrder).enumerated() {
                let (key, member) = dictionary[entry]
                if position > 0 { out += "," }
                newline(depth + 1, &out)
                try meter.charge(depth: depth + 1, payload: key.utf8.count)
                JSONText.appendQuoted(key, to: &out)
                out += readable ? " : " : ":"
                do { try append(member, depth: depth + 1, meter: &meter, to: &out) } catch { throw error.inside(.key(key)) }
            }
            if !dictionary.isEmpty { newline(depth, &out) }
            out += "}"
        }
    }

    /// In readable output, a line break and the indent of `depth`.
    private func newline(_ depth: Int, _ out: inout String) {
        guard readable else { return }
        out += "\n"
        out += String(repeating: "  ", count: depth)
    }
}
