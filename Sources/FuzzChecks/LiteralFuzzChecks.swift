import DocumentFormats
import FoundationEssentials
import PropertyList

/// The literal writers' oracle (Specs/fuzzing.md, "Output oracles"; Specs/plistkit.md,
/// "Literals"), on a sample of the values the decode targets read: the Swift
/// and Objective-C source of a value holds no raw control, format or
/// separator character, and the Swift source reads back — by a small reader of
/// the subset the writer writes, independent of it — to the same value. (The
/// compilers themselves check a sample in `LiteralPropertyTests`: compiling in
/// a fuzz loop would be too slow.)
struct LiteralOracle {
    let entryPoint: FuzzEntryPoint

    func check(_ value: PropertyListValue) throws(FuzzFinding) {
        switch value {
        case .array, .dictionary: break
        default: return  // a scalar at the top has no literal (unrepresentableValue)
        }
        for language in [LiteralSource.Language.swift, .objc] {
            let bytes: [UInt8]
            do { bytes = try LiteralSource.write(value, as: language, sourceFile: "fuzz \u{202E}\n.json", outputFile: "-") } catch {
                // What a literal cannot hold (null, UID, NaN, Objective-C dates and data) is refused by name.
                guard error.code == .unrepresentableValue else {
                    throw FuzzFinding(entryPoint: entryPoint, message: "the \(language) literal writer failed with \(error)")
                }
                continue
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if let raw = text.unicodeScalars.first(where: { $0 != "\n" && LiteralSource.needsEscape($0) }) {
                throw FuzzFinding(entryPoint: entryPoint, message: "\(language) source holds a raw U+\(String(raw.value, radix: 16, uppercase: true))")
            }
            guard language == .swift else { continue }
            var reader = SwiftLiteralReader(Array(text.unicodeScalars))
            guard let read = reader.document(), read == value else {
                throw FuzzFinding(entryPoint: entryPoint, message: "the Swift literal does not read back to its value")
            }
        }
    }
}

/// Reads the Swift literal subset ``LiteralSource`` writes: one comment line,
/// `let NAME : TYPE = VALUE`, values typed with `as`, `[Any]([…])`, `Date(…)`,
/// `Data([…] as [UInt8])`, strings with `\\ \" \n \r \t \u{…}`. Nil on anything else.
struct SwiftLiteralReader {
    let text: [Unicode.Scalar]
    var position = 0

    init(_ text: [Unicode.Scalar]) { self.text = text }

    mutating func document() -> PropertyListValue? {
        // /// Generated from …\n
        guard take("///") else { return nil }
        while position < text.count, text[position] != "\n" { position += 1 }
        skipSpace()
        guard take("let ") else { return nil }
        while position < text.count, text[position] != " " { position += 1 }
        let dictionary = take(" : [String : Any] = ")
        guard dictionary || take(" : [Any] = ") else { return nil }
        guard let top = container(typed: false, dictionary: dictionary) else { return nil }
        skipSpace()
        return position == text.count ? top : nil
    }

    private mutating func value() -> PropertyListValue? {
        skipSpace()
        if take("[Any]([") { return container(typed: true, dictionary: false, opened: true) }
        if peek("[") { return container(typed: true, dictionary: true) }
        if take("Date(timeIntervalSinceReferenceDate: ") {
            guard let seconds = number(), take(" as Double)"), let real = Double(seconds) else { return nil }
            return .date(Date(timeIntervalSinceReferenceDate: real))
        }
        if take("Data([") {
            var bytes: [UInt8] = []
            skipSpace()
            while take("0x") {
                guard position + 2 <= text.count, let byte = UInt8(String(String.UnicodeScalarView(text[position..<position + 2])), radix: 16) else { return nil }
                bytes.append(byte)
                position += 2
                _ = take(", ")
            }
            guard take("] as [UInt8])") else { return nil }
            return .data(Data(bytes))
        }
        if take("true as Bool") { return .bool(true) }
        if take("false as Bool") { return .bool(false) }
        if peek("\"") {
            guard let string = string(), take(" as String") else { return nil }
            return .string(string)
        }
        guard let digits = number() else { return nil }
        if take(" as Int") { return Int64(digits).map { .integer(PropertyListInteger($0)) } }
        if take(" as UInt64") { return UInt64(digits).map { .integer(PropertyListInteger($0)) } }
        if take(" as Double") { return Double(digits).map { .real($0) } }
        return nil
    }

    /// `[ … ]`, `[:]`, or (typed) `[Any]([ … ])` / `[ … ] as [String : Any]`.
    private mutating func container(typed: Bool, dictionary: Bool, opened: Bool = false) -> PropertyListValue? {
        if !opened { guard take("[") else { return nil } }
        var elements: [PropertyListValue] = []
        var entries = PropertyListDictionary()
        if dictionary, take(":]") {
            return !typed || take(" as [String : Any]") ? .dictionary(entries) : nil
        }
        while true {
            skipSpace()
            if take(opened ? "])" : "]") { break }
            if dictionary {
                guard let key = string(), take(" : "), let member = value(), entries.insertNew(member, forKey: key) else { return nil }
            } else {
                guard let element = value() else { return nil }
                elements.append(element)
            }
            guard take(",") else { return nil }
        }
        if dictionary {
            return !typed || take(" as [String : Any]") ? .dictionary(entries) : nil
        }
        return .array(elements)
    }

    private mutating func string() -> String? {
        guard take("\"") else { return nil }
        var out = String.UnicodeScalarView()
        while position < text.count {
            let scalar = text[position]
            position += 1
            switch scalar {
            case "\"": return String(out)
            case "\\":
                guard position < text.count else { return nil }
                let escape = text[position]
                position += 1
                switch escape {
                case "\\": out.append("\\")
                case "\"": out.append("\"")
                case "n": out.append("\n")
                case "r": out.append("\r")
                case "t": out.append("\t")
                case "u":
                    guard take("{"), let close = text[position...].firstIndex(of: "}"),
                          let code = UInt32(String(String.UnicodeScalarView(text[position..<close])), radix: 16),
                          let decoded = Unicode.Scalar(code) else { return nil }
                    out.append(decoded)
                    position = close + 1
                default: return nil
                }
            case "\n", "\r": return nil
            default: out.append(scalar)
            }
        }
        return nil
    }

    /// The characters of a number literal.
    private mutating func number() -> String? {
        let start = position
        while position < text.count, "0123456789+-.eE".unicodeScalars.contains(text[position]) { position += 1 }
        return position > start ? String(String.UnicodeScalarView(text[start..<position])) : nil
    }

    private mutating func skipSpace() {
        while position < text.count, text[position] == " " || text[position] == "\n" { position += 1 }
    }

    private func peek(_ literal: String) -> Bool {
        let scalars = Array(literal.unicodeScalars)
        return position + scalars.count <= text.count && Array(text[position..<position + scalars.count]) == scalars
    }

    private mutating func take(_ literal: String) -> Bool {
        guard peek(literal) else { return false }
        position += literal.unicodeScalars.count
        return true
    }
}
