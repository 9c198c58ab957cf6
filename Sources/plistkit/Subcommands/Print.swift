import ArgumentParser
import DocumentFormats
import Handoff
@_spi(ByteKit) import PropertyList
import UserInfo

/// `plistkit print FILE`: a readable tree, like `plutil -p`.
struct Print: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "print", abstract: "Print a property list, an MP userInfo or an activity container as a readable tree.")

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
            // Binary, XML, plain JSON or OpenStep (the format layer), rendered
            // through the one bounded walk into the counted output, within the
            // budget the input sets (Specs/architecture.md, "One bounded walk").
            let value = try Document.read(document: bytes).value
            let budget = PropertyListLimits.default.expansionBudget(inputBytes: bytes.count)
            var meter = ExpansionMeter(limit: budget)
            var output = CountedOutput(expansionBudget: budget)
            // A keyed archive of userInfo values prints as the userInfo tree;
            // any other property list (other archives included) as itself.
            if Document.isArchive(value), let userInfo = try? Document.unarchive(value, inputBytes: bytes.count) {
                try ReadableText.append(userInfo, .tree, meter: &meter, to: &output)
            } else if Document.isArchive(value), let rendered = try Document.archiveGraphIfAny(value, inputBytes: bytes.count) {
                // An archive of other classes: its objects, numbered, references as {"$ref": N}.
                try ReadableText.append(rendered, .tree, meter: &meter, to: &output)
            } else {
                try ReadableText.append(value, .tree, meter: &meter, to: &output)
            }
            try Console.line(output.text)
        }
    }
}
