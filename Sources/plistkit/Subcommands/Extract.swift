import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

/// `plistkit extract KEYPATH FORMAT FILE`.
struct Extract: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "extract", 
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

    @OptionGroup var input: InputFile

    @OptionGroup var expect: ExpectOption

    @Flag(name: [.customShort("n"), .customLong("no-newline")], help: "raw: no newline after the value (plutil -n).")
    var noNewline = false

    @OptionGroup var output: OutputOptions

    @OptionGroup var style: StyleOptions

    func run() throws {
        try reporting(input.file) {
            let (value, path) = try expect.value(at: keyPath, of: input)
            func document(_ format: DocumentFormat) throws -> [UInt8] {
                try Document.writeBytes(value, as: format, keyOrder: style.keyOrder(for: format), readable: style.readable, compact: style.compact)
            }
            if let documentFormat = DocumentFormat(commandLineName: format.rawValue) {
                try output.write(try document(documentFormat))
            } else {  // raw
                try output.write(Array(try Self.raw(value, at: path).utf8) + (noNewline ? [] : [0x0A]))
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
