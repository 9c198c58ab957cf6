
/// A strict RFC 8259 JSON parser for typed JSON: UTF-8 only (a leading BOM is
/// skipped), no comments, no trailing commas, no duplicate object keys, no
/// unescaped control characters, no lone surrogates, one value and nothing
/// after it, nesting bounded. Every node keeps its line and column so that
/// errors can say where. See `Specs/typed-json.md`, "Reading".
package struct StrictJSON {
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

    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var lineStart = 0
    private let maxDepth: Int
    private let maxStringBytes: Int

    /// Parses one JSON document.
    package static func parse(_ bytes: [UInt8], maxDepth: Int, maxStringBytes: Int) throws(Failure) -> Node {
        var parser = StrictJSON(bytes: bytes, maxDepth: maxDepth, maxStringBytes: maxStringBytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.offset = 3; parser.lineStart = 3 }
        parser.skipWhitespace()
        let node = try parser.document()
        parser.skipWhitespace()
        guard parser.offset == bytes.count else {
            throw parser.failure("text after the JSON value")
        }
        return node
    }

    private init(bytes: [UInt8], maxDepth: Int, maxStringBytes: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
    }

    private var position: Position { Position(line: line, column: offset - lineStart + 1) }

    private func failure(_ reason: String, _ code: ErrorCode = .invalidJSON) -> Failure {
        Failure(code: code, reason: reason, position: position)
    }

    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0D: offset += 1
            case 0x0A: offset += 1; line += 1; lineStart = offset
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
            guard offset < bytes.count else { throw failure("the JSON ends where a value should start") }
            let start = position
            var node: Node
            switch bytes[offset] {
            case UInt8(ascii: "{"):
                offset += 1
                skipWhitespace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    node = .object([], at: start)
                } else {
                    stack.append(Frame(start: start, isObject: true))
                    try memberKey(&stack[stack.count - 1])
                    continue
                }
            case UInt8(ascii: "["):
                offset += 1
                skipWhitespace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                    offset += 1
                    node = .array([], at: start)
                } else {
                    stack.append(Frame(start: start, isObject: false))
                    continue
                }
            case UInt8(ascii: "\""): node = .string(try string(), at: start)
            case UInt8(ascii: "t"): try literal("true"); node = .bool(true, at: start)
            case UInt8(ascii: "f"): try literal("false"); node = .bool(false, at: start)
            case UInt8(ascii: "n"): try literal("null"); node = .null(at: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): node = .number(try number(), at: start)
            default: throw failure("unexpected character '\(Self.show(bytes[offset]))'")
            }
            // Hand the value to its container; close every container that ends here.
            while let top = stack.indices.last {
                if stack[top].isObject {
                    stack[top].members.append((stack[top].key, node))
                } else {
                    stack[top].elements.append(node)
                }
                skipWhitespace()
                guard offset < bytes.count else {
                    throw failure(stack[top].isObject ? "the JSON ends inside an object" : "the JSON ends inside an array")
                }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    skipWhitespace()
                    if stack[top].isObject { try memberKey(&stack[top]) }
                    break
                }
                let frame = stack.removeLast()
                if frame.isObject {
                    guard bytes[offset] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
                    node = .object(frame.members, at: frame.start)
                } else {
                    guard bytes[offset] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
                    node = .array(frame.elements, at: frame.start)
                }
                offset += 1
            }
            if stack.isEmpty { return node }
        }
    }

    /// An object member's key and colon, up to where its value starts.
    private mutating func memberKey(_ frame: inout Frame) throws(Failure) {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw failure("expected a string key") }
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
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
        offset += 1
        skipWhitespace()
        frame.key = key
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let expected = Array(word.utf8)
        guard bytes[offset...].starts(with: expected) else { throw failure("expected \(word)") }
        offset += expected.count
    }

    /// A string literal at `offset` (which holds the opening quote).
    private mutating func string() throws(Failure) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var runStart = offset
        var byteCount = 0
        func flush(_ parser: StrictJSON, _ scalars: inout String.UnicodeScalarView, _ from: Int, _ to: Int) throws(Failure) {
            guard from < to else { return }
            // Raw bytes must be valid UTF-8.
            guard let text = String(validating: parser.bytes[from..<to], as: UTF8.self) else {
                throw Failure(code: .invalidJSON, reason: "a string is not valid UTF-8", position: parser.position)
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard offset < bytes.count else { throw failure("the JSON ends inside a string") }
            let byte = bytes[offset]
            byteCount += 1
            guard byteCount <= maxStringBytes else { throw failure("a string is longer than \(maxStringBytes) bytes", .stringLimitExceeded) }
            switch byte {
            case UInt8(ascii: "\""):
                // No escape met: the string is its raw bytes, validated once.
                if scalars.isEmpty {
                    guard let text = String(validating: bytes[runStart..<offset], as: UTF8.self) else {
                        throw Failure(code: .invalidJSON, reason: "a string is not valid UTF-8", position: position)
                    }
                    offset += 1
                    return text
                }
                try flush(self, &scalars, runStart, offset)
                offset += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush(self, &scalars, runStart, offset)
                offset += 1
                guard offset < bytes.count else { throw failure("the JSON ends inside an escape") }
                let escape = bytes[offset]
                offset += 1
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
                        guard bytes[offset...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
                            throw failure("a high surrogate escape is not followed by a low one")
                        }
                        offset += 2
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
                offset += 1
            }
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw failure("a \\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    /// A number per the JSON grammar, kept as text.
    private mutating func number() throws(Failure) -> String {
        let start = offset
        func digits(_ parser: inout StrictJSON) -> Int {
            let from = parser.offset
            while parser.offset < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.offset]) { parser.offset += 1 }
            return parser.offset - from
        }
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < bytes.count else { throw failure("a number without digits") }
        if bytes[offset] == UInt8(ascii: "0") { offset += 1 } else if digits(&self) == 0 { throw failure("a number without digits") }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits(&self) > 0 else { throw failure("a number with no digits after '.'") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard digits(&self) > 0 else { throw failure("a number with no exponent digits") }
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private static func show(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }
}
