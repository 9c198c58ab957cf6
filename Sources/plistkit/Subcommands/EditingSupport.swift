import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

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
    static func article(_ name: String) -> String { English.article(name) }

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

/// The one property list a verb reads (`-` for standard input), shared by
/// `extract` and `type`.
struct InputFile: ParsableArguments {
    @Argument(help: "The property list ('-' for standard input).")
    var file: String
}

/// `--expect TYPE`, shared by `extract` and `type`: the value at the key path
/// must be of that type (``ErrorCode/unexpectedType``, exit 1).
struct ExpectOption: ParsableArguments {
    @Option(help: "Fail (exit 1) unless the value is of this type.")
    var expect: PlutilType?

    /// The value at `keyPath` in `input`'s document, and the parsed path,
    /// once it is of the expected type.
    func value(at keyPath: String, of input: InputFile) throws -> (value: PropertyListValue, path: PlutilKeyPath) {
        let path = try PlutilKeyPath(parsing: keyPath)
        let value = try readDocument(input.file).value.value(at: path)
        guard let expect else { return (value, path) }
        let found = PlutilType.name(of: value)
        // unexpectedType
        guard found == expect.rawValue else {
            throw PropertyListError(.unexpectedType, "the value at \"\(path)\" is \(PlutilType.article(found)) \(found), not \(PlutilType.article(expect.rawValue)) \(expect.rawValue)")
        }
        return (value, path)
    }
}
