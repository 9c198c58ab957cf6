import FoundationEssentials
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
public struct OpenStepReader: BytesReader, Sendable {
    /// Bounds on the input and the value.
    public var limits: PropertyListLimits

    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }

    /// Reads one OpenStep property list or `.strings` file from a span of its
    /// bytes (`Data` and arrays: ``BytesReader``).
    ///
    /// - Throws: ``PropertyListError`` with the codes of Specs/openstep.md.
    public func read(_ bytes: RawSpan) throws(PropertyListError) -> PropertyListValue {
        try readText(bytes).value
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
        try readText(bytes.span.bytes)
    }

    /// Reads one OpenStep property list or `.strings` file from a span of its
    /// bytes, and tells how it was written. UTF-8 is read in place; UTF-16 is
    /// decoded (``TextEncoding``), and its UTF-8 read.
    ///
    /// - Throws: ``PropertyListError`` with the codes of Specs/openstep.md.
    public func readText(_ bytes: RawSpan) throws(PropertyListError) -> Reading {
        try limits.validate()
        // inputTooLarge
        guard bytes.byteCount <= limits.maxInputBytes else {
            throw PropertyListError(.inputTooLarge, "the input is \(bytes.byteCount) bytes, over maxInputBytes \(limits.maxInputBytes)")
        }
        let (encoding, markLength) = TextEncoding.detect(bytes)
        switch encoding {
        case .utf8, .utf8WithByteOrderMark:
            // invalidUTF8: the text is checked whole before it is read.
            _ = try TextEncoding.checkedUTF8(bytes, markLength: markLength)
            return try read(utf8: bytes.extracting(markLength...), encoding: encoding, inputBytes: bytes.byteCount)
        case .utf16LittleEndian, .utf16BigEndian:
            let text = try TextEncoding.decode(bytes)
            let inputBytes = bytes.byteCount
            return try text.withUTF8Span { utf8 in
                Result { () throws(PropertyListError) -> Reading in try read(utf8: utf8.bytes, encoding: encoding, inputBytes: inputBytes) }
            }.get()
        }
    }

    /// Reads checked UTF-8 text.
    private func read(utf8: RawSpan, encoding: TextEncoding, inputBytes: Int) throws(PropertyListError) -> Reading {
        var parser = OpenStepParser(utf8, limits: limits, inputBytes: inputBytes)
        let value = try parser.parseDocument()
        var layout: StringsLayout?
        if parser.isStringsFile, case .dictionary(let dictionary) = value {
            layout = StringsLayout(utf8: utf8.array, entries: parser.entrySpans, original: dictionary)
        }
        return Reading(value: value, encoding: encoding, isStringsFile: parser.isStringsFile, stringsLayout: layout)
    }

    /// CF's unquoted-string characters (Specs/openstep.md, "Values"): what the
    /// reader reads bare, and what the writer may write bare.
    static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && isUnquoted(UInt8(scalar.value))
    }

    /// The same, for a byte of UTF-8 (only ASCII is unquoted).
    static func isUnquoted(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"): return true
        default: return false
        }
    }
}

/// The parser: a cursor over the text's UTF-8 (the kit's ``ByteReader``) and
/// a stack of open containers. Places are byte offsets into the text; an
/// error's line and column count Unicode scalars, as they are counted when
/// it is reported (``failure(_:_:at:)``).
struct OpenStepParser: ~Escapable {
    /// An open container. Its contents are changed only through its mutating
    /// methods, in place in the stack, and the parser reads only its `state`:
    /// no copy of the elements is alive while one is added (in a debug build a
    /// `switch` over the frame keeps one, and every append copied the whole
    /// container: a .strings file of 8,000 keys took 13 times as long as one
    /// of 2,000).
    enum Frame {
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

    /// The text (checked UTF-8) and the cursor.
    var input: ByteReader
    let limits: PropertyListLimits
    private var stack: [Frame] = []
    var objects = 0
    var expandedSize = 0
    let expansionBudget: Int
    /// Whether the text was a `.strings` file (a dictionary without braces).
    var isStringsFile = false
    /// A `.strings` file's entries, in order: where each starts (its key) and
    /// ends (after its `;`), in bytes; and where the one being read started.
    var entrySpans: [Range<Int>] = []
    private var entryStart = 0

    @_lifetime(copy utf8)
    init(_ utf8: RawSpan, limits: PropertyListLimits, inputBytes: Int) {
        self.input = ByteReader(utf8)
        self.limits = limits
        expansionBudget = limits.expansionBudget(inputBytes: inputBytes)
    }

    // MARK: The cursor

    /// The offset of the next byte.
    var position: Int { input.offset }
    /// The byte at the cursor, nil at the end of the text.
    var current: UInt8? { input.getByte(at: input.offset) }
    /// The byte at `offset`, nil past the end.
    func byte(at offset: Int) -> UInt8? { input.getByte(at: offset) }

    /// Moves past `count` bytes the caller has seen.
    mutating func advance(_ count: Int = 1) {
        let moved = input.skip(count)
        assert(moved, "advanced past the end")
    }

    /// The Unicode scalar that starts at `offset` (the text is checked UTF-8)
    /// and its length in bytes.
    func scalar(at offset: Int) -> (scalar: Unicode.Scalar, length: Int) {
        let lead = input[offset]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard length > 1 else { return (Unicode.Scalar(lead), 1) }
        var value = UInt32(lead) & (0x7F >> length)
        for k in 1..<length { value = value << 6 | UInt32(input[offset + k] & 0x3F) }
        return (Unicode.Scalar(value)!, length)
    }

    /// The length of the line separator or paragraph separator (U+2028,
    /// U+2029: `E2 80 A8`, `E2 80 A9`) at `offset`, or 0.
    func separatorLength(at offset: Int) -> Int {
        guard byte(at: offset) == 0xE2, byte(at: offset + 1) == 0x80, let last = byte(at: offset + 2), last == 0xA8 || last == 0xA9 else { return 0 }
        return 3
    }

    /// The length of the whitespace character at `offset` (ASCII 09–0D,
    /// space, U+2028, U+2029), or 0.
    func spaceLength(at offset: Int) -> Int {
        guard let byte = byte(at: offset) else { return 0 }
        if (0x09...0x0D).contains(byte) || byte == 0x20 { return 1 }
        return separatorLength(at: offset)
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

    /// An error at `index` (a byte offset; the cursor when nil), located by
    /// line and column: lines end at LF, CR, CR LF, U+2028 and U+2029, and
    /// columns count Unicode scalars.
    func failure(_ code: ErrorCode, _ reason: String, at index: Int? = nil) -> PropertyListError {
        let count = input.count
        let at = min(index ?? position, count)
        var line = 1, column = 1, cursor = 0
        while cursor < at {
            let (scalar, length) = scalar(at: cursor)
            if scalar == "\n" || scalar == "\u{2028}" || scalar == "\u{2029}" || (scalar == "\r" && (cursor + 1 >= count || input[cursor + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if scalar != "\r" {
                column += 1
            }
            cursor += length
        }
        return PropertyListError(code, reason, at: .lineColumn(line: line, column: column), keyPath: keyPath)
    }

    /// Skips whitespace and comments; true when a character follows.
    private mutating func skipSpace() throws(PropertyListError) -> Bool {
        while let byte = current {
            let space = spaceLength(at: position)
            if space > 0 { advance(space); continue }
            if byte == UInt8(ascii: "/"), let next = self.byte(at: position + 1) {
                if next == UInt8(ascii: "/") {
                    advance(2)
                    // To the end of the line (LF, CR, U+2028, U+2029), which is not skipped here.
                    while let byte = current, byte != 0x0A, byte != 0x0D, separatorLength(at: position) == 0 { advance() }
                    continue
                }
                if next == UInt8(ascii: "*") {
                    let start = position
                    advance(2)
                    var closed = false
                    while position + 1 < input.count {
                        if input[position] == UInt8(ascii: "*") && input[position + 1] == UInt8(ascii: "/") { closed = true; break }
                        advance()
                    }
                    // unterminatedComment
                    guard closed else { throw failure(.unterminatedComment, "a /* comment is not closed", at: start) }
                    advance(2)
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
        guard input.count > 0 else { throw failure(.truncated, "the text is empty") }
        // A text of only whitespace and comments is a .strings file without
        // entries, an empty dictionary (CF; Xcode's template InfoPlist.strings).
        guard try skipSpace() else {
            isStringsFile = true
            return try counted(.dictionary(PropertyListDictionary()), at: 0)
        }
        let first = current!
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") || OpenStepReader.isUnquoted(first) {
            // A string, or a .strings file: the string followed by = or ;.
            let start = position
            let string = try parseString()
            let more = try skipSpace()
            if !more { return try counted(.string(string), at: start) }
            guard current == UInt8(ascii: "=") || current == UInt8(ascii: ";") else {
                throw failure(.trailingBytes, "text follows the top value")
            }
            _ = input.move(to: start)
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
            let byte = current!
            switch stack[last].state {
            case .array(let needsComma):
                if byte == UInt8(ascii: ")") {
                    // A trailing comma is allowed (CF).
                    advance()
                    try finish()
                } else if needsComma {
                    // unexpectedCharacter: between elements, a comma.
                    guard byte == UInt8(ascii: ",") else { throw failure(.unexpectedCharacter, "expected ',' or ')' in an array, found \(shown())") }
                    advance()
                    stack[last].expectElement()
                } else {
                    if let value = try parseValueOrOpen() { try deliver(value) }
                }
            case .dictionary(let key?, _):
                // After a key: = value, or ; (the key is its own value).
                if byte == UInt8(ascii: "=") {
                    advance()
                    if let value = try parseValueOrOpen() { try deliver(value) }
                } else if byte == UInt8(ascii: ";") {
                    advance()
                    try deliver(.string(key), shortcut: true)
                } else {
                    throw failure(.unexpectedCharacter, "expected '=' or ';' after a key, found \(shown())")
                }
            case .dictionary(nil, let braced):
                if braced && byte == UInt8(ascii: "}") {
                    advance()
                    try finish()
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || OpenStepReader.isUnquoted(byte) {
                    let start = position
                    if !braced { entryStart = start }
                    let newKey = try parseString()
                    try count(payload: newKey.utf8.count, at: start)
                    stack[last].wait(forKey: newKey)
                } else {
                    throw failure(.unexpectedCharacter, "expected a key\(braced ? " or '}'" : "") in a dictionary, found \(shown())")
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
                guard current == UInt8(ascii: ";") else {
                    throw failure(.unexpectedCharacter, "expected ';' after the value of \"\(key)\", found \(shown())")
                }
                advance()
            }
            if !braced { entrySpans.append(entryStart..<position) }
            stack[last].wait(forKey: nil)
        }
    }

    /// Reads a scalar value (returned) or opens a container (nil).
    private mutating func parseValueOrOpen() throws(PropertyListError) -> PropertyListValue? {
        guard try skipSpace() else { throw failure(.truncated, "the text ends where a value should be") }
        let start = position
        switch current! {
        case UInt8(ascii: "{"):
            advance()
            try open(.dictionary(PropertyListDictionary(), key: nil, braced: true), at: start)
            return nil
        case UInt8(ascii: "("):
            advance()
            try open(.array([], needsComma: false), at: start)
            return nil
        case UInt8(ascii: "<"):
            return try counted(try parseAngled(), at: start)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let string = try parseString()
            return try counted(.string(string), at: start)
        case let byte:
            if OpenStepReader.isUnquoted(byte) {
                let string = try parseString()
                return try counted(.string(string), at: start)
            }
            throw failure(.unexpectedCharacter, "expected a value, found \(shown())")
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
    mutating func counted(_ value: PropertyListValue, at start: Int) throws(PropertyListError) -> PropertyListValue {
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

    /// The character at the cursor, for a message.
    func shown() -> String { Self.show(scalar(at: position).scalar) }

    static func show(_ scalar: Unicode.Scalar) -> String {
        scalar.value < 0x20 || scalar.value == 0x7F ? "U+\(String(scalar.value, radix: 16, uppercase: true))" : "'\(scalar)'"
    }
}
