import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList
import TypedJSON

// plutil's key-path verbs (Specs/plistkit.md, "Key paths"): extract, type,
// insert, replace, remove, create. Edits keep the input's format unless
// --format says otherwise and write atomically: a failed edit leaves the
// file as it was.

/// Reads a whole input document through the format layer
/// (``Document/read(document:limits:)``): binary, XML, plain JSON, OpenStep,
/// `.strings` files and Xcode projects, in UTF-8 or UTF-16 with a byte-order mark.
func readDocument(_ file: String) throws -> Document.Reading {
    let bytes = try Files.read(file, limit: PropertyListLimits.default.maxInputBytes)
    return try Document.read(document: bytes)
}

/// plutil's type names.
enum PlutilType: String, CaseIterable, ExpressibleByArgument {
    case bool, integer, float, string, date, data, dictionary, array

    /// "a" or "an" before a type name.
    static func article(_ name: String) -> String { name.first.map { "aeiou".contains($0) } == true ? "an" : "a" }

    /// The name plutil prints for a value's type (`uid` and `null` have none in plutil: named as ours).
    static func name(of value: PropertyListValue) -> String {
        switch value {
        case .bool: return "bool"
        case .integer: return "integer"
        case .real: return "float"
        case .string: return "string"
        case .date: return "date"
        case .data: return "data"
        case .dictionary: return "dictionary"
        case .array: return "array"
        case .uid: return "uid"
        case .null: return "null"
        }
    }
}

/// `--expect TYPE`: the value must be of that type (``ErrorCode/unexpectedType``, exit 1).
func checkExpected(_ type: PlutilType?, _ value: PropertyListValue, at path: PlutilKeyPath) throws {
    guard let type else { return }
    let found = PlutilType.name(of: value)
    // unexpectedType
    guard found == type.rawValue else {
        throw PropertyListError(.unexpectedType, "the value at \"\(path)\" is \(PlutilType.article(found)) \(found), not \(PlutilType.article(type.rawValue)) \(type.rawValue)")
    }
}

/// `plistkit extract KEYPATH FORMAT FILE`.
struct Extract: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the value at a key path as a document of its own, or raw.",
        discussion: "FORMAT is xml1, binary1, json, typed-json or raw. raw writes a scalar bare (strings as they are, data as base64, dates ISO 8601, booleans true/false) and a newline; a dictionary or array is notAScalar (exit 1). Key paths as plutil spells them: dot-separated, \\. for a literal dot, numbers index arrays."
    )

    enum Format: String, ExpressibleByArgument {
        case xml1, binary1, json, raw
        case typedJSON = "typed-json"
    }

    @Argument(help: "The key path (dot-separated; \\. is a literal dot).")
    var keyPath: String

    @Argument(help: "xml1, binary1, json, typed-json or raw.")
    var format: Format

    @Argument(help: "The property list ('-' for standard input).")
    var file: String

    @Option(help: "Fail (exit 1) unless the value is of this type: \(PlutilType.allCases.map(\.rawValue).joined(separator: ", ")).")
    var expect: PlutilType?

    @Flag(name: [.customShort("n"), .customLong("no-newline")], help: "raw: no newline after the value (plutil -n).")
    var noNewline = false

    @OptionGroup var output: OutputOptions

    @OptionGroup var style: StyleOptions

    func run() throws {
        try reporting(file) {
            let path = try PlutilKeyPath(parsing: keyPath)
            let value = try readDocument(file).value.value(at: path)
            try checkExpected(expect, value, at: path)
            func document(_ format: Document.OutputFormat) throws -> [UInt8] {
                try Document.writeBytes(value, as: format, keyOrder: style.keyOrder(for: format), readable: style.readable, compact: style.compact)
            }
            switch format {
            case .raw: try output.write(Array(try Self.raw(value, at: path).utf8) + (noNewline ? [] : [0x0A]))
            case .xml1: try output.write(try document(.xml))
            case .binary1: try output.write(try document(.binary))
            case .json: try output.write(try document(.json))
            case .typedJSON: try output.write(try document(.typedJSON))
            }
        }
    }

    /// A scalar as text (Specs/plistkit.md, "Key paths").
    static func raw(_ value: PropertyListValue, at path: PlutilKeyPath) throws -> String {
        switch value {
        case .string(let string): return string
        case .integer(let integer): return integer.description
        case .real(let real): return real.description
        case .bool(let flag): return flag ? "true" : "false"
        case .data(let data): return data.base64EncodedString()
        case .date(let date):
            guard let text = CivilTime.iso8601(secondsSinceReference: date.timeIntervalSinceReferenceDate) else {
                throw PropertyListError(.invalidDate, "the date at \"\(path)\" has no ISO 8601 form")
            }
            return text
        case .uid(let uid): return String(uid)
        case .dictionary, .array, .null:
            // notAScalar: raw writes scalars only.
            throw PropertyListError(.notAScalar, "the value at \"\(path)\" is \(PlutilType.article(PlutilType.name(of: value))) \(PlutilType.name(of: value)); raw writes scalars only (use xml1, json or typed-json)")
        }
    }
}

/// `plistkit type KEYPATH FILE`.
struct TypeOf: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "type",
        abstract: "Print the type of the value at a key path, as plutil names it.",
        discussion: "bool, integer, float, string, date, data, dictionary or array (uid and null, which plutil cannot show, as such)."
    )

    @Argument(help: "The key path (dot-separated; \\. is a literal dot).")
    var keyPath: String

    @Argument(help: "The property list ('-' for standard input).")
    var file: String

    @Option(help: "Fail (exit 1) unless the value is of this type.")
    var expect: PlutilType?

    func run() throws {
        try reporting(file) {
            let path = try PlutilKeyPath(parsing: keyPath)
            let value = try readDocument(file).value.value(at: path)
            try checkExpected(expect, value, at: path)
            try Console.line(PlutilType.name(of: value))
        }
    }
}

/// The value of `insert` and `replace`: one of plutil's typed options.
struct ValueOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "A boolean: YES, NO, true or false.") var bool: String?
    @Option(parsing: .unconditional, help: "A decimal integer in [-2^63, 2^64).") var integer: String?
    @Option(parsing: .unconditional, help: "A real number, as XML property lists write it (1.5, -2e-3, nan, inf).") var float: String?
    @Option(parsing: .unconditional, help: "A string.") var string: String?
    @Option(parsing: .unconditional, help: "A date as XML property lists write it (2001-01-01T00:00:00Z).") var date: String?
    @Option(parsing: .unconditional, help: "Base64 data.") var data: String?
    @Option(parsing: .unconditional, help: "An XML property list (a compound value).") var xml: String?
    @Option(parsing: .unconditional, help: "A JSON value (a compound value).") var json: String?
    @Flag(help: "An empty array.") var array = false
    @Flag(help: "An empty dictionary.") var dictionary = false

    func validate() throws {
        let given = [bool, integer, float, string, date, data, xml, json].compactMap { $0 }.count + (array ? 1 : 0) + (dictionary ? 1 : 0)
        guard given == 1 else { throw ValidationError("give exactly one value: --bool, --integer, --float, --string, --date, --data, --xml, --json, --array or --dictionary") }
        // Every value is checked before any file is read (usage errors, exit 64).
        _ = try value()
    }

    /// The value, strictly parsed: a malformed one is a usage error.
    func value() throws -> PropertyListValue {
        if let bool {
            switch bool {
            case "YES", "true": return .bool(true)
            case "NO", "false": return .bool(false)
            default: throw ValidationError("--bool \"\(bool)\" is not YES, NO, true or false")
            }
        }
        if let integer {
            guard let parsed = PropertyListInteger(decimal: integer) else { throw ValidationError("--integer \"\(integer)\" is not a decimal integer in [-2^63, 2^64)") }
            return .integer(parsed)
        }
        if let float {
            // The grammar of <real> (Specs/xml-plist.md, invalidReal): no hexadecimal floats, no 1e999.
            guard let parsed = Document.real(float) else {
                throw ValidationError("--float \"\(float)\" is not a real as property lists write it (decimal digits, fraction, exponent; nan, inf)")
            }
            return .real(parsed)
        }
        if let string { return .string(string) }
        if let date {
            guard let parsed = Document.date(date) else {
                throw ValidationError("--date \"\(date)\" is not a date as XML property lists write it (2001-01-01T00:00:00Z)")
            }
            return .date(parsed)
        }
        if let data {
            guard let decoded = Document.base64Data(data) else { throw ValidationError("--data is not padded base64") }
            return .data(decoded)
        }
        if let xml {
            do { return try Document.read(Array(xml.utf8), as: .xml) } catch {
                throw ValidationError("--xml is not an XML property list: \(error.code): \(error)")
            }
        }
        if let json {
            do { return try PlainJSONReader().read(Data(json.utf8)) } catch {
                throw ValidationError("--json is not a JSON value a property list holds: \(error.code): \(error)")
            }
        }
        return array ? .array([]) : .dictionary([:])
    }
}

/// Where an edit writes: in place, in the input's format, unless told otherwise.
struct EditOutputOptions: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: "Write here instead of in place ('-' for standard output).")
    var output: String?

    @Option(name: .long, help: "Output format: binary1, xml1, json, openstep, strings or pbxproj (default: the input's, in its text encoding).")
    var format: EditFormat?

    @Option(name: .customLong("project-name"), help: "An Xcode project's .xcodeproj name, which Xcode writes in a comment (default: from the path NAME.xcodeproj/project.pbxproj, else as the file's own comment records it).")
    var projectName: String?

    @OptionGroup var style: StyleOptions

    enum EditFormat: String, ExpressibleByArgument {
        case binary1, xml1, json, openstep, strings, pbxproj
        var output: Document.OutputFormat {
            switch self {
            case .binary1: return .binary
            case .xml1: return .xml
            case .json: return .json
            case .openstep: return .openStep
            case .strings: return .strings
            case .pbxproj: return .xcodeProject
            }
        }
    }

    func validate() throws {
        if output == "" { throw ValidationError("-o needs a file name, or '-' for standard output") }
    }

    /// Writes the edited value in the input's format (an OpenStep text in its
    /// encoding, a project in Xcode's layout with its name), or in `--format`;
    /// atomically: the file is replaced or left as it was.
    func write(_ value: PropertyListValue, input: Document.Reading, inputBytes: [UInt8], file: String) throws {
        let outputFormat = format?.output ?? input.format
        // A text keeps its encoding when it stays OpenStep text; a project is UTF-8.
        let encoding = outputFormat == .openStep || outputFormat == .strings ? input.textEncoding ?? .utf8 : .utf8
        let name = outputFormat == .xcodeProject ? Document.xcodeProjectName(given: projectName, path: file == "-" ? nil : file, input: inputBytes) : ""
        let bytes = try Document.writeBytes(value, as: outputFormat, keyOrder: style.keyOrder(for: outputFormat), readable: style.readable,
                                            compact: style.compact, projectName: name, textEncoding: encoding, over: input)
        // What an edit writes reads back, or nothing is written: the reader's own refusal is the error.
        _ = try Document.read(document: bytes)
        try Files.write(bytes, to: output ?? file)
    }
}

/// `plistkit insert|replace KEYPATH --TYPE VALUE FILE`.
struct Insert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Insert a value at a key path (plutil -insert).",
        discussion: "The last component names a new dictionary key, or an array index to insert before (the array's count appends); --append adds to the end of the array the key path names. An existing key is valueExists (use replace). The file is rewritten in place, atomically, in its own format."
    )

    @OptionGroup var target: EditTarget

    @OptionGroup var value: ValueOptions

    @Flag(help: "Append to the array at the key path.")
    var append = false

    @OptionGroup var output: EditOutputOptions

    func run() throws {
        try edit(target, output: output) { document, path in
            try document.setting(try value.value(), at: path, mode: append ? .append : .insert)
        }
    }
}

/// `plistkit replace KEYPATH --TYPE VALUE FILE`.
struct Replace: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set the value at a key path, whether there was one or not (plutil -replace).",
        discussion: "An array index must lie within the array. The file is rewritten in place, atomically, in its own format."
    )

    @OptionGroup var target: EditTarget

    @OptionGroup var value: ValueOptions

    @OptionGroup var output: EditOutputOptions

    func run() throws {
        try edit(target, output: output) { document, path in
            try document.setting(try value.value(), at: path, mode: .replace)
        }
    }
}

/// `plistkit remove KEYPATH FILE`.
struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove the value at a key path (plutil -remove).",
        discussion: "The file is rewritten in place, atomically, in its own format; a key path that names nothing fails and leaves it untouched."
    )

    @OptionGroup var target: EditTarget

    @OptionGroup var output: EditOutputOptions

    func run() throws {
        try edit(target, output: output) { document, path in
            try document.removing(at: path)
        }
    }
}

/// `plistkit create FORMAT FILE`.
struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write an empty property list (a dictionary) in a format (plutil -create).",
        discussion: "FORMAT is xml1, binary1, json or openstep; FILE '-' is standard output. An existing file is replaced atomically."
    )

    @Argument(help: "xml1, binary1, json or openstep.")
    var format: EditOutputOptions.EditFormat

    @Argument(help: "The file to write ('-' for standard output).")
    var file: String

    func validate() throws {
        // An empty .strings file is zero bytes, which no reader takes; an empty dictionary is no project.
        guard format != .strings, format != .pbxproj else { throw ValidationError("create writes xml1, binary1, json or openstep") }
    }

    func run() throws {
        try reporting(file) {
            try Files.write(try Document.writeBytes(.dictionary([:]), as: format.output), to: file)
        }
    }
}

/// The key path and the file an edit works on (insert, replace, remove).
struct EditTarget: ParsableArguments {
    @Argument(help: "The key path (dot-separated; \\. is a literal dot).")
    var keyPath: String

    @Argument(help: "The property list to edit ('-' for standard input, written to standard output).")
    var file: String
}

/// Reads the target's file, applies `change` at its key path, writes the
/// result; nothing is written unless every step succeeded.
private func edit(_ target: EditTarget, output: EditOutputOptions,
                  _ change: (PropertyListValue, PlutilKeyPath) throws -> PropertyListValue) throws {
    try reporting(target.file) {
        let path = try PlutilKeyPath(parsing: target.keyPath)
        let bytes = try Files.read(target.file, limit: PropertyListLimits.default.maxInputBytes)
        let document = try Document.read(document: bytes)
        try output.write(try change(document.value, path), input: document, inputBytes: bytes, file: target.file)
    }
}
