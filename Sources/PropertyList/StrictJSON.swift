package import FoundationEssentials

/// A strict RFC 8259 JSON parser for typed JSON: UTF-8 only (a leading BOM is
/// skipped), no comments, no trailing commas, no duplicate object keys, no
/// unescaped control characters, no lone surrogates, one value and nothing
/// after it, nesting bounded. Every node keeps its line and column so that
/// errors can say where. See `Specs/typed-json.md`, "Reading".
package struct StrictJSON: ~Escapable {
    /// A parsed JSON value with the place it starts.
    package indirect enum Node {
        case object([(key: String, value: Node)], at: Position)
        case array([Node], at: Position)
        case string(String, at: Position)
        case number(String, at: Position)
        case bool(Bool, at: Position)
        case null(at: Position)

        package var position: Position {
            switch self {
            case .object(_, let at), .array(_, let at), .string(_, let at), .number(_, let at), .bool(_, let at), .null(let at):
                return at
            }
        }

        package var kind: String {
            switch self {
            case .object: return "an object"
            case .array: return "an array"
            case .string: return "a string"
            case .number: return "a number"
            case .bool: return "a boolean"
            case .null: return "null"
            }
        }
    }

    /// A 1-based line and column (columns count bytes).
    package struct Position: Sendable {
        package var line: Int
        package var column: Int
    }

    package struct Failure: Error {
        package var code: ErrorCode
        package var reason: String
        package var position: Position
    }

    /// The input, read through the kit's one reader: its cursor is the parse position.
    private var input: ByteReader
    private var line = 1
    private var lineStart = 0
    private let maxDepth: Int
    private let maxStringBytes: Int

    /// Parses one JSON document from a span of its bytes.
    package static func parse(_ bytes: RawSpan, maxDepth: Int, maxStringBytes: Int) throws(Failure) -> Node {
        var parser = StrictJSON(bytes, maxDepth: maxDepth, maxStringBytes: maxStringBytes)
        if parser.input.getByte(at: 0) == 0xEF, parser.input.getByte(at: 1) == 0xBB, parser.input.getByte(at: 2) == 0xBF {
            _ = parser.input.skip(3)
            parser.lineStart = 3
        }
        parser.skipWhitespace()
        let node = try parser.document()
        parser.skipWhitespace()
        guard parser.input.isAtEnd else {
            throw parser.failure("text after the JSON value")
        }
        return node
    }

    /// Parses one JSON document.
    package static func parse(_ bytes: [UInt8], maxDepth: Int, maxStringBytes: Int) throws(Failure) -> Node {
        try parse(bytes.span.bytes, maxDepth: maxDepth, maxStringBytes: maxStringBytes)
    }

    /// Parses one JSON document.
    package static func parse(_ data: Data, maxDepth: Int, maxStringBytes: Int) throws(Failure) -> Node {
        try parse(data.bytes, maxDepth: maxDepth, maxStringBytes: maxStringBytes)
    }

    @_lifetime(copy bytes)
    private init(_ bytes: RawSpan, maxDepth: Int, maxStringBytes: Int) {
        self.input = ByteReader(bytes)
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
    }

    /// The offset of the next byte.
    private var offset: Int { input.offset }
    /// The byte at the cursor, nil at the end.
    private var current: UInt8? { input.getByte(at: input.offset) }

    /// Moves past `count` bytes the caller has seen.
    private mutating func advance(_ count: Int = 1) {
        let moved = input.skip(count)
        assert(moved, "advanced past the end")
    }

    private var position: Position { Position(line: line, column: offset - lineStart + 1) }

    private func failure(_ reason: String, _ code: ErrorCode = .invalidJSON) -> Failure {
        Failure(code: code, reason: reason, position: position)
    }

    private mutating func skipWhitespace() {
        while let byte = current {
            switch byte {
            case 0x20, 0x09, 0x0D: advance()
            case 0x0A: advance(); line += 1; lineStart = offset
            default: return
            }
        }
    }

    /// An array or object being parsed: one per level of the explicit stack,
    /// so that no depth a caller allows can overflow the thread's stack
    /// (Specs/architecture.md, "One stack policy").
    private struct Frame {
        let start: Position
        let isObject: Bool
        var elements: [Node] = []
        var members: [(key: String, value: Node)] = []
        /// The object's keys so far (duplicateKey), and the key of the member being parsed.
        var seen = Set<[UInt8]>()
        var key = ""
    }

    /// The value at `offset` and everything inside it.
    private mutating func document() throws(Failure) -> Node {
        var stack: [Frame] = []
        while true {
            // A value starts here, at depth `stack.count`.
            guard stack.count <= maxDepth else { throw failure("JSON nests deeper than \(maxDepth)", .depthLimitExceeded) }
            guard let first = current else { throw failure("the JSON ends where a value should start") }
            let start = position
            var node: Node
            switch first {
            case UInt8(ascii: "{"):
                guard let empty = try open(isObject: true, at: start, &stack) else { continue }
                node = empty
            case UInt8(ascii: "["):
                guard let empty = try open(isObject: false, at: start, &stack) else { continue }
                node = empty
            case UInt8(ascii: "\""): node = .string(try string(), at: start)
            case UInt8(ascii: "t"): try literal("true"); node = .bool(true, at: start)
            case UInt8(ascii: "f"): try literal("false"); node = .bool(false, at: start)
            case UInt8(ascii: "n"): try literal("null"); node = .null(at: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): node = .number(try number(), at: start)
            default: throw failure("unexpected character '\(Self.show(first))'")
            }
            // Hand the value to its container; close every container that ends here.
            while let top = stack.indices.last {
                if stack[top].isObject {
                    stack[top].members.append((stack[top].key, node))
                } else {
                    stack[top].elements.append(node)
                }
                skipWhitespace()
                guard let next = current else {
                    throw failure(stack[top].isObject ? "the JSON ends inside an object" : "the JSON ends inside an array")
                }
                if next == UInt8(ascii: ",") {
                    advance()
                    skipWhitespace()
                    if stack[top].isObject { try memberKey(&stack[top]) }
                    break
                }
                let frame = stack.removeLast()
                if frame.isObject {
                    guard next == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
                    node = .object(frame.members, at: frame.start)
                } else {
                    guard next == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
                    node = .array(frame.elements, at: frame.start)
                }
                advance()
            }
            if stack.isEmpty { return node }
        }
    }

    /// An object or array opens at `start`, its bracket at the cursor: its
    /// node when it is empty; else nil, its frame pushed (an object's read up
    /// to where its first value starts).
    @inline(__always)
    private mutating func open(isObject: Bool, at start: Position, _ stack: inout [Frame]) throws(Failure) -> Node? {
        advance()
        skipWhitespace()
        if current == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            advance()
            return isObject ? .object([], at: start) : .array([], at: start)
        }
        stack.append(Frame(start: start, isObject: isObject))
        if isObject { try memberKey(&stack[stack.count - 1]) }
        return nil
    }

    /// An object member's key and colon, up to where its value starts.
    private mutating func memberKey(_ frame: inout Frame) throws(Failure) {
        guard current == UInt8(ascii: "\"") else { throw failure("expected a string key") }
        let keyPosition = position
        let key = try string()
        // duplicateKey: JSON objects name each key once (compared by scalars):
        // by scan while an object is small, then through a set of the keys' bytes.
        let isNew: Bool
        if frame.seen.isEmpty && frame.members.count < 8 {
            isNew = !frame.members.contains { $0.key.utf8.elementsEqual(key.utf8) }
        } else {
            if frame.seen.isEmpty { for member in frame.members { frame.seen.insert(Array(member.key.utf8)) } }
            isNew = frame.seen.insert(Array(key.utf8)).inserted
        }
        guard isNew else {
            throw Failure(code: .duplicateKey, reason: "key \"\(key)\" appears more than once", position: keyPosition)
        }
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
        advance()
        skipWhitespace()
        frame.key = key
    }

    /// True when the bytes at the cursor spell `word` (ASCII).
    private func lookingAt(_ word: StaticString) -> Bool {
        let text = word.utf8Start
        for k in 0..<word.utf8CodeUnitCount where input.getByte(at: offset + k) != text[k] { return false }
        return true
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        guard lookingAt(word) else { throw failure("expected \(word)") }
        advance(word.utf8CodeUnitCount)
    }

    /// The bytes at `range` as a string when they are valid UTF-8 (a string's raw bytes must be).
    private func validText(_ range: Range<Int>) throws(Failure) -> String {
        guard let text = input.bytes.extracting(range).validUTF8String else {
            throw Failure(code: .invalidJSON, reason: "a string is not valid UTF-8", position: position)
        }
        return text
    }

    /// A string literal at `offset` (which holds the opening quote).
    private mutating func string() throws(Failure) -> String {
        advance()
        var scalars = String.UnicodeScalarView()
        var runStart = offset
        var byteCount = 0
        while true {
            guard let byte = current else { throw failure("the JSON ends inside a string") }
            byteCount += 1
            guard byteCount <= maxStringBytes else { throw failure("a string is longer than \(maxStringBytes) bytes", .stringLimitExceeded) }
            switch byte {
            case UInt8(ascii: "\""):
                // No escape met: the string is its raw bytes, validated once.
                if scalars.isEmpty {
                    let text = try validText(runStart..<offset)
                    advance()
                    return text
                }
                if runStart < offset { scalars.append(contentsOf: try validText(runStart..<offset).unicodeScalars) }
                advance()
                return String(scalars)
            case UInt8(ascii: "\\"):
                if runStart < offset { scalars.append(contentsOf: try validText(runStart..<offset).unicodeScalars) }
                advance()
                guard let escape = current else { throw failure("the JSON ends inside an escape") }
                advance()
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let unit = try hex4()
                    if (0xD800...0xDBFF).contains(unit) {
                        guard lookingAt("\\u") else {
                            throw failure("a high surrogate escape is not followed by a low one")
                        }
                        advance(2)
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("a high surrogate escape is not followed by a low one") }
                        scalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                    } else {
                        guard let scalar = Unicode.Scalar(unit) else { throw failure("a lone low surrogate escape") }
                        scalars.append(scalar)
                    }
                default:
                    throw failure("unknown escape '\\\(Self.show(escape))'")
                }
                runStart = offset
            case 0x00..<0x20:
                throw failure("an unescaped control character in a string")
            default:
                advance()
            }
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard input.remaining >= 4 else { throw failure("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = current!
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            advance()
        }
        return value
    }

    /// Moves past the digits at the cursor; how many there were.
    private mutating func digits() -> Int {
        let from = offset
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { advance() }
        return offset - from
    }

    /// A number per the JSON grammar, kept as text.
    private mutating func number() throws(Failure) -> String {
        let start = offset
        if current == UInt8(ascii: "-") { advance() }
        guard let first = current else { throw failure("a number without digits") }
        if first == UInt8(ascii: "0") { advance() } else if digits() == 0 { throw failure("a number without digits") }
        if current == UInt8(ascii: ".") {
            advance()
            guard digits() > 0 else { throw failure("a number with no digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard digits() > 0 else { throw failure("a number with no exponent digits") }
        }
        return input.bytes.extracting(start..<offset).decodedString
    }

    private static func show(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }
}
