import ArgumentParser
import DocumentFormats
import PropertyList

/// `plistkit convert FILE --format F [-o OUT]`.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a property list (binary, XML or plain JSON) to another format.",
        discussion: "Writes to standard output unless -o is given (unlike plutil, never in place). Output files are replaced atomically."
    )

    @Argument(help: "The file to convert ('-' for standard input).")
    var file: String

    @Option(name: .long, help: "Output format: \(ConvertFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ConvertFormat

    @OptionGroup var output: OutputOptions

    func run() throws {
        try reporting(file) {
            let bytes = try Files.read(file, limit: PropertyListLimits.default.maxInputBytes)
            // Apple's wire forms hold userInfo values, not a property list: typed JSON only.
            if let wire = WireFormat.detect(bytes) {
                guard format == .typedJSON else {
                    throw PropertyListError(.unrepresentableValue, "\(wire == .mpUserInfo ? "an MP userInfo" : "an activity container") converts to typed-json only (its values are userInfo values, not a property list)")
                }
                try output.write(try WireDocuments.typedJSON(bytes)!)
                return
            }
            // Binary, XML or plain JSON, as plutil reads them.
            let value = try InputDocument.read(bytes).value
            let encoded = try Document.writeBytes(value, as: format.output)
            try output.write(encoded)
        }
    }
}
