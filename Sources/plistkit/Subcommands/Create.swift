import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

/// `plistkit create FORMAT FILE`.
struct Create: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", 
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
