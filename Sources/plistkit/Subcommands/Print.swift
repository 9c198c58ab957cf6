import ArgumentParser
import DocumentFormats
import Handoff
import PropertyList
import UserInfo

/// `plistkit print FILE`: a readable tree, like `plutil -p`.
struct Print: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a property list, an MP userInfo or an activity container as a readable tree.")

    @Argument(help: "The file to print ('-' for standard input).")
    var file: String

    func run() throws {
        try reporting(file) {
            let bytes = try Files.read(file, limit: PropertyListLimits.default.maxInputBytes)
            // Apple's wire forms: an MP userInfo, an activity container.
            if let text = try WireDocuments.description(bytes) {
                try Console.line(text)
                return
            }
            // Binary, XML, plain JSON or OpenStep (the format layer).
            let value = try Document.read(document: bytes).value
            // A keyed archive of userInfo values prints as the userInfo tree;
            // any other property list (other archives included) as itself.
            if Document.isArchive(value), let userInfo = try? Document.unarchive(value, inputBytes: bytes.count) {
                try Console.line(userInfo.description)
            } else if Document.isArchive(value), let rendered = try Document.archiveGraphIfAny(value, inputBytes: bytes.count) {
                // An archive of other classes: its objects, numbered, references as {"$ref": N},
                // measured against the input's budget like every output.
                try Console.line(rendered.description)
            } else {
                try Console.line(value.description)
            }
        }
    }
}
