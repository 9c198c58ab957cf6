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

    @OptionGroup var input: InputFile

    @OptionGroup var expect: ExpectOption

    func run() throws {
        try reporting(input.file) {
            try Console.line(PlutilType.name(of: try expect.value(at: keyPath, of: input).value))
        }
    }
}
