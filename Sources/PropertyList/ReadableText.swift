public import FoundationEssentials

/// The two readable forms of a value (Specs/plistkit.md, "Output", "Diff").
@_spi(ByteKit) public enum ReadableStyle: Sendable {
    /// `print`'s tree, shaped like `plutil -p`: one member per line, indented,
    /// `=>` after keys and indexes, dictionaries' keys sorted, sets in canonical order.
    case tree
    /// One line, as `diff` shows a value: `[a, b]`, `{"k": v}`, members as stored.
    case line
}

/// A value the readable renderer prints: a walkable tree whose scalars know their text.
@_spi(ByteKit) public protocol ReadableValue: WalkableValue {
    /// A scalar's text in `style`, every string quoted and escaped
    /// (``JSONText/appendReadableQuoted(_:to:)``): no control or
    /// bidirectional character reaches a terminal.
    func appendReadableScalar(_ style: ReadableStyle, to out: inout String)
    /// The opening of a set in `style` (`set {` or `set[`).
    static func setOpening(_ style: ReadableStyle) -> String
}

@_spi(ByteKit) extension ReadableValue {
    @inlinable public static func setOpening(_ style: ReadableStyle) -> String { style == .tree ? "set {" : "set[" }
}

/// Renders values as people read them, through the one bounded walk into the
/// counted output (Specs/architecture.md, "One bounded walk", "One counted output").
@_spi(ByteKit) public enum ReadableText {
    /// Appends `value` in `style` to `output`, walking it with `meter`.
    ///
    /// - Throws: ``ErrorCode/expansionLimitExceeded`` (the meter) or
    ///   ``ErrorCode/outputLimitExceeded`` (the output).
    @inlinable
    public static func append<Value: ReadableValue>(_ value: Value, _ style: ReadableStyle, meter: inout ExpansionMeter,
                                                     to output: inout CountedOutput) throws(PropertyListError) {
        var renderer = Renderer<Value>(style: style, output: output)
        defer { output = renderer.output }
        try ValueWalk.walk(value, sorted: style == .tree, meter: &meter, visitor: &renderer)
    }

    /// `value` in `style`, with no bound: a value a program holds, described for it.
    @inlinable
    public static func unbounded<Value: ReadableValue>(_ value: Value, _ style: ReadableStyle) -> String {
        var meter = ExpansionMeter(limit: Int.max)
        var output = CountedOutput.unbounded
        do { try append(value, style, meter: &meter, to: &output) } catch {
            preconditionFailure("an unbounded rendering failed: \(error)")
        }
        return output.text
    }

    @usableFromInline struct Renderer<Value: ReadableValue>: ValueVisitor {
        @usableFromInline typealias Failure = PropertyListError
        @usableFromInline let style: ReadableStyle
        @usableFromInline var output: CountedOutput
        /// Line style: whether the innermost open container has shown a member yet.
        @usableFromInline var opened: [Bool] = []
        /// The tree's indentation of each depth met so far.
        @usableFromInline var indents: [String] = [""]

        @inlinable init(style: ReadableStyle, output: CountedOutput) {
            self.style = style
            self.output = output
        }

        /// A key, quoted and escaped (``JSONText/appendReadableQuoted(_:to:)``).
        @usableFromInline static func quote(_ key: String, to text: inout String) {
            JSONText.appendReadableQuoted(key, to: &text)
        }

        /// Two spaces a level, made once per depth.
        @inlinable mutating func indent(_ depth: Int) -> String {
            while indents.count <= depth { indents.append(indents[indents.count - 1] + "  ") }
            return indents[depth]
        }

        /// Writes one piece into the output in place; `opened` is lent out
        /// beside it, so that the piece's text and the line style's separator
        /// state are both at hand.
        @inlinable mutating func write(_ build: (inout String, inout [Bool]) -> Void) throws(PropertyListError) {
            var opened = self.opened
            self.opened = []
            defer { self.opened = opened }
            try output.append { text in build(&text, &opened) }
        }

        /// What stands before a member: its index or key, and the indentation or separator.
        @inlinable static func prefix(_ style: ReadableStyle, _ place: WalkPlace, indent: String, to text: inout String, _ opened: inout [Bool]) {
            switch style {
            case .tree:
                switch place {
                case .root: return
                case .index(let index):
                    text += indent
                    text += String(index)
                    text += " => "
                case .key(let key):
                    text += indent
                    quote(key, to: &text)
                    text += " => "
                case .member: text += indent
                }
            case .line:
                guard place != .root else { return }
                if opened[opened.count - 1] { text += ", " }
                opened[opened.count - 1] = true
                if case .key(let key) = place {
                    quote(key, to: &text)
                    text += ": "
                }
            }
        }

        @inlinable mutating func visit(scalar value: Value, at place: WalkPlace, depth: Int) throws(PropertyListError) {
            let style = style
            let indent = style == .tree ? indent(depth) : ""
            try write { text, opened in
                Self.prefix(style, place, indent: indent, to: &text, &opened)
                value.appendReadableScalar(style, to: &text)
                // What follows a member: a line break in the tree.
                if style == .tree, place != .root { text += "\n" }
            }
        }

        @inlinable mutating func enter(_ value: Value, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(PropertyListError) -> Bool {
            let style = style
            let indent = style == .tree ? indent(depth) : ""
            try write { text, opened in
                Self.prefix(style, place, indent: indent, to: &text, &opened)
                switch container.kind {
                case .array: text += "["
                case .dictionary: text += "{"
                case .set: text += Value.setOpening(style)
                }
                if style == .tree { text += "\n" }
                opened.append(false)
            }
            return true
        }

        @inlinable mutating func leave(_ value: Value, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(PropertyListError) {
            let style = style
            let indent = style == .tree ? indent(depth) : ""
            try write { text, opened in
                opened.removeLast()
                text += indent
                text += container.kind == .array || (style == .line && container.kind == .set) ? "]" : "}"
                if style == .tree, place != .root { text += "\n" }
            }
        }
    }
}

// MARK: - Property lists

@_spi(ByteKit) extension PropertyListValue: WalkableValue {
    @inlinable public var walkShape: WalkShape {
        switch self {
        case .array(let elements): return .container(WalkContainer(kind: .array, count: elements.count, identity: StorageIdentity(elements)))
        case .dictionary(let dictionary): return .container(dictionary.walkContainer)
        default: return .scalar(payload: payloadBytes)
        }
    }

    public func walkMembers(sorted: Bool) -> WalkMembers<PropertyListValue> {
        switch self {
        case .array(let elements): return WalkMembers(keys: nil, values: elements)
        case .dictionary(let dictionary): return dictionary.walkMembers(sorted: sorted)
        default: return WalkMembers(keys: nil, values: [])
        }
    }
}

extension StringKeyedDictionary {
    /// The identity of the entries' storage (``StorageIdentity``).
    @_spi(ByteKit) @inlinable public var storageIdentity: StorageIdentity { StorageIdentity(storedKeys, storedValues) }

    /// The dictionary as the walk meets it.
    @_spi(ByteKit) @inlinable public var walkContainer: WalkContainer { WalkContainer(kind: .dictionary, count: count, identity: storageIdentity) }

    /// The entries as the walk visits them: as stored, or keys in writer order.
    @_spi(ByteKit) public func walkMembers(sorted: Bool) -> WalkMembers<Value> {
        guard sorted, count > 1 else { return WalkMembers(keys: storedKeys, values: storedValues) }
        let order = writerOrder
        return WalkMembers(keys: order.map { storedKeys[$0] }, values: order.map { storedValues[$0] })
    }
}

@_spi(ByteKit) extension PropertyListValue: ReadableValue {
    public func appendReadableScalar(_ style: ReadableStyle, to out: inout String) {
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
    @_spi(ByteKit) public static func appendDate(_ date: Date, _ style: ReadableStyle, to out: inout String) {
        let seconds = date.timeIntervalSinceReferenceDate
        switch style {
        case .tree: out += CivilTime.descriptionText(secondsSinceReference: seconds) ?? "<date \(seconds)>"
        case .line: out += CivilTime.iso8601(secondsSinceReference: seconds) ?? "date(\(seconds))"
        }
    }

    /// Data: its length and first and last bytes in the tree, every byte on a line.
    @_spi(ByteKit) public static func appendData(_ data: Data, _ style: ReadableStyle, to out: inout String) {
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
