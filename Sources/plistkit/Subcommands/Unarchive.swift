import ArgumentParser
import DocumentFormats
import FoundationEssentials
import PropertyList

/// `plistkit unarchive FILE [-o OUT]`: a keyed archive of userInfo values as typed JSON.
struct Unarchive: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unarchive", 
        abstract: "Decode an NSKeyedArchiver archive of userInfo values to typed JSON.",
        discussion: "Only the ten userInfo classes (and their mutable variants) are accepted, unless --graph: then any archive, of any classes, is written as a graph of numbered objects (Specs/keyed-archive.md, \"Graph\"). See Specs/typed-json.md."
    )

    @Argument(help: "The archive ('-' for standard input).")
    var file: String

    @Flag(help: "Read any archive, of any classes, as a graph: {\"root\": {\"$ref\": N}, \"objects\": {\"N\": …}}.")
    var graph = false

    @Option(help: "With --graph: typed-json (default) or json.")
    var format: GraphFormat = .typedJSON

    enum GraphFormat: String, ExpressibleByArgument {
        case typedJSON = "typed-json"
        case json
    }

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if format == .json && !graph { throw ValidationError("--format json goes with --graph (a userInfo is written as typed JSON)") }
    }

    func run() throws {
        try reporting(file) {
            let bytes = try Files.read(file, limit: PropertyListLimits.default.maxInputBytes)
            let plist = try Document.read(document: bytes).value
            if graph {
                // Linear in the archive, and measured against the input's budget like every output.
                let rendered = try Document.archiveGraph(plist, plainJSON: format == .json, inputBytes: bytes.count)
                try output.write(try Document.writeBytes(rendered, as: format == .json ? .json : .typedJSON, keyOrder: .insertion, readable: true))
                return
            }
            let value = try Document.unarchive(plist, inputBytes: bytes.count)
            try output.write(try Document.typedJSON(value))
        }
    }
}
