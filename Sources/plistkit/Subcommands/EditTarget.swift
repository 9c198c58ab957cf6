import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

/// The key path and the file an edit works on (insert, replace, remove).
struct EditTarget: ParsableArguments {
    @Argument(help: "The key path (dot-separated; \\. is a literal dot).")
    var keyPath: String

    @Argument(help: "The property list to edit ('-' for standard input, written to standard output).")
    var file: String
}

/// Reads the target's file, applies `change` at its key path, writes the
/// result; nothing is written unless every step succeeded.
func edit(_ target: EditTarget, output: EditOutputOptions,
                  _ change: (PropertyListValue, PlutilKeyPath) throws -> PropertyListValue) throws {
    try reporting(target.file) {
        let path = try PlutilKeyPath(parsing: target.keyPath)
        let bytes = try Files.read(target.file, limit: PropertyListLimits.default.maxInputBytes)
        let document = try Document.read(document: bytes)
        try output.write(try change(document.value, path), input: document, inputBytes: bytes, file: target.file)
    }
}
