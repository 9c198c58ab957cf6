import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

/// `plistkit insert|replace KEYPATH --TYPE VALUE FILE`.
struct Insert: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "insert", 
        abstract: "Insert a value at a key path (plutil -insert).",
        discussion: "The last component names a new dictionary key, or an array index to insert before (the array's count appends); --append adds to the end of the array the key path names. An existing key is valueExists (use replace). The file is rewritten in place, atomically, in its own format."
    )

    @OptionGroup var target: EditTarget

    @OptionGroup var value: ValueOptions

    @Flag(help: "Append to the array at the key path.")
    var append = false

    @OptionGroup var output: EditOutputOptions

    func run() throws {
        try edit(target, output: output) { document, path in
            try document.setting(try value.value(), at: path, mode: append ? .append : .insert)
        }
    }
}
