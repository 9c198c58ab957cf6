import FoundationEssentials
@_spi(ByteKit) public import PropertyList

/// `convert --format swift|objc` (Specs/plistkit.md, "Literals"): a property
/// list as a Swift or Objective-C literal in plutil's layout — a
/// `/// Generated from FILE` line, one constant named after the file, four-space
/// indents, a trailing comma after every member, keys sorted — that always
/// compiles, and compiles to the same value:
/// - nothing from a file name or a value leaves its comment or literal: each
///   goes through one escaping function per context (``commentText(_:)``,
///   ``swiftString(_:)``, ``objcString(_:)``), which also escapes control,
///   format and bidirectional characters and, for C, `?` (trigraphs);
/// - every Swift literal has an explicit type (`1 as Int`, `[Any]([…])`,
///   `[…] as [String : Any]`), so the compiler never infers one (mixed integers
///   and reals stay apart, and type-checking time stays linear in the nesting);
/// - integers take the type that holds them (`UInt64` above `Int.max`;
///   Objective-C `ULL`, and `(-9223372036854775807LL - 1)` for the minimum);
/// - the constant's name is an ASCII identifier that is no keyword.
/// A dictionary or array at the top; no null or UID anywhere; Objective-C
/// literals hold no dates or data.
public enum LiteralSource {
    /// The language of the source.
    public enum Language: Sendable { case swift, objc }

    /// The Objective-C header declaring the constant ``write(_:as:sourceFile:outputFile:limits:)`` defines (plutil -header).
    ///
    /// - Throws: ``PropertyListError`` ``ErrorCode/unrepresentableValue`` for a scalar at the top.
    public static func objcHeader(_ value: PropertyListValue, sourceFile: String) throws(PropertyListError) -> [UInt8] {
        let type = try objcType(value)
        return Array("""
        #import <Foundation/Foundation.h>

        /// Generated from \(commentText(sourceName(sourceFile)))
        __attribute__((visibility("hidden")))
        extern \(type) * const \(variableName(sourceFile, language: .objc));

        """.utf8)
    }

    /// The `#import "NAME.h"` line of an output file, or nil for standard output.
    ///
    /// - Throws: ``PropertyListError`` ``ErrorCode/unsafeFileName`` when the
    ///   header's name cannot be spelled between the quotes of an `#import`
    ///   (which has no escapes): it holds `"`, `\`, `'`, a control, format or
    ///   bidirectional character, `//`, `/*` or `??`.
    static func importLine(outputFile: String) throws(PropertyListError) -> String? {
        guard outputFile != "-" else { return nil }
        let header = stem(lastComponent(outputFile)) + ".h"
        // unsafeFileName: a header name has no escapes, so nothing may end it early.
        let breaksOut = header.unicodeScalars.contains { scalar in
            scalar == "\"" || scalar == "\\" || scalar == "'" || needsEscape(scalar)
        } || header.contains("//") || header.contains("/*") || header.contains("??")
        guard !breaksOut else {
            throw PropertyListError(.unsafeFileName, "the header name \(commentText(header)) cannot be written in #import \"…\" (it holds a quote, a backslash, a control or bidirectional character, //, /* or ??); choose another output name")
        }
        return "#import \"\(header)\""
    }

    /// `value` as `language` source: the constant named after `sourceFile`
    /// (`-` for standard input), an Objective-C `#import` of `outputFile`'s header
    /// unless it is `-`. The value is written through the one bounded walk
    /// into the counted output (Specs/architecture.md, "One bounded walk",
    /// "One counted output"), within `limits`: the CLI passes the budget of
    /// its input.
    ///
    /// - Throws: ``PropertyListError``: ``ErrorCode/unrepresentableValue`` (a
    ///   scalar at the top, a null or UID, a non-finite real, Objective-C dates
    ///   and data), ``ErrorCode/unsafeFileName``,
    ///   ``ErrorCode/expansionLimitExceeded`` past `limits.maxExpandedBytes`,
    ///   ``ErrorCode/outputLimitExceeded`` past the output it allows,
    ///   ``ErrorCode/depthLimitExceeded``.
    public static func write(_ value: PropertyListValue, as language: Language, sourceFile: String, outputFile: String,
                             limits: WriterLimits = .default) throws(PropertyListError) -> [UInt8] {
        try limits.validate()
        let name = variableName(sourceFile, language: language)
        let source = commentText(sourceName(sourceFile))
        var output = CountedOutput(expansionBudget: limits.maxExpandedBytes)
        switch language {
        case .swift:
            let type: String
            switch value {
            case .dictionary: type = "[String : Any]"
            case .array: type = "[Any]"
            default: throw topLevel("Swift")
            }
            try output.append("/// Generated from \(source)\n")
            try output.append("let \(name) : \(type) = ")
        case .objc:
            let type = try objcType(value)
            if let line = try importLine(outputFile: outputFile) { try output.append(line + "\n\n") }
            try output.append("/// Generated from \(source)\n")
            try output.append("__attribute__((visibility(\"hidden\")))\n")
            try output.append("\(type) * const \(name) = ")
        }
        var meter = ExpansionMeter(limit: limits.maxExpandedBytes)
        var literal = Literal(language: language, maxDepth: limits.maxDepth, output: output)
        try ValueWalk.walk(value, sorted: true, meter: &meter, visitor: &literal)
        output = literal.output
        try output.append(language == .swift ? "\n" : ";\n")
        return Array(output.text.utf8)
    }

    /// The walk's visitor: one literal, member by member (plutil's layout,
    /// four-space indents, a comma after every member). In Swift, every
    /// nested container says its type (`[Any]([…])`: the coercion `[…] as
    /// [Any]` made type-checking time double per level of nested arrays, 24
    /// levels: 15 s; the initialiser does not); the top one takes it from the
    /// constant's annotation.
    private struct Literal: ValueVisitor {
        typealias Value = PropertyListValue
        typealias Failure = PropertyListError
        let language: Language
        let maxDepth: Int
        var output: CountedOutput

        private var languageName: String { language == .swift ? "Swift" : "Objective-C" }

        private mutating func prefix(_ place: WalkPlace, depth: Int) throws(PropertyListError) {
            switch place {
            case .root: return
            case .key(let key): try output.append(indent(depth) + (language == .swift ? swiftString(key) : objcString(key)) + " : ")
            case .index, .member: try output.append(indent(depth))
            }
        }

        private mutating func suffix(_ place: WalkPlace) throws(PropertyListError) {
            if place != .root { try output.append(",\n") }
        }

        mutating func visit(scalar value: PropertyListValue, at place: WalkPlace, depth: Int) throws(PropertyListError) {
            try prefix(place, depth: depth)
            try output.append(language == .swift ? try swiftScalar(value) : try objcScalar(value))
            try suffix(place)
        }

        mutating func enter(_ value: PropertyListValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(PropertyListError) -> Bool {
            // depthLimitExceeded: no deeper than a reader with the same limits reads.
            guard depth < maxDepth else { throw PropertyListError(.depthLimitExceeded, "containers nest deeper than \(maxDepth)") }
            try prefix(place, depth: depth)
            let typed = depth > 0
            switch (language, container.kind) {
            case (.swift, .array): try output.append(typed ? "[Any]([\n" : "[\n")
            case (.swift, _): try output.append(container.count == 0 ? "[:" : "[\n")
            case (.objc, .array): try output.append("@[\n")
            case (.objc, _): try output.append("@{\n")
            }
            return true
        }

        mutating func leave(_ value: PropertyListValue, _ container: WalkContainer, at place: WalkPlace, depth: Int) throws(PropertyListError) {
            let typed = depth > 0
            switch (language, container.kind) {
            case (.swift, .array): try output.append(indent(depth) + (typed ? "])" : "]"))
            case (.swift, _): try output.append((container.count == 0 ? "" : indent(depth)) + "]" + (typed ? " as [String : Any]" : ""))
            case (.objc, .array): try output.append(indent(depth) + "]")
            case (.objc, _): try output.append(indent(depth) + "}")
            }
            try suffix(place)
        }
    }

    // MARK: Swift

    /// A Swift scalar, with its type.
    private static func swiftScalar(_ value: PropertyListValue) throws(PropertyListError) -> String {
        switch value {
        case .string(let string): return swiftString(string) + " as String"
        case .integer(let integer):
            // The type that holds it: Int (Int64 on every 64-bit platform), UInt64 above.
            return integer.description + (integer.int64Value == nil ? " as UInt64" : " as Int")
        case .real(let real): return try realText(real, .root) + " as Double"
        case .bool(let flag): return flag ? "true as Bool" : "false as Bool"
        case .date(let date): return "Date(timeIntervalSinceReferenceDate: \(try realText(date.timeIntervalSinceReferenceDate, .root)) as Double)"
        case .data(let data): return "Data([" + data.map { "0x" + Hex.upper($0) }.joined(separator: ", ") + "] as [UInt8])"
        case .uid, .null, .array, .dictionary:
            throw unrepresentable(value, "Swift", .root)
        }
    }

    /// A Swift string literal: `\`, `"` escaped, line breaks and tabs as
    /// `\n`, `\r`, `\t`, every other control, format, separator or
    /// bidirectional character (and a combining mark that would open the
    /// literal) as `\u{…}`; everything else as it is.
    public static func swiftString(_ string: String) -> String {
        var out = "\""
        TextEscaping.append(string, quoted: true, to: &out) { scalar, position in
            guard needsEscape(scalar) || (position == 0 && isCombining(scalar)) else { return nil }
            return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
        return out + "\""
    }

    // MARK: Objective-C

    /// An Objective-C scalar, boxed.
    private static func objcScalar(_ value: PropertyListValue) throws(PropertyListError) -> String {
        switch value {
        case .string(let string): return objcString(string)
        case .integer(let integer): return objcInteger(integer)
        case .real(let real): return "@" + (try realText(real, .root))
        case .bool(let flag): return flag ? "@YES" : "@NO"
        case .date, .data, .uid, .null, .array, .dictionary:
            throw unrepresentable(value, "Objective-C", .root)
        }
    }

    /// A boxed integer of the value it is: `@-3`; `ULL` above `LLONG_MAX` (an
    /// unsuffixed literal there has no signed type); the minimum as an
    /// expression (`@-9223372036854775808` negates an unsigned literal: +2⁶³).
    static func objcInteger(_ integer: PropertyListInteger) -> String {
        guard let signed = integer.int64Value else { return "@\(integer)ULL" }
        if signed == .min { return "@(-9223372036854775807LL - 1)" }
        return abs(signed) > Int64(Int32.max) ? "@\(signed)LL" : "@\(signed)"
    }

    /// An Objective-C string literal: `\`, `"` and `?` (trigraphs) escaped, line
    /// breaks and tabs as `\n`, `\r`, `\t`, every other control, format,
    /// separator or bidirectional character as its UTF-8 bytes in three-digit
    /// octal escapes (`\342\200\256`).
    public static func objcString(_ string: String) -> String {
        var out = "@\""
        TextEscaping.append(string, quoted: true, to: &out) { scalar, _ in
            if scalar == "?" { return "\\?" }
            guard needsEscape(scalar) || isCombining(scalar) else { return nil }
            // Three octal digits each: an octal escape takes at most three, so
            // what follows never joins it (a hex escape takes every hex digit,
            // and ending it with "" draws clang's missing-comma warning).
            return String(scalar).utf8.map { "\\" + String($0 >> 6) + String($0 >> 3 & 7) + String($0 & 7) }.joined()
        }
        return out + "\""
    }

    // MARK: Names and comments

    /// Text for a `///` comment: printable ASCII but `\` and `?`, and letters,
    /// digits and marks of any script, as they are; anything else as `\u{…}`,
    /// so no line break, line splice (`\` last, `??/`) or bidirectional
    /// override reaches the source.
    public static func commentText(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let plain = scalar.isASCII ? (0x20...0x7E).contains(scalar.value) && scalar != "\\" && scalar != "?"
                : !needsEscape(scalar) && !isCombining(scalar) && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
            if plain { out.unicodeScalars.append(scalar) } else { out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" }
        }
        return out
    }

    /// Characters a reader of the source must see escaped: C0 and C1 controls,
    /// DEL, format characters (bidirectional controls among them), line and
    /// paragraph separators, surrogates, private use and unassigned code points.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
    }

    private static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Keywords and reserved names of Swift, C and Objective-C that a constant
    /// cannot be named (`default.json`, `int.json`).
    static let reservedNames: Set<String> = [
        // Swift
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false",
        "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
        // C
        "auto", "char", "const", "double", "extern", "float", "goto", "inline", "int", "long", "register", "restrict",
        "short", "signed", "sizeof", "typedef", "union", "unsigned", "void", "volatile", "bool", "alignas", "alignof",
        "constexpr", "nullptr", "static_assert", "thread_local", "typeof", "typeof_unqual", "asm",
        // Objective-C
        "id", "Class", "SEL", "IMP", "BOOL", "YES", "NO", "Nil", "NULL", "_cmd", "out", "bycopy", "byref", "oneway",
        "instancetype",
    ]

    /// The constant's name: the file's stem in ASCII letters, digits and `_`
    /// (`-`, `.` and spaces as `_`, other characters dropped), `_` first if it
    /// would start with a digit, `_` last if it is a keyword of either
    /// language; `plist` for standard input or when nothing is left.
    public static func variableName(_ file: String, language: Language) -> String {
        guard file != "-" else { return "plist" }
        var name = ""
        for scalar in stem(lastComponent(file)).unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_": name.unicodeScalars.append(scalar)
            case "-", " ", ".": name += "_"
            default: break
            }
        }
        if name.isEmpty { return "plist" }
        if name.first!.isNumber { name = "_" + name }
        if reservedNames.contains(name) { name += "_" }
        return name
    }

    // MARK: Pieces

    private static func indent(_ depth: Int) -> String { String(repeating: "    ", count: depth) }

    private static func objcType(_ value: PropertyListValue) throws(PropertyListError) -> String {
        switch value {
        case .dictionary: return "NSDictionary"
        case .array: return "NSArray"
        default: throw topLevel("Objective-C")
        }
    }

    /// A real as the shortest decimal that reads back to it; NaN and infinities have no literal.
    private static func realText(_ real: Double, _ path: PropertyListKeyPath) throws(PropertyListError) -> String {
        guard real.isFinite else {
            throw PropertyListError(.unrepresentableValue, "the real \(real) has no literal", keyPath: path)
        }
        return real.description
    }

    private static func unrepresentable(_ value: PropertyListValue, _ language: String, _ path: PropertyListKeyPath) -> PropertyListError {
        // unrepresentableValue: the literal syntax has no form for it.
        PropertyListError(.unrepresentableValue, "\(language) literals cannot hold a \(value.typeName)", keyPath: path)
    }

    private static func topLevel(_ language: String) -> PropertyListError {
        PropertyListError(.unrepresentableValue, "\(language) literal output needs a dictionary or an array at the top")
    }

    private static func sourceName(_ file: String) -> String {
        file == "-" ? "standard input" : lastComponent(file)
    }

    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    private static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
