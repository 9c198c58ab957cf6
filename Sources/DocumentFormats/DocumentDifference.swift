import FoundationEssentials
@_spi(ByteKit) public import PropertyList
import TypedJSON

/// One difference between two values (Specs/plistkit.md, "Diff").
public struct DocumentDifference: Sendable, Hashable {
    /// What differs.
    public enum Kind: String, Sendable, Hashable {
        /// A scalar of the same type with another value.
        case changed
        /// A value of another type.
        case type
        /// A key, array member or set member only the first value has.
        case removed
        /// A key, array member or set member only the second value has.
        case added
        /// An array member equal in both, at another index (``DocumentComparison/matchMoved``).
        case moved
    }

    /// A component of the key path: a dictionary key or an array index.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var kind: Kind
    /// Where: the key path from the top (empty for the top value). For a set
    /// member, the set's key path; for a moved member, the array's.
    public var path: [Component]
    /// The first value's side (nil for `added` and `moved`).
    public var old: ComparedValue?
    /// The second value's side (nil for `removed`); the member for `moved`.
    public var new: ComparedValue?
    /// For `moved`: the member's index in the first array and in the second.
    public var from: Int?
    public var to: Int?

    /// The key path in plutil's spelling (`.` between components, `\.` and
    /// `\\` inside keys); empty for the top value.
    public var keyPath: String {
        var text = ""
        for (position, component) in path.enumerated() {
            if position > 0 { text += "." }
            switch component {
            case .index(let index): text += String(index)
            case .key(let key):
                for scalar in key.unicodeScalars {
                    if scalar == "." || scalar == "\\" { text += "\\" }
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text
    }

    /// The difference as one line of text: every string from the values
    /// quoted and escaped (no control or bidirectional character reaches a
    /// terminal). Unbounded: `plistkit diff` writes lines with
    /// ``appendLine(to:meter:)`` within its inputs' budget.
    public var line: String {
        var meter = ExpansionMeter(limit: Int.max)
        var output = CountedOutput.unbounded
        do { try appendLine(to: &output, meter: &meter) } catch { preconditionFailure("an unbounded rendering failed: \(error)") }
        return String(output.text.dropLast())
    }

    /// Appends ``line`` and a line feed to `output`, walking the values with `meter`.
    ///
    /// - Throws: ``ErrorCode/expansionLimitExceeded``, ``ErrorCode/outputLimitExceeded``.
    package func appendLine(to output: inout CountedOutput, meter: inout ExpansionMeter) throws(PropertyListError) {
        try output.append { text in
            text += kind.rawValue + " "
            JSONText.appendReadableQuoted(keyPath, to: &text)
            text += ": "
        }
        switch kind {
        case .changed, .type:
            let showType = kind == .type
            if showType { try output.append(old!.typeName + " ") }
            try ReadableText.append(old!, .line, meter: &meter, to: &output)
            try output.append(" -> ")
            if showType { try output.append(new!.typeName + " ") }
            try ReadableText.append(new!, .line, meter: &meter, to: &output)
        case .removed: try ReadableText.append(old!, .line, meter: &meter, to: &output)
        case .added: try ReadableText.append(new!, .line, meter: &meter, to: &output)
        case .moved:
            try output.append("\(from!) -> \(to!) (")
            try ReadableText.append(new!, .line, meter: &meter, to: &output)
            try output.append(")")
        }
        try output.append("\n")
    }

    /// The difference as one JSON object: `kind`, `keyPath`, `path`, and the
    /// values in typed JSON (`old`, `new`; `from`, `to` and `value` for
    /// `moved`). Like the text form, it holds no raw control, separator or
    /// bidirectional character: each is a `\uXXXX` escape.
    ///
    /// - Throws: ``PropertyListError`` when a value is past the typed-JSON
    ///   writer's limits.
    public func json(limits: WriterLimits = .default) throws(PropertyListError) -> String {
        var output = CountedOutput(budget: Int.max)
        try appendJSON(to: &output, writerLimits: limits)
        return output.text
    }

    /// Appends ``json(limits:)`` to `output`; the values' writer keeps to
    /// `writerLimits` and to what the output has left.
    package func appendJSON(to output: inout CountedOutput, writerLimits: WriterLimits) throws(PropertyListError) {
        var head = "{\"kind\":"
        JSONText.appendReadableQuoted(kind.rawValue, to: &head)
        head += ",\"keyPath\":"
        JSONText.appendReadableQuoted(keyPath, to: &head)
        head += ",\"path\":["
        for (position, component) in path.enumerated() {
            if position > 0 { head += "," }
            switch component {
            case .index(let index): head += String(index)
            case .key(let key): JSONText.appendReadableQuoted(key, to: &head)
            }
        }
        head += "]"
        try output.append(head)
        func value(_ name: String, _ value: ComparedValue) throws(PropertyListError) {
            // The writer stops where the output would: its expanded size is at
            // most the bytes it writes.
            var limits = writerLimits
            limits.maxExpandedBytes = min(limits.maxExpandedBytes, max(output.budget - output.count, 0))
            let writer = TypedJSONWriter(pretty: false, limits: limits)
            let bytes: Data
            switch value.origin {
            case .userInfo(let userInfo): bytes = try writer.write(userInfo)
            case .propertyList(let plist): bytes = try writer.write(plist)
            }
            try output.append(",\"\(name)\":" + JSONText.escapingUnreadable(String(decoding: bytes, as: UTF8.self)))
        }
        if kind == .moved {
            try output.append(",\"from\":\(from!),\"to\":\(to!)")
            try value("value", new!)
        } else {
            if let old { try value("old", old) }
            if let new { try value("new", new) }
        }
        try output.append("}")
    }
}

extension JSONText {
    /// JSON text with every unreadable scalar that JSON leaves raw — DEL, the
    /// C1 controls, the line and paragraph separators, the bidirectional
    /// controls (``isUnreadable(_:)``) — written as `\uXXXX`; valid JSON stays
    /// valid and equal, since outside strings JSON holds none of them.
    static func escapingUnreadable(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isUnreadable) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if isUnreadable(scalar) {
                out.append(contentsOf: "\\u".unicodeScalars)
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: (String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
