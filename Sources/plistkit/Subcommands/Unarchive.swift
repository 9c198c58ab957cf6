import ArgumentParser
import DocumentFormats
import FoundationEssentials
import KeyedArchive
import PropertyList
import TypedJSON

/// `plistkit unarchive FILE [-o OUT]`: a keyed archive of userInfo values as typed JSON.
struct Unarchive: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode an NSKeyedArchiver archive of userInfo values to typed JSON.",
        discussion: "Only the ten userInfo classes (and their mutable variants) are accepted. See Specs/typed-json.md."
    )

    @Argument(help: "The archive ('-' for standard input).")
    var file: String

    @OptionGroup var output: OutputOptions

    func run() throws {
        try reporting(file) {
            let bytes = try Files.read(file, limit: PropertyListLimits.default.maxInputBytes)
            let plist = try Document.read(any: bytes)
            let value = try KeyedArchiveReader().unarchive(plist, inputBytes: bytes.count)
            try output.write(Array(TypedJSONWriter(pretty: true).write(value)) + [0x0A])
        }
    }
}
