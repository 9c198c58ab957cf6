import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

/// `plistkit remove KEYPATH FILE`.
struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", 
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
