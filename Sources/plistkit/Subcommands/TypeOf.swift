import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

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
