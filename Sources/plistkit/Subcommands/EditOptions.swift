import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

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
            do { return try Document.propertyList(json: json) } catch {
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
        var output: DocumentFormat { DocumentFormat(commandLineName: rawValue)! }
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
