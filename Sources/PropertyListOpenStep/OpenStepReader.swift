public import FoundationEssentials
@_spi(ByteKit) public import PropertyList

/// Reads OpenStep ("old-style ASCII") property lists and `.strings` files
/// strictly (Specs/openstep.md): quoted and unquoted strings with CF's escapes,
/// hex data, arrays, dictionaries, comments, GNUstep's typed forms, UTF-8 and
/// UTF-16 with a byte-order mark; duplicate keys, unterminated strings and
/// comments, bad escapes and the limits refused with a line, a column and a
/// key path. Nesting is kept on a heap stack.
///
/// ```swift
/// let project = try OpenStepReader().read(Data(contentsOf: pbxproj))
/// ```
public struct OpenStepReader: Sendable {
    /// Bounds on the input and the value.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Reads one OpenStep property list or `.strings` file.
    ///
    /// - Throws: ``PropertyListError`` with the codes of Specs/openstep.md.
    public func read(_ data: Data) throws(PropertyListError) -> PropertyListValue {
        try readText([UInt8](data)).value
    }

    /// A text as read: its value, how it was encoded, and whether it is a
    /// `.strings` file (Specs/openstep.md, "`.strings` files") — what a writer
    /// needs to write it back in the same form.
    public struct Reading: Sendable {
        /// The property list.
        public var value: PropertyListValue
        /// The text's encoding (its byte-order mark, if any).
        public var encoding: TextEncoding
        /// True for a `.strings` file: the entries of a dictionary without its
        /// braces (a text of only whitespace and comments included).
        public var isStringsFile: Bool
        /// A `.strings` file's text and where each entry is, so that an edit
        /// rewrites only the entries it changes (``OpenStepWriter/writeStrings(_:over:)``);
        /// nil for any other text.
        public var stringsLayout: StringsLayout?
    }

    /// Reads one OpenStep property list or `.strings` file, and tells how it was written.
    ///
    /// - Throws: ``PropertyListError`` with the codes of Specs/openstep.md.
    public func readText(_ bytes: [UInt8]) throws(PropertyListError) -> Reading {
        try limits.validate()
        // inputTooLarge
        guard bytes.count <= limits.maxInputBytes else {
            throw PropertyListError(.inputTooLarge, "the input is \(bytes.count) bytes, over maxInputBytes \(limits.maxInputBytes)")
        }
        var parser = OpenStepParser(scalars: try Self.scalars(of: bytes), limits: limits, inputBytes: bytes.count)
        let value = try parser.parseDocument()
        var layout: StringsLayout?
        if parser.isStringsFile, case .dictionary(let dictionary) = value {
            layout = StringsLayout(scalars: parser.scalars, entries: parser.entrySpans, original: dictionary)
        }
        return Reading(value: value, encoding: TextEncoding.detect(bytes).encoding, isStringsFile: parser.isStringsFile, stringsLayout: layout)
    }

    /// CF's unquoted-string characters (Specs/openstep.md, "Values"): what the
    /// reader reads bare, and what the writer may write bare.
    static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "$", "/", ":", ".", "-": return true
        default: return false
        }
    }

    /// The text's Unicode scalars: UTF-8 (an optional byte-order mark dropped),
    /// or UTF-16 after its byte-order mark (``TextEncoding/decode(_:)``).
    static func scalars(of bytes: [UInt8]) throws(PropertyListError) -> [Unicode.Scalar] {
        Array(try TextEncoding.decode(bytes).unicodeScalars)
    }
}

/// The parser: a cursor over the scalars and a stack of open containers.
private struct OpenStepParser {
    /// An open container. Its contents are changed only through its mutating
    /// methods, in place in the stack, and the parser reads only its `state`:
    /// no copy of the elements is alive while one is added (in a debug build a
    /// `switch` over the frame keeps one, and every append copied the whole
    /// container: a .strings file of 8,000 keys took 13 times as long as one
    /// of 2,000).
    private enum Frame {
        /// An array: its elements so far, and whether a comma must come before the next.
        case array([PropertyListValue], needsComma: Bool)
        /// A dictionary: its entries and the key waiting for its value; `braced`
        /// false for a `.strings` file's top level.
        case dictionary(PropertyListDictionary, key: String?, braced: Bool)

        /// What the parser needs to know of a frame, without its contents.
        enum State {
            case array(needsComma: Bool)
            case dictionary(key: String?, braced: Bool)
        }

        var state: State {
            switch self {
            case .array(_, let needsComma): return .array(needsComma: needsComma)
            case .dictionary(_, let key, let braced): return .dictionary(key: key, braced: braced)
            }
        }

        /// Adds an array's next element; its new count.
        mutating func append(_ value: PropertyListValue) -> Int {
            guard case .array(var elements, _) = self else { preconditionFailure("not an array") }
            self = .array([], needsComma: false)   // moves the elements out: no copy on append
            elements.append(value)
            let count = elements.count
            self = .array(elements, needsComma: true)
            return count
        }

        /// Adds the value of the waiting key; the dictionary's new count, or nil
        /// when the key is there already (and the dictionary as it was).
        mutating func insert(_ value: PropertyListValue, forKey key: String) -> Int? {
            guard case .dictionary(var dictionary, let waiting, let braced) = self else { preconditionFailure("not a dictionary") }
            self = .array([], needsComma: false)   // moves the entries out: no copy on insert
            let inserted = dictionary.insertNew(value, forKey: key)
            let count = dictionary.count
            self = .dictionary(dictionary, key: waiting, braced: braced)
            return inserted ? count : nil
        }

        /// After a comma (arrays) or a key (dictionaries).
        mutating func expectElement() {
            guard case .array(let elements, _) = self else { preconditionFailure("not an array") }
            self = .array([], needsComma: false)
            self = .array(elements, needsComma: false)
        }

        mutating func wait(forKey key: String?) {
            guard case .dictionary(let dictionary, _, let braced) = self else { preconditionFailure("not a dictionary") }
            self = .array([], needsComma: false)
            self = .dictionary(dictionary, key: key, braced: braced)
        }

        /// The finished container's value.
        consuming func value() -> PropertyListValue {
            switch self {
            case .array(let elements, _): return .array(elements)
            case .dictionary(let dictionary, _, _): return .dictionary(dictionary)
            }
        }
    }

    let scalars: [Unicode.Scalar]
    var position = 0
    let limits: PropertyListLimits
    private var stack: [Frame] = []
    var objects = 0
    var expandedSize = 0
    let expansionBudget: Int
    /// Whether the text was a `.strings` file (a dictionary without braces).
    var isStringsFile = false
    /// A `.strings` file's entries, in order: where each starts (its key) and
    /// ends (after its `;`), in scalars; and where the one being read started.
    var entrySpans: [Range<Int>] = []
    private var entryStart = 0

    init(scalars: [Unicode.Scalar], limits: PropertyListLimits, inputBytes: Int) {
        self.scalars = scalars
        self.limits = limits
        expansionBudget = limits.expansionBudget(inputBytes: inputBytes)
    }

    // MARK: Errors

    /// The key path of the place being read.
    private var keyPath: PropertyListKeyPath {
        var components: [PropertyListKeyPath.Component] = []
        for frame in stack {
            switch frame {
            case .array(let elements, _): components.append(.index(elements.count))
            case .dictionary(_, let key, _): if let key { components.append(.key(key)) }
            }
        }
        return PropertyListKeyPath(components)
    }

    private func failure(_ code: ErrorCode, _ reason: String, at index: Int? = nil) -> PropertyListError {
        let at = min(index ?? position, scalars.count)
        var line = 1, column = 1, cursor = 0
        while cursor < at {
            let scalar = scalars[cursor]
            if scalar == "\n" || scalar == "\u{2028}" || scalar == "\u{2029}" || (scalar == "\r" && (cursor + 1 >= scalars.count || scalars[cursor + 1] != "\n")) {
                line += 1
                column = 1
            } else if scalar != "\r" {
                column += 1
            }
            cursor += 1
        }
        return PropertyListError(code, reason, at: .lineColumn(line: line, column: column), keyPath: keyPath)
    }

    // MARK: Characters

    private static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool { OpenStepReader.isUnquoted(scalar) }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        (0x09...0x0D).contains(scalar.value) || scalar == " " || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// Skips whitespace and comments; true when a character follows.
    private mutating func skipSpace() throws(PropertyListError) -> Bool {
        while position < scalars.count {
            let scalar = scalars[position]
            if Self.isSpace(scalar) { position += 1; continue }
            if scalar == "/", position + 1 < scalars.count {
                if scalars[position + 1] == "/" {
                    position += 2
                    while position < scalars.count, !["\n", "\r", "\u{2028}", "\u{2029}"].contains(scalars[position]) { position += 1 }
                    continue
                }
                if scalars[position + 1] == "*" {
                    let start = position
                    position += 2
                    var closed = false
                    while position + 1 < scalars.count {
                        if scalars[position] == "*" && scalars[position + 1] == "/" { closed = true; break }
                        position += 1
                    }
                    // unterminatedComment
                    guard closed else { throw failure(.unterminatedComment, "a /* comment is not closed", at: start) }
                    position += 2
                    continue
                }
            }
            return true
        }
        return false
    }

    // MARK: Document

    mutating func parseDocument() throws(PropertyListError) -> PropertyListValue {
        // truncated: a text of no characters (no bytes, or a byte-order mark alone) holds no value, as CF refuses it.
        guard !scalars.isEmpty else { throw failure(.truncated, "the text is empty") }
        // A text of only whitespace and comments is a .strings file without
        // entries, an empty dictionary (CF; Xcode's template InfoPlist.strings).
        guard try skipSpace() else {
            isStringsFile = true
            return try counted(.dictionary(PropertyListDictionary()), at: 0)
        }
        let first = scalars[position]
        if first == "\"" || first == "'" || Self.isUnquoted(first) {
            // A string, or a .strings file: the string followed by = or ;.
            let start = position
            let string = try parseString()
            let more = try skipSpace()
            if !more { return try counted(.string(string), at: start) }
            guard scalars[position] == "=" || scalars[position] == ";" else {
                throw failure(.trailingBytes, "text follows the top value")
            }
            position = start
            isStringsFile = true
            try open(.dictionary(PropertyListDictionary(), key: nil, braced: false), at: start)
            return try parseValues()
        }
        let value = try parseValues()
        // trailingBytes: nothing after the top value but space and comments.
        guard try !skipSpace() else { throw failure(.trailingBytes, "text follows the top value") }
        return value
    }

    /// Reads values until the stack is empty again.
    private mutating func parseValues() throws(PropertyListError) -> PropertyListValue {
        // The top value (unless a .strings file's dictionary is already open).
        if stack.isEmpty {
            if let value = try parseValueOrOpen() { return value }
        }
        while true {
            guard try skipSpace() else {
                // A .strings file ends at the end of the text.
                if stack.count == 1, case .dictionary(key: nil, braced: false) = stack[0].state {
                    return stack.removeLast().value()
                }
                throw failure(.truncated, "the text ends inside \(stack.count) open container\(stack.count == 1 ? "" : "s")")
            }
            let last = stack.count - 1
            let scalar = scalars[position]
            switch stack[last].state {
            case .array(let needsComma):
                if scalar == ")" {
                    // A trailing comma is allowed (CF).
                    position += 1
                    try finish()
                } else if needsComma {
                    // unexpectedCharacter: between elements, a comma.
                    guard scalar == "," else { throw failure(.unexpectedCharacter, "expected ',' or ')' in an array, found \(Self.show(scalar))") }
                    position += 1
                    stack[last].expectElement()
                } else {
                    if let value = try parseValueOrOpen() { try deliver(value) }
                }
            case .dictionary(let key?, _):
                // After a key: = value, or ; (the key is its own value).
                if scalar == "=" {
                    position += 1
                    if let value = try parseValueOrOpen() { try deliver(value) }
                } else if scalar == ";" {
                    position += 1
                    try deliver(.string(key), shortcut: true)
                } else {
                    throw failure(.unexpectedCharacter, "expected '=' or ';' after a key, found \(Self.show(scalar))")
                }
            case .dictionary(nil, let braced):
                if braced && scalar == "}" {
                    position += 1
                    try finish()
                } else if scalar == "\"" || scalar == "'" || Self.isUnquoted(scalar) {
                    let start = position
                    if !braced { entryStart = start }
                    let newKey = try parseString()
                    try count(payload: newKey.utf8.count, at: start)
                    stack[last].wait(forKey: newKey)
                } else {
                    throw failure(.unexpectedCharacter, "expected a key\(braced ? " or '}'" : "") in a dictionary, found \(Self.show(scalar))")
                }
            }
            if stack.isEmpty, let done = finishedTop { return done }
        }
    }

    /// The top container once it closed.
    private var finishedTop: PropertyListValue?

    /// Closes the innermost container: hands it to the one around it, or keeps it as the top value.
    private mutating func finish() throws(PropertyListError) {
        let finished = stack.removeLast().value()
        if stack.isEmpty { finishedTop = finished } else { try deliver(finished) }
    }

    /// Hands a finished value to the innermost container.
    private mutating func deliver(_ value: PropertyListValue, shortcut: Bool = false) throws(PropertyListError) {
        let last = stack.count - 1
        switch stack[last].state {
        case .array:
            let count = stack[last].append(value)
            // collectionLimitExceeded
            guard count <= limits.maxCollectionCount else {
                throw failure(.collectionLimitExceeded, "an array of more than \(limits.maxCollectionCount) elements (maxCollectionCount)")
            }
        case .dictionary(let key, let braced):
            guard let key else { preconditionFailure("a dictionary value follows its key") }
            // duplicateKey: each key once.
            guard let count = stack[last].insert(value, forKey: key) else {
                throw failure(.duplicateKey, "key \"\(key)\" appears more than once")
            }
            // collectionLimitExceeded
            guard count <= limits.maxCollectionCount else {
                throw failure(.collectionLimitExceeded, "a dictionary of more than \(limits.maxCollectionCount) entries (maxCollectionCount)")
            }
            if !shortcut {
                // Every entry ends in ';'.
                guard try skipSpace() else {
                    throw failure(.truncated, "the text ends where ';' should end the entry")
                }
                guard scalars[position] == ";" else {
                    throw failure(.unexpectedCharacter, "expected ';' after the value of \"\(key)\", found \(Self.show(scalars[position]))")
                }
                position += 1
            }
            if !braced { entrySpans.append(entryStart..<position) }
            stack[last].wait(forKey: nil)
        }
    }

    /// Reads a scalar value (returned) or opens a container (nil).
    private mutating func parseValueOrOpen() throws(PropertyListError) -> PropertyListValue? {
        guard try skipSpace() else { throw failure(.truncated, "the text ends where a value should be") }
        let start = position
        let scalar = scalars[position]
        switch scalar {
        case "{":
            position += 1
            try open(.dictionary(PropertyListDictionary(), key: nil, braced: true), at: start)
            return nil
        case "(":
            position += 1
            try open(.array([], needsComma: false), at: start)
            return nil
        case "<":
            return try counted(try parseAngled(), at: start)
        case "\"", "'":
            let string = try parseString()
            return try counted(.string(string), at: start)
        default:
            if Self.isUnquoted(scalar) {
                let string = try parseString()
                return try counted(.string(string), at: start)
            }
            throw failure(.unexpectedCharacter, "expected a value, found \(Self.show(scalar))")
        }
    }

    private mutating func open(_ frame: Frame, at start: Int) throws(PropertyListError) {
        _ = try counted(.null, at: start)
        // depthLimitExceeded
        guard stack.count < limits.maxDepth else {
            throw failure(.depthLimitExceeded, "containers nest deeper than \(limits.maxDepth) (maxDepth)", at: start)
        }
        stack.append(frame)
    }

    /// Counts a value against the object limit and the expansion budget.
    private mutating func counted(_ value: PropertyListValue, at start: Int) throws(PropertyListError) -> PropertyListValue {
        try count(payload: value.payloadBytes, at: start)
        return value
    }

    private mutating func count(payload: Int, at start: Int) throws(PropertyListError) {
        objects += 1
        // objectLimitExceeded
        guard objects <= limits.maxObjects else {
            throw failure(.objectLimitExceeded, "more than \(limits.maxObjects) values (maxObjects)", at: start)
        }
        expandedSize = ExpandedSize.add(expandedSize, ExpandedSize.node(depth: stack.count, payload: payload))
        // expansionLimitExceeded
        guard expandedSize <= expansionBudget else {
            throw failure(.expansionLimitExceeded, "the value expands past \(expansionBudget) bytes (the budget for its input)", at: start)
        }
    }

    // MARK: Strings

    /// A quoted or unquoted string at the cursor.
    private mutating func parseString() throws(PropertyListError) -> String {
        let start = position
        let quote = scalars[position]
        var string = String.UnicodeScalarView()
        // The string's UTF-8 length, kept as it grows (counting the view each time
        // made long strings quadratic: 80,000 characters took 2.7 s).
        var bytes = 0
        func add(_ scalar: Unicode.Scalar) throws(PropertyListError) {
            string.append(scalar)
            bytes += UTF8.width(scalar)
            // stringLimitExceeded (UTF-8 bytes)
            guard bytes <= limits.maxStringBytes else {
                throw failure(.stringLimitExceeded, "a string longer than \(limits.maxStringBytes) bytes (maxStringBytes)", at: start)
            }
        }
        if quote == "\"" || quote == "'" {
            position += 1
            while true {
                // unterminatedString
                guard position < scalars.count else { throw failure(.unterminatedString, "a quoted string is not closed", at: start) }
                let scalar = scalars[position]
                if scalar == quote { position += 1; break }
                if scalar == "\\" {
                    position += 1
                    try add(try escape(at: position - 1))
                } else {
                    try add(scalar)
                    position += 1
                }
            }
        } else {
            while position < scalars.count, Self.isUnquoted(scalars[position]) {
                try add(scalars[position])
                position += 1
            }
        }
        return String(string)
    }

    /// The character of an escape; the cursor is after the backslash.
    private mutating func escape(at start: Int) throws(PropertyListError) -> Unicode.Scalar {
        guard position < scalars.count else { throw failure(.unterminatedString, "a quoted string is not closed", at: start) }
        let scalar = scalars[position]
        position += 1
        switch scalar {
        case "a": return "\u{07}"
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "n", "\n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "v": return "\u{0B}"
        case "\"", "'", "\\": return scalar
        case "0"..."7":
            var value = scalar.value - 0x30
            for _ in 0..<2 {
                guard position < scalars.count, ("0"..."7").contains(scalars[position]) else { break }
                value = value * 8 + scalars[position].value - 0x30
                position += 1
            }
            // invalidEscape: CF maps octal escapes above \177 through the NeXTSTEP encoding.
            guard value < 0x80 else { throw failure(.invalidEscape, "an octal escape above \\177 (CF reads it in the NeXTSTEP encoding)", at: start) }
            return Unicode.Scalar(value)!
        case "U":
            var unit: UInt32 = 0
            for _ in 0..<4 {
                guard position < scalars.count, let digit = Self.hexValue(scalars[position]) else {
                    throw failure(.invalidEscape, "\\U takes four hexadecimal digits", at: start)
                }
                unit = unit << 4 | UInt32(digit)
                position += 1
            }
            if (0xD800...0xDBFF).contains(unit) {
                // A high surrogate: a \U low surrogate must follow.
                guard position + 5 < scalars.count + 0, scalars[position] == "\\", scalars[position + 1] == "U" else {
                    throw failure(.invalidEscape, "a \\U high surrogate without its low surrogate", at: start)
                }
                position += 2
                var low: UInt32 = 0
                for _ in 0..<4 {
                    guard position < scalars.count, let digit = Self.hexValue(scalars[position]) else {
                        throw failure(.invalidEscape, "\\U takes four hexadecimal digits", at: start)
                    }
                    low = low << 4 | UInt32(digit)
                    position += 1
                }
                guard (0xDC00...0xDFFF).contains(low) else { throw failure(.invalidEscape, "a \\U high surrogate without its low surrogate", at: start) }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let result = Unicode.Scalar(unit) else { throw failure(.invalidEscape, "a lone \\U low surrogate", at: start) }
            return result
        default:
            throw failure(.invalidEscape, "\\\(scalar) is no escape (CF keeps the character; we refuse)", at: start)
        }
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": return UInt8(scalar.value - 0x30)
        case "a"..."f": return UInt8(scalar.value - 0x61 + 10)
        case "A"..."F": return UInt8(scalar.value - 0x41 + 10)
        default: return nil
        }
    }

    // MARK: <data> and <*typed>

    private mutating func parseAngled() throws(PropertyListError) -> PropertyListValue {
        let start = position
        position += 1
        if position < scalars.count, scalars[position] == "*" {
            position += 1
            var text = String.UnicodeScalarView()
            while position < scalars.count, scalars[position] != ">" {
                text.append(scalars[position])
                position += 1
                guard text.count <= 64 else { break }
            }
            guard position < scalars.count, scalars[position] == ">" else {
                throw failure(.invalidTypedValue, "a <* typed value is not closed by '>'", at: start)
            }
            position += 1
            return try typed(String(text), at: start)
        }
        var bytes: [UInt8] = []
        var high: UInt8?
        while true {
            guard position < scalars.count else { throw failure(.invalidHexData, "data is not closed by '>'", at: start) }
            let scalar = scalars[position]
            position += 1
            if scalar == ">" { break }
            if let digit = Self.hexValue(scalar) {
                if let first = high {
                    bytes.append(first << 4 | digit)
                    high = nil
                    // dataLimitExceeded
                    guard bytes.count <= limits.maxDataBytes else {
                        throw failure(.dataLimitExceeded, "data longer than \(limits.maxDataBytes) bytes (maxDataBytes)", at: start)
                    }
                } else {
                    high = digit
                }
            } else if high == nil, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" {
                continue
            } else {
                // invalidHexData: hex digit pairs and whitespace between them.
                throw failure(.invalidHexData, high == nil ? "\(Self.show(scalar)) in data" : "an odd hex digit in data", at: position - 1)
            }
        }
        guard high == nil else { throw failure(.invalidHexData, "an odd number of hex digits in data", at: start) }
        return .data(Data(bytes))
    }

    /// GNUstep's typed forms: `I`, `R`, `B`, `D`.
    private func typed(_ text: String, at start: Int) throws(PropertyListError) -> PropertyListValue {
        // invalidTypedValue
        let kind = text.first
        let body = String(text.dropFirst())
        switch kind {
        case "I":
            if let integer = PropertyListInteger(decimal: body) { return .integer(integer) }
        case "R":
            if let real = Double(body), real.isFinite { return .real(real) }
        case "B":
            if body == "Y" { return .bool(true) }
            if body == "N" { return .bool(false) }
        case "D":
            if let seconds = Self.gnustepDate(body) { return .date(Date(timeIntervalSinceReferenceDate: seconds)) }
        default:
            break
        }
        throw failure(.invalidTypedValue, "<*\(text)> is not a GNUstep integer, real, boolean or date", at: start)
    }

    /// `YYYY-MM-DD HH:MM:SS ±HHMM` as seconds since 2001.
    static func gnustepDate(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 3 else { return nil }
        let day = parts[0].split(separator: "-"), time = parts[1].split(separator: ":")
        let zone = parts[2]
        guard day.count == 3, time.count == 3, zone.count == 5, let sign = zone.first, sign == "+" || sign == "-",
              day.allSatisfy({ $0.allSatisfy(\.isASCII) }), day[0].count == 4, day[1].count == 2, day[2].count == 2,
              time.allSatisfy({ $0.count == 2 }),
              let year = Int(day[0]), let month = Int(day[1]), let dayOfMonth = Int(day[2]),
              let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
              let zoneHours = Int(zone.dropFirst().prefix(2)), let zoneMinutes = Int(zone.suffix(2)) else { return nil }
        let civil = CivilTime(year: year, month: month, day: dayOfMonth, hour: hour, minute: minute, second: second)
        guard civil.isValid, zoneHours < 24, zoneMinutes < 60 else { return nil }
        let offset = Double((zoneHours * 60 + zoneMinutes) * 60) * (sign == "-" ? -1 : 1)
        let seconds = Double(civil.secondsSinceReference) - offset
        // In UTC too, a date of years 0000–9999: what the writer writes back (found by
        // fuzzing: 0000-01-01 00:00:11 +0006 is in year -1).
        guard PropertyListValue.isValidDate(seconds), let utc = CivilTime.iso8601(secondsSinceReference: seconds), utc.count == 20 else { return nil }
        return seconds
    }

    private static func show(_ scalar: Unicode.Scalar) -> String {
        scalar.value < 0x20 || scalar.value == 0x7F ? "U+\(String(scalar.value, radix: 16, uppercase: true))" : "'\(scalar)'"
    }
}
