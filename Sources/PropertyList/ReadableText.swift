package import FoundationEssentials

/// The two readable forms of a value (Specs/plistkit.md, "Output", "Diff").
package enum ReadableStyle: Sendable {
    /// `print`'s tree, shaped like `plutil -p`: one member per line, indented,
    /// `=>` after keys and indexes, dictionaries' keys sorted, sets in canonical order.
    case tree
    /// One line, as `diff` shows a value: `[a, b]`, `{"k": v}`, members as stored.
    case line
}

/// A value the readable renderer prints: a walkable tree whose scalars know their text.
package protocol ReadableValue: WalkableValue {
    /// A scalar's text in `style`, every string quoted and escaped
    /// (``JSONText/appendReadableQuoted(_:to:)``): no control or
    /// bidirectional character reaches a terminal.
    func appendReadableScalar(_ style: ReadableStyle, to out: inout String)
    /// The opening of a set in `style` (`set {` or `set[`).
    static func setOpening(_ style: ReadableStyle) -> String
}

extension ReadableValue {
    package static func setOpening(_ style: ReadableStyle) -> String { style == .tree ? "set {" : "set[" }
}

/// Renders values as people read them, through the one bounded walk into the
/// counted output (Specs/architecture.md, "One bounded walk", "One counted output").
package enum ReadableText {
    /// Appends `value` in `style` to `output`, walking it with `meter`.
    ///
    /// - Throws: ``ErrorCode/expansionLimitExceeded`` (the meter) or
    ///   ``ErrorCode/outputLimitExceeded`` (the output).
    package static func append<Value: ReadableValue>(_ value: Value, _ style: ReadableStyle, meter: inout ExpansionMeter,
                                                     to output: inout CountedOutput) throws(PropertyListError) {
        var renderer = Renderer<Value>(style: style, output: output)
        defer { output = renderer.output }
        try ValueWalk.walk(value, sorted: style == .tree, meter: &meter, visitor: &renderer)
    }

    /// `value` in `style`, with no bound: a value a program holds, described for it.
    package static func unbounded<Value: ReadableValue>(_ value: Value, _ style: ReadableStyle) -> String {
        var meter = ExpansionMeter(limit: Int.max)
        var output = CountedOutput.unbounded
        do { try append(value, style, meter: &meter, to: &output) } catch {
            preconditionFailure("an unbounded rendering failed: \(error)")
        }
        return output.text
    }

    private struct Renderer<Value: ReadableValue>: ValueVisitor {
        typealias Failure = PropertyListError
        let style: ReadableStyle
        var output: CountedOutput
        /// Line style: whether the innermost open container has shown a member yet.
        var opened: [Bool] = []

        init(style: ReadableStyle, output: CountedOutput) {
            self.style = style
            self.output = output
        }

        private static func indent(_ depth: Int) -> String { String(repeating: "  ", count: depth) }

        /// What stands before a member: its index or key, and the indentation or separator.
        private mutating func prefix(_ place: WalkPlace, depth: Int) throws(PropertyListError) {
            switch style {
            case .tree:
                switch place {
                case .root: return
                case .index(let index): try output.append(Self.indent(depth) + "\(index) => ")
                case .key(let key):
                    try output.append { text in
                        text += Self.indent(depth)
                        JSONText.appendReadableQuoted(key, to: &text)
                        text += " => "
                    }
                case .member: try output.append(Self.indent(depth))
                }
            case .line:
                guard place != .root else { return }
                if opened[opened.count - 1] { try output.append(", ") }
                opened[opened.count - 1] = true
                if case .key(let key) = place {
                    try output.append { text in
                        JSONText.appendReadableQuoted(key, to: &text)
                        text += ": "
                    }
                }
            }
        }

        /// What follows a member: a line break in the tree.
        private mutating func suffix(_ place: WalkPlace) throws(PropertyListError) {
            if style == .tree, place != .root { try output.append("\n") }
        }

        mutating func visit(scalar value: Value, at place: WalkPlace, depth: Int) throws(PropertyListError) {
            try prefix(place, depth: depth)
            try output.append { value.appendReadableScalar(style, to: &$0) }
            try suffix(place)
        }

        mutating func enter(_ value: Value, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(PropertyListError) -> Bool {
            try prefix(place, depth: depth)
            let opening: String
            switch container.kind {
            case .array: opening = "["
            case .dictionary: opening = "{"
            case .set: opening = Value.setOpening(style)
            }
            try output.append(style == .tree ? opening + "\n" : opening)
            opened.append(false)
            return true
        }

        mutating func leave(_ value: Value, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(PropertyListError) {
            opened.removeLast()
            let closing = container.kind == .array ? "]" : (style == .line && container.kind == .set ? "]" : "}")
            try output.append(style == .tree ? Self.indent(depth) + closing : closing)
            try suffix(place)
        }
    }
}

// MARK: - Property lists

extension PropertyListValue: WalkableValue {
    package var walkShape: WalkShape {
        switch self {
        case .array(let elements): return .container(WalkContainer(kind: .array, count: elements.count, identity: StorageIdentity(elements)))
        case .dictionary(let dictionary): return .container(dictionary.walkContainer)
        default: return .scalar(payload: payloadBytes)
        }
    }

    package func walkMembers(sorted: Bool) -> WalkMembers<PropertyListValue> {
        switch self {
        case .array(let elements): return WalkMembers(keys: nil, values: elements)
        case .dictionary(let dictionary): return dictionary.walkMembers(sorted: sorted)
        default: return WalkMembers(keys: nil, values: [])
        }
    }
}

extension StringKeyedDictionary {
    /// The identity of the entries' storage (``StorageIdentity``).
    package var storageIdentity: StorageIdentity { StorageIdentity(storedKeys, storedValues) }

    /// The dictionary as the walk meets it.
    package var walkContainer: WalkContainer { WalkContainer(kind: .dictionary, count: count, identity: storageIdentity) }

    /// The entries as the walk visits them: as stored, or keys in writer order.
    package func walkMembers(sorted: Bool) -> WalkMembers<Value> {
        guard sorted, count > 1 else { return WalkMembers(keys: storedKeys, values: storedValues) }
        let order = writerOrder
        return WalkMembers(keys: order.map { storedKeys[$0] }, values: order.map { storedValues[$0] })
    }
}

extension PropertyListValue: ReadableValue {
    package func appendReadableScalar(_ style: ReadableStyle, to out: inout String) {
        switch self {
        case .string(let string): JSONText.appendReadableQuoted(string, to: &out)
        case .integer(let integer): out += integer.description
        case .real(let real): out += real.description
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += style == .tree ? "<null>" : "null"
        case .uid(let uid): out += style == .tree ? "<uid \(uid)>" : "uid(\(uid))"
        case .date(let date): Self.appendDate(date, style, to: &out)
        case .data(let data): Self.appendData(data, style, to: &out)
        case .array, .dictionary: preconditionFailure("containers are walked")
        }
    }

    /// A date: the tree's description text, or ISO 8601 on a line.
    package static func appendDate(_ date: Date, _ style: ReadableStyle, to out: inout String) {
        let seconds = date.timeIntervalSinceReferenceDate
        switch style {
        case .tree: out += CivilTime.descriptionText(secondsSinceReference: seconds) ?? "<date \(seconds)>"
        case .line: out += CivilTime.iso8601(secondsSinceReference: seconds) ?? "date(\(seconds))"
        }
    }

    /// Data: its length and first and last bytes in the tree, every byte on a line.
    package static func appendData(_ data: Data, _ style: ReadableStyle, to out: inout String) {
        switch style {
        case .tree:
            out += "{length = \(data.count), bytes = 0x"
            let shown = data.count <= 24 ? data[...] : data.prefix(8)
            for byte in shown { out += Hex.lower(byte) }
            if data.count > 24 {
                out += " ... "
                for byte in data.suffix(8) { out += Hex.lower(byte) }
            }
            out += "}"
        case .line:
            out += "<"
            for byte in data { out += Hex.lower(byte) }
            out += ">"
        }
    }
}
