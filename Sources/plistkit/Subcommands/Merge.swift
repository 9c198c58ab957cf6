import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

/// `plistkit merge DEST SRC [KEYPATH]`: PlistBuddy's `Merge` (Specs/plistkit.md, "Merge").
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "merge", 
        abstract: "Add the members of SRC's top dictionary or array to the dictionary or array at KEYPATH of DEST (PlistBuddy's Merge).",
        discussion: "A key DEST already has keeps DEST's value, with a warning, unless --overwrite. DEST is rewritten in place, atomically, in its own format."
    )

    @Argument(help: "The property list to merge into ('-' for standard input, written to standard output).")
    var destination: String

    @Argument(help: "The property list whose top members are added.")
    var source: String

    @Argument(help: "Where in DEST (dot-separated; \\. is a literal dot); its top when left out.")
    var keyPath: String?

    @Flag(help: "A key in both takes SRC's value (default: DEST's is kept, with a warning).")
    var overwrite = false

    @OptionGroup var output: EditOutputOptions

    func validate() throws {
        guard !(destination == "-" && source == "-") else { throw ValidationError("standard input can be only one of DEST and SRC") }
    }

    func run() throws {
        // SRC is read first: its errors are its own (exit 1), and nothing is written.
        let added = try readingOrFailing(source) { try readDocument(source).value }
        var kept: [String] = []
        try reporting(destination) {
            let path = try keyPath.map { (text) throws(PropertyListError) in try PlutilKeyPath(parsing: text) }
            let bytes = try Files.read(destination, limit: PropertyListLimits.default.maxInputBytes)
            let document = try Document.read(document: bytes)
            let result = try document.value.merging(added, at: path, overwrite: overwrite)
            kept = result.kept
            try output.write(result.merged, input: document, inputBytes: bytes, file: destination)
        }
        // PlistBuddy's "Duplicate Entry Was Skipped", once the merge has landed.
        for key in kept { Console.warn("kept DEST's value for \"\(key)\" (SRC's skipped; --overwrite takes it)") }
    }

    /// `work`'s value, or its error reported against `file` (exit 1).
    private func readingOrFailing<T>(_ file: String, _ work: () throws -> T) throws -> T {
        var result: T?
        try reporting(file) { result = try work() }
        return result!
    }
}
