import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

/// `plistkit replace KEYPATH --TYPE VALUE FILE`.
struct Replace: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "replace", 
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
